//! New copies following the mouse: after Duplicate (Ctrl+D) the copies are
//! selected and slide with the pointer over the level plane through them (on the
//! grid when snapping is on; Ctrl inverts it) until a click leaves them there.
//! The duplicate and the move are one undo step; Esc takes both back, leaving no
//! trace. The copies follow the gizmo as well: dragging a handle instead of
//! clicking ends the following where they are and moves them as any selection.

use pebble_model::command::Duplicate;
use pebble_model::glam::{Affine3A, Vec3};
use pebble_model::{EditKey, EntityId, Transform};

use super::{OverlayContext, Pointer, Tool, ToolContext, ToolOverlay};
use pebble_core::document::Document;
use pebble_core::edit_ops::moved_by;

/// Copies being placed: their placements when they were made, the point that
/// follows the cursor and where the cursor was then.
#[derive(Debug, Clone)]
struct Placing {
    start: Vec<(EntityId, Transform, Affine3A, Affine3A)>,
    anchor: Vec3,
    /// The first pointer position seen: the copies stay put until it moves.
    grabbed: Option<Vec3>,
}

#[derive(Debug, Default)]
pub struct PlaceCopies {
    placing: Option<Placing>,
}

impl PlaceCopies {
    /// Duplicates the selection as the first step of a placing edit and starts
    /// following; returns the copies.
    pub fn duplicate(&mut self, doc: &mut Document) -> Result<Vec<EntityId>, String> {
        let ids = doc.moved_entities();
        if ids.is_empty() {
            return Err("nothing selected".into());
        }
        doc.end_edit();
        doc.execute_boxed(Box::new(Duplicate::new(ids)), Some(EditKey::Placing))
            .map_err(|e| e.to_string())?;
        let anchor = doc.selection_pivot().unwrap_or(Vec3::ZERO);
        self.placing = Some(Placing {
            start: doc.moved_placements(),
            anchor,
            grabbed: None,
        });
        Ok(doc.scene().selection().to_vec())
    }

    fn end(&mut self, cx: &mut ToolContext) {
        if self.placing.take().is_some() {
            cx.doc.end_edit();
        }
    }
}

impl Tool for PlaceCopies {
    fn name(&self) -> &'static str {
        "place copies"
    }

    /// Never takes a press of its own: it starts with Duplicate.
    fn press(&mut self, _cx: &mut ToolContext, _p: &Pointer) -> bool {
        false
    }

    fn drag(&mut self, _cx: &mut ToolContext, _p: &Pointer) {}

    fn release(&mut self, _cx: &mut ToolContext, _p: &Pointer) {}

    fn cancel(&mut self, cx: &mut ToolContext) {
        if self.placing.take().is_some() && cx.doc.cancel_edit(EditKey::Placing) {
            cx.status.info("duplicate cancelled");
        }
    }

    fn follows_pointer(&self) -> bool {
        self.placing.is_some()
    }

    fn hover(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let Some(placing) = &mut self.placing else {
            return;
        };
        let (origin, dir) = cx.camera_view().ray(p.pos);
        if dir.y.abs() < 1e-5 {
            return;
        }
        let t = (placing.anchor.y - origin.y) / dir.y;
        if t <= 0.0 {
            return;
        }
        let at = origin + dir * t;
        let grabbed = *placing.grabbed.get_or_insert(at);
        let mut by = at - grabbed;
        let step = cx.prefs.snap_steps.step;
        if (cx.prefs.snap != p.modifiers.ctrl) && step > 1e-4 {
            by = (by / step).round() * step;
        }
        by.y = 0.0;
        let moved: Vec<(EntityId, Transform)> = placing
            .start
            .iter()
            .map(|(id, local, world, parent)| (*id, moved_by((*local, *world, *parent), by)))
            .collect();
        let step = cx.doc.set_transforms("Duplicate", moved);
        if let Err(e) = cx.doc.execute_boxed(Box::new(step), Some(EditKey::Placing)) {
            cx.status.error(format!("cannot move the copies: {e}"));
        }
    }

    fn complete(&mut self, cx: &mut ToolContext, _p: &Pointer) {
        self.end(cx);
    }

    fn settle(&mut self, doc: &mut Document) {
        if self.placing.take().is_some() {
            doc.end_edit();
        }
    }

    fn disarm(&mut self, cx: &mut ToolContext) -> bool {
        if self.placing.is_none() {
            return false;
        }
        self.cancel(cx);
        true
    }

    fn overlay(&self, _cx: &OverlayContext, active: bool, out: &mut ToolOverlay) {
        if active && self.placing.is_some() {
            out.text = Some(
                "placing the copies: click to put them down · Ctrl: snapping on / off · Esc: take them back"
                    .into(),
            );
        }
    }
}
