//! The puzzle generator without the rest of the binary (the same functions `yezi puzzles make`
//! calls, so the same seed gives the same file): `cargo run --release -p ai --example
//! make_puzzles -- madiao|dabaifen COUNT SEED OUT [BURIALS]` (BURIALS: Da Bai Fen burial puzzles
//! made after the COUNT play puzzles).

use ai::puzzle::{self, MadeBy, MakeOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 && args.len() != 6 {
        eprintln!("usage: make_puzzles madiao|dabaifen COUNT SEED OUT [BURIALS]");
        std::process::exit(2);
    }
    let count: usize = args[2].parse().unwrap_or(500);
    let seed: u64 = args[3].parse().unwrap_or(1);
    let out = std::path::PathBuf::from(&args[4]);
    let opts = MakeOptions {
        seed,
        count,
        max_deals: 1_000_000,
        rules: "standard".into(),
        bot: "heuristic".into(),
        records: Vec::new(),
        burials: args.get(5).and_then(|b| b.parse().ok()).unwrap_or(0),
    };
    let start = std::time::Instant::now();
    let note = |made: &MadeBy| {
        eprintln!(
            "{:.0} s: {} deals, {} examined, {} sampled, {} accepted; burials {} examined, {} confirmed, {} accepted",
            start.elapsed().as_secs_f64(),
            made.deals,
            made.examined,
            made.sampled,
            made.accepted,
            made.burials_examined,
            made.burials_passed,
            made.burials
        );
    };
    let text = match args[1].as_str() {
        "madiao" => {
            let f = puzzle::make_madiao(&opts, &mut |_, m| {
                if m.accepted % 10 == 0 || m.burials > 0 {
                    note(m)
                }
            })
            .expect("make");
            note(&f.made);
            serde_json::to_string(&f).expect("json")
        }
        _ => {
            // Written again after each burial puzzle (`OUT.partial`), so a run stopped early
            // keeps them: the first N burials of a seed are those of a run with BURIALS = N.
            let mut so_far: Vec<puzzle::DabaifenPuzzle> = Vec::new();
            let partial = out.with_extension("partial");
            let f = puzzle::make_dabaifen(&opts, &mut |p, m| {
                so_far.push(p.clone());
                if m.accepted % 10 == 0 || m.burials > 0 {
                    note(m)
                }
                if m.burials > 0 {
                    let mut ps = so_far.clone();
                    ps.sort_by_key(|p| (p.difficulty, p.id.clone()));
                    let f = puzzle::DabaifenFile {
                        format: puzzle::FORMAT,
                        game: cards::record::GameKind::Dabaifen,
                        rules: opts.rules.clone(),
                        margin: puzzle::DABAIFEN_MARGIN,
                        made: m.clone(),
                        puzzles: ps,
                    };
                    std::fs::write(&partial, serde_json::to_string(&f).expect("json")).expect("write");
                }
            })
            .expect("make");
            note(&f.made);
            serde_json::to_string(&f).expect("json")
        }
    };
    std::fs::write(&out, text).expect("write");
}
