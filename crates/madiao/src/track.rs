//! The card tracker: what a seat can tell from its [`View`] about where the cards are — the cards
//! seen played, suit by suit; the voids the seats have shown; which of its own cards are top
//! cards now; and the cards it has not seen.
//!
//! In Madiao nobody ever has to follow suit and a slough is face down (§5), so failing to capture
//! proves nothing about a hand: a seat has shown a void in a suit only when every card of that
//! suit is accounted for (played face up, in the viewer's hand, among its own face-down cards, or
//! the upcard). A **top card** is one of the viewer's cards that no card it has not seen can beat
//! (§5: only a higher card of the same suit captures): led, nobody can capture it; played on a
//! trick of its suit, it captures and stays best. (At trick 8 a seat that has taken no trick
//! cannot win it at all, §5.)

use cards::Seat;
use serde::{Deserialize, Serialize};

use crate::card::{ALL_CARDS, Card, Cards, Suit};
use crate::view::View;

/// One suit as the tracker shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "MadiaoSuitTrack"))]
pub struct SuitTrack {
    /// The suit's letter: `T`, `M`, `S` or `W`.
    #[cfg_attr(feature = "ts", ts(type = "\"T\" | \"M\" | \"S\" | \"W\""))]
    pub suit: char,
    /// The cards of the suit the viewer has seen played (face up by anyone, and its own face-down
    /// cards), highest first.
    pub played: Vec<Card>,
    /// The cards of the suit the viewer has not seen (other hands, others' face-down cards, the
    /// hidden stock), highest first.
    pub unseen: Vec<Card>,
}

/// A seat that has shown it holds no card of a suit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "MadiaoVoid"))]
pub struct Void {
    /// The seat.
    pub seat: Seat,
    /// The suit's letter.
    #[cfg_attr(feature = "ts", ts(type = "\"T\" | \"M\" | \"S\" | \"W\""))]
    pub suit: char,
}

/// What a seat can tell about the cards from its view (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "MadiaoTracker"))]
pub struct Tracker {
    /// The four suits, tens first (`T`, `M`, `S`, `W`).
    pub suits: Vec<SuitTrack>,
    /// How many cards other seats played face down that the viewer has not seen.
    pub hidden_plays: u8,
    /// The voids shown, by seat then suit (never the viewer's own).
    pub voids: Vec<Void>,
    /// The viewer's top cards now, highest first.
    pub top: Vec<Card>,
}

impl Tracker {
    /// The tracker of the view's seat (a spectator's view has no hand: its top cards are none).
    pub fn from_view(view: &View) -> Tracker {
        let hand: Cards = view.hand.iter().copied().collect();
        let mut played = Cards::EMPTY;
        let mut hidden_plays = 0u8;
        for p in view.tricks.iter().flat_map(|t| &t.plays) {
            match p.card {
                Some(c) => played.insert(c),
                None => {
                    hidden_plays += 1;
                    false
                }
            };
        }
        let mut known = hand | played;
        known.insert(view.upcard);
        if let Some(c) = view.exposed_stock_card {
            known.insert(c);
        }
        for d in &view.declared {
            known |= d.cards.iter().copied().collect::<Cards>();
        }
        let unseen = ALL_CARDS - known;
        let desc = |set: Cards| set.iter().rev().collect::<Vec<Card>>();
        let order = [Suit::Tens, Suit::Myriads, Suit::Strings, Suit::Cash];
        let suits = order
            .iter()
            .map(|s| SuitTrack {
                suit: s.letter(),
                played: desc(played & s.mask()),
                unseen: desc(unseen & s.mask()),
            })
            .collect();
        let mut voids = Vec::new();
        for seat in Seat::ALL.into_iter().filter(|&s| Some(s) != view.seat) {
            for s in order.iter().filter(|s| (unseen & s.mask()).is_empty()) {
                voids.push(Void { seat, suit: s.letter() });
            }
        }
        let top = desc(Cards::from_iter(hand.iter().filter(|c| !c.higher_in_suit().intersects(unseen))));
        Tracker { suits, hidden_plays, voids, top }
    }

    /// The cards the viewer has not seen, highest first.
    pub fn unseen(&self) -> Vec<Card> {
        self.suits.iter().flat_map(|s| s.unseen.iter().copied()).collect()
    }

    /// True when `card` is one of the viewer's top cards.
    pub fn is_top(&self, card: Card) -> bool {
        self.top.contains(&card)
    }
}
