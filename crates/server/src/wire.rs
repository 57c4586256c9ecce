//! The typed shapes of what goes over the wire (`docs/protocol.md`): the server's WebSocket
//! messages, the HTTP API's bodies, the running match score. The browser client's TypeScript
//! declarations (`web/js/wire.d.ts`) are generated from these and the engines' types
//! ([`typescript`]); a test fails when the committed file is not what the generator gives now.
//!
//! Fields that hold a game's own JSON (a view, an action, a result) are `Value`s here, since the
//! table code is generic over the game; their TypeScript type names both games' types.

use cards::Seat;
use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::game::Legal;
use crate::protocol::ErrorCode;
use crate::store::{ChatRow, TableStatus};
use crate::table::{SeatInfo, TableSummary};

/// A chat line.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct ChatMessage {
    /// Position in the table's chat, from 0.
    pub seq: u64,
    /// When it was said, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The name shown.
    pub name: String,
    /// The speaker's seat, if seated.
    pub seat: Option<u8>,
    /// The speaker.
    pub guest: Option<String>,
    /// The text.
    pub text: String,
}

impl From<&ChatRow> for ChatMessage {
    fn from(c: &ChatRow) -> Self {
        ChatMessage {
            seq: c.seq,
            at_ms: c.at_ms,
            name: c.name.clone(),
            seat: c.seat,
            guest: c.guest.clone(),
            text: c.text.clone(),
        }
    }
}

/// What the table waits for.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Timer {
    /// A person's turn clock.
    Turn { seat: Seat, remaining_ms: u64 },
    /// A bot moves shortly.
    Bot { seat: Seat },
    /// The Da Bai Fen draw: a card every `every_ms`.
    Draw { every_ms: u64 },
    /// A decision window closes.
    Window { remaining_ms: u64 },
    /// The pause before the next hand.
    NextHand { remaining_ms: u64 },
}

/// What happened at the table (an `update`'s event).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableEvent {
    /// The match begins (hand 0 is dealt).
    Start,
    /// The next hand is dealt.
    HandStart { hand: u32 },
    /// Da Bai Fen: one more card of the draw.
    Draw { drawn: u8 },
    /// Da Bai Fen: the draw ended without a showing.
    DrawEnd,
    /// A move, as the recipient may see it.
    Action {
        seat: Seat,
        #[ts(type = "MadiaoAction | DabaifenAction | { \"slough\": null } | { \"bury\": null }")]
        action: Value,
        by_bot: bool,
    },
    /// A decision window opens.
    Window { closes_in_ms: u64 },
    /// It closed: who forced a redeal or annulled, if anyone.
    WindowClosed {
        #[ts(type = "{ \"redeal_forced_by\": Seat | null } | { \"annulled_by\": Seat | null }")]
        outcome: Value,
    },
}

/// The recipient of a `sync`.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct You {
    /// The seat, `null` for a spectator.
    pub seat: Option<Seat>,
    /// The guest.
    pub guest: String,
    /// The guest's name.
    pub name: String,
    /// True for the table's host.
    pub host: bool,
}

/// Madiao's running match score.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct MadiaoMatch {
    /// Hands finished.
    pub hands: usize,
    /// Each seat's total, in stakes.
    pub totals: [f64; 4],
    /// The seats that have banked.
    pub banked: [bool; 4],
    /// The next banker, `null` when he is drawn.
    pub next_banker: Option<Seat>,
    /// The match is over.
    pub over: bool,
}

/// Da Bai Fen's running match score.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct DabaifenMatch {
    /// Deals finished.
    pub hands: usize,
    /// The team ranks (team 0: seats 0 and 2).
    #[ts(type = "[DabaifenRank, DabaifenRank]")]
    pub ranks: [String; 2],
    /// The next starter.
    pub next_starter: Seat,
    /// Deals won by each team.
    pub deals_won: [u32; 2],
    /// The game is over.
    pub over: bool,
    /// The team that won the game.
    pub winner: Option<u8>,
}

/// The whole state of a table for one connection.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct SyncMsg {
    pub v: u64,
    #[ts(type = "TableSummary")]
    pub table: Value,
    pub you: You,
    pub hand: u32,
    #[serde(rename = "move")]
    pub move_no: u64,
    #[ts(type = "MadiaoView | DabaifenView | null")]
    pub view: Value,
    pub legal: Option<Legal>,
    pub timer: Option<Timer>,
    #[serde(rename = "match")]
    #[ts(type = "MadiaoMatch | DabaifenMatch | null")]
    pub match_: Value,
    #[ts(type = "Array<MadiaoResult | DabaifenResult>")]
    pub results: Vec<Value>,
    pub chat: Vec<ChatMessage>,
}

/// Something happened at the table.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct UpdateMsg {
    pub v: u64,
    pub event: TableEvent,
    pub hand: u32,
    #[serde(rename = "move")]
    pub move_no: u64,
    #[ts(type = "MadiaoView | DabaifenView | null")]
    pub view: Value,
    pub legal: Option<Legal>,
    pub timer: Option<Timer>,
    #[serde(rename = "match")]
    #[ts(type = "MadiaoMatch | DabaifenMatch | null")]
    pub match_: Value,
}

/// The seats changed.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct SeatsMsg {
    pub v: u64,
    pub seats: Vec<SeatInfo>,
    pub spectators: usize,
    pub status: TableStatus,
    pub timer: Option<Timer>,
}

/// A chat line was said.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct ChatMsg {
    pub v: u64,
    pub message: ChatMessage,
}

/// What an `ack` answers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AckWhat {
    /// A request during the draw or a window (with the seat's `legal` as it now stands).
    Request,
    /// `back`.
    Back,
    /// `next`.
    Next,
}

/// A request was taken.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct AckMsg {
    pub v: u64,
    pub what: AckWhat,
    /// For a request: the seat's legal actions as they now stand.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable, as = "Option<Legal>")]
    pub legal: Option<Option<Legal>>,
}

/// A message was refused.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct ErrorMsg {
    pub code: ErrorCode,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub v: Option<u64>,
}

/// A guest's public identity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GuestInfo {
    pub id: String,
    pub name: String,
}

/// The connection is identified.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct WelcomeMsg {
    pub guest: GuestInfo,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    Welcome(WelcomeMsg),
    Sync(SyncMsg),
    Update(UpdateMsg),
    Seats(SeatsMsg),
    Chat(ChatMsg),
    Ack(AckMsg),
    Error(ErrorMsg),
    Pong,
}

impl ServerMsg {
    /// The message as a text frame's payload.
    pub fn text(&self) -> axum::extract::ws::Utf8Bytes {
        axum::extract::ws::Utf8Bytes::from(serde_json::to_string(self).unwrap_or_default())
    }
}

// ---------------------------------------------------------------------------------------------
// HTTP

/// `POST /api/guests`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct NewGuestReply {
    pub id: String,
    pub name: String,
    /// The guest's secret.
    pub token: String,
}

/// One game of `GET /api/games`.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct GameInfo {
    pub game: GameKind,
    /// Each preset's variants, by name.
    #[ts(type = "Record<string, Record<string, string>>")]
    pub presets: serde_json::Map<String, Value>,
    pub bots: Vec<String>,
    pub default_bot: String,
}

/// `GET /api/games`.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct GamesReply {
    pub games: Vec<GameInfo>,
}

/// `GET /api/tables?offset=K&limit=N`: one page of the lobby.
#[derive(Clone, Debug, Serialize, TS)]
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

/// `POST /api/tables`'s answer.
#[derive(Clone, Debug, Serialize, TS)]
pub struct NewTableReply {
    pub table: TableSummary,
    /// The invite link.
    pub invite: String,
}

/// `GET /api/tables/{id}` for a finished table no longer loaded.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct TableStub {
    pub id: String,
    #[ts(type = "GameKind")]
    pub game: String,
    pub status: TableStatus,
    pub created_ms: i64,
}

/// An HTTP error's body.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct ApiErrorBody {
    pub error: ApiErrorDetail,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct ApiErrorDetail {
    /// `bad_request`, `bad_name`, `bad_token`, `no_table`, `not_finished`, `too_many_tables`, `no_replay`,
    /// `no_hand`, `not_json`, `record_too_large`, `too_many_posts`, `busy`, `internal`.
    pub code: String,
    pub message: String,
}

/// The TypeScript declarations of every wire type, as one `.d.ts` file (`web/js/wire.d.ts`).
pub fn typescript() -> String {
    use crate::game::LeadGroup;
    use crate::http::{NewTable, SeatChoice};
    use crate::protocol::ClientMsg;
    use crate::replay::{ReplayEvent, ReplayHand, ReplayHandOutline, ReplayOutline, ReplayStep};

    let cfg = ts_rs::Config::new().with_large_int("number");
    let mut decls: Vec<(String, String)> = Vec::new();
    macro_rules! decl {
        ($($t:ty),* $(,)?) => {$(
            decls.push((<$t as TS>::ident(&cfg), <$t as TS>::decl(&cfg)));
        )*};
    }
    decl!(
        // The vocabulary.
        Seat,
        cards::BySeat<()>,
        cards::Halves,
        cards::record::Variants,
        madiao::Variants,
        dabaifen::Variants,
        GameKind,
        // Madiao.
        madiao::Card,
        madiao::Action,
        madiao::Phase,
        madiao::PlayKind,
        madiao::View,
        madiao::view::RedealChoice,
        madiao::view::TrickView,
        madiao::view::PlayView,
        madiao::view::Declared,
        madiao::Settlement,
        madiao::Line,
        cards::record::MadiaoResult,
        cards::record::MadiaoOutcome,
        // Da Bai Fen.
        dabaifen::Card,
        dabaifen::Rank,
        dabaifen::Action,
        dabaifen::Phase,
        dabaifen::Outcome,
        dabaifen::Declaration,
        dabaifen::KittyTurn,
        dabaifen::Trump,
        dabaifen::View,
        dabaifen::view::TrickView,
        dabaifen::view::PlayView,
        dabaifen::Account,
        dabaifen::Event,
        dabaifen::DealResult,
        cards::record::DabaifenResult,
        cards::record::DabaifenOutcome,
        cards::record::TrumpRecord,
        // The server.
        TableStatus,
        SeatInfo,
        TableSummary,
        LeadGroup,
        Legal,
        ErrorCode,
        ChatMessage,
        Timer,
        TableEvent,
        You,
        MadiaoMatch,
        DabaifenMatch,
        SyncMsg,
        UpdateMsg,
        SeatsMsg,
        ChatMsg,
        AckWhat,
        AckMsg,
        ErrorMsg,
        GuestInfo,
        WelcomeMsg,
        ServerMsg,
        ClientMsg,
        NewGuestReply,
        GameInfo,
        GamesReply,
        LobbyReply,
        SeatChoice,
        NewTable,
        NewTableReply,
        TableStub,
        ApiErrorBody,
        ApiErrorDetail,
        ReplayOutline,
        ReplayHandOutline,
        ReplayHand,
        ReplayStep,
        ReplayEvent,
        cards::record::MadiaoAction,
        cards::record::DabaifenAction,
    );
    let mut out = String::from(
        "// The wire types of the yezi server (docs/protocol.md), generated from the Rust types by\n\
         // `server::wire::typescript` (crates/server/src/wire.rs). Do not edit: after changing a\n\
         // type, run `YEZI_BLESS=1 cargo test -p server --test wire_types` to write this file again.\n",
    );
    for (_, d) in &decls {
        out.push('\n');
        out.push_str("export ");
        out.push_str(d);
        out.push('\n');
    }
    out
}

/// Every type named in the declarations that is not declared (a type left out of
/// [`typescript`]'s list): empty when the file is complete.
pub fn undeclared(ts: &str) -> Vec<String> {
    let declared: std::collections::BTreeSet<&str> = ts
        .lines()
        .filter_map(|l| l.strip_prefix("export type "))
        .filter_map(|l| l.split([' ', '<']).next())
        .collect();
    let builtin = ["Array", "Record", "Partial", "string", "number", "boolean", "null", "true", "false", "T"];
    let mut missing = std::collections::BTreeSet::new();
    let mut word = String::new();
    let mut in_string = false;
    let code = |l: &&str| {
        let t = l.trim_start();
        !(t.starts_with("//") || t.starts_with("/**") || t.starts_with('*'))
    };
    for c in ts.lines().filter(code).flat_map(|l| l.chars().chain(std::iter::once('\n'))) {
        if c == '"' {
            in_string = !in_string;
            word.clear();
            continue;
        }
        if in_string {
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        // A type name begins with a capital letter and is not a field (followed by `:` or `?`).
        if word.starts_with(|ch: char| ch.is_ascii_uppercase())
            && c != ':'
            && c != '?'
            && !declared.contains(word.as_str())
            && !builtin.contains(&word.as_str())
        {
            missing.insert(word.clone());
        }
        word.clear();
    }
    missing.into_iter().collect()
}
