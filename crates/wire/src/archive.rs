//! The public archive (`docs/protocol.md`, "The public archive"): the finished games of tables
//! that were not private, as the Replays page lists them.

use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::game::MatchSummary;

/// The largest page size of the archive's list.
pub const ARCHIVE_PAGE_MAX: u32 = 100;

/// The archive's page size when none is asked for.
pub const ARCHIVE_PAGE: u32 = 20;

/// Who played a seat of an archived game, as the game's record names him.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArchivedSeat {
    /// The person's name, or the bot's name.
    pub name: String,
    /// A bot played the seat.
    pub bot: bool,
}

/// A finished public game in the archive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ArchivedGame {
    /// The table's id (its record: `GET /api/archive/games/{id}`; its replay: `/replay/{id}`).
    pub id: String,
    /// The game.
    pub game: GameKind,
    /// The table's name.
    pub name: String,
    /// When the match ended, milliseconds since the Unix epoch.
    pub finished_ms: i64,
    /// The four seats, in seat order.
    pub seats: Vec<ArchivedSeat>,
    /// The match's final score, as the archive's list shows it (Madiao: each seat's chips; Da
    /// Bai Fen: the teams' ranks, the deals each won and the winner); `null` where the server
    /// could not work it out from the table's log.
    #[serde(default)]
    pub score: Option<MatchSummary>,
}

/// `GET /api/archive/games`: one page of finished public games, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ArchivePage {
    /// The games of this page, newest first.
    pub games: Vec<ArchivedGame>,
    /// The `before` of the next page (older games), or null when this is the last.
    pub next: Option<String>,
}
