//! Data-driven record tests: every record in `tests/data/` replays cleanly and its stored results
//! (checked by hand; see each file's `note` and `tests/data/README.md`) match the engine's; every
//! record in `tests/data/illegal/` fails with exactly the message in its `expect_error`.

use std::path::Path;

use cards::record::{parse_as, to_pretty_json};
use dabaifen::record::DabaifenHand;
use dabaifen::record::{hand_record, match_record, replay};

fn files(dir: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_legal_record_replays_and_matches_its_stored_results() {
    let files = files("tests/data");
    assert!(files.len() >= 8, "the data folder holds the hand-checked records");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let rec = parse_as::<DabaifenHand>(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let rep = replay(&rec);
        assert!(rep.error.is_none(), "{}: {}", f.display(), rep.error.unwrap());
        assert_eq!(rep.hands.len(), rec.hands.len());
        for (i, h) in rec.hands.iter().enumerate() {
            assert!(h.result.is_some(), "{} hand {i}: a stored result to compare", f.display());
        }
        assert!(rep.is_clean(), "{}: {:?}", f.display(), rep.differences());
        // Writing the replayed deals back gives a record that replays to the same results.
        let hands: Vec<DabaifenHand> = rep.hands.iter().map(|h| hand_record(&h.state)).collect();
        let again = match_record(rep.variants.as_ref().unwrap(), None, hands);
        let again = parse_as::<DabaifenHand>(&to_pretty_json(&again)).unwrap();
        let rep2 = replay(&again);
        assert!(rep2.is_clean(), "{}: rewritten: {:?} {:?}", f.display(), rep2.error, rep2.differences());
        for (a, b) in rep.hands.iter().zip(&rep2.hands) {
            assert_eq!(a.state.result(), b.state.result());
        }
    }
}

#[test]
fn every_illegal_record_fails_with_its_message() {
    let files = files("tests/data/illegal");
    assert!(files.len() >= 15);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let expect: serde_json::Value = serde_json::from_str(&text).unwrap();
        let expect =
            expect["expect_error"].as_str().unwrap_or_else(|| panic!("{}: expect_error", f.display()));
        let rec = parse_as::<DabaifenHand>(&text).unwrap();
        let rep = replay(&rec);
        let got = rep
            .error
            .as_ref()
            .map(|e| e.to_string())
            .unwrap_or_else(|| format!("no error; differences {:?}", rep.differences()));
        assert_eq!(got, expect, "{}", f.display());
    }
}

#[test]
fn stored_results_that_differ_are_reported_field_by_field() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hearts_and_8_trick_by_trick.json");
    let mut rec = parse_as::<DabaifenHand>(&std::fs::read_to_string(path).unwrap()).unwrap();
    let r = rec.hands[0].result.as_mut().unwrap();
    r.defender_points = Some(30);
    r.next_starter = cards::Seat::new(1).unwrap();
    let rep = replay(&rec);
    assert!(rep.error.is_none());
    assert!(!rep.is_clean());
    assert_eq!(
        rep.differences(),
        vec![
            "hand 0: result.defender_points: the record says 30, the replay gives 25".to_string(),
            "hand 0: result.next_starter: the record says 1, the replay gives 2".to_string(),
        ]
    );
}

#[test]
fn an_unfinished_last_deal_replays_without_a_result_where_its_actions_leave_it() {
    let files = files("tests/data/unfinished");
    assert_eq!(files.len(), 3);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let rec = parse_as::<DabaifenHand>(&text).unwrap();
        let rep = replay(&rec);
        assert!(rep.error.is_none(), "{}: {}", f.display(), rep.error.unwrap());
        assert!(rep.is_clean(), "{}: {:?}", f.display(), rep.differences());
        assert_eq!(rep.hands.len(), rec.hands.len());
        let last = &rep.hands.last().unwrap().state;
        assert!(last.result().is_none(), "{}", f.display());
        let phase = serde_json::to_value(last.phase()).unwrap();
        assert_eq!(phase, doc["expect_phase"], "{}", f.display());
        let to_move = last.to_move().map(|s| s.number());
        assert_eq!(serde_json::json!(to_move), doc["expect_to_move"], "{}", f.display());
        // Written back, the deal keeps its actions, has no result and replays to the same point.
        let again = hand_record(last);
        assert_eq!(again.actions.len(), rec.hands.last().unwrap().actions.len(), "{}", f.display());
        assert!(again.result.is_none());
        let mut rec2 = rec.clone();
        *rec2.hands.last_mut().unwrap() = again;
        let rep2 = replay(&rec2);
        assert!(rep2.is_clean(), "{}: {:?}", f.display(), rep2.error);
        let last2 = &rep2.hands.last().unwrap().state;
        assert_eq!((last2.phase(), last2.to_move()), (last.phase(), last.to_move()), "{}", f.display());
    }
}

#[test]
fn a_deal_cut_in_the_draw_stays_in_the_draw() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/unfinished/mid_draw.json");
    let rec = parse_as::<DabaifenHand>(&std::fs::read_to_string(path).unwrap()).unwrap();
    let st = &replay(&rec).hands[0].state;
    // Trump rank 8: seat 1 draws 8D as card 14, the first card anyone may show; nobody has
    // answered that poll, so the draw has not gone on to the kitty.
    assert_eq!(st.drawn(), 14);
    assert!(st.trump().is_none());
    assert!(st.kitty_turn().is_none());
}

#[test]
fn a_stored_result_on_an_unfinished_deal_is_a_difference() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/unfinished/mid_play.json");
    let mut rec = parse_as::<DabaifenHand>(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let done = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hearts_and_8_trick_by_trick.json");
    let done = parse_as::<DabaifenHand>(&std::fs::read_to_string(done).unwrap()).unwrap();
    rec.hands[0].result = done.hands[0].result.clone();
    let rep = replay(&rec);
    assert!(rep.error.is_none());
    assert_eq!(
        rep.differences(),
        vec![
            "hand 0: result: the record has a result but the deal is unfinished (seat 0 to play)".to_string()
        ]
    );
}

/// A record cut at the burial of a deal where nobody declared and nobody was asked to annul has
/// no action (passes are implicit): `replay_to_position` brings it to the burial, where
/// `replay_actions_unfinished` leaves it at the first draw poll.
#[test]
fn a_record_cut_at_a_burial_without_a_declaration_replays_to_the_burial() {
    use dabaifen::record::{replay_actions_unfinished, replay_to_position, setup_of};
    use dabaifen::{Action, HandSetup, Phase, Rank, State, Variants, deck_from_seed};
    let mut found = 0;
    for deal in 0..400u64 {
        let setup = HandSetup {
            deck: deck_from_seed(27, deal),
            starter: cards::Seat::wrapping((deal % 4) as usize),
            first_deal: false,
            open: false,
            ranks: [Rank::Two; 2],
            variants: Variants::STANDARD,
        };
        let mut st = State::new(&setup).unwrap();
        while matches!(st.phase(), Phase::Drawing | Phase::Annulling) {
            st.apply(Action::Pass).unwrap();
        }
        let rec = hand_record(&st);
        if st.phase() != Phase::Burying || !rec.actions.is_empty() {
            continue;
        }
        found += 1;
        let fresh = || State::new(&setup_of(&rec, Variants::STANDARD).unwrap()).unwrap();
        let mut old = fresh();
        replay_actions_unfinished(&mut old, &rec.actions).unwrap();
        assert_eq!(old.phase(), Phase::Drawing, "deal {deal}: the plain replay stops at the draw");
        let mut at = fresh();
        replay_to_position(&mut at, &rec.actions).unwrap();
        assert_eq!(at.phase(), Phase::Burying, "deal {deal}");
        assert_eq!(at.to_move(), st.to_move(), "deal {deal}");
        assert_eq!(at.legal_actions(), st.legal_actions(), "deal {deal}");
        assert_eq!(hand_record(&at), rec, "deal {deal}");
        if found == 3 {
            break;
        }
    }
    assert_eq!(found, 3, "deals of seed 27 where nobody declares nor annuls");
}
