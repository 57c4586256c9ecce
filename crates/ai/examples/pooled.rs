//! Several `yezi arena --deals` files of one pairing played on different deals (other seeds, or a
//! run cut short and another begun) read as one sample: for each observation series, every file's
//! mean and the pooled mean with its 95% interval, computed as the arena computes them
//! (`ai::arena::stats`: Student's t over the deals).
//!
//! ```sh
//! cargo run --release -p ai --example pooled -- s1.deals s2.deals s3.deals
//! ```

#[path = "common/deals.rs"]
mod deals;

use std::collections::BTreeMap;

use ai::arena::stats::Accumulator;

/// One series' line: its count, mean and 95% interval, wins, ties and losses.
fn line(label: &str, acc: &Accumulator) {
    if acc.n() < 2 {
        return;
    }
    let s = acc.summary();
    println!(
        "  {label:<24} n {:>5}  {:+.4} [{:+.4}, {:+.4}]  wins {}, ties {}, losses {}",
        s.n, s.diff.mean, s.diff.low, s.diff.high, s.wins, s.ties, s.losses
    );
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: pooled A.deals [B.deals …]");
        std::process::exit(2);
    }
    let mut pooled: BTreeMap<String, Accumulator> = BTreeMap::new();
    for f in &files {
        let deals = deals::read(f);
        println!("{f}: {} deals", deals.len());
        let mut own: BTreeMap<String, Accumulator> = BTreeMap::new();
        for obs in deals.values() {
            for (k, x) in obs {
                own.entry(k.clone()).or_default().push(*x);
                pooled.entry(k.clone()).or_default().push(*x);
            }
        }
        for (k, acc) in &own {
            line(k, acc);
        }
    }
    if files.len() > 1 {
        println!("all {} files together:", files.len());
        for (k, acc) in &pooled {
            line(k, acc);
        }
    }
}
