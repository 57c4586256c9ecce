//! §8 The variants table: one typed field per variant, the presets `standard` and `feng`, and
//! reading/writing them as the text overrides of a record.

use std::fmt;

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// §5 Face-up discard: a face-up card that is not a capture.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FaceupDiscard {
    /// Allowed; the offender pays 2 stakes (a player to the banker, the banker to each player).
    Penalty,
    /// Not allowed: a follower who does not capture must slough face down.
    Forbidden,
}

/// §6.3 How a banker with fewer than 2 tricks pays his −1.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BankerShortfall {
    /// Only to the players who made the minimum (the seed's "he'll have to pay the winners").
    Winners,
    /// To each player, like every other line of `v(banker)`.
    All,
}

/// §6.2 The trick condition of the +3 HM line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HmBonusTricks {
    /// The HM holder made exactly 2 tricks (the seed's wording).
    Exactly2,
    /// The HM holder made 2 or more tricks.
    AtLeast2,
}

/// §6.2 The "3 or more tricks" line when two seats tie for the most tricks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MostTricksTie {
    /// Each gets the usual +1.
    EachPlus1,
    /// Each gets +½ (Feng).
    EachPlusHalf,
}

/// §6.1 Who pays at the stock check.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StockCheckPayer {
    /// The seat that played the second-highest card face up; nobody if it was sloughed.
    FaceupOnly,
    /// The seat dealt the second-highest card, however he played it.
    Holder,
}

/// §4.1 How several melds in one hand count.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MeldStacking {
    /// Only the highest applicable meld.
    Highest,
    /// The families add up (§9.3).
    Cumulative,
}

/// §6.2 How the bonus lines of a hand value combine.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BonusStacking {
    /// Every line counts.
    Cumulative,
    /// The trick-count line, plus only the largest of the other lines (§9.12).
    LargestOnly,
}

/// §6.2 The slam line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Slam {
    /// +8 replaces the +1 for three or more tricks.
    Replaces,
    /// +8 and the +1 (§9.13).
    Adds,
}

/// §7 When the match ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameLength {
    /// On the hand after which the bank would pass when every seat has banked at least once.
    EachBankerOnce,
    /// After this many hands (at least 1).
    Hands(u32),
}

/// Every variant of the rules file's table (§8), one typed field each.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variants {
    /// `faceup_discard`.
    pub faceup_discard: FaceupDiscard,
    /// `banker_shortfall`.
    pub banker_shortfall: BankerShortfall,
    /// `hm_bonus_tricks`.
    pub hm_bonus_tricks: HmBonusTricks,
    /// `most_tricks_tie`.
    pub most_tricks_tie: MostTricksTie,
    /// `stock_check_payer`.
    pub stock_check_payer: StockCheckPayer,
    /// `meld_extra_stake`: the meld holder wins 1 more stake from each payer.
    pub meld_extra_stake: bool,
    /// `meld_stacking`.
    pub meld_stacking: MeldStacking,
    /// `bonus_stacking`.
    pub bonus_stacking: BonusStacking,
    /// `slam`.
    pub slam: Slam,
    /// `game_length`.
    pub game_length: GameLength,
}

/// The names of the presets.
pub const PRESETS: [&str; 2] = ["standard", "feng"];

/// The variant names, in the rules file's order.
pub const VARIANT_NAMES: [&str; 10] = [
    "faceup_discard",
    "banker_shortfall",
    "hm_bonus_tricks",
    "most_tricks_tie",
    "stock_check_payer",
    "meld_extra_stake",
    "meld_stacking",
    "bonus_stacking",
    "slam",
    "game_length",
];

/// A preset, variant name or value that the rules file does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// Not `standard` or `feng`.
    #[error("unknown rules preset {0:?} (Madiao has \"standard\" and \"feng\")")]
    UnknownPreset(String),
    /// Not a name of the variants table.
    #[error("unknown variant `{0}` (Madiao's variants are {names})", names = VARIANT_NAMES.join(", "))]
    UnknownVariant(String),
    /// Not one of the variant's values.
    #[error("variant `{name}` cannot be {value:?}: expected {expected}")]
    BadValue {
        /// The variant's name.
        name: String,
        /// The value given.
        value: String,
        /// The values it may take, in words.
        expected: &'static str,
    },
}

impl Default for Variants {
    fn default() -> Self {
        Variants::STANDARD
    }
}

impl Variants {
    /// The preset `standard`: the seed read literally, our decisions (tagged `[I]`) where it is silent.
    pub const STANDARD: Variants = Variants {
        faceup_discard: FaceupDiscard::Penalty,
        banker_shortfall: BankerShortfall::Winners,
        hm_bonus_tricks: HmBonusTricks::Exactly2,
        most_tricks_tie: MostTricksTie::EachPlus1,
        stock_check_payer: StockCheckPayer::FaceupOnly,
        meld_extra_stake: false,
        meld_stacking: MeldStacking::Highest,
        bonus_stacking: BonusStacking::Cumulative,
        slam: Slam::Replaces,
        game_length: GameLength::EachBankerOnce,
    };

    /// The preset `feng`: Feng Menglong's choices as reconstructed.
    pub const FENG: Variants = Variants {
        faceup_discard: FaceupDiscard::Forbidden,
        banker_shortfall: BankerShortfall::All,
        hm_bonus_tricks: HmBonusTricks::AtLeast2,
        most_tricks_tie: MostTricksTie::EachPlusHalf,
        stock_check_payer: StockCheckPayer::Holder,
        meld_extra_stake: true,
        meld_stacking: MeldStacking::Highest,
        bonus_stacking: BonusStacking::Cumulative,
        slam: Slam::Replaces,
        game_length: GameLength::EachBankerOnce,
    };

    /// The preset with this name (`standard` or `feng`).
    pub fn preset(name: &str) -> Result<Variants, VariantError> {
        match name {
            "standard" => Ok(Variants::STANDARD),
            "feng" => Ok(Variants::FENG),
            other => Err(VariantError::UnknownPreset(other.to_string())),
        }
    }

    /// These variants with the overrides of a record (name → text value) applied.
    pub fn with_overrides(mut self, overrides: &cards::record::Variants) -> Result<Variants, VariantError> {
        for (name, value) in &overrides.0 {
            self.set(name, value)?;
        }
        Ok(self)
    }

    /// Sets one variant from its name and text value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), VariantError> {
        fn bad(name: &str, value: &str, expected: &'static str) -> VariantError {
            VariantError::BadValue { name: name.to_string(), value: value.to_string(), expected }
        }
        match name {
            "faceup_discard" => {
                self.faceup_discard = match value {
                    "penalty" => FaceupDiscard::Penalty,
                    "forbidden" => FaceupDiscard::Forbidden,
                    _ => return Err(bad(name, value, "\"penalty\" or \"forbidden\"")),
                }
            }
            "banker_shortfall" => {
                self.banker_shortfall = match value {
                    "winners" => BankerShortfall::Winners,
                    "all" => BankerShortfall::All,
                    _ => return Err(bad(name, value, "\"winners\" or \"all\"")),
                }
            }
            "hm_bonus_tricks" => {
                self.hm_bonus_tricks = match value {
                    "exactly_2" => HmBonusTricks::Exactly2,
                    "at_least_2" => HmBonusTricks::AtLeast2,
                    _ => return Err(bad(name, value, "\"exactly_2\" or \"at_least_2\"")),
                }
            }
            "most_tricks_tie" => {
                self.most_tricks_tie = match value {
                    "each_plus_1" => MostTricksTie::EachPlus1,
                    "each_plus_half" => MostTricksTie::EachPlusHalf,
                    _ => return Err(bad(name, value, "\"each_plus_1\" or \"each_plus_half\"")),
                }
            }
            "stock_check_payer" => {
                self.stock_check_payer = match value {
                    "faceup_only" => StockCheckPayer::FaceupOnly,
                    "holder" => StockCheckPayer::Holder,
                    _ => return Err(bad(name, value, "\"faceup_only\" or \"holder\"")),
                }
            }
            "meld_extra_stake" => {
                self.meld_extra_stake = match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad(name, value, "true or false")),
                }
            }
            "meld_stacking" => {
                self.meld_stacking = match value {
                    "highest" => MeldStacking::Highest,
                    "cumulative" => MeldStacking::Cumulative,
                    _ => return Err(bad(name, value, "\"highest\" or \"cumulative\"")),
                }
            }
            "bonus_stacking" => {
                self.bonus_stacking = match value {
                    "cumulative" => BonusStacking::Cumulative,
                    "largest_only" => BonusStacking::LargestOnly,
                    _ => return Err(bad(name, value, "\"cumulative\" or \"largest_only\"")),
                }
            }
            "slam" => {
                self.slam = match value {
                    "replaces" => Slam::Replaces,
                    "adds" => Slam::Adds,
                    _ => return Err(bad(name, value, "\"replaces\" or \"adds\"")),
                }
            }
            "game_length" => {
                const EXPECTED: &str = "\"each_banker_once\" or \"hands:N\" with N a whole number from 1";
                self.game_length = match value {
                    "each_banker_once" => GameLength::EachBankerOnce,
                    v => match v.strip_prefix("hands:").map(str::parse::<u32>) {
                        Some(Ok(n)) if n >= 1 => GameLength::Hands(n),
                        _ => return Err(bad(name, value, EXPECTED)),
                    },
                }
            }
            other => return Err(VariantError::UnknownVariant(other.to_string())),
        }
        Ok(())
    }

    /// The text value of a variant, as written in records (`None` for an unknown name).
    pub fn get(&self, name: &str) -> Option<String> {
        Some(
            match name {
                "faceup_discard" => match self.faceup_discard {
                    FaceupDiscard::Penalty => "penalty",
                    FaceupDiscard::Forbidden => "forbidden",
                },
                "banker_shortfall" => match self.banker_shortfall {
                    BankerShortfall::Winners => "winners",
                    BankerShortfall::All => "all",
                },
                "hm_bonus_tricks" => match self.hm_bonus_tricks {
                    HmBonusTricks::Exactly2 => "exactly_2",
                    HmBonusTricks::AtLeast2 => "at_least_2",
                },
                "most_tricks_tie" => match self.most_tricks_tie {
                    MostTricksTie::EachPlus1 => "each_plus_1",
                    MostTricksTie::EachPlusHalf => "each_plus_half",
                },
                "stock_check_payer" => match self.stock_check_payer {
                    StockCheckPayer::FaceupOnly => "faceup_only",
                    StockCheckPayer::Holder => "holder",
                },
                "meld_extra_stake" => {
                    if self.meld_extra_stake {
                        "true"
                    } else {
                        "false"
                    }
                }
                "meld_stacking" => match self.meld_stacking {
                    MeldStacking::Highest => "highest",
                    MeldStacking::Cumulative => "cumulative",
                },
                "bonus_stacking" => match self.bonus_stacking {
                    BonusStacking::Cumulative => "cumulative",
                    BonusStacking::LargestOnly => "largest_only",
                },
                "slam" => match self.slam {
                    Slam::Replaces => "replaces",
                    Slam::Adds => "adds",
                },
                "game_length" => {
                    return Some(match self.game_length {
                        GameLength::EachBankerOnce => "each_banker_once".to_string(),
                        GameLength::Hands(n) => format!("hands:{n}"),
                    });
                }
                _ => return None,
            }
            .to_string(),
        )
    }

    /// The overrides that turn the preset `preset` into these variants (what a record's
    /// `variants` field holds). Empty when they are the preset.
    pub fn overrides_from(&self, preset: &Variants) -> cards::record::Variants {
        let mut out = cards::record::Variants::default();
        for name in VARIANT_NAMES {
            let (mine, theirs) = (self.get(name), preset.get(name));
            if mine != theirs
                && let Some(v) = mine
            {
                out.0.insert(name.to_string(), v);
            }
        }
        out
    }

    /// Every variant as `(name, value)`, in the rules file's order.
    pub fn entries(&self) -> impl Iterator<Item = (&'static str, String)> + '_ {
        VARIANT_NAMES.into_iter().filter_map(|n| self.get(n).map(|v| (n, v)))
    }
}

impl fmt::Display for Variants {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (n, v)) in self.entries().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n}: {v}")?;
        }
        Ok(())
    }
}

/// Written as a map of every variant name to its text value.
impl Serialize for Variants {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(VARIANT_NAMES.len()))?;
        for (n, v) in self.entries() {
            m.serialize_entry(n, &v)?;
        }
        m.end()
    }
}

/// Read from the map [`Variants`] is written as: every variant name with its text value (a view
/// always names them all, so none is taken from a preset).
impl<'de> Deserialize<'de> for Variants {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Variants, D::Error> {
        let map = cards::record::Variants::deserialize(d)?;
        if let Some(missing) = VARIANT_NAMES.iter().find(|n| !map.0.contains_key(**n)) {
            return Err(serde::de::Error::custom(format!("variant `{missing}` is missing")));
        }
        Variants::STANDARD.with_overrides(&map).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overrides(pairs: &[(&str, &str)]) -> cards::record::Variants {
        cards::record::Variants(pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect())
    }

    #[test]
    fn presets_match_the_table() {
        // §8: the two columns of the table, name by name.
        let want_standard = [
            "penalty",
            "winners",
            "exactly_2",
            "each_plus_1",
            "faceup_only",
            "false",
            "highest",
            "cumulative",
            "replaces",
            "each_banker_once",
        ];
        let want_feng = [
            "forbidden",
            "all",
            "at_least_2",
            "each_plus_half",
            "holder",
            "true",
            "highest",
            "cumulative",
            "replaces",
            "each_banker_once",
        ];
        let s = Variants::preset("standard").unwrap();
        let f = Variants::preset("feng").unwrap();
        for (i, n) in VARIANT_NAMES.iter().enumerate() {
            assert_eq!(s.get(n).unwrap(), want_standard[i], "{n}");
            assert_eq!(f.get(n).unwrap(), want_feng[i], "{n}");
        }
        assert_eq!(
            Variants::preset("house").unwrap_err().to_string(),
            "unknown rules preset \"house\" (Madiao has \"standard\" and \"feng\")"
        );
    }

    #[test]
    fn every_value_parses_and_writes_back() {
        let values: [&[&str]; 10] = [
            &["penalty", "forbidden"],
            &["winners", "all"],
            &["exactly_2", "at_least_2"],
            &["each_plus_1", "each_plus_half"],
            &["faceup_only", "holder"],
            &["false", "true"],
            &["highest", "cumulative"],
            &["cumulative", "largest_only"],
            &["replaces", "adds"],
            &["each_banker_once", "hands:1", "hands:12"],
        ];
        for (name, vals) in VARIANT_NAMES.iter().zip(values) {
            for v in vals {
                let mut x = Variants::STANDARD;
                x.set(name, v).unwrap();
                assert_eq!(x.get(name).unwrap(), *v);
                let o = x.overrides_from(&Variants::STANDARD);
                assert_eq!(Variants::STANDARD.with_overrides(&o).unwrap(), x);
            }
        }
    }

    #[test]
    fn bad_names_and_values_are_named() {
        let e = Variants::STANDARD.with_overrides(&overrides(&[("slams", "adds")])).unwrap_err();
        assert!(e.to_string().starts_with("unknown variant `slams`"), "{e}");
        let e = Variants::STANDARD.with_overrides(&overrides(&[("slam", "sometimes")])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "variant `slam` cannot be \"sometimes\": expected \"replaces\" or \"adds\""
        );
        for bad in ["hands:0", "hands:", "hands:x", "hands:-1", "hands"] {
            assert!(Variants::STANDARD.with_overrides(&overrides(&[("game_length", bad)])).is_err(), "{bad}");
        }
    }

    #[test]
    fn overrides_are_relative_to_the_preset() {
        let mut v = Variants::FENG;
        v.slam = Slam::Adds;
        let o = v.overrides_from(&Variants::FENG);
        assert_eq!(o.0.len(), 1);
        assert_eq!(o.0["slam"], "adds");
        assert_eq!(Variants::FENG.overrides_from(&Variants::STANDARD).0.len(), 6);
        assert!(Variants::FENG.overrides_from(&Variants::FENG).is_empty());
    }
}
