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
    AckMsg, AckWhat, ActAction, ChatMsg, ErrorCode, ErrorMsg, GameView, HintMsg, HintReason, HostEvent,
    HostMsg, MatchSummary, Refusal, SeatInfo, SeatKind, SeatsMsg, ServerMsg, SyncMsg, TableEvent,
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
    Settings { id: String, why: String },
    /// The log does not replay.
    #[error("table {id}: {why}")]
    Log { id: String, why: String },
}

/// What a connection (or the server, for `AutoStart`) asks of a table: the same for both
/// games, so a driver can queue requests before it knows a table's game.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// A connection takes a seat (the one its guest holds, else `seat` if open, else the first
    /// open one). Answered with a [`Reply`].
    Join { conn: ConnId, guest: Guest, seat: Option<u8> },
    /// A connection watches. Answered with a [`Reply`].
    Watch { conn: ConnId, guest: Guest },
    /// An action of the connection's seat (`seat`: the seat the client says it is; `move_no`: the
    /// move it answers).
    Act { conn: ConnId, action: ActAction, move_no: Option<u64>, seat: Option<u8> },
    /// A chat line, said at `at_ms` (milliseconds since the Unix epoch).
    Chat { conn: ConnId, text: String, at_ms: i64 },
    /// The connection asks for the whole state again.
    Resync { conn: ConnId },
    /// The connection gives up its seat (and stays as a spectator).
    Leave { conn: ConnId },
    /// Back after a timeout.
    Back { conn: ConnId },
    /// The host starts the match.
    Start { conn: ConnId },
    /// Ready for the next hand.
    Next { conn: ConnId },
    /// The connection has closed.
    Gone { conn: ConnId },
    /// Begins the match if no seat is open (a table of bots).
    AutoStart,
    /// The host closes the table: the match ends at once, without a record; with `keep`, with a
    /// record of the hands finished (the match is then finished, ended by its host).
    Close { conn: ConnId, keep: bool },
    /// The player alone with bots takes back his last play of the hand, with the answers after it.
    TakeBack { conn: ConnId },
    /// The player alone with bots pauses the match (`true`) or resumes it (`false`).
    Pause { conn: ConnId, pause: bool },
    /// The host removes the away person of `seat`: the seat becomes open, and that guest may
    /// only watch the table from then on.
    Remove { conn: ConnId, seat: u8 },
    /// The host offers a rematch at the end of the match (answered by [`Effects::rematch`],
    /// then [`Request::Rematched`]).
    Rematch { conn: ConnId },
    /// The driver made (or failed to make) the rematch's table.
    Rematched { table: Result<String, String> },
    /// A new table of a rematch keeps each open seat given here for its guest, until the match
    /// begins (only he may take it).
    Invite { guests: [Option<Guest>; 4] },
    /// The connection's seat asks for a hint on its turn (answered to it alone, and logged).
    Hint { conn: ConnId },
    /// The connection's seat asks for its card tracker (answered to it alone).
    Tracker { conn: ConnId },
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
    Seat { seat: u8, owner: SeatRow },
    /// The table's status changes.
    Status(TableStatus),
    /// A chat line.
    Chat(ChatRow),
    /// The match is over: its `yezi/1` record (the status becomes finished).
    Finish { record: String },
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
    Waiting { start_due: bool },
    /// The Da Bai Fen draw: `shown` cards are on show; the next is due at `due`.
    Draw { shown: u8, due: Millis },
    /// A decision window (Madiao redeal, Da Bai Fen annulment) closes at `until`.
    Window { until: Millis },
    /// Madiao, before a hand is dealt: its banker (`ask.seat`) names the stake (§2), on his
    /// turn clock (`deadline`; the lowest stake when it runs out) or a bot's (`bot_at`).
    Stake { ask: StakeAsk, deadline: Option<Millis>, bot_at: Option<Millis> },
    /// `seat` is to move. `deadline`: a person's turn clock (set when the turn began, never
    /// restarted); `bot_at`: when a bot moves for the seat, if a bot plays it now.
    Turn { seat: Seat, deadline: Option<Millis>, bot_at: Option<Millis> },
    /// A finished trick is on show until `until`; then the next lead.
    Trick { until: Millis },
    /// The pause after a hand: the next is dealt at `until`, or once every connected seated
    /// person is `ready`.
    HandOver { until: Option<Millis>, ready: [bool; 4] },
    /// The match is over; `record_due`: its record is not stored yet; `retire_at`: when the
    /// table may be unloaded if nobody is connected.
    MatchOver { record_due: bool, retire_at: Option<Millis> },
    /// Nobody was connected for a while: clocks and bots stop until a person connects.
    Parked { was: Box<Stage> },
    /// The player alone with bots paused the match: clocks and bots stop until he resumes it.
    Paused { was: Box<Stage> },
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

    // -------------------------------------------------------------------------------------------
    // What a driver may read

    /// The table's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The stage.
    pub fn stage(&self) -> &Stage {
        &self.stage
    }

    /// The status.
    pub fn status(&self) -> TableStatus {
        self.status
    }

    /// The hand being played (from 0) and its state, once the match has begun.
    pub fn hand(&self) -> Option<(u32, &G::State)> {
        self.state.as_ref().map(|s| (self.hand, s))
    }

    /// The number of the current hand (from 0), dealt or waiting for its banker's stake.
    pub fn hand_number(&self) -> u32 {
        self.hand
    }

    /// The match between hands, once it has begun.
    pub fn match_state(&self) -> Option<&G::Match> {
        self.m.as_ref()
    }

    /// The results of the finished hands.
    pub fn results(&self) -> &[G::HandResult] {
        &self.results
    }

    /// Every action persisted (the table's log).
    pub fn log(&self) -> Vec<LoggedAction> {
        self.log
            .0
            .iter()
            .enumerate()
            .map(|(i, (hand, seat, a))| LoggedAction {
                seq: i as u64,
                hand: *hand,
                seat: seat.number(),
                action: a.to_json(),
            })
            .collect()
    }

    /// The table's version (each message at the table raises it).
    pub fn version(&self) -> u64 {
        self.v
    }

    /// Moves everyone has seen (the `move` of the messages).
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The pace the table plays at: `fast` when no seat is a person's.
    pub fn pace(&self) -> Pace {
        if self.seats.iter().all(|s| !matches!(s.owner, SeatRow::Person { .. })) {
            Pace::Fast
        } else {
            self.doc.pace
        }
    }

    /// When the table wants its next [`Input::Tick`].
    pub fn wake_at(&self, now: Millis) -> Option<Millis> {
        if let Some(r) = self.retry_at {
            return Some(r);
        }
        let mut at: Option<Millis> = None;
        let mut take = |t: Option<Millis>| {
            if let Some(t) = t {
                at = Some(at.map_or(t, |a| a.min(t)));
            }
        };
        take(self.park_at);
        if let Some((_, _, t)) = &self.held {
            take(Some(*t));
        }
        if self.status == TableStatus::Playing {
            for s in &self.seats {
                if s.conns == 0 {
                    take(s.grace_until);
                }
            }
        }
        match &self.stage {
            Stage::Waiting { start_due } => take(start_due.then_some(now)),
            Stage::Draw { due, .. } if self.job.is_none() && self.held.is_none() => take(Some(*due)),
            Stage::Window { until } if self.job.is_none() && self.held.is_none() => take(Some(*until)),
            Stage::Draw { .. } | Stage::Window { .. } => {}
            Stage::Turn { seat, deadline, bot_at } => {
                if self.job.is_none() {
                    take(*bot_at);
                    if self.controller(*seat, now) == Controller::Person {
                        take(self.cutoff(*seat, *deadline));
                    }
                }
            }
            Stage::Stake { ask, deadline, bot_at } => match self.controller(ask.seat, now) {
                Controller::Person => take(self.cutoff(ask.seat, *deadline)),
                Controller::Bot(_) => take(*bot_at),
            },
            Stage::Trick { until } => take(Some(*until)),
            Stage::HandOver { until, .. } => take(*until),
            Stage::MatchOver { record_due, retire_at } => {
                if *record_due {
                    take(Some(now));
                } else if self.members.is_empty() {
                    take(*retire_at);
                }
            }
            Stage::Parked { .. } | Stage::Paused { .. } => {}
        }
        at
    }

    /// The table as the lobby shows it at `now`.
    pub fn summary(&self, now: Millis) -> TableSummary {
        TableSummary {
            id: self.id.clone(),
            name: self.doc.name.clone(),
            game: self.doc.game,
            rules: self.doc.rules.clone(),
            variants: G::variant_map(&self.settings),
            stake: (self.doc.game == GameKind::Madiao).then_some(self.doc.stake),
            stake_max: self
                .doc
                .stake_max
                .filter(|&m| self.doc.game == GameKind::Madiao && m > self.doc.stake),
            turn_seconds: self.doc.turn_seconds,
            untimed: self.doc.untimed,
            bank_seconds: if self.doc.untimed { 0 } else { self.doc.bank_seconds },
            pace: self.doc.pace,
            grace_seconds: self.doc.grace_seconds,
            private: self.doc.private,
            status: self.status,
            host: self.host.clone(),
            seats: self.seat_infos(now),
            open_seats: self.seats.iter().filter(|s| s.owner == SeatRow::Open).count(),
            spectators: self.members.iter().filter(|m| m.seat.is_none()).count(),
            hands: self.results.len(),
            created_ms: self.created_ms,
            zero_cash: (self.doc.game == GameKind::Madiao).then_some(self.doc.zero_cash),
            rated: self.doc.rated,
        }
    }

    /// The `sync` a connection would get now (`None` for a connection not at the table).
    pub fn sync_for(&self, conn: ConnId, now: Millis) -> Option<ServerMsg> {
        let m = self.members.iter().find(|m| m.conn == conn)?;
        Some(self.sync_msg(m, now))
    }

    // -------------------------------------------------------------------------------------------
    // Pacing

    fn paced(&self, base: Millis) -> Millis {
        self.pace().scale(base)
    }

    fn draw_every(&self) -> Millis {
        self.paced(self.timing.draw_ms).max(1)
    }

    fn window_len(&self) -> Millis {
        self.paced(self.timing.window_ms)
    }

    fn trick_len(&self) -> Millis {
        self.paced(self.timing.trick_ms)
    }

    /// When the pause after a hand ends at the latest (`None`: an untimed table waits for its
    /// people's ready).
    fn pause_until(&self, now: Millis) -> Option<Millis> {
        let connected = self.seats.iter().any(|s| matches!(s.owner, SeatRow::Person { .. }) && s.conns > 0);
        if !connected {
            Some(now + self.trick_len())
        } else if self.doc.untimed {
            None
        } else {
            Some(now + (u64::from(self.doc.turn_seconds) * 1000).min(self.timing.pause_ms))
        }
    }

    // -------------------------------------------------------------------------------------------
    // Who plays

    fn controller(&self, s: Seat, now: Millis) -> Controller {
        let seat = &self.seats[s.index()];
        match &seat.owner {
            SeatRow::Bot(name) => Controller::Bot(name.clone()),
            SeatRow::Person { .. } if seat.away => Controller::Bot(default_bot::<G>().to_string()),
            SeatRow::Person { .. } if seat.conns > 0 => Controller::Person,
            SeatRow::Person { .. } if seat.grace_until.is_some_and(|g| g > now) => Controller::Person,
            _ => Controller::Bot(default_bot::<G>().to_string()),
        }
    }

    /// When a person's turn clock that runs to `deadline` has run out, his bank too.
    fn cutoff(&self, seat: Seat, deadline: Option<Millis>) -> Option<Millis> {
        deadline.map(|d| d + self.bank[seat.index()])
    }

    /// A person moved (or named the stake) on a turn whose clock ran to `deadline`: the time
    /// past it comes out of his bank.
    fn draw_bank(&mut self, seat: Seat, deadline: Option<Millis>, now: Millis) {
        if let Some(d) = deadline
            && now > d
        {
            let b = &mut self.bank[seat.index()];
            *b = b.saturating_sub(now - d);
        }
    }

    fn grace_left(&self, s: Seat, now: Millis) -> Option<Millis> {
        let seat = &self.seats[s.index()];
        match seat.owner {
            SeatRow::Person { .. } if seat.conns == 0 => {
                Some(seat.grace_until.map_or(0, |g| g.saturating_sub(now)))
            }
            _ => None,
        }
    }

    fn seat_info(&self, s: Seat, t: Millis) -> SeatInfo {
        let seat = &self.seats[s.index()];
        let bot_plays = matches!(self.controller(s, t), Controller::Bot(_));
        let (kind, name, bot, guest, present) = match &seat.owner {
            SeatRow::Open => (SeatKind::Open, None, None, None, false),
            SeatRow::Bot(b) => (SeatKind::Bot, Some(format!("bot:{b}")), Some(b.clone()), None, true),
            SeatRow::Person { guest, name } => {
                (SeatKind::Person, Some(name.clone()), None, Some(guest.clone()), seat.conns > 0)
            }
        };
        SeatInfo {
            seat: s.number(),
            kind,
            name,
            bot,
            guest,
            present,
            away: seat.away,
            bot_plays,
            grace_ms: self.grace_left(s, t).filter(|&g| g > 0 && !seat.away),
            invited: self.invited[s.index()].as_ref().map(|g| g.name.clone()),
        }
    }

    fn seat_infos(&self, now: Millis) -> Vec<SeatInfo> {
        Seat::ALL.iter().map(|&s| self.seat_info(s, now)).collect()
    }

    // -------------------------------------------------------------------------------------------
    // Messages

    fn overlay(&self) -> Overlay {
        let stage = match &self.stage {
            Stage::Parked { was } | Stage::Paused { was } => was.as_ref(),
            s => s,
        };
        match stage {
            Stage::Draw { shown, .. } => Overlay { drawn: Some(*shown), window: false },
            Stage::Window { .. } => Overlay { drawn: None, window: true },
            _ => Overlay::default(),
        }
    }

    fn timer_now(&self, now: Millis) -> Option<Timer> {
        if self.status.is_over() {
            return None;
        }
        let left = |t: Millis| t.saturating_sub(now);
        let mut stage = &self.stage;
        if let Stage::Parked { was } = stage {
            stage = was.as_ref();
        }
        if matches!(stage, Stage::Paused { .. }) {
            return Some(Timer::Paused);
        }
        if self.state.is_none() && !matches!(stage, Stage::Stake { .. }) {
            return None;
        }
        Some(match stage {
            Stage::Waiting { .. } | Stage::Parked { .. } | Stage::Paused { .. } => return None,
            Stage::Draw { .. } => Timer::Draw { every_ms: self.draw_every() },
            Stage::Window { until } => Timer::Window { remaining_ms: left(*until) },
            Stage::Trick { until } => Timer::Trick { remaining_ms: left(*until) },
            Stage::Stake { ask, deadline, .. } => self.turn_timer(ask.seat, *deadline, now),
            Stage::Turn { seat, deadline, .. } => self.turn_timer(*seat, *deadline, now),
            Stage::HandOver { until, ready } => Timer::NextHand {
                remaining_ms: until.map(left),
                ready: Seat::ALL.into_iter().filter(|s| ready[s.index()]).collect(),
            },
            Stage::MatchOver { retire_at, .. } => {
                Timer::NextHand { remaining_ms: Some(retire_at.map_or(0, left)), ready: Vec::new() }
            }
        })
    }

    /// The clock of a seat's turn (a move, or a banker naming the stake).
    fn turn_timer(&self, seat: Seat, deadline: Option<Millis>, now: Millis) -> Timer {
        match self.controller(seat, now) {
            Controller::Person => {
                let turn = deadline.map(|t| t.saturating_sub(now));
                let cutoff = self.cutoff(seat, deadline);
                let bank_ms = match (deadline, cutoff) {
                    (Some(d), Some(c)) if self.doc.bank_seconds > 0 => Some(c.saturating_sub(now.max(d))),
                    _ => None,
                };
                match self.grace_left(seat, now) {
                    Some(g) => Timer::Grace {
                        seat,
                        remaining_ms: cutoff.map(|c| c.saturating_sub(now)).map_or(g, |t| g.min(t)),
                    },
                    None => Timer::Turn { seat, remaining_ms: turn, bank_ms },
                }
            }
            Controller::Bot(_) => Timer::Bot { seat },
        }
    }

    fn match_json(&self) -> Option<MatchSummary> {
        self.m.as_ref().map(|m| G::match_summary(m, &self.results))
    }

    fn table_event(&self, e: &Event<G::Action>, viewer: Viewer) -> TableEvent {
        match e {
            Event::Started => TableEvent::Start,
            Event::HandStart => TableEvent::HandStart { hand: self.hand },
            Event::Draw(d) => TableEvent::Draw { drawn: *d },
            Event::DrawEnd => TableEvent::DrawEnd,
            Event::Action { seat, action, by_bot } => TableEvent::Action {
                seat: *seat,
                action: G::public_action(action, *seat, viewer),
                by_bot: *by_bot,
            },
            Event::Stake { seat, stake, by_bot } => {
                TableEvent::Stake { seat: *seat, stake: *stake, by_bot: *by_bot }
            }
            Event::WindowOpen => TableEvent::Window { closes_in_ms: self.window_len() },
            Event::WindowClosed(outcome) => TableEvent::WindowClosed { outcome: *outcome },
            Event::TakeBack { seat, actions } => TableEvent::TakeBack { seat: *seat, actions: *actions },
        }
    }

    fn view_and_legal(&self, viewer: Viewer) -> (Option<GameView>, Option<Legal>) {
        if let Stage::Stake { ask, .. } = &self.stage
            && viewer == Viewer::Seat(ask.seat)
            && self.status == TableStatus::Playing
        {
            return (None, Some(Legal::Stake { low: ask.low, high: ask.high }));
        }
        let Some(st) = &self.state else { return (None, None) };
        let ov = self.overlay();
        let view = Some(G::table_view(st, viewer, ov));
        let paused = matches!(self.stage, Stage::Paused { .. });
        let legal = match viewer {
            Viewer::Seat(s) if self.status == TableStatus::Playing && !paused => {
                G::legal_for(st, s, ov, self.requests[s.index()])
            }
            _ => None,
        };
        (view, legal)
    }

    fn sync_msg(&self, m: &Member, now: Millis) -> ServerMsg {
        let viewer = m.seat.map_or(Viewer::Spectator, Viewer::Seat);
        let (view, legal) = self.view_and_legal(viewer);
        let is_host = self.host.as_deref() == Some(m.guest.id.as_str());
        ServerMsg::Sync(Box::new(SyncMsg {
            v: self.v,
            table: self.summary(now),
            you: You { seat: m.seat, guest: m.guest.id.clone(), name: m.guest.name.clone(), host: is_host },
            hand: self.hand,
            move_no: self.moves,
            view,
            legal,
            timer: self.timer_now(now),
            match_: self.match_json(),
            results: self.results.iter().cloned().map(Into::into).collect(),
            chat: self.chat.iter().cloned().collect(),
            watchers: self.watchers(),
            rematch: match &self.rematch {
                RematchState::Made(t) => Some(t.clone()),
                _ => None,
            },
        }))
    }

    fn send_to(&mut self, to: Vec<ConnId>, msg: ServerMsg) {
        if !to.is_empty() {
            self.fx.sends.push(Send { to, msg });
        }
    }

    fn reply(&mut self, conn: ConnId, msg: ServerMsg) {
        if self.members.iter().any(|m| m.conn == conn) {
            self.send_to(vec![conn], msg);
        }
    }

    fn err(&mut self, conn: ConnId, code: ErrorCode, message: impl Into<String>) {
        let msg = ServerMsg::Error(ErrorMsg { code, message: message.into(), v: Some(self.v) });
        self.reply(conn, msg);
    }

    fn sync_to(&mut self, conn: ConnId, now: Millis) {
        if let Some(msg) = self.sync_for(conn, now) {
            self.send_to(vec![conn], msg);
        }
    }

    fn broadcast(&mut self, e: Event<G::Action>, now: Millis) {
        self.v += 1;
        if matches!(e, Event::Action { .. } | Event::TakeBack { .. }) {
            self.moves += 1;
        }
        // One message per viewer (each seat, the spectators), to every connection of that viewer.
        let mut groups: [Vec<ConnId>; 5] = Default::default();
        for m in &self.members {
            groups[m.seat.map_or(4, |s| s.index())].push(m.conn);
        }
        let timer = self.timer_now(now);
        let match_ = self.match_json();
        for (i, to) in groups.into_iter().enumerate() {
            if to.is_empty() {
                continue;
            }
            let viewer = if i < 4 { Viewer::Seat(Seat::ALL[i]) } else { Viewer::Spectator };
            let (view, legal) = self.view_and_legal(viewer);
            let msg = ServerMsg::Update(UpdateMsg {
                v: self.v,
                event: self.table_event(&e, viewer),
                hand: self.hand,
                move_no: self.moves,
                view,
                legal,
                timer: timer.clone(),
                match_: match_.clone(),
            });
            self.send_to(to, msg);
        }
    }

    fn broadcast_seats(&mut self, except: Option<ConnId>, now: Millis) {
        self.v += 1;
        let msg = ServerMsg::Seats(SeatsMsg {
            v: self.v,
            seats: self.seat_infos(now),
            spectators: self.members.iter().filter(|m| m.seat.is_none()).count(),
            watchers: self.watchers(),
            status: self.status,
            timer: self.timer_now(now),
        });
        let to = self.members.iter().map(|m| m.conn).filter(|&c| Some(c) != except).collect();
        self.send_to(to, msg);
    }

    /// The names of the people watching (connections not seated), one per guest, at most
    /// [`WATCHERS_SHOWN`]; a seated person watching from another connection is a player, not a
    /// spectator.
    fn watchers(&self) -> Vec<String> {
        let seated = |g: &str| {
            self.seats.iter().any(|s| matches!(&s.owner, SeatRow::Person { guest, .. } if guest == g))
        };
        let mut seen: Vec<&str> = Vec::new();
        let mut names = Vec::new();
        for m in self.members.iter().filter(|m| m.seat.is_none()) {
            let id = m.guest.id.as_str();
            if seen.contains(&id) || seated(id) {
                continue;
            }
            seen.push(id);
            names.push(m.guest.name.clone());
            if names.len() == WATCHERS_SHOWN {
                break;
            }
        }
        names
    }

    fn finish_fx(&mut self, now: Millis) -> Effects<G> {
        let mut fx = std::mem::take(&mut self.fx.0);
        fx.wake = self.wake_at(now);
        if let Stage::MatchOver { record_due: false, retire_at: Some(r) } = self.stage
            && self.members.is_empty()
            && r <= now
        {
            fx.retire = true;
        }
        fx
    }

    // -------------------------------------------------------------------------------------------
    // Inputs

    fn member(&self, conn: ConnId) -> Option<&Member> {
        self.members.iter().find(|m| m.conn == conn)
    }

    fn rows(&self, entries: &[(Seat, Logged<G::Action>)]) -> Vec<LoggedAction> {
        let start = self.log_len;
        entries
            .iter()
            .enumerate()
            .map(|(i, (s, a))| LoggedAction {
                seq: start + i as u64,
                hand: self.hand,
                seat: s.number(),
                action: a.to_json(),
            })
            .collect()
    }

    /// Logs actions (any buffered draw answers first): the write, and the table's log follows.
    fn log_actions(&mut self, actions: &[(Seat, G::Action)]) -> Option<Write> {
        let mut all = std::mem::take(&mut self.draw_answers);
        all.extend_from_slice(actions);
        let entries: Vec<_> = all.into_iter().map(|(s, a)| (s, Logged::Act(a))).collect();
        self.log_entries(entries)
    }

    /// Logs entries (any forfeit entries waiting first): the write, and the table's log follows.
    fn log_entries(&mut self, entries: Vec<(Seat, Logged<G::Action>)>) -> Option<Write> {
        let mut entries = entries;
        if !self.forfeits.is_empty() {
            let mut all: Vec<_> = self.forfeits.drain(..).map(|(s, k)| (s, Logged::Forfeit(k))).collect();
            all.append(&mut entries);
            entries = all;
        }
        if entries.is_empty() {
            return None;
        }
        let rows = self.rows(&entries);
        self.log_len += rows.len() as u64;
        let hand = self.hand;
        self.fresh.extend(entries.into_iter().map(|(s, a)| (hand, s, a)));
        Some(Write::Actions(rows))
    }

    fn handle(&mut self, input: Input<G>, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let request = match input {
            Input::Tick => return self.tick(now),
            Input::Done(done) => return self.done(done, now),
            Input::Request(r) => r,
        };
        let unpark = matches!(request, Request::Join { .. } | Request::Watch { .. })
            && self.status == TableStatus::Parked;
        let mut writes = Vec::new();
        if unpark {
            self.unpark(now);
            writes.push(Write::Status(TableStatus::Playing));
        }
        match request {
            Request::Join { conn, guest, seat } => {
                writes.append(&mut self.join(conn, guest, seat, now));
                return (writes, OnFail::Refuse { conn, join: true, what: "the seat could not be saved" });
            }
            Request::Watch { conn, guest } => {
                self.members.retain(|m| m.conn != conn);
                self.members.push(Member { conn, guest, seat: None });
                self.fx.replies.push((conn, Ok(())));
                self.broadcast_seats(Some(conn), now);
                self.sync_to(conn, now);
                return (writes, OnFail::Anyway("cannot mark the table playing again"));
            }
            Request::Act { conn, action, move_no, seat } => {
                return self.act(conn, action, move_no, seat, now);
            }
            Request::Chat { conn, text, at_ms } => return self.say(conn, text, at_ms),
            Request::Resync { conn } => self.sync_to(conn, now),
            Request::Leave { conn } => return self.leave(conn, now),
            Request::Back { conn } => match self.member(conn).and_then(|m| m.seat) {
                Some(s) => {
                    if self.seats[s.index()].away {
                        self.seats[s.index()].away = false;
                        self.restart_turn(s, now);
                        self.broadcast_seats(None, now);
                    }
                    self.reply(conn, ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Back, legal: None }));
                }
                None => self.err(conn, ErrorCode::NotSeated, "only a seated player can come back"),
            },
            Request::Start { conn } => {
                let Some(m) = self.member(conn) else { return none };
                if self.host.as_deref() != Some(m.guest.id.as_str()) {
                    self.err(conn, ErrorCode::NotHost, "only the table's host can start the match");
                } else if self.status != TableStatus::Waiting {
                    self.err(conn, ErrorCode::AlreadyStarted, "the match has already begun");
                } else {
                    return self.begin_match(now);
                }
            }
            Request::Next { conn } => self.next(conn, now),
            Request::Gone { conn } => self.gone(conn, now),
            Request::Hint { conn } => self.ask_hint(conn),
            Request::Tracker { conn } => self.send_tracker(conn),
            Request::AutoStart => {
                if self.status == TableStatus::Waiting && self.seats.iter().all(|s| s.owner != SeatRow::Open)
                {
                    return self.begin_match(now);
                }
            }
            Request::Close { conn, keep } => return self.close(conn, keep, now),
            Request::TakeBack { conn } => return self.take_back(conn, now),
            Request::Pause { conn, pause } => self.pause(conn, pause, now),
            Request::Remove { conn, seat } => return self.remove(conn, seat, now),
            Request::Rematch { conn } => self.offer_rematch(conn),
            Request::Rematched { table } => self.rematched(table),
            Request::Invite { guests } => {
                if self.status == TableStatus::Waiting {
                    for (i, g) in guests.into_iter().enumerate() {
                        self.invited[i] = g.filter(|_| self.seats[i].owner == SeatRow::Open);
                    }
                    self.broadcast_seats(None, now);
                }
            }
        }
        none
    }

    /// Whether `conn` is the host's connection; if not, it is told so (`what`: what only the
    /// host may do).
    fn host_only(&mut self, conn: ConnId, what: &str) -> bool {
        let Some(m) = self.member(conn) else { return false };
        if self.host.as_deref() == Some(m.guest.id.as_str()) {
            return true;
        }
        self.err(conn, ErrorCode::NotHost, format!("only the table's host can {what}"));
        false
    }

    /// The host closes the table: it is over at once, without a record (the hands completed
    /// stay in its log); everyone at the table is told. With `keep`, the match ends with the
    /// record of its finished hands instead (it is finished, ended by its host).
    fn close(&mut self, conn: ConnId, keep: bool, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        if !self.host_only(conn, "close it") {
            return none;
        }
        if self.status.is_over() || matches!(self.stage, Stage::MatchOver { .. }) {
            let code =
                if self.status == TableStatus::Closed { ErrorCode::Closed } else { ErrorCode::Finished };
            self.err(conn, code, "the table's match is over already; there is nothing to close");
            return none;
        }
        let kept = if keep {
            if self.results.is_empty() {
                self.err(conn, ErrorCode::NothingToKeep, "no hand is finished yet: there is nothing to keep");
                return none;
            }
            let log = self.full_log.take().unwrap_or_default();
            match record_of_finished::<G>(&self.settings, self.seed, self.players(), &log) {
                Ok(r) => Some(r),
                Err(e) => {
                    self.fx.notes.push(format!("table {}: the record cannot be written: {e}", self.id));
                    self.err(conn, ErrorCode::Storage, format!("the record cannot be written: {e}"));
                    return none;
                }
            }
        } else {
            None
        };
        let by = self.member(conn).map(|m| m.guest.name.clone()).unwrap_or_default();
        self.status = if kept.is_some() { TableStatus::Finished } else { TableStatus::Closed };
        // Nothing more is played: answers of a draw not yet written are dropped with it.
        self.stage = Stage::MatchOver { record_due: false, retire_at: Some(now + self.timing.retire_ms) };
        self.job = None;
        self.held = None;
        self.draw_answers.clear();
        self.requests = [G::Request::default(); 4];
        self.invited = Default::default();
        for s in &mut self.seats {
            s.grace_until = None;
        }
        self.broadcast_seats(None, now);
        self.v += 1;
        let to = self.members.iter().map(|m| m.conn).collect();
        let hands = self.results.len();
        let event = HostEvent::Closed { by, hands, kept: kept.is_some() };
        self.send_to(to, ServerMsg::Host(HostMsg { v: self.v, event }));
        let write = match kept {
            Some(record) => Write::Finish { record },
            None => Write::Status(TableStatus::Closed),
        };
        (
            vec![write],
            OnFail::Refuse { conn, join: false, what: "the table could not be closed, nothing changed" },
        )
    }

    /// The host removes the person of `seat`, who must be away (his turn clock ran out, or none
    /// of his connections is open): the seat becomes open (a bot plays it meanwhile, and anyone
    /// may take it), and he may only watch from then on.
    fn remove(&mut self, conn: ConnId, seat: u8, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        if !self.host_only(conn, "remove a player") {
            return none;
        }
        if self.status.is_over() {
            self.err(conn, ErrorCode::Finished, "the table's match is over; nobody can be removed");
            return none;
        }
        let Some(s) = Seat::new(seat) else {
            self.err(conn, ErrorCode::BadMessage, format!("seat must be 0–3, not {seat}"));
            return none;
        };
        let st = &self.seats[s.index()];
        let SeatRow::Person { guest, name } = st.owner.clone() else {
            self.err(conn, ErrorCode::BadMessage, format!("seat {seat} holds no person"));
            return none;
        };
        if st.conns > 0 && !st.away {
            self.err(
                conn,
                ErrorCode::NotAway,
                format!("{name} (seat {seat}) is at the table: only a person who is away can be removed"),
            );
            return none;
        }
        if !self.removed.contains(&guest) {
            self.removed.push(guest.clone());
        }
        for m in &mut self.members {
            if m.seat == Some(s) {
                m.seat = None;
            }
        }
        self.seats[s.index()] = SeatState { owner: SeatRow::Open, conns: 0, away: false, grace_until: None };
        self.requests[s.index()] = G::Request::default();
        self.broadcast_seats(None, now);
        self.v += 1;
        let to = self.members.iter().map(|m| m.conn).collect();
        self.send_to(to, ServerMsg::Host(HostMsg { v: self.v, event: HostEvent::Removed { seat: s, name } }));
        // The removed person's connections (away, but connected) watch now.
        let watching: Vec<ConnId> =
            self.members.iter().filter(|m| m.guest.id == guest).map(|m| m.conn).collect();
        for c in watching {
            self.sync_to(c, now);
        }
        (
            vec![Write::Seat { seat, owner: SeatRow::Open }],
            OnFail::Refuse { conn, join: false, what: "the seat could not be freed, nothing changed" },
        )
    }

    /// The host offers a rematch: the driver is asked to make its table.
    fn offer_rematch(&mut self, conn: ConnId) {
        if !self.host_only(conn, "offer a rematch") {
            return;
        }
        match (&self.rematch, self.status) {
            (RematchState::Made(t), _) => {
                let msg = format!("a rematch was offered already: table {t}");
                self.err(conn, ErrorCode::RematchOffered, msg);
            }
            (RematchState::Pending(_), _) => {
                self.err(conn, ErrorCode::RematchOffered, "the rematch's table is being made");
            }
            (RematchState::None, TableStatus::Finished) => {
                self.rematch = RematchState::Pending(conn);
                let Some(host) = self.host.clone() else { return };
                self.fx.rematch = Some(RematchOrder {
                    host,
                    settings: self.doc.clone(),
                    seats: self.seats.clone().map(|s| s.owner),
                });
            }
            (RematchState::None, TableStatus::Closed) => {
                self.err(
                    conn,
                    ErrorCode::Closed,
                    "the host closed this table; a rematch follows a finished match",
                );
            }
            (RematchState::None, _) => {
                self.err(conn, ErrorCode::NotOver, "a rematch is offered when the match is over");
            }
        }
    }

    /// The rematch's table is made (or could not be): everyone at the table is told.
    fn rematched(&mut self, table: Result<String, String>) {
        let RematchState::Pending(conn) = self.rematch else { return };
        match table {
            Ok(t) => {
                self.rematch = RematchState::Made(t.clone());
                self.v += 1;
                let to = self.members.iter().map(|m| m.conn).collect();
                self.send_to(
                    to,
                    ServerMsg::Host(HostMsg { v: self.v, event: HostEvent::Rematch { table: t } }),
                );
            }
            Err(why) => {
                self.rematch = RematchState::None;
                self.err(conn, ErrorCode::Unavailable, format!("the rematch could not be made: {why}"));
            }
        }
    }

    fn join(&mut self, conn: ConnId, guest: Guest, want: Option<u8>, now: Millis) -> Vec<Write> {
        let held = Seat::ALL.into_iter().find(
            |s| matches!(&self.seats[s.index()].owner, SeatRow::Person { guest: g, .. } if *g == guest.id),
        );
        let refuse = |t: &mut Self, code: ErrorCode, msg: String| {
            t.fx.replies.push((conn, Err(Refusal::new(code, msg))));
            Vec::new()
        };
        if self.status == TableStatus::Finished && held.is_none() {
            return refuse(
                self,
                ErrorCode::Finished,
                "the match at this table is over; watch it or fetch its record".into(),
            );
        }
        if self.status == TableStatus::Closed && held.is_none() {
            return refuse(self, ErrorCode::Closed, "the host closed this table; you may watch it".into());
        }
        if held.is_none() && self.removed.contains(&guest.id) {
            return refuse(
                self,
                ErrorCode::Removed,
                "the host removed you from this table while you were away; you may watch it".into(),
            );
        }
        // A seat kept for an invited person (a rematch) is his alone.
        let kept_for = |t: &Self, s: Seat| t.invited[s.index()].as_ref().is_some_and(|g| g.id != guest.id);
        let mine = Seat::ALL
            .into_iter()
            .find(|s| self.invited[s.index()].as_ref().is_some_and(|g| g.id == guest.id));
        let want = match (held, want) {
            (None, None) => mine.map(|s| s.number()),
            (_, w) => w,
        };
        if held.is_none()
            && let Some(s) = want.and_then(Seat::new)
            && kept_for(self, s)
        {
            let name = self.invited[s.index()].as_ref().map(|g| g.name.clone()).unwrap_or_default();
            return refuse(
                self,
                ErrorCode::SeatTaken,
                format!("seat {} is kept for {name} (a rematch)", s.number()),
            );
        }
        if self.doc.rated && self.status != TableStatus::Waiting && held.is_none() {
            return refuse(
                self,
                ErrorCode::AlreadyStarted,
                "a rated match is played by those seated when it began: watch it instead".into(),
            );
        }
        let seat = match (held, want) {
            (Some(h), Some(w)) if h.number() != w => {
                return refuse(
                    self,
                    ErrorCode::SeatTaken,
                    format!("you hold seat {} at this table", h.number()),
                );
            }
            (Some(h), _) => h,
            (None, Some(w)) => match Seat::new(w) {
                None => return refuse(self, ErrorCode::BadMessage, format!("seat must be 0–3, not {w}")),
                Some(s) if self.seats[s.index()].owner != SeatRow::Open => {
                    return refuse(self, ErrorCode::SeatTaken, format!("seat {w} is not open"));
                }
                Some(s) => s,
            },
            (None, None) => {
                match Seat::ALL
                    .into_iter()
                    .find(|&s| self.seats[s.index()].owner == SeatRow::Open && !kept_for(self, s))
                {
                    Some(s) => s,
                    None => {
                        return refuse(
                            self,
                            ErrorCode::NoSeat,
                            "no seat is open at this table; watch it instead".to_string(),
                        );
                    }
                }
            }
        };
        let mut writes = Vec::new();
        if held.is_none() {
            self.invited[seat.index()] = None;
            let owner = SeatRow::Person { guest: guest.id.clone(), name: guest.name.clone() };
            writes.push(Write::Seat { seat: seat.number(), owner: owner.clone() });
            self.seats[seat.index()].owner = owner;
        }
        let st = &mut self.seats[seat.index()];
        st.conns += 1;
        st.away = false;
        st.grace_until = None;
        self.members.retain(|m| m.conn != conn);
        self.members.push(Member { conn, guest, seat: Some(seat) });
        self.person_back(seat, now);
        self.fx.replies.push((conn, Ok(())));
        self.broadcast_seats(Some(conn), now);
        self.sync_to(conn, now);
        let full = self.seats.iter().all(|s| s.owner != SeatRow::Open);
        if self.status == TableStatus::Waiting && full {
            self.stage = Stage::Waiting { start_due: true };
        }
        writes
    }

    /// A person is in charge of his seat again: a bot's move being computed for it is dropped
    /// if his turn clock has time left (the clock is never restarted).
    fn person_back(&mut self, seat: Seat, now: Millis) {
        if let Stage::Turn { seat: s, deadline, bot_at } = &mut self.stage
            && *s == seat
            && (deadline.is_some_and(|d| d + self.bank[seat.index()] > now)
                || (deadline.is_none() && self.doc.untimed))
        {
            *bot_at = None;
            self.job = None;
        }
    }

    /// A person takes his seat back from the bot that played for him: if it is his turn (or his
    /// stake to name), the bot's move is dropped and he has a whole turn clock from now, his
    /// bank as it stands (`docs/protocol.md`, "Clocks").
    fn restart_turn(&mut self, seat: Seat, now: Millis) {
        let full = (!self.doc.untimed).then(|| now + u64::from(self.doc.turn_seconds) * 1000);
        let mut dropped = false;
        match &mut self.stage {
            Stage::Turn { seat: s, deadline, bot_at } if *s == seat => {
                *deadline = full;
                *bot_at = None;
                dropped = true;
            }
            Stage::Stake { ask, deadline, bot_at } if ask.seat == seat => {
                *deadline = full;
                *bot_at = None;
            }
            _ => {}
        }
        if dropped {
            self.job = None;
        }
    }

    /// The seat of `conn` if it may take back a play or pause the match (`what`): a player alone
    /// with bots at an unrated table whose match is being played; if not, he is told why.
    fn solo(&mut self, conn: ConnId, what: &str) -> Option<Seat> {
        let Some(seat) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, format!("only a seated player can {what}"));
            return None;
        };
        let persons = self.seats.clone().map(|s| matches!(s.owner, SeatRow::Person { .. }));
        if !solo_allowed(&self.doc, &persons, seat.index()) {
            let why = if self.doc.rated { "a rated table" } else { "another person plays at this table" };
            self.err(
                conn,
                ErrorCode::NotAlone,
                format!("only a player alone with bots at an unrated table can {what}: this is {why}"),
            );
            return None;
        }
        let code = match self.status {
            TableStatus::Playing | TableStatus::Parked => return Some(seat),
            TableStatus::Waiting => ErrorCode::NotStarted,
            TableStatus::Finished => ErrorCode::Finished,
            TableStatus::Closed => ErrorCode::Closed,
        };
        self.err(conn, code, format!("the match is not being played: nothing to {what}"));
        None
    }

    /// Pauses (`pause`) or resumes the match of a player alone with bots: while it is paused,
    /// no clock runs and no bot moves; resumed, each clock starts afresh where it was (a turn
    /// clock whole, the bank as it stood).
    fn pause(&mut self, conn: ConnId, pause: bool, now: Millis) {
        let what = if pause { "pause the match" } else { "resume the match" };
        if self.solo(conn, what).is_none() {
            return;
        }
        match (&self.stage, pause) {
            (Stage::Paused { .. }, true) => {
                self.err(conn, ErrorCode::Paused, "the match is paused already");
            }
            (Stage::Paused { .. }, false) => {
                let Stage::Paused { was } =
                    std::mem::replace(&mut self.stage, Stage::Waiting { start_due: false })
                else {
                    return;
                };
                self.restore(*was, now);
                self.broadcast_seats(None, now);
                self.sync_all(now);
            }
            (_, false) => self.err(conn, ErrorCode::NothingToDecide, "the match is not paused"),
            (Stage::Waiting { .. } | Stage::MatchOver { .. } | Stage::Parked { .. }, true) => {
                self.err(conn, ErrorCode::NothingToDecide, "there is nothing to pause now");
            }
            (_, true) => {
                self.job = None;
                self.held = None;
                let was = std::mem::replace(&mut self.stage, Stage::Waiting { start_due: false });
                self.stage = Stage::Paused { was: Box::new(was) };
                self.broadcast_seats(None, now);
                self.sync_all(now);
            }
        }
    }

    /// Everyone at the table gets a `sync` (what each may do changed with the stage).
    fn sync_all(&mut self, now: Millis) {
        let conns: Vec<ConnId> = self.members.iter().map(|m| m.conn).collect();
        for c in conns {
            self.sync_to(c, now);
        }
    }

    /// The player alone with bots takes back his last play of the hand being played (or just
    /// finished): it and every action after it are undone (the log keeps a take-back entry, the
    /// record only the line finally played), and it is his turn again, on a whole clock.
    fn take_back(&mut self, conn: ConnId, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let Some(seat) = self.solo(conn, "take back a play") else { return none };
        match &self.stage {
            Stage::Paused { .. } => {
                self.err(conn, ErrorCode::Paused, "the match is paused: resume it first");
                return none;
            }
            Stage::Turn { .. } | Stage::Trick { .. } | Stage::HandOver { .. } => {}
            _ => {
                self.err(
                    conn,
                    ErrorCode::NothingToTakeBack,
                    "a play is taken back while the hand is played or just after it, not now",
                );
                return none;
            }
        }
        let Some(log) = self.full_log.take() else { return none };
        let r = match replay::<G>(&self.settings, self.seed, &log) {
            Ok(r) => r,
            Err(e) => {
                self.fx.notes.push(format!("table {}: the log does not replay: {e}", self.id));
                return none;
            }
        };
        let last = r.line.iter().rposition(|(s, _, turn)| *s == seat && *turn);
        let Some(k) = last.filter(|_| r.line_hand == self.hand) else {
            self.err(conn, ErrorCode::NothingToTakeBack, "you have no play of this hand to take back");
            return none;
        };
        let actions = (r.line.len() - k) as u32;
        let writes: Vec<Write> = self.log_entries(vec![(seat, Logged::Undo(actions))]).into_iter().collect();
        let mut all = log;
        for w in &writes {
            if let Write::Actions(rows) = w {
                all.extend(rows.iter().cloned());
            }
        }
        let r = match replay::<G>(&self.settings, self.seed, &all) {
            Ok(r) => r,
            Err(e) => {
                self.fx.notes.push(format!("table {}: a take-back does not replay: {e}", self.id));
                self.err(conn, ErrorCode::NothingToTakeBack, format!("the play cannot be taken back: {e}"));
                return none;
            }
        };
        let mut states = r.states;
        self.state = states.pop();
        self.m = Some(r.m);
        self.results = std::sync::Arc::new(r.results);
        self.moves = r.moves.saturating_sub(1);
        self.requests = [G::Request::default(); 4];
        self.draw_answers.clear();
        self.held = None;
        self.job = None;
        self.seats[seat.index()].away = false;
        self.after_change(now, None);
        self.broadcast(Event::TakeBack { seat, actions }, now);
        (
            writes,
            OnFail::Refuse { conn, join: false, what: "the take-back could not be saved, nothing changed" },
        )
    }

    fn gone(&mut self, conn: ConnId, now: Millis) {
        let Some(i) = self.members.iter().position(|m| m.conn == conn) else { return };
        let m = self.members.swap_remove(i);
        if let Some(s) = m.seat {
            let grace = u64::from(self.doc.grace_seconds) * 1000;
            let seat = &mut self.seats[s.index()];
            seat.conns = seat.conns.saturating_sub(1);
            if seat.conns == 0 {
                seat.grace_until = (grace > 0 && self.status == TableStatus::Playing).then_some(now + grace);
            }
        }
        self.broadcast_seats(None, now);
        if let Stage::MatchOver { retire_at, .. } = &mut self.stage
            && self.members.is_empty()
        {
            *retire_at = Some(now + self.timing.retire_ms);
        }
    }

    fn leave(&mut self, conn: ConnId, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let Some(i) = self.members.iter().position(|m| m.conn == conn) else { return none };
        let Some(s) = self.members[i].seat else {
            self.err(conn, ErrorCode::NotSeated, "you are not seated");
            return none;
        };
        let guest = self.members[i].guest.id.clone();
        for m in &mut self.members {
            if m.seat == Some(s) && m.guest.id == guest {
                m.seat = None;
            }
        }
        if self.doc.rated && matches!(self.status, TableStatus::Playing | TableStatus::Parked) {
            // Leaving a rated match forfeits it: the seat stays his (a bot plays it to the end,
            // and he may sit down again), and the log keeps that he left.
            let st = &mut self.seats[s.index()];
            st.conns = 0;
            st.away = true;
            st.grace_until = None;
            self.conduct.note(s.index(), ForfeitKind::Left);
            let writes: Vec<Write> =
                self.log_entries(vec![(s, Logged::Forfeit(ForfeitKind::Left))]).into_iter().collect();
            self.broadcast_seats(None, now);
            self.sync_to(conn, now);
            return (writes, OnFail::Refuse { conn, join: false, what: "the seat could not be given up" });
        }
        self.seats[s.index()] = SeatState { owner: SeatRow::Open, conns: 0, away: false, grace_until: None };
        self.requests[s.index()] = G::Request::default();
        self.broadcast_seats(None, now);
        self.sync_to(conn, now);
        (
            vec![Write::Seat { seat: s.number(), owner: SeatRow::Open }],
            OnFail::Refuse { conn, join: false, what: "the seat could not be given up" },
        )
    }

    fn next(&mut self, conn: ConnId, now: Millis) {
        let Some(s) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, "you are not seated");
            return;
        };
        let playing = self.status == TableStatus::Playing;
        match &mut self.stage {
            Stage::HandOver { ready, .. } if playing => {
                ready[s.index()] = true;
                self.reply(conn, ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Next, legal: None }));
                self.broadcast_seats(None, now);
            }
            Stage::MatchOver { .. } if playing => {
                self.reply(conn, ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Next, legal: None }));
            }
            _ => self.err(conn, ErrorCode::NothingToDecide, "the next hand is dealt only between hands"),
        }
    }

    fn say(&mut self, conn: ConnId, text: String, at_ms: i64) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let Some(m) = self.member(conn) else { return none };
        let text = match crate::text::check_text(crate::text::TextKind::Chat, &text, 500) {
            Ok(t) => t,
            Err(e) => {
                self.err(conn, ErrorCode::BadChat, e.to_string());
                return none;
            }
        };
        let row = ChatRow {
            seq: self.chat_seq,
            at_ms,
            guest: Some(m.guest.id.clone()),
            name: m.guest.name.clone(),
            seat: m.seat.map(|s| s.number()),
            text,
        };
        self.chat_seq += 1;
        self.v += 1;
        let to = self.members.iter().map(|m| m.conn).collect();
        self.send_to(to, ServerMsg::Chat(ChatMsg { v: self.v, message: row.clone() }));
        self.chat.push_back(row.clone());
        while self.chat.len() > CHAT_KEPT {
            self.chat.pop_front();
        }
        (vec![Write::Chat(row)], OnFail::Refuse { conn, join: false, what: "the line could not be saved" })
    }

    fn act(
        &mut self,
        conn: ConnId,
        raw: ActAction,
        move_no: Option<u64>,
        named: Option<u8>,
        now: Millis,
    ) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let Some(seat) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, "only a seated player can act; join a seat first");
            return none;
        };
        if let Some(n) = named
            && n != seat.number()
        {
            self.err(conn, ErrorCode::NotYourSeat, format!("you are seat {}, not seat {n}", seat.number()));
            return none;
        }
        match self.status {
            TableStatus::Waiting => {
                self.err(conn, ErrorCode::NotStarted, "the match has not begun");
                return none;
            }
            TableStatus::Finished => {
                self.err(conn, ErrorCode::Finished, "the match is over");
                return none;
            }
            TableStatus::Closed => {
                self.err(conn, ErrorCode::Closed, "the host closed this table");
                return none;
            }
            TableStatus::Parked | TableStatus::Playing => {}
        }
        if matches!(&self.stage, Stage::Paused { .. })
            || matches!(&self.stage, Stage::Parked { was } if matches!(was.as_ref(), Stage::Paused { .. }))
        {
            self.err(conn, ErrorCode::Paused, "the match is paused: resume it first");
            return none;
        }
        let staking = match &self.stage {
            Stage::Stake { ask, .. } => Some(*ask),
            Stage::Parked { was } => match was.as_ref() {
                Stage::Stake { ask, .. } => Some(*ask),
                _ => None,
            },
            _ => None,
        };
        if let ActAction::Stake(c) = raw {
            let Some(ask) = staking else {
                self.err(
                    conn,
                    ErrorCode::TooLate,
                    "the stake is named by the banker before the deal, not now",
                );
                return none;
            };
            if ask.seat != seat {
                let msg = format!("{} is the banker and names the stake, not you ({seat})", ask.seat);
                self.err(conn, ErrorCode::NotYourTurn, msg);
                return none;
            }
            if let Err(why) = G::check_stake(&self.settings, c.stake) {
                self.err(conn, ErrorCode::Illegal, why.to_string());
                return none;
            }
            if self.seats[seat.index()].away {
                self.seats[seat.index()].away = false;
                self.person_back(seat, now);
                self.broadcast_seats(None, now);
            }
            if let Stage::Stake { deadline, .. } = self.stage {
                self.draw_bank(seat, deadline, now);
            }
            let writes = self.name_stake(ask, c.stake, false, now);
            return (
                writes,
                OnFail::Refuse { conn, join: false, what: "the stake could not be saved, nothing changed" },
            );
        }
        if let Some(ask) = staking {
            let msg = format!("the hand is not dealt yet: its banker ({}) names the stake first", ask.seat);
            self.err(conn, ErrorCode::NotYourTurn, msg);
            return none;
        }
        let action: G::Action = match G::from_wire(raw) {
            Some(a) => a,
            None => {
                let game = G::KIND.name();
                self.err(conn, ErrorCode::Illegal, format!("not an action of this game ({game})"));
                return none;
            }
        };
        let current = self.moves;
        if let Some(n) = move_no
            && n != current
        {
            self.err(
                conn,
                ErrorCode::Stale,
                format!("the action answers move {n}, but the table is at move {current}"),
            );
            return none;
        }
        if self.seats[seat.index()].away {
            // Acting is coming back.
            self.seats[seat.index()].away = false;
            self.person_back(seat, now);
            self.broadcast_seats(None, now);
        }
        let Some(st) = &self.state else { return none };
        let ov = self.overlay();
        if ov.drawn.is_some() || ov.window {
            match G::request(st, seat, ov, self.requests[seat.index()], &action) {
                Ok(r) => {
                    self.requests[seat.index()] = r;
                    let legal = G::legal_for(st, seat, ov, r);
                    let ack =
                        ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Request, legal: Some(legal) });
                    self.reply(conn, ack);
                }
                Err(RequestError::Illegal(why)) => self.err(conn, ErrorCode::Illegal, why.to_string()),
                Err(RequestError::TooLate(why)) => self.err(conn, ErrorCode::TooLate, why.to_string()),
                Err(RequestError::Refused(why)) => self.err(conn, ErrorCode::Illegal, why.to_string()),
            }
            return none;
        }
        if G::is_request(&action) {
            self.err(
                conn,
                ErrorCode::TooLate,
                "there is no draw or window open now: this request comes too late",
            );
            return none;
        }
        let Some(turn) = G::to_move(st) else {
            self.err(conn, ErrorCode::NothingToDecide, "the hand is over; the next one is dealt soon");
            return none;
        };
        if turn != seat {
            self.err(conn, ErrorCode::NotYourTurn, format!("it is {turn}'s turn, not yours ({seat})"));
            return none;
        }
        let mut next = st.clone();
        if let Err(why) = G::apply(&mut next, action) {
            self.err(conn, ErrorCode::Illegal, why.to_string());
            return none;
        }
        if let Stage::Turn { seat: s, deadline, .. } = self.stage
            && s == seat
        {
            self.draw_bank(seat, deadline, now);
        }
        let writes = self.log_actions(&[(seat, action)]).into_iter().collect();
        self.job = None;
        self.moved(next, seat, action, false, now);
        (writes, OnFail::Refuse { conn, join: false, what: "the move could not be saved, nothing changed" })
    }

    // -------------------------------------------------------------------------------------------
    // The match

    fn begin_match(&mut self, now: Millis) -> (Vec<Write>, OnFail) {
        self.status = TableStatus::Playing;
        // The seats kept for a rematch's people who did not come are open to anyone now.
        self.invited = Default::default();
        self.m = Some(G::new_match(&self.settings, self.seed));
        self.hand = 0;
        self.deal(now);
        self.broadcast(Event::Started, now);
        (vec![Write::Status(TableStatus::Playing)], OnFail::Drop("cannot start"))
    }

    /// Deals hand `self.hand` and enters its first stage, or first asks its banker for the
    /// stake (Madiao §2).
    fn deal(&mut self, now: Millis) {
        let Some(m) = &self.m else { return };
        let ask = G::stake_choice(&self.settings, m, self.seed, self.hand);
        self.state = match ask {
            Some(_) => None,
            None => G::start_hand(&self.settings, m, self.seed, self.hand, None),
        };
        self.requests = [G::Request::default(); 4];
        self.draw_answers.clear();
        self.held = None;
        self.job = None;
        match ask {
            Some(ask) => self.start_stake(ask, now),
            None => self.enter_hand(now, false),
        }
    }

    /// The banker's turn to name the stake begins.
    fn start_stake(&mut self, ask: StakeAsk, now: Millis) {
        let person = matches!(self.seats[ask.seat.index()].owner, SeatRow::Person { .. });
        let deadline = (person && !self.doc.untimed).then(|| now + u64::from(self.doc.turn_seconds) * 1000);
        let bot_at = match self.controller(ask.seat, now) {
            Controller::Bot(_) => Some(now + self.timing.bot_delay_ms),
            Controller::Person => None,
        };
        self.stage = Stage::Stake { ask, deadline, bot_at };
    }

    /// The banker named the stake (checked): it is logged, the hand is dealt at that stake and
    /// its first stage begins.
    fn name_stake(&mut self, ask: StakeAsk, stake: u32, by_bot: bool, now: Millis) -> Vec<Write> {
        let writes = self.log_entries(vec![(ask.seat, Logged::Stake(stake))]).into_iter().collect();
        self.state =
            self.m.as_ref().and_then(|m| G::start_hand(&self.settings, m, self.seed, self.hand, Some(stake)));
        self.enter_hand(now, false);
        self.broadcast(Event::Stake { seat: ask.seat, stake, by_bot }, now);
        writes
    }

    /// Enters the stage a hand begins (or resumes) with.
    fn enter_hand(&mut self, now: Millis, resumed: bool) {
        let Some(st) = &self.state else { return };
        let live = G::to_move(st).is_some();
        let begin = G::begin(st, resumed);
        if live || (!resumed && begin == Begin::Draw) {
            match begin {
                Begin::Draw => self.stage = Stage::Draw { shown: 0, due: now + self.draw_every() },
                Begin::Window => self.stage = Stage::Window { until: now + self.window_len() },
                Begin::Play => self.after_change(now, None),
            }
        } else {
            self.after_change(now, None);
        }
    }

    fn start_turn(&mut self, seat: Seat, now: Millis, bot_delay: Millis) {
        let person = matches!(self.seats[seat.index()].owner, SeatRow::Person { .. });
        let deadline = (person && !self.doc.untimed).then(|| now + u64::from(self.doc.turn_seconds) * 1000);
        let bot_at = match self.controller(seat, now) {
            Controller::Bot(_) => Some(now + bot_delay),
            Controller::Person => None,
        };
        self.job = None;
        self.stage = Stage::Turn { seat, deadline, bot_at };
    }

    /// After a move (or a hand dealt, a window closed): the next stage. `tricks_before`: the
    /// complete tricks before the move, to show a trick just finished.
    fn after_change(&mut self, now: Millis, tricks_before: Option<usize>) {
        let Some(st) = &self.state else { return };
        match G::to_move(st) {
            Some(s) => {
                if tricks_before.is_some_and(|b| G::tricks_done(st) > b) && self.trick_len() > 0 {
                    self.stage = Stage::Trick { until: now + self.trick_len() };
                } else {
                    self.start_turn(s, now, self.timing.bot_delay_ms);
                }
            }
            None => {
                if let Some(m) = &mut self.m {
                    std::sync::Arc::make_mut(&mut self.results).extend(G::finish_hand(m, st));
                }
                if self.m.as_ref().is_some_and(|m| G::match_over(m)) {
                    let record_due = self.status != TableStatus::Finished;
                    self.stage = Stage::MatchOver { record_due, retire_at: None };
                } else {
                    self.stage = Stage::HandOver { until: self.pause_until(now), ready: [false; 4] };
                }
            }
        }
    }

    /// A move is applied (already logged): it is shown and the next stage begins.
    fn moved(&mut self, next: G::State, seat: Seat, action: G::Action, by_bot: bool, now: Millis) {
        let before = self.state.as_ref().map(|s| G::tricks_done(s));
        self.state = Some(next);
        self.after_change(now, before);
        self.broadcast(Event::Action { seat, action, by_bot }, now);
    }

    /// A person's clock ran out: at a rated table, the log keeps it (with the next write).
    fn clock_ran_out(&mut self, seat: Seat) {
        if self.doc.rated && matches!(self.seats[seat.index()].owner, SeatRow::Person { .. }) {
            self.conduct.note(seat.index(), ForfeitKind::Clock);
            self.forfeits.push((seat, ForfeitKind::Clock));
        }
    }

    /// A rated table whose match is over: the match as ratings read it.
    fn rated_end(&self, now: Millis) -> Option<RatedMatch> {
        if !self.doc.rated {
            return None;
        }
        let standings = self.match_json().and_then(|m| m.standings());
        let away = std::array::from_fn(|i| {
            let s = &self.seats[i];
            matches!(s.owner, SeatRow::Person { .. })
                && (s.away || (s.conns == 0 && s.grace_until.is_some_and(|g| g <= now)))
        });
        let owners = std::array::from_fn(|i| self.seats[i].owner.clone());
        rated_match(self.doc.game, &owners, standings, &self.conduct, away)
    }

    /// Whether the table is rated.
    pub fn rated(&self) -> bool {
        self.doc.rated
    }

    /// Whether `guest` holds a seat at the table.
    pub fn seated(&self, guest: &str) -> bool {
        self.seats.iter().any(|s| matches!(&s.owner, SeatRow::Person { guest: g, .. } if g == guest))
    }

    /// A rated match: what the log says of the seats' conduct so far.
    pub fn conduct(&self) -> Conduct {
        self.conduct
    }

    fn players(&self) -> [String; 4] {
        std::array::from_fn(|i| match &self.seats[i].owner {
            SeatRow::Open => format!("bot:{}", default_bot::<G>()),
            SeatRow::Bot(b) => format!("bot:{b}"),
            SeatRow::Person { name, .. } => name.clone(),
        })
    }

    /// A hint asked by `conn`: for its own seat, on its turn, at a table that offers hints.
    fn ask_hint(&mut self, conn: ConnId) {
        let Some(seat) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, "only a seated player can ask for a hint");
            return;
        };
        if !hints_allowed(&self.doc) {
            self.err(conn, ErrorCode::HintsOff, "hints are not offered at a rated table");
            return;
        }
        let Some(st) = self.state.as_ref().filter(|_| self.playing_turn(seat)) else {
            self.err(conn, ErrorCode::NotYourTurn, "a hint is given only on your own turn");
            return;
        };
        if self.hint_job.is_some() {
            self.err(conn, ErrorCode::RateLimited, "a hint is being worked out already: wait for it");
            return;
        }
        let work = Work::Hint {
            view: G::view(st, seat),
            legal: G::legal_actions(st),
            seat,
            conn,
            move_no: self.moves,
            seed: decision_seed(self.seed ^ 0x4849_4e54, seat, self.log_len),
        };
        self.next_job += 1;
        self.hint_job = Some(self.next_job);
        self.fx.jobs.push(Job { id: self.next_job, work });
    }

    /// True when `seat` is to play now (its turn, or the next lead while a finished trick is on
    /// show): not a poll of the draw or a window, not the stake.
    fn playing_turn(&self, seat: Seat) -> bool {
        let stage = match &self.stage {
            Stage::Turn { seat: s, .. } => *s == seat,
            Stage::Trick { .. } => true,
            _ => false,
        };
        let ov = self.overlay();
        stage
            && ov.drawn.is_none()
            && !ov.window
            && self.state.as_ref().is_some_and(|st| G::to_move(st) == Some(seat))
    }

    /// A hint worked out: sent to the connection that asked, if the seat is still to move at the
    /// same move, and logged.
    fn hint_done(&mut self, result: Result<Outcome<G>, String>) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let HintOutcome { seat, conn, move_no, action, reason } = match result {
            Ok(Outcome::Hint(h)) => *h,
            Ok(_) => return none,
            Err(e) => {
                self.fx.notes.push(format!("table {}: {e}", self.id));
                return none;
            }
        };
        let current = self.playing_turn(seat)
            && self.moves == move_no
            && self.member(conn).and_then(|m| m.seat) == Some(seat);
        if !current {
            self.err(conn, ErrorCode::Stale, "the position changed before the hint was ready: ask again");
            return none;
        }
        let msg = ServerMsg::Hint(HintMsg {
            v: self.v,
            move_no,
            seat,
            action: serde_json::to_value(action).unwrap_or_default(),
            reason: HintReason { kind: reason.kind.name().to_string(), en: reason.en, zh: reason.zh },
        });
        self.reply(conn, msg);
        let writes = self.log_entries(vec![(seat, Logged::Hint)]).into_iter().collect();
        (writes, OnFail::Anyway("cannot log a hint"))
    }

    /// The card tracker of the connection's seat, sent to it alone.
    fn send_tracker(&mut self, conn: ConnId) {
        let Some(seat) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, "only a seated player has a card tracker");
            return;
        };
        if !hints_allowed(&self.doc) {
            self.err(conn, ErrorCode::HintsOff, "the card tracker is off at a rated table");
            return;
        }
        let tracker = self
            .state
            .as_ref()
            .and_then(|st| tracker_of(&G::table_view(st, Viewer::Seat(seat), self.overlay())));
        let msg = ServerMsg::Tracker(TrackerMsg { v: self.v, move_no: self.moves, tracker });
        self.reply(conn, msg);
    }

    fn new_job(&mut self, work: Work<G>) {
        self.next_job += 1;
        self.job = Some(self.next_job);
        self.fx.jobs.push(Job { id: self.next_job, work });
    }

    fn poll_job(&mut self, polls: Polls, now: Millis) {
        let Some(st) = self.state.clone() else { return };
        let controllers: [Controller; 4] = std::array::from_fn(|i| self.controller(Seat::ALL[i], now));
        let persons = std::array::from_fn(|i| controllers[i] == Controller::Person);
        let bots = controllers.map(|c| match c {
            Controller::Bot(b) => b,
            Controller::Person => default_bot::<G>().to_string(),
        });
        self.new_job(Work::Polls {
            state: st,
            polls,
            persons,
            bots,
            requests: self.requests,
            seed: self.seed,
        });
    }

    // -------------------------------------------------------------------------------------------
    // The clock

    fn watch_presence(&mut self, now: Millis) {
        if !self.members.is_empty() || self.status != TableStatus::Playing {
            self.park_at = None;
        } else if self.park_at.is_none() {
            self.park_at = Some(now + self.timing.park_ms);
        }
    }

    fn unpark(&mut self, now: Millis) {
        self.status = TableStatus::Playing;
        let Stage::Parked { was } = std::mem::replace(&mut self.stage, Stage::Waiting { start_due: false })
        else {
            return;
        };
        self.restore(*was, now);
    }

    /// The stage `was` goes on after a stop (parked, paused): its clocks start afresh.
    fn restore(&mut self, was: Stage, now: Millis) {
        self.stage = match was {
            Stage::Draw { shown, .. } => Stage::Draw { shown, due: now + self.draw_every() },
            Stage::Window { .. } => Stage::Window { until: now + self.window_len() },
            Stage::Trick { .. } => Stage::Trick { until: now + self.trick_len() },
            Stage::HandOver { .. } => Stage::HandOver { until: self.pause_until(now), ready: [false; 4] },
            Stage::Turn { seat, .. } => {
                self.start_turn(seat, now, self.timing.bot_delay_ms);
                return;
            }
            Stage::Stake { ask, .. } => {
                self.start_stake(ask, now);
                return;
            }
            other => other,
        };
    }

    /// What the clock does: one write at a time (parking, starting, the record, a poll's
    /// outcome), else the stages move on as time allows.
    fn tick(&mut self, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        if let Some(r) = self.retry_at {
            if r > now {
                return none;
            }
            self.retry_at = None;
        }
        if self.status == TableStatus::Playing
            && self.members.is_empty()
            && self.park_at.is_some_and(|p| p <= now)
        {
            self.park_at = None;
            self.status = TableStatus::Parked;
            self.job = None;
            self.held = None;
            let was = std::mem::replace(&mut self.stage, Stage::Waiting { start_due: false });
            self.stage = Stage::Parked { was: Box::new(was) };
            return (vec![Write::Status(TableStatus::Parked)], OnFail::Retry("cannot park"));
        }
        match self.stage {
            Stage::Waiting { start_due: true } => {
                self.stage = Stage::Waiting { start_due: false };
                if self.status == TableStatus::Waiting && self.seats.iter().all(|s| s.owner != SeatRow::Open)
                {
                    let (writes, _) = self.begin_match(now);
                    return (writes, OnFail::Retry("cannot start"));
                }
                return none;
            }
            Stage::MatchOver { record_due: true, .. } => {
                let worked =
                    self.record.take().unwrap_or_else(|| Err("the record was not worked out".into()));
                let record = match worked {
                    Ok(r) => r,
                    Err(e) => {
                        // The log replays by construction; a failure here is a bug, reported.
                        self.fx.notes.push(format!("table {}: the record cannot be written: {e}", self.id));
                        self.stage = Stage::MatchOver { record_due: false, retire_at: None };
                        return none;
                    }
                };
                self.status = TableStatus::Finished;
                self.stage =
                    Stage::MatchOver { record_due: false, retire_at: Some(now + self.timing.retire_ms) };
                self.broadcast_seats(None, now);
                let mut writes = vec![Write::Finish { record }];
                writes.extend(self.rated_end(now).map(Write::Rated));
                return (writes, OnFail::Retry("cannot store the record"));
            }
            _ => {}
        }
        if let Stage::Stake { ask, deadline, bot_at } = self.stage {
            let named = match self.controller(ask.seat, now) {
                // The banker's clock ran out: the lowest stake, and a bot plays for him until
                // he is back.
                Controller::Person if self.cutoff(ask.seat, deadline).is_some_and(|d| d <= now) => {
                    self.bank[ask.seat.index()] = 0;
                    self.seats[ask.seat.index()].away = true;
                    self.clock_ran_out(ask.seat);
                    self.broadcast_seats(None, now);
                    Some(ask.low)
                }
                Controller::Bot(_) if bot_at.is_some_and(|b| b <= now) => {
                    self.m.as_ref().map(|m| G::bot_stake(&self.settings, m, ask.seat, ask))
                }
                _ => None,
            };
            if let Some(stake) = named {
                let stake = G::check_stake(&self.settings, stake).unwrap_or(ask.low);
                let writes = self.name_stake(ask, stake, true, now);
                return (writes, OnFail::Retry("cannot write the stake"));
            }
        }
        if let Some((_, _, at)) = &self.held
            && *at <= now
        {
            let Some((answered, state, _)) = self.held.take() else { return none };
            return self.publish(answered, state, now);
        }
        none
    }

    /// A computation is done.
    fn done(&mut self, done: Done<G>, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        if self.hint_job == Some(done.id) {
            self.hint_job = None;
            return self.hint_done(done.result);
        }
        if self.job != Some(done.id) {
            return none;
        }
        self.job = None;
        match done.result {
            Err(e) => {
                self.fx.notes.push(format!("table {}: {e}; retrying", self.id));
                self.retry_at = Some(now + RETRY_MS);
                none
            }
            Ok(Outcome::Bot { seat, action }) => {
                let Stage::Turn { seat: s, .. } = self.stage else { return none };
                let Some(st) = &self.state else { return none };
                if s != seat || G::to_move(st) != Some(seat) {
                    return none;
                }
                let mut next = st.clone();
                if let Err(e) = G::apply(&mut next, action) {
                    self.fx.notes.push(format!("table {}: a bot chose an illegal action: {e}", self.id));
                    self.retry_at = Some(now + RETRY_MS);
                    return none;
                }
                let writes = self.log_actions(&[(seat, action)]).into_iter().collect();
                self.moved(next, seat, action, true, now);
                (writes, OnFail::Retry("cannot write a bot's move"))
            }
            Ok(Outcome::Hint(_)) => none,
            Ok(Outcome::Polls { state, answered }) => {
                // Published at a fixed time after it was due, whatever the computing took.
                let due = match self.stage {
                    Stage::Draw { due, .. } => due,
                    Stage::Window { until } => until,
                    _ => return none,
                };
                let at = now.max(due + self.timing.poll_hold_ms);
                self.held = Some((answered, *state, at));
                none
            }
        }
    }

    fn publish(
        &mut self,
        answered: Vec<(Seat, G::Action)>,
        state: G::State,
        now: Millis,
    ) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        match self.stage {
            Stage::Draw { shown, due } => {
                let drawn = shown + 1;
                let decided = G::draw_decided(&state);
                if decided || drawn >= 48 {
                    // The draw is over: its answers are written before anyone sees the outcome.
                    let declaration = if decided { answered.last().copied() } else { None };
                    let writes: Vec<Write> = self.log_actions(&answered).into_iter().collect();
                    self.state = Some(state);
                    let window = self.state.as_ref().is_some_and(|st| G::window_after_draw(st));
                    if window {
                        self.stage = Stage::Window { until: now + self.window_len() };
                    } else {
                        self.after_change(now, None);
                    }
                    match declaration {
                        Some((seat, action)) => {
                            let by_bot = matches!(self.controller(seat, now), Controller::Bot(_));
                            self.broadcast(Event::Action { seat, action, by_bot }, now);
                        }
                        None => self.broadcast(Event::DrawEnd, now),
                    }
                    if window {
                        self.broadcast(Event::WindowOpen, now);
                    }
                    (writes, OnFail::Retry("cannot write the draw"))
                } else {
                    self.draw_answers.extend(answered);
                    self.state = Some(state);
                    // A steady pace: the next card is due one interval after this one was.
                    self.stage = Stage::Draw { shown: drawn, due: (due + self.draw_every()).max(now) };
                    self.broadcast(Event::Draw(drawn), now);
                    none
                }
            }
            Stage::Window { .. } => {
                let writes: Vec<Write> = self.log_actions(&answered).into_iter().collect();
                let outcome = G::window_outcome(&state);
                self.state = Some(state);
                self.requests = [G::Request::default(); 4];
                self.after_change(now, None);
                self.broadcast(Event::WindowClosed(outcome), now);
                (writes, OnFail::Retry("cannot write the window's answers"))
            }
            _ => none,
        }
    }

    /// Moves the stages on as far as `now` allows, without writing anything: starts the
    /// computations that are due, ends the trick on show and the pause, lets a bot stand in
    /// when a grace period or a turn clock runs out.
    fn drive(&mut self, now: Millis) {
        if self.retry_at.is_some_and(|r| r > now) {
            return;
        }
        // Grace periods that ran out: a bot stands in now.
        let mut seats_changed = false;
        for i in 0..4 {
            let s = &mut self.seats[i];
            if s.conns == 0 && s.grace_until.is_some_and(|g| g <= now) {
                s.grace_until = None;
                seats_changed = true;
            }
        }
        for _ in 0..8 {
            match self.stage.clone() {
                Stage::Draw { shown, due } => {
                    if self.job.is_none() && self.held.is_none() && due <= now {
                        let position = (self.log_len as usize + self.draw_answers.len()) as u64;
                        self.poll_job(Polls::Draw { drawn: shown + 1, position }, now);
                    }
                }
                Stage::Window { until } => {
                    if self.job.is_none() && self.held.is_none() && until <= now {
                        self.poll_job(Polls::Window { position: self.log_len }, now);
                    }
                }
                Stage::Trick { until } => {
                    if until <= now
                        && let Some(s) = self.state.as_ref().and_then(|st| G::to_move(st))
                    {
                        // The trick on show was the bot's delay; everyone learns the turn began.
                        self.start_turn(s, now, 0);
                        seats_changed = true;
                        continue;
                    }
                }
                Stage::HandOver { until, ready } => {
                    let all_ready = self.seats.iter().enumerate().all(|(i, s)| {
                        !(matches!(s.owner, SeatRow::Person { .. }) && s.conns > 0) || ready[i]
                    });
                    let any_person =
                        self.seats.iter().any(|s| matches!(s.owner, SeatRow::Person { .. }) && s.conns > 0);
                    if (until.is_some_and(|u| u <= now) || (any_person && all_ready))
                        && self.m.as_ref().is_some_and(|m| !G::match_over(m))
                    {
                        self.hand += 1;
                        self.deal(now);
                        self.broadcast(Event::HandStart, now);
                        continue;
                    }
                }
                Stage::Turn { seat, deadline, bot_at } => {
                    if self.job.is_some() {
                        break;
                    }
                    match self.controller(seat, now) {
                        Controller::Person => {
                            if self.cutoff(seat, deadline).is_some_and(|d| d <= now) {
                                // The clock and the bank ran out: a bot plays for him until he
                                // is back.
                                self.bank[seat.index()] = 0;
                                self.seats[seat.index()].away = true;
                                self.clock_ran_out(seat);
                                seats_changed = true;
                                self.stage = Stage::Turn { seat, deadline, bot_at: Some(now) };
                                continue;
                            }
                            if bot_at.is_some() {
                                self.stage = Stage::Turn { seat, deadline, bot_at: None };
                            }
                        }
                        Controller::Bot(name) => match bot_at {
                            None => {
                                self.stage = Stage::Turn {
                                    seat,
                                    deadline,
                                    bot_at: Some(now + self.timing.bot_delay_ms),
                                };
                                continue;
                            }
                            Some(at) if at <= now => {
                                let Some(st) = self.state.clone() else { break };
                                let seed = decision_seed(self.seed, seat, self.log_len);
                                self.new_job(Work::Bot {
                                    state: st,
                                    seat,
                                    bot: name,
                                    seed,
                                    budget: Budget::default(),
                                });
                            }
                            Some(_) => {}
                        },
                    }
                }
                Stage::Stake { ask, deadline, bot_at } => match self.controller(ask.seat, now) {
                    Controller::Person if bot_at.is_some() => {
                        self.stage = Stage::Stake { ask, deadline, bot_at: None };
                    }
                    Controller::Bot(_) if bot_at.is_none() => {
                        let bot_at = Some(now + self.timing.bot_delay_ms);
                        self.stage = Stage::Stake { ask, deadline, bot_at };
                    }
                    _ => {}
                },
                Stage::Waiting { .. }
                | Stage::MatchOver { .. }
                | Stage::Parked { .. }
                | Stage::Paused { .. } => {}
            }
            break;
        }
        if seats_changed {
            self.broadcast_seats(None, now);
        }
    }
}

#[cfg(test)]
#[path = "machine_tests.rs"]
mod tests;
