//! What a panel or the viewport asks the app to do ([`Intent`]), and what is
//! dragged between them: the panels and the viewport return these, and the app
//! applies them in one place, so neither changes the scene itself.

use pebble_model::{Command, EditKey, EntityId};

use crate::action::Action;

/// A number field, by its widget's id (a hash): where a refused value's reason
/// is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FieldId(pub u64);

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
        field: Option<FieldId>,
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
    /// A prefab opened on its own, in a window of its own (its file written
    /// first when the map has not been saved since it was made).
    OpenPrefab(pebble_model::prefab::PrefabId),
    /// A new instance of a prefab (the map's or the project's), standing at a
    /// surface point (`None`: under where the view looks).
    PlacePrefab {
        prefab: pebble_model::prefab::PrefabId,
        at: Option<pebble_model::glam::Vec3>,
    },
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
    /// A prefab, placed where it is dropped.
    Prefab(pebble_model::prefab::PrefabId),
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
    Environment(crate::presets::EnvironmentPreset),
    Export(crate::presets::ExportPreset),
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
            Intent::PlacePrefab { prefab, at } => write!(f, "PlacePrefab({prefab}, {at:?})"),
            Intent::OpenPrefab(p) => write!(f, "OpenPrefab({p})"),
            Intent::CancelEdit(k) => write!(f, "CancelEdit({k:?})"),
            Intent::DroppedFiles { files, target, .. } => {
                write!(f, "DroppedFiles({files:?} on {target:?})")
            }
        }
    }
}
