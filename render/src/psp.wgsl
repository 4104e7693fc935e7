// PSP look: quantise the frame to RGBA5551 through the GE's 4×4 ordered dither.

@group(0) @binding(0) var frame_tex: texture_2d<f32>;

// The GE's dither matrix as the runtime sets it (sceGuSetDither), row by row:
// -4 0 -3 1 / 2 -2 3 -1 / -3 1 -4 0 / 3 -1 2 -2, added to 8-bit colour before the
// top five bits are kept.
const DITHER = array<i32, 16>(-4, 0, -3, 1, 2, -2, 3, -1, -3, 1, -4, 0, 3, -1, 2, -2);

// The vertex stage is `fullscreen.wgsl`'s `vs_main`, prepended to this file.

@fragment
fn fs_main(in: FullScreen) -> @location(0) vec4<f32> {
    let p = vec2<i32>(in.position.xy);
    let c = textureLoad(frame_tex, p, 0);
    // Pixels the scene wrote are 5551 values already (scene.wgsl dithers each
    // write, as the GE does); what still has the clear's alpha 0 is the clear.
    if (c.a > 0.5) {
        return vec4<f32>(c.rgb, 1.0);
    }
    let d = DITHER[(p.y & 3) * 4 + (p.x & 3)];
    let c8 = vec3<i32>(round(c.rgb * 255.0));
    let c5 = clamp(c8 + vec3<i32>(d), vec3<i32>(0), vec3<i32>(255)) >> vec3<u32>(3u);
    // Expand five bits back to eight the way a 5551 buffer reads out.
    let c8q = (c5 << vec3<u32>(3u)) | (c5 >> vec3<u32>(2u));
    return vec4<f32>(vec3<f32>(c8q) / 255.0, 1.0);
}
