//! Findings about a file: errors (it cannot be read) and warnings (readable but
//! suspicious). Every finding names the byte offset it concerns.

use alloc::string::String;
use core::fmt;

/// Which part of the file a finding is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Section {
    Header,
    /// Texture by index, with its name when it could be read.
    Texture(u32, String),
    Mesh(u32, String),
    Collider(u32, String),
    Metadata(u32, String),
    /// Emitter record by index inside the `emitters` lump.
    Emitter(u32, String),
    File,
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let named = |f: &mut fmt::Formatter<'_>, what: &str, i: &u32, name: &str| {
            if name.is_empty() {
                write!(f, "{what} {i}")
            } else {
                write!(f, "{what} {i} '{name}'")
            }
        };
        match self {
            Self::Header => f.write_str("header"),
            Self::Texture(i, n) => named(f, "texture", i, n),
            Self::Mesh(i, n) => named(f, "mesh", i, n),
            Self::Collider(i, n) => named(f, "collider", i, n),
            Self::Metadata(i, n) => named(f, "metadata lump", i, n),
            Self::Emitter(i, n) => named(f, "emitter", i, n),
            Self::File => f.write_str("file"),
        }
    }
}

/// Why a file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The first word is none of the three magics.
    BadMagic { found: u32 },
    /// Version 0: older than any supported layout.
    ObsoleteVersion { found: u32 },
    /// Version above 3.
    UnsupportedVersion { found: u32 },
    /// The file ends inside a structure.
    Truncated {
        what: &'static str,
        needed: u64,
        available: u64,
    },
    /// A texture's `data_size` disagrees with `width × height × bytes per pixel`.
    TextureSizeMismatch {
        width: u16,
        height: u16,
        bytes_per_pixel: u32,
        found: u32,
    },
    /// A texture format code above 3.
    UnknownTextureFormat { found: u16 },
    /// A mesh with no vertices (the reference loader fails the whole file).
    NoVertices,
    /// A triangle-list mesh whose vertex count is not a multiple of 3.
    VertexCountNotTriangles { found: u32 },
    /// A size computed from a count does not fit the format's 32-bit sizes.
    SizeOverflow {
        what: &'static str,
        count: u32,
        unit: u32,
    },
}

/// A file that cannot be read, with where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// Byte offset of the offending field or structure.
    pub offset: u64,
    pub section: Section,
    pub kind: ErrorKind,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let ErrorKind::UnsupportedVersion { found } = self.kind {
            // The reference diagnostic, verbatim, so that users can search for it.
            return write!(
                f,
                "[PBM] Error: Incompatible map version {found} (supported: 1..3). Breaking format change detected. (at byte {})",
                self.offset
            );
        }
        write!(
            f,
            "at byte {} (0x{:X}), {}: ",
            self.offset, self.offset, self.section
        )?;
        match &self.kind {
            ErrorKind::BadMagic { found } => write!(
                f,
                "not a .pbm map: magic is 0x{found:08X}, expected \"PBM3\" (0x334D4250), \"PBM2\" or \"PBM1\""
            ),
            ErrorKind::ObsoleteVersion { found } => write!(
                f,
                "obsolete map version {found} (supported: 1..3); re-export the map"
            ),
            ErrorKind::UnsupportedVersion { .. } => Ok(()),
            ErrorKind::Truncated {
                what,
                needed,
                available,
            } => write!(
                f,
                "file is truncated: {what} needs {needed} bytes, only {available} remain (was the copy interrupted?)"
            ),
            ErrorKind::TextureSizeMismatch {
                width,
                height,
                bytes_per_pixel,
                found,
            } => write!(
                f,
                "data_size is {found}, expected {width}×{height}×{bytes_per_pixel} = {}",
                u64::from(*width) * u64::from(*height) * u64::from(*bytes_per_pixel)
            ),
            ErrorKind::UnknownTextureFormat { found } => write!(
                f,
                "unknown texture format {found}, expected 0 (RGBA8888), 1 (RGBA5551), 2 (RGBA4444) or 3 (RGB565)"
            ),
            ErrorKind::NoVertices => {
                f.write_str("mesh has 0 vertices; expected a positive multiple of 3")
            }
            ErrorKind::VertexCountNotTriangles { found } => write!(
                f,
                "num_vertices is {found}, expected a multiple of 3 (triangle list)"
            ),
            ErrorKind::SizeOverflow { what, count, unit } => write!(
                f,
                "{what}: {count} × {unit} bytes overflows the format's 32-bit sizes"
            ),
        }
    }
}

/// What is suspicious about a readable file.
#[derive(Debug, Clone, PartialEq)]
pub enum WarningKind {
    /// Magic of one version with another version word; the layout follows the version.
    MagicVersionMismatch {
        magic_version: u32,
        version: u32,
    },
    /// A mesh's texture_id is neither -1 nor a valid index.
    TextureIdOutOfRange {
        texture_id: i32,
        num_textures: u32,
    },
    /// Bytes after the last structure.
    TrailingBytes {
        count: u64,
    },
    NonPowerOfTwoTexture {
        width: u16,
        height: u16,
    },
    /// A name or tag field with no NUL: its last byte is dropped.
    NameWithoutNul,
    AlphaModeUnknown {
        found: u16,
    },
    ColliderKindUnknown {
        found: u32,
    },
    MetaKindUnknown {
        found: u32,
    },
    /// STRING/JSON payload not ending in NUL, or not UTF-8.
    TextPayloadMalformed {
        reason: &'static str,
    },
    /// The emitters lump is newer than this reader: skipped.
    EmitterLumpVersionNewer {
        version: u32,
    },
    EmitterLumpBadMagic {
        found: u32,
    },
    EmitterLumpTooShort {
        needed: u64,
        available: u64,
    },
    /// Bytes after the last emitter record (tolerated).
    EmitterLumpTrailingBytes {
        count: u64,
    },
    /// A second `emitters` lump is ignored.
    EmitterLumpDuplicate,
    /// A field out of its valid range was clamped by the sanitiser.
    EmitterFieldClamped {
        field: &'static str,
        found: f32,
        used: f32,
    },
    EmitterTextureOutOfRange {
        texture_id: i32,
        num_textures: u32,
    },
    EmitterDirectionZero,
    EmitterCountZero,
    /// More particles than one emitter may have.
    EmitterCountClamped {
        found: u32,
        used: u32,
        reason: &'static str,
    },
    /// More emitters than a map may have: the rest are skipped.
    TooManyEmitters {
        found: u32,
        max: u32,
    },
}

/// A readable but suspicious finding.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    /// Byte offset in the file; `None` for findings about a map held in memory.
    pub offset: Option<u64>,
    pub section: Section,
    pub kind: WarningKind,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(offset) = self.offset {
            write!(f, "at byte {offset} (0x{offset:X}), ")?;
        }
        write!(f, "{}: ", self.section)?;
        match &self.kind {
            WarningKind::MagicVersionMismatch {
                magic_version,
                version,
            } => write!(
                f,
                "magic says v{magic_version} but the version word is {version}; read as v{version}"
            ),
            WarningKind::TextureIdOutOfRange {
                texture_id,
                num_textures,
            } => write!(
                f,
                "texture_id {texture_id} is out of range (the map has {num_textures} textures); drawn untextured"
            ),
            WarningKind::TrailingBytes { count } => {
                write!(f, "{count} bytes after the last structure are ignored")
            }
            WarningKind::NonPowerOfTwoTexture { width, height } => write!(
                f,
                "{width}×{height} is not a power of two in both sides; the PSP cannot sample it"
            ),
            WarningKind::NameWithoutNul => {
                f.write_str("name has no terminating NUL; its last byte is dropped")
            }
            WarningKind::AlphaModeUnknown { found } => {
                write!(
                    f,
                    "unknown alpha mode {found}, expected 0, 1 or 2 (v1/v2: 0 or 1)"
                )
            }
            WarningKind::ColliderKindUnknown { found } => {
                write!(
                    f,
                    "unknown collider type {found}, expected 0 BOX, 1 TRIMESH or 2 RAMP"
                )
            }
            WarningKind::MetaKindUnknown { found } => {
                write!(f, "unknown metadata type {found}, expected 0..4")
            }
            WarningKind::TextPayloadMalformed { reason } => {
                write!(f, "text payload {reason}")
            }
            WarningKind::EmitterLumpVersionNewer { version } => write!(
                f,
                "emitters lump version {version} is newer than this reader (1); emitters skipped"
            ),
            WarningKind::EmitterLumpBadMagic { found } => write!(
                f,
                "emitters lump magic is 0x{found:08X}, expected \"EMIT\" (0x54494D45); emitters skipped"
            ),
            WarningKind::EmitterLumpTooShort { needed, available } => write!(
                f,
                "emitters lump needs {needed} bytes, has {available}; emitters skipped"
            ),
            WarningKind::EmitterLumpTrailingBytes { count } => {
                write!(f, "{count} bytes after the last emitter record are ignored")
            }
            WarningKind::EmitterLumpDuplicate => {
                f.write_str("a second `emitters` lump is ignored (the first one is used)")
            }
            WarningKind::EmitterFieldClamped { field, found, used } => {
                write!(f, "{field} = {found} is out of range; {used} is used")
            }
            WarningKind::EmitterTextureOutOfRange {
                texture_id,
                num_textures,
            } => write!(
                f,
                "texture_id {texture_id} is out of range (the map has {num_textures} textures); the built-in glow (-1) is used"
            ),
            WarningKind::EmitterDirectionZero => {
                f.write_str("direction is zero or not finite; +Y is used")
            }
            WarningKind::EmitterCountZero => f.write_str("count is 0; the emitter shows nothing"),
            WarningKind::EmitterCountClamped {
                found,
                used,
                reason,
            } => write!(f, "count {found} clamped to {used} ({reason})"),
            WarningKind::TooManyEmitters { found, max } => write!(
                f,
                "{found} emitters, at most {max} are allowed; the rest are skipped"
            ),
        }
    }
}

/// Why a map cannot be written in the requested version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// A count or size does not fit the format's 32-bit fields.
    TooLarge { what: String, size: u64 },
    /// A texture's pixel bytes do not match its size and format.
    TextureDataSize {
        texture: String,
        expected: u64,
        found: u64,
    },
    /// Meshes must be non-empty triangle lists.
    BadVertexCount { mesh: String, count: u64 },
    /// The requested version cannot hold something the map has.
    NotRepresentable { version: u32, what: String },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { what, size } => {
                write!(f, "{what} ({size}) does not fit the format's 32-bit fields")
            }
            Self::TextureDataSize {
                texture,
                expected,
                found,
            } => write!(
                f,
                "texture '{texture}' has {found} pixel bytes, its size and format need {expected}"
            ),
            Self::BadVertexCount { mesh, count } => write!(
                f,
                "mesh '{mesh}' has {count} vertices; a mesh needs a positive multiple of 3"
            ),
            Self::NotRepresentable { version, what } => {
                write!(f, "a v{version} file cannot hold {what}; write v3 instead")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ReadError {}
#[cfg(feature = "std")]
impl std::error::Error for WriteError {}
