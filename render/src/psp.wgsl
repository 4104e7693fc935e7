// PSP look: the clear colour through the GE's 4×4 ordered dither into the 5551
// frame (everything the scene wrote is 5551 already).

@group(0) @binding(0) var frame_tex: texture_2d<f32>;

// The vertex stage is `fullscreen.wgsl`'s `vs_main` and `ge_store` is
// `dither.wgsl`'s, both prepended to this file.

@fragment
fn fs_main(in: FullScreen) -> @location(0) vec4<f32> {
    let p = vec2<i32>(in.position.xy);
    let c = textureLoad(frame_tex, p, 0);
    // Pixels the scene wrote are 5551 values already (scene.wgsl dithers each
    // write, as the GE does); what still has the clear's alpha 0 is the clear.
    if (c.a > 0.5) {
        return vec4<f32>(c.rgb, 1.0);
    }
    let c8q = ge_store(vec3<i32>(round(c.rgb * 255.0)), p);
    return vec4<f32>(vec3<f32>(c8q) / 255.0, 1.0);
}
