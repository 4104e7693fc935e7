//! What every renderer on one device shares: the device and queue, the bind group
//! layouts, the samplers, the white texel untextured draws bind, every pipeline
//! (`pipelines`) and the compositors. Built once per device and shared through an
//! [`Arc`] ([`Renderer::with_context`](crate::Renderer::with_context)): opening
//! another scene then makes no pipelines.
//!
//! Sharing is the caller's to ask for, never looked up by device: wgpu compares
//! devices by an id that repeats across instances (two editor windows' devices
//! compare equal), and a pipeline used on another device's pass panics in wgpu.

use std::num::NonZeroU64;
use std::sync::{Arc, Mutex, PoisonError};

use crate::RenderError;
use crate::compositor::Compositor;
use crate::gpu::Gpu;
use crate::gpu_scene::upload_levels;
use crate::pipelines::{DrawUniform, FrameUniform, Pipelines};
use crate::scene::TextureSampling;

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

/// The samplers: every wrap (repeat or clamp per axis) and filter (bilinear or
/// nearest) a texture can ask for (`TextureSampling::index`); clamped bilinear for
/// atlases and emitters.
#[derive(Debug)]
pub(crate) struct Samplers {
    table: Vec<wgpu::Sampler>,
}

/// The device-wide half of a renderer: see the module documentation.
#[derive(Debug)]
pub struct RenderContext {
    pub(crate) gpu: Gpu,
    pub(crate) layouts: Layouts,
    pub(crate) samplers: Samplers,
    /// A 1×1 white texture, bound by untextured chunks, solids and emitters whose
    /// texture is missing.
    pub(crate) white: wgpu::BindGroup,
    pub(crate) pipelines: Pipelines,
    /// One compositor per target format, made on first use.
    compositors: Mutex<Vec<Arc<Compositor>>>,
}

impl RenderContext {
    /// Builds the layouts, samplers and pipelines for a device. Fails with the
    /// device's own message on a GPU error.
    pub fn new(gpu: &Gpu) -> Result<Arc<Self>, RenderError> {
        let device = &gpu.device;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let layouts = Layouts::new(device);
        let samplers = Samplers::new(device);
        let white = upload_levels(
            gpu,
            &layouts.texture,
            &samplers,
            TextureSampling::default(),
            &[(1, 1, &[255, 255, 255, 255])],
        )
        .surface;
        let pipelines = Pipelines::new(device, &layouts);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RenderError::Gpu(e.to_string()));
        }
        Ok(Arc::new(Self {
            gpu: gpu.clone(),
            layouts,
            samplers,
            white,
            pipelines,
            compositors: Mutex::new(Vec::new()),
        }))
    }

    /// The device and queue.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The compositor drawing frames into targets of `format`, built the first time
    /// a format is asked for.
    pub fn compositor(&self, format: wgpu::TextureFormat) -> Result<Arc<Compositor>, RenderError> {
        let mut compositors = self
            .compositors
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(c) = compositors.iter().find(|c| c.format() == format) {
            return Ok(Arc::clone(c));
        }
        let compositor = Arc::new(Compositor::new(&self.gpu.device, format)?);
        compositors.push(Arc::clone(&compositor));
        Ok(compositor)
    }
}

impl Layouts {
    fn new(device: &wgpu::Device) -> Self {
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

impl Samplers {
    fn new(device: &wgpu::Device) -> Self {
        // Both views select the nearest mip level (the GE's LINEAR_MIPMAP_NEAREST):
        // the editor shows the device's texture detail, and a software rasteriser
        // does half the texel fetches of trilinear filtering.
        let address = |clamp: bool| {
            if clamp {
                wgpu::AddressMode::ClampToEdge
            } else {
                wgpu::AddressMode::Repeat
            }
        };
        let table = (0..8)
            .map(|k| {
                let (u, v, nearest) = (k & 1 != 0, k & 2 != 0, k & 4 != 0);
                let filter = if nearest {
                    wgpu::FilterMode::Nearest
                } else {
                    wgpu::FilterMode::Linear
                };
                device.create_sampler(&wgpu::SamplerDescriptor {
                    label: Some("scene sampler"),
                    address_mode_u: address(u),
                    address_mode_v: address(v),
                    address_mode_w: address(u),
                    mag_filter: filter,
                    min_filter: filter,
                    mipmap_filter: wgpu::MipmapFilterMode::Nearest,
                    ..Default::default()
                })
            })
            .collect();
        Self { table }
    }

    pub fn get(&self, sampling: TextureSampling) -> &wgpu::Sampler {
        &self.table[sampling.index()]
    }
}

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
    use crate::gpu::test_gpu;

    #[test]
    fn a_compositor_is_built_once_per_target_format() {
        let Some(gpu) = test_gpu("compositor cache") else {
            return;
        };
        let context = RenderContext::new(&gpu).expect("context");
        let plain = context
            .compositor(wgpu::TextureFormat::Bgra8Unorm)
            .expect("compositor");
        let srgb = context
            .compositor(wgpu::TextureFormat::Bgra8UnormSrgb)
            .expect("compositor");
        assert!(!Arc::ptr_eq(&plain, &srgb));
        let plain_again = context
            .compositor(wgpu::TextureFormat::Bgra8Unorm)
            .expect("compositor");
        assert!(Arc::ptr_eq(&plain, &plain_again));
    }
}
