//! The PSP look's framebuffer: RGBA5551 written through the GE's 4×4 ordered dither
//! (the matrix the runtime sets with `sceGuSetDither`). `dither.wgsl` applies it on the
//! GPU; this is the same rule on the CPU, for tests and for comparing captures.
//!
//! The GE dithers every fragment it writes, blends included, so layers of smoke or
//! water drift by whole 5-bit steps in the dither's pattern; the PSP look writes
//! each fragment the same way (`scene.wgsl`), and only the clear colour is left for
//! `psp.wgsl` to dither.

/// Row by row, added to 8-bit colour before the top five bits are kept.
pub const DITHER: [[i32; 4]; 4] = [
    [-4, 0, -3, 1],
    [2, -2, 3, -1],
    [-3, 1, -4, 0],
    [3, -1, 2, -2],
];

/// One 8-bit channel at pixel (x, y) as a 5551 framebuffer reads it back.
pub fn quantise(value: u8, x: u32, y: u32) -> u8 {
    let d = DITHER[(y & 3) as usize][(x & 3) as usize];
    let c5 = ((i32::from(value) + d).clamp(0, 255) >> 3) as u8;
    (c5 << 3) | (c5 >> 2)
}

/// One channel of a blended write as the GE makes it (SRC_ALPHA,
/// ONE_MINUS_SRC_ALPHA): `src` over the 5551 value `dst` already in the frame at
/// (x, y), then dithered and cut to five bits like every write. The PSP look's
/// blends do this in the shader (`scene.wgsl`'s `fs_blend_psp`).
pub fn blend_write(src: u8, alpha: u8, dst: u8, x: u32, y: u32) -> u8 {
    let (s, a, d) = (u32::from(src), u32::from(alpha), u32::from(dst));
    quantise(((s * a + d * (255 - a)) / 255) as u8, x, y)
}

/// Whether an 8-bit value is one a 5-bit channel expands to.
pub fn is_5bit(value: u8) -> bool {
    let c5 = value >> 3;
    (c5 << 3) | (c5 >> 2) == value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dither_matrix_sums_to_minus_eight_and_spans_eight_levels() {
        let all: Vec<i32> = DITHER.iter().flatten().copied().collect();
        assert_eq!(all.iter().sum::<i32>(), -8);
        assert_eq!(
            (
                *all.iter().min().unwrap_or(&0),
                *all.iter().max().unwrap_or(&0)
            ),
            (-4, 3)
        );
    }

    #[test]
    fn quantised_values_are_5bit_and_dither_spreads_a_flat_colour() {
        let mut seen = std::collections::BTreeSet::new();
        for y in 0..4 {
            for x in 0..4 {
                let q = quantise(103, x, y);
                assert!(is_5bit(q));
                seen.insert(q);
            }
        }
        // 103 sits between two 5-bit steps (99 and 107): the pattern uses both.
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!(quantise(0, 0, 0), 0);
        assert_eq!(quantise(255, 1, 1), 255);
    }
}
