//! The shared vocabulary of yezi: seats, per-seat values, card sets as bitmasks, seeded
//! randomness, amounts counted in halves, and the `yezi/1` game-record types.
pub mod cardset;
pub mod deal;
pub mod game;
pub mod halves;
pub mod record;
pub mod rng;
pub mod seat;

pub use cardset::{Card, CardSet};
pub use game::GameState;
pub use halves::Halves;
pub use rng::Rng;
pub use seat::{BySeat, Seat, Viewer};

/// Declares a TypeScript type for a type with a hand-written serde form (feature `ts`, for the
/// browser client's wire types): `ts_named!(Card, "MadiaoCard", expr)`, where `expr` is a
/// `String` expression giving the TypeScript type, declared once under the name.
#[cfg(feature = "ts")]
#[macro_export]
macro_rules! ts_named {
    ($ty:ty, $name:literal, $body:expr) => {
        impl ::ts_rs::TS for $ty {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;
            fn name(_: &::ts_rs::Config) -> String {
                $name.to_string()
            }
            fn inline(_: &::ts_rs::Config) -> String {
                $body
            }
            fn decl(cfg: &::ts_rs::Config) -> String {
                format!("type {} = {};", $name, <Self as ::ts_rs::TS>::inline(cfg))
            }
            fn decl_concrete(cfg: &::ts_rs::Config) -> String {
                <Self as ::ts_rs::TS>::decl(cfg)
            }
            fn output_path() -> Option<std::path::PathBuf> {
                Some(std::path::PathBuf::from(concat!($name, ".ts")))
            }
        }
    };
}

/// A TypeScript union of string literals.
#[cfg(feature = "ts")]
pub fn ts_union<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    items.into_iter().map(|c| format!("{c:?}")).collect::<Vec<_>>().join(" | ")
}

#[cfg(feature = "ts")]
ts_named!(Seat, "Seat", "number".to_string());
#[cfg(feature = "ts")]
ts_named!(Halves, "Halves", "number".to_string());
#[cfg(feature = "ts")]
ts_named!(record::Variants, "VariantOverrides", "Record<string, string>".to_string());
