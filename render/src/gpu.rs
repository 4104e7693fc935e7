//! The wgpu device, found without a window: any adapter will do, a software one
//! (Mesa's lavapipe or llvmpipe) included. `WGPU_BACKEND=vulkan|gl|dx12|metal` picks
//! a backend. Also which adapter Pebble prefers among those a system offers, the
//! editor's window's choice too ([`choose_adapter`]).

use crate::RenderError;

/// A device and its queue.
#[derive(Debug, Clone)]
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
}

impl Gpu {
    /// Opens the adapter Pebble prefers ([`choose_adapter`]) among those of
    /// [`backends`], with no surface.
    pub fn headless() -> Result<Self, RenderError> {
        Self::headless_on(backends())
    }

    /// Opens the adapter Pebble prefers among those of these backends, with no
    /// surface. The editor's window falls back to OpenGL ES where Vulkan is
    /// missing, so the renderer's tests run there too.
    pub fn headless_on(backends: wgpu::Backends) -> Result<Self, RenderError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = backends;
        let instance = wgpu::Instance::new(desc);
        let adapters = pollster::block_on(instance.enumerate_adapters(backends));
        let adapter = choose_adapter(&adapters, None).map_err(RenderError::NoAdapter)?;
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

/// The backends Pebble asks for when `WGPU_BACKEND` names none: Vulkan and OpenGL
/// everywhere, and the system's own API where wgpu has one (Direct3D 12 on Windows,
/// Metal on macOS). [`choose_adapter`] picks among what they offer.
pub fn default_backends() -> wgpu::Backends {
    let native = if cfg!(windows) {
        wgpu::Backends::DX12
    } else if cfg!(target_os = "macos") {
        wgpu::Backends::METAL
    } else {
        wgpu::Backends::empty()
    };
    wgpu::Backends::VULKAN | wgpu::Backends::GL | native
}

/// The backends to ask: those `WGPU_BACKEND` names, else [`default_backends`]. The
/// window and the headless renderer ask the same.
pub fn backends() -> wgpu::Backends {
    wgpu::Backends::from_env().unwrap_or_else(default_backends)
}

/// Whether this Windows program runs under Wine (which sets `WINECONFIGDIR` for
/// every program it starts); always false elsewhere.
pub fn under_wine() -> bool {
    cfg!(windows) && std::env::var_os("WINECONFIGDIR").is_some()
}

/// How much Pebble wants an adapter, higher first; `None` for one never to use.
///
/// A real GPU before a virtual one before a software one (lavapipe, llvmpipe,
/// WARP); at the same kind, Vulkan (the backend every test here runs on) before the
/// system's own API before OpenGL. Under Wine, Direct3D 12 is Wine's translation to
/// Vulkan, which offers a placeholder adapter ("NVIDIA GeForce GTX 470") whose device
/// is lost at once on a machine without a GPU: Vulkan is asked directly instead.
pub fn adapter_preference(info: &wgpu::AdapterInfo, under_wine: bool) -> Option<u32> {
    let kind = match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 4,
        wgpu::DeviceType::IntegratedGpu => 3,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Cpu => 1,
        wgpu::DeviceType::Other => 0,
    };
    let backend = match info.backend {
        wgpu::Backend::Vulkan => 3,
        wgpu::Backend::Dx12 if under_wine => return None,
        wgpu::Backend::Dx12 | wgpu::Backend::Metal => 2,
        wgpu::Backend::Gl => 1,
        wgpu::Backend::Noop | wgpu::Backend::BrowserWebGpu => return None,
    };
    Some(kind * 10 + backend)
}

/// The adapter Pebble prefers ([`adapter_preference`]) among `adapters`, of those
/// that can draw to `surface` when one is given; else what was offered, to say so.
pub fn choose_adapter(
    adapters: &[wgpu::Adapter],
    surface: Option<&wgpu::Surface<'_>>,
) -> Result<wgpu::Adapter, String> {
    let wine = under_wine();
    adapters
        .iter()
        .filter(|a| surface.is_none_or(|s| a.is_surface_supported(s)))
        .filter_map(|a| adapter_preference(&a.get_info(), wine).map(|p| (p, a)))
        .max_by_key(|(p, _)| *p)
        .map(|(_, a)| a.clone())
        .ok_or_else(|| {
            let offered: Vec<String> = adapters
                .iter()
                .map(|a| {
                    let i = a.get_info();
                    format!("{} ({:?}, {:?})", i.name, i.backend, i.device_type)
                })
                .collect();
            if offered.is_empty() {
                "no graphics adapter found (on Linux without a GPU install Mesa's lavapipe: mesa-vulkan-drivers; WGPU_BACKEND=vulkan|gl|dx12|metal chooses the API)".to_owned()
            } else {
                format!(
                    "none of the graphics adapters found can draw this window: {} (WGPU_BACKEND=vulkan|gl|dx12|metal chooses another API)",
                    offered.join(", ")
                )
            }
        })
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

#[cfg(test)]
mod tests {
    use super::adapter_preference;
    use wgpu::{AdapterInfo, Backend, DeviceType};

    fn adapter(name: &str, backend: Backend, device_type: DeviceType) -> AdapterInfo {
        AdapterInfo {
            name: name.into(),
            vendor: 0,
            device: 0,
            device_type,
            device_pci_bus_id: String::new(),
            driver: String::new(),
            driver_info: String::new(),
            backend,
            subgroup_min_size: 0,
            subgroup_max_size: 0,
            transient_saves_memory: None,
            limit_bucket: None,
        }
    }

    fn best(offered: &[AdapterInfo], wine: bool) -> Option<&str> {
        offered
            .iter()
            .filter_map(|a| adapter_preference(a, wine).map(|p| (p, a)))
            .max_by_key(|(p, _)| *p)
            .map(|(_, a)| a.name.as_str())
    }

    #[test]
    fn a_real_gpu_comes_before_software_and_vulkan_before_the_others_at_the_same_kind() {
        let windows = [
            adapter(
                "Microsoft Basic Render Driver",
                Backend::Dx12,
                DeviceType::Cpu,
            ),
            adapter("Intel UHD 620", Backend::Gl, DeviceType::IntegratedGpu),
            adapter("Intel UHD 620", Backend::Dx12, DeviceType::IntegratedGpu),
            adapter("Intel UHD 620", Backend::Vulkan, DeviceType::IntegratedGpu),
        ];
        assert_eq!(best(&windows, false), Some("Intel UHD 620"));
        let chosen = windows
            .iter()
            .max_by_key(|a| adapter_preference(a, false))
            .map(|a| a.backend);
        assert_eq!(chosen, Some(Backend::Vulkan));
        // No Vulkan driver (an old Intel GPU): Direct3D 12 before OpenGL, WARP last.
        assert_eq!(
            windows[..3]
                .iter()
                .max_by_key(|a| adapter_preference(a, false))
                .map(|a| a.backend),
            Some(Backend::Dx12)
        );
        // A laptop's discrete GPU before its integrated one.
        let laptop = [
            adapter("Intel Iris Xe", Backend::Vulkan, DeviceType::IntegratedGpu),
            adapter("NVIDIA RTX 3050", Backend::Dx12, DeviceType::DiscreteGpu),
        ];
        assert_eq!(best(&laptop, false), Some("NVIDIA RTX 3050"));
        // A machine with no GPU: lavapipe (Vulkan) before llvmpipe (OpenGL).
        let software = [
            adapter("llvmpipe (LLVM 15)", Backend::Gl, DeviceType::Cpu),
            adapter(
                "llvmpipe (LLVM 15, 256 bits)",
                Backend::Vulkan,
                DeviceType::Cpu,
            ),
        ];
        assert_eq!(best(&software, false), Some("llvmpipe (LLVM 15, 256 bits)"));
    }

    #[test]
    fn under_wine_its_direct3d_12_placeholder_is_never_chosen() {
        let wine = [
            adapter(
                "NVIDIA GeForce GTX 470",
                Backend::Dx12,
                DeviceType::DiscreteGpu,
            ),
            adapter(
                "llvmpipe (LLVM 15.0.6, 256 bits)",
                Backend::Vulkan,
                DeviceType::Cpu,
            ),
        ];
        assert_eq!(best(&wine, false), Some("NVIDIA GeForce GTX 470"));
        assert_eq!(best(&wine, true), Some("llvmpipe (LLVM 15.0.6, 256 bits)"));
        assert_eq!(best(&wine[..1], true), None);
    }
}
