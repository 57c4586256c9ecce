//! The analysis of a finished hand: for every decision one seat made, what the strongest bot
//! (`pimc`) would have done from that seat's view, the expected value of each move it weighed,
//! the expected cost of the move actually made, the mistake's size, and the "cards face up"
//! verdict — what was best with every card known, from the exact solver.
//!
//! # What is measured
//! Values are what `pimc`'s search measures, from the analysed seat's side:
//! - **Madiao**: the seat's own payoff for the hand, in **stakes** (a player's own payoff with the
//!   three other seats against him, the banker's own payoff for the banker; `pimc`'s objective).
//! - **Da Bai Fen**: the seat's team's payoff in **game levels** (`pimc`'s
//!   [`crate::dabaifen::pimc::payoff`]: the §9 table in signed levels plus one level per
//!   [`crate::dabaifen::pimc::TIE_BREAK`] card points), with the expected defenders' card points
//!   `T` of each candidate beside it.
//!
//! Each decision is searched exactly as a fresh `pimc` bot of the decision's seed
//! ([`decision_seed`]) and the analysis budget would search it: the same sampled worlds, the same
//! candidates, the same values — so the bot's choice is the move a fresh `pimc` makes there. The
//! move actually made is valued in the same worlds (when the bot did not consider it, it is valued
//! beside its candidates: a Madiao face-up discard, a Da Bai Fen play outside the candidate cap).
//! The **cost** of the move made is the bot's choice's value minus the move's value, never below
//! 0 (a move the bot did not weigh and that scores above its choice costs 0). The cost of the
//! bot's own choice is 0.
//!
//! # Marks
//! A cost of at least [`MADIAO_MARKS`] stakes (Madiao) or [`DABAIFEN_MARKS`] levels (Da Bai Fen)
//! is an inaccuracy, a mistake or a blunder (the first, second and third threshold).
//!
//! # Cards face up
//! With every card known the exact solver values each move: Madiao once at most
//! [`FACE_UP_TRICKS`] tricks remain (the current one included), Da Bai Fen once every hand holds
//! at most [`FACE_UP_CARDS`] cards and each move is solved within [`FACE_UP_NODES`] nodes. Before
//! that the verdict is [`FaceUp::Unsolved`] with the reason: no number is made up. The Madiao
//! solver values a seat's own payoff with the three others against it (as the bot's objective),
//! the Da Bai Fen solver the defenders' points with both teams playing their best.
//!
//! # Decisions before play
//! Card plays and Madiao's redeal choices are searched (a redeal choice as `pimc` weighs it: the
//! hand played out by the rules in sampled deals against what a fresh hand is worth; its
//! face-up verdict is unsolved). Da Bai Fen's decisions before play are searched as `pimc`
//! weighs them ([`crate::dabaifen::pimc::Weighed`]): a showing against passing and the other
//! cards the hand supports, each played out from decks consistent with the seat's view; an
//! annulment poll's declining against annulling (worth 0); a burial against the bot's burial
//! candidates, each played out in the same sampled worlds. Their face-up verdict is unsolved (no
//! exact solver values a whole deal). A play with one distinct choice (every legal move
//! equivalent) is [`Verdict::Forced`].
//!
//! # Seeds
//! The same record, hand, seat, seed and budget give the same analysis. Another seed samples
//! other worlds, so the values, costs, marks and possibly the bot's choice change; the decisions
//! listed, the moves made and the face-up verdicts do not depend on the seed.

use cards::record::{AnyRecord, DabaifenAction, DabaifenHand, GameKind, MadiaoHand, Record};
use std::fmt::Write as _;

use cards::{Rng, Seat};
use serde::Serialize;

use crate::Budget;
use crate::dabaifen::heuristic::legal_or_fallback;
use crate::dabaifen::infer;
use crate::dabaifen::know::Know;
use crate::dabaifen::pimc::{
    Params, PimcBot, Search as DSearch, bury_options, payoff, play_candidates, pos_from_view, resample,
    resplit_burial,
};
use crate::dabaifen::pos::Pos as DPos;
use crate::dabaifen::sample::Problem;
use crate::dabaifen::solver::{Solver as DSolver, for_each_reduced_play};
use crate::madiao::heuristic;
use crate::madiao::know::Knowledge;
use crate::madiao::pimc::{
    BANKER_WORK, FRESH_HAND, MAX_SAMPLES, MIN_SAMPLES, PlayerObjective, ROLLOUT_COST, Settings, candidates,
    objective,
};
use crate::madiao::pos::{Ctx, Mv, Pos as MPos, discard_penalties, from_state};
use crate::madiao::solver::{Objective, Solver as MSolver};

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
fn r4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Analyses hand `opts.hand` of a record for `opts.seat`; `progress` is told after each decision.
pub fn analyse(
    record: &AnyRecord,
    opts: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Analysis, AnalysisError> {
    match record {
        AnyRecord::Madiao(r) => analyse_madiao(r, opts, progress),
        AnyRecord::Dabaifen(r) => analyse_dabaifen(r, opts, progress),
    }
}

fn check_hand(hand: usize, hands: usize) -> Result<(), AnalysisError> {
    if hand >= hands {
        return Err(AnalysisError::HandOutOfRange { hand, hands });
    }
    Ok(())
}

fn summarize(decisions: &[Decision]) -> Summary {
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
    s
}

// ---------------------------------------------------------------------------------------------
// Madiao

/// Analyses a Madiao record's hand.
pub fn analyse_madiao(
    record: &Record<MadiaoHand>,
    opts: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Analysis, AnalysisError> {
    check_hand(opts.hand, record.hands.len())?;
    let rep = madiao::record::replay(record);
    let Some(h) = rep.hands.get(opts.hand) else {
        return Err(AnalysisError::Replay(
            rep.error.map_or("the hand was not replayed".into(), |e| e.to_string()),
        ));
    };
    if let Some(e) = &rep.error
        && e.hand.is_none_or(|x| x <= opts.hand)
    {
        return Err(AnalysisError::Replay(e.to_string()));
    }
    if !h.state.is_over() {
        return Err(AnalysisError::Unfinished(opts.hand));
    }
    let mut a = analyse_madiao_hand(&h.state, opts.seat, opts.seed, opts.budget, progress);
    a.hand = opts.hand;
    Ok(a)
}

/// Analyses a finished Madiao hand (its final engine state) for `seat`; the analysis's `hand` is
/// 0.
pub fn analyse_madiao_hand(
    finished: &madiao::State,
    seat: Seat,
    seed: u64,
    budget: Budget,
    progress: &mut dyn FnMut(Progress),
) -> Analysis {
    let setup = madiao::HandSetup {
        banker: finished.banker(),
        stake: finished.stake(),
        deck: *finished.deck(),
        variants: *finished.variants(),
        progress: finished.progress(),
    };
    let history = finished.history();
    let total = history.iter().filter(|(s, _)| *s == seat).count();
    let mut decisions = Vec::with_capacity(total);
    progress(Progress { done: 0, total });
    if let Ok(mut st) = madiao::State::new(setup) {
        for (s, action) in history {
            if s == seat {
                let trick = (st.phase() == madiao::Phase::Play).then(|| st.trick_number() + 1);
                let verdict = match action {
                    madiao::Action::Redeal(_) => {
                        madiao_redeal(&st, action, decision_seed(seed, decisions.len()), budget)
                    }
                    _ => madiao_play(&st, action, decision_seed(seed, decisions.len()), budget),
                };
                decisions.push(Decision { trick, played: action.to_string(), verdict });
                progress(Progress { done: decisions.len(), total });
            }
            if st.apply(action).is_err() {
                break;
            }
        }
    }
    let summary = summarize(&decisions);
    Analysis {
        game: GameKind::Madiao,
        hand: 0,
        seat,
        seed,
        think_ms: budget.think_ms,
        unit: Unit::Stakes,
        marks: MADIAO_MARKS,
        decisions,
        summary,
    }
}

/// A face-up card that is not a lead or a capture (a face-up discard): its card.
fn madiao_discard(pos: &MPos, action: madiao::Action) -> Option<u8> {
    match action {
        madiao::Action::Play(c) if pos.pos > 0 && pos.captures() & (1u64 << c.number()) == 0 => {
            Some(c.number())
        }
        _ => None,
    }
}

/// The value, in half-stakes for `obj`, of a face-up discard of `card` in a world: the card
/// leaves the hand as a slough would, the discard's penalty is owed, and the card counts as
/// played face up for the stock check. Exact when `exact`, else a rollout hands over to the
/// solver as `pimc`'s do.
fn madiao_discard_value(
    solver: &mut MSolver,
    ctx: &Ctx,
    pos: &MPos,
    obj: Objective,
    card: u8,
    exact: bool,
    rollout_to: u8,
) -> i32 {
    let mut ctx2 = *ctx;
    let pen = discard_penalties(ctx.banker, [pos.to_move]);
    for (b, p) in ctx2.base.iter_mut().zip(pen) {
        *b += p;
    }
    let mut child = *pos;
    child.play(&ctx2, Mv::down(card));
    if ctx.check.is_some_and(|(c, _)| c == card) {
        child.check_up = true;
    }
    if !exact {
        heuristic::rollout(&ctx2, &mut child, rollout_to);
    }
    if child.is_over() { obj.value(&child.payoffs(&ctx2)) } else { solver.value(&ctx2, &child, obj) }
}

/// One Madiao play decision: the search of a fresh `pimc` (seed `seed`) from the seat's view,
/// the move made valued in the same worlds, and the face-up verdict.
fn madiao_play(st: &madiao::State, action: madiao::Action, seed: u64, budget: Budget) -> Verdict {
    let Some(seat) = st.to_move() else {
        return Verdict::NotAnalysed { reason: "nobody was to move".into() };
    };
    let legal = st.legal_actions();
    let view = st.view(seat);
    let k = Knowledge::from_view(&view);
    let settings = Settings::new(budget, PlayerObjective::Own);
    let mut mine = k.pos;
    mine.hands[k.me as usize] = k.hand;
    let moves = candidates(&mine, &legal, k.unknown, k.reward);
    let discard = madiao_discard(&mine, action);
    let played_class = if discard.is_some() {
        None
    } else {
        candidates(&mine, &[action], k.unknown, k.reward)
            .first()
            .and_then(|c| moves.iter().position(|m| m.1 == c.1))
    };
    if moves.len() <= 1 && discard.is_none() {
        return Verdict::Forced;
    }
    let obj = objective(k.me, k.banker, settings.objective);
    // As `pimc` plays: the same worlds, work and tie-break.
    let mut rng = Rng::from_seed(seed);
    let mut solver = MSolver::new(15);
    let mut side = MSolver::new(15);
    let mut totals = vec![0i64; moves.len()];
    let mut discard_total = 0i64;
    let mut work = 0u64;
    let mut n = 0u32;
    let limit = if k.me == k.banker { settings.work * BANKER_WORK } else { settings.work };
    while (work < limit || n < MIN_SAMPLES) && n < MAX_SAMPLES {
        let w = k.sample(&mut rng, 60);
        let (ctx, pos) = k.search(&w);
        let n0 = solver.nodes;
        let mut rollout_moves = 0u64;
        let exact = pos.tricks_left() <= settings.exact_tricks;
        if exact {
            let values = solver.move_values(&ctx, &pos, obj);
            for (o, &(_, mv)) in totals.iter_mut().zip(&moves) {
                *o += i64::from(MSolver::lookup(&ctx, &pos, &values, mv).unwrap_or(i32::MIN / 4));
            }
        } else {
            for (o, &(_, mv)) in totals.iter_mut().zip(&moves) {
                let mut child = pos;
                child.play(&ctx, mv);
                rollout_moves += u64::from(heuristic::rollout(&ctx, &mut child, settings.rollout_to));
                let v = if child.is_over() {
                    obj.value(&child.payoffs(&ctx))
                } else {
                    solver.value(&ctx, &child, obj)
                };
                *o += i64::from(v);
            }
        }
        work += solver.nodes - n0 + rollout_moves * ROLLOUT_COST;
        if let Some(c) = discard {
            discard_total +=
                i64::from(madiao_discard_value(&mut side, &ctx, &pos, obj, c, exact, settings.rollout_to));
        }
        n += 1;
    }
    let h = heuristic::choose(&k, &legal);
    let prefer = candidates(&mine, &[h], k.unknown, k.reward)
        .first()
        .and_then(|c| moves.iter().position(|m| m.1 == c.1));
    let max = totals.iter().copied().max().unwrap_or(0);
    let best = match prefer {
        Some(p) if totals.get(p) == Some(&max) => p,
        _ => totals.iter().position(|&t| t == max).unwrap_or(0),
    };
    // Half-stakes summed over `n` worlds → stakes on average.
    let stakes = |t: i64| r4(t as f64 / f64::from(n) / 2.0);
    let mut cands: Vec<Candidate> = moves
        .iter()
        .zip(&totals)
        .map(|(m, &t)| Candidate {
            action: m.0.to_string(),
            value: stakes(t),
            points: None,
            considered: true,
        })
        .collect();
    let played_value = match (discard, played_class) {
        (Some(_), _) => {
            cands.push(Candidate {
                action: action.to_string(),
                value: stakes(discard_total),
                points: None,
                considered: false,
            });
            stakes(discard_total)
        }
        (None, Some(i)) => stakes(totals[i]),
        (None, None) => {
            return Verdict::NotAnalysed { reason: format!("{action} is not a move the bot's model knows") };
        }
    };
    let bot_value = stakes(totals[best]);
    let cost = r4((bot_value - played_value).max(0.0));
    Verdict::Searched(Search {
        bot: moves[best].0.to_string(),
        samples: n,
        candidates: cands,
        played_value,
        bot_value,
        cost,
        mark: Mark::of(cost, MADIAO_MARKS),
        face_up: madiao_face_up(st, action, &legal),
    })
}

/// A Madiao redeal choice, as a fresh `pimc` (seed `seed`) weighs it: declining is worth the
/// hand played out by the rules from the first lead, averaged over sampled deals consistent
/// with the seat's view; forcing a redeal is worth what a fresh hand is worth on average to the
/// seat ([`crate::madiao::pimc::FRESH_HAND`]). No exact solver values a whole hand: the face-up verdict is unsolved.
fn madiao_redeal(st: &madiao::State, action: madiao::Action, seed: u64, budget: Budget) -> Verdict {
    let Some(seat) = st.to_move() else {
        return Verdict::NotAnalysed { reason: "nobody was to move".into() };
    };
    let k = Knowledge::from_view(&st.view(seat));
    let settings = Settings::new(budget, PlayerObjective::Own);
    let obj = objective(k.me, k.banker, settings.objective);
    let mut rng = Rng::from_seed(seed);
    let (mut total, mut work, mut n) = (0.0f64, 0u64, 0u32);
    while (work < settings.work || n < MIN_SAMPLES) && n < MAX_SAMPLES * 4 {
        let w = k.sample(&mut rng, 60);
        let (ctx, mut pos) = k.search(&w);
        pos.to_move = k.first;
        pos.leader = k.first;
        pos.best_seat = k.first;
        let moves = heuristic::rollout(&ctx, &mut pos, 0);
        total += f64::from(obj.value(&pos.payoffs(&ctx)));
        work += u64::from(moves) * ROLLOUT_COST;
        n += 1;
    }
    let row = usize::from(k.variants.banker_shortfall != madiao::variants::BankerShortfall::Winners);
    let fresh: f64 = (0..4u8)
        .map(|s| f64::from(obj.weights[s as usize]) * FRESH_HAND[row][usize::from(s != k.banker)])
        .sum();
    let force = total < fresh * f64::from(n);
    // Half-stakes → stakes.
    let decline_value = r4(total / f64::from(n) / 2.0);
    let force_value = r4(fresh / 2.0);
    let (bot, bot_value) = if force {
        (madiao::Action::Redeal(true), force_value)
    } else {
        (madiao::Action::Redeal(false), decline_value)
    };
    let played_value = if action == madiao::Action::Redeal(true) { force_value } else { decline_value };
    let cost = r4((bot_value - played_value).max(0.0));
    Verdict::Searched(Search {
        bot: bot.to_string(),
        samples: n,
        candidates: vec![
            Candidate {
                action: madiao::Action::Redeal(true).to_string(),
                value: force_value,
                points: None,
                considered: true,
            },
            Candidate {
                action: madiao::Action::Redeal(false).to_string(),
                value: decline_value,
                points: None,
                considered: true,
            },
        ],
        played_value,
        bot_value,
        cost,
        mark: Mark::of(cost, MADIAO_MARKS),
        face_up: FaceUp::Unsolved {
            reason: "a redeal choice concerns the whole hand, which no exact solver values".into(),
        },
    })
}

/// The Madiao face-up verdict at a decision: the exact values of the seat's moves (its own
/// payoff, everyone else against it) with every card known — one per class of equivalent cards,
/// and every face-up discard the rules allow.
pub fn madiao_face_up(st: &madiao::State, action: madiao::Action, legal: &[madiao::Action]) -> FaceUp {
    let Some((ctx, pos)) = from_state(st) else {
        return FaceUp::Unsolved { reason: "not a play position".into() };
    };
    let left = pos.tricks_left();
    if left > FACE_UP_TRICKS {
        return FaceUp::Unsolved {
            reason: format!("{left} tricks remain; the exact solver is used from {FACE_UP_TRICKS}"),
        };
    }
    let me = pos.to_move;
    let obj = objective(me, ctx.banker, PlayerObjective::Own);
    let others = (0..4).filter(|&x| x != me as usize).fold(0u64, |m, x| m | pos.hands[x]);
    let moves = candidates(&pos, legal, others, ctx.reward);
    let mut solver = MSolver::new(16);
    let values = solver.move_values(&ctx, &pos, obj);
    let mut valued: Vec<(madiao::Action, i32)> = moves
        .iter()
        .filter_map(|&(a, mv)| MSolver::lookup(&ctx, &pos, &values, mv).map(|v| (a, v)))
        .collect();
    let mut side = MSolver::new(14);
    let mut played = None;
    for &a in legal {
        if let Some(c) = madiao_discard(&pos, a) {
            let v = madiao_discard_value(&mut side, &ctx, &pos, obj, c, true, 0);
            valued.push((a, v));
            if a == action {
                played = Some(v);
            }
        }
    }
    if madiao_discard(&pos, action).is_none() {
        played = Mv::from_action(action).and_then(|mv| MSolver::lookup(&ctx, &pos, &values, mv));
    }
    let (Some(played), Some(&(best, best_v))) = (played, valued.iter().max_by_key(|x| x.1)) else {
        return FaceUp::Unsolved { reason: format!("{action} has no exact value") };
    };
    let half = |v: i32| r4(f64::from(v) / 2.0);
    FaceUp::Solved {
        best: best.to_string(),
        best_value: half(best_v),
        played_value: half(played),
        cost: r4(half(best_v) - half(played)),
    }
}

// ---------------------------------------------------------------------------------------------
// Da Bai Fen

/// Analyses a Da Bai Fen record's hand (deal).
pub fn analyse_dabaifen(
    record: &Record<DabaifenHand>,
    opts: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Analysis, AnalysisError> {
    check_hand(opts.hand, record.hands.len())?;
    let rep = dabaifen::record::replay(record);
    if let Some(e) = &rep.error
        && e.hand.is_none_or(|x| x <= opts.hand)
    {
        return Err(AnalysisError::Replay(e.to_string()));
    }
    let Some(h) = rep.hands.get(opts.hand) else {
        return Err(AnalysisError::Replay("the hand was not replayed".into()));
    };
    if h.state.result().is_none() {
        return Err(AnalysisError::Unfinished(opts.hand));
    }
    let mut a = analyse_dabaifen_hand(
        &h.state,
        &record.hands[opts.hand].actions,
        opts.seat,
        opts.seed,
        opts.budget,
        progress,
    );
    a.hand = opts.hand;
    Ok(a)
}

/// Analyses a finished Da Bai Fen deal (its final engine state and its record actions) for
/// `seat`; the analysis's `hand` is 0.
pub fn analyse_dabaifen_hand(
    finished: &dabaifen::State,
    actions: &[DabaifenAction],
    seat: Seat,
    seed: u64,
    budget: Budget,
    progress: &mut dyn FnMut(Progress),
) -> Analysis {
    let total = actions.iter().filter(|a| a.seat() == seat).count();
    let mut decisions = Vec::with_capacity(total);
    progress(Progress { done: 0, total });
    if let Ok(mut st) = dabaifen::State::new(&finished.setup()) {
        for a in actions {
            if a.seat() == seat {
                let playing = st.phase() == dabaifen::Phase::Playing && st.to_move() == Some(seat);
                let trick = playing.then(|| st.tricks().len() as u8);
                let (played, verdict) = match a {
                    DabaifenAction::Play { .. } if playing => {
                        let mut probe = st.clone();
                        let played = (dabaifen::record::apply_recorded(&mut probe, a).is_ok())
                            .then(|| probe.history_last_play(seat))
                            .flatten();
                        match played {
                            Some(set) => (
                                dabaifen::Action::Play(set).to_string(),
                                dabaifen_play(&st, set, decision_seed(seed, decisions.len()), budget),
                            ),
                            None => (
                                format!("{a:?}"),
                                Verdict::NotAnalysed { reason: "the play could not be read".into() },
                            ),
                        }
                    }
                    other => dabaifen_before_play(&st, other, decision_seed(seed, decisions.len()), budget),
                };
                decisions.push(Decision { trick, played, verdict });
                progress(Progress { done: decisions.len(), total });
            }
            if dabaifen::record::apply_recorded(&mut st, a).is_err() {
                break;
            }
        }
    }
    let summary = summarize(&decisions);
    Analysis {
        game: GameKind::Dabaifen,
        hand: 0,
        seat,
        seed,
        think_ms: budget.think_ms,
        unit: Unit::Levels,
        marks: DABAIFEN_MARKS,
        decisions,
        summary,
    }
}

/// Why a decision before play has no face-up verdict.
const BEFORE_PLAY_FACE_UP: &str = "a decision before play: no exact solver values a whole deal";

/// A move before play in words (at an annulment poll, passing is declining to annul; at a draw
/// poll it is showing nothing).
fn before_play_label(a: dabaifen::Action, annul_poll: bool) -> String {
    match a {
        dabaifen::Action::Pass if annul_poll => "decline to annul".into(),
        other => other.to_string(),
    }
}

/// One Da Bai Fen decision before play (showing a trump, an annulment poll, the burial): the
/// move made, and what a fresh `pimc` (seed `seed`) weighs there from the seat's view, with the
/// move made valued beside its candidates.
fn dabaifen_before_play(
    st: &dabaifen::State,
    action: &DabaifenAction,
    seed: u64,
    budget: Budget,
) -> (String, Verdict) {
    let made = match action {
        DabaifenAction::Declare { card, .. } => {
            card.parse::<dabaifen::Card>().ok().map(dabaifen::Action::Declare)
        }
        DabaifenAction::Annul { annul: true, .. } => Some(dabaifen::Action::Annul),
        DabaifenAction::Annul { annul: false, .. } => Some(dabaifen::Action::Pass),
        DabaifenAction::Bury { cards, .. } => {
            let mut set = dabaifen::Cards::EMPTY;
            let all = cards.iter().all(|code| code.parse::<dabaifen::Card>().is_ok_and(|c| set.insert(c)));
            all.then_some(dabaifen::Action::Bury(set))
        }
        DabaifenAction::Play { .. } => None,
    };
    let Some(made) = made else {
        return (
            describe_dabaifen(action),
            Verdict::NotAnalysed { reason: "the move could not be read".into() },
        );
    };
    let annul_poll = matches!(action, DabaifenAction::Annul { .. });
    (before_play_label(made, annul_poll), weigh_before_play(st, action.seat(), action, made, seed, budget))
}

/// The verdict of a decision before play (see [`dabaifen_before_play`]).
fn weigh_before_play(
    st: &dabaifen::State,
    seat: Seat,
    action: &DabaifenAction,
    made: dabaifen::Action,
    seed: u64,
    budget: Budget,
) -> Verdict {
    let mut at = st.clone();
    // A showing is recorded with the draw poll it was made at: every poll before it passes.
    if let DabaifenAction::Declare { drawn, .. } = *action {
        for _ in 0..600 {
            if at.phase() != dabaifen::Phase::Drawing
                || at.drawn() > drawn
                || (at.drawn() == drawn && at.to_move() == Some(seat))
            {
                break;
            }
            at.apply_unchecked(dabaifen::Action::Pass);
        }
    }
    if at.to_move() != Some(seat) {
        return Verdict::NotAnalysed { reason: "the seat was not to move".into() };
    }
    let legal = at.legal_actions();
    if !legal.contains(&made) {
        return Verdict::NotAnalysed { reason: format!("{made} was not legal there") };
    }
    if legal.len() <= 1 {
        return Verdict::Forced;
    }
    let view = at.view(seat);
    let annul_poll = matches!(action, DabaifenAction::Annul { .. });
    let mut bot = PimcBot::new(seed, budget);
    let weighed = match made {
        dabaifen::Action::Declare(_) => bot.weigh_declare(&view, &legal, Some(made)),
        dabaifen::Action::Annul | dabaifen::Action::Pass => bot.weigh_annul(&view, &legal),
        dabaifen::Action::Bury(set) => Know::from_view(&view, &legal).and_then(|k| {
            let cands = bury_options(k.t, k.hand, Params::for_budget(budget).bury_candidates);
            bot.weigh_bury(&view, &k, &cands, Some(set.bits()))
        }),
        dabaifen::Action::Play(_) => None,
    };
    let Some(w) = weighed else {
        return Verdict::NotAnalysed { reason: "no world consistent with the seat's view was found".into() };
    };
    let Some(pi) = w.actions.iter().position(|&a| a == made) else {
        return Verdict::NotAnalysed { reason: format!("{made} was not valued") };
    };
    if w.samples == 0 {
        // The bot weighs nothing when it would not show any card: passing is its only candidate.
        return Verdict::NotAnalysed {
            reason: "the bot would not show a card the hand does not support, and did not weigh it".into(),
        };
    }
    let m = f64::from(w.samples);
    let valued: Vec<usize> = (0..w.actions.len()).filter(|&j| w.sums[j].is_finite()).collect();
    if !valued.contains(&pi) || !valued.contains(&w.choice) {
        return Verdict::NotAnalysed { reason: "the move could not be played in the sampled deals".into() };
    }
    let candidates: Vec<Candidate> = valued
        .iter()
        .map(|&j| Candidate {
            action: before_play_label(w.actions[j], annul_poll),
            value: r4(w.sums[j] / m),
            points: w.points.as_ref().map(|p| r4(p[j] / m)),
            considered: j < w.considered,
        })
        .collect();
    let value = |j: usize| r4(w.sums[j] / m);
    let (played_value, bot_value) = (value(pi), value(w.choice));
    let cost = r4((bot_value - played_value).max(0.0));
    Verdict::Searched(Search {
        bot: before_play_label(w.actions[w.choice], annul_poll),
        samples: w.samples,
        candidates,
        played_value,
        bot_value,
        cost,
        mark: Mark::of(cost, DABAIFEN_MARKS),
        face_up: FaceUp::Unsolved { reason: BEFORE_PLAY_FACE_UP.into() },
    })
}

/// A record action other than a play, in words.
fn describe_dabaifen(a: &DabaifenAction) -> String {
    match a {
        DabaifenAction::Declare { card, .. } => format!("declare {card}"),
        DabaifenAction::Annul { annul: true, .. } => "annul".into(),
        DabaifenAction::Annul { annul: false, .. } => "decline to annul".into(),
        DabaifenAction::Bury { cards, .. } => format!("bury {}", cards.join(" ")),
        DabaifenAction::Play { cards, .. } => format!("play {}", cards.join(" ")),
    }
}

/// The cards `seat` played last in a state's current or last trick.
trait LastPlay {
    fn history_last_play(&self, seat: Seat) -> Option<dabaifen::Cards>;
}

impl LastPlay for dabaifen::State {
    fn history_last_play(&self, seat: Seat) -> Option<dabaifen::Cards> {
        self.tricks().iter().rev().find_map(|t| t.in_order().find(|(s, _)| *s == seat).map(|(_, c)| c))
    }
}

/// Why a revoke is not valued.
const REVOKE: &str =
    "a revoke (a multi-card lead of cards not all top cards): its penalty is outside the search's model";

/// True when `set`, played by `seat` now, is a revoke: a lead of two or more cards not all of
/// them top cards.
fn is_revoke(st: &dabaifen::State, seat: Seat, set: dabaifen::Cards) -> bool {
    let leading = st.tricks().last().is_some_and(|t| t.count == 0);
    leading && set.len() >= 2 && !set.is_subset(st.top_cards(seat))
}

/// One Da Bai Fen play decision: the search of a fresh `pimc` (seed `seed`) from the seat's
/// view, the play made valued in the same worlds, and the face-up verdict.
fn dabaifen_play(st: &dabaifen::State, played: dabaifen::Cards, seed: u64, budget: Budget) -> Verdict {
    let Some(seat) = st.to_move() else {
        return Verdict::NotAnalysed { reason: "nobody was to move".into() };
    };
    let legal = st.legal_actions();
    let view = st.view(seat);
    let played_bits = played.bits();
    if is_revoke(st, seat, played) {
        return Verdict::NotAnalysed { reason: REVOKE.into() };
    }
    let params = Params::for_budget(budget);
    let Some(k) = Know::from_view(&view, &legal) else {
        return Verdict::NotAnalysed {
            reason: "the seat's knowledge could not be read from its view".into(),
        };
    };
    let cands = play_candidates(&view, &k, &legal, params.max_candidates);
    if cands.len() <= 1 && legal.len() <= 1 {
        return Verdict::Forced;
    }
    if cands.len() <= 1 && cands.first() == Some(&played_bits) {
        return Verdict::Forced;
    }
    // As `pimc` plays: the same worlds (drawn, weighted and resampled) and values.
    let mut rng = Rng::from_seed(seed);
    let mut search = DSearch::new(params);
    let problem = Problem::of(&k);
    let n = params.samples as usize;
    let obs = infer::observed(&view, &k);
    let draws = if obs.is_empty() { 1 } else { params.draws.max(1) as usize };
    let mut drawn: Vec<([u64; 5], f64)> = Vec::with_capacity(n * draws);
    for _ in 0..n * draws {
        let mut w = problem.sample(&mut rng);
        resplit_burial(&k, &mut w);
        let weight = if draws == 1 { 1.0 } else { infer::weight(&view, &k, &obs, &w, params.miss) };
        drawn.push((w, weight));
    }
    let worlds: Vec<DPos> =
        resample(&drawn, n, &mut rng).into_iter().map(|w| pos_from_view(&view, &k, &w)).collect();
    let sizes_ok = |p: &DPos| (0..4).all(|s| p.hands[s].count_ones() == u32::from(view.hand_sizes[s]));
    if !worlds.iter().all(sizes_ok) {
        return Verdict::NotAnalysed { reason: "no world consistent with the seat's view was found".into() };
    }
    let defends = seat.team() != view.starter.team();
    let extra = !cands.contains(&played_bits);
    let mut all = cands.clone();
    if extra {
        all.push(played_bits);
    }
    let mut sums = vec![0.0f64; all.len()];
    let mut points = vec![0.0f64; all.len()];
    for w in &worlds {
        search.solver.new_world();
        for (j, &c) in all.iter().enumerate() {
            let t = search.value_of(w, c);
            sums[j] += payoff(t, defends);
            points[j] += f64::from(t);
        }
    }
    // `pimc`'s choice: the best average among its candidates, ties to the earlier.
    let mut best = 0;
    for j in 0..cands.len() {
        if sums[j] > sums[best] + 1e-9 {
            best = j;
        }
    }
    let m = worlds.len() as f64;
    let candidates: Vec<Candidate> = all
        .iter()
        .enumerate()
        .map(|(j, &c)| Candidate {
            action: dabaifen::Action::Play(dabaifen::Cards::from_bits(c)).to_string(),
            value: r4(sums[j] / m),
            points: Some(r4(points[j] / m)),
            considered: j < cands.len(),
        })
        .collect();
    let pi = all.iter().position(|&c| c == played_bits).unwrap_or(0);
    let played_value = candidates[pi].value;
    let bot_value = candidates[best].value;
    let cost = r4((bot_value - played_value).max(0.0));
    let bot =
        legal_or_fallback(Some(dabaifen::Action::Play(dabaifen::Cards::from_bits(cands[best]))), &legal);
    Verdict::Searched(Search {
        bot: bot.to_string(),
        samples: worlds.len() as u32,
        candidates,
        played_value,
        bot_value,
        cost,
        mark: Mark::of(cost, DABAIFEN_MARKS),
        face_up: dabaifen_face_up(st, played, &legal),
    })
}

/// The Da Bai Fen face-up verdict at a decision: the exact values, for the seat's team, of its
/// plays (one per class of interchangeable plays, and the play made) with every card known. A
/// revoke is never among them (its penalty is outside the solver's model); when the play made is
/// one, the verdict is unsolved.
pub fn dabaifen_face_up(st: &dabaifen::State, played: dabaifen::Cards, legal: &[dabaifen::Action]) -> FaceUp {
    let Some(pos) = DPos::from_state(st) else {
        return FaceUp::Unsolved { reason: "not a play position".into() };
    };
    if st.to_move().is_some_and(|s| is_revoke(st, s, played)) {
        return FaceUp::Unsolved { reason: REVOKE.into() };
    }
    let per_hand = pos.cards_per_hand();
    if per_hand > FACE_UP_CARDS {
        return FaceUp::Unsolved {
            reason: format!(
                "{per_hand} cards per hand remain; the exact solver is tried from {FACE_UP_CARDS}"
            ),
        };
    }
    let defends = pos.to_move() & 1 == pos.defenders;
    let legal_plays: Vec<u64> = legal
        .iter()
        .filter_map(|a| match a {
            dabaifen::Action::Play(s) => Some(s.bits()),
            _ => None,
        })
        .collect();
    let mut plays = vec![played.bits()];
    for_each_reduced_play(&pos, |m| {
        if legal_plays.contains(&m) && !plays.contains(&m) {
            plays.push(m);
        }
    });
    let mut solver = DSolver::new();
    let mut valued = Vec::with_capacity(plays.len());
    for &p in &plays {
        match solver.value_after(&pos, p, FACE_UP_NODES) {
            Ok(v) => valued.push((p, payoff(pos.def_points + v as u32, defends))),
            Err(_) => {
                return FaceUp::Unsolved {
                    reason: format!("the exact solver needed more than {FACE_UP_NODES} nodes for one play"),
                };
            }
        }
    }
    let played_v = valued[0].1;
    let mut best = 0;
    for (j, v) in valued.iter().enumerate() {
        if v.1 > valued[best].1 + 1e-9 {
            best = j;
        }
    }
    FaceUp::Solved {
        best: dabaifen::Action::Play(dabaifen::Cards::from_bits(valued[best].0)).to_string(),
        best_value: r4(valued[best].1),
        played_value: r4(played_v),
        cost: r4(valued[best].1 - played_v),
    }
}

// ---------------------------------------------------------------------------------------------
// The report

fn mark_text(m: Option<Mark>) -> &'static str {
    match m {
        Some(Mark::Inaccuracy) => "  ?! inaccuracy",
        Some(Mark::Mistake) => "  ? mistake",
        Some(Mark::Blunder) => "  ?? blunder",
        None => "",
    }
}

/// The step-by-step report of an analysis, as `yezi analyse` prints it (docs/analysis.md): a
/// heading, one entry per decision (the move made, the bot's choice, the cost and the mark; the
/// moves weighed; the face-up verdict) and a summary line.
pub fn report(a: &Analysis) -> String {
    let unit = match a.unit {
        Unit::Stakes => "stakes (the seat's own payoff)",
        Unit::Levels => "game levels (the seat's team; card points as a tie-break)",
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} hand {}, {}: pimc at {} ms per decision, seed {}; values in {unit}",
        a.game, a.hand, a.seat, a.think_ms, a.seed
    );
    let _ = writeln!(
        s,
        "marks: inaccuracy from {}, mistake from {}, blunder from {}",
        a.marks[0], a.marks[1], a.marks[2]
    );
    for (i, d) in a.decisions.iter().enumerate() {
        let trick = d.trick.map_or("before play".to_string(), |t| format!("trick {t}"));
        let _ = write!(s, "{:>2}. {trick}: {}", i + 1, d.played);
        match &d.verdict {
            Verdict::Forced => {
                let _ = writeln!(s, " (forced: every legal move is equivalent)");
            }
            Verdict::NotAnalysed { reason } => {
                let _ = writeln!(s, " (not analysed: {reason})");
            }
            Verdict::Searched(x) => {
                let same = x.cost == 0.0 && x.played_value == x.bot_value;
                if same {
                    let _ = writeln!(s, " = bot's choice ({:+.2}){}", x.played_value, mark_text(x.mark));
                } else {
                    let _ = writeln!(
                        s,
                        " ({:+.2}); bot: {} ({:+.2}); cost {:.2}{}",
                        x.played_value,
                        x.bot,
                        x.bot_value,
                        x.cost,
                        mark_text(x.mark)
                    );
                }
                let mut c: Vec<String> = x
                    .candidates
                    .iter()
                    .map(|c| match c.points {
                        Some(p) => format!("{} {:+.2} (T {:.0})", c.action, c.value, p),
                        None => format!("{} {:+.2}", c.action, c.value),
                    })
                    .collect();
                c.truncate(8);
                let _ = writeln!(s, "    {} worlds: {}", x.samples, c.join(", "));
                match &x.face_up {
                    FaceUp::Solved { best, best_value, played_value, cost } => {
                        let _ = writeln!(
                            s,
                            "    face up: best {best} ({best_value:+.2}), played {played_value:+.2}, cost {cost:.2}"
                        );
                    }
                    FaceUp::Unsolved { reason } => {
                        let _ = writeln!(s, "    face up: not solved ({reason})");
                    }
                }
            }
        }
    }
    let m = &a.summary;
    let _ = writeln!(
        s,
        "summary: {} decision(s), {} searched; total cost {:.2}; {} inaccuracy(ies), {} mistake(s), {} blunder(s); face up: {} solved, cost {:.2}",
        m.decisions,
        m.searched,
        m.total_cost,
        m.inaccuracies,
        m.mistakes,
        m.blunders,
        m.face_up_solved,
        m.face_up_cost
    );
    s
}
