//! The action table's keys as egui's: the core writes shortcuts without a
//! windowing library, the window reads egui's input.

use eframe::egui;
use pebble_core::keys::{Key, Shortcut};

/// egui's key of the same name.
pub fn egui_key(key: Key) -> egui::Key {
    // Every key of the table has an egui key of its name (tested below).
    egui::Key::from_name(key.name()).unwrap_or(egui::Key::F35)
}

/// egui's shortcut for `shortcut` (Ctrl is egui's command: ⌘ on a Mac).
pub fn egui_shortcut(shortcut: &Shortcut) -> egui::KeyboardShortcut {
    let m = shortcut.modifiers;
    let mut modifiers = egui::Modifiers::NONE;
    if m.command {
        modifiers |= egui::Modifiers::COMMAND;
    }
    if m.alt {
        modifiers |= egui::Modifiers::ALT;
    }
    if m.shift {
        modifiers |= egui::Modifiers::SHIFT;
    }
    egui::KeyboardShortcut::new(modifiers, egui_key(shortcut.key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_of_the_table_is_egui_s_key_of_that_name() {
        for &k in Key::ALL {
            let e = egui::Key::from_name(k.name());
            assert!(e.is_some(), "{k:?} ({}) has no egui key", k.name());
            assert_eq!(e.map(egui::Key::name), Some(k.name()));
            assert_eq!(e.map(egui::Key::symbol_or_name), Some(k.symbol_or_name()));
        }
    }
}
