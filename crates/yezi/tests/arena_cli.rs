//! `yezi arena` for both games, and `yezi sim`/`yezi bench` with `--bots`: short smoke runs.

use std::path::PathBuf;
use std::process::{Command, Output};

fn yezi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yezi")).args(args).output().expect("yezi runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yezi-arena-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn series<'a>(report: &'a serde_json::Value, measure: &str, role: &str) -> &'a serde_json::Value {
    report["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"]["measure"] == measure && s["key"]["role"] == role)
        .unwrap_or_else(|| panic!("no series {measure}/{role}"))
}

#[test]
fn madiao_arena_reports_every_role_and_writes_records_deals_and_a_chart() {
    let records = tmp("m-records.jsonl");
    let deals = tmp("m-deals.jsonl");
    let chart = tmp("m-chart.svg");
    let args = [
        "arena", "madiao", "--a", "random", "--b", "random", "--hands", "24", "--seed", "5", "--json",
        "--quiet",
    ];
    let mut full: Vec<&str> = args.to_vec();
    let (r, d, c) = (records.display().to_string(), deals.display().to_string(), chart.display().to_string());
    full.extend(["--records", &r, "--deals", &d, "--chart", &c]);
    let report = json(&yezi(&full));
    assert_eq!(report["hands"], 24);
    for role in ["overall", "banker", "players"] {
        assert_eq!(series(&report, "payoff", role)["summary"]["n"], 24, "{role}");
    }
    // 5 runs per deal, each a yezi/1 record that names its deal and run.
    let lines: Vec<String> = std::fs::read_to_string(&records).unwrap().lines().map(String::from).collect();
    assert_eq!(lines.len(), 24 * 5);
    let first: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    assert_eq!(first["format"], "yezi/1");
    assert_eq!(first["arena"]["run"], "A in seat 0");
    // Each record replays cleanly.
    let one = tmp("m-one.json");
    std::fs::write(&one, &lines[7]).unwrap();
    let out = yezi(&["replay", "--json", &one.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&deals).unwrap().lines().count(), 24);
    assert!(std::fs::read_to_string(&chart).unwrap().starts_with("<svg"));
    // The same run on two threads gives the same figures.
    let mut two = args.to_vec();
    two.extend(["--threads", "2"]);
    let report2 = json(&yezi(&two));
    assert_eq!(report["series"], report2["series"]);
}

#[test]
fn dabaifen_arena_reports_both_measures_by_role() {
    let chart = tmp("d-chart.html");
    let c = chart.display().to_string();
    let out = yezi(&[
        "arena", "dabaifen", "--a", "random", "--b", "random", "--hands", "12", "--seed", "3", "--json",
        "--quiet", "--chart", &c,
    ]);
    let report = json(&out);
    for m in ["game_points", "card_points"] {
        for role in ["overall", "declarers", "defenders"] {
            series(&report, m, role);
        }
    }
    assert_eq!(series(&report, "game_points", "overall")["summary"]["n"], 12);
    let html = std::fs::read_to_string(&chart).unwrap();
    assert!(html.starts_with("<!doctype html>") && html.contains("<svg") && html.contains("dabaifen arena"));
}

#[test]
fn arena_text_report_and_errors() {
    let out = yezi(&["arena", "madiao", "--a", "random", "--b", "random", "--hands", "6", "--quiet"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("madiao arena: random (A) vs random (B), 6 deals"), "{s}");
    assert!(s.contains("payoff difference per deal, A − B (stakes)"), "{s}");
    let out = yezi(&["arena", "madiao", "--a", "nobody", "--b", "random", "--hands", "6", "--quiet"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown madiao bot \"nobody\""), "{}", text(&out.stderr));
    let out =
        yezi(&["arena", "dabaifen", "--a", "random", "--b", "random", "--hands", "2", "--threads", "0"]);
    assert!(!out.status.success());
}

#[test]
fn sim_and_bench_take_bots() {
    for game in ["madiao", "dabaifen"] {
        let out = yezi(&["sim", game, "--hands", "5", "--bots", "random"]);
        assert!(out.status.success(), "{game}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("decision times"), "{game}");
        let out = yezi(&["bench", game, "--hands", "5", "--bots", "random,random,random,random"]);
        assert!(out.status.success(), "{game}: {}", text(&out.stderr));
        let s = text(&out.stdout);
        assert!(s.contains("random:") && s.contains("median") && s.contains("p99"), "{game}: {s}");
        let out = yezi(&["bench", game, "--hands", "5", "--bots", "random,random"]);
        assert!(!out.status.success());
    }
    // Madiao bots' hands written as a record name their players and replay cleanly.
    let rec = tmp("bots-sim.json");
    let r = rec.display().to_string();
    let out = yezi(&[
        "sim",
        "madiao",
        "--hands",
        "4",
        "--bots",
        "heuristic,pimc,heuristic,random",
        "--think-ms",
        "1",
        "--out",
        &r,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(doc["players"][1], "bot:pimc");
    let out = yezi(&["replay", &r]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn madiao_bots_meet_in_a_short_arena_run() {
    // pimc against heuristic, the cheater against pimc, and the learned network (docs/python.md)
    // against heuristic, on a few deals with a tiny budget.
    for (a, b) in [("pimc", "heuristic"), ("cheater", "pimc"), ("learned", "heuristic")] {
        let report = json(&yezi(&[
            "arena",
            "madiao",
            "--a",
            a,
            "--b",
            b,
            "--hands",
            "3",
            "--think-ms",
            "1",
            "--json",
            "--quiet",
        ]));
        assert_eq!(series(&report, "payoff", "banker")["summary"]["n"], 3, "{a} vs {b}");
        assert!(report["times_a"]["decisions"].as_u64().unwrap() > 0);
    }
}

/// `--a ext:COMMAND`: the example bot of `examples/bots` over `yezi-bot/1`, in both games, with
/// its fallback counts in the report (all zero), and a bot past its time limit counted.
#[test]
fn arena_runs_external_bots_and_reports_their_fallbacks() {
    let example = format!("ext:python3 {}/../../examples/bots/random_bot.py", env!("CARGO_MANIFEST_DIR"));
    for game in ["madiao", "dabaifen"] {
        let out =
            yezi(&["arena", game, "--a", &example, "--b", "heuristic", "--hands", "2", "--json", "--quiet"]);
        let report = json(&out);
        assert_eq!(report["hands"], 2, "{game}");
        let f = &report["fallbacks_a"];
        assert!(f["decisions"].as_u64().unwrap() > 0, "{game}: {f}");
        for cause in ["illegal", "malformed", "timeouts", "crashes"] {
            assert_eq!(f[cause], 0, "{game}: {f}");
        }
        assert!(report["fallbacks_b"].is_null(), "{game}: the heuristic bot has none");
    }
    let sleepy = format!("ext:python3 {}/../ai/tests/data/bad_bot.py sleep", env!("CARGO_MANIFEST_DIR"));
    let out = yezi(&[
        "arena",
        "madiao",
        "--a",
        "random",
        "--b",
        &sleepy,
        "--hands",
        "1",
        "--time-limit-ms",
        "200",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let line = s
        .lines()
        .find(|l| l.starts_with("  B ext:") && l.contains(" illegal, "))
        .unwrap_or_else(|| panic!("no fallback line: {s}"));
    assert!(line.contains("0 illegal, 0 malformed") && !line.contains(" 0 timeouts"), "{line}");
    let out = yezi(&["arena", "madiao", "--a", "ext:", "--b", "random", "--hands", "1"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("the command is empty"), "{}", text(&out.stderr));
    // yezi sim --bots takes an external bot too, and says how many of its decisions fell back.
    let spec = format!("random,{example},random,{example}");
    let out = yezi(&["sim", "dabaifen", "--hands", "3", "--bots", &spec]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains(": 0 of ") && s.contains("decisions fell back to the first legal action (0 illegal"),
        "{s}"
    );
}
