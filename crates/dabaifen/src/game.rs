//! A match: deals chained until a team wins the game (§10), with annulled deals followed by open
//! deals (§6).

use cards::{Rng, Seat};

use crate::card::{Card, Rank};
use crate::score::DealResult;
use crate::score::Outcome;
use crate::setup::{BoardStart, FirstDraw, HandSetup, first_draw};
use crate::variants::Variants;

/// The state of a match between deals: what the next deal's setup will be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    variants: Variants,
    ranks: [Rank; 2],
    starter: Seat,
    first_deal: bool,
    open: bool,
    winner: Option<u8>,
    deals: u32,
    /// A duplicate board's match: it ends after this many deals that were not annulled.
    limit: Option<u32>,
    /// Deals recorded that were not annulled.
    played: u32,
}

impl Match {
    /// A new match whose first deal has `starter` as provisional starter (from the first-deal draw).
    pub fn new(variants: Variants, starter: Seat) -> Match {
        Match {
            variants,
            ranks: [Rank::Two; 2],
            starter,
            first_deal: true,
            open: false,
            winner: None,
            deals: 0,
            limit: None,
            played: 0,
        }
    }

    /// The match of a duplicate board (`docs/dabaifen.md`, "Duplicate boards"): its first deal
    /// starts as `start` says (a later deal: the starter fixed, §12.3, both teams at the board's
    /// rank), and it is over once one deal has been played or ended by a revoke. An annulled
    /// deal is followed by an open deal as in any match (§6) and does not count.
    pub fn board(variants: Variants, start: BoardStart) -> Match {
        Match {
            variants,
            ranks: [start.rank; 2],
            starter: start.starter,
            first_deal: false,
            open: false,
            winner: None,
            deals: 0,
            limit: Some(1),
            played: 0,
        }
    }

    /// A new match whose provisional starter is drawn with `rng` (§4).
    pub fn from_draw(variants: Variants, rng: &mut Rng) -> (Match, FirstDraw) {
        let draw = first_draw(rng);
        (Match::new(variants, draw.starter), draw)
    }

    /// A match picked up before a deal with these fields (e.g. a record that does not start at the
    /// match's first deal).
    pub fn resume(setup: &HandSetup) -> Match {
        Match {
            variants: setup.variants,
            ranks: setup.ranks,
            starter: setup.starter,
            first_deal: setup.first_deal,
            open: setup.open,
            winner: None,
            deals: 0,
            limit: None,
            played: 0,
        }
    }

    /// The variants.
    pub fn variants(&self) -> &Variants {
        &self.variants
    }

    /// The team ranks before the next deal.
    pub fn ranks(&self) -> [Rank; 2] {
        self.ranks
    }

    /// The (provisional) starter of the next deal.
    pub fn starter(&self) -> Seat {
        self.starter
    }

    /// True when the next deal is the match's first.
    pub fn is_first_deal(&self) -> bool {
        self.first_deal
    }

    /// True when the next deal is open (the previous one was annulled).
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// The team that won the game, once it is over.
    pub fn winner(&self) -> Option<u8> {
        self.winner
    }

    /// True once a team has won, or a board's match has played its deal ([`Match::board`]).
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.limit.is_some_and(|n| self.played >= n)
    }

    /// How many deals have been recorded (annulled ones included).
    pub fn deals(&self) -> u32 {
        self.deals
    }

    /// The setup of the next deal from a deck.
    pub fn setup(&self, deck: [Card; 54]) -> HandSetup {
        HandSetup {
            deck,
            starter: self.starter,
            first_deal: self.first_deal,
            open: self.open,
            ranks: self.ranks,
            variants: self.variants,
        }
    }

    /// Moves on past a finished deal: ranks, next starter, open deal after an annulment, game end.
    pub fn record(&mut self, r: &DealResult) {
        self.deals += 1;
        self.ranks = r.ranks;
        self.starter = r.next_starter;
        self.first_deal = false;
        self.open = r.outcome == Outcome::Annulled;
        if !self.open {
            self.played += 1;
        }
        if r.game_over {
            self.winner = r.winner;
        }
    }
}
