//! A node paused with all its clocks stopped (issue 32, item 2): three `yezi serve` processes on
//! one PostgreSQL database (`YEZI_TEST_POSTGRES_URL`) with the PostgreSQL bus; node A runs under
//! libfaketime (`LD_PRELOAD`, its offset read from a file at every reading of a clock), so that
//! when it is stopped (`SIGSTOP`) for longer than its lease and continued, its monotonic and its
//! wall clock both show no time passed, as on a machine suspended and resumed. Meanwhile another
//! node takes A's table over. When A wakes, the person at the table (connected through node C)
//! must hear nothing from it, and A must find that its clocks are behind the database's
//! (`yezi_clock_jumps_total`) and stop the table. `./test.sh` installs libfaketime when it is
//! missing (`apt-get install faketime`); the test fails, never skips, without it.
//!
//! Runs: `YEZI_PAUSES=N` pauses (default 1; `./test.sh` runs one, alone: `.config/nextest.toml`)
//! — the long runs of `docs/performance.md`.
//!
//! What Ann hears is judged by the table's lease history: a fresh `sync` may come only from an
//! epoch begun after the new owner's `sync` (on a loaded machine a lease can lapse and the table
//! move on again, or a rebalance hand it on), and the versions never go back (each epoch counts
//! on above the earlier ones': `server::tables::task::version_base`).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use client::Client;
use serde_json::{Value, json};

const LEASE_MS: u64 = 1500;
const LIBFAKETIME: &str = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

struct Node {
    child: Child,
    client: Client,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-CONT", &self.child.id().to_string()]).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A node on `db`; under libfaketime with its offset in `faked` (seconds, `+0` to start).
fn node(db: &str, faked: Option<&std::path::Path>) -> Node {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_yezi"));
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--bus", "postgres"])
        .args([
            "--lease-ms",
            &LEASE_MS.to_string(),
            "--guests-per-ip",
            "1000",
            "--connections-per-ip",
            "1000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(file) = faked {
        cmd.env("LD_PRELOAD", LIBFAKETIME)
            .env("FAKETIME_TIMESTAMP_FILE", file)
            .env("FAKETIME_NO_CACHE", "1")
            .env("FAKETIME_DONT_RESET", "1");
    }
    let mut child = cmd.spawn().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the node ended before it listened");
        if line.contains("open http://") {
            break;
        }
    }
    // The rest of its output is read and dropped, so that it never blocks on a full pipe.
    std::thread::spawn(move || {
        let mut sink = String::new();
        while out.read_line(&mut sink).is_ok_and(|n| n > 0) {
            sink.clear();
        }
    });
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_string();
    Node { child, client: Client::new(&addr) }
}

/// A sample of a node's `/metrics`.
async fn metric(n: &Node, name: &str) -> f64 {
    let (_, text) = n.client.get_text("/metrics").await.unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')).and_then(|v| v.parse().ok()))
        .unwrap()
}

/// Whether `n` runs table `id` now (it answers the table's full summary, not the database's
/// stub).
async fn runs(n: &Node, id: &str) -> bool {
    matches!(n.client.get(&format!("/api/tables/{id}")).await, Ok((200, v)) if v.get("open_seats").is_some())
}

fn signal(n: &Node, sig: &str) {
    assert!(Command::new("kill").args([sig, &n.child.id().to_string()]).status().unwrap().success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_paused_with_its_clocks_frozen_sends_a_player_nothing_when_it_wakes() {
    assert!(
        std::path::Path::new(LIBFAKETIME).exists(),
        "{LIBFAKETIME} is missing: install libfaketime (apt-get install faketime; ./test.sh does)"
    );
    let pauses: usize = std::env::var("YEZI_PAUSES").ok().and_then(|n| n.parse().ok()).unwrap_or(1);
    let pg = std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL");
    let schema = server::ids::new_id("frozen_").unwrap();
    let store = server::store::postgres::PgStore::connect(&pg, Some(&schema)).await.unwrap();
    let sep = if pg.contains('?') { '&' } else { '?' };
    let db = format!("{pg}{sep}options=-csearch_path%3D{schema}");
    let dir = tempfile::tempdir().unwrap();
    let faked = dir.path().join("faketime");
    std::fs::write(&faked, "+0\n").unwrap();
    let a = node(&db, Some(&faked));
    let (b, c) = (node(&db, None), node(&db, None));
    let began = Instant::now();
    for n in [&a, &b, &c] {
        while metric(n, "yezi_cluster_members").await < 3.0 {
            assert!(began.elapsed() < Duration::from_secs(15), "the nodes do not hear each other");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    // The time A's clocks have stood still in all, seconds: its offset.
    let mut frozen = 0.0f64;
    let mut heard_from_zombie = 0usize;
    // Rounds in which the table moved again after A woke (a rebalance: a fresh `sync` then
    // comes from the table's new node, not from A).
    let mut moved_again = 0usize;
    for round in 0..pauses {
        // Ann at a table A runs (made through A), reached through C; untimed, so that nothing
        // happens but what she does.
        let g = a.client.guest("Ann").await.unwrap();
        let body = json!({ "game": "madiao", "untimed": true,
            "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}] });
        let id =
            a.client.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
        let mut s = c.client.connect_as(&g.token).await.unwrap();
        s.send(&json!({ "type": "join", "table": id })).await.unwrap();
        let first = s
            .until(Duration::from_secs(10), "sync", |m| m["type"] == "sync" || m["type"] == "error")
            .await
            .unwrap();
        assert_eq!(first["type"], "sync", "{first}");
        let tables_before = metric(&a, "yezi_tables").await;
        let jumps_before = metric(&a, "yezi_clock_jumps_total").await;

        // A stops for three leases at least (until the table is taken over, longer on a loaded
        // machine); B or C claims the table once A's lease has run out, and
        // Ann's connection enters it again there.
        let pause = Duration::from_millis(LEASE_MS * 3);
        signal(&a, "-STOP");
        let stopped = Instant::now();
        // (An entry that fails, `unavailable`, is asked again, as the browser client does, and
        // so is one the server says `moved` for.)
        let mut moved = None;
        while moved.is_none() {
            assert!(
                stopped.elapsed() < Duration::from_secs(20),
                "round {round}: the table was not taken over"
            );
            let m = s
                .until(Duration::from_secs(20), "the sync from the new owner", |m| {
                    m["type"] == "sync" || m["type"] == "error" || m["type"] == "moved"
                })
                .await
                .unwrap();
            if m["type"] == "sync" {
                moved = Some(m);
            } else {
                eprintln!("round {round}: {m}; entering again");
                tokio::time::sleep(Duration::from_millis(250)).await;
                s.send(&json!({ "type": "join", "table": id })).await.unwrap();
            }
        }
        let moved = moved.unwrap();
        let mut last_v = moved["v"].as_u64().unwrap();
        // While A is stopped, Ann asks again (A hears the table's channel still: the command
        // waits for it in its connection to the database).
        s.send(&json!({ "type": "resync" })).await.unwrap();
        let again = s.until(Duration::from_secs(3), "sync", |m| m["type"] == "sync").await.unwrap();
        last_v = last_v.max(again["v"].as_u64().unwrap());
        // The epochs begun by the new owner's answer: whatever Ann hears from now on that a
        // later epoch did not send is the paused node's, or a version gone back.
        let epochs_then = store.provenance(&id).await.unwrap().leases.len();
        let left = pause.saturating_sub(stopped.elapsed());
        tokio::time::sleep(left).await;
        // A's clocks go back by the time it was stopped: they show no time passed.
        frozen += stopped.elapsed().as_secs_f64();
        std::fs::write(&faked, format!("-{frozen:.3}\n")).unwrap();
        signal(&a, "-CONT");
        let woke = Instant::now();

        // For three leases after A wakes, Ann hears nothing from it: no sync, no error, no
        // version going back.
        let mut heard = Vec::new();
        while woke.elapsed() < Duration::from_millis(LEASE_MS * 3) {
            if let Some(m) = s.recv_timeout(Duration::from_millis(200)).await.unwrap() {
                if m["type"] == "moved" {
                    // Its node could not enter the moved table again for her: she does.
                    s.send(&json!({ "type": "join", "table": id })).await.unwrap();
                }
                heard.push(m);
            }
        }
        // The table's lease history: A's node holds its first epoch (A made it). Since the new
        // owner's sync, its lease may have lapsed (a loaded machine) or a rebalance handed the
        // table on (even back to A): a new epoch, whose node's `sync` is no zombie's (and any
        // message of A's old epoch is still dropped by C). Such a `sync` may have waited in
        // Ann's socket while A was stopped.
        let leases = store.provenance(&id).await.unwrap().leases;
        let a_node = leases[0].node.clone();
        let handed_on = leases.len() > epochs_then;
        moved_again += usize::from(handed_on);
        for m in &heard {
            let bad = (m["type"] == "sync" && !handed_on)
                || m["type"] == "error"
                || m["v"].as_u64().is_some_and(|v| v < last_v);
            if bad {
                heard_from_zombie += 1;
                eprintln!("round {round}: after A woke Ann heard {m}");
            }
            if let Some(v) = m["v"].as_u64() {
                last_v = last_v.max(v);
            }
        }
        // A found the pause by the database's clock and stopped the table. (Its count of tables
        // says less: a rebalance may since have handed it another one.)
        let jumps = metric(&a, "yezi_clock_jumps_total").await;
        let tables = metric(&a, "yezi_tables").await;
        eprintln!(
            "round {round}: A was stopped {:.2} s; its clock jumps {jumps_before} -> {jumps}, its tables {tables_before} -> {tables}",
            woke.duration_since(stopped).as_secs_f64()
        );
        assert!(jumps > jumps_before, "round {round}: A did not find its clocks behind the database's");
        let a_holds_anew = handed_on && leases.last().is_some_and(|l| l.node == a_node);
        assert!(
            !runs(&a, &id).await || a_holds_anew,
            "round {round}: A still runs the table under its old lease ({leases:?})"
        );
        // Ann plays on at the new owner.
        s.send(&json!({ "type": "resync" })).await.unwrap();
        let m: Value = s.until(Duration::from_secs(3), "sync", |m| m["type"] == "sync").await.unwrap();
        assert!(m["v"].as_u64().unwrap() >= last_v, "{m}");
        s.close().await;
    }
    eprintln!(
        "{pauses} pauses: {heard_from_zombie} messages from the paused node reached the player; \
         in {moved_again} of them the table moved again after A woke"
    );
    assert_eq!(heard_from_zombie, 0);
}
