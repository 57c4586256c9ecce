//! Friends' storage ([`FriendStore`], `docs/protocol.md`, "Friends"): who follows whom, and the
//! challenges one player sends another to a table (pending, then accepted with the table made
//! for it, declined, or withdrawn), and which node each account is connected to (`presence`,
//! for a cluster: who is online anywhere). Both backends implement it here, over the same SQL
//! (`sql!`).

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use tokio_postgres::Client;

use super::StoreError;
use super::postgres::{PgStore, pg};
use super::sql::sql;
use super::sqlite::{SqliteStore, backend};

/// A challenge: one player asks another to a table of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    /// Its id.
    pub id: String,
    /// The guest who sent it.
    pub from: String,
    /// The guest it is sent to.
    pub to: String,
    /// `madiao` or `dabaifen`.
    pub game: String,
    /// `pending`, `accepted`, `declined` or `withdrawn`.
    pub status: String,
    /// The table made when it was accepted.
    pub table: Option<String>,
    /// When it was sent, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When it was answered (or withdrawn).
    pub answered_ms: Option<i64>,
}

/// Friends' storage (see the module).
#[async_trait]
pub trait FriendStore: Send + Sync {
    /// `follower` follows `followed` from `at_ms` on; false when he already did (nothing
    /// changes).
    async fn follow(&self, follower: &str, followed: &str, at_ms: i64) -> Result<bool, StoreError>;
    /// `follower` no longer follows `followed`; false when he did not.
    async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError>;
    /// The guests `follower` follows, each with since when, the oldest first.
    async fn following(&self, follower: &str) -> Result<Vec<(String, i64)>, StoreError>;
    /// The guests who follow `followed`.
    async fn followers(&self, followed: &str) -> Result<Vec<String>, StoreError>;
    /// Notes that `guest` has a connection open to `node` since `at_ms` (`present`), or no
    /// longer has one; already so: nothing changes.
    async fn set_present(&self, guest: &str, node: &str, present: bool, at_ms: i64)
    -> Result<(), StoreError>;
    /// Those of `guests` connected to a node other than `except` that lives (on PostgreSQL: one
    /// whose heartbeat was heard in the last [`super::MEMBER_MS`]; SQLite has one node).
    async fn present(&self, guests: &[String], except: &str) -> Result<Vec<String>, StoreError>;
    /// Forgets the presence noted by nodes that no longer live (and, on SQLite, by any node but
    /// `node`: its one node started again).
    async fn prune_presence(&self, node: &str) -> Result<(), StoreError>;
    /// Stores a new challenge.
    async fn add_challenge(&self, c: &ChallengeRow) -> Result<(), StoreError>;
    /// A challenge by its id.
    async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError>;
    /// The challenges `guest` sent or was sent since `since_ms`, the newest first (at most
    /// `limit`).
    async fn challenges_of(
        &self,
        guest: &str,
        since_ms: i64,
        limit: u32,
    ) -> Result<Vec<ChallengeRow>, StoreError>;
    /// Answers a pending challenge: its status becomes `status` (with the table, if one was
    /// made) at `at_ms`; false (nothing written) when it is no longer pending.
    async fn answer_challenge(
        &self,
        id: &str,
        status: &str,
        table: Option<&str>,
        at_ms: i64,
    ) -> Result<bool, StoreError>;
}

sql! {
    /// Follows (nothing when already).
    FOLLOW = "INSERT INTO follows (follower_id, followed_id, since_ms) VALUES ($1, $2, $3) \
              ON CONFLICT (follower_id, followed_id) DO NOTHING";
    /// Unfollows.
    UNFOLLOW = "DELETE FROM follows WHERE follower_id = $1 AND followed_id = $2";
    /// Whom one follows.
    FOLLOWING = "SELECT followed_id, since_ms FROM follows WHERE follower_id = $1 \
                 ORDER BY since_ms, followed_id";
    /// Who follows one.
    FOLLOWERS = "SELECT follower_id FROM follows WHERE followed_id = $1 ORDER BY follower_id";
    /// A guest connected to a node.
    SET_PRESENT = "INSERT INTO presence (guest_id, node, since_ms) VALUES ($1, $2, $3) \
                   ON CONFLICT (guest_id, node) DO NOTHING";
    /// No longer.
    UNSET_PRESENT = "DELETE FROM presence WHERE guest_id = $1 AND node = $2";
    /// A new challenge.
    ADD_CHALLENGE = "INSERT INTO challenges (id, from_id, to_id, game, status, table_id, created_ms, answered_ms) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    /// A challenge by id.
    CHALLENGE = "SELECT id, from_id, to_id, game, status, table_id, created_ms, answered_ms \
                 FROM challenges WHERE id = $1";
    /// One's challenges, the newest first.
    CHALLENGES_OF = "SELECT id, from_id, to_id, game, status, table_id, created_ms, answered_ms \
                     FROM challenges WHERE (from_id = $1 OR to_id = $1) AND created_ms >= $2 \
                     ORDER BY created_ms DESC, id LIMIT $3";
    /// Answers a pending challenge.
    ANSWER = "UPDATE challenges SET status = $2, table_id = $3, answered_ms = $4 \
              WHERE id = $1 AND status = 'pending'";
}

#[async_trait]
impl FriendStore for SqliteStore {
    async fn follow(&self, follower: &str, followed: &str, at_ms: i64) -> Result<bool, StoreError> {
        let (a, b) = (follower.to_string(), followed.to_string());
        self.call(move |c| c.execute(FOLLOW.sqlite, params![a, b, at_ms]).map(|n| n > 0).map_err(backend))
            .await
    }

    async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        let (a, b) = (follower.to_string(), followed.to_string());
        self.call(move |c| c.execute(UNFOLLOW.sqlite, params![a, b]).map(|n| n > 0).map_err(backend)).await
    }

    async fn following(&self, follower: &str) -> Result<Vec<(String, i64)>, StoreError> {
        let a = follower.to_string();
        self.call(move |c| {
            let mut st = c.prepare(FOLLOWING.sqlite).map_err(backend)?;
            let rows = st.query_map(params![a], |r| Ok((r.get(0)?, r.get(1)?))).map_err(backend)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(backend)
        })
        .await
    }

    async fn followers(&self, followed: &str) -> Result<Vec<String>, StoreError> {
        let a = followed.to_string();
        self.call(move |c| {
            let mut st = c.prepare(FOLLOWERS.sqlite).map_err(backend)?;
            let rows = st.query_map(params![a], |r| r.get(0)).map_err(backend)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(backend)
        })
        .await
    }

    async fn set_present(
        &self,
        guest: &str,
        node: &str,
        present: bool,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        let (g, n) = (guest.to_string(), node.to_string());
        self.call(move |c| {
            match present {
                true => c.execute(SET_PRESENT.sqlite, params![g, n, at_ms]),
                false => c.execute(UNSET_PRESENT.sqlite, params![g, n]),
            }
            .map(|_| ())
            .map_err(backend)
        })
        .await
    }

    async fn present(&self, guests: &[String], except: &str) -> Result<Vec<String>, StoreError> {
        let (guests, except) = (guests.to_vec(), except.to_string());
        self.call(move |c| {
            let mut st = c
                .prepare("SELECT 1 FROM presence WHERE guest_id = ?1 AND node <> ?2 LIMIT 1")
                .map_err(backend)?;
            let mut out = Vec::new();
            for g in guests {
                if st.exists(params![g, except]).map_err(backend)? {
                    out.push(g);
                }
            }
            Ok(out)
        })
        .await
    }

    async fn prune_presence(&self, node: &str) -> Result<(), StoreError> {
        let n = node.to_string();
        self.call(move |c| {
            c.execute("DELETE FROM presence WHERE node <> ?1", params![n]).map(|_| ()).map_err(backend)
        })
        .await
    }

    async fn add_challenge(&self, ch: &ChallengeRow) -> Result<(), StoreError> {
        let ch = ch.clone();
        self.call(move |c| {
            c.execute(
                ADD_CHALLENGE.sqlite,
                params![ch.id, ch.from, ch.to, ch.game, ch.status, ch.table, ch.created_ms, ch.answered_ms],
            )
            .map(|_| ())
            .map_err(backend)
        })
        .await
    }

    async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let id = id.to_string();
        self.call(move |c| c.query_row(CHALLENGE.sqlite, params![id], lite_row).optional().map_err(backend))
            .await
    }

    async fn challenges_of(
        &self,
        guest: &str,
        since_ms: i64,
        limit: u32,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let g = guest.to_string();
        self.call(move |c| {
            let mut st = c.prepare(CHALLENGES_OF.sqlite).map_err(backend)?;
            let rows = st.query_map(params![g, since_ms, i64::from(limit)], lite_row).map_err(backend)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(backend)
        })
        .await
    }

    async fn answer_challenge(
        &self,
        id: &str,
        status: &str,
        table: Option<&str>,
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        let (id, status, table) = (id.to_string(), status.to_string(), table.map(str::to_string));
        self.call(move |c| {
            c.execute(ANSWER.sqlite, params![id, status, table, at_ms]).map(|n| n > 0).map_err(backend)
        })
        .await
    }
}

fn lite_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ChallengeRow> {
    Ok(ChallengeRow {
        id: r.get(0)?,
        from: r.get(1)?,
        to: r.get(2)?,
        game: r.get(3)?,
        status: r.get(4)?,
        table: r.get(5)?,
        created_ms: r.get(6)?,
        answered_ms: r.get(7)?,
    })
}

fn pg_row(r: &tokio_postgres::Row) -> ChallengeRow {
    ChallengeRow {
        id: r.get(0),
        from: r.get(1),
        to: r.get(2),
        game: r.get(3),
        status: r.get(4),
        table: r.get(5),
        created_ms: r.get(6),
        answered_ms: r.get(7),
    }
}

#[async_trait]
impl FriendStore for PgStore {
    async fn follow(&self, follower: &str, followed: &str, at_ms: i64) -> Result<bool, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        Ok(c.execute(FOLLOW.pg, &[&follower, &followed, &at_ms]).await.map_err(pg)? > 0)
    }

    async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        Ok(c.execute(UNFOLLOW.pg, &[&follower, &followed]).await.map_err(pg)? > 0)
    }

    async fn following(&self, follower: &str) -> Result<Vec<(String, i64)>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c.query(FOLLOWING.pg, &[&follower]).await.map_err(pg)?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    async fn followers(&self, followed: &str) -> Result<Vec<String>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c.query(FOLLOWERS.pg, &[&followed]).await.map_err(pg)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn set_present(
        &self,
        guest: &str,
        node: &str,
        present: bool,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        match present {
            true => c.execute(SET_PRESENT.pg, &[&guest, &node, &at_ms]).await,
            false => c.execute(UNSET_PRESENT.pg, &[&guest, &node]).await,
        }
        .map_err(pg)?;
        Ok(())
    }

    async fn present(&self, guests: &[String], except: &str) -> Result<Vec<String>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c
            .query(
                "SELECT DISTINCT p.guest_id FROM presence p JOIN nodes n ON n.node = p.node \
                 WHERE p.guest_id = ANY($1) AND p.node <> $2 \
                 AND n.seen > now() - $3 * interval '1 millisecond'",
                &[&guests, &except, &(super::MEMBER_MS as f64)],
            )
            .await
            .map_err(pg)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn prune_presence(&self, _node: &str) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        c.execute(
            "DELETE FROM presence WHERE node NOT IN \
             (SELECT node FROM nodes WHERE seen > now() - $1 * interval '1 millisecond')",
            &[&(super::MEMBER_MS as f64)],
        )
        .await
        .map_err(pg)?;
        Ok(())
    }

    async fn add_challenge(&self, ch: &ChallengeRow) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        c.execute(
            ADD_CHALLENGE.pg,
            &[&ch.id, &ch.from, &ch.to, &ch.game, &ch.status, &ch.table, &ch.created_ms, &ch.answered_ms],
        )
        .await
        .map_err(pg)?;
        Ok(())
    }

    async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        Ok(c.query_opt(CHALLENGE.pg, &[&id]).await.map_err(pg)?.as_ref().map(pg_row))
    }

    async fn challenges_of(
        &self,
        guest: &str,
        since_ms: i64,
        limit: u32,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c.query(CHALLENGES_OF.pg, &[&guest, &since_ms, &i64::from(limit)]).await.map_err(pg)?;
        Ok(rows.iter().map(pg_row).collect())
    }

    async fn answer_challenge(
        &self,
        id: &str,
        status: &str,
        table: Option<&str>,
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        Ok(c.execute(ANSWER.pg, &[&id, &status, &table, &at_ms]).await.map_err(pg)? > 0)
    }
}
