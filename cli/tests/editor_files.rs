//! The editor's files and panels driven with egui_kittest on a wgpu adapter: Export
//! .pbm in the background (a valid map; Cancel leaves nothing), the question before
//! closing unsaved work, the recovery prompt, Save As into another folder keeping
//! the textures found, the Log panel, and reparenting by dragging in the outliner.
//! Fails without an adapter unless `PEBBLE_SKIP_GPU_TESTS=1`.

use std::path::{Path, PathBuf};

use crate::common;

use common::{click, drag_line, entity, harness_on, wait_for};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pebble_core::services::showcase::showcase_path;
use pebble_editor::app::PebbleApp;
use pebble_model::project;

/// A copy of the showcase project (and its textures) in a fresh folder.
fn showcase_copy(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-files-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let from = showcase_path();
    let from_dir = from.parent().expect("a folder");
    copy_dir(from_dir, &dir);
    dir.join(from.file_name().expect("a name"))
}

/// A copy of the showcase with a floor of 80 000 triangles added (saved as the
/// editor saves): its export, with the bake, takes longer than the frames a Cancel
/// click needs to land, where the showcase's own is done in tens of milliseconds.
fn heavy_showcase_copy(tag: &str) -> PathBuf {
    use pebble_model::command::AddEntities;
    use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
    use pebble_model::glam::Vec3;
    use pebble_model::mesh::MeshBuilder;
    use pebble_model::{Entity, History};
    let project = showcase_copy(tag);
    let mut scene = project::load(&project).expect("the copy loads");
    let material = scene
        .materials()
        .next()
        .map(|(id, _)| id)
        .expect("a material");
    let (side, cell) = (200, 0.1);
    let mut b = MeshBuilder::default();
    for z in 0..side {
        for x in 0..side {
            let (x0, z0) = (x as f32 * cell - 10.0, z as f32 * cell - 10.0);
            b.polygon(
                &[
                    Vec3::new(x0, -0.5, z0 + cell),
                    Vec3::new(x0 + cell, -0.5, z0 + cell),
                    Vec3::new(x0 + cell, -0.5, z0),
                    Vec3::new(x0, -0.5, z0),
                ],
                Vec3::Y,
                material,
            );
        }
    }
    let floor = Entity::new(
        "Heavy floor",
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Authored,
            geometry: b.mesh,
            collidable: false,
        }),
    );
    History::default()
        .execute(&mut scene, AddEntities::new("Add", vec![floor]))
        .expect("adds the floor");
    project::save(&project, &scene).expect("saves");
    project
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("creates");
    for e in std::fs::read_dir(from).expect("reads") {
        let e = e.expect("entry");
        // The editor's autosave beside a showcase someone edited would make the
        // copy open with the recovery prompt.
        if project::is_recovery_file(&e.path()) {
            continue;
        }
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copies");
        }
    }
}

#[test]
fn export_runs_in_the_background_and_cancel_leaves_no_file() {
    let project = showcase_copy("export");
    let Some(mut harness) = harness_on(project.clone()) else {
        return;
    };
    let out = project.with_file_name("out.pbm");
    harness.state_mut().export_to(out.clone());
    harness.run_steps(3);
    // The editor keeps drawing while it runs: the progress window is there.
    assert!(
        harness.query_by_label("Cancel").is_some() || harness.state().jobs.export.is_none(),
        "the progress window with Cancel"
    );
    wait_for(&mut harness, |a| a.jobs.export.is_none());
    let bytes = std::fs::read(&out).expect("the map was written");
    let (map, _) = pbm::MapView::parse(&bytes).expect("a valid map");
    assert!(map.meshes().len() > 0);

    // Cancel from the progress window, on a heavier map: the showcase exports in
    // a few tens of milliseconds, so a slow frame could let the export finish
    // before the click lands. Should one still finish first, it is written, and
    // the test tries again.
    drop(harness);
    let heavy = heavy_showcase_copy("export-heavy");
    let Some(mut harness) = harness_on(heavy.clone()) else {
        return;
    };
    let cancelled = heavy.with_file_name("stopped.pbm");
    let mut took_effect = false;
    for _ in 0..10 {
        let _ = std::fs::remove_file(&cancelled);
        harness.state_mut().export_to(cancelled.clone());
        harness.run_steps(1);
        let Some(cancel) = harness.query_by_label("Cancel") else {
            wait_for(&mut harness, |a| a.jobs.export.is_none());
            continue;
        };
        cancel.click();
        harness.run_steps(1);
        wait_for(&mut harness, |a| a.jobs.export.is_none());
        if harness
            .query_by_label_contains("export cancelled")
            .is_some()
        {
            took_effect = true;
            break;
        }
    }
    assert!(took_effect, "no export was cancelled in ten tries");
    assert!(!cancelled.exists(), "a cancelled export writes nothing");
}

#[test]
fn closing_with_unsaved_work_asks_first() {
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    // An edit: lock the back wall from the outliner (hiding is a view setting,
    // not an edit).
    let row = harness.get_by_label("Back wall  (mesh)").rect();
    let lock = harness
        .query_all_by_label("locked")
        .map(|n| n.rect().center())
        .find(|c| (c.y - row.center().y).abs() < 4.0)
        .expect("the row's lock");
    click(&mut harness, lock);
    let close = |h: &mut Harness<'_, PebbleApp>| {
        h.input_mut()
            .viewports
            .entry(egui::ViewportId::ROOT)
            .or_default()
            .events
            .push(egui::ViewportEvent::Close);
        h.run_steps(2);
    };
    close(&mut harness);
    assert!(harness.query_by_label("Unsaved changes").is_some(), "asks");
    harness.get_by_label("Cancel").click();
    harness.run_steps(2);
    assert!(harness.query_by_label("Unsaved changes").is_none());
    assert!(
        harness.state().pending.is_none(),
        "still open, still unsaved"
    );
    close(&mut harness);
    harness.get_by_label("Don't save").click();
    harness.run_steps(1);
    let closing = harness
        .output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .is_some_and(|v| v.commands.contains(&egui::ViewportCommand::Close));
    assert!(closing, "Don't save closes the window");
}

#[test]
fn unsaved_work_found_beside_a_project_can_be_restored() {
    let project = showcase_copy("recovery");
    // Work from a session that ended without saving: a renamed wall.
    let mut scene = project::load(&project).expect("loads");
    let id = scene
        .entities()
        .find(|e| e.name == "Back wall")
        .map(|e| e.id)
        .expect("the back wall");
    let mut wall = scene.entity(id).expect("entity").clone();
    wall.name = "Back wall (recovered)".into();
    let mut history = pebble_model::history::History::new(10);
    history
        .execute(
            &mut scene,
            pebble_model::command::SetEntity::new("Rename", wall),
        )
        .expect("renames");
    project::save(&project::recovery_path(&project), &scene).expect("writes the recovery file");
    // Newer than the project, as a session's autosave is (not left to the clock's
    // resolution).
    let project_time = std::fs::metadata(&project)
        .and_then(|m| m.modified())
        .expect("the project's time");
    std::fs::File::options()
        .write(true)
        .open(project::recovery_path(&project))
        .and_then(|f| f.set_modified(project_time + std::time::Duration::from_secs(2)))
        .expect("dates the recovery file");

    let Some(mut harness) = harness_on(project.clone()) else {
        return;
    };
    assert!(
        harness.query_by_label("Recover unsaved work?").is_some(),
        "asks"
    );
    harness.get_by_label("Restore").click();
    harness.run_steps(3);
    let app = harness.state();
    assert!(
        app.scene()
            .entities()
            .any(|e| e.name == "Back wall (recovered)")
    );
    assert!(app.is_dirty(), "restored work is unsaved until saved");
    // Saving removes the recovery file.
    assert!(harness.state_mut().save());
    assert!(!project::recovery_path(&project).exists());
}

#[test]
fn save_as_into_another_folder_keeps_the_textures_found() {
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("pebble-files-saveas-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates");
    let to = dir.join("copy.pebble.ron");
    assert!(harness.state_mut().save_as(to.clone()));
    harness.run_steps(2);
    let copy = project::load(&to).expect("the copy loads");
    let textures: Vec<String> = copy
        .materials()
        .filter_map(|(_, m)| m.texture.clone())
        .collect();
    assert!(!textures.is_empty());
    for t in &textures {
        let file = project::resolve_asset(&to, t);
        assert!(file.exists(), "{t} → {}", file.display());
    }
    assert!(!harness.state().is_dirty());
    // The copy heads the recent files.
    assert_eq!(
        harness.state().prefs.recent.first().map(|p| p.file_name()),
        Some(to.file_name())
    );
}

#[test]
fn the_log_panel_shows_what_happened() {
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    assert!(
        harness.query_by_label("INFO").is_none(),
        "the log is behind History"
    );
    harness
        .state_mut()
        .panels
        .raise(pebble_core::pane::Pane::Log);
    harness.run_steps(3);
    // The status bar says it, and the log panel lists it with its level.
    assert!(
        harness.query_all_by_label_contains("opened").count() >= 2,
        "the opening is logged"
    );
    assert!(harness.query_all_by_label("INFO").count() >= 1);
}

#[test]
fn dragging_a_row_onto_another_in_the_outliner_reparents_it() {
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    let (left, right) = (
        entity(harness.state(), "Left wall"),
        entity(harness.state(), "Right wall"),
    );
    let from = harness.get_by_label("Left wall  (mesh)").rect().center();
    let to = harness.get_by_label("Right wall  (mesh)").rect().center();
    drag_line(&mut harness, from, to, 6);
    harness.run_steps(1);
    assert_eq!(
        harness.state().scene().entity(left).and_then(|e| e.parent),
        Some(right)
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(
        harness.state().scene().entity(left).and_then(|e| e.parent),
        None
    );
}

/// Create › Stairs arms the viewport's create tool; a click on the courtyard floor
/// puts a flight of the usual size down on it, selected; undo removes it.
#[test]
fn the_create_menu_puts_a_selected_entity_on_the_clicked_surface_and_undo_removes_it() {
    use egui_kittest::kittest::Queryable as _;
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    let before = harness.state().scene().entities().count();
    harness.get_by_label("Create").click();
    harness.run_steps(2);
    // The menu's entry, not the toolbar's button of the same name.
    let entry = harness
        .query_all_by_label("Stairs")
        .map(|n| n.rect().center())
        .max_by(|a, b| a.y.total_cmp(&b.y))
        .expect("the menu's Stairs");
    common::click(&mut harness, entry);
    assert_eq!(
        harness.state().scene().entities().count(),
        before,
        "armed, not made"
    );
    // An empty stretch of the courtyard floor (its top at y = 0).
    let floor = common::screen(
        harness.state(),
        pebble_model::glam::Vec3::new(-5.0, 0.0, 4.0),
    );
    common::click(&mut harness, floor);
    let app = harness.state();
    assert_eq!(app.scene().entities().count(), before + 1);
    let [id] = app.scene().selection() else {
        panic!("the new entity is selected: {:?}", app.scene().selection())
    };
    let e = app.scene().entity(*id).expect("entity");
    // The showcase has its stairs: the new ones are numbered.
    assert_eq!(e.name, "Stairs 2");
    assert!(matches!(e.kind, pebble_model::EntityKind::Mesh(_)));
    let bounds = app.scene().world_aabb(*id).expect("bounds");
    assert!(bounds.min.y.abs() < 1e-4, "on the floor: {bounds:?}");
    assert_eq!(app.history_undo_name().as_deref(), Some("Create Stairs"));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(harness.state().scene().entities().count(), before);
}
