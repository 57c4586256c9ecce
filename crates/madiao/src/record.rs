//! `yezi/1` records of Madiao (`docs/record.md`): checking a record's cards, variants and
//! chaining, replaying every action with errors that name hand, action and reason, comparing
//! stored results, and writing played hands back as a record.
//!
//! A record holds one match (spec §Common shape, rules §7): the first hand's banker is free
//! (drawn); each later hand's banker is the one the previous hand's replayed result names, or free
//! after the four lowest (`next_banker: null`). `game_over` is counted from the record's first
//! hand, and a hand after the one that ends the match is an error (a tool that plays several
//! matches writes one record per match).
//!
//! Redeal choices: `{"seat": s, "redeal": true}` means every long-suit holder asked before `s`
//! declined; `{"seat": s, "redeal": false}` is an explicit decline by the seat being asked; a play
//! declines every pending choice. Only a long-suit holder may force or decline a redeal.

use cards::Seat;
use cards::record::{GameKind, Record, diff_results};

pub use crate::format::{MadiaoAction, MadiaoHand, MadiaoOutcome, MadiaoResult};

use crate::card::{Card, UnknownCard};
use crate::game::{Match, MatchError};
use crate::state::{Action, IllegalAction, Phase, State};
use crate::variants::{VariantError, Variants};

pub use cards::record::ReplayError;

fn hand_err(hand: usize, reason: impl Into<String>) -> ReplayError {
    ReplayError { hand: Some(hand), action: None, reason: reason.into() }
}

fn action_err(hand: usize, action: usize, reason: impl Into<String>) -> ReplayError {
    ReplayError { hand: Some(hand), action: Some(action), reason: reason.into() }
}

/// Why a list of card codes is not a Madiao deck.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// Not 40 cards.
    #[error("deck: {0} cards, a Madiao deck has 40")]
    Size(usize),
    /// A code that is not a card.
    #[error("deck[{index}]: unknown card code {code:?}")]
    UnknownCode {
        /// The code's position in the deck, from 0.
        index: usize,
        /// The code as written.
        code: String,
    },
    /// A card twice.
    #[error("deck[{second}]: card {card} appears twice (also at deck[{first}])")]
    Duplicate {
        /// The card written twice.
        card: Card,
        /// Its first position in the deck, from 0.
        first: usize,
        /// Its second position in the deck.
        second: usize,
    },
}

/// Reads a record's deck: 40 known codes, each card once.
pub fn parse_deck(codes: &[String]) -> Result<[Card; 40], DeckError> {
    if codes.len() != 40 {
        return Err(DeckError::Size(codes.len()));
    }
    let mut deck = [Card::W9; 40];
    let mut at = [usize::MAX; 40];
    for (i, code) in codes.iter().enumerate() {
        let c: Card = code.parse().map_err(|_| DeckError::UnknownCode { index: i, code: code.clone() })?;
        let n = c.number() as usize;
        if at[n] != usize::MAX {
            return Err(DeckError::Duplicate { card: c, first: at[n], second: i });
        }
        at[n] = i;
        deck[i] = c;
    }
    Ok(deck)
}

/// The variants a record asks for: its preset with its overrides.
pub fn record_variants<H>(rec: &Record<H>) -> Result<Variants, ReplayError> {
    let err = |reason: String| ReplayError { hand: None, action: None, reason };
    let base = Variants::preset(&rec.rules).map_err(|e| err(format!("rules: {e}")))?;
    base.with_overrides(&rec.variants).map_err(|e: VariantError| err(format!("variants: {e}")))
}

/// One replayed hand.
#[derive(Clone, Debug)]
pub struct ReplayedHand {
    /// The hand as far as its actions go (finished unless it is the record's unfinished last hand).
    pub state: State,
    /// The replayed result, when the hand is finished.
    pub result: Option<MadiaoResult>,
    /// How the stored result differs from the replayed one (`result.field: the record says …`).
    pub differences: Vec<String>,
}

/// A record replayed: every hand that could be replayed, and the error that stopped it, if any.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The variants in force.
    pub variants: Option<Variants>,
    /// The hands replayed, in order.
    pub hands: Vec<ReplayedHand>,
    /// The illegal action or bad field that stopped the replay.
    pub error: Option<ReplayError>,
}

impl Replay {
    /// True when every action was legal and every stored result matched.
    pub fn is_clean(&self) -> bool {
        self.error.is_none() && self.hands.iter().all(|h| h.differences.is_empty())
    }

    /// Every stored-result difference, as `hand H: result.field: …` lines.
    pub fn differences(&self) -> impl Iterator<Item = String> + '_ {
        self.hands
            .iter()
            .enumerate()
            .flat_map(|(i, h)| h.differences.iter().map(move |d| format!("hand {i}: {d}")))
    }
}

/// Why a record action cannot be applied to the hand (`docs/record.md`, §Madiao): the hand is
/// over, the redeal question is not the seat's to answer, the card code is unknown, it is another
/// seat's turn, or the engine refuses the action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The hand has already ended.
    #[error("the hand is over ({how})")]
    HandOver {
        /// How it ended, in words (`a redeal was forced`, …).
        how: &'static str,
    },
    /// A redeal choice by a seat without a long suit.
    #[error("{seat} has no long suit (5 or more cards of one suit), so it has no redeal to {what}")]
    NoLongSuit {
        /// The seat that chose.
        seat: Seat,
        /// `force` or `decline`.
        what: &'static str,
    },
    /// A redeal choice by a seat that already declined.
    #[error("{seat} has already declined a redeal")]
    AlreadyDeclined {
        /// The seat that chose again.
        seat: Seat,
    },
    /// A redeal choice after the first card, which declined every pending choice.
    #[error("{seat} cannot {what} a redeal now: the first card is played, which declined it")]
    RedealOver {
        /// The seat that chose.
        seat: Seat,
        /// `force` or `decline`.
        what: &'static str,
    },
    /// An explicit decline by a seat that is not the one asked.
    #[error("{asked} is asked about a redeal before {seat}")]
    AskedFirst {
        /// The seat being asked.
        asked: Seat,
        /// The seat that declined out of turn.
        seat: Seat,
    },
    /// A card code that is not a Madiao card.
    #[error(transparent)]
    UnknownCard(#[from] UnknownCard),
    /// A card played by a seat whose turn it is not.
    #[error("it is {turn}'s turn, not {seat}'s")]
    NotYourTurn {
        /// The seat to play.
        turn: Seat,
        /// The seat the record names.
        seat: Seat,
    },
    /// The engine refuses the action (§4–§6).
    #[error(transparent)]
    Illegal(#[from] IllegalAction),
}

/// Converts one record action to an engine action for `state`, applying the implicit declines the
/// spec allows (a play while redeal questions are pending declines them all).
pub fn apply_record_action(state: &mut State, a: &MadiaoAction) -> Result<(), ActionError> {
    let seat = a.seat();
    if state.is_over() {
        let how = match state.outcome() {
            Some(MadiaoOutcome::Meld) => "it ended with a meld before play",
            Some(MadiaoOutcome::FourLowest) => "it ended with the four lowest before play",
            Some(MadiaoOutcome::Redeal) => "a redeal was forced",
            _ => "all eight tricks are played",
        };
        return Err(ActionError::HandOver { how });
    }
    let action = match a {
        MadiaoAction::Redeal { redeal, .. } => {
            let what = if *redeal { "force" } else { "decline" };
            if !state.long_suit_holders().any(|s| s == seat) {
                return Err(ActionError::NoLongSuit { seat, what });
            }
            if state.redeal_choices().iter().any(|&(s, _)| s == seat) {
                return Err(ActionError::AlreadyDeclined { seat });
            }
            if state.phase() != Phase::Redeal {
                return Err(ActionError::RedealOver { seat, what });
            }
            // Phase::Redeal: the question is for `to_move`. Spec: a `redeal: true` by seat s
            // means every seat asked before s declined; a decline is written by the seat asked.
            let mut asked = state.to_move().unwrap_or(seat);
            if seat != asked && !*redeal {
                return Err(ActionError::AskedFirst { asked, seat });
            }
            while seat != asked && state.phase() == Phase::Redeal {
                state.apply(Action::Redeal(false))?;
                asked = state.to_move().unwrap_or(seat);
            }
            Action::Redeal(*redeal)
        }
        MadiaoAction::Play { card, .. } | MadiaoAction::Slough { card, .. } => {
            let c: Card = card.parse()?;
            // Spec: "if the next action is a play, every pending choice counts as declined".
            while state.phase() == Phase::Redeal {
                state.apply(Action::Redeal(false))?;
            }
            let turn = state.to_move().unwrap_or(seat);
            if seat != turn {
                return Err(ActionError::NotYourTurn { turn, seat });
            }
            if matches!(a, MadiaoAction::Play { .. }) { Action::Play(c) } else { Action::Slough(c) }
        }
    };
    Ok(state.apply(action)?)
}

/// Replays a record: checks its variants, every deck, the chaining of hands and every action;
/// computes each finished hand's result and compares it with the stored one.
pub fn replay(rec: &Record<MadiaoHand>) -> Replay {
    let mut out = Replay { variants: None, hands: Vec::new(), error: None };
    if rec.game != GameKind::Madiao {
        out.error = Some(ReplayError {
            hand: None,
            action: None,
            reason: format!("game: {} is not madiao", rec.game),
        });
        return out;
    }
    let variants = match record_variants(rec) {
        Ok(v) => v,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    out.variants = Some(variants);
    if rec.hands.is_empty() {
        out.error = Some(ReplayError {
            hand: None,
            action: None,
            reason: "hands: a record holds at least one hand".into(),
        });
        return out;
    }
    let mut current = Match::new(variants);
    for (i, h) in rec.hands.iter().enumerate() {
        if let Some(prev) = out.hands.last()
            && let Some(turn) = prev.state.to_move()
        {
            out.error =
                Some(hand_err(i - 1, format!("the hand is unfinished ({turn} to act) but hand {i} follows")));
            return out;
        }
        if current.is_over() {
            out.error = Some(hand_err(
                i,
                format!("the match ended with hand {} (game_over); a record holds one match", i - 1),
            ));
            return out;
        }
        let deck = match parse_deck(&h.deck) {
            Ok(d) => d,
            Err(e) => {
                out.error = Some(hand_err(i, e.to_string()));
                return out;
            }
        };
        let setup = match current.setup(h.banker, h.stake, deck) {
            Ok(s) => s,
            Err(MatchError::WrongBanker { given, expected }) => {
                out.error = Some(hand_err(
                    i,
                    format!(
                        "banker is {} but hand {}'s result says {} comes next",
                        given.number(),
                        i - 1,
                        expected.number()
                    ),
                ));
                return out;
            }
            Err(e) => {
                out.error = Some(hand_err(i, e.to_string()));
                return out;
            }
        };
        let mut state = match State::new(setup) {
            Ok(s) => s,
            Err(e) => {
                out.error = Some(hand_err(i, e.to_string()));
                return out;
            }
        };
        for (j, a) in h.actions.iter().enumerate() {
            if let Err(reason) = apply_record_action(&mut state, a) {
                out.hands.push(ReplayedHand { state, result: None, differences: Vec::new() });
                out.error = Some(action_err(i, j, reason.to_string()));
                return out;
            }
        }
        let result = if state.is_over() {
            match current.finish(&state) {
                Ok(r) => Some(r),
                Err(e) => {
                    out.error = Some(hand_err(i, e.to_string()));
                    return out;
                }
            }
        } else {
            None
        };
        let differences = match (&h.result, &result) {
            (Some(stored), Some(replayed)) => diff_results(stored, replayed),
            (Some(_), None) => {
                let turn = state.to_move().map_or("nobody".to_string(), |s| s.to_string());
                vec![format!("result: the record has a result but the hand is unfinished ({turn} to act)")]
            }
            _ => Vec::new(),
        };
        out.hands.push(ReplayedHand { state, result, differences });
    }
    out
}

/// A played hand as a record hand: its banker, stake, deck, every action (declines explicit) and,
/// when finished, its result.
pub fn hand_to_record(state: &State) -> MadiaoHand {
    MadiaoHand {
        banker: state.banker(),
        stake: state.stake(),
        seed: None,
        commitment: None,
        deck: state.deck().iter().map(|c| c.code().to_string()).collect(),
        actions: state
            .history()
            .into_iter()
            .map(|(seat, a)| match a {
                Action::Play(c) => MadiaoAction::Play { seat, card: c.code().to_string() },
                Action::Slough(c) => MadiaoAction::Slough { seat, card: c.code().to_string() },
                Action::Redeal(redeal) => MadiaoAction::Redeal { seat, redeal },
            })
            .collect(),
        result: state.to_record_result(),
    }
}

/// A record of consecutive hands played under the preset `rules` (`standard` or `feng`) with
/// `variants` (written as overrides of the preset).
pub fn to_record<'a>(
    rules: &str,
    variants: &Variants,
    seed: Option<u64>,
    hands: impl IntoIterator<Item = &'a State>,
) -> Result<Record<MadiaoHand>, VariantError> {
    let preset = Variants::preset(rules)?;
    let mut rec = Record::new(GameKind::Madiao, rules);
    rec.variants = variants.overrides_from(&preset);
    rec.seed = seed;
    rec.hands = hands.into_iter().map(hand_to_record).collect();
    Ok(rec)
}
