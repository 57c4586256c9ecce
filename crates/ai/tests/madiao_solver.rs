//! The Madiao solver against brute force: on random positions with at most four tricks left, the
//! exact alpha-beta solver (equivalent cards merged, dominated face-up discards left out, a
//! transposition table) gives the same value as a plain minimax over every legal action of the
//! engine, settled by the engine — for the position and for each move at its root.

use ai::madiao::pos::{Mv, from_state};
use ai::madiao::solver::{Objective, Solver};
use cards::{Rng, Seat};
use madiao::{Action, HandSetup, Phase, State, Variants, deck_from_seed};

/// Plain minimax over the engine's legal actions: the maximizing seats' summed payoff.
fn brute(st: &State, obj: Objective) -> i32 {
    match st.to_move() {
        None => obj.value(&st.payoffs().0.map(|h| h.0)),
        Some(s) => {
            let max = obj.maximizes(s.index() as u8);
            let mut best = if max { i32::MIN } else { i32::MAX };
            for a in st.legal_actions() {
                let mut child = st.clone();
                child.apply_unchecked(a);
                let v = brute(&child, obj);
                best = if max { best.max(v) } else { best.min(v) };
            }
            best
        }
    }
}

fn variants(i: u64) -> Variants {
    use madiao::variants::*;
    match i % 4 {
        0 => Variants::STANDARD,
        1 => Variants::FENG,
        2 => {
            let mut v = Variants::FENG;
            v.bonus_stacking = BonusStacking::LargestOnly;
            v.slam = Slam::Adds;
            v.banker_shortfall = BankerShortfall::Winners;
            v
        }
        _ => {
            let mut v = Variants::STANDARD;
            v.faceup_discard = FaceupDiscard::Forbidden;
            v.hm_bonus_tricks = HmBonusTricks::AtLeast2;
            v
        }
    }
}

fn is_capture(st: &State, a: Action) -> bool {
    match a {
        Action::Play(c) => {
            st.cards_in_trick() == 0
                || (st.led_suit() == Some(c.suit()) && st.best_so_far().is_some_and(|(_, b)| c > b))
        }
        _ => false,
    }
}

/// A random position with `left` tricks to play and `in_trick` cards of the current trick down.
fn position(seed: u64, left: u8, in_trick: u8) -> Option<State> {
    let v = variants(seed);
    let mut st = State::new(HandSetup {
        variants: v,
        ..HandSetup::new(Seat::wrapping((seed % 4) as usize), deck_from_seed(seed, 1))
    })
    .ok()?;
    while st.phase() == Phase::Redeal {
        st.apply(Action::Redeal(false)).ok()?;
    }
    let mut rng = Rng::from_seed(seed);
    while !(st.is_over() || (8 - st.trick_number() == left && st.cards_in_trick() == in_trick)) {
        let legal = st.legal_actions();
        // Captures half the time, so that tricks spread over the seats.
        let caps: Vec<Action> = legal.iter().copied().filter(|&a| is_capture(&st, a)).collect();
        let a = if !caps.is_empty() && rng.chance(0.5) {
            caps[rng.index(caps.len())]
        } else {
            legal[rng.index(legal.len())]
        };
        st.apply(a).ok()?;
    }
    (!st.is_over()).then_some(st)
}

#[test]
fn solver_equals_brute_force_on_1200_positions() {
    let mut solver = Solver::new(14);
    let mut checked = 0;
    let mut root_moves = 0;
    let mut by_left = [0u32; 5];
    let mut seed = 0u64;
    while checked < 1200 {
        seed += 1;
        // Up to 4 tricks left; with face-up discards allowed (a larger tree) up to 3.
        let v = variants(seed);
        let max_left: u64 = if v.faceup_discard == madiao::variants::FaceupDiscard::Penalty { 3 } else { 4 };
        let left = 1 + (seed / 4 % max_left) as u8;
        // Four tricks left from the middle of a trick (a brute force from a trick's start takes
        // too long for the test suite).
        let in_trick = if left == 4 { 2 + (seed / 16 % 2) as u8 } else { (seed / 16 % 4) as u8 };
        let Some(st) = position(seed, left, in_trick) else { continue };
        let (ctx, pos) = from_state(&st).unwrap();
        // Objectives: the banker against the players, one player against everyone, and a weighted one.
        let banker = st.banker().index() as u8;
        let player = (banker + 1 + (seed % 3) as u8) & 3;
        for obj in [
            Objective::sum_of(1 << banker),
            Objective::sum_of(1 << player),
            // A player weighing his own payoff double his fellows', with them against the banker.
            Objective {
                max: 0xf & !(1 << banker),
                weights: std::array::from_fn(|s| {
                    if s as u8 == banker {
                        0
                    } else if s as u8 == player {
                        2
                    } else {
                        1
                    }
                }),
            },
        ] {
            // Brute force: each legal action's value, and the position's as their best.
            let max = obj.maximizes(st.to_move().unwrap().index() as u8);
            let children: Vec<(Action, i32)> = st
                .legal_actions()
                .into_iter()
                .map(|a| {
                    let mut child = st.clone();
                    child.apply(a).unwrap();
                    (a, brute(&child, obj))
                })
                .collect();
            let want = if max {
                children.iter().map(|c| c.1).max().unwrap()
            } else {
                children.iter().map(|c| c.1).min().unwrap()
            };
            assert_eq!(solver.value(&ctx, &pos, obj), want, "seed {seed}, {left} tricks left, {obj:?}");
            let values = solver.move_values(&ctx, &pos, obj);
            for (a, v_brute) in children {
                let mv = Mv::from_action(a).unwrap();
                if let Some(v) = Solver::lookup(&ctx, &pos, &values, mv) {
                    assert_eq!(v, v_brute, "seed {seed}: move {a}");
                    root_moves += 1;
                }
            }
        }
        by_left[left as usize] += 1;
        checked += 1;
    }
    assert!(root_moves > 5000, "{root_moves}");
    assert!(by_left[1..].iter().all(|&n| n > 100), "{by_left:?}");
}
