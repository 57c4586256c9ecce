//! §1 The figures drawn on the cards: the Water Margin 水滸傳 heroes of the Tens and the Myriads,
//! and the zero cash as a deck draws it.
//!
//! Presentation only: nothing here changes a rule, a record, the engine's play or the bots. The
//! clients use it to draw and name the cards; the browser's copy (`web/js/figures.js`) is
//! generated from [`figure`] and checked against it (`tests/figures.rs`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::card::Card;

/// How a deck draws the zero cash `W0` (§1): the sources disagree, so a table chooses. A table's
/// choice is part of its settings, not of the `yezi/1` record: it changes nothing in play.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZeroCash {
    /// A human figure with no name (李東琪《紙牌說》: 「獨空沒文，亦具人狀」), the oldest account;
    /// the default.
    #[default]
    Unnamed,
    /// No figure: the card is blank, as in some decks.
    Blank,
    /// The figure named 王英, as a modern account gives it.
    WangYing,
}

impl ZeroCash {
    /// The three ways, the default first.
    pub const ALL: [ZeroCash; 3] = [ZeroCash::Unnamed, ZeroCash::Blank, ZeroCash::WangYing];

    /// The name in settings, options and the protocol: `unnamed`, `blank`, `wang_ying`.
    pub const fn name(self) -> &'static str {
        match self {
            ZeroCash::Unnamed => "unnamed",
            ZeroCash::Blank => "blank",
            ZeroCash::WangYing => "wang_ying",
        }
    }
}

impl fmt::Display for ZeroCash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that is not a way of drawing the zero cash.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown zero cash {0:?}: expected unnamed, blank or wang_ying")]
pub struct UnknownZeroCash(pub String);

impl FromStr for ZeroCash {
    type Err = UnknownZeroCash;
    fn from_str(s: &str) -> Result<ZeroCash, UnknownZeroCash> {
        ZeroCash::ALL.into_iter().find(|z| z.name() == s).ok_or_else(|| UnknownZeroCash(s.to_string()))
    }
}

/// Where a figure's attribution comes from (§1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Lu Rong 陸容's 《菽園雜記》 (15th century).
    LuRong,
    /// A modern compilation (cread.tw, book 81749), for the cards Lu Rong passes over.
    Compilation,
    /// Li Dongqi 李東琪's 《紙牌說》: the zero cash alone also has a human form.
    LiDongqi,
    /// A modern account naming the zero cash's figure 王英.
    ModernAccount,
}

impl Source {
    /// The name in the generated data: `lu_rong`, `compilation`, `li_dongqi`, `modern_account`.
    pub const fn name(self) -> &'static str {
        match self {
            Source::LuRong => "lu_rong",
            Source::Compilation => "compilation",
            Source::LiDongqi => "li_dongqi",
            Source::ModernAccount => "modern_account",
        }
    }
}

/// A named hero: his name as the sources write it (traditional characters) and its reading.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hero {
    /// The name in Chinese, as the sources write it: 宋江.
    pub name: &'static str,
    /// The name's reading in pinyin, for readers of English: Song Jiang.
    pub reading: &'static str,
}

/// The figure drawn on a card.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Figure {
    /// The hero, `None` for a figure the sources leave unnamed.
    pub hero: Option<Hero>,
    /// Who names (or describes) it.
    pub source: Source,
}

const fn named(name: &'static str, reading: &'static str, source: Source) -> Option<Figure> {
    Some(Figure { hero: Some(Hero { name, reading }), source })
}

/// The figures of the Tens and the Myriads by card number (see [`crate::card`]): `None` for the
/// cash and strings, whose cards show pips.
const FIGURES: [Option<Figure>; 40] = {
    use Source::{Compilation as C, LuRong as L};
    let mut t: [Option<Figure>; 40] = [None; 40];
    // Myriads, M1 (number 20) up to M9.
    t[20] = named("燕青", "Yan Qing", L);
    t[21] = named("花榮", "Hua Rong", C);
    t[22] = named("關勝", "Guan Sheng", C);
    t[23] = named("柴進", "Chai Jin", C);
    t[24] = named("李俊", "Li Jun", C);
    t[25] = named("史進", "Shi Jin", C);
    t[26] = named("秦明", "Qin Ming", C);
    t[27] = named("索超", "Suo Chao", C);
    t[28] = named("雷橫", "Lei Heng", C);
    // Tens, T2 (number 29) up to TW.
    t[29] = named("扈三娘", "Hu Sanniang", C);
    t[30] = named("楊志", "Yang Zhi", C);
    t[31] = named("李逵", "Li Kui", C);
    t[32] = named("魯智深", "Lu Zhishen", C);
    t[33] = named("呼延灼", "Huyan Zhuo", C);
    t[34] = named("孫立", "Sun Li", C);
    t[35] = named("朱仝", "Zhu Tong", C);
    t[36] = named("阮小七", "Ruan Xiaoqi", L);
    t[37] = named("阮小五", "Ruan Xiaowu", L);
    t[38] = named("武松", "Wu Song", L);
    t[39] = named("宋江", "Song Jiang", L);
    t
};

/// The figure on `card` in a deck that draws the zero cash as `zero_cash` (§1): a hero on each
/// of the Tens and the Myriads, the zero cash's figure (if the deck has one), and `None` for
/// every other card.
pub const fn figure(card: Card, zero_cash: ZeroCash) -> Option<Figure> {
    if card.number() == Card::W0.number() {
        return match zero_cash {
            ZeroCash::Unnamed => Some(Figure { hero: None, source: Source::LiDongqi }),
            ZeroCash::Blank => None,
            ZeroCash::WangYing => named("王英", "Wang Ying", Source::ModernAccount),
        };
    }
    FIGURES[card.number() as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;

    /// The figures of docs/rules/madiao.md §1, card by card: Lu Rong's 萬萬 宋江, 千萬 武松,
    /// 百萬 阮小五, 九十 阮小七 and 一萬 燕青, the compilation's others.
    const RULES_TABLE: [(&str, &str); 20] = [
        ("TW", "宋江"),
        ("TQ", "武松"),
        ("TB", "阮小五"),
        ("T9", "阮小七"),
        ("T8", "朱仝"),
        ("T7", "孫立"),
        ("T6", "呼延灼"),
        ("T5", "魯智深"),
        ("T4", "李逵"),
        ("T3", "楊志"),
        ("T2", "扈三娘"),
        ("M9", "雷橫"),
        ("M8", "索超"),
        ("M7", "秦明"),
        ("M6", "史進"),
        ("M5", "李俊"),
        ("M4", "柴進"),
        ("M3", "關勝"),
        ("M2", "花榮"),
        ("M1", "燕青"),
    ];

    /// The cards §1 attributes to Lu Rong's list.
    const LU_RONG: [&str; 5] = ["TW", "TQ", "TB", "T9", "M1"];

    #[test]
    fn every_ten_and_myriad_has_the_rules_files_hero() {
        for z in ZeroCash::ALL {
            for (code, name) in RULES_TABLE {
                let card: Card = code.parse().unwrap();
                let f = figure(card, z).unwrap_or_else(|| panic!("{code} has no figure"));
                let hero = f.hero.unwrap_or_else(|| panic!("{code}'s figure is unnamed"));
                assert_eq!(hero.name, name, "{code}");
                assert!(!hero.reading.is_empty(), "{code}");
                let expected = if LU_RONG.contains(&code) { Source::LuRong } else { Source::Compilation };
                assert_eq!(f.source, expected, "{code}");
            }
        }
        // The table covers both suits whole, and nothing else has a hero but the zero cash.
        let figured: Vec<Card> =
            Card::all().filter(|&c| figure(c, ZeroCash::Blank).is_some()).collect::<Vec<_>>();
        assert_eq!(figured.len(), RULES_TABLE.len());
        assert!(figured.iter().all(|c| matches!(c.suit(), Suit::Tens | Suit::Myriads)));
        assert_eq!(Suit::Tens.mask().len() + Suit::Myriads.mask().len(), RULES_TABLE.len() as u32);
    }

    #[test]
    fn the_zero_cash_follows_the_decks_choice_and_the_pips_have_no_figure() {
        assert_eq!(
            figure(Card::W0, ZeroCash::Unnamed),
            Some(Figure { hero: None, source: Source::LiDongqi })
        );
        assert_eq!(figure(Card::W0, ZeroCash::Blank), None);
        let wang = figure(Card::W0, ZeroCash::WangYing).unwrap();
        assert_eq!(wang.hero.map(|h| h.name), Some("王英"));
        assert_eq!(wang.source, Source::ModernAccount);
        for c in Card::all().filter(|&c| matches!(c.suit(), Suit::Strings | Suit::Cash) && c != Card::W0) {
            for z in ZeroCash::ALL {
                assert_eq!(figure(c, z), None, "{c}");
            }
        }
        // The heroes are distinct people.
        let mut names: Vec<&str> = Card::all()
            .filter_map(|c| figure(c, ZeroCash::WangYing)?.hero.map(|h| h.name))
            .collect::<Vec<_>>();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 21);
    }

    #[test]
    fn zero_cash_names_round_trip_and_a_wrong_one_is_refused() {
        for z in ZeroCash::ALL {
            assert_eq!(z.name().parse::<ZeroCash>(), Ok(z));
            assert_eq!(serde_json::to_string(&z).unwrap(), format!("\"{}\"", z.name()));
        }
        assert_eq!(ZeroCash::default(), ZeroCash::Unnamed);
        let err = "wangying".parse::<ZeroCash>().unwrap_err();
        assert_eq!(err.to_string(), "unknown zero cash \"wangying\": expected unnamed, blank or wang_ying");
    }
}
