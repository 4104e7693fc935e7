//! The egui side of the UI cache: an egui plugin that sees each frame's finished
//! shapes, splits them into the viewport's (painted live) and the rest, works out
//! which pixels changed since the cache was drawn, and replaces the rest with one
//! paint callback ([`UiCacheCallback`](super::gpu::UiCacheCallback)).

use std::sync::{Arc, Mutex};

use eframe::egui::{self, Color32, Rect, epaint::ClippedShape};
use eframe::egui_wgpu;

use super::gpu::{UiCacheCallback, copy_rects};
use super::{PixelRect, SharedState, ViewportSlot, lock};

/// The egui side: decides each frame whether the cache can be used and whether it
/// must be redrawn.
pub struct UiCachePlugin {
    viewport: ViewportSlot,
    /// The UI shapes of each redraw asked for (by number) that the cache may
    /// hold: the one last drawn and any asked for since. What changed is worked
    /// out against the one drawn, which is what the texture holds.
    history: Vec<(u64, Arc<Vec<ClippedShape>>)>,
    /// The number of the last redraw asked for.
    generation: u64,
    /// The window size (points) and scale of the last redraw asked for.
    cached_screen: Option<(Rect, f32)>,
    /// A texture was replaced since the last redraw asked for.
    textures_changed: bool,
    /// What to copy from the cache (window pixels), worked out for the shapes of
    /// redraw `rects_generation` and the picture's pixels `hole`.
    rects: Arc<Vec<PixelRect>>,
    rects_generation: u64,
    /// The picture's pixels the copy leaves out.
    hole: Option<PixelRect>,
    shared: SharedState,
    /// Frames drawn from the cache / redrawn into it whole / painted the
    /// ordinary way / drawn from it after redrawing the regions that changed.
    pub counts: Arc<Mutex<[u64; 4]>>,
}

impl std::fmt::Debug for UiCachePlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UiCachePlugin")
            .field("history", &self.history.len())
            .field("shared", &self.shared)
            .finish_non_exhaustive()
    }
}

impl UiCachePlugin {
    pub fn new(viewport: ViewportSlot, shared: SharedState) -> Self {
        Self {
            viewport,
            history: Vec::new(),
            generation: 0,
            cached_screen: None,
            textures_changed: false,
            rects: Arc::default(),
            rects_generation: 0,
            hole: None,
            shared,
            counts: Arc::default(),
        }
    }
}

/// How a frame's shapes are painted.
#[derive(Debug, PartialEq, Eq)]
pub enum Split {
    /// The UI shapes (by index, in order) go to the cache; the rest are inside the
    /// viewport and stay live. `picture` is the viewport's picture among them.
    Cache {
        ui: Vec<usize>,
        live: Vec<usize>,
        picture: Option<usize>,
    },
    /// Something of the UI reaches into the viewport, or paints with a callback of
    /// its own: paint the frame the ordinary way.
    Ordinary,
}

/// Where a shape paints, in points: its bounds as drawn, within its clip.
fn painted(s: &ClippedShape) -> Rect {
    s.transform_after_tessellation
        .mul_rect(s.shape.visual_bounding_rect())
        .intersect(s.clip_rect)
}

/// Splits `shapes` by where they paint. The viewport's picture (the paint callback
/// filling the viewport rectangle) is opaque: what comes before it is beneath it,
/// hidden where it overlaps, and goes to the cache. After it, a shape painting
/// inside the viewport stays live; a UI shape painting more than a pixel into it,
/// or any other paint callback, makes the frame ordinary.
pub fn split(shapes: &[ClippedShape], viewport: Option<Rect>) -> Split {
    let picture = viewport.and_then(|v| {
        shapes
            .iter()
            .position(|s| matches!(&s.shape, egui::Shape::Callback(c) if c.rect == v))
    });
    let (mut ui, mut live) = (Vec::new(), Vec::new());
    for (i, s) in shapes.iter().enumerate() {
        if Some(i) == picture {
            live.push(i);
            continue;
        }
        if matches!(s.shape, egui::Shape::Callback(_)) {
            return Split::Ordinary;
        }
        let painted = painted(s);
        if !painted.is_positive() {
            // Paints nothing (an empty placeholder): neither.
            continue;
        }
        if picture.is_some_and(|p| i < p) {
            ui.push(i);
            continue;
        }
        let inside = viewport.is_some_and(|v| v.contains_rect(painted));
        if inside {
            live.push(i);
            continue;
        }
        if viewport.is_some_and(|v| v.shrink(1.0).intersect(painted).is_positive()) {
            return Split::Ordinary;
        }
        ui.push(i);
    }
    Split::Cache { ui, live, picture }
}

/// The window pixels the viewport's picture covers: its rectangle within its
/// clip, rounded as egui rounds a paint callback's viewport and scissor.
pub fn picture_pixels(picture: &ClippedShape, ppp: f32, size: [u32; 2]) -> Option<PixelRect> {
    let egui::Shape::Callback(c) = &picture.shape else {
        return None;
    };
    let px = |r: &Rect| {
        let v = egui::epaint::ViewportInPixels::from_points(r, ppp, size);
        let (x0, y0) = (v.left_px.max(0) as u32, v.top_px.max(0) as u32);
        PixelRect::new(
            x0,
            y0,
            x0 + v.width_px.max(0) as u32,
            y0 + v.height_px.max(0) as u32,
        )
    };
    px(&c.rect).intersect(px(&picture.clip_rect))
}

/// Whether every live shape but the picture paints inside `hole` (the picture's
/// pixels), anti-aliased fringe included: then copying the cache after the pass,
/// on top of what it drew, covers none of them.
pub(super) fn live_inside(
    shapes: &[ClippedShape],
    live: &[usize],
    picture: Option<usize>,
    ppp: f32,
    hole: Option<PixelRect>,
) -> bool {
    let Some(hole) = hole else {
        return live.iter().all(|&i| Some(i) == picture);
    };
    let hole = hole.to_points(1.0);
    live.iter().filter(|&&i| Some(i) != picture).all(|&i| {
        let painted = painted(&shapes[i]) * ppp;
        !painted.is_positive() || hole.contains_rect(painted.expand(1.0))
    })
}

impl egui::Plugin for UiCachePlugin {
    fn debug_name(&self) -> &'static str {
        "pebble ui cache"
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        pebble_core::profiling::time("UI cache: what changed, tessellated", || {
            self.cache_output(ctx, output)
        });
    }
}

impl UiCachePlugin {
    fn cache_output(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        let delta = &output.textures_delta;
        let mut shared = lock(&self.shared);
        if !delta.set.is_empty() || !delta.free.is_empty() {
            // A replaced image may be drawn by unchanged shapes: redraw all. An
            // image patched in place (the font atlas gaining glyphs) keeps the
            // texels the cache was drawn with.
            self.textures_changed |= delta
                .set
                .values()
                .any(|images| images.iter().any(|image| image.pos.is_none()));
            shared.pending_textures.append(delta.clone());
        }
        let viewport = lock(&self.viewport).take();
        let mut counts = lock(&self.counts);
        let Split::Cache { ui, live, picture } = split(&output.shapes, viewport) else {
            counts[2] += 1;
            return;
        };
        if ui.is_empty() {
            // Nothing but the viewport (the benchmark's bare frames): nothing to
            // cache, nothing to count.
            return;
        }
        let screen = ctx.content_rect();
        let ppp = ctx.pixels_per_point();
        let size = [
            (screen.width() * ppp).round() as u32,
            (screen.height() * ppp).round() as u32,
        ];
        let hole = picture.and_then(|p| picture_pixels(&output.shapes[p], ppp, size));
        let copy_after_pass =
            !shared.no_transfers && live_inside(&output.shapes, &live, picture, ppp, hole);
        let mut shapes: Vec<Option<ClippedShape>> = std::mem::take(&mut output.shapes)
            .into_iter()
            .map(Some)
            .collect();
        let ui_shapes: Arc<Vec<ClippedShape>> =
            Arc::new(ui.iter().filter_map(|&i| shapes[i].take()).collect());
        // The whole cache is redrawn at another size, after a replaced texture,
        // or when what it holds is not known; otherwise only the pixels where
        // the shapes differ from those it holds.
        if self.textures_changed || self.cached_screen != Some((screen, ppp)) {
            self.history.clear();
        }
        let drawn = shared.drawn;
        self.history.retain(|(g, _)| *g >= drawn);
        let held = self
            .history
            .iter()
            .find(|(g, _)| *g == drawn)
            .map(|(_, shapes)| shapes.clone());
        let update = match &held {
            None => Some(Update::Full),
            Some(held) if *held == ui_shapes => None,
            Some(held) => Some(
                changed_pixels(held, &ui_shapes, ppp, size).map_or(Update::Full, Update::Regions),
            ),
        };
        let panel_fill = ctx.global_style().visuals.panel_fill;
        let primitives = update.as_ref().map(|update| {
            let (shapes, clear) = match update {
                Update::Full => (ui_shapes.to_vec(), true),
                Update::Regions(regions) => {
                    (redraw_shapes(&ui_shapes, regions, ppp, panel_fill), false)
                }
            };
            let tessellated = pebble_core::profiling::time("UI cache: tessellate", || {
                ctx.tessellate(shapes, ppp)
            });
            (tessellated, clear)
        });
        counts[match update {
            None => 0,
            Some(Update::Full) => 1,
            Some(Update::Regions(_)) => 3,
        }] += 1;
        // The number of the redraw this frame shows.
        let shown = if update.is_some() {
            self.generation += 1;
            self.history.push((self.generation, ui_shapes.clone()));
            if self.history.len() > 32 {
                // Many frames laid out and never painted: forget the oldest.
                self.history.remove(0);
            }
            self.cached_screen = Some((screen, ppp));
            self.textures_changed = false;
            self.generation
        } else {
            drawn
        };
        if self.rects_generation != shown || self.hole != hole {
            let clear = shared.window_clear_is_panel_fill.then_some(panel_fill);
            self.rects = Arc::new(copy_rects(&ui_shapes, size, ppp, hole, clear));
            self.rects_generation = shown;
            self.hole = hole;
        }
        let callback = UiCacheCallback {
            primitives: primitives.map(|(p, clear)| (self.generation, p, clear)),
            rects: self.rects.clone(),
            copy_after_pass,
            // What the window is cleared to (the app's `clear_color`).
            clear_color: panel_fill.to_normalized_gamma_f32(),
        };
        output.shapes = std::iter::once(ClippedShape::new(
            screen,
            egui::Shape::Callback(egui_wgpu::Callback::new_paint_callback(screen, callback)),
        ))
        .chain(live.iter().filter_map(|&i| shapes[i].take()))
        .collect();
    }
}

/// How the cache is brought up to date.
#[derive(Debug, PartialEq)]
pub(super) enum Update {
    Full,
    /// Only these pixels (disjoint rectangles) changed.
    Regions(Vec<PixelRect>),
}

/// Where a shape paints, in window pixels (its anti-aliased fringe included),
/// rounded out to whole pixels and limited to the window; `None` when nowhere.
fn painted_pixels(s: &ClippedShape, ppp: f32, size: [u32; 2]) -> Option<PixelRect> {
    let r = (painted(s) * ppp).expand(1.0);
    if !r.is_positive() {
        return None;
    }
    let x0 = (r.min.x.floor().max(0.0) as u32).min(size[0]);
    let y0 = (r.min.y.floor().max(0.0) as u32).min(size[1]);
    let x1 = (r.max.x.ceil().max(0.0) as u32).min(size[0]);
    let y1 = (r.max.y.ceil().max(0.0) as u32).min(size[1]);
    let r = PixelRect::new(x0, y0, x1, y1);
    (!r.is_empty()).then_some(r)
}

/// The regions a redraw covers at most before a whole one is cheaper, and the
/// share of the window.
const MAX_REGIONS: usize = 16;
const MAX_SHARE: f32 = 0.5;

/// The window pixels where `new` paints differently from `old` (both a frame's
/// UI shapes, in painting order), as a few disjoint rectangles; `None` when that
/// is most of the window (redraw it all).
///
/// Outside the shapes that differ, every pixel is painted by the same shapes in
/// the same order in both: when the lists are as long, those at the same index
/// that are equal; otherwise those of their common start and common end. So
/// repainting only where the differing shapes (old and new) paint, with every
/// shape that touches there, gives the pixels a whole redraw would.
pub(super) fn changed_pixels(
    old: &[ClippedShape],
    new: &[ClippedShape],
    ppp: f32,
    size: [u32; 2],
) -> Option<Vec<PixelRect>> {
    let mut changed: Vec<&ClippedShape> = Vec::new();
    if old.len() == new.len() {
        for (a, b) in old.iter().zip(new) {
            if a != b {
                changed.extend([a, b]);
            }
        }
    } else {
        let start = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let end = old[start..]
            .iter()
            .rev()
            .zip(new[start..].iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        changed.extend(&old[start..old.len() - end]);
        changed.extend(&new[start..new.len() - end]);
    }
    let mut regions: Vec<PixelRect> = Vec::new();
    for r in changed.iter().filter_map(|s| painted_pixels(s, ppp, size)) {
        add_region(&mut regions, r);
    }
    let area: u64 = regions.iter().map(PixelRect::area).sum();
    let window = u64::from(size[0]) * u64::from(size[1]);
    (regions.len() <= MAX_REGIONS && (area as f32) <= MAX_SHARE * window as f32).then_some(regions)
}

/// Adds `r` to disjoint `regions`, merging it with every region it overlaps or
/// nearly touches (few regions, each redrawn with the shapes touching it).
fn add_region(regions: &mut Vec<PixelRect>, mut r: PixelRect) {
    const NEAR: u32 = 8;
    while let Some(i) = regions.iter().position(|q| r.within(q, NEAR)) {
        r = r.union(regions.swap_remove(i));
    }
    regions.push(r);
}

/// The shapes that redraw `regions` of the cache: per region, a fill of the
/// cache's background colour, then every shape painting there, clipped to it.
pub(super) fn redraw_shapes(
    shapes: &[ClippedShape],
    regions: &[PixelRect],
    ppp: f32,
    background: Color32,
) -> Vec<ClippedShape> {
    let mut out = Vec::new();
    for region in regions {
        let region = region.to_points(ppp);
        // Larger than the region, so that its anti-aliased edge falls outside.
        out.push(ClippedShape::new(
            region,
            egui::Shape::rect_filled(region.expand(2.0), 0.0, background),
        ));
        for s in shapes {
            let clip = s.clip_rect.intersect(region);
            let painted = s
                .transform_after_tessellation
                .mul_rect(s.shape.visual_bounding_rect())
                .expand(1.0 / ppp);
            if clip.is_positive() && painted.intersects(clip) {
                out.push(ClippedShape {
                    clip_rect: clip,
                    shape: s.shape.clone(),
                    transform_after_tessellation: s.transform_after_tessellation,
                });
            }
        }
    }
    out
}
