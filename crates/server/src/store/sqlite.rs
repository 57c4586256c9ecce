//! The SQLite backend: one file, no server to install (the default).
//!
//! One thread owns the connection. Requests queue up while it works, and every write waiting in
//! the queue is committed in one transaction (group commit), each in its own savepoint so that one
//! failing write does not undo the others. The database runs in WAL mode with `synchronous =
//! NORMAL`: a committed transaction survives the server being killed at any moment (it is in the
//! log before the commit returns); only a power failure can lose the last commits.

use std::any::Any;
use std::sync::mpsc;

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

use super::RATINGS_SCHEMA;
use super::sql::{self, Sql};
use super::{
    ANALYSIS_SCHEMA, ARCHIVE_SCHEMA, AccountRow, AnalysisKey, AnalysisStore, Archive, ArchiveQuery,
    ArchivedGame, Beat, ChatRow, Epoch, FIRST_EPOCH, GuestRow, Held, HistoryRow, Holder, Identities, Leases,
    LoggedAction, RatingRow, SCHEMA, SeatRow, SessionRow, Store, StoreError, TableLog, TableRow, TableStatus,
    Write, archive_entry, archived_from, seat_columns, seat_from_columns,
};
use crate::ratings::{game_name, persons, settle};
use std::collections::HashMap;

type Output = Result<Box<dyn Any + Send>, StoreError>;
type Work = Box<dyn FnOnce(&Connection) -> Output + Send>;

struct Job {
    work: Work,
    done: oneshot::Sender<Output>,
    /// After the transaction that holds this job commits, the write-ahead log is checkpointed
    /// into the database file and truncated (what an account's deletion asks: no copy of the
    /// pages it overwrote stays in the log).
    checkpoint: bool,
}

/// A SQLite database file.
///
/// One node uses the file, so ownership is trivial: that node holds every unfinished table, in
/// the epoch [`FIRST_EPOCH`], any claim of one succeeds, and no write is ever fenced.
pub struct SqliteStore {
    jobs: mpsc::Sender<Job>,
}

pub(crate) fn backend(e: rusqlite::Error) -> StoreError {
    if let rusqlite::Error::SqliteFailure(f, msg) = &e
        && f.code == rusqlite::ErrorCode::ConstraintViolation
    {
        return StoreError::Conflict(msg.clone().unwrap_or_else(|| e.to_string()));
    }
    StoreError::Backend(e.to_string())
}

/// Every row `sql` selects with `params`, each read by `row`.
pub(crate) fn rows<T, P: rusqlite::Params>(
    c: &Connection,
    sql: &str,
    params: P,
    row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, StoreError> {
    let mut stmt = c.prepare_cached(sql).map_err(backend)?;
    stmt.query_map(params, row).map_err(backend)?.collect::<Result<_, _>>().map_err(backend)
}

/// How many queued requests one transaction takes at most.
const BATCH: usize = 512;

impl SqliteStore {
    /// Opens (creating when missing) the database file at `path`, and checks that it can be used:
    /// it must pass SQLite's integrity check (`PRAGMA integrity_check`, or the faster
    /// `PRAGMA quick_check` for a file over [`FULL_CHECK_BYTES`]) and take a real write (the
    /// `meta` table's `last_start_ms`, committed). Either failing is [`StoreError::Unusable`] with
    /// a message that says what to do.
    pub fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let unusable = |why: String| StoreError::Unusable(format!("the SQLite database {path:?} {why}"));
        let conn = Connection::open(path).map_err(|e| unusable(format!("cannot be opened: {e}")))?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; \
             PRAGMA busy_timeout = 5000; PRAGMA secure_delete = ON;",
        )
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::ReadOnly) => unusable(not_writable(&e)),
            _ => unusable(format!("cannot be read as a database (is it one, and undamaged?): {e}")),
        })?;
        integrity(&conn, path).map_err(|e| unusable(e.to_string()))?;
        let write = |conn: &Connection| -> Result<(), rusqlite::Error> {
            for sql in SCHEMA
                .iter()
                .chain(ARCHIVE_SCHEMA)
                .chain(RATINGS_SCHEMA)
                .chain(ANALYSIS_SCHEMA)
                .chain(super::MODERATION_SCHEMA)
                .chain(super::PUZZLE_SCHEMA)
                .chain(super::FRIENDS_SCHEMA)
                .chain(super::EVENT_SCHEMA)
                .chain(super::TOURNAMENT_SCHEMA)
                .chain(super::PLAY_NOW_SCHEMA)
            {
                conn.execute_batch(sql)?;
            }
            conn.execute(super::WRITE_PROBE, params![super::now_ms_text()])?;
            Ok(())
        };
        write(&conn).map_err(|e| unusable(not_writable(&e)))?;
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("yezi-sqlite".into())
            .spawn(move || worker(conn, rx))
            .map_err(|e| StoreError::Backend(format!("cannot start the database thread: {e}")))?;
        Ok(SqliteStore { jobs: tx })
    }

    pub(crate) async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        self.call_then(false, f).await
    }

    /// [`SqliteStore::call`], then (with `checkpoint`) the write-ahead log checkpointed and
    /// truncated once the job's transaction has committed.
    async fn call_then<T: Send + 'static>(
        &self,
        checkpoint: bool,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (done, rx) = oneshot::channel();
        let work: Work = Box::new(move |c| f(c).map(|t| Box::new(t) as Box<dyn Any + Send>));
        self.jobs
            .send(Job { work, done, checkpoint })
            .map_err(|_| StoreError::Backend("the database thread has stopped".into()))?;
        let out = rx.await.map_err(|_| StoreError::Backend("the database thread has stopped".into()))??;
        out.downcast::<T>()
            .map(|b| *b)
            .map_err(|_| StoreError::Backend("internal: a database reply of the wrong type".into()))
    }
}

/// What to say of a database that refused a write.
fn not_writable(e: &rusqlite::Error) -> String {
    format!(
        "cannot be written: {e} (check the permissions of the file and of its folder, which must be \
         writable for the write-ahead log, and the free disk space)"
    )
}

/// Files up to this size get the full `PRAGMA integrity_check` at start; larger ones the faster
/// `PRAGMA quick_check` (which skips checking that indexes match their tables' rows). Measured on
/// 2026-11-24 on the 2-core build machine: a 112 MiB file of 2 million actions takes 0.84 s with
/// `integrity_check` and 0.24 s with `quick_check`, so the full check costs about 2 s at the limit.
pub const FULL_CHECK_BYTES: u64 = 256 * 1024 * 1024;

/// What SQLite's integrity check found wrong with a database (said after its name).
#[derive(Debug, thiserror::Error)]
enum Damage {
    /// The check reports problems.
    #[error(
        "is damaged: PRAGMA {pragma} reports {}; restore it from a backup (or move it away to start \
         with an empty database)",
        lines.join("; ")
    )]
    Reported {
        /// The check run.
        pragma: &'static str,
        /// What it reported.
        lines: Vec<String>,
    },
    /// The check itself fails.
    #[error("is damaged: PRAGMA {pragma} fails: {error}; restore it from a backup")]
    Failed {
        /// The check run.
        pragma: &'static str,
        /// Why it fails.
        error: rusqlite::Error,
    },
}

/// Runs SQLite's integrity check on an open database; the error says what it found.
fn integrity(conn: &Connection, path: &str) -> Result<(), Damage> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let pragma = if size <= FULL_CHECK_BYTES { "integrity_check" } else { "quick_check" };
    let found: Result<Vec<String>, rusqlite::Error> = conn
        .prepare(&format!("PRAGMA {pragma}(10)"))
        .and_then(|mut stmt| stmt.query_map([], |r| r.get::<_, String>(0))?.collect());
    match found {
        Ok(lines) if lines == ["ok"] => Ok(()),
        Ok(lines) => Err(Damage::Reported { pragma, lines }),
        Err(error) => Err(Damage::Failed { pragma, error }),
    }
}

fn worker(conn: Connection, rx: mpsc::Receiver<Job>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
            let e = backend(e);
            for j in batch {
                let _ = j.done.send(Err(e.clone()));
            }
            continue;
        }
        let checkpoint = batch.iter().any(|j| j.checkpoint);
        let mut results = Vec::with_capacity(batch.len());
        for j in batch {
            let out = match conn.execute_batch("SAVEPOINT job") {
                Ok(()) => {
                    let out = (j.work)(&conn);
                    let end = if out.is_ok() { "RELEASE job" } else { "ROLLBACK TO job; RELEASE job" };
                    match conn.execute_batch(end) {
                        Ok(()) => out,
                        Err(e) => Err(backend(e)),
                    }
                }
                Err(e) => Err(backend(e)),
            };
            results.push((j.done, out));
        }
        match conn.execute_batch("COMMIT") {
            Ok(()) => {
                if checkpoint {
                    // Every page the log holds goes into the file (where secure_delete has zeroed
                    // what was deleted or overwritten), and the log is emptied.
                    let done: Result<(i64, i64, i64), _> =
                        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                        });
                    match done {
                        Ok((0, _, _)) => {}
                        Ok(busy) => {
                            tracing::warn!(?busy, "the write-ahead log could not be checkpointed in full")
                        }
                        Err(e) => tracing::warn!(error = %e, "the write-ahead log could not be checkpointed"),
                    }
                }
                for (done, out) in results {
                    let _ = done.send(out);
                }
            }
            Err(e) => {
                let e = backend(e);
                let _ = conn.execute_batch("ROLLBACK");
                for (done, _) in results {
                    let _ = done.send(Err(e.clone()));
                }
            }
        }
    }
}

fn read_seats(c: &Connection, table: &str) -> Result<[SeatRow; 4], StoreError> {
    let mut stmt = c.prepare_cached(sql::SEATS.sqlite).map_err(backend)?;
    let rows = stmt
        .query_map(params![table], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })
        .map_err(backend)?;
    let mut seats = [SeatRow::Open, SeatRow::Open, SeatRow::Open, SeatRow::Open];
    let mut seen = 0;
    for row in rows {
        let (seat, kind, bot, guest, name) = row.map_err(backend)?;
        let i = usize::try_from(seat)
            .ok()
            .filter(|&i| i < 4)
            .ok_or_else(|| StoreError::Corrupt(format!("table {table}: seat {seat}")))?;
        seats[i] = seat_from_columns(&kind, bot, guest, name)?;
        seen += 1;
    }
    if seen != 4 {
        return Err(StoreError::Corrupt(format!("table {table} has {seen} seats stored")));
    }
    Ok(seats)
}

type TableCols = (String, String, String, i64, Option<String>, String, i64);

fn table_from(c: &Connection, cols: TableCols) -> Result<TableRow, StoreError> {
    let (id, game, settings, seed, host, status, created_ms) = cols;
    let seats = read_seats(c, &id)?;
    Ok(TableRow {
        id,
        game,
        settings,
        seed: seed as u64,
        host,
        status: TableStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("table status {status:?}")))?,
        created_ms,
        seats,
    })
}

fn table_cols(r: &rusqlite::Row<'_>) -> rusqlite::Result<TableCols> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?))
}

fn require_table(c: &Connection, table: &str) -> Result<(), StoreError> {
    let found: Option<i64> =
        c.query_row(sql::TABLE_EXISTS.sqlite, params![table], |r| r.get(0)).optional().map_err(backend)?;
    found.map(|_| ()).ok_or_else(|| StoreError::NoTable(table.to_string()))
}

fn write_seat(c: &Connection, table: &str, seat: u8, row: &SeatRow) -> Result<(), StoreError> {
    let (kind, bot, guest, name) = seat_columns(row);
    let n = c
        .execute(sql::UPDATE_SEAT.sqlite, params![table, i64::from(seat), kind, bot, guest, name])
        .map_err(backend)?;
    if n == 1 { Ok(()) } else { Err(StoreError::NoTable(table.to_string())) }
}

fn write_status(c: &Connection, table: &str, status: TableStatus) -> Result<(), StoreError> {
    let n = c.execute(sql::UPDATE_STATUS.sqlite, params![table, status.name()]).map_err(backend)?;
    if n == 1 { Ok(()) } else { Err(StoreError::NoTable(table.to_string())) }
}

fn write_actions(c: &Connection, table: &str, actions: &[LoggedAction]) -> Result<(), StoreError> {
    require_table(c, table)?;
    let mut stmt = c
        .prepare_cached("INSERT INTO actions (table_id, seq, hand, seat, action) VALUES (?1, ?2, ?3, ?4, ?5)")
        .map_err(backend)?;
    for a in actions {
        stmt.execute(params![table, a.seq as i64, i64::from(a.hand), i64::from(a.seat), a.action])
            .map_err(backend)?;
    }
    Ok(())
}

fn write_chat(c: &Connection, table: &str, m: &ChatRow) -> Result<(), StoreError> {
    require_table(c, table)?;
    c.execute(
        "INSERT INTO chat (table_id, seq, at_ms, guest_id, name, seat, text) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![table, m.seq as i64, m.at_ms, m.guest, m.name, m.seat.map(i64::from), m.text],
    )
    .map_err(backend)?;
    Ok(())
}

fn write_finish(c: &Connection, table: &str, record: &str) -> Result<(), StoreError> {
    let (game, settings): (String, String) = c
        .query_row(sql::FINISH.sqlite, params![table, record], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()
        .map_err(backend)?
        .ok_or_else(|| StoreError::NoTable(table.to_string()))?;
    let Some(e) = archive_entry(&game, &settings, record) else { return Ok(()) };
    c.execute(sql::INSERT_ARCHIVE.sqlite, params![table, e.game, e.name, e.finished_ms, e.players])
        .map_err(backend)?;
    index_players(c, table, &e.keys)
}

/// Indexes an archived game under its persons' names as searched (`keys`).
fn index_players(c: &Connection, table: &str, keys: &[String]) -> Result<(), StoreError> {
    for k in keys {
        c.execute(
            "INSERT INTO archive_players (table_id, name) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
            params![table, k],
        )
        .map_err(backend)?;
    }
    Ok(())
}

/// The games an archive query selects, newest first, with their records if asked.
fn archive_query(
    c: &Connection,
    q: &ArchiveQuery,
    with_records: bool,
) -> Result<Vec<(ArchivedGame, Option<String>)>, StoreError> {
    let sql = if with_records { sql::ARCHIVED_RECORDS } else { sql::ARCHIVED_GAMES };
    let mut stmt = c.prepare_cached(sql.sqlite).map_err(backend)?;
    let after_ms = q.after.as_ref().map(|a| a.finished_ms);
    let after_id = q.after.as_ref().map(|a| a.id.clone());
    let rows = stmt
        .query_map(
            params![q.from_ms, q.to_ms, after_ms, after_id, q.player_pattern(), i64::from(q.limit)],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, Option<String>>(5)?,
                ))
            },
        )
        .map_err(backend)?;
    let mut out = Vec::new();
    for row in rows {
        let (id, game, name, finished_ms, players, record) = row.map_err(backend)?;
        out.push((archived_from(id, &game, name, finished_ms, &players)?, record));
    }
    Ok(out)
}

impl Store for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }
}

#[async_trait]
impl TableLog for SqliteStore {
    async fn create_table(&self, table: &TableRow) -> Result<(), StoreError> {
        let t = table.clone();
        self.call(move |c| {
            c.execute(
                sql::INSERT_TABLE.sqlite,
                params![t.id, t.game, t.settings, t.seed as i64, t.host, t.status.name(), t.created_ms],
            )
            .map_err(backend)?;
            for (i, s) in t.seats.iter().enumerate() {
                let (kind, bot, guest, name) = seat_columns(s);
                c.execute(sql::INSERT_SEAT.sqlite, params![t.id, i as i64, kind, bot, guest, name])
                    .map_err(backend)?;
            }
            Ok(())
        })
        .await
    }

    async fn table(&self, id: &str) -> Result<Option<TableRow>, StoreError> {
        let id = id.to_string();
        self.call(move |c| {
            let cols = c.query_row(sql::TABLE.sqlite, params![id], table_cols).optional().map_err(backend)?;
            cols.map(|cols| table_from(c, cols)).transpose()
        })
        .await
    }

    async fn unfinished_tables(&self) -> Result<Vec<TableRow>, StoreError> {
        self.call(move |c| {
            let rows: Vec<TableCols> = rows(c, sql::UNFINISHED_TABLES.sqlite, [], table_cols)?;
            rows.into_iter().map(|cols| table_from(c, cols)).collect()
        })
        .await
    }

    async fn set_seat(&self, table: &str, seat: u8, row: &SeatRow) -> Result<(), StoreError> {
        let (table, row) = (table.to_string(), row.clone());
        self.call(move |c| write_seat(c, &table, seat, &row)).await
    }

    async fn set_status(&self, table: &str, status: TableStatus) -> Result<(), StoreError> {
        let table = table.to_string();
        self.call(move |c| write_status(c, &table, status)).await
    }

    async fn append_actions(&self, table: &str, actions: &[LoggedAction]) -> Result<(), StoreError> {
        let (table, actions) = (table.to_string(), actions.to_vec());
        self.call(move |c| write_actions(c, &table, &actions)).await
    }

    async fn actions(&self, table: &str) -> Result<Vec<LoggedAction>, StoreError> {
        let table = table.to_string();
        self.call(move |c| {
            let mut stmt = c.prepare_cached(sql::ACTIONS.sqlite).map_err(backend)?;
            let rows = stmt
                .query_map(params![table], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, String>(3)?,
                    ))
                })
                .map_err(backend)?;
            let mut out = Vec::new();
            for row in rows {
                let (seq, hand, seat, action) = row.map_err(backend)?;
                let bad = || StoreError::Corrupt(format!("table {table}: action {seq}"));
                out.push(LoggedAction {
                    seq: u64::try_from(seq).map_err(|_| bad())?,
                    hand: u32::try_from(hand).map_err(|_| bad())?,
                    seat: u8::try_from(seat).map_err(|_| bad())?,
                    action,
                });
            }
            Ok(out)
        })
        .await
    }

    async fn append_chat(&self, table: &str, chat: &ChatRow) -> Result<(), StoreError> {
        let (table, m) = (table.to_string(), chat.clone());
        self.call(move |c| write_chat(c, &table, &m)).await
    }

    async fn recent_chat(&self, table: &str, limit: u32) -> Result<Vec<ChatRow>, StoreError> {
        let table = table.to_string();
        self.call(move |c| {
            let mut stmt = c.prepare_cached(sql::RECENT_CHAT.sqlite).map_err(backend)?;
            let rows = stmt
                .query_map(params![table, i64::from(limit)], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, Option<i64>>(4)?,
                        r.get::<_, String>(5)?,
                    ))
                })
                .map_err(backend)?;
            let mut out = Vec::new();
            for row in rows {
                let (seq, at_ms, guest, name, seat, text) = row.map_err(backend)?;
                let bad = || StoreError::Corrupt(format!("table {table}: chat {seq}"));
                out.push(ChatRow {
                    seq: u64::try_from(seq).map_err(|_| bad())?,
                    at_ms,
                    guest,
                    name,
                    seat: seat.map(|s| u8::try_from(s).map_err(|_| bad())).transpose()?,
                    text,
                });
            }
            out.reverse();
            Ok(out)
        })
        .await
    }

    async fn finish_table(&self, table: &str, record: &str) -> Result<(), StoreError> {
        let (table, record) = (table.to_string(), record.to_string());
        self.call(move |c| write_finish(c, &table, &record)).await
    }

    async fn record(&self, table: &str) -> Result<Option<String>, StoreError> {
        let table = table.to_string();
        self.call(move |c| {
            let r: Option<Option<String>> =
                c.query_row(sql::RECORD.sqlite, params![table], |r| r.get(0)).optional().map_err(backend)?;
            Ok(r.flatten())
        })
        .await
    }

    async fn write_step(&self, table: &str, _epoch: Epoch, writes: &[Write]) -> Result<(), StoreError> {
        let (table, writes) = (table.to_string(), writes.to_vec());
        // One job: its savepoint makes the step's writes all or none.
        self.call(move |c| {
            for w in &writes {
                match w {
                    Write::Actions(rows) => write_actions(c, &table, rows)?,
                    Write::Seat { seat, owner } => write_seat(c, &table, *seat, owner)?,
                    Write::Status(status) => write_status(c, &table, *status)?,
                    Write::Chat(row) => write_chat(c, &table, row)?,
                    Write::Finish { record } => write_finish(c, &table, record)?,
                    Write::Rated(m) => write_rated(c, &table, m)?,
                }
            }
            Ok(())
        })
        .await
    }

    async fn hosted_tables(&self, guest: &str) -> Result<usize, StoreError> {
        let guest = guest.to_string();
        self.call(move |c| {
            c.query_row(sql::HOSTED_TABLES.sqlite, params![guest], |r| r.get::<_, i64>(0))
                .map(|n| n as usize)
                .map_err(backend)
        })
        .await
    }

    async fn put_summaries(&self, _rows: &[(String, String)]) -> Result<(), StoreError> {
        Ok(())
    }

    async fn summaries(&self) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }
}

#[async_trait]
impl Leases for SqliteStore {
    fn node(&self) -> &str {
        "local"
    }

    async fn claim_orphans(&self, limit: u32) -> Result<Vec<(TableRow, Epoch)>, StoreError> {
        let unfinished = self.unfinished_tables().await?;
        Ok(unfinished.into_iter().take(limit as usize).map(|t| (t, FIRST_EPOCH)).collect())
    }

    async fn claim_table(&self, id: &str) -> Result<Option<(TableRow, Epoch)>, StoreError> {
        Ok(self.table(id).await?.filter(|t| !t.status.is_over()).map(|t| (t, FIRST_EPOCH)))
    }

    async fn renew_leases(&self) -> Result<Held, StoreError> {
        Ok(Held::Every)
    }

    async fn holders(&self, tables: &[String]) -> Result<Vec<(String, Holder)>, StoreError> {
        let mut out = Vec::new();
        for t in tables {
            if self.claim_table(t).await?.is_some() {
                out.push((t.clone(), Holder { node: self.node().to_string(), epoch: FIRST_EPOCH }));
            }
        }
        Ok(out)
    }

    async fn release(&self, _table: &str, _epoch: Epoch) -> Result<(), StoreError> {
        Ok(())
    }

    async fn beat(&self, bus: bool) -> Result<Beat, StoreError> {
        // The one node's database is a file on its machine: the machine's clock is its clock.
        let now = crate::ids::machine_now_ms();
        self.call(move |c| {
            c.execute(
                "INSERT INTO meta (key, value) VALUES ('last_beat_ms', ?1) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                params![now.to_string()],
            )
            .map_err(backend)?;
            Ok(())
        })
        .await?;
        // One node holds every table: there is nobody to share the load with.
        Ok(Beat {
            now_ms: now,
            members: if bus { vec![self.node().to_string()] } else { Vec::new() },
            loads: Vec::new(),
        })
    }

    async fn leave(&self) -> Result<(), StoreError> {
        Ok(())
    }

    async fn orphans(&self, _limit: u32) -> Result<Vec<String>, StoreError> {
        // The one node holds every table.
        Ok(Vec::new())
    }
}

#[async_trait]
impl Identities for SqliteStore {
    async fn create_guest(&self, guest: &GuestRow) -> Result<(), StoreError> {
        let g = guest.clone();
        self.call(move |c| {
            c.execute(sql::INSERT_GUEST.sqlite, params![g.id, g.name, g.token_hash, g.created_ms])
                .map_err(backend)?;
            Ok(())
        })
        .await
    }

    async fn guest_by_token_hash(&self, token_hash: &str) -> Result<Option<GuestRow>, StoreError> {
        let h = token_hash.to_string();
        self.call(move |c| read_guest(c, sql::GUEST_BY_TOKEN_HASH, &h)).await
    }

    async fn guest(&self, id: &str) -> Result<Option<GuestRow>, StoreError> {
        let id = id.to_string();
        self.call(move |c| read_guest(c, sql::GUEST_BY_ID, &id)).await
    }

    async fn claim_account(&self, account: &AccountRow, session: &SessionRow) -> Result<(), StoreError> {
        let (a, s) = (account.clone(), session.clone());
        self.call(move |c| {
            c.execute(
                sql::INSERT_ACCOUNT.sqlite,
                params![a.guest, a.username, a.username_key, a.password_hash, a.created_ms],
            )
            .map_err(backend)?;
            write_session(c, &s)?;
            c.execute(sql::RETIRE_GUEST_TOKEN.sqlite, params![a.guest]).map_err(backend)?;
            Ok(())
        })
        .await
    }

    async fn account_by_username(&self, username_key: &str) -> Result<Option<AccountRow>, StoreError> {
        let key = username_key.to_string();
        self.call(move |c| read_account(c, sql::ACCOUNT_BY_USERNAME, &key)).await
    }

    async fn account_by_guest(&self, guest: &str) -> Result<Option<AccountRow>, StoreError> {
        let guest = guest.to_string();
        self.call(move |c| read_account(c, sql::ACCOUNT_BY_GUEST, &guest)).await
    }

    async fn set_password(&self, guest: &str, password_hash: &str) -> Result<(), StoreError> {
        let (guest, hash) = (guest.to_string(), password_hash.to_string());
        self.call(move |c| {
            c.execute(sql::SET_PASSWORD.sqlite, params![guest, hash]).map_err(backend)?;
            Ok(())
        })
        .await
    }

    async fn delete_account(&self, guest: &str, name: &str) -> Result<(), StoreError> {
        let (guest, name) = (guest.to_string(), name.to_string());
        self.call_then(true, move |c| {
            // The names he went by: the guest's (shown at tables) and the account's username.
            let mut old: Vec<String> = Vec::new();
            for q in [sql::USERNAME_OF, sql::GUEST_NAME_OF] {
                old.extend(c.query_row(q.sqlite, params![guest], |r| r.get(0)).optional().map_err(backend)?);
            }
            let removed = c.execute(sql::DELETE_ACCOUNT.sqlite, params![guest]).map_err(backend)?;
            if removed == 0 {
                return Ok(());
            }
            // His sessions, ratings and addresses; his mutes and blocks, both ways; the reports
            // keep their rows for the operator, but his former names in their text become `name`.
            for q in sql::DELETE_ACCOUNT_ROWS {
                c.execute(q.sqlite, params![guest]).map_err(backend)?;
            }
            for o in old.iter().filter(|o| !o.is_empty()) {
                let found: Vec<(String, String, Option<String>)> =
                    rows(c, sql::REPORTS_NAMING.sqlite, params![o], |r| {
                        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                    })?;
                for (id, reason, text) in found {
                    let reason = super::forget_in_text(&reason, &old, &name).unwrap_or(reason);
                    let text = text.map(|t| super::forget_in_text(&t, &old, &name).unwrap_or(t));
                    c.execute(sql::UPDATE_REPORT_TEXT.sqlite, params![id, reason, text]).map_err(backend)?;
                }
            }
            c.execute(sql::FORGET_GUEST.sqlite, params![guest, name]).map_err(backend)?;
            // The records of finished tables name their players: rename this guest's seats there.
            let finished: Vec<(String, i64, String)> =
                rows(c, sql::SEATS_WITH_RECORDS.sqlite, params![guest], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?;
            for (table, seats, record) in super::group_seats(finished) {
                let renamed = super::rename_in_record(&record, &seats, &name);
                c.execute(sql::UPDATE_RECORD.sqlite, params![table, renamed]).map_err(backend)?;
                // The public archive names the players too (and is searched by their names).
                if let Some((players, keys)) = super::archive_players(&renamed) {
                    let n = c
                        .execute(sql::UPDATE_ARCHIVE_PLAYERS.sqlite, params![table, players])
                        .map_err(backend)?;
                    if n == 1 {
                        c.execute(sql::DELETE_ARCHIVE_INDEX.sqlite, params![table]).map_err(backend)?;
                        index_players(c, &table, &keys)?;
                    }
                }
            }
            c.execute(sql::RENAME_SEATS.sqlite, params![guest, name]).map_err(backend)?;
            c.execute(sql::RENAME_CHAT.sqlite, params![guest, name]).map_err(backend)?;
            // The names of the tables he created ("NAME's table"), and of their archived games.
            let hosted: Vec<(String, String)> =
                rows(c, sql::HOSTED_SETTINGS.sqlite, params![guest], |r| Ok((r.get(0)?, r.get(1)?)))?;
            for (table, settings) in hosted {
                if let Some((settings, table_name)) = super::forget_in_settings(&settings, &old, &name) {
                    c.execute(sql::UPDATE_SETTINGS.sqlite, params![table, settings]).map_err(backend)?;
                    c.execute(sql::UPDATE_ARCHIVE_NAME.sqlite, params![table, table_name])
                        .map_err(backend)?;
                }
            }
            Ok(())
        })
        .await
    }

    async fn create_session(&self, session: &SessionRow) -> Result<(), StoreError> {
        let s = session.clone();
        self.call(move |c| write_session(c, &s)).await
    }

    async fn session_by_token_hash(&self, token_hash: &str) -> Result<Option<SessionRow>, StoreError> {
        let h = token_hash.to_string();
        self.call(move |c| {
            c.query_row(sql::SESSION_BY_TOKEN_HASH.sqlite, params![h], |r| {
                Ok(SessionRow {
                    token_hash: r.get(0)?,
                    guest: r.get(1)?,
                    created_ms: r.get(2)?,
                    expires_ms: r.get(3)?,
                    revoked_ms: r.get(4)?,
                })
            })
            .optional()
            .map_err(backend)
        })
        .await
    }

    async fn revoke_sessions(
        &self,
        guest: &str,
        except: Option<&str>,
        at_ms: i64,
    ) -> Result<u64, StoreError> {
        let (guest, except) = (guest.to_string(), except.map(str::to_string));
        self.call(move |c| {
            let old = at_ms - super::SESSION_KEEP_MS;
            c.execute(sql::DELETE_OLD_SESSIONS.sqlite, params![guest, old]).map_err(backend)?;
            let n = c.execute(sql::REVOKE_SESSIONS.sqlite, params![guest, except, at_ms]).map_err(backend)?;
            Ok(n as u64)
        })
        .await
    }

    async fn revoke_session(&self, token_hash: &str, at_ms: i64) -> Result<(), StoreError> {
        let h = token_hash.to_string();
        self.call(move |c| {
            c.execute(sql::REVOKE_SESSION.sqlite, params![h, at_ms]).map_err(backend)?;
            Ok(())
        })
        .await
    }

    async fn tables_of_guest(&self, guest: &str, limit: u32) -> Result<Vec<TableRow>, StoreError> {
        let guest = guest.to_string();
        self.call(move |c| {
            let rows: Vec<TableCols> =
                rows(c, sql::TABLES_OF_GUEST.sqlite, params![guest, limit], table_cols)?;
            rows.into_iter().map(|cols| table_from(c, cols)).collect()
        })
        .await
    }

    async fn note_address(
        &self,
        guest: &str,
        address: &str,
        at_ms: i64,
        new_secret: &str,
    ) -> Result<(), StoreError> {
        let (guest, address, new_secret) = (guest.to_string(), address.to_string(), new_secret.to_string());
        self.call(move |c| {
            c.execute(sql::INSERT_ADDRESS_SECRET.sqlite, params![new_secret]).map_err(backend)?;
            let key: String = c.query_row(sql::ADDRESS_SECRET.sqlite, [], |r| r.get(0)).map_err(backend)?;
            let hash = crate::ids::keyed_hash(&key, &address);
            c.execute(sql::NOTE_ADDRESS.sqlite, params![guest, hash, at_ms]).map_err(backend)?;
            c.execute(
                sql::TRIM_ADDRESSES.sqlite,
                params![guest, at_ms - crate::ratings::ADDRESS_WINDOW_MS, crate::ratings::ADDRESS_LIMIT],
            )
            .map_err(backend)?;
            Ok(())
        })
        .await
    }

    async fn address_hashes(&self, guest: &str) -> Result<Vec<String>, StoreError> {
        let guest = guest.to_string();
        self.call(move |c| rows(c, sql::ADDRESS_HASHES.sqlite, params![guest], |r| r.get(0))).await
    }
}

#[async_trait]
impl Archive for SqliteStore {
    async fn archived_games(&self, query: &ArchiveQuery) -> Result<Vec<ArchivedGame>, StoreError> {
        let q = query.clone();
        let rows = self.call(move |c| archive_query(c, &q, false)).await?;
        Ok(rows.into_iter().map(|(g, _)| g).collect())
    }

    async fn archived_records(
        &self,
        query: &ArchiveQuery,
    ) -> Result<Vec<(ArchivedGame, String)>, StoreError> {
        let q = query.clone();
        let rows = self.call(move |c| archive_query(c, &q, true)).await?;
        rows.into_iter()
            .map(|(g, r)| match r {
                Some(r) => Ok((g, r)),
                None => Err(StoreError::Corrupt(format!("archived game {} has no record", g.id))),
            })
            .collect()
    }

    async fn ratings_of(&self, guest: &str) -> Result<Vec<RatingRow>, StoreError> {
        let guest = guest.to_string();
        self.call(move |c| rows(c, sql::RATINGS_OF.sqlite, params![guest], rating_row)).await
    }

    async fn leaderboard(
        &self,
        game: &str,
        offset: u32,
        limit: u32,
    ) -> Result<(Vec<(String, RatingRow)>, u32), StoreError> {
        let game = game.to_string();
        self.call(move |c| {
            let total: i64 =
                c.query_row(sql::LEADERBOARD_SIZE.sqlite, params![game], |r| r.get(0)).map_err(backend)?;
            let rows = rows(c, sql::LEADERBOARD.sqlite, params![game, limit, offset], |r| {
                Ok((r.get::<_, String>(0)?, rating_row_at(r, 1)?))
            })?;
            Ok((rows, u32::try_from(total).unwrap_or(u32::MAX)))
        })
        .await
    }

    async fn rating_history(&self, guest: &str, limit: u32) -> Result<Vec<HistoryRow>, StoreError> {
        let guest = guest.to_string();
        self.call(move |c| rows(c, sql::RATING_HISTORY.sqlite, params![guest, limit], history_row)).await
    }
}

#[async_trait]
impl AnalysisStore for SqliteStore {
    async fn put_analysis(&self, key: &AnalysisKey, analysis: &str) -> Result<(), StoreError> {
        let (key, analysis) = (key.clone(), analysis.to_string());
        self.call(move |c| {
            require_table(c, &key.table)?;
            c.execute(
                sql::PUT_ANALYSIS.sqlite,
                params![
                    key.table,
                    key.hand,
                    key.seat,
                    key.seed as i64,
                    key.think_ms,
                    analysis,
                    super::now_ms()
                ],
            )
            .map_err(backend)?;
            Ok(())
        })
        .await
    }

    async fn analysis(&self, key: &AnalysisKey) -> Result<Option<String>, StoreError> {
        let key = key.clone();
        self.call(move |c| {
            c.query_row(
                sql::ANALYSIS.sqlite,
                params![key.table, key.hand, key.seat, key.seed as i64, key.think_ms],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)
        })
        .await
    }
}

fn rating_row(r: &rusqlite::Row) -> rusqlite::Result<RatingRow> {
    rating_row_at(r, 0)
}

fn rating_row_at(r: &rusqlite::Row, i: usize) -> rusqlite::Result<RatingRow> {
    let count = |k: usize| r.get::<_, i64>(i + k).map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    Ok(RatingRow {
        guest: r.get(i)?,
        game: r.get(i + 1)?,
        rating: r.get(i + 2)?,
        deviation: r.get(i + 3)?,
        volatility: r.get(i + 4)?,
        games: count(5)?,
        wins: count(6)?,
        losses: count(7)?,
        draws: count(8)?,
        updated_ms: r.get(i + 9)?,
    })
}

fn history_row(r: &rusqlite::Row) -> rusqlite::Result<HistoryRow> {
    Ok(HistoryRow {
        guest: r.get(0)?,
        game: r.get(1)?,
        table: r.get(2)?,
        at_ms: r.get(3)?,
        before: rating::Rating { rating: r.get(4)?, deviation: r.get(5)?, volatility: r.get(6)? },
        after: rating::Rating { rating: r.get(7)?, deviation: r.get(8)?, volatility: r.get(9)? },
        score: r.get(10)?,
        opponents: u32::try_from(r.get::<_, i64>(11)?).unwrap_or(0),
        forfeited: r.get::<_, i64>(12)? != 0,
    })
}

/// Updates the ratings of a rated match's accounts, once: a table whose match has history rows
/// is rated already. A match the ratings cannot be worked out of is reported and left unrated
/// (the table's finish is stored all the same).
fn write_rated(c: &Connection, table: &str, m: &table::rated::RatedMatch) -> Result<(), StoreError> {
    let done: i64 = c.query_row(sql::RATED_ROWS.sqlite, params![table], |r| r.get(0)).map_err(backend)?;
    if done > 0 {
        return Ok(());
    }
    let (accounts, shared, now) = rating_inputs(c, persons(m), game_name(m.game))?;
    let settled = match settle(table, m, &accounts, &shared, now) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(%table, error = %e, "the rated match is left unrated");
            return Ok(());
        }
    };
    write_settled(c, settled)
}

/// Updates the ratings of a rated duplicate event's accounts (`docs/events.md`, "Rated
/// events"), once: an event whose people's tables have history rows is rated already. An event
/// the ratings cannot be worked out of is reported and left unrated.
pub(crate) fn write_event_rated(
    c: &Connection,
    id: &str,
    event: &crate::ratings::RatedEvent,
) -> Result<(), StoreError> {
    for table in event.history_tables() {
        let done: i64 = c.query_row(sql::RATED_ROWS.sqlite, params![table], |r| r.get(0)).map_err(backend)?;
        if done > 0 {
            return Ok(());
        }
    }
    let (accounts, shared, now) = rating_inputs(c, event.persons(), game_name(event.game))?;
    let settled = match crate::ratings::settle_event(event, &accounts, &shared, now) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(event = %id, error = %e, "the rated event is left unrated");
            return Ok(());
        }
    };
    write_settled(c, settled)
}

/// The stored ratings in `game` of those of `guests` who have an account (`None`: none yet in
/// this game), how many rated matches each pair of them shared in the window (the pair limit
/// for two accounts seen at one address), and now.
#[allow(clippy::type_complexity)]
fn rating_inputs(
    c: &Connection,
    guests: Vec<String>,
    game: &str,
) -> Result<(HashMap<String, Option<RatingRow>>, HashMap<(String, String), u32>, i64), StoreError> {
    let mut accounts = std::collections::HashMap::new();
    for guest in guests {
        let has: i64 = c
            .query_row("SELECT COUNT(*) FROM accounts WHERE guest_id = ?1", params![guest], |r| r.get(0))
            .map_err(backend)?;
        if has == 0 {
            continue;
        }
        let row =
            c.query_row(sql::RATING.sqlite, params![guest, game], rating_row).optional().map_err(backend)?;
        accounts.insert(guest, row);
    }
    let now = super::now_ms();
    let mut shared = std::collections::HashMap::new();
    let guests: Vec<String> = accounts.keys().cloned().collect();
    for (a, b) in crate::ratings::pairs(&guests) {
        let n: i64 = c
            .query_row(sql::PAIR_MATCHES.sqlite, params![a, b, now - crate::ratings::PAIR_WINDOW_MS], |r| {
                r.get(0)
            })
            .map_err(backend)?;
        // Two accounts seen at one address in the window count as the pair limit reached.
        let same: i64 = c
            .query_row(
                sql::PAIR_ADDRESSES.sqlite,
                params![a, b, now - crate::ratings::ADDRESS_WINDOW_MS],
                |r| r.get(0),
            )
            .map_err(backend)?;
        let n = if same > 0 { u32::MAX } else { u32::try_from(n).unwrap_or(u32::MAX) };
        shared.insert((a, b), n);
    }
    Ok((accounts, shared, now))
}

/// Writes the new ratings and the history rows of a settled match or event.
fn write_settled(c: &Connection, settled: Vec<(RatingRow, HistoryRow)>) -> Result<(), StoreError> {
    for (r, h) in settled {
        c.execute(
            sql::PUT_RATING.sqlite,
            params![
                r.guest,
                r.game,
                r.rating,
                r.deviation,
                r.volatility,
                r.games,
                r.wins,
                r.losses,
                r.draws,
                r.updated_ms
            ],
        )
        .map_err(backend)?;
        c.execute(
            sql::INSERT_HISTORY.sqlite,
            params![
                h.guest,
                h.game,
                h.table,
                h.at_ms,
                h.before.rating,
                h.before.deviation,
                h.before.volatility,
                h.after.rating,
                h.after.deviation,
                h.after.volatility,
                h.score,
                h.opponents,
                i64::from(h.forfeited)
            ],
        )
        .map_err(backend)?;
    }
    Ok(())
}

fn write_session(c: &Connection, s: &SessionRow) -> Result<(), StoreError> {
    c.execute(
        sql::INSERT_SESSION.sqlite,
        params![s.token_hash, s.guest, s.created_ms, s.expires_ms, s.revoked_ms],
    )
    .map_err(backend)?;
    Ok(())
}

/// The guest `query` ([`sql::GUEST_BY_ID`] or [`sql::GUEST_BY_TOKEN_HASH`]) selects by `value`.
fn read_guest(c: &Connection, query: Sql, value: &str) -> Result<Option<GuestRow>, StoreError> {
    c.query_row(query.sqlite, params![value], |r| {
        Ok(GuestRow { id: r.get(0)?, name: r.get(1)?, token_hash: r.get(2)?, created_ms: r.get(3)? })
    })
    .optional()
    .map_err(backend)
}

/// The account `query` ([`sql::ACCOUNT_BY_GUEST`] or [`sql::ACCOUNT_BY_USERNAME`]) selects by
/// `value`.
fn read_account(c: &Connection, query: Sql, value: &str) -> Result<Option<AccountRow>, StoreError> {
    c.query_row(query.sqlite, params![value], |r| {
        Ok(AccountRow {
            guest: r.get(0)?,
            username: r.get(1)?,
            username_key: r.get(2)?,
            password_hash: r.get(3)?,
            created_ms: r.get(4)?,
        })
    })
    .optional()
    .map_err(backend)
}

/// Copies the SQLite database at `path` to a new file `out` while servers may be writing it
/// (SQLite's online backup: the copy is one consistent moment of the database), then checks the
/// copy (`PRAGMA integrity_check`). `out` must not exist yet. How many pages were copied.
pub fn backup(path: &str, out: &std::path::Path) -> Result<u64, StoreError> {
    let unusable = |why: String| StoreError::Unusable(why);
    if out.exists() {
        return Err(unusable(format!("{} exists already: give a new file", out.display())));
    }
    if !std::path::Path::new(path).is_file() {
        return Err(unusable(format!("the SQLite database {path:?} does not exist")));
    }
    let src = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(|e| unusable(format!("the SQLite database {path:?} cannot be opened: {e}")))?;
    src.busy_timeout(std::time::Duration::from_secs(5)).map_err(backend)?;
    let mut dst = Connection::open(out).map_err(|e| unusable(format!("{}: {e}", out.display())))?;
    let pages = {
        let b = rusqlite::backup::Backup::new(&src, &mut dst).map_err(backend)?;
        // A few pages at a time, pausing between steps, so that the server's writes go on.
        b.run_to_completion(256, std::time::Duration::from_millis(2), None).map_err(backend)?;
        b.progress().pagecount
    };
    let check: String = dst.query_row("PRAGMA integrity_check", [], |r| r.get(0)).map_err(backend)?;
    if check != "ok" {
        return Err(StoreError::Corrupt(format!(
            "the copy {} fails its integrity check: {check}",
            out.display()
        )));
    }
    Ok(u64::try_from(pages).unwrap_or(0))
}
