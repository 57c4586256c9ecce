//! Reading `yezi arena --deals` files (JSON Lines, one deal a line), shared by the examples that
//! compare two of them.

use std::collections::BTreeMap;

/// Each deal's observations by series, keyed by the deal's index.
pub fn read(path: &str) -> BTreeMap<u64, BTreeMap<String, f64>> {
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
