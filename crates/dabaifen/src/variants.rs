//! The rules variants of §11, typed, with the `standard` preset.

use std::fmt;

use cards::record;

/// §8 Revoke: what happens to a one-suit multi-card lead that contains a card that is not a top card.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Revoke {
    /// `penalize` (standard): the lead is accepted and shown, the deal ends at once, and the
    /// offending team is scored as having lost every trick (§12.8).
    Penalize,
    /// `refuse`: the engine rejects such a lead (for practice tables).
    Refuse,
}

/// §9: how much the kitty's points are worth to the team that wins the last trick.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KittyMultiplier {
    /// `double` (standard): 2 × the kitty's points.
    Double,
    /// `per_card`: 2 × the number of cards each player played to the last trick (Sheng Ji).
    PerCard,
}

/// §4 / §12.11: who takes `deck[0]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FirstDrawer {
    /// `starter` (standard): the (provisional) starter draws first.
    Starter,
    /// `starter_right`: the seat after the starter (s + 1) draws first.
    StarterRight,
}

/// §10: when the game ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// `reach_ace` (standard): a team that reaches A wins at once.
    ReachAce,
    /// `win_as_declarers_at_ace`: the declarers must win a deal played at trump rank A (§12.10).
    WinAsDeclarersAtAce,
}

/// §6 / §12.5: who may annul a deal for a hand with no trump.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Annul {
    /// `any_player` (standard).
    AnyPlayer,
    /// `non_starters_only`: the starter (after any declaration) may not annul.
    NonStartersOnly,
}

/// One choice for every variant of the rules file's §11 table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variants {
    /// `revoke`.
    pub revoke: Revoke,
    /// `kitty_multiplier`.
    pub kitty_multiplier: KittyMultiplier,
    /// `first_drawer`.
    pub first_drawer: FirstDrawer,
    /// `game_end`.
    pub game_end: GameEnd,
    /// `annul`.
    pub annul: Annul,
}

impl Default for Variants {
    fn default() -> Self {
        Variants::STANDARD
    }
}

/// A preset or variant name or value the rules file does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// No such preset.
    #[error("unknown rules preset {0:?}; Da Bai Fen has the preset \"standard\"")]
    UnknownPreset(String),
    /// No such variant.
    #[error("unknown variant `{0}`; Da Bai Fen's variants are {names}", names = VARIANT_NAMES.join(", "))]
    UnknownVariant(String),
    /// A value the variant does not have.
    #[error("variant `{name}`: unknown value {value:?}; expected {expected}")]
    UnknownValue {
        /// The variant's name.
        name: String,
        /// The value given.
        value: String,
        /// The values it may take, in words.
        expected: String,
    },
}

/// The variant names, in the rules file's order.
pub const VARIANT_NAMES: [&str; 5] = ["revoke", "kitty_multiplier", "first_drawer", "game_end", "annul"];

/// Written as a map of every variant name to its text value, in the order of §11.
impl serde::Serialize for Variants {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(VARIANT_NAMES.len()))?;
        for (n, v) in self.entries() {
            m.serialize_entry(n, v)?;
        }
        m.end()
    }
}

/// Read from the map [`Variants`] is written as: every variant name with its text value (a view
/// always names them all, so none is taken from a preset).
impl<'de> serde::Deserialize<'de> for Variants {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Variants, D::Error> {
        let map = <record::Variants as serde::Deserialize>::deserialize(d)?;
        if let Some(missing) = VARIANT_NAMES.iter().find(|n| !map.0.contains_key(**n)) {
            return Err(serde::de::Error::custom(format!("variant `{missing}` is missing")));
        }
        Variants::STANDARD.with_overrides(&map).map_err(serde::de::Error::custom)
    }
}

/// The TypeScript type of the variants' JSON: each name with its values (feature `ts`).
#[cfg(feature = "ts")]
pub(crate) fn ts_type() -> String {
    let fields: Vec<String> = VARIANT_NAMES
        .iter()
        .map(|n| format!("{n}: {}", cards::ts_union(values(n).iter().copied())))
        .collect();
    format!("{{ {} }}", fields.join(", "))
}

fn values(name: &str) -> &'static [&'static str] {
    match name {
        "revoke" => &["penalize", "refuse"],
        "kitty_multiplier" => &["double", "per_card"],
        "first_drawer" => &["starter", "starter_right"],
        "game_end" => &["reach_ace", "win_as_declarers_at_ace"],
        "annul" => &["any_player", "non_starters_only"],
        _ => &[],
    }
}

impl Variants {
    /// The `standard` preset: the first value of every row of §11.
    pub const STANDARD: Variants = Variants {
        revoke: Revoke::Penalize,
        kitty_multiplier: KittyMultiplier::Double,
        first_drawer: FirstDrawer::Starter,
        game_end: GameEnd::ReachAce,
        annul: Annul::AnyPlayer,
    };

    /// The names of the presets.
    pub const PRESETS: [&'static str; 1] = ["standard"];

    /// The variants of a named preset.
    pub fn preset(name: &str) -> Result<Variants, VariantError> {
        match name {
            "standard" => Ok(Variants::STANDARD),
            _ => Err(VariantError::UnknownPreset(name.to_string())),
        }
    }

    /// The variants of `preset` with `overrides` applied (an unknown name or value is an error).
    pub fn from_record(preset: &str, overrides: &record::Variants) -> Result<Variants, VariantError> {
        Variants::preset(preset)?.with_overrides(overrides)
    }

    /// These variants with single variants overridden by name and value text.
    pub fn with_overrides(mut self, overrides: &record::Variants) -> Result<Variants, VariantError> {
        for (name, value) in &overrides.0 {
            self.set(name, value)?;
        }
        Ok(self)
    }

    /// Sets one variant by name and value text.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), VariantError> {
        let bad = || VariantError::UnknownValue {
            name: name.to_string(),
            value: value.to_string(),
            expected: values(name).iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(" or "),
        };
        match name {
            "revoke" => {
                self.revoke = match value {
                    "penalize" => Revoke::Penalize,
                    "refuse" => Revoke::Refuse,
                    _ => return Err(bad()),
                }
            }
            "kitty_multiplier" => {
                self.kitty_multiplier = match value {
                    "double" => KittyMultiplier::Double,
                    "per_card" => KittyMultiplier::PerCard,
                    _ => return Err(bad()),
                }
            }
            "first_drawer" => {
                self.first_drawer = match value {
                    "starter" => FirstDrawer::Starter,
                    "starter_right" => FirstDrawer::StarterRight,
                    _ => return Err(bad()),
                }
            }
            "game_end" => {
                self.game_end = match value {
                    "reach_ace" => GameEnd::ReachAce,
                    "win_as_declarers_at_ace" => GameEnd::WinAsDeclarersAtAce,
                    _ => return Err(bad()),
                }
            }
            "annul" => {
                self.annul = match value {
                    "any_player" => Annul::AnyPlayer,
                    "non_starters_only" => Annul::NonStartersOnly,
                    _ => return Err(bad()),
                }
            }
            _ => return Err(VariantError::UnknownVariant(name.to_string())),
        }
        Ok(())
    }

    /// Each variant's name with its value text, in the order of §11.
    pub fn entries(&self) -> [(&'static str, &'static str); 5] {
        [
            (
                "revoke",
                match self.revoke {
                    Revoke::Penalize => "penalize",
                    Revoke::Refuse => "refuse",
                },
            ),
            (
                "kitty_multiplier",
                match self.kitty_multiplier {
                    KittyMultiplier::Double => "double",
                    KittyMultiplier::PerCard => "per_card",
                },
            ),
            (
                "first_drawer",
                match self.first_drawer {
                    FirstDrawer::Starter => "starter",
                    FirstDrawer::StarterRight => "starter_right",
                },
            ),
            (
                "game_end",
                match self.game_end {
                    GameEnd::ReachAce => "reach_ace",
                    GameEnd::WinAsDeclarersAtAce => "win_as_declarers_at_ace",
                },
            ),
            (
                "annul",
                match self.annul {
                    Annul::AnyPlayer => "any_player",
                    Annul::NonStartersOnly => "non_starters_only",
                },
            ),
        ]
    }

    /// The overrides that turn `preset` into these variants (what a record's `variants` holds).
    pub fn overrides_from(&self, preset: &Variants) -> record::Variants {
        let mut out = record::Variants::default();
        for ((name, mine), (_, theirs)) in self.entries().into_iter().zip(preset.entries()) {
            if mine != theirs {
                out.0.insert(name.to_string(), mine.to_string());
            }
        }
        out
    }
}

impl fmt::Display for Variants {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (k, v)) in self.entries().into_iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overrides(pairs: &[(&str, &str)]) -> record::Variants {
        record::Variants(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
    }

    #[test]
    fn every_variant_value_round_trips() {
        for name in VARIANT_NAMES {
            for value in values(name) {
                let v = Variants::from_record("standard", &overrides(&[(name, value)])).unwrap();
                assert!(v.entries().contains(&(name, value)), "{name}={value}");
                let back = v.overrides_from(&Variants::STANDARD);
                let is_default = Variants::STANDARD.entries().contains(&(name, value));
                assert_eq!(back.0.len(), usize::from(!is_default));
                assert_eq!(Variants::STANDARD.with_overrides(&back).unwrap(), v);
            }
        }
    }

    #[test]
    fn variants_serialize_as_a_map_of_names_to_values() {
        let mut v = Variants::STANDARD;
        v.set("kitty_multiplier", "per_card").unwrap();
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"revoke":"penalize","kitty_multiplier":"per_card","first_drawer":"starter","game_end":"reach_ace","annul":"any_player"}"#
        );
    }

    #[test]
    fn unknown_names_and_values_are_errors_naming_them() {
        let e = Variants::from_record("feng", &overrides(&[])).unwrap_err().to_string();
        assert_eq!(e, "unknown rules preset \"feng\"; Da Bai Fen has the preset \"standard\"");
        let e = Variants::from_record("standard", &overrides(&[("trumps", "no")])).unwrap_err().to_string();
        assert!(e.starts_with("unknown variant `trumps`"), "{e}");
        let e = Variants::from_record("standard", &overrides(&[("revoke", "forgive")])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "variant `revoke`: unknown value \"forgive\"; expected \"penalize\" or \"refuse\""
        );
    }
}
