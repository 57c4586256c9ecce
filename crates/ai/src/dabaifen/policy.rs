//! Rule-based play, as a decent player would: the `heuristic` bot, and the rollout policy of
//! `pimc` and `cheater`.
//!
//! Every decision works from a [`Ctx`]: the seat's hand, what each other seat may hold, known
//! voids, the trick in progress and what the last trick is worth. The bot fills it from its view
//! (what each seat *may* hold), a rollout from a sampled world (what each seat holds): the same
//! rules then play with exact knowledge.
//!
//! The rules, in order:
//! - **Leading**: a hand of nothing but top cards of one suit is led whole. Otherwise the top
//!   cards of a plain suit, together, when no opponent can trump them (a void with enough trumps);
//!   then several top trumps together while opponents may hold trumps (drawing them, keeping
//!   trump control); then a single top card of a plain suit no opponent can trump, the suit with
//!   the most points still out first; a single top trump when holding four or more trumps; a low
//!   card of a suit the partner can trump; else the cheapest card (no points, low, not a trump,
//!   from a short suit). Multi-card leads are only ever of cards that are top cards whatever the
//!   hidden cards are — never a revoke.
//! - **Following one card**: if the partner is winning and no opponent still to play can beat
//!   him, give points (the richest card allowed that is not a trump or a top card); else win if a
//!   card wins for sure against the seats still to play (the richest such card, then the
//!   cheapest; trumping only for a trick with points, the last trick, or when long in trumps);
//!   when the partner has already played and an opponent wins a rich trick, try the strongest
//!   winner; otherwise throw the cheapest card.
//! - **Following several cards**: give points to a partner's winning lead, trump in with as many
//!   trumps when void and the trick is worth it, else throw the cheapest cards.
//! - **The last trick** counts the kitty bonus (estimated when the burial is hidden) as points.

use dabaifen::{Card, Rank, Suit, Tables, Trump};

use super::pos::{Pos, TRUMPS, bits, trick_winner};
use super::solver::pts;

/// What a seat knows when it plays, for the rules of this module.
#[derive(Copy, Clone, Debug)]
pub struct Ctx {
    /// The card order.
    pub t: &'static Tables,
    /// The seat to play.
    pub me: u8,
    /// Its hand.
    pub hand: u64,
    /// The cards each seat may hold (`maybe[me]` is `hand`).
    pub maybe: [u64; 4],
    /// Known voids by seat (bit per effective suit).
    pub void: [u8; 4],
    /// The trick in progress: leader, plays so far, lead size and suit.
    pub leader: u8,
    /// Plays made to the trick.
    pub count: u8,
    /// Lead size (0 before the lead).
    pub size: u8,
    /// Effective suit of the lead.
    pub suit: u8,
    /// Each seat's play to the trick.
    pub plays: [u64; 4],
    /// The defenders' team.
    pub defenders: u8,
    /// The kitty bonus the defenders get if they take the last trick (an estimate when hidden).
    pub bonus: u32,
}

impl Ctx {
    /// The context of the seat to move in a world where every hand is known.
    #[inline]
    pub fn exact(pos: &Pos) -> Ctx {
        let me = pos.to_move();
        let lead_size = if pos.count == 0 {
            // The bonus of a last trick led now: the whole hand if it is led at once.
            pos.hands[me as usize].count_ones() as u8
        } else {
            pos.size
        };
        Ctx {
            t: pos.t,
            me,
            hand: pos.hands[me as usize],
            maybe: pos.hands,
            void: [0; 4],
            leader: pos.leader,
            count: pos.count,
            size: pos.size,
            suit: pos.suit,
            plays: pos.plays,
            defenders: pos.defenders,
            bonus: pos.multiplier(lead_size) * pos.kitty_points,
        }
    }

    /// The context of the seat to move in a world where every hand is known, but with only what
    /// that seat could know: its hand, the cards it has not seen (less the suits each seat has
    /// shown void; the burial is known to the starter only), the trick, and an estimate of the
    /// kitty's points when it is hidden.
    #[inline]
    pub fn honest(pos: &Pos) -> Ctx {
        let me = pos.to_move();
        let hand = pos.hands[me as usize];
        let mut unseen = pos.others(me);
        if me != pos.starter {
            unseen |= pos.buried;
        }
        let t = pos.t;
        let mut maybe = [0u64; 4];
        for (s, m) in maybe.iter_mut().enumerate() {
            *m = if s == me as usize {
                hand
            } else {
                let mut v = unseen;
                let void = pos.void[s];
                if void != 0 {
                    for e in 0..5 {
                        if void >> e & 1 != 0 {
                            v &= !t.suit_mask[e];
                        }
                    }
                }
                v
            };
        }
        let lead_size = if pos.count == 0 { hand.count_ones() as u8 } else { pos.size };
        let kitty =
            if me == pos.starter { pos.kitty_points } else { pts(unseen) * 6 / unseen.count_ones().max(6) };
        Ctx {
            t,
            me,
            hand,
            maybe,
            void: pos.void,
            leader: pos.leader,
            count: pos.count,
            size: pos.size,
            suit: pos.suit,
            plays: pos.plays,
            defenders: pos.defenders,
            bonus: pos.multiplier(lead_size) * kitty,
        }
    }

    #[inline]
    fn partner(&self) -> u8 {
        (self.me + 2) & 3
    }

    /// Cards that may be in the other seats' hands.
    #[inline]
    fn unseen(&self) -> u64 {
        let mut u = 0;
        for s in 0..4 {
            if s != self.me as usize {
                u |= self.maybe[s];
            }
        }
        u
    }

    /// Seat `s` holds (or may hold) no card of suit `e`.
    #[inline]
    fn may_void(&self, s: u8, e: usize) -> bool {
        self.void[s as usize] >> e & 1 != 0 || self.maybe[s as usize] & self.t.suit_mask[e] == 0
    }

    /// My top cards of suit `e` whatever the hidden cards are.
    #[inline]
    fn tops(&self, e: usize) -> u64 {
        self.t.tops(self.hand & self.t.suit_mask[e], self.unseen(), e)
    }

    /// Opponent `o` may trump a lead of `n` cards of plain suit `e`.
    #[inline]
    fn may_ruff(&self, o: u8, e: usize, n: u32) -> bool {
        e != TRUMPS
            && self.may_void(o, e)
            && (self.maybe[o as usize] & self.t.suit_mask[TRUMPS]).count_ones() >= n
    }

    #[inline]
    fn opponents(&self) -> [u8; 2] {
        [(self.me + 1) & 3, (self.me + 3) & 3]
    }

    /// The cost of throwing card `c` (lower is cheaper).
    pub fn throw_cost(&self, c: u32) -> i32 {
        let t = self.t;
        let e = t.eff[c as usize] as usize;
        let s = i32::from(t.strength[c as usize]);
        let mut cost = 12 * pts(1u64 << c) as i32;
        if e == TRUMPS {
            cost += 200 + 4 * s;
        } else {
            cost += 3 * s + 2 * (self.hand & t.suit_mask[e]).count_ones() as i32;
        }
        if self.tops(e) >> c & 1 != 0 {
            cost += 60;
        }
        cost
    }

    /// The value of giving card `c` to the partner's trick (higher is better).
    pub fn give_value(&self, c: u32) -> i32 {
        let t = self.t;
        let e = t.eff[c as usize] as usize;
        let s = i32::from(t.strength[c as usize]);
        let mut v = 12 * pts(1u64 << c) as i32 - s;
        if e == TRUMPS {
            v -= 200 + 3 * s;
        }
        if self.tops(e) >> c & 1 != 0 {
            v -= 50;
        }
        v
    }

    /// The `n` cheapest cards of `set` to throw.
    fn cheapest(&self, set: u64, n: u32) -> u64 {
        self.best_n(set, n, |c| -self.throw_cost(c))
    }

    /// The `n` best cards of `set` to give the partner.
    fn richest(&self, set: u64, n: u32) -> u64 {
        self.best_n(set, n, |c| self.give_value(c))
    }

    fn best_n(&self, set: u64, n: u32, score: impl Fn(u32) -> i32) -> u64 {
        if set.count_ones() <= n {
            return set;
        }
        let mut v: [(i32, u32); 20] = [(0, 0); 20];
        let mut k = 0;
        for c in bits(set) {
            if k < 20 {
                v[k] = (score(c), c);
                k += 1;
            }
        }
        v[..k].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        v[..n as usize].iter().fold(0, |m, &(_, c)| m | 1u64 << c)
    }

    /// The play of the seat to move.
    pub fn choose(&self) -> u64 {
        if self.count == 0 {
            self.lead()
        } else if self.size == 1 {
            self.follow_one()
        } else {
            self.follow_many()
        }
    }

    fn lead(&self) -> u64 {
        let t = self.t;
        let hand = self.hand;
        let unseen = self.unseen();
        let tops: [u64; 5] = std::array::from_fn(|e| self.tops(e));
        // A hand of top cards of one suit: lead it all.
        for (e, &tp) in tops.iter().enumerate() {
            let mine = hand & t.suit_mask[e];
            if mine == hand && tp == mine {
                return mine;
            }
        }
        let opps = self.opponents();
        let opp_trumps = (self.maybe[opps[0] as usize] | self.maybe[opps[1] as usize]) & t.suit_mask[TRUMPS];
        // Plain top cards together.
        let mut best: Option<(i32, u64)> = None;
        for (e, &tp) in tops.iter().enumerate().take(4) {
            let n = tp.count_ones();
            if n >= 2 && !opps.iter().any(|&o| self.may_ruff(o, e, n)) {
                let score = 10 * n as i32 + pts(tp) as i32 + pts(unseen & t.suit_mask[e]) as i32 / 4;
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, tp));
                }
            }
        }
        if let Some((_, set)) = best {
            return set;
        }
        // Several top trumps together while opponents may hold trumps.
        if tops[TRUMPS].count_ones() >= 2 && opp_trumps != 0 {
            return tops[TRUMPS];
        }
        // A single plain top no opponent can trump: the suit with the most points out first.
        let mut best: Option<(i32, u64)> = None;
        for (e, &tp) in tops.iter().enumerate().take(4) {
            if tp != 0 && !opps.iter().any(|&o| self.may_ruff(o, e, 1)) {
                let c = tp & tp.wrapping_neg();
                let score = pts(unseen & t.suit_mask[e]) as i32 * 2 - pts(c) as i32;
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, c));
                }
            }
        }
        if let Some((_, c)) = best {
            return c;
        }
        // A top trump when long in trumps.
        let my_trumps = hand & t.suit_mask[TRUMPS];
        if tops[TRUMPS] != 0 && my_trumps.count_ones() >= 4 && opp_trumps != 0 {
            return 1u64 << self.strongest(tops[TRUMPS]);
        }
        // A low card of a suit the partner can trump and no opponent can.
        let p = self.partner();
        for e in 0..4 {
            let mine = hand & t.suit_mask[e];
            if mine != 0
                && self.void[p as usize] >> e & 1 != 0
                && self.maybe[p as usize] & t.suit_mask[TRUMPS] != 0
                && !opps.iter().any(|&o| self.may_ruff(o, e, 1))
            {
                return self.cheapest(mine, 1);
            }
        }
        self.cheapest(hand, 1)
    }

    /// The strongest card of a one-suit set.
    fn strongest(&self, set: u64) -> u32 {
        bits(set).max_by_key(|&c| self.t.strength[c as usize]).unwrap_or(0)
    }

    /// Seats yet to play to the trick after this one.
    fn still_to_play(&self) -> impl Iterator<Item = u8> + '_ {
        (self.count + 1..4).map(move |i| (self.leader + i) & 3)
    }

    /// The trick's stake: points played so far, plus the kitty bonus on the last trick.
    fn stake(&self, extra: u64) -> u32 {
        let all = self.plays.iter().fold(extra, |m, p| m | p);
        let last = self.hand.count_ones() == u32::from(self.size);
        pts(all) + if last { self.bonus } else { 0 }
    }

    /// Opponent `o`, yet to play to a single-card trick led in suit `l`, may beat card `c`.
    fn may_beat(&self, o: u8, c: u32, l: usize) -> bool {
        let t = self.t;
        let m = self.maybe[o as usize];
        let stronger = t.stronger[c as usize] & m;
        let e = t.eff[c as usize] as usize;
        if l == TRUMPS {
            return stronger != 0;
        }
        if e == l {
            let follows = !self.may_void(o, l);
            (follows && stronger != 0) || (self.may_void(o, l) && m & t.suit_mask[TRUMPS] != 0)
        } else {
            self.may_void(o, l) && stronger != 0
        }
    }

    fn secure(&self, c: u32) -> bool {
        let l = self.suit as usize;
        self.still_to_play().all(|s| (s & 1) == (self.me & 1) || !self.may_beat(s, c, l))
    }

    fn follow_one(&self) -> u64 {
        let t = self.t;
        let l = self.suit as usize;
        let led = self.hand & t.suit_mask[l];
        let allowed = if led != 0 { led } else { self.hand };
        let (w, best_key) = self.winner_so_far();
        let partner = self.partner();
        let stake = self.stake(0);
        let winner_card = self.strongest(self.plays[w as usize]);
        if w == partner && self.still_to_play().all(|s| s == partner || !self.may_beat(s, winner_card, l)) {
            return self.richest(allowed, 1);
        }
        let trumps_held = (self.hand & t.suit_mask[TRUMPS]).count_ones();
        let mut winners = 0u64;
        for c in bits(allowed) {
            let e = t.eff[c as usize] as usize;
            if (e == TRUMPS || e == l) && t.weight(c as u8) > best_key {
                winners |= 1u64 << c;
            }
        }
        if winners != 0 {
            let ruffing = l != TRUMPS && led == 0;
            let worth = !ruffing || stake >= 5 || trumps_held >= 5 || self.hand.count_ones() == 1;
            let secure: u64 = bits(winners).filter(|&c| self.secure(c)).fold(0, |m, c| m | 1u64 << c);
            if worth && secure != 0 && w != partner {
                let c = bits(secure)
                    .max_by_key(|&c| (pts(1u64 << c), -i32::from(t.strength[c as usize])))
                    .unwrap_or(0);
                return 1u64 << c;
            }
            if w == partner && stake >= 10 && secure != 0 {
                // The partner is winning but may be beaten: make the trick safe.
                let c = bits(secure).min_by_key(|&c| t.strength[c as usize]).unwrap_or(0);
                return 1u64 << c;
            }
            let partner_done = !self.still_to_play().any(|s| s == partner);
            if worth && w != partner && partner_done && stake >= 10 {
                return 1u64 << self.strongest(winners);
            }
        }
        self.cheapest(allowed, 1)
    }

    /// The seat winning the trick so far and the key of its play.
    fn winner_so_far(&self) -> (u8, u64) {
        trick_winner(self.t, self.leader, self.count, self.suit, &self.plays)
    }

    fn follow_many(&self) -> u64 {
        let t = self.t;
        let n = u32::from(self.size);
        let l = self.suit as usize;
        let led = self.hand & t.suit_mask[l];
        let have = led.count_ones();
        let (w, best_key) = self.winner_so_far();
        let partner = self.partner();
        // The partner's play holds unless an opponent still to play may trump it.
        let partner_safe = w == partner
            && self.still_to_play().all(|s| s == partner || !self.may_ruff(s, l, n) || best_key >= 1 << 58);
        if have >= n {
            return if partner_safe { self.richest(led, n) } else { self.cheapest(led, n) };
        }
        let free = n - have;
        let rest = self.hand & !led;
        if w != partner && have == 0 && l != TRUMPS {
            let my_trumps = self.hand & t.suit_mask[TRUMPS];
            if my_trumps.count_ones() >= n {
                let stake = self.stake(0) + pts(self.unseen() & t.suit_mask[l]) / 4;
                let low = self.cheapest(my_trumps, n);
                let high = self.best_n(my_trumps, n, |c| i32::from(t.strength[c as usize]));
                for (set, need) in [(low, 10), (high, 15)] {
                    if t.key(set) > best_key && stake >= need {
                        return set;
                    }
                }
            }
        }
        if partner_safe { led | self.richest(rest, free) } else { led | self.cheapest(rest, free) }
    }
}

/// A burial style: whether point cards may be buried when they are unprotected.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BuryStyle {
    /// Bury unprotected point cards (a K or 10 without the ace of its suit) when they fit.
    pub points: bool,
    /// How much a void is worth, in the units of `keep`.
    pub void_bonus: i32,
}

impl BuryStyle {
    /// The plain style: voids where cheap, no points.
    pub const SAFE: BuryStyle = BuryStyle { points: false, void_bonus: 60 };
}

/// How much the starter wants to keep card `c` of hand `hand` (higher keeps).
pub fn keep_value(t: &Tables, hand: u64, c: u32, style: BuryStyle) -> i32 {
    let e = t.eff[c as usize] as usize;
    let s = i32::from(t.strength[c as usize]);
    if e == TRUMPS {
        return 1000 + s;
    }
    let suit = hand & t.suit_mask[e];
    let p = pts(1u64 << c) as i32;
    let rank = s; // 0 (2) … 12 (A)
    let has_ace = suit & t.suit_mask[e] & (1u64 << (13 * e as u32 + 12)) != 0;
    let mut v = 5 * rank;
    if rank == 12 {
        v += 300;
    } else if rank == 11 && has_ace {
        v += 120;
    }
    if p > 0 {
        let protected = has_ace && rank >= 8;
        v += if style.points && !protected { -p } else { 40 + 8 * p };
    }
    v
}

/// The heuristic burial of the starter's eighteen cards (six cards): no trumps unless there are
/// more than twelve, voids in short suits without aces where they fit, the lowest cards
/// otherwise, point cards only under `style.points` and only unprotected ones.
pub fn bury(t: &Tables, hand: u64, style: BuryStyle) -> u64 {
    bury_candidates(t, hand, style).first().map_or(0, |&(_, s)| s)
}

/// Burials by the rules of [`bury`], one per choice of suits to void (the best first), with
/// their costs (the keep values buried, minus the voids' bonus).
pub fn bury_candidates(t: &Tables, hand: u64, style: BuryStyle) -> Vec<(i32, u64)> {
    let trumps = hand & t.suit_mask[TRUMPS];
    let plain = hand & !trumps;
    if plain.count_ones() <= 6 {
        // Everything plain, then the weakest trumps.
        let need = 6usize.saturating_sub(plain.count_ones() as usize);
        let mut v: Vec<u32> = bits(trumps).collect();
        v.sort_by_key(|&c| (t.strength[c as usize], pts(1u64 << c)));
        let set = v.iter().take(need).fold(plain, |m, &c| m | 1u64 << c);
        return vec![(0, set)];
    }
    let mut out: Vec<(i32, u64)> = Vec::new();
    for voids in 0u32..16 {
        let mut base = 0u64;
        for e in 0..4 {
            if voids >> e & 1 != 0 {
                base |= plain & t.suit_mask[e];
            }
        }
        let nvoids = (0..4).filter(|&e| voids >> e & 1 != 0 && plain & t.suit_mask[e] != 0).count() as i32;
        if base.count_ones() > 6 || nvoids != voids.count_ones() as i32 {
            continue;
        }
        let mut rest: Vec<u32> = bits(plain & !base).collect();
        rest.sort_by_key(|&c| keep_value(t, hand, c, style));
        let need = 6 - base.count_ones() as usize;
        let set = rest[..need].iter().fold(base, |m, &c| m | 1u64 << c);
        let cost: i32 =
            bits(set).map(|c| keep_value(t, hand, c, style)).sum::<i32>() - style.void_bonus * nvoids;
        if !out.iter().any(|&(_, s)| s == set) {
            out.push((cost, set));
        }
    }
    out.sort_by_key(|&(c, s)| (c, s));
    out
}

/// How good trumps `trump` would be for a hand (drawn so far): `(trumps held, strength)` where
/// strength adds jokers and the trump-rank cards.
pub fn trump_support(hand: u64, trump: Trump) -> (u32, u32) {
    let t = Tables::of(trump);
    let mine = hand & t.suit_mask[TRUMPS];
    let high = mine & (t.ts_rank | t.off_rank | 3u64 << 52);
    (mine.count_ones(), high.count_ones())
}

/// The heuristic's choice at a draw poll: the card to show, if any. `drawn_mine` is how many
/// cards the seat has drawn, `first_deal` whether declaring makes it the starter.
pub fn declare_choice(hand: u64, declarable: &[Card], drawn_mine: u32, late: bool) -> Option<Card> {
    let mut best: Option<(f32, Card)> = None;
    for &c in declarable {
        let projected = declare_projection(hand, c, drawn_mine);
        if best.is_none_or(|(b, _)| projected > b) {
            best = Some((projected, c));
        }
    }
    let (p, c) = best?;
    let need = if late { 5.0 } else { 6.5 };
    (p >= need && (drawn_mine >= 3 || p >= 8.0)).then_some(c)
}

/// How good showing card `c` would make trumps for a hand of which `drawn_mine` cards are drawn:
/// the trumps held, a third of the cards still to draw (the share of trumps in the pack), and
/// half a point per joker or trump-rank card.
pub fn declare_projection(hand: u64, c: Card, drawn_mine: u32) -> f32 {
    let (Some(suit), Some(rank)) = (c.suit(), c.rank()) else { return 0.0 };
    let (n, high) = trump_support(hand, Trump { suit, rank });
    n as f32 + (12 - drawn_mine.min(12)) as f32 / 3.0 + 0.5 * high as f32
}

/// The heuristic's choice when asked whether to annul a hand without trumps: annul unless the
/// hand holds three aces or more.
pub fn annul_choice(hand: u64) -> bool {
    let aces = (hand & Rank::Ace.mask().bits()).count_ones();
    aces < 3
}

/// The suit of a plain card, for callers that only have numbers.
pub fn suit_of(c: u32) -> Option<Suit> {
    Card::from_number(c as u8).and_then(|c| c.suit())
}
