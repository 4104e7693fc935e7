//! Box selection: a left drag that does not start on a gizmo handle draws a
//! rectangle and, on release, selects the pickable entities in it — the meshes the
//! ID buffer shows there, and the markers (lights, emitters, triggers, colliders,
//! the spawn, patrols, ball pits) whose place lies inside. Shift adds, Ctrl
//! toggles, as for clicks. With "through walls" (View menu, or Alt held at the
//! release) hidden meshes count too: any whose bounds reach into the box. Esc drops
//! the box and leaves the selection as it was.

use pebble_model::glam::Vec2;
use pebble_model::{EntityId, Kind, Scene};

use super::{OverlayContext, Pointer, Tool, ToolContext, ToolOverlay, combine_selection};
use crate::navigation::Button;
use crate::view::View;

#[derive(Debug, Default)]
pub struct BoxSelect {
    /// The corners of the box being drawn, in pixels.
    rect: Option<(Vec2, Vec2)>,
}

impl Tool for BoxSelect {
    fn name(&self) -> &'static str {
        "box select"
    }

    fn press(&mut self, _cx: &mut ToolContext, p: &Pointer) -> bool {
        if p.click || p.button != Button::Left {
            return false;
        }
        self.rect = Some((p.press, p.pos));
        true
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
        let drawn = match cx.pick.pick_rect(start, p.pos) {
            Ok(found) => found,
            Err(e) => {
                cx.status.error(format!("box select failed: {e}"));
                return;
            }
        };
        let through_walls = cx.prefs.box_select_occluded != p.modifiers.alt;
        let found = inside(
            cx.doc.scene(),
            &cx.camera_view(),
            (start, p.pos),
            &drawn,
            through_walls,
        );
        let ids = combine_selection(cx.doc.scene().selection(), found, p.modifiers, true);
        if let Err(e) = cx.doc.select(ids) {
            cx.status.error(e.to_string());
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

/// What a box between two pixels selects, in scene order: the entities the ID
/// buffer drew in it (`drawn`), the pickable markers whose place projects into it,
/// and with `through_walls` the pickable meshes whose projected bounds reach into
/// it.
pub fn inside(
    scene: &Scene,
    view: &View,
    (a, b): (Vec2, Vec2),
    drawn: &[u32],
    through_walls: bool,
) -> Vec<EntityId> {
    let (lo, hi) = (a.min(b), a.max(b));
    let contains = |p: Vec2| p.cmpge(lo).all() && p.cmple(hi).all();
    scene
        .entities()
        .filter(|e| {
            if drawn.contains(&e.id.0) {
                return true;
            }
            if !scene.is_pickable(e.id) {
                return false;
            }
            match e.kind.kind() {
                // Nothing to see: a folder, and a surface that is never drawn.
                Kind::Group | Kind::Walkable => false,
                Kind::Mesh => {
                    through_walls
                        && scene.world_aabb(e.id).is_some_and(|bounds| {
                            let corners: Option<Vec<Vec2>> =
                                bounds.corners().iter().map(|c| view.project(*c)).collect();
                            corners.is_some_and(|c| {
                                let min = c.iter().copied().reduce(Vec2::min).unwrap_or(lo);
                                let max = c.iter().copied().reduce(Vec2::max).unwrap_or(lo);
                                min.cmple(hi).all() && max.cmpge(lo).all()
                            })
                        })
                }
                // Markers and volumes: their place.
                Kind::Light | Kind::Emitter | Kind::Collider | Kind::Custom | Kind::Defined => view
                    .project(scene.world_transform(e.id).translation.into())
                    .is_some_and(contains),
            }
        })
        .map(|e| e.id)
        .collect()
}
