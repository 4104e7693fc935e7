//! The PSP look's framebuffer: RGBA5551 written through the GE's 4×4 ordered dither
//! (the matrix the runtime sets with `sceGuSetDither`). `psp.wgsl` applies it on the
//! GPU; this is the same rule on the CPU, for tests and for comparing captures.
//!
//! The GE dithers every fragment it writes; the preview quantises the finished
//! frame once, so blended pixels can differ from the device by one 5-bit step.

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
