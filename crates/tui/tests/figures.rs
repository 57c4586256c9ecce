//! The terminal names the figure on the Madiao card the person has chosen (docs/rules/madiao.md
//! §1): the hero of a Ten or a Myriad, the zero cash as the table's deck draws it, nothing for
//! the strings and the other cash.

use cards::record::GameKind;
use madiao::ZeroCash;
use ratatui::crossterm::event::KeyCode;
use tui::model::{GameView, Legal};
use tui::testing::Harness;

fn harness(seed: u64, zero_cash: ZeroCash) -> Harness {
    let mut c = tui::LocalConfig::new(seed);
    c.bots = std::array::from_fn(|_| "heuristic".to_string());
    c.zero_cash = zero_cash;
    Harness::local(GameKind::Madiao, c, 100, 30).unwrap()
}

/// The person's first play decision of a match of `seed`.
fn at_play(seed: u64, zero_cash: ZeroCash) -> Harness {
    let mut h = harness(seed, zero_cash);
    assert!(h.run_until(5000, |a| matches!(a.model.legal, Some(Legal::Actions { .. }))));
    h
}

/// The screen's line that names a figure (the status line), or the empty text when none does.
fn status(h: &mut Harness) -> String {
    let s = h.screen();
    s.lines()
        .find(|l| l.contains("figure") || l.contains("Water Margin"))
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// The hero §1 gives a Ten or a Myriad (written here from the rules, not read from the engine).
fn hero(code: &str) -> Option<&'static str> {
    Some(match code {
        "TW" => "宋江",
        "TQ" => "武松",
        "TB" => "阮小五",
        "T9" => "阮小七",
        "T8" => "朱仝",
        "T7" => "孫立",
        "T6" => "呼延灼",
        "T5" => "魯智深",
        "T4" => "李逵",
        "T3" => "楊志",
        "T2" => "扈三娘",
        "M9" => "雷橫",
        "M8" => "索超",
        "M7" => "秦明",
        "M6" => "史進",
        "M5" => "李俊",
        "M4" => "柴進",
        "M3" => "關勝",
        "M2" => "花榮",
        "M1" => "燕青",
        _ => return None,
    })
}

#[test]
fn the_status_line_names_the_figure_of_the_chosen_card() {
    let mut h = at_play(5, ZeroCash::Unnamed);
    let hand = h.app.hand();
    assert_eq!(hand.len(), 8);
    let mut heroes = 0;
    // From the first card: the cursor goes right through the whole hand.
    h.key(KeyCode::Home);
    for (i, code) in hand.iter().enumerate() {
        assert_eq!(h.app.ui.cursor, i);
        let line = status(&mut h);
        match hero(code) {
            Some(name) => {
                heroes += 1;
                assert!(line.contains(&format!("{code} ")) && line.contains(name), "{code}: {line}");
                assert!(line.contains("a hero of the Water Margin"), "{code}: {line}");
            }
            None if code == "W0" => assert!(line.contains("an unnamed figure"), "{line}"),
            None => assert_eq!(line, "", "{code}"),
        }
        h.key(KeyCode::Right);
    }
    assert!(heroes > 0, "the hand {hand:?} has no Ten or Myriad: choose another seed");
}

#[test]
fn the_zero_cash_is_named_as_the_deck_draws_it() {
    // A seed whose person holds the zero cash at his first play.
    let seed = (1..200)
        .find(|&s| {
            let h = at_play(s, ZeroCash::Unnamed);
            h.app.hand().iter().any(|c| c == "W0")
        })
        .expect("some seed deals the zero cash to the person");
    for (z, expected) in [
        (ZeroCash::Unnamed, Some("an unnamed figure")),
        (ZeroCash::WangYing, Some("王英 Wang Ying")),
        (ZeroCash::Blank, None),
    ] {
        let mut h = at_play(seed, z);
        let i = h.app.hand().iter().position(|c| c == "W0").unwrap();
        h.key(KeyCode::Home);
        for _ in 0..i {
            h.key(KeyCode::Right);
        }
        assert!(matches!(h.app.model.view, Some(GameView::Madiao(_))));
        let line = status(&mut h);
        match expected {
            Some(text) => assert!(line.contains("W0 空沒文") && line.contains(text), "{z}: {line}"),
            None => assert_eq!(line, "", "{z}"),
        }
    }
}
