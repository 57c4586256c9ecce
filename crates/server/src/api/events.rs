//! Duplicate events' API (`docs/events.md`, `docs/protocol.md` "Duplicate events"): an event
//! made by a host with an account, entered by players, begun when full, at its time or by its
//! host; its boards' tables made one after another at each of its tables; its page (tables,
//! travelling score sheets, standings) and its records as one archive.
//!
//! The event carries on by itself: [`spawn_driver`] looks at the unfinished events every half
//! second, and every request for an event does too ([`advance`]). A change is stored only over the
//! version it was read at, and a board's table has an id fixed by the event, the table and the
//! board, so two nodes never both make it.

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use cards::record::GameKind;
use table::settings::TableSettings;
use table::text::TextKind;
use wire::{ApiCode, ApiReason, Refusal};

use crate::App;
use crate::api::error::{ApiError, ApiResult, bearer, body, check_name, ok_json};
use crate::duplicate::{self, Entrant, EventDoc, EventStatus, Holder, Scoring};
use crate::ids::{self, now_ms};
use crate::store::SeatRow;
use crate::store::events::EventRow;
use crate::tables;
use wire::{
    EventInfo, EventList, EventScoring, EventSeat, EventStanding, EventSummary, EventTable, EventYou,
    NewEvent, Traveller, TravellerLine,
};

/// The most boards an event may have.
pub const MAX_BOARDS: u32 = 32;
/// The most tables of people.
pub const MAX_TABLES: u32 = 16;
/// The most tables of bots only (the par).
pub const MAX_PAR_TABLES: u32 = 2;
/// Unfinished events one host may have at once.
pub const EVENTS_PER_HOST: usize = 5;
/// The bot of the field's par (`docs/events.md`).
pub const PAR_BOT: &str = "expert";
/// The events the list and the driver look at.
const LISTED: u32 = 100;

/// The events routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/events", get(list).post(create))
        .route("/api/events/{id}", get(show))
        .route("/api/events/{id}/enter", post(enter))
        .route("/api/events/{id}/start", post(start))
        .route("/api/events/{id}/records", get(records))
        .layer(DefaultBodyLimit::max(16 * 1024))
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

fn no_event(id: &str) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoEvent, format!("no event {shown:?}"))
}

/// A private event asked for by someone its host did not invite.
fn not_invited() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        ApiCode::NotInvited,
        "this event is private: only its host and the friends he invited may see it and enter it",
    )
}

fn closed(reason: ApiReason, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, ApiCode::EventClosed, message).because(reason)
}

fn status_name(s: EventStatus) -> &'static str {
    match s {
        EventStatus::Open => "open",
        EventStatus::Playing => "playing",
        EventStatus::Finished => "finished",
    }
}

/// The guest of the request's token, when it has an `Authorization` header.
async fn viewer(app: &App, headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    if headers.get(header::AUTHORIZATION).is_none() {
        return Ok(None);
    }
    Ok(Some(crate::api::accounts::identify(app, bearer(headers)?).await?.0.id))
}

/// The settings of board `k`'s table at table `g`: the event's game and rules, board `k`
/// (Madiao: one hand, `game_length: hands:1`; Da Bai Fen: one deal from the board's start,
/// `docs/events.md` "Da Bai Fen boards").
fn board_settings(doc: &EventDoc, g: usize, k: usize) -> TableSettings {
    let mut variants = doc.variants.clone();
    if doc.game == GameKind::Madiao {
        variants.0.insert("game_length".into(), "hands:1".into());
    }
    TableSettings {
        name: format!("{} · table {} · board {}", doc.name, g + 1, k + 1),
        game: doc.game,
        rules: doc.rules.clone(),
        variants,
        stake: 2,
        stake_max: None,
        turn_seconds: doc.turn_seconds,
        private: false,
        pace: Default::default(),
        grace_seconds: 15,
        // Timed, even for one person among bots: an absent player is played for by a bot.
        untimed: false,
        bank_seconds: 0,
        zero_cash: Default::default(),
        rated: false,
        board: Some(k as u32),
        // A rated event's boards offer no aids, as a rated table does (`docs/events.md`).
        no_aids: doc.rated,
    }
}

/// The id of board `k`'s table at table `g`: fixed by the event, so that two nodes making it at
/// once make one table (the second is refused by the store).
fn board_table_id(event: &str, g: usize, k: usize) -> String {
    format!("t{}g{g}b{k}", event.strip_prefix('e').unwrap_or(event))
}

/// The event, table and board of a board's table from its id (the inverse of
/// [`board_table_id`] for an event id made by [`ids::new_id`]: `e` and 12 characters); `None` for
/// any other table's id.
fn board_of_table(id: &str) -> Option<(String, usize, usize)> {
    let (head, k) = id.strip_prefix('t')?.rsplit_once('b')?;
    let (event, g) = head.rsplit_once('g')?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if event.len() != 12 || !digits(g) || !digits(k) {
        return None;
    }
    Some((format!("e{event}"), g.parse().ok()?, k.parse().ok()?))
}

/// Why `guest` may not watch table `id` (as a spectator or on the TV) now, if he may not
/// (`docs/events.md`, "Watching"): the table plays a board of a duplicate event under way that he
/// plays too and has not finished, since every table of the event plays the same cards. The
/// event's page hides the *watch* link by the same rule.
pub async fn watch_refusal(app: &App, id: &str, guest: &str) -> Option<(wire::ErrorCode, String)> {
    let (event, _, k) = board_of_table(id)?;
    let unreadable = |e: String| Some((wire::ErrorCode::Unavailable, format!("table {id}: its event: {e}")));
    let row = match app.store.event(&event).await {
        Ok(Some(row)) => row,
        Ok(None) => return None,
        Err(e) => return unreadable(e.to_string()),
    };
    let doc: EventDoc = match serde_json::from_str(&row.doc) {
        Ok(doc) => doc,
        Err(e) => return unreadable(e.to_string()),
    };
    let plays_board = doc.groups.iter().any(|gr| gr.tables.get(k).is_some_and(|t| t.as_deref() == Some(id)));
    if doc.status != EventStatus::Playing || !plays_board {
        return None;
    }
    // The board the guest is on (the first he has no result for), if he plays in the event.
    let his = doc.groups.iter().find_map(|gr| {
        gr.seats
            .iter()
            .any(|h| matches!(h, Holder::Person { guest: g, .. } if g == guest))
            .then(|| gr.board())
    })??;
    (k >= his).then(|| {
        (
            wire::ErrorCode::BoardUnfinished,
            format!(
                "table {id} plays board {} of the event {:?}, which you have still to play: \
                 watch it once you have played it",
                k + 1,
                doc.name
            ),
        )
    })
}

/// Makes board `k`'s table at table `g` (or finds it made by another node) and starts it; why
/// it could not be made when it is not stored either.
async fn make_board_table(
    app: &App,
    doc: &EventDoc,
    g: usize,
    k: usize,
) -> Result<String, tables::CreateError> {
    let id = board_table_id(&doc.id, g, k);
    let seats: [SeatRow; 4] = std::array::from_fn(|s| match &doc.groups[g].seats[s] {
        Holder::Person { guest, name } => SeatRow::Person { guest: guest.clone(), name: name.clone() },
        Holder::Bot { bot } => SeatRow::Bot(bot.clone()),
    });
    let seed = duplicate::board_seed(doc.seed, k as u32);
    let settings = board_settings(doc, g, k);
    match app.tables.create_fixed(&settings, &doc.id, seats, None, Some((id.clone(), seed))).await {
        Ok((_, handle)) => {
            // A table of bots begins at once; one with people when the first of them joins (or
            // after `START_WAIT_MS`, see `step`), so that no one's seat is played before he comes.
            if doc.groups[g].par || doc.groups[g].seats.iter().all(|h| matches!(h, Holder::Bot { .. })) {
                let _ = handle.send(tables::Cmd::Request(table::machine::Request::AutoStart)).await;
            }
            Ok(id)
        }
        Err(e) => match app.store.table(&id).await {
            Ok(Some(_)) => Ok(id),
            _ => Err(e),
        },
    }
}

/// How long a board's table of people waits for them before it begins anyway (bots playing for
/// whoever has not come), in milliseconds.
pub const START_WAIT_MS: i64 = 60_000;

/// Begins a board's table that is still waiting for its people `START_WAIT_MS` after it was made
/// (when it runs on this node; another node's driver sees to its own).
async fn start_if_overdue(app: &App, id: &str) {
    let Some(h) = app.table(id) else { return };
    let overdue = h
        .summary
        .read()
        .map(|s| s.status == crate::store::TableStatus::Waiting && now_ms() - s.created_ms > START_WAIT_MS)
        .unwrap_or(false);
    if overdue {
        let _ = h.send(tables::Cmd::Request(table::machine::Request::AutoStart)).await;
    }
}

/// One step of an event's life: begins it when due, reads the results of its boards' tables
/// whose records are stored, makes the next boards' tables, finishes it. True when it changed.
async fn step(app: &App, doc: &mut EventDoc) -> Result<bool, ApiError> {
    let mut changed = false;
    if doc.status == EventStatus::Open {
        let due = match doc.start_at_ms {
            Some(at) => now_ms() >= at,
            None => doc.entrants.len() >= doc.capacity(),
        };
        if !due {
            return Ok(false);
        }
        doc.seat_groups(table::bots::default_bot_of(doc.game), PAR_BOT);
        changed = true;
    }
    if doc.status != EventStatus::Playing {
        return Ok(changed);
    }
    for g in 0..doc.groups.len() {
        while let Some(k) = doc.groups[g].board() {
            match doc.groups[g].tables[k].clone() {
                None => match make_board_table(app, doc, g, k).await {
                    Ok(id) => {
                        doc.groups[g].tables[k] = Some(id);
                        changed = true;
                        break;
                    }
                    Err(why) => {
                        tracing::warn!(event = %doc.id, group = g, board = k, error = %why, "a board's table cannot be made");
                        break;
                    }
                },
                Some(id) => {
                    let Some(text) = app.store.record(&id).await.map_err(internal)? else {
                        start_if_overdue(app, &id).await;
                        break;
                    };
                    let scores = serde_json::from_str::<serde_json::Value>(&text)
                        .ok()
                        .and_then(|r| duplicate::record_scores(doc.game, &r))
                        .ok_or_else(|| internal(format!("the record of table {id} has no scores")))?;
                    doc.groups[g].results[k] = Some(scores);
                    changed = true;
                }
            }
        }
    }
    if doc.groups.iter().all(|g| g.board().is_none()) {
        doc.status = EventStatus::Finished;
        changed = true;
    }
    Ok(changed)
}

/// Carries event `id` on as far as it can now (`step`) and stores the change; the event as it
/// then is, with its version, or `None` for no such event.
pub async fn advance(app: &App, id: &str) -> Result<Option<(EventDoc, i64)>, ApiError> {
    let mut last = None;
    for _ in 0..4 {
        let Some(row) = app.store.event(id).await.map_err(internal)? else { return Ok(None) };
        let mut doc: EventDoc = serde_json::from_str(&row.doc).map_err(internal)?;
        if doc.status == EventStatus::Finished || !step(app, &mut doc).await? {
            return Ok(Some((doc, row.version)));
        }
        let text = serde_json::to_string(&doc).map_err(internal)?;
        // A rated event's finish and its ratings are one write, made once: whichever node (or
        // request) stores the finish first rates it (`docs/events.md`, "Rated events").
        let stored = if doc.rated && doc.status == EventStatus::Finished {
            app.store
                .finish_rated_event(id, row.version, &text, &doc.rated_event())
                .await
                .map_err(internal)?
        } else {
            app.store.update_event(id, row.version, status_name(doc.status), &text).await.map_err(internal)?
        };
        if stored {
            return Ok(Some((doc, row.version + 1)));
        }
        // Another node (or request) changed it first: read it again.
        last = Some((doc, row.version));
    }
    Ok(last)
}

/// Carries every unfinished event on every half second, for as long as the server runs.
pub fn spawn_driver(app: &Arc<App>) {
    let weak: Weak<App> = Arc::downgrade(app);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let Some(app) = weak.upgrade() else { return };
            let Ok(rows) = app.store.events(true, LISTED).await else { continue };
            for row in rows {
                if let Err(e) = advance(&app, &row.id).await {
                    tracing::warn!(event = %row.id, error = ?e, "the event cannot be carried on");
                }
            }
        }
    });
}

fn scoring_of(s: EventScoring) -> Scoring {
    match s {
        EventScoring::Matchpoints => Scoring::Matchpoints,
        EventScoring::Total => Scoring::Total,
    }
}

fn seat_name(h: &Holder) -> EventSeat {
    match h {
        Holder::Person { name, .. } => EventSeat { name: name.clone(), bot: false },
        Holder::Bot { bot } => EventSeat { name: format!("bot:{bot}"), bot: true },
    }
}

/// How long back in a person's rated results [`rating_changes`] looks for the event's.
const EVENT_RATINGS_LOOKBACK: u32 = 50;

/// The rating change of each person of a finished rated event, by guest: his rating before and
/// after, from his history row (which names his table on the last board). Empty for an event
/// that is not rated or not over.
pub async fn rating_changes(app: &App, doc: &EventDoc) -> Result<HashMap<String, (f64, f64)>, ApiError> {
    let mut out = HashMap::new();
    if !doc.rated || doc.status != EventStatus::Finished {
        return Ok(out);
    }
    let game = crate::ratings::game_name(doc.game);
    for gr in &doc.groups {
        let Some(Some(table)) = gr.tables.last() else { continue };
        for h in &gr.seats {
            let Holder::Person { guest, .. } = h else { continue };
            let history = app.store.rating_history(guest, EVENT_RATINGS_LOOKBACK).await.map_err(internal)?;
            if let Some(row) = history.iter().find(|r| &r.table == table && r.game == game) {
                out.insert(guest.clone(), (row.before.rating, row.after.rating));
            }
        }
    }
    Ok(out)
}

/// The event as its page shows it to `viewer`, with its people's rating changes (`changes`,
/// from [`rating_changes`]).
pub fn info(doc: &EventDoc, viewer: Option<&str>, changes: &HashMap<String, (f64, f64)>) -> EventInfo {
    let event_tables = doc
        .groups
        .iter()
        .enumerate()
        .map(|(g, gr)| EventTable {
            index: g as u32,
            par: gr.par,
            seats: gr.seats.iter().map(seat_name).collect(),
            board: gr.board().map(|b| b as u32),
            table_ids: gr.tables.clone(),
        })
        .collect();
    let mut travellers = Vec::new();
    for k in 0..doc.boards as usize {
        let mps = doc.board_matchpoints(k);
        let lines: Vec<TravellerLine> = doc
            .groups
            .iter()
            .enumerate()
            .filter_map(|(g, gr)| {
                let scores = gr.results[k]?;
                let m = mps[g]?;
                Some(TravellerLine {
                    table: g as u32,
                    table_id: gr.tables[k].clone().unwrap_or_default(),
                    scores: scores.to_vec(),
                    percent: m.iter().map(|m| (m.percent * 100.0).round() / 100.0).collect(),
                })
            })
            .collect();
        if !lines.is_empty() {
            travellers.push(Traveller { board: k as u32, complete: lines.len() == doc.groups.len(), lines });
        }
    }
    let mut standings: Vec<EventStanding> = Vec::new();
    for (i, s) in doc.standings().into_iter().enumerate() {
        let gr = &doc.groups[s.group];
        let score = (s.score * 100.0).round() / 100.0;
        let rank = match standings.last() {
            Some(prev) if prev.score == score => prev.rank,
            _ => i as u32 + 1,
        };
        let seat = seat_name(&gr.seats[s.seat]);
        let change = match &gr.seats[s.seat] {
            Holder::Person { guest, .. } => changes.get(guest).copied(),
            Holder::Bot { .. } => None,
        };
        standings.push(EventStanding {
            rating_before: change.map(|c| c.0),
            rating_after: change.map(|c| c.1),
            rank,
            table: s.group as u32,
            seat: s.seat as u8,
            name: seat.name,
            bot: seat.bot,
            par: gr.par,
            boards: s.boards,
            score,
            total: s.total,
        });
    }
    let you = viewer.and_then(|v| {
        doc.groups.iter().enumerate().find_map(|(g, gr)| {
            let seat =
                gr.seats.iter().position(|h| matches!(h, Holder::Person { guest, .. } if guest == v))?;
            let board = gr.board();
            Some(EventYou {
                table: g as u32,
                seat: seat as u8,
                board: board.map(|b| b as u32),
                table_id: board.and_then(|b| gr.tables[b].clone()),
            })
        })
    });
    EventInfo {
        private: doc.invited.is_some(),
        invited: doc.invited.iter().flatten().map(|e| e.name.clone()).collect(),
        rated: doc.rated,
        id: doc.id.clone(),
        name: doc.name.clone(),
        host_name: doc.host_name.clone(),
        game: doc.game,
        rules: doc.rules.clone(),
        variants: doc.variants.clone(),
        boards: doc.boards,
        tables: doc.tables,
        people_per_table: doc.people_per_table,
        par_tables: doc.par_tables,
        scoring: match doc.scoring {
            Scoring::Matchpoints => EventScoring::Matchpoints,
            Scoring::Total => EventScoring::Total,
        },
        turn_seconds: doc.turn_seconds,
        start_at_ms: doc.start_at_ms,
        created_ms: doc.created_ms,
        status: status_name(doc.status).to_string(),
        entrants: doc.entrants.iter().map(|e| e.name.clone()).collect(),
        capacity: doc.capacity() as u32,
        entered: viewer.is_some_and(|v| doc.entrants.iter().any(|e| e.guest == v)),
        host: viewer == Some(doc.host.as_str()),
        seed: (doc.status == EventStatus::Finished).then(|| doc.seed.to_string()),
        event_tables,
        travellers,
        standings,
        you,
    }
}

async fn list(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let viewer = viewer(&app, &headers).await?;
    let rows = app.store.events(false, LISTED).await.map_err(internal)?;
    let events = rows
        .iter()
        .filter_map(|r| serde_json::from_str::<EventDoc>(&r.doc).ok())
        // A private event is listed only to its host and the players he invited.
        .filter(|d| d.visible_to(viewer.as_deref()))
        .map(|d| EventSummary {
            private: d.invited.is_some(),
            rated: d.rated,
            id: d.id.clone(),
            name: d.name.clone(),
            host_name: d.host_name.clone(),
            game: d.game,
            boards: d.boards,
            status: status_name(d.status).to_string(),
            entrants: d.entrants.len() as u32,
            capacity: d.capacity() as u32,
            created_ms: d.created_ms,
        })
        .collect();
    ok_json(StatusCode::OK, EventList { events })
}

async fn create(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> ApiResult {
    let (host, _) = crate::api::accounts::identify(&app, bearer(&headers)?).await?;
    let req: NewEvent = body(&bytes)?;
    if app.store.account_by_guest(&host.id).await.map_err(internal)?.is_none() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ApiCode::AccountRequired,
            "only a guest with an account may host an event (POST /api/accounts)",
        ));
    }
    if req.rated && req.tables + req.par_tables < 2 {
        return Err(ApiError::bad(
            "rated: a rated event needs at least two tables (of people or of the par): a result \
             is rated by comparing it with the same seat's at the other tables (docs/events.md)",
        ));
    }
    if !(1..=MAX_BOARDS).contains(&req.boards) {
        return Err(ApiError::bad(format!("boards must be 1 to {MAX_BOARDS}, not {}", req.boards)));
    }
    if !(1..=MAX_TABLES).contains(&req.tables) {
        return Err(ApiError::bad(format!("tables must be 1 to {MAX_TABLES}, not {}", req.tables)));
    }
    if !(1..=4).contains(&req.people_per_table) {
        return Err(ApiError::bad(format!("people_per_table must be 1 to 4, not {}", req.people_per_table)));
    }
    if req.par_tables > MAX_PAR_TABLES {
        return Err(ApiError::bad(format!(
            "par_tables must be 0 to {MAX_PAR_TABLES}, not {}",
            req.par_tables
        )));
    }
    if !(5..=3600).contains(&req.turn_seconds) {
        return Err(ApiError::bad(format!("turn_seconds must be 5 to 3600, not {}", req.turn_seconds)));
    }
    if req.variants.0.contains_key("game_length") {
        return Err(ApiError::bad(
            "variants.game_length: every board is one hand (one deal); name the boards instead",
        ));
    }
    let now = now_ms();
    if let Some(at) = req.start_at_ms
        && !(now - 60_000..=now + 30 * 86_400_000).contains(&at)
    {
        return Err(ApiError::bad("start_at_ms must be within the next 30 days"));
    }
    let name = match &req.name {
        Some(n) => check_name(TextKind::TableName, n, 60)?,
        None => format!("{}'s event", host.name),
    };
    let invited = match &req.invite {
        Some(names) => Some(crate::api::friends::invitees(&app, &host.id, names).await?),
        None => None,
    };
    let unfinished = app.store.events(true, LISTED).await.map_err(internal)?;
    if unfinished.iter().filter(|r| r.host == host.id).count() >= EVENTS_PER_HOST {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ApiCode::TooManyTables,
            format!("you host {EVENTS_PER_HOST} unfinished events, the most at once"),
        ));
    }
    let mut doc = EventDoc {
        id: ids::new_id("e").map_err(internal)?,
        name,
        host: host.id.clone(),
        host_name: host.name.clone(),
        game: req.game,
        rules: req.rules,
        variants: req.variants,
        boards: req.boards,
        seed: app.new_table_seed().map_err(internal)?,
        tables: req.tables,
        people_per_table: req.people_per_table,
        par_tables: req.par_tables,
        scoring: scoring_of(req.scoring),
        rated: req.rated,
        turn_seconds: req.turn_seconds,
        start_at_ms: req.start_at_ms,
        created_ms: now,
        status: EventStatus::Open,
        entrants: Vec::new(),
        groups: Vec::new(),
        invited,
    };
    // The rules are checked as a board's table would be.
    tables::check_settings(&board_settings(&doc, 0, 0)).map_err(|e| ApiError::from(Refusal::from(e)))?;
    doc.groups.clear();
    let row = EventRow {
        id: doc.id.clone(),
        host: host.id,
        status: "open".into(),
        created_ms: now,
        version: 0,
        doc: serde_json::to_string(&doc).map_err(internal)?,
    };
    app.store.create_event(&row).await.map_err(internal)?;
    if let Some(list) = &doc.invited {
        crate::api::friends::tell_invited(&app, &doc.id, &doc.name, &doc.host, list).await;
    }
    ok_json(StatusCode::CREATED, info(&doc, Some(&doc.host), &HashMap::new()))
}

async fn show(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let viewer = viewer(&app, &headers).await?;
    let (doc, _) = advance(&app, &id).await?.ok_or_else(|| no_event(&id))?;
    if !doc.visible_to(viewer.as_deref()) {
        return Err(not_invited());
    }
    let changes = rating_changes(&app, &doc).await?;
    ok_json(StatusCode::OK, info(&doc, viewer.as_deref(), &changes))
}

/// Applies `change` to the event's stored document (over the version read, again if another
/// change came first), then carries it on; the event as it then is.
async fn change_event(
    app: &App,
    id: &str,
    change: impl Fn(&mut EventDoc) -> Result<(), ApiError>,
) -> Result<EventDoc, ApiError> {
    for _ in 0..8 {
        let row = app.store.event(id).await.map_err(internal)?.ok_or_else(|| no_event(id))?;
        let mut doc: EventDoc = serde_json::from_str(&row.doc).map_err(internal)?;
        change(&mut doc)?;
        let text = serde_json::to_string(&doc).map_err(internal)?;
        if app.store.update_event(id, row.version, status_name(doc.status), &text).await.map_err(internal)? {
            return Ok(advance(app, id).await?.map_or(doc, |(d, _)| d));
        }
    }
    Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, ApiCode::Busy, "the event is busy: try again"))
}

async fn enter(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let (g, _) = crate::api::accounts::identify(&app, bearer(&headers)?).await?;
    let account = app.store.account_by_guest(&g.id).await.map_err(internal)?.is_some();
    let doc = change_event(&app, &id, |doc| {
        if !doc.visible_to(Some(&g.id)) {
            return Err(not_invited());
        }
        // As at a rated table, only a guest with an account plays a rated event.
        if doc.rated && !account {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                ApiCode::AccountRequired,
                "only a guest with an account may enter a rated event: claim one (POST /api/account) or sign in",
            ));
        }
        if doc.status != EventStatus::Open {
            return Err(closed(ApiReason::EventBegun, "the event has begun: it takes no more entrants"));
        }
        if doc.entrants.iter().any(|e| e.guest == g.id) {
            return Err(closed(ApiReason::EventEntered, "you have entered this event already"));
        }
        if doc.entrants.len() >= doc.capacity() {
            return Err(closed(ApiReason::EventFull, "the event is full"));
        }
        doc.entrants.push(Entrant { guest: g.id.clone(), name: g.name.clone() });
        Ok(())
    })
    .await?;
    let changes = rating_changes(&app, &doc).await?;
    ok_json(StatusCode::OK, info(&doc, Some(&g.id), &changes))
}

async fn start(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let (g, _) = crate::api::accounts::identify(&app, bearer(&headers)?).await?;
    let doc = change_event(&app, &id, |doc| {
        if doc.host != g.id {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                ApiCode::EventClosed,
                "only the event's host can start it",
            )
            .because(ApiReason::EventHostOnly));
        }
        if doc.status != EventStatus::Open {
            return Err(closed(ApiReason::EventStarted, "the event has begun already"));
        }
        doc.seat_groups(table::bots::default_bot_of(doc.game), PAR_BOT);
        Ok(())
    })
    .await?;
    let changes = rating_changes(&app, &doc).await?;
    ok_json(StatusCode::OK, info(&doc, Some(&g.id), &changes))
}

/// `GET /api/events/{id}/records`: every finished board's `yezi/1` record, table by table and
/// board by board, each with an `event` member (`{"id", "table", "board"}`), as one JSON array.
async fn records(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let viewer = viewer(&app, &headers).await?;
    let (doc, _) = advance(&app, &id).await?.ok_or_else(|| no_event(&id))?;
    if !doc.visible_to(viewer.as_deref()) {
        return Err(not_invited());
    }
    let mut out = Vec::new();
    for (g, gr) in doc.groups.iter().enumerate() {
        for (k, t) in gr.tables.iter().enumerate() {
            let Some(t) = t else { continue };
            if gr.results[k].is_none() {
                continue;
            }
            let Some(text) = app.store.record(t).await.map_err(internal)? else { continue };
            let mut rec: serde_json::Value = serde_json::from_str(&text).map_err(internal)?;
            if let Some(o) = rec.as_object_mut() {
                o.insert("event".into(), serde_json::json!({ "id": doc.id, "table": g, "board": k }));
            }
            out.push(rec);
        }
    }
    let body = serde_json::to_string(&out).map_err(internal)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"yezi-event-{}.json\"", doc.id)),
        ],
        body,
    )
        .into_response())
}
