//! What every renderer on one device shares: the device and queue, the bind group
//! layouts, the samplers, the white texel untextured draws bind, every pipeline
//! (`pipelines`) and the compositors. Built once per device and shared through an
//! [`Arc`] ([`Renderer::with_context`](crate::Renderer::with_context)): opening
//! another scene then makes no pipelines.
//!
//! Sharing is the caller's to ask for, never looked up by device: wgpu compares
//! devices by an id that repeats across instances (two editor windows' devices
//! compare equal), and a pipeline used on another device's pass panics in wgpu.

use std::sync::{Arc, Mutex, PoisonError};

use crate::RenderError;
use crate::compositor::Compositor;
use crate::gpu::Gpu;
use crate::pipelines::{Layouts, Pipelines};
use crate::scene::TextureSampling;
use crate::textures::{Samplers, upload_levels};

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
