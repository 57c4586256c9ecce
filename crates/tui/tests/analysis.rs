//! The analysis key: after a hand of a seeded local match (played through the key handling with
//! `heuristic` bots), `a` shows the analysis of the person's decisions — the same report as
//! `ai::analysis` gives for the record the match saved — scrolls with the arrows and closes on
//! another key; during a hand `a` is a card code or nothing, never the analysis.

use cards::record::GameKind;
use ratatui::crossterm::event::KeyCode;
use tui::app::ANALYSIS_SEED;
use tui::model::GameView;
use tui::testing::Harness;

fn over(a: &tui::App) -> bool {
    a.model.view.as_ref().is_some_and(GameView::is_over)
}

/// The report `ai::analysis` gives for hand `hand` of the record in `path`, seat `seat`.
fn expected(path: &std::path::Path, hand: usize, seat: u8) -> Vec<String> {
    let rec = ai::record::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let opts = ai::analysis::Options {
        seat: cards::Seat::new(seat).unwrap(),
        hand,
        seed: ANALYSIS_SEED,
        budget: ai::Budget::default(),
    };
    let a = ai::analysis::analyse(&rec, &opts, &mut |_| {}).unwrap();
    ai::analysis::report(&a).lines().map(str::to_string).collect()
}

fn harness(game: GameKind, seed: u64, seat: u8, out: &std::path::Path) -> Harness {
    let mut c = tui::LocalConfig::new(seed);
    c.bots = std::array::from_fn(|_| "heuristic".to_string());
    c.seat = cards::Seat::new(seat).unwrap();
    c.out = Some(out.to_path_buf());
    Harness::local(game, c, 110, 34).unwrap()
}

#[test]
fn madiao_a_shows_the_analysis_of_the_hand_just_played() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.json");
    let mut h = harness(GameKind::Madiao, 1, 0, &out);
    // Not during the hand.
    assert!(h.until_decision());
    h.key(KeyCode::Char('a'));
    assert!(h.app.ui.analysis.is_none());
    assert!(h.play_until(5000, false, over));
    h.key(KeyCode::Char('a'));
    let lines = h.app.ui.analysis.clone().expect("the analysis is shown");
    assert_eq!(lines, expected(&out, 0, 0));
    let s = h.screen();
    assert!(s.contains("Analysis of your decisions"), "{s}");
    assert!(s.contains("madiao hand 0, seat 0: pimc at 100 ms per decision, seed 1"), "{s}");
    assert!(lines.iter().any(|l| l.starts_with(" 1. trick 1: ")), "{lines:?}");
    // Scrolling moves the text; another key closes it and the result is back.
    h.key(KeyCode::Down);
    h.key(KeyCode::Down);
    assert_eq!(h.app.ui.analysis_scroll, 2);
    let scrolled = h.screen();
    assert!(!scrolled.contains("madiao hand 0, seat 0"), "{scrolled}");
    h.key(KeyCode::Esc);
    assert!(h.app.ui.analysis.is_none());
    assert!(!h.app.ui.confirm_quit, "Esc closed the analysis only");
    assert!(h.screen().contains("Settlement, line by line"));
}

#[test]
fn dabaifen_a_shows_the_analysis_of_the_deal_just_played() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.json");
    let mut h = harness(GameKind::Dabaifen, 6, 3, &out);
    assert!(h.play_until(20_000, true, over));
    let hand = h.app.model.hand as usize;
    h.key(KeyCode::Char('a'));
    let lines = h.app.ui.analysis.clone().expect("the analysis is shown");
    assert_eq!(lines, expected(&out, hand, 3));
    assert!(h.screen().contains(&format!("dabaifen hand {hand}, seat 3: pimc")));
    // Any other key closes it.
    h.key(KeyCode::Char('x'));
    assert!(h.app.ui.analysis.is_none());
}
