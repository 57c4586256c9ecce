//! `yezi puzzle` and `yezi puzzles make|check` as a user runs them: a shipped puzzle answered
//! right and wrong in the terminal (both languages), bad input refused clearly, a small file made
//! and checked, the same seed giving the same file.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

fn yezi(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yezi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("yezi runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The first shipped Madiao puzzle: its id, and the number of a right and of a wrong choice as
/// the terminal lists them (the engine's legal actions, in order).
fn first_madiao() -> (String, usize, usize) {
    let f: ai::puzzle::MadiaoFile = ai::puzzle::read_file(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../server/data/puzzles-madiao.json"))
            .unwrap(),
        cards::record::GameKind::Madiao,
    )
    .unwrap();
    let p = &f.puzzles[0];
    let st = ai::puzzle::madiao_position(&p.hand, &f.rules).unwrap();
    let legal = st.legal_actions();
    let right = legal.iter().position(|a| p.answers.contains(a)).unwrap() + 1;
    let wrong = legal.iter().position(|a| !p.answers.contains(a)).unwrap() + 1;
    (p.id.clone(), right, wrong)
}

#[test]
fn a_puzzle_in_the_terminal_says_right_or_wrong_and_why() {
    let (id, right, wrong) = first_madiao();
    let out = yezi(&["puzzle", "--game", "madiao", "--id", &id], &format!("{right}\n"));
    let o = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(o.contains(&format!("Puzzle {id}")) && o.contains("Your cards:"), "{o}");
    assert!(
        o.contains("Right!") && o.contains("The line:") && o.contains("stakes more than any other move"),
        "{o}"
    );
    let out = yezi(&["puzzle", "--game", "madiao", "--id", &id, "--zh"], &format!("{wrong}\n"));
    let o = text(&out.stdout);
    assert!(o.contains("不对。最佳出法") && o.contains("后续："), "{o}");
    // Bad input: a clear error, no panic.
    let out = yezi(&["puzzle", "--game", "madiao", "--id", &id], "99\n");
    assert!(!out.status.success() && text(&out.stderr).contains("is not one of"), "{}", text(&out.stderr));
    let out = yezi(&["puzzle", "--game", "madiao", "--id", "nope"], "");
    assert!(!out.status.success() && text(&out.stderr).contains("no puzzle"), "{}", text(&out.stderr));
    // The puzzle of the day, in the other game (a burial asks for six cards, a play for a number).
    let set = server::puzzles::set(cards::record::GameKind::Dabaifen);
    let daily = set.daily(server::puzzles::today()).unwrap();
    let input = if set.themes(daily).iter().any(|t| t == "burial") { "1 2 3 4 5 6\n" } else { "1\n" };
    let out = yezi(&["puzzle", "--game", "dabaifen"], input);
    assert!(out.status.success() && text(&out.stdout).contains("Puzzle "), "{}", text(&out.stderr));
}

/// A shipped burial puzzle: its id, its hand as the terminal numbers it, and its rule.
fn first_burial() -> (String, Vec<String>, Vec<String>, ai::puzzle::BurialRule) {
    let set = server::puzzles::set(cards::record::GameKind::Dabaifen);
    let f: ai::puzzle::DabaifenFile = ai::puzzle::read_file(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../server/data/puzzles-dabaifen.json"
        ))
        .unwrap(),
        cards::record::GameKind::Dabaifen,
    )
    .unwrap();
    let p = f.puzzles.iter().find(|p| p.burial.is_some()).unwrap();
    let shown = set.show(set.get(&p.id).unwrap()).unwrap();
    let v = serde_json::to_value(&shown.view).unwrap();
    let hand = v["hand"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
    let dabaifen::Action::Bury(answer) = p.answers[0] else { panic!("{} answers no burial", p.id) };
    (p.id.clone(), hand, answer.iter().map(|c| c.to_string()).collect(), p.burial.clone().unwrap())
}

#[test]
fn a_burial_puzzle_in_the_terminal_takes_six_cards_by_name_or_number() {
    let (id, hand, answer, rule) = first_burial();
    // Right, by the cards' names (in lower case too).
    let out = yezi(
        &["puzzle", "--game", "dabaifen", "--id", &id],
        &format!("{}\n", answer.join(" ").to_lowercase()),
    );
    let o = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(o.contains("Bury six of your 18 cards") && o.contains(" 18. "), "{o}");
    assert!(o.contains("Right!") && o.contains("The rule: bury") && o.contains("The line:"), "{o}");
    // Wrong, by the numbers: a must-keep card buried instead of one of the answer's.
    let mut wrong: Vec<usize> =
        answer.iter().map(|c| hand.iter().position(|h| h == c).unwrap() + 1).collect();
    wrong[0] = hand.iter().position(|h| *h == rule.must_keep[0].to_string()).unwrap() + 1;
    let line: Vec<String> = wrong.iter().map(|n| n.to_string()).collect();
    let out = yezi(&["puzzle", "--game", "dabaifen", "--id", &id, "--zh"], &format!("{}\n", line.join(" ")));
    let o = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(o.contains("埋六张牌") && o.contains("不对") && o.contains("违反要点"), "{o}");
    // Bad input: five cards, a card twice, a card not held.
    let out = yezi(&["puzzle", "--game", "dabaifen", "--id", &id], "1 2 3 4 5\n");
    assert!(
        !out.status.success() && text(&out.stderr).contains("bury exactly 6 cards"),
        "{}",
        text(&out.stderr)
    );
    let out = yezi(&["puzzle", "--game", "dabaifen", "--id", &id], "1 1 2 3 4 5\n");
    assert!(!out.status.success() && text(&out.stderr).contains("chosen twice"), "{}", text(&out.stderr));
    let out = yezi(&["puzzle", "--game", "dabaifen", "--id", &id], "1 2 3 4 5 XX\n");
    assert!(
        !out.status.success() && text(&out.stderr).contains("not a card of your hand"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn puzzles_make_writes_a_file_that_checks_and_the_same_seed_the_same_file() {
    let dir = std::env::temp_dir().join(format!("yezi-puzzles-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    for f in [&a, &b] {
        let out = yezi(
            &[
                "puzzles",
                "make",
                "--game",
                "dabaifen",
                "--count",
                "4",
                "--seed",
                "9",
                "--out",
                f.to_str().unwrap(),
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("4 accepted"), "{}", text(&out.stdout));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let out = yezi(&["puzzles", "check", "--game", "dabaifen", "--file", a.to_str().unwrap()], "");
    assert!(
        out.status.success() && text(&out.stdout).contains("4 puzzle(s) checked"),
        "{}",
        text(&out.stdout)
    );
    // A file of the other game is refused.
    let out = yezi(&["puzzles", "check", "--game", "madiao", "--file", a.to_str().unwrap()], "");
    assert!(!out.status.success() && text(&out.stderr).contains("not a madiao one"), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn puzzles_check_takes_one_theme() {
    // One shipped burial puzzle, valued again in its worlds (a play puzzle has no `burial` rule,
    // so the line below would not say "burial" if the theme were not applied).
    let out = yezi(&["puzzles", "check", "--game", "dabaifen", "--theme", "burial", "--sample", "1"], "");
    assert!(
        out.status.success() && text(&out.stdout).contains("1 puzzle(s) checked, theme burial"),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    // A theme no puzzle has is refused, with the file's themes named.
    let out = yezi(&["puzzles", "check", "--game", "madiao", "--theme", "burial"], "");
    assert!(
        !out.status.success() && text(&out.stderr).contains("capture_or_slough"),
        "{}",
        text(&out.stderr)
    );
}
