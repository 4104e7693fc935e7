//! Click selection: a left click picks the entity the ID buffer shows under the
//! cursor (the nearest hit within a few pixels: a mesh, or a marker's lines). Shift adds, Ctrl toggles,
//! a plain click replaces the selection; a click on nothing clears it. A right
//! click (press and release in one frame, before any drag began) opens the
//! context menu.

use pebble_model::EntityId;

use super::{Pointer, Tool, ToolContext, combine_selection};
use crate::app::viewport::navigation::Button;

#[derive(Debug, Default)]
pub struct ClickSelect;

impl Tool for ClickSelect {
    fn name(&self) -> &'static str {
        "select"
    }

    fn press(&mut self, _cx: &mut ToolContext, p: &Pointer) -> bool {
        p.click && matches!(p.button, Button::Left | Button::Right)
    }

    fn drag(&mut self, _cx: &mut ToolContext, _p: &Pointer) {}

    fn release(&mut self, cx: &mut ToolContext, p: &Pointer) {
        if p.button == Button::Right {
            super::right_click(cx, p.pos);
            return;
        }
        match cx.pick.pick(p.pos) {
            Ok(hit) => {
                let found = hit.map(|h| EntityId(h.id));
                let ids = combine_selection(cx.doc.scene().selection(), found, p.modifiers, true);
                if let Err(e) = cx.doc.select(ids) {
                    cx.status.error(e.to_string());
                }
            }
            Err(e) => cx.status.error(format!("pick failed: {e}")),
        }
    }

    /// A click has nothing to take back.
    fn cancel(&mut self, _cx: &mut ToolContext) {}
}
