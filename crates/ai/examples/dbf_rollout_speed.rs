//! How long a Da Bai Fen rollout takes from the first trick (a measurement, not a test).
use ai::dabaifen::heuristic::HeuristicBot;
use ai::dabaifen::pimc::{Params, Search};
use ai::dabaifen::pos::Pos;
use ai::{Bot, Budget};
use cards::Seat;
use dabaifen::{DealSetup, Phase, Rank, State, Variants, deck_from_seed};
use std::time::Instant;

fn main() {
    let mut positions = Vec::new();
    for seed in 0..300u64 {
        let setup = DealSetup {
            deck: deck_from_seed(9, seed),
            starter: Seat::wrapping((seed % 4) as usize),
            first_deal: false,
            open: false,
            ranks: [Rank::from_index((seed % 12) as u8), Rank::from_index((seed * 7 % 12) as u8)],
            variants: Variants::STANDARD,
        };
        let mut st = State::new(&setup).unwrap();
        let mut h = HeuristicBot::new();
        while st.phase() != Phase::Playing && st.phase() != Phase::Over {
            let s = st.to_move().unwrap();
            let a = h.choose(&st.view(s), &st.legal_actions());
            st.apply(a).unwrap();
        }
        if let Some(p) = Pos::from_state(&st) {
            positions.push(p);
        }
    }
    for tail in [0u32, 3, 4, 5] {
        let mut s = Search::new(Params::for_budget(Budget::default()));
        let t = Instant::now();
        let mut sum = 0u64;
        for _ in 0..10 {
            for p in &positions {
                s.solver.new_world();
                sum += u64::from(s.rollout(*p, tail));
            }
        }
        let n = positions.len() * 10;
        println!(
            "tail {tail}: {:.2} us per rollout from 12 cards ({n} rollouts, mean T {:.1})",
            t.elapsed().as_secs_f64() * 1e6 / n as f64,
            sum as f64 / n as f64
        );
    }
}
