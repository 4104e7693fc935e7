//! The shader modules and render pipelines, and the interface they share with the
//! shaders: target formats, the vertex layout and the uniform blocks. Built once
//! per device by [`RenderContext`](crate::context::RenderContext), never per scene.

use crate::overlay::LineVertex;
use crate::scene::GpuVertex;

/// The frame's format: BGRA, the order software rasterisers and swapchains keep
/// natively (read-back swaps it to RGBA).
pub(crate) const FRAME_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Bgra8Unorm;
pub(crate) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth24Plus;
/// The ID pass's entity and face targets.
pub(crate) const ID_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;
/// The ID pass's depth copy, as the float's bits (depth textures cannot be copied
/// in part, and OpenGL ES renders to 32-bit integer targets but not float ones).
pub(crate) const PICK_DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;

/// How [`GpuVertex`] reaches the shaders (scene and pick pipelines alike).
const GPU_VERTEX_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: std::mem::size_of::<GpuVertex>() as u64,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Float32x2, 2 => Unorm8x4, 3 => Uint32
    ],
};

/// The PSP look's quantise pass: the shared full-screen triangle, then the dither.
const PSP_WGSL: &str = concat!(
    include_str!("fullscreen.wgsl"),
    include_str!("dither.wgsl"),
    include_str!("psp.wgsl")
);
/// The scene shaders, after the dithered 5551 write they share with the quantise pass.
const SCENE_WGSL: &str = concat!(include_str!("dither.wgsl"), include_str!("scene.wgsl"));

/// Per-draw uniforms sit at this stride (the largest dynamic-offset alignment).
pub(crate) const DRAW_STRIDE: u64 = 256;

/// `scene.wgsl`'s `Frame`: one per frame.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct FrameUniform {
    pub clip_from_world: [[f32; 4]; 4],
    pub fog: [f32; 4],
    pub fog_color: [f32; 4],
    pub light: [f32; 4],
}

/// `scene.wgsl`'s `Draw`: one per chunk, emitter and the solids, at [`DRAW_STRIDE`].
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct DrawUniform {
    pub uv_offset: [f32; 2],
    pub alpha_ref: f32,
    pub textured: f32,
    pub clamp: f32,
    pub pick_id: u32,
    /// 1: shade by the faces' direction (a chunk without colours, outside the PSP
    /// look and the preview light); 0: as its colours say.
    pub shaded: f32,
    pub _pad: u32,
    /// RGB and strength of the selection or hover tint.
    pub tint: [f32; 4],
}

/// The three scene passes of one look.
#[derive(Debug)]
pub(crate) struct ScenePipelines {
    pub opaque: wgpu::RenderPipeline,
    pub cutout: wgpu::RenderPipeline,
    pub blend: wgpu::RenderPipeline,
    /// Opaque chunks' back faces only, mixed over the frame by the blend constant
    /// (`RenderOptions::back_faces`), writing no depth.
    pub back: wgpu::RenderPipeline,
}

/// Every pipeline a frame or a pick uses.
#[derive(Debug)]
pub(crate) struct Pipelines {
    pub editor: ScenePipelines,
    /// The editor look with the preview light.
    pub editor_lit: ScenePipelines,
    pub psp: ScenePipelines,
    /// Blended and additive particles, in the editor and in the PSP look.
    pub particles: [[wgpu::RenderPipeline; 2]; 2],
    /// The PSP look's 5551 dither.
    pub psp_quantise: wgpu::RenderPipeline,
    pub pick: wgpu::RenderPipeline,
    /// The ID pass without back faces (when they are not drawn, they are not picked).
    pub pick_front: wgpu::RenderPipeline,
    /// Markers into the ID pass: their triangles carry the entity's id.
    pub pick_marker: wgpu::RenderPipeline,
    /// Overlay lines and translucent triangles, and lines over everything.
    pub overlay: [wgpu::RenderPipeline; 4],
}

impl Pipelines {
    /// Compiles the shaders and builds every pipeline (GPU errors go to the caller's
    /// error scope).
    pub fn new(device: &wgpu::Device, layouts: &Layouts) -> Self {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("scene.wgsl"),
            source: wgpu::ShaderSource::Wgsl(SCENE_WGSL.into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("scene"),
            bind_group_layouts: &[
                Some(&layouts.frame),
                Some(&layouts.draw),
                Some(&layouts.texture),
            ],
            immediate_size: 0,
        });
        let pipeline =
            |fragment: &str, cull: bool, depth_write: bool, blend: Option<wgpu::BlendState>| {
                let cull = cull.then_some(wgpu::Face::Back);
                scene_pipeline(device, &layout, &shader, fragment, cull, depth_write, blend)
            };
        // The PSP look's blends read the frame (group 3) and mix it themselves.
        let backdrop_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("scene, reading the frame"),
            bind_group_layouts: &[
                Some(&layouts.frame),
                Some(&layouts.draw),
                Some(&layouts.texture),
                Some(&layouts.psp),
            ],
            immediate_size: 0,
        });
        let psp_blend = |fragment: &str, depth_write: bool| {
            scene_pipeline(
                device,
                &backdrop_layout,
                &shader,
                fragment,
                None,
                depth_write,
                None,
            )
        };
        // Back faces at the blend constant's opacity: src·k + dst·(1 − k).
        let mixed = Some(wgpu::BlendState {
            color: wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::Constant,
                dst_factor: wgpu::BlendFactor::OneMinusConstant,
                operation: wgpu::BlendOperation::Add,
            },
            alpha: wgpu::BlendComponent::OVER,
        });
        let back = |fragment: &str| {
            let cull = Some(wgpu::Face::Front);
            scene_pipeline(device, &layout, &shader, fragment, cull, false, mixed)
        };
        let alpha = Some(wgpu::BlendState::ALPHA_BLENDING);
        // Opaque chunks use entry points without the alpha test, which lets early
        // depth rejection work; "_lit" ones add the preview light, "_psp" ones the
        // GE's mip level choice and its 5551 writes.
        let editor = ScenePipelines {
            opaque: pipeline("fs_opaque", true, true, None),
            cutout: pipeline("fs_main", false, true, None),
            blend: pipeline("fs_main", false, false, alpha),
            back: back("fs_opaque"),
        };
        let editor_lit = ScenePipelines {
            opaque: pipeline("fs_opaque_lit", true, true, None),
            cutout: pipeline("fs_main_lit", false, true, None),
            blend: pipeline("fs_main_lit", false, false, alpha),
            back: back("fs_opaque_lit"),
        };
        // As the runtime draws: opaque and cutout surfaces write depth (cutouts are
        // alpha-tested, then blended); blended ones and particles only test it.
        let psp = ScenePipelines {
            opaque: pipeline("fs_opaque_psp", true, true, None),
            cutout: psp_blend("fs_blend_psp", true),
            blend: psp_blend("fs_blend_psp", false),
            back: back("fs_opaque_psp"),
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
        let particles = [
            [
                pipeline("fs_main", false, false, alpha),
                pipeline("fs_main", false, false, additive),
            ],
            [
                psp_blend("fs_blend_psp", false),
                psp_blend("fs_additive_psp", false),
            ],
        ];
        Self {
            editor,
            editor_lit,
            psp,
            particles,
            psp_quantise: psp_quantise_pipeline(device, &layouts.psp),
            pick: pick_pipeline(device, &layout, &shader, None),
            pick_marker: pick_pipeline_with(device, &layout, &shader, None, "fs_pick_marker"),
            pick_front: pick_pipeline(device, &layout, &shader, Some(wgpu::Face::Back)),
            overlay: overlay_pipelines(device, &layouts.frame),
        }
    }
}

/// A scene pass: `vs_main` and one fragment entry point of `scene.wgsl`.
fn scene_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    shader: &wgpu::ShaderModule,
    fragment: &str,
    cull: Option<wgpu::Face>,
    depth_write: bool,
    blend: Option<wgpu::BlendState>,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(fragment),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: shader,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[Some(GPU_VERTEX_LAYOUT)],
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode: cull,
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
            module: shader,
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
}

/// The PSP look's full-screen pass from the scene frame to its 5551 copy.
fn psp_quantise_pipeline(
    device: &wgpu::Device,
    psp_layout: &wgpu::BindGroupLayout,
) -> wgpu::RenderPipeline {
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("psp.wgsl"),
        source: wgpu::ShaderSource::Wgsl(PSP_WGSL.into()),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("psp"),
        bind_group_layouts: &[Some(psp_layout)],
        immediate_size: 0,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("psp quantise"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &shader,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &shader,
            entry_point: Some("fs_main"),
            compilation_options: Default::default(),
            targets: &[Some(FRAME_FORMAT.into())],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// The ID pass: entity ids, faces and depths into three targets.
fn pick_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    shader: &wgpu::ShaderModule,
    cull: Option<wgpu::Face>,
) -> wgpu::RenderPipeline {
    pick_pipeline_with(device, layout, shader, cull, "fs_pick")
}

/// An ID pass pipeline with its fragment entry point.
fn pick_pipeline_with(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    shader: &wgpu::ShaderModule,
    cull: Option<wgpu::Face>,
    fragment: &str,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("pick"),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: shader,
            entry_point: Some("vs_pick"),
            compilation_options: Default::default(),
            buffers: &[Some(GPU_VERTEX_LAYOUT)],
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            front_face: wgpu::FrontFace::Ccw,
            // Back faces are picked too, and flagged (unless culled: not drawn).
            cull_mode: cull,
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
            module: shader,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets: &[
                Some(ID_FORMAT.into()),
                Some(ID_FORMAT.into()),
                Some(PICK_DEPTH_FORMAT.into()),
            ],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// Overlay lines and translucent triangles (depth-tested), and lines and
/// triangles drawn over everything; none writes depth.
fn overlay_pipelines(
    device: &wgpu::Device,
    frame_layout: &wgpu::BindGroupLayout,
) -> [wgpu::RenderPipeline; 4] {
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("overlay.wgsl"),
        source: wgpu::ShaderSource::Wgsl(include_str!("overlay.wgsl").into()),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("overlay"),
        bind_group_layouts: &[Some(frame_layout)],
        immediate_size: 0,
    });
    let pipeline = |topology, depth_test: bool| {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("overlay"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
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
                module: &shader,
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
    [
        pipeline(wgpu::PrimitiveTopology::LineList, true),
        pipeline(wgpu::PrimitiveTopology::TriangleList, true),
        pipeline(wgpu::PrimitiveTopology::LineList, false),
        pipeline(wgpu::PrimitiveTopology::TriangleList, false),
    ]
}

/// The bind group layouts the pipelines are built against.
#[derive(Debug)]
pub(crate) struct Layouts {
    /// Group 0: the frame uniform.
    pub frame: wgpu::BindGroupLayout,
    /// Group 1: a draw's uniform, at a dynamic offset.
    pub draw: wgpu::BindGroupLayout,
    /// Group 2: a texture and its sampler.
    pub texture: wgpu::BindGroupLayout,
    /// The PSP quantise pass's input frame; also group 3 of the PSP look's blends,
    /// the frame they mix with.
    pub psp: wgpu::BindGroupLayout,
}

impl Layouts {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries,
            })
        };
        Self {
            frame: layout(
                "frame",
                &[uniform_entry(
                    0,
                    false,
                    std::mem::size_of::<FrameUniform>() as u64,
                )],
            ),
            draw: layout(
                "draw",
                &[uniform_entry(
                    0,
                    true,
                    std::mem::size_of::<DrawUniform>() as u64,
                )],
            ),
            texture: layout("texture", &[texture_entry(0, true), sampler_entry(1)]),
            psp: layout("psp", &[texture_entry(0, false)]),
        }
    }
}

fn uniform_entry(binding: u32, dynamic: bool, size: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: std::num::NonZeroU64::new(size),
        },
        count: None,
    }
}

pub(crate) fn sampler_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
        count: None,
    }
}

pub(crate) fn texture_entry(binding: u32, filterable: bool) -> wgpu::BindGroupLayoutEntry {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uniform_blocks_fit_their_slots_and_match_the_shader_sizes() {
        // scene.wgsl: Frame is a mat4 and three vec4s; Draw is 48 bytes.
        assert_eq!(std::mem::size_of::<FrameUniform>(), 64 + 3 * 16);
        assert_eq!(std::mem::size_of::<DrawUniform>(), 48);
        assert!(std::mem::size_of::<DrawUniform>() as u64 <= DRAW_STRIDE);
        assert!(DRAW_STRIDE.is_power_of_two());
    }

    #[test]
    fn the_psp_pass_takes_its_vertex_stage_from_the_shared_full_screen_triangle() {
        assert!(PSP_WGSL.starts_with(include_str!("fullscreen.wgsl")));
        assert_eq!(PSP_WGSL.matches("@vertex").count(), 1, "{PSP_WGSL}");
        assert!(!include_str!("psp.wgsl").contains("@vertex"));
    }
}
