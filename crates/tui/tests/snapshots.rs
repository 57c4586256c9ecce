//! Snapshots of the screen (ratatui's test backend) in every phase of both games, each reached
//! by playing a seeded local match through the key handling, with the bots of the `heuristic`
//! kind; the test asserts the phase before taking the picture.

use cards::record::GameKind;
use ratatui::crossterm::event::KeyCode;
use tui::app::madiao_best;
use tui::model::{GameView, Legal};
use tui::testing::Harness;
use wire::{CardsAction, LeadSuit};

fn harness(game: GameKind, seed: u64, seat: u8, w: u16, h: u16) -> Harness {
    let mut c = tui::LocalConfig::new(seed);
    c.bots = std::array::from_fn(|_| "heuristic".to_string());
    c.seat = cards::Seat::new(seat).unwrap();
    Harness::local(game, c, w, h).unwrap()
}

fn madiao_view(h: &Harness) -> &tui::model::MadiaoView {
    match h.app.model.view.as_ref() {
        Some(GameView::Madiao(v)) => v,
        other => panic!("not a Madiao view: {other:?}"),
    }
}

fn dabaifen_view(h: &Harness) -> &tui::model::DabaifenView {
    match h.app.model.view.as_ref() {
        Some(GameView::Dabaifen(v)) => v,
        other => panic!("not a Da Bai Fen view: {other:?}"),
    }
}

fn over(a: &tui::App) -> bool {
    a.model.view.as_ref().is_some_and(GameView::is_over)
}

// ---------------------------------------------------------------------------------------------
// Madiao

#[test]
fn madiao_redeal_prompt() {
    let mut h = harness(GameKind::Madiao, 17, 0, 100, 30);
    assert!(h.until_decision());
    assert_eq!(h.legal(), Some(&Legal::Redeal { requested: false }));
    let s = h.screen();
    assert!(s.contains("r forces a redeal"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn madiao_lead() {
    let mut h = harness(GameKind::Madiao, 5, 0, 100, 30);
    assert!(h.until_decision());
    assert!(matches!(h.legal(), Some(Legal::Actions { .. })));
    assert!(madiao_best(madiao_view(&h)).is_none(), "the person leads");
    insta::assert_snapshot!(h.screen());
}

#[test]
fn madiao_capture_or_slough() {
    let mut h = harness(GameKind::Madiao, 1, 0, 100, 30);
    assert!(h.until_decision());
    assert!(madiao_best(madiao_view(&h)).is_some(), "a card was led");
    assert!(!h.app.marks().capture.is_empty(), "the person can capture");
    // The cursor starts on the lowest capturing card: Enter would capture with it.
    let s = h.screen();
    assert!(s.contains("Enter captures with S8"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn madiao_trick_8() {
    let mut h = harness(GameKind::Madiao, 1, 0, 100, 30);
    assert!(h.play_until(5000, false, |a| {
        a.model.legal.is_some()
            && matches!(&a.model.view, Some(GameView::Madiao(v)) if v.tricks.len() == 8 && v.tricks[7].winner.is_none())
    }));
    assert_eq!(h.app.hand().len(), 1);
    insta::assert_snapshot!(h.screen());
}

#[test]
fn madiao_hand_result() {
    let mut h = harness(GameKind::Madiao, 1, 0, 100, 30);
    assert!(h.play_until(5000, false, over));
    let s = h.screen();
    assert!(s.contains("Settlement, line by line"), "{s}");
    insta::assert_snapshot!(s);
    // Tab shows the table behind the result.
    h.key(KeyCode::Tab);
    let t = h.screen();
    assert!(t.contains("the hand is over") && !t.contains("Settlement, line by line"), "{t}");
}

#[test]
fn madiao_match_end() {
    let mut h = harness(GameKind::Madiao, 1, 0, 100, 30);
    assert!(h.play_until(100_000, false, |a| a.model.match_over() && over(a)));
    let s = h.screen();
    assert!(s.contains("The match is over."), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn madiao_at_the_smallest_size() {
    let mut h = harness(GameKind::Madiao, 1, 0, 80, 24);
    assert!(h.until_decision());
    insta::assert_snapshot!(h.screen());
}

#[test]
fn too_small_a_terminal_says_so() {
    let mut h = harness(GameKind::Madiao, 1, 0, 60, 20);
    let s = h.screen();
    assert!(s.contains("The terminal is 60×20.") && s.contains("at least 80×24"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn madiao_help() {
    let mut h = harness(GameKind::Madiao, 5, 0, 100, 30);
    assert!(h.until_decision());
    h.key(KeyCode::Char('?'));
    let s = h.screen();
    assert!(s.contains("slough the card face down"), "{s}");
    insta::assert_snapshot!(s);
    h.key(KeyCode::Char('x'));
    assert!(!h.app.ui.help);
}

// ---------------------------------------------------------------------------------------------
// Da Bai Fen

#[test]
fn dabaifen_draw_with_a_declaration_possible() {
    let mut h = harness(GameKind::Dabaifen, 0, 1, 100, 30);
    assert!(h.run_until(
        5000,
        |a| matches!(&a.model.legal, Some(Legal::Declare { cards, requested: None }) if !cards.is_empty())
    ));
    let v = dabaifen_view(&h);
    assert_eq!(v.phase, dabaifen::Phase::Drawing);
    assert!(v.drawn > 0 && v.drawn < 48);
    let s = h.screen();
    assert!(s.contains(" · d shows "), "{s}");
    insta::assert_snapshot!(s);
    // Asking to show the card: the request is acknowledged and shown.
    h.key(KeyCode::Char('d'));
    assert!(matches!(h.legal(), Some(Legal::Declare { requested: Some(_), .. })), "{:?}", h.legal());
    assert!(h.screen().contains("you asked to show"));
}

#[test]
fn dabaifen_burial() {
    let mut h = harness(GameKind::Dabaifen, 0, 1, 100, 30);
    assert!(h.play_until(
        5000,
        true,
        |a| matches!(&a.model.legal, Some(Legal::Cards { action, .. }) if *action == CardsAction::Bury)
    ));
    assert_eq!(h.app.hand().len(), 18);
    // Three cards chosen with Space.
    h.key(KeyCode::Home);
    for _ in 0..3 {
        h.key(KeyCode::Char(' '));
        h.key(KeyCode::Right);
    }
    assert_eq!(h.app.ui.selected.len(), 3);
    let s = h.screen();
    assert!(s.contains("(3/6 chosen)"), "{s}");
    insta::assert_snapshot!(s);
    // Enter with three chosen only explains.
    h.key(KeyCode::Enter);
    assert!(h.app.ui.message.as_deref().unwrap_or("").contains("choose 6 cards"));
}

/// Seed 6, seat 3: the person's first lead holds the ace and king of a plain suit.
fn ace_king_lead() -> (Harness, String, String) {
    let mut h = harness(GameKind::Dabaifen, 6, 3, 100, 30);
    let ak = |a: &tui::App| match &a.model.legal {
        Some(Legal::Lead { groups, .. }) => groups
            .iter()
            .find(|g| {
                g.suit != LeadSuit::Trumps
                    && g.cards.len() >= 2
                    && g.cards[0].to_string().starts_with('A')
                    && g.cards[1].to_string().starts_with('K')
            })
            .map(|g| (g.cards[0].to_string(), g.cards[1].to_string())),
        _ => None,
    };
    assert!(h.play_until(5000, true, |a| ak(a).is_some()));
    let (a, k) = ak(&h.app).unwrap();
    (h, a, k)
}

#[test]
fn dabaifen_multi_card_lead() {
    let (mut h, ace, king) = ace_king_lead();
    // Typing a code goes to the card; Space selects it.
    h.type_str(&ace.to_lowercase());
    h.key(KeyCode::Char(' '));
    h.type_str(&king);
    h.key(KeyCode::Char(' '));
    assert_eq!(h.app.ui.selected, vec![ace.clone(), king.clone()]);
    let s = h.screen();
    assert!(s.contains("Lead 2 cards of one suit"), "{s}");
    insta::assert_snapshot!(s);
    h.key(KeyCode::Enter);
    let v = dabaifen_view(&h);
    let t = v.tricks.last().unwrap();
    assert_eq!(t.plays[0].seat, cards::Seat::new(3).unwrap());
    let led: Vec<String> = t.plays[0].cards.iter().map(ToString::to_string).collect();
    assert_eq!(led, vec![ace, king]);
    assert_eq!(v.revoke, None);
}

#[test]
fn dabaifen_follow() {
    let (mut h, ace, king) = ace_king_lead();
    h.type_str(&ace);
    h.key(KeyCode::Char(' '));
    h.type_str(&king);
    h.key(KeyCode::Char(' '));
    h.key(KeyCode::Enter);
    assert!(h.play_until(
        5000,
        true,
        |a| matches!(&a.model.legal, Some(Legal::Cards { action, .. }) if *action == CardsAction::Play)
    ));
    insta::assert_snapshot!(h.screen());
}

#[test]
fn dabaifen_deal_result() {
    let mut h = harness(GameKind::Dabaifen, 6, 3, 100, 30);
    assert!(h.play_until(20_000, true, over));
    let s = h.screen();
    assert!(s.contains("The deal, in order:"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn dabaifen_annulment_prompt() {
    let mut h = harness(GameKind::Dabaifen, 109, 0, 100, 30);
    assert!(h.play_until(5000, true, |a| matches!(a.model.legal, Some(Legal::Annul { .. }))));
    let s = h.screen();
    assert!(s.contains("n annuls the deal"), "{s}");
    insta::assert_snapshot!(s);
    // Annulling: the deal is over, annulled by the person.
    h.key(KeyCode::Char('n'));
    assert!(h.run_until(100, over));
    assert_eq!(dabaifen_view(&h).annulment.as_ref().map(|a| a.0), Some(cards::Seat::new(0).unwrap()));
}

#[test]
fn eighteen_cards_fit_the_smallest_size() {
    let mut h = harness(GameKind::Dabaifen, 0, 1, 80, 24);
    assert!(h.play_until(
        5000,
        true,
        |a| matches!(&a.model.legal, Some(Legal::Cards { action, .. }) if *action == CardsAction::Bury)
    ));
    let hand = h.app.hand();
    assert_eq!(hand.len(), 18);
    let s = h.screen();
    let row = s.lines().find(|l| l.starts_with(&format!(" {} ", hand[0]))).unwrap_or_default().to_string();
    for c in &hand {
        assert!(row.contains(c.as_str()), "{c} is not on the hand's row: {row:?}\n{s}");
    }
}

#[test]
fn resizing_redraws_for_the_new_size() {
    let mut h = harness(GameKind::Madiao, 1, 0, 100, 30);
    assert!(h.until_decision());
    assert!(h.screen().contains("Your hand (8 cards)"));
    for (w, hgt, small) in [(60, 20, true), (80, 24, false), (79, 40, true), (140, 45, false)] {
        h.terminal.backend_mut().resize(w, hgt);
        let s = h.screen();
        assert_eq!(s.lines().count(), usize::from(hgt));
        assert!(s.lines().all(|l| ratatui::text::Span::raw(l).width() == usize::from(w)), "{s}");
        assert_eq!(s.contains("please enlarge the window"), small, "{w}×{hgt}:\n{s}");
        assert_eq!(s.contains("Your hand (8 cards)"), !small, "{w}×{hgt}:\n{s}");
    }
}
