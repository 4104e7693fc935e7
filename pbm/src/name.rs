//! Fixed-size NUL-padded name fields (`char[N]`), kept byte for byte so that a read →
//! write round trip reproduces the file exactly.

use core::fmt;

/// A `char[N]` name field as stored: NUL-padded ASCII, normally with at least one NUL.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FixedName<const N: usize> {
    bytes: [u8; N],
}

/// A name that does not fit its field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameTooLong {
    /// Length of the rejected name in bytes.
    pub len: usize,
    /// Longest name the field holds (one byte stays for the NUL).
    pub max: usize,
}

impl fmt::Display for NameTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "name is {} bytes long; this field holds at most {} (shorten it)",
            self.len, self.max
        )
    }
}

impl<const N: usize> FixedName<N> {
    /// Longest name that still leaves room for the terminating NUL.
    pub const MAX_LEN: usize = N - 1;

    /// Builds a NUL-padded field from `name`, refusing names that would fill it or
    /// that contain a NUL.
    pub fn new(name: &str) -> Result<Self, NameTooLong> {
        let src = name.as_bytes();
        if src.len() > Self::MAX_LEN || src.contains(&0) {
            return Err(NameTooLong {
                len: src.len(),
                max: Self::MAX_LEN,
            });
        }
        let mut bytes = [0u8; N];
        bytes[..src.len()].copy_from_slice(src);
        Ok(Self { bytes })
    }

    /// Builds a field from `name`, cutting it at a character boundary so that it fits.
    pub fn truncated(name: &str) -> Self {
        let mut end = name.len().min(Self::MAX_LEN);
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0u8; N];
        let src = &name.as_bytes()[..end];
        for (dst, &b) in bytes.iter_mut().zip(src) {
            // A NUL inside the name would end it early; keep the rest visible.
            *dst = if b == 0 { b'_' } else { b };
        }
        Self { bytes }
    }

    /// The field exactly as stored.
    pub const fn from_raw(bytes: [u8; N]) -> Self {
        Self { bytes }
    }

    pub const fn raw(&self) -> &[u8; N] {
        &self.bytes
    }

    /// Whether the field holds a terminating NUL (readers force the last byte to 0).
    pub fn is_terminated(&self) -> bool {
        self.bytes.contains(&0)
    }

    /// The name's bytes: up to the first NUL, and never the last byte of the field
    /// (loaders force it to NUL).
    pub fn as_bytes(&self) -> &[u8] {
        let limit = &self.bytes[..N.saturating_sub(1)];
        let end = limit.iter().position(|&b| b == 0).unwrap_or(limit.len());
        &limit[..end]
    }

    /// The name as text; bytes that are not UTF-8 end it at the first bad byte.
    pub fn as_str(&self) -> &str {
        let bytes = self.as_bytes();
        match core::str::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => core::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
        }
    }

    /// The field as a loader sees it: cut at the first NUL, last byte forced to NUL,
    /// the rest zeroed.
    pub fn normalized(&self) -> Self {
        let mut bytes = [0u8; N];
        let name = self.as_bytes();
        bytes[..name.len()].copy_from_slice(name);
        Self { bytes }
    }
}

impl<const N: usize> Default for FixedName<N> {
    fn default() -> Self {
        Self { bytes: [0u8; N] }
    }
}

impl<const N: usize> fmt::Debug for FixedName<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> fmt::Display for FixedName<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Name field of textures, meshes, colliders and metadata tags.
pub type Name32 = FixedName<32>;
/// Name field of emitter records.
pub type Name24 = FixedName<24>;
