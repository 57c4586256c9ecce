//! The browser client's wire types (`web/js/wire.d.ts`) are generated from the Rust types that go
//! over the wire: this fails when the committed file is not what the generator gives now (run
//! `YEZI_BLESS=1 cargo test -p wire --test wire_types` to write it again), or when a type the
//! declarations name is not declared.

use std::path::PathBuf;

fn committed_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/js/wire.d.ts")
}

#[test]
fn the_committed_declarations_are_generated_from_the_rust_types() {
    let generated = wire::typescript::typescript();
    let path = committed_path();
    if std::env::var_os("YEZI_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(committed.lines().count().min(generated.lines().count()));
        panic!(
            "web/js/wire.d.ts differs from the generated declarations from line {} on:\n  committed: {:?}\n  generated: {:?}\n\
             run `YEZI_BLESS=1 cargo test -p wire --test wire_types` and commit the file",
            first + 1,
            committed.lines().nth(first),
            generated.lines().nth(first)
        );
    }
}

#[test]
fn every_type_named_is_declared() {
    let ts = wire::typescript::typescript();
    assert_eq!(wire::typescript::undeclared(&ts), Vec::<String>::new(), "{ts}");
    // The checker itself notices a type that is named but not declared.
    let broken = format!("{ts}\nexport type Broken = {{ x: NotDeclaredAnywhere }};\n");
    assert_eq!(wire::typescript::undeclared(&broken), vec!["NotDeclaredAnywhere".to_string()]);
}

#[test]
fn the_declarations_cover_both_games_and_every_message() {
    let ts = wire::typescript::typescript();
    for name in [
        "MadiaoView",
        "DabaifenView",
        "Legal",
        "ServerMsg",
        "ClientMsg",
        "SyncMsg",
        "UpdateMsg",
        "ReplayOutline",
        "ReplayHand",
        "SettlementLine",
        "AccountEvent",
    ] {
        assert!(ts.contains(&format!("export type {name} ")), "{name} is not declared");
    }
    // Card codes are literal unions, so a misspelled code is a type error in the client.
    assert!(ts.contains(r#"export type MadiaoCard = "TW" | "TQ" | "TB""#), "{ts}");
    assert!(ts.contains(r#""BJ""#) && ts.contains(r#""SJ""#));
}
