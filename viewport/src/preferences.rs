//! Preferences: what the user sets once and expects to find next time (navigation
//! preset, zoom, fly speed, snapping steps, gizmo space, autosave interval, recent
//! files, the colour theme), saved with eframe's storage beside the window layout. The viewport
//! reads most of them; the shell's Preferences window edits them.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::gizmo::{Snap, Space};
use crate::navigation::{Scheme, ZOOM_STEP};

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
    pub views: Vec<(PathBuf, crate::navigation::OrbitCamera)>,
    /// The editor's colours.
    pub theme: Theme,
}

/// The editor's colours: dark by default on every system (the viewport's dark
/// backdrop and its overlays were chosen against it, and the same Pebble looks
/// the same on Windows, where the system's choice is usually light), light, or
/// whatever the system says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Theme {
    #[default]
    Dark,
    Light,
    System,
}

impl Theme {
    pub const ALL: [Self; 3] = [Self::Dark, Self::Light, Self::System];

    pub fn label(self) -> &'static str {
        match self {
            Self::Dark => "Dark",
            Self::Light => "Light",
            Self::System => "The system's",
        }
    }

    /// egui's setting for it.
    pub fn egui(self) -> egui::ThemePreference {
        match self {
            Self::Dark => egui::ThemePreference::Dark,
            Self::Light => egui::ThemePreference::Light,
            Self::System => egui::ThemePreference::System,
        }
    }
}

/// How many recent projects the File menu lists.
pub const RECENT_MAX: usize = 10;

/// How many projects' cameras are remembered.
pub const MAX_VIEWS: usize = 32;

impl Preferences {
    /// Every preference back to its default, but the recent files.
    pub fn restore_defaults(&mut self) {
        let recent = std::mem::take(&mut self.recent);
        *self = Self {
            recent,
            ..Self::default()
        };
    }

    /// Remembers `view` as `project`'s camera.
    pub fn remember_view(
        &mut self,
        project: &std::path::Path,
        view: crate::navigation::OrbitCamera,
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
    pub fn view_of(&self, project: &std::path::Path) -> Option<crate::navigation::OrbitCamera> {
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
            theme: Theme::default(),
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
        self.recent.truncate(RECENT_MAX);
        self
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
        assert_eq!(old.navigation.middle, crate::navigation::DragAction::Orbit);
        let text = ron::to_string(&old).expect("serialises");
        assert!(!text.contains("nav_preset"), "{text}");
    }
}
