//! Analyses of finished hands as server jobs: asked for with `POST /api/games/{id}/analysis`,
//! followed with `GET`, run once however often they are asked for, stored with the game and
//! served from the store after a restart; the errors (unknown or unfinished game, no such hand or
//! seat, a private game of others, the queue full, the allowance spent, analyses off). Each
//! analysis served is checked against `ai::analysis` run here on the game's record.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use server::analysis::AnalysisLimits;
use server::store::sqlite::SqliteStore;
use server::{App, Config};

use common::{TestServer, fast, fast_limits};

/// Fast analyses (a small budget), `workers` threads, `queue` places.
fn config(workers: usize, queue: usize, think_ms: u32) -> Config {
    let mut limits = fast_limits();
    // The tests follow their analyses as fast as they can.
    limits.analysis = AnalysisLimits {
        workers,
        queue,
        think_ms,
        polls_per_second: 1000.0,
        poll_burst: 1000.0,
        ..AnalysisLimits::default()
    };
    // A fixed table seed: a deal that ends at once by a meld (about one in a hundred) would leave
    // nothing to analyse.
    Config { timing: fast(), limits, table_seed: Some(7), ..Default::default() }
}

fn bots(bot: &str) -> Value {
    json!([{"kind": "bot", "bot": bot}, {"kind": "bot", "bot": bot}, {"kind": "bot", "bot": bot}, {"kind": "bot", "bot": bot}])
}

/// A finished game of four bots (one hand of Madiao, a whole Da Bai Fen match) created by
/// `host`: its id and record.
async fn finished_game(
    srv: &TestServer,
    host: &client::GuestToken,
    game: &str,
    private: bool,
) -> (String, String) {
    let body = match game {
        "madiao" => {
            json!({ "game": "madiao", "variants": { "game_length": "hands:1" }, "seats": bots("heuristic"), "private": private })
        }
        _ => json!({ "game": "dabaifen", "seats": bots("heuristic"), "private": private }),
    };
    let id = srv.table(host, body).await;
    // Read from the store: a private game's record is served to its host's token only.
    for _ in 0..12_000 {
        if let Some(record) = srv.app.store.record(&id).await.unwrap() {
            return (id, record);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the match at {id} did not end")
}

/// What `ai::analysis` makes of the record's hand for the seat, with the server's seed and budget.
fn expected(record: &str, hand: usize, seat: u8, limits: &AnalysisLimits) -> Value {
    let rec = ai::record::parse(record).unwrap();
    let opts = ai::analysis::Options {
        seat: cards::Seat::new(seat).unwrap(),
        hand,
        seed: limits.seed,
        budget: ai::Budget { think_ms: limits.think_ms },
    };
    serde_json::to_value(ai::analysis::analyse(&rec, &opts, &mut |_| {}).unwrap()).unwrap()
}

fn path(id: &str) -> String {
    format!("/api/games/{id}/analysis")
}

/// Follows an analysis until it is done: every answer seen, the last one done.
async fn until_done(srv: &TestServer, id: &str, hand: u32, seat: u8) -> Vec<Value> {
    let mut seen = Vec::new();
    let end = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let (status, body) = srv.client.get(&format!("{}?hand={hand}&seat={seat}", path(id))).await.unwrap();
        assert_eq!(status, 200, "{body}");
        let done = body["status"] == "done";
        assert!(body["status"] != "failed", "{body}");
        seen.push(body);
        if done {
            return seen;
        }
        assert!(tokio::time::Instant::now() < end, "not done in 2 minutes: {:?}", seen.last());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Asks for a hand's analysis twice (it runs once), follows it to the end, checks it against
/// `ai::analysis`, and asks again once it is done (answered from the store at once).
async fn analyse_once(
    srv: &TestServer,
    host: &client::GuestToken,
    id: &str,
    record: &str,
    hand: u32,
    seat: u8,
) -> Value {
    let before = srv.app.analyses.started();
    let ask = json!({ "hand": hand, "seat": seat });
    let (status, first) = srv.client.post(&path(id), &ask, Some(&host.token)).await.unwrap();
    assert_eq!(status, 202, "{first}");
    assert!(first["status"] == "queued" || first["status"] == "running", "{first}");
    assert_eq!(
        (first["hand"].as_u64(), first["seat"].as_u64()),
        (Some(u64::from(hand)), Some(u64::from(seat)))
    );
    // Asking again joins the job (or, if it has ended already, gets its result).
    let (status, again) = srv.client.post(&path(id), &ask, Some(&host.token)).await.unwrap();
    assert!(status == 202 || (status == 200 && again["status"] == "done"), "{status} {again}");
    let seen = until_done(srv, id, hand, seat).await;
    let done = seen.last().unwrap().clone();
    // Progress never goes back, and stays within the total.
    let mut last = 0;
    for s in &seen {
        let (d, t) = (s["done"].as_u64().unwrap(), s["total"].as_u64().unwrap());
        assert!(d <= t || s["status"] == "queued", "{s}");
        assert!(d >= last, "progress went back: {seen:?}");
        last = d;
    }
    let limits = srv.app.analyses.limits();
    let want = expected(record, hand as usize, seat, limits);
    assert_eq!(done["analysis"], want, "the served analysis differs from ai::analysis's");
    let total = want["decisions"].as_array().unwrap().len() as u64;
    assert!(total > 0, "the seat made no decision: {want}");
    assert_eq!((done["done"].as_u64(), done["total"].as_u64()), (Some(total), Some(total)));
    assert_eq!(srv.app.analyses.started(), before + 1, "asked twice, run once");
    // Once done, asking again is answered from the store, without a new job.
    let (status, third) = srv.client.post(&path(id), &ask, Some(&host.token)).await.unwrap();
    assert_eq!((status, &third["status"]), (200, &json!("done")), "{third}");
    assert_eq!(third["analysis"], want);
    assert_eq!(srv.app.analyses.started(), before + 1, "a stored analysis was run again");
    want
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_madiao_hand_is_analysed_once_and_served_from_the_store_after_a_restart() {
    let srv = TestServer::start_config(config(1, 16, 10)).await;
    let ann = srv.guest("Ann").await;
    let (id, record) = finished_game(&srv, &ann, "madiao", false).await;
    let want = analyse_once(&srv, &ann, &id, &record, 0, 0).await;
    assert_eq!(
        (want["game"].as_str(), want["seat"].as_u64(), want["hand"].as_u64()),
        (Some("madiao"), Some(0), Some(0))
    );
    // Anyone may follow a public game's analysis, without a token.
    let (status, other) = srv.client.get(&format!("{}?hand=0&seat=0", path(&id))).await.unwrap();
    assert_eq!((status, &other["analysis"]), (200, &want));

    // A new server on the same database serves it from the store, with no job.
    srv.task.abort();
    let db = srv.dir.path().join("yezi.db");
    let store = Arc::new(SqliteStore::open(db.to_str().unwrap()).unwrap());
    let app = App::start(store, config(1, 16, 10)).await.unwrap();
    let (addr, _) = common::listen(&app).await;
    let c = client::Client::new(&addr);
    let (status, back) = c.get(&format!("{}?hand=0&seat=0", path(&id))).await.unwrap();
    assert_eq!((status, &back["status"]), (200, &json!("done")), "{back}");
    assert_eq!(back["analysis"], want);
    let (status, asked) = c.post(&path(&id), &json!({"hand": 0, "seat": 0}), Some(&ann.token)).await.unwrap();
    assert_eq!((status, &asked["analysis"]), (200, &want));
    assert_eq!(app.analyses.started(), 0, "the restarted server ran a stored analysis again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dabaifen_hand_is_analysed_through_the_same_path() {
    let srv = TestServer::start_config(config(1, 16, 5)).await;
    let ann = srv.guest("Ann").await;
    let (id, record) = finished_game(&srv, &ann, "dabaifen", false).await;
    let want = analyse_once(&srv, &ann, &id, &record, 0, 1).await;
    assert_eq!(
        (want["game"].as_str(), want["seat"].as_u64(), want["unit"].as_str()),
        (Some("dabaifen"), Some(1), Some("levels"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_requests_are_refused_with_the_right_codes() {
    // A budget that keeps the jobs under way while the allowance is spent (asking for a stored
    // analysis takes nothing from it).
    let mut cfg = config(1, 16, 300);
    cfg.limits.analysis.burst = 4.0;
    cfg.limits.analysis.per_minute = 0.001;
    let srv = TestServer::start_config(cfg).await;
    let ann = srv.guest("Ann").await;
    let bo = srv.guest("Bo").await;
    let (id, _) = finished_game(&srv, &ann, "madiao", false).await;
    let (private, _) = finished_game(&srv, &ann, "madiao", true).await;
    let waiting = srv
        .table(&ann, json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] }))
        .await;
    let code = |v: &Value| v["error"]["code"].as_str().unwrap_or_default().to_string();
    let post = |id: String, body: Value, token: Option<String>| {
        let c = srv.client.clone();
        async move { c.post(&path(&id), &body, token.as_deref()).await.unwrap() }
    };
    let ann_t = Some(ann.token.clone());
    let ok = json!({"hand": 0, "seat": 0});
    // No token.
    let (s, b) = post(id.clone(), ok.clone(), None).await;
    assert_eq!((s, code(&b)), (401, "bad_token".into()), "{b}");
    // Unknown game, unfinished game, no such hand, no such seat, a body of another shape.
    for (target, body, status, want) in [
        ("t_none".to_string(), ok.clone(), 404, "no_table"),
        (waiting.clone(), ok.clone(), 409, "not_finished"),
        (id.clone(), json!({"hand": 1, "seat": 0}), 404, "no_hand"),
        (id.clone(), json!({"hand": 0, "seat": 4}), 400, "bad_request"),
        (id.clone(), json!({"hand": 0}), 400, "bad_request"),
    ] {
        let (s, b) = post(target.clone(), body.clone(), ann_t.clone()).await;
        assert_eq!((s, code(&b)), (status, want.to_string()), "{target} {body}: {b}");
    }
    // Not analysed yet: GET says so.
    let (s, b) = srv.client.get(&format!("{}?hand=0&seat=2", path(&id))).await.unwrap();
    assert_eq!((s, code(&b)), (404, "no_analysis".into()), "{b}");
    let (s, b) = srv.client.get(&format!("{}?hand=0", path(&id))).await.unwrap();
    assert_eq!((s, code(&b)), (400, "bad_request".into()), "{b}");
    // A private game: its host may ask; another guest and an anonymous reader are told there is
    // no such game.
    let (s, b) = post(private.clone(), ok.clone(), Some(bo.token.clone())).await;
    assert_eq!((s, code(&b)), (404, "no_table".into()), "{b}");
    let (s, b) = srv.client.get(&format!("{}?hand=0&seat=0", path(&private))).await.unwrap();
    assert_eq!((s, code(&b)), (404, "no_table".into()), "{b}");
    let (s, b) = post(private.clone(), ok.clone(), ann_t.clone()).await;
    assert!(s == 202 || s == 200, "the host of a private game: {s} {b}");
    let (s, b) =
        srv.client.get_authed(&ann.token, &format!("{}?hand=0&seat=0", path(&private))).await.unwrap();
    assert_eq!(s, 200, "{b}");
    // The allowance: 4 at once (1 taken so far by Ann, whose refused requests took none), then
    // about one a day.
    let mut refused = None;
    for _ in 0..8 {
        let (s, b) = post(id.clone(), json!({"hand": 0, "seat": 3}), ann_t.clone()).await;
        if s == 429 {
            refused = Some(b);
            break;
        }
    }
    let refused = refused.expect("the allowance ran out");
    assert_eq!(code(&refused), "rate_limited", "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_refuses_with_busy_and_a_retry_hint() {
    // One thread, one place in the queue, a budget that keeps the thread busy for a while.
    let srv = TestServer::start_config(config(1, 1, 400)).await;
    let ann = srv.guest("Ann").await;
    let (id, _) = finished_game(&srv, &ann, "madiao", false).await;
    let ask = |seat: u8| json!({"hand": 0, "seat": seat});
    let (s, b) = srv.client.post(&path(&id), &ask(0), Some(&ann.token)).await.unwrap();
    assert_eq!(s, 202, "{b}");
    // Once the thread has taken the first job, one more may wait; a third is refused.
    let end = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (_, b) = srv.client.get(&format!("{}?hand=0&seat=0", path(&id))).await.unwrap();
        if b["status"] == "running" {
            break;
        }
        assert!(tokio::time::Instant::now() < end, "the first job never ran: {b}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (s, b) = srv.client.post(&path(&id), &ask(1), Some(&ann.token)).await.unwrap();
    assert_eq!((s, &b["status"], &b["ahead"]), (202, &json!("queued"), &json!(0)), "{b}");
    let (s, b) = srv.client.post(&path(&id), &ask(2), Some(&ann.token)).await.unwrap();
    assert_eq!((s, b["error"]["code"].as_str()), (503, Some("busy")), "{b}");
    assert!(b["error"]["message"].as_str().unwrap().contains("try again"), "{b}");
    // Asking again for a queued job joins it rather than being refused.
    let (s, b) = srv.client.post(&path(&id), &ask(1), Some(&ann.token)).await.unwrap();
    assert_eq!((s, &b["status"]), (202, &json!("queued")), "{b}");
    assert_eq!(srv.app.analyses.pending(), (1, 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_workers_analyses_are_off() {
    let srv = TestServer::start_config(config(0, 16, 10)).await;
    let ann = srv.guest("Ann").await;
    let (id, _) = finished_game(&srv, &ann, "madiao", false).await;
    let (s, b) = srv.client.post(&path(&id), &json!({"hand": 0, "seat": 0}), Some(&ann.token)).await.unwrap();
    assert_eq!((s, b["error"]["code"].as_str()), (503, Some("analysis_off")), "{b}");
    let (s, b) = srv.client.get(&format!("{}?hand=0&seat=0", path(&id))).await.unwrap();
    assert_eq!((s, b["error"]["code"].as_str()), (503, Some("analysis_off")), "{b}");
    assert_eq!(srv.app.analyses.started(), 0);
}

/// `GET` answers from what is kept: a game's record is read for its hands' outline once (off the
/// async workers), however often the status is asked, and a done analysis is answered from the
/// store without reading the record at all; an address asking too often is refused
/// `rate_limited`. (Before, every such `GET` read and parsed the whole record on the async
/// workers, without a limit.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_reads_a_record_once_and_is_rate_limited() {
    let mut cfg = config(1, 16, 10);
    cfg.limits.analysis.poll_burst = 60.0;
    cfg.limits.analysis.polls_per_second = 0.001;
    let srv = TestServer::start_config(cfg).await;
    let ann = srv.guest("Ann").await;
    let (id, _) = finished_game(&srv, &ann, "madiao", false).await;
    let code = |v: &Value| v["error"]["code"].as_str().unwrap_or_default().to_string();
    for _ in 0..10 {
        let (s, b) = srv.client.get(&format!("{}?hand=0&seat=2", path(&id))).await.unwrap();
        assert_eq!((s, code(&b)), (404, "no_analysis".into()), "{b}");
        let (s, b) = srv.client.get(&format!("{}?hand=5&seat=0", path(&id))).await.unwrap();
        assert_eq!((s, code(&b)), (404, "no_hand".into()), "{b}");
    }
    assert_eq!(srv.app.analyses.outlines_read(), 1, "the record was read once for twenty answers");
    // A done analysis: its polls read nothing more.
    let (s, b) = srv.client.post(&path(&id), &json!({"hand": 0, "seat": 1}), Some(&ann.token)).await.unwrap();
    assert_eq!(s, 202, "{b}");
    // Waited for without asking over HTTP: every poll spends the allowance, and on a slow
    // machine polling until done would spend it all.
    let end = tokio::time::Instant::now() + Duration::from_secs(120);
    while srv.app.analyses.started() == 0 || srv.app.analyses.pending() != (0, 0) {
        assert!(tokio::time::Instant::now() < end, "the analysis did not finish in 2 minutes");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (s, b) = srv.client.get(&format!("{}?hand=0&seat=1", path(&id))).await.unwrap();
    assert_eq!((s, &b["status"]), (200, &json!("done")), "{b}");
    for _ in 0..5 {
        let (s, b) = srv.client.get(&format!("{}?hand=0&seat=1", path(&id))).await.unwrap();
        assert_eq!((s, &b["status"]), (200, &json!("done")), "{b}");
    }
    assert_eq!(srv.app.analyses.outlines_read(), 1);
    // The allowance (60 at once, then one in about twenty minutes) runs out.
    let used = 20 + 1 + 5;
    let mut limited = None;
    for _ in used..70 {
        let (s, b) = srv.client.get(&format!("{}?hand=0&seat=1", path(&id))).await.unwrap();
        if s == 429 {
            limited = Some(b);
            break;
        }
    }
    let limited = limited.expect("the allowance ran out");
    assert_eq!(code(&limited), "rate_limited", "{limited}");
}

/// One address cannot keep the queue full: past its share (4 places) its guests are refused,
/// and a guest of another address still gets a place. (Before, one address's guests took all
/// sixteen places and the other was refused `busy`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_only_its_share_of_the_queue() {
    // No thread takes the jobs meanwhile: a budget that keeps the one thread on the first.
    let srv = TestServer::start_config(config(1, 16, 2000)).await;
    let ann = srv.guest("Ann").await;
    let (one, _) = finished_game(&srv, &ann, "madiao", false).await;
    let (two, _) = finished_game(&srv, &ann, "madiao", false).await;
    let mut refused = None;
    for k in 0..8u8 {
        let g = srv.guest(&format!("Guest {k}")).await;
        let id = if k < 4 { &one } else { &two };
        let (s, b) =
            srv.client.post(&path(id), &json!({"hand": 0, "seat": k % 4}), Some(&g.token)).await.unwrap();
        if s == 429 {
            refused = Some((k, b));
            break;
        }
        assert!(s == 202, "{b}");
    }
    let (k, b) = refused.expect("the address's share ran out");
    assert_eq!(b["error"]["code"], "rate_limited", "{b}");
    assert!(b["error"]["message"].as_str().unwrap().contains("your address"), "{b}");
    // Four waiting (and maybe one more running) were taken; the next was refused.
    assert!((4..=5).contains(&k), "refused after {k}");
    // Another address: its guest gets a place (the load tool's clients come from 127.0.0.1; a
    // second loopback address stands for another machine).
    let other = client::Client::with_local_address(srv.client.addr(), "127.0.0.2".parse().unwrap());
    let g = other.guest("Elsewhere").await.unwrap();
    let (s, b) = other.post(&path(&two), &json!({"hand": 0, "seat": 3}), Some(&g.token)).await.unwrap();
    assert_eq!((s, &b["status"]), (202, &json!("queued")), "{b}");
}

/// The searched decisions' costs of an analysis's JSON.
fn costs(analysis: &Value) -> Vec<f64> {
    analysis["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["verdict"]["kind"] == "searched")
        .map(|d| d["verdict"]["cost"].as_f64().unwrap())
        .collect()
}

/// Seat 0's accuracy over the match at `id`, as `GET /api/games/{id}/accuracy` answers.
async fn accuracy_of(srv: &TestServer, id: &str) -> (u16, Value) {
    srv.client.get(&format!("/api/games/{id}/accuracy?seat=0")).await.unwrap()
}

/// The accuracy My games gives for the newest game of the token's guest.
async fn my_games_accuracy(srv: &TestServer, token: &str) -> Value {
    let (status, page) = srv.client.get_authed(token, "/api/account/games").await.unwrap();
    assert_eq!(status, 200, "{page}");
    page["games"][0]["accuracy"].clone()
}

/// A seat's accuracy over a match (`GET /api/games/{id}/accuracy`, and in My games) pools the
/// searched moves of the hands analysed so far (`ai::analysis::match_accuracy`): none before any
/// analysis, one hand's after it, every hand's at the end; the errors.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_accuracy_pools_the_analysed_hands_and_shows_in_my_games() {
    let srv = TestServer::start_config(config(1, 16, 10)).await;
    let ann = srv.guest("Ann").await;
    let id = srv.table(&ann, json!({ "game": "madiao", "variants": { "game_length": "hands:2" } })).await;
    let (mut s, _) = srv.join(&ann, &id, None).await;
    common::play_randomly(&mut s, 3, Duration::from_secs(60)).await;
    let record = srv.record_within(&id, Duration::from_secs(10)).await.expect("the record");
    let ai::record::AnyRecord::Madiao(rec) = ai::record::parse(&record).unwrap() else { panic!() };
    let finished: Vec<u32> =
        (0..rec.hands.len()).filter(|&h| rec.hands[h].result.is_some()).map(|h| h as u32).collect();
    assert!(finished.len() >= 2, "{} hands", finished.len());
    // Before any analysis: every finished hand listed, none analysed, no accuracy.
    let (status, before) = accuracy_of(&srv, &id).await;
    assert_eq!(status, 200, "{before}");
    let listed: Vec<u64> =
        before["hands"].as_array().unwrap().iter().map(|h| h["hand"].as_u64().unwrap()).collect();
    assert_eq!(listed, finished.iter().map(|&h| u64::from(h)).collect::<Vec<_>>());
    assert_eq!((before["analysed"].clone(), before["accuracy"].clone()), (json!(0), Value::Null));
    assert_eq!(my_games_accuracy(&srv, &ann.token).await, before, "My games carries the same accuracy");
    // Each hand analysed in turn: the accuracy is the pooled formula over the hands so far.
    let limits = *srv.app.analyses.limits();
    let mut so_far: Vec<Vec<f64>> = Vec::new();
    for (k, &hand) in finished.iter().enumerate() {
        let (status, r) =
            srv.client.post(&path(&id), &json!({"hand": hand, "seat": 0}), Some(&ann.token)).await.unwrap();
        assert!(status == 202 || status == 200, "{r}");
        let done = until_done(&srv, &id, hand, 0).await.pop().unwrap();
        let want = expected(&record, hand as usize, 0, &limits);
        assert_eq!(done["analysis"], want);
        so_far.push(costs(&want));
        let (_, now) = accuracy_of(&srv, &id).await;
        assert_eq!(now["analysed"], json!(k + 1), "{now}");
        let moves: usize = so_far.iter().map(Vec::len).sum();
        assert_eq!(now["moves"], json!(moves));
        let pooled = ai::analysis::match_accuracy(&so_far, ai::analysis::Unit::Stakes);
        assert_eq!(now["accuracy"].as_f64(), pooled, "{now}");
        assert_eq!(now["hands"][k]["accuracy"], want["summary"]["accuracy"], "the hand's own accuracy");
        assert_eq!(now["hands"][k]["analysed"], true);
        assert_eq!(my_games_accuracy(&srv, &ann.token).await, now);
    }
    assert!(so_far.iter().any(|c| !c.is_empty()), "no searched move in the match: {so_far:?}");
    // The errors.
    let (status, _) = srv.client.get(&format!("/api/games/{id}/accuracy?seat=4")).await.unwrap();
    assert_eq!(status, 400);
    let (status, _) = srv.client.get(&format!("/api/games/{id}/accuracy")).await.unwrap();
    assert_eq!(status, 400);
    let (status, _) = srv.client.get("/api/games/nosuchgame/accuracy?seat=0").await.unwrap();
    assert_eq!(status, 404);
}
