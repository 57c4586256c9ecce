//! Private games kept private (issue 28, item 6): a private table's record, replay and rating
//! changes are served only to its host and its seated players, and after the match to whoever
//! holds its share token; a stranger holding the id is told there is no such table. Public
//! profiles leave out private games (their owner sees them).

use crate::common;

use std::time::Duration;

use common::{TestServer, fast, play_randomly};
use serde_json::{Value, json};

const PW: &str = "correct horse battery";

/// The record of table `id` once it is stored (read from the store: the API would hide it).
async fn stored_record(srv: &TestServer, id: &str) {
    for _ in 0..6000 {
        if srv.app.store.record(id).await.unwrap().is_some() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("table {id} has no record");
}

/// `GET path` as `token` (or no one): the status and the error code, if any.
async fn get(srv: &TestServer, token: Option<&str>, path: &str) -> (u16, Value) {
    let (status, body) = match token {
        Some(t) => srv.client.get_authed(t, path).await.unwrap(),
        None => srv.client.get(path).await.unwrap(),
    };
    (status, body)
}

/// Every route that serves a table's game, for `id` (with `share` as its `share=` parameter).
fn routes(id: &str, share: Option<&str>) -> Vec<String> {
    let q = share.map(|s| format!("share={s}"));
    let with = |base: String| match (&q, base.contains('?')) {
        (Some(q), true) => format!("{base}&{q}"),
        (Some(q), false) => format!("{base}?{q}"),
        (None, _) => base,
    };
    vec![
        with(format!("/api/records/{id}")),
        with(format!("/api/replays/{id}")),
        with(format!("/api/replays/{id}?hand=0")),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_games_record_and_replay_are_its_players_its_hosts_and_the_share_tokens() {
    let srv = TestServer::start(fast()).await;
    let host = srv.guest("Hostess").await;
    let player = srv.guest("Player").await;
    let stranger = srv.guest("Stranger").await;
    // The host creates a private one-hand table and leaves seat 0 to the player; bots play the rest.
    let body = json!({
        "game": "madiao", "private": true, "variants": { "game_length": "hands:1" },
        "seats": [{"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
    });
    let id = srv.table(&host, body).await;
    // Before the end, the host's share token opens nothing.
    let (status, share) = get(&srv, Some(&host.token), &format!("/api/tables/{id}/share")).await;
    assert_eq!(status, 200, "{share}");
    let token = share["token"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 32, "{share}");
    assert_eq!(share["replay"], format!("/replay/{id}?share={token}"));
    let (mut s, _) = srv.join(&player, &id, Some(0)).await;
    play_randomly(&mut s, 3, Duration::from_secs(120)).await;
    stored_record(&srv, &id).await;

    // A stranger with the id, or nobody at all: no such table (existence not revealed).
    for who in [Some(stranger.token.as_str()), None] {
        for path in routes(&id, None).into_iter().chain([format!("/api/tables/{id}/ratings")]) {
            let (status, body) = get(&srv, who, &path).await;
            assert_eq!((status, body["error"]["code"].as_str()), (404, Some("no_table")), "{path}: {body}");
        }
        // Nor may he read the share token.
        let (status, _) = get(&srv, who, &format!("/api/tables/{id}/share")).await;
        assert_eq!(status, 404);
    }
    // The same answer as for an id that does not exist.
    let (_, none) = get(&srv, Some(&stranger.token), "/api/records/tnosuchtable").await;
    assert_eq!(none["error"]["code"], "no_table");
    // The player and the host: served.
    for who in [&player, &host] {
        for path in routes(&id, None) {
            let (status, body) = get(&srv, Some(&who.token), &path).await;
            assert_eq!(status, 200, "{path}: {body}");
        }
    }
    // The player is no host: he cannot read the share token.
    assert_eq!(get(&srv, Some(&player.token), &format!("/api/tables/{id}/share")).await.0, 404);
    // The share token, after the match: anyone holding it, signed in or not.
    for who in [Some(stranger.token.as_str()), None] {
        for path in routes(&id, Some(&token)) {
            let (status, body) = get(&srv, who, &path).await;
            assert_eq!(status, 200, "{path}: {body}");
        }
    }
    // A wrong or truncated token is no key.
    let wrong =
        format!("{}{}", if token.starts_with('0') { '1' } else { '0' }, token.get(1..).unwrap_or_default());
    for t in [wrong.as_str(), &token[..31]] {
        for path in routes(&id, Some(t)) {
            assert_eq!(get(&srv, None, &path).await.0, 404, "{path}");
        }
    }
    // A public table's game stays anyone's.
    let public = srv
        .table(
            &host,
            json!({
                "game": "madiao", "variants": { "game_length": "hands:1" },
                "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
            }),
        )
        .await;
    stored_record(&srv, &public).await;
    for path in routes(&public, None) {
        assert_eq!(get(&srv, None, &path).await.0, 200, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_profile_leaves_out_private_rated_games_and_their_owner_sees_them() {
    let srv = TestServer::start(fast()).await;
    let g = srv.guest("Ann").await;
    let ann = srv.client.claim_account(&g.token, "Ann", PW).await.unwrap().token;
    let mut tables = Vec::new();
    for private in [true, false] {
        let body = json!({
            "game": "madiao", "rated": true, "private": private, "turn_seconds": 60,
            "variants": { "game_length": "hands:4" },
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}],
        });
        let (status, reply) = srv.client.post("/api/tables", &body, Some(&ann)).await.unwrap();
        assert_eq!(status, 201, "{reply}");
        let id = reply["table"]["id"].as_str().unwrap().to_string();
        let mut s = srv.client.connect_as(&ann).await.unwrap();
        s.send(&json!({ "type": "join", "table": id })).await.unwrap();
        play_randomly(&mut s, 7, Duration::from_secs(120)).await;
        stored_record(&srv, &id).await;
        tables.push(id);
    }
    let listed = |p: &Value| -> Vec<String> {
        p["history"].as_array().unwrap().iter().map(|h| h["table"].as_str().unwrap().to_string()).collect()
    };
    let (status, public) = get(&srv, None, "/api/players/ann").await;
    assert_eq!(status, 200, "{public}");
    assert_eq!(listed(&public), [tables[1].clone()], "the private game is listed: {public}");
    assert!(
        public["recent"].as_array().unwrap().iter().all(|r| r["table"] != tables[0].as_str()),
        "{public}"
    );
    let stranger = srv.guest("Bo").await;
    assert_eq!(listed(&get(&srv, Some(&stranger.token), "/api/players/ann").await.1), [tables[1].clone()]);
    // Ann sees her own.
    let (_, own) = get(&srv, Some(&ann), "/api/players/ann").await;
    assert_eq!(listed(&own), tables, "{own}");
}
