//! The yezi game server: tables for Madiao and Da Bai Fen, played over WebSockets by people and
//! bots, with clocks, spectators and chat, every table kept as its action log in a database so
//! that a restart resumes every game exactly where it was.
//!
//! The layers, each importing only those below it (`tests/modules.rs` checks it):
//! - what serves people: [`api`] (the HTTP API, one [`api::ApiError`]), [`ws`] (one WebSocket
//!   connection: identification, limits, routing to its table, here or on another node),
//!   [`analysis`] and [`replay`] (analyses and replays of finished games), [`listen`]
//!   (accepting connections: the header-read timeout, the caps per address and for the server)
//!   and [`web`] (the browser client's files);
//! - [`tables`]: the tables this node runs, one task per table over the table core, the only
//!   writer of its log, given its dependencies ([`tables::Deps`]); the one way a table is made;
//! - [`cluster`]: leases, the bus between nodes, and connections at tables on other nodes;
//! - [`store`]: storage, SQLite or PostgreSQL;
//! - the rules below them: [`ratings`] (account ratings over the `rating` crate), [`ids`]
//!   (identifiers, tokens, the time of day) and [`rate`] (the token bucket).
//!
//! [`App`] wires them together for `yezi serve`; [`loadtest`] serves `yezi loadtest`. The types
//! that cross the server's edges are the `wire` crate's.

#![warn(clippy::unwrap_used)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex};

pub mod analysis;
pub mod api;
pub mod cluster;
pub mod duplicate;
pub mod health;
pub mod ids;
pub mod listen;
pub mod loadtest;
pub mod metrics;
pub mod notices;
pub mod pool;
pub mod proxy;
pub mod puzzles;
pub mod rate;
pub mod ratings;
pub mod replay;
pub mod starve;
pub mod store;
pub mod tables;
pub mod tournaments;
pub mod web;
pub mod ws;

pub use rate::RateBucket;

use api::accounts;
use store::{Store, StoreError};
use table::settings::Timing;
use tables::{TableHandle, Tables};

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
    /// The bots' threads, and the bounds on tables of bots only.
    pub bots: tables::bots::BotLimits,
    /// The replay API's limits (posts per guest, replays at once, the cache of replays).
    pub replay: replay::ReplayLimits,
    /// A WebSocket that sends no text message and no pong for this long is closed (binary frames
    /// and pings alone count as silence).
    pub idle_seconds: u64,
    /// Accounts: how long sessions last, the sign-in allowances, the hashing turns.
    pub accounts: accounts::AccountLimits,
    /// Analyses: the threads given to them, the queue, the budget, each guest's allowance.
    pub analysis: analysis::AnalysisLimits,
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
            bots: tables::bots::BotLimits::default(),
            replay: replay::ReplayLimits::default(),
            idle_seconds: 90,
            accounts: accounts::AccountLimits::default(),
            analysis: analysis::AnalysisLimits::default(),
        }
    }
}

/// How the server runs.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Config {
    /// The tables' timing.
    pub timing: Timing,
    /// The connections' limits.
    pub limits: Limits,
    /// How long a table's lease lasts (milliseconds), with a store that keeps leases.
    pub lease_ms: u64,
    /// The seed the tables' seeds are drawn from, in the order the tables are created; none: each
    /// table's seed comes from the operating system. With a seed, anyone who knows it can tell the
    /// deals in advance: it is for tests and demonstrations, never for play.
    pub table_seed: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            timing: Timing::default(),
            limits: Limits::default(),
            lease_ms: store::DEFAULT_LEASE_MS,
            table_seed: None,
        }
    }
}

/// Where the server is reached from outside, and which web pages may open its WebSocket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The address people use (`http://host:port`, or `https://…`, maybe with a path), without a
    /// trailing `/`: invite links are built from it, never from a request's `Host` header.
    pub public_url: String,
    /// The origins (`scheme://host[:port]`, in lower case) whose pages may open a WebSocket.
    /// A request without an `Origin` header (a program, not a browser) is always let in.
    pub allowed_origins: Vec<String>,
    /// Any origin is let in (`--allowed-origin '*'`).
    pub any_origin: bool,
    /// When the server listens on a loopback address, its port: the loopback origins
    /// (`http://localhost:PORT`, `http://127.0.0.1:PORT`, `http://[::1]:PORT`) are let in too, so
    /// that either name of this machine works in a browser.
    pub loopback_port: Option<u16>,
    /// The proxies whose word on the client's address is taken (`--trusted-proxy`; see
    /// [`proxy`]); none by default.
    pub proxies: proxy::Proxies,
}

/// A `--public-url` or `--allowed-origin` that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SiteError(String);

/// The origin of a URL, `scheme://host[:port]` in lower case (a default port left out), if it is
/// an `http` or `https` URL.
pub fn origin_of(url: &str) -> Option<String> {
    let lower = url.trim().to_ascii_lowercase();
    let (scheme, rest) = lower.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.is_empty() || authority.contains('@') || authority.chars().any(|c| c.is_whitespace()) {
        return None;
    }
    let default_port = if scheme == "http" { ":80" } else { ":443" };
    let authority = authority.strip_suffix(default_port).unwrap_or(authority);
    Some(format!("{scheme}://{authority}"))
}

impl Site {
    /// A site reached at `public_url`, whose pages (and those of `extra_origins`; `*` lets any
    /// page in) may open WebSockets; `listen` is the address the server listens on.
    pub fn new(
        public_url: &str,
        extra_origins: &[String],
        listen: std::net::SocketAddr,
    ) -> Result<Site, SiteError> {
        let public = public_url.trim().trim_end_matches('/');
        let origin = origin_of(public).ok_or_else(|| {
            SiteError(format!(
                "--public-url {public_url:?}: expected http://HOST[:PORT] or https://HOST[:PORT]"
            ))
        })?;
        if public.contains(['?', '#']) {
            return Err(SiteError(format!("--public-url {public_url:?}: no query or fragment")));
        }
        let mut allowed = vec![origin];
        let mut any_origin = false;
        for o in extra_origins {
            if o.trim() == "*" {
                any_origin = true;
                continue;
            }
            let origin = origin_of(o).ok_or_else(|| {
                SiteError(format!(
                    "--allowed-origin {o:?}: expected http://HOST[:PORT], https://HOST[:PORT] or *"
                ))
            })?;
            allowed.push(origin);
        }
        Ok(Site {
            public_url: public.to_string(),
            allowed_origins: allowed,
            any_origin,
            loopback_port: listen.ip().is_loopback().then_some(listen.port()),
            proxies: proxy::Proxies::default(),
        })
    }

    /// The default site of a server listening on `listen`: reached at `http://LISTEN`.
    pub fn local(listen: std::net::SocketAddr) -> Site {
        Site::new(&format!("http://{listen}"), &[], listen).unwrap_or_else(|_| Site {
            public_url: format!("http://{listen}"),
            allowed_origins: Vec::new(),
            any_origin: false,
            loopback_port: None,
            proxies: proxy::Proxies::default(),
        })
    }

    /// The site, behind these trusted proxies.
    pub fn with_proxies(self, proxies: proxy::Proxies) -> Site {
        Site { proxies, ..self }
    }

    /// Whether a request that came with this `Origin` header and this `Host` header is from one of
    /// the server's own pages: an origin [`Site::allows_origin`] lets in, or one whose host and port
    /// are the request's `Host` (the page was served by the server under that name).
    pub fn same_site(&self, origin: &str, host: Option<&str>) -> bool {
        if self.allows_origin(origin) {
            return true;
        }
        let (Some(o), Some(host)) = (origin_of(origin), host) else { return false };
        let Some((scheme, authority)) = o.split_once("://") else { return false };
        let host = host.trim().to_ascii_lowercase();
        let default_port = if scheme == "http" { ":80" } else { ":443" };
        !host.is_empty() && authority == host.strip_suffix(default_port).unwrap_or(&host)
    }

    /// Whether a page of this origin (an `Origin` header's value) may open a WebSocket.
    pub fn allows_origin(&self, origin: &str) -> bool {
        if self.any_origin {
            return true;
        }
        let Some(o) = origin_of(origin) else { return false };
        if self.allowed_origins.contains(&o) {
            return true;
        }
        self.loopback_port.is_some_and(|port| {
            ["localhost", "127.0.0.1", "[::1]"].iter().any(|h| o == format!("http://{h}:{port}"))
        })
    }
}

/// The sign-outs a connection may fall behind on before it checks its session in the store.
const SIGNOUTS_QUEUE: usize = 256;

/// The server's shared state.
pub struct App {
    /// The database.
    pub store: Arc<dyn Store>,
    /// The tables' timing.
    pub timing: Timing,
    /// The connections' limits.
    pub limits: Limits,
    /// The tables this node runs (see [`tables`]).
    pub tables: Arc<Tables>,
    /// The node's leases and connections (see [`cluster`]).
    pub cluster: Arc<cluster::Cluster>,
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
    /// Replays: whose turn it is, the replays kept, the guests' allowance of posted records.
    pub replays: replay::Replays,
    next_conn: AtomicU64,
    site: std::sync::OnceLock<Site>,
    /// Accounts: the sign-in allowances and the hashing turns.
    pub accounts: accounts::Accounts,
    /// Analyses of finished hands: the queue, the jobs' progress (see [`analysis`]).
    pub analyses: analysis::Analyses,
    /// Sessions signed out on this node, for its open connections to close (those of other
    /// nodes find out when they next check their session, `session_check_ms`).
    pub signouts: tokio::sync::broadcast::Sender<SignOut>,
    /// The hash of the operator's token (`--admin-token-file`): the admin API is off without it.
    admin_token: std::sync::OnceLock<String>,
    /// What the heartbeat found: `/readyz` (see [`health`]).
    pub health: health::Health,
}

/// Sessions that were signed out.
#[derive(Clone, Debug)]
pub enum SignOut {
    /// The session whose token has this hash.
    One(String),
    /// Every session of the guest, except the one whose token has the hash `keep`.
    Guest {
        /// The guest.
        guest: String,
        /// The hash of the token of the session that stays.
        keep: Option<String>,
    },
}

impl SignOut {
    /// True when the session of `guest` whose token has the hash `token_hash` is signed out.
    pub fn covers(&self, guest: &str, token_hash: &str) -> bool {
        match self {
            SignOut::One(h) => h == token_hash,
            SignOut::Guest { guest: g, keep } => g == guest && keep.as_deref() != Some(token_hash),
        }
    }
}

impl App {
    /// A new table's seed: the next of the server's seeds when it was given one, else one from
    /// the operating system.
    pub fn new_table_seed(&self) -> Result<u64, ids::RandomError> {
        self.tables.new_seed()
    }

    /// A server on `store`. With a store of one node (SQLite), every unfinished table of the
    /// database is resumed where its log leaves it; with a shared one (PostgreSQL), the node
    /// claims orphaned tables in batches from now on (see [`cluster`]). A table whose log cannot
    /// be replayed is reported on standard error and left out (it stays in the database
    /// untouched).
    pub async fn start(store: Arc<dyn Store>, config: Config) -> Result<Arc<App>, StoreError> {
        let cluster = Arc::new(cluster::Cluster::new(config.lease_ms));
        let tables = Tables::new(
            store.clone(),
            cluster.clone(),
            config.timing,
            config.limits.tables_per_guest,
            config.table_seed,
            config.limits.bots,
        )
        .map_err(|e| StoreError::Backend(format!("cannot start the bots' threads: {e}")))?;
        let app = Arc::new(App {
            store,
            timing: config.timing,
            limits: config.limits,
            tables,
            cluster,
            connections: AtomicUsize::new(0),
            tcp_connections: AtomicUsize::new(0),
            per_ip: listen::PerIp::default(),
            per_guest: Mutex::new(HashMap::new()),
            guest_buckets: Mutex::new(HashMap::new()),
            caps: Mutex::new(None),
            replays: replay::Replays::new(config.limits.replay),
            // Connections are known by id across nodes: each node numbers from a random start.
            next_conn: AtomicU64::new((ids::new_seed().unwrap_or(0) & 0x7fff_ffff_0000_0000) | 1),
            site: std::sync::OnceLock::new(),
            accounts: accounts::Accounts::new(config.limits.accounts),
            analyses: analysis::Analyses::new(config.limits.analysis),
            signouts: tokio::sync::broadcast::channel(SIGNOUTS_QUEUE).0,
            admin_token: std::sync::OnceLock::new(),
            health: health::Health::default(),
        });
        // The first heartbeat before anything else: the database's clock for what follows.
        health::probe(&app).await;
        health::spawn_probe(&app);
        let rt = tokio::runtime::Handle::current();
        analysis::Analyses::start(&app, &rt)
            .map_err(|e| StoreError::Backend(format!("cannot start the analysis threads: {e}")))?;
        if app.store.renew_leases().await? == store::Held::Every {
            // One node: every table at once, and nothing to keep up.
            tables::claim_batch(&app.tables, u32::MAX).await?;
        } else {
            app.cluster.leases_expire();
            tables::claim_batch(&app.tables, cluster::CLAIM_BATCH).await?;
            tables::spawn_upkeep(&app.tables);
        }
        // Duplicate events carry on by themselves (`docs/events.md`).
        api::events::spawn_driver(&app);
        api::tournaments::spawn_driver(&app);
        // Followers hear of a friend's comings and goings (`docs/protocol.md`, "Friend notices").
        api::friends::spawn_worker(&app);
        Ok(app)
    }

    /// Makes the node a cluster member on `bus`, hearing its own channel (what it hears arrives
    /// on `heard`) and those of the tables it runs.
    pub async fn join_bus(
        &self,
        bus: Arc<dyn cluster::bus::Bus>,
        heard: tokio::sync::mpsc::UnboundedReceiver<cluster::bus::Heard>,
    ) -> Result<(), cluster::bus::BusError> {
        tables::remote::join_bus(&self.tables, bus, heard).await
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
        self.tables.count()
    }

    /// Sets where the server is reached from (see [`Site`]); only the first call counts, and
    /// [`serve`] sets [`Site::local`] when nothing was set before.
    pub fn set_site(&self, site: Site) {
        let _ = self.site.set(site);
    }

    /// Where the server is reached from; `None` before [`App::set_site`] or [`serve`].
    pub fn site(&self) -> Option<&Site> {
        self.site.get()
    }

    /// Turns the admin API on (`/api/admin/…`, see [`api::moderation`]) with the operator's
    /// token; only the first call counts. The token is kept as its hash.
    pub fn set_admin_token(&self, token: &str) {
        let _ = self.admin_token.set(ids::hash_token(token.trim()));
    }

    /// The hash of the operator's token, when the admin API is on.
    pub fn admin_token_hash(&self) -> Option<&str> {
        self.admin_token.get().map(String::as_str)
    }

    /// Every table loaded here forgets `guest`'s name (his account is being deleted): it becomes
    /// `name` at his seats, his connections, its chat and its own name.
    pub async fn forget_guest(&self, guest: &str, name: &str) {
        self.tables.forget(guest, name).await;
    }

    /// A loaded table.
    pub fn table(&self, id: &str) -> Option<TableHandle> {
        self.tables.get(id)
    }
}

/// The `Content-Security-Policy` of every response: the page's scripts, styles, images and
/// connections (its WebSocket included: `'self'` covers `ws:`/`wss:` to the same host) come from
/// the server itself, inline `style` attributes are allowed (the page sets a few), nothing may
/// frame the page, and no plugin, `<base>` or foreign form target is allowed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Adds the security headers to every response: [`CONTENT_SECURITY_POLICY`],
/// `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` and `Referrer-Policy: no-referrer`
/// (an invite link in the address bar is not sent on).
async fn security_headers(mut response: axum::response::Response) -> axum::response::Response {
    use axum::http::{HeaderValue, header};
    let h = response.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

/// The whole HTTP service: the API, the WebSocket endpoint and the browser client's files, every
/// response with the security headers.
pub fn router(app: Arc<App>) -> axum::Router {
    api::routes()
        .merge(health::routes())
        .merge(metrics::routes())
        .merge(analysis::routes())
        .merge(ws::routes())
        .merge(web::routes())
        .layer(axum::middleware::from_fn_with_state(app.clone(), api::guard::check))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(app)
}

/// Serves `app` on `listener` until the process ends; the site is [`Site::local`] of the
/// listener's address unless [`App::set_site`] said otherwise.
pub async fn serve(listener: tokio::net::TcpListener, app: Arc<App>) -> std::io::Result<()> {
    app.set_site(Site::local(listener.local_addr()?));
    listen::serve(listener, app).await
}

#[cfg(test)]
mod tests {
    use madiao::record::MadiaoOutcome;
    use madiao::{BankerDraw, HandSetup, Phase, State, deck_from_seed};

    /// The browser test "Ready, and the next hand is settled at once by a meld" (`e2e/scenarios/ready.test.mjs`)
    /// runs a server given table seed 74: its first table's first hand is played out (no meld,
    /// four lowest or long suit), and its second hand's deal holds a meld whoever banks it. The
    /// first table's seed is the first of the server's seeds ([`super::App::new_table_seed`]).
    #[test]
    fn table_seed_74_gives_the_browser_test_a_played_hand_then_a_meld() {
        let seed = cards::Rng::from_seed(74).next_u64();
        let first =
            State::new(HandSetup::new(BankerDraw::from_seed(seed, 0).banker, deck_from_seed(seed, 0)))
                .unwrap();
        assert_eq!(first.phase(), Phase::Play, "hand 1 goes straight to play");
        for banker in cards::Seat::ALL {
            let second = State::new(HandSetup::new(banker, deck_from_seed(seed, 1))).unwrap();
            assert_eq!(second.outcome(), Some(MadiaoOutcome::Meld), "hand 2 with banker {banker}");
        }
        // Not every seed does: seed 1's second hand is played.
        let other = cards::Rng::from_seed(1).next_u64();
        let second = State::new(HandSetup::new(cards::Seat::ALL[0], deck_from_seed(other, 1))).unwrap();
        assert_eq!(second.outcome(), None);
    }
}
