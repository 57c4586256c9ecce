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
use table::protocol::{GuestInfo, ServerMsg, WelcomeMsg};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::Instant;

use crate::App;
use crate::cluster::{Control, Wire};
use crate::rate::RateBucket;
use crate::store::TableStatus;
use crate::tables::{Cmd, TableHandle};
use table::machine::ConnId;
use table::machine::Request;
use table::protocol::{self, ClientMsg, ErrorCode};
use table::settings::Guest;

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

/// A guest's WebSocket, counted for the guest until dropped.
struct GuestSlot {
    app: Arc<App>,
    guest: String,
}

impl GuestSlot {
    /// Counts a connection of `guest`, or gives the cap when the guest is at it.
    fn take(app: &Arc<App>, guest: &str) -> Result<GuestSlot, usize> {
        let cap = app.limits.sockets_per_guest;
        let mut m = app.per_guest.lock().map_err(|_| cap)?;
        let n = m.entry(guest.to_string()).or_insert(0);
        if *n >= cap {
            return Err(cap);
        }
        *n += 1;
        Ok(GuestSlot { app: app.clone(), guest: guest.to_string() })
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
}

impl Conn {
    fn send(&self, msg: impl Into<Utf8Bytes>) {
        let _ = self.out.try_send(msg.into());
    }

    fn error(&self, code: ErrorCode, message: impl Into<String>) {
        self.send(protocol::error(code, message, None));
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
        let msg = match protocol::parse(text) {
            Ok(m) => m,
            Err((code, why)) => {
                self.error(code, why);
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
                        match GuestSlot::take(&self.app, &g.id) {
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
        match msg {
            ClientMsg::Join { table, seat } => self.enter(table, Some(seat), guest).await,
            ClientMsg::Watch { table } => self.enter(table, None, guest).await,
            other => {
                if matches!(other, ClientMsg::Chat { .. })
                    && (self.table.is_some() || self.remote.is_some())
                    && !self.chats.take()
                {
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
                if matches!(other, ClientMsg::Chat { .. })
                    && let Some((code, why)) =
                        crate::api::moderation::chat_refusal(&self.app, &guest.id, self.ip).await
                {
                    self.error(code, why);
                    return true;
                }
                let conn = self.id;
                let request = match other {
                    ClientMsg::Act { action, move_no, seat } => Request::Act { conn, action, move_no, seat },
                    ClientMsg::Chat { text } => Request::Chat { conn, text, at_ms: crate::ids::now_ms() },
                    ClientMsg::Resync => Request::Resync { conn },
                    ClientMsg::Leave => {
                        // Entering again after a move, the connection watches.
                        if let Some((_, entry)) = &mut self.at {
                            *entry = None;
                        }
                        Request::Leave { conn }
                    }
                    ClientMsg::Back => Request::Back { conn },
                    ClientMsg::Start => Request::Start { conn },
                    ClientMsg::Next => Request::Next { conn },
                    ClientMsg::Close { keep } => Request::Close { conn, keep },
                    ClientMsg::TakeBack => Request::TakeBack { conn },
                    ClientMsg::Pause => Request::Pause { conn, pause: true },
                    ClientMsg::Resume => Request::Pause { conn, pause: false },
                    ClientMsg::Remove { seat } => Request::Remove { conn, seat },
                    ClientMsg::Rematch => Request::Rematch { conn },
                    ClientMsg::Hint => Request::Hint { conn },
                    ClientMsg::Tracker => Request::Tracker { conn },
                    ClientMsg::Hello { .. }
                    | ClientMsg::Ping
                    | ClientMsg::Join { .. }
                    | ClientMsg::Watch { .. } => {
                        return true;
                    }
                };
                self.route(request).await;
                true
            }
        }
    }

    /// Sends a request to the connection's table wherever it runs: to its task on this node, or
    /// over the bus to the node that runs it.
    async fn route(&mut self, request: Request) {
        if let Some(table) = &self.remote {
            if let Some(wire) = Wire::of(request)
                && let Err(e) =
                    self.app.cluster.send_remote(self.app.store.node(), table, self.id, wire).await
            {
                // The command is lost: the client hears it at once (and enters the table again).
                self.error(
                    ErrorCode::Unavailable,
                    format!("table {table}: its node could not be reached ({e})"),
                );
            }
            return;
        }
        let Some(t) = &self.table else {
            self.error(ErrorCode::NotAtTable, "join or watch a table first");
            return;
        };
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
        // client hears `unavailable`.
        let until = Instant::now() + self.app.cluster.lease() + Duration::from_secs(1);
        loop {
            match Box::pin(self.try_enter(&id, seat, guest.clone())).await {
                Ok(()) => return true,
                Err((ErrorCode::Unavailable, _)) if Instant::now() < until && self.app.cluster.has_bus() => {
                    tokio::time::sleep(Duration::from_millis(250)).await;
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
        // A draining node claims nothing: the table waits for another node.
        let claimed = if self.app.cluster.draining() {
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
        // A new entry: whatever an earlier one through the bus would still bring is dropped.
        self.app.cluster.left_remote(conn);
        let Some(handle) = self.find(id).await? else {
            let (guest, name) = (guest.id, guest.name);
            // The entry's name is given by the cluster.
            let wire = match seat {
                Some(seat) => Wire::Join { guest, name, seat, attach: 0 },
                None => Wire::Watch { guest, name, attach: 0 },
            };
            self.app.cluster.enter_remote(self.app.store.node(), id, conn, wire).await?;
            self.remote = Some(id.to_string());
            self.at = Some((id.to_string(), seat));
            return Ok(());
        };
        let (reply, rx) = oneshot::channel();
        let out = self.out.clone();
        let request = match seat {
            Some(seat) => Request::Join { conn, guest, seat },
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

    /// The table stopped where the connection reached it: enter it again where it runs now
    /// (the client gets a fresh `sync`), trying for up to twice a lease's length.
    async fn moved(&mut self, table: &str) {
        let Some((id, entry)) = self.at.clone().filter(|(id, _)| id == table) else { return };
        let Some(guest) = self.guest.clone() else { return };
        self.table = None;
        self.remote = None;
        self.at = None;
        // This node drains: the connection is about to close, and the client enters the
        // table again through another node.
        if self.app.cluster.draining() {
            return;
        }
        let until = Instant::now() + self.app.cluster.lease() * 2 + Duration::from_secs(1);
        loop {
            match Box::pin(self.try_enter(&id, entry, guest.clone())).await {
                Ok(()) => return,
                Err((ErrorCode::Unavailable, _)) if Instant::now() < until => {
                    tokio::time::sleep(Duration::from_millis(250)).await;
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
    if let Some(table) = conn.remote.take() {
        let _ = app.cluster.send_remote(app.store.node(), &table, id, Wire::Gone).await;
    }
    if let Some(t) = conn.table.take() {
        let _ = t.send(Cmd::Request(Request::Gone { conn: id })).await;
    }
    drop(conn);
    let _ = writer.await;
    app.connections.fetch_sub(1, Ordering::Relaxed);
}
