//! The owned map: every record of a file in plain data, read from a checked
//! [`MapView`] and written back in exactly the packed layout.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::bytes::PutLe;
use crate::emitter::{EMITTERS_TAG, EmitterLump, EmitterLumpRef};
use crate::error::{ReadError, Warning, WriteError};
use crate::format::*;
use crate::name::Name32;
use crate::particle::ParticleField;
use crate::view::{MapView, Triangle, Vertex};

#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    pub name: Name32,
    pub width: u16,
    pub height: u16,
    pub format: TextureFormat,
    pub alpha_mode: AlphaMode,
    /// Base-level texels (`width × height × bytes per pixel`), linear, unswizzled.
    pub data: Vec<u8>,
}

impl Texture {
    pub fn expected_data_size(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * u64::from(self.format.bytes_per_pixel())
    }

    pub fn is_atlas(&self) -> bool {
        is_atlas_name(self.name.as_str())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    pub name: Name32,
    /// Texture index, or -1 for vertex colour only.
    pub texture_id: i32,
    pub bounds_min: [f32; 3],
    pub bounds_max: [f32; 3],
    /// Texture repeats per second along U and V (v3 only).
    pub uv_scroll: [f32; 2],
    /// Triangle list, counter-clockwise front faces.
    pub vertices: Vec<Vertex>,
}

impl Mesh {
    /// The exact bounds of the vertices, or `None` for an empty mesh.
    pub fn vertex_bounds(&self) -> Option<([f32; 3], [f32; 3])> {
        bounds_of(self.vertices.iter().map(|v| v.pos))
    }
}

/// The axis-aligned bounds of some points.
pub fn bounds_of(points: impl IntoIterator<Item = [f32; 3]>) -> Option<([f32; 3], [f32; 3])> {
    let mut it = points.into_iter();
    let first = it.next()?;
    let (mut lo, mut hi) = (first, first);
    for p in it {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    Some((lo, hi))
}

#[derive(Debug, Clone, PartialEq)]
pub struct Collider {
    pub name: Name32,
    pub kind: ColliderKind,
    pub bounds_min: [f32; 3],
    pub bounds_max: [f32; 3],
    /// World-space triangles (empty for a BOX from our exporter).
    pub triangles: Vec<Triangle>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Metadata {
    pub tag: Name32,
    pub kind: MetaKind,
    /// Payload without padding; STRING/JSON end with one NUL.
    pub payload: Vec<u8>,
}

impl Metadata {
    /// A STRING or JSON lump: the text plus its NUL.
    pub fn text(tag: Name32, kind: MetaKind, text: &str) -> Self {
        let mut payload = Vec::with_capacity(text.len() + 1);
        payload.extend_from_slice(text.as_bytes());
        payload.push(0);
        Self { tag, kind, payload }
    }

    /// The text of a STRING/JSON payload, without its NUL.
    pub fn as_text(&self) -> Option<&str> {
        let body = self.payload.strip_suffix(&[0]).unwrap_or(&self.payload);
        core::str::from_utf8(body).ok()
    }
}

/// A whole map in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Map {
    /// Magic word as read (a new map: "PBM3").
    pub magic: u32,
    /// Version the map was read as (a new map: v3).
    pub version: Version,
    pub spawn_pos: [f32; 3],
    /// Yaw, radians.
    pub spawn_rot: f32,
    pub bounds_min: [f32; 3],
    pub bounds_max: [f32; 3],
    pub textures: Vec<Texture>,
    pub meshes: Vec<Mesh>,
    pub colliders: Vec<Collider>,
    /// Every metadata lump except the decoded `emitters` lump.
    pub metadata: Vec<Metadata>,
    /// The decoded `emitters` lump, as stored (see [`Map::particle_field`] for the
    /// sanitised view). A lump a loader would skip stays in `metadata`.
    pub emitters: Option<EmitterLump>,
}

impl Default for Map {
    fn default() -> Self {
        Self {
            magic: MAGIC_V3,
            version: Version::V3,
            spawn_pos: [0.0; 3],
            spawn_rot: 0.0,
            bounds_min: [0.0; 3],
            bounds_max: [0.0; 3],
            textures: Vec::new(),
            meshes: Vec::new(),
            colliders: Vec::new(),
            metadata: Vec::new(),
            emitters: None,
        }
    }
}

impl Map {
    /// Reads a file; warnings say what is suspicious but readable.
    pub fn read(data: &[u8]) -> Result<(Self, Vec<Warning>), ReadError> {
        let (view, warnings) = MapView::parse(data)?;
        Ok((Self::from_view(&view), warnings))
    }

    /// Copies a checked view into owned data.
    pub fn from_view(view: &MapView<'_>) -> Self {
        let h = view.header();
        let textures = view
            .textures()
            .map(|t| Texture {
                name: t.name,
                width: t.width,
                height: t.height,
                format: t.format,
                alpha_mode: t.alpha_mode,
                data: t.data.to_vec(),
            })
            .collect();
        let meshes = view
            .meshes()
            .map(|m| Mesh {
                name: m.name,
                texture_id: m.texture_id,
                bounds_min: m.bounds_min,
                bounds_max: m.bounds_max,
                uv_scroll: m.uv_scroll,
                vertices: m.vertices().collect(),
            })
            .collect();
        let colliders = view
            .colliders()
            .map(|c| Collider {
                name: c.name,
                kind: c.kind,
                bounds_min: c.bounds_min,
                bounds_max: c.bounds_max,
                triangles: c.triangles().collect(),
            })
            .collect();
        let mut metadata = Vec::new();
        let mut emitters = None;
        for m in view.metadata() {
            if emitters.is_none() && m.tag.as_bytes() == EMITTERS_TAG.as_bytes() {
                let at = (m.offset + METADATA_HEADER_SIZE) as u64;
                if let Some(lump) = EmitterLumpRef::parse_with(m.payload, at, m.index, &mut |_| {})
                {
                    emitters = Some(EmitterLump::from_ref(&lump, m.kind, metadata.len()));
                    continue;
                }
            }
            metadata.push(Metadata {
                tag: m.tag,
                kind: m.kind,
                payload: m.payload.to_vec(),
            });
        }
        Self {
            magic: h.magic,
            version: h.version,
            spawn_pos: h.spawn_pos,
            spawn_rot: h.spawn_rot,
            bounds_min: h.bounds_min,
            bounds_max: h.bounds_max,
            textures,
            meshes,
            colliders,
            metadata,
            emitters,
        }
    }

    /// The first metadata lump with this tag.
    pub fn metadata_by_tag(&self, tag: &str) -> Option<&Metadata> {
        self.metadata
            .iter()
            .find(|m| m.tag.as_bytes() == tag.as_bytes())
    }

    /// The sanitised emitters with their particle constants, as the runtime loads them.
    pub fn particle_field(&self, warn: &mut dyn FnMut(Warning)) -> ParticleField {
        match &self.emitters {
            Some(lump) => ParticleField::from_lump(lump, self.textures.len() as u32, warn),
            None => ParticleField::default(),
        }
    }

    /// Metadata lumps in file order, the emitters lump included.
    fn metadata_in_order(&self) -> Vec<(Name32, MetaKind, MetaPayload<'_>)> {
        let mut out: Vec<(Name32, MetaKind, MetaPayload<'_>)> = self
            .metadata
            .iter()
            .map(|m| (m.tag, m.kind, MetaPayload::Borrowed(&m.payload)))
            .collect();
        if let Some(lump) = &self.emitters {
            let tag = Name32::truncated(EMITTERS_TAG);
            let at = lump.position.min(out.len());
            out.insert(at, (tag, lump.meta_kind, MetaPayload::Owned(lump.encode())));
        }
        out
    }

    /// Recomputes every mesh's bounds from its vertices and the header bounds from
    /// the meshes (colliders are not part of the header bounds).
    pub fn recompute_bounds(&mut self) {
        for m in &mut self.meshes {
            if let Some((lo, hi)) = m.vertex_bounds() {
                m.bounds_min = lo;
                m.bounds_max = hi;
            }
        }
        let corners = self
            .meshes
            .iter()
            .flat_map(|m| [m.bounds_min, m.bounds_max]);
        if let Some((lo, hi)) = bounds_of(corners) {
            self.bounds_min = lo;
            self.bounds_max = hi;
        }
    }

    /// Writes the map as v3.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
        self.to_bytes_as(Version::V3)
    }

    /// Writes the map in the packed layout of `version`. Refuses what that version
    /// cannot hold (metadata in v1; UV scroll and BLEND before v3) rather than drop it.
    pub fn to_bytes_as(&self, version: Version) -> Result<Vec<u8>, WriteError> {
        let mut out = Vec::new();
        self.write_into(version, &mut out)?;
        Ok(out)
    }

    /// Like [`Map::to_bytes_as`], into a buffer that is cleared first, so that a
    /// caller exporting repeatedly reuses its allocation. On error `out` is empty.
    pub fn write_into(&self, version: Version, out: &mut Vec<u8>) -> Result<(), WriteError> {
        out.clear();
        let metadata = self.metadata_in_order();
        self.check_representable(version, &metadata)?;
        let size = self.encoded_size(version, &metadata)?;
        out.reserve(size as usize);

        out.put_u32(version.magic());
        out.put_u32(version.number());
        out.put_u32(count32("textures", self.textures.len())?);
        out.put_u32(count32("meshes", self.meshes.len())?);
        out.put_u32(count32("colliders", self.colliders.len())?);
        if version.has_metadata() {
            out.put_u32(count32("metadata lumps", metadata.len())?);
        }
        out.put_vec3(self.spawn_pos);
        out.put_f32(self.spawn_rot);
        out.put_vec3(self.bounds_min);
        out.put_vec3(self.bounds_max);

        for t in &self.textures {
            out.extend_from_slice(t.name.raw());
            out.put_u16(t.width);
            out.put_u16(t.height);
            out.put_u16(t.format.code());
            out.put_u16(t.alpha_mode.code());
            out.put_u32(t.data.len() as u32);
            out.extend_from_slice(&t.data);
        }

        for m in &self.meshes {
            out.extend_from_slice(m.name.raw());
            out.put_i32(m.texture_id);
            out.put_u32(m.vertices.len() as u32);
            out.put_vec3(m.bounds_min);
            out.put_vec3(m.bounds_max);
            if version == Version::V3 {
                out.put_f32(m.uv_scroll[0]);
                out.put_f32(m.uv_scroll[1]);
            }
            let start = out.len();
            out.resize(start + m.vertices.len() * VERTEX_SIZE, 0);
            for (v, dst) in m
                .vertices
                .iter()
                .zip(out[start..].chunks_exact_mut(VERTEX_SIZE))
            {
                v.write_to(dst);
            }
        }

        for c in &self.colliders {
            out.extend_from_slice(c.name.raw());
            out.put_u32(c.kind.code());
            out.put_vec3(c.bounds_min);
            out.put_vec3(c.bounds_max);
            out.put_u32(c.triangles.len() as u32);
            for tri in &c.triangles {
                for p in tri {
                    out.put_vec3(*p);
                }
            }
        }

        if version.has_metadata() {
            for (tag, kind, payload) in &metadata {
                let payload = payload.bytes();
                out.extend_from_slice(tag.raw());
                out.put_u32(kind.code());
                out.put_u32(payload.len() as u32);
                out.extend_from_slice(payload);
                out.extend_from_slice(&[0u8; 3][..metadata_padding(payload.len())]);
            }
        }
        debug_assert_eq!(out.len() as u64, size);
        Ok(())
    }

    fn check_representable(
        &self,
        version: Version,
        metadata: &[(Name32, MetaKind, MetaPayload<'_>)],
    ) -> Result<(), WriteError> {
        let refuse = |what: String| {
            Err(WriteError::NotRepresentable {
                version: version.number(),
                what,
            })
        };
        if version == Version::V3 {
            return Ok(());
        }
        if !version.has_metadata() && !metadata.is_empty() {
            return refuse(format!("{} metadata lumps", metadata.len()));
        }
        if let Some(m) = self.meshes.iter().find(|m| m.uv_scroll != [0.0, 0.0]) {
            return refuse(format!("the UV scroll of mesh '{}'", m.name));
        }
        if let Some(t) = self.textures.iter().find(|t| t.alpha_mode.code() > 1) {
            return refuse(format!(
                "alpha mode {} of texture '{}' (only NONE and CUTOUT)",
                t.alpha_mode.name(),
                t.name
            ));
        }
        Ok(())
    }

    fn encoded_size(
        &self,
        version: Version,
        metadata: &[(Name32, MetaKind, MetaPayload<'_>)],
    ) -> Result<u64, WriteError> {
        let mut size = version.header_size() as u64;
        for t in &self.textures {
            let expected = t.expected_data_size();
            if t.data.len() as u64 != expected {
                return Err(WriteError::TextureDataSize {
                    texture: t.name.as_str().into(),
                    expected,
                    found: t.data.len() as u64,
                });
            }
            size += TEXTURE_HEADER_SIZE as u64 + expected;
        }
        for m in &self.meshes {
            let n = m.vertices.len() as u64;
            if n == 0 || !n.is_multiple_of(3) {
                return Err(WriteError::BadVertexCount {
                    mesh: m.name.as_str().into(),
                    count: n,
                });
            }
            check32(&m.name, "vertex bytes", n * VERTEX_SIZE as u64)?;
            size += version.mesh_header_size() as u64 + n * VERTEX_SIZE as u64;
        }
        for c in &self.colliders {
            let bytes = c.triangles.len() as u64 * TRIANGLE_SIZE as u64;
            check32(&c.name, "triangle bytes", bytes)?;
            size += COLLIDER_HEADER_SIZE as u64 + bytes;
        }
        if version.has_metadata() {
            for (tag, _, payload) in metadata {
                let n = payload.bytes().len();
                check32(tag, "payload bytes", n as u64 + 3)?;
                size += (METADATA_HEADER_SIZE + n + metadata_padding(n)) as u64;
            }
        }
        if usize::try_from(size).is_err() {
            return Err(WriteError::TooLarge {
                what: "the whole file".into(),
                size,
            });
        }
        Ok(size)
    }
}

enum MetaPayload<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl MetaPayload<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Self::Borrowed(b) => b,
            Self::Owned(v) => v,
        }
    }
}

fn count32(what: &str, n: usize) -> Result<u32, WriteError> {
    u32::try_from(n).map_err(|_| WriteError::TooLarge {
        what: format!("number of {what}"),
        size: n as u64,
    })
}

fn check32(name: &Name32, what: &str, n: u64) -> Result<(), WriteError> {
    if n > u64::from(u32::MAX) {
        return Err(WriteError::TooLarge {
            what: format!("{what} of '{name}'"),
            size: n,
        });
    }
    Ok(())
}
