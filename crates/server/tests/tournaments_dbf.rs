//! Da Bai Fen tournaments through the HTTP API with test clients playing at real tables
//! (`docs/tournaments.md`): a swiss of 8 over 2 rounds and an arena of 6 over a one-minute window,
//! full Da Bai Fen matches (the game has no shorter match). Legal pairings (everyone once a round;
//! no one at two unfinished tables at once; four seats a table), the swiss's second round paired by
//! the standings after the first (eight cannot avoid repeats: the fewest, seat by seat), and each
//! table's points worked out here from its record (the partnership that won the game: 2.5 for
//! each of its seats, 0.5 for each of the others), the standings their sums.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use client::{Client, GuestToken};
use common::tournaments::{
    check_pairing, check_standings_from, info, met_before, order_before, play, points_from_records,
};
use common::{TestServer, fast};
use serde_json::{Value, json};

/// How long a test client's Da Bai Fen match may take (a whole game, from 2 to A).
const MATCH: Duration = Duration::from_secs(240);

/// The people of a tournament's table, in seat order.
fn guests(t: &Value) -> Vec<String> {
    t["guests"].as_array().unwrap().iter().map(|g| g.as_str().unwrap().to_string()).collect()
}

/// A finished Da Bai Fen table's people's points (seats 0, 1, …): one side 2.5 each, the other
/// 0.5 each, partners (seats 0 and 2, 1 and 3) alike.
fn check_partnership(points: &[f64]) {
    let all = points;
    for s in 0..2 {
        if s + 2 < points.len() {
            assert_eq!(all[s], all[s + 2], "partners tie: {points:?}");
        }
        if s < points.len() {
            assert!(all[s] == 2.5 || all[s] == 0.5, "{points:?}");
        }
    }
    if points.len() >= 2 {
        assert_eq!(all[0] + all[1], 3.0, "one side won: {points:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_da_bai_fen_swiss_of_8_over_2_rounds() {
    let server = TestServer::start(fast()).await;
    let c = &server.client;
    let mut players = Vec::new();
    for i in 0..8 {
        players.push(server.guest(&format!("Dbf swiss {i}")).await);
    }
    let host = &players[0];
    // A Da Bai Fen match is a whole game: no length to set.
    let (s, refused) = c
        .post(
            "/api/tournaments",
            &json!({"kind": "swiss", "game": "dabaifen", "rounds": 2, "hands": 1}),
            Some(&host.token),
        )
        .await
        .unwrap();
    assert_eq!(s, 400, "{refused}");
    let (s, made) = c
        .post(
            "/api/tournaments",
            &json!({"kind": "swiss", "game": "dabaifen", "rounds": 2}),
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
    let (s, v) =
        c.post(&format!("/api/tournaments/{id}/start"), &json!({}), Some(&host.token)).await.unwrap();
    assert_eq!(s, 200, "{v}");
    let by_id: HashMap<String, GuestToken> = players.iter().map(|p| (p.id.clone(), p.clone())).collect();
    let mut scored = HashMap::new();
    for round in 1..=2u64 {
        let mut v = info(c, &id).await;
        let end = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let made = v["tables"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["round"] == round && t["table"].is_string())
                .count();
            if v["round"] == round && made == 2 {
                break;
            }
            assert!(tokio::time::Instant::now() < end, "round {round} was not paired: {v}");
            tokio::time::sleep(Duration::from_millis(50)).await;
            v = info(c, &id).await;
        }
        let tables: Vec<Value> =
            v["tables"].as_array().unwrap().iter().filter(|t| t["round"] == round).cloned().collect();
        let people: Vec<Vec<String>> = tables.iter().map(guests).collect();
        // Round 1 by rating, then id; round 2 by the standings the records give, the fewest
        // repeats (eight cannot avoid them).
        let met = met_before(&v, round);
        check_pairing(&order_before(&v, round, &scored), &met, &people);
        let mut seated = HashSet::new();
        let mut games = Vec::new();
        for t in &tables {
            assert_eq!(t["bots"], 0, "8 players fill 2 tables");
            let table = t["table"].as_str().unwrap().to_string();
            let (s, summary) = c.get(&format!("/api/tables/{table}")).await.unwrap();
            assert_eq!(s, 200);
            assert_eq!(summary["game"], "dabaifen", "{summary}");
            let seat_guests: Vec<&str> = summary["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["guest"].as_str().unwrap_or(""))
                .collect();
            assert_eq!(seat_guests, guests(t), "the table's seats are the pairing's");
            for (k, g) in guests(t).iter().enumerate() {
                assert!(seated.insert(g.clone()), "round {round}: {g} seated twice");
                let addr = c.addr().to_string();
                games.push(tokio::spawn(play(
                    addr,
                    by_id[g].clone(),
                    table.clone(),
                    round * 10 + k as u64,
                    MATCH,
                )));
            }
        }
        assert_eq!(seated.len(), 8, "everyone seated in round {round}");
        if round == 2 {
            // The fallback repeats two pairs a table, no more.
            let repeats: usize = people
                .iter()
                .map(|t| {
                    let mut r = 0;
                    for (i, a) in t.iter().enumerate() {
                        for b in &t[i + 1..] {
                            let key = if a < b { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) };
                            r += usize::from(met.contains(&key));
                        }
                    }
                    r
                })
                .sum();
            assert_eq!(repeats, 4, "{people:?}");
        }
        for g in games {
            g.await.unwrap();
        }
        let end = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let v = info(c, &id).await;
            let over: Vec<&Value> = v["tables"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["round"] == round && t["points"].is_array())
                .collect();
            if over.len() == 2 {
                points_from_records(&server, &v, &mut scored).await;
                check_standings_from(&v, &scored);
                for t in &over {
                    let pts: Vec<f64> =
                        t["points"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
                    check_partnership(&pts);
                }
                for s in v["standings"].as_array().unwrap() {
                    assert_eq!(s["matches"], round, "{s}");
                }
                let total: f64 =
                    v["standings"].as_array().unwrap().iter().map(|s| s["points"].as_f64().unwrap()).sum();
                assert_eq!(total, 12.0 * round as f64, "6 points a table, 2 tables a round");
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
async fn a_da_bai_fen_arena_of_6_over_a_minute() {
    let server = TestServer::start(fast()).await;
    let c = &server.client;
    let mut players = Vec::new();
    for i in 0..6 {
        players.push(server.guest(&format!("Dbf arena {i}")).await);
    }
    let (s, made) = c
        .post(
            "/api/tournaments",
            &json!({"kind": "arena", "game": "dabaifen", "minutes": 1, "wait_seconds": 5}),
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
    // Each player: find his unfinished table, play it, again, until the arena is over.
    let mut tasks = Vec::new();
    for (k, p) in players.iter().enumerate() {
        let (addr, p, id) = (c.addr().to_string(), p.clone(), id.clone());
        tasks.push(tokio::spawn(async move {
            let c = Client::new(&addr);
            let mut played: HashSet<String> = HashSet::new();
            let mut n = 0u64;
            loop {
                let v = info(&c, &id).await;
                if v["status"] == "finished" {
                    return played.len();
                }
                assert!(v["now_ms"].as_i64().unwrap() < ends + 300_000, "the arena did not finish: {v}");
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
                    play(addr.clone(), p.clone(), table.to_string(), k as u64 * 1000 + n, MATCH).await;
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
    // Six players: four at a table at once, the two left with two bots after the wait.
    assert!(tables.len() >= 2, "{v}");
    assert!(tables.iter().any(|t| t["bots"] == 0), "four free people sit together: {v}");
    assert!(tables.iter().any(|t| t["bots"] == 2), "the two left get bots: {v}");
    assert_eq!(matches, tables.iter().map(|t| t["guests"].as_array().unwrap().len()).sum::<usize>());
    for t in tables {
        let people = t["guests"].as_array().unwrap().len();
        assert_eq!(people as u64 + t["bots"].as_u64().unwrap(), 4);
    }
    let scored = points_from_records(&server, &v, &mut HashMap::new()).await;
    assert_eq!(scored.len(), tables.len(), "every table scored from its record");
    for t in tables {
        let pts: Vec<f64> = t["points"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
        check_partnership(&pts);
    }
    check_standings_from(&v, &scored);
}
