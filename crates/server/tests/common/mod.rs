//! A server started in the test process on a loopback port with a temporary SQLite database,
//! with fast timing, and helpers to play through it.

#![allow(dead_code)]

pub mod events;
pub mod tournaments;

use std::sync::Arc;
use std::time::Duration;

use client::{Client, GuestToken, Socket, random_action};
use serde_json::{Value, json};
use server::store::sqlite::SqliteStore;
use server::{App, Config, Limits};
use table::settings::Timing;

/// Timing fast enough for whole matches in a test.
pub fn fast() -> Timing {
    Timing {
        draw_ms: 2,
        window_ms: 5,
        bot_delay_ms: 0,
        trick_ms: 0,
        pause_ms: 5,
        retire_ms: 60_000,
        park_ms: 600_000,
        poll_hold_ms: 0,
    }
}

/// Limits that let test clients act as fast as they can.
pub fn fast_limits() -> Limits {
    Limits {
        messages_per_second: 1000.0,
        message_burst: 1000.0,
        guests_burst: 1000.0,
        connections_per_ip: 1000,
        // Tests make many tables of bots from one address (tests/fair_shares.rs tests the bounds).
        bots: server::tables::bots::BotLimits {
            tables_per_guest: 1000,
            tables_per_ip: 1000,
            ..Default::default()
        },
        ..Limits::default()
    }
}

/// Serves `app` on a new loopback port: the address, and the task serving it (aborted or
/// dropped with its runtime, the server stops listening).
pub async fn listen(app: &Arc<App>) -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let a = app.clone();
    let task = tokio::spawn(async move {
        let _ = server::serve(listener, a).await;
    });
    (addr, task)
}

pub struct TestServer {
    pub app: Arc<App>,
    pub client: Client,
    pub dir: tempfile::TempDir,
    pub task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    /// A server whose limits let test clients act as fast as they can.
    pub async fn start(timing: Timing) -> TestServer {
        Self::start_with(timing, fast_limits()).await
    }

    pub async fn start_with(timing: Timing, limits: Limits) -> TestServer {
        Self::start_config(Config { timing, limits, ..Default::default() }).await
    }

    /// A server with `config`, on a new SQLite database.
    pub async fn start_config(config: Config) -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("yezi.db");
        let store = Arc::new(SqliteStore::open(path.to_str().unwrap()).unwrap());
        let app = App::start(store, config).await.unwrap();
        let (addr, task) = listen(&app).await;
        TestServer { app, client: Client::new(&addr), dir, task }
    }

    pub async fn guest(&self, name: &str) -> GuestToken {
        self.client.guest(name).await.unwrap()
    }

    /// Creates a table; returns its id.
    pub async fn table(&self, host: &GuestToken, body: Value) -> String {
        let body = serde_json::from_value(body).expect("a table request");
        self.client.create_table(&host.token, &body).await.unwrap().table.id
    }

    /// The record of table `id` once the server serves it (its match over), or `None` after
    /// `within`.
    pub async fn record_within(&self, id: &str, within: Duration) -> Option<String> {
        tokio::time::timeout(within, async {
            loop {
                let (status, body) = self.client.get_text(&format!("/api/records/{id}")).await.unwrap();
                if status == 200 {
                    return body;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await
        .ok()
    }

    pub async fn join(&self, g: &GuestToken, table: &str, seat: Option<u8>) -> (Socket, Value) {
        let mut s = self.client.connect_as(&g.token).await.unwrap();
        let mut msg = json!({ "type": "join", "table": table });
        if let Some(seat) = seat {
            msg["seat"] = json!(seat);
        }
        s.send(&msg).await.unwrap();
        let sync = s
            .until(Duration::from_secs(10), "sync", |m| m["type"] == "sync" || m["type"] == "error")
            .await
            .unwrap();
        assert_eq!(sync["type"], "sync", "{sync}");
        (s, sync)
    }
}

/// True when a message shows the match over.
pub fn match_over(m: &Value) -> bool {
    m["match"]["over"] == true && m["view"]["result"] != Value::Null
}

/// Plays a seat with random legal actions until the match is over; returns every message seen.
pub async fn play_randomly(s: &mut Socket, seed: u64, limit: Duration) -> Vec<Value> {
    play_paced(s, seed, limit, Duration::ZERO).await
}

/// [`play_randomly`], waiting `pace` before each action (to stay under the rate limit).
pub async fn play_paced(s: &mut Socket, seed: u64, limit: Duration, pace: Duration) -> Vec<Value> {
    let mut rng = cards::Rng::from_seed(seed);
    let mut seen = Vec::new();
    // The sync that joining gave may hold a decision already: ask for the state again, and
    // decide only from that state on (the messages before it may offer a decision the table has
    // moved past: answering one is refused as `stale`).
    s.send(&json!({ "type": "resync" })).await.unwrap();
    let mut synced = false;
    let end = tokio::time::Instant::now() + limit;
    loop {
        let left = end.saturating_duration_since(tokio::time::Instant::now());
        let m = match s.recv_timeout(left).await.unwrap() {
            Some(m) => m,
            None => {
                let last: Vec<String> = seen.iter().rev().take(6).map(|m: &Value| m.to_string()).collect();
                panic!(
                    "the match did not end in {limit:?}; the last messages, newest first:\n{}",
                    last.join("\n")
                )
            }
        };
        if m["code"] == "rate_limited" {
            // Faster than a person: wait for the limit, then ask for the decision again.
            tokio::time::sleep(Duration::from_millis(300)).await;
            s.send(&json!({ "type": "resync" })).await.unwrap();
            continue;
        }
        assert_ne!(m["type"], "error", "an error during play: {m}");
        synced |= m["type"] == "sync";
        let decide = synced && matches!(m["type"].as_str(), Some("update" | "sync"));
        if decide && let Some(a) = random_action(&m["legal"], &mut rng) {
            tokio::time::sleep(pace).await;
            s.send(&json!({ "type": "act", "action": a, "move": m["move"] })).await.unwrap();
        }
        // An untimed table (alone with bots, by default) waits after a hand for the player's
        // ready, as a person presses it.
        if decide && waits_for_ready(&m) {
            s.send(&json!({ "type": "next" })).await.unwrap();
        }
        let over = match_over(&m);
        seen.push(m);
        if over {
            return seen;
        }
    }
}

/// True when `m` says the next hand waits for this player's ready (its timer has no time left
/// to show: an untimed table).
fn waits_for_ready(m: &Value) -> bool {
    m["timer"]["what"] == "next_hand" && m["timer"]["remaining_ms"].is_null()
}

/// Reads `s` until a message satisfies `pred` (returned), for at most `wait`, pressing *next*
/// whenever the table waits for this player's ready after a hand: at an untimed table (alone
/// with bots, by default) a deal may end before his first turn (a meld, the four lowest, a
/// redeal), and the next hand waits for him as it waits for a person. Fails the test with the
/// last messages after `wait`.
pub async fn until_playing(
    s: &mut Socket,
    wait: Duration,
    what: &str,
    mut pred: impl FnMut(&Value) -> bool,
) -> Value {
    let end = tokio::time::Instant::now() + wait;
    let mut seen: Vec<Value> = Vec::new();
    loop {
        let left = end.saturating_duration_since(tokio::time::Instant::now());
        let Some(m) = s.recv_timeout(left).await.unwrap() else {
            let last: Vec<String> = seen.iter().rev().take(6).map(Value::to_string).collect();
            panic!("{what}: not within {wait:?}; the last messages, newest first:\n{}", last.join("\n"));
        };
        if pred(&m) {
            return m;
        }
        if matches!(m["type"].as_str(), Some("update" | "sync")) && waits_for_ready(&m) {
            s.send(&json!({ "type": "next" })).await.unwrap();
        }
        seen.push(m);
    }
}

/// Waits up to `limit` for `cond`, asking again every 10 ms; fails the test with `what` after.
pub async fn eventually(what: &str, limit: Duration, mut cond: impl AsyncFnMut() -> bool) {
    let end = tokio::time::Instant::now() + limit;
    while !cond().await {
        assert!(tokio::time::Instant::now() < end, "{what}: not within {limit:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
