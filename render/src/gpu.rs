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
        Self::headless_on(
            wgpu::Backends::from_env().unwrap_or(wgpu::Backends::VULKAN | wgpu::Backends::GL),
        )
    }

    /// Opens the first adapter of these backends, with no surface. The editor's
    /// window falls back to OpenGL ES where Vulkan is missing, so the renderer's
    /// tests run there too.
    pub fn headless_on(backends: wgpu::Backends) -> Result<Self, RenderError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = backends;
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

/// The variable that lets GPU tests skip on a machine without any adapter. Unset,
/// a missing adapter fails the test: the README's packages give every machine
/// Mesa's lavapipe, so a missing one is a broken setup, not a pass.
pub const SKIP_GPU_TESTS_VAR: &str = "PEBBLE_SKIP_GPU_TESTS";

/// Whether the user opted out of GPU tests (`PEBBLE_SKIP_GPU_TESTS=1`).
pub fn gpu_tests_skipped() -> bool {
    std::env::var(SKIP_GPU_TESTS_VAR).is_ok_and(|v| v == "1")
}

/// For tests: a device. Without one the test fails with how to get one, unless
/// `PEBBLE_SKIP_GPU_TESTS=1` is set, when it returns `None` after a loud message.
pub fn test_gpu(test: &str) -> Option<Gpu> {
    match Gpu::headless() {
        Ok(gpu) => Some(gpu),
        Err(e) if gpu_tests_skipped() => {
            eprintln!(
                "\n*** {test} not run: no GPU adapter ({e}) and {SKIP_GPU_TESTS_VAR}=1 ***\n"
            );
            None
        }
        Err(e) => panic!(
            "{test}: no GPU adapter ({e}). Install Mesa's lavapipe \
             (apt-get install mesa-vulkan-drivers libvulkan1), or set \
             {SKIP_GPU_TESTS_VAR}=1 to skip the GPU tests on purpose"
        ),
    }
}
