//! `yezi loadtest` against a server in the test process: a short run of a few tables.

mod common;

use std::time::Duration;

use common::TestServer;
use server::loadtest::{LoadOptions, run};
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
    }
}
