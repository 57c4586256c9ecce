//! `yezi replay` reads an archive downloaded from a server (gzip-compressed JSON Lines of
//! `yezi/1` records) and replays every record in it; a bad record in it fails the run and is
//! named by its line.

use std::io::{Read as _, Write as _};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use server::store::sqlite::SqliteStore;
use server::{Config, Limits};
use table::settings::Timing;

fn yezi(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_yezi")).args(args).output().expect("yezi runs")
}

/// `GET path` over HTTP/1.0 (the body ends with the connection): the status line and the body.
fn http_get(addr: &str, path: &str) -> (String, Vec<u8>) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).unwrap();
    let end = all.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head");
    let head = String::from_utf8_lossy(&all[..end]).into_owned();
    (head.lines().next().unwrap_or("").to_string(), all[end + 4..].to_vec())
}

fn timing() -> Timing {
    Timing {
        draw_ms: 2,
        window_ms: 5,
        bot_delay_ms: 0,
        trick_ms: 0,
        pause_ms: 5,
        retire_ms: 60_000,
        park_ms: 600_000,
        poll_hold_ms: 0,
    }
}

#[test]
fn yezi_replay_reads_a_downloaded_archive() {
    let dir = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let db = dir.path().join("yezi.db");
    let addr = rt.block_on(async move {
        let store = Arc::new(SqliteStore::open(db.to_str().unwrap()).unwrap());
        let app = server::App::start(
            store,
            Config { timing: timing(), limits: Limits::default(), ..Default::default() },
        )
        .await
        .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        tokio::spawn(async move {
            let _ = server::serve(listener, app).await;
        });
        let c = client::Client::new(&addr);
        let g = c.guest("Ann").await.unwrap();
        // Two public tables of bots, which play at once to their end.
        let mut ids = Vec::new();
        for game in ["madiao", "madiao"] {
            let body = json!({
                "game": game,
                "variants": { "game_length": "hands:1" },
                "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
            });
            let t = c.create_table(&g.token, &serde_json::from_value(body).unwrap()).await.unwrap();
            ids.push(t.table.id);
        }
        for id in &ids {
            let done = async {
                while c.get(&format!("/api/records/{id}")).await.unwrap().0 != 200 {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            };
            tokio::time::timeout(Duration::from_secs(30), done).await.expect("the match ends");
        }
        addr
    });
    let now_ms =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    // This month, as the archive names it (the month whose range holds now).
    let month = (1970..=9999)
        .flat_map(|y| (1..=12).map(move |m| format!("{y:04}-{m:02}")))
        .find(|m| table::archive::month_range(m).is_some_and(|(a, b)| a <= now_ms && now_ms < b))
        .unwrap();
    let (status, body) = http_get(&addr, &format!("/api/archive/month/{month}"));
    assert!(status.contains(" 200 "), "{status}");
    let file = dir.path().join("archive.jsonl.gz");
    std::fs::write(&file, &body).unwrap();

    let out = yezi(&["replay", file.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("2 record(s), 2 replayed cleanly"), "{stdout}");
    assert!(stdout.contains("line 1 ==") && stdout.contains("line 2 =="), "{stdout}");
    assert!(stdout.contains("Madiao record"), "{stdout}");
    // With --json, one document of results per record.
    let out = yezi(&["replay", "--json", file.to_str().unwrap()]);
    assert!(out.status.success());
    let docs: Vec<serde_json::Value> =
        serde_json::Deserializer::from_slice(&out.stdout).into_iter().collect::<Result<_, _>>().unwrap();
    assert_eq!(docs.len(), 2);
    assert!(docs.iter().all(|d| d["hands"].as_array().is_some_and(|h| !h.is_empty())));

    // One record spoiled (its first deck card repeats the second): the run fails and names the
    // line.
    let mut text = String::new();
    flate2::read::GzDecoder::new(&body[..]).read_to_string(&mut text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    let mut rec: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    rec["hands"][0]["deck"][0] = rec["hands"][0]["deck"][1].clone();
    let spoiled = format!("{}\n{}\n", lines[0], rec);
    let bad = dir.path().join("bad.jsonl.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(spoiled.as_bytes()).unwrap();
    std::fs::write(&bad, gz.finish().unwrap()).unwrap();
    let out = yezi(&["replay", bad.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("line 2"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 record(s), 1 replayed cleanly"));
    drop(rt);
}
