//! The viewport's overlay: the scene's lines (collider boxes, light and emitter
//! markers, the described kinds: spawn, triggers, patrols, game entities), rebuilt only when the scene or the layers
//! shown change; the ground grid, which follows the view (centred under the pivot,
//! its spacing the move gizmo's grid step scaled by tens with the distance, fading
//! out towards its edge), rebuilt when the view moves a grid line; and the tools'
//! lines (gizmo, orbit centre) on top each frame.

use std::sync::Arc;

use pebble_model::Scene;
use pebble_model::glam::Vec3;
use pebble_render::overlay::GridPlane;
use pebble_render::overlay::LineVertex;
use pebble_render::{Overlay, OverlayOptions};

pub use pebble_core::layer::Layer;

use super::outline::Outline;
use super::tools::ToolOverlay;

/// Grid lines each way from the centre.
const GRID_HALF: u32 = 60;
/// About this many grid lines across the view's height at the pivot.
const GRID_LINES_IN_VIEW: f32 = 40.0;

/// Which overlay layers the viewport shows (View › Overlay layers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layers {
    pub grid: bool,
    pub colliders: bool,
    pub lights: bool,
    pub emitters: bool,
    /// The built-in described kinds (spawn, triggers, patrols…).
    pub markers: bool,
    pub game: bool,
    pub links: pebble_core::layer::Links,
}

impl Default for Layers {
    fn default() -> Self {
        Self {
            grid: true,
            colliders: true,
            lights: true,
            emitters: true,
            markers: true,
            game: true,
            links: pebble_core::layer::Links::All,
        }
    }
}

impl Layers {
    pub fn get_mut(&mut self, layer: Layer) -> &mut bool {
        match layer {
            Layer::Grid => &mut self.grid,
            Layer::Colliders => &mut self.colliders,
            Layer::Lights => &mut self.lights,
            Layer::Emitters => &mut self.emitters,
            Layer::Markers => &mut self.markers,
            Layer::GameEntities => &mut self.game,
        }
    }

    /// Which described kinds these layers show.
    pub fn kinds_shown(self) -> pebble_render::game_overlay::KindsShown {
        pebble_render::game_overlay::KindsShown {
            builtin: self.markers,
            game: self.game,
        }
    }

    pub fn get(mut self, layer: Layer) -> bool {
        *self.get_mut(layer)
    }
}

/// The renderer's name for a links choice.
pub fn render_links(links: pebble_core::layer::Links) -> pebble_render::game_overlay::LinkLines {
    use pebble_core::layer::Links;
    use pebble_render::game_overlay::LinkLines;
    match links {
        Links::All => LinkLines::All,
        Links::Selected => LinkLines::Selected,
        Links::None => LinkLines::None,
    }
}

/// The plane the grid lies on: the ground, except in a front or side
/// orthographic view, which looks at an upright plane (a ground grid seen edge-on
/// is one line).
pub fn grid_plane(ortho: bool, forward: Vec3) -> GridPlane {
    if !ortho || forward.y.abs() > 0.7 {
        GridPlane::Ground
    } else if forward.z.abs() >= forward.x.abs() {
        GridPlane::Front
    } else {
        GridPlane::Side
    }
}

/// The grid's spacing for a view showing `view_height` metres at its pivot: the
/// move gizmo's grid `step`, times ten as often as it takes to keep about
/// [`GRID_LINES_IN_VIEW`] lines in view.
pub fn grid_spacing(step: f32, view_height: f32) -> f32 {
    let step = if step.is_finite() && step > 1e-4 {
        step
    } else {
        1.0
    };
    let mut spacing = step;
    while view_height / spacing > GRID_LINES_IN_VIEW && spacing < 1e6 {
        spacing *= 10.0;
    }
    spacing
}

/// What the grid was last built for: its spacing and the centre line's index.
type GridKey = (GridPlane, u32, i64, i64);

/// The scene's overlay and the grid, kept for what they were built from.
#[derive(Debug, Default, Clone)]
pub struct SceneOverlay {
    /// The project's kinds the game entities are drawn by.
    kinds: Arc<pebble_model::definitions::Definitions>,
    /// The models they are drawn by, and which reading of them.
    models: (Arc<pebble_render::game_overlay::ModelEdges>, u64),
    scene: Option<((u64, Layers), Arc<Overlay>)>,
    grid: Option<(GridKey, Arc<Overlay>)>,
    both: Option<(u64, Layers, Option<GridKey>, Arc<Overlay>)>,
    /// The last overlay with the tools' lines, and what it was made of.
    #[allow(clippy::type_complexity)]
    with_tools: Option<(
        Option<Arc<Overlay>>,
        (Vec<LineVertex>, Vec<LineVertex>),
        Outline,
        Arc<Overlay>,
    )>,
}

impl SceneOverlay {
    /// Forgets what was built (another scene was opened).
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Draws the game entities by `kinds` from now on (rebuilt when they changed).
    pub fn set_kinds(&mut self, kinds: &Arc<pebble_model::definitions::Definitions>) {
        if !Arc::ptr_eq(&self.kinds, kinds) {
            self.kinds = kinds.clone();
            self.scene = None;
            self.both = None;
        }
    }

    /// Draws the kinds by these models from now on (rebuilt when they changed).
    pub fn set_models(
        &mut self,
        models: &Arc<pebble_render::game_overlay::ModelEdges>,
        generation: u64,
    ) {
        if self.models.1 != generation {
            self.models = (models.clone(), generation);
            self.scene = None;
            self.both = None;
        }
    }

    /// This frame's overlay: the scene's layers when `show`, the grid round
    /// `pivot` at `spacing`, with the tools' lines over them.
    pub fn frame(
        &mut self,
        scene: &Scene,
        show: bool,
        layers: Layers,
        (plane, pivot, spacing): (GridPlane, Vec3, f32),
        (tools, outline): (&ToolOverlay, &Outline),
    ) -> Option<Arc<Overlay>> {
        let base = show.then(|| self.combined(scene, layers, plane, pivot, spacing));
        if tools.lines.is_empty()
            && tools.triangles.is_empty()
            && outline.lines.is_empty()
            && outline.on_top.is_empty()
        {
            return base;
        }
        // The same tools' lines over the same base as last frame (a resting hover,
        // a selection's gizmo): the same overlay, not a copy of a big one a frame.
        if let Some((last_base, last_tools, last_outline, made)) = &self.with_tools
            && match (&base, last_base) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
            && last_tools.0 == tools.lines
            && last_tools.1 == tools.triangles
            && last_outline.lines == outline.lines
            && last_outline.on_top == outline.on_top
        {
            return Some(made.clone());
        }
        let mut with_tools = base.as_deref().cloned().unwrap_or_default();
        // The outlines first: the tools' lines go over them.
        with_tools.lines.extend_from_slice(&outline.lines);
        with_tools.on_top.extend_from_slice(&outline.on_top);
        with_tools.on_top.extend_from_slice(&tools.lines);
        with_tools
            .on_top_triangles
            .extend_from_slice(&tools.triangles);
        let made = Arc::new(with_tools);
        self.with_tools = Some((
            base,
            (tools.lines.clone(), tools.triangles.clone()),
            outline.clone(),
            made.clone(),
        ));
        Some(made)
    }

    fn combined(
        &mut self,
        scene: &Scene,
        layers: Layers,
        plane: GridPlane,
        pivot: Vec3,
        spacing: f32,
    ) -> Arc<Overlay> {
        let revision = scene.revision();
        if self
            .scene
            .as_ref()
            .is_none_or(|(k, _)| *k != (revision, layers))
        {
            let options = OverlayOptions {
                grid_extent: 0.0,
                colliders: layers.colliders,
                lights: layers.lights,
                emitters: layers.emitters,
                highlight_selection: true,
                ..Default::default()
            };
            let mut built = Overlay::of_scene(scene, &options);
            if layers.game || layers.markers {
                built.game_entities(
                    scene,
                    &self.kinds,
                    render_links(layers.links),
                    layers.kinds_shown(),
                    &self.models.0,
                );
            }
            self.scene = Some(((revision, layers), Arc::new(built)));
        }
        let grid_key = layers.grid.then(|| {
            let (a, b) = plane.axes();
            (
                plane,
                spacing.to_bits(),
                (pivot[a] / spacing).round() as i64,
                (pivot[b] / spacing).round() as i64,
            )
        });
        if let Some(key) = grid_key
            && self.grid.as_ref().is_none_or(|(k, _)| *k != key)
        {
            let mut grid = Overlay::default();
            grid.view_grid_on(plane, pivot, spacing, GRID_HALF);
            self.grid = Some((key, Arc::new(grid)));
        }
        if let Some((r, l, g, both)) = &self.both
            && (*r, *l, *g) == (revision, layers, grid_key)
        {
            return both.clone();
        }
        let scene_part = self
            .scene
            .as_ref()
            .map(|(_, o)| o.clone())
            .unwrap_or_default();
        let both = match (&self.grid, grid_key) {
            (Some((_, grid)), Some(_)) => {
                let mut both = (*scene_part).clone();
                both.lines.extend_from_slice(&grid.lines);
                Arc::new(both)
            }
            _ => scene_part,
        };
        self.both = Some((revision, layers, grid_key, both.clone()));
        both
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_spacing_is_the_snap_step_near_and_tens_of_it_further_away() {
        assert_eq!(grid_spacing(0.25, 5.0), 0.25);
        assert_eq!(grid_spacing(0.25, 50.0), 2.5);
        assert_eq!(grid_spacing(0.25, 500.0), 25.0);
        assert_eq!(grid_spacing(1.0, 2000.0), 100.0);
        assert_eq!(grid_spacing(f32::NAN, 5.0), 1.0, "a broken step falls back");
    }

    #[test]
    fn the_grid_follows_the_pivot_and_the_scene_part_is_kept() {
        let scene = Scene::new();
        let mut o = SceneOverlay::default();
        let tools = ToolOverlay::default();
        let layers = Layers::default();
        let at = |o: &mut SceneOverlay, pivot: Vec3| {
            o.frame(
                &scene,
                true,
                layers,
                (GridPlane::Ground, pivot, 1.0),
                (&tools, &Outline::default()),
            )
            .expect("shown")
        };
        let first = at(&mut o, Vec3::ZERO);
        let centre_x = |ov: &Overlay| {
            let xs = ov.lines.iter().map(|v| v.pos[0]);
            let (lo, hi) = xs.fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
            (lo + hi) / 2.0
        };
        assert_eq!(centre_x(&first), 0.0);
        // Panned 1000 m: the grid is under the view, not left behind.
        let far = at(&mut o, Vec3::new(1000.2, 0.0, 0.0));
        assert_eq!(centre_x(&far), 1000.0);
        // Within the same grid cell nothing is rebuilt.
        let same = at(&mut o, Vec3::new(1000.4, 0.0, 0.1));
        assert!(Arc::ptr_eq(&far, &same));
        // The grid layer off: no grid lines.
        let off = o
            .frame(
                &scene,
                true,
                Layers {
                    grid: false,
                    ..layers
                },
                (GridPlane::Ground, Vec3::ZERO, 1.0),
                (&tools, &Outline::default()),
            )
            .expect("shown");
        assert!(off.lines.is_empty());
    }

    /// Front and side orthographic views have a grid in their own plane (a ground
    /// grid seen edge-on is one line); perspective and top views keep the ground's.
    #[test]
    fn front_and_side_views_have_a_grid_in_their_plane() {
        let front = Vec3::new(0.0, 0.0, -1.0);
        let side = Vec3::new(1.0, 0.0, 0.0);
        let top = Vec3::new(0.0, -1.0, 0.0);
        assert_eq!(grid_plane(true, front), GridPlane::Front);
        assert_eq!(grid_plane(true, side), GridPlane::Side);
        assert_eq!(grid_plane(true, top), GridPlane::Ground);
        assert_eq!(grid_plane(false, front), GridPlane::Ground);
        let scene = Scene::new();
        let mut o = SceneOverlay::default();
        let grid = o
            .frame(
                &scene,
                true,
                Layers::default(),
                (GridPlane::Front, Vec3::new(0.0, 1.5, 0.0), 1.0),
                (&ToolOverlay::default(), &Outline::default()),
            )
            .expect("shown");
        let heights: std::collections::BTreeSet<i32> =
            grid.lines.iter().map(|v| v.pos[1].round() as i32).collect();
        assert!(heights.len() > 10, "lines at many heights: {heights:?}");
        assert!(grid.lines.iter().all(|v| v.pos[2] == 0.0));
    }
}
