//! Picking through the renderer's ID buffer: [`RendererPick`] answers the tools'
//! questions ("what is under this pixel", "what is in this box") for the camera
//! drawn this frame, and [`Hover`] keeps what is under the resting cursor (the
//! highlight, the status bar's name, the zoom and orbit anchor) without a GPU
//! round trip every frame. Entities without a mesh (lights, emitters, triggers,
//! colliders, the spawn, patrols) are drawn as overlay lines: [`marker_under`]
//! finds the one whose lines pass within a few pixels of the cursor, unless a
//! surface in front hides it.

use pebble_model::glam::{Vec2, Vec3};
use pebble_model::{EntityId, Kind, Scene};
use pebble_render::{Camera, Overlay, OverlayOptions, PickHit, Renderer};

use super::tools::Pick;
use super::view::View;

/// How close to a marker's lines a click must come, pixels: as close as the ID
/// buffer's 9×9 window lets a mesh's nearest pixel be.
pub const MARKER_PIXELS: f32 = 4.5;

/// The marker under `pixel`: the pickable non-mesh entity whose overlay lines (or,
/// with none, its place) come nearest the cursor within [`MARKER_PIXELS`], with
/// the world point hit; one behind `surface` (the ID buffer's point under the
/// cursor) is hidden by it and not picked.
pub fn marker_under(
    scene: &Scene,
    view: &View,
    pixel: Vec2,
    surface: Option<Vec3>,
) -> Option<(EntityId, Vec3)> {
    let eye = view.camera.eye;
    let forward = view.camera.forward();
    let depth = |p: Vec3| (p - eye).dot(forward);
    let limit = surface.map(|s| depth(s) + 0.05);
    let options = OverlayOptions::default();
    let mut best: Option<(f32, f32, EntityId, Vec3)> = None;
    for e in scene.entities() {
        if matches!(e.kind.kind(), Kind::Mesh | Kind::Group | Kind::Walkable)
            || !scene.is_pickable(e.id)
        {
            continue;
        }
        let lines = Overlay::of_entity(scene, e.id, &options).lines;
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
            let (Some(pa), Some(pb)) = (view.project(a), view.project(b)) else {
                continue;
            };
            let ab = pb - pa;
            let t = if ab.length_squared() < 1e-6 {
                0.0
            } else {
                ((pixel - pa).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
            };
            let distance = pixel.distance(pa + ab * t);
            let world = a.lerp(b, t);
            let d = depth(world);
            if distance > MARKER_PIXELS || d <= 0.0 || limit.is_some_and(|l| d > l) {
                continue;
            }
            if best.is_none_or(|(bd, bz, _, _)| {
                distance < bd - 0.5 || (distance <= bd + 0.5 && d < bz)
            }) {
                best = Some((distance, d, e.id, world));
            }
        }
    }
    best.map(|(_, _, id, world)| (id, world))
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
    pub fn update(
        &mut self,
        now: f64,
        (cursor, scene, view): (Option<Vec2>, &Scene, &View),
        pick: &RendererPick,
        dragging: bool,
    ) {
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
        if let Some(c) = cursor
            && let Some((id, world)) = marker_under(scene, view, c, self.point)
        {
            self.entity = Some(id.0);
            self.point = Some(world);
            self.back_face = false;
        }
    }
}
