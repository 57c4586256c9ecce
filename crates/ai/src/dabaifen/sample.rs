//! Dealing the hidden cards consistently with a seat's knowledge.
//!
//! Each hidden card goes to one of the places it may be, and each place receives exactly as many
//! cards as it holds. Cards are placed one at a time in a random order, each at a random allowed
//! place with weight equal to the room left there, skipping a place when the rest could no longer
//! be placed: by Hall's theorem for this transportation problem the rest can be placed iff for
//! every set `S` of places, the cards that may only be in `S` are no more than the room in `S` —
//! 32 sets of the five places, checked with a subset-sum pass. So a sample is always found when
//! one exists, without retries. (The distribution is close to, not exactly, uniform over the
//! consistent deals.) If the knowledge is contradictory (it never is for a view of a real deal),
//! constraints are dropped until a deal exists, so a bot never fails to sample.

use cards::Rng;

use super::know::Knowledge;
use super::pos::bits;

/// Cards to place, each with its allowed places, and the room of each place.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Hidden cards and their allowed places (bit per place).
    pub cards: Vec<(u8, u8)>,
    /// Room at each place.
    pub room: [u8; 5],
}

impl Problem {
    /// The problem of a seat's knowledge.
    pub fn of(k: &Knowledge) -> Problem {
        Problem { cards: bits(k.hidden).map(|c| (c as u8, k.allowed[c as usize])).collect(), room: k.counts }
    }

    /// True when the cards fit the places.
    pub fn feasible(&self) -> bool {
        let mut need = [0u32; 32];
        for &(_, a) in &self.cards {
            need[(a & 31) as usize] += 1;
        }
        feasible(&mut need, &self.room)
    }

    /// One consistent deal: the cards of each place.
    pub fn sample(&self, rng: &mut Rng) -> [u64; 5] {
        if self.feasible() {
            return self.sample_feasible(rng);
        }
        // Contradictory knowledge: drop the card constraints (keep only "not this seat's own").
        let any = self.cards.iter().fold(0u8, |m, &(_, a)| m | a);
        let loose = Problem { cards: self.cards.iter().map(|&(c, _)| (c, any)).collect(), room: self.room };
        if loose.feasible() {
            return loose.sample_feasible(rng);
        }
        // Counts that do not add up: deal round-robin into the places with room, then anywhere.
        let mut out = [0u64; 5];
        let mut room = self.room;
        for &(c, _) in &self.cards {
            let p = (0..5).find(|&p| room[p] > 0).unwrap_or(0);
            room[p] = room[p].saturating_sub(1);
            out[p] |= 1u64 << c;
        }
        out
    }

    fn sample_feasible(&self, rng: &mut Rng) -> [u64; 5] {
        let mut order: Vec<(u8, u8)> = self.cards.clone();
        rng.shuffle(&mut order);
        let mut need = [0u32; 32];
        for &(_, a) in &order {
            need[(a & 31) as usize] += 1;
        }
        let mut room = self.room;
        let mut out = [0u64; 5];
        for &(c, a) in &order {
            need[(a & 31) as usize] -= 1;
            let mut cand = a;
            loop {
                // Weighted choice among the remaining candidate places.
                let total: u32 = (0..5).filter(|&p| cand >> p & 1 != 0).map(|p| u32::from(room[p])).sum();
                if total == 0 {
                    // Cannot happen when the problem was feasible; place anywhere with room.
                    let p = (0..5).find(|&p| room[p] > 0).unwrap_or(0);
                    room[p] = room[p].saturating_sub(1);
                    out[p] |= 1u64 << c;
                    break;
                }
                let mut r = rng.below(total);
                let mut p = 0;
                for (q, &rq) in room.iter().enumerate() {
                    if cand >> q & 1 != 0 {
                        let w = u32::from(rq);
                        if r < w {
                            p = q;
                            break;
                        }
                        r -= w;
                    }
                }
                room[p] -= 1;
                let mut n = need;
                if feasible(&mut n, &room) {
                    out[p] |= 1u64 << c;
                    break;
                }
                room[p] += 1;
                cand &= !(1 << p);
            }
        }
        out
    }
}

/// Hall's condition: for every set of places, the cards confined to it fit its room. `need[m]`
/// counts cards whose allowed places are exactly `m` (overwritten).
fn feasible(need: &mut [u32; 32], room: &[u8; 5]) -> bool {
    // need[S] := cards whose allowed set is a subset of S.
    for p in 0..5 {
        for m in 0..32 {
            if m >> p & 1 != 0 {
                need[m] += need[m ^ (1 << p)];
            }
        }
    }
    for (m, &n) in need.iter().enumerate().skip(1) {
        let r: u32 = (0..5).filter(|&p| m >> p & 1 != 0).map(|p| u32::from(room[p])).sum();
        if n > r {
            return false;
        }
    }
    // Cards with no allowed place at all cannot be placed.
    need[0] == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_respect_places_and_room() {
        let mut rng = Rng::from_seed(1);
        // 10 cards: 0–3 only at place 0 or 4; 4–9 anywhere among 0, 1, 4; room 3, 4, 0, 0, 3.
        let mut cards = Vec::new();
        for c in 0..10u8 {
            cards.push((c, if c < 4 { 0b10001 } else { 0b10011 }));
        }
        let p = Problem { cards, room: [3, 4, 0, 0, 3] };
        assert!(p.feasible());
        for _ in 0..500 {
            let out = p.sample(&mut rng);
            assert_eq!(out[0].count_ones(), 3);
            assert_eq!(out[1].count_ones(), 4);
            assert_eq!(out[4].count_ones(), 3);
            assert_eq!(out[1] & 0b1111, 0, "cards 0–3 never at place 1");
            assert_eq!(out[0] | out[1] | out[4], (1 << 10) - 1);
        }
        // Infeasible: five cards confined to place 0 with room 3.
        let p = Problem { cards: (0..5).map(|c| (c, 1)).collect(), room: [3, 2, 0, 0, 0] };
        assert!(!p.feasible());
        let out = p.sample(&mut rng);
        assert_eq!(out[0].count_ones() + out[1].count_ones(), 5);
    }
}
