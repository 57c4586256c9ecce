//! Hints: the action the strongest practical bot ([`HINT_BOT`]) would take from a seat's view,
//! with a short reason in English and Chinese.
//!
//! The reason is built from the position and the bot's choice, never canned: its kind says which
//! situation holds (a top card led, a capture, a slough while a fellow player wins the trick, a
//! multi-card lead of top cards, …) and its words name the cards and the facts behind it — the
//! tracker's facts of the engines ([`madiao::Tracker`], [`dabaifen::Tracker`]): top cards, unseen
//! cards, voids — and the tricks and points on the table. The bot's search is not explained; the
//! reason says what is true of the move it chose.

pub(crate) mod model;

use crate::{Budget, Dabaifen, Madiao};

pub use crate::dabaifen::hint::{dabaifen_hint, dabaifen_reason};
pub use crate::madiao::hint::{madiao_hint, madiao_reason};
pub use model::{HINT_BOT, Hint, Reason, ReasonKind};

/// A game that gives hints: [`madiao_hint`] or [`dabaifen_hint`] by the game's type.
pub trait Hinted: crate::Game {
    /// The hint for the seat to move whose view is `view`, among `legal` (see [`madiao_hint`]).
    fn hint(
        view: &Self::View,
        legal: &[Self::Action],
        seed: u64,
        budget: Budget,
    ) -> Option<Hint<Self::Action>>;
}

impl Hinted for Madiao {
    fn hint(
        view: &madiao::View,
        legal: &[madiao::Action],
        seed: u64,
        budget: Budget,
    ) -> Option<Hint<madiao::Action>> {
        madiao_hint(view, legal, seed, budget)
    }
}

impl Hinted for Dabaifen {
    fn hint(
        view: &dabaifen::View,
        legal: &[dabaifen::Action],
        seed: u64,
        budget: Budget,
    ) -> Option<Hint<dabaifen::Action>> {
        dabaifen_hint(view, legal, seed, budget)
    }
}
