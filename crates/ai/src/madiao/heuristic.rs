//! `heuristic`: fast rule-based Madiao play a decent player would recognise.
//!
//! The bot weighs each trick by what it is worth in the settlement (§6): the trick-count line
//! (short of 2 tricks −1, 3 or more +1, a slam), a reward card winning it, the Hundred Myriad's
//! lines and the knock — for its own hand value and, as the banker's hand value is paid by every
//! player, for the banker's. From that:
//! - **Take cheap tricks the banker would otherwise win**: a player captures a trick the banker is
//!   winning whenever the capture is worth its card, with the lowest card that will hold (or, with
//!   the banker still to play, the highest); a trick a fellow player is winning is left to him
//!   unless the bot needs it more (co-operation against the banker).
//! - **Guard and capture the Hundred Myriad**: the holder keeps `TB` until it is the highest tens
//!   card left and then wins a trick with it, aiming at exactly the trick count the
//!   `hm_bonus_tricks` line wants (and stops taking tricks once it has the +3 line and the knock);
//!   anyone holding `TQ` or `TW` captures a led `TB`.
//! - **Keep reward cards for tricks that pay**: a reward card is led or used to capture only when
//!   it wins, and never sloughed while a plain card can go.
//! - **Slough low cards face down**: a card is given up by its keep value (its chance of winning a
//!   trick later, its rank, its special worth); the bot never discards face up (a slough is always
//!   as good and free), and at trick 8 without a trick it only sloughs.
//! - **Use the long-suit redeal wisely**: force a redeal when the hand's expected tricks (the
//!   chance of each card winning when led, counting the cards it has not seen) fall short of what
//!   its role needs.
//!
//! The same rules drive the rollouts of `pimc`, where every card of the sampled world is known.

use madiao::variants::{HmBonusTricks, Slam};
use madiao::{Action, Variants, View};

use super::know::Knowledge;
use super::pos::{Ctx, Mv, Pos, TB, TQ, TW, above, bits, suit_mask_of};
use crate::{Bot, Madiao};

/// What the rules see of a seat's situation.
#[derive(Copy, Clone, Debug)]
pub struct Seen<'a> {
    /// The seat.
    pub me: u8,
    /// The banker.
    pub banker: u8,
    /// My hand.
    pub hand: u64,
    /// For each seat, the cards it may hold (mine: none).
    pub maybe: [u64; 4],
    /// For each seat, the chance that a card of `maybe` is in its hand (1 when known).
    pub p: [f64; 4],
    /// The trick state (hands unused).
    pub pos: &'a Pos,
    /// The reward cards.
    pub reward: u64,
    /// The HM holder when known (`None`: unknown, or in the stock).
    pub hm_holder: Option<u8>,
    /// The rules.
    pub variants: &'a Variants,
}

/// The trick-count line of §6.2 for `t` tricks.
fn count_line(t: i32, v: &Variants) -> f64 {
    match t {
        ..=1 => -1.0,
        2 => 0.0,
        3..=7 => 1.0,
        _ => {
            if v.slam == Slam::Adds {
                9.0
            } else {
                8.0
            }
        }
    }
}

impl Seen<'_> {
    #[inline]
    fn others(&self) -> impl Iterator<Item = u8> + '_ {
        (0..4u8).filter(move |&s| s != self.me)
    }

    /// The chance that nobody among `seats` holds a card of `cards`.
    fn none_hold(&self, cards: u64, seats: impl Iterator<Item = u8>) -> f64 {
        let mut p = 1.0;
        for s in seats {
            let n = (cards & self.maybe[s as usize]).count_ones();
            if n > 0 {
                p *= (1.0 - self.p[s as usize]).powi(n as i32);
            }
        }
        p
    }

    /// The chance that card `c`, led, is not captured (everyone who can capture does).
    pub fn p_win_lead(&self, c: u8) -> f64 {
        self.none_hold(above(c), self.others())
    }

    /// The seats still to play to the current trick after me.
    fn later(&self) -> impl Iterator<Item = u8> + '_ {
        let n = 3 - self.pos.pos.min(3);
        (1..=n).map(move |k| (self.me + k) & 3)
    }

    /// My expected tricks to come from my hand, besides the current trick.
    fn future_tricks(&self, without: u64) -> f64 {
        bits(self.hand & !without)
            .map(|c| self.p_win_lead(c))
            .sum::<f64>()
            .min(f64::from(self.pos.tricks_left()))
    }

    /// What winning one more trick with `card` adds to `seat`'s hand value, given the tricks it
    /// has and (for me) expects.
    fn trick_value(&self, seat: u8, card: u8, expect: f64) -> f64 {
        let v = self.variants;
        let have = i32::from(self.pos.tricks[seat as usize]);
        let t = have + expect.round() as i32;
        let mut gain = count_line(t + 1, v) - count_line(t, v);
        if have == 0 {
            // The first trick also opens trick 8 and is the way to the minimum.
            gain += 0.4;
        }
        if self.reward & (1u64 << card) != 0 && t + 1 >= 2 {
            gain += 1.0;
        }
        if self.hm_holder == Some(seat) {
            let won_hm = self.pos.won[seat as usize] & TB != 0 || card == 37;
            let line = |k: i32, hm: bool| -> f64 {
                let cond = match v.hm_bonus_tricks {
                    HmBonusTricks::Exactly2 => k == 2,
                    HmBonusTricks::AtLeast2 => k >= 2,
                };
                let knock = if seat != self.banker { 2.0 } else { 0.0 };
                if k < 2 {
                    1.0
                } else if hm && cond {
                    3.0 + knock
                } else {
                    2.0
                }
            };
            let had_hm = self.pos.won[seat as usize] & TB != 0;
            gain += line(t + 1, won_hm) - line(t, had_hm);
        }
        gain
    }

    /// My utility (in stakes) of `winner` taking the current trick with `card`.
    fn utility(&self, winner: u8, card: u8) -> f64 {
        let me_expect = self.future_tricks(1u64 << card);
        let other_expect = 0.5;
        if self.me == self.banker {
            if winner == self.me {
                3.0 * self.trick_value(winner, card, me_expect)
            } else {
                -self.trick_value(winner, card, other_expect)
            }
        } else if winner == self.me {
            self.trick_value(winner, card, me_expect)
        } else if winner == self.banker {
            -self.trick_value(winner, card, other_expect)
        } else {
            // A fellow player's trick: a little good (it is not the banker's).
            0.1
        }
    }

    /// What keeping card `c` is worth for later (in stakes, roughly).
    pub fn keep_value(&self, c: u8) -> f64 {
        let bit = 1u64 << c;
        let p = self.p_win_lead(c);
        let mut k = p * 0.8;
        if self.reward & bit != 0 {
            k += 0.3 + 0.7 * p;
        }
        if bit & TB != 0 && self.hm_holder == Some(self.me) {
            k += 1.0;
        }
        if bit & (TW | TQ) != 0 {
            k += 0.2;
        }
        // Higher cards of a suit are worth a little more than lower ones.
        let rank = f64::from(c) - f64::from(suit_mask_of(c).trailing_zeros());
        k + rank * 0.01
    }

    /// The card to slough: the one least worth keeping.
    pub fn slough_card(&self) -> u8 {
        let mut best = None;
        for c in bits(self.hand) {
            let k = self.keep_value(c);
            if best.is_none_or(|(_, bk)| k < bk) {
                best = Some((c, k));
            }
        }
        best.map_or(0, |(c, _)| c)
    }

    /// The move the rules choose.
    pub fn choose(&self) -> Mv {
        let pos = self.pos;
        if pos.pos == 0 {
            return Mv::up(self.lead());
        }
        if pos.ignored & (1 << self.me) != 0 {
            return Mv::down(self.slough_card());
        }
        let caps = self.hand & pos.led & !((2u64 << pos.best) - 1);
        if caps == 0 {
            return Mv::down(self.slough_card());
        }
        // The capture card: the lowest that holds against the later seats; failing that, with
        // the banker still to play, the highest; else the lowest.
        let later: Vec<u8> = self.later().collect();
        let hold = |c: u8| self.none_hold(above(c), later.iter().copied());
        let sure = bits(caps).find(|&c| hold(c) > 0.95);
        let banker_later = self.me != self.banker && later.contains(&self.banker);
        let lowest = caps.trailing_zeros() as u8;
        let highest = 63 - caps.leading_zeros() as u8;
        let card = sure.unwrap_or(if banker_later { highest } else { lowest });
        let p_hold = hold(card);
        // Capturing a led HM denies its holder the +3 line (and the knock).
        let deny_hm = pos.best == 37 && pos.best_seat != self.me;
        let gain = self.utility(self.me, card) - self.utility(pos.best_seat, pos.best);
        let slough = self.slough_card();
        let cost = self.keep_value(card) - if slough == card { 0.0 } else { self.keep_value(slough) };
        let value = p_hold * gain - cost * 0.5 + if deny_hm { 1.0 } else { 0.0 };
        if value > 0.05 { Mv::up(card) } else { Mv::down(slough) }
    }

    /// The card to lead.
    fn lead(&self) -> u8 {
        let mut best: Option<(u8, f64)> = None;
        for c in bits(self.hand) {
            let p = self.p_win_lead(c);
            let win = self.utility(self.me, c);
            // If the card loses, the banker may take the trick (for a player), or a player may
            // (for the banker).
            let lose = if self.me == self.banker {
                self.utility((self.me + 1) & 3, 0)
            } else {
                let pb = 1.0 - self.none_hold(above(c), std::iter::once(self.banker));
                pb * self.utility(self.banker, 0) + (1.0 - pb) * 0.1
            };
            let score = p * win + (1.0 - p) * lose - 0.5 * self.keep_value(c) * (1.0 - p);
            // The HM holder waits with TB until it is the highest tens card left.
            let score =
                if c == 37 && self.hm_holder == Some(self.me) && p < 0.99 { score - 2.0 } else { score };
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((c, score));
            }
        }
        best.map_or(self.hand.trailing_zeros() as u8, |(c, _)| c)
    }

    /// My expected tricks from my hand (for the redeal decision).
    pub fn hand_strength(&self) -> f64 {
        self.future_tricks(0)
    }
}

/// The rules' view of a seat from what it knows.
pub fn seen_from_knowledge(k: &Knowledge) -> Seen<'_> {
    let others_cards: u32 = (0..4).filter(|&s| s != k.me as usize).map(|s| u32::from(k.sizes[s])).sum();
    let n = k.unknown.count_ones().max(1);
    let mut maybe = [k.unknown; 4];
    maybe[k.me as usize] = 0;
    let p =
        std::array::from_fn(|s| if s == k.me as usize { 0.0 } else { f64::from(k.sizes[s]) / f64::from(n) });
    let _ = others_cards;
    Seen {
        me: k.me,
        banker: k.banker,
        hand: k.hand,
        maybe,
        p,
        pos: &k.pos,
        reward: k.reward,
        hm_holder: k.known_hm_holder(),
        variants: &k.variants,
    }
}

/// The rules' view of the seat to move in a position where every card is known (rollouts).
pub fn seen_exact<'a>(ctx: &'a Ctx, pos: &'a Pos) -> Seen<'a> {
    let me = pos.to_move;
    let mut maybe = pos.hands;
    maybe[me as usize] = 0;
    let mut p = [1.0; 4];
    p[me as usize] = 0.0;
    Seen {
        me,
        banker: ctx.banker,
        hand: pos.hands[me as usize],
        maybe,
        p,
        pos,
        reward: ctx.reward,
        hm_holder: ctx.hm_holder,
        variants: &ctx.variants,
    }
}

/// Plays the rules for every seat from `pos` until `stop` tricks are left (at a trick's start)
/// or the hand ends. Returns the number of moves made.
pub fn rollout(ctx: &Ctx, pos: &mut Pos, stop: u8) -> u32 {
    let mut n = 0;
    while !(pos.is_over() || (pos.pos == 0 && pos.tricks_left() <= stop)) {
        let mv = seen_exact(ctx, pos).choose();
        pos.play(ctx, mv);
        n += 1;
    }
    n
}

/// The expected tricks a hand needs not to force a redeal: the banker's hand value counts three
/// times, so he is choosier.
pub const REDEAL_BELOW: [f64; 2] = [1.8, 1.7];

/// The redeal decision of the rules: force when the hand's expected tricks are below
/// [`REDEAL_BELOW`] for the role (banker, player) and it does not hold the HM.
pub fn wants_redeal(k: &Knowledge) -> bool {
    let seen = seen_from_knowledge(k);
    let threshold = if k.me == k.banker { REDEAL_BELOW[0] } else { REDEAL_BELOW[1] };
    k.hand & TB == 0 && seen.hand_strength() < threshold
}

/// The `heuristic` bot.
pub struct HeuristicBot;

impl HeuristicBot {
    /// The bot (it has no randomness; the seed is not needed).
    pub fn new() -> HeuristicBot {
        HeuristicBot
    }
}

impl Default for HeuristicBot {
    fn default() -> Self {
        HeuristicBot::new()
    }
}

/// The heuristic's choice among `legal` for the seat whose knowledge is `k`.
pub fn choose(k: &Knowledge, legal: &[Action]) -> Action {
    if legal.iter().any(|a| matches!(a, Action::Redeal(_))) {
        return Action::Redeal(wants_redeal(k));
    }
    let mv = seen_from_knowledge(k).choose();
    let a = mv.action();
    if legal.contains(&a) {
        a
    } else {
        // Never reached with a consistent view; stay legal whatever happens.
        legal.iter().copied().find(|a| matches!(a, Action::Slough(_))).unwrap_or(legal[0])
    }
}

impl Bot<Madiao> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        choose(&Knowledge::from_view(view), legal)
    }
}
