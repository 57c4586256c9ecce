//! `yezi loadtest` against a server in the test process: a short run of a few tables.

use crate::common;

use std::time::Duration;

use common::TestServer;
use server::loadtest::{EventLoad, LoadOptions, run};
use table::settings::Timing;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_load_run_seats_every_table_and_measures_moves_and_memory() {
    let timing = Timing { window_ms: 200, draw_ms: 10, trick_ms: 50, pause_ms: 200, ..Timing::default() };
    let srv = TestServer::start(timing).await;
    let opts = short_run(&srv, 4, 0);
    let report = run(&opts, |_| {}).await.expect("the run");
    assert_eq!((report.tables, report.connections, report.nodes, report.cross), (4, 16, 1, false));
    assert!(report.moves > 0, "no move measured: {report}");
    assert_eq!(report.latencies_us.len() as u64, report.moves, "{report}");
    assert_eq!(report.gaps, 0, "{report}");
    // The server's memory, read from its stats (Linux tells it).
    let (before, during) = (report.rss_before.expect("rss before"), report.rss_during.expect("rss during"));
    assert!(before > 0 && during > 0, "{report}");
    assert!(report.memory_per_table().is_some());
}

/// `--analyses N`: games of bots are played out first, then analyses of their hands are kept
/// asked for while the tables play, and some finish while measuring.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_load_run_with_analyses_keeps_them_running_while_measuring() {
    let mut limits = common::fast_limits();
    limits.analysis.think_ms = 5;
    // Normal priority: at the lowest, the analyses wait as long as the machine is busy with
    // other tests, and none may finish in the 3 s measured.
    limits.analysis.nice = 0;
    let config = server::Config { timing: common::fast(), limits, table_seed: Some(3), ..Default::default() };
    let srv = TestServer::start_config(config).await;
    let opts = short_run(&srv, 2, 2);
    let report = run(&opts, |_| {}).await.expect("the run");
    assert!(report.moves > 0, "no move measured: {report}");
    assert!(report.analyses_done > 0, "no analysis finished while measuring: {report}");
    assert_eq!(report.errors, 0, "{report}");
    assert!(srv.app.analyses.started() >= report.analyses_done, "{report}");
    assert!(report.to_string().contains("analyses: 2 kept asked for"), "{report}");
}

/// `--event-tables`: two of the four tables are an event's (two people each, bots in the other
/// seats); its people play board after board, their moves are measured with the others', and
/// every board whose last table ended while measuring has its standings' latency.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_load_run_with_an_event_plays_its_boards_and_times_the_standings() {
    // The bots in the event tables' other seats move after 50 ms: at the default 700 ms, the 16
    // bot moves of a board took about as long as the 8 s measured, and on a loaded machine no
    // board ended while measuring.
    let timing = Timing {
        window_ms: 100,
        draw_ms: 10,
        trick_ms: 20,
        pause_ms: 100,
        bot_delay_ms: 50,
        ..Timing::default()
    };
    let srv = TestServer::start(timing).await;
    let mut opts = short_run(&srv, 4, 0);
    opts.game = Some(cards::record::GameKind::Madiao);
    opts.duration = Duration::from_secs(8);
    opts.events = Some(EventLoad { tables: 2, per_event: 2, people: 2, boards: 32 });
    let report = run(&opts, |_| {}).await.expect("the run");
    assert_eq!((report.tables, report.events, report.event_tables), (4, 1, 2), "{report}");
    // Two plain tables of four, and the event's four people.
    assert_eq!(report.connections, 2 * 4 + 2 * 2, "{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert!(!report.event_latencies_us.is_empty(), "no move measured at the event's tables: {report}");
    assert!(report.latencies_us.len() > report.event_latencies_us.len(), "{report}");
    assert!(report.event_boards > 0, "no board of the event ended while measuring: {report}");
    assert_eq!(report.standings_us.len() as u64, report.event_boards, "{report}");
    assert_eq!(report.standings_missed, 0, "{report}");
    assert!(report.to_string().contains("standings after a board's last table ended"), "{report}");
    // The server's own view: the event's boards have results.
    let (_, list) = srv.client.get("/api/events").await.unwrap();
    let id = list["events"][0]["id"].as_str().expect("the event").to_string();
    let (_, e) = srv.client.get(&format!("/api/events/{id}")).await.unwrap();
    let complete =
        e["travellers"].as_array().unwrap().iter().filter(|t| t["complete"] == true).count() as u64;
    assert!(complete >= report.event_boards, "{e}");
}

/// Event options that describe no run are refused before anything is made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn event_options_that_do_not_fit_are_refused() {
    let srv = TestServer::start(Timing::default()).await;
    let mut opts = short_run(&srv, 4, 0);
    opts.events = Some(EventLoad { tables: 3, per_event: 2, people: 3, boards: 4 });
    let e = run(&opts, |_| {}).await.expect_err("3 tables in events of 2");
    assert!(e.to_string().contains("multiple of the tables per event"), "{e}");
    opts.events = Some(EventLoad { tables: 8, per_event: 2, people: 3, boards: 4 });
    let e = run(&opts, |_| {}).await.expect_err("8 event tables of 4");
    assert!(e.to_string().contains("more than the tables"), "{e}");
}

/// A 3-second run (after 0.5 s of warm-up) of `tables` tables against `srv`, keeping `analyses`
/// analyses asked for.
fn short_run(srv: &TestServer, tables: usize, analyses: usize) -> LoadOptions {
    LoadOptions {
        addr: srv.client.addr().to_string(),
        tables,
        game: None,
        think_ms: (5, 20),
        duration: Duration::from_secs(3),
        warmup: Duration::from_millis(500),
        seed: 7,
        nodes: Vec::new(),
        cross: false,
        analyses,
        events: None,
    }
}
