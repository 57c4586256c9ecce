//! The vectors of deal verification (`docs/record.md`, "Deal verification") that the browser
//! tests' independent implementation checks (`e2e/unit/deal_verify.test.mjs`): each a game, a
//! seed, a hand, a table, its commitment and its deck as yezi computes them. The file is
//! rewritten with `YEZI_BLESS=1`; otherwise it must match.

use serde_json::{Value, json};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../e2e/unit/deal_vectors.json");

fn vectors() -> Value {
    let cases: [(&str, u64, u32, &str); 5] = [
        ("madiao", 1, 0, "t-1"),
        ("madiao", u64::MAX, 7, "t-3kq9x"),
        ("madiao", 42, 1, "t-1"),
        ("dabaifen", 42, 0, "t-1"),
        ("dabaifen", (1 << 63) + 5, 12, "桌-9"),
    ];
    Value::Array(
        cases
            .iter()
            .map(|&(game, seed, hand, table)| {
                let deck: Vec<String> = match game {
                    "madiao" => {
                        madiao::deck_from_seed(seed, u64::from(hand)).iter().map(|c| c.to_string()).collect()
                    }
                    _ => dabaifen::deck_from_seed(seed, u64::from(hand))
                        .iter()
                        .map(|c| c.to_string())
                        .collect(),
                };
                json!({
                    "game": game,
                    // As text: JavaScript numbers do not hold every 64-bit seed.
                    "seed": seed.to_string(),
                    "hand": hand,
                    "table": table,
                    "commitment": cards::deal::commitment(seed, hand, table),
                    "deck": deck,
                })
            })
            .collect(),
    )
}

#[test]
fn the_vectors_file_is_what_yezi_computes() {
    let now = vectors();
    if std::env::var_os("YEZI_BLESS").is_some() {
        std::fs::write(FILE, serde_json::to_string_pretty(&now).unwrap() + "\n").unwrap();
    }
    let text = std::fs::read_to_string(FILE).expect("e2e/unit/deal_vectors.json (YEZI_BLESS=1 writes it)");
    let stored: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(stored, now, "rewrite with YEZI_BLESS=1 if the change is meant");
    // The decks are whole packs.
    for v in now.as_array().unwrap() {
        let n = v["deck"].as_array().unwrap().len();
        assert_eq!(n, if v["game"] == "madiao" { 40 } else { 54 });
    }
}
