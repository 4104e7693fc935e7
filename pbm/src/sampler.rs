//! The `samplers` lump: how a texture wraps and filters, where it differs from the
//! default (repeat on both axes, bilinear). A glTF sampler's wrap and filter reach
//! the device through it; a texture without a record keeps the default (and an atlas
//! clamps, as before the lump existed). Records are 8 bytes, back to back; bytes after
//! the last whole record are ignored, as are records naming no texture.

use alloc::vec::Vec;

use crate::bytes::{u8_at, u16_at};

pub const SAMPLERS_TAG: &str = crate::tag::SAMPLERS;
pub const SAMPLER_SIZE: usize = 8;

/// One texture's sampling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sampler {
    /// The texture's index in the map.
    pub texture: u16,
    /// Clamp to the edge along U (else repeat).
    pub clamp_u: bool,
    /// Clamp along V.
    pub clamp_v: bool,
    /// Nearest texel when magnified and within a level (else bilinear).
    pub nearest: bool,
}

impl Sampler {
    /// A record: u16 texture, u8 wrap U (0 repeat, 1 clamp), u8 wrap V, u8 filter
    /// (0 linear, 1 nearest), three reserved bytes (0). Other values read as the
    /// default (repeat, linear).
    pub fn decode(b: &[u8]) -> Option<Self> {
        Some(Self {
            texture: u16_at(b, 0)?,
            clamp_u: u8_at(b, 2)? == 1,
            clamp_v: u8_at(b, 3)? == 1,
            nearest: u8_at(b, 4)? == 1,
        })
    }

    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.texture.to_le_bytes());
        out.extend_from_slice(&[
            u8::from(self.clamp_u),
            u8::from(self.clamp_v),
            u8::from(self.nearest),
            0,
            0,
            0,
        ]);
    }

    /// Whether this is what a texture without a record gets.
    pub fn is_default(&self) -> bool {
        !(self.clamp_u || self.clamp_v || self.nearest)
    }
}

/// The whole records of a `samplers` payload.
pub fn decode_samplers(payload: &[u8]) -> Vec<Sampler> {
    payload
        .chunks_exact(SAMPLER_SIZE)
        .filter_map(Sampler::decode)
        .collect()
}

/// A `samplers` payload.
pub fn encode_samplers(samplers: &[Sampler]) -> Vec<u8> {
    let mut out = Vec::with_capacity(samplers.len() * SAMPLER_SIZE);
    for s in samplers {
        s.encode_into(&mut out);
    }
    out
}

/// The sampling of texture `index` among `samplers` (the first record naming it).
pub fn sampler_of(samplers: &[Sampler], index: usize) -> Sampler {
    samplers
        .iter()
        .find(|s| usize::from(s.texture) == index)
        .copied()
        .unwrap_or(Sampler {
            texture: index as u16,
            ..Sampler::default()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_odd_bytes_read_as_the_default() {
        let s = [
            Sampler {
                texture: 3,
                clamp_u: true,
                clamp_v: false,
                nearest: true,
            },
            Sampler {
                texture: 0,
                clamp_u: false,
                clamp_v: true,
                nearest: false,
            },
        ];
        let mut bytes = encode_samplers(&s);
        assert_eq!(bytes.len(), 16);
        assert_eq!(&bytes[..8], &[3, 0, 1, 0, 1, 0, 0, 0]);
        // A half record at the end is ignored; a wrap of 7 reads as repeat.
        bytes.extend_from_slice(&[9, 0, 7]);
        assert_eq!(decode_samplers(&bytes), s);
        let odd = decode_samplers(&[1, 0, 7, 2, 9, 0, 0, 0]);
        assert!(odd[0].is_default());
        assert_eq!(sampler_of(&s, 3), s[0]);
        assert!(sampler_of(&s, 5).is_default());
    }
}
