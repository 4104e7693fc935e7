//! The inspector: typed editors, with units, for the selected entity and the
//! materials of a selected mesh. Every edit is a command. A number is typed into a
//! [`NumberField`] and committed on Enter or when the field is left, as one undo
//! step, after its [`limits`] accept it (a refusal stays in red under the field); a
//! colour drag merges into one undo step (a continuous edit keyed by entity and
//! field), closed when the pointer is released.

use eframe::egui;
use pebble_model::command::{SetEntity, SetMaterial, SetPrimitive, SetTransforms};
use pebble_model::entity::{EntityKind, GeometrySource, Light, limits};
use pebble_model::glam::{EulerRot, Quat, Vec3};
use pebble_model::material::AlphaMode;
use pebble_model::{Command, EditKey, Entity, EntityId, Material, MaterialId};

use super::PebbleApp;
use super::number_field::{self};

mod form;
mod kinds;

use form::Form;
use kinds::*;

impl PebbleApp {
    /// How many steps the history has applied (the inspector's tests count them).
    pub fn history_position(&self) -> usize {
        self.history.position()
    }

    /// A continuous edit (a colour being dragged, a checkbox).
    fn edit_entity(&mut self, id: EntityId, field: u32, after: Entity) {
        let command = SetEntity::new("Edit", after);
        if let Err(e) = self.history.execute_continuous(
            &mut self.scene,
            command,
            EditKey::Entity { id: id.0, field },
        ) {
            self.status.error(e.to_string());
        }
    }

    fn edit_material(&mut self, id: MaterialId, after: Material) {
        let command = SetMaterial::new(id, after);
        if let Err(e) = self.history.execute_continuous(
            &mut self.scene,
            command,
            EditKey::Material { id: id.0 },
        ) {
            self.status.error(e.to_string());
        }
    }

    /// A value typed into a field of `form` and committed: one undo step. A refusal
    /// is shown in red under the field, which keeps the text typed.
    fn commit(&mut self, ctx: &egui::Context, form: &Form, command: impl Command) {
        self.history.end_edit();
        if let Err(e) = self.history.execute(&mut self.scene, command) {
            match form.committed {
                Some(field) => number_field::reject(ctx, field, e.to_string()),
                None => self.status.error(e.to_string()),
            }
        }
    }

    pub(super) fn inspector_ui(&mut self, ui: &mut egui::Ui) {
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
        let ctx = ui.ctx().clone();
        ui.label(format!("{}  ·  {}", entity.kind.kind().name(), id));
        // The name being typed lives in the app while the field has focus; it is
        // committed as one command when the field loses focus.
        let mut name = match self.name_edit.take() {
            Some((editing, text)) if editing == id => text,
            _ => entity.name.clone(),
        };
        let response = ui
            .horizontal(|ui| {
                let l = ui.label("name");
                ui.text_edit_singleline(&mut name).labelled_by(l.id)
            })
            .inner;
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
        let mut form = Form::new("entity", id.0);
        let mut t = entity.transform;
        form.vec3(ui, "position", &mut t.translation, &limits::POSITION);
        let (y, x, z) = t.rotation.to_euler(EulerRot::YXZ);
        let euler = [x, y, z].map(f32::to_degrees);
        // Shown to a ten-thousandth of a degree: the decomposition's rounding noise
        // (-0.0000012°) is not a value anyone typed.
        let shown = euler.map(|a| (f64::from(a) * 1e4).round() / 1e4 + 0.0);
        let parts = [("x", shown[0]), ("y", shown[1]), ("z", shown[2])];
        let rotation = &limits::ROTATION;
        if let Some((k, v)) = form.row(ui, "rotation", &parts, rotation, "(pitch, yaw, roll)", true)
        {
            let mut r = euler;
            r[k] = v as f32;
            let r = r.map(f32::to_radians);
            t.rotation = Quat::from_euler(EulerRot::YXZ, r[1], r[0], r[2]);
        }
        form.vec3(ui, "scale", &mut t.scale, &limits::SCALE);
        if t != entity.transform {
            let command = SetTransforms::new("Transform", vec![(id, t)]);
            self.commit(&ctx, &form, command);
        }
        ui.separator();
        let mut form = Form::new("entity kind", id.0);
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
                form.f32(ui, "radius", radius, &limits::LIGHT_RADIUS);
                form.f32(ui, "intensity", intensity, &limits::LIGHT_INTENSITY);
                kind_changed |= ui.checkbox(shadows, "casts shadows").changed();
            }
            EntityKind::Light(Light::Sun {
                direction,
                color,
                intensity,
                shadows,
            }) => {
                form.vec3_note(
                    ui,
                    "direction",
                    direction,
                    &limits::DIRECTION,
                    "(toward the ground)",
                );
                kind_changed |= ui.color_edit_button_rgb(color).changed();
                form.f32(ui, "intensity", intensity, &limits::LIGHT_INTENSITY);
                kind_changed |= ui.checkbox(shadows, "casts shadows").changed();
            }
            EntityKind::Emitter(em) => kind_changed |= emitter_ui(ui, &mut form, em),
            EntityKind::Light(Light::Hemisphere {
                sky,
                ground,
                ao_strength,
                ao_radius,
            }) => {
                ui.horizontal(|ui| {
                    ui.label("sky");
                    kind_changed |= ui.color_edit_button_rgb(sky).changed();
                    ui.label("ground");
                    kind_changed |= ui.color_edit_button_rgb(ground).changed();
                });
                form.f32(ui, "AO strength", ao_strength, &limits::AO_STRENGTH);
                form.f32(ui, "AO radius", ao_radius, &limits::AO_RADIUS);
            }
            EntityKind::Collider(c) => {
                let meshes: Vec<(EntityId, String)> = self
                    .scene
                    .entities_of(pebble_model::Kind::Mesh)
                    .map(|e| (e.id, e.name.clone()))
                    .collect();
                kind_changed |= collider_ui(ui, &mut form, c, &meshes);
            }
            EntityKind::BallPit(b) => {
                form.whole(ui, "balls", &mut b.count, &limits::BALL_COUNT);
                form.f32(ui, "radius", &mut b.radius, &limits::BALL_RADIUS);
                form.f32(ui, "mass", &mut b.mass, &limits::BALL_MASS);
                form.f32(ui, "bounce", &mut b.restitution, &limits::RESTITUTION);
                form.vec3(ui, "spawn box from", &mut b.spawn_min, &limits::SPAWN_BOX);
                form.vec3(ui, "spawn box to", &mut b.spawn_max, &limits::SPAWN_BOX);
            }
            EntityKind::Patrol(p) => {
                form.f32(ui, "radius", &mut p.radius, &limits::PATROL_RADIUS);
                form.f32(ui, "speed", &mut p.speed, &limits::PATROL_SPEED);
                kind_changed |= abgr_ui(ui, "colour", &mut p.color);
                ui.label("waypoints");
                let mut remove = None;
                for (k, w) in p.waypoints.iter_mut().enumerate() {
                    form.vec3(ui, &format!("waypoint {k}"), w, &limits::POSITION);
                    if ui.small_button(format!("remove waypoint {k}")).clicked() {
                        remove = Some(k);
                    }
                }
                if let Some(k) = remove {
                    p.waypoints.remove(k);
                    kind_changed = true;
                }
                if ui.small_button("add a waypoint").clicked() {
                    let last = p.waypoints.last().copied().unwrap_or_default();
                    p.waypoints.push(last + Vec3::X);
                    kind_changed = true;
                }
            }
            EntityKind::Custom(c) => {
                ui.horizontal(|ui| {
                    ui.label("tag");
                    kind_changed |= ui.text_edit_singleline(&mut c.tag).changed();
                });
                ui.label("JSON");
                kind_changed |= ui
                    .add(
                        egui::TextEdit::multiline(&mut c.json)
                            .code_editor()
                            .desired_rows(4),
                    )
                    .changed();
                if let Err(e) = serde_json::from_str::<serde_json::Value>(&c.json) {
                    ui.colored_label(egui::Color32::LIGHT_RED, format!("not valid JSON: {e}"));
                }
            }
            EntityKind::Walkable(m) => {
                ui.label(format!(
                    "walkable surface: {} triangles (exported to walkable_mesh, never drawn)",
                    m.faces.len()
                ));
            }
            EntityKind::Trigger(tr) => {
                form.vec3(ui, "size", &mut tr.size, &limits::SIZE);
                ui.horizontal(|ui| {
                    ui.label("event");
                    kind_changed |= ui.text_edit_singleline(&mut tr.event).changed();
                });
                kind_changed |= ui.checkbox(&mut tr.oneshot, "once only").changed();
                ui.horizontal(|ui| {
                    let l = ui.label("dialogue");
                    let mut text = tr.dialogue_id.clone().unwrap_or_default();
                    if ui
                        .add(egui::TextEdit::singleline(&mut text).hint_text("(none)"))
                        .labelled_by(l.id)
                        .changed()
                    {
                        tr.dialogue_id = (!text.trim().is_empty()).then_some(text);
                        kind_changed = true;
                    }
                });
                ui.label("properties (JSON object)");
                kind_changed |= ui
                    .add(
                        egui::TextEdit::multiline(&mut tr.properties)
                            .code_editor()
                            .desired_rows(3),
                    )
                    .changed();
                match serde_json::from_str::<serde_json::Value>(&tr.properties) {
                    Ok(v) if v.is_object() => {}
                    Ok(_) => {
                        ui.colored_label(egui::Color32::LIGHT_RED, "must be a JSON object: { … }");
                    }
                    Err(e) => {
                        ui.colored_label(egui::Color32::LIGHT_RED, format!("not valid JSON: {e}"));
                    }
                }
            }
            EntityKind::PlayerSpawn(s) => {
                form.degrees(ui, "yaw", &mut s.yaw, &limits::YAW, "");
                form.f32(ui, "fov", &mut s.camera_fov, &limits::FOV);
            }
            _ => {}
        }
        if e != entity {
            if form.committed.is_some() {
                // A typed value: one step of its own.
                let name = format!("Edit {}", form.committed_name);
                self.commit(&ctx, &form, SetEntity::new(name, e));
            } else if kind_changed {
                self.edit_entity(id, 3, e);
            }
        }
        if let EntityKind::Mesh(mesh) = &entity.kind {
            let mut collidable = mesh.collidable;
            if ui
                .checkbox(
                    &mut collidable,
                    "collidable (exported as a triangle-mesh collider)",
                )
                .changed()
            {
                let mut e = entity.clone();
                if let EntityKind::Mesh(m) = &mut e.kind {
                    m.collidable = collidable;
                }
                self.edit_entity(id, 5, e);
            }
            ui.label(format!("{} triangles", mesh.geometry.faces.len()));
            match &mesh.source {
                GeometrySource::Primitive(p) => {
                    let mut after = p.clone();
                    ui.label(format!("{} (parametric)", p.kind_name()));
                    let mut form = Form::new("primitive", id.0);
                    if primitive_ui(ui, &mut form, &mut after) && after != *p {
                        self.commit(&ctx, &form, SetPrimitive::new(id, after));
                    }
                }
                GeometrySource::Asset { path, mesh } => {
                    ui.label(format!("imported from {path} (mesh “{mesh}”)"));
                }
                GeometrySource::Authored => {
                    ui.label("authored geometry");
                }
            }
            for mid in mesh.geometry.materials() {
                let Some(m) = self.scene.material(mid).cloned() else {
                    continue;
                };
                ui.separator();
                ui.label(format!("Material “{}”", m.name));
                let mut form = Form::new("material", mid.0);
                let mut after = m.clone();
                let mut changed = false;
                let parts =
                    |v: pebble_model::glam::Vec2| [("U", f64::from(v.x)), ("V", f64::from(v.y))];
                if let Some((k, v)) = form.row(
                    ui,
                    "tiling",
                    &parts(after.tiling),
                    &limits::TILING,
                    "",
                    false,
                ) {
                    after.tiling[k] = v as f32;
                }
                if let Some((k, v)) = form.row(
                    ui,
                    "UV scroll",
                    &parts(after.uv_scroll),
                    &limits::UV_SCROLL,
                    "",
                    false,
                ) {
                    after.uv_scroll[k] = v as f32;
                }
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
                if after != m {
                    if form.committed.is_some() {
                        self.commit(&ctx, &form, SetMaterial::new(mid, after));
                    } else if changed {
                        self.edit_material(mid, after);
                    }
                }
            }
        }
    }
}
