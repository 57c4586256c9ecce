//! What a person may write and what a browser may do, against a served server: names that pose
//! as bots or show nothing are refused, format characters are stripped from chat, invite links
//! ignore the request's `Host`, every response carries the security headers, and a page of
//! another site cannot open a WebSocket.

use crate::common;

use std::time::Duration;

use common::TestServer;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const WAIT: Duration = Duration::from_secs(10);

/// Sends one raw HTTP/1.1 request (`Connection: close` is added) and returns the whole response.
async fn raw_http(addr: &str, head: &str, body: &str) -> String {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut out)).await.unwrap().unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

/// The status of a WebSocket handshake sent with this `Origin` (none: no header).
async fn ws_status(addr: &str, origin: Option<&str>) -> u16 {
    let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
    if let Some(o) = origin {
        req.headers_mut().insert("origin", o.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((_, res)) => res.status().as_u16(),
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => res.status().as_u16(),
        Err(e) => panic!("handshake with origin {origin:?}: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_pose_as_bots_or_show_nothing_are_refused() {
    let srv = TestServer::start(common::fast()).await;
    for name in [
        "bot:heuristic",
        "BOT:random",
        " bot : x",
        "\u{202E}",
        "\u{FEFF}",
        "\u{200B}\u{200B}",
        "Ann\u{202E}",
        "\u{3164}",
    ] {
        let (status, v) = srv.client.post("/api/guests", &json!({ "name": name }), None).await.unwrap();
        assert_eq!((status, v["error"]["code"].as_str()), (400, Some("bad_name")), "{name:?}: {v}");
    }
    let ann = srv.guest("Ann 安").await;
    assert_eq!(ann.name, "Ann 安");
    // A table name is checked by the same rules (format characters refused).
    let (status, v) = srv
        .client
        .post("/api/tables", &json!({ "game": "madiao", "name": "evil\u{202E}elbat" }), Some(&ann.token))
        .await
        .unwrap();
    assert_eq!((status, v["error"]["code"].as_str()), (400, Some("bad_name")), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_loses_format_characters_and_needs_a_visible_one() {
    let srv = TestServer::start(common::fast()).await;
    let ann = srv.guest("Ann").await;
    let id = srv.table(&ann, json!({ "game": "dabaifen", "turn_seconds": 60 })).await;
    let (mut s, _) = srv.join(&ann, &id, None).await;
    s.send(&json!({ "type": "chat", "text": "gg \u{202E}ez\u{202C}\u{FEFF}" })).await.unwrap();
    let c = s.until(WAIT, "chat", |m| m["type"] == "chat" || m["type"] == "error").await.unwrap();
    assert_eq!(c["message"]["text"], "gg ez", "{c}");
    for bad in ["\u{202E}", "\u{FEFF}\u{200B}", " \u{3164} "] {
        s.send(&json!({ "type": "chat", "text": bad })).await.unwrap();
        let e = s.until(WAIT, "error", |m| m["type"] == "error" || m["type"] == "chat").await.unwrap();
        assert_eq!(
            (e["type"].as_str(), e["code"].as_str()),
            (Some("error"), Some("bad_chat")),
            "{bad:?}: {e}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invite_links_ignore_the_host_header() {
    let srv = TestServer::start(common::fast()).await;
    let ann = srv.guest("Ann").await;
    let body = json!({ "game": "madiao" }).to_string();
    let head = format!(
        "POST /api/tables HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer {}\r\nContent-Type: application/json",
        ann.token
    );
    let res = raw_http(srv.client.addr(), &head, &body).await;
    let json_start = res.find("\r\n\r\n").map(|i| i + 4).unwrap();
    let v: Value = serde_json::from_str(res[json_start..].trim()).unwrap_or_else(|_| panic!("{res}"));
    let invite = v["invite"].as_str().unwrap_or_else(|| panic!("{res}"));
    assert!(!invite.contains("evil.example"), "{invite}");
    // No --public-url: the listening address.
    assert!(invite.starts_with(&format!("http://{}/t/", srv.client.addr())), "{invite}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_has_the_security_headers() {
    let srv = TestServer::start(common::fast()).await;
    let addr = srv.client.addr().to_string();
    for path in ["/", "/js/main.js", "/api/games", "/api/me", "/no/such/file", "/t/abc"] {
        let res = raw_http(&addr, &format!("GET {path} HTTP/1.1\r\nHost: {addr}"), "").await;
        let head = res.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
        for want in [
            "content-security-policy: default-src 'self'",
            "frame-ancestors 'none'",
            "x-content-type-options: nosniff",
            "x-frame-options: deny",
        ] {
            assert!(head.contains(want), "{path}: no {want:?} in\n{head}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_of_another_site_cannot_open_a_websocket() {
    let srv = TestServer::start(common::fast()).await;
    let addr = srv.client.addr().to_string();
    let port = addr.rsplit(':').next().unwrap().to_string();
    assert_eq!(ws_status(&addr, Some("http://evil.example")).await, 403);
    assert_eq!(ws_status(&addr, Some(&format!("http://evil.example:{port}"))).await, 403);
    assert_eq!(
        ws_status(&addr, Some(&format!("http://127.0.0.1:{}", port.parse::<u16>().unwrap() + 1))).await,
        403
    );
    assert_eq!(ws_status(&addr, Some("null")).await, 403);
    // The server's own pages, by either loopback name, and programs (no Origin).
    assert_eq!(ws_status(&addr, Some(&format!("http://{addr}"))).await, 101);
    assert_eq!(ws_status(&addr, Some(&format!("http://localhost:{port}"))).await, 101);
    assert_eq!(ws_status(&addr, None).await, 101);
}

#[test]
fn sites_parse_and_allow_origins() {
    let listen = "0.0.0.0:8080".parse().unwrap();
    let site = server::Site::new("https://Cards.Example.org:443/", &["http://lan.local:8080".into()], listen)
        .unwrap();
    assert_eq!(site.public_url, "https://Cards.Example.org:443");
    assert!(site.allows_origin("https://cards.example.org"));
    assert!(site.allows_origin("http://lan.local:8080"));
    assert!(!site.allows_origin("http://cards.example.org"));
    assert!(!site.allows_origin("http://localhost:8080"), "not listening on loopback");
    assert!(server::Site::new("cards.example.org", &[], listen).is_err());
    assert!(server::Site::new("https://x.org", &["ftp://x".into()], listen).is_err());
    let any = server::Site::new("https://x.org", &["*".into()], listen).unwrap();
    assert!(any.allows_origin("https://anything.example"));
}
