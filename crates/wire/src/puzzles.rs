//! The puzzles' bodies (`docs/puzzles.md`, `docs/protocol.md`): a position to solve, the
//! judgement of a choice, and a player's puzzle rating.

use cards::Seat;
use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::{GameView, Legal};

/// One choice the seat may make in a puzzle's position.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct PuzzleChoice {
    /// The action, as a table's `act` sends it.
    #[ts(type = "MadiaoAction | DabaifenAction")]
    pub action: Value,
    /// In words (`play TW`, `play AS KS`).
    pub label: String,
}

/// A puzzle's position, as `GET /api/puzzles/{game}/{id}` serves it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PuzzlePosition {
    /// The puzzle.
    pub id: String,
    /// The game.
    pub game: GameKind,
    /// Its place in the game's list (from 0, easiest first) and the list's length.
    pub index: u32,
    /// How many puzzles the game has.
    pub count: u32,
    /// The seat to move: the player's.
    pub seat: Seat,
    /// What that seat sees, as at a table.
    #[ts(type = "MadiaoView | DabaifenView")]
    pub view: GameView,
    /// Its legal actions, as at a table.
    pub legal: Legal,
    /// Every legal action in words.
    pub choices: Vec<PuzzleChoice>,
    /// What it teaches (`capture_or_slough`, `ruff`, …).
    pub themes: Vec<String>,
    /// 1 (easiest) to 5.
    pub difficulty: u8,
    /// The puzzle's rating (its starting rating until players have tried it).
    pub rating: f64,
    /// The least lead of the answer over any other move, in `unit`.
    pub margin: f64,
    /// `stakes` (Madiao) or `levels` (Da Bai Fen).
    pub unit: String,
}

/// A reason in both languages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct PuzzleText {
    /// English.
    pub en: String,
    /// Chinese.
    pub zh: String,
}

/// A move of the puzzle with its values.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct PuzzleMoveValue {
    /// The move.
    #[ts(type = "MadiaoAction | DabaifenAction")]
    pub action: Value,
    /// In words.
    pub label: String,
    /// Its exact value with every card face up.
    pub face_up: f64,
    /// Its average value over deals consistent with what the seat knows.
    pub expected: f64,
}

/// A step of the line after the answer.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct PuzzleLineStep {
    /// Who plays.
    pub seat: Seat,
    /// What.
    #[ts(type = "MadiaoAction | DabaifenAction")]
    pub action: Value,
    /// In words.
    pub label: String,
}

/// The judgement of a choice.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PuzzleVerdict {
    /// The puzzle.
    pub id: String,
    /// True when the choice is the answer (or a card equivalent to it).
    pub right: bool,
    /// The answer.
    #[ts(type = "MadiaoAction | DabaifenAction")]
    pub answer: Value,
    /// The answer in words.
    pub answer_label: String,
    /// Why the answer is best.
    pub reason: PuzzleText,
    /// What the choice does and what it costs, when it is not the answer.
    pub mistake: Option<PuzzleText>,
    /// How much less the choice is worth than the answer with every card face up, in `unit`
    /// (`null` when it is the answer, or a move the puzzle does not value).
    pub loss: Option<f64>,
    /// Every distinct move valued, best first.
    pub moves: Vec<PuzzleMoveValue>,
    /// The line after the answer.
    pub line: Vec<PuzzleLineStep>,
    /// `stakes` or `levels`.
    pub unit: String,
}

/// A player's puzzle rating in a game.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PuzzlePlayer {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Puzzles tried.
    pub attempts: u64,
    /// Of them, solved at the first try.
    pub solved: u64,
}

/// The body of an attempt.
#[derive(Clone, Debug, Deserialize, TS)]
pub struct PuzzleAttempt {
    /// The action chosen, as a table's `act` sends it.
    #[ts(type = "MadiaoAction | DabaifenAction")]
    pub action: serde_json::Value,
    /// Rate the attempt (default true); the tutorials' practice sends false.
    #[serde(default)]
    #[ts(optional)]
    pub rated: Option<bool>,
}

/// The change an attempt made to the ratings.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PuzzleRatingChange {
    /// The player's puzzle rating before.
    pub before: f64,
    /// After.
    pub after: f64,
    /// The puzzle's rating before.
    pub puzzle_before: f64,
    /// After.
    pub puzzle_after: f64,
}

/// The answer to an attempt.
#[derive(Clone, Debug, Serialize, TS)]
pub struct PuzzleAttemptReply {
    /// Right or wrong, why, and the line.
    pub verdict: PuzzleVerdict,
    /// The ratings' change; `null` when the attempt is not rated (not the player's first at
    /// this puzzle, or `rated: false`).
    pub rating: Option<PuzzleRatingChange>,
}
