//! A finished match as rated games: every player meets every player not on their side, once,
//! and wins, draws or loses by comparing their results (`docs/ratings.md`).

use serde::{Deserialize, Serialize};

use crate::{Config, Game, Rating, RatingError, update};

/// One player of a finished rated match.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    /// The rating before the match.
    pub rating: Rating,
    /// A fixed rating does not change (a bot's).
    pub fixed: bool,
    /// Players on the same side are not rated against each other (Da Bai Fen's partnerships);
    /// `None` plays for themself (Madiao).
    pub side: Option<u8>,
    /// The player's result in the match: the higher the better (Madiao: the chips won; Da Bai
    /// Fen: the side's result).
    pub result: f64,
    /// Left the match or lost it on the clock: loses to every other player, draws with another
    /// who forfeited.
    pub forfeited: bool,
}

/// The score of `a` in its game against `b`, or `None` if they are on the same side.
pub fn score(a: &Entrant, b: &Entrant) -> Option<f64> {
    if a.side.is_some() && a.side == b.side {
        return None;
    }
    Some(match (a.forfeited, b.forfeited) {
        (true, true) => 0.5,
        (true, false) => 0.0,
        (false, true) => 1.0,
        (false, false) if a.result > b.result => 1.0,
        (false, false) if a.result < b.result => 0.0,
        (false, false) => 0.5,
    })
}

/// Every player's rating after the match, in the entrants' order. All games are rated against
/// the ratings before the match; fixed ratings come back unchanged.
pub fn rate_match(entrants: &[Entrant], config: &Config) -> Result<Vec<Rating>, RatingError> {
    for e in entrants {
        e.rating.check()?;
        if !e.result.is_finite() {
            return Err(RatingError::Result(e.result));
        }
    }
    entrants
        .iter()
        .enumerate()
        .map(|(i, me)| {
            if me.fixed {
                return Ok(me.rating);
            }
            let games: Vec<Game> = entrants
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .filter_map(|(_, them)| score(me, them).map(|score| Game { opponent: them.rating, score }))
                .collect();
            update(me.rating, &games, config)
        })
        .collect()
}
