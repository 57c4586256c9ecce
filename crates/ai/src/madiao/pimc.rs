//! `pimc`: perfect-information Monte Carlo. For each sampled world consistent with the seat's
//! knowledge ([`Knowledge::sample`]) every candidate move is valued — exactly by the solver once
//! few tricks remain, else by a heuristic rollout of every seat up to that point and the solver
//! from there — and the move with the best average wins. The `cheater` oracle runs the same
//! evaluation on the true deal.
//!
//! # Whose payoff
//! The banker maximizes his own payoff (all three players minimize it). A player maximizes his
//! **own** payoff with the three others against him ([`PlayerObjective::Own`], the bot `pimc`).
//! Two other readings were measured against it and lost (see `docs/strength.md`): the
//! **coalition's** payoff — the three players' summed payoff, minus the banker's, the fellow
//! players with him ([`PlayerObjective::Coalition`], `pimc-coalition`) — and a mix that counts
//! his own payoff twice and each fellow's once ([`PlayerObjective::Mixed`], `pimc-mixed`).
//!
//! # Redeals
//! A long-suit holder forces a redeal when the hand's value, averaged over sampled worlds
//! (rollout and solver as above, from the first lead), is below what a fresh hand is worth to his
//! side on average ([`FRESH_HAND`]): a redeal keeps the banker and deals again.
//!
//! # Budget
//! A budget is a number of work units (solver nodes; a rollout move counts [`ROLLOUT_COST`]):
//! samples are drawn until the work done reaches `think_ms × WORK_PER_MS` (the banker's
//! [`BANKER_WORK`] times that; at least [`MIN_SAMPLES`], at most [`MAX_SAMPLES`]). The amount of
//! work never depends on the clock, so a seed and a budget fix every choice.

use cards::Rng;
use madiao::{Action, State, View};

use super::heuristic;
use super::know::Knowledge;
use super::pos::{Ctx, Mv, Pos, TB, TQ, TW, W0, from_state, representative_of};
use super::solver::{Objective, Solver};
use crate::{Bot, Budget, Madiao, Oracle};

/// Whose payoff a player (not the banker) maximizes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerObjective {
    /// The three players' summed payoff (minus the banker's).
    Coalition,
    /// His own payoff, everyone else against him.
    Own,
    /// His own payoff counted twice and each fellow player's once, the fellow players with him
    /// and the banker against them.
    Mixed,
}

/// Work units per nominal millisecond (calibrated so that a decision takes about half its nominal
/// time on one core of the reference machine; see `docs/strength.md`).
pub const WORK_PER_MS: u64 = 8_000;
/// The banker's budget is this many times a player's: his hand value is paid by all three
/// players, so his decisions weigh about three times as much.
pub const BANKER_WORK: u64 = 2;
/// Work units a rollout move counts for.
pub const ROLLOUT_COST: u64 = 40;
/// Fewest samples per decision.
pub const MIN_SAMPLES: u32 = 6;
/// Most samples per decision.
pub const MAX_SAMPLES: u32 = 400;
/// Tricks left (the current one included) from which `pimc` values every move exactly.
pub const EXACT_TRICKS: u8 = 4;
/// Tricks left at which a rollout stops for the solver (at a trick's start).
pub const ROLLOUT_TO: u8 = 3;
/// Tricks left from which the `cheater` values every move exactly (one world: it can afford
/// more).
pub const CHEATER_EXACT_TRICKS: u8 = 5;

/// What a fresh hand is worth on average, in half-stakes, to the banker (index 0) and to one
/// player (index 1), under `banker_shortfall: winners` (first row: `standard`) and `all` (second
/// row: `feng`), measured with four `heuristic` players over 60,000 hands (`cargo run --release
/// -p ai --example redeal_study`). A redeal is worth this to the seat that forces it.
pub const FRESH_HAND: [[f64; 2]; 2] = [[0.8, -0.26], [0.16, -0.05]];

/// The settings of a `pimc` player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Whose payoff a player maximizes.
    pub objective: PlayerObjective,
    /// Work units per decision.
    pub work: u64,
    /// Tricks left (the current one included) from which every move is valued exactly.
    pub exact_tricks: u8,
    /// Tricks left at which a rollout stops for the solver.
    pub rollout_to: u8,
}

impl Settings {
    /// The settings for a budget.
    pub fn new(budget: Budget, objective: PlayerObjective) -> Settings {
        Settings {
            objective,
            work: u64::from(budget.think_ms) * WORK_PER_MS,
            exact_tricks: EXACT_TRICKS,
            rollout_to: ROLLOUT_TO,
        }
    }
}

/// The objective of seat `me`.
pub fn objective(me: u8, banker: u8, who: PlayerObjective) -> Objective {
    let players = 0xf & !(1 << banker);
    if me == banker {
        Objective::sum_of(1 << banker)
    } else {
        match who {
            PlayerObjective::Coalition => Objective::sum_of(players),
            PlayerObjective::Own => Objective::sum_of(1 << me),
            PlayerObjective::Mixed => Objective {
                max: players,
                weights: std::array::from_fn(|s| {
                    if s as u8 == banker {
                        0
                    } else if s as u8 == me {
                        2
                    } else {
                        1
                    }
                }),
            },
        }
    }
}

/// The moves worth considering among the legal actions: every lead, capture and slough — never a
/// face-up card that cannot win (a slough of it is as good and free) — one per class of cards
/// that are equivalent in every world: two cards of a suit in `pos`'s hand of the seat to move
/// with only cards known to be out of play (`maybe_live` excludes them) between them, neither of
/// them a card that can be special (reward cards, `TW TQ TB W0`, and every suit's second card,
/// one of which the stock check may concern).
pub fn candidates(pos: &Pos, legal: &[Action], maybe_live: u64, reward: u64) -> Vec<(Action, Mv)> {
    let hand = pos.hands[pos.to_move as usize];
    let special = reward | TW | TQ | TB | W0 | SECONDS;
    let live = maybe_live | hand | if pos.pos > 0 { 1u64 << pos.best } else { 0 };
    let mut out: Vec<(Action, Mv)> = Vec::new();
    for &a in legal {
        let Some(mv) = Mv::from_action(a) else { continue };
        if mv.is_up() && pos.pos > 0 && pos.captures() & (1u64 << mv.card()) == 0 {
            continue;
        }
        let rep = representative_of(mv.card(), hand, live, special);
        let rep_mv = if mv.is_up() { Mv::up(rep) } else { Mv::down(rep) };
        if !out.iter().any(|&(_, m)| m == rep_mv) {
            out.push((rep_mv.action(), rep_mv));
        }
    }
    out
}

/// Every suit's second card: `WH S8 M8 TQ`.
const SECONDS: u64 = (1 << 9) | (1 << 18) | (1 << 27) | (1 << 38);

/// The value of each candidate move in one world, and the work it took.
fn evaluate(
    solver: &mut Solver,
    ctx: &Ctx,
    pos: &Pos,
    obj: Objective,
    moves: &[(Action, Mv)],
    settings: &Settings,
    out: &mut [i64],
) -> u64 {
    let n0 = solver.nodes;
    let mut rollout_moves = 0u64;
    if pos.tricks_left() <= settings.exact_tricks {
        let values = solver.move_values(ctx, pos, obj);
        for (o, &(_, mv)) in out.iter_mut().zip(moves) {
            *o += i64::from(Solver::lookup(ctx, pos, &values, mv).unwrap_or(i32::MIN / 4));
        }
    } else {
        for (o, &(_, mv)) in out.iter_mut().zip(moves) {
            let mut child = *pos;
            child.play(ctx, mv);
            rollout_moves += u64::from(heuristic::rollout(ctx, &mut child, settings.rollout_to));
            let v =
                if child.is_over() { obj.value(&child.payoffs(ctx)) } else { solver.value(ctx, &child, obj) };
            *o += i64::from(v);
        }
    }
    solver.nodes - n0 + rollout_moves * ROLLOUT_COST
}

/// The value of a hand before the first lead (for the redeal decision): the rules played to the
/// end by every seat (as the fresh-hand values were measured), and the work.
fn evaluate_hand(ctx: &Ctx, pos: &Pos, obj: Objective) -> (f64, u64) {
    let mut p = *pos;
    let moves = heuristic::rollout(ctx, &mut p, 0);
    (f64::from(obj.value(&p.payoffs(ctx))), u64::from(moves) * ROLLOUT_COST)
}

/// The value a redeal has for objective `obj`, in half-stakes: what a fresh hand is worth on
/// average to the seats it weighs.
fn redeal_value(obj: Objective, banker: u8, variants: &madiao::Variants) -> f64 {
    let row = usize::from(variants.banker_shortfall != madiao::variants::BankerShortfall::Winners);
    (0..4u8).map(|s| f64::from(obj.weights[s as usize]) * FRESH_HAND[row][usize::from(s != banker)]).sum()
}

/// The index of the best total; ties go to `prefer` if it is among them, else to the first.
pub(crate) fn best_index(totals: &[i64], prefer: Option<usize>) -> usize {
    let max = totals.iter().copied().max().unwrap_or(0);
    match prefer {
        Some(p) if totals.get(p) == Some(&max) => p,
        _ => totals.iter().position(|&t| t == max).unwrap_or(0),
    }
}

/// The redeal decision of a long-suit holder (see the module docs): force the redeal when the
/// hand's value averaged over sampled worlds is below what a fresh hand is worth.
pub(crate) fn redeal_choice(rng: &mut Rng, k: &Knowledge, work_budget: u64, who: PlayerObjective) -> bool {
    let obj = objective(k.me, k.banker, who);
    let mut total = 0.0;
    let mut work = 0u64;
    let mut n = 0u32;
    while (work < work_budget || n < MIN_SAMPLES) && n < MAX_SAMPLES * 4 {
        let w = k.sample(rng, 60);
        let (ctx, mut pos) = k.search(&w);
        pos.to_move = k.first;
        pos.leader = k.first;
        pos.best_seat = k.first;
        let (v, cost) = evaluate_hand(&ctx, &pos, obj);
        total += v;
        work += cost;
        n += 1;
    }
    total < redeal_value(obj, k.banker, &k.variants) * f64::from(n)
}

/// The `pimc` bot.
pub struct PimcBot {
    name: &'static str,
    rng: Rng,
    settings: Settings,
    solver: Solver,
}

impl PimcBot {
    /// A bot seeded with `seed`, thinking `budget` per decision, maximizing as `objective` says.
    pub fn new(name: &'static str, seed: u64, budget: Budget, objective: PlayerObjective) -> PimcBot {
        PimcBot {
            name,
            rng: Rng::from_seed(seed),
            settings: Settings::new(budget, objective),
            solver: Solver::new(15),
        }
    }

    /// A bot with explicit settings.
    pub fn with_settings(name: &'static str, seed: u64, settings: Settings) -> PimcBot {
        PimcBot { name, rng: Rng::from_seed(seed), settings, solver: Solver::new(15) }
    }

    fn redeal(&mut self, k: &Knowledge) -> bool {
        redeal_choice(&mut self.rng, k, self.settings.work, self.settings.objective)
    }

    fn play(&mut self, k: &Knowledge, legal: &[Action]) -> Action {
        let mut mine = k.pos;
        mine.hands[k.me as usize] = k.hand;
        let moves = candidates(&mine, legal, k.unknown, k.reward);
        if moves.len() <= 1 {
            return moves.first().map_or(legal[0], |m| m.0);
        }
        let obj = objective(k.me, k.banker, self.settings.objective);
        let mut totals = vec![0i64; moves.len()];
        let mut work = 0u64;
        let mut n = 0u32;
        let budget = if k.me == k.banker { self.settings.work * BANKER_WORK } else { self.settings.work };
        while (work < budget || n < MIN_SAMPLES) && n < MAX_SAMPLES {
            let w = k.sample(&mut self.rng, 60);
            let (ctx, pos) = k.search(&w);
            work += evaluate(&mut self.solver, &ctx, &pos, obj, &moves, &self.settings, &mut totals);
            n += 1;
        }
        let h = heuristic::choose(k, legal);
        let prefer = candidates(&mine, &[h], k.unknown, k.reward)
            .first()
            .and_then(|c| moves.iter().position(|m| m.1 == c.1));
        moves[best_index(&totals, prefer)].0
    }
}

impl Bot<Madiao> for PimcBot {
    fn name(&self) -> &str {
        self.name
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let k = Knowledge::from_view(view);
        if legal.iter().any(|a| matches!(a, Action::Redeal(_))) {
            return Action::Redeal(self.redeal(&k));
        }
        self.play(&k, legal)
    }
}

/// The `cheater`: the same evaluation on the true deal (one world, exact).
pub struct Cheater {
    settings: Settings,
    solver: Solver,
}

impl Cheater {
    /// The oracle for a budget (a player maximizes his own payoff, as `pimc`'s do).
    pub fn new(_seed: u64, budget: Budget) -> Cheater {
        let mut settings = Settings::new(budget, PlayerObjective::Own);
        settings.exact_tricks = CHEATER_EXACT_TRICKS;
        Cheater { settings, solver: Solver::new(16) }
    }
}

impl Oracle<Madiao> for Cheater {
    fn name(&self) -> &str {
        "cheater"
    }

    fn choose(&mut self, state: &State, legal: &[Action]) -> Action {
        let Some(seat) = state.to_move() else { return legal[0] };
        let me = seat.index() as u8;
        let banker = state.banker().index() as u8;
        let obj = objective(me, banker, self.settings.objective);
        if legal.iter().any(|a| matches!(a, Action::Redeal(_))) {
            // The true deal as it would be played: the first recipient leads.
            let mut probe = state.clone();
            while probe.phase() == madiao::Phase::Redeal {
                probe.apply_unchecked(Action::Redeal(false));
            }
            let Some((ctx, pos)) = from_state(&probe) else { return Action::Redeal(false) };
            // The true hand played out by the rules, as the fresh-hand values were measured.
            let (v, _) = evaluate_hand(&ctx, &pos, obj);
            return Action::Redeal(v < redeal_value(obj, banker, state.variants()));
        }
        let Some((ctx, pos)) = from_state(state) else { return legal[0] };
        let others = (0..4).filter(|&x| x != me as usize).fold(0u64, |m, x| m | pos.hands[x]);
        let moves = candidates(&pos, legal, others, ctx.reward);
        if moves.len() <= 1 {
            return moves.first().map_or(legal[0], |m| m.0);
        }
        let mut totals = vec![0i64; moves.len()];
        evaluate(&mut self.solver, &ctx, &pos, obj, &moves, &self.settings, &mut totals);
        let k = Knowledge::from_view(&state.view(seat));
        let h = heuristic::choose(&k, legal);
        let prefer = candidates(&pos, &[h], others, ctx.reward)
            .first()
            .and_then(|c| moves.iter().position(|m| m.1 == c.1));
        moves[best_index(&totals, prefer)].0
    }
}
