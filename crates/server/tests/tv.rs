//! The TV's list (`docs/protocol.md`, "Live tables (TV)"): `GET /api/tv` lists the live public
//! tables, the highest-rated first — ranked by the mean rating, in the table's game, of the rated
//! people seated at it; tables without a rated person after, by how many people play — and leaves
//! out private tables, tables whose match has not begun and finished ones.

use crate::common;

use std::time::Duration;

use cards::record::GameKind;
use client::GuestToken;
use common::{TestServer, fast, play_randomly};
use serde_json::{Value, json};
use server::store::{FIRST_EPOCH, Write};
use table::rated::{RatedMatch, RatedPlayer, RatedSeat};

const PW: &str = "correct horse battery";
const WAIT: Duration = Duration::from_secs(30);

/// A new guest who claims the account `username`.
async fn account(srv: &TestServer, username: &str) -> GuestToken {
    let g = srv.guest(username).await;
    let s = srv.client.claim_account(&g.token, username, PW).await.unwrap();
    GuestToken { id: s.id, name: s.name, token: s.token }
}

/// The account's rating in Madiao, from its public profile.
async fn madiao_rating(srv: &TestServer, username: &str) -> f64 {
    let (status, p) = srv.client.get(&format!("/api/players/{username}")).await.unwrap();
    assert_eq!(status, 200, "{p}");
    let r = p["ratings"].as_array().unwrap().iter().find(|r| r["game"] == "madiao");
    r.and_then(|r| r["rating"].as_f64()).unwrap_or_else(|| panic!("{username} has a Madiao rating: {p}"))
}

/// The table's status as the lobby shows it.
async fn status(srv: &TestServer, id: &str) -> String {
    let (code, t) = srv.client.get(&format!("/api/tables/{id}")).await.unwrap();
    assert_eq!(code, 200, "{t}");
    t["status"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_tv_lists_the_live_public_tables_highest_rated_first() {
    let srv = TestServer::start(fast()).await;
    let (top, hi, mid, lo) = (
        account(&srv, "Top").await,
        account(&srv, "High").await,
        account(&srv, "Mid").await,
        account(&srv, "Low").await,
    );
    let guest = srv.guest("Gu").await;

    // The ratings, made as a rated table's end makes them: one rated Madiao match, Top first,
    // then Hi, Mid and Lo.
    let (_, t) =
        srv.client.post("/api/tables", &json!({ "game": "madiao" }), Some(&top.token)).await.unwrap();
    let rated_table = t["table"]["id"].as_str().unwrap().to_string();
    let seat = |i: u8, g: &GuestToken, result| RatedSeat {
        seat: i,
        player: RatedPlayer::Person { guest: g.id.clone(), name: g.name.clone() },
        side: None,
        result,
        forfeited: false,
    };
    let m = RatedMatch {
        game: GameKind::Madiao,
        seats: vec![seat(0, &top, 9.0), seat(1, &hi, 4.0), seat(2, &mid, 1.0), seat(3, &lo, -14.0)],
    };
    srv.app.store.write_step(&rated_table, FIRST_EPOCH, &[Write::Rated(m)]).await.unwrap();
    let r_top = madiao_rating(&srv, "Top").await;
    let r_hi = madiao_rating(&srv, "High").await;
    let r_mid = madiao_rating(&srv, "Mid").await;
    let r_lo = madiao_rating(&srv, "Low").await;
    assert!(r_top > r_hi && r_hi > r_mid && r_mid > r_lo, "{r_top} {r_hi} {r_mid} {r_lo}");

    let bots = || json!([{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]);
    let alone = |private: bool| {
        let mut seats = vec![json!({"kind": "me"})];
        seats.extend(bots().as_array().unwrap().iter().cloned());
        json!({ "game": "madiao", "private": private, "seats": seats })
    };
    // The live tables, made in an order that is not the TV's: each person alone with bots
    // (untimed: the match waits for him, live for as long as the test runs). Lo's first, then
    // Hi's, the guest's (nobody rated), Mid's last (the newest).
    let mut sockets = Vec::new();
    let live = |who: &GuestToken, private: bool| {
        let (srv, who) = (&srv, who.clone());
        async move {
            let id = srv.table(&who, alone(private)).await;
            let (s, _) = srv.join(&who, &id, Some(0)).await;
            (id, s)
        }
    };
    let (lo_t, s) = live(&lo, false).await;
    sockets.push(s);
    let (hi_t, s) = live(&hi, false).await;
    sockets.push(s);
    let (guest_t, s) = live(&guest, false).await;
    sockets.push(s);
    let (mid_t, s) = live(&mid, false).await;
    sockets.push(s);
    // Hi again with the unrated guest (untimed, so that nobody's clock runs out): its mean rating
    // is Hi's alone, the same as Hi's own table, and its two people put it before that one.
    let mut seats = vec![json!({"kind": "me"}), json!({"kind": "open"})];
    seats.extend(bots().as_array().unwrap().iter().take(2).cloned());
    let pair_t = srv.table(&hi, json!({ "game": "madiao", "untimed": true, "seats": seats })).await;
    let (s, _) = srv.join(&hi, &pair_t, Some(0)).await;
    sockets.push(s);
    let (s, _) = srv.join(&guest, &pair_t, Some(1)).await;
    sockets.push(s);

    // Tables the TV leaves out, each with Top, the best rated, at it: a private live table, a
    // table whose match has not begun (a seat open), and a finished one.
    let (private_t, s) = live(&top, true).await;
    sockets.push(s);
    let mut waiting_seats = vec![json!({"kind": "me"}), json!({"kind": "open"})];
    waiting_seats.extend(bots().as_array().unwrap().iter().take(2).cloned());
    let waiting_t =
        srv.table(&top, json!({ "game": "madiao", "untimed": true, "seats": waiting_seats })).await;
    let (s, _) = srv.join(&top, &waiting_t, Some(0)).await;
    sockets.push(s);
    let mut short = alone(false);
    short["variants"] = json!({ "game_length": "hands:1" });
    let finished_t = srv.table(&top, short).await;
    let (mut s, _) = srv.join(&top, &finished_t, Some(0)).await;
    play_randomly(&mut s, 29, WAIT).await;
    assert!(srv.record_within(&finished_t, WAIT).await.is_some(), "the short match's record");

    let live_ids = [&lo_t, &hi_t, &guest_t, &mid_t, &pair_t, &private_t];
    common::eventually("every live table plays", WAIT, async || {
        for id in live_ids {
            if status(&srv, id).await != "playing" {
                return false;
            }
        }
        status(&srv, &finished_t).await == "finished"
    })
    .await;
    assert_eq!(status(&srv, &waiting_t).await, "waiting");

    let (code, tv) = srv.client.get("/api/tv").await.unwrap();
    assert_eq!(code, 200, "{tv}");
    let delay = srv.app.tables.deps.tv_delay.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(tv["delay_tricks"].as_u64(), Some(u64::from(delay)), "the node's delay: {tv}");
    let listed: Vec<&Value> = tv["tables"].as_array().unwrap().iter().collect();
    let ids: Vec<&str> = listed.iter().map(|t| t["table"]["id"].as_str().unwrap()).collect();
    let name = |id: &str| -> &str {
        [
            (&lo_t, "Lo's"),
            (&hi_t, "Hi's"),
            (&guest_t, "the guest's"),
            (&mid_t, "Mid's"),
            (&pair_t, "Hi and the guest's"),
            (&private_t, "the private"),
            (&waiting_t, "the waiting"),
            (&finished_t, "the finished"),
        ]
        .into_iter()
        .find(|(t, _)| t.as_str() == id)
        .map_or("another", |(_, n)| n)
    };
    let names: Vec<&str> = ids.iter().map(|id| name(id)).collect();
    // Hi (two people, then one), Mid, Lo, then the table with no rated person; no private,
    // waiting or finished table.
    assert_eq!(names, ["Hi and the guest's", "Hi's", "Mid's", "Lo's", "the guest's"], "{tv}");
    let rating = |i: usize| listed[i]["rating"].as_f64();
    let close = |got: Option<f64>, want: f64| got.is_some_and(|g| (g - want).abs() < 1e-6);
    assert!(close(rating(0), r_hi), "the mean of the rated people only (the guest is not): {tv}");
    assert!(close(rating(1), r_hi) && close(rating(2), r_mid) && close(rating(3), r_lo), "{tv}");
    assert!(listed[4]["rating"].is_null(), "nobody rated: {tv}");
    let people: Vec<u64> = listed.iter().map(|t| t["people"].as_u64().unwrap()).collect();
    assert_eq!(people, [2, 1, 1, 1, 1], "{tv}");
    for t in &listed {
        assert_eq!(
            (t["table"]["status"].as_str(), t["table"]["private"].as_bool()),
            (Some("playing"), Some(false))
        );
    }
    for s in sockets {
        s.close().await;
    }
}
