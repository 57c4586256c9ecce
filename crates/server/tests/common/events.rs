//! Playing a duplicate event through the API, as its people do (`docs/events.md`): the helpers
//! the Madiao and the Da Bai Fen event tests share.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use server::store::sqlite::SqliteStore;
use server::{App, Config};

use super::match_over;

/// A server with `config` on the database at `db` (the same file again after a restart), and
/// a client of it.
pub async fn serve(
    db: &std::path::Path,
    config: Config,
) -> (Arc<App>, client::Client, tokio::task::JoinHandle<()>) {
    let store = Arc::new(SqliteStore::open(db.to_str().unwrap()).unwrap());
    let app = App::start(store, config).await.unwrap();
    let (addr, task) = super::listen(&app).await;
    (app, client::Client::new(&addr), task)
}

/// How the people of an event's test play its boards.
#[derive(Clone, Copy)]
pub struct Boards {
    /// The longest a board's table, or a wait for the event, may take.
    pub limit: Duration,
    /// The error codes answered with a resync and play on (an action that crossed the stand-in
    /// bot's); any other error fails the test.
    pub resync_on: &'static [&'static str],
}

impl Boards {
    /// The players play boards `from..to` at once, each one after the other.
    pub async fn play_all(self, c: &client::Client, id: &str, players: &[String], from: usize, to: usize) {
        let plays: Vec<_> = players
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let (c, id, t) = (c.clone(), id.to_string(), t.clone());
                tokio::spawn(async move { self.play_event(&c, &id, &t, 100 * i as u64, from, to).await })
            })
            .collect();
        for p in plays {
            p.await.unwrap();
        }
    }

    /// Plays the seat of `token` at boards `from..to` of event `id`, one after the other.
    async fn play_event(self, c: &client::Client, id: &str, token: &str, seed: u64, from: usize, to: usize) {
        for board in from..to {
            let table = self
                .wait_for(c, id, token, |e| {
                    let you = &e["you"];
                    (you["board"].as_u64() == Some(board as u64))
                        .then(|| you["table_id"].as_str().map(String::from))?
                })
                .await;
            let mut s = c.connect_as(token).await.unwrap();
            s.send(&json!({ "type": "join", "table": table })).await.unwrap();
            self.play_board(&mut s, seed + board as u64).await;
            s.close().await;
        }
    }

    /// Plays a seat with random legal actions until the board's table is over. A board's table
    /// begins before its people join, and a bot stands in for a person until he does: an action
    /// that crosses the bot's is dropped, and the state asked for again.
    async fn play_board(self, s: &mut client::Socket, seed: u64) {
        let mut rng = cards::Rng::from_seed(seed);
        s.send(&json!({ "type": "resync" })).await.unwrap();
        let mut synced = false;
        let end = tokio::time::Instant::now() + self.limit;
        loop {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            let m = s
                .recv_timeout(left)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("the board's table did not end in {:?}", self.limit));
            if m["code"].as_str().is_some_and(|c| self.resync_on.contains(&c)) {
                s.send(&json!({ "type": "resync" })).await.unwrap();
                continue;
            }
            assert_ne!(m["type"], "error", "an error during play: {m}");
            synced |= m["type"] == "sync";
            let decide = synced && matches!(m["type"].as_str(), Some("update" | "sync"));
            if decide && let Some(a) = client::random_action(&m["legal"], &mut rng) {
                s.send(&json!({ "type": "act", "action": a, "move": m["move"] })).await.unwrap();
            }
            if match_over(&m) {
                return;
            }
        }
    }

    /// Asks for the event every 20 ms until `pick` finds what it wants in it (at most the
    /// limit).
    pub async fn wait_for<T>(
        self,
        c: &client::Client,
        id: &str,
        token: &str,
        pick: impl Fn(&Value) -> Option<T>,
    ) -> T {
        let end = tokio::time::Instant::now() + self.limit;
        loop {
            let (status, e) = c.get_authed(token, &format!("/api/events/{id}")).await.unwrap();
            assert_eq!(status, 200, "{e}");
            if let Some(t) = pick(&e) {
                return t;
            }
            assert!(tokio::time::Instant::now() < end, "the event did not get there: {e}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Checks the finished event `e` (of four tables, `boards` boards) against its `records`, by
/// hand: each board's traveller lists the four tables, each line's scores are `scores` of the
/// table's record of that board, and each seat's percentage is its matchpoints (1 for every other
/// table's result it beat on the same seat, ½ for a tie, of 3); the standings are every seat of
/// every table, best first, each the average of its percentages over the boards. Returns the
/// standings.
pub fn check_matchpoints(
    e: &Value,
    records: &[Value],
    boards: usize,
    scores: impl Fn(&Value) -> Vec<f64>,
) -> Vec<Value> {
    let travellers = e["travellers"].as_array().unwrap();
    assert_eq!(travellers.len(), boards);
    let mut percent_sum = [[0.0f64; 4]; 4];
    for (k, t) in travellers.iter().enumerate() {
        assert_eq!(t["complete"], true);
        let lines = t["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 4);
        for line in lines {
            let g = line["table"].as_u64().unwrap();
            let rec = records.iter().find(|r| r["event"]["board"] == k && r["event"]["table"] == g).unwrap();
            let want = scores(rec);
            let got: Vec<f64> =
                line["scores"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            assert_eq!(got, want, "board {k}, table {g}");
            for s in 0..4 {
                let mine = want[s];
                let mp: f64 = lines
                    .iter()
                    .filter(|o| o["table"] != line["table"])
                    .map(|o| {
                        let other = o["scores"][s].as_f64().unwrap();
                        if mine > other {
                            1.0
                        } else if mine == other {
                            0.5
                        } else {
                            0.0
                        }
                    })
                    .sum();
                let pct = line["percent"][s].as_f64().unwrap();
                assert!((pct - mp / 3.0 * 100.0).abs() < 0.01, "board {k} table {g} seat {s}: {pct} vs {mp}");
                percent_sum[g as usize][s] += mp / 3.0 * 100.0;
            }
        }
    }
    let standings = e["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 16, "every seat of every table");
    let mut last = f64::INFINITY;
    for st in standings {
        let (g, s) = (st["table"].as_u64().unwrap() as usize, st["seat"].as_u64().unwrap() as usize);
        let want = percent_sum[g][s] / boards as f64;
        let score = st["score"].as_f64().unwrap();
        assert!((score - want).abs() < 0.01, "table {g} seat {s}: {score} vs {want}");
        assert!(score <= last, "the standings are best first");
        last = score;
        assert_eq!(st["boards"], boards);
    }
    standings.clone()
}
