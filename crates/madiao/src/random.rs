//! Random legal play: the policy `yezi sim` and `yezi bench` use, a seeded match simulator, and an
//! allocation-free playout loop for the benchmark.
//!
//! # The random policy
//! It samples without enumerating the legal actions, and only ever picks legal ones:
//! - a redeal question (§4.3): force the redeal with probability [`RandomPolicy::force_redeal`]
//!   (¼), otherwise decline;
//! - a lead: a uniformly random card of the hand, face up;
//! - a follower: a uniformly random card `c` of the hand; if playing `c` face up is a capture (in
//!   form, §9.6), capture with probability [`RandomPolicy::capture`] (¾), otherwise slough `c`;
//!   if it is not a capture, under `faceup_discard: penalty` discard it face up with probability
//!   [`RandomPolicy::faceup_discard`] (1/256: rare, but every penalty path is exercised), otherwise
//!   slough it.
//!
//! Sampling: a card is drawn with one 64-bit random number (Lemire's unbiased multiply-and-reject
//! for the index); the top 32 bits of the product's fraction, uniform up to 8/2³², decide
//! capture-or-slough and discard-or-slough against the probability as a 32-bit threshold.
//!
//! Every legal action has a positive probability: any card may be led; any card may be sloughed;
//! any capture may be made; under `penalty` any card may be discarded face up.

use crate::format::{MadiaoOutcome, MadiaoResult};
use cards::{BySeat, Rng, Seat};

use crate::card::{Card, canonical_deck};
use crate::deal::{BankerDraw, deck_from_seed, policy_rng};
use crate::game::{Match, MatchError};
use crate::state::{Action, HandSetup, IllegalAction, MatchProgress, Phase, SetupError, State};
use crate::variants::{FaceupDiscard, Variants};

/// The random policy's probabilities (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RandomPolicy {
    /// Probability that a long-suit holder forces a redeal.
    pub force_redeal: f64,
    /// Probability that a follower whose drawn card can capture plays it face up.
    pub capture: f64,
    /// Probability that a follower whose drawn card cannot capture discards it face up (only under
    /// `faceup_discard: penalty`).
    pub faceup_discard: f64,
}

impl Default for RandomPolicy {
    fn default() -> Self {
        RandomPolicy { force_redeal: 0.25, capture: 0.75, faceup_discard: 1.0 / 256.0 }
    }
}

/// A probability as a threshold on 32 random bits.
#[inline]
fn threshold(p: f64) -> u64 {
    (p.clamp(0.0, 1.0) * 4_294_967_296.0) as u64
}

/// The policy with its probabilities as integer thresholds (fast to sample).
#[derive(Copy, Clone, Debug)]
pub struct Sampler {
    redeal: u64,
    capture: u64,
    discard: u64,
}

impl From<RandomPolicy> for Sampler {
    fn from(p: RandomPolicy) -> Sampler {
        Sampler {
            redeal: threshold(p.force_redeal),
            capture: threshold(p.capture),
            discard: threshold(p.faceup_discard),
        }
    }
}

/// The number of the `k`-th lowest set bit of `mask`, which has more than `k` bits and at most 8
/// (a hand): a fixed number of steps without data-dependent branches.
#[inline]
fn nth_bit(mut mask: u64, k: u32) -> u8 {
    for j in 0..7 {
        let cleared = mask & mask.wrapping_sub(1);
        mask = if j < k { cleared } else { mask };
    }
    mask.trailing_zeros().min(39) as u8
}

/// A uniform number below `n` (unbiased: Lemire's multiply-and-reject on 64 bits) and 32 more
/// random bits — the top of the product's fraction — from one 64-bit draw.
#[inline]
fn below_and_bits(rng: &mut Rng, n: u64) -> (u32, u32) {
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(n);
        let lo = m as u64;
        if lo >= n || lo >= n.wrapping_neg() % n {
            return ((m >> 64) as u32, (lo >> 32) as u32);
        }
    }
}

/// Fisher–Yates (from the last position down) taking up to six indices from each 64-bit draw:
/// the batched ranged-integer method of Brackett-Rozinsky and Lemire, unbiased by rejection. Used
/// by the benchmark only; seeded decks ([`crate::deck_from_seed`]) use [`Rng::shuffle`].
#[inline]
pub fn shuffle_batched(rng: &mut Rng, deck: &mut [Card; 40]) {
    let mut i = 39u64;
    while i >= 1 {
        let k = i.min(6);
        let product: u64 = (0..k).map(|j| i + 1 - j).product();
        let mut js = [0u64; 6];
        loop {
            let mut r = rng.next_u64();
            for (j, slot) in js.iter_mut().enumerate().take(k as usize) {
                let m = u128::from(r) * u128::from(i + 1 - j as u64);
                *slot = (m >> 64) as u64;
                r = m as u64;
            }
            if r >= product || r >= product.wrapping_neg() % product {
                break;
            }
        }
        for (j, &slot) in js.iter().enumerate().take(k as usize) {
            deck.swap((i - j as u64) as usize, slot as usize);
        }
        i -= k;
    }
}

impl Sampler {
    #[inline]
    fn yes(rng: &mut Rng, t: u64) -> bool {
        u64::from(rng.next_u32()) < t
    }

    /// A random legal action for the seat to move, or `None` when the hand is over.
    #[inline]
    pub fn choose(&self, st: &State, rng: &mut Rng) -> Option<Action> {
        match st.phase {
            Phase::Over => None,
            Phase::Redeal => Some(Action::Redeal(Self::yes(rng, self.redeal))),
            Phase::Play => {
                let hand = st.hands[st.to_move.index()];
                // The seat to move has played one card in each earlier trick: 8 - trick remain.
                let (k, bits) = below_and_bits(rng, 8 - u64::from(st.trick));
                let c = Card::from_u8(nth_bit(hand, k));
                if st.pos == 0 {
                    return Some(Action::Play(c));
                }
                let bits = u64::from(bits);
                let capture = st.led & c.bit() != 0 && c.number() > st.best;
                Some(if capture {
                    if bits < self.capture { Action::Play(c) } else { Action::Slough(c) }
                } else if st.variants.faceup_discard == FaceupDiscard::Penalty && bits < self.discard {
                    Action::Play(c)
                } else {
                    Action::Slough(c)
                })
            }
        }
    }
}

/// Plays a hand to its end with the policy through the checked path ([`State::apply`]).
pub fn play_out_checked(st: &mut State, sampler: &Sampler, rng: &mut Rng) -> Result<(), IllegalAction> {
    while let Some(a) = sampler.choose(st, rng) {
        st.apply(a)?;
    }
    Ok(())
}

/// What the benchmark loop returns: how many hands of each outcome, and a checksum of every
/// payoff (so the work cannot be optimized away and runs can be compared).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchTally {
    /// Hands played out (every outcome counts as a hand).
    pub hands: u64,
    /// Hands by outcome: played, meld, four lowest, redeal.
    pub outcomes: [u64; 4],
    /// A hash of every hand's payoffs and tricks, in order.
    pub checksum: u64,
}

/// Index of an outcome in [`BenchTally::outcomes`] and the simulator's tallies.
pub fn outcome_index(o: MadiaoOutcome) -> usize {
    match o {
        MadiaoOutcome::Played => 0,
        MadiaoOutcome::Meld => 1,
        MadiaoOutcome::FourLowest => 2,
        MadiaoOutcome::Redeal => 3,
    }
}

/// The benchmark: `hands` random full hands with the complete rules — a fresh deck, the
/// declarations, play, the settlement, the next banker (drawn again when the rules say so) and
/// the match's end (a new match follows) — through the unchecked fast path, allocation-free.
///
/// Randomness: one ChaCha8 stream `Rng::from_seed(seed)` shuffles the pack before each hand (a
/// Fisher–Yates shuffle of the previous hand's order, which is as uniform as shuffling a fresh
/// pack, with several indices per draw: [`shuffle_batched`]), draws bankers, and makes the
/// policy's choices.
pub fn bench(seed: u64, hands: u64, variants: Variants, policy: RandomPolicy) -> BenchTally {
    let sampler = Sampler::from(policy);
    let mut rng = Rng::from_seed(seed);
    let mut deck = canonical_deck();
    let mut tally = BenchTally::default();
    let mut progress = MatchProgress::default();
    let mut banker = BankerDraw::from_rng(&mut rng).banker;
    for _ in 0..hands {
        shuffle_batched(&mut rng, &mut deck);
        let setup = HandSetup { banker, stake: 2, deck, variants, progress };
        let mut st = State::new_from_valid(setup);
        while let Some(a) = sampler.choose(&st, &mut rng) {
            st.apply_unchecked(a);
        }
        let pay = st.payoffs();
        let mut h = tally.checksum;
        for (p, t) in pay.0.iter().zip(st.tricks) {
            h = (h ^ (p.0 as u32 as u64) ^ (u64::from(t) << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        tally.checksum = h;
        tally.hands += 1;
        let outcome = st.outcome.unwrap_or(MadiaoOutcome::Played);
        tally.outcomes[outcome_index(outcome)] += 1;
        // §7 The next hand: a new match after the last one, else the next banker or a draw.
        if st.game_over() {
            progress = MatchProgress::default();
            banker = BankerDraw::from_rng(&mut rng).banker;
        } else {
            if outcome != MadiaoOutcome::Redeal {
                progress.hands_before += 1;
            }
            progress.banked[banker] = true;
            banker = match st.next_banker() {
                Some(b) => b,
                None => BankerDraw::from_rng(&mut rng).banker,
            };
        }
    }
    tally
}

/// One hand of a simulation.
#[derive(Clone, Debug)]
pub struct SimHand {
    /// The hand number in the simulation (from 0).
    pub number: u64,
    /// The seed the hand was dealt from: its match's seed ([`cards::deal::sim_match_seed`]).
    pub seed: u64,
    /// The match's number in the simulation (from 0).
    pub match_index: u32,
    /// The hand's number in its match (from 0): its deck is `deck_from_seed(seed, hand)`.
    pub hand: u64,
    /// True for the first hand of a match.
    pub new_match: bool,
    /// The draw that chose this hand's banker, when one was made.
    pub draw: Option<BankerDraw>,
    /// The finished hand.
    pub state: State,
    /// Its result.
    pub result: MadiaoResult,
}

/// Why a simulation stopped (a bug: the policy or the engine disagreeing with the rules).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The deck or the stake was rejected.
    #[error("hand {0}: {1}")]
    Setup(u64, SetupError),
    /// The policy chose an action the checked path rejected.
    #[error("hand {0}: {1}")]
    Illegal(u64, IllegalAction),
    /// The match refused the hand.
    #[error("hand {0}: {1}")]
    Match(u64, MatchError),
}

/// Plays matches from a seed with the random policy through the checked path, one hand per call
/// of [`Iterator::next`], forever (a new match follows a finished one).
///
/// Hand `k` of match `m` (both from 0) uses the streams for hand `k` (see [`crate::deal`]) of
/// the match's seed, [`cards::deal::sim_match_seed`]`(seed, m)` (the seed itself for the first
/// match): its deck, its banker draw when needed, its stake and its policy choices.
pub struct Simulator {
    seed: u64,
    stake: u32,
    stake_max: u32,
    sampler: Sampler,
    current: Match,
    next: u64,
    /// The current match's number (from 0) and the next hand's number in it.
    match_index: u32,
    in_match: u64,
}

impl Simulator {
    /// A simulation of matches under `variants` at `stake` chips per stake.
    pub fn new(seed: u64, variants: Variants, stake: u32, policy: RandomPolicy) -> Simulator {
        Simulator {
            seed,
            stake,
            stake_max: stake,
            sampler: policy.into(),
            current: Match::new(variants),
            next: 0,
            match_index: 0,
            in_match: 0,
        }
    }

    /// The same simulation with named stakes: hand `k` of a match's stake is
    /// [`crate::deal::stake_from_seed`]`(match seed, k, max)` when `max` is above the stake given.
    pub fn with_stake_max(mut self, max: u32) -> Simulator {
        self.stake_max = max;
        self
    }

    /// Plays the next hand. Hand j of match m (both from 0) is dealt, drawn for, staked and
    /// played as hand j of the match's seed [`cards::deal::sim_match_seed`]`(seed, m)`, so that
    /// each match is what a table dealing from that seed would deal (`docs/record.md`).
    pub fn play_hand(&mut self) -> Result<SimHand, SimError> {
        let number = self.next;
        self.next += 1;
        let new_match = self.current.is_over() || self.current.hands_finished() == 0;
        if self.current.is_over() {
            self.current = Match::new(*self.current.variants());
            self.match_index += 1;
            self.in_match = 0;
        }
        let seed = cards::deal::sim_match_seed(self.seed, self.match_index);
        let k = self.in_match;
        self.in_match += 1;
        let draw = self.current.next_banker().is_none().then(|| BankerDraw::from_seed(seed, k));
        let banker = self.current.next_banker().or(draw.map(|d| d.banker)).unwrap_or(Seat::ALL[0]);
        let stake = if self.stake_max > self.stake {
            crate::deal::stake_from_seed(seed, k, self.stake_max)
        } else {
            self.stake
        };
        let setup = self
            .current
            .setup(banker, stake, deck_from_seed(seed, k))
            .map_err(|e| SimError::Match(number, e))?;
        let mut state = State::new(setup).map_err(|e| SimError::Setup(number, e))?;
        let mut rng = policy_rng(seed, k);
        play_out_checked(&mut state, &self.sampler, &mut rng).map_err(|e| SimError::Illegal(number, e))?;
        let result = self.current.finish(&state).map_err(|e| SimError::Match(number, e))?;
        Ok(SimHand { number, seed, match_index: self.match_index, hand: k, new_match, draw, state, result })
    }
}

impl Iterator for Simulator {
    type Item = Result<SimHand, SimError>;
    fn next(&mut self) -> Option<Self::Item> {
        Some(self.play_hand())
    }
}

/// Totals of payoffs per seat, for summaries.
pub fn add_payoffs(acc: &mut BySeat<i64>, result: &MadiaoResult) {
    for (a, p) in acc.0.iter_mut().zip(result.payoffs.0) {
        *a += i64::from(p.0);
    }
}
