//! The card tracker (`dabaifen::Tracker`) on constructed positions: the cards played by
//! effective suit, the voids shown by following (§8), the viewer's sure top cards and the cards
//! it has not seen (the declaration card, seen by all, is not among them); and, over random deals,
//! that a card it marks top is always top by the rules.

mod common;

use common::*;
use dabaifen::random::RandomPolicy;
use dabaifen::{Card, Cards, Phase, State, Tracker, deal_from_seed};

fn codes(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_starter_knows_the_burial_and_so_knows_more_top_cards() {
    let st = kitty_holds_the_strong_trumps();
    let t0 = Tracker::from_view(&st.view(seat(0))).unwrap();
    // BJ SJ 8H are buried, and seat 0 knows it: 8S 8C (equal to 8D) are top.
    assert_eq!(codes(&t0.top), "8S 8C AS KS AD KD QD JD");
    assert_eq!(Cards::from_iter(t0.top.iter().copied()), st.top_cards(seat(0)));
    assert_eq!(t0.unseen().len(), 54 - 12 - 6);
    // Seat 1 does not know the burial: its 8D is top by the rules, but it cannot be sure.
    let t1 = Tracker::from_view(&st.view(seat(1))).unwrap();
    assert!(st.top_cards(seat(1)).contains(card("8D")));
    assert!(!t1.is_top(card("8D")));
    assert_eq!(codes(&t1.top), "AC KC QC JC TC");
    assert_eq!(t1.unseen().len(), 54 - 12);
    let trumps = &t1.suits[0];
    assert_eq!(trumps.suit, "trumps");
    assert_eq!(codes(&trumps.unseen[..3]), "BJ SJ 8H");
}

#[test]
fn a_follower_short_of_the_led_suit_shows_a_void() {
    let mut st = kitty_holds_the_strong_trumps();
    for p in ["8S 8C", "8D QS", "AH KH", "TD 9C"] {
        play(&mut st, p).unwrap();
    }
    let t = Tracker::from_view(&st.view(seat(2))).unwrap();
    // Seat 1 put in one trump of two, seat 3 none: both hold no more trumps. Seat 2 followed fully.
    let voids: Vec<(u8, &str)> = t.voids.iter().map(|v| (v.seat.number(), v.suit.as_str())).collect();
    assert_eq!(voids, [(1, "trumps"), (3, "trumps")]);
    let by = |s: &str| t.suits.iter().find(|x| x.suit == s).unwrap();
    assert_eq!(codes(&by("trumps").played), "8S 8D 8C AH KH");
    assert_eq!(codes(&by("S").played), "QS");
    assert_eq!(codes(&by("D").played), "TD");
    assert_eq!(codes(&by("C").played), "9C");
    assert!(by("H").played.is_empty(), "hearts are trumps");
    // Seat 2's QH: AH KH and the off-suit 8s are played, but BJ SJ 8H are unseen to it.
    assert!(!t.is_top(card("QH")));
}

#[test]
fn before_trumps_are_fixed_there_is_no_tracker() {
    let (deck, _) = deal_from_seed(3, 0);
    let m = dabaifen::Match::new(dabaifen::Variants::STANDARD, seat(0));
    let st = State::new(&m.setup(deck)).unwrap();
    assert!(Tracker::from_view(&st.view(seat(1))).is_none());
}

#[test]
fn over_random_deals_a_marked_top_card_is_top_and_unseen_cards_are_elsewhere() {
    for seed in 0..40 {
        let (deck, rng) = deal_from_seed(seed, 0);
        let m = dabaifen::Match::new(dabaifen::Variants::STANDARD, seat((seed % 4) as u8));
        let mut st = State::new(&m.setup(deck)).unwrap();
        let mut policy = RandomPolicy::new(rng);
        while st.to_move().is_some() {
            if st.phase() == Phase::Playing {
                for s in cards::Seat::ALL {
                    let t = Tracker::from_view(&st.view(s)).unwrap();
                    let top = Cards::from_iter(t.top.iter().copied());
                    assert!(top.is_subset(st.top_cards(s)), "seed {seed} {s}: {top} vs {}", st.top_cards(s));
                    let unseen = Cards::from_iter(t.unseen());
                    assert!(!unseen.intersects(st.hand(s)), "seed {seed}");
                    let others = cards::Seat::ALL
                        .iter()
                        .filter(|&&o| o != s)
                        .fold(Cards::EMPTY, |m, &o| m | st.hand(o));
                    // The other hands are unseen, but for the declaration card (seen by all).
                    let shown = dabaifen::track::shown_held(&st.view(s));
                    assert!(!shown.intersects(unseen), "seed {seed}: the shown card counted unseen");
                    assert!(others.is_subset(unseen | shown), "seed {seed}: other hands are unseen");
                    for v in &t.voids {
                        let tables = dabaifen::Tables::of(st.trump().unwrap());
                        assert!(
                            !st.hand(v.seat)
                                .iter()
                                .any(|c| dabaifen::track::suit_name(tables.suit_of(c)) == v.suit),
                            "seed {seed}: {} shown void in {} but holds one",
                            v.seat,
                            v.suit
                        );
                    }
                }
            }
            st.apply(policy.choose(&st)).unwrap();
        }
    }
}

#[test]
fn who_would_lead_the_trick_after_a_play() {
    let mut st = kitty_holds_the_strong_trumps();
    play(&mut st, "AS").unwrap();
    let v = st.view(seat(1));
    // Seat 1 follows spades: QS does not beat AS; seat 0 still leads. No points yet.
    assert_eq!(dabaifen::track::leading_with(&v, cards("QS")), Some(seat(0)));
    assert_eq!(dabaifen::track::points_in_trick(&v), 0);
    play(&mut st, "QS").unwrap();
    let v = st.view(seat(2));
    // Seat 2 has no spade: a trump wins, a plain card does not.
    assert_eq!(dabaifen::track::leading_with(&v, cards("2H")), Some(seat(2)));
    assert_eq!(dabaifen::track::leading_with(&v, cards("AH")), Some(seat(2)));
    play(&mut st, "KH").unwrap();
    let v = st.view(seat(3));
    assert_eq!(dabaifen::track::leading_with(&v, cards("9C")), Some(seat(2)));
    assert_eq!(dabaifen::track::points_in_trick(&v), 10, "KH");
    // Leading: no trick in progress.
    play(&mut st, "9C").unwrap();
    assert_eq!(dabaifen::track::leading_with(&st.view(seat(2)), cards("AH")), None);
}

#[test]
fn the_declaration_card_is_seen_but_still_out_until_it_is_played() {
    // Seat 0 shows 8S (§4): spades are trumps and the 8S goes back into its hand.
    let s = setup(
        0,
        ['8', '2'],
        [
            "8S 8C AS KS 5S 4S 3S 2S AD KD QD JD",
            "8D BJ SJ TS 9S 7S 6S AC KC QC JC TC",
            "AH KH QH JH TH 9H 7H 6H 5H 4H 3H 2H",
            "TD 9D 7D 6D 5D 4D 3D 2D 9C 7C 6C 5C",
        ],
        "8H QS JS 2C 3C 4C",
    );
    let mut st = playing(&s, 0, "8S");
    let t1 = Tracker::from_view(&st.view(seat(1))).unwrap();
    // Everyone saw the 8S: it is not unseen to seat 1...
    assert!(!t1.unseen().contains(&card("8S")), "{}", codes(&t1.unseen()));
    assert_eq!(t1.unseen().len(), 54 - 12 - 1);
    assert_eq!(dabaifen::track::shown_held(&st.view(seat(1))), cards("8S"));
    // ...but seat 0 still holds it, so seat 1's 8D (below it) is not top; its jokers are.
    assert!(!t1.is_top(card("8D")));
    assert_eq!(codes(&t1.top), "BJ SJ AC KC QC JC TC");
    assert_eq!(Cards::from_iter(t1.top.iter().copied()) - st.top_cards(seat(1)), Cards::EMPTY);
    // To its owner it is a card of its hand, as before.
    let t0 = Tracker::from_view(&st.view(seat(0))).unwrap();
    assert!(!t0.unseen().contains(&card("8S")));
    assert_eq!(dabaifen::track::shown_held(&st.view(seat(0))), Cards::EMPTY);
    // Once played it is a played card, and nothing is held back any more.
    play(&mut st, "8S").unwrap();
    let v1 = st.view(seat(1));
    assert_eq!(dabaifen::track::shown_held(&v1), Cards::EMPTY);
    let t1 = Tracker::from_view(&v1).unwrap();
    assert_eq!(codes(&t1.suits[0].played), "8S");
    assert_eq!(t1.unseen().len(), 54 - 12 - 1);
}
