//! The PostgreSQL backend, for larger installations (`--db postgres://…`).
//!
//! A few connections are kept open and used in turn; each operation holds one connection for its
//! duration, so the writes of one operation are one transaction. A connection that breaks is
//! opened again on its next use.

use std::sync::atomic::{AtomicUsize, Ordering};

use async_trait::async_trait;
use tokio::sync::Mutex;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, NoTls, Row};

use super::{
    ChatRow, GuestRow, LoggedAction, SCHEMA, SeatRow, Store, StoreError, TableRow, TableStatus, seat_columns,
    seat_from_columns,
};

/// How many connections a store keeps.
const CONNECTIONS: usize = 4;

/// A PostgreSQL database.
pub struct PgStore {
    url: String,
    schema: Option<String>,
    slots: Vec<Mutex<Option<Client>>>,
    next: AtomicUsize,
}

fn pg(e: tokio_postgres::Error) -> StoreError {
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
        if let Some(s) = schema
            && !valid_schema(s)
        {
            return Err(StoreError::Backend(format!("invalid schema name {s:?}")));
        }
        let store = PgStore {
            url: url.to_string(),
            schema: schema.map(str::to_string),
            slots: (0..CONNECTIONS).map(|_| Mutex::new(None)).collect(),
            next: AtomicUsize::new(0),
        };
        let client = store.open_client().await?;
        if let Some(s) = &store.schema {
            client
                .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {s}; SET search_path TO {s}"))
                .await
                .map_err(pg)?;
        }
        for sql in SCHEMA {
            client.batch_execute(sql).await.map_err(pg)?;
        }
        // A real write, so that a database the server cannot write is found before it starts.
        client.execute(super::WRITE_PROBE, &[&super::now_ms_text()]).await.map_err(|e| {
            StoreError::Unusable(format!(
                "the PostgreSQL database cannot be written: {} (check the user's privileges and that \
                 the server is not read-only)",
                super::redact(&pg(e).to_string())
            ))
        })?;
        *store.slots[0].lock().await = Some(client);
        Ok(store)
    }

    async fn open_client(&self) -> Result<Client, StoreError> {
        let (client, connection) = tokio_postgres::connect(&self.url, NoTls)
            .await
            .map_err(|e| StoreError::Backend(super::redact(&format!("cannot connect to PostgreSQL: {e}"))))?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        if let Some(s) = &self.schema {
            client.batch_execute(&format!("SET search_path TO {s}")).await.map_err(pg)?;
        }
        Ok(client)
    }

    /// A connection for one operation (opened again if it broke).
    async fn client(&self) -> Result<tokio::sync::MutexGuard<'_, Option<Client>>, StoreError> {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.slots.len();
        let mut slot = self.slots[i].lock().await;
        if slot.as_ref().is_none_or(Client::is_closed) {
            *slot = Some(self.open_client().await?);
        }
        Ok(slot)
    }
}

/// The client inside a slot that [`PgStore::client`] has filled.
fn inner(slot: &mut Option<Client>) -> Result<&mut Client, StoreError> {
    slot.as_mut().ok_or_else(|| StoreError::Backend("no database connection".into()))
}

async fn read_seats(c: &Client, table: &str) -> Result<[SeatRow; 4], StoreError> {
    let rows = c
        .query(
            "SELECT seat, kind, bot, guest_id, name FROM seats WHERE table_id = $1 ORDER BY seat",
            &[&table],
        )
        .await
        .map_err(pg)?;
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

const TABLE_COLS: &str = "id, game, settings, seed, host, status, created_ms";

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

#[async_trait]
impl Store for PgStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    async fn create_guest(&self, guest: &GuestRow) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        c.execute(
            "INSERT INTO guests (id, name, token_hash, created_ms) VALUES ($1, $2, $3, $4)",
            &[&guest.id, &guest.name, &guest.token_hash, &guest.created_ms],
        )
        .await
        .map_err(pg)?;
        Ok(())
    }

    async fn guest_by_token_hash(&self, token_hash: &str) -> Result<Option<GuestRow>, StoreError> {
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        let row = c
            .query_opt(
                "SELECT id, name, token_hash, created_ms FROM guests WHERE token_hash = $1",
                &[&token_hash],
            )
            .await
            .map_err(pg)?;
        Ok(row.map(|r| GuestRow { id: r.get(0), name: r.get(1), token_hash: r.get(2), created_ms: r.get(3) }))
    }

    async fn create_table(&self, table: &TableRow) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        let tx = c.transaction().await.map_err(pg)?;
        let seed = table.seed as i64;
        tx.execute(
            "INSERT INTO tables (id, game, settings, seed, host, status, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[&table.id, &table.game, &table.settings, &seed, &table.host, &table.status.name(), &table.created_ms],
        )
        .await
        .map_err(pg)?;
        for (i, s) in table.seats.iter().enumerate() {
            let (kind, bot, guest, name) = seat_columns(s);
            tx.execute(
                "INSERT INTO seats (table_id, seat, kind, bot, guest_id, name) VALUES ($1, $2, $3, $4, $5, $6)",
                &[&table.id, &(i as i16), &kind, &bot, &guest, &name],
            )
            .await
            .map_err(pg)?;
        }
        tx.commit().await.map_err(pg)
    }

    async fn table(&self, id: &str) -> Result<Option<TableRow>, StoreError> {
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        let row = c
            .query_opt(&format!("SELECT {TABLE_COLS} FROM tables WHERE id = $1"), &[&id])
            .await
            .map_err(pg)?;
        match row {
            Some(r) => Ok(Some(table_from(c, &r).await?)),
            None => Ok(None),
        }
    }

    async fn unfinished_tables(&self) -> Result<Vec<TableRow>, StoreError> {
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        let rows = c
            .query(
                &format!(
                    "SELECT {TABLE_COLS} FROM tables WHERE status <> 'finished' ORDER BY created_ms, id"
                ),
                &[],
            )
            .await
            .map_err(pg)?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            out.push(table_from(c, r).await?);
        }
        Ok(out)
    }

    async fn set_seat(&self, table: &str, seat: u8, row: &SeatRow) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        let (kind, bot, guest, name) = seat_columns(row);
        let n = c
            .execute(
                "UPDATE seats SET kind = $3, bot = $4, guest_id = $5, name = $6 WHERE table_id = $1 AND seat = $2",
                &[&table, &i16::from(seat), &kind, &bot, &guest, &name],
            )
            .await
            .map_err(pg)?;
        if n == 1 { Ok(()) } else { Err(StoreError::NoTable(table.to_string())) }
    }

    async fn set_status(&self, table: &str, status: TableStatus) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        let n = c
            .execute(
                "UPDATE tables SET status = $2 WHERE id = $1 AND status <> 'finished'",
                &[&table, &status.name()],
            )
            .await
            .map_err(pg)?;
        if n == 1 { Ok(()) } else { Err(StoreError::NoTable(table.to_string())) }
    }

    async fn append_actions(&self, table: &str, actions: &[LoggedAction]) -> Result<(), StoreError> {
        if actions.is_empty() {
            return match self.table(table).await? {
                Some(_) => Ok(()),
                None => Err(StoreError::NoTable(table.to_string())),
            };
        }
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        // One statement for the whole batch: all rows or none.
        let cols: Vec<(i64, i32, i16)> =
            actions.iter().map(|a| (a.seq as i64, a.hand as i32, i16::from(a.seat))).collect();
        let mut sql = String::from("INSERT INTO actions (table_id, seq, hand, seat, action) VALUES ");
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&table];
        for (i, (a, (seq, hand, seat))) in actions.iter().zip(&cols).enumerate() {
            if i > 0 {
                sql.push_str(", ");
            }
            let b = 2 + 4 * i;
            sql.push_str(&format!("($1, ${b}, ${}, ${}, ${})", b + 1, b + 2, b + 3));
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

    async fn actions(&self, table: &str) -> Result<Vec<LoggedAction>, StoreError> {
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        let rows = c
            .query("SELECT seq, hand, seat, action FROM actions WHERE table_id = $1 ORDER BY seq", &[&table])
            .await
            .map_err(pg)?;
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
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        let seq = chat.seq as i64;
        let seat = chat.seat.map(i16::from);
        match c
            .execute(
                "INSERT INTO chat (table_id, seq, at_ms, guest_id, name, seat, text) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[&table, &seq, &chat.at_ms, &chat.guest, &chat.name, &seat, &chat.text],
            )
            .await
        {
            Ok(_) => Ok(()),
            Err(e) if is_fk(&e) => Err(StoreError::NoTable(table.to_string())),
            Err(e) => Err(pg(e)),
        }
    }

    async fn recent_chat(&self, table: &str, limit: u32) -> Result<Vec<ChatRow>, StoreError> {
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        let rows = c
            .query(
                "SELECT seq, at_ms, guest_id, name, seat, text FROM chat WHERE table_id = $1 ORDER BY seq DESC LIMIT $2",
                &[&table, &i64::from(limit)],
            )
            .await
            .map_err(pg)?;
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
        let c = inner(&mut slot)?;
        let n = c
            .execute("UPDATE tables SET status = 'finished', record = $2 WHERE id = $1", &[&table, &record])
            .await
            .map_err(pg)?;
        if n == 1 { Ok(()) } else { Err(StoreError::NoTable(table.to_string())) }
    }

    async fn record(&self, table: &str) -> Result<Option<String>, StoreError> {
        let mut slot = self.client().await?;
        let c = inner(&mut slot)?;
        let row = c
            .query_opt("SELECT record FROM tables WHERE id = $1 AND status = 'finished'", &[&table])
            .await
            .map_err(pg)?;
        Ok(row.and_then(|r| r.get::<_, Option<String>>(0)))
    }
}
