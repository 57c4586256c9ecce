//! Inference from the other players' plays: how well a sampled world explains what they did.
//!
//! The hard facts of [`super::know`] say which worlds are possible; this says which are likely.
//! Each earlier play by another seat is replayed in the world: the seat's hand at that moment is
//! its hand in the world plus the cards it has played since, and it is given what it could know
//! then (the cards it could not see, less the suits each seat had shown void; the burial if it
//! is the starter). The heuristic ([`super::policy`]) then plays for it. A world in which the
//! heuristic makes the play that was really made (up to interchangeable cards) keeps its weight;
//! otherwise the weight is multiplied by `miss` (plays with one legal choice always agree). PIMC
//! draws more worlds than it evaluates and keeps a weighted resample.

use dabaifen::{KittyMultiplier, View};

use super::heuristic::mask;
use super::know::{ALL, KITTY, Knowledge};
use super::policy::Ctx;
use super::pos::{Pos, TRUMPS};
use super::solver::{classes, pts};

/// One earlier play by another seat, with what was public just before it.
#[derive(Clone, Debug)]
pub struct Observed {
    seat: u8,
    play: u64,
    leader: u8,
    count: u8,
    size: u8,
    suit: u8,
    plays: [u64; 4],
    /// Cards played before this play (all tricks, this one included).
    played_before: u64,
    /// Cards this seat played before this play.
    own_before: u64,
    /// Voids shown before this play.
    void: [u8; 4],
}

impl Observed {
    /// The seat that made the play.
    pub fn seat(&self) -> u8 {
        self.seat
    }
}

/// The plays of the other seats in a view, in order, with their public context.
pub fn observed(view: &View, k: &Knowledge) -> Vec<Observed> {
    let t = k.t;
    let mut out = Vec::new();
    let mut played = 0u64;
    let mut own = [0u64; 4];
    let mut void = [0u8; 4];
    for tr in &view.tricks {
        let mut plays = [0u64; 4];
        let mut size = 0u8;
        let mut suit = 0u8;
        for (i, p) in tr.plays.iter().enumerate() {
            let s = p.seat.number();
            let m = mask(&p.cards);
            if i == 0 {
                size = m.count_ones() as u8;
                suit = t.eff[m.trailing_zeros() as usize];
            }
            if s != k.me {
                out.push(Observed {
                    seat: s,
                    play: m,
                    leader: tr.leader.number(),
                    count: i as u8,
                    size: if i == 0 { 0 } else { size },
                    suit: if i == 0 { 0 } else { suit },
                    plays,
                    played_before: played,
                    own_before: own[s as usize],
                    void,
                });
            }
            if i > 0 && (m & t.suit_mask[suit as usize]).count_ones() < u32::from(size) {
                void[s as usize] |= 1 << suit;
            }
            plays[s as usize] = m;
            played |= m;
            own[s as usize] |= m;
        }
    }
    out
}

/// The weight of a world (the hidden cards of each place) given the observed plays: `miss` to
/// the power of the number of plays the heuristic would not have made.
pub fn weight(view: &View, k: &Knowledge, obs: &[Observed], world: &[u64; 5], miss: f64) -> f64 {
    let mut w = 1.0;
    for o in obs {
        match explains(view, k, o, world) {
            None => return 0.0,
            Some(true) => {}
            Some(false) => w *= miss,
        }
    }
    w
}

/// For each seat, how many of its observed plays the heuristic would not have made in the world;
/// `None` when the world cannot have made one of them.
pub fn mismatches(view: &View, k: &Knowledge, obs: &[Observed], world: &[u64; 5]) -> Option<[u8; 4]> {
    let mut m = [0u8; 4];
    for o in obs {
        if !explains(view, k, o, world)? {
            m[o.seat as usize] += 1;
        }
    }
    Some(m)
}

/// Whether the heuristic, in the world, makes the observed play (up to interchangeable cards);
/// `None` when the world's hand could not have made it.
fn explains(view: &View, k: &Knowledge, o: &Observed, world: &[u64; 5]) -> Option<bool> {
    let t = k.t;
    let starter = view.starter.number();
    let defenders = 1 - view.starter.team();
    let per_card = view.variants.kitty_multiplier == KittyMultiplier::PerCard;
    let s = o.seat as usize;
    let total = world[s] | k.played_by[s];
    let hand = total & !o.own_before;
    if hand & o.play != o.play {
        // The world cannot have made this play (never for a consistent world).
        return None;
    }
    let burial = if o.seat == starter { k.buried.unwrap_or(world[KITTY]) } else { 0 };
    let unseen = ALL & !hand & !o.played_before & !burial;
    let mut maybe = [0u64; 4];
    for (q, m) in maybe.iter_mut().enumerate() {
        *m = if q == s {
            hand
        } else {
            let mut v = unseen;
            for e in 0..5 {
                if o.void[q] >> e & 1 != 0 {
                    v &= !t.suit_mask[e];
                }
            }
            v
        };
    }
    let lead_size = if o.count == 0 { hand.count_ones() } else { u32::from(o.size) };
    let mult = if per_card { 2 * lead_size } else { 2 };
    let kitty_points = if o.seat == starter {
        pts(burial)
    } else {
        let n = unseen.count_ones().max(6);
        pts(unseen) * 6 / n
    };
    let ctx = Ctx {
        t,
        me: o.seat,
        hand,
        maybe,
        void: o.void,
        leader: o.leader,
        count: o.count,
        size: o.size,
        suit: o.suit,
        plays: o.plays,
        defenders,
        bonus: mult * kitty_points,
    };
    let h = ctx.choose();
    Some(h == o.play || equivalent(&ctx, unseen, h, o.play))
}

/// Plays `a` and `b` of the context's seat take the same number of cards from each class of
/// interchangeable cards (seen from that seat: against every card it could not see).
fn equivalent(ctx: &Ctx, unseen: u64, a: u64, b: u64) -> bool {
    if a.count_ones() != b.count_ones() {
        return false;
    }
    let me = ctx.me as usize;
    let mut hands = [0u64; 4];
    hands[me] = ctx.hand;
    hands[(me + 1) & 3] = unseen;
    let pseudo = Pos {
        t: ctx.t,
        hands,
        plays: ctx.plays,
        leader: ctx.leader,
        count: ctx.count,
        size: ctx.size,
        suit: ctx.suit,
        defenders: 0,
        def_points: 0,
        kitty_points: 0,
        per_card: false,
        last_winner: 0,
        last_size: 1,
        buried: 0,
        starter: 0,
        void: [0; 4],
    };
    let mut cls = [0u64; 20];
    let n = classes(&pseudo, ctx.me, a | b, &mut cls);
    cls[..n].iter().all(|&c| (a & c).count_ones() == (b & c).count_ones())
        && (a & ctx.t.suit_mask[TRUMPS]).count_ones() == (b & ctx.t.suit_mask[TRUMPS]).count_ones()
}
