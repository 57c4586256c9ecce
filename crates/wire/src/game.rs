//! The values of a table that the messages carry both ways: a table's status, the legal actions
//! of a seat, a view and an action of either game, a hand's result and the running match score.
//!
//! Fields that hold a game's own values are enums over both games' types, serialized as the
//! game's own JSON (untagged), since a message is read before one knows the game of its table.

use ::dabaifen::record::DabaifenResult;
use ::madiao::record::MadiaoResult;
use cards::Seat;
use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// Where a table is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Seats are open and the match has not begun.
    Waiting,
    /// The match is being played.
    Playing,
    /// The match has begun, but no person has been connected to the table for a while
    /// (`Timing::park_ms`): its bots and clocks are stopped until a person connects again.
    Parked,
    /// The match is over; the record is stored.
    Finished,
    /// The host closed the table before the match ended: it is over, and has no record (its
    /// log is kept).
    Closed,
}

impl TableStatus {
    /// The stored name.
    pub fn name(self) -> &'static str {
        match self {
            TableStatus::Waiting => "waiting",
            TableStatus::Playing => "playing",
            TableStatus::Parked => "parked",
            TableStatus::Finished => "finished",
            TableStatus::Closed => "closed",
        }
    }

    /// The table's life is over: its match finished, or its host closed it.
    pub fn is_over(self) -> bool {
        matches!(self, TableStatus::Finished | TableStatus::Closed)
    }

    /// Reads a stored name (`None` for a name that is not a status).
    pub fn parse(s: &str) -> Option<TableStatus> {
        match s {
            "waiting" => Some(TableStatus::Waiting),
            "playing" => Some(TableStatus::Playing),
            "parked" => Some(TableStatus::Parked),
            "finished" => Some(TableStatus::Finished),
            "closed" => Some(TableStatus::Closed),
            _ => None,
        }
    }
}

/// One lead group of Da Bai Fen: the cards of one suit (the trumps count as one suit) from which
/// two or more may be led together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LeadGroup {
    /// The trumps, or a plain suit.
    pub suit: LeadSuit,
    /// The seat's cards of that suit, strongest first.
    pub cards: Vec<dabaifen::Card>,
    /// Under `revoke: refuse` only: the top cards among them (a multi-card lead must use only
    /// these). Under `penalize` this is absent: any two or more may be led, and a lead with a card
    /// that is not a top card is a revoke, which ends the deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tops: Option<Vec<dabaifen::Card>>,
}

/// The suit of a Da Bai Fen lead group: the trumps count as one suit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum LeadSuit {
    /// The trumps.
    #[serde(rename = "trumps")]
    Trumps,
    /// Spades (plain).
    S,
    /// Hearts (plain).
    H,
    /// Diamonds (plain).
    D,
    /// Clubs (plain).
    C,
}

impl From<Option<dabaifen::Suit>> for LeadSuit {
    fn from(s: Option<dabaifen::Suit>) -> LeadSuit {
        match s {
            None => LeadSuit::Trumps,
            Some(dabaifen::Suit::Spades) => LeadSuit::S,
            Some(dabaifen::Suit::Hearts) => LeadSuit::H,
            Some(dabaifen::Suit::Diamonds) => LeadSuit::D,
            Some(dabaifen::Suit::Clubs) => LeadSuit::C,
        }
    }
}

/// What a Da Bai Fen choice of cards is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CardsAction {
    /// Burying six cards under the kitty.
    Bury,
    /// Following a lead.
    Play,
}

impl CardsAction {
    /// The action that sends `cards` for this choice.
    pub fn action(self, cards: Vec<dabaifen::Card>) -> dabaifen::Action {
        let set = cards.into_iter().collect();
        match self {
            CardsAction::Bury => dabaifen::Action::Bury(set),
            CardsAction::Play => dabaifen::Action::Play(set),
        }
    }
}

/// The Da Bai Fen `revoke` variant in force (§8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RevokeRule {
    /// A revoking lead is allowed and ends the deal.
    Penalize,
    /// A revoking lead is refused.
    Refuse,
}

/// The legal actions of a seat, in a form a client can use without rules code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Legal {
    /// Madiao: send one of these actions as it is.
    Actions {
        /// The actions.
        actions: Vec<madiao::Action>,
        /// The cards of the `play` actions that would lead or capture (§5); any other `play` is a
        /// face-up discard.
        #[serde(default)]
        captures: Vec<madiao::Card>,
    },
    /// Choose exactly `count` cards: every card of `must`, the rest from `from`; send
    /// `{ACTION: [cards]}`.
    Cards {
        /// Burying or following.
        action: CardsAction,
        /// How many cards.
        count: u8,
        /// Cards that must be among them.
        must: Vec<dabaifen::Card>,
        /// Cards to choose the others from.
        from: Vec<dabaifen::Card>,
    },
    /// A Da Bai Fen lead: one card of `singles`, or two or more cards of one group; send
    /// `{"play": [cards]}`.
    Lead {
        /// Every card of the hand.
        singles: Vec<dabaifen::Card>,
        /// The suits with two or more cards.
        groups: Vec<LeadGroup>,
        /// The `revoke` variant.
        revoke: RevokeRule,
    },
    /// Da Bai Fen, during the draw: you may ask at any moment to show one of these cards; the
    /// request is applied when you are next asked (right after the next card is drawn, unless
    /// someone asked before you shows first). `{"pass": true}` withdraws it.
    Declare {
        /// Your cards drawn so far that you may show.
        cards: Vec<dabaifen::Card>,
        /// The card you asked to show, if any.
        requested: Option<dabaifen::Card>,
    },
    /// Da Bai Fen, during the annulment window: your hand has no trump and you may annul the
    /// deal with `{"annul": true}` (`{"annul": false}` withdraws it). Applied when the window closes.
    Annul {
        /// True when you have asked to annul.
        requested: bool,
    },
    /// Madiao, before a hand is dealt: you are its banker and name its stake (§2), an even number
    /// of chips from `low` to `high`; send `{"stake": n}`. When your clock runs out it is `low`.
    Stake {
        /// The lowest stake (also the stake if you do not choose in time).
        low: u32,
        /// The highest stake.
        high: u32,
    },
    /// Madiao, during the redeal window: you hold a long suit and may force a redeal with
    /// `{"redeal": true}` (`{"redeal": false}` withdraws it). Applied when the window closes.
    Redeal {
        /// True when you have asked for a redeal.
        requested: bool,
    },
}

/// What a seat or a spectator may see of a hand of either game: the engine's view
/// (`madiao::View`, `dabaifen::View`), written as the engine writes it (untagged).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GameView {
    /// A Madiao view.
    Madiao(Box<madiao::View>),
    /// A Da Bai Fen view.
    Dabaifen(Box<dabaifen::View>),
}

impl GameView {
    /// The game the view is of.
    pub fn game(&self) -> GameKind {
        match self {
            GameView::Madiao(_) => GameKind::Madiao,
            GameView::Dabaifen(_) => GameKind::Dabaifen,
        }
    }

    /// Whose view it is (`None`: a spectator's).
    pub fn seat(&self) -> Option<Seat> {
        match self {
            GameView::Madiao(v) => v.seat,
            GameView::Dabaifen(v) => v.seat,
        }
    }

    /// Whose turn the view shows (`None` when it shows nobody to move).
    pub fn to_move(&self) -> Option<Seat> {
        match self {
            GameView::Madiao(v) => v.to_move,
            GameView::Dabaifen(v) => v.to_move,
        }
    }

    /// True once the hand is over.
    pub fn is_over(&self) -> bool {
        match self {
            GameView::Madiao(v) => v.phase == madiao::Phase::Over,
            GameView::Dabaifen(v) => v.phase == dabaifen::Phase::Over,
        }
    }

    /// The hand's result (the record's result object), once it is over.
    pub fn result(&self) -> Option<HandResult> {
        match self {
            GameView::Madiao(v) => v.result.clone().map(HandResult::Madiao),
            GameView::Dabaifen(v) => v.result.as_ref().map(|r| HandResult::Dabaifen(r.to_record())),
        }
    }
}

impl From<madiao::View> for GameView {
    fn from(v: madiao::View) -> GameView {
        GameView::Madiao(Box::new(v))
    }
}

impl From<dabaifen::View> for GameView {
    fn from(v: dabaifen::View) -> GameView {
        GameView::Dabaifen(Box::new(v))
    }
}

/// An engine action of either game, as a client sends it (`{"play": "M9"}`, `{"play": ["AS"]}`,
/// `{"declare": "2H"}`, …). A message is read before the game of its table is known: an action
/// of neither game is kept as it came, and refused by the table as not an action of its game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ActAction {
    /// A Madiao action.
    Madiao(madiao::Action),
    /// A Da Bai Fen action.
    Dabaifen(dabaifen::Action),
    /// Madiao: the banker names the stake of the hand about to be dealt.
    Stake(StakeChoice),
    /// JSON that is an action of neither game.
    Other(Value),
}

/// A seat's card tracker of either game, as its engine makes it (`docs/protocol.md`, "Hints and
/// the tracker"). Madiao's is read first: only it counts the cards played face down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Tracker {
    /// Madiao's.
    Madiao(madiao::Tracker),
    /// Da Bai Fen's.
    Dabaifen(dabaifen::Tracker),
}

/// A banker's stake for the hand about to be dealt (§2): `{"stake": 6}`, chips per stake.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct StakeChoice {
    /// Chips per stake, even, within the table's limits.
    pub stake: u32,
}

impl From<madiao::Action> for ActAction {
    fn from(a: madiao::Action) -> ActAction {
        ActAction::Madiao(a)
    }
}

impl From<dabaifen::Action> for ActAction {
    fn from(a: dabaifen::Action) -> ActAction {
        ActAction::Dabaifen(a)
    }
}

/// A card of a face-down play that the recipient may not see.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum HiddenAction {
    /// A Madiao slough (a face-down card): `{"slough": null}`.
    Slough(()),
    /// A Da Bai Fen burial: `{"bury": null}`.
    Bury(()),
}

/// A move as the recipient of an event may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum PublicAction {
    /// A Madiao action, as it was taken.
    Madiao(madiao::Action),
    /// A Da Bai Fen action, as it was taken.
    Dabaifen(dabaifen::Action),
    /// An action whose cards are hidden from the recipient.
    Hidden(HiddenAction),
}

/// Who forced a Madiao redeal when the window closed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct RedealOutcome {
    /// The seat that forced a redeal, if one did.
    pub redeal_forced_by: Option<Seat>,
}

/// Who annulled a Da Bai Fen deal when the window closed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct AnnulOutcome {
    /// The seat that annulled, if one did.
    pub annulled_by: Option<Seat>,
}

/// How a decision window closed (public).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum WindowOutcome {
    /// Madiao's redeal window.
    Redeal(RedealOutcome),
    /// Da Bai Fen's annulment window.
    Annul(AnnulOutcome),
}

/// The result of a finished hand (the record's `result`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum HandResult {
    /// A Madiao hand.
    Madiao(MadiaoResult),
    /// A Da Bai Fen deal.
    Dabaifen(DabaifenResult),
}

impl From<MadiaoResult> for HandResult {
    fn from(r: MadiaoResult) -> HandResult {
        HandResult::Madiao(r)
    }
}

impl From<DabaifenResult> for HandResult {
    fn from(r: DabaifenResult) -> HandResult {
        HandResult::Dabaifen(r)
    }
}

/// The running match score of either game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum MatchSummary {
    /// Madiao's.
    Madiao(MadiaoMatch),
    /// Da Bai Fen's.
    Dabaifen(DabaifenMatch),
}

/// Madiao's running match score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct MadiaoMatch {
    /// Hands finished.
    pub hands: usize,
    /// Each seat's total, in stakes.
    pub totals: [f64; 4],
    /// The stake of each finished hand, in order (chips per stake, named by its banker).
    #[serde(default)]
    pub stakes: Vec<u32>,
    /// Each seat's total in chips: the sum over hands of the payoffs times the hand's stake.
    #[serde(default)]
    pub chips: [f64; 4],
    /// The seats that have banked.
    pub banked: [bool; 4],
    /// The next banker, `null` when he is drawn.
    pub next_banker: Option<Seat>,
    /// The match is over.
    pub over: bool,
}

/// Da Bai Fen's running match score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct DabaifenMatch {
    /// Deals finished.
    pub hands: usize,
    /// The team ranks (team 0: seats 0 and 2).
    pub ranks: [dabaifen::Rank; 2],
    /// The next starter.
    pub next_starter: Seat,
    /// Deals won by each team.
    pub deals_won: [u32; 2],
    /// The game is over.
    pub over: bool,
    /// The team that won the game.
    pub winner: Option<u8>,
}
