//! Click selection: a left click picks the entity the ID buffer shows under the
//! cursor (the nearest hit within a few pixels: a mesh, or a marker's lines). Shift adds, Ctrl toggles,
//! a plain click replaces the selection; a click on nothing clears it. Clicking
//! again on the same spot goes through what is under it, nearest first then
//! deeper (six things within 40 px at the campfire need no pixel-perfect aim);
//! Alt+click lists them in the context menu. A right click (press and release in
//! one frame, before any drag began) opens the context menu.

use pebble_model::EntityId;

use super::{Pointer, Tool, ToolContext, combine_selection};
use crate::navigation::Button;

#[derive(Debug, Default)]
pub struct ClickSelect {
    /// The last plain click: where, and everything under it, nearest first.
    last: Option<(pebble_model::glam::Vec2, Vec<u32>)>,
}

/// How far a click may land from the last one and still go deeper there.
const SAME_SPOT_PX: f32 = 4.0;

impl ClickSelect {
    /// A plain click: where it lands again on the spot of the last one, on one of
    /// what was under it, the next one under it is selected (after the deepest,
    /// the nearest again); elsewhere the stack there is taken anew. Whether it
    /// chose (false: the click selects as usual).
    fn cycle(&mut self, cx: &mut ToolContext, at: pebble_model::glam::Vec2) -> bool {
        let selected: Vec<u32> = cx.doc.scene().selection().iter().map(|id| id.0).collect();
        if let Some((spot, under)) = &self.last
            && spot.distance(at) <= SAME_SPOT_PX
            && under.len() > 1
            && let [one] = selected.as_slice()
            && let Some(k) = under.iter().position(|id| id == one)
        {
            let next = under[(k + 1) % under.len()];
            let n = under.len();
            let name = cx
                .doc
                .scene()
                .entity(EntityId(next))
                .map(|e| e.name.clone())
                .unwrap_or_default();
            if let Err(e) = cx.doc.select(vec![EntityId(next)]) {
                cx.status.error(e.to_string());
            }
            cx.status.info(format!(
                "{name}: {} of {n} under the cursor (click again for the next, Alt+click for the list)",
                (k + 1) % n + 1
            ));
            return true;
        }
        self.last = match super::under_cursor(cx.doc.scene(), cx.pick, at) {
            Ok(under) => {
                if under.len() > 1 {
                    cx.status.info(format!(
                        "1 of {} under the cursor (click again for the next, Alt+click for the list)",
                        under.len()
                    ));
                } else if cx.status.text.contains("under the cursor") {
                    // The count of the last spot's pile no longer says anything.
                    cx.status.info(if under.is_empty() {
                        "nothing under the cursor"
                    } else {
                        "one thing under the cursor"
                    });
                }
                Some((at, under))
            }
            Err(_) => None,
        };
        false
    }
}

impl Tool for ClickSelect {
    fn name(&self) -> &'static str {
        "select"
    }

    /// A plain left click on the spot of the last one, with one of what was under
    /// it selected: the next one is chosen, whatever gizmo sits there.
    fn claims_click(&self, cx: &ToolContext, p: &Pointer) -> bool {
        let plain =
            !(p.modifiers.shift || p.modifiers.command || p.modifiers.ctrl || p.modifiers.alt);
        plain
            && p.button == Button::Left
            && self.last.as_ref().is_some_and(|(spot, under)| {
                let selection = cx.doc.scene().selection();
                spot.distance(p.pos) <= SAME_SPOT_PX
                    && under.len() > 1
                    && selection.len() == 1
                    && under.contains(&selection[0].0)
            })
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
        if p.modifiers.alt {
            super::list_under(cx, p.pos);
            return;
        }
        let plain = !(p.modifiers.shift || p.modifiers.command || p.modifiers.ctrl);
        if plain && self.cycle(cx, p.pos) {
            return;
        }
        // What is drawn in front first (super::pick_rank), not whichever outline
        // came nearest the cursor.
        let picked = match &self.last {
            // The plain click just looked under this spot (Self::cycle).
            Some((spot, under)) if plain && *spot == p.pos => Ok(under.first().copied()),
            _ => super::under_cursor(cx.doc.scene(), cx.pick, p.pos)
                .map(|under| under.first().copied()),
        };
        match picked {
            Ok(hit) => {
                let found = hit.map(EntityId);
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
