//! Playing a small map built the way the editor builds one: walking into a wall
//! stops, walking onto a ramp climbs, walking into a trigger fires its event.

use std::sync::Arc;

use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity, PlayerSpawn, Trigger};
use pebble_model::glam::Vec3;
use pebble_model::{Command, Entity, Material, Primitive, Scene, Transform};

use super::*;

fn mesh(name: &str, primitive: Primitive, at: Vec3, material: pebble_model::MaterialId) -> Entity {
    Entity::new(
        name,
        EntityKind::Mesh(MeshEntity {
            geometry: primitive.generate(material).expect("geometry"),
            source: GeometrySource::Primitive(primitive),
            collidable: true,
        }),
    )
    .with_transform(Transform::from_translation(at))
}

/// A 20 m floor (top at 0.5), a wall across the way ahead, a ramp to the east
/// climbing north, a trigger to the west, the spawn to the south.
fn level() -> Arc<Level> {
    let mut scene = Scene::new();
    let mut add = AddMaterial::new(Material::default());
    add.apply(&mut scene).expect("material");
    let m = add.created().expect("id");
    let trigger = Entity::new(
        "Archway",
        EntityKind::Trigger(Trigger {
            size: Vec3::new(2.0, 3.0, 2.0),
            event: "on_enter_archway".into(),
            dialogue_id: None,
            oneshot: true,
            properties: "{}".into(),
        }),
    )
    .with_transform(Transform::from_translation(Vec3::new(-5.0, 0.5, 0.0)));
    let spawn = Entity::new("Spawn", EntityKind::PlayerSpawn(PlayerSpawn::default()))
        .with_transform(Transform::from_translation(Vec3::new(0.0, 2.1, 4.0)));
    AddEntities::new(
        "Add",
        vec![
            mesh(
                "Floor",
                Primitive::Box {
                    size: Vec3::new(20.0, 0.5, 20.0),
                },
                Vec3::ZERO,
                m,
            ),
            mesh(
                "Wall",
                Primitive::Box {
                    size: Vec3::new(4.0, 3.0, 0.4),
                },
                Vec3::new(0.0, 0.5, -2.0),
                m,
            ),
            mesh(
                "Ramp",
                Primitive::Wedge {
                    width: 2.0,
                    height: 1.0,
                    depth: 4.0,
                },
                Vec3::new(5.0, 0.5, 0.0),
                m,
            ),
            trigger,
            spawn,
        ],
    )
    .apply(&mut scene)
    .expect("entities");
    Arc::new(build_level(&scene, std::env::temp_dir()).expect("a level"))
}

fn walk_forward(s: &mut PlaySession, seconds: f32) -> Vec<String> {
    let keys = PlayKeys {
        forward: 1.0,
        ..Default::default()
    };
    let mut fired = Vec::new();
    for _ in 0..(seconds * 60.0) as usize {
        fired.extend(s.step(keys, 1.0 / 60.0));
    }
    fired
}

#[test]
fn the_spawn_stands_on_the_floor_with_its_eye_1_6_m_up() {
    let s = PlaySession::start(level(), None);
    let (feet, on_ground) = s.feet();
    assert!(on_ground);
    assert!((feet.y - 0.5).abs() < 1e-3, "{feet}");
    assert!((s.eye().y - 2.1).abs() < 1e-3);
}

#[test]
fn walking_into_a_wall_stops_at_it() {
    let mut s = PlaySession::start(level(), None);
    walk_forward(&mut s, 4.0);
    let (feet, _) = s.feet();
    // The wall's near side is at z = −1.8; the capsule's radius keeps it 0.3 off.
    assert!((feet.z - -1.5).abs() < 0.05, "stopped at the wall: {feet}");
    assert!(feet.x.abs() < 0.05, "straight on: {feet}");
}

#[test]
fn walking_onto_the_ramp_climbs_it() {
    let mut s = PlaySession::start(level(), Some((Vec3::new(5.0, 2.1, 3.5), 0.0, 0.0)));
    walk_forward(&mut s, 1.2);
    let (feet, on_ground) = s.feet();
    assert!(on_ground, "on the ramp");
    assert!(feet.y > 0.5 + 0.3, "climbed: {feet}");
}

#[test]
fn walking_into_a_trigger_fires_its_event_once() {
    let mut s = PlaySession::start(level(), Some((Vec3::new(-5.0, 2.1, 4.0), 0.0, 0.0)));
    let fired = walk_forward(&mut s, 2.0);
    assert_eq!(fired, ["on_enter_archway"]);
    // Back out and in again: a oneshot fires once.
    let keys = PlayKeys {
        forward: -1.0,
        ..Default::default()
    };
    for _ in 0..120 {
        s.step(keys, 1.0 / 60.0);
    }
    assert!(walk_forward(&mut s, 2.0).is_empty());
    assert_eq!(s.events, ["on_enter_archway"]);
}

#[test]
fn the_keys_turn_and_look_and_a_fall_respawns() {
    let mut s = PlaySession::start(level(), None);
    s.step(
        PlayKeys {
            turn: 1.0,
            look: 1.0,
            ..Default::default()
        },
        0.1,
    );
    assert!((s.yaw - TURN_SPEED * 0.1).abs() < 1e-5);
    assert!((s.pitch - LOOK_SPEED * 0.1).abs() < 1e-5);
    for _ in 0..100 {
        s.step(
            PlayKeys {
                look: 1.0,
                ..Default::default()
            },
            0.1,
        );
    }
    assert!(
        (s.pitch - PITCH_LIMIT).abs() < 1e-5,
        "the look stops at the limit"
    );
    // Off the floor's edge, down past the kill height: back at the spawn.
    let mut off = PlaySession::start(
        level(),
        Some((Vec3::new(9.5, 2.1, 0.0), std::f32::consts::FRAC_PI_2, 0.0)),
    );
    let keys = PlayKeys {
        forward: 1.0,
        ..Default::default()
    };
    let mut lowest = f32::MAX;
    let respawned = (0..600).any(|_| {
        off.step(keys, 1.0 / 60.0);
        let (feet, _) = off.feet();
        lowest = lowest.min(feet.y);
        (feet.z - 4.0).abs() < 1e-3
    });
    assert!(
        respawned && lowest < 0.0,
        "fell ({lowest}) and came back to the spawn"
    );
}

#[test]
fn the_spawn_marker_draws_the_capsule_the_rules_walk() {
    use pebble_play::walk::{BODY_HEIGHT, EYE_HEIGHT, RADIUS};
    assert_eq!(
        pebble_render::overlay::SPAWN_CAPSULE,
        (RADIUS, BODY_HEIGHT, EYE_HEIGHT)
    );
}
