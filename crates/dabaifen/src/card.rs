//! The 54 cards (§1), their codes, their points, and masks of them.
//!
//! Card numbering (chosen for bit tricks): card `13 × suit + rank` for the 52 suited cards, with
//! suits `S = 0, H = 1, D = 2, C = 3` and ranks `2 = 0, 3 = 1, …, T = 8, J = 9, Q = 10, K = 11,
//! A = 12`; the small joker is 52 and the big joker 53. So each printed suit is 13 consecutive bits
//! in rank order (a higher bit is a higher card), each rank is four bits 13 apart, and the jokers
//! are the two top bits of a 54-bit mask.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A set of Da Bai Fen cards (one `u64`).
pub type Cards = cards::CardSet<Card>;

/// One of the four printed suits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// ♠, code `S`.
    Spades = 0,
    /// ♥, code `H`.
    Hearts = 1,
    /// ♦, code `D`.
    Diamonds = 2,
    /// ♣, code `C`.
    Clubs = 3,
}

impl Suit {
    /// The four suits in card-number order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit with number `i` (0–3).
    pub const fn from_index(i: u8) -> Suit {
        match i & 3 {
            0 => Suit::Spades,
            1 => Suit::Hearts,
            2 => Suit::Diamonds,
            _ => Suit::Clubs,
        }
    }

    /// The suit's number, 0–3.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The code letter: `S`, `H`, `D` or `C`.
    pub const fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    /// The suit for a code letter.
    pub fn from_letter(c: char) -> Option<Suit> {
        Some(match c {
            'S' => Suit::Spades,
            'H' => Suit::Hearts,
            'D' => Suit::Diamonds,
            'C' => Suit::Clubs,
            _ => return None,
        })
    }

    /// The suit's English name in the plural ("spades").
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
            Suit::Clubs => "clubs",
        }
    }

    /// The 13 cards printed with this suit.
    pub const fn mask(self) -> Cards {
        Cards::from_bits(0x1FFF << (13 * self as u32))
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rank: of a card, and also a team's rank and a deal's trump rank (§3), 2 low … A high.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// The two (`2`): the lowest rank, and both teams' rank at the start (§3).
    Two = 0,
    /// The three (`3`).
    Three,
    /// The four (`4`).
    Four,
    /// The five (`5`); a five is worth 5 card points (§1).
    Five,
    /// The six (`6`).
    Six,
    /// The seven (`7`).
    Seven,
    /// The eight (`8`).
    Eight,
    /// The nine (`9`).
    Nine,
    /// The ten (`T`); a ten is worth 10 card points (§1).
    Ten,
    /// The jack (`J`).
    Jack,
    /// The queen (`Q`).
    Queen,
    /// The king (`K`); a king is worth 10 card points (§1).
    King,
    /// The ace (`A`): the highest rank; a team whose rank reaches it wins the game (§10, under the
    /// standard `game_end`).
    Ace,
}

impl Rank {
    /// The thirteen ranks from 2 up to A.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with number `i` (0 = 2 … 12 = A); numbers above 12 give A.
    pub const fn from_index(i: u8) -> Rank {
        if i >= 12 { Rank::Ace } else { Rank::ALL[i as usize] }
    }

    /// The rank's number, 0 (the 2) to 12 (the A).
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The code letter: `2`…`9`, `T`, `J`, `Q`, `K`, `A` (§12.1).
    pub const fn letter(self) -> char {
        b"23456789TJQKA"[self as usize] as char
    }

    /// The rank for a code letter.
    pub fn from_letter(c: char) -> Option<Rank> {
        "23456789TJQKA".find(c).map(|i| Rank::ALL[i])
    }

    /// The rank `levels` higher, stopping at A (§12.9).
    pub const fn plus(self, levels: u8) -> Rank {
        Rank::from_index((self as u8).saturating_add(levels))
    }

    /// The four cards of this rank.
    pub const fn mask(self) -> Cards {
        Cards::from_bits((1 | 1 << 13 | 1 << 26 | 1 << 39) << self as u32)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(self.letter())
    }
}

impl Serialize for Rank {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.letter().encode_utf8(&mut [0; 4]))
    }
}

impl<'de> Deserialize<'de> for Rank {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rank, D::Error> {
        let s = String::deserialize(d)?;
        parse_rank(&s).map_err(serde::de::Error::custom)
    }
}

/// A text that is not a rank (`2`…`9`, `T`, `J`, `Q`, `K`, `A`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rank {0:?}; ranks are written 2…9, T, J, Q, K, A")]
pub struct UnknownRank(pub String);

/// Reads a rank written `2`…`9`, `T`, `J`, `Q`, `K`, `A`.
pub fn parse_rank(s: &str) -> Result<Rank, UnknownRank> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Rank::from_letter(c),
        _ => None,
    }
    .ok_or_else(|| UnknownRank(s.to_string()))
}

/// One of the 54 cards; see the module documentation for its number.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The small joker `SJ` (小王).
    pub const SMALL_JOKER: Card = Card(52);
    /// The big joker `BJ` (大王).
    pub const BIG_JOKER: Card = Card(53);

    /// The card of `rank` in `suit`.
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 13 + rank as u8)
    }

    /// The card's number (0–53).
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The card with number `n`, if it is below 54.
    pub const fn from_number(n: u8) -> Option<Card> {
        if n < 54 { Some(Card(n)) } else { None }
    }

    /// True for the two jokers.
    pub const fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// The printed suit (none for a joker).
    pub const fn suit(self) -> Option<Suit> {
        if self.0 >= 52 { None } else { Some(Suit::from_index(self.0 / 13)) }
    }

    /// The printed rank (none for a joker).
    pub const fn rank(self) -> Option<Rank> {
        if self.0 >= 52 { None } else { Some(Rank::ALL[(self.0 % 13) as usize]) }
    }

    /// The card's points (§1): K and 10 score 10, a 5 scores 5, the rest nothing.
    pub const fn points(self) -> u32 {
        points(Cards::from_bits(1u64 << self.0))
    }

    /// Strength for the first-deal draw (§4): `BJ` > `SJ` > A > K > … > 2, suits ignored.
    pub const fn draw_strength(self) -> u8 {
        if self.0 >= 52 { self.0 - 52 + 13 } else { self.0 % 13 }
    }

    /// All 54 cards in number order (the canonical deck order that seeds shuffle).
    pub fn all() -> impl Iterator<Item = Card> {
        (0..54).map(Card)
    }
}

impl cards::Card for Card {
    const COUNT: u8 = 54;
    #[inline]
    fn index(self) -> u8 {
        self.0
    }
    #[inline]
    fn from_index(index: u8) -> Card {
        Card(index)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(f, "{}{}", r.letter(), s.letter()),
            _ if *self == Card::BIG_JOKER => f.write_str("BJ"),
            _ => f.write_str("SJ"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A text that is not one of the 54 card codes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown card code {0:?}")]
pub struct UnknownCard(pub String);

impl FromStr for Card {
    type Err = UnknownCard;
    fn from_str(s: &str) -> Result<Card, UnknownCard> {
        match s {
            "BJ" => return Ok(Card::BIG_JOKER),
            "SJ" => return Ok(Card::SMALL_JOKER),
            _ => {}
        }
        let mut it = s.chars();
        if let (Some(r), Some(su), None) = (it.next(), it.next(), it.next())
            && let (Some(r), Some(su)) = (Rank::from_letter(r), Suit::from_letter(su))
        {
            return Ok(Card::new(su, r));
        }
        Err(UnknownCard(s.to_string()))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Both jokers.
pub const JOKERS: Cards = Cards::from_bits(3 << 52);
/// The four 5s (5 points each).
pub const FIVES: Cards = Rank::Five.mask();
/// The four 10s and four Ks (10 points each).
pub const TENS_AND_KINGS: Cards = Cards::from_bits(Rank::Ten.mask().bits() | Rank::King.mask().bits());

/// The card points of a set of cards (§1).
#[inline]
pub const fn points(set: Cards) -> u32 {
    5 * (set.bits() & FIVES.bits()).count_ones() + 10 * (set.bits() & TENS_AND_KINGS.bits()).count_ones()
}

/// Writes cards as codes separated by spaces, strongest-looking order left to the caller.
pub fn codes(cards: impl IntoIterator<Item = Card>) -> String {
    let mut s = String::new();
    for (i, c) in cards.into_iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&c.to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_for_all_54_cards() {
        let mut seen = std::collections::HashSet::new();
        for c in Card::all() {
            let code = c.to_string();
            assert_eq!(code.parse::<Card>().unwrap(), c);
            assert!(seen.insert(code));
        }
        assert_eq!("TH".parse::<Card>().unwrap(), Card::new(Suit::Hearts, Rank::Ten));
        assert_eq!("2C".parse::<Card>().unwrap().number(), 39);
        assert_eq!("AS".parse::<Card>().unwrap().number(), 12);
        for bad in ["", "1S", "AX", "10H", "as", "BJ ", "J"] {
            assert_eq!(bad.parse::<Card>(), Err(UnknownCard(bad.to_string())), "{bad}");
        }
    }

    #[test]
    fn one_hundred_points_in_the_deck() {
        assert_eq!(points(Cards::full()), 100);
        assert_eq!(Card::all().map(Card::points).sum::<u32>(), 100);
        assert_eq!("KS".parse::<Card>().unwrap().points(), 10);
        assert_eq!("TD".parse::<Card>().unwrap().points(), 10);
        assert_eq!("5C".parse::<Card>().unwrap().points(), 5);
        assert_eq!("QH".parse::<Card>().unwrap().points(), 0);
        assert_eq!(Card::BIG_JOKER.points(), 0);
    }

    #[test]
    fn masks_hold_the_right_cards() {
        for s in Suit::ALL {
            assert_eq!(s.mask().len(), 13);
            assert!(s.mask().iter().all(|c| c.suit() == Some(s)));
        }
        for r in Rank::ALL {
            assert_eq!(r.mask().len(), 4);
            assert!(r.mask().iter().all(|c| c.rank() == Some(r)));
        }
        assert_eq!(JOKERS.len(), 2);
        assert!(JOKERS.contains(Card::BIG_JOKER) && JOKERS.contains(Card::SMALL_JOKER));
    }

    #[test]
    fn ranks_read_write_and_stop_at_ace() {
        assert_eq!(Rank::Nine.plus(3), Rank::Queen);
        assert_eq!(Rank::King.plus(2), Rank::Ace);
        assert_eq!(Rank::Ace.plus(1), Rank::Ace);
        assert_eq!(parse_rank("T"), Ok(Rank::Ten));
        assert!(parse_rank("10").unwrap_err().to_string().contains("unknown rank \"10\""));
        assert_eq!(serde_json::to_string(&Rank::Jack).unwrap(), "\"J\"");
    }
}
