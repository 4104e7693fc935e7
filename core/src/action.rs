//! Every user action as one enum entry with its label and shortcut. The menus, the
//! key handling and Help › Keyboard and mouse all read this table, and
//! `PebbleApp::run_action` is the one place an action is carried out, so a label,
//! a shortcut and what it does cannot drift apart.

use crate::keys::{Key, Modifiers, Shortcut};

use super::create::CreateItem;
use super::edit_ops::{Axis, ColliderFit, Edge};
use super::pane::Pane;
use crate::layer::Layer;

mod keys;
pub use keys::{by_name, effective_shortcuts, free_keys, parse_shortcut, scheme_keys};

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
    Action::ToggleLayer(Layer::Triggers),
    Action::ToggleLayer(Layer::Lights),
    Action::ToggleLayer(Layer::Emitters),
    Action::ToggleLayer(Layer::Spawn),
    Action::ToggleLayer(Layer::Patrols),
    Action::ShowPanel(Pane::Outliner),
    Action::ShowPanel(Pane::Inspector),
    Action::ShowPanel(Pane::Assets),
    Action::ShowPanel(Pane::Materials),
    Action::ShowPanel(Pane::Uv),
    Action::ShowPanel(Pane::History),
    Action::ShowPanel(Pane::Log),
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

/// The actions with a shortcut, in the order keys are matched: a shortcut with
/// more modifiers comes before the one it contains (Ctrl+Shift+S before Ctrl+S),
/// since egui lets a pattern without Shift match with Shift held.
pub const KEYED: &[Action] = &[
    Action::SaveAs,
    Action::Save,
    Action::Open,
    Action::New,
    Action::Export,
    Action::Redo,
    Action::Undo,
    Action::SelectNone,
    Action::SelectAll,
    Action::AddMenu,
    Action::Ungroup,
    Action::Group,
    Action::Duplicate,
    Action::SelectInverse,
    Action::TurnQuarter,
    Action::UnhideAll,
    Action::HideSelected,
    Action::Isolate,
    Action::Delete,
    Action::DropToFloor,
    Action::PlayInPpsspp,
    Action::PlayFromCamera,
    Action::Play,
    Action::MergeVertices,
    Action::Measure,
    Action::ToggleTextureLock,
    Action::ExtrudeFaces,
    Action::FlipFaces,
    Action::Pick(crate::faces::PickMode::Vertices),
    Action::Pick(crate::faces::PickMode::Edges),
    Action::Pick(crate::faces::PickMode::Faces),
    Action::FaceMode,
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
    Action::ViewBottom,
    Action::ViewBack,
    Action::ViewLeft,
    Action::ViewTop,
    Action::ViewFront,
    Action::ViewRight,
    Action::ToggleProjection,
];

/// Ctrl+Y redoes as well as Ctrl+Shift+Z.
/// Paste under the cursor's chord (see `pressed_shortcuts`).
pub const PASTE_UNDER_CURSOR: Shortcut =
    Shortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::V);
pub const REDO_ALSO: Shortcut = Shortcut::new(Modifiers::COMMAND, Key::Y);
/// Backspace deletes as well as Delete.
pub const DELETE_ALSO: Shortcut = Shortcut::new(Modifiers::NONE, Key::Backspace);

impl Action {
    /// What menus and Help call it.
    pub fn label(self) -> &'static str {
        match self {
            Self::New => "New",
            Self::Open => "Open…",
            Self::Save => "Save",
            Self::SaveAs => "Save As…",
            Self::Import => "Import…",
            Self::Export => "Export .pbm…",
            Self::MapSettings => "Map settings…",
            Self::Preferences => "Preferences…",
            Self::Quit => "Quit",
            Self::Undo => "Undo",
            Self::Redo => "Redo",
            Self::Delete => "Delete",
            Self::Duplicate => "Duplicate",
            Self::Copy => "Copy",
            Self::Cut => "Cut",
            Self::Paste => "Paste",
            Self::PasteUnderCursor => "Paste under the cursor",
            Self::SelectAll => "Select all",
            Self::SelectNone => "Select none",
            Self::SelectInverse => "Invert the selection",
            Self::SelectSameKind => "Select all of the same kind",
            Self::SelectSameMaterial => "Select all with the same material",
            Self::HideSelected => "Hide the selection",
            Self::UnhideAll => "Unhide all",
            Self::Isolate => "Isolate the selection",
            Self::Group => "Group",
            Self::Ungroup => "Ungroup",
            Self::DropToFloor => "Drop to the floor",
            Self::TurnQuarter => "Turn 90° about Y",
            Self::Align(axis, edge) => match (axis, edge) {
                (Axis::X, Edge::Min) => "Align left (X min)",
                (Axis::X, Edge::Centre) => "Align centres on X",
                (Axis::X, Edge::Max) => "Align right (X max)",
                (Axis::Y, Edge::Min) => "Align bottoms (Y min)",
                (Axis::Y, Edge::Centre) => "Align centres on Y",
                (Axis::Y, Edge::Max) => "Align tops (Y max)",
                (Axis::Z, Edge::Min) => "Align backs (Z min)",
                (Axis::Z, Edge::Centre) => "Align centres on Z",
                (Axis::Z, Edge::Max) => "Align fronts (Z max)",
            },
            Self::Distribute(axis) => match axis {
                Axis::X => "Distribute along X",
                Axis::Y => "Distribute along Y",
                Axis::Z => "Distribute along Z",
            },
            Self::FitCollider(fit) => match fit {
                ColliderFit::Box => "Box collider from selection",
                ColliderFit::Ramp => "Ramp collider from selection",
                ColliderFit::TriangleMesh => "Triangle-mesh collider from selection",
            },
            Self::NudgeLeft => "Nudge left",
            Self::NudgeRight => "Nudge right",
            Self::NudgeAway => "Nudge away",
            Self::NudgeNearer => "Nudge nearer",
            Self::NudgeUp => "Nudge up",
            Self::NudgeDown => "Nudge down",
            Self::FrameSelection => "Frame selection",
            Self::FrameAll => "Frame all",
            Self::GizmoMove => "Move gizmo",
            Self::GizmoRotate => "Rotate gizmo",
            Self::GizmoScale => "Scale gizmo",
            Self::ToggleGizmoSpace => "World or local axes",
            Self::ViewTop => "Top view",
            Self::ViewBottom => "Bottom view",
            Self::ViewFront => "Front view",
            Self::ViewBack => "Back view",
            Self::ViewRight => "Right view",
            Self::ViewLeft => "Left view",
            Self::ToggleProjection => "Perspective or orthographic",
            Self::TogglePspPreview => "PSP preview",
            Self::TogglePreviewLight => "Preview light (unbaked)",
            Self::ToggleOverlays => "Overlays",
            Self::ToggleSnap => "Snap (Ctrl inverts while dragging)",
            Self::ToggleBoxThroughWalls => "Box select through walls (Alt at the release inverts)",
            Self::ToggleFog => "Fog in the viewport",
            Self::ToggleBackFaces => "Show back faces",
            Self::ToggleLayer(layer) => layer.label(),
            Self::ShowPanel(pane) => pane.title(),
            Self::ResetLayout => "Reset the panel layout",
            Self::PlayPause => "Play or pause the scene clock",
            Self::ExportAndDeploy => "Export & Deploy",
            Self::Measure => "Measure distance",
            Self::FaceMode => "Face mode",
            Self::ToggleTextureLock => "Texture lock",
            Self::PickCoplanarFaces => "Pick coplanar faces",
            Self::PickSameMaterialFaces => "Pick faces with the same material",
            Self::GrowFaces => "Grow the picked faces",
            Self::Uv(op) => op.op().label(),
            Self::ExtrudeFaces => "Extrude the picked faces",
            Self::FlipFaces => "Flip the picked faces",
            Self::Pick(crate::faces::PickMode::Vertices) => "Pick vertices",
            Self::Pick(crate::faces::PickMode::Edges) => "Pick edges",
            Self::Pick(crate::faces::PickMode::Faces) => "Pick faces",
            Self::SplitEdges => "Split the picked edges",
            Self::MergeVertices => "Merge the picked vertices",
            Self::Play => "Play from the spawn",
            Self::PlayFromCamera => "Play from the camera",
            Self::PlayInPpsspp => "Play in PPSSPP",
            Self::CompareCapture => "Compare a device capture…",
            Self::KeyboardHelp => "Keyboard and mouse",
            Self::About => "About Pebble",
            Self::AddMenu => "Add at the cursor…",
            Self::Create(item) => item.label(),
        }
    }

    /// Its key, if it has one.
    pub fn shortcut(self) -> Option<Shortcut> {
        let (modifiers, key) = match self {
            Self::New => (Modifiers::COMMAND, Key::N),
            Self::Open => (Modifiers::COMMAND, Key::O),
            Self::Save => (Modifiers::COMMAND, Key::S),
            Self::SaveAs => (Modifiers::COMMAND | Modifiers::SHIFT, Key::S),
            Self::Export => (Modifiers::COMMAND, Key::E),
            Self::Undo => (Modifiers::COMMAND, Key::Z),
            Self::Redo => (Modifiers::COMMAND | Modifiers::SHIFT, Key::Z),
            Self::Delete => (Modifiers::NONE, Key::Delete),
            Self::Duplicate => (Modifiers::COMMAND, Key::D),
            Self::SelectAll => (Modifiers::COMMAND, Key::A),
            Self::AddMenu => (Modifiers::SHIFT, Key::A),
            Self::SelectNone => (Modifiers::COMMAND | Modifiers::SHIFT, Key::A),
            Self::SelectInverse => (Modifiers::COMMAND, Key::I),
            Self::HideSelected => (Modifiers::NONE, Key::H),
            Self::UnhideAll => (Modifiers::ALT, Key::H),
            Self::Isolate => (Modifiers::NONE, Key::Slash),
            Self::Group => (Modifiers::COMMAND, Key::G),
            Self::Ungroup => (Modifiers::COMMAND | Modifiers::SHIFT, Key::G),
            Self::DropToFloor => (Modifiers::NONE, Key::End),
            Self::Measure => (Modifiers::NONE, Key::M),
            Self::FaceMode => (Modifiers::NONE, Key::T),
            Self::ToggleTextureLock => (Modifiers::SHIFT, Key::T),
            Self::ExtrudeFaces => (Modifiers::ALT, Key::E),
            Self::FlipFaces => (Modifiers::ALT, Key::F),
            Self::Pick(crate::faces::PickMode::Vertices) => (Modifiers::ALT, Key::Num1),
            Self::Pick(crate::faces::PickMode::Edges) => (Modifiers::ALT, Key::Num2),
            Self::Pick(crate::faces::PickMode::Faces) => (Modifiers::ALT, Key::Num3),
            Self::MergeVertices => (Modifiers::ALT, Key::M),
            Self::Play => (Modifiers::NONE, Key::F5),
            Self::PlayFromCamera => (Modifiers::SHIFT, Key::F5),
            Self::PlayInPpsspp => (Modifiers::COMMAND, Key::F5),
            Self::TurnQuarter => (Modifiers::COMMAND, Key::R),
            Self::NudgeLeft => (Modifiers::NONE, Key::ArrowLeft),
            Self::NudgeRight => (Modifiers::NONE, Key::ArrowRight),
            Self::NudgeAway => (Modifiers::NONE, Key::ArrowUp),
            Self::NudgeNearer => (Modifiers::NONE, Key::ArrowDown),
            Self::NudgeUp => (Modifiers::NONE, Key::PageUp),
            Self::NudgeDown => (Modifiers::NONE, Key::PageDown),
            Self::FrameSelection => (Modifiers::NONE, Key::F),
            Self::FrameAll => (Modifiers::NONE, Key::Home),
            Self::GizmoMove => (Modifiers::NONE, Key::W),
            Self::GizmoRotate => (Modifiers::NONE, Key::E),
            Self::GizmoScale => (Modifiers::NONE, Key::R),
            Self::ToggleGizmoSpace => (Modifiers::NONE, Key::Q),
            Self::ViewTop => (Modifiers::NONE, Key::Num7),
            Self::ViewBottom => (Modifiers::COMMAND, Key::Num7),
            Self::ViewFront => (Modifiers::NONE, Key::Num1),
            Self::ViewBack => (Modifiers::COMMAND, Key::Num1),
            Self::ViewRight => (Modifiers::NONE, Key::Num3),
            Self::ViewLeft => (Modifiers::COMMAND, Key::Num3),
            Self::ToggleProjection => (Modifiers::NONE, Key::Num5),
            Self::SelectSameKind
            | Self::SelectSameMaterial
            | Self::Copy
            | Self::Cut
            | Self::Paste
            | Self::PasteUnderCursor
            | Self::Align(..)
            | Self::Distribute(_)
            | Self::FitCollider(_)
            | Self::Import
            | Self::Preferences
            | Self::MapSettings
            | Self::Quit
            | Self::TogglePspPreview
            | Self::TogglePreviewLight
            | Self::ToggleOverlays
            | Self::ToggleSnap
            | Self::ToggleBoxThroughWalls
            | Self::ToggleFog
            | Self::ToggleBackFaces
            | Self::ToggleLayer(_)
            | Self::ShowPanel(_)
            | Self::ResetLayout
            | Self::PlayPause
            | Self::ExportAndDeploy
            | Self::CompareCapture
            | Self::KeyboardHelp
            | Self::About
            | Self::PickCoplanarFaces
            | Self::PickSameMaterialFaces
            | Self::GrowFaces
            | Self::Uv(_)
            | Self::SplitEdges
            | Self::Create(_) => return None,
        };
        Some(Shortcut::new(modifiers, key))
    }

    /// Keys of the viewport (gizmo and view): not while flying with the right
    /// button (W/E/Q steer then), and the gizmo's not in the middle of a drag.
    pub fn is_viewport_key(self) -> bool {
        self.is_gizmo_key()
            || matches!(
                self,
                Self::ViewTop
                    | Self::ViewBottom
                    | Self::ViewFront
                    | Self::ViewBack
                    | Self::ViewRight
                    | Self::ViewLeft
                    | Self::ToggleProjection
                    | Self::Measure
                    | Self::FaceMode
            )
    }

    /// Keys that wait while a viewport tool is at work (a drag in progress): the
    /// gizmo's, and those that change the selection or what it is.
    pub fn waits_for_tools(self) -> bool {
        self.is_gizmo_key()
            || matches!(
                self,
                Self::Delete
                    | Self::Duplicate
                    | Self::Cut
                    | Self::Paste
                    | Self::PasteUnderCursor
                    | Self::SelectAll
                    | Self::SelectNone
                    | Self::SelectInverse
                    | Self::HideSelected
                    | Self::UnhideAll
                    | Self::Isolate
                    | Self::Group
                    | Self::Ungroup
                    | Self::DropToFloor
                    | Self::TurnQuarter
                    | Self::NudgeLeft
                    | Self::NudgeRight
                    | Self::NudgeAway
                    | Self::NudgeNearer
                    | Self::NudgeUp
                    | Self::NudgeDown
                    | Self::Undo
                    | Self::Redo
            )
    }

    /// The gizmo's keys, which wait while a gizmo drag goes on.
    pub fn is_gizmo_key(self) -> bool {
        matches!(
            self,
            Self::GizmoMove | Self::GizmoRotate | Self::GizmoScale | Self::ToggleGizmoSpace
        )
    }

    /// The shortcut as Help and the menus write it ("Ctrl+Shift+S").
    pub fn shortcut_text(self) -> Option<String> {
        self.shortcut().map(|s| shortcut_text(&s))
    }

    /// What a menu adds after the label where there is no shortcut to show.
    fn hint(self) -> Option<&'static str> {
        match self {
            Self::Import => Some("glTF, TMD, image, .pbm"),
            Self::Copy => Some("Ctrl+C"),
            Self::Cut => Some("Ctrl+X"),
            Self::Paste => Some("Ctrl+V"),
            Self::PasteUnderCursor => Some("Ctrl+Shift+V"),
            _ => None,
        }
    }

    /// The menu entry: the label, and the shortcut (or a hint) after two spaces in
    /// brackets.
    pub fn menu_text(self) -> String {
        match self.shortcut_text().or(self.hint().map(str::to_string)) {
            Some(k) => format!("{}  ({k})", self.label()),
            None => self.label().to_string(),
        }
    }
}

/// "Ctrl+Shift+S", "Home", "7".
pub fn shortcut_text(s: &Shortcut) -> String {
    s.text()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shortcut_is_matched_and_none_is_taken_twice() {
        let all: Vec<Action> = KEYED.to_vec();
        let mut seen = std::collections::HashSet::new();
        for a in &all {
            let s = a.shortcut().unwrap_or_else(|| panic!("{a:?} is keyed"));
            assert!(seen.insert((s.modifiers, s.key)), "{a:?} repeats a key");
        }
        // Every action with a shortcut is matched, and every matched one is listed.
        for a in ALL {
            assert_eq!(a.shortcut().is_some(), KEYED.contains(a), "{a:?}");
        }
        assert!(KEYED.iter().all(|a| ALL.contains(a)));
        // A shortcut that contains another comes first.
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                let (sa, sb) = (a.shortcut().expect("keyed"), b.shortcut().expect("keyed"));
                let later_contains_earlier = sa.key == sb.key
                    && sb.modifiers.contains(sa.modifiers)
                    && sb.modifiers != sa.modifiers;
                assert!(
                    !later_contains_earlier,
                    "{b:?} contains {a:?} but comes after it"
                );
            }
        }
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
