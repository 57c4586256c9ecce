//! Trust and safety at the edge (issue 28): the client's address behind a trusted proxy (headers
//! and the PROXY protocol) and only then; the profile lookup's allowance; sign-in limits that an
//! attacker cannot close on the owner; the JSON-only, same-origin state-changing requests; the
//! JSON 413; and binary frames and pings counted as silence on a WebSocket.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use server::api::accounts::AccountLimits;
use server::proxy::{ForwardedHeader, Proxies};
use server::store::sqlite::SqliteStore;
use server::{App, Config, Limits, Site};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(10);

struct Srv {
    app: Arc<App>,
    addr: String,
    _dir: tempfile::TempDir,
}

/// A server with these limits, trusting these proxies (none: no proxy).
async fn start(limits: Limits, trusted: &[&str], header: ForwardedHeader) -> Srv {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(dir.path().join("y.db").to_str().unwrap()).unwrap());
    let app =
        App::start(store, Config { timing: common::fast(), limits, ..Default::default() }).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let proxies = Proxies { ranges: trusted.iter().map(|r| r.parse().unwrap()).collect(), header };
    app.set_site(Site::local(addr).with_proxies(proxies));
    let a = app.clone();
    tokio::spawn(async move {
        let _ = server::serve(listener, a).await;
    });
    Srv { app, addr: addr.to_string(), _dir: dir }
}

/// An answer: the status, the headers (names in lower case) and the body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    fn code(&self) -> String {
        self.json()["error"]["code"].as_str().unwrap_or("").to_string()
    }
}

/// Sends `prefix` (a PROXY header, or nothing) and then one HTTP request on a new connection.
async fn raw(
    addr: &str,
    prefix: &[u8],
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = prefix.to_vec();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    req.extend(head.as_bytes());
    req.extend(body.as_bytes());
    s.write_all(&req).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(WAIT, s.read_to_end(&mut out)).await.unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer { status, headers, body: body.to_string() }
}

const JSON: (&str, &str) = ("Content-Type", "application/json");

/// `POST /api/guests` with these extra headers (after a PROXY `prefix`).
async fn new_guest(srv: &Srv, prefix: &[u8], headers: &[(&str, &str)]) -> Answer {
    let mut h = vec![JSON];
    h.extend_from_slice(headers);
    raw(&srv.addr, prefix, "POST", "/api/guests", &h, r#"{"name":"Ann"}"#).await
}

/// Limits allowing two guests per address (then one every ten minutes).
fn two_guests() -> Limits {
    Limits { guests_burst: 2.0, guest_every_seconds: 600.0, ..common::fast_limits() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_headers_count_only_from_a_trusted_proxy_and_name_the_rightmost_untrusted_hop() {
    // No trusted proxy: the header is ignored, every guest counts for the peer (127.0.0.1).
    let plain = start(two_guests(), &[], ForwardedHeader::XForwardedFor).await;
    let statuses = [
        new_guest(&plain, b"", &[("X-Forwarded-For", "203.0.113.1")]).await.status,
        new_guest(&plain, b"", &[("X-Forwarded-For", "203.0.113.2")]).await.status,
        new_guest(&plain, b"", &[("X-Forwarded-For", "203.0.113.3"), ("Forwarded", "for=203.0.113.4")])
            .await
            .status,
    ];
    assert_eq!(statuses, [201, 201, 429], "a spoofed header escaped the peer's own limit");

    // A trusted peer's header names the client: each has its own allowance.
    let srv = start(two_guests(), &["127.0.0.1", "10.0.0.0/8"], ForwardedHeader::XForwardedFor).await;
    let xff = |v: &'static str| [("X-Forwarded-For", v)];
    assert_eq!(new_guest(&srv, b"", &xff("203.0.113.1")).await.status, 201);
    assert_eq!(new_guest(&srv, b"", &xff("203.0.113.1")).await.status, 201);
    let third = new_guest(&srv, b"", &xff("203.0.113.1")).await;
    assert_eq!((third.status, third.code()), (429, "rate_limited".into()), "{}", third.body);
    assert_eq!(new_guest(&srv, b"", &xff("198.51.100.2")).await.status, 201, "another client");
    // The right-most hop not trusted: what the client wrote to the left is not believed...
    assert_eq!(new_guest(&srv, b"", &xff("192.0.2.66, 203.0.113.1, 10.1.1.1")).await.status, 429);
    // ...and a client cannot pose as another by writing it to the left of its own address.
    assert_eq!(new_guest(&srv, b"", &xff("203.0.113.1, 192.0.2.7")).await.status, 201);
    // Forwarded is not read when the proxies write X-Forwarded-For.
    for _ in 0..2 {
        assert_eq!(new_guest(&srv, b"", &[("Forwarded", "for=192.0.2.99")]).await.status, 201);
    }
    assert_eq!(
        new_guest(&srv, b"", &[("Forwarded", "for=192.0.2.98")]).await.status,
        429,
        "counted for the proxy"
    );

    // With --forwarded-header forwarded, `for=` is read.
    let fwd = start(two_guests(), &["127.0.0.1"], ForwardedHeader::Forwarded).await;
    let f = |v: &'static str| [("Forwarded", v)];
    assert_eq!(new_guest(&fwd, b"", &f("for=192.0.2.1;proto=https")).await.status, 201);
    assert_eq!(new_guest(&fwd, b"", &f("for=\"[2001:db8::1]:443\"")).await.status, 201);
    assert_eq!(new_guest(&fwd, b"", &f("for=\"[2001:db8::1]:443\"")).await.status, 201);
    assert_eq!(new_guest(&fwd, b"", &f("for=192.0.2.5, for=\"[2001:db8::1]\"")).await.status, 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_peers_proxy_protocol_header_names_the_client() {
    let srv = start(two_guests(), &["127.0.0.1"], ForwardedHeader::XForwardedFor).await;
    let v1 = b"PROXY TCP4 203.0.113.9 127.0.0.1 51000 80\r\n";
    assert_eq!(new_guest(&srv, v1, &[]).await.status, 201);
    assert_eq!(new_guest(&srv, v1, &[]).await.status, 201);
    assert_eq!(new_guest(&srv, v1, &[]).await.status, 429);
    let mut v2 = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    v2.extend([0x21, 0x11, 0, 12, 203, 0, 113, 9, 127, 0, 0, 1, 0xc7, 0x38, 0, 80]);
    assert_eq!(new_guest(&srv, &v2, &[]).await.status, 429, "version 2 names the same client");
    v2[16..20].copy_from_slice(&[198, 51, 100, 4]);
    assert_eq!(new_guest(&srv, &v2, &[]).await.status, 201, "another client");
    // Plain requests of the trusted peer still work (and count for it).
    assert_eq!(new_guest(&srv, b"", &[]).await.status, 201);
    // The connection caps count the PROXY header's client, not the proxy.
    let mut held = tokio::net::TcpStream::connect(&srv.addr).await.unwrap();
    held.write_all(b"PROXY TCP4 192.0.2.44 127.0.0.1 1 80\r\nGET /api/games HTTP/1.1\r\n").await.unwrap();
    let client: std::net::IpAddr = "192.0.2.44".parse().unwrap();
    let until = tokio::time::Instant::now() + WAIT;
    while srv.app.per_ip.count(client) == 0 && tokio::time::Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(srv.app.per_ip.count(client), 1);
    assert_eq!(srv.app.per_ip.count("127.0.0.1".parse().unwrap()), 0);
    drop(held);

    // From a peer that is not trusted, a PROXY line is no header at all: a bad request.
    let plain = start(two_guests(), &[], ForwardedHeader::XForwardedFor).await;
    assert_eq!(new_guest(&plain, v1, &[]).await.status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn player_lookups_are_limited_per_address_with_retry_after() {
    let accounts =
        AccountLimits { lookup_burst: 3.0, lookup_every_seconds: 600.0, ..AccountLimits::default() };
    let srv =
        start(Limits { accounts, ..common::fast_limits() }, &["127.0.0.1"], ForwardedHeader::XForwardedFor)
            .await;
    let from = |ip: &'static str| [("X-Forwarded-For", ip)];
    for name in ["nobody", "somebody", "anybody"] {
        let a = raw(&srv.addr, b"", "GET", &format!("/api/players/{name}"), &from("203.0.113.1"), "").await;
        assert_eq!((a.status, a.code()), (404, "no_player".into()));
    }
    let a = raw(&srv.addr, b"", "GET", "/api/players/whoever", &from("203.0.113.1"), "").await;
    assert_eq!((a.status, a.code()), (429, "rate_limited".into()), "{}", a.body);
    let wait: u64 = a.header("retry-after").expect("Retry-After").parse().unwrap();
    assert!((500..=600).contains(&wait), "{wait}");
    assert!(a.json()["error"]["message"].as_str().unwrap().contains("address"), "{}", a.body);
    let b = raw(&srv.addr, b"", "GET", "/api/players/whoever", &from("198.51.100.1"), "").await;
    assert_eq!(b.status, 404, "another address has its own allowance");
}

const PW: &str = "correct horse battery";

/// Signs `user` in from `ip` with `password`.
async fn sign_in(srv: &Srv, ip: &str, user: &str, password: &str) -> Answer {
    let body = json!({ "username": user, "password": password }).to_string();
    raw(&srv.addr, b"", "POST", "/api/sessions", &[JSON, ("X-Forwarded-For", ip)], &body).await
}

/// A guest with an account `user`; its session's token.
async fn account(srv: &Srv, user: &str) -> String {
    let g = new_guest(srv, b"", &[]).await.json();
    let token = format!("Bearer {}", g["token"].as_str().unwrap());
    let body = json!({ "username": user, "password": PW }).to_string();
    let a = raw(&srv.addr, b"", "POST", "/api/account", &[JSON, ("Authorization", &token)], &body).await;
    assert_eq!(a.status, 201, "{}", a.body);
    a.json()["token"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_from_one_address_does_not_lock_the_owner_out_from_another() {
    let accounts = AccountLimits {
        account_burst: 3.0,
        account_every_seconds: 600.0,
        ip_burst: 10.0,
        ip_every_seconds: 600.0,
        ..AccountLimits::default()
    };
    let srv =
        start(Limits { accounts, ..common::fast_limits() }, &["127.0.0.1"], ForwardedHeader::XForwardedFor)
            .await;
    account(&srv, "Owner").await;
    // The attacker at A guesses until refused.
    for _ in 0..3 {
        assert_eq!(sign_in(&srv, "203.0.113.66", "owner", "wrong guess 123").await.status, 401);
    }
    let refused = sign_in(&srv, "203.0.113.66", "owner", "wrong guess 123").await;
    assert_eq!((refused.status, refused.code()), (429, "rate_limited".into()), "{}", refused.body);
    assert!(refused.header("retry-after").is_some());
    // Even with the right password, A stays refused...
    assert_eq!(sign_in(&srv, "203.0.113.66", "owner", PW).await.status, 429);
    // ...while the owner at B signs in.
    let owner = sign_in(&srv, "198.51.100.5", "Owner", PW).await;
    assert_eq!(owner.status, 201, "the owner was locked out: {}", owner.body);
    // A's address allowance covers every username it tries.
    for i in 0..6 {
        let _ = sign_in(&srv, "203.0.113.66", &format!("user{i}"), "wrong guess 123").await;
    }
    let a = sign_in(&srv, "203.0.113.66", "someone", "wrong guess 123").await;
    assert!(a.json()["error"]["message"].as_str().unwrap().contains("address"), "{}", a.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_session_changes_its_password_while_its_username_is_under_attack() {
    let accounts = AccountLimits {
        username_burst: 3.0,
        username_every_seconds: 600.0,
        ip_burst: 100.0,
        account_burst: 100.0,
        ..AccountLimits::default()
    };
    let srv =
        start(Limits { accounts, ..common::fast_limits() }, &["127.0.0.1"], ForwardedHeader::XForwardedFor)
            .await;
    let token = account(&srv, "Owner").await;
    // Guesses from many addresses use the username's whole allowance.
    for i in 1..=3 {
        assert_eq!(sign_in(&srv, &format!("203.0.113.{i}"), "owner", "wrong guess 123").await.status, 401);
    }
    assert_eq!(sign_in(&srv, "203.0.113.9", "owner", "wrong guess 123").await.status, 429);
    // The owner's session still changes the password.
    let body = json!({ "current": PW, "password": "a brand new password" }).to_string();
    let auth = format!("Bearer {token}");
    let a = raw(
        &srv.addr,
        b"",
        "POST",
        "/api/account/password",
        &[JSON, ("Authorization", &auth), ("X-Forwarded-For", "198.51.100.5")],
        &body,
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn state_changing_requests_take_json_only_and_only_from_the_servers_own_pages() {
    let srv = start(common::fast_limits(), &[], ForwardedHeader::XForwardedFor).await;
    let body = r#"{"name":"Ann"}"#;
    // What any web page may send to another site without asking: refused, with nothing made.
    for (path, ty) in [
        ("/api/guests", Some("text/plain")),
        ("/api/guests", Some("text/plain;charset=UTF-8")),
        ("/api/guests", Some("application/x-www-form-urlencoded")),
        ("/api/guests", Some("multipart/form-data; boundary=x")),
        ("/api/guests", None),
        ("/api/sessions", Some("text/plain")),
        ("/api/sessions", Some("application/x-www-form-urlencoded")),
        ("/api/tables", Some("text/plain")),
        ("/api/account", Some("text/plain")),
    ] {
        let h: Vec<(&str, &str)> = ty.map(|t| ("Content-Type", t)).into_iter().collect();
        let a = raw(&srv.addr, b"", "POST", path, &h, body).await;
        assert_eq!((a.status, a.code()), (415, "not_json".into()), "{path} {ty:?}: {}", a.body);
        assert!(a.body.contains("application/json"), "{}", a.body);
    }
    // A page of another site: 403, even with JSON.
    let evil = ("Origin", "http://evil.example");
    for path in ["/api/guests", "/api/sessions"] {
        let a = raw(&srv.addr, b"", "POST", path, &[JSON, evil], body).await;
        assert_eq!((a.status, a.code()), (403, "bad_origin".into()), "{path}: {}", a.body);
    }
    let a = raw(&srv.addr, b"", "DELETE", "/api/sessions", &[evil], "").await;
    assert_eq!(a.status, 403, "{}", a.body);
    let a = raw(&srv.addr, b"", "POST", "/api/guests", &[JSON, ("Origin", "null")], body).await;
    assert_eq!(a.status, 403, "{}", a.body);
    // Reading is not refused.
    assert_eq!(raw(&srv.addr, b"", "GET", "/api/games", &[evil], "").await.status, 200);
    // The server's own pages: its own origin (the request's Host, or its loopback names), and
    // programs, which send no Origin.
    let own = format!("http://{}", srv.addr);
    let port = srv.addr.rsplit(':').next().unwrap();
    let localhost = format!("http://localhost:{port}");
    for origin in [Some(own.as_str()), Some(localhost.as_str()), None] {
        let mut h = vec![JSON];
        h.extend(origin.map(|o| ("Origin", o)));
        let a = raw(&srv.addr, b"", "POST", "/api/guests", &h, body).await;
        assert_eq!(a.status, 201, "{origin:?}: {}", a.body);
    }
    // A page served under another name of the server (its Host) is its own too.
    let a =
        raw(&srv.addr, b"", "POST", "/api/guests", &[JSON, ("Origin", "https://cards.example.org")], body)
            .await;
    assert_eq!(a.status, 403, "another host: {}", a.body);
    let mut s = tokio::net::TcpStream::connect(&srv.addr).await.unwrap();
    let req = format!(
        "POST /api/guests HTTP/1.1\r\nHost: cards.example.org\r\nOrigin: https://cards.example.org\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    assert!(out.starts_with("HTTP/1.1 201"), "{out}");
    // The client crate sends JSON, as the browser client does (web/js/api.js).
    let c = client::Client::new(&srv.addr);
    let g = c.guest("Bo").await.unwrap();
    c.claim_account(&g.token, "Bobo", PW).await.unwrap();
    c.sign_in("Bobo", PW).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_the_limit_gets_the_apis_json_error() {
    let srv = start(common::fast_limits(), &[], ForwardedHeader::XForwardedFor).await;
    let big = format!(r#"{{"name":"{}"}}"#, "a".repeat(20_000));
    for path in ["/api/guests", "/api/sessions"] {
        let a = raw(&srv.addr, b"", "POST", path, &[JSON], &big).await;
        assert_eq!(a.status, 413, "{path}");
        assert!(
            a.header("content-type").is_some_and(|t| t.starts_with("application/json")),
            "{path}: {:?}",
            a.headers
        );
        assert_eq!(a.code(), "too_large", "{}", a.body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_frames_and_pings_are_silence() {
    let limits = Limits { idle_seconds: 1, hello_timeout_ms: 60_000, ..common::fast_limits() };
    let srv = start(limits, &[], ForwardedHeader::XForwardedFor).await;
    let g = new_guest(&srv, b"", &[]).await.json();
    let token = g["token"].as_str().unwrap().to_string();
    for frame in [Message::Binary(vec![1, 2, 3].into()), Message::Ping(vec![7].into())] {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", srv.addr)).await.unwrap();
        ws.send(Message::Text(json!({ "type": "hello", "token": token }).to_string().into())).await.unwrap();
        let started = tokio::time::Instant::now();
        let closed = loop {
            if started.elapsed() > Duration::from_secs(5) {
                break false;
            }
            if ws.send(frame.clone()).await.is_err() {
                break true;
            }
            let next = tokio::time::timeout(Duration::from_millis(200), ws.next()).await;
            if let Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) = next {
                break true;
            }
        };
        assert!(closed, "a connection sending only {frame:?} was kept open past the idle limit");
        assert!(started.elapsed() >= Duration::from_millis(900), "closed before the idle limit");
    }
    // Text keeps a connection open.
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", srv.addr)).await.unwrap();
    ws.send(Message::Text(json!({ "type": "hello", "token": token }).to_string().into())).await.unwrap();
    let started = tokio::time::Instant::now();
    while started.elapsed() < Duration::from_millis(2500) {
        ws.send(Message::Text(r#"{"type":"ping"}"#.into())).await.expect("open");
        let _ = tokio::time::timeout(Duration::from_millis(300), ws.next()).await;
    }
}
