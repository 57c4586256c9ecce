//! The shared vocabulary of yezi: seats, per-seat values, card sets as bitmasks, seeded
//! randomness, amounts counted in halves, and the `yezi/1` game-record types.

pub mod cardset;
pub mod halves;
pub mod record;
pub mod rng;
pub mod seat;

pub use cardset::{Card, CardSet};
pub use halves::Halves;
pub use rng::Rng;
pub use seat::{BySeat, Seat};
