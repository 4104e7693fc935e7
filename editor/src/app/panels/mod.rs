//! The docked panels (egui_tiles): outliner, inspector, assets, materials, history and log
//! beside the viewport. Each panel owns its state and draws from a read-only
//! scene; what the user asks for comes back as [`Intent`]s, which the app applies
//! in one place (`PebbleApp::apply`), so a panel never changes the scene itself.

pub mod assets;
pub mod history;
pub mod inspector;
pub mod log;
pub mod materials;
pub mod outliner;
pub mod thumbnails;
pub mod uv_dock;

use eframe::egui;
use pebble_model::{Command, EditKey, EntityId};

use super::action::Action;

/// What a panel asks the app to do.
pub enum Intent {
    /// A command, one undo step.
    Execute(Box<dyn Command>),
    /// Show or hide entities (a view setting: no undo step).
    SetVisible(Vec<pebble_model::EntityId>, bool),
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
    /// Add this material (New material, Duplicate) and choose it in the Materials
    /// panel.
    NewMaterial(pebble_model::Material),
    /// A material made from the project texture at this path (New from texture).
    NewMaterialFromTexture(String),
    /// Ask for a picture file: the texture of this material, or (`None`) a new
    /// material from it.
    PickTexture(Option<pebble_model::MaterialId>),
    /// A texture or material was dropped in the viewport.
    Drop(FaceDrop),
    /// Esc during a drag: the continuous edit taken back as if it never began.
    CancelEdit(EditKey),
    /// Files from the desktop dropped on the viewport: the face under the
    /// pointer, and the surface point there (else where the view looks).
    DroppedFiles {
        files: Vec<std::path::PathBuf>,
        target: Option<(EntityId, usize)>,
        at: Option<pebble_model::glam::Vec3>,
        scope: DropScope,
    },
}

/// What is dragged from the Assets and Materials panels (egui's drag and drop
/// payload).
#[derive(Debug, Clone, PartialEq)]
pub enum AssetDrag {
    /// A project texture, by its project-relative path.
    Texture(String),
    Material(pebble_model::MaterialId),
}

/// Which faces a drop reaches besides the one under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DropScope {
    /// The face under the pointer (with its partner of the same quad).
    #[default]
    Face,
    /// Shift: every face of the object.
    Object,
    /// Alt: every face, of any object, with the material the face under it had.
    SameMaterial,
}

impl DropScope {
    /// The scope the held keys ask for.
    pub fn from_keys(shift: bool, alt: bool) -> Self {
        if shift {
            Self::Object
        } else if alt {
            Self::SameMaterial
        } else {
            Self::Face
        }
    }
}

/// A drop in the viewport: what, on which face (none: on empty space), how far.
#[derive(Debug, Clone, PartialEq)]
pub struct FaceDrop {
    pub what: AssetDrag,
    pub target: Option<(EntityId, usize)>,
    pub scope: DropScope,
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
            Intent::SetVisible(ids, v) => write!(f, "SetVisible({ids:?}, {v})"),
            Intent::JumpHistory(to) => write!(f, "JumpHistory({to})"),
            Intent::Run(a) => write!(f, "Run({a:?})"),
            Intent::SavePreset(p) => write!(f, "SavePreset({p:?})"),
            Intent::ApplyMaterialPreset { material, preset } => {
                write!(f, "ApplyMaterialPreset({material:?}, {preset})")
            }
            Intent::NewMaterial(m) => write!(f, "NewMaterial({})", m.name),
            Intent::NewMaterialFromTexture(t) => write!(f, "NewMaterialFromTexture({t})"),
            Intent::PickTexture(m) => write!(f, "PickTexture({m:?})"),
            Intent::Drop(d) => write!(f, "Drop({d:?})"),
            Intent::CancelEdit(k) => write!(f, "CancelEdit({k:?})"),
            Intent::DroppedFiles { files, target, .. } => {
                write!(f, "DroppedFiles({files:?} on {target:?})")
            }
        }
    }
}

pub use super::pane::Pane;

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
    let uv = tiles.insert_pane(Pane::Uv);
    let bottom_right = tiles.insert_tab_tile(vec![history, log, uv]);
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
            materials: Default::default(),
            thumbnails: Default::default(),
            uv_dock: Default::default(),
            uv_textures: thumbnails::Thumbnails::of_side(256).repeating(),
            textures: (Vec::new(), Vec::new(), None),
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
