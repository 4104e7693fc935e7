//! Shared helpers for the format tests: the reference fixtures and float comparison.
#![allow(dead_code)]

use std::path::PathBuf;

pub const FIXTURES: [&str; 5] = ["basic", "full", "full_emitters", "full_v2", "full_v1"];

/// The reference fixtures (maps written by other tools), kept in `pbm/tests/fixtures/`.
pub fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn fixture_bytes(name: &str) -> Vec<u8> {
    let path = fixture_dir().join(format!("{name}.pbm"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()))
}

pub fn expected(name: &str) -> serde_json::Value {
    let path = fixture_dir().join(format!("{name}.expected.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON in {}: {e}", path.display()))
}

/// Relative tolerance 1e-5 (floats of the reference come from C libm), with an
/// absolute floor for values near zero.
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-5 * a.abs().max(b.abs()) + 1e-6
}

pub fn assert_close(what: &str, ours: f64, theirs: &serde_json::Value) {
    let theirs = theirs
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: expected a number, got {theirs}"));
    assert!(
        close(ours, theirs),
        "{what}: ours {ours}, reference {theirs}"
    );
}

pub fn assert_vec3(what: &str, ours: [f32; 3], theirs: &serde_json::Value) {
    for k in 0..3 {
        assert_close(&format!("{what}[{k}]"), f64::from(ours[k]), &theirs[k]);
    }
}

pub fn hex64(v: u64) -> String {
    format!("{v:016x}")
}
