//! The orientation map in the real editor window under Xvfb (orientation.rs judges
//! the same pictures laid out by kittest): opened with `pebble open --cam` at each
//! of the four views, its working view and then its PSP preview (the toolbar's
//! button, clicked with xdotool) taken from the screen as a person would see them,
//! and judged pixel by pixel against rays cast on the CPU. The report this answers:
//! the viewport's own PSP preview drew the stairs as their underside, while
//! `pebble render --psp` was right.
//!
//! Where to click comes from the same app laid out by kittest at the same size
//! (the window tests' way); what the window shows is waited for on its frame echo
//! (`level 1`, `psp 1`), never for a fixed time.

use std::path::Path;

use crate::common;
use crate::common::orientation::{self, FOV_Y_DEG, HEIGHT, PSP_ASPECT, Scene, VIEWS, WIDTH};
use crate::orientation::{mask_view_cube, orientation_project, tempdir, viewport_picture};

use common::window::{Driver, screenshot, start_xvfb};
use eframe::egui;
use egui_kittest::kittest::Queryable as _;

/// Where the script clicks, and what it judges, from the kittest layout.
struct Plan {
    /// The picture's rectangle and the view cube's (with its buttons: egui's,
    /// over the picture), in the working view and in the PSP preview (the
    /// device's frame, letterboxed).
    pictures: [(egui::Rect, egui::Rect); 2],
    psp_preview: egui::Pos2,
    overlays: egui::Pos2,
    view_menu: egui::Pos2,
    fog: egui::Pos2,
    back_faces: egui::Pos2,
    /// Whether the View menu stays open after one of its checkboxes is clicked.
    menu_stays_open: bool,
    /// A place for the pointer away from the picture (nothing hovered there).
    away: egui::Pos2,
}

fn plan(project: &Path) -> Plan {
    let mut harness =
        common::harness_on(project.to_path_buf()).expect("a GPU adapter (lavapipe) for the plan");
    let toolbar = |harness: &egui_kittest::Harness<'_, _>, label: &str| {
        harness
            .query_all_by_label(label)
            .map(|n| n.rect().center())
            .find(|c| c.y < 50.0)
            .unwrap_or_else(|| panic!("no toolbar button {label}"))
    };
    let psp_preview = toolbar(&harness, "PSP preview");
    let overlays = toolbar(&harness, "Overlays");
    let view_menu = toolbar(&harness, "View");
    harness.get_by_label("View").click();
    harness.run_steps(3);
    let item = |harness: &egui_kittest::Harness<'_, _>, label: &str| {
        harness.get_by_label(label).rect().center()
    };
    let fog = item(&harness, "Fog in the viewport");
    let back_faces = item(&harness, "Show back faces");
    harness.get_by_label("Fog in the viewport").click();
    harness.run_steps(3);
    let menu_stays_open = harness.query_by_label("Show back faces").is_some();
    assert!(
        !harness.state().viewport.looks.fog,
        "the menu's checkbox turned the fog off"
    );
    let pictures = [false, true].map(|psp| {
        harness.state_mut().viewport.looks.psp = psp;
        harness.run_steps(3);
        let viewport = &harness.state().viewport;
        (
            viewport.rect,
            viewport.view_cube_rect().expand2(egui::vec2(30.0, 40.0)),
        )
    });
    let viewport = pictures[0].0;
    Plan {
        pictures,
        psp_preview,
        overlays,
        view_menu,
        fog,
        back_faces,
        menu_stays_open,
        away: egui::pos2(viewport.center().x, viewport.max.y + 6.0),
    }
}

/// The picture settled: the pointer moved away from it twice, so that at least
/// two frames were drawn after the one the caller waited for.
fn settle(driver: &mut Driver, away: egui::Pos2) {
    driver.move_to(away + egui::vec2(4.0, 0.0));
    driver.move_to(away);
    driver.frames(2);
}

#[test]
#[ignore = "drives the real editor window under Xvfb with xdotool and ImageMagick's import, four starts (about two minutes): run with `cargo test -p pebble-cli --test suite orientation_window -- --ignored` (CI does)"]
fn the_real_window_s_viewport_and_psp_preview_show_the_faces_geometry_predicts() {
    let scene = Scene::new();
    let dir = tempdir("window");
    let path = orientation_project(&scene, &dir);
    let plan = plan(&path);
    let (mut xvfb, display) = start_xvfb();
    let mut failures = Vec::new();
    for (i, view) in VIEWS.iter().enumerate() {
        let home = dir.join(format!("home{i}"));
        std::fs::create_dir_all(&home).expect("a home");
        let (mut editor, mut driver) = common::window::start_editor_with(
            &mut xvfb,
            &display,
            &home,
            &path,
            &["--cam", &view.cam_arg(), "--fov", &FOV_Y_DEG.to_string()],
        );
        // The picture alone: no grid or markers, no fog, no faint back faces.
        driver.click(plan.overlays);
        for item in [plan.fog, plan.back_faces] {
            if !plan.menu_stays_open || item == plan.fog {
                driver.click(plan.view_menu);
            }
            driver.click(item);
        }
        if plan.menu_stays_open {
            driver.key("Escape");
        }
        for psp in [false, true] {
            if psp {
                driver.click(plan.psp_preview);
            }
            settle(&mut driver, plan.away);
            driver.wait_for("the level drawn, and the PSP preview's bake", |e| {
                e.level && e.psp_preview == psp
            });
            settle(&mut driver, plan.away);
            let look = if psp { "PSP preview" } else { "working view" };
            let out = dir.join(format!(
                "window{i}_{}.png",
                if psp { "psp" } else { "normal" }
            ));
            let image = screenshot(&display, &out);
            assert_eq!(
                (image.width(), image.height()),
                (1280, 800),
                "the screen is the window's size"
            );
            let (rect, cube) = plan.pictures[usize::from(psp)];
            let aspect = if psp {
                PSP_ASPECT
            } else {
                rect.width() / rect.height()
            };
            let predicted = scene.predict(view, WIDTH, HEIGHT, aspect);
            let mut drawn = viewport_picture(&image, rect, 1.0);
            mask_view_cube(&mut drawn, rect, cube, |i| {
                predicted[i].unwrap_or(orientation::SKY)
            });
            let judged = orientation::judge(&scene, &drawn, &predicted, WIDTH as usize, 40);
            println!(
                "window {:<36} {look:<12} agreement {:.4}, {} faces in view, missing {:?}, unexpected {:?}",
                view.name, judged.agreement, judged.visible, judged.missing, judged.unexpected
            );
            assert!(
                judged.visible >= 4,
                "{}: the view shows too little to judge ({})",
                view.name,
                out.display()
            );
            if !judged.ok() {
                failures.push(format!(
                    "{} ({look}, {}): {judged:?}",
                    view.name,
                    out.display()
                ));
            }
        }
        assert!(
            editor.try_wait().expect("polls").is_none(),
            "the editor died: {}",
            driver.finish()
        );
        let _ = editor.kill();
        let _ = editor.wait();
    }
    let _ = xvfb.kill();
    let _ = xvfb.wait();
    assert!(
        failures.is_empty(),
        "the real window drew faces against geometry:\n{}",
        failures.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
