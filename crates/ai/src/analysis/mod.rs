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

pub(crate) mod model;

use std::fmt::Write as _;

use crate::record::AnyRecord;

pub use crate::dabaifen::analysis::{
    analyse_dabaifen, analyse_dabaifen_hand, dabaifen_face_up, dabaifen_play_decision,
};
pub use crate::madiao::analysis::{analyse_madiao, analyse_madiao_hand, madiao_decision, madiao_face_up};
pub use model::{
    Analysis, AnalysisError, Candidate, DABAIFEN_MARKS, Decision, FACE_UP_CARDS, FACE_UP_NODES,
    FACE_UP_TRICKS, FaceUp, MADIAO_MARKS, Mark, Options, Position, Progress, Search, Summary, TrickPlay,
    Unit, Verdict, VoidShown, Why, accuracy, accuracy_scale, decision_seed, match_accuracy, move_accuracy,
};

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
                // The moves weighed, best first, each with its difference to the best.
                let mut sorted: Vec<&Candidate> = x.candidates.iter().collect();
                // Best first; among equal values the bot's choice first.
                sorted.sort_by(|a, b| {
                    b.value.total_cmp(&a.value).then_with(|| (b.action == x.bot).cmp(&(a.action == x.bot)))
                });
                let top = sorted.first().map_or(0.0, |c| c.value);
                let mut c: Vec<String> = sorted
                    .iter()
                    .map(|c| {
                        let diff = if c.value == top {
                            "best".to_string()
                        } else {
                            format!("{:+.2}", c.value - top)
                        };
                        match c.points {
                            Some(p) => format!("{} {:+.2} ({diff}; T {:.0})", c.action, c.value, p),
                            None => format!("{} {:+.2} ({diff})", c.action, c.value),
                        }
                    })
                    .collect();
                // At most 8, and the move made after them when it is not among them.
                let made = sorted.iter().position(|c| c.action == d.played).filter(|&m| m >= 8);
                let made = made.map(|m| c.swap_remove(m));
                c.truncate(8);
                c.extend(made.map(|m| format!("… {m}")));
                let _ = writeln!(s, "    estimated from {} deals: {}", x.samples, c.join(", "));
                if let Some(w) = &d.why {
                    let _ = writeln!(s, "    why {}: {}", x.bot, w.best.en);
                    if let Some(p) = &w.played {
                        let _ = writeln!(s, "    against {}: {}", d.played, p.en);
                    }
                }
                match &x.face_up {
                    FaceUp::Solved { best, best_value, played_value, cost } => {
                        let _ = writeln!(
                            s,
                            "    with every card face up, the best play was {best} ({best_value:+.2}); the move made {played_value:+.2}, cost {cost:.2}"
                        );
                    }
                    FaceUp::Unsolved { reason } => {
                        let _ = writeln!(s, "    with every card face up: {}", face_up_words(reason));
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
    let unit = match a.unit {
        Unit::Stakes => "stakes",
        Unit::Levels => "levels",
    };
    if let Some(acc) = m.accuracy {
        let _ = writeln!(s, "accuracy: {acc:.1}%");
    }
    if let (Some(dealt), Some(result)) = (m.dealt_value, m.result) {
        let _ = writeln!(
            s,
            "luck and play: the cards were worth {dealt:+.2} {unit} with the best play; the result was {result:+.2}: your moves cost {:.2}, the rest ({:+.2}) came from the others' play and the cards' fall",
            m.total_cost,
            result - dealt + m.total_cost
        );
    }
    s
}

/// Why no face-up verdict, in a player's words.
fn face_up_words(reason: &str) -> String {
    if let Some(n) = reason.split(" tricks remain").next().and_then(|r| r.parse::<u32>().ok()) {
        format!("too many tricks left to solve exactly ({n}; solved from {FACE_UP_TRICKS})")
    } else if let Some(n) = reason.split(" cards per hand remain").next().and_then(|r| r.parse::<u32>().ok())
    {
        format!("too many cards left to solve exactly ({n} a hand; solved from {FACE_UP_CARDS})")
    } else {
        format!("not solved ({reason})")
    }
}
