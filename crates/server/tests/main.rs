//! The server's integration tests as one test binary: each file of `tests/` is a module of it, so
//! that the binary links the crate and its dependencies once instead of once a file (the link was
//! most of the workspace's test build). The shared helpers, `tests/common/`, are one module of the
//! binary, which each file takes with `use crate::common;`; a file's tests are named
//! `<file>::<test>` (`cargo nextest run -p server <file>::`, or `cargo test -p server --test
//! integration <file>::`).
//!
//! A new test file `tests/<topic>.rs` is added below as `#[path = "<topic>.rs"] mod <topic>;`;
//! `every_test_file_is_a_module` fails on a file left out.

mod common;

#[path = "accounts.rs"]
mod accounts;
#[path = "analysis.rs"]
mod analysis;
#[path = "api.rs"]
mod api;
#[path = "archive.rs"]
mod archive;
#[path = "cluster.rs"]
mod cluster;
#[path = "cluster_balance.rs"]
mod cluster_balance;
#[path = "cluster_bus.rs"]
mod cluster_bus;
#[path = "cluster_events.rs"]
mod cluster_events;
#[path = "cluster_friends.rs"]
mod cluster_friends;
#[path = "db_clock.rs"]
mod db_clock;
#[path = "event_watch.rs"]
mod event_watch;
#[path = "events.rs"]
mod events;
#[path = "events_dbf.rs"]
mod events_dbf;
#[path = "events_rated.rs"]
mod events_rated;
#[path = "events_start.rs"]
mod events_start;
#[path = "ext_bots.rs"]
mod ext_bots;
#[path = "fair_shares.rs"]
mod fair_shares;
#[path = "forget.rs"]
mod forget;
#[path = "friends.rs"]
mod friends;
#[path = "friends_live.rs"]
mod friends_live;
#[path = "games.rs"]
mod games;
#[path = "hardening.rs"]
mod hardening;
#[path = "hints.rs"]
mod hints;
#[path = "hostile.rs"]
mod hostile;
#[path = "leak.rs"]
mod leak;
#[path = "legal.rs"]
mod legal;
#[path = "limits.rs"]
mod limits;
#[path = "loadtest.rs"]
mod loadtest;
#[path = "moderation.rs"]
mod moderation;
#[path = "modules.rs"]
mod modules;
#[path = "my_games.rs"]
mod my_games;
#[path = "pg_backup.rs"]
mod pg_backup;
#[path = "play_now.rs"]
mod play_now;
#[path = "privacy.rs"]
mod privacy;
#[path = "puzzles.rs"]
mod puzzles;
#[path = "ratings.rs"]
mod ratings;
#[path = "rematch_seed.rs"]
mod rematch_seed;
#[path = "replay.rs"]
mod replay;
#[path = "sessions.rs"]
mod sessions;
#[path = "stakes.rs"]
mod stakes;
#[path = "storage.rs"]
mod storage;
#[path = "table_management.rs"]
mod table_management;
#[path = "tournaments.rs"]
mod tournaments;
#[path = "tournaments_dbf.rs"]
mod tournaments_dbf;
#[path = "tournaments_life.rs"]
mod tournaments_life;
#[path = "trust.rs"]
mod trust;
#[path = "tv.rs"]
mod tv;

/// Every `.rs` file of `tests/` is a module of this binary (else its tests would never run: the
/// crate's `autotests = false` stops cargo from making a binary of each file).
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("read tests/main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("read tests/") {
        let path = entry.expect("a directory entry").path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { continue };
        if path.extension().is_some_and(|e| e == "rs") && stem != "main" {
            let line = format!("#[path = \"{stem}.rs\"]\nmod {stem};");
            if !main.contains(&line) {
                missing.push(stem.to_string());
            }
        }
    }
    assert!(missing.is_empty(), "tests/main.rs lacks `#[path = \"<file>.rs\"] mod <file>;` for {missing:?}");
}
