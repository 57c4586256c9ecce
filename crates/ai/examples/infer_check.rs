//! How close sampled worlds are to the true deal, for inference settings (a study tool): the
//! share of hidden cards placed where they really are, by trick, at the start of tricks of
//! heuristic-only deals, for each `expert:` setting given.
use ai::dabaifen::expert::{ExpertBot, Params};
use ai::dabaifen::heuristic::HeuristicBot;
use ai::dabaifen::know::Knowledge;
use ai::{Bot, Budget};
use cards::Seat;
use dabaifen::{HandSetup, Phase, Rank, State, Variants, deck_from_seed};

fn main() {
    let specs: Vec<String> = std::env::args().skip(1).collect();
    let deals: u64 = std::env::var("DEALS").ok().and_then(|v| v.parse().ok()).unwrap_or(60);
    for spec in &specs {
        let mut p = Params::for_budget(Budget::default());
        for kv in spec.split(',').filter(|s| !s.is_empty()) {
            let (k, v) = kv.split_once('=').unwrap();
            p.set(k, v).unwrap();
        }
        let mut acc = [(0.0f64, 0u32); 12];
        let t0 = std::time::Instant::now();
        for seed in 0..deals {
            let setup = HandSetup {
                deck: deck_from_seed(9, seed),
                starter: Seat::wrapping((seed % 4) as usize),
                first_deal: false,
                open: false,
                ranks: [Rank::from_index((seed % 12) as u8), Rank::from_index((seed * 7 % 12) as u8)],
                variants: Variants::STANDARD,
            };
            let mut st = State::new(&setup).unwrap();
            let mut h = HeuristicBot::new();
            let mut e = ExpertBot::with_params(seed, p);
            while let Some(s) = st.to_move() {
                if st.phase() == Phase::Playing && st.tricks().last().unwrap().count == 0 {
                    let trick = st.tricks().len() - 1;
                    let view = st.view(s);
                    let k = Knowledge::from_view(&view, &st.legal_actions()).unwrap();
                    let worlds = e.worlds(&view, &k, 40);
                    let hidden_in_hands: u64 =
                        Seat::ALL.iter().filter(|&&o| o != s).fold(0, |m, &o| m | st.hand(o).bits());
                    let n = hidden_in_hands.count_ones() as f64;
                    for w in &worlds {
                        let right: u32 = Seat::ALL
                            .iter()
                            .filter(|&&o| o != s)
                            .map(|&o| (w[o.index()] & st.hand(o).bits()).count_ones())
                            .sum();
                        acc[trick].0 += f64::from(right) / n;
                        acc[trick].1 += 1;
                    }
                }
                let a = h.choose(&st.view(s), &st.legal_actions());
                st.apply(a).unwrap();
            }
        }
        let line: Vec<String> =
            acc.iter().map(|(s, n)| format!("{:.3}", s / f64::from((*n).max(1)))).collect();
        println!("{spec:40} {:.1}s  {}", t0.elapsed().as_secs_f64(), line.join(" "));
    }
}
