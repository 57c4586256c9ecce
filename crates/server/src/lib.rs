//! The yezi game server: tables for Madiao and Da Bai Fen, played over WebSockets by people and
//! bots, with clocks, spectators and chat, every table kept as its action log in a database so
//! that a restart resumes every game exactly where it was.
//!
//! The parts:
//! - [`http`]: the HTTP API (guests, the lobby, creating tables, records of finished games,
//!   statistics) and the static files of the browser client ([`web`]);
//! - [`ws`]: one WebSocket connection: identification, limits, routing to its table;
//! - [`table`]: one task per table, the only writer of its log (see there for the stages of a
//!   hand and how a move is written before it is shown);
//! - [`game`]: what each game needs at a table on top of its engine, and how hidden information
//!   stays hidden;
//! - [`store`]: storage behind one trait, SQLite or PostgreSQL;
//! - [`protocol`]: the messages (documented in `docs/protocol.md`);
//! - [`client`] and [`loadtest`]: a client of the protocol, used by the tests and by
//!   `yezi loadtest`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex};

pub mod client;
pub mod game;
pub mod http;
pub mod ids;
pub mod loadtest;

pub mod protocol;
pub mod replay;
pub mod store;
pub mod table;
pub mod web;
pub mod wire;
pub mod ws;

use store::{Store, StoreError};
use table::{TableHandle, Timing};

/// Limits that protect the server from heavy or hostile clients.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Limits {
    /// The largest message the protocol accepts (bytes); larger ones get a `too_large` error.
    pub max_message_bytes: usize,
    /// The largest frame or message the connection reads at all (bytes); larger ones close it.
    pub max_frame_bytes: usize,
    /// Messages per second a connection may send on average…
    pub messages_per_second: f64,
    /// …and in a burst.
    pub message_burst: f64,
    /// Chat lines per second a connection may send on average…
    pub chat_per_second: f64,
    /// …and in a burst.
    pub chat_burst: f64,
    /// Messages dropped in a row for the rate limit before the connection is closed.
    pub max_dropped: u32,
    /// Connections the server accepts at once.
    pub max_connections: usize,
    /// Unfinished tables one guest may host at once.
    pub tables_per_guest: usize,
    /// The replay API's limits (posts per guest, replays at once, the cache of replays).
    pub replay: replay::ReplayLimits,
    /// A connection that sends nothing (not even a pong) for this long is closed.
    pub idle_seconds: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message_bytes: 4096,
            max_frame_bytes: 65536,
            messages_per_second: 10.0,
            message_burst: 30.0,
            chat_per_second: 0.5,
            chat_burst: 5.0,
            max_dropped: 200,
            max_connections: 20_000,
            tables_per_guest: 20,
            replay: replay::ReplayLimits::default(),
            idle_seconds: 90,
        }
    }
}

/// How the server runs.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// The tables' timing.
    pub timing: Timing,
    /// The connections' limits.
    pub limits: Limits,
}

/// The server's shared state.
pub struct App {
    /// The database.
    pub store: Arc<dyn Store>,
    /// The tables' timing.
    pub timing: Timing,
    /// The connections' limits.
    pub limits: Limits,
    /// The tables loaded, by id.
    pub tables: Mutex<HashMap<String, TableHandle>>,
    /// Open WebSocket connections.
    pub connections: AtomicUsize,
    /// Replays: whose turn it is, the replays kept, the guests' allowance of posted records.
    pub replays: replay::Replays,
    next_conn: AtomicU64,
}

impl App {
    /// A server on `store`, with every unfinished table of the database resumed where its log
    /// leaves it. A table whose log cannot be replayed is reported on standard error and left
    /// out (it stays in the database untouched).
    pub async fn start(store: Arc<dyn Store>, config: Config) -> Result<Arc<App>, StoreError> {
        let app = Arc::new(App {
            store,
            timing: config.timing,
            limits: config.limits,
            tables: Mutex::new(HashMap::new()),
            connections: AtomicUsize::new(0),
            replays: replay::Replays::new(config.limits.replay),
            next_conn: AtomicU64::new(1),
        });
        for row in app.store.unfinished_tables().await? {
            let id = row.id.clone();
            let log = app.store.actions(&id).await?;
            let chat = app.store.recent_chat(&id, 30).await?;
            match table::spawn(app.clone(), row, log, chat) {
                Ok(handle) => {
                    if let Ok(mut t) = app.tables.lock() {
                        t.insert(id, handle);
                    }
                }
                Err(e) => eprintln!("yezi serve: table {id} is not resumed: {e}"),
            }
        }
        Ok(app)
    }

    /// A new connection's identity.
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// How many tables are loaded.
    pub fn table_count(&self) -> usize {
        self.tables.lock().map(|t| t.len()).unwrap_or(0)
    }

    /// A loaded table.
    pub fn table(&self, id: &str) -> Option<TableHandle> {
        self.tables.lock().ok().and_then(|t| t.get(id).cloned())
    }
}

/// The whole HTTP service: the API, the WebSocket endpoint and the browser client's files.
pub fn router(app: Arc<App>) -> axum::Router {
    http::routes().merge(ws::routes()).merge(web::routes()).with_state(app)
}

/// Serves `app` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, app: Arc<App>) -> std::io::Result<()> {
    axum::serve(listener, router(app)).await
}
