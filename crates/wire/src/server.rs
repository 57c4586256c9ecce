//! What the server sends over the WebSocket: [`ServerMsg`] and the messages it carries, each at a
//! table with the table's version `v` (`docs/protocol.md`).

use cards::Seat;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ApiCode, ErrorCode};
use crate::game::{
    ActAction, GameView, HandResult, Legal, MatchSummary, PublicAction, TableStatus, Tracker, WindowOutcome,
};
use crate::http::{SeatInfo, TableSummary};
use crate::present;

/// A chat line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
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

/// What the table waits for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Timer {
    /// A person's turn clock (no `remaining_ms` at an untimed table). `bank_ms`: at a table with
    /// time banks, what is left of the seat's bank, drawn on once `remaining_ms` is spent.
    Turn {
        /// The seat whose turn it is.
        seat: Seat,
        /// What is left of the turn clock, in milliseconds (absent at an untimed table).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        remaining_ms: Option<u64>,
        /// What is left of the seat's time bank, in milliseconds (only at a table with time banks).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        bank_ms: Option<u64>,
    },
    /// A bot moves shortly.
    Bot {
        /// The seat the bot plays.
        seat: Seat,
    },
    /// The Da Bai Fen draw: a card every `every_ms`.
    Draw {
        /// The time between two cards of the draw, in milliseconds.
        every_ms: u64,
    },
    /// A decision window closes.
    Window {
        /// Until the window closes, in milliseconds.
        remaining_ms: u64,
    },
    /// The pause before the next hand (no `remaining_ms` at an untimed table: it waits for the
    /// people); `ready`: the seats that pressed ready so far.
    NextHand {
        /// Until the next hand is dealt, in milliseconds (absent at an untimed table).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        remaining_ms: Option<u64>,
        /// The seats that pressed ready so far.
        ready: Vec<Seat>,
    },
    /// A finished trick is on show; the next lead after it.
    Trick {
        /// Until the trick is cleared and the next lead is due, in milliseconds.
        remaining_ms: u64,
    },
    /// It is a disconnected person's turn: a bot stands in when this runs out.
    Grace {
        /// The seat whose person is disconnected.
        seat: Seat,
        /// Until a bot stands in, in milliseconds.
        remaining_ms: u64,
    },
    /// The player alone with bots paused the match: every clock and the bots wait until he
    /// resumes it.
    Paused,
}

/// What happened at the table (an `update`'s event).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableEvent {
    /// The match begins (hand 0 is dealt).
    Start,
    /// The next hand is dealt.
    HandStart {
        /// The hand dealt, from 0.
        hand: u32,
    },
    /// Da Bai Fen: one more card of the draw.
    Draw {
        /// How many cards have been drawn in all.
        drawn: u8,
    },
    /// Da Bai Fen: the draw ended without a showing.
    DrawEnd,
    /// A move, as the recipient may see it.
    Action {
        /// The seat that moved.
        seat: Seat,
        /// The move as the recipient may see it (another seat's slough or burial is hidden).
        action: PublicAction,
        /// A bot made it (a bot's seat, or a bot standing in for a person).
        by_bot: bool,
    },
    /// Madiao: the banker named the stake of the hand, which is now dealt.
    Stake {
        /// The banker.
        seat: Seat,
        /// The stake named, in chips.
        stake: u32,
        /// A bot named it, or the banker's clock ran out and it is the lowest.
        by_bot: bool,
    },
    /// A decision window opens.
    Window {
        /// Until the window closes, in milliseconds.
        closes_in_ms: u64,
    },
    /// The seat took back its last play of the hand: `actions` actions in all (its play and the
    /// answers after it) are undone, and the view is the hand as it was before them.
    TakeBack {
        /// The seat that took back its play.
        seat: Seat,
        /// How many actions were undone.
        actions: u32,
    },
    /// It closed: who forced a redeal or annulled, if anyone.
    WindowClosed {
        /// Who forced a redeal (Madiao) or annulled (Da Bai Fen), if anyone.
        outcome: WindowOutcome,
    },
}

/// The recipient of a `sync`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
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

/// The whole state of a table for one connection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct SyncMsg {
    /// The table's version: the number of events it has broadcast.
    pub v: u64,
    /// The table: its name, game, settings and seats.
    pub table: TableSummary,
    /// Who this connection is at the table.
    pub you: You,
    /// The hand of the match, from 0.
    pub hand: u32,
    /// The moves everyone has seen in the match (an `act` may quote it).
    #[serde(rename = "move")]
    pub move_no: u64,
    /// What this connection may see of the hand (`null` before the match begins, and before a
    /// Madiao hand whose stake is still to be named is dealt).
    #[ts(type = "MadiaoView | DabaifenView | null")]
    pub view: Option<GameView>,
    /// The legal actions of this connection's seat now (`null` when it has nothing to decide, and
    /// for a spectator).
    pub legal: Option<Legal>,
    /// What the table waits for (`null` when waiting for the match to begin, or finished).
    pub timer: Option<Timer>,
    /// The running score of the match (`null` before it begins).
    #[serde(rename = "match")]
    pub match_: Option<MatchSummary>,
    /// The results of the finished hands, in the record format.
    pub results: Vec<HandResult>,
    /// The last chat lines (at most 30).
    pub chat: Vec<ChatMessage>,
    /// The names of the people watching (not seated), one per person, at most
    /// [`WATCHERS_SHOWN`] (`table.spectators` counts every connection watching).
    #[serde(default)]
    pub watchers: Vec<String>,
    /// The table of the rematch the host offered at the end of this match, if he did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rematch: Option<String>,
    /// The commitment to the current hand's deal (as its `deal` message gave it), once the
    /// match has begun.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub commitment: Option<String>,
}

/// Something happened at the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct UpdateMsg {
    /// The table's version after this event (one more than the previous event's).
    pub v: u64,
    /// What happened.
    pub event: TableEvent,
    /// The hand of the match, from 0.
    pub hand: u32,
    /// The moves everyone has seen in the match (an `act` may quote it).
    #[serde(rename = "move")]
    pub move_no: u64,
    /// The recipient's view of the hand after the event.
    #[ts(type = "MadiaoView | DabaifenView | null")]
    pub view: Option<GameView>,
    /// The recipient's legal actions after the event.
    pub legal: Option<Legal>,
    /// What the table waits for now.
    pub timer: Option<Timer>,
    /// The running score of the match.
    #[serde(rename = "match")]
    pub match_: Option<MatchSummary>,
}

/// The seats changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct SeatsMsg {
    /// The table's version after this event.
    pub v: u64,
    /// Who holds each seat, seat 0 first.
    pub seats: Vec<SeatInfo>,
    /// How many connections watch the table.
    pub spectators: usize,
    /// The names of the people watching, as in a `sync`.
    #[serde(default)]
    pub watchers: Vec<String>,
    /// Where the table is in its life (waiting, playing, finished).
    pub status: TableStatus,
    /// What the table waits for now.
    pub timer: Option<Timer>,
}

/// What the host did to the table (a `host` message to everyone at it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HostEvent {
    /// The host closed the table: the match is over, without a record. The last message of the
    /// table; the connections stay open (the client may go elsewhere).
    Closed {
        /// The host's name.
        by: String,
        /// The hands completed before it was closed.
        hands: usize,
        /// The host ended the match and kept it: its finished hands are stored as a record (the
        /// match is `finished`, an ended match in replays and My games).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        #[ts(optional, as = "Option<bool>")]
        kept: bool,
    },
    /// The host removed an away person from his seat, which is open now.
    Removed {
        /// The seat.
        seat: Seat,
        /// The person's name.
        name: String,
    },
    /// The host offers a rematch: a new table with the same game, settings and seats, where
    /// each person of this one may take his seat.
    Rematch {
        /// The new table's id.
        table: String,
    },
}

/// The host did something to the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct HostMsg {
    /// The table's version after this event.
    pub v: u64,
    /// What the host did.
    pub event: HostEvent,
}

/// The most spectators' names a `sync` or `seats` message lists.
pub const WATCHERS_SHOWN: usize = 50;

/// A chat line was said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ChatMsg {
    /// The table's version after this event.
    pub v: u64,
    /// The line said.
    pub message: ChatMessage,
}

/// `chat_removed`: the operator removed a chat line of the table; a client drops it from what
/// it shows (`docs/protocol.md`, "Moderation").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChatRemovedMsg {
    /// The table's version after this event.
    pub v: u64,
    /// The number (`seq`) of the line removed.
    #[ts(type = "number")]
    pub seq: u64,
}

/// What an `ack` answers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct AckMsg {
    /// The table's version now (an `ack` does not raise it).
    pub v: u64,
    /// What was taken.
    pub what: AckWhat,
    /// For a request: the seat's legal actions as they now stand.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    #[ts(optional = nullable, as = "Option<Legal>")]
    pub legal: Option<Option<Legal>>,
}

/// A message was refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ErrorMsg {
    /// Why it was refused, for programs.
    pub code: ErrorCode,
    /// Why it was refused, in words, naming the seat and the cards.
    pub message: String,
    /// The table's version now, when the connection is at a table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub v: Option<u64>,
}

/// A guest's public identity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GuestInfo {
    /// The guest's id.
    pub id: String,
    /// The name shown for the guest.
    pub name: String,
}

/// The connection is identified.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct WelcomeMsg {
    /// The guest the connection is identified as.
    pub guest: GuestInfo,
}

/// Why a hint is the move it is, in words (`docs/protocol.md`, "Hints and the tracker").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HintReason {
    /// The situation: `lead_top`, `capture`, `slough_fellow_wins`, `lead_tops`, `trump_in`, …
    pub kind: String,
    /// In English.
    pub en: String,
    /// In Chinese.
    pub zh: String,
}

/// The answer to a `hint`: the move the hint bot would make for the seat now, and why. Sent only
/// to the connection that asked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct HintMsg {
    /// The table's version now.
    pub v: u64,
    /// The move it answers (the `move` of the last update).
    #[serde(rename = "move")]
    pub move_no: u64,
    /// The seat the hint is for.
    pub seat: Seat,
    /// The action, in the engine's JSON shape (as an `act` sends it).
    #[ts(type = "MadiaoAction | DabaifenAction")]
    pub action: ActAction,
    /// Why the hint bot makes that move.
    pub reason: HintReason,
}

/// The answer to a `tracker`: the card tracker of the seat's view now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TrackerMsg {
    /// The table's version now.
    pub v: u64,
    /// The move it answers (the `move` of the last update).
    #[serde(rename = "move")]
    pub move_no: u64,
    /// `null` before the tracker means anything (Da Bai Fen: before trumps are fixed).
    #[ts(type = "MadiaoTracker | DabaifenTracker | null")]
    pub tracker: Option<Tracker>,
}

/// The table the connection was at moved away from the connection's node, which is leaving (it
/// drains, `docs/deploy.md`): enter it again now, on a new connection (the balancer sends it to
/// a node that stays). The connection is closed soon after.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MovedMsg {
    /// The table's id.
    pub table: String,
}

/// The commitment to the next hand's deal, sent to everyone at the table before the hand is
/// dealt (`docs/record.md`, "Deal verification"): SHA-256 of the hand's seed, number and the
/// table's id. The seed itself is revealed only in the match's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DealMsg {
    /// The hand about to be dealt, from 0.
    pub hand: u32,
    /// The commitment, 64 lowercase hexadecimal digits.
    pub commitment: String,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The connection is identified (the answer to `hello`).
    Welcome(WelcomeMsg),
    /// The whole state of a table for this connection.
    Sync(Box<SyncMsg>),
    /// Something happened at the table.
    Update(UpdateMsg),
    /// The commitment to the deal of the hand about to be dealt.
    Deal(DealMsg),
    /// The seats or the spectators changed.
    Seats(SeatsMsg),
    /// A chat line was said.
    Chat(ChatMsg),
    /// The operator removed a chat line.
    ChatRemoved(ChatRemovedMsg),
    /// A request was taken.
    Ack(AckMsg),
    /// A message was refused.
    Error(ErrorMsg),
    /// The answer to a `ping`.
    Pong,
    /// The host did something to the table.
    Host(HostMsg),
    /// The answer to a `hint`.
    Hint(HintMsg),
    /// The answer to a `tracker`.
    Tracker(TrackerMsg),
    /// The connection's node is leaving (it drains): the table runs elsewhere from now on, and
    /// the client enters it again at once, on a new connection (no delay).
    Moved(MovedMsg),
    /// A player the recipient follows came online, went offline, sat down at a table or left
    /// it (to any connection of the recipient's that said `hello`, at a table or not).
    Friend(crate::friends::FriendMsg),
    /// A challenge to a table was sent to the recipient, or one he sent or received was
    /// answered (accepted, declined, withdrawn): the challenge as he sees it now.
    Challenge(crate::friends::Challenge),
    /// The host of a private event invited the recipient to it.
    Invited(crate::friends::InvitedMsg),
}

impl ServerMsg {
    /// The message as a text frame's payload.
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// An `error` message.
pub fn error(code: ErrorCode, message: impl Into<String>, v: Option<u64>) -> String {
    ServerMsg::Error(ErrorMsg { code, message: message.into(), v }).text()
}

/// Why the server refused something, at its edge: the one error that the typed errors inside
/// (an engine's illegal action, a request, settings) become, and that becomes a WebSocket
/// `error` message ([`Refusal::message`]) or an HTTP error ([`Refusal::status`],
/// [`Refusal::api_code`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct Refusal {
    /// The WebSocket code.
    pub code: ErrorCode,
    /// Why, for a person.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }

    /// The `error` message of the refusal at table version `v`.
    pub fn message(&self, v: Option<u64>) -> ServerMsg {
        ServerMsg::Error(ErrorMsg { code: self.code, message: self.message.clone(), v })
    }

    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self.code {
            ErrorCode::NotAuthenticated
            | ErrorCode::BadToken
            | ErrorCode::SignedOut
            | ErrorCode::HelloTimeout => 401,
            ErrorCode::NotHost
            | ErrorCode::NotSeated
            | ErrorCode::NotYourSeat
            | ErrorCode::Removed
            | ErrorCode::AccountRequired
            | ErrorCode::HintsOff
            | ErrorCode::NotAlone
            | ErrorCode::Banned
            | ErrorCode::ChatMuted
            | ErrorCode::Blocked
            | ErrorCode::BoardUnfinished => 403,
            ErrorCode::NoTable => 404,
            ErrorCode::AlreadyAuthenticated
            | ErrorCode::AlreadyAtTable
            | ErrorCode::NoSeat
            | ErrorCode::SeatTaken
            | ErrorCode::NotStarted
            | ErrorCode::AlreadyStarted
            | ErrorCode::NotYourTurn
            | ErrorCode::Stale
            | ErrorCode::TooLate
            | ErrorCode::NothingToDecide
            | ErrorCode::Finished
            | ErrorCode::NotAway
            | ErrorCode::NotOver
            | ErrorCode::Closed
            | ErrorCode::RematchOffered
            | ErrorCode::Paused
            | ErrorCode::NothingToTakeBack
            | ErrorCode::NothingToKeep => 409,
            ErrorCode::TooLarge => 413,
            ErrorCode::Illegal => 422,
            ErrorCode::RateLimited | ErrorCode::TooManyConnections => 429,
            ErrorCode::Storage => 500,
            ErrorCode::Unavailable => 503,
            ErrorCode::BadJson
            | ErrorCode::BadMessage
            | ErrorCode::UnknownType
            | ErrorCode::Binary
            | ErrorCode::NotAtTable
            | ErrorCode::BadChat => 400,
        }
    }

    /// The code of the HTTP error body.
    pub fn api_code(&self) -> ApiCode {
        match self.code {
            ErrorCode::BadJson => ApiCode::NotJson,
            ErrorCode::TooLarge => ApiCode::RecordTooLarge,
            ErrorCode::BadToken
            | ErrorCode::SignedOut
            | ErrorCode::NotAuthenticated
            | ErrorCode::HelloTimeout => ApiCode::BadToken,
            ErrorCode::NoTable => ApiCode::NoTable,
            ErrorCode::RateLimited => ApiCode::RateLimited,
            ErrorCode::TooManyConnections => ApiCode::TooManyConnections,
            ErrorCode::Storage => ApiCode::Internal,
            ErrorCode::Unavailable => ApiCode::Busy,
            ErrorCode::BadChat => ApiCode::BadName,
            ErrorCode::Closed => ApiCode::Closed,
            ErrorCode::AccountRequired => ApiCode::AccountRequired,
            ErrorCode::Banned => ApiCode::Banned,
            _ => ApiCode::BadRequest,
        }
    }
}
