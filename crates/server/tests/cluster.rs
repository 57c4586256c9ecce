//! Nodes sharing one PostgreSQL database (`YEZI_TEST_POSTGRES_URL`; `./test.sh` starts one), run
//! in the test process, each a whole server with its own store (so its own node name) on its own
//! loopback port: a table whose node stops renewing its lease (as a stalled node does) is
//! claimed by another node within about a lease, the stalled node's task stops without writing
//! or sending anything more, its connections are told the table moved, and the table plays on
//! at the new node from its log.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use client::Client;
use common::fast;
use serde_json::json;
use server::store::postgres::PgStore;
use server::store::{Leases, OpenOptions};
use server::{App, Config, Limits};
use table::settings::Timing;

const LEASE_MS: u64 = 600;

struct Node {
    app: Arc<App>,
    client: Client,
}

async fn node(url: &str, schema: &str, timing: Timing) -> Node {
    node_with_lease(url, schema, timing, LEASE_MS).await
}

async fn node_with_lease(url: &str, schema: &str, timing: Timing, lease_ms: u64) -> Node {
    let options = OpenOptions { pool: 4, lease_ms };
    let store = Arc::new(PgStore::connect_with(url, Some(schema), options).await.unwrap());
    let limits = Limits {
        messages_per_second: 1000.0,
        message_burst: 1000.0,
        guests_burst: 1000.0,
        connections_per_ip: 1000,
        ..Limits::default()
    };
    let app = App::start(store, Config { timing, limits, lease_ms, table_seed: None }).await.unwrap();
    let (addr, _) = common::listen(&app).await;
    Node { app, client: Client::new(&addr) }
}

fn url() -> String {
    std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL")
}

fn redis_url() -> String {
    std::env::var("YEZI_TEST_REDIS_URL")
        .expect("YEZI_TEST_REDIS_URL is not set: run ./test.sh, which starts a local Redis")
}

/// Makes `n` a cluster member on the bus `bus_url` names (the database at `url` for `postgres`);
/// the bus, to act on it as the node would.
async fn join_bus(n: &Node, bus_url: &str, url: &str) -> Arc<dyn server::cluster::bus::Bus> {
    let (bus, heard) = server::cluster::bus::open(bus_url, url).await.unwrap();
    // The node's own database schema is not the bus's concern: channels are per node/table.
    n.app.join_bus(bus.clone(), heard).await.unwrap();
    bus
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_nodes_table_is_fenced_and_taken_over() {
    let (url, schema) = (url(), server::ids::new_id("cluster_").unwrap());
    let timing = Timing { bot_delay_ms: 15, ..fast() };
    let a = node(&url, &schema, timing).await;
    let b = node(&url, &schema, timing).await;
    let g = a.client.guest("Ann").await.unwrap();
    // A long match: it must not end while the test looks at it (a watcher entering a finished
    // table is told it is over).
    let body = json!({ "game": "madiao", "variants": { "game_length": "hands:1000" },
        "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let created = a.client.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap();
    let id = created.table.id;
    assert!(a.app.table(&id).is_some() && b.app.table(&id).is_none(), "the creating node runs the table");
    // B may not take a table A holds, though asked for it.
    let mut w = b.client.connect_as(&g.token).await.unwrap();
    w.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let refused = w.until(Duration::from_secs(5), "an answer", |m| m["type"] == "error").await.unwrap();
    assert_eq!(refused["code"], "unavailable", "{refused}");
    assert!(b.app.table(&id).is_none(), "B runs a table A holds");
    // A watcher at A.
    let mut watcher = a.client.connect_as(&g.token).await.unwrap();
    watcher.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    watcher.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
    let store = a.app.store.clone();
    common::eventually("bots play at A", Duration::from_secs(10), async || {
        store.actions(&id).await.unwrap().len() >= 6
    })
    .await;

    // A stalls: its lease runs out unrenewed (as a SIGSTOPped node's does).
    let (pg, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    pg.batch_execute(&format!("SET search_path TO {schema}")).await.unwrap();
    let stalled = tokio::time::Instant::now();
    pg.execute("UPDATE owners SET expires = '-infinity' WHERE table_id = $1", &[&id]).await.unwrap();

    // A node claims it again (B, or A itself: a node in this process goes on claiming), and
    // the task of the old epoch stops: one node runs it.
    common::eventually("the table is claimed again", Duration::from_secs(5), async || {
        store.holders(std::slice::from_ref(&id)).await.unwrap().iter().any(|(_, h)| h.epoch == 2)
    })
    .await;
    let taken = stalled.elapsed();
    let holder = store.holders(std::slice::from_ref(&id)).await.unwrap().remove(0).1;
    let (runner, other) = if holder.node == a.app.store.node() { (&a, &b) } else { (&b, &a) };
    let (r, o) = (runner.app.clone(), other.app.clone());
    common::eventually("the holder runs the table", Duration::from_secs(5), async || {
        r.table(&id).is_some_and(|h| h.epoch == 2)
    })
    .await;
    // The old epoch's task stops at its next write (fenced) or the node's next renewal.
    common::eventually("the old task stops", Duration::from_millis(LEASE_MS), async || {
        o.table(&id).is_none()
    })
    .await;
    assert!(taken < Duration::from_millis(LEASE_MS * 3), "taken over after {taken:?}");

    // The table plays on from its log: numbers without gaps, and a fresh load replays it.
    let at_claim = store.actions(&id).await.unwrap().len();
    common::eventually("bots play on", Duration::from_secs(10), async || {
        store.actions(&id).await.unwrap().len() >= at_claim + 6
    })
    .await;
    let log = store.actions(&id).await.unwrap();
    assert!(log.iter().enumerate().all(|(i, a)| a.seq == i as u64), "the log has gaps");
    let row = store.table(&id).await.unwrap().unwrap();
    let doc: table::settings::TableSettings = serde_json::from_str(&row.settings).unwrap();
    let config = table::machine::Config {
        id: row.id.clone(),
        settings: doc,
        seed: row.seed,
        host: row.host.clone(),
        seats: row.seats.clone(),
        status: row.status,
        created_ms: row.created_ms,
        timing,
    };
    assert!(table::machine::Table::<ai::Madiao>::new(config, &log, Vec::new(), 0).is_ok(), "the log replays");

    // A's watcher is told the table moved: A enters it again for it if A holds it now (a fresh
    // `sync`); else A tries for two leases and a second, and, unable to reach B's table (no
    // bus), tells the client `moved` (docs/protocol.md, "moved"): it enters again itself.
    // (This test expected an `unavailable` error there, which the server no longer sends; it
    // failed whenever B claimed the table, which under load is most runs.)
    let told = watcher
        .until(Duration::from_secs(10), "the move", |m| {
            (m["type"] == "error" && m["code"] == "unavailable")
                || m["type"] == "sync"
                || m["type"] == "moved"
        })
        .await
        .unwrap();
    if holder.node == a.app.store.node() {
        assert_eq!(told["type"], "sync", "{told}");
    } else {
        assert_eq!(told["type"], "moved", "{told}");
        assert_eq!(told["table"], id.as_str(), "{told}");
    }
    // A person at the holder's node watches it there.
    let mut at_b = runner.client.connect_as(&g.token).await.unwrap();
    at_b.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let sync = at_b.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
    assert_eq!(sync["table"]["id"], id.as_str());
}

/// A stale owner's writes, counted directly: a node whose table was claimed by another node
/// (while it went on running it, as a stalled node does when it wakes up before its next lease
/// renewal) tries its next step in the old epoch; the database refuses it, the node counts the
/// refusal (`fenced_writes` in `GET /api/stats`) and stops the table, and no row of the log or
/// the chat was written under the old epoch after the new one began. Without the fencing, the
/// stale node's moves would land after the claim, and the provenance audit would count them.
/// A store opened on a database whose layout is current (a node starting or restarted, a tool)
/// takes no lock that holds up the running nodes' writes. Before, its `CREATE INDEX IF NOT
/// EXISTS` statements locked their tables (`owners` among them) against writes until its setup
/// ended, and under load every node's leases ran out meanwhile: the fault harness's tables
/// stopped on all three nodes at once when it opened its own store at the end of its run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_a_store_holds_up_no_nodes_writes() {
    let (url, schema) = (url(), server::ids::new_id("open_").unwrap());
    PgStore::connect(&url, Some(&schema)).await.unwrap();
    // A node's write under way: a transaction that has written to `owners` (its lease renewals'
    // table) and is not over yet.
    let (mut pg, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    pg.batch_execute(&format!("SET search_path TO {schema}")).await.unwrap();
    let tx = pg.transaction().await.unwrap();
    tx.execute("UPDATE owners SET expires = expires WHERE node = 'nobody'", &[]).await.unwrap();
    let opened = tokio::time::timeout(Duration::from_secs(5), PgStore::connect(&url, Some(&schema))).await;
    tx.rollback().await.unwrap();
    let opened = opened.expect("opening a store waited for a node's write to end");
    opened.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_owners_writes_are_refused_counted_and_never_stored() {
    let (url, schema) = (url(), server::ids::new_id("stale_").unwrap());
    // A lease of a minute: A's next renewal (a third of it away) comes after the test, so A
    // learns that it lost the table only from its own refused write.
    let lease_ms = 60_000;
    let a = node_with_lease(&url, &schema, Timing { bot_delay_ms: 15, ..fast() }, lease_ms).await;
    let g = a.client.guest("Ann").await.unwrap();
    // A long match: it must not end while the test looks at it (a watcher entering a finished
    // table is told it is over).
    let body = json!({ "game": "madiao", "variants": { "game_length": "hands:1000" },
        "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let created = a.client.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap();
    let id = created.table.id;
    // A watcher says something (a chat line, written under A's epoch), and the bots play.
    let mut watcher = a.client.connect_as(&g.token).await.unwrap();
    watcher.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    watcher.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
    watcher.send(&json!({ "type": "chat", "text": "before the stall" })).await.unwrap();
    watcher.until(Duration::from_secs(5), "the chat line", |m| m["type"] == "chat").await.unwrap();
    // Gone, so that nobody at A asks for the table again (which would claim it back for A).
    watcher.close().await;
    let store = a.app.store.clone();
    common::eventually("bots play at A", Duration::from_secs(10), async || {
        store.actions(&id).await.unwrap().len() >= 6
    })
    .await;
    let stats = |c: &Client| {
        let c = c.clone();
        async move { c.stats().await.unwrap() }
    };
    let before = stats(&a.client).await;
    assert_eq!((before.fenced_writes, before.leases_lost), (0, 0));

    // A's lease runs out and another node (a bare store: it runs nothing, writes nothing)
    // claims the table in epoch 2, while A's task goes on.
    let (pg, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    pg.batch_execute(&format!("SET search_path TO {schema}")).await.unwrap();
    pg.execute("UPDATE owners SET expires = '-infinity' WHERE table_id = $1", &[&id]).await.unwrap();
    let other = PgStore::connect_with(&url, Some(&schema), OpenOptions { pool: 1, lease_ms }).await.unwrap();
    // A claim skips a lease row locked by a write in progress: tried again until it takes.
    let mut epoch = None;
    common::eventually("the other node claims the table", Duration::from_secs(5), async || {
        epoch = other.claim_table(&id).await.unwrap().map(|(_, e)| e);
        epoch.is_some()
    })
    .await;
    assert_eq!(epoch, Some(2));
    let at_claim = store.actions(&id).await.unwrap().len();

    // A's next step is refused and counted, and A stops the table (within a few seconds).
    let end = tokio::time::Instant::now() + Duration::from_secs(5);
    while tokio::time::Instant::now() < end
        && (stats(&a.client).await.fenced_writes == 0 || a.app.table(&id).is_some())
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The stored rows name their writers: every one A's epoch 1, before epoch 2 began (without
    // the fencing, A's moves after the claim are found here).
    let p = other.provenance(&id).await.unwrap();
    let audit = p.audit(&id);
    assert!(audit.stale.is_empty(), "{} stale writes: {:?}", audit.stale.len(), audit.stale);
    assert_eq!(store.actions(&id).await.unwrap().len(), at_claim, "a write landed after the claim");
    let after = stats(&a.client).await;
    assert!(after.fenced_writes >= 1, "A's stale write was not refused: {after:?}");
    assert!(a.app.table(&id).is_none(), "A still runs the table");
    assert_eq!(after.leases_lost, 0, "A noticed at a renewal, not from its refused write");
    assert_eq!(audit.unstamped, 0, "rows without their lease");
    assert_eq!((p.actions.len(), p.chat.len()), (at_claim, 1));
    assert!(
        p.actions
            .iter()
            .chain(&p.chat)
            .all(|r| r.epoch == Some(1) && r.node.as_deref() == Some(a.app.store.node()))
    );
    let leases: Vec<_> =
        p.leases.iter().map(|l| (l.epoch, l.node.as_str(), l.log_from, l.chat_from)).collect();
    assert_eq!(
        leases,
        vec![(1, a.app.store.node(), Some(0), Some(0)), (2, other.node(), Some(at_claim as u64), Some(1))]
    );
}

/// A node that cannot renew a lease (its renewal waits on the database, as a node cut off from
/// it does, or one stalled past its lease) stops the table once its own clock says the lease may
/// have run out, and sends nothing more to the people at it: another node may be running the
/// table by then, and a person hearing both would see the table's version go back (the fault
/// harness saw `v 7 then 5 (seats)`: people coming and going are not written, so no refused
/// write stopped the stale node). Without the stop, A's task goes on past its lease, and a
/// watcher coming in makes it send the seats to the one already there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_cannot_renew_a_lease_sends_nothing_once_it_may_have_run_out() {
    let (url, schema) = (url(), server::ids::new_id("term_").unwrap());
    let a = node(&url, &schema, fast()).await;
    let ann = a.client.guest("Ann").await.unwrap();
    let bob = a.client.guest("Bob").await.unwrap();
    // A table waiting for its second person: watching it writes nothing.
    let body = json!({ "game": "madiao",
        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id =
        a.client.create_table(&ann.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
    let mut first = a.client.connect_as(&ann.token).await.unwrap();
    first.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    first.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
    while first.recv_timeout(Duration::from_millis(200)).await.unwrap().is_some() {}
    let lost_before = a.app.cluster.leases_lost.load(std::sync::atomic::Ordering::Relaxed);

    // A's renewals wait behind a lock on the table's lease row (claims skip it): the lease runs
    // out unrenewed, and A cannot learn it from the database.
    let (mut pg, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    pg.batch_execute(&format!("SET search_path TO {schema}")).await.unwrap();
    let tx = pg.transaction().await.unwrap();
    tx.execute("SELECT 1 FROM owners WHERE table_id = $1 FOR UPDATE", &[&id]).await.unwrap();
    let locked = tokio::time::Instant::now();

    // A's last renewal began before the lock: by a lease later, A has stopped the table.
    let app = a.app.clone();
    common::eventually("A stops the table", Duration::from_millis(LEASE_MS * 4), async || {
        app.table(&id).is_none()
    })
    .await;
    let stopped = locked.elapsed();
    assert!(
        stopped < Duration::from_millis(LEASE_MS + 300),
        "A stopped the table {stopped:?} after the lock"
    );
    let lost = a.app.cluster.leases_lost.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(lost, lost_before + 1, "the stop is counted as a lost lease");

    // Someone comes to watch through A: A does not answer from the stopped task, and the
    // watcher already there is sent no seats (nor anything else from the table).
    let mut second = a.client.connect_as(&bob.token).await.unwrap();
    second.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let answer = second
        .until(Duration::from_secs(5), "an answer", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(answer["type"], "error", "a table past its lease answered: {answer}");
    let until = tokio::time::Instant::now() + Duration::from_millis(500);
    while let Some(m) =
        first.recv_timeout(until.saturating_duration_since(tokio::time::Instant::now())).await.unwrap()
    {
        assert!(
            !matches!(m["type"].as_str(), Some("seats" | "update" | "sync" | "chat")),
            "the table sent {m} after its lease may have run out"
        );
    }

    // The database answers A again: the table is claimed again and runs.
    tx.rollback().await.unwrap();
    let mut third = a.client.connect_as(&bob.token).await.unwrap();
    let mut entered = false;
    for _ in 0..40 {
        third.send(&json!({ "type": "watch", "table": id })).await.unwrap();
        let m = third
            .until(Duration::from_secs(5), "an answer", |m| m["type"] == "sync" || m["type"] == "error")
            .await
            .unwrap();
        if m["type"] == "sync" {
            entered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(entered, "the table was not claimed again once the database answered");
    let holder = a.app.store.holders(std::slice::from_ref(&id)).await.unwrap().remove(0).1;
    assert!(holder.epoch >= 2, "{holder:?}");
}

/// Two nodes joined by a bus: a connection at one node plays at a table run by the other, and
/// when the running node stalls, the connection is told the table moved and enters it again at
/// the node that took it over.
async fn connections_reach_tables_on_other_nodes(bus_url: &str) {
    let (url, schema) = (url(), server::ids::new_id("bus_").unwrap());
    let timing = Timing { bot_delay_ms: 15, ..fast() };
    let a = node(&url, &schema, timing).await;
    let b = node(&url, &schema, timing).await;
    for n in [&a, &b] {
        join_bus(n, bus_url, &url).await;
    }
    let g = a.client.guest("Ann").await.unwrap();
    // Timed, so the pause between hands ends by itself (an untimed one waits for Ready).
    let body = json!({ "game": "madiao", "untimed": false, "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let created = a.client.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap();
    let id = created.table.id;
    // B's lobby lists the table A runs (as A last stored its summary).
    let listed = async || {
        let (_, lobby) = b.client.get("/api/tables").await.unwrap();
        lobby["tables"].as_array().unwrap().iter().any(|t| t["id"] == id.as_str())
    };
    common::eventually("B's lobby lists A's table", Duration::from_secs(5), listed).await;
    // Ann joins through B: her moves go to A, A's messages come back.
    let mut s = b.client.connect_as(&g.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    let sync = s
        .until(Duration::from_secs(5), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(sync["type"], "sync", "{sync}");
    assert!(b.app.table(&id).is_none(), "B runs the table it only routes to");
    s.send(&json!({ "type": "start" })).await.unwrap();
    let mut rng = cards::Rng::from_seed(5);
    let mut played = 0;
    let mut last_v = 0u64;
    let mut moved_at = None;
    let mut silences = 0;
    let end = tokio::time::Instant::now() + Duration::from_secs(30);
    while played < 12 {
        assert!(tokio::time::Instant::now() < end, "only {played} moves played through B");
        // A command sent as the table moves may be lost with the old task: the client asks for
        // the state again after a silence, as clients do.
        let Some(m) = s.recv_timeout(Duration::from_secs(2)).await.unwrap() else {
            silences += 1;
            assert!(silences <= 3, "silent {silences} times");
            s.send(&json!({ "type": "resync" })).await.unwrap();
            continue;
        };
        if let Some(v) = m["v"].as_u64() {
            assert!(
                m["type"] == "sync" || v > last_v || m["type"] == "error",
                "v went from {last_v} to {v}: {m}"
            );
            last_v = v;
        }
        if played == 5 && moved_at.is_none() {
            // A stalls: its lease runs out unrenewed; B (or A) claims the table again.
            let (pg, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
            tokio::spawn(conn);
            pg.batch_execute(&format!("SET search_path TO {schema}")).await.unwrap();
            pg.execute("UPDATE owners SET expires = '-infinity' WHERE table_id = $1", &[&id]).await.unwrap();
            moved_at = Some(a.app.store.actions(&id).await.unwrap().len());
        }
        let decide = matches!(m["type"].as_str(), Some("update" | "sync"));
        if decide && let Some(act) = client::random_action(&m["legal"], &mut rng) {
            s.send(&json!({ "type": "act", "action": act, "move": m["move"] })).await.unwrap();
            played += 1;
        }
    }
    // Moves were played after the stall, at whichever node holds the table now.
    let store = a.app.store.clone();
    let holders = store.holders(std::slice::from_ref(&id)).await.unwrap();
    assert_eq!(holders.len(), 1);
    assert!(holders[0].1.epoch >= 2, "the table was not claimed again: {holders:?}");
    let running = [&a, &b].iter().filter(|n| n.app.table(&id).is_some()).count();
    assert_eq!(running, 1, "{running} nodes run the table");
    let log = store.actions(&id).await.unwrap();
    assert!(log.len() > moved_at.unwrap(), "nothing was played after the move");
    assert!(log.iter().enumerate().all(|(i, a)| a.seq == i as u64), "the log has gaps");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_postgres_bus() {
    connections_reach_tables_on_other_nodes("postgres").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_redis_bus() {
    let redis = redis_url();
    connections_reach_tables_on_other_nodes(&redis).await;
}

/// A table is heard on the Redis bus as soon as its creation is answered: a join sent through
/// another node right after the table was made reaches its owner (a message to a channel nobody
/// hears yet is lost, and the join would wait out its 3 s for nothing). `PUBLISH` answers how
/// many subscribers heard it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_table_is_heard_on_the_bus_when_its_creation_is_answered() {
    let redis_url = redis_url();
    let (url, schema) = (url(), server::ids::new_id("heard_").unwrap());
    let a = node(&url, &schema, fast()).await;
    join_bus(&a, &redis_url, &url).await;
    let mut publisher =
        redis::aio::ConnectionManager::new(redis::Client::open(redis_url.as_str()).unwrap()).await.unwrap();
    let body: wire::NewTable = serde_json::from_value(
        json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] }),
    )
    .unwrap();
    // What is published: a connection that has gone (the table has nothing to do).
    let gone = serde_json::to_string(&server::cluster::BusMsg::Cmd {
        from: "test".into(),
        conn: u64::MAX,
        cmd: server::cluster::Command::Gone,
        attach: 0,
        at: 0,
    })
    .unwrap();
    let mut unheard = Vec::new();
    for i in 0..40 {
        let g = a.client.guest(&format!("Ann {i}")).await.unwrap();
        let id = a.client.create_table(&g.token, &body).await.unwrap().table.id;
        let channel = server::cluster::table_channel(&id);
        let n: i64 =
            redis::cmd("PUBLISH").arg(&channel).arg(&gone).query_async(&mut publisher).await.unwrap();
        if n == 0 {
            unheard.push(id);
        }
    }
    assert!(unheard.is_empty(), "{} new tables were not heard on the bus yet: {unheard:?}", unheard.len());
}

/// A join through another node that nobody heard (its table's node is not hearing the table's
/// channel yet, as just after a claim) is sent again until it is heard: answered as soon as the
/// table's node hears it, not after the 3 s a join may wait for its answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_nobody_heard_is_sent_again_until_the_tables_node_hears_it() {
    let redis_url = redis_url();
    let (url, schema) = (url(), server::ids::new_id("unheard_").unwrap());
    let a = node(&url, &schema, fast()).await;
    let b = node(&url, &schema, fast()).await;
    let a_bus = join_bus(&a, &redis_url, &url).await;
    join_bus(&b, &redis_url, &url).await;
    let g = a.client.guest("Ann").await.unwrap();
    let body = json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id = a.client.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
    // A stops hearing the table's channel, and hears it again 400 ms later.
    let channel = server::cluster::table_channel(&id);
    a_bus.unsubscribe(&channel).await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let again = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(400)).await;
        a_bus.subscribe(&channel, true).await.unwrap();
    });
    let asked = tokio::time::Instant::now();
    let mut s = b.client.connect_as(&g.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    let answer = s
        .until(Duration::from_secs(5), "an answer", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    let took = asked.elapsed();
    again.await.unwrap();
    assert_eq!(answer["type"], "sync", "{answer}");
    assert!(took >= Duration::from_millis(350), "answered after {took:?}, before A heard the channel");
    assert!(took < Duration::from_millis(2000), "answered after {took:?}");
}

/// A join through another node answered too late (the table's node was held up writing the
/// seat for longer than a join may wait) is forgotten: the person is told the node did not
/// answer, the late answer and what the table sends afterwards do not reach that connection
/// (were it later at the table through another entry, two streams with their own versions would
/// mix), and the table's node lets the entry go (the person is not shown present by a connection
/// that is not there).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_answered_too_late_is_forgotten() {
    let redis_url = redis_url();
    let (url, schema) = (url(), server::ids::new_id("late_").unwrap());
    let a = node(&url, &schema, fast()).await;
    let b = node(&url, &schema, fast()).await;
    for n in [&a, &b] {
        join_bus(n, &redis_url, &url).await;
    }
    let ann = a.client.guest("Ann").await.unwrap();
    let bob = b.client.guest("Bob").await.unwrap();
    let body = json!({ "game": "madiao",
        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id =
        a.client.create_table(&ann.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
    let mut host = a.client.connect_as(&ann.token).await.unwrap();
    host.send(&json!({ "type": "join", "table": id })).await.unwrap();
    host.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();

    // The open seat's row is locked: A's write of Bob taking it waits.
    let (mut pg, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    pg.batch_execute(&format!("SET search_path TO {schema}")).await.unwrap();
    let tx = pg.transaction().await.unwrap();
    tx.execute("SELECT 1 FROM seats WHERE table_id = $1 AND seat = 1 FOR UPDATE", &[&id]).await.unwrap();
    let mut s = b.client.connect_as(&bob.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    let answer = s
        .until(Duration::from_secs(6), "an answer", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(answer["type"], "error", "answered while the seat's write waited: {answer}");
    assert_eq!(answer["code"], "unavailable", "{answer}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    tx.rollback().await.unwrap();

    // A writes the seat and answers now, too late: nothing of the table reaches Bob.
    let until = tokio::time::Instant::now() + Duration::from_millis(1500);
    while let Some(m) =
        s.recv_timeout(until.saturating_duration_since(tokio::time::Instant::now())).await.unwrap()
    {
        assert!(
            !matches!(m["type"].as_str(), Some("sync" | "seats" | "update" | "chat")),
            "a forgotten entry brought {m}"
        );
    }
    // Bob holds the seat (the write was made), and is not present: A let the entry go.
    let seats = host
        .until(Duration::from_secs(3), "seats", |m| {
            m["type"] == "seats" && m["seats"][1]["present"] == false && m["seats"][1]["name"] == "Bob"
        })
        .await;
    assert!(seats.is_ok(), "Bob's seat was not shown taken and empty: {seats:?}");
    // Bob enters again, through B: one sync, and the versions go on from it.
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    let sync = s
        .until(Duration::from_secs(5), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(sync["type"], "sync", "{sync}");
}

/// A connection through a node that no longer hears the bus (it died, or is cut off) stops
/// counting at the table once its messages have gone unheard for two leases: the person is shown
/// not present (a dead node says nothing, and its connections would otherwise be counted
/// forever). When the node hears the bus again, the connection's next command finds its entry let
/// go, and it enters the table again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_whose_node_is_not_heard_is_let_go() {
    let redis_url = redis_url();
    let (url, schema) = (url(), server::ids::new_id("unheard_node_").unwrap());
    let a = node(&url, &schema, fast()).await;
    let b = node(&url, &schema, fast()).await;
    join_bus(&a, &redis_url, &url).await;
    let b_bus = join_bus(&b, &redis_url, &url).await;
    let ann = a.client.guest("Ann").await.unwrap();
    let bob = b.client.guest("Bob").await.unwrap();
    let body = json!({ "game": "madiao",
        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id =
        a.client.create_table(&ann.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
    let mut host = a.client.connect_as(&ann.token).await.unwrap();
    host.send(&json!({ "type": "join", "table": id })).await.unwrap();
    host.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
    let mut s = b.client.connect_as(&bob.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    let sync = s
        .until(Duration::from_secs(5), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(sync["type"], "sync", "{sync}");
    host.until(Duration::from_secs(3), "Bob present", |m| {
        m["type"] == "seats" && m["seats"][1]["present"] == true
    })
    .await
    .unwrap();

    // B stops hearing its own channel: A's messages to Bob go unheard. Ann talks meanwhile.
    let channel = server::cluster::node_channel(b.app.store.node());
    b_bus.unsubscribe(&channel).await.unwrap();
    let cut = tokio::time::Instant::now();
    let mut gone = None;
    for i in 0..20 {
        host.send(&json!({ "type": "chat", "text": format!("anyone there? {i}") })).await.unwrap();
        if let Ok(m) = host
            .until(Duration::from_millis(400), "Bob not present", |m| {
                m["type"] == "seats" && m["seats"][1]["present"] == false
            })
            .await
        {
            gone = Some(m);
            break;
        }
    }
    let took = cut.elapsed();
    assert!(gone.is_some(), "Bob was still shown present {took:?} after B stopped hearing the bus");
    assert!(took >= Duration::from_millis(LEASE_MS * 2), "let go after {took:?}, before two leases");

    // B hears the bus again: Bob's next command finds the entry let go, and he enters again.
    b_bus.subscribe(&channel, true).await.unwrap();
    while s.recv_timeout(Duration::from_millis(100)).await.unwrap().is_some() {}
    s.send(&json!({ "type": "resync" })).await.unwrap();
    let again = s
        .until(Duration::from_secs(5), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(again["type"], "sync", "{again}");
    host.until(Duration::from_secs(3), "Bob present again", |m| {
        m["type"] == "seats" && m["seats"][1]["present"] == true
    })
    .await
    .unwrap();
}

/// `yezi loadtest --nodes … --cross` on two nodes joined by the Redis bus: the tables are created
/// through both nodes, each table's people connect through the other one, and every move is
/// measured from one node to the other and back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_load_run_across_two_nodes() {
    let redis = redis_url();
    let (url, schema) = (url(), server::ids::new_id("load_").unwrap());
    let timing = Timing { window_ms: 200, draw_ms: 10, trick_ms: 50, pause_ms: 200, ..Timing::default() };
    let a = node(&url, &schema, timing).await;
    let b = node(&url, &schema, timing).await;
    for n in [&a, &b] {
        join_bus(n, &redis, &url).await;
    }
    let opts = server::loadtest::LoadOptions {
        addr: a.client.addr().to_string(),
        tables: 4,
        game: None,
        think_ms: (5, 20),
        duration: Duration::from_secs(3),
        warmup: Duration::from_millis(500),
        seed: 7,
        nodes: vec![b.client.addr().to_string()],
        cross: true,
        analyses: 0,
        events: None,
    };
    let report = server::loadtest::run(&opts, |_| {}).await.expect("the run");
    assert_eq!((report.tables, report.connections, report.nodes, report.cross), (4, 16, 2, true));
    assert!(report.moves > 0, "no move measured: {report}");
    assert_eq!((report.errors, report.gaps), (0, 0), "{report}");
    // Each node runs the tables created through it, and none of those it only routes to.
    let (at_a, at_b) = (a.app.table_count(), b.app.table_count());
    assert_eq!((at_a, at_b), (2, 2), "tables run by each node");
    assert!(report.to_string().contains("through another node than its owner"), "{report}");
}
