//! The command-line tests as one test binary: each file of `tests/` is a module of it, so that the binary
//! links the crate and its dependencies once instead of once a file (the link was most of the
//! workspace's test build). Each file still reads as a test program of its own, with its own
//! `mod common;`; its tests are named `<file>::<test>` (`cargo nextest run -p <crate>
//! <file>::`, or `cargo test -p <crate> --test integration <file>::`).
//!
//! A new test file `tests/<topic>.rs` is added below as `#[path = "<topic>.rs"] mod <topic>;`
//! (`#[path]` makes the file's `mod common;` find `tests/common/`, as it did when the file
//! was a test binary of its own); `every_test_file_is_a_module` fails on a file left out.

#[path = "admin_cli.rs"]
mod admin_cli;
#[path = "analyse_cli.rs"]
mod analyse_cli;
#[path = "archive_cli.rs"]
mod archive_cli;
#[path = "arena_cli.rs"]
mod arena_cli;
#[path = "calibrate_cli.rs"]
mod calibrate_cli;
#[path = "cluster_faults.rs"]
mod cluster_faults;
#[path = "cluster_pause.rs"]
mod cluster_pause;
#[path = "cluster_spread.rs"]
mod cluster_spread;
#[path = "dabaifen_bots_cli.rs"]
mod dabaifen_bots_cli;
#[path = "dabaifen_cli.rs"]
mod dabaifen_cli;
#[path = "docs.rs"]
mod docs;
#[path = "madiao_cli.rs"]
mod madiao_cli;
#[path = "operations.rs"]
mod operations;
#[path = "play_tmux.rs"]
mod play_tmux;
#[path = "puzzles_cli.rs"]
mod puzzles_cli;
#[path = "readyz_postgres.rs"]
mod readyz_postgres;
#[path = "serve_limits.rs"]
mod serve_limits;
#[path = "serve_start.rs"]
mod serve_start;
#[path = "server_restart.rs"]
mod server_restart;
#[path = "tui_remote.rs"]
mod tui_remote;
#[path = "verify_cli.rs"]
mod verify_cli;

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
