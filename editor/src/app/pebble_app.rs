//! The editor application: [`PebbleApp`] and its parts (the document, the viewport,
//! the panels, the preferences, the status line, the clock, the jobs and the
//! windows), made and torn down, and its frame: the per-frame logic, then the
//! layout.

use anyhow::Context as _;
use eframe::egui;
use pebble_core::document::Document;
use pebble_core::pane::Pane;
use pebble_model::{EntityId, Scene, project};
use pebble_panels::Panels;
use pebble_render::{Gpu, SceneSync};
use pebble_viewport::Viewport;
use pebble_viewport::callback::ViewportResources;
use pebble_viewport::preferences::Preferences;
use std::path::{Path, PathBuf};

/// The user's data folder: `PEBBLE_DATA_DIR` when set, else eframe's storage
/// folder for "pebble" (where the layout and preferences live), else a `pebble`
/// folder in the temporary folder. Untitled projects and their autosaves live here.
pub fn data_dir() -> PathBuf {
    std::env::var_os("PEBBLE_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| eframe::storage_dir("pebble"))
        .unwrap_or_else(|| std::env::temp_dir().join("pebble"))
}

/// Builds the viewport's GPU scene for `scene` (assets beside `path`) and puts it
/// in egui_wgpu's callback resources, replacing any before; logs the renderer's
/// warnings and returns the status line to show.
pub(crate) fn install_viewport(
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
    pub dialog: Option<super::files::Dialog>,
    pub export: Option<super::files::ExportJob>,
    pub import: Option<super::files::ImportJob>,
    /// Where the model being imported goes (the import window's choice).
    pub import_placement: Option<super::import_dialog::Placing>,
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
    pub compare: super::compare::CompareState,
    /// File › Map settings.
    pub map_settings: super::map_settings::MapSettingsWindow,
    /// File › Import of a model: its size, up axis and TIM file, before it comes in.
    pub import: Option<super::import_dialog::ImportDialog>,
    /// File › Import of a picture: its height and how it stands.
    pub import_picture: Option<super::import_dialog::PictureDialog>,
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
    pub(super) status: pebble_core::status::Status,
    pub clock: Clock,
    /// Which control may take keys besides a text field (keyboard_focus.rs).
    pub(super) keyboard_focus: super::keyboard_focus::KeyboardFocus,
    /// The status bar's changing figures.
    pub(super) figures: super::status_line::Figures,
    /// What the menus' entries can run this frame (the action table's needs),
    /// worked out once as the menu bar is drawn.
    pub(super) menu_now: pebble_core::action::State,
    pub ui_cache: super::ui_cache::UiCache,
    pub jobs: Jobs,
    pub windows: Windows,
    /// An action waiting for "save your changes?".
    pub pending: Option<super::files::Pending>,
    /// Unsaved work found beside the project: restore or discard?
    pub recovery: Option<project::RecoveryInfo>,
    /// A scene loaded (Open, New, Restore) waiting to replace the current one at
    /// the next frame (the viewport's GPU resources are rebuilt then); whether it
    /// starts unsaved.
    pub(super) next_scene: Option<(Scene, PathBuf, bool)>,
    /// The user's data folder ([`data_dir`]): untitled projects live there.
    pub data_dir: PathBuf,
    /// Closing was confirmed (or nothing was unsaved).
    pub(super) allow_close: bool,
    /// `pebble bench-editor`: the measurement in progress.
    pub bench: Option<super::bench::Bench>,
    /// Each frame's input on stderr, for scripts driving the window
    /// ([`frame_echo`]; only in the window, under `PEBBLE_FRAME_ECHO`).
    pub(super) frame_echo: Option<super::frame_echo::FrameEcho>,
    /// The clipboard's text as last seen (copied here, or pasted from the system's):
    /// what the Edit menu's Paste pastes.
    pub clipboard: Option<String>,
    /// The bundled and the user's presets.
    pub presets: pebble_core::presets::Presets,
    /// The files the project uses, watched for changes.
    pub(super) reload: super::hot_reload::HotReload,
    /// The exported map's cost on the PSP, kept current.
    pub budget: super::budget::Budget,
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
        self.frame_echo = super::frame_echo::FrameEcho::from_env();
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
        let ui_cache = super::ui_cache::UiCache::install(&cc.egui_ctx, rs, ui_cache);
        let status = install_viewport(rs, &scene, &path)?;
        super::files::probe_system_dialog();
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
        super::files::push_recent(&mut prefs.recent, &path);
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
            keyboard_focus: super::keyboard_focus::KeyboardFocus::default(),
            figures: super::status_line::Figures::default(),
            menu_now: pebble_core::action::State::default(),
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
            reload: super::hot_reload::HotReload::new(Some(cc.egui_ctx.clone())),
            budget: super::budget::Budget::default(),
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

    pub(super) fn run_command(&mut self, command: impl pebble_model::Command) {
        if let Err(e) = self.doc.execute(command) {
            self.status.error(format!("{e}"));
        }
    }

    pub(super) fn select(&mut self, ids: Vec<EntityId>) {
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
        let theme = self.prefs.theme.egui();
        if ctx.options(|o| o.theme_preference) != theme {
            ctx.set_theme(theme);
        }
        self.keyboard_focus.before_keys(&ctx);
        pebble_core::profiling::time("before layout", || self.before_layout(&ctx, frame, dt));
        self.layout(ui, frame);
        if let Some(e) = self.doc.take_refusal() {
            self.status.warn(format!("taken back: {e}"));
        }
        self.keyboard_focus.after_frame(&ctx);
        if let Some(echo) = &mut self.frame_echo {
            let ready = super::frame_echo::Ready {
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
