//! Ratings (`docs/ratings.md`): the leaderboards, a player's profile and a table's rating changes.

use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One account on a game's leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct LeaderboardEntry {
    /// The place on the leaderboard, from 1.
    pub rank: u32,
    /// The account's username.
    pub username: String,
    /// The Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Rated matches played.
    pub games: u32,
    /// The deviation is still high: the rating is provisional.
    pub provisional: bool,
}

/// `GET /api/ratings/{game}`: the accounts that played a rated match of the game, best first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct LeaderboardReply {
    /// The game.
    pub game: GameKind,
    /// The accounts of this page, best first.
    pub entries: Vec<LeaderboardEntry>,
    /// How many accounts the leaderboard holds.
    pub total: u32,
    /// How many accounts come before this page.
    pub offset: u32,
    /// The most entries a page holds.
    pub limit: u32,
    /// The offset of the next page, if there is one.
    pub next: Option<u32>,
}

/// A player's rating in one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GameRating {
    /// The game.
    pub game: GameKind,
    /// The Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility (how much the rating is expected to move).
    pub volatility: f64,
    /// Rated matches played.
    pub games: u32,
    /// Matches won (by the player's score against the others of the match).
    pub wins: u32,
    /// Matches lost.
    pub losses: u32,
    /// Matches drawn.
    pub draws: u32,
    /// The deviation is still high: the rating is provisional.
    pub provisional: bool,
}

/// How a rated match went for a player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RatedOutcome {
    /// More than half the points of its games.
    Win,
    /// Half.
    Draw,
    /// Less than half.
    Loss,
}

/// One rated match of a player, with the rating before and after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct RatedResult {
    /// The table (its record and replay are under this id).
    pub table: String,
    /// The game.
    pub game: GameKind,
    /// When the match ended, milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub at_ms: i64,
    /// The rating before the match.
    pub rating_before: f64,
    /// The rating after it.
    pub rating_after: f64,
    /// The deviation after it.
    pub deviation_after: f64,
    /// The points of the match's games (1 a win, ½ a draw).
    pub score: f64,
    /// How many games `score` is out of: one against each other seat the player was scored against.
    pub opponents: u32,
    /// How the match went for the player.
    pub outcome: RatedOutcome,
    /// The player forfeited (left, or lost on the clock).
    pub forfeited: bool,
}

/// One person's rating change in a rated match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct RatingChange {
    /// The seat the person played (0–3).
    pub seat: u8,
    /// The name shown at the table.
    pub name: String,
    /// The rating before the match.
    pub rating_before: f64,
    /// The rating after it.
    pub rating_after: f64,
    /// How the match went for the person.
    pub outcome: RatedOutcome,
    /// The person forfeited (left, or lost on the clock).
    pub forfeited: bool,
}

/// `GET /api/tables/{id}/ratings`: what a finished rated match changed, one entry per person
/// with an account (empty for a table that is not rated, or not finished yet).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TableRatings {
    /// The table's id.
    pub table: String,
    /// One entry per person with an account.
    pub changes: Vec<RatingChange>,
}

/// `GET /api/players/{name}`: an account's public profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct PlayerProfile {
    /// The account's username.
    pub username: String,
    /// The account's guest id: how seats and chat lines name him, and what muting, blocking and
    /// reporting him take.
    pub guest: String,
    /// When the account was made, milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub joined_ms: i64,
    /// The games it has a rating in.
    pub ratings: Vec<GameRating>,
    /// Its latest rated matches, newest first.
    pub recent: Vec<RatedResult>,
    /// Its rated matches for the rating history, oldest first (at most the latest
    /// [`PROFILE_HISTORY`]).
    pub history: Vec<RatedResult>,
}

/// The most rated matches a profile's history holds.
pub const PROFILE_HISTORY: u32 = 500;

/// The most rated matches a profile lists as recent.
pub const PROFILE_RECENT: usize = 20;

/// The largest page of a leaderboard.
pub const LEADERBOARD_PAGE_MAX: u32 = 100;
