//! The tutorials: one scripted first hand of each game that teaches its rules step by step.
//!
//! A tutorial is a frozen **script** (`tutorial/madiao.json`, `tutorial/dabaifen.json`): the
//! table's rules, the seed the deck is dealt from, and every action of the hand in order, the
//! learner's (seat 0) and the three bots'. It is replayed here with the engine — every action is
//! checked, nothing above the engine decides a rule — into [`Tutorial`] steps: after each action,
//! seat 0's view as a table would send it (the same [`GameView`](wire::GameView) and [`Legal`](wire::Legal) types, so a client
//! draws it with its table components), and at each of seat 0's decisions a [`Lesson`]: its text
//! key, its [`Decision`] kind, the rules section it is about and the legal choices.
//!
//! The scripts were found by [`search_madiao`] and [`search_dabaifen`] (heuristic bots at every
//! seat, seat 0 steered to meet every kind of decision, and to the analysis's best move wherever
//! the heuristic's would be a mistake by [`taught_mistake`]) and frozen, so that a change to a bot
//! never changes a lesson: `cargo run -p table --example tutorial_script -- madiao` prints a
//! script again.

use ai::{Bot, Budget, Registry};
use cards::record::{self, GameKind};
use cards::{Seat, Viewer};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::game::{Overlay, TableGame};

pub use wire::tutorial::*;

/// A frozen tutorial hand: the rules, the seed of the deal and every action, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script<A> {
    /// The preset.
    pub rules: String,
    /// The variants overridden.
    pub variants: record::Variants,
    /// The seed the first hand of the match is dealt from (as a table's seed).
    pub seed: u64,
    /// Every action of the hand, with its seat.
    pub actions: Vec<ScriptMove<A>>,
}

/// One action of a script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptMove<A> {
    /// Who acts.
    pub seat: Seat,
    /// What he does.
    pub action: A,
}

/// Why a script cannot be replayed (a bug in a frozen script: its test fails).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TutorialError {
    /// The script is not valid JSON of its game.
    #[error("the tutorial script cannot be read: {0}")]
    Script(String),
    /// Its rules are not valid.
    #[error("the tutorial's rules: {0}")]
    Settings(String),
    /// The hand cannot be dealt.
    #[error("the tutorial's hand cannot be dealt")]
    Deal,
    /// An action is not the seat's to take, or the engine refuses it.
    #[error("action {index} ({action}) of seat {seat}: {why}")]
    Illegal {
        /// Its place in the script.
        index: usize,
        /// Its seat.
        seat: u8,
        /// The action.
        action: String,
        /// Why.
        why: String,
    },
    /// The hand is not over when the script ends.
    #[error("the script ends before the hand is over")]
    Unfinished,
}

const MADIAO_SCRIPT: &str = include_str!("tutorial/madiao.json");
const DABAIFEN_SCRIPT: &str = include_str!("tutorial/dabaifen.json");

const LEARNER: Seat = Seat::ALL[0];

/// The frozen script of a game.
pub fn script_json(game: GameKind) -> &'static str {
    match game {
        GameKind::Madiao => MADIAO_SCRIPT,
        GameKind::Dabaifen => DABAIFEN_SCRIPT,
    }
}

/// The tutorial of a game, replayed from its frozen script.
pub fn tutorial(game: GameKind) -> Result<Tutorial, TutorialError> {
    match game {
        GameKind::Madiao => madiao_tutorial(&parse(MADIAO_SCRIPT)?),
        GameKind::Dabaifen => dabaifen_tutorial(&parse(DABAIFEN_SCRIPT)?),
    }
}

/// A script from its JSON.
pub fn parse<A: DeserializeOwned>(json: &str) -> Result<Script<A>, TutorialError> {
    serde_json::from_str(json).map_err(|e| TutorialError::Script(e.to_string()))
}

/// The overlay a table shows at a state: Madiao's redeal window; Da Bai Fen's draw (the count
/// drawn) and annulment window.
trait Shown: TableGame
where
    Self::Action: DeserializeOwned,
{
    fn overlay(state: &Self::State) -> Overlay;
    /// The kind of seat 0's decision `action` in `state`.
    fn decision(state: &Self::State, action: &Self::Action) -> Decision;
    /// A hidden poll's answer (not shown when another seat gives it).
    fn is_poll(state: &Self::State) -> bool;
    /// The rules section a decision is about.
    fn section(kind: Decision) -> &'static str;
    /// A lesson of its own for a decision of kind `kind` that needs other words (its text key's
    /// last part), else `None`.
    fn special(_state: &Self::State, _action: &Self::Action) -> Option<&'static str> {
        None
    }
}

impl Shown for ai::Madiao {
    fn overlay(state: &madiao::State) -> Overlay {
        Overlay { drawn: None, window: state.phase() == madiao::Phase::Redeal }
    }

    fn decision(state: &madiao::State, action: &madiao::Action) -> Decision {
        match *action {
            madiao::Action::Redeal(_) => Decision::Redeal,
            madiao::Action::Slough(_) => Decision::Slough,
            madiao::Action::Play(c) => match state.face_up_kind(c) {
                Some(madiao::PlayKind::Lead) => Decision::Lead,
                Some(madiao::PlayKind::Capture) => Decision::Capture,
                _ => Decision::Discard,
            },
        }
    }

    fn is_poll(state: &madiao::State) -> bool {
        state.phase() == madiao::Phase::Redeal
    }

    /// A slough while a capture was possible (keeping the capturing card for later): `slough_keep`.
    fn special(state: &madiao::State, action: &madiao::Action) -> Option<&'static str> {
        let could_capture = state.legal_actions().iter().any(|a| match *a {
            madiao::Action::Play(c) => state.face_up_kind(c) == Some(madiao::PlayKind::Capture),
            _ => false,
        });
        (matches!(action, madiao::Action::Slough(_)) && could_capture).then_some("slough_keep")
    }

    fn section(kind: Decision) -> &'static str {
        match kind {
            Decision::Redeal => "declarations",
            _ => "play",
        }
    }
}

impl Shown for ai::Dabaifen {
    fn overlay(state: &dabaifen::State) -> Overlay {
        match state.phase() {
            dabaifen::Phase::Drawing => Overlay { drawn: Some(state.drawn()), window: false },
            dabaifen::Phase::Annulling => Overlay { drawn: None, window: true },
            _ => Overlay::default(),
        }
    }

    fn decision(state: &dabaifen::State, action: &dabaifen::Action) -> Decision {
        match action {
            dabaifen::Action::Pass | dabaifen::Action::Annul => Decision::Pass,
            dabaifen::Action::Declare(_) => Decision::Declare,
            dabaifen::Action::Bury(_) => Decision::Bury,
            dabaifen::Action::Play(cards) => match state.legal_summary(LEARNER) {
                Some(dabaifen::LegalSummary::Lead { .. }) if cards.len() > 1 => Decision::LeadSeveral,
                Some(dabaifen::LegalSummary::Lead { .. }) => Decision::LeadOne,
                _ => Decision::Follow,
            },
        }
    }

    fn is_poll(state: &dabaifen::State) -> bool {
        matches!(state.phase(), dabaifen::Phase::Drawing | dabaifen::Phase::Annulling)
    }

    fn section(kind: Decision) -> &'static str {
        match kind {
            Decision::Declare | Decision::Pass => "drawing",
            Decision::Bury => "kitty",
            Decision::LeadOne | Decision::LeadSeveral | Decision::Follow => "play",
            _ => "play",
        }
    }
}

/// Replays a script of game `G` from its first state into the tutorial's steps.
fn replay<G: Shown>(
    game: GameKind,
    settings: &G::Settings,
    mut state: G::State,
    script: &[ScriptMove<G::Action>],
    end: (&str, &str),
) -> Result<Tutorial, TutorialError>
where
    G::Action: DeserializeOwned,
{
    let prefix = match game {
        GameKind::Madiao => "madiao",
        GameKind::Dabaifen => "dabaifen",
    };
    let me = Viewer::Seat(LEARNER);
    let start = G::table_view(&state, me, G::overlay(&state));
    let mut steps = Vec::with_capacity(script.len());
    let mut met: Vec<Decision> = Vec::new();
    for (index, m) in script.iter().enumerate() {
        let illegal = |why: String| TutorialError::Illegal {
            index,
            seat: m.seat.number(),
            action: m.action.to_string(),
            why,
        };
        if G::to_move(&state) != Some(m.seat) {
            return Err(illegal(format!("it is not its turn (to move: {:?})", G::to_move(&state))));
        }
        let overlay = G::overlay(&state);
        let poll = G::is_poll(&state);
        let lesson = if m.seat == LEARNER {
            let kind = G::decision(&state, &m.action);
            if kind == Decision::Pass {
                None
            } else {
                let legal = G::legal_for(&state, LEARNER, overlay, Default::default())
                    .ok_or_else(|| illegal("the table offers seat 0 no choice here".into()))?;
                let again = if met.contains(&kind) { "_again" } else { "" };
                met.push(kind);
                let kind_name = serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string));
                let name = match G::special(&state, &m.action) {
                    Some(special) => special.to_string(),
                    None => format!("{}{again}", kind_name.unwrap_or_default()),
                };
                Some(Lesson {
                    id: format!("tut.{prefix}.{name}"),
                    kind,
                    rules: G::section(kind).to_string(),
                    legal,
                })
            }
        } else {
            None
        };
        // A poll's answer is shown only when it is the learner's lesson (his redeal choice, his
        // showing); another seat's, or the learner's own passes of the draw, are not.
        let action = if poll && (m.seat != LEARNER || lesson.is_none()) {
            None
        } else {
            Some(G::public_action(&m.action, m.seat, me))
        };
        G::apply(&mut state, m.action).map_err(|e| illegal(e.to_string()))?;
        let view = G::table_view(&state, me, G::overlay(&state));
        steps.push(TutorialStep { seat: m.seat, action, view, lesson });
    }
    if G::to_move(&state).is_some() {
        return Err(TutorialError::Unfinished);
    }
    Ok(Tutorial {
        game,
        rules: String::new(),
        variants: G::variant_map(settings),
        start,
        steps,
        end_lesson: format!("tut.{prefix}.{}", end.0),
        end_rules: end.1.to_string(),
    })
}

fn madiao_start(
    script: &Script<madiao::Action>,
) -> Result<(crate::game::madiao::MadiaoSettings, madiao::State), TutorialError> {
    let settings = <ai::Madiao as TableGame>::settings(&script.rules, &script.variants, (2, 2))
        .map_err(|e| TutorialError::Settings(e.to_string()))?;
    let m = <ai::Madiao as TableGame>::new_match(&settings, script.seed);
    let state = <ai::Madiao as TableGame>::start_hand(&settings, &m, script.seed, 0, None)
        .ok_or(TutorialError::Deal)?;
    Ok((settings, state))
}

fn dabaifen_start(
    script: &Script<dabaifen::Action>,
) -> Result<(crate::game::dabaifen::DabaifenSettings, dabaifen::State), TutorialError> {
    let settings = <ai::Dabaifen as TableGame>::settings(&script.rules, &script.variants, (2, 2))
        .map_err(|e| TutorialError::Settings(e.to_string()))?;
    let m = <ai::Dabaifen as TableGame>::new_match(&settings, script.seed);
    let state = <ai::Dabaifen as TableGame>::start_hand(&settings, &m, script.seed, 0, None)
        .ok_or(TutorialError::Deal)?;
    Ok((settings, state))
}

/// The engine state at the end of a Madiao script (every action applied; the analysis of the
/// learner's moves starts from it).
pub fn madiao_finished(script: &Script<madiao::Action>) -> Result<madiao::State, TutorialError> {
    let (_, mut state) = madiao_start(script)?;
    for (index, m) in script.actions.iter().enumerate() {
        state.apply(m.action).map_err(|e| TutorialError::Illegal {
            index,
            seat: m.seat.number(),
            action: m.action.to_string(),
            why: e.to_string(),
        })?;
    }
    Ok(state)
}

/// The engine state at the end of a Da Bai Fen script (see [`madiao_finished`]).
pub fn dabaifen_finished(script: &Script<dabaifen::Action>) -> Result<dabaifen::State, TutorialError> {
    let (_, mut state) = dabaifen_start(script)?;
    for (index, m) in script.actions.iter().enumerate() {
        state.apply(m.action).map_err(|e| TutorialError::Illegal {
            index,
            seat: m.seat.number(),
            action: m.action.to_string(),
            why: e.to_string(),
        })?;
    }
    Ok(state)
}

/// Madiao's tutorial from a script.
pub fn madiao_tutorial(script: &Script<madiao::Action>) -> Result<Tutorial, TutorialError> {
    let (settings, state) = madiao_start(script)?;
    let mut t = replay::<ai::Madiao>(
        GameKind::Madiao,
        &settings,
        state,
        &script.actions,
        ("settlement", "settlement"),
    )?;
    t.rules = script.rules.clone();
    Ok(t)
}

/// Da Bai Fen's tutorial from a script.
pub fn dabaifen_tutorial(script: &Script<dabaifen::Action>) -> Result<Tutorial, TutorialError> {
    let (settings, state) = dabaifen_start(script)?;
    let mut t = replay::<ai::Dabaifen>(
        GameKind::Dabaifen,
        &settings,
        state,
        &script.actions,
        ("account", "scoring"),
    )?;
    t.rules = script.rules.clone();
    Ok(t)
}

/// The seed of the analysis a lesson's move is checked against (`yezi analyse`'s and the
/// server's default).
pub const CHECK_SEED: u64 = 1;

/// Da Bai Fen: a play that leaves the other team this many more card points on average than the
/// analysis's best play is a gift of points, taught as a mistake even when the deal's outcome
/// (in levels) does not change.
pub const GIFT_POINTS: f64 = 10.0;

/// Why a lesson's move is a mistake by the analysis's verdict on it, if it is one: marked a
/// mistake or a blunder, or (Da Bai Fen, `defends` saying the seat's team's side) a gift of at
/// least [`GIFT_POINTS`] points against the best play. The text names the better move.
pub fn taught_mistake(verdict: &ai::analysis::Verdict, played: &str, defends: bool) -> Option<String> {
    let ai::analysis::Verdict::Searched(x) = verdict else { return None };
    if x.mark >= Some(ai::analysis::Mark::Mistake) {
        return Some(format!("costs {:.2} against {}", x.cost, x.bot));
    }
    let points = |a: &str| x.candidates.iter().find(|c| c.action == a).and_then(|c| c.points);
    let (best, made) = (points(&x.bot)?, points(played)?);
    let gift = if defends { best - made } else { made - best };
    (gift >= GIFT_POINTS).then(|| format!("gives the other team {gift:.0} more points than {}", x.bot))
}

/// The analysis's better move when `verdict` marks the learner's move a mistake
/// ([`taught_mistake`]): the legal action written as the analysis's best.
fn better<A: Copy + std::fmt::Display>(
    verdict: &ai::analysis::Verdict,
    played: A,
    defends: bool,
    legal: &[A],
) -> Option<A> {
    taught_mistake(verdict, &played.to_string(), defends)?;
    let ai::analysis::Verdict::Searched(x) = verdict else { return None };
    legal.iter().copied().find(|a| a.to_string() == x.bot)
}

/// Four heuristic bots of game `G` (seeded; they do not depend on the seed), if it has them.
fn heuristics<G: Registry>(seed: u64) -> Option<Vec<Box<dyn Bot<G>>>> {
    (0..4).map(|_| G::bot("heuristic", seed, Budget::default()).ok()).collect()
}

/// Searches seeds `seeds` for a Madiao hand where seat 0, played by the heuristic bot, holds a
/// long suit (and so is asked whether to force a redeal: it plays on, as everyone does), leads,
/// captures and sloughs, never discards face up, and the hand is played to its end. The first
/// found is returned as a script.
pub fn search_madiao(seeds: std::ops::Range<u64>) -> Option<Script<madiao::Action>> {
    let rules = "standard".to_string();
    let variants = record::Variants::default();
    'seed: for seed in seeds {
        let script = Script { rules: rules.clone(), variants: variants.clone(), seed, actions: Vec::new() };
        let Ok((_, mut state)) = madiao_start(&script) else { continue };
        if state.phase() != madiao::Phase::Redeal || !state.may_force_redeal(LEARNER) {
            continue;
        }
        let mut bots = heuristics::<ai::Madiao>(seed)?;
        let mut actions = Vec::new();
        let mut kinds = Vec::new();
        let mut learner_moves = 0;
        while let Some(seat) = state.to_move() {
            let legal = state.legal_actions();
            let mut action = if state.phase() == madiao::Phase::Redeal {
                madiao::Action::Redeal(false)
            } else {
                bots[seat.index()].choose(&state.view(seat), &legal)
            };
            if seat == LEARNER {
                // A move the analysis marks as a mistake is never taught: its best move is.
                let seed = ai::analysis::decision_seed(CHECK_SEED, learner_moves);
                learner_moves += 1;
                if state.phase() == madiao::Phase::Play {
                    let verdict = ai::analysis::madiao_decision(&state, action, seed, Budget::default());
                    if let Some(b) = better(&verdict, action, false, &legal) {
                        action = b;
                    }
                }
                let kind = <ai::Madiao as Shown>::decision(&state, &action);
                if kind == Decision::Discard {
                    continue 'seed;
                }
                kinds.push(kind);
            }
            if state.apply(action).is_err() {
                continue 'seed;
            }
            actions.push(ScriptMove { seat, action });
        }
        let all = [Decision::Redeal, Decision::Lead, Decision::Capture, Decision::Slough];
        if all.iter().all(|k| kinds.contains(k)) {
            return Some(Script { actions, ..script });
        }
    }
    None
}

/// Searches seeds for a Da Bai Fen first deal (`revoke: refuse`, a practice table's rule, so that
/// the client offers only top cards for a lead of several) where seat 0 shows a card of the trump
/// rank at its first chance (everyone else passes every poll), so becomes the starter and buries
/// the kitty (as the heuristic bot chooses), leads several top cards at the first lead where it
/// may, follows, and the deal is played out. Everything else is the heuristic bots' choice.
pub fn search_dabaifen(seeds: std::ops::Range<u64>) -> Option<Script<dabaifen::Action>> {
    let rules = "standard".to_string();
    let mut variants = record::Variants::default();
    variants.0.insert("revoke".into(), "refuse".into());
    'seed: for seed in seeds {
        let script = Script { rules: rules.clone(), variants: variants.clone(), seed, actions: Vec::new() };
        let Ok((_, mut state)) = dabaifen_start(&script) else { continue };
        let mut bots = heuristics::<ai::Dabaifen>(seed)?;
        let mut actions = Vec::new();
        let mut kinds = Vec::new();
        let mut learner_moves = 0;
        while let Some(seat) = state.to_move() {
            let legal = state.legal_actions();
            let action = match state.phase() {
                dabaifen::Phase::Drawing => {
                    let show = if seat == LEARNER {
                        legal.iter().copied().find(|a| matches!(a, dabaifen::Action::Declare(_)))
                    } else {
                        None
                    };
                    show.unwrap_or(dabaifen::Action::Pass)
                }
                dabaifen::Phase::Annulling => dabaifen::Action::Pass,
                _ => {
                    let several = if seat == LEARNER && !kinds.contains(&Decision::LeadSeveral) {
                        match state.legal_summary(seat) {
                            Some(dabaifen::LegalSummary::Lead { groups, .. }) => groups
                                .iter()
                                .filter_map(|g| g.tops.as_ref())
                                .find(|tops| tops.len() >= 2)
                                .map(|tops| dabaifen::Action::Play(tops.iter().copied().collect())),
                            _ => None,
                        }
                    } else {
                        None
                    };
                    match several {
                        Some(a) => a,
                        None => {
                            let mut a = bots[seat.index()].choose(&state.view(seat), &legal);
                            // A play the analysis marks as a mistake (or a gift of points) is
                            // never taught: its best play is.
                            if let (true, dabaifen::Action::Play(set)) = (seat == LEARNER, a) {
                                let seed = ai::analysis::decision_seed(CHECK_SEED, learner_moves);
                                let verdict = ai::analysis::dabaifen_play_decision(
                                    &state,
                                    set,
                                    seed,
                                    Budget::default(),
                                );
                                let defends = seat.team() != state.starter().team();
                                if let Some(b) = better(&verdict, a, defends, &legal) {
                                    a = b;
                                }
                            }
                            a
                        }
                    }
                }
            };
            // The analysis numbers the learner's recorded decisions (a draw poll's pass is not
            // one).
            if seat == LEARNER
                && !(state.phase() == dabaifen::Phase::Drawing && action == dabaifen::Action::Pass)
            {
                learner_moves += 1;
            }
            if seat == LEARNER {
                kinds.push(<ai::Dabaifen as Shown>::decision(&state, &action));
            }
            if state.apply(action).is_err() {
                continue 'seed;
            }
            actions.push(ScriptMove { seat, action });
        }
        let played = state.result().is_some_and(|r| r.outcome == dabaifen::Outcome::Played);
        let all = [Decision::Declare, Decision::Bury, Decision::LeadSeveral, Decision::Follow];
        if played && state.starter() == LEARNER && all.iter().all(|k| kinds.contains(k)) {
            return Some(Script { actions, ..script });
        }
    }
    None
}
