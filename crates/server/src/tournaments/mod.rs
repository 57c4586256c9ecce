//! Tournaments and quick pairing, the rules only (`docs/tournaments.md`): who sits with whom.
//! Pure: no storage, no HTTP, no clock (every time is given). The API over them is
//! `crate::api::pairing` and the tables they make are ordinary tables.
//!
//! - [`quick`]: "play now": the waiting people seated with those whose ratings are nearest,
//!   bots filling a table only once someone at it has waited long enough;
//! - [`swiss`]: rounds, players paired by score then rating, no repeated table mates where it
//!   can be avoided, bots filling incomplete tables, standings after each round;
//! - [`arena`]: a time window; a player who becomes free is paired with other free players
//!   nearest him in the standings, bots only when no one else is waiting after a short wait.
//!
//! Every table has [`SEATS`] seats. A match's points for each seat are [`match_points`].

use serde::{Deserialize, Serialize};

pub mod arena;
pub mod quick;
pub mod swiss;

/// Seats at a table, in both games.
pub const SEATS: usize = 4;

/// A person who plays in a tournament or waits to be paired.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    /// His guest id.
    pub id: String,
    /// His name, as shown.
    pub name: String,
    /// His rating in the game (`docs/ratings.md`; a new account's for a guest).
    pub rating: f64,
}

/// A table to make: the people seated at it, in seat order from seat 0, then `bots` bots in
/// the seats left.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairing {
    /// The people's guest ids.
    pub players: Vec<String>,
    /// Bots filling the other seats (`SEATS - players.len()`).
    pub bots: usize,
}

/// A player's line in a tournament's standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// His place, from 1.
    pub rank: u32,
    /// His guest id.
    pub id: String,
    /// His name.
    pub name: String,
    /// His rating when he joined.
    pub rating: f64,
    /// His points ([`match_points`] summed over his finished matches).
    pub points: f64,
    /// His finished matches.
    pub matches: u32,
    /// The swiss tie-break: the points of everyone he shared a table with, once per table
    /// (0 in an arena).
    pub tiebreak: f64,
}

/// Why a tournament refuses a change.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TournamentError {
    /// The guest is not one of the tournament's players.
    #[error("{0:?} does not play in this tournament")]
    UnknownPlayer(String),
    /// The guest has joined already.
    #[error("{0:?} has joined already")]
    AlreadyIn(String),
    /// No such table in the tournament.
    #[error("no table {0:?} in this tournament")]
    UnknownTable(String),
    /// The table's result was given already.
    #[error("table {0:?} has its result already")]
    TableOver(String),
    /// A result does not have one number per person at the table.
    #[error("table {table:?} seats {seated} people, the result has {given} numbers")]
    WrongResult {
        /// The table.
        table: String,
        /// People seated.
        seated: usize,
        /// Numbers given.
        given: usize,
    },
    /// Not now: the round is not over, the tournament has not begun or is over.
    #[error("{0}")]
    NotNow(String),
    /// Too few or too many players, rounds or seconds.
    #[error("{0}")]
    Bad(String),
}

/// A match's tournament points for each seat from the seats' final results (a number per seat,
/// more is better: the chips a seat won over a Madiao match; 1 for the side that won a Da Bai
/// Fen match, 0 for the other, `table::standings`):
/// one point for each other seat it finished above, half a point for each it tied. So a
/// match gives 6 points in all at a table of four, whatever the game; partners of a Da Bai Fen
/// side tie each other. `docs/tournaments.md`, "Points".
pub fn match_points(results: &[f64]) -> Vec<f64> {
    results
        .iter()
        .map(|&r| {
            results
                .iter()
                .map(|&o| {
                    if r > o {
                        1.0
                    } else if r == o {
                        0.5
                    } else {
                        0.0
                    }
                })
                .sum::<f64>()
                - 0.5
        })
        .collect()
}

/// An unordered pair of guest ids, smallest first: two people who shared a table.
pub fn pair_key(a: &str, b: &str) -> (String, String) {
    if a <= b { (a.to_string(), b.to_string()) } else { (b.to_string(), a.to_string()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_points_count_seats_beaten_and_half_the_ties() {
        assert_eq!(match_points(&[30.0, -10.0, -10.0, -10.0]), vec![3.0, 1.0, 1.0, 1.0]);
        assert_eq!(match_points(&[0.0, 1.0, 0.0, 1.0]), vec![0.5, 2.5, 0.5, 2.5]);
        assert_eq!(match_points(&[1.0, 2.0, 3.0, 4.0]), vec![0.0, 1.0, 2.0, 3.0]);
        let total: f64 = match_points(&[9.0, -2.0, 4.0, 4.0]).iter().sum();
        assert_eq!(total, 6.0);
    }

    #[test]
    fn pair_key_is_unordered() {
        assert_eq!(pair_key("b", "a"), pair_key("a", "b"));
        assert_eq!(pair_key("a", "b"), ("a".to_string(), "b".to_string()));
    }
}
