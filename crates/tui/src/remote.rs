//! The remote driver: a table on a `yezi serve` server, over its HTTP API and WebSocket protocol
//! (`docs/protocol.md`), on a thread of its own.
//!
//! - The address is an invite link (`http://host:port/t/ID`: that table) or a server
//!   (`http://host:port` or `host:port`: the lobby's open tables to choose from, or a new table
//!   with bots; with a game given, a new table of that game at once).
//! - The guest identity (its token) is kept in a file per user ([`config_path`]), one per
//!   server, so that coming back — after a dropped connection, or running `yezi play --connect`
//!   again — takes back the same seat.
//! - A dropped connection is reconnected automatically, with a growing pause (0.5 s up to 5 s);
//!   the server gives the seat back with a full `sync`. A cluster's node failing under the table
//!   looks the same (`docs/protocol.md`, "When the table's node fails"): an entry answered
//!   `unavailable` or unanswered, a `no_table` at a table already entered, a ping or a move
//!   answered by nothing, a move answered `unavailable`: the connection is given up and the
//!   table entered again. A move refused otherwise asks for a fresh `sync`. A node leaving in
//!   good order (it drains) says `moved` first: the table is entered again at once, with no
//!   pause.
//! - When the match is over, its `yezi/1` record is fetched from the server and saved.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cards::record::GameKind;
use client::page::{ENTRY_WAIT, MOVE_WAIT, PING_EVERY, PONG_WAIT};
use client::{Client, ClientError, GuestToken};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use wire::{ClientMsg, ErrorCode, LobbyReply, NewTable, SeatChoice, ServerMsg, TableMsg, TableStatus};

use crate::driver::{Driver, Incoming, Notice, Outgoing};

/// How to reach a server and what to do there.
#[derive(Clone, Debug, PartialEq)]
pub struct RemoteOptions {
    /// An invite link (`http://host:port/t/ID`) or a server address (`http://host:port`, `host:port`).
    pub url: String,
    /// The name for a new guest identity.
    pub name: String,
    /// Create a table of this game with bots at once (without a table in the URL).
    pub game: Option<GameKind>,
    /// The bot for the other seats of a new table (the server's default when `None`).
    pub bot: Option<String>,
    /// The rules preset of a new table.
    pub rules: String,
    /// Variant overrides for a new table.
    pub variants: BTreeMap<String, String>,
    /// Madiao: the stake limits of a new table, lowest and highest (equal: a fixed stake).
    pub stakes: (u32, u32),
    /// The file that keeps guest tokens.
    pub config: PathBuf,
    /// The folder the finished match's record is saved in.
    pub records: PathBuf,
    /// A fixed record file instead of one named in `records`.
    pub out: Option<PathBuf>,
    /// Sign in with this account instead of playing as a guest (the session is kept in memory
    /// only, never in the config file).
    pub account: Option<Account>,
    /// Madiao: how the deck of a table opened here draws the zero cash (a picture only).
    pub zero_cash: madiao::ZeroCash,
}

/// An account to sign in with.
#[derive(Clone, PartialEq, Eq)]
pub struct Account {
    /// The username.
    pub username: String,
    /// The password.
    pub password: String,
}

impl std::fmt::Debug for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Account").field("username", &self.username).field("password", &"***").finish()
    }
}

/// Where a URL points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// `host:port`.
    pub addr: String,
    /// The table of an invite link.
    pub table: Option<String>,
}

/// Why an address is neither a server's nor an invite link (the address, as given, trimmed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// `https://` or `wss://`: the client speaks plain HTTP only.
    #[error("{0}: yezi servers speak plain http here (no TLS in the client yet)")]
    Tls(String),
    /// No host, or one with spaces.
    #[error("{0}: expected http://HOST:PORT or an invite link http://HOST:PORT/t/ID")]
    NoServer(String),
    /// A path that is not an invite link's.
    #[error("{0}: an invite link ends in /t/ID")]
    NotInvite(String),
}

/// Reads an invite link or a server address.
pub fn parse_url(url: &str) -> Result<Target, UrlError> {
    let u = url.trim();
    if u.starts_with("https://") || u.starts_with("wss://") {
        return Err(UrlError::Tls(u.to_string()));
    }
    let rest = u.strip_prefix("http://").or_else(|| u.strip_prefix("ws://")).unwrap_or(u);
    let (host, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    if host.is_empty() || host.contains(char::is_whitespace) {
        return Err(UrlError::NoServer(u.to_string()));
    }
    let addr = if host.contains(':') { host.to_string() } else { format!("{host}:80") };
    let path = path.trim_end_matches('/');
    let table = match path {
        "" | "/ws" => None,
        p => match p.strip_prefix("/t/") {
            Some(id) if !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric()) => {
                Some(id.to_string())
            }
            _ => return Err(UrlError::NotInvite(u.to_string())),
        },
    };
    Ok(Target { addr, table })
}

/// The guest identities kept per server.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientConfig {
    /// By server address.
    #[serde(default)]
    pub servers: BTreeMap<String, Guest>,
}

/// A guest identity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Guest {
    /// The guest's id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The secret token.
    pub token: String,
}

/// Where the client's config goes: `$XDG_CONFIG_HOME/yezi/client.json` (or
/// `~/.config/yezi/client.json`; `./yezi-client.json` without a home).
pub fn config_path() -> PathBuf {
    if let Some(d) = std::env::var_os("XDG_CONFIG_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("yezi").join("client.json");
    }
    match std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        Some(h) => PathBuf::from(h).join(".config").join("yezi").join("client.json"),
        None => PathBuf::from("yezi-client.json"),
    }
}

/// Why the client's config could not be read or written: the file, and what went wrong.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file (or its folder) could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file is not a config.
    #[error("{}: {error}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// Why it cannot be read.
        error: serde_json::Error,
    },
    /// The config could not be written as JSON.
    #[error("{0}")]
    Write(serde_json::Error),
}

impl ConfigError {
    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ConfigError + '_ {
        move |error| ConfigError::Io { path: path.to_path_buf(), error }
    }
}

/// Reads the config (empty when the file does not exist).
pub fn load_config(path: &Path) -> Result<ClientConfig, ConfigError> {
    match std::fs::read_to_string(path) {
        Ok(t) => {
            serde_json::from_str(&t).map_err(|error| ConfigError::Json { path: path.to_path_buf(), error })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ClientConfig::default()),
        Err(e) => Err(ConfigError::io(path)(e)),
    }
}

/// Writes the config, readable by its owner only (it holds secrets).
pub fn save_config(path: &Path, cfg: &ClientConfig) -> Result<(), ConfigError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(ConfigError::io(dir))?;
    }
    let text = serde_json::to_string_pretty(cfg).map_err(ConfigError::Write)?;
    let tmp = path.with_extension("json.tmp");
    {
        use std::io::Write;
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
        let mut f = o.open(&tmp).map_err(ConfigError::io(&tmp))?;
        f.write_all(text.as_bytes()).map_err(ConfigError::io(&tmp))?;
    }
    std::fs::rename(&tmp, path).map_err(ConfigError::io(path))
}

/// Why a remote table could not be started.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The address is not a server's or a table's.
    #[error(transparent)]
    Url(#[from] UrlError),
    /// The connection's thread could not be started.
    #[error("{0}")]
    Thread(std::io::Error),
}

/// What the driver's thread shares with the interface.
#[derive(Default)]
struct Shared {
    table: Option<String>,
    record: Option<PathBuf>,
}

/// A table on a server, driven from a thread of its own.
pub struct RemoteDriver {
    tx: Option<mpsc::UnboundedSender<Outgoing>>,
    rx: std_mpsc::Receiver<Incoming>,
    shared: Arc<Mutex<Shared>>,
    addr: String,
    done: Option<std_mpsc::Receiver<()>>,
}

impl RemoteDriver {
    /// Starts the driver (it connects in the background).
    pub fn start(opts: RemoteOptions) -> Result<RemoteDriver, StartError> {
        let target = parse_url(&opts.url)?;
        let addr = target.addr.clone();
        let (tx, cmd_rx) = mpsc::unbounded_channel();
        let (out_tx, rx) = std_mpsc::channel();
        let (done_tx, done) = std_mpsc::channel();
        let shared = Arc::new(Mutex::new(Shared { table: target.table.clone(), record: None }));
        let sh = shared.clone();
        std::thread::Builder::new()
            .name("yezi-connection".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = out_tx.send(Incoming::Notice(Notice::Fatal(format!("cannot start: {e}"))));
                        return;
                    }
                };
                let mut conn =
                    Connection { opts, target, cmd_rx, out: out_tx, shared: sh, guest: None, seen: false };
                rt.block_on(conn.run());
                let _ = done_tx.send(());
            })
            .map_err(StartError::Thread)?;
        Ok(RemoteDriver { tx: Some(tx), rx, shared, addr, done: Some(done) })
    }

    /// The server's address.
    pub fn addr(&self) -> &str {
        &self.addr
    }
}

impl Driver for RemoteDriver {
    fn send(&mut self, cmd: Outgoing, _now: Instant) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(cmd);
        }
    }

    fn poll(&mut self, _now: Instant) -> Vec<Incoming> {
        self.rx.try_iter().collect()
    }

    fn finish(&mut self) -> Vec<String> {
        // Closing the command channel ends the connection; wait a moment for a clean close.
        self.tx = None;
        if let Some(done) = self.done.take() {
            let _ = done.recv_timeout(Duration::from_secs(2));
        }
        let sh = self.shared.lock().map(|s| (s.table.clone(), s.record.clone())).unwrap_or((None, None));
        let mut lines = Vec::new();
        match sh {
            (_, Some(p)) => {
                lines.push(format!("The record of the match is in {}", p.display()));
                lines.push(format!("Replay it with: yezi replay {}", p.display()));
            }
            (Some(t), None) => {
                lines.push(format!(
                    "The server keeps table {t}: come back with yezi play --connect http://{}/t/{t}",
                    self.addr
                ));
                lines.push(format!(
                    "Its record is at http://{}/api/records/{t} once the match is over.",
                    self.addr
                ));
            }
            (None, None) => {}
        }
        lines
    }
}

/// Why a connection ended.
enum Ended {
    /// The interface is gone.
    Quit,
    /// The connection dropped (the text says how).
    Dropped(String),
    /// The server said `moved` (its node leaves): enter the table again at once.
    Moved,
    /// The server refused for good (the text says why).
    Refused(String),
    /// The token is unknown to the server: a new guest is needed.
    BadToken,
}

struct Connection {
    opts: RemoteOptions,
    target: Target,
    cmd_rx: mpsc::UnboundedReceiver<Outgoing>,
    out: std_mpsc::Sender<Incoming>,
    shared: Arc<Mutex<Shared>>,
    guest: Option<Guest>,
    /// Whether the table has been entered before (a `no_table` then means its node failed).
    seen: bool,
}

/// What the driver does with an error: end the connection and enter the table again
/// (`Some(true)`), ask for a fresh `sync` (`Some(false)`), or nothing (`None`: the interface
/// shows it). `entering`: the entry awaits its `sync`; `seen`: this driver has entered the table
/// before; `moving`: a move awaits its answer.
fn on_error(code: ErrorCode, entering: bool, seen: bool, moving: bool) -> Option<bool> {
    match code {
        ErrorCode::Unavailable if entering || moving => Some(true),
        ErrorCode::NoTable if seen => Some(true),
        _ if moving => Some(false),
        _ => None,
    }
}

/// Sleeps until `t`, or for ever (`None`).
async fn sleep_until_opt(t: Option<tokio::time::Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

/// The pause before entering again after `attempt` failures: the page's, undrawn (one
/// terminal does not come back with a crowd).
fn backoff(attempt: u32) -> Duration {
    client::page::backoff_full(attempt)
}

impl Connection {
    fn notice(&self, n: Notice) {
        let _ = self.out.send(Incoming::Notice(n));
    }

    fn client(&self) -> Client {
        Client::new(&self.target.addr)
    }

    /// The guest identity for this server: kept, or a new one (kept).
    async fn guest(&mut self, fresh: bool) -> Result<Guest, ClientError> {
        if !fresh && let Some(g) = &self.guest {
            return Ok(g.clone());
        }
        if let Some(a) = &self.opts.account {
            // A new session at every start (and when the server refuses the one held).
            let s = self.client().sign_in(&a.username, &a.password).await?;
            let g = Guest { id: s.id, name: s.name, token: s.token };
            self.guest = Some(g.clone());
            return Ok(g);
        }
        let mut cfg = load_config(&self.opts.config).unwrap_or_else(|e| {
            self.notice(Notice::Info(format!("the client config cannot be read ({e}); starting a new one")));
            ClientConfig::default()
        });
        if !fresh && let Some(g) = cfg.servers.get(&self.target.addr) {
            self.guest = Some(g.clone());
            return Ok(g.clone());
        }
        let GuestToken { id, name, token } = self.client().guest(&self.opts.name).await?;
        let g = Guest { id, name, token };
        cfg.servers.insert(self.target.addr.clone(), g.clone());
        if let Err(e) = save_config(&self.opts.config, &cfg) {
            self.notice(Notice::Info(format!("the guest token cannot be kept: {e}")));
        }
        self.guest = Some(g.clone());
        Ok(g)
    }

    /// Waits out a pause, still answering the interface (returns false when it is gone).
    async fn pause(&mut self, d: Duration) -> bool {
        let end = tokio::time::Instant::now() + d;
        loop {
            tokio::select! {
                _ = tokio::time::sleep_until(end) => return true,
                c = self.cmd_rx.recv() => match c {
                    None => return false,
                    Some(_) => self.notice(Notice::Info("not connected: the move was not sent".into())),
                },
            }
        }
    }

    async fn run(&mut self) {
        // The identity, retried while the server cannot be reached.
        let mut attempt = 0;
        loop {
            match self.guest(false).await {
                Ok(_) => break,
                Err(ClientError::Status { status: 400..=499, body }) if self.opts.account.is_some() => {
                    // A wrong password, or too many attempts: retrying will not help.
                    let why = serde_json::from_str::<serde_json::Value>(&body)
                        .ok()
                        .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
                        .unwrap_or(body);
                    let user = self.opts.account.as_ref().map(|a| a.username.clone()).unwrap_or_default();
                    self.notice(Notice::Fatal(format!("signing in as {user} failed: {why}")));
                    while self.cmd_rx.recv().await.is_some() {}
                    return;
                }
                Err(e) => {
                    self.notice(Notice::Connecting(format!(
                        "cannot reach {} ({e}); retrying in {:.1}s",
                        self.target.addr,
                        backoff(attempt).as_secs_f64()
                    )));
                    if !self.pause(backoff(attempt)).await {
                        return;
                    }
                    attempt += 1;
                }
            }
        }
        // The table: the invite's, a new one, or one chosen in the lobby.
        let table = match self.target.table.clone() {
            Some(t) => t,
            None => match self.choose_table().await {
                Some(t) => t,
                None => return,
            },
        };
        if let Ok(mut s) = self.shared.lock() {
            s.table = Some(table.clone());
        }
        let mut attempt = 0u32;
        let mut fresh = false;
        loop {
            match self.session(&table, fresh).await {
                Ended::Quit => return,
                Ended::Refused(why) => {
                    self.notice(Notice::Fatal(why));
                    // Stay until the interface quits.
                    while self.cmd_rx.recv().await.is_some() {}
                    return;
                }
                Ended::BadToken => {
                    fresh = true;
                    continue;
                }
                Ended::Moved => {
                    fresh = false;
                    attempt = 0;
                    self.notice(Notice::Connecting("the server moved the table: entering it again".into()));
                }
                Ended::Dropped(why) => {
                    fresh = false;
                    let wait = backoff(attempt);
                    self.notice(Notice::Connecting(format!(
                        "connection lost: reconnecting in {:.1}s (attempt {}) · {why}",
                        wait.as_secs_f64(),
                        attempt + 1
                    )));
                    if !self.pause(wait).await {
                        return;
                    }
                    attempt += 1;
                }
            }
        }
    }

    async fn create_table(&mut self, game: GameKind) -> Result<String, ClientError> {
        let g = self.guest(false).await?;
        let bot = SeatChoice::Bot { bot: self.opts.bot.clone() };
        let body = NewTable {
            rules: self.opts.rules.clone(),
            variants: cards::record::Variants(self.opts.variants.clone()),
            name: Some(format!("{}'s table", g.name)),
            seats: Some(vec![SeatChoice::Me, bot.clone(), bot.clone(), bot]),
            stake: self.opts.stakes.0,
            stake_max: (self.opts.stakes.1 != self.opts.stakes.0).then_some(self.opts.stakes.1),
            zero_cash: self.opts.zero_cash,
            ..NewTable::new(game)
        };
        let v = self.client().create_table(&g.token, &body).await?;
        Ok(v.table.id)
    }

    /// The lobby: the open tables, until the interface chooses one or asks for a new one.
    async fn choose_table(&mut self) -> Option<String> {
        if let Some(g) = self.opts.game {
            match self.create_table(g).await {
                Ok(t) => return Some(t),
                Err(e) => self.notice(Notice::Info(format!("cannot open a table: {e}"))),
            }
        }
        loop {
            // One page of the lobby, as large as the server gives: the tables with open seats
            // come first.
            match self.client().lobby(wire::LOBBY_PAGE_MAX).await {
                Ok(LobbyReply { tables, total, .. }) => {
                    let shown = tables.len();
                    self.notice(Notice::Lobby { server: self.target.addr.clone(), tables });
                    if total as usize > shown {
                        self.notice(Notice::Info(format!(
                            "the first {shown} of {total} tables (those with open seats first)"
                        )));
                    }
                }
                Err(e) => self.notice(Notice::Info(format!("cannot list the tables: {e}"))),
            }
            match self.cmd_rx.recv().await? {
                Outgoing::Join(t) => return Some(t),
                Outgoing::Create(g) => {
                    let game = if g == "dabaifen" { GameKind::Dabaifen } else { GameKind::Madiao };
                    match self.create_table(game).await {
                        Ok(t) => return Some(t),
                        Err(e) => self.notice(Notice::Info(format!("cannot open a table: {e}"))),
                    }
                }
                _ => {}
            }
        }
    }

    /// One connection to the table, until it drops or the interface quits.
    async fn session(&mut self, table: &str, fresh: bool) -> Ended {
        let g = match self.guest(fresh).await {
            Ok(g) => g,
            Err(e) => return Ended::Dropped(e.to_string()),
        };
        let mut sock = match self.client().connect().await {
            Ok(s) => s,
            Err(e) => return Ended::Dropped(e.to_string()),
        };
        if let Err(e) = sock.send_msg(&ClientMsg::Hello { token: g.token.clone() }).await {
            return Ended::Dropped(e.to_string());
        }
        match tokio::time::timeout(Duration::from_secs(10), sock.recv_msg()).await {
            Ok(Ok(ServerMsg::Welcome(_))) => {}
            Ok(Ok(ServerMsg::Error(e))) if e.code == ErrorCode::BadToken => return Ended::BadToken,
            Ok(Ok(other)) => return Ended::Dropped(format!("unexpected answer to hello: {}", other.text())),
            Err(_) => return Ended::Dropped("no answer to hello".into()),
            Ok(Err(e)) => return Ended::Dropped(e.to_string()),
        }
        if let Err(e) = sock.send_msg(&ClientMsg::Join { table: table.to_string(), seat: None }).await {
            return Ended::Dropped(e.to_string());
        }
        let mut connected = false;
        let mut ping = tokio::time::interval(PING_EVERY);
        ping.tick().await;
        let mut fetched = false;
        // What the connection waits for, and until when: its entry's `sync`, its move's answer,
        // anything after a ping. Nothing by then: the connection is given up.
        let mut deadline = Some(tokio::time::Instant::now() + ENTRY_WAIT);
        let mut moving = false;
        loop {
            tokio::select! {
                _ = sleep_until_opt(deadline) => {
                    if moving {
                        // The move got no answer: the interface is told, and a fresh state asked.
                        moving = false;
                        self.notice(Notice::Info("the move got no answer: play it again".into()));
                        if sock.send_msg(&ClientMsg::Table(TableMsg::Resync)).await.is_err() {
                            return Ended::Dropped("the move got no answer".into());
                        }
                        deadline = Some(tokio::time::Instant::now() + MOVE_WAIT);
                        continue;
                    }
                    return Ended::Dropped("the table's node does not answer".into());
                }
                m = sock.recv_msg() => {
                    let m = match m {
                        Ok(m) => m,
                        Err(e) => return Ended::Dropped(e.to_string()),
                    };
                    if connected && !moving {
                        deadline = None;
                    }
                    if matches!(m, ServerMsg::Moved(_)) {
                        sock.close().await;
                        return Ended::Moved;
                    }
                    if let ServerMsg::Error(e) = &m {
                        match on_error(e.code, !connected, self.seen, moving) {
                            Some(true) => return Ended::Dropped(format!("table {table}: {}", e.message)),
                            Some(false) => {
                                moving = false;
                                let _ = sock.send_msg(&ClientMsg::Table(TableMsg::Resync)).await;
                                deadline = Some(tokio::time::Instant::now() + MOVE_WAIT);
                            }
                            None => {}
                        }
                    }
                    if moving && matches!(m, ServerMsg::Update(_)) {
                        moving = false;
                        deadline = None;
                    }
                    if matches!(m, ServerMsg::Sync(_)) {
                        moving = false;
                        deadline = None;
                        self.seen = true;
                    }
                    if let ServerMsg::Error(e) = &m
                        && !connected
                        && matches!(
                            e.code,
                            ErrorCode::NoTable | ErrorCode::NoSeat | ErrorCode::SeatTaken | ErrorCode::Finished
                        )
                    {
                        if e.code == ErrorCode::Finished {
                            self.fetch_record(table).await;
                        }
                        return Ended::Refused(format!("table {table}: {}", e.message));
                    }
                    if matches!(m, ServerMsg::Sync(_)) && !connected {
                        connected = true;
                        self.notice(Notice::Connected);
                    }
                    let finished = match &m {
                        ServerMsg::Sync(s) => s.table.status == TableStatus::Finished,
                        ServerMsg::Seats(s) => s.status == TableStatus::Finished,
                        _ => false,
                    };
                    if self.out.send(Incoming::Msg(m)).is_err() {
                        sock.close().await;
                        return Ended::Quit;
                    }
                    if finished && !fetched {
                        fetched = true;
                        self.fetch_record(table).await;
                    }
                }
                c = self.cmd_rx.recv() => {
                    let msg = match c {
                        None => {
                            sock.close().await;
                            return Ended::Quit;
                        }
                        Some(Outgoing::Table(msg)) => ClientMsg::Table(msg),
                        Some(_) => continue,
                    };
                    let act = matches!(msg, ClientMsg::Table(TableMsg::Act { .. }));
                    if let Err(e) = sock.send_msg(&msg).await {
                        return Ended::Dropped(e.to_string());
                    }
                    if act && connected {
                        moving = true;
                        deadline = Some(tokio::time::Instant::now() + MOVE_WAIT);
                    }
                }
                _ = ping.tick() => {
                    if let Err(e) = sock.send_msg(&ClientMsg::Ping).await {
                        return Ended::Dropped(e.to_string());
                    }
                    if deadline.is_none() {
                        deadline = Some(tokio::time::Instant::now() + PONG_WAIT);
                    }
                }
            }
        }
    }

    /// Saves the finished match's record from the server.
    async fn fetch_record(&mut self, table: &str) {
        let mut last = String::new();
        for i in 0..10 {
            match self.client().get_text(&format!("/api/records/{table}")).await {
                Ok((200, text)) => {
                    // The record's game (`madiao` or `dabaifen`) names the file.
                    #[derive(Deserialize)]
                    struct RecordGame {
                        game: GameKind,
                    }
                    let game = serde_json::from_str::<RecordGame>(&text).map_or(GameKind::Madiao, |r| r.game);
                    let path = self.opts.out.clone().unwrap_or_else(|| {
                        let secs = std::time::SystemTime::now()
                            .duration_since(std::time::UNIX_EPOCH)
                            .map_or(0, |d| d.as_secs());
                        let name = crate::record_file_name(game, secs, 0)
                            .replace("-seed0.json", &format!("-table-{table}.json"));
                        self.opts.records.join(name)
                    });
                    let written = path
                        .parent()
                        .filter(|d| !d.as_os_str().is_empty())
                        .map_or(Ok(()), std::fs::create_dir_all)
                        .and_then(|()| std::fs::write(&path, text.as_bytes()));
                    match written {
                        Ok(()) => {
                            if let Ok(mut s) = self.shared.lock() {
                                s.record = Some(path.clone());
                            }
                            self.notice(Notice::RecordSaved(path));
                        }
                        Err(e) => self.notice(Notice::Info(format!("the record could not be saved: {e}"))),
                    }
                    return;
                }
                Ok((status, text)) => last = format!("HTTP {status}: {text}"),
                Err(e) => last = e.to_string(),
            }
            tokio::time::sleep(Duration::from_millis(200 * (i + 1))).await;
        }
        self.notice(Notice::Info(format!("the record could not be fetched ({last})")));
    }
}

/// Plays at a server in the terminal; returns the lines to print afterwards.
pub fn play_remote(opts: RemoteOptions) -> Result<Vec<String>, crate::PlayError> {
    let driver = RemoteDriver::start(opts).map_err(|e| crate::PlayError::Remote(e.to_string()))?;
    let place = driver.addr().to_string();
    let mut app = crate::App::new(Box::new(driver), place);
    Ok(crate::term::run(&mut app)?)
}

#[cfg(test)]
mod failure_tests {
    use super::*;

    #[test]
    fn a_failed_node_is_met_by_entering_again_and_a_refused_move_by_a_resync() {
        assert_eq!(on_error(ErrorCode::Unavailable, true, false, false), Some(true));
        assert_eq!(on_error(ErrorCode::Unavailable, false, true, true), Some(true));
        assert_eq!(on_error(ErrorCode::Unavailable, false, true, false), None);
        assert_eq!(on_error(ErrorCode::NoTable, true, true, false), Some(true));
        assert_eq!(on_error(ErrorCode::NoTable, true, false, false), None);
        assert_eq!(on_error(ErrorCode::Storage, false, true, true), Some(false));
        assert_eq!(on_error(ErrorCode::Storage, false, true, false), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            parse_url("http://127.0.0.1:8080/t/abc123").unwrap(),
            Target { addr: "127.0.0.1:8080".into(), table: Some("abc123".into()) }
        );
        assert_eq!(
            parse_url("127.0.0.1:8080").unwrap(),
            Target { addr: "127.0.0.1:8080".into(), table: None }
        );
        assert_eq!(
            parse_url("http://example.invalid/").unwrap(),
            Target { addr: "example.invalid:80".into(), table: None }
        );
        assert_eq!(parse_url("http://h:1/x/y"), Err(UrlError::NotInvite("http://h:1/x/y".into())));
        assert!(parse_url("http://h:1/x/y").unwrap_err().to_string().contains("invite link"));
        assert_eq!(parse_url("wss://h/t/x"), Err(UrlError::Tls("wss://h/t/x".into())));
        assert_eq!(parse_url(" "), Err(UrlError::NoServer(String::new())));
        assert!(parse_url("https://h/t/x").is_err());
        assert!(parse_url("").is_err());
        assert!(parse_url("http://h:1/t/a b").is_err());
    }

    #[test]
    fn config_round_trip_is_private() {
        let dir = std::env::temp_dir().join(format!("yezi-tui-config-{}", std::process::id()));
        let path = dir.join("sub").join("client.json");
        let mut cfg = ClientConfig::default();
        cfg.servers.insert("h:1".into(), Guest { id: "g".into(), name: "Ann".into(), token: "t".into() });
        save_config(&path, &cfg).unwrap();
        assert_eq!(load_config(&path).unwrap(), cfg);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        std::fs::write(&path, "{not json").unwrap();
        assert!(load_config(&path).is_err());
        assert_eq!(load_config(&dir.join("none.json")).unwrap(), ClientConfig::default());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
