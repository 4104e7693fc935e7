//! Occlusion culling on the CPU for the editor's view.
//!
//! The nearest opaque chunks are rasterised, before the frame is recorded, into a
//! depth map at the frame's own resolution and with the GPU's sample points (pixel
//! centres). A chunk whose box lies behind that map at every pixel the box can
//! touch would fail the depth test everywhere, so it is not drawn. The map is
//! conservative both ways: it claims a pixel only when the GPU is sure to cover its
//! centre (outer edges keep a margin for the GPU's vertex snapping; edges shared by
//! two front faces keep none, as the GPU's rasterisation is watertight there), and
//! it records a depth the GPU's stored depth can only be nearer than. So culling
//! never changes the picture; a test renders with and without it and compares.
//!
//! Written here rather than taken from a crate: the available software occlusion
//! libraries (masked occlusion culling ports) are approximate by design, and this
//! one has to be exact.

use std::collections::HashMap;

use pebble_model::glam::{Mat4, Vec3, Vec4};
use rayon::prelude::*;

/// How far inside an outer edge a pixel centre must lie, in pixels: the GPU may
/// snap vertices to 1/16 pixel (Vulkan's minimum of four sub-pixel bits).
const EDGE_MARGIN: f64 = 1.0 / 8.0;
/// The snapping distance the depth bound allows for, in pixels.
const SNAP: f64 = 1.0 / 16.0;
/// Depth slack for rounding (24-bit depth, f32 transforms).
const DEPTH_EPSILON: f32 = 1e-5;
/// Row bands filled in parallel (more than the cores, to balance them).
const BANDS: usize = 8;
/// Marks an edge with no front-facing neighbour.
pub(crate) const NO_NEIGHBOUR: u32 = u32::MAX;

/// For each triangle of a non-indexed triangle list, the triangle across each of
/// its edges (v0→v1, v1→v2, v2→v0) that runs the other way over the same two
/// positions, or [`NO_NEIGHBOUR`] (none, or more than one).
pub(crate) fn neighbours(positions: &[Vec3]) -> Vec<[u32; 3]> {
    let key = |p: Vec3| p.to_array().map(f32::to_bits);
    let triangles = positions.len() / 3;
    let mut edges: HashMap<([u32; 3], [u32; 3]), u32> = HashMap::with_capacity(triangles * 3);
    for t in 0..triangles {
        for k in 0..3 {
            let a = key(positions[t * 3 + k]);
            let b = key(positions[t * 3 + (k + 1) % 3]);
            edges
                .entry((a, b))
                .and_modify(|v| *v = NO_NEIGHBOUR)
                .or_insert(t as u32);
        }
    }
    (0..triangles)
        .map(|t| {
            std::array::from_fn(|k| {
                let a = key(positions[t * 3 + k]);
                let b = key(positions[t * 3 + (k + 1) % 3]);
                match edges.get(&(b, a)) {
                    Some(&n) if n as usize != t => n,
                    _ => NO_NEIGHBOUR,
                }
            })
        })
        .collect()
}

/// A depth map of what has been drawn so far, and the queries against it.
#[derive(Debug, Default)]
pub(crate) struct DepthMap {
    width: usize,
    height: usize,
    clip_from_world: Mat4,
    /// Row 0 at the top. Per pixel, a depth the GPU's stored depth is at most
    /// (infinity: nothing known).
    depth: Vec<f32>,
    /// Polygons queued for the next [`DepthMap::rasterize`].
    pending: Vec<Fill>,
}

/// A vertex on screen: pixels (y down, centres at +0.5) and depth in [0, 1].
#[derive(Debug, Clone, Copy)]
struct ScreenPoint {
    x: f64,
    y: f64,
    z: f64,
}

impl DepthMap {
    /// Clears the map for a frame of `width × height`.
    pub(crate) fn reset(&mut self, width: u32, height: u32, clip_from_world: Mat4) {
        self.width = width as usize;
        self.height = height as usize;
        self.clip_from_world = clip_from_world;
        self.depth.resize(self.width * self.height, f32::INFINITY);
        self.depth.par_iter_mut().for_each(|d| *d = f32::INFINITY);
        self.pending.clear();
    }

    fn screen(&self, c: Vec4) -> ScreenPoint {
        let w = f64::from(c.w);
        ScreenPoint {
            x: (f64::from(c.x) / w + 1.0) * 0.5 * self.width as f64,
            y: (1.0 - f64::from(c.y) / w) * 0.5 * self.height as f64,
            z: f64::from(c.z) / w,
        }
    }

    /// True when every fragment of anything inside the box would fail the depth
    /// test against what the map holds.
    pub(crate) fn hides(&self, lo: Vec3, hi: Vec3) -> bool {
        if self.depth.is_empty() {
            return false;
        }
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        let mut z_near = f64::MAX;
        for n in 0..8 {
            let corner = Vec3::new(
                if n & 1 == 0 { lo.x } else { hi.x },
                if n & 2 == 0 { lo.y } else { hi.y },
                if n & 4 == 0 { lo.z } else { hi.z },
            );
            let c = self.clip_from_world * corner.extend(1.0);
            // In front of the near plane, or too close to tell: keep it.
            if !(c.z >= 0.0 && c.w > 1e-6) {
                return false;
            }
            let p = self.screen(c);
            x0 = x0.min(p.x);
            y0 = y0.min(p.y);
            x1 = x1.max(p.x);
            y1 = y1.max(p.y);
            z_near = z_near.min(p.z);
        }
        if !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
            return false;
        }
        let z_near = z_near as f32 - DEPTH_EPSILON;
        // One pixel of slack around the box for snapping.
        let clamp_x = |v: f64| v.clamp(0.0, self.width as f64 - 1.0) as usize;
        let clamp_y = |v: f64| v.clamp(0.0, self.height as f64 - 1.0) as usize;
        let (i0, i1) = (clamp_x(x0.floor() - 1.0), clamp_x(x1.ceil() + 1.0));
        let (j0, j1) = (clamp_y(y0.floor() - 1.0), clamp_y(y1.ceil() + 1.0));
        (j0..=j1).all(|j| {
            self.depth[j * self.width + i0..=j * self.width + i1]
                .iter()
                .all(|&d| d < z_near)
        })
    }

    /// Rasterises the front faces among `positions` (a triangle list drawn with
    /// back faces culled and depth written), given each triangle's neighbours.
    /// Returns how many triangles cover pixels.
    #[cfg(test)]
    fn draw(&mut self, positions: &[Vec3], neighbours: &[[u32; 3]]) -> usize {
        let n = self.add_occluder(positions, neighbours);
        self.rasterize();
        n
    }

    /// Fills what [`DepthMap::add_occluder`] queued, in bands of rows on all cores.
    pub(crate) fn rasterize(&mut self) {
        let width = self.width.max(1);
        let fills = std::mem::take(&mut self.pending);
        let band_rows = self.height.div_ceil(BANDS).max(1);
        self.depth
            .par_chunks_mut(band_rows * width)
            .enumerate()
            .for_each(|(b, band)| {
                for f in &fills {
                    f.fill(band, b * band_rows, width);
                }
            });
    }

    /// Queues the front faces among `positions` (a triangle list drawn with back
    /// faces culled and depth written), given each triangle's neighbours, for
    /// [`DepthMap::rasterize`]. Returns how many may cover pixels.
    pub(crate) fn add_occluder(&mut self, positions: &[Vec3], neighbours: &[[u32; 3]]) -> usize {
        let clip: Vec<Vec4> = positions
            .iter()
            .map(|p| self.clip_from_world * p.extend(1.0))
            .collect();
        let triangles = positions.len() / 3;
        // Front-facing as the pipeline's `FrontFace::Ccw` sees it: counter-clockwise
        // on screen with y up, which is the sign of the determinant of the clip
        // coordinates (x, y, w) — also right for triangles the near plane clips.
        let front: Vec<bool> = (0..triangles)
            .map(|t| {
                let [a, b, c] = [0, 1, 2].map(|k| clip[t * 3 + k].as_dvec4());
                let det = a.x * (b.y * c.w - b.w * c.y) - a.y * (b.x * c.w - b.w * c.x)
                    + a.w * (b.x * c.y - b.y * c.x);
                det > 0.0
            })
            .collect();
        let mut drawn = 0;
        for t in 0..triangles {
            if !front[t] {
                continue;
            }
            let shared: [bool; 3] = std::array::from_fn(|k| {
                let n = neighbours[t][k];
                n != NO_NEIGHBOUR && front.get(n as usize).copied().unwrap_or(false)
            });
            if let Some(fill) = self.triangle(&clip[t * 3..t * 3 + 3], shared) {
                self.pending.push(fill);
                drawn += 1;
            }
        }
        drawn
    }

    /// One front-facing triangle: clipped at the near plane, then its pixels.
    fn triangle(&self, v: &[Vec4], shared: [bool; 3]) -> Option<Fill> {
        // Sutherland–Hodgman against z ≥ 0 (wgpu's near plane), keeping for each
        // polygon edge whether it lies on a shared triangle edge.
        let mut polygon = [(Vec4::ZERO, false); 4];
        let mut n = 0;
        for k in 0..3 {
            let (a, b) = (v[k], v[(k + 1) % 3]);
            let (ina, inb) = (a.z >= 0.0, b.z >= 0.0);
            if ina {
                polygon[n] = (a, shared[k]);
                n += 1;
            }
            if ina != inb {
                let t = a.z / (a.z - b.z);
                let p = a + (b - a) * t;
                // Entering: the edge from p to b is part of edge k. Leaving: the edge
                // from p runs along the near plane (an outer edge).
                polygon[n] = (p, !ina && shared[k]);
                n += 1;
            }
        }
        let polygon = &polygon[..n];
        if n < 3 || polygon.iter().any(|(c, _)| c.w <= 1e-6) {
            return None;
        }
        let mut points = [ScreenPoint {
            x: 0.0,
            y: 0.0,
            z: 0.0,
        }; 4];
        for (p, (c, _)) in points.iter_mut().zip(polygon) {
            *p = self.screen(*c);
        }
        let points = &points[..n];
        let x_lo = points.iter().map(|p| p.x).fold(f64::MAX, f64::min);
        let x_hi = points.iter().map(|p| p.x).fold(f64::MIN, f64::max);
        if x_hi < 0.5 || x_lo > self.width as f64 - 0.5 {
            return None;
        }
        // Depth plane from the polygon's first three points.
        let (p0, p1, p2) = (points[0], points[1], points[2]);
        let (ux, uy, uz) = (p1.x - p0.x, p1.y - p0.y, p1.z - p0.z);
        let (vx, vy, vz) = (p2.x - p0.x, p2.y - p0.y, p2.z - p0.z);
        let nz = ux * vy - uy * vx;
        let area = nz.abs() * 0.5;
        if area < 1e-9 {
            return None;
        }
        let dzdx = -(uy * vz - uz * vy) / nz;
        let dzdy = -(uz * vx - ux * vz) / nz;
        let z_max = points.iter().map(|p| p.z).fold(f64::MIN, f64::max);
        // Snapping the vertices changes the depth at a covered pixel by at most the
        // plane's change over the snapping distance: the difference of the two
        // planes is affine, bounded so at the vertices, and so inside.
        let slack = (dzdx.abs() + dzdy.abs()) * SNAP;
        let cap = (z_max as f32) + DEPTH_EPSILON;
        // Edge functions as signed distances, positive inside.
        let orient = nz.signum();
        let edges: [(f64, f64, f64, f64); 4] = std::array::from_fn(|k| {
            if k >= n {
                // Unused slot: always satisfied.
                return (0.0, 0.0, 1.0, 0.0);
            }
            {
                let (a, b) = (points[k], points[(k + 1) % points.len()]);
                let (dx, dy) = (b.x - a.x, b.y - a.y);
                let len = dx.hypot(dy).max(1e-12);
                // cross(b − a, p − a) = dx·(py − ay) − dy·(px − ax)
                let ax = -dy * orient / len;
                let ay = dx * orient / len;
                let c = -(ax * a.x + ay * a.y);
                let margin = if polygon[k].1 { 0.0 } else { EDGE_MARGIN };
                (ax, ay, c, margin)
            }
        });
        let y_lo = points.iter().map(|p| p.y).fold(f64::MAX, f64::min);
        let y_hi = points.iter().map(|p| p.y).fold(f64::MIN, f64::max);
        if self.height == 0 || self.width == 0 || y_hi < 0.5 {
            return None;
        }
        let j0 = (y_lo - 0.5).ceil().max(0.0) as usize;
        let j1 = ((y_hi - 0.5).floor() as usize).min(self.height - 1);
        // Each edge bounds x on a row linearly in y: x ≥ α + β·y (left edges) or
        // x ≤ α + β·y (right edges); horizontal ones bound the rows instead.
        let (mut left, mut right) = ([(0.0, 0.0); 4], [(0.0, 0.0); 4]);
        let (mut nl, mut nr) = (0, 0);
        let (mut y_min, mut y_max) = (0.5_f64, self.height as f64 - 0.5);
        for &(ax, ay, c, margin) in &edges[..n] {
            if ax > 1e-12 {
                left[nl] = ((margin - c) / ax, -ay / ax);
                nl += 1;
            } else if ax < -1e-12 {
                right[nr] = ((margin - c) / ax, -ay / ax);
                nr += 1;
            } else if ay > 0.0 {
                y_min = y_min.max((margin - c) / ay);
            } else if ay < 0.0 {
                y_max = y_max.min((margin - c) / ay);
            } else {
                return None;
            }
        }
        let j0 = j0.max((y_min - 0.5).ceil().max(0.0) as usize);
        let j1 = j1.min((y_max - 0.5).floor().max(-1.0) as isize as usize);
        if y_max < y_min {
            return None;
        }
        if j0 > j1 {
            return None;
        }
        Some(Fill {
            left,
            nl,
            right,
            nr,
            rows: (j0, j1),
            depth_at_row: (
                p0.z + dzdx * (0.5 - p0.x) - dzdy * p0.y + slack + 1e-6,
                dzdy,
            ),
            step: dzdx as f32,
            cap,
        })
    }
}

/// One clipped front-facing polygon, ready to fill row by row.
#[derive(Debug, Clone, Copy)]
struct Fill {
    /// x ≥ α + β·y for each left edge, x ≤ α + β·y for each right one.
    left: [(f64, f64); 4],
    nl: usize,
    right: [(f64, f64); 4],
    nr: usize,
    /// First and last row (inclusive).
    rows: (usize, usize),
    /// The depth bound at the centre of pixel 0 of a row: α + β·y.
    depth_at_row: (f64, f64),
    /// Its change per pixel along the row.
    step: f32,
    /// The polygon's farthest depth: no pixel of it is stored farther.
    cap: f32,
}

impl Fill {
    /// Fills the rows of a band (rows `first..` of a map `width` wide).
    fn fill(&self, band: &mut [f32], first: usize, width: usize) {
        let last = first + band.len() / width;
        for j in self.rows.0.max(first)..=self.rows.1.min(last.saturating_sub(1)) {
            let py = j as f64 + 0.5;
            let xl = self.left[..self.nl]
                .iter()
                .fold(0.5_f64, |x, (a, b)| x.max(a + b * py));
            let xr = self.right[..self.nr]
                .iter()
                .fold(width as f64 - 0.5, |x, (a, b)| x.min(a + b * py));
            if xl > xr {
                continue;
            }
            let i0 = (xl - 0.5).ceil().max(0.0) as usize;
            let i1 = (xr - 0.5).floor() as isize;
            if i1 < i0 as isize {
                continue;
            }
            let i1 = (i1 as usize).min(width - 1);
            let base = (self.depth_at_row.0 + self.depth_at_row.1 * py) as f32;
            let row = &mut band[(j - first) * width..(j - first + 1) * width];
            // Each pixel's depth from the span's start (no running sum, so no
            // drift), with selects rather than branches so the loop vectorises.
            let (step, cap) = (self.step, self.cap);
            let z0 = base + step * i0 as f32;
            for (k, d) in row[i0..=i1].iter_mut().enumerate() {
                let z = z0 + step * (k as i32) as f32;
                let z = if z < cap { z } else { cap };
                *d = if z < *d { z } else { *d };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Camera;

    fn quad(z: f32, half: f32) -> Vec<Vec3> {
        // Counter-clockwise seen from +Z (the camera looks down −Z).
        let (a, b, c, d) = (
            Vec3::new(-half, -half, z),
            Vec3::new(half, -half, z),
            Vec3::new(half, half, z),
            Vec3::new(-half, half, z),
        );
        vec![a, b, c, a, c, d]
    }

    fn map(camera: &Camera) -> DepthMap {
        let mut m = DepthMap::default();
        m.reset(320, 180, camera.clip_from_world(320.0 / 180.0));
        m
    }

    #[test]
    fn a_wall_hides_what_is_behind_it_and_nothing_else() {
        let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        let mut m = map(&camera);
        let wall = quad(-5.0, 2.0);
        assert_eq!(m.draw(&wall, &neighbours(&wall)), 2);
        // The diagonal is shared, so no pixel along it is left open.
        let behind = (Vec3::new(-1.0, -1.0, -9.0), Vec3::new(1.0, 1.0, -8.0));
        assert!(m.hides(behind.0, behind.1));
        let in_front = (Vec3::new(-1.0, -1.0, -4.0), Vec3::new(1.0, 1.0, -3.0));
        assert!(!m.hides(in_front.0, in_front.1));
        // Reaching past the wall's edge: visible.
        let beside = (Vec3::new(3.0, -1.0, -9.0), Vec3::new(40.0, 1.0, -8.0));
        assert!(!m.hides(beside.0, beside.1));
        // Crossing the wall's depth: visible.
        let through = (Vec3::new(-1.0, -1.0, -6.0), Vec3::new(1.0, 1.0, -4.9));
        assert!(!m.hides(through.0, through.1));
    }

    #[test]
    fn back_faces_and_unshared_seams_do_not_occlude() {
        let camera = Camera::psp(Vec3::ZERO, 0.0, 0.0);
        let behind = (Vec3::new(-1.0, -1.0, -9.0), Vec3::new(1.0, 1.0, -8.0));
        // Seen from behind: culled by the pipeline, so no occluder.
        let mut m = map(&camera);
        let mut back = quad(-5.0, 2.0);
        back.reverse();
        assert_eq!(m.draw(&back, &neighbours(&back)), 0);
        assert!(!m.hides(behind.0, behind.1));
        // Two triangles whose diagonal is not shared (each drawn alone): the seam
        // keeps its margin, so pixels on it stay open and nothing is hidden there.
        let mut m = map(&camera);
        let wall = quad(-5.0, 2.0);
        m.draw(&wall[..3], &neighbours(&wall[..3]));
        m.draw(&wall[3..], &neighbours(&wall[3..]));
        let on_seam = (Vec3::new(-0.2, -0.2, -9.0), Vec3::new(0.2, 0.2, -8.0));
        assert!(!m.hides(on_seam.0, on_seam.1));
    }

    #[test]
    fn a_wall_crossing_the_near_plane_still_occludes() {
        // A long wall to the left, running from behind the eye into the distance.
        let camera = Camera::psp(Vec3::new(0.0, 1.7, 0.0), 0.0, 0.0);
        let mut m = map(&camera);
        let (a, b, c, d) = (
            Vec3::new(-2.0, 0.0, 10.0),
            Vec3::new(-2.0, 0.0, -100.0),
            Vec3::new(-2.0, 30.0, -100.0),
            Vec3::new(-2.0, 30.0, 10.0),
        );
        let wall = vec![a, b, c, a, c, d];
        assert_eq!(m.draw(&wall, &neighbours(&wall)), 2);
        let behind = (Vec3::new(-6.0, 1.0, -40.0), Vec3::new(-5.0, 3.0, -35.0));
        assert!(m.hides(behind.0, behind.1));
        let ahead = (Vec3::new(-1.0, 0.0, -30.0), Vec3::new(1.0, 10.0, -25.0));
        assert!(!m.hides(ahead.0, ahead.1));
    }
}
