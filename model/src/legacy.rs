//! Older project files' entity kinds, read and turned into today's: a kind that
//! has become a descriptor ([`crate::definitions::builtin`]) is read in its old
//! form and becomes an instance of the built-in kind with every value kept.
//! Nothing here is written: saving writes today's form.

use serde::{Deserialize, Deserializer};

use crate::definitions::FieldValue;
use crate::definitions::builtin::instance;
use crate::entity::{
    BallPit, Collider, CustomEntity, DefinedEntity, Emitter, EntityKind, Light, MeshEntity, Patrol,
    PlayerSpawn, Trigger,
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
    /// Until the sound source became a descriptor.
    SoundSource(SoundSource),
    Custom(CustomEntity),
    Defined(DefinedEntity),
}

/// The sound source as project files wrote it before it became a descriptor.
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
            D::PlayerSpawn(p) => Self::PlayerSpawn(p),
            D::Trigger(t) => Self::Trigger(t),
            D::Walkable(w) => Self::Walkable(w),
            D::Collider(c) => Self::Collider(c),
            D::BallPit(b) => Self::BallPit(b),
            D::Patrol(p) => Self::Patrol(p),
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
}
