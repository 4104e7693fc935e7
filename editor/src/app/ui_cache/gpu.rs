//! The GPU side of the UI cache: a second egui renderer drawing the UI into the
//! cache texture when it changed, the rectangles of the window the cache covers
//! (outside the viewport's picture, leaving out tiles showing only the clear
//! colour), and their copy into the window — drawn in egui's pass, or copied
//! after it as transfers where the painter offers `TargetCopies`.

use std::sync::Arc;

use eframe::egui::{self, ClippedPrimitive, Color32, Rect, epaint::ClippedShape};
use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, ScreenDescriptor};
use eframe::wgpu;

use super::{PixelRect, SharedState, lock};

/// This frame's UI: the primitives to redraw the cache with (none when it holds
/// them already), and where not to copy it.
pub(super) struct UiCacheCallback {
    /// The redraw's number, what to draw, and whether to clear the cache first
    /// (a whole redraw) or draw over it (changed regions).
    pub(super) primitives: Option<(u64, Vec<ClippedPrimitive>, bool)>,
    /// What to copy to the window.
    pub(super) rects: Arc<Vec<PixelRect>>,
    /// Nothing live paints where the copy goes: it may be made after the pass
    /// (a transfer, when the painter offers [`egui_wgpu::TargetCopies`]) instead
    /// of drawn in it.
    pub(super) copy_after_pass: bool,
    pub(super) clear_color: [f32; 4],
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
    written: Option<Arc<Vec<PixelRect>>>,
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
        let copy = pebble_viewport::callback::copy_pipeline(
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

/// The window rectangles to copy from the cache: every 16-pixel tile the UI
/// paints into, outside `hole` (the pixels the viewport's picture covers:
/// [`picture_pixels`](super::plugin::picture_pixels)). With `clear`
/// (the colour the window is cleared to) known, tiles where the UI only paints
/// the inside of background rectangles of that colour are left out: the cleared
/// window already shows them.
pub fn copy_rects(
    shapes: &[ClippedShape],
    size: [u32; 2],
    ppp: f32,
    hole: Option<PixelRect>,
    clear: Option<Color32>,
) -> Vec<PixelRect> {
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
    let mut open: Vec<PixelRect> = Vec::new();
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
            match open.iter().position(|r| r.x0 == x0 && r.x1 == x1) {
                Some(i) => {
                    let mut r = open.swap_remove(i);
                    r.y1 = y1;
                    next.push(r);
                }
                None => next.push(PixelRect::new(x0, ty * TILE, x1, y1)),
            }
        }
        closed.append(&mut open);
        open = next;
    }
    closed.append(&mut open);
    closed
        .into_iter()
        .flat_map(|r| match hole {
            Some(hole) => r.minus(hole),
            None => vec![r],
        })
        .collect()
}

/// The rectangles as triangles of clip-space positions in a window of `size`.
fn rect_vertices(size: [u32; 2], rects: &[PixelRect]) -> Vec<f32> {
    let (w, h) = (size[0].max(1) as f32, size[1].max(1) as f32);
    let mut out = Vec::with_capacity(rects.len() * 12);
    for r in rects {
        let (x0, x1) = (r.x0 as f32 / w * 2.0 - 1.0, r.x1 as f32 / w * 2.0 - 1.0);
        let (y0, y1) = (1.0 - r.y0 as f32 / h * 2.0, 1.0 - r.y1 as f32 / h * 2.0);
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
        let commands = pebble_core::profiling::time("UI cache: redraw on the GPU", || {
            self.redraw(device, queue, screen, encoder, res)
        });
        // Copied after the pass when the painter can (see `TargetCopies`):
        // queued here, after the redraw above in the same encoder.
        res.copy_in_pass = true;
        let texture = res.target.as_ref().map(|t| t.0.clone());
        if self.copy_after_pass
            && let Some(texture) = texture
            && let Some(copies) = resources.get_mut::<egui_wgpu::TargetCopies>()
        {
            copies.push(texture, self.rects.iter().map(PixelRect::xywh).collect());
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
