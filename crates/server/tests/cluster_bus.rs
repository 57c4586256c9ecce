//! The bus between nodes under failure (`YEZI_TEST_POSTGRES_URL`; `./test.sh` starts one): the
//! PostgreSQL bus sends many messages per statement and loses none; a command the bus does not
//! take is answered with an error at once; and a node that was paused while its clock stopped
//! (a suspended machine) sends the people at its former tables nothing when it wakes; an entry
//! lost because its table's new owner did not yet hear the table is sent again when it does.

use crate::common;

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
    let (addr, _) = common::listen(&app).await;
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

/// `frozen`: both of the node's clocks stand still for the pause (its monotonic and its wall
/// clock, as libfaketime can make them), else only its monotonic clock.
fn pausable_node(url: String, schema: String, timing: Timing, frozen: bool) -> Pausable {
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
                if frozen {
                    app.cluster.set_clocks_lag(d);
                } else {
                    app.cluster.set_clock_lag(d);
                }
            }
        });
    });
    let (app, addr) = ready_rx.recv().unwrap();
    Pausable { app, addr, pause }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_woken_from_a_pause_with_its_clock_stopped_sends_a_player_nothing() {
    zombie(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_woken_from_a_pause_with_all_its_clocks_stopped_sends_a_player_nothing() {
    // Neither its terms nor its ticks show the pause (its wall clock stood still too): only the
    // database's clock does, in its heartbeat and in the commands other nodes stamp.
    let a = zombie(true).await;
    assert!(a.cluster.clock_jumps.load(Ordering::Relaxed) >= 1, "A found its clocks behind");
    assert!(a.cluster.skipped() >= Duration::from_millis(LEASE_MS * 3), "{:?}", a.cluster.skipped());
}

/// A node paused (`frozen`: with both its clocks stopped) while another takes its table over
/// sends the player nothing when it wakes; the paused node's app.
///
/// What the player hears after the new owner's `sync` is judged by the table's lease history:
/// a fresh `sync` may come only from a lease epoch begun since (the table moved on again: on a
/// loaded machine a 600 ms lease can lapse), never from the paused node, and the versions never
/// go back (a new epoch's count on above every earlier one's: `server::tables::task::version_base`).
async fn zombie(frozen: bool) -> Arc<App> {
    let (url, schema) = (url(), server::ids::new_id("zombie_").unwrap());
    let options = OpenOptions { pool: 1, lease_ms: LEASE_MS };
    let history = PgStore::connect_with(&url, Some(&schema), options).await.unwrap();
    // Untimed: nothing happens at the table but what the test does.
    let timing = Timing { bot_delay_ms: 15, ..fast() };
    let a = pausable_node(url.clone(), schema.clone(), timing, frozen);
    let (b, _) = start_node(&url, &schema, timing).await;
    let (bus_b, heard_b) = bus::open("postgres", &url).await.unwrap();
    b.join_bus(bus_b, heard_b).await.unwrap();
    let (c, c_addr) = start_node(&url, &schema, timing).await;
    let (bus_c, heard_c) = bus::open("postgres", &url).await.unwrap();
    c.join_bus(bus_c, heard_c).await.unwrap();
    let (ca, cc) = (Client::new(&a.addr), Client::new(&c_addr));

    {
        let g = ca.guest("Ann").await.unwrap();
        let body = json!({ "game": "madiao", "untimed": true,
            "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
        let id = ca.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
        // Ann at A's table through C. (An entry answered `unavailable`, its node slow to answer
        // on a loaded machine, is made again, as the shipped clients do.)
        let mut s = cc.connect_as(&g.token).await.unwrap();
        let entering = tokio::time::Instant::now();
        loop {
            s.send(&json!({ "type": "join", "table": id })).await.unwrap();
            let m = s
                .until(Duration::from_secs(5), "sync", |m| m["type"] == "sync" || m["type"] == "error")
                .await
                .unwrap();
            if m["type"] == "sync" {
                break;
            }
            assert_eq!(m["code"], "unavailable", "{m}");
            assert!(entering.elapsed() < Duration::from_secs(10), "Ann cannot enter A's table: {m}");
        }

        // A is paused for more than three leases; B takes the table over as soon as A's lease is
        // out by the database's clock.
        // Long enough for the new owner's sync to reach Ann first, also when C (through which
        // she entered) is the one that takes the table over and her entry is made again.
        // (When A is the table's rendezvous member, the others wait a lease and MEMBER_MS more.)
        let pause = Duration::from_millis(LEASE_MS * 32);
        a.pause.send(pause).unwrap();
        let paused = tokio::time::Instant::now();
        let ids = [id.clone()];
        // The first of B and C to tick after A's lease is out by the database's clock claims the
        // table (rendezvous hashing picks which); either is the new owner for what follows.
        let a_node = a.app.store.node().to_string();
        let mut owner = None;
        let takeover = Duration::from_millis(LEASE_MS * 8 + server::store::MEMBER_MS as u64 * 4);
        common::eventually("another node takes A's table over", takeover, async || {
            let holders = b.store.holders(&ids).await.unwrap();
            owner = holders.iter().map(|(_, h)| h.node.clone()).find(|n| *n != a_node);
            owner.is_some()
        })
        .await;
        let owner = owner.unwrap_or_default();
        let x = if owner == b.store.node() { &b } else { &c };
        common::eventually("the new owner runs the table", Duration::from_secs(3), async || {
            x.table(&id).is_some()
        })
        .await;
        eprintln!("{} took the table over", if owner == b.store.node() { "B" } else { "C" });
        // C finds the table moved, and Ann enters it again, at B, through the bus: her join is
        // heard by B and (once awake) by A, which still hears the table's channel.
        let mut before = Vec::new();
        let waited = tokio::time::Instant::now();
        let resync = loop {
            let m = s.recv_timeout(Duration::from_millis(200)).await.unwrap();
            match m {
                Some(m) if m["type"] == "sync" => break m,
                // C could not enter the moved table again for her in time: she enters it again
                // herself, as the shipped clients do.
                Some(m) if m["type"] == "moved" => {
                    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
                    before.push(m);
                }
                Some(m) => before.push(m),
                None => {}
            }
            assert!(
                waited.elapsed() < Duration::from_secs(6),
                "no sync from the new owner within 6 s; Ann heard {before:?}"
            );
        };
        let mut last_v = resync["v"].as_u64().unwrap();
        let epochs_then = history.provenance(&id).await.unwrap().leases.len();
        assert!(paused.elapsed() < pause, "the test was too slow: A woke before the new owner answered");
        // A wakes with its clock stopped: by its own clock its lease has not run out.
        let mut heard = Vec::new();
        let until = paused + pause + Duration::from_secs(3);
        while tokio::time::Instant::now() < until {
            let Some(m) = s.recv_timeout(Duration::from_millis(200)).await.unwrap() else { continue };
            heard.push(m);
        }
        // The table moved on since the new owner's sync (its lease lapsed on a loaded machine,
        // or a rebalance handed it on): a fresh `sync` from that epoch's node is no zombie's.
        let leases = history.provenance(&id).await.unwrap().leases;
        let moved_on = leases.len() > epochs_then;
        let a_node = a.app.store.node();
        assert!(leases[epochs_then - 1..].iter().all(|l| l.node != a_node || l.epoch > 1), "{leases:?}");
        for m in &heard {
            assert!(m["type"] != "error", "after the new owner's sync Ann heard {m}\nall: {heard:?}");
            assert!(
                m["type"] != "sync" || moved_on,
                "after the new owner's sync, no new epoch since, Ann heard {m}\nall: {heard:?}\nleases: {leases:?}"
            );
            if let Some(v) = m["v"].as_u64() {
                assert!(v >= last_v, "the version went back from {last_v}: {m}\nall: {heard:?}");
                last_v = v;
            }
        }
        common::eventually("A stops the table", Duration::from_secs(3), async || a.app.table(&id).is_none())
            .await;
        assert!(moved_on || x.table(&id).is_some(), "the new owner runs the table");
        // Ann still plays there.
        s.send(&json!({ "type": "resync" })).await.unwrap();
        let m = s.until(Duration::from_secs(3), "sync", |m| m["type"] == "sync").await.unwrap();
        if moved_on {
            assert!(m["v"].as_u64().unwrap() >= last_v, "{m}");
        } else {
            assert_eq!(m["v"].as_u64(), Some(last_v), "{m}");
        }
        if moved_on {
            eprintln!("the table moved on again after the new owner's sync: {leases:?}");
        }
        eprintln!(
            "A stopped its table; C dropped {} stale messages",
            c.cluster.stale_dropped.load(Ordering::Relaxed)
        );
        a.app
    }
}

/// A node on a thread and runtime of its own, which the test can kill: its runtime is dropped,
/// and with it every task and connection (to PostgreSQL too), as when its process dies.
struct Killable {
    addr: String,
    kill: Option<tokio::sync::oneshot::Sender<()>>,
    done: Option<std::thread::JoinHandle<()>>,
}

fn killable_node(url: String, schema: String, timing: Timing) -> Killable {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (kill, killed) = tokio::sync::oneshot::channel::<()>();
    let done = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        rt.block_on(async move {
            let (app, addr) = start_node(&url, &schema, timing).await;
            let (bus, heard) = bus::open("postgres", &url).await.unwrap();
            app.join_bus(bus, heard).await.unwrap();
            ready_tx.send(addr).unwrap();
            let _ = killed.await;
        });
        rt.shutdown_background();
    });
    let addr = ready_rx.recv().unwrap();
    Killable { addr, kill: Some(kill), done: Some(done) }
}

impl Killable {
    fn kill(&mut self) {
        if let Some(k) = self.kill.take() {
            let _ = k.send(());
        }
        if let Some(d) = self.done.take() {
            d.join().unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entry_to_a_dead_nodes_table_is_not_held_up_on_the_postgres_bus() {
    // PostgreSQL's NOTIFY cannot tell that nobody heard a join: without asking whether the
    // table's node is still connected, a join sent to a dead node waited the whole 3 s for an
    // answer, each time, until the lease ran out (a browser's reconnect took 8.7 s after a kill).
    let (url, schema) = (url(), server::ids::new_id("deadnode_").unwrap());
    let timing = Timing { bot_delay_ms: 15, ..fast() };
    let mut a = killable_node(url.clone(), schema.clone(), timing);
    let (b, b_addr) = start_node(&url, &schema, timing).await;
    let (bus_b, heard_b) = bus::open("postgres", &url).await.unwrap();
    b.join_bus(bus_b, heard_b).await.unwrap();
    let (ca, cb) = (Client::new(&a.addr), Client::new(&b_addr));
    let g = ca.guest("Ann").await.unwrap();
    let body = json!({ "game": "madiao", "untimed": true,
        "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id = ca.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
    let mut s = ca.connect_as(&g.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    let sync = s.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
    let mut v = sync["v"].as_u64().unwrap();
    // A few lines of chat raise the table's version at A (each line an event).
    for i in 0..4 {
        s.send(&json!({ "type": "chat", "text": format!("line {i}") })).await.unwrap();
        let m = s.until(Duration::from_secs(5), "chat", |m| m["type"] == "chat").await.unwrap();
        v = v.max(m["v"].as_u64().unwrap());
    }
    // A renews its lease, then dies; Ann comes back through B at once, within A's lease.
    tokio::time::sleep(Duration::from_millis(LEASE_MS / 2)).await;
    a.kill();
    let killed = tokio::time::Instant::now();
    assert!(!b.store.holders(std::slice::from_ref(&id)).await.unwrap().is_empty(), "A's lease still holds");
    let mut s = cb.connect_as(&g.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    let m = s
        .until(Duration::from_secs(10), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    let took = killed.elapsed();
    assert_eq!(m["type"], "sync", "{m}");
    // B counts the table's versions on above every one A sent (it loaded the table at v 1 and
    // synced Ann at v 2 or 3, below what she had heard, before `version_base`).
    assert!(m["v"].as_u64().unwrap() > v, "the version went back from {v}: {m}");
    assert!(b.table(&id).is_some(), "B runs the table now");
    // The lease runs out at most LEASE_MS after the kill; B claims it at Ann's next try.
    eprintln!("Ann was back at her table {took:?} after A died (lease {LEASE_MS} ms)");
    assert!(took < Duration::from_millis(LEASE_MS + 1200), "back only {took:?} after the kill");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entry_sent_before_the_tables_new_owner_hears_it_is_sent_again_at_once() {
    // A node that claims a table holds its lease before it hears the table's channel; on
    // PostgreSQL an entry another node sends in between is lost without a word, and it waited
    // out the whole reply time (3 s) before its connection tried again: after a kill, one
    // player in three runs came back 3 s after the others (issue 32's 7 s target missed).
    let (url, schema) = (url(), server::ids::new_id("hearing_").unwrap());
    let timing = Timing { bot_delay_ms: 15, ..fast() };
    let (a, a_addr) = start_node(&url, &schema, timing).await;
    let (b, b_addr) = start_node(&url, &schema, timing).await;
    for app in [&a, &b] {
        let (bus, heard) = bus::open("postgres", &url).await.unwrap();
        app.join_bus(bus, heard).await.unwrap();
    }
    let g = Client::new(&a_addr).guest("Ann").await.unwrap();
    let body = json!({ "game": "madiao", "untimed": true,
        "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id = Client::new(&a_addr)
        .create_table(&g.token, &serde_json::from_value(body).unwrap())
        .await
        .unwrap()
        .table
        .id;
    // A holds the table's lease but does not hear its channel: as just after a claim.
    a.cluster.stopped(&id).await;
    let mut s = Client::new(&b_addr).connect_as(&g.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    // The entry has gone out through B (into nobody's ears) when A begins to hear the table.
    let early =
        s.until(Duration::from_millis(400), "sync", |m| m["type"] == "sync" || m["type"] == "error").await;
    assert!(early.is_err(), "answered while nobody heard the table: {early:?}");
    a.cluster.running(&id, false).await;
    let heard = tokio::time::Instant::now();
    let m = s
        .until(Duration::from_secs(10), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    let took = heard.elapsed();
    assert_eq!(m["type"], "sync", "{m}");
    eprintln!("Ann entered {took:?} after A began to hear the table");
    assert!(took < Duration::from_secs(1), "the entry waited {took:?} after A heard the table");
    assert!(a.table(&id).is_some() && b.table(&id).is_none(), "A runs the table");
}
