//! The material editor, shared by the inspector (each material of the selected
//! mesh) and the Materials panel (the material chosen there): its name, how many
//! objects use it (an edit to a shared one says it changes them all), the texture
//! (one of the project's, or a picture from a file), alpha mode, colour, tiling in
//! metres per repeat, offset, rotation, scroll with its speed across the surface,
//! double-sided and the atlas opt-out, presets. It owns only the names being
//! typed; every change is an intent.

use pebble_model::command::SetMaterial;
use pebble_model::entity::limits;
use pebble_model::material::AlphaMode;
use pebble_model::{EditKey, MaterialId, Scene};

use super::form::{Form, RowName};
use pebble_core::intent::Intent;
use pebble_core::presets::Presets;

/// What the editor reads besides the material.
#[derive(Debug, Clone, Copy)]
pub struct MaterialContext<'a> {
    pub scene: &'a Scene,
    pub presets: &'a Presets,
    /// The project's textures ([`crate::thumbnails::project_textures`]).
    pub textures: &'a [String],
}

/// The names being typed (material name, preset name), kept between frames.
#[derive(Debug, Default)]
pub struct MaterialEditor {
    name_edit: Option<(MaterialId, String)>,
    preset_name: String,
}

/// "Used by …" for a material used by `objects` objects on `faces` faces.
pub fn use_text(objects: usize, faces: usize) -> String {
    match (objects, faces) {
        (0, _) => "not used by any object".into(),
        (1, 1) => "used by 1 object (1 face)".into(),
        (1, f) => format!("used by 1 object ({f} faces)"),
        (o, f) => format!("used by {o} objects ({f} faces): a change here changes all {o}"),
    }
}

impl MaterialEditor {
    /// The editor for material `mid`; what it asks for goes to `intents`.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        cx: MaterialContext,
        mid: MaterialId,
        intents: &mut Vec<Intent>,
    ) {
        let Some(m) = cx.scene.material(mid) else {
            return;
        };
        let mut after = m.clone();
        let mut changed = false;
        // The name: typed, committed as one step when the field is left.
        ui.horizontal(|ui| {
            let l = ui.label("material");
            let text = match &mut self.name_edit {
                Some((id, text)) if *id == mid => text,
                _ => {
                    self.name_edit = Some((mid, m.name.clone()));
                    &mut self.name_edit.as_mut().expect("just set").1
                }
            };
            let r = ui.add(
                egui::TextEdit::singleline(text)
                    .id_salt(("material name", mid.0))
                    .desired_width(150.0),
            );
            r.clone().labelled_by(l.id);
            if r.lost_focus() {
                let name = text.trim().to_string();
                if name.is_empty() {
                    *text = m.name.clone();
                } else if name != m.name {
                    let mut renamed = m.clone();
                    renamed.name = name;
                    intents.push(Intent::Execute(Box::new(SetMaterial::new(mid, renamed))));
                }
            } else if !r.has_focus() && *text != m.name {
                // Renamed elsewhere (undo): show the name it has.
                *text = m.name.clone();
            }
        });
        let (objects, faces) = cx.scene.material_use(mid);
        let text = use_text(objects, faces);
        if objects > 1 {
            ui.colored_label(egui::Color32::from_rgb(230, 190, 90), text);
        } else {
            ui.weak(text);
        }
        // The texture.
        ui.horizontal(|ui| {
            let l = ui.label("texture");
            let shown = m
                .texture
                .clone()
                .unwrap_or_else(|| "none (vertex colour)".into());
            egui::ComboBox::from_id_salt(("texture", mid.0))
                .selected_text(shown)
                .width(170.0)
                .show_ui(ui, |ui| {
                    changed |= ui
                        .selectable_value(&mut after.texture, None, "none (vertex colour)")
                        .changed();
                    for t in cx.textures {
                        changed |= ui
                            .selectable_value(&mut after.texture, Some(t.clone()), t)
                            .changed();
                    }
                    ui.separator();
                    if ui.button("From a file…").clicked() {
                        intents.push(Intent::PickTexture(Some(mid)));
                    }
                })
                .response
                .labelled_by(l.id);
        });
        let mut form = Form::new("material", mid.0);
        let parts = |v: pebble_model::glam::Vec2| [("U", f64::from(v.x)), ("V", f64::from(v.y))];
        if let Some((k, v)) = form.row(
            ui,
            "tiling",
            &parts(after.tiling),
            &limits::TILING,
            " per repeat",
            RowName::Beside,
        ) {
            after.tiling[k] = v as f32;
        }
        if let Some((k, v)) = form.row(
            ui,
            "offset",
            &parts(after.offset),
            &limits::UV_OFFSET,
            "",
            RowName::Beside,
        ) {
            after.offset[k] = v as f32;
        }
        form.degrees(ui, "rotation", &mut after.rotation, &limits::ROTATION, "");
        if let Some((k, v)) = form.row(
            ui,
            "UV scroll",
            &parts(after.uv_scroll),
            &limits::UV_SCROLL,
            "",
            RowName::Beside,
        ) {
            after.uv_scroll[k] = v as f32;
        }
        let mps = after.scroll_metres_per_second();
        ui.label(format!(
            "= ({:.2}, {:.2}) m/s across the surface",
            mps.x, mps.y
        ));
        ui.horizontal(|ui| {
            let l = ui.label("alpha");
            egui::ComboBox::from_id_salt(("alpha", mid.0))
                .selected_text(alpha_label(after.alpha))
                .show_ui(ui, |ui| {
                    for mode in [AlphaMode::None, AlphaMode::Cutout, AlphaMode::Blend] {
                        changed |= ui
                            .selectable_value(&mut after.alpha, mode, alpha_label(mode))
                            .changed();
                    }
                })
                .response
                .labelled_by(l.id);
            ui.label("colour");
            changed |= ui
                .color_edit_button_rgba_unmultiplied(&mut after.color)
                .changed();
        });
        changed |= ui
            .checkbox(&mut after.double_sided, "double-sided")
            .changed();
        changed |= glow_ui(ui, &mut after.emissive);
        // Wrapped: in the Materials panel, narrower than the inspector, the row
        // ran past the pane's edge.
        ui.horizontal_wrapped(|ui| {
            ui.label("edges").on_hover_text(
                "how the texture continues past 0..1: repeat, or clamp to its edge texels, along U and V (as the GE can; a glTF sampler's wrap)",
            );
            changed |= ui
                .checkbox(&mut after.sampling.clamp_u, "clamp U")
                .changed();
            changed |= ui
                .checkbox(&mut after.sampling.clamp_v, "clamp V")
                .changed();
            changed |= ui
                .checkbox(&mut after.sampling.nearest, "nearest texels")
                .on_hover_text(
                    "sharp texels up close instead of bilinear filtering (pixel art; a glTF sampler's NEAREST)",
                )
                .changed();
        });
        changed |= ui
            .checkbox(&mut after.tile, "share a tile atlas on the PSP")
            .on_hover_text(
                "a small texture that does not repeat is packed with others into one atlas, so the device binds one texture for many; blended, scrolling, clamped and nearest-filtered ones never are",
            )
            .changed();
        let chosen = super::preset_fields::preset_menu(
            ui,
            ("material preset", mid.0),
            cx.presets
                .materials
                .iter()
                .map(|l| (&l.preset.name, &l.preset.about, &l.origin)),
        );
        if let Some(preset) = chosen {
            intents.push(Intent::ApplyMaterialPreset {
                material: mid,
                preset,
            });
        }
        if let Some(name) = super::preset_fields::save_as_preset_field(
            ui,
            &mut self.preset_name,
            ("material", mid.0),
        ) {
            intents.push(Intent::SavePreset(
                pebble_core::intent::SavePreset::Material(name, m.clone()),
            ));
        }
        if after != *m {
            if form.committed.is_some() {
                intents.push(Intent::EndEdit);
                intents.push(Intent::Commit {
                    command: Box::new(SetMaterial::new(mid, after)),
                    field: form.committed,
                });
            } else if changed {
                intents.push(Intent::Continue(
                    Box::new(SetMaterial::new(mid, after)),
                    EditKey::Material { id: mid.0 },
                ));
            }
        }
    }
}

fn alpha_label(mode: AlphaMode) -> &'static str {
    match mode {
        AlphaMode::None => "opaque",
        AlphaMode::Cutout => "cutout (alpha test)",
        AlphaMode::Blend => "blended",
    }
}

/// The light a surface gives off, as a colour and a strength (a glTF's
/// emissive factor and emissive strength): the bake adds it to the vertex
/// colours whatever the lights.
fn glow_ui(ui: &mut egui::Ui, emissive: &mut [f32; 3]) -> bool {
    let mut strength = emissive.iter().copied().fold(0.0f32, f32::max);
    let mut colour = if strength > 0.0 {
        emissive.map(|c| c / strength)
    } else {
        [1.0; 3]
    };
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("glow").on_hover_text(
            "light the surface gives off (lava, a lamp's shade): the bake adds it to the vertex colours whatever the lights; 0 for none",
        );
        changed |= ui
            .add(
                egui::DragValue::new(&mut strength)
                    .range(0.0..=50.0)
                    .speed(0.05),
            )
            .labelled_by(l.id)
            .changed();
        changed |= ui.color_edit_button_rgb(&mut colour).changed();
    });
    if changed {
        *emissive = colour.map(|c| (c * strength).max(0.0));
    }
    changed
}
