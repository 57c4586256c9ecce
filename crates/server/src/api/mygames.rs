//! "My games": `GET /api/account/games`, the finished games the token's guest played, newest
//! first, with filters (game, result, opponent, rated) and pages; each names its replay.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::Router;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::get;
use cards::Seat;
use cards::record::GameKind;
use table::history::{MyGame, MyGames, Outcome};
use table::log::SeatRow;
use table::settings::TableSettings;
use table::standings::MatchStandings;
use wire::MatchSummary;

use crate::App;
use crate::api::error::{ApiError, ApiResult, bearer, ok_json, query_number};
use crate::store::{TableRow, TableStatus};

/// The route of a player's own games.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/account/games", get(my_games)).layer(DefaultBodyLimit::max(16 * 1024))
}

/// How many of the guest's newest tables are looked through (hosted or seated, finished or not).
pub const TABLES_SCANNED: u32 = 1000;
/// A page's size when none is asked for.
pub const GAMES_PAGE: u32 = 20;
/// The largest page.
pub const GAMES_PAGE_MAX: u32 = 100;
/// How many finished matches' scores are kept worked out (a finished match never changes).
const SCORES_KEPT: usize = 10_000;

/// The final scores of finished matches already worked out, by table id (`None`: no standings,
/// a Da Bai Fen match without a winner).
fn kept() -> &'static Mutex<HashMap<String, Option<MatchSummary>>> {
    static KEPT: OnceLock<Mutex<HashMap<String, Option<MatchSummary>>>> = OnceLock::new();
    KEPT.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The filters of a request.
struct Filters {
    game: Option<GameKind>,
    result: Option<Outcome>,
    /// Lowercase.
    opponent: Option<String>,
    /// Rated tables only (`true`) or casual ones only (`false`).
    rated: Option<bool>,
}

fn filters(q: &HashMap<String, String>) -> Result<Filters, ApiError> {
    let game = match q.get("game").map(String::as_str) {
        None | Some("") => None,
        Some("madiao") => Some(GameKind::Madiao),
        Some("dabaifen") => Some(GameKind::Dabaifen),
        Some(g) => return Err(ApiError::bad(format!("game must be madiao or dabaifen, not {g:?}"))),
    };
    let result = match q.get("result").map(String::as_str) {
        None | Some("") => None,
        Some(r) => Some(
            Outcome::parse(r)
                .ok_or_else(|| ApiError::bad(format!("result must be won, lost or drawn, not {r:?}")))?,
        ),
    };
    let opponent = match q.get("opponent").map(|o| o.trim()) {
        None | Some("") => None,
        Some(o) if o.chars().count() > 64 => {
            return Err(ApiError::bad("opponent: a name has at most 64 characters"));
        }
        Some(o) => Some(o.to_lowercase()),
    };
    let rated = match q.get("rated").map(String::as_str) {
        None | Some("") => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(r) => return Err(ApiError::bad(format!("rated must be true or false, not {r:?}"))),
    };
    Ok(Filters { game, result, opponent, rated })
}

/// The name a seat shows (`bot:NAME` for a bot), if anyone holds it.
fn seat_name(s: &SeatRow) -> Option<String> {
    match s {
        SeatRow::Open => None,
        SeatRow::Bot(b) => Some(format!("bot:{b}")),
        SeatRow::Person { name, .. } => Some(name.clone()),
    }
}

/// The final score of a finished table's match, from its log (kept once worked out); `None`
/// when the match has no standings (not over, or a Da Bai Fen match without a winner).
pub(crate) async fn final_score(app: &App, t: &TableRow) -> Result<Option<MatchSummary>, ApiError> {
    if let Some(s) = kept().lock().ok().and_then(|k| k.get(&t.id).cloned()) {
        return Ok(s);
    }
    let doc: TableSettings = serde_json::from_str(&t.settings)
        .map_err(|e| ApiError::internal(format!("table {}: settings: {e}", t.id)))?;
    let log = app.store.actions(&t.id).await.map_err(|e| ApiError::internal(e.to_string()))?;
    let (seed, id) = (t.seed, t.id.clone());
    // Replaying a match takes the engines' time: off the async workers.
    let summary = tokio::task::spawn_blocking(move || table::history::match_summary(&doc, seed, &log))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .map_err(|e| ApiError::internal(format!("table {id}: {e}")))?;
    let score = summary.standings().is_some().then_some(summary);
    if let Ok(mut k) = kept().lock() {
        if k.len() >= SCORES_KEPT {
            k.clear();
        }
        k.insert(t.id.clone(), score.clone());
    }
    Ok(score)
}

/// `GET /api/account/games?game=G&result=R&opponent=NAME&rated=true|false&offset=K&limit=N`.
pub async fn my_games(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    let (g, _) = crate::api::accounts::identify(&app, bearer(&headers)?).await?;
    let f = filters(&q)?;
    let offset = query_number(&q, "offset")?.unwrap_or(0);
    let limit = query_number(&q, "limit")?.unwrap_or(GAMES_PAGE);
    if !(1..=GAMES_PAGE_MAX).contains(&limit) {
        return Err(ApiError::bad(format!("limit must be 1 to {GAMES_PAGE_MAX}, not {limit}")));
    }
    let rows = app
        .store
        .tables_of_guest(&g.id, TABLES_SCANNED)
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let mut games = Vec::new();
    let mut kept_rows = Vec::new();
    for t in rows {
        if t.status != TableStatus::Finished {
            continue;
        }
        let Some(seat) = t
            .seats
            .iter()
            .position(|s| matches!(s, SeatRow::Person { guest, .. } if *guest == g.id))
            .and_then(|i| Seat::new(i as u8))
        else {
            continue;
        };
        let game = match t.game.as_str() {
            "madiao" => GameKind::Madiao,
            "dabaifen" => GameKind::Dabaifen,
            _ => continue,
        };
        if f.game.is_some_and(|want| want != game) {
            continue;
        }
        let settings = serde_json::from_str::<serde_json::Value>(&t.settings).ok();
        let rated =
            settings.as_ref().and_then(|v| v.get("rated")).and_then(serde_json::Value::as_bool) == Some(true);
        if f.rated.is_some_and(|want| want != rated) {
            continue;
        }
        let players: [String; 4] = std::array::from_fn(|i| {
            seat_name(&t.seats[i]).unwrap_or_else(|| format!("bot:{}", table::bots::default_bot_of(game)))
        });
        if let Some(o) = &f.opponent
            && !players
                .iter()
                .enumerate()
                .any(|(i, p)| i != seat.index() && p.to_lowercase().contains(o.as_str()))
        {
            continue;
        }
        let Some(score) = final_score(&app, &t).await? else { continue };
        let Some(standings) = score.standings() else { continue };
        let result = table::history::outcome(&standings, seat);
        if f.result.is_some_and(|want| want != result) {
            continue;
        }
        let name = settings
            .as_ref()
            .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(str::to_string))
            .unwrap_or_default();
        kept_rows.push(t.clone());
        games.push(MyGame {
            replay: format!("/replay/{}", t.id),
            id: t.id,
            game,
            name,
            seat: seat.number(),
            players,
            result,
            score,
            rated,
            created_ms: t.created_ms,
            accuracy: None,
        });
    }
    let total = u32::try_from(games.len()).unwrap_or(u32::MAX);
    let end = offset.saturating_add(limit).min(total);
    let mut page: Vec<MyGame> = games.into_iter().skip(offset as usize).take(limit as usize).collect();
    // The accuracy of the page's games only: from their stored analyses (a game whose record
    // cannot be read shows none rather than failing the list).
    for (game, row) in page.iter_mut().zip(kept_rows.iter().skip(offset as usize)) {
        game.accuracy = crate::analysis::match_accuracy(&app, row, game.seat).await.ok();
    }
    let next = (end < total).then_some(end);
    ok_json(StatusCode::OK, MyGames { games: page, total, offset, limit, next })
}
