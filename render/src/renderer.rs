//! Draws a [`DrawScene`] into an offscreen target and reads it back: culled chunks
//! in an opaque pass, then cutout and blended ones; UV scroll from the scene clock;
//! fog from the environment; in PSP mode at 480×272 with the GE's sampling bias,
//! no depth writes and a 5551 dithered framebuffer.

use std::collections::HashMap;
use std::num::NonZeroU64;
use std::sync::OnceLock;

use image::RgbaImage;
use pebble_model::glam::{Mat4, Vec3, Vec4};
use rayon::prelude::*;
use wgpu::util::DeviceExt;

use crate::RenderError;
use pbm::particle::{ParticleField, PreparedEmitter, Quad, ViewBasis};

use crate::camera::{Camera, PSP_HEIGHT, PSP_WIDTH};
use crate::environment::Environment;
use crate::frustum::Frustum;
use crate::gpu::Gpu;
use crate::occlusion::{self, DepthMap};
use crate::overlay::{LineVertex, Overlay};
use crate::scene::{Batch, Chunk, DrawScene, GpuVertex, Pass, SceneTexture};

const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// The frame's format: BGRA, the order software rasterisers and swapchains keep
/// natively (read-back swaps it to RGBA).
const FRAME_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Bgra8Unorm;
const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth24Plus;
/// How [`GpuVertex`] reaches the shaders (scene and pick pipelines alike).
const GPU_VERTEX_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: std::mem::size_of::<GpuVertex>() as u64,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Float32x2, 2 => Unorm8x4, 3 => Uint32
    ],
};
/// Per-draw uniforms sit at this stride (the largest dynamic-offset alignment).
const DRAW_STRIDE: u64 = 256;
/// The GE's alpha reference for cutouts (alpha test GREATER 0x10).
const CUTOUT_REF: f32 = 16.0 / 255.0;
/// How many triangles of the nearest opaque chunks occlusion culling rasterises
/// per frame on the CPU (the rest are only tested).
const OCCLUDER_TRIANGLES: usize = 2_048;

/// How to draw one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    pub width: u32,
    pub height: u32,
    /// Scene clock in seconds (UV scroll).
    pub time: f64,
    /// Emulate the device: 480×272, mip bias +1 with nearest mip selection, no
    /// depth writes, file draw order, 5551 with ordered dither, then a nearest
    /// upscale to `width × height`.
    pub psp: bool,
    /// Frustum culling per chunk (off only to measure what it saves).
    pub cull: bool,
    /// Occlusion culling on top of frustum culling: chunks the nearest opaque
    /// chunks hide are not drawn (never changes the picture; not in the PSP look,
    /// which writes no depth).
    pub occlusion: bool,
    pub fog: bool,
    /// Shade faces by a fixed light (for scenes not baked yet); never in the PSP
    /// look, which shows the baked vertex colours as the device does.
    pub preview_light: bool,
    /// The PSP look's mip level bias (the runtime's `bias` tunable; +1 by default,
    /// as the GE is set). PPSSPP ignores it, so comparisons with the emulator use 0.
    pub lod_bias: f32,
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
            preview_light: false,
            lod_bias: 1.0,
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

/// One emitter's particles in the frame's particle vertex buffer.
#[derive(Debug, Clone, Copy)]
struct ParticleBatch {
    emitter: usize,
    first: u32,
    count: u32,
    additive: bool,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct FrameUniform {
    clip_from_world: [[f32; 4]; 4],
    fog: [f32; 4],
    fog_color: [f32; 4],
    light: [f32; 4],
}

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct DrawUniform {
    uv_offset: [f32; 2],
    alpha_ref: f32,
    textured: f32,
    clamp: f32,
    pick_id: u32,
    _pad: [u32; 2],
    /// RGB and strength of the selection or hover tint.
    tint: [f32; 4],
}

/// A batch on the GPU: its vertices and, on the CPU, its chunks and the vertex
/// positions occlusion culling rasterises.
#[derive(Debug)]
struct GpuBatch {
    key: u64,
    pick_id: u32,
    buffer: wgpu::Buffer,
    chunks: Vec<Chunk>,
    positions: Vec<Vec3>,
    /// Per chunk, each triangle's neighbours, found the first time the chunk
    /// occludes.
    neighbours: Vec<OnceLock<Vec<[u32; 3]>>>,
}

/// The two samplers: repeat for ordinary textures, clamp for atlases and emitters.
#[derive(Debug)]
struct Samplers {
    repeat: wgpu::Sampler,
    clamp: wgpu::Sampler,
}

/// How one texture can be bound: as surfaces sample it (repeat, or clamp for an
/// atlas), as a single-cell emitter samples it (clamped chain) and as a flipbook
/// samples it (clamped level 0).
#[derive(Debug)]
struct TextureGroups {
    surface: wgpu::BindGroup,
    emitter: wgpu::BindGroup,
    flipbook: wgpu::BindGroup,
}

/// Uploads a texture's levels; a texture without usable levels shows magenta.
fn upload_texture(
    gpu: &Gpu,
    layout: &wgpu::BindGroupLayout,
    samplers: &Samplers,
    t: &SceneTexture,
) -> TextureGroups {
    let levels: Vec<(u32, u32, &[u8])> = t
        .levels
        .iter()
        .filter(|l| {
            l.width > 0 && l.height > 0 && l.rgba.len() == (4 * l.width * l.height) as usize
        })
        .map(|l| (l.width, l.height, l.rgba.as_slice()))
        .collect();
    if levels.is_empty() {
        upload_levels(
            gpu,
            layout,
            samplers,
            t.clamp,
            &[(1, 1, &[255, 0, 255, 255])],
        )
    } else {
        upload_levels(gpu, layout, samplers, t.clamp, &levels)
    }
}

/// Uploads mip levels (base first) and makes its bind groups.
fn upload_levels(
    gpu: &Gpu,
    layout: &wgpu::BindGroupLayout,
    samplers: &Samplers,
    clamp: bool,
    levels: &[(u32, u32, &[u8])],
) -> TextureGroups {
    let device = &gpu.device;
    let (width, height) = (levels[0].0, levels[0].1);
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("scene texture"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: levels.len() as u32,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: COLOR_FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    for (level, (w, h, rgba)) in levels.iter().enumerate() {
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: level as u32,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            rgba,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * w),
                rows_per_image: Some(*h),
            },
            wgpu::Extent3d {
                width: *w,
                height: *h,
                depth_or_array_layers: 1,
            },
        );
    }
    let group = |view: &wgpu::TextureView, sampler: &wgpu::Sampler| {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("texture"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(sampler),
                },
            ],
        })
    };
    let chain = texture.create_view(&wgpu::TextureViewDescriptor::default());
    let base = texture.create_view(&wgpu::TextureViewDescriptor {
        mip_level_count: Some(1),
        ..Default::default()
    });
    TextureGroups {
        surface: group(
            &chain,
            if clamp {
                &samplers.clamp
            } else {
                &samplers.repeat
            },
        ),
        emitter: group(&chain, &samplers.clamp),
        flipbook: group(&base, &samplers.clamp),
    }
}

fn upload_batch(device: &wgpu::Device, key: u64, batch: Batch) -> GpuBatch {
    let contents: &[u8] = if batch.vertices.is_empty() {
        &[0u8; std::mem::size_of::<GpuVertex>()]
    } else {
        bytemuck::cast_slice(&batch.vertices)
    };
    GpuBatch {
        key,
        pick_id: batch.pick_id,
        buffer: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("batch vertices"),
            contents,
            usage: wgpu::BufferUsages::VERTEX,
        }),
        positions: batch.vertices.iter().map(|v| Vec3::from(v.pos)).collect(),
        neighbours: batch.chunks.iter().map(|_| OnceLock::new()).collect(),
        chunks: batch.chunks,
    }
}

#[derive(Debug)]
struct Pipelines {
    opaque: wgpu::RenderPipeline,
    cutout: wgpu::RenderPipeline,
    blend: wgpu::RenderPipeline,
}

/// GPU resources of one scene.
#[derive(Debug)]
pub struct Renderer {
    gpu: Gpu,
    /// Textures, environment and particles; its batches live in `batches`.
    scene: DrawScene,
    batches: Vec<GpuBatch>,
    /// Batch key → position in `batches`.
    index: HashMap<u64, usize>,
    /// Every chunk as (batch, chunk); a chunk's position here is its uniform slot.
    flat: Vec<(u32, u32)>,
    draw_layout: wgpu::BindGroupLayout,
    texture_layout: wgpu::BindGroupLayout,
    /// Uniform slots the draw buffer holds.
    draw_capacity: usize,
    textures: Vec<TextureGroups>,
    white: wgpu::BindGroup,
    particle_vertices: wgpu::Buffer,
    /// Blended and additive particles, in the editor and in the PSP look.
    particle_pipelines: [[wgpu::RenderPipeline; 2]; 2],
    frame_buffer: wgpu::Buffer,
    frame_group: wgpu::BindGroup,
    samplers: Samplers,
    draw_buffer: wgpu::Buffer,
    draw_group: wgpu::BindGroup,
    editor: Pipelines,
    editor_lit: Pipelines,
    psp: Pipelines,
    psp_layout: wgpu::BindGroupLayout,
    psp_pipeline: wgpu::RenderPipeline,
    pick_pipeline: wgpu::RenderPipeline,
    /// Overlay lines and translucent triangles, and lines over everything.
    overlay_pipelines: [wgpu::RenderPipeline; 3],
    /// The last frame's targets, reused while the size stays.
    targets: std::sync::Mutex<Option<FrameTargets>>,
    /// Occlusion culling's depth map, reused between frames.
    depth_map: std::sync::Mutex<DepthMap>,
}

/// A frame recorded but not yet submitted.
struct Recorded {
    encoder: wgpu::CommandEncoder,
    out: wgpu::Texture,
    stats: FrameStats,
    width: u32,
    height: u32,
}

#[derive(Debug, Clone)]
struct FrameTargets {
    width: u32,
    height: u32,
    color: wgpu::Texture,
    depth: wgpu::Texture,
    /// The PSP look's 5551 frame.
    quantised: wgpu::Texture,
}

/// What the ID buffer holds under the cursor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PickHit {
    /// The chunk's pick id: an entity id for a scene, mesh index + 1 for a map.
    pub id: u32,
    /// The face within the entity (triangle index for a map's mesh).
    pub face: u32,
    /// The face was seen from behind.
    pub back_face: bool,
    /// The pixel that won (the nearest non-empty one to the cursor).
    pub pixel: (u32, u32),
    /// The world-space point under that pixel (depth buffer unprojected).
    pub world: Vec3,
}

/// A read-back region of the ID buffer: entity ids, face words (bit 31: back
/// face) and depths, row by row.
type IdRegion = (Vec<u32>, Vec<u32>, Vec<f32>);

/// The side of the picking window: a hit within 4 pixels of the cursor counts.
pub const PICK_WINDOW: u32 = 9;
const ID_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;
const PICK_DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;

fn uniform_entry(binding: u32, dynamic: bool, size: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: NonZeroU64::new(size),
        },
        count: None,
    }
}

fn sampler_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
        count: None,
    }
}

fn texture_entry(binding: u32, filterable: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

impl Renderer {
    /// Uploads a scene. Fails with the device's own message on a GPU error.
    pub fn new(gpu: &Gpu, mut scene: DrawScene) -> Result<Self, RenderError> {
        let device = &gpu.device;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let batches: Vec<GpuBatch> = std::mem::take(&mut scene.batches)
            .into_iter()
            .map(|(key, b)| upload_batch(device, key, b))
            .collect();
        let index = batches
            .iter()
            .enumerate()
            .map(|(i, b)| (b.key, i))
            .collect();
        let chunk_count: usize = batches.iter().map(|b| b.chunks.len()).sum();
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("frame"),
            entries: &[uniform_entry(
                0,
                false,
                std::mem::size_of::<FrameUniform>() as u64,
            )],
        });
        let draw_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("draw"),
            entries: &[uniform_entry(
                0,
                true,
                std::mem::size_of::<DrawUniform>() as u64,
            )],
        });
        let texture_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("texture"),
            entries: &[texture_entry(0, true), sampler_entry(1)],
        });
        // Both views select the nearest mip level (the GE's LINEAR_MIPMAP_NEAREST):
        // the editor shows the device's texture detail, and a software rasteriser
        // does half the texel fetches of trilinear filtering.
        let sampler = |address: wgpu::AddressMode| {
            device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("scene sampler"),
                address_mode_u: address,
                address_mode_v: address,
                address_mode_w: address,
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                mipmap_filter: wgpu::MipmapFilterMode::Nearest,
                ..Default::default()
            })
        };
        let samplers = Samplers {
            repeat: sampler(wgpu::AddressMode::Repeat),
            clamp: sampler(wgpu::AddressMode::ClampToEdge),
        };
        let textures = scene
            .textures
            .iter()
            .map(|t| upload_texture(gpu, &texture_layout, &samplers, t))
            .collect();
        let white = upload_levels(
            gpu,
            &texture_layout,
            &samplers,
            false,
            &[(1, 1, &[255, 255, 255, 255])],
        )
        .surface;
        let particle_count = scene.particles.particles.len().max(1);
        let particle_vertices = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("particle vertices"),
            size: (particle_count * 6 * std::mem::size_of::<GpuVertex>()) as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let frame_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame uniform"),
            size: std::mem::size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let frame_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("frame"),
            layout: &frame_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: frame_buffer.as_entire_binding(),
            }],
        });
        let draw_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("draw uniforms"),
            size: DRAW_STRIDE * (chunk_count + scene.particles.emitters.len() + 1) as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let draw_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("draw"),
            layout: &draw_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &draw_buffer,
                    offset: 0,
                    size: NonZeroU64::new(std::mem::size_of::<DrawUniform>() as u64),
                }),
            }],
        });
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("scene.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("scene.wgsl").into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("scene"),
            bind_group_layouts: &[
                Some(&frame_layout),
                Some(&draw_layout),
                Some(&texture_layout),
            ],
            immediate_size: 0,
        });
        let pipeline =
            |fragment: &str, cull: bool, depth_write: bool, blend: Option<wgpu::BlendState>| {
                let label = fragment;
                device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some(label),
                    layout: Some(&layout),
                    vertex: wgpu::VertexState {
                        module: &shader,
                        entry_point: Some("vs_main"),
                        compilation_options: Default::default(),
                        buffers: &[Some(GPU_VERTEX_LAYOUT)],
                    },
                    primitive: wgpu::PrimitiveState {
                        topology: wgpu::PrimitiveTopology::TriangleList,
                        front_face: wgpu::FrontFace::Ccw,
                        cull_mode: cull.then_some(wgpu::Face::Back),
                        ..Default::default()
                    },
                    depth_stencil: Some(wgpu::DepthStencilState {
                        format: DEPTH_FORMAT,
                        depth_write_enabled: Some(depth_write),
                        depth_compare: Some(wgpu::CompareFunction::LessEqual),
                        stencil: Default::default(),
                        bias: Default::default(),
                    }),
                    multisample: Default::default(),
                    fragment: Some(wgpu::FragmentState {
                        module: &shader,
                        entry_point: Some(fragment),
                        compilation_options: Default::default(),
                        targets: &[Some(wgpu::ColorTargetState {
                            format: FRAME_FORMAT,
                            blend,
                            write_mask: wgpu::ColorWrites::ALL,
                        })],
                    }),
                    multiview_mask: None,
                    cache: None,
                })
            };
        let alpha = Some(wgpu::BlendState::ALPHA_BLENDING);
        // Opaque chunks use entry points without the alpha test, which lets early
        // depth rejection work; "_lit" ones add the preview light, "_psp" ones the
        // GE's LOD bias.
        let editor = Pipelines {
            opaque: pipeline("fs_opaque", true, true, None),
            cutout: pipeline("fs_main", false, true, None),
            blend: pipeline("fs_main", false, false, alpha),
        };
        let editor_lit = Pipelines {
            opaque: pipeline("fs_opaque_lit", true, true, None),
            cutout: pipeline("fs_main_lit", false, true, None),
            blend: pipeline("fs_main_lit", false, false, alpha),
        };
        // The device tests depth but never writes it, and draws cutouts blended.
        let psp = Pipelines {
            opaque: pipeline("fs_opaque_psp", true, false, None),
            cutout: pipeline("fs_main_psp", false, false, alpha),
            blend: pipeline("fs_main_psp", false, false, alpha),
        };
        // Additive: src·srcA + dst (the GE's SRC_ALPHA + FIX 0xFFFFFFFF).
        let additive = Some(wgpu::BlendState {
            color: wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::SrcAlpha,
                dst_factor: wgpu::BlendFactor::One,
                operation: wgpu::BlendOperation::Add,
            },
            alpha: wgpu::BlendComponent::OVER,
        });
        let particle_pipelines = [
            [
                pipeline("fs_main", false, false, alpha),
                pipeline("fs_main", false, false, additive),
            ],
            [
                pipeline("fs_main_psp", false, false, alpha),
                pipeline("fs_main_psp", false, false, additive),
            ],
        ];
        let psp_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("psp"),
            entries: &[texture_entry(0, false)],
        });
        let psp_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("psp.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("psp.wgsl").into()),
        });
        let psp_pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("psp"),
            bind_group_layouts: &[Some(&psp_layout)],
            immediate_size: 0,
        });
        let psp_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("psp quantise"),
            layout: Some(&psp_pipeline_layout),
            vertex: wgpu::VertexState {
                module: &psp_shader,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &psp_shader,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(FRAME_FORMAT.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let pick_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("pick"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_pick"),
                compilation_options: Default::default(),
                buffers: &[Some(GPU_VERTEX_LAYOUT)],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                front_face: wgpu::FrontFace::Ccw,
                // Back faces are picked too, and flagged.
                cull_mode: None,
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::LessEqual),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_pick"),
                compilation_options: Default::default(),
                targets: &[
                    Some(ID_FORMAT.into()),
                    Some(ID_FORMAT.into()),
                    Some(PICK_DEPTH_FORMAT.into()),
                ],
            }),
            multiview_mask: None,
            cache: None,
        });
        let overlay_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("overlay.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("overlay.wgsl").into()),
        });
        let overlay_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("overlay"),
            bind_group_layouts: &[Some(&frame_layout)],
            immediate_size: 0,
        });
        let overlay_pipeline = |topology, depth_test: bool| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("overlay"),
                layout: Some(&overlay_layout),
                vertex: wgpu::VertexState {
                    module: &overlay_shader,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[Some(wgpu::VertexBufferLayout {
                        array_stride: std::mem::size_of::<LineVertex>() as u64,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Unorm8x4],
                    })],
                },
                primitive: wgpu::PrimitiveState {
                    topology,
                    cull_mode: None,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(if depth_test {
                        wgpu::CompareFunction::LessEqual
                    } else {
                        wgpu::CompareFunction::Always
                    }),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &overlay_shader,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: FRAME_FORMAT,
                        blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let overlay_pipelines = [
            overlay_pipeline(wgpu::PrimitiveTopology::LineList, true),
            overlay_pipeline(wgpu::PrimitiveTopology::TriangleList, true),
            overlay_pipeline(wgpu::PrimitiveTopology::LineList, false),
        ];
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RenderError::Gpu(e.to_string()));
        }
        let mut renderer = Self {
            gpu: gpu.clone(),
            scene,
            batches,
            index,
            flat: Vec::new(),
            draw_layout,
            texture_layout,
            draw_capacity: chunk_count,
            textures,
            white,
            particle_vertices,
            particle_pipelines,
            frame_buffer,
            frame_group,
            samplers,
            draw_buffer,
            draw_group,
            editor,
            editor_lit,
            psp,
            psp_layout,
            psp_pipeline,
            pick_pipeline,
            overlay_pipelines,
            targets: std::sync::Mutex::new(None),
            depth_map: std::sync::Mutex::default(),
        };
        renderer.draw_capacity = chunk_count + renderer.scene.particles.emitters.len() + 1;
        renderer.relayout();
        Ok(renderer)
    }

    /// Recomputes the flat chunk list and grows the draw buffer to hold it.
    fn relayout(&mut self) {
        self.flat = self
            .batches
            .iter()
            .enumerate()
            .flat_map(|(b, batch)| (0..batch.chunks.len() as u32).map(move |c| (b as u32, c)))
            .collect();
        // One slot per chunk and emitter, and one for the solids.
        let need = self.flat.len() + self.scene.particles.emitters.len() + 1;
        if need > self.draw_capacity {
            let capacity = need.next_power_of_two();
            self.draw_buffer = self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("draw uniforms"),
                size: DRAW_STRIDE * capacity as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            self.draw_group = self
                .gpu
                .device
                .create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("draw"),
                    layout: &self.draw_layout,
                    entries: &[wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &self.draw_buffer,
                            offset: 0,
                            size: NonZeroU64::new(std::mem::size_of::<DrawUniform>() as u64),
                        }),
                    }],
                });
            self.draw_capacity = capacity;
        }
    }

    /// Colour, depth and PSP targets of a size, made once and then reused.
    fn targets(&self, width: u32, height: u32) -> FrameTargets {
        let mut cached = self
            .targets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(t) = cached
            .as_ref()
            .filter(|t| (t.width, t.height) == (width, height))
        {
            return t.clone();
        }
        let target = |label, format, usage| {
            self.gpu.device.create_texture(&wgpu::TextureDescriptor {
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
        let t = FrameTargets {
            width,
            height,
            color: target(
                "color",
                FRAME_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::COPY_SRC
                    | wgpu::TextureUsages::TEXTURE_BINDING,
            ),
            depth: target(
                "depth",
                DEPTH_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
            ),
            // Like `color`, whichever of the two `encode` returns is sampled by the
            // embedding (the editor's viewport blit): both must be bindable.
            quantised: target(
                "psp frame",
                FRAME_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::COPY_SRC
                    | wgpu::TextureUsages::TEXTURE_BINDING,
            ),
        };
        *cached = Some(t.clone());
        t
    }

    /// The chunk in uniform slot `slot`.
    fn chunk(&self, slot: usize) -> &Chunk {
        let (b, c) = self.flat[slot];
        &self.batches[b as usize].chunks[c as usize]
    }

    fn batch_of(&self, slot: usize) -> &GpuBatch {
        &self.batches[self.flat[slot].0 as usize]
    }

    /// Adds or replaces the batch under `key` (a replaced batch keeps its place in
    /// the draw order; a new one goes last). Only that batch is uploaded.
    pub fn set_batch(&mut self, key: u64, batch: Batch) {
        let gpu_batch = upload_batch(&self.gpu.device, key, batch);
        match self.index.get(&key) {
            Some(&i) => self.batches[i] = gpu_batch,
            None => {
                self.index.insert(key, self.batches.len());
                self.batches.push(gpu_batch);
            }
        }
        self.relayout();
    }

    /// Removes the batch under `key`, if any.
    pub fn remove_batch(&mut self, key: u64) {
        if let Some(i) = self.index.remove(&key) {
            self.batches.remove(i);
            for (n, b) in self.batches.iter().enumerate().skip(i) {
                self.index.insert(b.key, n);
            }
            self.relayout();
        }
    }

    /// Puts the batches in the order of `keys` (unknown keys are ignored; batches
    /// not named keep their relative order after the named ones).
    pub fn reorder(&mut self, keys: &[u64]) {
        let rank: HashMap<u64, usize> = keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
        self.batches
            .sort_by_key(|b| rank.get(&b.key).copied().unwrap_or(usize::MAX));
        self.index = self
            .batches
            .iter()
            .enumerate()
            .map(|(i, b)| (b.key, i))
            .collect();
        self.relayout();
    }

    /// Adds a texture; chunks name it by the returned index.
    pub fn add_texture(&mut self, texture: SceneTexture) -> u32 {
        let group = upload_texture(&self.gpu, &self.texture_layout, &self.samplers, &texture);
        self.textures.push(group);
        self.scene.textures.push(texture);
        self.scene.textures.len() as u32 - 1
    }

    /// Replaces the particle field (emitters changed).
    pub fn set_particles(&mut self, particles: ParticleField) {
        let count = particles.particles.len().max(1);
        let size = (count * 6 * std::mem::size_of::<GpuVertex>()) as u64;
        if size > self.particle_vertices.size() {
            self.particle_vertices = self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("particle vertices"),
                size,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
        }
        self.scene.particles = particles;
        self.relayout();
    }

    pub fn set_environment(&mut self, environment: Environment) {
        self.scene.environment = environment;
    }

    pub fn set_spawn(&mut self, eye: Vec3, yaw: f32) {
        self.scene.spawn = (eye, yaw);
    }

    pub fn scene(&self) -> &DrawScene {
        &self.scene
    }

    /// The texture an emitter samples: its own, or the built-in glow.
    fn emitter_texture(&self, e: &PreparedEmitter) -> u32 {
        u32::try_from(e.params.texture_id)
            .ok()
            .filter(|t| (*t as usize) < self.scene.textures.len() && *t != self.scene.glow)
            .unwrap_or(self.scene.glow)
    }

    /// The particles a camera sees at time `t`, evaluated by the `pbm` crate: blended
    /// emitters first (each back to front by view depth), then additive ones
    /// (unsorted), with the runtime's culls (whole emitters by their bounding
    /// sphere; particles behind the near plane or under 1.5 px).
    fn particles(
        &self,
        camera: &Camera,
        frustum: &Frustum,
        t: f64,
        focal_px: f32,
    ) -> (Vec<GpuVertex>, Vec<ParticleBatch>) {
        let field = &self.scene.particles;
        let forward = camera.forward();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward);
        let view = ViewBasis {
            eye: camera.eye.to_array(),
            right: right.to_array(),
            up: up.to_array(),
            forward: forward.to_array(),
        };
        let mut vertices = Vec::new();
        let mut batches = Vec::new();
        for additive in [false, true] {
            for (k, e) in field.emitters.iter().enumerate() {
                let params = &e.params;
                if (params.flags & pbm::emitter::flags::ADDITIVE != 0) != additive
                    || params.count == 0
                {
                    continue;
                }
                let centre = Vec3::from(params.pos);
                let r = Vec3::splat(e.cull_radius);
                if !frustum.intersects(centre - r, centre + r) {
                    continue;
                }
                let texture = self.emitter_texture(e);
                let size = self
                    .scene
                    .textures
                    .get(texture as usize)
                    .and_then(|t| t.levels.first())
                    .filter(|_| texture != self.scene.glow)
                    .map(|l| (l.width, l.height));
                let mut quads: Vec<(f32, Quad)> = field
                    .particles_of(e)
                    .iter()
                    .filter_map(|p| {
                        let s = pbm::particle::evaluate(e, p, t, size);
                        let depth = view.depth(s.position);
                        let extent = s.height.max(s.width);
                        // On screen it spans extent · focal / depth pixels (no depth
                        // in an orthographic view).
                        let per_px = if camera.ortho_height > 0.0 {
                            1.0
                        } else {
                            depth
                        };
                        if depth + 0.75 * extent < camera.near || extent * focal_px < 1.5 * per_px {
                            return None;
                        }
                        Some((depth, pbm::particle::billboard(params.flags, &s, &view)))
                    })
                    .collect();
                if !additive {
                    quads.sort_by(|a, b| b.0.total_cmp(&a.0));
                }
                let first = vertices.len() as u32;
                for (_, q) in &quads {
                    for (pos, uv) in q.triangles() {
                        vertices.push(GpuVertex {
                            face: 0,
                            pos,
                            uv,
                            color: q.color,
                        });
                    }
                }
                let count = vertices.len() as u32 - first;
                if count > 0 {
                    batches.push(ParticleBatch {
                        emitter: k,
                        first,
                        count,
                        additive,
                    });
                }
            }
        }
        (vertices, batches)
    }

    /// Writes the frame's and every draw's uniforms for a view.
    fn write_uniforms(&self, clip_from_world: Mat4, options: &RenderOptions, extras: &Extras<'_>) {
        let psp = options.psp;
        let env = &self.scene.environment;
        let (near, far) = env.fog.unwrap_or((0.0, 1.0));
        let fog_on = options.fog && env.fog.is_some();
        let frame = FrameUniform {
            clip_from_world: clip_from_world.to_cols_array_2d(),
            fog: [
                near,
                far,
                if fog_on { 1.0 } else { 0.0 },
                options.lod_bias.clamp(-4.0, 6.0),
            ],
            fog_color: [env.clear[0], env.clear[1], env.clear[2], 1.0],
            light: {
                // Toward a sun high over the right shoulder of a default view.
                let d = Vec3::new(0.4, 1.0, 0.3).normalize();
                [
                    d.x,
                    d.y,
                    d.z,
                    if options.preview_light && !options.psp {
                        1.0
                    } else {
                        0.0
                    },
                ]
            },
        };
        self.gpu
            .queue
            .write_buffer(&self.frame_buffer, 0, bytemuck::bytes_of(&frame));
        let emitters = &self.scene.particles.emitters;
        let mut draws = vec![0u8; (DRAW_STRIDE as usize) * (self.flat.len() + emitters.len() + 1)];
        for i in 0..self.flat.len() {
            let c = self.chunk(i);
            let pick_id = self.batch_of(i).pick_id;
            let texture = c.texture.and_then(|t| self.scene.textures.get(t as usize));
            let u = DrawUniform {
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
                _pad: [0; 2],
                tint: if psp || pick_id == 0 {
                    [0.0; 4]
                } else if extras.selected.contains(&pick_id) {
                    SELECTED_TINT
                } else if extras.hovered == Some(pick_id) {
                    HOVER_TINT
                } else {
                    [0.0; 4]
                },
            };
            let at = i * DRAW_STRIDE as usize;
            draws[at..at + std::mem::size_of::<DrawUniform>()]
                .copy_from_slice(bytemuck::bytes_of(&u));
        }
        for (k, e) in emitters.iter().enumerate() {
            let texture = self.emitter_texture(e);
            let u = DrawUniform {
                uv_offset: [0.0; 2],
                // The runtime tests alpha > 0x10 for cutout emitter textures.
                alpha_ref: if self
                    .scene
                    .textures
                    .get(texture as usize)
                    .is_some_and(|t| t.alpha == pbm::AlphaMode::Cutout)
                {
                    CUTOUT_REF
                } else {
                    0.0
                },
                textured: 1.0,
                clamp: 1.0,
                pick_id: 0,
                _pad: [0; 2],
                tint: [0.0; 4],
            };
            let at = (self.flat.len() + k) * DRAW_STRIDE as usize;
            draws[at..at + std::mem::size_of::<DrawUniform>()]
                .copy_from_slice(bytemuck::bytes_of(&u));
        }
        let solids = DrawUniform {
            uv_offset: [0.0; 2],
            alpha_ref: -1.0,
            textured: 0.0,
            clamp: 0.0,
            pick_id: 0,
            _pad: [0; 2],
            tint: [0.0; 4],
        };
        let at = (self.flat.len() + emitters.len()) * DRAW_STRIDE as usize;
        draws[at..at + std::mem::size_of::<DrawUniform>()]
            .copy_from_slice(bytemuck::bytes_of(&solids));
        self.gpu.queue.write_buffer(&self.draw_buffer, 0, &draws);
    }

    /// The chunks a camera sees, in draw order, and their passes.
    fn draw_list(
        &self,
        clip_from_world: Mat4,
        camera: &Camera,
        options: &RenderOptions,
    ) -> Vec<usize> {
        let frustum = Frustum::from_clip_from_world(clip_from_world);
        let visible = |i: &usize| {
            let c = self.chunk(*i);
            !options.cull || frustum.intersects(c.lo, c.hi)
        };
        let all = 0..self.flat.len();
        let of = |pass: Pass| all.clone().filter(move |i| self.chunk(*i).pass == pass);
        let mut list: Vec<usize> = of(Pass::Opaque).filter(visible).collect();
        if !options.psp {
            // Front to back, so the depth test rejects hidden fragments early. The
            // device draws in file order, so the PSP look keeps it.
            let distance = |i: usize| {
                let c = self.chunk(i);
                let nearest = camera.eye.clamp(c.lo, c.hi);
                (nearest - camera.eye).length_squared()
            };
            list.sort_by(|a, b| distance(*a).total_cmp(&distance(*b)).then(a.cmp(b)));
        }
        if options.psp {
            // The runtime draws cutouts and blends in one loop, in file order.
            list.extend(
                all.clone()
                    .filter(|i| self.chunk(*i).pass != Pass::Opaque)
                    .filter(visible),
            );
        } else {
            list.extend(of(Pass::Cutout).filter(visible));
            let mut blend: Vec<(f32, usize)> = of(Pass::Blend)
                .filter(visible)
                .map(|i| {
                    let c = self.chunk(i);
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
    fn occlusion_cull(
        &self,
        list: Vec<usize>,
        clip_from_world: Mat4,
        width: u32,
        height: u32,
    ) -> (Vec<usize>, usize) {
        let mut map = self
            .depth_map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.reset(width, height, clip_from_world);
        // The nearest opaque chunks occlude; those hidden by the others among them
        // hide nothing the others do not, so they need no test first.
        let mut budget = OCCLUDER_TRIANGLES;
        for &i in &list {
            if budget == 0 {
                break;
            }
            let c = self.chunk(i);
            if c.pass != Pass::Opaque {
                continue;
            }
            let (b, k) = self.flat[i];
            let batch = &self.batches[b as usize];
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
                let c = self.chunk(i);
                !map.hides(c.lo, c.hi)
            })
            .collect();
        let occluded = list.len() - kept.len();
        (kept, occluded)
    }

    /// Draws one frame and reads it back as RGBA8.
    pub fn render(
        &self,
        camera: &Camera,
        options: &RenderOptions,
    ) -> Result<(RgbaImage, FrameStats), RenderError> {
        self.render_with(camera, options, &Extras::default())
    }

    /// [`Renderer::render`] with overlays and tints.
    pub fn render_with(
        &self,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
    ) -> Result<(RgbaImage, FrameStats), RenderError> {
        self.frame(camera, options, extras, true)
            .map(|(image, stats)| (image.unwrap_or_default(), stats))
    }

    /// Draws one frame and waits for the GPU to finish it, without reading it back
    /// (what a windowed view pays per frame; for benchmarks).
    pub fn draw(
        &self,
        camera: &Camera,
        options: &RenderOptions,
    ) -> Result<FrameStats, RenderError> {
        self.frame(camera, options, &Extras::default(), false)
            .map(|(_, stats)| stats)
    }

    /// [`Renderer::draw`] with overlays and tints (what the editor's viewport draws).
    pub fn draw_with(
        &self,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
    ) -> Result<FrameStats, RenderError> {
        self.frame(camera, options, extras, false)
            .map(|(_, stats)| stats)
    }

    /// Records one frame into a command buffer the caller submits (the editor's
    /// viewport hands it to egui), and the texture it ends in: the scene at the view's
    /// size, or the 480×272 5551 frame in the PSP look.
    pub fn encode(
        &self,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
    ) -> Result<(wgpu::CommandBuffer, wgpu::Texture, FrameStats), RenderError> {
        let r = self.record(camera, options, extras)?;
        Ok((r.encoder.finish(), r.out, r.stats))
    }

    fn frame(
        &self,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
        read: bool,
    ) -> Result<(Option<RgbaImage>, FrameStats), RenderError> {
        let scope = self
            .gpu
            .device
            .push_error_scope(wgpu::ErrorFilter::Validation);
        let Recorded {
            encoder,
            out,
            stats,
            width,
            height,
        } = match self.record(camera, options, extras) {
            Ok(r) => r,
            Err(e) => {
                let _ = pollster::block_on(scope.pop());
                return Err(e);
            }
        };
        if !read {
            self.gpu.queue.submit([encoder.finish()]);
            self.gpu
                .device
                .poll(wgpu::PollType::wait_indefinitely())
                .map_err(|e| RenderError::Readback(e.to_string()))?;
            if let Some(e) = pollster::block_on(scope.pop()) {
                return Err(RenderError::Gpu(e.to_string()));
            }
            return Ok((None, stats));
        }
        let image = read_back(&self.gpu, encoder, &out, width, height)?;
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RenderError::Gpu(e.to_string()));
        }
        let image = if options.psp && (options.width, options.height) != (width, height) {
            image::imageops::resize(
                &image,
                options.width,
                options.height,
                image::imageops::FilterType::Nearest,
            )
        } else {
            image
        };
        Ok((Some(image), stats))
    }

    fn record(
        &self,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
    ) -> Result<Recorded, RenderError> {
        if options.width == 0
            || options.height == 0
            || options.width > 8192
            || options.height > 8192
        {
            return Err(RenderError::Size(options.width, options.height));
        }
        let (width, height) = if options.psp {
            (PSP_WIDTH, PSP_HEIGHT)
        } else {
            (options.width, options.height)
        };
        let device = &self.gpu.device;
        let aspect = width as f32 / height as f32;
        let clip_from_world = camera.clip_from_world(aspect);
        self.write_uniforms(clip_from_world, options, extras);
        let env = &self.scene.environment;
        let emitters = &self.scene.particles.emitters;
        // Pixels per metre at unit depth (perspective) or at any depth (orthographic).
        let focal_px = if camera.ortho_height > 0.0 {
            height as f32 / camera.ortho_height
        } else {
            height as f32 * 0.5 / (camera.fov_y_deg.to_radians() * 0.5).tan()
        };
        let (particle_vertices, batches) = self.particles(
            camera,
            &Frustum::from_clip_from_world(clip_from_world),
            options.time,
            focal_px,
        );
        if !particle_vertices.is_empty() {
            self.gpu.queue.write_buffer(
                &self.particle_vertices,
                0,
                bytemuck::cast_slice(&particle_vertices),
            );
        }

        let FrameTargets {
            color,
            depth,
            quantised,
            ..
        } = self.targets(width, height);
        let color_view = color.create_view(&Default::default());
        let depth_view = depth.create_view(&Default::default());
        let list = self.draw_list(clip_from_world, camera, options);
        let (list, chunks_occluded) =
            if options.cull && options.occlusion && !options.psp && camera.ortho_height <= 0.0 {
                self.occlusion_cull(list, clip_from_world, width, height)
            } else {
                (list, 0)
            };
        let mut stats = FrameStats {
            chunks: self.flat.len(),
            chunks_occluded,
            ..Default::default()
        };
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let clear = env.clear;
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("scene"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &color_view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: f64::from(clear[0]),
                            g: f64::from(clear[1]),
                            b: f64::from(clear[2]),
                            a: 1.0,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &depth_view,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            let pipelines = if options.psp {
                &self.psp
            } else if options.preview_light {
                &self.editor_lit
            } else {
                &self.editor
            };
            pass.set_bind_group(0, &self.frame_group, &[]);
            let mut bound: Option<Pass> = None;
            let mut bound_batch = None;
            // Entities go after the opaque chunks, before cutouts and blends.
            let solid_buffer = (!extras.solids.is_empty()).then(|| {
                let vertices: Vec<GpuVertex> = extras
                    .solids
                    .iter()
                    .map(|v| GpuVertex {
                        pos: v.pos,
                        uv: [0.0; 2],
                        color: v.color,
                        face: 0,
                    })
                    .collect();
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("solids"),
                    contents: bytemuck::cast_slice(&vertices),
                    usage: wgpu::BufferUsages::VERTEX,
                })
            });
            let solid_slot = ((self.flat.len() + emitters.len()) as u64 * DRAW_STRIDE) as u32;
            let mut solids_pending = solid_buffer.is_some();
            let draw_solids = |pass: &mut wgpu::RenderPass<'_>, stats: &mut FrameStats| {
                if let Some(buffer) = &solid_buffer {
                    pass.set_pipeline(&pipelines.opaque);
                    pass.set_vertex_buffer(0, buffer.slice(..));
                    pass.set_bind_group(1, &self.draw_group, &[solid_slot]);
                    pass.set_bind_group(2, &self.white, &[]);
                    let n = extras.solids.len() as u32;
                    pass.draw(0..n, 0..1);
                    stats.draw_calls += 1;
                    stats.triangles += n as usize / 3;
                }
            };
            for i in list {
                let c = self.chunk(i);
                if solids_pending && c.pass != Pass::Opaque {
                    draw_solids(&mut pass, &mut stats);
                    solids_pending = false;
                    bound = None;
                    bound_batch = None;
                }
                let batch = self.flat[i].0;
                if bound_batch != Some(batch) {
                    pass.set_vertex_buffer(0, self.batches[batch as usize].buffer.slice(..));
                    bound_batch = Some(batch);
                }
                if bound != Some(c.pass) {
                    pass.set_pipeline(match c.pass {
                        Pass::Opaque => &pipelines.opaque,
                        Pass::Cutout => &pipelines.cutout,
                        Pass::Blend => &pipelines.blend,
                    });
                    bound = Some(c.pass);
                }
                pass.set_bind_group(1, &self.draw_group, &[(i as u64 * DRAW_STRIDE) as u32]);
                let texture = c
                    .texture
                    .and_then(|t| self.textures.get(t as usize))
                    .map(|t| &t.surface)
                    .unwrap_or(&self.white);
                pass.set_bind_group(2, texture, &[]);
                pass.draw(c.first..c.first + c.count, 0..1);
                stats.chunks_drawn += 1;
                stats.draw_calls += 1;
                stats.triangles += c.count as usize / 3;
            }
            if solids_pending {
                draw_solids(&mut pass, &mut stats);
            }
            if !batches.is_empty() {
                pass.set_vertex_buffer(0, self.particle_vertices.slice(..));
            }
            for b in &batches {
                pass.set_pipeline(
                    &self.particle_pipelines[usize::from(options.psp)][usize::from(b.additive)],
                );
                let at = (self.flat.len() + b.emitter) as u64 * DRAW_STRIDE;
                pass.set_bind_group(1, &self.draw_group, &[at as u32]);
                let e = &emitters[b.emitter];
                let texture = self.emitter_texture(e);
                let flipbook = u32::from(e.params.atlas_cols) * u32::from(e.params.atlas_rows) > 1;
                let group = self
                    .textures
                    .get(texture as usize)
                    .map(|t| if flipbook { &t.flipbook } else { &t.emitter })
                    .unwrap_or(&self.white);
                pass.set_bind_group(2, group, &[]);
                pass.draw(b.first..b.first + b.count, 0..1);
                stats.draw_calls += 1;
                stats.particles += b.count as usize / 6;
                stats.triangles += b.count as usize / 3;
            }
            if let Some(overlay) = extras.overlay.filter(|_| !options.psp) {
                for (vertices, pipeline) in [
                    (&overlay.triangles, &self.overlay_pipelines[1]),
                    (&overlay.lines, &self.overlay_pipelines[0]),
                    (&overlay.on_top, &self.overlay_pipelines[2]),
                ] {
                    if vertices.is_empty() {
                        continue;
                    }
                    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some("overlay"),
                        contents: bytemuck::cast_slice(vertices),
                        usage: wgpu::BufferUsages::VERTEX,
                    });
                    pass.set_pipeline(pipeline);
                    pass.set_vertex_buffer(0, buffer.slice(..));
                    pass.draw(0..vertices.len() as u32, 0..1);
                    stats.draw_calls += 1;
                }
            }
        }
        let out = if options.psp {
            let quantised_view = quantised.create_view(&Default::default());
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("psp"),
                layout: &self.psp_layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&color_view),
                }],
            });
            {
                let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("psp quantise"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &quantised_view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                });
                pass.set_pipeline(&self.psp_pipeline);
                pass.set_bind_group(0, &group, &[]);
                pass.draw(0..3, 0..1);
            }
            quantised
        } else {
            color
        };
        Ok(Recorded {
            encoder,
            out,
            stats,
            width,
            height,
        })
    }

    /// Draws the ID buffer for a `width × height` view and reads back the region
    /// `x, y, w, h`.
    fn id_region(
        &self,
        camera: &Camera,
        width: u32,
        height: u32,
        time: f64,
        (x, y, w, h): (u32, u32, u32, u32),
    ) -> Result<IdRegion, RenderError> {
        let device = &self.gpu.device;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let options = RenderOptions {
            width,
            height,
            time,
            ..Default::default()
        };
        // Only the region is rasterised: a projection that stretches the region's
        // part of the view over the whole (small) target, whose frustum also culls
        // everything outside the region.
        let full = camera.clip_from_world(width as f32 / height as f32);
        let (xa, xb) = (
            x as f32 / width as f32 * 2.0 - 1.0,
            (x + w) as f32 / width as f32 * 2.0 - 1.0,
        );
        let (ya, yb) = (
            1.0 - (y + h) as f32 / height as f32 * 2.0,
            1.0 - y as f32 / height as f32 * 2.0,
        );
        let window = Mat4::from_cols(
            Vec4::new(2.0 / (xb - xa), 0.0, 0.0, 0.0),
            Vec4::new(0.0, 2.0 / (yb - ya), 0.0, 0.0),
            Vec4::new(0.0, 0.0, 1.0, 0.0),
            Vec4::new(-(xa + xb) / (xb - xa), -(ya + yb) / (yb - ya), 0.0, 1.0),
        );
        let clip_from_world = window * full;
        self.write_uniforms(clip_from_world, &options, &Extras::default());
        let target = |label, format| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: w,
                    height: h,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            })
        };
        let ids = target("pick ids", ID_FORMAT);
        let faces = target("pick faces", ID_FORMAT);
        let depths = target("pick depths", PICK_DEPTH_FORMAT);
        let depth = target("pick depth", DEPTH_FORMAT);
        let (ids_view, faces_view, depths_view, depth_view) = (
            ids.create_view(&Default::default()),
            faces.create_view(&Default::default()),
            depths.create_view(&Default::default()),
            depth.create_view(&Default::default()),
        );
        let list = self.draw_list(clip_from_world, camera, &options);
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let attachment = |view| {
                Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })
            };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("pick"),
                color_attachments: &[
                    attachment(&ids_view),
                    attachment(&faces_view),
                    attachment(&depths_view),
                ],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &depth_view,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.pick_pipeline);
            pass.set_bind_group(0, &self.frame_group, &[]);
            let mut bound_batch = None;
            for i in list {
                let c = self.chunk(i);
                let batch = self.flat[i].0;
                if self.batches[batch as usize].pick_id == 0 {
                    continue;
                }
                if bound_batch != Some(batch) {
                    pass.set_vertex_buffer(0, self.batches[batch as usize].buffer.slice(..));
                    bound_batch = Some(batch);
                }
                pass.set_bind_group(1, &self.draw_group, &[(i as u64 * DRAW_STRIDE) as u32]);
                let texture = c
                    .texture
                    .and_then(|t| self.textures.get(t as usize))
                    .map(|t| &t.surface)
                    .unwrap_or(&self.white);
                pass.set_bind_group(2, texture, &[]);
                pass.draw(c.first..c.first + c.count, 0..1);
            }
        }
        let [ids_buffer, faces_buffer, depth_buffer] = [&ids, &faces, &depths].map(|t| {
            copy_region(
                &self.gpu,
                &mut encoder,
                t,
                wgpu::TextureAspect::All,
                (0, 0, w, h),
            )
        });
        self.gpu.queue.submit([encoder.finish()]);
        let read = |buffer: &wgpu::Buffer| -> Result<Vec<[u8; 4]>, RenderError> {
            map_region(&self.gpu, buffer, w, h)
        };
        let ids = read(&ids_buffer)?
            .into_iter()
            .map(u32::from_le_bytes)
            .collect();
        let faces = read(&faces_buffer)?
            .into_iter()
            .map(u32::from_le_bytes)
            .collect();
        let depths = read(&depth_buffer)?
            .into_iter()
            .map(f32::from_le_bytes)
            .collect();
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RenderError::Gpu(e.to_string()));
        }
        Ok((ids, faces, depths))
    }

    /// What is under pixel (x, y) of a `width × height` view: the nearest non-empty
    /// pixel of the 9×9 window around it, with the world point under it. Hidden and
    /// locked chunks (pick id 0) and cut-out texels are never hit.
    pub fn pick(
        &self,
        camera: &Camera,
        width: u32,
        height: u32,
        time: f64,
        x: u32,
        y: u32,
    ) -> Result<Option<PickHit>, RenderError> {
        if width == 0 || height == 0 || width > 8192 || height > 8192 {
            return Err(RenderError::Size(width, height));
        }
        if x >= width || y >= height {
            return Ok(None);
        }
        let half = PICK_WINDOW / 2;
        let (x0, y0) = (x.saturating_sub(half), y.saturating_sub(half));
        let (x1, y1) = ((x + half + 1).min(width), (y + half + 1).min(height));
        let (w, h) = (x1 - x0, y1 - y0);
        let (ids, faces, depths) = self.id_region(camera, width, height, time, (x0, y0, w, h))?;
        let best = (0..(w * h) as usize)
            .filter(|i| ids[*i] != 0)
            .min_by_key(|i| {
                let (px, py) = (x0 + *i as u32 % w, y0 + *i as u32 / w);
                (px.abs_diff(x).pow(2) + py.abs_diff(y).pow(2), *i)
            });
        let Some(i) = best else { return Ok(None) };
        let pixel = (x0 + i as u32 % w, y0 + i as u32 / w);
        let ndc = Vec3::new(
            (pixel.0 as f32 + 0.5) / width as f32 * 2.0 - 1.0,
            1.0 - (pixel.1 as f32 + 0.5) / height as f32 * 2.0,
            depths[i],
        );
        let world = camera
            .clip_from_world(width as f32 / height as f32)
            .inverse()
            .project_point3(ndc);
        Ok(Some(PickHit {
            id: ids[i],
            face: faces[i] & 0x7FFF_FFFF,
            back_face: faces[i] & 0x8000_0000 != 0,
            pixel,
            world,
        }))
    }

    /// The pick ids visible anywhere in the rectangle between two corners (box
    /// select), sorted.
    pub fn pick_rect(
        &self,
        camera: &Camera,
        width: u32,
        height: u32,
        time: f64,
        a: (u32, u32),
        b: (u32, u32),
    ) -> Result<Vec<u32>, RenderError> {
        if width == 0 || height == 0 || width > 8192 || height > 8192 {
            return Err(RenderError::Size(width, height));
        }
        let (x0, x1) = (a.0.min(b.0).min(width - 1), a.0.max(b.0).min(width - 1));
        let (y0, y1) = (a.1.min(b.1).min(height - 1), a.1.max(b.1).min(height - 1));
        let (ids, _, _) = self.id_region(
            camera,
            width,
            height,
            time,
            (x0, y0, x1 - x0 + 1, y1 - y0 + 1),
        )?;
        let mut seen: Vec<u32> = ids.into_iter().filter(|id| *id != 0).collect();
        seen.sort_unstable();
        seen.dedup();
        Ok(seen)
    }

    /// The eye and yaw a map starts at, looking slightly down as the runtime does.
    pub fn spawn_camera(&self) -> Camera {
        let (eye, yaw) = self.scene.spawn;
        Camera::psp(eye, yaw, 0.05)
    }

    /// The scene's bounds.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        self.scene.bounds
    }
}

/// Copies a texture into a mapped buffer and returns its pixels.
fn read_back(
    gpu: &Gpu,
    mut encoder: wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    width: u32,
    height: u32,
) -> Result<RgbaImage, RenderError> {
    let buffer = copy_region(
        gpu,
        &mut encoder,
        texture,
        wgpu::TextureAspect::All,
        (0, 0, width, height),
    );
    gpu.queue.submit([encoder.finish()]);
    // The frame is BGRA; pictures are RGBA.
    let pixels = map_region(gpu, &buffer, width, height)?
        .into_iter()
        .flat_map(|[b, g, r, a]| [r, g, b, a])
        .collect();
    RgbaImage::from_raw(width, height, pixels)
        .ok_or_else(|| RenderError::Readback("short read".into()))
}

/// Queues a copy of a texture region into a new mappable buffer (4 bytes a texel).
fn copy_region(
    gpu: &Gpu,
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    aspect: wgpu::TextureAspect,
    (x, y, w, h): (u32, u32, u32, u32),
) -> wgpu::Buffer {
    let row =
        (4 * w).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("region readback"),
        size: u64::from(row) * u64::from(h),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d { x, y, z: 0 },
            aspect,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: Some(h),
            },
        },
        wgpu::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        },
    );
    buffer
}

/// Maps a buffer [`copy_region`] filled and returns its texels row by row.
fn map_region(
    gpu: &Gpu,
    buffer: &wgpu::Buffer,
    w: u32,
    h: u32,
) -> Result<Vec<[u8; 4]>, RenderError> {
    let row =
        (4 * w).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let slice = buffer.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    rx.recv()
        .map_err(|e| RenderError::Readback(e.to_string()))?
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    let mapped = slice
        .get_mapped_range()
        .map_err(|e| RenderError::Readback(e.to_string()))?;
    let mut out = Vec::with_capacity((w * h) as usize);
    for y in 0..h as usize {
        let start = y * row as usize;
        out.extend(
            mapped[start..start + 4 * w as usize]
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]]),
        );
    }
    drop(mapped);
    buffer.unmap();
    Ok(out)
}
