//! The transform gizmo's maths, free of UI: translate (axes, planes, a screen-plane
//! centre), rotate (one ring per axis plus a screen ring) and scale (axes and a
//! uniform centre) handles at a constant screen size; hit tests in screen space; the
//! constrained drags (the grabbed point follows the cursor along an axis, in a plane
//! or round a ring, with a screen-angle fallback for rings seen edge-on); snapping;
//! and applying the result to several entities about their common pivot.

use pebble_model::glam::{Affine3A, Quat, Vec2, Vec3};

pub use super::view::View;

pub use super::view::SCREEN_SIZE;
use super::view::inside_quad;
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

/// The distance on screen from `pixel` to a closed ring of world points.
/// The distance on screen from `pixel` to a ring drawn through `point(t)`, over
/// the stretches where `point` gives one (the half facing the viewer). The back
/// half used to be drawn to the pivot instead, and its spokes and the pivot
/// itself took clicks meant for the thing under the gizmo.
fn distance_to_ring(view: &View, pixel: Vec2, point: impl Fn(f32) -> Option<Vec3>) -> Option<f32> {
    let pts: Vec<Option<Vec2>> = (0..=RING_SEGMENTS)
        .map(|k| point(k as f32 / RING_SEGMENTS as f32 * std::f32::consts::TAU))
        .map(|p| p.and_then(|p| view.project(p)))
        .collect();
    pts.windows(2)
        .filter_map(|w| Some(distance_to_segment(pixel, w[0]?, w[1]?)))
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
                        front.then_some(p)
                    })?;
                    (d <= HIT_PIXELS).then_some((d, i))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, i)| Handle::Axis(i));
            ring.or_else(|| {
                let d = distance_to_ring(view, pixel, |t| Some(gizmo.screen_ring_point(view, t)))?;
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
mod tests;
