//! An arena (`docs/tournaments.md`, "Arena"): a time window in which each player plays as many
//! matches as he likes. A player is free when he joins and whenever his match ends; the free
//! players are seated by [`super::quick::pair`] keyed by their place in the standings (so the
//! nearest in the standings sit together), four people at a table whenever four are free, and
//! bots only for the fewer than four left once one of them has waited `wait_ms`. No table is
//! made after the window closes; the matches begun before it play on and count. Standings are
//! live: points per match ([`super::match_points`]), summed.

use serde::{Deserialize, Serialize};

use super::quick::{self, Waiting};
use super::{Entrant, Pairing, Standing, TournamentError};

/// The most players an arena may have.
pub const MAX_PLAYERS: usize = 1000;

/// A player of the arena.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArenaPlayer {
    /// Who he is.
    pub entrant: Entrant,
    /// His points so far.
    pub points: f64,
    /// His finished matches.
    pub matches: u32,
    /// Since when he is free to be paired, milliseconds (`None` while he plays, or once he has
    /// left).
    pub free_since: Option<i64>,
    /// He has left: he is paired no more (his points stay).
    pub left: bool,
}

/// One table of the arena.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArenaTable {
    /// The table's id, once it is made.
    pub table: Option<String>,
    /// The people at it, in seat order, then its bots.
    pub pairing: Pairing,
    /// When it was paired, milliseconds.
    pub paired_ms: i64,
    /// Each person's points, once the match is over.
    pub points: Option<Vec<f64>>,
}

/// An arena's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arena {
    /// When pairing begins, milliseconds since the Unix epoch.
    pub starts_ms: i64,
    /// When it ends: no table is paired from then on.
    pub ends_ms: i64,
    /// How long the fewer than four free players wait before bots fill their table.
    pub wait_ms: i64,
    /// Its players, in the order they joined.
    pub players: Vec<ArenaPlayer>,
    /// Every table paired, in order.
    pub tables: Vec<ArenaTable>,
}

impl Arena {
    /// An arena open from `starts_ms` to `ends_ms`, no one in it yet.
    pub fn new(starts_ms: i64, ends_ms: i64, wait_ms: i64) -> Result<Arena, TournamentError> {
        if ends_ms <= starts_ms {
            return Err(TournamentError::Bad("an arena must end after it starts".into()));
        }
        if wait_ms < 0 {
            return Err(TournamentError::Bad("the wait for bots cannot be negative".into()));
        }
        Ok(Arena { starts_ms, ends_ms, wait_ms, players: Vec::new(), tables: Vec::new() })
    }

    /// Adds a player (or brings back one who left), free from `now_ms` (or from the start).
    pub fn join(&mut self, e: Entrant, now_ms: i64) -> Result<(), TournamentError> {
        if now_ms >= self.ends_ms {
            return Err(TournamentError::NotNow("the arena is over".into()));
        }
        let free = Some(now_ms.max(self.starts_ms));
        if let Some(p) = self.players.iter_mut().find(|p| p.entrant.id == e.id) {
            if !p.left {
                return Err(TournamentError::AlreadyIn(e.id));
            }
            p.left = false;
            if !self.tables.iter().any(|t| t.points.is_none() && t.pairing.players.contains(&e.id)) {
                p.free_since = free;
            }
            return Ok(());
        }
        if self.players.len() >= MAX_PLAYERS {
            return Err(TournamentError::Bad(format!("an arena has at most {MAX_PLAYERS} players")));
        }
        self.players.push(ArenaPlayer { entrant: e, points: 0.0, matches: 0, free_since: free, left: false });
        Ok(())
    }

    /// A player leaves: he is paired no more (a match he plays goes on and counts).
    pub fn leave(&mut self, id: &str) -> Result<(), TournamentError> {
        let p = self.player_mut(id)?;
        p.left = true;
        p.free_since = None;
        Ok(())
    }

    fn player_mut(&mut self, id: &str) -> Result<&mut ArenaPlayer, TournamentError> {
        self.players
            .iter_mut()
            .find(|p| p.entrant.id == id)
            .ok_or_else(|| TournamentError::UnknownPlayer(id.to_string()))
    }

    /// The free players, keyed by their place in the standings.
    pub fn waiting(&self) -> Vec<Waiting> {
        let rank: Vec<String> = self.standings().into_iter().map(|s| s.id).collect();
        self.players
            .iter()
            .filter_map(|p| {
                let since = p.free_since?;
                let place = rank.iter().position(|id| *id == p.entrant.id).unwrap_or(rank.len());
                Some(Waiting {
                    id: p.entrant.id.clone(),
                    key: place as f64,
                    since_ms: since,
                    bots_ms: since.saturating_add(self.wait_ms),
                })
            })
            .collect()
    }

    /// The tables to make at `now_ms` (none outside the window): see the module.
    pub fn pair(&self, now_ms: i64) -> Vec<Pairing> {
        if now_ms < self.starts_ms || now_ms >= self.ends_ms {
            return Vec::new();
        }
        quick::pair(&self.waiting(), now_ms)
    }

    /// Seats a pairing (from [`Arena::pair`]) at `now_ms`: its people are no longer free. Gives
    /// the table's index.
    pub fn seat(&mut self, pairing: Pairing, now_ms: i64) -> Result<usize, TournamentError> {
        for id in &pairing.players {
            let p = self
                .players
                .iter()
                .find(|p| p.entrant.id == *id)
                .ok_or_else(|| TournamentError::UnknownPlayer(id.clone()))?;
            if p.free_since.is_none() {
                return Err(TournamentError::NotNow(format!("{id:?} is not free")));
            }
        }
        for id in &pairing.players {
            self.player_mut(id)?.free_since = None;
        }
        self.tables.push(ArenaTable { table: None, pairing, paired_ms: now_ms, points: None });
        Ok(self.tables.len() - 1)
    }

    /// Names the table made for table `index`.
    pub fn set_table(&mut self, index: usize, table: &str) -> Result<(), TournamentError> {
        let t =
            self.tables.get_mut(index).ok_or_else(|| TournamentError::UnknownTable(format!("#{index}")))?;
        t.table = Some(table.to_string());
        Ok(())
    }

    /// A table's match ended at `now_ms` with these points (one per person, in seat order): the
    /// points count, and its people are free again (unless they left or the window is closed).
    pub fn record(&mut self, table: &str, points: Vec<f64>, now_ms: i64) -> Result<(), TournamentError> {
        let t = self
            .tables
            .iter_mut()
            .find(|t| t.table.as_deref() == Some(table))
            .ok_or_else(|| TournamentError::UnknownTable(table.to_string()))?;
        if t.points.is_some() {
            return Err(TournamentError::TableOver(table.to_string()));
        }
        if points.len() != t.pairing.players.len() {
            return Err(TournamentError::WrongResult {
                table: table.to_string(),
                seated: t.pairing.players.len(),
                given: points.len(),
            });
        }
        t.points = Some(points.clone());
        let people = t.pairing.players.clone();
        let open = now_ms < self.ends_ms;
        for (id, x) in people.iter().zip(points) {
            let p = self.player_mut(id)?;
            p.points += x;
            p.matches += 1;
            if !p.left && open {
                p.free_since = Some(now_ms);
            }
        }
        Ok(())
    }

    /// The window has closed and every match has ended.
    pub fn finished(&self, now_ms: i64) -> bool {
        now_ms >= self.ends_ms && self.tables.iter().all(|t| t.points.is_some())
    }

    /// The standings: points, then fewer matches (the same points in fewer matches), then
    /// rating, then id.
    pub fn standings(&self) -> Vec<Standing> {
        let mut lines: Vec<Standing> = self
            .players
            .iter()
            .map(|p| Standing {
                rank: 0,
                id: p.entrant.id.clone(),
                name: p.entrant.name.clone(),
                rating: p.entrant.rating,
                points: p.points,
                matches: p.matches,
                tiebreak: 0.0,
            })
            .collect();
        lines.sort_by(|a, b| {
            b.points
                .total_cmp(&a.points)
                .then(a.matches.cmp(&b.matches))
                .then(b.rating.total_cmp(&a.rating))
                .then(a.id.cmp(&b.id))
        });
        for (i, l) in lines.iter_mut().enumerate() {
            l.rank = i as u32 + 1;
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;
    use crate::tournaments::{SEATS, match_points};

    /// Running tables: (index, ends at).
    type Running = Vec<(usize, i64)>;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// An arena of 12 over a 10-minute window, on a simulated clock ticking by the second:
    /// matches last 40 to 160 s (seeded); a few players leave and one joins late.
    fn run(seed: u64) {
        let (start, end, wait) = (1_000_000, 1_000_000 + 600_000, 20_000);
        let mut a = Arena::new(start, end, wait).unwrap();
        for i in 0..12 {
            let e =
                Entrant { id: format!("p{i:02}"), name: format!("P{i}"), rating: 1400.0 + 20.0 * i as f64 };
            // p11 joins late (below).
            if i < 11 {
                a.join(e, start - 5_000).unwrap();
            }
        }
        let mut rng = Rng(seed);
        // Running tables: (index, ends at).
        let mut running: Running = Vec::new();
        let mut handed: HashMap<String, f64> = HashMap::new();
        let mut made = 0;
        let mut now = start - 10_000;
        while now < end + 200_000 {
            if now == start + 200_000 {
                a.join(Entrant { id: "p11".into(), name: "P11".into(), rating: 1500.0 }, now).unwrap();
            }
            if now == start + 300_000 {
                a.leave("p03").unwrap();
            }
            // Tables that end now.
            let (done, left): (Running, Running) = running.iter().partition(|(_, at)| *at <= now);
            running = left;
            for (i, _) in done {
                let t = a.tables[i].clone();
                let results: Vec<f64> = (0..SEATS).map(|_| (rng.next() % 5) as f64).collect();
                let pts = match_points(&results)[..t.pairing.players.len()].to_vec();
                for (p, x) in t.pairing.players.iter().zip(&pts) {
                    *handed.entry(p.clone()).or_default() += x;
                }
                a.record(t.table.as_deref().unwrap(), pts, now).unwrap();
            }
            let free_before: Vec<Waiting> = a.waiting();
            let pairings = a.pair(now);
            if now < start || now >= end {
                assert!(pairings.is_empty(), "no pairing outside the window");
            }
            let mut seated_now = HashSet::new();
            for p in pairings {
                assert_eq!(p.players.len() + p.bots, SEATS);
                if p.bots > 0 {
                    // Bots only when fewer than four were free, after the wait.
                    assert_eq!(p.players.len(), free_before.len() % SEATS, "bots only for the rest");
                    let oldest = p
                        .players
                        .iter()
                        .filter_map(|id| free_before.iter().find(|w| w.id == *id))
                        .map(|w| w.since_ms)
                        .min()
                        .unwrap();
                    assert!(now - oldest >= wait, "bots before the wait was over");
                }
                for id in &p.players {
                    assert!(seated_now.insert(id.clone()), "{id} paired twice at once");
                    // Not already at a running table.
                    assert!(
                        running.iter().all(|(i, _)| !a.tables[*i].pairing.players.contains(id)),
                        "{id} seated while he plays"
                    );
                    assert!(id != "p03" || now < start + 300_000, "a player who left is not paired");
                }
                let i = a.seat(p, now).unwrap();
                a.set_table(i, &format!("t{made}")).unwrap();
                made += 1;
                let length = 40_000 + (rng.next() % 120) as i64 * 1000;
                running.push((i, now + length));
            }
            now += 1000;
        }
        assert!(a.finished(now));
        assert!(made >= 12, "a 10-minute window plays several rounds of tables: {made}");
        assert!(a.tables.iter().all(|t| t.paired_ms >= start && t.paired_ms < end));
        let st = a.standings();
        assert_eq!(st.len(), 12);
        for l in &st {
            assert_eq!(l.points, handed.get(&l.id).copied().unwrap_or(0.0), "{}'s points", l.id);
        }
        for w in st.windows(2) {
            assert!(w[0].points >= w[1].points);
        }
    }

    #[test]
    fn an_arena_of_12_over_a_short_window() {
        for seed in [3, 11, 0xfeed] {
            run(seed);
        }
    }

    #[test]
    fn bad_changes_are_refused() {
        assert!(Arena::new(10, 10, 0).is_err());
        let mut a = Arena::new(0, 100, 10).unwrap();
        let e = Entrant { id: "x".into(), name: "X".into(), rating: 1500.0 };
        a.join(e.clone(), 0).unwrap();
        assert_eq!(a.join(e.clone(), 1), Err(TournamentError::AlreadyIn("x".into())));
        assert!(a.pair(5).is_empty(), "alone, no bots before the wait");
        let p = a.pair(10);
        assert_eq!(p, vec![Pairing { players: vec!["x".into()], bots: 3 }]);
        let i = a.seat(p[0].clone(), 10).unwrap();
        assert!(a.seat(p[0].clone(), 10).is_err(), "seated twice");
        a.set_table(i, "t").unwrap();
        assert!(a.record("t", vec![], 20).is_err());
        a.record("t", vec![2.0], 20).unwrap();
        assert!(a.record("t", vec![2.0], 20).is_err());
        assert!(a.join(Entrant { id: "y".into(), name: "Y".into(), rating: 1.0 }, 100).is_err());
        assert_eq!(a.standings()[0].points, 2.0);
    }
}
