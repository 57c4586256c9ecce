//! A match: deals chained until a team wins the game (§10), with annulled deals followed by open
//! deals (§6).

use cards::{Rng, Seat};

use crate::card::{Card, Rank};
use crate::score::DealResult;
use crate::score::Outcome;
use crate::setup::{DealSetup, FirstDraw, first_draw};
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
        }
    }

    /// A new match whose provisional starter is drawn with `rng` (§4).
    pub fn from_draw(variants: Variants, rng: &mut Rng) -> (Match, FirstDraw) {
        let draw = first_draw(rng);
        (Match::new(variants, draw.starter), draw)
    }

    /// A match picked up before a deal with these fields (e.g. a record that does not start at the
    /// match's first deal).
    pub fn resume(setup: &DealSetup) -> Match {
        Match {
            variants: setup.variants,
            ranks: setup.ranks,
            starter: setup.starter,
            first_deal: setup.first_deal,
            open: setup.open,
            winner: None,
            deals: 0,
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

    /// True once a team has won.
    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// How many deals have been recorded (annulled ones included).
    pub fn deals(&self) -> u32 {
        self.deals
    }

    /// The setup of the next deal from a deck.
    pub fn setup(&self, deck: [Card; 54]) -> DealSetup {
        DealSetup {
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
        if r.game_over {
            self.winner = r.winner;
        }
    }
}
