//! Finds a tutorial script and prints it as JSON: `cargo run -p table --example tutorial_script --
//! madiao` (or `dabaifen`), with an optional first seed. The scripts in `crates/table/src/tutorial/`
//! were made by this; `tutorial_script show madiao` prints the tutorial as served.

fn main() {
    let mut args = std::env::args().skip(1);
    let mut game = args.next().unwrap_or_default();
    if game == "show" {
        // The tutorial as the server serves it.
        game = args.next().unwrap_or_default();
        let kind = if game == "dabaifen" {
            cards::record::GameKind::Dabaifen
        } else {
            cards::record::GameKind::Madiao
        };
        match table::tutorial::tutorial(kind).map(|t| serde_json::to_string_pretty(&t)) {
            Ok(Ok(j)) => println!("{j}"),
            Ok(Err(e)) => eprintln!("{e}"),
            Err(e) => eprintln!("{e}"),
        }
        return;
    }
    let from: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let seeds = from..from + 100_000;
    let json = match game.as_str() {
        "madiao" => table::tutorial::search_madiao(seeds).map(|s| serde_json::to_string(&s)),
        "dabaifen" => table::tutorial::search_dabaifen(seeds).map(|s| serde_json::to_string(&s)),
        _ => {
            eprintln!("usage: tutorial_script madiao|dabaifen [FIRST_SEED]");
            std::process::exit(2);
        }
    };
    match json {
        Some(Ok(j)) => println!("{j}"),
        Some(Err(e)) => eprintln!("{e}"),
        None => eprintln!("no seed found"),
    }
}
