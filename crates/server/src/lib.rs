//! The yezi game server: tables for Madiao and Da Bai Fen, played over WebSockets by people and
//! bots, with clocks, spectators and chat, every table kept as its action log in a database so
//! that a restart resumes every game exactly where it was.
//!
//! The parts:
//! - [`http`]: the HTTP API (guests, the lobby, creating tables, records of finished games,
//!   statistics) and the static files of the browser client ([`web`]);
//! - [`listen`]: accepting connections: the header-read timeout, the caps per address and for
//!   the server (from the open-files limit);
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
pub mod listen;
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
    /// WebSocket connections the server accepts at once (lowered at start, if need be, to stay
    /// below the file-descriptor limit with room for HTTP: see [`listen::Caps`]).
    pub max_connections: usize,
    /// Connections (HTTP and WebSocket) one IP address may hold at once; more are refused with
    /// `429`.
    pub connections_per_ip: usize,
    /// WebSocket connections one guest may hold at once (counted from `hello`); more are refused
    /// with a `too_many_connections` error.
    pub sockets_per_guest: usize,
    /// A connection whose request headers are not complete this many milliseconds after it
    /// opened (or after its previous request) is closed.
    pub header_timeout_ms: u64,
    /// A WebSocket that has not said a valid `hello` this many milliseconds after it opened is
    /// closed.
    pub hello_timeout_ms: u64,
    /// Guests one IP address may create in a burst…
    pub guests_burst: f64,
    /// …and then one every this many seconds.
    pub guest_every_seconds: f64,
    /// Unfinished tables one guest may host at once.
    pub tables_per_guest: usize,
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
            connections_per_ip: 64,
            sockets_per_guest: 16,
            header_timeout_ms: 10_000,
            hello_timeout_ms: 10_000,
            guests_burst: 10.0,
            guest_every_seconds: 60.0,
            tables_per_guest: 20,
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
    /// Open TCP connections (HTTP and WebSocket).
    pub tcp_connections: AtomicUsize,
    /// Open connections by address.
    pub per_ip: listen::PerIp,
    /// Open WebSocket connections by guest (those that said `hello`).
    pub per_guest: Mutex<HashMap<String, usize>>,
    /// Guests created lately, by address.
    pub guest_buckets: Mutex<HashMap<std::net::IpAddr, RateBucket>>,
    caps: Mutex<Option<listen::Caps>>,
    next_conn: AtomicU64,
}

/// A token bucket: `rate` tokens a second, at most `burst`.
#[derive(Clone, Debug)]
pub struct RateBucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: std::time::Instant,
}

impl RateBucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64) -> RateBucket {
        RateBucket { tokens: burst, rate, burst, at: std::time::Instant::now() }
    }

    fn refill(&mut self) {
        let now = std::time::Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
    }

    /// Takes a token if there is one.
    pub fn take(&mut self) -> bool {
        self.refill();
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Seconds until the next token.
    pub fn wait_seconds(&mut self) -> f64 {
        self.refill();
        if self.tokens >= 1.0 || self.rate <= 0.0 { 0.0 } else { (1.0 - self.tokens) / self.rate }
    }

    /// True when the bucket is full again (and can be forgotten).
    pub fn is_full(&mut self) -> bool {
        self.refill();
        self.tokens >= self.burst
    }
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
            tcp_connections: AtomicUsize::new(0),
            per_ip: listen::PerIp::default(),
            per_guest: Mutex::new(HashMap::new()),
            guest_buckets: Mutex::new(HashMap::new()),
            caps: Mutex::new(None),
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

    /// The connection caps in force ([`listen::serve`] sets them from the file-descriptor limit;
    /// before that, the configured limits).
    pub fn caps(&self) -> listen::Caps {
        self.caps
            .lock()
            .ok()
            .and_then(|c| *c)
            .unwrap_or(listen::Caps { connections: usize::MAX, websockets: self.limits.max_connections })
    }

    /// Sets the connection caps.
    pub fn set_caps(&self, caps: listen::Caps) {
        if let Ok(mut c) = self.caps.lock() {
            *c = Some(caps);
        }
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

/// Serves `app` on `listener` until the process ends (see [`listen`] for the connections'
/// limits).
pub async fn serve(listener: tokio::net::TcpListener, app: Arc<App>) -> std::io::Result<()> {
    listen::serve(listener, app).await
}
