//! What one seat may know (`State::view`).
//!
//! A view holds: the rules variants in force; the seat's own hand (during the draw, the cards it has drawn so far); how many
//! cards every seat holds (other hands are never shown card by card); the public draw state (how
//! many cards have been drawn, who draws next); a declaration with its card and moment; the
//! kitty cards turned face up when nobody declared; a hand shown to annul; every trick's plays
//! with who played them, the trick winners and their points; the team points; whose turn it is.
//! The kitty as taken and the six buried cards are shown only to the starter once he has taken
//! it; the buried cards become public when a played or revoked deal is scored (they count, §9).
//! After the deal, the result and its account are included; after a revoke the account names a
//! stronger card another seat held for each non-top card of the lead (the proof of the revoke).
//!
//! During the polls of the draw and the annulment only the asked seat's view says it is its
//! turn: being asked would tell the others that it holds a card it may show, or no trump.

use cards::{Seat, Viewer};
use serde::{Deserialize, Serialize};

use crate::account::Settlement;
use crate::card::{Card, Cards, Rank};
use crate::score::DealResult;
use crate::score::Outcome;
use crate::state::{Declaration, KittyTurn, Phase, State};
use crate::trump::{Trump, sorted_plain};
use crate::variants::Variants;

/// One play of a trick as seen by everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "DabaifenPlayView"))]
pub struct PlayView {
    /// Who played.
    pub seat: Seat,
    /// The cards played.
    pub cards: Vec<Card>,
}

/// A trick as seen by everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "DabaifenTrickView"))]
pub struct TrickView {
    /// Who led.
    pub leader: Seat,
    /// The plays so far, in order.
    pub plays: Vec<PlayView>,
    /// The winner, once complete.
    pub winner: Option<Seat>,
    /// Who is winning the trick with the plays made so far (§8 "Who wins the trick"); the
    /// winner once complete.
    pub leading: Option<Seat>,
    /// The card points in the trick, once complete.
    pub points: Option<u32>,
}

/// What a seat may know of a deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "DabaifenView"))]
pub struct View {
    /// The seat this view is for (`null` for a spectator).
    pub seat: Option<Seat>,
    /// The phase.
    pub phase: Phase,
    /// Whose turn it is; during the draw and annulment polls, set only in the asked seat's view.
    pub to_move: Option<Seat>,
    /// The rules variants in force (public: every player knows the rules of the table).
    pub variants: Variants,
    /// The match's first deal.
    pub first_deal: bool,
    /// An open deal (§6).
    pub open: bool,
    /// Team ranks before the deal.
    pub ranks: [Rank; 2],
    /// The starter who drew first (provisional in a first or open deal).
    pub provisional_starter: Seat,
    /// The starter as things stand.
    pub starter: Seat,
    /// The seat that took `deck[0]`.
    pub first_drawer: Seat,
    /// Cards drawn so far in all (48 once the draw is complete).
    pub drawn: u8,
    /// This seat's cards (strongest first once trumps are fixed).
    pub hand: Vec<Card>,
    /// How many cards each seat holds.
    pub hand_sizes: [u8; 4],
    /// The declaration, if any.
    pub declaration: Option<Declaration>,
    /// How the kitty was turned, if it was.
    pub kitty_turn: Option<KittyTurn>,
    /// The kitty cards turned face up (public).
    pub kitty_turned: Vec<Card>,
    /// Trumps, once fixed.
    pub trump: Option<Trump>,
    /// A hand shown to annul the deal: the seat and its twelve cards.
    pub annulment: Option<(Seat, Vec<Card>)>,
    /// The six kitty cards as taken: only for the starter, once he has taken them.
    pub kitty: Option<Vec<Card>>,
    /// The six buried cards: for the starter once buried; for everyone once the deal is scored.
    pub buried: Option<Vec<Card>>,
    /// The tricks so far, the current one last.
    pub tricks: Vec<TrickView>,
    /// Card points taken in tricks by each team.
    pub team_points: [u32; 2],
    /// The seat that revoked, if one did.
    pub revoke: Option<Seat>,
    /// The result, once the deal is over.
    pub result: Option<DealResult>,
    /// The account, once the deal is over.
    pub account: Option<Settlement>,
}

impl View {
    /// True once the starter is settled: always in a deal after the first, unless it is an open
    /// deal; in the first deal or an open deal, once trumps are fixed (a showing makes its seat
    /// the starter, §4; turning the kitty keeps the provisional starter, §5).
    pub fn starter_settled(&self) -> bool {
        self.trump.is_some() || !(self.first_deal || self.open)
    }
}

impl State {
    /// What `seat` may know now (see the module documentation of [`crate::view`]).
    pub fn view(&self, seat: Seat) -> View {
        let sort = |set: Cards| match self.tables() {
            Some(t) => t.sorted(set),
            None => sorted_plain(set),
        };
        let hand_sizes = std::array::from_fn(|i| self.hand(Seat::ALL[i]).len() as u8);
        let took_kitty = self.trump.is_some()
            && matches!(self.phase, Phase::Burying | Phase::Playing | Phase::Over)
            && self.annulled_by.is_none()
            && !(self.phase == Phase::Over
                && self.result.as_ref().is_some_and(|r| r.outcome == Outcome::Annulled));
        let is_starter = seat == self.starter;
        let over = self.phase == Phase::Over;
        View {
            seat: Some(seat),
            phase: self.phase,
            // Being asked in a poll tells that a seat holds a card it may show (draw) or holds
            // no trump (annulment): only the asked seat sees it is its turn.
            to_move: match self.phase {
                Phase::Drawing | Phase::Annulling => self.to_move().filter(|&s| s == seat),
                _ => self.to_move(),
            },
            variants: self.variants,
            first_deal: self.first_deal,
            open: self.open,
            ranks: self.ranks,
            provisional_starter: self.provisional,
            starter: self.starter,
            first_drawer: self.first_drawer,
            drawn: self.drawn,
            hand: sort(self.hand(seat)),
            hand_sizes,
            declaration: self.declaration,
            kitty_turn: self.kitty_turn,
            kitty_turned: self
                .kitty_turn
                .map_or(Vec::new(), |k| self.deck[48..48 + k.turned as usize].to_vec()),
            trump: self.trump,
            annulment: self.annulled_by.map(|s| (s, sort(self.dealt(s)))),
            kitty: (took_kitty && is_starter).then(|| sort(self.kitty())),
            buried: (self.buried != 0 && (is_starter || over)).then(|| sort(self.buried())),
            tricks: self
                .tricks()
                .iter()
                .map(|t| TrickView {
                    leader: t.leader,
                    plays: t.in_order().map(|(s, c)| PlayView { seat: s, cards: sort(c) }).collect(),
                    winner: t.winner,
                    leading: self.tables().and_then(|tables| t.leading(tables)),
                    points: t.winner.map(|_| t.points),
                })
                .collect(),
            team_points: self.team_points,
            revoke: self.revoke,
            result: self.result.clone(),
            account: over.then(|| {
                let mut a = self.settlement();
                a.lines.retain(|l| !matches!(l, crate::account::Event::KeptDeal { .. }));
                a
            }),
        }
    }

    /// What `viewer` may know now: a seat's [`State::view`], or for a spectator the view every
    /// seat shares (no hand, no kitty; the buried cards only once the deal is over, §9). A
    /// spectator's view has no `seat`.
    pub fn view_for(&self, viewer: Viewer) -> View {
        match viewer {
            Viewer::Seat(s) => self.view(s),
            Viewer::Spectator => {
                let mut v = self.view(self.provisional);
                v.seat = None;
                v.hand.clear();
                v.kitty = None;
                if self.phase != Phase::Over {
                    v.buried = None;
                }
                // Polls are private to the asked seat (see the module documentation).
                if matches!(v.phase, Phase::Drawing | Phase::Annulling) {
                    v.to_move = None;
                }
                v
            }
        }
    }

    /// What `viewer` may know while the draw is dealt at a steady pace and `drawn` cards are
    /// out (§4): only those cards (a seat's own among them), nothing the engine has decided
    /// beyond them — no declaration, no trump, nobody asked.
    pub fn draw_view(&self, viewer: Viewer, drawn: u8) -> View {
        let first = self.first_drawer;
        let drawn = drawn.min(48);
        let mut hand_sizes = [0u8; 4];
        for p in 0..usize::from(drawn) {
            hand_sizes[first.offset((p % 4) as u8).index()] += 1;
        }
        let (seat, hand) = match viewer {
            Viewer::Seat(s) => (Some(s), sorted_plain(self.drawn_cards(s, drawn))),
            Viewer::Spectator => (None, Vec::new()),
        };
        View {
            seat,
            phase: Phase::Drawing,
            to_move: None,
            variants: self.variants,
            first_deal: self.first_deal,
            open: self.open,
            ranks: self.ranks,
            provisional_starter: self.provisional,
            starter: self.provisional,
            first_drawer: first,
            drawn,
            hand,
            hand_sizes,
            declaration: None,
            kitty_turn: None,
            kitty_turned: Vec::new(),
            trump: None::<Trump>,
            annulment: None,
            kitty: None,
            buried: None,
            tricks: Vec::new(),
            team_points: [0, 0],
            revoke: None,
            result: None,
            account: None,
        }
    }

    /// What `viewer` may know at a table that answers the polls in private (`docs/protocol.md`,
    /// "Hidden information"): being asked tells that a seat holds a card it may show (§4) or no
    /// trump (§6), so no view shows anyone to move during the draw or the annulment.
    ///
    /// `drawn`: the draw is dealt at a steady pace and that many cards are out (see
    /// [`State::draw_view`]). `window`: the annulment window is open, in which every view looks
    /// the same whether or not anyone may annul (§6): the twelve cards dealt, and the kitty not
    /// yet taken (§7).
    pub fn private_poll_view(&self, viewer: Viewer, drawn: Option<u8>, window: bool) -> View {
        let mut v = match drawn {
            Some(d) => self.draw_view(viewer, d),
            None => self.view_for(viewer),
        };
        if window && drawn.is_none() {
            v.phase = Phase::Annulling;
            v.hand = match (viewer, self.tables()) {
                (Viewer::Seat(s), Some(t)) => t.sorted(self.dealt(s)),
                _ => Vec::new(),
            };
            v.hand_sizes = [12; 4];
            v.kitty = None;
            v.buried = None;
        }
        if matches!(v.phase, Phase::Drawing | Phase::Annulling) {
            v.to_move = None;
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::RandomPolicy;
    use crate::setup::{HandSetup, deal_from_seed};

    /// In the first deal the starter is provisional until trumps are fixed; in a later deal that
    /// is not open it is settled from the start.
    #[test]
    fn the_starter_is_settled_once_trumps_are_fixed_in_a_first_deal() {
        for seed in 0..10 {
            let (deck, rng) = deal_from_seed(seed, 0);
            let setup = HandSetup::first(deck, Seat::ALL[(seed % 4) as usize], Variants::STANDARD);
            let mut st = State::new(&setup).unwrap();
            assert!(!st.view(Seat::ALL[0]).starter_settled());
            let mut policy = RandomPolicy::new(rng);
            while st.to_move().is_some() {
                let v = st.view(Seat::ALL[1]);
                assert_eq!(v.starter_settled(), v.trump.is_some(), "seed {seed}");
                st.apply(policy.choose(&st)).unwrap();
            }
            let later = HandSetup { first_deal: false, ..setup };
            assert!(State::new(&later).unwrap().view(Seat::ALL[2]).starter_settled());
        }
    }
}
