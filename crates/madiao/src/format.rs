//! A Madiao hand as a `yezi/1` record writes it (`docs/record.md`, Madiao hand): card codes are
//! text here; [`crate::record`] checks them against the deck and replays the actions. The
//! record's envelope (format, game, rules, variants, players) is [`cards::record::Record`].

use cards::{BySeat, Halves, Seat};
use serde::{Deserialize, Serialize};

/// One Madiao hand as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MadiaoHand {
    /// The banker of the hand.
    pub banker: Seat,
    /// Chips per stake, an even number from 2 to 1000 (default 2).
    #[serde(default = "default_stake", deserialize_with = "cards::record::stake")]
    pub stake: u32,
    /// The seed the deck was shuffled from (`docs/record.md`, "Deal verification"); replay
    /// plays the `deck` and does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    pub seed: Option<u64>,
    /// The commitment to the deal the seats were sent before it was dealt (64 hexadecimal
    /// digits, `docs/record.md`, "Deal verification"); replay does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    pub commitment: Option<String>,
    /// The 40 cards after shuffling and cutting, top first; `deck[39]` is the cut card.
    pub deck: Vec<String>,
    /// The players' choices, in order (required, `[]` for a hand settled before play).
    pub actions: Vec<MadiaoAction>,
    /// The hand's outcome, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<MadiaoResult>,
}

fn default_stake() -> u32 {
    2
}

/// One recorded Madiao choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawMadiaoAction", into = "RawMadiaoAction")]
pub enum MadiaoAction {
    /// A card put face up: a lead, a capture, or a face-up discard.
    Play {
        /// Who played it.
        seat: Seat,
        /// The card, in the record's card notation.
        card: String,
    },
    /// A card put face down.
    Slough {
        /// Who sloughed it.
        seat: Seat,
        /// The card, in the record's card notation.
        card: String,
    },
    /// A long-suit holder forcing (`true`) or declining (`false`) a redeal.
    Redeal {
        /// The long-suit holder.
        seat: Seat,
        /// Whether he forces the redeal.
        redeal: bool,
    },
}

impl MadiaoAction {
    /// The seat that acted.
    pub fn seat(&self) -> Seat {
        match *self {
            MadiaoAction::Play { seat, .. }
            | MadiaoAction::Slough { seat, .. }
            | MadiaoAction::Redeal { seat, .. } => seat,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct RawMadiaoAction {
    seat: Seat,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    play: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    slough: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    redeal: Option<bool>,
    /// Never valid here: `drawn` belongs to a Da Bai Fen `declare` only.
    #[serde(default, skip_serializing, deserialize_with = "cards::record::present")]
    drawn: Option<serde::de::IgnoredAny>,
}

impl TryFrom<RawMadiaoAction> for MadiaoAction {
    type Error = cards::record::ActionShapeError;
    fn try_from(r: RawMadiaoAction) -> Result<Self, cards::record::ActionShapeError> {
        if r.drawn.is_some() {
            return Err(cards::record::ActionShapeError::DrawnOutsideDeclare);
        }
        match (r.play, r.slough, r.redeal) {
            (Some(card), None, None) => Ok(MadiaoAction::Play { seat: r.seat, card }),
            (None, Some(card), None) => Ok(MadiaoAction::Slough { seat: r.seat, card }),
            (None, None, Some(redeal)) => Ok(MadiaoAction::Redeal { seat: r.seat, redeal }),
            _ => Err(cards::record::ActionShapeError::Madiao),
        }
    }
}

impl From<MadiaoAction> for RawMadiaoAction {
    fn from(a: MadiaoAction) -> Self {
        let mut r = RawMadiaoAction { seat: a.seat(), play: None, slough: None, redeal: None, drawn: None };
        match a {
            MadiaoAction::Play { card, .. } => r.play = Some(card),
            MadiaoAction::Slough { card, .. } => r.slough = Some(card),
            MadiaoAction::Redeal { redeal, .. } => r.redeal = Some(redeal),
        }
        r
    }
}

#[cfg(feature = "ts")]
cards::ts_named!(
    MadiaoAction,
    "MadiaoRecordAction",
    "{ seat: Seat } & ({ play: MadiaoCard } | { slough: MadiaoCard } | { redeal: boolean })".to_string()
);

/// How a Madiao hand ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum MadiaoOutcome {
    /// All eight tricks were played and settled.
    Played,
    /// A meld won at once; the hand was not played.
    Meld,
    /// The four lowest cards in one hand: paid, then the banker is drawn again.
    FourLowest,
    /// A long-suit holder forced a redeal.
    Redeal,
}

/// The result object of a Madiao hand (spec §Madiao hand).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MadiaoResult {
    /// How the hand ended.
    pub outcome: MadiaoOutcome,
    /// Tricks won per seat (all zero when the hand was not played).
    pub tricks: BySeat<u8>,
    /// Payoff per seat in stakes; they sum to zero.
    pub payoffs: BySeat<Halves>,
    /// The next banker, or `None` when the banker is drawn again.
    pub next_banker: Option<Seat>,
    /// True on the hand that ends the match.
    pub game_over: bool,
}
