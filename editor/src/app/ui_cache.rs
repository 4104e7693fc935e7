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

use std::sync::{Arc, Mutex};

use eframe::egui::{self, ClippedPrimitive, Color32, Rect, epaint::ClippedShape};
use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, ScreenDescriptor};
use eframe::wgpu;

/// Where the viewport's picture is this frame, in points (set by the app while it
/// lays the viewport out; `None` when no viewport is shown).
pub type ViewportSlot = Arc<Mutex<Option<Rect>>>;

/// What the plugin and the GPU side share. Texture changes wait here until a
/// frame's callback is prepared, and the cache counts as holding a redraw only
/// once a prepared callback drew it: a frame that is laid out but never painted
/// (a minimised window, a test rendering only some frames) loses nothing.
#[derive(Debug, Default)]
pub struct Shared {
    pending_textures: egui::TexturesDelta,
    /// The number of the last redraw drawn into the cache (0: none yet).
    drawn: u64,
    /// The window is cleared to the panels' fill (eframe, with the app's
    /// `clear_color`): tiles of the cache holding only that colour need no copy.
    pub window_clear_is_panel_fill: bool,
    /// Frames whose copy was made after the pass, as transfers.
    pub copied_after_pass: u64,
}

pub type SharedState = Arc<Mutex<Shared>>;

impl Drop for Shared {
    fn drop(&mut self) {
        // Changes for a renderer that is going away with us.
        self.pending_textures.clear();
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

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
    rects: Arc<Vec<[u32; 4]>>,
    rects_generation: u64,
    /// The picture's pixels the copy leaves out.
    hole: Option<[u32; 4]>,
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

/// The window pixels (x0, y0, x1, y1) the viewport's picture covers: its
/// rectangle within its clip, rounded as egui rounds a paint callback's viewport
/// and scissor.
pub fn picture_pixels(picture: &ClippedShape, ppp: f32, size: [u32; 2]) -> Option<[u32; 4]> {
    let egui::Shape::Callback(c) = &picture.shape else {
        return None;
    };
    let px = |r: &Rect| {
        let v = egui::epaint::ViewportInPixels::from_points(r, ppp, size);
        let (x0, y0) = (v.left_px.max(0) as u32, v.top_px.max(0) as u32);
        [
            x0,
            y0,
            x0 + v.width_px.max(0) as u32,
            y0 + v.height_px.max(0) as u32,
        ]
    };
    let (v, c) = (px(&c.rect), px(&picture.clip_rect));
    let r = [
        v[0].max(c[0]),
        v[1].max(c[1]),
        v[2].min(c[2]),
        v[3].min(c[3]),
    ];
    (r[0] < r[2] && r[1] < r[3]).then_some(r)
}

/// Whether every live shape but the picture paints inside `hole` (the picture's
/// pixels), anti-aliased fringe included: then copying the cache after the pass,
/// on top of what it drew, covers none of them.
fn live_inside(
    shapes: &[ClippedShape],
    live: &[usize],
    picture: Option<usize>,
    ppp: f32,
    hole: Option<[u32; 4]>,
) -> bool {
    let Some([x0, y0, x1, y1]) = hole else {
        return live.iter().all(|&i| Some(i) == picture);
    };
    let hole = Rect::from_min_max(
        egui::pos2(x0 as f32, y0 as f32),
        egui::pos2(x1 as f32, y1 as f32),
    );
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
        let copy_after_pass = live_inside(&output.shapes, &live, picture, ppp, hole);
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
            (ctx.tessellate(shapes, ppp), clear)
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
enum Update {
    Full,
    /// Only these pixels (x0, y0, x1, y1; disjoint) changed.
    Regions(Vec<[u32; 4]>),
}

/// Where a shape paints, in window pixels (its anti-aliased fringe included),
/// rounded out to whole pixels and limited to the window; `None` when nowhere.
fn painted_pixels(s: &ClippedShape, ppp: f32, size: [u32; 2]) -> Option<[u32; 4]> {
    let r = (painted(s) * ppp).expand(1.0);
    if !r.is_positive() {
        return None;
    }
    let x0 = (r.min.x.floor().max(0.0) as u32).min(size[0]);
    let y0 = (r.min.y.floor().max(0.0) as u32).min(size[1]);
    let x1 = (r.max.x.ceil().max(0.0) as u32).min(size[0]);
    let y1 = (r.max.y.ceil().max(0.0) as u32).min(size[1]);
    (x0 < x1 && y0 < y1).then_some([x0, y0, x1, y1])
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
fn changed_pixels(
    old: &[ClippedShape],
    new: &[ClippedShape],
    ppp: f32,
    size: [u32; 2],
) -> Option<Vec<[u32; 4]>> {
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
    let mut regions: Vec<[u32; 4]> = Vec::new();
    for r in changed.iter().filter_map(|s| painted_pixels(s, ppp, size)) {
        add_region(&mut regions, r);
    }
    let area: u64 = regions
        .iter()
        .map(|r| u64::from(r[2] - r[0]) * u64::from(r[3] - r[1]))
        .sum();
    let window = u64::from(size[0]) * u64::from(size[1]);
    (regions.len() <= MAX_REGIONS && (area as f32) <= MAX_SHARE * window as f32).then_some(regions)
}

/// Adds `r` to disjoint `regions`, merging it with every region it overlaps or
/// nearly touches (few regions, each redrawn with the shapes touching it).
fn add_region(regions: &mut Vec<[u32; 4]>, mut r: [u32; 4]) {
    const NEAR: u32 = 8;
    loop {
        let near = regions.iter().position(|q| {
            r[0] < q[2] + NEAR && q[0] < r[2] + NEAR && r[1] < q[3] + NEAR && q[1] < r[3] + NEAR
        });
        let Some(i) = near else { break };
        let q = regions.swap_remove(i);
        r = [
            r[0].min(q[0]),
            r[1].min(q[1]),
            r[2].max(q[2]),
            r[3].max(q[3]),
        ];
    }
    regions.push(r);
}

/// The shapes that redraw `regions` of the cache: per region, a fill of the
/// cache's background colour, then every shape painting there, clipped to it.
fn redraw_shapes(
    shapes: &[ClippedShape],
    regions: &[[u32; 4]],
    ppp: f32,
    background: Color32,
) -> Vec<ClippedShape> {
    let mut out = Vec::new();
    for &[x0, y0, x1, y1] in regions {
        let region = Rect::from_min_max(
            egui::pos2(x0 as f32, y0 as f32),
            egui::pos2(x1 as f32, y1 as f32),
        ) / ppp;
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

/// This frame's UI: the primitives to redraw the cache with (none when it holds
/// them already), and where not to copy it.
struct UiCacheCallback {
    /// The redraw's number, what to draw, and whether to clear the cache first
    /// (a whole redraw) or draw over it (changed regions).
    primitives: Option<(u64, Vec<ClippedPrimitive>, bool)>,
    /// What to copy to the window.
    rects: Arc<Vec<[u32; 4]>>,
    /// Nothing live paints where the copy goes: it may be made after the pass
    /// (a transfer, when the painter offers [`egui_wgpu::TargetCopies`]) instead
    /// of drawn in it.
    copy_after_pass: bool,
    clear_color: [f32; 4],
}

const COPY: &str = r#"
@group(0) @binding(0) var cache: texture_2d<f32>;

@vertex
fn vs_main(@location(0) pos: vec2<f32>) -> @builtin(position) vec4<f32> {
    return vec4<f32>(pos, 0.0, 1.0);
}

// Each window pixel reads its own cache pixel: no filtering, no addressing
// arithmetic (the cheapest form for a software rasterizer).
@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return textureLoad(cache, vec2<i32>(position.xy), 0);
}
"#;

/// Two triangles of clip-space positions per rectangle.
const RECT_BYTES: u64 = 6 * 8;

/// The GPU side, in egui_wgpu's callback resources: the cache's own egui renderer
/// (same options as the window's), the cache texture and the copy pipeline.
pub struct UiCacheResources {
    shared: SharedState,
    renderer: egui_wgpu::Renderer,
    format: wgpu::TextureFormat,
    copy: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    /// The copy's rectangles as triangles, and how many rectangles.
    quads: wgpu::Buffer,
    quad_count: u32,
    /// The rectangles `quads` holds.
    written: Option<Arc<Vec<[u32; 4]>>>,
    /// The cache texture, its view and bind group, and its size in pixels.
    target: Option<(wgpu::Texture, wgpu::TextureView, wgpu::BindGroup, [u32; 2])>,
    /// This frame's copy is drawn in the pass (not copied after it).
    copy_in_pass: bool,
}

impl std::fmt::Debug for UiCacheResources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UiCacheResources")
            .field("format", &self.format)
            .field("size", &self.target.as_ref().map(|t| t.3))
            .finish_non_exhaustive()
    }
}

impl UiCacheResources {
    pub fn new(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        options: egui_wgpu::RendererOptions,
        shared: SharedState,
    ) -> Self {
        let renderer = egui_wgpu::Renderer::new(
            device,
            format,
            egui_wgpu::RendererOptions {
                // The cache has no depth buffer and one sample per pixel; the copy
                // goes into whatever the window has.
                msaa_samples: 1,
                depth_stencil_format: None,
                ..options
            },
        );
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("ui cache"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        });
        let copy = super::viewport::copy_pipeline(
            device,
            "ui cache copy",
            COPY,
            &layout,
            &[Some(wgpu::VertexBufferLayout {
                array_stride: 8,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &wgpu::vertex_attr_array![0 => Float32x2],
            })],
            "fs_main",
            format,
        );
        let quads = quad_buffer(device, 64);
        Self {
            shared,
            renderer,
            format,
            copy,
            layout,
            quads,
            quad_count: 0,
            written: None,
            target: None,
            copy_in_pass: true,
        }
    }

    fn target_for(&mut self, device: &wgpu::Device, size: [u32; 2]) -> &wgpu::TextureView {
        if self.target.as_ref().is_none_or(|t| t.3 != size) {
            let texture = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("ui cache"),
                size: wgpu::Extent3d {
                    width: size[0].max(1),
                    height: size[1].max(1),
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: self.format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::TEXTURE_BINDING
                    | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            });
            let view = texture.create_view(&Default::default());
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("ui cache"),
                layout: &self.layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                }],
            });
            self.target = Some((texture, view, group, size));
        }
        &self.target.as_ref().expect("just made").1
    }
}

fn quad_buffer(device: &wgpu::Device, rects: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("ui cache quads"),
        size: rects * RECT_BYTES,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The side of the square tiles the copy is worked out in, pixels.
const TILE: u32 = 16;

/// Whether `r` only repaints the clear colour inside (opaque, square corners, no
/// outline, blur, texture or turn): where it alone paints, the cleared window
/// already looks like the cache. Its anti-aliased edge may round differently, so
/// that stays copied.
fn is_background(r: &egui::epaint::RectShape, clear: Color32) -> bool {
    clear.a() == 255
        && r.fill == clear
        && r.corner_radius == egui::CornerRadius::ZERO
        && r.blur_width == 0.0
        && r.brush.is_none()
        && r.angle == 0.0
        && (r.stroke.width == 0.0 || r.stroke.color.a() == 0)
}

/// The window rectangles (pixels: x, y, width, height) to copy from the cache:
/// every 16-pixel tile the UI paints into, outside `hole` (the pixels the
/// viewport's picture covers, x0, y0, x1, y1: [`picture_pixels`]). With `clear`
/// (the colour the window is cleared to) known, tiles where the UI only paints
/// the inside of background rectangles of that colour are left out: the cleared
/// window already shows them.
pub fn copy_rects(
    shapes: &[ClippedShape],
    size: [u32; 2],
    ppp: f32,
    hole: Option<[u32; 4]>,
    clear: Option<Color32>,
) -> Vec<[u32; 4]> {
    let [w, h] = size;
    let (tw, th) = (w.div_ceil(TILE), h.div_ceil(TILE));
    let mut needed = vec![clear.is_none(); (tw * th) as usize];
    if let Some(clear) = clear {
        let window = Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w as f32, h as f32));
        let mut mark = |r: Rect| {
            let r = r.intersect(window);
            if !r.is_positive() {
                return;
            }
            let t = TILE as f32;
            let (x0, y0) = ((r.min.x / t) as u32, (r.min.y / t) as u32);
            let x1 = ((r.max.x / t).ceil() as u32).min(tw);
            let y1 = ((r.max.y / t).ceil() as u32).min(th);
            for ty in y0..y1 {
                for tx in x0..x1 {
                    needed[(ty * tw + tx) as usize] = true;
                }
            }
        };
        for s in shapes {
            let clip = s.clip_rect * ppp;
            let transform = s.transform_after_tessellation;
            match &s.shape {
                egui::Shape::Rect(r)
                    if is_background(r, clear)
                        && transform == egui::emath::TSTransform::IDENTITY =>
                {
                    let rect = r.rect * ppp;
                    let (outer, inner) = (rect.expand(2.0), rect.shrink(2.0));
                    if !inner.is_positive() {
                        mark(outer.intersect(clip));
                        continue;
                    }
                    let strips = [
                        Rect::from_x_y_ranges(outer.x_range(), outer.min.y..=inner.min.y),
                        Rect::from_x_y_ranges(outer.x_range(), inner.max.y..=outer.max.y),
                        Rect::from_x_y_ranges(outer.min.x..=inner.min.x, inner.y_range()),
                        Rect::from_x_y_ranges(inner.max.x..=outer.max.x, inner.y_range()),
                    ];
                    for strip in strips {
                        mark(strip.intersect(clip));
                    }
                }
                shape => {
                    let painted = transform.mul_rect(shape.visual_bounding_rect()) * ppp;
                    mark(painted.expand(1.0).intersect(clip));
                }
            }
        }
    }
    // Runs of needed tiles along each row, a run continuing the same run of the
    // row above growing downwards: few, tall rectangles (a software rasterizer
    // pays for every triangle).
    let mut open: Vec<[u32; 4]> = Vec::new();
    let mut closed = Vec::new();
    for ty in 0..th {
        let mut runs = Vec::new();
        let mut tx = 0;
        while tx < tw {
            if !needed[(ty * tw + tx) as usize] {
                tx += 1;
                continue;
            }
            let start = tx;
            while tx < tw && needed[(ty * tw + tx) as usize] {
                tx += 1;
            }
            runs.push((start * TILE, (tx * TILE).min(w)));
        }
        let y1 = ((ty + 1) * TILE).min(h);
        let mut next = Vec::with_capacity(runs.len());
        for (x0, x1) in runs {
            match open.iter().position(|r| r[0] == x0 && r[2] == x1) {
                Some(i) => {
                    let mut r = open.swap_remove(i);
                    r[3] = y1;
                    next.push(r);
                }
                None => next.push([x0, ty * TILE, x1, y1]),
            }
        }
        closed.append(&mut open);
        open = next;
    }
    closed.append(&mut open);
    closed
        .into_iter()
        .flat_map(|r| subtract(r, hole))
        .map(|[x0, y0, x1, y1]| [x0, y0, x1 - x0, y1 - y0])
        .collect()
}

/// `r` without `hole` (both as x0, y0, x1, y1): up to four pieces.
fn subtract(r: [u32; 4], hole: Option<[u32; 4]>) -> Vec<[u32; 4]> {
    let [rx0, ry0, rx1, ry1] = r;
    let Some([hx0, hy0, hx1, hy1]) = hole else {
        return vec![r];
    };
    let (ix0, iy0, ix1, iy1) = (rx0.max(hx0), ry0.max(hy0), rx1.min(hx1), ry1.min(hy1));
    if ix0 >= ix1 || iy0 >= iy1 {
        return vec![r];
    }
    [
        [rx0, ry0, rx1, iy0],
        [rx0, iy1, rx1, ry1],
        [rx0, iy0, ix0, iy1],
        [ix1, iy0, rx1, iy1],
    ]
    .into_iter()
    .filter(|[x0, y0, x1, y1]| x0 < x1 && y0 < y1)
    .collect()
}

/// The rectangles as triangles of clip-space positions in a window of `size`.
fn rect_vertices(size: [u32; 2], rects: &[[u32; 4]]) -> Vec<f32> {
    let (w, h) = (size[0].max(1) as f32, size[1].max(1) as f32);
    let mut out = Vec::with_capacity(rects.len() * 12);
    for &[x, y, rw, rh] in rects {
        let (x0, x1) = (x as f32 / w * 2.0 - 1.0, (x + rw) as f32 / w * 2.0 - 1.0);
        let (y0, y1) = (1.0 - y as f32 / h * 2.0, 1.0 - (y + rh) as f32 / h * 2.0);
        out.extend([x0, y0, x1, y0, x0, y1, x0, y1, x1, y0, x1, y1]);
    }
    out
}

impl CallbackTrait for UiCacheCallback {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        screen: &ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(res) = resources.get_mut::<UiCacheResources>() else {
            return Vec::new();
        };
        let mut textures = std::mem::take(&mut lock(&res.shared).pending_textures);
        for (id, images) in textures.set.drain() {
            for image in images {
                res.renderer.update_texture(device, queue, id, &image);
            }
        }
        for id in textures.free.drain() {
            res.renderer.free_texture(&id);
        }
        let size = screen.size_in_pixels;
        if res
            .written
            .as_ref()
            .is_none_or(|w| !Arc::ptr_eq(w, &self.rects))
        {
            let vertices = rect_vertices(size, &self.rects);
            let bytes: &[u8] = bytemuck::cast_slice(&vertices);
            if bytes.len() as u64 > res.quads.size() {
                res.quads = quad_buffer(device, self.rects.len() as u64 * 2);
            }
            queue.write_buffer(&res.quads, 0, bytes);
            res.quad_count = self.rects.len() as u32;
            res.written = Some(self.rects.clone());
        }
        let commands = self.redraw(device, queue, screen, encoder, res);
        // Copied after the pass when the painter can (see `TargetCopies`):
        // queued here, after the redraw above in the same encoder.
        res.copy_in_pass = true;
        let texture = res.target.as_ref().map(|t| t.0.clone());
        if self.copy_after_pass
            && let Some(texture) = texture
            && let Some(copies) = resources.get_mut::<egui_wgpu::TargetCopies>()
        {
            copies.push(texture, self.rects.to_vec());
            if let Some(res) = resources.get_mut::<UiCacheResources>() {
                res.copy_in_pass = false;
                lock(&res.shared).copied_after_pass += 1;
            }
        }
        commands
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        let Some(res) = resources.get::<UiCacheResources>() else {
            return;
        };
        let Some((_, _, group, _)) = &res.target else {
            return;
        };
        if res.quad_count == 0 || !res.copy_in_pass {
            return;
        }
        pass.set_pipeline(&res.copy);
        pass.set_bind_group(0, group, &[]);
        pass.set_vertex_buffer(0, res.quads.slice(..));
        pass.draw(0..6 * res.quad_count, 0..1);
    }
}

impl UiCacheCallback {
    /// Redraws the cache when this frame brings new primitives.
    fn redraw(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        screen: &ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        res: &mut UiCacheResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some((generation, primitives, clear)) = &self.primitives else {
            return Vec::new();
        };
        res.target_for(device, screen.size_in_pixels);
        let commands = res
            .renderer
            .update_buffers(device, queue, encoder, primitives, screen);
        let view = &res.target.as_ref().expect("made above").1;
        let [r, g, b, a] = self.clear_color.map(f64::from);
        let mut pass = encoder
            .begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("ui cache"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    resolve_target: None,
                    depth_slice: None,
                    ops: wgpu::Operations {
                        load: if *clear {
                            wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a })
                        } else {
                            wgpu::LoadOp::Load
                        },
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            })
            .forget_lifetime();
        res.renderer.render(&mut pass, primitives, screen);
        lock(&res.shared).drawn = *generation;
        commands
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{Color32, Shape, pos2, vec2};

    fn rect_shape(r: Rect) -> ClippedShape {
        ClippedShape::new(Rect::EVERYTHING, Shape::rect_filled(r, 0.0, Color32::RED))
    }

    /// A stand-in for the viewport's picture: a paint callback filling `rect`.
    fn picture(rect: Rect) -> ClippedShape {
        ClippedShape::new(
            Rect::EVERYTHING,
            Shape::Callback(egui::epaint::PaintCallback {
                rect,
                callback: Arc::new(()),
            }),
        )
    }

    #[test]
    fn shapes_split_into_live_viewport_and_cached_ui() {
        let viewport = Rect::from_min_size(pos2(100.0, 50.0), vec2(400.0, 300.0));
        let shapes = vec![
            // The window's background, beneath the picture.
            rect_shape(Rect::from_min_size(pos2(0.0, 0.0), vec2(800.0, 600.0))),
            picture(viewport),
            rect_shape(Rect::from_min_size(pos2(0.0, 0.0), vec2(100.0, 400.0))),
            rect_shape(Rect::from_min_size(pos2(450.0, 60.0), vec2(40.0, 40.0))),
            rect_shape(Rect::from_min_size(pos2(500.0, 0.0), vec2(50.0, 50.0))),
        ];
        assert_eq!(
            split(&shapes, Some(viewport)),
            Split::Cache {
                ui: vec![0, 2, 4],
                live: vec![1, 3],
                picture: Some(1),
            }
        );
        // Without a viewport every shape is UI, and a paint callback among them
        // (here the picture) cannot be cached.
        assert_eq!(
            split(&shapes[2..], None),
            Split::Cache {
                ui: vec![0, 1, 2],
                live: vec![],
                picture: None,
            }
        );
        assert_eq!(split(&shapes, None), Split::Ordinary);
        // A menu over the picture: an ordinary frame.
        let mut with_menu = shapes.clone();
        with_menu.push(rect_shape(Rect::from_min_size(
            pos2(80.0, 30.0),
            vec2(100.0, 200.0),
        )));
        assert_eq!(split(&with_menu, Some(viewport)), Split::Ordinary);
        // Clipped to outside the viewport, it is UI again.
        with_menu[5].clip_rect = Rect::from_min_max(pos2(0.0, 0.0), pos2(100.0, 800.0));
        assert!(matches!(
            split(&with_menu, Some(viewport)),
            Split::Cache { .. }
        ));
        // A shape painting nothing (an empty frame's placeholder) is neither.
        let mut with_noop = vec![ClippedShape::new(Rect::EVERYTHING, Shape::Noop)];
        with_noop.extend(shapes.iter().cloned());
        assert_eq!(
            split(&with_noop, Some(viewport)),
            Split::Cache {
                ui: vec![1, 3, 5],
                live: vec![2, 4],
                picture: Some(2),
            }
        );
        // Touching the viewport's edge (a tab's underline) is not reaching in.
        let mut underline = shapes.clone();
        underline.push(rect_shape(Rect::from_min_max(
            pos2(100.0, 49.0),
            pos2(200.0, 51.0),
        )));
        assert!(matches!(
            split(&underline, Some(viewport)),
            Split::Cache { .. }
        ));
    }

    fn coverage(rects: &[[u32; 4]], x: u32, y: u32) -> usize {
        rects
            .iter()
            .filter(|r| x >= r[0] && x < r[0] + r[2] && y >= r[1] && y < r[1] + r[3])
            .count()
    }

    #[test]
    fn the_copy_covers_the_window_except_the_pictures_pixels() {
        let size = [200, 100];
        let viewport = Rect::from_min_max(pos2(50.4, 20.6), pos2(150.5, 80.0));
        // Rounded as egui rounds a paint callback's viewport.
        let hole = picture_pixels(&picture(viewport), 1.0, size);
        assert_eq!(hole, Some([50, 21, 151, 80]));
        // The clear colour unknown: every pixel but the picture's is copied, once.
        let rects = copy_rects(&[], size, 1.0, hole, None);
        for y in 0..100 {
            for x in 0..200 {
                let in_hole = (50..151).contains(&x) && (21..80).contains(&y);
                assert_eq!(
                    coverage(&rects, x, y),
                    usize::from(!in_hole),
                    "pixel {x},{y}"
                );
            }
        }
        // Rows of the same run merge: the window around the hole is four pieces.
        assert_eq!(rects.len(), 4, "{rects:?}");
        // At twice the pixels per point the hole scales with the viewport.
        let hole = picture_pixels(&picture(viewport), 2.0, [400, 200]);
        assert_eq!(hole, Some([101, 41, 301, 160]));
        // A picture clipped (a panel narrower than the viewport): the clip's
        // pixels; clipped away entirely: no hole.
        let mut clipped = picture(viewport);
        clipped.clip_rect = Rect::from_min_max(pos2(0.0, 0.0), pos2(100.2, 60.0));
        assert_eq!(picture_pixels(&clipped, 1.0, size), Some([50, 21, 100, 60]));
        clipped.clip_rect = Rect::from_min_max(pos2(0.0, 0.0), pos2(40.0, 60.0));
        assert_eq!(picture_pixels(&clipped, 1.0, size), None);
        // Off the window's edge: clamped to it.
        let beyond = Rect::from_min_max(pos2(-10.0, 50.0), pos2(260.0, 130.0));
        assert_eq!(
            picture_pixels(&picture(beyond), 1.0, size),
            Some([0, 50, 200, 100])
        );
    }

    #[test]
    fn the_copy_goes_after_the_pass_only_when_nothing_live_is_under_it() {
        let viewport = Rect::from_min_max(pos2(100.0, 50.0), pos2(500.0, 350.0));
        let mut shapes = vec![
            picture(viewport),
            // The view cube, well inside.
            rect_shape(Rect::from_min_size(pos2(420.0, 60.0), vec2(60.0, 60.0))),
        ];
        let hole = picture_pixels(&shapes[0], 1.0, [800, 600]);
        assert!(live_inside(&shapes, &[0, 1], Some(0), 1.0, hole));
        // A live shape touching the picture's edge: its fringe would lie under
        // the copy, which must then be drawn beneath it, in the pass.
        shapes.push(rect_shape(Rect::from_min_max(
            pos2(100.0, 340.0),
            pos2(140.0, 350.0),
        )));
        assert!(!live_inside(&shapes, &[0, 1, 2], Some(0), 1.0, hole));
        // At twice the pixels per point the fringe is a smaller part of a point.
        let hole2 = picture_pixels(&shapes[0], 2.0, [1600, 1200]);
        assert!(live_inside(&shapes, &[0, 1], Some(0), 2.0, hole2));
        assert!(!live_inside(&shapes, &[0, 1, 2], Some(0), 2.0, hole2));
        // No picture: only frames without live shapes qualify.
        assert!(live_inside(&shapes, &[], None, 1.0, None));
        assert!(!live_inside(&shapes, &[1], None, 1.0, None));
    }

    #[test]
    fn only_the_pixels_of_changed_shapes_are_redrawn() {
        let size = [800, 600];
        let at = |x: f32, y: f32| rect_shape(Rect::from_min_size(pos2(x, y), vec2(20.0, 10.0)));
        let old = vec![at(0.0, 0.0), at(100.0, 100.0), at(400.0, 500.0)];
        // Unchanged: nothing to redraw.
        assert_eq!(changed_pixels(&old, &old, 1.0, size), Some(vec![]));
        // One shape moved: where it was and where it is (its fringe included),
        // separately when far apart.
        let mut moved = old.clone();
        moved[1] = at(300.0, 100.0);
        let regions = changed_pixels(&old, &moved, 1.0, size).expect("small");
        assert_eq!(regions.len(), 2, "{regions:?}");
        assert!(regions.contains(&[99, 99, 121, 111]), "{regions:?}");
        assert!(regions.contains(&[299, 99, 321, 111]), "{regions:?}");
        // A shape inserted: the differing middle of the two lists; the shapes
        // of their common start and end stay.
        let mut inserted = old.clone();
        inserted.insert(1, at(600.0, 20.0));
        let regions = changed_pixels(&old, &inserted, 1.0, size).expect("small");
        assert_eq!(regions, vec![[599, 19, 621, 31]]);
        // Near regions merge into one; overlapping ones too.
        let mut near = old.clone();
        near[0] = at(0.0, 12.0);
        let regions = changed_pixels(&old, &near, 1.0, size).expect("small");
        assert_eq!(regions, vec![[0, 0, 21, 23]]);
        // Most of the window changed: redraw it whole.
        let big = vec![rect_shape(Rect::from_min_size(
            pos2(0.0, 0.0),
            vec2(700.0, 500.0),
        ))];
        assert_eq!(changed_pixels(&old[..1], &big, 1.0, size), None);
    }

    #[test]
    fn a_redraw_of_regions_clears_them_and_paints_what_touches_them() {
        let background = Color32::from_gray(27);
        let shapes = vec![
            rect_shape(Rect::from_min_size(pos2(0.0, 0.0), vec2(50.0, 50.0))),
            rect_shape(Rect::from_min_size(pos2(200.0, 200.0), vec2(10.0, 10.0))),
        ];
        let out = redraw_shapes(&shapes, &[[40, 40, 60, 60]], 2.0, background);
        // The fill, then only the shape touching the region, clipped to it (in
        // points: pixels / 2).
        assert_eq!(out.len(), 2);
        let region = Rect::from_min_max(pos2(20.0, 20.0), pos2(30.0, 30.0));
        assert_eq!(out[0].clip_rect, region);
        assert!(
            matches!(&out[0].shape, Shape::Rect(r) if r.fill == background && r.rect.contains_rect(region))
        );
        assert_eq!(out[1].clip_rect, region);
        assert_eq!(out[1].shape, shapes[0].shape);
    }

    #[test]
    fn tiles_showing_only_the_clear_colour_are_not_copied() {
        let clear = Color32::from_gray(27);
        let size = [256, 128];
        let window = Rect::from_min_size(pos2(0.0, 0.0), vec2(256.0, 128.0));
        let shapes = vec![
            ClippedShape::new(Rect::EVERYTHING, Shape::rect_filled(window, 0.0, clear)),
            // A label in the tile at (96..128, 32..64).
            rect_shape(Rect::from_min_size(pos2(100.0, 40.0), vec2(10.0, 10.0))),
        ];
        let rects = copy_rects(&shapes, size, 1.0, None, Some(clear));
        assert_eq!(coverage(&rects, 105, 45), 1, "the label's tile");
        assert_eq!(coverage(&rects, 96, 33), 1, "the whole tile");
        assert_eq!(coverage(&rects, 180, 80), 0, "the background's inside");
        assert_eq!(coverage(&rects, 0, 64), 1, "the background's edge");
        // Another colour, rounded corners or an unknown clear: all copied.
        let other = vec![ClippedShape::new(
            Rect::EVERYTHING,
            Shape::rect_filled(window, 0.0, Color32::from_gray(28)),
        )];
        let rounded = vec![ClippedShape::new(
            Rect::EVERYTHING,
            Shape::rect_filled(window, 4.0, clear),
        )];
        for (shapes, clear) in [
            (&other, Some(clear)),
            (&rounded, Some(clear)),
            (&shapes, None),
        ] {
            let rects = copy_rects(shapes, size, 1.0, None, clear);
            assert_eq!(coverage(&rects, 180, 80), 1);
        }
        // The copy rectangles never overlap.
        for y in (0..128).step_by(3) {
            for x in (0..256).step_by(3) {
                assert!(coverage(&rects, x, y) <= 1);
            }
        }
    }
}
