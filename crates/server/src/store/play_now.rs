//! Quick pairing's queue in the store ([`PlayNowStore`], `docs/tournaments.md`, "Where it
//! runs"): one row per player who asked to play now, shared by every node of a cluster and kept
//! across a restart. A row is *waiting* (no table), *being seated* (its table is the empty
//! string: one node took it to make a table) or *seated* (at a table). A node takes each player
//! of a table it pairs by one conditional write ([`PlayNowStore::take_waiting`]), which succeeds
//! for one node only, so that no player is seated twice however many nodes pair the queue at
//! once. Both backends implement it here, over the same SQL.

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use tokio_postgres::Client;

use super::StoreError;
use super::postgres::{PgStore, pg};
use super::sql::sql;
use super::sqlite::{SqliteStore, backend};

/// A player in the queue (or lately seated from it).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayNowRow {
    /// His guest id.
    pub guest: String,
    /// The game he waits for: `madiao` or `dabaifen`.
    pub game: String,
    /// His name.
    pub name: String,
    /// His rating in the game when he joined.
    pub rating: f64,
    /// Whether he has an account.
    pub account: bool,
    /// When he began to wait, milliseconds since the Unix epoch.
    pub since_ms: i64,
    /// From when he accepts bots.
    pub bots_ms: i64,
    /// When he last asked.
    pub seen_ms: i64,
    /// His table: `None` while he waits, `Some("")` while a node seats him, else the table.
    pub table: Option<String>,
    /// His seat there.
    pub seat: Option<u8>,
    /// The names of the others seated with him (JSON list).
    pub with: String,
    /// When his table was taken (or made).
    pub seated_ms: i64,
}

impl PlayNowRow {
    /// Whether he still waits (not yet at a table: waiting or being seated).
    pub fn waiting(&self) -> bool {
        self.table.as_deref().is_none_or(str::is_empty)
    }
}

/// Quick pairing's queue (see the module).
#[async_trait]
pub trait PlayNowStore: Send + Sync {
    /// Puts `row`'s player in the queue of `row.game`: one already waiting in that game keeps
    /// his place (his arrival and wait), only noted as seen; otherwise (another game's queue, a
    /// seating) his row starts afresh from `row`.
    async fn join_play_now(&self, row: &PlayNowRow) -> Result<(), StoreError>;
    /// Notes that `guest` asked at `now_ms` (while he waits in `game`).
    async fn seen_play_now(&self, guest: &str, game: &str, now_ms: i64) -> Result<(), StoreError>;
    /// Tidies the queue, then its rows in `game`: drops the waiting players not seen since
    /// `stale_before`, the seatings made before `seated_before`, and puts back in the queue the
    /// players a node began to seat before `stuck_before` (the node died meanwhile).
    async fn play_now_queue(
        &self,
        game: &str,
        stale_before: i64,
        seated_before: i64,
        stuck_before: i64,
    ) -> Result<Vec<PlayNowRow>, StoreError>;
    /// Takes `guest`, waiting in `game`, to seat him (at `now_ms`): true for the one caller whose
    /// write found him waiting.
    async fn take_waiting(&self, guest: &str, game: &str, now_ms: i64) -> Result<bool, StoreError>;
    /// Puts a player taken by [`PlayNowStore::take_waiting`] back in the queue where he was.
    async fn untake(&self, guest: &str) -> Result<(), StoreError>;
    /// Notes the table a taken player was seated at.
    async fn seat_play_now(
        &self,
        guest: &str,
        table: &str,
        seat: u8,
        with: &str,
        now_ms: i64,
    ) -> Result<(), StoreError>;
    /// The row of `guest`.
    async fn play_now_of(&self, guest: &str) -> Result<Option<PlayNowRow>, StoreError>;
    /// Takes `guest` out of the queue of `game` (and forgets his seating there).
    async fn leave_play_now(&self, guest: &str, game: &str) -> Result<(), StoreError>;
}

sql! {
    /// Puts a player in a game's queue, keeping the place of one already waiting in it (see
    /// [`PlayNowStore::join_play_now`]).
    JOIN = "INSERT INTO play_now (guest, game, name, rating, account, since_ms, bots_ms, seen_ms, \
     table_id, seat, with_names, seated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL, '[]', 0) \
     ON CONFLICT (guest) DO UPDATE SET \
     since_ms = CASE WHEN COALESCE(play_now.table_id, '') = '' AND play_now.game = excluded.game \
        THEN play_now.since_ms ELSE excluded.since_ms END, \
     bots_ms = CASE WHEN COALESCE(play_now.table_id, '') = '' AND play_now.game = excluded.game \
        THEN play_now.bots_ms ELSE excluded.bots_ms END, \
     rating = CASE WHEN COALESCE(play_now.table_id, '') = '' AND play_now.game = excluded.game \
        THEN play_now.rating ELSE excluded.rating END, \
     game = excluded.game, name = excluded.name, account = excluded.account, \
     seen_ms = excluded.seen_ms, table_id = CASE WHEN play_now.table_id = '' \
        AND play_now.game = excluded.game THEN '' ELSE NULL END, \
     seat = NULL, with_names = '[]'";
    /// Notes that a player waiting in a game asked at `$3`.
    SEEN = "UPDATE play_now SET seen_ms = $3 WHERE guest = $1 AND game = $2";
    /// Drops the waiting players not seen since `$1` and the seatings made before `$2`.
    DROP_STALE =
        "DELETE FROM play_now WHERE (table_id IS NULL AND seen_ms < $1) OR (table_id <> '' AND seated_ms < $2)";
    /// Puts back in the queue the players a node began to seat before `$1`.
    UNSTICK = "UPDATE play_now SET table_id = NULL WHERE table_id = '' AND seated_ms < $1";
    /// A game's queue, in order of arrival.
    QUEUE = "SELECT guest, game, name, rating, account, since_ms, bots_ms, seen_ms, table_id, seat, \
     with_names, seated_ms FROM play_now WHERE game = $1 ORDER BY since_ms, guest";
    /// Takes a waiting player to seat him (at `$3`).
    TAKE =
        "UPDATE play_now SET table_id = '', seated_ms = $3 WHERE guest = $1 AND game = $2 AND table_id IS NULL";
    /// Puts a taken player back in the queue.
    UNTAKE = "UPDATE play_now SET table_id = NULL WHERE guest = $1 AND table_id = ''";
    /// Notes the table, seat and companions of a taken player.
    SEAT = "UPDATE play_now SET table_id = $2, seat = $3, with_names = $4, seated_ms = $5 \
     WHERE guest = $1 AND table_id = ''";
    /// Takes a player out of a game's queue.
    LEAVE = "DELETE FROM play_now WHERE guest = $1 AND game = $2";
    /// One player's row.
    ROW_OF = "SELECT guest, game, name, rating, account, since_ms, bots_ms, seen_ms, table_id, seat, \
     with_names, seated_ms FROM play_now WHERE guest = $1";
}

fn seat_of(n: Option<i64>) -> Option<u8> {
    n.and_then(|n| u8::try_from(n).ok())
}

fn lite_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PlayNowRow> {
    Ok(PlayNowRow {
        guest: r.get(0)?,
        game: r.get(1)?,
        name: r.get(2)?,
        rating: r.get(3)?,
        account: r.get::<_, i64>(4)? != 0,
        since_ms: r.get(5)?,
        bots_ms: r.get(6)?,
        seen_ms: r.get(7)?,
        table: r.get(8)?,
        seat: seat_of(r.get(9)?),
        with: r.get(10)?,
        seated_ms: r.get(11)?,
    })
}

fn pg_row(r: &tokio_postgres::Row) -> PlayNowRow {
    PlayNowRow {
        guest: r.get(0),
        game: r.get(1),
        name: r.get(2),
        rating: r.get(3),
        account: r.get::<_, i64>(4) != 0,
        since_ms: r.get(5),
        bots_ms: r.get(6),
        seen_ms: r.get(7),
        table: r.get(8),
        seat: seat_of(r.get(9)),
        with: r.get(10),
        seated_ms: r.get(11),
    }
}

#[async_trait]
impl PlayNowStore for SqliteStore {
    async fn join_play_now(&self, row: &PlayNowRow) -> Result<(), StoreError> {
        let r = row.clone();
        self.call(move |c| {
            c.execute(
                JOIN.sqlite,
                params![
                    r.guest,
                    r.game,
                    r.name,
                    r.rating,
                    i64::from(r.account),
                    r.since_ms,
                    r.bots_ms,
                    r.seen_ms
                ],
            )
            .map(|_| ())
            .map_err(backend)
        })
        .await
    }

    async fn seen_play_now(&self, guest: &str, game: &str, now_ms: i64) -> Result<(), StoreError> {
        let (guest, game) = (guest.to_string(), game.to_string());
        self.call(move |c| c.execute(SEEN.sqlite, params![guest, game, now_ms]).map(|_| ()).map_err(backend))
            .await
    }

    async fn play_now_queue(
        &self,
        game: &str,
        stale_before: i64,
        seated_before: i64,
        stuck_before: i64,
    ) -> Result<Vec<PlayNowRow>, StoreError> {
        let game = game.to_string();
        self.call(move |c| {
            c.execute(DROP_STALE.sqlite, params![stale_before, seated_before]).map_err(backend)?;
            c.execute(UNSTICK.sqlite, params![stuck_before]).map_err(backend)?;
            let mut st = c.prepare(QUEUE.sqlite).map_err(backend)?;
            let rows = st.query_map(params![game], lite_row).map_err(backend)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(backend)
        })
        .await
    }

    async fn take_waiting(&self, guest: &str, game: &str, now_ms: i64) -> Result<bool, StoreError> {
        let (guest, game) = (guest.to_string(), game.to_string());
        self.call(move |c| {
            c.execute(TAKE.sqlite, params![guest, game, now_ms]).map(|n| n == 1).map_err(backend)
        })
        .await
    }

    async fn untake(&self, guest: &str) -> Result<(), StoreError> {
        let guest = guest.to_string();
        self.call(move |c| c.execute(UNTAKE.sqlite, params![guest]).map(|_| ()).map_err(backend)).await
    }

    async fn seat_play_now(
        &self,
        guest: &str,
        table: &str,
        seat: u8,
        with: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let (guest, table, with) = (guest.to_string(), table.to_string(), with.to_string());
        self.call(move |c| {
            c.execute(SEAT.sqlite, params![guest, table, i64::from(seat), with, now_ms])
                .map(|_| ())
                .map_err(backend)
        })
        .await
    }

    async fn play_now_of(&self, guest: &str) -> Result<Option<PlayNowRow>, StoreError> {
        let guest = guest.to_string();
        self.call(move |c| c.query_row(ROW_OF.sqlite, params![guest], lite_row).optional().map_err(backend))
            .await
    }

    async fn leave_play_now(&self, guest: &str, game: &str) -> Result<(), StoreError> {
        let (guest, game) = (guest.to_string(), game.to_string());
        self.call(move |c| c.execute(LEAVE.sqlite, params![guest, game]).map(|_| ()).map_err(backend)).await
    }
}

#[async_trait]
impl PlayNowStore for PgStore {
    async fn join_play_now(&self, r: &PlayNowRow) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let account = i64::from(r.account);
        c.execute(
            JOIN.pg,
            &[&r.guest, &r.game, &r.name, &r.rating, &account, &r.since_ms, &r.bots_ms, &r.seen_ms],
        )
        .await
        .map_err(pg)?;
        Ok(())
    }

    async fn seen_play_now(&self, guest: &str, game: &str, now_ms: i64) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        c.execute(SEEN.pg, &[&guest, &game, &now_ms]).await.map_err(pg)?;
        Ok(())
    }

    async fn play_now_queue(
        &self,
        game: &str,
        stale_before: i64,
        seated_before: i64,
        stuck_before: i64,
    ) -> Result<Vec<PlayNowRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        c.execute(DROP_STALE.pg, &[&stale_before, &seated_before]).await.map_err(pg)?;
        c.execute(UNSTICK.pg, &[&stuck_before]).await.map_err(pg)?;
        let rows = c.query(QUEUE.pg, &[&game]).await.map_err(pg)?;
        Ok(rows.iter().map(pg_row).collect())
    }

    async fn take_waiting(&self, guest: &str, game: &str, now_ms: i64) -> Result<bool, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let n = c.execute(TAKE.pg, &[&guest, &game, &now_ms]).await.map_err(pg)?;
        Ok(n == 1)
    }

    async fn untake(&self, guest: &str) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        c.execute(UNTAKE.pg, &[&guest]).await.map_err(pg)?;
        Ok(())
    }

    async fn seat_play_now(
        &self,
        guest: &str,
        table: &str,
        seat: u8,
        with: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        c.execute(SEAT.pg, &[&guest, &table, &i64::from(seat), &with, &now_ms]).await.map_err(pg)?;
        Ok(())
    }

    async fn play_now_of(&self, guest: &str) -> Result<Option<PlayNowRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let row = c.query_opt(ROW_OF.pg, &[&guest]).await.map_err(pg)?;
        Ok(row.as_ref().map(pg_row))
    }

    async fn leave_play_now(&self, guest: &str, game: &str) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        c.execute(LEAVE.pg, &[&guest, &game]).await.map_err(pg)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(guest: &str, game: &str, since_ms: i64) -> PlayNowRow {
        PlayNowRow {
            guest: guest.into(),
            game: game.into(),
            name: guest.to_uppercase(),
            rating: 1500.0,
            account: false,
            since_ms,
            bots_ms: since_ms + 30_000,
            seen_ms: since_ms,
            table: None,
            seat: None,
            with: "[]".into(),
            seated_ms: 0,
        }
    }

    /// A player keeps his place when he joins again, is taken by one caller only, is seated,
    /// and the queue is kept across a reopening of the database.
    #[tokio::test]
    async fn the_queue_keeps_places_takes_once_and_survives_a_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("q.db");
        let s = SqliteStore::open(path.to_str().unwrap()).unwrap();
        s.join_play_now(&row("a", "madiao", 1000)).await.unwrap();
        s.join_play_now(&row("b", "madiao", 2000)).await.unwrap();
        // "a" asks again later: same place.
        s.join_play_now(&row("a", "madiao", 5000)).await.unwrap();
        let a = s.play_now_of("a").await.unwrap().unwrap();
        assert_eq!((a.since_ms, a.seen_ms), (1000, 5000));
        // Another game: a fresh place there.
        s.join_play_now(&row("b", "dabaifen", 6000)).await.unwrap();
        assert_eq!(s.play_now_of("b").await.unwrap().unwrap().game, "dabaifen");
        s.join_play_now(&row("b", "madiao", 7000)).await.unwrap();
        assert_eq!(s.play_now_of("b").await.unwrap().unwrap().since_ms, 7000);
        // Taken once only.
        assert!(s.take_waiting("a", "madiao", 8000).await.unwrap());
        assert!(!s.take_waiting("a", "madiao", 8000).await.unwrap(), "taken twice");
        assert!(s.play_now_of("a").await.unwrap().unwrap().waiting());
        s.untake("a").await.unwrap();
        assert!(s.take_waiting("a", "madiao", 8000).await.unwrap());
        s.seat_play_now("a", "t1", 2, "[\"B\"]", 8000).await.unwrap();
        let a = s.play_now_of("a").await.unwrap().unwrap();
        assert_eq!((a.table.as_deref(), a.seat, a.waiting()), (Some("t1"), Some(2), false));
        drop(s);
        let s = SqliteStore::open(path.to_str().unwrap()).unwrap();
        let q = s.play_now_queue("madiao", 0, 0, 0).await.unwrap();
        assert_eq!(q.len(), 2, "{q:?}");
        // Stale waiting players and old seatings go.
        let q = s.play_now_queue("madiao", 7001, 8001, 0).await.unwrap();
        assert!(q.is_empty(), "{q:?}");
        // A player stuck being seated (his node died) waits again.
        s.join_play_now(&row("c", "madiao", 9000)).await.unwrap();
        assert!(s.take_waiting("c", "madiao", 9000).await.unwrap());
        let q = s.play_now_queue("madiao", 0, 0, 9001).await.unwrap();
        assert_eq!(q[0].table, None);
        s.leave_play_now("c", "madiao").await.unwrap();
        assert!(s.play_now_of("c").await.unwrap().is_none());
    }
}
