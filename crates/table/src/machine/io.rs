//! The machine's I/O, as data: what a table is loaded from ([`Config`]), what happens to it
//! ([`Input`]: a connection's [`Request`], the clock, a [`Job`]'s result), and what a step gives
//! back (the [`Write`]s to persist, in a [`Step`], then the [`Effects`] to carry out).

use super::*;

/// What a table is made of when it is loaded (a new one, or one resumed from its store).
#[derive(Clone, Debug)]
pub struct Config {
    /// The table's id.
    pub id: String,
    /// Its settings.
    pub settings: TableSettings,
    /// The table's secret seed (deals and bots' seeds).
    pub seed: u64,
    /// The guest who created it.
    pub host: Option<String>,
    /// Who holds each seat.
    pub seats: [SeatRow; 4],
    /// The stored status.
    pub status: TableStatus,
    /// When it was created, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// The server's base timing.
    pub timing: Timing,
}

/// Why a table cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The settings are not a game's settings.
    #[error("table {id}: settings: {why}")]
    Settings {
        /// The table's id.
        id: String,
        /// Why the settings are refused, in words.
        why: String,
    },
    /// The log does not replay.
    #[error("table {id}: {why}")]
    Log {
        /// The table's id.
        id: String,
        /// Why the log does not replay, in words.
        why: String,
    },
}

/// What a connection (or the server, for `AutoStart`) asks of a table: the same for both
/// games, so a driver can queue requests before it knows a table's game.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// A connection takes a seat (the one its guest holds, else `seat` if open, else the first
    /// open one). Answered with a [`Reply`].
    Join {
        /// The connection that asks.
        conn: ConnId,
        /// The guest the connection is identified as.
        guest: Guest,
        /// The seat asked for, if any.
        seat: Option<u8>,
    },
    /// A connection watches. Answered with a [`Reply`].
    Watch {
        /// The connection that asks.
        conn: ConnId,
        /// The guest the connection is identified as.
        guest: Guest,
    },
    /// A connection watches through the delayed stream (the TV, `docs/protocol.md`, "Live
    /// tables (TV)"): a spectator whose messages the table holds back by its TV delay. Answered
    /// with a [`Reply`].
    Tv {
        /// The connection that asks.
        conn: ConnId,
        /// The guest the connection is identified as.
        guest: Guest,
    },
    /// A connection's message for the table, as its client sent it, which arrived at `at_ms`
    /// (milliseconds since the Unix epoch: a chat line is said then).
    Table {
        /// The connection that sent it.
        conn: ConnId,
        /// The message.
        msg: TableMsg,
        /// When it arrived, milliseconds since the Unix epoch.
        at_ms: i64,
    },
    /// The connection has closed.
    Gone {
        /// The connection that closed.
        conn: ConnId,
    },
    /// Begins the match if no seat is open (a table of bots).
    AutoStart,
    /// The driver made (or failed to make) the rematch's table.
    Rematched {
        /// The new table's id, or why it could not be made.
        table: Result<String, RematchError>,
    },
    /// A new table of a rematch keeps each open seat given here for its guest, until the match
    /// begins (only he may take it).
    Invite {
        /// For each seat, the guest it is kept for, if any.
        guests: [Option<Guest>; 4],
    },
    /// A guest's account was deleted: his name, wherever the table holds it (his seats, his
    /// connections, the invitations, the chat lines it keeps, the table's name), becomes `name`
    /// (`docs/protocol.md`, "Accounts").
    Forget {
        /// The deleted account's guest.
        guest: String,
        /// The neutral name that replaces his.
        name: String,
    },
    /// The operator removed chat line `seq` (`docs/protocol.md`, "Moderation"): the table drops
    /// it from the lines it keeps for joiners, and tells every connection to drop it.
    RemoveChat {
        /// The line's number.
        seq: u64,
    },
}

/// Why the driver could not make a rematch's table ([`Request::Rematched`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RematchError {
    /// The driver is stopping: it makes no new table.
    #[error("the server is stopping")]
    Stopping,
    /// Making the table failed, for the driver's reason (in words).
    #[error("{0}")]
    Failed(String),
}

/// The table a rematch asks the driver to make: the same game and settings, the host's seat
/// his, the bots as bots, and each other person's seat open and kept for him
/// ([`Request::Invite`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RematchOrder {
    /// The host of the finished table (and of the new one).
    pub host: String,
    /// The settings.
    pub settings: TableSettings,
    /// Who held each seat at the end of the match (an open seat stays open).
    pub seats: [SeatRow; 4],
}

/// What happens to a table: a request, the clock, or a computation's result.
pub enum Input<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    /// A request of a connection.
    Request(Request),
    /// The clock: whatever is due by `now` happens.
    Tick,
    /// A computation the table asked for is done.
    Done(Done<G>),
}

impl<G: TableGame> From<Request> for Input<G>
where
    G::Action: DeserializeOwned,
{
    fn from(r: Request) -> Self {
        Input::Request(r)
    }
}

/// Something to persist, in order, before the step's effects are carried out.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// Appends actions to the log.
    Actions(Vec<LoggedAction>),
    /// A seat changes hands.
    Seat {
        /// The seat (0–3).
        seat: u8,
        /// Who holds it now.
        owner: SeatRow,
    },
    /// The table's status changes.
    Status(TableStatus),
    /// A chat line.
    Chat(ChatRow),
    /// The match is over: its `yezi/1` record (the status becomes finished).
    Finish {
        /// The `yezi/1` record, as JSON text.
        record: String,
    },
    /// A rated match is over (written with its [`Write::Finish`], in the same step): the
    /// players' ratings are updated from it, once.
    Rated(RatedMatch),
}

/// The answer to a `join` or a `watch`.
pub type Reply = Result<(), Refusal>;

/// A message for some connections.
#[derive(Clone, Debug, PartialEq)]
pub struct Send {
    /// Who gets it.
    pub to: Vec<ConnId>,
    /// The message.
    pub msg: ServerMsg,
}

/// What the driver carries out after a step.
pub struct Effects<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    /// Answers to `join` and `watch`, given before any message to that connection.
    pub replies: Vec<(ConnId, Reply)>,
    /// Messages, in order.
    pub sends: Vec<Send>,
    /// Computations to run off the table's thread, each fed back as [`Input::Done`].
    pub jobs: Vec<Job<G>>,
    /// When to send the next [`Input::Tick`] (none: only inputs wake the table).
    pub wake: Option<Millis>,
    /// The table has nothing more to do and may be unloaded.
    pub retire: bool,
    /// Things worth a line in the server's log.
    pub notes: Vec<String>,
    /// A rematch's table to make, then to report with [`Request::Rematched`].
    pub rematch: Option<RematchOrder>,
}

impl<G: TableGame> Default for Effects<G>
where
    G::Action: DeserializeOwned,
{
    fn default() -> Self {
        Effects {
            replies: Vec::new(),
            sends: Vec::new(),
            jobs: Vec::new(),
            wake: None,
            retire: false,
            notes: Vec::new(),
            rematch: None,
        }
    }
}

/// What to do when a step's writes cannot be persisted.
#[derive(Clone, Debug)]
pub(super) enum OnFail {
    /// Refuse a connection's request with `storage` (a join's reply, or an error message).
    Refuse { conn: ConnId, join: bool, what: &'static str },
    /// Try again in a second.
    Retry(&'static str),
    /// Go on all the same.
    Anyway(&'static str),
    /// Nothing happens; say so in the log.
    Drop(&'static str),
}

/// One step: what to persist, and what the table becomes once it is persisted.
pub struct Step<G: TableRules>
where
    G::Action: DeserializeOwned,
{
    /// The writes, in order; the step is committed only once all are persisted.
    pub writes: Vec<Write>,
    pub(super) next: Option<Box<Table<G>>>,
    pub(super) effects: Effects<G>,
    pub(super) on_fail: OnFail,
}
