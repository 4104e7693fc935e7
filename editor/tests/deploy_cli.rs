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

/// PSPLink: the files go to the usbhostfs folder, then `pspsh -e reset` and
/// `pspsh -e ./PSP/GAME/PEBBLE/EBOOT.PBP` run (a stand-in pspsh records them); a
/// failing pspsh and a missing one are clear errors.
#[cfg(unix)]
#[test]
fn psplink_resets_and_runs_the_deployed_runtime() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempdir("psplink");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let log = dir.join("pspsh.log");
    let fake = bin.join("pspsh");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\n[ -e '{}' ] && exit 3\nexit 0\n",
            log.display(),
            dir.join("fail").display()
        ),
    )
    .expect("writes the stand-in");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let host = dir.join("host");
    std::fs::create_dir_all(&host).expect("mkdir");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |path: &str| {
        pebble()
            .env("PATH", path)
            .arg("deploy")
            .arg(fixture("full.pbm"))
            .arg("--psplink")
            .arg("--to")
            .arg(&host)
            .output()
            .expect("runs pebble deploy")
    };
    let out = run(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("started through PSPLink"));
    assert_eq!(
        std::fs::read_to_string(&log).expect("pspsh ran"),
        "-e reset\n-e ./PSP/GAME/PEBBLE/EBOOT.PBP\n"
    );
    assert!(host.join("PSP/GAME/PEBBLE/map.pbm").is_file());
    std::fs::write(dir.join("fail"), b"").expect("make pspsh fail");
    let out = run(&path);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("pspsh -e reset` failed"));
    let out = run("/nonexistent");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("pspsh is not on PATH"));
}
