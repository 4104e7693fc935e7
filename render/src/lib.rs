//! # pebble-render — the wgpu renderer
//!
//! Draws a model scene (or any `.pbm` map, as the device would) headless or inside
//! the editor: chunked static geometry, frustum culling, opaque / cutout / blended /
//! emitter passes, UV scroll and particles from the `pbm` evaluation, overlays,
//! ID-buffer picking, a PSP-look preview mode and PNG output. Knows nothing of egui.
//!
//! Filled by the "Renderer" issue.

pub use pbm::particle::ViewBasis;
