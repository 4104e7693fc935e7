//! What a PSP can hold, and sizes said in words.
//!
//! The runtime (`psp/src/main.rs`, `world.rs`) reads the whole map into RAM, then
//! copies every chunk's vertices and every texture (swizzled, with its mip levels)
//! into aligned blocks before it lets the file go: while a map loads it is in memory
//! about twice. A PSP-1000 leaves a program about 24 MB of its 32; the EBOOT, the
//! display lists and the runtime's own tables take a few, so a map of 8 MiB (about
//! 17 MB at its peak) is what a PSP can really hold. A drawn triangle is 72 bytes
//! (three 24-byte vertices, `pbm::format::VERTEX_SIZE`, never indexed), so
//! 100 000 triangles are 6.9 MiB. Coordinates stay within ±2048 m of the origin:
//! f32 keeps a quarter of a millimetre there, and the runtime's far plane is 200 m.

use std::fmt;

/// Drawn triangles a PSP map may hold, after cutting large triangles.
pub const MAX_TRIANGLES: u64 = 100_000;
/// Bytes a PSP map may take (the runtime holds it twice while it loads).
pub const MAX_MAP_BYTES: u64 = 8 * 1024 * 1024;
/// Metres from the origin on any axis that drawn and collision geometry may reach.
pub const MAX_COORDINATE_M: f32 = 2048.0;

/// What an export may produce. [`ExportLimits::PSP`] (the default) is what the PSP
/// can hold; larger limits are for tools and benchmarks that never load the map on
/// a PSP.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExportLimits {
    /// Drawn triangles of the whole map, after cutting large triangles.
    pub max_triangles: u64,
    /// Bytes of the whole file.
    pub max_bytes: u64,
    /// Metres from the origin on any axis.
    pub max_coordinate: f32,
}

impl ExportLimits {
    pub const PSP: Self = Self {
        max_triangles: MAX_TRIANGLES,
        max_bytes: MAX_MAP_BYTES,
        max_coordinate: MAX_COORDINATE_M,
    };
}

impl Default for ExportLimits {
    fn default() -> Self {
        Self::PSP
    }
}

impl fmt::Display for ExportLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a PSP map must fit within ±{} m of the origin and hold at most {} triangles and {}",
            metres(self.max_coordinate),
            self.max_triangles,
            mib(self.max_bytes)
        )
    }
}

/// A length for a message: whole metres when large, else two decimals.
pub(crate) fn metres(v: f32) -> String {
    if !v.is_finite() {
        format!("{v}")
    } else if v.abs() >= 1e7 {
        format!("{v:.1e}")
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// A size for a message: "1 × 0.5 × 1000000 m".
pub(crate) fn size_text(size: &[f32; 3]) -> String {
    format!(
        "{} × {} × {} m",
        metres(size[0]),
        metres(size[1]),
        metres(size[2])
    )
}

/// Bytes for a message: "8 MiB", "2.5 MiB", "120 KiB".
pub(crate) fn mib(bytes: u64) -> String {
    let m = bytes as f64 / (1024.0 * 1024.0);
    if m < 1.0 {
        format!("{} KiB", bytes.div_ceil(1024))
    } else if m >= 10.0 || m.fract() == 0.0 {
        format!("{m:.0} MiB")
    } else {
        format!("{m:.1} MiB")
    }
}

/// What the scene needs, from below; the stages refine it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Estimate {
    /// Drawn triangles after cutting, all entities.
    pub triangles: u64,
    /// Bytes of chunks, colliders and walkable surfaces (textures are not known yet).
    pub bytes: u64,
}
