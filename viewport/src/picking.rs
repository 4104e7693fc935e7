//! Picking through the renderer's ID buffer: [`RendererPick`] answers the tools'
//! questions ("what is under this pixel", "what is in this box") for the camera
//! drawn this frame, and [`Hover`] keeps what is under the resting cursor (the
//! highlight, the status bar's name, the zoom and orbit anchor) without a GPU
//! round trip every frame. Entities without a mesh (lights, emitters, triggers,
//! colliders, the spawn, patrols) are overlay lines: [`marker_triangles`] hands
//! the ID pass those lines as quads with the entity's id.

use pebble_model::glam::{Vec2, Vec3};
use pebble_model::{Kind, Scene};
use pebble_render::{Camera, Overlay, OverlayOptions, PickHit, PickMarkerVertex, Renderer};

use super::overlay::Layers;
use super::tools::Pick;
use super::view::View;

/// What the markers' triangles were built for: they are built again only when
/// one of these changes (a still view with thousands of markers costs nothing).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MarkerKey {
    pub revision: u64,
    /// The definitions in force (by address: a reload is a new one).
    pub kinds: usize,
    pub layers: Option<Layers>,
    pub camera: pebble_render::Camera,
    pub size: Vec2,
    /// The kinds' models as read ([`crate::kind_models::KindModels::generation`]).
    pub models: u64,
}

/// How wide a marker's lines are in the ID buffer, pixels: a click within the
/// ID buffer's 9×9 window of them picks it.
pub const MARKER_PIXELS: f32 = 9.0;

/// The markers as the ID pass draws them: for every pickable entity without a
/// mesh (lights, emitters, triggers, colliders, the spawn, patrols, ball pits)
/// whose overlay layer is shown (`layers`; `None`: overlays off), its overlay
/// lines (or, with none, its place) as quads [`MARKER_PIXELS`] wide facing the
/// view, carrying its id, so that they are picked — and hide, or are hidden by,
/// what is drawn — like meshes. A marker not drawn is not picked.
pub fn marker_triangles(
    scene: &Scene,
    view: &View,
    layers: Option<&Layers>,
    kinds: &pebble_model::definitions::Definitions,
    models: &pebble_render::game_overlay::ModelEdges,
) -> Vec<PickMarkerVertex> {
    let Some(layers) = layers else {
        return Vec::new();
    };
    let options = OverlayOptions::default();
    let eye = view.camera.eye;
    let mut out = Vec::new();
    for e in scene.entities() {
        let shown = match e.kind.kind() {
            Kind::Mesh | Kind::Group | Kind::Walkable => false,
            Kind::Light => layers.lights,
            Kind::Emitter => layers.emitters,
            Kind::Collider => layers.colliders,
            Kind::Custom => true,
            Kind::Defined => match &e.kind {
                pebble_model::EntityKind::Defined(d) => layers.kinds_shown().shows(&d.kind),
                _ => false,
            },
        };
        if !shown || !scene.is_pickable(e.id) {
            continue;
        }
        let lines = if e.kind.kind() == Kind::Defined {
            Overlay::of_game_entity(scene, e.id, kinds, models).lines
        } else {
            Overlay::of_entity(scene, e.id, &options).lines
        };
        let place: Vec3 = scene.world_transform(e.id).translation.into();
        let segments: Vec<(Vec3, Vec3)> = if lines.is_empty() {
            vec![(place, place)]
        } else {
            lines
                .chunks_exact(2)
                .map(|l| (Vec3::from(l[0].pos), Vec3::from(l[1].pos)))
                .collect()
        };
        for (a, b) in segments {
            if let Some(quad) = view.screen_quad(a, b, MARKER_PIXELS) {
                out.extend(quad.map(|p| PickMarkerVertex {
                    pos: lifted(p, eye).to_array(),
                    id: e.id.0,
                }));
            }
        }
    }
    out
}

/// A marker's point pulled a little towards the eye, so that a line lying on a
/// surface (a patrol's route on the floor) is in front of it in the ID buffer
/// instead of fighting it for depth and losing: the floor was picked, never the
/// route.
fn lifted(p: Vec3, eye: Vec3) -> Vec3 {
    let to_eye = eye - p;
    let distance = to_eye.length();
    if distance < 1e-4 {
        return p;
    }
    p + to_eye / distance * (0.02 + distance * 0.004).min(distance * 0.5)
}

/// The renderer, asked about the frame it is drawing.
#[derive(Debug)]
pub struct RendererPick<'a> {
    pub renderer: &'a Renderer,
    pub camera: Camera,
    /// The viewport's size in pixels.
    pub size: (u32, u32),
    /// The scene clock (particles and scrolls are where they are drawn).
    pub time: f64,
}

/// A pixel position as the ID buffer's column and row.
fn texel(p: Vec2) -> (u32, u32) {
    (p.x.max(0.0) as u32, p.y.max(0.0) as u32)
}

impl Pick for RendererPick<'_> {
    fn pick(&self, pixel: Vec2) -> Result<Option<PickHit>, String> {
        let (x, y) = texel(pixel);
        let (w, h) = self.size;
        self.renderer
            .pick(&self.camera, w, h, self.time, x, y)
            .map_err(|e| e.to_string())
    }

    fn pick_excluding(&self, pixel: Vec2, exclude: &[u32]) -> Result<Option<PickHit>, String> {
        let (x, y) = texel(pixel);
        let (w, h) = self.size;
        self.renderer
            .pick_excluding(&self.camera, (w, h, self.time), (x, y), exclude)
            .map_err(|e| e.to_string())
    }

    fn pick_rect(&self, a: Vec2, b: Vec2) -> Result<Vec<u32>, String> {
        let (w, h) = self.size;
        self.renderer
            .pick_rect(&self.camera, w, h, self.time, texel(a), texel(b))
            .map_err(|e| e.to_string())
    }
}

/// What is under the cursor, refreshed by a throttled pick.
#[derive(Debug, Clone)]
pub struct Hover {
    /// The entity under the cursor (highlighted, named in the status bar).
    pub entity: Option<u32>,
    /// The surface point under the cursor: where a zoom goes and an orbit turns.
    pub point: Option<Vec3>,
    /// That surface is a single-sided face seen from behind.
    pub back_face: bool,
    /// When the last pick ran (seconds of egui time), and what it looked at.
    last_at: f64,
    last_inputs: Option<(Option<Vec2>, Camera, (u32, u32))>,
}

impl Default for Hover {
    fn default() -> Self {
        Self {
            entity: None,
            point: None,
            back_face: false,
            last_at: f64::NEG_INFINITY,
            last_inputs: None,
        }
    }
}

impl Hover {
    /// A pick is an ID pass and a wait for the GPU, so it runs at most every
    /// 40 ms when the cursor or the view moved, and every 250 ms otherwise (for
    /// what animates under a resting cursor); never during a drag.
    pub fn update(&mut self, now: f64, cursor: Option<Vec2>, pick: &RendererPick, dragging: bool) {
        let inputs = (cursor, pick.camera, pick.size);
        let since = now - self.last_at;
        let moved = self.last_inputs != Some(inputs);
        if since < 0.04 || !(moved || since >= 0.25) || dragging {
            return;
        }
        self.last_at = now;
        self.last_inputs = Some(inputs);
        let hit = cursor.and_then(|p| pick.pick(p).ok().flatten());
        self.entity = hit.map(|h| h.id);
        self.point = hit.map(|h| h.world);
        self.back_face = hit.is_some_and(|h| h.back_face);
    }
}
