//! The PostgreSQL backend, for larger installations (`--db postgres://…`).
//!
//! A pool of connections: each operation takes any free connection (opening a new one while the
//! pool is below its size) and holds it for its duration, so the writes of one operation are one
//! transaction; operations beyond the pool's size wait, first come first served, for the first
//! connection given back. A connection that broke is not given back (the next operation opens a
//! fresh one).

use std::sync::Mutex;

use async_trait::async_trait;
use tokio::sync::{Semaphore, SemaphorePermit};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, GenericClient, NoTls, Row};

use super::provenance::{LeaseEpoch, Provenance, Stamp as ProvenanceStamp};
use super::sql::{self, Sql};
use super::{
    ANALYSIS_SCHEMA, ARCHIVE_SCHEMA, AccountRow, AnalysisKey, AnalysisStore, Archive, ArchiveQuery,
    ArchivedGame, Beat, ChatRow, Epoch, FIRST_EPOCH, GuestRow, Held, HistoryRow, Holder, Identities, Leases,
    LoggedAction, OpenOptions, RatingRow, SCHEMA, SeatRow, SessionRow, Store, StoreError, TableLog, TableRow,
    TableStatus, Write, archive_entry, archived_from, seat_columns, seat_from_columns,
};

/// How many connections a store opens at most, unless told otherwise: enough for the
/// database's group commit to gather many tables' moves into one flush, few enough that three
/// nodes stay well under PostgreSQL's default of 100 connections.
pub const DEFAULT_POOL: usize = 16;

/// The leases (PostgreSQL only); tables stored before there were leases get one that has run
/// out, so that some node claims them.
const OWNERSHIP: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS owners (
        table_id TEXT PRIMARY KEY REFERENCES tables (id),
        node TEXT NOT NULL,
        epoch BIGINT NOT NULL,
        expires TIMESTAMPTZ NOT NULL)",
    "CREATE INDEX IF NOT EXISTS owners_by_node ON owners (node)",
    "CREATE TABLE IF NOT EXISTS summaries (
        table_id TEXT PRIMARY KEY REFERENCES tables (id),
        summary TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS owners_by_expiry ON owners (expires)",
    // The nodes that said lately that they live (`Leases::beat`), and whether each has a bus.
    "CREATE TABLE IF NOT EXISTS nodes (
        node TEXT PRIMARY KEY,
        bus BOOLEAN NOT NULL,
        seen TIMESTAMPTZ NOT NULL)",
    "INSERT INTO owners (table_id, node, epoch, expires)
        SELECT id, '', 0, '-infinity' FROM tables WHERE status NOT IN ('finished', 'closed')
        ON CONFLICT (table_id) DO NOTHING",
];

/// The layout of the database this code reads and writes, kept in `meta` as `schema_version`
/// (a database without it is of version 1): 2 adds who wrote each row ([`MIGRATE_TO_2`]).
const SCHEMA_VERSION: i64 = 2;

/// Version 1 to 2: each stored action and chat line names the lease it was written under (the
/// epoch and the node; rows stored before stay without), and each epoch of a table's lease is kept
/// with the node that held it and how many actions and chat lines the table had when it began
/// (`leases`; the epochs current at the migration are kept without those counts). Adding a
/// column without a default changes no stored row, so it is quick on a large log.
/// See [`crate::store::provenance`].
const MIGRATE_TO_2: &[&str] = &[
    "ALTER TABLE actions ADD COLUMN IF NOT EXISTS epoch BIGINT, ADD COLUMN IF NOT EXISTS node TEXT",
    "ALTER TABLE chat ADD COLUMN IF NOT EXISTS epoch BIGINT, ADD COLUMN IF NOT EXISTS node TEXT",
    "CREATE TABLE IF NOT EXISTS leases (
        table_id TEXT NOT NULL REFERENCES tables (id),
        epoch BIGINT NOT NULL,
        node TEXT NOT NULL,
        log_from BIGINT,
        chat_from BIGINT,
        PRIMARY KEY (table_id, epoch))",
    "INSERT INTO leases (table_id, epoch, node) SELECT table_id, epoch, node FROM owners WHERE epoch > 0
        ON CONFLICT (table_id, epoch) DO NOTHING",
];

/// Records the epochs just claimed (`$1` the tables) in `leases`, with how many actions and chat
/// lines each table has now: run in the claim's transaction once its lease rows are locked, so
/// that no write of an older epoch is in progress and none can commit after it.
const RECORD_EPOCHS: &str = "INSERT INTO leases (table_id, epoch, node, log_from, chat_from)
    SELECT o.table_id, o.epoch, o.node,
        (SELECT coalesce(max(a.seq) + 1, 0) FROM actions a WHERE a.table_id = o.table_id),
        (SELECT coalesce(max(c.seq) + 1, 0) FROM chat c WHERE c.table_id = o.table_id)
    FROM owners o WHERE o.table_id = ANY($1)
    ON CONFLICT (table_id, epoch) DO NOTHING";

/// The condition of a fenced write: `$1` the table, `$2` the node, `$3` the epoch.
const FENCE: &str =
    "SELECT 1 FROM owners WHERE table_id = $1 AND node = $2 AND epoch = $3 AND expires > now() FOR KEY SHARE";

/// A PostgreSQL database.
///
/// Ownership: each unfinished table has a row in `owners` naming the node that holds its lease,
/// the lease's epoch and when it runs out (by the database's clock, so the nodes' clocks do not
/// matter to the fencing; a node also stops sending for a table once its own clock says the
/// lease may have run out, [`crate::cluster::Term`]). Every write of a table checks, in its own statement or transaction, that the writer
/// still holds the current epoch and that it has not run out, with a `FOR KEY SHARE` lock on the
/// lease row that a concurrent claim (`FOR UPDATE … SKIP LOCKED`) waits for or skips: so once a
/// claim has committed, no write of the epoch before it can commit.
pub struct PgStore {
    url: String,
    schema: Option<String>,
    /// This node's name in the leases.
    node: String,
    /// How long a lease lasts unless renewed (milliseconds).
    lease_ms: i64,
    /// The connections not in use.
    idle: Mutex<Vec<Client>>,
    /// One permit per connection the pool may have in use at once.
    permits: Semaphore,
}

/// A connection taken from the pool for one operation; given back when dropped (unless it broke).
pub(crate) struct Pooled<'a> {
    store: &'a PgStore,
    client: Option<Client>,
    _permit: SemaphorePermit<'a>,
}

impl std::ops::Deref for Pooled<'_> {
    type Target = Client;
    fn deref(&self) -> &Client {
        // Set when made, taken only by `drop`.
        self.client.as_ref().expect("a pooled connection")
    }
}

impl std::ops::DerefMut for Pooled<'_> {
    fn deref_mut(&mut self) -> &mut Client {
        self.client.as_mut().expect("a pooled connection")
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        if let Some(c) = self.client.take()
            && !c.is_closed()
            && let Ok(mut idle) = self.store.idle.lock()
        {
            idle.push(c);
        }
    }
}

pub(crate) fn pg(e: tokio_postgres::Error) -> StoreError {
    match e.code() {
        Some(c) if *c == SqlState::UNIQUE_VIOLATION => StoreError::Conflict(e.to_string()),
        _ => StoreError::Backend(match e.as_db_error() {
            Some(db) => db.to_string(),
            None => e.to_string(),
        }),
    }
}

fn is_fk(e: &tokio_postgres::Error) -> bool {
    e.code() == Some(&SqlState::FOREIGN_KEY_VIOLATION)
}

/// A schema name is used in SQL text: only letters, digits and underscores.
fn valid_schema(s: &str) -> bool {
    !s.is_empty() && s.len() <= 63 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl PgStore {
    /// Connects to the database at `url` and creates the tables when missing — in `schema`
    /// (created when missing) when one is given, else in the connection's default schema.
    pub async fn connect(url: &str, schema: Option<&str>) -> Result<PgStore, StoreError> {
        PgStore::connect_with(url, schema, OpenOptions::default()).await
    }

    /// [`PgStore::connect`] with a pool of at most `options.pool` connections (at least one)
    /// and leases of `options.lease_ms`.
    pub async fn connect_with(
        url: &str,
        schema: Option<&str>,
        options: OpenOptions,
    ) -> Result<PgStore, StoreError> {
        if let Some(s) = schema
            && !valid_schema(s)
        {
            return Err(StoreError::Backend(format!("invalid schema name {s:?}")));
        }
        let store = PgStore {
            url: url.to_string(),
            schema: schema.map(str::to_string),
            node: crate::ids::new_id("n").map_err(|e| StoreError::Backend(e.to_string()))?,
            lease_ms: i64::try_from(options.lease_ms.max(1)).unwrap_or(i64::MAX),
            idle: Mutex::new(Vec::new()),
            permits: Semaphore::new(options.pool.max(1)),
        };
        let mut client = store.open_client().await?;
        // Nodes starting together on an empty database: one creates the schema at a time
        // (PostgreSQL's `IF NOT EXISTS` is not safe against a concurrent creation).
        let tx = client.transaction().await.map_err(pg)?;
        tx.execute("SELECT pg_advisory_xact_lock(2026112413)", &[]).await.map_err(pg)?;
        if let Some(s) = &store.schema {
            tx.batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {s}; SET search_path TO {s}"))
                .await
                .map_err(pg)?;
        }
        for sql in SCHEMA
            .iter()
            .chain(OWNERSHIP)
            .chain(ARCHIVE_SCHEMA)
            .chain(super::RATINGS_SCHEMA)
            .chain(ANALYSIS_SCHEMA)
            .chain(super::MODERATION_SCHEMA)
            .chain(super::PUZZLE_SCHEMA)
            .chain(super::FRIENDS_SCHEMA)
            .chain(super::EVENT_SCHEMA)
            .chain(super::TOURNAMENT_SCHEMA)
            .chain(super::PLAY_NOW_SCHEMA)
        {
            // An index that exists is not asked for again: `CREATE INDEX IF NOT EXISTS` takes a
            // SHARE lock on its table (held until this transaction ends) before it finds the
            // index there and does nothing, and every running node's writes to that table
            // (their lease renewals, on `owners`) would wait for a node starting, or any store
            // opened on the database: under load, long enough for every lease to run out.
            if let Some(index) = index_made_by(sql) {
                let row = tx.query_one("SELECT to_regclass($1) IS NOT NULL", &[&index]).await.map_err(pg)?;
                if row.get::<_, bool>(0) {
                    continue;
                }
            }
            tx.batch_execute(sql).await.map_err(pg)?;
        }
        migrate(&tx).await?;
        tx.commit().await.map_err(pg)?;
        // A real write, so that a database the server cannot write is found before it starts.
        client.execute(super::WRITE_PROBE, &[&super::now_ms_text()]).await.map_err(|e| {
            StoreError::Unusable(format!(
                "the PostgreSQL database cannot be written: {} (check the user's privileges and that \
                 the server is not read-only)",
                super::redact(&pg(e).to_string())
            ))
        })?;
        if let Ok(mut idle) = store.idle.lock() {
            idle.push(client);
        }
        Ok(store)
    }

    async fn open_client(&self) -> Result<Client, StoreError> {
        let (client, connection) = tokio_postgres::connect(&self.url, NoTls)
            .await
            .map_err(|e| StoreError::Backend(super::redact(&format!("cannot connect to PostgreSQL: {e}"))))?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        // A transaction left open longer than a lease is ended by the database: a node paused
        // (`SIGSTOP`, a suspended machine) in the middle of a step would otherwise keep its
        // fence's lock on the table's lease row for as long as the pause lasts, and every claim
        // (`SKIP LOCKED`) would pass the table by: nobody would take it over. Ended, the
        // transaction is rolled back (the paused node's writes are lost with it, as fenced
        // writes are), and the row is free once the lease has run out.
        let mut setup = format!("SET idle_in_transaction_session_timeout = {}", self.lease_ms);
        if let Some(s) = &self.schema {
            setup.push_str(&format!("; SET search_path TO {s}"));
        }
        client.batch_execute(&setup).await.map_err(pg)?;
        Ok(client)
    }

    /// For tests: begins a step's transaction on `table` under `epoch`, its fence taken as
    /// [`TableLog::write_step`] takes it, then waits `pause` before committing, as a node
    /// paused in the middle of a step (`SIGSTOP`, a suspended machine) would; `Ok(true)` when
    /// the commit went through, `Ok(false)` when the fence refused, an error when the database
    /// had ended the transaction meanwhile.
    #[doc(hidden)]
    pub async fn pause_in_step(
        &self,
        table: &str,
        epoch: Epoch,
        pause: std::time::Duration,
    ) -> Result<bool, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        if tx.query_opt(FENCE, &[&table, &self.node, &epoch]).await.map_err(pg)?.is_none() {
            return Ok(false);
        }
        tokio::time::sleep(pause).await;
        tx.commit().await.map_err(pg)?;
        Ok(true)
    }

    /// A free connection for one operation: an idle one that still works, else a new one.
    pub(crate) async fn client(&self) -> Result<Pooled<'_>, StoreError> {
        let permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| StoreError::Backend("the connection pool is closed".into()))?;
        let reused = loop {
            let next = self.idle.lock().ok().and_then(|mut idle| idle.pop());
            match next {
                Some(c) if c.is_closed() => continue,
                other => break other,
            }
        };
        let client = match reused {
            Some(c) => c,
            None => self.open_client().await?,
        };
        Ok(Pooled { store: self, client: Some(client), _permit: permit })
    }
}

/// The index a statement of the layout makes, if it is a `CREATE INDEX IF NOT EXISTS`.
fn index_made_by(sql: &str) -> Option<&str> {
    sql.strip_prefix("CREATE INDEX IF NOT EXISTS ")?.split_whitespace().next()
}

/// Brings the database's layout to [`SCHEMA_VERSION`] (inside the schema's transaction, under
/// its lock); a database of a later version, written by a newer yezi, is refused.
async fn migrate<C: GenericClient>(c: &C) -> Result<(), StoreError> {
    let stored = c.query_opt("SELECT value FROM meta WHERE key = 'schema_version'", &[]).await.map_err(pg)?;
    let version = match stored {
        None => 1,
        Some(r) => r.get::<_, &str>(0).parse::<i64>().map_err(|_| {
            StoreError::Corrupt(format!("meta schema_version {:?} is not a number", r.get::<_, &str>(0)))
        })?,
    };
    if version > SCHEMA_VERSION {
        return Err(StoreError::Unusable(format!(
            "the PostgreSQL database has the layout of version {version}, written by a newer yezi \
             (this one knows up to {SCHEMA_VERSION}): run the newer yezi"
        )));
    }
    if version < 2 {
        for sql in MIGRATE_TO_2 {
            c.batch_execute(sql).await.map_err(pg)?;
        }
    }
    if version < SCHEMA_VERSION {
        c.execute(
            "INSERT INTO meta (key, value) VALUES ('schema_version', $1) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            &[&SCHEMA_VERSION.to_string()],
        )
        .await
        .map_err(pg)?;
    }
    Ok(())
}

async fn read_seats(c: &Client, table: &str) -> Result<[SeatRow; 4], StoreError> {
    let rows = c.query(sql::SEATS.pg, &[&table]).await.map_err(pg)?;
    if rows.len() != 4 {
        return Err(StoreError::Corrupt(format!("table {table} has {} seats stored", rows.len())));
    }
    let mut seats = [SeatRow::Open, SeatRow::Open, SeatRow::Open, SeatRow::Open];
    for r in rows {
        let seat: i16 = r.get(0);
        let i = usize::try_from(seat)
            .ok()
            .filter(|&i| i < 4)
            .ok_or_else(|| StoreError::Corrupt(format!("table {table}: seat {seat}")))?;
        seats[i] = seat_from_columns(r.get::<_, &str>(1), r.get(2), r.get(3), r.get(4))?;
    }
    Ok(seats)
}

async fn table_from(c: &Client, r: &Row) -> Result<TableRow, StoreError> {
    let id: String = r.get(0);
    let seats = read_seats(c, &id).await?;
    Ok(TableRow {
        game: r.get(1),
        settings: r.get(2),
        seed: r.get::<_, i64>(3) as u64,
        host: r.get(4),
        status: {
            let s: &str = r.get(5);
            TableStatus::parse(s).ok_or_else(|| StoreError::Corrupt(format!("table status {s:?}")))?
        },
        created_ms: r.get(6),
        seats,
        id,
    })
}

async fn write_seat<C: GenericClient>(c: &C, table: &str, seat: u8, row: &SeatRow) -> Result<(), StoreError> {
    let (kind, bot, guest, name) = seat_columns(row);
    let n = c
        .execute(sql::UPDATE_SEAT.pg, &[&table, &i16::from(seat), &kind, &bot, &guest, &name])
        .await
        .map_err(pg)?;
    if n == 1 { Ok(()) } else { Err(StoreError::NoTable(table.to_string())) }
}

async fn write_status<C: GenericClient>(c: &C, table: &str, status: TableStatus) -> Result<(), StoreError> {
    let n = c.execute(sql::UPDATE_STATUS.pg, &[&table, &status.name()]).await.map_err(pg)?;
    if n == 1 { Ok(()) } else { Err(StoreError::NoTable(table.to_string())) }
}

/// The columns of actions as the statement's parameters take them.
fn action_cols(actions: &[LoggedAction]) -> Vec<(i64, i32, i16)> {
    actions.iter().map(|a| (a.seq as i64, a.hand as i32, i16::from(a.seat))).collect()
}

/// The lease a write names, stored with its rows: the writer's epoch and node (none for the
/// writes that name no lease, [`TableLog::append_actions`] and [`TableLog::append_chat`]).
type Stamp<'a> = (Option<Epoch>, Option<&'a str>);

async fn write_actions<C: GenericClient>(
    c: &C,
    table: &str,
    actions: &[LoggedAction],
    stamp: Stamp<'_>,
) -> Result<(), StoreError> {
    // One statement for the whole batch: all rows or none.
    let cols = action_cols(actions);
    let mut sql =
        String::from("INSERT INTO actions (table_id, epoch, node, seq, hand, seat, action) VALUES ");
    let mut params: Vec<&(dyn ToSql + Sync)> = vec![&table, &stamp.0, &stamp.1];
    for (i, (a, (seq, hand, seat))) in actions.iter().zip(&cols).enumerate() {
        if i > 0 {
            sql.push_str(", ");
        }
        let b = 4 + 4 * i;
        sql.push_str(&format!("($1, $2, $3, ${b}, ${}, ${}, ${})", b + 1, b + 2, b + 3));
        params.push(seq);
        params.push(hand);
        params.push(seat);
        params.push(&a.action);
    }
    match c.execute(sql.as_str(), &params).await {
        Ok(_) => Ok(()),
        Err(e) if is_fk(&e) => Err(StoreError::NoTable(table.to_string())),
        Err(e) => Err(pg(e)),
    }
}

async fn write_chat<C: GenericClient>(
    c: &C,
    table: &str,
    chat: &ChatRow,
    stamp: Stamp<'_>,
) -> Result<(), StoreError> {
    let seq = chat.seq as i64;
    let seat = chat.seat.map(i16::from);
    match c
        .execute(
            "INSERT INTO chat (table_id, seq, at_ms, guest_id, name, seat, text, epoch, node) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            &[&table, &seq, &chat.at_ms, &chat.guest, &chat.name, &seat, &chat.text, &stamp.0, &stamp.1],
        )
        .await
    {
        Ok(_) => Ok(()),
        Err(e) if is_fk(&e) => Err(StoreError::NoTable(table.to_string())),
        Err(e) => Err(pg(e)),
    }
}

async fn write_finish<C: GenericClient>(c: &C, table: &str, record: &str) -> Result<(), StoreError> {
    let row = c
        .query_opt(sql::FINISH.pg, &[&table, &record])
        .await
        .map_err(pg)?
        .ok_or_else(|| StoreError::NoTable(table.to_string()))?;
    let (game, settings): (String, String) = (row.get(0), row.get(1));
    let Some(e) = archive_entry(&game, &settings, record) else { return Ok(()) };
    c.execute(sql::INSERT_ARCHIVE.pg, &[&table, &e.game, &e.name, &e.finished_ms, &e.players])
        .await
        .map_err(pg)?;
    index_players(c, table, &e.keys).await
}

/// Indexes an archived game under its persons' names as searched (`keys`).
async fn index_players<C: GenericClient>(c: &C, table: &str, keys: &[String]) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO archive_players (table_id, name) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING",
        &[&table, &keys],
    )
    .await
    .map_err(pg)?;
    Ok(())
}

/// The games an archive query selects, newest first, with their records if asked.
async fn archive_query(
    c: &Client,
    q: &ArchiveQuery,
    with_records: bool,
) -> Result<Vec<(ArchivedGame, Option<String>)>, StoreError> {
    let sql = if with_records { sql::ARCHIVED_RECORDS } else { sql::ARCHIVED_GAMES };
    let after_ms = q.after.as_ref().map(|a| a.finished_ms);
    let after_id = q.after.as_ref().map(|a| a.id.clone());
    let rows = c
        .query(
            sql.pg,
            &[&q.from_ms, &q.to_ms, &after_ms, &after_id, &q.player_pattern(), &i64::from(q.limit)],
        )
        .await
        .map_err(pg)?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let players: String = r.get(4);
        out.push((archived_from(r.get(0), r.get::<_, &str>(1), r.get(2), r.get(3), &players)?, r.get(5)));
    }
    Ok(out)
}

/// The claim of tables whose lease ran out (`$1` this node, `$2` the lease in milliseconds,
/// `$3` how many at most, `$4` one table's id or null for any).
const CLAIM: &str = "WITH c AS (
        SELECT o.table_id FROM owners o JOIN tables t ON t.id = o.table_id
        WHERE o.expires <= now() AND t.status NOT IN ('finished', 'closed') AND ($4::text IS NULL OR o.table_id = $4)
        ORDER BY o.expires LIMIT $3
        FOR UPDATE OF o SKIP LOCKED)
    UPDATE owners SET node = $1, epoch = owners.epoch + 1, expires = now() + $2 * interval '1 millisecond'
    FROM c WHERE owners.table_id = c.table_id
    RETURNING owners.table_id, owners.epoch";

impl PgStore {
    /// Who wrote `table`'s stored actions and chat lines, and its lease's epochs: what
    /// [`Provenance::audit`] judges.
    pub async fn provenance(&self, table: &str) -> Result<Provenance, StoreError> {
        let slot = self.client().await?;
        let stamps = |rows: Vec<Row>| -> Result<Vec<ProvenanceStamp>, StoreError> {
            rows.iter()
                .map(|r| {
                    let seq: i64 = r.get(0);
                    Ok(ProvenanceStamp {
                        seq: u64::try_from(seq)
                            .map_err(|_| StoreError::Corrupt(format!("table {table}: row {seq}")))?,
                        epoch: r.get(1),
                        node: r.get(2),
                    })
                })
                .collect()
        };
        let actions = slot
            .query("SELECT seq, epoch, node FROM actions WHERE table_id = $1 ORDER BY seq", &[&table])
            .await
            .map_err(pg)?;
        let chat = slot
            .query("SELECT seq, epoch, node FROM chat WHERE table_id = $1 ORDER BY seq", &[&table])
            .await
            .map_err(pg)?;
        let leases = slot
            .query(
                "SELECT epoch, node, log_from, chat_from FROM leases WHERE table_id = $1 ORDER BY epoch",
                &[&table],
            )
            .await
            .map_err(pg)?;
        let count = |v: Option<i64>| v.and_then(|n| u64::try_from(n).ok());
        Ok(Provenance {
            actions: stamps(actions)?,
            chat: stamps(chat)?,
            leases: leases
                .iter()
                .map(|r| LeaseEpoch {
                    epoch: r.get(0),
                    node: r.get(1),
                    log_from: count(r.get(2)),
                    chat_from: count(r.get(3)),
                })
                .collect(),
        })
    }

    /// Claims up to `limit` tables whose lease ran out (only `only`, if given).
    async fn claim(&self, limit: u32, only: Option<&str>) -> Result<Vec<(TableRow, Epoch)>, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        let rows = tx
            .query(CLAIM, &[&self.node, &(self.lease_ms as f64), &i64::from(limit), &only])
            .await
            .map_err(pg)?;
        if !rows.is_empty() {
            let ids: Vec<&str> = rows.iter().map(|r| r.get(0)).collect();
            tx.execute(RECORD_EPOCHS, &[&ids]).await.map_err(pg)?;
        }
        tx.commit().await.map_err(pg)?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let id: String = r.get(0);
            let epoch: Epoch = r.get(1);
            let row = slot
                .query_opt(sql::TABLE.pg, &[&id])
                .await
                .map_err(pg)?
                .ok_or_else(|| StoreError::NoTable(id.clone()))?;
            out.push((table_from(&slot, &row).await?, epoch));
        }
        Ok(out)
    }
}

impl Store for PgStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }
}

#[async_trait]
impl TableLog for PgStore {
    async fn create_table(&self, table: &TableRow) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        let seed = table.seed as i64;
        tx.execute(
            sql::INSERT_TABLE.pg,
            &[
                &table.id,
                &table.game,
                &table.settings,
                &seed,
                &table.host,
                &table.status.name(),
                &table.created_ms,
            ],
        )
        .await
        .map_err(pg)?;
        for (i, s) in table.seats.iter().enumerate() {
            let (kind, bot, guest, name) = seat_columns(s);
            tx.execute(sql::INSERT_SEAT.pg, &[&table.id, &(i as i16), &kind, &bot, &guest, &name])
                .await
                .map_err(pg)?;
        }
        // The creating node holds the new table's first lease.
        tx.execute(
            "INSERT INTO owners (table_id, node, epoch, expires) \
             VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')",
            &[&table.id, &self.node, &FIRST_EPOCH, &(self.lease_ms as f64)],
        )
        .await
        .map_err(pg)?;
        tx.execute(
            "INSERT INTO leases (table_id, epoch, node, log_from, chat_from) VALUES ($1, $2, $3, 0, 0)",
            &[&table.id, &FIRST_EPOCH, &self.node],
        )
        .await
        .map_err(pg)?;
        tx.commit().await.map_err(pg)
    }

    async fn table(&self, id: &str) -> Result<Option<TableRow>, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let row = c.query_opt(sql::TABLE.pg, &[&id]).await.map_err(pg)?;
        match row {
            Some(r) => Ok(Some(table_from(c, &r).await?)),
            None => Ok(None),
        }
    }

    async fn unfinished_tables(&self) -> Result<Vec<TableRow>, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let rows = c.query(sql::UNFINISHED_TABLES.pg, &[]).await.map_err(pg)?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            out.push(table_from(c, r).await?);
        }
        Ok(out)
    }

    async fn set_seat(&self, table: &str, seat: u8, row: &SeatRow) -> Result<(), StoreError> {
        let slot = self.client().await?;
        write_seat(&*slot, table, seat, row).await
    }

    async fn set_status(&self, table: &str, status: TableStatus) -> Result<(), StoreError> {
        let slot = self.client().await?;
        write_status(&*slot, table, status).await
    }

    async fn append_actions(&self, table: &str, actions: &[LoggedAction]) -> Result<(), StoreError> {
        if actions.is_empty() {
            return match self.table(table).await? {
                Some(_) => Ok(()),
                None => Err(StoreError::NoTable(table.to_string())),
            };
        }
        let slot = self.client().await?;
        write_actions(&*slot, table, actions, (None, None)).await
    }

    async fn actions(&self, table: &str) -> Result<Vec<LoggedAction>, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let rows = c.query(sql::ACTIONS.pg, &[&table]).await.map_err(pg)?;
        rows.iter()
            .map(|r| {
                let (seq, hand, seat): (i64, i32, i16) = (r.get(0), r.get(1), r.get(2));
                let bad = || StoreError::Corrupt(format!("table {table}: action {seq}"));
                Ok(LoggedAction {
                    seq: u64::try_from(seq).map_err(|_| bad())?,
                    hand: u32::try_from(hand).map_err(|_| bad())?,
                    seat: u8::try_from(seat).map_err(|_| bad())?,
                    action: r.get(3),
                })
            })
            .collect()
    }

    async fn append_chat(&self, table: &str, chat: &ChatRow) -> Result<(), StoreError> {
        let slot = self.client().await?;
        write_chat(&*slot, table, chat, (None, None)).await
    }

    async fn recent_chat(&self, table: &str, limit: u32) -> Result<Vec<ChatRow>, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let rows = c.query(sql::RECENT_CHAT.pg, &[&table, &i64::from(limit)]).await.map_err(pg)?;
        let mut out = rows
            .iter()
            .map(|r| {
                let seq: i64 = r.get(0);
                let bad = || StoreError::Corrupt(format!("table {table}: chat {seq}"));
                Ok(ChatRow {
                    seq: u64::try_from(seq).map_err(|_| bad())?,
                    at_ms: r.get(1),
                    guest: r.get(2),
                    name: r.get(3),
                    seat: r
                        .get::<_, Option<i16>>(4)
                        .map(|s| u8::try_from(s).map_err(|_| bad()))
                        .transpose()?,
                    text: r.get(5),
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        out.reverse();
        Ok(out)
    }

    async fn finish_table(&self, table: &str, record: &str) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        write_finish(&tx, table, record).await?;
        tx.commit().await.map_err(pg)
    }

    async fn record(&self, table: &str) -> Result<Option<String>, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let row = c.query_opt(sql::RECORD.pg, &[&table]).await.map_err(pg)?;
        Ok(row.and_then(|r| r.get::<_, Option<String>>(0)))
    }

    async fn write_step(&self, table: &str, epoch: Epoch, writes: &[Write]) -> Result<(), StoreError> {
        let fenced = || {
            StoreError::Fenced(format!(
                "table {table}: epoch {epoch} of this node's lease is over (another node may run it)"
            ))
        };
        let mut slot = self.client().await?;
        // The usual step, a move or two: one statement, its insert conditional on the lease.
        if let [Write::Actions(actions)] = writes
            && !actions.is_empty()
        {
            let cols = action_cols(actions);
            let mut sql = String::from(
                "INSERT INTO actions (table_id, epoch, node, seq, hand, seat, action) \
                 SELECT $1, $3, $2, v.* FROM (VALUES ",
            );
            let mut params: Vec<&(dyn ToSql + Sync)> = vec![&table, &self.node, &epoch];
            for (i, (a, (seq, hand, seat))) in actions.iter().zip(&cols).enumerate() {
                if i > 0 {
                    sql.push_str(", ");
                }
                let b = 4 + 4 * i;
                sql.push_str(&format!(
                    "(${b}::bigint, ${}::integer, ${}::smallint, ${}::text)",
                    b + 1,
                    b + 2,
                    b + 3
                ));
                params.push(seq);
                params.push(hand);
                params.push(seat);
                params.push(&a.action);
            }
            sql.push_str(&format!(") AS v (seq, hand, seat, action) WHERE EXISTS ({FENCE})"));
            return match slot.execute(sql.as_str(), &params).await {
                Ok(0) => Err(fenced()),
                Ok(_) => Ok(()),
                Err(e) if is_fk(&e) => Err(StoreError::NoTable(table.to_string())),
                Err(e) => Err(pg(e)),
            };
        }
        let stamp = (Some(epoch), Some(self.node.as_str()));
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        if tx.query_opt(FENCE, &[&table, &self.node, &epoch]).await.map_err(pg)?.is_none() {
            return Err(fenced());
        }
        for w in writes {
            match w {
                Write::Actions(rows) if rows.is_empty() => {}
                Write::Actions(rows) => write_actions(&tx, table, rows, stamp).await?,
                Write::Seat { seat, owner } => write_seat(&tx, table, *seat, owner).await?,
                Write::Status(status) => write_status(&tx, table, *status).await?,
                Write::Chat(row) => write_chat(&tx, table, row, stamp).await?,
                Write::Finish { record } => write_finish(&tx, table, record).await?,
                Write::Rated(m) => write_rated(&tx, table, m).await?,
            }
        }
        tx.commit().await.map_err(pg)
    }

    async fn hosted_tables(&self, guest: &str) -> Result<usize, StoreError> {
        let slot = self.client().await?;
        let row = slot.query_one(sql::HOSTED_TABLES.pg, &[&guest]).await.map_err(pg)?;
        Ok(usize::try_from(row.get::<_, i64>(0)).unwrap_or(usize::MAX))
    }

    async fn put_summaries(&self, rows: &[(String, String)]) -> Result<(), StoreError> {
        if rows.is_empty() {
            return Ok(());
        }
        let ids: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        let texts: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
        let slot = self.client().await?;
        slot.execute(
            "INSERT INTO summaries (table_id, summary) SELECT * FROM unnest($1::text[], $2::text[]) \
             ON CONFLICT (table_id) DO UPDATE SET summary = excluded.summary",
            &[&ids, &texts],
        )
        .await
        .map_err(pg)?;
        Ok(())
    }

    async fn summaries(&self) -> Result<Vec<String>, StoreError> {
        let slot = self.client().await?;
        let rows = slot
            .query(
                "SELECT s.summary FROM summaries s JOIN tables t ON t.id = s.table_id \
                 JOIN owners o ON o.table_id = s.table_id \
                 WHERE t.status NOT IN ('finished', 'closed') AND o.expires > now()",
                &[],
            )
            .await
            .map_err(pg)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

#[async_trait]
impl Leases for PgStore {
    fn node(&self) -> &str {
        &self.node
    }

    async fn claim_orphans(&self, limit: u32) -> Result<Vec<(TableRow, Epoch)>, StoreError> {
        self.claim(limit, None).await
    }

    async fn claim_table(&self, id: &str) -> Result<Option<(TableRow, Epoch)>, StoreError> {
        Ok(self.claim(1, Some(id)).await?.into_iter().next())
    }

    async fn renew_leases(&self) -> Result<Held, StoreError> {
        let slot = self.client().await?;
        let rows = slot
            .query(
                "UPDATE owners SET expires = now() + $2 * interval '1 millisecond' \
                 WHERE node = $1 AND expires > now() RETURNING table_id",
                &[&self.node, &(self.lease_ms as f64)],
            )
            .await
            .map_err(pg)?;
        Ok(Held::Only(rows.iter().map(|r| r.get(0)).collect()))
    }

    async fn holders(&self, tables: &[String]) -> Result<Vec<(String, Holder)>, StoreError> {
        let slot = self.client().await?;
        let rows = slot
            .query(
                "SELECT table_id, node, epoch FROM owners WHERE table_id = ANY($1) AND expires > now()",
                &[&tables],
            )
            .await
            .map_err(pg)?;
        Ok(rows.iter().map(|r| (r.get(0), Holder { node: r.get(1), epoch: r.get(2) })).collect())
    }

    async fn release(&self, table: &str, epoch: Epoch) -> Result<(), StoreError> {
        let slot = self.client().await?;
        slot.execute(
            "UPDATE owners SET expires = '-infinity' WHERE table_id = $1 AND node = $2 AND epoch = $3",
            &[&table, &self.node, &epoch],
        )
        .await
        .map_err(pg)?;
        Ok(())
    }

    async fn beat(&self, bus: bool) -> Result<Beat, StoreError> {
        let slot = self.client().await?;
        slot.execute(
            "INSERT INTO nodes (node, bus, seen) VALUES ($1, $2, now()) \
             ON CONFLICT (node) DO UPDATE SET bus = excluded.bus, seen = excluded.seen",
            &[&self.node, &bus],
        )
        .await
        .map_err(pg)?;
        let row = slot
            .query_one(
                "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT, \
                 coalesce(array_agg(node ORDER BY node) FILTER \
                   (WHERE bus AND seen > now() - $1 * interval '1 millisecond'), '{}') FROM nodes",
                &[&(super::MEMBER_MS as f64)],
            )
            .await
            .map_err(pg)?;
        let loads = slot
            .query("SELECT node, count(*) FROM owners WHERE expires > now() GROUP BY node", &[])
            .await
            .map_err(pg)?;
        let loads = loads.iter().map(|r| (r.get(0), r.get::<_, i64>(1).max(0) as u64)).collect();
        Ok(Beat { now_ms: row.get(0), members: row.get(1), loads })
    }

    async fn leave(&self) -> Result<(), StoreError> {
        let slot = self.client().await?;
        slot.execute("DELETE FROM nodes WHERE node = $1", &[&self.node]).await.map_err(pg)?;
        Ok(())
    }

    async fn orphans(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        let slot = self.client().await?;
        let rows = slot
            .query(
                "SELECT o.table_id FROM owners o JOIN tables t ON t.id = o.table_id \
                 WHERE o.expires <= now() AND t.status NOT IN ('finished', 'closed') \
                 ORDER BY o.expires LIMIT $1",
                &[&i64::from(limit)],
            )
            .await
            .map_err(pg)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

#[async_trait]
impl Identities for PgStore {
    async fn create_guest(&self, guest: &GuestRow) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        c.execute(sql::INSERT_GUEST.pg, &[&guest.id, &guest.name, &guest.token_hash, &guest.created_ms])
            .await
            .map_err(pg)?;
        Ok(())
    }

    async fn guest_by_token_hash(&self, token_hash: &str) -> Result<Option<GuestRow>, StoreError> {
        let slot = self.client().await?;
        read_guest(&*slot, sql::GUEST_BY_TOKEN_HASH, token_hash).await
    }

    async fn guest(&self, id: &str) -> Result<Option<GuestRow>, StoreError> {
        let slot = self.client().await?;
        read_guest(&*slot, sql::GUEST_BY_ID, id).await
    }

    async fn claim_account(&self, account: &AccountRow, session: &SessionRow) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        tx.execute(
            sql::INSERT_ACCOUNT.pg,
            &[
                &account.guest,
                &account.username,
                &account.username_key,
                &account.password_hash,
                &account.created_ms,
            ],
        )
        .await
        .map_err(pg)?;
        write_session(&tx, session).await?;
        tx.execute(sql::RETIRE_GUEST_TOKEN.pg, &[&account.guest]).await.map_err(pg)?;
        tx.commit().await.map_err(pg)
    }

    async fn account_by_username(&self, username_key: &str) -> Result<Option<AccountRow>, StoreError> {
        let slot = self.client().await?;
        read_account(&*slot, sql::ACCOUNT_BY_USERNAME, username_key).await
    }

    async fn account_by_guest(&self, guest: &str) -> Result<Option<AccountRow>, StoreError> {
        let slot = self.client().await?;
        read_account(&*slot, sql::ACCOUNT_BY_GUEST, guest).await
    }

    async fn set_password(&self, guest: &str, password_hash: &str) -> Result<(), StoreError> {
        let slot = self.client().await?;
        slot.execute(sql::SET_PASSWORD.pg, &[&guest, &password_hash]).await.map_err(pg)?;
        Ok(())
    }

    async fn delete_account(&self, guest: &str, name: &str) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        // The names he went by: the guest's (shown at tables) and the account's username.
        let mut old: Vec<String> = Vec::new();
        for q in [sql::USERNAME_OF, sql::GUEST_NAME_OF] {
            if let Some(r) = tx.query_opt(q.pg, &[&guest]).await.map_err(pg)? {
                old.push(r.get(0));
            }
        }
        let removed = tx.execute(sql::DELETE_ACCOUNT.pg, &[&guest]).await.map_err(pg)?;
        if removed == 0 {
            return tx.commit().await.map_err(pg);
        }
        // His sessions, ratings and addresses; his mutes and blocks, both ways; the reports keep
        // their rows for the operator, but his former names in their text become `name`.
        for q in sql::DELETE_ACCOUNT_ROWS {
            tx.execute(q.pg, &[&guest]).await.map_err(pg)?;
        }
        for o in old.iter().filter(|o| !o.is_empty()) {
            let found = tx.query(sql::REPORTS_NAMING.pg, &[o]).await.map_err(pg)?;
            for r in found {
                let (id, reason, text): (String, String, Option<String>) = (r.get(0), r.get(1), r.get(2));
                let reason = super::forget_in_text(&reason, &old, name).unwrap_or(reason);
                let text = text.map(|t| super::forget_in_text(&t, &old, name).unwrap_or(t));
                tx.execute(sql::UPDATE_REPORT_TEXT.pg, &[&id, &reason, &text]).await.map_err(pg)?;
            }
        }
        tx.execute(sql::FORGET_GUEST.pg, &[&guest, &name]).await.map_err(pg)?;
        // The records of finished tables name their players: rename this guest's seats there.
        let rows = tx.query(sql::SEATS_WITH_RECORDS.pg, &[&guest]).await.map_err(pg)?;
        let finished: Vec<(String, i64, String)> =
            rows.iter().map(|r| (r.get(0), i64::from(r.get::<_, i16>(1)), r.get(2))).collect();
        for (table, seats, record) in super::group_seats(finished) {
            let renamed = super::rename_in_record(&record, &seats, name);
            tx.execute(sql::UPDATE_RECORD.pg, &[&table, &renamed]).await.map_err(pg)?;
            // The public archive names the players too (and is searched by their names).
            if let Some((players, keys)) = super::archive_players(&renamed) {
                let n = tx.execute(sql::UPDATE_ARCHIVE_PLAYERS.pg, &[&table, &players]).await.map_err(pg)?;
                if n == 1 {
                    tx.execute(sql::DELETE_ARCHIVE_INDEX.pg, &[&table]).await.map_err(pg)?;
                    index_players(&tx, &table, &keys).await?;
                }
            }
        }
        tx.execute(sql::RENAME_SEATS.pg, &[&guest, &name]).await.map_err(pg)?;
        tx.execute(sql::RENAME_CHAT.pg, &[&guest, &name]).await.map_err(pg)?;
        // The names of the tables he created ("NAME's table"), and of their archived games.
        let hosted = tx.query(sql::HOSTED_SETTINGS.pg, &[&guest]).await.map_err(pg)?;
        for r in hosted {
            let (table, settings): (String, String) = (r.get(0), r.get(1));
            if let Some((settings, table_name)) = super::forget_in_settings(&settings, &old, name) {
                tx.execute(sql::UPDATE_SETTINGS.pg, &[&table, &settings]).await.map_err(pg)?;
                tx.execute(sql::UPDATE_ARCHIVE_NAME.pg, &[&table, &table_name]).await.map_err(pg)?;
            }
        }
        tx.commit().await.map_err(pg)
    }

    async fn create_session(&self, session: &SessionRow) -> Result<(), StoreError> {
        let slot = self.client().await?;
        write_session(&*slot, session).await
    }

    async fn session_by_token_hash(&self, token_hash: &str) -> Result<Option<SessionRow>, StoreError> {
        let slot = self.client().await?;
        let row = slot.query_opt(sql::SESSION_BY_TOKEN_HASH.pg, &[&token_hash]).await.map_err(pg)?;
        Ok(row.map(|r| SessionRow {
            token_hash: r.get(0),
            guest: r.get(1),
            created_ms: r.get(2),
            expires_ms: r.get(3),
            revoked_ms: r.get(4),
        }))
    }

    async fn revoke_sessions(
        &self,
        guest: &str,
        except: Option<&str>,
        at_ms: i64,
    ) -> Result<u64, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        let old = at_ms - super::SESSION_KEEP_MS;
        tx.execute(sql::DELETE_OLD_SESSIONS.pg, &[&guest, &old]).await.map_err(pg)?;
        let n = tx.execute(sql::REVOKE_SESSIONS.pg, &[&guest, &except, &at_ms]).await.map_err(pg)?;
        tx.commit().await.map_err(pg)?;
        Ok(n)
    }

    async fn revoke_session(&self, token_hash: &str, at_ms: i64) -> Result<(), StoreError> {
        let slot = self.client().await?;
        slot.execute(sql::REVOKE_SESSION.pg, &[&token_hash, &at_ms]).await.map_err(pg)?;
        Ok(())
    }

    async fn tables_of_guest(&self, guest: &str, limit: u32) -> Result<Vec<TableRow>, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let rows = c.query(sql::TABLES_OF_GUEST.pg, &[&guest, &i64::from(limit)]).await.map_err(pg)?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            out.push(table_from(c, r).await?);
        }
        Ok(out)
    }

    async fn note_address(
        &self,
        guest: &str,
        address: &str,
        at_ms: i64,
        new_secret: &str,
    ) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        tx.execute(sql::INSERT_ADDRESS_SECRET.pg, &[&new_secret]).await.map_err(pg)?;
        let key: String = tx.query_one(sql::ADDRESS_SECRET.pg, &[]).await.map_err(pg)?.get(0);
        let hash = crate::ids::keyed_hash(&key, address);
        tx.execute(sql::NOTE_ADDRESS.pg, &[&guest, &hash, &at_ms]).await.map_err(pg)?;
        tx.execute(
            sql::TRIM_ADDRESSES.pg,
            &[&guest, &(at_ms - crate::ratings::ADDRESS_WINDOW_MS), &crate::ratings::ADDRESS_LIMIT],
        )
        .await
        .map_err(pg)?;
        tx.commit().await.map_err(pg)
    }

    async fn address_hashes(&self, guest: &str) -> Result<Vec<String>, StoreError> {
        let slot = self.client().await?;
        let rows = slot.query(sql::ADDRESS_HASHES.pg, &[&guest]).await.map_err(pg)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

#[async_trait]
impl Archive for PgStore {
    async fn archived_games(&self, query: &ArchiveQuery) -> Result<Vec<ArchivedGame>, StoreError> {
        let slot = self.client().await?;
        let rows = archive_query(&slot, query, false).await?;
        Ok(rows.into_iter().map(|(g, _)| g).collect())
    }

    async fn archived_records(
        &self,
        query: &ArchiveQuery,
    ) -> Result<Vec<(ArchivedGame, String)>, StoreError> {
        let slot = self.client().await?;
        let rows = archive_query(&slot, query, true).await?;
        rows.into_iter()
            .map(|(g, r)| match r {
                Some(r) => Ok((g, r)),
                None => Err(StoreError::Corrupt(format!("archived game {} has no record", g.id))),
            })
            .collect()
    }

    async fn ratings_of(&self, guest: &str) -> Result<Vec<RatingRow>, StoreError> {
        let slot = self.client().await?;
        let rows = slot.query(sql::RATINGS_OF.pg, &[&guest]).await.map_err(pg)?;
        Ok(rows.iter().map(|r| rating_row(r, 0)).collect())
    }

    async fn leaderboard(
        &self,
        game: &str,
        offset: u32,
        limit: u32,
    ) -> Result<(Vec<(String, RatingRow)>, u32), StoreError> {
        let slot = self.client().await?;
        let total: i64 = slot.query_one(sql::LEADERBOARD_SIZE.pg, &[&game]).await.map_err(pg)?.get(0);
        let (limit, offset) = (i64::from(limit), i64::from(offset));
        let rows = slot.query(sql::LEADERBOARD.pg, &[&game, &limit, &offset]).await.map_err(pg)?;
        let rows = rows.iter().map(|r| (r.get::<_, String>(0), rating_row(r, 1))).collect();
        Ok((rows, u32::try_from(total).unwrap_or(u32::MAX)))
    }

    async fn rating_history(&self, guest: &str, limit: u32) -> Result<Vec<HistoryRow>, StoreError> {
        let slot = self.client().await?;
        let limit = i64::from(limit);
        let rows = slot.query(sql::RATING_HISTORY.pg, &[&guest, &limit]).await.map_err(pg)?;
        Ok(rows.iter().map(history_row).collect())
    }
}

#[async_trait]
impl AnalysisStore for PgStore {
    async fn put_analysis(&self, key: &AnalysisKey, analysis: &str) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let (hand, seat, seed, think_ms) =
            (key.hand as i32, i16::from(key.seat), key.seed as i64, key.think_ms as i32);
        // The row's foreign key refuses an unknown table; that is told apart from other failures.
        let known = slot.query_opt(sql::TABLE_EXISTS.pg, &[&key.table]).await.map_err(pg)?;
        if known.is_none() {
            return Err(StoreError::NoTable(key.table.clone()));
        }
        slot.execute(
            sql::PUT_ANALYSIS.pg,
            &[&key.table, &hand, &seat, &seed, &think_ms, &analysis, &super::now_ms()],
        )
        .await
        .map_err(pg)?;
        Ok(())
    }

    async fn analysis(&self, key: &AnalysisKey) -> Result<Option<String>, StoreError> {
        let slot = self.client().await?;
        let (hand, seat, seed, think_ms) =
            (key.hand as i32, i16::from(key.seat), key.seed as i64, key.think_ms as i32);
        let row = slot
            .query_opt(sql::ANALYSIS.pg, &[&key.table, &hand, &seat, &seed, &think_ms])
            .await
            .map_err(pg)?;
        Ok(row.map(|r| r.get::<_, String>(0)))
    }
}

fn rating_row(r: &Row, i: usize) -> RatingRow {
    let count = |k: usize| u32::try_from(r.get::<_, i64>(i + k)).unwrap_or(u32::MAX);
    RatingRow {
        guest: r.get(i),
        game: r.get(i + 1),
        rating: r.get(i + 2),
        deviation: r.get(i + 3),
        volatility: r.get(i + 4),
        games: count(5),
        wins: count(6),
        losses: count(7),
        draws: count(8),
        updated_ms: r.get(i + 9),
    }
}

fn history_row(r: &Row) -> HistoryRow {
    HistoryRow {
        guest: r.get(0),
        game: r.get(1),
        table: r.get(2),
        at_ms: r.get(3),
        before: rating::Rating { rating: r.get(4), deviation: r.get(5), volatility: r.get(6) },
        after: rating::Rating { rating: r.get(7), deviation: r.get(8), volatility: r.get(9) },
        score: r.get(10),
        opponents: u32::try_from(r.get::<_, i64>(11)).unwrap_or(0),
        forfeited: r.get::<_, i64>(12) != 0,
    }
}

/// Updates the ratings of a rated match's accounts, once: a table whose match has history rows
/// is rated already. The accounts' rows are locked first (in a fixed order), so that two matches
/// ending at once on two nodes update one account one after the other. A match the ratings
/// cannot be worked out of is reported and left unrated (the table's finish is stored all the
/// same).
async fn write_rated<C: GenericClient>(
    c: &C,
    table: &str,
    m: &table::rated::RatedMatch,
) -> Result<(), StoreError> {
    let done: i64 = c.query_one(sql::RATED_ROWS.pg, &[&table]).await.map_err(pg)?.get(0);
    if done > 0 {
        return Ok(());
    }
    let (accounts, shared, now) =
        rating_inputs(c, crate::ratings::persons(m), crate::ratings::game_name(m.game)).await?;
    let settled = match crate::ratings::settle(table, m, &accounts, &shared, now) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(%table, error = %e, "the rated match is left unrated");
            return Ok(());
        }
    };
    write_settled(c, settled).await
}

/// Updates the ratings of a rated duplicate event's accounts (`docs/events.md`, "Rated
/// events"), once: an event whose people's tables have history rows is rated already. The
/// accounts' rows are locked as for a match. An event the ratings cannot be worked out of is
/// reported and left unrated.
pub(crate) async fn write_event_rated<C: GenericClient>(
    c: &C,
    id: &str,
    event: &crate::ratings::RatedEvent,
) -> Result<(), StoreError> {
    for table in event.history_tables() {
        let done: i64 = c.query_one(sql::RATED_ROWS.pg, &[&table]).await.map_err(pg)?.get(0);
        if done > 0 {
            return Ok(());
        }
    }
    let (accounts, shared, now) =
        rating_inputs(c, event.persons(), crate::ratings::game_name(event.game)).await?;
    let settled = match crate::ratings::settle_event(event, &accounts, &shared, now) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(event = %id, error = %e, "the rated event is left unrated");
            return Ok(());
        }
    };
    write_settled(c, settled).await
}

/// The stored ratings in `game` of those of `guests` who have an account (their rows locked, in
/// a fixed order), how many rated matches each pair of them shared in the window (the pair
/// limit for two accounts seen at one address), and now.
#[allow(clippy::type_complexity)]
async fn rating_inputs<C: GenericClient>(
    c: &C,
    mut guests: Vec<String>,
    game: &str,
) -> Result<
    (
        std::collections::HashMap<String, Option<RatingRow>>,
        std::collections::HashMap<(String, String), u32>,
        i64,
    ),
    StoreError,
> {
    guests.sort();
    guests.dedup();
    let mut accounts = std::collections::HashMap::new();
    for guest in guests {
        if c.query_opt("SELECT 1 FROM accounts WHERE guest_id = $1 FOR UPDATE", &[&guest])
            .await
            .map_err(pg)?
            .is_none()
        {
            continue;
        }
        let row = c.query_opt(sql::RATING.pg, &[&guest, &game]).await.map_err(pg)?.map(|r| rating_row(&r, 0));
        accounts.insert(guest, row);
    }
    let now = super::now_ms();
    let mut shared = std::collections::HashMap::new();
    let guests: Vec<String> = accounts.keys().cloned().collect();
    for (a, b) in crate::ratings::pairs(&guests) {
        let n: i64 = c
            .query_one(sql::PAIR_MATCHES.pg, &[&a, &b, &(now - crate::ratings::PAIR_WINDOW_MS)])
            .await
            .map_err(pg)?
            .get(0);
        // Two accounts seen at one address in the window count as the pair limit reached.
        let same: i64 = c
            .query_one(sql::PAIR_ADDRESSES.pg, &[&a, &b, &(now - crate::ratings::ADDRESS_WINDOW_MS)])
            .await
            .map_err(pg)?
            .get(0);
        let n = if same > 0 { u32::MAX } else { u32::try_from(n).unwrap_or(u32::MAX) };
        shared.insert((a, b), n);
    }
    Ok((accounts, shared, now))
}

/// Writes the new ratings and the history rows of a settled match or event.
async fn write_settled<C: GenericClient>(
    c: &C,
    settled: Vec<(RatingRow, HistoryRow)>,
) -> Result<(), StoreError> {
    for (r, h) in settled {
        let counts = [r.games, r.wins, r.losses, r.draws].map(i64::from);
        c.execute(
            sql::PUT_RATING.pg,
            &[
                &r.guest,
                &r.game,
                &r.rating,
                &r.deviation,
                &r.volatility,
                &counts[0],
                &counts[1],
                &counts[2],
                &counts[3],
                &r.updated_ms,
            ],
        )
        .await
        .map_err(pg)?;
        let (opponents, forfeited) = (i64::from(h.opponents), i64::from(h.forfeited));
        c.execute(
            sql::INSERT_HISTORY.pg,
            &[
                &h.guest,
                &h.game,
                &h.table,
                &h.at_ms,
                &h.before.rating,
                &h.before.deviation,
                &h.before.volatility,
                &h.after.rating,
                &h.after.deviation,
                &h.after.volatility,
                &h.score,
                &opponents,
                &forfeited,
            ],
        )
        .await
        .map_err(pg)?;
    }
    Ok(())
}

async fn write_session<C: GenericClient>(c: &C, s: &SessionRow) -> Result<(), StoreError> {
    c.execute(
        sql::INSERT_SESSION.pg,
        &[&s.token_hash, &s.guest, &s.created_ms, &s.expires_ms, &s.revoked_ms],
    )
    .await
    .map_err(pg)?;
    Ok(())
}

/// The guest `query` ([`sql::GUEST_BY_ID`] or [`sql::GUEST_BY_TOKEN_HASH`]) selects by `value`.
async fn read_guest<C: GenericClient>(
    c: &C,
    query: Sql,
    value: &str,
) -> Result<Option<GuestRow>, StoreError> {
    let row = c.query_opt(query.pg, &[&value]).await.map_err(pg)?;
    Ok(row.map(|r| GuestRow { id: r.get(0), name: r.get(1), token_hash: r.get(2), created_ms: r.get(3) }))
}

/// The account `query` ([`sql::ACCOUNT_BY_GUEST`] or [`sql::ACCOUNT_BY_USERNAME`]) selects by
/// `value`.
async fn read_account<C: GenericClient>(
    c: &C,
    query: Sql,
    value: &str,
) -> Result<Option<AccountRow>, StoreError> {
    let row = c.query_opt(query.pg, &[&value]).await.map_err(pg)?;
    Ok(row.map(|r| AccountRow {
        guest: r.get(0),
        username: r.get(1),
        username_key: r.get(2),
        password_hash: r.get(3),
        created_ms: r.get(4),
    }))
}
