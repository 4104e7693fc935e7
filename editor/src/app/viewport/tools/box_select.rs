//! Box selection: a left drag that starts on empty space draws a rectangle and
//! selects every pickable entity drawn inside it on release (Shift adds to the
//! selection). Esc drops the box and leaves the selection as it was.

use pebble_model::EntityId;
use pebble_model::glam::Vec2;

use super::{OverlayContext, Pointer, Tool, ToolContext, ToolOverlay, combine_selection};
use crate::app::viewport::navigation::Button;

#[derive(Debug, Default)]
pub struct BoxSelect {
    /// The corners of the box being drawn, in pixels.
    rect: Option<(Vec2, Vec2)>,
}

impl Tool for BoxSelect {
    fn name(&self) -> &'static str {
        "box select"
    }

    fn press(&mut self, cx: &mut ToolContext, p: &Pointer) -> bool {
        if p.click || p.button != Button::Left || p.modifiers.alt {
            return false;
        }
        let empty = matches!(cx.pick.pick(p.press), Ok(None));
        if empty {
            self.rect = Some((p.press, p.pos));
        }
        empty
    }

    fn drag(&mut self, _cx: &mut ToolContext, p: &Pointer) {
        if let Some((_, end)) = &mut self.rect {
            *end = p.pos;
        }
    }

    fn release(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let Some((start, _)) = self.rect.take() else {
            return;
        };
        match cx.pick.pick_rect(start, p.pos) {
            Ok(found) => {
                let found = found.into_iter().map(EntityId);
                let ids = combine_selection(cx.doc.scene().selection(), found, p.modifiers, false);
                if let Err(e) = cx.doc.select(ids) {
                    cx.status.error(e.to_string());
                }
            }
            Err(e) => cx.status.error(format!("box select failed: {e}")),
        }
    }

    fn cancel(&mut self, _cx: &mut ToolContext) {
        self.rect = None;
    }

    fn overlay(&self, _cx: &OverlayContext, active: bool, out: &mut ToolOverlay) {
        if active {
            out.rect = self.rect;
        }
    }
}
