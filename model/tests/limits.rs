//! Commands refuse numbers that are not finite or out of their limits, with a clear
//! reason and the scene untouched, whatever path hands them in (the inspector, a
//! script, a file's values edited later).

mod common;

use common::{add, add_material, box_entity};
use pebble_model::command::{SetEntity, SetMaterial, SetPrimitive, SetTransforms};
use pebble_model::definitions::FieldValue;
use pebble_model::definitions::builtin::instance;
use pebble_model::entity::Emitter;
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::{Entity, EntityKind, History, Primitive, Scene};

fn scene_with(kinds: Vec<Entity>) -> (Scene, History, Vec<pebble_model::EntityId>) {
    let mut scene = Scene::new();
    let mut history = History::default();
    let ids = add(&mut scene, &mut history, kinds);
    (scene, history, ids)
}

#[test]
fn an_emitter_with_a_nan_life_is_refused() {
    let (mut scene, mut history, ids) = scene_with(vec![Entity::new(
        "Flames",
        EntityKind::Emitter(Emitter::default()),
    )]);
    let before = scene.entity(ids[0]).cloned().expect("emitter");
    let steps = history.position();
    for (life, reason) in [
        ([f32::NAN, 1.0], "life min must be a finite number"),
        ([0.5, f32::INFINITY], "life max must be a finite number"),
        (
            [0.5, 601.0],
            "life max must be between 0.01 and 600 s, got 601",
        ),
        ([0.0, 1.0], "life min must be between 0.01 and 600 s, got 0"),
        ([2.0, 1.0], "must not be below life min"),
    ] {
        let mut e = before.clone();
        if let EntityKind::Emitter(em) = &mut e.kind {
            em.life = life;
        }
        let err = history
            .execute(&mut scene, SetEntity::new("Edit", e))
            .expect_err("refused");
        assert!(err.to_string().contains(reason), "{life:?}: {err}");
        assert!(err.to_string().starts_with("Flames: "), "{err}");
        assert_eq!(scene.entity(ids[0]), Some(&before), "unchanged");
        assert_eq!(history.position(), steps, "no step");
    }
    let mut e = before.clone();
    if let EntityKind::Emitter(em) = &mut e.kind {
        em.life = [0.3, 600.0];
    }
    history
        .execute(&mut scene, SetEntity::new("Edit", e))
        .expect("in range");
}

#[test]
fn a_trigger_of_negative_size_is_refused() {
    let trigger = instance("Trigger", [("size", FieldValue::Point(Vec3::ONE))]);
    let (mut scene, mut history, ids) =
        scene_with(vec![Entity::new("Door", EntityKind::Defined(trigger))]);
    let mut e = scene.entity(ids[0]).cloned().expect("trigger");
    if let EntityKind::Defined(t) = &mut e.kind {
        t.values
            .insert("size".into(), FieldValue::Point(Vec3::new(1.0, -3.0, 1.0)));
    }
    let err = history
        .execute(&mut scene, SetEntity::new("Edit", e))
        .expect_err("refused");
    assert_eq!(
        err.to_string(),
        "Door: size must be between 0.01 and 500 m, not -3"
    );
    // The inspector's path, the field set on its own, is refused the same way.
    let err = history
        .execute(
            &mut scene,
            pebble_model::command::SetFieldValues::new(
                "Edit size",
                ids.clone(),
                "size",
                Some(FieldValue::Point(Vec3::new(1.0, 1.0, 0.0))),
            ),
        )
        .expect_err("refused");
    assert_eq!(
        err.to_string(),
        "Door: size must be between 0.01 and 500 m, not 0"
    );
}

/// A scene holding one stone box at the origin.
fn one_box() -> (Scene, History, Vec<pebble_model::EntityId>) {
    let mut scene = Scene::new();
    let mut history = History::default();
    let m = add_material(&mut scene, &mut history, "Stone");
    let ids = add(
        &mut scene,
        &mut history,
        vec![box_entity("Box", m, Vec3::ZERO)],
    );
    (scene, history, ids)
}

#[test]
fn a_scale_of_zero_or_1e30_is_refused_and_a_mirror_is_not() {
    let (mut scene, mut history, ids) = one_box();
    let t = scene.entity(ids[0]).expect("box").transform;
    for (scale, reason) in [
        (0.0, "scale x must be between 0.001 and 1000"),
        (1e30, "scale x must be between 0.001 and 1000"),
        (f32::NAN, "not finite"),
    ] {
        let mut bad = t;
        bad.scale.x = scale;
        let err = history
            .execute(&mut scene, SetTransforms::new("Scale", vec![(ids[0], bad)]))
            .expect_err("refused");
        assert!(err.to_string().contains(reason), "{scale}: {err}");
        assert_eq!(scene.entity(ids[0]).expect("box").transform, t);
    }
    let mut mirror = t;
    mirror.scale.x = -1.0;
    history
        .execute(
            &mut scene,
            SetTransforms::new("Mirror", vec![(ids[0], mirror)]),
        )
        .expect("a mirror");
    // The same rule through SetEntity.
    let mut e = scene.entity(ids[0]).cloned().expect("box");
    e.transform.scale.z = 0.0;
    assert!(
        history
            .execute(&mut scene, SetEntity::new("Edit", e))
            .is_err()
    );
}

#[test]
fn primitive_parameters_out_of_range_are_refused() {
    let (mut scene, mut history, ids) = one_box();
    for (p, reason) in [
        (
            Primitive::Cylinder {
                radius: 1.0,
                height: f32::NAN,
                sides: 8,
            },
            "height must be a finite number between 0.01 and 500 m",
        ),
        (
            Primitive::Cylinder {
                radius: -1.0,
                height: 1.0,
                sides: 8,
            },
            "radius must be between 0.01 and 500 m, got -1",
        ),
        (
            Primitive::Cylinder {
                radius: 1.0,
                height: 1.0,
                sides: 100_000,
            },
            "sides must be a whole number between 3 and 128, got 100000",
        ),
        (
            Primitive::Box {
                size: Vec3::new(1.0, 501.0, 1.0),
            },
            "height must be between 0.01 and 500 m",
        ),
        (
            Primitive::Plane {
                width: 1.0,
                depth: 1.0,
                standoff: f32::INFINITY,
            },
            "standoff must be a finite number between 0 and 1 m",
        ),
    ] {
        let err = history
            .execute(&mut scene, SetPrimitive::new(ids[0], p.clone()))
            .expect_err("refused");
        assert!(err.to_string().contains(reason), "{p:?}: {err}");
    }
}

#[test]
fn a_material_tiling_out_of_range_is_refused() {
    let mut scene = Scene::new();
    let mut history = History::default();
    let id = add_material(&mut scene, &mut history, "Stone");
    let m = scene.material(id).cloned().expect("material");
    for (tiling, scroll, reason) in [
        (
            Vec2::new(1000.0, 1.0),
            Vec2::ZERO,
            "tiling U must be between 0.01 and 100 m",
        ),
        (
            Vec2::ONE,
            Vec2::new(0.0, 1e6),
            "UV scroll V must be between -100 and 100",
        ),
        (Vec2::new(f32::NAN, 1.0), Vec2::ZERO, "every value finite"),
    ] {
        let mut bad = m.clone();
        bad.tiling = tiling;
        bad.uv_scroll = scroll;
        let err = history
            .execute(&mut scene, SetMaterial::new(id, bad))
            .expect_err("refused");
        assert!(err.to_string().contains(reason), "{err}");
        assert_eq!(scene.material(id), Some(&m));
    }
}
