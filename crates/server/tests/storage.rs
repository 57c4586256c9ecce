//! The storage conformance suite, run against both backends: SQLite in a temporary file, and
//! PostgreSQL at `YEZI_TEST_POSTGRES_URL` (`./test.sh` starts a local server and sets it). The
//! PostgreSQL test fails, never skips, when that server cannot be reached.

use std::sync::Arc;

use server::store::{
    self, Leases, Store, StoreError, TableLog, conformance, postgres::PgStore, sqlite::SqliteStore,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_passes_the_conformance_suite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("yezi.db").to_string_lossy().into_owned();
    let open = || {
        let path = path.clone();
        async move { SqliteStore::open(&path).map(|s| Arc::new(s) as Arc<dyn Store>) }
    };
    conformance::run(open).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_passes_the_conformance_suite() {
    let url = std::env::var("YEZI_TEST_POSTGRES_URL").unwrap_or_else(|_| {
        panic!(
            "YEZI_TEST_POSTGRES_URL is not set: the PostgreSQL conformance suite needs a server. \
             Run ./test.sh, which installs and starts a local PostgreSQL and sets it, or set it to \
             postgres://USER@127.0.0.1:PORT/DB yourself."
        )
    });
    let schema = server::ids::new_id("conformance_").unwrap();
    let open = || {
        let (url, schema) = (url.clone(), schema.clone());
        async move {
            PgStore::connect(&url, Some(&schema)).await.map(|s| Arc::new(s) as Arc<dyn Store>).map_err(|e| {
                StoreError::Backend(format!(
                    "PostgreSQL at YEZI_TEST_POSTGRES_URL={url} cannot be reached: {e}"
                ))
            })
        }
    };
    conformance::run(open).await.unwrap();
}

#[tokio::test]
async fn open_picks_the_backend_from_the_url() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.db");
    let s = store::open(path.to_str().unwrap()).await.unwrap();
    assert_eq!(s.backend(), "sqlite");
    let s = store::open(&format!("sqlite:{}", dir.path().join("b.db").display())).await.unwrap();
    assert_eq!(s.backend(), "sqlite");
    assert!(dir.path().join("b.db").exists());
    let e = store::open("mysql://localhost/x").await.err().unwrap();
    assert!(e.to_string().contains("unsupported database URL"), "{e}");
}

/// Leases run out unless renewed: a table whose holder stopped renewing can be claimed by
/// another node, and its old holder can no longer write it (claimed or not).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_leases_run_out_unless_renewed() {
    use server::store::{FIRST_EPOCH, OpenOptions, SeatRow, TableRow, TableStatus, Write};
    let url = std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL");
    use std::time::{Duration, Instant};
    let schema = server::ids::new_id("leases_").unwrap();
    // Each step below must come within a lease of the one before it on a loaded machine (a
    // database call there took over 250 ms, past the margin a 600 ms lease left), so the lease
    // is long and every wait is timed from when the lease it tests was taken or renewed.
    let lease = Duration::from_millis(2_000);
    let options = OpenOptions { pool: 2, lease_ms: lease.as_millis() as u64 };
    let a = PgStore::connect_with(&url, Some(&schema), options).await.unwrap();
    let b = PgStore::connect_with(&url, Some(&schema), options).await.unwrap();
    let table = |id: &str| TableRow {
        id: id.to_string(),
        game: "madiao".into(),
        settings: "{}".into(),
        seed: 7,
        host: None,
        status: TableStatus::Playing,
        created_ms: 1,
        seats: [SeatRow::Open, SeatRow::Open, SeatRow::Open, SeatRow::Open],
    };
    let move_no = |seq: u64| {
        [Write::Actions(vec![server::store::LoggedAction { seq, hand: 0, seat: 0, action: "{}".into() }])]
    };
    // Before the first lease is taken: every lease runs out no sooner than a lease after this.
    let taken = Instant::now();
    for id in ["t_kept", "t_lost", "t_stale"] {
        a.create_table(&table(id)).await.unwrap();
    }
    assert!(b.claim_orphans(16).await.unwrap().is_empty(), "fresh leases were claimed");
    // `a` renews a third of a lease in: t_kept stays its own.
    tokio::time::sleep_until((taken + lease / 3).into()).await;
    let renewing = Instant::now();
    a.write_step("t_stale", FIRST_EPOCH, &move_no(0)).await.unwrap();
    let held = a.renew_leases().await.unwrap();
    assert!(
        matches!(&held, server::store::Held::Only(h) if h.len() == 3),
        "{held:?}, renewed {:?} after the first lease was taken",
        taken.elapsed()
    );
    // A third of a lease after the renewal, nothing is anyone else's to claim.
    tokio::time::sleep_until((renewing + lease / 3).into()).await;
    assert!(b.claim_orphans(16).await.unwrap().is_empty(), "renewed leases were claimed");
    // Then `a` stalls: past the lease, its writes are refused even before anyone claims.
    let renewed = Instant::now();
    tokio::time::sleep_until((renewed + lease + Duration::from_millis(100)).into()).await;
    let w = a.write_step("t_stale", FIRST_EPOCH, &move_no(1)).await;
    assert!(matches!(w, Err(StoreError::Fenced(_))), "a run-out lease wrote: {w:?}");
    let mut claimed: Vec<(String, i64)> =
        b.claim_orphans(16).await.unwrap().into_iter().map(|(t, e)| (t.id, e)).collect();
    claimed.sort();
    assert_eq!(
        claimed,
        vec![("t_kept".to_string(), 2), ("t_lost".to_string(), 2), ("t_stale".to_string(), 2)]
    );
    // Back from its stall, `a` holds nothing and cannot write; `b` writes on.
    assert_eq!(a.renew_leases().await.unwrap(), server::store::Held::Only(Default::default()));
    let w = a.write_step("t_stale", FIRST_EPOCH, &move_no(1)).await;
    assert!(matches!(w, Err(StoreError::Fenced(_))), "the stalled node wrote after the claim: {w:?}");
    b.write_step("t_stale", 2, &move_no(1)).await.unwrap();
    assert_eq!(b.actions("t_stale").await.unwrap().len(), 2);
}

/// A node paused in the middle of a step (its fence's lock on the lease row taken, its commit
/// not yet sent) does not keep its table from the others: the database ends its transaction
/// once it has idled for a lease, and another node claims the table as soon as the lease is out.
/// (Before, the claim's `SKIP LOCKED` passed the locked row by for as long as the pause lasted:
/// a paused node's table stood still until the node woke.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_paused_in_the_middle_of_a_step_does_not_keep_its_table() {
    use server::store::{FIRST_EPOCH, OpenOptions, SeatRow, TableRow, TableStatus};
    use std::time::{Duration, Instant};
    let url = std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL");
    let schema = server::ids::new_id("midstep_").unwrap();
    let lease = Duration::from_millis(600);
    let options = OpenOptions { pool: 2, lease_ms: lease.as_millis() as u64 };
    let a = Arc::new(PgStore::connect_with(&url, Some(&schema), options).await.unwrap());
    let b = PgStore::connect_with(&url, Some(&schema), options).await.unwrap();
    let row = TableRow {
        id: "t_paused".into(),
        game: "madiao".into(),
        settings: "{}".into(),
        seed: 7,
        host: None,
        status: TableStatus::Playing,
        created_ms: 1,
        seats: [SeatRow::Open, SeatRow::Open, SeatRow::Open, SeatRow::Open],
    };
    a.create_table(&row).await.unwrap();
    // `a` stops in the middle of a step for ten leases.
    let pause = lease * 10;
    let started = Instant::now();
    let paused = {
        let a = a.clone();
        tokio::spawn(async move { a.pause_in_step("t_paused", FIRST_EPOCH, pause).await })
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    // `b` tries to claim it, as a node's upkeep does every third of a lease.
    let claimed = loop {
        if let Some((t, epoch)) = b.claim_table("t_paused").await.unwrap() {
            break Some((t.id, epoch, started.elapsed()));
        }
        if started.elapsed() > pause {
            break None;
        }
        tokio::time::sleep(lease / 3).await;
    };
    let (id, epoch, took) = claimed.expect("the paused node's table was not claimed during its pause");
    assert_eq!((id.as_str(), epoch), ("t_paused", FIRST_EPOCH + 1));
    // The lease runs out a lease after its creation; the transaction ends a lease after its
    // last statement; the claims come every third of a lease.
    assert!(took < lease * 3, "claimed only {took:?} into the pause");
    // The paused step's commit, when it comes, fails: its transaction was ended.
    let commit = paused.await.unwrap();
    assert!(commit.is_err(), "the paused step committed after its table was claimed: {commit:?}");
}

/// A PostgreSQL database of the first layout (before rows named the lease they were written
/// under) is migrated when a node opens it: its rows stay as they were, counted as unstamped by
/// the provenance audit; the leases current then are kept; rows written from then on name their
/// lease; and a database of a later layout than this code knows is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_databases_of_the_first_layout_are_migrated() {
    use server::store::{ChatRow, LoggedAction, Write};
    let url = std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL");
    let schema = server::ids::new_id("migrate_").unwrap();
    // The first layout: today's, less what version 2 added.
    PgStore::connect(&url, Some(&schema)).await.unwrap();
    let (pg, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    pg.batch_execute(&format!(
        "SET search_path TO {schema};
         ALTER TABLE actions DROP COLUMN epoch, DROP COLUMN node;
         ALTER TABLE chat DROP COLUMN epoch, DROP COLUMN node;
         DROP TABLE leases;
         DELETE FROM meta WHERE key = 'schema_version';
         INSERT INTO tables (id, game, settings, seed, host, status, created_ms)
             VALUES ('t_old', 'madiao', '{{}}', 7, NULL, 'playing', 1);
         INSERT INTO seats (table_id, seat, kind) VALUES ('t_old', 0, 'open'), ('t_old', 1, 'open'),
             ('t_old', 2, 'open'), ('t_old', 3, 'open');
         INSERT INTO actions (table_id, seq, hand, seat, action) VALUES ('t_old', 0, 0, 0, '{{}}'),
             ('t_old', 1, 0, 1, '{{}}');
         INSERT INTO chat (table_id, seq, at_ms, name, text) VALUES ('t_old', 0, 1, 'Ann', 'hi');
         INSERT INTO owners (table_id, node, epoch, expires) VALUES ('t_old', 'old', 3, '-infinity');"
    ))
    .await
    .unwrap();
    // A node opens it: migrated.
    let store = PgStore::connect(&url, Some(&schema)).await.unwrap();
    let version: String =
        pg.query_one("SELECT value FROM meta WHERE key = 'schema_version'", &[]).await.unwrap().get(0);
    assert_eq!(version, "2");
    assert_eq!(store.actions("t_old").await.unwrap().len(), 2, "the old log reads as before");
    let p = store.provenance("t_old").await.unwrap();
    let audit = p.audit("t_old");
    assert_eq!((audit.rows, audit.unstamped, audit.stale.len()), (3, 3, 0), "{audit:?}");
    assert_eq!(p.leases.len(), 1);
    assert_eq!((p.leases[0].epoch, p.leases[0].node.as_str(), p.leases[0].log_from), (3, "old", None));
    // The node claims the orphaned table and writes: its rows name the lease.
    let (_, epoch) = store.claim_table("t_old").await.unwrap().expect("the orphan is claimed");
    assert_eq!(epoch, 4);
    let chat = ChatRow { seq: 1, at_ms: 2, guest: None, name: "Bo".into(), seat: None, text: "yo".into() };
    let step = [
        Write::Actions(vec![LoggedAction { seq: 2, hand: 0, seat: 2, action: "{}".into() }]),
        Write::Chat(chat),
    ];
    store.write_step("t_old", epoch, &step).await.unwrap();
    let p = store.provenance("t_old").await.unwrap();
    let audit = p.audit("t_old");
    assert_eq!((audit.rows, audit.unstamped, audit.stale.len()), (5, 3, 0), "{audit:?}");
    assert_eq!((p.actions[2].epoch, p.actions[2].node.as_deref()), (Some(4), Some(store.node())));
    assert_eq!((p.chat[1].epoch, p.chat[1].node.as_deref()), (Some(4), Some(store.node())));
    assert_eq!((p.leases[1].epoch, p.leases[1].log_from, p.leases[1].chat_from), (4, Some(2), Some(1)));
    // Opened again: nothing changes (the migration ran once).
    PgStore::connect(&url, Some(&schema)).await.unwrap();
    assert_eq!(store.provenance("t_old").await.unwrap(), p);
    // A later layout is refused.
    pg.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'", &[]).await.unwrap();
    let e = PgStore::connect(&url, Some(&schema)).await.err().expect("a later layout is refused");
    assert!(e.to_string().contains("newer yezi"), "{e}");
}
