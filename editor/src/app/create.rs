//! The Create menu: every kind of entity, built with sensible sizes at the point
//! the view looks at, added by one undoable command and selected.

use pebble_model::entity::{
    BallPit, Collider, CustomEntity, Emitter, EntityKind, GeometrySource, Light, MeshEntity,
    Patrol, PlayerSpawn, Trigger,
};
use pebble_model::glam::Vec3;
use pebble_model::{Entity, MaterialId, Primitive, Transform};

/// Everything the Create menu makes, one variant each (the menu, the action table
/// and the tests all use these; nothing dispatches on a label).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CreateItem {
    Box,
    Plane,
    Ramp,
    Stairs,
    Cylinder,
    Arch,
    OmniLight,
    Sun,
    Sky,
    Emitter,
    PlayerSpawn,
    Trigger,
    BoxCollider,
    RampCollider,
    Patrol,
    BallPit,
    Custom,
    Group,
}

impl CreateItem {
    /// The menu's label, which is also the new entity's name.
    pub fn label(self) -> &'static str {
        match self {
            Self::Box => "Box",
            Self::Plane => "Plane",
            Self::Ramp => "Ramp",
            Self::Stairs => "Stairs",
            Self::Cylinder => "Cylinder",
            Self::Arch => "Arch",
            Self::OmniLight => "Omni light",
            Self::Sun => "Sun",
            Self::Sky => "Sky (hemisphere)",
            Self::Emitter => "Particle emitter",
            Self::PlayerSpawn => "Player spawn",
            Self::Trigger => "Trigger",
            Self::BoxCollider => "Box collider",
            Self::RampCollider => "Ramp collider",
            Self::Patrol => "Patrol",
            Self::BallPit => "Ball pit",
            Self::Custom => "Custom entity",
            Self::Group => "Group",
        }
    }

    /// Whether the item needs a material (meshes do).
    pub fn needs_material(self) -> bool {
        GROUPS[0].1.contains(&self)
    }
}

/// What the Create menu offers, in its order (a separator before each group).
pub const GROUPS: &[(&str, &[CreateItem])] = &[
    (
        "Mesh",
        &[
            CreateItem::Box,
            CreateItem::Plane,
            CreateItem::Ramp,
            CreateItem::Stairs,
            CreateItem::Cylinder,
            CreateItem::Arch,
        ],
    ),
    (
        "Light",
        &[CreateItem::OmniLight, CreateItem::Sun, CreateItem::Sky],
    ),
    ("Effects", &[CreateItem::Emitter]),
    (
        "Gameplay",
        &[
            CreateItem::PlayerSpawn,
            CreateItem::Trigger,
            CreateItem::BoxCollider,
            CreateItem::RampCollider,
            CreateItem::Patrol,
            CreateItem::BallPit,
            CreateItem::Custom,
        ],
    ),
    ("Organise", &[CreateItem::Group]),
];

/// Every item, in the menu's order.
pub fn all() -> impl Iterator<Item = CreateItem> {
    GROUPS.iter().flat_map(|(_, items)| items.iter().copied())
}

/// The entity for a menu item at `at`; meshes use `material`.
pub fn entity(item: CreateItem, at: Vec3, material: Option<MaterialId>) -> Result<Entity, String> {
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
        CreateItem::Box => mesh(Primitive::Box { size: Vec3::ONE })?,
        CreateItem::Plane => mesh(Primitive::Plane {
            width: 4.0,
            depth: 4.0,
            standoff: 0.0,
        })?,
        CreateItem::Ramp => mesh(Primitive::Wedge {
            width: 2.0,
            height: 1.0,
            depth: 3.0,
        })?,
        CreateItem::Stairs => mesh(Primitive::Stairs {
            steps: 6,
            width: 2.0,
            rise: 0.2,
            run: 0.3,
        })?,
        CreateItem::Cylinder => mesh(Primitive::Cylinder {
            radius: 0.5,
            height: 2.0,
            sides: 16,
        })?,
        CreateItem::Arch => mesh(Primitive::Arch {
            width: 2.0,
            height: 3.0,
            depth: 0.5,
            thickness: 0.4,
            segments: 8,
        })?,
        CreateItem::OmniLight => EntityKind::Light(Light::Omni {
            color: [1.0, 0.9, 0.7],
            radius: 6.0,
            intensity: 1.0,
            shadows: true,
        }),
        CreateItem::Sun => EntityKind::Light(Light::Sun {
            direction: Vec3::new(-0.4, -1.0, -0.3).normalize(),
            color: [1.0, 0.96, 0.88],
            intensity: 1.0,
            shadows: true,
        }),
        CreateItem::Sky => EntityKind::Light(Light::Hemisphere {
            sky: [0.45, 0.55, 0.7],
            ground: [0.25, 0.22, 0.2],
            ao_strength: 0.6,
            ao_radius: 1.5,
        }),
        CreateItem::Emitter => EntityKind::Emitter(Emitter::default()),
        CreateItem::PlayerSpawn => EntityKind::PlayerSpawn(PlayerSpawn::default()),
        CreateItem::Trigger => EntityKind::Trigger(Trigger {
            size: Vec3::splat(2.0),
            event: "entered".into(),
            dialogue_id: None,
            oneshot: false,
            properties: "{}".into(),
        }),
        CreateItem::BoxCollider => EntityKind::Collider(Collider::Box { size: Vec3::ONE }),
        CreateItem::RampCollider => EntityKind::Collider(Collider::Ramp {
            size: Vec3::new(2.0, 1.0, 3.0),
        }),
        CreateItem::Patrol => EntityKind::Patrol(Patrol {
            waypoints: vec![Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0)],
            radius: 0.4,
            color: 0xFF_30_30_E0,
            speed: 1.5,
        }),
        CreateItem::BallPit => EntityKind::BallPit(BallPit {
            count: 24,
            radius: 0.15,
            mass: 0.2,
            restitution: 0.6,
            spawn_min: Vec3::new(-1.0, 1.0, -1.0),
            spawn_max: Vec3::new(1.0, 2.0, 1.0),
        }),
        CreateItem::Custom => EntityKind::Custom(CustomEntity {
            tag: "custom".into(),
            json: "{}".into(),
        }),
        CreateItem::Group => EntityKind::Group,
    };
    Ok(Entity::new(item.label(), kind).with_transform(Transform::from_translation(at)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_builds_an_entity_of_its_kind_where_asked() {
        let at = Vec3::new(1.0, 0.0, -2.0);
        assert_eq!(all().count(), 18);
        for item in all() {
            let e =
                entity(item, at, Some(MaterialId(1))).unwrap_or_else(|e| panic!("{item:?}: {e}"));
            assert_eq!(e.transform.translation, at, "{item:?}");
            assert_eq!(e.name, item.label());
            if item.needs_material() {
                assert!(matches!(e.kind, EntityKind::Mesh(_)), "{item:?}");
                assert!(
                    entity(item, at, None).is_err(),
                    "{item:?} without a material"
                );
            }
        }
    }
}
