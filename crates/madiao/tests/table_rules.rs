//! The rules a table asks the engine (`State::face_up_kind`, the view's `captures`, each
//! trick's `leading` and `best`, `State::view_for`) agree with `apply` over random hands: a card
//! said to capture is recorded as a capture, the trick's leader so far is the engine's best seat
//! and its winner once complete, a spectator sees what every seat sees and no face-down card.

use cards::{Rng, Seat, Viewer};
use madiao::{Action, HandSetup, PlayKind, State, Variants, deck_from_seed};
use proptest::prelude::*;

fn check(st: &State) -> Result<(), TestCaseError> {
    // What a face-up play would be is what `apply` records.
    let legal = st.legal_actions();
    let mut captures = Vec::new();
    for a in &legal {
        let Action::Play(c) = *a else { continue };
        let said = st.face_up_kind(c);
        let mut after = st.clone();
        after.apply(*a).unwrap();
        let Some(p) = after.plays().last() else {
            return Err(TestCaseError::fail("a play left no trace"));
        };
        prop_assert_eq!(Some(p.kind), said, "playing {} face up", c);
        if p.kind != PlayKind::Discard {
            captures.push(c);
        }
    }
    if let Some(me) = st.to_move() {
        let mut mine = st.view(me).captures;
        mine.sort();
        captures.sort();
        prop_assert_eq!(mine, captures);
    }
    // The trick in progress: its leader and best card are the engine's best so far.
    let view = st.view(st.banker());
    for t in &view.tricks {
        if t.winner.is_some() {
            prop_assert_eq!(t.leading, t.winner);
        }
    }
    if let Some(t) = view.tricks.last().filter(|t| t.winner.is_none()) {
        let best = st.best_so_far();
        prop_assert_eq!(t.leading, best.map(|(s, _)| s));
        prop_assert_eq!(t.best, best.map(|(_, c)| c));
    }
    // A spectator sees what every seat sees of the table, and no face-down card before the end.
    let spec = st.view_for(Viewer::Spectator);
    prop_assert!(spec.hand.is_empty() && spec.legal_actions.is_empty() && spec.captures.is_empty());
    prop_assert!(spec.seat.is_none());
    for s in Seat::ALL {
        let mut v = st.view(s);
        prop_assert_eq!(v.seat, Some(s));
        v.seat = spec.seat;
        v.hand.clear();
        v.legal_actions.clear();
        v.captures.clear();
        for p in v.tricks.iter_mut().flat_map(|t| t.plays.iter_mut()) {
            if !p.face_up && !st.is_over() {
                p.card = None;
            }
        }
        prop_assert_eq!(&v, &spec, "the spectator sees what {} sees of the table", s);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_table_rules_agree_with_the_engine(seed in any::<u64>(), banker in 0u8..4, penalty in any::<bool>()) {
        let mut setup = HandSetup::new(Seat::ALL[usize::from(banker)], deck_from_seed(seed, 0));
        let mut v = Variants::STANDARD;
        v.set("faceup_discard", if penalty { "penalty" } else { "forbidden" }).unwrap();
        setup.variants = v;
        let mut st = State::new(setup).unwrap();
        let mut rng = Rng::from_seed(seed);
        loop {
            check(&st)?;
            let legal = st.legal_actions();
            if legal.is_empty() {
                break;
            }
            // Mostly face up, so that tricks see captures and discards.
            let ups: Vec<_> = legal.iter().filter(|a| matches!(a, Action::Play(_))).collect();
            let a = if !ups.is_empty() && rng.below(3) != 0 { *ups[rng.index(ups.len())] } else { legal[rng.index(legal.len())] };
            st.apply(a).unwrap();
        }
        prop_assert!(st.is_over());
    }
}

#[test]
fn who_may_force_a_redeal_is_who_the_engine_asks() {
    // Through every redeal question of many deals: the seat asked may force a redeal, and
    // after answering no longer may; a seat without a long suit never may.
    let mut asked = 0;
    for seed in 0..400u64 {
        let mut st =
            State::new(HandSetup::new(Seat::ALL[(seed % 4) as usize], deck_from_seed(seed, 2))).unwrap();
        while st.phase() == madiao::Phase::Redeal {
            let me = st.to_move().unwrap();
            asked += 1;
            for s in Seat::ALL {
                let long = st.long_suit_holders().any(|h| h == s);
                if !long {
                    assert!(!st.may_force_redeal(s), "seed {seed}: {s} has no long suit");
                }
            }
            assert!(st.may_force_redeal(me), "seed {seed}: {me} is asked");
            st.apply(Action::Redeal(false)).unwrap();
            assert!(!st.may_force_redeal(me), "seed {seed}: {me} has answered");
        }
        assert!(Seat::ALL.iter().all(|&s| !st.may_force_redeal(s)), "seed {seed}: the question is over");
    }
    assert!(asked > 0, "some deal asks the long-suit question");
}

#[test]
fn nothing_is_played_outside_the_play() {
    // Before the play (a redeal question) or after the hand, no face-up play has a kind.
    for seed in 0..300u64 {
        let st = State::new(HandSetup::new(Seat::ALL[0], deck_from_seed(seed, 1))).unwrap();
        let c = madiao::Card::all().next().unwrap();
        match st.phase() {
            madiao::Phase::Play => assert_eq!(st.face_up_kind(c), Some(PlayKind::Lead)),
            _ => assert_eq!(st.face_up_kind(c), None, "seed {seed}"),
        }
    }
}
