//! Friends across a cluster (`YEZI_TEST_POSTGRES_URL`, `YEZI_TEST_REDIS_URL`; `./test.sh` starts
//! both): two nodes sharing one PostgreSQL database and a bus, each a whole server on its own
//! loopback port. A player connected to node B is online, and at his table, for a friend
//! connected to node A, who hears each change as it happens; a challenge, its answer and an
//! invitation to a private event reach a person connected to the other node. On the Redis bus
//! and on the PostgreSQL one.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use client::{Client, Socket};
use common::fast;
use serde_json::{Value, json};
use server::store::OpenOptions;
use server::store::postgres::PgStore;
use server::{App, Config, Limits};

const LEASE_MS: u64 = 600;
const PW: &str = "correct horse battery";
const WAIT: Duration = Duration::from_secs(5);

struct Node {
    app: Arc<App>,
    client: Client,
}

async fn node(url: &str, schema: &str, bus_url: &str) -> Node {
    let options = OpenOptions { pool: 4, lease_ms: LEASE_MS };
    let store = Arc::new(PgStore::connect_with(url, Some(schema), options).await.unwrap());
    let accounts = server::api::accounts::AccountLimits {
        ip_burst: 1000.0,
        account_burst: 1000.0,
        ..Default::default()
    };
    let limits = Limits {
        messages_per_second: 1000.0,
        message_burst: 1000.0,
        guests_burst: 1000.0,
        connections_per_ip: 1000,
        accounts,
        ..Limits::default()
    };
    let app = App::start(store, Config { timing: fast(), limits, lease_ms: LEASE_MS, table_seed: None })
        .await
        .unwrap();
    let (bus, heard) = server::cluster::bus::open(bus_url, url).await.unwrap();
    app.join_bus(bus, heard).await.unwrap();
    let (addr, _) = common::listen(&app).await;
    Node { app, client: Client::new(&addr) }
}

fn url() -> String {
    std::env::var("YEZI_TEST_POSTGRES_URL")
        .expect("YEZI_TEST_POSTGRES_URL is not set: run ./test.sh, which starts a local PostgreSQL")
}

fn redis_url() -> String {
    std::env::var("YEZI_TEST_REDIS_URL")
        .expect("YEZI_TEST_REDIS_URL is not set: run ./test.sh, which starts a local Redis")
}

async fn call(n: &Node, method: &str, path: &str, body: Option<Value>, token: &str) -> (u16, Value) {
    let (status, text) = n.client.request(method, path, body.as_ref(), Some(token)).await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// The next notice of `kind` on `s` (other messages skipped).
async fn notice(s: &mut Socket, kind: &str) -> Value {
    s.until(WAIT, kind, |m| m["type"] == kind).await.unwrap_or_else(|e| panic!("no {kind} notice: {e}"))
}

/// Ann's view of Bo from node `n`, once `ok` holds of it (within a few seconds).
async fn friend_seen(n: &Node, token: &str, what: &str, ok: impl Fn(&Value) -> bool) -> Value {
    let end = tokio::time::Instant::now() + WAIT;
    loop {
        let (_, body) = call(n, "GET", "/api/friends", None, token).await;
        let f = body["friends"][0].clone();
        if ok(&f) {
            return f;
        }
        assert!(tokio::time::Instant::now() < end, "{what}: {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn friends_across_nodes(bus_url: &str) {
    let (url, schema) = (url(), server::ids::new_id("cfriends_").unwrap());
    let a = node(&url, &schema, bus_url).await;
    let b = node(&url, &schema, bus_url).await;
    let ann = a.client.guest("Ann").await.unwrap();
    let ann = a.client.claim_account(&ann.token, "ann", PW).await.unwrap().token;
    let bo = b.client.guest("Bo").await.unwrap();
    let bo = b.client.claim_account(&bo.token, "bobo", PW).await.unwrap();
    let (bo, bo_id) = (bo.token, bo.id);
    let (status, _) = call(&a, "PUT", "/api/friends/bobo", None, &ann).await;
    assert_eq!(status, 200);

    // Ann listens at A; Bo is offline.
    let mut ann_s = a.client.connect_as(&ann).await.unwrap();
    let f = friend_seen(&a, &ann, "offline", |f| f["online"] == false).await;
    assert_eq!(f["username"], "bobo");

    // Bo connects to B: Ann, at A, hears it, and A's answer says so.
    let mut bo_s = b.client.connect_as(&bo).await.unwrap();
    let n = notice(&mut ann_s, "friend").await;
    assert_eq!((n["username"].as_str(), n["online"].as_bool()), (Some("bobo"), Some(true)), "{n}");
    friend_seen(&a, &ann, "online through B", |f| f["online"] == true).await;
    // Bo has no connection at A: what A says, it learnt from B.
    assert!(!a.app.per_guest.lock().unwrap().contains_key(&bo_id));

    // He sits at a public table B runs: Ann hears where, and A's answer names it.
    let host = b.client.guest("Host").await.unwrap();
    let body = json!({ "game": "madiao", "name": "At B",
        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] });
    let table =
        b.client.create_table(&host.token, &serde_json::from_value(body).unwrap()).await.unwrap().table.id;
    assert!(b.app.table(&table).is_some() && a.app.table(&table).is_none(), "B runs the table");
    bo_s.send(&json!({ "type": "join", "table": table, "seat": 1 })).await.unwrap();
    let n = notice(&mut ann_s, "friend").await;
    assert_eq!(
        (n["table"]["id"].as_str(), n["table"]["name"].as_str()),
        (Some(table.as_str()), Some("At B")),
        "{n}"
    );
    friend_seen(&a, &ann, "at his table", |f| f["table"]["id"] == table.as_str()).await;

    // Ann challenges him through A: his connection at B hears it; he declines through B and
    // Ann hears it at A.
    let (status, c) =
        call(&a, "POST", "/api/challenges", Some(json!({ "username": "bobo", "game": "madiao" })), &ann)
            .await;
    assert_eq!(status, 201, "{c}");
    let heard = notice(&mut bo_s, "challenge").await;
    assert_eq!((heard["id"].clone(), heard["from"].as_str()), (c["id"].clone(), Some("ann")), "{heard}");
    let id = c["id"].as_str().unwrap();
    let (status, _) = call(&b, "POST", &format!("/api/challenges/{id}/decline"), None, &bo).await;
    assert_eq!(status, 200);
    let answer = notice(&mut ann_s, "challenge").await;
    assert_eq!((answer["id"].as_str(), answer["status"].as_str()), (Some(id), Some("declined")), "{answer}");

    // A private event made through A: Bo hears of it at B, and B shows it to him.
    let ev = json!({ "game": "madiao", "name": "Across", "boards": 1, "tables": 1,
                     "people_per_table": 2, "invite": ["bobo"] });
    let (status, ev) = call(&a, "POST", "/api/events", Some(ev), &ann).await;
    assert_eq!(status, 201, "{ev}");
    let inv = notice(&mut bo_s, "invited").await;
    assert_eq!((inv["event"].clone(), inv["host"].as_str()), (ev["id"].clone(), Some("ann")), "{inv}");
    let (status, _) =
        call(&b, "GET", &format!("/api/events/{}", ev["id"].as_str().unwrap()), None, &bo).await;
    assert_eq!(status, 200);

    // He leaves: his last connection was at B; Ann hears at A that he is offline.
    bo_s.close().await;
    let n = notice(&mut ann_s, "friend").await;
    let n = if n["online"] == true { notice(&mut ann_s, "friend").await } else { n };
    assert_eq!((n["username"].as_str(), n["online"].as_bool()), (Some("bobo"), Some(false)), "{n}");
    friend_seen(&a, &ann, "offline again", |f| f["online"] == false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn friends_across_nodes_on_redis() {
    friends_across_nodes(&redis_url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn friends_across_nodes_on_the_postgres_bus() {
    friends_across_nodes("postgres").await;
}
