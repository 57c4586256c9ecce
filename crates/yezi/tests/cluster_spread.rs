//! After a node dies, its orphaned tables spread over the survivors (issue 32, item 3): three
//! `yezi serve` processes on one PostgreSQL database (`YEZI_TEST_POSTGRES_URL`) with the
//! PostgreSQL bus; forty tables made through one node; that node is killed (`SIGKILL`), and the
//! two others must share its tables, each taking at least 30% of them (by rendezvous hashing of
//! the tables' ids over the members; before, the first survivor to tick claimed nearly all).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use client::Client;
use serde_json::json;

struct Node {
    child: Child,
    client: Client,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn node(db: &str) -> Node {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yezi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--bus", "postgres", "--lease-ms", "1000"])
        .args(["--guests-per-ip", "1000", "--connections-per-ip", "1000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the node ended before it listened");
        if line.contains("open http://") {
            break;
        }
    }
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_tables_spread_over_the_survivors() {
    const TABLES: usize = 40;
    let pg = std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL");
    let schema = server::ids::new_id("spread_").unwrap();
    server::store::postgres::PgStore::connect(&pg, Some(&schema)).await.unwrap();
    let sep = if pg.contains('?') { '&' } else { '?' };
    let db = format!("{pg}{sep}options=-csearch_path%3D{schema}");
    let mut nodes: Vec<Node> = (0..3).map(|_| node(&db)).collect();
    let began = Instant::now();
    for n in &nodes {
        while metric(n, "yezi_cluster_members").await < 3.0 {
            assert!(began.elapsed() < Duration::from_secs(10), "the nodes do not hear each other");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    // Two hosts: a guest hosts at most 20 unfinished tables.
    let hosts = [nodes[0].client.guest("Ann").await.unwrap(), nodes[0].client.guest("Bob").await.unwrap()];
    for i in 0..TABLES {
        let host = &hosts[i % 2];
        // Waiting tables: they run, unfinished, until someone takes the open seats.
        let body = json!({ "game": "madiao", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}] });
        nodes[0].client.create_table(&host.token, &serde_json::from_value(body).unwrap()).await.unwrap();
    }
    assert_eq!(metric(&nodes[0], "yezi_tables").await, TABLES as f64);
    let dead = nodes.remove(0);
    drop(dead);
    let killed = Instant::now();
    let counts = loop {
        let counts = [metric(&nodes[0], "yezi_tables").await, metric(&nodes[1], "yezi_tables").await];
        if counts.iter().sum::<f64>() >= TABLES as f64 {
            break counts;
        }
        assert!(killed.elapsed() < Duration::from_secs(15), "the orphans were not all claimed: {counts:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    println!("after the kill: {counts:?} of {TABLES} tables, all claimed in {:?}", killed.elapsed());
    for c in counts {
        assert!(c >= 0.3 * TABLES as f64, "a survivor took {c} of {TABLES}: {counts:?}");
    }
}
