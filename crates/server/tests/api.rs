//! The HTTP API against the router itself (no network): guests, tokens, the games' options,
//! creating tables with their validation, the lobby, a table's summary, records (served only once
//! a game is over), statistics and the static pages.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use server::store::sqlite::SqliteStore;
use server::{App, Config, Limits};
use tower::ServiceExt;

struct Api {
    app: Arc<App>,
    _dir: tempfile::TempDir,
}

impl Api {
    async fn new(limits: Limits) -> Api {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(SqliteStore::open(dir.path().join("y.db").to_str().unwrap()).unwrap());
        let app =
            App::start(store, Config { timing: common::fast(), limits, ..Default::default() }).await.unwrap();
        let listen = "127.0.0.1:8080".parse().unwrap();
        app.set_site(server::Site::new("https://cards.example.org/", &[], listen).unwrap());
        Api { app, _dir: dir }
    }

    async fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        token: Option<&str>,
    ) -> (StatusCode, String) {
        let mut req = Request::builder().method(method).uri(path).header("host", "yezi.test:8080");
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let req = req.body(body.map_or(Body::empty(), |b| Body::from(b.to_string()))).unwrap();
        let res = server::router(self.app.clone()).oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    async fn json(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
        token: Option<&str>,
    ) -> (StatusCode, Value) {
        let text = body.map(|b| b.to_string());
        let (s, b) = self.call(method, path, text.as_deref(), token).await;
        (s, serde_json::from_str(&b).unwrap_or(Value::Null))
    }

    async fn guest(&self, name: &str) -> (String, String) {
        let (s, v) = self.json("POST", "/api/guests", Some(json!({ "name": name })), None).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        (v["id"].as_str().unwrap().to_string(), v["token"].as_str().unwrap().to_string())
    }
}

fn bad(v: &Value, needle: &str) {
    // A refused name has its own code; every other refusal is `bad_request`.
    let code = if needle.contains("characters") { "bad_name" } else { "bad_request" };
    assert_eq!(v["error"]["code"], code, "{v}");
    let m = v["error"]["message"].as_str().unwrap();
    assert!(m.contains(needle), "{m:?} should contain {needle:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_and_tokens() {
    let api = Api::new(Limits::default()).await;
    let (s, v) = api.json("POST", "/api/guests", Some(json!({ "name": "  安 Ann  " })), None).await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(v["name"], "安 Ann");
    let token = v["token"].as_str().unwrap();
    assert_eq!(token.len(), 64);
    let (s, me) = api.json("GET", "/api/me", None, Some(token)).await;
    assert_eq!((s, me["id"].clone()), (StatusCode::OK, v["id"].clone()));
    let (s, e) = api.json("GET", "/api/me", None, Some("wrong")).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("bad_token")));
    let (s, _) = api.json("GET", "/api/me", None, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    for (body, needle) in [
        (json!({ "name": "" }), "1 to 24 characters"),
        (json!({ "name": "x".repeat(25) }), "1 to 24 characters"),
        (json!({ "name": "a\u{7}b" }), "control characters"),
        (json!({ "nom": "Ann" }), "missing field `name`"),
        (json!({ "name": 5 }), "name: invalid type"),
    ] {
        let (s, v) = api.json("POST", "/api/guests", Some(body), None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        bad(&v, needle);
    }
    let (s, text) = api.call("POST", "/api/guests", Some("{not json"), None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(text.contains("the body is not JSON"), "{text}");
    // Tokens are stored hashed: the database does not hold the token.
    let db = std::fs::read(api._dir.path().join("y.db")).unwrap();
    let wal = std::fs::read(api._dir.path().join("y.db-wal")).unwrap_or_default();
    let has = |hay: &[u8]| hay.windows(token.len()).any(|w| w == token.as_bytes());
    assert!(!has(&db) && !has(&wal), "the token is not stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_options() {
    let api = Api::new(Limits::default()).await;
    let (s, v) = api.json("GET", "/api/games", None, None).await;
    assert_eq!(s, StatusCode::OK);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games[0]["game"], "madiao");
    assert_eq!(games[0]["presets"]["feng"]["faceup_discard"], "forbidden");
    assert_eq!(games[0]["presets"]["standard"]["faceup_discard"], "penalty");
    assert_eq!(games[1]["game"], "dabaifen");
    assert_eq!(games[1]["presets"]["standard"]["revoke"], "penalize");
    for g in games {
        let bots: Vec<&str> = g["bots"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
        assert!(bots.contains(&"random"));
        let default = g["default_bot"].as_str().unwrap();
        assert_eq!(default, if bots.contains(&"heuristic") { "heuristic" } else { "random" });
        // The research bots are marked (a lobby leaves them out); a table still accepts them.
        let research: Vec<&str> =
            g["research_bots"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
        assert!(research.iter().all(|r| bots.contains(r)), "{research:?} are bots");
        assert!(!research.contains(&default), "the default bot is offered");
        if g["game"] == "madiao" {
            assert_eq!(research, ["pimc-coalition", "pimc-mixed", "learned"]);
        } else {
            assert!(research.is_empty());
        }
    }
    let (_, token) = api.guest("Res").await;
    let body = json!({
        "game": "madiao", "turn_seconds": 20,
        "seats": [{"kind": "me"}, {"kind": "bot", "bot": "pimc-coalition"}, {"kind": "bot", "bot": "pimc-mixed"}, {"kind": "bot", "bot": "learned"}],
    });
    let (s, v) = api.json("POST", "/api/tables", Some(body), Some(&token)).await;
    assert_eq!(s, StatusCode::CREATED, "the API seats the research bots: {v}");
    let seated: Vec<&str> =
        v["table"]["seats"].as_array().unwrap().iter().filter_map(|s| s["bot"].as_str()).collect();
    assert_eq!(seated, ["pimc-coalition", "pimc-mixed", "learned"], "{v}");
}

/// `GET /api/tutorial/{game}`: each game's scripted hand as seat 0 sees it, ending settled; the same
/// answer twice (made once, kept); another game is `404`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tutorials() {
    let api = Api::new(Limits::default()).await;
    for (game, first, end) in [
        ("madiao", "tut.madiao.redeal", "tut.madiao.settlement"),
        ("dabaifen", "tut.dabaifen.declare", "tut.dabaifen.account"),
    ] {
        let (s, v) = api.json("GET", &format!("/api/tutorial/{game}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{game}");
        assert_eq!(v["game"], game);
        let steps = v["steps"].as_array().unwrap();
        let lessons: Vec<&str> = steps.iter().filter_map(|s| s["lesson"]["id"].as_str()).collect();
        assert_eq!(lessons.first(), Some(&first), "{game}: {lessons:?}");
        assert_eq!(v["end_lesson"], end);
        assert_eq!(steps.last().unwrap()["view"]["phase"], "over");
        // Every view is seat 0's (a seat's view: its own hand only).
        for s in steps {
            assert_eq!(s["view"]["seat"], 0);
        }
        let (_, again) = api.json("GET", &format!("/api/tutorial/{game}"), None, None).await;
        assert_eq!(again, v);
    }
    let (s, _) = api.json("GET", "/api/tutorial/chess", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_tables_checks_everything_and_the_lobby_lists_public_ones() {
    let api = Api::new(Limits { tables_per_guest: 3, ..Limits::default() }).await;
    let (_, token) = api.guest("Ann").await;
    let t = Some(token.as_str());
    let body = json!({
        "game": "madiao", "rules": "feng", "variants": { "game_length": "hands:2" }, "stake": 4,
        "turn_seconds": 20, "name": "Ann's table",
        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
    });
    let (s, v) = api.json("POST", "/api/tables", Some(body.clone()), t).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let table = &v["table"];
    let id = table["id"].as_str().unwrap();
    // From the public URL, not from the request's `Host: yezi.test:8080`.
    assert_eq!(v["invite"], format!("https://cards.example.org/t/{id}"));
    assert_eq!(table["variants"]["faceup_discard"], "forbidden");
    assert_eq!(table["variants"]["game_length"], "hands:2");
    assert_eq!(table["stake"], 4);
    assert_eq!(table["status"], "waiting");
    assert_eq!(table["open_seats"], 1);
    assert_eq!(table["seats"][0]["name"], "Ann");
    assert_eq!(table["seats"][2]["bot"], "random");
    // With a seat for another person: the clock asked for, and a time bank of a minute.
    assert_eq!((table["untimed"].as_bool(), table["bank_seconds"].as_u64()), (Some(false), Some(60)));
    assert!(!table.to_string().contains("seed"), "the seed stays on the server");
    let mut private = body.clone();
    private["private"] = json!(true);
    let (s, v) = api.json("POST", "/api/tables", Some(private), t).await;
    assert_eq!(s, StatusCode::CREATED);
    let private_id = v["table"]["id"].as_str().unwrap().to_string();
    let (_, lobby) = api.json("GET", "/api/tables", None, None).await;
    let ids: Vec<&str> =
        lobby["tables"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(ids, vec![id], "the private table is not listed");
    let (s, info) = api.json("GET", &format!("/api/tables/{private_id}"), None, None).await;
    assert_eq!((s, info["private"].as_bool()), (StatusCode::OK, Some(true)));
    let (s, _) = api.json("GET", "/api/tables/tnope", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    for (change, needle) in [
        (json!({ "game": "chess" }), "game: unknown variant `chess`"),
        (json!({ "rules": "modern" }), "unknown rules preset"),
        (json!({ "variants": { "colour": "red" } }), "unknown variant `colour`"),
        (json!({ "variants": { "slam": "sometimes" } }), "variant `slam` cannot be"),
        (json!({ "stake": 3 }), "stake must be an even number"),
        (
            json!({ "stake": 4, "stake_max": 9 }),
            "stake must be an even number of chips from 2 to 1000, not 9",
        ),
        (json!({ "stake": 8, "stake_max": 4 }), "the lowest stake (8) is above the highest (4)"),
        (json!({ "turn_seconds": 2 }), "turn_seconds must be 5 to 3600"),
        (json!({ "bank_seconds": 601 }), "bank_seconds must be 0 to 600, not 601"),
        (json!({ "name": "" }), "a table name must have 1 to 60 characters"),
        (json!({ "seats": [{"kind": "me"}] }), "a table has 4 seats, not 1"),
        (
            json!({ "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "open"}, {"kind": "open"}] }),
            "one seat",
        ),
        (
            json!({ "seats": [{"kind": "bot", "bot": "genius"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}] }),
            "unknown bot \"genius\"",
        ),
        (
            json!({ "seats": [{"kind": "robot"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}] }),
            "seats[0]",
        ),
    ] {
        let mut b = body.clone();
        for (k, v) in change.as_object().unwrap() {
            b[k] = v.clone();
        }
        let (s, v) = api.json("POST", "/api/tables", Some(b), t).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{change}: {v}");
        bad(&v, needle);
    }
    let (s, v) = api
        .json(
            "POST",
            "/api/tables",
            Some(json!({ "game": "dabaifen", "variants": { "revoke": "refuse" } })),
            t,
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["table"]["variants"]["revoke"], "refuse");
    assert!(v["table"].get("stake").is_none(), "no stake in Da Bai Fen");
    // A guest hosts at most `tables_per_guest` unfinished tables.
    let (s, v) = api.json("POST", "/api/tables", Some(json!({ "game": "dabaifen" })), t).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["error"]["code"], "too_many_tables");
    let (s, v) = api.json("POST", "/api/tables", Some(json!({ "game": "madiao" })), Some("x")).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("bad_token")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_are_served_only_once_the_game_is_over() {
    let api = Api::new(Limits::default()).await;
    let (_, token) = api.guest("Ann").await;
    let bots = json!([{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]);
    let (s, v) = api
        .json(
            "POST",
            "/api/tables",
            Some(json!({ "game": "madiao", "variants": { "game_length": "hands:2" }, "seats": bots })),
            Some(&token),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = v["table"]["id"].as_str().unwrap().to_string();
    // A table of bots plays at once; while it plays its record is not served (it holds the decks).
    let (s, v) = api.json("GET", &format!("/api/records/{id}"), None, None).await;
    if s == StatusCode::CONFLICT {
        assert_eq!(v["error"]["code"], "not_finished");
    }
    let (s, _) = api.json("GET", "/api/records/tnone", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let text = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let (s, text) = api.call("GET", &format!("/api/records/{id}"), None, None).await;
            if s == StatusCode::OK {
                return text;
            }
            assert_eq!(s, StatusCode::CONFLICT);
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap();
    let ai::record::AnyRecord::Madiao(rec) = ai::record::parse(&text).unwrap() else { panic!("{text}") };
    // hands:2 counts every hand but a long-suit redeal (the same hand dealt again).
    let counted = rec
        .hands
        .iter()
        .filter(|h| h.result.as_ref().is_some_and(|r| r.outcome != madiao::record::MadiaoOutcome::Redeal));
    assert_eq!(counted.count(), 2);
    assert!(rec.hands.iter().all(|h| h.result.is_some()), "every hand of a finished game is complete");
    assert!(rec.seed.is_some(), "a finished game's record shows its seed");
    assert_eq!(rec.players.as_ref().unwrap().0[0], "bot:random".replace("random", &default_bot()));
    let rep = madiao::record::replay(&rec);
    assert!(rep.is_clean(), "{:?}", rep.error);
    // Its decks are the seed's.
    for (k, h) in rec.hands.iter().enumerate() {
        let deck: Vec<String> =
            madiao::deck_from_seed(rec.seed.unwrap(), k as u64).iter().map(|c| c.to_string()).collect();
        assert_eq!(h.deck, deck);
    }
    let (s, info) = api.json("GET", &format!("/api/tables/{id}"), None, None).await;
    assert_eq!((s, info["status"].as_str()), (StatusCode::OK, Some("finished")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_madiao_table_draws_the_zero_cash_it_chose_and_keeps_it_out_of_its_record() {
    let api = Api::new(Limits::default()).await;
    let (_, token) = api.guest("Ann").await;
    let t = Some(token.as_str());
    // An older client sends no zero cash: the default, an unnamed figure.
    for (zero_cash, expected) in
        [(Some("wang_ying"), "wang_ying"), (Some("blank"), "blank"), (None, "unnamed")]
    {
        let mut body = json!({ "game": "madiao", "private": true });
        if let Some(z) = zero_cash {
            body["zero_cash"] = json!(z);
        }
        let (s, v) = api.json("POST", "/api/tables", Some(body), t).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(v["table"]["zero_cash"], expected, "{v}");
        let id = v["table"]["id"].as_str().unwrap();
        let (_, info) = api.json("GET", &format!("/api/tables/{id}"), None, None).await;
        assert_eq!(info["zero_cash"], expected, "{info}");
    }
    let (s, v) =
        api.json("POST", "/api/tables", Some(json!({ "game": "madiao", "zero_cash": "portrait" })), t).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    bad(&v, "unknown variant `portrait`");
    let (s, v) = api.json("POST", "/api/tables", Some(json!({ "game": "dabaifen" })), t).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert!(v["table"].get("zero_cash").is_none(), "no zero cash in Da Bai Fen: {v}");
    // A match played with the deck of 王英: its record is the same as any other's.
    let bots = json!([{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]);
    let body = json!({ "game": "madiao", "variants": { "game_length": "hands:1" }, "seats": bots, "zero_cash": "wang_ying" });
    let (s, v) = api.json("POST", "/api/tables", Some(body), t).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["table"]["id"].as_str().unwrap().to_string();
    let text = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let (s, text) = api.call("GET", &format!("/api/records/{id}"), None, None).await;
            if s == StatusCode::OK {
                return text;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap();
    assert!(!text.contains("zero_cash") && !text.contains("wang_ying"), "{text}");
    let ai::record::AnyRecord::Madiao(rec) = ai::record::parse(&text).unwrap() else { panic!("{text}") };
    assert!(madiao::record::replay(&rec).is_clean());
}

fn default_bot() -> String {
    table::bots::default_bot_of(cards::record::GameKind::Madiao).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statistics_and_static_pages() {
    let api = Api::new(Limits::default()).await;
    let (s, v) = api.json("GET", "/api/stats", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["tables"], 0);
    assert_eq!(v["connections"], 0);
    assert!(v["rss_bytes"].as_u64().unwrap() > 1_000_000);
    // One node on SQLite holds every table: nothing is ever fenced or lost.
    assert_eq!((v["fenced_writes"].as_u64(), v["leases_lost"].as_u64()), (Some(0), Some(0)), "{v}");
    let (s, page) = api.call("GET", "/", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(page.contains("yezi") && page.contains("/js/main.js"), "{page}");
    // The client's own pages, also reloaded or shared with their query (an analysis's deep link).
    for path in [
        "/t/t1234",
        "/replay/t1234",
        "/replay",
        "/rules",
        "/account",
        "/analysis/t1234",
        "/analysis/t1234?hand=1&seat=2",
        "/tutorial/madiao",
        "/ratings",
        "/players/ann",
    ] {
        let (s, same) = api.call("GET", path, None, None).await;
        assert_eq!((s, same == page), (StatusCode::OK, true), "{path}");
    }
    // The client's files, with their types, and revalidated by their ETag.
    for (path, ty) in [
        ("/js/main.js", "text/javascript; charset=utf-8"),
        ("/css/app.css", "text/css; charset=utf-8"),
        ("/vendor/preact-htm.js", "text/javascript; charset=utf-8"),
    ] {
        let req = Request::builder().uri(path).body(Body::empty()).unwrap();
        let res = server::router(api.app.clone()).oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_eq!(res.headers()["content-type"], ty, "{path}");
        assert_eq!(res.headers()["cache-control"], "no-cache");
        let etag = res.headers()["etag"].clone();
        let req = Request::builder().uri(path).header("if-none-match", etag).body(Body::empty()).unwrap();
        let res = server::router(api.app.clone()).oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_MODIFIED, "{path}");
    }
    let (s, _) = api.call("GET", "/.hidden", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = api.call("GET", "/nothing.js", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = api.call("GET", "/../Cargo.toml", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = api.call("GET", "/api/nothing", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

/// The seeds of the first two tables a server creates.
async fn first_seeds(table_seed: Option<u64>) -> [u64; 2] {
    let t =
        common::TestServer::start_config(Config { timing: common::fast(), table_seed, ..Default::default() })
            .await;
    let host = t.guest("Ann").await;
    let body = json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}] });
    let mut seeds = [0; 2];
    for seed in &mut seeds {
        let id = t.table(&host, body.clone()).await;
        *seed = t.app.store.table(&id).await.unwrap().unwrap().seed;
    }
    seeds
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_given_a_table_seed_repeats_its_tables_seeds() {
    let a = first_seeds(Some(7)).await;
    assert_eq!(a, first_seeds(Some(7)).await, "the same seed, the same tables' seeds in the same order");
    assert_ne!(a[0], a[1], "each table its own seed");
    assert_ne!(a, first_seeds(Some(8)).await, "another seed, other tables' seeds");
    let (x, y) = (first_seeds(None).await, first_seeds(None).await);
    assert_ne!(x, y, "without a seed, the system's");
}

/// Issue 26: a newcomer alone with three bots had a 30 s clock and lost his seat to a bot while
/// reading his cards. Alone with bots a table is untimed unless its host asks for a clock; with
/// others, the clock asked for and a time bank.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_alone_with_bots_is_untimed_by_default_and_a_clock_is_the_hosts_choice() {
    let api = Api::new(Limits::default()).await;
    let (_, token) = api.guest("Ann").await;
    let t = Some(token.as_str());
    let clock = |v: &Value| (v["table"]["untimed"].as_bool(), v["table"]["bank_seconds"].as_u64());
    let (s, v) = api.json("POST", "/api/tables", Some(json!({ "game": "madiao" })), t).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(clock(&v), (Some(true), Some(0)), "the defaults: alone with three bots");
    let (_, v) =
        api.json("POST", "/api/tables", Some(json!({ "game": "dabaifen", "untimed": false })), t).await;
    assert_eq!(clock(&v), (Some(false), Some(60)), "a clock asked for: today's, with a bank");
    let body = json!({ "game": "madiao", "untimed": false, "bank_seconds": 0, "turn_seconds": 15 });
    let (_, v) = api.json("POST", "/api/tables", Some(body), t).await;
    assert_eq!(clock(&v), (Some(false), Some(0)));
    assert_eq!(v["table"]["turn_seconds"], 15);
    let open = json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] });
    let (_, v) = api.json("POST", "/api/tables", Some(open), t).await;
    assert_eq!(clock(&v), (Some(false), Some(60)), "a seat for another person: timed");
}
