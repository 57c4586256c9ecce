//! Tournaments through the HTTP API with test clients playing at real tables
//! (`docs/tournaments.md`): a swiss of 16 over 3 rounds and an arena of 12 over a one-minute
//! window. Legal pairings (everyone once per round; no one at two unfinished tables at once), no
//! repeated table mates in the swiss, and standings equal to the points of the tables.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use client::{Client, GuestToken};
use common::{TestServer, fast, play_randomly};
use serde_json::{Value, json};

async fn info(c: &Client, id: &str) -> Value {
    let (s, v) = c.get(&format!("/api/tournaments/{id}")).await.unwrap();
    assert_eq!(s, 200, "{v}");
    v
}

/// Each player's points summed from the tournament's finished tables.
fn sums(v: &Value) -> HashMap<String, f64> {
    let mut out = HashMap::new();
    for t in v["tables"].as_array().unwrap() {
        let Some(points) = t["points"].as_array() else { continue };
        for (g, p) in t["guests"].as_array().unwrap().iter().zip(points) {
            *out.entry(g.as_str().unwrap().to_string()).or_insert(0.0) += p.as_f64().unwrap();
        }
    }
    out
}

fn check_standings(v: &Value) {
    let sums = sums(v);
    let st = v["standings"].as_array().unwrap();
    for (i, s) in st.iter().enumerate() {
        let g = s["guest"].as_str().unwrap();
        let p = s["points"].as_f64().unwrap();
        assert!(
            (p - sums.get(g).copied().unwrap_or(0.0)).abs() < 1e-9,
            "{g}: {p} points, the tables say {sums:?}"
        );
        assert_eq!(s["rank"].as_u64().unwrap(), i as u64 + 1);
        if i > 0 {
            assert!(st[i - 1]["points"].as_f64().unwrap() >= p, "sorted by points");
        }
    }
}

/// Plays `g`'s seat at `table` with random legal actions until its match is over.
async fn play(addr: String, g: GuestToken, table: String, seed: u64) {
    let c = Client::new(&addr);
    let mut s = c.connect_as(&g.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": table })).await.unwrap();
    let sync = s
        .until(Duration::from_secs(10), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(sync["type"], "sync", "{sync}");
    play_randomly(&mut s, seed, Duration::from_secs(120)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_swiss_of_16_test_clients_over_3_rounds() {
    let server = TestServer::start(fast()).await;
    let c = &server.client;
    let mut players = Vec::new();
    for i in 0..16 {
        players.push(server.guest(&format!("Swiss {i}")).await);
    }
    let host = &players[0];
    let (s, made) = c
        .post(
            "/api/tournaments",
            &json!({"kind": "swiss", "game": "madiao", "rounds": 3, "hands": 1}),
            Some(&host.token),
        )
        .await
        .unwrap();
    assert_eq!(s, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for p in &players {
        let (s, v) =
            c.post(&format!("/api/tournaments/{id}/join"), &json!({}), Some(&p.token)).await.unwrap();
        assert_eq!(s, 200, "{v}");
    }
    let (s, v) = c.post(&format!("/api/tournaments/{id}/join"), &json!({}), Some(&host.token)).await.unwrap();
    assert_eq!(s, 409, "joined twice: {v}");
    let (s, v) =
        c.post(&format!("/api/tournaments/{id}/start"), &json!({}), Some(&players[1].token)).await.unwrap();
    assert_eq!(s, 403, "only the host starts: {v}");
    let (s, v) =
        c.post(&format!("/api/tournaments/{id}/start"), &json!({}), Some(&host.token)).await.unwrap();
    assert_eq!(s, 200, "{v}");
    let mut met: HashSet<(String, String)> = HashSet::new();
    let by_id: HashMap<String, GuestToken> = players.iter().map(|p| (p.id.clone(), p.clone())).collect();
    for round in 1..=3u64 {
        // The round's four tables, made.
        let mut v = info(c, &id).await;
        let end = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let made = v["tables"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["round"] == round && t["table"].is_string())
                .count();
            if v["round"] == round && made == 4 {
                break;
            }
            assert!(tokio::time::Instant::now() < end, "round {round} was not paired: {v}");
            tokio::time::sleep(Duration::from_millis(50)).await;
            v = info(c, &id).await;
        }
        let tables: Vec<Value> =
            v["tables"].as_array().unwrap().iter().filter(|t| t["round"] == round).cloned().collect();
        let mut seated = HashSet::new();
        let mut games = Vec::new();
        for t in &tables {
            assert_eq!(t["bots"], 0, "16 players fill 4 tables");
            let guests: Vec<String> =
                t["guests"].as_array().unwrap().iter().map(|g| g.as_str().unwrap().to_string()).collect();
            assert_eq!(guests.len(), 4);
            for (i, a) in guests.iter().enumerate() {
                assert!(seated.insert(a.clone()), "round {round}: {a} seated twice");
                for b in &guests[i + 1..] {
                    let key = if a < b { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) };
                    assert!(met.insert(key), "round {round}: {a} and {b} met before");
                }
            }
            // The table's seats are the pairing's, seat by seat.
            let table = t["table"].as_str().unwrap().to_string();
            let (s, summary) = c.get(&format!("/api/tables/{table}")).await.unwrap();
            assert_eq!(s, 200);
            let seat_guests: Vec<&str> = summary["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["guest"].as_str().unwrap_or(""))
                .collect();
            assert_eq!(seat_guests, guests.iter().map(String::as_str).collect::<Vec<_>>());
            for (k, g) in guests.iter().enumerate() {
                let addr = c.addr().to_string();
                games.push(tokio::spawn(play(addr, by_id[g].clone(), table.clone(), round * 100 + k as u64)));
            }
        }
        assert_eq!(seated.len(), 16, "everyone seated in round {round}");
        for g in games {
            g.await.unwrap();
        }
        // The round scored: every table's points, the standings their sums.
        let end = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let v = info(c, &id).await;
            let over = v["tables"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["round"] == round && t["points"].is_array())
                .count();
            if over == 4 {
                check_standings(&v);
                for s in v["standings"].as_array().unwrap() {
                    assert_eq!(s["matches"], round, "{s}");
                }
                let total: f64 =
                    v["standings"].as_array().unwrap().iter().map(|s| s["points"].as_f64().unwrap()).sum();
                assert_eq!(total, 24.0 * round as f64, "6 points a table, 4 tables a round");
                break;
            }
            assert!(tokio::time::Instant::now() < end, "round {round} was not scored: {v}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let end = tokio::time::Instant::now() + Duration::from_secs(10);
    while info(c, &id).await["status"] != "finished" {
        assert!(tokio::time::Instant::now() < end, "the swiss did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_arena_of_12_test_clients_over_a_minute() {
    let server = TestServer::start(fast()).await;
    let c = &server.client;
    let mut players = Vec::new();
    for i in 0..12 {
        players.push(server.guest(&format!("Arena {i}")).await);
    }
    let (s, made) = c
        .post(
            "/api/tournaments",
            &json!({"kind": "arena", "game": "madiao", "minutes": 1, "wait_seconds": 5, "hands": 1}),
            Some(&players[0].token),
        )
        .await
        .unwrap();
    assert_eq!(s, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let ends = made["ends_ms"].as_i64().unwrap();
    for p in &players {
        let (s, v) =
            c.post(&format!("/api/tournaments/{id}/join"), &json!({}), Some(&p.token)).await.unwrap();
        assert_eq!(s, 200, "{v}");
    }
    // Each player: find his unfinished table, play it, again, until the window closes.
    let mut tasks = Vec::new();
    for (k, p) in players.iter().enumerate() {
        let (addr, p, id) = (c.addr().to_string(), p.clone(), id.clone());
        tasks.push(tokio::spawn(async move {
            let c = Client::new(&addr);
            let mut played: HashSet<String> = HashSet::new();
            let mut n = 0u64;
            loop {
                let v = info(&c, &id).await;
                if v["status"] == "finished" || v["now_ms"].as_i64().unwrap() > ends + 60_000 {
                    return played.len();
                }
                let mine: Vec<&Value> = v["tables"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|t| {
                        t["points"].is_null()
                            && t["guests"].as_array().unwrap().iter().any(|g| g == p.id.as_str())
                    })
                    .collect();
                assert!(mine.len() <= 1, "{} at two unfinished tables: {mine:?}", p.name);
                if let Some(table) = mine.first().and_then(|t| t["table"].as_str())
                    && played.insert(table.to_string())
                {
                    n += 1;
                    play(addr.clone(), p.clone(), table.to_string(), k as u64 * 1000 + n).await;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }));
    }
    let mut matches = 0;
    for t in tasks {
        matches += t.await.unwrap();
    }
    let v = info(c, &id).await;
    assert_eq!(v["status"], "finished", "{v}");
    let tables = v["tables"].as_array().unwrap();
    assert!(tables.len() >= 6, "a minute plays a few rounds of tables: {}", tables.len());
    assert_eq!(matches, tables.iter().map(|t| t["guests"].as_array().unwrap().len()).sum::<usize>());
    for t in tables {
        let people = t["guests"].as_array().unwrap().len();
        assert_eq!(people as u64 + t["bots"].as_u64().unwrap(), 4);
    }
    check_standings(&v);
    let total: f64 = v["standings"].as_array().unwrap().iter().map(|s| s["points"].as_f64().unwrap()).sum();
    let with_bots: f64 = tables
        .iter()
        .map(|t| t["points"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).sum::<f64>())
        .sum();
    assert!((total - with_bots).abs() < 1e-9);
}
