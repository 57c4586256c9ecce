//! Quick pairing's and tournaments' bodies (`docs/tournaments.md`, `docs/protocol.md`, "Play now",
//! "Tournaments").

use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `POST /api/play-now/{game}`'s body (it may be empty).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct PlayNowRequest {
    /// How long the player waits for people before bots fill his table, in seconds (5 to 300,
    /// default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub wait_seconds: Option<u32>,
}

/// Where a player stands in quick pairing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PlayNowState {
    /// Not waiting (never joined, left, or dropped after not asking for a while).
    Idle,
    /// Waiting in the game's queue.
    Waiting,
    /// Seated: `table` is his table.
    Seated,
}

/// The answer of every `/api/play-now/{game}` request: the player's state in the game's queue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct PlayNowStatus {
    /// The game.
    pub game: GameKind,
    /// Idle, waiting or seated.
    pub state: PlayNowState,
    /// The rating he is paired by (his account's in the game; a new player's otherwise).
    pub rating: f64,
    /// How many people wait for the game now (him included while he waits).
    pub waiting: u32,
    /// While waiting: since when, milliseconds since the Unix epoch.
    pub since_ms: Option<i64>,
    /// While waiting: when bots fill his table at the latest, if no one else comes.
    pub bots_ms: Option<i64>,
    /// The server's clock, milliseconds since the Unix epoch (for the countdown).
    pub now_ms: i64,
    /// Once seated: his table's id (`/t/{table}`).
    pub table: Option<String>,
    /// Once seated: his seat (0–3).
    pub seat: Option<u8>,
    /// Once seated: the other people at the table, by name.
    pub with: Vec<String>,
}

/// A tournament's format (`docs/tournaments.md`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TournamentKind {
    /// Rounds, players paired by score.
    Swiss,
    /// A time window, players paired as they become free.
    Arena,
}

/// `POST /api/tournaments`'s body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct NewTournament {
    /// Swiss or arena.
    pub kind: TournamentKind,
    /// The game.
    pub game: GameKind,
    /// Its name (default: "NAME's swiss" / "NAME's arena").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    /// Swiss: its rounds (1–20, default 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rounds: Option<u32>,
    /// Arena: its length in minutes (1–240, default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub minutes: Option<u32>,
    /// Arena: seconds from now to its start (0–86400, default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub starts_in_seconds: Option<u32>,
    /// Arena: how long the fewer than four free players wait before bots fill their table
    /// (5–120 s, default 20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub wait_seconds: Option<u32>,
    /// Its tables' turn clock (5–3600 s, default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_seconds: Option<u32>,
    /// Its tables play `game_length: hands:N` (Madiao only, 1–1000; default: the preset's length).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hands: Option<u32>,
    /// Its tables are rated (`docs/ratings.md`): only accounts create and join it, and a rated
    /// Madiao table plays at least 4 hands. Default false.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub rated: bool,
    /// Swiss: how long after a round is paired its people have to come to their tables (10–900
    /// s, default 120); whoever is not at his table then forfeits the match
    /// (`docs/tournaments.md`, "Absent players").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub deadline_seconds: Option<u32>,
}

/// A player's line in a tournament's standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TournamentStanding {
    /// His place, from 1.
    pub rank: u32,
    /// His guest id.
    pub guest: String,
    /// His name.
    pub name: String,
    /// His rating when he joined.
    pub rating: f64,
    /// His points.
    pub points: f64,
    /// His finished matches.
    pub matches: u32,
    /// Swiss: the points of his table mates (the tie-break); 0 in an arena.
    pub tiebreak: f64,
    /// He is at a table now (arena), or his table of the current round is still playing (swiss).
    pub playing: bool,
}

/// A table of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TournamentTable {
    /// Swiss: its round, from 1; arena: `null`.
    pub round: Option<u32>,
    /// The table's id, once it is made (`/t/{table}`).
    pub table: Option<String>,
    /// The people at it, by guest id, in seat order from seat 0.
    pub guests: Vec<String>,
    /// Their names.
    pub names: Vec<String>,
    /// Bots in the other seats.
    pub bots: u32,
    /// Each person's points once the match is over.
    pub points: Option<Vec<f64>>,
}

/// `GET /api/tournaments/{id}` (and each entry of the list, without standings and tables).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TournamentInfo {
    /// Its id.
    pub id: String,
    /// Swiss or arena.
    pub kind: TournamentKind,
    /// The game.
    pub game: GameKind,
    /// Its name.
    pub name: String,
    /// The guest who made it.
    pub host: String,
    /// `open` (players join; a swiss waits for its host to start it, an arena for its start),
    /// `running` or `finished`.
    pub status: String,
    /// Swiss: its rounds.
    pub rounds: Option<u32>,
    /// Swiss: the rounds paired so far.
    pub round: u32,
    /// Arena: its start and end, milliseconds since the Unix epoch.
    pub starts_ms: Option<i64>,
    /// Arena: its end.
    pub ends_ms: Option<i64>,
    /// The server's clock.
    pub now_ms: i64,
    /// How many players it has.
    pub players: u32,
    /// The standings, best first.
    pub standings: Vec<TournamentStanding>,
    /// Its tables are rated.
    pub rated: bool,
    /// Swiss: when the people of the current round must be at their tables (milliseconds since
    /// the Unix epoch), while some table of it plays; `null` otherwise.
    pub deadline_ms: Option<i64>,
    /// Swiss: the people who forfeit their match of the current round (not at their table at
    /// its deadline), by guest id.
    pub forfeits: Vec<String>,
    /// Its tables, newest first.
    pub tables: Vec<TournamentTable>,
}

/// `GET /api/tournaments`: the tournaments, the unfinished first, then newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TournamentList {
    /// Each without standings and tables.
    pub tournaments: Vec<TournamentInfo>,
}
