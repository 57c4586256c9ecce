//! The exact solver for a Madiao position with every card known: alpha-beta over the moves of
//! [`Pos::moves`] (one per class of equivalent cards), with a transposition table keyed on the
//! four hands as bitsets and what of the past still matters to the settlement (tricks per seat,
//! the special cards each seat won with, the stock check's card played face up) at trick
//! boundaries.
//!
//! Madiao is not a two-sided game — every seat settles for itself — so the solver takes an
//! *objective*: a set of seats that maximize a weighted sum of payoffs while the other seats
//! minimize it. With the banker alone on one side this is the banker against the coalition of the
//! players (the players' payoffs sum to minus the banker's); with one player alone it is that
//! player against everyone ("paranoid").

use super::pos::{Ctx, MoveList, Mv, Pos, TB, TQ, TW, W0, bits, representative_of};

/// The objective: a weighted sum of the seats' payoffs, maximized by the seats of `max` and
/// minimized by the others.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Objective {
    /// The maximizing seats (bit per seat).
    pub max: u8,
    /// Each seat's payoff's weight in the value.
    pub weights: [i32; 4],
}

impl Objective {
    /// The summed payoff of the seats of `max`, which maximize it against the others.
    pub const fn sum_of(max: u8) -> Objective {
        let w = [(max & 1) as i32, ((max >> 1) & 1) as i32, ((max >> 2) & 1) as i32, ((max >> 3) & 1) as i32];
        Objective { max, weights: w }
    }

    /// The value of a payoff vector.
    #[inline]
    pub fn value(self, pay: &[i32; 4]) -> i32 {
        self.weights[0] * pay[0]
            + self.weights[1] * pay[1]
            + self.weights[2] * pay[2]
            + self.weights[3] * pay[3]
    }

    /// True when `seat` maximizes.
    #[inline]
    pub fn maximizes(self, seat: u8) -> bool {
        self.max & (1 << seat) != 0
    }
}

const INF: i32 = 1 << 20;

#[derive(Copy, Clone, Default)]
struct Entry {
    key: [u64; 4],
    generation: u32,
    lo: i32,
    hi: i32,
    best: u8,
}

/// An alpha-beta solver with its transposition table (reused across searches; a new context or
/// objective starts a new generation, so stale entries are never read).
pub struct Solver {
    table: Vec<Entry>,
    generation: u32,
    ctx: Option<(Ctx, Objective)>,
    special: [u8; 16],
    n_special: usize,
    /// Nodes visited since the solver was made.
    pub nodes: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(16)
    }
}

impl Solver {
    /// A solver with a table of `2^bits` entries (allocated at the first search).
    pub fn new(bits: u32) -> Solver {
        Solver {
            table: Vec::with_capacity(1 << bits.min(24)),
            generation: 0,
            ctx: None,
            special: [0; 16],
            n_special: 0,
            nodes: 0,
        }
    }

    fn prepare(&mut self, ctx: &Ctx, obj: Objective) {
        if self.table.is_empty() {
            let n = self.table.capacity().max(1 << 10).next_power_of_two();
            self.table = vec![Entry::default(); n];
        }
        if self.ctx != Some((*ctx, obj)) {
            self.ctx = Some((*ctx, obj));
            self.n_special = 0;
            for c in bits(ctx.special() | TW | TQ | TB | W0) {
                if self.n_special < 16 {
                    self.special[self.n_special] = c;
                    self.n_special += 1;
                }
            }
            self.generation = self.generation.wrapping_add(1);
            if self.generation == 0 {
                self.table.iter_mut().for_each(|e| *e = Entry::default());
                self.generation = 1;
            }
        }
    }

    /// The exact value of `pos` for `obj`.
    pub fn value(&mut self, ctx: &Ctx, pos: &Pos, obj: Objective) -> i32 {
        self.prepare(ctx, obj);
        self.mtdf(ctx, pos, obj, 0)
    }

    /// MTD(f): the exact value by null-window searches from a first guess (values are whole
    /// half-stakes).
    fn mtdf(&mut self, ctx: &Ctx, pos: &Pos, obj: Objective, guess: i32) -> i32 {
        let (mut lo, mut hi) = (-INF, INF);
        let mut g = guess;
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            g = self.search(ctx, pos, obj, beta - 1, beta);
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        g
    }

    /// The exact value of `pos` after each move the searcher considers (one per class of
    /// equivalent cards).
    pub fn move_values(&mut self, ctx: &Ctx, pos: &Pos, obj: Objective) -> Vec<(Mv, i32)> {
        self.prepare(ctx, obj);
        let mut list = MoveList::default();
        pos.moves(ctx, &mut list);
        let mut guess = 0;
        list.as_slice()
            .iter()
            .map(|&m| {
                let mut child = *pos;
                child.play(ctx, m);
                guess = self.mtdf(ctx, &child, obj, guess);
                (m, guess)
            })
            .collect()
    }

    /// The value of a legal move of the seat to move from the values of [`Solver::move_values`]
    /// (an equivalent card's value for a card that is not a representative); `None` for a
    /// face-up card that is not a lead or a capture that can win (a face-up discard, or a trick-8
    /// card of a seat without a trick), which the searcher never plays.
    pub fn lookup(ctx: &Ctx, pos: &Pos, values: &[(Mv, i32)], mv: Mv) -> Option<i32> {
        let hand = pos.hands[pos.to_move as usize];
        let card = mv.card();
        if mv.is_up() && pos.pos > 0 && pos.captures() & (1u64 << card) == 0 {
            return None;
        }
        let rep = representative_of(card, hand, pos.live(), ctx.special());
        let want = if mv.is_up() { Mv::up(rep) } else { Mv::down(rep) };
        values.iter().find(|(m, _)| *m == want).map(|&(_, v)| v)
    }

    fn key(&self, pos: &Pos) -> [u64; 4] {
        let mut k = [0u64; 4];
        for (s, word) in k.iter_mut().enumerate() {
            let mut w = 0u64;
            for (i, &c) in self.special[..self.n_special].iter().enumerate() {
                w |= ((pos.won[s] >> c) & 1) << i;
            }
            *word = pos.hands[s] | (u64::from(pos.tricks[s]) << 40) | (w << 44);
        }
        k[0] |= (u64::from(pos.to_move) << 60) | (u64::from(pos.check_up) << 62);
        // Within a trick: how many cards are down, the best card and its seat.
        if pos.pos > 0 {
            k[1] |=
                (u64::from(pos.pos) << 54) | (u64::from(pos.best_seat) << 56) | (u64::from(pos.best) << 58);
        }
        k
    }

    fn slot(&self, key: &[u64; 4]) -> usize {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for w in key {
            h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29);
        }
        h ^= h >> 32;
        (h as usize) & (self.table.len() - 1)
    }

    fn search(&mut self, ctx: &Ctx, pos: &Pos, obj: Objective, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if pos.is_over() {
            return obj.value(&pos.payoffs(ctx));
        }
        let (mut a, mut b) = (alpha, beta);
        let boundary = true;
        let mut key = [0u64; 4];
        let mut slot = 0;
        let mut tt_best = None;
        if boundary {
            key = self.key(pos);
            slot = self.slot(&key);
            let e = self.table[slot];
            if e.generation == self.generation && e.key == key {
                if e.lo >= b {
                    return e.lo;
                }
                if e.hi <= a {
                    return e.hi;
                }
                if e.lo == e.hi {
                    return e.lo;
                }
                a = a.max(e.lo);
                b = b.min(e.hi);
                tt_best = Some(e.best);
            }
        }
        let (a0, b0) = (a, b);
        let maximizing = obj.maximizes(pos.to_move);
        let mut list = MoveList::default();
        pos.moves(ctx, &mut list);
        order(pos, obj, list.as_mut_slice(), tt_best);
        let mut best = if maximizing { -INF } else { INF };
        let mut best_move = 0u8;
        for &m in list.as_slice() {
            let mut child = *pos;
            child.play(ctx, m);
            let v = self.search(ctx, &child, obj, a, b);
            if maximizing {
                if v > best {
                    best = v;
                    best_move = raw(m);
                }
                a = a.max(best);
            } else {
                if v < best {
                    best = v;
                    best_move = raw(m);
                }
                b = b.min(best);
            }
            if a >= b {
                break;
            }
        }
        if boundary {
            let (mut lo, mut hi) = (-INF, INF);
            if best <= a0 {
                hi = best;
            } else if best >= b0 {
                lo = best;
            } else {
                lo = best;
                hi = best;
            }
            let e = &mut self.table[slot];
            if e.generation == self.generation && e.key == key {
                e.lo = e.lo.max(lo);
                e.hi = e.hi.min(hi);
                e.best = best_move;
            } else {
                *e = Entry { key, generation: self.generation, lo, hi, best: best_move };
            }
        }
        best
    }
}

/// A card's rank within its suit, 0 for the lowest.
#[inline]
fn rank(c: u8) -> i32 {
    i32::from(c) - [0, 11, 20, 29][super::pos::suit_of(c)]
}

#[inline]
fn raw(m: Mv) -> u8 {
    if m.is_up() { m.card() } else { m.card() | 0x40 }
}

/// Move ordering: the table's best move first; a side that is winning the trick sloughs low
/// first, a side that is losing it captures high first; a leader tries high cards first.
fn order(pos: &Pos, obj: Objective, moves: &mut [Mv], tt_best: Option<u8>) {
    let me_max = obj.maximizes(pos.to_move);
    let winning = pos.pos > 0 && obj.maximizes(pos.best_seat) == me_max;
    moves.sort_by_key(|&m| {
        let c = rank(m.card());
        let first = if tt_best == Some(raw(m)) { -1000 } else { 0 };
        first
            + if pos.pos == 0 {
                -c
            } else if winning {
                if m.is_up() { 100 - c } else { c }
            } else if m.is_up() {
                -c
            } else {
                100 + c
            }
    });
}
