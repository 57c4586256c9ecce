//! The Da Bai Fen bots through the command line: short arena, sim and bench runs (smoke runs; the
//! figures of `docs/strength.md` come from the long runs written there).

use std::process::{Command, Output};

fn yezi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yezi")).args(args).output().expect("yezi runs")
}

fn report(args: &[&str]) -> serde_json::Value {
    let out = yezi(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn mean(report: &serde_json::Value, measure: &str, role: &str) -> (u64, f64) {
    let s = report["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"]["measure"] == measure && s["key"]["role"] == role)
        .unwrap_or_else(|| panic!("no series {measure}/{role}"));
    (s["summary"]["n"].as_u64().unwrap(), s["summary"]["diff"]["mean"].as_f64().unwrap())
}

#[test]
fn the_heuristic_beats_random_in_a_short_arena_run() {
    let r = report(&[
        "arena",
        "dabaifen",
        "--a",
        "heuristic",
        "--b",
        "random",
        "--hands",
        "40",
        "--seed",
        "2",
        "--json",
        "--quiet",
    ]);
    let (n, overall) = mean(&r, "game_points", "overall");
    assert_eq!(n, 40);
    // Random declarers lose most deals and random defenders rarely reach 40: far above zero.
    assert!(overall > 1.0, "heuristic − random = {overall}");
    assert!(mean(&r, "game_points", "declarers").1 > 0.5);
}

#[test]
fn pimc_and_the_cheater_play_arena_deals() {
    for a in ["pimc", "cheater"] {
        let r = report(&[
            "arena",
            "dabaifen",
            "--a",
            a,
            "--b",
            "heuristic",
            "--hands",
            "3",
            "--seed",
            "4",
            "--think-ms",
            "5",
            "--json",
            "--quiet",
        ]);
        assert_eq!(mean(&r, "game_points", "overall").0, 3, "{a}");
        assert!(r["times_a"]["decisions"].as_u64().unwrap() > 0, "{a}");
    }
}

#[test]
fn sim_and_bench_accept_the_dabaifen_bots() {
    let out = yezi(&[
        "sim",
        "dabaifen",
        "--bots",
        "heuristic,pimc,random,pimc",
        "--hands",
        "2",
        "--seed",
        "9",
        "--think-ms",
        "5",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("pimc") && s.contains("heuristic"), "{s}");
    let out = yezi(&["bench", "dabaifen", "--bots", "pimc", "--hands", "1", "--think-ms", "5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("pimc:") && s.contains("median"), "{s}");
}
