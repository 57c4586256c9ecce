//! `expert`: `pimc`'s determinized search with a sharper inference from the other seats' plays.
//!
//! Play (§8): the same candidates, worlds, honest rollouts, exact solver and payoff as `pimc`
//! ([`super::pimc`]); only the worlds differ. `pimc` draws four worlds per world it keeps and
//! keeps a weighted resample, which barely narrows the deals late in a hand; `expert` runs a
//! short Metropolis chain per world instead: from a deal drawn consistently with what the view
//! proves ([`super::know`], [`super::sample`]), it proposes swapping two hidden cards between two
//! places that may hold them and accepts by the ratio of the worlds' likelihoods, so that the
//! worlds it keeps follow the posterior given the plays seen ([`ExpertBot::worlds`]).
//!
//! The likelihood of a world, per seat, from the number `m` of its earlier plays the heuristic
//! would not have made in that world ([`infer::mismatches`]; the hidden burial rearranged as a
//! starter would bury, as in `pimc`):
//! - an opponent: `mix × miss^m + (1 − mix) × miss_soft^m` — a mixture of "plays like the
//!   heuristic" (a sharp model: against the `heuristic` it is nearly exact) and "plays otherwise"
//!   (as `pimc`'s own model, against players such as `pimc` whose plays the heuristic explains
//!   about half of the time);
//! - the partner (who is usually `expert` itself): `miss_partner^m`, a weak model.
//!
//! Declaring and annulling (§4–§6) are `pimc`'s. Burying (§7) widens `pimc`'s candidates
//! ([`ExpertBot::weigh_bury`]): `pimc` plays out only the heuristic's burials (one per choice of
//! suits to void, with and without points), while the best burial is often one card away from
//! them. In three passes over new sampled worlds each, with about `pimc`'s work in all:
//! 1. `pimc`'s candidates ([`pimc::bury_options`]) in `bury_first` worlds (`T/4` at a budget of
//!    `T` ms);
//! 2. a screen of the best `bury_widen` (2) of them and every burial one card away from one of
//!    them (a buried card swapped for a kept one: 6 × 12 each), by successive halving: each
//!    round plays the burials left in `bury_screen` new worlds (`T/60`), all in the same worlds
//!    so that the differences are paired, and keeps the better half by their sums so far, until
//!    `bury_finalists` (4) are left (about 270 burials played per world of a round in all);
//! 3. the first pass's best and the screen's finalists in `bury_final` new worlds (`T/2`),
//!    which decide (new worlds, so the screen's luck does not pick the winner).
//!
//! The techniques tried and not kept, with their measured effects, are in
//! `docs/dabaifen-bots.md` (section `expert`).

use cards::Rng;
use dabaifen::{Action, Cards, Phase, View};

use super::heuristic::{heuristic_action, legal_or_fallback};
use super::infer;
use super::know::Knowledge;
use super::pimc::{self, Search, play_candidates, pos_from_view, resplit_burial};
use super::pos::{Pos, bits};
use super::sample::Problem;
use crate::{Bot, Budget, Dabaifen};

/// The work and the model of `expert` for a budget.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Params {
    /// The search's work, as `pimc`'s parameters (`base.miss` is the opponents' sharp factor).
    pub base: pimc::Params,
    /// Steps of the Metropolis chain per world.
    pub mcmc_steps: u32,
    /// The prior weight of "plays like the heuristic" in an opponent's likelihood.
    pub mix: f64,
    /// The factor per unexplained play of an opponent who does not play like the heuristic.
    pub miss_soft: f64,
    /// The factor per unexplained play of the partner.
    pub miss_partner: f64,
    /// Burying: how many of the best first-pass burials have their one-card changes screened
    /// (0: bury as `pimc`).
    pub bury_widen: usize,
    /// Burying: how many burials of the screen are valued again to decide (besides the first
    /// pass's best, always among them).
    pub bury_finalists: usize,
    /// Burying: worlds of the first pass (`pimc`'s candidates).
    pub bury_first: u32,
    /// Burying: worlds of the screen (the best candidates and their one-card changes).
    pub bury_screen: u32,
    /// Burying: worlds of the last pass (the finalists).
    pub bury_final: u32,
}

/// A parameter [`Params::set`] cannot set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No parameter has this name.
    #[error("unknown parameter {0}")]
    Unknown(String),
    /// The value is not a number of the parameter's kind.
    #[error("{key}={value}: {reason}")]
    Value {
        /// The parameter.
        key: String,
        /// The value as given.
        value: String,
        /// Why it cannot be read.
        reason: String,
    },
}

impl Params {
    /// The parameters of a budget (calibrated on the reference machine: see
    /// `docs/strength.md`).
    pub fn for_budget(b: Budget) -> Params {
        let ms = b.think_ms.max(1);
        Params {
            base: pimc::Params { miss: 0.01, ..pimc::Params::for_budget(b) },
            mcmc_steps: (ms * 3 / 5).clamp(1, 1000),
            mix: 0.5,
            miss_soft: 0.3,
            miss_partner: 0.5,
            bury_widen: 2,
            bury_finalists: 4,
            bury_first: (ms / 4).clamp(4, 500),
            bury_screen: (ms / 60).clamp(2, 40),
            bury_final: (ms / 2).clamp(4, 1000),
        }
    }

    /// Sets one parameter by name, for experiments (`examples/dbf_lab.rs`): `samples`, `miss`,
    /// `exact`, `tail`, `cands`, `bury_samples`, `bury_cands`, `declare_samples`,
    /// `annul_samples`, `mcmc`, `mix`, `miss_soft`, `miss_partner`, `bury_widen`,
    /// `bury_finalists`, `bury_first`, `bury_screen`, `bury_final` (`bury_widen=0` buries as
    /// `pimc`).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let bad = |e: &dyn std::fmt::Display| ParamError::Value {
            key: key.to_string(),
            value: value.to_string(),
            reason: e.to_string(),
        };
        let u = |v: &str| v.parse::<u32>().map_err(|e| bad(&e));
        let f = |v: &str| v.parse::<f64>().map_err(|e| bad(&e));
        let b = &mut self.base;
        match key {
            "samples" => b.samples = u(value)?,
            "miss" => b.miss = f(value)?,
            "exact" => b.exact_cards = u(value)?,
            "tail" => b.tail_cards = u(value)?,
            "cands" => b.max_candidates = u(value)? as usize,
            "bury_samples" => b.bury_samples = u(value)?,
            "bury_cands" => b.bury_candidates = u(value)? as usize,
            "declare_samples" => b.declare_samples = u(value)?,
            "annul_samples" => b.annul_samples = u(value)?,
            "mcmc" => self.mcmc_steps = u(value)?,
            "mix" => self.mix = f(value)?,
            "miss_soft" => self.miss_soft = f(value)?,
            "miss_partner" => self.miss_partner = f(value)?,
            "bury_widen" => self.bury_widen = u(value)? as usize,
            "bury_finalists" => self.bury_finalists = u(value)? as usize,
            "bury_first" => self.bury_first = u(value)?,
            "bury_screen" => self.bury_screen = u(value)?,
            "bury_final" => self.bury_final = u(value)?,
            _ => return Err(ParamError::Unknown(key.to_string())),
        }
        Ok(())
    }
}

/// The `expert` bot.
pub struct ExpertBot {
    rng: Rng,
    params: Params,
    search: Search,
    /// `pimc`, for the decisions before play (its own seed: the same choices as `pimc` there).
    pimc: pimc::PimcBot,
}

/// What `expert` weighed at a play.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayWeighed {
    /// The candidate plays, the heuristic's first.
    pub cands: Vec<u64>,
    /// Each candidate's payoff ([`pimc::payoff`]) summed over the worlds.
    pub sums: Vec<f64>,
    /// The worlds.
    pub worlds: u32,
    /// The index of the bot's choice.
    pub choice: usize,
}

/// What `expert` weighed at its burial.
#[derive(Clone, Debug, PartialEq)]
pub struct BuryWeighed {
    /// The finalists (burials as card sets): the first pass's best, then the screen's.
    pub burials: Vec<u64>,
    /// Each finalist's payoff ([`pimc::payoff`]) summed over the last pass's worlds.
    pub sums: Vec<f64>,
    /// The worlds of the last pass.
    pub worlds: u32,
    /// How many burials the screen valued (the first pass's best and their one-card changes).
    pub screened: usize,
    /// The index in `burials` of the bot's choice.
    pub choice: usize,
}

impl ExpertBot {
    /// An expert bot with its seed and budget.
    pub fn new(seed: u64, budget: Budget) -> ExpertBot {
        ExpertBot::with_params(seed, Params::for_budget(budget))
    }

    /// An expert bot with explicit parameters.
    pub fn with_params(seed: u64, params: Params) -> ExpertBot {
        ExpertBot {
            rng: Rng::from_seed(seed ^ 0x6578_7065_7274),
            params,
            search: Search::new(params.base),
            pimc: pimc::PimcBot::with_params(seed, params.base),
        }
    }

    /// What `expert` weighs at a play: its candidates (`pimc`'s) and each one's payoff summed
    /// over the worlds; `None` when the view is not of a seat in the play phase.
    pub fn weigh_play(&mut self, view: &View, legal: &[Action]) -> Option<PlayWeighed> {
        let p = self.params.base;
        let k = Knowledge::from_view(view, legal)?;
        let cands = play_candidates(view, &k, legal, p.max_candidates);
        if cands.len() <= 1 {
            let c = *cands.first()?;
            return Some(PlayWeighed { cands: vec![c], sums: vec![0.0], worlds: 0, choice: 0 });
        }
        let worlds: Vec<Pos> = self
            .worlds(view, &k, p.samples as usize)
            .into_iter()
            .map(|w| pos_from_view(view, &k, &w))
            .collect();
        // Every world must give each seat the cards it holds (a real view always does).
        let sizes_ok = |q: &Pos| (0..4).all(|s| q.hands[s].count_ones() == u32::from(view.hand_sizes[s]));
        if !worlds.iter().all(sizes_ok) {
            return None;
        }
        let defends = view.seat?.team() != view.starter.team();
        let sums = self.search.play_sums(&worlds, &cands, defends);
        let choice = pimc::argmax(&sums);
        Some(PlayWeighed { cands, sums, worlds: worlds.len() as u32, choice })
    }

    /// What `expert` weighs at its burial (the module documentation's three passes): the
    /// finalists and their payoffs summed over the last pass's worlds; `None` when the view is
    /// not the starter's burial.
    pub fn weigh_bury(&mut self, view: &View, legal: &[Action]) -> Option<BuryWeighed> {
        let p = self.params;
        let at = BuryAt::of(view, legal)?;
        let s = screen_burials(&mut self.search, &mut self.rng, &at, &p);
        let worlds = p.bury_final.max(1);
        let (sums, _) = bury_sums(&mut self.search, &mut self.rng, &at, &s.finalists, worlds);
        let choice = pimc::argmax(&sums);
        Some(BuryWeighed { burials: s.finalists, sums, worlds, screened: s.screened, choice })
    }

    /// The burial as the hand analysis weighs it (`docs/analysis.md`): the first two passes of
    /// [`ExpertBot::weigh_bury`], then a last pass, in `worlds` new worlds, over `pimc`'s
    /// candidates and the screen's finalists (the burials considered: the choice is the best of
    /// them) and `made` after them when it is not among them. As [`pimc::PimcBot::weigh_bury`]
    /// reports, with the defenders' points; `None` when the view is not the starter's burial.
    pub fn weigh_bury_wide(
        &mut self,
        view: &View,
        legal: &[Action],
        made: u64,
        worlds: u32,
    ) -> Option<pimc::Weighed> {
        let p = self.params;
        let at = BuryAt::of(view, legal)?;
        let s = screen_burials(&mut self.search, &mut self.rng, &at, &p);
        let mut all = s.first;
        for b in s.finalists {
            if !all.contains(&b) {
                all.push(b);
            }
        }
        let considered = all.len();
        if !all.contains(&made) {
            all.push(made);
        }
        let worlds = worlds.max(1);
        let (sums, points) = bury_sums(&mut self.search, &mut self.rng, &at, &all, worlds);
        let choice = pimc::argmax(&sums[..considered]);
        Some(pimc::Weighed {
            actions: all.into_iter().map(|b| Action::Bury(Cards::from_bits(b))).collect(),
            considered,
            sums,
            points: Some(points),
            samples: worlds,
            choice,
        })
    }

    /// `n` worlds (the hidden cards of each place, [`super::know::KITTY`] last) for a view:
    /// consistent with what it proves, the hidden burial as a starter would bury, and, once
    /// other seats have played, the end of a Metropolis chain whose stationary distribution
    /// weighs each world by the likelihood of those plays (see the module documentation).
    pub fn worlds(&mut self, view: &View, k: &Knowledge, n: usize) -> Vec<[u64; 5]> {
        let p = self.params;
        let problem = Problem::of(k);
        let obs = infer::observed(view, k);
        let draw = |rng: &mut Rng| {
            let mut w = problem.sample(rng);
            resplit_burial(k, &mut w);
            w
        };
        if obs.is_empty() || p.mcmc_steps == 0 {
            return (0..n).map(|_| draw(&mut self.rng)).collect();
        }
        let partner = usize::from((k.me + 2) & 3);
        let likelihood = |w: &[u64; 5]| -> f64 {
            let Some(m) = infer::mismatches(view, k, &obs, w) else { return 0.0 };
            (0..4)
                .map(|s| {
                    let m = i32::from(m[s]);
                    if s == partner {
                        p.miss_partner.powi(m)
                    } else {
                        p.mix * p.base.miss.powi(m) + (1.0 - p.mix) * p.miss_soft.powi(m)
                    }
                })
                .product()
        };
        (0..n)
            .map(|_| {
                // The chain moves the drawn deal; the burial is rearranged after each move.
                let mut raw = problem.sample(&mut self.rng);
                let mut w = raw;
                resplit_burial(k, &mut w);
                let mut cur = likelihood(&w);
                for _ in 0..p.mcmc_steps {
                    let Some(next_raw) = swap_two(k, &raw, &mut self.rng) else { break };
                    let mut next = next_raw;
                    resplit_burial(k, &mut next);
                    let l = likelihood(&next);
                    if l >= cur || self.rng.unit() * cur < l {
                        (raw, w, cur) = (next_raw, next, l);
                    }
                }
                w
            })
            .collect()
    }
}

/// A starter's burial position as the burial passes see it: the view, its knowledge, the
/// worlds' problem and the side of the starter's seat.
struct BuryAt<'a> {
    view: &'a View,
    k: Knowledge,
    problem: Problem,
    defends: bool,
}

impl<'a> BuryAt<'a> {
    /// `None` when the view is not the starter's burial (eighteen cards) or no world fits it.
    fn of(view: &'a View, legal: &[Action]) -> Option<BuryAt<'a>> {
        let k = Knowledge::from_view(view, legal)?;
        if view.phase != Phase::Burying || k.hand.count_ones() != 18 {
            return None;
        }
        let defends = view.seat?.team() != view.starter.team();
        let problem = Problem::of(&k);
        problem.feasible().then_some(BuryAt { view, k, problem, defends })
    }
}

/// The first two burial passes (the module documentation's): `pimc`'s candidates, and the
/// finalists of the screen of the best `bury_widen` of them and their one-card changes.
struct Screened {
    /// `pimc`'s candidates ([`pimc::bury_options`]), the heuristic's first.
    first: Vec<u64>,
    /// The finalists: the first pass's best, then the screen's.
    finalists: Vec<u64>,
    /// How many burials the screen valued.
    screened: usize,
}

/// The first two passes of the widened burial search (shared by [`ExpertBot::weigh_bury`] and
/// [`ExpertBot::weigh_bury_wide`]).
fn screen_burials(search: &mut Search, rng: &mut Rng, at: &BuryAt, p: &Params) -> Screened {
    let first = pimc::bury_options(at.k.t, at.k.hand, p.base.bury_candidates);
    let (sums, _) = bury_sums(search, rng, at, &first, p.bury_first.max(1));
    let mut screen: Vec<u64> = best_indices(&sums, p.bury_widen).into_iter().map(|i| first[i]).collect();
    for b0 in screen.clone() {
        for b in pimc::one_card_changes(at.k.hand, b0) {
            if !screen.contains(&b) {
                screen.push(b);
            }
        }
    }
    // Successive halving: each round plays the burials left in `bury_screen` new worlds,
    // adds to their sums (all of them in the same worlds) and keeps the better half.
    let screened = screen.len();
    let mut left: Vec<(u64, f64)> = screen.iter().map(|&b| (b, 0.0)).collect();
    while left.len() > p.bury_finalists.max(1) {
        let bs: Vec<u64> = left.iter().map(|x| x.0).collect();
        let (sums, _) = bury_sums(search, rng, at, &bs, p.bury_screen.max(1));
        for (x, s) in left.iter_mut().zip(sums) {
            x.1 += s;
        }
        let sums: Vec<f64> = left.iter().map(|x| x.1).collect();
        let keep = best_indices(&sums, (left.len() / 2).max(p.bury_finalists.max(1)));
        left = keep.into_iter().map(|i| left[i]).collect();
    }
    // The first pass's best (`screen[0]`) stays a finalist: the screen's few worlds may
    // rank it low by luck, and it is the safe choice.
    let mut finalists = vec![screen[0]];
    finalists.extend(left.iter().map(|x| x.0).filter(|&b| b != screen[0]));
    Screened { first, finalists, screened }
}

/// Each burial's payoff ([`pimc::payoff`]) and the defenders' points, each summed over `n` new
/// worlds of the position, every burial played out in the same worlds by `pimc`'s honest
/// rollouts.
fn bury_sums(
    search: &mut Search,
    rng: &mut Rng,
    at: &BuryAt,
    burials: &[u64],
    n: u32,
) -> (Vec<f64>, Vec<f64>) {
    let mut sums = vec![0.0; burials.len()];
    let mut points = vec![0.0; burials.len()];
    for _ in 0..n {
        let world = at.problem.sample(rng);
        search.solver.new_world();
        for (j, &b) in burials.iter().enumerate() {
            let pos = pimc::pos_after_burial(at.view, &at.k, &world, b);
            let tv = search.rollout(pos, search.params.tail_cards);
            sums[j] += pimc::payoff(tv, at.defends);
            points[j] += f64::from(tv);
        }
    }
    (sums, points)
}

/// The indices of the `n` largest of `sums`, largest first (ties: the earlier first).
fn best_indices(sums: &[f64], n: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..sums.len()).collect();
    idx.sort_by(|&a, &b| sums[b].total_cmp(&sums[a]).then(a.cmp(&b)));
    idx.truncate(n);
    idx
}

/// A world with two hidden cards at different places swapped, each allowed at the other's place
/// (a symmetric proposal); `None` when twenty random tries find no such pair.
fn swap_two(k: &Knowledge, w: &[u64; 5], rng: &mut Rng) -> Option<[u64; 5]> {
    let cards: Vec<u32> = bits(k.hidden).collect();
    if cards.len() < 2 {
        return None;
    }
    let place = |c: u32| (0..5).find(|&p| w[p] >> c & 1 != 0);
    for _ in 0..20 {
        let a = cards[rng.index(cards.len())];
        let b = cards[rng.index(cards.len())];
        let (Some(pa), Some(pb)) = (place(a), place(b)) else { continue };
        if pa == pb || k.allowed[a as usize] >> pb & 1 == 0 || k.allowed[b as usize] >> pa & 1 == 0 {
            continue;
        }
        let mut out = *w;
        let both = 1u64 << a | 1u64 << b;
        out[pa] ^= both;
        out[pb] ^= both;
        return Some(out);
    }
    None
}

impl Bot<Dabaifen> for ExpertBot {
    fn name(&self) -> &str {
        "expert"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let a = match view.phase {
            Phase::Playing => {
                self.weigh_play(view, legal).map(|w| Action::Play(Cards::from_bits(w.cands[w.choice])))
            }
            Phase::Over => None,
            Phase::Burying if self.params.bury_widen > 0 => {
                self.weigh_bury(view, legal).map(|w| Action::Bury(Cards::from_bits(w.burials[w.choice])))
            }
            _ => Some(self.pimc.choose(view, legal)),
        };
        let a = a.or_else(|| heuristic_action(view, legal));
        legal_or_fallback(a, legal)
    }
}
