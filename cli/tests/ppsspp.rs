//! Play in PPSSPP, driven as a user does (Ctrl+F5, the toolbar's Stop), with a
//! stand-in for PPSSPP: a shell script that records the arguments and the
//! environment it was started with, checks what it was given as the real program
//! would read it, and writes a capture where the runtime writes them. The
//! script is Unix only. Fails without a GPU adapter unless
//! `PEBBLE_SKIP_GPU_TESTS=1`.
#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use common::{harness_on, showcase_copy, wait_for};
use egui_kittest::kittest::Queryable as _;

/// Writes the stand-in PPSSPP into `dir` and returns it. It writes `launch.txt`
/// beside itself: each argument on a line, then `XDG_CONFIG_HOME=…`, then
/// whether the EBOOT beside the map is the bundled runtime. With `wait`, it
/// stays until killed, as PPSSPP does while played.
fn stand_in(dir: &Path, wait: bool) -> PathBuf {
    std::fs::create_dir_all(dir).expect("folder");
    let script = dir.join("PPSSPPSDL");
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/psp/EBOOT.PBP");
    let body = format!(
        r#"#!/bin/sh
here=$(dirname "$0")
out="$here/launch.txt"
for a in "$@"; do printf '%s\n' "$a"; done > "$out.part"
printf 'XDG_CONFIG_HOME=%s\n' "$XDG_CONFIG_HOME" >> "$out.part"
game=$(dirname "$2")
if cmp -s "$2" '{runtime}'; then echo "runtime: bundled" >> "$out.part"; fi
if [ -s "$game/map.pbm" ]; then echo "map: present" >> "$out.part"; fi
mkdir -p "$game/captures"
printf 'BM stand-in' > "$game/captures/capture_000.bmp"
printf '{{"map":"stand-in"}}' > "$game/captures/capture_000.json"
echo "PPSSPP stand-in: started" >&2
mv "$out.part" "$out"
{wait}
"#,
        runtime = runtime.display(),
        wait = if wait {
            "while true; do sleep 0.1; done"
        } else {
            "exit 0"
        },
    );
    std::fs::write(&script, body).expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    script
}

/// What the last launch said beside the status line.
fn launch_said(harness: &egui_kittest::Harness<'_, pebble_editor::app::PebbleApp>) -> String {
    let status = harness.state().jobs.ppsspp.status.clone();
    status.expect("a status").text
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-ppsspp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn ctrl_f5_exports_stages_a_memory_stick_and_plays_it_in_ppsspp_and_captures_come_home() {
    let project = showcase_copy();
    let project_dir = project.parent().expect("folder").to_path_buf();
    let Some(mut harness) = harness_on(project.clone()) else {
        return;
    };
    let bin = scratch("once");
    let program = stand_in(&bin, false);
    harness.state_mut().prefs.ppsspp_program = program.display().to_string();
    harness.run_steps(2);
    // Whether it ran is what it said when it ended: this stand-in exits at once,
    // and the export, the staging and its exit can all end within one step.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F5);
    harness.run_steps(1);
    wait_for(&mut harness, |app| !app.jobs.ppsspp.busy());

    let said = launch_said(&harness);
    assert!(
        said.contains("PPSSPP closed") && said.contains("1 capture(s) brought into captures/"),
        "{}",
        said
    );
    assert_eq!(
        harness.state().status().text,
        said,
        "the status line says so"
    );
    let launch = std::fs::read_to_string(bin.join("launch.txt")).expect("PPSSPP was started");
    let lines: Vec<&str> = launch.lines().collect();
    let stick = project_dir.join(".pebble/ppsspp/ppsspp");
    let eboot = stick.join("PSP/GAME/PEBBLE/EBOOT.PBP");
    assert_eq!(lines[0], "--escape-exit", "{launch}");
    assert_eq!(lines[1], eboot.display().to_string(), "{launch}");
    assert_eq!(
        lines[2],
        format!(
            "XDG_CONFIG_HOME={}",
            project_dir.join(".pebble/ppsspp").display()
        ),
        "PPSSPP's memory stick is the staged one: {launch}"
    );
    assert!(launch.contains("runtime: bundled"), "{launch}");
    assert!(launch.contains("map: present"), "{launch}");

    // The staged map is the scene's export, valid as the strict validator reads it.
    let map = std::fs::read(stick.join("PSP/GAME/PEBBLE/map.pbm")).expect("the map");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pebble"))
        .args(["pbm", "validate", "--strict"])
        .arg(stick.join("PSP/GAME/PEBBLE/map.pbm"))
        .output()
        .expect("runs pebble");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(map.len() > 1000);
    // The capture written in the stick is in the project's captures/ now.
    assert_eq!(
        std::fs::read(project_dir.join("captures/capture_000.bmp")).expect("brought home"),
        b"BM stand-in"
    );
    assert!(project_dir.join("captures/capture_000.json").is_file());
    // The stick is kept: a second launch copies only what changed.
    let before = std::fs::metadata(&eboot)
        .expect("eboot")
        .modified()
        .expect("time");
    std::fs::remove_file(bin.join("launch.txt")).expect("removes");
    // No check that it is busy in between: the export, the staging and this
    // PPSSPP's exit can all end within one step (a CI run saw it).
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F5);
    harness.run_steps(1);
    wait_for(&mut harness, |app| !app.jobs.ppsspp.busy());
    assert!(bin.join("launch.txt").is_file(), "played again");
    let after = std::fs::metadata(&eboot)
        .expect("eboot")
        .modified()
        .expect("time");
    assert_eq!(before, after, "the unchanged runtime is not written again");
}

#[test]
fn stop_closes_ppsspp_and_a_missing_or_failing_ppsspp_says_why() {
    let project = showcase_copy();
    let project_dir = project.parent().expect("folder").to_path_buf();
    let Some(mut harness) = harness_on(project) else {
        return;
    };
    let bin = scratch("stop");
    let program = stand_in(&bin, true);
    harness.state_mut().prefs.ppsspp_program = program.display().to_string();
    harness.run_steps(2);
    harness.get_by_label("Play in PPSSPP").click();
    harness.run_steps(1);
    wait_for(&mut harness, |_| bin.join("launch.txt").is_file());
    harness.run_steps(2);
    assert!(harness.state().jobs.ppsspp.busy(), "PPSSPP is being played");
    harness.get_by_label("Stop PPSSPP").click();
    harness.run_steps(1);
    wait_for(&mut harness, |app| !app.jobs.ppsspp.busy());
    let said = launch_said(&harness);
    assert!(said.contains("closed (Stop)"), "{}", said);
    assert!(
        project_dir.join("captures/capture_000.bmp").is_file(),
        "captures taken before Stop come home too"
    );

    // Not there: refused at once, saying how to fix it.
    harness.state_mut().prefs.ppsspp_program = "/no/such/PPSSPPSDL".into();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F5);
    harness.run_steps(1);
    assert!(!harness.state().jobs.ppsspp.busy());
    let status = harness.state().status().text.clone();
    assert!(
        status.contains("/no/such/PPSSPPSDL") && status.contains("Preferences"),
        "{status}"
    );

    // A PPSSPP that fails: its error output is quoted.
    let failing = bin.join("failing-ppsspp");
    std::fs::write(
        &failing,
        "#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n",
    )
    .expect("script");
    std::fs::set_permissions(&failing, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    harness.state_mut().prefs.ppsspp_program = failing.display().to_string();
    // No check that it is busy in between: the export, the staging and this
    // PPSSPP's exit can all end within one step (a CI run saw it).
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F5);
    harness.run_steps(1);
    wait_for(&mut harness, |app| !app.jobs.ppsspp.busy());
    let status = harness.state().status().text.clone();
    assert!(
        status.contains("PPSSPP ended with") && status.contains("cannot open display"),
        "{status}"
    );
}
