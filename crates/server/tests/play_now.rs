//! Quick pairing ("play now", `docs/tournaments.md`) across the nodes of a cluster and across a
//! restart: the queue is in the store, so players waiting through different nodes sit at one
//! table, no one is seated twice however many nodes pair the queue at once, and a restart keeps
//! every waiting player's place.
//!
//! The cluster test needs PostgreSQL (`YEZI_TEST_POSTGRES_URL`; `./test.sh` starts one); the
//! restart test runs on SQLite.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use client::{Client, GuestToken};
use serde_json::{Value, json};
use server::store::postgres::PgStore;
use server::store::sqlite::SqliteStore;
use server::store::{OpenOptions, SeatRow, Store};
use server::{App, Config};

fn url() -> String {
    std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL")
}

/// A server on `store`, on its own loopback port.
async fn serve(store: Arc<dyn Store>, lease_ms: u64) -> (Arc<App>, Client) {
    let config = Config { timing: common::fast(), limits: common::fast_limits(), lease_ms, table_seed: None };
    let app = App::start(store, config).await.unwrap();
    let (addr, _) = common::listen(&app).await;
    (app, Client::new(&addr))
}

async fn play_now(c: &Client, method: &str, g: &GuestToken, body: Option<Value>) -> Value {
    let (status, text) =
        c.request(method, "/api/play-now/madiao", body.as_ref(), Some(&g.token)).await.unwrap();
    assert_eq!(status, 200, "{method} play-now: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Asks (as the waiting page does, once a second here more often) until `g` is seated; his
/// status then.
async fn until_seated(c: &Client, g: &GuestToken, limit: Duration) -> Value {
    let end = tokio::time::Instant::now() + limit;
    loop {
        let s = play_now(c, "GET", g, None).await;
        if s["state"] == "seated" {
            return s;
        }
        assert_eq!(s["state"], "waiting", "{s}");
        assert!(tokio::time::Instant::now() < end, "not seated within {limit:?}: {s}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The people's guests in the seats of table `id`, as stored.
async fn people_at(store: &dyn Store, id: &str) -> Vec<String> {
    let row = store.table(id).await.unwrap().expect("the table is stored");
    row.seats
        .iter()
        .filter_map(|s| match s {
            SeatRow::Person { guest, .. } => Some(guest.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_waiting_through_two_nodes_sit_together_and_no_one_twice() {
    let (url, schema) = (url(), server::ids::new_id("playnow_").unwrap());
    let mut nodes = Vec::new();
    // A lease of 2 s: the store ends a transaction left idle longer than a lease, and a node
    // starved of the processor on a loaded machine (CI's two cores) can pause inside one for
    // more than 600 ms. Nothing here waits for a lease to run out.
    for _ in 0..2 {
        let options = OpenOptions { pool: 4, lease_ms: 2000 };
        let store = Arc::new(PgStore::connect_with(&url, Some(&schema), options).await.unwrap());
        nodes.push(serve(store, 2000).await);
    }
    let (a, b) = (&nodes[0].1, &nodes[1].1);

    // Two wait through A, two through B; no one accepts bots for five minutes: only a table of
    // the four of them can seat them (each node's own queue never would).
    let mut four = Vec::new();
    for (i, c) in [a, b, a, b].into_iter().enumerate() {
        let g = c.guest(&format!("P{i}")).await.unwrap();
        let s = play_now(c, "POST", &g, Some(json!({ "wait_seconds": 300 }))).await;
        assert!(s["state"] == "waiting" || s["state"] == "seated", "{s}");
        four.push((c, g));
    }
    let mut tables = HashSet::new();
    let mut seats = HashSet::new();
    for (c, g) in &four {
        let s = until_seated(c, g, Duration::from_secs(10)).await;
        tables.insert(s["table"].as_str().unwrap().to_string());
        seats.insert(s["seat"].as_u64().unwrap());
        assert_eq!(s["with"].as_array().unwrap().len(), 3, "{s}");
    }
    assert_eq!(tables.len(), 1, "the four sit at one table: {tables:?}");
    assert_eq!(seats.len(), 4, "in four seats: {seats:?}");
    let table = tables.into_iter().next().unwrap();
    let mut at = people_at(nodes[0].0.store.as_ref(), &table).await;
    at.sort();
    let mut ids: Vec<String> = four.iter().map(|(_, g)| g.id.clone()).collect();
    ids.sort();
    assert_eq!(at, ids, "the table's seats are theirs");

    // Twelve more join at once, alternately through each node, and everyone asks through both
    // nodes at once: every one of them sits at exactly one table, of four people.
    let mut joined = Vec::new();
    for i in 0..12 {
        let c = if i % 2 == 0 { a } else { b };
        joined.push((i, c.guest(&format!("Q{i}")).await.unwrap()));
    }
    let mut tasks = Vec::new();
    for (i, g) in joined.clone() {
        let (mine, other) = if i % 2 == 0 { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) };
        tasks.push(tokio::spawn(async move {
            play_now(&mine, "POST", &g, Some(json!({ "wait_seconds": 300 }))).await;
            // The other node pairs too, at the same time.
            let o = other.clone();
            let g2 = g.clone();
            let poker = tokio::spawn(async move {
                for _ in 0..40 {
                    play_now(&o, "GET", &g2, None).await;
                }
            });
            let s = until_seated(&mine, &g, Duration::from_secs(20)).await;
            poker.await.unwrap();
            (g.id.clone(), s)
        }));
    }
    let mut by_table: HashMap<String, Vec<String>> = HashMap::new();
    for t in tasks {
        let (guest, s) = t.await.unwrap();
        by_table.entry(s["table"].as_str().unwrap().to_string()).or_default().push(guest);
    }
    assert_eq!(by_table.len(), 3, "twelve people, three tables: {by_table:?}");
    let mut everyone = HashSet::new();
    for (id, guests) in &by_table {
        let mut stored = people_at(nodes[1].0.store.as_ref(), id).await;
        stored.sort();
        let mut told = guests.clone();
        told.sort();
        assert_eq!(stored, told, "table {id}: the people told they sit there are its people");
        for g in stored {
            assert!(everyone.insert(g.clone()), "{g} is seated at two tables");
        }
    }
    // No table was made beyond these: no one was seated twice by the two nodes at once. Counted
    // in the database (the tables the nodes run now would miss one stopped on a lease that ran
    // out on a loaded machine).
    let (db, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let made: i64 = db.query_one(&format!("SELECT count(*) FROM {schema}.tables"), &[]).await.unwrap().get(0);
    assert_eq!(made, 4, "the nodes made four tables of play-now in all");
}

/// A node on a thread and runtime of its own over the SQLite database at `path`; stopping it
/// drops its runtime, with every task and connection, as when its process ends.
struct Node {
    client: Client,
    app: Option<Arc<App>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: Option<std::thread::JoinHandle<()>>,
}

fn node(path: std::path::PathBuf) -> Node {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let done = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        rt.block_on(async move {
            let store = Arc::new(SqliteStore::open(path.to_str().unwrap()).unwrap());
            let (app, client) = serve(store, server::store::DEFAULT_LEASE_MS).await;
            ready_tx.send((app, client)).unwrap();
            let _ = stopped.await;
        });
        rt.shutdown_background();
    });
    let (app, client) = ready_rx.recv().unwrap();
    Node { client, app: Some(app), stop: Some(stop), done: Some(done) }
}

impl Node {
    fn stop(&mut self) {
        self.app = None;
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(d) = self.done.take() {
            d.join().unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_keeps_the_waiting_players_places() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("yezi.db");
    let mut first = node(path.clone());
    let mut two = Vec::new();
    for i in 0..2 {
        let g = first.client.guest(&format!("W{i}")).await.unwrap();
        let s = play_now(&first.client, "POST", &g, Some(json!({ "wait_seconds": 300 }))).await;
        assert_eq!(s["state"], "waiting", "{s}");
        two.push((g, s["since_ms"].as_i64().unwrap()));
    }
    first.stop();

    let mut second = node(path);
    let c = second.client.clone();
    // The two still wait, in their places (their arrival unchanged), without joining again.
    for (g, since) in &two {
        let s = play_now(&c, "GET", g, None).await;
        assert_eq!(s["state"], "waiting", "after the restart: {s}");
        assert_eq!(s["since_ms"].as_i64(), Some(*since), "the place is kept: {s}");
        assert_eq!(s["waiting"], 2, "{s}");
    }
    // Two more come: the four sit together.
    let mut all: Vec<GuestToken> = two.into_iter().map(|(g, _)| g).collect();
    for i in 0..2 {
        let g = c.guest(&format!("N{i}")).await.unwrap();
        play_now(&c, "POST", &g, Some(json!({ "wait_seconds": 300 }))).await;
        all.push(g);
    }
    let mut tables = HashSet::new();
    for g in &all {
        let s = until_seated(&c, g, Duration::from_secs(10)).await;
        tables.insert(s["table"].as_str().unwrap().to_string());
    }
    assert_eq!(tables.len(), 1, "the two from before the restart sit with the two after: {tables:?}");
    let app = second.app.clone().unwrap();
    let mut at = people_at(app.store.as_ref(), tables.iter().next().unwrap()).await;
    drop(app);
    at.sort();
    let mut ids: Vec<String> = all.iter().map(|g| g.id.clone()).collect();
    ids.sort();
    assert_eq!(at, ids);
    second.stop();
}
