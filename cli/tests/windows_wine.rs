//! pebble.exe, cross-built for Windows by `scripts/build-windows.sh`, run under
//! Wine as a designer on Windows meets it: the command line (showcase, export,
//! validate, render, deploy to a drive path, a name Windows keeps for a device
//! refused) and the editor window (opened on the showcase, drawn as the Linux
//! build draws it, an edit made with xdotool and saved, the preferences written
//! under `%APPDATA%`).
//!
//! Ignored in the plain suite: it needs the executable and Wine. CI's second pass
//! runs it (`.ci/run`):
//!
//! ```text
//! scripts/build-windows.sh -o DIR --wine-shim DIR/shim
//! PEBBLE_WINDOWS_EXE=DIR/pebble.exe PEBBLE_WINE_SHIM=DIR/shim/bcryptprimitives.dll \
//!     cargo test -p pebble-cli --test windows_wine -- --ignored
//! ```
//!
//! Without `PEBBLE_WINDOWS_EXE` the tests fail and say so: a test that cannot run
//! does not pass. The pictures and figures of the last run are kept in
//! `target/windows-wine/` (the closing note of issue 54 shows them).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::window::{screenshot, start_window, start_xvfb};
use eframe::egui;

/// The executable under test, copied into a folder of its own (with Wine 8's
/// stand-in DLL beside it when `PEBBLE_WINE_SHIM` names one): nothing of the
/// repository beside it.
fn exe() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        let built = std::env::var_os("PEBBLE_WINDOWS_EXE").map(PathBuf::from).unwrap_or_else(|| {
            panic!(
                "PEBBLE_WINDOWS_EXE is not set: build pebble.exe with scripts/build-windows.sh -o DIR \
                 --wine-shim DIR/shim, then run with PEBBLE_WINDOWS_EXE=DIR/pebble.exe \
                 PEBBLE_WINE_SHIM=DIR/shim/bcryptprimitives.dll"
            )
        });
        let dir = scratch("exe");
        std::fs::copy(&built, dir.join("pebble.exe"))
            .unwrap_or_else(|e| panic!("cannot copy {}: {e}", built.display()));
        if let Some(shim) = std::env::var_os("PEBBLE_WINE_SHIM") {
            std::fs::copy(&shim, dir.join("bcryptprimitives.dll"))
                .unwrap_or_else(|e| panic!("cannot copy {shim:?}: {e}"));
        }
        dir.join("pebble.exe")
    })
}

/// Wine's 64-bit loader: Debian's `wine64` package puts it off the PATH.
fn wine() -> PathBuf {
    let debian = PathBuf::from("/usr/lib/wine/wine64");
    if debian.is_file() {
        return debian;
    }
    for name in ["wine64", "wine"] {
        if Command::new(name).arg("--version").output().is_ok() {
            return PathBuf::from(name);
        }
    }
    panic!("no Wine here: apt-get install wine64 (Debian) gives /usr/lib/wine/wine64");
}

/// A Wine prefix of one test's own on its display (`wineboot --init`, a few
/// seconds): Wine's helper processes (the desktop, the devices) stay with the
/// display they started on, so two tests never share one. Its processes are
/// ended when it is dropped.
struct Wine {
    prefix: PathBuf,
    display: String,
}

impl Wine {
    fn new(name: &str, display: &str) -> Self {
        let wine = Self {
            prefix: scratch(&format!("prefix-{name}")),
            display: display.to_owned(),
        };
        run(
            wine.command().args(["wineboot", "--init"]),
            "wineboot --init",
        );
        wine
    }

    /// Wine itself, in this prefix and display.
    fn command(&self) -> Command {
        let mut command = Command::new(wine());
        command
            .env("WINEPREFIX", &self.prefix)
            .env("WINEDEBUG", "-all")
            .env("WINEDLLOVERRIDES", "mscoree,mshtml=")
            .env("DISPLAY", &self.display)
            .env_remove("PEBBLE_DATA_DIR")
            .env_remove("WGPU_BACKEND");
        command
    }

    /// pebble.exe under this Wine (its Vulkan needs the X server, even headless).
    fn pebble(&self) -> Command {
        let mut command = self.command();
        command.arg(exe());
        command
    }
}

impl Drop for Wine {
    fn drop(&mut self) {
        let server = wine().with_file_name("wineserver");
        let _ = Command::new(if server.is_file() {
            server
        } else {
            "wineserver".into()
        })
        .arg("-k")
        .env("WINEPREFIX", &self.prefix)
        .status();
        let _ = std::fs::remove_dir_all(&self.prefix);
    }
}

/// A fresh folder under the temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-wine-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Where the last run's pictures and figures stay.
fn keep() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/windows-wine");
    std::fs::create_dir_all(&dir).expect("target/windows-wine");
    dir
}

/// `path` as Windows programs under Wine name it: drive `Z:` is the Unix root.
fn drive_path(path: &Path) -> String {
    format!("Z:{}", path.display()).replace('/', "\\")
}

fn linux_pebble() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pebble"))
}

fn run(command: &mut Command, what: &str) -> Output {
    let out = command
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// PSNR (dB) of two pictures of the same size.
fn psnr(a: &Path, b: &Path) -> f64 {
    psnr_masked(a, b, &[])
}

/// PSNR (dB) of two pictures of the same size, `masks` (x, y, w, h) left out.
fn psnr_masked(a: &Path, b: &Path, masks: &[[u32; 4]]) -> f64 {
    let load = |p: &Path| {
        image::open(p)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            .to_rgb8()
    };
    pebble_render::compare::compare(&load(a), &load(b), masks, 32)
        .expect("pictures of one size")
        .psnr
}

/// The camera both systems draw from: the courtyard from its south-east corner.
const CAM: &str = "6,4,12,25,-15";

#[test]
#[ignore = "needs pebble.exe and Wine: scripts/build-windows.sh, then PEBBLE_WINDOWS_EXE=… cargo test -p pebble-cli --test windows_wine -- --ignored (CI's second pass)"]
fn the_command_line_runs_under_wine_as_on_linux() {
    let (_xvfb, display) = start_xvfb();
    let wine = Wine::new("cli", &display);
    let dir = scratch("cli");
    let version = run(wine.pebble().arg("--version"), "pebble.exe --version");
    assert!(
        text(&version).contains(env!("CARGO_PKG_VERSION")),
        "{}",
        text(&version)
    );

    // The showcase written and exported by the Windows build, through drive paths.
    let project = dir.join("showcase/showcase.pebble.ron");
    run(
        wine.pebble()
            .args(["showcase", &drive_path(&dir.join("showcase"))]),
        "pebble.exe showcase",
    );
    assert!(project.is_file(), "the showcase written through Z:");
    let map = dir.join("windows.pbm");
    export_and_validate(&wine, &project, &map);
    // The same project exported on Linux: the same map, byte for byte.
    let linux_map = dir.join("linux.pbm");
    run(
        linux_pebble()
            .arg("export")
            .arg(&project)
            .arg("-o")
            .arg(&linux_map),
        "pebble export",
    );
    let windows_bytes = std::fs::read(&map).expect("the Windows map");
    assert!(
        windows_bytes == std::fs::read(&linux_map).expect("the Linux map"),
        "the map exported on Windows differs from the one exported on Linux"
    );

    // Drawn headless by both, the PSP look from one camera.
    let (windows_png, linux_png) = (
        keep().join("render-windows.png"),
        keep().join("render-linux.png"),
    );
    let rendered = run(
        wine.pebble().args([
            "render",
            &drive_path(&map),
            "--psp",
            "--cam",
            CAM,
            "-o",
            &drive_path(&windows_png),
        ]),
        "pebble.exe render",
    );
    run(
        linux_pebble()
            .arg("render")
            .arg(&linux_map)
            .args(["--psp", "--cam", CAM, "-o"])
            .arg(&linux_png),
        "pebble render",
    );
    let render_psnr = psnr(&windows_png, &linux_png);
    std::fs::write(
        keep().join("render.txt"),
        format!(
            "{}PSNR against Linux: {render_psnr:.2} dB\n",
            text(&rendered)
        ),
    )
    .expect("the figures kept");
    assert!(render_psnr >= 40.0, "render PSNR {render_psnr:.2} dB");

    // Deployed to a memory stick given as a drive path.
    let stick = dir.join("stick");
    std::fs::create_dir_all(stick.join("PSP/GAME")).expect("a stick");
    let deployed = run(
        wine.pebble()
            .args(["deploy", &drive_path(&map), "--to", &drive_path(&stick)]),
        "pebble.exe deploy",
    );
    assert!(text(&deployed).contains("deployed"), "{}", text(&deployed));
    let game = stick.join("PSP/GAME/PEBBLE");
    assert_eq!(
        std::fs::read(game.join("map.pbm")).expect("the deployed map"),
        windows_bytes
    );
    let eboot = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/psp/EBOOT.PBP");
    assert!(
        std::fs::read(game.join("EBOOT.PBP")).expect("the deployed runtime")
            == std::fs::read(eboot).expect("the bundled runtime"),
        "the EBOOT inside pebble.exe is the bundled one"
    );
    // The stick as Windows shows a PSP in USB mode: a drive letter of its own
    // (Wine's drives are links in its prefix). Wine lists no volumes to
    // `deploy --list` (it has no mount manager's volumes), so the drive is named.
    std::os::unix::fs::symlink(&stick, wine.prefix.join("dosdevices/p:")).expect("drive P:");
    std::fs::remove_dir_all(&game).expect("the first deploy removed");
    let deployed = run(
        wine.pebble()
            .args(["deploy", &drive_path(&map), "--to", "P:\\"]),
        "pebble.exe deploy --to P:\\",
    );
    assert!(text(&deployed).contains("deployed"), "{}", text(&deployed));
    assert_eq!(
        std::fs::read(game.join("map.pbm")).expect("the map deployed to P:"),
        windows_bytes
    );
    let listed = run(
        wine.pebble().args(["deploy", "--list"]),
        "pebble.exe deploy --list",
    );
    assert!(!text(&listed).contains("panicked"), "{}", text(&listed));

    // A name Windows keeps for a device: refused with why, nothing written.
    let refused = wine
        .pebble()
        .args([
            "export",
            &drive_path(&project),
            "-o",
            &drive_path(&dir.join("aux.pbm")),
        ])
        .output()
        .expect("pebble.exe runs");
    let said = text(&refused);
    assert!(!refused.status.success(), "aux.pbm was written: {said}");
    assert!(
        said.contains("AUX") && said.contains("device") && said.contains("choose another name"),
        "{said}"
    );
    assert!(!dir.join("aux.pbm").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs pebble.exe and Wine: scripts/build-windows.sh, then PEBBLE_WINDOWS_EXE=… cargo test -p pebble-cli --test windows_wine -- --ignored (CI's second pass)"]
fn the_window_opens_draws_as_on_linux_and_saves_an_edit_under_wine() {
    let dir = scratch("window");
    let project = dir.join("showcase/showcase.pebble.ron");
    run(
        linux_pebble().arg("showcase").arg(dir.join("showcase")),
        "pebble showcase",
    );

    // The same window on both systems, the clock stopped: the editor's own
    // screenshot of its first frames (`bench-editor --paused`).
    let (mut xvfb, display) = start_xvfb();
    let wine = Wine::new("window", &display);
    let bench = [
        "bench-editor",
        "--paused",
        "--frames",
        "5",
        "--warmup",
        "20",
        "--screenshot",
    ];
    let (windows_shot, linux_shot) = (
        keep().join("window-windows.png"),
        keep().join("window-linux.png"),
    );
    // The pointer on the screen's corner, over neither viewport (a hovered wall
    // is drawn lighter, and Wine places its window lower than X does).
    let parked = Command::new("xdotool")
        .args(["mousemove", "1279", "799"])
        .env("DISPLAY", &display)
        .status()
        .expect("xdotool runs");
    assert!(parked.success());
    let out = linux_pebble()
        .args(bench)
        .arg(&linux_shot)
        .arg(&project)
        .env("DISPLAY", &display)
        .env("HOME", &dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .output()
        .expect("pebble runs");
    assert!(out.status.success(), "pebble bench-editor: {}", text(&out));
    let out = wine
        .pebble()
        .args(bench)
        .arg(drive_path(&windows_shot))
        .arg(drive_path(&project))
        .output()
        .expect("pebble.exe runs");
    assert!(
        out.status.success(),
        "pebble.exe bench-editor: {}",
        text(&out)
    );
    // The status line says what differs by nature (frame rate, the project's
    // path as each system writes it, how far the background work got).
    let window_psnr = psnr(&windows_shot, &linux_shot);
    let without_status = psnr_masked(&windows_shot, &linux_shot, &[[0, 778, 1280, 22]]);
    std::fs::write(
        keep().join("window.txt"),
        format!(
            "the window's PSNR against Linux's: {window_psnr:.2} dB; without the status line: {without_status:.2} dB\n"
        ),
    )
    .expect("the figures kept");
    assert!(window_psnr >= 28.0, "window PSNR {window_psnr:.2} dB");
    assert!(
        without_status >= 35.0,
        "window PSNR without the status line {without_status:.2} dB"
    );

    // The real window, driven as a person would: a row of the outliner clicked,
    // Delete, Ctrl+S.
    let plan = outliner_row(&project, "Torch left  (mesh)");
    let entities_before = entity_count(&project);
    let saved_before = modified(&project);
    let mut command = wine.pebble();
    command.args(["open", &drive_path(&project)]);
    let (mut editor, mut driver) = start_window(&mut xvfb, &display, command);
    driver.wait_for("the level built", |e| e.level);
    driver.frames(5);
    driver.origin = window_origin(&display);
    screenshot(&display, &keep().join("screen-windows.png"));
    driver.click(plan);
    driver.key("Delete");
    driver.key("ctrl+s");
    wait_until("the project saved", || modified(&project) != saved_before);
    assert_eq!(
        entity_count(&project),
        entities_before - 1,
        "the torch deleted and saved"
    );

    // Closed as a Windows user closes it (Alt+F4): the preferences and layout go
    // to %APPDATA%\pebble\data.
    // Not through the driver: it waits for frames after the key, and there are none.
    common::window::xdotool(&display, &["key".into(), "alt+F4".into()]);
    wait_until("pebble.exe closed", || {
        editor.try_wait().ok().flatten().is_some()
    });
    let appdata: Vec<PathBuf> = std::fs::read_dir(wine.prefix.join("drive_c/users"))
        .expect("Wine's users")
        .flatten()
        .map(|u| u.path().join("AppData/Roaming/pebble/data/app.ron"))
        .filter(|p| p.is_file())
        .collect();
    assert_eq!(
        appdata.len(),
        1,
        "app.ron under %APPDATA%\\pebble\\data: {appdata:?}"
    );

    // The saved project exported by pebble.exe is a valid map.
    let validated = export_and_validate(&wine, &project, &dir.join("edited.pbm"));
    std::fs::write(keep().join("validate.txt"), validated).expect("kept");
    let _ = driver.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `project` exported by pebble.exe to `map`, and `pbm validate --strict` of it
/// passed with no warning or compliance issue; what validate said.
fn export_and_validate(wine: &Wine, project: &Path, map: &Path) -> String {
    run(
        wine.pebble()
            .args(["export", &drive_path(project), "-o", &drive_path(map)]),
        "pebble.exe export",
    );
    let validated = run(
        wine.pebble()
            .args(["pbm", "validate", "--strict", &drive_path(map)]),
        "pebble.exe pbm validate --strict",
    );
    let validated = text(&validated);
    assert!(
        validated.contains("valid PBM v3") && validated.contains("0 warnings, 0 compliance issues"),
        "{validated}"
    );
    validated
}

/// Where the outliner shows `label`, in the window (the kittest layout at the
/// window's size: the window tests' way).
fn outliner_row(project: &Path, label: &str) -> egui::Pos2 {
    use egui_kittest::kittest::Queryable as _;
    let harness = common::harness_on(project.to_path_buf()).expect("a GPU adapter (lavapipe)");
    harness
        .query_all_by_label(label)
        .map(|n| n.rect().center())
        .find(|c| c.x < 260.0)
        .unwrap_or_else(|| panic!("no outliner row {label}"))
}

/// The window's top left corner on the screen (Wine places its windows itself).
fn window_origin(display: &str) -> egui::Vec2 {
    let out = Command::new("xdotool")
        .args([
            "search",
            "--onlyvisible",
            "--name",
            "Pebble",
            "getwindowgeometry",
            "--shell",
        ])
        .env("DISPLAY", display)
        .output()
        .expect("xdotool runs");
    let said = String::from_utf8_lossy(&out.stdout);
    let value = |key: &str| {
        said.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().parse::<f32>().ok())
            .unwrap_or_else(|| panic!("no {key} in xdotool's answer: {said}"))
    };
    egui::vec2(value("X="), value("Y="))
}

fn entity_count(project: &Path) -> usize {
    pebble_model::project::load(project)
        .expect("the project opens")
        .entities()
        .count()
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Waits for `done`, at most a minute (CI's machine is slow; a hang fails).
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < Duration::from_secs(60), "never: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}
