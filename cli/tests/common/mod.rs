//! Helpers shared by the editor's kittest tests: the app on a project, where a world
//! point appears, clicks and drags as a person makes them.

// Each test binary uses its own share of these.
#![allow(dead_code)]

pub mod orientation;
#[path = "post_gltf.rs"]
pub mod post_gltf_file;
pub mod room;
pub mod window;
#[allow(unused_imports)] // not every test binary uses it
pub use post_gltf_file::post_gltf;

use std::path::PathBuf;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pebble_core::services::showcase::showcase_path;
use pebble_editor::app::PebbleApp;
use pebble_model::glam::Vec3;
use pebble_model::{EntityId, project};

/// The app on `path` (clock paused), or `None` without a GPU adapter (which skips
/// loudly only under `PEBBLE_SKIP_GPU_TESTS=1`; otherwise a missing adapter fails).
pub fn harness_on(path: PathBuf) -> Option<Harness<'static, PebbleApp>> {
    harness_with_ui_cache(path, true)
}

/// [`harness_on`], with the UI cache on or off.
pub fn harness_with_ui_cache(path: PathBuf, ui_cache: bool) -> Option<Harness<'static, PebbleApp>> {
    harness_with_data_dir(path, ui_cache, fresh_data_dir())
}

/// A fresh, empty data folder (untitled projects, autosaves) for one harness, so
/// that nothing the user or another test left there reaches the app.
pub fn fresh_data_dir() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pebble-data-{}-{k}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a data folder");
    dir
}

/// The app on `path` with its data folder at `data_dir`.
pub fn harness_with_data_dir(
    path: PathBuf,
    ui_cache: bool,
    data_dir: PathBuf,
) -> Option<Harness<'static, PebbleApp>> {
    harness_of_size(path, ui_cache, data_dir, egui::Vec2::new(1280.0, 800.0))
}

/// The app on `path` in a window of `size` points (the other helpers: 1280×800,
/// the size the pictures and layouts in the tests are made at).
pub fn harness_of_size(
    path: PathBuf,
    ui_cache: bool,
    data_dir: PathBuf,
    size: egui::Vec2,
) -> Option<Harness<'static, PebbleApp>> {
    pebble_render::gpu::test_gpu("editor")?;
    let path = away_from_the_bundle(path);
    let scene = project::load(&path).expect("the project loads");
    let mut harness = Harness::builder()
        .with_size(size)
        .wgpu()
        .build_eframe(move |cc| {
            PebbleApp::with_data_dir(cc, scene, path, ui_cache, data_dir).expect("the app starts")
        });
    harness.state_mut().pause();
    harness.run_steps(3);
    // The patrol spheres and balls come from a level built in the background:
    // every test starts with them in place, so that pictures compare.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !harness
        .state()
        .viewport
        .solids_ready(harness.state().scene())
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the level was never built"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
        harness.run_steps(1);
    }
    Some(harness)
}

/// The bundled showcase is never opened in place: a test that fails with unsaved
/// edits would leave its crash recovery file beside the bundle (the app keeps
/// unsaved work when it is dropped while panicking), and every later test would
/// meet the recovery prompt. Its copy lives in a fresh folder (the same files).
fn away_from_the_bundle(path: PathBuf) -> PathBuf {
    if path != showcase_path() {
        return path;
    }
    showcase_copy()
}

/// A copy of the bundled showcase in a fresh folder.
pub fn showcase_copy() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pebble-showcase-{}-{k}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(
        showcase_path().parent().expect("the showcase's folder"),
        &dir,
    );
    dir.join(showcase_path().file_name().expect("a name"))
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("creates");
    for e in std::fs::read_dir(from).expect("reads") {
        let e = e.expect("entry");
        let name = e.file_name();
        if name.to_string_lossy().ends_with(".recovery") {
            continue;
        }
        let target = to.join(name);
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copies");
        }
    }
}

/// The app on the bundled showcase (a copy of it).
pub fn harness() -> Option<Harness<'static, PebbleApp>> {
    harness_on(showcase_path())
}

/// Where a world point appears on screen, in points.
pub fn screen(app: &PebbleApp, p: Vec3) -> egui::Pos2 {
    let (camera, rect) = app.view();
    let clip = camera.clip_from_world(rect.width() / rect.height()) * p.extend(1.0);
    let ndc = clip.truncate() / clip.w;
    egui::pos2(
        rect.min.x + (ndc.x * 0.5 + 0.5) * rect.width(),
        rect.min.y + (0.5 - ndc.y * 0.5) * rect.height(),
    )
}

pub fn entity(app: &PebbleApp, name: &str) -> EntityId {
    app.scene()
        .entities()
        .find(|e| e.name == name)
        .map(|e| e.id)
        .unwrap_or_else(|| panic!("no entity {name}"))
}

pub fn click(harness: &mut Harness<'_, PebbleApp>, pos: egui::Pos2) {
    harness.hover_at(pos);
    harness.run_steps(1);
    harness.drag_at(pos);
    harness.run_steps(1);
    harness.drop_at(pos);
    harness.run_steps(2);
}

/// The left button pressed at `from`, then `steps` moves to `to`, a frame each;
/// the button stays down.
pub fn press_and_move(
    harness: &mut Harness<'_, PebbleApp>,
    from: egui::Pos2,
    to: egui::Pos2,
    steps: usize,
) {
    harness.hover_at(from);
    harness.run_steps(1);
    harness.drag_at(from);
    harness.run_steps(1);
    for k in 1..=steps {
        harness.hover_at(from + (to - from) * (k as f32 / steps as f32));
        harness.run_steps(1);
    }
}

/// A left-button drag from `from` to `to` in `steps` moves, a frame each.
pub fn drag_line(
    harness: &mut Harness<'_, PebbleApp>,
    from: egui::Pos2,
    to: egui::Pos2,
    steps: usize,
) {
    press_and_move(harness, from, to, steps);
    harness.drop_at(to);
    harness.run_steps(2);
}

/// The "visible" checkbox of an outliner row (the row's first; the second is
/// "locked").
pub fn visible_checkbox(harness: &Harness<'_, PebbleApp>, row_label: &str) -> egui::Pos2 {
    let row = harness.get_by_label(row_label).rect();
    harness
        .query_all_by_role(egui::accesskit::Role::CheckBox)
        .map(|n| n.rect().center())
        .filter(|c| (c.y - row.center().y).abs() < 4.0 && c.x < row.left())
        .min_by(|a, b| a.x.total_cmp(&b.x))
        .expect("the visible checkbox")
}

/// Runs frames (50 ms apart) until `done`, at most four minutes.
pub fn wait_for(harness: &mut Harness<'_, PebbleApp>, done: impl Fn(&PebbleApp) -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(240);
    while !done(harness.state()) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
        harness.run_steps(1);
    }
    assert!(done(harness.state()), "timed out");
}
