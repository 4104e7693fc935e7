//! PS1 TMD models (with TIM textures).
//!
//! Header: `u32 id = 0x41`, `u32 flags` (bit 0 FIXP), `u32 nobj`; then `nobj` object
//! entries of 7 words (vert_top, n_vert, normal_top, n_normal, primitive_top,
//! n_primitive, scale = 2^scale); with FIXP = 0 the pointers are offsets from the
//! start of the object table. Vertices and normals: 2 words (X low 16 / Y high 16,
//! Z low 16), signed; normals 4.12 fixed point. Packets: one word `olen | ilen << 8 |
//! flag << 16 | mode << 24`, then `ilen` words laid out by mode and flag (see
//! [`parse_polygon`]).
//!
//! Axes and winding: the PS1 has X right, Y down, Z into the screen and draws a
//! polygon's front when its vertices run clockwise on screen. Pebble is Y-up with
//! counter-clockwise fronts, so positions map (x, y, z) → (x, −y, −z) (a rotation) and
//! every triangle's winding is reversed. Quads are stored in "Z" order (v0 v1 on top,
//! v2 v3 below) and are drawn by the GPU as (v0, v1, v2) + (v1, v3, v2): the import
//! emits (v0, v2, v1) and (v1, v2, v3).

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::material::AlphaMode;
use pebble_model::mesh::{Face, MeshData};
use pebble_model::{Entity, Kind, Material, MaterialId, Transform};

use super::tim::{PageFormat, Tim, Vram};
use super::{ImportCommand, ImportError, ImportOptions, ImportReport, Imported, textures};

pub const TMD_ID: u32 = 0x41;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmdError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for TmdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TMD at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for TmdError {}

fn err(offset: usize, message: impl Into<String>) -> TmdError {
    TmdError {
        offset,
        message: message.into(),
    }
}

fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes([
        *b.get(o)?,
        *b.get(o + 1)?,
        *b.get(o + 2)?,
        *b.get(o + 3)?,
    ]))
}

fn i16_at(b: &[u8], o: usize) -> Option<i16> {
    Some(i16::from_le_bytes([*b.get(o)?, *b.get(o + 1)?]))
}

/// One polygon packet, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    /// Byte offset of the packet in the file.
    pub offset: usize,
    pub vertices: Vec<u16>,
    pub normals: Vec<u16>,
    /// One colour (flat) or one per vertex.
    pub colors: Vec<[u8; 3]>,
    pub uvs: Option<Vec<[u8; 2]>>,
    pub cba: u16,
    pub tsb: u16,
    pub translucent: bool,
    pub double_sided: bool,
    /// TGE: the texture is drawn as is, without the colour.
    pub raw_texture: bool,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct TmdObject {
    pub vertices: Vec<[i16; 3]>,
    pub normals: Vec<[i16; 3]>,
    pub polygons: Vec<Polygon>,
    pub scale: i32,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tmd {
    pub objects: Vec<TmdObject>,
    pub lines: usize,
    pub sprites: usize,
    /// Packets that were skipped, with why.
    pub skipped: Vec<String>,
}

/// The words of a packet's data, read as little-endian halves and bytes.
struct Words<'a> {
    data: &'a [u8],
    at: usize,
}

impl Words<'_> {
    fn word(&mut self) -> [u8; 4] {
        let w = self
            .data
            .get(self.at..self.at + 4)
            .map(|s| [s[0], s[1], s[2], s[3]])
            .unwrap_or([0; 4]);
        self.at += 4;
        w
    }

    fn halves(&mut self) -> (u16, u16) {
        let w = self.word();
        (
            u16::from_le_bytes([w[0], w[1]]),
            u16::from_le_bytes([w[2], w[3]]),
        )
    }
}

/// The data words a polygon packet of this mode and flag has.
pub fn polygon_words(mode: u8, flag: u8) -> usize {
    let n: usize = if mode & 8 != 0 { 4 } else { 3 };
    let textured = mode & 4 != 0;
    let gouraud = mode & 16 != 0;
    let unlit = flag & 1 != 0;
    let gradation = flag & 4 != 0;
    let uv = if textured { n } else { 0 };
    if unlit {
        let colors = if gouraud { n } else { 1 };
        uv + colors + n.div_ceil(2)
    } else {
        let colors = if textured {
            0
        } else if gradation {
            n
        } else {
            1
        };
        // Normal + vertex pairs: one per vertex (Gouraud) or one normal then packed vertices.
        let nv = if gouraud { n } else { 1 + (n - 1).div_ceil(2) };
        uv + colors + nv
    }
}

/// Decodes a polygon packet's data (the words after the header).
///
/// Lit packets (flag LGT = 0) hold: UV words if textured (`U V CBA`, `U V TSB`,
/// `U V -`, …), colour words if untextured (one, or one per vertex with GRD), then
/// normal/vertex halves: Gouraud `N0 V0, N1 V1, …`; flat `N0 V0, V1 V2, V3 -`.
/// Unlit packets (LGT = 1): UV words if textured, colour words (one, or one per
/// vertex when Gouraud), then vertex indices two per word.
pub fn parse_polygon(data: &[u8], offset: usize, mode: u8, flag: u8) -> Polygon {
    let n: usize = if mode & 8 != 0 { 4 } else { 3 };
    let textured = mode & 4 != 0;
    let gouraud = mode & 16 != 0;
    let unlit = flag & 1 != 0;
    let gradation = flag & 4 != 0;
    let mut w = Words { data, at: 0 };
    let mut p = Polygon {
        offset,
        vertices: Vec::with_capacity(n),
        normals: Vec::new(),
        colors: Vec::new(),
        uvs: None,
        cba: 0,
        tsb: 0,
        translucent: mode & 2 != 0,
        double_sided: flag & 2 != 0,
        raw_texture: textured && mode & 1 != 0,
    };
    if textured {
        let mut uvs = Vec::with_capacity(n);
        for k in 0..n {
            let word = w.word();
            uvs.push([word[0], word[1]]);
            let extra = u16::from_le_bytes([word[2], word[3]]);
            match k {
                0 => p.cba = extra,
                1 => p.tsb = extra,
                _ => {}
            }
        }
        p.uvs = Some(uvs);
    }
    let color_words = if unlit {
        if gouraud { n } else { 1 }
    } else if textured {
        0
    } else if gradation {
        n
    } else {
        1
    };
    for _ in 0..color_words {
        let c = w.word();
        p.colors.push([c[0], c[1], c[2]]);
    }
    if unlit {
        for _ in 0..n.div_ceil(2) {
            let (a, b) = w.halves();
            p.vertices.push(a);
            p.vertices.push(b);
        }
        p.vertices.truncate(n);
    } else if gouraud {
        for _ in 0..n {
            let (normal, vertex) = w.halves();
            p.normals.push(normal);
            p.vertices.push(vertex);
        }
    } else {
        let (normal, v0) = w.halves();
        p.normals.push(normal);
        p.vertices.push(v0);
        for _ in 0..(n - 1).div_ceil(2) {
            let (a, b) = w.halves();
            p.vertices.push(a);
            p.vertices.push(b);
        }
        p.vertices.truncate(n);
    }
    p
}

/// Parses a TMD file. Every count and pointer is checked against the file before use.
pub fn parse(b: &[u8]) -> Result<Tmd, TmdError> {
    let id = u32_at(b, 0).ok_or_else(|| err(0, "file is shorter than the 12-byte header"))?;
    if id != TMD_ID {
        return Err(err(
            0,
            format!("id is 0x{id:08X}, expected 0x00000041 (not a TMD)"),
        ));
    }
    let flags = u32_at(b, 4).ok_or_else(|| err(4, "file is shorter than the 12-byte header"))?;
    let nobj =
        u32_at(b, 8).ok_or_else(|| err(8, "file is shorter than the 12-byte header"))? as usize;
    if flags & 1 != 0 {
        return Err(err(
            4,
            "FIXP = 1: the pointers are memory addresses of a loaded model, not file offsets; re-export the TMD with FIXP = 0",
        ));
    }
    const TABLE: usize = 12;
    if nobj > (b.len().saturating_sub(TABLE)) / 28 {
        return Err(err(
            8,
            format!(
                "{nobj} objects need {} bytes of object table; the file has {}",
                nobj.saturating_mul(28),
                b.len().saturating_sub(TABLE)
            ),
        ));
    }
    let mut tmd = Tmd::default();
    for k in 0..nobj {
        let entry = TABLE + k * 28;
        let word = |i: usize| u32_at(b, entry + 4 * i).unwrap_or(0) as usize;
        let (vert_top, n_vert, normal_top, n_normal, prim_top, n_prim) =
            (word(0), word(1), word(2), word(3), word(4), word(5));
        let scale = u32_at(b, entry + 24).unwrap_or(0) as i32;
        let section = |top: usize,
                       count: usize,
                       size: usize,
                       what: &str,
                       field: usize|
         -> Result<usize, TmdError> {
            let start = TABLE.checked_add(top).ok_or_else(|| {
                err(
                    entry + field,
                    format!("object {k}: {what} pointer overflows"),
                )
            })?;
            let bytes = count.checked_mul(size).ok_or_else(|| {
                err(
                    entry + field + 4,
                    format!("object {k}: {count} {what} overflow"),
                )
            })?;
            match start.checked_add(bytes) {
                Some(end) if end <= b.len() => Ok(start),
                _ => Err(err(
                    entry + field,
                    format!(
                        "object {k}: {count} {what} at byte {start} run past the end of the file ({} bytes)",
                        b.len()
                    ),
                )),
            }
        };
        let vstart = section(vert_top, n_vert, 8, "vertices", 0)?;
        let nstart = section(normal_top, n_normal, 8, "normals", 8)?;
        let read3 = |at: usize| {
            [
                i16_at(b, at).unwrap_or(0),
                i16_at(b, at + 2).unwrap_or(0),
                i16_at(b, at + 4).unwrap_or(0),
            ]
        };
        let mut obj = TmdObject {
            vertices: (0..n_vert).map(|i| read3(vstart + 8 * i)).collect(),
            normals: (0..n_normal).map(|i| read3(nstart + 8 * i)).collect(),
            polygons: Vec::new(),
            scale,
        };
        let mut at = TABLE
            .checked_add(prim_top)
            .filter(|a| *a <= b.len())
            .ok_or_else(|| {
                err(
                    entry + 16,
                    format!("object {k}: primitive pointer {prim_top} is past the end of the file"),
                )
            })?;
        if n_prim > b.len().saturating_sub(at) / 4 {
            return Err(err(
                entry + 20,
                format!(
                    "object {k}: {n_prim} primitives cannot fit in the {} bytes after byte {at}",
                    b.len().saturating_sub(at)
                ),
            ));
        }
        for _ in 0..n_prim {
            let header = u32_at(b, at)
                .ok_or_else(|| err(at, format!("object {k}: the packet header is cut off")))?;
            let ilen = ((header >> 8) & 0xFF) as usize;
            let flag = ((header >> 16) & 0xFF) as u8;
            let mode = (header >> 24) as u8;
            let data = b.get(at + 4..at + 4 + 4 * ilen).ok_or_else(|| {
                err(
                    at,
                    format!("object {k}: packet of {ilen} words runs past the end of the file"),
                )
            })?;
            match mode >> 5 {
                1 => {
                    let expected = polygon_words(mode, flag);
                    if ilen < expected {
                        tmd.skipped.push(format!("packet at byte {at}: polygon mode 0x{mode:02X} flag 0x{flag:02X} has {ilen} data words, needs {expected}; skipped"));
                    } else {
                        let p = parse_polygon(data, at, mode, flag);
                        let bad = p.vertices.iter().find(|v| usize::from(**v) >= obj.vertices.len());
                        if let Some(v) = bad {
                            return Err(err(at, format!("object {k}: polygon uses vertex {v}, the object has {}", obj.vertices.len())));
                        }
                        obj.polygons.push(p);
                    }
                }
                2 => tmd.lines += 1,
                3 => tmd.sprites += 1,
                code => tmd.skipped.push(format!("packet at byte {at}: unknown primitive code {code} (mode 0x{mode:02X}); skipped")),
            }
            at += 4 + 4 * ilen;
        }
        tmd.objects.push(obj);
    }
    Ok(tmd)
}

/// Where a packet's texels live: texture page, format and CLUT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct TextureKey {
    page: (usize, usize),
    format: PageFormat,
    clut: (usize, usize),
}

fn texture_key(p: &Polygon) -> TextureKey {
    let tpage = usize::from(p.tsb & 0x1F);
    let format = match (p.tsb >> 7) & 3 {
        0 => PageFormat::Bits4,
        1 => PageFormat::Bits8,
        _ => PageFormat::Bits15,
    };
    TextureKey {
        page: ((tpage & 15) * 64, (tpage >> 4) * 256),
        format,
        clut: (
            usize::from(p.cba & 0x3F) * 16,
            usize::from((p.cba >> 6) & 0x1FF),
        ),
    }
}

/// Imports a TMD read from `path`, with its TIM if there is one.
pub fn import_file(
    bytes: &[u8],
    path: &Path,
    options: &ImportOptions,
) -> Result<Imported, ImportError> {
    let tmd = parse(bytes).map_err(|e| ImportError::format(path, e.to_string()))?;
    let mut report = ImportReport::default();
    let tim_path = options
        .tim
        .clone()
        .unwrap_or_else(|| path.with_extension("tim"));
    let vram = match std::fs::read(&tim_path) {
        Ok(tim_bytes) => {
            let tim = Tim::parse(&tim_bytes)
                .map_err(|e| ImportError::format(&tim_path, e.to_string()))?;
            let mut vram = Vram::default();
            vram.load(&tim);
            Some(vram)
        }
        Err(_) if options.tim.is_some() => {
            return Err(ImportError::Read {
                path: tim_path,
                cause: std::io::Error::from(std::io::ErrorKind::NotFound),
            });
        }
        Err(_) => None,
    };
    let textured = tmd
        .objects
        .iter()
        .flat_map(|o| &o.polygons)
        .any(|p| p.uvs.is_some());
    if textured && vram.is_none() {
        report.warnings.push(format!(
            "no TIM found at {} (give one with --tim): textured polygons are imported untextured",
            tim_path.display()
        ));
    }
    report.warnings.extend(tmd.skipped.iter().cloned());
    if tmd.lines + tmd.sprites > 0 {
        report.warnings.push(format!(
            "{} lines and {} 3D sprites skipped (Pebble imports polygons)",
            tmd.lines, tmd.sprites
        ));
    }

    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "tmd".into());
    // Texture pages in use: the rectangle of UVs each (page, format, CLUT) covers.
    let mut rects: BTreeMap<TextureKey, (u8, u8, u8, u8)> = BTreeMap::new();
    if vram.is_some() {
        for p in tmd.objects.iter().flat_map(|o| &o.polygons) {
            if let Some(uvs) = &p.uvs {
                let r = rects.entry(texture_key(p)).or_insert((255, 255, 0, 0));
                for [u, v] in uvs {
                    *r = (r.0.min(*u), r.1.min(*v), r.2.max(*u), r.3.max(*v));
                }
            }
        }
    }
    let mut texture_files = BTreeMap::new();
    if let Some(vram) = &vram {
        for (i, (key, (u0, v0, u1, v1))) in rects.iter().enumerate() {
            let (w, h) = (u32::from(*u1 - *u0) + 1, u32::from(*v1 - *v0) + 1);
            let mut rgba = Vec::with_capacity((w * h * 4) as usize);
            for v in 0..h as usize {
                for u in 0..w as usize {
                    rgba.extend(vram.texel(
                        key.page,
                        key.format,
                        key.clut,
                        usize::from(*u0) + u,
                        usize::from(*v0) + v,
                    ));
                }
            }
            let rel = textures::write_png(
                &options.project_dir,
                &format!("{stem}_page{i}"),
                w,
                h,
                &rgba,
            )?;
            report.textures_written.push(rel.clone());
            texture_files.insert(*key, rel);
        }
    }

    let metres = options.tmd_metres_per_unit;
    let mut materials: Vec<Material> = Vec::new();
    let mut material_index: BTreeMap<(Option<TextureKey>, bool, bool, bool), MaterialId> =
        BTreeMap::new();
    let mut entities = Vec::new();
    for (k, obj) in tmd.objects.iter().enumerate() {
        let scale = metres * 2f32.powi(obj.scale.clamp(-30, 30));
        let to_world =
            |v: [i16; 3]| Vec3::new(f32::from(v[0]), -f32::from(v[1]), -f32::from(v[2])) * scale;
        let mut mesh = MeshData {
            colors: Some(Vec::new()),
            ..MeshData::default()
        };
        let mut normals: Vec<Vec3> = Vec::new();
        for p in &obj.polygons {
            let key = p.uvs.as_ref().and_then(|_| {
                let key = texture_key(p);
                texture_files.contains_key(&key).then_some(key)
            });
            let mat_key = (key, p.translucent, p.double_sided, p.raw_texture);
            let material = *material_index.entry(mat_key).or_insert_with(|| {
                let id = MaterialId(materials.len() as u32);
                materials.push(Material {
                    name: match key {
                        Some(_) => format!("{stem} page {}", materials.len()),
                        None => format!("{stem} colour {}", materials.len()),
                    },
                    texture: key.and_then(|key| texture_files.get(&key).cloned()),
                    alpha: if p.translucent {
                        AlphaMode::Blend
                    } else if key.is_some() {
                        AlphaMode::Cutout
                    } else {
                        AlphaMode::None
                    },
                    double_sided: p.double_sided,
                    // A texture page (at most 256 a side, its UVs inside it) is a
                    // tile-atlas candidate, as a glTF's small textures are; a
                    // translucent one never is.
                    tile: key.is_some() && !p.translucent,
                    ..Material::default()
                });
                id
            });
            let rect = key.and_then(|key| rects.get(&key)).copied();
            let n = p.vertices.len();
            let corner_color = |i: usize| -> [f32; 4] {
                if p.raw_texture || (p.uvs.is_some() && p.colors.is_empty()) {
                    return [1.0; 4];
                }
                let c = p
                    .colors
                    .get(i)
                    .or(p.colors.first())
                    .copied()
                    .unwrap_or([128, 128, 128]);
                // 128 is full brightness on the PS1 (texture × colour / 128).
                let scale = if p.uvs.is_some() {
                    1.0 / 128.0
                } else {
                    1.0 / 255.0
                };
                [
                    f32::from(c[0]) * scale,
                    f32::from(c[1]) * scale,
                    f32::from(c[2]) * scale,
                    1.0,
                ]
                .map(|x| x.min(1.0))
            };
            let corner_uv = |i: usize| -> Vec2 {
                match (&p.uvs, rect) {
                    (Some(uvs), Some((u0, v0, u1, v1))) => {
                        let [u, v] = uvs[i];
                        let (w, h) = (f32::from(u1 - u0) + 1.0, f32::from(v1 - v0) + 1.0);
                        Vec2::new(f32::from(u - u0) / w, f32::from(v - v0) / h)
                    }
                    _ => Vec2::ZERO,
                }
            };
            let base = mesh.positions.len() as u32;
            for i in 0..n {
                // Lit packets carry normals (4.12 fixed point); unlit ones get flat ones below.
                let normal = p
                    .normals
                    .get(i)
                    .or(p.normals.first())
                    .and_then(|k| obj.normals.get(usize::from(*k)));
                normals.push(normal.map_or(Vec3::ZERO, |v| {
                    Vec3::new(f32::from(v[0]), -f32::from(v[1]), -f32::from(v[2]))
                        .normalize_or_zero()
                }));
                mesh.positions
                    .push(to_world(obj.vertices[usize::from(p.vertices[i])]));
                if let Some(c) = &mut mesh.colors {
                    c.push(corner_color(i));
                }
            }
            // Reverse the PS1's clockwise fronts (see the module doc).
            let tris: &[[usize; 3]] = if n == 4 {
                &[[0, 2, 1], [1, 2, 3]]
            } else {
                &[[0, 2, 1]]
            };
            for t in tris {
                mesh.faces.push(Face {
                    indices: t.map(|i| base + i as u32),
                    uvs: t.map(corner_uv),
                    material,
                });
            }
        }
        if mesh.faces.is_empty() {
            continue;
        }
        if normals.iter().any(|n| *n != Vec3::ZERO) {
            for f in &mesh.faces {
                let [a, b, c] = mesh.triangle(f);
                let flat = (b - a).cross(c - a).normalize_or(Vec3::Y);
                for i in f.indices {
                    if let Some(n) = normals.get_mut(i as usize).filter(|n| **n == Vec3::ZERO) {
                        *n = flat;
                    }
                }
            }
            mesh.normals = Some(normals);
        }
        let mut e = Entity::new(
            format!("{stem} {k}"),
            EntityKind::Mesh(MeshEntity {
                source: GeometrySource::Asset {
                    path: path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    mesh: format!("object {k}"),
                },
                geometry: mesh,
                collidable: true,
            }),
        );
        e.transform = Transform::IDENTITY;
        entities.push(e);
    }
    report.entities.insert(Kind::Mesh, entities.len());
    report.materials = materials.len();
    Ok(Imported {
        command: ImportCommand::new(format!("Import {stem}"), materials, entities, None),
        report,
    })
}
