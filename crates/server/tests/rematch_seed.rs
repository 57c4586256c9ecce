//! A server given `--table-seed` draws every table's seed from it, a rematch's table as much as
//! a table its host asks for: both are made by the one `Tables::create`.

use crate::common;

use std::time::Duration;

use common::TestServer;
use serde_json::json;
use server::Config;

const WAIT: Duration = Duration::from_secs(10);

/// Before the tables had one way to be made, a rematch took its seed from the operating system
/// whatever the server's table seed was (this test failed then).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_takes_its_seed_from_the_servers_table_seed() {
    let config = Config {
        timing: common::fast(),
        limits: common::fast_limits(),
        table_seed: Some(2024),
        ..Default::default()
    };
    let t = TestServer::start_config(config).await;
    let ann = t.guest("Ann").await;
    let body = json!({ "game": "madiao", "variants": {"game_length": "hands:1"},
        "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id = t.table(&ann, body).await;
    let (mut a, _) = t.join(&ann, &id, None).await;
    let seen = common::play_randomly(&mut a, 3, Duration::from_secs(60)).await;
    assert!(seen.last().is_some_and(common::match_over), "the match ended");
    t.record_within(&id, WAIT).await.expect("the record");
    a.send(&json!({ "type": "rematch" })).await.unwrap();
    let m = a.until(WAIT, "rematch", |m| m["type"] == "host").await.unwrap();
    let new = m["event"]["table"].as_str().expect("the rematch's table").to_string();
    let mut seeds = cards::Rng::from_seed(2024);
    let (first, second) = (seeds.next_u64(), seeds.next_u64());
    let seed_of = |table: String| {
        let store = t.app.store.clone();
        async move { store.table(&table).await.unwrap().expect("the table is stored").seed }
    };
    assert_eq!(seed_of(id).await, first, "the first table's seed is the first of the server's");
    assert_eq!(seed_of(new).await, second, "the rematch's seed is the next of the server's");
}
