//! A table's whole life as a pure stage machine: no I/O, no clock of its own, no threads.
//!
//! A [`Table`] is in one [`Stage`] (waiting for players, the Da Bai Fen draw, a decision window,
//! a turn, a finished trick on show, the pause after a hand, the match over, parked). It changes
//! only through [`Input`]s: what connections ask (join, watch, act, chat, …), a clock tick, and
//! the results of the computations it asked for. Time is data: every input comes with `now`, in
//! milliseconds on the driver's clock (any origin, never going back).
//!
//! A step never changes the table by itself. [`Table::step`] returns a [`Step`]: the writes to
//! persist, in order, and what the table becomes. The driver persists the writes first and then
//! calls [`Table::commit`], which makes the change and gives the [`Effects`] to carry out
//! (messages per connection, computations to run off the table's thread, when to wake it next,
//! whether to retire it). If persisting failed, [`Table::refuse`] leaves the table as it was and
//! gives the effects of the failure (a person's move refused with `storage`; a bot's move, a
//! draw, the record, retried a second later). So what anyone has seen is always persisted.
//!
//! ```ignore
//! let mut table = Table::<ai::Madiao>::new(config, &log, chat, now())?;
//! let mut fx = table.start(now());
//! loop {
//!     carry_out(&fx);                        // send messages, spawn fx.jobs, sleep until fx.wake
//!     let input = next_input_or_tick();      // Input::Request(..), Input::Tick, Input::Done(job.run()), …
//!     let step = table.step(input, now());
//!     fx = match store.persist(&step.writes) {
//!         Ok(()) => table.commit(step),
//!         Err(e) => table.refuse(step, &e.to_string(), now()),
//!     };
//!     if fx.retire { break }
//! }
//! ```
//!
//! A driver without storage (the terminal's offline tables) uses [`Table::apply`], which commits
//! every step at once.
//!
//! Hidden polls (the draw's "will you show?", the windows' "will you annul / force a redeal?")
//! are answered in a [`Job`] (a bot's answer needs thinking) and published at a fixed time after
//! they were due, whoever was asked, so the table's pace tells nobody who was asked.

use std::collections::VecDeque;

use ai::Budget;
use cards::Seat;
use cards::record::GameKind;
use serde::de::DeserializeOwned;

use crate::bots::{bot_choice, default_bot};
use crate::game::{
    Begin, Legal, Overlay, RequestError, StakeAsk, TableGame, Viewer, decision_seed, tracker_of,
};
use crate::log::{
    ChatRow, Logged, LoggedAction, SeatRow, TableStatus, record_of, record_of_finished, replay,
};
use crate::protocol::{
    AckMsg, AckWhat, ActAction, ChatMsg, ChatRemovedMsg, ErrorCode, ErrorMsg, GameView, HintMsg, HintReason,
    HostEvent, HostMsg, MatchSummary, Refusal, SeatInfo, SeatKind, SeatsMsg, ServerMsg, SyncMsg, TableEvent,
    TableSummary, Timer, TrackerMsg, UpdateMsg, WATCHERS_SHOWN, WindowOutcome, You,
};
use crate::rated::{Conduct, ForfeitKind, RatedMatch, rated_match};
use crate::settings::{Guest, Pace, TableSettings, Timing, hints_allowed, solo_allowed};

/// A connection's identity, as the driver numbers them.
pub type ConnId = u64;
/// A time on the driver's clock, in milliseconds.
pub type Millis = u64;

/// How many chat lines a table keeps (and sends in a `sync`).
pub const CHAT_KEPT: usize = 30;
/// How long after a failed write the table tries again.
pub const RETRY_MS: Millis = 1000;
/// The budget of a bot answering a hidden poll: small and fixed, so that answering is quick.
const POLL_BUDGET: Budget = Budget { think_ms: 20 };

/// What the stage machine needs of a game beyond [`TableGame`]: how many tricks of a hand are
/// complete (to keep a finished trick on show).
pub trait TableRules: TableGame + Clone
where
    Self::Action: DeserializeOwned,
{
    /// How many tricks of the hand are complete.
    fn tricks_done(state: &Self::State) -> usize;
}

impl TableRules for ai::Madiao {
    fn tricks_done(state: &Self::State) -> usize {
        usize::from(state.trick_number())
    }
}

impl TableRules for ai::Dabaifen {
    fn tricks_done(state: &Self::State) -> usize {
        state.tricks().iter().filter(|t| t.winner.is_some()).count()
    }
}

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
    /// An action of the connection's seat (`seat`: the seat the client says it is; `move_no`: the
    /// move it answers).
    Act {
        /// The connection that asks.
        conn: ConnId,
        /// The action, in the engine's shape.
        action: ActAction,
        /// The `move` of the message it answers; refused as stale if the table has moved on.
        move_no: Option<u64>,
        /// The seat the client says it is, which must be the connection's own.
        seat: Option<u8>,
    },
    /// A chat line, said at `at_ms` (milliseconds since the Unix epoch).
    Chat {
        /// The connection that speaks.
        conn: ConnId,
        /// The line as typed (checked before it is said).
        text: String,
        /// When it was said, milliseconds since the Unix epoch.
        at_ms: i64,
    },
    /// The connection asks for the whole state again.
    Resync {
        /// The connection that asks.
        conn: ConnId,
    },
    /// The connection gives up its seat (and stays as a spectator).
    Leave {
        /// The connection that leaves its seat.
        conn: ConnId,
    },
    /// Back after a timeout.
    Back {
        /// The connection whose person is back.
        conn: ConnId,
    },
    /// The host starts the match.
    Start {
        /// The host's connection.
        conn: ConnId,
    },
    /// Ready for the next hand.
    Next {
        /// The connection that is ready.
        conn: ConnId,
    },
    /// The connection has closed.
    Gone {
        /// The connection that closed.
        conn: ConnId,
    },
    /// Begins the match if no seat is open (a table of bots).
    AutoStart,
    /// The host closes the table: the match ends at once, without a record; with `keep`, with a
    /// record of the hands finished (the match is then finished, ended by its host).
    Close {
        /// The host's connection.
        conn: ConnId,
        /// Keep the finished hands as the match's record.
        keep: bool,
    },
    /// The player alone with bots takes back his last play of the hand, with the answers after it.
    TakeBack {
        /// The player's connection.
        conn: ConnId,
    },
    /// The player alone with bots pauses the match (`true`) or resumes it (`false`).
    Pause {
        /// The player's connection.
        conn: ConnId,
        /// `true` to pause, `false` to resume.
        pause: bool,
    },
    /// The host removes the away person of `seat`: the seat becomes open, and that guest may
    /// only watch the table from then on.
    Remove {
        /// The host's connection.
        conn: ConnId,
        /// The seat of the away person.
        seat: u8,
    },
    /// The host offers a rematch at the end of the match (answered by [`Effects::rematch`],
    /// then [`Request::Rematched`]).
    Rematch {
        /// The host's connection.
        conn: ConnId,
    },
    /// The driver made (or failed to make) the rematch's table.
    Rematched {
        /// The new table's id, or why it could not be made.
        table: Result<String, String>,
    },
    /// A new table of a rematch keeps each open seat given here for its guest, until the match
    /// begins (only he may take it).
    Invite {
        /// For each seat, the guest it is kept for, if any.
        guests: [Option<Guest>; 4],
    },
    /// The connection's seat asks for a hint on its turn (answered to it alone, and logged).
    Hint {
        /// The connection that asks.
        conn: ConnId,
    },
    /// The connection's seat asks for its card tracker (answered to it alone).
    Tracker {
        /// The connection that asks.
        conn: ConnId,
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

/// Where a finished table's rematch stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RematchState {
    None,
    /// Asked of the driver by this connection.
    Pending(ConnId),
    /// Made: the new table's id.
    Made(String),
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
enum OnFail {
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
    next: Option<Box<Table<G>>>,
    effects: Effects<G>,
    on_fail: OnFail,
}

/// A computation for the driver to run off the table's thread ([`Job::run`]).
pub struct Job<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    /// Which request this is (a result for a request the table no longer waits for is ignored).
    pub id: u64,
    work: Work<G>,
}

enum Work<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    Bot {
        state: G::State,
        seat: Seat,
        bot: String,
        seed: u64,
        budget: Budget,
    },
    Polls {
        state: G::State,
        polls: Polls,
        persons: [bool; 4],
        bots: [String; 4],
        requests: [G::Request; 4],
        seed: u64,
    },
    /// A hint for `seat`, asked by `conn` at move `move_no`: the hint bot on the seat's view.
    Hint {
        view: G::View,
        legal: Vec<G::Action>,
        seat: Seat,
        conn: ConnId,
        move_no: u64,
        seed: u64,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Polls {
    Draw { drawn: u8, position: u64 },
    Window { position: u64 },
}

/// The result of a [`Job`].
pub struct Done<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    /// The job's id.
    pub id: u64,
    result: Result<Outcome<G>, String>,
}

enum Outcome<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    Bot {
        seat: Seat,
        action: G::Action,
    },
    /// The state after the polls (boxed: a job result waits in a queue whose slots are as
    /// large as the largest result).
    Polls {
        state: Box<G::State>,
        answered: Vec<(Seat, G::Action)>,
    },
    /// A hint worked out (boxed, as the polls' state is).
    Hint(Box<HintOutcome<G::Action>>),
}

/// A hint worked out for `seat`, asked by `conn` at move `move_no`.
struct HintOutcome<A> {
    seat: Seat,
    conn: ConnId,
    move_no: u64,
    action: A,
    reason: ai::hint::Reason,
}

impl<G: TableGame> Job<G>
where
    G::Action: DeserializeOwned,
{
    /// True when running it takes no thinking (every poll answered from persons' requests):
    /// the driver may run it in place.
    pub fn is_quick(&self) -> bool {
        matches!(&self.work, Work::Polls { persons, .. } if persons.iter().all(|&p| p))
    }

    /// True when running it asks an operator's external bot (`crate::bots::external_bot`): its
    /// time is spent waiting for another process, within that bot's time limit, so the driver
    /// may run it apart from the built-in bots' computations.
    pub fn asks_external(&self) -> bool {
        let external = |name: &str| crate::bots::external_bot(G::KIND, name).is_some();
        match &self.work {
            Work::Bot { bot, .. } => external(bot),
            Work::Polls { persons, bots, .. } => {
                bots.iter().zip(persons).any(|(b, &person)| !person && external(b))
            }
            Work::Hint { .. } => false,
        }
    }

    /// The seat and bot name of a bot's move, if that is what this is.
    pub fn bot(&self) -> Option<(Seat, &str)> {
        match &self.work {
            Work::Bot { seat, bot, .. } => Some((*seat, bot)),
            Work::Polls { .. } | Work::Hint { .. } => None,
        }
    }

    /// The same job with a bot's move given `budget` to think (the terminal's `--think-ms`);
    /// hidden polls keep their small fixed budget.
    pub fn with_budget(mut self, budget: Budget) -> Job<G> {
        if let Work::Bot { budget: b, .. } = &mut self.work {
            *b = budget;
        }
        self
    }

    /// Runs it (a bot thinks: this may take its budget).
    pub fn run(self) -> Done<G> {
        let result = match self.work {
            Work::Bot { state, seat, bot, seed, budget } => {
                bot_choice::<G>(&bot, &state, seat, seed, budget).map(|action| Outcome::Bot { seat, action })
            }
            Work::Polls { state, polls, persons, bots, requests, seed } => {
                answer_polls::<G>(state, polls, persons, bots, requests, seed)
            }
            Work::Hint { view, legal, seat, conn, move_no, seed } => {
                match G::hint(&view, &legal, seed, Budget::default()) {
                    Some(h) => Ok(Outcome::Hint(Box::new(HintOutcome {
                        seat,
                        conn,
                        move_no,
                        action: h.action,
                        reason: h.reason,
                    }))),
                    None => Err(format!("no hint for {seat}: no legal action")),
                }
            }
        };
        Done { id: self.id, result }
    }
}

/// Answers the engine's hidden polls: a person's from his request, a bot seat's by its bot.
fn answer_polls<G: TableGame>(
    mut st: G::State,
    polls: Polls,
    persons: [bool; 4],
    bots: [String; 4],
    requests: [G::Request; 4],
    seed: u64,
) -> Result<Outcome<G>, String>
where
    G::Action: DeserializeOwned,
{
    let mut answered = Vec::new();
    let position = match polls {
        Polls::Draw { position, .. } | Polls::Window { position } => position,
    };
    loop {
        let asked = match polls {
            Polls::Draw { drawn, .. } => G::draw_poll(&st).filter(|&(k, _)| k == drawn).map(|(_, s)| s),
            Polls::Window { .. } => G::window_poll(&st),
        };
        let Some(s) = asked else { break };
        let a = if persons[s.index()] {
            G::answer(&st, requests[s.index()])
        } else {
            let seed = decision_seed(seed, s, position + answered.len() as u64);
            bot_choice::<G>(&bots[s.index()], &st, s, seed, POLL_BUDGET)?
        };
        G::apply(&mut st, a).map_err(|e| e.to_string())?;
        answered.push((s, a));
        if answered.len() > 64 {
            return Err("the polls do not end".into());
        }
    }
    Ok(Outcome::Polls { state: Box::new(st), answered })
}

/// Where the table is in its life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Seats are open; the match has not begun (`start_due`: it begins at the next tick).
    Waiting {
        /// The match begins at the next tick.
        start_due: bool,
    },
    /// The Da Bai Fen draw: `shown` cards are on show; the next is due at `due`.
    Draw {
        /// How many cards of the draw are on show.
        shown: u8,
        /// When the next card is drawn.
        due: Millis,
    },
    /// A decision window (Madiao redeal, Da Bai Fen annulment) closes at `until`.
    Window {
        /// When the window closes.
        until: Millis,
    },
    /// Madiao, before a hand is dealt: its banker (`ask.seat`) names the stake (§2), on his
    /// turn clock (`deadline`; the lowest stake when it runs out) or a bot's (`bot_at`).
    Stake {
        /// What the banker is asked: his seat and the stakes he may name.
        ask: StakeAsk,
        /// When a person's clock runs out (the lowest stake is named then).
        deadline: Option<Millis>,
        /// When a bot names it, if a bot plays the banker now.
        bot_at: Option<Millis>,
    },
    /// `seat` is to move. `deadline`: a person's turn clock (set when the turn began, never
    /// restarted); `bot_at`: when a bot moves for the seat, if a bot plays it now.
    Turn {
        /// The seat to move.
        seat: Seat,
        /// When a person's turn clock runs out (set when the turn began, never restarted).
        deadline: Option<Millis>,
        /// When a bot moves for the seat, if a bot plays it now.
        bot_at: Option<Millis>,
    },
    /// A finished trick is on show until `until`; then the next lead.
    Trick {
        /// When the trick is cleared and the next lead is due.
        until: Millis,
    },
    /// The pause after a hand: the next is dealt at `until`, or once every connected seated
    /// person is `ready`.
    HandOver {
        /// When the next hand is dealt (`None` at an untimed table: it waits for the people).
        until: Option<Millis>,
        /// The seats that pressed ready so far.
        ready: [bool; 4],
    },
    /// The match is over; `record_due`: its record is not stored yet; `retire_at`: when the
    /// table may be unloaded if nobody is connected.
    MatchOver {
        /// The match's record is not stored yet.
        record_due: bool,
        /// When the table may be unloaded if nobody is connected.
        retire_at: Option<Millis>,
    },
    /// Nobody was connected for a while: clocks and bots stop until a person connects.
    Parked {
        /// The stage it resumes when a person connects.
        was: Box<Stage>,
    },
    /// The player alone with bots paused the match: clocks and bots stop until he resumes it.
    Paused {
        /// The stage it resumes when the player resumes the match.
        was: Box<Stage>,
    },
}

#[derive(Clone, Debug)]
struct SeatState {
    owner: SeatRow,
    conns: u32,
    away: bool,
    /// A seated person with no connection: when his grace period ends.
    grace_until: Option<Millis>,
}

#[derive(Clone, Debug)]
struct Member {
    conn: ConnId,
    guest: Guest,
    seat: Option<Seat>,
}

/// What happened, for an `update`.
#[derive(Clone, Debug)]
enum Event<A> {
    Started,
    HandStart,
    Draw(u8),
    DrawEnd,
    Action { seat: Seat, action: A, by_bot: bool },
    Stake { seat: Seat, stake: u32, by_bot: bool },
    WindowOpen,
    WindowClosed(WindowOutcome),
    TakeBack { seat: Seat, actions: u32 },
}

/// Who decides for a seat now.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Controller {
    Person,
    Bot(String),
}

/// One table: its seats, its members, its match, its stage and clocks, and its log.
#[derive(Clone)]
pub struct Table<G: TableRules>
where
    G::Action: DeserializeOwned,
{
    id: String,
    doc: TableSettings,
    settings: G::Settings,
    timing: Timing,
    seed: u64,
    host: Option<String>,
    created_ms: i64,
    status: TableStatus,
    seats: [SeatState; 4],
    members: Vec<Member>,
    v: u64,
    m: Option<G::Match>,
    hand: u32,
    state: Option<G::State>,
    results: std::sync::Arc<Vec<G::HandResult>>,
    /// The persisted log, compact (moved, never copied, from step to step).
    log: Log<G>,
    /// How many actions the log holds, with this step's.
    log_len: u64,
    /// The actions this step adds to the log.
    fresh: Vec<Entry<G>>,
    /// For a step that stores the record: the record of the log, worked out before the step.
    record: Option<Result<String, String>>,
    moves: u64,
    draw_answers: Vec<(Seat, G::Action)>,
    requests: [G::Request; 4],
    stage: Stage,
    /// The computation the table waits for.
    job: Option<u64>,
    next_job: u64,
    /// The hint being worked out (its job's id), if any: one at a time per table.
    hint_job: Option<u64>,
    /// A poll outcome computed, waiting for its publication time.
    held: Option<Held<G>>,
    /// After a failed write: nothing is tried before this.
    retry_at: Option<Millis>,
    park_at: Option<Millis>,
    chat: VecDeque<ChatRow>,
    chat_seq: u64,
    /// The guests the host removed: they may watch, not sit (kept while the table is loaded).
    removed: Vec<String>,
    /// Open seats kept for the people invited to this rematch table, until the match begins.
    invited: [Option<Guest>; 4],
    rematch: RematchState,
    /// A rated match: what its log says of the seats' conduct so far.
    conduct: Conduct,
    /// A rated match: forfeit entries to log with the step's next write.
    forfeits: Vec<(Seat, ForfeitKind)>,
    /// What is left of each seat's time bank, in milliseconds (for the match while the table is
    /// loaded; a table loaded again starts with full banks).
    bank: [Millis; 4],
    /// For a step that needs the whole log (a take-back, ending a match and keeping it): the log
    /// before the step.
    full_log: Option<Vec<LoggedAction>>,
    /// Set while a step is computed: the step's effects.
    fx: Pending<G>,
}

/// A poll outcome computed and waiting to be published: the answers, the state after them, and
/// when it is published.
type Held<G> = (Vec<(Seat, <G as ai::Game>::Action)>, <G as ai::Game>::State, Millis);

/// A table's log; a copy of the table (a step being worked out) starts without it, and the
/// step's new actions join it when the step is committed.
struct Log<G: TableGame>(Vec<Entry<G>>)
where
    G::Action: DeserializeOwned;

/// One entry of the log: its hand, its seat, the action or the stake named.
type Entry<G> = (u32, Seat, Logged<<G as ai::Game>::Action>);

impl<G: TableGame> Clone for Log<G>
where
    G::Action: DeserializeOwned,
{
    fn clone(&self) -> Self {
        Log(Vec::new())
    }
}

/// The effects of the step being worked out (a copy of the table starts with none).
struct Pending<G: TableGame>(Effects<G>)
where
    G::Action: DeserializeOwned;

impl<G: TableGame> Clone for Pending<G>
where
    G::Action: DeserializeOwned,
{
    fn clone(&self) -> Self {
        Pending(Effects::default())
    }
}

impl<G: TableGame> std::ops::Deref for Pending<G>
where
    G::Action: DeserializeOwned,
{
    type Target = Effects<G>;
    fn deref(&self) -> &Effects<G> {
        &self.0
    }
}

impl<G: TableGame> std::ops::DerefMut for Pending<G>
where
    G::Action: DeserializeOwned,
{
    fn deref_mut(&mut self) -> &mut Effects<G> {
        &mut self.0
    }
}

impl<G: TableRules> Table<G>
where
    G::Action: DeserializeOwned,
{
    /// Loads a table: a new one, or one resumed from its log (replayed with
    /// [`crate::log::replay`]) and its last chat lines.
    pub fn new(
        config: Config,
        log: &[LoggedAction],
        chat: Vec<ChatRow>,
        now: Millis,
    ) -> Result<Self, LoadError> {
        let doc = config.settings;
        let doc_bank = if doc.untimed { 0 } else { doc.bank_seconds };
        let settings = G::settings(&doc.rules, &doc.variants, doc.stakes())
            .map_err(|why| LoadError::Settings { id: config.id.clone(), why: why.to_string() })?;
        let chat_seq = chat.last().map_or(0, |c| c.seq + 1);
        let mut chat: VecDeque<ChatRow> = chat.into_iter().collect();
        while chat.len() > CHAT_KEPT {
            chat.pop_front();
        }
        let mut t = Table {
            id: config.id,
            doc,
            settings,
            timing: config.timing,
            seed: config.seed,
            host: config.host,
            created_ms: config.created_ms,
            status: config.status,
            seats: config.seats.map(|owner| SeatState { owner, conns: 0, away: false, grace_until: None }),
            members: Vec::new(),
            v: 1,
            m: None,
            hand: 0,
            state: None,
            results: Default::default(),
            log: Log(Vec::new()),
            log_len: 0,
            fresh: Vec::new(),
            record: None,
            moves: 0,
            draw_answers: Vec::new(),
            requests: [G::Request::default(); 4],
            stage: Stage::Waiting { start_due: false },
            job: None,
            next_job: 0,
            hint_job: None,
            held: None,
            retry_at: None,
            park_at: None,
            chat,
            chat_seq,
            removed: Vec::new(),
            invited: Default::default(),
            rematch: RematchState::None,
            conduct: Conduct::default(),
            forfeits: Vec::new(),
            bank: [u64::from(doc_bank) * 1000; 4],
            full_log: None,
            fx: Pending(Effects::default()),
        };
        if t.status != TableStatus::Waiting {
            let r = replay::<G>(&t.settings, t.seed, log)
                .map_err(|why| LoadError::Log { id: t.id.clone(), why: why.to_string() })?;
            let mut states = r.states;
            let st = match r.stake_due {
                Some(_) => None,
                None => match states.pop() {
                    Some(st) => Some(st),
                    None => return Err(LoadError::Log { id: t.id.clone(), why: "no hand".into() }),
                },
            };
            t.hand = states.len() as u32;
            t.results = std::sync::Arc::new(r.results);
            t.m = Some(r.m);
            t.moves = r.moves;
            t.conduct = r.conduct;
            let mut entries = Vec::with_capacity(log.len());
            for a in log {
                // The replay has checked every entry.
                let why =
                    |e: String| LoadError::Log { id: t.id.clone(), why: format!("log entry {}: {e}", a.seq) };
                let seat = Seat::new(a.seat).ok_or_else(|| why("no such seat".into()))?;
                let action = Logged::<G::Action>::parse(&a.action).map_err(why)?;
                entries.push((a.hand, seat, action));
            }
            t.log = Log(entries);
            t.log_len = log.len() as u64;
            t.state = st;
            if t.status.is_over() {
                t.stage = Stage::MatchOver { record_due: false, retire_at: Some(now + t.timing.retire_ms) };
            } else if let Some(ask) = r.stake_due {
                t.start_stake(ask, now);
            } else {
                t.enter_hand(now, true);
                if t.status == TableStatus::Parked {
                    let was = std::mem::replace(&mut t.stage, Stage::Waiting { start_due: false });
                    t.stage = Stage::Parked { was: Box::new(was) };
                }
            }
            t.fx = Pending(Effects::default());
        }
        t.watch_presence(now);
        Ok(t)
    }

    /// The effects of a table just loaded (its first wake-up, a bot's first move).
    pub fn start(&mut self, now: Millis) -> Effects<G> {
        self.drive(now);
        self.finish_fx(now)
    }

    /// Works out what `input` at `now` does, without changing the table: persist the step's
    /// writes, then [`Table::commit`] it (or [`Table::refuse`] it if they failed).
    pub fn step(&self, input: Input<G>, now: Millis) -> Step<G> {
        let mut next: Box<Table<G>> = Box::new(self.clone());
        if matches!(input, Input::Tick) && matches!(self.stage, Stage::MatchOver { record_due: true, .. }) {
            next.record = Some(
                record_of::<G>(&self.settings, self.seed, self.players(), &self.log())
                    .map_err(|e| e.to_string()),
            );
        }
        if matches!(input, Input::Request(Request::TakeBack { .. } | Request::Close { keep: true, .. })) {
            next.full_log = Some(self.log());
        }
        let (writes, on_fail) = next.handle(input, now);
        next.full_log = None;
        next.watch_presence(now);
        next.drive(now);
        let effects = next.finish_fx(now);
        Step { writes, next: Some(next), effects, on_fail }
    }

    /// The step's writes are persisted: the table becomes what the step said, and here is what
    /// to carry out.
    pub fn commit(&mut self, mut step: Step<G>) -> Effects<G> {
        if let Some(mut next) = step.next.take() {
            let mut log = std::mem::take(&mut self.log.0);
            log.append(&mut next.fresh);
            *self = *next;
            self.log.0 = log;
        }
        step.effects
    }

    /// The step's writes could not be persisted (`why`): the table stays as it was, except for
    /// what a failure does (a person is told `storage`; a bot's move, the draw or the record
    /// is tried again a second later).
    pub fn refuse(&mut self, step: Step<G>, why: &str, now: Millis) -> Effects<G> {
        match step.on_fail {
            OnFail::Anyway(what) => {
                let mut fx = self.commit(step);
                fx.notes.push(format!("table {}: {what}: {why}", self.id));
                return fx;
            }
            OnFail::Refuse { conn, join, what } => {
                let message = format!("{what}: {why}");
                if join {
                    self.fx.replies.push((conn, Err(Refusal::new(ErrorCode::Storage, message))));
                } else {
                    self.err(conn, ErrorCode::Storage, message);
                }
            }
            OnFail::Retry(what) => {
                self.fx.notes.push(format!("table {}: {what}: {why}; retrying", self.id));
                self.retry_at = Some(now + RETRY_MS);
                self.job = None;
                self.held = None;
            }
            OnFail::Drop(what) => self.fx.notes.push(format!("table {}: {what}: {why}", self.id)),
        }
        self.finish_fx(now)
    }

    /// A step committed at once, for a driver that persists nothing: its writes (for the
    /// record), and its effects.
    pub fn apply(&mut self, input: Input<G>, now: Millis) -> (Vec<Write>, Effects<G>) {
        let mut step = self.step(input, now);
        let writes = std::mem::take(&mut step.writes);
        (writes, self.commit(step))
    }
}

mod clock;
mod inputs;
mod messages;
mod players;
mod read;
mod the_match;

#[cfg(test)]
mod tests;
