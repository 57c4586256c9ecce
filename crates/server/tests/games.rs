//! Full matches over real WebSockets: a person (a scripted client playing random legal actions
//! from the server's legal descriptions) with three bots, for both games; the finished game's
//! record replays cleanly.

use crate::common;

use std::time::Duration;

use ai::record::AnyRecord;
use common::{TestServer, fast, play_randomly};
use serde_json::json;

async fn one_person_and_three_bots(game: &str) {
    let srv = TestServer::start(fast()).await;
    let ann = srv.guest("Ann").await;
    let id = srv.table(&ann, json!({ "game": game, "turn_seconds": 60 })).await;
    let (mut s, sync) = srv.join(&ann, &id, None).await;
    assert_eq!(sync["you"]["seat"], 0);
    let seen = play_randomly(&mut s, 7, Duration::from_secs(120)).await;
    assert_eq!(s.gaps, 0, "no version gap on a quiet connection");
    let last = seen.last().unwrap();
    assert_eq!(last["match"]["over"], true);
    // The record is served once the match is over, and it replays cleanly.
    let text = srv.record_within(&id, Duration::from_secs(10)).await.unwrap();
    match ai::record::parse(&text).unwrap() {
        AnyRecord::Madiao(r) => {
            let rep = madiao::record::replay(&r);
            assert!(rep.is_clean(), "{:?}", rep.error);
            assert!(rep.hands.last().unwrap().result.as_ref().unwrap().game_over);
            assert_eq!(r.players.as_ref().unwrap().0[0], "Ann");
        }
        AnyRecord::Dabaifen(r) => {
            let rep = dabaifen::record::replay(&r);
            assert!(rep.is_clean(), "{:?}", rep.error);
            assert!(rep.hands.last().unwrap().state.result().unwrap().game_over);
        }
    }
    let hands = last["match"]["hands"].as_u64().unwrap();
    assert!(hands >= 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_madiao_match_with_a_person_and_three_bots() {
    one_person_and_three_bots("madiao").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dabaifen_match_with_a_person_and_three_bots() {
    one_person_and_three_bots("dabaifen").await;
}
