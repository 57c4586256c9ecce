//! Rated duplicate events through the API (`docs/events.md`, "Rated events"), in both games: an
//! event of two tables of people (test clients with accounts, one a table, bots in the other
//! seats) and one table of the field's par plays its boards; when it is over each person's
//! rating has moved as the documented reading says, worked out here from the event's travellers
//! (every board, every other table's result at the same seat: a win, a draw or a loss against
//! its holder's rating before the event) through Glicko-2; the change is in his profile and in
//! the standings. A restart that finds the event between its last board and its finish (its
//! last results not read yet) finishes it again without rating it twice. An unrated event of
//! the same shape moves no rating.

use crate::common;

use std::time::Duration;

use cards::record::GameKind;
use common::events::{Boards, serve};
use common::{TestServer, fast, fast_limits};
use serde_json::{Value, json};
use server::Config;

const PW: &str = "correct horse battery";
const BOARDS: usize = 2;

const PLAY: Boards =
    Boards { limit: Duration::from_secs(90), resync_on: &["stale", "rate_limited", "too_late"] };

fn config(seed: u64) -> Config {
    Config { timing: fast(), limits: fast_limits(), table_seed: Some(seed), ..Default::default() }
}

/// Two players with accounts enter event `id` (one a table); their tokens and usernames.
async fn enter(srv_client: &client::Client, srv: &TestServer, id: &str, tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in ["anna", "bobo"] {
        let username = format!("{name}{tag}");
        let g = srv.guest(&username).await;
        let token = srv_client.claim_account(&g.token, &username, PW).await.unwrap().token;
        let (status, e) =
            srv_client.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&token)).await.unwrap();
        assert_eq!(status, 200, "{e}");
        out.push((token, username));
    }
    out
}

/// Makes an event of two tables of one person each and one par table.
async fn create(c: &client::Client, host: &str, game: &str, rated: bool) -> String {
    let (status, event) = c
        .post(
            "/api/events",
            &json!({"game": game, "boards": BOARDS, "tables": 2, "people_per_table": 1, "par_tables": 1, "rated": rated}),
            Some(host),
        )
        .await
        .unwrap();
    assert_eq!(status, 201, "{event}");
    assert_eq!(event["rated"], rated);
    event["id"].as_str().unwrap().to_string()
}

/// A player's profile.
async fn profile(c: &client::Client, username: &str) -> Value {
    let (status, p) = c.get(&format!("/api/players/{username}")).await.unwrap();
    assert_eq!(status, 200, "{p}");
    p
}

/// The rating of the person at table `g` (seat 0) after the event, worked out from the event's
/// travellers: on every board, a game against the holder of seat 0 at every other table (a
/// person at a new player's rating, a bot at its fixed one), won by the higher score.
fn expected(game: GameKind, e: &Value, g: u64) -> (rating::Rating, f64, u32) {
    let config = rating::Config::default();
    let seats = &e["event_tables"];
    let holder = |t: u64| -> rating::Rating {
        let seat = &seats[t as usize]["seats"][0];
        if seat["bot"] == true {
            let name = seat["name"].as_str().unwrap().strip_prefix("bot:").unwrap();
            server::ratings::bot_rating(game, name).unwrap()
        } else {
            rating::Rating::new(&config)
        }
    };
    let mut games = Vec::new();
    for t in e["travellers"].as_array().unwrap() {
        let lines = t["lines"].as_array().unwrap();
        let mine = lines.iter().find(|l| l["table"] == g).unwrap()["scores"][0].as_f64().unwrap();
        for other in lines.iter().filter(|l| l["table"] != g) {
            let theirs = other["scores"][0].as_f64().unwrap();
            let score = if mine > theirs {
                1.0
            } else if mine == theirs {
                0.5
            } else {
                0.0
            };
            games.push(rating::Game { opponent: holder(other["table"].as_u64().unwrap()), score });
        }
    }
    let after = rating::update(rating::Rating::new(&config), &games, &config).unwrap();
    (after, games.iter().map(|g| g.score).sum(), games.len() as u32)
}

async fn rated_event_moves_ratings_once(game: GameKind, seed: u64) {
    let name = game.name();
    let srv = TestServer::start_config(config(seed)).await;
    let c = &srv.client;
    let host = srv.guest("Host").await;
    let host = c.claim_account(&host.token, "host", PW).await.unwrap().token;

    // A rated event needs two tables to compare; only accounts enter it.
    let (status, e) = c
        .post("/api/events", &json!({"game": name, "boards": 2, "tables": 1, "rated": true}), Some(&host))
        .await
        .unwrap();
    assert_eq!(status, 400, "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("at least two tables"), "{e}");
    let id = create(c, &host, name, true).await;
    let anon = srv.guest("Anon").await;
    let (status, e) =
        c.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&anon.token)).await.unwrap();
    assert_eq!((status, e["error"]["code"].as_str()), (403, Some("account_required")), "{e}");
    let players = enter(c, &srv, &id, "").await;
    let tokens: Vec<String> = players.iter().map(|p| p.0.clone()).collect();
    PLAY.play_all(c, &id, &tokens, 0, BOARDS).await;
    let e = PLAY.wait_for(c, &id, &tokens[0], |e| (e["status"] == "finished").then(|| e.clone())).await;
    assert_eq!(e["rated"], true);

    // Each person's rating moved as the reading says, once; bots carry no change.
    let mut after_first = Vec::new();
    for (g, (_, username)) in players.iter().enumerate() {
        let (want, score, opponents) = expected(game, &e, g as u64);
        assert_eq!(opponents as usize, 2 * BOARDS, "two other tables on every board");
        let p = profile(c, username).await;
        let r = p["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["game"] == name)
            .unwrap_or_else(|| panic!("{p}"));
        let got = r["rating"].as_f64().unwrap();
        assert!((got - want.rating).abs() < 1e-6, "{username}: {got} vs {}", want.rating);
        assert!((r["deviation"].as_f64().unwrap() - want.deviation).abs() < 1e-6, "{p}");
        assert_eq!(r["games"], 1, "one rated result for the event: {p}");
        let history = p["history"].as_array().unwrap();
        assert_eq!(history.len(), 1, "{p}");
        assert_eq!(
            (history[0]["score"].as_f64(), history[0]["opponents"].as_u64()),
            (Some(score), Some(u64::from(opponents)))
        );
        assert_eq!(history[0]["rating_before"], 1500.0);
        let st =
            e["standings"].as_array().unwrap().iter().find(|s| s["table"] == g && s["seat"] == 0).unwrap();
        assert_eq!(st["rating_before"], 1500.0, "{st}");
        assert!((st["rating_after"].as_f64().unwrap() - want.rating).abs() < 1e-6, "{st}");
        after_first.push((got, history[0]["table"].clone()));
    }
    for st in e["standings"].as_array().unwrap().iter().filter(|s| s["bot"] == true) {
        assert!(st.get("rating_after").is_none(), "a bot's rating never changes: {st}");
    }

    // Its boards' tables are not rated themselves, but offer no aids, as a rated table does.
    for g in 0..2 {
        for k in 0..BOARDS {
            let table = format!("t{}g{g}b{k}", id.strip_prefix('e').unwrap());
            let row = srv.app.store.table(&table).await.unwrap().unwrap_or_else(|| panic!("{table}"));
            let settings: Value = serde_json::from_str(&row.settings).unwrap();
            assert_eq!(
                (settings["no_aids"].as_bool(), settings["rated"].as_bool()),
                (Some(true), None),
                "{settings}"
            );
        }
    }

    // The server stops; the stored event is put back between its last board and its finish
    // (the last board's results not read, the event playing) as a node killed then would leave
    // it; the next server finishes it again, and rates nobody twice.
    srv.task.abort();
    for h in srv.app.tables.handles() {
        h.lost.notify_one();
    }
    let db = srv.dir.path().join("yezi.db");
    let store = srv.app.store.clone();
    drop(srv.app);
    let row = store.event(&id).await.unwrap().unwrap();
    let mut doc: Value = serde_json::from_str(&row.doc).unwrap();
    doc["status"] = json!("playing");
    for g in doc["groups"].as_array_mut().unwrap() {
        g["results"][BOARDS - 1] = Value::Null;
    }
    assert!(store.update_event(&id, row.version, "playing", &doc.to_string()).await.unwrap());
    drop(store);
    tokio::time::sleep(Duration::from_millis(700)).await;
    let (app, c, _task) = serve(&db, config(seed)).await;
    let c = &c;
    let again = PLAY.wait_for(c, &id, &tokens[0], |e| (e["status"] == "finished").then(|| e.clone())).await;
    assert_eq!(again["travellers"], e["travellers"], "the same results read again");
    for ((_, username), (before, table)) in players.iter().zip(&after_first) {
        let p = profile(c, username).await;
        let r = p["ratings"].as_array().unwrap().iter().find(|r| r["game"] == name).unwrap();
        assert_eq!(r["rating"].as_f64().unwrap(), *before, "{username}: rated once: {p}");
        assert_eq!(r["games"], 1, "{p}");
        let history = p["history"].as_array().unwrap();
        assert_eq!(history.len(), 1, "{p}");
        assert_eq!(&history[0]["table"], table);
    }

    // An unrated event of the same shape moves nobody.
    let host2 = c.guest("Host2").await.unwrap();
    let host2 = c.claim_account(&host2.token, "host2", PW).await.unwrap().token;
    let id = create(c, &host2, name, false).await;
    let mut casual = Vec::new();
    for n in ["cyra", "dian"] {
        let g = c.guest(n).await.unwrap();
        let token = c.claim_account(&g.token, n, PW).await.unwrap().token;
        let (status, e) = c.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&token)).await.unwrap();
        assert_eq!(status, 200, "{e}");
        casual.push((token, n.to_string()));
    }
    let tokens: Vec<String> = casual.iter().map(|p| p.0.clone()).collect();
    PLAY.play_all(c, &id, &tokens, 0, BOARDS).await;
    let e = PLAY.wait_for(c, &id, &tokens[0], |e| (e["status"] == "finished").then(|| e.clone())).await;
    assert_eq!(e["rated"], false);
    for (_, username) in &casual {
        let p = profile(c, username).await;
        assert!(p["ratings"].as_array().unwrap().is_empty(), "{p}");
        assert!(p["history"].as_array().unwrap().is_empty(), "{p}");
    }
    assert!(e["standings"].as_array().unwrap().iter().all(|s| s.get("rating_after").is_none()), "{e}");
    let table = format!("t{}g0b0", id.strip_prefix('e').unwrap());
    let settings: Value =
        serde_json::from_str(&app.store.table(&table).await.unwrap().unwrap().settings).unwrap();
    assert_eq!(settings.get("no_aids"), None, "an unrated event's boards offer the aids: {settings}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rated_madiao_event_moves_ratings_once_and_an_unrated_one_none() {
    rated_event_moves_ratings_once(GameKind::Madiao, 41).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rated_da_bai_fen_event_moves_ratings_once_and_an_unrated_one_none() {
    rated_event_moves_ratings_once(GameKind::Dabaifen, 43).await;
}
