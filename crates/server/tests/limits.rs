//! What one client may hold and create (issue 11, items 2 and 5): connections whose request
//! headers never complete and WebSockets that never say `hello` are closed; one address and one
//! guest hold a bounded number of connections while the server keeps answering others; guests
//! are created at a bounded rate per address; the lobby comes in pages; a table's length is
//! bounded; a match with nobody connected is parked, and goes on when a person comes back.

use crate::common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use common::{TestServer, fast};
use serde_json::{Value, json};
use server::Limits;
use server::listen::Caps;
use server::store::TableStatus;
use table::settings::Timing;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::Instant;

/// Limits that let test clients act as fast as they like, with `f` applied.
fn limits(f: impl FnOnce(&mut Limits)) -> Limits {
    let mut l = Limits { messages_per_second: 1000.0, message_burst: 1000.0, ..Limits::default() };
    f(&mut l);
    l
}

fn addr(srv: &TestServer) -> SocketAddr {
    srv.client.addr().parse().unwrap()
}

/// A TCP connection to the server from the loopback address `from`.
async fn connect_from(from: Ipv4Addr, to: SocketAddr) -> TcpStream {
    let sock = TcpSocket::new_v4().unwrap();
    sock.bind(SocketAddr::new(IpAddr::V4(from), 0)).unwrap();
    sock.connect(to).await.unwrap()
}

/// True when the server closes `s` within `wait` (whatever it writes first).
async fn closed_within(s: &mut TcpStream, wait: Duration) -> bool {
    let mut buf = [0u8; 1024];
    let end = Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(end, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// `GET path` over a new connection from `from`: the status and the body.
async fn get_from(from: Ipv4Addr, to: SocketAddr, path: &str) -> (u16, String) {
    let mut s = connect_from(from, to).await;
    let req = format!("GET {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut text = String::new();
    tokio::time::timeout(Duration::from_secs(5), s.read_to_string(&mut text)).await.unwrap().unwrap();
    let status = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

/// Waits until `cond` holds (for at most 5 s).
async fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    let end = Instant::now() + Duration::from_secs(5);
    while !cond() {
        assert!(Instant::now() < end, "not within 5 s: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

const LOCAL: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 1);
const OTHER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_connection_and_a_slow_header_sender_are_closed_after_the_header_timeout() {
    let srv = TestServer::start_with(fast(), limits(|l| l.header_timeout_ms = 300)).await;
    let to = addr(&srv);
    let mut silent = connect_from(LOCAL, to).await;
    let mut dribbler = connect_from(LOCAL, to).await;
    dribbler.write_all(b"GET /api/games HTTP/1.1\r\n").await.unwrap();
    // One byte of a header every 50 ms: never a whole request within the timeout.
    let drip = tokio::spawn(async move {
        let started = Instant::now();
        for b in b"x-slow: ".iter().cycle() {
            if dribbler.write_all(&[*b]).await.is_err() {
                return (true, started.elapsed());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            if started.elapsed() > Duration::from_secs(4) {
                let closed = closed_within(&mut dribbler, Duration::from_millis(10)).await;
                return (closed, started.elapsed());
            }
        }
        (false, started.elapsed())
    });
    let t = Instant::now();
    assert!(closed_within(&mut silent, Duration::from_secs(3)).await, "the silent connection is still open");
    assert!(t.elapsed() >= Duration::from_millis(250), "closed before the timeout: {:?}", t.elapsed());
    let (closed, after) = drip.await.unwrap();
    assert!(closed && after < Duration::from_secs(3), "the slow sender was not closed ({after:?})");
    // A whole request in time is answered.
    assert_eq!(get_from(LOCAL, to, "/api/games").await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_without_hello_is_closed_with_a_reason() {
    let srv = TestServer::start_with(fast(), limits(|l| l.hello_timeout_ms = 300)).await;
    let mut ws = srv.client.connect().await.unwrap();
    let t = Instant::now();
    // Pings do not stand for a hello.
    let mut got = Vec::new();
    let closed = loop {
        ws.send(&json!({ "type": "ping" })).await.ok();
        match ws.recv_timeout(Duration::from_millis(100)).await {
            Ok(Some(m)) => got.push(m),
            Ok(None) => {}
            Err(_) => break true,
        }
        if t.elapsed() > Duration::from_secs(3) {
            break false;
        }
    };
    assert!(closed, "still open after 3 s: {got:?}");
    assert!(t.elapsed() >= Duration::from_millis(250), "closed too soon: {:?}", t.elapsed());
    let last = got.iter().rev().find(|m| m["type"] == "error").expect("an error before the close");
    assert_eq!(last["code"], "hello_timeout", "{last}");
    // A connection that says hello in time stays.
    let g = srv.guest("Ann").await;
    let mut ok = srv.client.connect_as(&g.token).await.unwrap();
    tokio::time::sleep(Duration::from_millis(600)).await;
    ok.send(&json!({ "type": "ping" })).await.unwrap();
    let m = ok.recv_timeout(Duration::from_secs(2)).await.unwrap().unwrap();
    assert_eq!(m["type"], "pong", "{m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_at_most_its_connections_and_others_are_still_answered() {
    let srv = TestServer::start_with(fast(), limits(|l| l.connections_per_ip = 4)).await;
    let to = addr(&srv);
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect_from(LOCAL, to).await);
    }
    let local = IpAddr::V4(LOCAL);
    eventually("4 connections counted", || srv.app.per_ip.count(local) == 4).await;
    let (status, body) = get_from(LOCAL, to, "/api/games").await;
    assert_eq!(status, 429, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"]["code"], "too_many_connections", "{v}");
    // Another address is answered.
    assert_eq!(get_from(OTHER, to, "/api/games").await.0, 200);
    // One connection closed: the address is answered again.
    drop(held.pop());
    eventually("3 connections counted", || srv.app.per_ip.count(local) == 3).await;
    assert_eq!(get_from(LOCAL, to, "/api/games").await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_refused_connections_is_answered_only_up_to_a_bound() {
    let _ = server::listen::raise_fd_limit();
    let srv = TestServer::start_with(fast(), limits(|l| l.connections_per_ip = 1)).await;
    let to = addr(&srv);
    let _held = connect_from(LOCAL, to).await;
    eventually("1 connection counted", || srv.app.per_ip.count(IpAddr::V4(LOCAL)) == 1).await;
    // Refused connections that never read their answer nor close: each answer waits for them.
    let flood = server::listen::MAX_REFUSING + 64;
    let mut socks = Vec::new();
    let mut most = 0;
    for _ in 0..flood {
        socks.push(connect_from(LOCAL, to).await);
        most = most.max(server::listen::refusing());
    }
    assert!(most <= server::listen::MAX_REFUSING, "{most} refusals answered at once");
    let (mut answered, mut unanswered) = (0, 0);
    for mut s in socks {
        let mut buf = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut buf)).await;
        if buf.starts_with(b"HTTP/1.1 429") {
            answered += 1;
        } else {
            assert!(buf.is_empty(), "{}", String::from_utf8_lossy(&buf));
            unanswered += 1;
        }
    }
    assert!(answered <= server::listen::MAX_REFUSING && answered > 0, "{answered} answered");
    assert!(unanswered > 0, "beyond the bound, refused connections are closed at once");
    // The server still answers another address.
    assert_eq!(get_from(OTHER, to, "/api/games").await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_guest_holds_at_most_its_websockets_and_http_still_answers() {
    let srv = TestServer::start_with(fast(), limits(|l| l.sockets_per_guest = 3)).await;
    let ann = srv.guest("Ann").await;
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(srv.client.connect_as(&ann.token).await.unwrap());
    }
    let mut fourth = srv.client.connect().await.unwrap();
    fourth.send(&json!({ "type": "hello", "token": ann.token })).await.unwrap();
    let m = fourth.recv_timeout(Duration::from_secs(2)).await.unwrap().unwrap();
    assert_eq!(m["code"], "too_many_connections", "{m}");
    assert!(fourth.recv_timeout(Duration::from_secs(2)).await.is_err(), "the fourth socket stays open");
    // HTTP and another guest are still served.
    assert_eq!(srv.client.get("/api/games").await.unwrap().0, 200);
    let bo = srv.guest("Bo").await;
    srv.client.connect_as(&bo.token).await.unwrap();
    // One of Ann's closed: she may open another.
    open.pop().unwrap().close().await;
    eventually("Ann's socket uncounted", || srv.app.per_guest.lock().unwrap().get(&ann.id) == Some(&2)).await;
    srv.client.connect_as(&ann.token).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_websocket_cap_http_still_answers() {
    let srv = TestServer::start_with(fast(), limits(|l| l.max_connections = 2)).await;
    let g = srv.guest("Ann").await;
    let _a = srv.client.connect_as(&g.token).await.unwrap();
    let _b = srv.client.connect_as(&g.token).await.unwrap();
    assert!(srv.client.connect().await.is_err(), "a third WebSocket was accepted");
    assert_eq!(srv.client.get("/api/games").await.unwrap().0, 200);
}

#[test]
fn the_caps_keep_room_for_http_below_the_open_files_limit() {
    let c = Caps::new(Some(1024), 20_000);
    assert!(c.connections < 1024, "{c:?}");
    assert!(c.websockets + 16 <= c.connections, "{c:?}");
    let c = Caps::new(Some(1_048_576), 20_000);
    assert_eq!(c.websockets, 20_000, "{c:?}");
    // Raising the soft limit brings it to the hard one.
    let soft = server::listen::raise_fd_limit().unwrap();
    let lim = rustix::process::getrlimit(rustix::process::Resource::Nofile);
    assert_eq!(soft, lim.maximum);
    assert_eq!(lim.current, lim.maximum);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_are_created_at_a_bounded_rate_per_address() {
    let srv = TestServer::start_with(
        fast(),
        limits(|l| {
            l.guests_burst = 3.0;
            l.guest_every_seconds = 60.0;
        }),
    )
    .await;
    for i in 0..3 {
        srv.client.guest(&format!("G{i}")).await.unwrap();
    }
    let (status, v) = srv.client.post("/api/guests", &json!({ "name": "G3" }), None).await.unwrap();
    assert_eq!(status, 429, "{v}");
    assert_eq!(v["error"]["code"], "rate_limited", "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("try again in"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_comes_in_pages() {
    let srv = TestServer::start(fast()).await;
    let g = srv.guest("Ann").await;
    let mut made = Vec::new();
    for _ in 0..5 {
        let body = json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}] });
        made.push(srv.table(&g, body).await);
    }
    let mut seen = Vec::new();
    let mut path = "/api/tables?limit=2".to_string();
    loop {
        let (status, v) = srv.client.get(&path).await.unwrap();
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["total"], 5, "{v}");
        let page = v["tables"].as_array().unwrap();
        assert!(page.len() <= 2, "{v}");
        seen.extend(page.iter().map(|t| t["id"].as_str().unwrap().to_string()));
        match v["next"].as_u64() {
            Some(n) => path = format!("/api/tables?limit=2&offset={n}"),
            None => break,
        }
    }
    seen.sort();
    made.sort();
    assert_eq!(seen, made);
    // The default page is bounded, and a page too large is refused.
    let (_, v) = srv.client.get("/api/tables").await.unwrap();
    assert_eq!(v["limit"], server::api::tables::LOBBY_PAGE, "{v}");
    let (status, v) = srv.client.get("/api/tables?limit=100000").await.unwrap();
    assert_eq!(status, 400, "{v}");
    let (status, v) = srv.client.get("/api/tables?offset=-1").await.unwrap();
    assert_eq!(status, 400, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_plays_at_most_a_thousand_hands() {
    let srv = TestServer::start(fast()).await;
    let g = srv.guest("Ann").await;
    for (n, ok) in [(1000u64, true), (1001, false), (4_294_967_295, false)] {
        let body = json!({ "game": "madiao", "variants": { "game_length": format!("hands:{n}") } });
        let (status, v) = srv.client.post("/api/tables", &body, Some(&g.token)).await.unwrap();
        if ok {
            assert_eq!(status, 201, "hands:{n}: {v}");
        } else {
            assert_eq!(status, 400, "hands:{n}: {v}");
            assert!(v["error"]["message"].as_str().unwrap().contains("at most hands:1000"), "{v}");
        }
    }
}

/// The hands a table has finished, as the lobby's summary says.
fn hands_of(srv: &TestServer, id: &str) -> usize {
    srv.app.table(id).map(|h| h.summary.read().unwrap().hands).unwrap_or(0)
}

fn status_of(srv: &TestServer, id: &str) -> TableStatus {
    srv.app.table(id).map(|h| h.summary.read().unwrap().status).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_table_with_nobody_connected_parks_and_goes_on_when_a_person_comes() {
    let timing = Timing { park_ms: 300, bot_delay_ms: 1, ..fast() };
    let srv = TestServer::start(timing).await;
    let g = srv.guest("Ann").await;
    let body = json!({ "game": "madiao", "variants": { "game_length": "hands:1000" },
                       "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id = srv.table(&g, body).await;
    eventually("the table parks", || status_of(&srv, &id) == TableStatus::Parked).await;
    // Parked: nothing is played any more, and every view says so.
    let hands = hands_of(&srv, &id);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(hands_of(&srv, &id), hands, "hands were played while parked");
    let (_, info) = srv.client.get(&format!("/api/tables/{id}")).await.unwrap();
    assert_eq!(info["status"], "parked", "{info}");
    let (_, lobby) = srv.client.get("/api/tables").await.unwrap();
    let listed = lobby["tables"].as_array().unwrap().iter().find(|t| t["id"] == id.as_str()).unwrap();
    assert_eq!(listed["status"], "parked", "{listed}");
    let stored = srv.app.store.table(&id).await.unwrap().unwrap();
    assert_eq!(stored.status, TableStatus::Parked, "the store does not say parked");
    // A person watching: play goes on.
    let mut w = srv.client.connect_as(&g.token).await.unwrap();
    w.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let sync = w.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
    assert_eq!(sync["table"]["status"], "playing", "{sync}");
    let moved = w.until(Duration::from_secs(5), "a move", |m| m["type"] == "update").await;
    assert!(moved.is_ok(), "nothing moved after a person came back");
    assert_eq!(srv.app.store.table(&id).await.unwrap().unwrap().status, TableStatus::Playing);
    // The person leaves: it parks again.
    w.close().await;
    eventually("the table parks again", || status_of(&srv, &id) == TableStatus::Parked).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parked_table_stays_parked_over_a_restart() {
    let timing = Timing { park_ms: 200, bot_delay_ms: 1, ..fast() };
    let srv = TestServer::start(timing).await;
    let g = srv.guest("Ann").await;
    let body = json!({ "game": "dabaifen",
                       "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id = srv.table(&g, body).await;
    eventually("the table parks", || status_of(&srv, &id) == TableStatus::Parked).await;
    let log = srv.app.store.actions(&id).await.unwrap().len();
    // The same database in a new server (a long park time: it must be parked from the start).
    let app2 = server::App::start(
        srv.app.store.clone(),
        server::Config {
            timing: Timing { park_ms: 600_000, ..timing },
            limits: Limits::default(),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let h = app2.table(&id).expect("the parked table is resumed");
    assert_eq!(h.summary.read().unwrap().status, TableStatus::Parked);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(srv.app.store.actions(&id).await.unwrap().len(), log, "a parked table moved after a restart");
}
