//! The puzzles API (`docs/protocol.md`, `docs/puzzles.md`): a game's puzzles by id or place,
//! the puzzle of the day, the next puzzle for a player (the nearest to his puzzle rating among
//! those he has not tried), an attempt judged and rated, and a player's puzzle rating. The
//! puzzles themselves are [`crate::puzzles`].

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use cards::record::GameKind;
use wire::ApiCode;

use crate::App;
use crate::api::error::{ApiError, ApiResult, bearer, body, ok_json, query_number};
use crate::puzzles::{self, JudgeError, PuzzlePosition, PuzzleSet};
use crate::store::puzzles::{AttemptRow, PuzzleRatingRow};
pub use wire::{PuzzleAttempt, PuzzleAttemptReply, PuzzlePlayer, PuzzleRatingChange};

/// The puzzles routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/puzzles/{game}", get(by_index))
        .route("/api/puzzles/{game}/daily", get(daily))
        .route("/api/puzzles/{game}/next", get(next))
        .route("/api/puzzles/{game}/me", get(me))
        .route("/api/puzzles/{game}/id/{id}", get(by_id))
        .route("/api/puzzles/{game}/id/{id}/attempt", post(attempt))
        .layer(DefaultBodyLimit::max(16 * 1024))
}

/// How many of a player's attempts are looked at to choose his next puzzle.
const ATTEMPTS_SCANNED: u32 = 5000;

fn game_of(g: &str) -> Result<GameKind, ApiError> {
    match g {
        "madiao" => Ok(GameKind::Madiao),
        "dabaifen" => Ok(GameKind::Dabaifen),
        other => Err(ApiError::bad(format!("game must be madiao or dabaifen, not {other:?}"))),
    }
}

fn no_puzzle(what: String) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoPuzzle, what)
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

/// A puzzle's position with its current rating.
async fn position(app: &App, set: &PuzzleSet, i: usize) -> Result<PuzzlePosition, ApiError> {
    let mut p = set.show(i).map_err(internal)?;
    let game = set.game().name();
    if let Some(r) = app.store.puzzle_rating("puzzle", game, &p.id).await.map_err(internal)? {
        p.rating = r.rating.rating;
    }
    Ok(p)
}

/// `GET /api/puzzles/{game}?index=I`: the puzzle at place `I` of the list, easiest first (the
/// tutorials' practice takes the first ones).
async fn by_index(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    let set = puzzles::set(game_of(&game)?);
    let i = query_number(&q, "index")?.unwrap_or(0) as usize;
    if i >= set.len() {
        return Err(no_puzzle(format!(
            "{game} has {} puzzle(s), numbered from 0: there is no {i}",
            set.len()
        )));
    }
    ok_json(StatusCode::OK, position(&app, set, i).await?)
}

/// `GET /api/puzzles/{game}/id/{id}`.
async fn by_id(State(app): State<Arc<App>>, Path((game, id)): Path<(String, String)>) -> ApiResult {
    let set = puzzles::set(game_of(&game)?);
    let Some(i) = set.get(&id) else {
        let shown: String = id.chars().take(40).collect();
        return Err(no_puzzle(format!("no {game} puzzle {shown:?}")));
    };
    ok_json(StatusCode::OK, position(&app, set, i).await?)
}

/// `GET /api/puzzles/{game}/daily`: the puzzle of the day (UTC), the same for everyone.
async fn daily(State(app): State<Arc<App>>, Path(game): Path<String>) -> ApiResult {
    let set = puzzles::set(game_of(&game)?);
    let i = set.daily(puzzles::today()).ok_or_else(|| no_puzzle(format!("{game} has no puzzles")))?;
    ok_json(StatusCode::OK, position(&app, set, i).await?)
}

fn player_of(row: Option<PuzzleRatingRow>) -> PuzzlePlayer {
    match row {
        Some(r) => PuzzlePlayer {
            rating: r.rating.rating,
            deviation: r.rating.deviation,
            attempts: r.attempts,
            solved: r.solved,
        },
        None => {
            let r = puzzles::new_player();
            PuzzlePlayer { rating: r.rating, deviation: r.deviation, attempts: 0, solved: 0 }
        }
    }
}

/// `GET /api/puzzles/{game}/me` (with the guest's token): his puzzle rating.
async fn me(State(app): State<Arc<App>>, Path(game): Path<String>, headers: HeaderMap) -> ApiResult {
    let game = game_of(&game)?;
    let (g, _) = crate::api::accounts::identify(&app, bearer(&headers)?).await?;
    let row = app.store.puzzle_rating("player", game.name(), &g.id).await.map_err(internal)?;
    ok_json(StatusCode::OK, player_of(row))
}

/// `GET /api/puzzles/{game}/next` (with the guest's token): the puzzle nearest his puzzle rating
/// among those he has not tried (once he has tried them all, the nearest of all).
async fn next(State(app): State<Arc<App>>, Path(game): Path<String>, headers: HeaderMap) -> ApiResult {
    let kind = game_of(&game)?;
    let (g, _) = crate::api::accounts::identify(&app, bearer(&headers)?).await?;
    let set = puzzles::set(kind);
    let me = player_of(app.store.puzzle_rating("player", kind.name(), &g.id).await.map_err(internal)?);
    let tried: HashSet<String> = app
        .store
        .attempts(&g.id, kind.name(), ATTEMPTS_SCANNED)
        .await
        .map_err(internal)?
        .into_iter()
        .map(|a| a.puzzle)
        .collect();
    // The starting ratings stand for the puzzles' (one lookup per puzzle would be too many).
    let rating = |i: usize| puzzles::initial_rating(set.difficulty(i)).rating;
    let tried_it = |i: usize| set.id(i).is_some_and(|id| tried.contains(id));
    let i = set
        .nearest(me.rating, &rating, &tried_it)
        .or_else(|| set.nearest(me.rating, &rating, &|_| false))
        .ok_or_else(|| no_puzzle(format!("{game} has no puzzles")))?;
    ok_json(StatusCode::OK, position(&app, set, i).await?)
}

/// `POST /api/puzzles/{game}/id/{id}/attempt`, body `{"action": ACTION, "rated": true}`: the
/// choice judged; with a guest's token, the player's first attempt at a puzzle is rated
/// (Glicko-2, the player against the puzzle) unless `rated` is false.
async fn attempt(
    State(app): State<Arc<App>>,
    Path((game, id)): Path<(String, String)>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    let kind = game_of(&game)?;
    // Without a token the choice is judged, not rated.
    let guest = match headers.get(axum::http::header::AUTHORIZATION) {
        Some(_) => Some(crate::api::accounts::identify(&app, bearer(&headers)?).await?.0),
        None => None,
    };
    let req: PuzzleAttempt = body(&bytes)?;
    let set = puzzles::set(kind);
    let Some(i) = set.get(&id) else {
        let shown: String = id.chars().take(40).collect();
        return Err(no_puzzle(format!("no {game} puzzle {shown:?}")));
    };
    let verdict = set.judge(i, &req.action).map_err(|e| match e {
        JudgeError::Bad(m) => ApiError::internal(m),
        other => ApiError::bad(format!("action: {other}")),
    })?;
    let mut change = None;
    if let Some(g) = guest.filter(|_| req.rated.unwrap_or(true)) {
        let g_name = kind.name();
        let player = app.store.puzzle_rating("player", g_name, &g.id).await.map_err(internal)?;
        let puzzle = app.store.puzzle_rating("puzzle", g_name, &id).await.map_err(internal)?;
        let p0 = player.map_or_else(puzzles::new_player, |r| r.rating);
        let q0 = puzzle.map_or_else(|| puzzles::initial_rating(set.difficulty(i)), |r| r.rating);
        let (p1, q1) = puzzles::rate(p0, q0, verdict.right).map_err(internal)?;
        let solved = u64::from(verdict.right);
        let prow = PuzzleRatingRow {
            rating: p1,
            attempts: player.map_or(0, |r| r.attempts) + 1,
            solved: player.map_or(0, |r| r.solved) + solved,
        };
        let qrow = PuzzleRatingRow {
            rating: q1,
            attempts: puzzle.map_or(0, |r| r.attempts) + 1,
            solved: puzzle.map_or(0, |r| r.solved) + solved,
        };
        let row = AttemptRow {
            guest: g.id.clone(),
            game: g_name.to_string(),
            puzzle: id.clone(),
            at_ms: crate::ids::now_ms(),
            solved: verdict.right,
            rating_before: p0.rating,
            rating_after: p1.rating,
        };
        if app.store.record_attempt(&row, &prow, &qrow).await.map_err(internal)? {
            change = Some(PuzzleRatingChange {
                before: p0.rating,
                after: p1.rating,
                puzzle_before: q0.rating,
                puzzle_after: q1.rating,
            });
        }
    }
    ok_json(StatusCode::OK, PuzzleAttemptReply { verdict, rating: change })
}
