//! `GET /readyz` follows PostgreSQL (issue 32, item 4): a node on PostgreSQL answers 503 within
//! 2 s of the database going down and 200 within 2 s of its return. The test stops and starts
//! the PostgreSQL server the tests use (`YEZI_TEST_PG_BIN`, `YEZI_TEST_PG_DATA`, as
//! `cluster_faults.rs` restarts it; `./test.sh` sets them), so it is alone in its file and runs
//! alone (`.config/nextest.toml`): every other test on that server would lose its connections.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn env(name: &str) -> String {
    std::env::var(name)
        .unwrap_or_else(|_| panic!("{name} is not set: run ./test.sh, which starts PostgreSQL"))
}

/// Runs `pg_ctl` with `args` on the tests' data folder, as the `postgres` user when root.
fn pg_ctl(args: &[&str]) {
    let pg_ctl = format!("{}/pg_ctl", env("YEZI_TEST_PG_BIN"));
    let data = env("YEZI_TEST_PG_DATA");
    let root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let mut cmd = if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--", &pg_ctl]);
        c
    } else {
        Command::new(&pg_ctl)
    };
    let status = cmd.args(["-D", &data]).args(args).stdout(Stdio::null()).status().unwrap();
    assert!(status.success(), "pg_ctl {args:?} failed");
}

/// The options the server was started with (`postmaster.opts`), but its data folder, for
/// `pg_ctl start -o`.
fn start_options() -> String {
    let opts = std::fs::read_to_string(format!("{}/postmaster.opts", env("YEZI_TEST_PG_DATA"))).unwrap();
    let words: Vec<String> =
        opts.split_whitespace().skip(1).map(|w| w.trim_matches('"').to_string()).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "-D" {
            i += 2;
            continue;
        }
        out.push(words[i].clone());
        i += 1;
    }
    out.join(" ")
}

/// `/readyz`'s status (0: no answer).
async fn readyz(client: &client::Client) -> u16 {
    client.get("/readyz").await.map(|(s, _)| s).unwrap_or(0)
}

/// Waits (at most `limit`) for `/readyz` to answer `want`; how long it took.
async fn until_status(client: &client::Client, want: u16, limit: Duration) -> Duration {
    let began = Instant::now();
    loop {
        if readyz(client).await == want {
            return began.elapsed();
        }
        assert!(began.elapsed() < limit, "/readyz not {want} within {limit:?}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_is_503_within_2s_of_postgres_going_down_and_200_within_2s_of_its_return() {
    let pg = env("YEZI_TEST_POSTGRES_URL");
    let schema = server::ids::new_id("readyz_").unwrap();
    server::store::postgres::PgStore::connect(&pg, Some(&schema)).await.unwrap();
    let sep = if pg.contains('?') { '&' } else { '?' };
    let db = format!("{pg}{sep}options=-csearch_path%3D{schema}");
    let options = start_options();
    let mut child = Command::new(env!("CARGO_BIN_EXE_yezi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_string();
    let client = client::Client::new(&addr);
    until_status(&client, 200, Duration::from_secs(5)).await;
    let mut downs = Vec::new();
    let mut ups = Vec::new();
    for _ in 0..2 {
        pg_ctl(&["-m", "immediate", "-w", "stop"]);
        let down = until_status(&client, 503, Duration::from_secs(2)).await;
        let (s, body) = client.get("/readyz").await.unwrap();
        assert_eq!(s, 503);
        assert!(body["reason"].as_str().is_some_and(|r| r.contains("database")), "{body}");
        // `/healthz` still answers: the process lives.
        assert_eq!(client.get_text("/healthz").await.unwrap().0, 200);
        pg_ctl(&["-w", "-o", &options, "-l", &format!("{}/../log", env("YEZI_TEST_PG_DATA")), "start"]);
        let up = until_status(&client, 200, Duration::from_secs(2)).await;
        downs.push(down);
        ups.push(up);
    }
    println!("readyz: 503 after {downs:?} of PostgreSQL going down, 200 after {ups:?} of its return");
    let _ = child.kill();
    let _ = child.wait();
}
