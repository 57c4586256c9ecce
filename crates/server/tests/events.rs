//! Duplicate events through the API (`docs/events.md`): an event of three tables of people (test
//! clients, one a table, bots in the other seats) and one table of the field's par plays eight
//! boards; every table got the same deck, banker and cards in the same seats on each board (by
//! the records), the travelling score sheets and the standings are those the records give, and
//! the event carries on across a restart of the server.

use crate::common;

use std::time::Duration;

use common::events::{Boards, check_matchpoints, serve};
use common::{TestServer, fast, fast_limits};
use serde_json::{Value, json};
use server::Config;

const PW: &str = "correct horse battery";
const BOARDS: usize = 8;

/// How the people play: a board's table ends within 60 s.
const PLAY: Boards = Boards { limit: Duration::from_secs(60), resync_on: &["stale", "rate_limited"] };

fn config() -> Config {
    Config { timing: fast(), limits: fast_limits(), table_seed: Some(29), ..Default::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_tables_and_the_par_play_the_same_eight_boards_and_survive_a_restart() {
    let srv = TestServer::start_config(config()).await;
    let c = &srv.client;
    let host = srv.guest("Host").await;
    let host = c.claim_account(&host.token, "host", PW).await.unwrap().token;

    // Refusals: a guest without an account, Da Bai Fen, rated alone, too many boards.
    let anon = srv.guest("Anon").await;
    let (status, e) = c
        .post("/api/events", &json!({"game": "madiao", "boards": 2, "tables": 1}), Some(&anon.token))
        .await
        .unwrap();
    assert_eq!((status, e["error"]["code"].as_str()), (403, Some("account_required")), "{e}");
    for (body, says) in [
        (
            json!({"game": "dabaifen", "boards": 2, "tables": 1, "variants": {"game_length": "hands:1"}}),
            "one hand",
        ),
        (json!({"game": "madiao", "boards": 2, "tables": 1, "rated": true}), "at least two tables"),
        (json!({"game": "madiao", "boards": 33, "tables": 1}), "boards must be 1 to 32"),
        (
            json!({"game": "madiao", "boards": 2, "tables": 1, "variants": {"game_length": "hands:3"}}),
            "one hand",
        ),
    ] {
        let (status, e) = c.post("/api/events", &body, Some(&host)).await.unwrap();
        assert_eq!(status, 400, "{body}: {e}");
        assert!(e["error"]["message"].as_str().unwrap().contains(says), "{body}: {e}");
    }
    let (status, e) = c.get("/api/events/enope").await.unwrap();
    assert_eq!((status, e["error"]["code"].as_str()), (404, Some("no_event")));

    let (status, event) = c
        .post(
            "/api/events",
            &json!({"name": "Club night", "game": "madiao", "boards": BOARDS, "tables": 3, "people_per_table": 1, "par_tables": 1}),
            Some(&host),
        )
        .await
        .unwrap();
    assert_eq!(status, 201, "{event}");
    let id = event["id"].as_str().unwrap().to_string();
    assert_eq!((event["status"].as_str(), event["capacity"].as_u64()), (Some("open"), Some(3)));
    assert!(event["seed"].is_null(), "the seed is secret while the event runs");

    // Three players enter; the third fills it and it begins.
    let mut players = Vec::new();
    for name in ["Ann", "Bo", "Cy"] {
        let g = srv.guest(name).await;
        let (status, e) =
            c.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&g.token)).await.unwrap();
        assert_eq!(status, 200, "{e}");
        assert_eq!(e["entered"], true);
        players.push(g.token);
    }
    let (status, e) =
        c.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&anon.token)).await.unwrap();
    assert_eq!((status, e["error"]["code"].as_str()), (409, Some("event_closed")), "{e}");
    assert_eq!(e["error"]["reason"], "event_begun", "which refusal, as a code: {e}");
    let (status, e) =
        c.post(&format!("/api/events/{id}/start"), &json!({}), Some(&players[0])).await.unwrap();
    assert_eq!((status, e["error"]["reason"].as_str()), (403, Some("event_host_only")), "{e}");
    let (_, e) = c.get_authed(&players[1], &format!("/api/events/{id}")).await.unwrap();
    assert_eq!(e["status"], "playing", "{e}");
    assert_eq!((e["you"]["table"].as_u64(), e["you"]["seat"].as_u64()), (Some(1), Some(0)));
    assert_eq!(e["event_tables"].as_array().unwrap().len(), 4, "three tables of people and the par");
    assert_eq!(e["event_tables"][3]["par"], true);
    assert_eq!(e["event_tables"][3]["seats"][2]["name"], "bot:expert");

    // The first half of the boards, then a restart, then the rest.
    let half = BOARDS / 2;
    PLAY.play_all(c, &id, &players, 0, half).await;
    // The server stops: no connection, its tables' tasks told to stop, the app dropped.
    srv.task.abort();
    for h in srv.app.tables.handles() {
        h.lost.notify_one();
    }
    let db = srv.dir.path().join("yezi.db");
    drop(srv.app);
    tokio::time::sleep(Duration::from_millis(700)).await;
    let (_app, c, _task) = serve(&db, config()).await;
    let c = &c;
    let (status, e) = c.get(&format!("/api/events/{id}")).await.unwrap();
    assert_eq!((status, e["status"].as_str()), (200, Some("playing")), "the event after the restart: {e}");
    PLAY.play_all(c, &id, &players, half, BOARDS).await;
    let e = PLAY.wait_for(c, &id, &players[0], |e| (e["status"] == "finished").then(|| e.clone())).await;
    assert!(e["seed"].as_str().is_some(), "the seed is shown once the event is over: {e}");

    // Every board's tables dealt the same deck to the same banker, by the records.
    let (status, text) = c.get_text(&format!("/api/events/{id}/records")).await.unwrap();
    assert_eq!(status, 200);
    let records: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(records.len(), 4 * BOARDS, "one record per table and board");
    for k in 0..BOARDS {
        let of_board: Vec<&Value> = records.iter().filter(|r| r["event"]["board"] == k).collect();
        assert_eq!(of_board.len(), 4);
        let first = &of_board[0]["hands"][0];
        for r in &of_board[1..] {
            assert_eq!(r["hands"][0]["deck"], first["deck"], "board {k}: the same deck everywhere");
            assert_eq!(r["hands"][0]["banker"], first["banker"], "board {k}: the same banker everywhere");
        }
        // Every board's deck is its own.
        if k > 0 {
            let prev = records.iter().find(|r| r["event"]["board"] == k - 1).unwrap();
            assert_ne!(prev["hands"][0]["deck"], first["deck"]);
        }
    }

    // The travellers and the standings are those the records give.
    let scores = |r: &Value| -> Vec<f64> {
        let mut s = vec![0.0; 4];
        for h in r["hands"].as_array().unwrap() {
            for (i, p) in h["result"]["payoffs"].as_array().unwrap().iter().enumerate() {
                s[i] += p.as_f64().unwrap();
            }
        }
        s
    };
    let standings = check_matchpoints(&e, &records, BOARDS, scores);
    let ann = standings.iter().find(|s| s["name"] == "Ann").unwrap();
    assert_eq!(
        (ann["table"].as_u64(), ann["seat"].as_u64(), ann["bot"].as_bool()),
        (Some(0), Some(0), Some(false))
    );
    // The list shows it.
    let (_, list) = c.get("/api/events").await.unwrap();
    assert!(
        list["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == id.as_str() && x["status"] == "finished")
    );
}
