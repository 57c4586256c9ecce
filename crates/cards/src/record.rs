//! The `yezi/1` game-record format (`docs/record.md`): the document types, a parser that
//! says what is wrong and where, and a writer that keeps records readable.
//!
//! These types hold a record as written: card codes are text here and are checked against a game's
//! deck by that game's engine, which also replays the actions. What this module checks is the shape:
//! the format tag, the game, required fields, field types, seat numbers.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::{BySeat, Halves, Seat};

/// The format tag every record carries.
pub const FORMAT: &str = "yezi/1";

/// Which game a record holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum GameKind {
    /// Madiao (馬弔), 40 cards, a banker against three.
    Madiao,
    /// Da Bai Fen (打百分), 54 cards, two partnerships.
    Dabaifen,
}

impl GameKind {
    /// The name used in records and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Madiao => "madiao",
            GameKind::Dabaifen => "dabaifen",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Overrides of single variants of the preset: variant name → value, as text. JSON booleans and
/// numbers are accepted and read as their text (`true` → `"true"`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Variants(pub BTreeMap<String, String>);

impl Variants {
    /// True when no variant is overridden.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'de> Deserialize<'de> for Variants {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Variants, D::Error> {
        let raw = BTreeMap::<String, Value>::deserialize(d)?;
        let mut out = BTreeMap::new();
        for (k, v) in raw {
            let text = match v {
                Value::String(s) => s,
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                other => {
                    return Err(serde::de::Error::custom(format!(
                        "variant `{k}` must be a string, a boolean or a number, not {}",
                        kind_of(&other)
                    )));
                }
            };
            out.insert(k, text);
        }
        Ok(Variants(out))
    }
}

/// A whole record: one or more consecutive hands of one match of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record<H> {
    /// Always [`FORMAT`].
    pub format: String,
    /// The game.
    pub game: GameKind,
    /// The preset of the rules file (`standard`, `feng`, …).
    pub rules: String,
    /// Single variants overriding the preset.
    #[serde(default, skip_serializing_if = "Variants::is_empty")]
    pub variants: Variants,
    /// Who sat where; informational.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<BySeat<String>>,
    /// The seed the decks were generated from; informational (replay uses the decks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The hands, in the order they were played.
    pub hands: Vec<H>,
}

impl<H> Record<H> {
    /// An empty record of `game` under the preset `rules`.
    pub fn new(game: GameKind, rules: impl Into<String>) -> Self {
        Record {
            format: FORMAT.to_string(),
            game,
            rules: rules.into(),
            variants: Variants::default(),
            players: None,
            seed: None,
            hands: Vec::new(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Madiao

/// One Madiao hand as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MadiaoHand {
    /// The banker of the hand.
    pub banker: Seat,
    /// Chips per stake, an even number (default 2).
    #[serde(default = "default_stake")]
    pub stake: u32,
    /// The 40 cards after shuffling and cutting, top first; `deck[39]` is the cut card.
    pub deck: Vec<String>,
    /// The players' choices, in order.
    #[serde(default)]
    pub actions: Vec<MadiaoAction>,
    /// The hand's outcome, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<MadiaoResult>,
}

fn default_stake() -> u32 {
    2
}

/// One recorded Madiao choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawMadiaoAction", into = "RawMadiaoAction")]
pub enum MadiaoAction {
    /// A card put face up: a lead, a capture, or a face-up discard.
    Play {
        /// Who played it.
        seat: Seat,
        /// The card, in the record's card notation.
        card: String,
    },
    /// A card put face down.
    Slough {
        /// Who sloughed it.
        seat: Seat,
        /// The card, in the record's card notation.
        card: String,
    },
    /// A long-suit holder forcing (`true`) or declining (`false`) a redeal.
    Redeal {
        /// The long-suit holder.
        seat: Seat,
        /// Whether he forces the redeal.
        redeal: bool,
    },
}

impl MadiaoAction {
    /// The seat that acted.
    pub fn seat(&self) -> Seat {
        match *self {
            MadiaoAction::Play { seat, .. }
            | MadiaoAction::Slough { seat, .. }
            | MadiaoAction::Redeal { seat, .. } => seat,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct RawMadiaoAction {
    seat: Seat,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    play: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    slough: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    redeal: Option<bool>,
}

impl TryFrom<RawMadiaoAction> for MadiaoAction {
    type Error = String;
    fn try_from(r: RawMadiaoAction) -> Result<Self, String> {
        match (r.play, r.slough, r.redeal) {
            (Some(card), None, None) => Ok(MadiaoAction::Play { seat: r.seat, card }),
            (None, Some(card), None) => Ok(MadiaoAction::Slough { seat: r.seat, card }),
            (None, None, Some(redeal)) => Ok(MadiaoAction::Redeal { seat: r.seat, redeal }),
            _ => Err("a Madiao action has `seat` and exactly one of `play`, `slough`, `redeal`".into()),
        }
    }
}

impl From<MadiaoAction> for RawMadiaoAction {
    fn from(a: MadiaoAction) -> Self {
        let mut r = RawMadiaoAction { seat: a.seat(), play: None, slough: None, redeal: None };
        match a {
            MadiaoAction::Play { card, .. } => r.play = Some(card),
            MadiaoAction::Slough { card, .. } => r.slough = Some(card),
            MadiaoAction::Redeal { redeal, .. } => r.redeal = Some(redeal),
        }
        r
    }
}

#[cfg(feature = "ts")]
crate::ts_named!(
    MadiaoAction,
    "MadiaoRecordAction",
    "{ seat: Seat } & ({ play: MadiaoCard } | { slough: MadiaoCard } | { redeal: boolean })".to_string()
);

/// How a Madiao hand ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum MadiaoOutcome {
    /// All eight tricks were played and settled.
    Played,
    /// A meld won at once; the hand was not played.
    Meld,
    /// The four lowest cards in one hand: paid, then the banker is drawn again.
    FourLowest,
    /// A long-suit holder forced a redeal.
    Redeal,
}

/// The result object of a Madiao hand (spec §Madiao hand).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MadiaoResult {
    /// How the hand ended.
    pub outcome: MadiaoOutcome,
    /// Tricks won per seat (all zero when the hand was not played).
    pub tricks: BySeat<u8>,
    /// Payoff per seat in stakes; they sum to zero.
    pub payoffs: BySeat<Halves>,
    /// The next banker, or `None` when the banker is drawn again.
    pub next_banker: Option<Seat>,
    /// True on the hand that ends the match.
    pub game_over: bool,
}

// ---------------------------------------------------------------------------------------------
// Da Bai Fen

/// One Da Bai Fen deal as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DabaifenHand {
    /// The starter who draws first (provisional in a first or open deal).
    pub starter: Seat,
    /// True for the match's first deal.
    #[serde(default)]
    pub first_deal: bool,
    /// True exactly when the previous deal was annulled.
    #[serde(default)]
    pub open: bool,
    /// The two team ranks before the deal (team 0 = seats 0 and 2), written `2`…`9 T J Q K A`.
    pub ranks: [String; 2],
    /// The 54 cards after shuffling and cutting, top first.
    pub deck: Vec<String>,
    /// The players' choices, in order.
    #[serde(default)]
    pub actions: Vec<DabaifenAction>,
    /// The deal's outcome, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<DabaifenResult>,
}

/// One recorded Da Bai Fen choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawDabaifenAction", into = "RawDabaifenAction")]
pub enum DabaifenAction {
    /// Showing a trump-rank card when `drawn` cards had been drawn in all.
    Declare {
        /// Who showed it.
        seat: Seat,
        /// The trump-rank card shown.
        card: String,
        /// How many cards had been drawn in all when it was shown.
        drawn: u8,
    },
    /// Annulling the deal for a hand with no trump (`true`), or declining to (`false`).
    Annul {
        /// The player without a trump.
        seat: Seat,
        /// Whether he annuls the deal.
        annul: bool,
    },
    /// The starter's six buried cards.
    Bury {
        /// The starter.
        seat: Seat,
        /// The six cards buried.
        cards: Vec<String>,
    },
    /// One or more cards played to a trick.
    Play {
        /// Who played them.
        seat: Seat,
        /// The cards played, one or more.
        cards: Vec<String>,
    },
}

impl DabaifenAction {
    /// The seat that acted.
    pub fn seat(&self) -> Seat {
        match *self {
            DabaifenAction::Declare { seat, .. }
            | DabaifenAction::Annul { seat, .. }
            | DabaifenAction::Bury { seat, .. }
            | DabaifenAction::Play { seat, .. } => seat,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct RawDabaifenAction {
    seat: Seat,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    declare: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    drawn: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    annul: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bury: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    play: Option<Vec<String>>,
}

impl TryFrom<RawDabaifenAction> for DabaifenAction {
    type Error = String;
    fn try_from(r: RawDabaifenAction) -> Result<Self, String> {
        let seat = r.seat;
        match (r.declare, r.drawn, r.annul, r.bury, r.play) {
            (Some(card), Some(drawn), None, None, None) => Ok(DabaifenAction::Declare { seat, card, drawn }),
            (Some(_), None, None, None, None) => Err("a `declare` action needs `drawn`".into()),
            (None, None, Some(annul), None, None) => Ok(DabaifenAction::Annul { seat, annul }),
            (None, None, None, Some(cards), None) => Ok(DabaifenAction::Bury { seat, cards }),
            (None, None, None, None, Some(cards)) => Ok(DabaifenAction::Play { seat, cards }),
            _ => Err("a Da Bai Fen action has `seat` and exactly one of `declare` (with `drawn`), \
                      `annul`, `bury`, `play`"
                .into()),
        }
    }
}

impl From<DabaifenAction> for RawDabaifenAction {
    fn from(a: DabaifenAction) -> Self {
        let mut r = RawDabaifenAction {
            seat: a.seat(),
            declare: None,
            drawn: None,
            annul: None,
            bury: None,
            play: None,
        };
        match a {
            DabaifenAction::Declare { card, drawn, .. } => {
                r.declare = Some(card);
                r.drawn = Some(drawn);
            }
            DabaifenAction::Annul { annul, .. } => r.annul = Some(annul),
            DabaifenAction::Bury { cards, .. } => r.bury = Some(cards),
            DabaifenAction::Play { cards, .. } => r.play = Some(cards),
        }
        r
    }
}

#[cfg(feature = "ts")]
crate::ts_named!(
    DabaifenAction,
    "DabaifenRecordAction",
    "{ seat: Seat } & ({ declare: DabaifenCard, drawn: number } | { annul: boolean } | { bury: Array<DabaifenCard> } | { play: Array<DabaifenCard> })"
        .to_string()
);

/// How a Da Bai Fen deal ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum DabaifenOutcome {
    /// Played to the end and scored.
    Played,
    /// Annulled: not played, dealt again as an open deal.
    Annulled,
    /// Ended at once by a revoking lead.
    Revoke,
}

/// Trumps as fixed for a deal: suit letter and rank letter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TrumpRecord {
    /// `S`, `H`, `D` or `C`.
    pub suit: String,
    /// `2`…`9`, `T`, `J`, `Q`, `K`, `A`.
    pub rank: String,
}

/// The result object of a Da Bai Fen deal (spec §Da Bai Fen hand).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DabaifenResult {
    /// How the deal ended.
    pub outcome: DabaifenOutcome,
    /// Trumps as fixed, or `None` if an open deal saw no showing.
    pub trump: Option<TrumpRecord>,
    /// The starter who played the deal.
    pub starter: Seat,
    /// The defenders' points `T`, kitty bonus included.
    pub defender_points: Option<u32>,
    /// The card points buried in the kitty.
    pub kitty_points: Option<u32>,
    /// The team (0 or 1) that won the last trick.
    pub last_trick: Option<u8>,
    /// The team (0 or 1) that won the deal.
    pub winner: Option<u8>,
    /// The game points of the scoring table.
    pub levels: u8,
    /// The team ranks after the deal.
    pub ranks: [String; 2],
    /// The starter of the next deal.
    pub next_starter: Seat,
    /// True when a team has won the game.
    pub game_over: bool,
}

// ---------------------------------------------------------------------------------------------
// Reading and writing

/// A record of either game.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyRecord {
    /// A Madiao record.
    Madiao(Record<MadiaoHand>),
    /// A Da Bai Fen record.
    Dabaifen(Record<DabaifenHand>),
}

impl AnyRecord {
    /// The record's game.
    pub fn game(&self) -> GameKind {
        match self {
            AnyRecord::Madiao(_) => GameKind::Madiao,
            AnyRecord::Dabaifen(_) => GameKind::Dabaifen,
        }
    }
}

/// Why a document is not a well-formed `yezi/1` record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The text is not JSON.
    #[error("not valid JSON at line {line}, column {column}: {message}")]
    Syntax {
        /// The line of the first error, from 1.
        line: usize,
        /// The column of the first error, from 1.
        column: usize,
        /// What the JSON reader found wrong.
        message: String,
    },
    /// A field is missing, of the wrong type, or has a value the format does not allow.
    #[error("{path}: {message}")]
    Field {
        /// Where in the document, e.g. `hands[2].actions[5].card`.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

fn field_err(path: &str, message: impl Into<String>) -> RecordError {
    RecordError::Field { path: path.to_string(), message: message.into() }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads a record of either game, checking its shape (not yet its cards or actions).
pub fn parse(text: &str) -> Result<AnyRecord, RecordError> {
    let value: Value = serde_json::from_str(text).map_err(|e| RecordError::Syntax {
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    })?;
    let obj = value.as_object().ok_or_else(|| {
        field_err("(record)", format!("a record is a JSON object, not {}", kind_of(&value)))
    })?;
    match obj.get("format") {
        None => return Err(field_err("format", "missing; a yezi record starts with \"format\": \"yezi/1\"")),
        Some(Value::String(f)) if f == FORMAT => {}
        Some(other) => {
            return Err(field_err("format", format!("expected \"{FORMAT}\", found {other}")));
        }
    }
    let game = match obj.get("game") {
        Some(Value::String(g)) if g == "madiao" => GameKind::Madiao,
        Some(Value::String(g)) if g == "dabaifen" => GameKind::Dabaifen,
        None => return Err(field_err("game", "missing; expected \"madiao\" or \"dabaifen\"")),
        Some(other) => {
            return Err(field_err("game", format!("expected \"madiao\" or \"dabaifen\", found {other}")));
        }
    };
    Ok(match game {
        GameKind::Madiao => AnyRecord::Madiao(from_value(value)?),
        GameKind::Dabaifen => AnyRecord::Dabaifen(from_value(value)?),
    })
}

/// Reads a record that must be of the game of `H`'s record type.
pub fn parse_as<H: DeserializeOwned>(text: &str) -> Result<Record<H>, RecordError> {
    let value: Value = serde_json::from_str(text).map_err(|e| RecordError::Syntax {
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    })?;
    from_value(value)
}

fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, RecordError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { "(record)".to_string() } else { path };
        field_err(&path, e.into_inner().to_string())
    })
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// Writes a value as readable JSON: an array or object whose members are all plain values (a deck,
/// an action, the payoffs) stays on one line; anything bigger is spread one member per line.
pub fn to_pretty_json<T: Serialize>(value: &T) -> String {
    let v = serde_json::to_value(value).expect("record types always serialize");
    let mut out = String::new();
    write_value(&mut out, &v, 0);
    out.push('\n');
    out
}

fn is_flat(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.iter().all(|x| !x.is_array() && !x.is_object()),
        Value::Object(o) => o.values().all(|x| match x {
            Value::Array(a) => a.iter().all(|y| !y.is_array() && !y.is_object()),
            Value::Object(_) => false,
            _ => true,
        }),
        _ => true,
    }
}

fn write_value(out: &mut String, v: &Value, indent: usize) {
    if is_flat(v) {
        write_compact(out, v);
        return;
    }
    let pad = "  ".repeat(indent + 1);
    let end_pad = "  ".repeat(indent);
    match v {
        Value::Array(a) => {
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                out.push_str(&pad);
                write_value(out, x, indent + 1);
                if i + 1 < a.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str(&end_pad);
            out.push(']');
        }
        Value::Object(o) => {
            out.push_str("{\n");
            for (i, (k, x)) in o.iter().enumerate() {
                out.push_str(&pad);
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                write_value(out, x, indent + 1);
                if i + 1 < o.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str(&end_pad);
            out.push('}');
        }
        _ => write_compact(out, v),
    }
}

fn write_compact(out: &mut String, v: &Value) {
    match v {
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_compact(out, x);
            }
            out.push(']');
        }
        Value::Object(o) => {
            out.push('{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{}: ", Value::String(k.clone()));
                write_compact(out, x);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The differences between two result objects, field by field, as `field: expected X, got Y`
/// lines (empty when they agree). Numbers compare by value, so `2` and `2.0` agree.
pub fn diff_results<T: Serialize>(recorded: &T, replayed: &T) -> Vec<String> {
    let a = serde_json::to_value(recorded).expect("result types always serialize");
    let b = serde_json::to_value(replayed).expect("result types always serialize");
    let mut out = Vec::new();
    diff_values("result", &a, &b, &mut out);
    out
}

fn diff_values(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let null = Value::Null;
                diff_values(
                    &format!("{path}.{k}"),
                    x.get(k).unwrap_or(&null),
                    y.get(k).unwrap_or(&null),
                    out,
                );
            }
        }
        (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => {}
        _ if a == b => {}
        _ => out.push(format!("{path}: the record says {a}, the replay gives {b}")),
    }
}

/// Serializes a value as compact JSON (a convenience for callers that do not use serde_json).
pub fn to_compact_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("record types always serialize")
}

impl Serialize for AnyRecord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            AnyRecord::Madiao(r) => r.serialize(s),
            AnyRecord::Dabaifen(r) => r.serialize(s),
        }
    }
}

/// Where and why a record cannot be replayed: the hand and the action within it (both counted
/// from 0) when one is to blame, and what is wrong, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The hand, unless the record as a whole is wrong.
    pub hand: Option<usize>,
    /// The action within the hand, when one is to blame.
    pub action: Option<usize>,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.hand, self.action) {
            (Some(h), Some(a)) => write!(f, "hand {h}, action {a}: {}", self.reason),
            (Some(h), None) => write!(f, "hand {h}: {}", self.reason),
            _ => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for ReplayError {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MADIAO: &str = r#"{
      "format": "yezi/1", "game": "madiao", "rules": "standard",
      "variants": { "faceup_discard": "forbidden", "meld_extra_stake": true },
      "players": ["Ann", "bot:heuristic", "bot:heuristic", "Bo"],
      "seed": 42,
      "hands": [ { "banker": 0, "deck": ["M4", "W0"],
        "actions": [ { "seat": 2, "redeal": false }, { "seat": 2, "play": "M9" }, { "seat": 3, "slough": "S1" } ],
        "result": { "outcome": "played", "tricks": [2, 3, 2, 1], "payoffs": [-1, 2, 0.5, -1.5],
                    "next_banker": 1, "game_over": false } } ]
    }"#;

    #[test]
    fn parses_a_madiao_record() {
        let AnyRecord::Madiao(r) = parse(MADIAO).unwrap() else { panic!("wrong game") };
        assert_eq!(r.variants.0["meld_extra_stake"], "true");
        let h = &r.hands[0];
        assert_eq!(h.stake, 2);
        assert_eq!(h.actions[1], MadiaoAction::Play { seat: Seat::new(2).unwrap(), card: "M9".into() });
        let res = h.result.as_ref().unwrap();
        assert_eq!(res.payoffs.0, [Halves(-2), Halves(4), Halves(1), Halves(-3)]);
        assert_eq!(res.next_banker, Seat::new(1));
        // Writing and reading again gives the same record.
        let text = to_pretty_json(&r);
        assert!(text.contains(r#"{"seat": 2, "play": "M9"}"#), "{text}");
        assert_eq!(parse(&text).unwrap(), AnyRecord::Madiao(r));
    }

    #[test]
    fn parses_a_dabaifen_record() {
        let text = r#"{"format":"yezi/1","game":"dabaifen","rules":"standard","hands":[
          {"starter":0,"first_deal":true,"open":false,"ranks":["2","2"],"deck":["7H","BJ"],
           "actions":[{"seat":2,"declare":"2H","drawn":17},{"seat":2,"bury":["3C","4C"]},
                      {"seat":2,"play":["AS"]},{"seat":1,"annul":true}],
           "result":{"outcome":"annulled","trump":null,"starter":2,"defender_points":null,
                     "kitty_points":null,"last_trick":null,"winner":null,"levels":0,
                     "ranks":["2","2"],"next_starter":0,"game_over":false}}]}"#;
        let AnyRecord::Dabaifen(r) = parse(text).unwrap() else { panic!("wrong game") };
        let h = &r.hands[0];
        assert_eq!(
            h.actions[0],
            DabaifenAction::Declare { seat: Seat::new(2).unwrap(), card: "2H".into(), drawn: 17 }
        );
        assert_eq!(h.result.as_ref().unwrap().outcome, DabaifenOutcome::Annulled);
        let again = to_pretty_json(&r);
        assert!(again.contains("\"trump\": null"), "{again}");
        assert_eq!(parse(&again).unwrap(), AnyRecord::Dabaifen(r));
    }

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_what_and_where() {
        assert!(err("{").starts_with("not valid JSON at line 1, column 1"), "{}", err("{"));
        assert_eq!(err("[]"), "(record): a record is a JSON object, not an array");
        assert!(err(r#"{"game":"madiao"}"#).starts_with("format: missing"));
        assert_eq!(err(r#"{"format":"yezi/2"}"#), "format: expected \"yezi/1\", found \"yezi/2\"");
        assert!(err(r#"{"format":"yezi/1","game":"chess"}"#).starts_with("game: expected"));
        let base = |hands: &str| {
            format!(r#"{{"format":"yezi/1","game":"madiao","rules":"standard","hands":[{hands}]}}"#)
        };
        let e = err(&base(r#"{"banker":4,"deck":[]}"#));
        assert!(e.starts_with("hands[0].banker: seat must be 0, 1, 2 or 3, not 4"), "{e}");
        let e = err(&base(r#"{"deck":[]}"#));
        assert!(e.starts_with("hands[0]: missing field `banker`"), "{e}");
        let e = err(&base(r#"{"banker":0,"deck":[],"actions":[{"seat":1,"play":"M1","slough":"M2"}]}"#));
        assert!(e.starts_with("hands[0].actions[0]: a Madiao action has"), "{e}");
        let e = err(&base(r#"{"banker":0,"deck":[],"actions":[{"seat":1,"plya":"M1"}]}"#));
        // Unknown fields are ignored (spec), so a misspelt key leaves the action without a kind.
        assert!(e.starts_with("hands[0].actions[0]: a Madiao action has"), "{e}");
        let e = err(&base(r#"{"banker":0,"deck":[3]}"#));
        assert!(e.starts_with("hands[0].deck[0]: invalid type"), "{e}");
        let e =
            err(r#"{"format":"yezi/1","game":"madiao","rules":"standard","variants":{"x":[1]},"hands":[]}"#);
        assert!(e.starts_with("variants: variant `x` must be"), "{e}");
        let e = err(r#"{"format":"yezi/1","game":"dabaifen","rules":"standard","hands":[
            {"starter":0,"ranks":["2","2"],"deck":[],"actions":[{"seat":0,"declare":"2H"}]}]}"#);
        assert!(e.starts_with("hands[0].actions[0]: a `declare` action needs `drawn`"), "{e}");
    }

    #[test]
    fn informational_fields_must_have_their_documented_type() {
        // Spec: `players`, `seed`, `drawn` and `stake` are informational (or optional) but, when
        // present, of their documented type.
        let madiao = |top: &str, hand: &str| {
            format!(
                r#"{{"format":"yezi/1","game":"madiao","rules":"standard"{top},"hands":[{{"banker":0,"deck":[]{hand}}}]}}"#
            )
        };
        assert!(parse(&madiao(r#","players":["a","b","c","d"],"seed":7"#, r#","stake":4"#)).is_ok());
        let e = err(&madiao(r#","seed":"42""#, ""));
        assert!(e.starts_with("seed: invalid type: string \"42\""), "{e}");
        let e = err(&madiao(r#","seed":-1"#, ""));
        assert!(e.starts_with("seed: invalid value"), "{e}");
        let e = err(&madiao(r#","players":["a","b","c"]"#, ""));
        assert!(e.starts_with("players: invalid length 3"), "{e}");
        let e = err(&madiao(r#","players":["a","b","c",4]"#, ""));
        assert!(e.starts_with("players[3]: invalid type: integer `4`"), "{e}");
        let e = err(&madiao("", r#","stake":"2""#));
        assert!(e.starts_with("hands[0].stake: invalid type: string \"2\""), "{e}");
        let e = err(&madiao("", r#","stake":2.5"#));
        assert!(e.starts_with("hands[0].stake: invalid type: floating point"), "{e}");
        let e = err(r#"{"format":"yezi/1","game":"dabaifen","rules":"standard","hands":[
            {"starter":0,"ranks":["2","2"],"deck":[],"actions":[{"seat":0,"declare":"2H","drawn":"17"}]}]}"#);
        assert!(e.starts_with("hands[0].actions[0].drawn: invalid type: string \"17\""), "{e}");
    }

    #[test]
    fn result_diff_lists_each_field() {
        let a = MadiaoResult {
            outcome: MadiaoOutcome::Played,
            tricks: BySeat([2, 2, 2, 2]),
            payoffs: BySeat([Halves(0); 4]),
            next_banker: Seat::new(1),
            game_over: false,
        };
        assert!(diff_results(&a, &a).is_empty());
        let mut b = a.clone();
        b.tricks.0[0] = 3;
        b.game_over = true;
        assert_eq!(
            diff_results(&a, &b),
            vec![
                "result.game_over: the record says false, the replay gives true".to_string(),
                "result.tricks: the record says [2,2,2,2], the replay gives [3,2,2,2]".to_string(),
            ]
        );
    }

    proptest! {
        #[test]
        fn parser_never_panics_on_arbitrary_text(s in "\\PC{0,200}") {
            let _ = parse(&s);
        }

        #[test]
        fn parser_never_panics_on_mutated_records(pos in 0usize..600, byte in any::<u8>(), cut in 0usize..600) {
            let mut bytes = MADIAO.as_bytes().to_vec();
            let p = pos % bytes.len();
            bytes[p] = byte;
            bytes.truncate(cut.max(p + 1));
            let text = String::from_utf8_lossy(&bytes);
            let _ = parse(&text);
        }
    }
}
