//! What a conforming map must show beyond being readable: the rules a writer must
//! follow for the PSP runtime (BLEND is 8888, nothing animated uses an atlas,
//! budgets, exact bounds, a v3 header).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::emitter::{MAX_EMITTERS, MAX_PARTICLES_PER_EMITTER, MAX_PARTICLES_PER_MAP};
use crate::format::*;
use crate::map::{Map, bounds_of};

/// One broken rule.
#[derive(Debug, Clone, PartialEq)]
pub enum ComplianceIssue {
    NotV3 {
        magic: u32,
        version: u32,
    },
    BlendNot8888 {
        texture: u32,
        name: String,
        format: TextureFormat,
    },
    TextureNotPot {
        texture: u32,
        name: String,
        width: u16,
        height: u16,
    },
    TextureTooLarge {
        texture: u32,
        name: String,
        width: u16,
        height: u16,
    },
    TextureIdOutOfRange {
        mesh: u32,
        name: String,
        texture_id: i32,
    },
    ScrollOnAtlas {
        mesh: u32,
        name: String,
        texture: String,
    },
    MeshOverChunkBudget {
        mesh: u32,
        name: String,
        vertices: usize,
    },
    MeshBoundsMissVertices {
        mesh: u32,
        name: String,
    },
    HeaderBoundsMissMesh {
        mesh: u32,
        name: String,
    },
    EmitterUsesAtlas {
        emitter: u32,
        name: String,
        texture: String,
    },
    TooManyEmitters {
        count: usize,
    },
    EmitterOverBudget {
        emitter: u32,
        name: String,
        count: u16,
    },
    MapOverParticleBudget {
        total: u32,
    },
}

impl fmt::Display for ComplianceIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotV3 { magic, version } => write!(
                f,
                "header: magic 0x{magic:08X} version {version}; a conforming writer emits \"PBM3\" version 3 (re-save as v3)"
            ),
            Self::BlendNot8888 {
                texture,
                name,
                format,
            } => write!(
                f,
                "texture {texture} '{name}': BLEND textures must be RGBA8888, found {format}"
            ),
            Self::TextureNotPot {
                texture,
                name,
                width,
                height,
            } => write!(
                f,
                "texture {texture} '{name}': {width}×{height} is not a power of two"
            ),
            Self::TextureTooLarge {
                texture,
                name,
                width,
                height,
            } => write!(
                f,
                "texture {texture} '{name}': {width}×{height} exceeds the PSP's 512×512"
            ),
            Self::TextureIdOutOfRange {
                mesh,
                name,
                texture_id,
            } => write!(
                f,
                "mesh {mesh} '{name}': texture_id {texture_id} is out of range"
            ),
            Self::ScrollOnAtlas {
                mesh,
                name,
                texture,
            } => write!(
                f,
                "mesh {mesh} '{name}': scrolls but uses atlas texture '{texture}'; scrolling meshes need a standalone texture"
            ),
            Self::MeshOverChunkBudget {
                mesh,
                name,
                vertices,
            } => write!(
                f,
                "mesh {mesh} '{name}': {vertices} vertices, chunks hold at most {MAX_MESH_VERTICES}"
            ),
            Self::MeshBoundsMissVertices { mesh, name } => write!(
                f,
                "mesh {mesh} '{name}': bounds do not contain all its vertices"
            ),
            Self::HeaderBoundsMissMesh { mesh, name } => {
                write!(f, "header bounds do not contain mesh {mesh} '{name}'")
            }
            Self::EmitterUsesAtlas {
                emitter,
                name,
                texture,
            } => write!(
                f,
                "emitter {emitter} '{name}': uses atlas texture '{texture}'; emitters need a standalone texture"
            ),
            Self::TooManyEmitters { count } => {
                write!(f, "{count} emitters; a map holds at most {MAX_EMITTERS}")
            }
            Self::EmitterOverBudget {
                emitter,
                name,
                count,
            } => write!(
                f,
                "emitter {emitter} '{name}': {count} particles; at most {MAX_PARTICLES_PER_EMITTER}"
            ),
            Self::MapOverParticleBudget { total } => write!(
                f,
                "{total} particles in the map; at most {MAX_PARTICLES_PER_MAP}"
            ),
        }
    }
}

fn contains(lo: [f32; 3], hi: [f32; 3], p: [f32; 3]) -> bool {
    (0..3).all(|k| lo[k] <= p[k] && p[k] <= hi[k])
}

/// Every rule the map breaks, in file order.
pub fn check(map: &Map) -> Vec<ComplianceIssue> {
    let mut out = Vec::new();
    if map.magic != MAGIC_V3 || map.version != Version::V3 {
        out.push(ComplianceIssue::NotV3 {
            magic: map.magic,
            version: map.version.number(),
        });
    }
    for (i, t) in map.textures.iter().enumerate() {
        let (texture, name) = (i as u32, String::from(t.name.as_str()));
        if t.alpha_mode == AlphaMode::Blend && t.format != TextureFormat::Rgba8888 {
            out.push(ComplianceIssue::BlendNot8888 {
                texture,
                name: name.clone(),
                format: t.format,
            });
        }
        if !(t.width.is_power_of_two() && t.height.is_power_of_two()) {
            out.push(ComplianceIssue::TextureNotPot {
                texture,
                name: name.clone(),
                width: t.width,
                height: t.height,
            });
        }
        if t.width > 512 || t.height > 512 {
            out.push(ComplianceIssue::TextureTooLarge {
                texture,
                name,
                width: t.width,
                height: t.height,
            });
        }
    }
    let texture = |id: i32| usize::try_from(id).ok().and_then(|i| map.textures.get(i));
    for (i, m) in map.meshes.iter().enumerate() {
        let (mesh, name) = (i as u32, String::from(m.name.as_str()));
        let tex = texture(m.texture_id);
        if m.texture_id != -1 && tex.is_none() {
            out.push(ComplianceIssue::TextureIdOutOfRange {
                mesh,
                name: name.clone(),
                texture_id: m.texture_id,
            });
        }
        if let Some(t) = tex
            && m.uv_scroll != [0.0, 0.0]
            && t.is_atlas()
        {
            out.push(ComplianceIssue::ScrollOnAtlas {
                mesh,
                name: name.clone(),
                texture: t.name.as_str().into(),
            });
        }
        if m.vertices.len() > MAX_MESH_VERTICES as usize {
            out.push(ComplianceIssue::MeshOverChunkBudget {
                mesh,
                name: name.clone(),
                vertices: m.vertices.len(),
            });
        }
        if !m
            .vertices
            .iter()
            .all(|v| contains(m.bounds_min, m.bounds_max, v.pos))
        {
            out.push(ComplianceIssue::MeshBoundsMissVertices {
                mesh,
                name: name.clone(),
            });
        }
        let inside = bounds_of([m.bounds_min, m.bounds_max]).is_some_and(|(lo, hi)| {
            contains(map.bounds_min, map.bounds_max, lo)
                && contains(map.bounds_min, map.bounds_max, hi)
        });
        if !inside {
            out.push(ComplianceIssue::HeaderBoundsMissMesh { mesh, name });
        }
    }
    if let Some(lump) = &map.emitters {
        if lump.records.len() > MAX_EMITTERS as usize {
            out.push(ComplianceIssue::TooManyEmitters {
                count: lump.records.len(),
            });
        }
        let mut total = 0u32;
        for (i, e) in lump.records.iter().enumerate() {
            let (emitter, name) = (i as u32, String::from(e.name.as_str()));
            total += u32::from(e.count);
            if u32::from(e.count) > MAX_PARTICLES_PER_EMITTER {
                out.push(ComplianceIssue::EmitterOverBudget {
                    emitter,
                    name: name.clone(),
                    count: e.count,
                });
            }
            if let Some(t) = texture(e.texture_id).filter(|t| t.is_atlas()) {
                out.push(ComplianceIssue::EmitterUsesAtlas {
                    emitter,
                    name,
                    texture: t.name.as_str().into(),
                });
            }
        }
        if total > MAX_PARTICLES_PER_MAP {
            out.push(ComplianceIssue::MapOverParticleBudget { total });
        }
    }
    out
}
