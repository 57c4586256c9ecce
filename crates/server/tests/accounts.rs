//! Accounts through the API: claiming, signing in elsewhere, signing out (here and everywhere),
//! changing the password, deleting the account, sessions that expire, the sign-in limits, and
//! that no answer tells an existing username from a missing one.

use crate::common;

use std::time::{Duration, Instant};

use client::ClientError;
use common::{TestServer, fast};
use serde_json::{Value, json};
use server::Limits;
use server::api::accounts::AccountLimits;

const PW: &str = "correct horse battery";

/// A test server with these account limits (and the other limits the tests use).
async fn server(accounts: AccountLimits) -> TestServer {
    TestServer::start_with(
        fast(),
        Limits {
            messages_per_second: 1000.0,
            message_burst: 1000.0,
            guests_burst: 1000.0,
            connections_per_ip: 1000,
            accounts,
            ..Limits::default()
        },
    )
    .await
}

/// Limits that never get in the way of a test (but the one it is about).
fn roomy() -> AccountLimits {
    AccountLimits { ip_burst: 1000.0, account_burst: 1000.0, ..AccountLimits::default() }
}

/// The status and the JSON body of a refused call.
fn refused<T: std::fmt::Debug>(r: Result<T, ClientError>) -> (u16, Value) {
    match r {
        Err(ClientError::Status { status, body }) => {
            (status, serde_json::from_str(&body).unwrap_or(Value::Null))
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// `GET path` with a bearer token: the status and the body.
async fn get_as(srv: &TestServer, path: &str, token: &str) -> (u16, Value) {
    // The client's `get` takes no token: a table creation is the simplest authenticated call,
    // and `/api/account` is the account's.
    let r = match path {
        "/api/account" => srv.client.account(token).await.map(|a| serde_json::to_value(a).unwrap()),
        "/api/account/tables" => {
            srv.client.account_tables(token).await.map(|a| serde_json::to_value(a).unwrap())
        }
        _ => unreachable!(),
    };
    match r {
        Ok(v) => (200, v),
        Err(e) => refused::<()>(Err(e)),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_claims_an_account_and_signs_in_elsewhere_as_the_same_player() {
    let srv = server(roomy()).await;
    let ann = srv.guest("Ann 安").await;
    let table = srv.table(&ann, json!({ "game": "madiao", "name": "Ann's" })).await;

    let first = srv.client.claim_account(&ann.token, "Ann_Li", PW).await.unwrap();
    assert_eq!(
        (first.id.as_str(), first.name.as_str(), first.username.as_str()),
        (ann.id.as_str(), "Ann 安", "Ann_Li")
    );
    assert_ne!(first.token, ann.token);
    // The guest's own token is retired, with a message that says why.
    let (status, body) =
        srv.client.post("/api/tables", &json!({ "game": "madiao" }), Some(&ann.token)).await.unwrap();
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("bad_token")), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("claimed an account"), "{body}");

    // Another device: any case of the username.
    let second = srv.client.sign_in("aNN_lI", PW).await.unwrap();
    assert_eq!(
        (second.id.as_str(), second.name.as_str(), second.username.as_str()),
        (ann.id.as_str(), "Ann 安", "Ann_Li")
    );
    assert_ne!(second.token, first.token);
    for token in [&first.token, &second.token] {
        let me = srv.client.account(token).await.unwrap();
        assert_eq!((me.id.as_str(), me.username.as_str()), (ann.id.as_str(), "Ann_Li"));
        // The same tables: the one the guest created before claiming.
        let tables = srv.client.account_tables(token).await.unwrap().tables;
        assert_eq!(tables.len(), 1, "{tables:?}");
        assert_eq!(
            (tables[0].id.as_str(), tables[0].name.as_str(), tables[0].seat),
            (table.as_str(), "Ann's", Some(0))
        );
        // The session speaks for the guest everywhere: the WebSocket and the API.
        let mut s = srv.client.connect_as(token).await.unwrap();
        s.send(&json!({ "type": "join", "table": table })).await.unwrap();
        let sync = s
            .until(Duration::from_secs(10), "sync", |m| m["type"] == "sync" || m["type"] == "error")
            .await
            .unwrap();
        assert_eq!(sync["type"], "sync", "{sync}");
        assert_eq!(sync["you"]["seat"], 0, "the account is back in its own seat: {sync}");
        assert_eq!(sync["you"]["guest"], ann.id.as_str(), "{sync}");
        assert_eq!(sync["you"]["host"], true, "{sync}");
        s.close().await;
    }
    let (status, _) =
        srv.client.post("/api/tables", &json!({ "game": "dabaifen" }), Some(&second.token)).await.unwrap();
    assert_eq!(status, 201);
    assert_eq!(srv.client.account_tables(&first.token).await.unwrap().tables.len(), 2);
    // A guest still plays without an account; its token is not an account's.
    let bo = srv.guest("Bo").await;
    let (status, body) = get_as(&srv, "/api/account", &bo.token).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("no_account")), "{body}");
    assert_eq!(get_as(&srv, "/api/account/tables", &bo.token).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claims_are_refused_with_clear_errors() {
    let srv = server(roomy()).await;
    let ann = srv.guest("Ann").await;
    let bo = srv.guest("Bo").await;
    let a = srv.client.claim_account(&ann.token, "Ann", PW).await.unwrap();
    // Taken, in any case.
    let (status, body) = refused(srv.client.claim_account(&bo.token, "aNN", PW).await);
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("username_taken")), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("taken"), "{body}");
    // Not of the form.
    for bad in ["ab", "2bo", "bo bo", "博博博", "b!o", &"b".repeat(21)] {
        let (status, body) = refused(srv.client.claim_account(&bo.token, bad, PW).await);
        assert_eq!((status, body["error"]["code"].as_str()), (400, Some("bad_username")), "{bad}: {body}");
    }
    for bad in ["short", &"x".repeat(257)] {
        let (status, body) = refused(srv.client.claim_account(&bo.token, "Bob", bad).await);
        assert_eq!((status, body["error"]["code"].as_str()), (400, Some("bad_password")), "{body}");
    }
    // A session's guest has its account already; an unknown token is refused.
    let (status, body) = refused(srv.client.claim_account(&a.token, "Ann2", PW).await);
    assert_eq!((status, body["error"]["code"].as_str()), (409, Some("already_account")), "{body}");
    let (status, _) = refused(srv.client.claim_account("nope", "Ann3", PW).await);
    assert_eq!(status, 401);
    // A body of the wrong shape.
    let (status, body) =
        srv.client.post("/api/account", &json!({ "username": "Bob" }), Some(&bo.token)).await.unwrap();
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("bad_request")), "{body}");
    // Bo is still a guest and may claim another name.
    srv.client.claim_account(&bo.token, "Bob", PW).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_and_an_unknown_username_get_the_same_answer() {
    let srv = server(roomy()).await;
    let ann = srv.guest("Ann").await;
    srv.client.claim_account(&ann.token, "Ann", PW).await.unwrap();
    let wrong = refused(srv.client.sign_in("Ann", "not the password").await);
    assert_eq!((wrong.0, wrong.1["error"]["code"].as_str()), (401, Some("bad_credentials")), "{:?}", wrong.1);
    for (user, pw) in [("Nobody", "not the password"), ("Nobody", PW), ("no such form!", PW), ("", "")] {
        let other = refused(srv.client.sign_in(user, pw).await);
        assert_eq!(other, wrong, "{user:?} answered otherwise");
    }
    // And in about the same time: an unknown username costs a hash too (without it, it would
    // take a few percent of the time). Medians of 7, taken in turns so that the load of the
    // machine falls on both alike.
    let (mut known, mut unknown) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        for (user, times) in [("Ann", &mut known), ("Nobody", &mut unknown)] {
            let t = Instant::now();
            let _ = srv.client.sign_in(user, "not the password").await;
            times.push(t.elapsed());
        }
    }
    known.sort();
    unknown.sort();
    let (known, unknown) = (known[3], unknown[3]);
    assert!(
        unknown * 4 >= known && known * 4 >= unknown,
        "a wrong password took {known:?}, an unknown username {unknown:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_out_here_and_everywhere_refuses_the_sessions() {
    let srv = server(roomy()).await;
    let ann = srv.guest("Ann").await;
    let a = srv.client.claim_account(&ann.token, "Ann", PW).await.unwrap();
    let b = srv.client.sign_in("ann", PW).await.unwrap();
    let c = srv.client.sign_in("ann", PW).await.unwrap();
    // Here: b only.
    srv.client.sign_out(&b.token).await.unwrap();
    let (status, body) = refused(srv.client.account(&b.token).await);
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("session_revoked")), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("signed out"), "{body}");
    let (status, body) =
        srv.client.post("/api/tables", &json!({ "game": "madiao" }), Some(&b.token)).await.unwrap();
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("session_revoked")), "{body}");
    srv.client.account(&a.token).await.unwrap();
    srv.client.account(&c.token).await.unwrap();
    // Everywhere: a and c (b is out already), this one too.
    let out = srv.client.sign_out_everywhere(&a.token).await.unwrap();
    assert_eq!(out.revoked, 2);
    for t in [&a.token, &c.token] {
        let (status, body) = refused(srv.client.account(t).await);
        assert_eq!((status, body["error"]["code"].as_str()), (401, Some("session_revoked")), "{body}");
        // The WebSocket refuses it too.
        let mut s = srv.client.connect().await.unwrap();
        s.send(&json!({ "type": "hello", "token": t })).await.unwrap();
        let e = s.recv().await.unwrap();
        assert_eq!(e["code"], "bad_token", "{e}");
        assert!(e["message"].as_str().unwrap().contains("signed out"), "{e}");
    }
    // Signing in again works.
    let d = srv.client.sign_in("Ann", PW).await.unwrap();
    assert_eq!(srv.client.account(&d.token).await.unwrap().id, ann.id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_session_is_refused() {
    let srv = server(AccountLimits { session_ms: 400, ..roomy() }).await;
    let ann = srv.guest("Ann").await;
    let a = srv.client.claim_account(&ann.token, "Ann", PW).await.unwrap();
    srv.client.account(&a.token).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (status, body) = refused(srv.client.account(&a.token).await);
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("session_expired")), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("expired"), "{body}");
    let fresh = srv.client.sign_in("Ann", PW).await.unwrap();
    srv.client.account(&fresh.token).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changing_the_password_needs_the_current_one_and_signs_out_the_others() {
    let srv = server(roomy()).await;
    let ann = srv.guest("Ann").await;
    let a = srv.client.claim_account(&ann.token, "Ann", PW).await.unwrap();
    let b = srv.client.sign_in("Ann", PW).await.unwrap();
    let (status, body) =
        refused(srv.client.change_password(&a.token, "not it at all", "new password 1").await);
    assert_eq!((status, body["error"]["code"].as_str()), (403, Some("wrong_password")), "{body}");
    let (status, body) = refused(srv.client.change_password(&a.token, PW, "short").await);
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("bad_password")), "{body}");
    srv.client.account(&b.token).await.unwrap();
    let out = srv.client.change_password(&a.token, PW, "new password 1").await.unwrap();
    assert_eq!(out.revoked, 1);
    srv.client.account(&a.token).await.unwrap();
    let (status, body) = refused(srv.client.account(&b.token).await);
    assert_eq!((status, body["error"]["code"].as_str()), (401, Some("session_revoked")), "{body}");
    assert_eq!(refused(srv.client.sign_in("Ann", PW).await).0, 401);
    srv.client.sign_in("Ann", "new password 1").await.unwrap();
    // A guest's token has no password to change.
    let bo = srv.guest("Bo").await;
    let (status, body) = refused(srv.client.change_password(&bo.token, PW, "new password 1").await);
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("no_account")), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_the_account_keeps_its_games_under_a_neutral_name() {
    let srv = server(roomy()).await;
    let ann = srv.guest("Ann 安").await;
    let table = srv.table(&ann, json!({ "game": "madiao" })).await;
    let a = srv.client.claim_account(&ann.token, "Ann", PW).await.unwrap();
    let b = srv.client.sign_in("Ann", PW).await.unwrap();
    let (status, body) = refused(srv.client.delete_account(&a.token, "not the password").await);
    assert_eq!((status, body["error"]["code"].as_str()), (403, Some("wrong_password")), "{body}");
    srv.client.account(&a.token).await.unwrap();
    srv.client.delete_account(&a.token, PW).await.unwrap();
    for t in [&a.token, &b.token] {
        assert_eq!(refused(srv.client.account(t).await).0, 401);
    }
    // Signing in answers as for any unknown username.
    let gone = refused(srv.client.sign_in("Ann", PW).await);
    let never = refused(srv.client.sign_in("Nobody", PW).await);
    assert_eq!(gone, never);
    // The table stays, its seat under the neutral name.
    let stored = srv.app.store.table(&table).await.unwrap().unwrap();
    assert_eq!(
        stored.seats[0],
        server::store::SeatRow::Person {
            guest: ann.id.clone(),
            name: server::api::accounts::DELETED_NAME.into()
        }
    );
    // The username may be claimed again, by another guest.
    let bo = srv.guest("Bo").await;
    let again = srv.client.claim_account(&bo.token, "ann", PW).await.unwrap();
    assert_eq!(again.id, bo.id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_is_limited_per_username_alike_for_known_and_unknown_names() {
    let srv = server(AccountLimits { account_burst: 3.0, account_every_seconds: 600.0, ..roomy() }).await;
    let ann = srv.guest("Ann").await;
    srv.client.claim_account(&ann.token, "Ann", PW).await.unwrap();
    for user in ["Ann", "Nobody"] {
        for _ in 0..3 {
            assert_eq!(refused(srv.client.sign_in(user, "wrong password").await).0, 401);
        }
    }
    // The fourth attempt is refused even with the right password, in any case of the name.
    let known = refused(srv.client.sign_in("ANN", PW).await);
    let unknown = refused(srv.client.sign_in("nobody", PW).await);
    assert_eq!((known.0, known.1["error"]["code"].as_str()), (429, Some("rate_limited")), "{:?}", known.1);
    // The same answer (but for the seconds to wait, which count from each name's first attempt).
    let digitless = |v: &Value| v.to_string().replace(|c: char| c.is_ascii_digit(), "");
    assert_eq!(
        (known.0, digitless(&known.1)),
        (unknown.0, digitless(&unknown.1)),
        "the limit tells a known name from an unknown one"
    );
    // Another username has its own allowance.
    let bo = srv.guest("Bo").await;
    srv.client.claim_account(&bo.token, "Bob", PW).await.unwrap();
    srv.client.sign_in("Bob", PW).await.unwrap();
    // Password checks behind a session draw on the same allowance.
    let s = srv.client.sign_in("Bob", PW).await.unwrap();
    srv.client.sign_in("Bob", PW).await.unwrap();
    let (status, _) = refused(srv.client.delete_account(&s.token, PW).await);
    assert_eq!(status, 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_is_limited_per_address() {
    let srv = server(AccountLimits { ip_burst: 4.0, ip_every_seconds: 600.0, ..roomy() }).await;
    let ann = srv.guest("Ann").await;
    srv.client.claim_account(&ann.token, "Ann", PW).await.unwrap();
    for user in ["u1", "u2", "u3"] {
        assert_eq!(refused(srv.client.sign_in(user, PW).await).0, 401);
    }
    let (status, body) = refused(srv.client.sign_in("Ann", PW).await);
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("rate_limited")), "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("address"), "{body}");
}

/// A socket that said `hello` with `token` (and got its welcome).
async fn hello(srv: &TestServer, token: &str) -> client::Socket {
    let mut s = srv.client.connect().await.unwrap();
    s.send(&json!({ "type": "hello", "token": token })).await.unwrap();
    let w = s.recv().await.unwrap();
    assert_eq!(w["type"], "welcome", "{w}");
    s
}

/// Asserts that `s` is told `signed_out` and is then closed.
async fn closed_as_signed_out(s: &mut client::Socket) {
    let e = s.recv_timeout(Duration::from_secs(5)).await.unwrap().expect("an error before the close");
    assert_eq!((e["type"].as_str(), e["code"].as_str()), (Some("error"), Some("signed_out")), "{e}");
    let end = s.recv_timeout(Duration::from_secs(5)).await;
    assert!(!matches!(end, Ok(Some(_))), "closed after the error, not {end:?}");
}

/// Asserts that `s` is still open: it answers a ping.
async fn still_open(s: &mut client::Socket) {
    s.send(&json!({ "type": "ping" })).await.unwrap();
    let m = s.recv_timeout(Duration::from_secs(5)).await.unwrap().expect("an answer");
    assert_eq!(m["type"], "pong", "{m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_connections_of_signed_out_sessions_are_closed() {
    let srv = server(roomy()).await;
    let ann = srv.guest("Ann").await;
    let a = srv.client.claim_account(&ann.token, "Ann", PW).await.unwrap();
    let b = srv.client.sign_in("Ann", PW).await.unwrap();
    let c = srv.client.sign_in("Ann", PW).await.unwrap();
    let bo = srv.guest("Bo").await;
    let (mut sa, mut sb, mut sc, mut sbo) = (
        hello(&srv, &a.token).await,
        hello(&srv, &b.token).await,
        hello(&srv, &c.token).await,
        hello(&srv, &bo.token).await,
    );
    // b, at a table, signs out here: only b's connection closes.
    let (status, t) =
        srv.client.post("/api/tables", &json!({ "game": "madiao" }), Some(&b.token)).await.unwrap();
    assert_eq!(status, 201, "{t}");
    let id = t["table"]["id"].as_str().unwrap().to_string();
    sb.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    sb.until(Duration::from_secs(5), "sync", |m| m["type"] == "sync").await.unwrap();
    srv.client.sign_out(&b.token).await.unwrap();
    closed_as_signed_out(&mut sb).await;
    still_open(&mut sa).await;
    still_open(&mut sc).await;
    // A password change signs out the others (c), not the session that made it (a).
    srv.client.change_password(&a.token, PW, "new password 1").await.unwrap();
    closed_as_signed_out(&mut sc).await;
    still_open(&mut sa).await;
    // Deleting the account closes the last one; another guest's connection stays.
    srv.client.delete_account(&a.token, "new password 1").await.unwrap();
    closed_as_signed_out(&mut sa).await;
    still_open(&mut sbo).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_signed_out_elsewhere_closes_its_connection_at_the_next_check() {
    // As a session signed out on another node of a cluster: revoked in the store alone.
    let srv = server(AccountLimits { session_check_ms: 200, ..roomy() }).await;
    let ann = srv.guest("Ann").await;
    let a = srv.client.claim_account(&ann.token, "Ann", PW).await.unwrap();
    let b = srv.client.sign_in("Ann", PW).await.unwrap();
    let (mut sa, mut sb) = (hello(&srv, &a.token).await, hello(&srv, &b.token).await);
    still_open(&mut sb).await;
    let hash = server::ids::hash_token(&b.token);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    srv.app.store.revoke_session(&hash, now).await.unwrap();
    closed_as_signed_out(&mut sb).await;
    still_open(&mut sa).await;
}
