//! Rated tables through the API: only accounts create them and sit at them; a rated match with
//! bots ends with the account's rating what Glicko-2 gives for the match's standings; a person
//! who leaves a rated match loses it to everyone; the leaderboard and the profile.

use crate::common;

use std::time::Duration;

use cards::record::GameKind;
use common::{TestServer, fast, play_randomly};
use rating::{Config, Entrant, Rating, rate_match};
use serde_json::{Value, json};
use server::store::{FIRST_EPOCH, Write};
use table::rated::{RatedMatch, RatedPlayer, RatedSeat};

const PW: &str = "correct horse battery";
const WAIT: Duration = Duration::from_secs(10);

/// A new guest who claims the account `username`: its session's token and guest id.
async fn account(srv: &TestServer, username: &str) -> (String, String) {
    let g = srv.guest(username).await;
    let s = srv.client.claim_account(&g.token, username, PW).await.unwrap();
    (s.token, s.id)
}

/// The first message of `types` (or an error) on the socket.
async fn next_of(s: &mut client::Socket, what: &str) -> Value {
    s.until(WAIT, what, |m| m["type"] == what || m["type"] == "error").await.unwrap()
}

async fn profile(srv: &TestServer, username: &str) -> Value {
    let (status, body) = srv.client.get(&format!("/api/players/{username}")).await.unwrap();
    assert_eq!(status, 200, "{body}");
    body
}

/// A bot's fixed rating in `game`, the calibrated one the server plays it under.
fn calibrated(game: GameKind, bot: &str) -> Rating {
    server::ratings::bot_rating(game, bot).expect("a calibrated bot")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_can_neither_create_nor_sit_at_a_rated_table_but_may_watch() {
    let srv = TestServer::start(fast()).await;
    let guest = srv.guest("Gu").await;
    let rated = json!({ "game": "madiao", "rated": true });
    let (status, body) = srv.client.post("/api/tables", &rated, Some(&guest.token)).await.unwrap();
    assert_eq!((status, body["error"]["code"].as_str()), (403, Some("account_required")), "{body}");

    let (ann, _) = account(&srv, "Ann").await;
    // A rated table of four bots would rate nobody.
    let bots = json!({ "game": "madiao", "rated": true, "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}] });
    let (status, body) = srv.client.post("/api/tables", &bots, Some(&ann)).await.unwrap();
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("bad_request")), "{body}");
    let open = json!({ "game": "madiao", "rated": true, "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "pimc"}] });
    let (status, body) = srv.client.post("/api/tables", &open, Some(&ann)).await.unwrap();
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["table"]["rated"], true);
    let id = body["table"]["id"].as_str().unwrap().to_string();
    let (_, summary) = srv.client.get(&format!("/api/tables/{id}")).await.unwrap();
    assert_eq!(summary["rated"], true, "{summary}");
    // A casual table says so.
    let (_, casual) = srv.client.post("/api/tables", &json!({ "game": "madiao" }), Some(&ann)).await.unwrap();
    assert_eq!(casual["table"]["rated"], false);

    let mut s = srv.client.connect_as(&guest.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id, "seat": 1 })).await.unwrap();
    let e = next_of(&mut s, "sync").await;
    assert_eq!((e["type"].as_str(), e["code"].as_str()), (Some("error"), Some("account_required")), "{e}");
    // Watching is fine.
    let mut w = srv.client.connect_as(&guest.token).await.unwrap();
    w.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let sync = next_of(&mut w, "sync").await;
    assert_eq!(sync["type"], "sync", "{sync}");
    // An account sits down.
    let (bo, _) = account(&srv, "Bob").await;
    let mut b = srv.client.connect_as(&bo).await.unwrap();
    b.send(&json!({ "type": "join", "table": id, "seat": 1 })).await.unwrap();
    let sync = next_of(&mut b, "sync").await;
    assert_eq!((sync["type"].as_str(), sync["you"]["seat"].as_u64()), (Some("sync"), Some(1)), "{sync}");
}

/// A rated table of `game` created by `token`'s account, with three bots (random, heuristic,
/// random) beside it, and the account seated there: the table's id and the account's socket
/// (its `sync` read).
async fn seated_at_rated(
    srv: &TestServer,
    token: &str,
    game: &str,
    turn_seconds: u32,
    variants: Value,
) -> (String, client::Socket) {
    let body = json!({
        "game": game,
        "rated": true,
        "turn_seconds": turn_seconds,
        "bank_seconds": 0,
        "variants": variants,
        "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}],
    });
    let (status, reply) = srv.client.post("/api/tables", &body, Some(token)).await.unwrap();
    assert_eq!(status, 201, "{reply}");
    let id = reply["table"]["id"].as_str().unwrap().to_string();
    let mut s = srv.client.connect_as(token).await.unwrap();
    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
    assert_eq!(next_of(&mut s, "sync").await["type"], "sync");
    (id, s)
}

/// A rated Madiao match of `username` with three bots (random, heuristic, random), four hands (the
/// fewest a rated table allows); the
/// person plays at random, and leaves after the first decision if `leave`. Returns the table and
/// the match's chips by seat.
async fn rated_match(srv: &TestServer, token: &str, leave: bool) -> (String, Vec<f64>) {
    let (id, mut s) = seated_at_rated(srv, token, "madiao", 60, json!({ "game_length": "hands:4" })).await;
    let chips = if leave {
        s.until(WAIT, "the start", |m| m["type"] == "update" && m["event"]["kind"] == "start").await.unwrap();
        s.send(&json!({ "type": "leave" })).await.unwrap();
        // He stays as a spectator; bots play on to the end.
        let over =
            s.until(Duration::from_secs(120), "the end", |m| m["match"]["over"] == true).await.unwrap();
        over["match"]["chips"].clone()
    } else {
        let seen = play_randomly(&mut s, 11, Duration::from_secs(120)).await;
        seen.last().unwrap()["match"]["chips"].clone()
    };
    srv.record_within(&id, WAIT).await.expect("the record");
    let chips = chips.as_array().unwrap().iter().map(|c| c.as_f64().unwrap()).collect();
    (id, chips)
}

/// The account's rating after a match of `chips` against the bots (random, heuristic, random, at
/// their calibrated ratings), worked out here with the rating crate from the standings.
fn expected(me: Rating, chips: &[f64], forfeited: bool) -> Rating {
    let e = |rating, fixed, result, forfeited| Entrant { rating, fixed, side: None, result, forfeited };
    let entrants = [
        e(me, false, chips[0], forfeited),
        e(calibrated(GameKind::Madiao, "random"), true, chips[1], false),
        e(calibrated(GameKind::Madiao, "heuristic"), true, chips[2], false),
        e(calibrated(GameKind::Madiao, "random"), true, chips[3], false),
    ];
    rate_match(&entrants, &Config::default()).unwrap()[0]
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_match_with_bots_rates_the_account_as_glicko2_gives_for_its_standings() {
    let srv = TestServer::start(fast()).await;
    let (ann, _) = account(&srv, "Ann").await;
    let (table, chips) = rated_match(&srv, &ann, false).await;
    let want = expected(Rating::new(&Config::default()), &chips, false);
    let p = profile(&srv, "ann").await;
    assert_eq!(p["username"], "Ann");
    let r = &p["ratings"][0];
    assert_eq!((r["game"].as_str(), r["games"].as_u64()), (Some("madiao"), Some(1)), "{p}");
    assert!(close(r["rating"].as_f64().unwrap(), want.rating), "{r} vs {want:?}");
    assert!(close(r["deviation"].as_f64().unwrap(), want.deviation), "{r} vs {want:?}");
    assert_eq!(r["provisional"], true, "one match leaves the deviation high");
    let recent = &p["recent"][0];
    assert_eq!(recent["table"], table.as_str());
    assert_eq!(recent["rating_before"], 1500.0);
    assert_eq!(recent["opponents"], 3);
    let beaten = chips[1..].iter().map(|&c| {
        if chips[0] > c {
            1.0
        } else if chips[0] == c {
            0.5
        } else {
            0.0
        }
    });
    assert_eq!(recent["score"].as_f64().unwrap(), beaten.sum::<f64>(), "{recent} {chips:?}");
    assert_eq!(recent["forfeited"], false);
    assert_eq!(p["history"].as_array().unwrap().len(), 1);
    // The table's own rating changes (shown beside the final score): Ann's, as in her profile.
    let (status, changes) = srv.client.get(&format!("/api/tables/{table}/ratings")).await.unwrap();
    assert_eq!(status, 200, "{changes}");
    assert_eq!(changes["table"], table.as_str());
    let change = &changes["changes"].as_array().unwrap()[..];
    assert_eq!(change.len(), 1, "only the person is rated: {changes}");
    assert_eq!((change[0]["seat"].as_u64(), change[0]["name"].as_str()), (Some(0), Some("Ann")));
    assert_eq!(change[0]["rating_before"], 1500.0);
    assert!(close(change[0]["rating_after"].as_f64().unwrap(), want.rating), "{changes}");
    assert_eq!(change[0]["outcome"], recent["outcome"]);
    let (status, none) = srv.client.get("/api/tables/nosuchtable/ratings").await.unwrap();
    assert_eq!((status, none["error"]["code"].as_str()), (404, Some("no_table")), "{none}");
    // "My games" lists it as rated; the rated filter keeps it, the casual one drops it.
    let mine = |q: &'static str| {
        let (srv, ann) = (&srv, ann.clone());
        async move { srv.client.get_authed(&ann, &format!("/api/account/games{q}")).await.unwrap() }
    };
    let (status, all) = mine("").await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(
        (all["games"][0]["id"].as_str(), all["games"][0]["rated"].as_bool()),
        (Some(table.as_str()), Some(true))
    );
    assert_eq!(mine("?rated=true").await.1["total"], 1);
    assert_eq!(mine("?rated=false").await.1["total"], 0);
    assert_eq!(mine("?rated=maybe").await.0, 400);
    // The bots' ratings never change: a second match starts from the account's new rating
    // against the same fixed ones.
    let (_, chips2) = rated_match(&srv, &ann, false).await;
    let want2 = expected(want, &chips2, false);
    let p = profile(&srv, "Ann").await;
    assert_eq!(p["ratings"][0]["games"], 2);
    assert!(close(p["ratings"][0]["rating"].as_f64().unwrap(), want2.rating), "{p} vs {want2:?}");
    let history = p["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert!(close(history[1]["rating_before"].as_f64().unwrap(), want.rating), "oldest first");
    // The leaderboard has it.
    let (status, board) = srv.client.get("/api/ratings/madiao").await.unwrap();
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["total"], 1);
    assert_eq!(board["entries"][0]["username"], "Ann");
    assert_eq!(board["entries"][0]["rank"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_leaves_a_rated_match_loses_it_to_everyone() {
    let srv = TestServer::start(fast()).await;
    let (ann, _) = account(&srv, "Ann").await;
    let (_, chips) = rated_match(&srv, &ann, true).await;
    let p = profile(&srv, "Ann").await;
    let recent = &p["recent"][0];
    assert_eq!(recent["forfeited"], true, "{p}");
    assert_eq!((recent["score"].as_f64(), recent["outcome"].as_str()), (Some(0.0), Some("loss")), "{recent}");
    let want = expected(Rating::new(&Config::default()), &chips, true);
    let got = p["ratings"][0]["rating"].as_f64().unwrap();
    assert!(close(got, want.rating), "{got} vs {want:?}");
    assert!(got < 1500.0, "{got}");
    assert_eq!(p["ratings"][0]["losses"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_is_best_first_in_pages_and_profiles_show_the_ratings() {
    let srv = TestServer::start(fast()).await;
    let mut players = Vec::new();
    for name in ["Cai", "Dai", "Eve"] {
        players.push(account(&srv, name).await);
    }
    let guest = srv.guest("Gu").await;
    let person =
        |(_, id): &(String, String), name: &str| RatedPlayer::Person { guest: id.clone(), name: name.into() };
    // One match stored the way a rated table's end stores it: Eve first, then Cai, then Dai; the
    // guest (no account) is not rated.
    let host = &players[0].0;
    let (_, t) = srv.client.post("/api/tables", &json!({ "game": "madiao" }), Some(host)).await.unwrap();
    let table = t["table"]["id"].as_str().unwrap().to_string();
    let seat = |i: u8, player, result| RatedSeat { seat: i, player, side: None, result, forfeited: false };
    let m = RatedMatch {
        game: GameKind::Madiao,
        seats: vec![
            seat(0, person(&players[0], "Cai"), 2.0),
            seat(1, person(&players[1], "Dai"), -8.0),
            seat(2, person(&players[2], "Eve"), 9.0),
            seat(3, RatedPlayer::Person { guest: guest.id.clone(), name: "Gu".into() }, 0.0),
        ],
    };
    srv.app.store.write_step(&table, FIRST_EPOCH, &[Write::Rated(m)]).await.unwrap();

    let (status, board) = srv.client.get("/api/ratings/madiao?limit=2").await.unwrap();
    assert_eq!(status, 200, "{board}");
    let names = |b: &Value| -> Vec<String> {
        b["entries"].as_array().unwrap().iter().map(|e| e["username"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(names(&board), ["Eve", "Cai"]);
    assert_eq!((board["total"].as_u64(), board["next"].as_u64()), (Some(3), Some(2)), "{board}");
    assert!(board["entries"][0]["rating"].as_f64() > board["entries"][1]["rating"].as_f64());
    assert_eq!(board["entries"][0]["provisional"], true);
    assert!(board["entries"][0]["deviation"].as_f64().unwrap() > 0.0);
    let (_, page) = srv.client.get("/api/ratings/madiao?offset=2&limit=2").await.unwrap();
    assert_eq!(names(&page), ["Dai"]);
    assert_eq!((page["entries"][0]["rank"].as_u64(), page["next"].as_u64()), (Some(3), None), "{page}");
    let (_, other) = srv.client.get("/api/ratings/dabaifen").await.unwrap();
    assert_eq!(other["total"], 0, "{other}");
    for bad in ["/api/ratings/chess", "/api/ratings/madiao?limit=0", "/api/ratings/madiao?limit=x"] {
        let (status, body) = srv.client.get(bad).await.unwrap();
        assert!(status == 400 || status == 404, "{bad}: {status} {body}");
        assert!(body["error"]["code"].is_string(), "{body}");
    }

    let eve = profile(&srv, "EVE").await;
    assert_eq!(eve["username"], "Eve");
    assert!(eve["joined_ms"].as_i64().unwrap() > 0);
    let r = &eve["ratings"][0];
    assert_eq!(
        (r["wins"].as_u64(), r["losses"].as_u64(), r["games"].as_u64()),
        (Some(1), Some(0), Some(1)),
        "{r}"
    );
    assert_eq!(eve["recent"][0]["outcome"], "win");
    assert_eq!(eve["recent"][0]["opponents"], 2);
    let dai = profile(&srv, "Dai").await;
    assert_eq!(dai["recent"][0]["outcome"], "loss");
    // An account without rated matches has an empty profile; an unknown name is 404.
    account(&srv, "Zed").await;
    let z = profile(&srv, "Zed").await;
    assert_eq!((z["ratings"].as_array().unwrap().len(), z["recent"].as_array().unwrap().len()), (0, 0));
    for missing in ["Nobody", "x", "%20"] {
        let (status, body) = srv.client.get(&format!("/api/players/{missing}")).await.unwrap();
        assert_eq!((status, body["error"]["code"].as_str()), (404, Some("no_player")), "{body}");
    }
    // Deleting an account takes it off the leaderboard.
    srv.client.delete_account(&players[2].0, PW).await.unwrap();
    let (_, board) = srv.client.get("/api/ratings/madiao").await.unwrap();
    assert_eq!(names(&board), ["Cai", "Dai"]);
    let refused = srv.client.get("/api/players/Eve").await.unwrap();
    assert_eq!(refused.0, 404);
    // The pages are the browser client's (its index.html), at their addresses.
    for page in ["/ratings", "/players/Cai", "/account"] {
        let (status, body) = srv.client.get_text(page).await.unwrap();
        assert_eq!(status, 200, "{page}");
        assert!(
            body.contains("<html") || body.contains("<!doctype") || body.contains("<!DOCTYPE"),
            "{page}: {body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_dabaifen_match_rates_by_partnership_against_the_two_opponents_only() {
    let srv = TestServer::start(fast()).await;
    let (ann, _) = account(&srv, "Ann").await;
    let (id, mut s) = seated_at_rated(&srv, &ann, "dabaifen", 60, json!({})).await;
    let seen = play_randomly(&mut s, 5, Duration::from_secs(240)).await;
    let winner = seen.last().unwrap()["match"]["winner"].as_u64().expect("a winning side");
    srv.record_within(&id, WAIT).await.expect("the record");
    // Seats 0 and 2 (Ann and the heuristic bot) are partners against the random bots, each bot at
    // its calibrated rating.
    let result = |side: u64| if side == winner { 1.0 } else { 0.0 };
    let e = |rating, fixed, side: u64| Entrant {
        rating,
        fixed,
        side: Some(side as u8),
        result: result(side),
        forfeited: false,
    };
    let entrants = [
        e(Rating::new(&Config::default()), false, 0),
        e(calibrated(GameKind::Dabaifen, "random"), true, 1),
        e(calibrated(GameKind::Dabaifen, "heuristic"), true, 0),
        e(calibrated(GameKind::Dabaifen, "random"), true, 1),
    ];
    let want = rate_match(&entrants, &Config::default()).unwrap()[0];
    let p = profile(&srv, "Ann").await;
    let r = &p["ratings"][0];
    assert_eq!((r["game"].as_str(), r["games"].as_u64()), (Some("dabaifen"), Some(1)), "{p}");
    assert!(close(r["rating"].as_f64().unwrap(), want.rating), "{r} vs {want:?}");
    let recent = &p["recent"][0];
    assert_eq!(recent["opponents"], 2, "the partner is no opponent: {recent}");
    let won = winner == 0;
    assert_eq!(recent["score"].as_f64(), Some(if won { 2.0 } else { 0.0 }), "{recent}");
    assert_eq!(recent["outcome"], if won { "win" } else { "loss" });
    assert_eq!(r["rating"].as_f64().unwrap() > 1500.0, won, "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_whose_clock_runs_out_three_times_loses_the_rated_match_to_everyone() {
    let srv = TestServer::start(fast()).await;
    let (ann, _) = account(&srv, "Ann").await;
    let (id, mut s) = seated_at_rated(&srv, &ann, "madiao", 5, json!({ "game_length": "hands:4" })).await;
    let away = |m: &Value, yes: bool| m["type"] == "seats" && m["seats"][0]["away"] == yes;
    // Three times: the clock runs out (a bot plays for him), and he is back.
    for _ in 0..3 {
        s.until(Duration::from_secs(60), "the clock running out", |m| away(m, true)).await.unwrap();
        s.send(&json!({ "type": "back" })).await.unwrap();
        s.until(WAIT, "back", |m| away(m, false) || m["type"] == "error").await.unwrap();
    }
    // He plays the rest of the match himself (answering the latest decision: messages from
    // before he was back may still be queued, and an answer to one of them is stale).
    let mut rng = cards::Rng::from_seed(3);
    s.send(&json!({ "type": "resync" })).await.unwrap();
    let end = tokio::time::Instant::now() + Duration::from_secs(120);
    let last = loop {
        let left = end.saturating_duration_since(tokio::time::Instant::now());
        let m = s.recv_timeout(left).await.unwrap().expect("the match ends");
        if m["type"] == "error" {
            assert_eq!(m["code"], "stale", "{m}");
            s.send(&json!({ "type": "resync" })).await.unwrap();
            continue;
        }
        if common::match_over(&m) {
            break m;
        }
        if matches!(m["type"].as_str(), Some("update" | "sync"))
            && let Some(a) = client::random_action(&m["legal"], &mut rng)
        {
            s.send(&json!({ "type": "act", "action": a, "move": m["move"] })).await.unwrap();
        }
    };
    let chips: Vec<f64> =
        last["match"]["chips"].as_array().unwrap().iter().map(|c| c.as_f64().unwrap()).collect();
    srv.record_within(&id, WAIT).await.expect("the record");
    let p = profile(&srv, "Ann").await;
    let recent = &p["recent"][0];
    assert_eq!(recent["forfeited"], true, "{p}");
    assert_eq!((recent["score"].as_f64(), recent["outcome"].as_str()), (Some(0.0), Some("loss")), "{recent}");
    let want = expected(Rating::new(&Config::default()), &chips, true);
    assert!(close(p["ratings"][0]["rating"].as_f64().unwrap(), want.rating), "{p} vs {want:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leaver_still_forfeits_after_a_restart_and_the_match_is_rated_once() {
    use server::store::TableStatus;
    // Bots slow enough that the match is still on when the table parks.
    let timing = table::settings::Timing { park_ms: 100, bot_delay_ms: 20, ..fast() };
    let srv = TestServer::start(timing).await;
    let (ann, _) = account(&srv, "Ann").await;
    let (id, mut s) = seated_at_rated(&srv, &ann, "madiao", 60, json!({ "game_length": "hands:8" })).await;
    s.until(WAIT, "the start", |m| m["type"] == "update" && m["event"]["kind"] == "start").await.unwrap();
    s.send(&json!({ "type": "leave" })).await.unwrap();
    s.until(WAIT, "left", |m| m["type"] == "seats" && m["seats"][0]["away"] == true).await.unwrap();
    s.close().await;
    // Nobody is connected: the table parks, its match not over.
    let parked = tokio::time::timeout(WAIT, async {
        loop {
            let t = srv.app.store.table(&id).await.unwrap().unwrap();
            if t.status != TableStatus::Playing {
                return t.status;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap();
    assert_eq!(parked, TableStatus::Parked, "the match ended before the restart");
    // The same database in a new server: the table resumes from its log.
    let restart = || async {
        let app = server::App::start(
            srv.app.store.clone(),
            server::Config { timing: fast(), limits: server::Limits::default(), ..Default::default() },
        )
        .await
        .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        tokio::spawn(server::serve(listener, app.clone()));
        (app, client::Client::new(&addr))
    };
    let (_app2, c2) = restart().await;
    let mut w = c2.connect_as(&ann).await.unwrap();
    w.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    w.until(Duration::from_secs(60), "the end", |m| m["match"]["over"] == true).await.unwrap();
    let record = tokio::time::timeout(WAIT, async {
        loop {
            let (status, _) = c2.get_text(&format!("/api/records/{id}")).await.unwrap();
            if status == 200 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(record.is_ok(), "the record");
    let (_, p) = c2.get("/api/players/Ann").await.unwrap();
    assert_eq!(p["ratings"][0]["games"], 1, "{p}");
    assert_eq!(p["recent"][0]["forfeited"], true, "the forfeit was forgotten over the restart: {p}");
    assert_eq!(p["recent"][0]["score"], 0.0, "{p}");
    // Another restart rates nothing again.
    let (_app3, c3) = restart().await;
    let (_, again) = c3.get("/api/players/Ann").await.unwrap();
    assert_eq!(again["ratings"], p["ratings"], "{again}");
    assert_eq!(again["history"].as_array().unwrap().len(), 1);
}

/// Issue 28's farm: a second account sits at the main account's rated table and leaves at once,
/// match after match. Today one-hand matches are refused, and from the day's third match on the
/// two accounts are no longer rated against each other (`docs/ratings.md`, "Repeated results").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_account_that_joins_and_leaves_at_once_cannot_farm_a_rating() {
    let srv = TestServer::start(fast()).await;
    let (ann, _) = account(&srv, "Ann").await;
    let (bob, _) = account(&srv, "Bob").await;
    let table = |length: &str| {
        json!({
            "game": "madiao", "rated": true, "turn_seconds": 60, "bank_seconds": 0,
            "variants": { "game_length": length },
            "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}],
        })
    };
    // One-hand rated matches (the farm's) are refused; so is anything under four hands.
    for short in ["hands:1", "hands:3"] {
        let (status, body) = srv.client.post("/api/tables", &table(short), Some(&ann)).await.unwrap();
        assert_eq!((status, body["error"]["code"].as_str()), (400, Some("bad_request")), "{short}: {body}");
        assert!(body["error"]["message"].as_str().unwrap().contains("hands:4"), "{body}");
    }
    for round in 0..4u64 {
        let (status, reply) = srv.client.post("/api/tables", &table("hands:4"), Some(&ann)).await.unwrap();
        assert_eq!(status, 201, "{reply}");
        let id = reply["table"]["id"].as_str().unwrap().to_string();
        let mut a = srv.client.connect_as(&ann).await.unwrap();
        a.send(&json!({ "type": "join", "table": id })).await.unwrap();
        assert_eq!(next_of(&mut a, "sync").await["type"], "sync");
        let mut b = srv.client.connect_as(&bob).await.unwrap();
        b.send(&json!({ "type": "join", "table": id, "seat": 1 })).await.unwrap();
        assert_eq!(next_of(&mut b, "sync").await["type"], "sync");
        b.until(WAIT, "the start", |m| m["type"] == "update" && m["event"]["kind"] == "start").await.unwrap();
        b.send(&json!({ "type": "leave" })).await.unwrap();
        play_randomly(&mut a, 100 + round, Duration::from_secs(120)).await;
        srv.record_within(&id, WAIT).await.expect("the record");
    }
    let p = profile(&srv, "Ann").await;
    let history = p["history"].as_array().unwrap();
    assert_eq!(history.len(), 4, "{p}");
    // Oldest first: Bob's forfeit counts in the first two matches of the day, not after.
    let opponents: Vec<u64> = history.iter().map(|h| h["opponents"].as_u64().unwrap()).collect();
    assert_eq!(opponents, [3, 3, 2, 2], "{p}");
    let b = profile(&srv, "Bob").await;
    let theirs: Vec<u64> =
        b["history"].as_array().unwrap().iter().map(|h| h["opponents"].as_u64().unwrap()).collect();
    assert_eq!(theirs, [3, 3, 2, 2], "{b}");
    assert_eq!(b["history"][3]["forfeited"], true, "{b}");
}

/// A server trusting 127.0.0.1 as its proxy (`X-Forwarded-For`), so that each request may say
/// which client address it comes from.
async fn behind_proxy() -> TestServer {
    use server::proxy::{ForwardedHeader, Proxies};
    let dir = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(
        server::store::sqlite::SqliteStore::open(dir.path().join("y.db").to_str().unwrap()).unwrap(),
    );
    let config = server::Config { timing: fast(), limits: common::fast_limits(), ..Default::default() };
    let app = server::App::start(store, config).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let proxies =
        Proxies { ranges: vec!["127.0.0.1".parse().unwrap()], header: ForwardedHeader::XForwardedFor };
    app.set_site(server::Site::local(addr).with_proxies(proxies));
    let a = app.clone();
    let task = tokio::spawn(async move {
        let _ = server::serve(listener, a).await;
    });
    TestServer { app, client: client::Client::new(&addr.to_string()), dir, task }
}

/// Signs `username` in from the client address `from` (through the trusted proxy): the new
/// session's token.
async fn sign_in_from(srv: &TestServer, username: &str, from: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = srv.client.addr().to_string();
    let body = json!({ "username": username, "password": PW }).to_string();
    let req = format!(
        "POST /api/sessions HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         X-Forwarded-For: {from}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut out)).await.unwrap().unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    assert!(head.starts_with("HTTP/1.1 201"), "{text}");
    serde_json::from_str::<Value>(body).unwrap()["token"].as_str().unwrap().to_string()
}

/// Issue 28, item 5: two accounts signed in from one client address are not rated against each
/// other (`docs/ratings.md`, "Repeated results"); two from different addresses are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_signed_in_from_one_address_are_not_rated_against_each_other() {
    let srv = behind_proxy().await;
    // Accounts made through the proxy without a forwarded address: none is noted.
    for name in ["Ann", "Bob", "Cyrus", "Diana", "Eve_E", "Finn"] {
        account(&srv, name).await;
    }
    let ann = sign_in_from(&srv, "Ann", "198.51.100.7").await;
    let bob = sign_in_from(&srv, "Bob", "198.51.100.7").await;
    let cy = sign_in_from(&srv, "Cyrus", "198.51.100.8").await;
    let di = sign_in_from(&srv, "Diana", "203.0.113.9").await;
    // Different sign-in addresses, but Finn sits down from Eve's.
    let eve = sign_in_from(&srv, "Eve_E", "192.0.2.10").await;
    let finn = sign_in_from(&srv, "Finn", "192.0.2.11").await;
    let table = json!({
        "game": "madiao", "rated": true, "turn_seconds": 60, "bank_seconds": 0,
        "variants": { "game_length": "hands:4" },
        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}],
    });
    for (host, guest, seed) in [(&ann, &bob, 7u64), (&cy, &di, 8)] {
        let (status, reply) = srv.client.post("/api/tables", &table, Some(host)).await.unwrap();
        assert_eq!(status, 201, "{reply}");
        let id = reply["table"]["id"].as_str().unwrap().to_string();
        let mut a = srv.client.connect_as(host).await.unwrap();
        a.send(&json!({ "type": "join", "table": id })).await.unwrap();
        assert_eq!(next_of(&mut a, "sync").await["type"], "sync");
        let mut b = srv.client.connect_as(guest).await.unwrap();
        b.send(&json!({ "type": "join", "table": id, "seat": 1 })).await.unwrap();
        assert_eq!(next_of(&mut b, "sync").await["type"], "sync");
        b.until(WAIT, "the start", |m| m["type"] == "update" && m["event"]["kind"] == "start").await.unwrap();
        b.send(&json!({ "type": "leave" })).await.unwrap();
        play_randomly(&mut a, seed, Duration::from_secs(120)).await;
        srv.record_within(&id, WAIT).await.expect("the record");
    }
    // Finn joins Eve's table over a WebSocket whose client address is Eve's, and leaves.
    {
        use futures_util::{SinkExt, StreamExt};
        use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};
        let (status, reply) = srv.client.post("/api/tables", &table, Some(&eve)).await.unwrap();
        assert_eq!(status, 201, "{reply}");
        let id = reply["table"]["id"].as_str().unwrap().to_string();
        let mut a = srv.client.connect_as(&eve).await.unwrap();
        a.send(&json!({ "type": "join", "table": id })).await.unwrap();
        assert_eq!(next_of(&mut a, "sync").await["type"], "sync");
        let mut req = format!("ws://{}/ws", srv.client.addr()).into_client_request().unwrap();
        req.headers_mut().insert("X-Forwarded-For", "192.0.2.10".parse().unwrap());
        let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        for msg in
            [json!({ "type": "hello", "token": finn }), json!({ "type": "join", "table": id, "seat": 1 })]
        {
            ws.send(Message::Text(msg.to_string().into())).await.unwrap();
        }
        tokio::time::timeout(WAIT, async {
            while let Some(Ok(m)) = ws.next().await {
                let Message::Text(t) = m else { continue };
                let v: Value = serde_json::from_str(&t).unwrap();
                assert_ne!(v["type"], "error", "{v}");
                if v["type"] == "update" && v["event"]["kind"] == "start" {
                    return;
                }
            }
            panic!("the WebSocket closed");
        })
        .await
        .expect("the start");
        ws.send(Message::Text(json!({ "type": "leave" }).to_string().into())).await.unwrap();
        play_randomly(&mut a, 9, Duration::from_secs(120)).await;
        srv.record_within(&id, WAIT).await.expect("the record");
    }
    let opponents = |p: &Value| p["history"][0]["opponents"].as_u64();
    // One address: each is rated against the two bots only (Bob's forfeit does not lift Ann).
    for name in ["Ann", "Bob"] {
        let p = profile(&srv, name).await;
        assert_eq!(opponents(&p), Some(2), "{name}: {p}");
    }
    // Sitting down from another account's address counts as signing in from it.
    for name in ["Eve_E", "Finn"] {
        let p = profile(&srv, name).await;
        assert_eq!(opponents(&p), Some(2), "{name}: {p}");
    }
    // Different addresses: against each other too.
    for name in ["Cyrus", "Diana"] {
        let p = profile(&srv, name).await;
        assert_eq!(opponents(&p), Some(3), "{name}: {p}");
    }
    assert!(profile(&srv, "Diana").await["history"][0]["forfeited"] == true);
}
