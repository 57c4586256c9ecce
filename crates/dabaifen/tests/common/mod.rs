//! Helpers for building deals card by card.
#![allow(dead_code)]

use cards::Seat;
use cards::record::DabaifenAction;
use dabaifen::record::apply_recorded;
use dabaifen::{Action, Card, Cards, DealSetup, Phase, Rank, State, Variants};

pub fn seat(n: u8) -> Seat {
    Seat::new(n).unwrap()
}

pub fn card(code: &str) -> Card {
    code.parse().unwrap()
}

pub fn cards(codes: &str) -> Cards {
    codes.split_whitespace().map(card).collect()
}

pub fn rank(c: char) -> Rank {
    Rank::from_letter(c).unwrap()
}

/// The deck that gives each seat its twelve cards in the order written (seat `first_drawer`
/// draws `deck[0]`) and leaves `kitty` (six cards, in turning order) undrawn.
pub fn deck(first_drawer: u8, hands: [&str; 4], kitty: &str) -> [Card; 54] {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| h.split_whitespace().map(card).collect()).collect();
    let kitty: Vec<Card> = kitty.split_whitespace().map(card).collect();
    assert!(hands.iter().all(|h| h.len() == 12), "twelve cards per hand");
    assert_eq!(kitty.len(), 6);
    let mut out = Vec::with_capacity(54);
    for p in 0..48 {
        let s = (first_drawer as usize + p) % 4;
        out.push(hands[s][p / 4]);
    }
    out.extend(kitty);
    let set: Cards = out.iter().copied().collect();
    assert_eq!(set.len(), 54, "54 distinct cards");
    out.try_into().unwrap()
}

/// A setup for a deal that is not the first, with the first drawer = the starter.
pub fn setup(starter: u8, ranks: [char; 2], hands: [&str; 4], kitty: &str) -> DealSetup {
    DealSetup {
        deck: deck(starter, hands, kitty),
        starter: seat(starter),
        first_deal: false,
        open: false,
        ranks: [rank(ranks[0]), rank(ranks[1])],
        variants: Variants::STANDARD,
    }
}

/// Passes every pending poll of the draw.
pub fn pass_draw(st: &mut State) {
    while st.phase() == Phase::Drawing {
        st.apply(Action::Pass).unwrap();
    }
}

/// Declares through the record semantics (passing earlier polls).
pub fn declare(st: &mut State, seat: u8, code: &str, drawn: u8) -> Result<(), String> {
    apply_recorded(st, &DabaifenAction::Declare { seat: Seat::new(seat).unwrap(), card: code.into(), drawn })
}

/// A deal in the play phase: `declarer` shows `card` after the whole draw, nobody annuls, and the
/// starter buries the kitty as dealt, so each seat plays the twelve cards written for it.
pub fn playing(setup: &DealSetup, declarer: u8, code: &str) -> State {
    let mut st = State::new(setup).unwrap();
    declare(&mut st, declarer, code, 48).unwrap();
    while st.phase() == Phase::Annulling {
        st.apply(Action::Pass).unwrap();
    }
    let kitty = st.kitty();
    st.apply(Action::Bury(kitty)).unwrap();
    assert_eq!(st.phase(), Phase::Playing);
    st
}

pub fn play(st: &mut State, codes: &str) -> Result<(), String> {
    st.apply(Action::Play(cards(codes))).map_err(|e| e.to_string())
}

/// A deck with the given cards at the given positions and every other card in card-number
/// order in the remaining positions.
pub fn deck_with(placed: &[(usize, &str)]) -> [Card; 54] {
    let mut slots: [Option<Card>; 54] = [None; 54];
    let mut used = Cards::EMPTY;
    for &(p, code) in placed {
        let c = card(code);
        assert!(slots[p].is_none() && used.insert(c), "{code} placed twice");
        slots[p] = Some(c);
    }
    let mut rest = Card::all().filter(|c| !used.contains(*c));
    slots.map(|s| s.or_else(|| rest.next()).unwrap())
}

/// The deck position of the `i`-th card (from 0) that `seat` draws when `first` draws first.
pub fn pos(first: u8, seat: u8, i: usize) -> usize {
    4 * i + ((seat + 4 - first) % 4) as usize
}
