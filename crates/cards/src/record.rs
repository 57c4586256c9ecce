//! The `yezi/1` game-record format (`docs/record.md`): the document types, a parser that
//! says what is wrong and where, and a writer that keeps records readable.
//!
//! These types hold a record's envelope as written: the format tag, the game, its rules, variants
//! and players, and its hands of a type each game's engine gives (`madiao::record::MadiaoHand`,
//! `dabaifen::record::DabaifenHand`), which also checks their cards and replays their actions.
//! What this module checks is the shape: the format tag, the game, required fields, field types,
//! seat numbers.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::BySeat;

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
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub players: Option<BySeat<String>>,
    /// The seed the decks were generated from; informational (replay uses the decks).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub seed: Option<u64>,
    /// The id of the table the match was played at, which every hand's deal commitment names
    /// (`docs/record.md`, "Deal verification"); informational for replay.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub table: Option<String>,
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
            table: None,
            hands: Vec::new(),
        }
    }
}

/// Reads an optional field that is present: its value must have the field's type, and `null` is
/// a wrong type (`docs/record.md`, "Clarifications", 1: an optional field is left out, not written
/// as `null`). Use with `#[serde(default, deserialize_with = "present")]`, so that a missing field
/// is `None`.
pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    match Option::<T>::deserialize(d)? {
        Some(v) => Ok(Some(v)),
        None => Err(serde::de::Error::custom(
            "null is not allowed here: an optional field is left out, not written as null",
        )),
    }
}

/// The highest stake a record may give (`docs/record.md`, "Clarifications", 2).
pub const MAX_STAKE: u32 = 1000;

/// Reads a Madiao hand's `stake`: an even whole number from 2 to [`MAX_STAKE`]
/// (`docs/record.md`, "Clarifications", 2).
pub fn stake<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = i64::deserialize(d)?;
    match u32::try_from(n) {
        Ok(s) if (2..=MAX_STAKE).contains(&s) && s.is_multiple_of(2) => Ok(s),
        _ => Err(serde::de::Error::custom(format!(
            "a stake is an even whole number from 2 to {MAX_STAKE}, not {n}"
        ))),
    }
}

// ---------------------------------------------------------------------------------------------
/// A recorded action whose fields make no action: which fields an action has (the record's
/// format, `docs/record.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ActionShapeError {
    /// A Madiao action without exactly one of its kinds.
    #[error("a Madiao action has `seat` and exactly one of `play`, `slough`, `redeal`")]
    Madiao,
    /// A Da Bai Fen `declare` without the card drawn.
    #[error("a `declare` action needs `drawn`")]
    DeclareWithoutDrawn,
    /// `drawn` on an action that is not a Da Bai Fen `declare`.
    #[error("`drawn` belongs to a `declare` only")]
    DrawnOutsideDeclare,
    /// A Da Bai Fen action without exactly one of its kinds.
    #[error(
        "a Da Bai Fen action has `seat` and exactly one of `declare` (with `drawn`), `annul`, `bury`, `play`"
    )]
    Dabaifen,
}

// Reading and writing

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

/// A `yezi/1` document of a known game whose hands are not read yet: each game's engine has its
/// hand type, which [`Envelope::read`] reads them with.
#[derive(Clone, Debug, PartialEq)]
pub struct Envelope {
    /// The record's game.
    pub game: GameKind,
    value: Value,
}

impl Envelope {
    /// Reads the whole record with `H`, the hand type of its game, checking its shape (not yet
    /// its cards or actions).
    pub fn read<H: DeserializeOwned>(self) -> Result<Record<H>, RecordError> {
        from_value(self.value)
    }
}

/// Reads a record's envelope: checks that the text is a JSON object with the `yezi/1` format tag
/// and names its game.
pub fn envelope(text: &str) -> Result<Envelope, RecordError> {
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
    Ok(Envelope { game, value })
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
