//! Table management over the WebSocket: everyone at a table is told, live, the names of the
//! people watching it.

mod common;

use std::time::Duration;

use common::TestServer;
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(10);

fn watchers(m: &Value) -> Vec<String> {
    m["watchers"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_people_at_a_table_see_who_watches_as_they_come_and_go() {
    let t = TestServer::start(common::fast()).await;
    let ann = t.guest("Ann").await;
    let bo = t.guest("Bo").await;
    let cy = t.guest("Cy").await;
    // A table with an open seat: it waits, nothing moves but the seats.
    let body = json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id = t.table(&ann, body).await;
    let (mut a, sync) = t.join(&ann, &id, None).await;
    assert_eq!(watchers(&sync), Vec::<String>::new());
    // Bo watches: Ann is told his name; his own sync lists him.
    let mut b = t.client.connect_as(&bo.token).await.unwrap();
    b.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let bsync = b.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    assert_eq!(watchers(&bsync), ["Bo"]);
    let seen =
        a.until(WAIT, "seats with Bo", |m| m["type"] == "seats" && m["spectators"] == 1).await.unwrap();
    assert_eq!(watchers(&seen), ["Bo"]);
    // Cy watches too; then Bo goes: both told.
    let mut c = t.client.connect_as(&cy.token).await.unwrap();
    c.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    c.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    let seen =
        a.until(WAIT, "seats with Cy", |m| m["type"] == "seats" && m["spectators"] == 2).await.unwrap();
    assert_eq!(watchers(&seen), ["Bo", "Cy"]);
    b.close().await;
    let seen =
        a.until(WAIT, "seats without Bo", |m| m["type"] == "seats" && m["spectators"] == 1).await.unwrap();
    assert_eq!(watchers(&seen), ["Cy"]);
    let seen =
        c.until(WAIT, "seats without Bo", |m| m["type"] == "seats" && m["spectators"] == 1).await.unwrap();
    assert_eq!(watchers(&seen), ["Cy"]);
    // Cy takes the open seat (on a second connection): a player now, not listed as watching,
    // though her first connection still watches.
    let (_c2, _) = t.join(&cy, &id, Some(1)).await;
    let seen = a
        .until(WAIT, "seats with Cy seated", |m| m["type"] == "seats" && m["seats"][1]["name"] == "Cy")
        .await
        .unwrap();
    assert_eq!((watchers(&seen), seen["spectators"].clone()), (Vec::<String>::new(), json!(1)));
}
