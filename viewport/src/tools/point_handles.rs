//! Point handles: a described entity selected alone shows a handle at each of
//! its point fields' points (a patrol's waypoints, an enemy's path, a ball pit's
//! corners); a handle dragged moves its point level, at its height, under the
//! cursor (Ctrl: up and down instead), on the grid while Snap is on, and the
//! release sets the field as one undo step. Esc puts the point back; nothing was changed until the release.

use pebble_model::command::SetFieldValues;
use pebble_model::definitions::{FieldType, FieldValue};
use pebble_model::entity::EntityKind;
use pebble_model::glam::{Affine3A, Vec2, Vec3};
use pebble_model::{EntityId, Scene};

use super::create::plane_hit;
use super::{OverlayContext, Pointer, Tool, ToolContext, ToolOverlay};
use crate::navigation::Button;
use crate::view::View;
use pebble_core::document::Document;

/// How near to a handle, in pixels, a press takes it.
const REACH: f32 = 9.0;
/// A handle's half width on screen, pixels.
const HALF: f32 = 5.0;
/// Handles (0xAABBGGRR): white, the dragged one the selection's orange.
const HANDLE: u32 = 0xFF_FF_FF_FF;
const DRAGGED: u32 = 0xFF_28_AA_FF;

/// One point of a field: which field, which element (of a list), where it is in
/// the world, and how its stored value maps to the world.
#[derive(Debug, Clone, PartialEq)]
struct Handle {
    field: String,
    index: Option<usize>,
    world: Vec3,
    /// `Some`: the field's points are relative to the entity (its world
    /// transform); `None`: world space.
    frame: Option<Affine3A>,
}

/// The handles of the one selected described entity.
fn handles(doc: &Document) -> Option<(EntityId, Vec<Handle>)> {
    let scene: &Scene = doc.scene();
    let [id] = scene.selection() else {
        return None;
    };
    let e = scene.entity(*id)?;
    let EntityKind::Defined(d) = &e.kind else {
        return None;
    };
    if !scene.is_pickable(*id) {
        return None;
    }
    let defs = doc.kinds.defs.clone();
    let kind = defs.kind(&d.kind)?;
    let world = scene.world_transform(*id);
    let mut out = Vec::new();
    for f in kind.fields.iter().filter(|f| f.ty == FieldType::Point) {
        let frame = f.local.then_some(world);
        let place = |p: Vec3| frame.map_or(p, |w| w.transform_point3(p));
        match d.value(kind, &f.name) {
            Some(FieldValue::Point(p)) if p.is_finite() => out.push(Handle {
                field: f.name.clone(),
                index: None,
                world: place(*p),
                frame,
            }),
            Some(FieldValue::Array(items)) => {
                for (k, v) in items.iter().enumerate() {
                    if let FieldValue::Point(p) = v
                        && p.is_finite()
                    {
                        out.push(Handle {
                            field: f.name.clone(),
                            index: Some(k),
                            world: place(*p),
                            frame,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    (!out.is_empty()).then_some((*id, out))
}

/// A handle being dragged: the entity, the handle and where it is now.
#[derive(Debug, Clone, PartialEq)]
struct Drag {
    entity: EntityId,
    handle: Handle,
    at: Vec3,
    /// Where the press was on screen (Ctrl drags measure height from it).
    pressed: Vec2,
}

#[derive(Debug, Default)]
pub struct PointHandles {
    drag: Option<Drag>,
}

impl PointHandles {
    /// The handle under `pixel`, the nearest within reach.
    fn under(doc: &Document, view: &View, pixel: Vec2) -> Option<(EntityId, Handle)> {
        let (id, list) = handles(doc)?;
        list.into_iter()
            .filter_map(|h| {
                let d = view.project(h.world)?.distance(pixel);
                (d <= REACH).then_some((d, h))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, h)| (id, h))
    }
}

/// Where a dragged point goes for the cursor at `pixel`: on the level plane at
/// its height, or (`vertical`) straight up or down from where it was pressed.
fn dragged_to(view: &View, drag: &Drag, pixel: Vec2, vertical: bool) -> Option<Vec3> {
    let from = drag.handle.world;
    if vertical {
        // A metre per this many pixels at the point's distance.
        let near = view.project(from)?;
        let up = view.project(from + Vec3::Y)?;
        let per_metre = (up - near).length().max(1e-3);
        let dy = (drag.pressed.y - pixel.y) / per_metre;
        return Some(from + Vec3::Y * dy);
    }
    let (origin, dir) = view.ray(pixel);
    plane_hit(origin, dir, from.y)
}

/// `at` on the grid of `step` (Snap on): level, or its height when dragged up
/// and down (`vertical`); the other coordinates stay `from`'s.
fn snapped(at: Vec3, from: Vec3, step: Option<f32>, vertical: bool) -> Vec3 {
    let Some(step) = step.filter(|s| s.is_finite() && *s > 1e-4) else {
        return at;
    };
    if vertical {
        return Vec3::new(from.x, (at.y / step).round() * step, from.z);
    }
    let xz = super::snap::snap_xz(at, step, false);
    Vec3::new(xz.x, at.y, xz.y)
}

/// The field's new value with the dragged point at `world`.
fn moved(doc: &Document, drag: &Drag, world: Vec3) -> Option<FieldValue> {
    let stored = drag
        .handle
        .frame
        .map_or(world, |w| w.inverse().transform_point3(world));
    let e = doc.scene().entity(drag.entity)?;
    let EntityKind::Defined(d) = &e.kind else {
        return None;
    };
    let defs = doc.kinds.defs.clone();
    let kind = defs.kind(&d.kind)?;
    match (drag.handle.index, d.value(kind, &drag.handle.field)?) {
        (None, _) => Some(FieldValue::Point(stored)),
        (Some(k), FieldValue::Array(items)) => {
            let mut items = items.clone();
            *items.get_mut(k)? = FieldValue::Point(stored);
            Some(FieldValue::Array(items))
        }
        _ => None,
    }
}

impl Tool for PointHandles {
    fn name(&self) -> &'static str {
        "point handles"
    }

    fn press(&mut self, cx: &mut ToolContext, p: &Pointer) -> bool {
        if p.button != Button::Left {
            return false;
        }
        let view = cx.camera_view();
        let Some((entity, handle)) = Self::under(cx.doc, &view, p.press) else {
            return false;
        };
        self.drag = Some(Drag {
            entity,
            at: handle.world,
            handle,
            pressed: p.press,
        });
        true
    }

    fn drag(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let view = cx.camera_view();
        let step = cx.prefs.snap.then_some(cx.prefs.snap_steps.step);
        if let Some(drag) = &mut self.drag
            && let Some(at) = dragged_to(&view, drag, p.pos, p.modifiers.ctrl)
        {
            drag.at = snapped(at, drag.handle.world, step, p.modifiers.ctrl);
            cx.repaint = true;
        }
    }

    fn release(&mut self, cx: &mut ToolContext, p: &Pointer) {
        self.drag(cx, p);
        let Some(drag) = self.drag.take() else {
            return;
        };
        if drag.at == drag.handle.world {
            return;
        }
        let Some(value) = moved(cx.doc, &drag, drag.at) else {
            return;
        };
        let name = match drag.handle.index {
            Some(k) => format!("Move {} point {}", drag.handle.field, k + 1),
            None => format!("Move {}", drag.handle.field),
        };
        let command = SetFieldValues::new(name, vec![drag.entity], &drag.handle.field, Some(value));
        match cx.doc.execute(command) {
            Ok(()) => cx.status.info(format!("moved {}", drag.handle.field)),
            Err(e) => cx.status.error(e.to_string()),
        }
    }

    fn cancel(&mut self, _cx: &mut ToolContext) {
        self.drag = None;
    }

    fn overlay(&self, cx: &OverlayContext, _active: bool, out: &mut ToolOverlay) {
        let Some((id, list)) = handles(cx.doc) else {
            return;
        };
        for h in &list {
            let dragged = self
                .drag
                .as_ref()
                .filter(|d| d.entity == id && d.handle == *h);
            let (at, colour) = match dragged {
                Some(d) => {
                    out.line(h.world, d.at, DRAGGED);
                    (d.at, DRAGGED)
                }
                None => (h.world, HANDLE),
            };
            square(&cx.view, at, colour, out);
        }
        if let Some(d) = &self.drag {
            out.text = Some(format!(
                "{}: ({:.2}, {:.2}, {:.2}) · Ctrl: up and down · Esc: put it back",
                d.handle.field, d.at.x, d.at.y, d.at.z
            ));
        }
    }
}

/// A small square facing the view at `at`.
fn square(view: &View, at: Vec3, colour: u32, out: &mut ToolOverlay) {
    let forward = view.camera.forward();
    let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
    let up = right.cross(forward).normalize_or(Vec3::Y);
    let half = HALF * view.metres_per_pixel(at);
    let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .map(|(x, y)| at + (right * x + up * y) * half);
    for k in 0..4 {
        out.thick_line(view, (corners[k], corners[(k + 1) % 4]), colour, 2.0);
    }
}
