//! One WebSocket connection (`GET /ws`): it must first say `hello` with a guest token; then it may
//! join or watch one table and send that table its messages. Limits: a message over
//! `max_message_bytes` gets `too_large` (a frame over `max_frame_bytes` closes the connection);
//! more than the rate allows gets `rate_limited` and is dropped (a connection that keeps flooding
//! is closed); a connection silent for `idle_seconds` (sending no text message and no pong: binary
//! frames and pings count as silence) is closed, and one that has not said a valid
//! `hello` within `hello_timeout_ms` of opening is closed with a `hello_timeout` error. One guest
//! holds at most `sockets_per_guest` connections (a `hello` beyond gets `too_many_connections`
//! and is closed). The server pings every 30 s. A connection that said `hello` with an account's
//! session is closed with `signed_out` when that session is signed out: at once on the node where
//! it was signed out, within `session_check_ms` ([`crate::api::accounts::AccountLimits`]) on the others.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::Instant;
use wire::{GuestInfo, ServerMsg, WelcomeMsg};

use crate::App;
use crate::cluster::{Cluster, Command, Control};
use crate::rate::RateBucket;
use crate::store::TableStatus;
use crate::tables::{Cmd, TableHandle};
use table::machine::ConnId;
use table::machine::Request;
use table::settings::Guest;
use wire::{ClientMsg, ErrorCode, TableMsg};

/// How many messages may wait for a slow connection; more are dropped (it sees a gap in `v`).
const OUT_QUEUE: usize = 128;

/// The WebSocket route.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/ws", get(upgrade))
}

async fn upgrade(
    State(app): State<Arc<App>>,
    crate::listen::Peer(peer): crate::listen::Peer,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    // A browser says which page opens the socket: only the server's own pages (see `Site`) may,
    // so that another site cannot play with a visitor's token. Programs send no `Origin`.
    if let Some(origin) = headers.get(header::ORIGIN) {
        let allowed = origin.to_str().is_ok_and(|o| app.site().is_some_and(|s| s.allows_origin(o)));
        if !allowed {
            return (
                StatusCode::FORBIDDEN,
                "this page's origin may not open a WebSocket here (see --allowed-origin)",
            )
                .into_response();
        }
    }
    let limits = app.limits;
    if app.connections.load(Ordering::Relaxed) >= app.caps().websockets {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many connections").into_response();
    }
    ws.max_message_size(limits.max_frame_bytes)
        .max_frame_size(limits.max_frame_bytes)
        .read_buffer_size(1024)
        .write_buffer_size(0)
        .on_upgrade(move |socket| connection(app, socket, peer))
}

/// A guest's WebSocket, counted for the guest until dropped. An account's first connection on
/// this node, and its last one closing, are changes its followers hear of ([`crate::notices`]).
struct GuestSlot {
    app: Arc<App>,
    guest: String,
    /// The connection said `hello` with an account's session.
    account: bool,
}

impl GuestSlot {
    /// Counts a connection of `guest`, or gives the cap when the guest is at it.
    fn take(app: &Arc<App>, guest: &str, account: bool) -> Result<GuestSlot, usize> {
        let cap = app.limits.sockets_per_guest;
        let mut m = app.per_guest.lock().map_err(|_| cap)?;
        let n = m.entry(guest.to_string()).or_insert(0);
        if *n >= cap {
            return Err(cap);
        }
        *n += 1;
        if *n == 1 && account {
            app.cluster.notices.changed(crate::notices::Change::Presence(guest.to_string()));
        }
        Ok(GuestSlot { app: app.clone(), guest: guest.to_string(), account })
    }
}

impl Drop for GuestSlot {
    fn drop(&mut self) {
        if let Ok(mut m) = self.app.per_guest.lock()
            && let Some(n) = m.get_mut(&self.guest)
        {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.guest);
                if self.account {
                    self.app.cluster.notices.changed(crate::notices::Change::Presence(self.guest.clone()));
                }
            }
        }
    }
}

/// How a connection entered its table: `Some(seat)` joined (asking for `seat`), `None` watches.
type Entry = Option<Option<u8>>;

struct Conn {
    id: ConnId,
    app: Arc<App>,
    out: mpsc::Sender<Utf8Bytes>,
    guest: Option<Guest>,
    /// The address the connection comes from.
    ip: Option<std::net::IpAddr>,
    /// The hash of the account session's token the connection said `hello` with (none for a
    /// guest's own token).
    session: Option<String>,
    slot: Option<GuestSlot>,
    table: Option<TableHandle>,
    /// The table the connection is at, and how it entered (to enter again if the table moves).
    at: Option<(String, Entry)>,
    /// The table the connection is at when it runs on another node.
    remote: Option<String>,
    messages: RateBucket,
    chats: RateBucket,
    dropped: u32,
    warned: Option<Instant>,
    /// The connection watches through the delayed stream (the TV): its entry as a spectator is
    /// a delayed one.
    tv: bool,
}

impl Conn {
    fn send(&self, msg: impl Into<Utf8Bytes>) {
        let _ = self.out.try_send(msg.into());
    }

    fn error(&self, code: ErrorCode, message: impl Into<String>) {
        self.send(wire::error(code, message, None));
    }

    /// Handles one text message; false closes the connection.
    async fn text(&mut self, text: &str) -> bool {
        if !self.messages.take() {
            self.dropped += 1;
            if self.dropped > self.app.limits.max_dropped {
                self.app.cluster.counters.rate_limited.fetch_add(1, Ordering::Relaxed);
                self.error(ErrorCode::RateLimited, "too many messages: the connection is closed");
                return false;
            }
            // One notice a second at most; the dropped messages get no other reply.
            self.app.cluster.counters.rate_limited.fetch_add(1, Ordering::Relaxed);
            if self.warned.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                self.warned = Some(Instant::now());
                let l = self.app.limits;
                self.error(
                    ErrorCode::RateLimited,
                    format!(
                        "too many messages (at most {} a second, {} in a burst): dropped",
                        l.messages_per_second, l.message_burst
                    ),
                );
            }
            return true;
        }
        self.dropped = 0;
        if text.len() > self.app.limits.max_message_bytes {
            self.error(
                ErrorCode::TooLarge,
                format!(
                    "a message has at most {} bytes, this one {}: dropped",
                    self.app.limits.max_message_bytes,
                    text.len()
                ),
            );
            return true;
        }
        let msg = match wire::parse(text) {
            Ok(m) => m,
            Err(e) => {
                self.error(e.code(), e.to_string());
                return true;
            }
        };
        self.handle(msg).await
    }

    async fn handle(&mut self, msg: ClientMsg) -> bool {
        let guest = match (&msg, &self.guest) {
            (ClientMsg::Hello { token }, None) => {
                return match crate::api::accounts::identify(&self.app, token).await {
                    Ok((g, session)) => {
                        if let Ok(Some(ban)) =
                            crate::api::moderation::ban_of(&self.app, Some(&g.id), self.ip).await
                        {
                            self.error(
                                ErrorCode::Banned,
                                format!(
                                    "{}: the connection is closed",
                                    crate::api::moderation::ban_message(&ban)
                                ),
                            );
                            return false;
                        }
                        match GuestSlot::take(&self.app, &g.id, session.is_some()) {
                            Ok(slot) => self.slot = Some(slot),
                            Err(cap) => {
                                self.error(
                                    ErrorCode::TooManyConnections,
                                    format!(
                                        "you have {cap} connections open, the most one guest may: this one is closed"
                                    ),
                                );
                                return false;
                            }
                        }
                        self.send(
                            ServerMsg::Welcome(WelcomeMsg {
                                guest: GuestInfo { id: g.id.clone(), name: g.name.clone() },
                            })
                            .text(),
                        );
                        // An account's connection hears the notices to him (`docs/protocol.md`,
                        // "Friend notices").
                        if session.is_some() {
                            self.app.cluster.notices.register(&g.id, self.id, self.out.clone());
                        }
                        self.guest = Some(Guest { id: g.id, name: g.name });
                        self.session = session.map(|s| s.token_hash);
                        true
                    }
                    Err(e @ crate::api::accounts::Refused::Store(_)) => {
                        self.error(ErrorCode::Unavailable, e.to_string());
                        false
                    }
                    Err(e) => {
                        self.error(ErrorCode::BadToken, format!("{e}: the connection is closed"));
                        false
                    }
                };
            }
            (ClientMsg::Hello { .. }, Some(_)) => {
                self.error(ErrorCode::AlreadyAuthenticated, "this connection has said hello already");
                return true;
            }
            (ClientMsg::Ping, _) => {
                self.send(ServerMsg::Pong.text());
                return true;
            }
            (_, None) => {
                self.error(ErrorCode::NotAuthenticated, "say hello with your token first");
                return true;
            }
            (_, Some(g)) => g.clone(),
        };
        let msg = match msg {
            ClientMsg::Join { table, seat } => return self.enter(table, Some(seat), guest).await,
            ClientMsg::Watch { table } => return self.enter(table, None, guest).await,
            ClientMsg::Tv { table } => {
                if self.table.is_none() && self.remote.is_none() {
                    self.tv = true;
                }
                return self.enter(table, None, guest).await;
            }
            ClientMsg::Hello { .. } | ClientMsg::Ping => return true,
            ClientMsg::Table(msg) => msg,
        };
        let chat = matches!(msg, TableMsg::Chat { .. });
        if chat && (self.table.is_some() || self.remote.is_some()) && !self.chats.take() {
            let l = self.app.limits;
            self.app.cluster.counters.rate_limited.fetch_add(1, Ordering::Relaxed);
            self.error(
                ErrorCode::RateLimited,
                format!(
                    "too many chat lines (at most {} in a burst, then one every {} s): dropped",
                    l.chat_burst,
                    1.0 / l.chat_per_second
                ),
            );
            return true;
        }
        if self.remote.is_none() && self.table.is_none() {
            self.error(ErrorCode::NotAtTable, "join or watch a table first");
            return true;
        }
        if chat
            && let Some((code, why)) =
                crate::api::moderation::chat_refusal(&self.app, &guest.id, self.ip).await
        {
            self.error(code, why);
            return true;
        }
        if msg == TableMsg::Leave {
            // Entering again after a move, the connection watches.
            if let Some((_, entry)) = &mut self.at {
                *entry = None;
            }
        }
        self.route(msg).await;
        true
    }

    /// Sends a message to the connection's table wherever it runs, as the client sent it: to its
    /// task on this node, or over the bus to the node that runs it.
    async fn route(&mut self, msg: TableMsg) {
        if let Some(table) = &self.remote {
            let cmd = Command::Table(msg);
            let why = match self.app.cluster.send_remote(self.app.store.node(), table, self.id, cmd).await {
                Err(e) => e.to_string(),
                // Nobody heard it (the table's node does not hear its channel now: the bus has
                // just come back, or the node is gone): lost as surely.
                Ok(Some(0)) => "nobody heard it".to_string(),
                Ok(_) => return,
            };
            // The command is lost: the client hears it at once (and enters the table again).
            self.error(
                ErrorCode::Unavailable,
                format!("table {table}: its node could not be reached ({why})"),
            );
            return;
        }
        let Some(t) = &self.table else {
            self.error(ErrorCode::NotAtTable, "join or watch a table first");
            return;
        };
        let request = Request::Table { conn: self.id, msg, at_ms: crate::ids::now_ms() };
        if t.send(Cmd::Request(request)).await.is_err() {
            self.error(ErrorCode::Unavailable, "the table has closed");
            self.table = None;
        }
    }

    /// Joins (`seat` is `Some`) or watches (`None`) a table.
    async fn enter(&mut self, id: String, seat: Entry, guest: Guest) -> bool {
        if self.table.is_some() || self.remote.is_some() {
            self.error(
                ErrorCode::AlreadyAtTable,
                "this connection is at a table already; open another for another table",
            );
            return true;
        }
        // A table whose node did not answer (it died: its lease runs out within a lease, and
        // this node may then claim it) is asked again, for up to a lease and a second, before the
        // client hears `unavailable`: after a quarter of a second, or as soon as a node begins
        // to hear the table (it has just claimed it).
        let until = Instant::now() + self.app.cluster.lease() + Duration::from_secs(1);
        loop {
            let mut hearings = self.app.cluster.hearings();
            match Box::pin(self.try_enter(&id, seat, guest.clone())).await {
                Ok(()) => return true,
                // Also a node without a bus on a database with leases: the lease of a node that
                // is gone runs out within a lease, and this node then claims the table (a node
                // started on a restored backup, `docs/deploy.md`); or this node's own claim of
                // orphans holds the table and is still loading it, and the next try finds it
                // running here.
                Err((ErrorCode::Unavailable, _))
                    if Instant::now() < until
                        && (self.app.cluster.has_bus() || self.app.store.backend() != "sqlite") =>
                {
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_millis(250)) => {}
                        _ = Cluster::heard_of(&mut hearings, &id) => {}
                    }
                }
                Err((code, why)) => {
                    self.error(code, why);
                    return true;
                }
            }
        }
    }

    /// The table `id` where it runs: here (claimed now if no node holds it), or on another node
    /// (`None`), for a node with a bus.
    async fn find(&self, id: &str) -> Result<Option<TableHandle>, (ErrorCode, String)> {
        if let Some(handle) = self.app.table(id) {
            return Ok(Some(handle));
        }
        let unavailable = |e: crate::store::StoreError| (ErrorCode::Unavailable, format!("table {id}: {e}"));
        let asked = self.app.cluster.now();
        // A draining node claims nothing: the table waits for another node; nor does a node
        // claim back a table it has just handed to another to even out the load.
        let claimed = if self.app.cluster.draining() || self.app.cluster.handed_lately(id) {
            None
        } else {
            self.app.store.claim_table(id).await.map_err(unavailable)?
        };
        if let Some((row, epoch)) = claimed {
            self.app.cluster.counters.leases_claimed.fetch_add(1, Ordering::Relaxed);
            return crate::tables::load(&self.app.tables, row, epoch, asked)
                .await
                .map(Some)
                .map_err(unavailable);
        }
        match self.app.store.table(id).await {
            Ok(Some(t)) if t.status == TableStatus::Closed => {
                Err((ErrorCode::Closed, format!("the host closed table {id}; it has no record")))
            }
            Ok(Some(t)) if t.status == TableStatus::Finished => Err((
                ErrorCode::Finished,
                format!("the match at table {id} is over; its record is at /api/records/{id}"),
            )),
            Ok(Some(_)) if self.app.cluster.has_bus() => Ok(None),
            Ok(Some(_)) => Err((
                ErrorCode::Unavailable,
                format!("table {id} runs on another node, and this node has no --bus to reach it"),
            )),
            _ => {
                let shown: String = id.chars().take(40).collect();
                Err((ErrorCode::NoTable, format!("no table {shown:?}")))
            }
        }
    }

    async fn try_enter(&mut self, id: &str, seat: Entry, guest: Guest) -> Result<(), (ErrorCode, String)> {
        let conn = self.id;
        if seat.is_some() {
            if let Ok(Some(ban)) = crate::api::moderation::ban_of(&self.app, Some(&guest.id), self.ip).await {
                return Err((ErrorCode::Banned, crate::api::moderation::ban_message(&ban)));
            }
            if let Some(why) = crate::api::moderation::block_refusal(&self.app, id, &guest.id).await {
                return Err((ErrorCode::Blocked, why));
            }
            // An account sitting down notes its address (`docs/ratings.md`, "Repeated results").
            if self.session.is_some() {
                crate::api::accounts::note_address(&self.app, &guest.id, self.ip).await;
            }
        }
        // A player of a duplicate event under way does not watch a board he has still to play.
        if seat.is_none()
            && let Some(refused) = crate::api::events::watch_refusal(&self.app, id, &guest.id).await
        {
            self.tv = false;
            return Err(refused);
        }
        // A new entry: whatever an earlier one through the bus would still bring is dropped.
        self.app.cluster.left_remote(conn);
        let Some(handle) = self.find(id).await? else {
            // Who runs it, for a bus that cannot tell whether anyone heard the entry.
            let counts = self.app.cluster.bus().is_none_or(|b| b.kind() != "postgres");
            let holder = match counts {
                true => None,
                false => match self.app.store.holders(&[id.to_string()]).await {
                    // Nobody holds it: its lease has run out, and this node could not claim
                    // it (another node's claim is under way, or the row is still locked by the
                    // step of a node stopped in its middle, until the database ends it). An
                    // entry sent on the bus now would wait out the whole reply time for an
                    // answer nobody can give: the caller tries again, and claims it in a moment.
                    Ok(h) if h.is_empty() => {
                        return Err((
                            ErrorCode::Unavailable,
                            format!("table {id}: no node holds it now; it is claimed in a moment"),
                        ));
                    }
                    Ok(h) => h.into_iter().next(),
                    Err(_) => None,
                },
            }
            .map(|(_, h)| h.node);
            let (guest, name) = (guest.id, guest.name);
            // The entry's name is given by the cluster.
            let wire = match seat {
                Some(seat) => Command::Join { guest, name, seat, attach: 0 },
                None => Command::Watch { guest, name, attach: 0, delayed: self.tv },
            };
            self.app.cluster.enter_remote(self.app.store.node(), id, conn, wire, holder.as_deref()).await?;
            self.remote = Some(id.to_string());
            self.at = Some((id.to_string(), seat));
            return Ok(());
        };
        let (reply, rx) = oneshot::channel();
        let out = self.out.clone();
        let request = match seat {
            Some(seat) => Request::Join { conn, guest, seat },
            None if self.tv => Request::Tv { conn, guest },
            None => Request::Watch { conn, guest },
        };
        let closed = || (ErrorCode::Unavailable, "the table has closed".to_string());
        handle.send(Cmd::Enter { request, out, reply }).await.map_err(|_| closed())?;
        rx.await.map_err(|_| closed())?.map_err(|r| (r.code, r.message))?;
        self.table = Some(handle);
        self.at = Some((id.to_string(), seat));
        Ok(())
    }

    /// False when the connection's session has been revoked, has expired or is gone (the
    /// account deleted); a store that cannot answer keeps it.
    async fn session_holds(&self) -> bool {
        let Some(hash) = &self.session else { return true };
        match self.app.store.session_by_token_hash(hash).await {
            Ok(Some(s)) => s.revoked_ms.is_none() && crate::ids::now_ms() < s.expires_ms,
            Ok(None) => false,
            Err(_) => true,
        }
    }

    /// Tells the client its session was signed out (the connection is then closed).
    fn signed_out(&self) {
        self.error(ErrorCode::SignedOut, "this session was signed out: the connection is closed");
    }

    /// Tells the client that it should enter table `id` again at once, on a new connection
    /// (`moved`, `docs/protocol.md`): the connection's node is leaving, or could not enter the
    /// table again for it after the table moved.
    fn tell_moved(&self, id: &str) {
        self.send(ServerMsg::Moved(wire::MovedMsg { table: id.to_string() }).text());
    }

    /// The table stopped where the connection reached it: enter it again where it runs now
    /// (the client gets a fresh `sync`), trying for up to twice a lease's length and a second;
    /// still unavailable then, the client is told `moved` and enters again itself.
    async fn moved(&mut self, table: &str) {
        let Some((id, entry)) = self.at.clone().filter(|(id, _)| id == table) else { return };
        let Some(guest) = self.guest.clone() else { return };
        self.table = None;
        self.remote = None;
        self.at = None;
        // This node drains: the connection is about to close, and the client is told to enter
        // the table again at once, through another node.
        if self.app.cluster.draining() {
            self.tell_moved(&id);
            return;
        }
        let until = Instant::now() + self.app.cluster.lease() * 2 + Duration::from_secs(1);
        loop {
            let mut hearings = self.app.cluster.hearings();
            match Box::pin(self.try_enter(&id, entry, guest.clone())).await {
                Ok(()) => return,
                Err((ErrorCode::Unavailable, _)) if Instant::now() < until => {
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_millis(250)) => {}
                        _ = Cluster::heard_of(&mut hearings, &id) => {}
                    }
                }
                // Not entered again in time: the client is told to enter it again itself (as
                // when a node drains), rather than left with an error it may not act on.
                Err((ErrorCode::Unavailable, _)) => {
                    self.tell_moved(&id);
                    return;
                }
                Err((code, why)) => {
                    self.error(code, format!("the table moved and could not be entered again: {why}"));
                    return;
                }
            }
        }
    }
}

/// A connection's task. The socket is split before the task's future is made: an `async fn`'s
/// future would hold the whole socket for as long as the connection lasts.
fn connection(app: Arc<App>, socket: WebSocket, peer: Option<std::net::IpAddr>) -> impl Future<Output = ()> {
    let (sink, stream) = socket.split();
    serve_connection(app, sink, stream, peer)
}

async fn serve_connection(
    app: Arc<App>,
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut stream: futures_util::stream::SplitStream<WebSocket>,
    peer: Option<std::net::IpAddr>,
) {
    app.connections.fetch_add(1, Ordering::Relaxed);
    let id = app.next_conn_id();
    let (out, mut rx) = mpsc::channel::<Utf8Bytes>(OUT_QUEUE);
    let writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(Duration::from_secs(30));
        ping.tick().await;
        loop {
            tokio::select! {
                m = rx.recv() => match m {
                    Some(m) => if sink.send(Message::Text(m)).await.is_err() { break },
                    None => break,
                },
                _ = ping.tick() => if sink.send(Message::Ping(Default::default())).await.is_err() { break },
            }
        }
        let _ = sink.close().await;
    });
    let limits = app.limits;
    let (control_tx, mut control) = mpsc::unbounded_channel();
    app.cluster.attach(id, out.clone(), control_tx);
    let mut conn = Conn {
        id,
        app: app.clone(),
        out,
        guest: None,
        ip: peer,
        session: None,
        slot: None,
        table: None,
        at: None,
        remote: None,
        messages: RateBucket::new(limits.messages_per_second, limits.message_burst),
        chats: RateBucket::new(limits.chat_per_second, limits.chat_burst),
        dropped: 0,
        warned: None,
        tv: false,
    };
    let idle = Duration::from_secs(limits.idle_seconds);
    let hello_by = Instant::now() + Duration::from_millis(limits.hello_timeout_ms);
    let mut heard = Instant::now();
    let mut signouts = app.signouts.subscribe();
    let mut closing = app.cluster.closing();
    let mut session_check =
        tokio::time::interval(Duration::from_millis(limits.accounts.session_check_ms.max(1)));
    session_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    session_check.tick().await;
    loop {
        // Silent for `idle`, the connection is closed; until `hello`, it has until `hello_by`
        // (whatever else it sends).
        let wait = match conn.guest {
            None => hello_by.min(heard + idle).saturating_duration_since(Instant::now()),
            Some(_) => (heard + idle).saturating_duration_since(Instant::now()),
        };
        let next = tokio::select! {
            m = tokio::time::timeout(wait, stream.next()) => m,
            Some(c) = control.recv() => {
                match c {
                    Control::Moved(table) => Box::pin(conn.moved(&table)).await,
                }
                continue;
            }
            // The node has drained: the client reconnects (through the balancer, to another node).
            Ok(()) = closing.changed() => {
                if *closing.borrow() {
                    // Still at a table (one on another node, or one not handed off in time):
                    // the client enters it again at once through another node.
                    if let Some((id, _)) = conn.at.clone() {
                        conn.tell_moved(&id);
                    }
                    break;
                }
                continue;
            }
            s = signouts.recv(), if conn.session.is_some() => {
                let out = match s {
                    Ok(s) => conn.guest.as_ref().zip(conn.session.as_ref()).is_some_and(|(g, h)| s.covers(&g.id, h)),
                    // Fallen behind: the store says.
                    Err(broadcast::error::RecvError::Lagged(_)) => !conn.session_holds().await,
                    Err(broadcast::error::RecvError::Closed) => false,
                };
                if out {
                    conn.signed_out();
                    break;
                }
                continue;
            }
            _ = session_check.tick(), if conn.session.is_some() => {
                if !conn.session_holds().await {
                    conn.signed_out();
                    break;
                }
                continue;
            }
        };
        let msg = match next {
            Ok(Some(Ok(m))) => m,
            Err(_) if conn.guest.is_none() && Instant::now() >= hello_by => {
                conn.error(
                    ErrorCode::HelloTimeout,
                    format!(
                        "no valid hello within {} ms of connecting: the connection is closed",
                        limits.hello_timeout_ms
                    ),
                );
                break;
            }
            // Timed out, closed, or an error (a frame over the size limit, a protocol error).
            _ => break,
        };
        match msg {
            // Only text messages and pongs (the answers to the server's pings) are heard: binary
            // frames and pings alone are silence, and do not keep the connection open.
            Message::Text(t) => {
                heard = Instant::now();
                if !conn.text(t.as_str()).await {
                    break;
                }
            }
            Message::Binary(_) => {
                if !conn.messages.take() {
                    continue;
                }
                conn.error(
                    ErrorCode::Binary,
                    "the protocol is JSON in text frames: binary frames are dropped",
                );
            }
            Message::Pong(_) => heard = Instant::now(),
            Message::Ping(_) => {}
            Message::Close(_) => break,
        }
    }
    app.cluster.detach(id);
    if let Some(g) = &conn.guest
        && conn.session.is_some()
    {
        app.cluster.notices.unregister(&g.id, id);
    }
    if let Some(table) = conn.remote.take() {
        let _ = app.cluster.send_remote(app.store.node(), &table, id, Command::Gone).await;
    }
    if let Some(t) = conn.table.take() {
        let _ = t.send(Cmd::Request(Request::Gone { conn: id })).await;
    }
    drop(conn);
    let _ = writer.await;
    app.connections.fetch_sub(1, Ordering::Relaxed);
}
