//! The editor window (eframe + egui): a menu bar, an outliner, a status bar and the
//! 3D viewport. Every change goes through a command in the history (undo/redo);
//! the viewport follows the scene's change journal.
//!
//! Today's slice: open a project (the bundled showcase by default), navigate with a
//! preset of `navigation` (Fusion 360 by default, Blender, Unity/Unreal; right drag
//! flies; the wheel zooms; F / Home frame), click to select through the ID buffer (Shift adds),
//! drag on empty space to box-select (skipping hidden and locked), Esc to clear,
//! hide entities from the outliner, undo / redo, save, play the scene clock, and
//! switch the viewport to the PSP look or the preview light; edit the selected
//! entity's name, transform and kind fields and its materials in the inspector;
//! the History and Assets windows; Export & Deploy ([`deploy`]) and the Compare
//! panel ([`compare`]).

pub mod action;
pub mod assets;
pub mod bench;
pub mod compare;
pub mod create;
pub mod deploy;
pub mod file_dialog;
pub mod files;
pub mod gizmo;
mod inspector;
pub mod jobs;
pub mod log;
pub mod navigation;
pub mod number_field;
pub mod preferences;
pub mod status;
pub mod ui_cache;
pub mod view_cube;
pub mod viewport;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use eframe::egui;
use pebble_model::command::SetTransforms;
use pebble_model::command::{Select, SetEntity};
use pebble_model::glam::{Affine3A, Quat, Vec2, Vec3};
use pebble_model::history::History;
use pebble_model::{EntityId, Scene, Transform, project};
use pebble_render::{Gpu, Overlay, OverlayOptions, RenderOptions, SceneSync};

use action::Action;
use navigation::{OrbitCamera, ZOOM_STEP};
use preferences::Preferences;
use viewport::{ViewportCallback, ViewportResources};

/// The bundled showcase, opened when no project is named.
pub fn showcase_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/showcase/showcase.pebble.ron")
}

/// The project `pebble` opens without arguments: the bundled showcase in the
/// source tree (`cargo run`), else, for an installed binary that carries no source
/// tree, a copy generated once into the user's data folder (`pebble showcase DIR`
/// writes the same files anywhere).
pub fn default_project() -> anyhow::Result<PathBuf> {
    default_project_in(&showcase_path(), eframe::storage_dir("pebble"))
}

/// [`default_project`] with the source tree's showcase at `source` and the user's
/// data folder `data` (`None`: the temporary folder). A copy already there is
/// opened as it is: it may hold the user's edits.
pub fn default_project_in(source: &Path, data: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    use anyhow::Context as _;
    if source.is_file() {
        return Ok(source.to_path_buf());
    }
    let dir = data.unwrap_or_else(std::env::temp_dir).join("showcase");
    let project = dir.join(crate::services::showcase::PROJECT_FILE);
    if !project.is_file() {
        crate::services::showcase::write(&dir).with_context(|| {
            format!(
                "cannot write the showcase project into {} (open a project instead: pebble open PROJECT)",
                dir.display()
            )
        })?;
    }
    Ok(project)
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
pub fn run(project: PathBuf, bench: Option<bench::BenchOptions>) -> anyhow::Result<()> {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        anyhow::bail!(
            "no display to open the editor window on (DISPLAY is not set); run it in a desktop session, or under Xvfb: xvfb-run -a pebble"
        );
    }
    let scene = project::load(&project)?;
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_title("Pebble")
            .with_app_id("pebble"),
        renderer: eframe::Renderer::Wgpu,
        // The layout and preferences are saved by `App::save`; window size too.
        persist_window: bench.is_none(),
        ..Default::default()
    };
    let mut options = options;
    if bench.is_some() {
        // A benchmark measures frames, not the display's refresh rate.
        options.wgpu_options.surface.present_mode = eframe::wgpu::PresentMode::AutoNoVsync;
    }
    eframe::run_native(
        "Pebble",
        options,
        Box::new(move |cc| {
            let ui_cache = bench.as_ref().is_none_or(|b| b.ui_cache);
            let mut app = PebbleApp::with_ui_cache(cc, scene, project, ui_cache)
                .map_err(|e| format!("{e:#}"))?;
            app.in_window();
            if let Some(options) = bench {
                // The same start whatever was saved: the default layout and view.
                app.layout = default_layout();
                app.recovery = None;
                app.playing = !options.paused;
                let ids: Vec<EntityId> = options
                    .select
                    .iter()
                    .filter_map(|n| app.scene.entities().find(|e| &e.name == n).map(|e| e.id))
                    .collect();
                if !ids.is_empty() {
                    app.select(ids);
                }
                app.bench = Some(bench::Bench::new(options));
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot run the editor window: {e}"))
}

/// Builds the viewport's GPU scene for `scene` (assets beside `path`) and puts it
/// in egui_wgpu's callback resources, replacing any before; logs the renderer's
/// warnings and returns the status line to show.
fn install_viewport(
    rs: &eframe::egui_wgpu::RenderState,
    scene: &Scene,
    path: &Path,
) -> anyhow::Result<status::Status> {
    let gpu = Gpu {
        device: rs.device.clone(),
        queue: rs.queue.clone(),
        info: rs.adapter.get_info(),
    };
    let (renderer, sync) =
        SceneSync::renderer_with(viewport::render_context(rs, &gpu)?, scene, &loader(path))?;
    // The log's subscriber must be in place before the warnings go to it.
    log::buffer();
    for w in &sync.warnings {
        tracing::warn!(target: "pebble", "{w}");
    }
    let mut message = status::Status::default();
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

/// Loads project-relative textures for the viewport.
fn loader(project: &Path) -> impl Fn(&str) -> Result<image::RgbaImage, String> + '_ {
    move |relative: &str| {
        let path = project::resolve_asset(project, relative);
        image::open(&path)
            .map(|i| i.to_rgba8())
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The docked panels (egui_tiles): each is a tab that can be dragged to another
/// place; the arrangement is saved between runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Pane {
    Viewport,
    Outliner,
    Inspector,
    Assets,
    History,
    Log,
}

impl Pane {
    pub const ALL: [Pane; 6] = [
        Pane::Viewport,
        Pane::Outliner,
        Pane::Inspector,
        Pane::Assets,
        Pane::History,
        Pane::Log,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Pane::Viewport => "Viewport",
            Pane::Outliner => "Outliner",
            Pane::Inspector => "Inspector",
            Pane::Assets => "Assets",
            Pane::History => "History",
            Pane::Log => "Log",
        }
    }
}

/// Storage key of the panel layout.
const LAYOUT_KEY: &str = "pebble.layout";

/// The first layout: outliner and assets on the left, the viewport in the middle,
/// the inspector over history and log on the right.
pub fn default_layout() -> egui_tiles::Tree<Pane> {
    let mut tiles = egui_tiles::Tiles::default();
    let outliner = tiles.insert_pane(Pane::Outliner);
    let assets = tiles.insert_pane(Pane::Assets);
    let left = tiles.insert_tab_tile(vec![outliner, assets]);
    let viewport = tiles.insert_pane(Pane::Viewport);
    let middle = tiles.insert_tab_tile(vec![viewport]);
    let inspector = tiles.insert_pane(Pane::Inspector);
    let top_right = tiles.insert_tab_tile(vec![inspector]);
    let history = tiles.insert_pane(Pane::History);
    let log = tiles.insert_pane(Pane::Log);
    let bottom_right = tiles.insert_tab_tile(vec![history, log]);
    let right = tiles.insert_vertical_tile(vec![top_right, bottom_right]);
    if let Some(egui_tiles::Tile::Container(egui_tiles::Container::Linear(l))) =
        tiles.get_mut(right)
    {
        l.shares.set_share(top_right, 0.62);
        l.shares.set_share(bottom_right, 0.38);
    }
    let root = tiles.insert_horizontal_tile(vec![left, middle, right]);
    if let Some(egui_tiles::Tile::Container(egui_tiles::Container::Linear(l))) = tiles.get_mut(root)
    {
        l.shares.set_share(left, 0.2);
        l.shares.set_share(middle, 0.56);
        l.shares.set_share(right, 0.24);
    }
    egui_tiles::Tree::new(egui::Id::unique("pebble layout"), root, tiles)
}

/// A saved layout is used only when it still holds every panel once.
fn layout_is_complete(tree: &egui_tiles::Tree<Pane>) -> bool {
    Pane::ALL.iter().all(|p| {
        tree.tiles
            .tiles()
            .filter(|t| matches!(t, egui_tiles::Tile::Pane(q) if q == p))
            .count()
            == 1
    })
}

#[derive(Debug)]
pub struct PebbleApp {
    scene: Scene,
    history: History,
    path: PathBuf,
    orbit: OrbitCamera,
    clock: f64,
    playing: bool,
    psp: bool,
    preview_light: bool,
    overlays: bool,
    overlay: Option<(u64, Arc<Overlay>)>,
    hovered: Option<u32>,
    /// The status line.
    status: status::Status,
    /// A gizmo drag in progress.
    drag: Option<GizmoDrag>,
    /// W / E / R: what the gizmo does (Q toggles the preferences' gizmo space).
    pub gizmo_mode: gizmo::Mode,
    /// What is saved between runs (navigation, snapping, recent files…).
    pub prefs: Preferences,
    /// Where the viewport was last drawn, in points.
    viewport: egui::Rect,
    /// The inspector's name field while it is being typed in.
    name_edit: Option<(EntityId, String)>,
    /// Where a box-select drag started (points).
    box_start: Option<egui::Pos2>,
    /// When the hover pick last ran (seconds of egui time).
    last_hover_pick: f64,
    /// Cursor, camera and viewport size at that pick.
    last_hover_inputs: Option<(Option<egui::Pos2>, pebble_render::Camera, u32, u32)>,
    /// Smoothed frame time, seconds.
    frame_time: f32,
    /// The status bar's changing figures (frame rate, clock, renderer counts),
    /// refreshed twice a second: readable, and an unchanged UI can be drawn
    /// from the UI cache.
    figures_at: Option<std::time::Instant>,
    /// Whether this frame refreshes those figures.
    refresh_figures: bool,
    status_figures: String,
    /// The clock as the scrub field shows it: while playing, refreshed with the
    /// status bar's figures.
    shown_clock: f64,
    /// Where the viewport is this frame, for the UI cache.
    viewport_slot: ui_cache::ViewportSlot,
    /// Frames drawn from the UI cache / redrawn into it whole / painted the
    /// ordinary way / drawn from it after redrawing what changed.
    pub ui_cache_counts: std::sync::Arc<std::sync::Mutex<[u64; 4]>>,
    ui_cache_shared: Option<ui_cache::SharedState>,
    /// Export & Deploy: the target and the running job.
    pub deploy: deploy::DeployState,
    /// The Compare panel (Tools menu).
    pub compare: compare::CompareState,
    /// The History window (View menu): the undo list, click to jump.
    pub show_history: bool,
    /// The Assets window (View menu).
    pub assets: assets::AssetsState,
    /// The surface point under the cursor at the last hover pick (zoom anchor).
    hover_point: Option<Vec3>,
    /// The docked panels.
    layout: egui_tiles::Tree<Pane>,
    /// `pebble bench-editor`: the measurement in progress.
    pub bench: Option<bench::Bench>,
    /// What the viewport drew last (the benchmark's bare renderer repeats it).
    last_view: Option<bench::LastView>,
    /// Scene clock speed (1 = real time).
    pub clock_speed: f32,
    /// Bring these panels to the front next frame (View menu, tests).
    pub show_log: bool,
    pub show_inspector: bool,
    pub show_outliner: bool,
    /// The Preferences window.
    pub show_preferences: bool,
    /// The GPU adapter, for About.
    adapter: String,
    /// The Help menu's windows.
    pub show_help: bool,
    pub show_about: bool,
    /// The outliner's name filter.
    outliner_search: String,
    /// The Log panel: its buffer and filters.
    log: log::LogBuffer,
    log_view: log::LogView,
    /// A file dialog open on its thread.
    dialog: Option<files::Dialog>,
    /// An action waiting for "save your changes?".
    pub pending: Option<files::Pending>,
    /// Unsaved work found beside the project: restore or discard?
    pub recovery: Option<project::RecoveryInfo>,
    /// A scene loaded (Open, New, Restore) waiting to replace the current one at
    /// the next frame (the viewport's GPU resources are rebuilt then); whether it
    /// starts unsaved.
    next_scene: Option<(Scene, PathBuf, bool)>,
    /// Export .pbm and Import running in the background.
    pub export_job: Option<files::ExportJob>,
    pub import_job: Option<files::ImportJob>,
    autosave: project::Autosave,
    /// The project has no file yet (File → New): Save asks where.
    untitled: bool,
    /// The user's data folder ([`data_dir`]): untitled projects live there.
    pub data_dir: PathBuf,
    /// Closing was confirmed (or nothing was unsaved).
    allow_close: bool,
    /// The point an orbit drag turns about (shown while it lasts).
    orbit_centre: Option<Vec3>,
    /// Where the view is going (a wheel zoom, a framing, a view cube click) and
    /// the easing's time constant: it gets 95 % of the way in three of them.
    view_target: Option<(OrbitCamera, f32)>,
}

/// A gizmo drag: its maths and, per moved entity, its local transform, world
/// transform and parent's world transform when the drag started.
#[derive(Debug, Clone)]
struct GizmoDrag {
    drag: gizmo::Drag,
    start: Vec<(EntityId, Transform, Affine3A, Affine3A)>,
}

/// The view cube's size in points, and how far its projection reaches (in cube
/// radii: a corner seen head-on is √3 from the centre).
const VIEW_CUBE_SIZE: f32 = 120.0;
const VIEW_CUBE_REACH: f32 = 1.8;

/// Easing time constants: a wheel zoom settles in ~120 ms, a framing or a view
/// change in ~220 ms.
const ZOOM_EASE: f32 = 0.04;
const VIEW_EASE: f32 = 0.073;

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
        if let Some(shared) = &self.ui_cache_shared {
            shared
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .window_clear_is_panel_fill = true;
        }
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
        let viewport_slot = ui_cache::ViewportSlot::default();
        let mut ui_cache_counts = Default::default();
        let mut ui_cache_shared = None;
        if ui_cache {
            let shared = ui_cache::SharedState::default();
            ui_cache_shared = Some(shared.clone());
            let options = rs.renderer.read().options();
            rs.renderer
                .write()
                .callback_resources
                .insert(ui_cache::UiCacheResources::new(
                    &rs.device,
                    rs.target_format,
                    options,
                    shared.clone(),
                ));
            let plugin = ui_cache::UiCachePlugin::new(viewport_slot.clone(), shared);
            ui_cache_counts = plugin.counts.clone();
            cc.egui_ctx.add_plugin(plugin);
        }
        let message = install_viewport(rs, &scene, &path)?;
        files::probe_system_dialog();
        let mut orbit = OrbitCamera::default();
        if let Some(b) = scene.bounds() {
            orbit.frame(b.min, b.max);
        }
        let prefs = cc
            .storage
            .and_then(|s| eframe::get_value::<Preferences>(s, preferences::KEY))
            .map(Preferences::sanitized)
            .unwrap_or_default();
        let layout = cc
            .storage
            .and_then(|s| eframe::get_value::<egui_tiles::Tree<Pane>>(s, LAYOUT_KEY))
            .filter(layout_is_complete)
            .unwrap_or_else(default_layout);
        let log = log::buffer();
        // The opened project's unsaved work first, else the newest untitled
        // project a session left unsaved (killed before its first save).
        let recovery = project::find_recovery(&path)
            .or_else(|| project::untitled_recoveries(&data_dir).into_iter().next());
        let mut prefs = prefs;
        files::push_recent(&mut prefs.recent, &path);
        let autosave = project::Autosave::new(std::time::Duration::from_secs(u64::from(
            prefs.autosave_seconds.max(1),
        )));
        Ok(Self {
            scene,
            history: History::new(500),
            path,
            orbit,
            clock: 0.0,
            playing: true,
            psp: false,
            preview_light: false,
            overlays: true,
            overlay: None,
            hovered: None,
            status: message,
            drag: None,
            gizmo_mode: gizmo::Mode::default(),
            viewport: egui::Rect::NOTHING,
            name_edit: None,
            box_start: None,
            last_hover_pick: f64::NEG_INFINITY,
            last_hover_inputs: None,
            frame_time: 0.0,
            figures_at: None,
            refresh_figures: true,
            status_figures: String::new(),
            shown_clock: 0.0,
            viewport_slot,
            ui_cache_counts,
            ui_cache_shared,
            deploy: deploy::DeployState::default(),
            compare: compare::CompareState::default(),
            show_history: false,
            assets: assets::AssetsState::default(),
            hover_point: None,
            view_target: None,
            orbit_centre: None,
            prefs,
            layout,
            bench: None,
            last_view: None,
            clock_speed: 1.0,
            show_log: false,
            show_inspector: false,
            show_outliner: false,
            show_preferences: false,
            show_help: false,
            adapter: format!(
                "{} ({:?})",
                rs.adapter.get_info().name,
                rs.adapter.get_info().backend
            ),
            show_about: false,
            outliner_search: String::new(),
            log,
            log_view: log::LogView::default(),
            dialog: None,
            pending: None,
            recovery,
            next_scene: None,
            export_job: None,
            import_job: None,
            autosave,
            untitled: false,
            data_dir,
            allow_close: false,
        })
    }

    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The camera the viewport drew with, and its rectangle in points.
    pub fn view(&self) -> (pebble_render::Camera, egui::Rect) {
        (self.orbit.camera(), self.viewport)
    }

    /// The project's file (for an untitled project, where it would be saved).
    pub fn project_path(&self) -> &Path {
        &self.path
    }

    /// Whether the project was never saved (File > New).
    pub fn is_untitled(&self) -> bool {
        self.untitled
    }

    /// Whether there are changes not saved yet.
    pub fn is_dirty(&self) -> bool {
        self.history.is_dirty()
    }

    /// The name of the step Undo would take back.
    pub fn history_undo_name(&self) -> Option<String> {
        self.history.undo_name()
    }

    /// Stops the scene clock (tests compare frames).
    pub fn pause(&mut self) {
        self.playing = false;
    }

    fn run_command(&mut self, command: impl pebble_model::Command) {
        if let Err(e) = self.history.execute(&mut self.scene, command) {
            self.status.error(format!("{e}"));
        }
    }

    fn select(&mut self, ids: Vec<EntityId>) {
        if ids.as_slice() != self.scene.selection() {
            self.run_command(Select::new(ids));
        }
    }

    /// The gizmo on the selection: at its pivot, with world axes, or with the
    /// active (last selected) entity's axes in local space and for scaling.
    fn gizmo(&self) -> Option<gizmo::Gizmo> {
        let pivot = self.selection_pivot()?;
        let orientation = if self.prefs.gizmo_space == gizmo::Space::Local
            || self.gizmo_mode == gizmo::Mode::Scale
        {
            self.scene
                .selection()
                .iter()
                .rev()
                .find(|id| self.scene.is_pickable(**id))
                .map(|id| {
                    self.scene
                        .world_transform(*id)
                        .to_scale_rotation_translation()
                        .1
                        .normalize()
                })
                .unwrap_or(Quat::IDENTITY)
        } else {
            Quat::IDENTITY
        };
        Some(gizmo::Gizmo {
            mode: self.gizmo_mode,
            pivot,
            orientation,
        })
    }

    /// The selected entities a gizmo drag moves: pickable ones without a selected
    /// ancestor (that one carries them already).
    fn moved_entities(&self) -> Vec<EntityId> {
        let selection = self.scene.selection();
        selection
            .iter()
            .copied()
            .filter(|id| self.scene.is_pickable(*id))
            .filter(|id| {
                let mut parent = self.scene.entity(*id).and_then(|e| e.parent);
                let mut guard = 0;
                while let Some(p) = parent {
                    if selection.contains(&p) || guard > 10_000 {
                        return false;
                    }
                    guard += 1;
                    parent = self.scene.entity(p).and_then(|e| e.parent);
                }
                true
            })
            .collect()
    }

    /// Where the gizmo sits: the middle of the selected entities' world positions.
    fn selection_pivot(&self) -> Option<Vec3> {
        let points: Vec<Vec3> = self
            .scene
            .selection()
            .iter()
            .filter(|id| self.scene.is_pickable(**id))
            .map(|id| self.scene.world_transform(*id).translation.into())
            .collect();
        (!points.is_empty()).then(|| points.iter().sum::<Vec3>() / points.len() as f32)
    }

    /// Eases the view to `to` over ~220 ms.
    fn go_to(&mut self, to: OrbitCamera) {
        self.view_target = Some((to, VIEW_EASE));
    }

    /// Where the view is going (or is, when it is still).
    fn view_goal(&self) -> OrbitCamera {
        self.view_target.map_or(self.orbit, |(t, _)| t)
    }

    /// F: frames the selection (everything when nothing is selected).
    fn frame_selection(&mut self) {
        let boxes: Vec<_> = self
            .scene
            .selection()
            .iter()
            .filter_map(|id| self.scene.world_aabb(*id))
            .collect();
        let b = boxes
            .into_iter()
            .reduce(|a, b| a.union(b))
            .or_else(|| self.scene.bounds());
        if let Some(b) = b {
            let mut to = self.view_goal();
            to.frame(b.min, b.max);
            self.go_to(to);
        }
    }

    /// Home: frames everything.
    fn frame_all(&mut self) {
        if let Some(b) = self.scene.bounds() {
            let mut to = self.view_goal();
            to.frame(b.min, b.max);
            self.go_to(to);
        }
    }

    /// Looks at the pivot from `dir` (a view cube cell), keeping pivot, distance
    /// and projection.
    pub fn look_from(&mut self, dir: pebble_model::glam::IVec3) {
        let mut to = self.view_goal();
        (to.yaw, to.pitch) = view_cube::yaw_pitch_from(dir);
        self.go_to(to);
    }

    /// The toolbar: gizmo mode and axes, snapping, the viewport's looks.
    fn toolbar_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            for (mode, key) in [
                (gizmo::Mode::Translate, "W"),
                (gizmo::Mode::Rotate, "E"),
                (gizmo::Mode::Scale, "R"),
            ] {
                ui.selectable_value(&mut self.gizmo_mode, mode, mode.name())
                    .on_hover_text(format!("{} gizmo ({key})", mode.name()));
            }
            ui.separator();
            let local = self.prefs.gizmo_space == gizmo::Space::Local;
            if ui
                .selectable_label(local, if local { "Local" } else { "World" })
                .on_hover_text("gizmo axes: world or the entity's own (Q)")
                .clicked()
            {
                self.prefs.gizmo_space = if local {
                    gizmo::Space::World
                } else {
                    gizmo::Space::Local
                };
            }
            ui.toggle_value(&mut self.prefs.snap, "Snap")
                .on_hover_text(format!(
                    "{} m, {}°, ×{} (Ctrl inverts while dragging)",
                    self.prefs.snap_steps.step,
                    self.prefs.snap_steps.angle_deg,
                    self.prefs.snap_steps.scale_step
                ));
            ui.separator();
            ui.toggle_value(&mut self.psp, "PSP preview")
                .on_hover_text("the renderer's PSP look: 480×272, the GE's sampling, 5551 dither");
            ui.toggle_value(&mut self.preview_light, "Preview light")
                .on_hover_text("light the scene live instead of showing the baked vertex colours");
            ui.toggle_value(&mut self.overlays, "Overlays");
        });
    }

    /// The view cube's home: an iso view from front-right-top framing everything.
    pub fn home_view(&mut self) {
        let mut to = self.view_goal();
        (to.yaw, to.pitch) = view_cube::yaw_pitch_from(pebble_model::glam::IVec3::new(1, 1, 1));
        to.ortho = false;
        if let Some(b) = self.scene.bounds() {
            to.frame(b.min, b.max);
        }
        self.go_to(to);
    }

    /// 5: perspective ↔ orthographic, eased, keeping the view.
    fn toggle_projection(&mut self) {
        let mut to = self.view_goal();
        to.ortho = !to.ortho;
        self.go_to(to);
    }

    /// Numpad 7 / 1 / 3 (Ctrl: the opposite side): an orthographic view from `face`.
    fn ortho_view(&mut self, face: navigation::Face) {
        let mut to = self.view_goal();
        to.ortho_from(face);
        self.go_to(to);
    }

    /// Saves to the project's file (asks where for a new project). Returns whether
    /// it was saved.
    pub fn save(&mut self) -> bool {
        if self.untitled {
            self.open_dialog(files::DialogKind::SaveAs);
            return false;
        }
        match project::save(&self.path, &self.scene) {
            Ok(()) => {
                self.history.mark_saved();
                self.autosave.saved(&self.path, std::time::Instant::now());
                self.status.info(format!("saved {}", self.path.display()));
                files::push_recent(&mut self.prefs.recent, &self.path);
                true
            }
            Err(e) => {
                self.status.error(format!(
                    "cannot save: {e} — your work is still open; try Save As"
                ));
                false
            }
        }
    }

    /// Saves under a new name. Texture paths are rebased when the folder changes
    /// (one undoable step), so the copy finds its textures.
    pub fn save_as(&mut self, to: PathBuf) -> bool {
        let to = if to.to_string_lossy().ends_with(".ron") {
            to
        } else {
            PathBuf::from(format!("{}.pebble.ron", to.display()))
        };
        let new_dir = pebble_model::project::folder_of(&to);
        // An untitled project's imported textures sit in its folder under the data
        // folder, which goes once it is saved: they move with the project.
        let (copied, copied_all) = if self.untitled {
            files::copy_textures(&self.scene, &self.project_dir(), &new_dir)
                .unwrap_or((Vec::new(), false))
        } else {
            (Vec::new(), true)
        };
        let mut moved = files::rebased_textures(&self.scene, &self.project_dir(), &new_dir);
        moved.retain(|(id, _)| {
            self.scene
                .material(*id)
                .and_then(|m| m.texture.as_ref())
                .is_none_or(|t| !copied.contains(t))
        });
        if !moved.is_empty() {
            let commands: Vec<Box<dyn pebble_model::Command>> = moved
                .into_iter()
                .filter_map(|(id, texture)| {
                    let mut m = self.scene.material(id)?.clone();
                    m.texture = Some(texture);
                    Some(Box::new(pebble_model::command::SetMaterial::new(id, m))
                        as Box<dyn pebble_model::Command>)
                })
                .collect();
            self.run_command(pebble_model::CommandGroup::new(
                "Rebase texture paths",
                commands,
            ));
        }
        let (old, was_untitled) = (std::mem::replace(&mut self.path, to), self.untitled);
        self.untitled = false;
        if self.save() {
            if was_untitled && copied_all {
                project::remove_untitled(&old, &self.data_dir);
            }
            true
        } else {
            self.path = old;
            self.untitled = was_untitled;
            false
        }
    }

    /// Opens a project, asking first when there is unsaved work.
    pub fn open_path(&mut self, path: PathBuf) {
        if self.history.is_dirty() && self.pending.is_none() {
            self.pending = Some(files::Pending::Open(path));
            return;
        }
        self.pending = None;
        match project::load(&path) {
            Ok(scene) => {
                self.recovery = project::find_recovery(&path);
                self.next_scene = Some((scene, path, false));
            }
            Err(e) => self.status.error(format!("cannot open: {e}")),
        }
    }

    /// Starts an empty project, asking first when there is unsaved work.
    pub fn new_project(&mut self) {
        if self.history.is_dirty() && self.pending.is_none() {
            self.pending = Some(files::Pending::New);
            return;
        }
        self.pending = None;
        // A folder of its own in the data folder, never the last project's: its
        // autosave and imports live there until Save As names it.
        match project::new_untitled(&self.data_dir) {
            Ok(path) => self.next_scene = Some((Scene::new(), path, true)),
            Err(e) => self
                .status
                .error(format!("cannot start a new project: {e}")),
        }
    }

    /// Creates a Create-menu item where the view looks, selected, as one undoable
    /// step (a mesh in a project without materials first gets a "Default" one).
    pub fn create(&mut self, item: create::CreateItem) {
        let mut material = self.scene.materials().next().map(|(id, _)| id);
        if material.is_none() && item.needs_material() {
            let before: Vec<pebble_model::MaterialId> =
                self.scene.materials().map(|(id, _)| id).collect();
            self.run_command(pebble_model::command::AddMaterial::new(
                pebble_model::Material {
                    name: "Default".into(),
                    ..pebble_model::Material::default()
                },
            ));
            material = self
                .scene
                .materials()
                .map(|(id, _)| id)
                .find(|id| !before.contains(id));
        }
        match create::entity(item, self.view_goal().pivot, material) {
            Ok(e) => self.run_command(pebble_model::command::AddEntities::new(
                format!("Create {}", item.label()),
                vec![e],
            )),
            Err(e) => self.status.error(e),
        }
    }

    /// Exports the scene to `path` in the background (progress in a window, with
    /// Cancel).
    pub fn export_to(&mut self, path: PathBuf) {
        if self.export_job.is_some() {
            self.status.warn("an export is already running");
            return;
        }
        let path = if path.extension().is_some_and(|e| e == "pbm") {
            path
        } else {
            path.with_extension("pbm")
        };
        tracing::info!(target: "pebble", "exporting to {}", path.display());
        self.export_job = Some(files::start_export(&self.scene, self.project_dir(), path));
    }

    /// Imports a glTF, TMD, image or .pbm into the scene in the background; it
    /// arrives as one undoable step.
    pub fn import_path(&mut self, path: PathBuf) {
        if self.import_job.is_some() {
            self.status.warn("an import is already running");
            return;
        }
        self.status.info(format!("importing {}…", path.display()));
        self.import_job = Some(files::start_import(path, self.project_dir()));
    }

    fn open_dialog(&mut self, kind: files::DialogKind) {
        if self.dialog.is_some() {
            return;
        }
        let name = match kind {
            files::DialogKind::SaveAs => self
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
            files::DialogKind::Export => self.path.file_name().map(|n| {
                n.to_string_lossy()
                    .trim_end_matches(".ron")
                    .trim_end_matches(".pebble")
                    .to_string()
                    + ".pbm"
            }),
            _ => None,
        };
        // An untitled project's folder is the data folder's: start where the user
        // last worked instead.
        let dir = if self.untitled {
            self.prefs
                .recent
                .iter()
                .find_map(|p| p.parent().filter(|d| d.is_dir()).map(Path::to_path_buf))
                .or_else(|| std::env::var_os("HOME").map(PathBuf::from))
                .unwrap_or_else(|| self.project_dir())
        } else {
            self.project_dir()
        };
        let system = !self.prefs.own_file_dialog && files::system_dialog_known() == Some(true);
        self.dialog = Some(if system {
            files::Dialog::system(kind, &dir, name)
        } else {
            if !self.prefs.own_file_dialog {
                self.status.warn("no system file dialog here (no XDG desktop portal with a file chooser, no zenity): using Pebble's own");
            }
            files::Dialog::in_app(kind, &dir, name)
        });
    }

    /// Puts a loaded scene in place: the viewport's GPU scene is rebuilt, the
    /// history starts afresh, the view frames it.
    fn install_scene(
        &mut self,
        frame: &mut eframe::Frame,
        scene: Scene,
        path: PathBuf,
        unsaved: bool,
    ) {
        let Some(rs) = frame.wgpu_render_state() else {
            self.status.error("no GPU renderer");
            return;
        };
        match install_viewport(rs, &scene, &path) {
            Ok(message) => {
                self.status = message;
                self.scene = scene;
                self.history = History::new(500);
                if unsaved {
                    self.history.mark_unsaved();
                }
                self.untitled = unsaved && !path.exists();
                if !self.untitled {
                    files::push_recent(&mut self.prefs.recent, &path);
                }
                self.path = path;
                self.overlay = None;
                self.hovered = None;
                self.drag = None;
                self.view_target = None;
                self.orbit = OrbitCamera::default();
                if let Some(b) = self.scene.bounds() {
                    self.orbit.frame(b.min, b.max);
                }
            }
            Err(e) => self
                .status
                .error(format!("cannot show {}: {e}", path.display())),
        }
    }

    /// Takes what the dialogs and background jobs reported since last frame.
    fn poll_files(&mut self, ctx: &egui::Context) {
        if let Some(d) = &mut self.dialog {
            if !d.is_in_app() {
                ctx.request_repaint_after(std::time::Duration::from_millis(100));
            }
            if let Some(picked) = d.poll(ctx) {
                let kind = d.kind;
                self.dialog = None;
                if let Some(path) = picked {
                    match kind {
                        files::DialogKind::Open => self.open_path(path),
                        files::DialogKind::SaveAs => {
                            if self.save_as(path) && self.pending == Some(files::Pending::Close) {
                                self.allow_close = true;
                                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                            }
                        }
                        files::DialogKind::Import => self.import_path(path),
                        files::DialogKind::Export => self.export_to(path),
                    }
                }
            }
        }
        if let Some(job) = &mut self.export_job {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
            if let Some(r) = job.poll() {
                self.export_job = None;
                self.status.outcome(r);
            }
        }
        if let Some(job) = &mut self.import_job {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
            if let Some(r) = job.poll() {
                let path = job.path.clone();
                self.import_job = None;
                match r {
                    Ok(imported) => {
                        let command = imported.command.without_settings();
                        let n = command.entities().len();
                        self.run_command(command);
                        self.status
                            .info(format!("imported {} ({n} entities)", path.display()));
                        for w in &imported.report.warnings {
                            tracing::warn!(target: "pebble", "{}: {w}", path.display());
                        }
                    }
                    Err(e) => self.status.error(e),
                }
            }
        }
    }

    /// The questions that must be answered before going on: unsaved changes,
    /// recovered work; and the export's progress with Cancel.
    fn modals_ui(&mut self, ctx: &egui::Context) {
        if let Some(pending) = self.pending.clone() {
            let what = match &pending {
                files::Pending::New => "starting a new project".to_string(),
                files::Pending::Open(p) => format!("opening {}", p.display()),
                files::Pending::Close => "closing Pebble".to_string(),
            };
            let mut answer = None;
            egui::Modal::new(egui::Id::unique("pebble unsaved")).show(ctx, |ui| {
                ui.heading("Unsaved changes");
                ui.label(format!(
                    "{} has changes that are not saved. Save them before {what}?",
                    self.path
                        .file_name()
                        .map(|n| n.to_string_lossy())
                        .unwrap_or_default()
                ));
                ui.horizontal(|ui| {
                    if ui.button("Save").clicked() {
                        answer = Some(0);
                    }
                    if ui.button("Don't save").clicked() {
                        answer = Some(1);
                    }
                    if ui.button("Cancel").clicked() {
                        answer = Some(2);
                    }
                });
            });
            match answer {
                // Save As for a new project goes on once the dialog answers.
                Some(0) if self.save() => self.go_on(ctx, pending),
                Some(1) => self.go_on(ctx, pending),
                Some(2) => self.pending = None,
                _ => {}
            }
        }
        if let Some(info) = self.recovery.clone() {
            let mut answer = None;
            egui::Modal::new(egui::Id::unique("pebble recovery")).show(ctx, |ui| {
                ui.heading("Recover unsaved work?");
                if info.project_modified.is_none() {
                    ui.label(format!(
                        "Pebble found work on an untitled project that was never saved (autosaved {}).",
                        files::recovery_age(&info)
                    ));
                } else {
                    ui.label(format!(
                        "Pebble found work on {} that was not saved (autosaved {}), newer than the project file.",
                        info.project
                            .file_name()
                            .map(|n| n.to_string_lossy())
                            .unwrap_or_default(),
                        files::recovery_age(&info)
                    ));
                }
                ui.horizontal(|ui| {
                    if ui.button("Restore").clicked() {
                        answer = Some(true);
                    }
                    if ui.button("Discard").clicked() {
                        answer = Some(false);
                    }
                });
            });
            match answer {
                Some(true) => match project::load_recovery(&info) {
                    Ok(scene) => {
                        self.recovery = None;
                        self.next_scene = Some((scene, info.project.clone(), true));
                    }
                    Err(e) => {
                        self.recovery = None;
                        self.status.error(format!(
                            "cannot restore: {e} (the file is kept: {})",
                            info.path.display()
                        ));
                    }
                },
                Some(false) => {
                    self.recovery = None;
                    if let Err(e) = project::discard_recovery(&info) {
                        self.status.error(format!("{e}"));
                    }
                    project::remove_untitled(&info.project, &self.data_dir);
                }
                None => {}
            }
        }
        let mut cancel = false;
        if let Some(job) = &self.export_job {
            egui::Window::new("Exporting")
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -40.0))
                .show(ctx, |ui| {
                    ui.label(job.path.display().to_string());
                    let fraction = job.fraction.unwrap_or(0.0);
                    ui.add(
                        egui::ProgressBar::new(fraction)
                            .text(format!("{} {:.0} %", job.stage, fraction * 100.0))
                            .desired_width(320.0),
                    );
                    cancel = ui.button("Cancel").clicked();
                });
        }
        if cancel && let Some(job) = &self.export_job {
            job.cancel();
        }
    }

    /// Ends `pebble bench-editor`: the bare renderer on the same view, the report
    /// (stdout and JSON), then closes the window.
    /// The benchmark's windowed baseline: this frame holds nothing but the
    /// viewport's picture of the last editor view, where the viewport was, with the
    /// clock running on.
    fn bare_window_ui(&mut self, ui: &mut egui::Ui, dt: f32) {
        let Some(view) = &mut self.last_view else {
            return;
        };
        view.options.time += f64::from(dt * self.clock_speed);
        let callback = ViewportCallback {
            camera: view.camera,
            options: view.options,
            overlay: view.overlay.clone(),
            selected: view.selected.clone(),
            hovered: None,
        };
        let rect = view.rect;
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| viewport::paint(ui, rect, callback));
        // Known to the UI cache, which then finds no UI to cache or count.
        self.announce_viewport(rect);
    }

    /// Tells the UI cache where this frame's viewport picture is.
    fn announce_viewport(&self, rect: egui::Rect) {
        if let Ok(mut slot) = self.viewport_slot.lock() {
            *slot = Some(rect);
        }
    }

    fn finish_bench(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        let Some(b) = &self.bench else { return };
        let (editor_median, editor_p95) = bench::stats(b.editor_times());
        let (window_median, window_p95) = bench::stats(b.window_times());
        let (ui_median, _) = bench::stats(&b.ui_times);
        let frames = b.editor_times().len();
        let options = b.options.clone();
        let resident = bench::resident_mb();
        let result = (|| -> Result<bench::Report, String> {
            let view = self.last_view.clone().ok_or("the viewport never drew")?;
            let rs = frame.wgpu_render_state().ok_or("no GPU renderer")?;
            let adapter = rs.adapter.get_info();
            let guard = rs.renderer.read();
            let res = guard
                .callback_resources
                .get::<ViewportResources>()
                .ok_or("no viewport resources")?;
            let dt = editor_median / 1e3;
            // Warm the off-screen path too, then measure as many frames.
            bench::bare_renderer_times(&res.renderer, &view, 10, dt)?;
            let (times, stats) = bench::bare_renderer_times(&res.renderer, &view, frames, dt)?;
            let (median, p95) = bench::stats(&times);
            let size = ctx.content_rect().size();
            Ok(bench::Report {
                frames,
                window: [size.x, size.y],
                viewport_pixels: [view.options.width, view.options.height],
                adapter: format!("{} ({:?})", adapter.name, adapter.backend),
                editor_median_ms: editor_median,
                editor_p95_ms: editor_p95,
                ui_median_ms: ui_median,
                window_renderer_median_ms: window_median,
                window_renderer_p95_ms: window_p95,
                ratio: editor_median / window_median.max(1e-9),
                renderer_median_ms: median,
                renderer_p95_ms: p95,
                offscreen_ratio: editor_median / median.max(1e-9),
                resident_mb: resident,
                triangles: stats.triangles as u64,
                draw_calls: stats.draw_calls as u64,
                particles: stats.particles as u64,
            })
        })();
        match result {
            Ok(r) => {
                println!(
                    "editor bench: {} frames each, window {:.0}×{:.0} points, viewport {}×{} px, {}",
                    r.frames,
                    r.window[0],
                    r.window[1],
                    r.viewport_pixels[0],
                    r.viewport_pixels[1],
                    r.adapter
                );
                println!(
                    "  whole editor (UI + viewport):       median {:.2} ms  p95 {:.2} ms  (of which the app's ui: {:.2} ms)",
                    r.editor_median_ms, r.editor_p95_ms, r.ui_median_ms
                );
                println!(
                    "  bare renderer in the same window:   median {:.2} ms  p95 {:.2} ms  (its picture alone, presented)",
                    r.window_renderer_median_ms, r.window_renderer_p95_ms
                );
                println!(
                    "  bare renderer off screen:           median {:.2} ms  p95 {:.2} ms  ({} triangles, {} draw calls, {} particles)",
                    r.renderer_median_ms, r.renderer_p95_ms, r.triangles, r.draw_calls, r.particles
                );
                println!(
                    "  editor / bare renderer in the window: {:.2}   (editor / off screen: {:.2})",
                    r.ratio, r.offscreen_ratio
                );
                let [cached, redrawn, ordinary, patched] = *self
                    .ui_cache_counts
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                let transfers = self.ui_cache_shared.as_ref().map_or(0, |s| {
                    s.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .copied_after_pass
                });
                println!(
                    "  UI cache: {} frames drawn from it ({patched} after redrawing what changed, {redrawn} after redrawing it whole), {ordinary} painted without it; {transfers} copied to the window as transfers",
                    cached + patched + redrawn
                );
                match r.resident_mb {
                    Some(mb) => println!("  resident memory: {mb:.0} MB"),
                    None => println!("  resident memory: unknown on this system"),
                }
                if let Some(path) = &options.json {
                    let text = serde_json::to_string_pretty(&r).unwrap_or_default();
                    if let Err(e) = pbm::file::write_atomic(path, text.as_bytes()) {
                        eprintln!("cannot write {}: {e}", path.display());
                    }
                }
            }
            Err(e) => eprintln!("editor bench failed: {e}"),
        }
        self.allow_close = true;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }

    /// Carries out an action once unsaved changes were saved or let go.
    fn go_on(&mut self, ctx: &egui::Context, pending: files::Pending) {
        // Saved, or let go: either way the autosave of these changes is done with.
        self.history.mark_saved();
        let _ = std::fs::remove_file(project::recovery_path(&self.path));
        self.pending = None;
        match pending {
            files::Pending::New => self.new_project(),
            files::Pending::Open(p) => self.open_path(p),
            files::Pending::Close => {
                self.allow_close = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Carries out a user action (from a menu, a key or a test): the one place each
    /// action's effect is written.
    pub fn run_action(&mut self, ctx: &egui::Context, action: Action) {
        use navigation::Face;
        match action {
            Action::New => self.new_project(),
            Action::Open => self.open_dialog(files::DialogKind::Open),
            Action::Save => {
                self.save();
            }
            Action::SaveAs => self.open_dialog(files::DialogKind::SaveAs),
            Action::Import => self.open_dialog(files::DialogKind::Import),
            Action::Export => self.open_dialog(files::DialogKind::Export),
            Action::Preferences => self.show_preferences = true,
            Action::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Action::Undo => {
                self.history.undo(&mut self.scene);
            }
            Action::Redo => {
                if let Some(Err(e)) = self.history.redo(&mut self.scene) {
                    self.status.error(format!("cannot redo: {e}"));
                }
            }
            Action::FrameSelection => self.frame_selection(),
            Action::FrameAll => self.frame_all(),
            Action::GizmoMove => self.gizmo_mode = gizmo::Mode::Translate,
            Action::GizmoRotate => self.gizmo_mode = gizmo::Mode::Rotate,
            Action::GizmoScale => self.gizmo_mode = gizmo::Mode::Scale,
            Action::ToggleGizmoSpace => {
                self.prefs.gizmo_space = match self.prefs.gizmo_space {
                    gizmo::Space::World => gizmo::Space::Local,
                    gizmo::Space::Local => gizmo::Space::World,
                };
            }
            Action::ViewTop => self.ortho_view(Face::Top),
            Action::ViewBottom => self.ortho_view(Face::Bottom),
            Action::ViewFront => self.ortho_view(Face::Front),
            Action::ViewBack => self.ortho_view(Face::Back),
            Action::ViewRight => self.ortho_view(Face::Right),
            Action::ViewLeft => self.ortho_view(Face::Left),
            Action::ToggleProjection => self.toggle_projection(),
            Action::Create(item) => self.create(item),
        }
    }

    /// A menu entry for `action`, carried out when clicked.
    fn action_button(&mut self, ui: &mut egui::Ui, action: Action, enabled: bool) {
        if ui
            .add_enabled(enabled, egui::Button::new(action.menu_text()))
            .clicked()
        {
            let ctx = ui.ctx().clone();
            self.run_action(&ctx, action);
        }
    }

    fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                self.action_button(ui, Action::New, true);
                self.action_button(ui, Action::Open, true);
                ui.menu_button("Open recent", |ui| {
                    if self.prefs.recent.is_empty() {
                        ui.label("(none yet)");
                    }
                    for p in self.prefs.recent.clone() {
                        let exists = p.exists();
                        if ui
                            .add_enabled(exists, egui::Button::new(p.display().to_string()))
                            .on_disabled_hover_text("the file is gone")
                            .clicked()
                        {
                            self.open_path(p);
                        }
                    }
                });
                ui.separator();
                self.action_button(ui, Action::Save, true);
                self.action_button(ui, Action::SaveAs, true);
                ui.separator();
                let (importing, exporting) = (self.import_job.is_some(), self.export_job.is_some());
                self.action_button(ui, Action::Import, !importing);
                self.action_button(ui, Action::Export, !exporting);
                ui.separator();
                self.action_button(ui, Action::Preferences, true);
                ui.separator();
                self.action_button(ui, Action::Quit, true);
            });
            ui.menu_button("Edit", |ui| {
                // Named after the step they take back or redo.
                for (action, name) in [
                    (Action::Undo, self.history.undo_name()),
                    (Action::Redo, self.history.redo_name()),
                ] {
                    let text = name.as_ref().map_or(action.label().to_string(), |n| {
                        format!("{} {n}", action.label())
                    });
                    if ui
                        .add_enabled(name.is_some(), egui::Button::new(text))
                        .clicked()
                    {
                        let ctx = ui.ctx().clone();
                        self.run_action(&ctx, action);
                    }
                }
            });
            ui.menu_button("View", |ui| {
                ui.checkbox(&mut self.psp, "PSP preview");
                ui.checkbox(&mut self.preview_light, "Preview light (unbaked)");
                ui.checkbox(&mut self.overlays, "Overlays");
                ui.checkbox(&mut self.prefs.snap, "Snap (Ctrl inverts while dragging)");
                ui.horizontal(|ui| {
                    ui.label("Gizmo");
                    for m in [
                        gizmo::Mode::Translate,
                        gizmo::Mode::Rotate,
                        gizmo::Mode::Scale,
                    ] {
                        ui.radio_value(&mut self.gizmo_mode, m, m.name());
                    }
                });
                ui.horizontal(|ui| {
                    ui.radio_value(&mut self.prefs.gizmo_space, gizmo::Space::World, "World");
                    ui.radio_value(
                        &mut self.prefs.gizmo_space,
                        gizmo::Space::Local,
                        "Local  (Q)",
                    );
                });
                ui.horizontal(|ui| {
                    ui.label("Panels:");
                    if ui.small_button("Outliner").clicked() {
                        self.show_outliner = true;
                    }
                    if ui.small_button("Inspector").clicked() {
                        self.show_inspector = true;
                    }
                    if ui.small_button("Assets").clicked() {
                        self.assets.open = true;
                    }
                    if ui.small_button("History").clicked() {
                        self.show_history = true;
                    }
                    if ui.small_button("Log").clicked() {
                        self.show_log = true;
                    }
                });
                if ui.button("Reset the panel layout").clicked() {
                    self.layout = default_layout();
                }
                ui.separator();
                ui.label("Navigation");
                for p in navigation::Preset::ALL {
                    ui.radio_value(&mut self.prefs.nav_preset, p, p.name());
                }
                ui.add(
                    egui::Slider::new(&mut self.prefs.zoom_step, 0.02..=0.4)
                        .text("zoom per notch")
                        .custom_formatter(|v, _| format!("{:.0} %", v * 100.0)),
                );
                ui.checkbox(&mut self.prefs.zoom_invert, "Invert zoom");
                self.action_button(ui, Action::FrameAll, true);
                self.action_button(ui, Action::FrameSelection, true);
                ui.separator();
                ui.label("Projection");
                for action in [
                    Action::ViewTop,
                    Action::ViewFront,
                    Action::ViewRight,
                    Action::ToggleProjection,
                ] {
                    self.action_button(ui, action, true);
                }
            });
            ui.menu_button("Create", |ui| {
                for (k, (_, items)) in create::GROUPS.iter().enumerate() {
                    if k > 0 {
                        ui.separator();
                    }
                    for &item in *items {
                        self.action_button(ui, Action::Create(item), true);
                    }
                }
            });
            ui.menu_button("Tools", |ui| {
                if ui.button("Compare a device capture…").clicked() {
                    self.compare.open = true;
                }
            });
            ui.menu_button("Help", |ui| {
                if ui.button("Keyboard and mouse").clicked() {
                    self.show_help = true;
                }
                if ui.button("About Pebble").clicked() {
                    self.show_about = true;
                }
            });
            let mut deploy_now = false;
            // The menu holds a text field (the target folder): clicking into it
            // must not close the menu, so only a click outside (or Export &
            // Deploy, or Esc) does.
            egui::containers::menu::MenuButton::new("Deploy")
                .config(
                    egui::containers::menu::MenuConfig::new()
                        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside),
                )
                .ui(ui, |ui| {
                    deploy_now = self.deploy.menu_ui(ui);
                    if deploy_now {
                        ui.close();
                    }
                });
            ui.separator();
            if ui
                .add_enabled(!self.deploy.busy(), egui::Button::new("Export & Deploy"))
                .on_hover_text(if self.deploy.target.is_empty() {
                    "choose where in the Deploy menu".to_string()
                } else {
                    format!("to {}", self.deploy.target)
                })
                .clicked()
            {
                deploy_now = true;
            }
            if deploy_now {
                self.export_and_deploy();
            }
            ui.separator();
            let label = if self.playing { "Pause" } else { "Play" };
            if ui.button(label).clicked() {
                self.playing = !self.playing;
            }
            // Drag to scrub the scene clock (or type a time). While playing it
            // shows the time twice a second, with the status bar's figures.
            if !self.playing || self.refresh_figures {
                self.shown_clock = self.clock;
            }
            if ui
                .add(
                    egui::DragValue::new(&mut self.shown_clock)
                        .speed(0.05)
                        .range(0.0..=86_400.0)
                        .prefix("t = ")
                        .suffix(" s")
                        .fixed_decimals(2),
                )
                .on_hover_text("scene clock: drag to scrub")
                .changed()
            {
                self.clock = self.shown_clock;
            }
            ui.add(
                egui::DragValue::new(&mut self.clock_speed)
                    .speed(0.01)
                    .range(0.0..=8.0)
                    .prefix("× ")
                    .fixed_decimals(2),
            )
            .on_hover_text("clock speed");
            ui.separator();
            let env = self.scene.settings().environment;
            let mut chosen = env;
            egui::ComboBox::from_id_salt("environment")
                .selected_text(env.preset_name())
                .show_ui(ui, |ui| {
                    use pebble_model::scene::Environment;
                    for e in [
                        Environment::Dawn,
                        Environment::Day,
                        Environment::Dusk,
                        Environment::Night,
                    ] {
                        ui.selectable_value(&mut chosen, e, e.preset_name());
                    }
                })
                .response
                .on_hover_text("environment preset (sky, fog, default sun)");
            if chosen != env {
                let mut settings = self.scene.settings().clone();
                settings.environment = chosen;
                self.run_command(pebble_model::command::SetSettings::new(settings));
            }
        });
    }

    /// The project's folder (assets and captures resolve against it).
    fn project_dir(&self) -> PathBuf {
        pebble_model::project::folder_of(&self.path)
    }

    /// Puts the viewport where the loaded capture was taken: its camera, its scene
    /// time (paused) and the PSP look.
    pub fn go_to_capture(&mut self) {
        if let Some(s) = self.compare.sidecar() {
            self.orbit.yaw = s.yaw;
            self.orbit.pitch = s.pitch;
            self.orbit.fov_y_deg = s.fov;
            self.orbit.pivot = s.position + self.orbit.forward() * self.orbit.distance;
            self.clock = s.time;
            self.playing = false;
            self.psp = true;
        }
    }

    /// Exports the scene and deploys it to the Deploy menu's target, in the
    /// background (the status bar follows it).
    pub fn export_and_deploy(&mut self) {
        let dir = self.project_dir();
        if let Err(e) = self.deploy.start(&self.scene, dir) {
            self.status.error(e);
        }
    }

    /// Where the view cube is drawn, in points.
    pub fn view_cube_rect(&self) -> egui::Rect {
        egui::Rect::from_min_size(
            self.viewport.right_top() + egui::vec2(-VIEW_CUBE_SIZE - 12.0, 12.0),
            egui::vec2(VIEW_CUBE_SIZE, VIEW_CUBE_SIZE),
        )
    }

    /// The point of the view cube that shows `dir` (a face's centre, an edge's or
    /// a corner's middle), in points — for tests and tooltips.
    pub fn view_cube_point(&self, dir: pebble_model::glam::IVec3) -> egui::Pos2 {
        let rect = self.view_cube_rect();
        let p = view_cube::project(
            self.orbit.yaw,
            self.orbit.pitch,
            dir.as_vec3() * 0.85 / dir.abs().max_element().max(1) as f32,
        );
        rect.center() + egui::vec2(p.x, p.y) * (VIEW_CUBE_SIZE / 2.0 / VIEW_CUBE_REACH)
    }

    /// The view cube in the viewport's top-right corner, turned with the view: a
    /// click on a face, edge or corner looks from there (animated, pivot and
    /// projection kept), a drag orbits, and Home below it gives the iso view
    /// framing everything.
    fn view_cube_ui(&mut self, ui: &mut egui::Ui) {
        let rect = self.view_cube_rect();
        let scale = VIEW_CUBE_SIZE / 2.0 / VIEW_CUBE_REACH;
        let response = ui.interact(
            rect,
            egui::Id::unique("pebble view cube"),
            egui::Sense::click_and_drag(),
        );
        let (yaw, pitch) = (self.orbit.yaw, self.orbit.pitch);
        let to_cube = |p: egui::Pos2| {
            let d = (p - rect.center()) / scale;
            Vec2::new(d.x, d.y)
        };
        let hovered = response
            .hover_pos()
            .and_then(|p| view_cube::hit(yaw, pitch, to_cube(p)));
        if response.clicked()
            && let Some(cell) = response
                .interact_pointer_pos()
                .and_then(|p| view_cube::hit(yaw, pitch, to_cube(p)))
        {
            self.look_from(cell.dir);
        }
        if response.dragged() {
            let d = response.drag_delta() * ui.ctx().pixels_per_point();
            self.view_target = None;
            self.orbit.orbit(Vec2::new(d.x, d.y) * 2.0);
        }
        let painter = ui.painter_at(rect.expand(2.0));
        let light = Vec3::new(0.3, 0.8, 0.5).normalize();
        let mut cells = view_cube::visible(yaw, pitch);
        // Draw the sides lit by their facing, edges and corners a shade darker.
        cells.sort_by_key(|(c, _)| !c.is_face());
        for (cell, quad) in &cells {
            let shade = 0.55 + 0.35 * cell.normal.dot(light).max(0.0);
            let base = if cell.is_face() { 150.0 } else { 120.0 };
            let v = (base * shade) as u8;
            let hot = hovered.is_some_and(|h| h.dir == cell.dir);
            let fill = if hot {
                egui::Color32::from_rgb(255, 170, 40)
            } else {
                egui::Color32::from_rgb(v, v, v.saturating_add(12))
            };
            let points: Vec<egui::Pos2> = quad
                .iter()
                .map(|p| rect.center() + egui::vec2(p.x, p.y) * scale)
                .collect();
            painter.add(egui::Shape::convex_polygon(
                points,
                fill,
                egui::Stroke::new(0.5, egui::Color32::from_gray(40)),
            ));
        }
        for (cell, quad) in &cells {
            if cell.is_face() {
                let centre = quad.iter().fold(Vec2::ZERO, |a, p| a + *p) / 4.0;
                painter.text(
                    rect.center() + egui::vec2(centre.x, centre.y) * scale,
                    egui::Align2::CENTER_CENTER,
                    view_cube::face_name(cell.normal),
                    egui::FontId::proportional(11.0),
                    egui::Color32::from_gray(15),
                );
            }
        }
        let below = egui::Rect::from_min_size(
            rect.left_bottom() + egui::vec2(0.0, 4.0),
            egui::vec2(VIEW_CUBE_SIZE, 20.0),
        );
        ui.scope_builder(egui::UiBuilder::new().max_rect(below), |ui| {
            ui.horizontal(|ui| {
                if ui
                    .small_button("Home")
                    .on_hover_text("iso view, frame all")
                    .clicked()
                {
                    self.home_view();
                }
                let label = if self.orbit.ortho { "Ortho" } else { "Persp" };
                if ui
                    .small_button(label)
                    .on_hover_text("toggle the projection (Numpad 5)")
                    .clicked()
                {
                    self.toggle_projection();
                }
            });
        });
    }

    /// The undo list, oldest first: applied entries, then undone ones (greyed);
    /// clicking one undoes or redoes up to it.
    fn history_ui(&mut self, ui: &mut egui::Ui) {
        let mut jump = None;
        let position = self.history.position();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if ui.selectable_label(position == 0, "(opened)").clicked() {
                    jump = Some(0);
                }
                for (k, e) in self.history.entries().into_iter().enumerate() {
                    let text = if e.applied {
                        egui::RichText::new(&e.name)
                    } else {
                        egui::RichText::new(&e.name).weak()
                    };
                    if ui.selectable_label(position == k + 1, text).clicked() {
                        jump = Some(k + 1);
                    }
                }
            });
        if let Some(to) = jump
            && let Err(e) = self.history.jump_to(&mut self.scene, to)
        {
            self.status.error(format!("cannot redo: {e}"));
        }
    }

    /// One of an outliner row's flag checkboxes: a change is one command, named
    /// `names.0` when the flag turns on and `names.1` when it turns off.
    /// One of an outliner row's toggles: an icon, bright when on and faint when
    /// off, announced as a checkbox named `name`. Icons rather than checkboxes:
    /// a glyph is two triangles where a checkbox's rounded, anti-aliased frame and
    /// tick are dozens, and a software GPU pays for every one of them each frame.
    #[allow(clippy::too_many_arguments)]
    fn entity_flag_ui(
        &mut self,
        ui: &mut egui::Ui,
        id: EntityId,
        value: bool,
        (name, hover): (&str, &str),
        (icon_on, icon_off): (&str, &str),
        (command_on, command_off): (&str, &str),
        set: fn(&mut pebble_model::Entity, bool),
    ) {
        let visuals = ui.visuals();
        let text = if value {
            egui::RichText::new(icon_on).color(visuals.strong_text_color())
        } else {
            egui::RichText::new(icon_off).color(visuals.weak_text_color())
        };
        let response = ui
            .add(
                egui::Button::new(text)
                    .frame(false)
                    .min_size(egui::vec2(18.0, 18.0)),
            )
            .on_hover_text(hover);
        response
            .widget_info(|| egui::WidgetInfo::selected(egui::Role::CheckBox, true, value, name));
        if response.clicked()
            && let Some(e) = self.scene.entity(id)
        {
            let mut e = e.clone();
            set(&mut e, !value);
            self.run_command(SetEntity::new(
                if value { command_off } else { command_on },
                e,
            ));
        }
    }

    /// The entity tree: visibility and lock toggles, click to select (Shift adds,
    /// Ctrl toggles), drag a row onto another to make it a child (onto the list's
    /// end to make it a root), and a name filter that lists matches flat.
    fn outliner_ui(&mut self, ui: &mut egui::Ui) {
        ui.add(
            egui::TextEdit::singleline(&mut self.outliner_search)
                .hint_text("search by name")
                .desired_width(f32::INFINITY),
        );
        let needle = self.outliner_search.trim().to_lowercase();
        // (id, depth) in tree order, or the matches when searching.
        let rows: Vec<(EntityId, usize)> = if needle.is_empty() {
            let mut out = Vec::new();
            let mut stack: Vec<(EntityId, usize)> = self
                .scene
                .children(None)
                .into_iter()
                .rev()
                .map(|id| (id, 0))
                .collect();
            while let Some((id, depth)) = stack.pop() {
                out.push((id, depth));
                if out.len() > 100_000 {
                    break;
                }
                for c in self.scene.children(Some(id)).into_iter().rev() {
                    stack.push((c, depth + 1));
                }
            }
            out
        } else {
            self.scene
                .entities()
                .filter(|e| e.name.to_lowercase().contains(&needle))
                .map(|e| (e.id, 0))
                .collect()
        };
        let modifiers = ui.input(|i| i.modifiers);
        let mut reparent: Option<(EntityId, Option<EntityId>)> = None;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (id, depth) in rows {
                    let Some(e) = self.scene.entity(id) else {
                        continue;
                    };
                    let (name, visible, locked, kind) =
                        (e.name.clone(), e.visible, e.locked, e.kind.kind().name());
                    ui.horizontal(|ui| {
                        ui.add_space(depth as f32 * 14.0);
                        self.entity_flag_ui(
                            ui,
                            id,
                            visible,
                            ("visible", "visible: click to hide or show"),
                            ("👁", "👁"),
                            ("Show", "Hide"),
                            |e, v| e.visible = v,
                        );
                        self.entity_flag_ui(
                            ui,
                            id,
                            locked,
                            ("locked", "locked: cannot be picked in the viewport"),
                            ("🔒", "🔓"),
                            ("Lock", "Unlock"),
                            |e, v| e.locked = v,
                        );
                        let selected = self.scene.selection().contains(&id);
                        let row = ui
                            .add(egui::Button::selectable(
                                selected,
                                format!("{name}  ({kind})"),
                            ))
                            .interact(egui::Sense::drag());
                        if row.clicked() {
                            let mut ids = if modifiers.shift || modifiers.command {
                                self.scene.selection().to_vec()
                            } else {
                                Vec::new()
                            };
                            if modifiers.command && ids.contains(&id) {
                                ids.retain(|i| *i != id);
                            } else if !ids.contains(&id) {
                                ids.push(id);
                            }
                            self.select(ids);
                        }
                        if row.drag_started() {
                            egui::DragAndDrop::set_payload(ui.ctx(), id);
                        }
                        if let Some(dragged) = row.dnd_hover_payload::<EntityId>()
                            && *dragged != id
                        {
                            ui.painter().rect_stroke(
                                row.rect,
                                2.0,
                                egui::Stroke::new(1.5, egui::Color32::from_rgb(255, 170, 40)),
                                egui::StrokeKind::Outside,
                            );
                        }
                        if let Some(dragged) = row.dnd_release_payload::<EntityId>()
                            && *dragged != id
                        {
                            reparent = Some((*dragged, Some(id)));
                        }
                    });
                }
                // The space below the rows: drop here to make a root entity.
                let rest = ui.allocate_response(
                    egui::vec2(ui.available_width(), ui.available_height().max(24.0)),
                    egui::Sense::hover(),
                );
                if let Some(dragged) = rest.dnd_release_payload::<EntityId>() {
                    reparent = Some((*dragged, None));
                }
            });
        if let Some((child, parent)) = reparent
            && self.scene.entity(child).is_some_and(|e| e.parent != parent)
        {
            self.run_command(pebble_model::command::Reparent::new(vec![child], parent));
        }
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let rect = ui.available_rect_before_wrap();
        self.viewport = rect;
        // Esc during a gizmo drag cancels the drag only, not the selection.
        let was_dragging = self.drag.is_some();
        let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
        let ppp = ui.ctx().pixels_per_point();
        let (w, h) = (
            (rect.width() * ppp).round().max(1.0) as u32,
            (rect.height() * ppp).round().max(1.0) as u32,
        );
        let (modifiers, scroll) = ui.input(|i| (i.modifiers, i.smooth_scroll_delta.y));
        let delta = response.drag_delta() * ppp;
        let delta = Vec2::new(delta.x, delta.y);
        let dt = ui.input(|i| i.stable_dt).min(0.1);
        let button = [
            (egui::PointerButton::Primary, navigation::Button::Left),
            (egui::PointerButton::Middle, navigation::Button::Middle),
            (egui::PointerButton::Secondary, navigation::Button::Right),
        ]
        .into_iter()
        .find(|(b, _)| response.dragged_by(*b))
        .map(|(_, b)| b);
        let action = button.and_then(|b| {
            navigation::drag_action(
                self.prefs.nav_preset,
                b,
                modifiers.shift,
                modifiers.ctrl,
                modifiers.alt,
            )
        });
        match action {
            Some(navigation::DragAction::Orbit) => {
                // Around the surface under the cursor when the drag began, else the
                // selection, else the middle of the view.
                let centre = match self.orbit_centre {
                    Some(c) => c,
                    None => self
                        .hover_point
                        .or_else(|| self.selection_pivot())
                        .unwrap_or(self.orbit.pivot),
                };
                self.orbit_centre = Some(centre);
                self.orbit.orbit_about(centre, delta);
            }
            Some(navigation::DragAction::Pan) => {
                if let Some(p) = response.interact_pointer_pos() {
                    let to = Vec2::new(p.x, p.y) * ppp;
                    self.orbit.pan(to - delta, to, h as f32);
                }
            }
            // Drag up zooms in, 50 pixels a notch.
            Some(navigation::DragAction::Zoom) => self.orbit.zoom(-delta.y / 50.0, ZOOM_STEP),
            Some(navigation::DragAction::FlyLook) => {
                self.orbit.look(delta);
                let (keys, fast) = ui.input(|i| {
                    let k = |key| if i.key_down(key) { 1.0 } else { 0.0 };
                    (
                        Vec3::new(
                            k(egui::Key::D) - k(egui::Key::A),
                            k(egui::Key::E) - k(egui::Key::Q),
                            k(egui::Key::W) - k(egui::Key::S),
                        ),
                        i.modifiers.shift,
                    )
                });
                let speed = self.prefs.fly_speed * if fast { 4.0 } else { 1.0 };
                self.orbit.fly(keys * speed * dt);
                ui.ctx().request_repaint();
            }
            None => {}
        }
        if self.prefs.nav_preset == navigation::Preset::Fusion360
            && response.double_clicked_by(egui::PointerButton::Middle)
        {
            self.frame_all();
        }
        if action.is_some() {
            // Any other navigation ends a transition in flight where it is.
            self.view_target = None;
        }
        if action != Some(navigation::DragAction::Orbit) {
            self.orbit_centre = None;
        }
        if response.hovered() && scroll != 0.0 {
            if action == Some(navigation::DragAction::FlyLook) {
                // While flying the wheel sets the speed.
                self.prefs.fly_speed =
                    (self.prefs.fly_speed * 1.2f32.powf(scroll / 50.0)).clamp(0.25, 200.0);
            } else {
                // 50 points of smooth scroll make one notch; touchpads give fractions.
                let notches = scroll / 50.0 * if self.prefs.zoom_invert { -1.0 } else { 1.0 };
                let mut target = self.view_goal();
                match response.hover_pos() {
                    Some(p) => {
                        let view = gizmo::View {
                            camera: self.orbit.camera(),
                            size: Vec2::new(w as f32, h as f32),
                        };
                        let local = (p - rect.min) * ppp;
                        let ray = view.ray(Vec2::new(local.x, local.y));
                        let anchor = self.orbit.zoom_anchor(self.hover_point, ray);
                        target.zoom_towards(anchor, notches, self.prefs.zoom_step);
                    }
                    None => target.zoom(notches, self.prefs.zoom_step),
                }
                self.view_target = Some((target, ZOOM_EASE));
            }
        }
        if let Some((target, ease)) = self.view_target {
            // Exponential easing: 95 % of the way in three time constants.
            let k = 1.0 - (-dt / ease).exp();
            self.orbit = self.orbit.lerp(&target, k);
            if self.orbit.close_to(&target) {
                self.orbit = target;
                self.view_target = None;
            }
            ui.ctx().request_repaint();
        }
        let camera = self.orbit.camera();
        let view = gizmo::View {
            camera,
            size: Vec2::new(w as f32, h as f32),
        };
        let cursor = response
            .interact_pointer_pos()
            .or(response.hover_pos())
            .map(|p| {
                let local = (p - rect.min) * ppp;
                Vec2::new(local.x, local.y)
            });
        // A drag is recognised once the pointer has moved a little: it grabs what
        // was under the pointer where the button went down.
        let press_origin = ui.input(|i| i.pointer.press_origin());
        let grab = press_origin.map(|p| {
            let local = (p - rect.min) * ppp;
            Vec2::new(local.x, local.y)
        });
        let active_gizmo = self.gizmo();
        let mut on_gizmo = false;
        if let (Some(g), Some(cursor)) = (active_gizmo, cursor) {
            let pressed = response.drag_started_by(egui::PointerButton::Primary) && !modifiers.alt;
            let grab = grab.unwrap_or(cursor);
            if pressed
                && self.drag.is_none()
                && let Some(handle) = gizmo::hit(&view, &g, grab)
                && let Some(drag) = gizmo::Drag::start(&view, g, handle, grab)
            {
                let start = self
                    .moved_entities()
                    .into_iter()
                    .filter_map(|id| {
                        let e = self.scene.entity(id)?;
                        let parent = e
                            .parent
                            .map_or(Affine3A::IDENTITY, |p| self.scene.world_transform(p));
                        Some((id, e.transform, self.scene.world_transform(id), parent))
                    })
                    .collect();
                self.drag = Some(GizmoDrag { drag, start });
            }
            on_gizmo = gizmo::hit(&view, &g, cursor).is_some();
        }
        if let Some(GizmoDrag { drag, start }) = self.drag.clone() {
            let name = drag.gizmo.mode.name();
            let escape = ui.input(|i| i.key_pressed(egui::Key::Escape));
            if escape {
                // Back to exactly where the drag began (a drag that has not moved
                // yet leaves the history alone, whatever its last step is called).
                self.history
                    .cancel_edit(&mut self.scene, pebble_model::EditKey::Gizmo);
                self.drag = None;
            } else if response.dragged_by(egui::PointerButton::Primary)
                && let Some(cursor) = cursor
            {
                let snap = self.prefs.snap != modifiers.ctrl;
                let change = drag.change(&view, cursor, snap.then_some(self.prefs.snap_steps));
                let moved: Vec<(EntityId, Transform)> = start
                    .iter()
                    .map(|(id, local, world, parent)| {
                        (
                            *id,
                            moved_transform(&change, &drag.gizmo, *local, *world, *parent),
                        )
                    })
                    .collect();
                if let Err(e) = self.history.execute_continuous(
                    &mut self.scene,
                    SetTransforms::new(name, moved),
                    pebble_model::EditKey::Gizmo,
                ) {
                    self.status.error(e.to_string());
                }
            } else if !response.dragged() {
                self.history.end_edit();
                self.drag = None;
            }
        }
        let pixel = |p: egui::Pos2| {
            let local = (p - rect.min) * ppp;
            (local.x.max(0.0) as u32, local.y.max(0.0) as u32)
        };
        let Some(rs) = frame.wgpu_render_state() else {
            ui.label("no GPU renderer");
            return;
        };
        let mut picked: Option<Vec<EntityId>> = None;
        {
            let mut guard = rs.renderer.write();
            if let Some(res) = guard.callback_resources.get_mut::<ViewportResources>() {
                let path = self.path.clone();
                res.sync
                    .sync(&mut res.renderer, &self.scene, &loader(&path));
                if response.clicked_by(egui::PointerButton::Primary)
                    && !on_gizmo
                    && let Some(p) = response.interact_pointer_pos()
                {
                    let (x, y) = pixel(p);
                    match res.renderer.pick(&camera, w, h, self.clock, x, y) {
                        Ok(hit) => {
                            // Shift adds, Ctrl toggles, a plain click replaces.
                            let mut ids: Vec<EntityId> = if modifiers.shift || modifiers.command {
                                self.scene.selection().to_vec()
                            } else {
                                Vec::new()
                            };
                            if let Some(id) = hit.map(|h| EntityId(h.id)) {
                                if modifiers.command && ids.contains(&id) {
                                    ids.retain(|i| *i != id);
                                } else if !ids.contains(&id) {
                                    ids.push(id);
                                }
                            }
                            picked = Some(ids);
                        }
                        Err(e) => self.status.error(format!("pick failed: {e}")),
                    }
                }
                // Hover highlight: a pick is an ID pass and a wait for the GPU, so
                // at most every 40 ms when the cursor or the view moved, and every
                // 250 ms otherwise (for what animates under a resting cursor).
                let now = ui.input(|i| i.time);
                let inputs = (response.hover_pos(), camera, w, h);
                let since = now - self.last_hover_pick;
                let moved = self.last_hover_inputs != Some(inputs);
                if since >= 0.04 && (moved || since >= 0.25) && !response.dragged() {
                    self.last_hover_pick = now;
                    self.last_hover_inputs = Some(inputs);
                    let hit = response.hover_pos().and_then(|p| {
                        let (x, y) = pixel(p);
                        res.renderer
                            .pick(&camera, w, h, self.clock, x, y)
                            .ok()
                            .flatten()
                    });
                    self.hovered = hit.map(|hit| hit.id);
                    self.hover_point = hit.map(|hit| hit.world);
                }
                // Box select: a left drag that starts on empty space.
                if response.drag_started_by(egui::PointerButton::Primary)
                    && !modifiers.alt
                    && self.drag.is_none()
                    && let Some(p) = press_origin.or(response.interact_pointer_pos())
                {
                    let (x, y) = pixel(p);
                    let empty =
                        matches!(res.renderer.pick(&camera, w, h, self.clock, x, y), Ok(None));
                    self.box_start = empty.then_some(p);
                }
                if let Some(start) = self.box_start
                    && response.drag_stopped_by(egui::PointerButton::Primary)
                {
                    let end = response.interact_pointer_pos().unwrap_or(start);
                    match res.renderer.pick_rect(
                        &camera,
                        w,
                        h,
                        self.clock,
                        pixel(start),
                        pixel(end),
                    ) {
                        Ok(found) => {
                            let mut ids: Vec<EntityId> = if modifiers.shift {
                                self.scene.selection().to_vec()
                            } else {
                                Vec::new()
                            };
                            for id in found.into_iter().map(EntityId) {
                                if !ids.contains(&id) {
                                    ids.push(id);
                                }
                            }
                            picked = Some(ids);
                        }
                        Err(e) => self.status.error(format!("box select failed: {e}")),
                    }
                    self.box_start = None;
                }
            }
        }
        if let Some(ids) = picked {
            self.select(ids);
        }
        // Esc in a field that keeps the keyboard (a number being typed) is the
        // field's: it restores the value there, and the selection stays.
        if ui.input(|i| i.key_pressed(egui::Key::Escape))
            && !ui.ctx().egui_wants_keyboard_input()
            && !was_dragging
            && self.box_start.is_none()
        {
            self.select(Vec::new());
        }
        let revision = self.scene.revision();
        if self.overlays && self.overlay.as_ref().is_none_or(|(r, _)| *r != revision) {
            let options = OverlayOptions {
                grid_extent: 20.0,
                grid_centre: Vec3::new(self.orbit.pivot.x, 0.0, self.orbit.pivot.z),
                ..Default::default()
            };
            self.overlay = Some((revision, Arc::new(Overlay::of_scene(&self.scene, &options))));
        }
        let mut overlay = self
            .overlays
            .then(|| self.overlay.as_ref().map(|(_, o)| o.clone()))
            .flatten();
        if let Some(c) = self.orbit_centre {
            // The orbit's centre: a small cross drawn over everything.
            let mut with_pivot = overlay.as_deref().cloned().unwrap_or_default();
            let len = view.handle_length(c) * 0.25;
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                for p in [c - axis * len, c + axis * len] {
                    with_pivot.on_top.push(pebble_render::overlay::LineVertex {
                        pos: p.to_array(),
                        color: 0xFF_20_B0_FF,
                    });
                }
            }
            overlay = Some(Arc::new(with_pivot));
        }
        if let Some(g) = self.gizmo() {
            let active = self
                .drag
                .as_ref()
                .map(|d| d.drag.handle)
                .or_else(|| cursor.and_then(|c| gizmo::hit(&view, &g, c)));
            let mut with_gizmo = overlay.as_deref().cloned().unwrap_or_default();
            for line in gizmo::lines(&view, &g) {
                let mut color: u32 = if active == Some(line.handle) {
                    0xFF_20_E0_FF
                } else {
                    match line.axis {
                        Some(0) => 0xFF_30_30_F0,
                        Some(1) => 0xFF_30_E0_30,
                        Some(2) => 0xFF_F0_60_30,
                        _ => 0xFF_E0_E0_E0,
                    }
                };
                if line.back {
                    // The far half of a ring: a third as bright.
                    let c = color.to_le_bytes().map(|v| v / 3);
                    color = u32::from_le_bytes([c[0], c[1], c[2], 0xFF]);
                }
                for p in [line.from, line.to] {
                    with_gizmo.on_top.push(pebble_render::overlay::LineVertex {
                        pos: p.to_array(),
                        color,
                    });
                }
            }
            overlay = Some(Arc::new(with_gizmo));
        }
        let callback = ViewportCallback {
            camera,
            options: RenderOptions {
                width: w,
                height: h,
                time: self.clock,
                psp: self.psp,
                cull: true,
                occlusion: true,
                fog: true,
                preview_light: self.preview_light,
                lod_bias: 1.0,
            },
            overlay,
            selected: self.scene.selection().iter().map(|id| id.0).collect(),
            hovered: self.hovered,
        };
        if self.bench.is_some() {
            self.last_view = Some(bench::LastView {
                camera: callback.camera,
                options: callback.options,
                overlay: callback.overlay.clone(),
                selected: callback.selected.clone(),
                rect,
            });
        }
        viewport::paint(ui, rect, callback);
        self.announce_viewport(rect);
        self.view_cube_ui(ui);
        if let (Some(start), Some(now)) = (self.box_start, response.interact_pointer_pos()) {
            ui.painter().rect_stroke(
                egui::Rect::from_two_pos(start, now),
                0.0,
                egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 170, 40)),
                egui::StrokeKind::Inside,
            );
        }
    }

    fn status_ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let stats = frame.wgpu_render_state().and_then(|rs| {
            rs.renderer
                .read()
                .callback_resources
                .get::<ViewportResources>()
                .map(|r| (r.last_stats, r.last_error.clone()))
        });
        ui.horizontal(|ui| {
            if let Some(name) = self
                .hovered
                .and_then(|id| self.scene.entity(EntityId(id)))
                .map(|e| e.name.clone())
            {
                ui.label(format!("under the cursor: {name}"));
                ui.separator();
            }
            ui.label(format!("{} selected", self.scene.selection().len()));
            ui.separator();
            if self.refresh_figures {
                let mut text = format!(
                    "{:.0} fps  ·  t = {:.1} s",
                    1.0 / self.frame_time.max(1e-3),
                    self.clock
                );
                if let Some((s, _)) = &stats {
                    text += &format!(
                        "  |  {} / {} chunks ({} occluded), {} triangles, {} draw calls, {} particles",
                        s.chunks_drawn,
                        s.chunks,
                        s.chunks_occluded,
                        s.triangles,
                        s.draw_calls,
                        s.particles
                    );
                }
                self.status_figures = text;
            }
            ui.label(&self.status_figures);
            if let Some((_, Some(e))) = stats {
                ui.separator();
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            ui.separator();
            self.status.ui(ui);
            if let Some(status) = &self.deploy.status {
                ui.separator();
                if status.starts_with("deploy failed") {
                    ui.colored_label(egui::Color32::LIGHT_RED, status);
                } else {
                    ui.label(status);
                }
            }
        });
    }
}

/// The Help window: the keys and the mouse as the current navigation preset maps
/// them.
fn help_ui(ui: &mut egui::Ui, preset: navigation::Preset) {
    use navigation::{Button, DragAction, drag_action};
    let name = |a: Option<DragAction>| match a {
        Some(DragAction::Orbit) => "orbit",
        Some(DragAction::Pan) => "pan",
        Some(DragAction::Zoom) => "zoom",
        Some(DragAction::FlyLook) => "fly (W/A/S/D, Q/E, Shift ×4, wheel = speed)",
        None => "select / gizmo / box select",
    };
    ui.label(format!("Mouse ({})", preset.name()));
    egui::Grid::new("help mouse").striped(true).show(ui, |ui| {
        for (label, b, shift, ctrl, alt) in [
            ("left drag", Button::Left, false, false, false),
            ("Alt + left drag", Button::Left, false, false, true),
            ("middle drag", Button::Middle, false, false, false),
            ("Shift + middle drag", Button::Middle, true, false, false),
            ("Ctrl + middle drag", Button::Middle, false, true, false),
            ("right drag", Button::Right, false, false, false),
            ("Alt + right drag", Button::Right, false, false, true),
        ] {
            ui.label(label);
            ui.label(name(drag_action(preset, b, shift, ctrl, alt)));
            ui.end_row();
        }
        ui.label("wheel");
        ui.label("zoom towards the cursor");
        ui.end_row();
    });
    ui.separator();
    ui.label("Keys");
    egui::Grid::new("help keys").striped(true).show(ui, |ui| {
        for (k, what) in [
            ("click / Shift / Ctrl", "select / add / toggle"),
            ("Esc", "clear the selection (cancel a gizmo drag)"),
        ] {
            ui.label(k);
            ui.label(what);
            ui.end_row();
        }
        // Every shortcut, from the action table the keys and menus use.
        for &a in action::ALL {
            let Some(mut keys) = a.shortcut_text() else {
                continue;
            };
            if a == Action::Redo {
                keys = format!("{keys} or {}", action::shortcut_text(&action::REDO_ALSO));
            }
            ui.label(keys);
            ui.label(a.label());
            ui.end_row();
        }
    });
}

/// An entity's new local transform after a gizmo change, from its local, world and
/// parent's world transforms at the drag's start. A move keeps rotation and scale
/// bit for bit; a turn keeps the scale; a scale keeps the rotation.
fn moved_transform(
    change: &gizmo::Change,
    g: &gizmo::Gizmo,
    local: Transform,
    world: Affine3A,
    parent: Affine3A,
) -> Transform {
    if change.is_identity() {
        return local;
    }
    let new_local = Transform::from_affine(parent.inverse() * gizmo::apply(change, g, world));
    match change {
        gizmo::Change::Translate(_) => Transform {
            translation: new_local.translation,
            ..local
        },
        gizmo::Change::Rotate(_) => Transform {
            scale: local.scale,
            ..new_local
        },
        gizmo::Change::Scale(_) => Transform {
            rotation: local.rotation,
            ..new_local
        },
    }
}

/// Whatever ends the program on a bug — the window system's connection lost under
/// winit, a driver's panic — the unsaved work is written to the recovery file as
/// the app is dropped while unwinding, and the next start offers it back.
impl Drop for PebbleApp {
    fn drop(&mut self) {
        if !std::thread::panicking() || !self.history.is_dirty() {
            return;
        }
        let recovery = project::recovery_path(&self.path);
        match project::save(&recovery, &self.scene) {
            Ok(()) => eprintln!(
                "pebble: your unsaved work was kept in {}; the next start offers it back",
                recovery.display()
            ),
            Err(e) => eprintln!("pebble: could not keep your unsaved work: {e}"),
        }
    }
}

impl eframe::App for PebbleApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let dt = ctx.input(|i| i.stable_dt).min(0.1);
        self.frame_time = self.frame_time * 0.9 + dt * 0.1;
        let now = std::time::Instant::now();
        self.refresh_figures = self
            .figures_at
            .is_none_or(|at| now.duration_since(at).as_secs_f32() >= 0.5);
        if self.refresh_figures {
            self.figures_at = Some(now);
        }
        let ui_start = std::time::Instant::now();
        if let Some(b) = &mut self.bench {
            match b.frame(&ctx) {
                bench::Phase::Editor => {}
                bench::Phase::BareWindow => {
                    self.bare_window_ui(ui, dt);
                    return;
                }
                bench::Phase::Done => {
                    if !b.done {
                        b.done = true;
                        self.finish_bench(&ctx, frame);
                    }
                    return;
                }
            }
        }
        if let Some((scene, path, unsaved)) = self.next_scene.take() {
            self.install_scene(frame, scene, path, unsaved);
        }
        self.poll_files(&ctx);
        // Closing with unsaved work asks first.
        if ctx.input(|i| i.viewport().close_requested())
            && !self.allow_close
            && self.history.is_dirty()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(files::Pending::Close);
        }
        if self.prefs.autosave_seconds > 0 {
            self.autosave.interval =
                std::time::Duration::from_secs(u64::from(self.prefs.autosave_seconds));
            // Untitled work too: its recovery file sits in its folder under the
            // data folder, and the next start offers it back.
            let dirty = self.history.is_dirty();
            if let Err(e) =
                self.autosave
                    .tick(std::time::Instant::now(), &self.path, &self.scene, dirty)
            {
                self.status.error(format!("autosave failed: {e}"));
            }
        }
        // Bring requested panels to the front of their tab groups.
        for (flag, pane) in [
            (&mut self.show_history, Pane::History),
            (&mut self.assets.open, Pane::Assets),
            (&mut self.show_log, Pane::Log),
            (&mut self.show_inspector, Pane::Inspector),
            (&mut self.show_outliner, Pane::Outliner),
        ] {
            if std::mem::take(flag) {
                self.layout
                    .make_active(|_, t| matches!(t, egui_tiles::Tile::Pane(p) if *p == pane));
            }
        }
        if self.show_help {
            let mut open = true;
            egui::Window::new("Keyboard and mouse")
                .open(&mut open)
                .show(&ctx, |ui| help_ui(ui, self.prefs.nav_preset));
            self.show_help = open;
        }
        if self.show_about {
            let mut open = true;
            egui::Window::new("About Pebble")
                .open(&mut open)
                .collapsible(false)
                .show(&ctx, |ui| {
                    ui.heading(format!("Pebble {}", env!("CARGO_PKG_VERSION")));
                    ui.label("A level editor for PSP-class retro 3D maps: build, export .pbm, deploy to a PSP, compare with the device.");
                    ui.label(format!("Renderer: {}", self.adapter));
                });
            self.show_about = open;
        }
        if self.show_preferences {
            let mut open = true;
            egui::Window::new("Preferences")
                .open(&mut open)
                .collapsible(false)
                .show(&ctx, |ui| self.prefs.ui(ui));
            self.show_preferences = open;
        }
        self.modals_ui(&ctx);
        if self.compare.open {
            let dir = self.project_dir();
            // The editor's own device draws the preview (no second device).
            let gpu = frame.wgpu_render_state().map(|rs| Gpu {
                device: rs.device.clone(),
                queue: rs.queue.clone(),
                info: rs.adapter.get_info(),
            });
            if self.compare.window_ui(&ctx, &self.scene, &dir, gpu) {
                self.go_to_capture();
            }
        }
        if self.deploy.busy() {
            if let Some(Err(e)) = self.deploy.poll() {
                self.status.error(format!("deploy failed: {e}"));
            }
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        if self.playing {
            self.clock += f64::from(dt * self.clock_speed);
            ctx.request_repaint();
        }
        // While a text field has the keyboard, keys are text, not shortcuts.
        let typing = ctx.egui_wants_keyboard_input();
        // Shortcuts, from the action table; the viewport's keys not while flying
        // (W/E/Q steer then), the gizmo's not in the middle of a drag.
        let flying = ctx.input(|i| i.pointer.secondary_down());
        let pressed: Vec<Action> = if typing {
            Vec::new()
        } else {
            ctx.input_mut(|i| {
                let mut pressed = Vec::new();
                if i.consume_shortcut(&action::REDO_ALSO) {
                    pressed.push(Action::Redo);
                }
                for &a in action::KEYED {
                    let Some(shortcut) = a.shortcut() else {
                        continue;
                    };
                    if (a.is_viewport_key() && flying)
                        || (shortcut.modifiers.is_none() && i.modifiers.alt)
                    {
                        continue;
                    }
                    if i.consume_shortcut(&shortcut) {
                        pressed.push(a);
                    }
                }
                pressed
            })
        };
        for a in pressed {
            if !(a.is_gizmo_key() && self.drag.is_some()) {
                self.run_action(&ctx, a);
            }
        }
        let title = format!(
            "{}{} — Pebble",
            self.path
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default(),
            if self.history.is_dirty() { " •" } else { "" }
        );
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(title));
        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_ui(ui, frame));
        // The panels' background in one rectangle (the tiles leave theirs
        // unfilled). Drawn into the UI cache, it costs nothing while the UI rests.
        let fill = ui.visuals().panel_fill;
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE.fill(fill))
            .show(ui, |ui| {
                let mut layout = std::mem::replace(
                    &mut self.layout,
                    egui_tiles::Tree::empty(egui::Id::unique("pebble layout")),
                );
                layout.ui(&mut Panes { app: self, frame }, ui);
                self.layout = layout;
            });
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
        eframe::set_value(storage, preferences::KEY, &self.prefs);
        eframe::set_value(storage, LAYOUT_KEY, &self.layout);
    }
}

/// The panels' contents for egui_tiles.
struct Panes<'a> {
    app: &'a mut PebbleApp,
    frame: &'a mut eframe::Frame,
}

impl egui_tiles::Behavior<Pane> for Panes<'_> {
    fn tab_title_for_pane(&mut self, pane: &Pane) -> egui::WidgetText {
        pane.title().into()
    }

    fn pane_ui(
        &mut self,
        ui: &mut egui::Ui,
        _tile: egui_tiles::TileId,
        pane: &mut Pane,
    ) -> egui_tiles::UiResponse {
        let app = &mut *self.app;
        match pane {
            Pane::Viewport => app.viewport_ui(ui, self.frame),
            Pane::Outliner => app.outliner_ui(ui),
            Pane::Inspector => {
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| app.inspector_ui(ui));
            }
            Pane::Assets => {
                let path = app.path.clone();
                app.assets.pane_ui(ui, &app.scene, &path);
            }
            Pane::History => app.history_ui(ui),
            Pane::Log => {
                let buffer = app.log.clone();
                app.log_view.ui(ui, &buffer);
            }
        }
        egui_tiles::UiResponse::None
    }

    fn simplification_options(&self) -> egui_tiles::SimplificationOptions {
        egui_tiles::SimplificationOptions {
            all_panes_must_have_tabs: true,
            ..Default::default()
        }
    }
}
