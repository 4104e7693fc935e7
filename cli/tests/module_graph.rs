//! The architecture as the compiler does not check it: inside each crate, the
//! files import one another in one direction, never in a circle, and never back
//! up into their own ancestor module (a parent names its children; a child naming
//! its parent is a circle in waiting). The imports are read as text (`crate::…`
//! and `super::…` paths in `use` lines and in code, `{…}` groups expanded, `pub
//! use` re-exports followed to the file that defines the item, a file's test
//! modules left out), each resolved to the file of the longest module path it
//! names; circles are the strongly connected groups of that graph. (Between the
//! crates Cargo itself refuses a circle.)
//!
//! `cargo test -p pebble-cli --test suite module_graph -- --nocapture` prints
//! the counts per crate: files, imports between them, imports of an ancestor
//! module, and the files in circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the repository")
        .to_path_buf()
}

/// The crates whose sources are checked (the PSP runtime builds apart, with its
/// own toolchain, and is checked the same way).
const CRATES: [&str; 11] = [
    "pbm", "model", "io", "play", "render", "core", "viewport", "panels", "editor", "cli", "psp",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// A file's module path inside its crate: `app/panels/mod.rs` is `app::panels`,
/// `lib.rs` and `main.rs` the root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_owned());
    }
    parts
}

/// The text of a file without its test modules (from the first `#[cfg(test)]
/// mod …` on: they end a file) and without comments.
fn code_of(text: &str) -> String {
    let cut = ["#[cfg(test)]\nmod ", "#[cfg(test)]\npub(crate) mod "]
        .iter()
        .filter_map(|m| text.find(m))
        .min()
        .unwrap_or(text.len());
    text[..cut]
        .lines()
        .map(|l| match l.find("//") {
            Some(at) => &l[..at],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths a file's code names: every `crate::a::b…` and `super::…`
/// path, a `{…}` group after one expanded into each of its members.
fn paths_named(code: &str, module: &[String], is_mod_file: bool) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let starts =
            |w: &str| bytes[i..].starts_with(w.as_bytes()) && (i == 0 || !ident(bytes[i - 1]));
        let (mut base, skip) = if starts("crate::") {
            (Vec::new(), "crate::".len())
        } else if starts("super::") {
            // `super` from `a/b.rs` (module a::b) is `a`; from `a/b/mod.rs` too.
            let mut m = module.to_vec();
            let _ = is_mod_file;
            m.pop();
            (m, "super::".len())
        } else {
            i += 1;
            continue;
        };
        let mut j = i + skip;
        // Further `super::`.
        while bytes[j..].starts_with(b"super::") {
            base.pop();
            j += "super::".len();
        }
        // Segments up to a `{` or the path's end.
        let mut segments = base.clone();
        loop {
            let start = j;
            while j < bytes.len() && ident(bytes[j]) {
                j += 1;
            }
            if j > start {
                segments.push(code[start..j].to_owned());
            }
            // A group (`a::{…}`, or `super::{…}` right after the prefix): each
            // member's leading path.
            let group_at = if bytes[j..].starts_with(b"::{") {
                Some(j + 3)
            } else if j == start && bytes[j..].starts_with(b"{") {
                Some(j + 1)
            } else {
                None
            };
            if let Some(open) = group_at {
                let mut depth = 1;
                let mut k = open;
                while k < bytes.len() && depth > 0 {
                    match bytes[k] {
                        b'{' => depth += 1,
                        b'}' => depth -= 1,
                        _ => {}
                    }
                    k += 1;
                }
                // An unclosed group (a `use` read line by line) ends at the text's end.
                let end = if depth == 0 { k - 1 } else { k };
                let inner = code.get(open..end).unwrap_or("");
                let mut level = 0;
                let mut member = String::new();
                for c in inner.chars().chain(std::iter::once(',')) {
                    match c {
                        '{' => {
                            level += 1;
                            member.push(c);
                        }
                        '}' => {
                            level -= 1;
                            member.push(c);
                        }
                        // (A trailing comma leaves an empty member: nothing named.)
                        ',' if level == 0 && member.trim().is_empty() => member.clear(),
                        ',' if level == 0 => {
                            let m = member.trim();
                            let head: Vec<String> = m
                                .split("::")
                                .map(|s| {
                                    s.chars()
                                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                                        .collect::<String>()
                                })
                                .take_while(|s| !s.is_empty())
                                .collect();
                            let mut path = segments.clone();
                            path.extend(head);
                            out.push(path);
                            member.clear();
                        }
                        _ => member.push(c),
                    }
                }
                j = k;
                break;
            }
            if bytes[j..].starts_with(b"::") {
                j += 2;
                continue;
            }
            out.push(segments);
            break;
        }
        i = j.max(i + 1);
    }
    out
}

/// One crate's graph: file → the files it imports.
struct Graph {
    files: Vec<String>,
    edges: BTreeMap<usize, BTreeSet<usize>>,
    /// Imports of an ancestor module's file (importer, imported).
    back_up: Vec<(usize, usize)>,
}

fn graph_of(src: &Path) -> Graph {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    // A crate with a library and a binary: the binary's `main.rs` is a crate of
    // its own, which names the library by its name, not by `crate::`.
    if src.join("lib.rs").is_file() {
        paths.retain(|p| p != &src.join("main.rs"));
    }
    paths.sort();
    let modules: Vec<(Vec<String>, bool, String)> = paths
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(src).expect("inside");
            let is_mod = rel.file_name().is_some_and(|n| n == "mod.rs");
            (module_of(rel), is_mod, rel.to_string_lossy().into_owned())
        })
        .collect();
    let by_module: BTreeMap<&[String], usize> = modules
        .iter()
        .enumerate()
        .map(|(k, (m, _, _))| (m.as_slice(), k))
        .collect();
    let codes: Vec<String> = paths
        .iter()
        .map(|p| code_of(&std::fs::read_to_string(p).unwrap_or_default()))
        .collect();
    // Re-exports: `pub use a::B;` in module m makes `m::B` the item of `m::a`.
    let mut reexports: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    for (k, code) in codes.iter().enumerate() {
        let (module, _, _) = &modules[k];
        // Each `pub use …;` statement, over as many lines as it takes.
        let statements = ["pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .flat_map(|prefix| {
                code.match_indices(prefix).map(move |(at, _)| {
                    let start = at + prefix.len();
                    let end = code[start..].find(';').map_or(code.len(), |e| start + e);
                    code[start..end]
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                })
            })
            .collect::<Vec<String>>();
        for rest in &statements {
            let rest = rest
                .replace("{ ", "{")
                .replace(" }", "}")
                .replace(",}", "}");
            let rest = rest.strip_prefix("crate::").map_or_else(
                || {
                    let mut m = module.join("::");
                    if !m.is_empty() {
                        m.push_str("::");
                    }
                    format!("{m}{rest}")
                },
                str::to_owned,
            );
            for named in paths_named(&format!("crate::{rest}"), module, false) {
                if let Some(item) = named.last() {
                    let mut at = module.clone();
                    at.push(item.clone());
                    reexports.insert(at, named.clone());
                }
            }
        }
    }
    let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    let mut back_up = Vec::new();
    for (k, code) in codes.iter().enumerate() {
        let (module, is_mod, _) = &modules[k];
        for named in paths_named(code, module, *is_mod) {
            // An item re-exported by a parent module is its defining module's.
            let named = (1..=named.len())
                .rev()
                .find_map(|n| {
                    reexports.get(&named[..n]).map(|to| {
                        let mut p = to.clone();
                        p.extend_from_slice(&named[n..]);
                        p
                    })
                })
                .unwrap_or(named);
            // The longest prefix that is a file of the crate.
            let target = (0..=named.len())
                .rev()
                .find_map(|n| by_module.get(&named[..n]).copied());
            let Some(t) = target else { continue };
            if t == k {
                continue;
            }
            // A file's tests (`x/tests.rs`, `x/tests/…`) are the file's own: they
            // read what they test.
            let is_test = modules[k].0.iter().any(|m| m == "tests");
            if edges.entry(k).or_default().insert(t)
                && module.starts_with(&modules[t].0)
                && !is_test
            {
                back_up.push((k, t));
            }
        }
    }
    Graph {
        files: modules.into_iter().map(|(_, _, rel)| rel).collect(),
        edges,
        back_up,
    }
}

/// The strongly connected groups of more than one file (Tarjan's algorithm).
fn circles(g: &Graph) -> Vec<Vec<String>> {
    struct State<'a> {
        g: &'a Graph,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on[v] = true;
        let targets: Vec<usize> = s.g.edges.get(&v).into_iter().flatten().copied().collect();
        for w in targets {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on[w] = false;
                group.push(s.g.files[w].clone());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.out.push(group);
            }
        }
    }
    let n = g.files.len();
    let mut s = State {
        g,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn the_reader_resolves_groups_supers_and_item_paths() {
    let module = vec!["app".to_owned(), "panels".to_owned(), "outliner".to_owned()];
    let code = "use crate::app::{action::{Action, menu_text}, files};\nuse super::Pane;\nuse super::{Intent, thumbnails::Thumbnails,\n};\nlet x = crate::services::export::to_bytes(a);";
    let named = paths_named(code, &module, false);
    assert!(
        named.contains(&vec!["app".into(), "action".into()]),
        "{named:?}"
    );
    assert!(
        named.contains(&vec!["app".into(), "files".into()]),
        "{named:?}"
    );
    assert!(
        named.contains(&vec!["app".into(), "panels".into(), "Pane".into()]),
        "{named:?}"
    );
    assert!(
        named.contains(&vec!["services".into(), "export".into(), "to_bytes".into()]),
        "{named:?}"
    );
    // A group right after `super::` names each member, not the parent alone.
    assert!(
        named.contains(&vec!["app".into(), "panels".into(), "Intent".into()]),
        "{named:?}"
    );
    assert!(
        named.contains(&vec![
            "app".into(),
            "panels".into(),
            "thumbnails".into(),
            "Thumbnails".into()
        ]),
        "{named:?}"
    );
    assert!(
        !named.contains(&vec!["app".into(), "panels".into()]),
        "{named:?}"
    );
}

#[test]
fn a_circle_of_three_is_found_and_a_chain_is_not() {
    let g = |edges: &[(usize, usize)]| Graph {
        files: ["a.rs", "b.rs", "c.rs", "d.rs"].map(str::to_owned).to_vec(),
        edges: edges.iter().fold(BTreeMap::new(), |mut m, (a, b)| {
            m.entry(*a).or_insert_with(BTreeSet::new).insert(*b);
            m
        }),
        back_up: Vec::new(),
    };
    assert!(circles(&g(&[(0, 1), (1, 2), (2, 3)])).is_empty());
    assert_eq!(
        circles(&g(&[(0, 1), (1, 2), (2, 0), (2, 3)])),
        [["a.rs", "b.rs", "c.rs"].map(str::to_owned).to_vec()]
    );
}

#[test]
fn no_crate_s_files_import_one_another_in_a_circle_or_back_up() {
    let mut found = Vec::new();
    for name in CRATES {
        let src = root().join(name).join("src");
        let g = graph_of(&src);
        let imports: usize = g.edges.values().map(BTreeSet::len).sum();
        let circles = circles(&g);
        let in_circles: usize = circles.iter().map(Vec::len).sum();
        println!(
            "{name:<7} {:>4} files {:>5} imports {:>4} of an ancestor {:>3} circles ({in_circles} files)",
            g.files.len(),
            imports,
            g.back_up.len(),
            circles.len()
        );
        // An import back up (a file naming its own ancestor module's file) is a
        // circle waiting to happen: the parent names its children.
        for (from, to) in &g.back_up {
            found.push(format!(
                "{name}: {} imports {}, its own ancestor",
                g.files[*from], g.files[*to]
            ));
        }
        assert!(g.files.len() > 5 && imports > 0, "{name}: read nothing");
        for c in circles {
            // The imports inside the circle, to say where to cut it.
            let mut ties = Vec::new();
            for a in &c {
                let Some(i) = g.files.iter().position(|x| x == a) else {
                    continue;
                };
                for t in g.edges.get(&i).into_iter().flatten() {
                    if c.contains(&g.files[*t]) {
                        ties.push(format!("{a} → {}", g.files[*t]));
                    }
                }
            }
            found.push(format!(
                "{name}: {}\n    {}",
                c.join(" ↔ "),
                ties.join("; ")
            ));
        }
    }
    assert!(
        found.is_empty(),
        "files importing one another:\n{}",
        found.join("\n")
    );
}
