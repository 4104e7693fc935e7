//! Texel work shared by the exporter, the renderer and the PSP runtime: RGBA8 ⇄ the
//! four storage formats, power-of-two checks, mip chains and the PSP swizzle.

use alloc::vec::Vec;
use core::fmt;

use crate::format::{AlphaMode, TextureFormat};

/// Smallest mip level side: chains halve while both sides are at least twice this.
pub const MIN_MIP_SIDE: u32 = 16;
/// The PSP GE takes at most 8 levels.
pub const MAX_MIP_LEVELS: usize = 8;

/// Reference packing: truncating, alpha bit set above 127.
pub fn pack_5551([r, g, b, a]: [u8; 4]) -> u16 {
    u16::from(r >> 3) | u16::from(g >> 3) << 5 | u16::from(b >> 3) << 10 | u16::from(a > 127) << 15
}

pub fn unpack_5551(p: u16) -> [u8; 4] {
    let c = |v: u16| ((v & 31) as u32 * 255 / 31) as u8;
    [
        c(p),
        c(p >> 5),
        c(p >> 10),
        if p & 0x8000 != 0 { 255 } else { 0 },
    ]
}

pub fn pack_4444([r, g, b, a]: [u8; 4]) -> u16 {
    u16::from(r >> 4) | u16::from(g >> 4) << 4 | u16::from(b >> 4) << 8 | u16::from(a >> 4) << 12
}

pub fn unpack_4444(p: u16) -> [u8; 4] {
    let c = |v: u16| ((v & 15) * 17) as u8;
    [c(p), c(p >> 4), c(p >> 8), c(p >> 12)]
}

pub fn pack_565([r, g, b, _]: [u8; 4]) -> u16 {
    u16::from(r >> 3) | u16::from(g >> 2) << 5 | u16::from(b >> 3) << 11
}

pub fn unpack_565(p: u16) -> [u8; 4] {
    let r = ((p & 31) as u32 * 255 / 31) as u8;
    let g = (((p >> 5) & 63) as u32 * 255 / 63) as u8;
    let b = (((p >> 11) & 31) as u32 * 255 / 31) as u8;
    [r, g, b, 255]
}

/// Converts RGBA8 texels (4 bytes each) to a storage format.
pub fn encode(rgba: &[u8], format: TextureFormat) -> Vec<u8> {
    let pack: fn([u8; 4]) -> u16 = match format {
        TextureFormat::Rgba8888 => return rgba.chunks_exact(4).flatten().copied().collect(),
        TextureFormat::Rgba5551 => pack_5551,
        TextureFormat::Rgba4444 => pack_4444,
        TextureFormat::Rgb565 => pack_565,
    };
    let mut out = Vec::with_capacity(rgba.len() / 2);
    for px in rgba.chunks_exact(4) {
        out.extend_from_slice(&pack([px[0], px[1], px[2], px[3]]).to_le_bytes());
    }
    out
}

/// Converts stored texels to RGBA8.
pub fn decode(data: &[u8], format: TextureFormat) -> Vec<u8> {
    let unpack: fn(u16) -> [u8; 4] = match format {
        TextureFormat::Rgba8888 => return data.chunks_exact(4).flatten().copied().collect(),
        TextureFormat::Rgba5551 => unpack_5551,
        TextureFormat::Rgba4444 => unpack_4444,
        TextureFormat::Rgb565 => unpack_565,
    };
    let mut out = Vec::with_capacity(data.len() * 2);
    for px in data.chunks_exact(2) {
        out.extend_from_slice(&unpack(u16::from_le_bytes([px[0], px[1]])));
    }
    out
}

/// Whether both sides are powers of two (the PSP samples nothing else).
pub fn is_pot(width: u32, height: u32) -> bool {
    width.is_power_of_two() && height.is_power_of_two()
}

/// One mip level in RGBA8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MipLevel {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// Halves an RGBA8 image (even sides). NONE and BLEND: box filter with colour
/// weighted by alpha + 1 (transparent texels do not darken edges) and plain average
/// alpha. CUTOUT: opaque if any texel of the 2×2 block is (so the silhouette dilates
/// rather than erodes), colour from the opaque texels.
pub fn downsample(rgba: &[u8], width: u32, height: u32, mode: AlphaMode) -> MipLevel {
    let (w2, h2) = (width / 2, height / 2);
    let mut out = Vec::with_capacity((w2 * h2 * 4) as usize);
    let px = |x: u32, y: u32| -> [u32; 4] {
        let i = ((y * width + x) * 4) as usize;
        match rgba.get(i..i + 4) {
            Some(p) => [p[0].into(), p[1].into(), p[2].into(), p[3].into()],
            None => [0; 4],
        }
    };
    for y in 0..h2 {
        for x in 0..w2 {
            let block = [
                px(2 * x, 2 * y),
                px(2 * x + 1, 2 * y),
                px(2 * x, 2 * y + 1),
                px(2 * x + 1, 2 * y + 1),
            ];
            let texel = if mode == AlphaMode::Cutout {
                let opaque = block.iter().filter(|p| p[3] >= 128).count() as u32;
                let pick = |p: &&[u32; 4]| opaque == 0 || p[3] >= 128;
                let n = if opaque == 0 { 4 } else { opaque };
                let avg =
                    |c: usize| (block.iter().filter(pick).map(|p| p[c]).sum::<u32>() + n / 2) / n;
                [avg(0), avg(1), avg(2), if opaque > 0 { 255 } else { 0 }]
            } else {
                let weight: u32 = block.iter().map(|p| p[3] + 1).sum();
                let avg = |c: usize| {
                    (block.iter().map(|p| p[c] * (p[3] + 1)).sum::<u32>() + weight / 2) / weight
                };
                let alpha = (block.iter().map(|p| p[3]).sum::<u32>() + 2) / 4;
                [avg(0), avg(1), avg(2), alpha]
            };
            out.extend(texel.map(|c| c.min(255) as u8));
        }
    }
    MipLevel {
        width: w2,
        height: h2,
        rgba: out,
    }
}

/// The mip chain of an RGBA8 image, level 0 first: halved while both sides are at
/// least 32 (so no level is under 16 px) and at most [`MAX_MIP_LEVELS`] levels.
pub fn mip_chain(rgba: &[u8], width: u32, height: u32, mode: AlphaMode) -> Vec<MipLevel> {
    let mut levels = Vec::new();
    levels.push(MipLevel {
        width,
        height,
        rgba: rgba.to_vec(),
    });
    while levels.len() < MAX_MIP_LEVELS {
        let Some(last) = levels.last() else { break };
        let (w, h) = (last.width, last.height);
        if w < 2 * MIN_MIP_SIDE
            || h < 2 * MIN_MIP_SIDE
            || !w.is_multiple_of(2)
            || !h.is_multiple_of(2)
        {
            break;
        }
        let next = downsample(&last.rgba, w, h, mode);
        levels.push(next);
    }
    levels
}

/// A swizzle request that does not fit the block layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwizzleError {
    pub width_bytes: usize,
    pub height: usize,
    pub len: usize,
}

impl fmt::Display for SwizzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot swizzle {} bytes as {} rows of {} bytes: rows must be a multiple of 16 bytes and the height a multiple of 8",
            self.len, self.height, self.width_bytes
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SwizzleError {}

/// PSP block layout: 16-byte × 8-row blocks, stored row-major, each block's rows
/// contiguous (128 bytes per block).
const BLOCK_W: usize = 16;
const BLOCK_H: usize = 8;

fn check_swizzle(
    src: &[u8],
    dst: &[u8],
    width_bytes: usize,
    height: usize,
) -> Result<(), SwizzleError> {
    let ok = width_bytes.is_multiple_of(BLOCK_W)
        && height.is_multiple_of(BLOCK_H)
        && width_bytes.checked_mul(height) == Some(src.len())
        && dst.len() == src.len();
    if ok {
        Ok(())
    } else {
        Err(SwizzleError {
            width_bytes,
            height,
            len: src.len(),
        })
    }
}

/// Swizzles a linear image (`width_bytes` per row) into `dst` of the same size.
pub fn swizzle_into(
    src: &[u8],
    dst: &mut [u8],
    width_bytes: usize,
    height: usize,
) -> Result<(), SwizzleError> {
    check_swizzle(src, dst, width_bytes, height)?;
    let blocks_x = width_bytes / BLOCK_W;
    for (block, out) in dst.chunks_exact_mut(BLOCK_W * BLOCK_H).enumerate() {
        let (by, bx) = (block / blocks_x, block % blocks_x);
        for (row, out_row) in out.chunks_exact_mut(BLOCK_W).enumerate() {
            let at = (by * BLOCK_H + row) * width_bytes + bx * BLOCK_W;
            out_row.copy_from_slice(&src[at..at + BLOCK_W]);
        }
    }
    Ok(())
}

/// Undoes [`swizzle_into`].
pub fn unswizzle_into(
    src: &[u8],
    dst: &mut [u8],
    width_bytes: usize,
    height: usize,
) -> Result<(), SwizzleError> {
    check_swizzle(src, dst, width_bytes, height)?;
    let blocks_x = width_bytes / BLOCK_W;
    for (block, input) in src.chunks_exact(BLOCK_W * BLOCK_H).enumerate() {
        let (by, bx) = (block / blocks_x, block % blocks_x);
        for (row, in_row) in input.chunks_exact(BLOCK_W).enumerate() {
            let at = (by * BLOCK_H + row) * width_bytes + bx * BLOCK_W;
            dst[at..at + BLOCK_W].copy_from_slice(in_row);
        }
    }
    Ok(())
}

pub fn swizzle(src: &[u8], width_bytes: usize, height: usize) -> Result<Vec<u8>, SwizzleError> {
    let mut out = alloc::vec![0u8; src.len()];
    swizzle_into(src, &mut out, width_bytes, height)?;
    Ok(out)
}

pub fn unswizzle(src: &[u8], width_bytes: usize, height: usize) -> Result<Vec<u8>, SwizzleError> {
    let mut out = alloc::vec![0u8; src.len()];
    unswizzle_into(src, &mut out, width_bytes, height)?;
    Ok(out)
}

/// One mip level in a texture's storage format (linear, unswizzled).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredLevel {
    pub width: u32,
    pub height: u32,
    pub data: Vec<u8>,
}

/// The mip chain of stored texels, each level in the same format: decode, filter by
/// the alpha mode's rule ([`mip_chain`]), encode. Level 0 is the input unchanged.
/// Emitter flipbooks use level 0 only; consumers decide that.
pub fn stored_mip_chain(
    data: &[u8],
    width: u32,
    height: u32,
    format: TextureFormat,
    mode: AlphaMode,
) -> Vec<StoredLevel> {
    let rgba = decode(data, format);
    let mut levels = mip_chain(&rgba, width, height, mode).into_iter();
    let mut out = Vec::with_capacity(levels.len());
    if levels.next().is_some() {
        out.push(StoredLevel {
            width,
            height,
            data: data.to_vec(),
        });
    }
    out.extend(levels.map(|l| StoredLevel {
        width: l.width,
        height: l.height,
        data: encode(&l.rgba, format),
    }));
    out
}
