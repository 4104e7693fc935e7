//! The `double_sided` lump: the meshes drawn from both sides. A double-sided face
//! is written once and its mesh drawn with culling off, rather than written twice
//! (once reversed), which doubled such faces' triangles. The payload is the meshes'
//! indices as little-endian u32s, back to back; bytes after the last whole index
//! are ignored, as are indices naming no mesh. A loader without the lump culls
//! these meshes like any other (they show from their front only).

use alloc::vec::Vec;

pub const DOUBLE_SIDED_TAG: &str = crate::tag::DOUBLE_SIDED;

/// The mesh indices of a `double_sided` payload.
pub fn decode(payload: &[u8]) -> Vec<u32> {
    payload
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A `double_sided` payload.
pub fn encode(meshes: &[u32]) -> Vec<u8> {
    meshes.iter().flat_map(|m| m.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn indices_round_trip_and_a_torn_tail_is_ignored() {
        let mut bytes = super::encode(&[0, 7, 70_000]);
        assert_eq!(super::decode(&bytes), [0, 7, 70_000]);
        bytes.extend_from_slice(&[1, 2]);
        assert_eq!(super::decode(&bytes), [0, 7, 70_000]);
    }
}
