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

use crate::bots::{BotError, bot_choice, default_bot};
use crate::game::{
    Legal, Next, Overlay, RequestError, Stake, StakeAsk, TableGame, Viewer, decision_seed, tracker_of,
};
use crate::log::{
    ChatRow, LogError, Logged, LoggedAction, SeatRow, TableStatus, record_of, record_of_finished, replay,
    with_deals,
};
use crate::rated::{Conduct, ForfeitKind, RatedMatch, rated_match};
use crate::settings::{Guest, Pace, TableSettings, Timing, hints_allowed, solo_allowed};
use wire::{
    AckMsg, AckWhat, ActAction, ChatMsg, ChatRemovedMsg, DealMsg, ErrorCode, ErrorMsg, GameView, HintMsg,
    HintReason, HostEvent, HostMsg, MatchSummary, PublicAction, Refusal, SeatInfo, SeatKind, SeatsMsg,
    ServerMsg, SyncMsg, TableEvent, TableMsg, TableSummary, Timer, TrackerMsg, UpdateMsg, WATCHERS_SHOWN,
    WindowOutcome, You,
};

use io::OnFail;
pub use io::{
    Config, Effects, Input, LoadError, RematchError, RematchOrder, Reply, Request, Send, Step, Write,
};
pub use jobs::{Done, Job, JobError};
use jobs::{HintOutcome, Outcome, Polls, Work};

/// A connection's identity, as the driver numbers them.
pub type ConnId = u64;
/// A time on the driver's clock, in milliseconds.
pub type Millis = u64;

/// How many chat lines a table keeps (and sends in a `sync`).
pub const CHAT_KEPT: usize = 30;
/// How long after a failed write the table tries again.
pub const RETRY_MS: Millis = 1000;

/// A game the stage machine runs: a [`TableGame`] whose bots' handle can be copied.
pub trait TableRules: TableGame + Clone
where
    Self::Action: DeserializeOwned,
{
}

impl<G: TableGame + Clone> TableRules for G where G::Action: DeserializeOwned {}

/// Where a finished table's rematch stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RematchState {
    None,
    /// Asked of the driver by this connection.
    Pending(ConnId),
    /// Made: the new table's id.
    Made(String),
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
    /// A delayed watcher (the TV): his messages come through [`tv::Tv`].
    delayed: bool,
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
    /// The persisted log, compact (moved, never copied, from step to step: a [`Table::fork`]
    /// starts without it).
    log: Vec<Entry<G>>,
    /// How many actions the log holds, with this step's.
    log_len: u64,
    /// The actions this step adds to the log.
    fresh: Vec<Entry<G>>,
    /// For a step that stores the record: the record of the log, worked out before the step.
    record: Option<Result<String, LogError>>,
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
    /// Set while a step is computed: the step's effects (a [`Table::fork`] starts with none).
    fx: Effects<G>,
    /// The delayed watchers' stream.
    tv: tv::Tv,
}

/// A poll outcome computed and waiting to be published: the answers, the state after them, and
/// when it is published.
type Held<G> = (Vec<(Seat, <G as ai::Game>::Action)>, <G as ai::Game>::State, Millis);

/// One entry of the log: its hand, its seat, the action or the stake named.
type Entry<G> = (u32, Seat, Logged<<G as ai::Game>::Action>);

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
        let settings = G::table_settings(&doc)
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
            log: Vec::new(),
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
            fx: Effects::default(),
            tv: tv::Tv::default(),
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
                let action = Logged::<G::Action>::parse(&a.action).map_err(|e| why(e.0))?;
                entries.push((a.hand, seat, action));
            }
            t.log = entries;
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
            t.fx = Effects::default();
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
        let mut next: Box<Table<G>> = Box::new(self.fork());
        if matches!(input, Input::Tick) && matches!(self.stage, Stage::MatchOver { record_due: true, .. }) {
            next.record = Some(
                record_of::<G>(&self.settings, self.seed, self.players(), &self.log())
                    .map(|r| with_deals(r, &self.id, self.seed)),
            );
        }
        if matches!(
            input,
            Input::Request(Request::Table { msg: TableMsg::TakeBack | TableMsg::Close { keep: true }, .. })
        ) {
            next.full_log = Some(self.log());
        }
        let (writes, on_fail) = next.handle(input, now);
        next.full_log = None;
        next.watch_presence(now);
        next.drive(now);
        let effects = next.finish_fx(now);
        Step { writes, next: Some(next), effects, on_fail }
    }

    /// A copy of the table to work a step out on: everything but its log (which stays with the
    /// table, and which the step's new entries join at [`Table::commit`]) and its pending
    /// effects (the step's own start empty).
    fn fork(&self) -> Table<G> {
        Table {
            id: self.id.clone(),
            doc: self.doc.clone(),
            settings: self.settings.clone(),
            timing: self.timing,
            seed: self.seed,
            host: self.host.clone(),
            created_ms: self.created_ms,
            status: self.status,
            seats: self.seats.clone(),
            members: self.members.clone(),
            v: self.v,
            m: self.m.clone(),
            hand: self.hand,
            state: self.state.clone(),
            results: self.results.clone(),
            log: Vec::new(),
            log_len: self.log_len,
            fresh: self.fresh.clone(),
            record: self.record.clone(),
            moves: self.moves,
            draw_answers: self.draw_answers.clone(),
            requests: self.requests,
            stage: self.stage.clone(),
            job: self.job,
            next_job: self.next_job,
            hint_job: self.hint_job,
            held: self.held.clone(),
            retry_at: self.retry_at,
            park_at: self.park_at,
            chat: self.chat.clone(),
            chat_seq: self.chat_seq,
            removed: self.removed.clone(),
            invited: self.invited.clone(),
            rematch: self.rematch.clone(),
            conduct: self.conduct,
            forfeits: self.forfeits.clone(),
            bank: self.bank,
            full_log: self.full_log.clone(),
            fx: Effects::default(),
            tv: self.tv.clone(),
        }
    }

    /// The step's writes are persisted: the table becomes what the step said, and here is what
    /// to carry out.
    pub fn commit(&mut self, mut step: Step<G>) -> Effects<G> {
        if let Some(mut next) = step.next.take() {
            let mut log = std::mem::take(&mut self.log);
            log.append(&mut next.fresh);
            *self = *next;
            self.log = log;
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
mod io;
mod jobs;
mod messages;
mod players;
mod read;
mod the_match;
mod tv;

#[cfg(test)]
mod tests;
