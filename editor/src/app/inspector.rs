//! The inspector: typed editors, with units, for the selected entity and the
//! materials of a selected mesh. Every edit is a command; a drag on a value merges
//! into one undo step (a continuous edit keyed by entity and field), closed when the
//! pointer is released.

use eframe::egui;
use pebble_model::command::{SetEntity, SetMaterial, SetPrimitive, SetTransforms};
use pebble_model::entity::{EntityKind, GeometrySource, Light};
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
            let l = ui.label(label);
            changed |= ui
                .add(egui::DragValue::new(c).speed(speed).suffix(suffix))
                .labelled_by(l.id)
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
        let l = ui.label(label);
        for v in pair.iter_mut() {
            changed |= ui
                .add(
                    egui::DragValue::new(v)
                        .speed(speed)
                        .range(range.clone())
                        .suffix(suffix),
                )
                .labelled_by(l.id)
                .changed();
        }
    });
    changed
}

/// A 0xAABBGGRR colour with its alpha.
fn abgr_ui(ui: &mut egui::Ui, label: &str, color: &mut u32) -> bool {
    let mut rgba = color.to_le_bytes();
    let changed = ui
        .horizontal(|ui| {
            ui.label(label);
            ui.color_edit_button_srgba_unmultiplied(&mut rgba).changed()
        })
        .inner;
    if changed {
        *color = u32::from_le_bytes(rgba);
    }
    changed
}

fn f32_ui(
    ui: &mut egui::Ui,
    label: &str,
    v: &mut f32,
    speed: f64,
    range: std::ops::RangeInclusive<f32>,
    suffix: &str,
) -> bool {
    ui.add(
        egui::DragValue::new(v)
            .speed(speed)
            .range(range)
            .max_decimals(2)
            .prefix(format!("{label} "))
            .suffix(suffix),
    )
    .changed()
}

/// Every field of an emitter, with the ranges the runtime accepts
/// (`pbm-format.md`, "Reference loader sanitising").
fn emitter_ui(ui: &mut egui::Ui, em: &mut pebble_model::entity::Emitter) -> bool {
    use std::f32::consts::{PI, TAU};
    let mut changed = false;
    changed |= ui
        .add(
            egui::DragValue::new(&mut em.count)
                .range(0..=64)
                .prefix("particles "),
        )
        .changed();
    ui.horizontal(|ui| {
        ui.label("texture");
        let mut text = em.texture.clone().unwrap_or_default();
        if ui
            .add(egui::TextEdit::singleline(&mut text).hint_text("(built-in glow)"))
            .changed()
        {
            em.texture = (!text.trim().is_empty()).then_some(text);
            changed = true;
        }
    });
    ui.horizontal(|ui| {
        ui.label("flipbook");
        changed |= ui
            .add(
                egui::DragValue::new(&mut em.atlas_cols)
                    .range(1..=16)
                    .suffix(" cols"),
            )
            .changed();
        changed |= ui
            .add(
                egui::DragValue::new(&mut em.atlas_rows)
                    .range(1..=16)
                    .suffix(" rows"),
            )
            .changed();
        changed |= ui
            .add(
                egui::DragValue::new(&mut em.anim_loops)
                    .range(1..=16)
                    .suffix(" loops"),
            )
            .changed();
    });
    ui.label("direction");
    changed |= vec3_ui(ui, &mut em.dir, 0.01, "");
    let mut spread = em.spread.to_degrees();
    if f32_ui(
        ui,
        "spread",
        &mut spread,
        0.5,
        0.0..=180.0,
        "° (cone half-angle)",
    ) {
        em.spread = spread.to_radians().clamp(0.0, PI);
        changed = true;
    }
    changed |= range_ui(ui, "speed", &mut em.speed, 0.02, -200.0..=200.0, " m/s");
    changed |= range_ui(ui, "life", &mut em.life, 0.01, 0.01..=600.0, " s");
    ui.label("gravity");
    changed |= vec3_ui(ui, &mut em.gravity, 0.02, " m/s²");
    changed |= f32_ui(ui, "damping", &mut em.damping, 0.01, 0.0..=32.0, " /s");
    changed |= f32_ui(
        ui,
        "spawn radius",
        &mut em.spawn_radius,
        0.01,
        0.0..=200.0,
        " m",
    );
    changed |= range_ui(ui, "size", &mut em.size, 0.01, 0.0005..=200.0, " m");
    ui.horizontal(|ui| {
        changed |= f32_ui(ui, "× at knee", &mut em.size_mid, 0.01, 0.0..=64.0, "");
        changed |= f32_ui(ui, "× at death", &mut em.size_end, 0.01, 0.0..=64.0, "");
    });
    changed |= f32_ui(ui, "knee", &mut em.knee, 0.01, 0.05..=0.95, " of life");
    changed |= f32_ui(ui, "aspect", &mut em.aspect, 0.01, 0.01..=64.0, " (w / h)");
    let mut angle = [em.angle[0].to_degrees(), em.angle[1].to_degrees()];
    if range_ui(ui, "angle", &mut angle, 0.5, -360.0..=360.0, "°") {
        em.angle = [angle[0].to_radians(), angle[1].to_radians()].map(|a| a.clamp(-TAU, TAU));
        changed = true;
    }
    changed |= range_ui(ui, "spin", &mut em.spin, 0.01, -64.0..=64.0, " rad/s");
    ui.horizontal(|ui| {
        changed |= f32_ui(ui, "wobble", &mut em.wobble_amp, 0.01, 0.0..=100.0, " m");
        changed |= f32_ui(ui, "at", &mut em.wobble_freq, 0.01, 0.0..=64.0, " Hz");
    });
    changed |= abgr_ui(ui, "colour at birth", &mut em.color_start);
    changed |= abgr_ui(ui, "at the knee", &mut em.color_mid);
    changed |= abgr_ui(ui, "at death", &mut em.color_end);
    changed |= ui.checkbox(&mut em.additive, "additive blending").changed();
    changed |= ui
        .checkbox(&mut em.y_locked, "upright (Y-locked billboards)")
        .changed();
    changed |= ui
        .checkbox(&mut em.velocity_aligned, "aligned with the velocity")
        .changed();
    changed |= ui
        .checkbox(
            &mut em.phase_aligned,
            "flipbook follows the life (phase-aligned)",
        )
        .changed();
    changed |= ui
        .add(egui::DragValue::new(&mut em.seed).prefix("seed "))
        .changed();
    changed
}

/// A collider's shape and size (a triangle mesh names its mesh entity).
fn collider_ui(
    ui: &mut egui::Ui,
    c: &mut pebble_model::entity::Collider,
    meshes: &[(EntityId, String)],
) -> bool {
    use pebble_model::entity::Collider;
    let mut changed = false;
    let name = match c {
        Collider::Box { .. } => "Box",
        Collider::TriMesh { .. } => "Triangle mesh",
        Collider::Ramp { .. } => "Ramp",
    };
    egui::ComboBox::from_id_salt("collider shape")
        .selected_text(name)
        .show_ui(ui, |ui| {
            let size = match c {
                Collider::Box { size } | Collider::Ramp { size } => *size,
                Collider::TriMesh { .. } => Vec3::ONE,
            };
            if ui.selectable_label(name == "Box", "Box").clicked() && name != "Box" {
                *c = Collider::Box { size };
                changed = true;
            }
            if ui.selectable_label(name == "Ramp", "Ramp").clicked() && name != "Ramp" {
                *c = Collider::Ramp { size };
                changed = true;
            }
            if let Some((first, _)) = meshes.first()
                && ui
                    .selectable_label(name == "Triangle mesh", "Triangle mesh")
                    .clicked()
                && name != "Triangle mesh"
            {
                *c = Collider::TriMesh { mesh: *first };
                changed = true;
            }
        });
    match c {
        Collider::Box { size } | Collider::Ramp { size } => {
            ui.label("size");
            changed |= vec3_ui(ui, size, 0.02, " m");
        }
        Collider::TriMesh { mesh } => {
            let current = meshes
                .iter()
                .find(|(id, _)| id == mesh)
                .map_or_else(|| format!("missing ({mesh})"), |(_, n)| n.clone());
            egui::ComboBox::from_id_salt("collider mesh")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for (id, n) in meshes {
                        changed |= ui.selectable_value(mesh, *id, n).changed();
                    }
                });
        }
    }
    changed
}

/// A parametric mesh's parameters, with units and the ranges that build.
fn primitive_ui(ui: &mut egui::Ui, p: &mut pebble_model::Primitive) -> bool {
    use pebble_model::Primitive;
    let m = |ui: &mut egui::Ui, label: &str, v: &mut f32| {
        f32_ui(ui, label, v, 0.02, 0.01..=500.0, " m")
    };
    let n = |ui: &mut egui::Ui, label: &str, v: &mut u32, lo: u32, hi: u32| {
        ui.add(
            egui::DragValue::new(v)
                .range(lo..=hi)
                .prefix(format!("{label} ")),
        )
        .changed()
    };
    let mut changed = false;
    match p {
        Primitive::Box { size } => {
            ui.label("size");
            changed |= vec3_ui(ui, size, 0.02, " m");
        }
        Primitive::Plane {
            width,
            depth,
            standoff,
        } => {
            changed |= m(ui, "width", width);
            changed |= m(ui, "depth", depth);
            changed |= f32_ui(ui, "standoff", standoff, 0.001, 0.0..=1.0, " m");
        }
        Primitive::Wedge {
            width,
            height,
            depth,
        } => {
            changed |= m(ui, "width", width);
            changed |= m(ui, "height", height);
            changed |= m(ui, "depth", depth);
        }
        Primitive::Stairs {
            steps,
            width,
            rise,
            run,
        } => {
            changed |= n(ui, "steps", steps, 1, 200);
            changed |= m(ui, "width", width);
            changed |= m(ui, "rise", rise);
            changed |= m(ui, "run", run);
        }
        Primitive::Cylinder {
            radius,
            height,
            sides,
        } => {
            changed |= m(ui, "radius", radius);
            changed |= m(ui, "height", height);
            changed |= n(ui, "sides", sides, 3, 128);
        }
        Primitive::Arch {
            width,
            height,
            depth,
            thickness,
            segments,
        } => {
            changed |= m(ui, "width", width);
            changed |= m(ui, "height", height);
            changed |= m(ui, "depth", depth);
            changed |= m(ui, "thickness", thickness);
            changed |= n(ui, "segments", segments, 2, 64);
        }
    }
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
            EntityKind::Emitter(em) => kind_changed |= emitter_ui(ui, em),
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
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(ao_strength)
                            .speed(0.01)
                            .range(0.0..=1.0)
                            .prefix("AO strength "),
                    )
                    .changed();
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(ao_radius)
                            .speed(0.02)
                            .range(0.01..=50.0)
                            .prefix("AO radius ")
                            .suffix(" m"),
                    )
                    .changed();
            }
            EntityKind::Collider(c) => {
                let meshes: Vec<(EntityId, String)> = self
                    .scene
                    .entities_of(pebble_model::Kind::Mesh)
                    .map(|e| (e.id, e.name.clone()))
                    .collect();
                kind_changed |= collider_ui(ui, c, &meshes);
            }
            EntityKind::BallPit(b) => {
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(&mut b.count)
                            .range(0..=256)
                            .prefix("balls "),
                    )
                    .changed();
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(&mut b.radius)
                            .speed(0.005)
                            .range(0.01..=5.0)
                            .prefix("radius ")
                            .suffix(" m"),
                    )
                    .changed();
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(&mut b.mass)
                            .speed(0.01)
                            .range(0.001..=1000.0)
                            .prefix("mass ")
                            .suffix(" kg"),
                    )
                    .changed();
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(&mut b.restitution)
                            .speed(0.01)
                            .range(0.0..=1.0)
                            .prefix("bounce "),
                    )
                    .changed();
                ui.label("spawn box, from");
                kind_changed |= vec3_ui(ui, &mut b.spawn_min, 0.02, " m");
                ui.label("to");
                kind_changed |= vec3_ui(ui, &mut b.spawn_max, 0.02, " m");
            }
            EntityKind::Patrol(p) => {
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(&mut p.radius)
                            .speed(0.01)
                            .range(0.01..=10.0)
                            .prefix("radius ")
                            .suffix(" m"),
                    )
                    .changed();
                kind_changed |= ui
                    .add(
                        egui::DragValue::new(&mut p.speed)
                            .speed(0.02)
                            .range(0.0..=50.0)
                            .prefix("speed ")
                            .suffix(" m/s"),
                    )
                    .changed();
                kind_changed |= abgr_ui(ui, "colour", &mut p.color);
                ui.label("waypoints");
                let mut remove = None;
                for (k, w) in p.waypoints.iter_mut().enumerate() {
                    ui.horizontal(|ui| {
                        ui.label(format!("{k}"));
                        kind_changed |= vec3_ui(ui, w, 0.02, " m");
                        if ui.small_button("remove").clicked() {
                            remove = Some(k);
                        }
                    });
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
                ui.label("size");
                kind_changed |= vec3_ui(ui, &mut tr.size, 0.02, " m");
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
                    if primitive_ui(ui, &mut after) {
                        let command = SetPrimitive::new(id, after);
                        if let Err(e) = self.history.execute_continuous(
                            &mut self.scene,
                            command,
                            edit_key(id.0, 4),
                        ) {
                            self.message = e.to_string();
                        }
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
