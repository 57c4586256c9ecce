//! Duplicate events' bodies (`docs/events.md`, `docs/protocol.md` "Duplicate events"): a new
//! event, an event as its page shows it (its tables, the travelling score sheets, the
//! standings), and the list of events.

use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How an event ranks its players.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum EventScoring {
    /// The mean matchpoint percentage over the boards (the default).
    #[default]
    Matchpoints,
    /// The sum of the scores, in stakes.
    Total,
}

fn standard() -> String {
    "standard".to_string()
}

fn thirty() -> u32 {
    30
}

fn one() -> u8 {
    1
}

/// `POST /api/events`: a new event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct NewEvent {
    /// A name (the host's name and "event" when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    /// The game (`madiao`).
    #[ts(type = "GameKind")]
    pub game: GameKind,
    /// The rules preset.
    #[serde(default = "standard")]
    #[ts(optional, as = "Option<String>")]
    pub rules: String,
    /// Variants over the preset (not `game_length`: a board is one hand).
    #[serde(default)]
    #[ts(optional, as = "Option<cards::record::Variants>")]
    pub variants: cards::record::Variants,
    /// How many boards, 1 to 32.
    pub boards: u32,
    /// Tables of people, 1 to 16.
    pub tables: u32,
    /// People at each table, 1 to 4 (bots play the other seats).
    #[serde(default = "one")]
    #[ts(optional, as = "Option<u8>")]
    pub people_per_table: u8,
    /// Tables of `expert` bots only (the field's par), 0 to 2.
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub par_tables: u32,
    /// How the standings rank.
    #[serde(default)]
    #[ts(optional, as = "Option<EventScoring>")]
    pub scoring: EventScoring,
    /// Rated: when it is over, each person's rating moves by his comparisons with the field
    /// (`docs/events.md`, "Rated events"); only guests with an account enter it, and it needs
    /// at least two tables (of people or of the par).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub rated: bool,
    /// A person's turn clock, 5 to 3600 seconds.
    #[serde(default = "thirty")]
    #[ts(optional, as = "Option<u32>")]
    pub turn_seconds: u32,
    /// When it begins with whoever entered (milliseconds since the Unix epoch); without it, when
    /// full or when the host starts it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub start_at_ms: Option<i64>,
    /// A private event for friends: the usernames of the players the host invites, each one he
    /// follows (1 to 32). Only the host and they see the event and may enter it; each is sent
    /// an `invited` message. Absent: a public event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub invite: Option<Vec<String>>,
}

/// One seat of an event's table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct EventSeat {
    /// The name shown (a bot's: `bot:NAME`).
    pub name: String,
    /// A bot plays it.
    pub bot: bool,
}

/// One table of an event: the same seats play every board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct EventTable {
    /// Its number in the event, from 0.
    pub index: u32,
    /// A table of `expert` bots only: the field's par.
    pub par: bool,
    /// The four seats.
    pub seats: Vec<EventSeat>,
    /// The board it plays now (from 0); absent when it has played them all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub board: Option<u32>,
    /// The table (`/t/ID`) of each board, once made.
    pub table_ids: Vec<Option<String>>,
}

/// One table's line on a board's travelling score sheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TravellerLine {
    /// The event's table.
    pub table: u32,
    /// The board's table (`/t/ID`, its record at `/api/records/ID`).
    pub table_id: String,
    /// Each seat's score on the board, in stakes.
    pub scores: Vec<f64>,
    /// Each seat's matchpoint percentage among the tables that played the board.
    pub percent: Vec<f64>,
}

/// A board's travelling score sheet: every table's result on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct Traveller {
    /// The board, from 0.
    pub board: u32,
    /// Every table has played it.
    pub complete: bool,
    /// The tables that have, by table.
    pub lines: Vec<TravellerLine>,
}

/// One seat of one table in the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct EventStanding {
    /// 1 for the best; equal scores share a rank.
    pub rank: u32,
    /// The event's table.
    pub table: u32,
    /// The seat.
    pub seat: u8,
    /// The name shown.
    pub name: String,
    /// A bot.
    pub bot: bool,
    /// At a par table.
    pub par: bool,
    /// The boards it has a result on.
    pub boards: u32,
    /// Its score: the mean matchpoint percentage, or the total in stakes (see `scoring`).
    pub score: f64,
    /// Its total in stakes.
    pub total: f64,
    /// A person's rating before a rated event, once it is over and he has been rated (absent
    /// otherwise: a bot, an unrated event, one not over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating_before: Option<f64>,
    /// His rating after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating_after: Option<f64>,
}

/// Where the asking player sits in the event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct EventYou {
    /// His table in the event.
    pub table: u32,
    /// His seat.
    pub seat: u8,
    /// The board he plays now; absent once he has played them all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub board: Option<u32>,
    /// That board's table (`/t/ID`), once made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub table_id: Option<String>,
}

/// `GET /api/events/{id}`: an event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct EventInfo {
    /// The event's id (its page is `/events/ID`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// The host's name.
    pub host_name: String,
    /// The game.
    #[ts(type = "GameKind")]
    pub game: GameKind,
    /// The rules preset.
    pub rules: String,
    /// The variants over it.
    pub variants: cards::record::Variants,
    /// How many boards.
    pub boards: u32,
    /// Tables of people.
    pub tables: u32,
    /// People per table.
    pub people_per_table: u8,
    /// Tables of bots only (the par).
    pub par_tables: u32,
    /// How the standings rank.
    pub scoring: EventScoring,
    /// A person's turn clock, in seconds.
    pub turn_seconds: u32,
    /// When it begins, if scheduled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub start_at_ms: Option<i64>,
    /// Made, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// `open`, `playing` or `finished`.
    pub status: String,
    /// The entrants' names, in order of entry.
    pub entrants: Vec<String>,
    /// How many people it takes.
    pub capacity: u32,
    /// The asker has entered.
    pub entered: bool,
    /// The asker is the host.
    pub host: bool,
    /// The event's seed, in decimal, once it is finished (the boards can be dealt from it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seed: Option<String>,
    /// Its tables, once it has begun.
    pub event_tables: Vec<EventTable>,
    /// Each board's travelling score sheet (boards some table has played).
    pub travellers: Vec<Traveller>,
    /// The standings, best first.
    pub standings: Vec<EventStanding>,
    /// Where the asker sits, if he plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub you: Option<EventYou>,
    /// A private event: only its host and the players he invited see it and may enter it.
    #[serde(default)]
    pub private: bool,
    /// For a private event, the usernames of the players invited (empty for a public one).
    #[serde(default)]
    pub invited: Vec<String>,
    /// A rated event: its people's ratings move when it is over (`docs/events.md`).
    #[serde(default)]
    pub rated: bool,
}

/// An event in the list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct EventSummary {
    /// The event's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The host's name.
    pub host_name: String,
    /// The game.
    #[ts(type = "GameKind")]
    pub game: GameKind,
    /// How many boards.
    pub boards: u32,
    /// `open`, `playing` or `finished`.
    pub status: String,
    /// Entrants so far.
    pub entrants: u32,
    /// How many people it takes.
    pub capacity: u32,
    /// Made, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// A private event (listed only to its host and the players he invited).
    #[serde(default)]
    pub private: bool,
    /// A rated event.
    #[serde(default)]
    pub rated: bool,
}

/// `GET /api/events`: the newest events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct EventList {
    /// Newest first.
    pub events: Vec<EventSummary>,
}
