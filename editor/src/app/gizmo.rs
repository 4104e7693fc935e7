//! The translate gizmo's maths, free of UI: handle geometry at a constant screen
//! size, hit tests in screen space (axes, then the screen-plane centre), and the
//! constrained drag (the grabbed point follows the cursor along an axis or in the
//! plane facing the camera), with snapping.

use pebble_model::glam::{Mat4, Vec2, Vec3};
use pebble_render::Camera;

/// Handle length as a fraction of the viewport's half height.
pub const SCREEN_SIZE: f32 = 0.22;
/// Pixels within which a handle counts as hit.
pub const HIT_PIXELS: f32 = 9.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handle {
    Axis(usize),
    /// The centre: moves in the plane facing the camera.
    Screen,
}

/// A view the gizmo is drawn in: camera and viewport size in pixels.
#[derive(Debug, Clone, Copy)]
pub struct View {
    pub camera: Camera,
    pub size: Vec2,
}

impl View {
    fn clip_from_world(&self) -> Mat4 {
        self.camera
            .clip_from_world(self.size.x / self.size.y.max(1.0))
    }

    /// The pixel a world point lands on, or `None` behind the camera.
    pub fn project(&self, p: Vec3) -> Option<Vec2> {
        let c = self.clip_from_world() * p.extend(1.0);
        (c.w > 1e-6).then(|| {
            let ndc = c.truncate() / c.w;
            Vec2::new(
                (ndc.x * 0.5 + 0.5) * self.size.x,
                (0.5 - ndc.y * 0.5) * self.size.y,
            )
        })
    }

    /// The ray (origin, unit direction) under a pixel.
    pub fn ray(&self, pixel: Vec2) -> (Vec3, Vec3) {
        let inv = self.clip_from_world().inverse();
        let ndc = Vec2::new(
            pixel.x / self.size.x * 2.0 - 1.0,
            1.0 - pixel.y / self.size.y * 2.0,
        );
        let near = inv.project_point3(ndc.extend(0.0));
        let far = inv.project_point3(ndc.extend(1.0));
        (near, (far - near).normalize_or(self.camera.forward()))
    }

    /// World length of the handles at `pivot`, so they keep their size on screen.
    pub fn handle_length(&self, pivot: Vec3) -> f32 {
        let depth = (pivot - self.camera.eye)
            .dot(self.camera.forward())
            .max(self.camera.near);
        depth * (self.camera.fov_y_deg.to_radians() * 0.5).tan() * SCREEN_SIZE
    }
}

const AXES: [Vec3; 3] = [Vec3::X, Vec3::Y, Vec3::Z];

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-9)).clamp(0.0, 1.0);
    (a + ab * t).distance(p)
}

/// The handle under `pixel`, if any: the centre first, then the nearest axis.
pub fn hit(view: &View, pivot: Vec3, pixel: Vec2) -> Option<Handle> {
    let centre = view.project(pivot)?;
    if centre.distance(pixel) <= HIT_PIXELS {
        return Some(Handle::Screen);
    }
    let len = view.handle_length(pivot);
    AXES.iter()
        .enumerate()
        .filter_map(|(i, axis)| {
            let tip = view.project(pivot + *axis * len)?;
            let d = distance_to_segment(pixel, centre, tip);
            (d <= HIT_PIXELS).then_some((d, i))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, i)| Handle::Axis(i))
}

/// The parameter along the line `origin + t·axis` closest to a ray.
fn closest_on_axis(origin: Vec3, axis: Vec3, ray: (Vec3, Vec3)) -> Option<f32> {
    let (o, d) = ray;
    let w = origin - o;
    let (a, b, c) = (axis.dot(axis), axis.dot(d), d.dot(d));
    let (dd, e) = (axis.dot(w), d.dot(w));
    let denom = a * c - b * b;
    // A ray along the axis gives no position on it.
    (denom.abs() > 1e-6).then(|| (b * e - c * dd) / denom)
}

/// A drag in progress: where it started and what it holds.
#[derive(Debug, Clone, Copy)]
pub struct Drag {
    pub handle: Handle,
    pub pivot: Vec3,
    /// Where the grabbed point was when the drag started.
    grabbed: Vec3,
}

impl Drag {
    pub fn start(view: &View, pivot: Vec3, handle: Handle, pixel: Vec2) -> Option<Self> {
        let grabbed = point(view, pivot, handle, pixel)?;
        Some(Self {
            handle,
            pivot,
            grabbed,
        })
    }

    /// The translation from the start to the cursor at `pixel`, snapped to `step`
    /// metres along each moved axis when `step` is given.
    pub fn offset(&self, view: &View, pixel: Vec2, step: Option<f32>) -> Vec3 {
        let Some(now) = point(view, self.pivot, self.handle, pixel) else {
            return Vec3::ZERO;
        };
        let mut d = now - self.grabbed;
        if let Some(s) = step.filter(|s| *s > 0.0) {
            d = (d / s).round() * s;
        }
        d
    }
}

/// The point a handle holds under the cursor: on its axis line, or in the plane
/// through the pivot facing the camera.
fn point(view: &View, pivot: Vec3, handle: Handle, pixel: Vec2) -> Option<Vec3> {
    let ray = view.ray(pixel);
    match handle {
        Handle::Axis(i) => closest_on_axis(pivot, AXES[i], ray).map(|t| pivot + AXES[i] * t),
        Handle::Screen => {
            let n = view.camera.forward();
            let denom = ray.1.dot(n);
            (denom.abs() > 1e-6).then(|| ray.0 + ray.1 * ((pivot - ray.0).dot(n) / denom))
        }
    }
}

/// The gizmo's lines for the overlay: (from, to, axis or None for the centre).
pub fn lines(view: &View, pivot: Vec3) -> Vec<(Vec3, Vec3, Option<usize>)> {
    let len = view.handle_length(pivot);
    let mut out: Vec<(Vec3, Vec3, Option<usize>)> = (0..3)
        .map(|i| (pivot, pivot + AXES[i] * len, Some(i)))
        .collect();
    // A small square facing the camera for the screen-plane handle.
    let f = view.camera.forward();
    let r = f.cross(Vec3::Y).normalize_or(Vec3::X) * len * 0.08;
    let u = r.cross(f).normalize_or(Vec3::Y) * len * 0.08;
    let corners = [pivot - r - u, pivot + r - u, pivot + r + u, pivot - r + u];
    for k in 0..4 {
        out.push((corners[k], corners[(k + 1) % 4], None));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> View {
        View {
            camera: Camera {
                eye: Vec3::new(4.0, 3.0, 6.0),
                yaw: -0.55,
                pitch: -0.35,
                fov_y_deg: 60.0,
                near: 0.05,
                far: 500.0,
            },
            size: Vec2::new(1000.0, 700.0),
        }
    }

    #[test]
    fn each_handle_is_hit_where_it_is_drawn() {
        let v = view();
        let pivot = Vec3::new(0.5, 0.0, -1.0);
        let centre = v.project(pivot).expect("in view");
        assert_eq!(hit(&v, pivot, centre), Some(Handle::Screen));
        for (i, axis) in AXES.iter().enumerate() {
            let tip = v
                .project(pivot + *axis * v.handle_length(pivot) * 0.8)
                .expect("in view");
            assert_eq!(hit(&v, pivot, tip), Some(Handle::Axis(i)), "axis {i}");
        }
        assert_eq!(hit(&v, pivot, centre + Vec2::new(300.0, 300.0)), None);
    }

    #[test]
    fn the_handles_keep_their_screen_size() {
        let v = view();
        let near = Vec3::new(3.0, 2.0, 3.0);
        let far = near + v.camera.forward() * 40.0;
        let px = |p: Vec3| {
            let a = v.project(p).expect("visible");
            let b = v
                .project(p + Vec3::Y * v.handle_length(p))
                .expect("visible");
            a.distance(b)
        };
        assert!(
            (px(near) / px(far) - 1.0).abs() < 0.1,
            "{} vs {}",
            px(near),
            px(far)
        );
    }

    #[test]
    fn an_axis_drag_moves_along_the_axis_under_the_cursor() {
        let v = view();
        let pivot = Vec3::ZERO;
        let start = v.project(pivot + Vec3::X * 0.5).expect("visible");
        let drag = Drag::start(&v, pivot, Handle::Axis(0), start).expect("starts");
        // Move the cursor to where a point 1.5 m further along X projects.
        let target = v.project(pivot + Vec3::X * 2.0).expect("visible");
        let d = drag.offset(&v, target, None);
        assert!((d - Vec3::X * 1.5).length() < 1e-3, "{d}");
        // Off the axis on screen, the move stays on the axis.
        let d = drag.offset(&v, target + Vec2::new(0.0, 40.0), None);
        assert!(d.y.abs() < 1e-6 && d.z.abs() < 1e-6, "{d}");
        // Snapping rounds the move to whole steps: 0.87 m becomes 0.75 m.
        let d = drag.offset(
            &v,
            v.project(pivot + Vec3::X * 1.37).expect("visible"),
            Some(0.25),
        );
        assert!((d.x - 0.75).abs() < 1e-5, "{d}");
    }

    #[test]
    fn a_screen_plane_drag_keeps_the_point_under_the_cursor() {
        let v = view();
        let pivot = Vec3::new(1.0, 0.5, -2.0);
        let start = v.project(pivot).expect("visible");
        let drag = Drag::start(&v, pivot, Handle::Screen, start).expect("starts");
        let to = start + Vec2::new(120.0, -45.0);
        let moved = pivot + drag.offset(&v, to, None);
        let at = v.project(moved).expect("visible");
        assert!(at.distance(to) < 0.05, "{at} vs {to}");
    }
}
