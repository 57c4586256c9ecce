//! `expert`: `pimc` with two refinements that Madiao's hidden cards call for.
//!
//! - **Inference from the play.** Each world kept is chosen among several drawn from the seat's
//!   knowledge ([`Knowledge::sample`]), with weights saying how well the `heuristic` explains the
//!   other seats' earlier choices in that world: every earlier play of another seat is replayed
//!   with the hand that seat held then and what it could know then, and each play the heuristic
//!   would not have made (captures and leads up to interchangeable cards, a slough for a slough)
//!   multiplies the world's weight by the miss factor; a long-suit holder that declined a redeal
//!   the heuristic would have forced counts likewise.
//! - **Honest rollouts.** Before the solver takes over, each seat plays the heuristic with what
//!   it could know in the world (its own cards, every face-up card, the counts), not with every
//!   card in view as `pimc`'s rollouts do.
//!
//! Everything else is `pimc`'s: the candidates, the objective (the banker his own payoff, a player
//! his own against the three others), the exact solver for the last tricks (here from
//! [`EXACT_TRICKS`] left, rollouts handing over at [`ROLLOUT_TO`]), the redeal decision. The
//! design and the measurements behind each choice are in `docs/madiao-bots.md`.
//!
//! # Budget
//! Work is counted as in `pimc` (solver nodes, rollout moves at [`pimc::ROLLOUT_COST`] each) plus
//! the inference's replayed choices at [`REPLAY_COST`] each, with [`WORK_FACTOR`] times `pimc`'s
//! units per nominal millisecond; samples are drawn until the work reaches the budget, so choices
//! never depend on the clock.

use cards::Rng;
use madiao::{Action, PlayKind, View};

use super::heuristic::{self, REDEAL_BELOW, Seen};
use super::know::{Knowledge, World};
use super::pimc::{
    self, MAX_SAMPLES, MIN_SAMPLES, PlayerObjective, ROLLOUT_COST, WORK_PER_MS, candidates, objective,
};
use super::pos::{Ctx, Mv, Pos, TB, representative_of};
use super::solver::{Objective, Solver};
use crate::{Bot, Budget, Madiao};

/// All 40 cards, as bits.
const ALL_CARDS: u64 = madiao::card::ALL_CARDS.bits();

/// Work units a replayed choice of the inference counts for.
pub const REPLAY_COST: u64 = 20;
/// The budget in `pimc`'s work units per nominal millisecond: twice `pimc`'s (a decision costs
/// about as much time as `pimc`'s, whose exact search from 4 tricks left is dearer).
pub const WORK_FACTOR: u64 = 2;
/// Tricks left (the current one included) from which every move is valued exactly (`pimc`: 4).
pub const EXACT_TRICKS: u8 = 3;
/// Tricks left at which a rollout stops for the solver (`pimc`: 3).
pub const ROLLOUT_TO: u8 = 2;
/// Worlds drawn per world kept.
pub const DRAWS: u32 = 4;
/// The weight factor for each choice the heuristic would not have made.
pub const MISS: f64 = 0.3;

/// The settings of an `expert` player.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Settings {
    /// Work units per decision (a player's; the banker's is `banker_work` times this).
    pub work: u64,
    /// The banker's budget in players' budgets.
    pub banker_work: u64,
    /// Tricks left (the current one included) from which every move is valued exactly.
    pub exact_tricks: u8,
    /// Tricks left at which a rollout stops for the solver.
    pub rollout_to: u8,
    /// Honest rollouts (each seat plays on what it could know) instead of `pimc`'s open ones.
    pub honest: bool,
    /// Worlds drawn per world kept (1: no inference).
    pub draws: u32,
    /// The factor a world's weight takes for each earlier choice the heuristic would not have
    /// made in it.
    pub miss: f64,
}

impl Settings {
    /// The settings for a budget.
    pub fn new(budget: Budget) -> Settings {
        Settings {
            work: u64::from(budget.think_ms) * WORK_PER_MS * WORK_FACTOR,
            banker_work: pimc::BANKER_WORK,
            exact_tricks: EXACT_TRICKS,
            rollout_to: ROLLOUT_TO,
            honest: true,
            draws: DRAWS,
            miss: MISS,
        }
    }
}

/// One play of the hand so far, as the seat saw it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Seen1 {
    seat: u8,
    /// The card when the seat saw it (face up, or its own).
    card: Option<u8>,
    face_up: bool,
    /// A face-up discard (never the heuristic's choice; not used as evidence).
    discard: bool,
}

/// What the inference replays: the plays so far in order, and the redeals declined.
#[derive(Clone, Debug, Default)]
struct History {
    plays: Vec<Seen1>,
    declined: Vec<u8>,
}

impl History {
    fn from_view(view: &View) -> History {
        let mut plays = Vec::new();
        for t in &view.tricks {
            for p in &t.plays {
                plays.push(Seen1 {
                    seat: p.seat.index() as u8,
                    card: p.card.map(|c| c.number()),
                    face_up: p.face_up,
                    discard: p.kind == PlayKind::Discard,
                });
            }
        }
        let declined =
            view.redeal_choices.iter().filter(|c| !c.redeal).map(|c| c.seat.index() as u8).collect();
        History { plays, declined }
    }
}

/// The heuristic's view of the seat to move in `pos` when it knows its dealt cards `dealt` and the
/// face-up cards `public` (the upcard among them).
fn honest_seen<'a>(ctx: &'a Ctx, pos: &'a Pos, dealt: u64, public: u64, tb_up: bool) -> Seen<'a> {
    let me = pos.to_move;
    let unknown = ALL_CARDS & !(dealt | public);
    let n = f64::from(unknown.count_ones().max(1));
    let mut maybe = [unknown; 4];
    maybe[me as usize] = 0;
    let p =
        std::array::from_fn(
            |s| {
                if s == me as usize { 0.0 } else { f64::from(pos.hands[s].count_ones()) / n }
            },
        );
    let hm_holder = if dealt & TB != 0 {
        Some(me)
    } else if tb_up {
        ctx.hm_holder
    } else {
        None
    };
    Seen {
        me,
        banker: ctx.banker,
        hand: pos.hands[me as usize],
        maybe,
        p,
        pos,
        reward: ctx.reward,
        hm_holder,
        variants: &ctx.variants,
    }
}

/// Plays the heuristic for every seat, each on what it could know, from `pos` until `stop` tricks
/// are left (at a trick's start) or the hand ends. Returns the number of moves made.
fn honest_rollout(ctx: &Ctx, pos: &mut Pos, dealt: &[u64; 4], public: &mut u64, stop: u8) -> u32 {
    let mut n = 0;
    while !(pos.is_over() || (pos.pos == 0 && pos.tricks_left() <= stop)) {
        let s = pos.to_move as usize;
        let mv = honest_seen(ctx, pos, dealt[s], *public, *public & TB != 0).choose();
        if mv.is_up() {
            *public |= 1u64 << mv.card();
        }
        pos.play(ctx, mv);
        n += 1;
    }
    n
}

/// The `expert` bot.
pub struct ExpertBot {
    rng: Rng,
    settings: Settings,
    solver: Solver,
}

impl ExpertBot {
    /// A bot seeded with `seed`, thinking `budget` per decision.
    pub fn new(seed: u64, budget: Budget) -> ExpertBot {
        ExpertBot::with_settings(seed, Settings::new(budget))
    }

    /// A bot with explicit settings.
    pub fn with_settings(seed: u64, settings: Settings) -> ExpertBot {
        ExpertBot { rng: Rng::from_seed(seed), settings, solver: Solver::new(15) }
    }

    /// How well the heuristic explains the other seats' choices so far in world `w`: the product
    /// of the miss factor over the choices it would not have made. Returns the weight and the
    /// number of choices replayed.
    fn likelihood(&self, k: &Knowledge, h: &History, w: &World) -> (f64, u32) {
        let miss = self.settings.miss;
        let (ctx, _) = k.search(w);
        let mut weight = 1.0;
        let mut replayed = 0u32;
        let upcard = 1u64 << k.upcard;
        // The position at the first lead.
        let start = Pos {
            hands: w.dealt,
            trick: 0,
            pos: 0,
            to_move: k.first,
            leader: k.first,
            led: 0,
            best: 0,
            best_seat: k.first,
            tricks: [0; 4],
            won: [0; 4],
            ignored: 0,
            check_up: false,
        };
        // §4.3 A long-suit holder who declined: would the heuristic have forced the redeal?
        for &s in &h.declined {
            if s == k.me {
                continue;
            }
            let pos = Pos { to_move: s, ..start };
            let seen = honest_seen(&ctx, &pos, w.dealt[s as usize], upcard, false);
            let threshold = if s == k.banker { REDEAL_BELOW[0] } else { REDEAL_BELOW[1] };
            if w.dealt[s as usize] & TB == 0 && seen.hand_strength() < threshold {
                weight *= miss;
            }
            replayed += 1;
        }
        // The play from the first lead.
        let mut pos = start;
        let mut public = upcard;
        // Each other seat's face-down cards in this world, not yet placed in a trick.
        let mut downs: [u64; 4] = std::array::from_fn(|s| w.dealt[s] & !w.hands[s] & !k.up[s]);
        for p in &h.plays {
            let s = p.seat;
            debug_assert_eq!(s, pos.to_move);
            let hand = pos.hands[s as usize];
            let mut guess = None;
            if s != k.me && !p.discard {
                let seen = honest_seen(&ctx, &pos, w.dealt[s as usize], public, public & TB != 0);
                let mv = seen.choose();
                guess = Some(mv);
                replayed += 1;
                let made = match (p.face_up, p.card) {
                    (true, Some(c)) => {
                        mv.is_up() && {
                            let live = pos.live();
                            let special = ctx.special();
                            representative_of(mv.card(), hand, live, special)
                                == representative_of(c, hand, live, special)
                        }
                    }
                    _ => !mv.is_up(),
                };
                if !made {
                    weight *= miss;
                }
            }
            let mv = match (p.face_up, p.card) {
                (true, Some(c)) => Mv::up(c),
                (false, Some(c)) => Mv::down(c),
                _ => {
                    // Another seat's face-down card: the heuristic's if the world has it there,
                    // else any of the seat's face-down cards in this world.
                    let left = downs[s as usize] & hand;
                    let c = match guess {
                        Some(g) if !g.is_up() && left & (1u64 << g.card()) != 0 => g.card(),
                        _ if left != 0 => left.trailing_zeros() as u8,
                        _ => hand.trailing_zeros() as u8,
                    };
                    Mv::down(c)
                }
            };
            if mv.card() >= 40 || hand & (1u64 << mv.card()) == 0 {
                // Never for a consistent world; stop rather than replay nonsense.
                break;
            }
            downs[s as usize] &= !(1u64 << mv.card());
            if mv.is_up() {
                public |= 1u64 << mv.card();
            }
            pos.play(&ctx, mv);
        }
        (weight, replayed)
    }

    /// A world for the search: one drawn, or with inference the best explained of several (drawn
    /// in proportion to their weights). Returns the world and the work it took.
    fn world(&mut self, k: &Knowledge, h: &History) -> (World, u64) {
        let draws = self.settings.draws.max(1);
        if draws == 1 || (h.plays.iter().all(|p| p.seat == k.me) && h.declined.is_empty()) {
            return (k.sample(&mut self.rng, 60), 0);
        }
        let mut worlds = Vec::with_capacity(draws as usize);
        let mut total = 0.0;
        let mut replayed = 0u64;
        for _ in 0..draws {
            let w = k.sample(&mut self.rng, 60);
            let (weight, n) = self.likelihood(k, h, &w);
            replayed += u64::from(n);
            total += weight;
            worlds.push((w, weight));
        }
        let mut x = self.rng.unit() * total;
        let mut chosen = worlds[worlds.len() - 1].0;
        for (w, weight) in &worlds {
            if x < *weight {
                chosen = *w;
                break;
            }
            x -= weight;
        }
        (chosen, replayed * REPLAY_COST)
    }

    /// The value of each candidate move in one world (its search context and position, as
    /// [`Knowledge::search`] gives them), added to `out`, and the work it took.
    fn evaluate(
        &mut self,
        (ctx, pos): (&Ctx, &Pos),
        w: &World,
        public: u64,
        obj: Objective,
        moves: &[(Action, Mv)],
        out: &mut [i64],
    ) -> u64 {
        let n0 = self.solver.nodes;
        let mut rollout_moves = 0u64;
        if pos.tricks_left() <= self.settings.exact_tricks {
            let values = self.solver.move_values(ctx, pos, obj);
            for (o, &(_, mv)) in out.iter_mut().zip(moves) {
                *o += i64::from(Solver::lookup(ctx, pos, &values, mv).unwrap_or(i32::MIN / 4));
            }
        } else {
            for (o, &(_, mv)) in out.iter_mut().zip(moves) {
                let mut child = *pos;
                let mut public = public;
                if mv.is_up() {
                    public |= 1u64 << mv.card();
                }
                child.play(ctx, mv);
                rollout_moves += u64::from(if self.settings.honest {
                    honest_rollout(ctx, &mut child, &w.dealt, &mut public, self.settings.rollout_to)
                } else {
                    heuristic::rollout(ctx, &mut child, self.settings.rollout_to)
                });
                let v = if child.is_over() {
                    obj.value(&child.payoffs(ctx))
                } else {
                    self.solver.value(ctx, &child, obj)
                };
                *o += i64::from(v);
            }
        }
        self.solver.nodes - n0 + rollout_moves * ROLLOUT_COST
    }

    fn play(&mut self, view: &View, k: &Knowledge, legal: &[Action]) -> Action {
        let mut mine = k.pos;
        mine.hands[k.me as usize] = k.hand;
        let moves = candidates(&mine, legal, k.unknown, k.reward);
        if moves.len() <= 1 {
            return moves.first().map_or(legal[0], |m| m.0);
        }
        let h = History::from_view(view);
        let obj = objective(k.me, k.banker, PlayerObjective::Own);
        let public = k.up.iter().fold(1u64 << k.upcard, |a, m| a | m);
        let mut totals = vec![0i64; moves.len()];
        let mut work = 0u64;
        let mut n = 0u32;
        let budget = if k.me == k.banker {
            self.settings.work * self.settings.banker_work
        } else {
            self.settings.work
        };
        while (work < budget || n < MIN_SAMPLES) && n < MAX_SAMPLES {
            let (w, cost) = self.world(k, &h);
            let (ctx, pos) = k.search(&w);
            work += cost + self.evaluate((&ctx, &pos), &w, public, obj, &moves, &mut totals);
            n += 1;
        }
        let hc = heuristic::choose(k, legal);
        let prefer = candidates(&mine, &[hc], k.unknown, k.reward)
            .first()
            .and_then(|c| moves.iter().position(|m| m.1 == c.1));
        moves[pimc::best_index(&totals, prefer)].0
    }
}

impl Bot<Madiao> for ExpertBot {
    fn name(&self) -> &str {
        "expert"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let k = Knowledge::from_view(view);
        if legal.iter().any(|a| matches!(a, Action::Redeal(_))) {
            return Action::Redeal(pimc::redeal_choice(
                &mut self.rng,
                &k,
                self.settings.work,
                PlayerObjective::Own,
            ));
        }
        self.play(view, &k, legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::Seat;
    use madiao::{HandSetup, Phase, State, deck_from_seed};

    /// When the other seats play the heuristic, the inference replays their choices exactly: the
    /// true world explains every one of them (weight 1), while most other worlds do not.
    #[test]
    fn the_true_world_explains_the_heuristics_choices() {
        let bot = ExpertBot::new(1, Budget { think_ms: 1 });
        let mut rng = Rng::from_seed(3);
        let (mut replayed, mut decisions, mut sampled, mut sampled_missed) = (0u64, 0u32, 0u32, 0u32);
        for seed in 0..150u64 {
            let v = if seed % 2 == 0 { madiao::Variants::STANDARD } else { madiao::Variants::FENG };
            let mut st = State::new(HandSetup {
                variants: v,
                ..HandSetup::new(Seat::wrapping((seed % 4) as usize), deck_from_seed(seed, 11))
            })
            .unwrap();
            let observer = (seed % 4) as u8;
            while let Some(s) = st.to_move() {
                let view = st.view(s);
                let legal = st.legal_actions();
                if s.index() as u8 == observer && st.phase() == Phase::Play {
                    let k = Knowledge::from_view(&view);
                    let h = History::from_view(&view);
                    let dealt: [u64; 4] = std::array::from_fn(|x| st.dealt(Seat::wrapping(x)).bits());
                    let hands: [u64; 4] = std::array::from_fn(|x| st.hand(Seat::wrapping(x)).bits());
                    let truth = World { hands, dealt, exposed: st.deck()[38].number() };
                    let (weight, n) = bot.likelihood(&k, &h, &truth);
                    assert_eq!(weight, 1.0, "seed {seed}: the truth is not explained: {h:?}");
                    replayed += u64::from(n);
                    decisions += 1;
                    let w = k.sample(&mut rng, 60);
                    sampled += 1;
                    if bot.likelihood(&k, &h, &w).0 < 1.0 {
                        sampled_missed += 1;
                    }
                }
                // The observer plays at random, the others as the heuristic.
                let a = if s.index() as u8 == observer {
                    legal[rng.index(legal.len())]
                } else {
                    heuristic::choose(&Knowledge::from_view(&view), &legal)
                };
                st.apply(a).unwrap();
            }
        }
        assert!(decisions > 500 && replayed > 5_000, "{decisions} decisions, {replayed} choices replayed");
        assert!(
            sampled_missed * 2 > sampled,
            "only {sampled_missed} of {sampled} sampled worlds missed a choice"
        );
    }
}
