//! The bodies of the analysis API (`docs/analysis.md`, `docs/protocol.md`): asking for the analysis
//! of one seat's decisions in a hand of a finished game, and where it is.

use cards::Seat;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where an analysis is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisStatus {
    /// Waiting for a thread.
    Queued,
    /// Being analysed: `done` of `total` decisions.
    Running,
    /// Analysed: the analysis is given.
    Done,
    /// The analysis failed: `error` says why.
    Failed,
}

/// The answer of `POST` and `GET /api/games/{id}/analysis`.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct AnalysisReply {
    /// The game (table) id.
    pub game: String,
    /// The hand, from 0.
    pub hand: u32,
    /// The seat analysed.
    pub seat: Seat,
    /// Where the analysis is.
    pub status: AnalysisStatus,
    /// Decisions analysed so far.
    pub done: u32,
    /// Decisions of the seat in the hand (0 until the job has begun).
    pub total: u32,
    /// While queued: how many jobs are ahead of this one.
    pub ahead: Option<u32>,
    /// When failed: why.
    pub error: Option<String>,
    /// When done: the analysis (docs/analysis.md, "JSON").
    #[ts(type = "unknown")]
    pub analysis: Option<Value>,
}

/// `POST /api/games/{id}/analysis`'s body.
#[derive(Clone, Debug, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// The hand, from 0.
    pub hand: u32,
    /// The seat whose decisions are analysed (0–3).
    pub seat: u8,
}

/// A player's accuracy over a finished match (`GET /api/games/{id}/accuracy?seat=S`, and each
/// game of My games): lichess's accuracy over the searched moves of every hand analysed for the
/// seat, pooled (`docs/analysis.md`, "Accuracy"), with how many of the match's hands have been
/// analysed so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct MatchAccuracy {
    /// The game (table) id.
    pub game: String,
    /// The seat.
    pub seat: u8,
    /// The match's hands played to their end (those an analysis can be asked for), in order.
    pub hands: Vec<HandAccuracy>,
    /// How many of them have been analysed for the seat.
    pub analysed: u32,
    /// The searched moves the accuracy is computed from.
    pub moves: u32,
    /// The accuracy in percent, to 1/10, over the analysed hands; `null` when none of them has a
    /// searched move (none analysed yet, or only forced moves).
    pub accuracy: Option<f64>,
}

/// One hand of a [`MatchAccuracy`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct HandAccuracy {
    /// The hand, from 0.
    pub hand: u32,
    /// Its analysis for the seat is stored.
    pub analysed: bool,
    /// The searched moves of the seat in it (0 until analysed).
    pub moves: u32,
    /// The hand's accuracy (the analysis's summary), `null` until analysed or without a searched
    /// move.
    pub accuracy: Option<f64>,
}
