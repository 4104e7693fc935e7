//! The Preferences window's contents and the View menu's navigation choice: the
//! [`Preferences`] (the viewport's crate owns the data) edited in place.

use eframe::egui;
use pebble_core::scheme::Scheme;
use pebble_viewport::gizmo::Space;
use pebble_viewport::preferences::{Preferences, Theme};

/// Radio buttons for the navigation schemes; the chosen one is copied in.
pub fn navigation_ui(
    prefs: &mut Preferences,
    ui: &mut egui::Ui,
    schemes: &[pebble_core::presets::Listed<Scheme>],
) {
    for listed in schemes {
        let s = &listed.preset;
        let on = prefs.navigation.name == s.name;
        let button = ui.radio(on, s.name.as_str());
        let button = if s.about.is_empty() {
            button
        } else {
            button.on_hover_text(s.about.as_str())
        };
        if button.clicked() {
            prefs.navigation = s.clone();
        }
    }
}

/// The Preferences window's contents.
pub fn ui(
    prefs: &mut Preferences,
    ui: &mut egui::Ui,
    schemes: &[pebble_core::presets::Listed<Scheme>],
) {
    egui::Grid::new("preferences grid")
        .num_columns(2)
        .spacing([16.0, 6.0])
        .show(ui, |ui| {
            ui.label("Navigation");
            ui.vertical(|ui| navigation_ui(prefs, ui, schemes));
            ui.end_row();
            ui.label("Zoom per wheel notch");
            ui.add(
                egui::Slider::new(&mut prefs.zoom_step, 0.02..=0.4)
                    .custom_formatter(|v, _| format!("{:.0} %", v * 100.0)),
            );
            ui.end_row();
            ui.label("");
            ui.checkbox(&mut prefs.zoom_invert, "Invert the wheel");
            ui.end_row();
            ui.label("Fly speed");
            ui.add(
                egui::Slider::new(&mut prefs.fly_speed, 0.25..=200.0)
                    .logarithmic(true)
                    .suffix(" m/s"),
            );
            ui.end_row();
            ui.label("Snapping");
            ui.checkbox(&mut prefs.snap, "On (Ctrl inverts while dragging)");
            ui.end_row();
            ui.label("Grid step");
            ui.add(
                egui::DragValue::new(&mut prefs.snap_steps.step)
                    .range(0.001..=100.0)
                    .speed(0.01)
                    .suffix(" m"),
            );
            ui.end_row();
            ui.label("");
            ui.checkbox(
                &mut prefs.snap_steps.relative,
                "Relative: move in whole steps from where the drag began (off: onto the grid)",
            );
            ui.end_row();
            ui.label("Angle step");
            ui.add(
                egui::DragValue::new(&mut prefs.snap_steps.angle_deg)
                    .range(0.1..=180.0)
                    .speed(0.5)
                    .suffix("°"),
            );
            ui.end_row();
            ui.label("Scale step");
            ui.add(
                egui::DragValue::new(&mut prefs.snap_steps.scale_step)
                    .range(0.001..=10.0)
                    .speed(0.01),
            );
            ui.end_row();
            ui.label("Back faces");
            ui.add(
                egui::Slider::new(&mut prefs.back_face_opacity, 0.05..=1.0)
                    .text("opacity (View › Show back faces)"),
            );
            ui.end_row();
            ui.label("Theme");
            ui.horizontal(|ui| {
                for theme in Theme::ALL {
                    ui.radio_value(&mut prefs.theme, theme, theme.label());
                }
            });
            ui.end_row();
            ui.label("Gizmo axes");
            ui.horizontal(|ui| {
                ui.radio_value(&mut prefs.gizmo_space, Space::World, "World");
                ui.radio_value(&mut prefs.gizmo_space, Space::Local, "Local");
            });
            ui.end_row();
            ui.label("Autosave every");
            ui.add(
                egui::DragValue::new(&mut prefs.autosave_seconds)
                    .range(0..=3600)
                    .suffix(" s"),
            )
            .on_hover_text(
                "unsaved work goes to a recovery file beside the project (an untitled project's in the data folder) two seconds after an edit, and at the latest this often while the work keeps changing; 0 turns it off",
            );
            ui.end_row();
            ui.label("File dialogs");
            ui.checkbox(&mut prefs.own_file_dialog, "Always use Pebble's own")
                .on_hover_text(
                    "without an XDG desktop portal or zenity Pebble uses its own dialog anyway",
                );
            ui.end_row();
            let label = ui.label("PPSSPP program");
            ui.vertical(|ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut prefs.ppsspp_program)
                        .hint_text("empty: found on PATH")
                        .desired_width(320.0),
                )
                .labelled_by(label.id);
                let found = pebble_core::services::ppsspp::find_program(
                    &prefs.ppsspp_program,
                    std::env::var_os("PATH"),
                );
                match found {
                    Ok(p) => ui.weak(format!("plays in {}", p.display())),
                    Err(e) => ui.colored_label(ui.visuals().warn_fg_color, e),
                };
            });
            ui.end_row();
            let label = ui.label("PPSSPP memory stick");
            ui.add(
                egui::TextEdit::singleline(&mut prefs.ppsspp_stick)
                    .hint_text(if cfg!(any(windows, target_os = "macos")) {
                        "PPSSPP's Settings › System › Memory stick folder"
                    } else {
                        "empty: the project's own (.pebble/ppsspp)"
                    })
                    .desired_width(320.0),
            )
            .labelled_by(label.id)
            .on_hover_text(
                "Play in PPSSPP copies the runtime and the map to PSP/GAME/PEBBLE in this folder; empty, on Linux, a stick of the project's own",
            );
            ui.end_row();
        });
    if ui.button("Restore defaults").clicked() {
        prefs.restore_defaults();
    }
}
