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
//! Declaring, annulling and burying (§4–§7) are `pimc`'s.
//!
//! The techniques tried and not kept, with their measured effects, are in
//! `docs/dabaifen-bots.md` (section `expert`).

use cards::Rng;
use dabaifen::{Action, Cards, Phase, View};

use super::heuristic::{heuristic_action, legal_or_fallback};
use super::infer;
use super::know::Know;
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
        }
    }

    /// Sets one parameter by name, for experiments (`examples/dbf_lab.rs`): `samples`, `miss`,
    /// `exact`, `tail`, `cands`, `bury_samples`, `bury_cands`, `declare_samples`,
    /// `annul_samples`, `mcmc`, `mix`, `miss_soft`, `miss_partner`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let bad = |e: &dyn std::fmt::Display| format!("{key}={value}: {e}");
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
            _ => return Err(format!("unknown parameter {key}")),
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
        let k = Know::from_view(view, legal)?;
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

    /// `n` worlds (the hidden cards of each place, [`super::know::KITTY`] last) for a view:
    /// consistent with what it proves, the hidden burial as a starter would bury, and, once
    /// other seats have played, the end of a Metropolis chain whose stationary distribution
    /// weighs each world by the likelihood of those plays (see the module documentation).
    pub fn worlds(&mut self, view: &View, k: &Know, n: usize) -> Vec<[u64; 5]> {
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

/// A world with two hidden cards at different places swapped, each allowed at the other's place
/// (a symmetric proposal); `None` when twenty random tries find no such pair.
fn swap_two(k: &Know, w: &[u64; 5], rng: &mut Rng) -> Option<[u64; 5]> {
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
            _ => Some(self.pimc.choose(view, legal)),
        };
        let a = a.or_else(|| heuristic_action(view, legal));
        legal_or_fallback(a, legal)
    }
}
