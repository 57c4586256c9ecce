//! An SVG chart of an arena run: the running mean difference of each role of the primary measure,
//! with its 95% interval as a band, and the zero line.

use std::fmt::Write as _;

use super::{Report, RunningPoint};

const W: f64 = 940.0;
const H: f64 = 480.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 240.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 50.0;
const COLORS: [&str; 4] = ["#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad"];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A "nice" step for about `n` ticks over `span`.
fn nice_step(span: f64, n: f64) -> f64 {
    let raw = (span / n).max(1e-12);
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let nice = if f < 1.5 {
        1.0
    } else if f < 3.0 {
        2.0
    } else if f < 7.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// The chart of `report` as an SVG document.
pub fn svg(report: &Report) -> String {
    let primary = report.series.first().map_or("", |s| s.key.measure);
    let series: Vec<(usize, &str, &str, &[RunningPoint])> = report
        .series
        .iter()
        .enumerate()
        .filter(|(_, s)| s.key.measure == primary)
        .map(|(i, s)| (i, s.key.role, s.key.unit, report.running.get(i).map_or(&[][..], Vec::as_slice)))
        .collect();
    let unit = series.first().map_or("", |s| s.2);
    let max_x = report.hands.max(1) as f64;
    // The y range: the means everywhere, the bands once a tenth of the deals are in (the first
    // intervals are very wide).
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for (_, _, _, pts) in &series {
        for p in pts.iter() {
            if p.diff.mean.is_finite() {
                lo = lo.min(p.diff.mean);
                hi = hi.max(p.diff.mean);
            }
            if p.deals as f64 >= max_x / 10.0 && p.diff.low.is_finite() && p.diff.high.is_finite() {
                lo = lo.min(p.diff.low);
                hi = hi.max(p.diff.high);
            }
        }
    }
    if hi - lo < 1e-9 {
        hi += 0.5;
        lo -= 0.5;
    }
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (lo - pad, hi + pad);
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    let x = |d: f64| LEFT + d / max_x * pw;
    let y = |v: f64| TOP + (hi - v.clamp(lo, hi)) / (hi - lo) * ph;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let title = format!(
        "{}: {} (A) vs {} (B), {} deals, seed {} — running mean of A − B per deal, 95% interval",
        report.game, report.a, report.b, report.hands, report.seed
    );
    let _ = writeln!(s, r#"<text x="{LEFT}" y="24" font-size="14">{}</text>"#, esc(&title));
    let _ = writeln!(
        s,
        r#"<defs><clipPath id="plot"><rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}"/></clipPath></defs>"#
    );
    // Grid and y labels.
    let step = nice_step(hi - lo, 6.0);
    let mut v = (lo / step).ceil() * step;
    while v <= hi {
        let yy = y(v);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#e4e4e4"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT + pw,
            LEFT - 6.0,
            yy + 4.0,
            trim(v, step)
        );
        v += step;
    }
    // X labels.
    let xstep = nice_step(max_x, 8.0).max(1.0);
    let mut d = 0.0;
    while d <= max_x + 1e-9 {
        let xx = x(d);
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{TOP}" x2="{xx:.1}" y2="{:.1}" stroke="#f0f0f0"/><text x="{xx:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            TOP + ph,
            TOP + ph + 18.0,
            d as u64
        );
        d += xstep;
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">deals</text>"#,
        LEFT + pw / 2.0,
        H - 10.0
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">{} ({})</text>"#,
        TOP + ph / 2.0,
        esc(primary),
        esc(unit)
    );
    // Zero line.
    if lo < 0.0 && hi > 0.0 {
        let _ = writeln!(
            s,
            r#"<line x1="{LEFT}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="black" stroke-width="1"/>"#,
            y(0.0),
            LEFT + pw
        );
    }
    // Bands and lines.
    let _ = writeln!(s, r#"<g clip-path="url(#plot)">"#);
    for (k, (_, _, _, pts)) in series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let finite: Vec<&RunningPoint> =
            pts.iter().filter(|p| p.diff.low.is_finite() && p.diff.high.is_finite()).collect();
        if finite.len() >= 2 {
            let mut path = String::new();
            for (i, p) in finite.iter().enumerate() {
                let _ = write!(
                    path,
                    "{}{:.1},{:.1} ",
                    if i == 0 { "M" } else { "L" },
                    x(p.deals as f64),
                    y(p.diff.high)
                );
            }
            for p in finite.iter().rev() {
                let _ = write!(path, "L{:.1},{:.1} ", x(p.deals as f64), y(p.diff.low));
            }
            let _ = writeln!(
                s,
                r#"<path d="{}Z" fill="{color}" fill-opacity="0.12" stroke="none"/>"#,
                path.trim_end()
            );
        }
        let line: Vec<String> =
            pts.iter().map(|p| format!("{:.1},{:.1}", x(p.deals as f64), y(p.diff.mean))).collect();
        if !line.is_empty() {
            let width = if k == 0 { 2.0 } else { 1.3 };
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="{width}"/>"#,
                line.join(" ")
            );
        }
    }
    let _ = writeln!(s, "</g>");
    let _ =
        writeln!(s, r##"<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>"##);
    // Legend with final values.
    for (k, (i, role, _, _)) in series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let yy = TOP + 14.0 + 40.0 * k as f64;
        let lx = LEFT + pw + 12.0;
        let _ = writeln!(
            s,
            r#"<rect x="{lx:.1}" y="{:.1}" width="12" height="12" fill="{color}"/><text x="{:.1}" y="{yy:.1}">{}</text>"#,
            yy - 10.0,
            lx + 18.0,
            esc(role)
        );
        if let Some(sr) = report.series.get(*i) {
            let d = sr.summary.diff;
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="11">{:+.3} [{:+.3}, {:+.3}]</text>"#,
                lx + 18.0,
                yy + 15.0,
                d.mean,
                d.low,
                d.high
            );
        }
    }
    let _ = writeln!(s, "</svg>");
    s
}

fn trim(v: f64, step: f64) -> String {
    let digits = if step >= 1.0 { 0 } else { (-step.log10().floor()) as usize };
    let v = if v.abs() < step * 1e-6 { 0.0 } else { v };
    format!("{v:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Budget;
    use crate::Madiao;
    use crate::arena::madiao::MadiaoRules;
    use crate::arena::{Config, run};

    #[test]
    fn the_chart_is_an_svg_with_a_band_and_a_line_per_role() {
        let cfg = Config {
            a: "random".to_string(),
            b: "random".to_string(),
            hands: 40,
            seed: 3,
            budget: Budget::default(),
            threads: 1,
            rules: MadiaoRules::default(),
            limits: crate::ext::ExtLimits::default(),
        };
        let report = run::<Madiao>(&cfg, |_, _| Ok(())).unwrap();
        let text = svg(&report);
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
        assert_eq!(text.matches("<polyline").count(), 3);
        assert_eq!(text.matches("fill-opacity").count(), 3);
        for role in ["overall", "banker", "players"] {
            assert!(text.contains(&format!(">{role}</text>")), "{role}");
        }
        assert!(!text.contains("NaN") && !text.contains("inf"));
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(10.0, 5.0), 2.0);
        assert_eq!(nice_step(1.0, 6.0), 0.2);
        assert_eq!(nice_step(5000.0, 8.0), 500.0);
        assert_eq!(trim(0.30000000000000004, 0.1), "0.3");
    }
}
