// The full-screen triangle, shared by every full-screen pass (the PSP look's
// quantise pass, the compositor): three vertices made from the vertex index, no
// buffers. `uv` is (0, 0) at the target's top-left corner and (1, 1) at its
// bottom-right; the triangle overhangs the target, so every pixel is covered once.
// Prepended to each pass's own shader (`concat!` in the Rust source).

struct FullScreen {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> FullScreen {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    var out: FullScreen;
    out.position = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}

