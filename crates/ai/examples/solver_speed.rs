//! How long the Madiao solver takes on random positions by tricks left (a measurement, not a test).
use ai::madiao::pos::from_state;
use ai::madiao::solver::{Objective, Solver};
use cards::{Rng, Seat};
use madiao::{Action, HandSetup, Phase, State, deck_from_seed};
use std::time::Instant;

fn main() {
    for left in 3..=std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5u8) {
        let mut solver = Solver::new(std::env::var("TT").ok().and_then(|v| v.parse().ok()).unwrap_or(15));
        let mut times = Vec::new();
        let mut nodes = Vec::new();
        for seed in 0..200u64 {
            let mut st =
                State::new(HandSetup::new(Seat::wrapping((seed % 4) as usize), deck_from_seed(seed, 2)))
                    .unwrap();
            while st.phase() == Phase::Redeal {
                st.apply(Action::Redeal(false)).unwrap();
            }
            if st.is_over() {
                continue;
            }
            let mut rng = Rng::from_seed(seed);
            while !st.is_over() && 8 - st.trick_number() > left {
                let legal: Vec<Action> = st
                    .legal_actions()
                    .into_iter()
                    .filter(|a| !matches!(a, Action::Play(_)) || st.cards_in_trick() == 0 || rng.chance(0.3))
                    .collect();
                let legal = if legal.is_empty() { st.legal_actions() } else { legal };
                st.apply(legal[rng.index(legal.len())]).unwrap();
            }
            if st.is_over() {
                continue;
            }
            let (ctx, pos) = from_state(&st).unwrap();
            let obj = Objective::sum_of(1 << st.banker().index());
            let n0 = solver.nodes;
            let t = Instant::now();
            let _ = solver.move_values(&ctx, &pos, obj);
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            nodes.push(solver.nodes - n0);
            if times.len() >= (if left >= 7 { 20 } else { 100 }) {
                break;
            }
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        nodes.sort();
        let n = times.len();
        println!(
            "{left} tricks left: {n} positions, move_values median {:.3} ms, p90 {:.3} ms, max {:.3} ms; nodes median {}",
            times[n / 2],
            times[n * 9 / 10],
            times[n - 1],
            nodes[n / 2]
        );
    }
}
