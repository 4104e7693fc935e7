//! The docked panels (egui_tiles): outliner, inspector, assets, history and log
//! beside the viewport. Each panel owns its state and draws from a read-only
//! scene; what the user asks for comes back as [`Intent`]s, which the app applies
//! in one place (`PebbleApp::apply`), so a panel never changes the scene itself.

pub mod assets;
pub mod history;
pub mod inspector;
pub mod log;
pub mod outliner;

use eframe::egui;
use pebble_model::{Command, EditKey, EntityId};

use super::action::Action;

/// What a panel asks the app to do.
pub enum Intent {
    /// A command, one undo step.
    Execute(Box<dyn Command>),
    /// A step of a continuous edit (a colour being dragged): steps with the same
    /// key merge into one undo step.
    Continue(Box<dyn Command>, EditKey),
    /// The continuous edit in progress is over (the pointer was released).
    EndEdit,
    /// A value typed into a number field: one undo step; a refusal is shown under
    /// the field (`field`), else in the status bar.
    Commit {
        command: Box<dyn Command>,
        field: Option<egui::Id>,
    },
    Select(Vec<EntityId>),
    /// Undo or redo up to this many steps applied.
    JumpHistory(usize),
    Run(Action),
    /// "Save as preset": written to the user's presets (files are the app's job).
    SavePreset(SavePreset),
    /// A material preset (by its place in the list) applied to a material: its
    /// texture is copied into the project first.
    ApplyMaterialPreset {
        material: pebble_model::MaterialId,
        preset: usize,
    },
}

/// What "Save as preset" saves, under its name.
#[derive(Debug, Clone)]
pub enum SavePreset {
    Emitter(String, pebble_model::entity::Emitter),
    Material(String, pebble_model::Material),
    Environment(crate::app::presets::EnvironmentPreset),
    Export(crate::app::presets::ExportPreset),
}

impl std::fmt::Debug for Intent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Intent::Execute(c) => write!(f, "Execute({})", c.name()),
            Intent::Continue(c, key) => write!(f, "Continue({}, {key:?})", c.name()),
            Intent::EndEdit => write!(f, "EndEdit"),
            Intent::Commit { command, field } => write!(f, "Commit({}, {field:?})", command.name()),
            Intent::Select(ids) => write!(f, "Select({ids:?})"),
            Intent::JumpHistory(to) => write!(f, "JumpHistory({to})"),
            Intent::Run(a) => write!(f, "Run({a:?})"),
            Intent::SavePreset(p) => write!(f, "SavePreset({p:?})"),
            Intent::ApplyMaterialPreset { material, preset } => {
                write!(f, "ApplyMaterialPreset({material:?}, {preset})")
            }
        }
    }
}

/// The docked panels; each is a tab that can be dragged to another place; the
/// arrangement is saved between runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
pub const LAYOUT_KEY: &str = "pebble.layout";

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
    pub assets: assets::AssetsState,
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
            assets: Default::default(),
            log: Default::default(),
            log_buffer: log::buffer(),
            raise: Vec::new(),
        }
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
