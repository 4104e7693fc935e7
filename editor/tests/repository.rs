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
#[test]
fn architecture_names_every_source_file() {
    let root = root();
    let architecture =
        std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut all = Vec::new();
    for package in ["pbm", "model", "io", "play", "render", "editor"] {
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
        let mut parts = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned());
        let _package = parts.next();
        let _src = parts.next();
        let inside: Vec<String> = parts.collect();
        let named = if inside.first().map(String::as_str) == Some("app") {
            let name = inside.last().expect("a file name");
            names_word(&architecture, name)
        } else {
            architecture.contains(&inside.join("/"))
        };
        if !named {
            missing.push(rel.display().to_string());
        }
    }
    assert!(all.len() > 150, "{} files read", all.len());
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name: {missing:#?}"
    );
}

/// Whether `name` stands in `text` as a word of its own (not inside a longer name).
fn names_word(text: &str, name: &str) -> bool {
    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(name).any(|(at, _)| {
        !part(text[..at].chars().next_back()) && !part(text[at + name.len()..].chars().next())
    })
}

/// With `autotests = false`, a test file that is neither a module of `suite.rs` nor a
/// `[[test]]` of its own would never run: every one is one or the other.
#[test]
fn every_editor_test_file_runs() {
    let tests = root().join("editor/tests");
    let suite = std::fs::read_to_string(tests.join("suite.rs")).expect("suite.rs");
    let manifest = std::fs::read_to_string(root().join("editor/Cargo.toml")).expect("Cargo.toml");
    let mut lost = Vec::new();
    let mut count = 0;
    for e in std::fs::read_dir(&tests).expect("editor/tests").flatten() {
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
        "each test file is a `mod` line in editor/tests/suite.rs or a [[test]] in editor/Cargo.toml, not both: {lost:?}"
    );
}
