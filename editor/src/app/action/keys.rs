//! A navigation scheme's own keys (Blender's G, R, S…): shortcuts written as the
//! key list writes them, read into the action table's terms, the shortcuts in
//! force with a scheme, and the keys left free.

use eframe::egui::{Key, KeyboardShortcut, Modifiers};

use super::{ALL, Action, DELETE_ALSO, PASTE_UNDER_CURSOR, REDO_ALSO};

/// A shortcut as the key list writes it: modifiers joined by `+` before egui's
/// name of the key ("G", "Shift+A", "Ctrl+Period").
pub fn parse_shortcut(text: &str) -> Option<KeyboardShortcut> {
    let mut modifiers = Modifiers::NONE;
    let mut parts: Vec<&str> = text.split('+').map(str::trim).collect();
    let key = Key::from_name(parts.pop()?)?;
    for m in parts {
        match m.to_ascii_lowercase().as_str() {
            "ctrl" | "cmd" | "command" => modifiers |= Modifiers::COMMAND,
            "shift" => modifiers |= Modifiers::SHIFT,
            "alt" => modifiers |= Modifiers::ALT,
            _ => return None,
        }
    }
    Some(KeyboardShortcut::new(modifiers, key))
}

/// The action named `name` in the table (its variant's name: "GizmoMove").
pub fn by_name(name: &str) -> Option<Action> {
    ALL.iter().copied().find(|a| format!("{a:?}") == name)
}

/// A navigation scheme's keys that make sense: each shortcut with its action.
pub fn scheme_keys(
    scheme: &crate::app::viewport::navigation::Scheme,
) -> Vec<(KeyboardShortcut, Action)> {
    scheme
        .keys
        .iter()
        .filter_map(|b| Some((parse_shortcut(&b.keys)?, by_name(&b.action)?)))
        .collect()
}

/// What runs each action from the keyboard with `scheme`: the scheme's keys,
/// then the table's own where the scheme did not take that key.
pub fn effective_shortcuts(
    scheme: &crate::app::viewport::navigation::Scheme,
) -> Vec<(Action, Vec<KeyboardShortcut>)> {
    let taken = scheme_keys(scheme);
    ALL.iter()
        .map(|&a| {
            let mut keys: Vec<KeyboardShortcut> = taken
                .iter()
                .filter(|(_, b)| *b == a)
                .map(|(k, _)| *k)
                .collect();
            if let Some(own) = a.shortcut()
                && !taken.iter().any(|(k, _)| *k == own)
            {
                keys.push(own);
            }
            (a, keys)
        })
        .collect()
}

/// The letter and digit keys nothing runs with `scheme` (without modifiers): the
/// key list shows them, for a scheme's keys to come.
pub fn free_keys(scheme: &crate::app::viewport::navigation::Scheme) -> Vec<Key> {
    let used: Vec<KeyboardShortcut> = effective_shortcuts(scheme)
        .into_iter()
        .flat_map(|(_, k)| k)
        .chain([REDO_ALSO, DELETE_ALSO, PASTE_UNDER_CURSOR])
        .collect();
    // W, A, S, D, Q and E steer a flight; they are the flight's while it lasts.
    Key::ALL
        .iter()
        .copied()
        .filter(|k| {
            let name = k.name();
            name.len() == 1 && name.chars().all(|c| c.is_ascii_alphanumeric())
        })
        .filter(|k| {
            !used
                .iter()
                .any(|s| s.logical_key == *k && s.modifiers.is_none())
        })
        .collect()
}
