//! `yezi serve` under a low open-files limit (issue 11, item 2): it raises its soft limit to the
//! hard one at start, and keeps its WebSockets below what the descriptors allow, so that when
//! they are all in use HTTP still answers and the server is not starved of descriptors.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use client::Client;

struct Served {
    child: Child,
    addr: String,
    line: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `yezi serve` started with the open-files limits `soft` and `hard`.
fn serve(db: &str, soft: u32, hard: u32) -> Served {
    let script = format!("ulimit -S -n {soft} && ulimit -H -n {hard} && exec \"$@\"");
    let mut child = Command::new("sh")
        .args(["-c", &script, "sh", env!("CARGO_BIN_EXE_yezi")])
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args(["--connections-per-ip", "100000", "--guests-per-ip", "100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr =
        line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap_or_else(|| panic!("{line}"));
    Served { addr: addr.to_string(), line: line.clone(), child }
}

/// The number before `word` in the start-up line ("at most 136 connections, 120 WebSockets").
fn figure(line: &str, word: &str) -> usize {
    let before = line.split(word).next().unwrap_or("");
    before.split_whitespace().last().and_then(|n| n.replace(',', "").parse().ok()).unwrap_or_else(|| {
        panic!("no figure before {word:?} in {line:?}");
    })
}

#[test]
fn the_soft_limit_is_raised_and_http_answers_when_the_websockets_are_all_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("y.db");
    let srv = serve(db.to_str().unwrap(), 100, 200);
    // The hard limit (200) is what counts, less 64 descriptors kept for the rest.
    let conns = figure(&srv.line, "connections");
    let sockets = figure(&srv.line, "WebSockets");
    assert_eq!(conns, 136, "{}", srv.line);
    assert!(sockets + 16 <= conns, "{}", srv.line);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let client = Client::new(&srv.addr);
        let mut guests = Vec::new();
        for i in 0..20 {
            guests.push(client.guest(&format!("G{i}")).await.unwrap());
        }
        // WebSockets until the server refuses one (at its cap, long before its descriptors
        // run out).
        let mut open = Vec::new();
        let refused_at = loop {
            let g = &guests[open.len() % guests.len()];
            match tokio::time::timeout(Duration::from_secs(5), client.connect_as(&g.token)).await {
                Ok(Ok(s)) => open.push(s),
                Ok(Err(_)) => break open.len(),
                Err(_) => panic!("connection {} hung", open.len() + 1),
            }
            assert!(open.len() <= 400, "no WebSocket was refused");
        };
        assert_eq!(refused_at, sockets, "refused at {refused_at}: {}", srv.line);
        // HTTP still answers, more than once, on new connections.
        for _ in 0..5 {
            let c = Client::new(&srv.addr);
            let r = tokio::time::timeout(Duration::from_secs(5), c.get("/api/games")).await;
            assert!(matches!(r, Ok(Ok((200, _)))), "HTTP does not answer at the WebSocket cap: {r:?}");
        }
        let (status, stats) = client.get("/api/stats").await.unwrap();
        assert_eq!(status, 200);
        assert_eq!(stats["connections"], sockets as u64, "{stats}");
    });
}
