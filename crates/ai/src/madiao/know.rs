//! What a seat knows, read off its [`View`], and hidden cards sampled consistently with it.
//!
//! A seat knows its own hand and its own face-down cards, every face-up card and who played it,
//! the upcard, how many cards each seat holds and has sloughed, who won which trick — and, from
//! the declarations, facts about the dealt hands: nobody was dealt a meld or the four lowest (the
//! hand would have ended), a seat asked about a long-suit redeal was dealt 5 or more cards of a
//! suit, and a seat that would have been asked before the seat now asked (or before play began)
//! but was not, was dealt no such suit.
//!
//! Unknown are the other seats' hands and face-down cards and the 7 hidden stock cards — among
//! them the card under the upcard, which the stock check exposes. A [`World`] places every
//! unknown card; [`Knowledge::sample`] draws one uniformly among those consistent with the facts
//! above (rejection sampling).

use cards::{Rng, Seat};
use madiao::{Phase, PlayKind, View};

use super::pos::{Ctx, Pos, SUIT_MASK, TOPS, discard_penalties, reward_cards, stock_check, suit_mask_of};

/// All 40 cards, as bits.
const ALL_CARDS: u64 = madiao::card::ALL_CARDS.bits();
/// The four lowest cards, as bits.
const LOWEST: u64 = madiao::card::LOWEST.bits();
/// The ten red cards, as bits.
const RED: u64 = madiao::card::RED.bits();

/// Everything a seat knows, as bitsets.
#[derive(Clone, Debug, PartialEq)]
pub struct Knowledge {
    /// The seat.
    pub me: u8,
    /// The banker.
    pub banker: u8,
    /// The first recipient (leads trick 1).
    pub first: u8,
    /// The rules.
    pub variants: madiao::Variants,
    /// The upcard's number.
    pub upcard: u8,
    /// The reward cards.
    pub reward: u64,
    /// The phase.
    pub phase: Phase,
    /// My hand.
    pub hand: u64,
    /// The cards I was dealt (my hand and every card I played).
    pub my_dealt: u64,
    /// The cards each seat played face up.
    pub up: [u64; 4],
    /// How many cards each seat played face down.
    pub down: [u8; 4],
    /// How many cards each seat holds.
    pub sizes: [u8; 4],
    /// The cards whose place I do not know: other hands, others' face-down cards, the hidden
    /// stock.
    pub unknown: u64,
    /// Per seat: dealt a long suit (`Some(true)`), not (`Some(false)`), or not known.
    pub long_suit: [Option<bool>; 4],
    /// The position's trick state (hands left empty): trick, cards down, leader, best card,
    /// tricks and winning cards per seat.
    pub pos: Pos,
    /// Seats that made face-up discards, in order (their penalties are already owed).
    pub discarders: Vec<u8>,
}

/// One placement of every unknown card.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct World {
    /// The cards each seat holds now.
    pub hands: [u64; 4],
    /// The cards each seat was dealt.
    pub dealt: [u64; 4],
    /// The card under the upcard (`deck[38]`), exposed by the stock check.
    pub exposed: u8,
}

fn mask_of(cards: &[madiao::Card]) -> u64 {
    cards.iter().copied().collect::<madiao::Cards>().bits()
}

/// True when a dealt hand holds a meld or the four lowest (§4.1, §4.2).
pub fn ends_at_once(dealt: u64) -> bool {
    dealt & TOPS == TOPS
        || dealt & LOWEST == LOWEST
        || (dealt & RED).count_ones() >= 8
        || SUIT_MASK.iter().any(|m| (dealt & m).count_ones() >= 8)
}

/// True when a dealt hand has 5 or more cards of a suit (§4.3).
pub fn has_long_suit(dealt: u64) -> bool {
    SUIT_MASK.iter().any(|m| (dealt & m).count_ones() >= 5)
}

impl Knowledge {
    /// What the view's seat knows. A bot is given its seat's view; a view without a seat (a
    /// spectator's) is read as the view of the seat to move, or else the banker's.
    pub fn from_view(view: &View) -> Knowledge {
        let me = view.seat.or(view.to_move).unwrap_or(view.banker).index() as u8;
        let banker = view.banker.index() as u8;
        let hand = mask_of(&view.hand);
        let mut up = [0u64; 4];
        let mut down = [0u8; 4];
        let mut my_down = 0u64;
        let mut discarders = Vec::new();
        let mut tricks = [0u8; 4];
        let mut won = [0u64; 4];
        let mut pos = Pos {
            hands: [0; 4],
            trick: 0,
            pos: 0,
            to_move: view.to_move.map_or(0, |s| s.index() as u8),
            leader: view.first_recipient.index() as u8,
            led: 0,
            best: 0,
            best_seat: view.first_recipient.index() as u8,
            tricks: [0; 4],
            won: [0; 4],
            ignored: 0,
            check_up: false,
        };
        for t in &view.tricks {
            let mut best: Option<(u8, u8)> = None;
            for p in &t.plays {
                let s = p.seat.index() as u8;
                match (p.face_up, p.card) {
                    (true, Some(c)) => {
                        up[s as usize] |= 1u64 << c.number();
                        if p.kind == PlayKind::Discard {
                            discarders.push(s);
                        }
                        if p.can_win && best.is_none_or(|(b, _)| c.number() > b) {
                            best = Some((c.number(), s));
                        }
                    }
                    (false, c) => {
                        down[s as usize] += 1;
                        if s == me
                            && let Some(c) = c
                        {
                            my_down |= 1u64 << c.number();
                        }
                    }
                    (true, None) => {}
                }
            }
            match t.winner {
                Some(w) => {
                    let w = w.index();
                    tricks[w] += 1;
                    if let Some((b, _)) = best {
                        won[w] |= 1u64 << b;
                    }
                    pos.trick += 1;
                    pos.leader = w as u8;
                }
                None => {
                    pos.leader = t.leader.index() as u8;
                    pos.pos = t.plays.len() as u8;
                    if let Some((b, s)) = best {
                        pos.led = suit_mask_of(b);
                        pos.best = b;
                        pos.best_seat = s;
                    }
                }
            }
        }
        if pos.pos == 0 {
            pos.best_seat = pos.leader;
        }
        pos.tricks = tricks;
        pos.won = won;
        if pos.trick == 7 {
            pos.ignored = (0..4).filter(|&p| tricks[p] == 0).fold(0u8, |m, p| m | (1 << p));
        }
        let upcard = view.upcard.number();
        let my_dealt = hand | my_down | up[me as usize];
        let seen = my_dealt | up.iter().fold(0, |a, m| a | m) | (1u64 << upcard);
        // Long suits: every seat asked so far has one; a seat that would have been asked before
        // the current question (or before play) and was not, has none.
        let mut long_suit = [None; 4];
        for c in &view.redeal_choices {
            long_suit[c.seat.index()] = Some(true);
        }
        let first = view.first_recipient;
        let asked_up_to = match (view.phase, view.to_move) {
            (Phase::Redeal, Some(s)) => {
                long_suit[s.index()] = Some(true);
                s.distance_from(first)
            }
            _ => 4,
        };
        for d in 0..asked_up_to {
            let s = first.offset(d).index();
            if long_suit[s].is_none() {
                long_suit[s] = Some(false);
            }
        }
        long_suit[me as usize] = Some(has_long_suit(my_dealt));
        Knowledge {
            me,
            banker,
            first: first.index() as u8,
            variants: view.variants,
            upcard,
            reward: reward_cards(upcard),
            phase: view.phase,
            hand,
            my_dealt,
            up,
            down,
            sizes: view.hand_sizes.0,
            unknown: ALL_CARDS & !seen,
            long_suit,
            pos,
            discarders,
        }
    }

    /// The seat holding `TB` when it is known (mine, or played face up); `None` when unknown or
    /// in the stock.
    pub fn known_hm_holder(&self) -> Option<u8> {
        const TB: u64 = 1 << 37;
        (0..4u8).find(|&s| if s == self.me { self.my_dealt & TB != 0 } else { self.up[s as usize] & TB != 0 })
    }

    /// A world drawn uniformly among those consistent with what the seat knows (up to `tries`
    /// rejections; after that, the long-suit facts are relaxed, then the meld facts, so that a
    /// world is always returned).
    pub fn sample(&self, rng: &mut Rng, tries: u32) -> World {
        let mut pool: Vec<u8> = super::pos::bits(self.unknown).collect();
        let mut last = None;
        for attempt in 0..tries.max(1) * 2 {
            rng.shuffle(&mut pool);
            let w = self.place(&pool);
            let strict = attempt < tries;
            if self.consistent(&w, strict) {
                return w;
            }
            last = Some(w);
        }
        last.unwrap_or_else(|| self.place(&pool))
    }

    fn place(&self, pool: &[u8]) -> World {
        let mut hands = [0u64; 4];
        let mut dealt = [0u64; 4];
        let mut i = 0;
        for s in 0..4 {
            if s == self.me as usize {
                hands[s] = self.hand;
                dealt[s] = self.my_dealt;
                continue;
            }
            for _ in 0..self.sizes[s] {
                if let Some(&c) = pool.get(i) {
                    hands[s] |= 1u64 << c;
                }
                i += 1;
            }
            dealt[s] = hands[s] | self.up[s];
            for _ in 0..self.down[s] {
                if let Some(&c) = pool.get(i) {
                    dealt[s] |= 1u64 << c;
                }
                i += 1;
            }
        }
        // The rest is the hidden stock; the first of it lies under the upcard.
        let exposed = pool.get(i).copied().unwrap_or(self.upcard);
        World { hands, dealt, exposed }
    }

    fn consistent(&self, w: &World, strict: bool) -> bool {
        for s in 0..4 {
            if s == self.me as usize {
                continue;
            }
            if ends_at_once(w.dealt[s]) {
                return false;
            }
            if strict
                && let Some(l) = self.long_suit[s]
                && has_long_suit(w.dealt[s]) != l
            {
                return false;
            }
        }
        true
    }

    /// The search context and position of a world.
    pub fn search(&self, w: &World) -> (Ctx, Pos) {
        let hm_holder = (0..4u8).find(|&s| w.dealt[s as usize] & (1u64 << 37) != 0);
        let check = stock_check(w.exposed, &w.dealt);
        let ctx = Ctx {
            banker: self.banker,
            hm_holder,
            reward: self.reward,
            variants: self.variants,
            check,
            base: discard_penalties(self.banker, self.discarders.iter().copied()),
        };
        let mut pos = self.pos;
        pos.hands = w.hands;
        let all_up = self.up.iter().fold(0, |a, m| a | m);
        pos.check_up = check.is_some_and(|(c, _)| all_up & (1u64 << c) != 0);
        (ctx, pos)
    }

    /// The seat as a [`Seat`].
    pub fn seat(&self) -> Seat {
        Seat::wrapping(self.me as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::madiao::pos::from_state;
    use madiao::{Action, HandSetup, State, deck_from_seed};

    /// Along random hands, every seat's knowledge agrees with the true state: the true world is
    /// consistent with it and gives the engine's position; sampled worlds keep every known card
    /// in place and respect the counts.
    #[test]
    fn knowledge_agrees_with_the_state_and_samples_respect_it() {
        let mut rng = Rng::from_seed(9);
        let mut checked = 0;
        for seed in 0..300u64 {
            let v = if seed % 2 == 0 { madiao::Variants::STANDARD } else { madiao::Variants::FENG };
            let mut st = State::new(HandSetup {
                variants: v,
                ..HandSetup::new(Seat::wrapping((seed % 4) as usize), deck_from_seed(seed, 3))
            })
            .unwrap();
            while let Some(s) = st.to_move() {
                let k = Knowledge::from_view(&st.view(s));
                let dealt: [u64; 4] = std::array::from_fn(|x| st.dealt(Seat::wrapping(x)).bits());
                let hands: [u64; 4] = std::array::from_fn(|x| st.hand(Seat::wrapping(x)).bits());
                let truth = World { hands, dealt, exposed: st.deck()[38].number() };
                assert!(k.consistent(&truth, true), "seed {seed}: the truth is inconsistent with {k:?}");
                if st.phase() == Phase::Play {
                    let (ctx, pos) = from_state(&st).unwrap();
                    assert_eq!(k.search(&truth), (ctx, pos), "seed {seed}");
                }
                let w = k.sample(&mut rng, 50);
                assert_eq!(w.hands[s.index()], st.hand(s).bits());
                for (x, h) in hands.iter().enumerate() {
                    assert_eq!(w.hands[x].count_ones(), h.count_ones());
                    assert_eq!(w.dealt[x].count_ones(), 8);
                    assert_eq!(w.dealt[x] & k.up[x], k.up[x]);
                }
                let all = w.dealt.iter().fold(0u64, |a, d| a | d) | (1u64 << w.exposed);
                assert_eq!((all & ALL_CARDS).count_ones(), 33);
                checked += 1;
                let legal = st.legal_actions();
                let a = if legal.contains(&Action::Redeal(false)) && rng.chance(0.9) {
                    Action::Redeal(false)
                } else {
                    legal[rng.index(legal.len())]
                };
                st.apply(a).unwrap();
            }
        }
        assert!(checked > 3000);
    }
}
