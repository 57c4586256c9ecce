//! Da Bai Fen duplicate events through the API (`docs/events.md`, "Da Bai Fen boards"): an event
//! of three tables of people (test clients, one a table, bots in the other seats) and one table of
//! the field's par plays five boards; by the records, every table of a board played one deal
//! dealt from the event's seed with the board's starter and ranks, the same deck at every table,
//! and each record replays; the travellers' scores are the margins the records give, their
//! matchpoints are worked by hand, the standings follow; the event carries on across a restart of
//! the server.

use crate::common;

use std::time::Duration;

use common::events::{Boards, check_matchpoints, serve};
use common::{TestServer, fast, fast_limits};
use serde_json::{Value, json};
use server::Config;

const PW: &str = "correct horse battery";
/// Five boards: every seat starts once on the first four, and the fifth is at rank 3.
const BOARDS: usize = 5;

/// How the people play: a board's table ends within 90 s.
const PLAY: Boards =
    Boards { limit: Duration::from_secs(90), resync_on: &["stale", "rate_limited", "too_late"] };

fn config() -> Config {
    Config { timing: fast(), limits: fast_limits(), table_seed: Some(31), ..Default::default() }
}

/// A seat's score on a board worked out from its record here, not by the server's code: the
/// deal that was not annulled, `T − 40` for a defender and `40 − T` for a declarer (the
/// starter's team: seats 0 and 2, or 1 and 3).
fn margins(rec: &Value) -> Vec<f64> {
    let hands = rec["hands"].as_array().unwrap();
    let played: Vec<&Value> = hands.iter().filter(|h| h["result"]["outcome"] != "annulled").collect();
    assert_eq!(played.len(), 1, "a board's table plays one deal that is not annulled: {rec}");
    let r = &played[0]["result"];
    let t = r["defender_points"].as_f64().unwrap();
    let declarers = r["starter"].as_u64().unwrap() % 2;
    (0..4u64).map(|s| if s % 2 == declarers { 40.0 - t } else { t - 40.0 }).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_tables_and_the_par_play_the_same_da_bai_fen_boards_and_survive_a_restart() {
    let srv = TestServer::start_config(config()).await;
    let c = &srv.client;
    let host = srv.guest("Host").await;
    let host = c.claim_account(&host.token, "host", PW).await.unwrap().token;

    // A board is one deal: a game length is refused, as are the rules' unknown variants.
    for (body, says) in [
        (
            json!({"game": "dabaifen", "boards": 2, "tables": 1, "variants": {"game_length": "hands:2"}}),
            "one hand",
        ),
        (json!({"game": "dabaifen", "boards": 2, "tables": 1, "variants": {"revoke": "never"}}), "revoke"),
    ] {
        let (status, e) = c.post("/api/events", &body, Some(&host)).await.unwrap();
        assert_eq!(status, 400, "{body}: {e}");
        assert!(e["error"]["message"].as_str().unwrap().contains(says), "{body}: {e}");
    }

    let (status, event) = c
        .post(
            "/api/events",
            &json!({"name": "Bai Fen night", "game": "dabaifen", "boards": BOARDS, "tables": 3,
                    "people_per_table": 1, "par_tables": 1, "scoring": "matchpoints"}),
            Some(&host),
        )
        .await
        .unwrap();
    assert_eq!(status, 201, "{event}");
    let id = event["id"].as_str().unwrap().to_string();
    assert_eq!((event["game"].as_str(), event["status"].as_str()), (Some("dabaifen"), Some("open")));
    assert!(event["seed"].is_null(), "the seed is secret while the event runs");

    let mut players = Vec::new();
    for name in ["Ann", "Bo", "Cy"] {
        let g = srv.guest(name).await;
        let (status, e) =
            c.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&g.token)).await.unwrap();
        assert_eq!(status, 200, "{e}");
        players.push(g.token);
    }
    let (_, e) = c.get_authed(&players[2], &format!("/api/events/{id}")).await.unwrap();
    assert_eq!(e["status"], "playing", "{e}");
    assert_eq!((e["you"]["table"].as_u64(), e["you"]["seat"].as_u64()), (Some(2), Some(0)));
    assert_eq!(e["event_tables"][3]["par"], true);
    assert_eq!(e["event_tables"][3]["seats"][1]["name"], "bot:expert");
    assert_eq!(e["event_tables"][0]["seats"][1]["name"], "bot:heuristic", "the game's default bot");

    // Two boards, a restart, then the rest.
    PLAY.play_all(c, &id, &players, 0, 2).await;
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
    PLAY.play_all(c, &id, &players, 2, BOARDS).await;
    let e = PLAY.wait_for(c, &id, &players[0], |e| (e["status"] == "finished").then(|| e.clone())).await;
    let seed: u64 = e["seed"].as_str().expect("the seed is shown once the event is over").parse().unwrap();

    // By the records: each board's tables played the deck the event's seed deals for the board,
    // from the board's starter and ranks, the same at every table; every record replays.
    let (status, text) = c.get_text(&format!("/api/events/{id}/records")).await.unwrap();
    assert_eq!(status, 200);
    let records: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(records.len(), 4 * BOARDS, "one record per table and board");
    let ranks: [&str; BOARDS] = ["2", "2", "2", "2", "3"];
    let mut annulled = 0;
    for (k, rank) in ranks.into_iter().enumerate() {
        let of_board: Vec<&Value> = records.iter().filter(|r| r["event"]["board"] == k).collect();
        assert_eq!(of_board.len(), 4);
        let board_seed = server::duplicate::board_seed(seed, k as u32);
        let deck: Vec<String> =
            dabaifen::deck_from_seed(board_seed, 0).iter().map(|c| c.to_string()).collect();
        for r in &of_board {
            assert_eq!(r["game"], "dabaifen");
            let first = &r["hands"][0];
            assert_eq!(first["deck"], json!(deck), "board {k}: the deck of the board's seed");
            assert_eq!(first["starter"], k % 4, "board {k}: the starter moves a seat a board");
            assert_eq!(first["ranks"], json!([rank, rank]), "board {k}: both sides at the board's rank");
            assert_eq!((first["first_deal"].as_bool(), first["open"].as_bool()), (Some(false), Some(false)));
            let hands = r["hands"].as_array().unwrap();
            // A redeal after an annulment deals the table's next deck: the same at every table.
            for (h, hand) in hands.iter().enumerate().skip(1) {
                let again: Vec<String> =
                    dabaifen::deck_from_seed(board_seed, h as u64).iter().map(|c| c.to_string()).collect();
                assert_eq!(hand["deck"], json!(again), "board {k}: deal {h}");
                annulled += 1;
            }
            let parsed = ai::record::parse(&serde_json::to_string(r).unwrap()).unwrap();
            let ai::record::AnyRecord::Dabaifen(rec) = parsed else { panic!("not a Da Bai Fen record") };
            let replayed = dabaifen::record::replay(&rec);
            assert!(replayed.error.is_none(), "board {k}: {:?}", replayed.error);
            assert!(replayed.differences().is_empty(), "board {k}: {:?}", replayed.differences());
        }
        let players_of =
            |g: u64| records.iter().find(|r| r["event"]["board"] == k && r["event"]["table"] == g);
        assert_eq!(players_of(0).unwrap()["players"][0], "Ann", "board {k}: Ann keeps her seat");
    }
    eprintln!("{annulled} annulled deals were dealt again");

    // The travellers' scores are the margins of the records; the matchpoints by hand.
    let zero_sum = |rec: &Value| {
        let m = margins(rec);
        assert_eq!(m[0] + m[1], 0.0, "the sides' scores add up to 0");
        m
    };
    check_matchpoints(&e, &records, BOARDS, zero_sum);
}
