//! Trumps and the order of the cards (§2): for each of the 52 possible (trump suit, trump rank)
//! pairs a precomputed table maps every card to its effective suit and strength, with per-suit
//! masks and, for the top-card rule of §8, the mask of cards of the same effective suit that are
//! strictly stronger.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Cards, JOKERS, Rank, Suit};

/// The trump suit and trump rank of a deal (§2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Trump {
    /// The trump suit.
    #[cfg_attr(feature = "ts", ts(type = "\"S\" | \"H\" | \"D\" | \"C\""))]
    #[serde(with = "suit_letter")]
    pub suit: Suit,
    /// The trump rank.
    pub rank: Rank,
}

mod suit_letter {
    use super::Suit;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(s: &Suit, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(s.letter().encode_utf8(&mut [0; 4]))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Suit, D::Error> {
        let s = String::deserialize(d)?;
        let mut it = s.chars();
        match (it.next(), it.next()) {
            (Some(c), None) => Suit::from_letter(c),
            _ => None,
        }
        .ok_or_else(|| serde::de::Error::custom(format!("unknown suit {s:?}; suits are S, H, D, C")))
    }
}

impl fmt::Display for Trump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} and {}s", self.suit, self.rank)
    }
}

/// An effective suit (§2): one of the four plain suits, or the trump suit that holds every trump.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EffSuit(pub(crate) u8);

impl EffSuit {
    /// The trump suit (every trump, whatever is printed on it).
    pub const TRUMPS: EffSuit = EffSuit(4);

    /// A plain suit.
    pub const fn plain(s: Suit) -> EffSuit {
        EffSuit(s as u8)
    }

    /// The plain suit, or `None` for trumps.
    pub fn as_plain(self) -> Option<Suit> {
        if self.0 < 4 { Some(Suit::from_index(self.0)) } else { None }
    }

    /// The index 0–4 (4 = trumps).
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for EffSuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_plain() {
            Some(s) => f.write_str(s.name()),
            None => f.write_str("trumps"),
        }
    }
}

/// Strength levels: plain cards 0–12 by rank; trump-suit cards 13–25 by rank; the three off-suit
/// trump-rank cards share 26 (§2.4: equal); the trump-rank card of the trump suit 27; `SJ` 28;
/// `BJ` 29. A trump is therefore always stronger than a plain card.
pub const STRENGTH_OFF_SUIT_RANK: u8 = 26;

/// The card order of one (trump suit, trump rank) pair.
#[derive(Debug)]
pub struct Tables {
    /// The trumps.
    pub trump: Trump,
    /// Effective suit index (0–3 plain, 4 trumps) of each card.
    pub eff: [u8; 54],
    /// Strength of each card (see [`STRENGTH_OFF_SUIT_RANK`]); comparable within an effective suit.
    pub strength: [u8; 54],
    /// The cards of each effective suit.
    pub suit_mask: [u64; 5],
    /// For each card, the cards of its effective suit that are strictly stronger.
    pub stronger: [u64; 54],
    /// For each card, the cards of its effective suit that are at least as strong (itself and,
    /// for an off-suit trump-rank card, the other two).
    pub not_weaker: [u64; 54],
    /// The trump-rank card of the trump suit.
    pub ts_rank: u64,
    /// The three off-suit trump-rank cards (equal).
    pub off_rank: u64,
}

const fn build(ts: u8, tr: u8) -> Tables {
    let rank_mask: u64 = (1 | 1 << 13 | 1 << 26 | 1 << 39) << tr;
    let ts_mask: u64 = 0x1FFF << (13 * ts as u32);
    let ts_rank: u64 = 1 << (13 * ts + tr);
    let jokers = JOKERS.bits();
    let mut eff = [0u8; 54];
    let mut strength = [0u8; 54];
    let mut suit_mask = [0u64; 5];
    let mut stronger = [0u64; 54];
    let mut c = 0u8;
    while c < 54 {
        let above: u64 = if c == 63 { 0 } else { !((2u64 << c) - 1) };
        let (e, st, sm) = if c >= 52 {
            (4, 28 + (c - 52), if c == 52 { 1u64 << 53 } else { 0 })
        } else {
            let s = c / 13;
            let r = c % 13;
            if r == tr {
                if s == ts { (4, 27, jokers) } else { (4, STRENGTH_OFF_SUIT_RANK, jokers | ts_rank) }
            } else if s == ts {
                (4, 13 + r, jokers | rank_mask | (ts_mask & above & !rank_mask))
            } else {
                let plain: u64 = 0x1FFF << (13 * s as u32);
                (s, r, plain & above & !rank_mask)
            }
        };
        eff[c as usize] = e;
        strength[c as usize] = st;
        suit_mask[e as usize] |= 1 << c;
        stronger[c as usize] = sm;
        c += 1;
    }
    let off_rank = rank_mask & !ts_rank;
    let mut not_weaker = [0u64; 54];
    let mut c = 0usize;
    while c < 54 {
        let equal = if off_rank >> c & 1 != 0 { off_rank } else { 1 << c };
        not_weaker[c] = stronger[c] | equal;
        c += 1;
    }
    Tables {
        trump: Trump { suit: Suit::from_index(ts), rank: Rank::from_index(tr) },
        eff,
        strength,
        suit_mask,
        stronger,
        not_weaker,
        ts_rank,
        off_rank,
    }
}

const fn build_all() -> [Tables; 52] {
    let mut out = [const { build(0, 0) }; 52];
    let mut i = 0;
    while i < 52 {
        out[i] = build((i / 13) as u8, (i % 13) as u8);
        i += 1;
    }
    out
}

static TABLES: [Tables; 52] = build_all();

impl Tables {
    /// The tables for a trump suit and rank.
    #[inline]
    pub fn of(trump: Trump) -> &'static Tables {
        &TABLES[trump.suit as usize * 13 + trump.rank as usize]
    }

    /// The 18 trumps.
    #[inline]
    pub fn trumps(&self) -> Cards {
        Cards::from_bits(self.suit_mask[4])
    }

    /// The effective suit of a card.
    #[inline]
    pub fn suit_of(&self, c: Card) -> EffSuit {
        EffSuit(self.eff[c.number() as usize])
    }

    /// The cards of an effective suit.
    #[inline]
    pub fn cards_of(&self, s: EffSuit) -> Cards {
        Cards::from_bits(self.suit_mask[s.index()])
    }

    /// The weight of a card in a play's key (§8 "one rule"): `4^strength`. Summed over a play of
    /// one effective suit (at most three cards share a strength), the sums compare like the
    /// strengths sorted strongest first, compared lexicographically.
    #[inline]
    pub fn weight(&self, c: u8) -> u64 {
        1u64 << (2 * self.strength[c as usize])
    }

    /// The key of a play for the trick winner (§8): the sum of its cards' weights; all-trump
    /// plays are automatically above all-plain ones.
    #[inline]
    pub fn key(&self, play: u64) -> u64 {
        let mut k = 0;
        let mut b = play;
        while b != 0 {
            k += self.weight(b.trailing_zeros() as u8);
            b &= b - 1;
        }
        k
    }

    /// A strongest card among `set` (cards of effective suit `suit`, not empty): in a plain
    /// suit the highest card number; among trumps the jokers, then the trump-rank card of the
    /// trump suit, then an off-suit trump-rank card, then the highest trump-suit card.
    #[inline]
    pub fn strongest(&self, set: u64, suit: usize) -> u32 {
        if suit == 4 && set >> 52 == 0 {
            if set & self.ts_rank != 0 {
                return self.ts_rank.trailing_zeros();
            }
            if set & self.off_rank != 0 {
                return (set & self.off_rank).trailing_zeros();
            }
        }
        63 - set.leading_zeros()
    }

    /// The top cards (§8) among `mine` (cards of effective suit `suit`) when the other players
    /// hold `others`: those with no strictly stronger card of the suit in `others`.
    #[inline]
    pub fn tops(&self, mine: u64, others: u64, suit: usize) -> u64 {
        let o = others & self.suit_mask[suit];
        if o == 0 { mine } else { mine & self.not_weaker[self.strongest(o, suit) as usize] }
    }

    /// `a` is strictly stronger than `b` (both of one effective suit).
    #[inline]
    pub fn beats(&self, a: Card, b: Card) -> bool {
        self.stronger[b.number() as usize] >> a.number() & 1 != 0
    }

    /// Cards sorted strongest first (by effective suit: trumps first, then S, H, D, C).
    pub fn sorted(&self, set: Cards) -> Vec<Card> {
        let mut v: Vec<Card> = set.iter().collect();
        v.sort_by_key(|c| {
            let e = self.eff[c.number() as usize];
            (
                if e == 4 { 0 } else { e + 1 },
                std::cmp::Reverse(self.strength[c.number() as usize]),
                c.number(),
            )
        });
        v
    }
}

/// Cards sorted for showing a hand before trumps are fixed: by printed suit, high first, jokers first.
pub fn sorted_plain(set: Cards) -> Vec<Card> {
    let mut v: Vec<Card> = set.iter().collect();
    v.sort_by_key(|c| match (c.suit(), c.rank()) {
        (Some(s), Some(r)) => (s as u8 + 1, 12 - r as u8),
        _ => (0, 53 - c.number()),
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn the_example_of_section_2_hearts_and_8() {
        let t = Tables::of(Trump { suit: Suit::Hearts, rank: Rank::Eight });
        assert_eq!(t.trumps().len(), 18);
        let order = ["BJ", "SJ", "8H", "8S", "AH", "KH", "QH", "JH", "TH", "9H", "7H", "6H", "2H"];
        for w in order.windows(2) {
            assert!(t.beats(c(w[0]), c(w[1])), "{} > {}", w[0], w[1]);
            assert!(!t.beats(c(w[1]), c(w[0])));
        }
        // The three off-suit 8s are equal.
        for (a, b) in [("8S", "8C"), ("8C", "8D"), ("8D", "8S")] {
            assert!(!t.beats(c(a), c(b)) && !t.beats(c(b), c(a)));
            assert_eq!(t.strength[c(a).number() as usize], STRENGTH_OFF_SUIT_RANK);
        }
        // A trump-rank card no longer belongs to its printed suit.
        assert_eq!(t.suit_of(c("8S")), EffSuit::TRUMPS);
        assert_eq!(t.cards_of(EffSuit::plain(Suit::Spades)).len(), 12);
        assert!(!t.cards_of(EffSuit::plain(Suit::Spades)).contains(c("8S")));
        // Plain suits: A K … 2 without the 8.
        assert!(t.beats(c("AS"), c("KS")) && t.beats(c("9S"), c("7S")));
        assert_eq!(t.stronger[c("AS").number() as usize], 0);
        assert_eq!(t.stronger[c("BJ").number() as usize], 0);
        // The lowest trump is beaten by the 17 others.
        assert_eq!(t.stronger[c("2H").number() as usize].count_ones(), 17);
        // Any trump beats any plain card in a key comparison.
        assert!(t.key(1 << c("2H").number()) > t.key(1 << c("AS").number()));
    }

    #[test]
    fn keys_compare_strongest_first_then_next() {
        let t = Tables::of(Trump { suit: Suit::Spades, rank: Rank::Two });
        let set = |codes: &[&str]| codes.iter().fold(0u64, |m, s| m | 1 << c(s).number());
        // BJ + 3S beats SJ + AS (strongest first), 2S + 3S beats 2H + AS.
        assert!(t.key(set(&["BJ", "3S"])) > t.key(set(&["SJ", "AS"])));
        assert!(t.key(set(&["2S", "3S"])) > t.key(set(&["2H", "AS"])));
        // Equal trump-rank cards tie.
        assert_eq!(t.key(set(&["2H", "2D"])), t.key(set(&["2C", "2D"])));
        assert!(t.key(set(&["2H", "2D", "2C"])) > t.key(set(&["2H", "2D", "AS"])));
    }

    #[test]
    fn every_table_has_18_trumps_and_disjoint_suits() {
        for s in Suit::ALL {
            for r in Rank::ALL {
                let t = Tables::of(Trump { suit: s, rank: r });
                assert_eq!(t.trump, Trump { suit: s, rank: r });
                assert_eq!(t.trumps().len(), 18);
                let mut all = 0u64;
                for m in t.suit_mask {
                    assert_eq!(all & m, 0);
                    all |= m;
                }
                assert_eq!(all, Cards::full().bits());
                for x in Card::all() {
                    for y in Card::all() {
                        let same = t.eff[x.number() as usize] == t.eff[y.number() as usize];
                        let stronger = t.strength[y.number() as usize] > t.strength[x.number() as usize];
                        assert_eq!(t.beats(y, x), same && stronger, "{x} {y}");
                    }
                }
            }
        }
    }
}
