//! # pebble-render — the wgpu renderer
//!
//! Draws a model scene (or any `.pbm` map, as the device would) headless or inside
//! the editor: chunked static geometry, frustum culling and exact CPU occlusion
//! culling (`occlusion`, private; editor view only), opaque / cutout / blended
//! passes, UV scroll from the scene clock, fog, a PSP-look preview mode and PNG
//! output. Knows nothing of egui.
//!
//! Modules: [`camera`] (the runtime's conventions), [`frustum`] (conservative chunk
//! culling), [`environment`] (clear colour and fog presets), [`scene`] (what is
//! drawn, on the CPU), [`scene_model`] (a scene model drawn live, following its
//! change journal), [`gpu`] (a headless device), [`renderer`] (passes and
//! read-back), [`psp`] (the 5551 dither the PSP look applies).

pub mod camera;
pub mod compare;
pub mod environment;
pub mod frustum;
pub mod gpu;
mod occlusion;
pub mod overlay;
pub mod psp;
pub mod renderer;
pub mod scene;
pub mod scene_model;

pub use camera::{Camera, ViewAxis};
pub use gpu::Gpu;
pub use overlay::{Overlay, OverlayOptions};
pub use pbm::particle::ViewBasis;
pub use renderer::{Extras, FrameStats, PickHit, RenderOptions, Renderer, SolidVertex};
pub use scene::DrawScene;
pub use scene_model::SceneSync;

/// What can go wrong while rendering.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(
        "no GPU adapter found ({0}); on Linux without a GPU install Mesa's lavapipe (mesa-vulkan-drivers)"
    )]
    NoAdapter(String),
    #[error("cannot open the GPU device {0}")]
    Device(String),
    #[error("the GPU refused a command: {0}")]
    Gpu(String),
    #[error("cannot read the frame back from the GPU: {0}")]
    Readback(String),
    #[error("image size {0}×{1} is out of range (1 to 8192 on each side)")]
    Size(u32, u32),
}
