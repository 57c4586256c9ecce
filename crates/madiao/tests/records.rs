//! `yezi/1` records: the hand-checked files under `tests/data/` replay with their stored results;
//! the files under `tests/data/illegal/` fail with their exact messages; a simulated match written
//! as a record replays cleanly; and nothing panics on arbitrary or mutated input.

use std::path::{Path, PathBuf};

use cards::record::{self, GameKind, Record};
use madiao::record::{MadiaoAction, MadiaoHand};
use madiao::record::{parse_deck, replay, to_record};
use madiao::{Variants, random};
use proptest::prelude::*;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

fn parse_madiao(text: &str) -> Result<Record<MadiaoHand>, String> {
    let e = record::envelope(text).map_err(|e| e.to_string())?;
    if e.game != GameKind::Madiao {
        return Err("not a madiao record".into());
    }
    e.read().map_err(|e| e.to_string())
}

#[test]
fn hand_checked_records_replay_with_their_stored_results() {
    let files = json_files(&data_dir());
    assert!(files.len() >= 6, "{files:?}");
    let (mut hands, mut played, mut presets) = (0, 0, std::collections::BTreeSet::new());
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let rec = parse_madiao(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        presets.insert(rec.rules.clone());
        let rep = replay(&rec);
        assert!(rep.error.is_none(), "{}: {}", f.display(), rep.error.unwrap());
        let diffs: Vec<String> = rep.differences().collect();
        assert!(diffs.is_empty(), "{}: {diffs:?}", f.display());
        for (i, h) in rec.hands.iter().enumerate() {
            assert!(h.result.is_some(), "{} hand {i} has no stored result to check", f.display());
            hands += 1;
            if h.actions.iter().filter(|a| !matches!(a, MadiaoAction::Redeal { .. })).count() == 32 {
                played += 1;
            }
        }
    }
    assert!(hands >= 15 && played >= 7, "{hands} hands, {played} played out trick by trick");
    assert!(presets.contains("standard") && presets.contains("feng"));
}

#[test]
fn illegal_records_fail_with_their_exact_messages() {
    let files = json_files(&data_dir().join("illegal"));
    assert!(files.len() >= 20);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
        let expect = raw.get("expect_error").and_then(|v| v.as_str());
        let diffs: Option<Vec<String>> = raw
            .get("expect_differences")
            .map(|v| v.as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect());
        let got = match parse_madiao(&text) {
            Err(e) => e,
            Ok(rec) => {
                let rep = replay(&rec);
                if let Some(want) = &diffs {
                    assert!(rep.error.is_none(), "{}: {:?}", f.display(), rep.error);
                    let got: Vec<String> = rep.differences().collect();
                    assert_eq!(&got, want, "{}", f.display());
                    assert!(!rep.is_clean());
                    continue;
                }
                rep.error.map(|e| e.to_string()).unwrap_or_else(|| "(no error)".into())
            }
        };
        assert_eq!(Some(got.as_str()), expect, "{}", f.display());
    }
}

#[test]
fn deck_errors_name_the_place() {
    let mut codes: Vec<String> = madiao::canonical_deck().iter().map(|c| c.code().to_string()).collect();
    assert!(parse_deck(&codes).is_ok());
    codes[5] = "X9".into();
    assert_eq!(parse_deck(&codes).unwrap_err().to_string(), "deck[5]: unknown card code \"X9\"");
    codes[5] = codes[0].clone();
    assert_eq!(
        parse_deck(&codes).unwrap_err().to_string(),
        "deck[5]: card W9 appears twice (also at deck[0])"
    );
    codes.push("TW".into());
    assert_eq!(parse_deck(&codes).unwrap_err().to_string(), "deck: 41 cards, a Madiao deck has 40");
}

/// The simulated hands cut into matches: a new match begins after each `game_over` hand.
fn matches_of(hands: &[random::SimHand]) -> Vec<&[random::SimHand]> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, h) in hands.iter().enumerate() {
        if h.new_match && i > start {
            out.push(&hands[start..i]);
            start = i;
        }
    }
    if start < hands.len() {
        out.push(&hands[start..]);
    }
    out
}

#[test]
fn each_simulated_match_is_a_record_that_replays_cleanly() {
    for (rules, v) in [("standard", Variants::STANDARD), ("feng", Variants::FENG)] {
        let mut v2 = v;
        v2.set("slam", "adds").unwrap();
        let mut sim = random::Simulator::new(5, v2, 2, Default::default());
        let hands: Vec<random::SimHand> = (0..300).map(|_| sim.play_hand().unwrap()).collect();
        let matches = matches_of(&hands);
        assert!(matches.len() > 10);
        for (m, hs) in matches.iter().enumerate() {
            // Every match but the last ends with its game_over hand, and only that one.
            let last = m + 1 == matches.len();
            let overs: Vec<bool> = hs.iter().map(|h| h.result.game_over).collect();
            assert!(overs[..overs.len() - 1].iter().all(|o| !o));
            assert!(last || overs[overs.len() - 1]);
            let rec = to_record(rules, &v2, Some(5), hs.iter().map(|h| &h.state)).unwrap();
            assert_eq!(rec.variants.0.get("slam").map(String::as_str), Some("adds"));
            let text = record::to_pretty_json(&rec);
            let back = parse_madiao(&text).unwrap();
            assert_eq!(back, rec);
            let rep = replay(&back);
            assert!(rep.is_clean(), "{:?} {:?}", rep.error, rep.differences().collect::<Vec<_>>());
            let replayed: Vec<_> = rep.hands.iter().map(|h| h.result.clone().unwrap()).collect();
            let results: Vec<_> = hs.iter().map(|h| h.result.clone()).collect();
            assert_eq!(replayed, results);
        }
    }
}

#[test]
fn a_record_of_two_matches_is_refused() {
    let mut sim = random::Simulator::new(5, Variants::STANDARD, 2, Default::default());
    let hands: Vec<random::SimHand> = (0..300).map(|_| sim.play_hand().unwrap()).collect();
    let matches = matches_of(&hands);
    let two = [matches[0], matches[1]].concat();
    let rec = to_record("standard", &Variants::STANDARD, Some(5), two.iter().map(|h| &h.state)).unwrap();
    let err = replay(&rec).error.expect("a hand after game_over is an error").to_string();
    let n = matches[0].len();
    assert_eq!(
        err,
        format!("hand {n}: the match ended with hand {} (game_over); a record holds one match", n - 1)
    );
}

#[test]
fn a_forced_redeal_implies_the_declines_before_it() {
    // In every simulated hand where a seat forced a redeal after other holders declined, dropping
    // the written declines leaves a record that replays to the same results.
    let mut sim = random::Simulator::new(8, Variants::STANDARD, 2, Default::default());
    let hands: Vec<random::SimHand> = (0..400).map(|_| sim.play_hand().unwrap()).collect();
    let mut dropped = 0;
    for hs in matches_of(&hands) {
        let rec = to_record("standard", &Variants::STANDARD, None, hs.iter().map(|h| &h.state)).unwrap();
        let mut implied = rec.clone();
        for h in &mut implied.hands {
            if h.actions.iter().any(|a| matches!(a, MadiaoAction::Redeal { redeal: true, .. })) {
                let before = h.actions.len();
                h.actions.retain(|a| !matches!(a, MadiaoAction::Redeal { redeal: false, .. }));
                dropped += before - h.actions.len();
            }
        }
        let rep = replay(&implied);
        assert!(rep.is_clean(), "{:?}", rep.error);
        let replayed: Vec<_> = rep.hands.iter().map(|h| h.result.clone().unwrap()).collect();
        let results: Vec<_> = hs.iter().map(|h| h.result.clone()).collect();
        assert_eq!(replayed, results);
    }
    assert!(dropped > 0, "some forced redeal followed a written decline");
}

#[test]
fn under_hands_1_a_redeal_does_not_end_the_match() {
    let mut v = Variants::STANDARD;
    v.set("game_length", "hands:1").unwrap();
    let mut sim = random::Simulator::new(3, v, 2, Default::default());
    let hands: Vec<random::SimHand> = (0..400).map(|_| sim.play_hand().unwrap()).collect();
    let mut redeals = 0;
    for hs in matches_of(&hands) {
        // A match is redeals (never game over) and then one settled hand that ends it.
        let (last, before) = hs.split_last().unwrap();
        for h in before {
            assert_eq!(h.result.outcome, madiao::record::MadiaoOutcome::Redeal);
            assert!(!h.result.game_over);
            redeals += 1;
        }
        assert!(last.result.outcome != madiao::record::MadiaoOutcome::Redeal || !last.result.game_over);
    }
    assert!(redeals > 0, "the seed gives at least one redeal");
}

#[test]
fn implicit_declines_and_explicit_ones_replay_alike() {
    // Drop every `redeal: false` from simulated matches: the plays that follow decline implicitly.
    let mut sim = random::Simulator::new(8, Variants::STANDARD, 2, Default::default());
    let hands: Vec<random::SimHand> = (0..200).map(|_| sim.play_hand().unwrap()).collect();
    let mut dropped = 0;
    for hs in matches_of(&hands) {
        let rec = to_record("standard", &Variants::STANDARD, Some(8), hs.iter().map(|h| &h.state)).unwrap();
        let mut implicit = rec.clone();
        for h in &mut implicit.hands {
            let forced = h.actions.iter().any(|a| matches!(a, MadiaoAction::Redeal { redeal: true, .. }));
            if !forced {
                let before = h.actions.len();
                h.actions.retain(|a| !matches!(a, MadiaoAction::Redeal { redeal: false, .. }));
                dropped += before - h.actions.len();
            }
        }
        let rep = replay(&implicit);
        assert!(rep.is_clean(), "{:?}", rep.error);
        let replayed: Vec<_> = rep.hands.iter().map(|h| h.result.clone().unwrap()).collect();
        let results: Vec<_> = hs.iter().map(|h| h.result.clone()).collect();
        assert_eq!(replayed, results);
    }
    assert!(dropped > 10);
}

fn sample_record_text() -> String {
    std::fs::read_to_string(data_dir().join("standard_knock_then_meld.json")).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn replay_never_panics_on_mutated_text(pos in 0usize..6000, byte in any::<u8>(), cut in 0usize..6000) {
        let mut bytes = sample_record_text().into_bytes();
        let p = pos % bytes.len();
        bytes[p] = byte;
        bytes.truncate(cut.max(p + 1));
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(rec) = parse_madiao(&text) {
            let rep = replay(&rec);
            let _ = rep.is_clean();
        }
    }

    #[test]
    fn replay_never_panics_on_random_actions(
        seed in any::<u64>(),
        banker in 0u8..4,
        stake in 0u32..7,
        acts in prop::collection::vec((0u8..4, 0u8..4, 0usize..42), 0..60),
        swap in prop::option::of((0usize..40, 0usize..40)),
    ) {
        let mut deck: Vec<String> = madiao::deck_from_seed(seed, 0).iter().map(|c| c.code().to_string()).collect();
        if let Some((a, b)) = swap {
            deck[a] = deck[b].clone();
        }
        let codes: Vec<String> = madiao::Card::all().map(|c| c.code().to_string()).chain(["X1".to_string(), "".to_string()]).collect();
        let actions = acts
            .iter()
            .map(|&(seat, kind, c)| {
                let seat = cards::Seat::new(seat).unwrap();
                let card = codes[c % codes.len()].clone();
                match kind {
                    0 | 1 => MadiaoAction::Play { seat, card },
                    2 => MadiaoAction::Slough { seat, card },
                    _ => MadiaoAction::Redeal { seat, redeal: c % 2 == 0 },
                }
            })
            .collect();
        let hand = MadiaoHand {
            banker: cards::Seat::new(banker).unwrap(),
            stake,
            seed: None,
            commitment: None,
            deck,
            actions,
            result: None,
        };
        let mut rec = Record::new(cards::record::GameKind::Madiao, "standard");
        rec.hands = vec![hand.clone(), hand];
        let rep = replay(&rec);
        // Whatever happened, the error (if any) names a hand.
        if let Some(e) = &rep.error {
            prop_assert!(e.hand.is_some(), "{}", e);
        }
    }
}
