//! The inspector's editors for the kinds with many fields: emitters, colliders,
//! parametric primitives, packed colours.

use pebble_model::entity::limits;
use pebble_model::glam::Vec3;
use pebble_model::{EntityId, Primitive};

use super::form::Form;

/// A 0xAABBGGRR colour with its alpha.
pub(super) fn abgr_ui(ui: &mut egui::Ui, label: &str, color: &mut u32) -> bool {
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

/// Every field of an emitter, with the ranges the runtime accepts
/// (`pbm-format.md`, "Reference loader sanitising"; [`limits`]).
pub(super) fn emitter_ui(
    ui: &mut egui::Ui,
    form: &mut Form,
    em: &mut pebble_model::entity::Emitter,
) -> bool {
    let mut changed = false;
    changed |= form.whole(ui, "particles", &mut em.count, &limits::EMITTER_COUNT);
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
    let flipbook = &limits::FLIPBOOK;
    changed |= form.whole(ui, "flipbook columns", &mut em.atlas_cols, flipbook);
    changed |= form.whole(ui, "flipbook rows", &mut em.atlas_rows, flipbook);
    changed |= form.whole(ui, "flipbook loops", &mut em.anim_loops, flipbook);
    changed |= form.vec3(ui, "direction", &mut em.dir, &limits::DIRECTION);
    changed |= form.degrees(
        ui,
        "spread",
        &mut em.spread,
        &limits::SPREAD,
        " (cone half-angle)",
    );
    changed |= form.pair(ui, "speed", &mut em.speed, &limits::PARTICLE_SPEED, false);
    changed |= form.pair(ui, "life", &mut em.life, &limits::PARTICLE_LIFE, false);
    changed |= form.vec3(ui, "gravity", &mut em.gravity, &limits::GRAVITY);
    changed |= form.f32(ui, "damping", &mut em.damping, &limits::DAMPING);
    changed |= form.f32(
        ui,
        "spawn radius",
        &mut em.spawn_radius,
        &limits::SPAWN_RADIUS,
    );
    changed |= form.pair(ui, "size", &mut em.size, &limits::PARTICLE_SIZE, false);
    let factor = &limits::SIZE_FACTOR;
    changed |= form.f32(ui, "size at the knee", &mut em.size_mid, factor);
    changed |= form.f32(ui, "size at death", &mut em.size_end, factor);
    changed |= form.f32_note(ui, "knee", &mut em.knee, &limits::KNEE, " of the life");
    changed |= form.f32_note(ui, "aspect", &mut em.aspect, &limits::ASPECT, "(w / h)");
    changed |= form.pair(ui, "angle", &mut em.angle, &limits::PARTICLE_ANGLE, true);
    changed |= form.pair(ui, "spin", &mut em.spin, &limits::SPIN, false);
    changed |= form.f32(ui, "wobble", &mut em.wobble_amp, &limits::WOBBLE_AMP);
    changed |= form.f32(
        ui,
        "wobble frequency",
        &mut em.wobble_freq,
        &limits::WOBBLE_FREQ,
    );
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
    changed |= form.whole(ui, "seed", &mut em.seed, &limits::SEED);
    changed
}

/// A collider's shape and size (a triangle mesh names its mesh entity).
pub(super) fn collider_ui(
    ui: &mut egui::Ui,
    form: &mut Form,
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
            changed |= form.vec3(ui, "size", size, &limits::SIZE);
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

/// A parametric mesh's parameters, with units and the ranges that build
/// ([`Primitive::check`]).
pub(super) fn primitive_ui(ui: &mut egui::Ui, form: &mut Form, p: &mut Primitive) -> bool {
    let len = &Primitive::LENGTH;
    let mut changed = false;
    match p {
        Primitive::Box { size } => {
            changed |= form.vec3(ui, "size", size, len);
        }
        Primitive::Plane {
            width,
            depth,
            standoff,
        } => {
            changed |= form.f32(ui, "width", width, len);
            changed |= form.f32(ui, "depth", depth, len);
            changed |= form.f32(ui, "standoff", standoff, &Primitive::STANDOFF);
        }
        Primitive::Wedge {
            width,
            height,
            depth,
        } => {
            changed |= form.f32(ui, "width", width, len);
            changed |= form.f32(ui, "height", height, len);
            changed |= form.f32(ui, "depth", depth, len);
        }
        Primitive::Stairs {
            steps,
            width,
            rise,
            run,
        } => {
            let before = *steps;
            if form.whole(ui, "steps", steps, &Primitive::STEPS) {
                changed = true;
                // More or fewer steps share the same flight: its height and its
                // length stay (the count changed the total height before).
                if before > 0 && *steps > 0 && *steps != before {
                    let k = before as f32 / *steps as f32;
                    *rise *= k;
                    *run *= k;
                }
            }
            changed |= form.f32(ui, "width", width, len);
            changed |= form.f32(ui, "rise", rise, len);
            changed |= form.f32(ui, "run", run, len);
            ui.weak(format!(
                "the flight: {:.2} m high, {:.2} m long",
                *steps as f32 * *rise,
                *steps as f32 * *run
            ));
        }
        Primitive::Cylinder {
            radius,
            height,
            sides,
        } => {
            changed |= form.f32(ui, "radius", radius, len);
            changed |= form.f32(ui, "height", height, len);
            changed |= form.whole(ui, "sides", sides, &Primitive::SIDES);
        }
        Primitive::Arch {
            width,
            height,
            depth,
            thickness,
            segments,
        } => {
            changed |= form.f32(ui, "width", width, len);
            changed |= form.f32(ui, "height", height, len);
            changed |= form.f32(ui, "depth", depth, len);
            changed |= form.f32(ui, "thickness", thickness, len);
            changed |= form.whole(ui, "segments", segments, &Primitive::SEGMENTS);
        }
    }
    changed
}
