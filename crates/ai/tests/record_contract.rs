//! The record contract's clarifications of 2026-11-28 (`docs/record.md`, "Reading a record
//! strictly"), one test per point: what `yezi replay`'s reader accepts and refuses.

use ai::record::{AnyRecord, DealFault, parse, verify_deals};
use cards::record::to_pretty_json;
use cards::{Rng, Seat};
use madiao::random::{RandomPolicy, Simulator};
use serde_json::{Value, json};

/// A Madiao record of one match of `hands:N` played by the random policy from `seed`, as JSON.
fn madiao_record(seed: u64, variants: &str) -> Value {
    let v = madiao::Variants::preset("standard")
        .unwrap()
        .with_overrides(&cards::record::Variants(
            variants
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|kv| {
                    let (k, v) = kv.split_once('=').unwrap();
                    (k.to_string(), v.to_string())
                })
                .collect(),
        ))
        .unwrap();
    let mut sim = Simulator::new(seed, v, 2, RandomPolicy::default());
    let mut states = Vec::new();
    loop {
        let h = sim.play_hand().unwrap();
        if h.new_match && !states.is_empty() {
            break;
        }
        let over = h.result.game_over;
        states.push(h.state);
        if over {
            break;
        }
    }
    let rec = madiao::record::to_record("standard", &v, Some(seed), states.iter()).unwrap();
    serde_json::from_str(&to_pretty_json(&rec)).unwrap()
}

/// A Da Bai Fen record of one first deal played by the random policy, as JSON.
fn dabaifen_record() -> Value {
    let setup = dabaifen::HandSetup::first(
        dabaifen::deck_from_seed(3, 0),
        Seat::ALL[0],
        dabaifen::Variants::STANDARD,
    );
    let mut st = dabaifen::State::new(&setup).unwrap();
    dabaifen::random::play_out(&mut st, &mut dabaifen::random::RandomPolicy::new(Rng::from_seed(1)));
    let rec = dabaifen::record::match_record(
        &dabaifen::Variants::STANDARD,
        Some(3),
        vec![dabaifen::record::hand_record(&st)],
    );
    serde_json::from_str(&to_pretty_json(&rec)).unwrap()
}

/// The reader's verdict on a document: `Ok` or its error in words.
fn read(doc: &Value) -> Result<AnyRecord, String> {
    parse(&doc.to_string()).map_err(|e| e.to_string())
}

/// Replays a record that reads; true when it is clean.
fn replays_clean(rec: &AnyRecord) -> bool {
    match rec {
        AnyRecord::Madiao(r) => madiao::record::replay(r).is_clean(),
        AnyRecord::Dabaifen(r) => dabaifen::record::replay(r).is_clean(),
    }
}

fn refused(doc: &Value, path: &str) -> String {
    let e = read(doc).err().unwrap_or_else(|| panic!("{path}: accepted"));
    assert!(e.contains(path), "{path}: {e}");
    e
}

#[test]
fn point_1_null_is_a_wrong_type_outside_the_nullable_fields() {
    let base = madiao_record(5, "game_length=hands:2");
    assert!(replays_clean(&read(&base).unwrap()));
    for (path, set) in [
        ("players", Box::new(|d: &mut Value| d["players"] = Value::Null) as Box<dyn Fn(&mut Value)>),
        ("seed", Box::new(|d: &mut Value| d["seed"] = Value::Null)),
        ("table", Box::new(|d: &mut Value| d["table"] = Value::Null)),
        ("hands[0].stake", Box::new(|d: &mut Value| d["hands"][0]["stake"] = Value::Null)),
        ("hands[0].seed", Box::new(|d: &mut Value| d["hands"][0]["seed"] = Value::Null)),
        ("hands[0].commitment", Box::new(|d: &mut Value| d["hands"][0]["commitment"] = Value::Null)),
        (
            "hands[0].actions[0]",
            Box::new(|d: &mut Value| d["hands"][0]["actions"][0]["slough"] = Value::Null),
        ),
    ] {
        let mut d = base.clone();
        set(&mut d);
        let e = refused(&d, path);
        assert!(e.contains("null"), "{path}: {e}");
    }
    // Where the format allows it, null reads: an unfinished last hand's result, a next banker
    // to be drawn, an open deal's trump.
    let mut d = base.clone();
    d["hands"][1]["result"] = Value::Null;
    assert!(read(&d).is_ok());
    let mut d = base.clone();
    d["hands"][0]["result"]["next_banker"] = Value::Null;
    assert!(read(&d).is_ok(), "{:?}", read(&d).err());
    let mut d = dabaifen_record();
    assert!(replays_clean(&read(&d).unwrap()));
    d["hands"][0]["result"]["trump"] = Value::Null;
    assert!(read(&d).is_ok());
    let mut d = dabaifen_record();
    d["hands"][0]["actions"][0]["annul"] = Value::Null;
    refused(&d, "hands[0].actions[0]");
}

#[test]
fn point_2_seeds_and_stakes_have_their_ranges() {
    let base = madiao_record(5, "game_length=hands:1");
    // 2^64 is one above the range (written as text: no JSON value of ours holds it).
    let mut d = base.clone();
    d["seed"] = json!(0);
    d["hands"][0]["seed"] = json!(1);
    let text = d.to_string();
    assert!(parse(&text).is_ok());
    assert!(parse(&text.replace("\"seed\":0", "\"seed\":18446744073709551616")).is_err());
    assert!(parse(&text.replace("\"seed\":1", "\"seed\":18446744073709551616")).is_err());
    for (seed, ok) in [
        (json!(0), true),
        (json!(u64::MAX), true),
        (json!(-1), false),
        (json!(1.5), false),
        (json!("7"), false),
    ] {
        let mut d = base.clone();
        d["seed"] = seed.clone();
        assert_eq!(read(&d).is_ok(), ok, "record seed {seed}");
        let mut d = base.clone();
        d["hands"][0]["seed"] = seed.clone();
        assert_eq!(read(&d).is_ok(), ok, "hand seed {seed}: {:?}", read(&d).err());
    }
    for (stake, ok) in [(2, true), (1000, true), (0, false), (3, false), (1002, false), (-2, false)] {
        let mut d = base.clone();
        d["hands"][0]["stake"] = json!(stake);
        assert_eq!(read(&d).is_ok(), ok, "stake {stake}: {:?}", read(&d).err());
        if !ok {
            assert!(refused(&d, "hands[0].stake").contains("2 to 1000"));
        }
    }
}

#[test]
fn point_3_the_required_hand_fields_must_be_there() {
    let base = madiao_record(5, "game_length=hands:1");
    for field in ["banker", "deck", "actions"] {
        let mut d = base.clone();
        d["hands"][0].as_object_mut().unwrap().remove(field);
        let e = refused(&d, "hands[0]");
        assert!(e.contains(field), "{field}: {e}");
    }
    // `stake` and `result` may be left out.
    for field in ["stake", "result"] {
        let mut d = base.clone();
        d["hands"][0].as_object_mut().unwrap().remove(field);
        assert!(read(&d).is_ok(), "{field}");
    }
    let base = dabaifen_record();
    for field in ["starter", "first_deal", "open", "ranks", "deck", "actions"] {
        let mut d = base.clone();
        d["hands"][0].as_object_mut().unwrap().remove(field);
        let e = refused(&d, "hands[0]");
        assert!(e.contains(field), "{field}: {e}");
    }
}

#[test]
fn point_3_an_empty_actions_list_reads_for_a_hand_settled_before_play() {
    // A Madiao hand settled before any play (a meld or the four lowest) has `"actions": []`.
    let mut found = false;
    for seed in 0..200 {
        let d = madiao_record(seed, "game_length=hands:8");
        let hands = d["hands"].as_array().unwrap();
        if let Some(k) = hands.iter().position(|h| h["actions"].as_array().unwrap().is_empty()) {
            assert!(hands[k]["result"]["outcome"] != "played", "seed {seed}, hand {k}");
            assert!(replays_clean(&read(&d).unwrap()), "seed {seed}");
            // Left out, the empty list is an error.
            let mut bad = d.clone();
            bad["hands"][k].as_object_mut().unwrap().remove("actions");
            refused(&bad, &format!("hands[{k}]"));
            found = true;
            break;
        }
    }
    assert!(found, "a hand settled before play among 200 matches of 8 hands");
}

#[test]
fn point_4_drawn_belongs_to_a_declare_only() {
    let base = madiao_record(5, "game_length=hands:1");
    let mut d = base.clone();
    d["hands"][0]["actions"][0]["drawn"] = json!(3);
    let e = refused(&d, "hands[0].actions[0]");
    assert!(e.contains("drawn"), "{e}");
    let base = dabaifen_record();
    let actions = base["hands"][0]["actions"].as_array().unwrap();
    let play = actions.iter().position(|a| a.get("play").is_some()).unwrap();
    let mut d = base.clone();
    d["hands"][0]["actions"][play]["drawn"] = json!(48);
    let e = refused(&d, &format!("hands[0].actions[{play}]"));
    assert!(e.contains("`drawn` belongs to a `declare` only"), "{e}");
    // On a declare it is required and read.
    if let Some(k) = actions.iter().position(|a| a.get("declare").is_some()) {
        let mut d = base.clone();
        d["hands"][0]["actions"][k].as_object_mut().unwrap().remove("drawn");
        refused(&d, &format!("hands[0].actions[{k}]"));
    }
}

#[test]
fn point_5_a_redeal_is_not_one_of_hands_n() {
    // A match of `hands:1` whose first deal a long suit's holder redealt: the redeal is not the
    // match's one hand, so a second hand follows and ends it.
    let mut checked = 0;
    for seed in 0..3000 {
        let d = madiao_record(seed, "game_length=hands:1");
        let hands = d["hands"].as_array().unwrap();
        if hands[0]["result"]["outcome"] != "redeal" {
            continue;
        }
        assert!(hands.len() >= 2, "seed {seed}: the redeal did not end the match");
        assert_eq!(hands[0]["result"]["game_over"], false, "seed {seed}");
        assert_eq!(hands.last().unwrap()["result"]["game_over"], true, "seed {seed}");
        assert!(replays_clean(&read(&d).unwrap()), "seed {seed}");
        // A record that says the redeal ended the match is refused by replay.
        let mut bad = d.clone();
        bad["hands"][0]["result"]["game_over"] = json!(true);
        assert!(!replays_clean(&read(&bad).unwrap()), "seed {seed}");
        checked += 1;
        if checked == 3 {
            break;
        }
    }
    assert!(checked >= 1, "a redeal among 3000 seeds");
}

#[test]
fn point_6_a_deck_not_from_its_seed_replays_but_fails_verification() {
    let mut d = madiao_record(9, "game_length=hands:2");
    d["table"] = json!("t-x");
    for (k, h) in d["hands"].as_array_mut().unwrap().iter_mut().enumerate() {
        h["seed"] = json!(9);
        h["commitment"] = json!(cards::deal::commitment(9, k as u32, "t-x"));
    }
    let rec = read(&d).unwrap();
    assert!(verify_deals(&rec).is_verified(), "{:?}", verify_deals(&rec).problems);
    // Another seed for hand 0: replay (which plays the deck) is still clean; verification fails.
    d["hands"][0]["seed"] = json!(10);
    let rec = read(&d).unwrap();
    assert!(replays_clean(&rec));
    let faults: Vec<_> = verify_deals(&rec).problems.iter().map(|p| (p.hand, p.fault)).collect();
    assert_eq!(faults, vec![(0, DealFault::Deck), (0, DealFault::Commitment)]);
}
