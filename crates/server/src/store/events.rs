//! Duplicate events' storage ([`EventStore`]): one row per event, its document (JSON, see
//! `crate::duplicate::EventDoc`) with a version that every change must name, so that two nodes
//! (or two requests) never both apply a change to the same version. Both backends implement it
//! here, over the same SQL.

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use tokio_postgres::Client;

use super::StoreError;
use super::postgres::{PgStore, pg};
use super::sql::sql;
use super::sqlite::{SqliteStore, backend};
use crate::ratings::RatedEvent;

/// An event as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// The event's id.
    pub id: String,
    /// The host's guest id.
    pub host: String,
    /// `open`, `playing` or `finished`.
    pub status: String,
    /// Made, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Changes so far (0 when made).
    pub version: i64,
    /// The document (JSON).
    pub doc: String,
}

/// Duplicate events' storage (see the module).
#[async_trait]
pub trait EventStore: Send + Sync {
    /// Stores a new event (its version 0); an id already stored is a conflict.
    async fn create_event(&self, row: &EventRow) -> Result<(), StoreError>;
    /// One event.
    async fn event(&self, id: &str) -> Result<Option<EventRow>, StoreError>;
    /// Replaces the event's status and document if its version is still `version`, making it
    /// `version + 1`; false (nothing written) when another change came first.
    async fn update_event(&self, id: &str, version: i64, status: &str, doc: &str)
    -> Result<bool, StoreError>;
    /// The newest events (at most `limit`), newest first; only those not finished with
    /// `unfinished`.
    async fn events(&self, unfinished: bool, limit: u32) -> Result<Vec<EventRow>, StoreError>;
    /// Finishes a rated event: as [`EventStore::update_event`] to status `finished`, and in the
    /// same transaction its accounts' ratings updated from `event` (`docs/events.md`, "Rated
    /// events"), unless its people's tables have history rows already. False (nothing written)
    /// when another change came first: so an event's ratings change once, whichever node
    /// finishes it, however often.
    async fn finish_rated_event(
        &self,
        id: &str,
        version: i64,
        doc: &str,
        event: &RatedEvent,
    ) -> Result<bool, StoreError>;
}

sql! {
    /// Stores a new event, at version 0.
    INSERT = "INSERT INTO events (id, host, status, created_ms, version, doc) VALUES ($1, $2, $3, $4, 0, $5)";
    /// Changes an event's status (`$3`) and document (`$4`) if its version is still `$2`.
    UPDATE = "UPDATE events SET status = $3, doc = $4, version = version + 1 WHERE id = $1 AND version = $2";
    /// One event, by id.
    EVENT = "SELECT id, host, status, created_ms, version, doc FROM events WHERE id = $1";
    /// The newest events, at most `$1`.
    SELECT_ALL =
        "SELECT id, host, status, created_ms, version, doc FROM events ORDER BY created_ms DESC, id LIMIT $1";
    /// The newest events not finished, at most `$1`.
    SELECT_UNFINISHED = "SELECT id, host, status, created_ms, version, doc FROM events \
        WHERE status <> 'finished' ORDER BY created_ms DESC, id LIMIT $1";
}

fn lite_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<EventRow> {
    Ok(EventRow {
        id: r.get(0)?,
        host: r.get(1)?,
        status: r.get(2)?,
        created_ms: r.get(3)?,
        version: r.get(4)?,
        doc: r.get(5)?,
    })
}

fn pg_row(r: &tokio_postgres::Row) -> EventRow {
    EventRow {
        id: r.get(0),
        host: r.get(1),
        status: r.get(2),
        created_ms: r.get(3),
        version: r.get(4),
        doc: r.get(5),
    }
}

#[async_trait]
impl EventStore for SqliteStore {
    async fn create_event(&self, row: &EventRow) -> Result<(), StoreError> {
        let row = row.clone();
        self.call(move |c| {
            c.execute(INSERT.sqlite, params![row.id, row.host, row.status, row.created_ms, row.doc])
                .map_err(backend)?;
            Ok(())
        })
        .await
    }

    async fn event(&self, id: &str) -> Result<Option<EventRow>, StoreError> {
        let id = id.to_string();
        self.call(move |c| c.query_row(EVENT.sqlite, params![id], lite_row).optional().map_err(backend)).await
    }

    async fn update_event(
        &self,
        id: &str,
        version: i64,
        status: &str,
        doc: &str,
    ) -> Result<bool, StoreError> {
        let (id, status, doc) = (id.to_string(), status.to_string(), doc.to_string());
        self.call(move |c| {
            let n = c.execute(UPDATE.sqlite, params![id, version, status, doc]).map_err(backend)?;
            Ok(n == 1)
        })
        .await
    }

    async fn events(&self, unfinished: bool, limit: u32) -> Result<Vec<EventRow>, StoreError> {
        self.call(move |c| {
            let sql = if unfinished { SELECT_UNFINISHED } else { SELECT_ALL };
            let mut st = c.prepare(sql.sqlite).map_err(backend)?;
            let rows = st.query_map(params![i64::from(limit)], lite_row).map_err(backend)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(backend)
        })
        .await
    }

    async fn finish_rated_event(
        &self,
        id: &str,
        version: i64,
        doc: &str,
        event: &RatedEvent,
    ) -> Result<bool, StoreError> {
        let (id, doc, event) = (id.to_string(), doc.to_string(), event.clone());
        // One job: its savepoint makes the finish and the ratings all or none.
        self.call(move |c| {
            let n = c.execute(UPDATE.sqlite, params![id, version, "finished", doc]).map_err(backend)?;
            if n != 1 {
                return Ok(false);
            }
            super::sqlite::write_event_rated(c, &id, &event)?;
            Ok(true)
        })
        .await
    }
}

#[async_trait]
impl EventStore for PgStore {
    async fn create_event(&self, row: &EventRow) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        c.execute(INSERT.pg, &[&row.id, &row.host, &row.status, &row.created_ms, &row.doc])
            .await
            .map_err(pg)?;
        Ok(())
    }

    async fn event(&self, id: &str) -> Result<Option<EventRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let row = c.query_opt(EVENT.pg, &[&id]).await.map_err(pg)?;
        Ok(row.as_ref().map(pg_row))
    }

    async fn update_event(
        &self,
        id: &str,
        version: i64,
        status: &str,
        doc: &str,
    ) -> Result<bool, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let n = c.execute(UPDATE.pg, &[&id, &version, &status, &doc]).await.map_err(pg)?;
        Ok(n == 1)
    }

    async fn events(&self, unfinished: bool, limit: u32) -> Result<Vec<EventRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let sql = if unfinished { SELECT_UNFINISHED } else { SELECT_ALL };
        let rows = c.query(sql.pg, &[&i64::from(limit)]).await.map_err(pg)?;
        Ok(rows.iter().map(pg_row).collect())
    }

    async fn finish_rated_event(
        &self,
        id: &str,
        version: i64,
        doc: &str,
        event: &RatedEvent,
    ) -> Result<bool, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        // The event's row is locked by the update: a second node finishing it at once waits,
        // then finds the version changed and writes nothing.
        let n = tx.execute(UPDATE.pg, &[&id, &version, &"finished", &doc]).await.map_err(pg)?;
        if n != 1 {
            tx.rollback().await.map_err(pg)?;
            return Ok(false);
        }
        super::postgres::write_event_rated(&tx, id, event).await?;
        tx.commit().await.map_err(pg)?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event is stored, changed only from the version it was read at, listed, and kept
    /// across a reopening of the database.
    #[tokio::test]
    async fn events_are_stored_changed_by_version_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("e.db");
        let s = SqliteStore::open(path.to_str().unwrap()).unwrap();
        let row = EventRow {
            id: "e1".into(),
            host: "g1".into(),
            status: "open".into(),
            created_ms: 5,
            version: 0,
            doc: "{}".into(),
        };
        s.create_event(&row).await.unwrap();
        assert!(s.create_event(&row).await.is_err(), "an id stored twice");
        assert!(s.update_event("e1", 0, "playing", "{\"a\":1}").await.unwrap());
        assert!(!s.update_event("e1", 0, "finished", "{\"b\":2}").await.unwrap(), "a stale version");
        let got = s.event("e1").await.unwrap().unwrap();
        assert_eq!((got.version, got.status.as_str(), got.doc.as_str()), (1, "playing", "{\"a\":1}"));
        assert_eq!(s.events(true, 10).await.unwrap().len(), 1);
        assert!(s.update_event("e1", 1, "finished", "{}").await.unwrap());
        assert!(s.events(true, 10).await.unwrap().is_empty());
        drop(s);
        let s = SqliteStore::open(path.to_str().unwrap()).unwrap();
        assert_eq!(s.events(false, 10).await.unwrap()[0].id, "e1");
        assert!(s.event("nope").await.unwrap().is_none());
    }
}
