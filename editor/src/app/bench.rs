//! `pebble bench-editor`: the whole editor (UI and viewport, in its real window)
//! repainting continuously with the scene clock running, without vsync; the time
//! between frames gives the median and p95, `/proc/self/status` the resident
//! memory. In the same process, window and device, two baselines on the same view
//! (camera, viewport rectangle, overlay, selection, the clock running on):
//! - the bare renderer in the window: frames holding nothing but the viewport's
//!   picture at the editor's viewport rectangle — the renderer's frame, copied to
//!   the window and presented, without any UI. Its frames alternate with the
//!   editor's in blocks, so that a drift of the machine's speed during the run
//!   touches both alike;
//! - the bare renderer off screen (`Renderer::draw_with`, waiting for the GPU),
//!   afterwards.
//!
//! Optionally saves a screenshot of the window (the README's picture) and a JSON
//! report.

pub(super) mod edits;
mod stats;
pub mod uv_drag;

pub use stats::stats;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use eframe::egui;

use pebble_render::Extras;
use serde::Serialize;

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Frames measured after the warm-up, in each phase.
    pub frames: usize,
    /// Frames drawn first and not counted (shader compilation, uploads, layout).
    pub warmup: usize,
    pub screenshot: Option<PathBuf>,
    pub json: Option<PathBuf>,
    /// Entities to select first (by name), so the picture shows the gizmo and the
    /// inspector.
    pub select: Vec<String>,
    /// Repaint the UI through its cache (`false`: every frame the ordinary way,
    /// to compare).
    pub ui_cache: bool,
    /// The UI cache's copy goes into the frame after egui's pass as transfers
    /// (`false`: drawn in the pass, to measure the difference).
    pub transfers: bool,
    /// Start with the scene clock stopped (screenshots of two runs then match).
    pub paused: bool,
    /// Every editor frame is a step of a UV drag on a 10k-triangle mesh's faces
    /// ([`uv_drag::prepare`]).
    pub uv_drag: bool,
}

pub use pebble_viewport::LastView;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub frames: usize,
    pub window: [f32; 2],
    pub viewport_pixels: [u32; 2],
    pub adapter: String,
    pub editor_median_ms: f64,
    pub editor_p95_ms: f64,
    /// The app's own `ui` (layout and logic) per frame.
    pub ui_median_ms: f64,
    /// The bare renderer's picture alone in the same window, presented.
    pub window_renderer_median_ms: f64,
    pub window_renderer_p95_ms: f64,
    /// Editor median / windowed bare renderer median: what the UI adds.
    pub ratio: f64,
    /// The bare renderer off screen (no window, no presenting).
    pub renderer_median_ms: f64,
    pub renderer_p95_ms: f64,
    /// Editor median / off-screen renderer median.
    pub offscreen_ratio: f64,
    pub resident_mb: Option<f64>,
    pub triangles: u64,
    pub draw_calls: u64,
    pub particles: u64,
    /// A click's pick through the ID buffer at the viewport's centre (a mesh) and
    /// on a marker, and building the markers' triangles for the ID pass (median of
    /// 30, milliseconds).
    pub pick_mesh_median_ms: f64,
    pub pick_marker_median_ms: f64,
    pub markers_built_median_ms: f64,
    /// Duplicating 500 entities at once and pasting a selection of this many
    /// triangles from clipboard text (medians, milliseconds; each one step).
    pub duplicate_500_median_ms: f64,
    pub paste_median_ms: f64,
    pub paste_triangles: usize,
    /// One frame's PSP budget readout (median, milliseconds).
    pub budget_readout_median_ms: f64,
    /// A click in face mode: the pick through the ID buffer and the face it names
    /// grown to its polygon (median of 30, milliseconds).
    pub pick_face_median_ms: f64,
    /// Triangles whose UVs each editor frame dragged (0: no UV drag measured).
    pub uv_drag_triangles: usize,
}

/// What a frame of the benchmark draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The whole editor.
    Editor,
    /// Only the viewport's picture, at the editor's viewport rectangle.
    BareWindow,
    /// Both measured: report and close.
    Done,
}

/// Frames in a block of one phase; the phases alternate block by block, so that
/// a drift of the machine's speed during the run (here ±20 %) affects both alike.
pub const BLOCK: usize = 30;
/// Frames at the start of each block that are not counted (the switch itself).
pub const SETTLE: usize = 3;

/// The bench's progress inside the app.
#[derive(Debug)]
pub struct Bench {
    pub options: BenchOptions,
    /// What the frame being drawn shows.
    pub(super) phase: Phase,
    /// Frames drawn so far, and of them in the current block.
    pub(super) drawn: usize,
    pub(super) in_block: usize,
    pub(super) last: Option<Instant>,
    pub(super) editor_times: Vec<Duration>,
    pub(super) window_times: Vec<Duration>,
    pub(super) shot_requested: bool,
    pub done: bool,
    /// Time spent in the app's own `ui` (layout, logic, recording the viewport),
    /// per measured editor frame; the rest is egui's tessellation, the GPU and
    /// presenting.
    pub ui_times: Vec<Duration>,
    /// When the warm-up began waiting for the scene to be ready.
    pub(super) held_since: Option<Instant>,
}

impl Bench {
    pub fn new(options: BenchOptions) -> Self {
        Self {
            options,
            phase: Phase::Editor,
            drawn: 0,
            in_block: 0,
            last: None,
            editor_times: Vec::new(),
            window_times: Vec::new(),
            shot_requested: false,
            done: false,
            ui_times: Vec::new(),
            held_since: None,
        }
    }

    /// Called at the start of each frame: records how long the last frame took
    /// (the time between their starts) for the phase it drew, and says what this
    /// frame draws: `warmup` editor frames first, then blocks of [`BLOCK`] frames
    /// alternating between the editor and the bare window, the first [`SETTLE`] of
    /// each not counted, until each has `frames`.
    ///
    /// While the scene is not `ready` (the level behind the patrol spheres and
    /// balls still building) the warm-up waits at its last frame, for at most 30 s,
    /// so that the screenshot and the measured frames show the whole scene.
    pub fn frame(&mut self, ctx: &egui::Context, ready: bool) -> Phase {
        let now = Instant::now();
        if self.phase == Phase::Done {
            return Phase::Done;
        }
        let waited = self.held_since.get_or_insert(now);
        if !ready
            && self.drawn + 1 >= self.options.warmup
            && now.duration_since(*waited) < Duration::from_secs(30)
        {
            self.last = Some(now);
            return Phase::Editor;
        }
        let measured = self.drawn > self.options.warmup && self.in_block > SETTLE;
        if let Some(last) = self.last
            && measured
        {
            match self.phase {
                Phase::Editor => self.editor_times.push(now - last),
                Phase::BareWindow => self.window_times.push(now - last),
                Phase::Done => {}
            }
        }
        self.last = Some(now);
        self.drawn += 1;
        if self.drawn == self.options.warmup
            && !self.shot_requested
            && let Some(path) = self.options.screenshot.clone()
        {
            self.shot_requested = true;
            request_screenshot(ctx, path);
        }
        let frames = self.options.frames;
        let (editor_done, window_done) = (
            self.editor_times.len() >= frames,
            self.window_times.len() >= frames,
        );
        if editor_done && window_done {
            self.editor_times.truncate(frames);
            self.window_times.truncate(frames);
            self.phase = Phase::Done;
            return Phase::Done;
        }
        if self.drawn > self.options.warmup {
            self.in_block += 1;
            let other = match self.phase {
                Phase::Editor if !window_done => Phase::BareWindow,
                Phase::BareWindow if !editor_done => Phase::Editor,
                same => same,
            };
            let block_over = self.in_block > BLOCK;
            let finished = match self.phase {
                Phase::Editor => editor_done,
                _ => window_done,
            };
            if (block_over || finished) && other != self.phase {
                self.phase = other;
                self.in_block = 1;
            }
        }
        ctx.request_repaint();
        self.phase
    }

    /// What this frame measures, if it is measured: "editor" or "bare".
    pub fn measuring(&self) -> Option<&'static str> {
        let measured = self.drawn > self.options.warmup && self.in_block > SETTLE;
        match self.phase {
            Phase::Editor if measured => Some("editor"),
            Phase::BareWindow if measured => Some("bare"),
            _ => None,
        }
    }

    /// Whether this frame is a measured editor frame.
    pub fn measuring_editor(&self) -> bool {
        self.phase == Phase::Editor && self.drawn > self.options.warmup && self.in_block > SETTLE
    }

    pub fn editor_times(&self) -> &[Duration] {
        &self.editor_times
    }

    /// The windowed bare renderer's frames.
    pub fn window_times(&self) -> &[Duration] {
        &self.window_times
    }
}

fn request_screenshot(ctx: &egui::Context, path: PathBuf) {
    ctx.request_screenshot(move |image| {
        let [w, h] = image.size;
        let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
        match image::RgbaImage::from_raw(w as u32, h as u32, bytes) {
            Some(img) => {
                if let Some(dir) = path.parent() {
                    let _ = std::fs::create_dir_all(dir);
                }
                match img.save(&path) {
                    Ok(()) => eprintln!("screenshot: {}", path.display()),
                    Err(e) => eprintln!("cannot save the screenshot {}: {e}", path.display()),
                }
            }
            None => eprintln!("the screenshot had no pixels"),
        }
    });
}

/// Median and 95th percentile in milliseconds.
/// The median times (ms) of 30 picks through the ID buffer — at the viewport's
/// centre (a mesh, there), and on the first marker (a light, a trigger…) — and of
/// building the markers' triangles for the ID pass (each frame does once).
pub(super) fn pick_times(
    renderer: &mut pebble_render::Renderer,
    view: &LastView,
    scene: &pebble_model::Scene,
) -> Result<(f64, f64, f64, f64), String> {
    use pebble_viewport::picking::marker_triangles;
    let (w, h) = (view.options.width, view.options.height);
    let camera_view = pebble_viewport::view::View {
        camera: view.camera,
        size: pebble_model::glam::Vec2::new(w as f32, h as f32),
    };
    let (mut centre, mut marker, mut built, mut face) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut markers = Vec::new();
    for _ in 0..30 {
        let start = Instant::now();
        markers = marker_triangles(
            scene,
            &camera_view,
            Some(&Default::default()),
            &Default::default(),
            &Default::default(),
        );
        built.push(start.elapsed());
    }
    // The middle of the first marker's first quad, on screen.
    let on_marker = markers
        .get(..3)
        .and_then(|q| {
            let mid = q.iter().fold(pebble_model::glam::Vec3::ZERO, |a, v| {
                a + pebble_model::glam::Vec3::from(v.pos)
            }) / 3.0;
            camera_view.project(mid)
        })
        .map(|p| {
            (
                p.x.clamp(0.0, w as f32 - 1.0) as u32,
                p.y.clamp(0.0, h as f32 - 1.0) as u32,
            )
        });
    renderer.set_pick_markers(markers);
    for _ in 0..30 {
        for (pixel, times) in [
            (Some((w / 2, h / 2)), &mut centre),
            (on_marker, &mut marker),
        ] {
            let Some((x, y)) = pixel else { continue };
            let start = Instant::now();
            renderer
                .pick(&view.camera, w, h, view.options.time, x, y)
                .map_err(|e| format!("pick failed: {e}"))?;
            times.push(start.elapsed());
        }
    }
    // Face mode's click: the pick, then the polygon the face belongs to.
    for _ in 0..30 {
        let start = Instant::now();
        let hit = renderer
            .pick(&view.camera, w, h, view.options.time, w / 2, h / 2)
            .map_err(|e| format!("pick failed: {e}"))?;
        if let Some(hit) = hit
            && let Some(pebble_model::EntityKind::Mesh(m)) = scene
                .entity(pebble_model::EntityId(hit.id))
                .map(|e| &e.kind)
        {
            std::hint::black_box(m.geometry.polygon_of(hit.face as usize));
        }
        face.push(start.elapsed());
    }
    Ok((
        stats(&centre).0,
        stats(&marker).0,
        stats(&built).0,
        stats(&face).0,
    ))
}

/// Resident memory of this process, MB (Linux: `/proc/self/status`; elsewhere
/// unknown). Read directly: one line of a kernel file needs no crate.
pub fn resident_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The bare renderer on the same view, `frames` times, the clock advancing by
/// `dt` each frame as the editor's did.
pub fn bare_renderer_times(
    renderer: &pebble_render::Renderer,
    view: &LastView,
    frames: usize,
    dt: f64,
) -> Result<(Vec<Duration>, pebble_render::FrameStats), String> {
    let mut times = Vec::with_capacity(frames);
    let mut stats = pebble_render::FrameStats::default();
    let mut options = view.options;
    for _ in 0..frames {
        options.time += dt;
        let extras = Extras {
            overlay: view.overlay.as_deref(),
            selected: &view.selected,
            solids: &view.solids,
            ..Extras::default()
        };
        let t = Instant::now();
        stats = renderer
            .draw_with(&view.camera, &options, &extras)
            .map_err(|e| e.to_string())?;
        times.push(t.elapsed());
    }
    Ok((times, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_pick_the_median_and_the_95th_percentile() {
        let times: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        let (median, p95) = stats(&times);
        assert!((median - 50.0).abs() <= 1.0, "{median}");
        assert!((p95 - 95.0).abs() <= 1.0, "{p95}");
        assert_eq!(stats(&[]), (0.0, 0.0));
    }

    #[test]
    fn the_warm_up_waits_for_the_scene_to_be_ready() {
        let ctx = egui::Context::default();
        let mut bench = Bench::new(BenchOptions {
            frames: 10,
            warmup: 5,
            screenshot: None,
            json: None,
            select: Vec::new(),
            ui_cache: true,
            transfers: true,
            paused: false,
            uv_drag: false,
        });
        for _ in 0..50 {
            assert_eq!(bench.frame(&ctx, false), Phase::Editor);
        }
        assert!(!bench.measuring_editor(), "still warming up");
        for _ in 0..10 {
            bench.frame(&ctx, true);
        }
        assert!(bench.measuring_editor() || bench.phase != Phase::Editor);
    }

    #[test]
    fn the_phases_alternate_in_blocks_until_both_are_measured() {
        let ctx = egui::Context::default();
        let (frames, warmup) = (100, 5);
        let mut bench = Bench::new(BenchOptions {
            frames,
            warmup,
            screenshot: None,
            json: None,
            select: Vec::new(),
            ui_cache: true,
            transfers: true,
            paused: false,
            uv_drag: false,
        });
        let mut phases = Vec::new();
        while phases.last() != Some(&Phase::Done) {
            phases.push(bench.frame(&ctx, true));
            assert!(phases.len() < 10_000, "never done");
        }
        assert!(phases[..warmup].iter().all(|p| *p == Phase::Editor));
        assert_eq!(bench.editor_times().len(), frames);
        assert_eq!(bench.window_times().len(), frames);
        // Blocks of BLOCK frames, each phase's first SETTLE not counted: 100
        // counted frames take four blocks each, alternating.
        let drawn = &phases[warmup..phases.len() - 1];
        let switches = drawn.windows(2).filter(|w| w[0] != w[1]).count();
        assert_eq!(switches, 7, "{phases:?}");
        let per_block = frames.div_ceil(BLOCK - SETTLE);
        assert_eq!(
            drawn.len(),
            2 * per_block * BLOCK - 2 * (per_block * (BLOCK - SETTLE) - frames)
        );
        // Once done, it stays done.
        assert_eq!(bench.frame(&ctx, true), Phase::Done);
    }

    #[test]
    fn resident_memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            let mb = resident_mb().expect("VmRSS");
            assert!(mb > 1.0 && mb < 100_000.0, "{mb}");
        }
    }
}
