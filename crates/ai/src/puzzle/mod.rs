//! Puzzles: positions from played hands where one move is clearly best, checked with the exact
//! solvers, for the puzzle page, the terminal's `yezi puzzle` and the tutorials' practice (see
//! `docs/puzzles.md`).
//!
//! # What a puzzle is
//! A position of a played hand — the hand's record cut after `ply` actions — where the seat to
//! move has one move (up to equivalent cards) that is clearly best:
//! - **face up**: with every card known, the exact solver values every distinct move of the seat,
//!   and the best beats every other by at least the game's margin ([`MADIAO_MARGIN`] stakes,
//!   [`DABAIFEN_MARGIN`] of a game level);
//! - **from the seat's view**: in every one of [`WORLDS`] deals consistent with what the seat knows,
//!   the exact solver finds the same move best (ties allowed) and its average lead is at least the
//!   margin — or, when some world prefers another move, its average lead is at least
//!   [`WIDE`] times the margin.
//!
//! The generator is cheap first: only positions late in a hand are looked at (Madiao: at most
//! [`MADIAO_TRICKS`] tricks left; Da Bai Fen: at most [`DABAIFEN_CARDS`] cards per hand), where the
//! exact solver is fast; the face-up test comes first, and only its survivors are sampled.
//!
//! Each puzzle carries its answer (every legal action equivalent to the best move), every
//! distinct move with its values and a reason in both languages (the hints' reasons), the line the
//! solver plays after the answer, its themes and a difficulty. [`check_madiao`] and
//! [`check_dabaifen`] re-verify a puzzle from its data alone.

mod burial;
mod dabaifen_gen;
mod madiao_gen;

use cards::Seat;
use cards::record::GameKind;
use dabaifen::record::DabaifenHand;
use madiao::record::MadiaoHand;
use serde::{Deserialize, Serialize};

use crate::hint::Reason;

pub use burial::{
    BURIAL_SMALL, BURIAL_WIDE, BURIAL_WORLDS, BurialRule, CONFIRM_LEAD, CONFIRM_WORLDS, Confirmation,
    confirm_seed, family_in_other_worlds, revalue_burial,
};
pub use dabaifen_gen::{check_dabaifen, dabaifen_move_index, dabaifen_position, make_dabaifen};
pub use madiao_gen::{check_madiao, madiao_move_index, madiao_position, make_madiao};

/// The format version of a puzzle file; a reader refuses any other.
pub const FORMAT: u32 = 1;
/// Madiao: the least lead of the best move over every other, in stakes.
pub const MADIAO_MARGIN: f64 = 0.5;
/// Da Bai Fen: the least lead of the best move over every other, in game levels (card points
/// count 1/400 of a level, so 0.05 is 20 card points).
pub const DABAIFEN_MARGIN: f64 = 0.05;
/// How many times the margin the average lead must be when some sampled world prefers another
/// move.
pub const WIDE: f64 = 2.0;
/// Deals consistent with the seat's view sampled per candidate position.
pub const WORLDS: u32 = 24;
/// Most puzzles taken from one hand (so that the puzzles come from many hands).
pub const PER_HAND: usize = 2;
/// Madiao: positions are looked at once this many tricks are left at most (the current included).
pub const MADIAO_TRICKS: u8 = 4;
/// Da Bai Fen: positions are looked at once every hand holds at most this many cards.
pub const DABAIFEN_CARDS: u32 = 5;

/// A theme of a puzzle: what it teaches.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// Madiao: following a trick, capture or slough (§5).
    CaptureOrSlough,
    /// Madiao: keep a reward card (a card the upcard rewards) rather than spend it.
    RewardCard,
    /// Madiao: the last-trick rule (a seat without a trick cannot win the last one, §5).
    LastTrick,
    /// Madiao: the banker's count (under two tricks he pays, §6).
    BankerCount,
    /// Madiao: a lead (no other theme fits).
    Lead,
    /// Da Bai Fen: a lead of two or more cards (§8).
    MultiLead,
    /// Da Bai Fen: trumping a plain suit one is void in.
    Ruff,
    /// Da Bai Fen: keeping points away from the opponents (or giving them to the partner).
    ProtectPoints,
    /// Da Bai Fen: the last trick, which decides the kitty (§9).
    KittyEnd,
    /// Da Bai Fen: a card play (no other theme fits).
    Play,
    /// Da Bai Fen: the starter's burial of six cards (§7).
    Burial,
}

impl Theme {
    /// The theme's name on the wire and in files.
    pub fn name(self) -> &'static str {
        match self {
            Theme::CaptureOrSlough => "capture_or_slough",
            Theme::RewardCard => "reward_card",
            Theme::LastTrick => "last_trick",
            Theme::BankerCount => "banker_count",
            Theme::Lead => "lead",
            Theme::MultiLead => "multi_lead",
            Theme::Ruff => "ruff",
            Theme::ProtectPoints => "protect_points",
            Theme::KittyEnd => "kitty_end",
            Theme::Play => "play",
            Theme::Burial => "burial",
        }
    }

    /// The themes of a game.
    pub fn of(game: GameKind) -> &'static [Theme] {
        match game {
            GameKind::Madiao => &[
                Theme::CaptureOrSlough,
                Theme::RewardCard,
                Theme::LastTrick,
                Theme::BankerCount,
                Theme::Lead,
            ],
            GameKind::Dabaifen => &[
                Theme::MultiLead,
                Theme::Ruff,
                Theme::Burial,
                Theme::ProtectPoints,
                Theme::KittyEnd,
                Theme::Play,
            ],
        }
    }
}

/// One distinct move of the puzzle's seat, valued.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Move<A> {
    /// The move (one card standing for its equivalent cards).
    pub action: A,
    /// Its exact value with every card face up, in the game's unit (Madiao: the seat's payoff in
    /// stakes; Da Bai Fen: its team's game levels, card points as a tie-break).
    pub face_up: f64,
    /// Its average exact value over the sampled deals consistent with the seat's view.
    pub expected: f64,
    /// What the move does, in words (the hints' reason for it).
    pub reason: Reason,
}

/// One move of the line after the answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step<A> {
    /// Who plays it.
    pub seat: Seat,
    /// What.
    pub action: A,
}

/// A puzzle of one game: `H` is its record hand type, `A` its action type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle<H, A> {
    /// Its identifier, stable across regenerations with the same seed.
    pub id: String,
    /// The hand up to the position: the record hand with its first `ply` actions (no result).
    pub hand: H,
    /// The seat to move, whose choice the puzzle asks for.
    pub seat: Seat,
    /// Every legal action counted right (the best move and the cards equivalent to it).
    pub answers: Vec<A>,
    /// Every distinct move, best first.
    pub moves: Vec<Move<A>>,
    /// The lead of the answer over the next best move with every card face up.
    pub face_up_gap: f64,
    /// Its average lead over the next best move in the sampled deals.
    pub expected_gap: f64,
    /// Sampled deals consistent with the seat's view.
    pub worlds: u32,
    /// In how many of them the answer was best (ties included).
    pub agree: u32,
    /// The line after the answer with every card face up, each seat playing its best.
    pub line: Vec<Step<A>>,
    /// What it teaches.
    pub themes: Vec<Theme>,
    /// 1 (easiest) to 5.
    pub difficulty: u8,
    /// A Da Bai Fen burial puzzle's answer (absent for a play): a burial is right when it follows
    /// this rule; `answers` then lists the right burials the generator valued, not all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burial: Option<BurialRule>,
}

/// What the generator did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MadeBy {
    /// The seed of the self-play deals.
    pub seed: u64,
    /// Deals (hands) played by self-play.
    pub deals: u64,
    /// Hands read from records (the public archive).
    pub recorded: u64,
    /// Candidate positions examined (late in a hand, more than one distinct move).
    pub examined: u64,
    /// Positions that passed the face-up test and were sampled.
    pub sampled: u64,
    /// Puzzles accepted.
    pub accepted: u64,
    /// Da Bai Fen: burial positions examined (the starter to bury, from self-play deals).
    #[serde(default)]
    pub burials_examined: u64,
    /// Da Bai Fen: burial positions that passed in their own worlds and were valued in the
    /// confirmation worlds (docs/puzzles.md, "Burial puzzles").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub burials_passed: u64,
    /// Da Bai Fen: burial puzzles accepted (counted in `accepted` too).
    #[serde(default)]
    pub burials: u64,
}

/// A file of puzzles of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleFile<H, A> {
    /// [`FORMAT`].
    pub format: u32,
    /// The game.
    pub game: GameKind,
    /// The rules preset every hand is played under.
    pub rules: String,
    /// The margin in the game's unit.
    pub margin: f64,
    /// How the file was made.
    pub made: MadeBy,
    /// The puzzles, easiest first.
    pub puzzles: Vec<Puzzle<H, A>>,
}

/// Madiao puzzles.
pub type MadiaoPuzzle = Puzzle<MadiaoHand, madiao::Action>;
/// Da Bai Fen puzzles.
pub type DabaifenPuzzle = Puzzle<DabaifenHand, dabaifen::Action>;
/// A file of Madiao puzzles.
pub type MadiaoFile = PuzzleFile<MadiaoHand, madiao::Action>;
/// A file of Da Bai Fen puzzles.
pub type DabaifenFile = PuzzleFile<DabaifenHand, dabaifen::Action>;

/// Why a puzzle file or a puzzle is refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PuzzleError {
    /// The file is not JSON of the expected shape.
    #[error("not a puzzle file: {0}")]
    Parse(String),
    /// Another format version.
    #[error("puzzle file format {0} is not supported (this build reads format {FORMAT})")]
    Format(u32),
    /// A file of the other game.
    #[error("this is a {found} puzzle file, not a {expected} one")]
    Game {
        /// The game asked for.
        expected: GameKind,
        /// The file's game.
        found: GameKind,
    },
    /// A puzzle's position does not replay or does not fit the puzzle.
    #[error("puzzle {id}: {reason}")]
    Bad {
        /// The puzzle.
        id: String,
        /// What is wrong.
        reason: String,
    },
}

/// Why a puzzle's hand does not replay to a position under its rules preset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A Madiao rules preset that does not exist.
    #[error(transparent)]
    MadiaoRules(madiao::VariantError),
    /// A Madiao deck that cannot be read.
    #[error(transparent)]
    MadiaoDeck(madiao::record::DeckError),
    /// A Madiao hand the engine does not accept.
    #[error(transparent)]
    MadiaoSetup(madiao::SetupError),
    /// A Madiao action that does not replay.
    #[error("action {index}: {error}")]
    MadiaoAction {
        /// The action's position in the hand, from 0.
        index: usize,
        /// Why it does not replay.
        error: madiao::record::ActionError,
    },
    /// A Da Bai Fen rules preset that does not exist.
    #[error(transparent)]
    DabaifenRules(dabaifen::VariantError),
    /// A Da Bai Fen deck or ranks that cannot be read.
    #[error(transparent)]
    DabaifenHand(dabaifen::record::HandError),
    /// A Da Bai Fen deal the engine does not accept.
    #[error(transparent)]
    DabaifenSetup(dabaifen::SetupError),
    /// A Da Bai Fen action that does not replay.
    #[error(transparent)]
    DabaifenAction(dabaifen::record::ActionFailed),
}

/// Reads a puzzle file of `game`, checking its format and game (not the puzzles themselves).
pub fn read_file<H, A>(text: &str, game: GameKind) -> Result<PuzzleFile<H, A>, PuzzleError>
where
    H: serde::de::DeserializeOwned,
    A: serde::de::DeserializeOwned,
{
    #[derive(Deserialize)]
    struct Head {
        format: u32,
        game: GameKind,
    }
    let head: Head = serde_json::from_str(text).map_err(|e| PuzzleError::Parse(e.to_string()))?;
    if head.format != FORMAT {
        return Err(PuzzleError::Format(head.format));
    }
    if head.game != game {
        return Err(PuzzleError::Game { expected: game, found: head.game });
    }
    serde_json::from_str(text).map_err(|e| PuzzleError::Parse(e.to_string()))
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct MakeOptions {
    /// The seed of the self-play deals.
    pub seed: u64,
    /// Stop once this many puzzles are accepted.
    pub count: usize,
    /// Stop after this many self-play deals in any case.
    pub max_deals: u64,
    /// The rules preset.
    pub rules: String,
    /// The bot that plays the self-play deals (`heuristic` is fast).
    pub bot: String,
    /// Hands from records (the public archive) to look at first.
    pub records: Vec<crate::record::AnyRecord>,
    /// Da Bai Fen: burial puzzles to make besides the `count` play puzzles (from self-play deals
    /// `0, 1, …` of the seed, at the starter's burial).
    pub burials: usize,
}

/// The difficulty (1–5) of a puzzle: harder when the `heuristic` bot misses it, when there are
/// many distinct moves and when more tricks remain.
pub(crate) fn difficulty(heuristic_right: bool, moves: usize, deep: bool) -> u8 {
    let mut d = 1u8;
    if !heuristic_right {
        d += 2;
    }
    if moves >= 4 {
        d += 1;
    }
    if deep {
        d += 1;
    }
    d.min(5)
}

/// The best and second-best value of a list, and the best's index (ties to the first).
pub(crate) fn top_two(v: &[f64]) -> (usize, f64, f64) {
    let mut best = 0;
    for (i, &x) in v.iter().enumerate() {
        if x > v[best] + 1e-9 {
            best = i;
        }
    }
    let second =
        v.iter().enumerate().filter(|&(i, _)| i != best).map(|(_, &x)| x).fold(f64::NEG_INFINITY, f64::max);
    (best, v[best], second)
}

/// A per-position seed: `seed` mixed with the deal `a` and the position `b`.
pub(crate) fn mix(seed: u64, a: u64, b: u64) -> u64 {
    crate::analysis::decision_seed(seed ^ a.wrapping_mul(0x9e37_79b9), b as usize)
}

/// The sampled test of the face-up best move `best`: `world` deals one world consistent with what
/// the seat knows and gives every move's value in it (`None` gives up the position); over
/// [`WORLDS`] worlds, the moves' average values, the average lead of `best` and the number of
/// worlds in which it was best, when [`sampled_lead`] accepts them.
pub(crate) fn sampled_test(
    best: usize,
    margin: f64,
    mut world: impl FnMut() -> Option<Vec<f64>>,
) -> Option<(Vec<f64>, f64, u32)> {
    let mut totals: Vec<f64> = Vec::new();
    let mut agree = 0u32;
    for _ in 0..WORLDS {
        let v = world()?;
        if v.iter().all(|&x| x <= v[best] + 1e-9) {
            agree += 1;
        }
        totals.resize(v.len(), 0.0);
        for (t, x) in totals.iter_mut().zip(&v) {
            *t += x;
        }
    }
    let (ev, gap) = sampled_lead(&totals, best, agree, margin)?;
    Some((ev, gap, agree))
}

/// The verdict of the sampled test from the totals of the moves' values over [`WORLDS`] deals and
/// the number of deals in which the face-up best move `best` was best: the moves' average values
/// and the average lead of `best`, when `best` is also best on average and leads by at least
/// `margin` (by [`WIDE`] times it when some deal preferred another move); `None` otherwise.
pub(crate) fn sampled_lead(totals: &[f64], best: usize, agree: u32, margin: f64) -> Option<(Vec<f64>, f64)> {
    let n = f64::from(WORLDS);
    let ev: Vec<f64> = totals.iter().map(|t| t / n).collect();
    let (ebest, _, esecond) = top_two(&ev);
    let gap = ev[best] - esecond;
    let ok = ebest == best && ((agree == WORLDS && gap >= margin) || gap >= WIDE * margin);
    ok.then_some((ev, gap))
}

/// The distinct moves with their face-up and average values, best average first;
/// `describe(i)` gives move `i`'s action and reason.
pub(crate) fn ranked<A>(
    face_up: &[f64],
    expected: &[f64],
    mut describe: impl FnMut(usize) -> (A, Reason),
) -> Vec<Move<A>> {
    let mut order: Vec<usize> = (0..expected.len()).collect();
    order.sort_by(|&a, &b| expected[b].total_cmp(&expected[a]));
    order
        .into_iter()
        .map(|i| {
            let (action, reason) = describe(i);
            Move { action, face_up: r4(face_up[i]), expected: r4(expected[i]), reason }
        })
        .collect()
}

/// The line after `answer` in `st`, at most `len` moves long: the answer, then each seat's move
/// as `best(state, seat)` chooses it; it ends early at the end of the hand, when `best` has no
/// move or at an illegal one.
pub(crate) fn solved_line<G: crate::Game>(
    st: &G::State,
    answer: G::Action,
    len: usize,
    mut best: impl FnMut(&G::State, Seat) -> Option<G::Action>,
) -> Vec<Step<G::Action>> {
    let mut st = st.clone();
    let mut out = Vec::new();
    let mut next = Some(answer);
    while out.len() < len {
        let Some(seat) = G::to_move(&st) else { break };
        let Some(action) = next.take().or_else(|| best(&st, seat)) else { break };
        if G::apply(&mut st, action).is_err() {
            break;
        }
        out.push(Step { seat, action });
    }
    out
}

/// The file of the puzzles `made`, easiest first (then by identifier).
pub(crate) fn puzzle_file<H, A>(
    game: GameKind,
    opts: &MakeOptions,
    margin: f64,
    made: MadeBy,
    mut puzzles: Vec<Puzzle<H, A>>,
) -> PuzzleFile<H, A> {
    puzzles.sort_by_key(|p| (p.difficulty, p.id.clone()));
    PuzzleFile { format: FORMAT, game, rules: opts.rules.clone(), margin, made, puzzles }
}

/// Rounds to 1/10,000.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

pub(crate) fn r4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// A seat as the solvers' index (0–3).
pub(crate) fn seat_u8(s: Seat) -> u8 {
    s.index() as u8
}

/// The result of checking a puzzle again from its data.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The lead of the answer over the next best move, face up, recomputed.
    pub face_up_gap: f64,
    /// The distinct legal moves recomputed.
    pub moves: usize,
}
