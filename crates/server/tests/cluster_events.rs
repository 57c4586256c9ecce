//! Duplicate events and tournaments on a cluster (`docs/events.md`, `docs/tournaments.md`,
//! "Where it runs"): three nodes share one PostgreSQL database and its bus; the node running a
//! board's table is killed in the middle of the board; its tables move to the survivors like any
//! other table, the event goes on and finishes, every board of every table is scored once from
//! its one record, and no one sat at two tables of a board. A swiss and an arena whose driving
//! node is killed go on under another node and are scored once.
//!
//! Needs PostgreSQL (`YEZI_TEST_POSTGRES_URL`; `./test.sh` starts one).

use crate::common;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use client::{Client, GuestToken};
use serde_json::{Value, json};
use server::store::OpenOptions;
use server::store::postgres::PgStore;
use server::{App, Config};
use table::settings::Timing;

const PW: &str = "correct horse battery";
const LEASE_MS: u64 = 1_000;
const BOARDS: usize = 4;

fn url() -> String {
    std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL")
}

fn timing() -> Timing {
    Timing { bot_delay_ms: 20, ..common::fast() }
}

/// A cluster member on a thread and runtime of its own, which the test can kill: its runtime is
/// dropped, and with it every task and connection, as when its process dies.
struct Mortal {
    app: Option<Arc<App>>,
    addr: String,
    kill: Option<tokio::sync::oneshot::Sender<()>>,
    done: Option<std::thread::JoinHandle<()>>,
}

fn mortal(url: String, schema: String) -> Mortal {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (kill, killed) = tokio::sync::oneshot::channel::<()>();
    let done = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        rt.block_on(async move {
            let options = OpenOptions { pool: 4, lease_ms: LEASE_MS };
            let store = Arc::new(PgStore::connect_with(&url, Some(&schema), options).await.unwrap());
            let config = Config {
                timing: timing(),
                limits: common::fast_limits(),
                lease_ms: LEASE_MS,
                table_seed: Some(29),
            };
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
    Mortal { app: Some(app), addr, kill: Some(kill), done: Some(done) }
}

impl Mortal {
    fn app(&self) -> &Arc<App> {
        self.app.as_ref().expect("a live node")
    }

    /// Kills the node: nothing of it runs from now on.
    fn kill(&mut self) {
        self.app = None;
        if let Some(k) = self.kill.take() {
            let _ = k.send(());
        }
        if let Some(d) = self.done.take() {
            d.join().unwrap();
        }
    }
}

/// The addresses of the live nodes (a player goes to the first, as a balancer sends him to a
/// live node).
type Alive = Arc<Mutex<Vec<String>>>;

fn client_of(alive: &Alive, turn: usize) -> Client {
    let a = alive.lock().unwrap();
    Client::new(&a[turn % a.len()])
}

/// The event as `token` sees it, through a live node.
async fn event(alive: &Alive, id: &str, token: &str) -> Value {
    for turn in 0..20 {
        if let Ok((200, e)) = client_of(alive, turn).get_authed(token, &format!("/api/events/{id}")).await {
            return e;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no live node answers for event {id}");
}

/// Plays the seat of `token` at table `table` with random legal actions until
/// it is over, through a live node; a connection that closes (its node died) or whose table
/// moved enters again through a live node, as the page does.
async fn play_board(alive: &Alive, token: &str, table: &str, seed: u64) {
    let mut rng = cards::Rng::from_seed(seed);
    let end = tokio::time::Instant::now() + Duration::from_secs(120);
    let mut turn = 0;
    'enter: loop {
        assert!(tokio::time::Instant::now() < end, "table {table} did not end in 120 s");
        turn += 1;
        if turn > 1 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            // Over while away: its record is stored.
            let c = client_of(alive, turn);
            if matches!(c.get_text(&format!("/api/records/{table}")).await, Ok((200, _))) {
                return;
            }
        }
        let Ok(mut s) = client_of(alive, turn).connect_as(token).await else { continue };
        if s.send(&json!({ "type": "join", "table": table })).await.is_err() {
            continue;
        }
        let mut synced = false;
        loop {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            let m = match s.recv_timeout(left.min(Duration::from_secs(5))).await {
                Ok(Some(m)) => m,
                _ => continue 'enter,
            };
            if m["type"] == "moved" {
                continue 'enter;
            }
            if m["code"] == "stale" || m["code"] == "rate_limited" {
                let _ = s.send(&json!({ "type": "resync" })).await;
                continue;
            }
            if m["type"] == "error" {
                // The table is between nodes for a moment: enter again.
                continue 'enter;
            }
            synced |= m["type"] == "sync";
            let decide = synced && matches!(m["type"].as_str(), Some("update" | "sync"));
            if decide && let Some(a) = client::random_action(&m["legal"], &mut rng) {
                let _ = s.send(&json!({ "type": "act", "action": a, "move": m["move"] })).await;
            }
            if common::match_over(&m) {
                return;
            }
        }
    }
}

/// Plays `token`'s seat in every board of the event, one after the other.
async fn play_event(alive: Alive, id: String, token: String, seed: u64) {
    let end = tokio::time::Instant::now() + Duration::from_secs(240);
    let mut played = HashSet::new();
    loop {
        assert!(tokio::time::Instant::now() < end, "the event did not finish in 240 s");
        let e = event(&alive, &id, &token).await;
        if e["status"] == "finished" {
            return;
        }
        let (Some(board), Some(table)) = (e["you"]["board"].as_u64(), e["you"]["table_id"].as_str()) else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        if !played.insert(board) {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        play_board(&alive, &token, table, seed + board).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_event_finishes_when_the_node_running_its_board_is_killed() {
    let (url, schema) = (url(), server::ids::new_id("clev_").unwrap());
    let mut nodes: Vec<Mortal> = (0..3).map(|_| mortal(url.clone(), schema.clone())).collect();
    for n in &nodes {
        let app = n.app().clone();
        common::eventually("the nodes hear each other", Duration::from_secs(15), async || {
            app.cluster.members().len() == 3
        })
        .await;
    }
    let alive: Alive = Arc::new(Mutex::new(nodes.iter().map(|n| n.addr.clone()).collect()));
    let c = Client::new(&nodes[0].addr);
    let host = c.guest("Host").await.unwrap();
    let host = c.claim_account(&host.token, "host", PW).await.unwrap().token;
    let (status, ev) = c
        .post(
            "/api/events",
            &json!({"name": "Cluster night", "game": "madiao", "boards": BOARDS, "tables": 2,
                    "people_per_table": 1, "par_tables": 1}),
            Some(&host),
        )
        .await
        .unwrap();
    assert_eq!(status, 201, "{ev}");
    let id = ev["id"].as_str().unwrap().to_string();
    // The two players enter through different nodes.
    let mut players = Vec::new();
    for (i, name) in ["AnnQuinn", "BoQuarles"].into_iter().enumerate() {
        let c = Client::new(&nodes[i + 1].addr);
        let g = c.guest(name).await.unwrap();
        let (status, e) =
            c.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&g.token)).await.unwrap();
        assert_eq!(status, 200, "{e}");
        players.push(g);
    }
    let plays: Vec<_> = players
        .iter()
        .enumerate()
        .map(|(i, g)| tokio::spawn(play_event(alive.clone(), id.clone(), g.token.clone(), 1000 * i as u64)))
        .collect();

    // In the middle of board 1: the node running the first table's board-1 table is killed.
    let e = {
        let end = tokio::time::Instant::now() + Duration::from_secs(120);
        loop {
            let e = event(&alive, &id, &players[0].token).await;
            if e["you"]["board"].as_u64() == Some(1) && e["you"]["table_id"].is_string() {
                break e;
            }
            assert!(tokio::time::Instant::now() < end, "board 1 never began: {e}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let table = e["you"]["table_id"].as_str().unwrap().to_string();
    let store = nodes[0].app().store.clone();
    common::eventually("board 1's table is under way", Duration::from_secs(30), async || {
        store.actions(&table).await.unwrap().len() >= 8
    })
    .await;
    let holder = store.holders(std::slice::from_ref(&table)).await.unwrap();
    let victim = nodes
        .iter()
        .position(|n| holder.first().is_some_and(|(_, h)| h.node == n.app().store.node()))
        .expect("a node runs board 1's table");
    alive.lock().unwrap().retain(|a| *a != nodes[victim].addr);
    let log_before = store.actions(&table).await.unwrap().len();
    nodes[victim].kill();
    println!("killed node {victim}, which ran {table} ({log_before} actions logged)");

    for p in plays {
        p.await.unwrap();
    }
    let e = event(&alive, &id, &players[0].token).await;
    assert_eq!(e["status"], "finished", "{e}");

    // The killed node's table went on from its log at a survivor.
    let log = nodes[(victim + 1) % 3].app().store.actions(&table).await.unwrap();
    assert!(log.len() > log_before, "board 1's table went on after the kill");
    assert!(log.iter().enumerate().all(|(i, a)| a.seq == i as u64), "the log of {table} has gaps");

    // One record per table and board; each person at one table of each board.
    let (status, text) = client_of(&alive, 0).get_text(&format!("/api/events/{id}/records")).await.unwrap();
    assert_eq!(status, 200);
    let records: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(records.len(), 3 * BOARDS, "one record per table and board");
    let mut at: HashMap<(u64, u64), usize> = HashMap::new();
    for r in &records {
        let key = (r["event"]["board"].as_u64().unwrap(), r["event"]["table"].as_u64().unwrap());
        *at.entry(key).or_default() += 1;
    }
    assert!(at.values().all(|n| *n == 1), "a board's table scored twice: {at:?}");
    for p in &players {
        let seated: Vec<u64> = records
            .iter()
            .filter(|r| r.to_string().contains(&p.name))
            .map(|r| r["event"]["board"].as_u64().unwrap())
            .collect();
        let distinct: HashSet<u64> = seated.iter().copied().collect();
        assert_eq!((seated.len(), distinct.len()), (BOARDS, BOARDS), "{} by board: {seated:?}", p.name);
    }
    // Every board's traveller is complete, its lines one per table, each from its own table.
    let travellers = e["travellers"].as_array().unwrap();
    assert_eq!(travellers.len(), BOARDS);
    for t in travellers {
        assert_eq!(t["complete"], true, "{t}");
        let ids: HashSet<&str> =
            t["lines"].as_array().unwrap().iter().map(|l| l["table_id"].as_str().unwrap()).collect();
        assert_eq!(ids.len(), 3, "{t}");
    }
    for s in e["standings"].as_array().unwrap() {
        assert_eq!(s["boards"], BOARDS, "every seat scored on every board once: {s}");
    }
    for n in &mut nodes {
        n.kill();
    }
}

/// The tournament `id` through a live node.
async fn tournament(alive: &Alive, id: &str) -> Value {
    for turn in 0..20 {
        if let Ok((200, v)) = client_of(alive, turn).get(&format!("/api/tournaments/{id}")).await {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no live node answers for tournament {id}");
}

/// Plays `guest`'s tables of the tournament, round after round, until it is finished.
async fn play_tournament(alive: Alive, id: String, guest: String, token: String, seed: u64) {
    let end = tokio::time::Instant::now() + Duration::from_secs(300);
    let mut played = HashSet::new();
    loop {
        assert!(tokio::time::Instant::now() < end, "the tournament did not finish in 300 s");
        let v = tournament(&alive, &id).await;
        if v["status"] == "finished" {
            return;
        }
        let mine = v["tables"].as_array().unwrap().iter().find_map(|t| {
            let at = t["guests"].as_array()?.iter().any(|g| g == guest.as_str());
            let table = t["table"].as_str()?;
            (at && t["points"].is_null() && !played.contains(table)).then(|| table.to_string())
        });
        let Some(table) = mine else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        played.insert(table.clone());
        play_board(&alive, &token, &table, seed + played.len() as u64).await;
    }
}

/// Three nodes on a new schema (named from `prefix`) of the test database, each hearing the
/// others: the database's URL, the schema, the nodes and their addresses as the live ones.
async fn three_nodes(prefix: &str) -> (String, String, Vec<Mortal>, Alive) {
    let (url, schema) = (url(), server::ids::new_id(prefix).unwrap());
    let nodes: Vec<Mortal> = (0..3).map(|_| mortal(url.clone(), schema.clone())).collect();
    for n in &nodes {
        let app = n.app().clone();
        common::eventually("the nodes hear each other", Duration::from_secs(15), async || {
            app.cluster.members().len() == 3
        })
        .await;
    }
    let alive: Alive = Arc::new(Mutex::new(nodes.iter().map(|n| n.addr.clone()).collect()));
    (url, schema, nodes, alive)
}

/// Eight guests (`{name} 0`, …), each through a node in turn, enter the tournament `body` that
/// the first of them makes; returns them and the tournament's id.
async fn eight_enter(nodes: &[Mortal], name: &str, body: &Value) -> (Vec<GuestToken>, String) {
    let mut players = Vec::new();
    for i in 0..8 {
        let c = Client::new(&nodes[i % 3].addr);
        players.push(c.guest(&format!("{name} {i}")).await.unwrap());
    }
    let (status, made) =
        Client::new(&nodes[0].addr).post("/api/tournaments", body, Some(&players[0].token)).await.unwrap();
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for (i, p) in players.iter().enumerate() {
        let c = Client::new(&nodes[i % 3].addr);
        let (status, v) =
            c.post(&format!("/api/tournaments/{id}/join"), &json!({}), Some(&p.token)).await.unwrap();
        assert_eq!(status, 200, "{v}");
    }
    (players, id)
}

/// Every player plays his tables of tournament `id` until it is finished (seeds `step` apart).
fn play_all(alive: &Alive, id: &str, players: &[GuestToken], step: u64) -> Vec<tokio::task::JoinHandle<()>> {
    players
        .iter()
        .enumerate()
        .map(|(i, g)| {
            tokio::spawn(play_tournament(
                alive.clone(),
                id.to_string(),
                g.id.clone(),
                g.token.clone(),
                step * i as u64,
            ))
        })
        .collect()
}

/// Once the first table of tournament `id` has 8 actions, kills the node that holds the lease on
/// driving it and takes it out of `alive`; returns a connection to the database (in `schema`)
/// and the killed node's id.
async fn kill_driver(
    url: &str,
    schema: &str,
    nodes: &mut [Mortal],
    alive: &Alive,
    id: &str,
) -> (tokio_postgres::Client, String) {
    let store = nodes[0].app().store.clone();
    common::eventually("the first tables are made and played", Duration::from_secs(60), async || {
        let v = tournament(alive, id).await;
        let Some(t) = v["tables"].as_array().and_then(|t| t.iter().find_map(|t| t["table"].as_str())) else {
            return false;
        };
        store.actions(t).await.unwrap().len() >= 8
    })
    .await;
    let (pg, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    pg.batch_execute(&format!("SET search_path TO {schema}")).await.unwrap();
    let driver: String =
        pg.query_one("SELECT driver FROM tournaments WHERE id = $1", &[&id]).await.unwrap().get(0);
    let victim =
        nodes.iter().position(|n| n.app().store.node() == driver).expect("a node drives the tournament");
    alive.lock().unwrap().retain(|a| *a != nodes[victim].addr);
    nodes[victim].kill();
    println!("killed node {victim} ({driver}), which drove tournament {id}");
    (pg, driver)
}

/// The node driving tournament `id` now, and how many tables the nodes made for it.
async fn driver_and_tables(pg: &tokio_postgres::Client, id: &str) -> (String, i64) {
    let driver: String =
        pg.query_one("SELECT driver FROM tournaments WHERE id = $1", &[&id]).await.unwrap().get(0);
    let made: i64 = pg
        .query_one("SELECT count(*) FROM tables WHERE id LIKE $1", &[&format!("t{id}%")])
        .await
        .unwrap()
        .get(0);
    (driver, made)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_finishes_when_the_node_driving_it_is_killed() {
    let (url, schema, mut nodes, alive) = three_nodes("clsw_").await;
    let body = json!({"kind": "swiss", "game": "madiao", "rounds": 2, "hands": 1});
    let (players, id) = eight_enter(&nodes, "Swiss", &body).await;
    let c = Client::new(&nodes[0].addr);
    let (status, v) =
        c.post(&format!("/api/tournaments/{id}/start"), &json!({}), Some(&players[0].token)).await.unwrap();
    assert_eq!(status, 200, "{v}");
    let plays = play_all(&alive, &id, &players, 77);
    // Round 1 under way: the node holding the lease on driving the tournament is killed.
    let (pg, driver) = kill_driver(&url, &schema, &mut nodes, &alive, &id).await;

    for p in plays {
        p.await.unwrap();
    }
    let v = tournament(&alive, &id).await;
    assert_eq!(v["status"], "finished", "{v}");
    let (after, made) = driver_and_tables(&pg, &id).await;
    assert_ne!(after, driver, "another node drove it on");
    // Two rounds of two tables; everyone once a round; each table scored once, made once.
    let tables = v["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 4, "{v}");
    let mut ids = HashSet::new();
    for round in 1..=2u64 {
        let mut seated = HashSet::new();
        for t in tables.iter().filter(|t| t["round"] == round) {
            assert!(t["points"].is_array(), "round {round}: a table unscored: {t}");
            assert!(ids.insert(t["table"].as_str().unwrap().to_string()), "a table counted twice: {t}");
            for g in t["guests"].as_array().unwrap() {
                assert!(seated.insert(g.as_str().unwrap().to_string()), "round {round}: {g} seated twice");
            }
        }
        assert_eq!(seated.len(), 8, "round {round}: everyone seated");
    }
    // The standings are the sums of the tables' points: 6 a table.
    let total: f64 = v["standings"].as_array().unwrap().iter().map(|s| s["points"].as_f64().unwrap()).sum();
    assert_eq!(total, 24.0);
    for s in v["standings"].as_array().unwrap() {
        assert_eq!(s["matches"], 2, "{s}");
    }
    // No table of the tournament was made twice: every table the nodes made for its players is
    // one of its four.
    assert_eq!(made, 4, "tables made for the swiss");
    for n in &mut nodes {
        n.kill();
    }
}

/// An arena goes on when the node driving it is killed: another node takes the lease, pairs the
/// free players onto new tables until the window closes, and scores every table once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_goes_on_when_the_node_driving_it_is_killed() {
    let (url, schema, mut nodes, alive) = three_nodes("clar_").await;
    let body = json!({"kind": "arena", "game": "madiao", "minutes": 1, "wait_seconds": 5, "hands": 1});
    let (players, id) = eight_enter(&nodes, "Arena", &body).await;
    let plays = play_all(&alive, &id, &players, 91);
    // The first tables under way: the node holding the lease on driving the arena is killed.
    let (pg, driver) = kill_driver(&url, &schema, &mut nodes, &alive, &id).await;
    let at_kill = tournament(&alive, &id).await["tables"].as_array().unwrap().len();

    for p in plays {
        p.await.unwrap();
    }
    let v = tournament(&alive, &id).await;
    assert_eq!(v["status"], "finished", "{v}");
    let (after, made) = driver_and_tables(&pg, &id).await;
    assert_ne!(after, driver, "another node drove it on");
    let tables = v["tables"].as_array().unwrap();
    assert!(tables.len() > at_kill, "the arena paired on after the kill: {at_kill} then {}", tables.len());
    // Every table four seats, scored once; each player's matches are his tables; the standings
    // the sums of the tables' points.
    let mut ids = HashSet::new();
    let mut matches: HashMap<String, u64> = HashMap::new();
    let mut points: HashMap<String, f64> = HashMap::new();
    for t in tables {
        assert!(t["points"].is_array(), "a table unscored: {t}");
        assert!(ids.insert(t["table"].as_str().unwrap().to_string()), "a table counted twice: {t}");
        let guests = t["guests"].as_array().unwrap();
        assert_eq!(guests.len() as u64 + t["bots"].as_u64().unwrap(), 4, "{t}");
        for (g, p) in guests.iter().zip(t["points"].as_array().unwrap()) {
            *matches.entry(g.as_str().unwrap().to_string()).or_default() += 1;
            *points.entry(g.as_str().unwrap().to_string()).or_default() += p.as_f64().unwrap();
        }
    }
    for s in v["standings"].as_array().unwrap() {
        let g = s["guest"].as_str().unwrap();
        assert_eq!(s["matches"].as_u64(), matches.get(g).copied().or(Some(0)), "{s}");
        let want = points.get(g).copied().unwrap_or(0.0);
        assert!((s["points"].as_f64().unwrap() - want).abs() < 1e-9, "{s}: {want}");
    }
    // No table of the arena was made twice: every table the nodes made for it is one listed.
    assert_eq!(made as usize, tables.len(), "tables made for the arena");
    for n in &mut nodes {
        n.kill();
    }
}
