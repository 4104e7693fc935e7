//! Preferences: what the user sets once and expects to find next time (navigation
//! preset, zoom, fly speed, snapping steps, gizmo space, autosave interval, recent
//! files), saved with eframe's storage beside the window layout, and the
//! Preferences window that edits them.

use std::path::PathBuf;

use eframe::egui;
use serde::{Deserialize, Serialize};

use super::gizmo::{Snap, Space};
use super::navigation::{Scheme, ZOOM_STEP};

/// The storage key.
pub const KEY: &str = "pebble.preferences";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Preferences {
    /// The mouse navigation scheme (a copy of the preset chosen).
    pub navigation: Scheme,
    /// What preferences saved before the schemes were files held: one of three
    /// names, turned into the scheme of that name on load.
    #[serde(skip_serializing)]
    nav_preset: LegacyPreset,
    /// Zoom per wheel notch, 0.02–0.4.
    pub zoom_step: f32,
    pub zoom_invert: bool,
    /// Metres per second when flying.
    pub fly_speed: f32,
    pub snap: bool,
    pub snap_steps: Snap,
    pub gizmo_space: Space,
    /// Box select takes hidden meshes too (Alt at the release inverts it).
    pub box_select_occluded: bool,
    /// Moved objects keep their textures on them (off: textures stay still in the
    /// world, as for a wall slid along a textured row).
    pub texture_lock: bool,
    /// How strongly back faces show (View › Show back faces), 0.05–1.
    pub back_face_opacity: f32,
    /// Seconds between autosaves of unsaved work (0: never).
    pub autosave_seconds: u32,
    pub recent: Vec<PathBuf>,
    /// Pebble's own file dialog even where the system has one.
    pub own_file_dialog: bool,
    /// PPSSPP's program (empty: found on `PATH`).
    pub ppsspp_program: String,
    /// PPSSPP's own memory stick folder to play in (empty: a stick of the
    /// project's own, where PPSSPP can be pointed at one).
    pub ppsspp_stick: String,
    /// Where the camera was in each project last worked on, newest first (the
    /// view is the designer's, not the map's: it is kept here, not in the
    /// project, and a reopened or recovered project starts where they left it).
    pub views: Vec<(PathBuf, super::navigation::OrbitCamera)>,
}

/// How many projects' cameras are remembered.
pub const MAX_VIEWS: usize = 32;

impl Preferences {
    /// Remembers `view` as `project`'s camera.
    pub fn remember_view(
        &mut self,
        project: &std::path::Path,
        view: super::navigation::OrbitCamera,
    ) {
        if self
            .views
            .first()
            .is_some_and(|(p, v)| p == project && *v == view)
        {
            return;
        }
        self.views.retain(|(p, _)| p != project);
        self.views.insert(0, (project.to_path_buf(), view));
        self.views.truncate(MAX_VIEWS);
    }

    /// The camera last used in `project`, if it is a sane one.
    pub fn view_of(&self, project: &std::path::Path) -> Option<super::navigation::OrbitCamera> {
        self.views
            .iter()
            .find(|(p, _)| p == project)
            .map(|(_, v)| *v)
            .filter(|v| {
                v.pivot.is_finite()
                    && v.distance.is_finite()
                    && v.distance > 0.0
                    && v.yaw.is_finite()
                    && v.pitch.is_finite()
                    && (1.0..=170.0).contains(&v.fov_y_deg)
            })
    }
}

/// The navigation presets as earlier preferences named them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
enum LegacyPreset {
    /// Not in the file (preferences saved since).
    #[default]
    Unset,
    Fusion360,
    Blender,
    UnityUnreal,
}

impl Default for Preferences {
    fn default() -> Self {
        Self {
            navigation: Scheme::default(),
            nav_preset: LegacyPreset::Unset,
            zoom_step: ZOOM_STEP,
            zoom_invert: false,
            fly_speed: 5.0,
            snap: false,
            snap_steps: Snap::default(),
            gizmo_space: Space::default(),
            box_select_occluded: false,
            texture_lock: true,
            back_face_opacity: 0.35,
            autosave_seconds: 60,
            recent: Vec::new(),
            own_file_dialog: false,
            ppsspp_program: String::new(),
            ppsspp_stick: String::new(),
            views: Vec::new(),
        }
    }
}

impl Preferences {
    /// Keeps every value in its range (a hand-edited or old file may not).
    pub fn sanitized(mut self) -> Self {
        let d = Self::default();
        let old = std::mem::take(&mut self.nav_preset);
        let name = match old {
            LegacyPreset::Unset => None,
            LegacyPreset::Fusion360 => Some("Fusion 360"),
            LegacyPreset::Blender => Some("Blender"),
            LegacyPreset::UnityUnreal => Some("Unity / Unreal"),
        };
        if let Some(name) = name {
            self.navigation = pebble_core::presets::bundled_scheme(name).unwrap_or_default();
        }
        let ok = |v: f32, lo: f32, hi: f32| v.is_finite() && (lo..=hi).contains(&v);
        if !ok(self.zoom_step, 0.02, 0.4) {
            self.zoom_step = d.zoom_step;
        }
        if !ok(self.fly_speed, 0.25, 200.0) {
            self.fly_speed = d.fly_speed;
        }
        if !ok(self.back_face_opacity, 0.05, 1.0) {
            self.back_face_opacity = d.back_face_opacity;
        }
        if !ok(self.snap_steps.step, 0.001, 100.0) {
            self.snap_steps.step = d.snap_steps.step;
        }
        if !ok(self.snap_steps.angle_deg, 0.1, 180.0) {
            self.snap_steps.angle_deg = d.snap_steps.angle_deg;
        }
        if !ok(self.snap_steps.scale_step, 0.001, 10.0) {
            self.snap_steps.scale_step = d.snap_steps.scale_step;
        }
        self.recent.truncate(super::files::RECENT_MAX);
        self
    }

    /// Radio buttons for the navigation schemes; the chosen one is copied in.
    pub fn navigation_ui(
        &mut self,
        ui: &mut egui::Ui,
        schemes: &[pebble_core::presets::Listed<Scheme>],
    ) {
        for listed in schemes {
            let s = &listed.preset;
            let on = self.navigation.name == s.name;
            let button = ui.radio(on, s.name.as_str());
            let button = if s.about.is_empty() {
                button
            } else {
                button.on_hover_text(s.about.as_str())
            };
            if button.clicked() {
                self.navigation = s.clone();
            }
        }
    }

    /// The Preferences window's contents.
    pub fn ui(&mut self, ui: &mut egui::Ui, schemes: &[pebble_core::presets::Listed<Scheme>]) {
        egui::Grid::new("preferences grid")
            .num_columns(2)
            .spacing([16.0, 6.0])
            .show(ui, |ui| {
                ui.label("Navigation");
                ui.vertical(|ui| self.navigation_ui(ui, schemes));
                ui.end_row();
                ui.label("Zoom per wheel notch");
                ui.add(
                    egui::Slider::new(&mut self.zoom_step, 0.02..=0.4)
                        .custom_formatter(|v, _| format!("{:.0} %", v * 100.0)),
                );
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut self.zoom_invert, "Invert the wheel");
                ui.end_row();
                ui.label("Fly speed");
                ui.add(
                    egui::Slider::new(&mut self.fly_speed, 0.25..=200.0)
                        .logarithmic(true)
                        .suffix(" m/s"),
                );
                ui.end_row();
                ui.label("Snapping");
                ui.checkbox(&mut self.snap, "On (Ctrl inverts while dragging)");
                ui.end_row();
                ui.label("Grid step");
                ui.add(
                    egui::DragValue::new(&mut self.snap_steps.step)
                        .range(0.001..=100.0)
                        .speed(0.01)
                        .suffix(" m"),
                );
                ui.end_row();
                ui.label("");
                ui.checkbox(
                    &mut self.snap_steps.relative,
                    "Relative: move in whole steps from where the drag began (off: onto the grid)",
                );
                ui.end_row();
                ui.label("Angle step");
                ui.add(
                    egui::DragValue::new(&mut self.snap_steps.angle_deg)
                        .range(0.1..=180.0)
                        .speed(0.5)
                        .suffix("°"),
                );
                ui.end_row();
                ui.label("Scale step");
                ui.add(
                    egui::DragValue::new(&mut self.snap_steps.scale_step)
                        .range(0.001..=10.0)
                        .speed(0.01),
                );
                ui.end_row();
                ui.label("Back faces");
                ui.add(
                    egui::Slider::new(&mut self.back_face_opacity, 0.05..=1.0)
                        .text("opacity (View › Show back faces)"),
                );
                ui.end_row();
                ui.label("Gizmo axes");
                ui.horizontal(|ui| {
                    ui.radio_value(&mut self.gizmo_space, Space::World, "World");
                    ui.radio_value(&mut self.gizmo_space, Space::Local, "Local");
                });
                ui.end_row();
                ui.label("Autosave every");
                ui.add(
                    egui::DragValue::new(&mut self.autosave_seconds)
                        .range(0..=3600)
                        .suffix(" s"),
                )
                .on_hover_text(
                    "unsaved work goes to a recovery file beside the project (an untitled project's in the data folder) two seconds after an edit, and at the latest this often while the work keeps changing; 0 turns it off",
                );
                ui.end_row();
                ui.label("File dialogs");
                ui.checkbox(&mut self.own_file_dialog, "Always use Pebble's own")
                    .on_hover_text(
                        "without an XDG desktop portal or zenity Pebble uses its own dialog anyway",
                    );
                ui.end_row();
                let label = ui.label("PPSSPP program");
                ui.vertical(|ui| {
                    ui.add(
                        egui::TextEdit::singleline(&mut self.ppsspp_program)
                            .hint_text("empty: found on PATH")
                            .desired_width(320.0),
                    )
                    .labelled_by(label.id);
                    let found = pebble_core::services::ppsspp::find_program(
                        &self.ppsspp_program,
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
                    egui::TextEdit::singleline(&mut self.ppsspp_stick)
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
            let recent = std::mem::take(&mut self.recent);
            *self = Self {
                recent,
                ..Self::default()
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_round_trip_and_bad_values_fall_back() {
        let p = Preferences {
            navigation: pebble_core::presets::bundled_scheme("Blender").expect("bundled"),
            zoom_step: 0.2,
            snap_steps: Snap {
                step: 0.5,
                angle_deg: 5.0,
                scale_step: 0.25,
                relative: true,
            },
            recent: vec![PathBuf::from("/maps/a.pebble.ron")],
            ..Preferences::default()
        };
        let text = ron::to_string(&p).expect("serialises");
        let back: Preferences = ron::from_str(&text).expect("parses");
        assert_eq!(back, p);
        // Missing fields take their defaults; out-of-range ones are reset.
        let old: Preferences = ron::from_str("(zoom_step: 9.0, fly_speed: -1.0)").expect("parses");
        let old = old.sanitized();
        assert_eq!(old.zoom_step, ZOOM_STEP);
        assert_eq!(old.fly_speed, Preferences::default().fly_speed);
    }

    /// Preferences saved before the schemes were files named one of three.
    #[test]
    fn an_old_navigation_preset_becomes_its_scheme() {
        let old: Preferences = ron::from_str("(nav_preset: Blender)").expect("parses");
        let old = old.sanitized();
        assert_eq!(old.navigation.name, "Blender");
        assert_eq!(
            old.navigation.middle,
            crate::app::viewport::navigation::DragAction::Orbit
        );
        let text = ron::to_string(&old).expect("serialises");
        assert!(!text.contains("nav_preset"), "{text}");
    }
}
