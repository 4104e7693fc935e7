//! The docked panels (egui_tiles): outliner, inspector, assets, materials, history and log
//! beside the viewport. Each panel owns its state and draws from a read-only
//! scene; what the user asks for comes back as [`Intent`]s, which the app applies
//! in one place (`PebbleApp::apply`), so a panel never changes the scene itself.
//! The number field they type into lives here too.
//!
//! It imports the core (`pebble-core`), egui and egui_tiles; it must never import
//! the viewport (`pebble-viewport`), the renderer, wgpu, eframe or winit.

pub mod assets;
pub mod history;
pub mod inspector;
pub mod log;
pub mod materials;
pub mod number_field;
pub mod outliner;
pub mod prefab_thumbnail;
pub mod problems;
pub mod thumbnails;
pub mod uv_dock;

pub use pebble_core::intent::{AssetDrag, DropScope, FaceDrop, FieldId, Intent, SavePreset};

pub use pebble_core::pane::Pane;

/// Storage key of the panel layout.
pub const LAYOUT_KEY: &str = "pebble.layout";

/// The first layout: outliner, assets and materials on the left, the viewport in the middle,
/// the inspector over history and log on the right.
pub fn default_layout() -> egui_tiles::Tree<Pane> {
    let mut tiles = egui_tiles::Tiles::default();
    let outliner = tiles.insert_pane(Pane::Outliner);
    let assets = tiles.insert_pane(Pane::Assets);
    let materials = tiles.insert_pane(Pane::Materials);
    let left = tiles.insert_tab_tile(vec![outliner, assets, materials]);
    let viewport = tiles.insert_pane(Pane::Viewport);
    let middle = tiles.insert_tab_tile(vec![viewport]);
    let inspector = tiles.insert_pane(Pane::Inspector);
    let top_right = tiles.insert_tab_tile(vec![inspector]);
    let history = tiles.insert_pane(Pane::History);
    let log = tiles.insert_pane(Pane::Log);
    let problems = tiles.insert_pane(Pane::Problems);
    let uv = tiles.insert_pane(Pane::Uv);
    let bottom_right = tiles.insert_tab_tile(vec![history, log, problems, uv]);
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
pub fn layout_is_complete(tree: &egui_tiles::Tree<Pane>) -> bool {
    Pane::ALL.iter().all(|p| {
        tree.tiles
            .tiles()
            .filter(|t| matches!(t, egui_tiles::Tile::Pane(q) if q == p))
            .count()
            == 1
    })
}

/// The panels' states and their arrangement.
#[derive(Debug)]
pub struct Panels {
    pub layout: egui_tiles::Tree<Pane>,
    pub outliner: outliner::OutlinerPanel,
    pub inspector: inspector::InspectorPanel,
    pub problems: problems::ProblemsPanel,
    pub assets: assets::AssetsState,
    pub materials: materials::MaterialsPanel,
    /// Texture thumbnails, shared by the Assets and Materials panels.
    pub thumbnails: thumbnails::Thumbnails,
    pub uv_dock: uv_dock::UvDock,
    /// Textures whole (up to 256 texels), for the UV dock.
    pub uv_textures: thumbnails::Thumbnails,
    /// The project's textures, the materials' textures they were read with and
    /// when: read again when those change or a moment has passed (a picture
    /// saved into `textures/` appears).
    textures: (Vec<String>, Vec<String>, Option<std::time::Instant>),
    /// The project's files (project-relative) and when they were listed: asset
    /// fields pick from them; listed again after a moment.
    files: (
        std::sync::Arc<Vec<String>>,
        Option<(std::path::PathBuf, std::time::Instant)>,
    ),
    pub log: log::LogView,
    /// What the Log panel shows: every event traced in the editor.
    pub log_buffer: log::LogBuffer,
    /// Panels to bring to the front of their tab groups next frame.
    raise: Vec<Pane>,
}

impl Panels {
    pub fn new(layout: egui_tiles::Tree<Pane>) -> Self {
        Self {
            layout,
            outliner: Default::default(),
            inspector: Default::default(),
            problems: Default::default(),
            assets: Default::default(),
            materials: Default::default(),
            thumbnails: Default::default(),
            uv_dock: Default::default(),
            uv_textures: thumbnails::Thumbnails::of_side(256).repeating(),
            textures: (Vec::new(), Vec::new(), None),
            files: (Default::default(), None),
            log: Default::default(),
            log_buffer: log::buffer(),
            raise: Vec::new(),
        }
    }

    /// The project's textures ([`thumbnails::project_textures`]), kept for a
    /// second while the materials' textures stay the same (the folder is read
    /// again after that; a UV drag, changing the scene every frame, reads it no
    /// more often).
    pub fn project_textures(
        &mut self,
        scene: &pebble_model::Scene,
        folder: &std::path::Path,
    ) -> Vec<String> {
        let (list, named, at) = &mut self.textures;
        let now_named: Vec<String> = scene
            .materials()
            .filter_map(|(_, m)| m.texture.clone())
            .collect();
        let stale = *named != now_named
            || at.is_none_or(|t| t.elapsed() > std::time::Duration::from_secs(1));
        if stale {
            *list = thumbnails::project_textures(scene, folder);
            *named = now_named;
            *at = Some(std::time::Instant::now());
        }
        list.clone()
    }

    /// The project's files under `folder` (project-relative, `/`-separated),
    /// listed again when a couple of seconds have passed.
    pub fn project_files(&mut self, folder: &std::path::Path) -> std::sync::Arc<Vec<String>> {
        let (list, at) = &mut self.files;
        let stale = at
            .as_ref()
            .is_none_or(|(f, t)| f != folder || t.elapsed() > std::time::Duration::from_secs(2));
        if stale {
            *list = std::sync::Arc::new(thumbnails::project_files(folder));
            *at = Some((folder.to_path_buf(), std::time::Instant::now()));
        }
        list.clone()
    }

    /// Brings `pane` to the front of its tab group next frame.
    pub fn raise(&mut self, pane: Pane) {
        self.raise.push(pane);
    }

    /// Brings the requested panels to the front.
    pub fn raise_requested(&mut self) {
        for pane in std::mem::take(&mut self.raise) {
            self.layout
                .make_active(|_, t| matches!(t, egui_tiles::Tile::Pane(p) if *p == pane));
        }
    }
}
