//! Sessions and the lobby's order go by the database's clock, not the node's wall clock (issue
//! 32, item 8): a node whose clock is 31 days fast neither expires a session made elsewhere nor
//! dates its sessions and tables by its own clock. The node's clock is set wrong with
//! `server::ids::set_clock_skew_ms` (this file is its own process: the skew is global); the
//! SQLite database's clock is the machine's.

use crate::common;

use std::time::Duration;

use common::{TestServer, fast};
use serde_json::json;

const DAY_MS: i64 = 24 * 3600 * 1000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_31_days_fast_keeps_sessions_and_dates_by_the_database() {
    let srv = TestServer::start(fast()).await;
    let c = &srv.client;
    let g = srv.guest("Ann").await;
    let made = c.claim_account(&g.token, "ann", "a long enough password").await.unwrap();
    let session_ms = made.expires_ms - server::ids::machine_now_ms();
    assert!(session_ms > 31 * DAY_MS / 2, "sessions last long enough for the test: {session_ms} ms");

    // The node's wall clock jumps 31 days ahead (beyond a session's life).
    server::ids::set_clock_skew_ms(31 * DAY_MS);
    assert!(server::ids::now_ms() - server::ids::machine_now_ms() > 30 * DAY_MS);

    // The session made before still holds here.
    let account = c.account(&made.token).await;
    assert!(account.is_ok(), "a session made by the database's clock expired by the node's: {account:?}");
    // A new session and a new table are dated by the database's clock.
    let signed = c.sign_in("ann", "a long enough password").await.unwrap();
    let now = server::ids::machine_now_ms();
    assert!(
        (signed.expires_ms - (now + session_ms)).abs() < 60_000,
        "{} vs {}",
        signed.expires_ms,
        now + session_ms
    );
    let host = srv.guest("Bob").await;
    let id = srv.table(&host, json!({ "game": "madiao" })).await;
    let row = srv.app.store.table(&id).await.unwrap().unwrap();
    assert!(
        (row.created_ms - now).abs() < 60_000,
        "created at {} by a clock {} ms off",
        row.created_ms,
        row.created_ms - now
    );
    // And it goes on holding a while later.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(c.account(&signed.token).await.is_ok());
    server::ids::set_clock_skew_ms(0);
}
