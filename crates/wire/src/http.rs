//! The HTTP API's bodies (`docs/protocol.md`, "HTTP"): guests, the lobby, a new table, the
//! server's figures, and the body of every refusal.

use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::error::{ApiCode, ApiReason};
use crate::game::TableStatus;

/// The largest page size of the lobby.
pub const LOBBY_PAGE_MAX: u32 = 200;

/// `POST /api/guests`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct NewGuestReply {
    /// The new guest's id.
    pub id: String,
    /// The name given to the guest.
    pub name: String,
    /// The guest's secret.
    pub token: String,
}

/// One game of `GET /api/games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GameInfo {
    /// The game.
    pub game: GameKind,
    /// Each preset's variants, by name.
    #[ts(type = "Record<string, Record<string, string>>")]
    pub presets: serde_json::Map<String, Value>,
    /// The names of the bots that may play a seat.
    pub bots: Vec<String>,
    /// The bot a seat gets when none is named.
    pub default_bot: String,
    /// The bots of `bots` kept for research (Madiao's `pimc-coalition`, `pimc-mixed` and
    /// `learned`): a seat may name them through the API, but a lobby does not offer them.
    #[serde(default)]
    pub research_bots: Vec<String>,
}

/// `GET /api/games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GamesReply {
    /// Each game the server plays.
    pub games: Vec<GameInfo>,
}

/// `GET /api/tables?offset=K&limit=N`: one page of the lobby.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct LobbyReply {
    /// The tables of this page, in the lobby's order (most open seats first, then oldest).
    pub tables: Vec<TableSummary>,
    /// How many tables the whole lobby lists.
    pub total: u32,
    /// The position of this page's first table in the lobby.
    pub offset: u32,
    /// The page size used.
    pub limit: u32,
    /// The `offset` of the next page, or null when this is the last.
    pub next: Option<u32>,
}

/// `POST /api/guests`'s body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NewGuest {
    /// The name shown at tables.
    pub name: String,
}

/// `GET /api/stats`: the server's load.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct StatsReply {
    /// Tables loaded.
    pub tables: u64,
    /// Open WebSocket connections.
    pub connections: u64,
    /// The server's resident memory (bytes), where the system tells it.
    pub rss_bytes: Option<u64>,
    /// The server's peak resident memory (bytes), where the system tells it.
    pub peak_rss_bytes: Option<u64>,
    /// The storage backend (`sqlite`, `postgres`).
    pub backend: String,
    /// Steps of a table's writes this node tried after another node had taken the table's lease
    /// over, all refused by the database (fencing): a stale owner's attempts since the node
    /// started; always 0 on SQLite.
    pub fenced_writes: u64,
    /// Tables this node stopped since it started because it found it no longer held their lease
    /// (at a renewal, or when it claimed one again in a newer epoch), or because it had not
    /// renewed their lease for nearly a lease's length by its own clock; always 0 on SQLite.
    pub leases_lost: u64,
    /// The operator's external bots that have played since the server started (`--bots`), with
    /// the decisions they failed (played for them as the first legal action), by cause.
    pub external_bots: Vec<ExternalBotCounts>,
}

/// An external bot's decisions at this server since it started, and those it failed by cause
/// (docs/bot-protocol.md, "Errors and fallbacks").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExternalBotCounts {
    /// The bot's name in the operator's file.
    pub name: String,
    /// Decisions asked of it.
    pub decisions: u64,
    /// Answers naming an action that was not legal.
    pub illegal: u64,
    /// Answers that were not a `yezi-bot/1` message of the expected shape.
    pub malformed: u64,
    /// No answer within the time limit.
    pub timeouts: u64,
    /// The process could not start, exited or closed its output.
    pub crashes: u64,
}

/// A seat of a new table (`POST /api/tables`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatChoice {
    /// The creator sits here.
    Me,
    /// A bot (the default bot when no name is given).
    Bot {
        /// The bot's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        bot: Option<String>,
    },
    /// Open for a person.
    Open,
}

/// `POST /api/tables`'s body (see `docs/protocol.md` for the defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct NewTable {
    /// The game.
    pub game: GameKind,
    /// The rules preset.
    #[serde(default = "standard")]
    #[ts(optional, as = "Option<String>")]
    pub rules: String,
    /// Variants overriding the preset.
    #[serde(default)]
    #[ts(optional, as = "Option<cards::record::Variants>")]
    pub variants: cards::record::Variants,
    /// Madiao: chips per stake; with `stake_max`, the lowest stake the banker may name.
    #[serde(default = "two")]
    #[ts(optional, as = "Option<u32>")]
    pub stake: u32,
    /// Madiao: the highest stake the banker may name for a hand (§2); absent or equal to
    /// `stake`, the stake is fixed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stake_max: Option<u32>,
    /// The turn clock, in seconds.
    #[serde(default = "thirty")]
    #[ts(optional, as = "Option<u32>")]
    pub turn_seconds: u32,
    /// No clock for the people (`turn_seconds` and `bank_seconds` are then unused). Absent: untimed
    /// when the creator is the only person and the other three seats are bots, timed otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub untimed: Option<bool>,
    /// Each person's time bank for the match, in seconds (0–600): drawn on when a turn clock runs
    /// out, before a bot stands in. Absent: 60.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bank_seconds: Option<u32>,
    /// The table's name (default: "NAME's table", after its creator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    /// Not listed in the lobby.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub private: bool,
    /// The four seats (default: the creator, then three of the default bot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seats: Option<Vec<SeatChoice>>,
    /// How fast the table's fixed clocks run (default `normal`).
    #[serde(default)]
    #[ts(optional, as = "Option<Pace>")]
    pub pace: Pace,
    /// Seconds before a bot stands in for a seated person whose connection dropped (0–120,
    /// default 15).
    #[serde(default = "fifteen")]
    #[ts(optional, as = "Option<u32>")]
    pub grace_seconds: u32,
    /// Madiao: how the table's deck draws the zero cash (`unnamed`, the default, `blank` or
    /// `wang_ying`; the figures are presentation only, `docs/rules/madiao.md` §1).
    #[serde(default)]
    #[ts(optional, as = "Option<madiao::ZeroCash>")]
    pub zero_cash: madiao::ZeroCash,
    /// A rated table: its match changes its players' ratings (`docs/ratings.md`). Only a guest
    /// with an account may create one or take a seat at one (`account_required`).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub rated: bool,
}

impl NewTable {
    /// A table of `game` with every default: the standard rules, a stake of 2, a 30 s turn
    /// clock, the normal pace, a 15 s grace period, listed, the creator and three bots.
    pub fn new(game: GameKind) -> NewTable {
        NewTable {
            game,
            rules: standard(),
            variants: cards::record::Variants::default(),
            stake: two(),
            stake_max: None,
            turn_seconds: thirty(),
            untimed: None,
            bank_seconds: None,
            name: None,
            private: false,
            seats: None,
            pace: Pace::default(),
            grace_seconds: fifteen(),
            zero_cash: madiao::ZeroCash::default(),
            rated: false,
        }
    }
}

impl NewTable {
    /// Whether the table plays untimed: as asked, else when its creator is its only person, the
    /// other three seats bots (the default seats included); a rated table never (`docs/ratings.md`).
    pub fn untimed(&self) -> bool {
        let solo = self.seats.as_deref().is_none_or(|seats| {
            seats.iter().filter(|c| **c == SeatChoice::Me).count() == 1
                && seats.iter().all(|c| matches!(c, SeatChoice::Me | SeatChoice::Bot { .. }))
        });
        !self.rated && self.untimed.unwrap_or(solo)
    }

    /// Each person's time bank, in seconds, as asked, else
    /// [`BANK_DEFAULT`]; none at an untimed table.
    pub fn bank(&self) -> u32 {
        if self.untimed() { 0 } else { self.bank_seconds.unwrap_or(BANK_DEFAULT) }
    }
}

fn fifteen() -> u32 {
    15
}

fn standard() -> String {
    "standard".into()
}
fn two() -> u32 {
    2
}
fn thirty() -> u32 {
    30
}

/// `POST /api/tables`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct NewTableReply {
    /// The new table.
    pub table: TableSummary,
    /// The invite link.
    pub invite: String,
}

/// `GET /api/tables/{id}` for a finished table no longer loaded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TableStub {
    /// The table's id.
    pub id: String,
    /// The game (`madiao` or `dabaifen`).
    #[ts(type = "GameKind")]
    pub game: String,
    /// Where the table is in its life.
    pub status: TableStatus,
    /// When the table was made, milliseconds since the Unix epoch.
    pub created_ms: i64,
}

/// An HTTP error's body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ApiErrorBody {
    /// What went wrong.
    pub error: ApiErrorDetail,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ApiErrorDetail {
    /// What kind of error.
    pub code: ApiCode,
    /// What went wrong, in words (English).
    pub message: String,
    /// Which of the code's refusals, where one code has several (`event_closed`); absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<ApiReason>,
}

/// Who holds a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person (a guest).
    Person,
    /// A bot named by the table.
    Bot,
    /// Nobody yet: a person may take it (a bot plays it while a match runs).
    Open,
}

/// A seat as the lobby and the clients see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SeatInfo {
    /// 0–3.
    pub seat: u8,
    /// Who holds the seat.
    pub kind: SeatKind,
    /// The name shown (`bot:NAME` for a bot).
    pub name: Option<String>,
    /// The bot's name, for a bot seat.
    pub bot: Option<String>,
    /// The guest holding a person's seat.
    pub guest: Option<String>,
    /// A person's seat has a live connection.
    pub present: bool,
    /// A bot is playing for the person after his clock ran out (until he is back).
    pub away: bool,
    /// A bot plays this seat now (a bot seat, an open seat, or an absent or away person); false
    /// during a disconnected person's grace period.
    pub bot_plays: bool,
    /// For a seated person with no connection: the time left before a bot stands in for him
    /// (`null` otherwise).
    #[serde(default)]
    pub grace_ms: Option<u64>,
    /// An open seat kept for a person invited to a rematch: his name (only he may take it,
    /// until the match begins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub invited: Option<String>,
}

/// A table as the lobby and `GET /api/tables/{id}` show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TableSummary {
    /// The table's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The game.
    pub game: GameKind,
    /// The preset.
    pub rules: String,
    /// Every variant in force.
    #[ts(type = "Record<string, string>")]
    pub variants: serde_json::Map<String, Value>,
    /// Madiao: chips per stake (the lowest stake when the banker names it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stake: Option<u32>,
    /// Madiao: the highest stake the banker may name, when it is above `stake`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stake_max: Option<u32>,
    /// The turn clock, in seconds.
    pub turn_seconds: u32,
    /// The people play without a clock.
    #[serde(default)]
    pub untimed: bool,
    /// Each person's time bank for the match, in seconds (0: none).
    #[serde(default)]
    pub bank_seconds: u32,
    /// How fast the table's fixed clocks run.
    #[serde(default)]
    pub pace: Pace,
    /// How long after a seated person's connection drops a bot stands in for him, in seconds.
    #[serde(default)]
    pub grace_seconds: u32,
    /// Not listed in the lobby.
    pub private: bool,
    /// Waiting, playing or finished.
    pub status: TableStatus,
    /// The guest who created it.
    pub host: Option<String>,
    /// The four seats.
    pub seats: Vec<SeatInfo>,
    /// How many seats are open.
    pub open_seats: usize,
    /// How many connections watch.
    pub spectators: usize,
    /// Hands finished.
    pub hands: usize,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Madiao: how the table's deck draws the zero cash, so that every viewer draws the same
    /// deck (absent for Da Bai Fen; a client reads an absent value as `unnamed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub zero_cash: Option<madiao::ZeroCash>,
    /// A rated table: its match changes its players' ratings; only guests with an account sit
    /// at it (`docs/ratings.md`).
    #[serde(default)]
    pub rated: bool,
    /// A board of a rated event: not rated itself, but with no hints, tracker, take-backs or
    /// pauses, as at a rated table (`docs/events.md`, "Rated events"). Absent: false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub no_aids: bool,
}

/// How fast a table's fixed clocks run: the decision windows, the Da Bai Fen draw, and the time
/// a finished trick stays on show. A table whose four seats are all bots plays `fast`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// Twice the server's base timing.
    Relaxed,
    /// The server's base timing.
    #[default]
    Normal,
    /// A quarter of the server's base timing.
    Fast,
}

impl Pace {
    /// `base` milliseconds at this pace.
    pub fn scale(self, base: u64) -> u64 {
        match self {
            Pace::Relaxed => base.saturating_mul(2),
            Pace::Normal => base,
            Pace::Fast => base / 4,
        }
    }

    /// Reads a pace's name.
    pub fn parse(s: &str) -> Option<Pace> {
        match s {
            "relaxed" => Some(Pace::Relaxed),
            "normal" => Some(Pace::Normal),
            "fast" => Some(Pace::Fast),
            _ => None,
        }
    }
}

/// The time bank of a new table with several people (or a timed table whose creator did not
/// choose one), in seconds.
pub const BANK_DEFAULT: u32 = 60;

/// `GET /api/tables/{id}/share`: the host's share token of his table's game, and the paths that
/// carry it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ShareReply {
    /// The table.
    pub table: String,
    /// Whether the table is private (a public table's game needs no token).
    pub private: bool,
    /// The share token: whoever holds it may see the game once it is finished.
    pub token: String,
    /// Whether the match is finished (the token opens nothing before).
    pub finished: bool,
    /// The replay's path with the token.
    pub replay: String,
    /// The record's path with the token.
    pub record: String,
}

/// `GET /readyz`: whether the node takes new work, and if not, why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReadyReply {
    /// The node is ready.
    pub ready: bool,
    /// Why it is not (absent when it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
}

/// The query of a private game's record (`GET /api/records/{id}?share=TOKEN`): its share token.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareQuery {
    /// The game's share token ([`ShareReply`]).
    #[serde(default)]
    pub share: Option<String>,
}
