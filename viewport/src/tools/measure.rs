//! The measuring tool (Tools › Measure, M): a click on a surface (V held: on the
//! vertex nearest the cursor) picks the first point, the line follows the mouse,
//! a second click fixes it. The distance, its level part and the height between
//! the points stay on screen, with the legs drawn, until the next measurement or
//! Esc, which also lets go of the tool. It changes nothing in the scene.

use pebble_model::glam::{Vec2, Vec3};

use super::create::{on_plane, picked_face, plane_hit};
use super::gizmo_tool::vertex_near;
use super::{OverlayContext, Pointer, Tool, ToolContext, ToolOverlay};
use crate::navigation::Button;

/// The measured line (0xAABBGGRR: yellow) and its legs (grey).
const LINE: u32 = 0xFF_30_E8_FF;
const LEGS: u32 = 0xFF_A0_A0_A0;

#[derive(Debug, Default, Clone, Copy, PartialEq)]
enum Stage {
    /// Armed: the next click is the first point.
    #[default]
    Waiting,
    /// The first point is down; the second follows the mouse.
    Following { from: Vec3, to: Vec3 },
    /// Both points are down; the result stays shown.
    Done { from: Vec3, to: Vec3 },
}

#[derive(Debug, Default)]
pub struct Measure {
    armed: bool,
    stage: Stage,
}

impl Measure {
    pub fn arm(&mut self) {
        self.armed = true;
        self.stage = Stage::Waiting;
    }

    pub fn is_armed(&self) -> bool {
        self.armed
    }

    /// The points measured, once both are down.
    pub fn result(&self) -> Option<(Vec3, Vec3)> {
        match self.stage {
            Stage::Done { from, to } => Some((from, to)),
            _ => None,
        }
    }
}

/// What the measurement says: the distance, its level part, the height.
pub fn readout(from: Vec3, to: Vec3) -> String {
    let d = to - from;
    format!(
        "{:.3} m  ·  level {:.3} m  ·  height {:+.3} m",
        d.length(),
        Vec2::new(d.x, d.z).length(),
        d.y
    )
}

/// The point measured under `pixel`: the picked face's plane (exact), with V
/// the nearest vertex, else the grid plane.
fn point_under(cx: &ToolContext, pixel: Vec2) -> Option<Vec3> {
    let view = cx.camera_view();
    let scene = cx.doc.scene();
    if cx.vertex_snap
        && let Some(v) = vertex_near(scene, &view, pixel, &[])
    {
        return Some(v);
    }
    let (origin, dir) = view.ray(pixel);
    match cx.pick.pick(pixel) {
        Ok(Some(hit)) => Some(match picked_face(scene, &hit) {
            Some(face) => on_plane(face, origin, dir, hit.world),
            None => hit.world,
        }),
        _ => plane_hit(origin, dir, 0.0),
    }
}

impl Tool for Measure {
    fn name(&self) -> &'static str {
        "measure"
    }

    fn press(&mut self, cx: &mut ToolContext, p: &Pointer) -> bool {
        if !self.armed || p.button != Button::Left || !p.click {
            return false;
        }
        match point_under(cx, p.pos) {
            Some(from) => self.stage = Stage::Following { from, to: from },
            None => cx.status.warn("nothing to measure from there"),
        }
        true
    }

    fn drag(&mut self, _cx: &mut ToolContext, _p: &Pointer) {}

    fn release(&mut self, _cx: &mut ToolContext, _p: &Pointer) {}

    fn cancel(&mut self, _cx: &mut ToolContext) {
        self.armed = false;
        self.stage = Stage::Waiting;
    }

    fn follows_pointer(&self) -> bool {
        matches!(self.stage, Stage::Following { .. })
    }

    fn hover(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let point = point_under(cx, p.pos);
        if let (Stage::Following { to, .. }, Some(point)) = (&mut self.stage, point) {
            *to = point;
        }
    }

    fn complete(&mut self, cx: &mut ToolContext, p: &Pointer) {
        self.hover(cx, p);
        if let Stage::Following { from, to } = self.stage {
            self.stage = Stage::Done { from, to };
            cx.status.info(format!("measured {}", readout(from, to)));
        }
    }

    fn disarm(&mut self, cx: &mut ToolContext) -> bool {
        if !self.armed {
            return false;
        }
        self.cancel(cx);
        true
    }

    fn settle(&mut self, _doc: &mut pebble_core::document::Document) {
        if let Stage::Following { from, to } = self.stage {
            self.stage = Stage::Done { from, to };
        }
    }

    fn overlay(&self, cx: &OverlayContext, _active: bool, out: &mut ToolOverlay) {
        if !self.armed {
            return;
        }
        let (from, to) = match self.stage {
            Stage::Waiting => {
                out.text = Some("Measure: click the first point (V: a vertex) · Esc: stop".into());
                return;
            }
            Stage::Following { from, to } | Stage::Done { from, to } => (from, to),
        };
        out.thick_line(&cx.view, (from, to), LINE, 3.0);
        // The legs: level from the lower point, then straight up.
        let (low, high) = if from.y <= to.y {
            (from, to)
        } else {
            (to, from)
        };
        let corner = Vec3::new(high.x, low.y, high.z);
        out.line(low, corner, LEGS);
        out.line(corner, high, LEGS);
        let text = readout(from, to);
        out.text = Some(match self.stage {
            Stage::Following { .. } => format!("{text} · click the second point · Esc: stop"),
            _ => format!("{text} · click to measure again · Esc: stop"),
        });
        if let Some(mid) = cx.view.project((from + to) * 0.5) {
            out.label = Some((mid + Vec2::new(8.0, -20.0), text));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readout_gives_the_distance_its_level_part_and_the_height() {
        assert_eq!(
            readout(Vec3::ZERO, Vec3::new(3.0, 4.0, 4.0)),
            "6.403 m  ·  level 5.000 m  ·  height +4.000 m"
        );
        assert_eq!(
            readout(Vec3::new(0.0, 2.0, 0.0), Vec3::ZERO),
            "2.000 m  ·  level 0.000 m  ·  height -2.000 m"
        );
    }
}
