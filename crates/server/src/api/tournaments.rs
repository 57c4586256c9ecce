//! Tournaments (`docs/tournaments.md`; `docs/protocol.md`, "Tournaments"): swiss and arena over
//! the pure rules of [`crate::tournaments`]. A tournament's state is stored as JSON
//! ([`crate::store::tournaments`]) and every change is a versioned write, so requests on any node
//! never overwrite one another. One node at a time drives a tournament (it holds the lease on it):
//! [`spawn_driver`]'s loop reads the results of its finished tables, pairs its rounds (swiss) or
//! its free players (arena) and makes their tables, ordinary tables made by
//! `pairing::start_table`. After a restart, or when its node fails, the next node to
//! take the lease goes on from the stored state.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use table::standings::MatchStandings;
use table::text::TextKind;
use wire::{ApiCode, NewTable};

use crate::App;
use crate::api::error::{ApiError, ApiResult, bearer, body, check_name, ok_json};
use crate::ids::now_ms;
use crate::store::TableStatus;
use crate::store::tournaments::TournamentRow;
use crate::tournaments::arena::Arena;
use crate::tournaments::swiss::Swiss;
use crate::tournaments::{Entrant, Pairing, SEATS, Standing, TournamentError, match_points};
pub use wire::{
    NewTournament, TournamentInfo, TournamentKind, TournamentList, TournamentStanding, TournamentTable,
};

/// The tournaments routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(info))
        .route("/api/tournaments/{id}/join", post(join))
        .route("/api/tournaments/{id}/leave", post(leave))
        .route("/api/tournaments/{id}/start", post(start))
        .layer(DefaultBodyLimit::max(8 * 1024))
}

/// How often the driver looks at the tournaments.
const DRIVE_EVERY: Duration = Duration::from_millis(1000);

/// How long a node's lease on driving a tournament lasts (renewed at every look).
const LEASE_MS: i64 = 10_000;

/// The most tournaments listed, and looked at by the driver.
const LIST_MAX: u32 = 200;

/// How long after a swiss round is paired its people have to be at their tables, when the host
/// does not choose it (seconds; `docs/tournaments.md`, "Absent players").
pub const DEFAULT_DEADLINE_SECONDS: u32 = 120;

/// The deadlines a host may choose (seconds).
pub const DEADLINE_RANGE: std::ops::RangeInclusive<u32> = 10..=900;

/// The format's state.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Format {
    Swiss(Swiss),
    Arena(Arena),
}

/// What is stored of a tournament: its tables' settings and its format's state.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Stored {
    /// The settings each of its tables is made with (name, game, rules, clock, rated).
    table: NewTable,
    /// The format and its state (its players, rounds and tables).
    format: Format,
    /// Swiss: seconds from a round's pairing to its deadline (`None`: stored before the
    /// deadline existed, [`DEFAULT_DEADLINE_SECONDS`]).
    #[serde(default)]
    deadline_seconds: Option<u32>,
    /// Swiss: the current round's deadline, milliseconds since the Unix epoch.
    #[serde(default)]
    deadline_ms: Option<i64>,
    /// Swiss: the tables of the current round whose people were looked at, at its deadline.
    #[serde(default)]
    judged: Vec<String>,
    /// Swiss: the people of the current round not at their table at its deadline: they score 0
    /// for the round's match, whatever the bot standing in for them did.
    #[serde(default)]
    forfeits: Vec<String>,
}

impl Stored {
    /// Pairs a swiss's next round and sets its deadline from `now`.
    fn next_round(&mut self, now: i64) -> Result<(), ApiError> {
        let Format::Swiss(w) = &mut self.format else {
            return Err(refused(TournamentError::NotNow("an arena has no rounds".into())));
        };
        w.next_round().map_err(refused)?;
        let seconds = self.deadline_seconds.unwrap_or(DEFAULT_DEADLINE_SECONDS);
        self.deadline_ms = Some(now + i64::from(seconds) * 1000);
        self.judged.clear();
        self.forfeits.clear();
        Ok(())
    }
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

fn refused(e: TournamentError) -> ApiError {
    match e {
        TournamentError::UnknownPlayer(_) | TournamentError::UnknownTable(_) => {
            ApiError::new(StatusCode::NOT_FOUND, ApiCode::BadRequest, e.to_string())
        }
        TournamentError::AlreadyIn(_) | TournamentError::TableOver(_) | TournamentError::NotNow(_) => {
            ApiError::new(StatusCode::CONFLICT, ApiCode::BadRequest, e.to_string())
        }
        TournamentError::WrongResult { .. } | TournamentError::Bad(_) => ApiError::bad(e.to_string()),
    }
}

fn no_tournament(id: &str) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    ApiError::new(StatusCode::NOT_FOUND, ApiCode::BadRequest, format!("no tournament {shown:?}"))
}

fn decode(row: &TournamentRow) -> Result<Stored, ApiError> {
    serde_json::from_str(&row.state).map_err(|e| internal(format!("tournament {}: {e}", row.id)))
}

/// The status a state has at `now`.
fn status_of(s: &Stored, now: i64) -> &'static str {
    match &s.format {
        Format::Swiss(w) if w.finished() => "finished",
        Format::Swiss(w) if w.played.is_empty() => "open",
        Format::Swiss(_) => "running",
        Format::Arena(a) if a.finished(now) => "finished",
        Format::Arena(a) if now < a.starts_ms => "open",
        Format::Arena(_) => "running",
    }
}

/// Applies `change` to a stored tournament and writes it, again from the newest state if another
/// write came first (a few times).
async fn modify<T>(
    app: &App,
    id: &str,
    mut change: impl FnMut(&mut Stored, i64) -> Result<T, ApiError>,
) -> Result<(T, TournamentRow), ApiError> {
    for _ in 0..8 {
        let row = app.store.tournament(id).await.map_err(internal)?.ok_or_else(|| no_tournament(id))?;
        let mut s = decode(&row)?;
        let now = now_ms();
        let out = change(&mut s, now)?;
        let state = serde_json::to_string(&s).map_err(internal)?;
        let status = status_of(&s, now);
        // Nothing changed: nothing to write (`docs/tournaments.md`, "Where it runs").
        if status == row.status
            && decode(&row).and_then(|old| serde_json::to_string(&old).map_err(internal))? == state
        {
            return Ok((out, row));
        }
        if app.store.update_tournament(id, row.version, status, &state, now).await.map_err(internal)? {
            let row = TournamentRow { state, status: status.to_string(), version: row.version + 1, ..row };
            return Ok((out, row));
        }
    }
    Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, ApiCode::Busy, "the tournament is busy: try again"))
}

/// The guest asking and his rating in `game`; refused without an account when `rated`.
async fn entrant(app: &App, headers: &HeaderMap, game: GameKind, rated: bool) -> Result<Entrant, ApiError> {
    let (g, _) = crate::api::accounts::identify(app, bearer(headers)?).await?;
    let account = crate::tables::has_account(app.store.as_ref(), &g.id).await.map_err(internal)?;
    if rated && !account {
        return Err(crate::ratings::account_required().into());
    }
    let rows = if account { app.store.ratings_of(&g.id).await.map_err(internal)? } else { Vec::new() };
    let rating = crate::ratings::rating_of(rows.iter().find(|r| r.game == game.name())).rating;
    Ok(Entrant { id: g.id, name: g.name, rating })
}

fn game_of(row: &TournamentRow) -> Result<GameKind, ApiError> {
    match row.game.as_str() {
        "madiao" => Ok(GameKind::Madiao),
        "dabaifen" => Ok(GameKind::Dabaifen),
        other => Err(internal(format!("tournament {}: game {other:?}", row.id))),
    }
}

fn in_range(
    what: &str,
    v: Option<u32>,
    default: u32,
    range: std::ops::RangeInclusive<u32>,
) -> Result<u32, ApiError> {
    let v = v.unwrap_or(default);
    if !range.contains(&v) {
        return Err(ApiError::bad(format!("{what} must be {} to {}, not {v}", range.start(), range.end())));
    }
    Ok(v)
}

/// `POST /api/tournaments` (with a token): makes a tournament hosted by the guest.
async fn create(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> ApiResult {
    let (host, _) = crate::api::accounts::identify(&app, bearer(&headers)?).await?;
    let req: NewTournament = body(&bytes)?;
    let kind_name = match req.kind {
        TournamentKind::Swiss => "swiss",
        TournamentKind::Arena => "arena",
    };
    let name = match &req.name {
        Some(n) => check_name(TextKind::TableName, n, 60)?,
        None => format!("{}'s {kind_name}", host.name),
    };
    let mut table = NewTable::new(req.game);
    table.turn_seconds = in_range("turn_seconds", req.turn_seconds, 30, 5..=3600)?;
    table.name = Some(name.clone());
    if let Some(h) = req.hands {
        if req.game != GameKind::Madiao {
            return Err(ApiError::bad("hands: only a Madiao match is set by hands"));
        }
        let h = in_range("hands", Some(h), 4, 1..=crate::api::tables::MAX_TABLE_HANDS)?;
        table.variants.0.insert("game_length".to_string(), format!("hands:{h}"));
    }
    if req.rated {
        // A rated tournament's tables are rated tables (`docs/ratings.md`, "Rated tables").
        if !crate::tables::has_account(app.store.as_ref(), &host.id).await.map_err(internal)? {
            return Err(crate::ratings::account_required().into());
        }
        let min = crate::api::tables::MIN_RATED_HANDS;
        if req.hands.is_some_and(|h| h < min) {
            return Err(ApiError::bad(format!(
                "hands: a rated tournament's tables play at least {min} hands"
            )));
        }
        table.rated = true;
    }
    let deadline_seconds = match req.deadline_seconds {
        Some(d) if req.kind == TournamentKind::Swiss => {
            Some(in_range("deadline_seconds", Some(d), DEFAULT_DEADLINE_SECONDS, DEADLINE_RANGE)?)
        }
        Some(_) => return Err(ApiError::bad("deadline_seconds: only a swiss has rounds")),
        None => None,
    };
    let now = now_ms();
    let format = match req.kind {
        TournamentKind::Swiss => {
            Format::Swiss(Swiss::new(in_range("rounds", req.rounds, 3, 1..=20)?).map_err(refused)?)
        }
        TournamentKind::Arena => {
            let minutes = in_range("minutes", req.minutes, 30, 1..=240)?;
            let starts =
                now + i64::from(in_range("starts_in_seconds", req.starts_in_seconds, 0, 0..=86_400)?) * 1000;
            let wait = i64::from(in_range("wait_seconds", req.wait_seconds, 20, 5..=120)?) * 1000;
            Format::Arena(Arena::new(starts, starts + i64::from(minutes) * 60_000, wait).map_err(refused)?)
        }
    };
    let stored = Stored {
        table,
        format,
        deadline_seconds,
        deadline_ms: None,
        judged: Vec::new(),
        forfeits: Vec::new(),
    };
    let row = TournamentRow {
        id: crate::ids::new_id("z").map_err(internal)?,
        kind: kind_name.to_string(),
        game: req.game.name().to_string(),
        name,
        host: host.id,
        status: status_of(&stored, now).to_string(),
        state: serde_json::to_string(&stored).map_err(internal)?,
        version: 0,
        created_ms: now,
        updated_ms: now,
    };
    app.store.create_tournament(&row).await.map_err(internal)?;
    ok_json(StatusCode::CREATED, view(&row, &stored, true)?)
}

fn standing(s: Standing, playing: bool) -> TournamentStanding {
    TournamentStanding {
        rank: s.rank,
        guest: s.id,
        name: s.name,
        rating: s.rating,
        points: s.points,
        matches: s.matches,
        tiebreak: s.tiebreak,
        playing,
    }
}

fn table_view(
    round: Option<u32>,
    table: &Option<String>,
    p: &Pairing,
    points: &Option<Vec<f64>>,
    names: &HashMap<String, String>,
) -> TournamentTable {
    TournamentTable {
        round,
        table: table.clone(),
        guests: p.players.clone(),
        names: p.players.iter().map(|g| names.get(g).cloned().unwrap_or_else(|| g.clone())).collect(),
        bots: p.bots as u32,
        points: points.clone(),
    }
}

/// The tournament as the API shows it (`full`: with standings and tables).
fn view(row: &TournamentRow, s: &Stored, full: bool) -> Result<TournamentInfo, ApiError> {
    let now = now_ms();
    let (kind, rounds, round, starts, ends, players) = match &s.format {
        Format::Swiss(w) => {
            (TournamentKind::Swiss, Some(w.rounds), w.played.len() as u32, None, None, w.players.len())
        }
        Format::Arena(a) => {
            (TournamentKind::Arena, None, 0, Some(a.starts_ms), Some(a.ends_ms), a.players.len())
        }
    };
    let mut standings = Vec::new();
    let mut tables = Vec::new();
    if full {
        let names: HashMap<String, String> = match &s.format {
            Format::Swiss(w) => w.players.iter().map(|p| (p.id.clone(), p.name.clone())).collect(),
            Format::Arena(a) => {
                a.players.iter().map(|p| (p.entrant.id.clone(), p.entrant.name.clone())).collect()
            }
        };
        match &s.format {
            Format::Swiss(w) => {
                let busy: Vec<&String> = w
                    .played
                    .last()
                    .map(|r| {
                        r.iter().filter(|t| t.points.is_none()).flat_map(|t| &t.pairing.players).collect()
                    })
                    .unwrap_or_default();
                standings = w
                    .standings()
                    .into_iter()
                    .map(|l| {
                        let playing = busy.contains(&&l.id);
                        standing(l, playing)
                    })
                    .collect();
                for (r, round) in w.played.iter().enumerate().rev() {
                    for t in round {
                        tables.push(table_view(Some(r as u32 + 1), &t.table, &t.pairing, &t.points, &names));
                    }
                }
            }
            Format::Arena(a) => {
                let busy: Vec<&String> =
                    a.tables.iter().filter(|t| t.points.is_none()).flat_map(|t| &t.pairing.players).collect();
                standings = a
                    .standings()
                    .into_iter()
                    .map(|l| {
                        let playing = busy.contains(&&l.id);
                        standing(l, playing)
                    })
                    .collect();
                for t in a.tables.iter().rev() {
                    tables.push(table_view(None, &t.table, &t.pairing, &t.points, &names));
                }
            }
        }
    }
    let game = game_of(row)?;
    let round_open = match &s.format {
        Format::Swiss(w) => w.played.last().is_some_and(|r| r.iter().any(|t| t.points.is_none())),
        Format::Arena(_) => false,
    };
    Ok(TournamentInfo {
        rated: s.table.rated,
        deadline_ms: s.deadline_ms.filter(|_| round_open),
        forfeits: if round_open { s.forfeits.clone() } else { Vec::new() },
        id: row.id.clone(),
        kind,
        game,
        name: row.name.clone(),
        host: row.host.clone(),
        status: status_of(s, now).to_string(),
        rounds,
        round,
        starts_ms: starts,
        ends_ms: ends,
        now_ms: now,
        players: players as u32,
        standings,
        tables,
    })
}

/// `GET /api/tournaments`.
async fn list(State(app): State<Arc<App>>) -> ApiResult {
    let rows = app.store.tournaments(LIST_MAX).await.map_err(internal)?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        out.push(view(row, &decode(row)?, false)?);
    }
    ok_json(StatusCode::OK, TournamentList { tournaments: out })
}

/// `GET /api/tournaments/{id}`: its state, standings and tables.
async fn info(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult {
    let row = app.store.tournament(&id).await.map_err(internal)?.ok_or_else(|| no_tournament(&id))?;
    ok_json(StatusCode::OK, view(&row, &decode(&row)?, true)?)
}

/// `POST /api/tournaments/{id}/join` (with a token).
async fn join(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let row = app.store.tournament(&id).await.map_err(internal)?.ok_or_else(|| no_tournament(&id))?;
    let rated = decode(&row)?.table.rated;
    let e = entrant(&app, &headers, game_of(&row)?, rated).await?;
    let ((), row) = modify(&app, &id, |s, now| {
        let joined = match &mut s.format {
            Format::Swiss(w) => w.join(e.clone()),
            Format::Arena(a) => a.join(e.clone(), now),
        };
        joined.map_err(refused)
    })
    .await?;
    ok_json(StatusCode::OK, view(&row, &decode(&row)?, true)?)
}

/// `POST /api/tournaments/{id}/leave` (with a token): an arena's player is paired no more.
async fn leave(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let (g, _) = crate::api::accounts::identify(&app, bearer(&headers)?).await?;
    let ((), row) = modify(&app, &id, |s, _| match &mut s.format {
        Format::Arena(a) => a.leave(&g.id).map_err(refused),
        Format::Swiss(_) => Err(refused(TournamentError::NotNow("a swiss player plays every round".into()))),
    })
    .await?;
    ok_json(StatusCode::OK, view(&row, &decode(&row)?, true)?)
}

/// `POST /api/tournaments/{id}/start` (its host's token): pairs a swiss's first round.
async fn start(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let (g, _) = crate::api::accounts::identify(&app, bearer(&headers)?).await?;
    let row = app.store.tournament(&id).await.map_err(internal)?.ok_or_else(|| no_tournament(&id))?;
    if row.host != g.id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ApiCode::BadRequest,
            "only the tournament's host starts it",
        ));
    }
    let ((), row) = modify(&app, &id, |s, now| match &s.format {
        Format::Swiss(w) if w.played.is_empty() => s.next_round(now),
        Format::Swiss(_) => Err(refused(TournamentError::NotNow("the swiss has begun".into()))),
        Format::Arena(_) => Err(refused(TournamentError::NotNow("an arena begins at its start time".into()))),
    })
    .await?;
    ok_json(StatusCode::OK, view(&row, &decode(&row)?, true)?)
}

/// The points of a finished (or closed) table's people, seated in seats 0, 1, …
async fn table_points(app: &App, table: &str, people: usize) -> Result<Option<Vec<f64>>, ApiError> {
    let Some(row) = app.store.table(table).await.map_err(internal)? else {
        // The table was never stored: nobody played; all tied.
        return Ok(Some(vec![1.5; people]));
    };
    let results: [f64; SEATS] = match row.status {
        TableStatus::Finished => match crate::api::mygames::final_score(app, &row).await? {
            Some(summary) => summary.standings().map_or([0.0; SEATS], |s| s.map(|x| x.result)),
            None => [0.0; SEATS],
        },
        TableStatus::Closed => [0.0; SEATS],
        _ => return Ok(None),
    };
    Ok(Some(match_points(&results).into_iter().take(people).collect()))
}

/// The people of `players` (seat `i` is `players[i]`) with no connection to the table `summary`
/// shows.
fn absent_from(summary: &wire::TableSummary, players: &[String]) -> Vec<String> {
    players
        .iter()
        .enumerate()
        .filter(|(i, _)| !summary.seats.get(*i).is_some_and(|seat| seat.present))
        .map(|(_, g)| g.clone())
        .collect()
}

/// One look at a tournament this node drives: the results of its tables that ended, then its new
/// tables paired and made.
async fn drive(app: &Arc<App>, id: &str) -> Result<(), ApiError> {
    let row = app.store.tournament(id).await.map_err(internal)?.ok_or_else(|| no_tournament(id))?;
    let s = decode(&row)?;
    // The results of the tables that ended.
    let open: Vec<(String, usize)> = match &s.format {
        Format::Swiss(w) => w
            .played
            .last()
            .map(|r| {
                r.iter()
                    .filter(|t| t.points.is_none())
                    .filter_map(|t| Some((t.table.clone()?, t.pairing.players.len())))
                    .collect()
            })
            .unwrap_or_default(),
        Format::Arena(a) => a
            .tables
            .iter()
            .filter(|t| t.points.is_none())
            .filter_map(|t| Some((t.table.clone()?, t.pairing.players.len())))
            .collect(),
    };
    let mut ended = Vec::new();
    for (table, people) in &open {
        if let Some(points) = table_points(app, table, *people).await? {
            ended.push((table.clone(), points));
        }
    }
    // A swiss round's deadline passed: who is not at his table, wherever in the cluster it runs.
    let mut judged: Vec<(String, Vec<String>)> = Vec::new();
    if let Format::Swiss(w) = &s.format
        && s.deadline_ms.is_some_and(|d| now_ms() >= d)
        && let Some(round) = w.played.last()
    {
        // The other nodes' tables as they last published them, read once, when needed.
        let mut elsewhere: Option<Vec<wire::TableSummary>> = None;
        for t in round.iter().filter(|t| t.points.is_none()) {
            let Some(table) = &t.table else { continue };
            if s.judged.contains(table) || ended.iter().any(|(e, _)| e == table) {
                continue;
            }
            let absent = match app.table(table) {
                // Run here: its seats as they are now (a connection through another node's bus
                // is a connection to the table).
                Some(h) => {
                    let Ok(summary) = h.summary.read().map(|x| x.clone()) else { continue };
                    absent_from(&summary, &t.pairing.players)
                }
                None => {
                    if elsewhere.is_none() {
                        elsewhere = Some(crate::tables::all_summaries(&app.tables).await);
                    }
                    let Some(summary) = elsewhere.iter().flatten().find(|x| x.id == *table) else { continue };
                    // Run by another node: its seats as that node last published them, which
                    // may be a few seconds old, so a person it shows absent who is connected
                    // to a node of the cluster now (`docs/tournaments.md`) is not judged absent.
                    let shown = absent_from(summary, &t.pairing.players);
                    let online = crate::api::friends::online_among(app, &shown).await?;
                    shown.into_iter().filter(|g| !online.contains(g)).collect()
                }
            };
            judged.push((table.clone(), absent));
        }
    }
    // Record them, and pair what is to be paired.
    modify(app, id, |s, now| {
        for (table, absent) in &judged {
            if s.judged.contains(table) {
                continue;
            }
            s.judged.push(table.clone());
            s.forfeits.extend(absent.iter().cloned());
        }
        // A swiss table none of whose people came is over at its deadline: all forfeit.
        let mut ended = ended.clone();
        if let Format::Swiss(w) = &s.format
            && let Some(round) = w.played.last()
        {
            for t in round.iter().filter(|t| t.points.is_none()) {
                let Some(table) = &t.table else { continue };
                let all_absent =
                    s.judged.contains(table) && t.pairing.players.iter().all(|g| s.forfeits.contains(g));
                if all_absent && !ended.iter().any(|(e, _)| e == table) {
                    ended.push((table.clone(), vec![0.0; t.pairing.players.len()]));
                }
            }
        }
        for (table, points) in &ended {
            // A person who forfeited scores 0 (swiss).
            let mut points = points.clone();
            if let Format::Swiss(w) = &s.format
                && let Some(t) =
                    w.played.last().and_then(|r| r.iter().find(|t| t.table.as_ref() == Some(table)))
            {
                for (i, g) in t.pairing.players.iter().enumerate() {
                    if s.forfeits.contains(g)
                        && let Some(p) = points.get_mut(i)
                    {
                        *p = 0.0;
                    }
                }
            }
            let points = &points;
            let r = match &mut s.format {
                Format::Swiss(w) => w.record(table, points.clone()),
                Format::Arena(a) => a.record(table, points.clone(), now),
            };
            // Recorded by an earlier look: nothing to do.
            if let Err(e) = r
                && !matches!(e, TournamentError::TableOver(_))
            {
                return Err(refused(e));
            }
        }
        match &mut s.format {
            Format::Swiss(w) => {
                if !w.played.is_empty() && w.round_over() && !w.finished() {
                    s.next_round(now)?;
                }
            }
            Format::Arena(a) => {
                for p in a.pair(now) {
                    a.seat(p, now).map_err(refused)?;
                }
            }
        }
        Ok(())
    })
    .await?;
    // A table nobody came to is played out by its bots, so that it ends as every table does
    // (its result no longer counts: its people forfeited).
    for (table, absent) in &judged {
        let everyone = open.iter().any(|(t, people)| t == table && *people == absent.len());
        if everyone && let Some(h) = app.table(table) {
            let _ = h.send(crate::tables::Cmd::Request(::table::machine::Request::AutoStart)).await;
        }
    }
    // Make the tables paired and not made yet.
    let row = app.store.tournament(id).await.map_err(internal)?.ok_or_else(|| no_tournament(id))?;
    let s = decode(&row)?;
    let game = game_of(&row)?;
    let (unmade, names): (Vec<(usize, Pairing)>, HashMap<String, String>) = match &s.format {
        Format::Swiss(w) => (
            w.played
                .last()
                .map(|r| {
                    r.iter()
                        .enumerate()
                        .filter(|(_, t)| t.table.is_none())
                        .map(|(i, t)| (i, t.pairing.clone()))
                        .collect()
                })
                .unwrap_or_default(),
            w.players.iter().map(|p| (p.id.clone(), p.name.clone())).collect(),
        ),
        Format::Arena(a) => (
            a.tables
                .iter()
                .enumerate()
                .filter(|(_, t)| t.table.is_none())
                .map(|(i, t)| (i, t.pairing.clone()))
                .collect(),
            a.players.iter().map(|p| (p.entrant.id.clone(), p.entrant.name.clone())).collect(),
        ),
    };
    for (index, pairing) in unmade {
        let people: Vec<(String, String)> = pairing
            .players
            .iter()
            .map(|g| (g.clone(), names.get(g).cloned().unwrap_or_else(|| g.clone())))
            .collect();
        let ratings: Vec<f64> = match &s.format {
            Format::Swiss(w) => {
                w.players.iter().filter(|p| pairing.players.contains(&p.id)).map(|p| p.rating).collect()
            }
            Format::Arena(a) => a
                .players
                .iter()
                .filter(|p| pairing.players.contains(&p.entrant.id))
                .map(|p| p.entrant.rating)
                .collect(),
        };
        let mean = ratings.iter().sum::<f64>() / ratings.len().max(1) as f64;
        let bot = crate::api::pairing::bot_for(game, mean);
        // The table's id is fixed by the tournament, the round and the place (see `start_table`).
        let place = match &s.format {
            Format::Swiss(w) => format!("r{}n{index}", w.played.len().saturating_sub(1)),
            Format::Arena(_) => format!("a{index}"),
        };
        let fixed: String = format!("t{id}{place}").chars().filter(char::is_ascii_alphanumeric).collect();
        // A swiss table begins when the first of its people comes (one nobody comes to is over
        // at the round's deadline); an arena's at once.
        let start = matches!(s.format, Format::Arena(_));
        let table =
            crate::api::pairing::start_table(app, &s.table, &people, &bot, Some(fixed), start).await?;
        modify(app, id, |s, _| match &mut s.format {
            Format::Swiss(w) => w.set_table(index, &table).map_err(refused),
            Format::Arena(a) => a.set_table(index, &table).map_err(refused),
        })
        .await?;
    }
    Ok(())
}

/// Starts the loop that drives the unfinished tournaments this node holds the lease on (see the
/// module).
pub fn spawn_driver(app: &Arc<App>) {
    let weak = Arc::downgrade(app);
    // The lease is held in the node's name in the tables' leases (`docs/deploy.md`).
    let node = app.store.node().to_string();
    tokio::spawn(async move {
        // The leases this node holds, and until when: renewed once half of one is gone.
        let mut held: HashMap<String, i64> = HashMap::new();
        loop {
            tokio::time::sleep(DRIVE_EVERY).await;
            let Some(app) = weak.upgrade() else { return };
            let rows = match app.store.tournaments(LIST_MAX).await {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!("tournaments: {e}");
                    continue;
                }
            };
            held.retain(|id, _| rows.iter().any(|r| r.id == *id && r.status != "finished"));
            for row in rows.iter().filter(|r| r.status != "finished") {
                let now = now_ms();
                let claimed = match held.get(&row.id) {
                    Some(&until) if until - now > LEASE_MS / 2 => Ok(true),
                    _ => {
                        let r = app.store.claim_tournament(&row.id, &node, now, now + LEASE_MS).await;
                        if let Ok(true) = r {
                            held.insert(row.id.clone(), now + LEASE_MS);
                        }
                        r
                    }
                };
                match claimed {
                    Ok(true) => {
                        if let Err(e) = drive(&app, &row.id).await {
                            tracing::warn!("tournament {}: {e:?}", row.id);
                        }
                    }
                    Ok(false) => {
                        held.remove(&row.id);
                    }
                    Err(e) => {
                        held.remove(&row.id);
                        tracing::warn!("tournament {}: {e}", row.id);
                    }
                }
            }
        }
    });
}
