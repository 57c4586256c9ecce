//! The terminal client stands on the table core and the client crate alone: it plays offline
//! without the server crate, and none of the server's machinery (axum, SQLite, PostgreSQL) is
//! built into it, not even into its tests.

use std::process::Command;

#[test]
fn the_terminal_client_does_not_depend_on_the_server() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO"))
        .args(["tree", "-p", "tui", "-e", "normal,build,dev", "--prefix", "none", "--locked"])
        .current_dir(&root)
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = tree.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(names.contains(&"table"), "the terminal client is built on the table core:\n{tree}");
    for banned in ["server", "axum", "rusqlite", "tokio-postgres", "sqlx", "libsqlite3-sys"] {
        assert!(!names.contains(&banned), "the terminal client depends on {banned}:\n{tree}");
    }
}
