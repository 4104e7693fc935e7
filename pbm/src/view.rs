//! Zero-copy reading: [`MapView`] checks a whole file's structure once (every count,
//! size and offset bounds- and overflow-checked, nothing allocated per claimed record)
//! and then hands out borrowed records.

use alloc::string::String;
use alloc::vec::Vec;

use crate::bytes::{f32_at, i32_at, slice, u16_at, u32_at, vec3_at};
use crate::emitter::{self, EmitterLumpRef};
use crate::error::{ErrorKind, ReadError, Section, Warning, WarningKind};
use crate::format::*;
use crate::name::Name32;

/// A checked view over the bytes of a `.pbm` file.
#[derive(Debug, Clone, Copy)]
pub struct MapView<'a> {
    data: &'a [u8],
    header: Header,
    textures_at: usize,
    meshes_at: usize,
    colliders_at: usize,
    metadata_at: usize,
    end: usize,
}

/// A texture as stored.
#[derive(Debug, Clone, Copy)]
pub struct TextureRef<'a> {
    pub index: u32,
    pub offset: usize,
    pub name: Name32,
    pub width: u16,
    pub height: u16,
    pub format: TextureFormat,
    pub alpha_mode: AlphaMode,
    /// Base-level texels, exactly `width × height × bytes per pixel` bytes.
    pub data: &'a [u8],
}

/// One vertex: `f32 u, f32 v, u32 color (0xAABBGGRR), f32 x, y, z`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vertex {
    pub uv: [f32; 2],
    pub color: u32,
    pub pos: [f32; 3],
}

/// Two `0xAABBGGRR` colours mixed channel by channel, `t` of the way from `a` to
/// `b` (0..1), each channel rounded to the nearest step.
pub fn lerp_color(a: u32, b: u32, t: f32) -> u32 {
    let t = t.clamp(0.0, 1.0);
    let channel = |s: u32| {
        let (x, y) = (((a >> s) & 0xFF) as f32, ((b >> s) & 0xFF) as f32);
        ((x + (y - x) * t + 0.5) as u32).min(255) << s
    };
    channel(0) | channel(8) | channel(16) | channel(24)
}

impl Vertex {
    pub(crate) fn read(b: &[u8]) -> Option<Self> {
        Some(Self {
            uv: [f32_at(b, 0)?, f32_at(b, 4)?],
            color: u32_at(b, 8)?,
            pos: vec3_at(b, 12)?,
        })
    }

    pub(crate) fn write_to(&self, out: &mut [u8]) {
        let fields = [
            self.uv[0].to_bits(),
            self.uv[1].to_bits(),
            self.color,
            self.pos[0].to_bits(),
            self.pos[1].to_bits(),
            self.pos[2].to_bits(),
        ];
        for (dst, v) in out.chunks_exact_mut(4).zip(fields) {
            dst.copy_from_slice(&v.to_le_bytes());
        }
    }
}

/// A mesh as stored.
#[derive(Debug, Clone, Copy)]
pub struct MeshRef<'a> {
    pub index: u32,
    pub offset: usize,
    pub name: Name32,
    pub texture_id: i32,
    pub num_vertices: u32,
    pub bounds_min: [f32; 3],
    pub bounds_max: [f32; 3],
    /// Texture repeats per second (0 before v3).
    pub uv_scroll: [f32; 2],
    /// `num_vertices × 24` bytes.
    pub vertex_bytes: &'a [u8],
}

impl<'a> MeshRef<'a> {
    pub fn vertices(&self) -> impl ExactSizeIterator<Item = Vertex> + 'a {
        self.vertex_bytes
            .chunks_exact(VERTEX_SIZE)
            .map(|c| Vertex::read(c).unwrap_or_default())
    }
}

/// A collider as stored.
#[derive(Debug, Clone, Copy)]
pub struct ColliderRef<'a> {
    pub index: u32,
    pub offset: usize,
    pub name: Name32,
    pub kind: ColliderKind,
    pub bounds_min: [f32; 3],
    pub bounds_max: [f32; 3],
    pub num_triangles: u32,
    /// `num_triangles × 36` bytes.
    pub triangle_bytes: &'a [u8],
}

/// A world-space triangle.
pub type Triangle = [[f32; 3]; 3];

pub(crate) fn read_triangle(b: &[u8]) -> Option<Triangle> {
    Some([vec3_at(b, 0)?, vec3_at(b, 12)?, vec3_at(b, 24)?])
}

impl<'a> ColliderRef<'a> {
    pub fn triangles(&self) -> impl ExactSizeIterator<Item = Triangle> + 'a {
        self.triangle_bytes
            .chunks_exact(TRIANGLE_SIZE)
            .map(|c| read_triangle(c).unwrap_or_default())
    }
}

/// A metadata lump as stored.
#[derive(Debug, Clone, Copy)]
pub struct MetadataRef<'a> {
    pub index: u32,
    pub offset: usize,
    pub tag: Name32,
    pub kind: MetaKind,
    /// The payload without its padding.
    pub payload: &'a [u8],
}

impl<'a> MetadataRef<'a> {
    /// STRING/JSON payload as text, without its terminating NUL.
    pub fn text(&self) -> Option<&'a str> {
        let body = self.payload.strip_suffix(&[0]).unwrap_or(self.payload);
        core::str::from_utf8(body).ok()
    }
}

fn err(offset: usize, section: Section, kind: ErrorKind) -> ReadError {
    ReadError {
        offset: offset as u64,
        section,
        kind,
    }
}

/// Checks that `len` bytes are present at `offset`.
fn need(
    data: &[u8],
    offset: usize,
    len: u64,
    what: &'static str,
    section: impl FnOnce() -> Section,
) -> Result<usize, ReadError> {
    let available = (data.len() as u64).saturating_sub(offset as u64);
    if len > available {
        return Err(err(
            offset,
            section(),
            ErrorKind::Truncated {
                what,
                needed: len,
                available,
            },
        ));
    }
    // `len ≤ available ≤ data.len()`, so it fits usize.
    Ok(len as usize)
}

fn name_at(data: &[u8], offset: usize) -> Name32 {
    Name32::from_raw(crate::bytes::array::<32>(data, offset).unwrap_or([0; 32]))
}

fn lossy(name: &Name32) -> String {
    String::from(name.as_str())
}

/// Reads the header. Errors for bad magic, version 0, version > 3 and truncation.
fn parse_header(data: &[u8], warn: &mut dyn FnMut(Warning)) -> Result<Header, ReadError> {
    need(data, 0, 8, "header magic and version", || Section::Header)?;
    let magic = u32_at(data, 0).unwrap_or(0);
    let version_word = u32_at(data, 4).unwrap_or(0);
    let Some(magic_version) = Version::from_magic(magic) else {
        return Err(err(
            0,
            Section::Header,
            ErrorKind::BadMagic { found: magic },
        ));
    };
    let version = match version_word {
        0 => {
            return Err(err(
                4,
                Section::Header,
                ErrorKind::ObsoleteVersion { found: 0 },
            ));
        }
        v => Version::from_u32(v).ok_or_else(|| {
            err(
                4,
                Section::Header,
                ErrorKind::UnsupportedVersion { found: v },
            )
        })?,
    };
    if magic_version != version {
        warn(Warning {
            offset: Some(0),
            section: Section::Header,
            kind: WarningKind::MagicVersionMismatch {
                magic_version: magic_version.number(),
                version: version.number(),
            },
        });
    }
    need(data, 0, version.header_size() as u64, "header", || {
        Section::Header
    })?;
    let u = |o: usize| u32_at(data, o).unwrap_or(0);
    let f = |o: usize| f32_at(data, o).unwrap_or(0.0);
    let v3 = |o: usize| vec3_at(data, o).unwrap_or_default();
    // v1 has no num_metadata: every later field moves up by 4.
    let shift = if version.has_metadata() { 0 } else { 4 };
    Ok(Header {
        magic,
        version,
        num_textures: u(0x08),
        num_meshes: u(0x0C),
        num_colliders: u(0x10),
        num_metadata: if version.has_metadata() { u(0x14) } else { 0 },
        spawn_pos: v3(0x18 - shift),
        spawn_rot: f(0x24 - shift),
        bounds_min: v3(0x28 - shift),
        bounds_max: v3(0x34 - shift),
    })
}

fn parse_texture<'a>(
    data: &'a [u8],
    offset: usize,
    index: u32,
) -> Result<(TextureRef<'a>, usize), ReadError> {
    let section = || Section::Texture(index, lossy(&name_at(data, offset)));
    need(
        data,
        offset,
        TEXTURE_HEADER_SIZE as u64,
        "texture header",
        section,
    )?;
    let name = name_at(data, offset);
    let width = u16_at(data, offset + 0x20).unwrap_or(0);
    let height = u16_at(data, offset + 0x22).unwrap_or(0);
    let format_code = u16_at(data, offset + 0x24).unwrap_or(0);
    let alpha = u16_at(data, offset + 0x26).unwrap_or(0);
    let data_size = u32_at(data, offset + 0x28).unwrap_or(0);
    let format = TextureFormat::from_u16(format_code).ok_or_else(|| {
        err(
            offset + 0x24,
            section(),
            ErrorKind::UnknownTextureFormat { found: format_code },
        )
    })?;
    let expected = u64::from(width) * u64::from(height) * u64::from(format.bytes_per_pixel());
    if expected != u64::from(data_size) {
        return Err(err(
            offset + 0x28,
            section(),
            ErrorKind::TextureSizeMismatch {
                width,
                height,
                bytes_per_pixel: format.bytes_per_pixel(),
                found: data_size,
            },
        ));
    }
    let pixels_at = offset + TEXTURE_HEADER_SIZE;
    let len = need(
        data,
        pixels_at,
        u64::from(data_size),
        "texture pixels",
        section,
    )?;
    let pixels = slice(data, pixels_at, len).unwrap_or(&[]);
    Ok((
        TextureRef {
            index,
            offset,
            name,
            width,
            height,
            format,
            alpha_mode: AlphaMode::from_u16(alpha),
            data: pixels,
        },
        pixels_at + len,
    ))
}

fn parse_mesh<'a>(
    data: &'a [u8],
    offset: usize,
    index: u32,
    version: Version,
) -> Result<(MeshRef<'a>, usize), ReadError> {
    let section = || Section::Mesh(index, lossy(&name_at(data, offset)));
    let header_size = version.mesh_header_size();
    need(data, offset, header_size as u64, "mesh header", section)?;
    let num_vertices = u32_at(data, offset + 0x24).unwrap_or(0);
    if num_vertices == 0 {
        return Err(err(offset + 0x24, section(), ErrorKind::NoVertices));
    }
    if !num_vertices.is_multiple_of(3) {
        return Err(err(
            offset + 0x24,
            section(),
            ErrorKind::VertexCountNotTriangles {
                found: num_vertices,
            },
        ));
    }
    let bytes = u64::from(num_vertices) * VERTEX_SIZE as u64;
    if bytes > u64::from(u32::MAX) {
        return Err(err(
            offset + 0x24,
            section(),
            ErrorKind::SizeOverflow {
                what: "mesh vertices",
                count: num_vertices,
                unit: VERTEX_SIZE as u32,
            },
        ));
    }
    let vertices_at = offset + header_size;
    let len = need(data, vertices_at, bytes, "mesh vertices", section)?;
    let uv_scroll = if version == Version::V3 {
        [
            f32_at(data, offset + 0x40).unwrap_or(0.0),
            f32_at(data, offset + 0x44).unwrap_or(0.0),
        ]
    } else {
        [0.0, 0.0]
    };
    Ok((
        MeshRef {
            index,
            offset,
            name: name_at(data, offset),
            texture_id: i32_at(data, offset + 0x20).unwrap_or(-1),
            num_vertices,
            bounds_min: vec3_at(data, offset + 0x28).unwrap_or_default(),
            bounds_max: vec3_at(data, offset + 0x34).unwrap_or_default(),
            uv_scroll,
            vertex_bytes: slice(data, vertices_at, len).unwrap_or(&[]),
        },
        vertices_at + len,
    ))
}

fn parse_collider<'a>(
    data: &'a [u8],
    offset: usize,
    index: u32,
) -> Result<(ColliderRef<'a>, usize), ReadError> {
    let section = || Section::Collider(index, lossy(&name_at(data, offset)));
    need(
        data,
        offset,
        COLLIDER_HEADER_SIZE as u64,
        "collider header",
        section,
    )?;
    let num_triangles = u32_at(data, offset + 0x3C).unwrap_or(0);
    let bytes = u64::from(num_triangles) * TRIANGLE_SIZE as u64;
    if bytes > u64::from(u32::MAX) {
        return Err(err(
            offset + 0x3C,
            section(),
            ErrorKind::SizeOverflow {
                what: "collider triangles",
                count: num_triangles,
                unit: TRIANGLE_SIZE as u32,
            },
        ));
    }
    let tris_at = offset + COLLIDER_HEADER_SIZE;
    let len = need(data, tris_at, bytes, "collider triangles", section)?;
    Ok((
        ColliderRef {
            index,
            offset,
            name: name_at(data, offset),
            kind: ColliderKind::from_u32(u32_at(data, offset + 0x20).unwrap_or(0)),
            bounds_min: vec3_at(data, offset + 0x24).unwrap_or_default(),
            bounds_max: vec3_at(data, offset + 0x30).unwrap_or_default(),
            num_triangles,
            triangle_bytes: slice(data, tris_at, len).unwrap_or(&[]),
        },
        tris_at + len,
    ))
}

fn parse_metadata<'a>(
    data: &'a [u8],
    offset: usize,
    index: u32,
) -> Result<(MetadataRef<'a>, usize), ReadError> {
    let section = || Section::Metadata(index, lossy(&name_at(data, offset)));
    need(
        data,
        offset,
        METADATA_HEADER_SIZE as u64,
        "metadata header",
        section,
    )?;
    let size = u32_at(data, offset + 0x24).unwrap_or(0);
    let padded = u64::from(size) + metadata_padding(size as usize) as u64;
    if padded > u64::from(u32::MAX) {
        return Err(err(
            offset + 0x24,
            section(),
            ErrorKind::SizeOverflow {
                what: "metadata payload with padding",
                count: size,
                unit: 1,
            },
        ));
    }
    let payload_at = offset + METADATA_HEADER_SIZE;
    let len = need(data, payload_at, padded, "metadata payload", section)?;
    Ok((
        MetadataRef {
            index,
            offset,
            tag: name_at(data, offset),
            kind: MetaKind::from_u32(u32_at(data, offset + 0x20).unwrap_or(0)),
            payload: slice(data, payload_at, size as usize).unwrap_or(&[]),
        },
        payload_at + len,
    ))
}

fn warn_name(
    name: &Name32,
    offset: usize,
    section: impl FnOnce() -> Section,
    warn: &mut dyn FnMut(Warning),
) {
    if !name.is_terminated() {
        warn(Warning {
            offset: Some(offset as u64),
            section: section(),
            kind: WarningKind::NameWithoutNul,
        });
    }
}

impl<'a> MapView<'a> {
    /// Checks the structure of `data` and collects warnings.
    pub fn parse(data: &'a [u8]) -> Result<(Self, Vec<Warning>), ReadError> {
        let mut warnings = Vec::new();
        let view = Self::parse_with(data, &mut |w| warnings.push(w))?;
        Ok((view, warnings))
    }

    /// Checks the structure of `data`, handing each warning to `warn`. Allocates
    /// nothing per record: the cost is one pass over the headers, never the pixels.
    pub fn parse_with(data: &'a [u8], warn: &mut dyn FnMut(Warning)) -> Result<Self, ReadError> {
        let header = parse_header(data, warn)?;
        let version = header.version;
        let mut offset = version.header_size();

        let textures_at = offset;
        for index in 0..header.num_textures {
            let (t, next) = parse_texture(data, offset, index)?;
            let section = || Section::Texture(index, lossy(&t.name));
            warn_name(&t.name, offset, section, warn);
            if !(t.width.is_power_of_two() && t.height.is_power_of_two()) {
                warn(Warning {
                    offset: Some((offset + 0x20) as u64),
                    section: section(),
                    kind: WarningKind::NonPowerOfTwoTexture {
                        width: t.width,
                        height: t.height,
                    },
                });
            }
            let max_alpha = if version == Version::V3 { 2 } else { 1 };
            if t.alpha_mode.code() > max_alpha {
                warn(Warning {
                    offset: Some((offset + 0x26) as u64),
                    section: section(),
                    kind: WarningKind::AlphaModeUnknown {
                        found: t.alpha_mode.code(),
                    },
                });
            }
            offset = next;
        }

        let meshes_at = offset;
        for index in 0..header.num_meshes {
            let (m, next) = parse_mesh(data, offset, index, version)?;
            let section = || Section::Mesh(index, lossy(&m.name));
            warn_name(&m.name, offset, section, warn);
            let valid = m.texture_id == -1
                || (m.texture_id >= 0 && (m.texture_id as u32) < header.num_textures);
            if !valid {
                warn(Warning {
                    offset: Some((offset + 0x20) as u64),
                    section: section(),
                    kind: WarningKind::TextureIdOutOfRange {
                        texture_id: m.texture_id,
                        num_textures: header.num_textures,
                    },
                });
            }
            offset = next;
        }

        let colliders_at = offset;
        for index in 0..header.num_colliders {
            let (c, next) = parse_collider(data, offset, index)?;
            let section = || Section::Collider(index, lossy(&c.name));
            warn_name(&c.name, offset, section, warn);
            if let ColliderKind::Unknown(found) = c.kind {
                warn(Warning {
                    offset: Some((offset + 0x20) as u64),
                    section: section(),
                    kind: WarningKind::ColliderKindUnknown { found },
                });
            }
            offset = next;
        }

        let metadata_at = offset;
        let mut seen_emitters = false;
        for index in 0..header.num_metadata {
            let (m, next) = parse_metadata(data, offset, index)?;
            let section = || Section::Metadata(index, lossy(&m.tag));
            warn_name(&m.tag, offset, section, warn);
            if let MetaKind::Unknown(found) = m.kind {
                warn(Warning {
                    offset: Some((offset + 0x20) as u64),
                    section: section(),
                    kind: WarningKind::MetaKindUnknown { found },
                });
            }
            let payload_at = (offset + METADATA_HEADER_SIZE) as u64;
            if m.kind.is_text() {
                let reason = if m.payload.last() != Some(&0) {
                    Some("does not end with a NUL")
                } else if m.text().is_none() {
                    Some("is not UTF-8")
                } else {
                    None
                };
                if let Some(reason) = reason {
                    warn(Warning {
                        offset: Some(payload_at),
                        section: section(),
                        kind: WarningKind::TextPayloadMalformed { reason },
                    });
                }
            }
            if m.tag.as_bytes() == emitter::EMITTERS_TAG.as_bytes() {
                if seen_emitters {
                    warn(Warning {
                        offset: Some(offset as u64),
                        section: section(),
                        kind: WarningKind::EmitterLumpDuplicate,
                    });
                } else if let Some(lump) =
                    EmitterLumpRef::parse_with(m.payload, payload_at, index, warn)
                {
                    seen_emitters = true;
                    emitter::sanitize_all(
                        lump.records(),
                        header.num_textures,
                        &mut |w| warn(w),
                        |_, _| {},
                    );
                }
            }
            offset = next;
        }

        if offset < data.len() {
            warn(Warning {
                offset: Some(offset as u64),
                section: Section::File,
                kind: WarningKind::TrailingBytes {
                    count: (data.len() - offset) as u64,
                },
            });
        }

        Ok(Self {
            data,
            header,
            textures_at,
            meshes_at,
            colliders_at,
            metadata_at,
            end: offset,
        })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn version(&self) -> Version {
        self.header.version
    }

    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    /// Offset just past the last structure.
    pub fn end(&self) -> usize {
        self.end
    }

    pub fn textures(&self) -> Records<'a, TextureRef<'a>> {
        Records::new(
            self.data,
            self.textures_at,
            self.header.num_textures,
            self.version(),
            |d, o, i, _| parse_texture(d, o, i),
        )
    }

    pub fn meshes(&self) -> Records<'a, MeshRef<'a>> {
        Records::new(
            self.data,
            self.meshes_at,
            self.header.num_meshes,
            self.version(),
            parse_mesh,
        )
    }

    pub fn colliders(&self) -> Records<'a, ColliderRef<'a>> {
        Records::new(
            self.data,
            self.colliders_at,
            self.header.num_colliders,
            self.version(),
            |d, o, i, _| parse_collider(d, o, i),
        )
    }

    pub fn metadata(&self) -> Records<'a, MetadataRef<'a>> {
        Records::new(
            self.data,
            self.metadata_at,
            self.header.num_metadata,
            self.version(),
            |d, o, i, _| parse_metadata(d, o, i),
        )
    }

    /// The first metadata lump with this tag.
    pub fn metadata_by_tag(&self, tag: &str) -> Option<MetadataRef<'a>> {
        self.metadata().find(|m| m.tag.as_bytes() == tag.as_bytes())
    }

    /// The `emitters` lump a loader uses: the first one it can decode.
    pub fn emitter_lump(&self) -> Option<EmitterLumpRef<'a>> {
        self.metadata()
            .filter(|m| m.tag.as_bytes() == emitter::EMITTERS_TAG.as_bytes())
            .find_map(|m| {
                let at = (m.offset + METADATA_HEADER_SIZE) as u64;
                EmitterLumpRef::parse_with(m.payload, at, m.index, &mut |_| {})
            })
    }

    /// Total vertices over all meshes.
    pub fn total_vertices(&self) -> u64 {
        self.meshes().map(|m| u64::from(m.num_vertices)).sum()
    }
}

type ParseFn<'a, T> = fn(&'a [u8], usize, u32, Version) -> Result<(T, usize), ReadError>;

/// Iterator over the records of one section of a checked file.
#[derive(Debug, Clone)]
pub struct Records<'a, T> {
    data: &'a [u8],
    offset: usize,
    index: u32,
    count: u32,
    version: Version,
    parse: ParseFn<'a, T>,
}

impl<'a, T> Records<'a, T> {
    fn new(
        data: &'a [u8],
        offset: usize,
        count: u32,
        version: Version,
        parse: ParseFn<'a, T>,
    ) -> Self {
        Self {
            data,
            offset,
            index: 0,
            count,
            version,
            parse,
        }
    }
}

impl<T> Iterator for Records<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        if self.index >= self.count {
            return None;
        }
        // The view checked every record, so this cannot fail; stop rather than panic.
        match (self.parse)(self.data, self.offset, self.index, self.version) {
            Ok((record, next)) => {
                self.offset = next;
                self.index += 1;
                Some(record)
            }
            Err(_) => {
                self.index = self.count;
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.count - self.index) as usize;
        (n, Some(n))
    }
}

impl<T> ExactSizeIterator for Records<'_, T> {}
