//! Who the keys go to. egui lets a button or a checkbox that holds the keyboard
//! take Enter and Space as a click. In an editor where every key is also a
//! shortcut, only a text field being typed in, or a control the user moved to
//! with Tab, may take keys: any other holder of the keyboard (one left focused by
//! a click, a request, a panel that changed under it) is let go before the
//! frame's keys are read. So typing meant for a field that lost focus goes to
//! the shortcuts or to nothing, and never ticks a box the user cannot see.

use eframe::egui;

#[derive(Debug, Default)]
pub struct KeyboardFocus {
    /// The control the user moved to with Tab (and has not clicked away from).
    tabbed_to: Option<egui::Id>,
}

impl KeyboardFocus {
    /// Before the frame reads its keys: lets go of a control that holds the
    /// keyboard without having been chosen with Tab.
    pub fn before_keys(&mut self, ctx: &egui::Context) {
        let (tab, pressed) =
            ctx.input(|i| (i.key_pressed(egui::Key::Tab), i.pointer.any_pressed()));
        if pressed {
            self.tabbed_to = None;
        }
        let Some(id) = ctx.memory(|m| m.focused()) else {
            return;
        };
        // Only keys that would click it, or text: a drag value clicked for typing
        // holds the keyboard a frame before its text field shows, and keeps it.
        let keys = ctx.input(|i| {
            i.events.iter().any(|e| {
                matches!(
                    e,
                    egui::Event::Text(_)
                        | egui::Event::Key {
                            key: egui::Key::Enter | egui::Key::Space,
                            pressed: true,
                            ..
                        }
                )
            })
        });
        if !keys || tab || Some(id) == self.tabbed_to || is_text_field(ctx, id) {
            return;
        }
        ctx.memory_mut(|m| m.surrender_focus(id));
    }

    /// After the frame: a Tab moved the keyboard to what now holds it.
    pub fn after_frame(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.key_pressed(egui::Key::Tab)) {
            self.tabbed_to = ctx.memory(|m| m.focused());
        }
    }
}

/// Whether `id` is a text field (it keeps a text edit's state).
fn is_text_field(ctx: &egui::Context, id: egui::Id) -> bool {
    egui::text_edit::TextEditState::load(ctx, id).is_some()
}
