//! The banker names the stake of each hand (Madiao rules §2) over a real WebSocket: a person who
//! banks is asked with a `stake` decision before the deal, an odd stake is refused, the stake he
//! names is the hand's; bots name theirs; the match's ledger in chips and the record follow each
//! hand's stake.

use crate::common;

use std::time::Duration;

use ai::record::AnyRecord;
use client::random_action;
use common::{TestServer, fast};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_banks_names_the_stake_and_the_ledger_follows_each_hands_stake() {
    let srv = TestServer::start(fast()).await;
    let ann = srv.guest("Ann").await;
    let body = json!({ "game": "madiao", "stake": 2, "stake_max": 8, "turn_seconds": 60, "untimed": false,
        "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}] });
    let id = srv.table(&ann, body).await;
    let info: Value = srv.client.get_json(&format!("/api/tables/{id}")).await.unwrap();
    assert_eq!((info["stake"].as_u64(), info["stake_max"].as_u64()), (Some(2), Some(8)));
    let (mut s, _) = srv.join(&ann, &id, None).await;
    s.send(&json!({ "type": "resync" })).await.unwrap();
    let mut rng = cards::Rng::from_seed(3);
    let mut acted: Option<(u64, u64, Value)> = None;
    let mut named_hand: Option<u64> = None;
    let mut refused_odd = false;
    let mut bot_named = false;
    let end = tokio::time::Instant::now() + Duration::from_secs(120);
    let last = loop {
        let left = end.saturating_duration_since(tokio::time::Instant::now());
        let m = s.recv_timeout(left).await.unwrap().expect("the match ends in time");
        if m["type"] == "error" {
            if m["code"] == "illegal" && m["message"].as_str().unwrap().contains("even number") {
                refused_odd = true;
                continue;
            }
            assert_eq!(m["code"], "stale", "{m}");
            continue;
        }
        if m["type"] == "update" && m["event"]["kind"] == "stake" {
            let (seat, stake) = (m["event"]["seat"].as_u64().unwrap(), m["event"]["stake"].as_u64().unwrap());
            assert!((2..=8).contains(&stake) && stake % 2 == 0, "{m}");
            if seat == 0 {
                assert_eq!(stake, 8, "the stake Ann named");
                assert_eq!(m["event"]["by_bot"], false);
                named_hand = Some(m["hand"].as_u64().unwrap());
            } else {
                bot_named = true;
            }
            assert_eq!(m["view"]["stake"].as_u64(), Some(stake), "the hand is dealt at the stake named");
        }
        if matches!(m["type"].as_str(), Some("update" | "sync")) {
            let key = (m["hand"].as_u64().unwrap(), m["move"].as_u64().unwrap(), m["legal"]["kind"].clone());
            if m["legal"]["kind"] == "stake" {
                assert_eq!((m["legal"]["low"].as_u64(), m["legal"]["high"].as_u64()), (Some(2), Some(8)));
                assert!(m["view"].is_null(), "nothing is dealt before the stake");
                if acted.as_ref() != Some(&key) {
                    acted = Some(key);
                    s.send(&json!({ "type": "act", "action": { "stake": 7 } })).await.unwrap();
                    s.send(&json!({ "type": "act", "action": { "stake": 8 } })).await.unwrap();
                }
            } else if acted.as_ref() != Some(&key)
                && let Some(a) = random_action(&m["legal"], &mut rng)
            {
                acted = Some(key);
                s.send(&json!({ "type": "act", "action": a, "move": m["move"] })).await.unwrap();
            }
        }
        if common::match_over(&m) {
            break m;
        }
    };
    assert!(refused_odd, "an odd stake is refused");
    assert!(named_hand.is_some(), "Ann banks once in a match where everyone banks");
    assert!(bot_named, "the bots name their stakes");
    let text = srv.record_within(&id, Duration::from_secs(10)).await.unwrap();
    let AnyRecord::Madiao(r) = ai::record::parse(&text).unwrap() else { panic!() };
    assert!(madiao::record::replay(&r).is_clean());
    let hand = named_hand.unwrap() as usize;
    assert_eq!((r.hands[hand].banker.number(), r.hands[hand].stake), (0, 8));
    let stakes: Vec<u64> = r.hands.iter().map(|h| u64::from(h.stake)).collect();
    let shown: Vec<u64> =
        last["match"]["stakes"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    assert_eq!(shown, stakes);
    for seat in 0..4 {
        let chips: f64 = r
            .hands
            .iter()
            .map(|h| h.result.as_ref().unwrap().payoffs.0[seat].to_f64() * f64::from(h.stake))
            .sum();
        assert_eq!(last["match"]["chips"][seat].as_f64(), Some(chips), "seat {seat}");
    }
}
