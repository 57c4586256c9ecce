//! Tournaments' storage ([`TournamentStore`]): each tournament's state as JSON (the pure state
//! of `crate::tournaments`), written with a version so that two writers never overwrite each
//! other, and a lease on driving it (pairing its rounds, reading its tables' results) so that
//! one node at a time does. Both backends implement it here, over the same SQL (the schema is
//! `super::TOURNAMENT_SCHEMA`).

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use tokio_postgres::Client;

use super::StoreError;
use super::postgres::{PgStore, pg};
use super::sql::sql;
use super::sqlite::{SqliteStore, backend};

/// A stored tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Its id.
    pub id: String,
    /// `swiss` or `arena`.
    pub kind: String,
    /// `madiao` or `dabaifen`.
    pub game: String,
    /// Its name.
    pub name: String,
    /// The guest who made it.
    pub host: String,
    /// `open` (players join), `running` or `finished`.
    pub status: String,
    /// Its state, JSON.
    pub state: String,
    /// Bumped by every write.
    pub version: i64,
    /// When it was made, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When it last changed.
    pub updated_ms: i64,
}

/// Tournaments' storage (see the module).
#[async_trait]
pub trait TournamentStore: Send + Sync {
    /// Stores a new tournament (its `version` as given).
    async fn create_tournament(&self, row: &TournamentRow) -> Result<(), StoreError>;
    /// A tournament by id.
    async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError>;
    /// The tournaments, the unfinished first, then newest first (at most `limit`).
    async fn tournaments(&self, limit: u32) -> Result<Vec<TournamentRow>, StoreError>;
    /// Writes a tournament's status and state if its version is still `version` (then bumped by
    /// one); false, with nothing written, when another write came first.
    async fn update_tournament(
        &self,
        id: &str,
        version: i64,
        status: &str,
        state: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError>;
    /// Takes or renews the lease on driving a tournament for `node` until `until_ms`: true if
    /// `node` holds it (no one held it past `now_ms`, or `node` did).
    async fn claim_tournament(
        &self,
        id: &str,
        node: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError>;
}

sql! {
    /// Stores a new tournament, driven by no node.
    INSERT = "INSERT INTO tournaments (id, kind, game, name, host, status, state, version, driver, driver_until, created_ms, updated_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '', 0, $9, $10)";
    /// Changes a tournament's status and state if its version is still `$5`.
    UPDATE = "UPDATE tournaments SET status = $1, state = $2, version = version + 1, updated_ms = $3 \
     WHERE id = $4 AND version = $5";
    /// Makes node `$1` the tournament's driver until `$2`, if no one else drives it at `$4`.
    CLAIM = "UPDATE tournaments SET driver = $1, driver_until = $2 WHERE id = $3 AND (driver = $1 OR driver_until <= $4)";
    /// One tournament, by id.
    TOURNAMENT = "SELECT id, kind, game, name, host, status, state, version, created_ms, updated_ms \
     FROM tournaments WHERE id = $1";
    /// The tournaments not finished first, then newest first (at most `$1`).
    LIST = "SELECT id, kind, game, name, host, status, state, version, created_ms, updated_ms \
     FROM tournaments ORDER BY CASE WHEN status = 'finished' THEN 1 ELSE 0 END, created_ms DESC, id LIMIT $1";
}

fn lite_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<TournamentRow> {
    Ok(TournamentRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        game: r.get(2)?,
        name: r.get(3)?,
        host: r.get(4)?,
        status: r.get(5)?,
        state: r.get(6)?,
        version: r.get(7)?,
        created_ms: r.get(8)?,
        updated_ms: r.get(9)?,
    })
}

fn pg_row(r: &tokio_postgres::Row) -> TournamentRow {
    TournamentRow {
        id: r.get(0),
        kind: r.get(1),
        game: r.get(2),
        name: r.get(3),
        host: r.get(4),
        status: r.get(5),
        state: r.get(6),
        version: r.get(7),
        created_ms: r.get(8),
        updated_ms: r.get(9),
    }
}

#[async_trait]
impl TournamentStore for SqliteStore {
    async fn create_tournament(&self, row: &TournamentRow) -> Result<(), StoreError> {
        let t = row.clone();
        self.call(move |c| {
            c.execute(
                INSERT.sqlite,
                params![
                    t.id,
                    t.kind,
                    t.game,
                    t.name,
                    t.host,
                    t.status,
                    t.state,
                    t.version,
                    t.created_ms,
                    t.updated_ms
                ],
            )
            .map(|_| ())
            .map_err(backend)
        })
        .await
    }

    async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let id = id.to_string();
        self.call(move |c| c.query_row(TOURNAMENT.sqlite, params![id], lite_row).optional().map_err(backend))
            .await
    }

    async fn tournaments(&self, limit: u32) -> Result<Vec<TournamentRow>, StoreError> {
        self.call(move |c| {
            let mut st = c.prepare(LIST.sqlite).map_err(backend)?;
            let rows = st.query_map(params![i64::from(limit)], lite_row).map_err(backend)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(backend)
        })
        .await
    }

    async fn update_tournament(
        &self,
        id: &str,
        version: i64,
        status: &str,
        state: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let (id, status, state) = (id.to_string(), status.to_string(), state.to_string());
        self.call(move |c| {
            c.execute(UPDATE.sqlite, params![status, state, now_ms, id, version])
                .map(|n| n == 1)
                .map_err(backend)
        })
        .await
    }

    async fn claim_tournament(
        &self,
        id: &str,
        node: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        let (id, node) = (id.to_string(), node.to_string());
        self.call(move |c| {
            c.execute(CLAIM.sqlite, params![node, until_ms, id, now_ms]).map(|n| n == 1).map_err(backend)
        })
        .await
    }
}

#[async_trait]
impl TournamentStore for PgStore {
    async fn create_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        c.execute(
            INSERT.pg,
            &[
                &t.id,
                &t.kind,
                &t.game,
                &t.name,
                &t.host,
                &t.status,
                &t.state,
                &t.version,
                &t.created_ms,
                &t.updated_ms,
            ],
        )
        .await
        .map_err(pg)?;
        Ok(())
    }

    async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let row = c.query_opt(TOURNAMENT.pg, &[&id]).await.map_err(pg)?;
        Ok(row.as_ref().map(pg_row))
    }

    async fn tournaments(&self, limit: u32) -> Result<Vec<TournamentRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c.query(LIST.pg, &[&i64::from(limit)]).await.map_err(pg)?;
        Ok(rows.iter().map(pg_row).collect())
    }

    async fn update_tournament(
        &self,
        id: &str,
        version: i64,
        status: &str,
        state: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let n = c.execute(UPDATE.pg, &[&status, &state, &now_ms, &id, &version]).await.map_err(pg)?;
        Ok(n == 1)
    }

    async fn claim_tournament(
        &self,
        id: &str,
        node: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let n = c.execute(CLAIM.pg, &[&node, &until_ms, &id, &now_ms]).await.map_err(pg)?;
        Ok(n == 1)
    }
}
