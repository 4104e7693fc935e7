//! Entities and what each kind carries.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::id::{EntityId, LayerId};
use crate::math::Transform;
use crate::mesh::MeshData;
use crate::primitive::Primitive;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entity {
    pub id: EntityId,
    pub name: String,
    pub parent: Option<EntityId>,
    pub visible: bool,
    pub locked: bool,
    pub layer: LayerId,
    /// `parent_from_local`.
    pub transform: Transform,
    pub kind: EntityKind,
}

impl Entity {
    pub fn new(name: impl Into<String>, kind: EntityKind) -> Self {
        Self {
            id: EntityId(0),
            name: name.into(),
            parent: None,
            visible: true,
            locked: false,
            layer: LayerId::default(),
            transform: Transform::IDENTITY,
            kind,
        }
    }

    pub fn with_transform(mut self, transform: Transform) -> Self {
        self.transform = transform;
        self
    }
}

/// What an entity is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum EntityKind {
    /// A folder for other entities.
    Group,
    Mesh(MeshEntity),
    Light(Light),
    Emitter(Emitter),
    PlayerSpawn(PlayerSpawn),
    Trigger(Trigger),
    /// A surface the player walks on (exported to `walkable_mesh`, never drawn).
    Walkable(MeshData),
    Collider(Collider),
    BallPit(BallPit),
    Patrol(Patrol),
    Custom(CustomEntity),
}

/// The kinds, for iteration and counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Group,
    Mesh,
    Light,
    Emitter,
    PlayerSpawn,
    Trigger,
    Walkable,
    Collider,
    BallPit,
    Patrol,
    Custom,
}

impl Kind {
    pub const ALL: [Kind; 11] = [
        Kind::Group,
        Kind::Mesh,
        Kind::Light,
        Kind::Emitter,
        Kind::PlayerSpawn,
        Kind::Trigger,
        Kind::Walkable,
        Kind::Collider,
        Kind::BallPit,
        Kind::Patrol,
        Kind::Custom,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Group => "group",
            Kind::Mesh => "mesh",
            Kind::Light => "light",
            Kind::Emitter => "emitter",
            Kind::PlayerSpawn => "player spawn",
            Kind::Trigger => "trigger",
            Kind::Walkable => "walkable surface",
            Kind::Collider => "collider",
            Kind::BallPit => "ball pit",
            Kind::Patrol => "patrol",
            Kind::Custom => "custom entity",
        }
    }
}

impl EntityKind {
    pub fn kind(&self) -> Kind {
        match self {
            Self::Group => Kind::Group,
            Self::Mesh(_) => Kind::Mesh,
            Self::Light(_) => Kind::Light,
            Self::Emitter(_) => Kind::Emitter,
            Self::PlayerSpawn(_) => Kind::PlayerSpawn,
            Self::Trigger(_) => Kind::Trigger,
            Self::Walkable(_) => Kind::Walkable,
            Self::Collider(_) => Kind::Collider,
            Self::BallPit(_) => Kind::BallPit,
            Self::Patrol(_) => Kind::Patrol,
            Self::Custom(_) => Kind::Custom,
        }
    }
}

/// Where a mesh's geometry comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum GeometrySource {
    /// Regenerated whenever its parameters change.
    Primitive(Primitive),
    /// Imported from an asset (project-relative path) and the mesh's name in it.
    Asset { path: String, mesh: String },
    /// Drawn or edited by hand.
    Authored,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeshEntity {
    pub source: GeometrySource,
    pub geometry: MeshData,
    /// Exported as a TRIMESH collider too.
    pub collidable: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Light {
    /// Directional light; `direction` points from the sun toward the scene.
    Sun {
        direction: Vec3,
        color: [f32; 3],
        intensity: f32,
        shadows: bool,
    },
    /// Point light at the entity's position.
    Omni {
        color: [f32; 3],
        radius: f32,
        intensity: f32,
        shadows: bool,
    },
    /// Sky/ground ambient and ambient occlusion.
    Hemisphere {
        sky: [f32; 3],
        ground: [f32; 3],
        ao_strength: f32,
        ao_radius: f32,
    },
}

/// Every field of the `emitters` record (the origin is the entity's world position)
/// plus the texture it uses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Emitter {
    /// Project-relative texture path; `None` = the built-in radial glow.
    pub texture: Option<String>,
    pub dir: Vec3,
    pub spread: f32,
    pub speed: [f32; 2],
    pub life: [f32; 2],
    pub gravity: Vec3,
    pub damping: f32,
    /// Birth height range, metres.
    pub size: [f32; 2],
    pub size_mid: f32,
    pub size_end: f32,
    pub aspect: f32,
    pub angle: [f32; 2],
    pub spin: [f32; 2],
    pub wobble_amp: f32,
    pub wobble_freq: f32,
    pub spawn_radius: f32,
    pub knee: f32,
    pub color_start: u32,
    pub color_mid: u32,
    pub color_end: u32,
    pub count: u16,
    pub additive: bool,
    pub y_locked: bool,
    pub velocity_aligned: bool,
    pub phase_aligned: bool,
    pub atlas_cols: u8,
    pub atlas_rows: u8,
    pub anim_loops: u8,
    pub seed: u32,
}

impl Default for Emitter {
    fn default() -> Self {
        Self::from_record(&pbm::EmitterRecord::default(), None)
    }
}

impl Emitter {
    /// The emitter of a format record (its position becomes the entity's).
    pub fn from_record(r: &pbm::EmitterRecord, texture: Option<String>) -> Self {
        use pbm::emitter::flags;
        Self {
            texture,
            dir: Vec3::from(r.dir),
            spread: r.spread,
            speed: [r.speed_min, r.speed_max],
            life: [r.life_min, r.life_max],
            gravity: Vec3::from(r.gravity),
            damping: r.damping,
            size: [r.size_min, r.size_max],
            size_mid: r.size_mid,
            size_end: r.size_end,
            aspect: r.aspect,
            angle: [r.angle_min, r.angle_max],
            spin: [r.spin_min, r.spin_max],
            wobble_amp: r.wobble_amp,
            wobble_freq: r.wobble_freq,
            spawn_radius: r.spawn_radius,
            knee: r.knee,
            color_start: r.color_start,
            color_mid: r.color_mid,
            color_end: r.color_end,
            count: r.count,
            additive: r.flags & flags::ADDITIVE != 0,
            y_locked: r.flags & flags::Y_LOCKED != 0,
            velocity_aligned: r.flags & flags::VEL_ALIGN != 0,
            phase_aligned: r.flags & flags::PHASE_ALIGN != 0,
            atlas_cols: r.atlas_cols,
            atlas_rows: r.atlas_rows,
            anim_loops: r.anim_loops,
            seed: r.seed,
        }
    }

    /// The format record at `pos` using texture index `texture_id` (-1 = glow).
    pub fn to_record(&self, name: &str, pos: Vec3, texture_id: i32) -> pbm::EmitterRecord {
        use pbm::emitter::flags;
        let flag = |on: bool, bit: u16| if on { bit } else { 0 };
        pbm::EmitterRecord {
            name: pbm::Name24::truncated(name),
            pos: pos.to_array(),
            dir: self.dir.to_array(),
            spread: self.spread,
            speed_min: self.speed[0],
            speed_max: self.speed[1],
            life_min: self.life[0],
            life_max: self.life[1],
            gravity: self.gravity.to_array(),
            damping: self.damping,
            size_min: self.size[0],
            size_max: self.size[1],
            size_mid: self.size_mid,
            size_end: self.size_end,
            aspect: self.aspect,
            angle_min: self.angle[0],
            angle_max: self.angle[1],
            spin_min: self.spin[0],
            spin_max: self.spin[1],
            wobble_amp: self.wobble_amp,
            wobble_freq: self.wobble_freq,
            spawn_radius: self.spawn_radius,
            knee: self.knee,
            color_start: self.color_start,
            color_mid: self.color_mid,
            color_end: self.color_end,
            texture_id,
            count: self.count,
            flags: flag(self.additive, flags::ADDITIVE)
                | flag(self.y_locked, flags::Y_LOCKED)
                | flag(self.velocity_aligned, flags::VEL_ALIGN)
                | flag(self.phase_aligned, flags::PHASE_ALIGN),
            atlas_cols: self.atlas_cols,
            atlas_rows: self.atlas_rows,
            anim_loops: self.anim_loops,
            reserved0: 0,
            seed: self.seed,
            reserved: [0; 3],
        }
    }
}

/// Where the player starts (at the entity's position).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerSpawn {
    /// Radians; 0 looks down −Z, positive turns right.
    pub yaw: f32,
    /// Vertical field of view, degrees.
    pub camera_fov: f32,
}

impl Default for PlayerSpawn {
    fn default() -> Self {
        Self {
            yaw: 0.0,
            camera_fov: 65.0,
        }
    }
}

/// A box volume (centred on the entity) that fires an event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trigger {
    pub size: Vec3,
    pub event: String,
    pub dialogue_id: Option<String>,
    pub oneshot: bool,
    /// A JSON object with free properties, kept as text.
    pub properties: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Collider {
    /// A box of this size centred on the entity.
    Box { size: Vec3 },
    /// The triangles of a mesh entity.
    TriMesh { mesh: EntityId },
    /// A smooth stair wedge of this size (rising toward −Z like the wedge primitive).
    Ramp { size: Vec3 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BallPit {
    pub count: u32,
    pub radius: f32,
    pub mass: f32,
    pub restitution: f32,
    pub spawn_min: Vec3,
    pub spawn_max: Vec3,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Patrol {
    pub waypoints: Vec<Vec3>,
    pub radius: f32,
    /// 0xAABBGGRR.
    pub color: u32,
    /// m/s.
    pub speed: f32,
}

/// Anything a game needs that Pebble does not model: a tag and a JSON object (text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomEntity {
    pub tag: String,
    pub json: String,
}
