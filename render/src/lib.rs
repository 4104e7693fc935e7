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
//! change journal), [`gpu`] (a headless device), [`renderer`] (the facade drawing
//! one scene), [`context`] (what every renderer on a device shares: layouts,
//! samplers, pipelines), [`compositor`] (a frame drawn into a caller's render
//! pass), [`psp`] (the 5551 dither the PSP look applies). Private parts behind the
//! facade: `pipelines`, `gpu_scene` (one scene's GPU data), `frame` and `passes`
//! (options, targets, uniforms, draw list, the passes), `picking`, `readback`.

pub mod camera;
pub mod compare;
pub mod compositor;
pub mod context;
pub mod environment;
mod error;
mod frame;
pub mod frustum;
pub mod game_overlay;
pub mod gpu;
mod gpu_scene;
mod occlusion;
pub mod overlay;
mod passes;
mod picking;
mod pipelines;
pub mod psp;
mod psp_layers;
mod readback;
pub mod renderer;
pub mod scene;
pub mod scene_model;
mod textures;

pub use camera::{Camera, ViewAxis};
pub use compositor::Compositor;
pub use context::RenderContext;
pub use error::RenderError;
pub use gpu::Gpu;
pub use overlay::{Overlay, OverlayOptions};
pub use pbm::particle::ViewBasis;
pub use renderer::{
    Extras, FrameStats, PickHit, PickMarkerVertex, RenderOptions, Renderer, SolidVertex,
};
pub use scene::DrawScene;
pub use scene_model::SceneSync;
pub use wgpu;
