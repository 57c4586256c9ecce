//! `yezi serve` refuses to start on a database it cannot use (a read-only file, a damaged one)
//! with a clear message and no panic; it never shows a database password; and `--web-dir`
//! serves no file whose real path leaves the folder.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cards::record::GameKind;
use wire::NewTable;

/// A `yezi serve` on a loopback port with `args`.
fn spawn(args: &[&str], uid: Option<u32>) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_yezi"));
    cmd.args(["serve", "--addr", "127.0.0.1:0"]).args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(uid) = uid {
        std::os::unix::process::CommandExt::uid(&mut cmd, uid);
    }
    cmd.spawn().unwrap()
}

/// Waits for the server to exit (within 20 s): its status and standard error. A server that
/// starts instead (it prints its address) fails the test.
fn refused(mut child: Child) -> (std::process::ExitStatus, String) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            return (status, err);
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let mut out = String::new();
            let _ = child.stdout.take().unwrap().read_to_string(&mut out);
            panic!("yezi serve started instead of refusing the database: {out}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The clear refusal: a non-zero exit, no panic, and a message with all of `needles`.
fn assert_refused(child: Child, needles: &[&str]) -> String {
    let (status, err) = refused(child);
    assert!(!status.success(), "{err}");
    assert!(!err.contains("panicked") && !err.contains("backtrace"), "{err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} not in {err:?}");
    }
    err
}

/// A database with the server's schema, written by `yezi serve` itself (in WAL mode, as the server
/// leaves it, when `wal`), without a write-ahead log left beside it; `extra` runs on it before it
/// is closed.
fn made_database(path: &Path, wal: bool, extra: impl FnOnce(&rusqlite::Connection)) {
    let mut child = spawn(&["--db", path.to_str().unwrap()], None);
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.contains("http://"), "{line}");
    child.kill().unwrap();
    child.wait().unwrap();
    let conn = rusqlite::Connection::open(path).unwrap();
    if wal {
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
    } else {
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    extra(&conn);
    drop(conn);
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

#[test]
fn a_read_only_database_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("yezi.db");
    made_database(&path, true, |_| {});
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    // Root writes any file: the server then runs as `nobody`, for whom the file is read-only
    // (the folder stays writable, so only the file's permission is in the way).
    let uid = is_root().then_some(65534);
    if uid.is_some() {
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    assert_refused(spawn(&["--db", path.to_str().unwrap()], uid), &["yezi.db", "cannot be written"]);
}

#[test]
fn a_damaged_database_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("yezi.db");
    let mut root_page = 0;
    let mut page_size = 0;
    made_database(&path, false, |c| {
        c.execute_batch("CREATE TABLE filler (n INTEGER PRIMARY KEY, pad TEXT NOT NULL)").unwrap();
        for n in 0..400 {
            c.execute("INSERT INTO filler (n, pad) VALUES (?1, ?2)", rusqlite::params![n, "x".repeat(300)])
                .unwrap();
        }
        root_page = c
            .query_row("SELECT rootpage FROM sqlite_master WHERE name = 'filler'", [], |r| r.get::<_, i64>(0))
            .unwrap();
        page_size = c.query_row("PRAGMA page_size", [], |r| r.get::<_, i64>(0)).unwrap();
    });
    // The filler table's root page is overwritten: the tables the server reads at start are intact.
    let mut bytes = std::fs::read(&path).unwrap();
    let at = ((root_page - 1) * page_size) as usize;
    for (i, b) in bytes[at..at + page_size as usize].iter_mut().enumerate() {
        *b = (i * 7 + 13) as u8;
    }
    std::fs::write(&path, bytes).unwrap();
    assert_refused(spawn(&["--db", path.to_str().unwrap()], None), &["yezi.db", "integrity_check"]);
}

#[test]
fn a_database_password_is_never_shown() {
    for url in [
        "postgres://yezi:s3cr3t-pw@127.0.0.1:1/yezi",
        "postgresql://yezi:s3cr3t-pw@127.0.0.1:1/yezi?connect_timeout=2",
        "postgres://yezi@127.0.0.1:1/yezi?password=s3cr3t-pw&connect_timeout=2",
        "mysql://yezi:s3cr3t-pw@127.0.0.1/yezi",
    ] {
        let err = assert_refused(spawn(&["--db", url], None), &["***"]);
        assert!(!err.contains("s3cr3t-pw"), "{url}: {err}");
    }
}

#[test]
fn the_web_dir_serves_nothing_outside_it() {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("web");
    std::fs::create_dir_all(web.join("js")).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><p>here</p>").unwrap();
    std::fs::write(web.join("js/app.js"), "export {}").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "the secret").unwrap();
    std::fs::create_dir(dir.path().join("private")).unwrap();
    std::fs::write(dir.path().join("private/key.txt"), "the key").unwrap();
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), web.join("leak.txt")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("private"), web.join("js/private")).unwrap();
    std::os::unix::fs::symlink("app.js", web.join("js/inside.js")).unwrap();
    let db = dir.path().join("yezi.db");
    let mut child = spawn(
        &[
            "--db",
            db.to_str().unwrap(),
            "--web-dir",
            web.to_str().unwrap(),
            "--public-url",
            "https://cards.example.org/",
        ],
        None,
    );
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_string();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let client = client::Client::new(&addr);
    rt.block_on(async {
        assert_eq!(client.get_text("/").await.unwrap(), (200, "<!doctype html><p>here</p>".into()));
        assert_eq!(client.get_text("/js/inside.js").await.unwrap(), (200, "export {}".into()));
        for path in ["/leak.txt", "/js/private/key.txt"] {
            let (status, body) = client.get_text(path).await.unwrap();
            assert_eq!(status, 404, "{path}: {body}");
        }
        // The invite link is built from --public-url.
        let g = client.guest("Ann").await.unwrap();
        let v = client.create_table(&g.token, &NewTable::new(GameKind::Madiao)).await.unwrap();
        assert!(v.invite.starts_with("https://cards.example.org/t/"), "{}", v.invite);
    });
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_bots_file_is_checked_and_its_bots_are_offered() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("yezi.db");
    let db = db.to_str().unwrap();
    let file = dir.path().join("bots.json");
    let file_s = file.to_str().unwrap();
    assert_refused(spawn(&["--db", db, "--bots", file_s], None), &["--bots", "bots.json"]);
    std::fs::write(&file, r#"{"bots": [{"name": "random", "command": "python3 x.py"}]}"#).unwrap();
    assert_refused(spawn(&["--db", db, "--bots", file_s], None), &["--bots", "built-in"]);
    std::fs::write(&file, r#"{"bots": [{"name": "mine", "command": "python3 'x.py"}]}"#).unwrap();
    assert_refused(spawn(&["--db", db, "--bots", file_s], None), &["bots[0]", "unclosed quote"]);
    std::fs::write(
        &file,
        r#"{"bots": [{"name": "mine", "command": "python3 x.py", "games": ["dabaifen"]}]}"#,
    )
    .unwrap();
    let mut child = spawn(&["--db", db, "--bots", file_s], None);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_string();
    let mut second = String::new();
    out.read_line(&mut second).unwrap();
    assert_eq!(second.trim(), "yezi serve: external bots: mine");
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let (status, games) = client::Client::new(&addr).get("/api/games").await.unwrap();
        assert_eq!(status, 200);
        for g in games["games"].as_array().unwrap() {
            let has = g["bots"].as_array().unwrap().iter().any(|b| b == "mine");
            assert_eq!(has, g["game"] == "dabaifen", "{g}");
        }
    });
    let _ = child.kill();
    let _ = child.wait();
}
