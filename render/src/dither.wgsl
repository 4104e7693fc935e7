// The GE's 4×4 ordered dither as the runtime sets it (sceGuSetDither; `psp.rs`'s
// DITHER), and one 5551 write: the dither added to 8-bit colour, clamped, the top
// five bits kept, expanded back as a 5551 buffer reads out. Prepended to scene.wgsl
// and psp.wgsl.

const GE_DITHER = array<i32, 16>(-4, 0, -3, 1, 2, -2, 3, -1, -3, 1, -4, 0, 3, -1, 2, -2);

fn ge_store(rgb: vec3<i32>, pixel: vec2<i32>) -> vec3<i32> {
    let d = GE_DITHER[(pixel.y & 3) * 4 + (pixel.x & 3)];
    let c5 = clamp(rgb + vec3<i32>(d), vec3<i32>(0), vec3<i32>(255)) >> vec3<u32>(3u);
    return (c5 << vec3<u32>(3u)) | (c5 >> vec3<u32>(2u));
}

