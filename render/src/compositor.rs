//! Draws a renderer's finished frame into a render pass someone else owns (the
//! editor's egui pass): one full-screen triangle (`fullscreen.wgsl`, the one the
//! PSP look's quantise pass uses) over the pass's viewport, nearest filtering, so
//! that the PSP look's 480×272 pixels stay crisp when scaled up. Knows nothing of
//! egui: it takes a `wgpu::RenderPass`, the target's format and the frame's view.

use crate::RenderError;
use crate::pipelines::{sampler_entry, texture_entry};

/// The compositor's shader: the shared full-screen triangle, then the copy.
const COMPOSITOR_WGSL: &str = concat!(
    include_str!("fullscreen.wgsl"),
    include_str!("compositor.wgsl")
);

/// A pipeline drawing a frame texture over a whole target of one format.
#[derive(Debug)]
pub struct Compositor {
    format: wgpu::TextureFormat,
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
}

impl Compositor {
    /// A compositor for targets of `format`. An sRGB target gets the fragment stage
    /// that decodes the frame first, since the frame already holds display values
    /// and the target would encode them again.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Result<Self, RenderError> {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("compositor"),
            entries: &[texture_entry(0, true), sampler_entry(1)],
        });
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("compositor.wgsl"),
            source: wgpu::ShaderSource::Wgsl(COMPOSITOR_WGSL.into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("compositor"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("compositor"),
            layout: Some(&pipeline_layout),
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
                entry_point: Some(fragment_entry(format)),
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        // The default sampler: nearest, clamped to the edge.
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("compositor"),
            ..Default::default()
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RenderError::Gpu(e.to_string()));
        }
        Ok(Self {
            format,
            pipeline,
            layout,
            sampler,
        })
    }

    /// The target format this compositor draws into.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// Binds a frame (the texture [`Renderer::encode`](crate::Renderer::encode)
    /// returns) for [`Compositor::draw`]; the texture must be bindable.
    pub fn bind(&self, device: &wgpu::Device, frame: &wgpu::TextureView) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("compositor frame"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(frame),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        })
    }

    /// Draws a bound frame over the pass's viewport.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, frame: &wgpu::BindGroup) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, frame, &[]);
        pass.draw(0..3, 0..1);
    }
}

/// The fragment entry point for a target format.
fn fragment_entry(format: wgpu::TextureFormat) -> &'static str {
    if format.is_srgb() {
        "fs_srgb"
    } else {
        "fs_plain"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::test_gpu;
    use crate::readback::{copy_region, map_region};

    #[test]
    fn the_compositor_takes_its_vertex_stage_from_the_shared_full_screen_triangle() {
        assert!(COMPOSITOR_WGSL.starts_with(include_str!("fullscreen.wgsl")));
        assert_eq!(COMPOSITOR_WGSL.matches("@vertex").count(), 1);
        assert_eq!(
            fragment_entry(wgpu::TextureFormat::Bgra8UnormSrgb),
            "fs_srgb"
        );
        assert_eq!(fragment_entry(wgpu::TextureFormat::Rgba8Unorm), "fs_plain");
    }

    /// Composites a 2×2 frame into an 8×8 target of `format` and reads it back.
    fn composite(gpu: &crate::Gpu, format: wgpu::TextureFormat, frame: &[u8]) -> Vec<[u8; 4]> {
        let device = &gpu.device;
        let texture = |width, height, format, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some("compositor test"),
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
        let source = texture(
            2,
            2,
            wgpu::TextureFormat::Rgba8Unorm,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        gpu.queue.write_texture(
            source.as_image_copy(),
            frame,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(8),
                rows_per_image: Some(2),
            },
            source.size(),
        );
        let target = texture(
            8,
            8,
            format,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        );
        let compositor = Compositor::new(device, format).expect("compositor");
        let group = compositor.bind(device, &source.create_view(&Default::default()));
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let view = target.create_view(&Default::default());
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("compositor test"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
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
            compositor.draw(&mut pass, &group);
        }
        let buffer = copy_region(
            gpu,
            &mut encoder,
            &target,
            wgpu::TextureAspect::All,
            (0, 0, 8, 8),
        );
        gpu.queue.submit([encoder.finish()]);
        map_region(gpu, &buffer, 8, 8).expect("read back")
    }

    #[test]
    fn the_compositor_scales_a_frame_up_with_nearest_filtering_upright() {
        let Some(gpu) = test_gpu("compositor") else {
            return;
        };
        // Top row red, green; bottom row blue, a grey with no exact sRGB twin.
        let frame = [
            255, 0, 0, 255, 0, 255, 0, 255, //
            0, 0, 255, 255, 100, 100, 100, 255,
        ];
        let quadrant = |x: usize, y: usize| {
            let i = 4 * ((y / 4) * 2 + x / 4);
            [frame[i], frame[i + 1], frame[i + 2], 255]
        };
        let plain = composite(&gpu, wgpu::TextureFormat::Rgba8Unorm, &frame);
        for (i, p) in plain.iter().enumerate() {
            assert_eq!(*p, quadrant(i % 8, i / 8), "pixel {}, {}", i % 8, i / 8);
        }
        // An sRGB target stores the same display values: the shader decodes what
        // the target encodes again (within one step of rounding).
        let srgb = composite(&gpu, wgpu::TextureFormat::Rgba8UnormSrgb, &frame);
        for (i, p) in srgb.iter().enumerate() {
            let want = quadrant(i % 8, i / 8);
            assert!(
                p.iter().zip(want).all(|(a, b)| a.abs_diff(b) <= 1),
                "pixel {}, {}: {p:?} for {want:?}",
                i % 8,
                i / 8
            );
        }
    }
}
