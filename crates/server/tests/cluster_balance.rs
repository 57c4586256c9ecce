//! Sharing the tables out among the nodes of a cluster (issue 32, item 3), with players who
//! behave as the shipped browser page does (`web/js/socket.js`): three nodes, each a whole server
//! in the test process on its own loopback port, on one PostgreSQL database
//! (`YEZI_TEST_POSTGRES_URL`) and a Redis bus (`YEZI_TEST_REDIS_URL`).
//!
//! - The periodic rebalance: thirty tables made on one node spread over three within a fifth of
//!   the mean, while people play at some of them; no move a player saw acknowledged is lost.
//! - A rolling restart (each node drained and replaced, one after the other) leaves no node with
//!   more than two fifths of the tables.
//! - A drain: every player at the drained node's tables enters again at once (the node says
//!   `moved`) and plays his next move within a second.

use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use client::Client;
use client::page::{ENTRY_WAIT, MOVE_WAIT, PING_EVERY, PONG_WAIT, backoff_drawn};
use common::fast;
use serde_json::{Value, json};
use server::store::OpenOptions;
use server::store::postgres::PgStore;
use server::{App, Config, Limits};
use table::settings::Timing;
use tokio::time::Instant;

const LEASE_MS: u64 = 1500;

struct Node {
    app: Arc<App>,
    addr: String,
    client: Client,
    /// The node's listener: aborted, the node accepts no more connections (as when it drains).
    serving: tokio::task::JoinHandle<()>,
}

fn url() -> String {
    std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL")
}

fn redis_url() -> String {
    std::env::var("YEZI_TEST_REDIS_URL")
        .expect("YEZI_TEST_REDIS_URL is not set: run ./test.sh, which starts a local Redis")
}

fn timing() -> Timing {
    // Bots think for a while, as in play: a table is idle between their moves.
    Timing { bot_delay_ms: 150, trick_ms: 100, ..fast() }
}

/// A cluster member on the schema `schema` and the Redis bus.
async fn node(url: &str, schema: &str) -> Node {
    let options = OpenOptions { pool: 4, lease_ms: LEASE_MS };
    let store = Arc::new(PgStore::connect_with(url, Some(schema), options).await.unwrap());
    let limits = Limits { ..common::fast_limits() };
    let config = Config { timing: timing(), limits, lease_ms: LEASE_MS, table_seed: None };
    let app = App::start(store, config).await.unwrap();
    let (bus, heard) = server::cluster::bus::open(&redis_url(), url).await.unwrap();
    app.join_bus(bus, heard).await.unwrap();
    let (addr, serving) = common::listen(&app).await;
    Node { app, client: Client::new(&addr), addr, serving }
}

/// Waits until every node hears `n` members.
async fn members(nodes: &[&Node], n: usize) {
    for node in nodes {
        let app = node.app.clone();
        common::eventually("the nodes hear each other", Duration::from_secs(10), async || {
            app.cluster.members().len() == n
        })
        .await;
    }
}

/// The balancer in front of the nodes: each new connection goes to the first address of the
/// list (as it is then) that accepts it — from the first address, or (`rotate`) from the next
/// one in turn, as a round-robin balancer does.
#[derive(Clone)]
struct Balancer {
    addrs: Arc<Mutex<Vec<String>>>,
    next: Option<Arc<std::sync::atomic::AtomicUsize>>,
}

impl Balancer {
    /// A balancer that tries the addresses in order.
    fn first(addrs: Vec<String>) -> Balancer {
        Balancer { addrs: Arc::new(Mutex::new(addrs)), next: None }
    }

    /// A round-robin balancer.
    fn round_robin(addrs: Vec<String>) -> Balancer {
        Balancer { addrs: Arc::new(Mutex::new(addrs)), next: Some(Default::default()) }
    }

    /// The addresses in the order a new connection tries them.
    fn order(&self) -> Vec<String> {
        let mut addrs = self.addrs.lock().unwrap().clone();
        if let Some(next) = &self.next
            && !addrs.is_empty()
        {
            let k = next.fetch_add(1, Ordering::Relaxed) % addrs.len();
            addrs.rotate_left(k);
        }
        addrs
    }
}

/// What a player saw, for the checks and the figures.
#[derive(Default)]
struct Seen {
    /// Moves of the player acknowledged (an `update` answered his `act`), with when.
    acked: Vec<Instant>,
    /// Entries (a `sync` on a new connection), with when.
    entered: Vec<Instant>,
    /// `moved` heard, with when.
    moved: Vec<Instant>,
    /// The highest `move` any message showed the player.
    most: u64,
    /// A `sync` that showed fewer moves than the player had seen: an acknowledged move lost.
    lost: Vec<String>,
}

/// A player who behaves as the shipped page does: connects through the balancer, joins seat
/// `seat` of `table`, plays random legal moves; a closed connection, an entry answered
/// `unavailable` or unanswered, a move answered `unavailable`, and `no_table` at a table already
/// entered all make it enter again on a new connection after the page's backoff, and so does a
/// socket silent for [`PONG_WAIT`] after a ping (sent every [`PING_EVERY`]); `moved` makes it
/// enter again at once. Plays until `stop`.
async fn browser_player(
    lb: Balancer,
    token: String,
    table: String,
    seat: u8,
    seed: u64,
    seen: Arc<Mutex<Seen>>,
    stop: Arc<AtomicBool>,
) {
    let mut rng = cards::Rng::from_seed(seed);
    let mut attempt = 0u32;
    let mut promptly = false;
    let mut entered_before = false;
    while !stop.load(Ordering::Relaxed) {
        if !promptly && attempt > 0 {
            tokio::time::sleep(backoff_drawn(attempt - 1, &mut rng)).await;
        }
        promptly = false;
        attempt += 1;
        let addrs = lb.order();
        let mut sock = None;
        for a in &addrs {
            if let Ok(s) = Client::new(a).connect_as(&token).await {
                sock = Some(s);
                break;
            }
        }
        let Some(mut s) = sock else { continue };
        if s.send(&json!({ "type": "join", "table": table, "seat": seat })).await.is_err() {
            continue;
        }
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
                            // Unanswered: ask for the state; unanswered again, leave.
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
            let kind = m["type"].as_str().unwrap_or("");
            if kind == "moved" {
                seen.lock().unwrap().moved.push(Instant::now());
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
                    moving = false;
                    let _ = s.send(&json!({ "type": "resync" })).await;
                    deadline = Some(Instant::now() + MOVE_WAIT);
                }
                continue;
            }
            if kind == "sync" {
                let now = Instant::now();
                let mut g = seen.lock().unwrap();
                let mv = m["move"].as_u64().unwrap_or(0);
                if mv < g.most {
                    let most = g.most;
                    g.lost.push(format!("{table}: a sync at move {mv} after move {most} was seen"));
                }
                if entering {
                    g.entered.push(now);
                }
                entering = false;
                entered_before = true;
                moving = false;
                deadline = None;
                attempt = 0;
                ping_at = Some(now + PING_EVERY);
            }
            if kind == "update" {
                let mut g = seen.lock().unwrap();
                if let Some(mv) = m["move"].as_u64() {
                    g.most = g.most.max(mv);
                }
                if moving {
                    moving = false;
                    deadline = None;
                    g.acked.push(Instant::now());
                }
            }
            if matches!(kind, "update" | "sync")
                && !moving
                && let Some(a) = client::random_action(&m["legal"], &mut rng)
            {
                if s.send(&json!({ "type": "act", "action": a, "move": m["move"] })).await.is_err() {
                    break;
                }
                moving = true;
                pinged = false;
                deadline = Some(Instant::now() + MOVE_WAIT);
            }
        }
    }
}

/// A table of one person (seat 0, timed: the pause between hands ends by itself) and three bots,
/// for a long match; made through `n` by `host`.
async fn person_table(n: &Node, host: &client::GuestToken) -> String {
    let body = json!({ "game": "madiao", "untimed": false, "variants": { "game_length": "hands:1000" },
        "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    n.client.create_table(&host.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id
}

/// A table of four bots for a long match, made through `n`.
async fn bots_table(n: &Node, host: &client::GuestToken) -> String {
    let body = json!({ "game": "madiao", "variants": { "game_length": "hands:1000" },
        "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    n.client.create_table(&host.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id
}

fn counts(nodes: &[&Node]) -> Vec<usize> {
    nodes.iter().map(|n| n.app.table_count()).collect()
}

/// Starts a browser-style player at each table (seat 0, its host); their records.
fn players(lb: &Balancer, tables: &[(String, String)], stop: &Arc<AtomicBool>) -> Vec<Arc<Mutex<Seen>>> {
    tables
        .iter()
        .enumerate()
        .map(|(i, (table, token))| {
            let seen = Arc::new(Mutex::new(Seen::default()));
            tokio::spawn(browser_player(
                lb.clone(),
                token.clone(),
                table.clone(),
                0,
                100 + i as u64,
                seen.clone(),
                stop.clone(),
            ));
            seen
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_tables_on_one_node_even_out_over_three_while_people_play() {
    let (url, schema) = (url(), server::ids::new_id("balance_").unwrap());
    let a = node(&url, &schema).await;
    members(&[&a], 1).await;
    // Thirty tables on A: four with a person, the rest bots only (a guest hosts at most 20).
    let hosts = [a.client.guest("Ann").await.unwrap(), a.client.guest("Bo").await.unwrap()];
    let mut people = Vec::new();
    for i in 0..4 {
        let g = a.client.guest(&format!("P{i}")).await.unwrap();
        people.push((person_table(&a, &g).await, g.token.clone()));
    }
    for i in 0..26 {
        bots_table(&a, &hosts[i % 2]).await;
    }
    assert_eq!(a.app.table_count(), 30);
    let lb = Balancer::first(vec![a.addr.clone()]);
    let stop = Arc::new(AtomicBool::new(false));
    let seen = players(&lb, &people, &stop);
    tokio::time::sleep(Duration::from_secs(2)).await;

    // Two more nodes join: the tables spread out.
    let b = node(&url, &schema).await;
    let c = node(&url, &schema).await;
    members(&[&a, &b, &c], 3).await;
    let joined = Instant::now();
    let within = |v: &[usize]| v.iter().sum::<usize>() == 30 && v.iter().all(|n| (8..=12).contains(n));
    let mut last = Vec::new();
    while !within(&last) {
        assert!(joined.elapsed() < Duration::from_secs(30), "not evened out in 30 s: {last:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
        last = counts(&[&a, &b, &c]);
    }
    println!("30 tables on A; B and C joined; {last:?} after {:?}", joined.elapsed());
    // It stays so (no round moves tables back and forth), and the people play on.
    let acked_before: Vec<usize> = seen.iter().map(|s| s.lock().unwrap().acked.len()).collect();
    tokio::time::sleep(Duration::from_secs(5)).await;
    let now = counts(&[&a, &b, &c]);
    assert!(within(&now), "the loads moved apart again: {now:?}");
    stop.store(true, Ordering::Relaxed);
    for (i, s) in seen.iter().enumerate() {
        let s = s.lock().unwrap();
        assert!(s.lost.is_empty(), "acknowledged moves lost: {:?}", s.lost);
        assert!(s.acked.len() > acked_before[i], "player {i} played nothing once the tables were spread");
    }
    let moved: u64 =
        [&a, &b, &c].iter().map(|n| n.app.cluster.counters.rebalanced.load(Ordering::Relaxed)).sum();
    assert!(moved >= 18, "only {moved} tables were handed on");
    // One node runs each table, and its log replays without gaps.
    let store = a.app.store.clone();
    for (id, _) in &people {
        let running = [&a, &b, &c].iter().filter(|n| n.app.table(id).is_some()).count();
        assert_eq!(running, 1, "{id} runs on {running} nodes");
        let log = store.actions(id).await.unwrap();
        assert!(log.iter().enumerate().all(|(i, a)| a.seq == i as u64), "the log of {id} has gaps");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_of_three_nodes_leaves_none_with_more_than_two_fifths() {
    let (url, schema) = (url(), server::ids::new_id("rolling_").unwrap());
    let mut nodes = vec![node(&url, &schema).await, node(&url, &schema).await, node(&url, &schema).await];
    members(&nodes.iter().collect::<Vec<_>>(), 3).await;
    // Ten tables made through each node (each runs where it was made): 10/10/10.
    for n in &nodes {
        let g = n.client.guest("Host").await.unwrap();
        for _ in 0..10 {
            bots_table(n, &g).await;
        }
    }
    println!("before: {:?}", counts(&nodes.iter().collect::<Vec<_>>()));
    for round in 0..3 {
        // The oldest node leaves in good order and a new one takes its place.
        let old = nodes.remove(0);
        old.serving.abort();
        let left = server::health::drain(&old.app, Duration::from_secs(10)).await;
        assert_eq!(left, 0, "the drain left tables running");
        drop(old);
        nodes.push(node(&url, &schema).await);
        let all: Vec<&Node> = nodes.iter().collect();
        members(&all, 3).await;
        // As an operator does: the next node once this one is ready and every table runs.
        common::eventually("every table runs again", Duration::from_secs(15), async || {
            counts(&all).iter().sum::<usize>() == 30
        })
        .await;
        println!("after restart {}: {:?}", round + 1, counts(&all));
    }
    let all: Vec<&Node> = nodes.iter().collect();
    let began = Instant::now();
    loop {
        let c = counts(&all);
        if c.iter().sum::<usize>() == 30 && c.iter().all(|n| *n <= 12) {
            println!("settled {:?} after the last restart: {c:?}", began.elapsed());
            break;
        }
        assert!(began.elapsed() < Duration::from_secs(15), "a node holds more than 40% of the tables: {c:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_drain_every_browser_style_player_plays_within_a_second() {
    let (url, schema) = (url(), server::ids::new_id("drainfig_").unwrap());
    let a = node(&url, &schema).await;
    let b = node(&url, &schema).await;
    let c = node(&url, &schema).await;
    members(&[&a, &b, &c], 3).await;
    // Nine people, each alone with bots at a table on A, reaching it through A.
    let mut people = Vec::new();
    for i in 0..9 {
        let g = a.client.guest(&format!("P{i}")).await.unwrap();
        people.push((person_table(&a, &g).await, g.token.clone()));
    }
    let lb = Balancer::first(vec![a.addr.clone(), b.addr.clone(), c.addr.clone()]);
    let stop = Arc::new(AtomicBool::new(false));
    let seen = players(&lb, &people, &stop);
    common::eventually("everyone plays", Duration::from_secs(20), async || {
        seen.iter().all(|s| s.lock().unwrap().acked.len() >= 3)
    })
    .await;
    // A drains: it accepts no more connections (the balancer passes it by), hands its tables
    // off and tells its connections.
    lb.addrs.lock().unwrap().remove(0);
    a.serving.abort();
    let drained = Instant::now();
    let left = server::health::drain(&a.app, Duration::from_secs(10)).await;
    assert_eq!(left, 0);
    common::eventually("everyone plays again", Duration::from_secs(15), async || {
        seen.iter().all(|s| s.lock().unwrap().acked.iter().any(|t| *t > drained))
    })
    .await;
    stop.store(true, Ordering::Relaxed);
    let mut next = Vec::new();
    let mut entered = Vec::new();
    for s in &seen {
        let s = s.lock().unwrap();
        assert!(s.lost.is_empty(), "acknowledged moves lost: {:?}", s.lost);
        assert!(s.moved.iter().any(|t| *t > drained), "a player was not told the table moved");
        next.push(s.acked.iter().find(|t| **t > drained).unwrap().duration_since(drained));
        entered.push(s.entered.iter().find(|t| **t > drained).unwrap().duration_since(drained));
    }
    let ms = |v: &[Duration]| v.iter().map(|d| d.as_millis()).collect::<Vec<_>>();
    println!(
        "after the drain: entered again after {:?} ms; next move after {:?} ms",
        ms(&entered),
        ms(&next)
    );
    println!("tables: B {} C {}", b.app.table_count(), c.app.table_count());
    for d in &next {
        assert!(
            *d <= Duration::from_secs(1),
            "a player's next move came {d:?} after the drain: {:?}",
            ms(&next)
        );
    }
}

/// A cluster member on a thread and runtime of its own, on the PostgreSQL bus, with leases of
/// `lease_ms`, which the test can kill: its runtime is dropped, and with it every task and
/// connection (its sockets to the players, to PostgreSQL and to the bus), as when its process
/// dies.
struct Mortal {
    app: Arc<App>,
    addr: String,
    kill: Option<tokio::sync::oneshot::Sender<()>>,
    done: Option<std::thread::JoinHandle<()>>,
}

fn mortal(url: String, schema: String, lease_ms: u64) -> Mortal {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (kill, killed) = tokio::sync::oneshot::channel::<()>();
    let done = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        rt.block_on(async move {
            let options = OpenOptions { pool: 4, lease_ms };
            let store = Arc::new(PgStore::connect_with(&url, Some(&schema), options).await.unwrap());
            let config =
                Config { timing: timing(), limits: common::fast_limits(), lease_ms, table_seed: None };
            let app = App::start(store, config).await.unwrap();
            let (bus, heard) = server::cluster::bus::open("postgres", &url).await.unwrap();
            app.join_bus(bus, heard).await.unwrap();
            let (addr, _) = common::listen(&app).await;
            ready_tx.send((app, addr)).unwrap();
            let _ = killed.await;
        });
        rt.shutdown_background();
    });
    let (app, addr) = ready_rx.recv().unwrap();
    Mortal { app, addr, kill: Some(kill), done: Some(done) }
}

impl Mortal {
    /// Kills the node: nothing of it runs from now on.
    fn kill(&mut self) {
        if let Some(k) = self.kill.take() {
            let _ = k.send(());
        }
        if let Some(d) = self.done.take() {
            d.join().unwrap();
        }
    }
}

/// How many tables the nodes made for the kill's figure (a third through each node).
fn kill_tables() -> usize {
    std::env::var("YEZI_KILL_TABLES").ok().and_then(|n| n.parse().ok()).unwrap_or(33)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_kill_every_browser_style_player_plays_again_without_a_reload() {
    // The target is for the default lease: the survivors cannot tell a dead node from a
    // slow one before its lease has run out.
    let lease_ms = server::store::DEFAULT_LEASE_MS;
    let (url, schema) = (url(), server::ids::new_id("killfig_").unwrap());
    let mut nodes: Vec<Mortal> = (0..3).map(|_| mortal(url.clone(), schema.clone(), lease_ms)).collect();
    for n in &nodes {
        let app = n.app.clone();
        common::eventually("the nodes hear each other", Duration::from_secs(15), async || {
            app.cluster.members().len() == 3
        })
        .await;
    }
    // A person alone with bots at each table, made through each node in turn (each runs where
    // it was made), reaching it through a round-robin balancer as the page does.
    let mut people = Vec::new();
    for i in 0..kill_tables() {
        let n = &nodes[i % 3];
        let client = Client::new(&n.addr);
        let g = client.guest(&format!("P{i}")).await.unwrap();
        let body = json!({ "game": "madiao", "untimed": false, "variants": { "game_length": "hands:1000" },
            "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
        let id =
            client.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
        people.push((id, g.token.clone()));
    }
    let lb = Balancer::round_robin(nodes.iter().map(|n| n.addr.clone()).collect());
    let stop = Arc::new(AtomicBool::new(false));
    let seen = players(&lb, &people, &stop);
    common::eventually("everyone plays", Duration::from_secs(30), async || {
        seen.iter().all(|s| s.lock().unwrap().acked.len() >= 3)
    })
    .await;
    // A dies: the balancer finds its port closed and passes it by.
    let dead: Vec<bool> = people.iter().map(|(id, _)| nodes[0].app.table(id).is_some()).collect();
    let orphans = dead.iter().filter(|d| **d).count();
    nodes[0].kill();
    let killed = Instant::now();
    common::eventually("everyone plays again", Duration::from_secs(30), async || {
        seen.iter().all(|s| s.lock().unwrap().acked.iter().any(|t| *t > killed))
    })
    .await;
    stop.store(true, Ordering::Relaxed);
    let mut next = Vec::new();
    let mut next_orphaned = Vec::new();
    let mut next_others = Vec::new();
    for (i, s) in seen.iter().enumerate() {
        let s = s.lock().unwrap();
        assert!(s.lost.is_empty(), "acknowledged moves lost: {:?}", s.lost);
        let d = s.acked.iter().find(|t| **t > killed).unwrap().duration_since(killed);
        next.push(d);
        if dead[i] {
            next_orphaned.push(d);
        } else {
            next_others.push(d);
        }
    }
    let max = |v: &[Duration]| v.iter().max().copied().unwrap_or_default();
    let ms = |v: &[Duration]| {
        let mut v: Vec<u128> = v.iter().map(|d| d.as_millis()).collect();
        v.sort();
        v
    };
    let shared: Vec<usize> = nodes[1..].iter().map(|n| n.app.table_count()).collect();
    println!(
        "a node of 3 killed (lease {lease_ms} ms), {} tables, {orphans} of them on it: every player's next \
         move after the kill within {:?} (the dead node's tables' players: {:?} ms; the others': max {:?}); \
         the survivors now run {shared:?}",
        people.len(),
        max(&next),
        ms(&next_orphaned),
        max(&next_others),
    );
    // One survivor runs each table (a table on its way to another by a rebalance is on none
    // for a moment), and its log has no gaps.
    for (id, _) in &people {
        let survivors = &nodes[1..];
        common::eventually("one survivor runs each table", Duration::from_secs(5), async || {
            survivors.iter().filter(|n| n.app.table(id).is_some()).count() == 1
        })
        .await;
        let log = nodes[1].app.store.actions(id).await.unwrap();
        assert!(log.iter().enumerate().all(|(i, a)| a.seq == i as u64), "the log of {id} has gaps");
    }
    // The figure (every next move within 7 s) is a measurement, printed above and kept in
    // docs/performance.md with its runs; the test holds the behaviour: every player plays again by
    // himself, without a reload, within a lease and a few seconds (4.2-5.6 s measured with the
    // machine's load average at 17; the bound leaves room for a slower CI machine).
    assert!(
        max(&next) <= Duration::from_secs(12),
        "a player's next move came {:?} after the kill: {:?} ms",
        max(&next),
        ms(&next)
    );
    for n in &mut nodes {
        n.kill();
    }
}

/// Messages from a node that drains: the protocol's `moved` names the table.
#[test]
fn moved_names_the_table() {
    let m = wire::ServerMsg::Moved(wire::MovedMsg { table: "t1".into() });
    let v: Value = serde_json::from_str(&m.text()).unwrap();
    assert_eq!(v, json!({ "type": "moved", "table": "t1" }));
}
