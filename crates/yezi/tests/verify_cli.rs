//! `yezi verify` (docs/record.md, "Deal verification") and `yezi sim --stake-max`, as a user runs
//! them.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Value, json};

fn yezi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yezi")).args(args).output().expect("yezi runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yezi-verify-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// One match of six hands from `yezi sim` with stakes up to 20, as JSON.
fn sim_record(name: &str) -> Value {
    let file = tmp(name);
    let f = file.to_str().unwrap();
    let out = yezi(&[
        "sim",
        "madiao",
        "--hands",
        "6",
        "--seed",
        "7",
        "--variant",
        "game_length=hands:6",
        "--stake-max",
        "20",
        "--out",
        f,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
}

/// The sim's record as a server would write it for table `t-cli`: each hand's commitment names
/// that table (the sim's own name its own table id, `sim-7-1`).
fn committed(mut doc: Value) -> Value {
    assert_eq!(doc["table"], json!("sim-7-1"), "a sim record names its table");
    doc["table"] = json!("t-cli");
    for (k, h) in doc["hands"].as_array_mut().unwrap().iter_mut().enumerate() {
        assert_eq!(h["seed"], json!(7), "the first match deals from the run's seed");
        h["commitment"] = json!(cards::deal::commitment(7, k as u32, "t-cli"));
    }
    doc
}

/// The record without its seeds and commitments, as a record of a program that makes no
/// commitments would be.
fn uncommitted(mut doc: Value) -> Value {
    for h in doc["hands"].as_array_mut().unwrap() {
        let h = h.as_object_mut().unwrap();
        h.remove("seed");
        h.remove("commitment");
    }
    doc
}

fn verify(doc: &Value, name: &str) -> Output {
    let file = tmp(name);
    std::fs::write(&file, doc.to_string()).unwrap();
    yezi(&["verify", file.to_str().unwrap()])
}

#[test]
fn sim_names_stakes_up_to_stake_max_and_its_record_replays() {
    let doc = sim_record("stakes.json");
    let stakes: Vec<u64> =
        doc["hands"].as_array().unwrap().iter().map(|h| h["stake"].as_u64().unwrap_or(2)).collect();
    assert_eq!(stakes.len(), 6);
    assert!(stakes.iter().all(|s| s % 2 == 0 && (2..=20).contains(s)), "{stakes:?}");
    assert!(stakes.iter().any(|&s| s != 2), "named stakes, not all the lowest: {stakes:?}");
    let out = yezi(&["replay", tmp("stakes.json").to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The same seed names the same stakes.
    let again = sim_record("stakes2.json");
    assert_eq!(doc["hands"], again["hands"]);
    // A stake the record format does not allow is refused.
    for bad in ["3", "0", "1002"] {
        let out = yezi(&["sim", "madiao", "--hands", "1", "--stake-max", bad]);
        assert!(!out.status.success(), "--stake-max {bad}");
        assert!(text(&out.stderr).contains("--stake-max"), "{}", text(&out.stderr));
    }
    let out = yezi(&["sim", "dabaifen", "--hands", "1", "--stake-max", "4"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no stakes"), "{}", text(&out.stderr));
}

#[test]
fn verify_passes_every_deal_and_names_each_tampered_hand() {
    let doc = committed(sim_record("verify.json"));
    let n = doc["hands"].as_array().unwrap().len();
    let out = verify(&doc, "ok.json");
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stdout).contains(&format!("all {n} deal(s) verified")), "{}", text(&out.stdout));

    // A deck changed: two cards of hand 1 exchanged (the replay would deal other hands).
    let mut d = doc.clone();
    d["hands"][1]["deck"].as_array_mut().unwrap().swap(3, 30);
    let out = verify(&d, "deck.json");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("hand 1: the deck is not its seed's: deck[3] is"), "{err}");
    assert!(err.contains("deck[30] is"), "{err}");
    assert!(
        text(&out.stdout).contains(&format!("1 of {n} deal(s) fail: hand(s) 1")),
        "{}",
        text(&out.stdout)
    );

    // A commitment changed.
    let mut d = doc.clone();
    d["hands"][0]["commitment"] = json!("0".repeat(64));
    let out = verify(&d, "commitment.json");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("hand 0: the commitment 0000"), "{err}");
    assert!(!err.contains("hand 0: the deck"), "{err}");

    // A seed changed: both checks of its hand fail.
    let mut d = doc.clone();
    d["hands"][2]["seed"] = json!(8);
    let err = text(&verify(&d, "seed.json").stderr);
    assert!(err.contains("hand 2: the deck is not its seed's"), "{err}");
    assert!(err.contains("hand 2: the commitment"), "{err}");

    // Two hands exchanged.
    let mut d = doc.clone();
    d["hands"].as_array_mut().unwrap().swap(0, 1);
    let out = verify(&d, "swapped.json");
    assert!(
        text(&out.stdout).contains(&format!("2 of {n} deal(s) fail: hand(s) 0, 1")),
        "{}",
        text(&out.stdout)
    );

    // A record without seeds has nothing to verify against.
    let out = verify(&uncommitted(sim_record("plain.json")), "plain.json");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("hand 0: the hand carries no seed"), "{}", text(&out.stderr));

    // Not a record: a clear error, no panic.
    let out = verify(&json!({"format": "yezi/1", "game": "chess"}), "chess.json");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("game"), "{}", text(&out.stderr));
}

/// The records a multi-match `yezi sim GAME ARGS --out DIR/NAME.json` wrote, in match order.
fn sim_matches(game: &str, name: &str, args: &[&str]) -> Vec<(PathBuf, Value)> {
    let dir = tmp(name);
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("run.json");
    let mut all = vec!["sim", game];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", out_file.to_str().unwrap()]);
    let out = yezi(&all);
    assert!(out.status.success(), "{}", text(&out.stderr));
    (1..1000)
        .map(|i| dir.join(format!("run-m{i:03}.json")))
        .take_while(|f| f.exists())
        .map(|f| {
            let v = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
            (f, v)
        })
        .collect()
}

/// Issue 29: every match of a multi-match `yezi sim` carries its deals' seeds and commitments,
/// each match dealt from its own seed (`cards::deal::sim_match_seed`), so `yezi verify` passes on
/// every hand of every match — both games, with and without named stakes — and a tampered hand of
/// a later match is named. (Before, only the first match's decks followed from the run's seed
/// with the hand numbers its record gives them.)
#[test]
fn every_match_of_a_multi_match_sim_verifies() {
    let runs: [(&str, &str, Vec<&str>); 3] = [
        ("madiao", "multi-madiao", vec!["--hands", "14", "--seed", "9", "--variant", "game_length=hands:3"]),
        (
            "madiao",
            "multi-stakes",
            vec!["--hands", "14", "--seed", "9", "--variant", "game_length=hands:3", "--stake-max", "20"],
        ),
        ("dabaifen", "multi-dabaifen", vec!["--hands", "120", "--seed", "5"]),
    ];
    for (game, name, args) in runs {
        let matches = sim_matches(game, name, &args);
        assert!(matches.len() >= 3, "{name}: several matches, got {}", matches.len());
        let mut seeds = Vec::new();
        for (m, (file, doc)) in matches.iter().enumerate() {
            let hands = doc["hands"].as_array().unwrap();
            let seed = doc["seed"].as_u64().unwrap();
            assert_eq!(seed, cards::deal::sim_match_seed(if game == "madiao" { 9 } else { 5 }, m as u32));
            assert!(hands.iter().all(|h| h["seed"].as_u64() == Some(seed)), "{name} match {m}");
            seeds.push(seed);
            let out = yezi(&["verify", file.to_str().unwrap()]);
            assert!(out.status.success(), "{name} match {m}: {}{}", text(&out.stdout), text(&out.stderr));
            assert!(
                text(&out.stdout).contains(&format!("all {} deal(s) verified", hands.len())),
                "{}",
                text(&out.stdout)
            );
            // It replays as well.
            let out = yezi(&["replay", file.to_str().unwrap()]);
            assert!(out.status.success(), "{name} match {m}: {}", text(&out.stderr));
        }
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), matches.len(), "{name}: each match has its own seed");

        // A later match's hand tampered with: named by its number in that match.
        let (_, last) = matches.last().unwrap();
        let (_, second) = &matches[1];
        for (doc, which) in [(second, "second"), (last, "last")] {
            let mut d = doc.clone();
            let k = d["hands"].as_array().unwrap().len() - 1;
            d["hands"][k]["deck"].as_array_mut().unwrap().swap(0, 5);
            let out = verify(&d, &format!("{name}-{which}-tampered.json"));
            assert!(!out.status.success(), "{name} {which}");
            let err = text(&out.stderr);
            assert!(err.contains(&format!("hand {k}: the deck is not its seed's")), "{name} {which}: {err}");
            assert_eq!(err.matches(": hand ").count(), 1, "{name} {which}: only that hand: {err}");
        }
    }
}
