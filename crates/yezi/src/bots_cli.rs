//! Bots at the table for `yezi sim --bots` and `yezi bench --bots`, for either game.

use std::fmt::Write as _;

use ai::arena::{Side, seat_seed};
use ai::players::{DecisionTimes, Player, parse_bots, play_hand};
use ai::{Budget, Registry};
use cards::Seat;

/// Four named bots, made afresh for every hand with seeds derived from the run's seed, the hand
/// number and the seat; with the decision times of each name.
pub struct BotTable<G: Registry> {
    names: [String; 4],
    budget: Budget,
    times: Vec<(String, DecisionTimes)>,
    /// External bots' processes, kept from one hand to the next.
    pool: ai::ext::SharedPool,
    /// External bots' fallback counts, by name.
    fallbacks: Vec<(String, ai::ext::Fallbacks)>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Registry> BotTable<G> {
    /// The table from a `--bots` value; every name is checked.
    pub fn new(spec: &str, think_ms: u32) -> anyhow::Result<BotTable<G>> {
        let names = parse_bots(spec)?;
        let budget = Budget { think_ms };
        for n in &names {
            Player::<G>::new(n, 0, budget)?;
        }
        let mut times: Vec<(String, DecisionTimes)> = Vec::new();
        for n in &names {
            if !times.iter().any(|(m, _)| m == n) {
                times.push((n.clone(), DecisionTimes::new()));
            }
        }
        Ok(BotTable {
            names,
            budget,
            times,
            pool: ai::ext::Pool::shared(4),
            fallbacks: Vec::new(),
            _game: std::marker::PhantomData,
        })
    }

    /// The bots' names in seat order.
    pub fn names(&self) -> &[String; 4] {
        &self.names
    }

    /// The names as one text: `"heuristic"` or `"pimc, random, pimc, random"`.
    pub fn describe(&self) -> String {
        if self.names.iter().all(|n| *n == self.names[0]) {
            self.names[0].clone()
        } else {
            self.names.join(", ")
        }
    }

    /// Plays `state` to its end; hand `hand` of a run seeded `seed`.
    pub fn play(&mut self, state: &mut G::State, seed: u64, hand: u64) -> anyhow::Result<()> {
        let mut players: [Player<G>; 4] = {
            let mut v = Vec::with_capacity(4);
            for s in Seat::ALL {
                v.push(Player::<G>::pooled(
                    &self.names[s.index()],
                    seat_seed(seed, hand, s, Side::A),
                    self.budget,
                    ai::ext::ExtLimits::default(),
                    &self.pool,
                )?);
            }
            match v.try_into() {
                Ok(p) => p,
                Err(_) => unreachable!("four players"),
            }
        };
        let names = &self.names;
        let times = &mut self.times;
        let played = play_hand(state, &mut players, |seat, d| {
            if let Some((_, t)) = times.iter_mut().find(|(n, _)| *n == names[seat.index()]) {
                t.push(d);
            }
        });
        for (s, p) in players.iter().enumerate() {
            if let Some(f) = p.fallbacks() {
                match self.fallbacks.iter_mut().find(|(n, _)| *n == names[s]) {
                    Some((_, sum)) => sum.add(&f),
                    None => self.fallbacks.push((names[s].clone(), f)),
                }
            }
        }
        played.map_err(|e| anyhow::anyhow!("hand {hand}: {e}"))
    }

    /// The decision times of each bot, one line each.
    pub fn times_text(&self) -> String {
        let mut s = String::new();
        for (name, t) in &self.times {
            match t.summary() {
                Some(t) => {
                    let _ = writeln!(
                        s,
                        "  {name}: {} decisions; mean {:.3} ms, median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
                        t.decisions, t.mean_ms, t.median_ms, t.p90_ms, t.p99_ms, t.max_ms
                    );
                }
                None => {
                    let _ = writeln!(s, "  {name}: no decisions");
                }
            }
        }
        for (name, f) in &self.fallbacks {
            let _ = writeln!(
                s,
                "  {name}: {} of {} decisions fell back to the first legal action ({})",
                f.total(),
                f.decisions,
                f.causes()
            );
        }
        s
    }
}
