//! Identity, seats and connections over real WebSockets: a wrong token is refused; reconnecting
//! in mid-hand gives back the same seat and the full view; a spectator sees no hand; the turn
//! clock hands a seat to a bot until its person is back; a person who leaves or disconnects is
//! played for by a bot; versions have no gaps and a resync restores the state.

use crate::common;

use std::time::Duration;

use client::{ClientError, random_action};
use common::{TestServer, fast, play_randomly};
use serde_json::{Value, json};
use table::settings::Timing;

const WAIT: Duration = Duration::from_secs(20);

fn slow_bots() -> Timing {
    Timing { bot_delay_ms: 30, ..fast() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_token_is_refused_and_nothing_works_before_hello() {
    let srv = TestServer::start(fast()).await;
    let mut s = srv.client.connect().await.unwrap();
    s.send(&json!({ "type": "join", "table": "t1" })).await.unwrap();
    let e = s.recv().await.unwrap();
    assert_eq!((e["type"].as_str(), e["code"].as_str()), (Some("error"), Some("not_authenticated")), "{e}");
    s.send(&json!({ "type": "hello", "token": "0".repeat(64) })).await.unwrap();
    let e = s.recv().await.unwrap();
    assert_eq!(e["code"], "bad_token", "{e}");
    // The server closes the connection after refusing the token.
    let next = s.recv_timeout(Duration::from_secs(5)).await;
    assert!(matches!(next, Err(ClientError::Closed) | Err(ClientError::Ws(_))), "{next:?}");
    // Over HTTP too.
    let (status, body) =
        srv.client.post("/api/tables", &json!({ "game": "madiao" }), Some("nope")).await.unwrap();
    assert_eq!(status, 401);
    assert_eq!(body["error"]["code"], "bad_token");
    let (status, _) = srv.client.post("/api/tables", &json!({ "game": "madiao" }), None).await.unwrap();
    assert_eq!(status, 401);
}

/// Reads until the seat has a decision to make; returns that message.
async fn until_my_turn(s: &mut client::Socket) -> Value {
    common::until_playing(s, WAIT, "my turn", |m| {
        matches!(m["type"].as_str(), Some("update" | "sync"))
            && matches!(m["legal"]["kind"].as_str(), Some("actions" | "cards" | "lead"))
    })
    .await
}

fn tricks_cards(view: &Value) -> Vec<Value> {
    view["tricks"].as_array().unwrap().iter().flat_map(|t| t["plays"].as_array().unwrap().clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_in_mid_hand_gives_back_the_same_seat_and_the_full_view() {
    let srv = TestServer::start(slow_bots()).await;
    let ann = srv.guest("Ann").await;
    let id = srv.table(&ann, json!({ "game": "madiao", "turn_seconds": 60 })).await;
    let (mut s, _) = srv.join(&ann, &id, None).await;
    let mut rng = cards::Rng::from_seed(3);
    // Play until at least six cards of the hand are on the table and it is Ann's turn again.
    let before = loop {
        let m = until_my_turn(&mut s).await;
        if tricks_cards(&m["view"]).len() >= 6 {
            break m;
        }
        let a = random_action(&m["legal"], &mut rng).unwrap();
        s.send(&json!({ "type": "act", "action": a, "move": m["move"] })).await.unwrap();
    };
    let hand_before = before["view"]["hand"].clone();
    s.close().await;
    // Her seat is now played by a bot (she has no connection); she comes back at once.
    let (mut s2, sync) = srv.join(&ann, &id, None).await;
    assert_eq!(sync["you"]["seat"], 0);
    assert_eq!(sync["view"]["seat"], 0);
    assert_eq!(sync["table"]["seats"][0]["guest"], ann.id);
    let now: Vec<String> = serde_json::from_value(sync["view"]["hand"].clone()).unwrap();
    let then: Vec<String> = serde_json::from_value(hand_before).unwrap();
    assert!(now.iter().all(|c| then.contains(c)), "her hand only lost cards: {then:?} → {now:?}");
    let seen_then = tricks_cards(&before["view"]);
    let seen_now = tricks_cards(&sync["view"]);
    if sync["hand"] == before["hand"] {
        assert!(seen_now.len() >= seen_then.len());
        assert_eq!(&seen_now[..seen_then.len()], &seen_then[..], "the hand's history is kept");
    }
    // Another guest cannot take her seat; a second connection of hers gets the same seat.
    let bo = srv.guest("Bo").await;
    let mut sb = srv.client.connect_as(&bo.token).await.unwrap();
    sb.send(&json!({ "type": "join", "table": id, "seat": 0 })).await.unwrap();
    let e = sb.until(WAIT, "error", |m| m["type"] == "error").await.unwrap();
    assert_eq!(e["code"], "seat_taken", "{e}");
    let (_s3, sync3) = srv.join(&ann, &id, None).await;
    assert_eq!(sync3["you"]["seat"], 0);
    // And she plays the match to its end.
    let seen = play_randomly(&mut s2, 9, Duration::from_secs(60)).await;
    assert_eq!(seen.last().unwrap()["match"]["over"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_sees_no_hand_chats_and_cannot_act() {
    let srv = TestServer::start(slow_bots()).await;
    let ann = srv.guest("Ann").await;
    let id = srv.table(&ann, json!({ "game": "dabaifen", "turn_seconds": 60 })).await;
    let (mut s, _) = srv.join(&ann, &id, None).await;
    let cy = srv.guest("Cy").await;
    let mut w = srv.client.connect_as(&cy.token).await.unwrap();
    w.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let sync = w.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    assert_eq!(sync["you"]["seat"], Value::Null);
    assert_eq!(sync["view"]["seat"], Value::Null);
    assert_eq!(sync["view"]["hand"], json!([]));
    assert_eq!(sync["legal"], Value::Null);
    w.send(&json!({ "type": "act", "action": { "pass": true } })).await.unwrap();
    let e = w.until(WAIT, "error", |m| m["type"] == "error").await.unwrap();
    assert_eq!(e["code"], "not_seated");
    w.send(&json!({ "type": "chat", "text": "  good luck 加油  " })).await.unwrap();
    let c = s.until(WAIT, "chat", |m| m["type"] == "chat").await.unwrap();
    assert_eq!(c["message"]["text"], "good luck 加油");
    assert_eq!(c["message"]["name"], "Cy");
    assert_eq!(c["message"]["seat"], Value::Null);
    for bad in ["", "   ", "line\nbreak", &"x".repeat(501)] {
        w.send(&json!({ "type": "chat", "text": bad })).await.unwrap();
        let e = w.until(WAIT, "error", |m| m["type"] == "error").await.unwrap();
        assert_eq!(e["code"], "bad_chat", "{bad:?}: {e}");
    }
    // The chat is kept: a new connection's sync has it.
    let (_s2, sync2) = srv.join(&ann, &id, None).await;
    assert_eq!(sync2["chat"].as_array().unwrap().last().unwrap()["text"], "good luck 加油");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_turn_clock_hands_the_seat_to_a_bot_until_the_person_is_back() {
    let srv = TestServer::start(slow_bots()).await;
    let ann = srv.guest("Ann").await;
    // Alone with bots a table is untimed unless its host asks for a clock: she asks for one,
    // without a time bank.
    let id = srv
        .table(&ann, json!({ "game": "madiao", "turn_seconds": 5, "untimed": false, "bank_seconds": 0 }))
        .await;
    let (mut s, _) = srv.join(&ann, &id, None).await;
    let turn = until_my_turn(&mut s).await;
    assert_eq!(turn["timer"]["what"], "turn");
    assert_eq!(turn["timer"]["seat"], 0);
    let left = turn["timer"]["remaining_ms"].as_u64().unwrap();
    assert!((4000..=5000).contains(&left), "{left}");
    // She does nothing: after 5 s she is marked away and a bot plays her card.
    let t0 = std::time::Instant::now();
    let away =
        s.until(WAIT, "away", |m| m["type"] == "seats" && m["seats"][0]["away"] == true).await.unwrap();
    assert!(t0.elapsed() >= Duration::from_millis(3500), "{:?}", t0.elapsed());
    assert_eq!(away["seats"][0]["bot_plays"], true);
    let played = s
        .until(WAIT, "bot move", |m| {
            m["type"] == "update" && m["event"]["kind"] == "action" && m["event"]["seat"] == 0
        })
        .await
        .unwrap();
    assert_eq!(played["event"]["by_bot"], true);
    // She is back: the seat is hers again.
    s.send(&json!({ "type": "back" })).await.unwrap();
    let back =
        s.until(WAIT, "back", |m| m["type"] == "seats" && m["seats"][0]["away"] == false).await.unwrap();
    assert_eq!(back["seats"][0]["bot_plays"], false);
    let turn = until_my_turn(&mut s).await;
    assert_eq!(turn["timer"]["what"], "turn");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_disconnects_or_leaves_is_played_for_and_the_seat_reopens() {
    let srv = TestServer::start(slow_bots()).await;
    let ann = srv.guest("Ann").await;
    let bo = srv.guest("Bo").await;
    let id = srv
        .table(&ann, json!({ "game": "madiao", "turn_seconds": 60, "grace_seconds": 0, "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let (mut sa, _) = srv.join(&ann, &id, None).await;
    // The lobby lists the table with one open seat; it waits.
    let (_, lobby) = srv.client.get("/api/tables").await.unwrap();
    let t = lobby["tables"].as_array().unwrap().iter().find(|t| t["id"] == id.as_str()).unwrap().clone();
    assert_eq!((t["open_seats"].as_u64(), t["status"].as_str()), (Some(1), Some("waiting")));
    let (mut sb, sync) = srv.join(&bo, &id, None).await;
    assert_eq!(sync["you"]["seat"], 1);
    sa.until(WAIT, "start", |m| m["type"] == "update" && m["event"]["kind"] == "start").await.unwrap();
    // Bo leaves: his seat is open again, a bot plays it, and Cy can take it.
    sb.send(&json!({ "type": "leave" })).await.unwrap();
    let left = sa
        .until(WAIT, "seat open", |m| m["type"] == "seats" && m["seats"][1]["kind"] == "open")
        .await
        .unwrap();
    assert_eq!(left["seats"][1]["bot_plays"], true);
    let cy = srv.guest("Cy").await;
    let (sc, sync) = srv.join(&cy, &id, Some(1)).await;
    assert_eq!(sync["you"]["seat"], 1);
    assert_eq!(sync["table"]["seats"][1]["name"], "Cy");
    // Cy goes too (a bot plays for her at once), so that seat 0's turn comes whoever is dealt
    // first: a present Cy who does not act would hold the table for her 60 s clock.
    sc.close().await;
    // Ann disconnects: a bot plays her seat at once, without waiting for her clock.
    let mut watch = srv.client.connect_as(&bo.token).await.unwrap();
    watch.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    watch.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    sa.close().await;
    let gone = watch
        .until(WAIT, "absent", |m| m["type"] == "seats" && m["seats"][0]["present"] == false)
        .await
        .unwrap();
    assert_eq!(gone["seats"][0]["bot_plays"], true);
    let t0 = std::time::Instant::now();
    let m = watch
        .until(WAIT, "a move for seat 0", |m| {
            m["type"] == "update" && m["event"]["kind"] == "action" && m["event"]["seat"] == 0
        })
        .await
        .unwrap();
    assert_eq!(m["event"]["by_bot"], true);
    assert!(t0.elapsed() < Duration::from_secs(10), "not the 60 s clock");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_go_up_by_one_and_a_resync_gives_the_current_state() {
    let srv = TestServer::start(slow_bots()).await;
    let ann = srv.guest("Ann").await;
    let id = srv.table(&ann, json!({ "game": "dabaifen", "turn_seconds": 60, "seats": [{"kind":"bot"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}] })).await;
    let mut w = srv.client.connect_as(&ann.token).await.unwrap();
    w.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let sync = w.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    let mut v = sync["v"].as_u64().unwrap();
    // A whole match of four random bots (short: random multi-card leads are revokes).
    let mut events = 0;
    loop {
        let Some(m) = w.recv_timeout(Duration::from_secs(10)).await.unwrap() else {
            panic!("no message after {events} events");
        };
        if matches!(m["type"].as_str(), Some("update" | "seats" | "chat")) {
            assert_eq!(m["v"].as_u64().unwrap(), v + 1, "{m}");
            v += 1;
            events += 1;
        }
        if m["type"] == "seats" && m["status"] == "finished" {
            break;
        }
    }
    assert!(events > 100, "{events}");
    assert_eq!(w.gaps, 0);
    w.send(&json!({ "type": "resync" })).await.unwrap();
    let again = w.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    assert!(again["v"].as_u64().unwrap() >= v);
    assert_eq!(again["table"]["id"], id.as_str());
}
