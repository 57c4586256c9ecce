//! Guests, the lobby, creating tables, a table's summary, the record of a finished game, its
//! replay hand by hand ([`crate::replay`]), the games' options and the server's statistics
//! (see `docs/protocol.md`).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use cards::record::GameKind;
use serde_json::Value;

use crate::App;
use crate::api::error::{ApiError, ApiResult, bearer, body, check_name, ok_json, query_number};
use crate::api::privacy;
use crate::ids;
use crate::ids::now_ms;
use crate::listen::Peer;
use crate::replay;
use crate::store::{GuestRow, SeatRow, TableStatus};
use crate::tables::{self, CreateError};
use table::settings::{GRACE_MAX, TableSettings};
use table::text::TextKind;
use wire::{
    ApiCode, ExternalBotCounts, GameInfo, GamesReply, GuestInfo, LobbyReply, NewGuest, NewGuestReply,
    NewTable, NewTableReply, Refusal, ReplayQuery, SeatChoice, ShareQuery, StatsReply, TableStub,
};

/// The API's routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/guests", post(create_guest))
        .route("/api/me", get(me))
        .route("/api/games", get(games))
        .route("/api/tables", get(lobby).post(create_table))
        .route("/api/tables/{id}", get(table_info))
        .route("/api/records/{id}", get(record_of))
        .route("/api/stats", get(stats))
        .route("/api/replays/{id}", get(replay_of))
        .route("/api/tutorial/{game}", get(tutorial))
        .layer(DefaultBodyLimit::max(16 * 1024))
        // Its body is read by the handler, after the checks, up to `replay::MAX_RECORD_BYTES`.
        .route("/api/replay", post(replay_posted))
}

/// The guest a request's `Authorization: Bearer TOKEN` header names (a guest's token, or a
/// session of its account: see [`crate::api::accounts::identify`]).
async fn guest(app: &App, headers: &HeaderMap) -> Result<GuestRow, ApiError> {
    Ok(crate::api::accounts::identify(app, bearer(headers)?).await?.0)
}

/// Takes one guest creation from `ip`'s allowance (`guests_burst` at once, then one every
/// `guest_every_seconds`), or says how long to wait.
fn guest_allowance(app: &App, ip: std::net::IpAddr) -> Result<(), ApiError> {
    let l = app.limits;
    let Ok(mut buckets) = app.guest_buckets.lock() else { return Ok(()) };
    if buckets.len() > 10_000 {
        // Forget the addresses whose allowance is whole again.
        buckets.retain(|_, b| !b.is_full());
    }
    let b = buckets.entry(ip).or_insert_with(|| {
        crate::rate::RateBucket::new(1.0 / l.guest_every_seconds.max(0.001), l.guests_burst)
    });
    if b.take() {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        ApiCode::RateLimited,
        format!(
            "too many guests created from this address (at most {} at once, then one every {} s): try again in {:.0} s",
            l.guests_burst,
            l.guest_every_seconds,
            b.wait_seconds().ceil()
        ),
    ))
}

async fn create_guest(State(app): State<Arc<App>>, Peer(peer): Peer, bytes: Bytes) -> ApiResult {
    let req: NewGuest = body(&bytes)?;
    let name = check_name(TextKind::PersonName, &req.name, 24)?;
    if let Some(ip) = peer {
        guest_allowance(&app, ip)?;
    }
    crate::api::moderation::refuse_banned(&app, None, peer).await?;
    let token = ids::new_token().map_err(|e| ApiError::internal(e.to_string()))?;
    let id = ids::new_id("g").map_err(|e| ApiError::internal(e.to_string()))?;
    let row = GuestRow {
        id: id.clone(),
        name: name.clone(),
        token_hash: ids::hash_token(&token),
        created_ms: now_ms(),
    };
    app.store.create_guest(&row).await.map_err(|e| ApiError::internal(e.to_string()))?;
    ok_json(StatusCode::CREATED, NewGuestReply { id, name, token })
}

async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let g = guest(&app, &headers).await?;
    ok_json(StatusCode::OK, GuestInfo { id: g.id, name: g.name })
}

/// `GET /api/tutorial/{game}`: the game's tutorial (its scripted first hand replayed into steps,
/// seat 0's views and lessons; `table::tutorial`). The same for everyone: made once, then kept.
async fn tutorial(Path(game): Path<String>) -> Result<Response, ApiError> {
    use std::sync::OnceLock;
    /// Why the tutorial cannot be given (kept with the answer: it would fail the same again).
    #[derive(Debug, thiserror::Error)]
    enum TutorialFailure {
        #[error(transparent)]
        Tutorial(#[from] table::tutorial::TutorialError),
        #[error(transparent)]
        Json(#[from] serde_json::Error),
    }
    static MADIAO: OnceLock<Result<String, TutorialFailure>> = OnceLock::new();
    static DABAIFEN: OnceLock<Result<String, TutorialFailure>> = OnceLock::new();
    let (kind, cell) = match game.as_str() {
        "madiao" => (GameKind::Madiao, &MADIAO),
        "dabaifen" => (GameKind::Dabaifen, &DABAIFEN),
        other => {
            let shown: String = other.chars().take(40).collect();
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                ApiCode::BadRequest,
                format!("no game {shown:?}: the games are madiao and dabaifen"),
            ));
        }
    };
    let json = cell.get_or_init(|| Ok(serde_json::to_string(&table::tutorial::tutorial(kind)?)?));
    match json {
        Ok(j) => Ok(([(axum::http::header::CONTENT_TYPE, "application/json")], j.clone()).into_response()),
        Err(e) => Err(ApiError::internal(e.to_string())),
    }
}

async fn games() -> ApiResult {
    let madiao_presets: serde_json::Map<String, Value> = ::madiao::variants::PRESETS
        .iter()
        .filter_map(|p| {
            let v = ::madiao::Variants::preset(p).ok()?;
            let map = v.entries().map(|(k, v)| (k.to_string(), Value::String(v))).collect();
            Some((p.to_string(), Value::Object(map)))
        })
        .collect();
    let dabaifen_presets: serde_json::Map<String, Value> = ::dabaifen::Variants::PRESETS
        .iter()
        .filter_map(|p| {
            let v = ::dabaifen::Variants::preset(p).ok()?;
            let map =
                v.entries().iter().map(|(k, v)| (k.to_string(), Value::String(v.to_string()))).collect();
            Some((p.to_string(), Value::Object(map)))
        })
        .collect();
    let game = |kind: GameKind, presets: serde_json::Map<String, Value>| GameInfo {
        game: kind,
        presets,
        bots: table::bots::bot_names(kind).iter().map(|b| b.to_string()).collect(),
        default_bot: table::bots::default_bot_of(kind).to_string(),
        research_bots: table::bots::research_bots(kind).iter().map(|b| b.to_string()).collect(),
    };
    ok_json(
        StatusCode::OK,
        GamesReply {
            games: vec![game(GameKind::Madiao, madiao_presets), game(GameKind::Dabaifen, dabaifen_presets)],
        },
    )
}

/// The lobby's page size when none is asked for.
pub const LOBBY_PAGE: u32 = 50;

async fn lobby(
    State(app): State<Arc<App>>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> ApiResult {
    let offset = query_number(&q, "offset")?.unwrap_or(0);
    let limit = query_number(&q, "limit")?.unwrap_or(LOBBY_PAGE);
    if !(1..=wire::LOBBY_PAGE_MAX).contains(&limit) {
        return Err(ApiError::bad(format!("limit must be 1 to {}, not {limit}", wire::LOBBY_PAGE_MAX)));
    }
    // This node's tables, and those of the other nodes as they last stored them.
    let mut list: Vec<wire::TableSummary> = crate::tables::all_summaries(&app.tables)
        .await
        .into_iter()
        .filter(|s| !s.private && !s.status.is_over())
        .collect();
    list.sort_by(|a, b| {
        b.open_seats.cmp(&a.open_seats).then(a.created_ms.cmp(&b.created_ms)).then(a.id.cmp(&b.id))
    });
    let total = u32::try_from(list.len()).unwrap_or(u32::MAX);
    let end = offset.saturating_add(limit).min(total);
    let tables: Vec<_> = list.into_iter().skip(offset as usize).take(limit as usize).collect();
    let next = (end < total).then_some(end);
    ok_json(StatusCode::OK, LobbyReply { tables, total, offset, limit, next })
}

/// The most hands a table's `game_length: hands:N` may ask for (records and `yezi sim` may hold
/// longer matches; a table is played by people).
pub const MAX_TABLE_HANDS: u32 = 1000;

/// Refuses a table longer than [`MAX_TABLE_HANDS`] hands.
fn check_length(variants: &serde_json::Map<String, Value>) -> Result<(), ApiError> {
    let hands = variants
        .get("game_length")
        .and_then(Value::as_str)
        .and_then(|v| v.strip_prefix("hands:"))
        .and_then(|n| n.parse::<u64>().ok());
    match hands {
        Some(n) if n > u64::from(MAX_TABLE_HANDS) => Err(ApiError::bad(format!(
            "variants.game_length: a table plays at most hands:{MAX_TABLE_HANDS}, not hands:{n}"
        ))),
        _ => Ok(()),
    }
}

/// The fewest hands a rated Madiao match may be set to (`game_length: hands:N`): every seat
/// banks once, as in the standard `each_banker_once`. Shorter matches are mostly luck and made
/// ratings cheap to farm (`docs/ratings.md`, "Rated tables"). Da Bai Fen's matches always run to
/// a side reaching A.
pub const MIN_RATED_HANDS: u32 = 4;

/// Refuses a rated table shorter than [`MIN_RATED_HANDS`] hands.
fn check_rated_length(game: GameKind, variants: &serde_json::Map<String, Value>) -> Result<(), ApiError> {
    if game != GameKind::Madiao {
        return Ok(());
    }
    let hands = variants
        .get("game_length")
        .and_then(Value::as_str)
        .and_then(|v| v.strip_prefix("hands:"))
        .and_then(|n| n.parse::<u64>().ok());
    match hands {
        Some(n) if n < u64::from(MIN_RATED_HANDS) => Err(ApiError::bad(format!(
            "variants.game_length: a rated table plays at least hands:{MIN_RATED_HANDS} (or \
             each_banker_once), not hands:{n}"
        ))),
        _ => Ok(()),
    }
}

async fn create_table(
    State(app): State<Arc<App>>,
    Peer(peer): Peer,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    let host = guest(&app, &headers).await?;
    let req: NewTable = body(&bytes)?;
    if req.rated {
        crate::api::ratings::check_rated(&app, &host.id, req.seats.as_deref()).await?;
    }
    let name = match &req.name {
        Some(n) => check_name(TextKind::TableName, n, 60)?,
        None => format!("{}'s table", host.name),
    };
    if !(5..=3600).contains(&req.turn_seconds) {
        return Err(ApiError::bad(format!("turn_seconds must be 5 to 3600, not {}", req.turn_seconds)));
    }
    if req.grace_seconds > GRACE_MAX {
        return Err(ApiError::bad(format!(
            "grace_seconds must be 0 to {GRACE_MAX}, not {}",
            req.grace_seconds
        )));
    }
    let bank_seconds = req.bank();
    if bank_seconds > table::settings::BANK_MAX {
        return Err(ApiError::bad(format!(
            "bank_seconds must be 0 to {}, not {bank_seconds}",
            table::settings::BANK_MAX
        )));
    }
    let untimed = req.untimed();
    let settings = TableSettings {
        name,
        game: req.game,
        rules: req.rules,
        variants: req.variants,
        stake: req.stake,
        stake_max: req.stake_max.filter(|_| req.game == GameKind::Madiao),
        turn_seconds: req.turn_seconds,
        private: req.private,
        pace: req.pace,
        grace_seconds: req.grace_seconds,
        untimed,
        bank_seconds,
        zero_cash: req.zero_cash,
        rated: req.rated,
        board: None,
        no_aids: false,
    };
    let variants = tables::check_settings(&settings).map_err(|e| ApiError::from(Refusal::from(e)))?;
    check_length(&variants)?;
    if req.rated {
        check_rated_length(req.game, &variants)?;
    }
    let choices = req.seats.unwrap_or_else(|| {
        vec![
            SeatChoice::Me,
            SeatChoice::Bot { bot: None },
            SeatChoice::Bot { bot: None },
            SeatChoice::Bot { bot: None },
        ]
    });
    if choices.len() != 4 {
        return Err(ApiError::bad(format!("seats: a table has 4 seats, not {}", choices.len())));
    }
    let bots = table::bots::bot_names(req.game);
    let mut seats = Vec::with_capacity(4);
    let mut me = 0;
    for (i, c) in choices.into_iter().enumerate() {
        seats.push(match c {
            SeatChoice::Me => {
                me += 1;
                SeatRow::Person { guest: host.id.clone(), name: host.name.clone() }
            }
            SeatChoice::Open => SeatRow::Open,
            SeatChoice::Bot { bot } => {
                let b = bot.unwrap_or_else(|| table::bots::default_bot_of(req.game).to_string());
                if !bots.contains(&b.as_str()) {
                    return Err(ApiError::bad(format!(
                        "seats[{i}]: unknown bot {b:?}; the bots are {}",
                        bots.join(", ")
                    )));
                }
                SeatRow::Bot(b)
            }
        });
    }
    if me > 1 {
        return Err(ApiError::bad("seats: the creator can take one seat"));
    }
    let seats: [SeatRow; 4] = seats.try_into().map_err(|_| ApiError::bad("seats: a table has 4 seats"))?;
    let all_taken = seats.iter().all(|s| *s != SeatRow::Open);
    // The creator's lease is taken with the table.
    let (id, handle) = app.tables.create(&settings, &host.id, seats, peer).await.map_err(|e| match e {
        CreateError::TooMany { .. } | CreateError::TooManyBotTables(_) => {
            ApiError::new(StatusCode::TOO_MANY_REQUESTS, ApiCode::TooManyTables, e.to_string())
        }
        CreateError::Internal(why) => ApiError::internal(why),
    })?;
    if all_taken {
        // Every seat is taken (bots, or the creator): the match begins when the creator starts
        // it or, with no person seated, at once.
        if me == 0 {
            let _ = handle.send(tables::Cmd::Request(table::machine::Request::AutoStart)).await;
        }
    }
    let summary =
        handle.summary.read().map(|s| s.clone()).map_err(|_| ApiError::internal("table summary"))?;
    // From the configured public URL, never from the request's `Host` header (which anyone can
    // set, and a link is passed on to others).
    let base = app.site().map_or_else(|| "http://localhost".to_string(), |s| s.public_url.clone());
    let invite = format!("{base}/t/{id}");
    ok_json(StatusCode::CREATED, NewTableReply { table: summary, invite })
}

async fn table_info(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult {
    if let Some(h) = app.table(&id) {
        let s = h.summary.read().map(|s| s.clone()).map_err(|_| ApiError::internal("table summary"))?;
        return ok_json(StatusCode::OK, s);
    }
    match app.store.table(&id).await.map_err(|e| ApiError::internal(e.to_string()))? {
        Some(row) => ok_json(
            StatusCode::OK,
            TableStub { id: row.id, game: row.game, status: row.status, created_ms: row.created_ms },
        ),
        None => Err(ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoTable, format!("no table {id:?}"))),
    }
}

async fn record_of(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<ShareQuery>,
) -> ApiResult {
    // A private game's is served to its host, its players and its share token's holders only.
    privacy::visible_row(&app, &id, &headers, q.share.as_deref()).await?;
    if let Some(text) = app.store.record(&id).await.map_err(|e| ApiError::internal(e.to_string()))? {
        return Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response());
    }
    match app.store.table(&id).await.map_err(|e| ApiError::internal(e.to_string()))? {
        Some(row) if row.status == TableStatus::Closed => Err(closed_error()),
        Some(_) => Err(ApiError::new(
            StatusCode::CONFLICT,
            ApiCode::NotFinished,
            "the game at this table is not over: its record (which holds the decks) is served once it is",
        )),
        None => Err(ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoTable, format!("no table {id:?}"))),
    }
}

/// The answer for the record or replay of a table its host closed.
fn closed_error() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        ApiCode::Closed,
        "the host closed this table before its match ended: it has no record and no replay",
    )
}

/// The replay kept under `id`, or for a finished table one prepared from its record now.
async fn prepared_replay(app: &App, id: &str) -> Result<Arc<replay::Prepared>, ApiError> {
    if let Some(p) = app.replays.get(id) {
        return Ok(p);
    }
    let Some(text) = app.store.record(id).await.map_err(|e| ApiError::internal(e.to_string()))? else {
        return match app.store.table(id).await.map_err(|e| ApiError::internal(e.to_string()))? {
            Some(row) if row.status == TableStatus::Closed => Err(closed_error()),
            Some(_) => Err(ApiError::new(
                StatusCode::CONFLICT,
                ApiCode::NotFinished,
                "the game at this table is not over: it can be replayed once it is",
            )),
            None if id.starts_with(POSTED_PREFIX) => Err(ApiError::new(
                StatusCode::NOT_FOUND,
                ApiCode::NoReplay,
                format!(
                    "no replay {id:?}: a posted record is kept {} minutes after its last use; post it again",
                    app.replays.limits().ttl_seconds / 60
                ),
            )),
            None => Err(ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoTable, format!("no table {id:?}"))),
        };
    };
    let prepared = prepare(app, id.to_string(), text).await.map_err(|e| match e {
        Prepare::Failed(m) => ApiError::internal(format!("the stored record cannot be replayed: {m}")),
        Prepare::Api(e) => e,
    })?;
    app.replays.put(id, prepared.clone());
    Ok(prepared)
}

/// The id prefix of posted records' replays (tables' ids begin with `t`).
const POSTED_PREFIX: &str = "r";

/// Why a record was not prepared.
enum Prepare {
    /// The record cannot be replayed: what is wrong and where.
    Failed(String),
    /// The server could not do it (busy, or a failure of its own).
    Api(ApiError),
}

fn busy() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        ApiCode::Busy,
        "the server is replaying as many records as it replays at once: try again in a few seconds",
    )
}

/// Checks and outlines a record off the async workers, when its turn comes.
async fn prepare(app: &App, id: String, text: String) -> Result<Arc<replay::Prepared>, Prepare> {
    let turn = app.replays.turn().await.ok_or(Prepare::Api(busy()))?;
    let done = tokio::task::spawn_blocking(move || {
        let r = replay::prepare(&id, &text);
        drop(turn);
        r
    })
    .await
    .map_err(|e| Prepare::Api(ApiError::internal(e.to_string())))?;
    done.map(Arc::new).map_err(|e| Prepare::Failed(e.0))
}

fn json_text(text: impl Into<Body>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text.into()).into_response()
}

async fn replay_of(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<ReplayQuery>,
) -> ApiResult {
    // A table's game (not a posted record's replay) is checked as its record is.
    if !id.starts_with(POSTED_PREFIX) {
        privacy::visible_row(&app, &id, &headers, q.share.as_deref()).await?;
    }
    let prepared = prepared_replay(&app, &id).await?;
    let Some(hand) = q.hand else {
        return Ok(json_text(prepared.outline_json().to_string()));
    };
    let count = prepared.hand_count();
    let k: usize = hand.trim().parse().map_err(|_| {
        ApiError::bad(format!("hand: a hand's number, 0 to {}, not {hand:?}", count.saturating_sub(1)))
    })?;
    let turn = app.replays.hand_turn().await.ok_or_else(busy)?;
    let made = tokio::task::spawn_blocking(move || {
        let r = prepared.hand(k).map(|h| serde_json::to_vec(&h));
        drop(turn);
        r
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))?;
    match made {
        Ok(Ok(bytes)) => Ok(json_text(bytes)),
        Ok(Err(e)) => Err(ApiError::internal(e.to_string())),
        Err(e @ replay::HandError::NoHand { .. }) => {
            Err(ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoHand, e.to_string()))
        }
        Err(e) => Err(ApiError::internal(e.to_string())),
    }
}

/// True when a request's `Content-Type` is `application/json` (with any parameters).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

async fn replay_posted(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> ApiResult {
    if !is_json(&headers) {
        let given = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("none");
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiCode::NotJson,
            format!("a record is posted as `Content-Type: application/json`, not {given:?}"),
        ));
    }
    let poster = guest(&app, &headers).await?;
    if let Err(replay::RetryAfter(secs)) = app.replays.allow_post(&poster.id) {
        let limits = app.replays.limits();
        let secs = secs.ceil().clamp(1.0, 86_400.0) as u64;
        let mut res = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ApiCode::TooManyPosts,
            format!(
                "a guest may post {} records a minute ({} at once): try again in {secs} s",
                limits.posts_per_minute, limits.post_burst
            ),
        )
        .into_response();
        res.headers_mut().insert(header::RETRY_AFTER, secs.into());
        return Ok(res);
    }
    let bytes = axum::body::to_bytes(body, replay::MAX_RECORD_BYTES).await.map_err(|_| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            ApiCode::RecordTooLarge,
            format!("a record is at most {} MiB", replay::MAX_RECORD_BYTES / (1024 * 1024)),
        )
    })?;
    let text = String::from_utf8(bytes.into())
        .map_err(|e| ApiError::bad(format!("the body is not UTF-8 text: {e}")))?;
    let id = ids::new_id(POSTED_PREFIX).map_err(|e| ApiError::internal(e.to_string()))?;
    let prepared = prepare(&app, id.clone(), text).await.map_err(|e| match e {
        Prepare::Failed(m) => ApiError::bad(format!("the record cannot be replayed: {m}")),
        Prepare::Api(e) => e,
    })?;
    app.replays.put(&id, prepared.clone());
    Ok(json_text(prepared.outline_json().to_string()))
}

/// The server's resident memory in bytes (Linux), if known.
pub fn rss_bytes() -> Option<u64> {
    status_bytes("VmRSS:")
}

/// The server's peak resident memory since it started, in bytes (Linux), if known.
pub fn peak_rss_bytes() -> Option<u64> {
    status_bytes("VmHWM:")
}

/// A size in `/proc/self/status`, in bytes.
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

async fn stats(State(app): State<Arc<App>>) -> ApiResult {
    ok_json(
        StatusCode::OK,
        StatsReply {
            tables: app.table_count() as u64,
            connections: app.connections.load(Ordering::Relaxed) as u64,
            rss_bytes: rss_bytes(),
            peak_rss_bytes: peak_rss_bytes(),
            backend: app.store.backend().to_string(),
            fenced_writes: app.cluster.fenced_writes.load(Ordering::Relaxed),
            leases_lost: app.cluster.leases_lost.load(Ordering::Relaxed),
            external_bots: table::bots::external_fallbacks()
                .into_iter()
                .map(|(name, f)| ExternalBotCounts {
                    name,
                    decisions: f.decisions,
                    illegal: f.illegal,
                    malformed: f.malformed,
                    timeouts: f.timeouts,
                    crashes: f.crashes,
                })
                .collect(),
        },
    )
}
