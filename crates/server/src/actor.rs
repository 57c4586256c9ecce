//! A table: one task per table owns its match, its seats, its members and its clocks, and is the
//! only writer of its action log.
//!
//! Everything that changes a table goes through the task's queue of [`Cmd`]s, its timer, or a
//! computation it started (a bot's move, a draw tick, the close of a window — run off the task so
//! that bots do not hold up the table). A move is checked, **written to the log**, and only then
//! applied and broadcast: what a client has seen is always in the database.
//!
//! The stages of a hand: the Da Bai Fen draw (one card per tick), a decision window (Madiao
//! redeal, Da Bai Fen annulment), turns (a person has a turn clock; a bot moves after a short
//! delay), and the pause between hands. A person who runs out of time, or has no connection, is
//! played for by a bot until he is back.

use std::collections::VecDeque;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use ai::Budget;
use axum::extract::ws::Utf8Bytes;
use cards::Seat;
use cards::record::GameKind;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use table::bots::{bot_choice, default_bot};
use table::game::{Begin, Legal, Overlay, RequestError, TableGame, Viewer, decision_seed};
use table::log::{ChatRow, LoggedAction, SeatRow, TableStatus, record_of, replay};
use table::protocol::{
    self, AckMsg, AckWhat, ChatMessage, ChatMsg, ErrorCode, SeatInfo, SeatKind, SeatsMsg, ServerMsg, SyncMsg,
    TableEvent, TableSummary, Timer, UpdateMsg, You,
};
use table::settings::{Guest, TableSettings};

use crate::App;
use crate::store::TableRow;

/// A connection's identity within the server.
pub type ConnId = u64;
/// Where a connection's outgoing messages go.
pub type Out = mpsc::Sender<Utf8Bytes>;

/// A request to a table's task.
pub enum Cmd {
    /// Takes a seat (see `ClientMsg::Join`); on success the table sends the connection a `sync`.
    Join {
        conn: ConnId,
        guest: Guest,
        seat: Option<u8>,
        out: Out,
        reply: oneshot::Sender<Result<(), (ErrorCode, String)>>,
    },
    /// Watches the table; the table sends the connection a `sync`.
    Watch { conn: ConnId, guest: Guest, out: Out, reply: oneshot::Sender<Result<(), (ErrorCode, String)>> },
    /// An action of the connection's seat (`seat`: the seat the client says it is).
    Act { conn: ConnId, action: Value, move_no: Option<u64>, seat: Option<u8> },
    /// A chat line.
    Chat { conn: ConnId, text: String },
    /// Sends the connection a `sync`.
    Resync { conn: ConnId },
    /// Gives up the connection's seat.
    Leave { conn: ConnId },
    /// Back from a timeout.
    Back { conn: ConnId },
    /// The host starts the match.
    Start { conn: ConnId },
    /// Ready for the next hand.
    Next { conn: ConnId },
    /// The connection has closed.
    Gone { conn: ConnId },
    /// Begins the match if no seat is open (a table of bots).
    AutoStart,
}

/// A running table as the server holds it.
#[derive(Clone)]
pub struct TableHandle {
    /// The table's queue.
    pub tx: mpsc::Sender<Cmd>,
    /// The table's summary, kept up to date by its task.
    pub summary: Arc<RwLock<TableSummary>>,
}

/// The budget of a bot answering a hidden poll: small and fixed, so that answering is quick.
const POLL_BUDGET: Budget = Budget { think_ms: 20 };

struct SeatState {
    owner: SeatRow,
    conns: u32,
    away: bool,
}

struct Member {
    conn: ConnId,
    guest: Guest,
    seat: Option<Seat>,
    out: Out,
}

/// Who decides for a seat now.
#[derive(Clone, Debug)]
enum Controller {
    Person,
    Bot(String),
}

/// What a computation started by the table returns.
enum Computed<G: TableGame>
where
    G::Action: serde::de::DeserializeOwned,
{
    Bot { seat: Seat, action: G::Action, position: u64, hand: u32 },
    Tick { state: G::State, answered: Vec<(Seat, G::Action)>, drawn: u8, hand: u32 },
    Window { state: G::State, answered: Vec<(Seat, G::Action)>, hand: u32 },
}

/// What happened, for an `update`.
enum Event<A> {
    Started,
    HandStart,
    Draw(u8),
    DrawEnd,
    Action { seat: Seat, action: A, by_bot: bool },
    WindowOpen,
    WindowClosed(Value),
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn chat_msg(c: &ChatRow) -> ChatMessage {
    ChatMessage::from(c)
}

/// How many chat lines a table keeps loaded (and sends in a `sync`).
const CHAT_KEPT: usize = 30;

/// The task of one table.
pub(crate) struct Table<G: TableGame>
where
    G::Action: serde::de::DeserializeOwned,
{
    app: Arc<App>,
    id: String,
    settings_doc: TableSettings,
    settings: G::Settings,
    seed: u64,
    host: Option<String>,
    status: TableStatus,
    seats: [SeatState; 4],
    members: Vec<Member>,
    rx: mpsc::Receiver<Cmd>,
    summary: Arc<RwLock<TableSummary>>,
    v: u64,
    m: Option<G::Match>,
    hand: u32,
    state: Option<G::State>,
    results: Vec<Value>,
    hand_finished: bool,
    /// The next position in the log.
    seq: u64,
    /// Moves everyone has seen (plays, burials, declarations), for `move` in the messages.
    moves: u64,
    /// Draw polls answered but not yet written (written when the draw is decided).
    draw_answers: Vec<(Seat, G::Action)>,
    display: Option<u8>,
    window_until: Option<Instant>,
    requests: [G::Request; 4],
    ready: [bool; 4],
    deadline: Option<Instant>,
    turn_deadline: Option<Instant>,
    pending: Option<JoinHandle<Result<Computed<G>, String>>>,
    /// When the next draw tick is computed.
    tick_at: Instant,
    /// A computed poll outcome waiting for its publication time.
    held: Option<(Computed<G>, Instant)>,
    /// A finished match whose record could not be stored yet.
    record_due: bool,
    chat: VecDeque<ChatRow>,
    chat_seq: u64,
    retire: bool,
    /// When the match parks if still no person is connected.
    park_at: Option<Instant>,
}

/// Starts the task of a stored table (a new one, or one resumed after a restart from its log).
pub(crate) fn spawn(
    app: Arc<App>,
    row: TableRow,
    log: Vec<LoggedAction>,
    chat: Vec<ChatRow>,
) -> Result<TableHandle, String> {
    let doc: TableSettings =
        serde_json::from_str(&row.settings).map_err(|e| format!("table {}: settings: {e}", row.id))?;
    match doc.game {
        GameKind::Madiao => Table::<ai::Madiao>::start(app, row, doc, log, chat),
        GameKind::Dabaifen => Table::<ai::Dabaifen>::start(app, row, doc, log, chat),
    }
}

/// Checks settings as a table would (for creating one).
pub(crate) fn check_settings(doc: &TableSettings) -> Result<serde_json::Map<String, Value>, String> {
    match doc.game {
        GameKind::Madiao => <ai::Madiao as TableGame>::settings(&doc.rules, &doc.variants, doc.stake)
            .map(|s| <ai::Madiao as TableGame>::variant_map(&s)),
        GameKind::Dabaifen => <ai::Dabaifen as TableGame>::settings(&doc.rules, &doc.variants, doc.stake)
            .map(|s| <ai::Dabaifen as TableGame>::variant_map(&s)),
    }
}

/// Which hidden polls a computation answers.
#[derive(Copy, Clone, Debug)]
enum Polls {
    /// The engine's polls after card `drawn` of the draw (`position`: where the answers go in
    /// the log, for the bots' seeds).
    Draw { drawn: u8, position: u64 },
    /// The polls of the window that closes.
    Window { position: u64 },
}

/// Answers the engine's hidden polls: a person's from his request, a bot seat's by its bot.
fn answer_polls<G: TableGame>(
    mut st: G::State,
    polls: Polls,
    controllers: [Controller; 4],
    requests: [G::Request; 4],
    seed: u64,
    hand: u32,
) -> Result<Computed<G>, String>
where
    G::Action: serde::de::DeserializeOwned,
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
        let a = match &controllers[s.index()] {
            Controller::Person => G::answer(&st, requests[s.index()]),
            Controller::Bot(name) => {
                let seed = decision_seed(seed, s, position + answered.len() as u64);
                bot_choice::<G>(name, &st, s, seed, POLL_BUDGET)?
            }
        };
        G::apply(&mut st, a).map_err(|e| e.to_string())?;
        answered.push((s, a));
    }
    Ok(match polls {
        Polls::Draw { drawn, .. } => Computed::Tick { state: st, answered, drawn, hand },
        Polls::Window { .. } => Computed::Window { state: st, answered, hand },
    })
}

async fn wait_pending<T>(p: &mut Option<JoinHandle<T>>) -> Result<T, tokio::task::JoinError> {
    match p {
        Some(h) => h.await,
        None => std::future::pending().await,
    }
}

async fn sleep_until_opt(t: Option<Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

impl<G: TableGame> Table<G>
where
    G::Action: serde::de::DeserializeOwned,
{
    fn start(
        app: Arc<App>,
        row: TableRow,
        doc: TableSettings,
        log: Vec<LoggedAction>,
        chat: Vec<ChatRow>,
    ) -> Result<TableHandle, String> {
        let settings = G::settings(&doc.rules, &doc.variants, doc.stake)?;
        let (tx, rx) = mpsc::channel(256);
        let seats = row.seats.clone().map(|owner| SeatState { owner, conns: 0, away: false });
        let chat_seq = chat.last().map_or(0, |c| c.seq + 1);
        let placeholder = TableSummary {
            id: row.id.clone(),
            name: doc.name.clone(),
            game: doc.game,
            rules: doc.rules.clone(),
            variants: G::variant_map(&settings),
            stake: (doc.game == GameKind::Madiao).then_some(doc.stake),
            turn_seconds: doc.turn_seconds,
            pace: doc.pace,
            grace_seconds: doc.grace_seconds,
            private: doc.private,
            status: row.status,
            host: row.host.clone(),
            seats: Vec::new(),
            open_seats: 0,
            spectators: 0,
            hands: 0,
            created_ms: row.created_ms,
        };
        let summary = Arc::new(RwLock::new(placeholder));
        let mut t = Table::<G> {
            app,
            id: row.id.clone(),
            settings_doc: doc,
            settings,
            seed: row.seed,
            host: row.host,
            status: row.status,
            seats,
            members: Vec::new(),
            rx,
            summary: summary.clone(),
            v: 1,
            m: None,
            hand: 0,
            state: None,
            results: Vec::new(),
            hand_finished: false,
            seq: 0,
            moves: 0,
            draw_answers: Vec::new(),
            display: None,
            window_until: None,
            requests: [G::Request::default(); 4],
            ready: [false; 4],
            deadline: None,
            turn_deadline: None,
            pending: None,
            tick_at: Instant::now(),
            held: None,
            record_due: false,
            chat: chat.into_iter().collect(),
            chat_seq,
            retire: false,
            park_at: None,
        };
        if t.status != TableStatus::Waiting {
            t.resume(&log)?;
        }
        if t.status == TableStatus::Parked {
            // Parked before the restart: it stays so until a person connects.
            t.deadline = None;
        }
        t.watch_presence();
        t.update_summary();
        tokio::spawn(t.run());
        Ok(TableHandle { tx, summary })
    }

    /// Rebuilds the match from the log after a restart.
    fn resume(&mut self, log: &[LoggedAction]) -> Result<(), String> {
        let mut r =
            replay::<G>(&self.settings, self.seed, log).map_err(|e| format!("table {}: {e}", self.id))?;
        let st = r.states.pop().ok_or("no hand")?;
        self.hand = r.states.len() as u32;
        self.results = r.results;
        self.m = Some(r.m);
        self.seq = log.len() as u64;
        self.moves = r.moves;
        // The replay dealt on past a finished hand (the pause may have passed when the server
        // stopped): the table resumes at the furthest point its log allows.
        self.state = Some(st);
        let Some(st) = &self.state else {
            return Err(format!("table {}: no hand", self.id));
        };
        let begin = G::begin(st, true);
        let live = G::to_move(st).is_some();
        if live {
            match begin {
                Begin::Draw => self.start_draw(),
                Begin::Window => self.open_window(),
                Begin::Play => {}
            }
        }
        if self.status == TableStatus::Finished {
            self.hand_finished = true;
        }
        Ok(())
    }

    fn draw_every(&self) -> Duration {
        Duration::from_millis(self.app.timing.draw_ms.max(1))
    }

    fn window_len(&self) -> Duration {
        Duration::from_millis(self.app.timing.window_ms)
    }

    async fn run(mut self) {
        self.schedule();
        self.settle().await;
        loop {
            let deadline = self.deadline;
            tokio::select! {
                cmd = self.rx.recv() => match cmd {
                    Some(c) => self.command(c).await,
                    None => break,
                },
                done = wait_pending(&mut self.pending) => {
                    self.pending = None;
                    match done {
                        Ok(Ok(c)) => self.computed(c).await,
                        Ok(Err(e)) => self.stall(&e),
                        Err(e) => self.stall(&format!("a computation failed: {e}")),
                    }
                }
                _ = sleep_until_opt(deadline), if self.pending.is_none() => self.timer().await,
                _ = sleep_until_opt(self.park_at) => self.park().await,
            }
            if self.retire {
                break;
            }
        }
        if let Ok(mut tables) = self.app.tables.lock() {
            tables.remove(&self.id);
        }
    }

    /// Something went wrong that a retry may fix (storage): try again in a second.
    fn stall(&mut self, why: &str) {
        eprintln!("yezi serve: table {}: {why}; retrying", self.id);
        self.deadline = Some(Instant::now() + Duration::from_secs(1));
    }

    // ---------------------------------------------------------------------------------------
    // Who plays

    fn controller(&self, s: Seat) -> Controller {
        let seat = &self.seats[s.index()];
        match &seat.owner {
            SeatRow::Bot(name) => Controller::Bot(name.clone()),
            SeatRow::Person { .. } if seat.conns > 0 && !seat.away => Controller::Person,
            _ => Controller::Bot(default_bot::<G>().to_string()),
        }
    }

    /// True when a person decides for every seat (no bot is needed to answer a poll).
    fn controller_all_persons(&self) -> bool {
        Seat::ALL.iter().all(|&s| matches!(self.controller(s), Controller::Person))
    }

    fn seat_info(&self, s: Seat) -> SeatInfo {
        let seat = &self.seats[s.index()];
        let bot_plays = matches!(self.controller(s), Controller::Bot(_));
        match &seat.owner {
            SeatRow::Open => SeatInfo {
                seat: s.number(),
                kind: SeatKind::Open,
                name: None,
                bot: None,
                guest: None,
                present: false,
                away: false,
                bot_plays,
                grace_ms: None,
            },
            SeatRow::Bot(b) => SeatInfo {
                seat: s.number(),
                kind: SeatKind::Bot,
                name: Some(format!("bot:{b}")),
                bot: Some(b.clone()),
                guest: None,
                present: true,
                away: false,
                bot_plays,
                grace_ms: None,
            },
            SeatRow::Person { guest, name } => SeatInfo {
                seat: s.number(),
                kind: SeatKind::Person,
                name: Some(name.clone()),
                bot: None,
                guest: Some(guest.clone()),
                present: seat.conns > 0,
                away: seat.away,
                bot_plays,
                grace_ms: None,
            },
        }
    }

    fn update_summary(&self) {
        let seats: Vec<SeatInfo> = Seat::ALL.iter().map(|&s| self.seat_info(s)).collect();
        let open = self.seats.iter().filter(|s| s.owner == SeatRow::Open).count();
        if let Ok(mut sum) = self.summary.write() {
            sum.status = self.status;
            sum.seats = seats;
            sum.open_seats = open;
            sum.spectators = self.members.iter().filter(|m| m.seat.is_none()).count();
            sum.hands = self.results.len();
        }
    }

    // ---------------------------------------------------------------------------------------
    // Messages

    fn overlay(&self) -> Overlay {
        Overlay { drawn: self.display, window: self.window_until.is_some() }
    }

    fn remaining(t: Option<Instant>) -> u64 {
        t.map_or(0, |t| t.saturating_duration_since(Instant::now()).as_millis() as u64)
    }

    fn timer_now(&self) -> Option<Timer> {
        let st = self.state.as_ref()?;
        if self.status == TableStatus::Finished {
            return None;
        }
        if self.display.is_some() {
            return Some(Timer::Draw { every_ms: self.app.timing.draw_ms });
        }
        if let Some(t) = self.window_until {
            return Some(Timer::Window { remaining_ms: Self::remaining(Some(t)) });
        }
        Some(match G::to_move(st) {
            Some(s) => match self.controller(s) {
                Controller::Person => {
                    Timer::Turn { seat: s, remaining_ms: Self::remaining(self.turn_deadline) }
                }
                Controller::Bot(_) => Timer::Bot { seat: s },
            },
            None => Timer::NextHand { remaining_ms: Self::remaining(self.deadline), ready: Vec::new() },
        })
    }

    fn match_json(&self) -> Value {
        match &self.m {
            Some(m) => G::match_summary(m, &self.results),
            None => Value::Null,
        }
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
            Event::WindowOpen => TableEvent::Window { closes_in_ms: self.app.timing.window_ms },
            Event::WindowClosed(outcome) => TableEvent::WindowClosed { outcome: outcome.clone() },
        }
    }

    fn view_and_legal(&self, viewer: Viewer) -> (Value, Option<Legal>) {
        let Some(st) = &self.state else { return (Value::Null, None) };
        let ov = self.overlay();
        let view = G::view_json(st, viewer, ov);
        let legal = match viewer {
            Viewer::Seat(s) if self.status == TableStatus::Playing => {
                G::legal_for(st, s, ov, self.requests[s.index()])
            }
            _ => None,
        };
        (view, legal)
    }

    fn update_msg(&self, e: &Event<G::Action>, viewer: Viewer) -> Utf8Bytes {
        let (view, legal) = self.view_and_legal(viewer);
        Utf8Bytes::from(
            ServerMsg::Update(UpdateMsg {
                v: self.v,
                event: self.table_event(e, viewer),
                hand: self.hand,
                move_no: self.moves,
                view,
                legal,
                timer: self.timer_now(),
                match_: self.match_json(),
            })
            .text(),
        )
    }

    fn table_json(&self) -> Value {
        match self.summary.read() {
            Ok(s) => serde_json::to_value(&*s).unwrap_or(Value::Null),
            Err(_) => Value::Null,
        }
    }

    fn sync_msg(&self, m: &Member) -> String {
        let viewer = m.seat.map_or(Viewer::Spectator, Viewer::Seat);
        let (view, legal) = self.view_and_legal(viewer);
        let is_host = self.host.as_deref() == Some(m.guest.id.as_str());
        ServerMsg::Sync(SyncMsg {
            v: self.v,
            table: self.table_json(),
            you: You { seat: m.seat, guest: m.guest.id.clone(), name: m.guest.name.clone(), host: is_host },
            hand: self.hand,
            move_no: self.moves,
            view,
            legal,
            timer: self.timer_now(),
            match_: self.match_json(),
            results: self.results.clone(),
            chat: self.chat.iter().map(chat_msg).collect(),
        })
        .text()
    }

    fn send(&self, m: &Member, msg: impl Into<Utf8Bytes>) {
        // A full queue drops the message: the client sees a gap in `v` and asks for a resync.
        let _ = m.out.try_send(msg.into());
    }

    fn reply(&self, conn: ConnId, msg: impl Into<Utf8Bytes>) {
        if let Some(m) = self.members.iter().find(|m| m.conn == conn) {
            self.send(m, msg);
        }
    }

    fn err(&self, conn: ConnId, code: ErrorCode, message: impl Into<String>) {
        self.reply(conn, protocol::error(code, message, Some(self.v)));
    }

    /// Records the hand in the match once it is over (and shown over: not during the draw).
    fn close_hand(&mut self) {
        let Some(st) = &self.state else { return };
        if self.hand_finished
            || self.display.is_some()
            || self.window_until.is_some()
            || G::to_move(st).is_some()
        {
            return;
        }
        self.hand_finished = true;
        if let Some(m) = &mut self.m {
            self.results.push(G::finish_hand(m, st));
        }
    }

    fn broadcast(&mut self, e: Event<G::Action>) {
        self.v += 1;
        if matches!(e, Event::Action { .. }) {
            self.moves += 1;
        }
        let mut cache: [Option<Utf8Bytes>; 5] = Default::default();
        for m in &self.members {
            let (i, viewer) = match m.seat {
                Some(s) => (s.index(), Viewer::Seat(s)),
                None => (4, Viewer::Spectator),
            };
            let msg = cache[i].get_or_insert_with(|| self.update_msg(&e, viewer)).clone();
            self.send(m, msg);
        }
        self.update_summary();
    }

    fn broadcast_seats(&mut self, except: Option<ConnId>) {
        self.v += 1;
        self.update_summary();
        let seats: Vec<SeatInfo> = Seat::ALL.iter().map(|&s| self.seat_info(s)).collect();
        let msg = ServerMsg::Seats(SeatsMsg {
            v: self.v,
            seats,
            spectators: self.members.iter().filter(|m| m.seat.is_none()).count(),
            status: self.status,
            timer: self.timer_now(),
        })
        .text();
        let msg = Utf8Bytes::from(msg);
        for m in &self.members {
            if Some(m.conn) != except {
                self.send(m, msg.clone());
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Commands

    fn member(&self, conn: ConnId) -> Option<&Member> {
        self.members.iter().find(|m| m.conn == conn)
    }

    async fn command(&mut self, cmd: Cmd) {
        if matches!(cmd, Cmd::Join { .. } | Cmd::Watch { .. }) && self.status == TableStatus::Parked {
            self.unpark().await;
        }
        self.command_inner(cmd).await;
        self.watch_presence();
    }

    // ---------------------------------------------------------------------------------------
    // Parking

    /// Sets or clears the parking clock: it runs while a match is played with nobody connected.
    fn watch_presence(&mut self) {
        if !self.members.is_empty() || self.status != TableStatus::Playing {
            self.park_at = None;
        } else if self.park_at.is_none() {
            self.park_at = Some(Instant::now() + Duration::from_millis(self.app.timing.park_ms));
        }
    }

    /// Nobody has been connected for `park_ms`: the bots and clocks stop.
    async fn park(&mut self) {
        self.park_at = None;
        if !self.members.is_empty() || self.status != TableStatus::Playing {
            return;
        }
        if let Err(e) = self.app.store.set_status(&self.id, TableStatus::Parked).await {
            eprintln!("yezi serve: table {}: cannot park: {e}; retrying", self.id);
            self.park_at = Some(Instant::now() + Duration::from_secs(1));
            return;
        }
        self.status = TableStatus::Parked;
        self.update_summary();
    }

    /// A person connects to a parked table: play goes on where it stopped.
    async fn unpark(&mut self) {
        if let Err(e) = self.app.store.set_status(&self.id, TableStatus::Playing).await {
            // Played on all the same: the log is what counts, and a restart parks it again.
            eprintln!("yezi serve: table {}: cannot mark the table playing again: {e}", self.id);
        }
        self.status = TableStatus::Playing;
        let now = Instant::now();
        if self.held.is_some() {
            self.deadline = Some(now);
        } else if self.display.is_some() {
            self.tick_at = now + self.draw_every();
            self.deadline = Some(self.tick_at);
        } else if self.window_until.is_some() {
            let until = now + self.window_len();
            self.window_until = Some(until);
            self.deadline = Some(until);
        } else {
            self.schedule();
        }
        self.update_summary();
    }

    async fn command_inner(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join { conn, guest, seat, out, reply } => {
                let r = self.join(conn, guest, seat, out).await;
                let ok = r.is_ok();
                let _ = reply.send(r.map(|_| ()));
                if ok && let Some(m) = self.member(conn) {
                    self.send(m, self.sync_msg(m));
                }
                let full = self.seats.iter().all(|s| s.owner != SeatRow::Open);
                if ok && self.status == TableStatus::Waiting && full {
                    self.begin_match().await;
                }
            }
            Cmd::Watch { conn, guest, out, reply } => {
                self.members.push(Member { conn, guest, seat: None, out });
                let _ = reply.send(Ok(()));
                self.broadcast_seats(Some(conn));
                if let Some(m) = self.member(conn) {
                    self.send(m, self.sync_msg(m));
                }
            }
            Cmd::Act { conn, action, move_no, seat } => self.act(conn, action, move_no, seat).await,
            Cmd::Chat { conn, text } => self.say(conn, text).await,
            Cmd::Resync { conn } => {
                if let Some(m) = self.member(conn) {
                    self.send(m, self.sync_msg(m));
                }
            }
            Cmd::Leave { conn } => self.leave(conn).await,
            Cmd::Back { conn } => match self.member(conn).and_then(|m| m.seat) {
                Some(s) => {
                    if self.seats[s.index()].away {
                        self.come_back(s);
                    }
                    self.reply(
                        conn,
                        ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Back, legal: None }).text(),
                    );
                }
                None => self.err(conn, ErrorCode::NotSeated, "only a seated player can come back"),
            },
            Cmd::Start { conn } => self.start_cmd(conn).await,
            Cmd::Next { conn } => self.next_cmd(conn).await,
            Cmd::Gone { conn } => self.gone(conn),
            Cmd::AutoStart => {
                if self.status == TableStatus::Waiting && self.seats.iter().all(|s| s.owner != SeatRow::Open)
                {
                    self.begin_match().await;
                }
            }
        }
    }

    async fn join(
        &mut self,
        conn: ConnId,
        guest: Guest,
        want: Option<u8>,
        out: Out,
    ) -> Result<(), (ErrorCode, String)> {
        let held = Seat::ALL.into_iter().find(
            |s| matches!(&self.seats[s.index()].owner, SeatRow::Person { guest: g, .. } if *g == guest.id),
        );
        if self.status == TableStatus::Finished && held.is_none() {
            return Err((
                ErrorCode::Finished,
                "the match at this table is over; watch it or fetch its record".into(),
            ));
        }
        let seat = match (held, want) {
            (Some(h), Some(w)) if h.number() != w => {
                return Err((ErrorCode::SeatTaken, format!("you hold seat {} at this table", h.number())));
            }
            (Some(h), _) => h,
            (None, Some(w)) => {
                let s = Seat::new(w).ok_or((ErrorCode::BadMessage, format!("seat must be 0–3, not {w}")))?;
                if self.seats[s.index()].owner != SeatRow::Open {
                    return Err((ErrorCode::SeatTaken, format!("seat {w} is not open")));
                }
                s
            }
            (None, None) => Seat::ALL
                .into_iter()
                .find(|s| self.seats[s.index()].owner == SeatRow::Open)
                .ok_or((ErrorCode::NoSeat, "no seat is open at this table; watch it instead".to_string()))?,
        };
        if held.is_none() {
            let owner = SeatRow::Person { guest: guest.id.clone(), name: guest.name.clone() };
            self.app
                .store
                .set_seat(&self.id, seat.number(), &owner)
                .await
                .map_err(|e| (ErrorCode::Storage, format!("the seat could not be saved: {e}")))?;
            self.seats[seat.index()].owner = owner;
        }
        let was_bot = matches!(self.controller(seat), Controller::Bot(_));
        self.seats[seat.index()].conns += 1;
        self.seats[seat.index()].away = false;
        self.members.retain(|m| m.conn != conn);
        self.members.push(Member { conn, guest, seat: Some(seat), out });
        if was_bot {
            self.person_takes_over(seat);
        }
        self.broadcast_seats(Some(conn));
        Ok(())
    }

    /// A person is back in charge of his seat: a bot move being computed for it is dropped and,
    /// if it is his turn, his clock starts.
    fn person_takes_over(&mut self, seat: Seat) {
        let Some(st) = &self.state else { return };
        if self.display.is_some() || self.window_until.is_some() {
            return;
        }
        if G::to_move(st) == Some(seat) && matches!(self.controller(seat), Controller::Person) {
            if self.pending.is_some() {
                // Only a bot move for this seat can be pending during a turn.
                if let Some(p) = self.pending.take() {
                    p.abort();
                }
            }
            self.start_turn(seat);
        }
    }

    fn come_back(&mut self, seat: Seat) {
        self.seats[seat.index()].away = false;
        self.person_takes_over(seat);
        self.broadcast_seats(None);
    }

    fn gone(&mut self, conn: ConnId) {
        let Some(i) = self.members.iter().position(|m| m.conn == conn) else { return };
        let m = self.members.swap_remove(i);
        if let Some(s) = m.seat {
            let seat = &mut self.seats[s.index()];
            seat.conns = seat.conns.saturating_sub(1);
            if seat.conns == 0 {
                self.bot_takes_over(s);
            }
        }
        self.broadcast_seats(None);
        if self.status == TableStatus::Finished && self.members.is_empty() {
            self.deadline = Some(Instant::now() + Duration::from_millis(self.app.timing.retire_ms));
        }
    }

    /// A bot now plays `seat`: if it is the seat's turn, it moves after its delay.
    fn bot_takes_over(&mut self, seat: Seat) {
        let Some(st) = &self.state else { return };
        if self.display.is_none()
            && self.window_until.is_none()
            && G::to_move(st) == Some(seat)
            && self.pending.is_none()
        {
            self.start_turn(seat);
        }
    }

    async fn leave(&mut self, conn: ConnId) {
        let Some(i) = self.members.iter().position(|m| m.conn == conn) else { return };
        let Some(s) = self.members[i].seat else {
            self.err(conn, ErrorCode::NotSeated, "you are not seated");
            return;
        };
        if let Err(e) = self.app.store.set_seat(&self.id, s.number(), &SeatRow::Open).await {
            self.err(conn, ErrorCode::Storage, format!("the seat could not be given up: {e}"));
            return;
        }
        // Every connection of this person at the seat becomes a spectator.
        let guest = self.members[i].guest.id.clone();
        for m in &mut self.members {
            if m.seat == Some(s) && m.guest.id == guest {
                m.seat = None;
            }
        }
        self.seats[s.index()] = SeatState { owner: SeatRow::Open, conns: 0, away: false };
        self.requests[s.index()] = G::Request::default();
        self.bot_takes_over(s);
        self.broadcast_seats(None);
        if let Some(m) = self.member(conn) {
            self.send(m, self.sync_msg(m));
        }
    }

    async fn start_cmd(&mut self, conn: ConnId) {
        let Some(m) = self.member(conn) else { return };
        if self.host.as_deref() != Some(m.guest.id.as_str()) {
            self.err(conn, ErrorCode::NotHost, "only the table's host can start the match");
        } else if self.status != TableStatus::Waiting {
            self.err(conn, ErrorCode::AlreadyStarted, "the match has already begun");
        } else {
            self.begin_match().await;
        }
    }

    async fn next_cmd(&mut self, conn: ConnId) {
        let Some(s) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, "you are not seated");
            return;
        };
        let between = self.state.as_ref().is_some_and(|st| G::to_move(st).is_none())
            && self.display.is_none()
            && self.status == TableStatus::Playing;
        if !between {
            self.err(conn, ErrorCode::NothingToDecide, "the next hand is dealt only between hands");
            return;
        }
        self.ready[s.index()] = true;
        self.reply(conn, ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Next, legal: None }).text());
        let all = Seat::ALL
            .into_iter()
            .all(|s| !matches!(self.controller(s), Controller::Person) || self.ready[s.index()]);
        if all {
            self.deadline = Some(Instant::now());
        }
    }

    async fn say(&mut self, conn: ConnId, text: String) {
        let Some(m) = self.member(conn) else { return };
        let text = match table::text::check_text(table::text::TextKind::Chat, &text, 500) {
            Ok(t) => t,
            Err(e) => return self.err(conn, ErrorCode::BadChat, e.to_string()),
        };
        let row = ChatRow {
            seq: self.chat_seq,
            at_ms: now_ms(),
            guest: Some(m.guest.id.clone()),
            name: m.guest.name.clone(),
            seat: m.seat.map(|s| s.number()),
            text,
        };
        if let Err(e) = self.app.store.append_chat(&self.id, &row).await {
            self.err(conn, ErrorCode::Storage, format!("the line could not be saved: {e}"));
            return;
        }
        self.chat_seq += 1;
        self.v += 1;
        let msg = Utf8Bytes::from(ServerMsg::Chat(ChatMsg { v: self.v, message: chat_msg(&row) }).text());
        for m in &self.members {
            self.send(m, msg.clone());
        }
        self.chat.push_back(row);
        while self.chat.len() > CHAT_KEPT {
            self.chat.pop_front();
        }
    }

    async fn act(&mut self, conn: ConnId, raw: Value, move_no: Option<u64>, named: Option<u8>) {
        let Some(seat) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, "only a seated player can act; join a seat first");
            return;
        };
        if let Some(n) = named
            && n != seat.number()
        {
            self.err(conn, ErrorCode::NotYourSeat, format!("you are seat {}, not seat {n}", seat.number()));
            return;
        }
        match self.status {
            TableStatus::Waiting => {
                self.err(conn, ErrorCode::NotStarted, "the match has not begun");
                return;
            }
            TableStatus::Finished => {
                self.err(conn, ErrorCode::Finished, "the match is over");
                return;
            }
            TableStatus::Parked | TableStatus::Playing => {}
        }
        let action: G::Action = match serde_json::from_value(raw) {
            Ok(a) => a,
            Err(e) => {
                self.err(conn, ErrorCode::Illegal, format!("not an action of this game: {e}"));
                return;
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
            return;
        }
        if self.seats[seat.index()].away {
            // Acting is coming back.
            self.come_back(seat);
        }
        let Some(st) = &self.state else { return };
        let ov = self.overlay();
        if ov.drawn.is_some() || ov.window {
            match G::request(st, seat, ov, self.requests[seat.index()], &action) {
                Ok(r) => {
                    self.requests[seat.index()] = r;
                    let legal = G::legal_for(st, seat, ov, r);
                    self.reply(
                        conn,
                        ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Request, legal: Some(legal) })
                            .text(),
                    );
                }
                Err(RequestError::Illegal(why)) => self.err(conn, ErrorCode::Illegal, why),
                Err(RequestError::TooLate(why)) => self.err(conn, ErrorCode::TooLate, why),
                Err(RequestError::Refused(why)) => self.err(conn, ErrorCode::Illegal, why.to_string()),
            }
            return;
        }
        if G::is_request(&action) {
            self.err(
                conn,
                ErrorCode::TooLate,
                "there is no draw or window open now: this request comes too late",
            );
            return;
        }
        let Some(turn) = G::to_move(st) else {
            self.err(conn, ErrorCode::NothingToDecide, "the hand is over; the next one is dealt soon");
            return;
        };
        if turn != seat {
            self.err(conn, ErrorCode::NotYourTurn, format!("it is {turn}'s turn, not yours ({seat})"));
            return;
        }
        let mut next = st.clone();
        if let Err(why) = G::apply(&mut next, action) {
            self.err(conn, ErrorCode::Illegal, why.to_string());
            return;
        }
        if let Err(e) = self.write(&[(seat, action)]).await {
            self.err(conn, ErrorCode::Storage, format!("the move could not be saved, nothing changed: {e}"));
            return;
        }
        if let Some(p) = self.pending.take() {
            p.abort();
        }
        self.state = Some(next);
        self.schedule();
        self.broadcast(Event::Action { seat, action, by_bot: false });
        self.settle().await;
    }

    /// Writes actions to the log (any buffered draw answers first).
    async fn write(&mut self, actions: &[(Seat, G::Action)]) -> Result<(), crate::store::StoreError> {
        let rows: Vec<LoggedAction> = self
            .draw_answers
            .iter()
            .chain(actions)
            .enumerate()
            .map(|(i, (s, a))| LoggedAction {
                seq: self.seq + i as u64,
                hand: self.hand,
                seat: s.number(),
                action: serde_json::to_string(a).unwrap_or_default(),
            })
            .collect();
        if rows.is_empty() {
            return Ok(());
        }
        self.app.store.append_actions(&self.id, &rows).await?;
        self.seq += rows.len() as u64;
        self.draw_answers.clear();
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // The match

    async fn begin_match(&mut self) {
        if let Err(e) = self.app.store.set_status(&self.id, TableStatus::Playing).await {
            eprintln!("yezi serve: table {}: cannot start: {e}", self.id);
            return;
        }
        self.status = TableStatus::Playing;
        let m = G::new_match(&self.settings, self.seed);
        self.m = Some(m);
        self.hand = 0;
        self.deal();
        self.schedule();
        self.broadcast(Event::Started);
        self.settle().await;
    }

    /// Deals hand `self.hand` and sets up how it begins.
    fn deal(&mut self) {
        let Some(m) = &self.m else { return };
        self.state = G::start_hand(&self.settings, m, self.seed, self.hand);
        self.hand_finished = false;
        self.requests = [G::Request::default(); 4];
        self.ready = [false; 4];
        self.display = None;
        self.window_until = None;
        self.draw_answers.clear();
        let Some(st) = &self.state else { return };
        if G::to_move(st).is_some() || G::begin(st, false) == Begin::Draw {
            match G::begin(st, false) {
                Begin::Draw => self.start_draw(),
                Begin::Window => self.open_window(),
                Begin::Play => {}
            }
        }
    }

    fn start_draw(&mut self) {
        self.display = Some(0);
        self.tick_at = Instant::now() + self.draw_every();
        self.deadline = Some(self.tick_at);
    }

    fn open_window(&mut self) {
        let until = Instant::now() + self.window_len();
        self.window_until = Some(until);
        self.deadline = Some(until);
    }

    fn start_turn(&mut self, s: Seat) {
        let now = Instant::now();
        match self.controller(s) {
            Controller::Bot(_) => {
                self.turn_deadline = None;
                self.deadline = Some(now + Duration::from_millis(self.app.timing.bot_delay_ms));
            }
            Controller::Person => {
                let t = now + Duration::from_secs(u64::from(self.settings_doc.turn_seconds));
                self.turn_deadline = Some(t);
                self.deadline = Some(t);
            }
        }
    }

    /// After every change of the hand, before it is broadcast: records a finished hand in the
    /// match, and sets the clock of what comes next (a turn, the pause, the record).
    fn schedule(&mut self) {
        if self.status == TableStatus::Waiting {
            self.deadline = None;
            return;
        }
        if self.record_due {
            return;
        }
        let Some(st) = &self.state else { return };
        if self.display.is_some() || self.window_until.is_some() {
            return;
        }
        match G::to_move(st) {
            Some(s) => self.start_turn(s),
            None => {
                self.close_hand();
                self.update_summary();
                if self.m.as_ref().is_some_and(|m| G::match_over(m)) {
                    if self.status != TableStatus::Finished {
                        self.record_due = true;
                    }
                    self.deadline = Some(Instant::now() + Duration::from_millis(self.app.timing.retire_ms));
                } else {
                    self.deadline = Some(Instant::now() + Duration::from_millis(self.app.timing.pause_ms));
                }
            }
        }
    }

    /// After a change has been broadcast: stores the record of a match just finished.
    async fn settle(&mut self) {
        if self.record_due {
            self.store_record().await;
        }
    }

    fn players(&self) -> [String; 4] {
        std::array::from_fn(|i| match &self.seats[i].owner {
            SeatRow::Open => format!("bot:{}", default_bot::<G>()),
            SeatRow::Bot(b) => format!("bot:{b}"),
            SeatRow::Person { name, .. } => name.clone(),
        })
    }

    /// Writes the finished match's record and marks the table finished.
    async fn store_record(&mut self) {
        let log = match self.app.store.actions(&self.id).await {
            Ok(l) => l,
            Err(e) => return self.stall(&format!("cannot read the log: {e}")),
        };
        let record = match record_of::<G>(&self.settings, self.seed, self.players(), &log) {
            Ok(r) => r,
            Err(e) => {
                // The log replays by construction; a failure here is a bug, reported, not retried.
                eprintln!("yezi serve: table {}: the record cannot be written: {e}", self.id);
                self.record_due = false;
                return;
            }
        };
        if let Err(e) = self.app.store.finish_table(&self.id, &record).await {
            return self.stall(&format!("cannot store the record: {e}"));
        }
        self.record_due = false;
        self.status = TableStatus::Finished;
        self.deadline = Some(Instant::now() + Duration::from_millis(self.app.timing.retire_ms));
        self.broadcast_seats(None);
    }

    // ---------------------------------------------------------------------------------------
    // Timers and computations

    async fn timer(&mut self) {
        self.deadline = None;
        if let Some((c, _)) = self.held.take() {
            return self.publish(c).await;
        }
        if self.record_due {
            self.store_record().await;
            return;
        }
        if self.status == TableStatus::Parked {
            // Nothing moves until a person connects (`unpark` sets the clocks again).
            return;
        }
        if self.status == TableStatus::Finished {
            if self.members.is_empty() {
                self.retire = true;
            }
            return;
        }
        let Some(st) = self.state.clone() else { return };
        let hand = self.hand;
        let seed = self.seed;
        let controllers: [Controller; 4] = std::array::from_fn(|i| self.controller(Seat::ALL[i]));
        let requests = self.requests;
        let polls = if let Some(d) = self.display {
            Some(Polls::Draw { drawn: d + 1, position: self.seq + self.draw_answers.len() as u64 })
        } else if self.window_until.is_some() {
            Some(Polls::Window { position: self.seq })
        } else {
            None
        };
        if let Some(polls) = polls {
            let job = move || answer_polls::<G>(st, polls, controllers, requests, seed, hand);
            if self.controller_all_persons() {
                // Nothing to think about: answered at once, published at the same fixed time.
                let c = job();
                self.pending = Some(tokio::spawn(async move { c }));
            } else {
                self.pending = Some(tokio::task::spawn_blocking(job));
            }
            return;
        }
        match G::to_move(&st) {
            Some(s) => {
                let name = match &controllers[s.index()] {
                    Controller::Bot(name) => name.clone(),
                    Controller::Person => {
                        // The clock ran out: a bot plays for him until he is back.
                        self.seats[s.index()].away = true;
                        self.broadcast_seats(None);
                        default_bot::<G>().to_string()
                    }
                };
                let position = self.seq;
                self.pending = Some(tokio::task::spawn_blocking(move || {
                    let seed = decision_seed(seed, s, position);
                    let action = bot_choice::<G>(&name, &st, s, seed, Budget::default())?;
                    Ok(Computed::Bot { seat: s, action, position, hand })
                }));
            }
            None => {
                // The pause is over: the next hand.
                if self.m.as_ref().is_some_and(|m| !G::match_over(m)) {
                    self.hand += 1;
                    self.deal();
                    self.schedule();
                    self.broadcast(Event::HandStart);
                    self.settle().await;
                }
            }
        }
    }

    async fn computed(&mut self, c: Computed<G>) {
        match c {
            Computed::Bot { seat, action, position, hand } => {
                let current = self.state.as_ref().and_then(|st| G::to_move(st));
                let still = position == self.seq && hand == self.hand && current == Some(seat);
                if !still || self.window_until.is_some() || self.display.is_some() {
                    self.schedule();
                    return self.settle().await;
                }
                let Some(mut next) = self.state.clone() else { return };
                if let Err(e) = G::apply(&mut next, action) {
                    return self.stall(&format!("a bot chose an illegal action: {e}"));
                }
                if let Err(e) = self.write(&[(seat, action)]).await {
                    return self.stall(&format!("cannot write a bot's move: {e}"));
                }
                self.state = Some(next);
                self.schedule();
                self.broadcast(Event::Action { seat, action, by_bot: true });
                self.settle().await;
            }
            // A poll's outcome is published at a fixed time after it was computed from.
            c @ (Computed::Tick { .. } | Computed::Window { .. }) => {
                let at = Instant::now().max(self.deadline_of_hold());
                self.held = Some((c, at));
                self.deadline = Some(at);
            }
        }
    }

    /// When a poll outcome computed now is published.
    fn deadline_of_hold(&self) -> Instant {
        let hold = Duration::from_millis(self.app.timing.poll_hold_ms);
        let base = if self.display.is_some() {
            self.tick_at
        } else {
            self.window_until.unwrap_or_else(Instant::now)
        };
        base + hold
    }

    async fn publish(&mut self, c: Computed<G>) {
        match c {
            Computed::Bot { .. } => {}
            Computed::Tick { state, answered, drawn, hand } => {
                if hand != self.hand || self.display.is_none() {
                    return;
                }
                let decided = G::draw_decided(&state);
                if decided || drawn >= 48 {
                    // The draw is over: its answers are written before anyone sees the outcome.
                    let declaration = if decided { answered.last().copied() } else { None };
                    if let Err(e) = self.write(&answered).await {
                        return self.stall(&format!("cannot write the draw: {e}"));
                    }
                    self.state = Some(state);
                    self.display = None;
                    let window = self.state.as_ref().is_some_and(|st| G::window_after_draw(st));
                    if window {
                        self.open_window();
                    }
                    self.schedule();
                    match declaration {
                        Some((seat, action)) => {
                            let by_bot = matches!(self.controller(seat), Controller::Bot(_));
                            self.broadcast(Event::Action { seat, action, by_bot });
                        }
                        None => self.broadcast(Event::DrawEnd),
                    }
                    if window {
                        self.broadcast(Event::WindowOpen);
                    }
                    self.settle().await;
                } else {
                    self.draw_answers.extend(answered);
                    self.state = Some(state);
                    self.display = Some(drawn);
                    // A steady pace: the next tick is one interval after this one was due.
                    self.tick_at = (self.tick_at + self.draw_every()).max(Instant::now());
                    self.deadline = Some(self.tick_at);
                    self.broadcast(Event::Draw(drawn));
                }
            }
            Computed::Window { state, answered, hand } => {
                if hand != self.hand || self.window_until.is_none() {
                    return;
                }
                if let Err(e) = self.write(&answered).await {
                    return self.stall(&format!("cannot write the window's answers: {e}"));
                }
                let outcome = G::window_outcome(&state);
                self.state = Some(state);
                self.window_until = None;
                self.requests = [G::Request::default(); 4];
                self.schedule();
                self.broadcast(Event::WindowClosed(outcome));
                self.settle().await;
            }
        }
    }
}
