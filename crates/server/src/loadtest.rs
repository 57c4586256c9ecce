//! `yezi loadtest`: N tables of four bot clients each, over real WebSockets to a running server on
//! this machine, measuring moves per second and the latency from a move being sent to its
//! broadcast reaching all four seats of the table.
//!
//! Each client is a person to the server: it holds a guest token and a seat, and plays random
//! legal actions from the `legal` descriptions the server sends (no rules code), after a think
//! time drawn uniformly from the given range (default 0.5–1.5 s, a quick human's pace). During the
//! Da Bai Fen draw a client asks to show a card with probability 0.3 when it has one; during a
//! window it asks to annul or force a redeal with probability 0.2 when it may.
//!
//! The latency of a move is measured on the client side, all four seats being in this process:
//! from just before the acting client sends it to the moment the last of the four clients has
//! read the `update` announcing it. It includes both loopback trips and the clients' own
//! scheduling, so it overstates the server's share.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cards::record::GameKind;
use cards::{Rng, Seat};
use futures_util::StreamExt;
use serde_json::Value;
use tokio::sync::watch;
use tokio::time::Instant;

use client::{Client, ClientError, Socket, random_act};
use wire::{
    ActAction, ClientMsg, ErrorCode, GameView, Legal, NewTable, SeatChoice, ServerMsg, TableEvent, TableMsg,
};

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// The server, `host:port` on this machine.
    pub addr: String,
    /// How many tables.
    pub tables: usize,
    /// One game, or both alternately (`None`).
    pub game: Option<GameKind>,
    /// A client's think time before each decision: uniform in this range of milliseconds.
    pub think_ms: (u64, u64),
    /// How long to measure once every table is seated.
    pub duration: Duration,
    /// Moves in the first part of the run are not measured.
    pub warmup: Duration,
    /// The seed of the clients' choices and think times.
    pub seed: u64,
    /// Further nodes of the same cluster (`host:port` on this machine): the tables are created
    /// through every node in turn (`addr` first), so each node owns its share.
    pub nodes: Vec<String>,
    /// Each table's four people connect through the node after the one that owns the table,
    /// so every move and every broadcast crosses the bus (with `nodes`).
    pub cross: bool,
    /// Analyses kept asked for during the warm-up and the measurement (0: none): before the
    /// tables are seated, [`ANALYSIS_GAMES`] games of four bots are played out on the server
    /// (which should run with fast bots: `--bot-delay-ms 0 --trick-ms 0 --pause-ms 0`), and this
    /// many analyses of their hands are kept queued or running from then on.
    pub analyses: usize,
    /// Of the `tables`, this many belong to duplicate events (`docs/events.md`), with their
    /// people as clients of this tool.
    pub events: Option<EventLoad>,
}

/// The duplicate events of a run: `tables` of the run's tables are the events' tables of
/// people, `per_event` to an event; `people` clients of this tool sit at each (the event's bot
/// plays the other seats), and play its boards one after another, each board a one-hand table
/// the event makes. The events are hosted by accounts this tool claims (at most
/// [`crate::api::events::EVENTS_PER_HOST`] events each) and begin when full.
#[derive(Clone, Debug)]
pub struct EventLoad {
    /// The events' tables, all events together.
    pub tables: usize,
    /// Tables per event (1 to [`crate::api::events::MAX_TABLES`]).
    pub per_event: usize,
    /// People at each table (1 to 4).
    pub people: u8,
    /// Boards per event (1 to [`crate::api::events::MAX_BOARDS`]).
    pub boards: u32,
}

/// With `analyses`: how many games of four bots are played for their hands to be analysed…
pub const ANALYSIS_GAMES: usize = 2;
/// …and how many hands each has (Madiao).
pub const ANALYSIS_HANDS: usize = 30;

/// What a run measured.
#[derive(Clone, Debug)]
pub struct LoadReport {
    /// Tables driven.
    pub tables: usize,
    /// WebSocket connections.
    pub connections: usize,
    /// Seconds measured.
    pub seconds: f64,
    /// Moves sent and broadcast to all four seats while measuring.
    pub moves: u64,
    /// Latencies of those moves, microseconds, sorted.
    pub latencies_us: Vec<u64>,
    /// Error messages received and connection failures.
    pub errors: u64,
    /// A few of the errors.
    pub error_samples: Vec<String>,
    /// Gaps in the table versions seen (each answered with a resync).
    pub gaps: u64,
    /// Hands begun while measuring.
    pub hands: u64,
    /// The server's resident memory before the tables were created (bytes).
    pub rss_before: Option<u64>,
    /// The server's resident memory with every table active (bytes).
    pub rss_during: Option<u64>,
    /// Seconds taken to create and seat every table.
    pub setup_seconds: f64,
    /// The nodes the tables were spread over.
    pub nodes: usize,
    /// The people connected through another node than their table's owner.
    pub cross: bool,
    /// Joins asked again because the table's node did not answer in time (`unavailable`).
    pub entry_retries: u64,
    /// Analyses kept asked for (0: none).
    pub analyses: usize,
    /// Analyses finished while measuring.
    pub analyses_done: u64,
    /// The events driven (0: none) and their tables.
    pub events: usize,
    /// The events' tables of people.
    pub event_tables: usize,
    /// Latencies of the moves at the events' tables alone (microseconds, sorted; they are in
    /// `latencies_us` too).
    pub event_latencies_us: Vec<u64>,
    /// For each board of an event whose last table finished while measuring: the time from
    /// that table's end (its first person reading the `update` that ends the match) to the
    /// event's page (`GET /api/events/{id}`) showing the board's traveller complete, with the
    /// standings counting it (microseconds, sorted).
    pub standings_us: Vec<u64>,
    /// Boards whose traveller was not complete 30 s after their last table ended.
    pub standings_missed: u64,
    /// Boards played to the end at the events' tables while measuring.
    pub event_boards: u64,
    /// Moves refused as `stale` (a bot standing in for a person moved first), answered with a
    /// resync.
    pub stale: u64,
}

fn quantile_ms(v: &[u64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let i = ((v.len() as f64 * q).ceil() as usize).clamp(1, v.len()) - 1;
    v[i] as f64 / 1000.0
}

impl LoadReport {
    /// The latency at quantile `q` (0–1), in milliseconds.
    pub fn percentile_ms(&self, q: f64) -> f64 {
        quantile_ms(&self.latencies_us, q)
    }

    /// The standings' latency at quantile `q` (0–1), in milliseconds (see `standings_us`).
    pub fn standings_ms(&self, q: f64) -> f64 {
        quantile_ms(&self.standings_us, q)
    }

    /// Server memory per table (bytes), from the resident memory before and during.
    pub fn memory_per_table(&self) -> Option<f64> {
        let (a, b) = (self.rss_before?, self.rss_during?);
        Some(b.saturating_sub(a) as f64 / self.tables.max(1) as f64)
    }
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "tables: {} ({} WebSocket connections), seated in {:.1} s; measured for {:.0} s",
            self.tables, self.connections, self.setup_seconds, self.seconds
        )?;
        if self.nodes > 1 {
            writeln!(
                f,
                "nodes: {}; each table's people connect through {}",
                self.nodes,
                if self.cross { "another node than its owner" } else { "its owner" }
            )?;
        }
        writeln!(
            f,
            "moves: {} ({:.1} per second); hands begun: {}",
            self.moves,
            self.moves as f64 / self.seconds.max(1e-9),
            self.hands
        )?;
        writeln!(
            f,
            "latency from a move sent to its broadcast read by all four seats: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
            self.percentile_ms(0.5),
            self.percentile_ms(0.9),
            self.percentile_ms(0.99),
            self.percentile_ms(0.999),
            self.percentile_ms(1.0)
        )?;
        writeln!(
            f,
            "errors: {}; version gaps: {}; joins asked again (the table's node did not answer in time): {}",
            self.errors, self.gaps, self.entry_retries
        )?;
        for e in &self.error_samples {
            writeln!(f, "  error: {e}")?;
        }
        if self.events > 0 {
            let e = &self.event_latencies_us;
            writeln!(
                f,
                "events: {} ({} of the tables); boards finished while measuring: {}; moves refused as stale: {}",
                self.events, self.event_tables, self.event_boards, self.stale
            )?;
            writeln!(
                f,
                "latency at the events' tables: {} moves, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                e.len(),
                quantile_ms(e, 0.5),
                quantile_ms(e, 0.99),
                quantile_ms(e, 1.0)
            )?;
            writeln!(
                f,
                "standings after a board's last table ended: {} boards, p50 {:.0} ms, p90 {:.0} ms, p99 {:.0} ms, max {:.0} ms; not updated in 30 s: {}",
                self.standings_us.len(),
                self.standings_ms(0.5),
                self.standings_ms(0.9),
                self.standings_ms(0.99),
                self.standings_ms(1.0),
                self.standings_missed
            )?;
        }
        if self.analyses > 0 {
            writeln!(
                f,
                "analyses: {} kept asked for; {} finished while measuring ({:.2} per second)",
                self.analyses,
                self.analyses_done,
                self.analyses_done as f64 / self.seconds.max(1e-9)
            )?;
        }
        match (self.rss_before, self.rss_during, self.memory_per_table()) {
            (Some(a), Some(b), Some(per)) => writeln!(
                f,
                "server memory: {:.1} MiB before, {:.1} MiB with the tables: {:.1} KiB per active table",
                a as f64 / 1048576.0,
                b as f64 / 1048576.0,
                per / 1024.0
            ),
            _ => writeln!(f, "server memory: not reported by the server"),
        }
    }
}

/// Why a run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The address is not on this machine.
    #[error(
        "{0}: the load tool only drives a server on this machine (a loopback address such as 127.0.0.1:8080)"
    )]
    NotLoopback(String),
    /// Talking to the server failed while setting up.
    #[error("setting up the tables: {0}")]
    Setup(#[from] ClientError),
    /// The options do not describe a run.
    #[error("{0}")]
    Options(String),
    /// Talking to the server failed during a replay run.
    #[error("the replay run: {0}")]
    Replay(ClientError),
}

/// Moves sent and not yet read by all four seats, by move number, for one table.
#[derive(Default)]
struct Probe {
    /// By (board, move number): a board of an event is a new table whose moves count from 0.
    sent: HashMap<(u32, u64), (Instant, u8)>,
}

struct Totals {
    measuring: watch::Receiver<bool>,
    latencies: Mutex<Vec<u64>>,
    moves: AtomicU64,
    errors: AtomicU64,
    gaps: AtomicU64,
    hands: AtomicU64,
    retries: AtomicU64,
    samples: Mutex<Vec<String>>,
    event_latencies: Mutex<Vec<u64>>,
    standings: Mutex<Vec<u64>>,
    standings_missed: AtomicU64,
    event_boards: AtomicU64,
    stale: AtomicU64,
}

impl Totals {
    fn error(&self, e: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut s) = self.samples.lock()
            && s.len() < 5
        {
            s.push(e);
        }
    }
}

/// Checks that `addr` names this machine only.
pub async fn check_loopback(addr: &str) -> Result<(), LoadError> {
    let resolved: Vec<_> = tokio::net::lookup_host(addr)
        .await
        .map_err(|e| LoadError::NotLoopback(format!("{addr} ({e})")))?
        .collect();
    if resolved.is_empty() || !resolved.iter().all(|a| a.ip().is_loopback()) {
        return Err(LoadError::NotLoopback(addr.to_string()));
    }
    Ok(())
}

/// Creates table `i` through `client` (its owner) and seats its four people through `via`.
async fn seat_table(
    client: &Client,
    via: &Client,
    i: usize,
    game: GameKind,
) -> Result<(String, Vec<Socket>), ClientError> {
    let mut guests = Vec::with_capacity(4);
    for s in 0..4 {
        guests.push(client.guest(&format!("load {i}.{s}")).await?);
    }
    let body = NewTable {
        name: Some(format!("load {i}")),
        turn_seconds: 60,
        private: true,
        seats: Some(vec![SeatChoice::Me, SeatChoice::Open, SeatChoice::Open, SeatChoice::Open]),
        ..NewTable::new(game)
    };
    let id = client.create_table(&guests[0].token, &body).await?.table.id;
    let mut sockets = Vec::with_capacity(4);
    for (s, g) in guests.iter().enumerate() {
        let mut sock = via.connect_as(&g.token).await?;
        sock.send_msg(&ClientMsg::Join { table: id.clone(), seat: Some(s as u8) }).await?;
        sockets.push(sock);
    }
    Ok((id, sockets))
}

/// How often a person asks again to enter a table its node could not reach in time.
const ENTRY_RETRIES: u32 = 20;

/// Where a client plays: its table and seat, and for an event's table the board (its moves'
/// key in the [`Probe`]) and the people at the table (the reads a move waits for).
struct Place {
    table: String,
    seat: u8,
    board: u32,
    people: u8,
    event: bool,
}

/// How a client's play ended.
#[derive(Debug, PartialEq)]
enum Ended {
    /// Told to stop, or its connection failed.
    Stopped,
    /// (An event's table) the match is over: read then.
    Over(Instant),
}

#[allow(clippy::too_many_arguments)]
async fn play(
    mut sock: Socket,
    place: Place,
    probe: Arc<Mutex<Probe>>,
    totals: Arc<Totals>,
    mut stop: watch::Receiver<bool>,
    rng: &mut Rng,
    think: (u64, u64),
) -> Ended {
    let Place { table, seat, board, people, event: at_event } = place;
    let mut pending: Option<(Instant, ActAction, u64)> = None;
    let mut requested_hand: Option<u64> = None;
    let (mut entered, mut retries) = (false, 0);
    loop {
        let at = pending.as_ref().map(|p| p.0);
        tokio::select! {
            m = sock.recv_msg() => {
                let m = match m {
                    Ok(m) => m,
                    Err(e) => {
                        if !*stop.borrow() {
                            totals.error(format!("connection: {e}"));
                        }
                        return Ended::Stopped;
                    }
                };
                let measuring = *totals.measuring.borrow();
                let now = match m {
                    // The join did not reach the table in time (its node is busy or another
                    // node's): asked again after a while, as a page does.
                    ServerMsg::Error(e) if !entered && e.code == ErrorCode::Unavailable && retries < ENTRY_RETRIES => {
                        retries += 1;
                        totals.retries.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_millis(250)).await;
                        if let Err(e) = sock.send_msg(&ClientMsg::Join { table: table.clone(), seat: Some(seat) }).await {
                            totals.error(format!("send: {e}"));
                            return Ended::Stopped;
                        }
                        None
                    }
                    // At an event's table a bot plays for a person until he comes: a move that
                    // crosses the bot's is refused, and the state asked for again.
                    ServerMsg::Error(e) if e.code == ErrorCode::Stale => {
                        totals.stale.fetch_add(1, Ordering::Relaxed);
                        pending = None;
                        if sock.send_msg(&ClientMsg::Table(TableMsg::Resync)).await.is_err() {
                            return Ended::Stopped;
                        }
                        None
                    }
                    ServerMsg::Error(_) => {
                        totals.error(m.text());
                        None
                    }
                    ServerMsg::Update(u) => Some((Some(u.event), u.move_no, u.legal, u.hand, u.view, u.match_)),
                    ServerMsg::Sync(s) => {
                        entered = true;
                        let s = *s;
                        Some((None, s.move_no, s.legal, s.hand, s.view, s.match_))
                    }
                    _ => None,
                };
                if let Some((event, mv, legal, hand, view, summary)) = now {
                    let over = matches!(&summary, Some(wire::MatchSummary::Madiao(m)) if m.over)
                        || matches!(&summary, Some(wire::MatchSummary::Dabaifen(m)) if m.over);
                    {
                        if let Some(TableEvent::Action { by_bot: false, .. }) = event
                            && let Some(n) = mv.checked_sub(1)
                        {
                            let mut p = probe.lock().unwrap_or_else(|e| e.into_inner());
                            if let Some(entry) = p.sent.get_mut(&(board, n)) {
                                entry.1 += 1;
                                if entry.1 == people {
                                    let (t0, _) = p.sent.remove(&(board, n)).unwrap_or((Instant::now(), 4));
                                    if measuring {
                                        let us = t0.elapsed().as_micros() as u64;
                                        if let Ok(mut l) = totals.latencies.lock() {
                                            l.push(us);
                                        }
                                        if at_event && let Ok(mut l) = totals.event_latencies.lock() {
                                            l.push(us);
                                        }
                                        totals.moves.fetch_add(1, Ordering::Relaxed);
                                    }
                                }
                            }
                        }
                        if let Some(TableEvent::HandStart { .. }) = event
                            && measuring
                            && view.as_ref().and_then(GameView::seat) == Seat::new(0)
                        {
                            totals.hands.fetch_add(1, Ordering::Relaxed);
                        }
                        if at_event && over {
                            sock.close().await;
                            return Ended::Over(Instant::now());
                        }
                        let hand = Some(u64::from(hand));
                        if let Some(a) = legal.as_ref().and_then(|l| random_act(l, rng)) {
                            let wait = think.0 + rng.below((think.1 - think.0 + 1) as u32) as u64;
                            pending = Some((Instant::now() + Duration::from_millis(wait), a, mv));
                        } else if requested_hand != hand {
                            // Requests during the draw and the windows, now and then.
                            let req = match &legal {
                                Some(Legal::Declare { cards, .. }) => (!cards.is_empty() && rng.chance(0.3))
                                    .then(|| ActAction::Dabaifen(dabaifen::Action::Declare(cards[rng.index(cards.len())]))),
                                Some(Legal::Annul { .. }) => {
                                    rng.chance(0.2).then_some(ActAction::Dabaifen(dabaifen::Action::Annul))
                                }
                                Some(Legal::Redeal { .. }) => {
                                    rng.chance(0.2).then_some(ActAction::Madiao(madiao::Action::Redeal(true)))
                                }
                                _ => None,
                            };
                            if let Some(action) = req {
                                requested_hand = hand;
                                let msg = ClientMsg::Table(TableMsg::Act { action, move_no: None, seat: None });
                                if sock.send_msg(&msg).await.is_err() {
                                    return Ended::Stopped;
                                }
                            }
                        }
                    }
                }
                totals.gaps.fetch_add(std::mem::take(&mut sock.gaps), Ordering::Relaxed);
            }
            _ = async { if let Some(t) = at { tokio::time::sleep_until(t).await } }, if at.is_some() => {
                if let Some((_, action, mv)) = pending.take() {
                    probe.lock().unwrap_or_else(|e| e.into_inner()).sent.insert((board, mv), (Instant::now(), 0));
                    let msg = ClientMsg::Table(TableMsg::Act { action, move_no: Some(mv), seat: None });
                    if let Err(e) = sock.send_msg(&msg).await {
                        totals.error(format!("send: {e}"));
                        return Ended::Stopped;
                    }
                }
            }
            _ = stop.changed() => {
                sock.close().await;
                return Ended::Stopped;
            }
        }
    }
}

/// An event of a run, as its people's clients share it.
struct EventRun {
    id: String,
    /// Its tables of people.
    groups: usize,
    /// For each board, when each table's match ended (as its first person read it). A board's
    /// row is kept once complete: a table's other people read the same end later, and a row
    /// made again for them would complete the board a second time.
    ends: Mutex<HashMap<u32, Vec<Option<Instant>>>>,
}

impl EventRun {
    /// Table `group` ended board `board` at `at`: the end of the board's last table, when this
    /// one completes the board (once per board, however many people each table has).
    fn ended(&self, board: u32, group: usize, at: Instant) -> Option<Instant> {
        let mut ends = self.ends.lock().unwrap_or_else(|e| e.into_inner());
        let row = ends.entry(board).or_insert_with(|| vec![None; self.groups]);
        if row[group].is_some() {
            return None;
        }
        row[group] = Some(at);
        row.iter().copied().collect::<Option<Vec<_>>>()?.into_iter().max()
    }
}

/// One person of an event: the event, the table (group), the seat and the guest.
struct EventSeat {
    event: Arc<EventRun>,
    group: usize,
    seat: u8,
    token: String,
}

/// Claims the hosts' accounts, creates the events of `ev` and enters their people (the events
/// begin as they fill); every person's seat.
async fn set_up_events(client: &Client, ev: &EventLoad, seed: u64) -> Result<Vec<EventSeat>, LoadError> {
    use crate::api::events::{EVENTS_PER_HOST, MAX_BOARDS, MAX_TABLES};
    let bad = |m: String| Err(LoadError::Options(m));
    if ev.per_event == 0 || ev.per_event > MAX_TABLES as usize || !ev.tables.is_multiple_of(ev.per_event) {
        return bad(format!(
            "the events' tables ({}) must be a multiple of the tables per event ({}, at most {MAX_TABLES})",
            ev.tables, ev.per_event
        ));
    }
    if !(1..=4).contains(&ev.people) {
        return bad(format!("people per event table must be 1 to 4, not {}", ev.people));
    }
    if !(1..=MAX_BOARDS).contains(&ev.boards) {
        return bad(format!("boards per event must be 1 to {MAX_BOARDS}, not {}", ev.boards));
    }
    let events = ev.tables / ev.per_event;
    let tag = (crate::ids::now_ms() / 1000) % 100_000_000;
    let mut hosts = Vec::new();
    for h in 0..events.div_ceil(EVENTS_PER_HOST) {
        let g = client.guest(&format!("load host {h}")).await?;
        let s =
            client.claim_account(&g.token, &format!("lh{tag}x{h}"), &format!("load-{seed}-{tag}")).await?;
        hosts.push(s.token);
    }
    let people = ev.per_event * usize::from(ev.people);
    let made: Vec<Result<Vec<EventSeat>, ClientError>> = futures_util::stream::iter(0..events)
        .map(|e| {
            let host = hosts[e / EVENTS_PER_HOST].clone();
            let client = client.clone();
            async move {
                let body = serde_json::json!({
                    "name": format!("load event {e}"),
                    "game": "madiao",
                    "boards": ev.boards,
                    "tables": ev.per_event,
                    "people_per_table": ev.people,
                    "turn_seconds": 60,
                });
                let (status, v) = client.post("/api/events", &body, Some(&host)).await?;
                let Some(id) = v["id"].as_str().filter(|_| status == 201).map(str::to_string) else {
                    return Err(ClientError::Unexpected(format!("creating an event: {status} {v}")));
                };
                let run = Arc::new(EventRun { id: id.clone(), groups: ev.per_event, ends: Mutex::default() });
                let mut seats = Vec::with_capacity(people);
                for i in 0..people {
                    let g = client.guest(&format!("ev {e}.{i}")).await?;
                    let (status, v) =
                        client.post(&format!("/api/events/{id}/enter"), &Value::Null, Some(&g.token)).await?;
                    if status != 200 {
                        return Err(ClientError::Unexpected(format!("entering event {id}: {status} {v}")));
                    }
                    let per = usize::from(ev.people);
                    seats.push(EventSeat {
                        event: run.clone(),
                        group: i / per,
                        seat: (i % per) as u8,
                        token: g.token,
                    });
                }
                Ok(seats)
            }
        })
        .buffer_unordered(8)
        .collect()
        .await;
    let mut seats = Vec::new();
    for m in made {
        seats.extend(m?);
    }
    Ok(seats)
}

/// Waits `d`, or less when told to stop; true when told to stop.
async fn pause(stop: &mut watch::Receiver<bool>, d: Duration) -> bool {
    tokio::select! {
        _ = tokio::time::sleep(d) => {}
        _ = stop.changed() => {}
    }
    *stop.borrow()
}

/// How often a person asks for his event's page while waiting for his next board's table, and
/// how often the page is asked for while waiting for a board's standings (milliseconds).
const EVENT_POLL_MS: u64 = 100;
const STANDINGS_POLL_MS: u64 = 20;
/// How long a board's standings may take before the board counts as missed.
const STANDINGS_LIMIT: Duration = Duration::from_secs(30);

/// A person of an event: plays its boards one after another, each on a new connection to the
/// board's table that the event's page names (`you.table_id`), until told to stop or the event
/// is over. The person who ends a board's last table then watches the event's page until the
/// board's traveller is complete.
#[allow(clippy::too_many_arguments)]
async fn play_event_seat(
    client: Client,
    me: EventSeat,
    people: u8,
    probe: Arc<Mutex<Probe>>,
    totals: Arc<Totals>,
    mut stop: watch::Receiver<bool>,
    mut rng: Rng,
    think: (u64, u64),
) {
    let id = me.event.id.clone();
    let mut board: u32 = 0;
    loop {
        let table = loop {
            if *stop.borrow() {
                return;
            }
            match client.get_authed(&me.token, &format!("/api/events/{id}")).await {
                Ok((200, e)) => {
                    if e["status"] == "finished" {
                        return;
                    }
                    let you = &e["you"];
                    if let (Some(b), Some(t)) = (you["board"].as_u64(), you["table_id"].as_str())
                        && b >= u64::from(board)
                    {
                        board = b as u32;
                        break t.to_string();
                    }
                }
                Ok((s, e)) => totals.error(format!("event {id}: {s} {e}")),
                Err(e) => totals.error(format!("event {id}: {e}")),
            }
            if pause(&mut stop, Duration::from_millis(EVENT_POLL_MS)).await {
                return;
            }
        };
        let mut sock = match client.connect_as(&me.token).await {
            Ok(s) => s,
            Err(e) => {
                totals.error(format!("connecting: {e}"));
                return;
            }
        };
        if let Err(e) = sock.send_msg(&ClientMsg::Join { table: table.clone(), seat: Some(me.seat) }).await {
            totals.error(format!("send: {e}"));
            return;
        }
        let place = Place { table, seat: me.seat, board, people, event: true };
        let at = match play(sock, place, probe.clone(), totals.clone(), stop.clone(), &mut rng, think).await {
            Ended::Stopped => return,
            Ended::Over(at) => at,
        };
        if let Some(last) = me.event.ended(board, me.group, at) {
            watch_standings(&client, &id, board, last, &totals, &mut stop).await;
        }
        board += 1;
    }
}

/// Asks for event `id`'s page until board `board`'s traveller is complete; records the time
/// from `last` (the end of the board's last table) when that end fell while measuring.
async fn watch_standings(
    client: &Client,
    id: &str,
    board: u32,
    last: Instant,
    totals: &Totals,
    stop: &mut watch::Receiver<bool>,
) {
    let measuring = *totals.measuring.borrow();
    loop {
        if let Ok((200, e)) = client.get(&format!("/api/events/{id}")).await {
            let done = e["travellers"].as_array().is_some_and(|ts| {
                ts.iter().any(|t| t["board"].as_u64() == Some(u64::from(board)) && t["complete"] == true)
            });
            if done {
                if measuring {
                    let us = last.elapsed().as_micros() as u64;
                    if let Ok(mut l) = totals.standings.lock() {
                        l.push(us);
                    }
                    totals.event_boards.fetch_add(1, Ordering::Relaxed);
                }
                return;
            }
        }
        if last.elapsed() > STANDINGS_LIMIT {
            if measuring {
                totals.standings_missed.fetch_add(1, Ordering::Relaxed);
            }
            return;
        }
        if pause(stop, Duration::from_millis(STANDINGS_POLL_MS)).await {
            return;
        }
    }
}

/// Runs a load test; `progress` is told what is happening.
pub async fn run(opts: &LoadOptions, progress: impl Fn(&str)) -> Result<LoadReport, LoadError> {
    check_loopback(&opts.addr).await?;
    for n in &opts.nodes {
        check_loopback(n).await?;
    }
    let client = Client::new(&opts.addr);
    let nodes: Vec<Client> =
        std::iter::once(client.clone()).chain(opts.nodes.iter().map(|a| Client::new(a))).collect();
    let analysable = if opts.analyses > 0 {
        progress(&format!("playing {ANALYSIS_GAMES} games of four bots for the analyses…"));
        analysis_games(&client).await?
    } else {
        Vec::new()
    };
    let before = client.stats().await?;
    let t0 = Instant::now();
    let (event_tables, event_seats) = match &opts.events {
        Some(ev) if ev.tables > 0 => {
            if ev.tables > opts.tables {
                return Err(LoadError::Options(format!(
                    "the events' tables ({}) are more than the tables ({})",
                    ev.tables, opts.tables
                )));
            }
            progress(&format!(
                "creating {} events of {} tables…",
                ev.tables / ev.per_event.max(1),
                ev.per_event
            ));
            (ev.tables, set_up_events(&client, ev, opts.seed).await?)
        }
        _ => (0, Vec::new()),
    };
    let plain = opts.tables - event_tables;
    progress(&format!("creating and seating {plain} tables…"));
    let games = |i: usize| match opts.game {
        Some(g) => g,
        None if i.is_multiple_of(2) => GameKind::Madiao,
        None => GameKind::Dabaifen,
    };
    let seated: Vec<Result<(String, Vec<Socket>), ClientError>> = futures_util::stream::iter(0..plain)
        .map(|i| {
            let owner = nodes[i % nodes.len()].clone();
            let via = nodes[(i + usize::from(opts.cross)) % nodes.len()].clone();
            async move { seat_table(&owner, &via, i, games(i)).await }
        })
        .buffer_unordered(32)
        .collect()
        .await;
    let mut tables = Vec::with_capacity(seated.len());
    for s in seated {
        tables.push(s?);
    }
    let setup_seconds = t0.elapsed().as_secs_f64();
    let (measure_tx, measure_rx) = watch::channel(false);
    let (stop_tx, stop_rx) = watch::channel(false);
    let totals = Arc::new(Totals {
        measuring: measure_rx,
        latencies: Mutex::new(Vec::new()),
        moves: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        gaps: AtomicU64::new(0),
        hands: AtomicU64::new(0),
        retries: AtomicU64::new(0),
        samples: Mutex::new(Vec::new()),
        event_latencies: Mutex::new(Vec::new()),
        standings: Mutex::new(Vec::new()),
        standings_missed: AtomicU64::new(0),
        event_boards: AtomicU64::new(0),
        stale: AtomicU64::new(0),
    });
    let mut seeds = Rng::from_seed(opts.seed);
    let mut tasks = Vec::new();
    let connections = tables.len() * 4 + event_seats.len();
    for (id, sockets) in tables {
        let probe = Arc::new(Mutex::new(Probe::default()));
        for (seat, sock) in sockets.into_iter().enumerate() {
            let place = Place { table: id.clone(), seat: seat as u8, board: 0, people: 4, event: false };
            let (probe, totals, stop, mut rng, think) =
                (probe.clone(), totals.clone(), stop_rx.clone(), seeds.fork(), opts.think_ms);
            tasks.push(tokio::spawn(async move {
                play(sock, place, probe, totals, stop, &mut rng, think).await;
            }));
        }
    }
    let events =
        event_seats.iter().map(|s| s.event.id.clone()).collect::<std::collections::HashSet<_>>().len();
    let people = opts.events.as_ref().map_or(4, |e| e.people);
    let mut probes: HashMap<(String, usize), Arc<Mutex<Probe>>> = HashMap::new();
    for me in event_seats {
        let probe = probes.entry((me.event.id.clone(), me.group)).or_default().clone();
        tasks.push(tokio::spawn(play_event_seat(
            client.clone(),
            me,
            people,
            probe,
            totals.clone(),
            stop_rx.clone(),
            seeds.fork(),
            opts.think_ms,
        )));
    }
    let feeder = (opts.analyses > 0).then(|| {
        tokio::spawn(feed_analyses(
            client.clone(),
            analysable,
            opts.analyses,
            totals.clone(),
            stop_rx.clone(),
        ))
    });
    progress(&format!("seated in {setup_seconds:.1} s; warming up for {:.0} s…", opts.warmup.as_secs_f64()));
    tokio::time::sleep(opts.warmup).await;
    let _ = measure_tx.send(true);
    progress(&format!("measuring for {:.0} s…", opts.duration.as_secs_f64()));
    let start = Instant::now();
    tokio::time::sleep(opts.duration).await;
    let _ = measure_tx.send(false);
    let seconds = start.elapsed().as_secs_f64();
    let during = client.stats().await.ok();
    let _ = stop_tx.send(true);
    for t in tasks {
        let _ = t.await;
    }
    let analyses_done = match feeder {
        Some(f) => f.await.unwrap_or(0),
        None => 0,
    };
    let mut latencies = std::mem::take(&mut *totals.latencies.lock().unwrap_or_else(|e| e.into_inner()));
    latencies.sort_unstable();
    let mut event_latencies =
        std::mem::take(&mut *totals.event_latencies.lock().unwrap_or_else(|e| e.into_inner()));
    event_latencies.sort_unstable();
    let mut standings = std::mem::take(&mut *totals.standings.lock().unwrap_or_else(|e| e.into_inner()));
    standings.sort_unstable();
    let error_samples = totals.samples.lock().map(|s| s.clone()).unwrap_or_default();
    Ok(LoadReport {
        tables: opts.tables,
        connections,
        seconds,
        moves: totals.moves.load(Ordering::Relaxed),
        latencies_us: latencies,
        errors: totals.errors.load(Ordering::Relaxed),
        error_samples,
        gaps: totals.gaps.load(Ordering::Relaxed),
        hands: totals.hands.load(Ordering::Relaxed),
        rss_before: before.rss_bytes,
        rss_during: during.and_then(|s| s.rss_bytes),
        setup_seconds,
        nodes: nodes.len(),
        cross: opts.cross && nodes.len() > 1,
        entry_retries: totals.retries.load(Ordering::Relaxed),
        analyses: opts.analyses,
        analyses_done,
        events,
        event_tables,
        event_latencies_us: event_latencies,
        standings_us: standings,
        standings_missed: totals.standings_missed.load(Ordering::Relaxed),
        event_boards: totals.event_boards.load(Ordering::Relaxed),
        stale: totals.stale.load(Ordering::Relaxed),
    })
}

/// Plays [`ANALYSIS_GAMES`] public Madiao games of four bots of [`ANALYSIS_HANDS`] hands each
/// and waits for their records: every (game, hand, seat) to analyse.
async fn analysis_games(client: &Client) -> Result<Vec<(String, usize, u8)>, LoadError> {
    let host = client.guest("load analyses").await?;
    let mut ids = Vec::new();
    for _ in 0..ANALYSIS_GAMES {
        let variants = cards::record::Variants(
            [("game_length".to_string(), format!("hands:{ANALYSIS_HANDS}"))].into_iter().collect(),
        );
        let body = NewTable {
            name: Some("load analyses".into()),
            variants,
            seats: Some(vec![SeatChoice::Bot { bot: Some("heuristic".into()) }; 4]),
            ..NewTable::new(GameKind::Madiao)
        };
        ids.push(client.create_table(&host.token, &body).await?.table.id);
    }
    let mut keys = Vec::new();
    let end = Instant::now() + Duration::from_secs(600);
    for id in ids {
        let hands = loop {
            let (status, record) = client.get(&format!("/api/records/{id}")).await?;
            if status == 200 {
                break record["hands"].as_array().map_or(0, Vec::len);
            }
            if Instant::now() > end {
                return Err(LoadError::Setup(ClientError::Unexpected(format!(
                    "the bots' game {id} did not end in 10 minutes: start the server with \
                     --bot-delay-ms 0 --trick-ms 0 --pause-ms 0"
                ))));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        for hand in 0..hands {
            for seat in 0..4 {
                keys.push((id.clone(), hand, seat));
            }
        }
    }
    Ok(keys)
}

/// Keeps `n` analyses of `keys` queued or running until told to stop; returns how many finished
/// while measuring. A guest asks for four at most (the server's allowance per guest).
async fn feed_analyses(
    client: Client,
    keys: Vec<(String, usize, u8)>,
    n: usize,
    totals: Arc<Totals>,
    stop: watch::Receiver<bool>,
) -> u64 {
    let mut next = keys.into_iter();
    let mut asked: Vec<(String, usize, u8)> = Vec::new();
    let mut done = 0;
    let mut guest: Option<(client::GuestToken, u32)> = None;
    let mut ran_out = false;
    while !*stop.borrow() {
        // Those finished.
        let mut still = Vec::with_capacity(asked.len());
        for (id, hand, seat) in asked {
            match client.get(&format!("/api/games/{id}/analysis?hand={hand}&seat={seat}")).await {
                Ok((200, r)) if r["status"] == "done" => {
                    if *totals.measuring.borrow() {
                        done += 1;
                    }
                }
                Ok((200, r)) if r["status"] == "failed" => totals.error(format!("analysis failed: {r}")),
                Ok((200, _)) => still.push((id, hand, seat)),
                Ok((s, r)) => totals.error(format!("analysis status {s}: {r}")),
                Err(e) => totals.error(format!("analysis status: {e}")),
            }
        }
        asked = still;
        // New ones, up to `n`.
        while asked.len() < n {
            let Some((id, hand, seat)) = next.next() else {
                if !ran_out {
                    ran_out = true;
                    totals.error("the analyses ran out of hands to analyse".into());
                }
                break;
            };
            let token = match &mut guest {
                Some((g, used)) if *used < 4 => {
                    *used += 1;
                    g.token.clone()
                }
                _ => match client.guest("load analyst").await {
                    Ok(g) => {
                        let token = g.token.clone();
                        guest = Some((g, 1));
                        token
                    }
                    Err(e) => {
                        totals.error(format!("analysis guest: {e}"));
                        break;
                    }
                },
            };
            let body = serde_json::json!({ "hand": hand, "seat": seat });
            match client.post(&format!("/api/games/{id}/analysis"), &body, Some(&token)).await {
                Ok((202, _)) => asked.push((id, hand, seat)),
                Ok((200, _)) => {}
                Ok((s, r)) => {
                    totals.error(format!("asking for an analysis: {s} {r}"));
                    break;
                }
                Err(e) => {
                    totals.error(format!("asking for an analysis: {e}"));
                    break;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    done
}

/// What `yezi loadtest --replay FILE` runs: a record posted to `POST /api/replay` by several
/// guests at once while `GET /api/stats` is asked again and again, then a few of its hands
/// fetched, measuring how long the statistics take to answer meanwhile and the server's peak
/// resident memory (`peak_rss_bytes`, the kernel's `VmHWM`).
#[derive(Clone, Debug)]
pub struct ReplayLoadOptions {
    /// The server, `host:port` on this machine.
    pub addr: String,
    /// The record's text.
    pub record: String,
    /// How many posts at once (each by a guest of its own).
    pub posts: usize,
    /// The pause between two requests for the statistics (milliseconds).
    pub poll_ms: u64,
    /// How many hands of the replay to fetch afterwards (evenly spread).
    pub hands: usize,
}

/// One post of [`ReplayLoadOptions`].
#[derive(Clone, Debug)]
pub struct PostOutcome {
    /// The HTTP status.
    pub status: u16,
    /// Seconds from sending to the whole answer.
    pub seconds: f64,
    /// The answer's size (bytes).
    pub bytes: usize,
    /// The hands the outline lists.
    pub hands: usize,
    /// The replay's id, when it was prepared.
    pub id: Option<String>,
}

/// What a replay run measured.
#[derive(Clone, Debug)]
pub struct ReplayLoadReport {
    /// The record's size (bytes).
    pub record_bytes: usize,
    /// Each post.
    pub posts: Vec<PostOutcome>,
    /// How long each `GET /api/stats` took while the posts ran (microseconds, sorted).
    pub stats_us: Vec<u64>,
    /// Requests for the statistics that failed.
    pub stats_errors: u64,
    /// The server's peak resident memory before the posts (bytes).
    pub peak_before: Option<u64>,
    /// The server's peak resident memory after the posts and the hands (bytes).
    pub peak_after: Option<u64>,
    /// The server's resident memory at the end (bytes).
    pub rss_after: Option<u64>,
    /// Hands fetched: (hand, status, bytes, milliseconds).
    pub hands: Vec<(usize, u16, usize, f64)>,
}

impl ReplayLoadReport {
    /// The time `GET /api/stats` took at quantile `q` (0–1), in milliseconds.
    pub fn stats_ms(&self, q: f64) -> f64 {
        if self.stats_us.is_empty() {
            return 0.0;
        }
        let i = ((self.stats_us.len() as f64 * q).ceil() as usize).clamp(1, self.stats_us.len()) - 1;
        self.stats_us[i] as f64 / 1000.0
    }

    /// True when every post and every hand was answered `200`, and every request for the
    /// statistics too.
    pub fn all_ok(&self) -> bool {
        self.posts.iter().all(|p| p.status == 200)
            && self.hands.iter().all(|h| h.1 == 200)
            && self.stats_errors == 0
    }
}

fn mib(b: Option<u64>) -> String {
    b.map_or("not reported".into(), |b| format!("{:.1} MiB", b as f64 / 1048576.0))
}

impl std::fmt::Display for ReplayLoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "record: {} bytes, posted {} times at once", self.record_bytes, self.posts.len())?;
        for (i, p) in self.posts.iter().enumerate() {
            writeln!(
                f,
                "  post {i}: HTTP {} in {:.2} s, {} bytes answered ({} hands outlined)",
                p.status, p.seconds, p.bytes, p.hands
            )?;
        }
        writeln!(
            f,
            "GET /api/stats while posting: {} answers, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {} failed",
            self.stats_us.len(),
            self.stats_ms(0.5),
            self.stats_ms(0.99),
            self.stats_ms(1.0),
            self.stats_errors
        )?;
        if !self.hands.is_empty() {
            let largest = self.hands.iter().map(|h| h.2).max().unwrap_or(0);
            let slowest = self.hands.iter().map(|h| h.3).fold(0.0, f64::max);
            let bad = self.hands.iter().filter(|h| h.1 != 200).count();
            writeln!(
                f,
                "hands fetched: {} (largest answer {} bytes, slowest {:.1} ms); {} failed",
                self.hands.len(),
                largest,
                slowest,
                bad
            )?;
        }
        writeln!(
            f,
            "server peak resident memory (VmHWM): {} before, {} after; resident now {}",
            mib(self.peak_before),
            mib(self.peak_after),
            mib(self.rss_after)
        )
    }
}

/// Posts a record several times at once to a running server while polling its statistics,
/// then fetches a few hands of the replay (see [`ReplayLoadOptions`]).
pub async fn run_replay(opts: &ReplayLoadOptions) -> Result<ReplayLoadReport, LoadError> {
    check_loopback(&opts.addr).await?;
    let client = Client::new(&opts.addr);
    let before = client.stats().await.map_err(LoadError::Replay)?;
    let mut guests = Vec::new();
    for i in 0..opts.posts.max(1) {
        guests.push(client.guest(&format!("Replayer {i}")).await.map_err(LoadError::Replay)?);
    }
    let record = hyper::body::Bytes::from(opts.record.clone());
    let posts: Vec<_> = guests
        .into_iter()
        .map(|g| {
            let (client, record) = (client.clone(), record.clone());
            tokio::spawn(async move {
                let t = Instant::now();
                let r = client.post_text("/api/replay", "application/json", record, Some(&g.token)).await;
                (r, t.elapsed().as_secs_f64())
            })
        })
        .collect();
    let mut stats_us = Vec::new();
    let mut stats_errors = 0;
    while !posts.iter().all(|p| p.is_finished()) {
        let t = Instant::now();
        match client.get("/api/stats").await {
            Ok((200, _)) => stats_us.push(t.elapsed().as_micros() as u64),
            _ => stats_errors += 1,
        }
        tokio::time::sleep(Duration::from_millis(opts.poll_ms)).await;
    }
    stats_us.sort_unstable();
    let mut outcomes = Vec::new();
    for p in posts {
        let (r, seconds) = p.await.map_err(|e| LoadError::Replay(ClientError::Http(e.to_string())))?;
        let (status, text) = r.map_err(LoadError::Replay)?;
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        outcomes.push(PostOutcome {
            status,
            seconds,
            bytes: text.len(),
            hands: v["hands"].as_array().map_or(0, |h| h.len()),
            id: v["id"].as_str().map(str::to_string),
        });
    }
    let mut hands = Vec::new();
    if let Some(p) = outcomes.iter().find(|p| p.id.is_some() && p.hands > 0) {
        let id = p.id.clone().unwrap_or_default();
        let n = opts.hands.min(p.hands);
        for i in 0..n {
            let k = if n > 1 { i * (p.hands - 1) / (n - 1) } else { 0 };
            let t = Instant::now();
            let (status, text) =
                client.get_text(&format!("/api/replays/{id}?hand={k}")).await.map_err(LoadError::Replay)?;
            hands.push((k, status, text.len(), t.elapsed().as_secs_f64() * 1000.0));
        }
    }
    let after = client.stats().await.map_err(LoadError::Replay)?;
    Ok(ReplayLoadReport {
        record_bytes: opts.record.len(),
        posts: outcomes,
        stats_us,
        stats_errors,
        peak_before: before.peak_rss_bytes,
        peak_after: after.peak_rss_bytes,
        rss_after: after.rss_bytes,
        hands,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board is complete once, when the last of its tables has ended, however many of each
    /// table's people report the end (two people a table: each table's end is read twice).
    #[test]
    fn a_board_of_tables_of_two_people_is_complete_once() {
        let run = EventRun { id: "e".into(), groups: 2, ends: Mutex::default() };
        let t0 = Instant::now();
        let (t1, t2, t3) =
            (t0 + Duration::from_millis(1), t0 + Duration::from_millis(2), t0 + Duration::from_millis(3));
        assert_eq!(run.ended(0, 0, t0), None, "one table of two ended");
        assert_eq!(run.ended(0, 1, t2), Some(t2), "the last table ended: the board is complete");
        // Each table's second person reads its end after the board was complete.
        assert_eq!(run.ended(0, 0, t1), None, "table 0's second person");
        assert_eq!(run.ended(0, 1, t3), None, "table 1's second person: not complete again");
        // The next board is counted on its own.
        assert_eq!(run.ended(1, 1, t1), None);
        assert_eq!(run.ended(1, 0, t3), Some(t3));
    }
}
