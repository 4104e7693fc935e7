// The compositor: a renderer's frame drawn over the whole of a caller's target.
// The vertex stage is `fullscreen.wgsl`'s `vs_main`, prepended to this file.

@group(0) @binding(0) var frame_tex: texture_2d<f32>;
@group(0) @binding(1) var frame_sampler: sampler;

fn to_linear(c: vec3<f32>) -> vec3<f32> {
    return select(pow((c + 0.055) / 1.055, vec3<f32>(2.4)), c / 12.92, c <= vec3<f32>(0.04045));
}

// The frame holds display values; an sRGB target would encode them again.
@fragment
fn fs_plain(in: FullScreen) -> @location(0) vec4<f32> {
    return vec4<f32>(textureSample(frame_tex, frame_sampler, in.uv).rgb, 1.0);
}

@fragment
fn fs_srgb(in: FullScreen) -> @location(0) vec4<f32> {
    return vec4<f32>(to_linear(textureSample(frame_tex, frame_sampler, in.uv).rgb), 1.0);
}
