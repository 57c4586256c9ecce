//! Hints and the card tracker over real WebSockets: a hint arrives only to the seat that asked,
//! only on its own turn, is a legal action, and the finished match's record notes it (which
//! seat, which hand, how many); the tracker answers the asking seat alone.

use crate::common;

use std::time::Duration;

use common::{TestServer, fast, fast_limits, match_over, play_paced};
use serde_json::{Value, json};

/// True when a message gives seat 0 a turn to play (not a window's request, not a stake).
fn my_turn(m: &Value) -> bool {
    matches!(m["type"].as_str(), Some("update" | "sync"))
        && m["view"]["to_move"] == 0
        && matches!(m["legal"]["kind"].as_str(), Some("actions" | "cards" | "lead"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_goes_only_to_the_asking_seat_on_its_turn_and_is_recorded() {
    // The table's seed is fixed so that its hand is played out (some deals end at once, by a meld,
    // before anyone's turn).
    let srv = TestServer::start_config(server::Config {
        timing: fast(),
        limits: fast_limits(),
        table_seed: Some(1),
        ..Default::default()
    })
    .await;
    let ann = srv.guest("Ann").await;
    let bo = srv.guest("Bo").await;
    let cy = srv.guest("Cy").await;
    let id = srv
        .table(
            &ann,
            json!({
                "game": "madiao", "variants": { "game_length": "hands:1", "faceup_discard": "forbidden" },
                "turn_seconds": 60,
                "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}],
            }),
        )
        .await;
    let (mut a, _) = srv.join(&ann, &id, Some(0)).await;
    // A spectator may not ask.
    let mut c = srv.client.connect_as(&cy.token).await.unwrap();
    c.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    c.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
    c.send(&json!({ "type": "hint" })).await.unwrap();
    let e = c.until(Duration::from_secs(5), "error", |m| m["type"] == "error").await.unwrap();
    assert_eq!(e["code"], "not_seated", "{e}");
    // Before the match: nobody's turn.
    a.send(&json!({ "type": "hint" })).await.unwrap();
    let e = a.until(Duration::from_secs(5), "error", |m| m["type"] == "error").await.unwrap();
    assert_eq!(e["code"], "not_your_turn", "{e}");
    // Bo takes the last open seat: the match begins by itself.
    let (b, _) = srv.join(&bo, &id, Some(1)).await;

    // Bo plays slowly in his own task, keeping every message he gets.
    let bo_task = tokio::spawn(async move {
        let mut b = b;
        play_paced(&mut b, 11, Duration::from_secs(120), Duration::from_millis(300)).await
    });
    let mut hints = 0;
    let mut refused_off_turn = 0;
    let end = tokio::time::Instant::now() + Duration::from_secs(120);
    let mut pending_turn: Option<Value> = None;
    let mut seen: Vec<String> = Vec::new();
    loop {
        let left = end.saturating_duration_since(tokio::time::Instant::now());
        let Some(m) = a.recv_timeout(left).await.unwrap() else {
            let last: Vec<&String> = seen.iter().rev().take(8).collect();
            panic!("the match did not end in time; Ann's last messages, newest first:\n{last:#?}");
        };
        seen.push(m.to_string());
        if match_over(&m) {
            break;
        }
        match m["type"].as_str() {
            Some("hint") => {
                let turn = pending_turn.take().expect("a hint only after asking on a turn");
                assert_eq!(m["seat"], 0);
                assert_eq!(m["move"], turn["move"]);
                let legal = turn["legal"]["actions"].as_array().unwrap();
                assert!(legal.contains(&m["action"]), "{} is one of {legal:?}", m["action"]);
                assert!(!m["reason"]["en"].as_str().unwrap().is_empty());
                assert!(!m["reason"]["zh"].as_str().unwrap().is_empty());
                assert!(m["reason"]["kind"].is_string());
                hints += 1;
                a.send(&json!({ "type": "act", "action": m["action"], "move": m["move"] })).await.unwrap();
            }
            Some("error") => {
                assert_eq!(m["code"], "not_your_turn", "{m}");
                refused_off_turn += 1;
            }
            Some("update" | "sync") if my_turn(&m) => {
                if hints < 2 {
                    a.send(&json!({ "type": "hint" })).await.unwrap();
                    pending_turn = Some(m);
                } else {
                    let first = m["legal"]["actions"][0].clone();
                    a.send(&json!({ "type": "act", "action": first, "move": m["move"] })).await.unwrap();
                }
            }
            // Bo's turn (he waits 300 ms before acting): a hint for Ann is refused.
            Some("update")
                if m["view"]["to_move"] == 1 && m["view"]["phase"] == "play" && refused_off_turn == 0 =>
            {
                a.send(&json!({ "type": "hint" })).await.unwrap();
            }
            _ => {}
        }
    }
    assert_eq!(hints, 2);
    assert_eq!(refused_off_turn, 1, "the hint asked on Bo's turn was refused");
    let bo_saw = bo_task.await.unwrap();
    assert!(bo_saw.iter().all(|m| m["type"] != "hint"), "Bo never gets Ann's hint");
    let spectator_saw: Vec<Value> = {
        let mut v = Vec::new();
        while let Ok(Some(m)) = c.recv_timeout(Duration::from_millis(50)).await {
            v.push(m);
        }
        v
    };
    assert!(spectator_saw.iter().all(|m| m["type"] != "hint"));

    // The record notes the hints: seat 0, twice, in the hand that was played (the last: a hand
    // that was redealt comes before it); it still replays.
    let text = srv.record_within(&id, Duration::from_secs(10)).await.unwrap();
    let rec: Value = serde_json::from_str(&text).unwrap();
    let played = rec["hands"].as_array().unwrap().len() - 1;
    assert_eq!(rec["hints"], json!([{ "hand": played, "seat": 0, "count": 2 }]), "{text}");
    match ai::record::parse(&text).unwrap() {
        ai::record::AnyRecord::Madiao(r) => assert!(madiao::record::replay(&r).is_clean()),
        other => panic!("a Madiao record, not {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tracker_answers_the_asking_seat_with_its_view() {
    let srv = TestServer::start(fast()).await;
    let ann = srv.guest("Ann").await;
    let id = srv.table(&ann, json!({ "game": "madiao", "turn_seconds": 60 })).await;
    let (mut a, _) = srv.join(&ann, &id, None).await;
    a.send(&json!({ "type": "start" })).await.unwrap();
    // The table's seed is random: a deal may end with no turn for Ann (a meld or the four lowest
    // dealt, a redeal), and an untimed table alone with bots waits after it for her ready, as a
    // person presses it. Without it, no turn came in 10 s (12 of 100 runs).
    let turn = crate::common::until_playing(&mut a, Duration::from_secs(10), "Ann's turn", my_turn).await;
    a.send(&json!({ "type": "tracker" })).await.unwrap();
    let t = a.until(Duration::from_secs(5), "tracker", |m| m["type"] == "tracker").await.unwrap();
    let tracker = &t["tracker"];
    let suits: Vec<&str> =
        tracker["suits"].as_array().unwrap().iter().map(|s| s["suit"].as_str().unwrap()).collect();
    assert_eq!(suits, ["T", "M", "S", "W"]);
    // Its own cards are never unseen; its top cards are its own.
    let hand = turn["view"]["hand"].as_array().unwrap();
    for s in tracker["suits"].as_array().unwrap() {
        for c in s["unseen"].as_array().unwrap() {
            assert!(!hand.contains(c), "{c} is in the hand");
        }
    }
    for c in tracker["top"].as_array().unwrap() {
        assert!(hand.contains(c), "{c} is a top card of the hand");
    }
    // Every card is in the hand, the upcard, seen played, or unseen.
    let unseen: usize =
        tracker["suits"].as_array().unwrap().iter().map(|s| s["unseen"].as_array().unwrap().len()).sum();
    let played: usize =
        tracker["suits"].as_array().unwrap().iter().map(|s| s["played"].as_array().unwrap().len()).sum();
    assert_eq!(unseen + played + hand.len() + 1, 40);
}

/// At a rated table neither a hint nor the tracker is offered, even on one's own turn; the
/// record of such a match notes no hint.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_table_offers_no_hint_and_no_tracker() {
    let srv = TestServer::start(fast()).await;
    let guest = srv.guest("Ann").await;
    let session = srv.client.claim_account(&guest.token, "annrated", "a long enough password").await.unwrap();
    // The account's session is the guest's token from now on.
    let g = client::GuestToken { token: session.token, ..guest };
    let id = srv
        .table(
            &g,
            json!({
                "game": "madiao", "rated": true, "variants": { "game_length": "hands:4" },
                "turn_seconds": 60,
                "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
            }),
        )
        .await;
    let (mut a, _) = srv.join(&g, &id, Some(0)).await;
    // Wait for Ann's turn to play, then ask.
    a.until(Duration::from_secs(60), "Ann's turn", my_turn).await.unwrap();
    for kind in ["hint", "tracker"] {
        a.send(&json!({ "type": kind })).await.unwrap();
        let e = a.until(Duration::from_secs(5), "error", |m| m["type"] == "error").await.unwrap();
        assert_eq!(e["code"], "hints_off", "{kind}: {e}");
    }
}
