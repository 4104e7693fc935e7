//! The repository stands alone: a fresh clone has nothing beside it, so no file
//! in it (code, tests, scripts, docs) may point outside it, and none names a
//! package registry's host (mirrors come from the machine's own configuration).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the repository")
        .to_path_buf()
}

/// Every text file of the repository, less build outputs, installed packages and
/// the lock files cargo writes itself (their `source` lines are cargo's, not ours).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), ".git" | "target" | "node_modules") {
                files(&path, out);
            }
        } else if name != "Cargo.lock" {
            out.push(path);
        }
    }
}

#[test]
fn nothing_points_outside_the_repository_or_names_a_registry_host() {
    // Spelt in pieces, so that this file does not match itself.
    let outside = [
        ["..", "/shared"].concat(),
        ["shared", "/fixtures"].concat(),
        ["shared", "/docs"].concat(),
        ["shared", "/seeds"].concat(),
    ];
    let hosts = [
        ["deb.", "debian.org"].concat(),
        ["security.", "debian.org"].concat(),
        ["crates", ".io"].concat(),
        ["registry.", "npmjs.org"].concat(),
        ["pypi", ".org"].concat(),
        ["files.", "pythonhosted", ".org"].concat(),
    ];
    let mut all = Vec::new();
    files(&root(), &mut all);
    assert!(all.len() > 100, "walked {} files", all.len());
    let mut found = Vec::new();
    for path in &all {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue; // binary
        };
        let rel = path
            .strip_prefix(root())
            .unwrap_or(path)
            .display()
            .to_string();
        for needle in outside.iter().chain(&hosts) {
            if let Some(line) = text.lines().position(|l| l.contains(needle.as_str())) {
                found.push(format!("{rel}:{}: {needle}", line + 1));
            }
        }
    }
    assert!(found.is_empty(), "found:\n{}", found.join("\n"));
}

/// ARCHITECTURE.md names every source file: the editor window's by name in its
/// tree, the others by their path inside their package's `src/`.
/// Every source path ARCHITECTURE.md's file lists name, whole: each list is a
/// code block under a `` `crate/src/` `` line (the editor's `app/` tree under
/// none), a name ending in `/` is a folder whose lines below (two spaces deeper)
/// are inside it, and a description's `x.rs` or `dir/x.rs` is a file beside the
/// line's own (inside a folder line's folder).
fn architecture_paths(text: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut base: Option<String> = None;
    let mut in_block = false;
    let mut stack: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            // A header names the one block after it.
            if in_block {
                base = None;
            }
            in_block = !in_block;
            stack.clear();
            continue;
        }
        if !in_block {
            if let Some(rest) = line.strip_prefix('`')
                && let Some(at) = rest.find("/src/")
                && !rest[..at].contains(' ')
            {
                base = Some(format!("{}/src/", &rest[..at]));
            } else if line.starts_with('#') {
                base = None;
            }
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let mut words = line.split_whitespace();
        let Some(token) = words.next() else { continue };
        let desc: Vec<&str> = words.collect();
        let root = match (&base, token) {
            (Some(b), _) => b.clone(),
            (None, "app/") => "editor/src/".to_owned(),
            (None, _) if stack.first().is_some_and(|d| d == "app/") => "editor/src/".to_owned(),
            _ => continue,
        };
        stack.truncate(indent / 2);
        let parent = format!("{root}{}", stack.concat());
        let here = if token.ends_with('/') {
            stack.push(token.to_owned());
            format!("{root}{}", stack.concat())
        } else {
            out.insert(format!("{parent}{token}"));
            // A file line's own folder part (`action/keys.rs`).
            match token.rfind('/') {
                Some(at) => format!("{parent}{}", &token[..=at]),
                None => parent.clone(),
            }
        };
        for word in desc {
            let word = word
                .trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '/' || c == '.'));
            let word = word.trim_end_matches('.');
            if word.ends_with(".rs") || word.ends_with(".wgsl") {
                let from = if token.ends_with('/') { &here } else { &parent };
                out.insert(format!("{from}{word}"));
            }
        }
    }
    out
}

#[test]
fn architecture_names_every_source_file() {
    let root = root();
    let architecture =
        std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let named = architecture_paths(&architecture);
    let mut all = Vec::new();
    for package in [
        "pbm", "model", "io", "play", "render", "core", "editor", "cli",
    ] {
        files(&root.join(package).join("src"), &mut all);
    }
    let mut missing = Vec::new();
    for path in &all {
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        if ext != "rs" && ext != "wgsl" {
            continue;
        }
        let rel = path.strip_prefix(&root).expect("inside");
        let rel = rel.to_string_lossy().replace('\\', "/");
        if !named.contains(&rel) {
            missing.push(rel);
        }
    }
    assert!(all.len() > 150, "{} files read", all.len());
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name these by their whole path: {missing:#?}"
    );
}

/// The reader of ARCHITECTURE.md's lists: folders nest by indentation, and a
/// bare name elsewhere does not stand for a file it does not list.
#[test]
fn the_architecture_reader_takes_whole_paths() {
    let text = "`io/src/`\n\n```\nexport/bake.rs   the bake\nlib.rs  root (start/tests.rs)\n```\n\n```\napp/\n  mod.rs   x (see bench.rs)\n  tools/\n    snap.rs  y\n  gizmo/   maths (mod.rs: handles; tests.rs)\n```\n";
    let named = architecture_paths(text);
    for want in [
        "io/src/export/bake.rs",
        "io/src/lib.rs",
        "io/src/start/tests.rs",
        "editor/src/app/mod.rs",
        "editor/src/app/bench.rs",
        "editor/src/app/tools/snap.rs",
        "editor/src/app/gizmo/mod.rs",
        "editor/src/app/gizmo/tests.rs",
    ] {
        assert!(named.contains(want), "{want}: {named:?}");
    }
    assert!(!named.contains("editor/src/app/snap.rs"), "{named:?}");
    assert!(!named.contains("io/src/bake.rs"), "{named:?}");
}

/// With `autotests = false`, a test file that is neither a module of `suite.rs` nor a
/// `[[test]]` of its own would never run: every one is one or the other.
#[test]
fn every_test_file_of_the_program_runs() {
    let tests = root().join("cli/tests");
    let suite = std::fs::read_to_string(tests.join("suite.rs")).expect("suite.rs");
    let manifest = std::fs::read_to_string(root().join("cli/Cargo.toml")).expect("Cargo.toml");
    let mut lost = Vec::new();
    let mut count = 0;
    for e in std::fs::read_dir(&tests).expect("cli/tests").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        count += 1;
        let in_suite = suite.lines().any(|l| l == format!("mod {stem};"));
        let own = manifest.contains(&format!("path = \"tests/{name}\""));
        if in_suite == own {
            lost.push(format!(
                "{name} (in suite.rs: {in_suite}, a [[test]]: {own})"
            ));
        }
    }
    assert!(count > 25, "only {count} test files found");
    assert!(
        lost.is_empty(),
        "each test file is a `mod` line in cli/tests/suite.rs or a [[test]] in cli/Cargo.toml, not both: {lost:?}"
    );
}

/// The names a manifest's normal dependencies give (its `[dependencies]` and
/// `[target.….dependencies]` tables), with whether each is optional.
fn normal_dependencies(manifest: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]"
                || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
            continue;
        }
        if !in_deps || line.starts_with('#') {
            continue;
        }
        if let Some((name, rest)) = line.split_once('=') {
            out.push((name.trim().to_owned(), rest.contains("optional = true")));
        }
    }
    out
}

/// The crates along the editor's seams import only what ARCHITECTURE.md allows:
/// the core no window, GPU or renderer; the panels and the viewport not each
/// other and not eframe; the command line no windowing crate but through its
/// optional `window` feature.
#[test]
fn each_editor_crate_depends_only_on_what_its_seam_allows() {
    let windowing = ["egui", "eframe", "winit", "egui-wgpu", "egui_tiles", "rfd"];
    let rules: [(&str, Vec<&str>); 4] = [
        (
            "core",
            [
                &windowing[..],
                &[
                    "wgpu",
                    "pebble-render",
                    "pebble-viewport",
                    "pebble-panels",
                    "pebble-editor",
                ],
            ]
            .concat(),
        ),
        (
            "panels",
            vec![
                "eframe",
                "winit",
                "wgpu",
                "pebble-render",
                "pebble-viewport",
                "pebble-editor",
            ],
        ),
        (
            "viewport",
            vec![
                "eframe",
                "winit",
                "egui_tiles",
                "pebble-panels",
                "pebble-editor",
            ],
        ),
        ("editor", vec!["pebble-cli", "clap"]),
    ];
    for (package, forbidden) in rules {
        let manifest =
            std::fs::read_to_string(root().join(package).join("Cargo.toml")).expect("the manifest");
        let deps = normal_dependencies(&manifest);
        assert!(deps.len() > 3, "{package}: read {deps:?}");
        for (name, _) in &deps {
            assert!(
                !forbidden.contains(&name.as_str()),
                "{package} depends on {name}, which its seam forbids"
            );
        }
    }
    // The command line: windowing only as optional dependencies (the `window`
    // feature), so that `--no-default-features` builds a headless pebble.
    let cli = std::fs::read_to_string(root().join("cli/Cargo.toml")).expect("the manifest");
    for (name, optional) in normal_dependencies(&cli) {
        if windowing.contains(&name.as_str())
            || name == "pebble-editor"
            || name == "pebble-viewport"
        {
            assert!(optional, "cli depends on {name} without the window feature");
        }
    }
    assert!(
        cli.contains("window = [\"dep:pebble-editor\""),
        "the window feature"
    );
}
