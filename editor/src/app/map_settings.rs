//! File › Map settings: the map's name, its environment (with the environment
//! presets, which set the sun and the sky too), the export options (with the
//! export presets) and the runtime's tunables (`pebble_render.txt`, deployed
//! beside the map), each change one undo step. The window owns what is being
//! typed and returns intents; it changes nothing itself.

use eframe::egui;
use pebble_model::command::{AddEntities, SetEntity, SetSettings};
use pebble_model::entity::{EntityKind, Light};
use pebble_model::scene::{Environment, SceneSettings};
use pebble_model::{Command, CommandGroup, Entity, Scene};

use pebble_core::presets::{EnvironmentPreset, ExportParts, Presets};
use pebble_panels::Intent;

mod tunables;
pub use tunables::{Tunable, TunableKind, Tunables};

/// The window's state: open, and the texts being typed.
#[derive(Debug, Default)]
pub struct MapSettingsWindow {
    pub open: bool,
    name: Option<String>,
    output: Option<String>,
    /// The tunables as text, while "as text" is on.
    raw: Option<String>,
    /// Why the last typed name or output was refused (shown until fixed).
    refused: Option<(&'static str, String)>,
    /// The names typed for "Save as preset" (environment, export).
    preset_names: [String; 2],
}

/// The longest map name the runtime shows whole.
const NAME_CHARS: usize = 48;

impl MapSettingsWindow {
    pub fn ui(&mut self, ctx: &egui::Context, scene: &Scene, presets: &Presets) -> Vec<Intent> {
        let mut out = Vec::new();
        if !self.open {
            return out;
        }
        let mut open = self.open;
        egui::Window::new("Map settings")
            .open(&mut open)
            .collapsible(false)
            .default_size(egui::vec2(440.0, 680.0))
            .show(ctx, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    self.contents(ui, scene, presets, &mut out);
                });
            });
        self.open = open;
        out
    }

    fn contents(
        &mut self,
        ui: &mut egui::Ui,
        scene: &Scene,
        presets: &Presets,
        out: &mut Vec<Intent>,
    ) {
        let settings = scene.settings();
        let set = |out: &mut Vec<Intent>, after: SceneSettings| {
            if after != *settings {
                out.push(Intent::Execute(Box::new(SetSettings::new(after))));
            }
        };
        ui.heading("Map");
        if let Some(typed) = text_row(ui, "map name", &mut self.name, &settings.map_name) {
            let name = typed.trim().to_string();
            if name.is_empty() || name.chars().count() > NAME_CHARS {
                self.refused = Some((
                    "map name",
                    format!("a map name has 1 to {NAME_CHARS} characters"),
                ));
                self.name = Some(typed);
            } else {
                self.refused = None;
                set(
                    out,
                    SceneSettings {
                        map_name: name,
                        ..settings.clone()
                    },
                );
            }
        }
        self.refusal_ui(ui, "map name");
        ui.separator();
        ui.heading("Environment");
        let mut env = settings.environment;
        ui.horizontal(|ui| {
            let l = ui.label("sky and fog on the device");
            egui::ComboBox::from_id_salt("map environment")
                .selected_text(env.preset_name())
                .show_ui(ui, |ui| {
                    for e in Environment::ALL {
                        ui.selectable_value(&mut env, e, e.preset_name());
                    }
                })
                .response
                .labelled_by(l.id);
        });
        if env != settings.environment {
            set(
                out,
                SceneSettings {
                    environment: env,
                    ..settings.clone()
                },
            );
        }
        let chosen = pebble_panels::inspector::preset_menu(
            ui,
            ("environment preset", 0),
            presets
                .environments
                .iter()
                .map(|l| (&l.preset.name, &l.preset.about, &l.origin)),
        );
        if let Some(k) = chosen {
            out.push(Intent::Execute(environment_preset(
                scene,
                &presets.environments[k].preset,
            )));
        }
        ui.weak("a preset sets the environment and the scene's sun and sky lights");
        if let Some(name) = save_as_preset(ui, "environment", &mut self.preset_names[0])
            && let Some(preset) = environment_of(scene, name)
        {
            out.push(Intent::SavePreset(pebble_panels::SavePreset::Environment(
                preset,
            )));
        }
        ui.separator();
        ui.heading("Export");
        let export = &settings.export;
        if let Some(typed) = text_row(ui, "output file", &mut self.output, &export.output) {
            let path = typed.trim().replace('\\', "/");
            if !path.ends_with(".pbm") || path.starts_with('/') || path.contains("..") {
                self.refused = Some((
                    "output file",
                    "the output is a .pbm file inside the project folder (export/map.pbm)".into(),
                ));
                self.output = Some(typed);
            } else {
                self.refused = None;
                let mut after = settings.clone();
                after.export.output = path;
                set(out, after);
            }
        }
        self.refusal_ui(ui, "output file");
        let mut after = settings.clone();
        let e = &mut after.export;
        ui.horizontal(|ui| {
            let l = ui.label("largest texture");
            egui::ComboBox::from_id_salt("map max texture")
                .selected_text(format!("{0} × {0}", e.max_texture_size))
                .show_ui(ui, |ui| {
                    for size in [64u32, 128, 256, 512] {
                        ui.selectable_value(
                            &mut e.max_texture_size,
                            size,
                            format!("{size} × {size}"),
                        );
                    }
                })
                .response
                .labelled_by(l.id);
        });
        ui.checkbox(&mut e.bake_lighting, "bake lighting into vertex colours");
        ui.add_enabled_ui(e.bake_lighting, |ui| {
            ui.horizontal(|ui| {
                let l = ui.label("AO rays per vertex");
                ui.add(egui::Slider::new(&mut e.ao_rays, 0..=256).logarithmic(true))
                    .labelled_by(l.id);
            });
        });
        ui.horizontal(|ui| {
            let l = ui.label("vertices per chunk");
            let mut chunk = e.chunk_vertices / 3;
            ui.add(egui::Slider::new(&mut chunk, 1..=128).suffix(" triangles"))
                .labelled_by(l.id);
            e.chunk_vertices = chunk * 3;
        });
        set(out, after);
        let chosen = pebble_panels::inspector::preset_menu(
            ui,
            ("export preset", 0),
            presets
                .exports
                .iter()
                .map(|l| (&l.preset.name, &l.preset.about, &l.origin)),
        );
        if let Some(k) = chosen {
            let mut after = settings.clone();
            after.export = presets.exports[k].preset.export.onto(&settings.export);
            set(out, after);
        }
        if ExportParts::of(&settings.export) != ExportParts::of(&Default::default()) {
            ui.weak("differs from Pebble's standard export");
        }
        if let Some(name) = save_as_preset(ui, "export", &mut self.preset_names[1]) {
            out.push(Intent::SavePreset(pebble_panels::SavePreset::Export(
                pebble_core::presets::ExportPreset {
                    name,
                    about: String::new(),
                    export: ExportParts::of(&settings.export),
                },
            )));
        }
        ui.separator();
        ui.heading("On the device (pebble_render.txt)");
        self.tunables_ui(ui, settings, out);
    }

    /// The refusal of `field`'s last text, in red under it.
    fn refusal_ui(&self, ui: &mut egui::Ui, field: &str) {
        if let Some((which, why)) = &self.refused
            && *which == field
        {
            ui.colored_label(ui.visuals().error_fg_color, why);
        }
    }

    fn tunables_ui(&mut self, ui: &mut egui::Ui, settings: &SceneSettings, out: &mut Vec<Intent>) {
        let text = &settings.export.runtime_tunables;
        let with = |text: String| {
            let mut after = settings.clone();
            after.export.runtime_tunables = text;
            after
        };
        let mut as_text = self.raw.is_some();
        if ui
            .checkbox(&mut as_text, "edit as text")
            .on_hover_text("key=value lines, # for comments")
            .changed()
        {
            self.raw = as_text.then(|| text.clone());
        }
        if let Some(raw) = &mut self.raw {
            let response = ui.add(
                egui::TextEdit::multiline(raw)
                    .desired_rows(6)
                    .code_editor()
                    .desired_width(f32::INFINITY),
            );
            if response.lost_focus() && *raw != *text {
                out.push(Intent::Execute(Box::new(SetSettings::new(with(
                    raw.clone(),
                )))));
            }
            for problem in Tunables::parse(raw).problems {
                ui.colored_label(ui.visuals().warn_fg_color, problem);
            }
            return;
        }
        let mut t = Tunables::parse(text);
        let before = t.clone();
        t.ui(ui);
        for problem in &t.problems {
            ui.colored_label(ui.visuals().warn_fg_color, problem);
        }
        if t.values != before.values {
            out.push(Intent::Execute(Box::new(SetSettings::new(with(
                t.to_text(),
            )))));
        }
    }
}

/// A name field and "Save as preset"; the name once pressed.
fn save_as_preset(ui: &mut egui::Ui, what: &str, name: &mut String) -> Option<String> {
    ui.horizontal(|ui| {
        let l = ui.label(format!("{what} preset name"));
        ui.add(
            egui::TextEdit::singleline(name)
                .hint_text("a name for it")
                .desired_width(120.0),
        )
        .labelled_by(l.id);
        let trimmed = name.trim().to_string();
        let pressed = ui
            .add_enabled(!trimmed.is_empty(), egui::Button::new("Save"))
            .on_hover_text(format!(
                "save the scene's {what} settings as a preset: kept in your data folder's presets/, listed in every project"
            ))
            .clicked();
        pressed.then(|| {
            name.clear();
            trimmed
        })
    })
    .inner
}

/// The scene's environment, sun and sky as a preset called `name` (none without
/// a sun and a sky to take them from).
pub fn environment_of(scene: &Scene, name: String) -> Option<EnvironmentPreset> {
    let mut sun = None;
    let mut sky = None;
    for e in scene.entities() {
        match &e.kind {
            EntityKind::Light(Light::Sun {
                direction,
                color,
                intensity,
                ..
            }) if sun.is_none() => {
                sun = Some(pebble_core::presets::Sun {
                    direction: *direction,
                    color: *color,
                    intensity: *intensity,
                });
            }
            EntityKind::Light(Light::Hemisphere {
                sky: s,
                ground,
                ao_strength,
                ao_radius,
            }) if sky.is_none() => {
                sky = Some(pebble_core::presets::Sky {
                    sky: *s,
                    ground: *ground,
                    ao_strength: *ao_strength,
                    ao_radius: *ao_radius,
                });
            }
            _ => {}
        }
    }
    Some(EnvironmentPreset {
        name,
        about: String::new(),
        environment: scene.settings().environment,
        sun: sun?,
        sky: sky?,
    })
}

/// "label [text]", committed when the field is left with new text.
fn text_row(
    ui: &mut egui::Ui,
    label: &str,
    editing: &mut Option<String>,
    current: &str,
) -> Option<String> {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        let mut text = editing.take().unwrap_or_else(|| current.to_string());
        let response = ui.text_edit_singleline(&mut text).labelled_by(l.id);
        if response.lost_focus() {
            return (text != current).then_some(text);
        }
        if response.has_focus() {
            *editing = Some(text);
        }
        None
    })
    .inner
}

/// One step: the environment, and the scene's first sun and sky lights set to
/// the preset's (made when the scene has none).
pub fn environment_preset(scene: &Scene, preset: &EnvironmentPreset) -> Box<dyn Command> {
    let mut settings = scene.settings().clone();
    settings.environment = preset.environment;
    let mut steps: Vec<Box<dyn Command>> = vec![Box::new(SetSettings::new(settings))];
    let sun = Light::Sun {
        direction: preset
            .sun
            .direction
            .normalize_or(pebble_model::glam::Vec3::NEG_Y),
        color: preset.sun.color,
        intensity: preset.sun.intensity,
        shadows: true,
    };
    let sky = Light::Hemisphere {
        sky: preset.sky.sky,
        ground: preset.sky.ground,
        ao_strength: preset.sky.ao_strength,
        ao_radius: preset.sky.ao_radius,
    };
    let find = |want: fn(&Light) -> bool| {
        scene
            .entities()
            .find(|e| matches!(&e.kind, EntityKind::Light(l) if want(l)))
    };
    let mut new = Vec::new();
    for (light, want, name) in [
        (
            sun,
            (|l: &Light| matches!(l, Light::Sun { .. })) as fn(&Light) -> bool,
            "Sun",
        ),
        (
            sky,
            |l: &Light| matches!(l, Light::Hemisphere { .. }),
            "Sky",
        ),
    ] {
        match find(want) {
            Some(e) => {
                let mut light = light;
                // The sun keeps whether it casts shadows: that is the scene's choice.
                if let (
                    EntityKind::Light(Light::Sun { shadows: kept, .. }),
                    Light::Sun { shadows, .. },
                ) = (&e.kind, &mut light)
                {
                    *shadows = *kept;
                }
                let mut after = e.clone();
                after.kind = EntityKind::Light(light);
                steps.push(Box::new(SetEntity::new("Light", after)));
            }
            None => new.push(Entity::new(name, EntityKind::Light(light))),
        }
    }
    if !new.is_empty() {
        steps.push(Box::new(
            AddEntities::new("Lights", new).without_selecting(),
        ));
    }
    Box::new(CommandGroup::new(
        format!("Environment preset {}", preset.name),
        steps,
    ))
}

#[cfg(test)]
mod tests;
