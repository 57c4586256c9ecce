//! The paired difference between two `yezi arena --deals` files played on the same deals (same
//! game and seed, e.g. two candidates against one baseline): for each observation series, the
//! mean per-deal difference (first file minus second) with its 95% interval, over the deals
//! both files hold.
//!
//! ```sh
//! cargo run --release -p ai --example paired -- new-vs-heur.deals pimc-vs-heur.deals
//! ```

use std::collections::BTreeMap;

/// Each deal's observations by series, keyed by the deal's index.
fn read(path: &str) -> BTreeMap<u64, BTreeMap<String, f64>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            let deal = v["deal"].as_u64().expect("a deal index");
            let obs = v["observations"].as_object().cloned().unwrap_or_default();
            (deal, obs.into_iter().filter_map(|(k, x)| x.as_f64().map(|x| (k, x))).collect())
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: paired A.deals B.deals");
        std::process::exit(2);
    }
    let (a, b) = (read(&args[1]), read(&args[2]));
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
