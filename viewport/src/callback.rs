//! The 3D viewport: the `render` crate drawn through an egui_wgpu paint callback.
//! The scene frame is recorded into the renderer's own target and submitted as
//! soon as the viewport is laid out ([`paint`]), not when egui paints: a software
//! rasterizer (lavapipe) then draws the scene while the panels after the viewport
//! are laid out and the window's shapes tessellated, instead of after all of it.
//! The paint callback only draws that target into egui's render pass with the
//! render crate's [`Compositor`] (nearest filtering, so the PSP look's 480×272
//! pixels stay crisp); queue order puts the scene before it.

use std::sync::Arc;

use egui_wgpu::{self, CallbackResources, CallbackTrait};
use pebble_render::wgpu;
use pebble_render::{
    Camera, Compositor, Extras, FrameStats, Gpu, Overlay, RenderContext, RenderError,
    RenderOptions, Renderer, SceneSync,
};

/// What lives in egui_wgpu's callback resources: the renderer, its scene sync and
/// the compositor for egui's target (`None` if the device refused it; then
/// `last_error` says why).
#[derive(Debug)]
pub struct ViewportResources {
    pub renderer: Renderer,
    pub sync: SceneSync,
    /// The PSP look's scene: the map as exported and baked (psp_bake.rs), drawn
    /// instead of the live scene when [`ViewportCallback::baked`] says so.
    pub baked: Option<Renderer>,
    compositor: Option<Arc<Compositor>>,
    /// The frame [`ViewportCallback::submit`] submitted, bound for `paint`.
    current: Option<wgpu::BindGroup>,
    pub last_stats: FrameStats,
    pub last_error: Option<String>,
}

impl ViewportResources {
    pub fn new(
        _device: &wgpu::Device,
        target: wgpu::TextureFormat,
        renderer: Renderer,
        sync: SceneSync,
    ) -> Self {
        // One compositor per device and format, shared by every scene opened.
        let (compositor, last_error) = match renderer.context().compositor(target) {
            Ok(c) => (Some(c), None),
            Err(e) => (None, Some(e.to_string())),
        };
        Self {
            renderer,
            sync,
            baked: None,
            compositor,
            current: None,
            last_stats: FrameStats::default(),
            last_error,
        }
    }
}

/// The render context for a scene about to be shown: the installed viewport's, so
/// that opening another scene builds no pipelines, or a new one for the first.
pub fn render_context(
    rs: &egui_wgpu::RenderState,
    gpu: &Gpu,
) -> Result<Arc<RenderContext>, RenderError> {
    let installed = rs
        .renderer
        .read()
        .callback_resources
        .get::<ViewportResources>()
        .map(|res| Arc::clone(res.renderer.context()));
    match installed {
        Some(context) => Ok(context),
        None => RenderContext::new(gpu),
    }
}

/// A pipeline copying a picture into egui's target: `vs_main` (with `buffers`, or
/// none for one full-rectangle triangle), one bind group, unblended.
pub fn copy_pipeline(
    device: &wgpu::Device,
    label: &str,
    wgsl: &str,
    group: &wgpu::BindGroupLayout,
    buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
    fragment: &str,
    target: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &[Some(group)],
        immediate_size: 0,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &shader,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers,
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &shader,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets: &[Some(target.into())],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// One frame of the viewport.
#[derive(Debug)]
pub struct ViewportCallback {
    /// Draw the picture from the baked map (the PSP look, once its bake is of the
    /// scene as it is); picking and the overlay keep the live scene.
    pub baked: bool,
    pub camera: Camera,
    pub options: RenderOptions,
    pub overlay: Option<Arc<Overlay>>,
    pub selected: Vec<u32>,
    pub hovered: Option<u32>,
    /// The patrol spheres and ball-pit balls, as the runtime draws them.
    pub solids: Arc<Vec<pebble_render::SolidVertex>>,
}

impl ViewportCallback {
    /// Records this frame into the renderer's target and submits it now; the
    /// picture [`paint`] adds then draws it.
    pub fn submit(&self, res: &mut ViewportResources) {
        // Without a compositor (the device refused it; `last_error` says why)
        // nothing could show the frame.
        let Some(compositor) = &res.compositor else {
            return;
        };
        let extras = Extras {
            overlay: self.overlay.as_deref(),
            selected: &self.selected,
            hovered: self.hovered,
            solids: &self.solids,
        };
        let renderer = match &res.baked {
            Some(baked) if self.baked => baked,
            _ => &res.renderer,
        };
        let submitted = pebble_core::profiling::time("viewport: encode the GPU frame", || {
            renderer.submit_frame(&self.camera, &self.options, &extras)
        });
        match submitted {
            Ok((texture, stats)) => {
                let view = texture.create_view(&Default::default());
                res.current = Some(compositor.bind(&res.renderer.context().gpu().device, &view));
                res.last_stats = stats;
                res.last_error = None;
            }
            Err(e) => {
                res.current = None;
                res.last_error = Some(e.to_string());
            }
        }
    }
}

/// The last submitted frame, drawn into egui's pass.
struct Picture;

impl CallbackTrait for Picture {
    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        let Some(res) = resources.get::<ViewportResources>() else {
            return;
        };
        if let (Some(compositor), Some(frame)) = (&res.compositor, &res.current) {
            compositor.draw(pass, frame);
        }
    }
}

/// Submits `callback`'s frame (see [`ViewportCallback::submit`]) and adds the paint
/// callback drawing it into `rect`.
pub fn paint(
    ui: &egui::Ui,
    rect: egui::Rect,
    callback: &ViewportCallback,
    res: &mut ViewportResources,
) {
    callback.submit(res);
    ui.painter()
        .add(egui_wgpu::Callback::new_paint_callback(rect, Picture));
}
