//! Viewport navigation maths, free of UI: an orbit camera (pivot, distance, yaw,
//! pitch) and the operations the navigation presets map mouse input to. Orbit turns
//! at a constant angular speed with pitch clamped to ±89°; pan keeps the grabbed
//! point (at the pivot's depth) exactly under the cursor; zoom changes the distance by
//! a constant percentage per wheel notch; frame fits a box in view.

pub use pebble_core::scheme::{Button, DragAction, KeyBinding, Scheme, drag_action};

use pebble_model::glam::{Vec2, Vec3};
use pebble_render::Camera;

/// Radians of orbit per pixel of drag.
pub const ORBIT_SPEED: f32 = 0.3_f32 * std::f32::consts::PI / 180.0;
/// Pitch limit: ±89°, so the picture never flips.
pub const PITCH_LIMIT: f32 = 89.0_f32 * std::f32::consts::PI / 180.0;
/// Default zoom step per wheel notch.
pub const ZOOM_STEP: f32 = 0.12;

/// How much of the picture a framed box may take, each way (the rest a margin).
pub const FRAME_FILL: f32 = 0.9;

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OrbitCamera {
    pub pivot: Vec3,
    pub distance: f32,
    /// Radians; 0 looks down −Z.
    pub yaw: f32,
    /// Radians; negative looks down.
    pub pitch: f32,
    pub fov_y_deg: f32,
    /// Orthographic: the view is as tall as a perspective view's at the pivot.
    pub ortho: bool,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            pivot: Vec3::ZERO,
            distance: 12.0,
            yaw: 0.0,
            pitch: -0.35,
            fov_y_deg: 60.0,
            ortho: false,
        }
    }
}

/// The view cube's faces: the side of the scene the view looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    Front,
    Back,
    Left,
    Right,
    Top,
    Bottom,
}

impl Face {
    pub const ALL: [Face; 6] = [
        Face::Top,
        Face::Front,
        Face::Left,
        Face::Right,
        Face::Back,
        Face::Bottom,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Face::Front => "Front",
            Face::Back => "Back",
            Face::Left => "Left",
            Face::Right => "Right",
            Face::Top => "Top",
            Face::Bottom => "Bottom",
        }
    }

    /// Yaw and pitch (radians) that look at this face: Front looks down −Z from +Z,
    /// Left looks down +X from −X, Top looks down.
    pub fn yaw_pitch(self) -> (f32, f32) {
        use std::f32::consts::{FRAC_PI_2, PI};
        match self {
            Face::Front => (0.0, 0.0),
            Face::Back => (PI, 0.0),
            Face::Left => (FRAC_PI_2, 0.0),
            Face::Right => (-FRAC_PI_2, 0.0),
            Face::Top => (0.0, -PITCH_LIMIT),
            Face::Bottom => (0.0, PITCH_LIMIT),
        }
    }
}

impl OrbitCamera {
    /// A camera at `eye` looking along `yaw` and `pitch` (radians, as
    /// `pebble render --cam` takes them), its pivot a short way ahead.
    pub fn from_eye(eye: Vec3, yaw: f32, pitch: f32, fov_y_deg: f32) -> Self {
        let mut orbit = Self {
            yaw,
            pitch,
            distance: 2.0,
            fov_y_deg,
            ..Self::default()
        };
        orbit.pivot = eye + orbit.forward() * orbit.distance;
        orbit
    }

    /// Looks at `face` of the pivot, keeping pivot and distance.
    pub fn look_at_face(&mut self, face: Face) {
        (self.yaw, self.pitch) = face.yaw_pitch();
    }

    pub fn forward(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(sy * cp, sp, -cy * cp)
    }

    pub fn eye(&self) -> Vec3 {
        self.pivot - self.forward() * self.distance
    }

    /// The render camera: near and far scaled to the distance so close-ups and
    /// overviews both keep depth precision.
    pub fn camera(&self) -> Camera {
        if self.ortho {
            // Pulled far back so nothing between the pivot and the viewer is cut;
            // sizes do not depend on the depth.
            let back = (self.distance * 10.0).max(500.0);
            return Camera {
                eye: self.pivot - self.forward() * back,
                yaw: self.yaw,
                pitch: self.pitch,
                fov_y_deg: self.fov_y_deg,
                near: 0.1,
                far: back * 2.0 + self.distance * 20.0,
                ortho_height: self.view_height(),
            };
        }
        Camera {
            eye: self.eye(),
            yaw: self.yaw,
            pitch: self.pitch,
            fov_y_deg: self.fov_y_deg,
            near: (self.distance * 0.01).clamp(0.02, 1.0),
            far: (self.distance * 20.0).max(200.0),
            ortho_height: 0.0,
        }
    }

    /// The height the view shows at the pivot, metres.
    pub fn view_height(&self) -> f32 {
        2.0 * self.distance * (self.fov_y_deg.to_radians() * 0.5).tan()
    }

    /// Numpad 7 / 1 / 3: an orthographic view from a face, keeping the pivot and
    /// the size of the picture.
    pub fn ortho_from(&mut self, face: Face) {
        self.look_at_face(face);
        self.ortho = true;
    }

    /// A step of `t` (0..1) from `self` to `to`: everything linearly, yaw the short
    /// way round. With the angles unchanged the eye moves on a straight line, so a
    /// zoom towards a point keeps that point still all the way.
    pub fn lerp(&self, to: &OrbitCamera, t: f32) -> OrbitCamera {
        let t = t.clamp(0.0, 1.0);
        let mut dyaw = (to.yaw - self.yaw).rem_euclid(std::f32::consts::TAU);
        if dyaw > std::f32::consts::PI {
            dyaw -= std::f32::consts::TAU;
        }
        OrbitCamera {
            pivot: self.pivot.lerp(to.pivot, t),
            distance: self.distance + (to.distance - self.distance) * t,
            yaw: self.yaw + dyaw * t,
            pitch: self.pitch + (to.pitch - self.pitch) * t,
            fov_y_deg: self.fov_y_deg + (to.fov_y_deg - self.fov_y_deg) * t,
            ortho: to.ortho,
        }
    }

    /// Whether two views are the same to within a thousandth of the distance.
    pub fn close_to(&self, other: &OrbitCamera) -> bool {
        let eps = other.distance * 1e-3;
        (self.distance - other.distance).abs() < eps
            && self.pivot.distance(other.pivot) < eps
            && (self.yaw - other.yaw)
                .rem_euclid(std::f32::consts::TAU)
                .min((other.yaw - self.yaw).rem_euclid(std::f32::consts::TAU))
                < 1e-3
            && (self.pitch - other.pitch).abs() < 1e-3
    }

    /// Orbits around the pivot by a drag of `delta` pixels; an orthographic view
    /// becomes perspective.
    pub fn orbit(&mut self, delta: Vec2) {
        self.ortho = false;
        self.yaw += delta.x * ORBIT_SPEED;
        self.pitch = (self.pitch - delta.y * ORBIT_SPEED).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Where a wheel zoom at the cursor heads: the surface under the cursor when it
    /// lies in front of the near plane and closer than 3× the pivot's depth;
    /// otherwise the point at the pivot's depth along the cursor's ray
    /// (`ray`: origin and unit direction).
    pub fn zoom_anchor(&self, surface: Option<Vec3>, ray: (Vec3, Vec3)) -> Vec3 {
        let camera = self.camera();
        let forward = self.forward();
        let eye = self.eye();
        let pivot_depth = self.distance;
        if let Some(p) = surface {
            let depth = (p - eye).dot(forward);
            if depth > camera.near && depth < 3.0 * pivot_depth {
                return p;
            }
        }
        let (origin, dir) = ray;
        // Along the ray to the plane through the pivot facing the view.
        let along = dir.dot(forward);
        if along.abs() < 1e-6 {
            return self.pivot;
        }
        origin + dir * ((self.pivot - origin).dot(forward) / along)
    }

    /// Orbits by a drag of `delta` pixels around `centre` (the surface point under
    /// the cursor when the drag began): eye and pivot turn about it, so it stays
    /// where it is on screen.
    pub fn orbit_about(&mut self, centre: Vec3, delta: Vec2) {
        use pebble_model::glam::Quat;
        let orientation =
            |yaw: f32, pitch: f32| Quat::from_rotation_y(-yaw) * Quat::from_rotation_x(pitch);
        let before = orientation(self.yaw, self.pitch);
        let eye = self.eye();
        self.orbit(delta);
        let turn = orientation(self.yaw, self.pitch) * before.inverse();
        let new_eye = centre + turn * (eye - centre);
        self.pivot = new_eye + self.forward() * self.distance;
    }

    /// Moves the view so the point under `from` (at the pivot's depth) ends under
    /// `to`; `height` is the viewport height in pixels.
    pub fn pan(&mut self, from: Vec2, to: Vec2, height: f32) {
        self.pan_at_depth(from, to, height, self.distance);
    }

    /// How far in front of the eye `p` is, along the view direction.
    pub fn depth_of(&self, p: Vec3) -> f32 {
        (p - self.eye()).dot(self.forward())
    }

    /// [`Self::pan`] for a point `depth` metres in front of the eye (what was
    /// grabbed): it stays under the cursor. In an orthographic view every depth
    /// moves alike.
    pub fn pan_at_depth(&mut self, from: Vec2, to: Vec2, height: f32, depth: f32) {
        let depth = if self.ortho || depth <= 1e-3 {
            self.distance
        } else {
            depth
        };
        let metres_per_pixel =
            2.0 * depth * (self.fov_y_deg.to_radians() * 0.5).tan() / height.max(1.0);
        let forward = self.forward();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward);
        let d = to - from;
        // Screen y grows downwards.
        self.pivot -= (right * d.x - up * d.y) * metres_per_pixel;
    }

    /// Zooms by `notches` wheel steps (positive: closer) of `step` (0.12 = 12 %).
    pub fn zoom(&mut self, notches: f32, step: f32) {
        let factor = (1.0 - step.clamp(0.02, 0.4)).powf(notches);
        self.distance = (self.distance * factor).clamp(0.05, 5_000.0);
    }

    /// Zooms by `notches` steps of `step` towards `anchor` (the surface under the
    /// cursor): the eye moves along its line to the anchor, so the anchor stays
    /// where it is on screen; the view direction does not change.
    ///
    /// Afterwards the pivot sits at the anchor's depth, so the next zoom, orbit or
    /// pan works about what the cursor pointed at, not about a point in mid-air.
    pub fn zoom_towards(&mut self, anchor: Vec3, notches: f32, step: f32) {
        let factor = (1.0 - step.clamp(0.02, 0.4)).powf(notches);
        let distance = (self.distance * factor).clamp(0.05, 5_000.0);
        let f = distance / self.distance;
        let eye = anchor + (self.eye() - anchor) * f;
        let forward = self.forward();
        let depth = (anchor - eye).dot(forward);
        self.distance = if self.ortho || depth < 0.05 {
            distance
        } else {
            depth.min(5_000.0)
        };
        self.pivot = eye + forward * self.distance;
    }

    /// Turns the view in place (fly look): the eye stays, the pivot moves with the
    /// direction of view.
    pub fn look(&mut self, delta: Vec2) {
        let eye = self.eye();
        self.yaw += delta.x * ORBIT_SPEED;
        self.pitch = (self.pitch - delta.y * ORBIT_SPEED).clamp(-PITCH_LIMIT, PITCH_LIMIT);
        self.pivot = eye + self.forward() * self.distance;
    }

    /// Moves eye and pivot together by `local` metres along (right, up, forward).
    pub fn fly(&mut self, local: Vec3) {
        let forward = self.forward();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        self.pivot += right * local.x + Vec3::Y * local.y + forward * local.z;
    }

    /// Puts the box `lo..hi` in view, keeping the direction of view: far enough
    /// for its bounding sphere from any side (a start, before the view's shape
    /// is known).
    pub fn frame(&mut self, lo: Vec3, hi: Vec3) {
        let radius = ((hi - lo).length() * 0.5).max(0.25);
        self.pivot = (lo + hi) * 0.5;
        self.distance = radius / (self.fov_y_deg.to_radians() * 0.5).sin().max(0.05) * 1.1;
    }

    /// Puts the box `lo..hi` in view as large as it goes in a view of `aspect`
    /// (width / height), keeping the direction of view: every corner inside
    /// [`FRAME_FILL`] of the picture, one of them at its edge. The bounding
    /// sphere left an edge-on 20 m wall a sliver in the middle of the view.
    pub fn frame_fit(&mut self, lo: Vec3, hi: Vec3, aspect: f32) {
        self.frame(lo, hi);
        let aspect = if aspect.is_finite() && aspect > 0.01 {
            aspect
        } else {
            16.0 / 9.0
        };
        let corners: Vec<Vec3> = (0..8)
            .map(|k| {
                Vec3::new(
                    if k & 1 == 0 { lo.x } else { hi.x },
                    if k & 2 == 0 { lo.y } else { hi.y },
                    if k & 4 == 0 { lo.z } else { hi.z },
                )
            })
            .collect();
        let fits = |o: &OrbitCamera| {
            let camera = o.camera();
            let clip_from_world = camera.clip_from_world(aspect);
            corners.iter().all(|c| {
                let clip = clip_from_world * c.extend(1.0);
                if clip.w <= camera.near.max(1e-4) && camera.ortho_height <= 0.0 {
                    return false;
                }
                let ndc = clip.truncate() / clip.w;
                ndc.x.abs() <= FRAME_FILL && ndc.y.abs() <= FRAME_FILL
            })
        };
        // The sphere's distance always fits; the least that still does is found
        // by halving the interval (the picture grows as the eye nears).
        let (mut near, mut far) = (0.05f32, self.distance.max(0.05));
        if !fits(self) {
            return;
        }
        for _ in 0..40 {
            let mid = (near + far) * 0.5;
            let trial = OrbitCamera {
                distance: mid,
                ..*self
            };
            if fits(&trial) {
                far = mid;
            } else {
                near = mid;
            }
        }
        self.distance = far;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_schemes_follow_the_table() {
        use DragAction::*;
        let schemes =
            pebble_core::presets::Presets::load(&std::env::temp_dir().join("pebble-none"))
                .navigation;
        let scheme = |name: &str| {
            schemes
                .iter()
                .find(|l| l.preset.name == name)
                .map(|l| l.preset.clone())
                .unwrap_or_else(|| panic!("no {name}"))
        };
        let a = |p: &Scheme, b, shift, ctrl, alt| drag_action(p, b, shift, ctrl, alt);
        for listed in &schemes {
            let p = &listed.preset;
            let n = &p.name;
            assert_eq!(
                a(p, Button::Middle, false, true, false),
                Some(Zoom),
                "{n} ctrl+middle"
            );
            assert_eq!(
                a(p, Button::Left, false, false, true),
                Some(Orbit),
                "{n} alt+left"
            );
            assert_eq!(
                a(p, Button::Left, false, false, false),
                None,
                "{n} left is the editor's"
            );
            assert_eq!(a(p, Button::Right, false, false, false), Some(FlyLook));
            assert_eq!(a(p, Button::Right, false, false, true), Some(Zoom));
        }
        let middle = |name: &str| {
            let s = scheme(name);
            (
                a(&s, Button::Middle, false, false, false),
                a(&s, Button::Middle, true, false, false),
            )
        };
        assert_eq!(middle("Fusion 360"), (Some(Pan), Some(Orbit)));
        assert_eq!(middle("Blender"), (Some(Orbit), Some(Pan)));
        assert_eq!(middle("Unity / Unreal"), (Some(Pan), Some(Pan)));
        assert_eq!(
            Scheme {
                about: String::new(),
                ..scheme("Fusion 360")
            },
            Scheme::default(),
            "the default is the bundled Fusion 360"
        );
    }

    #[test]
    fn zooming_towards_a_point_keeps_it_under_the_cursor() {
        let mut c = OrbitCamera::default();
        let anchor = Vec3::new(3.0, 0.5, -4.0);
        let project = |c: &OrbitCamera| {
            let clip = c.camera().clip_from_world(16.0 / 9.0) * anchor.extend(1.0);
            clip.truncate().truncate() / clip.w
        };
        let before = project(&c);
        let (eye0, yaw) = (c.eye(), c.yaw);
        c.zoom_towards(anchor, 2.0, 0.12);
        // The eye went 12 % of the way to the anchor, twice.
        let left = (c.eye() - anchor).length() / (eye0 - anchor).length();
        assert!((left - 0.88f32.powi(2)).abs() < 1e-4, "{left}");
        assert!(
            (project(&c) - before).length() < 1e-4,
            "{} vs {before}",
            project(&c)
        );
        assert_eq!(c.yaw, yaw);
        // The pivot now sits at the anchor's depth: the next orbit or zoom works
        // about what was under the cursor.
        assert!((c.distance - c.depth_of(anchor)).abs() < 1e-4);
        c.zoom_towards(anchor, -2.0, 0.12);
        assert!((c.eye() - eye0).length() < 1e-3, "back where it was");
    }

    #[test]
    fn the_view_cube_faces_look_where_they_say() {
        let mut c = OrbitCamera::default();
        for (face, dir) in [
            (Face::Front, Vec3::NEG_Z),
            (Face::Back, Vec3::Z),
            (Face::Left, Vec3::X),
            (Face::Right, Vec3::NEG_X),
            (Face::Top, Vec3::NEG_Y),
            (Face::Bottom, Vec3::Y),
        ] {
            c.look_at_face(face);
            assert!(c.forward().dot(dir) > 0.999, "{face:?}: {}", c.forward());
        }
    }

    #[test]
    fn orthographic_views_keep_the_picture_size_and_orbit_returns_to_perspective() {
        let mut o = OrbitCamera::default();
        let h = o.view_height();
        o.ortho_from(Face::Top);
        assert!(o.ortho && o.forward().dot(Vec3::NEG_Y) > 0.999);
        let c = o.camera();
        assert!((c.ortho_height - h).abs() < 1e-4);
        // A metre at the pivot spans as many pixels at any depth.
        let span = |y: f32| {
            let m = c.clip_from_world(1.0);
            let a = m * (o.pivot + Vec3::new(0.0, y, 0.0)).extend(1.0);
            let b = m * (o.pivot + Vec3::new(1.0, y, 0.0)).extend(1.0);
            (b.x / b.w - a.x / a.w).abs()
        };
        assert!((span(0.0) - span(-30.0)).abs() < 1e-5 && (span(0.0) - 2.0 / h).abs() < 1e-4);
        // Something well above the pivot (between it and the viewer) is not cut.
        let above = c.clip_from_world(1.0) * (o.pivot + Vec3::Y * o.distance * 3.0).extend(1.0);
        assert!((0.0..=1.0).contains(&(above.z / above.w)));
        // Pan keeps the grabbed point under the cursor in orthographic too.
        let grab = o.pivot + Vec3::new(1.5, 0.0, -0.5);
        let from = project(&o, grab, 800.0, 600.0);
        let to = from + Vec2::new(60.0, 25.0);
        o.pan(from, to, 600.0);
        assert!((project(&o, grab, 800.0, 600.0) - to).length() < 0.05);
        o.orbit(Vec2::new(10.0, 0.0));
        assert!(!o.ortho, "orbiting returns to perspective");
    }

    #[test]
    fn the_zoom_anchor_is_the_surface_when_near_enough_else_the_pivot_depth() {
        let o = OrbitCamera::default();
        let eye = o.eye();
        let dir = (o.pivot + Vec3::new(1.0, 0.5, 0.0) - eye).normalize();
        let ray = (eye, dir);
        let near_surface = eye + dir * 5.0;
        assert_eq!(o.zoom_anchor(Some(near_surface), ray), near_surface);
        // Beyond 3× the pivot's depth (the sky far behind), and behind the eye: the
        // point on the ray at the pivot's depth.
        for bad in [Some(eye + dir * 100.0), Some(eye - dir * 2.0), None] {
            let a = o.zoom_anchor(bad, ray);
            assert!(
                ((a - eye).dot(o.forward()) - o.distance).abs() < 1e-3,
                "{a}"
            );
            assert!(
                (a - eye).normalize().dot(dir) > 0.9999,
                "on the cursor's ray"
            );
        }
    }

    #[test]
    fn orbiting_about_a_point_keeps_it_still_on_screen() {
        let mut o = OrbitCamera::default();
        let centre = Vec3::new(2.5, 0.3, -3.0);
        let before = project(&o, centre, 800.0, 600.0);
        for d in [
            Vec2::new(40.0, 0.0),
            Vec2::new(-15.0, 25.0),
            Vec2::new(0.0, -60.0),
        ] {
            o.orbit_about(centre, d);
            let at = project(&o, centre, 800.0, 600.0);
            assert!((at - before).length() < 0.05, "{at} vs {before}");
        }
        assert!(o.yaw != 0.0 && o.pitch != -0.35, "it turned");
    }

    #[test]
    fn transitions_take_the_short_way_and_end_exactly() {
        let a = OrbitCamera {
            yaw: 3.0,
            ..OrbitCamera::default()
        };
        let b = OrbitCamera {
            yaw: -3.0,
            distance: 48.0,
            pivot: Vec3::new(4.0, 0.0, 0.0),
            ..OrbitCamera::default()
        };
        let mid = a.lerp(&b, 0.5);
        // 3 → −3 rad is 0.28 rad the short way, through π.
        assert!((mid.yaw - (3.0 + (std::f32::consts::TAU - 6.0) * 0.5)).abs() < 1e-4);
        assert!((mid.distance - 30.0).abs() < 1e-3, "{}", mid.distance);
        assert!(a.lerp(&b, 1.0).close_to(&b));
        assert!(!a.lerp(&b, 0.9).close_to(&b));
    }

    #[test]
    fn fly_look_turns_in_place_and_fly_moves_along_the_view() {
        let mut c = OrbitCamera::default();
        let eye = c.eye();
        c.look(Vec2::new(120.0, -40.0));
        assert!((c.eye() - eye).length() < 1e-4, "the eye stays");
        assert!(c.yaw != 0.0);
        let before = c.eye();
        c.fly(Vec3::new(0.0, 0.0, 2.0));
        assert!((c.eye() - (before + c.forward() * 2.0)).length() < 1e-4);
        c.fly(Vec3::new(0.0, 1.0, 0.0));
        assert!((c.eye().y - (before + c.forward() * 2.0).y - 1.0).abs() < 1e-4);
    }

    /// Where a world point lands on a `w × h` screen.
    fn project(o: &OrbitCamera, p: Vec3, w: f32, h: f32) -> Vec2 {
        let clip = o.camera().clip_from_world(w / h) * p.extend(1.0);
        let ndc = clip.truncate() / clip.w;
        Vec2::new((ndc.x * 0.5 + 0.5) * w, (0.5 - ndc.y * 0.5) * h)
    }

    #[test]
    fn orbiting_keeps_the_pivot_and_distance_and_clamps_pitch() {
        let mut o = OrbitCamera::default();
        let pivot = o.pivot;
        o.orbit(Vec2::new(100.0, 0.0));
        assert!((o.yaw - 100.0 * ORBIT_SPEED).abs() < 1e-6);
        assert!((o.eye().distance(pivot) - o.distance).abs() < 1e-4);
        o.orbit(Vec2::new(0.0, 100_000.0));
        assert_eq!(o.pitch, -PITCH_LIMIT);
        o.orbit(Vec2::new(0.0, -100_000.0));
        assert_eq!(o.pitch, PITCH_LIMIT);
        // At the limit the view is still well defined (no flip): the pivot stays
        // in the middle of the screen.
        let centre = project(&o, o.pivot, 800.0, 600.0);
        assert!(
            (centre - Vec2::new(400.0, 300.0)).length() < 0.5,
            "{centre}"
        );
    }

    #[test]
    fn panning_keeps_the_grabbed_point_under_the_cursor() {
        let mut o = OrbitCamera {
            yaw: 0.7,
            pitch: -0.4,
            ..OrbitCamera::default()
        };
        let (w, h) = (800.0, 600.0);
        let grabbed = o.pivot;
        let from = project(&o, grabbed, w, h);
        let to = from + Vec2::new(123.0, -47.0);
        o.pan(from, to, h);
        let now = project(&o, grabbed, w, h);
        assert!((now - to).length() < 0.05, "{now} vs {to}");
    }

    #[test]
    fn zoom_is_a_constant_percentage_per_notch() {
        let mut o = OrbitCamera::default();
        let d = o.distance;
        o.zoom(1.0, ZOOM_STEP);
        assert!((o.distance - d * 0.88).abs() < 1e-4);
        o.zoom(-1.0, ZOOM_STEP);
        assert!(
            (o.distance - d).abs() < 1e-4,
            "a notch out undoes a notch in"
        );
        o.zoom(0.5, ZOOM_STEP);
        assert!(
            o.distance < d && o.distance > d * 0.88,
            "fractional notches are smooth"
        );
    }

    #[test]
    fn framing_shows_every_corner() {
        let mut o = OrbitCamera {
            yaw: -0.5,
            pitch: -0.6,
            ..OrbitCamera::default()
        };
        let (lo, hi) = (Vec3::new(-3.0, 0.0, -7.0), Vec3::new(9.0, 4.0, 2.0));
        o.frame(lo, hi);
        for i in 0..8 {
            let p = Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            );
            let s = project(&o, p, 600.0, 600.0);
            assert!(
                (0.0..=600.0).contains(&s.x) && (0.0..=600.0).contains(&s.y),
                "{p} at {s}"
            );
        }
    }

    /// The report: F on an edge-on 20 m wall barely changed the view. Framed, the
    /// wall fills the picture (a corner at its edge) and none of it is cut.
    #[test]
    fn f_fills_the_view_with_an_edge_on_wall() {
        let (lo, hi) = (Vec3::new(-10.0, 0.0, -0.125), Vec3::new(10.0, 3.0, 0.125));
        let aspect = 16.0 / 9.0;
        // Looking along the wall's length, a little from above.
        let mut o = OrbitCamera {
            yaw: -std::f32::consts::FRAC_PI_2 + 0.05,
            pitch: -0.2,
            ..OrbitCamera::default()
        };
        let extent = |o: &OrbitCamera| {
            let camera = o.camera();
            let m = camera.clip_from_world(aspect);
            (0..8)
                .map(|k| {
                    let c = Vec3::new(
                        if k & 1 == 0 { lo.x } else { hi.x },
                        if k & 2 == 0 { lo.y } else { hi.y },
                        if k & 4 == 0 { lo.z } else { hi.z },
                    );
                    let clip = m * c.extend(1.0);
                    assert!(clip.w > camera.near, "a corner behind the eye");
                    let ndc = clip.truncate() / clip.w;
                    ndc.x.abs().max(ndc.y.abs())
                })
                .fold(0.0f32, f32::max)
        };
        o.frame(lo, hi);
        let sphere = extent(&o);
        o.frame_fit(lo, hi, aspect);
        let fitted = extent(&o);
        assert!(fitted <= FRAME_FILL + 1e-3, "cut: {fitted}");
        assert!(fitted >= FRAME_FILL - 0.01, "fills the view: {fitted}");
        assert!(sphere < 0.6, "the sphere left it small: {sphere}");
        // The same in an orthographic view.
        o.ortho = true;
        o.frame_fit(lo, hi, aspect);
        let ortho = extent(&o);
        assert!(
            (FRAME_FILL - 0.01..=FRAME_FILL + 1e-3).contains(&ortho),
            "{ortho}"
        );
    }
}
