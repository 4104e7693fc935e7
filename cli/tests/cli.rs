//! The `pebble pbm` commands on every reference fixture and on broken files: exit
//! codes, messages with offsets, dumps that agree with the reference loader.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIXTURES: [&str; 5] = ["basic", "full", "full_emitters", "full_v2", "full_v1"];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pbm/tests/fixtures")
        .join(name)
}

fn pebble(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pebble"))
        .args(args)
        .env_remove("PEBBLE_BACKTRACE")
        .output()
        .expect("pebble runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn expected(name: &str) -> serde_json::Value {
    let path = fixture(&format!("{name}.expected.json"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("expected file")).expect("JSON")
}

fn no_panic(out: &Output) {
    let err = text(&out.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("internal error"),
        "{err}"
    );
}

#[test]
fn help_lists_the_commands() {
    let out = pebble(&["--help"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Usage: pebble") && stdout.contains("pbm") && stdout.contains("open"),
        "{stdout}"
    );
}

#[test]
fn the_editor_without_a_display_says_so_instead_of_crashing() {
    let out = Command::new(env!("CARGO_BIN_EXE_pebble"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("pebble runs");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("no display") && err.contains("xvfb-run"),
        "{err}"
    );
    no_panic(&out);
}

/// `pebble open --cam` takes the camera as `pebble render --cam` does; a bad one
/// is told before any window opens (no display here, and the message is about
/// the camera).
#[test]
fn open_at_a_camera_tells_a_bad_one_before_the_window() {
    let project = "assets/showcase/showcase.pebble.ron";
    for (args, told) in [
        (
            vec!["--cam", "1,2"],
            "expected five numbers x,y,z,yawDeg,pitchDeg, got 2",
        ),
        (vec!["--cam", "1,2,3,x,5"], "expected five numbers"),
        (vec!["--cam", "1,2,3,inf,5"], "finite"),
        (
            vec!["--cam", "1,2,3,4,5", "--fov", "500"],
            "from 10 to 120 degrees",
        ),
        // A good camera gets as far as the display.
        (
            vec!["--cam", "4.5,1.6,0,0,-10", "--fov", "65"],
            "no display",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pebble"))
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .arg("open")
            .arg(project)
            .args(&args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .expect("pebble runs");
        assert!(!out.status.success(), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(told), "{args:?}: {err}");
        no_panic(&out);
    }
}

#[test]
fn info_summarises_every_fixture() {
    for name in FIXTURES {
        let file = fixture(&format!("{name}.pbm"));
        let out = pebble(&["pbm", "info", file.to_str().expect("utf-8 path")]);
        no_panic(&out);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let exp = expected(name);
        for section in ["textures", "meshes", "colliders"] {
            for item in exp[section].as_array().expect("list") {
                let item_name = item["name"].as_str().expect("name");
                assert!(
                    stdout.contains(item_name),
                    "{name}: {item_name} missing from\n{stdout}"
                );
            }
        }
        let version = exp["header"]["version"].as_u64().expect("version");
        assert!(stdout.contains(&format!("PBM v{version}")), "{stdout}");
    }
}

#[test]
fn validate_exit_codes() {
    let run = |name: &str, strict: bool| {
        let file = fixture(&format!("{name}.pbm"));
        let mut args = vec!["pbm", "validate", file.to_str().expect("utf-8 path")];
        if strict {
            args.push("--strict");
        }
        let out = pebble(&args);
        no_panic(&out);
        out.status.code()
    };
    for name in FIXTURES {
        assert_eq!(run(name, false), Some(0), "{name} is readable");
    }
    assert_eq!(run("full", true), Some(0), "full.pbm is compliant");
    assert_eq!(
        run("full_emitters", true),
        Some(1),
        "over-budget emitters are warnings"
    );
    assert_eq!(
        run("full_v2", true),
        Some(1),
        "v2 is not what a conforming writer emits"
    );
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path
}

#[test]
fn broken_files_fail_with_the_offset_and_no_panic() {
    let full = std::fs::read(fixture("full.pbm")).expect("fixture");
    let cut = scratch("cut.pbm", &full[..5000]);
    let out = pebble(&["pbm", "validate", cut.to_str().expect("utf-8")]);
    no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("at byte 108")
            && err.contains("texture 0 'FloorChecker'")
            && err.contains("truncated"),
        "{err}"
    );

    let mut newer = full.clone();
    newer[4..8].copy_from_slice(&4u32.to_le_bytes());
    let newer = scratch("newer.pbm", &newer);
    for cmd in ["validate", "info"] {
        let out = pebble(&["pbm", cmd, newer.to_str().expect("utf-8")]);
        no_panic(&out);
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out.stderr).contains("[PBM] Error: Incompatible map version 4 (supported: 1..3). Breaking format change detected."));
    }

    let out = pebble(&["pbm", "info", "/nonexistent/map.pbm"]);
    no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot read /nonexistent/map.pbm"));

    let out = pebble(&["pbm", "dump", fixture("full.pbm").to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2), "dump needs --json");
}

#[test]
fn dump_agrees_with_the_reference_loader() {
    for name in FIXTURES {
        let file = fixture(&format!("{name}.pbm"));
        let out = pebble(&["pbm", "dump", file.to_str().expect("utf-8"), "--json"]);
        no_panic(&out);
        assert!(out.status.success());
        let dump: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        let exp = expected(name);
        for key in [
            "magic",
            "version",
            "num_textures",
            "num_meshes",
            "num_colliders",
            "num_metadata",
        ] {
            assert_eq!(dump["header"][key], exp["header"][key], "{name} {key}");
        }
        assert_eq!(dump["total_vertices"], exp["total_vertices"]);
        for (d, e) in dump["meshes"]
            .as_array()
            .expect("meshes")
            .iter()
            .zip(exp["meshes"].as_array().expect("meshes"))
        {
            assert_eq!(d["name"], e["name"]);
            assert_eq!(d["vertices_fnv1a64"], e["vertices_fnv1a64"], "{name}");
            assert_eq!(d["first_vertex"]["color"], e["first_vertex"]["color"]);
        }
        for (d, e) in dump["colliders"]
            .as_array()
            .expect("colliders")
            .iter()
            .zip(exp["colliders"].as_array().expect("colliders"))
        {
            assert_eq!(d["triangles_fnv1a64"], e["triangles_fnv1a64"], "{name}");
        }
        for (d, e) in dump["metadata"]
            .as_array()
            .expect("metadata")
            .iter()
            .zip(exp["metadata"].as_array().expect("metadata"))
        {
            assert_eq!(
                (&d["tag"], &d["fnv1a64"], &d["data_size"]),
                (&e["tag"], &e["fnv1a64"], &e["data_size"]),
                "{name}"
            );
        }
        assert_eq!(dump["num_particles"], exp["num_particles"], "{name}");
        for (d, e) in dump["emitters"]
            .as_array()
            .expect("emitters")
            .iter()
            .zip(exp["emitters"].as_array().expect("emitters"))
        {
            for key in [
                "name",
                "count",
                "texture_id",
                "first_particle",
                "atlas_rows",
                "anim_loops",
            ] {
                assert_eq!(d[key], e[key], "{name} emitter {key}");
            }
        }
    }
}
