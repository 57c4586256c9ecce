//! What one seat may know of a hand (§5: a face-down card is seen only by its owner, and by
//! everyone once the hand is over).

use crate::format::{MadiaoOutcome, MadiaoResult};
use cards::{BySeat, Seat, Viewer};
use serde::{Deserialize, Serialize};

use crate::account::SettlementView;
use crate::card::{Card, Cards, Suit};
use crate::declare::long_suits;
use crate::state::{Action, Phase, PlayKind, State};
use crate::variants::Variants;

/// One seat's view of a hand: its own cards, everything played face up, its own face-down cards,
/// the upcard, the redeal choices, who won which trick, whose turn it is — and once the hand is
/// over, everything the rules reveal (every face-down card, the declared cards, the stock card the
/// stock check exposes) with the result and the itemized settlement.
///
/// A card the seat may not see is `None` (JSON `null`): `{"seat": 3, "kind": "slough",
/// "face_up": false, "card": null}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "MadiaoView"))]
pub struct View {
    /// Whose view this is (`null` for a spectator).
    pub seat: Option<Seat>,
    /// The banker.
    pub banker: Seat,
    /// Chips per stake.
    pub stake: u32,
    /// The rules.
    pub variants: Variants,
    /// The first recipient, who leads trick 1.
    pub first_recipient: Seat,
    /// The stock's face-up bottom card.
    pub upcard: Card,
    /// The hand's phase.
    pub phase: Phase,
    /// Whose turn it is (`None` once the hand is over).
    pub to_move: Option<Seat>,
    /// The seat's own cards, highest first.
    pub hand: Vec<Card>,
    /// How many cards each seat holds.
    pub hand_sizes: BySeat<u8>,
    /// The long-suit redeal choices so far, in order.
    pub redeal_choices: Vec<RedealChoice>,
    /// Every trick begun, in order, with its plays.
    pub tricks: Vec<TrickView>,
    /// Tricks won so far by each seat.
    pub tricks_won: BySeat<u8>,
    /// The seat's legal actions when it is to move (empty otherwise).
    pub legal_actions: Vec<Action>,
    /// Among the cards of the seat's legal face-up plays, those that would lead or capture
    /// (§5); the others would be face-up discards (empty when the seat is not to move).
    pub captures: Vec<Card>,
    /// Once the hand is over: the cards shown for a meld, the four lowest or a long suit.
    pub declared: Vec<Declared>,
    /// Once a played hand is over: the stock card under the upcard (exposed by the stock check).
    pub exposed_stock_card: Option<Card>,
    /// Once the hand is over: its result.
    pub result: Option<MadiaoResult>,
    /// Once the hand is over: the itemized settlement.
    pub settlement: Option<SettlementView>,
}

/// A long-suit holder's choice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RedealChoice {
    /// Who chose.
    pub seat: Seat,
    /// True: forced a redeal.
    pub redeal: bool,
}

/// One trick as a seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "MadiaoTrickView"))]
pub struct TrickView {
    /// 1–8.
    pub number: u8,
    /// Who led.
    pub leader: Seat,
    /// The cards played so far, in order.
    pub plays: Vec<PlayView>,
    /// Who won it, once complete.
    pub winner: Option<Seat>,
    /// Who is winning it so far: the player of `best` (§5: the highest card of the led suit
    /// wins); the winner once complete.
    pub leading: Option<Seat>,
    /// The best card so far: the highest face-up card of the led suit that can win (§5, §9.6).
    /// A card played face up now captures when it is of the same suit and higher.
    pub best: Option<Card>,
}

/// One card played, as a seat sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "MadiaoPlayView"))]
pub struct PlayView {
    /// Who played it.
    pub seat: Seat,
    /// Lead, capture, slough or discard (public: everyone sees how a card is played).
    pub kind: PlayKind,
    /// Face up or face down.
    pub face_up: bool,
    /// The card, or `None` when it is face down and not the viewer's while the hand goes on.
    pub card: Option<Card>,
    /// False when the card cannot win the trick (face down, or §9.6 at trick 8).
    pub can_win: bool,
}

/// Cards shown when a hand ends before play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Declared {
    /// Who showed them.
    pub seat: Seat,
    /// What they are: `"meld"`, `"four_lowest"`, `"long_suit"`, or `"hm_exemption"` (the HM
    /// holder shows `TB` so as not to pay for a meld).
    #[cfg_attr(feature = "ts", ts(type = "\"meld\" | \"four_lowest\" | \"long_suit\" | \"hm_exemption\""))]
    pub what: DeclaredKind,
    /// The cards, highest first.
    pub cards: Vec<Card>,
}

/// What cards shown before play are.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeclaredKind {
    /// A meld (§4.1).
    Meld,
    /// The four lowest (§4.2).
    FourLowest,
    /// The long suit that forced a redeal (§4.3).
    LongSuit,
    /// The HM holder's `TB`, shown so as not to pay for a meld (§4.1).
    HmExemption,
}

fn cards_desc(set: Cards) -> Vec<Card> {
    set.iter().rev().collect()
}

impl State {
    /// What `seat` may know now (see [`View`]).
    pub fn view(&self, seat: Seat) -> View {
        let over = self.is_over();
        let mut tricks: Vec<TrickView> = Vec::new();
        for p in self.plays() {
            if tricks.len() <= usize::from(p.trick) {
                tricks.push(TrickView {
                    number: p.trick + 1,
                    leader: p.seat,
                    plays: Vec::new(),
                    winner: self.trick_winner(p.trick),
                    leading: None,
                    best: None,
                });
            }
            let face_up = p.kind != PlayKind::Slough;
            let visible = face_up || over || p.seat == seat;
            // A Vec exists for this trick: it was pushed just above when missing.
            if let Some(t) = tricks.last_mut() {
                t.plays.push(PlayView {
                    seat: p.seat,
                    kind: p.kind,
                    face_up,
                    card: visible.then_some(p.card),
                    can_win: p.can_win,
                });
            }
        }
        let mut declared = Vec::new();
        if over {
            match self.outcome() {
                Some(MadiaoOutcome::Meld) => {
                    for h in self.meld_holders() {
                        let dealt = self.dealt(h);
                        let cards =
                            self.melds(h).0.iter().flatten().fold(Cards::EMPTY, |m, k| m | k.cards(dealt));
                        declared.push(Declared {
                            seat: h,
                            what: DeclaredKind::Meld,
                            cards: cards_desc(cards),
                        });
                    }
                    // The HM holder shows TB to be exempt from paying for the melds.
                    if let Some(x) = self.hm_holder()
                        && !declared.iter().any(|d| d.seat == x)
                    {
                        declared.push(Declared {
                            seat: x,
                            what: DeclaredKind::HmExemption,
                            cards: vec![Card::TB],
                        });
                    }
                }
                Some(MadiaoOutcome::FourLowest) => {
                    if let Some(h) = self.four_lowest_holder() {
                        declared.push(Declared {
                            seat: h,
                            what: DeclaredKind::FourLowest,
                            cards: cards_desc(crate::card::LOWEST),
                        });
                    }
                }
                Some(MadiaoOutcome::Redeal) => {
                    if let Some(h) = self.redeal_forced_by() {
                        let dealt = self.dealt(h);
                        let mask = long_suits(dealt).fold(Cards::EMPTY, |m, s: Suit| m | (dealt & s.mask()));
                        declared.push(Declared {
                            seat: h,
                            what: DeclaredKind::LongSuit,
                            cards: cards_desc(mask),
                        });
                    }
                }
                _ => {}
            }
        }
        // §5 Who is winning each trick: the highest face-up card of the led suit that can win.
        for t in &mut tricks {
            let led = t.plays.first().and_then(|p| p.card).map(Card::suit);
            let best = t
                .plays
                .iter()
                .filter(|p| p.face_up && p.can_win)
                .filter_map(|p| p.card.filter(|c| Some(c.suit()) == led).map(|c| (c, p.seat)))
                .max_by_key(|&(c, _)| c);
            t.best = best.map(|(c, _)| c);
            t.leading = t.winner.or(best.map(|(_, s)| s));
        }
        let legal_actions = if self.to_move() == Some(seat) { self.legal_actions() } else { Vec::new() };
        let captures = legal_actions
            .iter()
            .filter_map(|a| match *a {
                Action::Play(c) if self.face_up_kind(c) != Some(PlayKind::Discard) => Some(c),
                _ => None,
            })
            .collect();
        View {
            seat: Some(seat),
            banker: self.banker(),
            stake: self.stake(),
            variants: *self.variants(),
            first_recipient: self.first_recipient(),
            upcard: self.upcard(),
            phase: self.phase(),
            to_move: self.to_move(),
            hand: cards_desc(self.hand(seat)),
            hand_sizes: BySeat::from_fn(|s| self.hand(s).len() as u8),
            redeal_choices: self
                .redeal_choices()
                .into_iter()
                .map(|(seat, redeal)| RedealChoice { seat, redeal })
                .collect(),
            tricks,
            tricks_won: self.tricks(),
            legal_actions,
            captures,
            declared,
            exposed_stock_card: (over && self.outcome() == Some(MadiaoOutcome::Played))
                .then(|| self.deck()[38]),
            result: self.to_record_result(),
            settlement: self.settlement().as_ref().map(SettlementView::from),
        }
    }

    /// What `viewer` may know now: a seat's [`State::view`], or for a spectator what every seat
    /// sees (§5: no hand, no legal action, no face-down card until the hand is over). A
    /// spectator's view has no `seat`.
    pub fn view_for(&self, viewer: Viewer) -> View {
        match viewer {
            Viewer::Seat(s) => self.view(s),
            Viewer::Spectator => {
                let mut v = self.view(self.banker());
                v.seat = None;
                v.hand.clear();
                v.legal_actions.clear();
                v.captures.clear();
                if !self.is_over() {
                    for p in v.tricks.iter_mut().flat_map(|t| t.plays.iter_mut()) {
                        if !p.face_up {
                            p.card = None;
                        }
                    }
                }
                v
            }
        }
    }

    /// What `viewer` may know at a table that asks the long-suit question (§4.3) in private, in
    /// a redeal window of the same length for everyone (`docs/protocol.md`, "Hidden
    /// information"). Being asked tells that a seat holds five cards of a suit, so a decline is
    /// shown only once the hand is over; while the window is open (`window`), every view looks
    /// the same whether or not its seat may force a redeal: the redeal phase, nobody to move, no
    /// legal action, no choice.
    pub fn private_poll_view(&self, viewer: Viewer, window: bool) -> View {
        let mut v = self.view_for(viewer);
        if !self.is_over() {
            v.redeal_choices.retain(|c| c.redeal);
        }
        if window {
            v.phase = Phase::Redeal;
            v.to_move = None;
            v.legal_actions.clear();
            v.captures.clear();
            v.redeal_choices.clear();
        }
        v
    }
}
