//! What a seat knows about the hidden cards, read from its view (and, under `revoke: refuse`,
//! from its own legal leads): for every card it cannot see, the places it may be.
//!
//! Places are the four seats (never the seat itself) and place [`KITTY`]: the kitty during the
//! annulment polls, the buried six after the burial (while the starter buries, the kitty is in his
//! hand and there is no such place). The facts used:
//! - its own hand; every played card; the kitty and the burial for the starter once he has them;
//! - the declared card stays in the declarer's hand until played (§4) — or in the burial if the
//!   declarer is the starter; the kitty cards turned face up (§5) are in the kitty, and once the
//!   starter has taken it, in his hand or the burial;
//! - voids: a follower who played fewer cards of the led suit than the lead had holds no more of
//!   it (§8: as many of the led suit as held), from then on;
//! - top-card facts: a multi-card lead that did not end the deal proves that no other player held
//!   a card of that suit strictly stronger than its weakest card (§8) — such a card, if unseen, is
//!   in the leader's hand or the burial;
//! - under `revoke: refuse` its own legal multi-card leads are exactly its top cards, which proves
//!   the same for the stronger unseen cards of those suits (they are in the burial).
//!
//! Nothing is inferred from how others chose among legal plays or polls.

use cards::Seat;
use dabaifen::{Action, Card, Phase, Revoke, Tables, View};

use super::pos::bits;

/// The kitty (during the annulment polls) or the burial (after it) as a place of hidden cards.
pub const KITTY: usize = 4;

/// All 54 cards.
pub const ALL: u64 = (1u64 << 54) - 1;

/// A seat's knowledge of where the cards it cannot see are.
#[derive(Clone, Debug)]
pub struct Knowledge {
    /// The seat.
    pub me: u8,
    /// The trumps' card order (the deal's trumps are fixed in every phase this is built for).
    pub t: &'static Tables,
    /// Its own hand.
    pub hand: u64,
    /// Every card played to a trick.
    pub played: u64,
    /// The cards each seat has played.
    pub played_by: [u64; 4],
    /// The burial, when known (the starter after burying, everyone after the deal).
    pub buried: Option<u64>,
    /// The cards it cannot see.
    pub hidden: u64,
    /// For each hidden card, the places it may be (bit per seat, bit 4 for the kitty/burial).
    pub allowed: [u8; 54],
    /// How many hidden cards each place holds.
    pub counts: [u8; 5],
    /// Known voids: bit `e` of `void[s]` when seat `s` holds no card of effective suit `e`.
    pub void: [u8; 4],
    /// The starter.
    pub starter: u8,
}

fn mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, c| m | 1u64 << c.number())
}

impl Knowledge {
    /// The knowledge of the view's seat, once trumps are fixed (annulment polls, burial, play);
    /// `legal` are its legal actions now (used under `revoke: refuse`). `None` before trumps
    /// are fixed.
    pub fn from_view(view: &View, legal: &[Action]) -> Option<Knowledge> {
        let trump = view.trump?;
        let t = Tables::of(trump);
        let me = view.seat?.number();
        let starter = view.starter.number();
        let hand = mask(&view.hand);
        let mut played = 0u64;
        let mut played_by = [0u64; 4];
        for tr in &view.tricks {
            for p in &tr.plays {
                played |= mask(&p.cards);
                played_by[p.seat.index()] |= mask(&p.cards);
            }
        }
        let burial_phase = matches!(view.phase, Phase::Playing | Phase::Over);
        let buried = view.buried.as_ref().map(|b| mask(b));
        let mut hidden = ALL & !hand & !played;
        if let Some(b) = buried {
            hidden &= !b;
        }
        let mut counts = [0u8; 5];
        let mut places = 0u8;
        for s in 0..4u8 {
            if s != me {
                counts[s as usize] = view.hand_sizes[s as usize];
                places |= 1 << s;
            }
        }
        // The kitty: during the annulment polls six cards lie there; while the starter buries
        // they are in his hand (counted in his hand size); after the burial, the buried six are a
        // place of their own unless this seat knows them.
        let kitty_hidden = match view.phase {
            Phase::Annulling => true,
            Phase::Burying => false,
            _ => burial_phase && buried.is_none(),
        };
        if kitty_hidden {
            counts[KITTY] = 6;
            places |= 1 << KITTY;
        }
        let mut k = Knowledge {
            me,
            t,
            hand,
            played,
            played_by,
            buried,
            hidden,
            allowed: [0; 54],
            counts,
            void: [0; 4],
            starter,
        };
        for c in bits(hidden) {
            k.allowed[c as usize] = places;
        }
        // The declared card.
        if let Some(d) = view.declaration {
            let c = d.card.number();
            if hidden >> c & 1 != 0 {
                let mut at = 1u8 << d.seat.number();
                if d.seat.number() == starter && burial_phase {
                    at |= 1 << KITTY;
                }
                k.restrict(u32::from(c), at);
            }
        }
        // Kitty cards turned face up.
        for c in &view.kitty_turned {
            let c = c.number();
            if hidden >> c & 1 != 0 {
                let at = if view.phase == Phase::Annulling { 1 << KITTY } else { 1 << starter | 1 << KITTY };
                k.restrict(c as u32, at);
            }
        }
        // Voids and top-card facts, trick by trick.
        let last = view.tricks.len();
        for (i, tr) in view.tricks.iter().enumerate() {
            let Some(lead) = tr.plays.first() else { continue };
            let led = mask(&lead.cards);
            let suit = t.eff[led.trailing_zeros() as usize] as usize;
            let size = led.count_ones();
            let revoked = view.revoke.is_some() && i + 1 == last;
            if size >= 2 && !revoked {
                let weakest = bits(led).min_by_key(|&c| t.strength[c as usize]).unwrap_or(0);
                let proof = t.stronger[weakest as usize] & hidden;
                let at = 1u8 << lead.seat.number() | 1 << KITTY;
                for c in bits(proof) {
                    k.restrict(c, at);
                }
            }
            for p in &tr.plays[1..] {
                let cards = mask(&p.cards);
                if (cards & t.suit_mask[suit]).count_ones() < size {
                    k.set_void(p.seat.number(), suit);
                }
            }
        }
        // Under `refuse`, the legal multi-card leads are exactly the top cards.
        let leading = view.tricks.last().is_some_and(|tr| tr.plays.is_empty());
        if view.variants.revoke == Revoke::Refuse && view.phase == Phase::Playing && leading {
            let mut tops = [0u64; 5];
            for a in legal {
                if let Action::Play(s) = a
                    && s.len() >= 2
                {
                    let s = s.bits();
                    tops[t.eff[s.trailing_zeros() as usize] as usize] |= s;
                }
            }
            for m in tops {
                if m.count_ones() >= 2 {
                    let weakest = bits(m).min_by_key(|&c| t.strength[c as usize]).unwrap_or(0);
                    for c in bits(t.stronger[weakest as usize] & hidden) {
                        k.restrict(c, 1 << KITTY);
                    }
                }
            }
        }
        Some(k)
    }

    /// Narrows the places of hidden card `c` (never to nothing: a contradiction keeps the old
    /// places, so that sampling stays possible whatever the view says).
    pub fn restrict(&mut self, c: u32, at: u8) {
        let a = self.allowed[c as usize] & at;
        if a != 0 {
            self.allowed[c as usize] = a;
        }
    }

    /// Records that seat `s` holds no card of effective suit `suit`.
    pub fn set_void(&mut self, s: u8, suit: usize) {
        self.void[s as usize] |= 1 << suit;
        if s == self.me {
            return;
        }
        for c in bits(self.hidden & self.t.suit_mask[suit]) {
            self.restrict(c, !(1u8 << s));
        }
    }

    /// The hidden cards that may be at place `p`.
    pub fn maybe(&self, p: usize) -> u64 {
        let mut m = 0;
        for c in bits(self.hidden) {
            if self.allowed[c as usize] >> p & 1 != 0 {
                m |= 1u64 << c;
            }
        }
        m
    }

    /// The hidden cards that may be in another seat's hand.
    pub fn maybe_others(&self) -> u64 {
        let mut m = 0;
        for c in bits(self.hidden) {
            if self.allowed[c as usize] & 0xF != 0 {
                m |= 1u64 << c;
            }
        }
        m
    }

    /// The seat as a [`Seat`].
    pub fn seat(&self) -> Seat {
        Seat::ALL[self.me as usize]
    }
}
