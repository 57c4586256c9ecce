//! The browser's copy of the figures on the cards (`web/js/figures.js`) is generated from the Rust
//! table [`madiao::figure`]: this fails when the committed file is not what the table gives now
//! (run `YEZI_BLESS=1 cargo test -p madiao --test figures` to write it again and commit it).

use std::fmt::Write;
use std::path::PathBuf;

use madiao::{Card, ZeroCash, figure};

fn committed_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/js/figures.js")
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// The module `web/js/figures.js`: for each way of drawing the zero cash, the figure of every
/// card that has one, highest card first.
fn generated() -> String {
    let mut js = String::new();
    js.push_str(
        "// The figures on the Madiao cards (docs/rules/madiao.md §1), for each way a deck draws the zero\n\
         // cash. GENERATED from the Rust table `madiao::figure` (crates/madiao/src/figures.rs): do not\n\
         // edit; run `YEZI_BLESS=1 cargo test -p madiao --test figures` and commit the file.\n\n",
    );
    js.push_str(
        "/** @typedef {'unnamed' | 'blank' | 'wang_ying'} ZeroCash */\n\
         /** @typedef {'lu_rong' | 'compilation' | 'li_dongqi' | 'modern_account'} FigureSource */\n\
         /** @typedef {{name: string | null, reading: string | null, source: FigureSource}} Figure */\n\n",
    );
    let names: Vec<String> = ZeroCash::ALL.iter().map(|z| quoted(z.name())).collect();
    let _ = writeln!(js, "/** The ways to draw the zero cash, the default first. @type {{ZeroCash[]}} */");
    let _ = writeln!(js, "export const ZERO_CASH = [{}];\n", names.join(", "));
    js.push_str(
        "/** Each way's figures, by card code. @type {Record<ZeroCash, Record<string, Figure>>} */\n",
    );
    js.push_str("export const FIGURES = {\n");
    for z in ZeroCash::ALL {
        let _ = writeln!(js, "  {}: {{", z.name());
        for card in Card::all().collect::<Vec<_>>().into_iter().rev() {
            let Some(f) = figure(card, z) else { continue };
            let (name, reading) = match f.hero {
                Some(h) => (quoted(h.name), quoted(h.reading)),
                None => ("null".to_string(), "null".to_string()),
            };
            let _ = writeln!(
                js,
                "    {}: {{ name: {name}, reading: {reading}, source: {} }},",
                card.code(),
                quoted(f.source.name())
            );
        }
        js.push_str("  },\n");
    }
    js.push_str("};\n");
    js
}

#[test]
fn the_browsers_figures_are_generated_from_the_rust_table() {
    let generated = generated();
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
            "web/js/figures.js differs from the Rust table from line {} on:\n  committed: {:?}\n  generated: {:?}\n\
             run `YEZI_BLESS=1 cargo test -p madiao --test figures` and commit the file",
            first + 1,
            committed.lines().nth(first),
            generated.lines().nth(first)
        );
    }
}

#[test]
fn the_generated_module_names_every_figure() {
    let js = generated();
    // 20 heroes of the Tens and Myriads under each way, plus the zero cash under two of them.
    assert_eq!(js.matches(" source: \"").count(), 20 * 3 + 2);
    assert!(js.contains("TW: { name: \"宋江\", reading: \"Song Jiang\", source: \"lu_rong\" },"));
    assert!(js.contains("W0: { name: null, reading: null, source: \"li_dongqi\" },"));
    assert!(js.contains("W0: { name: \"王英\", reading: \"Wang Ying\", source: \"modern_account\" },"));
}
