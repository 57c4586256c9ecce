//! A compact, perfect-information Madiao position for search: four hands as bitsets, the trick in
//! progress, tricks and winning cards per seat — and the settlement of §6 recomputed from them
//! (checked against the engine's in the tests), so that a searcher never builds the engine's
//! itemized settlement.
//!
//! Moves are a card face up (a lead or a capture) or face down (a slough). Face-up discards are
//! never generated: a slough of the same card does everything a discard does without its penalty
//! and without exposing the card to the stock check, so a discard never helps the seat that makes
//! it nor any objective a searcher pursues. Likewise at trick 8 a seat without a trick only
//! sloughs (its face-up card could not win). The solver check test confirms both claims against
//! a brute-force search over every legal action.

use cards::Seat;
use madiao::variants::{BankerShortfall, BonusStacking, HmBonusTricks, MostTricksTie, Slam, StockCheckPayer};
use madiao::{Action, Card, Phase, PlayKind, State, Variants};

/// Half-stakes per stake (the engine keeps money in half-stakes).
pub const ONE: i32 = 2;

/// The four honour cards whose tricks pay `+3`/`+4` (§6.2), and the HM.
pub const TW: u64 = 1 << 39;
/// `TQ`.
pub const TQ: u64 = 1 << 38;
/// `TB`, the Hundred Myriad.
pub const TB: u64 = 1 << 37;
/// `W0`.
pub const W0: u64 = 1 << 10;
/// The four top cards `TW M9 S9 W0`, as bits.
pub const TOPS: u64 = madiao::card::TOPS.bits();
/// The cards of each suit (cash, strings, myriads, tens), as bits.
pub const SUIT_MASK: [u64; 4] = {
    let m = madiao::card::SUIT_MASK;
    [m[0].bits(), m[1].bits(), m[2].bits(), m[3].bits()]
};

/// The suit index (0 cash … 3 tens) of card number `c`.
#[inline]
pub fn suit_of(c: u8) -> usize {
    if c < 11 {
        0
    } else if c < 20 {
        1
    } else if c < 29 {
        2
    } else {
        3
    }
}

/// The mask of the suit of card number `c`.
#[inline]
pub fn suit_mask_of(c: u8) -> u64 {
    SUIT_MASK[suit_of(c)]
}

/// The cards above card number `c` in its suit.
#[inline]
pub fn above(c: u8) -> u64 {
    suit_mask_of(c) & !((2u64 << c) - 1)
}

/// What stays fixed while a hand is searched: the seats' roles, the reward cards, the rules, the
/// stock check and money already settled (face-up discards made before the search).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ctx {
    /// The banker's seat index.
    pub banker: u8,
    /// The seat dealt `TB`, if any (`TB` in the stock: `None`).
    pub hm_holder: Option<u8>,
    /// §6 The reward cards.
    pub reward: u64,
    /// The rules.
    pub variants: Variants,
    /// §6.1 The stock check's card (the second card of the suit whose top card lies under the
    /// upcard, when that second card was dealt) and the seat dealt it.
    pub check: Option<(u8, u8)>,
    /// Money already owed, in half-stakes per seat (face-up discard penalties so far).
    pub base: [i32; 4],
}

impl Ctx {
    /// The cards whose identity matters to the settlement when they win a trick or are played
    /// face up: the reward cards, `TW TQ TB W0`, the stock check's card.
    #[inline]
    pub fn special(&self) -> u64 {
        self.reward | TW | TQ | TB | W0 | self.check.map_or(0, |(c, _)| 1u64 << c)
    }
}

/// A move: a card face up (lead or capture) or face down (slough).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mv(u8);

impl Mv {
    /// Card number `c` face up.
    #[inline]
    pub const fn up(c: u8) -> Mv {
        Mv(c)
    }
    /// Card number `c` face down.
    #[inline]
    pub const fn down(c: u8) -> Mv {
        Mv(c | 0x40)
    }
    /// The card's number.
    #[inline]
    pub const fn card(self) -> u8 {
        self.0 & 0x3f
    }
    /// True for a face-up move.
    #[inline]
    pub const fn is_up(self) -> bool {
        self.0 & 0x40 == 0
    }
    /// The engine's action.
    pub fn action(self) -> Action {
        let c = Card::new(self.card()).unwrap_or(Card::W9);
        if self.is_up() { Action::Play(c) } else { Action::Slough(c) }
    }
    /// The move of an engine action (`None` for a redeal choice).
    pub fn from_action(a: Action) -> Option<Mv> {
        match a {
            Action::Play(c) => Some(Mv::up(c.number())),
            Action::Slough(c) => Some(Mv::down(c.number())),
            Action::Redeal(_) => None,
        }
    }
}

/// A position during play, every card known.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pos {
    /// The cards each seat holds.
    pub hands: [u64; 4],
    /// The trick being played (0–7; 8 when the hand is over).
    pub trick: u8,
    /// Cards played to the current trick.
    pub pos: u8,
    /// The seat to move.
    pub to_move: u8,
    /// The leader of the current trick.
    pub leader: u8,
    /// The led suit's mask (when `pos > 0`).
    pub led: u64,
    /// The best card that can win the trick so far.
    pub best: u8,
    /// Its seat.
    pub best_seat: u8,
    /// Tricks won per seat.
    pub tricks: [u8; 4],
    /// The winning cards of each seat's tricks.
    pub won: [u64; 4],
    /// At trick 8, the seats without a trick (bit per seat).
    pub ignored: u8,
    /// The stock check's card has been played face up.
    pub check_up: bool,
}

impl Pos {
    /// True when all eight tricks are done.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.trick >= 8
    }

    /// Tricks still to be completed (the current one included).
    #[inline]
    pub fn tricks_left(&self) -> u8 {
        8u8.saturating_sub(self.trick)
    }

    /// The cards that may still decide a trick: every hand, and the best card of the current
    /// trick.
    #[inline]
    pub fn live(&self) -> u64 {
        let h = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        if self.pos > 0 { h | (1u64 << self.best) } else { h }
    }

    /// The face-up captures open to the seat to move (none for a leader or an ignored seat).
    #[inline]
    pub fn captures(&self) -> u64 {
        if self.pos == 0 || self.ignored & (1 << self.to_move) != 0 {
            return 0;
        }
        self.hands[self.to_move as usize] & self.led & !((2u64 << self.best) - 1)
    }

    /// Plays a move for the seat to move (which must be one the rules allow and not a face-up
    /// discard).
    #[inline]
    pub fn play(&mut self, ctx: &Ctx, mv: Mv) {
        let s = self.to_move;
        let c = mv.card();
        let bit = 1u64 << c;
        self.hands[s as usize] &= !bit;
        if mv.is_up() {
            if let Some((k, _)) = ctx.check
                && k == c
            {
                self.check_up = true;
            }
            if self.pos == 0 {
                self.led = suit_mask_of(c);
                self.best = c;
                self.best_seat = s;
            } else if self.led & bit != 0 && c > self.best && self.ignored & (1 << s) == 0 {
                self.best = c;
                self.best_seat = s;
            }
        }
        self.pos += 1;
        if self.pos < 4 {
            self.to_move = (s + 1) & 3;
            return;
        }
        let w = self.best_seat;
        self.tricks[w as usize] += 1;
        self.won[w as usize] |= 1u64 << self.best;
        self.trick += 1;
        self.pos = 0;
        self.led = 0;
        self.best = 0;
        self.leader = w;
        self.to_move = w;
        if self.trick == 7 {
            self.ignored = 0;
            for p in 0..4 {
                if self.tricks[p] == 0 {
                    self.ignored |= 1 << p;
                }
            }
        }
    }

    /// Every move the searcher considers for the seat to move, one per class of equivalent
    /// cards (see [`representatives`]): captures face up, then every card face down (or, for a
    /// leader, every card face up).
    pub fn moves(&self, ctx: &Ctx, out: &mut MoveList) {
        out.len = 0;
        let hand = self.hands[self.to_move as usize];
        let reps = representatives(hand, self.live(), ctx.special());
        if self.pos == 0 {
            for c in bits(reps) {
                out.push(Mv::up(c));
            }
            return;
        }
        for c in bits(self.captures() & reps) {
            out.push(Mv::up(c));
        }
        for c in bits(reps) {
            out.push(Mv::down(c));
        }
    }

    /// §6 Each seat's payoff in half-stakes once the hand is over (the engine's settlement of a
    /// played hand, recomputed).
    pub fn payoffs(&self, ctx: &Ctx) -> [i32; 4] {
        settle(ctx, &self.tricks, &self.won, self.check_up)
    }
}

/// The settlement of a played hand from its tricks and winning cards (§6).
pub fn settle(ctx: &Ctx, tricks: &[u8; 4], won: &[u64; 4], check_up: bool) -> [i32; 4] {
    let v = &ctx.variants;
    let b = ctx.banker as usize;
    let mut t = ctx.base;
    let value = |t: &mut [i32; 4], p: usize, amount: i32| {
        if p == b {
            for (q, x) in t.iter_mut().enumerate() {
                *x += if q == b { 3 * amount } else { -amount };
            }
        } else {
            t[p] += amount;
            t[b] -= amount;
        }
    };
    // 1. The stock check.
    if let Some((_, holder)) = ctx.check {
        let pays = match v.stock_check_payer {
            StockCheckPayer::FaceupOnly => check_up,
            StockCheckPayer::Holder => true,
        };
        if pays {
            for (q, x) in t.iter_mut().enumerate() {
                *x += if q == holder as usize { -3 * ONE } else { ONE };
            }
        }
    }
    // 2–3. Hand values.
    let most = *tricks.iter().max().unwrap_or(&0);
    let at_most = tricks.iter().filter(|&&x| x == most).count();
    let hm_won = ctx.hm_holder.filter(|&h| {
        let k = tricks[h as usize];
        let cond = match v.hm_bonus_tricks {
            HmBonusTricks::Exactly2 => k == 2,
            HmBonusTricks::AtLeast2 => k >= 2,
        };
        cond && won[h as usize] & TB != 0
    });
    for p in 0..4 {
        let k = tricks[p];
        if k < 2 {
            if p == b && v.banker_shortfall == BankerShortfall::Winners {
                for q in 0..4 {
                    if q != b && tricks[q] >= 2 {
                        t[q] += ONE;
                        t[b] -= ONE;
                    }
                }
            } else {
                value(&mut t, p, -ONE);
            }
        } else if k == 2 {
        } else if k < 8 {
            if v.most_tricks_tie == MostTricksTie::EachPlusHalf && k == most && at_most == 2 {
                value(&mut t, p, ONE / 2);
            } else {
                value(&mut t, p, ONE);
            }
        } else {
            if v.slam == Slam::Adds {
                value(&mut t, p, ONE);
            }
            value(&mut t, p, 8 * ONE);
        }
        let mut bonus = [0i32; 8];
        let mut n = 0;
        if k >= 2 {
            for _ in 0..(won[p] & ctx.reward).count_ones() {
                bonus[n] = ONE;
                n += 1;
            }
        }
        if ctx.hm_holder == Some(p as u8) {
            bonus[n] = if k < 2 {
                ONE
            } else if hm_won == Some(p as u8) {
                3 * ONE
            } else {
                2 * ONE
            };
            n += 1;
        }
        if won[p] & (TW | TQ | TB) == TW | TQ | TB {
            bonus[n] = 3 * ONE;
            n += 1;
            if won[p] & W0 != 0 {
                bonus[n] = 4 * ONE;
                n += 1;
            }
        }
        if v.bonus_stacking == BonusStacking::LargestOnly && n > 1 {
            value(&mut t, p, bonus[..n].iter().copied().max().unwrap_or(0));
        } else {
            for &x in &bonus[..n] {
                value(&mut t, p, x);
            }
        }
    }
    // 4. The knock.
    if let Some(h) = hm_won.filter(|&h| h as usize != b) {
        for q in 0..4 {
            if q != b && q != h as usize {
                t[q] -= ONE;
                t[h as usize] += ONE;
            }
        }
    }
    t
}

/// The card numbers of a mask, lowest first.
#[inline]
pub fn bits(mut m: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let c = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(c)
        }
    })
}

/// One card of each class of equivalent cards in `hand`: two cards of a suit in the same hand
/// with no `live` card between them, neither of them `special`, play alike in every line (every
/// trick compares them with the same cards), so only the lower is kept.
#[inline]
pub fn representatives(hand: u64, live: u64, special: u64) -> u64 {
    let mut keep = 0u64;
    for c in bits(hand) {
        let below = live & suit_mask_of(c) & ((1u64 << c) - 1);
        let lower = if below == 0 { None } else { Some(63 - below.leading_zeros() as u8) };
        let merged = match lower {
            Some(l) => hand & (1u64 << l) != 0 && (special & ((1u64 << l) | (1u64 << c))) == 0,
            None => false,
        };
        if !merged {
            keep |= 1u64 << c;
        }
    }
    keep
}

/// The representative kept by [`representatives`] for card `c` of `hand`.
pub fn representative_of(c: u8, hand: u64, live: u64, special: u64) -> u8 {
    let mut c = c;
    loop {
        let below = live & suit_mask_of(c) & ((1u64 << c) - 1);
        if below == 0 {
            return c;
        }
        let l = 63 - below.leading_zeros() as u8;
        if hand & (1u64 << l) != 0 && special & ((1u64 << l) | (1u64 << c)) == 0 {
            c = l;
        } else {
            return c;
        }
    }
}

/// Up to 16 moves without allocation.
#[derive(Copy, Clone, Debug)]
pub struct MoveList {
    items: [Mv; 16],
    len: u8,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList { items: [Mv(0); 16], len: 0 }
    }
}

impl MoveList {
    #[inline]
    fn push(&mut self, m: Mv) {
        if (self.len as usize) < 16 {
            self.items[self.len as usize] = m;
            self.len += 1;
        }
    }
    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Mv] {
        &self.items[..self.len as usize]
    }
    /// The moves, mutable (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Mv] {
        &mut self.items[..self.len as usize]
    }
    /// How many.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// §6 The reward cards for an upcard: the four tops, the upcard's suit's second card promoted
/// when the upcard is a top card.
pub fn reward_cards(upcard: u8) -> u64 {
    let up = 1u64 << upcard;
    if TOPS & up != 0 { (TOPS & !up) | (1u64 << (upcard - 1)) } else { TOPS }
}

/// The stock check's card and its holder, given the card under the upcard and the dealt hands
/// (`None` when there is no check or the card is in the stock).
pub fn stock_check(exposed: u8, dealt: &[u64; 4]) -> Option<(u8, u8)> {
    if TOPS & (1u64 << exposed) == 0 {
        return None;
    }
    let second = exposed - 1;
    (0..4u8).find(|&s| dealt[s as usize] & (1u64 << second) != 0).map(|s| (second, s))
}

/// The money already settled by face-up discards, in half-stakes (2 stakes: a player pays the
/// banker; the banker pays each player).
pub fn discard_penalties(banker: u8, discarders: impl IntoIterator<Item = u8>) -> [i32; 4] {
    let mut t = [0i32; 4];
    for s in discarders {
        let amount = -2 * ONE;
        if s == banker {
            for (q, x) in t.iter_mut().enumerate() {
                *x += if q == banker as usize { 3 * amount } else { -amount };
            }
        } else {
            t[s as usize] += amount;
            t[banker as usize] -= amount;
        }
    }
    t
}

/// The context and position of an engine state in play or of a played hand once over (every
/// card known: for the `cheater` and for tests). `None` before play and for unplayed hands.
pub fn from_state(st: &State) -> Option<(Ctx, Pos)> {
    let played = st.outcome() == Some(::madiao::record::MadiaoOutcome::Played);
    if st.phase() != Phase::Play && !played {
        return None;
    }
    let banker = st.banker().index() as u8;
    let dealt: [u64; 4] = std::array::from_fn(|s| st.dealt(Seat::wrapping(s)).bits());
    let check = stock_check(st.deck()[38].number(), &dealt);
    let plays: Vec<madiao::Play> = st.plays().collect();
    let discarders = plays.iter().filter(|p| p.kind == PlayKind::Discard).map(|p| p.seat.index() as u8);
    let ctx = Ctx {
        banker,
        hm_holder: st.hm_holder().map(|s| s.index() as u8),
        reward: st.reward_cards().bits(),
        variants: *st.variants(),
        check,
        base: discard_penalties(banker, discarders),
    };
    let check_up =
        check.is_some_and(|(c, _)| plays.iter().any(|p| p.card.number() == c && p.kind != PlayKind::Slough));
    Some((ctx, pos_from_history(st, &plays, check_up)))
}

fn pos_from_history(st: &State, plays: &[madiao::Play], check_up: bool) -> Pos {
    let hands: [u64; 4] = std::array::from_fn(|s| st.hand(Seat::wrapping(s)).bits());
    let trick = st.trick_number();
    let to_move = st.to_move().map_or(0, |s| s.index() as u8);
    let mut tricks = [0u8; 4];
    let mut won = [0u64; 4];
    for t in 0..trick.min(8) {
        if let Some(w) = st.trick_winner(t) {
            tricks[w.index()] += 1;
            let card = plays
                .iter()
                .filter(|p| p.trick == t && p.seat == w && p.can_win)
                .map(|p| p.card.number())
                .next_back()
                .unwrap_or(0);
            won[w.index()] |= 1u64 << card;
        }
    }
    let pos = st.cards_in_trick();
    let (led, best, best_seat) = match st.best_so_far() {
        Some((s, c)) if pos > 0 => (suit_mask_of(c.number()), c.number(), s.index() as u8),
        _ => (0, 0, to_move),
    };
    let ignored =
        if trick == 7 { (0..4).filter(|&p| tricks[p] == 0).fold(0u8, |m, p| m | (1 << p)) } else { 0 };
    Pos {
        hands,
        trick,
        pos,
        to_move,
        leader: st.trick_leader(trick).map_or(to_move, |s| s.index() as u8),
        led,
        best,
        best_seat,
        tricks,
        won,
        ignored,
        check_up,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::Rng;
    use madiao::{HandSetup, deck_from_seed};

    fn random_hand(seed: u64, variants: Variants) -> State {
        let deck = deck_from_seed(seed, 0);
        let mut st =
            State::new(HandSetup { variants, ..HandSetup::new(Seat::wrapping((seed % 4) as usize), deck) })
                .unwrap();
        // Decline every redeal so that the hand is played.
        while st.phase() == Phase::Redeal {
            st.apply(Action::Redeal(false)).unwrap();
        }
        st
    }

    fn variant_list() -> Vec<Variants> {
        use madiao::variants::*;
        let mut v = vec![Variants::STANDARD, Variants::FENG];
        let mut x = Variants::STANDARD;
        x.bonus_stacking = BonusStacking::LargestOnly;
        x.slam = Slam::Adds;
        v.push(x);
        let mut y = Variants::FENG;
        y.most_tricks_tie = MostTricksTie::EachPlus1;
        y.stock_check_payer = StockCheckPayer::FaceupOnly;
        v.push(y);
        v
    }

    /// Plays random legal moves in both the engine and the compact position; the compact one
    /// follows the engine move for move (discards and trick-8 captures in form included) and
    /// settles identically.
    #[test]
    fn positions_follow_the_engine_and_settle_like_it() {
        let mut checked = 0;
        for v in variant_list() {
            for seed in 0..400u64 {
                let mut st = random_hand(seed, v);
                if st.is_over() {
                    continue;
                }
                let mut rng = Rng::from_seed(seed ^ 0xabc);
                let (mut ctx, mut pos) = from_state(&st).unwrap();
                while !st.is_over() {
                    let legal = st.legal_actions();
                    let a = legal[rng.index(legal.len())];
                    st.apply(a).unwrap();
                    pos.play(&ctx, Mv::from_action(a).unwrap());
                    let (c2, p2) = from_state(&st).unwrap();
                    if !st.is_over() {
                        assert_eq!(pos, p2, "seed {seed} after {a}");
                    } else {
                        assert_eq!((pos.tricks, pos.won, pos.check_up), (p2.tricks, p2.won, p2.check_up));
                    }
                    // A face-up discard changes the money already settled.
                    ctx = c2;
                }
                let want: [i32; 4] = st.payoffs().0.map(|h| h.0);
                assert_eq!(pos.payoffs(&ctx), want, "seed {seed} {v}");
                checked += 1;
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn equivalent_cards_are_merged_only_across_dead_cards() {
        let c = |s: &str| s.parse::<Card>().unwrap().number();
        let m = |cs: &[&str]| cs.iter().fold(0u64, |a, s| a | (1u64 << c(s)));
        let hand = m(&["M2", "M3", "M5", "S1", "S3"]);
        // M4 is live elsewhere: M2 ~ M3, but M5 stands alone; S2 is dead: S1 ~ S3.
        let live = hand | m(&["M4", "T5"]);
        let reps = representatives(hand, live, 0);
        assert_eq!(reps, m(&["M2", "M5", "S1"]));
        assert_eq!(representative_of(c("M3"), hand, live, 0), c("M2"));
        assert_eq!(representative_of(c("S3"), hand, live, 0), c("S1"));
        // A special card is never merged.
        assert_eq!(representatives(hand, live, m(&["S3"])), m(&["M2", "M5", "S1", "S3"]));
    }

    #[test]
    fn reward_cards_follow_the_upcard() {
        let c = |s: &str| s.parse::<Card>().unwrap().number();
        assert_eq!(reward_cards(c("M5")), TOPS);
        let r = reward_cards(c("S9"));
        assert_eq!(r & (1 << c("S9")), 0);
        assert_ne!(r & (1 << c("S8")), 0);
        assert_eq!(reward_cards(c("W0")) & (1 << c("WH")), 1 << c("WH"));
    }
}
