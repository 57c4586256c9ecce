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
