//! `pimc` (determinized search from a seat's view) and `cheater` (the same search on the true
//! state).
//!
//! ## Play
//! Candidates: one play per class of interchangeable plays (see [`super::solver`]; at the root
//! two cards are interchangeable when no card that may be in another hand, nor one played to the
//! trick, lies between them), which covers every single card and every follow; multi-card leads
//! only of cards that are top cards whatever the hidden cards are (every subset of them up to
//! interchangeable cards, so never a revoke); the heuristic's own choice always. When more than
//! `max_candidates` remain (follows of long leads when void, many top cards), the heuristic's
//! choice, the multi-card leads and trump-ins are kept and the rest are ranked by the
//! heuristic's costs, cheapest and richest alternately. So below the cap every legal play is a
//! candidate up to interchangeable cards, except multi-card leads holding a card that might not
//! be a top card (under `revoke: penalize` they are legal and may be revokes; under `refuse` the
//! legal leads prove which cards are top cards, so none is left out).
//!
//! Worlds: `samples × draws` deals of the hidden cards consistent with the view ([`super::know`],
//! [`super::sample`]), the hidden burial rearranged as a starter burying by the heuristic's
//! values would have buried ([`resplit_burial`]), weighted by how well the heuristic explains the
//! other seats' earlier plays in each ([`super::infer`]); `samples` of them are kept by weighted
//! resampling. In each world every candidate is valued by its final `T`: exactly (the solver)
//! when every hand holds at most `exact_cards` cards, else by a rollout of the rest of the deal
//! in which each seat plays the heuristic with what it could know (its hand, the unseen cards,
//! the voids shown; "honest" rollouts), handing over to the solver once every hand holds at most
//! `tail_cards`. Each `T` is mapped through [`payoff`] for the seat's team, and the candidate
//! with the best average is played (ties to the earlier, the heuristic's choice first).
//!
//! ## Declaring, annulling, burying
//! - Draw polls: only suits the hand supports are considered (the heuristic's projection of the
//!   trumps the hand would hold at least [`DECLARE_FLOOR`]); each candidate (pass, or show one
//!   of those cards) is played out in sampled decks (the seat's drawn cards where it drew them,
//!   the rest shuffled) by the engine: the rest of the draw with the heuristic's declarations for
//!   every seat, the kitty turned if nobody declares, annulment polls, burial and play by the
//!   heuristic with the solver's tail. An annulled deal is worth 0. Showing must beat passing by
//!   [`DECLARE_MARGIN`].
//! - Annulment polls: annulling is worth 0; passing is valued by sampled worlds (the other
//!   seats' annulment by the heuristic, then the burial and the play).
//! - Burial: the heuristic's burials for each choice of suits to void, with and without
//!   unprotected points (up to `bury_candidates`), each valued by rollouts in sampled worlds.
//!
//! ## Payoff
//! See [`payoff`].

use std::collections::HashSet;

use cards::{Rng, Seat};
use dabaifen::{Action, Card, Cards, HandSetup, KittyMultiplier, Phase, State, Tables, View};

use super::heuristic::{bury_style, ctx_from_view, current_trick, heuristic_action, legal_or_fallback, mask};
use super::infer;
use super::know::{KITTY, Knowledge};
use super::policy::{self, BuryStyle, Ctx};
use super::pos::{Pos, TRUMPS, bits};
use super::sample::Problem;
use super::solver::{Solver, classes, for_each_reduced_play, pts};
use crate::{Bot, Budget, Dabaifen, Oracle};

/// The payoff a team gets from a played deal with defenders' points `t`, from its own side
/// (`defends`: it is the defending team).
///
/// It is the §9 table in signed game levels, as the arena scores a deal — from the declarers'
/// side `+2` at `T` = 0, `+1` below 40, `0` at 40–75, `−1` at 80–95, `−2` from 100 — plus
/// `T / TIE_BREAK` so that points still count inside a band of the table (where the levels alone
/// would make every play equal). An annulled deal is worth 0 to both teams.
pub fn payoff(t: u32, defends: bool) -> f64 {
    let (declarers_win, levels) = dabaifen::game_points(t);
    let levels = f64::from(levels);
    let def = if declarers_win { -levels } else { levels } + f64::from(t) / TIE_BREAK;
    if defends { def } else { -def }
}

/// Card points per game level in [`payoff`]'s tie-break.
pub const TIE_BREAK: f64 = 400.0;

/// The fixed amounts of work a budget buys (so that choices never depend on the clock).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Params {
    /// Worlds sampled per play decision.
    pub samples: u32,
    /// Worlds drawn per world kept (the kept ones are a resample weighted by [`super::infer`]).
    pub draws: u32,
    /// The weight factor of a world for each earlier play the heuristic would not have made.
    pub miss: f64,
    /// Rollouts play each seat with what it could know (else with every hand known).
    pub honest: bool,
    /// Solve exactly when every hand holds at most this many cards.
    pub exact_cards: u32,
    /// Rollouts hand over to the solver at this many cards per hand.
    pub tail_cards: u32,
    /// Nodes allowed per exact solve (beyond it, a rollout decides).
    pub max_nodes: u64,
    /// Most candidate plays valued per decision.
    pub max_candidates: usize,
    /// Worlds per burial candidate.
    pub bury_samples: u32,
    /// Burial candidates.
    pub bury_candidates: usize,
    /// Sampled decks per draw-poll decision.
    pub declare_samples: u32,
    /// Worlds per annulment decision.
    pub annul_samples: u32,
}

impl Params {
    /// The work of a budget (calibrated on the reference machine: see `docs/strength.md`).
    pub fn for_budget(b: Budget) -> Params {
        let ms = b.think_ms.max(1);
        Params {
            samples: (ms * 2 / 5).clamp(4, 2000),
            draws: 4,
            miss: 0.3,
            honest: true,
            exact_cards: 5,
            tail_cards: 4,
            max_nodes: 200_000,
            max_candidates: 12,
            bury_samples: ms.clamp(4, 2000),
            bury_candidates: 8,
            declare_samples: (ms / 3).clamp(2, 500),
            annul_samples: (ms / 2).clamp(4, 1000),
        }
    }

    /// The cheater's work: one world, so deeper exact search.
    pub fn cheater(b: Budget) -> Params {
        Params {
            samples: 1,
            exact_cards: 7,
            tail_cards: 5,
            max_nodes: 20_000 * u64::from(b.think_ms.max(1)),
            ..Params::for_budget(b)
        }
    }
}

/// The search engine shared by `pimc` and `cheater`.
pub struct Search {
    /// The work per decision.
    pub params: Params,
    /// The exact solver (call [`Solver::new_world`] between sampled worlds).
    pub solver: Solver,
}

impl Search {
    /// A search with these parameters.
    pub fn new(params: Params) -> Search {
        Search { params, solver: Solver::new() }
    }

    /// `T` at the end of a deal played on from `pos` by the heuristic for everyone, exactly once
    /// every hand holds at most `tail` cards.
    pub fn rollout(&mut self, mut pos: Pos, tail: u32) -> u32 {
        loop {
            if pos.is_over() {
                return pos.final_t();
            }
            if pos.count == 0
                && pos.cards_per_hand() <= tail
                && let Ok(v) = self.solver.value(&pos, self.params.max_nodes)
            {
                return pos.def_points + v as u32;
            }
            let ctx = if self.params.honest { Ctx::honest(&pos) } else { Ctx::exact(&pos) };
            let m = ctx.choose();
            pos.play(m);
        }
    }

    /// `T` after the seat to move in `pos` plays `set` (exact when few cards remain).
    pub fn value_of(&mut self, pos: &Pos, set: u64) -> u32 {
        if pos.cards_per_hand() <= self.params.exact_cards
            && let Ok(v) = self.solver.value_after(pos, set, self.params.max_nodes)
        {
            return pos.def_points + v as u32;
        }
        let mut p = *pos;
        p.play(set);
        self.rollout(p, self.params.tail_cards)
    }

    /// Averages the payoff of each candidate over the worlds: the index of the best.
    fn best_play(&mut self, worlds: &[Pos], cands: &[u64], defends: bool) -> usize {
        argmax(&self.play_sums(worlds, cands, defends))
    }

    /// The payoff of each candidate summed over the worlds.
    pub fn play_sums(&mut self, worlds: &[Pos], cands: &[u64], defends: bool) -> Vec<f64> {
        let mut sums = vec![0.0f64; cands.len()];
        for w in worlds {
            self.solver.new_world();
            for (j, &c) in cands.iter().enumerate() {
                sums[j] += payoff(self.value_of(w, c), defends);
            }
        }
        sums
    }

    /// The rest of a deal from an engine state, every seat played by the heuristic: the payoff of
    /// `seat`'s team (0 for an annulled deal).
    pub fn finish(&mut self, mut st: State, seat: Seat) -> f64 {
        let mut guard = 0;
        loop {
            guard += 1;
            if guard > 400 {
                return 0.0;
            }
            let Some(s) = st.to_move() else {
                return match st.result().and_then(|r| r.defender_points) {
                    Some(t) => payoff(t, seat.team() != st.starter().team()),
                    None => 0.0,
                };
            };
            let a = match st.phase() {
                Phase::Drawing => {
                    let d: Vec<Card> = st.declarable(s).iter().collect();
                    let hand = st.hand(s).bits();
                    let c = policy::declare_choice(hand, &d, hand.count_ones(), st.drawn() >= 40);
                    c.map_or(Action::Pass, Action::Declare)
                }
                Phase::Annulling => {
                    if policy::annul_choice(st.hand(s).bits()) {
                        Action::Annul
                    } else {
                        Action::Pass
                    }
                }
                Phase::Burying => {
                    let Some(t) = st.tables() else { return 0.0 };
                    let hand = st.hand(s).bits();
                    Action::Bury(Cards::from_bits(policy::bury(t, hand, bury_style(t, hand))))
                }
                Phase::Playing => {
                    let Some(pos) = Pos::from_state(&st) else { return 0.0 };
                    let t = self.rollout(pos, self.params.tail_cards);
                    return payoff(t, seat.team() != st.starter().team());
                }
                Phase::Over => return 0.0,
            };
            st.apply_unchecked(a);
        }
    }
}

/// `n` of the weighted items, by systematic resampling (each kept about `n × weight / total`
/// times); uniformly when every weight is 0.
pub fn resample<T: Copy>(items: &[(T, f64)], n: usize, rng: &mut Rng) -> Vec<T> {
    let total: f64 = items.iter().map(|x| x.1).sum();
    if items.len() <= n && total > 0.0 && items.iter().all(|x| x.1 == items[0].1) {
        return items.iter().map(|x| x.0).collect();
    }
    if total <= 0.0 || !total.is_finite() {
        return items.iter().take(n).map(|x| x.0).collect();
    }
    let step = total / n as f64;
    let mut u = rng.unit() * step;
    let mut out = Vec::with_capacity(n);
    let mut acc = 0.0;
    for &(x, w) in items {
        acc += w;
        while u < acc && out.len() < n {
            out.push(x);
            u += step;
        }
    }
    while out.len() < n {
        out.push(items[items.len() - 1].0);
    }
    out
}

/// The index of the greatest value (ties to the earliest).
pub fn argmax(v: &[f64]) -> usize {
    let mut best = 0;
    for (i, &x) in v.iter().enumerate() {
        if x > v[best] + 1e-9 {
            best = i;
        }
    }
    best
}

/// Moves cards between the starter's hand and the hidden burial of a sampled world so that the
/// burial is what a starter burying by the heuristic's values would have buried from those
/// eighteen cards: the lowest keep values, within what the knowledge allows (cards that cannot be
/// in his hand stay buried, cards that cannot be buried stay in his hand). A uniform burial would
/// hold trumps and points far more often than any sensible starter buries them.
pub fn resplit_burial(k: &Knowledge, world: &mut [u64; 5]) {
    let s = k.starter as usize;
    if k.buried.is_some() || s == k.me as usize || world[KITTY] == 0 {
        return;
    }
    let pool = world[s] | world[KITTY];
    let eighteen = pool | k.played_by[s];
    let t = k.t;
    let style = bury_style(t, eighteen);
    let mut forced = 0u64;
    let mut free: Vec<(i32, u32)> = Vec::new();
    for c in bits(pool) {
        let a = k.allowed[c as usize];
        if a >> s & 1 == 0 {
            forced |= 1u64 << c;
        } else if a >> KITTY & 1 != 0 {
            free.push((policy::keep_value(t, eighteen, c, style), c));
        }
    }
    free.sort_unstable();
    let need = 6usize.saturating_sub(forced.count_ones() as usize);
    if free.len() < need {
        return;
    }
    let burial = free[..need].iter().fold(forced, |m, &(_, c)| m | 1u64 << c);
    world[KITTY] = burial;
    world[s] = pool & !burial;
}

/// A play-phase position from a view and a world (the hidden cards of each place).
pub fn pos_from_view(view: &View, k: &Knowledge, world: &[u64; 5]) -> Pos {
    let t = k.t;
    let (leader, plays, count, size, suit) = current_trick(view, t);
    let mut hands = [0u64; 4];
    for (s, h) in hands.iter_mut().enumerate() {
        *h = if s == k.me as usize { k.hand } else { world[s] };
    }
    let defenders = 1 - view.starter.team();
    let buried = k.buried.unwrap_or(world[KITTY]);
    Pos {
        t,
        hands,
        plays,
        leader,
        count,
        size: if count == 0 { 0 } else { size },
        suit: if count == 0 { 0 } else { suit },
        defenders,
        def_points: view.team_points[defenders as usize],
        kitty_points: pts(buried),
        per_card: view.variants.kitty_multiplier == KittyMultiplier::PerCard,
        last_winner: 0,
        last_size: 1,
        buried,
        starter: view.starter.number(),
        void: k.void,
    }
}

/// The candidate plays of a view's seat (see the module documentation); the heuristic's play
/// first.
pub fn play_candidates(view: &View, k: &Knowledge, legal: &[Action], max: usize) -> Vec<u64> {
    let t = k.t;
    let ctx = ctx_from_view(view, k);
    let heur_play = ctx.choose();
    let (leader, plays, count, size, suit) = current_trick(view, t);
    let me = k.me as usize;
    let mut hands = [0u64; 4];
    hands[me] = k.hand;
    hands[(me + 1) & 3] = k.maybe_others();
    let pseudo = Pos {
        t,
        hands,
        plays,
        leader,
        count,
        size: if count == 0 { 0 } else { size },
        suit: if count == 0 { 0 } else { suit },
        defenders: 0,
        def_points: 0,
        kitty_points: 0,
        per_card: false,
        last_winner: 0,
        last_size: 1,
        buried: 0,
        starter: 0,
        void: [0; 4],
    };
    let legal_plays: HashSet<u64> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Play(s) => Some(s.bits()),
            _ => None,
        })
        .collect();
    let mut cls = [0u64; 20];
    let n = classes(&pseudo, k.me, k.hand, &mut cls);
    let sig = |m: u64| -> [u8; 20] {
        std::array::from_fn(|i| if i < n { (m & cls[i]).count_ones() as u8 } else { 0 })
    };
    let heur_sig = sig(heur_play);
    let mut out: Vec<u64> = Vec::new();
    if legal_plays.contains(&heur_play) {
        out.push(heur_play);
    }
    let mut rest: Vec<u64> = Vec::new();
    for_each_reduced_play(&pseudo, |m| {
        if legal_plays.contains(&m) && sig(m) != heur_sig {
            rest.push(m);
        }
    });
    if out.len() + rest.len() > max {
        // Keep multi-card leads and trump-ins, then alternate the cheapest and the richest.
        let trumps = t.suit_mask[TRUMPS];
        let (mut keep, mut others): (Vec<u64>, Vec<u64>) = rest.into_iter().partition(|&m| {
            (count == 0 && m.count_ones() >= 2) || (count > 0 && size >= 2 && m & !trumps == 0)
        });
        keep.sort_by_key(|&m| std::cmp::Reverse(m.count_ones()));
        let cost = |m: u64| bits(m).map(|c| ctx.throw_cost(c)).sum::<i32>();
        let give = |m: u64| bits(m).map(|c| ctx.give_value(c)).sum::<i32>();
        let mut cheap = others.clone();
        cheap.sort_by_key(|&m| (cost(m), m));
        others.sort_by_key(|&m| (std::cmp::Reverse(give(m)), m));
        let mut merged = Vec::new();
        let mut seen = HashSet::new();
        for i in 0..cheap.len() {
            for m in [cheap[i], others[i]] {
                if seen.insert(m) {
                    merged.push(m);
                }
            }
        }
        keep.extend(merged);
        keep.truncate(max.saturating_sub(out.len()).max(1));
        rest = keep;
    }
    out.extend(rest);
    if out.is_empty() {
        // Nothing generated is legal (cannot happen for a real view): the heuristic's fallback.
        if let Action::Play(s) = legal_or_fallback(None, legal) {
            out.push(s.bits());
        }
    }
    out
}

/// The `pimc` bot.
pub struct PimcBot {
    rng: Rng,
    search: Search,
}

impl PimcBot {
    /// A PIMC bot with its seed and budget.
    pub fn new(seed: u64, budget: Budget) -> PimcBot {
        PimcBot { rng: Rng::from_seed(seed), search: Search::new(Params::for_budget(budget)) }
    }

    /// A PIMC bot with explicit parameters.
    pub fn with_params(seed: u64, params: Params) -> PimcBot {
        PimcBot { rng: Rng::from_seed(seed), search: Search::new(params) }
    }

    fn play(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let k = Knowledge::from_view(view, legal)?;
        let cands = play_candidates(view, &k, legal, self.search.params.max_candidates);
        if cands.len() <= 1 {
            return cands.first().map(|&c| Action::Play(Cards::from_bits(c)));
        }
        let problem = Problem::of(&k);
        let n = self.search.params.samples as usize;
        let obs = infer::observed(view, &k);
        let draws = if obs.is_empty() { 1 } else { self.search.params.draws.max(1) as usize };
        let mut drawn: Vec<([u64; 5], f64)> = Vec::with_capacity(n * draws);
        for _ in 0..n * draws {
            let mut w = problem.sample(&mut self.rng);
            resplit_burial(&k, &mut w);
            let weight =
                if draws == 1 { 1.0 } else { infer::weight(view, &k, &obs, &w, self.search.params.miss) };
            drawn.push((w, weight));
        }
        let worlds: Vec<Pos> =
            resample(&drawn, n, &mut self.rng).into_iter().map(|w| pos_from_view(view, &k, &w)).collect();
        // Every world must give each seat the cards it holds (a real view always does).
        let sizes_ok = |p: &Pos| (0..4).all(|s| p.hands[s].count_ones() == u32::from(view.hand_sizes[s]));
        if !worlds.iter().all(sizes_ok) {
            return None;
        }
        let defends = view.seat?.team() != view.starter.team();
        let i = self.search.best_play(&worlds, &cands, defends);
        Some(Action::Play(Cards::from_bits(cands[i])))
    }

    fn bury(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let k = Knowledge::from_view(view, legal)?;
        let cands = bury_options(k.t, k.hand, self.search.params.bury_candidates);
        if cands.len() <= 1 {
            return cands.first().map(|&c| Action::Bury(Cards::from_bits(c)));
        }
        let w = self.weigh_bury(view, &k, &cands, None)?;
        Some(w.actions[w.choice])
    }

    /// What `pimc` weighs for a burial: each of `cands` (the bot's burial candidates, best
    /// first) and `extra` (another burial, valued beside them but never chosen) played out in
    /// the same sampled worlds; the payoffs summed, and the defenders' points.
    pub fn weigh_bury(
        &mut self,
        view: &View,
        k: &Knowledge,
        cands: &[u64],
        extra: Option<u64>,
    ) -> Option<Weighed> {
        let problem = Problem::of(k);
        let defends = view.seat?.team() != view.starter.team();
        let mut all = cands.to_vec();
        all.extend(extra.filter(|e| !cands.contains(e)));
        let mut sums = vec![0.0; all.len()];
        let mut points = vec![0.0; all.len()];
        let n = self.search.params.bury_samples;
        for _ in 0..n {
            let world = problem.sample(&mut self.rng);
            self.search.solver.new_world();
            for (j, &b) in all.iter().enumerate() {
                let pos = pos_after_burial(view, k, &world, b);
                let tv = self.search.rollout(pos, self.search.params.tail_cards);
                sums[j] += payoff(tv, defends);
                points[j] += f64::from(tv);
            }
        }
        let choice = argmax(&sums[..cands.len()]);
        Some(Weighed {
            actions: all.into_iter().map(|b| Action::Bury(Cards::from_bits(b))).collect(),
            considered: cands.len(),
            sums,
            points: Some(points),
            samples: n,
            choice,
        })
    }

    fn annul(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let w = self.weigh_annul(view, legal)?;
        Some(w.actions[w.choice])
    }

    /// What `pimc` weighs at an annulment poll: declining (passing), valued in sampled worlds by
    /// the rest of the deal, against annulling (worth 0 to both teams); the bot annuls when
    /// passing is worth less than 0 on average. `None` when annulling is not legal.
    pub fn weigh_annul(&mut self, view: &View, legal: &[Action]) -> Option<Weighed> {
        if !legal.contains(&Action::Annul) {
            return None;
        }
        let k = Knowledge::from_view(view, legal)?;
        let problem = Problem::of(&k);
        let mut sum = 0.0;
        let n = self.search.params.annul_samples;
        for _ in 0..n {
            let world = problem.sample(&mut self.rng);
            self.search.solver.new_world();
            sum += self.pass_value(view, &k, &world);
        }
        Some(Weighed {
            actions: vec![Action::Pass, Action::Annul],
            considered: 2,
            sums: vec![sum, 0.0],
            points: None,
            samples: n,
            choice: usize::from(sum / f64::from(n) < 0.0),
        })
    }

    /// The payoff of passing an annulment poll in a world: later seats without trumps annul by
    /// the heuristic's rule; otherwise the starter buries by the heuristic and the deal is played.
    fn pass_value(&mut self, view: &View, k: &Knowledge, world: &[u64; 5]) -> f64 {
        let t = k.t;
        let me = Seat::ALL[usize::from(k.me)];
        let starter = view.starter;
        let hand_of = |s: Seat| if s == me { k.hand } else { world[s.index()] };
        // Seats asked after this one, in play order from the starter.
        let order = starter.from_here();
        let pos_me = order.iter().position(|&s| s == me).unwrap_or(0);
        for &s in &order[pos_me + 1..] {
            let h = hand_of(s);
            let may = !(view.variants.annul == dabaifen::Annul::NonStartersOnly && s == starter);
            if may && h & t.suit_mask[TRUMPS] == 0 && policy::annul_choice(h) {
                return 0.0;
            }
        }
        let full = hand_of(starter) | world[KITTY];
        let b = policy::bury(t, full, bury_style(t, full));
        let mut hands = [0u64; 4];
        for s in Seat::ALL {
            hands[s.index()] = hand_of(s);
        }
        hands[starter.index()] = full & !b;
        let pos = Pos {
            t,
            hands,
            plays: [0; 4],
            leader: starter.number(),
            count: 0,
            size: 0,
            suit: 0,
            defenders: 1 - starter.team(),
            def_points: 0,
            kitty_points: pts(b),
            per_card: view.variants.kitty_multiplier == KittyMultiplier::PerCard,
            last_winner: 0,
            last_size: 1,
            buried: b,
            starter: starter.number(),
            void: [0; 4],
        };
        let tv = self.search.rollout(pos, self.search.params.tail_cards);
        payoff(tv, me.team() != starter.team())
    }

    fn declare(&mut self, view: &View, legal: &[Action]) -> Option<Action> {
        let w = self.weigh_declare(view, legal, None)?;
        Some(w.actions[w.choice])
    }

    /// What `pimc` weighs at a draw poll: passing and showing each card the hand supports (and
    /// `extra`, another showing valued beside them but never chosen), each played out by the
    /// heuristic from decks consistent with the view; the payoffs summed. The bot's choice adds
    /// [`DECLARE_MARGIN`] per deck to passing. A candidate the engine refused in some deck sums
    /// to minus infinity.
    pub fn weigh_declare(&mut self, view: &View, legal: &[Action], extra: Option<Action>) -> Option<Weighed> {
        let me = view.seat?;
        let hand = mask(&view.hand);
        let drawn_mine = hand.count_ones();
        // Only suits the hand supports are searched; a weak suit is never shown on a sampling
        // accident.
        let declares: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| match a {
                Action::Declare(c) => policy::declare_projection(hand, *c, drawn_mine) >= DECLARE_FLOOR,
                _ => false,
            })
            .collect();
        if declares.is_empty() && extra.is_none() {
            return Some(Weighed {
                actions: vec![Action::Pass],
                considered: 1,
                sums: vec![0.0],
                points: None,
                samples: 0,
                choice: 0,
            });
        }
        let mut cands = vec![Action::Pass];
        cands.extend(declares);
        let considered = cands.len();
        cands.extend(extra.filter(|e| !cands.contains(e)));
        let mut sums = vec![0.0; cands.len()];
        let mut used = 0;
        for _ in 0..self.search.params.declare_samples * 4 {
            if used == self.search.params.declare_samples {
                break;
            }
            let Some(st) = sample_draw_state(view, &mut self.rng) else { continue };
            used += 1;
            self.search.solver.new_world();
            for (j, &a) in cands.iter().enumerate() {
                let mut s = st.clone();
                if s.apply(a).is_err() {
                    sums[j] = f64::NEG_INFINITY;
                    continue;
                }
                sums[j] += self.search.finish(s, me);
            }
        }
        if used == 0 {
            return None;
        }
        // Showing must beat passing by a margin: every poll is a new chance to be fooled.
        let mut biased = sums[..considered].to_vec();
        biased[0] += DECLARE_MARGIN * f64::from(used);
        let choice = argmax(&biased);
        Some(Weighed { actions: cands, considered, sums, points: None, samples: used, choice })
    }
}

/// What `pimc` weighed at one decision before play (a showing, an annulment poll, a burial).
#[derive(Clone, Debug, PartialEq)]
pub struct Weighed {
    /// The moves valued: the bot's candidates first, then at most one other move.
    pub actions: Vec<Action>,
    /// How many of `actions` are the bot's candidates.
    pub considered: usize,
    /// Each move's payoff (as [`payoff`]) summed over the samples.
    pub sums: Vec<f64>,
    /// Each move's defenders' points summed over the samples, where the search measures them.
    pub points: Option<Vec<f64>>,
    /// The samples (worlds or decks) each move was valued in.
    pub samples: u32,
    /// The index in `actions` of the bot's choice.
    pub choice: usize,
}

/// The least [`policy::declare_projection`] for which `pimc` considers showing a card.
pub const DECLARE_FLOOR: f32 = 4.5;

/// How much more than passing (in game levels, averaged) showing a card must be worth.
pub const DECLARE_MARGIN: f64 = 0.05;

/// The burial candidates of a starter's hand: the heuristic's, then one per choice of voids with
/// and without unprotected points, best first, distinct, at most `max`.
pub fn bury_options(t: &Tables, hand: u64, max: usize) -> Vec<u64> {
    let mut out = vec![policy::bury(t, hand, bury_style(t, hand))];
    let mut all: Vec<(i32, u64)> = Vec::new();
    for style in [BuryStyle::SAFE, BuryStyle { points: true, ..BuryStyle::SAFE }] {
        all.extend(policy::bury_candidates(t, hand, style));
    }
    all.sort_by_key(|&(c, s)| (c, s));
    for (_, s) in all {
        if out.len() >= max {
            break;
        }
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The burials one card away from `burial` in a starter's `hand` (its 18 cards): each buried
/// card swapped for a kept one (6 × 12 of them), in the order of the buried card, then of the
/// kept card. The widened burial searches (`expert`'s, the analysis's) weigh these around their
/// best candidates: the best burial is often one card away from the heuristic's.
pub fn one_card_changes(hand: u64, burial: u64) -> impl Iterator<Item = u64> {
    bits(burial).flat_map(move |c| bits(hand & !burial).map(move |d| burial & !(1u64 << c) | 1u64 << d))
}

/// The position after the starter (this view's seat) buries `b` in a world.
pub(crate) fn pos_after_burial(view: &View, k: &Knowledge, world: &[u64; 5], b: u64) -> Pos {
    let me = k.me as usize;
    let mut hands = [0u64; 4];
    for (s, h) in hands.iter_mut().enumerate() {
        *h = if s == me { k.hand & !b } else { world[s] };
    }
    Pos {
        t: k.t,
        hands,
        plays: [0; 4],
        leader: k.me,
        count: 0,
        size: 0,
        suit: 0,
        defenders: 1 - view.starter.team(),
        def_points: 0,
        kitty_points: pts(b),
        per_card: view.variants.kitty_multiplier == KittyMultiplier::PerCard,
        last_winner: 0,
        last_size: 1,
        buried: b,
        starter: k.me,
        void: [0; 4],
    }
}

/// An engine state at this view's draw poll, from a deck consistent with the view: the seat's
/// drawn cards where it drew them (in a random order), every other card shuffled. `None` when
/// the sampled deck does not reach the poll (then another is drawn).
pub fn sample_draw_state(view: &View, rng: &mut Rng) -> Option<State> {
    let me = view.seat?;
    let mut mine: Vec<Card> = view.hand.clone();
    rng.shuffle(&mut mine);
    let held = mask(&view.hand);
    let mut rest: Vec<Card> = Card::all().filter(|c| held >> c.number() & 1 == 0).collect();
    rng.shuffle(&mut rest);
    let mut deck = [Card::BIG_JOKER; 54];
    let (mut mi, mut ri) = (0, 0);
    for (p, slot) in deck.iter_mut().enumerate() {
        let drawer = view.first_drawer.offset((p % 4) as u8);
        if p < usize::from(view.drawn) && p < 48 && drawer == me {
            *slot = *mine.get(mi)?;
            mi += 1;
        } else {
            *slot = *rest.get(ri)?;
            ri += 1;
        }
    }
    if mi != mine.len() {
        return None;
    }
    let setup = HandSetup {
        deck,
        starter: view.provisional_starter,
        first_deal: view.first_deal,
        open: view.open,
        ranks: view.ranks,
        variants: view.variants,
    };
    let mut st = State::new(&setup).ok()?;
    for _ in 0..600 {
        if st.phase() != Phase::Drawing || st.drawn() > view.drawn {
            return None;
        }
        if st.drawn() == view.drawn && st.to_move() == Some(me) {
            return Some(st);
        }
        st.apply_unchecked(Action::Pass);
    }
    None
}

impl Bot<Dabaifen> for PimcBot {
    fn name(&self) -> &str {
        "pimc"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let a = match view.phase {
            Phase::Drawing => self.declare(view, legal),
            Phase::Annulling => self.annul(view, legal),
            Phase::Burying => self.bury(view, legal),
            Phase::Playing => self.play(view, legal),
            Phase::Over => None,
        };
        let a = a.or_else(|| heuristic_action(view, legal));
        legal_or_fallback(a, legal)
    }
}

/// The `cheater`: the same search on the true state.
pub struct Cheater {
    search: Search,
}

impl Cheater {
    /// A cheater with its budget (it is deterministic: the seed is not needed).
    pub fn new(budget: Budget) -> Cheater {
        Cheater { search: Search::new(Params::cheater(budget)) }
    }

    /// A cheater with explicit parameters (its search on the true state).
    pub fn with_params(params: Params) -> Cheater {
        Cheater { search: Search::new(params) }
    }

    fn play(&mut self, st: &State, legal: &[Action]) -> Option<Action> {
        let pos = Pos::from_state(st)?;
        let legal_plays: HashSet<u64> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Play(s) => Some(s.bits()),
                _ => None,
            })
            .collect();
        let heur_play = Ctx::exact(&pos).choose();
        let mut cands = vec![heur_play];
        for_each_reduced_play(&pos, |m| {
            if m != heur_play && legal_plays.contains(&m) {
                cands.push(m);
            }
        });
        cands.retain(|m| legal_plays.contains(m));
        if cands.len() <= 1 {
            return cands.first().map(|&c| Action::Play(Cards::from_bits(c)));
        }
        let defends = pos.to_move() & 1 == pos.defenders;
        let i = self.search.best_play(&[pos], &cands, defends);
        Some(Action::Play(Cards::from_bits(cands[i])))
    }

    fn other(&mut self, st: &State, legal: &[Action]) -> Option<Action> {
        let seat = st.to_move()?;
        let cands: Vec<Action> = match st.phase() {
            Phase::Burying => {
                let t = st.tables()?;
                bury_options(t, st.hand(seat).bits(), self.search.params.bury_candidates)
                    .into_iter()
                    .map(|b| Action::Bury(Cards::from_bits(b)))
                    .collect()
            }
            _ => legal.to_vec(),
        };
        let mut best: Option<(f64, Action)> = None;
        for a in cands {
            let mut s = st.clone();
            if s.apply(a).is_err() {
                continue;
            }
            self.search.solver.new_world();
            let v = self.search.finish(s, seat);
            if best.is_none_or(|(b, _)| v > b + 1e-9) {
                best = Some((v, a));
            }
        }
        best.map(|(_, a)| a)
    }
}

impl Oracle<Dabaifen> for Cheater {
    fn name(&self) -> &str {
        "cheater"
    }

    fn choose(&mut self, st: &State, legal: &[Action]) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let a = match st.phase() {
            Phase::Playing => self.play(st, legal),
            Phase::Over => None,
            _ => self.other(st, legal),
        };
        let a = a.or_else(|| st.to_move().and_then(|s| heuristic_action(&st.view(s), legal)));
        legal_or_fallback(a, legal)
    }
}
