//! The fraction of the gap between a baseline and a better reference that a candidate closes,
//! from two `yezi arena --deals` files played on the same deals (same seed and game):
//! `candidate vs baseline` and `reference vs baseline`. Per series, the ratio of the mean
//! differences with a 95% interval by the delta method on the paired per-deal observations.
//!
//! ```sh
//! cargo run --release -p ai --example gap_closed -- pimc-heur.deals cheat-heur.deals
//! ```

#[path = "common/deals.rs"]
mod deals;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: gap_closed CANDIDATE.deals REFERENCE.deals");
        std::process::exit(2);
    }
    let (a, b) = (deals::read(&args[1]), deals::read(&args[2]));
    assert!(a.keys().eq(b.keys()), "the two files must hold the same deals");
    let keys: Vec<String> = a.values().next().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    println!(
        "{} deals; fraction of the reference's gain the candidate reaches (95% interval, delta method):",
        a.len()
    );
    for k in keys {
        let pairs: Vec<(f64, f64)> =
            a.values().zip(b.values()).filter_map(|(x, y)| Some((*x.get(&k)?, *y.get(&k)?))).collect();
        let n = pairs.len() as f64;
        let mx = pairs.iter().map(|p| p.0).sum::<f64>() / n;
        let my = pairs.iter().map(|p| p.1).sum::<f64>() / n;
        let vx = pairs.iter().map(|p| (p.0 - mx).powi(2)).sum::<f64>() / (n - 1.0);
        let vy = pairs.iter().map(|p| (p.1 - my).powi(2)).sum::<f64>() / (n - 1.0);
        let cxy = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / (n - 1.0);
        let r = mx / my;
        let se = ((vx - 2.0 * r * cxy + r * r * vy) / n).max(0.0).sqrt() / my.abs();
        println!(
            "  {k:<20} candidate {mx:+.4}, reference {my:+.4}: {:.1}% [{:.1}%, {:.1}%]",
            100.0 * r,
            100.0 * (r - 1.96 * se),
            100.0 * (r + 1.96 * se)
        );
    }
}
