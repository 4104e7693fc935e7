//! The wgpu device, found without a window: any adapter will do, a software one
//! (Mesa's lavapipe or llvmpipe) included. `WGPU_BACKEND=vulkan|gl` picks a backend.

use crate::RenderError;

/// A device and its queue.
#[derive(Debug, Clone)]
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
}

impl Gpu {
    /// Opens the first adapter wgpu offers, with no surface.
    pub fn headless() -> Result<Self, RenderError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends =
            wgpu::Backends::from_env().unwrap_or(wgpu::Backends::VULKAN | wgpu::Backends::GL);
        let instance = wgpu::Instance::new(desc);
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            ..Default::default()
        }))
        .map_err(|e| RenderError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("pebble"),
            required_features: wgpu::Features::empty(),
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| RenderError::Device(format!("{} ({:?}): {e}", info.name, info.backend)))?;
        Ok(Self {
            device,
            queue,
            info,
        })
    }

    /// A line naming the adapter, for logs and benchmark output.
    pub fn describe(&self) -> String {
        format!(
            "{} ({:?}, {:?})",
            self.info.name, self.info.backend, self.info.device_type
        )
    }
}

/// For tests: a device, or `None` after a loud message when there is none. With
/// `PEBBLE_REQUIRE_GPU=1` (as CI sets) a missing device fails the test instead.
pub fn test_gpu(test: &str) -> Option<Gpu> {
    match Gpu::headless() {
        Ok(gpu) => Some(gpu),
        Err(e) => {
            if std::env::var("PEBBLE_REQUIRE_GPU").is_ok_and(|v| v == "1") {
                panic!("{test}: PEBBLE_REQUIRE_GPU=1 but no GPU adapter: {e}");
            }
            eprintln!(
                "\n*** SKIPPED {test}: no GPU adapter ({e}). Install mesa-vulkan-drivers for lavapipe. ***\n"
            );
            None
        }
    }
}
