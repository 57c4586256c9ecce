//! The public archive over HTTP: finished public games listed newest first, a page at a time and
//! by player; each record downloaded alone, and in bulk (a player's games, a month's) as
//! gzip-compressed JSON Lines whose every line is a `yezi/1` record the engines replay; private
//! tables never appear.

use crate::common;

use std::io::Read as _;
use std::time::Duration;

use ai::record::AnyRecord;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::TestServer;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    bytes: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

async fn get(t: &TestServer, path: &str) -> Answer {
    let req = Request::builder().uri(path).body(Body::empty()).unwrap();
    let res = server::router(t.app.clone()).oneshot(req).await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    Answer { status, headers, bytes }
}

/// Plays a one-hand Madiao match to its end with `name` in seat 0 (random legal play) and three
/// bots; returns the table's id.
async fn play_one(t: &TestServer, name: &str, private: bool, seed: u64) -> String {
    let g = t.guest(name).await;
    let body = json!({
        "game": "madiao",
        "private": private,
        "variants": { "game_length": "hands:1" },
        "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
    });
    let id = t.table(&g, body).await;
    let (mut s, _) = t.join(&g, &id, None).await;
    common::play_randomly(&mut s, seed, Duration::from_secs(60)).await;
    // The match is over: its record is stored.
    let ok = async {
        loop {
            // (Read from the store: a private game's record is not served to a stranger.)
            if t.app.store.record(&id).await.unwrap().is_some() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), ok).await.expect("the record is stored");
    id
}

/// Checks that `text` is a `yezi/1` record the engine replays without a fault; returns it.
fn replays(text: &str) -> AnyRecord {
    let rec = ai::record::parse(text).unwrap_or_else(|e| panic!("not a record: {e}: {text}"));
    match &rec {
        AnyRecord::Madiao(r) => {
            let rep = madiao::record::replay(r);
            assert!(rep.is_clean(), "the record does not replay: {:?}", rep.error);
        }
        AnyRecord::Dabaifen(r) => {
            let rep = dabaifen::record::replay(r);
            assert!(rep.is_clean(), "the record does not replay: {:?}", rep.error);
        }
    }
    rec
}

fn ids(page: &Value) -> Vec<String> {
    page["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect()
}

/// The lines of a gzip-compressed JSON Lines file.
fn gunzip_lines(bytes: &[u8]) -> Vec<String> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes).read_to_string(&mut text).expect("a gzip file");
    text.lines().map(str::to_string).collect()
}

fn players(rec: &AnyRecord) -> Vec<String> {
    let p = match rec {
        AnyRecord::Madiao(r) => r.players.clone(),
        AnyRecord::Dabaifen(r) => r.players.clone(),
    };
    p.map(|p| p.iter().map(|(_, n)| n.clone()).collect()).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_public_games_are_listed_searched_and_downloaded() {
    let t = TestServer::start(common::fast()).await;
    // Played one after another: their end times are in this order.
    let ann1 = play_one(&t, "Ann Archive", false, 1).await;
    let bo = play_one(&t, "Bo", false, 2).await;
    let secret = play_one(&t, "Ann Archive", true, 3).await;
    let ann2 = play_one(&t, "ann archive", false, 4).await;

    // Newest first; the private table's game is not there.
    let a = get(&t, "/api/archive/games").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let page = a.json();
    assert_eq!(ids(&page), [ann2.clone(), bo.clone(), ann1.clone()]);
    assert_eq!(page["next"], Value::Null);
    let first = &page["games"][2];
    assert_eq!(first["game"], "madiao");
    assert_eq!(first["seats"][0], json!({ "name": "Ann Archive", "bot": false }));
    assert_eq!(first["seats"][1]["bot"], true);
    assert!(first["finished_ms"].as_i64().unwrap() > 1_700_000_000_000);
    // Each game's final score: the match over, its chips summing to zero (Madiao pays among the
    // four).
    for g in page["games"].as_array().unwrap() {
        assert_eq!(g["score"]["over"], true, "{g}");
        let chips: Vec<f64> =
            g["score"]["chips"].as_array().unwrap().iter().map(|c| c.as_f64().unwrap()).collect();
        assert_eq!((chips.len(), chips.iter().sum::<f64>()), (4, 0.0), "{g}");
    }

    // A page at a time, following `next`.
    let mut seen = Vec::new();
    let mut path = "/api/archive/games?limit=2".to_string();
    loop {
        let page = get(&t, &path).await.json();
        assert!(ids(&page).len() <= 2);
        seen.extend(ids(&page));
        match page["next"].as_str() {
            Some(next) => path = format!("/api/archive/games?limit=2&before={next}"),
            None => break,
        }
    }
    assert_eq!(seen, [ann2.clone(), bo.clone(), ann1.clone()]);

    // By player: a part of the name, in any case.
    let page = get(&t, "/api/archive/games?player=ANN%20arch").await.json();
    assert_eq!(ids(&page), [ann2.clone(), ann1.clone()]);
    let page = get(&t, "/api/archive/games?player=bo").await.json();
    assert_eq!(ids(&page), vec![bo.clone()]);
    let page = get(&t, "/api/archive/games?player=nobody").await.json();
    assert_eq!(ids(&page), Vec::<String>::new());

    // Bad queries say why.
    for (path, needle) in [
        ("/api/archive/games?limit=0", "limit must be 1 to 100"),
        ("/api/archive/games?limit=101", "limit must be 1 to 100"),
        ("/api/archive/games?before=yesterday", "before:"),
        ("/api/archive/month/2026-13", "month: YYYY-MM"),
        ("/api/archive/month/latest", "month: YYYY-MM"),
    ] {
        let a = get(&t, path).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{path}: {}", a.text());
        assert_eq!(a.json()["error"]["code"], "bad_request");
        assert!(a.json()["error"]["message"].as_str().unwrap().contains(needle), "{path}: {}", a.text());
    }

    // One record: a file to save, the record the table stored, which the engine replays.
    let a = get(&t, &format!("/api/archive/games/{ann1}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let disposition = a.headers["content-disposition"].to_str().unwrap();
    assert_eq!(disposition, format!("attachment; filename=\"yezi-{ann1}.json\""));
    assert_eq!(a.text(), get(&t, &format!("/api/records/{ann1}")).await.text());
    let rec = replays(&a.text());
    assert_eq!(players(&rec)[0], "Ann Archive");
    // A private table's record is not in the archive, nor is a table that does not exist.
    for id in [secret.as_str(), "tnone"] {
        let a = get(&t, &format!("/api/archive/games/{id}")).await;
        assert_eq!((a.status, a.json()["error"]["code"].clone()), (StatusCode::NOT_FOUND, json!("no_table")));
    }

    // A player's games in bulk: exactly Ann's public games (her name in any case), newest first.
    let a = get(&t, "/api/archive/player/ANN%20ARCHIVE").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.headers["content-type"], "application/gzip");
    assert_eq!(
        a.headers["content-disposition"].to_str().unwrap(),
        "attachment; filename=\"yezi-archive-player-ANN_ARCHIVE.jsonl.gz\""
    );
    let lines = gunzip_lines(&a.bytes);
    let want = stored_lines(&t, &[&ann2, &ann1]).await;
    assert_eq!(lines, want);
    for line in &lines {
        let rec = replays(line);
        assert_eq!(players(&rec)[0].to_lowercase(), "ann archive");
    }
    // A part of a name is not a player.
    let a = get(&t, "/api/archive/player/Ann").await;
    assert_eq!(gunzip_lines(&a.bytes), Vec::<String>::new());

    // A month's games: this month holds exactly the three public games; another month none.
    let now_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis();
    let month = month_of(now_ms as i64);
    let a = get(&t, &format!("/api/archive/month/{month}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let lines = gunzip_lines(&a.bytes);
    let want = stored_lines(&t, &[&ann2, &bo, &ann1]).await;
    assert_eq!(lines, want);
    lines.iter().for_each(|l| drop(replays(l)));
    let a = get(&t, "/api/archive/month/2020-01").await;
    assert_eq!((a.status, gunzip_lines(&a.bytes)), (StatusCode::OK, Vec::<String>::new()));
}

/// The stored records of finished tables, as `GET /api/records/{id}` serves them, each on one line.
async fn stored_lines(t: &TestServer, tables: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for id in tables {
        let text = get(t, &format!("/api/records/{id}")).await.text();
        assert!(text.contains('\n'), "a stored record is written over several lines");
        out.push(server::api::archive::one_line(&text));
    }
    out
}

/// The UTC month (`YYYY-MM`) of a time in milliseconds since the Unix epoch.
fn month_of(ms: i64) -> String {
    // Civil from days (proleptic Gregorian).
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}")
}

#[test]
fn months_are_named_as_the_archive_names_them() {
    assert_eq!(month_of(0), "1970-01");
    let (from, to) = table::archive::month_range("2024-02").unwrap();
    assert_eq!(
        (month_of(from), month_of(to - 1), month_of(to)),
        ("2024-02".into(), "2024-02".into(), "2024-03".into())
    );
}
