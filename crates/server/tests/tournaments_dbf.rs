//! Da Bai Fen tournaments through the HTTP API with test clients playing at real tables
//! (`docs/tournaments.md`): a swiss of 8 over 2 rounds and an arena of 6 over a one-minute window,
//! full Da Bai Fen matches (the game has no shorter match). Legal pairings (everyone once a round;
//! no one at two unfinished tables at once; four seats a table), the swiss's second round paired by
//! the standings after the first (eight cannot avoid repeats: the fewest, seat by seat), and each
//! table's points worked out here from its record (the partnership that won the game: 2.5 for
//! each of its seats, 0.5 for each of the others), the standings their sums.

use crate::common;

use std::collections::HashMap;
use std::time::Duration;

use client::GuestToken;
use common::tournaments::{
    check_pairing, check_standings_from, entered, guests, met_before, new_guests, order_before, play_arena,
    points_from_records, seat_and_play, until_finished, until_round_paired, until_round_scored,
};
use common::{TestServer, fast};
use serde_json::json;

/// How long a test client's Da Bai Fen match may take (a whole game, from 2 to A).
const MATCH: Duration = Duration::from_secs(240);

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
    let players = new_guests(&server, "Dbf swiss", 8).await;
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
    let made = entered(c, &json!({"kind": "swiss", "game": "dabaifen", "rounds": 2}), &players).await;
    let id = made["id"].as_str().unwrap().to_string();
    let (s, v) =
        c.post(&format!("/api/tournaments/{id}/start"), &json!({}), Some(&host.token)).await.unwrap();
    assert_eq!(s, 200, "{v}");
    let by_id: HashMap<String, GuestToken> = players.iter().map(|p| (p.id.clone(), p.clone())).collect();
    let mut scored = HashMap::new();
    for round in 1..=2u64 {
        let (v, tables) = until_round_paired(c, &id, round, 2).await;
        let people: Vec<Vec<String>> = tables.iter().map(guests).collect();
        // Round 1 by rating, then id; round 2 by the standings the records give, the fewest
        // repeats (eight cannot avoid them).
        let met = met_before(&v, round);
        check_pairing(&order_before(&v, round, &scored), &met, &people);
        let games = seat_and_play(c, round, &tables, "dabaifen", &by_id, round * 10, MATCH).await;
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
        let v = until_round_scored(&server, &id, round, 2, &mut scored).await;
        for t in v["tables"].as_array().unwrap().iter().filter(|t| t["round"] == round) {
            let pts: Vec<f64> = t["points"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
            check_partnership(&pts);
        }
    }
    until_finished(c, &id).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_da_bai_fen_arena_of_6_over_a_minute() {
    let server = TestServer::start(fast()).await;
    let c = &server.client;
    let players = new_guests(&server, "Dbf arena", 6).await;
    let made =
        entered(c, &json!({"kind": "arena", "game": "dabaifen", "minutes": 1, "wait_seconds": 5}), &players)
            .await;
    let id = made["id"].as_str().unwrap().to_string();
    let ends = made["ends_ms"].as_i64().unwrap();
    // Each player: find his unfinished table, play it, again, until the arena is over.
    let v = play_arena(c, &id, &players, ends, 300_000, MATCH).await;
    let tables = v["tables"].as_array().unwrap();
    // Six players: four at a table at once, the two left with two bots after the wait.
    assert!(tables.len() >= 2, "{v}");
    assert!(tables.iter().any(|t| t["bots"] == 0), "four free people sit together: {v}");
    assert!(tables.iter().any(|t| t["bots"] == 2), "the two left get bots: {v}");
    let scored = points_from_records(&server, &v, &mut HashMap::new()).await;
    assert_eq!(scored.len(), tables.len(), "every table scored from its record");
    for t in tables {
        let pts: Vec<f64> = t["points"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
        check_partnership(&pts);
    }
    check_standings_from(&v, &scored);
}
