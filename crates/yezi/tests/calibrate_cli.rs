//! `yezi calibrate`: the bots' ratings from whole matches, for both games.

use std::process::{Command, Output};

fn yezi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yezi")).args(args).output().expect("yezi runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn rating(report: &serde_json::Value, bot: &str) -> f64 {
    report["bots"].as_array().unwrap().iter().find(|b| b["bot"] == bot).unwrap()["rating"].as_f64().unwrap()
}

#[test]
fn heuristic_outrates_random_in_both_games_for_any_thread_count() {
    for (game, matches) in [("madiao", "16"), ("dabaifen", "6")] {
        let args = ["calibrate", game, "--bots", "random,heuristic", "--matches", matches, "--seed", "3"];
        let one = json(&yezi(&[&args[..], &["--json", "--threads", "1"]].concat()));
        let two = json(&yezi(&[&args[..], &["--json", "--threads", "2"]].concat()));
        assert_eq!(one["bots"], two["bots"], "{game}: the same results for any --threads");
        assert_eq!(rating(&one, "heuristic"), 1500.0, "{game}: the anchor keeps its rating");
        assert!(rating(&one, "random") < 1400.0, "{game}: {one}");
        let pair = &one["pairs"][0];
        let games = pair["games"].as_u64().unwrap();
        assert!(games > 0);
        // Every game counted once for each of its two bots.
        let total: u64 = one["bots"].as_array().unwrap().iter().map(|b| b["games"].as_u64().unwrap()).sum();
        assert_eq!(total, 2 * games);
        let scores: f64 = one["bots"].as_array().unwrap().iter().map(|b| b["score"].as_f64().unwrap()).sum();
        assert_eq!(scores, games as f64, "every game gives out one point");
    }
}

#[test]
fn bad_arguments_get_a_clear_error() {
    for (args, needle) in [
        (&["calibrate", "madiao", "--bots", "random"][..], "at least two"),
        (&["calibrate", "madiao", "--bots", "random,nosuchbot", "--anchor", "random"], "nosuchbot"),
        (&["calibrate", "madiao", "--bots", "random,random"], "twice"),
        (&["calibrate", "madiao", "--bots", "random,pimc"], "anchor"),
    ] {
        let out = yezi(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
