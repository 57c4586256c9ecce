//! The project's documents stand on their own: nothing cites documents outside the repository,
//! every rules section the engines cite exists in the project's rules reference, every relative
//! link or named `docs/…` path in the documents leads to a file that exists, every source file
//! the documents name in backquotes exists, and CONTRIBUTING.md's crate graph is Cargo's.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The root of the repository (this crate is `crates/yezi`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// Every file under `dir` (relative to the root), skipping build output, installed packages and
/// version-control data.
fn files_under(dir: &str) -> Vec<PathBuf> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(p) else { return };
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name();
            let name = name.to_string_lossy();
            if matches!(name.as_ref(), "target" | "node_modules" | ".git" | "test-results") {
                continue;
            }
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                walk(&path, out);
            } else if ft.is_file() {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    let p = root().join(dir);
    if p.is_file() {
        out.push(p);
    } else {
        walk(&p, &mut out);
    }
    out.sort();
    out
}

/// A file's text, or `None` for a file that is not UTF-8 (images, fonts).
fn text(p: &Path) -> Option<String> {
    String::from_utf8(fs::read(p).ok()?).ok()
}

/// The path of `p` relative to the root, for messages.
fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// The documents and sources a clone of the project carries.
const PROJECT: &[&str] = &["crates", "web", "e2e", "docs", "README.md", "CONTRIBUTING.md"];

#[test]
fn nothing_cites_the_shared_folder_outside_the_repository() {
    // Built from pieces so that this file does not mention them itself.
    let outside = [["shared", "rules"].join("/"), ["shared", "spec"].join("/")];
    let mut found = Vec::new();
    for dir in PROJECT {
        for f in files_under(dir) {
            let Some(t) = text(&f) else { continue };
            for (i, line) in t.lines().enumerate() {
                if outside.iter().any(|o| line.contains(o.as_str())) {
                    found.push(format!("{}:{}: {}", rel(&f), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "documents outside the repository are cited:\n{}", found.join("\n"));
}

/// The section numbers a rules reference defines: `N` for each heading `## N. …`, and `N.M` for
/// each numbered item `M. …` (at the start of a line) under it.
fn sections(doc: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut current: Option<u32> = None;
    for line in doc.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            current = leading_number(h).map(|(n, _)| n);
            if let Some(n) = current {
                out.insert(n.to_string());
            }
        } else if line.starts_with('#') {
            // A deeper heading stays inside its section; a top heading ends the numbered part.
            if line.starts_with("# ") {
                current = None;
            }
        } else if let (Some(n), Some((m, rest))) = (current, leading_number(line))
            && rest.starts_with(". ")
        {
            out.insert(format!("{n}.{m}"));
        }
    }
    out
}

/// The number a string starts with, and what follows it.
fn leading_number(s: &str) -> Option<(u32, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// Every numbered section cited as `§N` or `§N.M` in a text; a range `§N–M` cites both ends.
fn citations(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(i) = rest.find('§') {
        rest = &rest[i + '§'.len_utf8()..];
        let mut s = rest.trim_start_matches(' ');
        while let Some((n, after)) = leading_number(s) {
            let (cite, after) = match after.strip_prefix('.').and_then(leading_number) {
                Some((m, after2)) => (format!("{n}.{m}"), after2),
                None => (n.to_string(), after),
            };
            out.push(cite);
            match after.strip_prefix('–').or_else(|| after.strip_prefix('-')) {
                Some(next) => s = next,
                None => break,
            }
        }
    }
    out
}

#[test]
fn section_parsing_and_citations() {
    let doc = "# T\n## 1. A\n1. x\n2. y\n  3. nested\n## 2. B\ntext 4. no\n### 2.9 sub\n";
    let s: Vec<_> = sections(doc).into_iter().collect();
    assert_eq!(s, ["1", "1.1", "1.2", "2"]);
    assert_eq!(citations("(§4.3, §6) and §1–2, spec §Common shape, § 9.14"), ["4.3", "6", "1", "2", "9.14"]);
}

/// Where each game's rules are cited: its engine, and the parts of the other crates that serve it.
fn citing_files(game: &str) -> Vec<PathBuf> {
    let mut out = files_under(&format!("crates/{game}/src"));
    out.extend(
        files_under(&format!("crates/{game}/tests"))
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "rs")),
    );
    out.extend(files_under(&format!("crates/ai/src/{game}")));
    out.extend(files_under(&format!("crates/server/src/game/{game}.rs")));
    out
}

#[test]
fn every_cited_rules_section_exists() {
    let mut missing = Vec::new();
    for game in ["madiao", "dabaifen"] {
        let doc_path = root().join(format!("docs/rules/{game}.md"));
        let doc = fs::read_to_string(&doc_path).unwrap_or_else(|e| panic!("{}: {e}", rel(&doc_path)));
        let defined = sections(&doc);
        assert!(defined.len() > 20, "docs/rules/{game}.md defines only {defined:?}");
        let files = citing_files(game);
        assert!(!files.is_empty());
        let mut cited = 0;
        for f in files {
            let Some(t) = text(&f) else { continue };
            for (i, line) in t.lines().enumerate() {
                for c in citations(line) {
                    cited += 1;
                    if !defined.contains(&c) {
                        missing.push(format!(
                            "{}:{}: §{c} is not a section of docs/rules/{game}.md",
                            rel(&f),
                            i + 1
                        ));
                    }
                }
            }
        }
        assert!(cited > 50, "only {cited} citations of {game} found: the walk is wrong");
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_engines_say_which_document_they_cite() {
    for (file, doc) in [
        ("crates/madiao/src/lib.rs", "docs/rules/madiao.md"),
        ("crates/dabaifen/src/lib.rs", "docs/rules/dabaifen.md"),
        ("crates/cards/src/record.rs", "docs/record.md"),
        ("crates/madiao/src/record.rs", "docs/record.md"),
        ("crates/dabaifen/src/record.rs", "docs/record.md"),
    ] {
        let t = fs::read_to_string(root().join(file)).unwrap();
        let head: String = t.lines().take_while(|l| l.starts_with("//!")).collect::<Vec<_>>().join("\n");
        assert!(head.contains(doc), "{file}: its crate or module documentation does not name {doc}");
    }
}

/// The relative link targets of a Markdown text: `](target)`, without any `#anchor`.
fn links(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split('#').next().unwrap_or("").trim();
        let external = target.contains("://") || target.starts_with("mailto:");
        if !target.is_empty() && !external {
            out.push(target.to_string());
        }
    }
    out
}

/// Every `docs/….md` path named in a text (in backquotes or plain), relative to the root.
fn named_docs(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in t.match_indices("docs/") {
        // Only a path that starts here: not the tail of `…/docs/` or of a longer word.
        let before = t[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '/' || c == '.' || c == '_' || c == '-') {
            continue;
        }
        let tail = &t[i..];
        let end = tail.find(|c: char| !(c.is_alphanumeric() || "/._-".contains(c))).unwrap_or(tail.len());
        let path = tail[..end].trim_end_matches('.');
        if path.ends_with(".md") {
            out.push(path.to_string());
        }
    }
    out
}

#[test]
fn links_and_named_documents_resolve() {
    let mut broken = Vec::new();
    let mut markdown = files_under("README.md");
    markdown.extend(files_under("CONTRIBUTING.md"));
    markdown.extend(files_under("docs").into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")));
    assert!(markdown.iter().any(|p| p.ends_with("CONTRIBUTING.md")), "CONTRIBUTING.md is missing");
    let mut checked = 0;
    for f in &markdown {
        let t = fs::read_to_string(f).unwrap();
        for l in links(&t) {
            checked += 1;
            if !f.parent().unwrap().join(&l).exists() {
                broken.push(format!("{}: link to {l}", rel(f)));
            }
        }
    }
    assert!(checked > 10, "only {checked} links found");
    for dir in PROJECT {
        for f in files_under(dir) {
            let Some(t) = text(&f) else { continue };
            for d in named_docs(&t) {
                if !root().join(&d).exists() {
                    broken.push(format!("{}: names {d}", rel(&f)));
                }
            }
        }
    }
    assert!(!root().join("DEVELOPERS.md").exists(), "DEVELOPERS.md is replaced by CONTRIBUTING.md");
    assert!(broken.is_empty(), "links to files that do not exist:\n{}", broken.join("\n"));
}

/// The backquoted spans of a Markdown text that name a source file: no spaces or patterns, a
/// folder separator or not, and an ending of the project's sources (`.rs`, `.mjs`, `.js`, `.ts`,
/// `.py`, `.sh`, `.toml`, `.html`, `.css`).
fn source_paths(t: &str) -> Vec<String> {
    const ENDINGS: &[&str] = &[".rs", ".mjs", ".js", ".ts", ".py", ".sh", ".toml", ".html", ".css"];
    let mut out = Vec::new();
    let mut fenced = false;
    for line in t.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (k, span) in line.split('`').enumerate() {
            let plain = span.chars().all(|c| c.is_alphanumeric() || "/._-".contains(c));
            if k % 2 == 1 && plain && !span.starts_with('.') && ENDINGS.iter().any(|e| span.ends_with(e)) {
                out.push(span.to_string());
            }
        }
    }
    out
}

#[test]
fn source_path_parsing() {
    let t = "See `crates/server/src/ws.rs`, `ws.rs` and `a b.rs`, not `*.rs`, `x.rs::f` nor\n\
             ```\n`fenced.rs`\n```\nnor `.config/nextest.toml`.";
    assert_eq!(source_paths(t), ["crates/server/src/ws.rs", "ws.rs"]);
}

/// Every source file the documents name in backquotes exists: a whole path from the root (or
/// from where the document stands), or the tail of a file's path (`game/madiao.rs`, `ws.rs`).
#[test]
fn every_backquoted_source_path_in_the_documents_exists() {
    let mut all: Vec<String> = Vec::new();
    for dir in PROJECT.iter().copied().chain(["test.sh", "Cargo.toml", "python", "examples"]) {
        all.extend(files_under(dir).iter().map(|p| rel(p)));
    }
    let mut docs = files_under("CONTRIBUTING.md");
    docs.extend(files_under("docs").into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")));
    let (mut checked, mut missing) = (0, Vec::new());
    for d in &docs {
        let t = fs::read_to_string(d).unwrap();
        for path in source_paths(&t) {
            checked += 1;
            let here = d.parent().unwrap().join(&path);
            // A path outside the repository (`/tmp/…`) is not there for a reader of a clone.
            let found = !path.starts_with('/')
                && (here.exists()
                    || root().join(&path).exists()
                    || all.iter().any(|f| f.ends_with(&format!("/{path}"))));
            if !found {
                missing.push(format!("{}: `{path}`", rel(d)));
            }
        }
    }
    assert!(checked > 20, "only {checked} source paths found");
    assert!(
        missing.is_empty(),
        "source paths named in the documents that do not exist:\n{}",
        missing.join("\n")
    );
}

/// The workspace crates each crate depends on (normal and build dependencies), from
/// `cargo metadata`.
fn crate_graph_from_cargo() -> BTreeSet<(String, String)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root())
        .output()
        .expect("run cargo metadata");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON");
    let packages = v["packages"].as_array().expect("packages");
    let members: BTreeSet<String> =
        packages.iter().filter_map(|p| p["name"].as_str().map(str::to_string)).collect();
    let mut edges = BTreeSet::new();
    for p in packages {
        let name = p["name"].as_str().unwrap_or_default().to_string();
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let dep = d["name"].as_str().unwrap_or_default();
            if d["kind"].as_str() != Some("dev") && members.contains(dep) && dep != name {
                edges.insert((name.clone(), dep.to_string()));
            }
        }
        edges.insert((name.clone(), name));
    }
    edges
}

/// The crate graph CONTRIBUTING.md draws: the `text` block after "The crates depend", one line a
/// crate, `crate → dep, dep`; each crate also as `(crate, crate)`, so that a crate without
/// dependencies is named too.
fn crate_graph_from_contributing() -> BTreeSet<(String, String)> {
    let doc = fs::read_to_string(root().join("CONTRIBUTING.md")).unwrap();
    let at = doc.find("The crates depend").expect("CONTRIBUTING.md draws the crate graph");
    let block = &doc[at..];
    let start = block.find("```text\n").expect("a text block") + "```text\n".len();
    let end = block[start..].find("```").expect("the end of the block") + start;
    let mut edges = BTreeSet::new();
    for line in block[start..end].lines().filter(|l| !l.trim().is_empty()) {
        let (name, deps) = line.split_once('→').unwrap_or((line, ""));
        let name = name.trim().to_string();
        edges.insert((name.clone(), name.clone()));
        for dep in deps.split(',').map(str::trim).filter(|d| !d.is_empty()) {
            edges.insert((name.clone(), dep.to_string()));
        }
    }
    edges
}

#[test]
fn contributing_draws_the_crate_graph_cargo_has() {
    let cargo = crate_graph_from_cargo();
    let drawn = crate_graph_from_contributing();
    let only_cargo: Vec<_> = cargo.difference(&drawn).collect();
    let only_drawn: Vec<_> = drawn.difference(&cargo).collect();
    assert!(cargo.len() > 20, "cargo metadata gave only {} edges", cargo.len());
    assert!(
        only_cargo.is_empty() && only_drawn.is_empty(),
        "CONTRIBUTING.md's crate graph differs from cargo metadata: missing {only_cargo:?}, not in Cargo.toml {only_drawn:?}"
    );
}
