//! A tutorial as served (`GET /api/tutorial/{game}`): seat 0's view after each action of a scripted
//! hand, and a lesson at each of seat 0's decisions.

use cards::Seat;
use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::{GameView, Legal, PublicAction};

/// The kind of a decision the learner makes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Madiao: whether to force a redeal with a long suit (§4).
    Redeal,
    /// Madiao: the first card of a trick, face up.
    Lead,
    /// Madiao: a face-up card that beats the best so far in the led suit (捉).
    Capture,
    /// Madiao: a card face down (滅).
    Slough,
    /// Madiao: a face-up card that is not a capture (penalized under `faceup_discard: penalty`).
    Discard,
    /// Da Bai Fen: passing a draw poll (never a lesson: the draw goes on).
    Pass,
    /// Da Bai Fen: showing a card of the trump rank, which fixes the trump suit (§4).
    Declare,
    /// Da Bai Fen: burying six cards after taking the kitty (§7).
    Bury,
    /// Da Bai Fen: leading one card.
    LeadOne,
    /// Da Bai Fen: leading two or more top cards of one suit (§8).
    LeadSeveral,
    /// Da Bai Fen: following a lead.
    Follow,
}

/// What the learner is taught at one of his decisions.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct Lesson {
    /// The lesson's text key (`tut.madiao.lead`; `…_again` for a kind met before;
    /// `tut.madiao.slough_keep` for a Madiao slough while a capture was possible).
    pub id: String,
    /// The kind of decision.
    pub kind: Decision,
    /// The section of the rules page it is about (`play`, `settlement`, …).
    pub rules: String,
    /// What seat 0 may do, as a table sends it; the step's action is the one expected.
    pub legal: Legal,
}

/// One step of a tutorial: an action and seat 0's view after it.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct TutorialStep {
    /// Who acts.
    pub seat: Seat,
    /// The action as seat 0 sees it; `null` for another seat's answer to a hidden poll (a
    /// redeal or annulment question, a draw poll), which a table never shows.
    pub action: Option<PublicAction>,
    /// Seat 0's view after the action.
    #[ts(type = "MadiaoView | DabaifenView")]
    pub view: GameView,
    /// At seat 0's decisions: the lesson (the view before it is the previous step's).
    pub lesson: Option<Lesson>,
}

/// A tutorial as served (`GET /api/tutorial/{game}`).
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct Tutorial {
    /// The game.
    pub game: GameKind,
    /// The preset.
    pub rules: String,
    /// Every variant in force, by name.
    #[ts(type = "Record<string, string>")]
    pub variants: serde_json::Map<String, Value>,
    /// Seat 0's view as the hand is dealt.
    #[ts(type = "MadiaoView | DabaifenView")]
    pub start: GameView,
    /// The steps, one per action.
    pub steps: Vec<TutorialStep>,
    /// The lesson that reads the hand's end (the settlement, the account).
    pub end_lesson: String,
    /// The rules section of the hand's end.
    pub end_rules: String,
}
