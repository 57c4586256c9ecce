//! The random policy and allocation-free random playouts (`yezi sim`, `yezi bench`).
//!
//! The policy only ever picks legal actions and can reach every legal action:
//! - draw poll: declare with probability 1/40 per poll (a card chosen uniformly among those the
//!   seat may show), else pass — so most deals see a declaration and some turn the kitty;
//! - annulment poll: annul with probability 1/2 (holding no trump is already rare);
//! - burial: six cards chosen uniformly from the starter's eighteen;
//! - lead: under `revoke: penalize`, with probability 1/256 (when the hand allows one) a revoke:
//!   a uniformly random suit among those where the seat has two or more cards including a non-top
//!   card, then a uniform subset of two or more of its cards containing a non-top card; otherwise
//!   with probability 1/4 (when the seat has two top cards of a suit) a multi-card lead: a uniform
//!   suit among those with two or more top cards, then a uniform subset of two or more of them;
//!   otherwise one card chosen uniformly from the hand;
//! - follow: uniformly random cards among those that satisfy §8 (a uniform subset of the right
//!   size of the led suit, or all of it plus a uniform subset of the rest).
//!
//! Bots built later should treat revokes as the mistakes they are: legal to play, never chosen.

use cards::{Rng, Seat};

use crate::card::{Card, Cards};
use crate::game::Match;
use crate::score::DealResult;
use crate::setup::{FIRST_DRAW_STREAM, POLICY_STREAM, canonical_deck, deck_from_seed};
use crate::state::{Action, Phase, State};
use crate::variants::{Revoke, Variants};

/// Per-poll chance of declaring, out of 2^32.
const DECLARE: u32 = (u32::MAX / 40) + 1;
/// Chance of a multi-card lead when one is possible, out of 2^32.
const MULTI: u32 = 1 << 30;
/// Chance of a revoke when one is possible (under `penalize`), out of 2^32.
const REVOKE: u32 = 1 << 24;

/// The random policy (see the module documentation).
#[derive(Clone, Debug)]
pub struct RandomPolicy {
    rng: Rng,
}

impl RandomPolicy {
    /// A policy drawing from `rng`.
    pub fn new(rng: Rng) -> RandomPolicy {
        RandomPolicy { rng }
    }

    /// The policy of deal `deal` of `seed` (stream `POLICY_STREAM + deal`).
    pub fn for_deal(seed: u64, deal: u64) -> RandomPolicy {
        RandomPolicy::new(Rng::from_seed_stream(seed, POLICY_STREAM + deal))
    }

    /// `k` distinct cards of `mask` chosen uniformly (`k` ≤ its size).
    #[inline]
    fn pick(&mut self, mut mask: u64, k: u32) -> u64 {
        if k >= mask.count_ones() {
            return mask;
        }
        let mut out = 0;
        for _ in 0..k {
            let b = 1u64 << self.rng.pick_bit(mask);
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
            Phase::Drawing => {
                if self.rng.next_u32() < DECLARE {
                    let can = st.declarable(seat).bits();
                    Action::Declare(Card::from_number(self.rng.pick_bit(can) as u8).expect("a card number"))
                } else {
                    Action::Pass
                }
            }
            Phase::Annulling => {
                if self.rng.next_u32() >> 31 == 1 {
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

    fn play(&mut self, st: &State, seat: Seat) -> u64 {
        let t = st.tables;
        let hand = st.hands[seat.index()];
        let trick = &st.tricks[st.trick_no as usize];
        if trick.count > 0 {
            let n = trick.size as u32;
            let led = hand & t.suit_mask[trick.suit.index()];
            let have = led.count_ones();
            return if have >= n { self.pick(led, n) } else { led | self.pick(hand & !led, n - have) };
        }
        let r = self.rng.next_u32();
        if r < MULTI && hand.count_ones() >= 2 {
            let penalize = st.variants.revoke == Revoke::Penalize;
            let mut multi = [0u64; 5];
            let mut tops = [0u64; 5];
            let mut nm = 0;
            let mut revoke = [0u64; 5];
            let mut revoke_tops = [0u64; 5];
            let mut nr = 0;
            for s in 0..5 {
                let mine = hand & t.suit_mask[s];
                if mine.count_ones() < 2 {
                    continue;
                }
                let tp = st.tops_in(seat, mine);
                if tp.count_ones() >= 2 {
                    multi[nm] = mine;
                    tops[nm] = tp;
                    nm += 1;
                }
                if penalize && tp != mine {
                    revoke[nr] = mine;
                    revoke_tops[nr] = tp;
                    nr += 1;
                }
            }
            if nr > 0 && r < REVOKE {
                let i = self.rng.index(nr);
                let tp = revoke_tops[i];
                return self.subset(revoke[i], |s| s & !tp != 0);
            }
            if nm > 0 {
                let i = self.rng.index(nm);
                return self.subset(tops[i], |_| true);
            }
        }
        1u64 << self.rng.pick_bit(hand)
    }
}

/// Plays a deal to its end with the policy, through the unchecked fast path.
pub fn play_out(st: &mut State, policy: &mut RandomPolicy) {
    while st.to_move().is_some() {
        let a = policy.choose(st);
        st.apply_unchecked(a);
    }
}

/// Plays a deal to its end with the policy through the checked path; returns the actions taken.
/// An illegal choice (a policy bug) is reported as an error naming it.
pub fn play_out_checked(st: &mut State, policy: &mut RandomPolicy) -> Result<Vec<(Seat, Action)>, String> {
    let mut out = Vec::new();
    while let Some(seat) = st.to_move() {
        let a = policy.choose(st);
        st.apply(a).map_err(|e| format!("the random policy chose an illegal action ({a}): {e}"))?;
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

/// The provisional starter of a new match drawn without allocating (same draw as
/// [`crate::first_draw`]).
fn draw_starter(rng: &mut Rng) -> Seat {
    let mut pack = canonical_deck();
    rng.shuffle(&mut pack);
    let mut next = 0usize;
    let mut in_draw = [true; 4];
    loop {
        let needed = in_draw.iter().filter(|&&b| b).count();
        if next + needed > pack.len() {
            pack = canonical_deck();
            rng.shuffle(&mut pack);
            next = 0;
        }
        let mut st = [None; 4];
        for s in 0..4 {
            if in_draw[s] {
                st[s] = Some(pack[next].draw_strength());
                next += 1;
            }
        }
        let best = st.iter().flatten().max().copied().unwrap_or(0);
        let mut n = 0;
        let mut last = 0;
        for s in 0..4 {
            in_draw[s] = st[s] == Some(best);
            if in_draw[s] {
                n += 1;
                last = s;
            }
        }
        if n == 1 {
            return Seat::wrapping(last);
        }
    }
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

/// Plays `deals` random deals of seed `seed` as a chain of matches (a new match starts after each
/// game over), through the fast path, allocating nothing per deal. Deal `k` uses the deck and the
/// policy stream of deal `k` (see [`crate::setup`]).
pub fn bench(variants: Variants, seed: u64, deals: u64) -> BenchTotals {
    let mut totals = BenchTotals::default();
    let mut m = Match::new(variants, draw_starter(&mut Rng::from_seed_stream(seed, FIRST_DRAW_STREAM)));
    for k in 0..deals {
        if m.is_over() {
            totals.matches += 1;
            m = Match::new(variants, draw_starter(&mut Rng::from_seed_stream(seed, FIRST_DRAW_STREAM + k)));
        }
        let setup = m.setup(deck_from_seed(seed, k));
        let mut st = State::new_unchecked(&setup);
        let mut policy = RandomPolicy::for_deal(seed, k);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_starter_agrees_with_first_draw() {
        for s in 0..300 {
            let a = draw_starter(&mut Rng::from_seed(s));
            let b = crate::setup::first_draw(&mut Rng::from_seed(s)).starter;
            assert_eq!(a, b, "seed {s}");
        }
    }
}
