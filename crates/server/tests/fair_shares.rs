//! Fair shares of the server (issue 28): tables of bots only are bounded per guest and per
//! address, with a clear error. (The bots' own threads and their turns are tested in
//! `src/pool.rs` and `src/tables/bots.rs`; the figures are `yezi loadtest --scenario starve`
//! and `--scenario signins`, docs/performance.md.)

use crate::common;

use serde_json::{Value, json};
use server::tables::bots::BotLimits;
use table::settings::Timing;

use common::{TestServer, fast, fast_limits};

fn bots() -> Value {
    json!({ "game": "madiao", "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_of_bots_only_are_bounded_per_guest_and_per_address() {
    let mut limits = fast_limits();
    limits.bots = BotLimits { tables_per_guest: 2, tables_per_ip: 3, ..BotLimits::default() };
    // Bots that wait a minute before each move: the matches stay unfinished.
    let srv = TestServer::start_with(Timing { bot_delay_ms: 60_000, ..fast() }, limits).await;
    let code = |v: &Value| v["error"]["code"].as_str().unwrap_or_default().to_string();
    let ann = srv.guest("Ann").await;
    let bo = srv.guest("Bo").await;
    for _ in 0..2 {
        let (s, b) = srv.client.post("/api/tables", &bots(), Some(&ann.token)).await.unwrap();
        assert_eq!(s, 201, "{b}");
    }
    let (s, b) = srv.client.post("/api/tables", &bots(), Some(&ann.token)).await.unwrap();
    assert_eq!((s, code(&b)), (429, "too_many_tables".into()), "{b}");
    let msg = b["error"]["message"].as_str().unwrap();
    assert!(msg.contains("tables of bots only") && msg.contains("a guest may host 2"), "{msg}");
    // A table where the host sits is not one of them.
    let mine = json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let (s, b) = srv.client.post("/api/tables", &mine, Some(&ann.token)).await.unwrap();
    assert_eq!(s, 201, "{b}");
    // Another guest of the same address: one more, then the address's bound.
    let (s, b) = srv.client.post("/api/tables", &bots(), Some(&bo.token)).await.unwrap();
    assert_eq!(s, 201, "{b}");
    let (s, b) = srv.client.post("/api/tables", &bots(), Some(&bo.token)).await.unwrap();
    assert_eq!((s, code(&b)), (429, "too_many_tables".into()), "{b}");
    assert!(b["error"]["message"].as_str().unwrap().contains("your address"), "{b}");
    // A guest of another address is not held back by them.
    let other = client::Client::with_local_address(srv.client.addr(), "127.0.0.2".parse().unwrap());
    let cy = other.guest("Cy").await.unwrap();
    let (s, b) = other.post("/api/tables", &bots(), Some(&cy.token)).await.unwrap();
    assert_eq!(s, 201, "{b}");
}
