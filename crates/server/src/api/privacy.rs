//! Who may see a stored game (`docs/protocol.md`, "Private games"): a public table's game is
//! anyone's; a private table's is served only to its host and the persons seated at it, and, once
//! its match is over, to whoever holds its **share token** (which its host reads with
//! `GET /api/tables/{id}/share`). Everyone else is told there is no such game: a private game's
//! existence is not revealed by its id.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::get;
use sha2::{Digest, Sha256};

use crate::App;
use crate::api::error::{ApiError, ApiResult, bearer, ok_json};
use crate::store::{SeatRow, TableRow, TableStatus};
use wire::{ApiCode, ShareReply};

/// The share route.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/tables/{id}/share", get(share))
}

/// Whether the table was created private (a row whose settings cannot be read, or whose `private`
/// is not `false` or missing, counts as private: kept back rather than shown).
pub fn is_private(row: &TableRow) -> bool {
    match serde_json::from_str::<serde_json::Value>(&row.settings) {
        // A missing `private` is a public table (the settings' default).
        Ok(v) if v.is_object() => v.get("private").is_some_and(|p| p.as_bool() != Some(false)),
        _ => true,
    }
}

/// The share token of a table's game: 32 hex digits of SHA-256 over a fixed label, the table's
/// secret seed and its id. It cannot be guessed without the seed (64 secret bits, never served
/// before the match is over, and then only inside the record to those who may see it), and it
/// needs no storage; it cannot be revoked either (the host shares it or not).
pub fn share_token(row: &TableRow) -> String {
    let mut h = Sha256::new();
    h.update(b"yezi share token v1\0");
    h.update(row.seed.to_le_bytes());
    h.update(row.id.as_bytes());
    h.finalize().iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// Whether `guest` (`None`: no token sent) hosted the table or holds a seat at it.
pub fn is_member(row: &TableRow, guest: Option<&str>) -> bool {
    let Some(g) = guest else { return false };
    row.host.as_deref() == Some(g)
        || row.seats.iter().any(|s| matches!(s, SeatRow::Person { guest, .. } if guest == g))
}

/// Whether the game at `row` may be served to `guest` holding `share` (either may be missing):
/// a public game to anyone; a private one to its host and seated persons, and to the holder of
/// its share token once its match is finished.
pub fn may_see(row: &TableRow, guest: Option<&str>, share: Option<&str>) -> bool {
    if !is_private(row) || is_member(row, guest) {
        return true;
    }
    row.status == TableStatus::Finished
        && share.is_some_and(|s| {
            let want = share_token(row);
            // Compared in full whatever the first difference (no timing hint of the token).
            s.len() == want.len() && s.bytes().zip(want.bytes()).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0
        })
}

/// The guest of the request's `Authorization` header, if it has one (a bad token is refused).
pub async fn requester(app: &App, headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    match headers.get(header::AUTHORIZATION) {
        Some(_) => Ok(Some(crate::api::accounts::identify(app, bearer(headers)?).await?.0.id)),
        None => Ok(None),
    }
}

/// What a stranger is told of a private game: that there is no such table.
pub fn hidden(id: &str) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoTable, format!("no table {shown:?}"))
}

/// The table's row, if the requester may see its game; [`hidden`] if there is none or he may
/// not.
pub async fn visible_row(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    share: Option<&str>,
) -> Result<Option<TableRow>, ApiError> {
    let Some(row) = app.store.table(id).await.map_err(|e| ApiError::internal(e.to_string()))? else {
        return Ok(None);
    };
    let guest = if is_private(&row) { requester(app, headers).await? } else { None };
    if may_see(&row, guest.as_deref(), share) { Ok(Some(row)) } else { Err(hidden(id)) }
}

/// `GET /api/tables/{id}/share`: the host's share token of his table's game, and the paths that
/// carry it (a public table's game needs none: anyone may see it, and the token is given all the
/// same). Anyone but the host is told there is no such table (`404`).
async fn share(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult {
    let row = app.store.table(&id).await.map_err(|e| ApiError::internal(e.to_string()))?;
    let Some(row) = row else { return Err(hidden(&id)) };
    let guest = requester(&app, &headers).await?;
    if row.host.is_none() || row.host != guest {
        return Err(hidden(&id));
    }
    let token = share_token(&row);
    let finished = row.status == TableStatus::Finished;
    let private = is_private(&row);
    ok_json(
        StatusCode::OK,
        ShareReply {
            replay: format!("/replay/{}?share={token}", row.id),
            record: format!("/api/records/{}?share={token}", row.id),
            table: row.id,
            private,
            token,
            finished,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(private: bool, status: TableStatus) -> TableRow {
        TableRow {
            id: "tabc".into(),
            game: "madiao".into(),
            settings: format!(r#"{{"name":"x","private":{private}}}"#),
            seed: 7,
            host: Some("host".into()),
            status,
            created_ms: 1,
            seats: [
                SeatRow::Person { guest: "p".into(), name: "P".into() },
                SeatRow::Open,
                SeatRow::Bot("random".into()),
                SeatRow::Open,
            ],
        }
    }

    #[test]
    fn a_private_game_is_its_members_and_after_the_match_the_share_tokens() {
        let done = row(true, TableStatus::Finished);
        let token = share_token(&done);
        assert_eq!(token.len(), 32);
        assert!(may_see(&done, Some("host"), None) && may_see(&done, Some("p"), None));
        assert!(!may_see(&done, Some("stranger"), None) && !may_see(&done, None, None));
        assert!(may_see(&done, None, Some(&token)));
        assert!(!may_see(&done, None, Some(&token[..31])) && !may_see(&done, None, Some("")));
        let mut other = done.clone();
        other.seed = 8;
        assert_ne!(share_token(&other), token, "another seed, another token");
        // Before the end, the token is no key.
        assert!(!may_see(&row(true, TableStatus::Playing), None, Some(&token)));
        // A public game is anyone's.
        assert!(may_see(&row(false, TableStatus::Finished), None, None));
    }
}
