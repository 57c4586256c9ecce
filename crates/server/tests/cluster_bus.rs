//! The bus between nodes under failure (`YEZI_TEST_POSTGRES_URL`; `./test.sh` starts one): the
//! PostgreSQL bus sends many messages per statement and loses none; a command the bus does not
//! take is answered with an error at once; and a node that was paused while its clock stopped
//! (a suspended machine) sends the people at its former tables nothing when it wakes.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use client::Client;
use common::fast;
use serde_json::json;
use server::cluster::bus::{self, Bus, BusError};
use server::store::OpenOptions;
use server::store::postgres::PgStore;
use server::{App, Config, Limits};
use table::settings::Timing;

const LEASE_MS: u64 = 600;

fn url() -> String {
    std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL")
}

/// A whole server on `schema` of the database at `url`, on a loopback port: the app and its
/// address.
async fn start_node(url: &str, schema: &str, timing: Timing) -> (Arc<App>, String) {
    let options = OpenOptions { pool: 4, lease_ms: LEASE_MS };
    let store = Arc::new(PgStore::connect_with(url, Some(schema), options).await.unwrap());
    let limits = Limits {
        messages_per_second: 1000.0,
        message_burst: 1000.0,
        guests_burst: 1000.0,
        connections_per_ip: 1000,
        ..Limits::default()
    };
    let app =
        App::start(store, Config { timing, limits, lease_ms: LEASE_MS, table_seed: None }).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let a = app.clone();
    tokio::spawn(async move {
        let _ = server::serve(listener, a).await;
    });
    (app, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postgres_bus_sends_many_messages_a_statement_in_order_and_loses_none() {
    // A database of its own, so that its count of transactions is the bus's.
    let base = url();
    let db = server::ids::new_id("busdb_").unwrap().to_lowercase();
    let (admin, conn) = tokio_postgres::connect(&base, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    admin.batch_execute(&format!("CREATE DATABASE {db}")).await.unwrap();
    let (head, _) = base.rsplit_once('/').unwrap();
    let db_url = format!("{head}/{db}");
    let commits = async || -> i64 {
        let (c, conn) = tokio_postgres::connect(&base, tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(conn);
        c.query_one("SELECT xact_commit FROM pg_stat_database WHERE datname = $1", &[&db])
            .await
            .unwrap()
            .get(0)
    };

    let (bus, mut heard) = bus::open("postgres", &db_url).await.unwrap();
    bus.subscribe("yezi.test.batch", true).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let before = commits().await;
    // 40 publishers of 100 messages each, at once; every tenth message twice (PostgreSQL folds
    // equal notifications of one transaction into one), one message longer than a notification.
    let long = "x".repeat(20_000);
    let mut tasks = Vec::new();
    for p in 0..40 {
        let bus = bus.clone();
        let long = long.clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..100usize {
                let text = if p == 7 && i == 50 { format!("{p}:{i}:{long}") } else { format!("{p}:{i}") };
                bus.publish("yezi.test.batch", &text).await.unwrap();
                if i.is_multiple_of(10) {
                    bus.publish("yezi.test.batch", &text).await.unwrap();
                }
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let expected = 40 * 110;
    let mut next = [0usize; 40];
    let mut twice = [false; 40];
    let mut got = 0;
    while got < expected {
        let (channel, text) = tokio::time::timeout(Duration::from_secs(10), heard.recv())
            .await
            .unwrap_or_else(|_| panic!("only {got} of {expected} messages heard"))
            .unwrap();
        assert_eq!(channel, "yezi.test.batch");
        let mut parts = text.splitn(3, ':');
        let p: usize = parts.next().unwrap().parse().unwrap();
        let i: usize = parts.next().unwrap().parse().unwrap();
        if p == 7 && i == 50 {
            assert_eq!(parts.next(), Some(long.as_str()), "the long message came back whole");
        }
        // Each publisher's messages in the order it sent them (the copy right after the first).
        if i.is_multiple_of(10) && next[p] == i + 1 && !twice[p] {
            twice[p] = true;
        } else {
            assert_eq!(i, next[p], "publisher {p}: message {i} after {}", next[p]);
            next[p] = i + 1;
            twice[p] = false;
        }
        got += 1;
    }
    // The notifier's connection ends with the bus: its statistics are then counted.
    drop(bus);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let statements = commits().await - before;
    // One statement a message would be 4,400 transactions; the publishers wait for their
    // message to be sent, so a batch holds up to one message of each.
    assert!(statements < (expected as i64) / 4, "{statements} transactions for {expected} messages");
    eprintln!("{expected} messages in {statements} transactions");
    admin.batch_execute(&format!("DROP DATABASE {db} WITH (FORCE)")).await.unwrap();
}

/// A bus that can be broken: then it takes nothing.
struct Breakable {
    inner: Arc<dyn Bus>,
    broken: AtomicBool,
}

#[async_trait]
impl Bus for Breakable {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }
    async fn publish(&self, channel: &str, text: &str) -> Result<Option<u64>, BusError> {
        if self.broken.load(Ordering::Relaxed) {
            return Err(BusError::Backend("broken pipe".into()));
        }
        self.inner.publish(channel, text).await
    }
    async fn subscribe(&self, channel: &str, confirmed: bool) -> Result<(), BusError> {
        self.inner.subscribe(channel, confirmed).await
    }
    async fn unsubscribe(&self, channel: &str) -> Result<(), BusError> {
        self.inner.unsubscribe(channel).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_the_bus_does_not_take_is_answered_with_an_error_at_once() {
    let (url, schema) = (url(), server::ids::new_id("busfail_").unwrap());
    let timing = Timing { bot_delay_ms: 15, ..fast() };
    let (a, a_addr) = start_node(&url, &schema, timing).await;
    let (b, b_addr) = start_node(&url, &schema, timing).await;
    let (bus_a, heard_a) = bus::open("postgres", &url).await.unwrap();
    a.join_bus(bus_a, heard_a).await.unwrap();
    let (inner, heard_b) = bus::open("postgres", &url).await.unwrap();
    let breakable = Arc::new(Breakable { inner, broken: AtomicBool::new(false) });
    b.join_bus(breakable.clone(), heard_b).await.unwrap();

    let (ca, cb) = (Client::new(&a_addr), Client::new(&b_addr));
    let g = ca.guest("Ann").await.unwrap();
    let body = json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id = ca.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
    // Ann at A's table through B.
    let mut s = cb.connect_as(&g.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    let sync = s
        .until(Duration::from_secs(5), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(sync["type"], "sync", "{sync}");
    assert!(b.table(&id).is_none());
    // The bus breaks: her next command is lost, and she hears it at once.
    breakable.broken.store(true, Ordering::Relaxed);
    let sent = tokio::time::Instant::now();
    s.send(&json!({ "type": "resync" })).await.unwrap();
    let m =
        s.until(Duration::from_secs(2), "an answer", |m| m["type"] == "error" || m["type"] == "sync").await;
    let m = m.unwrap_or_else(|e| panic!("no answer to a command the bus lost: {e}"));
    assert_eq!(m["type"], "error", "{m}");
    assert_eq!(m["code"], "unavailable", "{m}");
    assert!(sent.elapsed() < Duration::from_millis(500), "answered after {:?}", sent.elapsed());
    // Mended, the bus carries her commands again.
    breakable.broken.store(false, Ordering::Relaxed);
    s.send(&json!({ "type": "resync" })).await.unwrap();
    let m = s.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
    assert_eq!(m["table"]["id"], id.as_str());
}

/// A node on a thread and runtime of its own, which the test can pause as a whole (as `SIGSTOP`
/// or a suspended machine would): its tasks, timers and connections all stand still.
struct Pausable {
    app: Arc<App>,
    addr: String,
    pause: tokio::sync::mpsc::UnboundedSender<Duration>,
}

fn pausable_node(url: String, schema: String, timing: Timing) -> Pausable {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (pause, mut pauses) = tokio::sync::mpsc::unbounded_channel::<Duration>();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            let (app, addr) = start_node(&url, &schema, timing).await;
            let (bus, heard) = bus::open("postgres", &url).await.unwrap();
            app.join_bus(bus, heard).await.unwrap();
            ready_tx.send((app.clone(), addr)).unwrap();
            while let Some(d) = pauses.recv().await {
                // Everything on this runtime stands still; its clock stops with it (the
                // monotonic clock of a machine suspended under libfaketime did), while the wall
                // clock goes on.
                std::thread::sleep(d);
                app.cluster.set_clock_lag(d);
            }
        });
    });
    let (app, addr) = ready_rx.recv().unwrap();
    Pausable { app, addr, pause }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_woken_from_a_pause_with_its_clock_stopped_sends_a_player_nothing() {
    let (url, schema) = (url(), server::ids::new_id("zombie_").unwrap());
    // Untimed: nothing happens at the table but what the test does.
    let timing = Timing { bot_delay_ms: 15, ..fast() };
    let a = pausable_node(url.clone(), schema.clone(), timing);
    let (b, _) = start_node(&url, &schema, timing).await;
    let (bus_b, heard_b) = bus::open("postgres", &url).await.unwrap();
    b.join_bus(bus_b, heard_b).await.unwrap();
    let (c, c_addr) = start_node(&url, &schema, timing).await;
    let (bus_c, heard_c) = bus::open("postgres", &url).await.unwrap();
    c.join_bus(bus_c, heard_c).await.unwrap();
    let (ca, cc) = (Client::new(&a.addr), Client::new(&c_addr));

    // A few tries: the test needs B, not C, to take the table over (C claims orphans too).
    for attempt in 0..4 {
        let g = ca.guest("Ann").await.unwrap();
        let body = json!({ "game": "madiao", "untimed": true,
            "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
        let id = ca.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
        // Ann at A's table through C.
        let mut s = cc.connect_as(&g.token).await.unwrap();
        s.send(&json!({ "type": "join", "table": id })).await.unwrap();
        let sync = s
            .until(Duration::from_secs(5), "sync", |m| m["type"] == "sync" || m["type"] == "error")
            .await
            .unwrap();
        assert_eq!(sync["type"], "sync", "{sync}");

        // A is paused for more than three leases; B takes the table over as soon as A's lease is
        // out by the database's clock.
        let pause = Duration::from_millis(LEASE_MS * 4);
        a.pause.send(pause).unwrap();
        let paused = tokio::time::Instant::now();
        let ids = [id.clone()];
        common::eventually("A's lease runs out", Duration::from_secs(3), async || {
            b.store.holders(&ids).await.unwrap().is_empty()
        })
        .await;
        let Some((row, epoch)) = b.store.claim_table(&id).await.unwrap() else {
            eprintln!("attempt {attempt}: C claimed the table first; again");
            continue;
        };
        server::tables::load(&b.tables, row, epoch, b.cluster.now()).await.unwrap();
        assert_eq!(epoch, 2);
        // C finds the table moved, and Ann enters it again, at B, through the bus: her join is
        // heard by B and (once awake) by A, which still hears the table's channel.
        let resync =
            s.until(Duration::from_secs(3), "the sync from B", |m| m["type"] == "sync").await.unwrap();
        let mut last_v = resync["v"].as_u64().unwrap();
        assert!(paused.elapsed() < pause, "the test was too slow: A woke before B answered");
        // A wakes with its clock stopped: by its own clock its lease has not run out.
        let mut heard = Vec::new();
        let until = paused + pause + Duration::from_secs(3);
        while tokio::time::Instant::now() < until {
            let Some(m) = s.recv_timeout(Duration::from_millis(200)).await.unwrap() else { continue };
            heard.push(m);
        }
        for m in &heard {
            assert!(
                m["type"] != "sync" && m["type"] != "error",
                "after B's sync Ann heard {m}\nall: {heard:?}"
            );
            if let Some(v) = m["v"].as_u64() {
                assert!(v >= last_v, "the version went back from {last_v}: {m}");
                last_v = v;
            }
        }
        common::eventually("A stops the table", Duration::from_secs(3), async || a.app.table(&id).is_none())
            .await;
        assert!(b.table(&id).is_some(), "B runs the table");
        // Ann still plays at B.
        s.send(&json!({ "type": "resync" })).await.unwrap();
        let m = s.until(Duration::from_secs(3), "sync", |m| m["type"] == "sync").await.unwrap();
        assert_eq!(m["v"].as_u64(), Some(last_v), "{m}");
        eprintln!(
            "A stopped its table; C dropped {} stale messages",
            c.cluster.stale_dropped.load(Ordering::Relaxed)
        );
        return;
    }
    panic!("C claimed the table every time");
}
