//! Analyses of finished hands as background jobs (`docs/analysis.md`, `docs/protocol.md`): a
//! person asks for the analysis of one seat's decisions in one hand of a finished game
//! (`POST /api/games/{id}/analysis`), the job waits in a bounded queue for one of
//! `--analysis-workers` dedicated threads (never the async workers that run the tables, and at a
//! lowered priority where the system allows it), its progress is kept in memory while it runs,
//! and its result is stored with the game ([`crate::store::AnalysisStore::put_analysis`]) and served from
//! the store from then on (`GET /api/games/{id}/analysis?hand=K&seat=S`), also after a restart.
//!
//! The queue is served in turns between the addresses that asked, and between the guests of one
//! address ([`crate::pool::FairQueue`]); one address holds at most
//! [`AnalysisLimits::per_address`] of its places, so it cannot keep the queue full for others.
//! `GET` is rate-limited per address ([`AnalysisLimits::polls_per_second`]) and answers from
//! what is kept: a job's state in memory, the stored analysis, or, for a game whose hands it
//! must check, the hands' outline ([`HandsOutline`]) read once from the record off the async
//! workers and kept; a `GET` never reads and parses a record on the async workers.
//!
//! The same hand, seat, seed and budget give the same analysis, so asking for one that is
//! queued or running joins that job, and asking for one already stored gives it at once. Only the
//! hands of finished games are analysed (a table's record exists only once its match is over, so
//! a live rated match's hand is never analysed while it could help a player), and only those the
//! requester may see: a public game's, or a private game's if the requester hosted it or held a
//! seat.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Instant;

use ai::record::AnyRecord;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use cards::Seat;
use serde_json::Value;
use wire::ApiCode;

pub use wire::analysis::*;

use crate::App;
use crate::api::error::{ApiError, ApiResult, bearer, ok_json};
use crate::listen::Peer;
use crate::pool::FairQueue;
use crate::store::{AnalysisKey, Store, TableRow, TableStatus};

/// The nice value of the analysis threads: the lowest priority.
pub const NICE: i32 = 19;

/// How the server runs analyses.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AnalysisLimits {
    /// Threads given to analyses, each running one job at a time (0: analyses are off).
    pub workers: usize,
    /// Jobs that may wait for a thread; beyond, a request is refused `503 busy`.
    pub queue: usize,
    /// The bot's thinking per decision, in nominal milliseconds.
    pub think_ms: u32,
    /// The seed of the bot's sampled worlds.
    pub seed: u64,
    /// Analyses one guest may ask for per minute on average…
    pub per_minute: f64,
    /// …and in a burst.
    pub burst: f64,
    /// Finished jobs whose outcome is kept in memory (the oldest go first; a done analysis is
    /// in the store anyway, a failed one is then asked for again).
    pub finished_kept: usize,
    /// The nice value of the analysis threads ([`NICE`], the lowest priority, unless a test
    /// must see analyses finish on a machine kept busy by other work).
    pub nice: i32,
    /// Places of the queue the guests of one address may hold at once.
    pub per_address: usize,
    /// `GET` requests one address may make per second on average…
    pub polls_per_second: f64,
    /// …and in a burst.
    pub poll_burst: f64,
}

impl Default for AnalysisLimits {
    fn default() -> Self {
        AnalysisLimits {
            workers: 1,
            queue: 16,
            think_ms: 100,
            seed: 1,
            per_minute: 10.0,
            burst: 5.0,
            finished_kept: 256,
            nice: NICE,
            per_address: 4,
            polls_per_second: 20.0,
            poll_burst: 100.0,
        }
    }
}

/// A job's state as kept in memory.
#[derive(Clone, Debug, PartialEq)]
enum JobState {
    Queued,
    Running { done: u32, total: u32 },
    Done { total: u32 },
    Failed(String),
}

struct Job {
    key: AnalysisKey,
    record: String,
}

/// Who asked for a job: the address (or `unknown`) and the guest; the queue's turns go by them.
type Asker = (String, String);

#[derive(Default)]
struct Jobs {
    /// Every job queued, running or lately finished, by key.
    states: HashMap<AnalysisKey, JobState>,
    /// The jobs waiting for a thread, in turns by address, then by guest.
    queue: FairQueue<String, String, Job>,
    /// Finished jobs, oldest first (what is evicted from `states`).
    finished: VecDeque<AnalysisKey>,
    /// Jobs running now.
    running: usize,
}

/// The analyses of a server: the queue, the jobs' progress, the guests' allowance.
pub struct Analyses {
    limits: AnalysisLimits,
    jobs: Mutex<Jobs>,
    wake: Condvar,
    buckets: Mutex<HashMap<String, crate::rate::RateBucket>>,
    /// `GET`'s allowance, by address.
    polls: Mutex<HashMap<IpAddr, crate::rate::RateBucket>>,
    started: std::sync::atomic::AtomicU64,
    /// The hands' outlines of finished games, read from their records (which do not change).
    outlines: Mutex<Outlines>,
    /// Records read for their outline since the start.
    outlines_read: std::sync::atomic::AtomicU64,
    /// Records being read for their outline at once (off the async workers).
    reading: tokio::sync::Semaphore,
}

/// What the analyses need to know of a finished game's record: for each hand, whether it was
/// played to its end.
pub type HandsOutline = Arc<Vec<bool>>;

/// The outlines kept, at most [`OUTLINES_KEPT`] (the oldest go first).
#[derive(Default)]
struct Outlines {
    by_game: HashMap<String, HandsOutline>,
    order: VecDeque<String>,
}

/// How many games' outlines are kept.
pub const OUTLINES_KEPT: usize = 1024;

/// Why a job was not queued.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// Analyses are off.
    Off,
    /// The queue is full.
    Full,
    /// The guests of the address hold their share of the queue.
    AddressFull,
}

impl Analyses {
    /// No threads yet: [`Analyses::start`] starts them.
    pub fn new(limits: AnalysisLimits) -> Analyses {
        Analyses {
            limits,
            jobs: Mutex::new(Jobs::default()),
            wake: Condvar::new(),
            buckets: Mutex::new(HashMap::new()),
            polls: Mutex::new(HashMap::new()),
            started: std::sync::atomic::AtomicU64::new(0),
            outlines: Mutex::new(Outlines::default()),
            outlines_read: std::sync::atomic::AtomicU64::new(0),
            reading: tokio::sync::Semaphore::new(1),
        }
    }

    /// Takes one `GET` from `ip`'s allowance, or says how many seconds to wait.
    pub fn allow_poll(&self, ip: IpAddr) -> Result<(), f64> {
        let mut b = self.polls.lock().unwrap_or_else(PoisonError::into_inner);
        if b.len() > 10_000 {
            b.retain(|_, x| !x.is_full());
        }
        let l = self.limits;
        let bucket =
            b.entry(ip).or_insert_with(|| crate::rate::RateBucket::new(l.polls_per_second, l.poll_burst));
        if bucket.take() { Ok(()) } else { Err(bucket.wait_seconds()) }
    }

    /// How many records were read for their hands' outline since the start (each game's once
    /// while its outline is kept).
    pub fn outlines_read(&self) -> u64 {
        self.outlines_read.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn outline(&self, game: &str) -> Option<HandsOutline> {
        self.outlines.lock().unwrap_or_else(PoisonError::into_inner).by_game.get(game).cloned()
    }

    fn keep_outline(&self, game: &str, outline: HandsOutline) {
        let mut o = self.outlines.lock().unwrap_or_else(PoisonError::into_inner);
        if o.by_game.insert(game.to_string(), outline).is_none() {
            o.order.push_back(game.to_string());
        }
        while o.order.len() > OUTLINES_KEPT {
            if let Some(old) = o.order.pop_front() {
                o.by_game.remove(&old);
            }
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &AnalysisLimits {
        &self.limits
    }

    /// Starts the worker threads of `app`'s analyses; `rt` runs the store's calls.
    pub fn start(app: &Arc<App>, rt: &tokio::runtime::Handle) -> std::io::Result<()> {
        for i in 0..app.analyses.limits.workers {
            let weak = Arc::downgrade(app);
            let rt = rt.clone();
            let nice = app.analyses.limits.nice;
            std::thread::Builder::new().name(format!("yezi-analysis-{i}")).spawn(move || {
                // The limits' priority for this thread, by default the lowest (Linux: the nice
                // value is per thread), so that the tables' threads come first; where the system
                // refuses, it runs as it is.
                let _ = rustix::process::setpriority_process(None, nice);
                worker(weak, rt)
            })?;
        }
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Jobs> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes one request from `guest`'s allowance, or says how many seconds to wait.
    pub fn allow(&self, guest: &str) -> Result<(), f64> {
        let mut b = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if b.len() > 10_000 {
            b.retain(|_, x| !x.is_full());
        }
        let l = self.limits;
        let bucket = b
            .entry(guest.to_string())
            .or_insert_with(|| crate::rate::RateBucket::new(l.per_minute / 60.0, l.burst));
        if bucket.take() { Ok(()) } else { Err(bucket.wait_seconds()) }
    }

    /// Queues a job asked for by `asker` (or joins the one queued or running under the same
    /// key); its state now.
    fn submit(
        &self,
        key: AnalysisKey,
        record: String,
        asker: Asker,
    ) -> Result<(JobState, Option<u32>), Refused> {
        if self.limits.workers == 0 {
            return Err(Refused::Off);
        }
        let mut jobs = self.lock();
        if let Some(s) = jobs.states.get(&key).cloned() {
            match s {
                JobState::Queued => {
                    let ahead = jobs.queue.position(|j| j.key == key).map(|p| p as u32);
                    return Ok((s, ahead));
                }
                JobState::Running { .. } => return Ok((s, None)),
                // Done (but not found in the store: it was removed) or failed: run it again.
                JobState::Done { .. } | JobState::Failed(_) => {
                    jobs.states.remove(&key);
                    jobs.finished.retain(|k| *k != key);
                }
            }
        }
        if jobs.queue.len() >= self.limits.queue {
            return Err(Refused::Full);
        }
        if jobs.queue.group_len(&asker.0) >= self.limits.per_address.max(1) {
            return Err(Refused::AddressFull);
        }
        jobs.states.insert(key.clone(), JobState::Queued);
        let wanted = key.clone();
        jobs.queue.push(asker.0, asker.1, Job { key, record });
        let ahead = jobs.queue.position(|j| j.key == wanted).map(|p| p as u32);
        drop(jobs);
        self.wake.notify_one();
        Ok((JobState::Queued, ahead))
    }

    /// The state of the job under `key`, if one is queued, running or lately finished.
    fn state(&self, key: &AnalysisKey) -> Option<(JobState, Option<u32>)> {
        let jobs = self.lock();
        let s = jobs.states.get(key)?.clone();
        let ahead = match s {
            JobState::Queued => jobs.queue.position(|j| j.key == *key).map(|p| p as u32),
            _ => None,
        };
        Some((s, ahead))
    }

    /// How many jobs the threads have begun since the server started.
    pub fn started(&self) -> u64 {
        self.started.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many jobs are queued and running (what `yezi loadtest --analyses` keeps up).
    pub fn pending(&self) -> (usize, usize) {
        let jobs = self.lock();
        (jobs.queue.len(), jobs.running)
    }

    fn set(&self, key: &AnalysisKey, state: JobState) {
        let mut jobs = self.lock();
        let finished = matches!(state, JobState::Done { .. } | JobState::Failed(_));
        if finished {
            jobs.running = jobs.running.saturating_sub(1);
            jobs.finished.push_back(key.clone());
            while jobs.finished.len() > self.limits.finished_kept {
                if let Some(old) = jobs.finished.pop_front() {
                    jobs.states.remove(&old);
                }
            }
        }
        jobs.states.insert(key.clone(), state);
    }
}

/// One worker thread: takes the next job, analyses it, stores the result; ends with the server.
fn worker(app: std::sync::Weak<App>, rt: tokio::runtime::Handle) {
    loop {
        let Some(a) = app.upgrade() else { return };
        let job = {
            let mut jobs = a.analyses.lock();
            loop {
                if let Some(j) = jobs.queue.pop() {
                    jobs.running += 1;
                    a.analyses.started.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    jobs.states.insert(j.key.clone(), JobState::Running { done: 0, total: 0 });
                    break Some(j);
                }
                let (j, timeout) = a
                    .analyses
                    .wake
                    .wait_timeout(jobs, std::time::Duration::from_secs(5))
                    .unwrap_or_else(PoisonError::into_inner);
                jobs = j;
                if timeout.timed_out() && jobs.queue.is_empty() {
                    break None;
                }
            }
        };
        // Between waits the server is not held, so that it can end.
        let Some(job) = job else {
            drop(a);
            continue;
        };
        let state = match run(&a, &job) {
            Ok((json, total)) => {
                let store: Arc<dyn Store> = a.store.clone();
                let key = job.key.clone();
                match rt.block_on(async move { store.put_analysis(&key, &json).await }) {
                    Ok(()) => JobState::Done { total },
                    Err(e) => JobState::Failed(format!("the analysis could not be stored: {e}")),
                }
            }
            Err(e) => JobState::Failed(e.to_string()),
        };
        a.analyses.set(&job.key, state);
    }
}

/// Why a job's analysis failed (its text is the job's failure, as the page shows it).
#[derive(Debug, thiserror::Error)]
enum RunError {
    /// The stored record is not a record.
    #[error("the stored record cannot be read: {0}")]
    Record(cards::record::RecordError),
    /// The job names no seat.
    #[error("no such seat")]
    Seat,
    /// The analyser refused the hand.
    #[error(transparent)]
    Analysis(#[from] ai::analysis::AnalysisError),
    /// The analysis could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// Analyses a job's hand: its JSON and its number of decisions.
fn run(app: &App, job: &Job) -> Result<(String, u32), RunError> {
    let rec = ai::record::parse(&job.record).map_err(RunError::Record)?;
    let seat = Seat::new(job.key.seat).ok_or(RunError::Seat)?;
    let opts = ai::analysis::Options {
        seat,
        hand: job.key.hand as usize,
        seed: job.key.seed,
        budget: ai::Budget { think_ms: job.key.think_ms },
    };
    let mut last = Instant::now();
    let mut progress = |p: ai::analysis::Progress| {
        // At most a few updates a second take the lock.
        if p.done == 0 || p.done == p.total || last.elapsed().as_millis() >= 100 {
            last = Instant::now();
            app.analyses.set(&job.key, JobState::Running { done: p.done as u32, total: p.total as u32 });
        }
    };
    let a = ai::analysis::analyse(&rec, &opts, &mut progress)?;
    let json = serde_json::to_string(&a)?;
    Ok((json, a.decisions.len() as u32))
}

/// The analyses' routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/games/{id}/analysis", get(status).post(ask))
        .route("/api/games/{id}/accuracy", get(accuracy))
}

fn store_error(e: crate::store::StoreError) -> ApiError {
    ApiError::internal(e.to_string())
}

fn no_game(id: &str) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoTable, format!("no finished game {id:?} you may see"))
}

/// True when `guest` holding `share` may see the game at `row`: it is public, the guest hosted it
/// or sat at it, or the share token is its own and its match is finished (as for replays:
/// [`crate::api::privacy::may_see`]).
fn may_see(row: &TableRow, guest: Option<&str>, share: Option<&str>) -> bool {
    crate::api::privacy::may_see(row, guest, share)
}

/// The row of the game `id`, if the requester may see it.
async fn visible_row(
    app: &App,
    id: &str,
    guest: Option<&str>,
    share: Option<&str>,
) -> Result<TableRow, ApiError> {
    let row = app.store.table(id).await.map_err(store_error)?.ok_or_else(|| no_game(id))?;
    if !may_see(&row, guest, share) {
        return Err(no_game(id));
    }
    Ok(row)
}

/// The record of the finished game at `row`, or why there is none.
async fn record_text(app: &App, row: &TableRow) -> Result<String, ApiError> {
    match app.store.record(&row.id).await.map_err(store_error)? {
        Some(text) => Ok(text),
        None if row.status == TableStatus::Closed => Err(ApiError::new(
            StatusCode::CONFLICT,
            ApiCode::Closed,
            "the host closed this table before its match ended: it has no record to analyse",
        )),
        None => Err(ApiError::new(
            StatusCode::CONFLICT,
            ApiCode::NotFinished,
            "the game at this table is not over: its hands can be analysed once it is",
        )),
    }
}

/// For each hand of a record, whether it was played to its end.
fn outline_from(text: &str) -> Result<Vec<bool>, cards::record::RecordError> {
    let rec = ai::record::parse(text)?;
    Ok(match &rec {
        AnyRecord::Madiao(r) => r.hands.iter().map(|h| h.result.is_some()).collect(),
        AnyRecord::Dabaifen(r) => r.hands.iter().map(|h| h.result.is_some()).collect(),
    })
}

/// The hands' outline of the finished game at `row`: kept, or read from its record (`text`, or
/// fetched) on a blocking thread, one record at a time, and kept.
async fn outline(app: &App, row: &TableRow, text: Option<&str>) -> Result<HandsOutline, ApiError> {
    if let Some(o) = app.analyses.outline(&row.id) {
        return Ok(o);
    }
    let text = match text {
        Some(t) => t.to_string(),
        None => record_text(app, row).await?,
    };
    let _turn = app
        .analyses
        .reading
        .acquire()
        .await
        .map_err(|_| ApiError::internal("the record readers are closed"))?;
    // Read by another request meanwhile.
    if let Some(o) = app.analyses.outline(&row.id) {
        return Ok(o);
    }
    let read = tokio::task::spawn_blocking(move || outline_from(&text))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .map_err(|e| ApiError::internal(format!("the stored record cannot be read: {e}")))?;
    app.analyses.outlines_read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let o: HandsOutline = Arc::new(read);
    app.analyses.keep_outline(&row.id, o.clone());
    Ok(o)
}

/// Checks that `hand` is a hand of the outline played to its end.
fn check_hand(outline: &HandsOutline, hand: u32) -> Result<(), ApiError> {
    let hands = outline.len();
    match outline.get(hand as usize) {
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            ApiCode::NoHand,
            format!("the game has {hands} hand(s), numbered from 0: there is no hand {hand}"),
        )),
        Some(false) => Err(ApiError::new(
            StatusCode::CONFLICT,
            ApiCode::NotFinished,
            format!(
                "hand {hand} was not played to its end (the match ended during it): it cannot be analysed"
            ),
        )),
        Some(true) => Ok(()),
    }
}

fn check_seat(seat: u8) -> Result<(), ApiError> {
    if seat > 3 {
        return Err(ApiError::bad(format!("seat: a seat is 0, 1, 2 or 3, not {seat}")));
    }
    Ok(())
}

/// The record of a finished game the requester may see, with the hand and seat checked.
async fn finished_hand(
    app: &App,
    id: &str,
    guest: Option<&str>,
    share: Option<&str>,
    hand: u32,
    seat: u8,
) -> Result<String, ApiError> {
    check_seat(seat)?;
    let row = visible_row(app, id, guest, share).await?;
    let text = record_text(app, &row).await?;
    check_hand(&outline(app, &row, Some(&text)).await?, hand)?;
    Ok(text)
}

fn key(app: &App, id: &str, hand: u32, seat: u8) -> AnalysisKey {
    let l = app.analyses.limits();
    AnalysisKey { table: id.to_string(), hand, seat, seed: l.seed, think_ms: l.think_ms }
}

fn reply(key: &AnalysisKey, state: JobState, ahead: Option<u32>, analysis: Option<Value>) -> AnalysisReply {
    let (status, done, total, error) = match state {
        JobState::Queued => (AnalysisStatus::Queued, 0, 0, None),
        JobState::Running { done, total } => (AnalysisStatus::Running, done, total, None),
        JobState::Done { total } => (AnalysisStatus::Done, total, total, None),
        JobState::Failed(e) => (AnalysisStatus::Failed, 0, 0, Some(e)),
    };
    AnalysisReply {
        game: key.table.clone(),
        hand: key.hand,
        seat: Seat::wrapping(usize::from(key.seat)),
        status,
        done,
        total,
        ahead,
        error,
        analysis,
    }
}

/// The stored analysis under `key` as a done reply.
async fn stored(app: &App, key: &AnalysisKey) -> Result<Option<AnalysisReply>, ApiError> {
    let Some(text) = app.store.analysis(key).await.map_err(store_error)? else { return Ok(None) };
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| ApiError::internal(format!("the stored analysis cannot be read: {e}")))?;
    let total = v.get("decisions").and_then(Value::as_array).map_or(0, |d| d.len() as u32);
    Ok(Some(reply(key, JobState::Done { total }, None, Some(v))))
}

fn off() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        ApiCode::AnalysisOff,
        "this server runs no analyses (it was started with --analysis-workers 0)",
    )
}

/// The refusal of a poll (an analysis's status, a match's accuracy) from an address past its share
/// of polls, with the seconds to wait; `None` when the poll may go on.
fn poll_refused(app: &App, peer: Option<IpAddr>) -> Option<Response> {
    let secs = app.analyses.allow_poll(peer?).err()?;
    let l = app.analyses.limits();
    let secs = secs.ceil().clamp(1.0, 3600.0) as u64;
    Some(with_retry(
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ApiCode::RateLimited,
            format!(
                "an address may follow analyses {} times a second ({} at once): try again in {secs} s",
                l.polls_per_second, l.poll_burst
            ),
        ),
        secs,
    ))
}

fn with_retry(e: ApiError, secs: u64) -> Response {
    let mut res = e.into_response();
    res.headers_mut().insert(header::RETRY_AFTER, secs.into());
    res
}

async fn ask(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Peer(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
    bytes: Bytes,
) -> ApiResult {
    let g = crate::api::accounts::identify(&app, bearer(&headers)?).await?.0;
    let req: AnalysisRequest = crate::api::error::body(&bytes)?;
    let share = q.get("share").map(String::as_str);
    let record = finished_hand(&app, &id, Some(&g.id), share, req.hand, req.seat).await?;
    let key = key(&app, &id, req.hand, req.seat);
    // An analysis stored already is given at once, and takes nothing from the allowance.
    if let Some(r) = stored(&app, &key).await? {
        return ok_json(StatusCode::OK, r);
    }
    if app.analyses.limits().workers == 0 {
        return Err(off());
    }
    if let Err(secs) = app.analyses.allow(&g.id) {
        let l = app.analyses.limits();
        let secs = secs.ceil().clamp(1.0, 86_400.0) as u64;
        return Ok(with_retry(
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                ApiCode::RateLimited,
                format!(
                    "a guest may ask for {} analyses a minute ({} at once): try again in {secs} s",
                    l.per_minute, l.burst
                ),
            ),
            secs,
        ));
    }
    let asker = (peer.map_or_else(|| "unknown".to_string(), |ip| ip.to_string()), g.id.clone());
    match app.analyses.submit(key.clone(), record, asker) {
        Ok((state, ahead)) => ok_json(StatusCode::ACCEPTED, reply(&key, state, ahead, None)),
        Err(Refused::Off) => Err(off()),
        Err(Refused::Full) => Ok(with_retry(
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ApiCode::Busy,
                format!(
                    "the server is analysing as many hands as it queues ({} waiting): try again in a minute",
                    app.analyses.limits().queue
                ),
            ),
            60,
        )),
        Err(Refused::AddressFull) => Ok(with_retry(
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                ApiCode::RateLimited,
                format!(
                    "the guests of your address have {} analyses waiting, as many as one address may: \
                     ask again when one has begun",
                    app.analyses.limits().per_address.max(1)
                ),
            ),
            10,
        )),
    }
}

async fn status(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Peer(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    if let Some(refused) = poll_refused(&app, peer) {
        return Ok(refused);
    }
    let number = |k: &str| -> Result<u32, ApiError> {
        crate::api::error::query_number(&q, k)?
            .ok_or_else(|| ApiError::bad(format!("{k}: a whole number is needed")))
    };
    let (hand, seat) = (number("hand")?, number("seat")?);
    let seat = u8::try_from(seat).unwrap_or(u8::MAX);
    // A token is needed only for a private game.
    let guest = match headers.get(header::AUTHORIZATION) {
        Some(_) => Some(crate::api::accounts::identify(&app, bearer(&headers)?).await?.0.id),
        None => None,
    };
    let share = q.get("share").map(String::as_str);
    let key = key(&app, &id, hand, seat);
    // A job queued or running was checked when it was asked for: who may see it is checked
    // again (the table's row), the record is not read and parsed again at every poll.
    if let Some((state, ahead)) = app.analyses.state(&key)
        && !matches!(state, JobState::Done { .. })
    {
        let row = app.store.table(&id).await.map_err(store_error)?.ok_or_else(|| no_game(&id))?;
        if !may_see(&row, guest.as_deref(), share) {
            return Err(no_game(&id));
        }
        return ok_json(StatusCode::OK, reply(&key, state, ahead, None));
    }
    // From what is kept: the stored analysis; else the hands' outline says what is wrong.
    check_seat(seat)?;
    let row = visible_row(&app, &id, guest.as_deref(), share).await?;
    if let Some(r) = stored(&app, &key).await? {
        return ok_json(StatusCode::OK, r);
    }
    check_hand(&outline(&app, &row, None).await?, hand)?;
    if app.analyses.limits().workers == 0 {
        return Err(off());
    }
    Err(ApiError::new(
        StatusCode::NOT_FOUND,
        ApiCode::NoAnalysis,
        format!("hand {hand} has not been analysed for seat {seat}: ask for it with POST"),
    ))
}

/// The costs of the searched decisions of a stored analysis's JSON (`docs/analysis.md`, "JSON").
fn searched_costs(analysis: &Value) -> Vec<f64> {
    analysis
        .get("decisions")
        .and_then(Value::as_array)
        .map(|ds| {
            ds.iter()
                .filter(|d| d["verdict"]["kind"] == "searched")
                .filter_map(|d| d["verdict"]["cost"].as_f64())
                .collect()
        })
        .unwrap_or_default()
}

/// The accuracy of `seat` over the finished match at `row` from the analyses of its hands stored
/// so far ([`ai::analysis::match_accuracy`]): every hand played to its end is listed, analysed
/// or not.
pub(crate) async fn match_accuracy(app: &App, row: &TableRow, seat: u8) -> Result<MatchAccuracy, ApiError> {
    check_seat(seat)?;
    let unit = match row.game.as_str() {
        "dabaifen" => ai::analysis::Unit::Levels,
        _ => ai::analysis::Unit::Stakes,
    };
    let outline = outline(app, row, None).await?;
    let mut hands = Vec::new();
    let mut costs = Vec::new();
    for (i, finished) in outline.iter().enumerate() {
        if !finished {
            continue;
        }
        let hand = u32::try_from(i).unwrap_or(u32::MAX);
        let stored = app.store.analysis(&key(app, &row.id, hand, seat)).await.map_err(store_error)?;
        let Some(text) = stored else {
            hands.push(HandAccuracy { hand, analysed: false, moves: 0, accuracy: None });
            continue;
        };
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| ApiError::internal(format!("the stored analysis cannot be read: {e}")))?;
        let c = searched_costs(&v);
        hands.push(HandAccuracy {
            hand,
            analysed: true,
            moves: u32::try_from(c.len()).unwrap_or(u32::MAX),
            accuracy: v["summary"]["accuracy"].as_f64(),
        });
        costs.push(c);
    }
    let moves = costs.iter().map(Vec::len).sum::<usize>();
    Ok(MatchAccuracy {
        game: row.id.clone(),
        seat,
        analysed: u32::try_from(costs.len()).unwrap_or(u32::MAX),
        moves: u32::try_from(moves).unwrap_or(u32::MAX),
        accuracy: ai::analysis::match_accuracy(&costs, unit),
        hands,
    })
}

/// `GET /api/games/{id}/accuracy?seat=S`: the seat's accuracy over the finished match from the
/// analyses of its hands made so far (a token is needed only for a private game).
async fn accuracy(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Peer(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    if let Some(refused) = poll_refused(&app, peer) {
        return Ok(refused);
    }
    let seat = crate::api::error::query_number(&q, "seat")?
        .ok_or_else(|| ApiError::bad("seat: a whole number is needed"))?;
    let seat = u8::try_from(seat).unwrap_or(u8::MAX);
    check_seat(seat)?;
    let guest = match headers.get(header::AUTHORIZATION) {
        Some(_) => Some(crate::api::accounts::identify(&app, bearer(&headers)?).await?.0.id),
        None => None,
    };
    let row = visible_row(&app, &id, guest.as_deref(), q.get("share").map(String::as_str)).await?;
    ok_json(StatusCode::OK, match_accuracy(&app, &row, seat).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(table: &str, seat: u8) -> AnalysisKey {
        AnalysisKey { table: table.into(), hand: 0, seat, seed: 1, think_ms: 10 }
    }

    fn asker(ip: &str, guest: &str) -> Asker {
        (ip.to_string(), guest.to_string())
    }

    /// One address cannot fill the queue: past its share it is refused, another address still
    /// gets a place, and its job is taken before the first address's later ones. (A plain
    /// first-in-first-out queue took all sixteen from the first address and put the other
    /// address's job last, or refused it.)
    #[test]
    fn the_queue_is_shared_fairly_between_addresses() {
        let limits = AnalysisLimits { workers: 1, queue: 16, per_address: 4, ..AnalysisLimits::default() };
        let a = Analyses::new(limits);
        let mut refused = None;
        for i in 0..10u8 {
            // Ten guests of one address, one job each.
            match a.submit(key(&format!("t{i}"), 0), String::new(), asker("10.0.0.1", &format!("g{i}"))) {
                Ok(_) => {}
                Err(e) => {
                    refused = Some((i, e));
                    break;
                }
            }
        }
        assert_eq!(refused, Some((4, Refused::AddressFull)), "the address's share is 4 places");
        let (state, ahead) = a.submit(key("other", 1), String::new(), asker("10.0.0.2", "h")).unwrap();
        assert_eq!((state, ahead), (JobState::Queued, Some(1)), "one job of the first address before it");
        assert_eq!(a.state(&key("other", 1)).map(|s| s.1), Some(Some(1)));
        let mut jobs = a.lock();
        let order: Vec<String> = std::iter::from_fn(|| jobs.queue.pop()).map(|j| j.key.table).collect();
        assert_eq!(order, ["t0", "other", "t1", "t2", "t3"]);
    }
}
