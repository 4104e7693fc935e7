//! A mouse navigation scheme (Fusion 360's, Blender's, Unity's…): what the
//! middle button's drags do and the keys the scheme's home program uses. Plain
//! data, read from the presets; the viewport's navigation follows it.

/// A mouse navigation scheme: what the middle button's drags do. The rest is the
/// same in every scheme: a left drag is the editor's own (select, gizmo, box),
/// Alt + left orbits, a right drag flies (Alt + right zooms), Ctrl + middle zooms.
/// The bundled schemes are `presets/navigation/*.ron` (Fusion 360, Blender,
/// Unity / Unreal); the Preferences window and the View menu list them with the
/// user's own.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Scheme {
    pub name: String,
    #[serde(default)]
    pub about: String,
    pub middle: DragAction,
    pub shift_middle: DragAction,
    /// A middle double-click frames everything.
    #[serde(default)]
    pub middle_double_click_frames: bool,
    /// The keys the scheme's home program uses for the editor's actions (Blender's
    /// G, R, S, X…): they take those keys before the editor's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<KeyBinding>,
}

/// A key of a navigation scheme: a shortcut as the key list writes it ("G",
/// "Shift+A", "Period") and the action it runs, by its name in the action table
/// ("GizmoMove").
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KeyBinding {
    pub keys: String,
    pub action: String,
}

impl Default for Scheme {
    /// Fusion 360's (as `presets/navigation/fusion360.ron`).
    fn default() -> Self {
        Self {
            name: "Fusion 360".into(),
            about: String::new(),
            middle: DragAction::Pan,
            shift_middle: DragAction::Orbit,
            middle_double_click_frames: true,
            keys: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Button {
    Left,
    Middle,
    Right,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DragAction {
    Orbit,
    Pan,
    Zoom,
    /// Turn in place; W/A/S/D, Q/E move while it lasts.
    FlyLook,
}

/// What a drag with `button` and the modifiers held does under `scheme`.
pub fn drag_action(
    scheme: &Scheme,
    button: Button,
    shift: bool,
    ctrl: bool,
    alt: bool,
) -> Option<DragAction> {
    use DragAction::*;
    match button {
        Button::Left => alt.then_some(Orbit),
        Button::Right => Some(if alt { Zoom } else { FlyLook }),
        Button::Middle if ctrl => Some(Zoom),
        Button::Middle if shift => Some(scheme.shift_middle),
        Button::Middle => Some(scheme.middle),
    }
}
