//! The cluster harness and fault injector: three `yezi serve` nodes (child processes on loopback
//! ports) sharing one PostgreSQL database (`YEZI_TEST_POSTGRES_URL`) and a Redis bus of the
//! test's own (a `redis-server` child), each reached through a loopback TCP proxy; tables whose
//! two people are seated through different nodes (and two bots), people who behave as the shipped
//! browser page does (`web/js/socket.js`: they enter again, after the page's backoff, through
//! the next node that accepts them, when theirs dies, stalls or answers `unavailable`) — and
//! faults: a node `SIGKILL`ed and restarted, a node
//! `SIGSTOP`ped for longer than its lease then `SIGCONT`ed (its writes must be fenced), delays and
//! dropped connections on the way to PostgreSQL and to Redis, Redis restarted, and PostgreSQL
//! stopped for 1.5 s and started again (`pg_ctl` on `YEZI_TEST_PG_DATA` with `YEZI_TEST_PG_BIN`);
//! Redis is down for 3 s.
//!
//! Checked: every action any client saw is the one every other view of the same seat saw at that
//! place of the table (a move lost and played otherwise after a takeover shows as two actions at
//! one place), and no client saw more moves than the log holds; each connection's version only
//! grows, except at a `sync`; at most one node runs each table once a fault has settled; the
//! tables play on after the outages; every log replays (a fresh node loads every unfinished
//! table at the end); and no stored row was written by a stale owner, counted directly: every
//! action and chat line names the lease epoch and node it was written under, and the audit of
//! each table's rows against its lease history ([`server::store::provenance`]) finds none
//! written under an epoch older than one begun before it, or by a node that did not hold its
//! epoch. The nodes' own counts of their refused (fenced) writes and lost leases, read from
//! `GET /api/stats` before each kill and at the end, are reported: a node woken from a stop
//! while it still ran tables must have found out it lost them (a refused write or a lost lease).
//!
//! `YEZI_CLUSTER_KILLS`, `YEZI_CLUSTER_STOPS` and `YEZI_CLUSTER_OUTAGES` set the number of fault
//! cycles (default 2, 1 and 1: the short run of `./test.sh`; docs/deploy.md gives the long run's
//! command). An outage cycle is the six faults of the network and the services, one after the
//! other.

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use client::Client;
use client::page::{ENTRY_WAIT, MOVE_WAIT, PING_EVERY, PONG_WAIT, backoff_drawn};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;

const LEASE_MS: u64 = 1500;
/// The run's start, for the times in a violation's report.
static DIAG_T0: std::sync::LazyLock<Instant> = std::sync::LazyLock::new(Instant::now);
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
    /// The counts of the node's earlier processes (read before each was killed).
    counts: Counts,
}

/// What a node says of its leases in `GET /api/stats` (summed over its processes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    /// Steps it tried for tables whose lease it no longer held, refused by the database.
    fenced_writes: u64,
    /// Tables it stopped on finding it no longer held their lease.
    leases_lost: u64,
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(self, o: Counts) -> Counts {
        Counts {
            fenced_writes: self.fenced_writes + o.fenced_writes,
            leases_lost: self.leases_lost + o.leases_lost,
        }
    }
}

/// The node's tables and counts now (`None` when it does not answer).
async fn stats(port: u16) -> Option<(u64, Counts)> {
    let s = Client::new(&format!("127.0.0.1:{port}")).stats().await.ok()?;
    Some((s.tables, Counts { fenced_writes: s.fenced_writes, leases_lost: s.leases_lost }))
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

/// A loopback TCP proxy in front of a service: it passes the bytes both ways, holds each chunk
/// back by `delay_ms` when told, and drops every open connection when told.
struct Proxy {
    port: u16,
    delay_ms: Arc<AtomicU64>,
    drops: watch::Sender<u64>,
}

impl Proxy {
    async fn start(target_port: u16) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let delay_ms = Arc::new(AtomicU64::new(0));
        let (drops, _) = watch::channel(0u64);
        let (delay, drop_rx) = (delay_ms.clone(), drops.subscribe());
        tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let (delay, mut dropped) = (delay.clone(), drop_rx.clone());
                tokio::spawn(async move {
                    let Ok(outbound) = tokio::net::TcpStream::connect(("127.0.0.1", target_port)).await
                    else {
                        return;
                    };
                    let (ir, iw) = inbound.into_split();
                    let (or, ow) = outbound.into_split();
                    dropped.borrow_and_update();
                    tokio::select! {
                        _ = pass(ir, ow, delay.clone()) => {}
                        _ = pass(or, iw, delay) => {}
                        _ = dropped.changed() => {}
                    }
                });
            }
        });
        Proxy { port, delay_ms, drops }
    }

    fn delay(&self, ms: u64) {
        self.delay_ms.store(ms, Ordering::Relaxed);
    }

    /// Closes every connection open through the proxy (new ones are let through).
    fn drop_all(&self) {
        self.drops.send_modify(|n| *n += 1);
    }
}

async fn pass(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    delay: Arc<AtomicU64>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let d = delay.load(Ordering::Relaxed);
        if d > 0 {
            tokio::time::sleep(Duration::from_millis(d)).await;
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

/// `url` with its port changed to `port`.
fn with_port(url: &str, port: u16) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (authority, path) = rest.split_once('/').map_or((rest, ""), |(a, p)| (a, p));
    let (user, hostport) = authority.rsplit_once('@').map_or(("", authority), |(u, h)| (u, h));
    let host = hostport.rsplit_once(':').map_or(hostport, |(h, _)| h);
    let user = if user.is_empty() { String::new() } else { format!("{user}@") };
    format!("{scheme}://{user}{host}:{port}/{path}")
}

/// The port of `url`.
fn port_of(url: &str) -> u16 {
    let rest = url.split_once("://").unwrap().1;
    let authority = rest.split('/').next().unwrap();
    authority.rsplit_once(':').unwrap().1.parse().unwrap()
}

/// A Redis of the test's own, on `port`, that can be stopped and started again.
fn start_redis(port: u16, dir: &std::path::Path) -> Child {
    Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("redis-server starts (./test.sh installs it)")
}

async fn redis_up(port: u16) -> bool {
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// Stops the PostgreSQL server the tests use (`pg_ctl stop`, fast shutdown), keeps it down for
/// `down`, and starts it again, as its own user when the tests run as root.
fn restart_postgres(down: Duration) {
    let pg_ctl = |args: &[&str]| {
        let program = format!("{}/pg_ctl", env("YEZI_TEST_PG_BIN"));
        let root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.trim_ascii() == b"0");
        let mut cmd = if root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--", &program]);
            c
        } else {
            Command::new(&program)
        };
        let status = cmd.args(args).stdout(Stdio::null()).status().unwrap();
        assert!(status.success(), "pg_ctl {args:?} failed");
    };
    let data = env("YEZI_TEST_PG_DATA");
    // The server's own command line (its port, socket folder, settings), as `pg_ctl restart`
    // would reuse it: the program, then its quoted arguments.
    let opts = std::fs::read_to_string(format!("{data}/postmaster.opts")).expect("postmaster.opts");
    let args = opts.trim().split_once(' ').map(|(_, rest)| rest.to_string()).unwrap_or_default();
    pg_ctl(&["-D", &data, "-m", "fast", "-w", "stop"]);
    std::thread::sleep(down);
    let log = format!("{data}/restarted.log");
    pg_ctl(&["-D", &data, "-l", &log, "-o", &args, "-w", "start"]);
}

/// What the clients saw, shared.
#[derive(Default)]
struct Seen {
    /// (table, viewer seat, hand, move) → the action shown.
    actions: HashMap<(String, u8, u64, u64), String>,
    /// table → the most moves any client saw.
    most: HashMap<String, u64>,
    /// table → how many distinct actions the clients have seen at it.
    played: HashMap<String, usize>,
    violations: Vec<String>,
    /// The fault under way (for a violation's report).
    phase: String,
}

/// One person, who behaves as the shipped page does (`web/js/socket.js`): plays seat `seat` of
/// `table`, each new connection going to the nodes in turn from node `first` (a round-robin
/// balancer: the first that accepts it), until told to stop or the match ends. A closed
/// connection, an entry answered `unavailable` or unanswered in [`ENTRY_WAIT`], a move answered
/// `unavailable`, a `no_table` at a table already entered, a move unanswered in [`MOVE_WAIT`]
/// whose `resync` goes unanswered as long, and a socket silent for [`PONG_WAIT`] after a ping
/// all make it enter again on a new connection after the page's backoff; `moved` makes it enter
/// again at once; a move refused otherwise asks for a fresh `sync`. (Before, this harness's
/// players were more forgiving than the page: they went to another node at once on any of
/// these, and asked for a `resync` after every 2 s of silence.)
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
    let mut decisions = 0u64;
    let mut attempt = 0u32;
    let mut promptly = false;
    let mut entered_before = false;
    while !stop.load(Ordering::Relaxed) {
        if !promptly && attempt > 0 {
            tokio::time::sleep(backoff_drawn(attempt - 1, &mut rng)).await;
        }
        promptly = false;
        attempt += 1;
        // The balancer: the nodes in turn, the first that accepts.
        let mut sock = None;
        for k in 0..ports.len() {
            let port = ports[(at + k) % ports.len()];
            if let Ok(s) = Client::new(&format!("127.0.0.1:{port}")).connect_as(&token).await {
                sock = Some((s, port));
                break;
            }
        }
        at += 1;
        let Some((mut s, node_port)) = sock else { continue };
        sessions.fetch_add(1, Ordering::Relaxed);
        if s.send(&json!({ "type": "join", "table": table, "seat": seat })).await.is_err() {
            continue;
        }
        let mut last_v: Option<u64> = None;
        let mut recent: std::collections::VecDeque<String> = Default::default();
        let mut entering = true;
        let mut moving = false;
        let mut deadline = Some(Instant::now() + ENTRY_WAIT);
        // The next ping (once entered), and whether the deadline is a ping's.
        let mut ping_at: Option<Instant> = None;
        let mut pinged = false;
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            if ping_at.is_some_and(|p| Instant::now() >= p) {
                ping_at = Some(Instant::now() + PING_EVERY);
                if s.send(&json!({ "type": "ping" })).await.is_err() {
                    break;
                }
                if deadline.is_none() {
                    deadline = Some(Instant::now() + PONG_WAIT);
                    pinged = true;
                }
            }
            let wait = deadline.map_or(Duration::from_millis(200), |d| {
                d.saturating_duration_since(Instant::now()).min(Duration::from_millis(200))
            });
            let m = match s.recv_timeout(wait).await {
                Ok(Some(m)) => m,
                Ok(None) => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        if moving {
                            // A move unanswered: ask for the state; unanswered again, leave.
                            moving = false;
                            let _ = s.send(&json!({ "type": "resync" })).await;
                            deadline = Some(Instant::now() + MOVE_WAIT);
                            continue;
                        }
                        break;
                    }
                    continue;
                }
                Err(_) => break,
            };
            // Anything heard answers a ping.
            if pinged {
                pinged = false;
                deadline = None;
            }
            let kind = m["type"].as_str().unwrap_or("").to_string();
            if recent.len() >= 12 {
                recent.pop_front();
            }
            recent.push_back(format!(
                "{:.3} {kind} v {} {}",
                DIAG_T0.elapsed().as_secs_f64(),
                m["v"],
                if kind == "error" { m["code"].to_string() } else { m["event"]["kind"].to_string() }
            ));
            if kind == "moved" {
                // Its node leaves in good order: enter again at once.
                attempt = 0;
                promptly = true;
                break;
            }
            if kind == "error" {
                let code = m["code"].as_str().unwrap_or("");
                if (code == "unavailable" && (entering || moving)) || (code == "no_table" && entered_before) {
                    break;
                }
                if moving {
                    // Refused: the hand unlocks, and a fresh state is asked for.
                    moving = false;
                    let _ = s.send(&json!({ "type": "resync" })).await;
                    deadline = Some(Instant::now() + MOVE_WAIT);
                }
                continue;
            }
            if kind == "sync" {
                entering = false;
                entered_before = true;
                moving = false;
                deadline = None;
                attempt = 0;
                ping_at = Some(Instant::now() + PING_EVERY);
            }
            if kind == "update" && moving {
                moving = false;
                deadline = None;
            }
            if let Some(v) = m["v"].as_u64() {
                if kind != "sync"
                    && let Some(l) = last_v
                    && v <= l
                    && kind != "ack"
                {
                    let mut g = seen.lock().unwrap();
                    let phase = g.phase.clone();
                    g.violations.push(format!(
                        "{table} seat {seat}: v {l} then {v} ({kind}) via node port {node_port} during {phase}; recent: {recent:?}"
                    ));
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
                    *g.played.entry(table.clone()).or_insert(0) += 1;
                }
            }
            // The host starts the match once he sees it waiting, or someone sits down (as a
            // person clicks the page's start).
            if host && ((kind == "sync" && m["table"]["status"] == "waiting") || kind == "seats") {
                let _ = s.send(&json!({ "type": "start" })).await;
            }
            if m["match"]["over"] == true {
                return;
            }
            if matches!(kind.as_str(), "update" | "sync")
                && !moving
                && let Some(a) = client::random_action(&m["legal"], &mut rng)
            {
                if s.send(&json!({ "type": "act", "action": a, "move": m["move"] })).await.is_err() {
                    break;
                }
                moving = true;
                pinged = false;
                deadline = Some(Instant::now() + MOVE_WAIT);
                // A chat line now and then: chat is a fenced write too.
                decisions += 1;
                if decisions.is_multiple_of(20) {
                    let _ = s.send(&json!({ "type": "chat", "text": format!("move {decisions}") })).await;
                }
            }
        }
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
    let count =
        |name: &str, default: usize| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (kills, stops, outages) =
        (count("YEZI_CLUSTER_KILLS", 2), count("YEZI_CLUSTER_STOPS", 1), count("YEZI_CLUSTER_OUTAGES", 1));
    let run_began = Instant::now();
    let pg = env("YEZI_TEST_POSTGRES_URL");
    // A schema of its own, made by opening a store in it.
    let schema = server::ids::new_id("faults_").unwrap();
    server::store::postgres::PgStore::connect(&pg, Some(&schema)).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Redis of its own (it is restarted); both services reached through proxies.
    let redis_port = free_port();
    let mut redis_child = start_redis(redis_port, dir.path());
    assert!(redis_up(redis_port).await, "redis-server did not start");
    let (pg_proxy, redis_proxy) = (Proxy::start(port_of(&pg)).await, Proxy::start(redis_port).await);
    let pg_via = with_port(&pg, pg_proxy.port);
    let redis = format!("redis://127.0.0.1:{}", redis_proxy.port);
    let sep = if pg_via.contains('?') { '&' } else { '?' };
    let db = format!("{pg_via}{sep}options=-csearch_path%3D{schema}");
    let mut nodes: Vec<Node> = (0..NODES)
        .map(|i| {
            let port = free_port();
            let log = dir.path().join(format!("node{i}.log"));
            Node {
                port,
                child: Some(start_node(port, &db, Some(&redis), &log)),
                log,
                counts: Counts::default(),
            }
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
        if let Some((_, c)) = stats(node.port).await {
            node.counts = node.counts + c;
        }
        if let Some(mut c) = node.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        seen.lock().unwrap().phase =
            format!("kill {k} of node {i} at {:.3}", DIAG_T0.elapsed().as_secs_f64());
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
    // Stop cycles in which the woken node still ran tables, and those of them in which it tried
    // to write one (refused).
    let (mut stale_owners, mut stale_tried) = (0, 0);
    for k in 0..stops {
        // The node that runs the most tables now (in turn when none does): its writes must be
        // fenced when it wakes.
        let mut i = (k + 1) % NODES;
        let mut most = 0;
        for (j, n) in nodes.iter().enumerate() {
            if let Some((t, _)) = stats(n.port).await
                && t > most
            {
                (i, most) = (j, t);
            }
        }
        let port = nodes[i].port;
        let child = nodes[i].child.as_ref().unwrap();
        let before = stats(port).await;
        seen.lock().unwrap().phase =
            format!("stop {k} of node {i} at {:.3}", DIAG_T0.elapsed().as_secs_f64());
        signal(child, "-STOP");
        tokio::time::sleep(Duration::from_millis(LEASE_MS * 2 + 500)).await;
        signal(child, "-CONT");
        tokio::time::sleep(settle).await;
        // A node that ran tables when it stopped has found out, on waking, that it lost them:
        // from a refused write or from its lease renewal.
        if let (Some((tables, c0)), Some((_, c1))) = (before, stats(port).await)
            && tables > 0
        {
            stale_owners += 1;
            assert!(
                c1.fenced_writes + c1.leases_lost > c0.fenced_writes + c0.leases_lost,
                "node {i} ran {tables} tables when stopped, and on waking neither tried a write nor \
                 lost a lease (stop {k}): {c0:?} then {c1:?}\n{}",
                logs()
            );
            stale_tried += usize::from(c1.fenced_writes > c0.fenced_writes);
        }
        for t in &tables {
            let n = runners(&ports, t).await;
            assert!(n <= 1, "table {t} runs on {n} nodes after stop {k}\n{}", logs());
        }
    }
    // The network and the services: each fault, then a check that the tables settle on one node
    // each and go on being played.
    for k in 0..outages {
        let faults: [&str; 6] = [
            "database delayed",
            "database connections dropped",
            "bus delayed",
            "bus connections dropped",
            "Redis restarted",
            "PostgreSQL restarted",
        ];
        for (f, what) in faults.iter().enumerate() {
            let began = Instant::now();
            seen.lock().unwrap().phase = format!("{what} ({k}) at {:.3}", DIAG_T0.elapsed().as_secs_f64());
            match f {
                0 => {
                    pg_proxy.delay(200);
                    tokio::time::sleep(Duration::from_secs(3)).await;
                    pg_proxy.delay(0);
                }
                1 => pg_proxy.drop_all(),
                2 => {
                    redis_proxy.delay(200);
                    tokio::time::sleep(Duration::from_secs(3)).await;
                    redis_proxy.delay(0);
                }
                3 => redis_proxy.drop_all(),
                4 => {
                    let _ = redis_child.kill();
                    let _ = redis_child.wait();
                    // Down for 3 s, as issue 32's figure asks.
                    tokio::time::sleep(Duration::from_millis(3000)).await;
                    redis_child = start_redis(redis_port, dir.path());
                    assert!(redis_up(redis_port).await, "redis-server did not restart");
                }
                // Down for 1.5 s, as issue 32's figure asks.
                _ => restart_postgres(Duration::from_millis(1500)),
            }
            // Play goes on at every table: each sees more actions within a while. (A table
            // whose person never heard that his turn had come, the message lost on the bus,
            // stood still for good while the others played on.)
            // Counted from the moment the service is back: a move made during the fault does not
            // count (issue 32: no table stands still more than 3 s after the service is back).
            let ended = Instant::now();
            let before = seen.lock().unwrap().played.clone();
            let mut resumed = None;
            loop {
                let now = seen.lock().unwrap().played.clone();
                let count = |m: &HashMap<String, usize>, t: &String| m.get(t).copied().unwrap_or(0);
                let still: Vec<&String> =
                    tables.iter().filter(|t| count(&now, t) <= count(&before, t)).collect();
                if resumed.is_none() && still.len() < tables.len() {
                    resumed = Some(ended.elapsed());
                }
                if still.is_empty() {
                    break;
                }
                assert!(
                    ended.elapsed() < Duration::from_secs(20),
                    "nothing was played at {} of {TABLES} tables after {what} ({k}): {still:?}\n{}",
                    still.len(),
                    logs()
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let (resumed, everywhere) = (resumed.unwrap_or_default(), ended.elapsed());
            tokio::time::sleep(settle).await;
            for t in &tables {
                let n = runners(&ports, t).await;
                assert!(n <= 1, "table {t} runs on {n} nodes after {what} ({k})\n{}", logs());
            }
            report.push(format!(
                "{what}: {:.1} s, play seen again {:.2} s after it, at every table {:.2} s after it",
                (ended - began).as_secs_f64(),
                resumed.as_secs_f64(),
                everywhere.as_secs_f64()
            ));
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
    }
    // Every table runs somewhere (or is over), and no client saw more moves than its log holds.
    let store = server::store::postgres::PgStore::connect(&pg, Some(&schema)).await.unwrap();
    use server::store::TableLog;
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
    // No stored row was written by a stale owner: each table's actions and chat lines against
    // its lease history.
    let (mut rows, mut lease_epochs, mut stale) = (0, 0, Vec::new());
    for t in &tables {
        let p = store.provenance(t).await.unwrap();
        let audit = p.audit(t);
        assert_eq!(audit.unstamped, 0, "table {t}: rows stored without their lease");
        rows += audit.rows;
        lease_epochs += p.leases.len();
        stale.extend(audit.stale);
    }
    assert!(stale.is_empty(), "{} rows written by a stale owner:\n{}", stale.len(), stale.join("\n"));
    // The nodes' own counts, summed over their processes.
    let mut counts = Counts::default();
    for n in &nodes {
        counts = counts + n.counts + stats(n.port).await.map(|s| s.1).unwrap_or_default();
    }
    // Every log replays: the nodes stop, and a fresh node loads every unfinished table.
    for n in &mut nodes {
        if let Some(mut c) = n.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
    tokio::time::sleep(Duration::from_millis(LEASE_MS + 200)).await;
    // A node without a bus refuses to start on a cluster's database while the cluster's members
    // are heard from (their heartbeats of the last `server::store::MEMBER_MS`): the killed
    // nodes' last ones age out first. (Waiting a lease only, the fresh node refused to start
    // in about one run in five.)
    {
        use server::store::Leases;
        let mut members = Vec::new();
        for _ in 0..100 {
            members = store.beat(false).await.map(|b| b.members).unwrap_or_default();
            if members.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(members.is_empty(), "the killed nodes are still heard from: {members:?}");
    }
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
    let _ = redis_child.kill();
    let _ = redis_child.wait();
    let text = std::fs::read_to_string(&fresh_log).unwrap_or_default();
    assert!(!text.contains("is not resumed"), "a log does not replay:\n{text}");
    assert_eq!(loaded, unfinished, "the fresh node loaded {loaded} of {unfinished} tables");
    let seen = seen.lock().unwrap();
    if !seen.violations.is_empty() {
        // The nodes' lines about the tables concerned.
        let mut lines = String::new();
        for i in 0..NODES {
            let text = std::fs::read_to_string(dir.path().join(format!("node{i}.log"))).unwrap_or_default();
            for l in text.lines() {
                if seen.violations.iter().any(|v| v.split(' ').next().is_some_and(|t| l.contains(t))) {
                    lines.push_str(&format!("node {i}: {l}\n"));
                }
            }
        }
        panic!("violations:\n{}\n{lines}", seen.violations.join("\n"));
    }
    eprintln!(
        "cluster faults: {kills} kills, {stops} stops, {outages} outage cycles in {:.1} s, {} client sessions, \
         {} actions seen; 0 actions shown differently at one place, 0 tables run by two nodes after a fault; \
         {rows} stored rows (actions and chat lines) over {lease_epochs} lease epochs, 0 written by a stale owner; \
         the nodes' writes refused by fencing: {}, tables stopped on a lost lease: {}; \
         {stale_owners} stops woke a node that still ran tables, in {stale_tried} of them it tried a write \
         (refused); {}",
        run_began.elapsed().as_secs_f64(),
        sessions.load(Ordering::Relaxed),
        seen.actions.len(),
        counts.fenced_writes,
        counts.leases_lost,
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
