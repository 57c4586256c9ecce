//! Watching a duplicate event's tables (`docs/events.md`, "Watching"): while the event is under
//! way, a player of it may not watch, nor follow on the TV, a table of the event playing a board
//! he has still to play (every table plays the same cards); others may, and so may he once he
//! has played it.

use crate::common;

use std::time::Duration;

use common::events::Boards;
use common::{TestServer, fast, fast_limits};
use serde_json::{Value, json};
use server::Config;

const PLAY: Boards = Boards { limit: Duration::from_secs(60), resync_on: &["stale", "rate_limited"] };

/// What the server answers `token`'s `kind` (`watch` or `tv`) of `table`: the first `sync` or
/// `error`.
async fn watch(c: &client::Client, token: &str, kind: &str, table: &str) -> Value {
    let mut s = c.connect_as(token).await.unwrap();
    s.send(&json!({ "type": kind, "table": table })).await.unwrap();
    loop {
        let m = s.recv_timeout(Duration::from_secs(10)).await.unwrap().expect("an answer");
        if matches!(m["type"].as_str(), Some("sync" | "error")) {
            s.close().await;
            return m;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_player_may_not_watch_a_board_he_has_still_to_play() {
    let config = Config { timing: fast(), limits: fast_limits(), table_seed: Some(7), ..Default::default() };
    let srv = TestServer::start_config(config).await;
    let c = &srv.client;
    let host = srv.guest("Host").await;
    let host = c.claim_account(&host.token, "host", "correct horse battery").await.unwrap().token;
    let (status, event) = c
        .post(
            "/api/events",
            &json!({"name": "Watch night", "game": "madiao", "boards": 2, "tables": 2, "people_per_table": 1, "par_tables": 0}),
            Some(&host),
        )
        .await
        .unwrap();
    assert_eq!(status, 201, "{event}");
    let id = event["id"].as_str().unwrap().to_string();
    let mut players = Vec::new();
    for name in ["Ann", "Bo"] {
        let g = srv.guest(name).await;
        let (status, e) =
            c.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&g.token)).await.unwrap();
        assert_eq!(status, 200, "{e}");
        players.push(g.token);
    }
    let outsider = srv.guest("Cy").await.token;
    // Bo's table on board 1 (board index 0), once made.
    let (ann_table, bo_table) = PLAY
        .wait_for(c, &id, &players[0], |e| {
            let ann = e["event_tables"][0]["table_ids"][0].as_str()?;
            let bo = e["event_tables"][1]["table_ids"][0].as_str()?;
            Some((ann.to_string(), bo.to_string()))
        })
        .await;

    // Someone outside the event may (first, while the table surely plays).
    for kind in ["watch", "tv"] {
        let m = watch(c, &outsider, kind, &bo_table).await;
        assert_eq!(m["type"], "sync", "an outsider's {kind}: {m}");
    }
    // Ann plays board 1 too: she may neither watch Bo's table of it nor follow it on the TV.
    for kind in ["watch", "tv"] {
        let m = watch(c, &players[0], kind, &bo_table).await;
        assert_eq!(
            (m["type"].as_str(), m["code"].as_str()),
            (Some("error"), Some("board_unfinished")),
            "{kind}: {m}"
        );
        assert!(m["message"].as_str().unwrap().contains("board 1"), "{m}");
    }
    // Bo may not watch Ann's (his own board too).
    let m = watch(c, &players[1], "watch", &ann_table).await;
    assert_eq!(m["code"], "board_unfinished", "{m}");

    // Ann plays board 1; once it is scored she is on board 2 and may watch Bo's board 1.
    PLAY.play_all(c, &id, &players[..1], 0, 1).await;
    PLAY.wait_for(c, &id, &players[0], |e| (e["you"]["board"].as_u64() == Some(1)).then_some(())).await;
    let m = watch(c, &players[0], "tv", &bo_table).await;
    assert_ne!(m["code"], "board_unfinished", "a board she has played: {m}");
    assert!(m["type"] == "sync" || m["code"] == "finished", "{m}");
    // Her own table of board 2, once made, she may not watch (she has still to play it).
    let next = PLAY.wait_for(c, &id, &players[0], |e| e["you"]["table_id"].as_str().map(String::from)).await;
    let m = watch(c, &players[0], "watch", &next).await;
    assert_eq!(m["code"], "board_unfinished", "{m}");
}
