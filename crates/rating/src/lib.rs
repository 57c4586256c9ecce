//! Ratings of yezi's players: the Glicko-2 system, and how a finished match of four players
//! becomes the games Glicko-2 rates (`docs/ratings.md`).

pub mod glicko2;
pub mod matches;

pub use glicko2::{Config, Game, Rating, update};
pub use matches::{Entrant, rate_match};

/// Why a rating could not be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatingError {
    /// A rating that is not finite or has a deviation or volatility that is not positive.
    #[error("not a rating: {0:?}")]
    Invalid(Rating),
    /// A game's score outside 0 to 1.
    #[error("a game's score must be from 0 to 1, not {0}")]
    Score(f64),
    /// A player's match result that is not a finite number.
    #[error("a match result must be a finite number, not {0}")]
    Result(f64),
}
