//! An operator's external bot (`yezi serve --bots FILE`, docs/bot-protocol.md) at a table: clients
//! see it among the bots and seat it by name, never by command, and it plays hands to the end with
//! no fallback. The example bot of `examples/bots` plays both games.

use crate::common;

use std::time::Duration;

use cards::record::GameKind;
use serde_json::{Value, json};

fn register_example() {
    let example = format!("{}/../../examples/bots/random_bot.py", env!("CARGO_MANIFEST_DIR"));
    let bad = format!("{}/../ai/tests/data/bad_bot.py", env!("CARGO_MANIFEST_DIR"));
    let file = json!({ "bots": [
        { "name": "pyrandom", "command": ["python3", example] },
        { "name": "pymadiao", "command": ["python3", example], "games": ["madiao"] },
        { "name": "pyillegal", "command": ["python3", bad, "illegal"], "games": ["madiao"] },
    ] })
    .to_string();
    let mut reserved = table::bots::builtin_names(GameKind::Madiao).to_vec();
    reserved.extend(table::bots::builtin_names(GameKind::Dabaifen));
    table::bots::set_external_bots(ai::ext::parse_bots_file(&file, &reserved).unwrap());
}

fn seats(names: [&str; 4]) -> Value {
    Value::Array(names.iter().map(|n| json!({ "kind": "bot", "bot": n })).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_bot_is_seated_by_name_and_plays_both_games() {
    register_example();
    // A fixed seed for the tables: the same deals every run (none ends before play by a meld).
    let srv = common::TestServer::start_config(server::Config {
        timing: common::fast(),
        limits: common::fast_limits(),
        table_seed: Some(1),
        ..Default::default()
    })
    .await;
    let (status, games) = srv.client.get("/api/games").await.unwrap();
    assert_eq!(status, 200);
    for g in games["games"].as_array().unwrap() {
        let bots: Vec<&str> = g["bots"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
        assert!(bots.contains(&"pyrandom"), "{g}");
        assert_eq!(bots.contains(&"pymadiao"), g["game"] == "madiao", "{g}");
        assert_ne!(g["default_bot"], "pyrandom");
    }
    let host = srv.guest("Ann").await;
    // A client names bots; a command is not a name.
    for (game, bot) in [("madiao", "ext:python3 evil.py"), ("dabaifen", "pymadiao"), ("madiao", "python3")] {
        let body = json!({ "game": game, "seats": seats([bot, "random", "random", "random"]) });
        let e = srv
            .client
            .create_table(&host.token, &serde_json::from_value(body).unwrap())
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown bot"), "{bot}: {e}");
    }

    // Madiao: a one-hand match with the example bot in three seats, played to the end.
    let body = json!({
        "game": "madiao",
        "variants": { "game_length": "hands:1" },
        "seats": seats(["pyrandom", "heuristic", "pyrandom", "pymadiao"]),
    });
    let id = srv.table(&host, body).await;
    let text = srv.record_within(&id, Duration::from_secs(120)).await.expect("the Madiao match ends");
    let ai::record::AnyRecord::Madiao(rec) = ai::record::parse(&text).unwrap() else { panic!("{text}") };
    assert_eq!(
        rec.players.as_ref().unwrap().0,
        ["bot:pyrandom", "bot:heuristic", "bot:pyrandom", "bot:pymadiao"].map(String::from)
    );
    assert!(rec.hands.iter().all(|h| h.result.is_some()), "every hand is complete");
    assert!(madiao::record::replay(&rec).is_clean());

    // Da Bai Fen: watched until the first deal is over.
    let body = json!({ "game": "dabaifen", "seats": seats(["pyrandom", "pyrandom", "random", "pyrandom"]) });
    let id = srv.table(&host, body).await;
    let mut s = srv.client.connect_as(&host.token).await.unwrap();
    s.send(&json!({ "type": "watch", "table": id })).await.unwrap();
    let over = s
        .until(Duration::from_secs(120), "the first deal's result", |m| {
            m["type"] == "error" || (m["view"]["result"].is_object() && m["view"]["phase"] == "over")
        })
        .await
        .unwrap();
    assert!(over["view"]["result"].is_object(), "{over}");

    let counts = table::bots::external_fallbacks();
    for name in ["pyrandom", "pymadiao"] {
        let f = counts.iter().find(|(n, _)| n == name).map(|(_, f)| *f).unwrap_or_default();
        assert!(f.decisions > 0, "{name} decided: {counts:?}");
        assert_eq!(f.total(), 0, "{name}: {f:?}");
    }

    // A bot that answers illegal actions: its decisions are played as the first legal action,
    // and the operator sees them counted in `GET /api/stats`.
    let body = json!({
        "game": "madiao",
        "variants": { "game_length": "hands:1" },
        "seats": seats(["pyillegal", "heuristic", "random", "random"]),
    });
    let id = srv.table(&host, body).await;
    srv.record_within(&id, Duration::from_secs(120)).await.expect("the match with the failing bot ends");
    let stats = srv.client.stats().await.unwrap();
    let of = |name: &str| stats.external_bots.iter().find(|b| b.name == name).cloned();
    let bad = of("pyillegal").expect("the failing bot is listed");
    assert!(bad.decisions > 0 && bad.illegal == bad.decisions, "{bad:?}");
    assert_eq!((bad.malformed, bad.timeouts, bad.crashes), (0, 0, 0), "{bad:?}");
    let good = of("pyrandom").expect("the example bot is listed");
    assert!(
        good.decisions > 0 && good.illegal + good.malformed + good.timeouts + good.crashes == 0,
        "{good:?}"
    );
}
