//! `yezi replay`, `yezi sim madiao` and `yezi bench madiao` as a user runs them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn yezi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yezi")).args(args).output().expect("yezi runs")
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../madiao/tests/data").join(name).display().to_string()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yezi-madiao-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn replay_prints_the_hands_trick_by_trick_with_the_settlement() {
    let out = yezi(&["replay", &data("standard_knock_then_meld.json")]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    for want in [
        "== hand 0: banker seat 0, stake 2 chips ==",
        "cut card W3 (the upcard): seat 0, the banker, is dealt first and leads",
        "trick 4: seat 0 leads T3; seat 1 captures with TB; seat 2 sloughs T8 face down; seat 3 sloughs T7 face down → seat 1 wins with TB",
        "seat 1: won a trick with the HM (TB) and made 2 tricks: +3 from the banker",
        "seat 1: knock (敲門) for the +3 HM line: +1 from each of seats 2, 3 (+2)",
        "totals: seat 0 +1, seat 1 +4, seat 2 -3, seat 3 -2",
        "result: played, tricks [3, 2, 1, 2]",
        "meld: seat 2 holds four tops (TW M9 S9 W0); the hand is not played",
        "2 hand(s) replayed, 2 finished; 2 stored result(s) checked, all match",
    ] {
        assert!(stdout.contains(want), "missing {want:?} in\n{stdout}");
    }
}

#[test]
fn replay_json_prints_the_result_objects() {
    let out = yezi(&["replay", "--json", &data("declarations_and_match_end.json")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hands = v["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 6);
    assert_eq!(hands[0]["outcome"], "redeal");
    assert_eq!(hands[1]["outcome"], "four_lowest");
    assert!(hands[1]["next_banker"].is_null());
    assert_eq!(hands[2]["outcome"], "meld");
    assert_eq!(hands[3]["payoffs"], serde_json::json!([-1, -3, 5, -1]));
    assert_eq!(hands[5]["game_over"], true);
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data("declarations_and_match_end.json")).unwrap())
            .unwrap();
    for (i, h) in hands.iter().enumerate() {
        assert_eq!(h, &rec["hands"][i]["result"], "hand {i}");
    }
    // Halves print as numbers with .5.
    let out = yezi(&["replay", "--json", &data("feng_tie_and_shortfall.json")]);
    assert!(text(&out.stdout).contains("\"payoffs\": [-3, 1.5, 1.5, 0]"), "{}", text(&out.stdout));
}

#[test]
fn replay_rejects_an_illegal_action_with_hand_action_and_reason() {
    for json in [false, true] {
        let mut args = vec!["replay"];
        if json {
            args.push("--json");
        }
        let f = data("illegal/wrong_turn.json");
        args.push(&f);
        let out = yezi(&args);
        assert!(!out.status.success());
        let stderr = text(&out.stderr);
        assert!(stderr.contains("hand 0, action 1: it is seat 1's turn, not seat 2's"), "{stderr}");
    }
    let out = yezi(&["replay", &data("illegal/feng_faceup_discard.json")]);
    assert!(!out.status.success());
    assert!(text(&out.stdout).contains("illegal: hand 0, action 2: seat 2 cannot play face up W7"));
}

#[test]
fn replay_reports_every_difference_from_a_stored_result() {
    let out = yezi(&["replay", "--json", &data("illegal/stored_result_differs.json")]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("hand 0: result.next_banker: the record says 2, the replay gives 1"), "{stderr}");
    assert!(
        stderr.contains("hand 0: result.payoffs: the record says [1,4,-3,-1], the replay gives [1,4,-3,-2]")
    );
    // The replayed results are still printed.
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["hands"][0]["next_banker"], 1);
}

#[test]
fn replay_rejects_bad_files() {
    let f = tmp("broken.json");
    std::fs::write(&f, "{\"format\": \"yezi/1\", \"game\": \"madiao\", ").unwrap();
    let out = yezi(&["replay", f.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("not valid JSON"), "{}", text(&out.stderr));
    let out = yezi(&["replay", &data("illegal/deck_unknown_code.json")]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("hand 0: deck[5]: unknown card code \"X9\""));
    let out = yezi(&["replay", "/nonexistent/record.json"]);
    assert!(!out.status.success());
}

#[test]
fn sim_writes_one_record_per_match_that_replays_cleanly() {
    for rules in ["standard", "feng"] {
        let dir = tmp(&format!("sim-{rules}"));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("games.json");
        let out = yezi(&[
            "sim",
            "madiao",
            "--hands",
            "400",
            "--seed",
            "7",
            "--rules",
            rules,
            "--out",
            f.to_str().unwrap(),
        ]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        for want in [
            "madiao sim: 400 hands, seed 7",
            "outcomes:",
            "payoff per seat",
            "payoff per role:",
            "banker:",
            "events seen",
            "wrote ",
        ] {
            assert!(stdout.contains(want), "missing {want:?} in\n{stdout}");
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        assert!(files.len() > 10, "400 hands hold many matches: {files:?}");
        assert!(!f.exists(), "several matches go to numbered files");
        let mut hands = 0;
        for (m, file) in files.iter().enumerate() {
            let name = file.file_name().unwrap().to_str().unwrap();
            assert_eq!(name, format!("games-m{:03}.json", m + 1));
            // Written hand by hand, each file is exactly the library's layout of the whole record.
            let written = std::fs::read_to_string(file).unwrap();
            let ai::record::AnyRecord::Madiao(rec) = ai::record::parse(&written).unwrap() else {
                panic!("not madiao")
            };
            assert_eq!(cards::record::to_pretty_json(&rec), written);
            // Each match deals from its own seed, the run's for the first (docs/record.md).
            assert_eq!(rec.seed, Some(cards::deal::sim_match_seed(7, m as u32)), "{name}");
            let n = rec.hands.len();
            hands += n;
            // One match: it ends with its game_over hand (the run's last match may be cut short).
            let out = yezi(&["replay", "--json", file.to_str().unwrap()]);
            assert!(out.status.success(), "{}: {}", file.display(), text(&out.stderr));
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let overs: Vec<bool> =
                v["hands"].as_array().unwrap().iter().map(|r| r["game_over"].as_bool().unwrap()).collect();
            assert!(overs[..n - 1].iter().all(|o| !o), "{name}: {overs:?}");
            assert!(overs[n - 1] || m + 1 == files.len(), "{name}: {overs:?}");
            assert!(stdout.contains(&format!("wrote {} ({n} hands)", file.display())), "{stdout}");
        }
        assert_eq!(hands, 400);
    }
    // A single match goes to the file named (a match has at least four hands: every seat banks).
    let one = tmp("sim-one.json");
    let out = yezi(&["sim", "madiao", "--hands", "3", "--seed", "7", "--out", one.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = yezi(&["replay", one.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("3 hand(s) replayed, 3 finished"), "{}", text(&out.stdout));
    // Same seed, same summary.
    let a = yezi(&["sim", "madiao", "--hands", "200", "--seed", "3"]);
    let b = yezi(&["sim", "madiao", "--hands", "200", "--seed", "3"]);
    assert_eq!(a.stdout, b.stdout);
    let f = tmp("sim-variant.json");
    let out =
        yezi(&["sim", "madiao", "--hands", "3", "--variant", "slam=adds", "--out", f.to_str().unwrap()]);
    assert!(out.status.success());
    let written = std::fs::read_to_string(&f).unwrap();
    assert!(written.contains("\"variants\": {\"slam\": \"adds\"}"), "{written}");
    let ai::record::AnyRecord::Madiao(rec) = ai::record::parse(&written).unwrap() else { panic!() };
    assert_eq!(cards::record::to_pretty_json(&rec), written);
    let out = yezi(&["sim", "madiao", "--hands", "10", "--variant", "slams=adds"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown variant `slams`"));
}

#[test]
fn bench_reports_hands_per_second() {
    let out = yezi(&["bench", "madiao", "--hands", "20000", "--seed", "2"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("madiao bench: 20000 random full hands (rules standard, seed 2)"), "{stdout}");
    assert!(stdout.contains("hands/s") && stdout.contains("checksum"));
    // Same seed, same checksum.
    let again = text(&yezi(&["bench", "madiao", "--hands", "20000", "--seed", "2"]).stdout);
    let sum = |s: &str| s.lines().nth(1).map(str::to_string);
    assert_eq!(sum(&stdout), sum(&again));
}

#[test]
fn replay_keeps_each_hands_stake_and_prints_the_ledger_in_chips() {
    let f = tmp("stakes.json");
    let out = yezi(&["sim", "madiao", "--hands", "4", "--seed", "11", "--out", f.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The banker named a different stake for each hand (the stake changes nothing in play).
    let mut rec: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
    let hands = rec["hands"].as_array_mut().unwrap();
    let mut expected = [0f64; 4];
    let mut lines = Vec::new();
    for (i, h) in hands.iter_mut().enumerate() {
        let stake = 2 + 2 * (i as u64 % 4);
        h["stake"] = stake.into();
        let chips: Vec<f64> = h["result"]["payoffs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap() * stake as f64)
            .collect();
        for (e, c) in expected.iter_mut().zip(&chips) {
            *e += c;
        }
        let seats: Vec<String> = chips.iter().enumerate().map(|(s, c)| format!("seat {s} {c:+}")).collect();
        lines.push(format!("  hand {i}: stake {stake}: {}", seats.join(", ")));
    }
    std::fs::write(&f, rec.to_string()).unwrap();
    let out = yezi(&["replay", f.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let got = text(&out.stdout);
    assert!(got.contains("== hand 1: banker") && got.contains("stake 4 chips =="), "{got}");
    for l in &lines {
        assert!(got.contains(l.as_str()), "{l}\n{got}");
    }
    let total: Vec<String> = expected.iter().enumerate().map(|(s, c)| format!("seat {s} {c:+}")).collect();
    assert!(got.contains(&format!("  match: {}", total.join(", "))), "{got}");
    // An odd stake in a record is refused.
    rec["hands"][0]["stake"] = 3.into();
    std::fs::write(&f, rec.to_string()).unwrap();
    let out = yezi(&["replay", f.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("stake"), "{}", text(&out.stderr));
}
