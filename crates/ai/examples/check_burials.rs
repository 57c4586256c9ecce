//! The burial puzzles of a Da Bai Fen puzzle file checked again without the rest of the binary,
//! as `yezi puzzles check --game dabaifen --file FILE --theme burial --expert` checks them (the
//! same functions, the same seeds: the expert is seeded by the puzzle's index in the file, so
//! both give the same figures): `cargo run --release -p ai --example check_burials -- FILE
//! [JOBS] [TIMES] [KEY=VALUE …]`. Each burial's family is valued again in its worlds and must
//! give its rule, split by its margins, and again in its confirmation worlds, where the rule must
//! lead by the confirmation's margin (`puzzle::check_dabaifen`); the `expert` bot, at TIMES (10) times its normal budget,
//! buries, and its burial is right when it follows the rule. KEY=VALUE sets one of the expert's
//! parameters (`expert::Params::set`; `bury_widen=0` buries as `pimc`, as `expert` did before
//! its burial was widened). Also printed: the time of the expert's burials, and in how many
//! puzzles a right burial is among `pimc`'s 8 candidate burials (what `expert` weighed before
//! the widening) and among them and their one-card changes. With `REVALUE=N` in the
//! environment, each puzzle's family is also valued in N other worlds (another seed,
//! `puzzle::revalue_burial`), and the puzzles whose best burial there still follows the rule are
//! counted: how much the 48 worlds' verdict owes to their luck. With `TIME_PIMC=1`, the burial of the expert with `bury_widen=0` (as
//! `pimc` buries) is timed too, right after the expert's on the same puzzle, so that both are
//! timed under the same load. With `EXPERT_SEED=K`, the expert is seeded otherwise
//! (`expert_seed`).

use ai::Bot as _;
use ai::dabaifen::expert::{ExpertBot, Params};
use ai::dabaifen::know::Knowledge;
use ai::dabaifen::pimc::{bury_options, one_card_changes};
use ai::puzzle::{self, DabaifenFile};
use cards::record::GameKind;
use dabaifen::Cards;

/// A burial puzzle checked: its id, the check's failure, whether the expert's burial is right,
/// the seconds its burial took, and whether a right burial is among `pimc`'s candidates, and
/// among them and their one-card changes.
type Checked = (String, Option<String>, bool, f64, bool, bool, Option<bool>, f64);

fn one(f: &DabaifenFile, i: usize, params: Params) -> Checked {
    let p = &f.puzzles[i];
    let failure = puzzle::check_dabaifen(p, &f.rules).err().map(|e| e.to_string());
    let revalue: Option<u32> = std::env::var("REVALUE").ok().and_then(|v| v.parse().ok());
    let holds = revalue.and_then(|n| {
        let seed = p.burial.as_ref()?.seed ^ 0x0072_6576_616c_7565;
        let (follows, lead) = puzzle::revalue_burial(p, &f.rules, seed, n)?;
        eprintln!("{}: in {n} other worlds the best follows the rule: {follows}, lead {lead:+.3}", p.id);
        Some(follows)
    });
    let (mut right, mut secs, mut among, mut near, mut pimc_secs) = (false, 0.0, false, false, 0.0);
    if let Ok(st) = puzzle::dabaifen_position(&p.hand, &f.rules) {
        let (view, legal) = (st.view(p.seat), st.legal_actions());
        let mut bot = ExpertBot::with_params(expert_seed(i), params);
        let t0 = std::time::Instant::now();
        let choice = bot.choose(&view, &legal);
        secs = t0.elapsed().as_secs_f64();
        if std::env::var("TIME_PIMC").is_ok_and(|v| v == "1") {
            let mut plain = params;
            plain.bury_widen = 0;
            let mut bot = ExpertBot::with_params(i as u64, plain);
            let t0 = std::time::Instant::now();
            bot.choose(&view, &legal);
            pimc_secs = t0.elapsed().as_secs_f64();
        }
        right = match (&p.burial, choice) {
            (Some(rule), dabaifen::Action::Bury(set)) => rule.admits(set),
            _ => p.answers.contains(&choice),
        };
        if let (Some(rule), Some(k)) = (&p.burial, Knowledge::from_view(&view, &legal)) {
            let cands = bury_options(k.t, k.hand, params.base.bury_candidates);
            let admits = |b: u64| rule.admits(Cards::from_bits(b));
            among = cands.iter().any(|&b| admits(b));
            near = among || cands.iter().any(|&b0| one_card_changes(k.hand, b0).any(&admits));
        }
    }
    (p.id.clone(), failure, right, secs, among, near, holds, pimc_secs)
}

/// The expert's seed for the puzzle at index `i` of the file: `i`, as `yezi puzzles check` seeds
/// it, or with `EXPERT_SEED=K` in the environment `i + K × 1,000,000` (another draw of the
/// expert's worlds, to see how much its agreement owes to its own luck).
fn expert_seed(i: usize) -> u64 {
    let k: u64 = std::env::var("EXPERT_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    i as u64 + k * 1_000_000
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        eprintln!("usage: check_burials FILE [JOBS] [TIMES] [KEY=VALUE …]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[1]).unwrap_or_else(|e| {
        eprintln!("reading {}: {e}", args[1]);
        std::process::exit(2)
    });
    let f: DabaifenFile = puzzle::read_file(&text, GameKind::Dabaifen).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let jobs: usize = args.get(2).and_then(|j| j.parse().ok()).unwrap_or(2).max(1);
    let times: u32 = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(10).max(1);
    let budget = ai::Budget { think_ms: ai::Budget::default().think_ms * times };
    let mut params = Params::for_budget(budget);
    for kv in args.iter().skip(4) {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        if let Err(e) = params.set(k, v) {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
    let indices: Vec<usize> = (0..f.puzzles.len()).filter(|&i| f.puzzles[i].burial.is_some()).collect();
    let start = std::time::Instant::now();
    let mut results: Vec<(usize, Checked)> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                let (f, indices) = (&f, &indices);
                sc.spawn(move || {
                    (j..indices.len())
                        .step_by(jobs)
                        .map(|k| {
                            let r = one(f, indices[k], params);
                            eprintln!(
                                "{:.0} s: {} {}",
                                start.elapsed().as_secs_f64(),
                                r.0,
                                if r.2 { "agrees" } else { "differs" }
                            );
                            (k, r)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    results.sort_by_key(|r| r.0);
    let ok = results.iter().filter(|r| r.1.1.is_none()).count();
    let agree = results.iter().filter(|r| r.1.2).count();
    println!(
        "{ok} of {} burial puzzle(s) checked: the rule valued again, split by the margins",
        results.len()
    );
    println!(
        "expert at {} ms per decision agrees on {agree} of {} ({:.1}%)",
        budget.think_ms,
        results.len(),
        100.0 * agree as f64 / results.len().max(1) as f64
    );
    let secs: Vec<f64> = results.iter().map(|r| r.1.3).collect();
    println!(
        "the expert's burial took {:.2} s on average, {:.2} s at most (on {jobs} thread(s))",
        secs.iter().sum::<f64>() / secs.len().max(1) as f64,
        secs.iter().copied().fold(0.0, f64::max)
    );
    let pimc_secs: f64 = results.iter().map(|r| r.1.7).sum();
    if pimc_secs > 0.0 {
        println!(
            "as pimc buries (bury_widen=0), timed alike: {:.2} s on average",
            pimc_secs / results.len().max(1) as f64
        );
    }
    println!(
        "a right burial is among pimc's {} candidates in {} of {}, among them and their one-card \
         changes in {}",
        params.base.bury_candidates,
        results.iter().filter(|r| r.1.4).count(),
        results.len(),
        results.iter().filter(|r| r.1.5).count()
    );
    if results.iter().any(|r| r.1.6.is_some()) {
        let holds: Vec<&(usize, Checked)> = results.iter().filter(|r| r.1.6 == Some(true)).collect();
        println!(
            "in other worlds the best burial follows the rule in {} of {}; of those, the expert agrees on {}",
            holds.len(),
            results.len(),
            holds.iter().filter(|r| r.1.2).count()
        );
        let not: Vec<&str> =
            results.iter().filter(|r| r.1.6 == Some(false)).map(|r| r.1.0.as_str()).collect();
        println!("in other worlds the best burial breaks the rule in: {}", not.join(" "));
    }
    let differ: Vec<&str> = results.iter().filter(|r| !r.1.2).map(|r| r.1.0.as_str()).collect();
    if !differ.is_empty() {
        println!("the expert chose otherwise in: {}", differ.join(" "));
    }
    println!("{:.0} s", start.elapsed().as_secs_f64());
    for r in &results {
        if let Some(e) = &r.1.1 {
            println!("FAILED: {e}");
        }
    }
    if ok < results.len() {
        std::process::exit(1);
    }
}
