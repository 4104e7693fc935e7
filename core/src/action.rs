//! Every user action as one enum entry with its label and shortcut. The menus, the
//! key handling and Help › Keyboard and mouse all read this table, and
//! `PebbleApp::run_action` is the one place an action is carried out, so a label,
//! a shortcut and what it does cannot drift apart.

use crate::keys::{Key, Modifiers, Shortcut};

use super::create::CreateItem;
use super::edit_ops::{Axis, ColliderFit, Edge};
use super::pane::Pane;
use crate::layer::Layer;

/// A user action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    New,
    Open,
    Save,
    SaveAs,
    Import,
    Export,
    /// File › Map settings: name, environment, export options, runtime tunables.
    MapSettings,
    Preferences,
    Quit,
    Undo,
    Redo,
    Delete,
    Duplicate,
    /// Ctrl+C / X / V (Shift: under the cursor), which egui delivers as clipboard
    /// events rather than keys.
    Copy,
    Cut,
    Paste,
    PasteUnderCursor,
    SelectAll,
    SelectNone,
    SelectInverse,
    SelectSameKind,
    SelectSameMaterial,
    HideSelected,
    UnhideAll,
    Isolate,
    Group,
    Ungroup,
    /// The selection made a prefab (a file in the project's `prefabs/`); it
    /// becomes the prefab's first instance.
    MakePrefab,
    /// A copy that stays linked: the selection made a map-local prefab (when
    /// it is not an instance already), and a copy of it follows the mouse.
    DuplicateLinked,
    /// Enters the selected instance to edit its prefab in place (every copy
    /// follows each committed edit); again: leaves it.
    EnterInstance,
    /// The selected instance's overrides (or its selected entity's) given to
    /// the prefab, so that every copy has them.
    ApplyToPrefab,
    /// The selected instance's overrides (or its selected entity's) taken back.
    RevertOverrides,
    /// The selected instance made plain entities again.
    UnlinkInstance,
    DropToFloor,
    TurnQuarter,
    /// Lines the selection's bounds up on an axis.
    Align(Axis, Edge),
    /// Spaces the selection's middles evenly along an axis.
    Distribute(Axis),
    /// Create › Collider from selection: a collider fitted to each selected mesh.
    FitCollider(ColliderFit),
    /// Moves the selection one grid step: left, right, away, nearer (the world
    /// axes nearest the view's), up, down.
    NudgeLeft,
    NudgeRight,
    NudgeAway,
    NudgeNearer,
    NudgeUp,
    NudgeDown,
    FrameSelection,
    FrameAll,
    GizmoMove,
    GizmoRotate,
    GizmoScale,
    ToggleGizmoSpace,
    ViewTop,
    ViewBottom,
    ViewFront,
    ViewBack,
    ViewRight,
    ViewLeft,
    ToggleProjection,
    TogglePspPreview,
    TogglePreviewLight,
    ToggleOverlays,
    ToggleSnap,
    ToggleBoxThroughWalls,
    ToggleFog,
    ToggleBackFaces,
    /// Shows or hides one kind of overlay.
    ToggleLayer(Layer),
    /// View › Overlay layers › which game entity links are drawn.
    ShowLinks(crate::layer::Links),
    /// Brings a panel to the front of its tab group.
    ShowPanel(Pane),
    ResetLayout,
    PlayPause,
    ExportAndDeploy,
    /// Tools › Measure: the distance and height between two picked points.
    Measure,
    /// Tools › Face mode: clicks pick faces; the inspector edits their texture.
    FaceMode,
    /// The texture lock: moved objects keep their textures on them (off: the
    /// textures stay still in the world).
    ToggleTextureLock,
    /// Face mode: add the faces in the plane of a picked one.
    PickCoplanarFaces,
    /// Face mode: add every face with a picked face's material.
    PickSameMaterialFaces,
    /// Face mode: add the faces next to the picked ones.
    GrowFaces,
    /// Face mode: a UV operation on the picked faces.
    Uv(UvAction),
    /// Face mode: the picked faces pushed out one grid step, with walls.
    ExtrudeFaces,
    /// Face mode: the picked faces turned to face the other way.
    FlipFaces,
    /// Face mode: what clicks pick (vertices, edges or faces).
    Pick(crate::faces::PickMode),
    /// Face mode: the picked edges split at their middles.
    SplitEdges,
    /// Face mode: the picked vertices merged into one at their middle.
    MergeVertices,
    /// Play the map in the viewport from the spawn (again: back to editing).
    Play,
    /// Play from where the camera is.
    PlayFromCamera,
    /// Export, stage a memory stick and start PPSSPP on it (again: close it).
    PlayInPpsspp,
    CompareCapture,
    KeyboardHelp,
    About,
    /// The Create menu's items at the cursor (Shift+A, as in Blender).
    AddMenu,
    Create(CreateItem),
}

/// Face mode's UV operations (the inspector's buttons and Tools › Faces).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UvAction {
    Fit,
    AlignWorld,
    AlignFace,
    TurnLeft,
    TurnRight,
    FlipU,
    FlipV,
    Justify(pebble_model::uv::Justify),
}

impl UvAction {
    pub const ALL: [UvAction; 12] = [
        UvAction::Fit,
        UvAction::AlignWorld,
        UvAction::AlignFace,
        UvAction::TurnLeft,
        UvAction::TurnRight,
        UvAction::FlipU,
        UvAction::FlipV,
        UvAction::Justify(pebble_model::uv::Justify::Left),
        UvAction::Justify(pebble_model::uv::Justify::Right),
        UvAction::Justify(pebble_model::uv::Justify::Top),
        UvAction::Justify(pebble_model::uv::Justify::Bottom),
        UvAction::Justify(pebble_model::uv::Justify::Centre),
    ];

    /// The operation it runs.
    pub fn op(self) -> super::faces::UvOp {
        use super::faces::UvOp;
        match self {
            UvAction::Fit => UvOp::Fit,
            UvAction::AlignWorld => UvOp::AlignWorld,
            UvAction::AlignFace => UvOp::AlignFace,
            UvAction::TurnLeft => UvOp::Quarter(true),
            UvAction::TurnRight => UvOp::Quarter(false),
            UvAction::FlipU => UvOp::FlipU,
            UvAction::FlipV => UvOp::FlipV,
            UvAction::Justify(j) => UvOp::Justify(j),
        }
    }

    /// A short name for a button.
    pub fn button(self) -> &'static str {
        use pebble_model::uv::Justify;
        match self {
            UvAction::Fit => "Fit",
            UvAction::AlignWorld => "Align world",
            UvAction::AlignFace => "Align face",
            UvAction::TurnLeft => "90° left",
            UvAction::TurnRight => "90° right",
            UvAction::FlipU => "Flip U",
            UvAction::FlipV => "Flip V",
            UvAction::Justify(Justify::Left) => "Left",
            UvAction::Justify(Justify::Right) => "Right",
            UvAction::Justify(Justify::Top) => "Top",
            UvAction::Justify(Justify::Bottom) => "Bottom",
            UvAction::Justify(Justify::Centre) => "Centre",
        }
    }
}

/// Every action but the Create menu's, in the order menus and Help list them.
pub const ALL: &[Action] = &[
    Action::New,
    Action::Open,
    Action::Save,
    Action::SaveAs,
    Action::Import,
    Action::Export,
    Action::MapSettings,
    Action::Preferences,
    Action::Quit,
    Action::Undo,
    Action::Redo,
    Action::Delete,
    Action::Duplicate,
    Action::Copy,
    Action::Cut,
    Action::Paste,
    Action::PasteUnderCursor,
    Action::SelectAll,
    Action::SelectNone,
    Action::SelectInverse,
    Action::SelectSameKind,
    Action::SelectSameMaterial,
    Action::HideSelected,
    Action::UnhideAll,
    Action::Isolate,
    Action::Group,
    Action::Ungroup,
    Action::MakePrefab,
    Action::DuplicateLinked,
    Action::EnterInstance,
    Action::ApplyToPrefab,
    Action::RevertOverrides,
    Action::UnlinkInstance,
    Action::DropToFloor,
    Action::TurnQuarter,
    Action::Align(Axis::X, Edge::Min),
    Action::Align(Axis::X, Edge::Centre),
    Action::Align(Axis::X, Edge::Max),
    Action::Align(Axis::Y, Edge::Min),
    Action::Align(Axis::Y, Edge::Centre),
    Action::Align(Axis::Y, Edge::Max),
    Action::Align(Axis::Z, Edge::Min),
    Action::Align(Axis::Z, Edge::Centre),
    Action::Align(Axis::Z, Edge::Max),
    Action::Distribute(Axis::X),
    Action::Distribute(Axis::Y),
    Action::Distribute(Axis::Z),
    Action::FitCollider(ColliderFit::Box),
    Action::FitCollider(ColliderFit::Ramp),
    Action::FitCollider(ColliderFit::TriangleMesh),
    Action::NudgeLeft,
    Action::NudgeRight,
    Action::NudgeAway,
    Action::NudgeNearer,
    Action::NudgeUp,
    Action::NudgeDown,
    Action::FrameSelection,
    Action::FrameAll,
    Action::GizmoMove,
    Action::GizmoRotate,
    Action::GizmoScale,
    Action::ToggleGizmoSpace,
    Action::ViewTop,
    Action::ViewBottom,
    Action::ViewFront,
    Action::ViewBack,
    Action::ViewRight,
    Action::ViewLeft,
    Action::ToggleProjection,
    Action::TogglePspPreview,
    Action::TogglePreviewLight,
    Action::ToggleOverlays,
    Action::ToggleSnap,
    Action::ToggleBoxThroughWalls,
    Action::ToggleFog,
    Action::ToggleBackFaces,
    Action::ToggleLayer(Layer::Grid),
    Action::ToggleLayer(Layer::Colliders),
    Action::ToggleLayer(Layer::Lights),
    Action::ToggleLayer(Layer::Emitters),
    Action::ToggleLayer(Layer::Markers),
    Action::ToggleLayer(Layer::GameEntities),
    Action::ShowLinks(crate::layer::Links::All),
    Action::ShowLinks(crate::layer::Links::Selected),
    Action::ShowLinks(crate::layer::Links::None),
    Action::ShowPanel(Pane::Outliner),
    Action::ShowPanel(Pane::Inspector),
    Action::ShowPanel(Pane::Assets),
    Action::ShowPanel(Pane::Materials),
    Action::ShowPanel(Pane::Uv),
    Action::ShowPanel(Pane::History),
    Action::ShowPanel(Pane::Log),
    Action::ShowPanel(Pane::Problems),
    Action::ResetLayout,
    Action::PlayPause,
    Action::ExportAndDeploy,
    Action::Measure,
    Action::CompareCapture,
    Action::KeyboardHelp,
    Action::About,
    Action::AddMenu,
    Action::FaceMode,
    Action::ToggleTextureLock,
    Action::PickCoplanarFaces,
    Action::PickSameMaterialFaces,
    Action::GrowFaces,
    Action::ExtrudeFaces,
    Action::FlipFaces,
    Action::Pick(crate::faces::PickMode::Vertices),
    Action::Pick(crate::faces::PickMode::Edges),
    Action::Pick(crate::faces::PickMode::Faces),
    Action::SplitEdges,
    Action::MergeVertices,
    Action::Play,
    Action::PlayFromCamera,
    Action::PlayInPpsspp,
    Action::Uv(UvAction::Fit),
    Action::Uv(UvAction::AlignWorld),
    Action::Uv(UvAction::AlignFace),
    Action::Uv(UvAction::TurnLeft),
    Action::Uv(UvAction::TurnRight),
    Action::Uv(UvAction::FlipU),
    Action::Uv(UvAction::FlipV),
    Action::Uv(UvAction::Justify(pebble_model::uv::Justify::Left)),
    Action::Uv(UvAction::Justify(pebble_model::uv::Justify::Right)),
    Action::Uv(UvAction::Justify(pebble_model::uv::Justify::Top)),
    Action::Uv(UvAction::Justify(pebble_model::uv::Justify::Bottom)),
    Action::Uv(UvAction::Justify(pebble_model::uv::Justify::Centre)),
];

/// The operations on the selection, in the order the Edit menu and an outliner
/// row's right-click menu list them.
pub const ON_SELECTION: [Action; 9] = [
    Action::Delete,
    Action::Duplicate,
    Action::Group,
    Action::Ungroup,
    Action::HideSelected,
    Action::Isolate,
    Action::DropToFloor,
    Action::TurnQuarter,
    Action::FrameSelection,
];

/// What is done with prefabs, in the order the Edit menu's Prefab submenu and
/// the context menus list them.
pub const PREFABS: [Action; 6] = [
    Action::MakePrefab,
    Action::DuplicateLinked,
    Action::EnterInstance,
    Action::ApplyToPrefab,
    Action::RevertOverrides,
    Action::UnlinkInstance,
];

/// Modifiers as the table writes them.
const NONE: Modifiers = Modifiers::NONE;
const CTRL: Modifiers = Modifiers::COMMAND;
const SHIFT: Modifiers = Modifiers::SHIFT;
const ALT: Modifiers = Modifiers::ALT;
const CTRL_SHIFT: Modifiers = Modifiers::COMMAND.plus(Modifiers::SHIFT);

/// A `'static` list of shortcuts: `keys![CTRL => S, NONE => F5]`.
macro_rules! keys {
    ($($m:ident => $k:ident),* $(,)?) => {{
        const KEYS: &[Shortcut] = &[$(Shortcut::new($m, Key::$k)),*];
        KEYS
    }};
}

/// Where an action's keys are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// Wherever the keyboard is, a text field being typed in too: keys that are
    /// never text (F5 starts and stops Play).
    Anywhere,
    /// Anywhere but in a text field, whose keys are text (Ctrl+A selects its
    /// text, Delete deletes a letter).
    Window,
    /// The viewport's keys: as `Window`, and not while a right-button flight
    /// steers with W/A/S/D/Q/E.
    Viewport,
}

/// What an action needs to be able to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    /// Something selected.
    Selection,
    /// A mesh among the selection.
    SelectedMesh,
    /// Face mode with faces picked.
    PickedFaces,
    /// Something copied.
    Clipboard,
    /// A step to undo, or to redo.
    Undo,
    Redo,
    /// No import, or no export, already running.
    NoImport,
    NoExport,
}

/// What the editor is doing now, as far as the actions' [`Needs`] ask; the shell
/// fills it when it draws a menu.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct State {
    pub selection: bool,
    pub selected_mesh: bool,
    pub picked_faces: bool,
    pub clipboard: bool,
    pub can_undo: bool,
    pub can_redo: bool,
    pub importing: bool,
    pub exporting: bool,
}

impl Needs {
    pub fn met(self, now: &State) -> bool {
        match self {
            Needs::Nothing => true,
            Needs::Selection => now.selection,
            Needs::SelectedMesh => now.selected_mesh,
            Needs::PickedFaces => now.picked_faces,
            Needs::Clipboard => now.clipboard,
            Needs::Undo => now.can_undo,
            Needs::Redo => now.can_redo,
            Needs::NoImport => !now.importing,
            Needs::NoExport => !now.exporting,
        }
    }
}

/// An action as the table declares it (see [`Action::spec`]).
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// What menus and Help call it.
    pub label: &'static str,
    /// The keys that run it; menus show the first.
    pub keys: &'static [Shortcut],
    pub context: Context,
    /// Waits while a viewport tool drags (the selection or the history would
    /// change under the drag).
    pub waits_for_tools: bool,
    pub needs: Needs,
    /// What a menu shows after the label where no key is: a clipboard key that
    /// arrives as a clipboard event, or what a dialog takes.
    pub hint: Option<&'static str>,
}

impl Spec {
    const fn new(label: &'static str) -> Self {
        Spec {
            label,
            keys: &[],
            context: Context::Window,
            waits_for_tools: false,
            needs: Needs::Nothing,
            hint: None,
        }
    }

    const fn keys(mut self, keys: &'static [Shortcut]) -> Self {
        self.keys = keys;
        self
    }

    const fn context(mut self, context: Context) -> Self {
        self.context = context;
        self
    }

    const fn waits_for_tools(mut self) -> Self {
        self.waits_for_tools = true;
        self
    }

    const fn needs(mut self, needs: Needs) -> Self {
        self.needs = needs;
        self
    }

    const fn hint(mut self, hint: &'static str) -> Self {
        self.hint = Some(hint);
        self
    }
}

/// Every key of the table with its action, in the order keys are matched: a
/// shortcut with more modifiers before the one it contains (Ctrl+Shift+S before
/// Ctrl+S), since egui lets a pattern without Shift match with Shift held. Made
/// once: the window asks for it every frame.
pub fn keyed() -> &'static [(Shortcut, Action)] {
    static KEYED: std::sync::OnceLock<Vec<(Shortcut, Action)>> = std::sync::OnceLock::new();
    KEYED.get_or_init(|| {
        let mut keyed: Vec<(Shortcut, Action)> = ALL
            .iter()
            .flat_map(|&a| a.shortcuts().iter().map(move |&s| (s, a)))
            .collect();
        let held = |s: &Shortcut| {
            let m = s.modifiers;
            u8::from(m.alt) + u8::from(m.command) + u8::from(m.shift)
        };
        keyed.sort_by_key(|(s, _)| std::cmp::Reverse(held(s)));
        keyed
    })
}

impl Action {
    /// Everything the table says of it, declared together: label, keys, where
    /// the keys work, whether it waits for a viewport drag, when it can run, and
    /// the menu's hint. `PebbleApp::run_action` carries it out.
    pub fn spec(self) -> Spec {
        match self {
            Self::New => Spec::new("New").keys(keys![CTRL => N]),
            Self::Open => Spec::new("Open…").keys(keys![CTRL => O]),
            Self::Save => Spec::new("Save").keys(keys![CTRL => S]),
            Self::SaveAs => Spec::new("Save As…").keys(keys![CTRL_SHIFT => S]),
            Self::Import => Spec::new("Import…")
                .needs(Needs::NoImport)
                .hint("glTF, TMD, image, .pbm"),
            Self::Export => Spec::new("Export .pbm…")
                .keys(keys![CTRL => E])
                .needs(Needs::NoExport),
            Self::MapSettings => Spec::new("Map settings…"),
            Self::Preferences => Spec::new("Preferences…"),
            Self::Quit => Spec::new("Quit"),
            Self::Undo => Spec::new("Undo")
                .keys(keys![CTRL => Z])
                .waits_for_tools()
                .needs(Needs::Undo),
            Self::Redo => Spec::new("Redo")
                .keys(keys![CTRL_SHIFT => Z, CTRL => Y])
                .waits_for_tools()
                .needs(Needs::Redo),
            Self::Delete => Spec::new("Delete")
                .keys(keys![NONE => Delete, NONE => Backspace])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::Duplicate => Spec::new("Duplicate")
                .keys(keys![CTRL => D])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::Copy => Spec::new("Copy").needs(Needs::Selection).hint("Ctrl+C"),
            Self::Cut => Spec::new("Cut")
                .waits_for_tools()
                .needs(Needs::Selection)
                .hint("Ctrl+X"),
            Self::Paste => Spec::new("Paste")
                .waits_for_tools()
                .needs(Needs::Clipboard)
                .hint("Ctrl+V"),
            Self::PasteUnderCursor => Spec::new("Paste under the cursor")
                .keys(keys![CTRL_SHIFT => V])
                .waits_for_tools()
                .needs(Needs::Clipboard),
            Self::SelectAll => Spec::new("Select all")
                .keys(keys![CTRL => A])
                .waits_for_tools(),
            Self::SelectNone => Spec::new("Select none")
                .keys(keys![CTRL_SHIFT => A])
                .waits_for_tools(),
            Self::SelectInverse => Spec::new("Invert the selection")
                .keys(keys![CTRL => I])
                .waits_for_tools(),
            Self::SelectSameKind => {
                Spec::new("Select all of the same kind").needs(Needs::Selection)
            }
            Self::SelectSameMaterial => {
                Spec::new("Select all with the same material").needs(Needs::Selection)
            }
            Self::HideSelected => Spec::new("Hide the selection")
                .keys(keys![NONE => H])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::UnhideAll => Spec::new("Unhide all")
                .keys(keys![ALT => H])
                .waits_for_tools(),
            Self::Isolate => Spec::new("Isolate the selection")
                .keys(keys![NONE => Slash])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::Group => Spec::new("Group")
                .keys(keys![CTRL => G])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::MakePrefab => Spec::new("Make a prefab of the selection")
                .keys(keys![CTRL_SHIFT => P])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::DuplicateLinked => Spec::new("Duplicate as a linked copy")
                .keys(keys![CTRL_SHIFT => D])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::EnterInstance => Spec::new("Enter or leave the prefab instance")
                .keys(keys![CTRL => Enter])
                .waits_for_tools(),
            Self::ApplyToPrefab => Spec::new("Apply the overrides to the prefab")
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::RevertOverrides => Spec::new("Revert the overrides")
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::UnlinkInstance => Spec::new("Unlink the instance (plain entities)")
                .keys(keys![CTRL_SHIFT => U])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::Ungroup => Spec::new("Ungroup")
                .keys(keys![CTRL_SHIFT => G])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::DropToFloor => Spec::new("Drop to the floor")
                .keys(keys![NONE => End])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::TurnQuarter => Spec::new("Turn 90° about Y")
                .keys(keys![CTRL => R])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::Align(axis, edge) => Spec::new(match (axis, edge) {
                (Axis::X, Edge::Min) => "Align left (X min)",
                (Axis::X, Edge::Centre) => "Align centres on X",
                (Axis::X, Edge::Max) => "Align right (X max)",
                (Axis::Y, Edge::Min) => "Align bottoms (Y min)",
                (Axis::Y, Edge::Centre) => "Align centres on Y",
                (Axis::Y, Edge::Max) => "Align tops (Y max)",
                (Axis::Z, Edge::Min) => "Align backs (Z min)",
                (Axis::Z, Edge::Centre) => "Align centres on Z",
                (Axis::Z, Edge::Max) => "Align fronts (Z max)",
            })
            .needs(Needs::Selection),
            Self::Distribute(axis) => Spec::new(match axis {
                Axis::X => "Distribute along X",
                Axis::Y => "Distribute along Y",
                Axis::Z => "Distribute along Z",
            })
            .needs(Needs::Selection),
            Self::FitCollider(fit) => Spec::new(match fit {
                ColliderFit::Box => "Box collider from selection",
                ColliderFit::Ramp => "Ramp collider from selection",
                ColliderFit::TriangleMesh => "Triangle-mesh collider from selection",
            })
            .needs(Needs::SelectedMesh),
            Self::NudgeLeft => Spec::new("Nudge left")
                .keys(keys![NONE => ArrowLeft])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::NudgeRight => Spec::new("Nudge right")
                .keys(keys![NONE => ArrowRight])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::NudgeAway => Spec::new("Nudge away")
                .keys(keys![NONE => ArrowUp])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::NudgeNearer => Spec::new("Nudge nearer")
                .keys(keys![NONE => ArrowDown])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::NudgeUp => Spec::new("Nudge up")
                .keys(keys![NONE => PageUp])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::NudgeDown => Spec::new("Nudge down")
                .keys(keys![NONE => PageDown])
                .waits_for_tools()
                .needs(Needs::Selection),
            Self::FrameSelection => Spec::new("Frame selection")
                .keys(keys![NONE => F])
                .needs(Needs::Selection),
            Self::FrameAll => Spec::new("Frame all").keys(keys![NONE => Home]),
            Self::GizmoMove => Spec::new("Move gizmo")
                .keys(keys![NONE => W])
                .context(Context::Viewport)
                .waits_for_tools(),
            Self::GizmoRotate => Spec::new("Rotate gizmo")
                .keys(keys![NONE => E])
                .context(Context::Viewport)
                .waits_for_tools(),
            Self::GizmoScale => Spec::new("Scale gizmo")
                .keys(keys![NONE => R])
                .context(Context::Viewport)
                .waits_for_tools(),
            Self::ToggleGizmoSpace => Spec::new("World or local axes")
                .keys(keys![NONE => Q])
                .context(Context::Viewport)
                .waits_for_tools(),
            Self::ViewTop => Spec::new("Top view")
                .keys(keys![NONE => Num7])
                .context(Context::Viewport),
            Self::ViewBottom => Spec::new("Bottom view")
                .keys(keys![CTRL => Num7])
                .context(Context::Viewport),
            Self::ViewFront => Spec::new("Front view")
                .keys(keys![NONE => Num1])
                .context(Context::Viewport),
            Self::ViewBack => Spec::new("Back view")
                .keys(keys![CTRL => Num1])
                .context(Context::Viewport),
            Self::ViewRight => Spec::new("Right view")
                .keys(keys![NONE => Num3])
                .context(Context::Viewport),
            Self::ViewLeft => Spec::new("Left view")
                .keys(keys![CTRL => Num3])
                .context(Context::Viewport),
            Self::ToggleProjection => Spec::new("Perspective or orthographic")
                .keys(keys![NONE => Num5])
                .context(Context::Viewport),
            Self::TogglePspPreview => Spec::new("PSP preview"),
            Self::TogglePreviewLight => Spec::new("Preview light (unbaked)"),
            Self::ToggleOverlays => Spec::new("Overlays"),
            Self::ToggleSnap => Spec::new("Snap (Ctrl inverts while dragging)"),
            Self::ToggleBoxThroughWalls => {
                Spec::new("Box select through walls (Alt at the release inverts)")
            }
            Self::ToggleFog => Spec::new("Fog in the viewport"),
            Self::ToggleBackFaces => Spec::new("Show back faces"),
            Self::ToggleLayer(layer) => Spec::new(layer.label()),
            Self::ShowLinks(links) => Spec::new(links.label())
                .hint("which links between game entities the viewport draws"),
            Self::ShowPanel(pane) => Spec::new(pane.title()),
            Self::ResetLayout => Spec::new("Reset the panel layout"),
            Self::PlayPause => Spec::new("Play or pause the scene clock"),
            Self::ExportAndDeploy => Spec::new("Export & Deploy"),
            Self::Measure => Spec::new("Measure distance")
                .keys(keys![NONE => M])
                .context(Context::Viewport),
            Self::FaceMode => Spec::new("Face mode")
                .keys(keys![NONE => T])
                .context(Context::Viewport),
            Self::ToggleTextureLock => Spec::new("Texture lock").keys(keys![SHIFT => T]),
            Self::PickCoplanarFaces => Spec::new("Pick coplanar faces").needs(Needs::PickedFaces),
            Self::PickSameMaterialFaces => {
                Spec::new("Pick faces with the same material").needs(Needs::PickedFaces)
            }
            Self::GrowFaces => Spec::new("Grow the picked faces").needs(Needs::PickedFaces),
            Self::Uv(op) => Spec::new(op.op().label()).needs(Needs::PickedFaces),
            Self::ExtrudeFaces => Spec::new("Extrude the picked faces")
                .keys(keys![ALT => E])
                .needs(Needs::PickedFaces),
            Self::FlipFaces => Spec::new("Flip the picked faces")
                .keys(keys![ALT => F])
                .needs(Needs::PickedFaces),
            Self::Pick(crate::faces::PickMode::Vertices) => {
                Spec::new("Pick vertices").keys(keys![ALT => Num1])
            }
            Self::Pick(crate::faces::PickMode::Edges) => {
                Spec::new("Pick edges").keys(keys![ALT => Num2])
            }
            Self::Pick(crate::faces::PickMode::Faces) => {
                Spec::new("Pick faces").keys(keys![ALT => Num3])
            }
            Self::SplitEdges => Spec::new("Split the picked edges").needs(Needs::PickedFaces),
            Self::MergeVertices => Spec::new("Merge the picked vertices")
                .keys(keys![ALT => M])
                .needs(Needs::PickedFaces),
            Self::Play => Spec::new("Play from the spawn")
                .keys(keys![NONE => F5])
                .context(Context::Anywhere),
            Self::PlayFromCamera => Spec::new("Play from the camera")
                .keys(keys![SHIFT => F5])
                .context(Context::Anywhere),
            Self::PlayInPpsspp => Spec::new("Play in PPSSPP")
                .keys(keys![CTRL => F5])
                .context(Context::Anywhere),
            Self::CompareCapture => Spec::new("Compare a device capture…"),
            Self::KeyboardHelp => Spec::new("Keyboard and mouse"),
            Self::About => Spec::new("About Pebble"),
            Self::AddMenu => Spec::new("Add at the cursor…").keys(keys![SHIFT => A]),
            Self::Create(item) => Spec::new(item.label()),
        }
    }

    /// What menus and Help call it.
    pub fn label(self) -> &'static str {
        self.spec().label
    }

    /// Its first key, the one menus show, if it has one.
    pub fn shortcut(self) -> Option<Shortcut> {
        self.spec().keys.first().copied()
    }

    /// Every key that runs it (Redo: Ctrl+Shift+Z and Ctrl+Y).
    pub fn shortcuts(self) -> &'static [Shortcut] {
        self.spec().keys
    }

    /// Keys of the viewport (gizmo and view): not while flying with the right
    /// button (W/E/Q steer then).
    pub fn is_viewport_key(self) -> bool {
        self.spec().context == Context::Viewport
    }

    /// Keys that wait while a viewport tool is at work (a drag in progress): the
    /// gizmo's, and those that change the selection or what it is.
    pub fn waits_for_tools(self) -> bool {
        self.spec().waits_for_tools
    }

    /// Whether it can run now (menus grey it out otherwise).
    pub fn enabled(self, now: &State) -> bool {
        self.spec().needs.met(now)
    }

    /// The shortcut as Help and the menus write it ("Ctrl+Shift+S").
    pub fn shortcut_text(self) -> Option<String> {
        self.shortcut().map(|s| shortcut_text(&s))
    }

    /// The menu entry: the label, and the shortcut (or a hint) after two spaces in
    /// brackets.
    pub fn menu_text(self) -> String {
        match self
            .shortcut_text()
            .or(self.spec().hint.map(str::to_string))
        {
            Some(k) => format!("{}  ({k})", self.label()),
            None => self.label().to_string(),
        }
    }
}

/// The keys that come as clipboard events (Copy, Cut, Paste), which no table
/// key may take.
pub const CLIPBOARD_KEYS: [Shortcut; 3] = [
    Shortcut::new(CTRL, Key::C),
    Shortcut::new(CTRL, Key::X),
    Shortcut::new(CTRL, Key::V),
];

/// Keys of the table that run more than one action, with those actions.
pub fn conflicts() -> Vec<(Shortcut, Vec<Action>)> {
    conflicts_in(keyed())
}

fn conflicts_in(table: &[(Shortcut, Action)]) -> Vec<(Shortcut, Vec<Action>)> {
    let mut by_key: Vec<(Shortcut, Vec<Action>)> = Vec::new();
    for &(s, a) in table {
        match by_key.iter_mut().find(|(k, _)| *k == s) {
            Some((_, actions)) => actions.push(a),
            None => by_key.push((s, vec![a])),
        }
    }
    by_key.retain(|(_, actions)| actions.len() > 1);
    by_key
}

/// "Ctrl+Shift+S", "Home", "7".
pub fn shortcut_text(s: &Shortcut) -> String {
    s.text()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_key_runs_two_actions_and_none_takes_a_clipboard_key() {
        assert_eq!(conflicts(), Vec::new());
        let keyed = keyed();
        for (s, a) in keyed {
            assert!(
                !CLIPBOARD_KEYS.contains(s),
                "{a:?} takes {}, which comes as a clipboard event",
                s.text()
            );
        }
        // Every key of every action is matched, once.
        let count: usize = ALL.iter().map(|a| a.shortcuts().len()).sum();
        assert_eq!(keyed.len(), count);
        assert!(count > 50, "{count} keys");
    }

    #[test]
    fn a_conflict_is_found_where_one_is_made() {
        let mut table: Vec<(Shortcut, Action)> = keyed().to_vec();
        table.push((Shortcut::new(CTRL, Key::S), Action::Quit));
        let found = conflicts_in(&table);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Shortcut::new(CTRL, Key::S));
        assert_eq!(found[0].1, vec![Action::Save, Action::Quit]);
    }

    #[test]
    fn keys_are_matched_with_more_modifiers_first() {
        let keyed = keyed();
        for (i, (sa, a)) in keyed.iter().enumerate() {
            for (sb, b) in &keyed[i + 1..] {
                let later_contains_earlier = sa.key == sb.key
                    && sb.modifiers.contains(sa.modifiers)
                    && sb.modifiers != sa.modifiers;
                assert!(
                    !later_contains_earlier,
                    "{b:?} ({}) contains {a:?} ({}) but comes after it",
                    sb.text(),
                    sa.text()
                );
            }
        }
    }

    #[test]
    fn the_free_keys_are_those_no_action_takes() {
        let scheme = crate::scheme::Scheme::default();
        let free = crate::shortcuts::free_keys(&scheme);
        for &(s, a) in keyed() {
            if s.modifiers.is_none() {
                assert!(!free.contains(&s.key), "{:?} is {a:?}'s", s.key);
            }
        }
        assert!(
            free.contains(&Key::B) && free.contains(&Key::Num9),
            "{free:?}"
        );
    }

    #[test]
    fn no_two_actions_share_a_label() {
        let mut seen = std::collections::HashMap::new();
        for a in ALL {
            if let Some(b) = seen.insert(a.label(), a) {
                panic!("{a:?} and {b:?} are both called {:?}", a.label());
            }
        }
    }

    #[test]
    fn menu_texts_say_the_shortcut() {
        assert_eq!(Action::SaveAs.menu_text(), "Save As…  (Ctrl+Shift+S)");
        assert_eq!(Action::Open.menu_text(), "Open…  (Ctrl+O)");
        assert_eq!(Action::FrameAll.menu_text(), "Frame all  (Home)");
        assert_eq!(Action::Preferences.menu_text(), "Preferences…");
        assert_eq!(
            Action::Import.menu_text(),
            "Import…  (glTF, TMD, image, .pbm)"
        );
    }
}
