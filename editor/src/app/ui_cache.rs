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

use eframe::egui::{self, ClippedPrimitive, Rect, epaint::ClippedShape};
use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, ScreenDescriptor};
use eframe::wgpu;

/// Where the viewport's picture is this frame, in points (set by the app while it
/// lays the viewport out; `None` when no viewport is shown).
pub type ViewportSlot = Arc<Mutex<Option<Rect>>>;

/// What the plugin and the GPU side share. Texture changes wait here until a
/// frame's callback is prepared, and the cache counts as holding a UI only once a
/// prepared callback drew it: a frame that is laid out but never painted (a
/// minimised window, a test rendering only some frames) loses nothing.
#[derive(Debug, Default)]
pub struct Shared {
    pending_textures: egui::TexturesDelta,
    /// The last redraw asked for, and the last one done.
    requested: u64,
    drawn: u64,
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
    /// The UI shapes the cache texture holds.
    cached: Vec<ClippedShape>,
    /// The window size (points) and scale the cache was drawn at.
    cached_screen: Option<(Rect, f32)>,
    /// A texture changed since the last redraw.
    textures_changed: bool,
    shared: SharedState,
    /// Frames drawn from the cache / redrawn into it / painted the ordinary way.
    pub counts: Arc<Mutex<[u64; 3]>>,
}

impl std::fmt::Debug for UiCachePlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UiCachePlugin")
            .field("cached_shapes", &self.cached.len())
            .field("shared", &self.shared)
            .finish_non_exhaustive()
    }
}

impl UiCachePlugin {
    pub fn new(viewport: ViewportSlot, shared: SharedState) -> Self {
        Self {
            viewport,
            cached: Vec::new(),
            cached_screen: None,
            textures_changed: false,
            shared,
            counts: Arc::default(),
        }
    }
}

/// How a frame's shapes are painted.
#[derive(Debug, PartialEq, Eq)]
pub enum Split {
    /// The UI shapes (by index, in order) go to the cache; the rest are inside the
    /// viewport and stay live.
    Cache { ui: Vec<usize>, live: Vec<usize> },
    /// Something of the UI reaches into the viewport, or paints with a callback of
    /// its own: paint the frame the ordinary way.
    Ordinary,
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
        if picture.is_some_and(|p| i < p) {
            ui.push(i);
            continue;
        }
        let painted = s
            .transform_after_tessellation
            .mul_rect(s.shape.visual_bounding_rect())
            .intersect(s.clip_rect);
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
    Split::Cache { ui, live }
}

impl egui::Plugin for UiCachePlugin {
    fn debug_name(&self) -> &'static str {
        "pebble ui cache"
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        let delta = &output.textures_delta;
        let mut shared = lock(&self.shared);
        if !delta.set.is_empty() || !delta.free.is_empty() {
            // A changed image may be drawn by unchanged shapes: redraw.
            self.textures_changed |= !delta.set.is_empty();
            shared.pending_textures.append(delta.clone());
        }
        let viewport = lock(&self.viewport).take();
        let mut counts = lock(&self.counts);
        let Split::Cache { ui, live } = split(&output.shapes, viewport) else {
            counts[2] += 1;
            return;
        };
        if ui.is_empty() {
            // Nothing but the viewport: nothing to cache.
            counts[2] += 1;
            return;
        }
        let screen = ctx.content_rect();
        let ppp = ctx.pixels_per_point();
        let mut shapes: Vec<Option<ClippedShape>> = std::mem::take(&mut output.shapes)
            .into_iter()
            .map(Some)
            .collect();
        let ui_shapes: Vec<ClippedShape> = ui.iter().filter_map(|&i| shapes[i].take()).collect();
        let redraw = self.textures_changed
            || shared.drawn != shared.requested
            || self.cached_screen != Some((screen, ppp))
            || self.cached != ui_shapes;
        let primitives = redraw.then(|| ctx.tessellate(ui_shapes.clone(), ppp));
        counts[usize::from(redraw)] += 1;
        if redraw {
            self.cached = ui_shapes;
            self.cached_screen = Some((screen, ppp));
            self.textures_changed = false;
            shared.requested += 1;
        }
        let callback = UiCacheCallback {
            primitives: primitives.map(|p| (shared.requested, p)),
            viewport,
            // What the window is cleared to (the app's `clear_color`).
            clear_color: ctx
                .global_style()
                .visuals
                .panel_fill
                .to_normalized_gamma_f32(),
        };
        output.shapes = std::iter::once(ClippedShape::new(
            screen,
            egui::Shape::Callback(egui_wgpu::Callback::new_paint_callback(screen, callback)),
        ))
        .chain(live.iter().filter_map(|&i| shapes[i].take()))
        .collect();
    }
}

/// This frame's UI: the primitives to redraw the cache with (none when it holds
/// them already), and where not to copy it.
struct UiCacheCallback {
    /// The redraw's number and what to draw.
    primitives: Option<(u64, Vec<ClippedPrimitive>)>,
    viewport: Option<Rect>,
    clear_color: [f32; 4],
}

const COPY: &str = r#"
@group(0) @binding(0) var cache: texture_2d<f32>;
@group(0) @binding(1) var cache_sampler: sampler;

struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_main(@location(0) pos: vec2<f32>, @location(1) uv: vec2<f32>) -> Out {
    var out: Out;
    out.position = vec4<f32>(pos, 0.0, 1.0);
    out.uv = uv;
    return out;
}

// Only a texture read, on axis-aligned quads: the form a software rasterizer
// (llvmpipe) recognises as a blit and copies fastest.
@fragment
fn fs_main(in: Out) -> @location(0) vec4<f32> {
    return textureSample(cache, cache_sampler, in.uv);
}
"#;

/// The most quads a frame copies (the bands around the viewport).
const MAX_BANDS: u64 = 4;
/// Two triangles of (position, uv) per band.
const BAND_BYTES: u64 = 6 * 16;

/// The GPU side, in egui_wgpu's callback resources: the cache's own egui renderer
/// (same options as the window's), the cache texture and the copy pipeline.
pub struct UiCacheResources {
    shared: SharedState,
    renderer: egui_wgpu::Renderer,
    format: wgpu::TextureFormat,
    copy: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    /// This frame's band quads.
    quads: wgpu::Buffer,
    sampler: wgpu::Sampler,
    /// The cache texture's view and bind group, and its size in pixels.
    target: Option<(wgpu::TextureView, wgpu::BindGroup, [u32; 2])>,
}

impl std::fmt::Debug for UiCacheResources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UiCacheResources")
            .field("format", &self.format)
            .field("size", &self.target.as_ref().map(|t| t.2))
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
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("ui cache copy"),
            source: wgpu::ShaderSource::Wgsl(COPY.into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("ui cache copy"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let copy = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("ui cache copy"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: 16,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2],
                })],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let quads = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ui cache quads"),
            size: MAX_BANDS * BAND_BYTES,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        // Nearest: each window pixel reads exactly its own cache pixel.
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("ui cache"),
            ..Default::default()
        });
        Self {
            shared,
            renderer,
            format,
            copy,
            layout,
            quads,
            sampler,
            target: None,
        }
    }

    fn target_for(&mut self, device: &wgpu::Device, size: [u32; 2]) -> &wgpu::TextureView {
        if self.target.as_ref().is_none_or(|t| t.2 != size) {
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
                    | wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            });
            let view = texture.create_view(&Default::default());
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("ui cache"),
                layout: &self.layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(&view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::Sampler(&self.sampler),
                    },
                ],
            });
            self.target = Some((view, group, size));
        }
        &self.target.as_ref().expect("just made").0
    }
}

/// The window's pixels outside the viewport, as up to four scissor rectangles
/// (x, y, width, height): the bands above and below it and the two beside it. The
/// viewport's own rectangle is shrunk by a pixel first so that no pixel its
/// picture leaves uncovered (fractional edges) misses the copy.
pub fn bands(size: [u32; 2], viewport_px: Option<Rect>) -> Vec<[u32; 4]> {
    let [w, h] = size;
    let Some(v) = viewport_px else {
        return vec![[0, 0, w, h]];
    };
    let clamp = |x: f32, hi: u32| (x.max(0.0) as u32).min(hi);
    let (x0, x1) = (
        clamp(v.min.x.ceil() + 1.0, w),
        clamp(v.max.x.floor() - 1.0, w),
    );
    let (y0, y1) = (
        clamp(v.min.y.ceil() + 1.0, h),
        clamp(v.max.y.floor() - 1.0, h),
    );
    if x0 >= x1 || y0 >= y1 {
        return vec![[0, 0, w, h]];
    }
    [
        [0, 0, w, y0],
        [0, y1, w, h - y1],
        [0, y0, x0, y1 - y0],
        [x1, y0, w - x1, y1 - y0],
    ]
    .into_iter()
    .filter(|b| b[2] > 0 && b[3] > 0)
    .collect()
}

/// The bands as triangles of (x, y, u, v): clip-space positions and the cache's
/// texture coordinates of the same pixels.
fn band_vertices(size: [u32; 2], bands: &[[u32; 4]]) -> Vec<f32> {
    let (w, h) = (size[0].max(1) as f32, size[1].max(1) as f32);
    let mut out = Vec::with_capacity(bands.len() * 24);
    for &[x, y, bw, bh] in bands {
        let (u0, v0) = (x as f32 / w, y as f32 / h);
        let (u1, v1) = ((x + bw) as f32 / w, (y + bh) as f32 / h);
        let corner = |u: f32, v: f32| [u * 2.0 - 1.0, 1.0 - v * 2.0, u, v];
        for (u, v) in [(u0, v0), (u1, v0), (u0, v1), (u0, v1), (u1, v0), (u1, v1)] {
            out.extend(corner(u, v));
        }
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
        let viewport_px = self.viewport.map(|v| v * screen.pixels_per_point);
        let vertices = band_vertices(size, &bands(size, viewport_px));
        queue.write_buffer(&res.quads, 0, bytemuck::cast_slice(&vertices));
        let Some((generation, primitives)) = &self.primitives else {
            return Vec::new();
        };
        res.target_for(device, size);
        let commands = res
            .renderer
            .update_buffers(device, queue, encoder, primitives, screen);
        let view = &res.target.as_ref().expect("made above").0;
        let [r, g, b, a] = self.clear_color.map(f64::from);
        let mut pass = encoder
            .begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("ui cache"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    resolve_target: None,
                    depth_slice: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
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

    fn paint(
        &self,
        info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        let Some(res) = resources.get::<UiCacheResources>() else {
            return;
        };
        let Some((_, group, size)) = &res.target else {
            return;
        };
        let viewport_px = self.viewport.map(|v| v * info.pixels_per_point);
        let vertices = 6 * bands(*size, viewport_px).len() as u32;
        pass.set_pipeline(&res.copy);
        pass.set_bind_group(0, group, &[]);
        pass.set_vertex_buffer(0, res.quads.slice(..));
        pass.draw(0..vertices, 0..1);
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
                live: vec![1, 3]
            }
        );
        // Without a viewport every shape is UI, and a paint callback among them
        // (here the picture) cannot be cached.
        assert_eq!(
            split(&shapes[2..], None),
            Split::Cache {
                ui: vec![0, 1, 2],
                live: vec![]
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

    #[test]
    fn the_bands_cover_the_window_except_the_viewport() {
        let size = [200, 100];
        let viewport = Rect::from_min_max(pos2(50.4, 20.6), pos2(150.5, 80.0));
        let bands = bands(size, Some(viewport));
        let covered = |x: u32, y: u32| {
            bands
                .iter()
                .filter(|b| x >= b[0] && x < b[0] + b[2] && y >= b[1] && y < b[1] + b[3])
                .count()
        };
        for y in 0..100 {
            for x in 0..200 {
                let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
                // Well inside the viewport: left to the viewport's picture.
                let deep_inside = cx > 52.5 && cx < 148.5 && cy > 22.5 && cy < 78.0;
                let expected = usize::from(!deep_inside);
                if deep_inside || !viewport.contains(pos2(cx, cy)) {
                    assert_eq!(covered(x, y), expected, "pixel {x},{y}");
                } else {
                    // The one-pixel ring just inside the viewport's edge: copied at
                    // most once (the viewport paints over it).
                    assert!(covered(x, y) <= 1, "pixel {x},{y}");
                }
            }
        }
        assert_eq!(bands.len(), 4);
        assert_eq!(super::bands(size, None), vec![[0, 0, 200, 100]]);
    }
}
