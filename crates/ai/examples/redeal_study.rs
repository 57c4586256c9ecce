//! Where should the heuristic force a long-suit redeal? For hands with a long suit, the payoff of
//! playing the hand (four heuristic players, nobody redeals) by the holder's hand strength, per
//! role, against what a fresh hand is worth (a measurement for docs/strength.md, not a test).
use ai::madiao::heuristic::{self, seen_from_knowledge};
use ai::madiao::know::Knowledge;
use ai::players::{Player, play_hand};
use ai::{Budget, Madiao};
use cards::Seat;
use madiao::{Action, HandSetup, Phase, State, Variants, deck_from_seed};

fn main() {
    let feng = std::env::args().nth(1).as_deref() == Some("feng");
    let v = if feng { Variants::FENG } else { Variants::STANDARD };
    let mut buckets: Vec<[(f64, u32); 2]> = vec![[(0.0, 0); 2]; 12];
    let mut fresh = [(0.0, 0u32); 2];
    for seed in 0..60_000u64 {
        let banker = Seat::wrapping((seed % 4) as usize);
        let mut st =
            State::new(HandSetup { variants: v, ..HandSetup::new(banker, deck_from_seed(seed, 7)) }).unwrap();
        let mut askers = Vec::new();
        while st.phase() == Phase::Redeal {
            let s = st.to_move().unwrap();
            let k = Knowledge::from_view(&st.view(s));
            askers.push((s, seen_from_knowledge(&k).hand_strength()));
            st.apply(Action::Redeal(false)).unwrap();
        }
        let mut players: [Player<Madiao>; 4] =
            std::array::from_fn(|_| Player::new("heuristic", 0, Budget::default()).unwrap());
        play_hand(&mut st, &mut players, |_, _| ()).unwrap();
        let pay = st.payoffs();
        for s in Seat::ALL {
            let r = usize::from(s != banker);
            fresh[r].0 += pay[s].to_f64();
            fresh[r].1 += 1;
        }
        for (s, strength) in askers {
            let r = usize::from(s != banker);
            let b = ((strength * 4.0) as usize).min(11);
            buckets[b][r].0 += pay[s].to_f64();
            buckets[b][r].1 += 1;
        }
    }
    println!(
        "fresh hand: banker {:+.3}, player {:+.3}",
        fresh[0].0 / f64::from(fresh[0].1),
        fresh[1].0 / f64::from(fresh[1].1)
    );
    for (i, b) in buckets.iter().enumerate() {
        let m = |x: (f64, u32)| if x.1 == 0 { f64::NAN } else { x.0 / f64::from(x.1) };
        println!(
            "strength {:.2}-{:.2}: banker {:+.3} (n {}), player {:+.3} (n {})",
            i as f64 / 4.0,
            (i + 1) as f64 / 4.0,
            m(b[0]),
            b[0].1,
            m(b[1]),
            b[1].1
        );
    }
    let _ = heuristic::REDEAL_BELOW;
}
