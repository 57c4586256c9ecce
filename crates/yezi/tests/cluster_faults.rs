//! The cluster harness and fault injector: three `yezi serve` nodes (child processes on loopback
//! ports) sharing one PostgreSQL database (`YEZI_TEST_POSTGRES_URL`) and a Redis bus
//! (`YEZI_TEST_REDIS_URL`), tables whose two people are seated through different nodes (and two
//! bots), people who reconnect through another node when theirs dies — and faults: a node
//! `SIGKILL`ed and restarted, a node `SIGSTOP`ped for longer than its lease then `SIGCONT`ed
//! (its writes must be fenced).
//!
//! Checked: every action any client saw is the one every other view of the same seat saw at that
//! place of the table (a move lost and played otherwise after a takeover shows as two actions at
//! one place), and no client saw more moves than the log holds; each connection's version only
//! grows, except at a `sync`; at most one node runs each table once a fault has settled; and
//! every log replays (a fresh node loads every unfinished table at the end).
//!
//! `YEZI_CLUSTER_KILLS` and `YEZI_CLUSTER_STOPS` set the number of fault cycles (default 2 and 1:
//! the short run of `./test.sh`; docs/deploy.md gives the long run's command).

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use client::Client;
use serde_json::json;

const LEASE_MS: u64 = 1500;
const NODES: usize = 3;
const TABLES: usize = 6;

fn env(name: &str) -> String {
    std::env::var(name)
        .unwrap_or_else(|_| panic!("{name} is not set: run ./test.sh, which starts PostgreSQL and Redis"))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

struct Node {
    port: u16,
    child: Option<Child>,
    log: std::path::PathBuf,
}

fn start_node(port: u16, db: &str, bus: Option<&str>, log: &std::path::Path) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_yezi"));
    cmd.args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db", db]);
    cmd.args(["--lease-ms", &LEASE_MS.to_string(), "--bot-delay-ms", "40", "--draw-ms", "5"]);
    cmd.args(["--window-ms", "60", "--pause-ms", "60", "--trick-ms", "0", "--park-after", "600"]);
    cmd.args(["--connections-per-ip", "100000", "--guests-per-ip", "100000"]);
    if let Some(bus) = bus {
        cmd.args(["--bus", bus]);
    }
    let out = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
    cmd.stdout(Stdio::from(out.try_clone().unwrap())).stderr(Stdio::from(out));
    cmd.spawn().expect("yezi serve starts")
}

async fn up(port: u16) -> bool {
    let c = Client::new(&format!("127.0.0.1:{port}"));
    for _ in 0..200 {
        if c.get("/api/stats").await.is_ok() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

fn signal(child: &Child, sig: &str) {
    let _ = Command::new("kill").args([sig, &child.id().to_string()]).status();
}

/// What the clients saw, shared.
#[derive(Default)]
struct Seen {
    /// (table, viewer seat, hand, move) → the action shown.
    actions: HashMap<(String, u8, u64, u64), String>,
    /// table → the most moves any client saw.
    most: HashMap<String, u64>,
    violations: Vec<String>,
}

/// One person: plays seat `seat` of `table` through node `first` (another when it dies) until
/// told to stop or the match ends.
#[allow(clippy::too_many_arguments)]
async fn person(
    ports: Vec<u16>,
    first: usize,
    token: String,
    table: String,
    seat: u8,
    host: bool,
    seen: Arc<Mutex<Seen>>,
    stop: Arc<AtomicBool>,
    sessions: Arc<AtomicU64>,
) {
    let mut rng = cards::Rng::from_seed(u64::from(seat) * 7919 + table.len() as u64);
    let mut at = first;
    while !stop.load(Ordering::Relaxed) {
        let c = Client::new(&format!("127.0.0.1:{}", ports[at % ports.len()]));
        at += 1;
        let Ok(mut s) = c.connect_as(&token).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        sessions.fetch_add(1, Ordering::Relaxed);
        if s.send(&json!({ "type": "join", "table": table, "seat": seat })).await.is_err() {
            continue;
        }
        let mut last_v: Option<u64> = None;
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let m = match s.recv_timeout(Duration::from_secs(2)).await {
                Ok(Some(m)) => m,
                Ok(None) => {
                    // Silence (a command lost with a node): ask for the state again.
                    if s.send(&json!({ "type": "resync" })).await.is_err() {
                        break;
                    }
                    continue;
                }
                Err(_) => break,
            };
            let kind = m["type"].as_str().unwrap_or("").to_string();
            if kind == "error" {
                let code = m["code"].as_str().unwrap_or("");
                if matches!(code, "unavailable" | "no_table") {
                    // Its node cannot reach the table now: try through another.
                    break;
                }
                continue;
            }
            if let Some(v) = m["v"].as_u64() {
                if kind != "sync"
                    && let Some(l) = last_v
                    && v <= l
                    && kind != "ack"
                {
                    seen.lock()
                        .unwrap()
                        .violations
                        .push(format!("{table} seat {seat}: v {l} then {v} ({kind})"));
                }
                if kind != "ack" {
                    last_v = Some(v);
                }
            }
            if kind == "update" && m["event"]["kind"] == "action" {
                let key =
                    (table.clone(), seat, m["hand"].as_u64().unwrap_or(0), m["move"].as_u64().unwrap_or(0));
                let shown = m["event"].to_string();
                let mut g = seen.lock().unwrap();
                let mv = key.3;
                let most = g.most.entry(table.clone()).or_insert(0);
                *most = (*most).max(mv);
                if let Some(before) = g.actions.get(&key) {
                    if *before != shown {
                        let v = format!(
                            "{table} seat {seat} hand {} move {}: {before} then {shown}",
                            key.2, key.3
                        );
                        g.violations.push(v);
                    }
                } else {
                    g.actions.insert(key, shown);
                }
            }
            if kind == "sync" && host && m["table"]["status"] == "waiting" {
                let _ = s.send(&json!({ "type": "start" })).await;
            }
            if m["match"]["over"] == true {
                return;
            }
            if matches!(kind.as_str(), "update" | "sync")
                && let Some(a) = client::random_action(&m["legal"], &mut rng)
            {
                let _ = s.send(&json!({ "type": "act", "action": a, "move": m["move"] })).await;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The nodes that run `table` now (its full summary, not the database's stub).
async fn runners(ports: &[u16], table: &str) -> usize {
    let mut n = 0;
    for p in ports {
        let c = Client::new(&format!("127.0.0.1:{p}"));
        if let Ok((200, v)) = c.get(&format!("/api/tables/{table}")).await
            && v.get("open_seats").is_some()
        {
            n += 1;
        }
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_survive_kills_and_stalls() {
    let kills: usize = std::env::var("YEZI_CLUSTER_KILLS").ok().and_then(|v| v.parse().ok()).unwrap_or(2);
    let stops: usize = std::env::var("YEZI_CLUSTER_STOPS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let (pg, redis) = (env("YEZI_TEST_POSTGRES_URL"), env("YEZI_TEST_REDIS_URL"));
    // A schema of its own, made by opening a store in it.
    let schema = server::ids::new_id("faults_").unwrap();
    server::store::postgres::PgStore::connect(&pg, Some(&schema)).await.unwrap();
    let sep = if pg.contains('?') { '&' } else { '?' };
    let db = format!("{pg}{sep}options=-csearch_path%3D{schema}");
    let dir = tempfile::tempdir().unwrap();
    let mut nodes: Vec<Node> = (0..NODES)
        .map(|i| {
            let port = free_port();
            let log = dir.path().join(format!("node{i}.log"));
            Node { port, child: Some(start_node(port, &db, Some(&redis), &log)), log }
        })
        .collect();
    let ports: Vec<u16> = nodes.iter().map(|n| n.port).collect();
    for p in &ports {
        assert!(up(*p).await, "node on {p} did not start");
    }
    let logs = || nodes_logs(&ports, dir.path());
    // Tables created through each node in turn, their two people seated through two nodes.
    let seen = Arc::new(Mutex::new(Seen::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let sessions = Arc::new(AtomicU64::new(0));
    let mut tables = Vec::new();
    let mut tasks = Vec::new();
    for t in 0..TABLES {
        let c = Client::new(&format!("127.0.0.1:{}", ports[t % NODES]));
        let host = c.guest(&format!("Host{t}")).await.unwrap();
        let other = c.guest(&format!("Other{t}")).await.unwrap();
        let body = json!({ "game": "madiao", "turn_seconds": 3600, "variants": { "game_length": "hands:1000" },
            "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] });
        let id = c.create_table(&host.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
        tables.push(id.clone());
        for (seat, token, first, is_host) in
            [(0u8, host.token.clone(), t + 1, true), (1, other.token.clone(), t + 2, false)]
        {
            tasks.push(tokio::spawn(person(
                ports.clone(),
                first,
                token,
                id.clone(),
                seat,
                is_host,
                seen.clone(),
                stop.clone(),
                sessions.clone(),
            )));
        }
    }
    tokio::time::sleep(Duration::from_secs(3)).await;

    let settle = Duration::from_millis(LEASE_MS * 2 + 1000);
    let mut report = Vec::new();
    for k in 0..kills {
        let i = k % NODES;
        let node = &mut nodes[i];
        if let Some(mut c) = node.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        let killed = Instant::now();
        tokio::time::sleep(Duration::from_millis(800)).await;
        node.child = Some(start_node(node.port, &db, Some(&redis), &node.log));
        assert!(up(node.port).await, "node {i} did not restart");
        tokio::time::sleep(settle).await;
        report.push(format!("kill {k} of node {i}: restarted after {:?}", killed.elapsed()));
        for t in &tables {
            let n = runners(&ports, t).await;
            assert!(n <= 1, "table {t} runs on {n} nodes after kill {k}\n{}", logs());
        }
    }
    for k in 0..stops {
        let i = (k + 1) % NODES;
        let child = nodes[i].child.as_ref().unwrap();
        signal(child, "-STOP");
        tokio::time::sleep(Duration::from_millis(LEASE_MS * 2 + 500)).await;
        signal(child, "-CONT");
        tokio::time::sleep(settle).await;
        for t in &tables {
            let n = runners(&ports, t).await;
            assert!(n <= 1, "table {t} runs on {n} nodes after stop {k}\n{}", logs());
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
    }
    // Every table runs somewhere (or is over), and no client saw more moves than its log holds.
    let store = server::store::postgres::PgStore::connect(&pg, Some(&schema)).await.unwrap();
    use server::store::Store;
    for t in &tables {
        let row = store.table(t).await.unwrap().unwrap();
        if row.status != server::store::TableStatus::Finished {
            let n = runners(&ports, t).await;
            assert_eq!(n, 1, "table {t} runs on {n} nodes at the end\n{}", logs());
        }
        let log = store.actions(t).await.unwrap().len() as u64;
        let most = seen.lock().unwrap().most.get(t).copied().unwrap_or(0);
        assert!(most <= log, "table {t}: a client saw move {most}, the log holds {log} actions");
        assert!(log > 0, "table {t} was never played");
    }
    // Every log replays: the nodes stop, and a fresh node loads every unfinished table.
    for n in &mut nodes {
        if let Some(mut c) = n.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
    tokio::time::sleep(Duration::from_millis(LEASE_MS + 200)).await;
    let port = free_port();
    let fresh_log = dir.path().join("fresh.log");
    let mut fresh = start_node(port, &db, None, &fresh_log);
    assert!(up(port).await);
    let unfinished = store.unfinished_tables().await.unwrap().len();
    let c = Client::new(&format!("127.0.0.1:{port}"));
    let mut loaded = 0;
    for _ in 0..100 {
        loaded = c.get("/api/stats").await.unwrap().1["tables"].as_u64().unwrap_or(0) as usize;
        if loaded >= unfinished {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = fresh.kill();
    let _ = fresh.wait();
    let text = std::fs::read_to_string(&fresh_log).unwrap_or_default();
    assert!(!text.contains("is not resumed"), "a log does not replay:\n{text}");
    assert_eq!(loaded, unfinished, "the fresh node loaded {loaded} of {unfinished} tables");
    let seen = seen.lock().unwrap();
    assert!(seen.violations.is_empty(), "violations:\n{}", seen.violations.join("\n"));
    eprintln!(
        "cluster faults: {kills} kills, {stops} stops, {} client sessions, {} actions seen; {}",
        sessions.load(Ordering::Relaxed),
        seen.actions.len(),
        report.join("; ")
    );
}

/// The nodes' logs, for a failure's message.
fn nodes_logs(ports: &[u16], dir: &std::path::Path) -> String {
    let mut out = format!("ports {ports:?}\n");
    for i in 0..NODES {
        let text = std::fs::read_to_string(dir.join(format!("node{i}.log"))).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(15).collect();
        out.push_str(&format!("--- node {i}\n{}\n", tail.into_iter().rev().collect::<Vec<_>>().join("\n")));
    }
    out
}
