//! `view(seat)`: a seat sees its own hand, every face-up card, its own face-down cards, the upcard
//! and who won which trick — and everyone's face-down cards once the hand is over.

mod common;

use common::*;
use madiao::PlayKind;

#[test]
fn face_down_cards_are_hidden_from_others_until_the_hand_ends() {
    let mut st = state(0, QUIET, QUIET_STOCK, standard());
    script(&mut st, "M8 -W8 -W7 -W6  M1 M7");
    let v1 = st.view(seat(1));
    let v2 = st.view(seat(2));
    // Seat 1 sees its own face-down W8, not seat 2's W7.
    let t1 = &v1.tricks[0];
    assert_eq!(t1.plays[1].card, Some(card("W8")));
    assert_eq!(t1.plays[2].card, None);
    assert_eq!(t1.plays[2].kind, PlayKind::Slough);
    assert!(!t1.plays[2].face_up);
    assert_eq!(t1.winner, Some(seat(0)));
    assert_eq!(v2.tricks[0].plays[2].card, Some(card("W7")));
    assert_eq!(v2.tricks[0].plays[1].card, None);
    // The current trick, the turn, the upcard, hand sizes, own legal actions.
    assert_eq!(v1.tricks[1].plays.len(), 2);
    assert_eq!(v1.tricks[1].winner, None);
    assert_eq!(v1.to_move, Some(seat(2)));
    assert!(v1.legal_actions.is_empty());
    assert_eq!(v2.legal_actions.len(), 7 + 7, "any of 7 cards face up (penalty) or down");
    assert_eq!(v1.upcard, card("W3"));
    assert_eq!(v1.hand_sizes.0, [6, 6, 7, 7]);
    assert_eq!(v1.hand.len(), 6);
    assert!(v1.result.is_none() && v1.settlement.is_none());
    let json = serde_json::to_string(&v1).unwrap();
    assert!(
        json.contains(r#"{"seat":2,"kind":"slough","face_up":false,"card":null,"can_win":false}"#),
        "{json}"
    );
    assert!(!json.contains("\"W7\""));
    // Finish the hand: every card is shown, with the result and the settlement.
    script(&mut st, "-M3 -M4");
    plan(&mut st, &["S7", "W2", "T9", "M2>M6", "S6", "W4"]);
    let v = st.view(seat(1));
    assert!(v.tricks.iter().flat_map(|t| &t.plays).all(|p| p.card.is_some()));
    assert_eq!(v.tricks.len(), 8);
    assert!(v.result.is_some());
    assert!(!v.settlement.as_ref().unwrap().lines.is_empty());
    assert_eq!(v.exposed_stock_card, Some(card("WH")));
}

#[test]
fn an_unplayed_hand_shows_only_what_was_declared() {
    let hands = [
        "T9 T8 M8 M7 W1 W2 T6 M5",
        "TW M9 S9 W0 T7 M6 W4 W5",
        "TB T5 M4 M3 W6 W7 T4 M2",
        "S1 S2 S3 S4 S5 S6 S7 S8",
    ];
    let st = state(0, hands, "TQ T3 T2 M1 W8 W9 WH W3", standard());
    let v = st.view(seat(0));
    let shown: Vec<(u8, DeclaredKind, usize)> =
        v.declared.iter().map(|d| (d.seat.number(), d.what, d.cards.len())).collect();
    use madiao::view::DeclaredKind;
    assert_eq!(
        shown,
        vec![(1, DeclaredKind::Meld, 4), (3, DeclaredKind::Meld, 8), (2, DeclaredKind::HmExemption, 1)]
    );
    let json = serde_json::to_string(&v).unwrap();
    // Seat 1's cards outside the meld stay hidden from seat 0, and so does the stock.
    for hidden in ["T7", "M6", "W4", "W5", "T5", "M4", "TQ", "M1"] {
        assert!(!json.contains(&format!("\"{hidden}\"")), "{hidden} in {json}");
    }
    assert!(v.tricks.is_empty());
    assert_eq!(v.result.unwrap().next_banker, Some(seat(1)));
}

#[test]
fn a_redeal_shows_the_long_suit_and_the_choices() {
    let hands = [
        "T9 T8 M8 M7 S8 S7 W1 W2",
        "M6 M5 M4 M3 M2 T7 S6 W4",
        "TB T6 T5 M9 S5 S4 W5 W6",
        "W0 WH W7 W8 W9 T4 S3 S2",
    ];
    let mut st = state(0, hands, "TW TQ T3 T2 M1 S9 S1 W3", standard());
    let before = st.view(seat(0));
    assert_eq!(before.phase, madiao::Phase::Redeal);
    assert_eq!(before.to_move, Some(seat(1)));
    script(&mut st, "D R");
    let v = st.view(seat(0));
    assert_eq!(v.redeal_choices.len(), 2);
    assert!(!v.redeal_choices[0].redeal && v.redeal_choices[1].redeal);
    assert_eq!(v.declared[0].what, madiao::view::DeclaredKind::LongSuit);
    assert_eq!(v.declared[0].cards.len(), 5);
}
