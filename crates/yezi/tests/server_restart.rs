//! `yezi serve` killed with SIGKILL at unplanned moments and started again on the same database
//! resumes every table where it was: each person gets back his seat, every move anyone had seen
//! is still there (the hand's history is a prefix of what is shown after the restart), the matches
//! play on to their end, and their records replay cleanly with `yezi replay`.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use client::{Client, GuestToken, Socket, random_action};
use serde_json::{Value, json};

struct Served {
    child: Child,
    addr: String,
}

fn serve(db: &str) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yezi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args([
            "--draw-ms",
            "3",
            "--window-ms",
            "10",
            "--bot-delay-ms",
            "2",
            "--pause-ms",
            "10",
            "--trick-ms",
            "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    // "yezi serve: open http://127.0.0.1:PORT/ in a browser (…)"
    let addr =
        line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap_or_else(|| panic!("{line}"));
    Served { child, addr: addr.to_string() }
}

impl Served {
    /// SIGKILL: the server gets no chance to tidy up.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a person had seen when the server died.
#[derive(Clone, Debug, Default)]
struct Seen {
    hand: u64,
    moves: u64,
    tricks: Vec<Value>,
    over: bool,
}

fn plays(view: &Value) -> Vec<Value> {
    view["tricks"]
        .as_array()
        .map(|t| t.iter().flat_map(|t| t["plays"].as_array().cloned().unwrap_or_default()).collect())
        .unwrap_or_default()
}

/// Plays randomly until the connection dies or the match ends.
async fn person(mut s: Socket, seed: u64) -> Seen {
    let mut rng = cards::Rng::from_seed(seed);
    let mut seen = Seen::default();
    let _ = s.send(&json!({ "type": "resync" })).await;
    loop {
        let m = match s.recv_timeout(Duration::from_secs(30)).await {
            Ok(Some(m)) => m,
            _ => return seen,
        };
        if m["type"] == "error" && m["code"] == "rate_limited" {
            // Too quick for the server's per-connection limit: the move was dropped. Wait for
            // the limit to recover and ask for the table again.
            tokio::time::sleep(Duration::from_secs(1)).await;
            if s.send(&json!({ "type": "resync" })).await.is_err() {
                return seen;
            }
            continue;
        }
        if matches!(m["type"].as_str(), Some("update" | "sync")) {
            seen = Seen {
                hand: m["hand"].as_u64().unwrap(),
                moves: m["move"].as_u64().unwrap(),
                tricks: plays(&m["view"]),
                over: m["match"]["over"] == true,
            };
            if seen.over {
                return seen;
            }
            if let Some(a) = random_action(&m["legal"], &mut rng) {
                // A quick person: a few milliseconds to think.
                tokio::time::sleep(Duration::from_millis(8)).await;
                if s.send(&json!({ "type": "act", "action": a, "move": m["move"] })).await.is_err() {
                    return seen;
                }
            }
        }
    }
}

struct Seat {
    guest: GuestToken,
    table: String,
    seat: u64,
}

/// Joins the person's table again: `None` when its match is over (a finished table is no longer
/// loaded after a restart; its record is served instead).
async fn rejoin(client: &Client, p: &Seat) -> Option<(Socket, Value)> {
    let mut s = client.connect_as(&p.guest.token).await.unwrap();
    s.send(&json!({ "type": "join", "table": p.table })).await.unwrap();
    let sync = s
        .until(Duration::from_secs(20), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    if sync["code"] == "finished" {
        return None;
    }
    assert_eq!(sync["type"], "sync", "{sync}");
    Some((s, sync))
}

fn check_resumed(before: &Seen, sync: &Value, p: &Seat) {
    assert_eq!(sync["you"]["seat"].as_u64(), Some(p.seat), "the same seat");
    let hand = sync["hand"].as_u64().unwrap();
    let moves = sync["move"].as_u64().unwrap();
    assert!(moves >= before.moves, "move {} was seen, the restarted table is at {moves}", before.moves);
    assert!(hand >= before.hand, "hand {} was seen, the restarted table is at {hand}", before.hand);
    if hand == before.hand {
        let now = plays(&sync["view"]);
        assert!(
            now.len() >= before.tricks.len(),
            "{} cards were seen, {} after",
            before.tricks.len(),
            now.len()
        );
        for (a, b) in now.iter().zip(&before.tricks) {
            // The same plays; a face-down card hidden before may be shown now if the hand has
            // ended meanwhile (every card is shown at the end of a hand).
            let same = a["seat"] == b["seat"] && a["kind"] == b["kind"] && a["face_up"] == b["face_up"];
            let card_ok =
                a["card"] == b["card"] || (b["card"].is_null() && !sync["view"]["result"].is_null());
            assert!(same && card_ok, "the hand's history is kept exactly: {b} then, {a} now");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_resumes_every_table_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("yezi.db").to_string_lossy().into_owned();
    let mut srv = serve(&db);
    let mut client = Client::new(&srv.addr);
    let ann = client.guest("Ann").await.unwrap();
    let bob = client.guest("Bob").await.unwrap();
    let four_bots = json!([{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]);
    let madiao = client
        .create_table(
            &ann.token,
            &serde_json::from_value(json!({ "game": "madiao", "turn_seconds": 300,
            "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] }))
            .unwrap(),
        )
        .await
        .unwrap()
        .table
        .id;
    let dabaifen = client
        .create_table(
            &bob.token,
            // Timed: the pause between deals ends by itself (an untimed table waits for Ready).
            &serde_json::from_value(json!({ "game": "dabaifen", "turn_seconds": 300, "untimed": false }))
                .unwrap(),
        )
        .await
        .unwrap()
        .table
        .id;
    let bots = client
        .create_table(
            &ann.token,
            &serde_json::from_value(json!({ "game": "dabaifen", "seats": four_bots })).unwrap(),
        )
        .await
        .unwrap()
        .table
        .id;
    let people = [
        Seat { guest: ann.clone(), table: madiao.clone(), seat: 0 },
        Seat { guest: bob.clone(), table: madiao.clone(), seat: 1 },
        Seat { guest: bob.clone(), table: dabaifen.clone(), seat: 0 },
    ];
    let mut rng = cards::Rng::from_seed(2024);
    // The server is killed this many times at moments nobody chose; then the matches play on
    // undisturbed to their end (a Da Bai Fen match against bots may take dozens of deals).
    const KILLS: u64 = 12;
    let mut resumed = 0;
    for round in 0..=KILLS {
        // Everyone plays; the server is killed after a while nobody chose.
        let mut tasks = Vec::new();
        for (i, p) in people.iter().enumerate() {
            match rejoin(&client, p).await {
                Some((s, sync)) => {
                    assert_eq!(sync["you"]["seat"].as_u64(), Some(p.seat));
                    tasks.push(tokio::spawn(person(s, 100 * round + i as u64)));
                }
                None => tasks.push(tokio::spawn(async { Seen { over: true, ..Seen::default() } })),
            }
        }
        if round == KILLS {
            // No more kills: every person plays his match to its end.
            for (t, p) in tasks.into_iter().zip(&people) {
                let seen = tokio::time::timeout(Duration::from_secs(600), t)
                    .await
                    .unwrap_or_else(|_| panic!("the match of table {} did not end", p.table))
                    .unwrap();
                assert!(seen.over, "the connection to table {} ended before its match", p.table);
            }
            break;
        }
        let alive = Duration::from_millis(100 + u64::from(rng.below(500)));
        tokio::time::sleep(alive).await;
        srv.kill();
        let mut seen = Vec::new();
        for t in tasks {
            seen.push(t.await.unwrap());
        }
        srv = serve(&db);
        client = Client::new(&srv.addr);
        for (i, p) in people.iter().enumerate() {
            match rejoin(&client, p).await {
                Some((s, sync)) => {
                    check_resumed(&seen[i], &sync, p);
                    s.close().await;
                }
                None => {
                    // Over (it may have ended unseen just before the kill): its record is served.
                    let (status, _) = client.get_text(&format!("/api/records/{}", p.table)).await.unwrap();
                    assert_eq!(status, 200, "a table that is not loaded is finished");
                }
            }
        }
        resumed += 1;
    }
    // Every match is over: the records are served and replay cleanly.
    for id in [&madiao, &dabaifen, &bots] {
        let text = tokio::time::timeout(Duration::from_secs(600), async {
            loop {
                let (s, t) = client.get_text(&format!("/api/records/{id}")).await.unwrap();
                if s == 200 {
                    return t;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("the record of table {id} was never served"));
        let path = dir.path().join(format!("{id}.json"));
        std::fs::write(&path, &text).unwrap();
        let out =
            Command::new(env!("CARGO_BIN_EXE_yezi")).args(["replay", "--json"]).arg(&path).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["hands"].as_array().unwrap().last().unwrap()["game_over"], true, "{id}");
    }
    srv.kill();
    assert_eq!(resumed, KILLS, "the server was killed and resumed {resumed} times");
    eprintln!("the server was killed and resumed {resumed} times");
}
