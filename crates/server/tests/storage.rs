//! The storage conformance suite, run against both backends: SQLite in a temporary file, and
//! PostgreSQL at `YEZI_TEST_POSTGRES_URL` (`./test.sh` starts a local server and sets it). The
//! PostgreSQL test fails, never skips, when that server cannot be reached.

use std::sync::Arc;

use server::store::{self, Store, StoreError, conformance, postgres::PgStore, sqlite::SqliteStore};

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
    let schema = server::ids::new_id("leases_").unwrap();
    let options = OpenOptions { pool: 2, lease_ms: 600 };
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
    for id in ["t_kept", "t_lost", "t_stale"] {
        a.create_table(&table(id)).await.unwrap();
    }
    assert!(b.claim_orphans(16).await.unwrap().is_empty(), "fresh leases were claimed");
    // `a` renews halfway through: t_kept stays its own.
    tokio::time::sleep(std::time::Duration::from_millis(350)).await;
    a.write_step("t_stale", FIRST_EPOCH, &move_no(0)).await.unwrap();
    let held = a.renew_leases().await.unwrap();
    assert!(matches!(&held, server::store::Held::Only(h) if h.len() == 3), "{held:?}");
    tokio::time::sleep(std::time::Duration::from_millis(350)).await;
    assert!(b.claim_orphans(16).await.unwrap().is_empty(), "renewed leases were claimed");
    // Then `a` stalls: past the lease, its writes are refused even before anyone claims.
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
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
