//! A replay of a finished game as the server serves it hand by hand (`docs/protocol.md`,
//! "Replays"): its outline, and one hand's steps with the omniscient view after each event.

use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::GameView;

/// The outline of a replay: `POST /api/replay`'s answer and `GET /api/replays/{id}`'s. Each
/// hand's steps are fetched on their own (`GET /api/replays/{id}?hand=K`).
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ReplayOutline {
    /// What the hands are fetched by: a finished table's id, or the id given to a posted record
    /// (kept for a while after its last use: half an hour unless the server says otherwise).
    pub id: String,
    /// The game.
    pub game: GameKind,
    /// The record's preset.
    pub rules: String,
    /// Every variant in force, by name.
    #[ts(type = "Record<string, string>")]
    pub variants: serde_json::Map<String, Value>,
    /// The players' names, if the record names them (`bot:NAME` for bots).
    pub players: Option<[String; 4]>,
    /// The seed the decks came from, if the record gives it.
    #[ts(type = "number | null")]
    pub seed: Option<u64>,
    /// The hands, in order.
    pub hands: Vec<ReplayHandOutline>,
    /// The verification of the deals (`docs/record.md`, "Deal verification"), when the record
    /// carries a seed or a commitment for any hand; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub deals: Option<DealsChecked>,
}

/// Every deal of a record checked against its seed and commitment.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct DealsChecked {
    /// How many hands were checked (all of the record's).
    pub hands: u32,
    /// The hands that fail, in order (empty when every deal verifies).
    pub problems: Vec<DealProblem>,
}

/// One hand whose deal fails to verify.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct DealProblem {
    /// The hand, from 0.
    pub hand: u32,
    /// What fails: `missing` (no seed, commitment or table), `deck` (the deck is not the seed's)
    /// or `commitment` (the commitment is not the seed's).
    #[ts(type = "'missing' | 'deck' | 'commitment'")]
    pub fault: String,
    /// What differs, in words (English).
    pub detail: String,
    /// What differs, as a code and its figures (`detail` says the same in English): what a page
    /// says in its own language.
    pub why: DealMismatch,
}

/// Which check of a hand's deal failed, with its figures (`docs/record.md`, "Deal
/// verification"); `code` names the check.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum DealMismatch {
    /// The hand carries no seed.
    NoSeed,
    /// The hand carries no commitment.
    NoCommitment,
    /// The record names no table (`table`), which the commitment covers.
    NoTable,
    /// The deck has `cards` cards where its seed deals `dealt`.
    DeckSize {
        /// The cards of the recorded deck.
        cards: u32,
        /// The cards the seed deals.
        dealt: u32,
    },
    /// The deck differs from its seed's at `places` places; `first` gives the first (up to 4).
    DeckCards {
        /// How many places differ.
        places: u32,
        /// The first places that differ, in deck order.
        first: Vec<CardMismatch>,
    },
    /// The commitment is not SHA-256 of the seed, the hand's number (`hand`) and the table.
    Commitment {
        /// The commitment the record carries.
        commitment: String,
        /// The hand's seed, in decimal digits (a seed may exceed the integers a JSON number
        /// keeps exactly).
        seed: String,
        /// The record's table.
        table: String,
        /// The commitment the seed, hand and table give.
        expected: String,
    },
}

/// One place where a recorded deck is not its seed's.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct CardMismatch {
    /// The place in the deck, from 0.
    pub index: u32,
    /// The card the record has there.
    pub card: String,
    /// The card the seed deals there.
    pub seed_card: String,
}

/// One hand of a replay's outline.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ReplayHandOutline {
    /// How many steps the hand has (what `GET /api/replays/{id}?hand=K` gives).
    pub steps: u32,
    /// The hand's result (the record's result object), once it is over.
    #[ts(type = "MadiaoResult | DabaifenResult | null")]
    pub result: Value,
}

/// One hand of a replay with its steps: `GET /api/replays/{id}?hand=K`'s answer.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ReplayHand {
    /// The hand's index in the record, from 0.
    pub hand: u32,
    /// The cards nobody holds: Madiao's stock (the upcard last), Da Bai Fen's kitty as dealt.
    pub undealt: Vec<String>,
    /// The states of the hand: as dealt, then after each event.
    pub steps: Vec<ReplayStep>,
    /// The hand's result (the record's result object), once it is over.
    #[ts(type = "MadiaoResult | DabaifenResult | null")]
    pub result: Value,
}

/// One state of a hand in a replay.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ReplayStep {
    /// What led to this state.
    pub event: ReplayEvent,
    /// Every seat's cards now, strongest first (during the Da Bai Fen draw: the twelve it draws).
    pub hands: [Vec<String>; 4],
    /// The hand as an all-seeing spectator sees it: the engine's view with every card played face
    /// up and `hand` empty (the cards are in `hands`); `seat` is `null`.
    #[ts(type = "MadiaoView | DabaifenView")]
    pub view: GameView,
}

/// What led to a step.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReplayEvent {
    /// The cards are dealt (Da Bai Fen: the draw begins).
    Deal,
    /// Da Bai Fen: the draw ended without a showing (the kitty is turned, or an open deal annulled).
    DrawEnd,
    /// Da Bai Fen: the last polls are passed and the deal ends without a further action.
    End,
    /// A recorded action.
    Action {
        /// The record's action, with its seat.
        #[ts(type = "MadiaoRecordAction | DabaifenRecordAction")]
        action: Value,
    },
}

/// `GET /api/replays/{id}`'s query: `hand=K` asks for hand K's steps instead of the outline.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayQuery {
    /// The hand (from 0) whose steps are asked for, as written in the query (checked by the
    /// server); none: the outline.
    #[serde(default)]
    pub hand: Option<String>,
    /// A private game's share token.
    #[serde(default)]
    pub share: Option<String>,
}
