//! The 3D viewport: the `render` crate drawn through an egui_wgpu paint callback.
//! `prepare` records the scene frame into the renderer's own target (a command
//! buffer egui submits before its own); `paint` copies that target into egui's
//! render pass with a full-rectangle triangle (nearest filtering, so the PSP look's
//! 480×272 pixels stay crisp).

use std::sync::Arc;

use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, ScreenDescriptor};
use eframe::wgpu;
use pebble_render::{Camera, Extras, FrameStats, Overlay, RenderOptions, Renderer, SceneSync};

/// What lives in egui_wgpu's callback resources: the renderer, its scene sync and
/// the copy pipeline.
#[derive(Debug)]
pub struct ViewportResources {
    pub renderer: Renderer,
    pub sync: SceneSync,
    blit: wgpu::RenderPipeline,
    blit_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    /// The frame `prepare` recorded, bound for `paint`.
    current: Option<wgpu::BindGroup>,
    pub last_stats: FrameStats,
    pub last_error: Option<String>,
}

const BLIT: &str = r#"
@group(0) @binding(0) var frame_tex: texture_2d<f32>;
@group(0) @binding(1) var frame_sampler: sampler;

struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> Out {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    var out: Out;
    out.position = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}

fn to_linear(c: vec3<f32>) -> vec3<f32> {
    return select(pow((c + 0.055) / 1.055, vec3<f32>(2.4)), c / 12.92, c <= vec3<f32>(0.04045));
}

// The frame holds display values; an sRGB target would encode them again.
@fragment
fn fs_plain(in: Out) -> @location(0) vec4<f32> {
    return vec4<f32>(textureSample(frame_tex, frame_sampler, in.uv).rgb, 1.0);
}

@fragment
fn fs_srgb(in: Out) -> @location(0) vec4<f32> {
    return vec4<f32>(to_linear(textureSample(frame_tex, frame_sampler, in.uv).rgb), 1.0);
}
"#;

impl ViewportResources {
    pub fn new(
        device: &wgpu::Device,
        target: wgpu::TextureFormat,
        renderer: Renderer,
        sync: SceneSync,
    ) -> Self {
        let blit_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("viewport blit"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let blit = copy_pipeline(
            device,
            "viewport blit",
            BLIT,
            &blit_layout,
            &[],
            if target.is_srgb() {
                "fs_srgb"
            } else {
                "fs_plain"
            },
            target,
        );
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("viewport blit"),
            ..Default::default()
        });
        Self {
            renderer,
            sync,
            blit,
            blit_layout,
            sampler,
            current: None,
            last_stats: FrameStats::default(),
            last_error: None,
        }
    }
}

/// A pipeline copying a picture into egui's target: `vs_main` (with `buffers`, or
/// none for one full-rectangle triangle), one bind group, unblended.
pub(crate) fn copy_pipeline(
    device: &wgpu::Device,
    label: &str,
    wgsl: &str,
    group: &wgpu::BindGroupLayout,
    buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
    fragment: &str,
    target: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &[Some(group)],
        immediate_size: 0,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &shader,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers,
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &shader,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets: &[Some(target.into())],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// One frame of the viewport.
#[derive(Debug)]
pub struct ViewportCallback {
    pub camera: Camera,
    pub options: RenderOptions,
    pub overlay: Option<Arc<Overlay>>,
    pub selected: Vec<u32>,
    pub hovered: Option<u32>,
}

impl CallbackTrait for ViewportCallback {
    fn prepare(
        &self,
        device: &wgpu::Device,
        _queue: &wgpu::Queue,
        _screen: &ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(res) = resources.get_mut::<ViewportResources>() else {
            return Vec::new();
        };
        let extras = Extras {
            overlay: self.overlay.as_deref(),
            selected: &self.selected,
            hovered: self.hovered,
            // The scene's patrols and ball pit are shown by overlay markers here.
            solids: &[],
        };
        match res.renderer.encode(&self.camera, &self.options, &extras) {
            Ok((commands, texture, stats)) => {
                let view = texture.create_view(&Default::default());
                res.current = Some(device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("viewport frame"),
                    layout: &res.blit_layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(&view),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: wgpu::BindingResource::Sampler(&res.sampler),
                        },
                    ],
                }));
                res.last_stats = stats;
                res.last_error = None;
                vec![commands]
            }
            Err(e) => {
                res.current = None;
                res.last_error = Some(e.to_string());
                Vec::new()
            }
        }
    }

    fn paint(
        &self,
        _info: eframe::egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        let Some(res) = resources.get::<ViewportResources>() else {
            return;
        };
        if let Some(group) = &res.current {
            pass.set_pipeline(&res.blit);
            pass.set_bind_group(0, group, &[]);
            pass.draw(0..3, 0..1);
        }
    }
}

/// Adds the viewport's paint callback for `rect`.
pub fn paint(ui: &eframe::egui::Ui, rect: eframe::egui::Rect, callback: ViewportCallback) {
    ui.painter()
        .add(egui_wgpu::Callback::new_paint_callback(rect, callback));
}
