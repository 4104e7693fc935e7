//! Click selection: a left click picks the entity drawn under the cursor — a
//! marker's lines within a few pixels (lights, emitters, triggers, colliders, the
//! spawn, patrols), else the ID buffer's nearest hit. Shift adds, Ctrl toggles,
//! a plain click replaces the selection; a click on nothing clears it.

use pebble_model::EntityId;

use super::{Pointer, Tool, ToolContext, combine_selection};
use crate::app::viewport::navigation::Button;
use crate::app::viewport::picking::marker_under;

#[derive(Debug, Default)]
pub struct ClickSelect;

impl Tool for ClickSelect {
    fn name(&self) -> &'static str {
        "select"
    }

    fn press(&mut self, _cx: &mut ToolContext, p: &Pointer) -> bool {
        p.click && p.button == Button::Left
    }

    fn drag(&mut self, _cx: &mut ToolContext, _p: &Pointer) {}

    fn release(&mut self, cx: &mut ToolContext, p: &Pointer) {
        match cx.pick.pick(p.pos) {
            Ok(hit) => {
                // A marker (light, emitter, trigger…) in front of the surface wins.
                let marker = marker_under(
                    cx.doc.scene(),
                    &cx.camera_view(),
                    p.pos,
                    hit.map(|h| h.world),
                );
                let found = marker.map(|(id, _)| id).or(hit.map(|h| EntityId(h.id)));
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
