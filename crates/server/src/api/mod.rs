//! The HTTP API (see `docs/protocol.md`), one module per concern: guests, the lobby, tables,
//! records, replays and statistics ([`tables`]); accounts and sessions ([`accounts`]); the archive
//! of finished games ([`archive`]); ratings ([`ratings`]); a player's own games ([`mygames`]);
//! who may see a private table's game, and its share token ([`privacy`]).
//! Every handler answers errors as one [`ApiError`] ([`error`]).

use std::sync::Arc;

use axum::Router;

use crate::App;

pub mod accounts;
pub mod archive;
pub mod error;
pub mod guard;
pub mod hashing;
pub mod moderation;
pub mod mygames;
pub mod privacy;
pub mod ratings;
pub mod tables;

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
}
