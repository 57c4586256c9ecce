//! The local table: a match against bots on this machine, with no server. It runs the engines
//! and the bots as the server's tables do — the same views, legal descriptions, requests for the
//! hidden polls, the Da Bai Fen draw at a steady pace — through the server's own per-game code
//! ([`table::game::TableGame`]), and delivers the protocol's messages for the person's seat.
//!
//! Differences from a server table, all about time (offline there is nobody to wait for but the
//! person): no turn clock; a decision window (Madiao's redeal, Da Bai Fen's annulment) opens only
//! when the person may answer, and closes as soon as he does; the pause after a hand lasts until
//! he asks for the next one. Bots think on a worker thread (or inline, for tests) and their moves
//! are shown no sooner than `bot_delay` after the turn began.
//!
//! The record of the match is written after every hand and when the match is left, so a match
//! quit midway is saved as far as it went.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ai::Budget;
use cards::Seat;
use cards::record::{self, GameKind};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use table::bots::bot_choice;
use table::game::{Begin, Overlay, TableGame, Viewer, decision_seed};

use crate::driver::{Driver, Incoming, Notice, Outgoing};

/// The settings of a local match.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalConfig {
    /// Every deck, the first banker or starter, and every bot's choices come from it.
    pub seed: u64,
    /// The rules preset.
    pub rules: String,
    /// Single variants overriding the preset.
    pub variants: record::Variants,
    /// Madiao: chips per stake.
    pub stake: u32,
    /// The person's seat.
    pub seat: Seat,
    /// The person's name.
    pub name: String,
    /// The bot of each seat (the person's entry is not used).
    pub bots: [String; 4],
    /// Nominal thinking per bot decision.
    pub think_ms: u32,
    /// Thinking for the bots' answers to hidden polls (draw, windows).
    pub poll_think_ms: u32,
    /// A bot's move is shown no sooner than this after its turn began.
    pub bot_delay: Duration,
    /// Da Bai Fen: one card of the draw per this long.
    pub draw_every: Duration,
    /// Where the record goes (`None`: not written).
    pub out: Option<PathBuf>,
    /// Bots think on a worker thread (false: inline, within `poll`, for tests).
    pub threaded: bool,
}

impl LocalConfig {
    /// Defaults for a match of `seed`: the person in seat 0, `pimc` bots at 100 ms, moves shown
    /// 0.7 s apart, the draw at 250 ms a card, nothing written, bots inline.
    pub fn new(seed: u64) -> LocalConfig {
        LocalConfig {
            seed,
            rules: "standard".into(),
            variants: record::Variants::default(),
            stake: 2,
            seat: Seat::ALL[0],
            name: "You".into(),
            bots: std::array::from_fn(|_| "pimc".to_string()),
            think_ms: 100,
            poll_think_ms: 20,
            bot_delay: Duration::from_millis(700),
            draw_every: Duration::from_millis(250),
            out: None,
            threaded: false,
        }
    }
}

/// Why a local match cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalError {
    /// Rules, variants or stake refused.
    #[error(transparent)]
    Settings(#[from] table::game::SettingsError),
    /// A bot name the game does not know.
    #[error("{0}")]
    Bot(String),
    /// The first hand cannot be dealt.
    #[error("the first hand cannot be dealt")]
    Deal,
}

/// What the table is doing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// Da Bai Fen's draw: `shown` cards are on view; the next comes at `next`.
    Draw { shown: u8, next: Instant },
    /// A decision window; `person`: the person may answer (and the table waits for him).
    Window { person: bool },
    /// A seat's turn; a bot's move is shown no sooner than `due`.
    Turn { seat: Seat, due: Instant },
    /// The hand is over; waiting for the person's `next`.
    Pause,
    /// The match is over.
    Over,
}

/// Work for the bots.
enum Job<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    Turn {
        st: G::State,
        seat: Seat,
        bot: String,
        seed: u64,
        budget: Budget,
    },
    Polls {
        st: G::State,
        drawn: Option<u8>,
        bots: [Option<String>; 4],
        request: G::Request,
        seed: u64,
        position: u64,
        budget: Budget,
    },
}

/// The bots' work done.
enum Done<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    Turn(G::Action),
    Polls { st: G::State, answered: Vec<(Seat, G::Action)> },
    Failed(String),
}

fn compute<G: TableGame>(job: Job<G>) -> Done<G>
where
    G::Action: DeserializeOwned,
{
    match job {
        Job::Turn { st, seat, bot, seed, budget } => match bot_choice::<G>(&bot, &st, seat, seed, budget) {
            Ok(a) => Done::Turn(a),
            Err(e) => Done::Failed(e),
        },
        Job::Polls { mut st, drawn, bots, request, seed, position, budget } => {
            let mut answered = Vec::new();
            loop {
                let asked = match drawn {
                    Some(d) => G::draw_poll(&st).filter(|&(k, _)| k == d).map(|(_, s)| s),
                    None => G::window_poll(&st),
                };
                let Some(s) = asked else { break };
                let a = match &bots[s.index()] {
                    None => G::answer(&st, request),
                    Some(name) => {
                        let seed = decision_seed(seed, s, position + answered.len() as u64);
                        match bot_choice::<G>(name, &st, s, seed, budget) {
                            Ok(a) => a,
                            Err(e) => return Done::Failed(e),
                        }
                    }
                };
                if let Err(e) = G::apply(&mut st, a) {
                    return Done::Failed(e.to_string());
                }
                answered.push((s, a));
            }
            Done::Polls { st, answered }
        }
    }
}

/// What a pending computation is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Purpose {
    Turn(Seat),
    Tick(u8),
    Window,
}

struct Pending<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    id: u64,
    purpose: Purpose,
    due: Instant,
    done: Option<Done<G>>,
}

type JobMsg<G> = (u64, Job<G>);
type DoneMsg<G> = (u64, Done<G>);

/// The thread the bots think on.
struct Worker<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    tx: mpsc::Sender<JobMsg<G>>,
    rx: mpsc::Receiver<DoneMsg<G>>,
}

impl<G: TableGame> Worker<G>
where
    G::Action: DeserializeOwned,
{
    fn spawn() -> Worker<G> {
        let (tx, jobs) = mpsc::channel::<JobMsg<G>>();
        let (done_tx, rx) = mpsc::channel::<DoneMsg<G>>();
        // The thread ends when the table (and so `tx`) is dropped.
        let _ = std::thread::Builder::new().name("yezi-bots".into()).spawn(move || {
            while let Ok((id, job)) = jobs.recv() {
                if done_tx.send((id, compute::<G>(job))).is_err() {
                    break;
                }
            }
        });
        Worker { tx, rx }
    }
}

/// A local match of game `G` for one person against bots.
pub struct LocalTable<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    cfg: LocalConfig,
    settings: G::Settings,
    m: G::Match,
    hand: u32,
    st: G::State,
    done_hands: Vec<G::State>,
    results: Vec<G::HandResult>,
    stage: Stage,
    request: G::Request,
    v: u64,
    moves: u64,
    /// Engine actions applied in the match (the bots' seeds mix it in).
    seq: u64,
    out: Vec<Incoming>,
    worker: Option<Worker<G>>,
    pending: Option<Pending<G>>,
    next_id: u64,
    saved: Option<PathBuf>,
    save_error: Option<String>,
}

fn game_name(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Madiao => "madiao",
        GameKind::Dabaifen => "dabaifen",
    }
}

impl<G: TableGame> LocalTable<G>
where
    G::Action: DeserializeOwned,
{
    /// A new match; its first hand is dealt at `now`. Fails for rules or bots the game does not
    /// know.
    pub fn new(cfg: LocalConfig, now: Instant) -> Result<LocalTable<G>, LocalError> {
        let settings = G::settings(&cfg.rules, &cfg.variants, cfg.stake).map_err(LocalError::Settings)?;
        for (i, b) in cfg.bots.iter().enumerate() {
            if i != cfg.seat.index() {
                G::bot(b, 0, Budget { think_ms: 1 }).map_err(|e| LocalError::Bot(e.to_string()))?;
            }
        }
        let m = G::new_match(&settings, cfg.seed);
        let st = G::start_hand(&settings, &m, cfg.seed, 0).ok_or(LocalError::Deal)?;
        let worker = cfg.threaded.then(Worker::spawn);
        let mut t = LocalTable {
            cfg,
            settings,
            m,
            hand: 0,
            st,
            done_hands: Vec::new(),
            results: Vec::new(),
            stage: Stage::Pause,
            request: G::Request::default(),
            v: 0,
            moves: 0,
            seq: 0,
            out: Vec::new(),
            worker,
            pending: None,
            next_id: 1,
            saved: None,
            save_error: None,
        };
        t.begin_hand(now);
        t.out.push(Incoming::Msg(t.sync_msg()));
        Ok(t)
    }

    fn human(&self) -> Seat {
        self.cfg.seat
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

    fn overlay(&self) -> Overlay {
        match self.stage {
            Stage::Draw { shown, .. } => Overlay { drawn: Some(shown), window: false },
            Stage::Window { .. } => Overlay { drawn: None, window: true },
            _ => Overlay::default(),
        }
    }

    fn view_json(&self) -> Value {
        G::view_json(&self.st, Viewer::Seat(self.human()), self.overlay())
    }

    fn legal_json(&self) -> Value {
        let legal = match self.stage {
            Stage::Pause | Stage::Over | Stage::Window { person: false } => None,
            Stage::Turn { seat, .. } if seat != self.human() => None,
            _ => G::legal_for(&self.st, self.human(), self.overlay(), self.request),
        };
        serde_json::to_value(legal).unwrap_or(Value::Null)
    }

    fn timer_json(&self) -> Value {
        match self.stage {
            Stage::Draw { .. } => {
                json!({ "what": "draw", "every_ms": self.cfg.draw_every.as_millis() as u64 })
            }
            Stage::Window { .. } => json!({ "what": "window" }),
            Stage::Turn { seat, .. } if seat == self.human() => json!({ "what": "turn", "seat": seat }),
            Stage::Turn { seat, .. } => json!({ "what": "bot", "seat": seat }),
            Stage::Pause => json!({ "what": "next_hand" }),
            Stage::Over => Value::Null,
        }
    }

    fn match_json(&self) -> table::protocol::MatchSummary {
        G::match_summary(&self.m, &self.results)
    }

    fn table_json(&self) -> Value {
        let seats: Vec<Value> = Seat::ALL
            .iter()
            .map(|&s| {
                let person = s == self.human();
                json!({
                    "seat": s, "kind": if person { "person" } else { "bot" },
                    "name": self.players()[s.index()],
                    "bot": if person { Value::Null } else { json!(self.cfg.bots[s.index()]) },
                    "present": true, "away": false, "bot_plays": !person,
                })
            })
            .collect();
        let mut t = json!({
            "id": "local", "name": "local match", "game": game_name(G::KIND), "rules": self.cfg.rules,
            "variants": G::variant_map(&self.settings),
            "status": if self.stage == Stage::Over { "finished" } else { "playing" },
            "seats": seats, "open_seats": 0, "hands": self.results.len(),
        });
        if G::KIND == GameKind::Madiao {
            t["stake"] = json!(self.cfg.stake);
        }
        t
    }

    fn sync_msg(&self) -> Value {
        json!({
            "type": "sync", "v": self.v, "table": self.table_json(),
            "you": { "seat": self.human(), "name": self.cfg.name, "host": true },
            "hand": self.hand, "move": self.moves,
            "view": self.view_json(), "legal": self.legal_json(), "timer": self.timer_json(),
            "match": self.match_json(), "results": self.results.iter().cloned().map(Into::<table::protocol::HandResult>::into).collect::<Vec<_>>(), "chat": [],
        })
    }

    fn emit(&mut self, event: Value) {
        self.v += 1;
        let msg = json!({
            "type": "update", "v": self.v, "event": event, "hand": self.hand, "move": self.moves,
            "view": self.view_json(), "legal": self.legal_json(), "timer": self.timer_json(),
            "match": self.match_json(),
        });
        self.out.push(Incoming::Msg(msg));
    }

    fn error(&mut self, code: &str, message: impl Into<String>) {
        let msg = json!({ "type": "error", "code": code, "message": message.into(), "v": self.v });
        self.out.push(Incoming::Msg(msg));
    }

    fn bots_by_seat(&self) -> [Option<String>; 4] {
        std::array::from_fn(|i| (i != self.cfg.seat.index()).then(|| self.cfg.bots[i].clone()))
    }

    fn submit(&mut self, job: Job<G>, purpose: Purpose, due: Instant) {
        let id = self.next_id;
        self.next_id += 1;
        let mut pending = Pending { id, purpose, due, done: None };
        match &self.worker {
            Some(w) => {
                if let Err(mpsc::SendError((_, job))) = w.tx.send((id, job)) {
                    // The worker is gone: think here instead.
                    pending.done = Some(compute::<G>(job));
                }
            }
            None => pending.done = Some(compute::<G>(job)),
        }
        self.pending = Some(pending);
    }

    fn poll_job(&self, drawn: Option<u8>) -> Job<G> {
        Job::Polls {
            st: self.st.clone(),
            drawn,
            bots: self.bots_by_seat(),
            request: self.request,
            seed: self.cfg.seed,
            position: self.seq,
            budget: Budget { think_ms: self.cfg.poll_think_ms },
        }
    }

    /// Deals the current hand's first stage.
    fn begin_hand(&mut self, now: Instant) {
        self.request = G::Request::default();
        self.pending = None;
        let begin = G::begin(&self.st, false);
        if G::to_move(&self.st).is_some() || begin == Begin::Draw {
            match begin {
                Begin::Draw => self.stage = Stage::Draw { shown: 0, next: now + self.cfg.draw_every },
                Begin::Window => {
                    self.open_window(now);
                }
                Begin::Play => self.after_change(now),
            }
        } else {
            self.after_change(now);
        }
    }

    /// Opens a decision window: the person answers if he may; otherwise the bots answer at once.
    /// Returns true when the person may answer (the table then waits for him).
    fn open_window(&mut self, now: Instant) -> bool {
        let person =
            G::legal_for(&self.st, self.human(), Overlay { drawn: None, window: true }, self.request)
                .is_some();
        self.stage = Stage::Window { person };
        if !person {
            let job = self.poll_job(None);
            self.submit(job, Purpose::Window, now);
        }
        person
    }

    /// After a move: the next turn, or the end of the hand.
    fn after_change(&mut self, now: Instant) {
        match G::to_move(&self.st) {
            Some(s) => {
                let due = if s == self.human() { now } else { now + self.cfg.bot_delay };
                self.stage = Stage::Turn { seat: s, due };
            }
            None => {
                let r = G::finish_hand(&mut self.m, &self.st);
                self.results.extend(r);
                self.stage = if G::match_over(&self.m) { Stage::Over } else { Stage::Pause };
                self.save();
            }
        }
    }

    fn apply(&mut self, seat: Seat, action: G::Action) -> Result<(), ai::Illegal<G>> {
        let is_move = G::is_move(&self.st, &action);
        G::apply(&mut self.st, action)?;
        self.seq += 1;
        self.moves += u64::from(is_move);
        let _ = seat;
        Ok(())
    }

    fn action_event(&self, seat: Seat, action: &G::Action, by_bot: bool) -> Value {
        json!({ "kind": "action", "seat": seat,
                "action": G::public_action(action, seat, Viewer::Seat(self.human())), "by_bot": by_bot })
    }

    fn complete(&mut self, p: Pending<G>, now: Instant) {
        let Some(done) = p.done else { return };
        let done = match done {
            Done::Failed(e) => {
                self.out.push(Incoming::Notice(Notice::Info(format!("a bot failed: {e}"))));
                // Fall back to the first legal action for a turn; polls are passed.
                match p.purpose {
                    Purpose::Turn(_) => match G::legal_actions(&self.st).first() {
                        Some(&a) => Done::Turn(a),
                        None => return,
                    },
                    _ => return self.out.push(Incoming::Notice(Notice::Fatal(e))),
                }
            }
            d => d,
        };
        match (p.purpose, done) {
            (Purpose::Turn(seat), Done::Turn(a)) => {
                if G::to_move(&self.st) != Some(seat) {
                    return;
                }
                if let Err(e) = self.apply(seat, a) {
                    return self
                        .out
                        .push(Incoming::Notice(Notice::Fatal(format!("a bot's move was refused: {e}"))));
                }
                self.after_change(now);
                let ev = self.action_event(seat, &a, true);
                self.emit(ev);
            }
            (Purpose::Tick(drawn), Done::Polls { st, answered }) => {
                let Stage::Draw { next, .. } = self.stage else { return };
                self.seq += answered.len() as u64;
                let decided = G::draw_decided(&st);
                self.st = st;
                if decided || drawn >= 48 {
                    let declaration = if decided { answered.last().copied() } else { None };
                    if declaration.is_some() {
                        self.moves += 1;
                    }
                    let window = G::window_after_draw(&self.st);
                    let person = if window {
                        self.open_window(now)
                    } else {
                        self.after_change(now);
                        false
                    };
                    let ev = match declaration {
                        Some((seat, a)) => self.action_event(seat, &a, seat != self.human()),
                        None => json!({ "kind": "draw_end" }),
                    };
                    self.emit(ev);
                    if person {
                        self.emit(json!({ "kind": "window" }));
                    }
                } else {
                    self.stage = Stage::Draw { shown: drawn, next: (next + self.cfg.draw_every).max(now) };
                    self.emit(json!({ "kind": "draw", "drawn": drawn }));
                }
            }
            (Purpose::Window, Done::Polls { st, answered }) => {
                if !matches!(self.stage, Stage::Window { .. }) {
                    return;
                }
                self.seq += answered.len() as u64;
                self.st = st;
                self.request = G::Request::default();
                let outcome = G::window_outcome(&self.st);
                self.after_change(now);
                self.emit(json!({ "kind": "window_closed", "outcome": outcome }));
            }
            _ => {}
        }
    }

    /// The person's action.
    fn act(&mut self, raw: Value, now: Instant) {
        let action: G::Action = match serde_json::from_value(raw.clone()) {
            Ok(a) => a,
            Err(e) => return self.error("illegal", format!("not an action of the game: {e}: {raw}")),
        };
        let me = self.human();
        match self.stage {
            Stage::Draw { .. } | Stage::Window { person: true } => {
                if self.pending.as_ref().is_some_and(|p| p.purpose == Purpose::Window) {
                    return self.error("too_late", "the window has just closed");
                }
                match G::request(&self.st, me, self.overlay(), self.request, &action) {
                    Ok(r) => {
                        self.request = r;
                        if let Stage::Draw { shown, next } = self.stage {
                            // A tick already thought about is thought about again with the request.
                            if self.pending.as_ref().is_some_and(|p| matches!(p.purpose, Purpose::Tick(_))) {
                                let job = self.poll_job(Some(shown + 1));
                                self.submit(job, Purpose::Tick(shown + 1), next);
                            }
                            let legal = self.legal_json();
                            let msg =
                                json!({ "type": "ack", "v": self.v, "what": "request", "legal": legal });
                            self.out.push(Incoming::Msg(msg));
                        } else {
                            // Offline the window closes as soon as the person has answered.
                            let job = self.poll_job(None);
                            self.submit(job, Purpose::Window, now);
                        }
                    }
                    Err(e @ table::game::RequestError::TooLate(_)) => self.error("too_late", e.to_string()),
                    Err(e @ table::game::RequestError::Illegal(_)) => self.error("illegal", e.to_string()),
                    Err(table::game::RequestError::Refused(e)) => self.error("illegal", e.to_string()),
                }
            }
            Stage::Turn { seat, .. } if seat == me => {
                if G::is_request(&action) && !G::legal_actions(&self.st).contains(&action) {
                    return self.error("illegal", format!("{action} is not a move now"));
                }
                if let Err(e) = self.apply(me, action) {
                    return self.error("illegal", e.to_string());
                }
                self.after_change(now);
                let ev = self.action_event(me, &action, false);
                self.emit(ev);
            }
            Stage::Turn { seat, .. } => {
                self.error("not_your_turn", format!("it is {seat}'s turn, not yours ({me})"))
            }
            Stage::Window { person: false } => self.error("nothing_to_decide", "the bots are answering"),
            Stage::Pause | Stage::Over => self.error("nothing_to_decide", "the hand is over"),
        }
    }

    fn next_hand(&mut self, now: Instant) {
        if self.stage != Stage::Pause {
            return self.error("nothing_to_decide", "there is no next hand to start now");
        }
        let Some(st) = G::start_hand(&self.settings, &self.m, self.cfg.seed, self.hand + 1) else {
            self.stage = Stage::Over;
            return self.emit(json!({ "kind": "match_over" }));
        };
        self.hand += 1;
        let old = std::mem::replace(&mut self.st, st);
        self.done_hands.push(old);
        self.begin_hand(now);
        self.emit(json!({ "kind": "hand_start", "hand": self.hand }));
    }

    /// The `yezi/1` record of the match so far (every hand dealt, the current one as far as it went).
    pub fn record(&self) -> Result<String, String> {
        let mut states: Vec<G::State> = self.done_hands.clone();
        states.push(self.st.clone());
        G::record(&self.settings, self.cfg.seed, self.players(), &states).map_err(|e| e.to_string())
    }

    /// Writes the record to the configured file (atomically: a temporary file renamed).
    fn save(&mut self) {
        let Some(path) = self.cfg.out.clone() else { return };
        let result = self.record().and_then(|text| {
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
        self.stage == Stage::Over
    }

    /// The hands finished so far.
    pub fn hands_finished(&self) -> usize {
        self.results.len()
    }
}

impl<G: TableGame> Driver for LocalTable<G>
where
    G::Action: DeserializeOwned,
{
    fn send(&mut self, cmd: Outgoing, now: Instant) {
        match cmd {
            Outgoing::Act { action, .. } => self.act(action, now),
            Outgoing::Next => self.next_hand(now),
            Outgoing::Join(_) | Outgoing::Create(_) | Outgoing::Refresh => {
                self.error("nothing_to_decide", "an offline match has no lobby")
            }
        }
    }

    fn poll(&mut self, now: Instant) -> Vec<Incoming> {
        // Bounded: each round applies a computation or submits one.
        for _ in 0..1000 {
            if let Some(p) = &mut self.pending {
                if p.done.is_none()
                    && let Some(w) = &self.worker
                {
                    while let Ok((id, d)) = w.rx.try_recv() {
                        if id == p.id {
                            p.done = Some(d);
                        }
                    }
                }
                if p.done.is_some() && now >= p.due {
                    if let Some(p) = self.pending.take() {
                        self.complete(p, now);
                    }
                    continue;
                }
                break;
            }
            match self.stage {
                Stage::Draw { shown, next } => {
                    let job = self.poll_job(Some(shown + 1));
                    self.submit(job, Purpose::Tick(shown + 1), next);
                }
                Stage::Turn { seat, due } if seat != self.human() => {
                    let job = Job::Turn {
                        st: self.st.clone(),
                        seat,
                        bot: self.cfg.bots[seat.index()].clone(),
                        seed: decision_seed(self.cfg.seed, seat, self.seq),
                        budget: Budget { think_ms: self.cfg.think_ms },
                    };
                    self.submit(job, Purpose::Turn(seat), due);
                }
                _ => break,
            }
        }
        std::mem::take(&mut self.out)
    }

    fn next_deadline(&self) -> Option<Instant> {
        match &self.pending {
            Some(p) => Some(p.due),
            None => match self.stage {
                Stage::Draw { next, .. } => Some(next),
                Stage::Turn { seat, due } if seat != self.human() => Some(due),
                _ => None,
            },
        }
    }

    fn finish(&mut self) -> Vec<String> {
        self.save();
        let mut lines = Vec::new();
        match (&self.saved, &self.save_error) {
            (_, Some(e)) => lines.push(format!("yezi play: {e}")),
            (Some(p), None) => {
                let state = if self.stage == Stage::Over { "the match" } else { "the match so far" };
                lines.push(format!("The record of {state} is in {}", p.display()));
                lines.push(format!("Replay it with: yezi replay {}", p.display()));
            }
            (None, None) => {}
        }
        lines
    }
}
