//! What the rules let a table show a seat beyond its view: the compact summary of what it may do
//! now, which cards it may show during a draw dealt at a steady pace, whether it may annul, who is
//! winning the trick in progress. Pure: the server, the terminal and the page keep no rules of
//! their own and ask these.

use cards::Seat;

use crate::card::{Card, Cards, Suit};
use crate::state::{Phase, State, Trick};
use crate::trump::{EffSuit, Tables};
use crate::variants::{Annul, Revoke};

/// The cards of one suit (the trump suit counting as one) a leader holds two or more of (§8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeadGroup {
    /// The effective suit: `None` for trumps.
    pub suit: Option<Suit>,
    /// Every card of the suit in the hand, strongest first.
    pub cards: Vec<Card>,
    /// Under `revoke: refuse`, the top cards among them (only these may be led together);
    /// `None` under `revoke: penalize`, where any of them may be led at the risk of a revoke.
    pub tops: Option<Vec<Card>>,
}

/// What a seat to move may do, in a compact form (§7, §8): a client offers these choices and
/// sends one; the engine still checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LegalSummary {
    /// Bury exactly six of these cards (§7).
    Bury {
        /// The hand with the kitty, strongest first.
        from: Vec<Card>,
    },
    /// Lead one card of `singles`, or two or more cards of one group (§8 "What may be led").
    Lead {
        /// Every card of the hand, strongest first.
        singles: Vec<Card>,
        /// The suits with two or more cards.
        groups: Vec<LeadGroup>,
        /// The `revoke` variant in force.
        revoke: Revoke,
    },
    /// Follow with exactly `count` cards: every card of `must`, the rest from `from` (§8
    /// "Following").
    Follow {
        /// How many cards the lead had.
        count: u8,
        /// The cards of the led suit when one holds fewer than `count` of them.
        must: Vec<Card>,
        /// The cards to choose the others from.
        from: Vec<Card>,
    },
}

impl Trick {
    /// The seat winning this trick with the plays made so far (§8 "Who wins the trick": an
    /// eligible play — all trumps or all of the led suit — with the greatest key; ties to the
    /// earliest player). `None` before the lead. Once the trick is complete this is its winner.
    pub fn leading(&self, tables: &Tables) -> Option<Seat> {
        let trumps = tables.trumps().bits();
        let led = tables.cards_of(self.suit).bits();
        let mut best: Option<(u64, Seat)> = None;
        for (s, play) in self.in_order() {
            let p = play.bits();
            if p == 0 || !(p & !trumps == 0 || p & !led == 0) {
                continue;
            }
            let k = tables.key(p);
            if best.is_none_or(|(b, _)| k > b) {
                best = Some((k, s));
            }
        }
        best.map(|(_, s)| s)
    }
}

impl State {
    /// The seat winning the trick in progress so far (see [`Trick::leading`]); `None` when no
    /// trick is in progress (before the first lead, between tricks, or once the deal is over).
    pub fn trick_leading(&self) -> Option<Seat> {
        let t = self.tricks().last().filter(|t| t.winner.is_none() && t.count > 0)?;
        t.leading(self.tables()?)
    }

    /// The cards `seat` has drawn among the first `drawn` cards of the draw (§4: the seats draw
    /// in turn from the first drawer, one card each).
    pub fn drawn_cards(&self, seat: Seat, drawn: u8) -> Cards {
        let first = self.first_drawer();
        self.deck()[..usize::from(drawn.min(48))]
            .iter()
            .enumerate()
            .filter(|(p, _)| first.offset((p % 4) as u8) == seat)
            .map(|(_, &c)| c)
            .collect()
    }

    /// The cards `seat` may show among its first `drawn` cards (§4, §12.2): those of the rank it
    /// may declare with (its team's rank in an open deal, §6).
    pub fn declarable_among(&self, seat: Seat, drawn: u8) -> Cards {
        let rank = self.declaration_rank(seat);
        self.drawn_cards(seat, drawn).iter().filter(|c| c.rank() == Some(rank)).collect()
    }

    /// True when `seat` may annul the deal (§6, §12.5): trumps are fixed, its twelve dealt cards
    /// hold none, and it is not the starter where `annul: non_starters_only` bars him.
    pub fn may_annul(&self, seat: Seat) -> bool {
        let Some(t) = self.tables() else { return false };
        let barred = self.variants().annul == Annul::NonStartersOnly && seat == self.starter();
        !barred && (self.dealt(seat) & t.trumps()).is_empty()
    }

    /// What `seat` may do now, if it is to move in the burying or the play (see
    /// [`LegalSummary`]); `None` otherwise (the polls of the draw and the annulment are asked
    /// with [`State::declarable_among`] and [`State::may_annul`]).
    pub fn legal_summary(&self, seat: Seat) -> Option<LegalSummary> {
        if self.to_move() != Some(seat) {
            return None;
        }
        let t = self.tables()?;
        let hand = self.hand(seat);
        match self.phase() {
            Phase::Burying => Some(LegalSummary::Bury { from: t.sorted(hand) }),
            Phase::Playing => {
                let trick = self.tricks().last()?;
                if trick.count == 0 || trick.winner.is_some() {
                    let revoke = self.variants().revoke;
                    let refuse = revoke == Revoke::Refuse;
                    let tops = self.top_cards(seat);
                    let suits =
                        [EffSuit::TRUMPS].into_iter().chain(Suit::ALL.into_iter().map(EffSuit::plain));
                    let groups = suits
                        .filter_map(|suit| {
                            let mine = hand & t.cards_of(suit);
                            (mine.len() >= 2).then(|| LeadGroup {
                                suit: suit.as_plain(),
                                cards: t.sorted(mine),
                                tops: refuse.then(|| t.sorted(mine & tops)),
                            })
                        })
                        .collect();
                    Some(LegalSummary::Lead { singles: t.sorted(hand), groups, revoke })
                } else {
                    let led = hand & t.cards_of(trick.suit);
                    let n = trick.size;
                    let (must, from) =
                        if led.len() >= u32::from(n) { (Cards::EMPTY, led) } else { (led, hand - led) };
                    Some(LegalSummary::Follow { count: n, must: t.sorted(must), from: t.sorted(from) })
                }
            }
            _ => None,
        }
    }
}
