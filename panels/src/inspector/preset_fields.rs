//! The preset controls of the inspector's forms: a name field with "Save as
//! preset", and a menu applying one of the listed presets.

use pebble_core::presets::Origin;

/// A name field and "Save as preset"; the name once pressed (the field is cleared).
pub fn save_as_preset_field(
    ui: &mut egui::Ui,
    preset_name: &mut String,
    salt: (&str, u32),
) -> Option<String> {
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("preset name");
        let field = egui::TextEdit::singleline(preset_name)
            .id_salt(salt)
            .hint_text("a name for it")
            .desired_width(120.0);
        ui.add(field).labelled_by(l.id);
        let name = preset_name.trim().to_string();
        let pressed = ui
            .add_enabled(!name.is_empty(), egui::Button::new("Save as preset"))
            .on_hover_text("kept in your data folder's presets/, listed in every project")
            .clicked();
        pressed.then(|| {
            preset_name.clear();
            name
        })
    })
    .inner
}

/// "preset: apply…" with the presets listed (yours marked), their descriptions
/// on hover; the one chosen, by its place.
pub fn preset_menu<'a>(
    ui: &mut egui::Ui,
    salt: (&str, u32),
    presets: impl Iterator<Item = (&'a String, &'a String, &'a Origin)>,
) -> Option<usize> {
    let mut chosen = None;
    ui.horizontal(|ui| {
        let l = ui.label("preset");
        egui::ComboBox::from_id_salt(salt)
            .selected_text("apply…")
            .show_ui(ui, |ui| {
                for (k, (name, about, origin)) in presets.enumerate() {
                    let text = match origin {
                        Origin::Bundled => name.clone(),
                        Origin::User(_) => format!("{name} (yours)"),
                    };
                    let item = ui.selectable_label(false, text);
                    let item = if about.is_empty() {
                        item
                    } else {
                        item.on_hover_text(about.as_str())
                    };
                    if item.clicked() {
                        chosen = Some(k);
                    }
                }
            })
            .response
            .labelled_by(l.id);
    });
    chosen
}
