//! The editor window (eframe + egui). [`PebbleApp`] is a handful of parts: the
//! [`Document`] (scene, history, file, autosave), the [`Viewport`] (view, tools,
//! overlay, view cube), the [`Panels`] (outliner, inspector, assets, history,
//! log, each owning its state and returning intents), the background jobs, the
//! windows, the preferences and the status line. A frame runs the per-frame
//! logic first ([`logic`]: jobs, autosave, clock, shortcuts), then lays the
//! window out ([`layout`]); every user action is an [`Action`] carried out in
//! [`run_action`], and every change to the scene is a command applied through the
//! document.

pub mod bench;
pub mod budget;
pub mod compare;
pub mod file_dialog;
pub mod files;
pub mod frame_echo;
pub mod hot_reload;
pub mod import_dialog;
mod keyboard_focus;
pub mod keys;
mod layout;
mod logic;
pub mod map_settings;
pub mod materials;
mod menu;
mod modals;
pub mod preferences_window;
mod run_action;
pub mod status_line;
pub mod ui_cache;

// The viewport's and the panels' parts keep their short paths.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use eframe::egui;
use pebble_model::{EntityId, Scene, project};
use pebble_render::{Gpu, SceneSync};

use pebble_core::document::Document;
use pebble_core::pane::Pane;
use pebble_panels::Panels;
use pebble_viewport::Viewport;
use pebble_viewport::callback::ViewportResources;
use pebble_viewport::preferences::Preferences;

/// The project `pebble` opens without arguments: the bundled showcase in the
/// source tree (`cargo run`), else, for an installed binary that carries no source
/// tree, a copy generated once into the user's data folder (`pebble showcase DIR`
/// writes the same files anywhere).
pub fn default_project() -> anyhow::Result<PathBuf> {
    pebble_core::services::showcase::default_project_in(
        &pebble_core::services::showcase::showcase_path(),
        eframe::storage_dir("pebble"),
    )
}

/// The user's data folder: `PEBBLE_DATA_DIR` when set, else eframe's storage
/// folder for "pebble" (where the layout and preferences live), else a `pebble`
/// folder in the temporary folder. Untitled projects and their autosaves live here.
pub fn data_dir() -> PathBuf {
    std::env::var_os("PEBBLE_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| eframe::storage_dir("pebble"))
        .unwrap_or_else(|| std::env::temp_dir().join("pebble"))
}

/// Opens the editor window on `project` and runs until it closes (or, with
/// `bench`, until the benchmark has measured its frames).
/// The editor window on `project`; `view`, where given, is the camera it starts
/// at (else where the designer left it in this project).
pub fn run(
    project: PathBuf,
    bench: Option<bench::BenchOptions>,
    view: Option<pebble_viewport::navigation::OrbitCamera>,
) -> anyhow::Result<()> {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        anyhow::bail!(
            "no display to open the editor window on (DISPLAY is not set); run it in a desktop session, or under Xvfb: xvfb-run -a pebble"
        );
    }
    let scene = project::load(&project)?;
    let mut options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_title("Pebble")
            .with_app_id("pebble"),
        renderer: eframe::Renderer::Wgpu,
        // The layout and preferences are saved by `App::save`; window size too.
        persist_window: bench.is_none(),
        ..Default::default()
    };
    // A benchmark starts from nothing saved and saves nothing: eframe restores a
    // saved window size even with `persist_window` off (a resized editor made the
    // next bench measure a smaller window), and the bench's default layout must not
    // replace the user's on exit. Its storage is a scratch file (eframe takes
    // `persistence_path` as the file itself), removed after.
    let scratch = bench.as_ref().map(|_| {
        std::env::temp_dir().join(format!("pebble-bench-storage-{}.ron", std::process::id()))
    });
    if bench.is_some() {
        // A benchmark measures frames, not the display's refresh rate.
        options.wgpu_options.surface.present_mode = eframe::wgpu::PresentMode::AutoNoVsync;
        options.persistence_path = scratch.clone();
    }
    let ran = eframe::run_native(
        "Pebble",
        options,
        Box::new(move |cc| {
            let ui_cache = bench.as_ref().is_none_or(|b| b.ui_cache);
            let mut app = PebbleApp::with_ui_cache(cc, scene, project, ui_cache)
                .map_err(|e| format!("{e:#}"))?;
            app.in_window();
            if let Some(view) = view {
                app.viewport.view.orbit = view;
                app.viewport.view.target = None;
            }
            if let Some(options) = bench {
                app.ui_cache.allow_transfers(options.transfers);
                // The same start whatever was saved: the default layout and view.
                app.panels.layout = pebble_panels::default_layout();
                app.recovery = None;
                app.clock.playing = !options.paused;
                let scene = app.doc.scene();
                let ids: Vec<EntityId> = options
                    .select
                    .iter()
                    .filter_map(|n| scene.entities().find(|e| &e.name == n).map(|e| e.id))
                    .collect();
                if !ids.is_empty() {
                    app.select(ids);
                }
                if options.uv_drag {
                    bench::uv_drag::prepare(&mut app)?;
                }
                app.bench = Some(bench::Bench::new(options));
            }
            Ok(Box::new(app))
        }),
    );
    if let Some(scratch) = scratch {
        let _ = std::fs::remove_file(scratch);
    }
    ran.map_err(|e| anyhow::anyhow!("cannot run the editor window: {e}"))
}

/// Builds the viewport's GPU scene for `scene` (assets beside `path`) and puts it
/// in egui_wgpu's callback resources, replacing any before; logs the renderer's
/// warnings and returns the status line to show.
fn install_viewport(
    rs: &eframe::egui_wgpu::RenderState,
    scene: &Scene,
    path: &Path,
) -> anyhow::Result<pebble_core::status::Status> {
    let gpu = Gpu {
        device: rs.device.clone(),
        queue: rs.queue.clone(),
        info: rs.adapter.get_info(),
    };
    let (renderer, sync) = SceneSync::renderer_with(
        pebble_viewport::callback::render_context(rs, &gpu)?,
        scene,
        &pebble_core::services::texture_loader(path),
    )?;
    // The log's subscriber must be in place before the warnings go to it.
    pebble_panels::log::buffer();
    for w in &sync.warnings {
        tracing::warn!(target: "pebble", "{w}");
    }
    let mut message = pebble_core::status::Status::default();
    match sync.warnings.first() {
        Some(w) => message.warn(format!("{} warning(s): {w}", sync.warnings.len())),
        None => message.info(format!("opened {}", path.display())),
    }
    rs.renderer
        .write()
        .callback_resources
        .insert(ViewportResources::new(
            &rs.device,
            rs.target_format,
            renderer,
            sync,
        ));
    Ok(message)
}

/// The scene clock: particles and scrolling textures animate with it.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    /// Seconds.
    pub time: f64,
    pub playing: bool,
    /// 1 = real time.
    pub speed: f32,
    /// The time as the scrub field shows it: while playing, refreshed with the
    /// status bar's figures.
    pub shown: f64,
}

impl Default for Clock {
    fn default() -> Self {
        Self {
            time: 0.0,
            playing: true,
            speed: 1.0,
            shown: 0.0,
        }
    }
}

/// The background work: file dialog, export, import, deploy.
#[derive(Debug, Default)]
pub struct Jobs {
    /// A file dialog open on its thread.
    pub dialog: Option<files::Dialog>,
    pub export: Option<files::ExportJob>,
    pub import: Option<files::ImportJob>,
    /// Where the model being imported goes (the import window's choice).
    pub import_placement: Option<import_dialog::Placing>,
    /// Export & Deploy: the target and the running job.
    pub deploy: pebble_core::deploy::DeployState,
    /// Play in PPSSPP: the running launch.
    pub ppsspp: pebble_core::ppsspp::PpssppState,
    /// Play: the level being built, and whether the game starts from the camera.
    pub play: Option<(pebble_core::jobs::Job<pebble_play::Level>, bool)>,
}

/// The windows over the layout (Tools, Help, Preferences).
#[derive(Debug, Default)]
pub struct Windows {
    pub preferences: bool,
    pub help: bool,
    pub about: bool,
    /// The Compare panel (Tools menu).
    pub compare: compare::CompareState,
    /// File › Map settings.
    pub map_settings: map_settings::MapSettingsWindow,
    /// File › Import of a model: its size, up axis and TIM file, before it comes in.
    pub import: Option<import_dialog::ImportDialog>,
    /// File › Import of a picture: its height and how it stands.
    pub import_picture: Option<import_dialog::PictureDialog>,
    /// The GPU adapter, for About.
    pub adapter: String,
}

#[derive(Debug)]
pub struct PebbleApp {
    pub doc: Document,
    pub viewport: Viewport,
    pub panels: Panels,
    /// What is saved between runs (navigation, snapping, recent files…).
    pub prefs: Preferences,
    /// The status line.
    status: pebble_core::status::Status,
    pub clock: Clock,
    /// Which control may take keys besides a text field (keyboard_focus.rs).
    keyboard_focus: keyboard_focus::KeyboardFocus,
    /// The status bar's changing figures.
    figures: layout::Figures,
    pub ui_cache: ui_cache::UiCache,
    pub jobs: Jobs,
    pub windows: Windows,
    /// An action waiting for "save your changes?".
    pub pending: Option<files::Pending>,
    /// Unsaved work found beside the project: restore or discard?
    pub recovery: Option<project::RecoveryInfo>,
    /// A scene loaded (Open, New, Restore) waiting to replace the current one at
    /// the next frame (the viewport's GPU resources are rebuilt then); whether it
    /// starts unsaved.
    next_scene: Option<(Scene, PathBuf, bool)>,
    /// The user's data folder ([`data_dir`]): untitled projects live there.
    pub data_dir: PathBuf,
    /// Closing was confirmed (or nothing was unsaved).
    allow_close: bool,
    /// `pebble bench-editor`: the measurement in progress.
    pub bench: Option<bench::Bench>,
    /// Each frame's input on stderr, for scripts driving the window
    /// ([`frame_echo`]; only in the window, under `PEBBLE_FRAME_ECHO`).
    frame_echo: Option<frame_echo::FrameEcho>,
    /// The clipboard's text as last seen (copied here, or pasted from the system's):
    /// what the Edit menu's Paste pastes.
    pub clipboard: Option<String>,
    /// The bundled and the user's presets.
    pub presets: pebble_core::presets::Presets,
    /// The files the project uses, watched for changes.
    reload: hot_reload::HotReload,
    /// The exported map's cost on the PSP, kept current.
    pub budget: budget::Budget,
}

impl PebbleApp {
    /// The app on `scene` (loaded from `path`), drawing with the creation context's
    /// wgpu device.
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        scene: Scene,
        path: PathBuf,
    ) -> anyhow::Result<Self> {
        Self::with_ui_cache(cc, scene, path, true)
    }

    /// Says the app runs in eframe's window, which is cleared to the panels' fill
    /// ([`eframe::App::clear_color`]): the UI cache can leave what only shows that
    /// colour. (A test harness clears to transparent.)
    pub fn in_window(&mut self) {
        self.ui_cache.window_clears_to_panel_fill();
        self.frame_echo = frame_echo::FrameEcho::from_env();
    }

    /// [`Self::new`], choosing whether an unchanged UI is drawn from the UI cache
    /// ([`ui_cache`]; on in the editor; tests compare both ways).
    pub fn with_ui_cache(
        cc: &eframe::CreationContext<'_>,
        scene: Scene,
        path: PathBuf,
        ui_cache: bool,
    ) -> anyhow::Result<Self> {
        Self::with_data_dir(cc, scene, path, ui_cache, data_dir())
    }

    /// [`PebbleApp::with_ui_cache`] with the user's data folder at `data_dir`
    /// (untitled projects and their autosaves; tests give each a folder of its own).
    pub fn with_data_dir(
        cc: &eframe::CreationContext<'_>,
        scene: Scene,
        path: PathBuf,
        ui_cache: bool,
        data_dir: PathBuf,
    ) -> anyhow::Result<Self> {
        let rs = cc
            .wgpu_render_state
            .as_ref()
            .context("the editor needs the wgpu renderer")?;
        let ui_cache = ui_cache::UiCache::install(&cc.egui_ctx, rs, ui_cache);
        let status = install_viewport(rs, &scene, &path)?;
        files::probe_system_dialog();
        let mut prefs = cc
            .storage
            .and_then(|s| eframe::get_value::<Preferences>(s, pebble_viewport::preferences::KEY))
            .map(Preferences::sanitized)
            .unwrap_or_default();
        let layout = cc
            .storage
            .and_then(|s| eframe::get_value::<egui_tiles::Tree<Pane>>(s, pebble_panels::LAYOUT_KEY))
            .filter(pebble_panels::layout_is_complete)
            .unwrap_or_else(pebble_panels::default_layout);
        // The opened project's unsaved work first, else the newest untitled
        // project a session left unsaved (killed before its first save).
        let recovery = project::find_recovery(&path)
            .or_else(|| project::untitled_recoveries(&data_dir).into_iter().next());
        files::push_recent(&mut prefs.recent, &path);
        let autosave = std::time::Duration::from_secs(u64::from(prefs.autosave_seconds.max(1)));
        let mut viewport = Viewport::new(scene.bounds());
        // Where the designer left the camera in this project.
        if let Some(view) = prefs.view_of(&path) {
            viewport.view.orbit = view;
        }
        let info = rs.adapter.get_info();
        let presets = pebble_core::presets::Presets::load(&data_dir.join("presets"));
        for problem in &presets.problems {
            tracing::warn!(target: "pebble", "{problem}");
        }
        Ok(Self {
            doc: Document::new(scene, path, autosave),
            viewport,
            panels: Panels::new(layout),
            prefs,
            status,
            clock: Clock::default(),
            keyboard_focus: keyboard_focus::KeyboardFocus::default(),
            figures: layout::Figures::default(),
            ui_cache,
            jobs: Jobs::default(),
            windows: Windows {
                adapter: format!("{} ({:?})", info.name, info.backend),
                ..Default::default()
            },
            pending: None,
            recovery,
            next_scene: None,
            data_dir,
            allow_close: false,
            bench: None,
            frame_echo: None,
            clipboard: None,
            presets,
            reload: hot_reload::HotReload::new(Some(cc.egui_ctx.clone())),
            budget: budget::Budget::default(),
        })
    }

    pub fn scene(&self) -> &Scene {
        self.doc.scene()
    }

    /// The camera the viewport drew with, and its rectangle in points.
    pub fn view(&self) -> (pebble_render::Camera, egui::Rect) {
        (self.viewport.camera(), self.viewport.rect)
    }

    /// The project's file (for an untitled project, where it would be saved).
    pub fn project_path(&self) -> &Path {
        self.doc.path()
    }

    /// Whether the project was never saved (File > New).
    pub fn is_untitled(&self) -> bool {
        self.doc.is_untitled()
    }

    /// Whether there are changes not saved yet.
    pub fn is_dirty(&self) -> bool {
        self.doc.is_dirty()
    }

    /// The name of the step Undo would take back.
    pub fn history_undo_name(&self) -> Option<String> {
        self.doc.history().undo_name()
    }

    /// The names of the history's steps, oldest first.
    pub fn history_names(&self) -> Vec<String> {
        self.doc
            .history()
            .entries()
            .into_iter()
            .map(|e| e.name)
            .collect()
    }

    /// How many steps the history has applied.
    pub fn history_position(&self) -> usize {
        self.doc.history().position()
    }

    /// The surface point under the cursor in the viewport, if any.
    pub fn hover_point(&self) -> Option<pebble_model::glam::Vec3> {
        self.viewport.hover.point
    }

    /// The status line's message.
    pub fn status(&self) -> &pebble_core::status::Status {
        &self.status
    }

    /// Stops the scene clock (tests compare frames).
    pub fn pause(&mut self) {
        self.clock.playing = false;
    }

    /// Where the view cube is drawn, in points.
    pub fn view_cube_rect(&self) -> egui::Rect {
        self.viewport.view_cube_rect()
    }

    /// The point of the view cube that shows `dir`, in points (tests, tooltips).
    pub fn view_cube_point(&self, dir: pebble_model::glam::IVec3) -> egui::Pos2 {
        self.viewport.view_cube_point(dir)
    }

    /// Looks at the pivot from `dir` (a view cube cell).
    pub fn look_from(&mut self, dir: pebble_model::glam::IVec3) {
        self.viewport.view.look_from(dir);
    }

    /// The view cube's home: an iso view framing everything.
    pub fn home_view(&mut self) {
        self.viewport.view.home(self.doc.scene().bounds());
    }

    fn run_command(&mut self, command: impl pebble_model::Command) {
        if let Err(e) = self.doc.execute(command) {
            self.status.error(format!("{e}"));
        }
    }

    fn select(&mut self, ids: Vec<EntityId>) {
        if let Err(e) = self.doc.select(ids) {
            self.status.error(format!("{e}"));
        }
    }
}

/// Whatever ends the program on a bug — the window system's connection lost under
/// winit, a driver's panic — the unsaved work is written to the recovery file as
/// the app is dropped while unwinding, and the next start offers it back.
impl Drop for PebbleApp {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.doc.keep_on_crash();
        }
    }
}

impl eframe::App for PebbleApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let ui_start = std::time::Instant::now();
        let dt = ctx.input(|i| i.stable_dt).min(0.1);
        if !self.bench_frame(ui, frame, dt) {
            return;
        }
        self.keyboard_focus.before_keys(&ctx);
        pebble_core::profiling::time("before layout", || self.before_layout(&ctx, frame, dt));
        self.layout(ui, frame);
        self.keyboard_focus.after_frame(&ctx);
        if let Some(echo) = &mut self.frame_echo {
            let ready = frame_echo::Ready {
                level: self.viewport.solids_ready(self.doc.scene()),
                psp_preview: self.viewport.looks.psp
                    && self.viewport.psp_preview_baked(self.doc.scene()),
            };
            echo.frame(&ctx, ready);
        }
        if let Some(b) = &mut self.bench
            && b.measuring_editor()
        {
            b.ui_times.push(ui_start.elapsed());
        }
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, pebble_viewport::preferences::KEY, &self.prefs);
        eframe::set_value(storage, pebble_panels::LAYOUT_KEY, &self.panels.layout);
    }
}
