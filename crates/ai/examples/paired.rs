//! The paired difference between two `yezi arena --deals` files played on the same deals (same
//! game and seed, e.g. two candidates against one baseline): for each observation series, the
//! mean per-deal difference (first file minus second) with its 95% interval, over the deals
//! both files hold.
//!
//! ```sh
//! cargo run --release -p ai --example paired -- new-vs-heur.deals pimc-vs-heur.deals
//! ```

#[path = "common/deals.rs"]
mod deals;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: paired A.deals B.deals");
        std::process::exit(2);
    }
    let (a, b) = (deals::read(&args[1]), deals::read(&args[2]));
    let common: Vec<u64> = a.keys().filter(|d| b.contains_key(d)).copied().collect();
    println!("{} deals in both; mean difference per deal, first minus second (95% interval):", common.len());
    let keys: Vec<String> = common.first().map(|d| a[d].keys().cloned().collect()).unwrap_or_default();
    for k in keys {
        let diffs: Vec<f64> = common.iter().filter_map(|d| Some(a[d].get(&k)? - b[d].get(&k)?)).collect();
        let n = diffs.len() as f64;
        if n < 2.0 {
            continue;
        }
        let m = diffs.iter().sum::<f64>() / n;
        let sd = (diffs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let h = 1.96 * sd / n.sqrt();
        let changed = diffs.iter().filter(|x| x.abs() > 1e-9).count();
        println!(
            "  {k:<22} {m:+.4} [{:+.4}, {:+.4}]  sd {sd:.3}, {changed} of {} deals differ",
            m - h,
            m + h,
            diffs.len()
        );
    }
}
