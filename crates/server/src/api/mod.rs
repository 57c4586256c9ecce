//! The HTTP API (see `docs/protocol.md`), one module per concern: guests, the lobby, tables,
//! records, replays and statistics ([`tables`]); accounts and sessions ([`accounts`]); the archive
//! of finished games ([`archive`]); ratings ([`ratings`]); a player's own games ([`mygames`]);
//! who may see a private table's game, and its share token ([`privacy`]); puzzles ([`puzzles`]);
//! duplicate events ([`events`]); quick pairing ([`pairing`]) and tournaments ([`tournaments`]).
//! Every handler answers errors as one [`ApiError`] ([`error`]).

use std::sync::Arc;

use axum::Router;

use crate::App;

pub mod accounts;
pub mod archive;
pub mod error;
pub mod events;
pub mod friends;
pub mod guard;
pub mod hashing;
pub mod moderation;
pub mod mygames;
pub mod pairing;
pub mod privacy;
pub mod puzzles;
pub mod ratings;
pub mod tables;
pub mod tournaments;
pub mod tv;

pub use error::ApiError;

/// Every route of the API.
pub fn routes() -> Router<Arc<App>> {
    tables::routes()
        .merge(accounts::routes())
        .merge(mygames::routes())
        .merge(archive::routes())
        .merge(ratings::routes())
        .merge(moderation::routes())
        .merge(privacy::routes())
        .merge(puzzles::routes())
        .merge(tv::routes())
        .merge(friends::routes())
        .merge(events::routes())
        .merge(pairing::routes())
        .merge(tournaments::routes())
}
