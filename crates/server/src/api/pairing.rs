//! Quick pairing, "play now" (`docs/tournaments.md`, "Quick pairing"; `docs/protocol.md`,
//! "Play now"): a player joins his game's queue; whenever anyone asks, the queue is paired by
//! [`crate::tournaments::quick::pair`] (the nearest ratings together, bots only for those left
//! once one of them accepts bots) and each table is made as any other table is, its people in
//! their seats and the bots nearest their ratings in the others, and started at once.
//!
//! The queues are kept in the store ([`crate::store::play_now`]), shared by the nodes of a
//! cluster and kept across a restart: a player waiting through one node is paired with players
//! waiting through any other. Any node may pair a queue when one of its players asks; each
//! player of a table is taken from the queue by one conditional write that only one node can
//! make, so no one is seated twice. A player who has not asked for [`STALE_MS`] is taken out of
//! the queue (he closed the page).

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use cards::record::GameKind;
use table::machine::Request;
use table::settings::TableSettings;
use wire::{ApiCode, NewTable};

use crate::App;
use crate::api::error::{ApiError, ApiResult, bearer, body, ok_json};
use crate::ids::now_ms;
use crate::store::SeatRow;
use crate::store::play_now::PlayNowRow;
use crate::tables::{self, CreateError};
use crate::tournaments::quick::{self, Waiting};
use crate::tournaments::{Pairing, SEATS};
pub use wire::{PlayNowRequest, PlayNowState, PlayNowStatus};

/// The play-now routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/play-now/{game}", post(join).get(status).delete(leave))
        .layer(DefaultBodyLimit::max(4 * 1024))
}

/// A waiting player not heard from for this long (milliseconds) leaves the queue.
pub const STALE_MS: i64 = 20_000;

/// The wait for people before bots, when the player does not choose it (seconds).
pub const DEFAULT_WAIT_SECONDS: u32 = 30;

/// The shortest and longest waits a player may choose (seconds).
pub const WAIT_RANGE: std::ops::RangeInclusive<u32> = 5..=300;

/// How long a seated player's table is remembered for him (milliseconds).
const SEATED_KEPT_MS: i64 = 10 * 60_000;

/// How long a player taken from the queue by a node may stay unseated before he waits again
/// (the node died while it made his table), in milliseconds.
const STUCK_MS: i64 = 15_000;

/// A person in a queue.
#[derive(Clone, Debug)]
struct Entry {
    guest: String,
    name: String,
    rating: f64,
    account: bool,
    since_ms: i64,
    bots_ms: i64,
}

impl Entry {
    fn of(r: &PlayNowRow) -> Entry {
        Entry {
            guest: r.guest.clone(),
            name: r.name.clone(),
            rating: r.rating,
            account: r.account,
            since_ms: r.since_ms,
            bots_ms: r.bots_ms,
        }
    }
}

fn game_of(g: &str) -> Result<GameKind, ApiError> {
    match g {
        "madiao" => Ok(GameKind::Madiao),
        "dabaifen" => Ok(GameKind::Dabaifen),
        other => {
            let shown: String = other.chars().take(40).collect();
            Err(ApiError::bad(format!("game must be madiao or dabaifen, not {shown:?}")))
        }
    }
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

/// The bot for a table of people rated about `mean`: the calibrated bot nearest it (not the
/// random one, which is there to be beaten), else the game's default.
pub fn bot_for(game: GameKind, mean: f64) -> String {
    let names = table::bots::bot_names(game);
    crate::ratings::BOT_RATINGS
        .iter()
        .filter(|(g, b, _)| *g == game && *b != "random" && names.contains(b))
        .min_by(|a, b| (a.2 - mean).abs().total_cmp(&(b.2 - mean).abs()))
        .map_or_else(|| table::bots::default_bot_of(game).to_string(), |(_, b, _)| b.to_string())
}

/// The tables to make of the waiting players in `rows` at `now` (the pure rule,
/// [`quick::pair`]), each with its people.
fn tick(rows: &[PlayNowRow], now: i64) -> Vec<(Pairing, Vec<Entry>)> {
    let list: Vec<Entry> = rows.iter().filter(|r| r.table.is_none()).map(Entry::of).collect();
    let waiting: Vec<Waiting> = list
        .iter()
        .map(|e| Waiting { id: e.guest.clone(), key: e.rating, since_ms: e.since_ms, bots_ms: e.bots_ms })
        .collect();
    quick::pair(&waiting, now)
        .into_iter()
        .map(|p| {
            let people =
                p.players.iter().filter_map(|id| list.iter().find(|e| e.guest == *id).cloned()).collect();
            (p, people)
        })
        .collect()
}

/// Makes one table of a pairing and starts it; the people's seats are theirs.
async fn make_table(app: &Arc<App>, game: GameKind, people: &[Entry]) -> Result<String, ApiError> {
    let mean = people.iter().map(|e| e.rating).sum::<f64>() / people.len().max(1) as f64;
    let bot = bot_for(game, mean);
    // Rated when every person has an account (a rated seat is for accounts only).
    let rated = people.iter().all(|e| e.account);
    let seated: Vec<(String, String)> = people.iter().map(|e| (e.guest.clone(), e.name.clone())).collect();
    let mut req = NewTable::new(game);
    req.rated = rated;
    req.name = Some("Play now".to_string());
    start_table(app, &req, &seated, &bot, None, true).await
}

/// Makes a table of `req`'s settings with these people (guest id, name) in seats 0, 1, … and
/// `bot` in the seats left, hosted by the first, and starts its match at once: the way quick
/// pairing and tournaments make their tables (ordinary tables). A table whose only person plays
/// bots is untimed unless rated, as `POST /api/tables` makes it.
///
/// With `fixed`, the table gets that id (a tournament's table, whose id its tournament, round
/// and place fix): when two nodes make it at once, or a node makes it again after another made
/// it and died before noting it, one table is made and both get its id, so that no one is
/// seated at two tables of one pairing.
/// Without `start`, the match begins when the first of its people joins the table (every seat
/// being taken), not at once.
pub(crate) async fn start_table(
    app: &Arc<App>,
    req: &NewTable,
    people: &[(String, String)],
    bot: &str,
    fixed: Option<String>,
    start: bool,
) -> Result<String, ApiError> {
    let (host, _) = people.first().ok_or_else(|| ApiError::internal("a table without people"))?;
    let seats: [SeatRow; SEATS] = std::array::from_fn(|i| match people.get(i) {
        Some((guest, name)) => SeatRow::Person { guest: guest.clone(), name: name.clone() },
        None => SeatRow::Bot(bot.to_string()),
    });
    let untimed = !req.rated && people.len() == 1;
    let settings = TableSettings {
        name: req.name.clone().unwrap_or_else(|| "Play now".to_string()),
        game: req.game,
        rules: req.rules.clone(),
        variants: req.variants.clone(),
        stake: req.stake,
        stake_max: None,
        turn_seconds: req.turn_seconds,
        private: false,
        pace: req.pace,
        grace_seconds: req.grace_seconds,
        untimed,
        bank_seconds: if untimed { 0 } else { wire::BANK_DEFAULT },
        zero_cash: req.zero_cash,
        rated: req.rated,
        board: None,
        no_aids: false,
    };
    tables::check_settings(&settings).map_err(|e| ApiError::from(wire::Refusal::from(e)))?;
    let fixed = match fixed {
        Some(id) => Some((id, app.new_table_seed().map_err(internal)?)),
        None => None,
    };
    let made = app.tables.create_fixed(&settings, host, seats, None, fixed.clone()).await;
    let (id, handle) = match (made, fixed) {
        (Ok(made), _) => made,
        // Made already (by another node, or before a restart): the table that is.
        (Err(CreateError::Internal(_)), Some((id, _)))
            if app.store.table(&id).await.map_err(internal)?.is_some() =>
        {
            return Ok(id);
        }
        (Err(e), _) => {
            return Err(match e {
                CreateError::TooMany { .. } | CreateError::TooManyBotTables(_) => {
                    ApiError::new(StatusCode::TOO_MANY_REQUESTS, ApiCode::TooManyTables, e.to_string())
                }
                CreateError::Internal(why) => ApiError::internal(why),
            });
        }
    };
    // Every seat is taken: the match begins at once.
    if start {
        let _ = handle.send(tables::Cmd::Request(Request::AutoStart)).await;
    }
    Ok(id)
}

/// Pairs the queue of `game` (noting that `guest` asked) and makes its tables. Each player of a
/// table is first taken from the queue ([`crate::store::play_now::PlayNowStore::take_waiting`]):
/// when another node took one of them first, the others go back where they were, and the next
/// look pairs again. A table that cannot be made puts its people back too.
async fn pair_now(app: &Arc<App>, game: GameKind, guest: &str) -> Result<(), ApiError> {
    let now = now_ms();
    let store = app.store.as_ref();
    store.seen_play_now(guest, game.name(), now).await.map_err(internal)?;
    let rows = store
        .play_now_queue(game.name(), now - STALE_MS, now - SEATED_KEPT_MS, now - STUCK_MS)
        .await
        .map_err(internal)?;
    for (_, people) in tick(&rows, now) {
        let mut taken = Vec::new();
        for e in &people {
            if store.take_waiting(&e.guest, game.name(), now).await.map_err(internal)? {
                taken.push(e.guest.clone());
            } else {
                break;
            }
        }
        if taken.len() < people.len() {
            for g in &taken {
                store.untake(g).await.map_err(internal)?;
            }
            continue;
        }
        match make_table(app, game, &people).await {
            Ok(id) => {
                for (i, e) in people.iter().enumerate() {
                    let with: Vec<&str> =
                        people.iter().filter(|o| o.guest != e.guest).map(|o| o.name.as_str()).collect();
                    let with = serde_json::to_string(&with).map_err(internal)?;
                    store.seat_play_now(&e.guest, &id, i as u8, &with, now).await.map_err(internal)?;
                }
            }
            Err(err) => {
                tracing::warn!("play now: a table could not be made: {err:?}");
                for e in &people {
                    store.untake(&e.guest).await.map_err(internal)?;
                }
            }
        }
    }
    Ok(())
}

/// The player's state in the queue of `game`.
async fn status_of(app: &App, game: GameKind, guest: &str, rating: f64) -> Result<PlayNowStatus, ApiError> {
    let now = now_ms();
    let rows = app
        .store
        .play_now_queue(game.name(), now - STALE_MS, now - SEATED_KEPT_MS, now - STUCK_MS)
        .await
        .map_err(internal)?;
    let waiting = rows.iter().filter(|r| r.waiting()).count();
    let mine = rows.iter().find(|r| r.guest == guest);
    let state = match mine {
        Some(r) if r.waiting() => PlayNowState::Waiting,
        Some(_) => PlayNowState::Seated,
        None => PlayNowState::Idle,
    };
    let waits = mine.filter(|r| r.waiting());
    let seated = mine.filter(|r| !r.waiting());
    Ok(PlayNowStatus {
        game,
        state,
        rating: waits.map_or(rating, |e| e.rating),
        waiting: u32::try_from(waiting).unwrap_or(u32::MAX),
        since_ms: waits.map(|e| e.since_ms),
        bots_ms: waits.map(|e| e.bots_ms),
        now_ms: now,
        table: seated.and_then(|s| s.table.clone()),
        seat: seated.and_then(|s| s.seat),
        with: seated.map(|s| serde_json::from_str(&s.with).unwrap_or_default()).unwrap_or_default(),
    })
}

/// The guest asking, his rating in `game` and whether he has an account.
async fn who(
    app: &App,
    headers: &HeaderMap,
    game: GameKind,
) -> Result<(crate::store::GuestRow, f64, bool), ApiError> {
    let (g, _) = crate::api::accounts::identify(app, bearer(headers)?).await?;
    let account = tables::has_account(app.store.as_ref(), &g.id).await.map_err(internal)?;
    let rows = if account { app.store.ratings_of(&g.id).await.map_err(internal)? } else { Vec::new() };
    let rating = crate::ratings::rating_of(rows.iter().find(|r| r.game == game.name())).rating;
    Ok((g, rating, account))
}

/// `POST /api/play-now/{game}`, body `{"wait_seconds": N}` (optional): joins the game's queue
/// (a player already waiting keeps his place; one lately seated is seated afresh).
async fn join(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    let game = game_of(&game)?;
    let req: PlayNowRequest = if bytes.is_empty() { PlayNowRequest::default() } else { body(&bytes)? };
    let wait = req.wait_seconds.unwrap_or(DEFAULT_WAIT_SECONDS);
    if !WAIT_RANGE.contains(&wait) {
        return Err(ApiError::bad(format!(
            "wait_seconds must be {} to {}, not {wait}",
            WAIT_RANGE.start(),
            WAIT_RANGE.end()
        )));
    }
    let (g, rating, account) = who(&app, &headers, game).await?;
    let now = now_ms();
    let row = PlayNowRow {
        guest: g.id.clone(),
        game: game.name().to_string(),
        name: g.name.clone(),
        rating,
        account,
        since_ms: now,
        bots_ms: now + i64::from(wait) * 1000,
        seen_ms: now,
        table: None,
        seat: None,
        with: "[]".to_string(),
        seated_ms: 0,
    };
    app.store.join_play_now(&row).await.map_err(internal)?;
    pair_now(&app, game, &g.id).await?;
    ok_json(StatusCode::OK, status_of(&app, game, &g.id, rating).await?)
}

/// `GET /api/play-now/{game}`: the player's state (asking keeps him in the queue, and pairs it).
async fn status(State(app): State<Arc<App>>, Path(game): Path<String>, headers: HeaderMap) -> ApiResult {
    let game = game_of(&game)?;
    let (g, rating, _) = who(&app, &headers, game).await?;
    pair_now(&app, game, &g.id).await?;
    ok_json(StatusCode::OK, status_of(&app, game, &g.id, rating).await?)
}

/// `DELETE /api/play-now/{game}`: leaves the queue (and forgets a seating).
async fn leave(State(app): State<Arc<App>>, Path(game): Path<String>, headers: HeaderMap) -> ApiResult {
    let game = game_of(&game)?;
    let (g, rating, _) = who(&app, &headers, game).await?;
    app.store.leave_play_now(&g.id, game.name()).await.map_err(internal)?;
    ok_json(StatusCode::OK, status_of(&app, game, &g.id, rating).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(guest: &str, rating: f64, since_ms: i64, table: Option<&str>) -> PlayNowRow {
        PlayNowRow {
            guest: guest.into(),
            game: "madiao".into(),
            name: guest.into(),
            rating,
            account: false,
            since_ms,
            bots_ms: since_ms + 30_000,
            seen_ms: since_ms,
            table: table.map(str::to_string),
            seat: None,
            with: "[]".into(),
            seated_ms: 0,
        }
    }

    #[test]
    fn only_the_waiting_are_paired() {
        let rows = vec![
            row("a", 1500.0, 0, None),
            row("b", 1500.0, 0, None),
            row("c", 1500.0, 0, Some("t1")),
            row("d", 1500.0, 0, Some("")),
            row("e", 1500.0, 0, None),
            row("f", 1500.0, 0, None),
        ];
        // Four wait ("c" is seated, "d" is being seated by another node): one table of them.
        let made = tick(&rows, 1000);
        assert_eq!(made.len(), 1);
        let mut ids = made[0].0.players.clone();
        ids.sort();
        assert_eq!(ids, vec!["a", "b", "e", "f"]);
        assert_eq!(made[0].1.len(), 4);
        assert!(tick(&rows[..2], 1000).is_empty(), "two wait, before their bots");
    }

    #[test]
    fn the_bot_is_the_one_nearest_the_table() {
        assert_eq!(bot_for(GameKind::Dabaifen, 1660.0), "expert");
        assert_eq!(bot_for(GameKind::Dabaifen, 1400.0), "heuristic");
        assert_ne!(bot_for(GameKind::Madiao, 200.0), "random");
    }
}
