//! A backup of a cluster's PostgreSQL database with `pg_dump`, taken while its node runs, and
//! restored with `pg_restore` into a fresh database: a node started on the restored database
//! serves what was there — a finished game's record, an account's session, and an unfinished
//! table parked on its person's move, which plays on from where the backup left it when he
//! comes back (`docs/deploy.md`, "Backups").
//! Needs `YEZI_TEST_POSTGRES_URL` (`./test.sh` starts a local PostgreSQL) and PostgreSQL's
//! client programs (`YEZI_TEST_PG_BIN`, else `/usr/lib/postgresql/15/bin`); fails, never skips,
//! without them.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use client::Client;
use serde_json::{Value, json};
use server::store::OpenOptions;
use server::store::TableStatus;
use server::store::postgres::PgStore;
use server::{App, Config};
use table::settings::Timing;

/// Not shorter: a transaction idle longer than a lease is ended by the database, and on a loaded
/// machine a node's start (its migrations' transaction) was ended at 600 ms.
const LEASE_MS: u64 = 2_000;

fn env_url() -> String {
    std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL")
}

fn pg_bin(program: &str) -> String {
    let dir = std::env::var("YEZI_TEST_PG_BIN").unwrap_or_else(|_| "/usr/lib/postgresql/15/bin".into());
    format!("{dir}/{program}")
}

/// A node on the database at `url` with `timing`: the app, its client, and its server's task.
async fn node(url: &str, timing: Timing) -> (Arc<App>, Client, tokio::task::JoinHandle<()>) {
    let store = Arc::new(
        PgStore::connect_with(url, None, OpenOptions { pool: 4, lease_ms: LEASE_MS }).await.unwrap(),
    );
    let config = Config { timing, limits: common::fast_limits(), lease_ms: LEASE_MS, table_seed: None };
    let app = App::start(store, config).await.unwrap();
    let (addr, task) = common::listen(&app).await;
    (app, Client::new(&addr), task)
}

/// Runs one of PostgreSQL's programs; fails the test with its output when it fails.
fn run(program: &str, args: &[&str]) {
    let out = std::process::Command::new(pg_bin(program))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{} cannot run: {e}", pg_bin(program)));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Joins table `id` with `token`; the `sync`.
async fn join(c: &Client, token: &str, id: &str) -> (client::Socket, Value) {
    let mut s = c.connect_as(token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    let m = s
        .until(Duration::from_secs(10), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(m["type"], "sync", "{m}");
    (s, m)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pg_dump_of_a_running_node_restores_into_a_fresh_database_that_serves_it() {
    let base = env_url();
    let (admin, conn) = tokio_postgres::connect(&base, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let src = server::ids::new_id("bk_src_").unwrap().to_lowercase();
    let dst = server::ids::new_id("bk_dst_").unwrap().to_lowercase();
    for db in [&src, &dst] {
        admin.batch_execute(&format!("CREATE DATABASE {db}")).await.unwrap();
    }
    let (head, _) = base.rsplit_once('/').unwrap();
    let (src_url, dst_url) = (format!("{head}/{src}"), format!("{head}/{dst}"));

    // The node before the backup: an account with a session, a finished one-hand match, and a
    // table waiting for the account's move. Its tables park soon after nobody is connected.
    let (a, ca, a_task) = node(&src_url, Timing { park_ms: 200, ..common::fast() }).await;
    let g = ca.guest("Ann").await.unwrap();
    let session = ca.claim_account(&g.token, "ann_backup", "a long enough password").await.unwrap();
    // The longest grace period: nothing is played for Ann while she is away before the table parks.
    let body = json!({ "game": "madiao", "variants": { "game_length": "hands:1" }, "grace_seconds": 120,
        "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let done = ca
        .create_table(&session.token, &serde_json::from_value(body.clone()).unwrap())
        .await
        .unwrap()
        .table
        .id;
    let (mut s, _) = join(&ca, &session.token, &done).await;
    common::play_randomly(&mut s, 7, Duration::from_secs(60)).await;
    common::eventually("the record is stored", Duration::from_secs(10), async || {
        a.store.record(&done).await.unwrap().is_some()
    })
    .await;
    let (status, record) = ca.get_text(&format!("/api/records/{done}")).await.unwrap();
    assert_eq!(status, 200, "{record}");
    // A table whose bots play until it is Ann's turn (an untimed table alone with bots waits for
    // her). A Madiao deal can be over once dealt (a meld, the four lowest): that one-hand table
    // finishes with no turn for her, and the next table is tried.
    let mut rng = cards::Rng::from_seed(9);
    let mut last = Value::Null;
    let mut found = None;
    for _ in 0..5 {
        let open = ca
            .create_table(&session.token, &serde_json::from_value(body.clone()).unwrap())
            .await
            .unwrap()
            .table
            .id;
        let (mut s, _) = join(&ca, &session.token, &open).await;
        // Bounded by time, not by tries: on a loaded machine the bots take longer than 200 quick polls.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while tokio::time::Instant::now() < deadline {
            s.send(&json!({ "type": "resync" })).await.unwrap();
            let m = s.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
            if client::random_action(&m["legal"], &mut rng).is_some() {
                found = Some((open.clone(), s, m));
                break;
            }
            let over = m["table"]["status"] == "finished";
            last = m;
            if over {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if found.is_some() {
            break;
        }
    }
    let (open, s, before) = found.unwrap_or_else(|| panic!("Ann's turn comes; the last state: {last}"));
    // Ann leaves; within her grace period the table parks (nobody connected). A node that resumes
    // a playing table with nobody connected has bots stand in for its people at once: resumed
    // unparked, the one-hand match could be over before Ann is back (a loaded machine is slow to
    // restore the dump and start the node, and the lease has run out by then).
    drop(s);
    common::eventually("Ann's table parks", Duration::from_secs(10), async || {
        a.store.table(&open).await.unwrap().is_some_and(|t| t.status == TableStatus::Parked)
    })
    .await;
    // Its log as the backup will hold it.
    let logged = format!("{:?}", a.store.actions(&open).await.unwrap());

    // The backup, taken while the node runs; then a restore into the fresh database.
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("yezi.dump");
    let dump = dump.to_str().unwrap();
    run("pg_dump", &["--format=custom", "--file", dump, &src_url]);
    run("pg_restore", &["--no-owner", "--exit-on-error", "--dbname", &dst_url, dump]);
    // The first node is gone (its machine lost, say).
    a_task.abort();
    drop(a);

    // A node on the restored database.
    let (b, cb, b_task) = node(&dst_url, common::fast()).await;
    // The record, as it was served before.
    let (status, again) = cb.get_text(&format!("/api/records/{done}")).await.unwrap();
    assert_eq!(status, 200, "{again}");
    assert_eq!(again, record, "the record comes back as it was");
    // The session still signs Ann in.
    let me = cb.account(&session.token).await.unwrap();
    assert_eq!(me.username, "ann_backup");
    // The table plays on once the old node's lease has run out (it stays parked until then): Ann
    // finds it where she left it.
    let ids = [open.clone()];
    common::eventually("the old node's lease runs out", Duration::from_secs(10), async || {
        b.store.holders(&ids).await.unwrap().iter().all(|(_, h)| h.node == b.store.node())
    })
    .await;
    let (mut s, sync) = join(&cb, &session.token, &open).await;
    // Where the backup left it, or further on (a decision window the bots answered before it
    // parked): the restored log begins with the backed-up one.
    assert!(sync["move"].as_u64() >= before["move"].as_u64(), "{sync}");
    let restored = format!("{:?}", b.store.actions(&open).await.unwrap());
    assert!(
        restored.starts_with(logged.trim_end_matches(']')),
        "the restored log does not begin with the backed-up one:\n{logged}\n{restored}"
    );
    common::play_randomly(&mut s, 8, Duration::from_secs(60)).await;
    common::eventually("the restored table's record is stored", Duration::from_secs(10), async || {
        b.store.record(&open).await.unwrap().is_some()
    })
    .await;

    b_task.abort();
    drop(b);
    for db in [&src, &dst] {
        admin.batch_execute(&format!("DROP DATABASE {db} WITH (FORCE)")).await.unwrap();
    }
}
