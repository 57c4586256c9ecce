//! Helpers for building hands and playing them from short scripts.
#![allow(dead_code)]

use cards::{BySeat, Halves, Seat};
use madiao::{Action, Card, Cards, HandSetup, Item, Line, Phase, State, Variants, deck_from_hands};

pub fn seat(n: u8) -> Seat {
    Seat::new(n).unwrap()
}

pub fn card(c: &str) -> Card {
    c.parse().unwrap_or_else(|_| panic!("bad card {c}"))
}

pub fn cards<const N: usize>(s: &str) -> [Card; N] {
    let v: Vec<Card> = s.split_whitespace().map(card).collect();
    v.try_into().unwrap_or_else(|v: Vec<Card>| panic!("{} cards in {s:?}, want {N}", v.len()))
}

/// The deck dealing `hands` (by seat) and `stock` (its last card the upcard) under `banker`.
pub fn deck(banker: u8, hands: [&str; 4], stock: &str) -> [Card; 40] {
    let h = BySeat(hands.map(cards::<8>));
    deck_from_hands(seat(banker), &h, &cards::<8>(stock)).expect("each card once")
}

pub fn state(banker: u8, hands: [&str; 4], stock: &str, variants: Variants) -> State {
    let mut setup = HandSetup::new(seat(banker), deck(banker, hands, stock));
    setup.variants = variants;
    State::new(setup).expect("valid setup")
}

/// The "quiet" deal: TB and every top card in the stock, two cards of each suit per seat (one
/// high, one low), upcard W3 (the banker is dealt first), WH under it. No meld, no four lowest,
/// no long suit, no HM holder, no reward card dealt, no stock check.
pub const QUIET: [&str; 4] = [
    "TQ T3 M8 M1 S8 S1 W1 W9",
    "T9 T4 M7 M2 S7 S2 W2 W8",
    "T8 T5 M6 M3 S6 S3 W4 W7",
    "T7 T6 M5 M4 S5 S4 W5 W6",
];
pub const QUIET_STOCK: &str = "TW TB M9 S9 W0 T2 WH W3";

/// Plays tricks from a plan. Each entry is one trick: `"M8"` — the leader leads M8 and everyone
/// else sloughs; `"T3>T9"` — the leader leads T3, the holder of T9 captures with it, everyone else
/// sloughs. A slough is the lowest card of the hand that the rest of the plan does not use.
/// Pending redeal questions are declined first.
pub fn plan(st: &mut State, tricks: &[&str]) {
    while st.phase() == Phase::Redeal {
        st.apply(Action::Redeal(false)).unwrap();
    }
    for (t, entry) in tricks.iter().enumerate() {
        let (lead, capture) = match entry.split_once('>') {
            Some((a, b)) => (card(a), Some(card(b))),
            None => (card(entry), None),
        };
        let reserved: Cards = tricks[t + 1..].iter().flat_map(|e| e.split('>')).map(card).collect();
        let leader = st.to_move().expect("hand goes on");
        st.apply(Action::Play(lead)).unwrap_or_else(|e| panic!("trick {t}: {e}"));
        for _ in 0..3 {
            let s = st.to_move().unwrap();
            let hand = st.hand(s);
            let a = match capture {
                Some(c) if hand.contains(c) => Action::Play(c),
                _ => {
                    let free = hand - reserved - capture.map_or(Cards::EMPTY, Cards::single);
                    let pick = if free.is_empty() { hand } else { free };
                    Action::Slough(pick.first().unwrap())
                }
            };
            st.apply(a).unwrap_or_else(|e| panic!("trick {t} ({leader} led): {e}"));
        }
    }
}

/// Plays a script of actions for whoever is to move: `"M5"` face up, `"-S1"` face down, `"R"`
/// force a redeal, `"D"` decline.
pub fn script(st: &mut State, actions: &str) {
    for tok in actions.split_whitespace() {
        let a = match tok {
            "R" => Action::Redeal(true),
            "D" => Action::Redeal(false),
            t if t.starts_with('-') => Action::Slough(card(&t[1..])),
            t => Action::Play(card(t)),
        };
        st.apply(a).unwrap_or_else(|e| panic!("{tok}: {e}"));
    }
}

/// Payoffs in stakes as numbers.
pub fn payoffs(st: &State) -> [f64; 4] {
    st.payoffs().0.map(Halves::to_f64)
}

/// The settlement lines with a given item name (see `Item::name`), as (seat, transfers in stakes).
pub fn lines_named(st: &State, name: &str) -> Vec<(u8, [f64; 4])> {
    st.settlement()
        .expect("hand over")
        .lines
        .iter()
        .filter(|l| l.item.name() == name && l.counted)
        .map(|l| (l.seat.number(), l.transfers.0.map(Halves::to_f64)))
        .collect()
}

pub fn all_lines(st: &State) -> Vec<Line> {
    st.settlement().expect("hand over").lines
}

pub fn has_item(st: &State, f: impl Fn(&Item) -> bool) -> bool {
    all_lines(st).iter().any(|l| l.counted && f(&l.item))
}

pub fn standard() -> Variants {
    Variants::STANDARD
}

pub fn with(base: Variants, name: &str, value: &str) -> Variants {
    let mut v = base;
    v.set(name, value).unwrap();
    v
}
