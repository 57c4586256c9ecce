//! A `yezi/1` record of either game (`docs/record.md`): the envelope as [`cards::record`] reads
//! it, the hands as the engine of the record's game writes them ([`::madiao::record::MadiaoHand`],
//! [`::dabaifen::record::DabaifenHand`]).

use ::dabaifen::record::DabaifenHand;
use ::madiao::record::MadiaoHand;
use cards::record::{GameKind, Record, RecordError, envelope};
use serde::{Serialize, Serializer};

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

/// Reads a record of either game, checking its shape (not yet its cards or actions).
pub fn parse(text: &str) -> Result<AnyRecord, RecordError> {
    let e = envelope(text)?;
    Ok(match e.game {
        GameKind::Madiao => AnyRecord::Madiao(e.read()?),
        GameKind::Dabaifen => AnyRecord::Dabaifen(e.read()?),
    })
}

/// What is wrong with one hand's deal (`docs/record.md`, "Deal verification").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DealFault {
    /// The hand carries no seed or no commitment, or the record names no table.
    Missing,
    /// The hand's deck is not the one its seed shuffles.
    Deck,
    /// The hand's commitment is not the one of its seed, table and hand number.
    Commitment,
}

/// One hand whose deal does not verify, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealProblem {
    /// The hand, counted from 0 in the record.
    pub hand: usize,
    /// What kind of fault.
    pub fault: DealFault,
    /// What differs, in words (the English of `why`).
    pub detail: String,
    /// Which check failed, with its figures.
    pub why: DealMismatch,
}

/// Which check of a hand's deal failed, with its figures (`docs/record.md`, "Deal
/// verification"): what a program says in its own words; [`DealProblem::detail`] is its
/// English.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum DealMismatch {
    /// The hand carries no seed.
    NoSeed,
    /// The hand carries no commitment.
    NoCommitment,
    /// The record names no table, which the commitment covers.
    NoTable,
    /// The deck has `cards` cards where its seed deals `dealt`.
    DeckSize {
        /// The cards of the recorded deck.
        cards: usize,
        /// The cards the seed deals.
        dealt: usize,
    },
    /// The deck differs from its seed's at `places` places; `first` holds the first four at most,
    /// each as (place from 0, the recorded card, the seed's card).
    DeckCards {
        /// How many places differ.
        places: usize,
        /// The first places that differ.
        first: Vec<(usize, String, String)>,
    },
    /// The commitment is not SHA-256 of the seed, the hand's number and the table.
    Commitment {
        /// The commitment the record carries.
        commitment: String,
        /// The hand's seed.
        seed: u64,
        /// The record's table.
        table: String,
        /// The commitment the seed, hand and table give.
        expected: String,
    },
}

impl DealMismatch {
    /// The mismatch in English, for hand `k` (counted from 0).
    pub fn english(&self, k: usize) -> String {
        match self {
            DealMismatch::NoSeed => "the hand carries no seed".into(),
            DealMismatch::NoCommitment => "the hand carries no commitment".into(),
            DealMismatch::NoTable => {
                "the record names no table (`table`), which the commitment covers".into()
            }
            DealMismatch::DeckSize { cards, dealt } => {
                format!("the deck has {cards} cards; its seed deals {dealt}")
            }
            DealMismatch::DeckCards { places, first } => {
                let diffs: Vec<String> = first
                    .iter()
                    .map(|(i, a, b)| format!("deck[{i}] is {a} where the seed gives {b}"))
                    .collect();
                if *places <= first.len() {
                    format!("the deck is not its seed's: {}", diffs.join(", "))
                } else {
                    format!("the deck is not its seed's at {places} places: {}, …", diffs.join(", "))
                }
            }
            DealMismatch::Commitment { commitment, seed, table, expected } => format!(
                "the commitment {commitment} is not SHA-256 of seed {seed}, hand {k} and table {table:?} ({expected})"
            ),
        }
    }
}

impl std::fmt::Display for DealProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "hand {}: {}", self.hand, self.detail)
    }
}

/// The verification of every deal of a record: how many hands were checked and the problems
/// found, in the order of the hands (none when every deal verifies).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealCheck {
    /// How many hands the record holds (each one checked).
    pub hands: usize,
    /// Every problem found, hand by hand.
    pub problems: Vec<DealProblem>,
}

impl DealCheck {
    /// True when every hand's deal follows from its seed and matches its commitment.
    pub fn is_verified(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks every deal of a record (`docs/record.md`, "Deal verification"): hand k's deck must be
/// the one its `seed` shuffles for hand k (the engine's `deck_from_seed`), and its `commitment`
/// must be [`cards::deal::commitment`] of that seed, k and the record's `table`. A hand that
/// lacks any of them fails. Replay does not do this: it always plays the `deck`.
pub fn verify_deals(rec: &AnyRecord) -> DealCheck {
    // Per hand: its seed, its commitment, its deck as written.
    let hands: Vec<(Option<u64>, Option<&str>, &[String])> = match rec {
        AnyRecord::Madiao(r) => {
            r.hands.iter().map(|h| (h.seed, h.commitment.as_deref(), h.deck.as_slice())).collect()
        }
        AnyRecord::Dabaifen(r) => {
            r.hands.iter().map(|h| (h.seed, h.commitment.as_deref(), h.deck.as_slice())).collect()
        }
    };
    let table = match rec {
        AnyRecord::Madiao(r) => r.table.as_deref(),
        AnyRecord::Dabaifen(r) => r.table.as_deref(),
    };
    let mut problems = Vec::new();
    for (k, (seed, commitment, deck)) in hands.iter().enumerate() {
        let problem = |fault, why: DealMismatch| DealProblem { hand: k, fault, detail: why.english(k), why };
        let Some(seed) = *seed else {
            problems.push(problem(DealFault::Missing, DealMismatch::NoSeed));
            continue;
        };
        let rebuilt: Vec<String> = match rec.game() {
            GameKind::Madiao => {
                ::madiao::deck_from_seed(seed, k as u64).iter().map(|c| c.to_string()).collect()
            }
            GameKind::Dabaifen => {
                ::dabaifen::deck_from_seed(seed, k as u64).iter().map(|c| c.to_string()).collect()
            }
        };
        if let Some(why) = deck_difference(deck, &rebuilt) {
            problems.push(problem(DealFault::Deck, why));
        }
        match (commitment, table) {
            (None, _) => problems.push(problem(DealFault::Missing, DealMismatch::NoCommitment)),
            (Some(_), None) => problems.push(problem(DealFault::Missing, DealMismatch::NoTable)),
            (Some(c), Some(t)) => {
                let expected = u32::try_from(k).map(|n| cards::deal::commitment(seed, n, t));
                if expected.as_deref() != Ok(*c) {
                    problems.push(problem(
                        DealFault::Commitment,
                        DealMismatch::Commitment {
                            commitment: (*c).to_string(),
                            seed,
                            table: t.to_string(),
                            expected: expected.unwrap_or_default(),
                        },
                    ));
                }
            }
        }
    }
    DealCheck { hands: hands.len(), problems }
}

/// How a recorded deck differs from the one its seed gives, or `None` when they agree.
fn deck_difference(deck: &[String], rebuilt: &[String]) -> Option<DealMismatch> {
    if deck.len() != rebuilt.len() {
        return Some(DealMismatch::DeckSize { cards: deck.len(), dealt: rebuilt.len() });
    }
    let diffs: Vec<(usize, String, String)> = deck
        .iter()
        .zip(rebuilt)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| (i, a.clone(), b.clone()))
        .collect();
    match diffs.len() {
        0 => None,
        places => Some(DealMismatch::DeckCards { places, first: diffs.into_iter().take(4).collect() }),
    }
}

impl Serialize for AnyRecord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            AnyRecord::Madiao(r) => r.serialize(s),
            AnyRecord::Dabaifen(r) => r.serialize(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use ::dabaifen::record::{DabaifenAction, DabaifenOutcome};
    use ::madiao::record::{MadiaoAction, MadiaoOutcome, MadiaoResult};
    use cards::record::{diff_results, to_pretty_json};
    use cards::{BySeat, Halves, Seat};
    use proptest::prelude::*;

    use super::*;

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
                r#"{{"format":"yezi/1","game":"madiao","rules":"standard"{top},"hands":[{{"banker":0,"deck":[],"actions":[]{hand}}}]}}"#
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
