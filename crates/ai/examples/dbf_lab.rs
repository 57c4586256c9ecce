//! A development arena for Da Bai Fen bots: the duplicate scheme of `yezi arena dabaifen` on a
//! range of deals, with sides that the registry does not name — `expert` with parameters changed
//! (`expert:key=value,…`, see `ai::dabaifen::expert::Params::set`), or a hybrid that plays each
//! phase with another player (`hyb:declare=cheater,annul=pimc,bury=pimc,play=pimc`, the phases
//! not named played by `pimc`). Writes the same per-deal lines as `yezi arena --deals`, so
//! `examples/paired.rs` compares two runs deal by deal. One thread; the results are as
//! reproducible as the arena's (the same seat seeds).
//!
//! ```sh
//! cargo run --release -p ai --example dbf_lab -- --a expert:draws=10 --b heuristic \
//!     --seed 7 --from 0 --hands 500 --deals x.deals
//! ```

use std::io::Write;

use ai::arena::{self, Config, Side};
use ai::dabaifen::expert::{ExpertBot, Params};
use ai::dabaifen::pimc::Cheater;
use ai::players::{DecisionTimes, Player};
use ai::{Budget, Dabaifen, Oracle, Registry};
use dabaifen::{Action, Phase, State};

/// A player made from a spec.
fn make(spec: &str, seed: u64, budget: Budget) -> Player<Dabaifen> {
    if let Some(rest) = spec.strip_prefix("expert:") {
        let mut p = Params::for_budget(budget);
        for kv in rest.split(',').filter(|s| !s.is_empty()) {
            let (k, v) = kv.split_once('=').unwrap_or_else(|| panic!("{kv}: key=value"));
            p.set(k, v).unwrap_or_else(|e| panic!("{e}"));
        }
        return Player::Bot(Box::new(ExpertBot::with_params(seed, p)));
    }
    if let Some(rest) = spec.strip_prefix("hyb:") {
        let mut by_phase: [String; 5] = std::array::from_fn(|_| "pimc".to_string());
        let mut early_set = false;
        for kv in rest.split(',').filter(|s| !s.is_empty()) {
            let (k, v) = kv.split_once('=').unwrap_or_else(|| panic!("{kv}: phase=player"));
            let i =
                ["declare", "annul", "bury", "play", "early"].iter().position(|&p| p == k).expect("a phase");
            by_phase[i] = v.to_string();
            early_set |= i == 4;
        }
        if !early_set {
            by_phase[4] = by_phase[3].clone();
        }
        let players = by_phase.map(|name| make(&name, seed, budget));
        return Player::Oracle(Box::new(Hybrid { players }));
    }
    if spec == "cheat-pimc" {
        // The truth as the only world, searched as `pimc` searches each world.
        return Player::Oracle(Box::new(Cheater::with_params(ai::dabaifen::pimc::Params::for_budget(
            budget,
        ))));
    }
    if spec == "cheater" {
        return Player::Oracle(Box::new(Cheater::new(budget)));
    }
    Player::Bot(<Dabaifen as Registry>::bot(spec, seed, budget).unwrap_or_else(|e| panic!("{e}")))
}

/// Each phase played by its own player.
struct Hybrid {
    /// Declaring, annulling, burying, playing, and playing the first four tricks.
    players: [Player<Dabaifen>; 5],
}

impl Oracle<Dabaifen> for Hybrid {
    fn name(&self) -> &str {
        "hybrid"
    }

    fn choose(&mut self, st: &State, legal: &[Action]) -> Action {
        let i = match st.phase() {
            Phase::Drawing => 0,
            Phase::Annulling => 1,
            Phase::Burying => 2,
            _ if st.tricks().len() <= 4 => 4,
            _ => 3,
        };
        let seat = st.to_move().expect("a seat to move");
        match &mut self.players[i] {
            Player::Bot(b) => b.choose(&st.view(seat), legal),
            Player::Oracle(o) => o.choose(st, legal),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| -> Option<String> {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
    };
    let a = get("--a").expect("--a SPEC");
    let b = get("--b").unwrap_or_else(|| "heuristic".to_string());
    let seed: u64 = get("--seed").map_or(7, |s| s.parse().expect("--seed"));
    let from: u64 = get("--from").map_or(0, |s| s.parse().expect("--from"));
    let hands: u64 = get("--hands").map_or(100, |s| s.parse().expect("--hands"));
    let think_ms: u32 = get("--think-ms").map_or(100, |s| s.parse().expect("--think-ms"));
    let budget = Budget { think_ms };
    let cfg = Config {
        a: a.clone(),
        b: b.clone(),
        hands,
        seed,
        budget,
        threads: 1,
        rules: dabaifen::Variants::STANDARD,
        limits: Default::default(),
    };
    let mut out = get("--deals").map(|p| std::fs::File::create(p).expect("creating --deals"));
    let keys = <Dabaifen as arena::Scheme>::keys();
    let mut sums = vec![(0.0f64, 0.0f64, 0u64); keys.len()];
    let mut times = DecisionTimes::new();
    let start = std::time::Instant::now();
    for index in from..from + hands {
        let d = arena::play_deal_with::<Dabaifen>(&cfg, index, &mut |side, _seat, s| {
            Ok(make(if side == Side::A { &a } else { &b }, s, budget))
        })
        .unwrap_or_else(|e| panic!("{e}"));
        times.extend(&d.times_a);
        for (i, o) in d.observations.iter().enumerate() {
            if let Some(x) = o {
                sums[i].0 += x;
                sums[i].1 += x * x;
                sums[i].2 += 1;
            }
        }
        if let Some(w) = out.as_mut() {
            writeln!(w, "{}", serde_json::to_string(&d.line()).expect("a deal line")).expect("writing");
        }
        if (index + 1 - from).is_multiple_of(50) {
            let (s, q, n) = sums[0];
            let n = n as f64;
            let m = s / n;
            let sd = ((q - n * m * m) / (n - 1.0)).max(0.0).sqrt();
            eprintln!(
                "{} deals, {:.0} s: overall {m:+.4} ± {:.4}",
                index + 1 - from,
                start.elapsed().as_secs_f64(),
                1.96 * sd / n.sqrt()
            );
        }
    }
    println!("{a} vs {b}, seed {seed}, deals {from}..{}", from + hands);
    for (k, (s, q, n)) in keys.iter().zip(sums) {
        let nf = n as f64;
        let m = s / nf;
        let sd = ((q - nf * m * m) / (nf - 1.0)).max(0.0).sqrt();
        println!("  {:<12} {:<10} n {n:5} mean {m:+.4} ± {:.4}", k.measure, k.role, 1.96 * sd / nf.sqrt());
    }
    if let Some(t) = times.summary() {
        println!(
            "  A decisions {}: mean {:.2} ms, median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.1} ms",
            t.decisions, t.mean_ms, t.median_ms, t.p90_ms, t.p99_ms, t.max_ms
        );
    }
}
