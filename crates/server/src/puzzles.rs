//! Puzzles for players (`docs/puzzles.md`): the puzzle files shipped in the binary
//! (`crates/server/data/puzzles-*.json`, made by `yezi puzzles make`), a puzzle's position as a
//! seat sees it at a table, the judgement of a choice with its reason and line, the puzzle of
//! the day, and the Glicko-2 update of a player's and a puzzle's puzzle ratings. Pure: the API
//! (`crate::api::puzzles`) stores attempts and ratings, the terminal (`yezi puzzle`) stores
//! nothing.

use std::sync::OnceLock;

use ai::puzzle::{self, DabaifenFile, MadiaoFile, Move, Puzzle, Step};
use cards::record::GameKind;
use rating::glicko2::{Config, Game, Rating, update};
use serde::Serialize;
use serde_json::Value;
use table::game::{Overlay, TableGame, Viewer};
pub use wire::{PuzzleChoice, PuzzleLineStep, PuzzleMoveValue, PuzzlePosition, PuzzleText, PuzzleVerdict};

/// The shipped Madiao puzzles.
const MADIAO: &str = include_str!("../data/puzzles-madiao.json");
/// The shipped Da Bai Fen puzzles.
const DABAIFEN: &str = include_str!("../data/puzzles-dabaifen.json");

/// The text of the puzzle file shipped for `game`.
pub fn shipped(game: GameKind) -> &'static str {
    match game {
        GameKind::Madiao => MADIAO,
        GameKind::Dabaifen => DABAIFEN,
    }
}

/// The shipped puzzles of `game`, read once.
pub fn set(game: GameKind) -> &'static PuzzleSet {
    static SETS: OnceLock<[PuzzleSet; 2]> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        [GameKind::Madiao, GameKind::Dabaifen].map(|g| {
            PuzzleSet::parse(g, shipped(g)).unwrap_or_else(|e| {
                // The shipped files are checked by the tests; an unreadable one is served empty.
                tracing::error!(game = %g, error = %e, "the shipped puzzles are unreadable");
                PuzzleSet::empty(g)
            })
        })
    });
    match game {
        GameKind::Madiao => &sets[0],
        GameKind::Dabaifen => &sets[1],
    }
}

/// The day number (days since 1970-01-01, UTC) now: which puzzle is the puzzle of the day.
pub fn today() -> u64 {
    (crate::ids::now_ms().max(0) as u64) / 86_400_000
}

/// The puzzles of one game.
#[derive(Clone, Debug)]
pub enum PuzzleSet {
    /// Madiao's.
    Madiao(MadiaoFile),
    /// Da Bai Fen's.
    Dabaifen(DabaifenFile),
}

/// Why a choice cannot be judged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// Not an action of the game.
    #[error("not a {0} action: {1}")]
    Unreadable(GameKind, String),
    /// Not legal in the position.
    #[error("{0} is not legal in this position")]
    Illegal(String),
    /// The puzzle's position does not replay (a bad file).
    #[error("{0}")]
    Bad(String),
}

fn json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The words of a verdict (see [`PuzzleSet::judge`]).
fn explain<A: std::fmt::Display + PartialEq + Copy>(
    moves: &[Move<A>],
    chosen: Option<usize>,
    right: bool,
    unit: (&str, &str),
    worlds: u32,
    agree: u32,
    gap: f64,
) -> (PuzzleText, Option<PuzzleText>, Option<f64>) {
    let best = &moves[0];
    let reason = PuzzleText {
        en: format!(
            "{}. With every card face up it wins at least {gap:.2} {} more than any other move; it was the best move in {agree} of {worlds} deals consistent with what you know.",
            best.reason.en, unit.0
        ),
        zh: format!(
            "{}。明牌计算，它比任何其他出法至少多得{gap:.2}{}；在与你所知相符的{worlds}副牌中，有{agree}副它是最佳出法。",
            best.reason.zh, unit.1
        ),
    };
    if right {
        return (reason, None, None);
    }
    match chosen.and_then(|i| moves.get(i)) {
        Some(m) => {
            let loss = ((best.face_up - m.face_up) * 100.0).round() / 100.0;
            let mistake = PuzzleText {
                en: format!(
                    "Your move: {}. With every card face up it is worth {loss:.2} {} less than the best move.",
                    m.reason.en, unit.0
                ),
                zh: format!("你的出法：{}。明牌计算，它比最佳出法少得{loss:.2}{}。", m.reason.zh, unit.1),
            };
            (reason, Some(mistake), Some(loss))
        }
        None => (
            reason,
            Some(PuzzleText {
                en: "Your move: a face-up card that can neither lead nor capture costs a penalty and is never better than sloughing it.".into(),
                zh: "你的出法：既不能出头也不能捉的明牌要受罚，不如灭掉。".into(),
            }),
            None,
        ),
    }
}

/// The judgement of `a`, a legal move of puzzle `p` (the `chosen` of its valued moves, if any),
/// with the puzzle's unit (its name, and its words in English and Chinese).
fn verdict<H, A>(p: &Puzzle<H, A>, a: A, chosen: Option<usize>, unit: (&str, &str, &str)) -> PuzzleVerdict
where
    A: Serialize + std::fmt::Display + PartialEq + Copy,
{
    let right = p.answers.contains(&a);
    let (reason, mistake, loss) =
        explain(&p.moves, chosen, right, (unit.1, unit.2), p.worlds, p.agree, p.face_up_gap);
    verdict_of(p, right, (reason, mistake, loss), unit)
}

/// A verdict's fields from its judgement.
fn verdict_of<H, A>(
    p: &Puzzle<H, A>,
    right: bool,
    (reason, mistake, loss): (PuzzleText, Option<PuzzleText>, Option<f64>),
    unit: (&str, &str, &str),
) -> PuzzleVerdict
where
    A: Serialize + std::fmt::Display + PartialEq + Copy,
{
    PuzzleVerdict {
        id: p.id.clone(),
        right,
        answer: json(&p.moves[0].action),
        answer_label: p.moves[0].action.to_string(),
        reason,
        mistake,
        loss,
        moves: values(&p.moves),
        line: line(&p.line),
        unit: unit.0.into(),
    }
}

/// Cards in words as the hints name them, in English (`Q♠, 9♠`) and in Chinese (`黑桃Q、黑桃9`).
fn card_list(cards: &[dabaifen::Card]) -> (String, String) {
    let en = cards.iter().map(|c| ai::dabaifen::hint::db_en(*c)).collect::<Vec<_>>().join(", ");
    let zh = cards.iter().map(|c| ai::dabaifen::hint::db_zh(*c)).collect::<Vec<_>>().join("、");
    (en, zh)
}

/// The judgement of the burial `set` in the burial puzzle `p` (its rule `rule`): right when it
/// follows the rule; the reason says the rule and how the burials were valued.
fn burial_verdict(
    p: &ai::puzzle::DabaifenPuzzle,
    rule: &ai::puzzle::BurialRule,
    set: dabaifen::Cards,
    chosen: Option<usize>,
    unit: (&str, &str, &str),
) -> PuzzleVerdict {
    let right = rule.admits(set);
    let best = &p.moves[0];
    let free = rule.must_bury.len() + rule.must_keep.len() < 18;
    let (keep, keep_zh) = card_list(&rule.must_keep);
    let (bury, bury_zh) = card_list(&rule.must_bury);
    let gap = p.expected_gap;
    let (w, small, wide) = (p.worlds, rule.small, rule.wide);
    let reason = PuzzleText {
        en: format!(
            "{}. The rule: bury {bury}{}; keep {keep}. Played out by the bots in {w} deals consistent with what you know, every burial that follows the rule is within {small:.2} {} of the best, and every one that breaks it (of the {} burials valued) scores at least {wide:.2} less; here the best scores {gap:.2} {} more on average.",
            best.reason.en,
            if free { " (the other cards are free)" } else { "" },
            unit.1,
            rule.family,
            unit.1
        ),
        zh: format!(
            "{}。要点：埋{bury_zh}{}；留{keep_zh}。按你所知的{w}副牌由机器人打完：符合要点的埋法与最佳相差不超过{small:.2}{}，违反要点的埋法（共评估{}种）至少少得{wide:.2}{}；此处最佳埋法平均多得{gap:.2}{}。",
            best.reason.zh,
            if free { "（其余的牌随意）" } else { "" },
            unit.2,
            rule.family,
            unit.2,
            unit.2
        ),
    };
    let (mistake, loss) = if right {
        (None, None)
    } else {
        let broken_keep: Vec<dabaifen::Card> =
            rule.must_keep.iter().copied().filter(|c| set.contains(*c)).collect();
        let broken_bury: Vec<dabaifen::Card> =
            rule.must_bury.iter().copied().filter(|c| !set.contains(*c)).collect();
        let mut en = String::from("Your burial breaks the rule:");
        let mut zh = String::from("你的埋法违反要点：");
        if !broken_keep.is_empty() {
            let (e, z) = card_list(&broken_keep);
            en.push_str(&format!(" it buries {e}, which must be kept;"));
            zh.push_str(&format!("埋了应留的{z}；"));
        }
        if !broken_bury.is_empty() {
            let (e, z) = card_list(&broken_bury);
            en.push_str(&format!(" it keeps {e}, which must be buried;"));
            zh.push_str(&format!("留了应埋的{z}；"));
        }
        let valued = chosen.and_then(|i| p.moves.get(i));
        let loss = valued.map(|m| ((best.expected - m.expected) * 100.0).round() / 100.0);
        match (valued, loss) {
            (Some(m), Some(l)) => {
                en.push_str(&format!(
                    " {}: on average it scores {l:.2} {} less than the best.",
                    m.reason.en, unit.1
                ));
                zh.push_str(&format!("{}：平均比最佳少得{l:.2}{}。", m.reason.zh, unit.2));
            }
            _ => {
                en.push_str(&format!(
                    " such burials score at least {wide:.2} {} less than the best.",
                    unit.1
                ));
                zh.push_str(&format!("这样的埋法至少少得{wide:.2}{}。", unit.2));
            }
        }
        (Some(PuzzleText { en, zh }), loss)
    };
    verdict_of(p, right, (reason, mistake, loss), unit)
}

fn values<A: Serialize + std::fmt::Display>(moves: &[Move<A>]) -> Vec<PuzzleMoveValue> {
    moves
        .iter()
        .map(|m| PuzzleMoveValue {
            action: json(&m.action),
            label: m.action.to_string(),
            face_up: m.face_up,
            expected: m.expected,
        })
        .collect()
}

fn line<A: Serialize + std::fmt::Display>(steps: &[Step<A>]) -> Vec<PuzzleLineStep> {
    steps
        .iter()
        .map(|s| PuzzleLineStep { seat: s.seat, action: json(&s.action), label: s.action.to_string() })
        .collect()
}

/// Why a puzzle of a set cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum ShowError {
    /// The set has no puzzle of this number.
    #[error("no puzzle {0}")]
    NoPuzzle(usize),
    /// The puzzle's hand does not give a position (its rules or deal do not read).
    #[error(transparent)]
    Position(#[from] puzzle::PositionError),
    /// At the puzzle's position, its seat has no decision to make.
    #[error("the seat has nothing to decide")]
    NothingToDecide,
}

impl PuzzleSet {
    /// Reads a puzzle file of `game`.
    pub fn parse(game: GameKind, text: &str) -> Result<PuzzleSet, puzzle::PuzzleError> {
        Ok(match game {
            GameKind::Madiao => PuzzleSet::Madiao(puzzle::read_file(text, game)?),
            GameKind::Dabaifen => PuzzleSet::Dabaifen(puzzle::read_file(text, game)?),
        })
    }

    fn empty(game: GameKind) -> PuzzleSet {
        let made = puzzle::MadeBy::default();
        match game {
            GameKind::Madiao => PuzzleSet::Madiao(MadiaoFile {
                format: puzzle::FORMAT,
                game,
                rules: "standard".into(),
                margin: puzzle::MADIAO_MARGIN,
                made,
                puzzles: Vec::new(),
            }),
            GameKind::Dabaifen => PuzzleSet::Dabaifen(DabaifenFile {
                format: puzzle::FORMAT,
                game,
                rules: "standard".into(),
                margin: puzzle::DABAIFEN_MARGIN,
                made,
                puzzles: Vec::new(),
            }),
        }
    }

    /// The game.
    pub fn game(&self) -> GameKind {
        match self {
            PuzzleSet::Madiao(_) => GameKind::Madiao,
            PuzzleSet::Dabaifen(_) => GameKind::Dabaifen,
        }
    }

    /// How many puzzles.
    pub fn len(&self) -> usize {
        match self {
            PuzzleSet::Madiao(f) => f.puzzles.len(),
            PuzzleSet::Dabaifen(f) => f.puzzles.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The id of puzzle `i`.
    pub fn id(&self, i: usize) -> Option<&str> {
        match self {
            PuzzleSet::Madiao(f) => f.puzzles.get(i).map(|p| p.id.as_str()),
            PuzzleSet::Dabaifen(f) => f.puzzles.get(i).map(|p| p.id.as_str()),
        }
    }

    /// The index of the puzzle `id`.
    pub fn get(&self, id: &str) -> Option<usize> {
        (0..self.len()).find(|&i| self.id(i) == Some(id))
    }

    /// The difficulty (1–5) of puzzle `i`.
    pub fn difficulty(&self, i: usize) -> u8 {
        match self {
            PuzzleSet::Madiao(f) => f.puzzles.get(i).map_or(3, |p| p.difficulty),
            PuzzleSet::Dabaifen(f) => f.puzzles.get(i).map_or(3, |p| p.difficulty),
        }
    }

    /// The themes of puzzle `i`.
    pub fn themes(&self, i: usize) -> Vec<String> {
        let t = match self {
            PuzzleSet::Madiao(f) => f.puzzles.get(i).map(|p| p.themes.clone()),
            PuzzleSet::Dabaifen(f) => f.puzzles.get(i).map(|p| p.themes.clone()),
        };
        t.unwrap_or_default().iter().map(|t| t.name().to_string()).collect()
    }

    /// The puzzle of day `day` (see [`today`]): the same for everyone that day.
    pub fn daily(&self, day: u64) -> Option<usize> {
        if self.is_empty() {
            return None;
        }
        let n = self.len() as u64;
        // A fixed odd stride walks every puzzle before repeating (when it is prime to n).
        let stride = [7919u64, 7907, 7901].into_iter().find(|s| !n.is_multiple_of(*s)).unwrap_or(1);
        Some(((day.wrapping_mul(stride)) % n) as usize)
    }

    fn unit(&self) -> (&'static str, &'static str, &'static str) {
        match self {
            PuzzleSet::Madiao(_) => ("stakes", "stakes", "注"),
            PuzzleSet::Dabaifen(_) => ("levels", "game levels", "级"),
        }
    }

    fn margin(&self) -> f64 {
        match self {
            PuzzleSet::Madiao(f) => f.margin,
            PuzzleSet::Dabaifen(f) => f.margin,
        }
    }

    /// Puzzle `i`'s position as its seat sees it.
    pub fn show(&self, i: usize) -> Result<PuzzlePosition, ShowError> {
        let missing = || ShowError::NoPuzzle(i);
        let (id, seat, view, legal, choices, difficulty) = match self {
            PuzzleSet::Madiao(f) => {
                let p = f.puzzles.get(i).ok_or_else(missing)?;
                let st = puzzle::madiao_position(&p.hand, &f.rules)?;
                let view =
                    <ai::Madiao as TableGame>::table_view(&st, Viewer::Seat(p.seat), Overlay::default());
                let legal = <ai::Madiao as TableGame>::legal_for(&st, p.seat, Overlay::default(), false)
                    .ok_or(ShowError::NothingToDecide)?;
                let choices = st
                    .legal_actions()
                    .iter()
                    .map(|a| PuzzleChoice { action: json(a), label: a.to_string() })
                    .collect();
                (p.id.clone(), p.seat, view, legal, choices, p.difficulty)
            }
            PuzzleSet::Dabaifen(f) => {
                let p = f.puzzles.get(i).ok_or_else(missing)?;
                let st = puzzle::dabaifen_position(&p.hand, &f.rules)?;
                let view =
                    <ai::Dabaifen as TableGame>::table_view(&st, Viewer::Seat(p.seat), Overlay::default());
                let legal = <ai::Dabaifen as TableGame>::legal_for(
                    &st,
                    p.seat,
                    Overlay::default(),
                    table::game::dabaifen::DabaifenRequest::default(),
                )
                .ok_or(ShowError::NothingToDecide)?;
                // A burial lists no choices (its 18,564 six-card subsets): the player picks six
                // cards of the hand.
                let choices = if st.phase() == dabaifen::Phase::Burying {
                    Vec::new()
                } else {
                    st.legal_actions()
                        .iter()
                        .map(|a| PuzzleChoice { action: json(a), label: a.to_string() })
                        .collect()
                };
                (p.id.clone(), p.seat, view, legal, choices, p.difficulty)
            }
        };
        Ok(PuzzlePosition {
            id,
            game: self.game(),
            index: i as u32,
            count: self.len() as u32,
            seat,
            view,
            legal,
            choices,
            themes: self.themes(i),
            difficulty,
            rating: initial_rating(difficulty).rating,
            margin: self.margin(),
            unit: self.unit().0.to_string(),
        })
    }

    /// Judges `action` (as a table's `act` sends it) in puzzle `i`: right or wrong, why, and the
    /// line.
    pub fn judge(&self, i: usize, action: &Value) -> Result<PuzzleVerdict, JudgeError> {
        let bad = |e: String| JudgeError::Bad(e);
        match self {
            PuzzleSet::Madiao(f) => {
                let p = f.puzzles.get(i).ok_or_else(|| bad(format!("no puzzle {i}")))?;
                let a: madiao::Action = serde_json::from_value(action.clone())
                    .map_err(|e| JudgeError::Unreadable(GameKind::Madiao, e.to_string()))?;
                let st = puzzle::madiao_position(&p.hand, &f.rules).map_err(|e| bad(e.to_string()))?;
                if !st.legal_actions().contains(&a) {
                    return Err(JudgeError::Illegal(a.to_string()));
                }
                Ok(verdict(p, a, puzzle::madiao_move_index(p, &st, a), self.unit()))
            }
            PuzzleSet::Dabaifen(f) => {
                let p = f.puzzles.get(i).ok_or_else(|| bad(format!("no puzzle {i}")))?;
                let a: dabaifen::Action = serde_json::from_value(action.clone())
                    .map_err(|e| JudgeError::Unreadable(GameKind::Dabaifen, e.to_string()))?;
                let st = puzzle::dabaifen_position(&p.hand, &f.rules).map_err(|e| bad(e.to_string()))?;
                // A burial is checked by the engine (its six-card subsets are not listed).
                let legal = match a {
                    dabaifen::Action::Bury(_) => st.clone().apply(a).is_ok(),
                    _ => st.legal_actions().contains(&a),
                };
                if !legal {
                    return Err(JudgeError::Illegal(a.to_string()));
                }
                let chosen = puzzle::dabaifen_move_index(p, &st, a);
                Ok(match (&p.burial, a) {
                    (Some(rule), dabaifen::Action::Bury(set)) => {
                        burial_verdict(p, rule, set, chosen, self.unit())
                    }
                    _ => verdict(p, a, chosen, self.unit()),
                })
            }
        }
    }

    /// The puzzles of the easiest difficulty first, `n` of them, for a tutorial's practice.
    pub fn easiest(&self, n: usize) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.len()).collect();
        idx.sort_by_key(|&i| (self.difficulty(i), i));
        idx.truncate(n);
        idx
    }

    /// The puzzle nearest in rating to `rating` among those `skip` does not exclude (ties to the
    /// first in the list); `ratings` gives each puzzle's current rating.
    pub fn nearest(
        &self,
        rating: f64,
        ratings: &dyn Fn(usize) -> f64,
        skip: &dyn Fn(usize) -> bool,
    ) -> Option<usize> {
        (0..self.len())
            .filter(|&i| !skip(i))
            .min_by(|&a, &b| (ratings(a) - rating).abs().total_cmp(&(ratings(b) - rating).abs()))
    }
}

/// A puzzle's position or verdict in plain text for the terminal.
pub trait PlainText {
    /// The text, in English or Chinese.
    fn text(&self, zh: bool) -> String;
}

impl PlainText for PuzzlePosition {
    /// The position in plain text for the terminal, in English or Chinese.
    fn text(&self, zh: bool) -> String {
        let v = serde_json::to_value(&self.view).unwrap_or(Value::Null);
        let hand: Vec<String> = v["hand"]
            .as_array()
            .map(|h| h.iter().filter_map(|c| c.as_str().map(String::from)).collect())
            .unwrap_or_default();
        let trick: Vec<String> = v["tricks"]
            .as_array()
            .and_then(|t| t.last())
            .and_then(|t| t["plays"].as_array())
            .map(|ps| {
                ps.iter()
                    .map(|p| {
                        let seat = p["seat"].as_u64().unwrap_or(0);
                        let card = p.get("card").or_else(|| p.get("cards")).cloned().unwrap_or(Value::Null);
                        let card = match card {
                            Value::String(s) => s,
                            Value::Array(a) => {
                                a.iter().filter_map(|c| c.as_str()).collect::<Vec<_>>().join(" ")
                            }
                            Value::Null => {
                                if zh {
                                    "（暗）".into()
                                } else {
                                    "(face down)".into()
                                }
                            }
                            other => other.to_string(),
                        };
                        format!("{seat}: {card}")
                    })
                    .collect()
            })
            .unwrap_or_default();
        let themes = self.themes.join(", ");
        if self.themes.iter().any(|t| t == "burial") {
            let n = hand.len();
            return if zh {
                format!(
                    "谜题 {}（{}，难度 {}，主题：{themes}）\n你是 {} 号座，庄家，已拿底牌。你的{n}张牌：{}\n埋六张牌。",
                    self.id,
                    self.game,
                    self.difficulty,
                    self.seat.number(),
                    hand.join(" ")
                )
            } else {
                format!(
                    "Puzzle {} ({}, difficulty {}, themes: {themes})\nYou are seat {}, the starter, and have taken the kitty. Your cards: {}\nBury six of your {n} cards.",
                    self.id,
                    self.game,
                    self.difficulty,
                    self.seat.number(),
                    hand.join(" ")
                )
            };
        }
        if zh {
            format!(
                "谜题 {}（{}，难度 {}，主题：{themes}）\n你是 {} 号座。你的牌：{}\n本墩已出：{}",
                self.id,
                self.game,
                self.difficulty,
                self.seat.number(),
                hand.join(" "),
                if trick.is_empty() { "（由你出头）".to_string() } else { trick.join("，") }
            )
        } else {
            format!(
                "Puzzle {} ({}, difficulty {}, themes: {themes})\nYou are seat {}. Your cards: {}\nThe trick so far: {}",
                self.id,
                self.game,
                self.difficulty,
                self.seat.number(),
                hand.join(" "),
                if trick.is_empty() { "(you lead)".to_string() } else { trick.join(", ") }
            )
        }
    }
}

impl PlainText for PuzzleVerdict {
    /// The verdict in plain text for the terminal.
    fn text(&self, zh: bool) -> String {
        let mut s = String::new();
        let pick = |t: &PuzzleText| if zh { t.zh.clone() } else { t.en.clone() };
        if self.right {
            s.push_str(if zh { "正确！\n" } else { "Right!\n" });
        } else {
            s.push_str(&if zh {
                format!("不对。最佳出法：{}\n", self.answer_label)
            } else {
                format!("Wrong. The best move: {}\n", self.answer_label)
            });
            if let Some(m) = &self.mistake {
                s.push_str(&pick(m));
                s.push('\n');
            }
        }
        s.push_str(&pick(&self.reason));
        s.push('\n');
        let steps: Vec<String> =
            self.line.iter().map(|l| format!("{}: {}", l.seat.number(), l.label)).collect();
        s.push_str(if zh { "后续：" } else { "The line: " });
        s.push_str(&steps.join(", "));
        s
    }
}

/// The puzzle ratings' Glicko-2 constants (those of the players' ratings).
pub fn config() -> Config {
    Config::default()
}

/// A puzzle's starting rating from its difficulty: 1100 for the easiest to 1900 for the hardest,
/// with a new player's deviation.
pub fn initial_rating(difficulty: u8) -> Rating {
    let c = config();
    Rating {
        rating: 900.0 + 200.0 * f64::from(difficulty.clamp(1, 5)),
        deviation: c.max_deviation,
        volatility: c.volatility,
    }
}

/// A new player's puzzle rating.
pub fn new_player() -> Rating {
    Rating::new(&config())
}

/// The ratings of a player and a puzzle after one attempt (each a rating period of one game, as
/// lichess rates puzzles): a solved puzzle is a win for the player and a loss for the puzzle.
pub fn rate(player: Rating, puzzle: Rating, solved: bool) -> Result<(Rating, Rating), rating::RatingError> {
    let c = config();
    let s = if solved { 1.0 } else { 0.0 };
    let p = update(player, &[Game { opponent: puzzle, score: s }], &c)?;
    let q = update(puzzle, &[Game { opponent: player, score: 1.0 - s }], &c)?;
    Ok((p, q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solved_puzzle_raises_the_player_and_lowers_the_puzzle() {
        let player = new_player();
        let puzzle = initial_rating(3);
        let (p, q) = rate(player, puzzle, true).unwrap();
        assert!(p.rating > player.rating, "{p:?}");
        assert!(q.rating < puzzle.rating, "{q:?}");
        assert!(p.deviation < player.deviation);
        let (p2, q2) = rate(player, puzzle, false).unwrap();
        assert!(p2.rating < player.rating && q2.rating > puzzle.rating);
        // Against a harder puzzle a success gains more.
        let (hard, _) = rate(player, initial_rating(5), true).unwrap();
        let (easy, _) = rate(player, initial_rating(1), true).unwrap();
        assert!(hard.rating > easy.rating, "{hard:?} {easy:?}");
    }

    #[test]
    fn the_puzzle_of_the_day_changes_daily_and_is_the_same_all_day() {
        let s = set(GameKind::Madiao);
        assert!(!s.is_empty());
        assert_eq!(s.daily(20_000), s.daily(20_000));
        let days: std::collections::BTreeSet<usize> = (0..30).filter_map(|d| s.daily(20_000 + d)).collect();
        assert_eq!(days.len(), 30, "30 days, 30 different puzzles");
    }
}
