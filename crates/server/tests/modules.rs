//! The server's layers, read from its source: the modules import one another one way, down the
//! layers CONTRIBUTING.md draws (`api, ws → tables → cluster → store → rules`), with no import
//! cycle, and nothing below the API reaches the crate root (`App`); and no crate of the workspace
//! has an import cycle at all.
//!
//! A module's imports are the `crate::…` and `super::…` paths of its file (comments, strings and
//! `#[cfg(test)]` modules left out), each taken to the longest module it names. The crate root
//! (`lib.rs`, which wires the layers into `App`) is left out of the graph; the second test checks
//! that the lower layers do not name it at all.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module's path within the crate (`[]` is the root, `["tables", "task"]` is `tables/task.rs`).
type Module = Vec<String>;

/// Every `.rs` file below `dir`, by module.
fn read_modules(dir: &Path) -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read src/") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(dir).expect("below src/").with_extension("");
                let mut module: Module = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    module.pop();
                }
                out.insert(module, std::fs::read_to_string(&path).expect("read a source file"));
            }
        }
    }
    out
}

/// The code of a file without its comments, the contents of its strings and characters, and its
/// `#[cfg(test)]` items.
fn code_of(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        if c[i] == '/' && c.get(i + 1).copied() == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && c.get(i + 1).copied() == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1).copied() == Some('*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1).copied() == Some('/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (c.get(i + 1).copied() == Some('"') || c.get(i + 1).copied() == Some('#'))
            && !ident_before(&c, i)
        {
            let mut hashes = 0;
            let mut j = i + 1;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            while j < c.len() && !(c[j] == '"' && (1..=hashes).all(|h| c.get(j + h) == Some(&'#'))) {
                j += 1;
            }
            i = j + 1 + hashes;
            out.push_str("\"\"");
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && c.get(i + 1).copied() == Some('\\') {
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c[i] == '\'' && c.get(i + 2).copied() == Some('\'') {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    without_test_items(&out)
}

fn ident_before(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

/// `code` without the items under `#[cfg(test)]` (a test module may import what it likes).
fn without_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let Some(open) = after.find(['{', ';']) else { return out };
        if after.as_bytes()[open] == b';' {
            rest = &after[open + 1..];
            continue;
        }
        let mut depth = 0;
        let mut end = after.len();
        for (k, ch) in after[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The paths of `body` (what follows `crate::` or `super::`, a group `{a, b::{c, d}}` or a path
/// `a::b::C`), each as its segments after `prefix`.
fn paths_in(prefix: &[String], body: &str) -> Vec<Vec<String>> {
    let body = body.trim_start();
    if let Some(group) = body.strip_prefix('{') {
        let mut depth = 1;
        let mut end = group.len();
        for (k, ch) in group.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        let inner = &group[..end];
        let mut items = Vec::new();
        let (mut depth, mut start) = (0, 0);
        for (k, ch) in inner.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&inner[start..k]);
                    start = k + 1;
                }
                _ => {}
            }
        }
        items.push(&inner[start..]);
        return items
            .into_iter()
            .filter(|item| !item.trim().is_empty())
            .flat_map(|item| {
                let item = item.trim();
                let (head, tail) = match item.find("::{") {
                    Some(k) => (&item[..k], Some(&item[k + 2..])),
                    None => (item, None),
                };
                let mut p = prefix.to_vec();
                p.extend(head.split("::").map(|s| s.split_whitespace().next().unwrap_or("").to_string()));
                match tail {
                    Some(t) => paths_in(&p, t),
                    None => vec![p],
                }
            })
            .collect();
    }
    let mut p = prefix.to_vec();
    let mut rest = body;
    loop {
        let len = rest.find(|ch: char| !(ch.is_alphanumeric() || ch == '_')).unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        p.push(rest[..len].to_string());
        match rest[len..].strip_prefix("::") {
            Some(r) if r.starts_with('{') => return paths_in(&p, r),
            Some(r) => rest = r,
            None => break,
        }
    }
    vec![p]
}

/// Every path a module's code names from the crate's root, as segments.
fn named_paths(module: &Module, code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // `super` of `a/b.rs` is `a`; of `a/mod.rs` (module `a`), the root.
    let parent = module[..module.len().saturating_sub(1)].to_vec();
    for (kw, base) in [("crate::", Vec::new()), ("super::", parent)] {
        let mut from = 0;
        while let Some(k) = code[from..].find(kw) {
            let at = from + k;
            from = at + kw.len();
            let before = code[..at].chars().next_back();
            if before.is_some_and(|ch| ch.is_alphanumeric() || ch == '_' || ch == ':') {
                continue;
            }
            out.extend(paths_in(&base, &code[from..]));
        }
    }
    out
}

/// The longest module of `modules` that `path` lies in (`None`: the root).
fn module_of(modules: &BTreeSet<Module>, path: &[String]) -> Option<Module> {
    (1..=path.len()).rev().map(|k| path[..k].to_vec()).find(|m| modules.contains(m))
}

/// Which modules each module imports (the root left out).
fn import_graph(files: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let modules: BTreeSet<Module> = files.keys().filter(|m| !m.is_empty()).cloned().collect();
    let mut graph = BTreeMap::new();
    for (m, text) in files {
        if m.is_empty() {
            continue;
        }
        let code = code_of(text);
        let edges: BTreeSet<Module> = named_paths(m, &code)
            .iter()
            .filter_map(|p| module_of(&modules, p))
            .filter(|to| to != m)
            .collect();
        graph.insert(m.clone(), edges);
    }
    graph
}

/// The import cycles of a graph (its strongly connected parts of more than one module), each
/// sorted.
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    // Tarjan's algorithm, iterative.
    let names: Vec<&Module> = graph.keys().collect();
    let index_of: BTreeMap<&Module, usize> = names.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let n = names.len();
    let adj: Vec<Vec<usize>> =
        names.iter().map(|m| graph[*m].iter().filter_map(|t| index_of.get(t).copied()).collect()).collect();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut found, mut counter) = (Vec::new(), Vec::new(), 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some((v, next)) = work.pop() {
            if next == 0 {
                index[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = adj[v].get(next) {
                work.push((v, next + 1));
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut part = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    part.push(names[w].clone());
                    if w == v {
                        break;
                    }
                }
                if part.len() > 1 {
                    part.sort();
                    found.push(part);
                }
            }
        }
    }
    found
}

fn show(m: &Module) -> String {
    m.join("/")
}

fn server_files() -> BTreeMap<Module, String> {
    read_modules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn the_server_modules_import_one_another_without_a_cycle() {
    let graph = import_graph(&server_files());
    assert!(graph.len() > 20, "the server's modules were not all read: {:?}", graph.keys());
    let found = cycles(&graph);
    let shown: Vec<String> =
        found.iter().map(|c| c.iter().map(show).collect::<Vec<_>>().join(" ↔ ")).collect();
    assert!(found.is_empty(), "import cycles among the server's modules:\n{}", shown.join("\n"));
}

/// The `src/` folders of the workspace's crates (`crates/*/src`) whose folder name `keep` keeps,
/// in order.
fn crate_srcs(keep: impl Fn(&str) -> bool) -> Vec<std::path::PathBuf> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates");
    let mut srcs: Vec<_> = std::fs::read_dir(crates)
        .expect("read crates/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.file_name().is_some_and(|n| keep(&n.to_string_lossy())))
        .map(|p| p.join("src"))
        .filter(|p| p.is_dir())
        .collect();
    srcs.sort();
    srcs
}

/// Every crate of the workspace (`crates/*/src`) and the Python bindings (`python/src`): no module
/// imports one that imports it back (issue 30: the server's layers above are one case of it).
#[test]
fn no_module_of_any_crate_imports_one_that_imports_it_back() {
    let mut srcs = crate_srcs(|_| true);
    srcs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/src"));
    assert!(srcs.len() >= 10, "the crates were not all found: {srcs:?}");
    let mut problems = Vec::new();
    for src in &srcs {
        let graph = import_graph(&read_modules(src));
        for c in cycles(&graph) {
            problems.push(format!(
                "{}: {}",
                src.display(),
                c.iter().map(show).collect::<Vec<_>>().join(" ↔ ")
            ));
        }
    }
    assert!(problems.is_empty(), "import cycles:\n{}", problems.join("\n"));
}

/// The library crates of the workspace (`crates/*` but the `yezi` binary, whose command-line
/// output is its own) and the Python bindings (`python/src`) log through `tracing` or give what
/// happened back to their caller, never print to standard error (which bypasses the log's levels
/// and its JSON format); and return typed errors, not `Result<_, String>` (issue 30). Comments,
/// strings and tests are left out.
#[test]
fn the_libraries_neither_print_to_standard_error_nor_return_string_errors() {
    let mut srcs = crate_srcs(|name| name != "yezi");
    srcs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/src"));
    assert!(srcs.len() >= 10 && srcs.iter().all(|s| s.is_dir()), "the crates were not all found: {srcs:?}");
    let mut problems = Vec::new();
    for src in &srcs {
        for (module, text) in read_modules(src) {
            let code = code_of(text.as_str());
            let flat: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
            let place = format!("{}: {}", src.display(), show(&module));
            if flat.contains("eprintln!") || flat.contains("eprint!") {
                problems.push(format!("{place}: prints to standard error"));
            }
            let mut rest = flat.as_str();
            while let Some(at) = rest.find(", String>") {
                let before = &rest[..at];
                let open = before.rfind("Result<").map(|i| &before[i + "Result<".len()..]);
                if open.is_some_and(|inside| !inside.contains(['<', '>'])) {
                    problems.push(format!("{place}: returns Result<_, String>"));
                }
                rest = &rest[at + 1..];
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The server's layers as CONTRIBUTING.md draws them: the `text` block after "Imports run one
/// way", one line a layer from the top, each the top modules of `src/` in it (comma-separated).
/// The layer of a module is its line counted from the bottom (0: the rules).
fn layers() -> BTreeMap<String, usize> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../CONTRIBUTING.md");
    let doc = std::fs::read_to_string(&path).expect("read CONTRIBUTING.md");
    let at = doc.find("Imports run one way").expect("CONTRIBUTING.md draws the server's layers");
    let block = &doc[at..];
    let start = block.find("```text\n").expect("a text block of the layers") + "```text\n".len();
    let end = block[start..].find("```").expect("the end of the block") + start;
    let lines: Vec<&str> = block[start..end].lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out = BTreeMap::new();
    for (k, line) in lines.iter().enumerate() {
        for name in line.split(',') {
            let prev = out.insert(name.trim().to_string(), lines.len() - 1 - k);
            assert!(prev.is_none(), "CONTRIBUTING.md puts {} in two layers", name.trim());
        }
    }
    out
}

#[test]
fn contributing_draws_every_module_in_one_layer() {
    let layers = layers();
    let tops: BTreeSet<String> = server_files().keys().filter_map(|m| m.first().cloned()).collect();
    let drawn: BTreeSet<String> = layers.keys().cloned().collect();
    assert_eq!(drawn, tops, "the layers in CONTRIBUTING.md and the modules of src/");
}

#[test]
fn imports_run_down_the_layers_and_below_the_api_nothing_names_the_app() {
    let files = server_files();
    let graph = import_graph(&files);
    let layers = layers();
    let layer = |m: &Module| m.first().and_then(|top| layers.get(top)).copied().unwrap_or(usize::MAX);
    let top = layers.values().copied().max().unwrap_or(0);
    let mut wrong = Vec::new();
    for (from, tos) in &graph {
        for to in tos {
            if layer(to) > layer(from) {
                wrong.push(format!(
                    "{} (layer {}) imports {} (layer {})",
                    show(from),
                    layer(from),
                    show(to),
                    layer(to)
                ));
            }
        }
    }
    let modules: BTreeSet<Module> = files.keys().filter(|m| !m.is_empty()).cloned().collect();
    for (m, text) in &files {
        if m.is_empty() || layer(m) >= top {
            continue;
        }
        for p in named_paths(m, &code_of(text)) {
            if module_of(&modules, &p).is_none() {
                wrong.push(format!("{} names the crate root: {}", show(m), p.join("::")));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers:\n{}", wrong.join("\n"));
}

/// The checks above can fail: a cycle of two files is found and named, an import through a
/// group or `super` counts, and comments, strings and test modules do not.
#[test]
fn a_cycle_is_found_and_named() {
    let files: BTreeMap<Module, String> = [
        (vec![], "pub mod a; pub mod b; pub mod c;"),
        (
            vec!["a".to_string()],
            "use crate::{b::{Thing, other}, ids};\n// crate::c::Nothing\nconst S: &str = \"crate::c::X\";",
        ),
        (vec!["b".to_string()], "pub fn f() { super::a::g() }\n#[cfg(test)]\nmod tests { use crate::c::X; }"),
        (vec!["c".to_string()], "pub struct X; fn h() { let _ = 'x'; crate::App::new(); }"),
    ]
    .into_iter()
    .map(|(m, t)| (m, t.to_string()))
    .collect();
    let graph = import_graph(&files);
    assert_eq!(graph[&vec!["a".to_string()]], BTreeSet::from([vec!["b".to_string()]]));
    assert_eq!(graph[&vec!["b".to_string()]], BTreeSet::from([vec!["a".to_string()]]));
    assert!(graph[&vec!["c".to_string()]].is_empty());
    assert_eq!(cycles(&graph), vec![vec![vec!["a".to_string()], vec!["b".to_string()]]]);
}
