//! Helpers for building deals card by card.
#![allow(dead_code)]

use cards::Seat;
use dabaifen::record::DabaifenAction;
use dabaifen::record::apply_recorded;
use dabaifen::{Action, Card, Cards, HandSetup, Phase, Rank, State, Suit, Trump, Variants};

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
pub fn setup(starter: u8, ranks: [char; 2], hands: [&str; 4], kitty: &str) -> HandSetup {
    HandSetup {
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
        .map_err(|e| e.to_string())
}

/// A deal in the play phase: `declarer` shows `card` after the whole draw, nobody annuls, and the
/// starter buries the kitty as dealt, so each seat plays the twelve cards written for it.
pub fn playing(setup: &HandSetup, declarer: u8, code: &str) -> State {
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

/// Trumps hearts and 8 by turning the kitty (8H first), which holds BJ and SJ too; the starter
/// (seat 0) buries them, and play begins. Buried, they do not count against top cards, and the
/// equal 8D in seat 1's hand is not stronger than 8S or 8C.
pub fn kitty_holds_the_strong_trumps() -> State {
    let setup = setup(
        0,
        ['8', '2'],
        [
            "8S 8C AS KS 5S 4S 3S 2S AD KD QD JD",
            "8D QS JS TS 9S 7S 6S AC KC QC JC TC",
            "AH KH QH JH TH 9H 7H 6H 5H 4H 3H 2H",
            "TD 9D 7D 6D 5D 4D 3D 2D 9C 7C 6C 5C",
        ],
        "8H BJ SJ 2C 3C 4C",
    );
    let mut st = State::new(&setup).unwrap();
    pass_draw(&mut st);
    assert_eq!(st.trump(), Some(Trump { suit: Suit::Hearts, rank: Rank::Eight }));
    // Seat 3 has no trump and keeps the deal.
    assert_eq!(st.to_move(), Some(seat(3)));
    st.apply(Action::Pass).unwrap();
    st.apply(Action::Bury(cards("8H BJ SJ 2C 3C 4C"))).unwrap();
    assert_eq!(st.phase(), Phase::Playing);
    st
}
