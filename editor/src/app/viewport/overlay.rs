//! The viewport's overlay: the scene's lines (grid, collider and trigger boxes,
//! markers), rebuilt only when the scene changes, with the tools' lines (gizmo,
//! orbit centre) added on top each frame.

use std::sync::Arc;

use pebble_model::Scene;
use pebble_model::glam::Vec3;
use pebble_render::{Overlay, OverlayOptions};

use super::tools::ToolOverlay;

/// The scene's overlay, kept for the scene revision it was built from.
#[derive(Debug, Default, Clone)]
pub struct SceneOverlay {
    built: Option<(u64, Arc<Overlay>)>,
}

impl SceneOverlay {
    /// Forgets what was built (another scene was opened).
    pub fn clear(&mut self) {
        self.built = None;
    }

    /// This frame's overlay: the scene's when `show` (rebuilt when the scene
    /// changed, the grid under `pivot`) with the tools' lines over it.
    pub fn frame(
        &mut self,
        scene: &Scene,
        show: bool,
        pivot: Vec3,
        tools: &ToolOverlay,
    ) -> Option<Arc<Overlay>> {
        let revision = scene.revision();
        if show && self.built.as_ref().is_none_or(|(r, _)| *r != revision) {
            let options = OverlayOptions {
                grid_extent: 20.0,
                grid_centre: Vec3::new(pivot.x, 0.0, pivot.z),
                ..Default::default()
            };
            self.built = Some((revision, Arc::new(Overlay::of_scene(scene, &options))));
        }
        let base = show
            .then(|| self.built.as_ref().map(|(_, o)| o.clone()))
            .flatten();
        if tools.lines.is_empty() {
            return base;
        }
        let mut with_tools = base.as_deref().cloned().unwrap_or_default();
        with_tools.on_top.extend_from_slice(&tools.lines);
        Some(Arc::new(with_tools))
    }
}
