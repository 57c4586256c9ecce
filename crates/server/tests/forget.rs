//! Deleting an account removes its name everywhere the server stores it (issue 28, item 7): a
//! match that was running, the records of finished ones and the archive, the names of the
//! tables it created, its chat lines, and the bytes of the SQLite files (database and
//! write-ahead log).

use crate::common;

use std::time::Duration;

use common::{TestServer, fast, play_randomly};
use serde_json::json;

const PW: &str = "correct horse battery";
/// A name no other text of the server holds.
const NAME: &str = "Qzxwvkjp";

/// How many times `NAME` (in any case) is in the bytes of `path` (0 for a missing file).
fn hits(path: &std::path::Path) -> usize {
    let bytes = std::fs::read(path).unwrap_or_default().to_ascii_lowercase();
    let needle = NAME.to_ascii_lowercase().into_bytes();
    bytes.windows(needle.len()).filter(|w| *w == needle.as_slice()).count()
}

async fn stored_record(srv: &TestServer, id: &str) -> String {
    for _ in 0..6000 {
        if let Some(r) = srv.app.store.record(id).await.unwrap() {
            return r;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("table {id} has no record");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_accounts_name_is_nowhere_in_the_database_files() {
    let srv = TestServer::start(fast()).await;
    let g = srv.guest(NAME).await;
    let token = srv.client.claim_account(&g.token, NAME, PW).await.unwrap().token;
    // Another account mutes and blocks him and reports him by name; he blocks it back.
    let other = srv.guest("Ovid").await;
    let other = srv.client.claim_account(&other.token, "ovid_o", PW).await.unwrap();
    for (path, who) in [
        (format!("/api/me/mutes/{}", g.id), &other.token),
        (format!("/api/me/blocks/{}", g.id), &other.token),
        (format!("/api/me/blocks/{}", other.id), &token),
    ] {
        let (status, text) = srv.client.request("PUT", &path, Some(&json!({})), Some(who)).await.unwrap();
        assert_eq!(status, 200, "{path}: {text}");
    }
    let report = json!({ "player": g.id, "reason": format!("{} was rude", NAME.to_uppercase()) });
    let (status, reply) = srv.client.post("/api/reports", &report, Some(&other.token)).await.unwrap();
    assert_eq!(status, 201, "{reply}");
    let table = |hands: &str| {
        json!({
            "game": "madiao", "variants": { "game_length": hands }, "turn_seconds": 60, "grace_seconds": 0,
            "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
        })
    };
    // A finished match (its record, the public archive) at a table named after him.
    let (status, reply) = srv.client.post("/api/tables", &table("hands:1"), Some(&token)).await.unwrap();
    assert_eq!(status, 201, "{reply}");
    let done = reply["table"]["id"].as_str().unwrap().to_string();
    assert_eq!(reply["table"]["name"], format!("{NAME}'s table"));
    let mut s = srv.client.connect_as(&token).await.unwrap();
    s.send(&json!({ "type": "join", "table": done })).await.unwrap();
    play_randomly(&mut s, 5, Duration::from_secs(120)).await;
    assert!(stored_record(&srv, &done).await.contains(NAME));
    // A match running when he deletes the account, where he chatted.
    let (status, reply) = srv.client.post("/api/tables", &table("hands:3"), Some(&token)).await.unwrap();
    assert_eq!(status, 201, "{reply}");
    let running = reply["table"]["id"].as_str().unwrap().to_string();
    let mut r = srv.client.connect_as(&token).await.unwrap();
    r.send(&json!({ "type": "join", "table": running })).await.unwrap();
    r.until(Duration::from_secs(10), "the start", |m| m["type"] == "update" && m["event"]["kind"] == "start")
        .await
        .unwrap();
    r.send(&json!({ "type": "chat", "text": "good luck" })).await.unwrap();
    r.until(Duration::from_secs(10), "the chat", |m| m["type"] == "chat").await.unwrap();
    let db = srv.dir.path().join("yezi.db");
    let wal = srv.dir.path().join("yezi.db-wal");
    assert!(hits(&db) + hits(&wal) > 0, "the name is stored before");

    srv.client.delete_account(&token, PW).await.unwrap();
    // The running table forgot him at once: its name and seat.
    let mut summary = serde_json::Value::Null;
    for _ in 0..500 {
        summary = srv.client.get(&format!("/api/tables/{running}")).await.unwrap().1;
        if summary["name"] != format!("{NAME}'s table") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(!summary.to_string().to_lowercase().contains(&NAME.to_lowercase()), "{summary}");
    assert_eq!(summary["name"], "deleted player's table", "{summary}");
    // Its match ends (bots play his seat) with a record without his name.
    let record = stored_record(&srv, &running).await;
    assert!(!record.contains(NAME), "{record}");
    assert!(record.contains("deleted player"), "{record}");
    let finished = stored_record(&srv, &done).await;
    assert!(!finished.contains(NAME) && finished.contains("deleted player"), "{finished}");
    let (_, archived) = srv.client.get(&format!("/api/archive/games/{done}")).await.unwrap();
    assert!(!archived.to_string().contains(NAME), "{archived}");
    // And the files hold his name nowhere (the store checkpoints its log after the deletion; the
    // running match's end was written after it, without the name).
    // His mutes and blocks are gone both ways; the report stays, naming "deleted player".
    let (_, lists) = srv.client.request("GET", "/api/me/moderation", None, Some(&other.token)).await.unwrap();
    let lists: serde_json::Value = serde_json::from_str(&lists).unwrap();
    assert_eq!((&lists["muted"], &lists["blocked"]), (&json!([]), &json!([])), "{lists}");
    let reports = srv.app.store.reports(10).await.unwrap();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(reports[0].reason, "deleted player was rude");
    let blocks = srv.app.store.blocks_between(&other.id, std::slice::from_ref(&g.id)).await.unwrap();
    assert!(blocks.is_empty(), "{blocks:?}");
    let (in_db, in_wal) = (hits(&db), hits(&wal));
    assert_eq!((in_db, in_wal), (0, 0), "the name is still in the database ({in_db}) or its log ({in_wal})");
}
