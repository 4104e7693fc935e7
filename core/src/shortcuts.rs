//! A navigation scheme's own keys (Blender's G, R, S…): shortcuts written as the
//! key list writes them, read into the action table's terms, the shortcuts in
//! force with a scheme, and the keys left free.

use crate::keys::{Key, Shortcut};

use crate::action::{ALL, Action};

/// A shortcut as the key list writes it ("G", "Shift+A", "Ctrl+Period").
pub fn parse_shortcut(text: &str) -> Option<Shortcut> {
    Shortcut::parse(text)
}

/// The action named `name` in the table (its variant's name: "GizmoMove").
pub fn by_name(name: &str) -> Option<Action> {
    ALL.iter().copied().find(|a| format!("{a:?}") == name)
}

/// A navigation scheme's keys that make sense: each shortcut with its action.
pub fn scheme_keys(scheme: &crate::scheme::Scheme) -> Vec<(Shortcut, Action)> {
    scheme
        .keys
        .iter()
        .filter_map(|b| Some((parse_shortcut(&b.keys)?, by_name(&b.action)?)))
        .collect()
}

/// What runs each action from the keyboard with `scheme`: the scheme's keys,
/// then the table's own where the scheme did not take that key.
pub fn effective_shortcuts(scheme: &crate::scheme::Scheme) -> Vec<(Action, Vec<Shortcut>)> {
    let taken = scheme_keys(scheme);
    ALL.iter()
        .map(|&a| {
            let mut keys: Vec<Shortcut> = taken
                .iter()
                .filter(|(_, b)| *b == a)
                .map(|(k, _)| *k)
                .collect();
            for &own in a.shortcuts() {
                if !taken.iter().any(|(k, _)| *k == own) {
                    keys.push(own);
                }
            }
            (a, keys)
        })
        .collect()
}

/// The letter and digit keys nothing runs with `scheme` (without modifiers): the
/// key list shows them, for a scheme's keys to come.
pub fn free_keys(scheme: &crate::scheme::Scheme) -> Vec<Key> {
    let used: Vec<Shortcut> = effective_shortcuts(scheme)
        .into_iter()
        .flat_map(|(_, k)| k)
        .collect();
    // W, A, S, D, Q and E steer a flight; they are the flight's while it lasts.
    Key::ALL
        .iter()
        .copied()
        .filter(|k| {
            let name = k.name();
            name.len() == 1 && name.chars().all(|c| c.is_ascii_alphanumeric())
        })
        .filter(|k| !used.iter().any(|s| s.key == *k && s.modifiers.is_none()))
        .collect()
}
