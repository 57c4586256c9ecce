//! Friends over the HTTP API (`docs/protocol.md`, "Friends"): following by username, who is
//! online and at which table, and challenges accepted (the table is made, the friend's seat kept
//! for him), declined and withdrawn, each refused with a clear error when it is not allowed.

use crate::common;

use common::{TestServer, fast};
use serde_json::{Value, json};
use server::Limits;
use server::api::accounts::AccountLimits;
use std::time::Duration;

const PW: &str = "correct horse battery";

async fn server() -> TestServer {
    let accounts = AccountLimits { ip_burst: 1000.0, account_burst: 1000.0, ..AccountLimits::default() };
    TestServer::start_with(
        fast(),
        Limits { guests_burst: 1000.0, connections_per_ip: 1000, accounts, ..common::fast_limits() },
    )
    .await
}

/// `method path` with a body and a token: the status and the JSON body.
async fn call(srv: &TestServer, method: &str, path: &str, body: Option<Value>, token: &str) -> (u16, Value) {
    let (status, text) = srv.client.request(method, path, body.as_ref(), Some(token)).await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_see_where_friends_play_and_challenge_them() {
    let srv = server().await;
    let (ann, bo, cy) = (srv.guest("Ann").await, srv.guest("Bo").await, srv.guest("Cy").await);
    let ann = srv.client.claim_account(&ann.token, "ann", PW).await.unwrap().token;
    let bo_session = srv.client.claim_account(&bo.token, "Bobo", PW).await.unwrap();
    let bo = bo_session.token.clone();

    // A guest without an account is told to get one.
    let (status, body) = call(&srv, "GET", "/api/friends", None, &cy.token).await;
    assert_eq!((status, body["error"]["code"].as_str()), (403, Some("account_required")), "{body}");
    // Nobody of that name; not oneself.
    let (status, body) = call(&srv, "PUT", "/api/friends/nobody", None, &ann).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("no_player")), "{body}");
    let (status, _) = call(&srv, "PUT", "/api/friends/ANN", None, &ann).await;
    assert_eq!(status, 400, "following oneself");

    // Ann follows Bo (any case), twice: one follow.
    for name in ["bobo", "BOBO"] {
        let (status, body) = call(&srv, "PUT", &format!("/api/friends/{name}"), None, &ann).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["friends"].as_array().unwrap().len(), 1, "{body}");
    }
    let (_, body) = call(&srv, "GET", "/api/friends", None, &ann).await;
    let f = &body["friends"][0];
    assert_eq!(
        (f["username"].as_str(), f["online"].as_bool(), f["table"].is_null()),
        (Some("Bobo"), Some(false), true),
        "{body}"
    );
    // Following is one-way.
    let (_, body) = call(&srv, "GET", "/api/friends", None, &bo).await;
    assert_eq!(body["friends"], json!([]), "{body}");

    // Bo connects and sits at a public table: Ann sees him online, and where.
    let table = srv.table(&srv.client.guest("Host").await.unwrap(), json!({ "game": "madiao", "name": "Open one", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}] })).await;
    let bo_guest =
        client::GuestToken { id: bo_session.id.clone(), name: bo_session.name.clone(), token: bo.clone() };
    let (_sock, _) = srv.join(&bo_guest, &table, Some(1)).await;
    // The friends list reads the table's summary, which follows the join by a moment.
    let mut body = Value::Null;
    common::eventually("Ann sees Bo at the table", Duration::from_secs(10), async || {
        body = call(&srv, "GET", "/api/friends", None, &ann).await.1;
        body["friends"][0]["table"]["id"].as_str() == Some(table.as_str())
    })
    .await;
    let f = &body["friends"][0];
    assert_eq!(f["online"], true, "{body}");
    assert_eq!(
        (f["table"]["id"].as_str(), f["table"]["name"].as_str()),
        (Some(table.as_str()), Some("Open one")),
        "{body}"
    );

    // A challenge: Bo hears of it, and accepts: the table is made for both.
    let (status, c) =
        call(&srv, "POST", "/api/challenges", Some(json!({ "username": "bobo", "game": "dabaifen" })), &ann)
            .await;
    assert_eq!(
        (status, c["status"].as_str(), c["incoming"].as_bool()),
        (201, Some("pending"), Some(false)),
        "{c}"
    );
    let id = c["id"].as_str().unwrap().to_string();
    let (_, body) = call(&srv, "GET", "/api/friends", None, &bo).await;
    let heard = &body["challenges"][0];
    assert_eq!(
        (heard["id"].as_str(), heard["from"].as_str(), heard["incoming"].as_bool()),
        (Some(id.as_str()), Some("ann"), Some(true)),
        "{body}"
    );
    // Only its recipient answers it; an unknown answer is refused.
    let (status, body) = call(&srv, "POST", &format!("/api/challenges/{id}/accept"), None, &ann).await;
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("no_challenge")), "{body}");
    let (status, _) = call(&srv, "POST", &format!("/api/challenges/{id}/maybe"), None, &bo).await;
    assert_eq!(status, 400);
    let (status, c) = call(&srv, "POST", &format!("/api/challenges/{id}/accept"), None, &bo).await;
    assert_eq!((status, c["status"].as_str()), (200, Some("accepted")), "{c}");
    let made = c["table"].as_str().expect("the table made").to_string();
    let (status, t) = srv.client.get(&format!("/api/tables/{made}")).await.unwrap();
    assert_eq!(status, 200, "{t}");
    assert_eq!(
        (t["game"].as_str(), t["private"].as_bool(), t["rated"].as_bool()),
        (Some("dabaifen"), Some(true), Some(false)),
        "{t}"
    );
    assert_eq!(t["seats"][0]["name"], "Ann", "{t}");
    assert_eq!(
        (t["seats"][2]["kind"].as_str(), t["seats"][2]["invited"].as_str()),
        (Some("open"), Some("Bo")),
        "{t}"
    );
    // Answered once.
    let (status, _) = call(&srv, "POST", &format!("/api/challenges/{id}/decline"), None, &bo).await;
    assert_eq!(status, 409);
    // The challenger sees the answer and the table.
    let (_, body) = call(&srv, "GET", "/api/friends", None, &ann).await;
    assert_eq!(
        (body["challenges"][0]["status"].as_str(), body["challenges"][0]["table"].as_str()),
        (Some("accepted"), Some(made.as_str())),
        "{body}"
    );
    // Bo takes the seat kept for him.
    let (_s2, sync) = srv.join(&bo_guest, &made, None).await;
    assert_eq!(sync["you"]["seat"], 2, "{sync}");

    // Declined, withdrawn.
    let (_, c) =
        call(&srv, "POST", "/api/challenges", Some(json!({ "username": "bobo", "game": "madiao" })), &ann)
            .await;
    let (_, c) =
        call(&srv, "POST", &format!("/api/challenges/{}/decline", c["id"].as_str().unwrap()), None, &bo)
            .await;
    assert_eq!((c["status"].as_str(), c["table"].is_null()), (Some("declined"), true), "{c}");
    let (_, c) =
        call(&srv, "POST", "/api/challenges", Some(json!({ "username": "bobo", "game": "madiao" })), &ann)
            .await;
    let cid = c["id"].as_str().unwrap().to_string();
    let (status, _) = call(&srv, "POST", &format!("/api/challenges/{cid}/withdraw"), None, &bo).await;
    assert_eq!(status, 404, "only its sender withdraws it");
    let (_, c) = call(&srv, "POST", &format!("/api/challenges/{cid}/withdraw"), None, &ann).await;
    assert_eq!(c["status"], "withdrawn", "{c}");
    // Bo may not challenge Ann, whom he does not follow; a bad body is refused.
    let (status, _) =
        call(&srv, "POST", "/api/challenges", Some(json!({ "username": "ann", "game": "madiao" })), &bo)
            .await;
    assert_eq!(status, 400);
    let (status, _) =
        call(&srv, "POST", "/api/challenges", Some(json!({ "username": "bobo", "game": "chess" })), &ann)
            .await;
    assert_eq!(status, 400);

    // Unfollowing ends it.
    let (status, body) = call(&srv, "DELETE", "/api/friends/bobo", None, &ann).await;
    assert_eq!((status, body["friends"].clone()), (200, json!([])), "{body}");
}
