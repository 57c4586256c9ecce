//! The hint (`h`) and the card tracker (`c`) offline, through the keys: the hint is the table's
//! answer for this seat's turn, chosen for the person (the cursor on a Madiao card, the selection
//! of a Da Bai Fen play) and shown with its reason; the tracker follows the view, move by move.

use cards::record::GameKind;
use ratatui::crossterm::event::KeyCode;
use tui::model::Legal;
use tui::testing::Harness;
use wire::{ActAction, Tracker};

fn config(seed: u64) -> tui::LocalConfig {
    let mut c = tui::LocalConfig::new(seed);
    c.bots = std::array::from_fn(|_| "heuristic".to_string());
    c.seat = cards::Seat::new(0).unwrap();
    c
}

/// True when the person is to play (not a window, not a stake, not the draw).
fn to_play(a: &tui::App) -> bool {
    matches!(a.model.legal, Some(Legal::Actions { .. } | Legal::Cards { .. } | Legal::Lead { .. }))
}

#[test]
fn a_madiao_hint_puts_the_cursor_on_its_card_and_enter_plays_it() {
    let mut h = Harness::local(GameKind::Madiao, config(5), 110, 34).unwrap();
    assert!(h.play_until(20_000, false, to_play), "a turn to play");
    h.key(KeyCode::Char('h'));
    assert!(h.run_until(2000, |a| a.model.hint.is_some()), "the hint arrives");
    let hint = h.app.model.hint.clone().unwrap();
    let Some(Legal::Actions { actions, .. }) = h.app.model.legal.clone() else { panic!("a Madiao play") };
    let ActAction::Madiao(action) = hint.action.clone() else { panic!("a Madiao action: {:?}", hint.action) };
    assert!(actions.contains(&action), "{action} is legal");
    let card = tui::app::hint_cards(&hint.action)[0].clone();
    assert_eq!(h.app.hand()[h.app.ui.cursor], card, "the cursor is on the hinted card");
    let screen = h.screen();
    assert!(screen.contains("Hint") && screen.contains("hint: "), "{screen}");
    let first_words: String = hint.reason.en.chars().take(12).collect();
    assert!(screen.contains(&first_words), "the reason is shown: {first_words}\n{screen}");
    // Playing moves on; the hint of that move is gone.
    let before = h.app.model.move_no;
    match action {
        madiao::Action::Slough(_) => h.key(KeyCode::Char('d')),
        _ => h.key(KeyCode::Enter),
    }
    h.key(KeyCode::Enter); // confirms a face-up discard if one was asked
    assert!(h.run_until(2000, |a| a.model.move_no > before), "the hinted card was played");
    assert!(h.app.model.hint.is_none());
}

#[test]
fn the_tracker_key_shows_the_tracker_and_it_follows_the_moves() {
    let mut h = Harness::local(GameKind::Madiao, config(8), 110, 34).unwrap();
    assert!(h.play_until(20_000, false, to_play), "a turn to play");
    h.key(KeyCode::Char('c'));
    assert!(h.app.ui.tracker);
    assert!(h.run_until(2000, |a| a.model.tracker.is_some()), "the tracker arrives");
    let Some(Tracker::Madiao(t)) = h.app.model.tracker.clone() else { panic!("Madiao's tracker") };
    let hand = h.app.hand();
    for c in &t.top {
        assert!(hand.contains(&c.to_string()), "top cards are the hand's: {c}");
    }
    let screen = h.screen();
    assert!(screen.contains("Card tracker") && screen.contains("your top cards"), "{screen}");
    // After some moves the tracker is asked again and counts the cards played.
    let played = |t: &Tracker| -> usize {
        let Tracker::Madiao(t) = t else { return 0 };
        t.suits.iter().map(|s| s.played.len()).sum()
    };
    let first = played(&Tracker::Madiao(t));
    assert!(
        h.play_until(20_000, false, |a| a.model.tracker.as_ref().is_some_and(|t| played(t) >= first + 4))
    );
    // `c` again hides it: the log of the hand is back.
    h.key(KeyCode::Char('c'));
    assert!(!h.app.ui.tracker);
    assert!(h.screen().contains("Log of the hand"));
}

#[test]
fn a_dabaifen_hint_selects_its_cards() {
    let mut h = Harness::local(GameKind::Dabaifen, config(3), 110, 34).unwrap();
    // A decision with several cards to choose: the burial or a multi-card follow.
    let mut found = false;
    for _ in 0..200 {
        if !h.play_until(20_000, false, to_play) {
            break;
        }
        h.key(KeyCode::Char('h'));
        assert!(
            h.run_until(2000, |a| a.model.hint.is_some()),
            "the hint arrives: {:?} {:?} {:?}",
            h.app.model.error,
            h.app.ui.message,
            h.app.model.legal
        );
        let hint = h.app.model.hint.clone().unwrap();
        let cards = tui::app::hint_cards(&hint.action);
        let ActAction::Dabaifen(action) = hint.action.clone() else { panic!("a Da Bai Fen action") };
        assert!(matches!(action, dabaifen::Action::Play(_) | dabaifen::Action::Bury(_)));
        if cards.len() > 1 {
            let mut sel = h.app.ui.selected.clone();
            let mut want = cards.clone();
            sel.sort();
            want.sort();
            assert_eq!(sel, want, "the hinted cards are selected");
            found = true;
            break;
        }
        // A single card: the cursor is on it; play it with Enter.
        assert_eq!(h.app.hand()[h.app.ui.cursor], cards[0]);
        let before = h.app.model.move_no;
        h.key(KeyCode::Enter);
        assert!(h.run_until(2000, |a| a.model.move_no > before));
    }
    assert!(found, "a hint of several cards (the burial at the latest, when this seat starts)");
}
