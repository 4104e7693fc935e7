//! [`Renderer`]: one scene drawn on one device, the crate's entry point. A thin
//! facade over the parts: the device-wide [`RenderContext`] (layouts, samplers,
//! pipelines), the scene's GPU data (`gpu_scene`), the frame and its passes
//! (`frame`, `passes`), picking (`picking`) and read-back (`readback`).
//!
//! It draws a [`DrawScene`] into an offscreen target and reads it back: culled
//! chunks in an opaque pass, then cutout and blended ones; UV scroll from the scene
//! clock; fog from the environment; in PSP mode at 480×272 with the GE's sampling
//! bias, depth written as the runtime writes it and a 5551 dithered framebuffer.

use std::sync::{Arc, PoisonError};

use image::RgbaImage;
use pbm::particle::ParticleField;
use pebble_model::glam::Vec3;

use crate::RenderError;
use crate::camera::Camera;
use crate::context::RenderContext;
use crate::environment::Environment;
use crate::frame::{FrameState, ShownFrame};
use crate::gpu::Gpu;
use crate::gpu_scene::GpuScene;
use crate::passes;
use crate::picking;
use crate::scene::{Batch, DrawScene, GpuVertex, SceneTexture};

pub use crate::frame::{
    Extras, FrameStats, HOVER_TINT, PickMarkerVertex, RenderOptions, SELECTED_TINT, SolidVertex,
};
pub use crate::picking::{PICK_WINDOW, PickHit};

/// GPU resources of one scene, and the device-wide context it draws with.
#[derive(Debug)]
pub struct Renderer {
    context: Arc<RenderContext>,
    scene: GpuScene,
    frame: FrameState,
    /// Counts the changes to what is drawn (batches, textures, particles, the
    /// environment, the spawn); see [`Renderer::submit_frame`].
    revision: u64,
}

impl Renderer {
    /// Uploads a scene, with a context (pipelines) of its own. Fails with the
    /// device's own message on a GPU error.
    pub fn new(gpu: &Gpu, scene: DrawScene) -> Result<Self, RenderError> {
        Self::with_context(RenderContext::new(gpu)?, scene)
    }

    /// Uploads a scene that draws with `context`'s pipelines (another renderer's
    /// [`Renderer::context`], for a second scene on the same device: no pipeline is
    /// built). `context` must be of the device the caller will submit to.
    pub fn with_context(
        context: Arc<RenderContext>,
        scene: DrawScene,
    ) -> Result<Self, RenderError> {
        let scope = context
            .gpu
            .device
            .push_error_scope(wgpu::ErrorFilter::Validation);
        let scene = GpuScene::new(&context, scene);
        let frame = FrameState::new(&context);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RenderError::Gpu(e.to_string()));
        }
        Ok(Self {
            context,
            scene,
            frame,
            revision: 0,
        })
    }

    /// The device-wide context this renderer draws with (for another scene on the
    /// same device, or for its [`Compositor`](crate::Compositor)s).
    pub fn context(&self) -> &Arc<RenderContext> {
        &self.context
    }

    /// Adds or replaces the batch under `key` (a replaced batch keeps its place in
    /// the draw order; a new one goes last). Only that batch is uploaded.
    pub fn set_batch(&mut self, key: u64, batch: Batch) {
        self.revision += 1;
        self.scene.set_batch(&self.context, key, batch);
    }

    /// Writes `vertices` over the batch under `key`'s when they are as many and
    /// at the same places, keeping its buffer and chunks (see
    /// `GpuScene::rewrite_batch_vertices`). Returns whether it did.
    pub fn rewrite_batch_vertices(&mut self, key: u64, vertices: &[GpuVertex]) -> bool {
        self.revision += 1;
        self.scene
            .rewrite_batch_vertices(&self.context, key, vertices)
    }

    /// Removes the batch under `key`, if any.
    pub fn remove_batch(&mut self, key: u64) {
        self.revision += 1;
        self.scene.remove_batch(&self.context, key);
    }

    /// Puts the batches in the order of `keys` (unknown keys are ignored; batches
    /// not named keep their relative order after the named ones).
    pub fn reorder(&mut self, keys: &[u64]) {
        self.revision += 1;
        self.scene.reorder(&self.context, keys);
    }

    /// Adds a texture; chunks name it by the returned index.
    pub fn add_texture(&mut self, texture: SceneTexture) -> u32 {
        self.revision += 1;
        self.scene.add_texture(&self.context, texture)
    }

    /// Puts `texture` in place of texture `index` (its file changed on disk).
    pub fn replace_texture(&mut self, index: u32, texture: SceneTexture) -> bool {
        self.revision += 1;
        self.scene.replace_texture(&self.context, index, texture)
    }

    /// Replaces the particle field (emitters changed).
    pub fn set_particles(&mut self, particles: ParticleField) {
        self.revision += 1;
        self.scene.set_particles(&self.context, particles);
    }

    pub fn set_environment(&mut self, environment: Environment) {
        self.revision += 1;
        self.scene.scene.environment = environment;
    }

    pub fn set_spawn(&mut self, eye: Vec3, yaw: f32) {
        self.revision += 1;
        self.scene.scene.spawn = (eye, yaw);
    }

    pub fn scene(&self) -> &DrawScene {
        &self.scene.scene
    }

    /// Draws one frame and reads it back as RGBA8.
    pub fn render(
        &self,
        camera: &Camera,
        options: &RenderOptions,
    ) -> Result<(RgbaImage, FrameStats), RenderError> {
        self.render_with(camera, options, &Extras::default())
    }

    /// [`Renderer::render`] with overlays and tints.
    pub fn render_with(
        &self,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
    ) -> Result<(RgbaImage, FrameStats), RenderError> {
        self.submit(camera, options, extras, true)
            .map(|(image, stats)| (image.unwrap_or_default(), stats))
    }

    /// Draws one frame and waits for the GPU to finish it, without reading it back
    /// (what a windowed view pays per frame; for benchmarks).
    pub fn draw(
        &self,
        camera: &Camera,
        options: &RenderOptions,
    ) -> Result<FrameStats, RenderError> {
        self.draw_with(camera, options, &Extras::default())
    }

    /// [`Renderer::draw`] with overlays and tints (what the editor's viewport draws).
    pub fn draw_with(
        &self,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
    ) -> Result<FrameStats, RenderError> {
        self.submit(camera, options, extras, false)
            .map(|(_, stats)| stats)
    }

    /// Records one frame into a command buffer the caller submits (the editor's
    /// viewport hands it to egui), and the texture it ends in: the scene at the view's
    /// size, or the 480×272 5551 frame in the PSP look. A
    /// [`Compositor`](crate::Compositor) draws that texture into the caller's pass.
    pub fn encode(
        &self,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
    ) -> Result<(wgpu::CommandBuffer, wgpu::Texture, FrameStats), RenderError> {
        let r = passes::record(
            &self.context,
            &self.scene,
            &self.frame,
            camera,
            options,
            extras,
        )?;
        Ok((r.encoder.finish(), r.out, r.stats))
    }

    /// [`Renderer::encode`], submitted at once without waiting for the GPU: the
    /// caller's later submissions (a window's pass drawing the texture) come after
    /// it in queue order, and the GPU draws the scene while the caller goes on.
    ///
    /// A frame asked for with the inputs of the last one it drew (the scene
    /// unchanged since, the same camera, options and extras, and no other frame
    /// drawn in between) is not drawn again: its texture still holds the picture.
    /// An editor repaints for many reasons that leave the view as it was (a
    /// panel's hover, a typed letter), and a software rasterizer pays a whole
    /// frame for each.
    pub fn submit_frame(
        &self,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
    ) -> Result<(wgpu::Texture, FrameStats), RenderError> {
        {
            let shown = self
                .frame
                .shown
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if let Some(shown) = shown
                .as_ref()
                .filter(|s| s.is_of(self.revision, camera, options, extras))
            {
                return Ok((shown.texture.clone(), shown.stats));
            }
        }
        let (commands, texture, stats) = self.encode(camera, options, extras)?;
        self.context.gpu.queue.submit([commands]);
        *self
            .frame
            .shown
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(ShownFrame {
            revision: self.revision,
            camera: *camera,
            options: *options,
            overlay: extras.overlay.cloned(),
            selected: extras.selected.to_vec(),
            hovered: extras.hovered,
            solids: extras.solids.to_vec(),
            texture: texture.clone(),
            stats,
        });
        Ok((texture, stats))
    }

    /// How many frames this renderer has recorded (drawn or encoded): what shows
    /// that an unchanged frame was not drawn again.
    pub fn frames_recorded(&self) -> u64 {
        self.frame
            .recorded
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    fn submit(
        &self,
        camera: &Camera,
        options: &RenderOptions,
        extras: &Extras<'_>,
        read: bool,
    ) -> Result<(Option<RgbaImage>, FrameStats), RenderError> {
        passes::submit(
            &self.context,
            &self.scene,
            &self.frame,
            camera,
            options,
            extras,
            read,
        )
    }

    /// What is under pixel (x, y) of a `width × height` view: the nearest non-empty
    /// pixel of the 9×9 window around it, with the world point under it. Hidden and
    /// locked chunks (pick id 0) and cut-out texels are never hit.
    /// Triangles (world space, in threes) the ID pass draws besides the scene, each
    /// with an entity's pick id: the editor's markers (lights, triggers, colliders…),
    /// so that they are picked, and hide or are hidden by what is drawn, like
    /// meshes. Replaces those set before.
    pub fn set_pick_markers(&mut self, vertices: Vec<crate::frame::PickMarkerVertex>) {
        self.frame.pick_markers = vec![std::sync::Arc::new(vertices)];
    }

    /// [`Self::set_pick_markers`] in parts shared with their builder: a part
    /// unchanged since the last frame costs nothing to hand over again.
    pub fn set_pick_marker_parts(
        &mut self,
        parts: Vec<std::sync::Arc<Vec<crate::frame::PickMarkerVertex>>>,
    ) {
        self.frame.pick_markers = parts;
    }

    /// Whether picks find single-sided faces seen from behind: on where they are
    /// drawn (`RenderOptions::back_faces`), off where they are culled.
    pub fn set_back_faces_picked(&mut self, picked: bool) {
        self.frame.pick_back_faces = picked;
    }

    pub fn pick(
        &self,
        camera: &Camera,
        width: u32,
        height: u32,
        time: f64,
        x: u32,
        y: u32,
    ) -> Result<Option<PickHit>, RenderError> {
        self.pick_excluding(camera, (width, height, time), (x, y), &[])
    }

    /// The pick ids visible anywhere in the rectangle between two corners (box
    /// select), sorted.
    /// [`Self::pick`] seeing through the entities `exclude` names (what a drag
    /// moves, when it snaps onto the surface under the cursor).
    pub fn pick_excluding(
        &self,
        camera: &Camera,
        (width, height, time): (u32, u32, f64),
        (x, y): (u32, u32),
        exclude: &[u32],
    ) -> Result<Option<PickHit>, RenderError> {
        picking::pick(
            &self.context,
            &self.scene,
            &self.frame,
            camera,
            (width, height, time),
            (x, y),
            exclude,
        )
    }

    pub fn pick_rect(
        &self,
        camera: &Camera,
        width: u32,
        height: u32,
        time: f64,
        a: (u32, u32),
        b: (u32, u32),
    ) -> Result<Vec<u32>, RenderError> {
        picking::pick_rect(
            &self.context,
            &self.scene,
            &self.frame,
            camera,
            (width, height, time),
            a,
            b,
        )
    }

    /// The eye and yaw a map starts at, looking slightly down as the runtime does.
    pub fn spawn_camera(&self) -> Camera {
        let (eye, yaw) = self.scene.scene.spawn;
        Camera::psp(eye, yaw, 0.05)
    }

    /// The scene's bounds.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        self.scene.scene.bounds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu_scene::tests::{scene_of, square};

    /// A red square in front of a blue one, seen down −Z; the far one first in
    /// file order, so that only depth keeps the near one in front.
    fn two_squares() -> DrawScene {
        scene_of(vec![
            square(2, -4.0, 1.5, 0xFFFF_0000),
            square(1, -3.0, 0.5, 0xFF00_00FF),
        ])
    }

    fn options() -> RenderOptions {
        RenderOptions {
            width: 64,
            height: 48,
            fog: false,
            ..Default::default()
        }
    }

    #[test]
    fn a_renderer_made_with_another_ones_context_shares_its_pipelines() {
        let Some(gpu) = crate::gpu::test_gpu("renderers share a context") else {
            return;
        };
        let first = Renderer::new(&gpu, two_squares()).expect("renderer");
        let second = Renderer::with_context(Arc::clone(first.context()), scene_of(Vec::new()))
            .expect("renderer");
        assert!(Arc::ptr_eq(first.context(), second.context()));
        assert_eq!(
            first.context().pipelines.editor.opaque,
            second.context().pipelines.editor.opaque
        );
        // `new` builds a context of its own.
        let apart = Renderer::new(&gpu, two_squares()).expect("renderer");
        assert!(!Arc::ptr_eq(first.context(), apart.context()));
        assert_ne!(
            first.context().pipelines.editor.opaque,
            apart.context().pipelines.editor.opaque
        );
        // Each keeps its own scene, and the context outlives the renderer that
        // made it (the editor drops the old scene's renderer after opening a new one).
        let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        let centre = |r: &Renderer| r.pick(&camera, 64, 48, 0.0, 32, 24).expect("picks");
        assert_eq!(centre(&first).map(|hit| hit.id), Some(1));
        assert_eq!(centre(&second), None);
        let third =
            Renderer::with_context(Arc::clone(first.context()), two_squares()).expect("renderer");
        let picture = |r: &Renderer| r.render(&camera, &options()).expect("renders").0;
        let before = picture(&first);
        drop(first);
        assert_eq!(Arc::strong_count(third.context()), 2);
        assert_eq!(picture(&third), before);
    }

    #[test]
    fn a_shared_context_draws_what_a_context_of_its_own_draws() {
        let Some(gpu) = crate::gpu::test_gpu("context pictures") else {
            return;
        };
        // Another scene on the context first, so that the two share it.
        let other = Renderer::new(&gpu, scene_of(Vec::new())).expect("renderer");
        let shared =
            Renderer::with_context(Arc::clone(other.context()), two_squares()).expect("renderer");
        let own = Renderer::with_context(RenderContext::new(&gpu).expect("context"), two_squares())
            .expect("renderer");
        assert!(!Arc::ptr_eq(shared.context(), own.context()));
        let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        for psp in [false, true] {
            let options = RenderOptions { psp, ..options() };
            let (a, stats) = shared.render(&camera, &options).expect("renders");
            let (b, _) = own.render(&camera, &options).expect("renders");
            assert_eq!(a, b, "psp {psp}");
            assert_eq!(stats.chunks_drawn, 2);
            let centre = a.get_pixel(a.width() / 2, a.height() / 2).0;
            assert!(centre[0] > 200 && centre[2] < 60, "{centre:?}");
        }
        let hit = shared
            .pick(&camera, 64, 48, 0.0, 32, 24)
            .expect("picks")
            .expect("a hit");
        assert_eq!(hit.id, 1);
        assert!((hit.world.z + 3.0).abs() < 1e-3, "{:?}", hit.world);
        let seen = shared
            .pick_rect(&camera, 64, 48, 0.0, (0, 0), (63, 47))
            .expect("picks");
        assert_eq!(seen, [1, 2]);
    }

    /// The editor's viewport submits its frame as soon as it is laid out and draws
    /// the texture later, in a submission of its own: that texture then holds what
    /// `render` reads back. Submitted first, on a fresh renderer, so that nothing
    /// drawn before could be what is read.
    #[test]
    fn a_submitted_frame_holds_the_picture_render_reads_back() {
        let Some(gpu) = crate::gpu::test_gpu("submitted frame") else {
            return;
        };
        let renderer = Renderer::new(&gpu, two_squares()).expect("renderer");
        let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        let (texture, stats) = renderer
            .submit_frame(&camera, &options(), &Extras::default())
            .expect("submits");
        let encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let (w, h) = (options().width, options().height);
        let submitted =
            crate::readback::read_back(&gpu, encoder, &texture, w, h).expect("reads back");
        let (rendered, rendered_stats) = renderer.render(&camera, &options()).expect("renders");
        assert_eq!(stats.chunks_drawn, rendered_stats.chunks_drawn);
        assert_eq!(stats.chunks_drawn, 2);
        assert_eq!(submitted, rendered);
        let centre = submitted.get_pixel(w / 2, h / 2).0;
        assert!(centre[0] > 200 && centre[2] < 60, "{centre:?}");
    }

    /// The texture `submit_frame` gave, read back.
    fn submitted(renderer: &Renderer, camera: &Camera, extras: &Extras<'_>) -> RgbaImage {
        let (texture, _) = renderer
            .submit_frame(camera, &options(), extras)
            .expect("submits");
        let gpu = renderer.context().gpu();
        let encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let (w, h) = (options().width, options().height);
        crate::readback::read_back(gpu, encoder, &texture, w, h).expect("reads back")
    }

    #[test]
    fn a_frame_asked_for_again_unchanged_is_not_drawn_again() {
        let Some(gpu) = crate::gpu::test_gpu("unchanged frame") else {
            return;
        };
        let renderer = Renderer::new(&gpu, two_squares()).expect("renderer");
        let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        let selected = [1];
        let extras = Extras {
            selected: &selected,
            ..Extras::default()
        };
        let first = submitted(&renderer, &camera, &extras);
        let drawn = renderer.frames_recorded();
        // Equal inputs, not the same borrows.
        let again = [1];
        let same = Extras {
            selected: &again,
            ..Extras::default()
        };
        assert_eq!(submitted(&renderer, &camera, &same), first);
        assert_eq!(renderer.frames_recorded(), drawn, "drawn again");
    }

    #[test]
    fn a_frame_is_drawn_again_when_anything_it_shows_changed() {
        let Some(gpu) = crate::gpu::test_gpu("changed frame") else {
            return;
        };
        let mut renderer = Renderer::new(&gpu, two_squares()).expect("renderer");
        let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        let none = Extras::default();
        let plain = submitted(&renderer, &camera, &none);
        let mut drawn = renderer.frames_recorded();
        let mut expect_drawn = |renderer: &Renderer, what: &str| {
            assert_eq!(
                renderer.frames_recorded(),
                drawn + 1,
                "{what}: not drawn again"
            );
            drawn += 1;
        };
        // The selection tint.
        let selected = [1, 2];
        let tinted = submitted(
            &renderer,
            &camera,
            &Extras {
                selected: &selected,
                ..Extras::default()
            },
        );
        expect_drawn(&renderer, "selection");
        assert_ne!(tinted, plain);
        // Another view.
        let turned = Camera::psp(Vec3::ZERO, 0.3, 0.0);
        assert_ne!(submitted(&renderer, &turned, &none), plain);
        expect_drawn(&renderer, "camera");
        // Back to the first view, then the scene changes under the same view.
        assert_eq!(submitted(&renderer, &camera, &none), plain);
        expect_drawn(&renderer, "camera back");
        renderer.remove_batch(1);
        renderer.remove_batch(2);
        assert_ne!(submitted(&renderer, &camera, &none), plain);
        expect_drawn(&renderer, "scene");
    }

    #[test]
    fn a_frame_drawn_in_between_is_not_taken_for_the_one_shown() {
        let Some(gpu) = crate::gpu::test_gpu("frame in between") else {
            return;
        };
        let renderer = Renderer::new(&gpu, two_squares()).expect("renderer");
        let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        let none = Extras::default();
        let shown = submitted(&renderer, &camera, &none);
        // A screenshot of another view, at the same size, into the same targets.
        let turned = Camera::psp(Vec3::ZERO, 0.5, 0.0);
        let (other, _) = renderer.render(&turned, &options()).expect("renders");
        assert_ne!(other, shown);
        assert_eq!(submitted(&renderer, &camera, &none), shown);
    }

    #[test]
    fn sizes_out_of_range_are_refused_before_anything_is_drawn() {
        let Some(gpu) = crate::gpu::test_gpu("renderer sizes") else {
            return;
        };
        let renderer = Renderer::new(&gpu, two_squares()).expect("renderer");
        let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        let zero = RenderOptions {
            width: 0,
            ..options()
        };
        assert!(matches!(
            renderer.render(&camera, &zero),
            Err(RenderError::Size(0, 48))
        ));
        assert!(matches!(
            renderer.encode(&camera, &zero, &Extras::default()),
            Err(RenderError::Size(0, 48))
        ));
        assert!(matches!(
            renderer.pick(&camera, 9000, 10, 0.0, 1, 1),
            Err(RenderError::Size(9000, 10))
        ));
        assert_eq!(renderer.pick(&camera, 64, 48, 0.0, 64, 0).ok(), Some(None));
    }
}
