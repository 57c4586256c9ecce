//! The players of a hand — bots, or the arena's perfect-information `cheater` — and the loop
//! that plays a hand with them, checking every action and timing every decision.

use std::time::{Duration, Instant};

use cards::Seat;

use crate::ext::{self, CommandError, ExtBot, ExtLimits, Fallbacks, SharedPool};
use crate::{Bot, Budget, Oracle, Registry, UnknownBot};

/// The name under which the perfect-information oracle is seated (arena and benchmarks only).
pub const CHEATER: &str = "cheater";

/// One seat's player: a bot that sees its view, or the oracle that sees the state.
pub enum Player<G: Registry> {
    /// A bot: sees only its seat's view.
    Bot(Box<dyn Bot<G>>),
    /// The `cheater`: sees the whole state.
    Oracle(Box<dyn Oracle<G>>),
}

/// A player name that names nothing: an unknown bot, or an `ext:` command that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// Not a bot of the registry.
    #[error(transparent)]
    Unknown(#[from] UnknownBot),
    /// `ext:COMMAND` with a command that cannot be split into words.
    #[error("{name:?}: {error}")]
    Command {
        /// The name as given.
        name: String,
        /// What is wrong with its command.
        error: CommandError,
    },
}

impl<G: Registry> Player<G> {
    /// The player named `name`: a bot of the registry, `cheater` when the game has an oracle, or
    /// `ext:COMMAND`, an external bot with the default time limits.
    pub fn new(name: &str, seed: u64, budget: Budget) -> Result<Player<G>, PlayerError> {
        Player::with_limits(name, seed, budget, ExtLimits::default())
    }

    /// As [`Player::new`], with the time limits of an external bot.
    pub fn with_limits(
        name: &str,
        seed: u64,
        budget: Budget,
        limits: ExtLimits,
    ) -> Result<Player<G>, PlayerError> {
        Player::make(name, seed, budget, limits, None)
    }

    /// As [`Player::with_limits`], an external bot taking its process from `pool` and leaving it
    /// there at the end (a new match in the same process, see [`ext::Pool`]).
    pub fn pooled(
        name: &str,
        seed: u64,
        budget: Budget,
        limits: ExtLimits,
        pool: &SharedPool,
    ) -> Result<Player<G>, PlayerError> {
        Player::make(name, seed, budget, limits, Some(pool))
    }

    fn make(
        name: &str,
        seed: u64,
        budget: Budget,
        limits: ExtLimits,
        pool: Option<&SharedPool>,
    ) -> Result<Player<G>, PlayerError> {
        if name.starts_with(ext::PREFIX) {
            let mut bot = ExtBot::<G>::from_spec(name, seed, budget, limits)
                .map_err(|error| PlayerError::Command { name: name.to_string(), error })?;
            if let Some(pool) = pool {
                bot = bot.with_pool(pool.clone());
            }
            return Ok(Player::Bot(Box::new(bot)));
        }
        Player::registered(name, seed, budget).map_err(PlayerError::from)
    }

    fn registered(name: &str, seed: u64, budget: Budget) -> Result<Player<G>, UnknownBot> {
        if name == CHEATER
            && let Some(o) = G::oracle(seed, budget)
        {
            return Ok(Player::Oracle(o));
        }
        G::bot(name, seed, budget).map(Player::Bot).map_err(|mut e| {
            if G::oracle(0, budget).is_some() {
                e.known.push_str(", ");
                e.known.push_str(CHEATER);
            }
            e.known.push_str(", ext:COMMAND");
            e
        })
    }

    /// The fallback counts of an external bot (`None` for the others).
    pub fn fallbacks(&self) -> Option<Fallbacks> {
        match self {
            Player::Bot(b) => b.fallbacks(),
            Player::Oracle(_) => None,
        }
    }

    /// The player's name.
    pub fn name(&self) -> &str {
        match self {
            Player::Bot(b) => b.name(),
            Player::Oracle(o) => o.name(),
        }
    }

    /// Chooses for `seat`, the seat to move in `state`.
    pub fn choose(&mut self, state: &G::State, seat: Seat, legal: &[G::Action]) -> G::Action {
        match self {
            Player::Bot(b) => b.choose(&G::view(state, seat), legal),
            Player::Oracle(o) => o.choose(state, legal),
        }
    }
}

/// Every player name a game accepts at a table: its bots, and `cheater` when it has an oracle.
pub fn player_names<G: Registry>() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = G::bot_names().to_vec();
    if G::oracle(0, Budget::default()).is_some() {
        v.push(CHEATER);
    }
    v
}

/// A player that chose an action the rules do not allow (a bug in the bot).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{player} in {seat} chose {action}, which is not legal: {reason}")]
pub struct IllegalChoice {
    /// The player's name.
    pub player: String,
    /// Its seat.
    pub seat: Seat,
    /// The action, in words.
    pub action: String,
    /// Why the engine refused it.
    pub reason: String,
}

/// Plays `state` to its end with `players[seat]` choosing for each seat; `on_decision` receives
/// the seat and the time each decision took (view building included). Every action is checked.
/// At the end every bot is shown its seat's last view ([`Bot::hand_over`]).
pub fn play_hand<G: Registry>(
    state: &mut G::State,
    players: &mut [Player<G>; 4],
    mut on_decision: impl FnMut(Seat, Duration),
) -> Result<(), IllegalChoice> {
    while let Some(seat) = G::to_move(state) {
        let legal = G::legal_actions(state);
        let start = Instant::now();
        let player = &mut players[seat.index()];
        let action = player.choose(state, seat, &legal);
        on_decision(seat, start.elapsed());
        let illegal = |reason: String| IllegalChoice {
            player: player.name().to_string(),
            seat,
            action: action.to_string(),
            reason,
        };
        if !legal.contains(&action) {
            return Err(illegal("not among the legal actions".to_string()));
        }
        G::apply(state, action).map_err(|e| illegal(e.to_string()))?;
    }
    for seat in Seat::ALL {
        if let Player::Bot(b) = &mut players[seat.index()] {
            b.hand_over(&G::view(state, seat));
        }
    }
    Ok(())
}

/// A `--bots` value that names no four bots.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotsSpecError {
    /// Neither one name nor four.
    #[error("--bots {spec:?}: give one name for all seats or four comma-separated names, not {count}")]
    Count {
        /// The value as given.
        spec: String,
        /// How many names it has.
        count: usize,
    },
    /// One of the names is empty.
    #[error("--bots {0:?}: an empty bot name")]
    Empty(String),
}

/// Reads `--bots`: one name for all four seats, or four comma-separated names in seat order.
pub fn parse_bots(spec: &str) -> Result<[String; 4], BotsSpecError> {
    let names: Vec<String> = spec.split(',').map(|s| s.trim().to_string()).collect();
    match names.len() {
        1 => Ok(std::array::from_fn(|_| names[0].clone())),
        4 => Ok(std::array::from_fn(|i| names[i].clone())),
        count => Err(BotsSpecError::Count { spec: spec.to_string(), count }),
    }
    .and_then(|v: [String; 4]| {
        if v.iter().any(String::is_empty) { Err(BotsSpecError::Empty(spec.to_string())) } else { Ok(v) }
    })
}

/// Decision times of one player (or one side), for `yezi bench` and the arena.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DecisionTimes {
    micros: Vec<u32>,
}

/// Order statistics of decision times, in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct TimeSummary {
    /// Decisions measured.
    pub decisions: u64,
    /// Mean.
    pub mean_ms: f64,
    /// Median.
    pub median_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// Slowest.
    pub max_ms: f64,
}

impl DecisionTimes {
    /// No decisions yet.
    pub fn new() -> DecisionTimes {
        DecisionTimes::default()
    }

    /// Adds one decision's time.
    pub fn push(&mut self, d: Duration) {
        self.micros.push(d.as_micros().min(u128::from(u32::MAX)) as u32);
    }

    /// Adds another series.
    pub fn extend(&mut self, other: &DecisionTimes) {
        self.micros.extend_from_slice(&other.micros);
    }

    /// Number of decisions.
    pub fn len(&self) -> usize {
        self.micros.len()
    }

    /// True when no decision was measured.
    pub fn is_empty(&self) -> bool {
        self.micros.is_empty()
    }

    /// The median, percentiles and maximum (nearest-rank percentiles), `None` when empty.
    pub fn summary(&self) -> Option<TimeSummary> {
        if self.micros.is_empty() {
            return None;
        }
        let mut v = self.micros.clone();
        v.sort_unstable();
        let n = v.len();
        // Nearest rank: the smallest value with at least p·n values at or below it.
        let rank = |p: f64| -> f64 {
            let k = ((p * n as f64).ceil() as usize).clamp(1, n);
            f64::from(v[k - 1]) / 1000.0
        };
        let mean = v.iter().map(|&x| f64::from(x)).sum::<f64>() / n as f64 / 1000.0;
        Some(TimeSummary {
            decisions: n as u64,
            mean_ms: mean,
            median_ms: rank(0.5),
            p90_ms: rank(0.9),
            p99_ms: rank(0.99),
            max_ms: f64::from(v[n - 1]) / 1000.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_spec() {
        assert_eq!(parse_bots("random").unwrap(), ["random", "random", "random", "random"].map(String::from));
        assert_eq!(parse_bots("a, b,c,d").unwrap(), ["a", "b", "c", "d"].map(String::from));
        assert!(parse_bots("a,b").is_err());
        assert!(parse_bots("a,,c,d").is_err());
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut t = DecisionTimes::new();
        for ms in 1..=100u64 {
            t.push(Duration::from_millis(ms));
        }
        let s = t.summary().unwrap();
        assert_eq!(s.decisions, 100);
        assert_eq!(s.median_ms, 50.0);
        assert_eq!(s.p90_ms, 90.0);
        assert_eq!(s.p99_ms, 99.0);
        assert_eq!(s.max_ms, 100.0);
        assert!((s.mean_ms - 50.5).abs() < 1e-9);
        assert!(DecisionTimes::new().summary().is_none());
    }
}
