//! The Da Bai Fen search model against the engine: the play-phase position replays the engine's
//! tricks exactly, and the exact solver equals a brute-force minimax over the engine's own legal
//! actions on random positions with at most four tricks left.

use ai::dabaifen::pos::Pos;
use ai::dabaifen::solver::{Solver, for_each_reduced_play};
use cards::{Rng, Seat};
use dabaifen::{Action, Cards, HandSetup, KittyMultiplier, Phase, Revoke, State, Variants, deal_from_seed};

/// A random legal action that is not a revoke.
fn random_action(st: &State, rng: &mut Rng) -> Action {
    let legal: Vec<Action> = st.legal_actions().into_iter().filter(|a| !is_revoke(st, *a)).collect();
    legal[rng.index(legal.len())]
}

fn is_revoke(st: &State, a: Action) -> bool {
    match a {
        Action::Play(set) if st.phase() == Phase::Playing && set.len() >= 2 => {
            let seat = st.to_move().unwrap();
            let leading = st.tricks().last().is_some_and(|t| t.count == 0);
            leading && !set.is_subset(st.top_cards(seat))
        }
        _ => false,
    }
}

fn variants(i: u64) -> Variants {
    let mut v = Variants::STANDARD;
    if i % 3 == 1 {
        v.kitty_multiplier = KittyMultiplier::PerCard;
    }
    if i % 5 == 2 {
        v.revoke = Revoke::Refuse;
    }
    v
}

/// A deal of seed `seed` played at random into the play phase (declaring, annulling and burying at
/// random too); `None` if it was annulled.
fn into_play(seed: u64, rng: &mut Rng) -> Option<State> {
    let (deck, _) = deal_from_seed(seed, 0);
    let setup = HandSetup {
        first_deal: false,
        ..HandSetup::first(deck, Seat::ALL[(seed % 4) as usize], variants(seed))
    };
    let mut st = State::new(&setup).unwrap();
    while st.phase() != Phase::Playing {
        st.to_move()?;
        let a = match st.phase() {
            // Declare now and then so that all suits and ranks turn up.
            Phase::Drawing if rng.below(8) == 0 => random_action(&st, rng),
            Phase::Drawing => Action::Pass,
            _ => random_action(&st, rng),
        };
        st.apply(a).unwrap();
    }
    Some(st)
}

#[test]
fn the_position_replays_the_engine_trick_by_trick() {
    let mut rng = Rng::from_seed(7);
    let mut deals = 0;
    for seed in 0..600 {
        let Some(mut st) = into_play(seed, &mut rng) else { continue };
        deals += 1;
        let mut pos = Pos::from_state(&st).unwrap();
        while st.to_move().is_some() {
            // The legal non-revoking plays agree.
            let mut mine = Vec::new();
            pos.for_each_play(|m| mine.push(m));
            mine.sort_unstable();
            let mut engine: Vec<u64> = st
                .legal_actions()
                .into_iter()
                .filter(|a| !is_revoke(&st, *a))
                .map(|a| match a {
                    Action::Play(s) => s.bits(),
                    _ => unreachable!(),
                })
                .collect();
            engine.sort_unstable();
            assert_eq!(mine, engine, "seed {seed}");
            for &m in &mine {
                assert!(pos.is_legal(m));
            }
            // Every reduced play is one of them.
            for_each_reduced_play(&pos, |m| assert!(mine.binary_search(&m).is_ok(), "seed {seed}"));
            let a = random_action(&st, &mut rng);
            let Action::Play(set) = a else { unreachable!() };
            st.apply(a).unwrap();
            pos.play(set.bits());
            if let Some(p) = Pos::from_state(&st) {
                assert_eq!(p.hands, pos.hands);
                assert_eq!(p.plays, pos.plays);
                assert_eq!((p.leader, p.count, p.def_points), (pos.leader, pos.count, pos.def_points));
            }
        }
        assert!(pos.is_over());
        let r = st.result().unwrap();
        assert_eq!(Some(pos.final_t()), r.defender_points, "seed {seed}");
    }
    assert!(deals > 500);
}

/// Brute-force minimax over the engine's legal actions (revokes excluded): the final `T`.
fn brute(st: &State, defenders: u8) -> u32 {
    let Some(seat) = st.to_move() else { return st.result().unwrap().defender_points.unwrap() };
    let values = st.legal_actions().into_iter().filter(|a| !is_revoke(st, *a)).map(|a| {
        let mut next = st.clone();
        next.apply_unchecked(a);
        brute(&next, defenders)
    });
    if seat.team() == defenders { values.max().unwrap() } else { values.min().unwrap() }
}

#[test]
fn the_exact_solver_equals_brute_force_minimax_on_1000_positions() {
    let mut rng = Rng::from_seed(11);
    let mut solver = Solver::new();
    let mut checked = 0;
    let mut by_tricks = [0u32; 5];
    let mut seed = 1000;
    while checked < 1000 {
        seed += 1;
        let Some(mut st) = into_play(seed, &mut rng) else { continue };
        // Play on at random to a position with at most four cards per hand, stopping at a random
        // play of the trick (so that positions inside tricks are checked too).
        let stop_in_trick = rng.below(4) as u8;
        let max_cards = 2 + rng.below(3);
        while let Some(pos) = Pos::from_state(&st) {
            if pos.cards_per_hand() <= max_cards && pos.count == stop_in_trick {
                break;
            }
            let a = random_action(&st, &mut rng);
            st.apply(a).unwrap();
        }
        let Some(pos) = Pos::from_state(&st) else { continue };
        let defenders = 1 - st.starter().team();
        let exact = brute(&st, defenders);
        solver.new_world();
        let v = solver.value(&pos, u64::MAX).unwrap();
        assert_eq!(pos.def_points + v as u32, exact, "seed {seed}: {:?}", Cards::from_bits(pos.hands[0]));
        // The value after each legal play agrees too (what PIMC asks for).
        if checked % 10 == 0 {
            for a in st.legal_actions().into_iter().filter(|a| !is_revoke(&st, *a)) {
                let Action::Play(set) = a else { unreachable!() };
                let mut next = st.clone();
                next.apply(a).unwrap();
                let e = brute(&next, defenders);
                let v = solver.value_after(&pos, set.bits(), u64::MAX).unwrap();
                assert_eq!(pos.def_points + v as u32, e, "seed {seed} after {set}");
            }
        }
        by_tricks[pos.cards_per_hand() as usize] += 1;
        checked += 1;
    }
    // Positions with 2, 3 and 4 cards per hand were all checked.
    assert!(by_tricks[2] > 100 && by_tricks[3] > 100 && by_tricks[4] > 100, "{by_tricks:?}");
}
