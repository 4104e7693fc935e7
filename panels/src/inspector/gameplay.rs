//! The inspector's fields for custom entities (tag and JSON); the built-in
//! gameplay kinds (spawn, triggers, patrols, ball pits, sound sources) have the
//! form their descriptors give (`defined.rs`).

use pebble_model::entity::CustomEntity;

pub(super) fn custom_ui(ui: &mut egui::Ui, c: &mut CustomEntity) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("tag");
        changed |= ui.text_edit_singleline(&mut c.tag).changed();
    });
    ui.label("JSON");
    changed |= ui
        .add(
            egui::TextEdit::multiline(&mut c.json)
                .code_editor()
                .desired_rows(4),
        )
        .changed();
    if let Err(e) = serde_json::from_str::<serde_json::Value>(&c.json) {
        ui.colored_label(egui::Color32::LIGHT_RED, format!("not valid JSON: {e}"));
    }
    changed
}
