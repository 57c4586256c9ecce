//! §4 Declarations before the first lead: the seven melds, the four lowest, the long suit.

use std::fmt;

use serde::Serialize;

use crate::card::{Card, Cards, LOWEST, RED, Suit, TOPS};
use crate::variants::{MeldStacking, Variants};

/// One line of the meld table (§4.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MeldKind {
    /// `TW M9 S9 W0`: 4 stakes.
    FourTops,
    /// `TW TB M9 S9 W0`: 5 stakes.
    FourTopsWithHm,
    /// All 8 cards of one suit: 4 stakes.
    Flush(Suit),
    /// All 8 cards tens, including `TB`: 5 stakes.
    FlushOfTensWithHm,
    /// 8 of the 10 red cards: 6 stakes.
    EightReds,
    /// 8 of the 10 red cards, including `TB`: 7 stakes.
    EightRedsWithHm,
    /// `TW T2 M9 M1 S9 S1 W0 W9`: 8 stakes.
    TopsAndLowest,
}

/// The four families of melds (§9.3): a family's "including `TB`" line replaces its base line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MeldFamily {
    /// Four tops (with or without the HM).
    FourTops = 0,
    /// Flush (tens with the HM, or plain).
    Flush = 1,
    /// Eight reds (with or without the HM).
    EightReds = 2,
    /// Four tops and four lowest.
    TopsAndLowest = 3,
}

impl MeldKind {
    /// The stakes each payer pays (§4.1 table).
    pub const fn stakes(self) -> u8 {
        match self {
            MeldKind::FourTops | MeldKind::Flush(_) => 4,
            MeldKind::FourTopsWithHm | MeldKind::FlushOfTensWithHm => 5,
            MeldKind::EightReds => 6,
            MeldKind::EightRedsWithHm => 7,
            MeldKind::TopsAndLowest => 8,
        }
    }

    /// The meld's family.
    pub const fn family(self) -> MeldFamily {
        match self {
            MeldKind::FourTops | MeldKind::FourTopsWithHm => MeldFamily::FourTops,
            MeldKind::Flush(_) | MeldKind::FlushOfTensWithHm => MeldFamily::Flush,
            MeldKind::EightReds | MeldKind::EightRedsWithHm => MeldFamily::EightReds,
            MeldKind::TopsAndLowest => MeldFamily::TopsAndLowest,
        }
    }

    /// The cards that make the meld within `hand` (the whole hand for a flush or eight reds).
    pub fn cards(self, hand: Cards) -> Cards {
        match self {
            MeldKind::FourTops => TOPS,
            MeldKind::FourTopsWithHm => TOPS | Cards::single(Card::TB),
            MeldKind::TopsAndLowest => TOPS | LOWEST,
            MeldKind::Flush(_)
            | MeldKind::FlushOfTensWithHm
            | MeldKind::EightReds
            | MeldKind::EightRedsWithHm => hand,
        }
    }
}

impl MeldKind {
    /// A short machine name: `four_tops`, `four_tops_with_hm`, `flush_of_strings`,
    /// `flush_of_tens_with_hm`, `eight_reds`, `eight_reds_with_hm`, `tops_and_lowest`.
    pub const fn name(self) -> &'static str {
        match self {
            MeldKind::FourTops => "four_tops",
            MeldKind::FourTopsWithHm => "four_tops_with_hm",
            MeldKind::Flush(Suit::Cash) => "flush_of_cash",
            MeldKind::Flush(Suit::Strings) => "flush_of_strings",
            MeldKind::Flush(Suit::Myriads) => "flush_of_myriads",
            MeldKind::Flush(Suit::Tens) => "flush_of_tens",
            MeldKind::FlushOfTensWithHm => "flush_of_tens_with_hm",
            MeldKind::EightReds => "eight_reds",
            MeldKind::EightRedsWithHm => "eight_reds_with_hm",
            MeldKind::TopsAndLowest => "tops_and_lowest",
        }
    }
}

/// Written as its [`MeldKind::name`].
impl Serialize for MeldKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl fmt::Display for MeldKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeldKind::FourTops => f.write_str("four tops (TW M9 S9 W0)"),
            MeldKind::FourTopsWithHm => f.write_str("four tops with the HM (TW TB M9 S9 W0)"),
            MeldKind::Flush(s) => write!(f, "flush of {s}"),
            MeldKind::FlushOfTensWithHm => f.write_str("flush of tens with the HM"),
            MeldKind::EightReds => f.write_str("eight red cards"),
            MeldKind::EightRedsWithHm => f.write_str("eight red cards with the HM"),
            MeldKind::TopsAndLowest => f.write_str("four tops and four lowest (TW T2 M9 M1 S9 S1 W0 W9)"),
        }
    }
}

/// The melds an 8-card hand holds, one slot per family (§4.1, §9.3).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Melds(pub [Option<MeldKind>; 4]);

impl Melds {
    /// §4.1 The melds of `hand`.
    #[inline]
    pub fn of(hand: Cards) -> Melds {
        let hm = hand.contains(Card::TB);
        let mut m = [None; 4];
        if TOPS.is_subset(hand) {
            m[0] = Some(if hm { MeldKind::FourTopsWithHm } else { MeldKind::FourTops });
        }
        for s in Suit::ALL {
            if (hand & s.mask()).len() >= 8 {
                m[1] = Some(if s == Suit::Tens && hm {
                    MeldKind::FlushOfTensWithHm
                } else {
                    MeldKind::Flush(s)
                });
            }
        }
        if (hand & RED).len() >= 8 {
            m[2] = Some(if hm { MeldKind::EightRedsWithHm } else { MeldKind::EightReds });
        }
        if (TOPS | LOWEST).is_subset(hand) {
            m[3] = Some(MeldKind::TopsAndLowest);
        }
        Melds(m)
    }

    /// True when the hand holds any meld.
    #[inline]
    pub fn any(&self) -> bool {
        self.0.iter().any(Option::is_some)
    }

    /// The melds that count under `meld_stacking`: only the highest (`highest`), or one per family
    /// (`cumulative`, §9.3). Highest first.
    pub fn counted(&self, variants: &Variants) -> impl Iterator<Item = MeldKind> + use<> {
        let mut list = self.0;
        // Highest first, empty slots last (an unstable sort of four never allocates).
        list.sort_unstable_by_key(|m| std::cmp::Reverse(m.map_or(0, MeldKind::stakes)));
        let n = if variants.meld_stacking == MeldStacking::Highest { 1 } else { 4 };
        list.into_iter().take(n).flatten()
    }

    /// The stakes each payer pays for the counted melds, without the `meld_extra_stake` stake.
    pub fn stakes(&self, variants: &Variants) -> u32 {
        self.counted(variants).map(|m| u32::from(m.stakes())).sum()
    }
}

/// §4.2 True when `hand` holds the four lowest `T2 M1 S1 W9`.
#[inline]
pub fn has_four_lowest(hand: Cards) -> bool {
    LOWEST.is_subset(hand)
}

/// §4.3 True when `hand` has 5 or more cards of one suit.
#[inline]
pub fn has_long_suit(hand: Cards) -> bool {
    Suit::ALL.iter().any(|s| (hand & s.mask()).len() >= 5)
}

/// §4.3 The suits in which `hand` has 5 or more cards.
pub fn long_suits(hand: Cards) -> impl Iterator<Item = Suit> {
    Suit::ALL.into_iter().filter(move |s| (hand & s.mask()).len() >= 5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::ALL_CARDS;

    fn hand(codes: &str) -> Cards {
        let h: Cards = codes.split_whitespace().map(|c| c.parse::<Card>().unwrap()).collect();
        assert_eq!(h.len(), 8, "{codes}");
        h
    }

    fn only(codes: &str) -> Vec<MeldKind> {
        Melds::of(hand(codes)).0.iter().flatten().copied().collect()
    }

    #[test]
    fn each_meld_line_is_recognized_with_its_stakes() {
        // One hand per line of the §4.1 table.
        let cases = [
            ("TW M9 S9 W0 M2 S3 W5 T4", MeldKind::FourTops, 4),
            ("TW TB M9 S9 W0 S3 W5 T4", MeldKind::FourTopsWithHm, 5),
            ("S1 S2 S3 S4 S5 S6 S7 S8", MeldKind::Flush(Suit::Strings), 4),
            ("W0 WH W1 W2 W3 W4 W5 W6", MeldKind::Flush(Suit::Cash), 4),
            ("TW TQ T9 T8 T7 T6 T5 T4", MeldKind::Flush(Suit::Tens), 4),
            ("TW TQ TB T8 T7 T6 T5 T4", MeldKind::FlushOfTensWithHm, 5),
            ("TW TQ T2 M9 M1 S1 W0 W9", MeldKind::EightReds, 6),
            ("TQ TB T2 M9 M1 S1 W0 W9", MeldKind::EightRedsWithHm, 7),
        ];
        for (h, kind, stakes) in cases {
            assert_eq!(only(h), vec![kind], "{h}");
            assert_eq!(kind.stakes(), stakes);
        }
        // Four tops and four lowest is also four tops and eight reds (all its cards are red).
        let m = Melds::of(hand("TW T2 M9 M1 S9 S1 W0 W9"));
        assert_eq!(
            m.0,
            [Some(MeldKind::FourTops), None, Some(MeldKind::EightReds), Some(MeldKind::TopsAndLowest)]
        );
        assert_eq!(MeldKind::TopsAndLowest.stakes(), 8);
    }

    #[test]
    fn highest_counts_only_the_top_meld_and_cumulative_adds_families() {
        let std = Variants::STANDARD;
        let mut cum = Variants::STANDARD;
        cum.meld_stacking = MeldStacking::Cumulative;
        let tl = Melds::of(hand("TW T2 M9 M1 S9 S1 W0 W9"));
        assert_eq!(tl.stakes(&std), 8);
        // §9.3: four tops 4 + eight reds 6 + four tops and four lowest 8.
        assert_eq!(tl.stakes(&cum), 18);
        let r = Melds::of(hand("TW TQ TB T2 M9 S9 W0 W9"));
        assert_eq!(r.0[0], Some(MeldKind::FourTopsWithHm));
        assert_eq!(r.0[2], Some(MeldKind::EightRedsWithHm));
        assert_eq!(r.stakes(&std), 7);
        // "including TB" replaces its base line within the family: 5 + 7, not 4 + 5 + 6 + 7.
        assert_eq!(r.stakes(&cum), 12);
        assert_eq!(Melds::of(hand("TW M9 S8 W0 M2 S3 W5 T4")).stakes(&cum), 0);
    }

    #[test]
    fn four_lowest_and_long_suits() {
        assert!(has_four_lowest(hand("T2 M1 S1 W9 TW M5 S5 W5")));
        assert!(!has_four_lowest(hand("T3 M1 S1 W9 TW M5 S5 W5")));
        assert!(has_long_suit(hand("M1 M2 M3 M4 M5 S5 W5 T5")));
        assert!(!has_long_suit(hand("M1 M2 M3 M4 S4 S5 W5 T5")));
        assert_eq!(long_suits(hand("M1 M2 M3 M4 M5 S5 W5 T5")).collect::<Vec<_>>(), vec![Suit::Myriads]);
        // The eight lowest cash W9…W2 are a flush of cash.
        assert_eq!(Melds::of(ALL_CARDS & Cards::from_bits(0xff)).0[1], Some(MeldKind::Flush(Suit::Cash)));
    }
}
