//! A burial or a play built one card at a time, in ascending card-number order: which cards may
//! be picked next so that the picks can still become a legal action, and whether the picks so far
//! are one. Interfaces that take one card per step (a learning agent's action ids, a keyboard)
//! ask this instead of keeping rules of their own.

use cards::Seat;

use crate::card::Cards;
use crate::state::{Action, Phase, State};
use crate::variants::Revoke;

/// What may follow a partial pick (see [`State::pick_options`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PickOptions {
    /// The cards that may be picked next: each, added to the picks, leaves at least one legal
    /// burial or play made of the picks and cards above it.
    pub next: Cards,
    /// The picks themselves are a legal burial or play.
    pub complete: bool,
}

impl State {
    /// For a burial or a play being built in ascending card-number order from `picked`: which
    /// cards may come next, and whether `picked` is already a legal action. A legal set `S`
    /// continues `picked` when it holds every picked card and no other card below the highest
    /// picked one. Outside the burial and the tricks, or for picks no legal set continues,
    /// nothing may be picked and nothing is complete.
    pub fn pick_options(&self, picked: Cards) -> PickOptions {
        let none = PickOptions { next: Cards::EMPTY, complete: false };
        let Some(seat) = self.to_move() else { return none };
        let p = picked.bits();
        // Cards at or below the highest pick.
        let low = if p == 0 { 0 } else { u64::MAX >> p.leading_zeros() };
        match self.phase {
            Phase::Burying => {
                // Any six cards of the hand are a burial.
                let hand = self.hands[seat.index()];
                let k = p.count_ones();
                if p & !hand != 0 || k > 6 {
                    return none;
                }
                let mut next = 0u64;
                let mut above = hand & !low;
                while above != 0 {
                    let c = above.trailing_zeros();
                    above &= above - 1;
                    // After c, 5 − k more cards must remain above it.
                    if k < 6 && above.count_ones() + 1 + k >= 6 {
                        next |= 1 << c;
                    }
                }
                PickOptions { next: Cards::from_bits(next), complete: k == 6 }
            }
            Phase::Playing if self.tricks[self.trick_no as usize].count == 0 => {
                self.lead_pick_options(seat, p, low)
            }
            Phase::Playing => self.pick_options_by_enumeration(p),
            _ => none,
        }
    }

    /// [`State::pick_options`] for a lead, without enumerating the leads (`state.rs`, "Leads
    /// (§8)"): a single card of the hand, or two or more cards of one effective suit's pool — its
    /// top cards, or under `revoke: penalize` all its cards (a suit of which the hand holds fewer
    /// than two has no multi-card lead). So picks of one pool continue with any pool card above
    /// them, and are complete when they are one card or lie in a pool.
    fn lead_pick_options(&self, seat: Seat, p: u64, low: u64) -> PickOptions {
        let hand = self.hands[seat.index()];
        if p & !hand != 0 {
            return PickOptions { next: Cards::EMPTY, complete: false };
        }
        if p == 0 {
            // Every card of the hand begins a single-card lead.
            return PickOptions { next: Cards::from_bits(hand), complete: false };
        }
        let t = self.tables;
        let mine = hand & t.suit_mask[t.eff[p.trailing_zeros() as usize] as usize];
        let pool = match mine.count_ones() {
            0 | 1 => 0,
            _ if self.variants.revoke == Revoke::Penalize => mine,
            _ => self.tops_in(seat, mine),
        };
        let in_pool = p & !pool == 0;
        PickOptions {
            next: Cards::from_bits(if in_pool { pool & !low } else { 0 }),
            complete: p.count_ones() == 1 || in_pool,
        }
    }

    /// [`State::pick_options`] from the legal actions themselves.
    pub(crate) fn pick_options_by_enumeration(&self, p: u64) -> PickOptions {
        let mut sets = Vec::new();
        self.for_each_legal_action(|a| {
            if let Action::Play(s) | Action::Bury(s) = a {
                sets.push(s);
            }
        });
        pick_options_among(sets, Cards::from_bits(p))
    }
}

/// [`State::pick_options`] over a given list of legal sets (e.g. the legal actions a bot is
/// shown): the next picks that some set continues, and whether `picked` is one of them.
pub fn pick_options_among(sets: impl IntoIterator<Item = Cards>, picked: Cards) -> PickOptions {
    let p = picked.bits();
    let low = if p == 0 { 0 } else { u64::MAX >> p.leading_zeros() };
    let mut next = 0u64;
    let mut complete = false;
    for s in sets {
        let s = s.bits();
        if s & low != p {
            continue;
        }
        let rest = s & !p;
        if rest == 0 {
            complete = true;
        } else {
            next |= rest & rest.wrapping_neg();
        }
    }
    PickOptions { next: Cards::from_bits(next), complete }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::random::RandomPolicy;
    use crate::{Match, Variants, deal_from_seed};

    /// Every set reachable by following `pick_options` from no picks, stopping where complete.
    fn reachable(st: &State, picked: u64, out: &mut HashSet<u64>) {
        let o = st.pick_options(Cards::from_bits(picked));
        if o.complete {
            out.insert(picked);
        }
        let mut b = o.next.bits();
        assert_eq!(b & picked, 0, "a picked card offered again");
        if picked != 0 {
            assert!(b.trailing_zeros() > 63 - picked.leading_zeros(), "picks must ascend");
        }
        while b != 0 {
            let c = b & b.wrapping_neg();
            b &= b - 1;
            reachable(st, picked | c, out);
        }
    }

    fn legal_sets(st: &State) -> HashSet<u64> {
        let mut v = HashSet::new();
        st.for_each_legal_action(|a| {
            if let Action::Play(s) | Action::Bury(s) = a {
                v.insert(s.bits());
            }
        });
        v
    }

    #[test]
    fn picks_reach_exactly_the_legal_burials_and_plays() {
        let mut checked = [0usize; 2];
        for variants in
            [Variants::STANDARD, Variants { revoke: crate::Revoke::Penalize, ..Variants::STANDARD }]
        {
            for k in 0..12 {
                let m = Match::new(variants, cards::Seat::ALL[(k % 4) as usize]);
                let (deck, rng) = deal_from_seed(7, k);
                let mut st = State::new(&m.setup(deck)).unwrap();
                let mut policy = RandomPolicy::new(rng);
                while st.to_move().is_some() {
                    if matches!(st.phase(), Phase::Burying | Phase::Playing) {
                        // The burial's shortcut agrees with the enumeration.
                        if st.phase() == Phase::Burying {
                            checked[0] += 1;
                            let hand = st.hand(st.to_move().unwrap()).bits();
                            for picked in [0u64, hand & hand.wrapping_neg(), hand & !(hand >> 1 & hand)] {
                                let p = picked & hand;
                                if p.count_ones() <= 6 {
                                    assert_eq!(
                                        st.pick_options(Cards::from_bits(p)),
                                        st.pick_options_by_enumeration(p)
                                    );
                                }
                            }
                        } else {
                            checked[1] += 1;
                            // The lead's closed form agrees with the enumeration for picks of
                            // the hand, of one suit, across suits, and of cards not held.
                            let seat = st.to_move().unwrap();
                            let hand = st.hand(seat).bits();
                            let other = st.hand(seat.next()).bits();
                            let mut b = hand;
                            let mut prefixes =
                                vec![0, other & other.wrapping_neg(), hand, hand & !(hand >> 1)];
                            while b != 0 {
                                let c = b & b.wrapping_neg();
                                b &= b - 1;
                                prefixes.extend([
                                    c,
                                    c | (b & b.wrapping_neg()),
                                    hand & !(c - 1),
                                    c | (b >> 1 & b),
                                ]);
                            }
                            for p in prefixes {
                                assert_eq!(
                                    st.pick_options(Cards::from_bits(p)),
                                    st.pick_options_by_enumeration(p),
                                    "picks {p:#x} of hand {hand:#x}"
                                );
                            }
                            let mut got = HashSet::new();
                            reachable(&st, 0, &mut got);
                            assert_eq!(got, legal_sets(&st));
                        }
                    } else {
                        assert_eq!(
                            st.pick_options(Cards::EMPTY),
                            PickOptions { next: Cards::EMPTY, complete: false }
                        );
                    }
                    let a = policy.choose(&st);
                    st.apply(a).unwrap();
                }
            }
        }
        assert!(checked[0] > 10 && checked[1] > 200, "{checked:?}");
    }

    #[test]
    fn picks_not_continued_by_any_legal_set_offer_nothing() {
        let m = Match::new(Variants::STANDARD, cards::Seat::ALL[0]);
        let (deck, rng) = deal_from_seed(3, 0);
        let mut st = State::new(&m.setup(deck)).unwrap();
        let mut policy = RandomPolicy::new(rng);
        while st.phase() != Phase::Playing {
            let a = policy.choose(&st);
            st.apply(a).unwrap();
        }
        let seat = st.to_move().unwrap();
        let other = st.hand(seat.next()).bits();
        let o = st.pick_options(Cards::from_bits(other & other.wrapping_neg()));
        assert_eq!(o, PickOptions { next: Cards::EMPTY, complete: false });
    }
}
