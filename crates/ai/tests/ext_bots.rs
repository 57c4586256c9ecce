//! External bots over `yezi-bot/1` (docs/bot-protocol.md) in the duplicate arena: the example
//! Python bot plays both games with no fallback, and bots that break the protocol get the fallback
//! action, counted by cause, without stopping or hanging the arena.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use ai::arena::madiao::MadiaoRules;
use ai::arena::{Config, Report, Scheme, run};
use ai::ext::{ExtBot, ExtLimits, Fallbacks};
use ai::players::{Player, play_hand};
use ai::{Bot, Budget, Dabaifen, Game, Madiao};
use serde_json::Value;

fn example() -> String {
    format!("ext:python3 {}/../../examples/bots/random_bot.py", env!("CARGO_MANIFEST_DIR"))
}

fn bad(mode: &str) -> String {
    format!("ext:python3 {}/tests/data/bad_bot.py {mode}", env!("CARGO_MANIFEST_DIR"))
}

fn cfg<R>(a: &str, b: &str, hands: u64, rules: R, limits: ExtLimits) -> Config<R> {
    Config {
        a: a.into(),
        b: b.into(),
        hands,
        seed: 11,
        budget: Budget { think_ms: 10 },
        threads: 1,
        rules,
        limits,
    }
}

/// Runs the arena on another thread and fails the test if it does not end within `limit`; checks
/// that every run of every deal played its hands to the end.
fn arena<G: Scheme>(cfg: Config<G::Rules>, limit: Duration) -> Report {
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    std::thread::spawn(move || {
        let r = run::<G>(&cfg, |d, _| {
            for r in &d.runs {
                if r.states.is_empty() || r.states.iter().any(|s| G::to_move(s).is_some()) {
                    return Err(format!("deal {}, {}: a hand is unfinished", d.index, r.seating.label).into());
                }
            }
            Ok(())
        });
        let _ = tx.send(r.map_err(|e| e.to_string()));
    });
    match rx.recv_timeout(limit) {
        Ok(r) => r.unwrap_or_else(|e| panic!("the arena failed: {e}")),
        Err(_) => panic!("the arena did not end within {limit:?} (after {:?})", start.elapsed()),
    }
}

fn madiao(a: &str, b: &str, hands: u64, limits: ExtLimits) -> Report {
    arena::<Madiao>(cfg(a, b, hands, MadiaoRules::default(), limits), Duration::from_secs(240))
}

fn dabaifen(a: &str, b: &str, hands: u64, limits: ExtLimits) -> Report {
    arena::<Dabaifen>(cfg(a, b, hands, dabaifen::Variants::STANDARD, limits), Duration::from_secs(240))
}

fn complete(r: &Report, hands: u64) {
    assert_eq!(r.hands, hands);
    assert_eq!(r.series[0].summary.n, hands, "every deal is observed: {:?}", r.series[0]);
}

#[test]
fn the_example_bot_plays_madiao_without_fallbacks() {
    let r = madiao(&example(), "heuristic", 3, ExtLimits::default());
    complete(&r, 3);
    let f = r.fallbacks_a.expect("side A is an external bot");
    assert!(f.decisions >= 3 * 4 * 8 / 2, "the bot was asked: {f:?}");
    assert_eq!(f.total(), 0, "{f:?}");
    assert_eq!(r.fallbacks_b, None, "the heuristic bot has no fallbacks");
    assert_eq!(r.times_a.map(|t| t.decisions), Some(f.decisions));
}

#[test]
fn the_example_bot_plays_dabaifen_on_both_sides_without_fallbacks() {
    let r = dabaifen(&example(), &example(), 2, ExtLimits::default());
    complete(&r, 2);
    for f in [r.fallbacks_a.unwrap(), r.fallbacks_b.unwrap()] {
        assert!(f.decisions > 0);
        assert_eq!(f.total(), 0, "{f:?}");
    }
}

#[test]
fn the_example_bot_is_reproducible_from_its_seed() {
    // Seeded by the host, the Python bot plays the same way twice; a random bot of ours in its
    // place plays differently (so the comparison can fail).
    let one = dabaifen(&example(), "heuristic", 2, ExtLimits::default());
    let two = dabaifen(&example(), "heuristic", 2, ExtLimits::default());
    assert_eq!(one.series, two.series);
    assert_eq!(one.running, two.running);
}

#[test]
fn illegal_answers_fall_back_and_are_counted() {
    let r = madiao(&bad("illegal"), "random", 2, ExtLimits::default());
    complete(&r, 2);
    let f = r.fallbacks_a.unwrap();
    assert!(f.decisions > 0);
    assert_eq!(f, Fallbacks { decisions: f.decisions, illegal: f.decisions, ..Fallbacks::default() });
    let r = dabaifen(&bad("illegal"), "random", 1, ExtLimits::default());
    complete(&r, 1);
    let f = r.fallbacks_a.unwrap();
    assert!(f.decisions > 0);
    assert_eq!((f.illegal, f.total()), (f.decisions, f.decisions), "{f:?}");
}

#[test]
fn garbage_falls_back_and_the_bot_keeps_its_process() {
    let r = dabaifen(&bad("garbage"), "random", 1, ExtLimits::default());
    complete(&r, 1);
    let f = r.fallbacks_a.unwrap();
    // Every answer is malformed; none is a crash, so the process was never restarted or lost.
    assert!(f.decisions > 0);
    assert_eq!((f.malformed, f.total()), (f.decisions, f.decisions), "{f:?}");
}

#[test]
fn a_bot_past_its_time_limit_is_killed_and_nothing_hangs() {
    let limits = ExtLimits { time_limit_ms: 300, start_limit_ms: 10_000 };
    let start = Instant::now();
    let r = madiao(&bad("sleep"), "random", 1, limits);
    complete(&r, 1);
    let f = r.fallbacks_a.unwrap();
    // Each of the candidate's four seatings starts the bot at most three times, each start
    // ending in a timeout; the decisions after that fall back at once.
    assert!(f.timeouts >= 4 && f.timeouts <= 12, "{f:?}");
    assert_eq!(f.timeouts + f.crashes, f.decisions, "{f:?}");
    assert_eq!(f.illegal + f.malformed, 0);
    assert!(start.elapsed() < Duration::from_secs(120), "{:?}", start.elapsed());
}

#[test]
fn a_silent_bot_times_out_in_the_handshake() {
    let limits = ExtLimits { time_limit_ms: 1000, start_limit_ms: 1500 };
    let r = dabaifen(&bad("silent"), "random", 1, limits);
    complete(&r, 1);
    let f = r.fallbacks_a.unwrap();
    assert!(f.timeouts >= 1, "{f:?}");
    assert_eq!(f.timeouts + f.crashes, f.decisions, "{f:?}");
}

#[test]
fn a_bot_that_exits_early_is_restarted_then_given_up() {
    let r = dabaifen(&bad("exit"), "random", 1, ExtLimits::default());
    complete(&r, 1);
    let f = r.fallbacks_a.unwrap();
    assert!(f.crashes >= 1, "{f:?}");
    assert_eq!(f.crashes, f.total(), "{f:?}");
    assert!(f.crashes < f.decisions, "the decisions before each exit were answered: {f:?}");
}

#[test]
fn an_endless_line_is_cut_off() {
    let r = madiao(&bad("flood"), "random", 1, ExtLimits::default());
    complete(&r, 1);
    let f = r.fallbacks_a.unwrap();
    assert!(f.malformed >= 1, "{f:?}");
    assert_eq!(f.malformed + f.crashes, f.decisions, "{f:?}");
}

#[test]
fn a_command_that_cannot_start_falls_back_every_time() {
    let r = madiao("ext:/nonexistent/yezi-bot", "random", 2, ExtLimits::default());
    complete(&r, 2);
    let f = r.fallbacks_a.unwrap();
    assert!(f.decisions > 0);
    assert_eq!(f.crashes, f.decisions, "{f:?}");
}

#[test]
fn an_unreadable_command_is_refused_before_the_run() {
    let e = run::<Madiao>(
        &cfg("ext:python3 'x", "random", 1, MadiaoRules::default(), ExtLimits::default()),
        |_, _| Ok(()),
    )
    .unwrap_err();
    assert!(e.to_string().contains("unclosed quote"), "{e}");
}

#[test]
fn the_fallback_is_the_first_legal_action() {
    let deal = Madiao::deal(&MadiaoRules::default(), 5, 0);
    let mut st = Madiao::start(&deal, 0);
    // Move on to a decision with several legal actions.
    while Madiao::legal_actions(&st).len() < 2 {
        let a = Madiao::legal_actions(&st)[0];
        Madiao::apply(&mut st, a).unwrap();
    }
    let seat = Madiao::to_move(&st).unwrap();
    let legal = Madiao::legal_actions(&st);
    let mut bot =
        ExtBot::<Madiao>::from_spec("ext:/nonexistent/yezi-bot", 1, Budget::default(), ExtLimits::default())
            .unwrap();
    assert_eq!(bot.choose(&Madiao::view(&st, seat), &legal), legal[0]);
    let f = bot.fallbacks().unwrap();
    assert_eq!((f.decisions, f.crashes), (1, 1));
    assert!(bot.last_failure().unwrap().contains("cannot start"), "{:?}", bot.last_failure());
    let mut reversed = legal.clone();
    reversed.reverse();
    assert_eq!(bot.choose(&Madiao::view(&st, seat), &reversed), reversed[0]);
}

/// Plays one Da Bai Fen hand with a bot that writes down every message it is sent, and checks the
/// conversation: the handshake, the decisions, the end of the hand, the quit.
#[test]
fn the_host_speaks_the_documented_protocol() {
    let dir = std::env::temp_dir().join(format!("yezi-ext-transcript-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("transcript.jsonl");
    let _ = std::fs::remove_file(&file);
    let spec = format!(
        "ext:python3 {}/tests/data/transcript_bot.py '{}'",
        env!("CARGO_MANIFEST_DIR"),
        file.display()
    );
    let deal = Dabaifen::deal(&dabaifen::Variants::STANDARD, 3, 0);
    let mut st = Dabaifen::start(&deal, 0);
    let mut players: [Player<Dabaifen>; 4] = std::array::from_fn(|s| {
        let name = if s == 1 { spec.as_str() } else { "heuristic" };
        Player::with_limits(name, 40 + s as u64, Budget { think_ms: 7 }, ExtLimits::default()).unwrap()
    });
    play_hand(&mut st, &mut players, |_, _| ()).unwrap();
    let f = players[1].fallbacks().unwrap();
    assert_eq!(f.total(), 0, "{f:?}");
    drop(players);
    let text = std::fs::read_to_string(&file).unwrap();
    let msgs: Vec<Value> = text.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect();
    let kinds: Vec<&str> = msgs.iter().map(|m| m["type"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"hello"));
    assert_eq!(kinds.last(), Some(&"quit"));
    assert_eq!(kinds.iter().filter(|&&k| k == "hand_over").count(), 1);
    assert_eq!(kinds[kinds.len() - 2], "hand_over");
    let hello = &msgs[0];
    assert_eq!(hello["protocol"], "yezi-bot/1");
    assert_eq!(hello["game"], "dabaifen");
    assert_eq!(hello["seat"], 1);
    assert_eq!(hello["seed"], 41);
    assert_eq!(hello["think_ms"], 7);
    assert_eq!(hello["time_limit_ms"], 1000);
    assert_eq!(hello["variants"], serde_json::to_value(dabaifen::Variants::STANDARD).unwrap());
    let decides: Vec<&Value> = msgs.iter().filter(|m| m["type"] == "decide").collect();
    assert_eq!(decides.len() as u64, f.decisions);
    for (i, d) in decides.iter().enumerate() {
        assert_eq!(d["id"], i as u64 + 1);
        assert_eq!(d["hand"], 0);
        assert_eq!(d["view"]["seat"], 1, "only the bot's own seat's view");
        assert_eq!(d["view"]["to_move"], 1);
        assert!(!d["legal"].as_array().unwrap().is_empty());
        // The actions are in record form without the seat, and read back as actions.
        for a in d["legal"].as_array().unwrap() {
            serde_json::from_value::<dabaifen::Action>(a.clone()).unwrap();
            assert!(a.get("seat").is_none());
        }
    }
    let over = &msgs[msgs.len() - 2];
    assert_eq!(over["hand"], 0);
    assert_eq!(over["view"]["seat"], 1);
    assert!(over["view"]["result"].is_object(), "the final view carries the result: {over}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The arena keeps an external bot's process for the next match: one process plays the
/// candidate's seat in every run, each match begun by its own `hello` (seat, seed), with `id` and
/// `hand` counted afresh; and the results are the same with any number of threads.
#[test]
fn the_arena_reuses_processes_with_a_hello_per_match() {
    let dir = std::env::temp_dir().join(format!("yezi-ext-reuse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("transcript.jsonl");
    let _ = std::fs::remove_file(&file);
    let spec = format!(
        "ext:python3 {}/tests/data/transcript_bot.py '{}'",
        env!("CARGO_MANIFEST_DIR"),
        file.display()
    );
    let r = madiao(&spec, "random", 3, ExtLimits::default());
    complete(&r, 3);
    assert_eq!(r.fallbacks_a.unwrap().total(), 0);
    let msgs: Vec<Value> =
        std::fs::read_to_string(&file).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let count = |t: &str| msgs.iter().filter(|m| m["type"] == t).count();
    // Madiao: the candidate plays one seat in each of four runs per deal, one at a time.
    assert_eq!(count("_started"), 1, "one process for the whole run");
    assert_eq!(count("hello"), 3 * 4);
    assert_eq!(count("quit"), 1);
    let hellos: Vec<&Value> = msgs.iter().filter(|m| m["type"] == "hello").collect();
    let seats: Vec<u64> = hellos.iter().map(|h| h["seat"].as_u64().unwrap()).collect();
    assert_eq!(seats, [0, 1, 2, 3].repeat(3));
    let mut seeds: Vec<u64> = hellos.iter().map(|h| h["seed"].as_u64().unwrap()).collect();
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), 12, "each match has its own seed");
    // After each hello the ids count from 1 again and the hands from 0.
    let mut expect_id = 1;
    for m in &msgs {
        match m["type"].as_str().unwrap() {
            "hello" => expect_id = 1,
            "decide" => {
                assert_eq!(m["id"], expect_id, "{m}");
                expect_id += 1;
            }
            _ => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Reused processes, on one thread or two: the same results (the example bot reseeds itself
    // at every hello).
    let mut two = cfg(&example(), "heuristic", 4, MadiaoRules::default(), ExtLimits::default());
    let one = arena::<Madiao>(two.clone(), Duration::from_secs(240));
    two.threads = 2;
    let two = arena::<Madiao>(two, Duration::from_secs(240));
    assert_eq!(one.series, two.series);
}

/// A bot that exits mid-hand is started again: the new process gets a `hello` and counts its
/// decisions from 1; the decision it dropped is a crash, the others are answered.
#[test]
fn a_restarted_bot_begins_a_new_match() {
    let dir = std::env::temp_dir().join(format!("yezi-ext-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("transcript.jsonl");
    let _ = std::fs::remove_file(&file);
    let spec = format!(
        "ext:python3 {}/tests/data/transcript_bot.py '{}' 3",
        env!("CARGO_MANIFEST_DIR"),
        file.display()
    );
    let deal = Dabaifen::deal(&dabaifen::Variants::STANDARD, 3, 0);
    let mut st = Dabaifen::start(&deal, 0);
    let mut players: [Player<Dabaifen>; 4] = std::array::from_fn(|s| {
        let name = if s == 0 { spec.as_str() } else { "heuristic" };
        Player::with_limits(name, 40 + s as u64, Budget { think_ms: 7 }, ExtLimits::default()).unwrap()
    });
    play_hand(&mut st, &mut players, |_, _| ()).unwrap();
    assert!(Dabaifen::to_move(&st).is_none());
    let f = players[0].fallbacks().unwrap();
    drop(players);
    // Three starts of three answers each, then every decision falls back.
    assert!(f.decisions > 12, "{f:?}");
    assert_eq!((f.crashes, f.total()), (f.decisions - 9, f.decisions - 9), "{f:?}");
    let msgs: Vec<Value> =
        std::fs::read_to_string(&file).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(msgs.iter().filter(|m| m["type"] == "_started").count(), 3);
    let ids: Vec<u64> =
        msgs.iter().filter(|m| m["type"] == "decide").map(|m| m["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]);
    assert_eq!(msgs.iter().filter(|m| m["type"] == "hello").count(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}
