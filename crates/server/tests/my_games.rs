//! "My games" (`GET /api/account/games`): a guest's finished games with their results, filtered
//! by game, result and opponent, in pages, each naming its replay.

use crate::common;

use std::time::Duration;

use common::TestServer;
use serde_json::{Value, json};

const PLAY: Duration = Duration::from_secs(60);

/// Each seat's chips over a finished Madiao match, from its record alone (the sum over hands of
/// the payoffs times the stake).
fn chips_from_record(record: &str) -> [f64; 4] {
    let ai::record::AnyRecord::Madiao(rec) = ai::record::parse(record).unwrap() else { panic!() };
    let mut chips = [0.0f64; 4];
    for h in &rec.hands {
        for (c, x) in chips.iter_mut().zip(h.result.as_ref().unwrap().payoffs.0) {
            *c += x.to_f64() * f64::from(h.stake);
        }
    }
    chips
}

/// How each seat came out of a finished Madiao match, from its record alone: above the
/// average of the chips won is `won`.
fn results_from_record(record: &str) -> [String; 4] {
    let chips = chips_from_record(record);
    let mean = chips.iter().sum::<f64>() / 4.0;
    chips.map(|c| {
        if (c - mean).abs() < 1e-9 {
            "drawn".to_string()
        } else if c > mean {
            "won".to_string()
        } else {
            "lost".to_string()
        }
    })
}

async fn games(t: &TestServer, token: &str, query: &str) -> (u16, Value) {
    t.client.get_authed(token, &format!("/api/account/games{query}")).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_lists_the_finished_games_with_their_results_filters_and_pages() {
    let t = TestServer::start(common::fast()).await;
    let ann = t.guest("Ann").await;
    let bo = t.guest("Xu").await;
    let mut ids = Vec::new();
    // Two matches of Ann with three bots.
    for seed in 0..2 {
        let body = json!({ "game": "madiao", "variants": {"game_length": "hands:2"} });
        let id = t.table(&ann, body).await;
        let (mut s, _) = t.join(&ann, &id, None).await;
        common::play_randomly(&mut s, seed, PLAY).await;
        ids.push(id);
    }
    // One of Ann and Bo.
    let body = json!({ "game": "madiao", "variants": {"game_length": "hands:2"},
        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] });
    let with_bo = t.table(&ann, body).await;
    let (mut a, _) = t.join(&ann, &with_bo, None).await;
    let (mut b, _) = t.join(&bo, &with_bo, Some(1)).await;
    tokio::join!(common::play_randomly(&mut a, 7, PLAY), common::play_randomly(&mut b, 8, PLAY));
    ids.push(with_bo.clone());
    // A table that is not finished and one closed: not games.
    let waiting = t.table(&ann, json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] })).await;
    let (mut c, _) = t.join(&ann, &waiting, None).await;
    c.send(&json!({"type": "close"})).await.unwrap();
    c.until(Duration::from_secs(10), "closed", |m| m["type"] == "host").await.unwrap();
    let _open = t.table(&ann, json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] })).await;
    // What each game's record says of Ann (seat 0) and Bo (seat 1).
    let mut expected = std::collections::HashMap::new();
    let mut chips = std::collections::HashMap::new();
    for id in &ids {
        let record = t.record_within(id, Duration::from_secs(10)).await.expect("the record");
        expected.insert(id.clone(), results_from_record(&record));
        chips.insert(id.clone(), chips_from_record(&record));
    }

    let (status, all) = games(&t, &ann.token, "").await;
    assert_eq!(status, 200, "{all}");
    let listed: Vec<&str> =
        all["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    let newest_first: Vec<&str> = ids.iter().rev().map(String::as_str).collect();
    assert_eq!(listed, newest_first, "the finished games only, newest first");
    assert_eq!((all["total"].clone(), all["next"].clone()), (json!(3), Value::Null));
    for g in all["games"].as_array().unwrap() {
        let id = g["id"].as_str().unwrap();
        assert_eq!(g["result"], expected[id][0].as_str(), "{g}");
        // The final score: each seat's chips, as the record adds them up.
        let score: Vec<f64> =
            g["score"]["chips"].as_array().unwrap().iter().map(|c| c.as_f64().unwrap()).collect();
        assert_eq!(score, chips[id], "{g}");
        assert_eq!(g["score"]["over"], true);
        assert_eq!(g["seat"], 0);
        assert_eq!(g["replay"], format!("/replay/{id}"));
        assert_eq!(g["game"], "madiao");
    }
    let (status, replay) = t.client.get(&format!("/api/replays/{}", listed[0])).await.unwrap();
    assert_eq!(status, 200, "the replay each game names is served: {replay}");

    // By result: exactly the games of that result, for each result.
    for r in ["won", "lost", "drawn"] {
        let (_, page) = games(&t, &ann.token, &format!("?result={r}")).await;
        let mut got: Vec<String> =
            page["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect();
        let mut want: Vec<String> = ids.iter().filter(|id| expected[*id][0] == r).cloned().collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "result={r}");
    }
    // By opponent, in any case and by part of the name; by game.
    let (_, page) = games(&t, &ann.token, "?opponent=xU").await;
    assert_eq!(page["total"], 1);
    assert_eq!(page["games"][0]["id"], with_bo.as_str());
    assert_eq!(page["games"][0]["players"][1], "Xu");
    let (_, page) = games(&t, &ann.token, "?opponent=BOT:").await;
    assert_eq!(page["total"], 3);
    let (_, page) = games(&t, &ann.token, "?opponent=ann").await;
    assert_eq!(page["total"], 0, "her own name is no opponent");
    let (_, page) = games(&t, &ann.token, "?game=dabaifen").await;
    assert_eq!(page["total"], 0);
    let (_, page) = games(&t, &ann.token, "?game=madiao&opponent=xu").await;
    assert_eq!(page["total"], 1);
    // Pages.
    let (_, p1) = games(&t, &ann.token, "?limit=2").await;
    assert_eq!((p1["games"].as_array().unwrap().len(), p1["next"].clone()), (2, json!(2)));
    let (_, p2) = games(&t, &ann.token, "?limit=2&offset=2").await;
    assert_eq!(p2["games"].as_array().unwrap().len(), 1);
    assert_eq!(p2["games"][0]["id"], listed[2]);
    assert_eq!(p2["next"], Value::Null);
    // Bo's own list: the one game, from his seat.
    let (_, page) = games(&t, &bo.token, "").await;
    assert_eq!(page["total"], 1);
    assert_eq!(
        (page["games"][0]["seat"].clone(), page["games"][0]["result"].clone()),
        (json!(1), json!(expected[&with_bo][1]))
    );
    // Bad filters and no token.
    for q in ["?result=tied", "?game=chess", "?limit=0", "?limit=101", "?offset=-1"] {
        let (status, body) = games(&t, &ann.token, q).await;
        assert_eq!((status, body["error"]["code"].clone()), (400, json!("bad_request")), "{q}: {body}");
    }
    let (status, _) = t.client.get("/api/account/games").await.unwrap();
    assert_eq!(status, 401);
}
