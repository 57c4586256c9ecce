//! Parsing, validation and replay never panic, whatever the input: arbitrary text, mutated bytes
//! of a real record, and structurally mutated records (decks, seats, cards, counts).

use cards::record::{envelope, parse_as};
use dabaifen::record::replay;
use dabaifen::record::{DabaifenAction, DabaifenHand};
use proptest::prelude::*;

const RECORD: &str = include_str!("data/hearts_and_8_trick_by_trick.json");
const MATCH: &str = include_str!("data/first_deal_annulment_open_deal.json");

fn replay_text(text: &str) {
    if let Ok(rec) = parse_as::<DabaifenHand>(text) {
        let rep = replay(&rec);
        if let Some(e) = rep.error {
            let msg = e.to_string();
            assert!(!msg.is_empty());
            if let Some(h) = e.hand {
                assert!(msg.starts_with(&format!("hand {h}")), "{msg}");
            }
        }
    }
    if let Ok(e) = envelope(text) {
        let _ = e.read::<DabaifenHand>();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text(s in "\\PC{0,300}") {
        replay_text(&s);
    }

    #[test]
    fn mutated_bytes(pos in 0usize..20000, byte in any::<u8>(), cut in 0usize..20000, which in any::<bool>()) {
        let src = if which { RECORD } else { MATCH };
        let mut bytes = src.as_bytes().to_vec();
        let p = pos % bytes.len();
        bytes[p] = byte;
        if cut % 3 == 0 {
            bytes.truncate(cut % bytes.len() + 1);
        }
        replay_text(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_structure(seed in any::<u64>(), edits in 1usize..6) {
        let mut rec = parse_as::<DabaifenHand>(if seed % 2 == 0 { RECORD } else { MATCH }).unwrap();
        let mut rng = cards::Rng::from_seed(seed);
        let codes = ["AS", "2H", "BJ", "SJ", "X9", "8H", "TC", "", "10H", "8D"];
        for _ in 0..edits {
            let h = rng.index(rec.hands.len());
            let hand = &mut rec.hands[h];
            match rng.below(9) {
                0 if !hand.deck.is_empty() => {
                    let (a, b) = (rng.index(hand.deck.len()), rng.index(hand.deck.len()));
                    hand.deck.swap(a, b);
                }
                1 => {
                    let i = rng.index(hand.deck.len().max(1));
                    if i < hand.deck.len() { hand.deck[i] = codes[rng.index(codes.len())].to_string(); }
                }
                2 => { hand.deck.truncate(rng.index(60)); }
                3 if !hand.actions.is_empty() => {
                    let i = rng.index(hand.actions.len());
                    hand.actions.remove(i);
                }
                4 if !hand.actions.is_empty() => {
                    let i = rng.index(hand.actions.len());
                    let j = rng.index(hand.actions.len());
                    hand.actions.swap(i, j);
                }
                5 => {
                    let seat = cards::Seat::wrapping(rng.index(4));
                    let card = codes[rng.index(codes.len())].to_string();
                    let a = match rng.below(4) {
                        0 => DabaifenAction::Declare { seat, card, drawn: rng.below(60) as u8 },
                        1 => DabaifenAction::Annul { seat, annul: rng.below(2) == 0 },
                        2 => DabaifenAction::Bury { seat, cards: vec![card; rng.index(8)] },
                        _ => DabaifenAction::Play { seat, cards: vec![card] },
                    };
                    let i = rng.index(hand.actions.len() + 1);
                    hand.actions.insert(i, a);
                }
                6 => { hand.starter = cards::Seat::wrapping(rng.index(4)); }
                7 => { hand.ranks[rng.index(2)] = ["2", "A", "K", "1", "T"][rng.index(5)].to_string(); }
                _ => { hand.open = !hand.open; hand.first_deal = rng.below(2) == 0; }
            }
        }
        let rep = replay(&rec);
        let _ = rep.differences();
    }
}
