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
    /// Shown in the editor's viewport; a view setting only: hidden entities are
    /// exported all the same.
    pub visible: bool,
    pub locked: bool,
    /// Written to the map. Off for what only the editor keeps (an importer's
    /// collision-only mesh, a reference model); a group's children follow it.
    #[serde(default = "exported_by_default")]
    pub exported: bool,
    pub layer: LayerId,
    /// `parent_from_local`.
    pub transform: Transform,
    pub kind: EntityKind,
    /// A group that is a copy of a prefab (its children follow the prefab).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<crate::prefab_link::Instance>,
    /// For an entity inside an instance: the instance, and its id within the
    /// instance's prefab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<crate::prefab_link::Source>,
}

impl Entity {
    pub fn new(name: impl Into<String>, kind: EntityKind) -> Self {
        Self {
            id: EntityId(0),
            name: name.into(),
            parent: None,
            visible: true,
            locked: false,
            exported: true,
            layer: LayerId::default(),
            transform: Transform::IDENTITY,
            kind,
            instance: None,
            source: None,
        }
    }

    pub fn with_transform(mut self, transform: Transform) -> Self {
        self.transform = transform;
        self
    }

    /// Maps the entities it links to (a collider's mesh, a game entity's
    /// references, the instance it is part of) — not its parent — through `map`.
    pub fn map_links(&mut self, map: &mut impl FnMut(EntityId) -> EntityId) {
        if let Some(s) = &mut self.source {
            s.instance = map(s.instance);
        }
        match &mut self.kind {
            EntityKind::Collider(Collider::TriMesh { mesh }) => *mesh = map(*mesh),
            EntityKind::Defined(d) => {
                for v in d.values.values_mut() {
                    v.map_references(&mut |r| Some(map(r)));
                }
            }
            _ => {}
        }
    }
}

fn exported_by_default() -> bool {
    true
}

/// What an entity is. Read by `legacy.rs`, which turns the kinds of older
/// project files into today's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum EntityKind {
    /// A folder for other entities.
    Group,
    Mesh(MeshEntity),
    Light(Light),
    Emitter(Emitter),
    /// A surface the player walks on (exported to `walkable_mesh`, never drawn).
    Walkable(MeshData),
    Collider(Collider),
    Custom(CustomEntity),
    /// An instance of a built-in kind described as data
    /// ([`crate::definitions::builtin`]: the sound source) or of a kind the game
    /// defines in `entities.ron`.
    Defined(DefinedEntity),
}

/// The kinds, for iteration and counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Group,
    Mesh,
    Light,
    Emitter,
    Walkable,
    Collider,
    Custom,
    Defined,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Group,
        Kind::Mesh,
        Kind::Light,
        Kind::Emitter,
        Kind::Walkable,
        Kind::Collider,
        Kind::Custom,
        Kind::Defined,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Group => "group",
            Kind::Mesh => "mesh",
            Kind::Light => "light",
            Kind::Emitter => "emitter",
            Kind::Walkable => "walkable surface",
            Kind::Collider => "collider",
            Kind::Custom => "custom entity",
            Kind::Defined => "game entity",
        }
    }
}

impl EntityKind {
    /// What lists call it: its kind's name, or a described kind's title in
    /// lower case ("trigger", "player spawn", "enemy").
    pub fn label(&self) -> String {
        match self {
            Self::Defined(d) => crate::definitions::title_of(&d.kind).to_lowercase(),
            other => other.kind().name().to_owned(),
        }
    }

    pub fn kind(&self) -> Kind {
        match self {
            Self::Group => Kind::Group,
            Self::Mesh(_) => Kind::Mesh,
            Self::Light(_) => Kind::Light,
            Self::Emitter(_) => Kind::Emitter,
            Self::Walkable(_) => Kind::Walkable,
            Self::Collider(_) => Kind::Collider,
            Self::Custom(_) => Kind::Custom,
            Self::Defined(_) => Kind::Defined,
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
    /// Point light at the entity's position; with a cone, a spot light aimed
    /// along the entity's −Z.
    Omni {
        color: [f32; 3],
        radius: f32,
        intensity: f32,
        shadows: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cone: Option<Cone>,
    },
    /// Sky/ground ambient and ambient occlusion.
    Hemisphere {
        sky: [f32; 3],
        ground: [f32; 3],
        ao_strength: f32,
        ao_radius: f32,
    },
}

impl Light {
    /// A sun as the Create menu adds one (and an import of an unlit level).
    pub fn default_sun() -> Self {
        Self::Sun {
            direction: Vec3::new(-0.4, -1.0, -0.3).normalize(),
            color: [1.0, 0.96, 0.88],
            intensity: 1.0,
            shadows: true,
        }
    }

    /// A sky light as the Create menu adds one (and an import of an unlit level).
    pub fn default_sky() -> Self {
        Self::Hemisphere {
            sky: [0.45, 0.55, 0.7],
            ground: [0.25, 0.22, 0.2],
            ao_strength: 0.6,
            ao_radius: 1.5,
        }
    }
}

/// A spot light's cone: full light inside `inner`, none past `outer` (half
/// angles from the axis, radians), a smooth edge between.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Cone {
    pub inner: f32,
    pub outer: f32,
}

impl Cone {
    /// How much of the light reaches direction `to_point` (unit, from the light)
    /// for a light aimed along `axis` (unit): 1 inside the inner cone, 0 outside
    /// the outer one.
    pub fn factor(&self, axis: Vec3, to_point: Vec3) -> f32 {
        let c = axis.dot(to_point);
        let (ci, co) = (self.inner.cos(), self.outer.cos());
        if co >= ci {
            return if c >= co { 1.0 } else { 0.0 };
        }
        let t = ((c - co) / (ci - co)).clamp(0.0, 1.0);
        t * t * (3.0 - 2.0 * t)
    }
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

/// The local box a volume of `size` fills: box and ramp colliders and triggers
/// stand on their origin as the primitives do, centred in X and Z, from y = 0 up
/// to the height. One convention for everything with a size means an object and
/// the collider fitted to it share their origin, and the gizmo sits at the base
/// of both.
pub fn volume_aabb(size: Vec3) -> crate::math::Aabb {
    let half = size * 0.5;
    crate::math::Aabb {
        min: Vec3::new(-half.x, 0.0, -half.z),
        max: Vec3::new(half.x, size.y, half.z),
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Collider {
    /// A box of this size standing on the entity's origin ([`volume_aabb`]).
    Box { size: Vec3 },
    /// The triangles of a mesh entity.
    TriMesh { mesh: EntityId },
    /// A smooth stair wedge of this size standing on the entity's origin, rising
    /// toward −Z like the wedge primitive.
    Ramp { size: Vec3 },
}

/// Anything a game needs that Pebble does not model: a tag and a JSON object (text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomEntity {
    pub tag: String,
    pub json: String,
}

/// An instance of a game's own kind ([`crate::definitions`]).
pub use crate::definitions::DefinedEntity;

pub use crate::limit::{Limit, limits};

/// One numeric property of an entity's kind, as its limit reads it (angles in
/// degrees).
struct Number {
    name: String,
    value: f64,
    limit: Limit,
}

#[derive(Default)]
struct Numbers(Vec<Number>);

impl Numbers {
    fn one(&mut self, name: &str, v: f32, limit: Limit) {
        self.0.push(Number {
            name: name.to_owned(),
            value: f64::from(v),
            limit,
        });
    }

    fn vec3(&mut self, name: &str, v: Vec3, limit: Limit) {
        for (axis, c) in ["x", "y", "z"].into_iter().zip(v.to_array()) {
            self.one(&format!("{name} {axis}"), c, limit);
        }
    }

    fn rgb(&mut self, name: &str, c: &[f32; 3]) {
        for (channel, v) in ["red", "green", "blue"].into_iter().zip(c) {
            self.one(&format!("{name} {channel}"), *v, limits::COLOR);
        }
    }
}

fn numbers(kind: &EntityKind) -> Vec<Number> {
    use limits::*;
    let mut n = Numbers::default();
    match kind {
        EntityKind::Group
        | EntityKind::Mesh(_)
        | EntityKind::Walkable(_)
        | EntityKind::Custom(_)
        | EntityKind::Defined(_)
        | EntityKind::Collider(Collider::TriMesh { .. }) => {}
        EntityKind::Light(Light::Sun {
            direction,
            color,
            intensity,
            ..
        }) => {
            n.vec3("direction", *direction, DIRECTION);
            n.rgb("colour", color);
            n.one("intensity", *intensity, LIGHT_INTENSITY);
        }
        EntityKind::Light(Light::Omni {
            color,
            radius,
            intensity,
            cone,
            ..
        }) => {
            n.rgb("colour", color);
            n.one("radius", *radius, LIGHT_RADIUS);
            n.one("intensity", *intensity, LIGHT_INTENSITY);
            if let Some(c) = cone {
                n.one("inner angle", c.inner.to_degrees(), CONE_ANGLE);
                n.one("outer angle", c.outer.to_degrees(), CONE_ANGLE);
            }
        }
        EntityKind::Light(Light::Hemisphere {
            sky,
            ground,
            ao_strength,
            ao_radius,
        }) => {
            n.rgb("sky", sky);
            n.rgb("ground", ground);
            n.one("AO strength", *ao_strength, AO_STRENGTH);
            n.one("AO radius", *ao_radius, AO_RADIUS);
        }
        EntityKind::Emitter(e) => {
            n.one("particles", f32::from(e.count), EMITTER_COUNT);
            n.one("flipbook columns", f32::from(e.atlas_cols), FLIPBOOK);
            n.one("flipbook rows", f32::from(e.atlas_rows), FLIPBOOK);
            n.one("flipbook loops", f32::from(e.anim_loops), FLIPBOOK);
            n.vec3("direction", e.dir, DIRECTION);
            n.one("spread", e.spread.to_degrees(), SPREAD);
            n.one("speed min", e.speed[0], PARTICLE_SPEED);
            n.one("speed max", e.speed[1], PARTICLE_SPEED);
            n.one("life min", e.life[0], PARTICLE_LIFE);
            n.one("life max", e.life[1], PARTICLE_LIFE);
            n.vec3("gravity", e.gravity, GRAVITY);
            n.one("damping", e.damping, DAMPING);
            n.one("spawn radius", e.spawn_radius, SPAWN_RADIUS);
            n.one("size min", e.size[0], PARTICLE_SIZE);
            n.one("size max", e.size[1], PARTICLE_SIZE);
            n.one("size at the knee", e.size_mid, SIZE_FACTOR);
            n.one("size at death", e.size_end, SIZE_FACTOR);
            n.one("knee", e.knee, KNEE);
            n.one("aspect", e.aspect, ASPECT);
            n.one("angle min", e.angle[0].to_degrees(), PARTICLE_ANGLE);
            n.one("angle max", e.angle[1].to_degrees(), PARTICLE_ANGLE);
            n.one("spin min", e.spin[0], SPIN);
            n.one("spin max", e.spin[1], SPIN);
            n.one("wobble", e.wobble_amp, WOBBLE_AMP);
            n.one("wobble frequency", e.wobble_freq, WOBBLE_FREQ);
            // A seed is any u32: nothing to check, and f32 would round it.
        }
        EntityKind::Collider(Collider::Box { size } | Collider::Ramp { size }) => {
            n.vec3("size", *size, SIZE);
        }
    }
    n.0
}

/// Checks the numeric properties of `after`, an entity kind replacing `before`:
/// every value must be finite and within its [`limits`]. Only the values that
/// change are judged, so an entity read from an older or foreign file with a value
/// out of range stays editable one field at a time (`before: None` judges all).
pub fn check_kind(before: Option<&EntityKind>, after: &EntityKind) -> Result<(), String> {
    let old = before.map(numbers).unwrap_or_default();
    for n in numbers(after) {
        let kept = old
            .iter()
            .any(|o| o.name == n.name && o.value.to_bits() == n.value.to_bits());
        if !kept {
            n.limit.check_named(&n.name, n.value)?;
        }
    }
    let direction = |before: Option<Vec3>, after: Vec3| {
        if before != Some(after) && after.length_squared() < 1e-12 {
            Err("direction must not be zero".to_string())
        } else {
            Ok(())
        }
    };
    match after {
        EntityKind::Emitter(e) => {
            let old = match before {
                Some(EntityKind::Emitter(b)) => Some(b),
                _ => None,
            };
            direction(old.map(|b| b.dir), e.dir)?;
            // The loader raises a shorter maximum life to the minimum: refuse it
            // rather than let the runtime change it silently.
            if old.is_none_or(|b| b.life != e.life) && e.life[1] < e.life[0] {
                return Err(format!(
                    "life max ({} s) must not be below life min ({} s)",
                    e.life[1], e.life[0]
                ));
            }
        }
        EntityKind::Defined(d) => {
            // The values that change, held to a built-in kind's descriptor.
            let old = match before {
                Some(EntityKind::Defined(b)) if b.kind == d.kind => Some(&b.values),
                _ => None,
            };
            for (name, v) in &d.values {
                if old.and_then(|o| o.get(name)) != Some(v) {
                    check_builtin_value(d, name, Some(v))?;
                }
            }
        }
        EntityKind::Light(Light::Sun { direction: d, .. }) => {
            let old = match before {
                Some(EntityKind::Light(Light::Sun { direction, .. })) => Some(*direction),
                _ => None,
            };
            direction(old, *d)?;
        }
        _ => {}
    }
    Ok(())
}

/// Checks a value set on field `name` of a built-in described kind's instance
/// against its descriptor (a game's kinds are checked by the editor against the
/// project's definitions; an unknown field or kind is kept as it is).
pub fn check_builtin_value(
    d: &DefinedEntity,
    name: &str,
    value: Option<&crate::definitions::FieldValue>,
) -> Result<(), String> {
    let defs = crate::definitions::builtin::kinds();
    match (defs.kind(&d.kind).and_then(|k| k.field(name)), value) {
        (Some(f), Some(v)) => f.check(defs, v),
        _ => Ok(()),
    }
}

/// Checks a transform replacing `before`: every value finite; a position that
/// changes within [`limits::POSITION`], a scale factor that changes within
/// [`limits::SCALE`] (never zero).
pub fn check_transform(before: Option<&Transform>, after: &Transform) -> Result<(), String> {
    if !(after.translation.is_finite() && after.rotation.is_finite() && after.scale.is_finite()) {
        return Err("the transform is not finite".into());
    }
    for (k, axis) in ["x", "y", "z"].into_iter().enumerate() {
        let (p, s) = (after.translation[k], after.scale[k]);
        if before.is_none_or(|b| b.translation[k].to_bits() != p.to_bits()) {
            limits::POSITION.check_named(&format!("position {axis}"), f64::from(p))?;
        }
        if before.is_none_or(|b| b.scale[k].to_bits() != s.to_bits()) {
            limits::SCALE.check_named(&format!("scale {axis}"), f64::from(s))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_says_what_it_takes() {
        let size = limits::SIZE;
        assert_eq!(size.check(0.3), Ok(()));
        assert_eq!(size.check(500.0), Ok(()));
        assert_eq!(
            size.check(-1.0).expect_err("refused"),
            "must be between 0.01 and 500 m"
        );
        assert!(
            size.check(f64::NAN)
                .expect_err("refused")
                .contains("finite")
        );
        assert!(size.check(f64::INFINITY).is_err());
        let sides = crate::Primitive::SIDES;
        assert!(
            sides
                .check(3.5)
                .expect_err("refused")
                .contains("whole number")
        );
        assert!(sides.check(100_000.0).is_err());
        let scale = limits::SCALE;
        assert!(scale.check(-2.0).is_ok() && scale.check(0.5).is_ok());
        let zero = scale.check(0.0).expect_err("refused");
        assert!(zero.contains("between 0.001 and 1000"), "{zero}");
        assert!(scale.check(1e30).is_err() && scale.check(-0.0001).is_err());
        assert_eq!(
            limits::LIGHT_RADIUS
                .check_named("radius", -1.0)
                .expect_err("refused"),
            "radius must be between 0.01 and 500 m, got -1"
        );
        // A stored degree converted through radians still passes at its bound.
        let spread = f64::from(std::f32::consts::PI.to_degrees());
        assert!(limits::SPREAD.check_stored(spread).is_ok());
        assert!(limits::SPREAD.check_stored(181.0).is_err());
    }

    /// The emitter limits are the reference loader's clamps: a value past each bound
    /// comes back from `pbm::emitter::sanitize` at that bound.
    #[test]
    fn emitter_limits_are_the_loaders_clamps() {
        type Field = fn(&mut pbm::EmitterRecord) -> &mut f32;
        let degrees = |l: Limit| (l.min.to_radians(), l.max.to_radians());
        let plain = |l: Limit| (l.min, l.max);
        let fields: [(&str, Field, (f64, f64)); 19] = [
            ("spread", |r| &mut r.spread, degrees(limits::SPREAD)),
            (
                "speed_min",
                |r| &mut r.speed_min,
                plain(limits::PARTICLE_SPEED),
            ),
            (
                "speed_max",
                |r| &mut r.speed_max,
                plain(limits::PARTICLE_SPEED),
            ),
            (
                "life_min",
                |r| &mut r.life_min,
                plain(limits::PARTICLE_LIFE),
            ),
            ("damping", |r| &mut r.damping, plain(limits::DAMPING)),
            (
                "size_min",
                |r| &mut r.size_min,
                plain(limits::PARTICLE_SIZE),
            ),
            (
                "size_max",
                |r| &mut r.size_max,
                plain(limits::PARTICLE_SIZE),
            ),
            ("size_mid", |r| &mut r.size_mid, plain(limits::SIZE_FACTOR)),
            ("size_end", |r| &mut r.size_end, plain(limits::SIZE_FACTOR)),
            ("aspect", |r| &mut r.aspect, plain(limits::ASPECT)),
            (
                "angle_min",
                |r| &mut r.angle_min,
                degrees(limits::PARTICLE_ANGLE),
            ),
            (
                "angle_max",
                |r| &mut r.angle_max,
                degrees(limits::PARTICLE_ANGLE),
            ),
            ("spin_min", |r| &mut r.spin_min, plain(limits::SPIN)),
            ("spin_max", |r| &mut r.spin_max, plain(limits::SPIN)),
            (
                "wobble_amp",
                |r| &mut r.wobble_amp,
                plain(limits::WOBBLE_AMP),
            ),
            (
                "wobble_freq",
                |r| &mut r.wobble_freq,
                plain(limits::WOBBLE_FREQ),
            ),
            (
                "spawn_radius",
                |r| &mut r.spawn_radius,
                plain(limits::SPAWN_RADIUS),
            ),
            ("knee", |r| &mut r.knee, plain(limits::KNEE)),
            (
                "life_max",
                |r| &mut r.life_max,
                plain(limits::PARTICLE_LIFE),
            ),
        ];
        for (name, field, (lo, hi)) in fields {
            for (past, bound) in [(lo - 1000.0, lo), (hi + 1000.0, hi)] {
                let mut r = pbm::EmitterRecord::default();
                if name == "life_max" {
                    // The loader raises life_max to life_min: start that at its own
                    // lowest so that only the limit is seen.
                    r.life_min = lo as f32;
                }
                *field(&mut r) = past as f32;
                let mut clamped = pbm::emitter::sanitize(&r, 0, None, 0, &mut |_| {});
                let got = f64::from(*field(&mut clamped));
                assert!(
                    (got - bound).abs() <= bound.abs() * 1e-6,
                    "{name}: the loader clamps {past} to {got}, the limit says {bound}"
                );
            }
        }
        type Small = fn(&mut pbm::EmitterRecord) -> &mut u8;
        let small: [(&str, Small); 3] = [
            ("atlas_cols", |r| &mut r.atlas_cols),
            ("atlas_rows", |r| &mut r.atlas_rows),
            ("anim_loops", |r| &mut r.anim_loops),
        ];
        for (name, field) in small {
            let l = limits::FLIPBOOK;
            for (past, bound) in [(0u8, l.min), (200, l.max)] {
                let mut r = pbm::EmitterRecord::default();
                *field(&mut r) = past;
                let mut clamped = pbm::emitter::sanitize(&r, 0, None, 0, &mut |_| {});
                assert_eq!(f64::from(*field(&mut clamped)), bound, "{name}");
            }
        }
        assert_eq!(
            limits::EMITTER_COUNT.max,
            f64::from(pbm::emitter::MAX_PARTICLES_PER_EMITTER)
        );
    }

    fn emitter(kind: &EntityKind) -> Emitter {
        match kind {
            EntityKind::Emitter(e) => e.clone(),
            _ => unreachable!("an emitter"),
        }
    }

    #[test]
    fn a_changed_value_out_of_range_is_refused_and_a_kept_one_is_not() {
        let before = EntityKind::Emitter(Emitter::default());
        let mut e = emitter(&before);
        e.life[0] = f32::NAN;
        let err = check_kind(Some(&before), &EntityKind::Emitter(e.clone())).expect_err("refused");
        assert!(err.starts_with("life min must be a finite number"), "{err}");
        // Read from a file that way: renaming or another field still goes through.
        let stored = EntityKind::Emitter(e.clone());
        e.damping = 1.0;
        assert_eq!(
            check_kind(Some(&stored), &EntityKind::Emitter(e.clone())),
            Ok(())
        );
        // But everything is judged without a `before`.
        assert!(check_kind(None, &EntityKind::Emitter(e)).is_err());

        let mut e = emitter(&before);
        e.life = [2.0, 1.0];
        let err = check_kind(Some(&before), &EntityKind::Emitter(e)).expect_err("refused");
        assert!(err.contains("must not be below life min"), "{err}");
        let mut e = emitter(&before);
        e.dir = Vec3::ZERO;
        assert!(check_kind(Some(&before), &EntityKind::Emitter(e)).is_err());

        let trigger = |size| EntityKind::Collider(Collider::Box { size });
        let err = check_kind(
            Some(&trigger(Vec3::ONE)),
            &trigger(Vec3::new(1.0, -3.0, 1.0)),
        )
        .expect_err("refused");
        assert_eq!(err, "size y must be between 0.01 and 500 m, got -3");
        assert_eq!(check_kind(None, &trigger(Vec3::splat(2.0))), Ok(()));
        // The defaults are within every limit.
        for kind in [
            EntityKind::Emitter(Emitter::default()),
            EntityKind::Light(Light::default_sun()),
        ] {
            assert_eq!(check_kind(None, &kind), Ok(()), "{kind:?}");
        }
    }

    #[test]
    fn a_transform_needs_finite_values_and_a_scale_that_is_not_zero() {
        let t = Transform::IDENTITY;
        assert_eq!(check_transform(Some(&t), &t), Ok(()));
        let mut bad = t;
        bad.scale.y = 0.0;
        let err = check_transform(Some(&t), &bad).expect_err("refused");
        assert!(
            err.starts_with("scale y must be between 0.001 and 1000"),
            "{err}"
        );
        bad.scale.y = 1e30;
        assert!(check_transform(Some(&t), &bad).is_err());
        bad.scale.y = -2.0;
        assert_eq!(check_transform(Some(&t), &bad), Ok(()), "a mirror");
        let mut far = t;
        far.translation.x = f32::NAN;
        assert!(check_transform(Some(&t), &far).is_err());
        far.translation.x = 20_000.0;
        assert!(check_transform(Some(&t), &far).is_err());
        // A tiny scale read from a file survives a move.
        let mut tiny = t;
        tiny.scale = Vec3::splat(1e-5);
        let mut moved = tiny;
        moved.translation.x = 3.0;
        assert_eq!(check_transform(Some(&tiny), &moved), Ok(()));
    }
}

#[cfg(test)]
mod cone_tests {
    use super::*;

    #[test]
    fn a_cone_is_full_inside_none_outside_and_smooth_between() {
        let c = Cone {
            inner: 20f32.to_radians(),
            outer: 30f32.to_radians(),
        };
        let at = |deg: f32| {
            let r = deg.to_radians();
            c.factor(Vec3::NEG_Y, Vec3::new(r.sin(), -r.cos(), 0.0))
        };
        assert_eq!(at(0.0), 1.0);
        assert_eq!(at(19.0), 1.0);
        assert_eq!(at(31.0), 0.0);
        let mid = at(25.0);
        assert!(mid > 0.2 && mid < 0.8, "{mid}");
        assert!(at(22.0) > at(28.0));
    }
}
