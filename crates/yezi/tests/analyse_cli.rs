//! `yezi analyse` as a user runs it: on records written by `yezi sim` with bots and a seed (one
//! record, and gzip-compressed JSON Lines) and by `yezi arena --records` (JSON Lines), the JSON shape of docs/analysis.md, the same output
//! for the same seed, the step-by-step report, and clear errors for bad requests.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn yezi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yezi")).args(args).output().expect("yezi runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yezi-analyse-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A one-hand record of `game` played by heuristic bots with seed `seed`.
fn sim(game: &str, seed: u64) -> PathBuf {
    let path = tmp(&format!("{game}-{seed}.json"));
    let out = yezi(&[
        "sim",
        game,
        "--hands",
        "1",
        "--bots",
        "heuristic",
        "--seed",
        &seed.to_string(),
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(path.exists(), "yezi sim wrote no record");
    path
}

fn analyse_json(args: &[&str]) -> Value {
    let mut all = vec!["analyse", "--json", "--think-ms", "5"];
    all.extend_from_slice(args);
    let out = yezi(&all);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("analyse --json prints JSON")
}

/// Checks the documented shape of an analysis; the number of searched decisions.
fn check_shape(a: &Value, game: &str, unit: &str) -> usize {
    assert_eq!(a["game"], game);
    assert_eq!(a["unit"], unit);
    assert!(a["hand"].is_u64() && a["seat"].is_u64() && a["seed"].is_u64() && a["think_ms"].is_u64());
    assert_eq!(a["marks"].as_array().unwrap().len(), 3);
    let mut searched = 0;
    for d in a["decisions"].as_array().unwrap() {
        assert!(d["trick"].is_u64() || d["trick"].is_null(), "{d}");
        assert!(d["played"].is_string(), "{d}");
        let v = &d["verdict"];
        match v["kind"].as_str().unwrap() {
            "searched" => {
                searched += 1;
                for k in ["played_value", "bot_value", "cost"] {
                    assert!(v[k].is_f64(), "{k} in {v}");
                }
                assert!(v["bot"].is_string() && v["samples"].is_u64());
                assert!(v["cost"].as_f64().unwrap() >= 0.0);
                assert!(
                    v["mark"].is_null()
                        || ["inaccuracy", "mistake", "blunder"].contains(&v["mark"].as_str().unwrap())
                );
                let cands = v["candidates"].as_array().unwrap();
                assert!(cands.len() >= 2, "{v}");
                for c in cands {
                    assert!(c["action"].is_string() && c["value"].is_f64() && c["considered"].is_boolean());
                    // Da Bai Fen's plays and burials carry the expected defenders' points.
                    let measured = game == "dabaifen"
                        && ["play", "bury"].iter().any(|k| d["played"].as_str().unwrap().starts_with(k));
                    assert_eq!(c["points"].is_f64(), measured, "{c}");
                }
                let f = &v["face_up"];
                match f["status"].as_str().unwrap() {
                    "solved" => {
                        assert!(f["best"].is_string());
                        for k in ["best_value", "played_value", "cost"] {
                            assert!(f[k].is_f64(), "{k} in {f}");
                        }
                    }
                    "unsolved" => assert!(f["reason"].is_string()),
                    other => panic!("face_up status {other}"),
                }
            }
            "forced" => {}
            "not_analysed" => assert!(v["reason"].is_string()),
            other => panic!("verdict kind {other}"),
        }
    }
    let s = &a["summary"];
    assert_eq!(s["decisions"].as_u64().unwrap() as usize, a["decisions"].as_array().unwrap().len());
    assert_eq!(s["searched"].as_u64().unwrap() as usize, searched);
    for k in ["inaccuracies", "mistakes", "blunders", "face_up_solved"] {
        assert!(s[k].is_u64(), "{k}");
    }
    assert!(s["total_cost"].is_f64() && s["face_up_cost"].is_f64());
    searched
}

/// The record's actions by `seat`, as `kind card` words (Madiao).
fn madiao_actions_of(path: &PathBuf, seat: u64) -> Vec<String> {
    let rec: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    rec["hands"][0]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["seat"] == seat)
        .map(|a| {
            if let Some(c) = a["play"].as_str() {
                format!("play {c}")
            } else if let Some(c) = a["slough"].as_str() {
                format!("slough {c}")
            } else if a["redeal"] == true {
                "force a redeal".into()
            } else {
                "decline a redeal".into()
            }
        })
        .collect()
}

#[test]
fn analyse_prints_a_madiao_hands_analysis_as_json_the_same_for_a_seed() {
    let rec = sim("madiao", 11);
    let file = rec.to_str().unwrap();
    let a = analyse_json(&[file, "--seat", "2", "--seed", "9"]);
    assert!(check_shape(&a, "madiao", "stakes") >= 3);
    assert_eq!((a["seat"].as_u64(), a["seed"].as_u64(), a["hand"].as_u64()), (Some(2), Some(9), Some(0)));
    // Every decision of seat 2 in the record, in order.
    let played: Vec<String> = a["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["played"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(played, madiao_actions_of(&rec, 2));
    // The same seed, the same output.
    let b = analyse_json(&[file, "--seat", "2", "--seed", "9"]);
    assert_eq!(a, b);
    // The readable report: one line per decision and the summary.
    let out = yezi(&["analyse", file, "--seat", "2", "--seed", "9", "--think-ms", "5"]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(report.starts_with("madiao hand 0, seat 2: pimc at 5 ms per decision, seed 9"), "{report}");
    assert!(report.contains("summary: "), "{report}");
    for p in &played {
        assert!(report.contains(p.as_str()), "{p} missing from\n{report}");
    }
}

#[test]
fn analyse_reads_gzipped_json_lines_of_dabaifen_records() {
    let rec = sim("dabaifen", 5);
    let one: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let path = tmp("archive.jsonl.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for _ in 0..2 {
        writeln!(gz, "{}", serde_json::to_string(&one).unwrap()).unwrap();
    }
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let file = path.to_str().unwrap();
    let a = analyse_json(&[file, "--record", "1", "--seat", "1"]);
    assert!(check_shape(&a, "dabaifen", "levels") >= 3);
    // The same record read from its own file gives the same analysis.
    assert_eq!(a, analyse_json(&[rec.to_str().unwrap(), "--seat", "1"]));
    let out = yezi(&["analyse", file, "--record", "2"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--record 2: ") && text(&out.stderr).contains("holds 2 record(s)"));
}

#[test]
fn analyse_refuses_bad_requests_with_clear_errors() {
    let rec = sim("madiao", 12);
    let file = rec.to_str().unwrap();
    let bad = tmp("bad.json");
    std::fs::write(&bad, "{\"format\": \"yezi/1\", \"game\": \"madiao\", ").unwrap();
    let mut illegal: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    illegal["hands"][0]["actions"][0]["seat"] =
        Value::from((illegal["hands"][0]["actions"][0]["seat"].as_u64().unwrap() + 1) % 4);
    let illegal_path = tmp("illegal.json");
    std::fs::write(&illegal_path, illegal.to_string()).unwrap();
    let missing = tmp("missing.json");
    for (args, want) in [
        (vec![file, "--seat", "4"], "--seat 4: a seat is 0, 1, 2 or 3"),
        (vec![file, "--hand", "3"], "hand 3 is out of range: the record has 1 hand(s)"),
        (vec![bad.to_str().unwrap()], "not valid JSON"),
        (vec![illegal_path.to_str().unwrap()], "the record does not replay: hand 0"),
        (vec![missing.to_str().unwrap()], "reading "),
    ] {
        let mut all = vec!["analyse"];
        all.extend(args.iter().copied());
        let out = yezi(&all);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(want), "{args:?}: {want:?} missing from {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(out.stdout.is_empty(), "{args:?} printed {}", text(&out.stdout));
    }
}

#[test]
fn analyse_reads_the_json_lines_records_of_an_arena_run() {
    let path = tmp("arena.jsonl");
    let out = yezi(&[
        "arena",
        "madiao",
        "--a",
        "pimc",
        "--b",
        "heuristic",
        "--hands",
        "1",
        "--seed",
        "5",
        "--think-ms",
        "5",
        "--records",
        path.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect();
    assert!(lines.len() >= 2, "the arena wrote {} record(s)", lines.len());
    let file = path.to_str().unwrap();
    let last = (lines.len() - 1).to_string();
    let a = analyse_json(&[file, "--record", &last, "--seat", "3"]);
    check_shape(&a, "madiao", "stakes");
    // The same record alone in its own file: the same analysis.
    let alone = tmp("arena-last.json");
    std::fs::write(&alone, &lines[lines.len() - 1]).unwrap();
    assert_eq!(a, analyse_json(&[alone.to_str().unwrap(), "--seat", "3"]));
    let beyond = lines.len().to_string();
    let out = yezi(&["analyse", file, "--record", &beyond]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains(&format!("holds {} record(s)", lines.len())), "{}", text(&out.stderr));
}
