//! Constants and small enums of the `.pbm` layout (see `docs/pbm-format.md`).

use core::fmt;

/// Magic of version 1 files, "PBM1".
pub const MAGIC_V1: u32 = 0x314D_4250;
/// Magic of version 2 files, "PBM2".
pub const MAGIC_V2: u32 = 0x324D_4250;
/// Magic of version 3 files, "PBM3".
pub const MAGIC_V3: u32 = 0x334D_4250;

/// Header size of v2 and v3 files.
pub const HEADER_SIZE: usize = 64;
/// Header size of v1 files (no `num_metadata`).
pub const HEADER_SIZE_V1: usize = 60;
pub const TEXTURE_HEADER_SIZE: usize = 44;
/// Mesh header size of v3 files (with UV scroll).
pub const MESH_HEADER_SIZE: usize = 72;
/// Mesh header size of v1 and v2 files.
pub const MESH_HEADER_SIZE_V2: usize = 64;
pub const VERTEX_SIZE: usize = 24;
pub const COLLIDER_HEADER_SIZE: usize = 64;
pub const TRIANGLE_SIZE: usize = 36;
pub const METADATA_HEADER_SIZE: usize = 40;

/// Writers split meshes into chunks of at most this many vertices.
pub const MAX_MESH_VERTICES: u32 = 384;
/// Largest texture side our exporter writes by default.
pub const MAX_TEXTURE_SIDE: u16 = 512;

/// A file format version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    V1 = 1,
    V2 = 2,
    V3 = 3,
}

impl Version {
    pub const LATEST: Version = Version::V3;

    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            1 => Some(Self::V1),
            2 => Some(Self::V2),
            3 => Some(Self::V3),
            _ => None,
        }
    }

    pub fn number(self) -> u32 {
        self as u32
    }

    pub fn magic(self) -> u32 {
        match self {
            Self::V1 => MAGIC_V1,
            Self::V2 => MAGIC_V2,
            Self::V3 => MAGIC_V3,
        }
    }

    /// The version whose magic this is.
    pub fn from_magic(magic: u32) -> Option<Self> {
        match magic {
            MAGIC_V1 => Some(Self::V1),
            MAGIC_V2 => Some(Self::V2),
            MAGIC_V3 => Some(Self::V3),
            _ => None,
        }
    }

    pub fn header_size(self) -> usize {
        match self {
            Self::V1 => HEADER_SIZE_V1,
            _ => HEADER_SIZE,
        }
    }

    pub fn mesh_header_size(self) -> usize {
        match self {
            Self::V3 => MESH_HEADER_SIZE,
            _ => MESH_HEADER_SIZE_V2,
        }
    }

    pub fn has_metadata(self) -> bool {
        self != Self::V1
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.number())
    }
}

/// Texel storage formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextureFormat {
    /// 32-bit, bytes R, G, B, A.
    Rgba8888 = 0,
    /// 16-bit, R bits 0–4, G 5–9, B 10–14, A bit 15.
    Rgba5551 = 1,
    /// 16-bit, R bits 0–3, G 4–7, B 8–11, A 12–15.
    Rgba4444 = 2,
    /// 16-bit, R bits 0–4, G 5–10, B 11–15; opaque.
    Rgb565 = 3,
}

impl TextureFormat {
    pub fn from_u16(v: u16) -> Option<Self> {
        match v {
            0 => Some(Self::Rgba8888),
            1 => Some(Self::Rgba5551),
            2 => Some(Self::Rgba4444),
            3 => Some(Self::Rgb565),
            _ => None,
        }
    }

    pub fn code(self) -> u16 {
        self as u16
    }

    pub fn bytes_per_pixel(self) -> u32 {
        match self {
            Self::Rgba8888 => 4,
            _ => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Rgba8888 => "RGBA8888",
            Self::Rgba5551 => "RGBA5551",
            Self::Rgba4444 => "RGBA4444",
            Self::Rgb565 => "RGB565",
        }
    }
}

impl fmt::Display for TextureFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a texture's alpha is used. Unknown codes are kept so that a file survives a
/// round trip; they are reported as warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlphaMode {
    None,
    Cutout,
    Blend,
    Unknown(u16),
}

impl AlphaMode {
    pub fn from_u16(v: u16) -> Self {
        match v {
            0 => Self::None,
            1 => Self::Cutout,
            2 => Self::Blend,
            other => Self::Unknown(other),
        }
    }

    pub fn code(self) -> u16 {
        match self {
            Self::None => 0,
            Self::Cutout => 1,
            Self::Blend => 2,
            Self::Unknown(v) => v,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::None => "NONE",
            Self::Cutout => "CUTOUT",
            Self::Blend => "BLEND",
            Self::Unknown(_) => "UNKNOWN",
        }
    }
}

/// Collider shapes. Unknown codes are kept and reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColliderKind {
    Box,
    TriMesh,
    Ramp,
    Unknown(u32),
}

impl ColliderKind {
    pub fn from_u32(v: u32) -> Self {
        match v {
            0 => Self::Box,
            1 => Self::TriMesh,
            2 => Self::Ramp,
            other => Self::Unknown(other),
        }
    }

    pub fn code(self) -> u32 {
        match self {
            Self::Box => 0,
            Self::TriMesh => 1,
            Self::Ramp => 2,
            Self::Unknown(v) => v,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Box => "BOX",
            Self::TriMesh => "TRIMESH",
            Self::Ramp => "RAMP",
            Self::Unknown(_) => "UNKNOWN",
        }
    }
}

/// Metadata payload types. Loaders dispatch on the tag, so unknown types are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MetaKind {
    Raw,
    String,
    Json,
    Entity,
    Emitter,
    Unknown(u32),
}

impl MetaKind {
    pub fn from_u32(v: u32) -> Self {
        match v {
            0 => Self::Raw,
            1 => Self::String,
            2 => Self::Json,
            3 => Self::Entity,
            4 => Self::Emitter,
            other => Self::Unknown(other),
        }
    }

    pub fn code(self) -> u32 {
        match self {
            Self::Raw => 0,
            Self::String => 1,
            Self::Json => 2,
            Self::Entity => 3,
            Self::Emitter => 4,
            Self::Unknown(v) => v,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Raw => "RAW",
            Self::String => "STRING",
            Self::Json => "JSON",
            Self::Entity => "ENTITY",
            Self::Emitter => "EMITTER",
            Self::Unknown(_) => "UNKNOWN",
        }
    }

    /// Whether the payload is UTF-8 text followed by one NUL.
    pub fn is_text(self) -> bool {
        matches!(self, Self::String | Self::Json)
    }
}

/// Whether a texture name marks a tile atlas (consumers never scroll nor repeat these).
pub fn is_atlas_name(name: &str) -> bool {
    name.contains("TileAtlas")
}

/// The file header.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Header {
    pub magic: u32,
    /// The version word; the layout follows it.
    pub version: Version,
    pub num_textures: u32,
    pub num_meshes: u32,
    pub num_colliders: u32,
    /// Always 0 in v1 files.
    pub num_metadata: u32,
    pub spawn_pos: [f32; 3],
    /// Yaw in radians.
    pub spawn_rot: f32,
    pub bounds_min: [f32; 3],
    pub bounds_max: [f32; 3],
}

/// Bytes of padding after a metadata payload of `size` bytes.
pub fn metadata_padding(size: usize) -> usize {
    (4 - size % 4) % 4
}
