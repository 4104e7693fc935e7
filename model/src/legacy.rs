//! Older project files' entity kinds, read and turned into today's: a kind that
//! has become a descriptor ([`crate::definitions::builtin`]: the player spawn,
//! the trigger, the patrol, the ball pit, the sound source) is read in its old
//! form and becomes an instance of the built-in kind with every value kept (the
//! spawn's yaw from radians to the degrees its field holds). Nothing here is
//! written: saving writes today's form.

use serde::{Deserialize, Deserializer};

use crate::definitions::FieldValue;
use crate::definitions::builtin::instance;
use glam::Vec3;

use crate::entity::{
    Collider, CustomEntity, DefinedEntity, Emitter, EntityKind, Light, MeshEntity,
};
use crate::mesh::MeshData;

/// [`EntityKind`] as any version of the project file wrote it.
#[derive(Debug, Deserialize)]
pub enum EntityKindOnDisk {
    Group,
    Mesh(MeshEntity),
    Light(Light),
    Emitter(Emitter),
    PlayerSpawn(PlayerSpawn),
    Trigger(Trigger),
    Walkable(MeshData),
    Collider(Collider),
    BallPit(BallPit),
    Patrol(Patrol),
    // Until each became a descriptor.
    SoundSource(SoundSource),
    Custom(CustomEntity),
    Defined(DefinedEntity),
}

/// Where the player starts, as project files wrote it.
#[derive(Debug, Deserialize)]
pub struct PlayerSpawn {
    /// Radians.
    pub yaw: f32,
    pub camera_fov: f32,
}

/// A box volume that fires an event, as project files wrote it.
#[derive(Debug, Deserialize)]
pub struct Trigger {
    pub size: Vec3,
    pub event: String,
    pub dialogue_id: Option<String>,
    pub oneshot: bool,
    pub properties: String,
}

/// A ball pit, as project files wrote it (the box relative to the entity).
#[derive(Debug, Deserialize)]
pub struct BallPit {
    pub count: u32,
    pub radius: f32,
    pub mass: f32,
    pub restitution: f32,
    pub spawn_min: Vec3,
    pub spawn_max: Vec3,
}

/// A patrol, as project files wrote it (waypoints relative to the entity).
#[derive(Debug, Deserialize)]
pub struct Patrol {
    pub waypoints: Vec<Vec3>,
    pub radius: f32,
    pub color: u32,
    pub speed: f32,
}

/// The sound source, as project files wrote it.
#[derive(Debug, Deserialize)]
pub struct SoundSource {
    pub cue: String,
    pub radius: f32,
    pub volume: f32,
    pub looped: bool,
}

impl<'de> Deserialize<'de> for EntityKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        EntityKindOnDisk::deserialize(d).map(Self::from)
    }
}

impl From<EntityKindOnDisk> for EntityKind {
    fn from(k: EntityKindOnDisk) -> Self {
        use EntityKindOnDisk as D;
        match k {
            D::Group => Self::Group,
            D::Mesh(m) => Self::Mesh(m),
            D::Light(l) => Self::Light(l),
            D::Emitter(e) => Self::Emitter(e),
            D::PlayerSpawn(p) => Self::Defined(instance(
                "PlayerSpawn",
                [
                    ("yaw", FieldValue::Float(p.yaw.to_degrees())),
                    ("camera_fov", FieldValue::Float(p.camera_fov)),
                ],
            )),
            D::Trigger(t) => Self::Defined(instance(
                "Trigger",
                [
                    ("size", FieldValue::Point(t.size)),
                    ("event", FieldValue::Text(t.event)),
                    (
                        "dialogue_id",
                        FieldValue::Text(t.dialogue_id.unwrap_or_default()),
                    ),
                    ("oneshot", FieldValue::Bool(t.oneshot)),
                    ("properties", FieldValue::Text(t.properties)),
                ],
            )),
            D::Walkable(w) => Self::Walkable(w),
            D::Collider(c) => Self::Collider(c),
            D::BallPit(b) => Self::Defined(instance(
                "BallPit",
                [
                    (
                        "count",
                        FieldValue::Int(b.count.min(i32::MAX as u32) as i32),
                    ),
                    ("radius", FieldValue::Float(b.radius)),
                    ("mass", FieldValue::Float(b.mass)),
                    ("restitution", FieldValue::Float(b.restitution)),
                    ("spawn_min", FieldValue::Point(b.spawn_min)),
                    ("spawn_max", FieldValue::Point(b.spawn_max)),
                ],
            )),
            D::Patrol(p) => Self::Defined(instance(
                "Patrol",
                [
                    (
                        "waypoints",
                        FieldValue::Array(p.waypoints.into_iter().map(FieldValue::Point).collect()),
                    ),
                    ("radius", FieldValue::Float(p.radius)),
                    ("color", FieldValue::Colour(p.color)),
                    ("speed", FieldValue::Float(p.speed)),
                ],
            )),
            D::SoundSource(s) => Self::Defined(instance(
                "SoundSource",
                [
                    ("cue", FieldValue::Text(s.cue)),
                    ("radius", FieldValue::Float(s.radius)),
                    ("volume", FieldValue::Float(s.volume)),
                    ("looped", FieldValue::Bool(s.looped)),
                ],
            )),
            D::Custom(c) => Self::Custom(c),
            D::Defined(d) => Self::Defined(d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_old_sound_source_reads_as_the_built_in_kind_with_its_values() {
        let old = "SoundSource((cue: \"river\", radius: 12.5, volume: 0.25, looped: false))";
        let kind: EntityKind = ron::from_str(old).expect("reads");
        let EntityKind::Defined(d) = &kind else {
            panic!("{kind:?}")
        };
        assert_eq!(d.kind, "SoundSource");
        assert_eq!(d.values["cue"], FieldValue::Text("river".into()));
        assert_eq!(d.values["radius"], FieldValue::Float(12.5));
        assert_eq!(d.values["volume"], FieldValue::Float(0.25));
        assert_eq!(d.values["looped"], FieldValue::Bool(false));
        // Saved again, it is today's form, and reads back the same.
        let text = ron::to_string(&kind).expect("writes");
        assert!(text.starts_with("Defined("), "{text}");
        assert_eq!(ron::from_str::<EntityKind>(&text).expect("reads"), kind);
    }

    #[test]
    fn the_other_old_kinds_read_as_theirs_with_their_values() {
        let read = |old: &str| match ron::from_str::<EntityKind>(old).expect(old) {
            EntityKind::Defined(d) => d,
            other => panic!("{other:?}"),
        };
        let spawn = read("PlayerSpawn((yaw: 3.1415927, camera_fov: 70.0))");
        assert_eq!(spawn.kind, "PlayerSpawn");
        assert_eq!(spawn.values["yaw"], FieldValue::Float(180.0));
        let trigger = read(
            "Trigger((size: (1.0, 2.0, 3.0), event: \"door\", dialogue_id: Some(\"hello\"), \
             oneshot: true, properties: \"{\\\"k\\\": 1}\"))",
        );
        assert_eq!(
            trigger.values["size"],
            FieldValue::Point(Vec3::new(1.0, 2.0, 3.0))
        );
        assert_eq!(
            trigger.values["dialogue_id"],
            FieldValue::Text("hello".into())
        );
        assert_eq!(
            trigger.values["properties"],
            FieldValue::Text("{\"k\": 1}".into())
        );
        let pit = read(
            "BallPit((count: 9, radius: 0.2, mass: 1.0, restitution: 0.5, \
             spawn_min: (-1.0, 0.0, -1.0), spawn_max: (1.0, 2.0, 1.0)))",
        );
        assert_eq!(pit.values["count"], FieldValue::Int(9));
        assert_eq!(
            pit.values["spawn_max"],
            FieldValue::Point(Vec3::new(1.0, 2.0, 1.0))
        );
        let patrol = read(
            "Patrol((waypoints: [(0.0, 0.0, 0.0), (2.0, 0.0, 0.0)], radius: 0.3, \
             color: 4281348320, speed: 2.0))",
        );
        assert_eq!(
            patrol.values["waypoints"],
            FieldValue::Array(vec![
                FieldValue::Point(Vec3::ZERO),
                FieldValue::Point(Vec3::new(2.0, 0.0, 0.0)),
            ])
        );
        assert_eq!(patrol.values["color"], FieldValue::Colour(4281348320));
        // Every converted value is one its descriptor takes.
        let defs = crate::definitions::builtin::kinds();
        for d in [spawn, trigger, pit, patrol] {
            let kind = defs.kind(&d.kind).expect("a built-in kind");
            for (name, v) in &d.values {
                let f = kind.field(name).expect("a field of the kind");
                assert_eq!(f.check(defs, v), Ok(()), "{}.{name}", d.kind);
            }
        }
    }
}
