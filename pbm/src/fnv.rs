//! 64-bit FNV-1a digests for summarising bulk data.
//!
//! The reference tools that wrote the fixtures' `*.expected.json` use the FNV-1a 64
//! prime but the offset basis `1469598103934665603` (0x14650FB0739D0383): the
//! standard decimal constant 14695981039346656037 with its last digit dropped.
//! [`fnv1a64_reference`] reproduces their digests so that dumps can be compared
//! with theirs; [`fnv1a64`] is the standard function.

/// The standard FNV-1a 64 offset basis.
pub const FNV1A64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// The reference tools' offset basis (see the module doc).
pub const FNV1A64_REFERENCE_OFFSET: u64 = 1_469_598_103_934_665_603;
pub const FNV1A64_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 over `data` from a given offset basis.
pub fn fnv1a64_with(basis: u64, data: &[u8]) -> u64 {
    data.iter().fold(basis, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(FNV1A64_PRIME)
    })
}

/// Standard FNV-1a 64.
pub fn fnv1a64(data: &[u8]) -> u64 {
    fnv1a64_with(FNV1A64_OFFSET, data)
}

/// FNV-1a 64 as the reference tools compute it (the digests in the fixtures).
pub fn fnv1a64_reference(data: &[u8]) -> u64 {
    fnv1a64_with(FNV1A64_REFERENCE_OFFSET, data)
}
