//! Work that is never lost and menus that can be used: a never-saved project is
//! autosaved into the data folder (never the last project's folder) and offered
//! back after a crash, Save As takes its textures along; the Deploy menu's folder
//! field can be typed into without the menu closing. Fails without a GPU adapter
//! unless `PEBBLE_SKIP_GPU_TESTS=1`.

use std::time::Duration;

use crate::common;

use common::{fresh_data_dir, harness_with_data_dir};
use egui_kittest::kittest::Queryable as _;
use pebble_core::services::showcase::showcase_path;
use pebble_model::project;

#[test]
fn untitled_work_is_autosaved_to_the_data_folder_and_offered_back() {
    let data = fresh_data_dir();
    let Some(mut harness) = harness_with_data_dir(showcase_path(), true, data.clone()) else {
        return;
    };
    harness.state_mut().prefs.autosave_seconds = 1;
    harness.state_mut().new_project();
    harness.run_steps(3);
    let untitled = harness.state().project_path().to_path_buf();
    assert!(harness.state().is_untitled());
    assert!(
        untitled.starts_with(&data),
        "File > New puts {} under the data folder {}, not beside the last project",
        untitled.display(),
        data.display()
    );
    assert!(
        !untitled.starts_with(showcase_path().parent().expect("folder")),
        "not in the showcase's folder"
    );

    // Some work, then more than the autosave interval.
    harness
        .state_mut()
        .create(pebble_core::create::CreateItem::Box);
    harness.run_steps(2);
    assert!(harness.state().is_dirty());
    // The autosave comes once the interval has passed: waited for, frame by frame.
    let recovery = project::recovery_path(&untitled);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !recovery.is_file() {
        assert!(
            std::time::Instant::now() < deadline,
            "an untitled project's work is autosaved to {}",
            recovery.display()
        );
        std::thread::sleep(Duration::from_millis(50));
        harness.run_steps(1);
    }
    let boxes = project::load(&recovery)
        .expect("the autosave loads")
        .entities()
        .count();
    assert!(boxes >= 1);

    // As after kill -9: the next start, on whatever project, offers it back.
    drop(harness);
    let mut again =
        harness_with_data_dir(showcase_path(), true, data.clone()).expect("a second start");
    assert!(
        again
            .query_by_label_contains("untitled project that was never saved")
            .is_some(),
        "the recovery prompt names the untitled work"
    );
    again.get_by_label("Restore").click();
    again.run_steps(4);
    assert!(again.state().is_untitled(), "restored as untitled work");
    assert_eq!(again.state().project_path(), untitled);
    assert_eq!(again.state().scene().entities().count(), boxes);
    assert!(again.state().is_dirty(), "still unsaved");

    // Saving it elsewhere keeps the work and clears the untitled folder.
    let target = data.join("saved/level.pebble.ron");
    std::fs::create_dir_all(target.parent().expect("folder")).expect("mkdir");
    assert!(again.state_mut().save_as(target.clone()));
    assert!(project::load(&target).is_ok());
    assert!(
        !untitled.parent().expect("folder").exists(),
        "the untitled folder is gone once saved"
    );
    assert!(project::untitled_recoveries(&data).is_empty());
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn the_deploy_menus_folder_field_takes_typing_without_closing() {
    let Some(mut harness) = harness_with_data_dir(showcase_path(), true, fresh_data_dir()) else {
        return;
    };
    harness.get_by_label("Deploy").click();
    harness.run_steps(2);
    let field = harness.get_by_label("Folder:");
    field.click();
    harness.run_steps(2);
    assert!(
        harness.query_by_label("Find memory sticks").is_some(),
        "clicking into the folder field keeps the menu open"
    );
    harness.get_by_label("Folder:").focus();
    harness.run_steps(1);
    harness.get_by_label("Folder:").type_text("/media/stick");
    harness.run_steps(2);
    assert!(
        harness.query_by_label("Find memory sticks").is_some(),
        "typing keeps it open"
    );
    assert!(
        harness.state().jobs.deploy.target.ends_with("/media/stick"),
        "typed: {:?}",
        harness.state().jobs.deploy.target
    );
}

/// A crash (any panic while the editor runs, as when the window system's
/// connection goes) keeps the unsaved work: the recovery file is written as the
/// app unwinds, and the next start offers it back.
#[test]
fn a_crash_keeps_the_unsaved_work_for_the_next_start() {
    let dir = std::env::temp_dir().join(format!("pebble-crash-app-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_pebble"))
        .arg("showcase")
        .arg(&dir)
        .status()
        .expect("pebble showcase runs");
    assert!(status.success());
    let project_path = dir.join("showcase.pebble.ron");
    let data = fresh_data_dir();
    let (path, d) = (project_path.clone(), data.clone());
    let crashed = std::thread::spawn(move || {
        let mut harness = harness_with_data_dir(path, true, d).expect("the app starts");
        harness
            .state_mut()
            .create(pebble_core::create::CreateItem::Box);
        harness.run_steps(2);
        assert!(harness.state().is_dirty());
        panic!("a crash in the middle of work");
    })
    .join();
    assert!(crashed.is_err(), "the thread panicked");
    let recovery = project::recovery_path(&project_path);
    assert!(
        recovery.is_file(),
        "the work was kept in {}",
        recovery.display()
    );
    let before = project::load(&project_path)
        .expect("project")
        .entities()
        .count();
    let kept = project::load(&recovery)
        .expect("recovery")
        .entities()
        .count();
    assert_eq!(kept, before + 1, "with the box");
    let again = harness_with_data_dir(project_path, true, data).expect("the next start");
    assert!(
        again.query_by_label("Recover unsaved work?").is_some(),
        "the next start offers it back"
    );
    drop(again);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The PSP budget follows the project in place: after File › New, the showcase's
/// figures are not shown for the empty project (its revisions start again and used
/// to match the old figures until the first edit).
#[test]
fn the_budget_forgets_the_last_project_after_new() {
    let Some(mut harness) = harness_with_data_dir(showcase_path(), true, fresh_data_dir()) else {
        return;
    };
    common::wait_for(&mut harness, |app| app.budget.cost.is_some());
    let showcase = harness
        .state()
        .budget
        .cost
        .as_ref()
        .map(|(_, c)| c.mesh_triangles)
        .expect("measured");
    assert!(showcase > 0);
    harness.state_mut().new_project();
    harness.run_steps(2);
    assert!(
        !harness
            .state()
            .budget
            .summary()
            .contains(&showcase.to_string()),
        "the showcase's {showcase} triangles are still shown: {}",
        harness.state().budget.summary()
    );
    common::wait_for(&mut harness, |app| app.budget.cost.is_some());
    assert_eq!(
        harness
            .state()
            .budget
            .cost
            .as_ref()
            .map(|(_, c)| c.mesh_triangles),
        Some(0),
        "the empty project is measured"
    );
}
