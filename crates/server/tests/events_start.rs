//! How a duplicate event begins, and its `total` scoring, through the API (`docs/events.md`, "An
//! event"; `docs/protocol.md`, "Duplicate events"): an event with a `start_at_ms` begins by
//! itself at that time with whoever entered, and the host's `start` begins one at once; in both,
//! bots take the seats nobody entered for. An event scored by `total` stands by the raw sums of
//! each seat's scores, worked out here from the boards' records.

use crate::common;

use std::time::Duration;

use cards::record::GameKind;
use common::events::Boards;
use common::{TestServer, fast, fast_limits};
use serde_json::{Value, json};
use server::Config;

const PW: &str = "correct horse battery";

const PLAY: Boards =
    Boards { limit: Duration::from_secs(90), resync_on: &["stale", "rate_limited", "too_late"] };

fn config(seed: u64) -> Config {
    Config { timing: fast(), limits: fast_limits(), table_seed: Some(seed), ..Default::default() }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

/// A host with an account: its token.
async fn host(srv: &TestServer) -> String {
    let g = srv.guest("Host").await;
    srv.client.claim_account(&g.token, "host", PW).await.unwrap().token
}

/// Makes the event `body` (as `host`); its id.
async fn create(srv: &TestServer, host: &str, body: Value) -> String {
    let (status, event) = srv.client.post("/api/events", &body, Some(host)).await.unwrap();
    assert_eq!(status, 201, "{event}");
    assert_eq!(event["status"], "open", "{event}");
    event["id"].as_str().unwrap().to_string()
}

/// New guests `names` enter event `id`, in that order; their tokens.
async fn enter(srv: &TestServer, id: &str, names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for name in names {
        let g = srv.guest(name).await;
        let (status, e) =
            srv.client.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&g.token)).await.unwrap();
        assert_eq!(status, 200, "{e}");
        out.push(g.token);
    }
    out
}

/// The names of each event table's four seats.
fn seat_names(e: &Value) -> Vec<Vec<String>> {
    e["event_tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            t["seats"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()
        })
        .collect()
}

/// What the event's tables should seat: `people` at each table of people (in seats 0, 1, …),
/// the default bot in every other seat.
fn expected_seats(people: &[&[&str]]) -> Vec<Vec<String>> {
    let bot = format!("bot:{}", table::bots::default_bot_of(GameKind::Madiao));
    people.iter().map(|p| (0..4).map(|s| p.get(s).map_or(bot.clone(), |n| n.to_string())).collect()).collect()
}

/// Board 1's table of every event table, as the lobby shows it: each seat's kind and name.
async fn board_table_seats(srv: &TestServer, e: &Value) -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    for t in e["event_tables"].as_array().unwrap() {
        let id = t["table_ids"][0].as_str().unwrap_or_else(|| panic!("board 1's table is made: {e}"));
        let (status, table) = srv.client.get(&format!("/api/tables/{id}")).await.unwrap();
        assert_eq!(status, 200, "{table}");
        out.push(
            table["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    (s["kind"].as_str().unwrap().to_string(), s["name"].as_str().unwrap_or("").to_string())
                })
                .collect(),
        );
    }
    out
}

/// The same as [`expected_seats`] as the board's tables show it: a person's seat, or the
/// default bot's.
fn expected_table_seats(people: &[&[&str]]) -> Vec<Vec<(String, String)>> {
    expected_seats(people)
        .into_iter()
        .map(|t| {
            t.into_iter()
                .map(
                    |n| {
                        if n.starts_with("bot:") { ("bot".to_string(), n) } else { ("person".to_string(), n) }
                    },
                )
                .collect()
        })
        .collect()
}

/// Waits for the event to be finished (its people playing `boards` boards); the event then.
async fn play_to_the_end(srv: &TestServer, id: &str, players: &[String], boards: usize) -> Value {
    PLAY.play_all(&srv.client, id, players, 0, boards).await;
    PLAY.wait_for(&srv.client, id, &players[0], |e| (e["status"] == "finished").then(|| e.clone())).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_event_begins_by_itself_at_its_time_with_whoever_entered() {
    let srv = TestServer::start_config(config(31)).await;
    let c = &srv.client;
    let host = host(&srv).await;
    // Two tables of two people, four seats for people; one person enters. Never full, it can
    // begin only by its time.
    let start_at = now_ms() + 4_000;
    let id = create(
        &srv,
        &host,
        json!({"name": "At four", "game": "madiao", "boards": 1, "tables": 2, "people_per_table": 2,
               "par_tables": 0, "start_at_ms": start_at}),
    )
    .await;
    let players = enter(&srv, &id, &["Ann"]).await;
    let (status, e) = c.get(&format!("/api/events/{id}")).await.unwrap();
    let answered = now_ms();
    assert_eq!(status, 200, "{e}");
    assert_eq!(e["start_at_ms"], start_at, "{e}");
    if answered < start_at {
        assert_eq!(e["status"], "open", "before its time: {e}");
    }

    // The server's own driver begins it: the list is read here, which (unlike the event's page)
    // carries no event on.
    let end = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (status, list) = c.get("/api/events").await.unwrap();
        let answered = now_ms();
        assert_eq!(status, 200, "{list}");
        let ours = list["events"].as_array().unwrap().iter().find(|x| x["id"] == id.as_str()).cloned();
        let ours = ours.unwrap_or_else(|| panic!("the list has the event: {list}"));
        if ours["status"] != "open" {
            assert_eq!(ours["status"], "playing", "{ours}");
            assert!(answered >= start_at, "begun {} ms before its time", start_at - answered);
            break;
        }
        assert!(tokio::time::Instant::now() < end, "the event did not begin by itself: {ours}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let e = PLAY
        .wait_for(c, &id, &players[0], |e| {
            e["event_tables"][1]["table_ids"][0].is_string().then(|| e.clone())
        })
        .await;
    // Ann at table 1, seat 0; bots in the seat nobody took beside her and at the whole second table.
    let people: &[&[&str]] = &[&["Ann"], &[]];
    assert_eq!(seat_names(&e), expected_seats(people), "{e}");
    assert_eq!(board_table_seats(&srv, &e).await, expected_table_seats(people));
    assert_eq!((e["you"]["table"].as_u64(), e["you"]["seat"].as_u64()), (Some(0), Some(0)), "{e}");
    assert_eq!(e["entrants"], json!(["Ann"]));
    // Nobody enters once it has begun.
    let late = srv.guest("Late").await;
    let (status, refused) =
        c.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&late.token)).await.unwrap();
    assert_eq!((status, refused["error"]["reason"].as_str()), (409, Some("event_begun")), "{refused}");

    let e = play_to_the_end(&srv, &id, &players, 1).await;
    let standings = e["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 8, "every seat of both tables: {e}");
    assert!(standings.iter().all(|s| s["boards"] == 1), "{e}");
    assert!(standings.iter().any(|s| s["name"] == "Ann" && s["bot"] == false), "{e}");
    assert_eq!(e["travellers"][0]["lines"].as_array().map(Vec::len), Some(2), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_hosts_start_begins_an_event_with_bots_in_the_seats_nobody_took() {
    let srv = TestServer::start_config(config(37)).await;
    let c = &srv.client;
    let host = host(&srv).await;
    let id = create(
        &srv,
        &host,
        json!({"name": "Now", "game": "madiao", "boards": 1, "tables": 2, "people_per_table": 2, "par_tables": 0}),
    )
    .await;
    // Three of four places taken: it does not begin by itself.
    let players = enter(&srv, &id, &["Ann", "Bo", "Cy"]).await;
    let (_, e) = c.get(&format!("/api/events/{id}")).await.unwrap();
    assert_eq!(e["status"], "open", "{e}");

    let (status, e) = c.post(&format!("/api/events/{id}/start"), &json!({}), Some(&host)).await.unwrap();
    assert_eq!(status, 200, "{e}");
    assert_eq!(e["status"], "playing", "{e}");
    assert_eq!(e["host"], true, "{e}");
    // Entrant i at table i div 2, seat i mod 2; the default bot everywhere else.
    let people: &[&[&str]] = &[&["Ann", "Bo"], &["Cy"]];
    assert_eq!(seat_names(&e), expected_seats(people), "{e}");
    let (status, again) = c.post(&format!("/api/events/{id}/start"), &json!({}), Some(&host)).await.unwrap();
    assert_eq!((status, again["error"]["reason"].as_str()), (409, Some("event_started")), "{again}");
    let late = srv.guest("Late").await;
    let (status, refused) =
        c.post(&format!("/api/events/{id}/enter"), &json!({}), Some(&late.token)).await.unwrap();
    assert_eq!((status, refused["error"]["reason"].as_str()), (409, Some("event_begun")), "{refused}");

    let e = PLAY
        .wait_for(c, &id, &players[0], |e| {
            e["event_tables"][1]["table_ids"][0].is_string().then(|| e.clone())
        })
        .await;
    assert_eq!(board_table_seats(&srv, &e).await, expected_table_seats(people));
    for (token, (table, seat)) in players.iter().zip([(0, 0), (0, 1), (1, 0)]) {
        let (_, mine) = c.get_authed(token, &format!("/api/events/{id}")).await.unwrap();
        assert_eq!(
            (mine["you"]["table"].as_u64(), mine["you"]["seat"].as_u64()),
            (Some(table), Some(seat)),
            "{mine}"
        );
    }

    let e = play_to_the_end(&srv, &id, &players, 1).await;
    let standings = e["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 8, "{e}");
    for name in ["Ann", "Bo", "Cy"] {
        assert!(standings.iter().any(|s| s["name"] == name && s["boards"] == 1), "{name}: {e}");
    }
    let (status, text) = c.get_text(&format!("/api/events/{id}/records")).await.unwrap();
    assert_eq!(status, 200);
    let records: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(records.len(), 2, "one record per table");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_event_scored_by_total_stands_by_the_raw_sums() {
    const BOARDS: usize = 3;
    let srv = TestServer::start_config(config(41)).await;
    let c = &srv.client;
    let host = host(&srv).await;
    let id = create(
        &srv,
        &host,
        json!({"name": "Sums", "game": "madiao", "boards": BOARDS, "tables": 2, "people_per_table": 1,
               "par_tables": 1, "scoring": "total"}),
    )
    .await;
    let players = enter(&srv, &id, &["Ann", "Bo"]).await;
    let e = play_to_the_end(&srv, &id, &players, BOARDS).await;
    assert_eq!(e["scoring"], "total", "{e}");

    let (status, text) = c.get_text(&format!("/api/events/{id}/records")).await.unwrap();
    assert_eq!(status, 200);
    let records: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(records.len(), 3 * BOARDS, "one record per table and board");
    // Each seat's score on a board: the sum of its payoffs over the board's hands.
    let board_scores = |r: &Value| -> [f64; 4] {
        let mut s = [0.0; 4];
        for h in r["hands"].as_array().unwrap() {
            for (i, p) in h["result"]["payoffs"].as_array().unwrap().iter().enumerate() {
                s[i] += p.as_f64().unwrap();
            }
        }
        s
    };
    let mut sums = [[0.0f64; 4]; 3];
    for r in &records {
        let g = r["event"]["table"].as_u64().unwrap() as usize;
        let k = r["event"]["board"].as_u64().unwrap();
        let scores = board_scores(r);
        for s in 0..4 {
            sums[g][s] += scores[s];
        }
        // The traveller's line says the same.
        let traveller = e["travellers"].as_array().unwrap().iter().find(|t| t["board"] == k).unwrap();
        let line = traveller["lines"].as_array().unwrap().iter().find(|l| l["table"] == g as u64).unwrap();
        let got: Vec<f64> = line["scores"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        assert_eq!(got, scores, "board {k}, table {g}");
    }
    // The sums are not all alike (else any scoring would pass what follows).
    let all: Vec<f64> = sums.iter().flatten().copied().collect();
    assert!(all.iter().any(|v| *v != all[0]), "{all:?}");

    let standings = e["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 12, "every seat of every table: {e}");
    let mut prev: Option<(f64, u64, u64, u64)> = None;
    for (i, st) in standings.iter().enumerate() {
        let (g, s) = (st["table"].as_u64().unwrap(), st["seat"].as_u64().unwrap());
        let want = sums[g as usize][s as usize];
        let (score, total) = (st["score"].as_f64().unwrap(), st["total"].as_f64().unwrap());
        assert!((score - want).abs() < 1e-9, "table {g} seat {s}: score {score}, the sum {want}");
        assert!((total - want).abs() < 1e-9, "table {g} seat {s}: total {total}, the sum {want}");
        assert_eq!(st["boards"], BOARDS, "{st}");
        let rank = st["rank"].as_u64().unwrap();
        // Best first, ties by table then seat, sharing their rank.
        match prev {
            None => assert_eq!(rank, 1),
            Some((p, pg, ps, prank)) => {
                assert!(p > score || (p == score && (pg, ps) < (g, s)), "the order at {i}: {e}");
                assert_eq!(rank, if p == score { prank } else { i as u64 + 1 }, "the rank at {i}: {st}");
            }
        }
        prev = Some((score, g, s, rank));
    }
    let par = standings.iter().filter(|s| s["par"] == true).count();
    assert_eq!(par, 4, "the par's four seats stand too");
}
