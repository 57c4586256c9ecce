//! The ratings API (`docs/ratings.md`): a leaderboard per game, a player's profile, the rating
//! changes of one finished rated match, and the check of a rated table's creation. The rules themselves are [`crate::ratings`].

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::get;
use cards::record::GameKind;
use table::log::SeatRow;
use wire::{
    ApiCode, GameRating, LEADERBOARD_PAGE_MAX, LeaderboardEntry, LeaderboardReply, PROFILE_HISTORY,
    PROFILE_RECENT, PlayerProfile, RatedResult, RatingChange, TableRatings,
};

use crate::App;
use crate::api::error::{ApiError, ApiResult, ok_json, query_number};
use crate::ratings::{HistoryRow, PROVISIONAL_DEVIATION, account_required, game_name};
use crate::tables::has_account;

/// Checks a rated table's creation: its host has an account, and a person's seat is in it (a
/// rated table of four bots would rate nobody).
pub(crate) async fn check_rated(
    app: &App,
    host: &str,
    seats: Option<&[wire::SeatChoice]>,
) -> Result<(), ApiError> {
    if !has_account(app.store.as_ref(), host).await.map_err(internal)? {
        return Err(account_required().into());
    }
    use wire::SeatChoice;
    if let Some(seats) = seats
        && !seats.iter().any(|s| matches!(s, SeatChoice::Me | SeatChoice::Open))
    {
        return Err(ApiError::bad("seats: a rated table needs a seat for a person (me or open)"));
    }
    Ok(())
}

/// The ratings routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/ratings/{game}", get(leaderboard))
        .route("/api/players/{name}", get(profile))
        .route("/api/tables/{id}/ratings", get(table_ratings))
}

/// How far back in a person's rated matches [`table_ratings`] looks for the table's (it is asked
/// for when the match has just ended: its row is the newest).
const TABLE_RATINGS_LOOKBACK: u32 = 50;

/// `GET /api/tables/{id}/ratings`: each person's rating change in the table's rated match (none
/// while it is not over, or for a casual table).
async fn table_ratings(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    // A private table's players are named to those who may see its game only.
    let Some(row) = crate::api::privacy::visible_row(&app, &id, &headers, None).await? else {
        let shown: String = id.chars().take(40).collect();
        return Err(ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoTable, format!("no table {shown:?}")));
    };
    let mut changes = Vec::new();
    for (seat, s) in row.seats.iter().enumerate() {
        let SeatRow::Person { guest, name } = s else { continue };
        let history = app.store.rating_history(guest, TABLE_RATINGS_LOOKBACK).await.map_err(internal)?;
        if let Some(h) = history.iter().find(|h| h.table == row.id) {
            changes.push(RatingChange {
                seat: seat as u8,
                name: name.clone(),
                rating_before: h.before.rating,
                rating_after: h.after.rating,
                outcome: h.outcome(),
                forfeited: h.forfeited,
            });
        }
    }
    ok_json(StatusCode::OK, TableRatings { table: row.id, changes })
}

/// The leaderboard's page size when none is asked for.
pub const LEADERBOARD_PAGE: u32 = 50;

fn game_of(name: &str) -> Result<GameKind, ApiError> {
    match name {
        "madiao" => Ok(GameKind::Madiao),
        "dabaifen" => Ok(GameKind::Dabaifen),
        other => {
            let shown: String = other.chars().take(40).collect();
            Err(ApiError::new(
                StatusCode::NOT_FOUND,
                ApiCode::BadRequest,
                format!("no game {shown:?}: the games are madiao and dabaifen"),
            ))
        }
    }
}

fn internal(e: crate::store::StoreError) -> ApiError {
    ApiError::internal(e.to_string())
}

/// `GET /api/ratings/{game}?offset=&limit=`.
async fn leaderboard(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    let game = game_of(&game)?;
    let offset = query_number(&q, "offset")?.unwrap_or(0);
    let limit = query_number(&q, "limit")?.unwrap_or(LEADERBOARD_PAGE);
    if !(1..=LEADERBOARD_PAGE_MAX).contains(&limit) {
        return Err(ApiError::bad(format!("limit must be 1 to {LEADERBOARD_PAGE_MAX}, not {limit}")));
    }
    let (rows, total) = app.store.leaderboard(game_name(game), offset, limit).await.map_err(internal)?;
    let entries = rows
        .into_iter()
        .enumerate()
        .map(|(i, (username, r))| LeaderboardEntry {
            rank: offset + i as u32 + 1,
            username,
            rating: r.rating,
            deviation: r.deviation,
            games: r.games,
            provisional: r.deviation > PROVISIONAL_DEVIATION,
        })
        .collect();
    let end = offset.saturating_add(limit).min(total);
    ok_json(
        StatusCode::OK,
        LeaderboardReply { game, entries, total, offset, limit, next: (end < total).then_some(end) },
    )
}

fn result_of(h: &HistoryRow) -> Option<RatedResult> {
    Some(RatedResult {
        table: h.table.clone(),
        game: match h.game.as_str() {
            "madiao" => GameKind::Madiao,
            "dabaifen" => GameKind::Dabaifen,
            _ => return None,
        },
        at_ms: h.at_ms,
        rating_before: h.before.rating,
        rating_after: h.after.rating,
        deviation_after: h.after.deviation,
        score: h.score,
        opponents: h.opponents,
        outcome: h.outcome(),
        forfeited: h.forfeited,
    })
}

/// `GET /api/players/{name}`: the account of that username (in any case). It tells whether a
/// username exists, so each address has an allowance of lookups (`429` with `Retry-After` past it).
async fn profile(
    State(app): State<Arc<App>>,
    crate::listen::Peer(peer): crate::listen::Peer,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> ApiResult {
    crate::api::accounts::lookup_allowance(&app, peer)?;
    let no_player = || {
        let shown: String = name.chars().take(40).collect();
        ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoPlayer, format!("no account {shown:?}"))
    };
    let key = crate::api::accounts::username_key(&name).map_err(|_| no_player())?;
    let account = app.store.account_by_username(&key).await.map_err(internal)?.ok_or_else(no_player)?;
    let ratings = app
        .store
        .ratings_of(&account.guest)
        .await
        .map_err(internal)?
        .into_iter()
        .filter_map(|r| {
            Some(GameRating {
                game: game_of(&r.game).ok()?,
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
                games: r.games,
                wins: r.wins,
                losses: r.losses,
                draws: r.draws,
                provisional: r.deviation > PROVISIONAL_DEVIATION,
            })
        })
        .collect();
    let mut rows = app.store.rating_history(&account.guest, PROFILE_HISTORY).await.map_err(internal)?;
    // Private games are the player's own: listed to him alone (a bad token is refused).
    let me = crate::api::privacy::requester(&app, &headers).await?;
    if me.as_deref() != Some(account.guest.as_str()) {
        let mut private = HashMap::new();
        for h in &rows {
            if !private.contains_key(&h.table) {
                let row = app.store.table(&h.table).await.map_err(internal)?;
                private.insert(h.table.clone(), row.as_ref().is_none_or(crate::api::privacy::is_private));
            }
        }
        rows.retain(|h| private.get(&h.table) == Some(&false));
    }
    let newest_first: Vec<RatedResult> = rows.iter().filter_map(result_of).collect();
    let recent = newest_first.iter().take(PROFILE_RECENT).cloned().collect();
    let mut history = newest_first;
    history.reverse();
    ok_json(
        StatusCode::OK,
        PlayerProfile {
            username: account.username,
            guest: account.guest,
            joined_ms: account.created_ms,
            ratings,
            recent,
            history,
        },
    )
}
