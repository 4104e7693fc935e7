//! The transform gizmo's maths, free of UI: translate (axes, planes, a screen-plane
//! centre), rotate (one ring per axis plus a screen ring) and scale (axes and a
//! uniform centre) handles at a constant screen size; hit tests in screen space; the
//! constrained drags (the grabbed point follows the cursor along an axis, in a plane
//! or round a ring, with a screen-angle fallback for rings seen edge-on); snapping;
//! and applying the result to several entities about their common pivot.

use pebble_model::glam::{Affine3A, Quat, Vec2, Vec3};

pub use super::view::View;

/// Handle length as a fraction of the viewport's half height.
pub const SCREEN_SIZE: f32 = 0.22;
/// Pixels within which a handle counts as hit.
pub const HIT_PIXELS: f32 = 9.0;
/// Plane handles span this part of the axes (fractions of the handle length).
const PLANE_SPAN: (f32, f32) = (0.25, 0.45);
/// The screen ring of the rotate gizmo, relative to the axis rings.
const SCREEN_RING: f32 = 1.2;
/// Segments per ring.
const RING_SEGMENTS: usize = 64;
/// Below this |cos| between a ring's axis and the view direction the ring is edge-on
/// and its angle is read on screen instead of in its plane.
const EDGE_ON: f32 = 0.2;
/// Pixels of horizontal drag that double a uniform scale.
const UNIFORM_PIXELS: f32 = 150.0;

/// What the gizmo does (W / E / R).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Translate,
    Rotate,
    Scale,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Self::Translate => "Move",
            Self::Rotate => "Rotate",
            Self::Scale => "Scale",
        }
    }
}

/// Which axes the gizmo uses (Q toggles). Scale always uses the entity's own axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Space {
    #[default]
    World,
    Local,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handle {
    /// Translate or scale along an axis; rotate about it (its ring).
    Axis(usize),
    /// Translate in the plane whose normal is this axis.
    Plane(usize),
    /// Translate in the screen plane, rotate about the view axis, or scale uniformly.
    Centre,
}

impl Handle {
    /// The gizmo axes a move with this handle changes.
    pub fn moved_axes(self) -> [bool; 3] {
        match self {
            Handle::Axis(i) => std::array::from_fn(|k| k == i),
            Handle::Plane(i) => std::array::from_fn(|k| k != i),
            Handle::Centre => [true; 3],
        }
    }
}

/// Grid, angle and scale steps for snapping.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Snap {
    pub step: f32,
    pub angle_deg: f32,
    pub scale_step: f32,
    /// Moves go in whole steps from where the drag began, instead of putting the
    /// gizmo's pivot on the grid.
    pub relative: bool,
}

impl Default for Snap {
    fn default() -> Self {
        Self {
            step: 0.25,
            angle_deg: 15.0,
            scale_step: 0.1,
            relative: false,
        }
    }
}

/// The gizmo on the selection: what it does, where, and its axes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gizmo {
    pub mode: Mode,
    pub pivot: Vec3,
    /// World from gizmo axes (identity in world space).
    pub orientation: Quat,
}

impl Gizmo {
    pub fn axis(&self, i: usize) -> Vec3 {
        self.orientation * [Vec3::X, Vec3::Y, Vec3::Z][i]
    }

    fn ring_point(&self, view: &View, i: usize, angle: f32) -> Vec3 {
        let (a, b) = ((i + 1) % 3, (i + 2) % 3);
        let len = view.handle_length(self.pivot);
        self.pivot + (self.axis(a) * angle.cos() + self.axis(b) * angle.sin()) * len
    }

    /// The screen ring's points (radius `SCREEN_RING` × the handle length).
    fn screen_ring_point(&self, view: &View, angle: f32) -> Vec3 {
        let f = -view.towards_viewer(self.pivot);
        let r = f.cross(Vec3::Y).normalize_or(Vec3::X);
        let u = r.cross(f).normalize_or(Vec3::Y);
        let len = view.handle_length(self.pivot) * SCREEN_RING;
        self.pivot + (r * angle.cos() + u * angle.sin()) * len
    }

    fn plane_corners(&self, view: &View, i: usize) -> [Vec3; 4] {
        let len = view.handle_length(self.pivot);
        let (a, b) = (self.axis((i + 1) % 3), self.axis((i + 2) % 3));
        let (lo, hi) = (PLANE_SPAN.0 * len, PLANE_SPAN.1 * len);
        let p = self.pivot;
        [
            p + a * lo + b * lo,
            p + a * hi + b * lo,
            p + a * hi + b * hi,
            p + a * lo + b * hi,
        ]
    }
}

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-9)).clamp(0.0, 1.0);
    (a + ab * t).distance(p)
}

/// Whether `p` lies inside the convex quad `q` (either winding).
pub(super) fn inside_quad(p: Vec2, q: [Vec2; 4]) -> bool {
    let s: [f32; 4] = std::array::from_fn(|k| (q[(k + 1) % 4] - q[k]).perp_dot(p - q[k]));
    s.iter().all(|v| *v >= 0.0) || s.iter().all(|v| *v <= 0.0)
}

/// The distance on screen from `pixel` to a closed ring of world points.
fn distance_to_ring(view: &View, pixel: Vec2, point: impl Fn(f32) -> Vec3) -> Option<f32> {
    let pts: Vec<Vec2> = (0..=RING_SEGMENTS)
        .map(|k| point(k as f32 / RING_SEGMENTS as f32 * std::f32::consts::TAU))
        .map(|p| view.project(p))
        .collect::<Option<_>>()?;
    pts.windows(2)
        .map(|w| distance_to_segment(pixel, w[0], w[1]))
        .min_by(f32::total_cmp)
}

/// The handle under `pixel`, if any. Translate: the centre, then planes, then the
/// nearest axis; rotate: the nearest ring (front halves win), then the screen
/// ring; scale: the centre, then the nearest axis.
pub fn hit(view: &View, gizmo: &Gizmo, pixel: Vec2) -> Option<Handle> {
    let centre = view.project(gizmo.pivot)?;
    let len = view.handle_length(gizmo.pivot);
    let nearest_axis = || {
        (0..3)
            .filter_map(|i| {
                let tip = view.project(gizmo.pivot + gizmo.axis(i) * len)?;
                let d = distance_to_segment(pixel, centre, tip);
                (d <= HIT_PIXELS).then_some((d, i))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, i)| Handle::Axis(i))
    };
    match gizmo.mode {
        Mode::Translate | Mode::Scale => {
            let centre_size = if gizmo.mode == Mode::Scale { 1.5 } else { 1.0 };
            if centre.distance(pixel) <= HIT_PIXELS * centre_size {
                return Some(Handle::Centre);
            }
            if gizmo.mode == Mode::Translate {
                for i in 0..3 {
                    let corners = gizmo.plane_corners(view, i).map(|c| view.project(c));
                    if let [Some(a), Some(b), Some(c), Some(d)] = corners
                        && inside_quad(pixel, [a, b, c, d])
                    {
                        return Some(Handle::Plane(i));
                    }
                }
            }
            nearest_axis()
        }
        Mode::Rotate => {
            let toward = view.towards_viewer(gizmo.pivot);
            let ring = (0..3)
                .filter_map(|i| {
                    // Only the half facing the viewer can be grabbed, unless the
                    // ring is edge-on (then both halves lie on one line).
                    let d = distance_to_ring(view, pixel, |t| {
                        let p = gizmo.ring_point(view, i, t);
                        let front = (p - gizmo.pivot).dot(toward) >= -0.05 * len
                            || gizmo.axis(i).dot(toward).abs() < EDGE_ON;
                        if front { p } else { gizmo.pivot }
                    })?;
                    (d <= HIT_PIXELS).then_some((d, i))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, i)| Handle::Axis(i));
            ring.or_else(|| {
                let d = distance_to_ring(view, pixel, |t| gizmo.screen_ring_point(view, t))?;
                (d <= HIT_PIXELS).then_some(Handle::Centre)
            })
        }
    }
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

fn ray_plane(ray: (Vec3, Vec3), origin: Vec3, normal: Vec3) -> Option<Vec3> {
    let denom = ray.1.dot(normal);
    (denom.abs() > 1e-6).then(|| ray.0 + ray.1 * ((origin - ray.0).dot(normal) / denom))
}

/// What a drag does to the selection, relative to where it started.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// A world-space offset.
    Translate(Vec3),
    /// A world-space rotation about the pivot.
    Rotate(Quat),
    /// Factors along the gizmo's axes.
    Scale(Vec3),
}

impl Change {
    pub fn is_identity(&self) -> bool {
        match self {
            Self::Translate(d) => *d == Vec3::ZERO,
            Self::Rotate(q) => *q == Quat::IDENTITY,
            Self::Scale(f) => *f == Vec3::ONE,
        }
    }
}

/// A drag in progress: the gizmo as it was, the handle, and what was grabbed.
#[derive(Debug, Clone, Copy)]
pub struct Drag {
    pub gizmo: Gizmo,
    pub handle: Handle,
    /// The grabbed point (translate, rotate in-plane, scale along an axis).
    grabbed: Vec3,
    /// The pixel where the drag started (screen-angle rotation, uniform scale).
    start_pixel: Vec2,
    /// Whether this rotation reads its angle on screen (the ring was edge-on).
    screen_angle: bool,
}

impl Drag {
    pub fn start(view: &View, gizmo: Gizmo, handle: Handle, pixel: Vec2) -> Option<Self> {
        let screen_angle = gizmo.mode == Mode::Rotate
            && match handle {
                Handle::Axis(i) => {
                    gizmo.axis(i).dot(view.towards_viewer(gizmo.pivot)).abs() < EDGE_ON
                }
                _ => true,
            };
        let grabbed = if screen_angle || (gizmo.mode == Mode::Scale && handle == Handle::Centre) {
            gizmo.pivot
        } else {
            point(view, &gizmo, handle, pixel)?
        };
        Some(Self {
            gizmo,
            handle,
            grabbed,
            start_pixel: pixel,
            screen_angle,
        })
    }

    /// The change from the start to the cursor at `pixel`, snapped when `snap` is
    /// given (moves in whole grid steps along each moved axis, angles in whole
    /// angle steps, factors in whole scale steps).
    pub fn change(&self, view: &View, pixel: Vec2, snap: Option<Snap>) -> Change {
        let g = &self.gizmo;
        match g.mode {
            Mode::Translate => {
                let Some(now) = point(view, g, self.handle, pixel) else {
                    return Change::Translate(Vec3::ZERO);
                };
                let mut d = now - self.grabbed;
                if let Some(s) = snap.filter(|s| s.step > 0.0) {
                    let local = g.orientation.inverse() * d;
                    let snapped = if s.relative {
                        // Whole steps from where the drag began.
                        (local / s.step).round() * s.step
                    } else {
                        // The pivot onto the grid, along the axes this handle moves
                        // (the others keep their values, on the grid or not).
                        let from = g.orientation.inverse() * g.pivot;
                        let moved = self.handle.moved_axes();
                        Vec3::from_array(std::array::from_fn(|k| {
                            if moved[k] {
                                ((from[k] + local[k]) / s.step).round() * s.step - from[k]
                            } else {
                                0.0
                            }
                        }))
                    };
                    d = g.orientation * snapped;
                }
                Change::Translate(d)
            }
            Mode::Rotate => {
                let axis = match self.handle {
                    Handle::Axis(i) => g.axis(i),
                    _ => -view.towards_viewer(g.pivot),
                };
                let mut angle = if self.screen_angle {
                    screen_angle(view, g.pivot, axis, self.start_pixel, pixel)
                } else {
                    match point(view, g, self.handle, pixel) {
                        Some(now) => {
                            let (a, b) = (self.grabbed - g.pivot, now - g.pivot);
                            axis.dot(a.cross(b)).atan2(a.dot(b))
                        }
                        None => 0.0,
                    }
                };
                if let Some(s) = snap.filter(|s| s.angle_deg > 0.0) {
                    let step = s.angle_deg.to_radians();
                    angle = (angle / step).round() * step;
                }
                if angle == 0.0 {
                    Change::Rotate(Quat::IDENTITY)
                } else {
                    Change::Rotate(Quat::from_axis_angle(axis, angle))
                }
            }
            Mode::Scale => {
                let mut f = match self.handle {
                    Handle::Axis(i) => {
                        let axis = g.axis(i);
                        let ray = view.ray(pixel);
                        let start = (self.grabbed - g.pivot).dot(axis);
                        let now = closest_on_axis(g.pivot, axis, ray);
                        let k = match now {
                            Some(t) if start.abs() > 1e-6 => t / start,
                            _ => 1.0,
                        };
                        let mut f = Vec3::ONE;
                        f[i] = k;
                        f
                    }
                    _ => {
                        let d = pixel - self.start_pixel;
                        Vec3::splat(2f32.powf((d.x - d.y) / UNIFORM_PIXELS))
                    }
                };
                if let Some(s) = snap.filter(|s| s.scale_step > 0.0) {
                    f = (f / s.scale_step).round() * s.scale_step;
                }
                // A factor of zero or below would collapse or mirror the entity.
                Change::Scale(f.max(Vec3::splat(0.01)))
            }
        }
    }
}

/// The signed angle the cursor turned about the pivot on screen, as a rotation
/// about `axis` (positive when the axis points at the viewer and the turn is
/// counter-clockwise on screen).
fn screen_angle(view: &View, pivot: Vec3, axis: Vec3, from: Vec2, to: Vec2) -> f32 {
    let Some(c) = view.project(pivot) else {
        return 0.0;
    };
    // Screen y grows downwards: flip it for counter-clockwise angles.
    let angle = |p: Vec2| (c.y - p.y).atan2(p.x - c.x);
    let mut d = angle(to) - angle(from);
    if d > std::f32::consts::PI {
        d -= std::f32::consts::TAU;
    } else if d < -std::f32::consts::PI {
        d += std::f32::consts::TAU;
    }
    if axis.dot(view.towards_viewer(pivot)) >= 0.0 {
        d
    } else {
        -d
    }
}

/// The point a handle holds under the cursor: on its axis line, in its plane, in the
/// plane through the pivot facing the camera, or in its ring's plane.
fn point(view: &View, gizmo: &Gizmo, handle: Handle, pixel: Vec2) -> Option<Vec3> {
    let ray = view.ray(pixel);
    let pivot = gizmo.pivot;
    match (gizmo.mode, handle) {
        (Mode::Rotate, Handle::Axis(i)) | (Mode::Translate, Handle::Plane(i)) => {
            ray_plane(ray, pivot, gizmo.axis(i))
        }
        (_, Handle::Axis(i)) => {
            let axis = gizmo.axis(i);
            closest_on_axis(pivot, axis, ray).map(|t| pivot + axis * t)
        }
        _ => ray_plane(ray, pivot, view.towards_viewer(pivot)),
    }
}

/// Applies a change to an entity's world transform: translations move it, rotations
/// turn it and its position about the pivot, scale factors multiply its own scale
/// and spread positions about the pivot along the gizmo's axes.
pub fn apply(change: &Change, gizmo: &Gizmo, world: Affine3A) -> Affine3A {
    let p = gizmo.pivot;
    match change {
        Change::Translate(d) => Affine3A::from_translation(*d) * world,
        Change::Rotate(q) => {
            Affine3A::from_translation(p)
                * Affine3A::from_quat(*q)
                * Affine3A::from_translation(-p)
                * world
        }
        Change::Scale(f) => {
            let (s, r, t) = world.to_scale_rotation_translation();
            let g = gizmo.orientation;
            let t = p + g * (*f * (g.inverse() * (t - p)));
            Affine3A::from_scale_rotation_translation(s * *f, r, t)
        }
    }
}

/// A gizmo line for the overlay: its ends, the handle it belongs to, and whether it
/// is on the far side of a ring (drawn faded).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    pub from: Vec3,
    pub to: Vec3,
    pub handle: Handle,
    pub axis: Option<usize>,
    pub back: bool,
}

/// The gizmo's lines for the overlay.
pub fn lines(view: &View, gizmo: &Gizmo) -> Vec<Line> {
    let len = view.handle_length(gizmo.pivot);
    let p = gizmo.pivot;
    let mut out = Vec::new();
    let mut push = |from, to, handle, axis, back| {
        out.push(Line {
            from,
            to,
            handle,
            axis,
            back,
        })
    };
    let toward = view.towards_viewer(p);
    let f = -toward;
    let r = f.cross(Vec3::Y).normalize_or(Vec3::X);
    let u = r.cross(f).normalize_or(Vec3::Y);
    match gizmo.mode {
        Mode::Translate | Mode::Scale => {
            for i in 0..3 {
                let axis = gizmo.axis(i);
                let tip = p + axis * len;
                push(p, tip, Handle::Axis(i), Some(i), false);
                if gizmo.mode == Mode::Translate {
                    // An arrow head: four lines back from the tip.
                    let side = axis.any_orthonormal_vector();
                    let other = axis.cross(side);
                    for s in [side, -side, other, -other] {
                        push(
                            tip,
                            tip - axis * len * 0.12 + s * len * 0.04,
                            Handle::Axis(i),
                            Some(i),
                            false,
                        );
                    }
                    let c = gizmo.plane_corners(view, i);
                    for k in 0..4 {
                        push(c[k], c[(k + 1) % 4], Handle::Plane(i), Some(i), false);
                    }
                } else {
                    // A small square across the tip.
                    let a = gizmo.axis((i + 1) % 3) * len * 0.05;
                    let b = gizmo.axis((i + 2) % 3) * len * 0.05;
                    let c = [tip - a - b, tip + a - b, tip + a + b, tip - a + b];
                    for k in 0..4 {
                        push(c[k], c[(k + 1) % 4], Handle::Axis(i), Some(i), false);
                    }
                }
            }
            let s = if gizmo.mode == Mode::Scale { 0.1 } else { 0.08 };
            let c = [
                p - r * len * s - u * len * s,
                p + r * len * s - u * len * s,
                p + r * len * s + u * len * s,
                p - r * len * s + u * len * s,
            ];
            for k in 0..4 {
                push(c[k], c[(k + 1) % 4], Handle::Centre, None, false);
            }
        }
        Mode::Rotate => {
            for i in 0..3 {
                for k in 0..RING_SEGMENTS {
                    let t0 = k as f32 / RING_SEGMENTS as f32 * std::f32::consts::TAU;
                    let t1 = (k + 1) as f32 / RING_SEGMENTS as f32 * std::f32::consts::TAU;
                    let (a, b) = (gizmo.ring_point(view, i, t0), gizmo.ring_point(view, i, t1));
                    let back = ((a + b) * 0.5 - p).dot(toward) < -0.05 * len;
                    push(a, b, Handle::Axis(i), Some(i), back);
                }
            }
            for k in 0..RING_SEGMENTS {
                let t0 = k as f32 / RING_SEGMENTS as f32 * std::f32::consts::TAU;
                let t1 = (k + 1) as f32 / RING_SEGMENTS as f32 * std::f32::consts::TAU;
                push(
                    gizmo.screen_ring_point(view, t0),
                    gizmo.screen_ring_point(view, t1),
                    Handle::Centre,
                    None,
                    false,
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pebble_render::Camera;

    fn view() -> View {
        View {
            camera: Camera {
                eye: Vec3::new(4.0, 3.0, 6.0),
                yaw: -0.55,
                pitch: -0.35,
                fov_y_deg: 60.0,
                near: 0.05,
                far: 500.0,
                ortho_height: 0.0,
            },
            size: Vec2::new(1000.0, 700.0),
        }
    }

    fn gizmo(mode: Mode, pivot: Vec3) -> Gizmo {
        Gizmo {
            mode,
            pivot,
            orientation: Quat::IDENTITY,
        }
    }

    #[test]
    fn each_handle_is_hit_where_it_is_drawn() {
        let v = view();
        let g = gizmo(Mode::Translate, Vec3::new(0.5, 0.0, -1.0));
        let centre = v.project(g.pivot).expect("in view");
        assert_eq!(hit(&v, &g, centre), Some(Handle::Centre));
        let len = v.handle_length(g.pivot);
        for i in 0..3 {
            let tip = v.project(g.pivot + g.axis(i) * len * 0.8).expect("in view");
            assert_eq!(hit(&v, &g, tip), Some(Handle::Axis(i)), "axis {i}");
            let (a, b) = (g.axis((i + 1) % 3), g.axis((i + 2) % 3));
            let mid = v.project(g.pivot + (a + b) * len * 0.35).expect("in view");
            assert_eq!(hit(&v, &g, mid), Some(Handle::Plane(i)), "plane {i}");
        }
        assert_eq!(hit(&v, &g, centre + Vec2::new(300.0, 300.0)), None);
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
        let g = gizmo(Mode::Translate, Vec3::ZERO);
        let start = v.project(Vec3::X * 0.5).expect("visible");
        let drag = Drag::start(&v, g, Handle::Axis(0), start).expect("starts");
        // Move the cursor to where a point 1.5 m further along X projects.
        let target = v.project(Vec3::X * 2.0).expect("visible");
        let Change::Translate(d) = drag.change(&v, target, None) else {
            panic!("a move")
        };
        assert!((d - Vec3::X * 1.5).length() < 1e-3, "{d}");
        // Off the axis on screen, the move stays on the axis.
        let Change::Translate(d) = drag.change(&v, target + Vec2::new(0.0, 40.0), None) else {
            panic!("a move")
        };
        assert!(d.y.abs() < 1e-6 && d.z.abs() < 1e-6, "{d}");
        // Snapping rounds the move to whole steps: 0.87 m becomes 0.75 m.
        let snapped = drag.change(
            &v,
            v.project(Vec3::X * 1.37).expect("visible"),
            Some(Snap::default()),
        );
        let Change::Translate(d) = snapped else {
            panic!("a move")
        };
        assert!((d.x - 0.75).abs() < 1e-5, "{d}");
    }

    #[test]
    fn grid_snapping_puts_the_pivot_on_the_grid_and_relative_snapping_keeps_the_offset() {
        let v = view();
        let pivot = Vec3::new(1.62, 0.3, 0.0);
        let g = gizmo(Mode::Translate, pivot);
        let start = v.project(pivot + Vec3::X * 0.5).expect("visible");
        let drag = Drag::start(&v, g, Handle::Axis(0), start).expect("starts");
        // The cursor where the grabbed point would be 1.1 m further along X.
        let to = v.project(pivot + Vec3::X * 1.6).expect("visible");
        let step = Snap {
            step: 1.0,
            ..Snap::default()
        };
        let moved = |snap: Snap| match drag.change(&v, to, Some(snap)) {
            Change::Translate(d) => pivot + d,
            other => panic!("{other:?}"),
        };
        let absolute = moved(step);
        assert!((absolute.x - 3.0).abs() < 1e-4, "on the grid: {absolute}");
        assert_eq!((absolute.y, absolute.z), (0.3, 0.0), "the other axes stay");
        let relative = moved(Snap {
            relative: true,
            ..step
        });
        assert!(
            (relative.x - 2.62).abs() < 1e-4,
            "a whole step on: {relative}"
        );
        // A plane handle snaps both of its axes, the normal's stays.
        let drag = Drag::start(
            &v,
            g,
            Handle::Plane(1),
            v.project(pivot + Vec3::new(0.3, 0.0, 0.3))
                .expect("visible"),
        )
        .expect("starts");
        let to = v
            .project(pivot + Vec3::new(0.9, 0.0, 0.8))
            .expect("visible");
        let Change::Translate(d) = drag.change(&v, to, Some(step)) else {
            panic!("a move")
        };
        let p = pivot + d;
        assert!(
            (p.x - 2.0).abs() < 1e-3 && p.z.abs() < 1e-3 && (p.y - 0.3).abs() < 1e-5,
            "{p}"
        );
    }

    #[test]
    fn local_axes_follow_the_entity() {
        let v = view();
        let turn = Quat::from_rotation_y(0.5);
        let g = Gizmo {
            orientation: turn,
            ..gizmo(Mode::Translate, Vec3::ZERO)
        };
        let x = turn * Vec3::X;
        let start = v.project(x * 0.5).expect("visible");
        let drag = Drag::start(&v, g, Handle::Axis(0), start).expect("starts");
        let Change::Translate(d) = drag.change(&v, v.project(x * 1.5).expect("visible"), None)
        else {
            panic!("a move")
        };
        assert!((d - x).length() < 1e-3, "{d} vs {x}");
    }

    #[test]
    fn plane_and_screen_drags_keep_the_point_under_the_cursor() {
        let v = view();
        let g = gizmo(Mode::Translate, Vec3::new(1.0, 0.5, -2.0));
        let start = v.project(g.pivot).expect("visible");
        let drag = Drag::start(&v, g, Handle::Centre, start).expect("starts");
        let to = start + Vec2::new(120.0, -45.0);
        let Change::Translate(d) = drag.change(&v, to, None) else {
            panic!("a move")
        };
        let at = v.project(g.pivot + d).expect("visible");
        assert!(at.distance(to) < 0.05, "{at} vs {to}");
        // The ground plane (normal Y): the move has no Y and tracks the cursor.
        let len = v.handle_length(g.pivot);
        let grab = g.pivot + (Vec3::X + Vec3::Z) * len * 0.35;
        let drag = Drag::start(&v, g, Handle::Plane(1), v.project(grab).expect("visible"))
            .expect("starts");
        let to = v
            .project(grab + Vec3::new(0.7, 0.0, -0.4))
            .expect("visible");
        let Change::Translate(d) = drag.change(&v, to, None) else {
            panic!("a move")
        };
        assert!((d - Vec3::new(0.7, 0.0, -0.4)).length() < 1e-3, "{d}");
    }

    #[test]
    fn a_ring_drag_turns_by_the_angle_swept_and_snaps() {
        let v = view();
        let g = gizmo(Mode::Rotate, Vec3::ZERO);
        // The Y ring faces this camera well (it looks down at 20°... and the ring's
        // front half is grabbed at angle 1.2 rad, where it is nearest the viewer).
        let grab = g.ring_point(&v, 1, 1.2);
        let px = v.project(grab).expect("visible");
        assert_eq!(hit(&v, &g, px), Some(Handle::Axis(1)));
        let drag = Drag::start(&v, g, Handle::Axis(1), px).expect("starts");
        assert!(!drag.screen_angle);
        let to = v.project(g.ring_point(&v, 1, 1.2 + 0.5)).expect("visible");
        let Change::Rotate(q) = drag.change(&v, to, None) else {
            panic!("a turn")
        };
        let (axis, angle) = q.to_axis_angle();
        assert!(
            (angle - 0.5).abs() < 1e-3 && (axis - Vec3::Y).length() < 1e-3,
            "{axis} {angle}"
        );
        // 0.5 rad = 28.6° snaps to 30°.
        let Change::Rotate(q) = drag.change(&v, to, Some(Snap::default())) else {
            panic!("a turn")
        };
        assert!((q.to_axis_angle().1 - 30f32.to_radians()).abs() < 1e-4);
    }

    #[test]
    fn an_edge_on_ring_falls_back_to_the_screen_angle() {
        // Looking straight along −Z: the X ring (in the YZ plane) is edge-on.
        let v = View {
            camera: Camera {
                eye: Vec3::new(0.0, 0.0, 5.0),
                yaw: 0.0,
                pitch: 0.0,
                fov_y_deg: 60.0,
                near: 0.05,
                far: 100.0,
                ortho_height: 0.0,
            },
            size: Vec2::new(800.0, 800.0),
        };
        let g = gizmo(Mode::Rotate, Vec3::ZERO);
        let top = v.project(g.ring_point(&v, 0, 0.0)).expect("visible");
        assert_eq!(hit(&v, &g, top), Some(Handle::Axis(0)));
        let drag = Drag::start(&v, g, Handle::Axis(0), top).expect("starts");
        assert!(drag.screen_angle);
        // A quarter turn clockwise on screen about the centre.
        let c = v.project(g.pivot).expect("visible");
        let right = c + Vec2::new((top - c).length(), 0.0);
        let Change::Rotate(q) = drag.change(&v, right, None) else {
            panic!("a turn")
        };
        let angle = q.to_axis_angle().1;
        assert!(
            (angle - std::f32::consts::FRAC_PI_2).abs() < 1e-3,
            "{angle}"
        );
        assert!(q.is_finite());
    }

    #[test]
    fn scale_along_an_axis_follows_the_cursor_and_uniform_follows_the_drag() {
        let v = view();
        let g = gizmo(Mode::Scale, Vec3::ZERO);
        let len = v.handle_length(g.pivot);
        let grab = v.project(Vec3::X * len * 0.9).expect("visible");
        assert_eq!(hit(&v, &g, grab), Some(Handle::Axis(0)));
        let drag = Drag::start(&v, g, Handle::Axis(0), grab).expect("starts");
        let to = v.project(Vec3::X * len * 1.8).expect("visible");
        let Change::Scale(f) = drag.change(&v, to, None) else {
            panic!("a scale")
        };
        assert!((f - Vec3::new(2.0, 1.0, 1.0)).length() < 1e-3, "{f}");
        let c = v.project(g.pivot).expect("visible");
        let drag = Drag::start(&v, g, Handle::Centre, c).expect("starts");
        let Change::Scale(f) = drag.change(&v, c + Vec2::new(UNIFORM_PIXELS, 0.0), None) else {
            panic!("a scale")
        };
        assert!((f - Vec3::splat(2.0)).length() < 1e-4, "{f}");
        let Change::Scale(f) = drag.change(&v, c - Vec2::new(10.0 * UNIFORM_PIXELS, 0.0), None)
        else {
            panic!("a scale")
        };
        assert!(f.min_element() >= 0.01, "never collapses: {f}");
    }

    #[test]
    fn changes_apply_about_the_common_pivot() {
        let g = gizmo(Mode::Rotate, Vec3::new(1.0, 0.0, 0.0));
        let a = Affine3A::from_translation(Vec3::new(2.0, 0.0, 0.0));
        let b = Affine3A::from_translation(Vec3::new(0.0, 0.0, 0.0));
        let quarter = Change::Rotate(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2));
        let a2 = apply(&quarter, &g, a);
        let b2 = apply(&quarter, &g, b);
        // +X of the pivot turns to −Z, −X to +Z; both turned a quarter themselves.
        assert!((Vec3::from(a2.translation) - Vec3::new(1.0, 0.0, -1.0)).length() < 1e-5);
        assert!((Vec3::from(b2.translation) - Vec3::new(1.0, 0.0, 1.0)).length() < 1e-5);
        assert!((a2.transform_vector3(Vec3::X) - Vec3::NEG_Z).length() < 1e-5);
        // Scale doubles the spread about the pivot and each entity's own size.
        let g = gizmo(Mode::Scale, Vec3::new(1.0, 0.0, 0.0));
        let a3 = apply(&Change::Scale(Vec3::splat(2.0)), &g, a);
        assert!((Vec3::from(a3.translation) - Vec3::new(3.0, 0.0, 0.0)).length() < 1e-5);
        assert!((a3.transform_vector3(Vec3::Y) - Vec3::Y * 2.0).length() < 1e-5);
        let t = apply(&Change::Translate(Vec3::Z), &g, a);
        assert!((Vec3::from(t.translation) - Vec3::new(2.0, 0.0, 1.0)).length() < 1e-6);
    }

    #[test]
    fn the_back_half_of_a_ring_is_drawn_faded_and_cannot_be_grabbed() {
        let v = view();
        let g = gizmo(Mode::Rotate, Vec3::ZERO);
        let lines = lines(&v, &g);
        let y_ring: Vec<_> = lines
            .iter()
            .filter(|l| l.handle == Handle::Axis(1))
            .collect();
        let back = y_ring.iter().filter(|l| l.back).count();
        assert!(
            back > 10 && back < y_ring.len() - 10,
            "{back} of {}",
            y_ring.len()
        );
        // The point of the Y ring farthest from the viewer, where no other ring passes.
        let toward = v.towards_viewer(g.pivot);
        let far = (0..64)
            .map(|k| g.ring_point(&v, 1, k as f32 / 64.0 * std::f32::consts::TAU))
            .min_by(|a, b| a.dot(toward).total_cmp(&b.dot(toward)))
            .expect("points");
        let px = v.project(far).expect("visible");
        assert_ne!(hit(&v, &g, px), Some(Handle::Axis(1)));
    }
}
