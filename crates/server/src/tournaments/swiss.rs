//! A swiss tournament (`docs/tournaments.md`, "Swiss"): a fixed number of rounds; before each,
//! the players in standings order (points, then the tie-break, then rating) are dealt into
//! tables, each headed by the best placed player not yet seated and filled with the next ones
//! who have not shared a table with anyone at it. When that cannot seat everyone, the tables
//! are filled greedily with the fewest repeated table mates. An incomplete table gets bots;
//! with `n` players there are `ceil(n / 4)` tables, their sizes as even as can be (13 players:
//! 4, 3, 3, 3), the larger first.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::{Entrant, Pairing, SEATS, Standing, TournamentError, pair_key};

/// The most rounds a swiss may have.
pub const MAX_ROUNDS: u32 = 20;

/// The most players a swiss may have.
pub const MAX_PLAYERS: usize = 512;

/// Search steps spent looking for a round without repeated table mates before the greedy
/// fallback.
const SEARCH_STEPS: u64 = 200_000;

/// One table of a round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SwissTable {
    /// The table's id, once it is made.
    pub table: Option<String>,
    /// The people at it, in seat order, then its bots.
    pub pairing: Pairing,
    /// Each person's points, once the match is over.
    pub points: Option<Vec<f64>>,
}

/// A swiss tournament's state: its players and the rounds paired so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Swiss {
    /// How many rounds it has.
    pub rounds: u32,
    /// Its players, in the order they joined.
    pub players: Vec<Entrant>,
    /// The rounds paired so far, each its tables.
    pub played: Vec<Vec<SwissTable>>,
}

impl Swiss {
    /// A swiss of `rounds` rounds, no one in it yet.
    pub fn new(rounds: u32) -> Result<Swiss, TournamentError> {
        if !(1..=MAX_ROUNDS).contains(&rounds) {
            return Err(TournamentError::Bad(format!("a swiss has 1 to {MAX_ROUNDS} rounds, not {rounds}")));
        }
        Ok(Swiss { rounds, players: Vec::new(), played: Vec::new() })
    }

    /// Adds a player, before the first round.
    pub fn join(&mut self, e: Entrant) -> Result<(), TournamentError> {
        if !self.played.is_empty() {
            return Err(TournamentError::NotNow("the swiss has begun: no one joins now".into()));
        }
        if self.players.iter().any(|p| p.id == e.id) {
            return Err(TournamentError::AlreadyIn(e.id));
        }
        if self.players.len() >= MAX_PLAYERS {
            return Err(TournamentError::Bad(format!("a swiss has at most {MAX_PLAYERS} players")));
        }
        self.players.push(e);
        Ok(())
    }

    /// Every table of the last round has its result (true before the first).
    pub fn round_over(&self) -> bool {
        self.played.last().is_none_or(|r| r.iter().all(|t| t.points.is_some()))
    }

    /// Every round is played.
    pub fn finished(&self) -> bool {
        self.played.len() == self.rounds as usize && self.round_over()
    }

    /// Pairs the next round (see the module) and gives its tables.
    pub fn next_round(&mut self) -> Result<&[SwissTable], TournamentError> {
        if self.players.len() < 2 {
            return Err(TournamentError::NotNow("a swiss needs two players or more".into()));
        }
        if self.played.len() >= self.rounds as usize {
            return Err(TournamentError::NotNow("every round has been paired".into()));
        }
        if !self.round_over() {
            return Err(TournamentError::NotNow("the round is not over".into()));
        }
        let order: Vec<String> = self.standings().into_iter().map(|s| s.id).collect();
        let tables = pair_round(&order, &self.met())
            .into_iter()
            .map(|pairing| SwissTable { table: None, pairing, points: None })
            .collect();
        self.played.push(tables);
        Ok(self.played.last().map_or(&[][..], |r| r.as_slice()))
    }

    /// Names the table made for table `index` of the current round.
    pub fn set_table(&mut self, index: usize, table: &str) -> Result<(), TournamentError> {
        let t = self
            .played
            .last_mut()
            .and_then(|r| r.get_mut(index))
            .ok_or_else(|| TournamentError::UnknownTable(format!("#{index}")))?;
        t.table = Some(table.to_string());
        Ok(())
    }

    /// The result of a table of the current round: each person's points, in its seat order.
    pub fn record(&mut self, table: &str, points: Vec<f64>) -> Result<(), TournamentError> {
        let t = self
            .played
            .last_mut()
            .and_then(|r| r.iter_mut().find(|t| t.table.as_deref() == Some(table)))
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
        t.points = Some(points);
        Ok(())
    }

    /// The pairs of people who have shared a table.
    pub fn met(&self) -> HashSet<(String, String)> {
        let mut met = HashSet::new();
        for t in self.played.iter().flatten() {
            for (i, a) in t.pairing.players.iter().enumerate() {
                for b in &t.pairing.players[i + 1..] {
                    met.insert(pair_key(a, b));
                }
            }
        }
        met
    }

    /// The standings: points, then the tie-break (the points of the table mates), then rating,
    /// then id.
    pub fn standings(&self) -> Vec<Standing> {
        let mut lines: Vec<Standing> = self
            .players
            .iter()
            .map(|p| Standing {
                rank: 0,
                id: p.id.clone(),
                name: p.name.clone(),
                rating: p.rating,
                points: 0.0,
                matches: 0,
                tiebreak: 0.0,
            })
            .collect();
        let at = |id: &str| self.players.iter().position(|p| p.id == id);
        for t in self.played.iter().flatten() {
            let Some(points) = &t.points else { continue };
            for (p, pts) in t.pairing.players.iter().zip(points) {
                if let Some(i) = at(p) {
                    lines[i].points += pts;
                    lines[i].matches += 1;
                }
            }
        }
        let totals: Vec<f64> = lines.iter().map(|l| l.points).collect();
        for t in self.played.iter().flatten().filter(|t| t.points.is_some()) {
            for p in &t.pairing.players {
                let Some(i) = at(p) else { continue };
                for q in t.pairing.players.iter().filter(|q| *q != p) {
                    if let Some(j) = at(q) {
                        lines[i].tiebreak += totals[j];
                    }
                }
            }
        }
        lines.sort_by(|a, b| {
            b.points
                .total_cmp(&a.points)
                .then(b.tiebreak.total_cmp(&a.tiebreak))
                .then(b.rating.total_cmp(&a.rating))
                .then(a.id.cmp(&b.id))
        });
        for (i, l) in lines.iter_mut().enumerate() {
            l.rank = i as u32 + 1;
        }
        lines
    }
}

/// The sizes of the tables for `n` people: `ceil(n / 4)` tables, as even as can be, the larger
/// first.
pub fn table_sizes(n: usize) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let tables = n.div_ceil(SEATS);
    let (base, extra) = (n / tables, n % tables);
    (0..tables).map(|i| base + usize::from(i < extra)).collect()
}

/// One round's tables for the players in `order` (best placed first), given the pairs that
/// have met (see the module). Every player sits at exactly one table.
pub fn pair_round(order: &[String], met: &HashSet<(String, String)>) -> Vec<Pairing> {
    let sizes = table_sizes(order.len());
    let clash = |a: usize, b: usize| met.contains(&pair_key(&order[a], &order[b]));
    let mut used = vec![false; order.len()];
    let mut tables: Vec<Vec<usize>> = Vec::new();
    let mut steps = 0;
    let found = search(order.len(), &sizes, &clash, &mut used, &mut tables, &mut steps);
    if !found {
        tables = greedy(order.len(), &sizes, &clash);
    }
    tables
        .into_iter()
        .map(|t| Pairing {
            bots: SEATS - t.len(),
            players: t.into_iter().map(|i| order[i].clone()).collect(),
        })
        .collect()
}

/// A depth-first search for tables without repeated table mates: each table headed by the best
/// placed player left, its other seats taken in standings order. False when there is none (or
/// [`SEARCH_STEPS`] are spent).
fn search(
    n: usize,
    sizes: &[usize],
    clash: &dyn Fn(usize, usize) -> bool,
    used: &mut [bool],
    tables: &mut Vec<Vec<usize>>,
    steps: &mut u64,
) -> bool {
    *steps += 1;
    if *steps > SEARCH_STEPS {
        return false;
    }
    let full = tables.last().is_none_or(|t| t.len() == sizes[tables.len() - 1]);
    if full {
        if tables.len() == sizes.len() {
            return true;
        }
        let Some(head) = (0..n).find(|&i| !used[i]) else { return false };
        used[head] = true;
        tables.push(vec![head]);
        if search(n, sizes, clash, used, tables, steps) {
            return true;
        }
        tables.pop();
        used[head] = false;
        return false;
    }
    let last = tables.last().and_then(|t| t.last().copied()).unwrap_or(0);
    for c in last + 1..n {
        let fits = tables.last().is_some_and(|t| t.iter().all(|&m| !clash(m, c)));
        if used[c] || !fits {
            continue;
        }
        used[c] = true;
        if let Some(t) = tables.last_mut() {
            t.push(c);
        }
        if search(n, sizes, clash, used, tables, steps) {
            return true;
        }
        if let Some(t) = tables.last_mut() {
            t.pop();
        }
        used[c] = false;
        if *steps > SEARCH_STEPS {
            return false;
        }
    }
    false
}

/// Tables filled in turn, each seat taken by the player left with the fewest table mates met
/// before, the best placed of equals.
fn greedy(n: usize, sizes: &[usize], clash: &dyn Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut used = vec![false; n];
    let mut tables = Vec::new();
    for &size in sizes {
        let Some(head) = (0..n).find(|&i| !used[i]) else { break };
        used[head] = true;
        let mut t = vec![head];
        while t.len() < size {
            let best =
                (0..n).filter(|&c| !used[c]).min_by_key(|&c| (t.iter().filter(|&&m| clash(m, c)).count(), c));
            let Some(c) = best else { break };
            used[c] = true;
            t.push(c);
        }
        tables.push(t);
    }
    tables
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::tournaments::match_points;

    /// A seeded xorshift, for the simulated results.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn entrants(n: usize) -> Vec<Entrant> {
        (0..n)
            .map(|i| Entrant {
                id: format!("g{i:02}"),
                name: format!("Player {i}"),
                rating: 1200.0 + 37.0 * ((i * 7) % n) as f64,
            })
            .collect()
    }

    /// Plays the swiss to its end with seeded results; checks each round as it is paired and
    /// gives the points each player was handed, summed by the test itself.
    fn play(n: usize, rounds: u32, seed: u64) -> (Swiss, HashMap<String, f64>, usize) {
        let mut s = Swiss::new(rounds).unwrap();
        for e in entrants(n) {
            s.join(e).unwrap();
        }
        let mut rng = Rng(seed);
        let mut handed: HashMap<String, f64> = HashMap::new();
        let mut repeats = 0;
        for r in 0..rounds {
            let met_before = s.met();
            let order_before: Vec<String> = s.standings().into_iter().map(|l| l.id).collect();
            let tables = s.next_round().unwrap().to_vec();
            // Legal: everyone once, four seats a table, persons first.
            let mut seen = HashSet::new();
            for t in &tables {
                assert_eq!(t.pairing.players.len() + t.pairing.bots, SEATS);
                assert!(!t.pairing.players.is_empty());
                for p in &t.pairing.players {
                    assert!(seen.insert(p.clone()), "round {r}: {p} seated twice");
                }
                for (i, a) in t.pairing.players.iter().enumerate() {
                    for b in &t.pairing.players[i + 1..] {
                        repeats += usize::from(met_before.contains(&pair_key(a, b)));
                    }
                }
            }
            assert_eq!(seen.len(), n, "round {r}: everyone seated");
            // The leader heads the first table.
            assert_eq!(tables[0].pairing.players[0], order_before[0]);
            for (i, t) in tables.iter().enumerate() {
                let id = format!("t{r}-{i}");
                s.set_table(i, &id).unwrap();
                // Bots' results are drawn too; the people's points come from all four seats.
                let results: Vec<f64> = (0..SEATS).map(|_| (rng.next() % 7) as f64).collect();
                let pts = match_points(&results)[..t.pairing.players.len()].to_vec();
                for (p, x) in t.pairing.players.iter().zip(&pts) {
                    *handed.entry(p.clone()).or_default() += x;
                }
                assert!(!s.round_over() || i + 1 == tables.len());
                s.record(&id, pts).unwrap();
            }
            assert!(s.round_over());
        }
        assert!(s.finished());
        (s, handed, repeats)
    }

    #[test]
    fn a_swiss_of_16_over_3_rounds() {
        for seed in [1, 7, 0xdead_beef] {
            let (s, handed, repeats) = play(16, 3, seed);
            assert_eq!(repeats, 0, "seed {seed}: 16 players can play 3 rounds without meeting twice");
            assert!(s.played.iter().flatten().all(|t| t.pairing.bots == 0), "16 fill 4 tables: no bots");
            let st = s.standings();
            assert_eq!(st.len(), 16);
            for l in &st {
                assert_eq!(l.points, handed[&l.id], "{}'s points", l.id);
                assert_eq!(l.matches, 3);
            }
            // Sorted by points, then tie-break; ranks 1..=16.
            for w in st.windows(2) {
                assert!(
                    w[0].points > w[1].points
                        || (w[0].points == w[1].points && w[0].tiebreak >= w[1].tiebreak)
                );
                assert_eq!(w[1].rank, w[0].rank + 1);
            }
            let total: f64 = st.iter().map(|l| l.points).sum();
            assert_eq!(total, 3.0 * 4.0 * 6.0, "6 points a table, 4 tables, 3 rounds");
        }
    }

    #[test]
    fn incomplete_tables_get_bots_and_repeats_are_fewest_when_unavoidable() {
        assert_eq!(table_sizes(13), vec![4, 3, 3, 3]);
        assert_eq!(table_sizes(16), vec![4, 4, 4, 4]);
        assert_eq!(table_sizes(5), vec![3, 2]);
        assert_eq!(table_sizes(2), vec![2]);
        let (s, _, _) = play(13, 4, 3);
        for round in &s.played {
            let bots: usize = round.iter().map(|t| t.pairing.bots).sum();
            assert_eq!(bots, 3);
        }
        // 8 players: after round 1 (two tables of four) every table of round 2 must hold two
        // pairs who met; the fallback makes it no worse than that.
        let (_, _, repeats) = play(8, 2, 5);
        assert_eq!(repeats, 2 * 2, "two tables, each of two halves that met: 2 × (1 + 1) pairs");
    }

    #[test]
    fn bad_changes_are_refused() {
        assert!(Swiss::new(0).is_err());
        assert!(Swiss::new(MAX_ROUNDS + 1).is_err());
        let mut s = Swiss::new(2).unwrap();
        let e = entrants(4);
        s.join(e[0].clone()).unwrap();
        assert!(matches!(s.next_round(), Err(TournamentError::NotNow(_))));
        assert_eq!(s.join(e[0].clone()), Err(TournamentError::AlreadyIn(e[0].id.clone())));
        s.join(e[1].clone()).unwrap();
        s.next_round().unwrap();
        assert!(matches!(s.join(e[2].clone()), Err(TournamentError::NotNow(_))));
        assert!(matches!(s.next_round(), Err(TournamentError::NotNow(_))), "round not over");
        s.set_table(0, "t").unwrap();
        assert!(matches!(s.record("t", vec![1.0]), Err(TournamentError::WrongResult { .. })));
        assert!(matches!(s.record("u", vec![1.0, 2.0]), Err(TournamentError::UnknownTable(_))));
        s.record("t", vec![1.0, 2.0]).unwrap();
        assert_eq!(s.record("t", vec![1.0, 2.0]), Err(TournamentError::TableOver("t".into())));
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Swiss>(&json).unwrap(), s, "the state is stored as JSON");
    }
}
