//! Madiao's follow by the keys (docs/play.md): `Enter` on a card that cannot capture sloughs it
//! face down — pressed twice too, it never becomes a face-up discard, which costs 2 stakes (rules
//! §5); the face-up discard is played only by its own key, `u`, pressed twice.

use cards::record::GameKind;
use madiao::{Action, PlayKind};
use ratatui::crossterm::event::KeyCode;
use tui::App;
use tui::model::{GameView, Legal};
use tui::testing::Harness;

fn config(seed: u64) -> tui::LocalConfig {
    let mut c = tui::LocalConfig::new(seed);
    c.bots = std::array::from_fn(|_| "heuristic".to_string());
    c.seat = cards::Seat::new(0).unwrap();
    c
}

/// A card the person may either discard face up or slough, at a follow where it cannot capture.
fn discardable(a: &App) -> Option<madiao::Card> {
    let Some(Legal::Actions { actions, captures }) = &a.model.legal else { return None };
    actions.iter().find_map(|x| match x {
        Action::Play(c) if !captures.contains(c) && actions.contains(&Action::Slough(*c)) => Some(*c),
        _ => None,
    })
}

/// How the person's `card` was played in this hand, once it has been.
fn played(a: &App, card: madiao::Card) -> Option<PlayKind> {
    let Some(GameView::Madiao(v)) = &a.model.view else { return None };
    let me = a.model.me?;
    v.tricks.iter().flat_map(|t| &t.plays).find(|p| p.seat == me && p.card == Some(card)).map(|p| p.kind)
}

/// Plays on until the person may discard a card face up at a follow, and puts the cursor on it.
fn at_a_discardable_follow(h: &mut Harness) -> madiao::Card {
    assert!(
        h.play_until(20_000, false, |a| discardable(a).is_some()),
        "a follow where a card cannot capture"
    );
    let card = discardable(&h.app).unwrap();
    h.type_str(card.code());
    assert_eq!(h.app.hand()[h.app.ui.cursor], card.code(), "the cursor is on {card}");
    card
}

#[test]
fn enter_twice_on_a_card_that_cannot_capture_sloughs_it_face_down() {
    for seed in [3, 11] {
        let mut h = Harness::local(GameKind::Madiao, config(seed), 110, 34).unwrap();
        let card = at_a_discardable_follow(&mut h);
        h.key(KeyCode::Enter);
        h.key(KeyCode::Enter);
        assert!(h.run_until(2000, |a| played(a, card).is_some()), "seed {seed}: {card} was played");
        assert_eq!(played(&h.app, card), Some(PlayKind::Slough), "seed {seed}: {card} went face down");
    }
}

#[test]
fn u_twice_discards_the_card_face_up() {
    let mut h = Harness::local(GameKind::Madiao, config(3), 110, 34).unwrap();
    let card = at_a_discardable_follow(&mut h);
    h.key(KeyCode::Char('u'));
    assert!(h.app.ui.confirm.is_some(), "the first u asks");
    assert!(h.screen().contains("face-up discard (penalty: 2 stakes)"), "the question names the penalty");
    assert_eq!(played(&h.app, card), None, "nothing is played on the first u");
    h.key(KeyCode::Char('u'));
    assert!(h.run_until(2000, |a| played(a, card).is_some()), "{card} was played");
    assert_eq!(played(&h.app, card), Some(PlayKind::Discard), "{card} went face up, as a discard");
}
