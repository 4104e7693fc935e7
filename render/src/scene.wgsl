// Chunks: unlit, vertex colour × texel, alpha test, linear fog by view depth
// (per vertex, as the GE computes it).

struct Frame {
    clip_from_world: mat4x4<f32>,
    // near, far, fog on (0/1), the PSP look's mip level bias
    fog: vec4<f32>,
    fog_color: vec4<f32>,
    // Preview light for scenes not baked yet: direction toward the light, and 1 to
    // use it (0: unlit, as the device draws baked colours).
    light: vec4<f32>,
};

struct Draw {
    uv_offset: vec2<f32>,
    // Fragments with alpha at or under this are discarded (the GE's GREATER test).
    alpha_ref: f32,
    // Informational: the bound texture and sampler already say these.
    textured: f32,
    clamp: f32,
    // Picking: the id written (0: not pickable).
    pick_id: u32,
    // 1: no colours of its own; shade it by its faces' direction (see `finish`).
    shaded: f32,
    _pad1: u32,
    // Selection or hover: RGB and strength.
    tint: vec4<f32>,
};

@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> draw: Draw;
// The chunk's texture (a white texel when untextured) and its sampler (repeat, or
// clamp for atlases and emitters): one fetch, no branches.
@group(2) @binding(0) var tex: texture_2d<f32>;
@group(2) @binding(1) var tex_sampler: sampler;

struct VertexOut {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) color: vec4<f32>,
    // Fog factor, computed per vertex and interpolated as the GE does.
    @location(2) fog: f32,
    @location(3) world: vec3<f32>,
};

@vertex
fn vs_main(
    @location(0) pos: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) color: vec4<f32>,
) -> VertexOut {
    var out: VertexOut;
    out.position = frame.clip_from_world * vec4<f32>(pos, 1.0);
    out.uv = uv + draw.uv_offset;
    out.color = color;
    out.world = pos;
    let depth = out.position.w;
    out.fog = clamp((depth - frame.fog.x) / max(frame.fog.y - frame.fog.x, 1e-4), 0.0, 1.0) * frame.fog.z;
    return out;
}

fn shade(in: VertexOut) -> vec4<f32> {
    return finish(in, textureSample(tex, tex_sampler, in.uv));
}

// The PSP look chooses the mip level as PPSSPP's GE does, not as the host GPU would:
// per 2×2 quad, the larger of U's step to the right and V's step down, in texels
// (U's change down the screen and V's across it are not looked at),
// its log2 read from the float's bits (exponent, plus the mantissa as a linear
// fraction: each level starts at 1.5× its texel size, not √2×), plus the GE's
// global LOD bias (+1 by default). Measured against the emulator with striped
// probes (notes/psp.md): a floor whose U runs into the screen keeps its detail
// there, as it does on the device.
fn shade_psp(in: VertexOut) -> vec4<f32> {
    let size = vec2<f32>(textureDimensions(tex, 0));
    let ds = dpdxCoarse(in.uv.x) * size.x;
    let dt = dpdyCoarse(in.uv.y) * size.y;
    let bits = bitcast<u32>(max(abs(ds), abs(dt)));
    let log2_bits = f32(i32(bits >> 23u) - 127) + f32(bits & 0x7fffffu) / 8388608.0;
    let lod = log2_bits + frame.fog.w;
    return finish(in, textureSampleLevel(tex, tex_sampler, in.uv, lod));
}

fn finish(in: VertexOut, texel: vec4<f32>) -> vec4<f32> {
    var color = in.color * texel;
    // A shape never baked would be flat white: shaded as the preview light shades
    // (from the surface's screen-space derivatives), so it reads as 3D.
    if (draw.shaded > 0.0) {
        let n = cross(dpdx(in.world), dpdy(in.world));
        let len = length(n);
        if (len > 0.0) {
            let lambert = 0.45 + 0.55 * abs(dot(n / len, frame.light.xyz));
            color = vec4<f32>(color.rgb * lambert, color.a);
        }
    }
    let tinted = mix(color.rgb, draw.tint.rgb, draw.tint.a);
    let rgb = mix(tinted, frame.fog_color.rgb, in.fog);
    return vec4<f32>(rgb, color.a);
}

// The preview light: flat shading from the surface's screen-space derivatives (no
// normals needed), applied before fog. Its own entry points, so unlit frames pay
// nothing for it.
fn lit(in: VertexOut) -> vec4<f32> {
    var unfogged = in;
    unfogged.fog = 0.0;
    let color = shade(unfogged);
    let n = normalize(cross(dpdx(in.world), dpdy(in.world)));
    let lambert = 0.45 + 0.55 * abs(dot(n, frame.light.xyz));
    return vec4<f32>(mix(color.rgb * lambert, frame.fog_color.rgb, in.fog), color.a);
}

// Opaque chunks: no alpha test, so the rasteriser may reject hidden fragments by
// depth before shading them.
@fragment
fn fs_opaque(in: VertexOut) -> @location(0) vec4<f32> {
    return shade(in);
}

@fragment
fn fs_opaque_lit(in: VertexOut) -> @location(0) vec4<f32> {
    return lit(in);
}

// Cutout, blended chunks and particles: the GE's alpha test (GREATER alpha_ref).
@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let color = shade(in);
    if (color.a <= draw.alpha_ref) {
        discard;
    }
    return color;
}

// ---- The PSP look writes every fragment as the GE does: blended (when the pass
// blends) with the 5551 value already in the frame, plus the 4×4 ordered dither the
// runtime sets, then cut to five bits. Blends therefore read the frame themselves
// (`backdrop`: the frame before this layer of non-overlapping draws, see passes.rs)
// instead of using the host's blender, which would keep eight bits between
// layers: the device's smoke and water darken and lighten by whole 5-bit steps
// per layer, in the dither's pattern. Written pixels carry alpha 1; the clear
// keeps alpha 0 until the quantise pass dithers it (`psp.wgsl`).

@group(3) @binding(0) var backdrop: texture_2d<f32>;

// `ge_store` (one dithered 5551 write) is dither.wgsl's, prepended to this file.

fn ge_written(rgb: vec3<i32>) -> vec4<f32> {
    return vec4<f32>(vec3<f32>(rgb) / 255.0, 1.0);
}

fn to8(c: vec3<f32>) -> vec3<i32> {
    return vec3<i32>(round(clamp(c, vec3<f32>(0.0), vec3<f32>(1.0)) * 255.0));
}

// What the frame holds at `pixel`, as the GE reads it back.
fn ge_frame(pixel: vec2<i32>) -> vec3<i32> {
    let b = textureLoad(backdrop, pixel, 0);
    let rgb = to8(b.rgb);
    // Still the clear colour: the GE's clear wrote it dithered.
    return select(ge_store(rgb, pixel), rgb, b.a > 0.5);
}

@fragment
fn fs_opaque_psp(in: VertexOut) -> @location(0) vec4<f32> {
    let color = shade_psp(in);
    return ge_written(ge_store(to8(color.rgb), vec2<i32>(in.position.xy)));
}

// Cutouts, blended chunks and blended particles: SRC_ALPHA, ONE_MINUS_SRC_ALPHA.
@fragment
fn fs_blend_psp(in: VertexOut) -> @location(0) vec4<f32> {
    let color = shade_psp(in);
    if (color.a <= draw.alpha_ref) {
        discard;
    }
    let pixel = vec2<i32>(in.position.xy);
    let a = i32(round(clamp(color.a, 0.0, 1.0) * 255.0));
    let mixed = (to8(color.rgb) * a + ge_frame(pixel) * (255 - a)) / 255;
    return ge_written(ge_store(mixed, pixel));
}

// Additive particles: SRC_ALPHA, FIX 0xFFFFFFFF.
@fragment
fn fs_additive_psp(in: VertexOut) -> @location(0) vec4<f32> {
    let color = shade_psp(in);
    if (color.a <= draw.alpha_ref) {
        discard;
    }
    let pixel = vec2<i32>(in.position.xy);
    let a = i32(round(clamp(color.a, 0.0, 1.0) * 255.0));
    let sum = min(to8(color.rgb) * a / 255 + ge_frame(pixel), vec3<i32>(255));
    return ge_written(ge_store(sum, pixel));
}

@fragment
fn fs_main_lit(in: VertexOut) -> @location(0) vec4<f32> {
    let color = lit(in);
    if (color.a <= draw.alpha_ref) {
        discard;
    }
    return color;
}

// ---- ID buffer: entity id, and face index with bit 31 set for a back face. A
// reversed copy of a double-sided face carries bit 31 already, so seeing its front
// means seeing the original's back.

struct PickOut {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) @interpolate(flat) face: u32,
    @location(2) alpha: f32,
};

@vertex
fn vs_pick(
    @location(0) pos: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) color: vec4<f32>,
    @location(3) face: u32,
) -> PickOut {
    var out: PickOut;
    out.position = frame.clip_from_world * vec4<f32>(pos, 1.0);
    out.uv = uv + draw.uv_offset;
    out.face = face;
    out.alpha = color.a;
    return out;
}

struct Ids {
    @location(0) entity: u32,
    @location(1) face: u32,
    // The fragment's depth in [0, 1] as its bits (depth textures cannot be read
    // back in part, and GLES cannot render to a float target).
    @location(2) depth: u32,
};

// Markers (an editor's lights, triggers…): world-space triangles whose vertices
// carry the entity's id where a chunk's carry the face.
@fragment
fn fs_pick_marker(in: PickOut) -> Ids {
    var ids: Ids;
    ids.entity = in.face;
    ids.face = 0u;
    ids.depth = bitcast<u32>(in.position.z);
    return ids;
}

@fragment
fn fs_pick(in: PickOut, @builtin(front_facing) front: bool) -> Ids {
    let texel = textureSampleBias(tex, tex_sampler, in.uv, 0.0);
    let alpha = in.alpha * texel.a;
    // Cut-out texels are holes for picking too.
    if (alpha <= draw.alpha_ref) {
        discard;
    }
    var ids: Ids;
    ids.entity = draw.pick_id;
    ids.face = in.face ^ select(0x80000000u, 0u, front);
    ids.depth = bitcast<u32>(in.position.z);
    return ids;
}
