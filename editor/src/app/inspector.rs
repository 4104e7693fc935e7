//! The inspector: typed editors, with units, for the selected entity and the
//! materials of a selected mesh. Every edit is a command; a drag on a value merges
//! into one undo step (a continuous edit keyed by entity and field), closed when the
//! pointer is released.

use eframe::egui;
use pebble_model::command::{SetEntity, SetMaterial, SetTransforms};
use pebble_model::entity::{EntityKind, Light};
use pebble_model::glam::{EulerRot, Quat, Vec3};
use pebble_model::material::AlphaMode;
use pebble_model::{Entity, EntityId, Material, MaterialId};

use super::PebbleApp;

/// A continuous-edit key for one field of one thing.
fn edit_key(id: u32, field: u32) -> u64 {
    (u64::from(id) << 16) | u64::from(field)
}

fn vec3_ui(ui: &mut egui::Ui, v: &mut Vec3, speed: f64, suffix: &str) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        for (label, c) in [("x", &mut v.x), ("y", &mut v.y), ("z", &mut v.z)] {
            ui.label(label);
            changed |= ui
                .add(egui::DragValue::new(c).speed(speed).suffix(suffix))
                .changed();
        }
    });
    changed
}

/// A min..max pair of values, each kept within `range`.
fn range_ui(
    ui: &mut egui::Ui,
    label: &str,
    pair: &mut [f32; 2],
    speed: f64,
    range: std::ops::RangeInclusive<f32>,
    suffix: &str,
) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label(label);
        for v in pair.iter_mut() {
            changed |= ui
                .add(
                    egui::DragValue::new(v)
                        .speed(speed)
                        .range(range.clone())
                        .suffix(suffix),
                )
                .changed();
        }
    });
    changed
}

impl PebbleApp {
    fn edit_entity(&mut self, id: EntityId, field: u32, after: Entity) {
        let command = SetEntity::new("Edit", after);
        if let Err(e) =
            self.history
                .execute_continuous(&mut self.scene, command, edit_key(id.0, field))
        {
            self.message = e.to_string();
        }
    }

    fn edit_material(&mut self, id: MaterialId, after: Material) {
        let command = SetMaterial::new(id, after);
        if let Err(e) =
            self.history
                .execute_continuous(&mut self.scene, command, edit_key(id.0, 0xFFFF))
        {
            self.message = e.to_string();
        }
    }

    pub(super) fn inspector_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Inspector");
        if ui.input(|i| i.pointer.any_released()) {
            self.history.end_edit();
        }
        let [id] = self.scene.selection() else {
            ui.label(match self.scene.selection().len() {
                0 => "Nothing selected.".to_string(),
                n => format!("{n} entities selected."),
            });
            return;
        };
        let id = *id;
        let Some(entity) = self.scene.entity(id).cloned() else {
            return;
        };
        ui.label(format!("{}  ·  {}", entity.kind.kind().name(), id));
        // The name being typed lives in the app while the field has focus; it is
        // committed as one command when the field loses focus.
        let mut name = match self.name_edit.take() {
            Some((editing, text)) if editing == id => text,
            _ => entity.name.clone(),
        };
        let response = ui.text_edit_singleline(&mut name);
        if response.lost_focus() {
            if name != entity.name && !name.trim().is_empty() {
                let mut e = entity.clone();
                e.name = name;
                self.edit_entity(id, 1, e);
                self.history.end_edit();
            }
        } else if response.has_focus() {
            self.name_edit = Some((id, name));
        }
        ui.separator();
        ui.label("Transform");
        let mut t = entity.transform;
        let mut changed = vec3_ui(ui, &mut t.translation, 0.02, " m");
        let (y, x, z) = t.rotation.to_euler(EulerRot::YXZ);
        let mut euler = Vec3::new(x, y, z) * (180.0 / std::f32::consts::PI);
        ui.label("rotation (pitch, yaw, roll)");
        if vec3_ui(ui, &mut euler, 0.5, "°") {
            let r = euler * (std::f32::consts::PI / 180.0);
            t.rotation = Quat::from_euler(EulerRot::YXZ, r.y, r.x, r.z);
            changed = true;
        }
        ui.label("scale");
        changed |= vec3_ui(ui, &mut t.scale, 0.01, "");
        if changed {
            let command = SetTransforms::new("Transform", vec![(id, t)]);
            if let Err(e) =
                self.history
                    .execute_continuous(&mut self.scene, command, edit_key(id.0, 2))
            {
                self.message = e.to_string();
            }
        }
        ui.separator();
        let mut e = entity.clone();
        let mut kind_changed = false;
        match &mut e.kind {
            EntityKind::Light(Light::Omni {
                color,
                radius,
                intensity,
                shadows,
            }) => {
                kind_changed |= ui.color_edit_button_rgb(color).changed();
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(radius)
                            .speed(0.05)
                            .range(0.01..=500.0)
                            .prefix("radius ")
                            .suffix(" m"),
                    )
                    .changed();
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(intensity)
                            .speed(0.01)
                            .range(0.0..=20.0)
                            .prefix("intensity "),
                    )
                    .changed();
                kind_changed |= ui.checkbox(shadows, "casts shadows").changed();
            }
            EntityKind::Light(Light::Sun {
                direction,
                color,
                intensity,
                shadows,
            }) => {
                ui.label("direction (toward the ground)");
                kind_changed |= vec3_ui(ui, direction, 0.01, "");
                kind_changed |= ui.color_edit_button_rgb(color).changed();
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(intensity)
                            .speed(0.01)
                            .range(0.0..=20.0)
                            .prefix("intensity "),
                    )
                    .changed();
                kind_changed |= ui.checkbox(shadows, "casts shadows").changed();
            }
            EntityKind::Emitter(em) => {
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(&mut em.count)
                            .range(0..=64)
                            .prefix("particles "),
                    )
                    .changed();
                kind_changed |= range_ui(
                    ui,
                    "speed",
                    &mut em.speed,
                    0.02,
                    f32::MIN..=f32::MAX,
                    " m/s",
                );
                kind_changed |= range_ui(ui, "life", &mut em.life, 0.01, 0.01..=60.0, " s");
                kind_changed |= range_ui(ui, "size", &mut em.size, 0.01, f32::MIN..=f32::MAX, " m");
                ui.label("gravity");
                kind_changed |= vec3_ui(ui, &mut em.gravity, 0.02, " m/s²");
                kind_changed |= ui.checkbox(&mut em.additive, "additive").changed();
            }
            EntityKind::Trigger(tr) => {
                ui.label("size");
                kind_changed |= vec3_ui(ui, &mut tr.size, 0.02, " m");
                ui.horizontal(|ui| {
                    ui.label("event");
                    kind_changed |= ui.text_edit_singleline(&mut tr.event).changed();
                });
                kind_changed |= ui.checkbox(&mut tr.oneshot, "once only").changed();
            }
            EntityKind::PlayerSpawn(s) => {
                let mut yaw = s.yaw.to_degrees();
                if ui
                    .add(
                        egui::DragValue::new(&mut yaw)
                            .speed(0.5)
                            .prefix("yaw ")
                            .suffix("°"),
                    )
                    .changed()
                {
                    s.yaw = yaw.to_radians();
                    kind_changed = true;
                }
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(&mut s.camera_fov)
                            .speed(0.2)
                            .range(20.0..=120.0)
                            .prefix("fov ")
                            .suffix("°"),
                    )
                    .changed();
            }
            _ => {}
        }
        if kind_changed {
            self.edit_entity(id, 3, e);
        }
        if let EntityKind::Mesh(mesh) = &entity.kind {
            for mid in mesh.geometry.materials() {
                let Some(m) = self.scene.material(mid).cloned() else {
                    continue;
                };
                ui.separator();
                ui.label(format!("Material “{}”", m.name));
                let mut after = m.clone();
                let mut changed = false;
                ui.horizontal(|ui| {
                    ui.label("tiling");
                    changed |= ui
                        .add(
                            egui::DragValue::new(&mut after.tiling.x)
                                .speed(0.01)
                                .range(0.01..=100.0)
                                .suffix(" m"),
                        )
                        .changed();
                    changed |= ui
                        .add(
                            egui::DragValue::new(&mut after.tiling.y)
                                .speed(0.01)
                                .range(0.01..=100.0)
                                .suffix(" m"),
                        )
                        .changed();
                });
                ui.horizontal(|ui| {
                    ui.label("UV scroll");
                    changed |= ui
                        .add(
                            egui::DragValue::new(&mut after.uv_scroll.x)
                                .speed(0.01)
                                .suffix(" rep/s"),
                        )
                        .changed();
                    changed |= ui
                        .add(
                            egui::DragValue::new(&mut after.uv_scroll.y)
                                .speed(0.01)
                                .suffix(" rep/s"),
                        )
                        .changed();
                });
                let mps = after.scroll_metres_per_second();
                ui.label(format!(
                    "= ({:.2}, {:.2}) m/s across the surface",
                    mps.x, mps.y
                ));
                egui::ComboBox::from_id_salt(("alpha", mid.0))
                    .selected_text(format!("{:?}", after.alpha))
                    .show_ui(ui, |ui| {
                        for mode in [AlphaMode::None, AlphaMode::Cutout, AlphaMode::Blend] {
                            changed |= ui
                                .selectable_value(&mut after.alpha, mode, format!("{mode:?}"))
                                .changed();
                        }
                    });
                changed |= ui
                    .color_edit_button_rgba_unmultiplied(&mut after.color)
                    .changed();
                changed |= ui
                    .checkbox(&mut after.double_sided, "double-sided")
                    .changed();
                if changed {
                    self.edit_material(mid, after);
                }
            }
        }
    }
}
