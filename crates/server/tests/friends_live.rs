//! Friend notices over the WebSocket (`docs/protocol.md`, "Friend notices"): a follower's
//! connection hears a followed player come online, sit down at a table and go offline; the
//! challenged hears a challenge, the challenger its answer; and a private event for friends is
//! seen and entered by its host's invitees alone, each of whom hears of it.

use crate::common;

use std::time::Duration;

use client::Socket;
use common::{TestServer, fast};
use serde_json::{Value, json};
use server::Limits;
use server::api::accounts::AccountLimits;

const PW: &str = "correct horse battery";
const WAIT: Duration = Duration::from_secs(5);

async fn server() -> TestServer {
    let accounts = AccountLimits { ip_burst: 1000.0, account_burst: 1000.0, ..AccountLimits::default() };
    TestServer::start_with(
        fast(),
        Limits { guests_burst: 1000.0, connections_per_ip: 1000, accounts, ..common::fast_limits() },
    )
    .await
}

async fn call(srv: &TestServer, method: &str, path: &str, body: Option<Value>, token: &str) -> (u16, Value) {
    let (status, text) = srv.client.request(method, path, body.as_ref(), Some(token)).await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// An account: its session's identity.
async fn account(srv: &TestServer, name: &str, username: &str) -> client::GuestToken {
    let g = srv.guest(name).await;
    let s = srv.client.claim_account(&g.token, username, PW).await.unwrap();
    client::GuestToken { id: s.id, name: s.name, token: s.token }
}

/// The next notice of `kind` on `s` (other messages are skipped).
async fn notice(s: &mut Socket, kind: &str) -> Value {
    s.until(WAIT, kind, |m| m["type"] == kind).await.unwrap_or_else(|e| panic!("no {kind} notice: {e}"))
}

/// Nothing of `kind` comes on `s` for a while.
async fn quiet(s: &mut Socket, kind: &str) {
    let got = s.until(Duration::from_millis(400), kind, |m| m["type"] == kind).await;
    assert!(got.is_err(), "an unexpected {kind} notice: {got:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn friends_hear_comings_goings_and_challenges_live() {
    let srv = server().await;
    let ann = account(&srv, "Ann", "ann").await;
    let bo = account(&srv, "Bo", "bobo").await;
    let cy = account(&srv, "Cy", "cyrus").await;
    let (status, _) = call(&srv, "PUT", "/api/friends/bobo", None, &ann.token).await;
    assert_eq!(status, 200);

    // Ann and Cy listen (a connection that only says hello); Cy follows nobody.
    let mut ann_s = srv.client.connect_as(&ann.token).await.unwrap();
    let mut cy_s = srv.client.connect_as(&cy.token).await.unwrap();

    // Bo connects: Ann hears he is online, and nowhere yet.
    let mut bo_s = srv.client.connect_as(&bo.token).await.unwrap();
    let n = notice(&mut ann_s, "friend").await;
    assert_eq!(
        (n["username"].as_str(), n["name"].as_str(), n["online"].as_bool(), n["table"].is_null()),
        (Some("bobo"), Some("Bo"), Some(true), true),
        "{n}"
    );
    // A second connection of his says nothing new.
    let bo_s2 = srv.client.connect_as(&bo.token).await.unwrap();
    quiet(&mut ann_s, "friend").await;

    // He sits down at a public table: Ann hears where.
    let host = srv.guest("Host").await;
    let table = srv
        .table(
            &host,
            json!({ "game": "madiao", "name": "Open one",
                    "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] }),
        )
        .await;
    bo_s.send(&json!({ "type": "join", "table": table, "seat": 1 })).await.unwrap();
    let n = notice(&mut ann_s, "friend").await;
    assert_eq!(
        (n["online"].as_bool(), n["table"]["id"].as_str(), n["table"]["name"].as_str()),
        (Some(true), Some(table.as_str()), Some("Open one")),
        "{n}"
    );
    // Cy, who follows nobody, heard nothing.
    quiet(&mut cy_s, "friend").await;

    // Ann challenges Bo: his connection at the table hears it at once.
    let (status, c) = call(
        &srv,
        "POST",
        "/api/challenges",
        Some(json!({ "username": "bobo", "game": "madiao" })),
        &ann.token,
    )
    .await;
    assert_eq!(status, 201, "{c}");
    let heard = notice(&mut bo_s, "challenge").await;
    assert_eq!(
        (heard["id"].as_str(), heard["from"].as_str(), heard["status"].as_str(), heard["incoming"].as_bool()),
        (c["id"].as_str(), Some("ann"), Some("pending"), Some(true)),
        "{heard}"
    );
    // He declines: Ann hears the answer.
    let id = c["id"].as_str().unwrap();
    let (status, _) = call(&srv, "POST", &format!("/api/challenges/{id}/decline"), None, &bo.token).await;
    assert_eq!(status, 200);
    let answer = notice(&mut ann_s, "challenge").await;
    assert_eq!(
        (answer["id"].as_str(), answer["status"].as_str(), answer["incoming"].as_bool()),
        (Some(id), Some("declined"), Some(false)),
        "{answer}"
    );
    // Another, accepted: Ann hears it with the table made.
    let (_, c) = call(
        &srv,
        "POST",
        "/api/challenges",
        Some(json!({ "username": "bobo", "game": "dabaifen" })),
        &ann.token,
    )
    .await;
    let id = c["id"].as_str().unwrap();
    notice(&mut bo_s, "challenge").await;
    let (_, accepted) = call(&srv, "POST", &format!("/api/challenges/{id}/accept"), None, &bo.token).await;
    let answer = notice(&mut ann_s, "challenge").await;
    assert_eq!(
        (answer["status"].as_str(), answer["table"].as_str()),
        (Some("accepted"), accepted["table"].as_str()),
        "{answer}"
    );
    // A withdrawal reaches the challenged.
    let (_, c) = call(
        &srv,
        "POST",
        "/api/challenges",
        Some(json!({ "username": "bobo", "game": "madiao" })),
        &ann.token,
    )
    .await;
    let id = c["id"].as_str().unwrap();
    notice(&mut bo_s, "challenge").await;
    call(&srv, "POST", &format!("/api/challenges/{id}/withdraw"), None, &ann.token).await;
    let w = notice(&mut bo_s, "challenge").await;
    assert_eq!((w["id"].as_str(), w["status"].as_str()), (Some(id), Some("withdrawn")), "{w}");

    // He leaves the table: Ann hears he is no longer at it (the table Ann's challenge made keeps
    // his seat there for him, but he does not sit at it).
    bo_s.send(&json!({ "type": "leave" })).await.unwrap();
    let n = notice(&mut ann_s, "friend").await;
    assert_eq!((n["online"].as_bool(), n["table"].is_null()), (Some(true), true), "{n}");

    // Both his connections close: Ann hears he went offline, and `GET /api/friends` agrees.
    bo_s.close().await;
    quiet(&mut ann_s, "friend").await;
    bo_s2.close().await;
    let n = notice(&mut ann_s, "friend").await;
    assert_eq!((n["username"].as_str(), n["online"].as_bool()), (Some("bobo"), Some(false)), "{n}");
    let (_, body) = call(&srv, "GET", "/api/friends", None, &ann.token).await;
    assert_eq!(body["friends"][0]["online"], false, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_event_is_for_the_friends_its_host_invites() {
    let srv = server().await;
    let ann = account(&srv, "Ann", "ann").await;
    let bo = account(&srv, "Bo", "bobo").await;
    let cy = account(&srv, "Cy", "cyrus").await;
    let event = |invite: Value| {
        json!({ "game": "madiao", "name": "Friends night", "boards": 2, "tables": 1,
                "people_per_table": 2, "par_tables": 0, "invite": invite })
    };
    // Only players the host follows may be invited; an unknown one is named.
    let (status, body) = call(&srv, "POST", "/api/events", Some(event(json!(["bobo"]))), &ann.token).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("follow"), "{body}");
    let (status, body) = call(&srv, "POST", "/api/events", Some(event(json!(["nobody"]))), &ann.token).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("no_player")), "{body}");
    let (status, _) = call(&srv, "POST", "/api/events", Some(event(json!([]))), &ann.token).await;
    assert_eq!(status, 400, "an empty invitation list");
    call(&srv, "PUT", "/api/friends/bobo", None, &ann.token).await;

    // Bo listens; Ann makes the event for him: he hears of it.
    let mut bo_s = srv.client.connect_as(&bo.token).await.unwrap();
    let mut cy_s = srv.client.connect_as(&cy.token).await.unwrap();
    let (status, ev) = call(&srv, "POST", "/api/events", Some(event(json!(["BOBO"]))), &ann.token).await;
    assert_eq!(status, 201, "{ev}");
    assert_eq!((ev["private"].as_bool(), ev["invited"].clone()), (Some(true), json!(["bobo"])), "{ev}");
    let id = ev["id"].as_str().unwrap().to_string();
    let inv = notice(&mut bo_s, "invited").await;
    assert_eq!(
        (inv["event"].as_str(), inv["name"].as_str(), inv["host"].as_str()),
        (Some(id.as_str()), Some("Friends night"), Some("ann")),
        "{inv}"
    );
    quiet(&mut cy_s, "invited").await;

    // Listed to the host and Bo, not to Cy nor to anyone without a token.
    let listed = |body: &Value| body["events"].as_array().unwrap().iter().any(|e| e["id"] == id.as_str());
    for (who, token, sees) in [
        ("ann", Some(&ann.token), true),
        ("bo", Some(&bo.token), true),
        ("cy", Some(&cy.token), false),
        ("nobody", None, false),
    ] {
        let (status, text) =
            srv.client.request("GET", "/api/events", None, token.map(|t| t.as_str())).await.unwrap();
        let body: Value = serde_json::from_str(&text).unwrap();
        assert_eq!((status, listed(&body)), (200, sees), "{who}: {body}");
    }
    // Cy is refused it clearly: to see it, to enter it, its records.
    for (method, path) in [
        ("GET", format!("/api/events/{id}")),
        ("POST", format!("/api/events/{id}/enter")),
        ("GET", format!("/api/events/{id}/records")),
    ] {
        let body = (method == "POST").then(|| json!({}));
        let (status, body) = call(&srv, method, &path, body, &cy.token).await;
        assert_eq!((status, body["error"]["code"].as_str()), (403, Some("not_invited")), "{path}: {body}");
    }
    let (status, _) = srv.client.get(&format!("/api/events/{id}")).await.unwrap();
    assert_eq!(status, 403, "without a token");
    // Bo sees it and enters it; so does its host.
    let (status, info) = call(&srv, "GET", &format!("/api/events/{id}"), None, &bo.token).await;
    assert_eq!((status, info["private"].as_bool()), (200, Some(true)), "{info}");
    let (status, info) =
        call(&srv, "POST", &format!("/api/events/{id}/enter"), Some(json!({})), &bo.token).await;
    assert_eq!((status, info["entered"].as_bool()), (200, Some(true)), "{info}");
    let (status, info) =
        call(&srv, "POST", &format!("/api/events/{id}/enter"), Some(json!({})), &ann.token).await;
    assert_eq!((status, info["status"].as_str()), (200, Some("playing")), "the host filled it: {info}");

    // A public event stays public.
    let mut public = event(Value::Null);
    public.as_object_mut().unwrap().remove("invite");
    let (status, ev) = call(&srv, "POST", "/api/events", Some(public), &ann.token).await;
    assert_eq!((status, ev["private"].as_bool()), (201, Some(false)), "{ev}");
    let (status, _) =
        call(&srv, "GET", &format!("/api/events/{}", ev["id"].as_str().unwrap()), None, &cy.token).await;
    assert_eq!(status, 200);
}
