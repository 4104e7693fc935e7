//! The Create menu: every kind of entity, built with sensible sizes at the point
//! the view looks at, added by one undoable command and selected.

use pebble_model::entity::{
    BallPit, Collider, CustomEntity, Emitter, EntityKind, GeometrySource, Light, MeshEntity,
    Patrol, PlayerSpawn, Trigger,
};
use pebble_model::glam::Vec3;
use pebble_model::{Entity, MaterialId, Primitive, Transform};

/// What the Create menu offers, in its order (a separator before each group).
pub const ITEMS: &[(&str, &[&str])] = &[
    (
        "Mesh",
        &["Box", "Plane", "Ramp", "Stairs", "Cylinder", "Arch"],
    ),
    ("Light", &["Omni light", "Sun", "Sky (hemisphere)"]),
    ("Effects", &["Particle emitter"]),
    (
        "Gameplay",
        &[
            "Player spawn",
            "Trigger",
            "Box collider",
            "Ramp collider",
            "Patrol",
            "Ball pit",
            "Custom entity",
        ],
    ),
    ("Organise", &["Group"]),
];

/// Whether an item needs a material (meshes do).
pub fn needs_material(item: &str) -> bool {
    ITEMS[0].1.contains(&item)
}

/// The entity for a menu item at `at`; meshes use `material`.
pub fn entity(item: &str, at: Vec3, material: Option<MaterialId>) -> Result<Entity, String> {
    let mesh = |primitive: Primitive| -> Result<EntityKind, String> {
        let material = material.ok_or("a mesh needs a material")?;
        let geometry = primitive.generate(material).map_err(|e| e.to_string())?;
        Ok(EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Primitive(primitive),
            geometry,
            collidable: true,
        }))
    };
    let kind = match item {
        "Box" => mesh(Primitive::Box { size: Vec3::ONE })?,
        "Plane" => mesh(Primitive::Plane {
            width: 4.0,
            depth: 4.0,
            standoff: 0.0,
        })?,
        "Ramp" => mesh(Primitive::Wedge {
            width: 2.0,
            height: 1.0,
            depth: 3.0,
        })?,
        "Stairs" => mesh(Primitive::Stairs {
            steps: 6,
            width: 2.0,
            rise: 0.2,
            run: 0.3,
        })?,
        "Cylinder" => mesh(Primitive::Cylinder {
            radius: 0.5,
            height: 2.0,
            sides: 16,
        })?,
        "Arch" => mesh(Primitive::Arch {
            width: 2.0,
            height: 3.0,
            depth: 0.5,
            thickness: 0.4,
            segments: 8,
        })?,
        "Omni light" => EntityKind::Light(Light::Omni {
            color: [1.0, 0.9, 0.7],
            radius: 6.0,
            intensity: 1.0,
            shadows: true,
        }),
        "Sun" => EntityKind::Light(Light::Sun {
            direction: Vec3::new(-0.4, -1.0, -0.3).normalize(),
            color: [1.0, 0.96, 0.88],
            intensity: 1.0,
            shadows: true,
        }),
        "Sky (hemisphere)" => EntityKind::Light(Light::Hemisphere {
            sky: [0.45, 0.55, 0.7],
            ground: [0.25, 0.22, 0.2],
            ao_strength: 0.6,
            ao_radius: 1.5,
        }),
        "Particle emitter" => EntityKind::Emitter(Emitter::default()),
        "Player spawn" => EntityKind::PlayerSpawn(PlayerSpawn::default()),
        "Trigger" => EntityKind::Trigger(Trigger {
            size: Vec3::splat(2.0),
            event: "entered".into(),
            dialogue_id: None,
            oneshot: false,
            properties: "{}".into(),
        }),
        "Box collider" => EntityKind::Collider(Collider::Box { size: Vec3::ONE }),
        "Ramp collider" => EntityKind::Collider(Collider::Ramp {
            size: Vec3::new(2.0, 1.0, 3.0),
        }),
        "Patrol" => EntityKind::Patrol(Patrol {
            waypoints: vec![Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0)],
            radius: 0.4,
            color: 0xFF_30_30_E0,
            speed: 1.5,
        }),
        "Ball pit" => EntityKind::BallPit(BallPit {
            count: 24,
            radius: 0.15,
            mass: 0.2,
            restitution: 0.6,
            spawn_min: Vec3::new(-1.0, 1.0, -1.0),
            spawn_max: Vec3::new(1.0, 2.0, 1.0),
        }),
        "Custom entity" => EntityKind::Custom(CustomEntity {
            tag: "custom".into(),
            json: "{}".into(),
        }),
        "Group" => EntityKind::Group,
        other => return Err(format!("nothing called {other} can be created")),
    };
    Ok(Entity::new(item, kind).with_transform(Transform::from_translation(at)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_builds_an_entity_of_its_kind_where_asked() {
        let at = Vec3::new(1.0, 0.0, -2.0);
        for (_, items) in ITEMS {
            for item in *items {
                let e =
                    entity(item, at, Some(MaterialId(1))).unwrap_or_else(|e| panic!("{item}: {e}"));
                assert_eq!(e.transform.translation, at, "{item}");
                assert_eq!(e.name, *item);
                if needs_material(item) {
                    assert!(matches!(e.kind, EntityKind::Mesh(_)), "{item}");
                    assert!(entity(item, at, None).is_err(), "{item} without a material");
                }
            }
        }
        assert!(entity("Teapot", at, None).is_err());
    }
}
