//! The tutorials: one scripted first hand of each game that teaches its rules step by step.
//!
//! A tutorial is a frozen **script** (`tutorial/madiao.json`, `tutorial/dabaifen.json`): the
//! table's rules, the seed the deck is dealt from, and every action of the hand in order, the
//! learner's (seat 0) and the three bots'. It is replayed here with the engine — every action is
//! checked, nothing above the engine decides a rule — into [`Tutorial`] steps: after each action,
//! seat 0's view as a table would send it (the same [`GameView`] and [`Legal`] types, so a client
//! draws it with its table components), and at each of seat 0's decisions a [`Lesson`]: its text
//! key, its [`Decision`] kind, the rules section it is about and the legal choices.
//!
//! The scripts were found by [`search_madiao`] and [`search_dabaifen`] (heuristic bots at every
//! seat, seat 0 steered to meet every kind of decision) and frozen, so that a change to a bot
//! never changes a lesson: `cargo run -p table --example tutorial_script -- madiao` prints a
//! script again.

use ai::{Bot, Budget, Registry};
use cards::record::{self, GameKind};
use cards::{Seat, Viewer};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::{Legal, Overlay, TableGame};
use crate::protocol::{GameView, PublicAction};

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
    /// The lesson's text key (`tut.madiao.lead`; `…_again` for a kind met before).
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
                Some(Lesson {
                    id: format!("tut.{prefix}.{}{again}", kind_name.unwrap_or_default()),
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
        while let Some(seat) = state.to_move() {
            let legal = state.legal_actions();
            let action = if state.phase() == madiao::Phase::Redeal {
                madiao::Action::Redeal(false)
            } else {
                bots[seat.index()].choose(&state.view(seat), &legal)
            };
            if seat == LEARNER {
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
                        None => bots[seat.index()].choose(&state.view(seat), &legal),
                    }
                }
            };
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
