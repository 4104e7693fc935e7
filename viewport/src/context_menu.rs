//! The viewport's right-click menu: with several things under the pixel, those
//! things (one chosen is selected); the operations on the selection (the same
//! list as the Edit menu and the outliner's), the clipboard with "Paste here" at
//! the surface that was clicked, and the selections. It returns what was chosen
//! as intents; the app carries them out.

use pebble_model::glam::Vec3;

use pebble_core::action::{Action, ON_SELECTION, PREFABS, State};
use pebble_core::intent::Intent;

/// An open context menu.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextMenu {
    /// Where it opens, in points.
    pub at: egui::Pos2,
    /// The surface point that was right-clicked ("Paste here" puts things there).
    pub point: Option<Vec3>,
    /// What is under the pixel, nearest first, with names (listed when several).
    pub under: Vec<(pebble_model::EntityId, String)>,
    /// The Add menu (Shift+A): the Create menu's items, nothing else.
    pub create: bool,
}

/// What the menu offers after the selection's operations.
const MORE: [Action; 6] = [
    Action::Copy,
    Action::Cut,
    Action::Paste,
    Action::PasteUnderCursor,
    Action::SelectAll,
    Action::UnhideAll,
];

/// Draws the menu; returns whether it stays open, and what was chosen.
pub fn ui(
    ctx: &egui::Context,
    menu: &ContextMenu,
    has_selection: bool,
    out: &mut Vec<Intent>,
) -> bool {
    let mut open = true;
    let area = egui::Area::new(egui::Id::unique("pebble viewport context menu"))
        .fixed_pos(menu.at)
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            egui::Frame::menu(ui.style()).show(ui, |ui| {
                ui.set_min_width(190.0);
                // Entries look like a menu's, not like buttons.
                ui.style_mut().visuals.button_frame = false;
                ui.style_mut().spacing.button_padding = egui::vec2(6.0, 3.0);
                if menu.create {
                    ui.weak("Add");
                    for (k, (_, items)) in pebble_core::create::groups().into_iter().enumerate() {
                        if k > 0 {
                            ui.separator();
                        }
                        for item in items {
                            if ui.button(item.label()).clicked() {
                                out.push(Intent::Run(Action::Create(item)));
                                open = false;
                            }
                        }
                    }
                    return;
                }
                if menu.under.len() > 1 {
                    ui.weak("Under the cursor");
                    for (id, name) in &menu.under {
                        if ui.button(format!("Select {name}")).clicked() {
                            out.push(Intent::Select(vec![*id]));
                            open = false;
                        }
                    }
                    ui.separator();
                }
                for (k, action) in ON_SELECTION.iter().chain(MORE.iter()).enumerate() {
                    if k == ON_SELECTION.len() {
                        ui.separator();
                    }
                    // What this menu knows of the editor's state: the selection.
                    // A paste may bring the system clipboard's text.
                    let now = State {
                        selection: has_selection,
                        clipboard: true,
                        ..State::default()
                    };
                    let enabled = action.enabled(&now);
                    let text = match action {
                        Action::PasteUnderCursor => "Paste here".to_string(),
                        a => a.menu_text(),
                    };
                    if ui.add_enabled(enabled, egui::Button::new(text)).clicked() {
                        out.push(Intent::Run(*action));
                        open = false;
                    }
                }
                // Flat, not a submenu: a press in a submenu would be outside
                // this menu's area and close it.
                ui.separator();
                for action in PREFABS {
                    let now = State {
                        selection: has_selection,
                        ..State::default()
                    };
                    if ui
                        .add_enabled(action.enabled(&now), egui::Button::new(action.menu_text()))
                        .clicked()
                    {
                        out.push(Intent::Run(action));
                        open = false;
                    }
                }
            });
        });
    let (escape, pressed, pointer) = ctx.input(|i| {
        (
            i.key_pressed(egui::Key::Escape),
            i.pointer.any_pressed(),
            i.pointer.interact_pos(),
        )
    });
    let outside = pointer.is_some_and(|p| !area.response.rect.contains(p));
    if escape || (pressed && outside) {
        open = false;
    }
    open
}
