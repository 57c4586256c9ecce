//! What an analysis is: its options and errors, its decisions and verdicts, its marks and units
//! (the [`crate::analysis`] module's shared vocabulary, read by each game's analysis).

use cards::Seat;
use cards::record::GameKind;
use serde::Serialize;

use crate::Budget;
use crate::hint::Reason;

/// Madiao: the face-up verdict is exact once at most this many tricks remain (the current one
/// included).
pub const FACE_UP_TRICKS: u8 = 5;
/// Da Bai Fen: the face-up verdict is tried once every hand holds at most this many cards.
pub const FACE_UP_CARDS: u32 = 7;
/// Da Bai Fen: the most solver nodes one move's face-up value may take (beyond, the verdict is
/// unsolved).
pub const FACE_UP_NODES: u64 = 2_000_000;
/// Madiao marks: the least cost, in stakes, of an inaccuracy, a mistake and a blunder.
pub const MADIAO_MARKS: [f64; 3] = [0.2, 0.5, 1.0];
/// Da Bai Fen marks: the least cost, in game levels, of an inaccuracy, a mistake and a blunder.
pub const DABAIFEN_MARKS: [f64; 3] = [0.1, 0.3, 0.6];

/// What to analyse.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The seat whose decisions are analysed.
    pub seat: Seat,
    /// The hand of the record (from 0).
    pub hand: usize,
    /// The seed the sampled worlds come from.
    pub seed: u64,
    /// The bot's thinking per decision.
    pub budget: Budget,
}

/// How far an analysis has got: `done` of `total` decisions of the seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Decisions analysed so far.
    pub done: usize,
    /// Decisions the seat made in the hand.
    pub total: usize,
}

/// Why a hand cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The record does not replay (an illegal action, a bad deck, bad variants…).
    #[error("the record does not replay: {0}")]
    Replay(String),
    /// No such hand in the record.
    #[error("hand {hand} is out of range: the record has {hands} hand(s), numbered from 0")]
    HandOutOfRange {
        /// The hand asked for.
        hand: usize,
        /// How many hands the record holds.
        hands: usize,
    },
    /// The hand is not finished.
    #[error("hand {0} is unfinished: only a finished hand can be analysed")]
    Unfinished(usize),
}

/// The unit of every value and cost of an analysis.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Madiao: stakes of the seat's own payoff.
    Stakes,
    /// Da Bai Fen: game levels of the seat's team's payoff (card points as a tie-break).
    Levels,
}

/// How big a mistake is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// At least the first threshold.
    Inaccuracy,
    /// At least the second threshold.
    Mistake,
    /// At least the third threshold.
    Blunder,
}

impl Mark {
    /// The mark of a cost under thresholds `marks` (`None` below the first).
    pub fn of(cost: f64, marks: [f64; 3]) -> Option<Mark> {
        if cost >= marks[2] {
            Some(Mark::Blunder)
        } else if cost >= marks[1] {
            Some(Mark::Mistake)
        } else if cost >= marks[0] {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// The analysis of one seat's decisions in one hand.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The game.
    pub game: GameKind,
    /// The hand of the record (from 0).
    pub hand: usize,
    /// The seat analysed.
    pub seat: Seat,
    /// The seed.
    pub seed: u64,
    /// The bot's thinking per decision, in nominal milliseconds.
    pub think_ms: u32,
    /// The unit of every value and cost.
    pub unit: Unit,
    /// The thresholds of an inaccuracy, a mistake and a blunder, in `unit`.
    pub marks: [f64; 3],
    /// The seat's decisions, in order.
    pub decisions: Vec<Decision>,
    /// Totals over the decisions.
    pub summary: Summary,
}

/// Totals of an analysis.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Decisions the seat made.
    pub decisions: usize,
    /// Decisions searched.
    pub searched: usize,
    /// The summed cost of the moves made (searched decisions).
    pub total_cost: f64,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Decisions with a solved face-up verdict.
    pub face_up_solved: usize,
    /// The summed face-up cost of those decisions.
    pub face_up_cost: f64,
    /// The accuracy of the seat's searched moves, in percent ([`accuracy`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f64>,
    /// What the cards were worth to the seat: the expected value of the best move at its first
    /// searched decision of play (Madiao: of the redeal choice when it had one), in `unit`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dealt_value: Option<f64>,
    /// The seat's actual result in `unit` (Madiao: its payoff in stakes; Da Bai Fen: its team's
    /// payoff in levels, card points as the tie-break).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<f64>,
}

/// One decision of the seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decision {
    /// The trick it was made in, from 1 (`None` before play).
    pub trick: Option<u8>,
    /// The move made.
    pub played: String,
    /// What the analysis says of it.
    pub verdict: Verdict,
    /// What the seat saw when it decided (absent where the analysis does not show it: a Da Bai
    /// Fen showing, made at a draw poll of its own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
    /// Why, in words: for the best move, and against the move made when it cost something.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<Why>,
}

/// What a seat saw at a decision: its hand, the trick so far and what it knew of the other hands
/// (the engines' trackers: the cards played, the voids shown; the upcard or the trump).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Position {
    /// The seat's cards before the move.
    pub hand: Vec<String>,
    /// The trick so far, in order (empty when the seat leads or before play).
    pub trick: Vec<TrickPlay>,
    /// Every card seen played before this decision (face up), in the order of the tricks.
    pub played: Vec<String>,
    /// Suits a seat has shown it holds none of (Madiao: by sloughing on a lead of the suit; Da
    /// Bai Fen: by not following it), by the engine's tracker.
    pub voids: Vec<VoidShown>,
    /// Madiao: the upcard, the stock's bottom card lying face up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upcard: Option<String>,
    /// Da Bai Fen: the trump, as the suit and the rank (`"S2"`: spades, 2s), once fixed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trump: Option<String>,
}

/// One play of the trick so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrickPlay {
    /// Who played.
    pub seat: Seat,
    /// The cards, as the seat saw them (empty when face down).
    pub cards: Vec<String>,
    /// Madiao: played face down (a slough).
    pub face_down: bool,
}

/// A suit a seat has shown it holds none of.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VoidShown {
    /// The seat.
    pub seat: Seat,
    /// The suit, as the engine's tracker names it (Madiao `T`, `M`, `S`, `W`; Da Bai Fen `S`, `H`,
    /// `D`, `C` or `trump`).
    pub suit: String,
}

/// The reasons of a decision, in English and Chinese (built as the hints' reasons are: from the
/// position and the move, naming the cards and the facts behind it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Why {
    /// Why the best move (the bot's choice).
    pub best: Reason,
    /// Against the move made, when it cost something: what it is, then what it gave away.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played: Option<Reason>,
}

/// The accuracy of one move of expected cost `cost` (in `unit`), in percent: lichess's formula
/// for a move's accuracy from the expected loss (`docs/analysis.md`, "Accuracy"), the loss taken
/// as a share of [`accuracy_scale`]: `103.1668 · e^(−0.04354 · L) − 3.1669` with
/// `L = 100 · cost / scale`, kept within 0–100.
pub fn move_accuracy(cost: f64, unit: Unit) -> f64 {
    let loss = 100.0 * cost.max(0.0) / accuracy_scale(unit);
    (103.1668 * (-0.04354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The expected loss that counts as the whole scale of a hand's outcomes, in `unit`: 4 stakes
/// (Madiao), 2 game levels (Da Bai Fen).
pub fn accuracy_scale(unit: Unit) -> f64 {
    match unit {
        Unit::Stakes => 4.0,
        Unit::Levels => 2.0,
    }
}

/// The accuracy of a player over moves of expected costs `costs` (in `unit`), in percent, to 1/10:
/// the mean of the moves' arithmetic and harmonic means of [`move_accuracy`] (the harmonic mean
/// takes each move's accuracy as at least 1%), as lichess mixes them. `None` without a move.
pub fn accuracy(costs: &[f64], unit: Unit) -> Option<f64> {
    if costs.is_empty() {
        return None;
    }
    let n = costs.len() as f64;
    let acc: Vec<f64> = costs.iter().map(|&c| move_accuracy(c, unit)).collect();
    let mean = acc.iter().sum::<f64>() / n;
    let harmonic = n / acc.iter().map(|a| 1.0 / a.max(1.0)).sum::<f64>();
    Some(((mean + harmonic) / 2.0 * 10.0).round() / 10.0)
}

/// A player's accuracy over a whole match, from the analyses of its hands (`docs/analysis.md`,
/// "Accuracy"): [`accuracy`] over the searched moves of every hand analysed, pooled — each move
/// counts once, whichever hand it was made in, as lichess counts every move of a game; so a hand
/// of many choices weighs more than a hand of few, and one blunder anywhere in the match pulls
/// it down through the harmonic mean as it would in a hand. `hands` holds each analysed hand's
/// costs of its searched moves (a hand without one, settled by a meld or redealt, adds nothing).
/// `None` without a searched move.
pub fn match_accuracy(hands: &[Vec<f64>], unit: Unit) -> Option<f64> {
    let moves: Vec<f64> = hands.iter().flatten().copied().collect();
    accuracy(&moves, unit)
}

impl Analysis {
    /// The costs of the searched decisions, in order (what [`accuracy`] and [`match_accuracy`]
    /// are computed from).
    pub fn searched_costs(&self) -> Vec<f64> {
        self.decisions
            .iter()
            .filter_map(|d| match &d.verdict {
                Verdict::Searched(x) => Some(x.cost),
                _ => None,
            })
            .collect()
    }
}

/// What the analysis says of a decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// The bot searched it.
    Searched(Search),
    /// Every legal move was equivalent: nothing to choose.
    Forced,
    /// A decision the analysis does not search.
    NotAnalysed {
        /// Why.
        reason: String,
    },
}

/// A searched decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Search {
    /// The bot's choice.
    pub bot: String,
    /// Worlds sampled.
    pub samples: u32,
    /// Every move valued: the bot's candidates (and the move made, when it was not one).
    pub candidates: Vec<Candidate>,
    /// The expected value of the move made.
    pub played_value: f64,
    /// The expected value of the bot's choice.
    pub bot_value: f64,
    /// The expected cost of the move made (`bot_value − played_value`, at least 0).
    pub cost: f64,
    /// The mistake's size, if it is one.
    pub mark: Option<Mark>,
    /// The verdict with every card known.
    pub face_up: FaceUp,
}

/// One move the search valued.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The move (one card standing for the cards equivalent to it).
    pub action: String,
    /// Its expected value, in the analysis's unit.
    pub value: f64,
    /// Da Bai Fen plays and burials: the expected defenders' card points at the end of the deal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<f64>,
    /// True when the bot considered it (false for the move made when the bot did not weigh it).
    pub considered: bool,
}

/// The "cards face up" verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum FaceUp {
    /// The exact solver's values with every card known.
    Solved {
        /// The best move.
        best: String,
        /// Its exact value.
        best_value: f64,
        /// The exact value of the move made.
        played_value: f64,
        /// `best_value − played_value`.
        cost: f64,
    },
    /// No exact solver fits the position.
    Unsolved {
        /// Why.
        reason: String,
    },
}

/// The seed of the search of decision `index` (from 0) of an analysis seeded `seed`: a fresh
/// `pimc` bot seeded with it chooses the analysis's bot choice.
pub fn decision_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed ^ (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Rounds a value for the report (to 1/10,000 of a unit).
pub(crate) fn r4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

pub(crate) fn check_hand(hand: usize, hands: usize) -> Result<(), AnalysisError> {
    if hand >= hands {
        return Err(AnalysisError::HandOutOfRange { hand, hands });
    }
    Ok(())
}

pub(crate) fn summarize(decisions: &[Decision], unit: Unit) -> Summary {
    let mut s = Summary { decisions: decisions.len(), ..Summary::default() };
    for d in decisions {
        if let Verdict::Searched(x) = &d.verdict {
            s.searched += 1;
            s.total_cost += x.cost;
            match x.mark {
                Some(Mark::Inaccuracy) => s.inaccuracies += 1,
                Some(Mark::Mistake) => s.mistakes += 1,
                Some(Mark::Blunder) => s.blunders += 1,
                None => {}
            }
            if let FaceUp::Solved { cost, .. } = x.face_up {
                s.face_up_solved += 1;
                s.face_up_cost += cost;
            }
        }
    }
    s.total_cost = r4(s.total_cost);
    s.face_up_cost = r4(s.face_up_cost);
    let costs: Vec<f64> = decisions
        .iter()
        .filter_map(|d| match &d.verdict {
            Verdict::Searched(x) => Some(x.cost),
            _ => None,
        })
        .collect();
    s.accuracy = accuracy(&costs, unit);
    s.dealt_value = decisions.iter().find_map(|d| match &d.verdict {
        Verdict::Searched(x) => Some(x.bot_value),
        _ => None,
    });
    s
}
