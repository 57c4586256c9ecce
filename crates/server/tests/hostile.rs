//! Hostile input over real WebSockets: malformed JSON, unknown types, missing fields, actions for
//! another seat, out of turn, illegal or stale, binary frames, oversized messages and frames,
//! floods — each gets its error or is dropped (an oversized frame or a long flood closes the
//! connection), and the table is unharmed: the same view afterwards, and the match plays on to a
//! record that replays cleanly.

use crate::common;

use std::time::Duration;

use client::{ClientError, Socket};
use common::{TestServer, fast, play_paced};
use serde_json::{Value, json};
use server::Limits;
use table::settings::Timing;

const WAIT: Duration = Duration::from_secs(20);

async fn error_for(s: &mut Socket, text: &str) -> Value {
    s.send_text(text.to_string()).await.unwrap();
    s.until(WAIT, "an error", |m| m["type"] == "error").await.unwrap()
}

async fn my_turn(s: &mut Socket) -> Value {
    common::until_playing(s, WAIT, "my turn", |m| {
        matches!(m["type"].as_str(), Some("update" | "sync")) && m["legal"]["kind"] == "actions"
    })
    .await
}

fn closed(r: Result<Option<Value>, ClientError>) -> bool {
    match r {
        Err(_) => true,
        Ok(Some(m)) => m["type"] == "error" && m["message"].as_str().is_some_and(|t| t.contains("closed")),
        Ok(None) => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_messages_get_errors_and_leave_the_table_unharmed() {
    // The default limits: a person's pace is far below them, a flood is not.
    let srv = TestServer::start_with(Timing { bot_delay_ms: 5, ..fast() }, Limits::default()).await;
    let ann = srv.guest("Ann").await;
    let bo = srv.guest("Bo").await;
    let id = srv
        .table(
            &ann,
            json!({ "game": "madiao", "turn_seconds": 120,
                    "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] }),
        )
        .await;
    let (mut a, _) = srv.join(&ann, &id, None).await;
    let (mut b, _) = srv.join(&bo, &id, None).await;
    // Play until it is Ann's turn: the table then waits for her.
    let turn = loop {
        tokio::select! {
            m = my_turn(&mut a) => break m,
            m = my_turn(&mut b) => {
                let act = m["legal"]["actions"][0].clone();
                b.send(&json!({ "type": "act", "action": act, "move": m["move"] })).await.unwrap();
            }
        }
    };
    a.send(&json!({ "type": "resync" })).await.unwrap();
    let before = a.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    assert_eq!(before["view"]["to_move"], 0);

    // Malformed and unknown messages.
    assert_eq!(error_for(&mut a, "{oops").await["code"], "bad_json");
    assert_eq!(error_for(&mut a, "[1, 2]").await["code"], "bad_message");
    assert_eq!(error_for(&mut a, r#"{"kind":"act"}"#).await["code"], "bad_message");
    let e = error_for(&mut a, r#"{"type":"dance"}"#).await;
    assert_eq!(e["code"], "unknown_type");
    assert!(e["message"].as_str().unwrap().contains("dance"), "{e}");
    assert_eq!(error_for(&mut a, r#"{"type":"act"}"#).await["code"], "bad_message");
    assert_eq!(error_for(&mut a, r#"{"type":"join","table":7}"#).await["code"], "bad_message");
    assert_eq!(error_for(&mut a, r#"{"type":"hello","token":"x"}"#).await["code"], "already_authenticated");
    assert_eq!(error_for(&mut a, r#"{"type":"join","table":"t2"}"#).await["code"], "already_at_table");

    // Actions that are not legal, not hers, out of turn or stale.
    let e = error_for(&mut a, r#"{"type":"act","action":{"play":"ZZ"}}"#).await;
    assert_eq!(e["code"], "illegal");
    assert!(e["message"].as_str().unwrap().contains("not an action of this game"), "{e}");
    let mine: Vec<String> = serde_json::from_value(before["view"]["hand"].clone()).unwrap();
    let other = ["TW", "TQ", "TB", "M9", "S9", "W0", "W9", "M1"]
        .into_iter()
        .find(|c| !mine.iter().any(|m| m == c))
        .unwrap();
    let e = error_for(&mut a, &json!({ "type": "act", "action": { "play": other } }).to_string()).await;
    assert_eq!(e["code"], "illegal");
    assert!(e["message"].as_str().unwrap().contains(&format!("does not hold {other}")), "{e}");
    let e = error_for(&mut a, r#"{"type":"act","action":{"redeal":true}}"#).await;
    assert_eq!(e["code"], "too_late", "the redeal window is over: {e}");
    let legal = turn["legal"]["actions"][0].clone();
    let e = error_for(&mut a, &json!({ "type": "act", "action": legal, "seat": 1 }).to_string()).await;
    assert_eq!(e["code"], "not_your_seat");
    let e = error_for(&mut a, &json!({ "type": "act", "action": legal, "move": 9999 }).to_string()).await;
    assert_eq!(e["code"], "stale");
    let bo_card = json!({ "play": "M5" });
    let e = error_for(&mut b, &json!({ "type": "act", "action": bo_card }).to_string()).await;
    assert_eq!(e["code"], "not_your_turn");
    assert!(e["message"].as_str().unwrap().contains("seat 0's turn"), "{e}");
    let cy = srv.guest("Cy").await;
    let mut w = srv.client.connect_as(&cy.token).await.unwrap();
    w.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    w.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    let e = error_for(&mut w, &json!({ "type": "act", "action": legal }).to_string()).await;
    assert_eq!(e["code"], "not_seated");
    let e = error_for(&mut w, r#"{"type":"start"}"#).await;
    assert_eq!(e["code"], "not_host");

    // Binary frames and messages over the size limit are dropped with an error.
    w.send_binary(vec![1, 2, 3]).await.unwrap();
    assert_eq!(w.until(WAIT, "error", |m| m["type"] == "error").await.unwrap()["code"], "binary");
    let big = json!({ "type": "chat", "text": "x".repeat(5000) }).to_string();
    assert_eq!(error_for(&mut w, &big).await["code"], "too_large");
    // Chat text is stored as text, whatever it holds.
    let sneaky = "'); DROP TABLE actions; -- <script>alert(1)</script>";
    w.send(&json!({ "type": "chat", "text": sneaky })).await.unwrap();
    let c = a.until(WAIT, "chat", |m| m["type"] == "chat").await.unwrap();
    assert_eq!(c["message"]["text"], sneaky);

    // A frame over the frame limit closes that connection.
    let mut huge = srv.client.connect_as(&cy.token).await.unwrap();
    huge.send_text("y".repeat(100_000)).await.unwrap();
    assert!(closed(huge.recv_timeout(Duration::from_secs(5)).await), "the connection is closed");

    // A flood gets rate-limit errors (one a second at most), then the connection is closed.
    let mut flood = srv.client.connect_as(&cy.token).await.unwrap();
    flood.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let mut limited = 0;
    let mut shut = false;
    // Past the burst (30): the first dropped message is answered at once, while the connection is
    // still open (read it before flooding on: once closed, what was in flight may be lost).
    for _ in 0..40 {
        flood.send(&json!({ "type": "chat", "text": "spam" })).await.unwrap();
    }
    while limited == 0 {
        match flood.recv_timeout(Duration::from_secs(3)).await {
            Ok(Some(m)) if m["code"] == "rate_limited" => limited += 1,
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => break,
        }
    }
    for _ in 0..400 {
        if flood.send(&json!({ "type": "chat", "text": "spam" })).await.is_err() {
            shut = true;
            break;
        }
    }
    while !shut {
        match flood.recv_timeout(Duration::from_secs(3)).await {
            Ok(Some(m)) if m["code"] == "rate_limited" => limited += 1,
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => shut = true,
        }
    }
    assert!(limited >= 1, "rate-limit errors were sent");
    assert!(shut, "the flooding connection is closed");

    // The table is unharmed: the same view as before all this, and Ann's connection works.
    a.send(&json!({ "type": "resync" })).await.unwrap();
    let after = a.until(WAIT, "sync", |m| m["type"] == "sync").await.unwrap();
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["legal"], before["legal"]);
    assert_eq!(after["move"], before["move"]);
    let chat_lines = after["chat"].as_array().unwrap().len();
    assert!(chat_lines <= 6, "only the accepted lines are kept: {chat_lines}");

    // And the match plays on to its end.
    let pace = Duration::from_millis(120);
    let bo_task = tokio::spawn(async move { play_paced(&mut b, 2, Duration::from_secs(120), pace).await });
    let seen = play_paced(&mut a, 1, Duration::from_secs(120), pace).await;
    assert_eq!(seen.last().unwrap()["match"]["over"], true);
    bo_task.await.unwrap();
    // The record is stored just after the last update is sent (the table's status then becomes
    // `finished`): wait for it.
    let mut tries = 0;
    let (status, text) = loop {
        let (status, text) = srv.client.get_text(&format!("/api/records/{id}")).await.unwrap();
        if status != 409 || tries == 100 {
            break (status, text);
        }
        tries += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(status, 200, "{text}");
    let ai::record::AnyRecord::Madiao(r) = ai::record::parse(&text).unwrap() else { panic!() };
    assert!(madiao::record::replay(&r).is_clean());
}
