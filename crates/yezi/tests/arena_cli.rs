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
}
