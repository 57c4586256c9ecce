//! Live tables (the TV, `docs/protocol.md`, "Live tables (TV)"): `GET /api/tv` lists the live
//! public tables, the highest-rated first. Watching one is the WebSocket's `tv` message: the
//! table's delayed stream ([`table::machine`]'s delayed watchers), never the live one.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use wire::{SeatKind, TableStatus, TvReply, TvTable};

use crate::App;
use crate::api::error::{ApiError, ApiResult, ok_json};

/// The most tables `GET /api/tv` lists.
pub const TV_TABLES: usize = 20;

/// The TV's routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/tv", get(tv))
}

/// The live public tables (a match under way), ranked by the mean rating of their rated people
/// in the table's game (tables without a rated person after, by how many people play, then the
/// newest first).
async fn tv(State(app): State<Arc<App>>) -> ApiResult {
    let live: Vec<_> = crate::tables::all_summaries(&app.tables)
        .await
        .into_iter()
        .filter(|s| !s.private && s.status == TableStatus::Playing)
        .collect();
    // Each person's ratings, asked once.
    let mut ratings: HashMap<String, Vec<crate::ratings::RatingRow>> = HashMap::new();
    let mut tables = Vec::with_capacity(live.len());
    for t in live {
        let game = t.game.name();
        let mut sum = 0.0;
        let mut rated = 0u32;
        let mut people = 0u32;
        for s in &t.seats {
            let (SeatKind::Person, Some(g)) = (s.kind, &s.guest) else { continue };
            people += 1;
            if !ratings.contains_key(g) {
                let rows = app.store.ratings_of(g).await.map_err(|e| ApiError::internal(e.to_string()))?;
                ratings.insert(g.clone(), rows);
            }
            if let Some(r) = ratings[g].iter().find(|r| r.game == game) {
                sum += r.rating;
                rated += 1;
            }
        }
        let rating = (rated > 0).then(|| sum / f64::from(rated));
        tables.push(TvTable { table: t, rating, people });
    }
    tables.sort_by(|a, b| {
        let r = |t: &TvTable| t.rating.unwrap_or(f64::NEG_INFINITY);
        r(b).total_cmp(&r(a))
            .then(b.people.cmp(&a.people))
            .then(b.table.created_ms.cmp(&a.table.created_ms))
            .then(a.table.id.cmp(&b.table.id))
    });
    tables.truncate(TV_TABLES);
    let delay_tricks = app.tables.deps.tv_delay.load(Ordering::Relaxed);
    ok_json(StatusCode::OK, TvReply { delay_tricks, tables })
}
