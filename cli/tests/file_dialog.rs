//! Without an XDG desktop portal or zenity (as under Xvfb here, and in the test
//! harness) File > Save As, Open, Import and Export use Pebble's own dialog, say so
//! in the status bar, and work: a folder typed, a name typed, the file written;
//! Open lists the project and opens it; Esc cancels. Fails without a GPU adapter
//! unless `PEBBLE_SKIP_GPU_TESTS=1`.

use crate::common;

use common::{fresh_data_dir, harness_with_data_dir, wait_for};
use eframe::egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use pebble_core::services::showcase::showcase_path;
use pebble_editor::app::PebbleApp;

fn menu(harness: &mut Harness<'_, PebbleApp>, item: &str) {
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label(item).click();
    harness.run_steps(3);
}

/// Replaces a field's text as a person does: focus, select all, type.
fn type_into(harness: &mut Harness<'_, PebbleApp>, label: &str, text: &str) {
    harness.get_by_label(label).focus();
    harness.run_steps(1);
    harness.key_press_modifiers(eframe::egui::Modifiers::COMMAND, Key::A);
    harness.run_steps(1);
    harness.get_by_label(label).type_text(text);
    harness.run_steps(1);
}

#[test]
fn save_as_and_open_work_through_pebbles_own_dialog() {
    let data = fresh_data_dir();
    let Some(mut harness) = harness_with_data_dir(showcase_path(), true, data.clone()) else {
        return;
    };
    // The probe finds no portal here; wait for its answer.
    wait_for(&mut harness, |_| {
        pebble_editor::app::files::system_dialog_known().is_some()
    });
    assert_eq!(
        pebble_editor::app::files::system_dialog_known(),
        Some(false),
        "this test machine has no desktop portal"
    );
    let target = data.join("maps");
    std::fs::create_dir_all(&target).expect("a folder to save into");

    menu(&mut harness, "Save As…  (Ctrl+Shift+S)");
    assert!(
        harness.query_by_label("Save project as").is_some(),
        "the in-app dialog opened"
    );
    assert!(
        harness
            .query_by_label_contains("using Pebble's own")
            .is_some(),
        "the status bar says why"
    );
    // A path typed into the name field, without the extension.
    type_into(
        &mut harness,
        "File name:",
        &target.join("courtyard").display().to_string(),
    );
    harness.get_by_label("Save").click();
    harness.run_steps(3);
    let saved = target.join("courtyard.pebble.ron");
    assert!(saved.is_file(), "Save As wrote {}", saved.display());
    assert!(
        harness.query_by_label("Save project as").is_none(),
        "closed"
    );
    assert_eq!(harness.state().project_path(), saved);

    // Open lists it; clicking the row and Open opens it.
    menu(&mut harness, "Open…  (Ctrl+O)");
    assert!(harness.query_by_label("Open project").is_some());
    harness
        .get_by_label_contains("courtyard.pebble.ron")
        .click();
    harness.run_steps(2);
    harness.get_by_label("Open").click();
    harness.run_steps(4);
    assert!(harness.query_by_label("Open project").is_none());

    // Esc cancels without doing anything.
    menu(&mut harness, "Export .pbm…  (Ctrl+E)");
    assert!(harness.query_by_label("Export .pbm").is_some());
    harness.key_press(Key::Escape);
    harness.run_steps(3);
    assert!(
        harness.query_by_label("Export .pbm").is_none(),
        "Esc closes it"
    );
    assert!(harness.state().jobs.export.is_none(), "and exports nothing");
    let _ = std::fs::remove_dir_all(&data);
}
