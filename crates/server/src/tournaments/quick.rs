//! Quick pairing ("play now", `docs/tournaments.md`, "Quick pairing"): people wait in one
//! queue per game; [`pair`] seats them. The arena pairs its free players the same way, by
//! their place in the standings instead of their rating.
//!
//! The rule: while four or more wait, the four whose keys (ratings) lie closest together (the
//! narrowest run of four in key order; of equal runs, the one whose earliest arrival waited
//! longest) sit at a table of people. The fewer than four left wait on, until the time one of
//! them accepts bots (`bots_ms`: when he began to wait and his wait, chosen by him in quick
//! pairing, the arena's in an arena) has come: then they all sit at one table, bots in the
//! other seats. So a bot never takes a seat a person could have had, and no one waits past his
//! time.

use super::{Pairing, SEATS};

/// A person in the queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    /// His guest id.
    pub id: String,
    /// What he is paired by: his rating (quick pairing) or his place in the standings (arena).
    pub key: f64,
    /// When he began to wait, milliseconds.
    pub since_ms: i64,
    /// From when he accepts bots, milliseconds.
    pub bots_ms: i64,
}

/// The tables to make from the queue at `now_ms` (see the module); the people not in them wait
/// on. No one is in two tables; a table has bots only if someone at it accepts them by now.
pub fn pair(waiting: &[Waiting], now_ms: i64) -> Vec<Pairing> {
    let mut order: Vec<&Waiting> = waiting.iter().collect();
    // Ids are unique in a queue; a repeated one is seated once.
    order.sort_by(|a, b| a.id.cmp(&b.id).then(a.since_ms.cmp(&b.since_ms)));
    order.dedup_by(|a, b| a.id == b.id);
    order.sort_by(|a, b| a.key.total_cmp(&b.key).then(a.since_ms.cmp(&b.since_ms)).then(a.id.cmp(&b.id)));
    let mut out = Vec::new();
    while order.len() >= SEATS {
        let mut best = 0;
        let mut best_cost = (f64::INFINITY, i64::MAX);
        for start in 0..=order.len() - SEATS {
            let run = &order[start..start + SEATS];
            let spread = run[SEATS - 1].key - run[0].key;
            let earliest = run.iter().map(|w| w.since_ms).min().unwrap_or(i64::MAX);
            if spread < best_cost.0 || (spread == best_cost.0 && earliest < best_cost.1) {
                best = start;
                best_cost = (spread, earliest);
            }
        }
        let table: Vec<&Waiting> = order.drain(best..best + SEATS).collect();
        out.push(seated(table, 0));
    }
    if !order.is_empty() && order.iter().any(|w| now_ms >= w.bots_ms) {
        let bots = SEATS - order.len();
        out.push(seated(order, bots));
    }
    out
}

/// The table of these people, seated by arrival (the longest waiting in seat 0).
fn seated(mut people: Vec<&Waiting>, bots: usize) -> Pairing {
    people.sort_by(|a, b| a.since_ms.cmp(&b.since_ms).then(a.id.cmp(&b.id)));
    Pairing { players: people.iter().map(|w| w.id.clone()).collect(), bots }
}

/// When the people who wait in `waiting` get bots if no one else comes: the earliest time one
/// of them accepts bots (`None` if no one waits).
pub fn bots_at(waiting: &[Waiting]) -> Option<i64> {
    waiting.iter().map(|w| w.bots_ms).min()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// A person who accepts bots after 30 s.
    fn w(id: &str, key: f64, since_ms: i64) -> Waiting {
        Waiting { id: id.to_string(), key, since_ms, bots_ms: since_ms + 30_000 }
    }

    fn everyone_once(tables: &[Pairing]) -> bool {
        let mut seen = HashSet::new();
        tables.iter().flat_map(|t| &t.players).all(|p| seen.insert(p.clone()))
    }

    #[test]
    fn the_nearest_ratings_sit_together() {
        let q = vec![
            w("a", 1500.0, 0),
            w("b", 2100.0, 0),
            w("c", 1510.0, 0),
            w("d", 2000.0, 0),
            w("e", 1490.0, 0),
            w("f", 2050.0, 0),
            w("g", 1520.0, 0),
            w("h", 1990.0, 0),
        ];
        let tables = pair(&q, 0);
        assert_eq!(tables.len(), 2);
        let sets: Vec<HashSet<&str>> =
            tables.iter().map(|t| t.players.iter().map(String::as_str).collect()).collect();
        assert!(sets.contains(&["a", "c", "e", "g"].into_iter().collect()));
        assert!(sets.contains(&["b", "d", "f", "h"].into_iter().collect()));
        assert!(tables.iter().all(|t| t.bots == 0));
    }

    #[test]
    fn the_odd_one_out_waits_then_gets_bots() {
        // Five wait: the four nearest sit, the far one waits for his bots.
        let q = vec![
            w("a", 1500.0, 0),
            w("b", 1505.0, 1000),
            w("c", 1495.0, 2000),
            w("d", 1510.0, 3000),
            w("far", 2400.0, 0),
        ];
        let tables = pair(&q, 5000);
        assert_eq!(tables.len(), 1);
        assert!(!tables[0].players.contains(&"far".to_string()));
        assert_eq!(tables[0].players[0], "a", "the longest waiting sits in seat 0");
        let left = vec![w("far", 2400.0, 0)];
        assert!(pair(&left, 29_999).is_empty(), "no bots before the wait is over");
        let t = pair(&left, 30_000);
        assert_eq!(t, vec![Pairing { players: vec!["far".to_string()], bots: 3 }]);
        assert_eq!(bots_at(&left), Some(30_000));
    }

    #[test]
    fn bots_only_after_the_wait_and_everyone_left_sits_together() {
        let q = vec![w("a", 1500.0, 10_000), w("b", 1800.0, 0), w("c", 1200.0, 20_000)];
        assert!(pair(&q, 29_999).is_empty());
        let t = pair(&q, 30_000);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].players, vec!["b", "a", "c"]);
        assert_eq!(t[0].bots, 1);
    }

    #[test]
    fn no_one_is_seated_twice_in_a_long_queue() {
        // A seeded spread of ratings and arrivals; a repeated id counts once.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut q = Vec::new();
        for i in 0..103 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            q.push(w(&format!("p{}", i % 101), 1000.0 + (x % 1000) as f64, (x % 50_000) as i64));
        }
        let tables = pair(&q, 100_000);
        assert!(everyone_once(&tables));
        let seated: usize = tables.iter().map(|t| t.players.len()).sum();
        assert_eq!(seated, 101, "everyone had waited long enough: all seated");
        assert_eq!(tables.iter().filter(|t| t.bots > 0).count(), 1);
        assert!(tables.iter().all(|t| t.players.len() + t.bots == SEATS));
        // Early on, only full tables: no bots.
        let early = pair(&q, 0);
        assert!(early.iter().all(|t| t.bots == 0 && t.players.len() == SEATS));
        assert!(everyone_once(&early));
    }

    #[test]
    fn each_person_accepts_bots_at_his_own_time() {
        let mut q = vec![w("patient", 1500.0, 0), w("hasty", 1500.0, 10_000)];
        q[0].bots_ms = 120_000;
        q[1].bots_ms = 15_000;
        assert!(pair(&q, 14_999).is_empty());
        assert_eq!(bots_at(&q), Some(15_000));
        let t = pair(&q, 15_000);
        assert_eq!(t, vec![Pairing { players: vec!["patient".into(), "hasty".into()], bots: 2 }]);
    }

    #[test]
    fn an_empty_queue_seats_no_one() {
        assert!(pair(&[], 1_000_000).is_empty());
        assert_eq!(bots_at(&[]), None);
    }
}
