//! The random policy and allocation-free random playouts (`yezi sim`, `yezi bench`).
//!
//! The policy only ever picks legal actions and can reach every legal action:
//! - draw poll: declare with probability 1/16 per poll (a card chosen uniformly among those the
//!   seat may show), else pass — so about 97 deals in 100 see a declaration and about 3 turn the
//!   kitty (a uniform choice among the poll's actions would declare at the first poll and almost
//!   never turn the kitty);
//! - annulment poll: annul with probability 1/2 (holding no trump is already rare);
//! - burial: six cards chosen uniformly from the starter's eighteen;
//! - lead: with probability 1/4, a suit chosen uniformly among those where the seat holds two or
//!   more cards: under `revoke: penalize`, if that suit holds a non-top card, with probability
//!   1/128 a revoke (a uniform subset of two or more of its cards containing a non-top card);
//!   otherwise, if it holds two or more top cards, a multi-card lead (a uniform subset of two or
//!   more of them); in every other case one card chosen uniformly from the hand;
//! - follow: uniformly random cards among those that satisfy §8 (a uniform subset of the right
//!   size of the led suit, or all of it plus a uniform subset of the rest).
//!
//! Random bits for the coin flips come from a buffered `next_u64`; uniform choices among `n`
//! use [`cards::Rng::below`].
//!
//! Bots built later should treat revokes as the mistakes they are: legal to play, never chosen.

use cards::{Rng, Seat};

use crate::card::{Card, Cards};
use crate::game::Match;
use crate::score::DealResult;
use crate::setup::{FIRST_DRAW_STREAM, deal_from_seed, draw_for_starter};
use crate::state::{Action, IllegalAction, Phase, State};
use crate::variants::{Revoke, Variants};

/// Random bits per poll: declare when they are all zero (1/16).
const DECLARE_BITS: u32 = 4;
/// Random bits per lead: try a multi-card lead when they are all zero (1/4).
const MULTI_BITS: u32 = 2;
/// Further random bits when the chosen suit holds a non-top card: a revoke when all zero (1/128).
const REVOKE_BITS: u32 = 7;

/// The random policy (see the module documentation).
#[derive(Clone, Debug)]
pub struct RandomPolicy {
    rng: Rng,
    /// Unused random bits of the last `next_u64`, and how many are left.
    buf: u64,
    nbits: u32,
}

impl RandomPolicy {
    /// A policy drawing from `rng`.
    #[inline]
    pub fn new(rng: Rng) -> RandomPolicy {
        RandomPolicy { rng, buf: 0, nbits: 0 }
    }

    /// True with probability 2^-k (k ≤ 32), from buffered random bits.
    #[inline]
    fn one_in_pow2(&mut self, k: u32) -> bool {
        if self.nbits < k {
            self.buf = self.rng.next_u64();
            self.nbits = 64;
        }
        let v = self.buf & ((1 << k) - 1);
        self.buf >>= k;
        self.nbits -= k;
        v == 0
    }

    /// One card of `mask` (not empty) chosen uniformly.
    #[inline]
    fn pick1(&mut self, mask: u64) -> u64 {
        if mask & (mask - 1) == 0 {
            return mask;
        }
        let prefix = byte_prefix_counts(mask);
        let k = self.rng.below((prefix >> 56) as u32);
        1u64 << select(mask, prefix, k)
    }

    /// `k` distinct cards of `mask` chosen uniformly (all of them if `k` ≥ its size).
    #[inline]
    fn pick(&mut self, mut mask: u64, k: u32) -> u64 {
        if k >= mask.count_ones() {
            return mask;
        }
        let mut out = 0;
        for _ in 0..k {
            let b = self.pick1(mask);
            out |= b;
            mask &= !b;
        }
        out
    }

    /// A uniform subset of `mask` with at least two members, all in `mask`, and meeting `ok`.
    #[inline]
    fn subset(&mut self, mask: u64, ok: impl Fn(u64) -> bool) -> u64 {
        loop {
            let s = self.rng.next_u64() & mask;
            if s.count_ones() >= 2 && ok(s) {
                return s;
            }
        }
    }

    /// The action for the seat to move (`Action::Pass` if the deal is over).
    pub fn choose(&mut self, st: &State) -> Action {
        let Some(seat) = st.to_move() else { return Action::Pass };
        match st.phase() {
            Phase::Drawing => self.poll(st, seat),
            Phase::Annulling => {
                if self.one_in_pow2(1) {
                    Action::Annul
                } else {
                    Action::Pass
                }
            }
            Phase::Burying => Action::Bury(Cards::from_bits(self.pick(st.hands[seat.index()], 6))),
            Phase::Playing => Action::Play(Cards::from_bits(self.play(st, seat))),
            Phase::Over => Action::Pass,
        }
    }

    #[inline]
    fn poll(&mut self, st: &State, seat: Seat) -> Action {
        if self.one_in_pow2(DECLARE_BITS) {
            let can = self.pick1(st.declarable(seat).bits());
            Action::Declare(Card::from_number(can.trailing_zeros() as u8).expect("a card number"))
        } else {
            Action::Pass
        }
    }

    #[inline]
    fn play(&mut self, st: &State, seat: Seat) -> u64 {
        let t = st.tables;
        let hand = st.hands[seat.index()];
        let trick = &st.tricks[st.trick_no as usize];
        if trick.count > 0 {
            let led = hand & t.suit_mask[trick.suit.index()];
            if trick.size == 1 {
                return self.pick1(if led != 0 { led } else { hand });
            }
            return self.follow_many(hand, led, trick.size as u32);
        }
        if self.one_in_pow2(MULTI_BITS)
            && let Some(set) = self.multi_lead(st, seat, hand)
        {
            return set;
        }
        self.pick1(hand)
    }

    /// A follow of a lead of `n` cards (§8): as many of the led suit as held, the rest free.
    #[inline(never)]
    fn follow_many(&mut self, hand: u64, led: u64, n: u32) -> u64 {
        let have = led.count_ones();
        if have >= n { self.pick(led, n) } else { led | self.pick(hand & !led, n - have) }
    }

    /// A multi-card lead (or, rarely, a revoke), if the hand has one.
    #[inline(never)]
    fn multi_lead(&mut self, st: &State, seat: Seat, hand: u64) -> Option<u64> {
        let t = st.tables;
        let mut suits = [0usize; 5];
        let mut n = 0;
        for (s, &m) in t.suit_mask.iter().enumerate() {
            let mine = hand & m;
            if mine & mine.wrapping_sub(1) != 0 {
                suits[n] = s;
                n += 1;
            }
        }
        if n == 0 {
            return None;
        }
        let s = suits[self.rng.index(n)];
        let mine = hand & t.suit_mask[s];
        let tops = t.tops(mine, st.others(seat), s);
        if st.variants.revoke == Revoke::Penalize && tops != mine && self.one_in_pow2(REVOKE_BITS) {
            return Some(self.subset(mine, |x| x & !tops != 0));
        }
        if tops & tops.wrapping_sub(1) != 0 {
            return Some(self.subset(tops, |_| true));
        }
        None
    }
}

const L8: u64 = 0x0101_0101_0101_0101;
const H8: u64 = 0x8080_8080_8080_8080;

/// For each byte `i` of the result, the number of set bits of `x` in bytes `0..=i` (so the top
/// byte is the population count), computed without branches.
#[inline]
fn byte_prefix_counts(x: u64) -> u64 {
    let mut s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    s.wrapping_mul(L8)
}

/// The position of the set bit of number `k` (from 0, lowest first) in each byte value.
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The position of the set bit of number `k` (from 0, lowest first) of `x`, given
/// `prefix = byte_prefix_counts(x)` and `k` below its population count (broadword selection,
/// branch-free: a random `k` would make a bit-clearing loop mispredict its exit).
#[inline]
fn select(x: u64, prefix: u64, k: u32) -> u32 {
    let kk = u64::from(k) * L8;
    // Bytes whose running count is ≤ k come before the byte holding the bit.
    let le = ((kk | H8) - prefix) & H8;
    let byte = ((le >> 7).wrapping_mul(L8) >> 56) as u32;
    let before = ((prefix << 8) >> (8 * byte)) & 0xFF;
    let within = (u64::from(k) - before) as usize;
    let b = ((x >> (8 * byte)) & 0xFF) as usize;
    8 * byte + u32::from(SELECT_IN_BYTE[b][within & 7])
}

/// Plays a deal to its end with the policy, through the unchecked fast path (the same choices as
/// [`RandomPolicy::choose`], with the action kind known to the compiler in the two hot phases).
pub fn play_out(st: &mut State, policy: &mut RandomPolicy) {
    while let Some(seat) = st.to_move() {
        match st.phase {
            Phase::Playing => {
                let set = policy.play(st, seat);
                st.apply_unchecked(Action::Play(Cards::from_bits(set)));
            }
            Phase::Drawing => {
                let a = policy.poll(st, seat);
                st.apply_unchecked(a);
            }
            _ => {
                let a = policy.choose(st);
                st.apply_unchecked(a);
            }
        }
    }
}

/// An action the random policy chose that the engine refuses (a bug in the policy).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the random policy chose an illegal action ({action}): {error}")]
pub struct IllegalChoice {
    /// The action chosen.
    pub action: Action,
    /// Why the engine refuses it.
    pub error: IllegalAction,
}

/// Plays a deal to its end with the policy through the checked path; returns the actions taken.
/// An illegal choice (a policy bug) is reported as an error naming it.
pub fn play_out_checked(
    st: &mut State,
    policy: &mut RandomPolicy,
) -> Result<Vec<(Seat, Action)>, IllegalChoice> {
    let mut out = Vec::new();
    while let Some(seat) = st.to_move() {
        let a = policy.choose(st);
        st.apply(a).map_err(|error| IllegalChoice { action: a, error })?;
        out.push((seat, a));
    }
    Ok(out)
}

/// What a benchmark run counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchTotals {
    /// Deals played (annulled ones included).
    pub deals: u64,
    /// Matches completed.
    pub matches: u64,
    /// A checksum of every result (defenders' points, ranks, next starters, outcomes).
    pub checksum: u64,
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
}

/// Folds a result into a checksum.
pub fn checksum(h: u64, r: &DealResult) -> u64 {
    let x = u64::from(r.defender_points.unwrap_or(999))
        | u64::from(r.ranks[0].index()) << 12
        | u64::from(r.ranks[1].index()) << 16
        | u64::from(r.next_starter.number()) << 20
        | (r.outcome as u64) << 24
        | u64::from(r.levels) << 28;
    mix(h, x)
}

/// The provisional starter of the match that begins at deal `k` of seed `seed`: the first draw
/// (§4) with the draw stream of deal `k`, keeping no cards.
fn match_starter(seed: u64, k: u64) -> Seat {
    draw_for_starter(&mut Rng::from_seed_stream(seed, FIRST_DRAW_STREAM + k), |_| {})
}

/// Plays `deals` random deals of seed `seed` as a chain of matches (a new match starts after each
/// game over), through the fast path, allocating nothing per deal. Deal `k` uses the deck and the
/// policy stream of deal `k` (see [`crate::setup`]).
pub fn bench(variants: Variants, seed: u64, deals: u64) -> BenchTotals {
    let mut totals = BenchTotals::default();
    let mut m = Match::new(variants, match_starter(seed, 0));
    for k in 0..deals {
        if m.is_over() {
            totals.matches += 1;
            m = Match::new(variants, match_starter(seed, k));
        }
        let (deck, rng) = deal_from_seed(seed, k);
        let mut st = State::new_unchecked(&m.setup(deck));
        let mut policy = RandomPolicy::new(rng);
        play_out(&mut st, &mut policy);
        let r = st.result().expect("a played-out deal has a result");
        totals.checksum = checksum(totals.checksum, r);
        m.record(r);
        totals.deals += 1;
    }
    if m.is_over() {
        totals.matches += 1;
    }
    totals
}

/// What [`bench_legal`] counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalTotals {
    /// Calls of [`State::for_each_legal_action`] for a seat to lead.
    pub lead_calls: u64,
    /// Actions they produced.
    pub lead_actions: u64,
    /// Calls for a seat to follow.
    pub follow_calls: u64,
    /// Actions they produced.
    pub follow_actions: u64,
}

/// Plays `deals` random deals (as [`bench()`] does) and, before every play, enumerates the legal
/// actions of the seat to move with [`State::for_each_legal_action`] (no allocation), counting
/// them: a measure of legal-action generation in the search path.
pub fn bench_legal(variants: Variants, seed: u64, deals: u64) -> LegalTotals {
    let mut totals = LegalTotals::default();
    let mut m = Match::new(variants, match_starter(seed, 0));
    for k in 0..deals {
        if m.is_over() {
            m = Match::new(variants, match_starter(seed, k));
        }
        let (deck, rng) = deal_from_seed(seed, k);
        let mut st = State::new_unchecked(&m.setup(deck));
        let mut policy = RandomPolicy::new(rng);
        while st.to_move().is_some() {
            if st.phase == Phase::Playing {
                let mut n = 0u64;
                st.for_each_legal_action(|_| n += 1);
                if st.tricks[st.trick_no as usize].count == 0 {
                    totals.lead_calls += 1;
                    totals.lead_actions += n;
                } else {
                    totals.follow_calls += 1;
                    totals.follow_actions += n;
                }
            }
            let a = policy.choose(&st);
            st.apply_unchecked(a);
        }
        m.record(st.result().expect("a played-out deal has a result"));
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_every_set_bit() {
        let mut rng = Rng::from_seed(5);
        for _ in 0..2000 {
            let x = rng.next_u64() & rng.next_u64() & ((1 << 54) - 1);
            let prefix = byte_prefix_counts(x);
            assert_eq!((prefix >> 56) as u32, x.count_ones());
            let want: Vec<u32> = (0..64).filter(|i| x >> i & 1 == 1).collect();
            for (k, &pos) in want.iter().enumerate() {
                assert_eq!(select(x, prefix, k as u32), pos, "{x:#x} k={k}");
            }
        }
    }
}
