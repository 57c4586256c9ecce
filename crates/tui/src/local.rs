//! The local table: a match against bots on this machine, with no server. The table is the
//! table core's stage machine ([`table::machine::Table`]), the very one a server runs; this
//! driver is a shell that carries its effects out. It feeds the table the person's commands, the
//! clock (`now` on every poll) and the bots' thinking (run on a worker thread, or inline for
//! tests), delivers the table's messages for the person's seat, and writes the match's record.
//! It has no rules and no stages of its own.
//!
//! Offline the table is a server table with one person, who is always connected, and bots in
//! the other seats. It plays at the table's pace (the decision windows, the Da Bai Fen draw, a
//! finished trick on show), with two differences of configuration, both about waiting for the
//! person: he has no turn clock, and the pause after a hand lasts until he is ready for the
//! next one.
//!
//! The record of the match is written after every hand and when the match is left, so a match
//! quit midway is saved as far as it went.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ai::Budget;
use cards::Seat;
use cards::record;
use serde::de::DeserializeOwned;
use table::game::TableGame;
use table::log::{SeatRow, TableStatus, replay};
use table::machine::{Config, ConnId, Done, Effects, Input, Job, Millis, Request, Stage, Table, TableRules};
use table::settings::{Guest, Pace, TableSettings, Timing};
use wire::{ErrorCode, ErrorMsg, ServerMsg};

use crate::driver::{Driver, Incoming, Notice, Outgoing};

/// Why the record of a local match could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RecordFailure {
    /// The table's log does not replay.
    #[error(transparent)]
    Replay(#[from] table::log::LogError),
    /// The hands replayed make no record.
    #[error(transparent)]
    Record(#[from] table::game::RecordError),
}

/// The settings of a local match.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalConfig {
    /// Every deck, the first banker or starter, and every bot's choices come from it.
    pub seed: u64,
    /// The rules preset.
    pub rules: String,
    /// Single variants overriding the preset.
    pub variants: record::Variants,
    /// Madiao: chips per stake; the lowest stake when `stake_max` is above it.
    pub stake: u32,
    /// Madiao: the highest stake a banker may name for a hand (`None`: the stake is fixed).
    pub stake_max: Option<u32>,
    /// The person's seat.
    pub seat: Seat,
    /// The person's name.
    pub name: String,
    /// The bot of each seat (the person's entry is not used).
    pub bots: [String; 4],
    /// Nominal thinking per bot decision.
    pub think_ms: u32,
    /// How fast the table's fixed clocks run (the decision windows, the draw, a finished trick
    /// on show).
    pub pace: Pace,
    /// A bot moves this long after its turn began.
    pub bot_delay: Duration,
    /// Da Bai Fen: one card of the draw per this long (before the pace scales it).
    pub draw_every: Duration,
    /// Where the record goes (`None`: not written).
    pub out: Option<PathBuf>,
    /// Bots think on a worker thread (false: inline, within `poll`, for tests).
    pub threaded: bool,
    /// Madiao: how the deck draws the zero cash (presentation only).
    pub zero_cash: madiao::ZeroCash,
}

impl LocalConfig {
    /// Defaults for a match of `seed`: the person in seat 0, `expert` bots at 100 ms, the normal
    /// pace, a bot's move 0.7 s after its turn began, the draw at 250 ms a card, nothing written,
    /// bots inline, the zero cash drawn as an unnamed figure.
    pub fn new(seed: u64) -> LocalConfig {
        LocalConfig {
            seed,
            rules: "standard".into(),
            variants: record::Variants::default(),
            stake: 2,
            stake_max: None,
            seat: Seat::ALL[0],
            name: "You".into(),
            bots: std::array::from_fn(|_| "expert".to_string()),
            think_ms: 100,
            pace: Pace::Normal,
            bot_delay: Duration::from_millis(700),
            draw_every: Duration::from_millis(250),
            out: None,
            threaded: false,
            zero_cash: madiao::ZeroCash::default(),
        }
    }
}

/// Why a local match cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalError {
    /// Rules, variants or stake refused.
    #[error("{0}")]
    Settings(String),
    /// A bot name the game does not know.
    #[error("{0}")]
    Bot(String),
    /// The first hand cannot be dealt.
    #[error("the first hand cannot be dealt")]
    Deal,
}

/// The person's connection to the table.
const ME: ConnId = 1;

/// Offline the table is never parked or unloaded while the person sits: those clocks are set
/// far beyond any sitting.
const SITTING_MS: Millis = 30 * 24 * 3600 * 1000;

/// The thread the bots think on.
struct Worker<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    tx: mpsc::Sender<Job<G>>,
    rx: mpsc::Receiver<Done<G>>,
}

impl<G: TableRules> Worker<G>
where
    G::Action: DeserializeOwned,
{
    fn spawn() -> Worker<G> {
        let (tx, jobs) = mpsc::channel::<Job<G>>();
        let (done_tx, rx) = mpsc::channel::<Done<G>>();
        // The thread ends when the table (and so `tx`) is dropped.
        let _ = std::thread::Builder::new().name("yezi-bots".into()).spawn(move || {
            while let Ok(job) = jobs.recv() {
                if done_tx.send(job.run()).is_err() {
                    break;
                }
            }
        });
        Worker { tx, rx }
    }
}

/// A local match of game `G` for one person against bots.
pub struct LocalTable<G: TableRules>
where
    G::Action: DeserializeOwned,
{
    cfg: LocalConfig,
    settings: G::Settings,
    table: Table<G>,
    /// The driver's clock starts here (the table counts milliseconds from it).
    origin: Instant,
    /// When the table wants the clock next.
    wake: Option<Millis>,
    /// The last `now` the driver saw.
    last: Millis,
    /// Computations sent to the worker and not yet back.
    thinking: usize,
    out: Vec<Incoming>,
    worker: Option<Worker<G>>,
    /// The hands finished when the record was last written.
    saved_hands: usize,
    saved: Option<PathBuf>,
    save_error: Option<String>,
}

impl<G: TableRules> LocalTable<G>
where
    G::Action: DeserializeOwned,
{
    /// A new match; its first hand is dealt at `now`. Fails for rules or bots the game does not
    /// know.
    pub fn new(cfg: LocalConfig, now: Instant) -> Result<LocalTable<G>, LocalError> {
        let settings =
            G::settings(&cfg.rules, &cfg.variants, (cfg.stake, cfg.stake_max.unwrap_or(cfg.stake)))
                .map_err(|e| LocalError::Settings(e.to_string()))?;
        for (i, b) in cfg.bots.iter().enumerate() {
            if i != cfg.seat.index() {
                G::bot(b, 0, Budget { think_ms: 1 }).map_err(|e| LocalError::Bot(e.to_string()))?;
            }
        }
        let base = Timing::default();
        let draw_ms = (cfg.draw_every.as_millis() as u64).max(1);
        let timing = Timing {
            draw_ms,
            bot_delay_ms: cfg.bot_delay.as_millis() as u64,
            retire_ms: SITTING_MS,
            park_ms: SITTING_MS,
            // A poll's answers are shown within the draw's interval.
            poll_hold_ms: base.poll_hold_ms.min(draw_ms / 2),
            ..base
        };
        let doc = TableSettings {
            name: "local match".into(),
            game: G::KIND,
            rules: cfg.rules.clone(),
            variants: cfg.variants.clone(),
            stake: cfg.stake,
            stake_max: cfg.stake_max,
            turn_seconds: 30,
            private: true,
            pace: cfg.pace,
            grace_seconds: 0,
            untimed: true,
            bank_seconds: 0,
            zero_cash: cfg.zero_cash,
            rated: false,
            board: None,
            no_aids: false,
        };
        let seats = std::array::from_fn(|i| {
            if i == cfg.seat.index() {
                SeatRow::Person { guest: "local".into(), name: cfg.name.clone() }
            } else {
                SeatRow::Bot(cfg.bots[i].clone())
            }
        });
        let config = Config {
            id: "local".into(),
            settings: doc,
            seed: cfg.seed,
            host: Some("local".into()),
            seats,
            status: TableStatus::Waiting,
            created_ms: 0,
            timing,
        };
        let table =
            Table::<G>::new(config, &[], Vec::new(), 0).map_err(|e| LocalError::Settings(e.to_string()))?;
        let worker = cfg.threaded.then(Worker::spawn);
        let guest = Guest { id: "local".into(), name: cfg.name.clone() };
        let mut t = LocalTable {
            cfg,
            settings,
            table,
            origin: now,
            wake: None,
            last: 0,
            thinking: 0,
            out: Vec::new(),
            worker,
            saved_hands: 0,
            saved: None,
            save_error: None,
        };
        let fx = t.table.start(0);
        t.carry_out(fx, 0);
        // Every seat is taken: the match begins, and the person sits down to it.
        t.input(Request::AutoStart, 0);
        if t.table.match_state().is_none() {
            return Err(LocalError::Deal);
        }
        t.input(Request::Join { conn: ME, guest, seat: Some(t.cfg.seat.number()) }, 0);
        Ok(t)
    }

    fn millis(&self, now: Instant) -> Millis {
        now.saturating_duration_since(self.origin).as_millis() as Millis
    }

    /// Feeds the table one input at `now` and carries out what it says.
    fn input(&mut self, input: impl Into<Input<G>>, now: Millis) {
        let (_, fx) = self.table.apply(input.into(), now);
        self.carry_out(fx, now);
    }

    /// Carries out a step's effects: the person's messages, the bots' thinking, the next wake-up,
    /// the record after a hand.
    fn carry_out(&mut self, fx: Effects<G>, now: Millis) {
        for (conn, reply) in fx.replies {
            if let (ME, Err(refusal)) = (conn, reply) {
                self.out.push(Incoming::Notice(Notice::Fatal(format!(
                    "the table refused the seat ({:?}): {}",
                    refusal.code, refusal.message
                ))));
            }
        }
        for s in fx.sends {
            if s.to.contains(&ME) {
                self.deliver(&s.msg);
            }
        }
        for note in fx.notes {
            self.out.push(Incoming::Notice(Notice::Info(note)));
        }
        self.wake = fx.wake;
        if self.table.results().len() != self.saved_hands {
            self.saved_hands = self.table.results().len();
            self.save();
        }
        let think = Budget { think_ms: self.cfg.think_ms };
        for job in fx.jobs {
            let job = job.with_budget(think);
            match &self.worker {
                Some(w) if !job.is_quick() => match w.tx.send(job) {
                    Ok(()) => self.thinking += 1,
                    // The worker is gone: think here instead.
                    Err(mpsc::SendError(job)) => self.input(Input::Done(job.run()), now),
                },
                _ => self.input(Input::Done(job.run()), now),
            }
        }
    }

    /// A message of the table for the person.
    fn deliver(&mut self, msg: &ServerMsg) {
        self.out.push(Incoming::Msg(msg.clone()));
    }

    /// The `yezi/1` record of the match so far: every hand dealt, the current one as far as its
    /// log goes.
    pub fn record(&self) -> Result<String, RecordFailure> {
        let r = replay::<G>(&self.settings, self.cfg.seed, &self.table.log())?;
        // A hand waiting for its banker's stake is not dealt yet.
        let dealt = self.table.hand().map_or(self.table.hand_number() as usize, |(h, _)| h as usize + 1);
        let states = &r.states[..dealt.min(r.states.len())];
        Ok(G::record(&self.settings, self.cfg.seed, self.players(), states)?)
    }

    fn players(&self) -> [String; 4] {
        std::array::from_fn(|i| {
            if i == self.cfg.seat.index() {
                self.cfg.name.clone()
            } else {
                format!("bot:{}", self.cfg.bots[i])
            }
        })
    }

    /// Writes the record to the configured file (atomically: a temporary file renamed).
    fn save(&mut self) {
        let Some(path) = self.cfg.out.clone() else { return };
        let result = self.record().map_err(|e| e.to_string()).and_then(|text| {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            let tmp = path.with_extension("json.tmp");
            std::fs::write(&tmp, text.as_bytes()).map_err(|e| format!("{}: {e}", tmp.display()))?;
            std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))
        });
        match result {
            Ok(()) => {
                if self.saved.is_none() {
                    self.out.push(Incoming::Notice(Notice::RecordSaved(path.clone())));
                }
                self.saved = Some(path);
                self.save_error = None;
            }
            Err(e) => {
                let msg = format!("the record could not be written: {e}");
                self.out.push(Incoming::Notice(Notice::Info(msg.clone())));
                self.save_error = Some(msg);
            }
        }
    }

    /// True once the match is over.
    pub fn is_over(&self) -> bool {
        matches!(self.table.stage(), Stage::MatchOver { .. })
    }

    /// The hands finished so far.
    pub fn hands_finished(&self) -> usize {
        self.table.results().len()
    }
}

impl<G: TableRules> Driver for LocalTable<G>
where
    G::Action: DeserializeOwned,
{
    fn send(&mut self, cmd: Outgoing, now: Instant) {
        let now = self.millis(now).max(self.last);
        let input = match cmd {
            Outgoing::Table(msg) => Request::Table { conn: ME, msg, at_ms: 0 },
            Outgoing::Join(_) | Outgoing::Create(_) | Outgoing::Refresh => {
                let msg = ServerMsg::Error(ErrorMsg {
                    code: ErrorCode::NothingToDecide,
                    message: "an offline match has no lobby".into(),
                    v: Some(self.table.version()),
                });
                return self.deliver(&msg);
            }
        };
        self.input(input, now);
    }

    fn poll(&mut self, now: Instant) -> Vec<Incoming> {
        let now = self.millis(now).max(self.last);
        self.last = now;
        // What the bots have thought of.
        let mut done = Vec::new();
        if let Some(w) = &self.worker {
            while let Ok(d) = w.rx.try_recv() {
                done.push(d);
            }
        }
        for d in done {
            self.thinking = self.thinking.saturating_sub(1);
            self.input(Input::Done(d), now);
        }
        // Bounded: each tick moves the table on by something due.
        for _ in 0..1000 {
            match self.wake {
                Some(at) if at <= now => self.input(Input::Tick, now),
                _ => break,
            }
        }
        std::mem::take(&mut self.out)
    }

    fn next_deadline(&self) -> Option<Instant> {
        let wake = self.wake.and_then(|w| self.origin.checked_add(Duration::from_millis(w)));
        if self.thinking > 0 {
            // A bot is thinking: look for its answer soon.
            let soon = self.origin.checked_add(Duration::from_millis(self.last + 10));
            return match (wake, soon) {
                (Some(w), Some(s)) => Some(w.min(s)),
                (w, s) => w.or(s),
            };
        }
        wake
    }

    fn record_json(&self) -> Option<String> {
        self.record().ok()
    }

    fn finish(&mut self) -> Vec<String> {
        self.save();
        let mut lines = Vec::new();
        match (&self.saved, &self.save_error) {
            (_, Some(e)) => lines.push(format!("yezi play: {e}")),
            (Some(p), None) => {
                let state = if self.is_over() { "the match" } else { "the match so far" };
                lines.push(format!("The record of {state} is in {}", p.display()));
                lines.push(format!("Replay it with: yezi replay {}", p.display()));
            }
            (None, None) => {}
        }
        lines
    }
}
