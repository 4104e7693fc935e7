//! What the GPU draws, held on the CPU: textures with their mip chains, and
//! batches (one per map mesh or scene entity: a vertex list and its chunks, each a
//! texture, a pass, a UV scroll and exact bounds over a range of vertices). Built
//! here from a `.pbm` map exactly as the PSP runtime reads it, so any map can be
//! viewed as the device shows it; [`crate::scene_model`] builds it from a scene.

use pbm::particle::ParticleField;
use pbm::texture::{MipLevel, decode, is_pot, mip_chain};
use pbm::{AlphaMode, Map};
use pebble_model::glam::Vec3;

use crate::environment::Environment;

/// The pass a chunk is drawn in, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pass {
    Opaque,
    Cutout,
    Blend,
}

/// A vertex as the shaders read it: 28 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct GpuVertex {
    pub pos: [f32; 3],
    pub uv: [f32; 2],
    /// 0xAABBGGRR, read as four unorm bytes.
    pub color: u32,
    /// The face this vertex belongs to in its entity (for picking); bit 31 marks
    /// the reversed copy of a double-sided face.
    pub face: u32,
}

/// Marks the reversed copy of a double-sided face in [`GpuVertex::face`].
pub const REVERSED: u32 = 0x8000_0000;

#[derive(Debug, Clone)]
pub struct SceneTexture {
    pub name: String,
    /// RGBA8 levels, base first.
    pub levels: Vec<MipLevel>,
    /// Atlases clamp on both axes, whatever `sampling` says.
    pub clamp: bool,
    pub alpha: AlphaMode,
    /// Wrap and filter (a map's `samplers` lump, a material's sampling).
    pub sampling: TextureSampling,
}

/// How surfaces sample a texture: repeat or clamp per axis, bilinear or nearest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TextureSampling {
    pub clamp_u: bool,
    pub clamp_v: bool,
    pub nearest: bool,
}

impl TextureSampling {
    /// Both axes clamped, bilinear (atlases and emitters).
    pub const CLAMP: Self = Self {
        clamp_u: true,
        clamp_v: true,
        nearest: false,
    };

    /// An index into the renderer's table of samplers, 0..8.
    pub(crate) fn index(self) -> usize {
        usize::from(self.clamp_u) | usize::from(self.clamp_v) << 1 | usize::from(self.nearest) << 2
    }
}

impl From<pbm::sampler::Sampler> for TextureSampling {
    fn from(s: pbm::sampler::Sampler) -> Self {
        Self {
            clamp_u: s.clamp_u,
            clamp_v: s.clamp_v,
            nearest: s.nearest,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Chunk {
    pub name: String,
    pub first: u32,
    pub count: u32,
    pub texture: Option<u32>,
    pub pass: Pass,
    /// Repeats per second along U and V (zero for atlases and untextured chunks).
    pub scroll: [f32; 2],
    pub lo: Vec3,
    pub hi: Vec3,
    /// No colours of its own (a shape made in the editor, never baked): the
    /// editor's view shades it by the direction of its faces so it reads as 3D.
    /// Never in the PSP look (the device shows its vertex colours).
    pub shaded: bool,
}

/// What one map mesh or scene entity draws.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    /// What the ID buffer holds for its pixels: the entity id, or mesh index + 1
    /// for a map; 0: not pickable (hidden or locked).
    pub pick_id: u32,
    pub vertices: Vec<GpuVertex>,
    /// Ranges of `vertices`.
    pub chunks: Vec<Chunk>,
}

impl Batch {
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        self.chunks
            .iter()
            .map(|c| (c.lo, c.hi))
            .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
    }
}

#[derive(Debug, Clone)]
pub struct DrawScene {
    pub textures: Vec<SceneTexture>,
    /// In draw order within each pass (the file order for a map), with a key each.
    pub batches: Vec<(u64, Batch)>,
    pub environment: Environment,
    /// Eye position and yaw the runtime starts at.
    pub spawn: (Vec3, f32),
    /// Bounds of all drawn geometry.
    pub bounds: (Vec3, Vec3),
    /// The emitters' particles, prepared by the `pbm` crate exactly as the device
    /// prepares them; evaluated each frame.
    pub particles: ParticleField,
    /// Where the built-in glow (for emitters without a texture) sits in `textures`.
    pub glow: u32,
}

/// Mesh names that make an untextured-alpha mesh a cutout in the runtime.
const CUTOUT_NAMES: [&str; 5] = ["billboard", "sprite", "tree", "bush", "flower"];

impl DrawScene {
    /// The scene a map shows on the device: meshes in file order, alpha modes by the
    /// runtime's rules, mip chains for power-of-two textures.
    pub fn from_map(map: &Map) -> Self {
        let samplers = map
            .metadata_by_tag(pbm::tag::SAMPLERS)
            .map(|m| pbm::sampler::decode_samplers(&m.payload))
            .unwrap_or_default();
        let mut textures: Vec<SceneTexture> = map
            .textures
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let (w, h) = (u32::from(t.width), u32::from(t.height));
                let rgba = decode(&t.data, t.format);
                let levels = if is_pot(w, h) && w >= 16 && h >= 8 {
                    mip_chain(&rgba, w, h, t.alpha_mode)
                } else {
                    vec![MipLevel {
                        width: w,
                        height: h,
                        rgba,
                    }]
                };
                SceneTexture {
                    name: t.name.as_str().to_string(),
                    levels,
                    clamp: t.is_atlas(),
                    alpha: t.alpha_mode,
                    sampling: pbm::sampler::sampler_of(&samplers, i).into(),
                }
            })
            .collect();
        let mut batches = Vec::new();
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for (mesh_index, m) in map.meshes.iter().enumerate() {
            let texture = usize::try_from(m.texture_id)
                .ok()
                .filter(|i| *i < map.textures.len());
            let name = m.name.as_str().to_string();
            let pass = match texture.map(|i| map.textures[i].alpha_mode) {
                None => Pass::Opaque,
                Some(AlphaMode::Cutout) => Pass::Cutout,
                Some(AlphaMode::Blend) => Pass::Blend,
                // Unknown modes read as none, as the runtime tests only 1 and 2.
                Some(AlphaMode::None | AlphaMode::Unknown(_)) => {
                    let lower = name.to_ascii_lowercase();
                    if CUTOUT_NAMES.iter().any(|n| lower.contains(n)) {
                        Pass::Cutout
                    } else {
                        Pass::Opaque
                    }
                }
            };
            let scroll = pbm::scroll::effective_speed(
                texture.map(|i| map.textures[i].name.as_str()),
                m.uv_scroll,
            );
            let (mut clo, mut chi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
            let mut vertices = Vec::with_capacity(m.vertices.len());
            for (i, v) in m.vertices.iter().enumerate() {
                let p = Vec3::from(v.pos);
                clo = clo.min(p);
                chi = chi.max(p);
                vertices.push(GpuVertex {
                    pos: v.pos,
                    uv: v.uv,
                    color: v.color,
                    face: i as u32 / 3,
                });
            }
            let count = vertices.len() as u32;
            if count == 0 {
                continue;
            }
            lo = lo.min(clo);
            hi = hi.max(chi);
            let chunk = Chunk {
                name,
                first: 0,
                count,
                texture: texture.map(|i| i as u32),
                pass,
                scroll,
                lo: clo,
                hi: chi,
                shaded: false,
            };
            // In a map each mesh is its own pickable thing: id = index + 1.
            let id = mesh_index as u32 + 1;
            batches.push((
                u64::from(id),
                Batch {
                    pick_id: id,
                    vertices,
                    chunks: vec![chunk],
                },
            ));
        }
        if batches.is_empty() {
            (lo, hi) = (Vec3::ZERO, Vec3::ZERO);
        }
        let glow = textures.len() as u32;
        textures.push(glow_texture());
        // Warnings were shown when the map was read; the field is the sanitised one.
        let particles = map.particle_field(&mut |_| {});
        Self {
            textures,
            batches,
            environment: Environment::of_map(map),
            spawn: (Vec3::from(map.spawn_pos), map.spawn_rot),
            bounds: (lo, hi),
            particles,
            glow,
        }
    }

    pub fn triangles(&self) -> usize {
        self.batches.iter().map(|(_, b)| b.vertices.len() / 3).sum()
    }
}

/// The runtime's built-in particle glow (`pbm::particle::glow_rgba`, shared with
/// the PSP runtime).
pub fn glow_texture() -> SceneTexture {
    let rgba = pbm::particle::glow_rgba();
    SceneTexture {
        name: "builtin glow".into(),
        levels: mip_chain(&rgba, 32, 32, AlphaMode::None),
        clamp: true,
        alpha: AlphaMode::None,
        sampling: TextureSampling::default(),
    }
}
