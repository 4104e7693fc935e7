//! The inspector's fields for gameplay entities: ball pits, patrols (waypoints
//! added and removed), triggers (event, dialogue, JSON properties), the player
//! spawn, custom entities (tag and JSON) and walkable surfaces.

use pebble_model::entity::{BallPit, CustomEntity, Patrol, PlayerSpawn, Trigger, limits};
use pebble_model::glam::Vec3;

use super::form::Form;
use super::kinds::abgr_ui;

pub(super) fn ball_pit_ui(ui: &mut egui::Ui, form: &mut Form, b: &mut BallPit) -> bool {
    form.whole(ui, "balls", &mut b.count, &limits::BALL_COUNT);
    form.f32(ui, "radius", &mut b.radius, &limits::BALL_RADIUS);
    form.f32(ui, "mass", &mut b.mass, &limits::BALL_MASS);
    form.f32(ui, "bounce", &mut b.restitution, &limits::RESTITUTION);
    form.vec3(ui, "spawn box from", &mut b.spawn_min, &limits::SPAWN_BOX);
    form.vec3(ui, "spawn box to", &mut b.spawn_max, &limits::SPAWN_BOX);
    false
}

pub(super) fn patrol_ui(ui: &mut egui::Ui, form: &mut Form, p: &mut Patrol) -> bool {
    form.f32(ui, "radius", &mut p.radius, &limits::PATROL_RADIUS);
    form.f32(ui, "speed", &mut p.speed, &limits::PATROL_SPEED);
    let mut changed = abgr_ui(ui, "colour", &mut p.color);
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
        changed = true;
    }
    if ui.small_button("add a waypoint").clicked() {
        let last = p.waypoints.last().copied().unwrap_or_default();
        p.waypoints.push(last + Vec3::X);
        changed = true;
    }
    changed
}

pub(super) fn custom_ui(ui: &mut egui::Ui, c: &mut CustomEntity) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("tag");
        changed |= ui.text_edit_singleline(&mut c.tag).changed();
    });
    ui.label("JSON");
    changed |= ui
        .add(
            egui::TextEdit::multiline(&mut c.json)
                .code_editor()
                .desired_rows(4),
        )
        .changed();
    if let Err(e) = serde_json::from_str::<serde_json::Value>(&c.json) {
        ui.colored_label(egui::Color32::LIGHT_RED, format!("not valid JSON: {e}"));
    }
    changed
}

pub(super) fn trigger_ui(ui: &mut egui::Ui, form: &mut Form, tr: &mut Trigger) -> bool {
    let mut changed = false;
    form.vec3(ui, "size", &mut tr.size, &limits::SIZE);
    ui.horizontal(|ui| {
        ui.label("event");
        changed |= ui.text_edit_singleline(&mut tr.event).changed();
    });
    changed |= ui.checkbox(&mut tr.oneshot, "once only").changed();
    ui.horizontal(|ui| {
        let l = ui.label("dialogue");
        let mut text = tr.dialogue_id.clone().unwrap_or_default();
        if ui
            .add(egui::TextEdit::singleline(&mut text).hint_text("(none)"))
            .labelled_by(l.id)
            .changed()
        {
            tr.dialogue_id = (!text.trim().is_empty()).then_some(text);
            changed = true;
        }
    });
    ui.label("properties (JSON object)");
    changed |= ui
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
    changed
}

pub(super) fn spawn_ui(ui: &mut egui::Ui, form: &mut Form, s: &mut PlayerSpawn) -> bool {
    form.degrees(ui, "yaw", &mut s.yaw, &limits::YAW, "");
    form.f32(ui, "fov", &mut s.camera_fov, &limits::FOV);
    false
}
