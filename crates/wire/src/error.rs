//! Why a request was refused: the WebSocket's [`ErrorCode`] and the HTTP API's [`ApiCode`].

use serde::{Deserialize, Serialize};
use ts_rs::TS;

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
    /// The connection's session was signed out (this session, every session, or by a password
    /// change or the account's deletion): the connection is closed.
    SignedOut,
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
    /// The person named is not away: only an away person can be removed.
    NotAway,
    /// The host removed this guest from the table: he may watch it, not sit at it.
    Removed,
    /// The match is not over yet (a rematch is offered at its end).
    NotOver,
    /// The host closed the table.
    Closed,
    /// A rematch has been offered already (the message names its table).
    RematchOffered,
    /// Only a guest with an account may take a seat at a rated table (or create one).
    AccountRequired,
    /// Hints and the tracker are not offered at this table (a rated table).
    HintsOff,
    /// Take-backs and pauses are offered only to a player alone with bots at an unrated table.
    NotAlone,
    /// The match is paused: resume it first.
    Paused,
    /// There is no play of the seat's to take back in this hand.
    NothingToTakeBack,
    /// No hand is finished: there is nothing to keep (close the table instead).
    NothingToKeep,
    // Moderation (see `docs/protocol.md`, "Moderation").
    /// The operator banned the account or the address for a time: the message says until when.
    Banned,
    /// The operator muted the account's chat for a time.
    ChatMuted,
    /// A player seated at the table blocked this one, or this one blocked him: they never sit
    /// at one table.
    Blocked,
    // Duplicate events (see `docs/events.md`, "Watching").
    /// A player of a duplicate event under way may not watch (nor follow on the TV) a table of
    /// the event playing a board he has still to play: every table plays the same cards.
    BoardUnfinished,
}

/// The code of an HTTP error.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ApiCode {
    /// The request is not what the API takes.
    BadRequest,
    /// A name that is empty, too long or has characters not allowed.
    BadName,
    /// No token, or one that is unknown.
    BadToken,
    /// No such table.
    NoTable,
    /// The table's match is not over (its record is not ready).
    NotFinished,
    /// The host closed the table before its match ended: it has no record.
    Closed,
    /// The guest has as many open tables as allowed.
    TooManyTables,
    /// The table has no replay.
    NoReplay,
    /// No such hand.
    NoHand,
    /// The body is not JSON.
    NotJson,
    /// The record is over the size limit.
    RecordTooLarge,
    /// Too many records posted from one address.
    TooManyPosts,
    /// Too many guests created from one address.
    RateLimited,
    /// The server is busy.
    Busy,
    /// The address holds as many connections as the server allows.
    TooManyConnections,
    /// The server is at its connection cap.
    Unavailable,
    /// Something went wrong in the server.
    Internal,
    // Accounts.
    /// A username not of the allowed form.
    BadUsername,
    /// A password too short or too long.
    BadPassword,
    /// The username belongs to another account.
    UsernameTaken,
    /// The guest has an account already.
    AlreadyAccount,
    /// The token is a guest's, not an account's session.
    NoAccount,
    /// Signing in failed: no such username, or not its password (the answer does not tell which).
    BadCredentials,
    /// The password given to confirm a change is not the account's.
    WrongPassword,
    /// The session has expired: sign in again.
    SessionExpired,
    /// The session was signed out: sign in again.
    SessionRevoked,
    // Ratings.
    /// Only a guest with an account may create a rated table or take a seat at one.
    AccountRequired,
    /// No account has this username.
    NoPlayer,
    // Analyses.
    /// The server runs no analyses (`--analysis-workers 0`).
    AnalysisOff,
    /// The hand has not been analysed for this seat, and no analysis of it is under way.
    NoAnalysis,
    // Moderation.
    /// The operator banned the account or the address for a time.
    Banned,
    /// The server has no operator token (`yezi serve --admin-token-file`): the admin API is off.
    AdminOff,
    /// The token is not the operator's.
    NotAdmin,
    // Puzzles.
    /// No puzzle of the game has this id.
    NoPuzzle,
    /// The player made as many reports as allowed for now.
    TooManyReports,
    // Friends.
    /// No such challenge, or not the caller's to answer.
    NoChallenge,
    // Requests.
    /// A state-changing request came from a web page of another site (its `Origin` is not the
    /// server's).
    BadOrigin,
    /// The request's body is over the size limit.
    TooLarge,
    // Duplicate events.
    /// No event has this id.
    NoEvent,
    /// The event takes no more entrants (it has begun, or it is full), or only its host may do
    /// this.
    EventClosed,
    /// The event is private: only its host and the players he invited may see it and enter it.
    NotInvited,
}

/// Which refusal of several under one [`ApiCode`] this is: a code for pages and programs that say
/// it in their own words (the `message` says it in English). Each value belongs to one `code`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ApiReason {
    /// `event_closed`: the event has begun, so it takes no more entrants.
    EventBegun,
    /// `event_closed`: the caller has entered this event already.
    EventEntered,
    /// `event_closed`: the event has as many entrants as it seats.
    EventFull,
    /// `event_closed`: only the event's host may do this (start it).
    EventHostOnly,
    /// `event_closed`: the event was started already.
    EventStarted,
}
