//! The public archive over HTTP (`docs/protocol.md`, "The public archive"): the finished games of
//! tables that were not private, listed newest first a page at a time and searchable by player,
//! each downloadable as its `yezi/1` record, and in bulk (a player's games, or a month's) as the
//! archive format of `docs/record.md`: gzip-compressed JSON Lines, one record a line.
//!
//! A bulk download is streamed: the server reads [`BULK_PAGE`] records at a time and compresses
//! them as they go, so its memory does not grow with the number of games; at most
//! [`BULK_AT_ONCE`] are served at once.

use std::io::Write as _;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use flate2::Compression;
use flate2::write::GzEncoder;
use table::archive::{ARCHIVE_PAGE, ARCHIVE_PAGE_MAX, ArchiveCursor, ArchivePage, month_range};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use wire::ApiCode;

use crate::App;
use crate::api::error::ApiError;
use crate::store::{ArchiveQuery, PlayerMatch};

/// The archive's routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/archive/games", get(list))
        .route("/api/archive/games/{id}", get(one))
        .route("/api/archive/player/{name}", get(player))
        .route("/api/archive/month/{month}", get(month))
}

/// The longest player name a query may give (a person's name is at most 24 characters).
pub const MAX_NAME_CHARS: usize = 64;

/// How many records a bulk download reads from the store at a time.
pub const BULK_PAGE: u32 = 16;

/// How many bulk downloads the server streams at once (others are told to retry).
pub const BULK_AT_ONCE: usize = 4;

/// The media type of the archive format.
pub const ARCHIVE_TYPE: &str = "application/gzip";

fn store_error(e: crate::store::StoreError) -> ApiError {
    ApiError::internal(e.to_string())
}

/// A player's name from a query: trimmed, 1 to [`MAX_NAME_CHARS`] characters.
fn player_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::bad(format!("player: a name of 1 to {MAX_NAME_CHARS} characters")));
    }
    Ok(name.to_string())
}

async fn list(
    State(app): State<Arc<App>>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let limit = match q.get("limit") {
        Some(v) => v
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=ARCHIVE_PAGE_MAX).contains(n))
            .ok_or_else(|| ApiError::bad(format!("limit must be 1 to {ARCHIVE_PAGE_MAX}, not {v:?}")))?,
        None => ARCHIVE_PAGE,
    };
    let after =
        match q.get("before").filter(|b| !b.is_empty()) {
            Some(b) => Some(ArchiveCursor::parse(b).ok_or_else(|| {
                ApiError::bad(format!("before: a page's `next` (MILLISECONDS.ID), not {b:?}"))
            })?),
            None => None,
        };
    let player = match q.get("player").map(|p| p.trim()).filter(|p| !p.is_empty()) {
        Some(p) => Some(PlayerMatch::Contains(player_name(p)?)),
        None => None,
    };
    // One more than the page, to know whether another page follows.
    let query = ArchiveQuery { player, from_ms: None, to_ms: None, after, limit: limit + 1 };
    let mut games = app.store.archived_games(&query).await.map_err(store_error)?;
    let next = if games.len() > limit as usize {
        games.truncate(limit as usize);
        games.last().map(|g| ArchiveCursor::after(g).text())
    } else {
        None
    };
    // Each game's final score, worked out from its table's log (kept once worked out).
    for g in &mut games {
        if let Some(t) = app.store.table(&g.id).await.map_err(store_error)? {
            g.score = crate::api::mygames::final_score(&app, &t).await?;
        }
    }
    Ok(axum::Json(ArchivePage { games, next }).into_response())
}

/// The record of one finished public game, as a file to save.
async fn one(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let no_game =
        || ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoTable, format!("no public finished game {id:?}"));
    let row = app.store.table(&id).await.map_err(store_error)?.ok_or_else(no_game)?;
    let settings: Result<table::settings::TableSettings, _> = serde_json::from_str(&row.settings);
    if settings.map_or(true, |s| s.private) {
        return Err(no_game());
    }
    let Some(text) = app.store.record(&id).await.map_err(store_error)? else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            ApiCode::NotFinished,
            "the game at this table is not over: its record is in the archive once it is",
        ));
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"yezi-{}.json\"", file_part(&id))),
        ],
        text,
    )
        .into_response())
}

/// Every finished public game a person of this name (in any case) played.
async fn player(State(app): State<Arc<App>>, Path(name): Path<String>) -> Result<Response, ApiError> {
    let name = player_name(&name)?;
    let query = ArchiveQuery {
        player: Some(PlayerMatch::Exact(name.clone())),
        from_ms: None,
        to_ms: None,
        after: None,
        limit: BULK_PAGE,
    };
    bulk(app, query, &format!("yezi-archive-player-{}.jsonl.gz", file_part(&name)))
}

/// Every finished public game that ended in this UTC month (`YYYY-MM`).
async fn month(State(app): State<Arc<App>>, Path(month): Path<String>) -> Result<Response, ApiError> {
    let (from, to) = month_range(&month)
        .ok_or_else(|| ApiError::bad(format!("month: YYYY-MM from 1970-01 to 9999-12, not {month:?}")))?;
    let query =
        ArchiveQuery { player: None, from_ms: Some(from), to_ms: Some(to), after: None, limit: BULK_PAGE };
    bulk(app, query, &format!("yezi-archive-{month}.jsonl.gz"))
}

/// A name as a part of a file name: letters and digits kept, anything else `_`.
fn file_part(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect()
}

/// The bulk downloads being streamed.
fn bulk_permits() -> Arc<Semaphore> {
    static PERMITS: std::sync::OnceLock<Arc<Semaphore>> = std::sync::OnceLock::new();
    PERMITS.get_or_init(|| Arc::new(Semaphore::new(BULK_AT_ONCE))).clone()
}

/// Where a bulk download is.
struct Bulk {
    app: Arc<App>,
    query: ArchiveQuery,
    /// Compresses what is written; its buffer holds what is not yet sent.
    gz: Option<GzEncoder<Vec<u8>>>,
    _permit: OwnedSemaphorePermit,
}

/// A record on one line: its line breaks (which JSON allows only between tokens) and the white
/// space around them taken out.
pub fn one_line(record: &str) -> String {
    record.lines().map(str::trim).collect()
}

impl Bulk {
    /// The next piece of the compressed file (`None`: the file is over).
    async fn next(&mut self) -> Option<Result<Bytes, std::io::Error>> {
        let gz = self.gz.as_mut()?;
        let page = match self.app.store.archived_records(&self.query).await {
            Ok(p) => p,
            Err(e) => {
                self.gz = None;
                return Some(Err(std::io::Error::other(e.to_string())));
            }
        };
        if page.is_empty() {
            let gz = self.gz.take()?;
            return Some(gz.finish().map(Bytes::from));
        }
        self.query.after = page.last().map(|(g, _)| ArchiveCursor::after(g));
        for (_, record) in &page {
            let line = one_line(record);
            if let Err(e) = gz.write_all(line.as_bytes()).and_then(|()| gz.write_all(b"\n")) {
                self.gz = None;
                return Some(Err(e));
            }
        }
        Some(Ok(Bytes::from(std::mem::take(gz.get_mut()))))
    }
}

fn bulk(app: Arc<App>, query: ArchiveQuery, file: &str) -> Result<Response, ApiError> {
    let permit = bulk_permits().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            ApiCode::Busy,
            format!("the server streams {BULK_AT_ONCE} archives at once: try again in a minute"),
        )
    })?;
    let state =
        Bulk { app, query, gz: Some(GzEncoder::new(Vec::new(), Compression::default())), _permit: permit };
    let stream =
        futures_util::stream::unfold(state, |mut s| async move { s.next().await.map(|piece| (piece, s)) });
    Ok((
        [
            (header::CONTENT_TYPE, ARCHIVE_TYPE.to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{file}\"")),
        ],
        Body::from_stream(stream),
    )
        .into_response())
}
