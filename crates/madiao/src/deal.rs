//! §2 first-banker draw and §3 dealing: the cut card's table, the 4-4-4-4-then-singles deal, the
//! stock and its upcard; and how a seed turns into decks and draws.
//!
//! # Seeds
//! A seed `s` fixes everything random in a simulated match, on independent ChaCha8 streams
//! ([`cards::Rng::from_seed_stream`]), one group of four streams per hand number `k` (counted from
//! 0 over the whole simulation):
//! - stream `4k`: the deck of hand `k` — the canonical pack ([`crate::canonical_deck`]: `W9` first,
//!   `TW` last) shuffled by our Fisher–Yates ([`cards::Rng::shuffle`]). The shuffle stands for the
//!   shuffle and the cut together: the result is the pack top first, `deck[39]` the cut card.
//! - stream `4k + 1`: the banker draw before hand `k` when one is needed (the match's first hand,
//!   and after the four lowest): seat `i` draws the `i`-th card of the canonical pack partly
//!   shuffled ([`BankerDraw::from_rng`]); the highest card banks (§2).
//! - stream `4k + 2`: the random policy's choices during hand `k` ([`crate::random`]).
//! - stream `4k + 3`: the stake of hand `k` when a simulation names stakes ([`stake_from_seed`]).

use cards::{BySeat, Rng, Seat};

use crate::card::{Card, Cards, canonical_deck};

/// §3 The first recipient's distance from the banker, by the cut card: 4/8 → the dealer (b+1),
/// 3/7 → the banker, 2/6 → the shuffler (b+3), 1/5/9 and `W0 WH TB TQ TW` → the banker's opposite
/// (b+2). Tens `T2`…`T9` count by their digit.
const CUT_OFFSET: [u8; 40] = {
    let mut t = [2u8; 40];
    let mut i = 0;
    while i < 40 {
        // The digit of the card, or 0 for W0, WH, TB, TQ, TW.
        let digit: u8 = if i <= 8 {
            9 - i as u8 // W9..W1
        } else if i <= 10 {
            0 // WH, W0
        } else if i < 20 {
            (i - 10) as u8 // S1..S9
        } else if i < 29 {
            (i - 19) as u8 // M1..M9
        } else if i < 37 {
            (i - 27) as u8 // T2..T9
        } else {
            0 // TB, TQ, TW
        };
        t[i] = match digit {
            4 | 8 => 1,
            3 | 7 => 0,
            2 | 6 => 3,
            _ => 2,
        };
        i += 1;
    }
    t
};

/// §3 The seat dealt first (and leading trick 1) when `cut` is the cut card under `banker`.
#[inline]
pub fn first_recipient(banker: Seat, cut: Card) -> Seat {
    banker.offset(CUT_OFFSET[cut.number() as usize])
}

/// §3 Which of the four seats, counted from the first recipient, receives `deck[i]` for
/// `i < 32`: a batch of 4 each, then single cards round four times.
pub const DEAL_OFFSET: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = if i < 16 { (i / 4) as u8 } else { ((i - 16) % 4) as u8 };
        i += 1;
    }
    t
};

/// §3 The four hands dealt from `deck` (top first) starting with `first`, as masks by seat.
/// `deck[32..40]` is the stock.
#[inline]
pub fn deal_hands(deck: &[Card; 40], first: Seat) -> [Cards; 4] {
    deal_hands_counted(deck, first).0.map(Cards::from_bits)
}

/// Per card: one in the byte of its suit (bytes 0–3) and, for a red card, one in byte 4.
const COUNT_INC: [u64; 40] = {
    let mut t = [0u64; 40];
    let mut i = 0;
    while i < 40 {
        let suit = crate::card::SUIT_OF[i] as u64;
        let red = (crate::card::RED.bits() >> i) & 1;
        t[i] = (1 << (8 * suit)) | (red << 32);
        i += 1;
    }
    t
};

/// The hands as [`deal_hands`], with each hand's counts packed in a word: bytes 0–3 the number of
/// cards of each suit (cash, strings, myriads, tens), byte 4 the number of red cards.
#[inline]
pub(crate) fn deal_hands_counted(deck: &[Card; 40], first: Seat) -> ([u64; 4], [u64; 4]) {
    let mut hands = [0u64; 4];
    let mut counts = [0u64; 4];
    for (i, &off) in DEAL_OFFSET.iter().enumerate() {
        let s = first.offset(off).index();
        hands[s] |= deck[i].bit();
        counts[s] += COUNT_INC[deck[i].number() as usize];
    }
    (hands, counts)
}

/// From packed counts: some suit has all 8 cards.
#[inline]
pub(crate) fn counts_flush(c: u64) -> bool {
    ((c & 0xffff_ffff) + 0x7878_7878) & 0x8080_8080 != 0
}

/// From packed counts: some suit has 5 or more cards.
#[inline]
pub(crate) fn counts_long_suit(c: u64) -> bool {
    ((c & 0xffff_ffff) + 0x7b7b_7b7b) & 0x8080_8080 != 0
}

/// From packed counts: 8 red cards.
#[inline]
pub(crate) fn counts_eight_reds(c: u64) -> bool {
    (c >> 32) & 0xff >= 8
}

/// The deck that deals exactly these hands and this stock under `banker` (the inverse of the deal,
/// §3): `stock[7]` becomes `deck[39]`, the cut card, which decides the first recipient; each
/// hand's first four cards are its batch and the other four its singles. For setting up positions
/// (tests, puzzles, analysis). `None` when a card is given twice.
pub fn deck_from_hands(banker: Seat, hands: &BySeat<[Card; 8]>, stock: &[Card; 8]) -> Option<[Card; 40]> {
    let first = first_recipient(banker, stock[7]);
    let mut deck = canonical_deck();
    let mut next = [0usize; 4];
    for (i, off) in DEAL_OFFSET.iter().enumerate() {
        let s = first.offset(*off);
        deck[i] = hands[s][next[s.index()]];
        next[s.index()] += 1;
    }
    deck[32..].copy_from_slice(stock);
    let all = deck.iter().fold(0u64, |m, c| m | c.bit());
    (all.count_ones() == 40).then_some(deck)
}

/// The deck of hand `k` of the seed `seed` (see the module documentation).
pub fn deck_from_seed(seed: u64, k: u64) -> [Card; 40] {
    let mut deck = canonical_deck();
    Rng::from_seed_stream(seed, k.wrapping_mul(4)).shuffle(&mut deck);
    deck
}

/// A first-banker draw (§2): the card each seat drew and the seat that banks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BankerDraw {
    /// The card each seat drew.
    pub cards: BySeat<Card>,
    /// The seat with the highest card.
    pub banker: Seat,
}

impl BankerDraw {
    /// §2 The draw of these four (distinct) cards: the highest card banks, across suits
    /// `T` > `M` > `S` > `W`, then rank.
    pub fn from_cards(cards: BySeat<Card>) -> BankerDraw {
        let banker = Seat::ALL.into_iter().max_by_key(|&s| cards[s]).unwrap_or(Seat::ALL[0]);
        BankerDraw { cards, banker }
    }

    /// A draw from a shuffled pack: seat `i` draws the `i`-th card of the canonical pack after
    /// the first four steps of a Fisher–Yates shuffle from the top (step `i` swaps position `i`
    /// with a uniformly random position `i..40`).
    pub fn from_rng(rng: &mut Rng) -> BankerDraw {
        let mut pack = canonical_deck();
        for i in 0..4 {
            let j = i + rng.index(40 - i);
            pack.swap(i, j);
        }
        BankerDraw::from_cards(BySeat([pack[0], pack[1], pack[2], pack[3]]))
    }

    /// The draw before hand `k` of the seed `seed` (see the module documentation).
    pub fn from_seed(seed: u64, k: u64) -> BankerDraw {
        BankerDraw::from_rng(&mut Rng::from_seed_stream(seed, k.wrapping_mul(4).wrapping_add(1)))
    }
}

/// The stake of hand `k` of `seed` for a simulation whose stakes go up to `max` chips: an even
/// number from 2 to `max` (`max` taken down to an even number, at least 2), each equally likely,
/// drawn on stream `4k + 3`.
pub fn stake_from_seed(seed: u64, k: u64, max: u32) -> u32 {
    let evens = (max / 2).max(1);
    2 * (1 + Rng::from_seed_stream(seed, k.wrapping_mul(4).wrapping_add(3)).below(evens))
}

/// The random policy's generator for hand `k` of the seed `seed`.
pub fn policy_rng(seed: u64, k: u64) -> Rng {
    Rng::from_seed_stream(seed, k.wrapping_mul(4).wrapping_add(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(n: u8) -> Seat {
        Seat::new(n).unwrap()
    }

    fn card(c: &str) -> Card {
        c.parse().unwrap()
    }

    #[test]
    fn cut_card_table_row_4_or_8_gives_the_dealer() {
        for c in ["W4", "W8", "S4", "S8", "M4", "M8", "T4", "T8"] {
            for b in 0..4 {
                assert_eq!(first_recipient(seat(b), card(c)), seat(b).offset(1), "{c}");
            }
        }
    }

    #[test]
    fn cut_card_table_row_3_or_7_gives_the_banker() {
        for c in ["W3", "W7", "S3", "S7", "M3", "M7", "T3", "T7"] {
            for b in 0..4 {
                assert_eq!(first_recipient(seat(b), card(c)), seat(b), "{c}");
            }
        }
    }

    #[test]
    fn cut_card_table_row_2_or_6_gives_the_shuffler() {
        for c in ["W2", "W6", "S2", "S6", "M2", "M6", "T2", "T6"] {
            for b in 0..4 {
                assert_eq!(first_recipient(seat(b), card(c)), seat(b).offset(3), "{c}");
            }
        }
    }

    #[test]
    fn cut_card_table_row_1_5_9_and_named_cards_give_the_opposite() {
        for c in
            ["W1", "W5", "W9", "S1", "S5", "S9", "M1", "M5", "M9", "T5", "T9", "W0", "WH", "TB", "TQ", "TW"]
        {
            for b in 0..4 {
                assert_eq!(first_recipient(seat(b), card(c)), seat(b).opposite(), "{c}");
            }
        }
    }

    #[test]
    fn deal_is_four_each_then_singles() {
        let deck = canonical_deck();
        let first = seat(2);
        let hands = deal_hands(&deck, first);
        // Seat 2 gets deck[0..4] and deck[16], [20], [24], [28].
        let want = |idx: &[usize]| idx.iter().map(|&i| deck[i]).collect::<Cards>();
        assert_eq!(hands[2], want(&[0, 1, 2, 3, 16, 20, 24, 28]));
        assert_eq!(hands[3], want(&[4, 5, 6, 7, 17, 21, 25, 29]));
        assert_eq!(hands[0], want(&[8, 9, 10, 11, 18, 22, 26, 30]));
        assert_eq!(hands[1], want(&[12, 13, 14, 15, 19, 23, 27, 31]));
        assert_eq!(hands.iter().fold(Cards::EMPTY, |a, &h| a | h).len(), 32);
    }

    #[test]
    fn banker_draw_takes_the_highest_card() {
        let d = BankerDraw::from_cards(BySeat([card("W0"), card("T2"), card("M9"), card("S9")]));
        assert_eq!(d.banker, seat(1));
        let d = BankerDraw::from_cards(BySeat([card("M1"), card("S9"), card("M2"), card("W0")]));
        assert_eq!(d.banker, seat(2));
        let d = BankerDraw::from_seed(5, 0);
        assert_eq!(d, BankerDraw::from_seed(5, 0));
        assert!(Seat::ALL.iter().all(|&s| d.cards[s] <= d.cards[d.banker]));
    }
}
