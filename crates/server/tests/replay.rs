//! The replay API: a record (a finished table's, or one posted) is outlined once and served hand
//! by hand, each hand's steps made on demand and checked here against the engines' own replay of
//! the record; posting needs `application/json`, a guest's token and stays within a per-guest rate
//! limit; the replays kept are bounded; a large record's answers stay small.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use ai::record::AnyRecord;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use cards::record::Record;
use http_body_util::BodyExt;
use madiao::record::MadiaoHand;
use serde_json::{Value, json};
use server::replay::ReplayLimits;
use server::store::sqlite::SqliteStore;
use server::{App, Config, Limits};
use tower::ServiceExt;

const JSON: Option<&str> = Some("application/json");

struct Api {
    app: Arc<App>,
    _dir: tempfile::TempDir,
}

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }

    fn code(&self) -> Value {
        self.json()["error"]["code"].clone()
    }

    fn message(&self) -> String {
        self.json()["error"]["message"].as_str().unwrap_or_default().to_string()
    }
}

impl Api {
    async fn new(replay: ReplayLimits) -> Api {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(SqliteStore::open(dir.path().join("y.db").to_str().unwrap()).unwrap());
        let limits = Limits { replay, ..Limits::default() };
        let app =
            App::start(store, Config { timing: common::fast(), limits, ..Default::default() }).await.unwrap();
        Api { app, _dir: dir }
    }

    async fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        token: Option<&str>,
        content_type: Option<&str>,
    ) -> Answer {
        let mut req = Request::builder().method(method).uri(path);
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        if let Some(c) = content_type {
            req = req.header("content-type", c);
        }
        let req = req.body(body.map_or(Body::empty(), |b| Body::from(b.to_string()))).unwrap();
        let res = server::router(self.app.clone()).oneshot(req).await.unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        Answer { status, headers, text: String::from_utf8_lossy(&bytes).into_owned() }
    }

    async fn get(&self, path: &str) -> Answer {
        self.call("GET", path, None, None, None).await
    }

    async fn post(&self, text: &str, token: &str) -> Answer {
        self.call("POST", "/api/replay", Some(text), Some(token), JSON).await
    }

    async fn guest(&self, name: &str) -> String {
        let body = json!({ "name": name }).to_string();
        let a = self.call("POST", "/api/guests", Some(&body), None, JSON).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        a.json()["token"].as_str().unwrap().to_string()
    }

    /// The outline of a replay, then every hand of it.
    async fn hands(&self, outline: &Value) -> Vec<Value> {
        let id = outline["id"].as_str().unwrap();
        let mut out = Vec::new();
        for (k, h) in outline["hands"].as_array().unwrap().iter().enumerate() {
            let a = self.get(&format!("/api/replays/{id}?hand={k}")).await;
            assert_eq!(a.status, StatusCode::OK, "hand {k}: {}", a.text);
            assert_eq!(a.headers["content-type"], "application/json");
            let hand = a.json();
            assert_eq!(hand["hand"], json!(k));
            assert_eq!(
                hand["steps"].as_array().unwrap().len() as u64,
                h["steps"].as_u64().unwrap(),
                "hand {k}"
            );
            assert_eq!(hand["result"], h["result"], "hand {k}");
            out.push(hand);
        }
        out
    }
}

/// Limits that let a test post as often as it likes.
fn unlimited() -> ReplayLimits {
    ReplayLimits { posts_per_minute: 6000.0, post_burst: 1000.0, ..ReplayLimits::default() }
}

/// A Madiao record of `hands` consecutive hands of one match played by the random policy.
fn madiao_record(seed: u64, hands: usize) -> String {
    let mut over = cards::record::Variants::default();
    over.0.insert("game_length".into(), "hands:100000".into());
    let variants = madiao::Variants::preset("standard").unwrap().with_overrides(&over).unwrap();
    let mut sim = madiao::random::Simulator::new(seed, variants, 2, madiao::random::RandomPolicy::default());
    let states: Vec<madiao::State> = (0..hands).map(|_| sim.play_hand().unwrap().state).collect();
    let rec = madiao::record::to_record("standard", &variants, Some(seed), states.iter()).unwrap();
    cards::record::to_pretty_json(&rec)
}

/// A Da Bai Fen record of `deals` deals played by the random policy, as text.
fn dabaifen_record(seed: u64, deals: u64) -> String {
    let variants = dabaifen::Variants::preset("standard").unwrap();
    let mut m = dabaifen::Match::new(variants, cards::Seat::new(seed as u8 % 4).unwrap());
    let mut policy = dabaifen::random::RandomPolicy::new(cards::Rng::from_seed(seed));
    let mut hands = Vec::new();
    for k in 0..deals {
        let mut st = dabaifen::State::new(&m.setup(dabaifen::deck_from_seed(seed, k))).unwrap();
        while st.to_move().is_some() {
            let a = policy.choose(&st);
            st.apply(a).unwrap();
        }
        m.record(st.result().unwrap());
        hands.push(dabaifen::record::hand_record(&st));
        if m.is_over() {
            break;
        }
    }
    cards::record::to_pretty_json(&dabaifen::record::match_record(&variants, Some(seed), hands))
}

/// Every card of a step: the four hands, the tricks' cards and, for Madiao, the stock.
fn step_cards(step: &Value) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for h in step["hands"].as_array().unwrap() {
        all.extend(h.as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()));
    }
    for t in step["view"]["tricks"].as_array().unwrap() {
        for p in t["plays"].as_array().unwrap() {
            match (&p["card"], &p["cards"]) {
                (Value::String(c), _) => all.push(c.clone()),
                (_, Value::Array(cs)) => all.extend(cs.iter().map(|c| c.as_str().unwrap().to_string())),
                other => panic!("a replay shows every card played, not {other:?}"),
            }
        }
    }
    all
}

fn sorted(v: &Value) -> Vec<String> {
    let mut v: Vec<String> = v.as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
    v.sort();
    v
}

/// Checks a Madiao replay's hands against the engine: step `j` of hand `k` is the state the
/// engine's own record replay reaches with the hands before `k` and the first `j` actions of `k`.
fn check_madiao(rec: &Record<MadiaoHand>, hands: &[Value]) {
    assert_eq!(hands.len(), rec.hands.len());
    for (k, (h, recorded)) in hands.iter().zip(&rec.hands).enumerate() {
        let steps = h["steps"].as_array().unwrap();
        assert_eq!(steps.len(), recorded.actions.len() + 1, "hand {k}: a step per action, after the deal");
        assert_eq!(steps[0]["event"]["kind"], "deal");
        assert_eq!(h["undealt"].as_array().unwrap().len(), 8, "the stock");
        assert_eq!(h["undealt"][7], steps[0]["view"]["upcard"], "the upcard is the stock's bottom card");
        for (j, step) in steps.iter().enumerate() {
            if j > 0 {
                assert_eq!(step["event"]["action"], serde_json::to_value(&recorded.actions[j - 1]).unwrap());
            }
            // The engine's replay of the record up to here.
            let mut prefix = rec.clone();
            prefix.hands.truncate(k + 1);
            prefix.hands[k].actions.truncate(j);
            prefix.hands[k].result = None;
            let engine = madiao::record::replay(&prefix);
            assert!(engine.error.is_none(), "{:?}", engine.error);
            let state = &engine.hands[k].state;
            for seat in cards::Seat::ALL {
                let mut want: Vec<String> = state.hand(seat).iter().map(|c| c.to_string()).collect();
                want.sort();
                assert_eq!(sorted(&step["hands"][seat.index()]), want, "hand {k}, step {j}, seat {seat}");
            }
            let mut view = serde_json::to_value(state.view(state.banker())).unwrap();
            let shown = &step["view"];
            assert_eq!(shown["seat"], Value::Null);
            for field in ["phase", "banker", "to_move", "upcard", "result", "settlement"] {
                let want = view.get_mut(field).map(|v| v.take()).unwrap_or(Value::Null);
                assert_eq!(shown[field], want, "hand {k}, step {j}: {field}");
            }
            // Every play the engine shows is shown alike (and the face-down ones face up).
            let tricks = view["tricks"].as_array().unwrap();
            assert_eq!(shown["tricks"].as_array().unwrap().len(), tricks.len(), "hand {k}, step {j}");
            for (t, trick) in tricks.iter().enumerate() {
                for (p, play) in trick["plays"].as_array().unwrap().iter().enumerate() {
                    let got = &shown["tricks"][t]["plays"][p];
                    assert_eq!(got["seat"], play["seat"]);
                    assert!(got["card"].is_string(), "hand {k}, step {j}: every card face up");
                    if play["card"].is_string() {
                        assert_eq!(got["card"], play["card"], "hand {k}, step {j}");
                    }
                }
            }
            // Every card is shown somewhere, once: the hands, the tricks (face-down ones too), the stock.
            let mut all = step_cards(step);
            all.extend(sorted(&h["undealt"]));
            all.sort();
            let n = all.len();
            all.dedup();
            assert_eq!((n, all.len()), (40, 40), "hand {k}, step {j}");
        }
        let last = steps.last().unwrap();
        assert_eq!(h["result"], last["view"]["result"]);
        if recorded.result.as_ref().unwrap().outcome == madiao::record::MadiaoOutcome::Played {
            assert!(last["view"]["settlement"]["lines"].as_array().is_some_and(|l| !l.is_empty()));
            assert!(last["hands"].as_array().unwrap().iter().all(|h| h.as_array().unwrap().is_empty()));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_tables_replay_is_served_hand_by_hand() {
    let api = Api::new(ReplayLimits::default()).await;
    let token = api.guest("Ann").await;
    let bots = json!([{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]);
    let body = json!({ "game": "madiao", "variants": { "game_length": "hands:3" }, "seats": bots });
    let a = api.call("POST", "/api/tables", Some(&body.to_string()), Some(&token), JSON).await;
    let id = a.json()["table"]["id"].as_str().unwrap().to_string();
    let a = api.get("/api/replays/tnone").await;
    assert_eq!((a.status, a.code()), (StatusCode::NOT_FOUND, json!("no_table")));
    let text = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let a = api.get(&format!("/api/records/{id}")).await;
            if a.status == StatusCode::OK {
                return a.text;
            }
            // While the game goes on it cannot be replayed either (the record holds the decks).
            let a = api.get(&format!("/api/replays/{id}")).await;
            assert!(a.status == StatusCode::CONFLICT || a.status == StatusCode::OK, "{}", a.text);
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap();
    let AnyRecord::Madiao(rec) = ai::record::parse(&text).unwrap() else { panic!() };
    let a = api.get(&format!("/api/replays/{id}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let outline = a.json();
    assert_eq!(outline["id"], id);
    assert_eq!(outline["game"], "madiao");
    assert_eq!(outline["players"][0], format!("bot:{}", table::bots::default_bot_of(rec.game)));
    assert_eq!(outline["seed"], json!(rec.seed.unwrap()));
    assert_eq!(outline["variants"]["game_length"], "hands:3");
    let listed = outline["hands"].as_array().unwrap();
    // hands:3 counts every hand but a long-suit redeal (the same hand dealt again).
    let counted = rec
        .hands
        .iter()
        .filter(|h| h.result.as_ref().is_some_and(|r| r.outcome != madiao::record::MadiaoOutcome::Redeal));
    assert_eq!(counted.count(), 3);
    let n = rec.hands.len();
    assert_eq!(listed.len(), n);
    for (h, recorded) in listed.iter().zip(&rec.hands) {
        // The outline has no steps, only their number, and the result.
        assert_eq!(h["steps"], json!(recorded.actions.len() + 1));
        assert_eq!(h["result"], serde_json::to_value(recorded.result.as_ref().unwrap()).unwrap());
    }
    let hands = api.hands(&outline).await;
    check_madiao(&rec, &hands);
    // No hand 3, and a hand is a number.
    let a = api.get(&format!("/api/replays/{id}?hand={n}")).await;
    assert_eq!((a.status, a.code()), (StatusCode::NOT_FOUND, json!("no_hand")));
    assert!(a.message().contains(&format!("{n} hand(s)")), "{}", a.message());
    let a = api.get(&format!("/api/replays/{id}?hand=first")).await;
    assert_eq!((a.status, a.code()), (StatusCode::BAD_REQUEST, json!("bad_request")));
    assert!(a.message().contains(&format!("0 to {}", n - 1)), "{}", a.message());
    // The same record posted gives the same hands, under an id of its own.
    let a = api.post(&text, &token).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let mut posted = a.json();
    let posted_id = posted["id"].as_str().unwrap().to_string();
    assert_ne!(posted_id, id);
    assert_eq!(api.hands(&posted).await, hands);
    posted["id"] = json!(id);
    assert_eq!(posted, outline);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_posted_dabaifen_record_is_replayed_with_the_draw_and_every_trick() {
    let api = Api::new(ReplayLimits::default()).await;
    let token = api.guest("Ann").await;
    let text = dabaifen_record(7, 4);
    let AnyRecord::Dabaifen(rec) = ai::record::parse(&text).unwrap() else { panic!() };
    let a = api.post(&text, &token).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let outline = a.json();
    assert_eq!(outline["game"], "dabaifen");
    assert_eq!(outline["seed"], 7);
    let hands = api.hands(&outline).await;
    assert_eq!(hands.len(), rec.hands.len());
    let mut played = 0;
    for (k, (h, recorded)) in hands.iter().zip(&rec.hands).enumerate() {
        let steps = h["steps"].as_array().unwrap();
        assert_eq!(steps[0]["event"]["kind"], "deal");
        // The deal shows every seat's twelve cards, and the kitty as dealt.
        assert!(steps[0]["hands"].as_array().unwrap().iter().all(|x| x.as_array().unwrap().len() == 12));
        assert_eq!(h["undealt"].as_array().unwrap().len(), 6);
        let actions: Vec<Value> = steps
            .iter()
            .filter(|s| s["event"]["kind"] == "action")
            .map(|s| s["event"]["action"].clone())
            .collect();
        let want: Vec<Value> = recorded.actions.iter().map(|a| serde_json::to_value(a).unwrap()).collect();
        assert_eq!(actions, want, "deal {k}: every recorded action, in order");
        for (j, step) in steps.iter().enumerate() {
            let mut all = step_cards(step);
            let n = all.len();
            all.sort();
            all.dedup();
            assert_eq!(n, all.len(), "deal {k}, step {j}: a card shown twice");
        }
        // The last step is the engine's end of the deal.
        let mut st = dabaifen::State::new(&rec_setup(&rec, k)).unwrap();
        dabaifen::record::replay_actions(&mut st, &recorded.actions).unwrap();
        let last = steps.last().unwrap();
        assert_eq!(last["view"]["phase"], "over", "deal {k}");
        assert_eq!(last["view"]["result"], serde_json::to_value(st.view(st.starter()).result).unwrap());
        assert_eq!(h["result"], serde_json::to_value(recorded.result.as_ref().unwrap()).unwrap());
        if recorded.result.as_ref().unwrap().outcome == dabaifen::record::DabaifenOutcome::Played {
            played += 1;
            assert!(steps.iter().any(|s| s["view"]["trump"].is_object()));
            assert!(last["view"]["account"]["lines"].as_array().is_some_and(|l| l.len() > 10));
            // At the end: every card is in a trick or buried.
            let mut all = step_cards(last);
            all.extend(sorted(&last["view"]["buried"]));
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 54, "deal {k}");
        }
    }
    assert!(played > 0, "the record has a played deal");
}

/// Deal `k`'s setup as the engine's record replay finds it.
fn rec_setup(rec: &Record<dabaifen::record::DabaifenHand>, k: usize) -> dabaifen::HandSetup {
    dabaifen::record::replay(rec).hands[k].state.setup()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posting_needs_json_and_a_token_and_a_guest_posts_within_the_rate_limit() {
    let api =
        Api::new(ReplayLimits { posts_per_minute: 1.0, post_burst: 3.0, ..ReplayLimits::default() }).await;
    let token = api.guest("Ann").await;
    let text = dabaifen_record(5, 1);
    // Only `application/json`: a form or `text/plain` (what any web page may send to another
    // site without asking) is refused before anything else.
    for ty in [
        Some("text/plain"),
        Some("text/plain;charset=UTF-8"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let a = api.call("POST", "/api/replay", Some(&text), Some(&token), ty).await;
        assert_eq!((a.status, a.code()), (StatusCode::UNSUPPORTED_MEDIA_TYPE, json!("not_json")), "{ty:?}");
        assert!(a.message().contains("application/json"), "{}", a.message());
    }
    // A guest's token.
    let a = api.call("POST", "/api/replay", Some(&text), None, JSON).await;
    assert_eq!((a.status, a.code()), (StatusCode::UNAUTHORIZED, json!("bad_token")));
    let a = api.call("POST", "/api/replay", Some(&text), Some("wrong"), JSON).await;
    assert_eq!((a.status, a.code()), (StatusCode::UNAUTHORIZED, json!("bad_token")));
    // Three posts at once, then one a minute.
    for i in 0..3 {
        let a = api
            .call("POST", "/api/replay", Some(&text), Some(&token), Some("application/json; charset=utf-8"))
            .await;
        assert_eq!(a.status, StatusCode::OK, "post {i}: {}", a.text);
    }
    let a = api.post(&text, &token).await;
    assert_eq!((a.status, a.code()), (StatusCode::TOO_MANY_REQUESTS, json!("too_many_posts")), "{}", a.text);
    let wait: u64 = a.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(a.message().contains("1 records a minute"), "{}", a.message());
    // Another guest has an allowance of its own.
    let other = api.guest("Bob").await;
    assert_eq!(api.post(&text, &other).await.status, StatusCode::OK);
    // The refused kinds of request did not use the allowance up.
    let api =
        Api::new(ReplayLimits { posts_per_minute: 1.0, post_burst: 1.0, ..ReplayLimits::default() }).await;
    let token = api.guest("Ann").await;
    for _ in 0..3 {
        api.call("POST", "/api/replay", Some(&text), Some(&token), Some("text/plain")).await;
    }
    assert_eq!(api.post(&text, &token).await.status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_that_cannot_be_replayed_say_what_and_where() {
    let api = Api::new(unlimited()).await;
    let token = api.guest("Ann").await;
    let a = api.post("{nope", &token).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.message().contains("not a yezi/1 record") && a.message().contains("line 1"), "{}", a.text);
    let a = api.post(r#"{"format": "yezi/1", "game": "chess"}"#, &token).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.message().contains("game"), "{}", a.text);
    // An illegal action: the error names the hand and the action.
    let mut rec: Value = serde_json::from_str(&dabaifen_record(3, 1)).unwrap();
    let actions = rec["hands"][0]["actions"].as_array_mut().unwrap();
    let last = actions.len() - 1;
    let act = actions[last].clone();
    actions[last] = json!({ "seat": (act["seat"].as_u64().unwrap() + 1) % 4, "play": act["play"] });
    let a = api.post(&rec.to_string(), &token).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.message().contains(&format!("hand 0, action {last}")), "{}", a.message());
    // Not UTF-8; and too large (a whole match is far above the API's usual 16 KiB, so up to 4 MiB).
    let req = Request::builder()
        .method("POST")
        .uri("/api/replay")
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body(Body::from(vec![0xff, 0xfe, b'{']))
        .unwrap();
    let res = server::router(api.app.clone()).oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let big = dabaifen_record(11, 40);
    assert!(big.len() > 16 * 1024);
    assert_eq!(api.post(&big, &token).await.status, StatusCode::OK);
    let huge = format!("{}{}", " ".repeat(server::replay::MAX_RECORD_BYTES), big);
    let a = api.post(&huge, &token).await;
    assert_eq!((a.status, a.code()), (StatusCode::PAYLOAD_TOO_LARGE, json!("record_too_large")));
    // An id that is no table and no replay kept.
    let a = api.get("/api/replays/rnothing").await;
    assert_eq!((a.status, a.code()), (StatusCode::NOT_FOUND, json!("no_replay")));
    assert!(a.message().contains("post it again"), "{}", a.message());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_record_is_outlined_and_each_hand_fetched_is_small() {
    let api = Api::new(unlimited()).await;
    let token = api.guest("Ann").await;
    let text = madiao_record(3, 400);
    let AnyRecord::Madiao(rec) = ai::record::parse(&text).unwrap() else { panic!() };
    assert_eq!(rec.hands.len(), 400);
    let a = api.post(&text, &token).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.message());
    // The answer is an outline, smaller than the record itself, and holds no step.
    assert!(
        a.text.len() < text.len() / 2,
        "the outline has {} bytes, the record {}",
        a.text.len(),
        text.len()
    );
    assert!(!a.text.contains("\"view\""));
    let outline = a.json();
    assert_eq!(outline["hands"].as_array().unwrap().len(), 400);
    let id = outline["id"].as_str().unwrap();
    // The replay kept takes about as much as the record.
    let (bytes, count) = api.app.replays.cached();
    assert_eq!(count, 1);
    assert!(bytes < text.len(), "{bytes} bytes kept for a record of {}", text.len());
    // Each hand's answer is small (a hand's steps: about 40), the last one as the first.
    let mut largest = 0;
    for k in [0, 1, 199, 398, 399] {
        let a = api.get(&format!("/api/replays/{id}?hand={k}")).await;
        assert_eq!(a.status, StatusCode::OK);
        largest = largest.max(a.text.len());
    }
    assert!(largest < 256 * 1024, "a hand's answer has {largest} bytes");
    // And it is right: every hand's number of steps, and the last hands' ends, checked against
    // the engine.
    let mut hands = Vec::new();
    for k in 0..400 {
        hands.push(api.get(&format!("/api/replays/{id}?hand={k}")).await.json());
    }
    check_madiao_tail(&rec, &hands, 396);
}

/// [`check_madiao`] for hands `from..` only (each step of a late hand replays the record from its
/// start, so a test checks a few of them).
fn check_madiao_tail(rec: &Record<MadiaoHand>, hands: &[Value], from: usize) {
    assert_eq!(hands.len(), rec.hands.len());
    for (k, h) in hands.iter().enumerate() {
        assert_eq!(h["steps"].as_array().unwrap().len(), rec.hands[k].actions.len() + 1, "hand {k}");
    }
    let engine = madiao::record::replay(rec);
    assert!(engine.is_clean());
    for (k, (replayed, hand)) in engine.hands.iter().zip(hands).enumerate().skip(from) {
        let state = &replayed.state;
        let last = hand["steps"].as_array().unwrap().last().unwrap();
        for seat in cards::Seat::ALL {
            let mut want: Vec<String> = state.hand(seat).iter().map(|c| c.to_string()).collect();
            want.sort();
            assert_eq!(sorted(&last["hands"][seat.index()]), want, "hand {k}, seat {seat}");
        }
        let view = serde_json::to_value(state.view(state.banker())).unwrap();
        assert_eq!(last["view"]["result"], view["result"], "hand {k}");
        assert_eq!(last["view"]["settlement"], view["settlement"], "hand {k}");
        let deck: Vec<String> = state.deck().iter().map(|c| c.to_string()).collect();
        assert_eq!(hand["undealt"], json!(deck[32..]), "hand {k}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replays_kept_are_bounded_and_a_busy_server_says_so() {
    // A cache that holds about one record: the older replay goes when a new one comes.
    let text = dabaifen_record(11, 40);
    let limits = ReplayLimits { cache_bytes: text.len(), wait_ms: 200, ..unlimited() };
    let api = Api::new(limits).await;
    let token = api.guest("Ann").await;
    let first = api.post(&text, &token).await.json();
    let second = api.post(&text, &token).await.json();
    let (bytes, count) = api.app.replays.cached();
    assert!(bytes <= text.len() && count == 1, "{bytes} bytes, {count} replays kept");
    let a = api.get(&format!("/api/replays/{}?hand=0", first["id"].as_str().unwrap())).await;
    assert_eq!((a.status, a.code()), (StatusCode::NOT_FOUND, json!("no_replay")));
    let a = api.get(&format!("/api/replays/{}?hand=0", second["id"].as_str().unwrap())).await;
    assert_eq!(a.status, StatusCode::OK);
    // Every turn taken: a post waits its time, then is told the server is busy.
    let mut turns = Vec::new();
    for _ in 0..limits.concurrent {
        turns.push(api.app.replays.turn().await.unwrap());
    }
    let a = api.post(&text, &token).await;
    assert_eq!((a.status, a.code()), (StatusCode::SERVICE_UNAVAILABLE, json!("busy")));
    drop(turns);
    assert_eq!(api.post(&text, &token).await.status, StatusCode::OK);
    // A replay unused for its time is let go.
    let api = Api::new(ReplayLimits { ttl_seconds: 0, ..unlimited() }).await;
    let token = api.guest("Ann").await;
    let posted = api.post(&text, &token).await.json();
    tokio::time::sleep(Duration::from_millis(5)).await;
    let a = api.get(&format!("/api/replays/{}", posted["id"].as_str().unwrap())).await;
    assert_eq!((a.status, a.code()), (StatusCode::NOT_FOUND, json!("no_replay")));
}
