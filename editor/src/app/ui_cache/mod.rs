//! Repainting the window without re-rasterizing an unchanged UI. While the scene
//! animates and nobody touches the panels, every frame's panel shapes are the same
//! as the last frame's; this draws them once into a texture and then, each frame,
//! copies that texture around the viewport instead of drawing every glyph again.
//! On a hardware GPU that is a small saving; on a software rasterizer (lavapipe:
//! virtual machines, remote desktops, CI) the panels cost as much as the scene,
//! and this removes most of that cost.
//!
//! [`UiCachePlugin`] (an egui plugin, so it sees each frame's finished shapes)
//! splits them into those inside the viewport, painted live as before, and the
//! rest. The rest are replaced by one paint callback, [`UiCacheCallback`], which
//! redraws them into the cache with a second egui_wgpu renderer when they changed
//! (or a texture did), and copies the cache to the window outside the viewport's
//! rectangle. A frame where anything of the UI reaches into the viewport (a menu,
//! a window, a tooltip, a dragged tab) is painted the ordinary way.

mod gpu;
mod plugin;
mod shared;

use std::sync::{Arc, Mutex};

use eframe::egui::{self, Rect};
use eframe::egui_wgpu;

pub use gpu::UiCacheResources;
pub use plugin::UiCachePlugin;
pub(crate) use shared::lock;
pub use shared::{PixelRect, Shared, SharedState, ViewportSlot};

/// The UI cache as the app holds it: installed once, told each frame where the
/// viewport's picture is, asked for its figures.
#[derive(Debug, Clone, Default)]
pub struct UiCache {
    viewport: ViewportSlot,
    counts: Arc<Mutex<[u64; 4]>>,
    shared: Option<SharedState>,
}

/// What the cache did so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UiCacheStats {
    /// Frames drawn from the cache / redrawn into it whole / painted the
    /// ordinary way / drawn from it after redrawing the regions that changed.
    pub frames: [u64; 4],
    /// Frames whose copy into the window was made after egui's pass, as transfers.
    pub copied_after_pass: u64,
}

impl UiCache {
    /// Installs the cache in the window behind `ctx` (a plugin that sees each
    /// frame's shapes, its GPU side in the renderer's callback resources). With
    /// `on` false the handle caches nothing and every frame is painted as usual.
    pub fn install(ctx: &egui::Context, rs: &egui_wgpu::RenderState, on: bool) -> Self {
        let mut cache = Self::default();
        if !on {
            return cache;
        }
        let shared = SharedState::default();
        let options = rs.renderer.read().options();
        rs.renderer
            .write()
            .callback_resources
            .insert(UiCacheResources::new(
                &rs.device,
                rs.target_format,
                options,
                shared.clone(),
            ));
        let plugin = UiCachePlugin::new(cache.viewport.clone(), shared.clone());
        cache.counts = plugin.counts.clone();
        cache.shared = Some(shared);
        ctx.add_plugin(plugin);
        cache
    }

    /// Says the window is cleared to the panels' fill (eframe, with the app's
    /// `clear_color`): the cache can leave out what shows only that colour. (A
    /// test harness clears to transparent.)
    pub fn window_clears_to_panel_fill(&self) {
        if let Some(shared) = &self.shared {
            lock(shared).window_clear_is_panel_fill = true;
        }
    }

    /// Whether the copy may go into the frame after egui's pass, as transfers
    /// (on by default; off measures what they save).
    pub fn allow_transfers(&self, allow: bool) {
        if let Some(shared) = &self.shared {
            lock(shared).no_transfers = !allow;
        }
    }

    /// Where this frame's viewport picture is, in points: the cache leaves it to
    /// be painted live.
    pub fn announce(&self, viewport: Rect) {
        *lock(&self.viewport) = Some(viewport);
    }

    pub fn stats(&self) -> UiCacheStats {
        UiCacheStats {
            frames: *lock(&self.counts),
            copied_after_pass: self
                .shared
                .as_ref()
                .map_or(0, |s| lock(s).copied_after_pass),
        }
    }
}

#[cfg(test)]
mod tests;
