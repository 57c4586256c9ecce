//! The `yezi` command line for Da Bai Fen: replay (both forms, exit status, messages), sim with
//! records that replay cleanly, bench.

use std::path::PathBuf;
use std::process::{Command, Output};

fn yezi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yezi")).args(args).output().unwrap()
}

fn data(name: &str) -> String {
    format!("{}/../dabaifen/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yezi-dabaifen-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn replay_prints_the_deal_trick_by_trick_with_the_result_in_words() {
    let out = yezi(&["replay", &data("hearts_and_8_trick_by_trick.json")]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("seat 2 declared 8H after 48 cards had been drawn: trumps are hearts and 8s"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "trick 1: seat 0 AS KS QS, seat 1 JS TS 3S, seat 2 9S 7S 6S, seat 3 KD QD JD → seat 0 wins 30 points for the declarers"
        ),
        "{stdout}"
    );
    assert!(stdout.contains(
        "trick 10: seat 3 QH, seat 0 BJ, seat 1 QC, seat 2 2S → seat 0 wins 0 points for the declarers"
    ));
    assert!(stdout.contains(
        "defenders' points T = 25 in tricks + 0 kitty bonus = 25 (5–35): the declarers win, +1 rank"
    ));
    assert!(stdout.contains("team 0's rank goes from 8 to 9"));
}

#[test]
fn replay_json_prints_the_result_objects() {
    let out = yezi(&["replay", "--json", &data("first_deal_annulment_open_deal.json")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hands = v["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 3);
    assert_eq!(hands[1]["outcome"], "annulled");
    assert_eq!(hands[1]["defender_points"], serde_json::Value::Null);
    assert_eq!(hands[2]["trump"], serde_json::json!({"suit": "C", "rank": "2"}));
    let stored: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data("first_deal_annulment_open_deal.json")).unwrap())
            .unwrap();
    for (i, h) in hands.iter().enumerate() {
        assert_eq!(h, &stored["hands"][i]["result"]);
    }
}

#[test]
fn replay_fails_with_hand_action_and_reason() {
    let out = yezi(&["replay", &data("illegal/must_follow.json")]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("hand 0, action 7: seat 1 must follow diamonds (holds 6D 5D)"), "{err}");
    let out = yezi(&["replay", "--json", &data("illegal/chain_starter.json")]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("hand 1: starter is 2 but hand 0's result says 0 comes next"));
}

#[test]
fn replay_reports_every_difference_from_a_stored_result() {
    let dir = tmp("diff");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data("hearts_and_8_trick_by_trick.json")).unwrap())
            .unwrap();
    v["hands"][0]["result"]["defender_points"] = 30.into();
    v["hands"][0]["result"]["winner"] = 1.into();
    let f = dir.join("diff.json");
    std::fs::write(&f, v.to_string()).unwrap();
    let out = yezi(&["replay", f.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("hand 0: result.defender_points: the record says 30, the replay gives 25"), "{err}");
    assert!(err.contains("hand 0: result.winner: the record says 1, the replay gives 0"), "{err}");
}

#[test]
fn sim_summarizes_and_writes_records_that_replay_cleanly() {
    let dir = tmp("sim");
    let out_file = dir.join("games.json");
    let out =
        yezi(&["sim", "dabaifen", "--hands", "120", "--seed", "5", "--out", out_file.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for needle in [
        "Da Bai Fen: 120 deals, seed 5",
        "matches completed:",
        "outcomes: played",
        "trumps: declared in",
        "annulments:",
        "revokes:",
        "game points",
        "leads:",
    ] {
        assert!(stdout.contains(needle), "{needle}: {stdout}");
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 2, "120 deals hold several matches: {files:?}");
    assert!(files[0].file_name().unwrap().to_str().unwrap().starts_with("games-m001"));
    let mut deals = 0;
    for (m, f) in files.iter().enumerate() {
        let out = yezi(&["replay", "--json", f.to_str().unwrap()]);
        assert!(out.status.success(), "{}: {}", f.display(), text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        deals += v["hands"].as_array().unwrap().len();
        let rec: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        // Each match deals from its own seed, the run's for the first (docs/record.md).
        assert_eq!(rec["seed"], cards::deal::sim_match_seed(5, m as u32), "{}", f.display());
        assert_eq!(rec["hands"][0]["first_deal"], true, "every record holds a match from its first deal");
    }
    assert_eq!(deals, 120);
    // A single match goes to the file named.
    let one = dir.join("one.json");
    let out = yezi(&["sim", "dabaifen", "--hands", "3", "--seed", "5", "--out", one.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(one.exists());
}

#[test]
fn sim_takes_variants_and_rejects_unknown_ones() {
    let out = yezi(&[
        "sim",
        "dabaifen",
        "--hands",
        "50",
        "--variant",
        "revoke=refuse",
        "--variant",
        "kitty_multiplier=per_card",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("revoke=refuse, kitty_multiplier=per_card"));
    assert!(text(&out.stdout).contains("ended by a revoke 0 "));
    let out = yezi(&["sim", "dabaifen", "--hands", "5", "--variant", "trumps=none"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown variant `trumps`"), "{}", text(&out.stderr));
    let out = yezi(&["sim", "dabaifen", "--hands", "5", "--rules", "feng"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown rules preset \"feng\""));
}

#[test]
fn bench_reports_deals_per_second_and_a_checksum() {
    let out = yezi(&["bench", "dabaifen", "--hands", "2000", "--seed", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("dabaifen: 2000 deals (59 matches completed)"), "{s}");
    assert!(s.contains("deals/s on one core; checksum f4bceab28985e5f2"), "{s}");
}

#[test]
fn replay_accepts_an_unfinished_last_deal_and_shows_its_result_as_null() {
    let out = yezi(&["replay", "--json", &data("unfinished/mid_play.json")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["hands"], serde_json::json!([null]));
    let out = yezi(&["replay", &data("unfinished/mid_play.json")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("unfinished in play: seat 0 to act"), "{}", text(&out.stdout));
    let out = yezi(&["replay", &data("illegal/unfinished_deal_followed.json")]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("hand 0: the deal is unfinished (seat 2 to play) but hand 1 follows"),
        "{}",
        text(&out.stderr)
    );
}

/// A reader that closes the pipe early (`yezi sim … | head`) ends the command quietly: no panic,
/// success.
#[test]
fn a_closed_pipe_ends_sim_and_bench_quietly() {
    for args in [
        &["sim", "dabaifen", "--hands", "3000", "--seed", "1"][..],
        &["bench", "dabaifen", "--hands", "300000"][..],
        &["sim", "madiao", "--hands", "30000", "--seed", "1"][..],
        &["bench", "madiao", "--hands", "300000"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_yezi"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before anything is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    }
}
