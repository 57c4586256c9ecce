//! The card tracker: what a seat can tell from its [`View`] about where the cards are, once
//! trumps are fixed — the cards played so far by effective suit (the trumps counting as one suit,
//! §2), the voids the seats have shown, which of its own cards are top cards now, and the cards
//! it has not seen.
//!
//! - A **void** is shown by a follower who played fewer cards of the led suit than the lead had
//!   (§8: he must put in as many cards of the suit led as he holds): he holds none from then on.
//! - A **top card** (§8) is one for which no other player holds a strictly stronger card of its
//!   suit; a lead of two or more cards must be made of top cards. The tracker marks a card top
//!   only when the viewer can be sure: every strictly stronger card of the suit has been played,
//!   is in its own hand, or is in a burial it knows (it is the starter, or the deal is over). A
//!   card that might lie in the buried kitty is counted as unseen, so a card the rules would call
//!   top may go unmarked; a marked card is always top.
//! - **Unseen** cards are those not in the viewer's hand, not played, not in a burial it knows,
//!   and not the declaration card (§4: the card shown to declare goes back into its owner's hand,
//!   so everyone has seen it): the other hands and the kitty it has not seen. The declaration card
//!   is seen but, until it is played, still out ([`shown_held`]): it stops a weaker card of its suit
//!   from being top.

use cards::Seat;
use serde::{Deserialize, Serialize};

use crate::card::{Card, Cards};
use crate::trump::{EffSuit, Tables};
use crate::view::View;

/// One effective suit as the tracker shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "DabaifenSuitTrack"))]
pub struct SuitTrack {
    /// `trumps`, or a plain suit's letter `S`, `H`, `D`, `C`.
    #[cfg_attr(feature = "ts", ts(type = "\"trumps\" | \"S\" | \"H\" | \"D\" | \"C\""))]
    pub suit: String,
    /// The cards of the suit played to tricks, strongest first.
    pub played: Vec<Card>,
    /// The cards of the suit the viewer has not seen, strongest first.
    pub unseen: Vec<Card>,
}

/// A seat that has shown it holds no card of an effective suit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "DabaifenVoid"))]
pub struct Void {
    /// The seat.
    pub seat: Seat,
    /// The suit, as in [`SuitTrack::suit`].
    #[cfg_attr(feature = "ts", ts(type = "\"trumps\" | \"S\" | \"H\" | \"D\" | \"C\""))]
    pub suit: String,
}

/// What a seat can tell about the cards from its view (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "DabaifenTracker"))]
pub struct Tracker {
    /// The five effective suits, trumps first, then `S`, `H`, `D`, `C`.
    pub suits: Vec<SuitTrack>,
    /// The voids shown, in the order they were shown.
    pub voids: Vec<Void>,
    /// The viewer's top cards now, strongest first (trumps first).
    pub top: Vec<Card>,
}

/// The name of an effective suit in the tracker: `trumps` or the plain suit's letter.
pub fn suit_name(s: EffSuit) -> String {
    match s.as_plain() {
        Some(p) => p.letter().to_string(),
        None => "trumps".to_string(),
    }
}

fn effective_suits() -> [EffSuit; 5] {
    [
        EffSuit::TRUMPS,
        EffSuit::plain(crate::card::Suit::Spades),
        EffSuit::plain(crate::card::Suit::Hearts),
        EffSuit::plain(crate::card::Suit::Diamonds),
        EffSuit::plain(crate::card::Suit::Clubs),
    ]
}

impl Tracker {
    /// The tracker of the view's seat, or `None` before trumps are fixed (there are no
    /// effective suits yet).
    pub fn from_view(view: &View) -> Option<Tracker> {
        let t = Tables::of(view.trump?);
        let hand: Cards = view.hand.iter().copied().collect();
        let mut played = Cards::EMPTY;
        let mut voids: Vec<Void> = Vec::new();
        for tr in &view.tricks {
            let Some(lead) = tr.plays.first() else { continue };
            let Some(&first) = lead.cards.first() else { continue };
            let led = t.suit_of(first);
            let size = lead.cards.len();
            for p in &tr.plays {
                played |= p.cards.iter().copied().collect::<Cards>();
            }
            for p in &tr.plays[1..] {
                let of_suit = p.cards.iter().filter(|&&c| t.suit_of(c) == led).count();
                let void = Void { seat: p.seat, suit: suit_name(led) };
                if of_suit < size && !voids.contains(&void) {
                    voids.push(void);
                }
            }
        }
        let mut known = hand | played;
        if let Some(b) = &view.buried {
            known |= b.iter().copied().collect::<Cards>();
        }
        let shown = shown_held(view);
        let unseen = Cards::full() - known - shown;
        // The cards another player may hold: the unseen ones and the shown card not yet played.
        let out = unseen | shown;
        let suits = effective_suits()
            .into_iter()
            .map(|s| SuitTrack {
                suit: suit_name(s),
                played: t.sorted(played & t.cards_of(s)),
                unseen: t.sorted(unseen & t.cards_of(s)),
            })
            .collect();
        let top: Cards = hand.iter().filter(|c| t.stronger[c.number() as usize] & out.bits() == 0).collect();
        Some(Tracker { suits, voids, top: t.sorted(top) })
    }

    /// The cards the viewer has not seen, strongest first, trumps first.
    pub fn unseen(&self) -> Vec<Card> {
        self.suits.iter().flat_map(|s| s.unseen.iter().copied()).collect()
    }

    /// True when `card` is one of the viewer's top cards.
    pub fn is_top(&self, card: Card) -> bool {
        self.top.contains(&card)
    }
}

/// The cards every seat has seen that another seat still holds (or, if that seat is the starter,
/// may have buried): the declaration card (§4), until it is played, when it is not the viewer's.
pub fn shown_held(view: &View) -> Cards {
    let Some(d) = &view.declaration else { return Cards::EMPTY };
    let played = view.tricks.iter().flat_map(|t| t.plays.iter()).any(|p| p.cards.contains(&d.card));
    if played || view.hand.contains(&d.card) || view.buried.as_ref().is_some_and(|b| b.contains(&d.card)) {
        Cards::EMPTY
    } else {
        Cards::single(d.card)
    }
}

/// The trick in progress in `view` (led, not yet complete), if any.
fn trick_in_progress(view: &View) -> Option<&crate::view::TrickView> {
    view.tricks.last().filter(|t| t.winner.is_none() && !t.plays.is_empty())
}

/// Who would be winning the trick in progress if the seat to move played `play` to it (§8 "Who
/// wins the trick"); `None` when no trick is in progress (the seat would lead) or before trumps.
pub fn leading_with(view: &View, play: Cards) -> Option<Seat> {
    let t = Tables::of(view.trump?);
    let tr = trick_in_progress(view)?;
    let me = view.to_move?;
    let lead = tr.plays.first()?;
    let mut trick = crate::state::Trick {
        leader: tr.leader,
        plays: [Cards::EMPTY; 4],
        count: 0,
        suit: t.suit_of(*lead.cards.first()?),
        size: lead.cards.len() as u8,
        winner: None,
        points: 0,
    };
    for p in &tr.plays {
        trick.plays[p.seat.index()] = p.cards.iter().copied().collect();
        trick.count += 1;
    }
    trick.plays[me.index()] = play;
    trick.count += 1;
    trick.leading(t)
}

/// The card points in the trick in progress so far (0 when none is in progress).
pub fn points_in_trick(view: &View) -> u32 {
    trick_in_progress(view)
        .map_or(0, |tr| tr.plays.iter().map(|p| crate::card::points(p.cards.iter().copied().collect())).sum())
}
