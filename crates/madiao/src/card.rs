//! §1 The 40 cards, their suits and orders, red cards, and the masks the engine computes with.
//!
//! # Numbering
//! Cards are numbered 0–39 so that a higher number always means a higher card *within a suit*, and
//! the suits sit in contiguous blocks ordered cash < strings < myriads < tens:
//!
//! | numbers | suit | cards, lowest first |
//! |---|---|---|
//! | 0–10 | cash `W` | `W9 W8 … W1 WH W0` (cash is reversed: 9 cash is lowest) |
//! | 11–19 | strings `S` | `S1 … S9` |
//! | 20–28 | myriads `M` | `M1 … M9` |
//! | 29–39 | tens `T` | `T2 … T9 TB TQ TW` |
//!
//! So "the cards of the led suit above the best card so far" is one mask operation
//! ([`Card::higher_in_suit`]), and the numeric order of cards is exactly the order of the first-banker draw
//! (§2: `T` > `M` > `S` > `W`, then rank).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the four suits (§1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// Cash 文 (`W`): 11 cards, `W0` highest, then `WH`, `W1` … `W9` lowest.
    Cash = 0,
    /// Strings 索 (`S`): `S9` highest … `S1` lowest.
    Strings = 1,
    /// Myriads 萬 (`M`): `M9` highest … `M1` lowest.
    Myriads = 2,
    /// Tens of myriads 十 (`T`): `TW`, `TQ`, `TB`, then `T9` … `T2` lowest.
    Tens = 3,
}

impl Suit {
    /// The four suits, lowest block first.
    pub const ALL: [Suit; 4] = [Suit::Cash, Suit::Strings, Suit::Myriads, Suit::Tens];

    /// The suit's letter in card codes.
    pub const fn letter(self) -> char {
        match self {
            Suit::Cash => 'W',
            Suit::Strings => 'S',
            Suit::Myriads => 'M',
            Suit::Tens => 'T',
        }
    }

    /// The suit's English name, as used in messages ("the best myriads card").
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Cash => "cash",
            Suit::Strings => "strings",
            Suit::Myriads => "myriads",
            Suit::Tens => "tens",
        }
    }

    /// All cards of the suit.
    #[inline]
    pub const fn mask(self) -> Cards {
        SUIT_MASK[self as usize]
    }

    /// The suit's top card (尊): `W0`, `S9`, `M9`, `TW`.
    #[inline]
    pub const fn top(self) -> Card {
        Card(SUIT_BASE[self as usize] + SUIT_LEN[self as usize] - 1)
    }

    /// The suit's second-highest card: `WH`, `S8`, `M8`, `TQ`.
    #[inline]
    pub const fn second(self) -> Card {
        Card(SUIT_BASE[self as usize] + SUIT_LEN[self as usize] - 2)
    }

    /// The suit's lowest card (極): `W9`, `S1`, `M1`, `T2`.
    #[inline]
    pub const fn lowest(self) -> Card {
        Card(SUIT_BASE[self as usize])
    }

    #[inline]
    pub(crate) const fn from_u8(n: u8) -> Suit {
        match n & 3 {
            0 => Suit::Cash,
            1 => Suit::Strings,
            2 => Suit::Myriads,
            _ => Suit::Tens,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// First card number of each suit's block.
pub(crate) const SUIT_BASE: [u8; 4] = [0, 11, 20, 29];
/// Number of cards of each suit.
pub(crate) const SUIT_LEN: [u8; 4] = [11, 9, 9, 11];
/// All cards of each suit as bits, for the engine's own mask arithmetic.
pub(crate) const SUIT_BITS: [u64; 4] =
    [(1 << 11) - 1, ((1 << 9) - 1) << 11, ((1 << 9) - 1) << 20, ((1 << 11) - 1) << 29];
/// All cards of each suit, by suit number (cash, strings, myriads, tens).
pub const SUIT_MASK: [Cards; 4] = [
    Cards::from_bits(SUIT_BITS[0]),
    Cards::from_bits(SUIT_BITS[1]),
    Cards::from_bits(SUIT_BITS[2]),
    Cards::from_bits(SUIT_BITS[3]),
];
/// All 40 cards.
pub const ALL_CARDS: Cards = Cards::from_bits((1 << 40) - 1);

/// The suit of each card number.
pub(crate) const SUIT_OF: [u8; 40] = {
    let mut t = [0u8; 40];
    let mut i = 0;
    while i < 40 {
        t[i] = if i < 11 {
            0
        } else if i < 20 {
            1
        } else if i < 29 {
            2
        } else {
            3
        };
        i += 1;
    }
    t
};

const CODES: [&str; 40] = [
    "W9", "W8", "W7", "W6", "W5", "W4", "W3", "W2", "W1", "WH", "W0", //
    "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", //
    "M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "M9", //
    "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "TB", "TQ", "TW",
];

const NAMES: [&str; 40] = [
    "9 cash",
    "8 cash",
    "7 cash",
    "6 cash",
    "5 cash",
    "4 cash",
    "3 cash",
    "2 cash",
    "1 cash",
    "Half cash",
    "Zero cash",
    "1 string",
    "2 strings",
    "3 strings",
    "4 strings",
    "5 strings",
    "6 strings",
    "7 strings",
    "8 strings",
    "9 strings",
    "1 myriad",
    "2 myriads",
    "3 myriads",
    "4 myriads",
    "5 myriads",
    "6 myriads",
    "7 myriads",
    "8 myriads",
    "9 myriads",
    "2 tens",
    "3 tens",
    "4 tens",
    "5 tens",
    "6 tens",
    "7 tens",
    "8 tens",
    "9 tens",
    "Hundred Myriad",
    "Thousand Myriad",
    "Myriad Myriad",
];

/// One of the 40 cards. Ordered by number: within a suit by rank, and across suits
/// `T` > `M` > `S` > `W` (the first-banker draw's order, §2).
///
/// Written in records and messages by its code (`TW`, `M9`, `W0`, `WH`, …); serde uses the code.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// Myriad Myriad 萬萬, top of tens.
    pub const TW: Card = Card(39);
    /// Thousand Myriad 千萬.
    pub const TQ: Card = Card(38);
    /// Hundred Myriad 百萬, "the HM".
    pub const TB: Card = Card(37);
    /// 2 tens (of myriads, 二十萬), lowest of tens.
    pub const T2: Card = Card(29);
    /// 9 myriads, top of myriads.
    pub const M9: Card = Card(28);
    /// 8 myriads.
    pub const M8: Card = Card(27);
    /// 1 myriad, lowest of myriads.
    pub const M1: Card = Card(20);
    /// 9 strings, top of strings.
    pub const S9: Card = Card(19);
    /// 8 strings.
    pub const S8: Card = Card(18);
    /// 1 string, lowest of strings.
    pub const S1: Card = Card(11);
    /// Zero cash 空沒文, top of cash.
    pub const W0: Card = Card(10);
    /// Half cash 半文.
    pub const WH: Card = Card(9);
    /// 9 cash, lowest of cash.
    pub const W9: Card = Card(0);

    /// The card with number `n` (0–39).
    #[inline]
    pub const fn new(n: u8) -> Option<Card> {
        if n < 40 { Some(Card(n)) } else { None }
    }

    /// The card with number `n`, which must be below 40 (the engine only calls this with numbers
    /// taken from a 40-bit mask).
    #[inline]
    pub(crate) const fn from_u8(n: u8) -> Card {
        debug_assert!(n < 40);
        Card(n)
    }

    /// The card's number (see the module documentation).
    #[inline]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The card's bit in the engine's masks (a [`Cards`] set of this card alone has these bits).
    #[inline]
    pub(crate) const fn bit(self) -> u64 {
        1 << self.0
    }

    /// The card's suit.
    #[inline]
    pub const fn suit(self) -> Suit {
        Suit::from_u8(SUIT_OF[self.0 as usize])
    }

    /// The cards of the same suit that are higher than this one.
    #[inline]
    pub const fn higher_in_suit(self) -> Cards {
        Cards::from_bits(SUIT_BITS[SUIT_OF[self.0 as usize] as usize] & !((2u64 << self.0) - 1))
    }

    /// The record code: `TW`, `TQ`, `TB`, `T9`…`T2`, `M9`…`M1`, `S9`…`S1`, `W0`, `WH`, `W1`…`W9`.
    #[inline]
    pub const fn code(self) -> &'static str {
        CODES[self.0 as usize]
    }

    /// The card's English name ("Hundred Myriad", "9 strings", "Half cash").
    pub const fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// True for the ten red cards `TW TQ TB T2 M9 M1 S9 S1 W0 W9` (§1).
    #[inline]
    pub const fn is_red(self) -> bool {
        RED.bits() & self.bit() != 0
    }

    /// Every card, lowest number first.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..40).map(Card)
    }
}

/// The ten red cards (§1).
pub const RED: Cards = Cards::from_bits(
    Card::TW.bit()
        | Card::TQ.bit()
        | Card::TB.bit()
        | Card::T2.bit()
        | Card::M9.bit()
        | Card::M1.bit()
        | Card::S9.bit()
        | Card::S1.bit()
        | Card::W0.bit()
        | Card::W9.bit(),
);
/// The four top cards `TW M9 S9 W0`.
pub const TOPS: Cards = Cards::from_bits(Card::TW.bit() | Card::M9.bit() | Card::S9.bit() | Card::W0.bit());
/// The four lowest cards `T2 M1 S1 W9`.
pub const LOWEST: Cards = Cards::from_bits(Card::T2.bit() | Card::M1.bit() | Card::S1.bit() | Card::W9.bit());

/// §6 The reward cards (賞) of a hand with this upcard: each suit's top card; when the upcard is
/// a top card, its suit's second card instead.
pub fn reward_cards(upcard: Card) -> Cards {
    if TOPS.contains(upcard) {
        Cards::from_bits((TOPS.bits() & !upcard.bit()) | upcard.suit().second().bit())
    } else {
        TOPS
    }
}

impl cards::Card for Card {
    const COUNT: u8 = 40;
    #[inline]
    fn index(self) -> u8 {
        self.0
    }
    #[inline]
    fn from_index(index: u8) -> Card {
        Card(index)
    }
}

/// A set of Madiao cards (one `u64`: bit `n` is the card numbered `n`).
pub type Cards = cards::CardSet<Card>;

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A text that is not a Madiao card code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown card code {0:?}")]
pub struct UnknownCard(pub String);

impl FromStr for Card {
    type Err = UnknownCard;
    fn from_str(s: &str) -> Result<Card, UnknownCard> {
        CODES.iter().position(|c| *c == s).map(|i| Card(i as u8)).ok_or_else(|| UnknownCard(s.to_string()))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Writes the cards of a set as codes, highest first, separated by spaces.
pub fn mask_codes(set: Cards) -> String {
    set.iter().rev().map(|c| c.code()).collect::<Vec<_>>().join(" ")
}

/// The canonical pack order: every card by number, `W9` first and `TW` last. Decks from a seed are
/// shuffles of this order.
pub fn canonical_deck() -> [Card; 40] {
    std::array::from_fn(|i| Card(i as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reward_cards_are_the_tops_with_the_upcards_suit_promoted() {
        // §6: a low upcard leaves the four tops; a top upcard gives way to its suit's second card.
        assert_eq!(reward_cards(Card::W9), TOPS);
        for top in TOPS.iter() {
            let r = reward_cards(top);
            assert_eq!(r.len(), 4);
            assert!(!r.contains(top) && r.contains(top.suit().second()));
            assert!(TOPS.iter().filter(|&t| t != top).all(|t| r.contains(t)));
        }
    }

    #[test]
    fn codes_round_trip_and_suits_are_contiguous() {
        for c in Card::all() {
            assert_eq!(c.code().parse::<Card>().unwrap(), c);
            assert_eq!(c.code().chars().next().unwrap(), c.suit().letter());
            assert!(c.suit().mask().contains(c));
            assert_eq!(Cards::single(c).bits(), c.bit());
        }
        assert_eq!(SUIT_MASK.iter().fold(Cards::EMPTY, |a, &m| a | m), ALL_CARDS);
        assert_eq!(ALL_CARDS, Cards::full());
        assert_eq!(SUIT_MASK.iter().map(|m| m.len()).sum::<u32>(), 40);
        for s in Suit::ALL {
            assert_eq!(s.mask().bits(), SUIT_BITS[s as usize]);
            assert!(s.mask().iter().all(|c| c.suit() == s));
        }
        assert!("X9".parse::<Card>().is_err());
        assert!("t2".parse::<Card>().is_err());
    }

    #[test]
    fn orders_within_suits_follow_the_rules_file() {
        // §1 high → low, cash reversed.
        let order = |codes: &[&str]| {
            let cs: Vec<Card> = codes.iter().map(|c| c.parse().unwrap()).collect();
            cs.windows(2).all(|w| w[0] > w[1] && w[0].suit() == w[1].suit())
        };
        assert!(order(&["TW", "TQ", "TB", "T9", "T8", "T7", "T6", "T5", "T4", "T3", "T2"]));
        assert!(order(&["M9", "M8", "M7", "M6", "M5", "M4", "M3", "M2", "M1"]));
        assert!(order(&["S9", "S8", "S7", "S6", "S5", "S4", "S3", "S2", "S1"]));
        assert!(order(&["W0", "WH", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9"]));
        assert_eq!(Suit::Tens.top(), Card::TW);
        assert_eq!(Suit::Cash.second(), Card::WH);
        assert_eq!(Suit::Cash.lowest(), Card::W9);
        assert_eq!(Suit::Strings.second(), Card::S8);
        // Across suits the draw order T > M > S > W.
        assert!(Card::T2 > Card::M9 && Card::M1 > Card::S9 && Card::S1 > Card::W0);
    }

    #[test]
    fn red_cards_tops_and_lowest() {
        let reds: Vec<&str> = Card::all().filter(|c| c.is_red()).map(|c| c.code()).collect();
        assert_eq!(reds, ["W9", "W0", "S1", "S9", "M1", "M9", "T2", "TB", "TQ", "TW"]);
        assert!(Card::all().all(|c| c.is_red() == RED.contains(c)));
        assert_eq!(mask_codes(TOPS), "TW M9 S9 W0");
        assert_eq!(mask_codes(LOWEST), "T2 M1 S1 W9");
    }

    #[test]
    fn higher_in_suit_is_a_mask() {
        assert_eq!(mask_codes(Card::M5.higher_in_suit()), "M9 M8 M7 M6");
        assert_eq!(mask_codes(Card::WH.higher_in_suit()), "W0");
        assert_eq!(Card::TW.higher_in_suit(), Cards::EMPTY);
        assert_eq!(Card::W9.higher_in_suit().len(), 10);
    }

    impl Card {
        const M5: Card = Card(24);
    }
}
