//! Accepting connections: the server's own accept loop over hyper's HTTP/1 connections, so that
//! a connection whose request headers are not complete within
//! [`Limits::header_timeout_ms`](crate::Limits::header_timeout_ms) is closed (a silent
//! connection, a slow "slowloris" sender, an idle keep-alive connection), that one address holds
//! at most [`Limits::connections_per_ip`](crate::Limits::connections_per_ip) connections, and
//! that the server as a whole stays under its file-descriptor limit with room to spare for
//! HTTP when the WebSockets reach their cap (see [`Caps`]).
//!
//! A connection refused for a cap gets a short HTTP answer (`429` for its address, `503` for the
//! server) with the API's error body, and is closed.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use wire::{ApiCode, ApiErrorBody, ApiErrorDetail};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use crate::App;

/// File descriptors kept for everything that is not a connection (the database, the web
/// files, the runtime).
const FD_RESERVE: u64 = 64;

/// The server-wide connection caps, from the file-descriptor limit and the configured limits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Caps {
    /// TCP connections at once (HTTP and WebSocket together); more are answered `503`.
    pub connections: usize,
    /// WebSocket connections at once: below `connections` by a headroom (a tenth, at least 16),
    /// so that HTTP keeps answering when the WebSockets are at their cap.
    pub websockets: usize,
}

impl Caps {
    /// The caps for a process allowed `fd_limit` open files (`None`: unlimited) and configured
    /// to accept `max_websockets` WebSockets.
    pub fn new(fd_limit: Option<u64>, max_websockets: usize) -> Caps {
        let connections = match fd_limit {
            Some(n) => usize::try_from(n.saturating_sub(FD_RESERVE)).unwrap_or(usize::MAX).max(1),
            None => usize::MAX,
        };
        let headroom = (connections / 10).max(16);
        let websockets = max_websockets.min(connections.saturating_sub(headroom));
        Caps { connections, websockets }
    }
}

/// Raises the soft limit of open files to the hard one; returns the soft limit now in force
/// (`None`: unlimited).
pub fn raise_fd_limit() -> io::Result<Option<u64>> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let lim = getrlimit(Resource::Nofile);
    if lim.current != lim.maximum {
        setrlimit(Resource::Nofile, rustix::process::Rlimit { current: lim.maximum, maximum: lim.maximum })?;
    }
    Ok(getrlimit(Resource::Nofile).current)
}

/// The soft limit of open files (`None`: unlimited).
pub fn fd_limit() -> Option<u64> {
    rustix::process::getrlimit(rustix::process::Resource::Nofile).current
}

/// Connections counted per address.
#[derive(Default)]
pub struct PerIp {
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl PerIp {
    /// How many connections `ip` holds.
    pub fn count(&self, ip: IpAddr) -> usize {
        self.open.lock().map(|m| m.get(&ip).copied().unwrap_or(0)).unwrap_or(0)
    }
}

/// One admitted connection: counted for its address (none: a trusted proxy's connection that
/// carries many clients' requests) and the server until dropped.
struct Admitted {
    app: Arc<App>,
    ip: Option<IpAddr>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.app.tcp_connections.fetch_sub(1, Ordering::Relaxed);
        if let Some(ip) = self.ip
            && let Ok(mut m) = self.app.per_ip.open.lock()
            && let Some(n) = m.get_mut(&ip)
        {
            *n -= 1;
            if *n == 0 {
                m.remove(&ip);
            }
        }
    }
}

/// Why a connection is refused.
enum Refusal {
    Address(usize),
    Server,
}

/// Counts a new connection from `ip` (none: not counted for an address), or says why it is
/// refused.
fn admit(app: &Arc<App>, ip: Option<IpAddr>) -> Result<Admitted, Refusal> {
    let Some(ip) = ip else {
        if app.tcp_connections.load(Ordering::Relaxed) >= app.caps().connections {
            return Err(Refusal::Server);
        }
        app.tcp_connections.fetch_add(1, Ordering::Relaxed);
        return Ok(Admitted { app: app.clone(), ip: None });
    };
    let per_ip = app.limits.connections_per_ip;
    let mut m = app.per_ip.open.lock().map_err(|_| Refusal::Server)?;
    let n = m.entry(ip).or_insert(0);
    if *n >= per_ip {
        return Err(Refusal::Address(per_ip));
    }
    if app.tcp_connections.load(Ordering::Relaxed) >= app.caps().connections {
        if *n == 0 {
            m.remove(&ip);
        }
        return Err(Refusal::Server);
    }
    *n += 1;
    app.tcp_connections.fetch_add(1, Ordering::Relaxed);
    Ok(Admitted { app: app.clone(), ip: Some(ip) })
}

/// Refused connections being answered now.
static REFUSING: AtomicUsize = AtomicUsize::new(0);

/// The most refused connections answered at once; beyond, they are closed without an answer.
pub const MAX_REFUSING: usize = 256;

/// How many refused connections are being answered now (at most [`MAX_REFUSING`]).
pub fn refusing() -> usize {
    REFUSING.load(Ordering::Relaxed)
}

/// Answers a refused connection and closes it.
async fn refuse(mut stream: TcpStream, why: Refusal) {
    let (status, code, message) = match why {
        Refusal::Address(n) => (
            "429 Too Many Requests",
            ApiCode::TooManyConnections,
            format!("this address has {n} connections open, the most the server allows"),
        ),
        Refusal::Server => {
            ("503 Service Unavailable", ApiCode::Unavailable, "the server is at its connection cap".into())
        }
    };
    let body = serde_json::to_string(&ApiErrorBody { error: ApiErrorDetail { code, message, reason: None } })
        .unwrap_or_default();
    let text = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        let _ = stream.write_all(text.as_bytes()).await;
        let _ = stream.shutdown().await;
        // Read what the client sent (a little, briefly): closing with unread data would reset
        // the connection, and the client could lose the answer.
        let mut buf = [0u8; 4096];
        let mut left = 64 * 1024usize;
        while left > 0 {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    })
    .await;
}

/// A TCP stream that stays counted for as long as it is open (an upgraded WebSocket too); what
/// was read before HTTP began (looking for a PROXY header) is read again first.
struct Counted {
    stream: TcpStream,
    _admitted: Admitted,
    prefix: Vec<u8>,
    at: usize,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.at < self.prefix.len() {
            let n = (self.prefix.len() - self.at).min(buf.remaining());
            let at = self.at;
            buf.put_slice(&self.prefix[at..at + n]);
            self.at += n;
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// The address a request came from (the client's, behind a trusted proxy: see
/// [`crate::proxy`]), when the server's accept loop knows it (requests handed to the router
/// directly, as some tests do, have none). Every per-address limit counts by it.
#[derive(Copy, Clone, Debug)]
pub struct Peer(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Peer, Self::Rejection> {
        Ok(Peer(parts.extensions.get::<PeerAddr>().map(|p| p.0)))
    }
}

/// The request extension the accept loop adds.
#[derive(Copy, Clone, Debug)]
struct PeerAddr(IpAddr);

/// An IPv4 address seen through IPv6 counts as itself.
fn canonical(addr: SocketAddr) -> IpAddr {
    crate::proxy::canonical_ip(addr.ip())
}

/// Answers a refused connection, unless too many are being answered (then it is just closed):
/// a refusal holds its socket for up to two seconds, and a flood of them must not use up the open
/// files themselves.
fn refuse_soon(stream: TcpStream, why: Refusal) {
    if REFUSING.fetch_add(1, Ordering::Relaxed) < MAX_REFUSING {
        tokio::spawn(async move {
            refuse(stream, why).await;
            REFUSING.fetch_sub(1, Ordering::Relaxed);
        });
    } else {
        REFUSING.fetch_sub(1, Ordering::Relaxed);
        drop(stream);
    }
}

/// Serves one admitted connection, whose requests come from `client`; when `client` is a trusted
/// proxy, each request's client is read from its forwarded header.
fn serve_connection(
    app: &Arc<App>,
    router: &axum::Router,
    stream: TcpStream,
    admitted: Admitted,
    prefix: Vec<u8>,
    client: IpAddr,
) {
    let header_timeout = Duration::from_millis(app.limits.header_timeout_ms.max(1));
    let _ = stream.set_nodelay(true);
    let io = TokioIo::new(Counted { stream, _admitted: admitted, prefix, at: 0 });
    let router = router.clone();
    let proxies = app.site().map(|s| s.proxies.clone()).filter(|p| p.trusts(client));
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        let ip = proxies.as_ref().map_or(client, |p| p.client(client, req.headers()));
        req.extensions_mut().insert(PeerAddr(ip));
        let mut router = router.clone();
        async move { tower_service::Service::call(&mut router, req).await }
    });
    tokio::spawn(async move {
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .serve_connection(io, service)
            .with_upgrades();
        let _ = conn.await;
    });
}

/// A trusted proxy's connection: its PROXY header read if it begins with one (within the header
/// timeout), then counted for the client it names (none named: for no address, the proxy
/// carrying many clients' requests) and served.
async fn serve_proxied(app: Arc<App>, router: axum::Router, mut stream: TcpStream, peer: IpAddr) {
    let timeout = Duration::from_millis(app.limits.header_timeout_ms.max(1));
    let read = tokio::time::timeout(timeout, crate::proxy::read_proxy_header(&mut stream)).await;
    let (header, prefix) = match read {
        Ok(Ok(x)) => x,
        Ok(Err(e)) => {
            tracing::debug!(%peer, error = %e, "a trusted proxy's connection is closed");
            return;
        }
        Err(_) => return,
    };
    let source = match header {
        crate::proxy::ProxyHeader::Source(s) => s,
        crate::proxy::ProxyHeader::Absent => None,
    };
    let client = source.unwrap_or(peer);
    let counted = source.filter(|s| !app.site().is_some_and(|site| site.proxies.trusts(*s)));
    match admit(&app, counted) {
        Ok(admitted) => serve_connection(&app, &router, stream, admitted, prefix, client),
        Err(why) => refuse_soon(stream, why),
    }
}

/// Serves `app` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, app: Arc<App>) -> io::Result<()> {
    app.set_caps(Caps::new(fd_limit(), app.limits.max_connections));
    let router = crate::router(app.clone());
    loop {
        let (stream, addr) = match listener.accept().await {
            Ok(x) => x,
            Err(e) => {
                // Out of file descriptors or another passing failure: wait, then go on.
                tracing::warn!(error = %e, "a connection cannot be accepted");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let ip = canonical(addr);
        if app.site().is_some_and(|s| s.proxies.trusts(ip)) {
            tokio::spawn(serve_proxied(app.clone(), router.clone(), stream, ip));
            continue;
        }
        match admit(&app, Some(ip)) {
            Ok(admitted) => serve_connection(&app, &router, stream, admitted, Vec::new(), ip),
            Err(why) => refuse_soon(stream, why),
        }
    }
}
