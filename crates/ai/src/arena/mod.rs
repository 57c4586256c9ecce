//! The duplicate arena: a candidate bot (side A) against a baseline (side B) on the same deals,
//! so that the luck of the cards cancels out of the comparison.
//!
//! A game's [`Scheme`] says how one deal is played several times (its *runs*, each a seating of
//! the two sides) and how the runs' scores turn into *observations*: the candidate's score minus
//! the baseline's on the same deal, overall and per role, for one or more measures.
//! - Madiao ([`madiao`]): seat substitution — each deal is played once with four baseline bots,
//!   and once for each seat with the candidate in that seat among baseline bots.
//! - Da Bai Fen ([`dabaifen`]): the same deal with the candidate team as declarers, as defenders,
//!   and an all-baseline run that splits the comparison by role.
//!
//! [`run`] plays deals in parallel and hands them back strictly in deal order, so every figure
//! (sums, intervals, the running series of the chart) is identical for any number of threads.
//!
//! # Seeds
//! Deal `i` of seed `S` is fixed by the scheme from `(S, i)` alone. The player in seat `s` of any
//! run of deal `i` is seeded with [`seat_seed`]`(S, i, s, side)`: a baseline bot in seat 2 gets the
//! same seed in every run of the deal, so it plays the same way wherever what it sees is the same
//! (common random numbers: less noise in the differences), and the runs are reproducible.

pub mod chart;
pub mod dabaifen;
pub mod madiao;
pub mod stats;

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use cards::Seat;
use serde::Serialize;

use crate::ext::{ExtLimits, Fallbacks, Pool, SharedPool};
use crate::players::{DecisionTimes, IllegalChoice, Player, PlayerError, TimeSummary, play_hand};
use crate::{Budget, Registry};
use stats::{Accumulator, Interval, Summary};

/// Which side plays a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Side {
    /// The candidate (`--a`).
    A,
    /// The baseline (`--b`).
    B,
}

impl Side {
    /// `'A'` or `'B'`.
    pub fn letter(self) -> char {
        match self {
            Side::A => 'A',
            Side::B => 'B',
        }
    }
}

/// One observation series: a measure (`"payoff"`, `"game_points"`, …) for a role (`"overall"`,
/// `"banker"`, …).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Key {
    /// What is compared.
    pub measure: &'static str,
    /// For which role.
    pub role: &'static str,
    /// The unit, for reports (`"stakes"`, `"ranks"`, `"card points"`).
    pub unit: &'static str,
}

/// One run of a deal: who sits where, labelled for reports and records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seating {
    /// A short label: `"baseline"`, `"A in seat 2"`, `"A declares"`.
    pub label: String,
    /// The side in each seat.
    pub sides: [Side; 4],
}

/// One run as played: the hands (more than one when the rules deal again, e.g. a Madiao
/// long-suit redeal) and each seat's score.
#[derive(Clone)]
pub struct Run<G: Registry> {
    /// Who sat where.
    pub seating: Seating,
    /// The finished hands, in order.
    pub states: Vec<G::State>,
    /// Each seat's score in the scheme's primary measure.
    pub scores: [f64; 4],
}

/// A game's duplicate scheme.
pub trait Scheme: Registry {
    /// The rules the deals are played under.
    type Rules: Clone + Debug + Send + Sync + 'static;
    /// What fixes a deal before anyone acts (deck(s), banker or starter, ranks).
    type Deal: Clone + Debug + Send + Sync + Serialize + 'static;

    /// A one-line description of the scheme, for reports.
    const DESCRIPTION: &'static str;

    /// The observation series, primary measure first, its `"overall"` role first.
    fn keys() -> &'static [Key];

    /// Deal `index` of `seed`.
    fn deal(rules: &Self::Rules, seed: u64, index: u64) -> Self::Deal;

    /// The runs of a deal.
    fn seatings(deal: &Self::Deal) -> Vec<Seating>;

    /// The state of hand `hand` (from 0) of a run of `deal`.
    fn start(deal: &Self::Deal, hand: u32) -> Self::State;

    /// True when a finished hand is followed by another in the same run (`hands` played so far).
    fn another_hand(deal: &Self::Deal, last: &Self::State, hands: u32) -> bool;

    /// Each seat's score in the primary measure for the finished hands of a run.
    fn scores(deal: &Self::Deal, states: &[Self::State]) -> [f64; 4];

    /// The observations of a deal from its runs (in [`Scheme::seatings`] order), aligned with
    /// [`Scheme::keys`]; `None` where a series has no observation for this deal.
    fn observe(deal: &Self::Deal, runs: &[Run<Self>]) -> Vec<Option<f64>>;

    /// A short description of how a run ended, for the per-deal output (`"played"`, `"redeal,
    /// played"`).
    fn outcome_text(states: &[Self::State]) -> String;

    /// The `yezi/1` record of a run, with `players` as its informational player names.
    fn record(rules: &Self::Rules, seed: u64, run: &Run<Self>, players: [String; 4]) -> serde_json::Value;
}

/// The seed of the player in `seat` for every run of deal `deal` of `seed` on `side` (see the
/// module documentation): SplitMix64 over the four values.
pub fn seat_seed(seed: u64, deal: u64, seat: Seat, side: Side) -> u64 {
    let mut h = splitmix(seed ^ 0x6172_656e_6100_0000);
    h = splitmix(h ^ deal);
    h = splitmix(h ^ seat.index() as u64);
    splitmix(h ^ side as u64)
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What an arena run is asked to do.
#[derive(Clone, Debug)]
pub struct Config<R> {
    /// The candidate's name (side A).
    pub a: String,
    /// The baseline's name (side B).
    pub b: String,
    /// How many deals.
    pub hands: u64,
    /// The seed of the deals and the players.
    pub seed: u64,
    /// Thinking per decision, for both sides.
    pub budget: Budget,
    /// Worker threads (1 or more); the results do not depend on it.
    pub threads: usize,
    /// The rules.
    pub rules: R,
    /// The time limits of external bots (`ext:COMMAND`).
    pub limits: ExtLimits,
}

/// One deal, played and observed.
#[derive(Clone)]
pub struct DealResult<G: Registry + Scheme> {
    /// The deal's index.
    pub index: u64,
    /// The deal.
    pub deal: G::Deal,
    /// Its runs.
    pub runs: Vec<Run<G>>,
    /// Its observations, aligned with [`Scheme::keys`].
    pub observations: Vec<Option<f64>>,
    /// Decision times of side A's players.
    pub times_a: DecisionTimes,
    /// Decision times of side B's players.
    pub times_b: DecisionTimes,
    /// Side A's fallback counts, summed over its players (external bots only).
    pub fallbacks_a: Option<Fallbacks>,
    /// Side B's fallback counts.
    pub fallbacks_b: Option<Fallbacks>,
}

/// A run's summary in the per-deal output.
#[derive(Clone, Debug, Serialize)]
pub struct RunLine {
    /// The seating's label.
    pub label: String,
    /// The side in each seat, e.g. `"ABBB"`.
    pub sides: String,
    /// How it ended.
    pub outcome: String,
    /// Each seat's score.
    pub scores: [f64; 4],
}

/// A deal in the per-deal output (`yezi arena --deals`).
#[derive(Clone, Debug, Serialize)]
pub struct DealLine<D> {
    /// The deal's index.
    pub deal: u64,
    /// The deal's setup.
    pub setup: D,
    /// Each run.
    pub runs: Vec<RunLine>,
    /// Each observation by `measure/role`; absent where the deal has none.
    pub observations: BTreeMap<String, f64>,
}

impl<G: Registry + Scheme> DealResult<G> {
    /// The deal as one line of the per-deal output.
    pub fn line(&self) -> DealLine<G::Deal> {
        let runs = self
            .runs
            .iter()
            .map(|r| RunLine {
                label: r.seating.label.clone(),
                sides: r.seating.sides.iter().map(|s| s.letter()).collect(),
                outcome: G::outcome_text(&r.states),
                scores: r.scores,
            })
            .collect();
        let observations = G::keys()
            .iter()
            .zip(&self.observations)
            .filter_map(|(k, o)| o.map(|x| (format!("{}/{}", k.measure, k.role), x)))
            .collect();
        DealLine { deal: self.index, setup: self.deal.clone(), runs, observations }
    }
}

/// Why an arena run stopped.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A name the registry does not know, or an external bot's command that cannot be read.
    #[error(transparent)]
    Player(#[from] PlayerError),
    /// A player broke the rules.
    #[error("deal {deal}, run {run:?}: {error}")]
    Illegal {
        /// The deal's number in the match.
        deal: u64,
        /// Which seating of the deal it was (e.g. `A declares`).
        run: String,
        /// The illegal choice and who made it.
        error: IllegalChoice,
    },
    /// The caller's per-deal callback failed (e.g. writing a file).
    #[error("{0}")]
    Callback(CallbackError),
    /// Zero threads.
    #[error("--threads must be at least 1")]
    NoThreads,
}

/// Why a caller's per-deal callback to [`run`] stopped the run: any error of the caller's (a
/// `String` or `&str` converts into it with `?` or `.into()`).
pub type CallbackError = Box<dyn std::error::Error + Send + Sync>;

/// Plays one deal: every run of the scheme, with fresh players seeded per seat (external bots'
/// processes are reused across the deal's runs, then asked to quit).
pub fn play_deal<G: Scheme>(cfg: &Config<G::Rules>, index: u64) -> Result<DealResult<G>, ArenaError> {
    play_deal_in::<G>(cfg, index, &Pool::shared(POOL_SIZE))
}

/// Idle external-bot processes an arena worker keeps: enough for every seat of both sides.
const POOL_SIZE: usize = 8;

/// [`play_deal`], with external bots taking their processes from `pool` and leaving them there:
/// each player still begins a new match with its own seat and seed (`hello`).
pub fn play_deal_in<G: Scheme>(
    cfg: &Config<G::Rules>,
    index: u64,
    pool: &SharedPool,
) -> Result<DealResult<G>, ArenaError> {
    play_deal_with(cfg, index, &mut |side, _seat, seed| {
        let name = if side == Side::A { &cfg.a } else { &cfg.b };
        Ok(Player::pooled(name, seed, cfg.budget, cfg.limits, pool)?)
    })
}

/// [`play_deal`] with the players made by `make(side, seat, seed)` instead of by name (a player
/// from outside the registry, e.g. a policy of the Python bindings, as a side).
pub fn play_deal_with<G: Scheme>(
    cfg: &Config<G::Rules>,
    index: u64,
    make: &mut dyn FnMut(Side, Seat, u64) -> Result<Player<G>, ArenaError>,
) -> Result<DealResult<G>, ArenaError> {
    let deal = G::deal(&cfg.rules, cfg.seed, index);
    let mut runs = Vec::new();
    let mut times_a = DecisionTimes::new();
    let mut times_b = DecisionTimes::new();
    let mut fallbacks_a: Option<Fallbacks> = None;
    let mut fallbacks_b: Option<Fallbacks> = None;
    for seating in G::seatings(&deal) {
        let mut players: Vec<Player<G>> = Vec::with_capacity(4);
        for seat in Seat::ALL {
            let side = seating.sides[seat.index()];
            players.push(make(side, seat, seat_seed(cfg.seed, index, seat, side))?);
        }
        let mut players: [Player<G>; 4] = match players.try_into() {
            Ok(p) => p,
            Err(_) => unreachable!("four players were made"),
        };
        let mut states = Vec::new();
        loop {
            let mut st = G::start(&deal, states.len() as u32);
            play_hand(&mut st, &mut players, |seat, d| {
                if seating.sides[seat.index()] == Side::A { times_a.push(d) } else { times_b.push(d) }
            })
            .map_err(|error| ArenaError::Illegal {
                deal: index,
                run: seating.label.clone(),
                error,
            })?;
            let again = G::another_hand(&deal, &st, states.len() as u32 + 1);
            states.push(st);
            if !again {
                break;
            }
        }
        for (seat, p) in players.iter().enumerate() {
            if let Some(f) = p.fallbacks() {
                let side = if seating.sides[seat] == Side::A { &mut fallbacks_a } else { &mut fallbacks_b };
                side.get_or_insert_with(Fallbacks::default).add(&f);
            }
        }
        // The players end here: an external bot's process goes back to the pool.
        drop(players);
        let scores = G::scores(&deal, &states);
        runs.push(Run { seating, states, scores });
    }
    let observations = G::observe(&deal, &runs);
    Ok(DealResult { index, deal, runs, observations, times_a, times_b, fallbacks_a, fallbacks_b })
}

/// A point of the running series: after `deals` deals, the mean so far and its interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct RunningPoint {
    /// Deals played so far.
    pub deals: u64,
    /// The mean difference so far and its 95% interval.
    pub diff: Interval,
}

/// The summary of one series.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeriesReport {
    /// Which series.
    pub key: Key,
    /// Its statistics.
    pub summary: Summary,
}

/// The result of an arena run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The game.
    pub game: &'static str,
    /// The scheme, in words.
    pub scheme: &'static str,
    /// The candidate.
    pub a: String,
    /// The baseline.
    pub b: String,
    /// Deals played.
    pub hands: u64,
    /// The seed.
    pub seed: u64,
    /// Thinking per decision, nominal milliseconds.
    pub think_ms: u32,
    /// Every series, in the scheme's order.
    pub series: Vec<SeriesReport>,
    /// The running mean of each series (for the chart), at most about 500 points each, the last
    /// deal included.
    pub running: Vec<Vec<RunningPoint>>,
    /// Side A's decision times (wall clock; not part of the reproducible results).
    pub times_a: Option<TimeSummary>,
    /// Side B's decision times.
    pub times_b: Option<TimeSummary>,
    /// Side A's fallback counts, when it is an external bot: decisions it failed (illegal or
    /// malformed answers, timeouts, crashes) and that were made for it.
    pub fallbacks_a: Option<Fallbacks>,
    /// Side B's fallback counts.
    pub fallbacks_b: Option<Fallbacks>,
}

/// Collects deals in deal order into a [`Report`].
pub struct Aggregator<G: Scheme> {
    acc: Vec<Accumulator>,
    running: Vec<Vec<RunningPoint>>,
    every: u64,
    deals: u64,
    times_a: DecisionTimes,
    times_b: DecisionTimes,
    fallbacks_a: Option<Fallbacks>,
    fallbacks_b: Option<Fallbacks>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Scheme> Aggregator<G> {
    /// An empty aggregate for a run of `hands` deals.
    pub fn new(hands: u64) -> Aggregator<G> {
        let n = G::keys().len();
        Aggregator {
            acc: vec![Accumulator::new(); n],
            running: vec![Vec::new(); n],
            every: hands.div_ceil(500).max(1),
            deals: 0,
            times_a: DecisionTimes::new(),
            times_b: DecisionTimes::new(),
            fallbacks_a: None,
            fallbacks_b: None,
            _game: std::marker::PhantomData,
        }
    }

    /// Adds the next deal (deals must come in order).
    pub fn push(&mut self, d: &DealResult<G>) {
        self.deals += 1;
        for (i, o) in d.observations.iter().enumerate() {
            if let (Some(x), Some(a)) = (o, self.acc.get_mut(i)) {
                a.push(*x);
            }
        }
        if self.deals.is_multiple_of(self.every) {
            self.sample();
        }
        self.times_a.extend(&d.times_a);
        self.times_b.extend(&d.times_b);
        for (sum, f) in [(&mut self.fallbacks_a, &d.fallbacks_a), (&mut self.fallbacks_b, &d.fallbacks_b)] {
            if let Some(f) = f {
                sum.get_or_insert_with(Fallbacks::default).add(f);
            }
        }
    }

    /// Side A's and side B's fallback counts so far.
    pub fn fallbacks(&self) -> (Option<Fallbacks>, Option<Fallbacks>) {
        (self.fallbacks_a, self.fallbacks_b)
    }

    fn sample(&mut self) {
        for (a, r) in self.acc.iter().zip(self.running.iter_mut()) {
            if a.n() >= 2 && r.last().is_none_or(|p| p.deals != self.deals) {
                r.push(RunningPoint { deals: self.deals, diff: a.interval() });
            }
        }
    }

    /// The summary of the current series (one per key).
    pub fn current(&self) -> Vec<Summary> {
        self.acc.iter().map(Accumulator::summary).collect()
    }

    /// The report.
    pub fn finish(mut self, cfg: &Config<G::Rules>) -> Report {
        self.sample();
        Report {
            game: G::KIND.name(),
            scheme: G::DESCRIPTION,
            a: cfg.a.clone(),
            b: cfg.b.clone(),
            hands: self.deals,
            seed: cfg.seed,
            think_ms: cfg.budget.think_ms,
            series: G::keys()
                .iter()
                .zip(&self.acc)
                .map(|(k, a)| SeriesReport { key: *k, summary: a.summary() })
                .collect(),
            running: self.running,
            times_a: self.times_a.summary(),
            times_b: self.times_b.summary(),
            fallbacks_a: self.fallbacks_a,
            fallbacks_b: self.fallbacks_b,
        }
    }
}

/// Plays `cfg.hands` deals on the calling thread with the players made by `make(side, seat,
/// seed)` (see [`play_deal_with`]) and returns the report; `cfg.threads` is not used.
pub fn run_with<G: Scheme>(
    cfg: &Config<G::Rules>,
    make: &mut dyn FnMut(Side, Seat, u64) -> Result<Player<G>, ArenaError>,
) -> Result<Report, ArenaError> {
    let mut agg = Aggregator::<G>::new(cfg.hands);
    for i in 0..cfg.hands {
        let d = play_deal_with::<G>(cfg, i, make)?;
        agg.push(&d);
    }
    Ok(agg.finish(cfg))
}

/// Plays `cfg.hands` deals on `cfg.threads` threads and returns the report. `on_deal` receives
/// every deal in deal order, on the calling thread, with the aggregate so far (for records,
/// progress and per-deal output); an error from it stops the run.
pub fn run<G: Scheme>(
    cfg: &Config<G::Rules>,
    mut on_deal: impl FnMut(&DealResult<G>, &Aggregator<G>) -> Result<(), CallbackError>,
) -> Result<Report, ArenaError> {
    if cfg.threads == 0 {
        return Err(ArenaError::NoThreads);
    }
    // Check both names before starting any thread.
    Player::<G>::new(&cfg.a, 0, cfg.budget)?;
    Player::<G>::new(&cfg.b, 0, cfg.budget)?;
    let mut agg = Aggregator::<G>::new(cfg.hands);
    if cfg.threads == 1 {
        let pool = Pool::shared(POOL_SIZE);
        for i in 0..cfg.hands {
            let d = play_deal_in::<G>(cfg, i, &pool)?;
            agg.push(&d);
            on_deal(&d, &agg).map_err(ArenaError::Callback)?;
        }
        return Ok(agg.finish(cfg));
    }
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let outcome = std::thread::scope(|scope| -> Result<(), ArenaError> {
        let (tx, rx) = mpsc::channel::<(u64, Result<DealResult<G>, ArenaError>)>();
        for _ in 0..cfg.threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let pool = Pool::shared(POOL_SIZE);
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.hands {
                        break;
                    }
                    if tx.send((i, play_deal_in::<G>(cfg, i, &pool))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, Result<DealResult<G>, ArenaError>> = BTreeMap::new();
        let mut want = 0u64;
        let result = (|| {
            for (i, r) in rx.iter() {
                pending.insert(i, r);
                while let Some(r) = pending.remove(&want) {
                    let d = r?;
                    agg.push(&d);
                    on_deal(&d, &agg).map_err(ArenaError::Callback)?;
                    want += 1;
                }
            }
            Ok(())
        })();
        stop.store(true, Ordering::Relaxed);
        result
    });
    outcome?;
    Ok(agg.finish(cfg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_seeds_differ_by_every_input() {
        let s = |seed, deal, seat: u8, side| seat_seed(seed, deal, Seat::new(seat).unwrap(), side);
        let base = s(1, 2, 3, Side::A);
        assert_eq!(base, s(1, 2, 3, Side::A));
        for other in [s(2, 2, 3, Side::A), s(1, 3, 3, Side::A), s(1, 2, 0, Side::A), s(1, 2, 3, Side::B)] {
            assert_ne!(base, other);
        }
    }

    #[test]
    fn run_with_players_by_name_is_run() {
        let cfg = Config {
            a: "heuristic".to_string(),
            b: "random".to_string(),
            hands: 6,
            seed: 9,
            budget: Budget { think_ms: 1 },
            threads: 1,
            rules: madiao::MadiaoRules::default(),
            limits: crate::ext::ExtLimits::default(),
        };
        let by_name = run::<crate::Madiao>(&cfg, |_, _| Ok(())).unwrap();
        let mut made = Vec::new();
        let with = run_with::<crate::Madiao>(&cfg, &mut |side, seat, seed| {
            made.push((side, seat));
            let name = if side == Side::A { "heuristic" } else { "random" };
            Ok(Player::new(name, seed, cfg.budget)?)
        })
        .unwrap();
        let means = |r: &Report| r.series.iter().map(|s| format!("{:?}", s.summary)).collect::<Vec<_>>();
        assert_eq!(means(&by_name), means(&with));
        assert!(made.iter().any(|(s, _)| *s == Side::A) && made.iter().any(|(s, _)| *s == Side::B));
        // A player the factory refuses stops the run with its error.
        let e = run_with::<crate::Madiao>(&cfg, &mut |_, _, _| Err(ArenaError::Callback("no player".into())));
        assert!(matches!(e, Err(ArenaError::Callback(m)) if m.to_string() == "no player"));
    }
}
