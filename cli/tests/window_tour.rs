//! The real editor window under Xvfb, driven by real X input (xdotool): every
//! toolbar toggle pressed (and pressed back), every menu opened, every menu item
//! that shows something (panels, windows, dialogs, the Create menu) pressed once,
//! and a drag from every panel into the viewport. The editor must still be running
//! at the end, with no panic and no wgpu validation error on its stderr. A toggle
//! that once killed the editor (PSP preview) or a drag that did (from Assets) can
//! no longer do so unnoticed.
//!
//! Where to press is read from the same app laid out by egui_kittest at the same
//! size (1280×800 points at scale 1, the default layout), so the test follows the
//! UI as it changes. Each input is waited for until the editor's frame echo
//! (`PEBBLE_FRAME_ECHO`) shows it taken, never for a fixed time. Needs Xvfb,
//! xdotool and a GPU adapter (lavapipe); ignored in a plain run (about a minute
//! and a half), CI's second pass runs it.

use std::process::{Command, Stdio};

mod common;

use common::window::{Driver, display_serves, showcase_in, start_editor, start_xvfb};

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pebble_editor::app::PebbleApp;

/// Things a person presses, in points (the window sits at 0,0 without a window
/// manager, at scale 1).
#[derive(Debug, Clone)]
enum Step {
    Click(&'static str, egui::Pos2),
    Drag(&'static str, egui::Pos2, egui::Pos2),
    Key(&'static str, &'static str),
}

impl Step {
    fn label(&self) -> &'static str {
        match self {
            Self::Click(l, _) | Self::Drag(l, _, _) | Self::Key(l, _) => l,
        }
    }
}

fn centre(harness: &Harness<'_, PebbleApp>, label: &str) -> egui::Pos2 {
    harness
        .query_by_label(label)
        .unwrap_or_else(|| panic!("no {label:?} in the laid-out app"))
        .rect()
        .center()
}

/// The tour, worked out on the app laid out by kittest.
fn tour() -> Option<Vec<Step>> {
    let mut h = common::harness()?;
    let mut steps = Vec::new();
    let viewport = h.state().view().1.center();

    // Toolbar toggles, each pressed and pressed back.
    // (A toggled label may change, "World" to "Local": it stays where it was.)
    for label in [
        "Move",
        "Rotate",
        "Scale",
        "World",
        "Snap",
        "Faces",
        "Tex lock",
        "PSP preview",
        "Preview light",
        "Overlays",
        "Home",
        "Persp",
    ] {
        let at = centre(&h, label);
        steps.push(Step::Click(label, at));
        steps.push(Step::Click(label, at));
    }
    // The play/pause button (paused in the harness, playing in the window).
    if let Some(p) = h
        .query_by_label("Play")
        .or_else(|| h.query_by_label("Pause"))
    {
        let at = p.rect().center();
        steps.push(Step::Click("Play/Pause", at));
        steps.push(Step::Click("Play/Pause", at));
    }

    // A drag from every panel into the viewport: an outliner row, a texture
    // thumbnail and a mesh row in Assets, the History, the Log and a panel tab.
    steps.push(Step::Drag(
        "outliner row",
        centre(&h, "Back wall  (mesh)"),
        viewport,
    ));
    let assets_tab = centre(&h, "Assets");
    steps.push(Step::Click("Assets tab", assets_tab));
    h.get_by_label("Assets").click();
    h.run_steps(3);
    let thumb = h
        .query_by_label_contains("textures/bricks.png")
        .map(|n| n.rect())
        .unwrap_or_else(|| panic!("no texture row in Assets"));
    steps.push(Step::Drag(
        "texture thumbnail",
        egui::pos2(thumb.min.x - 24.0, thumb.center().y),
        viewport,
    ));
    steps.push(Step::Drag("texture row", thumb.center(), viewport));
    steps.push(Step::Drag(
        "mesh row",
        centre(&h, "Courtyard floor — 800 triangles"),
        viewport,
    ));
    steps.push(Step::Click("Outliner tab", centre(&h, "Outliner")));
    steps.push(Step::Drag("History", centre(&h, "(opened)"), viewport));
    let log_tab = centre(&h, "Log");
    steps.push(Step::Click("Log tab", log_tab));
    steps.push(Step::Drag(
        "Log",
        log_tab + egui::vec2(40.0, 60.0),
        viewport,
    ));
    steps.push(Step::Drag("a tab onto the viewport", log_tab, viewport));
    steps.push(Step::Drag(
        "inspector",
        centre(&h, "Inspector") + egui::vec2(0.0, 40.0),
        viewport,
    ));
    steps.push(Step::Drag(
        "viewport orbit",
        viewport,
        viewport + egui::vec2(120.0, 40.0),
    ));

    // Every menu opened and closed.
    for menu in ["File", "Edit", "View", "Create", "Tools", "Help", "Deploy"] {
        steps.push(Step::Click(menu, centre(&h, menu)));
        steps.push(Step::Key(menu, "Escape"));
    }
    // Every item that shows something, once: the menu opened, the item pressed.
    let items: Vec<(&str, Vec<&str>)> = vec![
        (
            "View",
            vec![
                "PSP preview",
                "Preview light (unbaked)",
                "Overlays",
                "Snap (Ctrl inverts while dragging)",
                "Outliner",
                "Inspector",
                "Assets",
                "History",
                "Log",
                "Frame all  (Home)",
                "Reset the panel layout",
            ],
        ),
        (
            "Create",
            pebble_core::create::all()
                .map(pebble_core::create::CreateItem::label)
                .collect(),
        ),
        ("Edit", vec!["Undo", "Redo"]),
        ("Deploy", vec!["Find memory sticks"]),
        ("Tools", vec!["Compare a device capture…"]),
        ("Help", vec!["Keyboard and mouse", "About Pebble"]),
        ("File", vec!["Preferences…"]),
    ];
    for (menu, labels) in items.iter().map(|(m, l)| (*m, l)) {
        let menu_at = centre(&h, menu);
        // Labels the closed menu already shows elsewhere (the toolbar's "PSP
        // preview", the panel tabs): the menu's own item is the one that appears.
        let before: Vec<Vec<egui::Rect>> = labels
            .iter()
            .map(|l| h.query_all_by_label(l).map(|n| n.rect()).collect())
            .collect();
        h.get_by_label(menu).click();
        h.run_steps(2);
        for (&label, before) in labels.iter().zip(&before) {
            let at = h
                .query_all_by_label(label)
                .chain(h.query_all_by_label_contains(label))
                .map(|n| n.rect())
                .find(|r| !before.contains(r))
                .unwrap_or_else(|| panic!("no {label:?} in the {menu} menu"))
                .center();
            steps.push(Step::Click(menu, menu_at));
            steps.push(Step::Click(label, at));
            if menu == "Deploy" {
                steps.push(Step::Key("close the Deploy menu", "Escape"));
            }
        }
        h.key_press(egui::Key::Escape);
        h.run_steps(2);
    }
    // The file dialogs (Pebble's own where there is no portal): opened, then Esc.
    for label in [
        "Open…  (Ctrl+O)",
        "Save As…  (Ctrl+Shift+S)",
        "Import…  (glTF, TMD, image, .pbm)",
        "Export .pbm…  (Ctrl+E)",
    ] {
        let menu_at = centre(&h, "File");
        h.get_by_label("File").click();
        h.run_steps(2);
        let at = centre(&h, label);
        h.key_press(egui::Key::Escape);
        h.run_steps(2);
        steps.push(Step::Click("File", menu_at));
        steps.push(Step::Click(label, at));
        steps.push(Step::Key(label, "Escape"));
    }
    Some(steps)
}

fn press(driver: &mut Driver, step: &Step) {
    match step {
        Step::Click(_, at) => driver.click(*at),
        Step::Drag(_, from, to) => driver.drag(*from, *to, 12),
        Step::Key(_, key) => driver.key(key),
    }
}

/// Fails (never skips) where Xvfb or xdotool is missing.
fn require_xvfb_and_xdotool() {
    for tool in ["Xvfb", "xdotool"] {
        let found = Command::new(tool)
            .arg("-version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
        assert!(found, "{tool} is missing (apt-get install xvfb xdotool)");
    }
}

/// The display the window tests use keeps serving while clients come and go
/// (each xdotool call is one), as a test's next client comes at once: two
/// threads, each connecting 150 times, none refused. An Xvfb that resets when
/// its last client leaves refused 22 to 39 of the 300 here (see `start_xvfb`).
#[test]
#[ignore = "starts Xvfb and 300 xdotool clients (a few seconds): run with `cargo test -p pebble-cli --test window_tour -- --ignored` (CI does)"]
fn the_test_display_serves_every_client_while_others_come_and_go() {
    require_xvfb_and_xdotool();
    let (mut xvfb, display) = start_xvfb();
    let refused: usize = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| (0..150).filter(|_| !display_serves(&display)).count()))
            .collect();
        clients
            .into_iter()
            .map(|c| c.join().expect("a client thread"))
            .sum()
    });
    assert_eq!(
        refused,
        0,
        "{refused} of 300 connections to {display} refused; {}",
        xvfb.report()
    );
}

#[test]
#[ignore = "drives the real editor window under Xvfb with xdotool (about a minute): run with `cargo test -p pebble-cli --test window_tour -- --ignored` (CI does)"]
fn every_toggle_menu_window_and_drag_leaves_the_editor_running() {
    require_xvfb_and_xdotool();
    let Some(steps) = tour() else {
        return;
    };
    let home = std::env::temp_dir().join(format!("pebble-tour-{}", std::process::id()));
    // A copy of the showcase: the tour edits it, and its autosave must not land
    // beside the bundled one.
    let project = showcase_in(&home);
    let (mut xvfb, display) = start_xvfb();
    let (mut editor, mut driver) = start_editor(&mut xvfb, &display, &home, &project);

    let mut died_at = None;
    for (k, step) in steps.iter().enumerate() {
        eprintln!("step {k}: {}", step.label());
        press(&mut driver, step);
        if editor.try_wait().expect("polls").is_some() {
            died_at = Some((k, step.clone()));
            break;
        }
    }
    let alive = editor.try_wait().expect("polls").is_none();
    let _ = editor.kill();
    let _ = editor.wait();
    let stderr = driver.finish();
    let _ = xvfb.kill();
    let _ = xvfb.wait();
    let _ = std::fs::remove_dir_all(&home);
    assert!(
        alive && died_at.is_none(),
        "the editor died at step {died_at:?}; its stderr:\n{stderr}"
    );
    assert_clean(&stderr, steps.len());
    eprintln!("{} steps pressed; the editor kept running", steps.len());
}

/// No panic and no wgpu error on the editor's stderr.
fn assert_clean(stderr: &str, steps: usize) {
    for bad in [
        "panicked",
        "internal error",
        "Validation Error",
        "wgpu error",
    ] {
        assert!(
            !stderr.contains(bad),
            "{bad:?} on the editor's stderr after {steps} steps:\n{stderr}"
        );
    }
}

/// Issue 38's reproduction, ten times in a row, each on a fresh copy of the
/// showcase and a fresh home: the Assets tab clicked, the smoke texture's
/// thumbnail dragged along the reported path onto the back wall and let go,
/// a click beside it, Ctrl+S. Each time the editor must still run, with nothing
/// on its stderr, and the saved back wall must wear the smoke texture.
#[test]
#[ignore = "drives the real editor window under Xvfb with xdotool, ten starts (about two minutes): run with `cargo test -p pebble-cli --test window_tour -- --ignored` (CI does)"]
fn a_texture_dragged_onto_a_wall_ten_times_leaves_the_editor_running() {
    require_xvfb_and_xdotool();
    // Where the tab and the thumbnail are, from the app laid out by kittest.
    let Some(mut h) = common::harness() else {
        return;
    };
    let assets_tab = centre(&h, "Assets");
    h.get_by_label("Assets").click();
    h.run_steps(3);
    let row = h
        .query_by_label_contains("textures/smoke.png")
        .map(|n| n.rect())
        .unwrap_or_else(|| panic!("no smoke texture in Assets"));
    let thumbnail = egui::pos2(row.min.x - 24.0, row.center().y);
    drop(h);
    // The path the report's script takes (in points, the window at 0,0).
    let path = [
        (60.0, 330.0),
        (150.0, 340.0),
        (300.0, 350.0),
        (450.0, 355.0),
        (560.0, 358.0),
        (620.0, 360.0),
    ]
    .map(|(x, y)| egui::pos2(x, y));

    let (mut xvfb, display) = start_xvfb();
    for run in 1..=10 {
        let home = std::env::temp_dir().join(format!("pebble-drop-{}-{run}", std::process::id()));
        let project = showcase_in(&home);
        let saved_before = std::fs::read(&project).expect("the copy");
        let (mut editor, mut driver) = start_editor(&mut xvfb, &display, &home, &project);
        driver.click(assets_tab);
        driver.move_to(thumbnail);
        driver.press();
        for p in path {
            driver.move_to(p);
        }
        driver.release();
        driver.frames(2);
        driver.click(path[5] + egui::vec2(0.0, 2.0));
        driver.key("ctrl+s");
        // Saved: the file on disk changes (its write is atomic).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while std::fs::read(&project).is_ok_and(|now| now == saved_before) {
            assert!(
                editor.try_wait().expect("polls").is_none(),
                "run {run}: the editor ended before it saved; its stderr:\n{}",
                driver.finish()
            );
            assert!(
                std::time::Instant::now() < deadline,
                "run {run}: the project was never saved"
            );
            // Polled: the editor may draw no frame while nothing changes.
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let alive = editor.try_wait().expect("polls").is_none();
        let _ = editor.kill();
        let _ = editor.wait();
        let stderr = driver.finish();
        assert!(alive, "run {run}: the editor died; its stderr:\n{stderr}");
        assert_clean(&stderr, run);
        let scene = pebble_model::project::load(&project).expect("the saved project opens");
        let wall = scene
            .entities()
            .find(|e| e.name == "Back wall")
            .expect("the back wall");
        let pebble_model::EntityKind::Mesh(mesh) = &wall.kind else {
            panic!("the back wall is a mesh");
        };
        let smoke = mesh.geometry.faces.iter().any(|f| {
            scene
                .material(f.material)
                .and_then(|m| m.texture.as_deref())
                .is_some_and(|t| t.ends_with("smoke.png"))
        });
        assert!(
            smoke,
            "run {run}: the back wall does not wear the smoke texture"
        );
        let _ = std::fs::remove_dir_all(&home);
        eprintln!("run {run}: alive, the smoke texture on the back wall");
    }
    let _ = xvfb.kill();
    let _ = xvfb.wait();
}
