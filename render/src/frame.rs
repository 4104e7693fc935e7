//! One frame: how to draw it ([`RenderOptions`], [`Extras`]), what it drew
//! ([`FrameStats`]), the per-renderer state frames reuse ([`FrameState`]: the frame
//! uniform, the targets of the last size, occlusion's depth map), the uniforms
//! written for a view, the draw list (culled and ordered) and the submit with or
//! without read-back. The passes themselves are recorded in [`crate::passes`].

use std::sync::atomic::AtomicU64;
use std::sync::{Mutex, PoisonError};

use pebble_model::glam::{Mat4, Vec3};
use rayon::prelude::*;

use crate::RenderError;
use crate::camera::Camera;
use crate::context::RenderContext;
use crate::frustum::Frustum;
use crate::gpu_scene::GpuScene;
use crate::occlusion::{self, DepthMap};
use crate::overlay::Overlay;
use crate::pipelines::{DEPTH_FORMAT, DRAW_STRIDE, DrawUniform, FRAME_FORMAT, FrameUniform};
use crate::scene::Pass;

/// The GE's alpha reference for cutouts (alpha test GREATER 0x10).
const CUTOUT_REF: f32 = 16.0 / 255.0;
/// How many triangles of the nearest opaque chunks occlusion culling rasterises
/// per frame on the CPU (the rest are only tested).
const OCCLUDER_TRIANGLES: usize = 2_048;
/// The largest side of a frame or a picked view, in pixels.
const MAX_SIDE: u32 = 8192;

/// How to draw one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    pub width: u32,
    pub height: u32,
    /// Scene clock in seconds (UV scroll).
    pub time: f64,
    /// Emulate the device: 480×272, mip bias +1 with nearest mip selection, depth
    /// written as the runtime writes it, file draw order, 5551 with ordered
    /// dither, then a nearest upscale to `width × height`.
    pub psp: bool,
    /// Frustum culling per chunk (off only to measure what it saves).
    pub cull: bool,
    /// Occlusion culling on top of frustum culling: chunks the nearest opaque
    /// chunks hide are not drawn (never changes the picture; not in the PSP look,
    /// which draws every chunk as the runtime does).
    pub occlusion: bool,
    pub fog: bool,
    /// Metres added to the environment's fog start and end: 0 is the device's fog;
    /// the editor's working view pushes the fog past the map it frames, so the map
    /// being edited is never hidden (the PSP look and play mode keep 0).
    pub fog_shift: f32,
    /// Shade faces by a fixed light (for scenes not baked yet); never in the PSP
    /// look, which shows the baked vertex colours as the device does.
    pub preview_light: bool,
    /// Shade chunks that have no colours of their own (shapes made in the editor,
    /// never baked) by their faces' direction, so they read as 3D instead of flat
    /// white (the editor's working view). Never in the PSP look.
    pub shade_uncoloured: bool,
    /// The PSP look's mip level bias (the runtime's `bias` tunable; +1 by default,
    /// as the GE is set). PPSSPP ignores it, so comparisons with the emulator use 0.
    pub lod_bias: f32,
    /// Opaque single-sided faces seen from behind, drawn over what lies beyond
    /// them at this opacity (the editor's "Show back faces"); 0: not drawn, as the
    /// device culls them. Never in the PSP look.
    pub back_faces: f32,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            width: 960,
            height: 544,
            time: 0.0,
            psp: false,
            cull: true,
            occlusion: true,
            fog: true,
            fog_shift: 0.0,
            preview_light: false,
            shade_uncoloured: false,
            lod_bias: 1.0,
            back_faces: 0.0,
        }
    }
}

/// What the editor adds to a frame: overlay geometry and entity tints (never in
/// the PSP look).
#[derive(Debug, Clone, Copy, Default)]
pub struct Extras<'a> {
    pub overlay: Option<&'a Overlay>,
    /// Pick ids drawn with the selection tint.
    pub selected: &'a [u32],
    /// The pick id under the cursor, drawn with the hover tint.
    pub hovered: Option<u32>,
    /// Untextured opaque triangles in world space drawn after the opaque chunks, as
    /// the runtime draws its entities (patrol spheres, balls); in both looks.
    pub solids: &'a [SolidVertex],
}

/// A vertex of [`Extras::solids`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolidVertex {
    pub pos: [f32; 3],
    /// 0xAABBGGRR.
    pub color: u32,
}

/// Selection: orange at 35 %; hover: white at 20 %.
pub const SELECTED_TINT: [f32; 4] = [1.0, 0.55, 0.1, 0.35];
pub const HOVER_TINT: [f32; 4] = [1.0, 1.0, 1.0, 0.2];

/// What a frame drew.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrameStats {
    pub chunks: usize,
    pub chunks_drawn: usize,
    /// Chunks inside the view but hidden behind nearer ones (not drawn).
    pub chunks_occluded: usize,
    pub triangles: usize,
    pub draw_calls: usize,
    pub particles: usize,
}

/// Fails on a view with a side of 0 or over 8192 pixels.
pub(crate) fn check_size(width: u32, height: u32) -> Result<(), RenderError> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(RenderError::Size(width, height));
    }
    Ok(())
}

/// A frame's colour and depth targets, and the PSP look's 5551 copy.
#[derive(Debug, Clone)]
pub(crate) struct FrameTargets {
    pub width: u32,
    pub height: u32,
    pub color: wgpu::Texture,
    pub depth: wgpu::Texture,
    /// The PSP look's 5551 frame.
    pub quantised: wgpu::Texture,
    /// The PSP look's copy of the frame that a layer of blends reads.
    pub backdrop: wgpu::Texture,
}

/// What a renderer's frames reuse from one to the next.
#[derive(Debug)]
pub(crate) struct FrameState {
    pub frame_buffer: wgpu::Buffer,
    pub frame_group: wgpu::BindGroup,
    /// The last frame's targets, reused while the size stays.
    targets: Mutex<Option<FrameTargets>>,
    /// Occlusion culling's depth map, reused between frames.
    depth_map: Mutex<DepthMap>,
    /// Whether picks find single-sided faces from behind (where they are drawn).
    pub pick_back_faces: bool,
    /// Triangles the ID pass draws besides the chunks: markers, by entity id, in
    /// parts kept as built (the markers of a still view are not built again).
    pub pick_markers: Vec<std::sync::Arc<Vec<PickMarkerVertex>>>,
    /// What [`crate::Renderer::submit_frame`] last drew into the targets; any other
    /// frame recorded into them forgets it ([`crate::passes::record`]).
    pub shown: Mutex<Option<ShownFrame>>,
    /// Frames recorded so far.
    pub recorded: AtomicU64,
}

/// A frame drawn and still in the targets: what it was drawn from, and what it
/// gave. A frame asked for again with the same inputs is not drawn again.
#[derive(Debug)]
pub(crate) struct ShownFrame {
    /// The renderer's count of changes to what is drawn, when it was drawn.
    pub revision: u64,
    pub camera: Camera,
    pub options: RenderOptions,
    pub overlay: Option<Overlay>,
    pub selected: Vec<u32>,
    pub hovered: Option<u32>,
    pub solids: Vec<SolidVertex>,
    pub texture: wgpu::Texture,
    pub stats: FrameStats,
}

impl ShownFrame {
    /// Whether a frame of these inputs would draw the same picture.
    pub fn is_of(
        &self,
        revision: u64,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
    ) -> bool {
        self.revision == revision
            && self.camera == *camera
            && self.options == *options
            && self.overlay.as_ref() == extras.overlay
            && self.selected == extras.selected
            && self.hovered == extras.hovered
            && self.solids == extras.solids
    }
}

/// A vertex of a marker's triangles in the ID pass ([`crate::Renderer::set_pick_markers`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PickMarkerVertex {
    pub pos: [f32; 3],
    /// The entity's pick id.
    pub id: u32,
}

impl FrameState {
    /// The frame uniform and its bind group (GPU errors go to the caller's scope).
    pub fn new(context: &RenderContext) -> Self {
        let device = &context.gpu.device;
        let frame_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame uniform"),
            size: std::mem::size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let frame_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("frame"),
            layout: &context.layouts.frame,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: frame_buffer.as_entire_binding(),
            }],
        });
        Self {
            frame_buffer,
            frame_group,
            targets: Mutex::new(None),
            depth_map: Mutex::default(),
            pick_back_faces: true,
            pick_markers: Vec::new(),
            shown: Mutex::new(None),
            recorded: AtomicU64::new(0),
        }
    }

    /// Colour, depth and PSP targets of a size, made once and then reused.
    pub fn targets(&self, device: &wgpu::Device, width: u32, height: u32) -> FrameTargets {
        let mut cached = self.targets.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(t) = cached
            .as_ref()
            .filter(|t| (t.width, t.height) == (width, height))
        {
            return t.clone();
        }
        let target = |label, format, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width,
                    height,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        // Whichever of `color` and `quantised` a frame ends in is read back or
        // sampled by the embedding (the editor's compositor): both must allow it.
        let frame_usage = wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::TEXTURE_BINDING;
        let t = FrameTargets {
            width,
            height,
            color: target("color", FRAME_FORMAT, frame_usage),
            depth: target(
                "depth",
                DEPTH_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
            ),
            quantised: target("psp frame", FRAME_FORMAT, frame_usage),
            backdrop: target(
                "psp backdrop",
                FRAME_FORMAT,
                wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::TEXTURE_BINDING,
            ),
        };
        *cached = Some(t.clone());
        t
    }
}

/// Writes the frame's and every draw's uniforms for a view.
pub(crate) fn write_uniforms(
    context: &RenderContext,
    gpu_scene: &GpuScene,
    frame: &FrameState,
    clip_from_world: Mat4,
    options: &RenderOptions,
    extras: &Extras<'_>,
) {
    let scene = &gpu_scene.scene;
    let env = &scene.environment;
    let shift = if options.fog_shift.is_finite() {
        options.fog_shift.max(0.0)
    } else {
        0.0
    };
    let (near, far) = env
        .fog
        .map_or((0.0, 1.0), |(near, far)| (near + shift, far + shift));
    let fog_on = options.fog && env.fog.is_some();
    // Toward a sun high over the right shoulder of a default view.
    let light = Vec3::new(0.4, 1.0, 0.3).normalize();
    let uniform = FrameUniform {
        clip_from_world: clip_from_world.to_cols_array_2d(),
        fog: [
            near,
            far,
            if fog_on { 1.0 } else { 0.0 },
            options.lod_bias.clamp(-4.0, 6.0),
        ],
        fog_color: [env.clear[0], env.clear[1], env.clear[2], 1.0],
        light: [
            light.x,
            light.y,
            light.z,
            if options.preview_light && !options.psp {
                1.0
            } else {
                0.0
            },
        ],
    };
    let queue = &context.gpu.queue;
    queue.write_buffer(&frame.frame_buffer, 0, bytemuck::bytes_of(&uniform));
    let mut draws = vec![0u8; (DRAW_STRIDE as usize) * gpu_scene.slot_count()];
    let mut put = |slot: usize, u: &DrawUniform| {
        let at = slot * DRAW_STRIDE as usize;
        draws[at..at + std::mem::size_of::<DrawUniform>()].copy_from_slice(bytemuck::bytes_of(u));
    };
    for i in 0..gpu_scene.chunk_count() {
        let c = gpu_scene.chunk(i);
        let pick_id = gpu_scene.batch_of(i).pick_id;
        let texture = c.texture.and_then(|t| scene.textures.get(t as usize));
        put(
            i,
            &DrawUniform {
                uv_offset: pbm::scroll::scroll_offset(options.time, c.scroll),
                alpha_ref: match c.pass {
                    Pass::Opaque => -1.0,
                    Pass::Cutout => CUTOUT_REF,
                    Pass::Blend => 0.0,
                },
                textured: if texture.is_some() { 1.0 } else { 0.0 },
                clamp: if texture.is_some_and(|t| t.clamp) {
                    1.0
                } else {
                    0.0
                },
                pick_id,
                shaded: if c.shaded
                    && options.shade_uncoloured
                    && !options.psp
                    && !options.preview_light
                {
                    1.0
                } else {
                    0.0
                },
                _pad: 0,
                tint: tint(pick_id, options, extras),
            },
        );
    }
    for (k, e) in scene.particles.emitters.iter().enumerate() {
        let texture = gpu_scene.emitter_texture(e);
        // The runtime tests alpha > 0x10 for cutout emitter textures.
        let cutout = scene
            .textures
            .get(texture as usize)
            .is_some_and(|t| t.alpha == pbm::AlphaMode::Cutout);
        put(
            gpu_scene.emitter_slot(k),
            &DrawUniform {
                uv_offset: [0.0; 2],
                alpha_ref: if cutout { CUTOUT_REF } else { 0.0 },
                textured: 1.0,
                clamp: 1.0,
                pick_id: 0,
                shaded: 0.0,
                _pad: 0,
                tint: [0.0; 4],
            },
        );
    }
    put(
        gpu_scene.solids_slot(),
        &DrawUniform {
            uv_offset: [0.0; 2],
            alpha_ref: -1.0,
            textured: 0.0,
            clamp: 0.0,
            pick_id: 0,
            shaded: 0.0,
            _pad: 0,
            tint: [0.0; 4],
        },
    );
    queue.write_buffer(&gpu_scene.draw_buffer, 0, &draws);
}

/// The tint of a chunk with `pick_id`: selection over hover, none in the PSP look
/// or for what cannot be picked.
fn tint(pick_id: u32, options: &RenderOptions, extras: &Extras<'_>) -> [f32; 4] {
    if options.psp || pick_id == 0 {
        [0.0; 4]
    } else if extras.selected.contains(&pick_id) {
        SELECTED_TINT
    } else if extras.hovered == Some(pick_id) {
        HOVER_TINT
    } else {
        [0.0; 4]
    }
}

/// The chunks a camera sees, in draw order, and their passes.
pub(crate) fn draw_list(
    scene: &GpuScene,
    clip_from_world: Mat4,
    camera: &Camera,
    options: &RenderOptions,
) -> Vec<usize> {
    let frustum = Frustum::from_clip_from_world(clip_from_world);
    let visible = |i: &usize| {
        let c = scene.chunk(*i);
        !options.cull || frustum.intersects(c.lo, c.hi)
    };
    let all = 0..scene.chunk_count();
    let of = |pass: Pass| all.clone().filter(move |i| scene.chunk(*i).pass == pass);
    let mut list: Vec<usize> = of(Pass::Opaque).filter(visible).collect();
    if !options.psp {
        // Front to back, so the depth test rejects hidden fragments early. The
        // device draws in file order, so the PSP look keeps it.
        let distance = |i: usize| {
            let c = scene.chunk(i);
            let nearest = camera.eye.clamp(c.lo, c.hi);
            (nearest - camera.eye).length_squared()
        };
        list.sort_by(|a, b| distance(*a).total_cmp(&distance(*b)).then(a.cmp(b)));
    }
    if options.psp {
        // The runtime draws cutouts and blends in one loop, in file order.
        list.extend(
            all.clone()
                .filter(|i| scene.chunk(*i).pass != Pass::Opaque)
                .filter(visible),
        );
    } else {
        list.extend(of(Pass::Cutout).filter(visible));
        let mut blend: Vec<(f32, usize)> = of(Pass::Blend)
            .filter(visible)
            .map(|i| {
                let c = scene.chunk(i);
                (((c.lo + c.hi) * 0.5 - camera.eye).length_squared(), i)
            })
            .collect();
        // Back to front; ties keep scene order.
        blend.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        list.extend(blend.into_iter().map(|(_, i)| i));
    }
    list
}

/// Drops from the draw list the chunks that the opaque chunks drawn before them
/// hide (see [`crate::occlusion`]); returns the rest, in order, and how many
/// were dropped.
pub(crate) fn occlusion_cull(
    scene: &GpuScene,
    frame: &FrameState,
    list: Vec<usize>,
    clip_from_world: Mat4,
    width: u32,
    height: u32,
) -> (Vec<usize>, usize) {
    let mut map = frame
        .depth_map
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    map.reset(width, height, clip_from_world);
    // The nearest opaque chunks occlude; those hidden by the others among them
    // hide nothing the others do not, so they need no test first.
    let mut budget = OCCLUDER_TRIANGLES;
    for &i in &list {
        if budget == 0 {
            break;
        }
        let c = scene.chunk(i);
        if c.pass != Pass::Opaque {
            continue;
        }
        let (_, k) = scene.chunk_place(i);
        let batch = scene.batch_of(i);
        let range = c.first as usize..(c.first + c.count) as usize;
        if let Some(positions) = batch.positions.get(range) {
            let neighbours =
                batch.neighbours[k as usize].get_or_init(|| occlusion::neighbours(positions));
            map.add_occluder(positions, neighbours);
            budget = budget.saturating_sub(positions.len() / 3);
        }
    }
    map.rasterize();
    let kept: Vec<usize> = list
        .par_iter()
        .copied()
        .filter(|&i| {
            let c = scene.chunk(i);
            !map.hides(c.lo, c.hi)
        })
        .collect();
    let occluded = list.len() - kept.len();
    (kept, occluded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_from_one_to_8192_pixels_a_side_are_accepted() {
        assert!(check_size(1, 1).is_ok());
        assert!(check_size(8192, 8192).is_ok());
        for (w, h) in [(0, 10), (10, 0), (8193, 10), (10, 8193)] {
            assert!(
                matches!(check_size(w, h), Err(RenderError::Size(a, b)) if (a, b) == (w, h)),
                "{w}×{h}"
            );
        }
    }

    #[test]
    fn selection_wins_over_hover_and_the_psp_look_and_unpickable_chunks_get_no_tint() {
        let editor = RenderOptions::default();
        let extras = Extras {
            selected: &[3],
            hovered: Some(3),
            ..Default::default()
        };
        assert_eq!(tint(3, &editor, &extras), SELECTED_TINT);
        let hover = Extras {
            hovered: Some(4),
            ..extras
        };
        assert_eq!(tint(4, &editor, &hover), HOVER_TINT);
        assert_eq!(tint(5, &editor, &hover), [0.0; 4]);
        assert_eq!(tint(0, &editor, &Extras::default()), [0.0; 4]);
        let psp = RenderOptions {
            psp: true,
            ..editor
        };
        assert_eq!(tint(3, &psp, &extras), [0.0; 4]);
    }

    #[test]
    fn targets_are_made_once_per_size() {
        let Some(gpu) = crate::gpu::test_gpu("frame targets") else {
            return;
        };
        let context = RenderContext::new(&gpu).expect("context");
        let frame = FrameState::new(&context);
        let a = frame.targets(&gpu.device, 64, 32);
        let b = frame.targets(&gpu.device, 64, 32);
        assert_eq!(a.color, b.color);
        assert_eq!(a.quantised, b.quantised);
        assert_eq!((a.color.width(), a.color.height()), (64, 32));
        let c = frame.targets(&gpu.device, 32, 32);
        assert_ne!(a.color, c.color);
        assert_eq!(c.color.format(), FRAME_FORMAT);
    }
}
