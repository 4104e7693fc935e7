//! Prefabs in the real app (egui_kittest on the real renderer), as a designer
//! meets them: the left torch (its post, its flame and its light) made a prefab
//! from Edit › Prefab, two more dragged from the Assets panel onto the
//! courtyard floor, one copy's light made blue and given to the prefab with
//! the inspector's "Apply to prefab" — every torch blue, one undo step; then,
//! inside a copy entered with Ctrl+Enter, a gizmo drag taken back with Esc
//! moves no other copy, and one that ends moves them all. The window's picture
//! is saved for a person to look at.

use crate::common;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pebble_core::intent::Intent;
use pebble_editor::app::PebbleApp;
use pebble_model::command::SetEntity;
use pebble_model::entity::{EntityKind, Light};
use pebble_model::glam::Vec3;
use pebble_model::{EntityId, Scene};

type H = Harness<'static, PebbleApp>;

/// The entity called `name` inside `instance`.
fn inside(scene: &Scene, instance: EntityId, name: &str) -> EntityId {
    scene
        .subtree(instance)
        .into_iter()
        .find(|id| *id != instance && scene.entity(*id).is_some_and(|e| e.name == name))
        .unwrap_or_else(|| panic!("no {name} in {instance}"))
}

fn colour(scene: &Scene, id: EntityId) -> [f32; 3] {
    match &scene.entity(id).expect("the light").kind {
        EntityKind::Light(Light::Omni { color, .. }) => *color,
        other => panic!("not an omni light: {other:?}"),
    }
}

fn select(h: &mut H, ids: Vec<EntityId>) {
    let ctx = h.ctx.clone();
    h.state_mut().apply(&ctx, vec![Intent::Select(ids)]);
    h.run_steps(3);
}

/// A point on the floor (its surface under x, z) where the view shows it.
fn floor(h: &H, x: f32, z: f32) -> Vec3 {
    let y = pebble_core::edit_ops::floor_below(h.state().scene(), Vec3::new(x, 5.0, z), &[])
        .expect("the floor is there");
    Vec3::new(x, y, z)
}

#[test]
fn a_torch_made_a_prefab_placed_twice_changed_in_one_and_applied_to_all() {
    let project = common::showcase_copy();
    let Some(mut h) = common::harness_on(project.clone()) else {
        return;
    };
    let parts: Vec<EntityId> = ["Torch left", "Torch flame left", "Torch light left"]
        .into_iter()
        .map(|n| common::entity(h.state(), n))
        .collect();
    select(&mut h, parts.clone());

    // Edit › Prefab › Make a prefab of the selection.
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label("Prefab").hover();
    h.run_steps(3);
    h.get_by_label_contains("Make a prefab of the selection")
        .click();
    h.run_steps(3);
    let prefab = h
        .state()
        .scene()
        .prefabs()
        .next()
        .map(|p| (p.id, p.name.clone()))
        .expect("a prefab was made");
    assert_eq!(prefab.1, "Torch left");
    let first = h.state().scene().selection()[0];
    assert_eq!(h.state().scene().instances_of(prefab.0), vec![first]);
    for p in &parts {
        assert_eq!(
            h.state().scene().instance_of(*p),
            Some(first),
            "{p} is in it"
        );
    }

    // Two more dragged from Assets onto the floor.
    h.state_mut().panels.raise(pebble_core::pane::Pane::Assets);
    h.run_steps(3);
    for (x, z) in [(-6.5, -6.0), (3.5, -6.0)] {
        let row = h.get_by_label("Torch left").rect().center();
        let spot = floor(&h, x, z);
        let to = common::screen(h.state(), spot);
        common::drag_line(&mut h, row, to, 10);
        h.run_steps(3);
        let placed = h.state().scene().selection()[0];
        let at = h.state().scene().world_transform(placed).translation;
        assert!(
            (Vec3::from(at) - spot).length() < 0.3,
            "dropped at {spot}, stands at {at}"
        );
    }
    let copies = h.state().scene().instances_of(prefab.0);
    assert_eq!(copies.len(), 3, "three torches");

    // The second copy's light made blue (an override of that copy only)…
    let light = inside(h.state().scene(), copies[1], "Torch light left");
    let orange = colour(h.state().scene(), light);
    let mut blue = h.state().scene().entity(light).expect("light").clone();
    if let EntityKind::Light(Light::Omni { color, .. }) = &mut blue.kind {
        *color = [0.15, 0.35, 1.0];
    }
    let ctx = h.ctx.clone();
    h.state_mut().apply(
        &ctx,
        vec![Intent::Execute(Box::new(SetEntity::new(
            "Torch colour",
            blue,
        )))],
    );
    h.run_steps(2);
    assert_eq!(
        colour(
            h.state().scene(),
            inside(h.state().scene(), copies[0], "Torch light left")
        ),
        orange
    );
    // …marked in the inspector, and given to the prefab from there.
    select(&mut h, vec![light]);
    h.state_mut()
        .panels
        .raise(pebble_core::pane::Pane::Inspector);
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("color overridden").is_some(),
        "the override is marked"
    );
    let steps = h.state().history_position();
    h.get_by_label("Apply to prefab").click();
    h.run_steps(3);
    assert_eq!(h.state().history_position(), steps + 1, "one step");
    for c in &copies {
        let l = inside(h.state().scene(), *c, "Torch light left");
        assert_eq!(
            colour(h.state().scene(), l),
            [0.15, 0.35, 1.0],
            "every torch"
        );
    }

    // Inside the first copy, entered: a drag taken back with Esc moves no copy.
    select(&mut h, vec![copies[0]]);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    h.run_steps(3);
    assert_eq!(h.state().doc.entered(), Some(copies[0]));
    let light0 = inside(h.state().scene(), copies[0], "Torch light left");
    select(&mut h, vec![light0]);
    let before = h.state().scene().clone();
    let pivot = Vec3::from(h.state().scene().world_transform(light0).translation);
    let grab = common::screen(h.state(), pivot + Vec3::X * 0.6);
    common::press_and_move(&mut h, grab, grab + egui::vec2(80.0, 0.0), 6);
    let mid = h.state().scene().clone();
    let other = inside(&mid, copies[2], "Torch light left");
    assert_eq!(
        mid.entity(other),
        before.entity(other),
        "no other copy moves mid-drag"
    );
    assert_ne!(
        mid.entity(light0),
        before.entity(light0),
        "the dragged one does"
    );
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    h.drop_at(grab + egui::vec2(80.0, 0.0));
    h.run_steps(3);
    assert!(*h.state().scene() == before, "Esc: every copy as before");
    // A drag that ends moves every copy's light, as one step.
    let steps = h.state().history_position();
    common::drag_line(&mut h, grab, grab + egui::vec2(80.0, 0.0), 6);
    h.run_steps(2);
    assert_eq!(h.state().history_position(), steps + 1);
    let moved = |h: &H, c: EntityId| {
        let s = h.state().scene();
        let l = inside(s, c, "Torch light left");
        s.entity(l).expect("light").transform.translation.x
            - before
                .entity(inside(&before, c, "Torch light left"))
                .expect("light")
                .transform
                .translation
                .x
    };
    for c in &copies {
        assert!(moved(&h, *c) > 0.3, "copy {c} followed: {}", moved(&h, *c));
    }

    let picture = h.render().expect("renders the window");
    let path = std::env::temp_dir().join("pebble-prefabs-window.png");
    picture.save(&path).expect("saves the picture");
}
