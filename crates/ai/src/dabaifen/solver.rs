//! The exact solver: alpha-beta with a transposition table over card bitsets, on a position
//! whose four hands are known (a sampled world, or the true state for the `cheater`).
//!
//! ## What it computes
//! The value of a position is the defenders' points still to come: the points of the tricks
//! they will win from here plus the kitty bonus if they win the last trick — so `T` (§9) is
//! `Pos::def_points` plus the value. Defenders maximize it, declarers minimize it. `T` is the
//! objective because every monotone payoff of `T` (the game-point table of §9, a win/loss) has
//! the same perfect-information minimax value after the mapping — `max`/`min` commute with a
//! non-decreasing function — so solving for `T` is exact for all of them, while `T`'s additivity
//! lets the transposition table store values that do not depend on how a position was reached.
//! PIMC maps each sample's exact `T` through the payoff it optimizes before averaging.
//!
//! ## What it searches (lossless)
//! Every legal, non-revoking play, up to interchangeable cards: two cards of a hand are
//! interchangeable when they are of one effective suit, have the same points, and no card of
//! another seat (in hand or already played to the trick in progress) is as strong as the weaker
//! and not stronger than the stronger. Swapping them changes no trick winner now or later (the
//! order of each seat's cards relative to the other seats' cards is the same), no top-card status
//! and no points. A play is therefore a number of cards from each class; the solver tries each
//! such count vector once. Revoking leads are not searched (a revoke is scored as losing every
//! trick: `T = 0` for offending defenders, the highest `T` the deal allows under `double` for
//! offending declarers).
//!
//! The transposition table holds bounds at trick boundaries, keyed on the four hands and the
//! leader, and is invalidated between worlds by a generation counter (the kitty's points, which
//! differ between sampled worlds, are part of the value).

use super::pos::{Pos, TRUMPS, bits};
use dabaifen::Cards;
use dabaifen::card::points;

/// Points of a set of cards.
#[inline]
pub fn pts(set: u64) -> u32 {
    points(Cards::from_bits(set))
}

/// A points class for a card: 0, 1 (a five) or 2 (a ten or king).
#[inline]
fn pclass(c: u32) -> u32 {
    match c % 13 {
        3 if c < 52 => 1,
        8 | 11 if c < 52 => 2,
        _ => 0,
    }
}

/// The classes of interchangeable cards among `cards` (cards of `seat`'s hand) in `pos`, as
/// masks in `out`; returns how many.
pub fn classes(pos: &Pos, seat: u8, cards: u64, out: &mut [u64; 20]) -> usize {
    let t = pos.t;
    let mut blk = 0u64;
    for s in 0..4u8 {
        if s != seat {
            blk |= pos.hands[s as usize] | pos.plays[s as usize];
        }
    }
    let mut keys = [0u32; 20];
    let mut n = 0;
    for c in bits(cards) {
        let st = t.stronger[c as usize];
        let eq = t.not_weaker[c as usize] & !st & !(1u64 << c);
        let key = u32::from(t.eff[c as usize]) << 12
            | (blk & st).count_ones() << 4
            | (blk & eq).count_ones() << 2
            | pclass(c);
        match keys[..n].iter().position(|&k| k == key) {
            Some(i) => out[i] |= 1u64 << c,
            None => {
                if n == out.len() {
                    // More classes than fit (never with 18 cards or fewer in one call): keep the
                    // card in a class of its own by merging into the last slot is not lossless,
                    // so give up on reduction for it by widening — unreachable in practice.
                    out[n - 1] |= 1u64 << c;
                    continue;
                }
                keys[n] = key;
                out[n] = 1u64 << c;
                n += 1;
            }
        }
    }
    n
}

/// Calls `f` with `acc` plus every choice of `k` cards from `classes`, one per count vector
/// (the lowest cards of each class).
fn choose(classes: &[u64], k: u32, acc: u64, f: &mut impl FnMut(u64)) {
    if k == 0 {
        f(acc);
        return;
    }
    let Some((&c, rest)) = classes.split_first() else { return };
    let rest_total: u32 = rest.iter().map(|m| m.count_ones()).sum();
    let avail = c.count_ones();
    let mut sel = 0u64;
    let mut m = c;
    let mut take = 0;
    loop {
        if k - take <= rest_total {
            choose(rest, k - take, acc | sel, f);
        }
        if take == avail || take == k {
            break;
        }
        let low = m & m.wrapping_neg();
        sel |= low;
        m &= !low;
        take += 1;
    }
}

/// Calls `f` with one play per class of equivalent legal, non-revoking plays of the seat to move.
pub fn for_each_reduced_play(pos: &Pos, mut f: impl FnMut(u64)) {
    let seat = pos.to_move();
    let hand = pos.hands[seat as usize];
    let t = pos.t;
    let mut cls = [0u64; 20];
    if pos.count == 0 {
        let n = classes(pos, seat, hand, &mut cls);
        for &c in &cls[..n] {
            f(c & c.wrapping_neg());
        }
        for suit in 0..5 {
            let tops = pos.tops(seat, suit);
            let total = tops.count_ones();
            if total < 2 {
                continue;
            }
            let n = classes(pos, seat, tops, &mut cls);
            for k in 2..=total {
                choose(&cls[..n], k, 0, &mut f);
            }
        }
        return;
    }
    let need = u32::from(pos.size);
    let led = hand & t.suit_mask[pos.suit as usize];
    let have = led.count_ones();
    if have >= need {
        let n = classes(pos, seat, led, &mut cls);
        choose(&cls[..n], need, 0, &mut f);
    } else {
        let n = classes(pos, seat, hand & !led, &mut cls);
        choose(&cls[..n], need - have, led, &mut f);
    }
}

#[derive(Copy, Clone, Default)]
struct Entry {
    hands: [u64; 4],
    /// Leader in the low 2 bits, the generation above.
    tag: u32,
    lo: i16,
    hi: i16,
}

/// Counters of one search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes visited (plays tried).
    pub nodes: u64,
}

/// The exact solver with its transposition table.
pub struct Solver {
    tt: Vec<Entry>,
    generation: u32,
    nodes: u64,
    limit: u64,
    bufs: Vec<Vec<(i32, u64)>>,
}

/// The search gave up: it would have visited more nodes than allowed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OutOfNodes;

const TT_BITS: u32 = 16;

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Solver {
        Solver {
            tt: vec![Entry::default(); 1 << TT_BITS],
            generation: 1,
            nodes: 0,
            limit: u64::MAX,
            bufs: Vec::new(),
        }
    }

    /// Forgets every stored bound (a new world: call between samples).
    pub fn new_world(&mut self) {
        self.generation = self.generation.wrapping_add(1) & 0x3FFF_FFFF;
        if self.generation == 0 {
            self.tt.iter_mut().for_each(|e| *e = Entry::default());
            self.generation = 1;
        }
    }

    /// Nodes visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact value (defenders' points still to come) of `pos`, or `OutOfNodes` if it would
    /// take more than `max_nodes` further nodes.
    pub fn value(&mut self, pos: &Pos, max_nodes: u64) -> Result<i32, OutOfNodes> {
        if pos.is_over() {
            return Ok(0);
        }
        self.limit = self.nodes.saturating_add(max_nodes);
        // MTD(f): null-window searches around a guess, narrowing [lower, upper] until they meet;
        // the table keeps the bounds each probe proved. Every value is a multiple of 5.
        let (mut lower, mut upper) = (0, max_future(pos));
        let mut g = self.probe(pos).map_or(upper / 2, |(l, h)| (l + h) / 2);
        while lower < upper {
            let beta = if g <= lower { lower + 1 } else { g.min(upper) };
            g = self.search(pos, beta - 1, beta, 0)?;
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
            g = (g / 5) * 5;
        }
        Ok(lower)
    }

    /// The exact value after the seat to move plays `set`: the points the play's trick (if it
    /// completes it) gives the defenders, plus the value of the position after it.
    pub fn value_after(&mut self, pos: &Pos, set: u64, max_nodes: u64) -> Result<i32, OutOfNodes> {
        let mut child = *pos;
        let gain = step(&mut child, set);
        if child.is_over() {
            return Ok(gain);
        }
        Ok(gain + self.value(&child, max_nodes)?)
    }

    fn probe(&self, pos: &Pos) -> Option<(i32, i32)> {
        let i = hash(pos) as usize & ((1 << TT_BITS) - 1);
        let e = &self.tt[i];
        (e.tag == (self.generation << 2 | u32::from(pos.leader)) && e.hands == pos.hands)
            .then_some((i32::from(e.lo), i32::from(e.hi)))
    }

    fn store(&mut self, pos: &Pos, lo: i32, hi: i32) {
        let i = hash(pos) as usize & ((1 << TT_BITS) - 1);
        self.tt[i] = Entry {
            hands: pos.hands,
            tag: self.generation << 2 | u32::from(pos.leader),
            lo: lo.clamp(-1, i16::MAX as i32) as i16,
            hi: hi.clamp(-1, i16::MAX as i32) as i16,
        };
    }

    fn search(&mut self, pos: &Pos, mut alpha: i32, mut beta: i32, ply: usize) -> Result<i32, OutOfNodes> {
        let boundary = pos.count == 0;
        let (mut lo, mut hi) = (0, max_future(pos));
        if boundary && let Some((l, h)) = self.probe(pos) {
            lo = lo.max(l);
            hi = hi.min(h);
        }
        if lo >= hi {
            return Ok(lo);
        }
        if lo >= beta {
            return Ok(lo);
        }
        if hi <= alpha {
            return Ok(hi);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let (a0, b0) = (alpha, beta);
        let maximizing = pos.to_move() & 1 == pos.defenders;
        if self.bufs.len() <= ply {
            self.bufs.push(Vec::with_capacity(32));
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        moves.clear();
        let so_far = TrickSoFar::of(pos);
        for_each_reduced_play(pos, |m| moves.push((order_score(pos, &so_far, m), m)));
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        let mut best = if maximizing { i32::MIN } else { i32::MAX };
        let mut result = Ok(());
        for &(_, m) in moves.iter() {
            self.nodes += 1;
            if self.nodes > self.limit {
                result = Err(OutOfNodes);
                break;
            }
            let mut child = *pos;
            let gain = step(&mut child, m);
            let v = if child.is_over() {
                gain
            } else {
                match self.search(&child, alpha - gain, beta - gain, ply + 1) {
                    Ok(v) => gain + v,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            };
            if maximizing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        let empty = moves.is_empty();
        self.bufs[ply] = moves;
        result?;
        if empty {
            // A seat with no card to play (only in an inconsistent position): nothing more to win.
            return Ok(0);
        }
        if boundary {
            // Fail-soft bounds: below the window an upper bound, above it a lower bound.
            let (l, h) = if best <= a0 {
                (lo, best.min(hi))
            } else if best >= b0 {
                (best.max(lo), hi)
            } else {
                (best, best)
            };
            self.store(pos, l, h);
        }
        Ok(best)
    }
}

/// Plays `set` and returns what it gives the defenders at once: the trick's points if it
/// completes a trick they win, plus the kitty bonus if that ends the deal.
#[inline]
pub fn step(pos: &mut Pos, set: u64) -> i32 {
    match pos.play(set) {
        None => 0,
        Some(end) => {
            let mut g = if end.winner & 1 == pos.defenders { end.points as i32 } else { 0 };
            if pos.is_over() && end.winner & 1 == pos.defenders {
                g += (pos.multiplier(pos.last_size) * pos.kitty_points) as i32;
            }
            g
        }
    }
}

/// An upper bound of the value: every point still in play, and the largest kitty bonus.
#[inline]
fn max_future(pos: &Pos) -> i32 {
    let all = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3];
    let trick = pos.plays[0] | pos.plays[1] | pos.plays[2] | pos.plays[3];
    let largest_last = if pos.per_card { pos.cards_per_hand().max(1) as u8 } else { 1 };
    (pts(all | trick) + pos.multiplier(largest_last) * pos.kitty_points) as i32
}

#[inline]
fn hash(pos: &Pos) -> u64 {
    let mut h = pos.hands[0].wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= pos.hands[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(17);
    h ^= pos.hands[2].wrapping_mul(0x1656_67B1_9E37_79F9).rotate_left(31);
    h ^= pos.hands[3].wrapping_mul(0x27D4_EB2F_1656_67C5).rotate_left(47);
    h ^= u64::from(pos.leader).wrapping_mul(0x85EB_CA77_C2B2_AE63);
    h ^ (h >> 29)
}

/// What move ordering needs to know about the trick in progress: the seat winning it so far,
/// its key, and the points in it.
#[derive(Copy, Clone)]
struct TrickSoFar {
    winner: u8,
    key: u64,
    points: i32,
}

impl TrickSoFar {
    #[inline]
    fn of(pos: &Pos) -> TrickSoFar {
        let (winner, key) = pos.current_winner();
        let points = pts(pos.plays[0] | pos.plays[1] | pos.plays[2] | pos.plays[3]) as i32;
        TrickSoFar { winner, key, points }
    }
}

/// A cheap guess of a play's merit for move ordering (higher first).
#[inline]
fn order_score(pos: &Pos, so_far: &TrickSoFar, m: u64) -> i32 {
    let t = pos.t;
    let seat = pos.to_move();
    let p = pts(m) as i32;
    if pos.count == 0 {
        // Leads: many top cards first, then top singles, then low cards.
        let n = m.count_ones() as i32;
        let c = m.trailing_zeros();
        let suit = t.eff[c as usize] as usize;
        let top = m & !pos.tops(seat, suit) == 0;
        return if top { 1000 + 100 * n + p } else { -(t.strength[c as usize] as i32) - p };
    }
    let trumps = t.suit_mask[TRUMPS];
    let led = t.suit_mask[pos.suit as usize];
    let eligible = m & !trumps == 0 || m & !led == 0;
    let winner = if eligible && t.key(m) > so_far.key { seat } else { so_far.winner };
    let n_trumps = (m & trumps).count_ones() as i32;
    if winner & 1 == seat & 1 {
        // Winning: with points, cheaply.
        500 + so_far.points + p - 3 * n_trumps
    } else {
        // Losing: keep points and trumps.
        -10 * p - 5 * n_trumps
    }
}
