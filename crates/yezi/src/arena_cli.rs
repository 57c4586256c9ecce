//! `yezi arena`: duplicate matches between two bots, for either game.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ai::arena::{self, Aggregator, Config, DealResult, Report, Scheme, Side};
use ai::ext::Fallbacks;
use ai::players::TimeSummary;
use anyhow::Context as _;
use clap::Args;

use crate::GameArg;

#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The game.
    pub game: GameArg,
    /// The candidate bot (side A).
    #[arg(long)]
    pub a: String,
    /// The baseline bot (side B).
    #[arg(long)]
    pub b: String,
    /// How many deals (each is played several times: 5 runs in Madiao, 3 in Da Bai Fen).
    #[arg(long, default_value_t = 1000)]
    pub hands: u64,
    /// The seed every deal and every bot's seed come from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Thinking per decision for both sides, in nominal milliseconds (bots turn it into a fixed
    /// amount of work).
    #[arg(long, default_value_t = 100)]
    pub think_ms: u32,
    /// External bots (`ext:COMMAND`, docs/bot-protocol.md): milliseconds a bot has to answer one
    /// decision; a bot that is later is killed and the decision falls back.
    #[arg(long, default_value_t = ai::ext::ExtLimits::default().time_limit_ms, value_parser = clap::value_parser!(u32).range(1..))]
    pub time_limit_ms: u32,
    /// External bots: milliseconds a bot has to answer the handshake after it is started.
    #[arg(long, default_value_t = ai::ext::ExtLimits::default().start_limit_ms, value_parser = clap::value_parser!(u32).range(1..))]
    pub start_limit_ms: u32,
    /// Worker threads; the results are the same for any number.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The rules preset.
    #[arg(long, default_value = "standard")]
    pub rules: String,
    /// A variant override, `name=value`; repeatable.
    #[arg(long = "variant", value_name = "NAME=VALUE")]
    pub variants: Vec<String>,
    /// Print the report as JSON on standard output instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write the report as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json_out: Option<PathBuf>,
    /// Write every run of every deal as a `yezi/1` record, one per line (JSON Lines), with an
    /// `arena` member naming the deal and the run.
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Write one line per deal (JSON Lines): its setup, each run's outcome and scores, and its
    /// observations.
    #[arg(long, value_name = "FILE")]
    pub deals: Option<PathBuf>,
    /// Write a chart of the running mean difference with its 95% interval: SVG, or an HTML page
    /// with the chart and the report when the name ends in `.html`.
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
    /// No progress bar on standard error.
    #[arg(long)]
    pub quiet: bool,
}

fn create(path: &Path) -> anyhow::Result<std::io::BufWriter<std::fs::File>> {
    Ok(std::io::BufWriter::new(
        std::fs::File::create(path).with_context(|| format!("writing {}", path.display()))?,
    ))
}

/// Runs the arena for either game.
pub fn arena(args: &ArenaArgs) -> anyhow::Result<()> {
    let overrides = crate::parse_variant_args(&args.variants)?;
    match args.game {
        GameArg::Madiao => {
            let variants = madiao::Variants::preset(&args.rules)
                .and_then(|v| v.with_overrides(&overrides))
                .context("--rules/--variant")?;
            let rules = ai::arena::madiao::MadiaoRules { preset: args.rules.clone(), variants };
            run_game::<ai::Madiao>(args, rules, &variants.to_string())
        }
        GameArg::Dabaifen => {
            let variants =
                dabaifen::Variants::preset(&args.rules)?.with_overrides(&overrides).context("--variant")?;
            run_game::<ai::Dabaifen>(args, variants, &variants.to_string())
        }
    }
}

struct Progress {
    start: Instant,
    last: Instant,
    total: u64,
    tty: bool,
    quiet: bool,
}

impl Progress {
    fn new(total: u64, quiet: bool) -> Progress {
        let now = Instant::now();
        Progress { start: now, last: now, total, tty: std::io::stderr().is_terminal(), quiet }
    }

    fn update<G: Scheme>(&mut self, done: u64, agg: &Aggregator<G>) {
        if self.quiet {
            return;
        }
        let now = Instant::now();
        let every = if self.tty { Duration::from_millis(200) } else { Duration::from_secs(30) };
        if done < self.total && now.duration_since(self.last) < every {
            return;
        }
        self.last = now;
        let secs = now.duration_since(self.start).as_secs_f64();
        let rate = done as f64 / secs.max(1e-9);
        let eta = if done == 0 { 0.0 } else { (self.total - done) as f64 / rate };
        let frac = done as f64 / self.total.max(1) as f64;
        let width = 30;
        let filled = (frac * width as f64).round() as usize;
        let bar: String = "#".repeat(filled) + &".".repeat(width - filled);
        let s = agg.current();
        let cur = s
            .first()
            .filter(|s| s.n >= 2)
            .map(|s| format!(" | overall {:+.3} [{:+.3}, {:+.3}]", s.diff.mean, s.diff.low, s.diff.high))
            .unwrap_or_default();
        let line = format!(
            "[{bar}] {done}/{} deals {:5.1}% {:.2} deals/s elapsed {} ETA {}{cur}",
            self.total,
            frac * 100.0,
            rate,
            hms(secs),
            hms(eta)
        );
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r{line}\x1b[K");
            if done >= self.total {
                let _ = writeln!(err);
            }
        } else {
            let _ = writeln!(err, "{line}");
        }
    }
}

fn hms(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

fn run_game<G: Scheme>(args: &ArenaArgs, rules: G::Rules, rules_text: &str) -> anyhow::Result<()> {
    let cfg = Config {
        a: args.a.clone(),
        b: args.b.clone(),
        hands: args.hands,
        seed: args.seed,
        budget: ai::Budget { think_ms: args.think_ms },
        threads: args.threads,
        rules: rules.clone(),
        limits: ai::ext::ExtLimits { time_limit_ms: args.time_limit_ms, start_limit_ms: args.start_limit_ms },
    };
    let mut records = args.records.as_deref().map(create).transpose()?;
    let mut deals = args.deals.as_deref().map(create).transpose()?;
    let mut progress = Progress::new(args.hands, args.quiet);
    progress.update(0, &Aggregator::<G>::new(args.hands));
    let write_deal = |d: &DealResult<G>, agg: &Aggregator<G>| -> Result<(), arena::CallbackError> {
        if let Some(w) = records.as_mut() {
            for r in &d.runs {
                let players: [String; 4] = std::array::from_fn(|s| {
                    if r.seating.sides[s] == Side::A { args.a.clone() } else { args.b.clone() }
                });
                let mut v = G::record(&rules, args.seed, r, players);
                if let Some(o) = v.as_object_mut() {
                    o.insert(
                        "arena".to_string(),
                        serde_json::json!({ "deal": d.index, "run": r.seating.label, "a": args.a, "b": args.b }),
                    );
                }
                writeln!(w, "{v}").map_err(|e| format!("writing the records: {e}"))?;
            }
        }
        if let Some(w) = deals.as_mut() {
            let line = serde_json::to_string(&d.line()).map_err(|e| e.to_string())?;
            writeln!(w, "{line}").map_err(|e| format!("writing the deals: {e}"))?;
        }
        progress.update(d.index + 1, agg);
        Ok(())
    };
    let report = arena::run::<G>(&cfg, write_deal)?;
    for (w, path) in [(records, &args.records), (deals, &args.deals)] {
        if let (Some(mut w), Some(p)) = (w, path) {
            w.flush().with_context(|| format!("writing {}", p.display()))?;
        }
    }
    let text = report_text(&report, rules_text, args.threads);
    if let Some(path) = &args.chart {
        let svg = arena::chart::svg(&report);
        let is_html = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("html"));
        let doc = if is_html {
            format!(
                "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>yezi arena: {} vs {}</title></head>\n<body>\n{svg}<pre>{}</pre>\n</body></html>\n",
                html_escape(&args.a),
                html_escape(&args.b),
                html_escape(&text)
            )
        } else {
            svg
        };
        std::fs::write(path, doc).with_context(|| format!("writing {}", path.display()))?;
    }
    let json = serde_json::to_string_pretty(&report_json(&report, rules_text))?;
    if let Some(path) = &args.json_out {
        std::fs::write(path, format!("{json}\n")).with_context(|| format!("writing {}", path.display()))?;
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{json}")?;
    } else {
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn report_json(report: &Report, rules: &str) -> serde_json::Value {
    let mut v = serde_json::to_value(report).unwrap_or(serde_json::Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("rules".to_string(), serde_json::Value::from(rules));
    }
    v
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.0}")
    } else if x > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

fn times_text(t: &Option<TimeSummary>) -> String {
    match t {
        Some(t) => format!(
            "{} decisions, mean {:.3} ms, median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
            t.decisions, t.mean_ms, t.median_ms, t.p90_ms, t.p99_ms, t.max_ms
        ),
        None => "no decisions".to_string(),
    }
}

/// The report in words and a table.
pub fn report_text(r: &Report, rules: &str, threads: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} arena: {} (A) vs {} (B), {} deals, seed {}, think {} ms, {} thread(s)",
        r.game, r.a, r.b, r.hands, r.seed, r.think_ms, threads
    );
    let _ = writeln!(s, "rules: {rules}");
    let _ = writeln!(s, "scheme: {}", r.scheme);
    let mut measure = "";
    for sr in &r.series {
        let k = sr.key;
        if k.measure != measure {
            measure = k.measure;
            let _ = writeln!(s);
            let _ = writeln!(s, "{} difference per deal, A − B ({}):", k.measure, k.unit);
            let _ = writeln!(
                s,
                "  {:<10} {:>6} {:>9} {:>21} {:>7} {:>6} {:>6} {:>6} {:>20} {:>17}",
                "role",
                "n",
                "mean",
                "95% interval",
                "sd",
                "wins",
                "ties",
                "losses",
                "win rate (95%)",
                "Elo (95%)"
            );
        }
        let m = &sr.summary;
        let _ = writeln!(
            s,
            "  {:<10} {:>6} {:>+9.4} [{:>+9.4}, {:>+9.4}] {:>7.3} {:>6} {:>6} {:>6} {:>6.3} [{:.3}, {:.3}] {:>5} [{}, {}]{}",
            k.role,
            m.n,
            m.diff.mean,
            m.diff.low,
            m.diff.high,
            m.sd,
            m.wins,
            m.ties,
            m.losses,
            m.win_rate.mean,
            m.win_rate.low,
            m.win_rate.high,
            fmt_elo(m.elo.mean),
            fmt_elo(m.elo.low),
            fmt_elo(m.elo.high),
            if m.significant_gain {
                "  A better"
            } else if m.n >= 2 && m.diff.high < 0.0 {
                "  B better"
            } else {
                ""
            }
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "decision times (wall clock, not part of the reproducible results):");
    let _ = writeln!(s, "  A {}: {}", r.a, times_text(&r.times_a));
    let _ = writeln!(s, "  B {}: {}", r.b, times_text(&r.times_b));
    if r.fallbacks_a.is_some() || r.fallbacks_b.is_some() {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "external bots' fallbacks (decisions they failed, played as the first legal action):"
        );
        for (side, name, f) in [("A", &r.a, &r.fallbacks_a), ("B", &r.b, &r.fallbacks_b)] {
            if let Some(f) = f {
                let _ = writeln!(s, "  {side} {name}: {}", fallbacks_text(f));
            }
        }
    }
    s
}

fn fallbacks_text(f: &Fallbacks) -> String {
    format!("{} of {} decisions: {}", f.total(), f.decisions, f.causes())
}
