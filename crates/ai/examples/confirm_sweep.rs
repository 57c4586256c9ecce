//! How a burial puzzle's verdict holds up in other worlds, for choosing the generator's
//! confirmation (docs/puzzles.md, "Burial puzzles"): `cargo run --release -p ai --example
//! confirm_sweep -- FILE WORLDS [JOBS]`. Each burial puzzle's own family is valued in WORLDS
//! worlds drawn from its confirmation seed (`puzzle::confirm_seed`); for the first 80, 120, …
//! of them it prints whether the best burial there follows the rule and the lead of the best
//! burial that follows it over the best one that breaks it.

use ai::puzzle::{self, DabaifenFile};
use cards::record::GameKind;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: confirm_sweep FILE WORLDS [JOBS]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[1]).expect("read");
    let f: DabaifenFile = puzzle::read_file(&text, GameKind::Dabaifen).expect("file");
    let worlds: u32 = args[2].parse().expect("WORLDS");
    let jobs: usize = args.get(3).and_then(|j| j.parse().ok()).unwrap_or(2).max(1);
    let list: Vec<&puzzle::DabaifenPuzzle> = f.puzzles.iter().filter(|p| p.burial.is_some()).collect();
    let start = std::time::Instant::now();
    std::thread::scope(|sc| {
        for j in 0..jobs {
            let list = &list;
            let rules = &f.rules;
            sc.spawn(move || {
                for p in list.iter().skip(j).step_by(jobs) {
                    let seed = puzzle::confirm_seed(p.burial.as_ref().map_or(0, |r| r.seed));
                    let Some(fam) = puzzle::family_in_other_worlds(p, rules, seed, worlds) else {
                        println!("{} none", p.id);
                        continue;
                    };
                    let mut line = format!("{} own_gap {:.3}", p.id, p.expected_gap);
                    let mut n = 80u32;
                    while n <= worlds {
                        let ev: Vec<(bool, f64)> = fam
                            .iter()
                            .map(|(f, w)| (*f, w[..n as usize].iter().sum::<f64>() / f64::from(n)))
                            .collect();
                        let best = ev.iter().map(|e| e.1).fold(f64::NEG_INFINITY, f64::max);
                        let top = |r: bool| {
                            ev.iter().filter(|e| e.0 == r).map(|e| e.1).fold(f64::NEG_INFINITY, f64::max)
                        };
                        let follows = top(true) >= best;
                        line += &format!(" | {n}: {} {:+.3}", u8::from(follows), top(true) - top(false));
                        n += 40;
                    }
                    println!("{line} ({:.0} s)", start.elapsed().as_secs_f64());
                }
            });
        }
    });
}
