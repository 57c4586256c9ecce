//! Running a node: `yezi backup` of a live server restored into a new one, a drain on SIGTERM
//! and SIGINT (the node exits 0, its tables resume from the log), `/healthz`, `/readyz` and
//! `/metrics`, and the starts that are refused: a bus on a SQLite file, and a node without
//! `--bus` on a cluster's database (that one needs `YEZI_TEST_POSTGRES_URL`; `./test.sh` starts
//! PostgreSQL).

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use client::Client;
use serde_json::json;

/// A `yezi serve` on a loopback port, with fast bots.
struct Served {
    child: Child,
    addr: String,
    out: BufReader<std::process::ChildStdout>,
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_yezi"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args([
            "--draw-ms",
            "3",
            "--window-ms",
            "10",
            "--bot-delay-ms",
            "5",
            "--pause-ms",
            "10",
            "--trick-ms",
            "2",
        ])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Starts a server and reads its address (from the line that names it; a cluster member says
/// so first).
fn serve(args: &[&str]) -> (Served, String) {
    let mut child = spawn(args);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the server ended before it listened");
        if line.contains("open http://") {
            break;
        }
    }
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_string();
    (Served { child, addr, out }, line)
}

impl Served {
    /// Sends `signal` and waits (at most 30 s) for the exit: its status and what it printed since.
    fn stop(mut self, signal: &str) -> (std::process::ExitStatus, String) {
        let ok = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
        let began = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            assert!(began.elapsed() < Duration::from_secs(30), "the server did not stop after {signal}");
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut rest = String::new();
        self.out.read_to_string(&mut rest).unwrap();
        (status, rest)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How many tables a server resumed, from its first line.
fn resumed(line: &str) -> usize {
    line.split(" tables resumed")
        .next()
        .and_then(|l| l.rsplit('(').next())
        .and_then(|n| n.parse().ok())
        .unwrap()
}

/// A table of four bots playing Da Bai Fen (so the database is written all the time); its id.
async fn bots_table(client: &Client) -> String {
    let host = client.guest("Host").await.unwrap();
    let seats = json!([{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]);
    client
        .create_table(
            &host.token,
            &serde_json::from_value(json!({ "game": "dabaifen", "seats": seats })).unwrap(),
        )
        .await
        .unwrap()
        .table
        .id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_servers_backup_restores_into_a_new_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db");
    let (srv, _) = serve(&["--db", db.to_str().unwrap()]);
    let client = Client::new(&srv.addr);
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(bots_table(&client).await);
    }
    // The bots play on while the copy is made.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let copy = dir.path().join("copy.db");
    let out = Command::new(env!("CARGO_BIN_EXE_yezi"))
        .args(["backup", copy.to_str().unwrap(), "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("integrity ok"));
    // A second backup to the same file is refused: nothing is overwritten.
    let again = Command::new(env!("CARGO_BIN_EXE_yezi"))
        .args(["backup", copy.to_str().unwrap(), "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
    let pg = Command::new(env!("CARGO_BIN_EXE_yezi"))
        .args(["backup", "x.db", "--db", "postgres://u@127.0.0.1:1/db"])
        .output()
        .unwrap();
    assert!(!pg.status.success() && String::from_utf8_lossy(&pg.stderr).contains("pg_dump"));
    drop(srv);
    // The copy is a database of its own: a new server resumes the games from it.
    let (restored, line) = serve(&["--db", copy.to_str().unwrap()]);
    assert_eq!(resumed(&line), ids.len(), "{line}");
    let c2 = Client::new(&restored.addr);
    let lobby = c2.lobby(50).await.unwrap();
    for id in &ids {
        assert!(lobby.tables.iter().any(|t| &t.id == id), "table {id} is in the restored lobby");
        let (status, info) = c2.get(&format!("/api/tables/{id}")).await.unwrap();
        assert_eq!(status, 200, "{info}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_and_sigint_drain_a_single_node_which_exits_zero() {
    for signal in ["TERM", "INT"] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("yezi.db");
        let (srv, _) = serve(&["--db", db.to_str().unwrap(), "--drain-timeout", "5"]);
        let client = Client::new(&srv.addr);
        let id = bots_table(&client).await;
        let watcher = client.guest("Watcher").await.unwrap();
        let mut socket = client.connect_as(&watcher.token).await.unwrap();
        socket.send(&json!({ "type": "watch", "table": id })).await.unwrap();
        let sync = socket.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
        assert_eq!(sync["type"], "sync");
        tokio::time::sleep(Duration::from_millis(300)).await;
        let began = Instant::now();
        let (status, said) = tokio::task::spawn_blocking(move || srv.stop(signal)).await.unwrap();
        assert!(status.success(), "SIG{signal}: {status:?} {said}");
        assert!(said.contains("1 tables handed off, 0 still running"), "SIG{signal}: {said}");
        assert!(began.elapsed() < Duration::from_secs(5), "the drain took {:?}", began.elapsed());
        // The watcher's socket was closed by the server.
        let closed = loop {
            match socket.recv_timeout(Duration::from_secs(5)).await {
                Ok(Some(_)) => continue,
                Ok(None) => break false,
                Err(_) => break true,
            }
        };
        assert!(closed, "SIG{signal}: the connection was closed");
        // The table resumes from its log at the next start.
        let (again, line) = serve(&["--db", db.to_str().unwrap()]);
        assert_eq!(resumed(&line), 1, "{line}");
        let (status, _) = Client::new(&again.addr).get(&format!("/api/tables/{id}")).await.unwrap();
        assert_eq!(status, 200);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_readyz_and_metrics_answer_and_the_metrics_match_the_stats() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("yezi.db");
    let maddr = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let (srv, _) = serve(&["--db", db.to_str().unwrap(), "--metrics-addr", &maddr.to_string()]);
    let client = Client::new(&srv.addr);
    let (s, _) = client.get_text("/healthz").await.unwrap();
    assert_eq!(s, 200);
    let (s, body) = client.get("/readyz").await.unwrap();
    assert_eq!((s, body["ready"].as_bool()), (200, Some(true)), "{body}");
    bots_table(&client).await;
    bots_table(&client).await;
    let stats = client.stats().await.unwrap();
    for c in [Client::new(&srv.addr), Client::new(&maddr.to_string())] {
        let (s, text) = c.get_text("/metrics").await.unwrap();
        assert_eq!(s, 200);
        let samples = parse_prometheus(&text);
        assert_eq!(samples["yezi_tables"], stats.tables as f64, "{text}");
        assert_eq!(samples["yezi_fenced_writes_total"], stats.fenced_writes as f64);
        assert_eq!(samples["yezi_leases_lost_total"], stats.leases_lost as f64);
        assert_eq!(samples["yezi_ready"], 1.0);
        assert!(samples.contains_key("yezi_move_broadcast_seconds_bucket{le=\"+Inf\"}"));
    }
}

/// A strict reading of Prometheus' text format: every line a comment (`# HELP name text`,
/// `# TYPE name kind`, with a known kind, before the family's samples) or a sample `name[{labels}]
/// value` of a declared family with a number for its value; each sample by its name and labels.
fn parse_prometheus(text: &str) -> std::collections::HashMap<String, f64> {
    let mut types: std::collections::HashMap<String, String> = Default::default();
    let mut samples = std::collections::HashMap::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# ") {
            let mut parts = rest.splitn(3, ' ');
            let (what, name, tail) =
                (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap_or(""));
            assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':'), "{line}");
            match what {
                "HELP" => assert!(!tail.is_empty(), "{line}"),
                "TYPE" => {
                    assert!(
                        ["counter", "gauge", "histogram", "summary", "untyped"].contains(&tail),
                        "{line}"
                    );
                    types.insert(name.to_string(), tail.to_string());
                }
                _ => panic!("unknown comment {line}"),
            }
            continue;
        }
        let (key, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("{line}"));
        let name = key.split('{').next().unwrap();
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| name.strip_suffix(s).filter(|f| types.get(*f).is_some_and(|t| t == "histogram")))
            .unwrap_or(name);
        assert!(types.contains_key(family), "a sample of an undeclared family: {line}");
        if types[family] == "counter" {
            assert!(name.ends_with("_total"), "{line}");
        }
        let v: f64 = value.parse().unwrap_or_else(|_| panic!("{line}"));
        assert!(samples.insert(key.to_string(), v).is_none(), "twice: {line}");
    }
    samples
}

/// Waits (at most 20 s) for a server that must refuse to start: its status and standard error.
fn refused(mut child: Child) -> (std::process::ExitStatus, String) {
    let began = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            return (status, err);
        }
        if began.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("the server started instead of refusing");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_bus_on_a_sqlite_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("yezi.db");
    let (status, err) = refused(spawn(&["--db", db.to_str().unwrap(), "--bus", "postgres"]));
    assert!(!status.success());
    assert!(err.contains("--bus needs a PostgreSQL database"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_node_without_bus_on_a_clusters_database_is_refused() {
    let pg = std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL");
    let schema = server::ids::new_id("nobus_").unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(server::store::postgres::PgStore::connect(&pg, Some(&schema))).unwrap();
    let sep = if pg.contains('?') { '&' } else { '?' };
    let db = format!("{pg}{sep}options=-csearch_path%3D{schema}");
    // Alone on the database, a node without a bus starts (one node on PostgreSQL).
    let (alone, _) = serve(&["--db", &db]);
    drop(alone);
    // A member with the bus runs; then a node without it is refused, naming the flag.
    let (member, _) = serve(&["--db", &db, "--bus", "postgres"]);
    std::thread::sleep(Duration::from_millis(1200));
    let (status, err) = refused(spawn(&["--db", &db]));
    assert!(!status.success());
    assert!(err.contains("--bus") && err.contains("a cluster's"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    drop(member);
}
