//! Moderation through the API and the WebSocket: a player's mutes, blocks and reports (with the
//! bad input refused clearly), a block keeping two players from one table, and the operator's
//! API behind its token: bans of an account and of an address, a chat mute, a removed chat line,
//! a player's games and the moderation log.

use crate::common;

use std::time::Duration;

use common::{TestServer, fast};
use serde_json::{Value, json};
use server::Limits;
use server::api::accounts::AccountLimits;

const PW: &str = "correct horse battery";
/// A table with three open seats.
fn open_seats() -> Value {
    json!([{ "kind": "me" }, { "kind": "open" }, { "kind": "open" }, { "kind": "open" }])
}
const OPERATOR: &str = "operator-token-0123456789abcdef";

async fn server() -> TestServer {
    TestServer::start_with(
        fast(),
        Limits {
            messages_per_second: 1000.0,
            message_burst: 1000.0,
            chat_per_second: 100.0,
            chat_burst: 100.0,
            guests_burst: 1000.0,
            connections_per_ip: 1000,
            accounts: AccountLimits { ip_burst: 1000.0, account_burst: 1000.0, ..AccountLimits::default() },
            ..Limits::default()
        },
    )
    .await
}

/// A guest who claimed an account: (guest id, session token).
async fn account(srv: &TestServer, name: &str, username: &str) -> (String, String) {
    let g = srv.guest(name).await;
    let s = srv.client.claim_account(&g.token, username, PW).await.unwrap();
    (s.id, s.token)
}

/// `METHOD path` with a JSON body and a token: the status and the body as JSON.
async fn call(
    srv: &TestServer,
    method: &str,
    path: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> (u16, Value) {
    let (status, text) = srv.client.request(method, path, body.as_ref(), token).await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or("")
}

/// Sends `msg` and waits for the first message for which `pick` holds.
async fn send_until(s: &mut client::Socket, msg: Value, pick: impl Fn(&Value) -> bool) -> Value {
    s.send(&msg).await.unwrap();
    s.until(Duration::from_secs(10), "the answer", pick).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_mutes_blocks_and_reports_and_bad_input_is_refused() {
    let srv = server().await;
    let (ann, ann_t) = account(&srv, "Ann", "ann_li").await;
    let (bo, _bo_t) = account(&srv, "Bo 波", "bo_wang").await;
    let guest = srv.guest("Cy").await;

    // Mute, listed with the name, then undone.
    let (s, b) = call(&srv, "PUT", &format!("/api/me/mutes/{bo}"), None, Some(&ann_t)).await;
    assert_eq!((s, &b["changed"], &b["name"]), (200, &json!(true), &json!("Bo 波")), "{b}");
    let (s, b) = call(&srv, "PUT", &format!("/api/me/blocks/{}", guest.id), None, Some(&ann_t)).await;
    assert_eq!(s, 200, "{b}");
    let (s, lists) = call(&srv, "GET", "/api/me/moderation", None, Some(&ann_t)).await;
    assert_eq!(s, 200, "{lists}");
    assert_eq!(lists["muted"], json!([{ "id": bo, "name": "Bo 波" }]));
    assert_eq!(lists["blocked"], json!([{ "id": guest.id, "name": "Cy" }]));
    let (s, b) = call(&srv, "DELETE", &format!("/api/me/mutes/{bo}"), None, Some(&ann_t)).await;
    assert_eq!((s, &b["changed"]), (200, &json!(true)), "{b}");
    let (_, lists) = call(&srv, "GET", "/api/me/moderation", None, Some(&ann_t)).await;
    assert_eq!(lists["muted"], json!([]), "{lists}");

    // Bad input.
    let (s, b) = call(&srv, "PUT", &format!("/api/me/mutes/{ann}"), None, Some(&ann_t)).await;
    assert_eq!((s, code(&b)), (400, "bad_request"), "{b}");
    assert!(b["error"]["message"].as_str().unwrap().contains("yourself"), "{b}");
    let (s, b) = call(&srv, "PUT", "/api/me/blocks/gnosuchplayer", None, Some(&ann_t)).await;
    assert_eq!((s, code(&b)), (404, "no_player"), "{b}");
    let (s, b) = call(&srv, "PUT", &format!("/api/me/mutes/{bo}"), None, Some(&guest.token)).await;
    assert_eq!((s, code(&b)), (403, "account_required"), "a guest without an account: {b}");
    let (s, b) = call(&srv, "PUT", &format!("/api/me/mutes/{bo}"), None, None).await;
    assert_eq!((s, code(&b)), (401, "bad_token"), "{b}");

    // Reports: of a player, of a chat line, and the bad ones.
    let (s, b) = call(
        &srv,
        "POST",
        "/api/reports",
        Some(json!({ "player": bo, "reason": "cheating 作弊" })),
        Some(&ann_t),
    )
    .await;
    assert_eq!(s, 201, "{b}");
    let (s, b) =
        call(&srv, "POST", "/api/reports", Some(json!({ "player": ann, "reason": "x" })), Some(&ann_t)).await;
    assert_eq!((s, code(&b)), (400, "bad_request"), "reporting yourself: {b}");
    let long = "x".repeat(600);
    let (s, b) =
        call(&srv, "POST", "/api/reports", Some(json!({ "player": bo, "reason": long })), Some(&ann_t)).await;
    assert_eq!((s, code(&b)), (400, "bad_request"), "{b}");
    assert!(b["error"]["message"].as_str().unwrap().contains("at most 500"), "{b}");
    let huge = "x".repeat(40_000);
    let (s, _) =
        call(&srv, "POST", "/api/reports", Some(json!({ "player": bo, "reason": huge })), Some(&ann_t)).await;
    assert_eq!(s, 413, "a body over the limit is refused before it is read");
    let (s, b) =
        call(&srv, "POST", "/api/reports", Some(json!({ "player": bo, "reason": "" })), Some(&ann_t)).await;
    assert_eq!((s, code(&b)), (400, "bad_request"), "an empty reason: {b}");
    let (s, b) = call(
        &srv,
        "POST",
        "/api/reports",
        Some(json!({ "player": bo, "table": "tnosuch", "chat": 3, "reason": "rude" })),
        Some(&ann_t),
    )
    .await;
    assert_eq!(s, 404, "{b}");
    let (s, b) = call(
        &srv,
        "POST",
        "/api/reports",
        Some(json!({ "player": "gnone", "reason": "rude" })),
        Some(&ann_t),
    )
    .await;
    assert_eq!((s, code(&b)), (404, "no_player"), "{b}");

    // A chat line: reported with its text, which the operator sees.
    let table = srv.table(&guest, json!({ "game": "madiao", "seats": open_seats() })).await;
    let (mut bo_s, _) = srv
        .join(
            &srv.client
                .sign_in("bo_wang", PW)
                .await
                .map(|s| client::GuestToken { id: s.id, name: s.name, token: s.token })
                .unwrap(),
            &table,
            None,
        )
        .await;
    let said =
        send_until(&mut bo_s, json!({ "type": "chat", "text": "you fool" }), |m| m["type"] == "chat").await;
    let seq = said["message"]["seq"].as_u64().unwrap();
    let (s, b) = call(
        &srv,
        "POST",
        "/api/reports",
        Some(json!({ "player": bo, "table": table, "chat": seq, "reason": "insult" })),
        Some(&ann_t),
    )
    .await;
    assert_eq!(s, 201, "{b}");
    srv.app.set_admin_token(OPERATOR);
    let (s, b) = call(&srv, "GET", "/api/admin/reports", None, Some(OPERATOR)).await;
    assert_eq!(s, 200, "{b}");
    let reports = b["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 2, "{b}");
    assert_eq!(
        (&reports[0]["chat_text"], &reports[0]["reason"], &reports[0]["player_name"]),
        (&json!("you fool"), &json!("insult"), &json!("Bo 波"))
    );
    assert_eq!((&reports[1]["reason"], &reports[1]["chat"]), (&json!("cheating 作弊"), &Value::Null));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocked_player_is_never_seated_with_the_blocker() {
    let srv = server().await;
    let (ann, ann_t) = account(&srv, "Ann", "ann_li").await;
    let bo = srv.guest("Bo").await;
    let (s, b) = call(&srv, "PUT", &format!("/api/me/blocks/{}", bo.id), None, Some(&ann_t)).await;
    assert_eq!(s, 200, "{b}");
    let ann_g = client::GuestToken { id: ann.clone(), name: "Ann".into(), token: ann_t.clone() };
    let table = srv.table(&ann_g, json!({ "game": "madiao", "seats": open_seats() })).await;

    // Bo cannot sit at Ann's table, with a clear error; watching is allowed.
    let mut s = srv.client.connect_as(&bo.token).await.unwrap();
    let answer = send_until(&mut s, json!({ "type": "join", "table": table }), |m| {
        m["type"] == "sync" || m["type"] == "error"
    })
    .await;
    assert_eq!((&answer["type"], &answer["code"]), (&json!("error"), &json!("blocked")), "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("blocked you"), "{answer}");
    let answer = send_until(&mut s, json!({ "type": "watch", "table": table }), |m| {
        m["type"] == "sync" || m["type"] == "error"
    })
    .await;
    assert_eq!(answer["type"], "sync", "{answer}");
    assert_eq!(answer["you"]["seat"], Value::Null, "{answer}");

    // The other way: Bo sits at Cy's table, then Ann cannot sit there.
    let cy = srv.guest("Cy").await;
    let other = srv.table(&cy, json!({ "game": "madiao", "seats": open_seats() })).await;
    let (_bo_seat, sync) = srv.join(&bo, &other, Some(1)).await;
    assert_eq!(sync["you"]["seat"], 1, "{sync}");
    let mut a = srv.client.connect_as(&ann_t).await.unwrap();
    let answer = send_until(&mut a, json!({ "type": "join", "table": other }), |m| {
        m["type"] == "sync" || m["type"] == "error"
    })
    .await;
    assert_eq!(answer["code"], "blocked", "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("you blocked"), "{answer}");

    // Unblocked, Bo may sit at Ann's table.
    let (s, _) = call(&srv, "DELETE", &format!("/api/me/blocks/{}", bo.id), None, Some(&ann_t)).await;
    assert_eq!(s, 200);
    let (_, sync) = srv.join(&bo, &table, None).await;
    assert!(sync["you"]["seat"].is_number(), "{sync}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_bans_mutes_removes_a_line_and_every_action_is_logged() {
    let srv = server().await;
    let (bo, _) = account(&srv, "Bo", "bo_wang").await;
    let ann = srv.guest("Ann").await;

    // The admin API is off without a token; then the token is checked.
    let (s, b) = call(&srv, "GET", "/api/admin/log", None, Some(OPERATOR)).await;
    assert_eq!((s, code(&b)), (404, "admin_off"), "{b}");
    srv.app.set_admin_token(OPERATOR);
    let (s, b) = call(&srv, "GET", "/api/admin/log", None, Some("not-the-operator")).await;
    assert_eq!((s, code(&b)), (403, "not_admin"), "{b}");
    let (s, b) = call(&srv, "GET", "/api/admin/log", None, None).await;
    assert_eq!((s, code(&b)), (401, "bad_token"), "{b}");
    let (s, b) = call(&srv, "GET", "/api/admin/sanctions", None, Some(&ann.token)).await;
    assert_eq!((s, code(&b)), (403, "not_admin"), "a player's token is not the operator's: {b}");

    // Bad sanctions.
    let sanction = |kind: &str, target: &str, minutes: u64, reason: &str| json!({ "kind": kind, "target": target, "minutes": minutes, "reason": reason, "by": "Mo" });
    for (body, want) in [
        (sanction("ban_forever", "bo_wang", 10, "x"), 400),
        (sanction("ban_account", "no_such_user", 10, "x"), 404),
        (sanction("ban_account", "bo_wang", 0, "x"), 400),
        (sanction("ban_address", "not-an-ip", 10, "x"), 400),
        (sanction("mute_chat", "bo_wang", 10, &"y".repeat(501)), 400),
    ] {
        let (s, b) = call(&srv, "POST", "/api/admin/sanctions", Some(body.clone()), Some(OPERATOR)).await;
        assert_eq!(s, want, "{body} → {b}");
        assert!(b["error"]["message"].is_string(), "{b}");
    }

    // A chat mute: Bo's lines are refused, others' are not.
    let table = srv.table(&ann, json!({ "game": "madiao", "seats": open_seats() })).await;
    let bo_g = {
        let s = srv.client.sign_in("BO_WANG", PW).await.unwrap();
        client::GuestToken { id: s.id, name: s.name, token: s.token }
    };
    let (mut bo_s, _) = srv.join(&bo_g, &table, Some(1)).await;
    let (mut ann_s, _) = srv.join(&ann, &table, None).await;
    let said =
        send_until(&mut bo_s, json!({ "type": "chat", "text": "spam spam" }), |m| m["type"] == "chat").await;
    let seq = said["message"]["seq"].as_u64().unwrap();
    let (s, muted) = call(
        &srv,
        "POST",
        "/api/admin/sanctions",
        Some(sanction("mute_chat", "bo_wang", 30, "spam")),
        Some(OPERATOR),
    )
    .await;
    assert_eq!((s, &muted["subject"], &muted["in_force"]), (201, &json!(bo), &json!(true)), "{muted}");
    let refused = send_until(&mut bo_s, json!({ "type": "chat", "text": "more spam" }), |m| {
        m["type"] == "chat" || m["type"] == "error"
    })
    .await;
    assert_eq!(refused["code"], "chat_muted", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("spam"), "the reason is said: {refused}");
    let fine = send_until(&mut ann_s, json!({ "type": "chat", "text": "hello" }), |m| {
        m["type"] == "chat" && m["message"]["text"] != "spam spam"
    })
    .await;
    assert_eq!(fine["message"]["text"], "hello");

    // The line removed: gone from the stored history.
    let (s, b) = call(
        &srv,
        "POST",
        "/api/admin/chat/remove",
        Some(json!({ "table": table, "chat": seq, "reason": "spam", "by": "Mo" })),
        Some(OPERATOR),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    let history = srv.app.store.recent_chat(&table, 50).await.unwrap();
    assert!(history.iter().all(|c| c.seq != seq), "{history:?}");
    assert!(history.iter().any(|c| c.text == "hello"), "{history:?}");
    let (s, b) = call(
        &srv,
        "POST",
        "/api/admin/chat/remove",
        Some(json!({ "table": table, "chat": seq, "reason": "spam", "by": "Mo" })),
        Some(OPERATOR),
    )
    .await;
    assert_eq!(s, 404, "removed twice: {b}");

    // A ban of the account: no sign-in, no hello, no join.
    let (s, ban) = call(
        &srv,
        "POST",
        "/api/admin/sanctions",
        Some(sanction("ban_account", "bo_wang", 60, "abuse 辱骂")),
        Some(OPERATOR),
    )
    .await;
    assert_eq!(s, 201, "{ban}");
    let (s, b) =
        call(&srv, "POST", "/api/sessions", Some(json!({ "username": "bo_wang", "password": PW })), None)
            .await;
    assert_eq!((s, code(&b)), (403, "banned"), "{b}");
    assert!(b["error"]["message"].as_str().unwrap().contains("abuse 辱骂"), "{b}");
    let mut s2 = srv.client.connect().await.unwrap();
    let answer = send_until(&mut s2, json!({ "type": "hello", "token": bo_g.token }), |m| {
        m["type"] == "welcome" || m["type"] == "error"
    })
    .await;
    assert_eq!(answer["code"], "banned", "{answer}");
    let answer =
        send_until(&mut bo_s, json!({ "type": "chat", "text": "x" }), |m| m["type"] == "error").await;
    assert_eq!(answer["code"], "banned", "an open connection's chat: {answer}");

    // Lifted: Bo signs in again.
    let id = ban["id"].as_str().unwrap();
    let (s, b) = call(
        &srv,
        "POST",
        &format!("/api/admin/sanctions/{id}/lift"),
        Some(json!({ "reason": "appeal", "by": "Mo" })),
        Some(OPERATOR),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    srv.client.sign_in("bo_wang", PW).await.unwrap();
    let (s, _) = call(
        &srv,
        "POST",
        "/api/admin/sanctions/snosuch/lift",
        Some(json!({ "reason": "appeal", "by": "Mo" })),
        Some(OPERATOR),
    )
    .await;
    assert_eq!(s, 404);

    // A ban of the address: no new guest from it.
    let (s, b) = call(
        &srv,
        "POST",
        "/api/admin/sanctions",
        Some(sanction("ban_address", "127.0.0.1", 5, "flood")),
        Some(OPERATOR),
    )
    .await;
    assert_eq!(s, 201, "{b}");
    let (s, b) = call(&srv, "POST", "/api/guests", Some(json!({ "name": "Dee" })), None).await;
    assert_eq!((s, code(&b)), (403, "banned"), "{b}");
    assert!(b["error"]["message"].as_str().unwrap().contains("address"), "{b}");

    // The player's games, and the log of every action with who and why.
    let (s, b) = call(&srv, "GET", "/api/admin/players/bo_wang/games", None, Some(OPERATOR)).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["games"][0]["id"], json!(table), "{b}");
    let (s, b) = call(&srv, "GET", "/api/admin/log", None, Some(OPERATOR)).await;
    assert_eq!(s, 200, "{b}");
    let actions: Vec<&str> =
        b["log"].as_array().unwrap().iter().map(|l| l["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["ban_address", "lift", "ban_account", "remove_chat", "mute_chat"], "{b}");
    assert!(b["log"].as_array().unwrap().iter().all(|l| l["by"] == "Mo"), "{b}");
    assert!(
        b["log"][3]["reason"].as_str().unwrap().contains("spam spam"),
        "the removed line is kept in the log: {b}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_line_goes_at_once_from_a_running_table_and_its_watchers() {
    let srv = server().await;
    srv.app.set_admin_token(OPERATOR);
    let ann = srv.guest("Ann").await;
    let cy = srv.guest("Cy").await;
    let table = srv.table(&ann, json!({ "game": "madiao", "seats": open_seats() })).await;
    let (mut ann_s, _) = srv.join(&ann, &table, None).await;
    let (mut cy_s, _) = srv.join(&cy, &table, None).await;
    let said =
        send_until(&mut ann_s, json!({ "type": "chat", "text": "rude words" }), |m| m["type"] == "chat")
            .await;
    let seq = said["message"]["seq"].as_u64().unwrap();
    let kept =
        send_until(&mut ann_s, json!({ "type": "chat", "text": "kind words" }), |m| m["type"] == "chat")
            .await;
    assert_eq!(kept["message"]["text"], "kind words");
    // The watcher has both lines.
    let seen = cy_s
        .until(Duration::from_secs(10), "the second line", |m| {
            m["type"] == "chat" && m["message"]["text"] == "kind words"
        })
        .await
        .unwrap();
    let v_before = seen["v"].as_u64().unwrap();

    let (s, b) = call(
        &srv,
        "POST",
        "/api/admin/chat/remove",
        Some(json!({ "table": table, "chat": seq, "reason": "rude", "by": "Mo" })),
        Some(OPERATOR),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    // The watcher is told to drop it, as the table's next event (the client's version check).
    let gone =
        cy_s.until(Duration::from_secs(10), "the removal", |m| m["type"] == "chat_removed").await.unwrap();
    assert_eq!(gone["seq"].as_u64(), Some(seq), "{gone}");
    assert_eq!(gone["v"].as_u64(), Some(v_before + 1), "{gone}");
    assert_eq!(cy_s.gaps, 0, "no gap in the table's version");
    // A fresh join's history, from the running table, lacks the line and keeps the other.
    let dee = srv.guest("Dee").await;
    let (_dee_s, sync) = srv.join(&dee, &table, None).await;
    let texts: Vec<&str> =
        sync["chat"].as_array().unwrap().iter().filter_map(|c| c["text"].as_str()).collect();
    assert_eq!(texts, ["kind words"], "{sync}");
}
