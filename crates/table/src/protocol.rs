//! The one protocol between clients and the server (`docs/protocol.md`): every WebSocket message
//! both ways, the HTTP API's bodies, the running match score. The browser client's TypeScript
//! declarations (`web/js/wire.d.ts`) are generated from these and the engines' types; a test
//! fails when the committed file is not what the generator gives now.
//!
//! Every WebSocket message is one JSON object in a text frame with a `type`. The client's
//! messages are [`ClientMsg`]; the server's are [`ServerMsg`], each at a table carrying the
//! table's version `v`.
//!
//! Fields that hold a game's own JSON (a view, an action, a result) are `Value`s here, since the
//! table code is generic over the game; their TypeScript type names both games' types.

use cards::Seat;
use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::game::Legal;
use crate::log::{ChatRow, TableStatus};

/// The largest page size of the lobby.
pub const LOBBY_PAGE_MAX: u32 = 200;

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
    /// The pause before the next hand; `ready`: the seats that pressed ready so far.
    NextHand { remaining_ms: u64, ready: Vec<Seat> },
    /// A finished trick is on show; the next lead after it.
    Trick { remaining_ms: u64 },
    /// It is a disconnected person's turn: a bot stands in when this runs out.
    Grace { seat: Seat, remaining_ms: u64 },
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
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
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
    /// Madiao: chips per stake.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stake: Option<u32>,
    /// The turn clock, in seconds.
    pub turn_seconds: u32,
    /// How fast the table's fixed clocks run.
    #[serde(default)]
    pub pace: crate::settings::Pace,
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
}

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Identifies the connection with a guest token (the first message).
    Hello {
        /// The token `POST /api/guests` gave.
        token: String,
    },
    /// Takes a seat at a table: the seat this guest already holds there, else `seat` if it is
    /// open, else the first open seat.
    Join {
        /// The table's id.
        table: String,
        /// The seat wanted (0–3).
        #[serde(default)]
        #[ts(optional)]
        seat: Option<u8>,
    },
    /// Watches a table as a spectator.
    Watch {
        /// The table's id.
        table: String,
    },
    /// An action of the seat, in the engine's JSON shape (`{"play": "M9"}`, `{"play": ["AS"]}`, …).
    Act {
        /// The action.
        #[ts(type = "MadiaoAction | DabaifenAction")]
        action: Value,
        /// The move number the action answers (the `move` of the last update); when given and no
        /// longer current, the action is refused as stale.
        #[serde(default, rename = "move")]
        #[ts(optional)]
        move_no: Option<u64>,
        /// The seat acting, if the client names it: refused unless it is the connection's own.
        #[serde(default)]
        #[ts(optional)]
        seat: Option<u8>,
    },
    /// A chat line for the table.
    Chat {
        /// The text (1–500 characters, no control characters).
        text: String,
    },
    /// Asks for the full state again (after a gap in `v`).
    Resync,
    /// Gives up the seat (it becomes open; a bot plays it meanwhile); the connection stays as a
    /// spectator.
    Leave,
    /// Takes the seat back from the bot that played for it after a timeout.
    Back,
    /// The host starts the match with bots in the open seats.
    Start,
    /// Ready for the next hand (skips the rest of the pause once every present person is ready).
    Next,
    /// Asks for a `pong`.
    Ping,
}

/// Why a message was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON.
    BadJson,
    /// JSON, but not a message of the protocol (missing or wrong fields).
    BadMessage,
    /// A `type` the protocol does not have.
    UnknownType,
    /// A message over the size limit.
    TooLarge,
    /// A binary frame (the protocol is text).
    Binary,
    /// Too many messages: this one was dropped.
    RateLimited,
    /// The first message must be `hello`.
    NotAuthenticated,
    /// A second `hello`.
    AlreadyAuthenticated,
    /// The token is unknown.
    BadToken,
    /// No such table.
    NoTable,
    /// The message needs a table: `join` or `watch` first.
    NotAtTable,
    /// The connection is at a table already.
    AlreadyAtTable,
    /// No seat is open.
    NoSeat,
    /// The seat asked for is not open.
    SeatTaken,
    /// Only a seated player can do this.
    NotSeated,
    /// Only the table's host can do this.
    NotHost,
    /// The match has not begun.
    NotStarted,
    /// The match has begun already.
    AlreadyStarted,
    /// Another seat is to act.
    NotYourTurn,
    /// The action names a seat that is not the connection's.
    NotYourSeat,
    /// The action is not legal now; the message says why.
    Illegal,
    /// The action answers a move that is no longer current.
    Stale,
    /// A request for the draw or a window that has already ended.
    TooLate,
    /// There is nothing to decide now.
    NothingToDecide,
    /// A chat line that is empty, too long, has control characters or nothing visible (format
    /// characters are stripped, not refused).
    BadChat,
    /// The table's storage failed; nothing changed, try again.
    Storage,
    /// The match is over.
    Finished,
    /// The server is shutting the table down or is overloaded.
    Unavailable,
    /// No valid `hello` came in time after the connection opened: it is closed.
    HelloTimeout,
    /// The guest holds as many WebSocket connections as the server allows: this one is closed.
    TooManyConnections,
}

/// An `error` message.
pub fn error(code: ErrorCode, message: impl Into<String>, v: Option<u64>) -> String {
    ServerMsg::Error(ErrorMsg { code, message: message.into(), v }).text()
}

/// Reads a client message: `Err` with the error to send when it is not JSON, not a message, or of
/// an unknown type.
pub fn parse(msg: &str) -> Result<ClientMsg, (ErrorCode, String)> {
    let v: Value =
        serde_json::from_str(msg).map_err(|e| (ErrorCode::BadJson, format!("not valid JSON: {e}")))?;
    let Some(obj) = v.as_object() else {
        return Err((ErrorCode::BadMessage, "a message is a JSON object with a \"type\"".into()));
    };
    let Some(ty) = obj.get("type") else {
        return Err((ErrorCode::BadMessage, "a message needs a \"type\"".into()));
    };
    let Some(ty) = ty.as_str().map(str::to_string) else {
        return Err((ErrorCode::BadMessage, "\"type\" must be a string".into()));
    };
    let ty = ty.as_str();
    const TYPES: [&str; 11] =
        ["hello", "join", "watch", "act", "chat", "resync", "leave", "back", "start", "next", "ping"];
    if !TYPES.contains(&ty) {
        let shown: String = ty.chars().take(40).collect();
        return Err((
            ErrorCode::UnknownType,
            format!("unknown message type {shown:?}; the types are {}", TYPES.join(", ")),
        ));
    }
    serde_json::from_value(v).map_err(|e| (ErrorCode::BadMessage, format!("{ty}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_parse_or_say_why_not() {
        assert_eq!(parse(r#"{"type":"hello","token":"x"}"#).unwrap(), ClientMsg::Hello { token: "x".into() });
        assert_eq!(
            parse(r#"{"type":"act","action":{"play":"M9"},"move":7}"#).unwrap(),
            ClientMsg::Act { action: json!({"play":"M9"}), move_no: Some(7), seat: None }
        );
        assert_eq!(
            parse(r#"{"type":"join","table":"t1"}"#).unwrap(),
            ClientMsg::Join { table: "t1".into(), seat: None }
        );
        assert_eq!(parse("{nope").unwrap_err().0, ErrorCode::BadJson);
        assert_eq!(parse("[1]").unwrap_err().0, ErrorCode::BadMessage);
        assert_eq!(parse(r#"{"x":1}"#).unwrap_err().0, ErrorCode::BadMessage);
        assert_eq!(parse(r#"{"type":3}"#).unwrap_err().0, ErrorCode::BadMessage);
        let (code, msg) = parse(r#"{"type":"fly"}"#).unwrap_err();
        assert_eq!(code, ErrorCode::UnknownType);
        assert!(msg.contains("\"fly\"") && msg.contains("hello, join"), "{msg}");
        let (code, msg) = parse(r#"{"type":"join","seat":1}"#).unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
        assert!(msg.contains("missing field `table`"), "{msg}");
        let (code, _) = parse(r#"{"type":"join","table":"t","seat":9999}"#).unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
    }

    #[test]
    fn errors_carry_code_message_and_version() {
        let e = error(ErrorCode::NotYourTurn, "it is seat 2's turn", Some(7));
        let v: Value = serde_json::from_str(&e).unwrap();
        assert_eq!(
            v,
            json!({"type": "error", "code": "not_your_turn", "message": "it is seat 2's turn", "v": 7})
        );
    }
}
