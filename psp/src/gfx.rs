//! The GE: set-up (5551 colour buffers with the ordered dither the editor's PSP
//! look reproduces, 16-bit depth, guard-band viewport) and one frame by the
//! consumer rules — opaque meshes in file order, then cutout and blended ones in one
//! loop in file order, then emitters (blended back to front, additive unsorted),
//! then the HUD.

use alloc::ffi::CString;
use alloc::vec::Vec;
use core::ffi::c_void;

use pbm::AlphaMode;
use pbm::guard::{Guard, GuardCamera, MAX_CLIPPED, Side};
use psp::sys::{
    self, AlphaFunc, BlendFactor, BlendOp, ClearBuffer, DepthFunc, DisplayPixelFormat,
    FrontFaceDirection, GuContextType, GuPrimitive, GuState, GuSyncBehavior, GuSyncMode,
    GuTexWrapMode, MatrixMode, MipmapLevel, ScePspIMatrix4, ScePspIVector4, ShadingModel,
    TextureColorComponent, TextureEffect, TextureFilter, TextureLevelMode, TexturePixelFormat,
    VertexType,
};

use crate::camera::{self, Camera};
use crate::tunables::{Filter, Tunables};
use crate::world::{Mesh, Texels, Texture, World};

pub const WIDTH: usize = 480;
pub const HEIGHT: usize = 272;
const STRIDE: usize = 512;
/// VRAM offsets (relative): two 5551 colour buffers, then 16-bit depth.
const FRAME0: usize = 0;
const FRAME1: usize = 0x44000;
const DEPTH: usize = 0x88000;

const LIST_WORDS: usize = 0x20000;
static mut LIST: psp::Align16<[u32; LIST_WORDS]> = psp::Align16([0; LIST_WORDS]);

/// The GE's 4×4 ordered dither, rows top to bottom (the matrix the editor's PSP
/// look applies; notes/render.md).
const DITHER: [[i32; 4]; 4] = [[-4, 0, -3, 1], [2, -2, 3, -1], [-3, 1, -4, 0], [3, -1, 2, -2]];

const VERTEX: VertexType = VertexType::from_bits_truncate(
    VertexType::TEXTURE_32BITF.bits()
        | VertexType::COLOR_8888.bits()
        | VertexType::VERTEX_32BITF.bits()
        | VertexType::TRANSFORM_3D.bits(),
);

/// The file's vertex (and the particles' quads): u, v, colour, x, y, z.
#[repr(C)]
#[derive(Clone, Copy)]
struct GeVertex {
    u: f32,
    v: f32,
    color: u32,
    x: f32,
    y: f32,
    z: f32,
}

impl GeVertex {
    fn pos(&self) -> [f32; 3] {
        [self.x, self.y, self.z]
    }

    fn to_pbm(self) -> pbm::Vertex {
        pbm::Vertex {
            uv: [self.u, self.v],
            color: self.color,
            pos: self.pos(),
        }
    }

    fn from_pbm(v: &pbm::Vertex) -> Self {
        Self {
            u: v.uv[0],
            v: v.uv[1],
            color: v.color,
            x: v.pos[0],
            y: v.pos[1],
            z: v.pos[2],
        }
    }
}

/// What the meshes show (runtime facts §1: textured, baked colours only, wires).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DisplayMode {
    Textured,
    Untextured,
    Wireframe,
}

impl DisplayMode {
    pub fn next(self) -> Self {
        match self {
            Self::Textured => Self::Untextured,
            Self::Untextured => Self::Wireframe,
            Self::Wireframe => Self::Textured,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Textured => "textured",
            Self::Untextured => "untextured",
            Self::Wireframe => "wireframe",
        }
    }
}

pub use pebble_play::Sphere;

/// What a frame draws besides the map.
pub struct Extras<'a> {
    pub environment: crate::world::Environment,
    pub mode: DisplayMode,
    pub spheres: &'a [Sphere],
    pub hud: &'a [alloc::string::String],
}

/// Unit spheres (`pebble_play::shapes::unit_sphere`, the editor's too), one per
/// colour, made on first use.
#[derive(Default)]
pub struct SphereMeshes(Vec<(u32, crate::world::Aligned)>);

impl SphereMeshes {
    fn mesh(&mut self, color: u32) -> *const c_void {
        if let Some((_, m)) = self.0.iter().find(|(c, _)| *c == color) {
            return m.as_ptr() as *const c_void;
        }
        let mut bytes = Vec::with_capacity(288 * 24);
        for (p, c) in pebble_play::shapes::unit_sphere(color) {
            for v in [0.0f32, 0.0] {
                bytes.extend_from_slice(&v.to_le_bytes());
            }
            bytes.extend_from_slice(&c.to_le_bytes());
            for v in p {
                bytes.extend_from_slice(&v.to_le_bytes());
            }
        }
        self.0.push((color, crate::world::Aligned::from_bytes(&bytes)));
        // SAFETY: no arguments; the new vertices must reach main memory for the GE.
        unsafe { sys::sceKernelDcacheWritebackAll() };
        self.0.last().map(|(_, m)| m.as_ptr() as *const c_void).unwrap_or(core::ptr::null())
    }
}

/// What the last frame drew, for the HUD and the captures.
#[derive(Clone, Copy, Default, Debug)]
pub struct FrameStats {
    pub draw_calls: u32,
    pub triangles: u32,
    /// Triangles clipped to the guard band this frame (each drawn as its own
    /// small fan; counted once in `triangles`).
    pub clipped: u32,
    /// Meshes (and their triangles) left out: outside the guard band, so nothing
    /// of them could show. `draw_calls` and `triangles` count meshes drawn, a mesh
    /// drawn in several runs once.
    pub skipped_meshes: u32,
    pub skipped_triangles: u32,
    pub particles: u32,
    pub list_bytes: u32,
}

pub fn init() {
    // SAFETY: the display list is only used by the GE between sceGuStart and
    // sceGuSync, on this thread.
    unsafe {
        sys::sceGuInit();
        sys::sceGuStart(GuContextType::Direct, &raw mut LIST as *mut c_void);
        sys::sceGuDrawBuffer(DisplayPixelFormat::Psm5551, FRAME0 as *mut c_void, STRIDE as i32);
        sys::sceGuDispBuffer(WIDTH as i32, HEIGHT as i32, FRAME1 as *mut c_void, STRIDE as i32);
        sys::sceGuDepthBuffer(DEPTH as *mut c_void, STRIDE as i32);
        sys::sceGuOffset(2048 - (WIDTH as u32 / 2), 2048 - (HEIGHT as u32 / 2));
        sys::sceGuViewport(2048, 2048, WIDTH as i32, HEIGHT as i32);
        sys::sceGuDepthRange(0, 65535);
        sys::sceGuScissor(0, 0, WIDTH as i32, HEIGHT as i32);
        sys::sceGuEnable(GuState::ScissorTest);
        sys::sceGuEnable(GuState::ClipPlanes);
        sys::sceGuFrontFace(FrontFaceDirection::CounterClockwise);
        sys::sceGuShadeModel(ShadingModel::Smooth);
        let row = |r: [i32; 4]| ScePspIVector4 {
            x: r[0],
            y: r[1],
            z: r[2],
            w: r[3],
        };
        let dither = ScePspIMatrix4 {
            x: row(DITHER[0]),
            y: row(DITHER[1]),
            z: row(DITHER[2]),
            w: row(DITHER[3]),
        };
        sys::sceGuSetDither(&dither);
        sys::sceGuEnable(GuState::Dither);
        sys::sceGuFinish();
        sys::sceGuSync(GuSyncMode::Finish, GuSyncBehavior::Wait);
        sys::sceDisplayWaitVblankStart();
        sys::sceGuDisplay(true);
    }
}

fn psm(t: Texels) -> TexturePixelFormat {
    match t {
        Texels::Rgba5551 => TexturePixelFormat::Psm5551,
        Texels::Rgba4444 => TexturePixelFormat::Psm4444,
        Texels::Rgb565 => TexturePixelFormat::Psm5650,
        Texels::Rgba8888 => TexturePixelFormat::Psm8888,
    }
}

const MIP: [MipmapLevel; 8] = [
    MipmapLevel::None,
    MipmapLevel::Level1,
    MipmapLevel::Level2,
    MipmapLevel::Level3,
    MipmapLevel::Level4,
    MipmapLevel::Level5,
    MipmapLevel::Level6,
    MipmapLevel::Level7,
];

/// Binds a texture: its level chain (unless the tunables drop it), wrap mode and
/// filter.
unsafe fn bind(t: &Texture, tunables: &Tunables, level0_only: bool) {
    let chain = tunables.mips
        && !level0_only
        && (t.alpha != AlphaMode::Cutout || tunables.cutout_mips);
    let levels = if chain { t.levels.len() } else { 1 };
    // SAFETY (caller): inside a display list; the texel buffers outlive the frame.
    unsafe {
        sys::sceGuTexMode(psm(t.texels), levels as i32 - 1, 0, i32::from(t.swizzled));
        for (k, (w, h, data)) in t.levels.iter().take(levels).enumerate() {
            sys::sceGuTexImage(MIP[k], *w as i32, *h as i32, *w as i32, data.as_ptr() as *const c_void);
        }
        let wrap = |clamp: bool| if t.atlas || clamp { GuTexWrapMode::Clamp } else { GuTexWrapMode::Repeat };
        sys::sceGuTexWrap(wrap(t.sampler.clamp_u), wrap(t.sampler.clamp_v));
        // A nearest-filtered texture (the `samplers` lump); the rest as the tunables say.
        if t.sampler.nearest {
            sys::sceGuTexFilter(TextureFilter::NearestMipmapNearest, TextureFilter::Nearest);
        } else {
            filter(tunables, false);
        }
        sys::sceGuTexFlush();
    }
}

unsafe fn filter(tunables: &Tunables, flipbook: bool) {
    // SAFETY (caller): inside a display list.
    unsafe {
        if flipbook {
            sys::sceGuTexFilter(TextureFilter::Linear, TextureFilter::Linear);
            return;
        }
        match tunables.filter {
            Filter::MipLinear => {
                sys::sceGuTexFilter(TextureFilter::LinearMipmapNearest, TextureFilter::Linear)
            }
            Filter::Linear => {
                sys::sceGuTexFilter(TextureFilter::LinearMipmapLinear, TextureFilter::Linear)
            }
            Filter::Nearest => {
                sys::sceGuTexFilter(TextureFilter::NearestMipmapNearest, TextureFilter::Nearest)
            }
        }
    }
}

/// Display-list bytes a frame may spend on clipped triangles; past them, a
/// triangle is drawn whole (and the GE may drop it, as it did before clipping).
const CLIP_BYTES: usize = 160 * 1024;

/// The guard band as the camera's matrices make it (`camera.rs`: the projection's
/// scales; the viewport centred in the GE's 4096-pixel space).
fn guard_of(camera: &Camera) -> Guard {
    let (right, up, forward) = camera.basis();
    let h = 1.0 / libm::tanf(camera.fov_deg.clamp(10.0, 170.0).to_radians() * 0.5);
    Guard::new(&GuardCamera {
        eye: camera.eye,
        right,
        up,
        forward,
        near: camera::NEAR * 1.05,
        scale: [h / camera::ASPECT, h],
        half_viewport: [WIDTH as f32 / 2.0, HEIGHT as f32 / 2.0],
        // 2048 pixels each way from the centre, less a margin for the GE's rounding.
        half_band: 2000.0,
    })
}

/// One mesh, as the GE can draw it: whole when its box lies inside the guard band,
/// skipped when outside (nothing of it can show); otherwise triangle by triangle —
/// runs of triangles inside drawn straight from the mesh, those across the band
/// clipped to it into display-list memory, those outside left out.
///
/// # Safety
/// Inside a display list; the mesh's vertices outlive the frame.
unsafe fn draw_mesh(m: &Mesh, guard: &Guard, prim: GuPrimitive, stats: &mut FrameStats, clip_left: &mut usize) {
    let base = m.vertices.as_ptr() as *const GeVertex;
    let all = m.count / 3;
    // SAFETY (caller): inside a display list; `base` holds `m.count` vertices in the
    // GE's layout (world.rs) and outlives the frame.
    unsafe {
        let draw = |first: usize, count: usize| {
            sys::sceGuDrawArray(prim, VERTEX, count as i32, core::ptr::null(), base.add(first) as *const c_void);
        };
        match guard.side_of_box(m.min, m.max) {
            Side::Outside => {
                stats.skipped_meshes += 1;
                stats.skipped_triangles += all;
                return;
            }
            Side::Inside => {
                draw(0, m.count as usize);
                stats.draw_calls += 1;
                stats.triangles += all;
                return;
            }
            Side::Crossing => {}
        }
        stats.draw_calls += 1;
        let vertices = core::slice::from_raw_parts(base, m.count as usize);
        let mut run: Option<usize> = None;
        let mut outside = 0;
        for (t, tri) in vertices.chunks_exact(3).enumerate() {
            let corners = [tri[0].pos(), tri[1].pos(), tri[2].pos()];
            let side = guard.side_of_triangle(corners);
            if side == Side::Inside {
                run.get_or_insert(t);
                continue;
            }
            if let Some(first) = run.take() {
                draw(first * 3, (t - first) * 3);
            }
            if side == Side::Outside {
                outside += 1;
                continue;
            }
            let mut poly = [pbm::Vertex::default(); MAX_CLIPPED];
            let n = guard.clip(&[tri[0].to_pbm(), tri[1].to_pbm(), tri[2].to_pbm()], &mut poly);
            if n < 3 {
                outside += 1;
                continue;
            }
            let count = (n - 2) * 3;
            let bytes = count * core::mem::size_of::<GeVertex>();
            if bytes > *clip_left {
                draw(t * 3, 3);
                continue;
            }
            *clip_left -= bytes;
            let memory = sys::sceGuGetMemory(bytes as i32) as *mut GeVertex;
            for k in 1..n - 1 {
                let at = (k - 1) * 3;
                memory.add(at).write(GeVertex::from_pbm(&poly[0]));
                memory.add(at + 1).write(GeVertex::from_pbm(&poly[k]));
                memory.add(at + 2).write(GeVertex::from_pbm(&poly[k + 1]));
            }
            sys::sceGuDrawArray(prim, VERTEX, count as i32, core::ptr::null(), memory as *const c_void);
            stats.clipped += 1;
        }
        if let Some(first) = run {
            draw(first * 3, m.count as usize - first * 3);
        }
        stats.triangles += all - outside;
        stats.skipped_triangles += outside;
    }
}

/// Draws one frame of `world` from `camera` at scene time `t`, with `hud` lines
/// on top (none: no HUD), and shows it.
pub fn frame(
    world: &World,
    glow: &Texture,
    camera: &Camera,
    t: f64,
    tunables: &Tunables,
    extras: &Extras<'_>,
    spheres: &mut SphereMeshes,
) -> FrameStats {
    let mut stats = FrameStats::default();
    let hud = extras.hud;
    let (textured, wires) = match extras.mode {
        DisplayMode::Textured => (true, false),
        DisplayMode::Untextured => (false, false),
        DisplayMode::Wireframe => (false, true),
    };
    let (clear, fog_near, fog_far) = extras.environment.look();
    // SAFETY: one display list at a time on this thread; every buffer the list
    // points at (textures, vertices, sceGuGetMemory) lives until sceGuSync.
    unsafe {
        sys::sceGuStart(GuContextType::Direct, &raw mut LIST as *mut c_void);
        sys::sceGuClearColor(clear);
        sys::sceGuClearDepth(65535);
        sys::sceGuClear(ClearBuffer::COLOR_BUFFER_BIT | ClearBuffer::DEPTH_BUFFER_BIT);
        sys::sceGuFog(fog_near, fog_far, clear);
        sys::sceGuEnable(GuState::Fog);
        sys::sceGuDepthFunc(DepthFunc::LessOrEqual);
        sys::sceGuEnable(GuState::DepthTest);
        // Opaque and cutout surfaces write depth, so what is nearer hides what is
        // behind whatever the file order; blended ones and particles only test it.
        // sceGuDepthMask(1) *disables* writes (pspsdk's meaning).
        let solid_mask = i32::from(!tunables.depth_write);
        sys::sceGuDepthMask(solid_mask);
        sys::sceGuSetMatrix(MatrixMode::Projection, &camera.projection());
        sys::sceGuSetMatrix(MatrixMode::View, &camera.view());
        sys::sceGuSetMatrix(MatrixMode::Model, &camera::identity());
        sys::sceGuTexFunc(TextureEffect::Modulate, TextureColorComponent::Rgba);
        sys::sceGuTexLevelMode(TextureLevelMode::Auto, tunables.bias);
        filter(tunables, false);
        let mut bound: Option<usize> = None;
        let mut offset = [-1.0f32, -1.0];
        let guard = guard_of(camera);
        let mut clip_bytes_left = CLIP_BYTES;
        let mut culling = false;
        for pass in [false, true] {
            if pass {
                sys::sceGuEnable(GuState::Blend);
                sys::sceGuBlendFunc(BlendOp::Add, BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha, 0, 0);
                sys::sceGuEnable(GuState::AlphaTest);
                sys::sceGuDisable(GuState::CullFace);
            } else {
                sys::sceGuDisable(GuState::Blend);
                sys::sceGuDisable(GuState::AlphaTest);
                if tunables.cull && !wires {
                    sys::sceGuEnable(GuState::CullFace);
                } else {
                    sys::sceGuDisable(GuState::CullFace);
                }
                culling = tunables.cull && !wires;
            }
            for m in &world.meshes {
                if (m.alpha != AlphaMode::None) != pass || m.count == 0 {
                    continue;
                }
                if pass {
                    let cutout = m.alpha == AlphaMode::Cutout;
                    sys::sceGuAlphaFunc(AlphaFunc::Greater, if cutout { 0x10 } else { 0 }, 0xff);
                    sys::sceGuDepthMask(if cutout { solid_mask } else { 1 });
                }
                match m.texture.filter(|_| textured) {
                    Some(i) => {
                        sys::sceGuEnable(GuState::Texture2D);
                        let tex = &world.textures[i];
                        if bound != Some(i) {
                            bind(tex, tunables, false);
                            bound = Some(i);
                        }
                        if tex.atlas && tunables.detail_const >= 0.0 {
                            sys::sceGuTexLevelMode(TextureLevelMode::Const, tunables.detail_const);
                        } else {
                            sys::sceGuTexLevelMode(TextureLevelMode::Auto, tunables.bias);
                        }
                        let o = if tunables.uv_scroll {
                            pbm::scroll::scroll_offset(t, m.scroll)
                        } else {
                            [0.0, 0.0]
                        };
                        if o != offset {
                            sys::sceGuTexOffset(o[0], o[1]);
                            offset = o;
                        }
                    }
                    None => sys::sceGuDisable(GuState::Texture2D),
                }
                if !pass && tunables.cull && !wires {
                    // Double-sided meshes are written once and drawn unculled.
                    let cull = !m.double_sided;
                    if culling != cull {
                        if cull {
                            sys::sceGuEnable(GuState::CullFace);
                        } else {
                            sys::sceGuDisable(GuState::CullFace);
                        }
                        culling = cull;
                    }
                }
                let prim = if wires { GuPrimitive::LineStrip } else { GuPrimitive::Triangles };
                draw_mesh(m, &guard, prim, &mut stats, &mut clip_bytes_left);
            }
            if !pass && !extras.spheres.is_empty() {
                // Entities: untextured, culled, each with its model matrix.
                sys::sceGuDisable(GuState::Texture2D);
                for sp in extras.spheres {
                    let r = sp.radius;
                    let c = sp.centre;
                    let model = crate::camera::columns([
                        [r, 0.0, 0.0, 0.0],
                        [0.0, r, 0.0, 0.0],
                        [0.0, 0.0, r, 0.0],
                        [c[0], c[1], c[2], 1.0],
                    ]);
                    sys::sceGuSetMatrix(MatrixMode::Model, &model);
                    let mesh = spheres.mesh(sp.color);
                    sys::sceGuDrawArray(
                        if wires { GuPrimitive::LineStrip } else { GuPrimitive::Triangles },
                        VERTEX,
                        288,
                        core::ptr::null(),
                        mesh,
                    );
                    stats.draw_calls += 1;
                    stats.triangles += 96;
                }
                sys::sceGuSetMatrix(MatrixMode::Model, &camera::identity());
                bound = None;
            }
        }
        if offset != [0.0, 0.0] {
            sys::sceGuTexOffset(0.0, 0.0);
        }
        if !wires {
            particles(world, glow, camera, t, tunables, &mut stats);
        }
        sys::sceGuDisable(GuState::Fog);
        sys::sceGuDisable(GuState::Blend);
        sys::sceGuDisable(GuState::AlphaTest);
        if !hud.is_empty() {
            sys::sceGuDisable(GuState::DepthTest);
            sys::sceGuDisable(GuState::Texture2D);
            for (n, line) in hud.iter().enumerate() {
                if let Ok(c) = CString::new(line.as_bytes()) {
                    sys::sceGuDebugPrint(4, 4 + 10 * n as i32, 0xff_ff_ff_ff, c.as_ptr() as *const u8);
                }
            }
            sys::sceGuDebugFlush();
        }
        stats.list_bytes = sys::sceGuFinish() as u32;
        sys::sceGuSync(GuSyncMode::Finish, GuSyncBehavior::Wait);
        sys::sceDisplayWaitVblankStart();
        sys::sceGuSwapBuffers();
    }
    stats
}

/// Emitters from the shared `pbm` evaluation: blended ones first, each back to
/// front by view depth, then additive ones unsorted; particles behind the near
/// plane or under 1.5 px are dropped; depth tested, never written; unlit.
unsafe fn particles(
    world: &World,
    glow: &Texture,
    camera: &Camera,
    t: f64,
    tunables: &Tunables,
    stats: &mut FrameStats,
) {
    let field = &world.particles;
    if field.emitters.is_empty() {
        return;
    }
    let (r, u, f) = camera.basis();
    let view = pbm::particle::ViewBasis {
        eye: camera.eye,
        right: r,
        up: u,
        forward: f,
    };
    let focal = camera.focal_px();
    // SAFETY (caller): inside a display list.
    unsafe {
        sys::sceGuDepthMask(1);
        sys::sceGuDisable(GuState::CullFace);
        sys::sceGuEnable(GuState::Blend);
        sys::sceGuEnable(GuState::AlphaTest);
        sys::sceGuEnable(GuState::Texture2D);
        for additive in [false, true] {
            if tunables.particles & if additive { 2 } else { 1 } == 0 {
                continue;
            }
            if additive {
                // The GE has no ONE factor: FIX 0xFFFFFFFF.
                sys::sceGuBlendFunc(BlendOp::Add, BlendFactor::SrcAlpha, BlendFactor::Fix, 0, 0xffff_ffff);
            } else {
                sys::sceGuBlendFunc(BlendOp::Add, BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha, 0, 0);
            }
            for e in &field.emitters {
                let params = &e.params;
                if (params.flags & pbm::emitter::flags::ADDITIVE != 0) != additive || params.count == 0 {
                    continue;
                }
                // Whole emitters outside the view (runtime facts §5).
                let d = [
                    params.pos[0] - camera.eye[0],
                    params.pos[1] - camera.eye[1],
                    params.pos[2] - camera.eye[2],
                ];
                let front = d[0] * f[0] + d[1] * f[1] + d[2] * f[2];
                let radius = e.cull_radius;
                if front + radius < camera::NEAR {
                    continue;
                }
                let texture = usize::try_from(params.texture_id)
                    .ok()
                    .and_then(|i| world.textures.get(i));
                let tex = texture.unwrap_or(glow);
                let size = texture.and_then(|t| t.levels.first()).map(|l| (l.0, l.1));
                let mut quads: Vec<(f32, pbm::particle::Quad)> = field
                    .particles_of(e)
                    .iter()
                    .filter_map(|p| {
                        let s = pbm::particle::evaluate(e, p, t, size);
                        let depth = view.depth(s.position);
                        let extent = s.height.max(s.width);
                        if depth + 0.75 * extent < camera::NEAR || extent * focal < 1.5 * depth {
                            return None;
                        }
                        Some((depth, pbm::particle::billboard(params.flags, &s, &view)))
                    })
                    .collect();
                if quads.is_empty() {
                    continue;
                }
                if !additive {
                    quads.sort_by(|a, b| b.0.total_cmp(&a.0));
                }
                let count = quads.len() * 6;
                let memory = sys::sceGuGetMemory((count * core::mem::size_of::<GeVertex>()) as i32)
                    as *mut GeVertex;
                if memory.is_null() {
                    continue;
                }
                let out = core::slice::from_raw_parts_mut(memory, count);
                for (k, (_, q)) in quads.iter().enumerate() {
                    for (j, (p, uv)) in q.triangles().into_iter().enumerate() {
                        out[k * 6 + j] = GeVertex {
                            u: uv[0],
                            v: uv[1],
                            color: q.color,
                            x: p[0],
                            y: p[1],
                            z: p[2],
                        };
                    }
                }
                let flipbook = u32::from(params.atlas_cols) * u32::from(params.atlas_rows) > 1;
                bind(tex, tunables, flipbook);
                filter(tunables, flipbook);
                sys::sceGuTexWrap(GuTexWrapMode::Clamp, GuTexWrapMode::Clamp);
                sys::sceGuTexLevelMode(TextureLevelMode::Auto, tunables.bias);
                let reference = if tex.alpha == AlphaMode::Cutout { 0x10 } else { 0 };
                sys::sceGuAlphaFunc(AlphaFunc::Greater, reference, 0xff);
                sys::sceGuDrawArray(GuPrimitive::Triangles, VERTEX, count as i32, core::ptr::null(), memory as *const c_void);
                stats.draw_calls += 1;
                stats.particles += quads.len() as u32;
                stats.triangles += (quads.len() * 2) as u32;
            }
        }
        filter(tunables, false);
        sys::sceGuDepthMask(i32::from(!tunables.depth_write));
    }
}

/// The frame on display, decoded from 5551 to RGB (top row first).
pub fn displayed_rgb() -> Vec<[u8; 3]> {
    let mut top: *mut c_void = core::ptr::null_mut();
    let mut width = 0usize;
    let mut format = DisplayPixelFormat::Psm5551;
    // SAFETY: the out-pointers are valid; the frame buffer is WIDTH×HEIGHT at the
    // reported stride, read through the uncached mirror.
    unsafe {
        sys::sceDisplayGetFrameBuf(&mut top, &mut width, &mut format, sys::DisplaySetBufSync::Immediate);
        let base = ((top as usize) | 0x4000_0000) as *const u16;
        let stride = if width == 0 { STRIDE } else { width };
        let mut out = Vec::with_capacity(WIDTH * HEIGHT);
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                let p = core::ptr::read_volatile(base.add(y * stride + x));
                let c = |s: u16| {
                    let v = ((p >> s) & 31) as u8;
                    (v << 3) | (v >> 2)
                };
                out.push([c(0), c(5), c(10)]);
            }
        }
        out
    }
}

/// A screen of text on the clear colour (the map chooser, an error): never a black
/// screen with nothing said.
pub fn text_screen(lines: &[alloc::string::String], background: u32) {
    // SAFETY: as in `frame`.
    unsafe {
        sys::sceGuStart(GuContextType::Direct, &raw mut LIST as *mut c_void);
        sys::sceGuClearColor(background);
        sys::sceGuClear(ClearBuffer::COLOR_BUFFER_BIT | ClearBuffer::DEPTH_BUFFER_BIT);
        sys::sceGuDisable(GuState::DepthTest);
        sys::sceGuDisable(GuState::Texture2D);
        sys::sceGuDisable(GuState::Fog);
        sys::sceGuDisable(GuState::Blend);
        sys::sceGuDisable(GuState::AlphaTest);
        for (n, line) in lines.iter().enumerate() {
            // 60 characters fit a row of the 8-pixel font.
            let line: alloc::string::String = line.chars().take(59).collect();
            if let Ok(c) = CString::new(line.as_bytes()) {
                sys::sceGuDebugPrint(8, 8 + 10 * n as i32, 0xff_ff_ff_ff, c.as_ptr() as *const u8);
            }
        }
        sys::sceGuDebugFlush();
        sys::sceGuFinish();
        sys::sceGuSync(GuSyncMode::Finish, GuSyncBehavior::Wait);
        sys::sceDisplayWaitVblankStart();
        sys::sceGuSwapBuffers();
    }
}
