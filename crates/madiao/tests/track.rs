//! The card tracker (`madiao::Tracker`) on constructed positions: the cards seen played by suit,
//! the voids shown (only when a whole suit is accounted for, §5: nobody must follow suit), the
//! viewer's top cards and the cards it has not seen.

mod common;

use common::*;
use madiao::{Card, Tracker};

fn codes(cards: &[Card]) -> String {
    cards.iter().map(|c| c.code()).collect::<Vec<_>>().join(" ")
}

fn suit(t: &Tracker, letter: char) -> &madiao::track::SuitTrack {
    t.suits.iter().find(|s| s.suit == letter).unwrap()
}

/// Seat 0 holds the four highest strings; the stock holds no string; the other strings are with
/// seats 1–3 (upcard W3, seat 0 banker and first to lead).
const STRINGS: [&str; 4] = [
    "S9 S8 S7 S6 TQ T3 M8 W1",
    "S5 S4 T9 T4 M7 M2 W2 W8",
    "S3 S2 T8 T5 M6 M3 W4 W7",
    "S1 T7 T6 M4 M1 W5 W6 W9",
];
const STRINGS_STOCK: &str = "TW TB M9 W0 T2 WH M5 W3";

#[test]
fn own_face_down_cards_are_seen_and_others_are_counted_not_shown() {
    let mut st = state(0, QUIET, QUIET_STOCK, standard());
    script(&mut st, "M8 -W8 -W7 -W6");
    let t = Tracker::from_view(&st.view(seat(1)));
    assert_eq!(codes(&suit(&t, 'M').played), "M8");
    assert_eq!(codes(&suit(&t, 'W').played), "W8", "its own slough");
    assert_eq!(t.hidden_plays, 2, "seats 2 and 3 sloughed unseen");
    let unseen = t.unseen();
    assert!(unseen.contains(&card("W7")) && unseen.contains(&card("W6")));
    assert!(!unseen.contains(&card("W3")), "the upcard is seen");
    assert!(!unseen.contains(&card("M7")), "its own card");
    // 40 cards: its 7, the 2 it saw played, the upcard.
    assert_eq!(unseen.len(), 40 - 7 - 2 - 1);
    // Every higher card of its suits is unseen (the tops are in the stock): no top card.
    assert!(t.top.is_empty(), "{:?}", t.top);
    // The stock holds cards of every suit: no void can be shown.
    assert!(t.voids.is_empty());
}

#[test]
fn a_card_whose_higher_cards_are_all_seen_is_a_top_card() {
    let st = state(0, STRINGS, STRINGS_STOCK, standard());
    let t = Tracker::from_view(&st.view(seat(0)));
    // S9 is the highest string; S8–S6 are beaten only by its own cards.
    assert_eq!(codes(&t.top), "S9 S8 S7 S6");
    assert!(t.is_top(card("S6")) && !t.is_top(card("TQ")), "TW is unseen");
    // Seat 1 sees none of the higher strings: none of its cards is top.
    let t1 = Tracker::from_view(&st.view(seat(1)));
    assert!(t1.top.is_empty());
}

#[test]
fn a_suit_wholly_accounted_for_is_a_void_of_every_other_seat() {
    let mut st = state(0, STRINGS, STRINGS_STOCK, standard());
    // Seats 1–3 throw their strings face up (discards, §5 standard: a penalty), trick by trick.
    script(&mut st, "TQ S5 S3 S1  T3 S4 S2 T7");
    let t = Tracker::from_view(&st.view(seat(0)));
    assert_eq!(codes(&suit(&t, 'S').played), "S5 S4 S3 S2 S1");
    assert!(suit(&t, 'S').unseen.is_empty());
    assert_eq!(codes(&suit(&t, 'T').played), "TQ T7 T3");
    let voids: Vec<(u8, char)> = t.voids.iter().map(|v| (v.seat.number(), v.suit)).collect();
    assert_eq!(voids, [(1, 'S'), (2, 'S'), (3, 'S')]);
    // Seat 1 has not seen seat 0's strings: it can show no void.
    let t1 = Tracker::from_view(&st.view(seat(1)));
    assert!(t1.voids.is_empty());
    assert_eq!(codes(&suit(&t1, 'S').unseen), "S9 S8 S7 S6");
    assert_eq!(t.hidden_plays, 0);
    assert_eq!(t.unseen().len(), 40 - 6 - 8 - 1);
}

#[test]
fn once_the_hand_is_over_only_the_hidden_stock_is_unseen() {
    let mut st = state(0, QUIET, QUIET_STOCK, standard());
    plan(&mut st, &["M8", "S8", "T3", "M1", "S1", "W1", "W9", "TQ"]);
    assert!(st.is_over());
    let t = Tracker::from_view(&st.view(seat(2)));
    // Every played card is shown; of the stock, the upcard W3 and the exposed WH are seen.
    assert_eq!(codes(&t.unseen()), "TW TB T2 M9 S9 W0");
    assert_eq!(t.hidden_plays, 0);
    assert_eq!(t.suits.iter().map(|s| s.played.len()).sum::<usize>(), 32);
    // A stock card of every suit is unseen: no void is proven.
    assert!(t.voids.is_empty());
}
