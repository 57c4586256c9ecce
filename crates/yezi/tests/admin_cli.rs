//! `yezi admin` on a SQLite database: it lists the players' reports, mutes an account's chat,
//! bans an account and an address, lifts a sanction, removes a chat line, shows a player's games,
//! and logs every action with who and why; bad input is refused with a message and a failing
//! exit status.

use std::process::Command;

use server::store::moderation::ReportRow;
use server::store::sqlite::SqliteStore;
use server::store::{AccountRow, ChatRow, GuestRow, SeatRow, SessionRow, TableRow, TableStatus};

fn yezi(db: &str, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yezi"))
        .args(["admin", "--db", db])
        .args(args)
        .env("USER", "mo")
        .output()
        .expect("yezi runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(db: &str, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (ok, out, err) = yezi(db, &all);
    assert!(ok, "yezi admin {args:?} failed: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn yezi_admin_moderates_on_the_database_and_logs_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("yezi.db");
    let db = path.to_str().unwrap().to_string();
    {
        let store = SqliteStore::open(&db).unwrap();
        use server::store::{Identities, TableLog, moderation::Moderation};
        for (id, name) in [("gbo", "Bo 波"), ("gann", "Ann")] {
            let g =
                GuestRow { id: id.into(), name: name.into(), token_hash: format!("h{id}"), created_ms: 1 };
            store.create_guest(&g).await.unwrap();
        }
        let account = AccountRow {
            guest: "gbo".into(),
            username: "Bo_Wang".into(),
            username_key: "bo_wang".into(),
            password_hash: "not-a-hash".into(),
            created_ms: 2,
        };
        let session = SessionRow {
            token_hash: "s1".into(),
            guest: "gbo".into(),
            created_ms: 2,
            expires_ms: 3,
            revoked_ms: None,
        };
        store.claim_account(&account, &session).await.unwrap();
        let table = TableRow {
            id: "tone".into(),
            game: "madiao".into(),
            settings: r#"{"name":"one"}"#.into(),
            seed: 7,
            host: Some("gann".into()),
            status: TableStatus::Playing,
            created_ms: 5,
            seats: [
                SeatRow::Person { guest: "gann".into(), name: "Ann".into() },
                SeatRow::Person { guest: "gbo".into(), name: "Bo 波".into() },
                SeatRow::Open,
                SeatRow::Bot("heuristic".into()),
            ],
        };
        store.create_table(&table).await.unwrap();
        for (seq, text) in [(0, "you fool"), (1, "sorry")] {
            let line = ChatRow {
                seq,
                at_ms: 6,
                guest: Some("gbo".into()),
                name: "Bo 波".into(),
                seat: Some(1),
                text: text.into(),
            };
            store.append_chat("tone", &line).await.unwrap();
        }
        let report = ReportRow {
            id: "rone".into(),
            reporter: "gann".into(),
            player: "gbo".into(),
            table: Some("tone".into()),
            chat_seq: Some(0),
            chat_text: Some("you fool".into()),
            reason: "insult 侮辱".into(),
            created_ms: 7,
        };
        store.add_report(&report).await.unwrap();
    }

    // The reports, as text and as JSON.
    let (ok, out, err) = yezi(&db, &["reports"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("rone")
            && out.contains("Bo 波")
            && out.contains("\"you fool\"")
            && out.contains("insult 侮辱"),
        "{out}"
    );
    let reports = json(&db, &["reports"]);
    assert_eq!(reports["reports"][0]["chat"], 0, "{reports}");

    // A chat mute and a ban, by username in any case, and a ban of an address.
    let muted = json(&db, &["mute-chat", "BO_WANG", "--minutes", "30", "--reason", "spam"]);
    assert_eq!(
        (&muted["kind"], &muted["subject"], &muted["in_force"]),
        (&"mute_chat".into(), &"gbo".into(), &true.into())
    );
    let ban = json(&db, &["ban", "gbo", "--minutes", "1440", "--reason", "abuse", "--by", "Zed"]);
    assert_eq!((&ban["kind"], &ban["by"]), (&"ban_account".into(), &"Zed".into()), "{ban}");
    let (ok, out, err) = yezi(&db, &["ban-address", "2001:db8::7", "--minutes", "5", "--reason", "flood"]);
    assert!(ok, "{err}");
    assert!(out.contains("ban_address  2001:db8::7") && out.contains("in force"), "{out}");

    // Lifted, then listed as lifted.
    let id = ban["id"].as_str().unwrap();
    let (ok, _, err) = yezi(&db, &["lift", id, "--reason", "appeal"]);
    assert!(ok, "{err}");
    let sanctions = json(&db, &["sanctions"]);
    let lifted = sanctions["sanctions"].as_array().unwrap().iter().find(|s| s["id"] == id).unwrap();
    assert!(lifted["lifted_ms"].is_number() && lifted["in_force"] == false, "{lifted}");

    // The chat line removed from the history.
    let (ok, _, err) = yezi(&db, &["remove-chat", "tone", "0", "--reason", "insult"]);
    assert!(ok, "{err}");
    let store = SqliteStore::open(&db).unwrap();
    use server::store::TableLog;
    let left: Vec<String> =
        store.recent_chat("tone", 10).await.unwrap().into_iter().map(|c| c.text).collect();
    assert_eq!(left, ["sorry"]);

    // The player's games.
    let games = json(&db, &["games", "bo_wang"]);
    assert_eq!((&games["name"], &games["games"][0]["id"]), (&"Bo 波".into(), &"tone".into()), "{games}");

    // Every action in the log, newest first, with who and why.
    let log = json(&db, &["log"]);
    let lines: Vec<(String, String, String)> = log["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["action"].as_str().unwrap().into(),
                l["by"].as_str().unwrap().into(),
                l["reason"].as_str().unwrap().into(),
            )
        })
        .collect();
    let actions: Vec<&str> = lines.iter().map(|l| l.0.as_str()).collect();
    assert_eq!(actions, ["remove_chat", "lift", "ban_address", "ban_account", "mute_chat"], "{log}");
    assert_eq!(lines[1].1, "mo", "--by defaults to $USER");
    assert_eq!(lines[3].1, "Zed");
    assert!(lines[0].2.contains("insult") && lines[0].2.contains("you fool"), "{lines:?}");

    // Bad input: a clear message and a failing status, nothing logged.
    for (args, says) in [
        (vec!["ban", "nobody", "--minutes", "5", "--reason", "x"], "no player"),
        (vec!["ban-address", "not-an-ip", "--minutes", "5", "--reason", "x"], "not an IP address"),
        (vec!["mute-chat", "bo_wang", "--minutes", "0", "--reason", "x"], "minutes must be"),
        (vec!["lift", "snosuch", "--reason", "x"], "no sanction"),
        (vec!["remove-chat", "tone", "0", "--reason", "x"], "no chat line 0"),
    ] {
        let (ok, _, err) = yezi(&db, &args);
        assert!(!ok && err.contains(says), "{args:?}: {err}");
    }
    let long = "y".repeat(501);
    let (ok, _, err) = yezi(&db, &["ban", "bo_wang", "--minutes", "5", "--reason", &long]);
    assert!(!ok && err.contains("at most 500"), "{err}");
    assert_eq!(json(&db, &["log"])["log"].as_array().unwrap().len(), 5, "no bad input is logged");
}
