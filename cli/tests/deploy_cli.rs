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
        .join("../pbm/tests/fixtures")
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
    // The one-option spelling.
    std::fs::remove_file(dir.join("fail")).expect("pspsh works again");
    let out = pebble()
        .env("PATH", &path)
        .arg("deploy")
        .arg(fixture("basic.pbm"))
        .arg("--psplink-root")
        .arg(&host)
        .output()
        .expect("runs pebble deploy");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        std::fs::read_to_string(&log)
            .expect("log")
            .ends_with("-e reset\n-e ./PSP/GAME/PEBBLE/EBOOT.PBP\n")
    );
}

/// `pebble capture import`: captures and sidecars from a deployed folder land in
/// the project's `captures/`, again is a no-op, a different capture under a taken
/// name gets a suffix; one BMP with a pose given by hand gets a sidecar.
#[test]
fn captures_come_into_the_project() {
    let dir = tempdir("import");
    let project = dir.join("p/level.pebble.ron");
    std::fs::create_dir_all(project.parent().expect("dir")).expect("mkdir");
    std::fs::write(&project, "").expect("a project file");
    let caps = dir.join("stick/PSP/GAME/PEBBLE/captures");
    std::fs::create_dir_all(&caps).expect("mkdir");
    image::RgbImage::from_pixel(4, 4, image::Rgb([9, 9, 9]))
        .save(caps.join("capture_000.bmp"))
        .expect("bmp");
    std::fs::write(
        caps.join("capture_000.json"),
        r#"{"position":[0,0,0],"yaw":0,"pitch":0,"fov":65,"time":0}"#,
    )
    .expect("json");
    let import = |from: &Path, extra: &[&str]| {
        pebble()
            .args(["capture", "import"])
            .arg(from)
            .arg("--project")
            .arg(&project)
            .args(extra)
            .output()
            .expect("runs pebble capture import")
    };
    let out = import(&dir.join("stick"), &[]);
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("1 captures imported"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = import(&dir.join("stick"), &[]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 already there"));
    image::RgbImage::from_pixel(4, 4, image::Rgb([200, 9, 9]))
        .save(caps.join("capture_000.bmp"))
        .expect("bmp");
    let out = import(&dir.join("stick"), &[]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("capture_000_2"));
    let into = dir.join("p/captures");
    assert!(into.join("capture_000.bmp").is_file() && into.join("capture_000_2.json").is_file());
    // One screenshot with its camera given by hand.
    let shot = dir.join("scrshot.bmp");
    image::RgbImage::from_pixel(4, 4, image::Rgb([1, 2, 3]))
        .save(&shot)
        .expect("bmp");
    let out = import(&shot, &["--pose", "1,2,3,90,-10", "--time", "2.5"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sidecar: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(into.join("capture_000_3.json")).expect("sidecar"),
    )
    .expect("JSON");
    assert_eq!(sidecar["position"], serde_json::json!([1.0, 2.0, 3.0]));
    assert_eq!(sidecar["time"], 2.5);
    let out = import(&shot, &[]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--pose"));
}
