//! `pebble deploy`: a map and the bundled runtime land in `PSP/GAME/<NAME>/` of a
//! folder target with a manifest; deploying again writes nothing; a missing target
//! and a broken map are clear errors; `--list` runs.

use std::path::{Path, PathBuf};
use std::process::Command;

fn pebble() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pebble"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/fixtures/pbm")
        .join(name)
}

fn tempdir(label: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("pebble-deploy-cli-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates a temporary folder");
    dir
}

#[test]
fn deploys_a_map_with_the_bundled_runtime_then_skips_it() {
    let stick = tempdir("stick");
    let out = pebble()
        .arg("deploy")
        .arg(fixture("full.pbm"))
        .arg("--to")
        .arg(&stick)
        .output()
        .expect("runs pebble deploy");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("EBOOT.PBP, map.pbm written"), "{text}");
    let game = stick.join("PSP/GAME/PEBBLE");
    let bundled =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/psp/EBOOT.PBP"))
            .expect("bundle");
    assert_eq!(
        std::fs::read(game.join("EBOOT.PBP")).expect("runtime"),
        bundled
    );
    assert_eq!(
        std::fs::read(game.join("map.pbm")).expect("map"),
        std::fs::read(fixture("full.pbm")).expect("fixture")
    );
    let manifest: serde_json::Value = serde_json::from_slice(
        &std::fs::read(game.join("pebble_manifest.json")).expect("manifest"),
    )
    .expect("JSON");
    assert_eq!(manifest["map_fnv1a64"], "0cb4c878efd19045");
    let out = pebble()
        .arg("deploy")
        .arg(fixture("full.pbm"))
        .args(["--name", "PEBBLE", "--to"])
        .arg(&stick)
        .output()
        .expect("runs pebble deploy");
    assert!(String::from_utf8_lossy(&out.stdout).contains("nothing written (0 B), 2 unchanged"));
}

#[test]
fn missing_targets_and_broken_maps_are_clear_errors() {
    let dir = tempdir("errors");
    let out = pebble()
        .arg("deploy")
        .arg(fixture("full.pbm"))
        .arg("--to")
        .arg(dir.join("unplugged"))
        .output()
        .expect("runs pebble deploy");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is the PSP connected"));
    let broken = dir.join("broken.pbm");
    std::fs::write(
        &broken,
        &std::fs::read(fixture("basic.pbm")).expect("fixture")[..100],
    )
    .expect("writes");
    let out = pebble()
        .arg("deploy")
        .arg(&broken)
        .arg("--to")
        .arg(&dir)
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.pbm"));
    assert!(!dir.join("PSP").exists(), "nothing deployed");
    let out = pebble().args(["deploy", "--list"]).output().expect("runs");
    assert!(out.status.success());
}
