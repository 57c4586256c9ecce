//! `expert`: the strongest Da Bai Fen bot — `pimc`'s determinized search with the refinements
//! that the duplicate arena showed to help (see `docs/dabaifen-bots.md`, section `expert`).

use cards::Rng;
use dabaifen::{Action, Cards, Phase, View};

use super::heuristic::{heuristic_action, legal_or_fallback};
use super::infer;
use super::know::Know;
use super::pimc::{self, Search, payoff, play_candidates, pos_from_view, resample, resplit_burial};
use super::policy::{Ctx, Rules};
use super::pos::Pos;
use super::sample::Problem;
use crate::{Bot, Budget, Dabaifen};

/// The work and the choices of `expert` for a budget.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Params {
    /// The search's work, as `pimc`'s parameters.
    pub base: pimc::Params,
    /// The floor of [`infer::declaration_weight`] (1: the way trumps were fixed is not used).
    pub bid_floor: f64,
    /// Whether the partner's plays are weighed by [`infer::weight`] as the other seats' are.
    pub infer_partner: bool,
    /// The weight factor for each of the partner's plays the heuristic would not have made
    /// (when `infer_partner`; the opponents' factor is `base.miss`).
    pub miss_partner: f64,
    /// The rules of the rollouts for the bot's team's seats.
    pub rules_own: Rules,
    /// The rules of the rollouts for the other team's seats.
    pub rules_opp: Rules,
    /// Steps of the Metropolis chain per world (0: weighted resampling of `base.draws` draws
    /// per world instead).
    pub mcmc_steps: u32,
    /// Search the seat's next decision too ([`ExpertBot::lookahead_sums`]) while every hand
    /// holds at least this many cards (0: never).
    pub look_from: u32,
    /// Candidate plays at the seat's next decision.
    pub look_cands: usize,
    /// Worlds per decision when looking ahead.
    pub look_samples: u32,
    /// How much more (in game levels, averaged over the worlds) another play must be worth than
    /// the heuristic's to be chosen instead.
    pub heur_margin: f64,
    /// The bot's team plays its rollouts knowing every hand of the world.
    pub own_exact: bool,
    /// Judge each other seat by how well the heuristic explains its plays in the best of the
    /// drawn worlds: a seat whose plays it explains (all but one in eight) is weighed with
    /// `base.miss`, any other seat with `miss_soft`.
    pub adapt: bool,
    /// The weight factor per unexplained play of a seat that does not play like the heuristic.
    pub miss_soft: f64,
    /// The prior probability that an opponent plays like the heuristic: each opponent's plays
    /// are weighed by the mixture `mix × miss^m + (1 − mix) × miss_soft^m` of its `m` plays the
    /// heuristic would not have made (0: `miss^m`).
    pub mix: f64,
}

impl Params {
    /// The parameters of a budget.
    pub fn for_budget(b: Budget) -> Params {
        Params {
            base: pimc::Params::for_budget(b),
            bid_floor: 1.0,
            infer_partner: true,
            miss_partner: 0.3,
            rules_own: Rules::NONE,
            rules_opp: Rules::NONE,
            mcmc_steps: 0,
            look_from: 0,
            look_cands: 6,
            look_samples: 20,
            heur_margin: 0.0,
            own_exact: false,
            adapt: false,
            miss_soft: 0.3,
            mix: 0.0,
        }
    }

    /// Sets one parameter by name (`samples`, `draws`, `miss`, …), for experiments.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let bad = |e: &dyn std::fmt::Display| format!("{key}={value}: {e}");
        let u = |v: &str| v.parse::<u32>().map_err(|e| bad(&e));
        let f = |v: &str| v.parse::<f64>().map_err(|e| bad(&e));
        let b = &mut self.base;
        match key {
            "samples" => b.samples = u(value)?,
            "draws" => b.draws = u(value)?,
            "miss" => b.miss = f(value)?,
            "exact" => b.exact_cards = u(value)?,
            "tail" => b.tail_cards = u(value)?,
            "cands" => b.max_candidates = u(value)? as usize,
            "bury_samples" => b.bury_samples = u(value)?,
            "bury_cands" => b.bury_candidates = u(value)? as usize,
            "declare_samples" => b.declare_samples = u(value)?,
            "annul_samples" => b.annul_samples = u(value)?,
            "bid_floor" => self.bid_floor = f(value)?,
            "infer_partner" => self.infer_partner = u(value)? != 0,
            "miss_partner" => self.miss_partner = f(value)?,
            "rules_own" => self.rules_own = Rules(u(value)?),
            "rules_opp" => self.rules_opp = Rules(u(value)?),
            "mcmc" => self.mcmc_steps = u(value)?,
            "look_from" => self.look_from = u(value)?,
            "look_cands" => self.look_cands = u(value)? as usize,
            "look_samples" => self.look_samples = u(value)?,
            "heur_margin" => self.heur_margin = f(value)?,
            "own_exact" => self.own_exact = u(value)? != 0,
            "adapt" => self.adapt = u(value)? != 0,
            "miss_soft" => self.miss_soft = f(value)?,
            "mix" => self.mix = f(value)?,
            "rules" => {
                self.rules_own = Rules(u(value)?);
                self.rules_opp = self.rules_own;
            }
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
    /// `pimc`'s search, for the decisions `expert` makes as `pimc` does.
    pimc: pimc::PimcBot,
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

    fn play(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let w = self.weigh_play(view, legal)?;
        Some(Action::Play(Cards::from_bits(w.cands[w.choice])))
    }

    /// What `expert` weighs at a play: its candidates (the heuristic's play first) and each one's
    /// payoff summed over the worlds.
    pub fn weigh_play(&mut self, view: &View, legal: &[Action]) -> Option<PlayWeighed> {
        let p = self.params.base;
        let k = Know::from_view(view, legal)?;
        let cands = play_candidates(view, &k, legal, p.max_candidates);
        if cands.len() <= 1 {
            let c = *cands.first()?;
            return Some(PlayWeighed { cands: vec![c], sums: vec![0.0], worlds: 0, choice: 0 });
        }
        let look = self.params.look_from > 0 && k.hand.count_ones() >= self.params.look_from;
        let n = if look { self.params.look_samples } else { p.samples };
        let worlds: Vec<Pos> =
            self.worlds(view, &k, n as usize).into_iter().map(|w| pos_from_view(view, &k, &w)).collect();
        let sizes_ok = |q: &Pos| (0..4).all(|s| q.hands[s].count_ones() == u32::from(view.hand_sizes[s]));
        if !worlds.iter().all(sizes_ok) {
            return None;
        }
        let me = view.seat?;
        let defends = me.team() != view.starter.team();
        let mut rules = [self.params.rules_opp; 2];
        rules[usize::from(me.team())] = self.params.rules_own;
        self.search.params.rollout_rules = rules;
        let mut exact = [false; 2];
        exact[usize::from(me.team())] = self.params.own_exact;
        self.search.params.rollout_exact = exact;
        let sums = if look {
            self.lookahead_sums(&worlds, &cands, defends, me.number())
        } else {
            self.search.play_sums(&worlds, &cands, defends)
        };
        let mut biased = sums.clone();
        biased[0] += self.params.heur_margin * worlds.len() as f64;
        let choice = pimc::argmax(&biased);
        Some(PlayWeighed { cands, sums, worlds: worlds.len() as u32, choice })
    }
}

/// What `expert` weighed at a play.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayWeighed {
    /// The candidate plays, the heuristic's first.
    pub cands: Vec<u64>,
    /// Each candidate's payoff summed over the worlds.
    pub sums: Vec<f64>,
    /// The worlds.
    pub worlds: u32,
    /// The index of the bot's choice.
    pub choice: usize,
}

impl ExpertBot {
    /// `n` worlds (the hidden cards of each place) for a view: drawn consistently with what it
    /// proves, the hidden burial as a starter would bury, weighted by how well they explain the
    /// other seats' plays and the way trumps were fixed, resampled.
    pub fn worlds(&mut self, view: &View, k: &Know, n: usize) -> Vec<[u64; 5]> {
        let p = self.params;
        let problem = Problem::of(k);
        let mut obs = infer::observed(view, k);
        let partner = (k.me + 2) & 3;
        if !p.infer_partner {
            obs.retain(|o| o.seat() != partner);
        }
        let (opp_obs, partner_obs): (Vec<_>, Vec<_>) = obs.iter().cloned().partition(|o| o.seat() != partner);
        let bid = p.bid_floor < 1.0;
        let weigh = |w: &[u64; 5]| -> f64 {
            let mut x = if p.mix > 0.0 {
                match infer::mismatches(view, k, &obs, w) {
                    None => 0.0,
                    Some(m) => (0..4)
                        .map(|s| {
                            let m = i32::from(m[s]);
                            if s == usize::from(partner) {
                                p.miss_partner.powi(m)
                            } else {
                                p.mix * p.base.miss.powi(m) + (1.0 - p.mix) * p.miss_soft.powi(m)
                            }
                        })
                        .product(),
                }
            } else {
                infer::weight(view, k, &opp_obs, w, p.base.miss)
                    * infer::weight(view, k, &partner_obs, w, p.miss_partner)
            };
            if bid {
                x *= infer::declaration_weight(view, k, w, p.bid_floor);
            }
            x
        };
        if p.mcmc_steps > 0 && (!obs.is_empty() || bid) {
            return (0..n)
                .map(|_| {
                    let mut w = problem.sample(&mut self.rng);
                    let mut split = w;
                    resplit_burial(k, &mut split);
                    let mut cur = weigh(&split);
                    for _ in 0..p.mcmc_steps {
                        let Some(next) = swap_two(k, &w, &mut self.rng) else { break };
                        let mut next_split = next;
                        resplit_burial(k, &mut next_split);
                        let wt = weigh(&next_split);
                        if wt >= cur || self.rng.unit() * cur < wt {
                            (w, split, cur) = (next, next_split, wt);
                        }
                    }
                    split
                })
                .collect();
        }
        let draws = if obs.is_empty() && !bid { 1 } else { p.base.draws.max(1) as usize };
        if p.adapt && !obs.is_empty() {
            let mut drawn: Vec<([u64; 5], Option<[u8; 4]>)> = Vec::with_capacity(n * draws);
            for _ in 0..n * draws {
                let mut w = problem.sample(&mut self.rng);
                resplit_burial(k, &mut w);
                drawn.push((w, infer::mismatches(view, k, &obs, &w)));
            }
            let mut plays = [0u32; 4];
            for o in &obs {
                plays[o.seat() as usize] += 1;
            }
            let mut best = [u8::MAX; 4];
            for (_, m) in &drawn {
                if let Some(m) = m {
                    for s in 0..4 {
                        best[s] = best[s].min(m[s]);
                    }
                }
            }
            let miss: [f64; 4] = std::array::from_fn(|s| {
                if u32::from(best[s]) <= plays[s] / 8 { p.base.miss } else { p.miss_soft }
            });
            let weighed: Vec<([u64; 5], f64)> = drawn
                .into_iter()
                .map(|(w, m)| {
                    let x = m.map_or(0.0, |m| (0..4).map(|s| miss[s].powi(i32::from(m[s]))).product());
                    (w, x)
                })
                .collect();
            return resample(&weighed, n, &mut self.rng);
        }
        let mut drawn: Vec<([u64; 5], f64)> = Vec::with_capacity(n * draws);
        for _ in 0..n * draws {
            let mut w = problem.sample(&mut self.rng);
            resplit_burial(k, &mut w);
            let weight = if draws > 1 { weigh(&w) } else { 1.0 };
            drawn.push((w, weight));
        }
        resample(&drawn, n, &mut self.rng)
    }
}

/// A world with two hidden cards at different places swapped, each allowed at the other's place
/// (`None` when a few random tries find no such pair).
fn swap_two(k: &Know, w: &[u64; 5], rng: &mut Rng) -> Option<[u64; 5]> {
    let cards: Vec<u32> = super::pos::bits(k.hidden).collect();
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
        out[pa] ^= 1u64 << a | 1u64 << b;
        out[pb] ^= 1u64 << a | 1u64 << b;
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
            Phase::Playing => self.play(view, legal),
            Phase::Over => None,
            _ => Some(self.pimc.choose(view, legal)),
        };
        let a = a.or_else(|| heuristic_action(view, legal));
        legal_or_fallback(a, legal)
    }
}

/// One candidate's worlds advanced to the seat's next decision.
enum Next {
    /// The deal was decided before the seat's next decision (played out, or solved exactly):
    /// the position to value as `pimc` values it.
    Done(Pos),
    /// The seat decides again in this position; the others' plays since the candidate are the
    /// group (what the seat will have seen) it belongs to.
    Decide(usize, Pos),
}

impl ExpertBot {
    /// Each candidate's payoff summed over the worlds when the seat's next decision is searched
    /// too: after the candidate the other seats play by the rollout rules until the seat is to
    /// play again; worlds in which the seat will have seen the same plays form one information
    /// set, in which it makes the one next play that is best over them (no strategy fusion);
    /// then rollouts as in `pimc`.
    fn lookahead_sums(&mut self, worlds: &[Pos], cands: &[u64], defends: bool, me: u8) -> Vec<f64> {
        let p = self.params.base;
        let max_next = self.params.look_cands;
        // Pass 1: advance every (world, candidate) to the seat's next decision.
        let mut next: Vec<Vec<Next>> = Vec::with_capacity(worlds.len());
        // Per candidate: the groups' keys (others' plays) and each group's candidate plays.
        let mut groups: Vec<Vec<(Vec<u64>, Vec<u64>)>> = vec![Vec::new(); cands.len()];
        for w in worlds {
            let mut row = Vec::with_capacity(cands.len());
            for (j, &a) in cands.iter().enumerate() {
                let mut q = *w;
                q.play(a);
                let mut seq = Vec::new();
                let n = loop {
                    if q.is_over() || (q.count == 0 && q.cards_per_hand() <= p.exact_cards) {
                        break Next::Done(q);
                    }
                    if q.to_move() == me {
                        let g = match groups[j].iter().position(|(k, _)| *k == seq) {
                            Some(g) => g,
                            None => {
                                groups[j].push((
                                    seq.clone(),
                                    next_candidates(&q, me, max_next, self.params.rules_own),
                                ));
                                groups[j].len() - 1
                            }
                        };
                        break Next::Decide(g, q);
                    }
                    let mut ctx = Ctx::honest(&q);
                    ctx.rules = self.search.params.rollout_rules[usize::from(ctx.me & 1)];
                    let m = ctx.choose();
                    seq.push(m);
                    q.play(m);
                };
                row.push(n);
            }
            next.push(row);
        }
        // Pass 2: value, world by world (the solver's table is per world).
        let mut done = vec![0.0f64; cands.len()];
        let mut group_sums: Vec<Vec<Vec<f64>>> =
            groups.iter().map(|gs| gs.iter().map(|(_, c)| vec![0.0; c.len()]).collect()).collect();
        for row in &next {
            self.search.solver.new_world();
            for (j, n) in row.iter().enumerate() {
                match n {
                    Next::Done(q) => {
                        let t =
                            if q.is_over() { q.final_t() } else { self.search.rollout(*q, p.exact_cards) };
                        done[j] += payoff(t, defends);
                    }
                    Next::Decide(g, q) => {
                        for (b, &m) in groups[j][*g].1.iter().enumerate() {
                            group_sums[j][*g][b] += payoff(self.search.value_of(q, m), defends);
                        }
                    }
                }
            }
        }
        (0..cands.len())
            .map(|j| {
                done[j]
                    + group_sums[j]
                        .iter()
                        .map(|s| s.iter().cloned().fold(f64::NEG_INFINITY, f64::max))
                        .filter(|x| x.is_finite())
                        .sum::<f64>()
            })
            .collect()
    }
}

/// The seat's candidate plays in a position of a world, as it would see them (classes judged
/// against every card it cannot see): the rollout rules' play first, at most `max`.
fn next_candidates(q: &Pos, me: u8, max: usize, rules: Rules) -> Vec<u64> {
    let mut ctx = Ctx::honest(q);
    ctx.rules = rules;
    let first = ctx.choose();
    let mut pseudo = *q;
    let mut unseen = q.others(me);
    if me != q.starter {
        unseen |= q.buried;
    }
    pseudo.hands = [0; 4];
    pseudo.hands[me as usize] = q.hands[me as usize];
    pseudo.hands[((me + 1) & 3) as usize] = unseen;
    let mut rest: Vec<u64> = Vec::new();
    super::solver::for_each_reduced_play(&pseudo, |m| {
        if m != first {
            rest.push(m);
        }
    });
    // Cheapest and richest alternately, after the rules' play.
    let cost = |m: u64| super::pos::bits(m).map(|c| ctx.throw_cost(c)).sum::<i32>();
    let give = |m: u64| super::pos::bits(m).map(|c| ctx.give_value(c)).sum::<i32>();
    let mut cheap = rest.clone();
    cheap.sort_by_key(|&m| (cost(m), m));
    rest.sort_by_key(|&m| (std::cmp::Reverse(give(m)), m));
    let mut out = vec![first];
    for i in 0..cheap.len() {
        for m in [cheap[i], rest[i]] {
            if out.len() < max && !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out
}
