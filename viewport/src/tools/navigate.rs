//! Navigation drags: orbit (about the surface under the cursor where the drag
//! began, else the selection, else the view's pivot), pan, drag-zoom and fly, as
//! the preferences' navigation preset maps buttons and modifiers. Esc puts the
//! camera back where the drag found it. A right press released where it began,
//! with no flying between, is a right click: the camera stays as it was, what is
//! under the cursor is selected (unless it already is), and the viewport opens
//! its context menu there.

use pebble_model::glam::{Vec2, Vec3};

use super::{OverlayContext, Pointer, Tool, ToolContext, ToolOverlay};
use crate::navigation::{self, DragAction, OrbitCamera, ZOOM_STEP};

#[derive(Debug, Default)]
pub struct Navigate {
    /// The drag in progress: what it does and the camera before it.
    drag: Option<(DragAction, OrbitCamera)>,
    /// The point an orbit turns about (drawn while it lasts).
    centre: Option<Vec3>,
    /// How far in front of the eye the point a pan grabbed is: the surface under
    /// the press, or the pivot's depth over the sky.
    pan_depth: f32,
    /// Where the pointer was at the last drag (the press at first, so the pixels
    /// egui's drag threshold swallowed still count).
    last: Vec2,
    /// How far the pointer went, pixels, and whether a fly key moved the eye:
    /// neither, with the right button, makes a click.
    travelled: f32,
    flew: bool,
    /// The button that pressed (the release's pointer may not say: a press and
    /// release within one frame ends the drag on the frame after).
    button: Option<crate::navigation::Button>,
}

/// A right press and release within this many pixels is a click.
const CLICK_PIXELS: f32 = 4.0;

impl Navigate {
    fn flying(&self) -> bool {
        matches!(self.drag, Some((DragAction::FlyLook, _)))
    }
}

impl Tool for Navigate {
    fn name(&self) -> &'static str {
        "navigate"
    }

    fn press(&mut self, cx: &mut ToolContext, p: &Pointer) -> bool {
        if p.click {
            return false;
        }
        let m = p.modifiers;
        let Some(action) =
            navigation::drag_action(&cx.prefs.navigation, p.button, m.shift, m.ctrl, m.alt)
        else {
            return false;
        };
        self.centre = (action == DragAction::Orbit).then(|| {
            cx.hover_point
                .or_else(|| cx.doc.selection_pivot())
                .unwrap_or(cx.view.orbit.pivot)
        });
        self.pan_depth = match action {
            DragAction::Pan => match cx.pick.pick(p.press) {
                Ok(Some(hit)) => cx.view.orbit.depth_of(hit.world),
                _ => cx.view.orbit.distance,
            },
            _ => cx.view.orbit.distance,
        };
        self.last = p.press;
        self.travelled = 0.0;
        self.flew = false;
        self.button = Some(p.button);
        self.drag = Some((action, cx.view.orbit));
        true
    }

    fn drag(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let Some((action, _)) = self.drag else {
            return;
        };
        // Any navigation ends a transition in flight where it is.
        cx.view.stop();
        let orbit = &mut cx.view.orbit;
        let (from, delta) = (self.last, p.pos - self.last);
        self.last = p.pos;
        self.travelled += delta.length();
        self.flew |= action == DragAction::FlyLook && cx.fly.direction != Vec3::ZERO;
        match action {
            DragAction::Orbit => {
                if let Some(c) = self.centre {
                    orbit.orbit_about(c, delta);
                }
            }
            DragAction::Pan => orbit.pan_at_depth(from, p.pos, cx.size.y, self.pan_depth),
            // Drag up zooms in, 50 pixels a notch.
            DragAction::Zoom => orbit.zoom(-delta.y / 50.0, ZOOM_STEP),
            DragAction::FlyLook => {
                orbit.look(delta);
                let speed = cx.prefs.fly_speed * if cx.fly.fast { 4.0 } else { 1.0 };
                orbit.fly(cx.fly.direction * speed * cx.dt);
                cx.repaint = true;
            }
        }
    }

    fn release(&mut self, cx: &mut ToolContext, p: &Pointer) {
        let drag = self.drag.take();
        self.centre = None;
        let Some((_, before)) = drag else {
            return;
        };
        if self.button.take() != Some(crate::navigation::Button::Right)
            || self.travelled > CLICK_PIXELS
            || self.flew
        {
            return;
        }
        // A right click: the pixels it moved turned nothing.
        cx.view.orbit = before;
        super::right_click(cx, p.pos);
    }

    fn cancel(&mut self, cx: &mut ToolContext) {
        if let Some((_, before)) = self.drag.take() {
            cx.view.orbit = before;
            cx.view.stop();
        }
        self.centre = None;
    }

    /// While flying the wheel sets the speed.
    fn wheel(&mut self, cx: &mut ToolContext, notches: f32) -> bool {
        if !self.flying() {
            return false;
        }
        cx.prefs.fly_speed = (cx.prefs.fly_speed * 1.2f32.powf(notches)).clamp(0.25, 200.0);
        true
    }

    /// The orbit's centre: a small cross drawn over everything; while flying, the
    /// speed.
    fn overlay(&self, cx: &OverlayContext, active: bool, out: &mut ToolOverlay) {
        if active && self.flying() {
            out.text = Some(format!(
                "flying at {:.1} m/s  ·  W A S D, Q E, Shift ×4, the wheel sets the speed",
                cx.prefs.fly_speed
            ));
        }
        let Some(c) = self.centre.filter(|_| active) else {
            return;
        };
        let len = cx.view.handle_length(c) * 0.25;
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            out.line(c - axis * len, c + axis * len, 0xFF_20_B0_FF);
        }
    }
}
