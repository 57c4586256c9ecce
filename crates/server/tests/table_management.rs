//! Table management over the WebSocket: everyone at a table is told, live, the names of the
//! people watching it; the host closes a table, removes a person who is away, and offers a
//! rematch at the end.

use crate::common;

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

/// A table of Ann (the host, seat 0), Bo (seat 1) and two bots, its match under way; Ann's and
/// Bo's connections.
async fn ann_and_bo(
    t: &TestServer,
    hands: &str,
) -> (String, client::Socket, client::Socket, [client::GuestToken; 2]) {
    let ann = t.guest("Ann").await;
    let bo = t.guest("Bo").await;
    let body = json!({ "game": "madiao", "variants": {"game_length": hands},
        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] });
    let id = t.table(&ann, body).await;
    let (a, _) = t.join(&ann, &id, None).await;
    let (b, _) = t.join(&bo, &id, Some(1)).await;
    (id, a, b, [ann, bo])
}

async fn error_of(s: &mut client::Socket) -> Value {
    s.until(WAIT, "an error", |m| m["type"] == "error").await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_closes_a_table_everyone_is_told_and_it_stays_closed_after_a_restart() {
    let t = TestServer::start(common::fast()).await;
    let (id, mut a, mut b, _) = ann_and_bo(&t, "hands:8").await;
    let cy = t.guest("Cy").await;
    let mut c = t.client.connect_as(&cy.token).await.unwrap();
    c.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    c.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    // Neither a player nor a spectator who is not the host may close it.
    b.send(&json!({ "type": "close" })).await.unwrap();
    assert_eq!(error_of(&mut b).await["code"], "not_host");
    c.send(&json!({ "type": "close" })).await.unwrap();
    assert_eq!(error_of(&mut c).await["code"], "not_host");
    let (_, lobby) = t.client.get("/api/tables").await.unwrap();
    assert!(lobby["tables"].as_array().unwrap().iter().any(|x| x["id"] == id.as_str()));
    // The host closes it: everyone is told, by name.
    a.send(&json!({ "type": "close" })).await.unwrap();
    for s in [&mut a, &mut b, &mut c] {
        let m = s.until(WAIT, "closed", |m| m["type"] == "host").await.unwrap();
        assert_eq!(m["event"]["kind"], "closed", "{m}");
        assert_eq!(m["event"]["by"], "Ann");
    }
    let (_, info) = t.client.get(&format!("/api/tables/{id}")).await.unwrap();
    assert_eq!(info["status"], "closed");
    let (_, lobby) = t.client.get("/api/tables").await.unwrap();
    assert!(!lobby["tables"].as_array().unwrap().iter().any(|x| x["id"] == id.as_str()), "not in the lobby");
    // No record, with a clear answer; nothing more can be done at it.
    let (status, body) = t.client.get(&format!("/api/records/{id}")).await.unwrap();
    assert_eq!((status, body["error"]["code"].clone()), (409, json!("closed")), "{body}");
    b.send(&json!({ "type": "act", "action": {"pass": true} })).await.unwrap();
    assert_eq!(error_of(&mut b).await["code"], "closed");
    a.send(&json!({ "type": "close" })).await.unwrap();
    assert_eq!(error_of(&mut a).await["code"], "closed");
    let dee = t.guest("Dee").await;
    let mut d = t.client.connect_as(&dee.token).await.unwrap();
    d.send(&json!({ "type": "join", "table": id })).await.unwrap();
    assert_eq!(error_of(&mut d).await["code"], "closed");
    // A server started again on the same database does not resume it.
    let row = t.app.store.table(&id).await.unwrap().unwrap();
    assert_eq!(row.status, server::store::TableStatus::Closed);
    assert!(!t.app.store.unfinished_tables().await.unwrap().iter().any(|r| r.id == id));
    assert_eq!(t.app.store.claim_table(&id).await.unwrap(), None);
    assert_eq!(t.app.store.hosted_tables(&row.host.unwrap()).await.unwrap(), 0, "not counted as unfinished");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_removes_an_away_person_only_and_he_may_watch_when_he_comes_back() {
    let t = TestServer::start(common::fast()).await;
    let (id, mut a, mut b, [_, bo]) = ann_and_bo(&t, "hands:8").await;
    // Bo is at the table: not removed; and Bo may not remove anyone.
    a.send(&json!({ "type": "remove", "seat": 1 })).await.unwrap();
    let e = error_of(&mut a).await;
    assert_eq!(e["code"], "not_away", "{e}");
    b.send(&json!({ "type": "remove", "seat": 0 })).await.unwrap();
    assert_eq!(error_of(&mut b).await["code"], "not_host");
    a.send(&json!({ "type": "remove", "seat": 2 })).await.unwrap();
    assert_eq!(error_of(&mut a).await["code"], "bad_message", "a bot's seat");
    // Bo's connection drops: away (his grace period runs); Ann removes him.
    b.close().await;
    a.until(WAIT, "Bo gone", |m| m["type"] == "seats" && m["seats"][1]["present"] == false).await.unwrap();
    a.send(&json!({ "type": "remove", "seat": 1 })).await.unwrap();
    let m = a.until(WAIT, "removed", |m| m["type"] == "host").await.unwrap();
    assert_eq!(m["event"], json!({"kind": "removed", "seat": 1, "name": "Bo"}));
    let (_, info) = t.client.get(&format!("/api/tables/{id}")).await.unwrap();
    assert_eq!(info["seats"][1]["kind"], "open");
    // Bo comes back: told he was removed, he watches.
    let mut b = t.client.connect_as(&bo.token).await.unwrap();
    b.send(&json!({ "type": "join", "table": id })).await.unwrap();
    let e = error_of(&mut b).await;
    assert_eq!(e["code"], "removed", "{e}");
    assert!(e["message"].as_str().unwrap().contains("watch"), "{e}");
    b.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let sync = b.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    assert_eq!(sync["you"]["seat"], Value::Null);
    // Someone else takes the open seat.
    let cy = t.guest("Cy").await;
    let (_c, sync) = t.join(&cy, &id, Some(1)).await;
    assert_eq!(sync["you"]["seat"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_at_the_end_makes_a_table_with_the_same_seats_and_tells_everyone() {
    let t = TestServer::start(common::fast()).await;
    let (id, mut a, mut b, [ann, bo]) = ann_and_bo(&t, "hands:1").await;
    // Not before the end.
    a.send(&json!({ "type": "rematch" })).await.unwrap();
    assert_eq!(error_of(&mut a).await["code"], "not_over");
    let (ra, rb) = tokio::join!(
        common::play_randomly(&mut a, 1, Duration::from_secs(60)),
        common::play_randomly(&mut b, 2, Duration::from_secs(60))
    );
    assert!(ra.last().is_some_and(common::match_over) && rb.last().is_some_and(common::match_over));
    t.record_within(&id, WAIT).await.expect("the record");
    // Bo is not the host.
    b.send(&json!({ "type": "rematch" })).await.unwrap();
    assert_eq!(error_of(&mut b).await["code"], "not_host");
    a.send(&json!({ "type": "rematch" })).await.unwrap();
    let mut new = None;
    for s in [&mut a, &mut b] {
        let m = s.until(WAIT, "rematch", |m| m["type"] == "host").await.unwrap();
        assert_eq!(m["event"]["kind"], "rematch", "{m}");
        new = Some(m["event"]["table"].as_str().unwrap().to_string());
    }
    let new = new.unwrap();
    assert_ne!(new, id);
    // Offered again: refused, naming the table.
    a.send(&json!({ "type": "rematch" })).await.unwrap();
    let e = error_of(&mut a).await;
    assert_eq!(e["code"], "rematch_offered");
    assert!(e["message"].as_str().unwrap().contains(&new), "{e}");
    // The new table: the same game and settings, Ann's seat hers, Bo's kept for him, the bots.
    let (_, old) = t.client.get(&format!("/api/tables/{id}")).await.unwrap();
    let (_, info) = t.client.get(&format!("/api/tables/{new}")).await.unwrap();
    assert_eq!(info["status"], "waiting");
    assert_eq!(
        (info["game"].clone(), info["variants"].clone()),
        (old["game"].clone(), old["variants"].clone())
    );
    assert_eq!(info["host"], old["host"]);
    assert_eq!(info["seats"][0]["name"], "Ann");
    assert_eq!(
        (info["seats"][1]["kind"].clone(), info["seats"][1]["invited"].clone()),
        (json!("open"), json!("Bo"))
    );
    assert_eq!(info["seats"][2]["kind"], "bot");
    // Someone else cannot take Bo's seat; Bo and Ann take theirs and the match begins.
    let cy = t.guest("Cy").await;
    let mut c = t.client.connect_as(&cy.token).await.unwrap();
    c.send(&json!({ "type": "join", "table": new, "seat": 1 })).await.unwrap();
    assert_eq!(error_of(&mut c).await["code"], "seat_taken");
    let (_a2, s) = t.join(&ann, &new, None).await;
    assert_eq!(s["you"]["seat"], 0);
    let (_b2, s) = t.join(&bo, &new, None).await;
    assert_eq!(s["you"]["seat"], 1);
    let playing = tokio::time::timeout(WAIT, async {
        loop {
            let (_, info) = t.client.get(&format!("/api/tables/{new}")).await.unwrap();
            if info["status"] == "playing" {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(playing.is_ok(), "the rematch begins once both are seated");
    // Someone who comes to the old table later learns of the rematch from the sync.
    c.close().await;
    let mut c = t.client.connect_as(&cy.token).await.unwrap();
    c.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let sync = c.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    assert_eq!(sync["rematch"], new.as_str());
}

/// Issue 26: closing a table threw away its finished hands. The host may end the match and keep
/// it: the finished hands are stored as a record of a finished (ended) match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_ends_the_match_and_keeps_its_finished_hands_as_a_record() {
    let t = TestServer::start(common::fast()).await;
    let ann = t.guest("Ann").await;
    // A short clock without a bank: a bot plays for her once it runs out, and the hands go by.
    let body = json!({ "game": "madiao", "variants": {"game_length": "hands:8"}, "untimed": false,
        "turn_seconds": 5, "bank_seconds": 0 });
    let id = t.table(&ann, body).await;
    let (mut a, _) = t.join(&ann, &id, None).await;
    // Nothing finished yet: nothing to keep.
    a.send(&json!({ "type": "close", "keep": true })).await.unwrap();
    assert_eq!(error_of(&mut a).await["code"], "nothing_to_keep");
    a.until(Duration::from_secs(60), "a second hand", |m| {
        m["type"] == "update" && m["hand"].as_u64() >= Some(1)
    })
    .await
    .unwrap();
    a.send(&json!({ "type": "close", "keep": true })).await.unwrap();
    let m = a.until(WAIT, "ended", |m| m["type"] == "host").await.unwrap();
    assert_eq!(
        (m["event"]["kind"].clone(), m["event"]["kept"].clone()),
        (json!("closed"), json!(true)),
        "{m}"
    );
    let hands = m["event"]["hands"].as_u64().unwrap();
    assert!(hands >= 1, "{m}");
    let (_, info) = t.client.get(&format!("/api/tables/{id}")).await.unwrap();
    assert_eq!(info["status"], "finished");
    let (status, record) = t.client.get(&format!("/api/records/{id}")).await.unwrap();
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["ended"], json!({ "hands": hands }));
    assert_eq!(record["hands"].as_array().unwrap().len() as u64, hands, "the finished hands only");
    let row = t.app.store.table(&id).await.unwrap().unwrap();
    assert_eq!(row.status, server::store::TableStatus::Finished);
}
