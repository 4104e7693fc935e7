//! Cutting large triangles for the PSP's GE. The GE drops a whole triangle when,
//! after near-plane clipping, a vertex lands outside its 4096-pixel guard band — so
//! a wall that runs past the camera (two 20 m triangles) vanishes on the device even
//! where it is in plain view. Exported triangles are therefore cut along a world grid
//! (planes x, y, z = k·cell): a triangle sharing an edge with another gets the same
//! cut points on it (each point is computed from the edge's two ends in a fixed
//! order), so the pieces meet without T-junctions, and the pieces of one triangle
//! are convex polygons fanned from their first corner. UVs, colours and normals are
//! interpolated linearly, which is exact on a planar triangle.

use pbm::view::Vertex;
use pebble_model::glam::Vec3;

use super::limits::{Budget, Stop};

/// A triangle's vertices and world-space unit normals (as the geometry stage keeps
/// them).
pub(crate) type Tri = ([Vertex; 3], [Vec3; 3]);

#[derive(Debug, Clone, Copy)]
struct Corner {
    v: Vertex,
    n: Vec3,
}

fn key(c: &Corner) -> [u32; 3] {
    c.v.pos.map(f32::to_bits)
}

fn lerp_color(a: u32, b: u32, t: f32) -> u32 {
    let ch = |s: u32| {
        let (x, y) = (((a >> s) & 0xFF) as f32, ((b >> s) & 0xFF) as f32);
        ((x + (y - x) * t).round().clamp(0.0, 255.0) as u32) << s
    };
    ch(0) | ch(8) | ch(16) | ch(24)
}

/// The point where edge a–b crosses `axis = plane`, computed from the ends in a
/// fixed order so both triangles sharing the edge get the same bits.
fn cut(a: &Corner, b: &Corner, axis: usize, plane: f32) -> Corner {
    let (p, q) = if key(a) <= key(b) { (a, b) } else { (b, a) };
    let (pa, qa) = (p.v.pos[axis], q.v.pos[axis]);
    let t = ((plane - pa) / (qa - pa)).clamp(0.0, 1.0);
    let mix = |x: f32, y: f32| x + (y - x) * t;
    let mut pos: [f32; 3] = std::array::from_fn(|k| mix(p.v.pos[k], q.v.pos[k]));
    pos[axis] = plane;
    Corner {
        v: Vertex {
            uv: [mix(p.v.uv[0], q.v.uv[0]), mix(p.v.uv[1], q.v.uv[1])],
            color: lerp_color(p.v.color, q.v.color, t),
            pos,
        },
        n: (p.n + (q.n - p.n) * t).normalize_or(p.n),
    }
}

/// Splits a convex polygon by `axis = plane` into the parts below and above.
fn split(poly: &[Corner], axis: usize, plane: f32) -> (Vec<Corner>, Vec<Corner>) {
    let (mut below, mut above) = (Vec::new(), Vec::new());
    for k in 0..poly.len() {
        let (a, b) = (&poly[k], &poly[(k + 1) % poly.len()]);
        let (sa, sb) = (a.v.pos[axis] - plane, b.v.pos[axis] - plane);
        if sa <= 0.0 {
            below.push(*a);
        }
        if sa >= 0.0 {
            above.push(*a);
        }
        if (sa < 0.0 && sb > 0.0) || (sa > 0.0 && sb < 0.0) {
            let c = cut(a, b, axis, plane);
            below.push(c);
            above.push(c);
        }
    }
    (below, above)
}

/// Cuts every triangle larger than `cell` metres on some axis along the world grid
/// of that spacing. Triangles within one cell pass unchanged. Every piece made is
/// taken from `budget` and every cut is a step of it, so the work and the memory are
/// bounded by the export's limits (`Stop::Full` past them) and the cancel flag is
/// seen every few thousand cuts, whatever the coordinates.
pub(crate) fn slice(tris: Vec<Tri>, cell: f32, budget: &mut Budget<'_>) -> Result<Vec<Tri>, Stop> {
    if !(cell.is_finite() && cell > 0.0) {
        budget.take(tris.len() as u64)?;
        return Ok(tris);
    }
    let mut out = Vec::with_capacity(tris.len());
    for t in tris {
        budget.step()?;
        let corners: Vec<Corner> = (0..3)
            .map(|k| Corner {
                v: t.0[k],
                n: t.1[k],
            })
            .collect();
        let spans = (0..3).any(|axis| {
            let lo = corners
                .iter()
                .map(|c| c.v.pos[axis])
                .fold(f32::MAX, f32::min);
            let hi = corners
                .iter()
                .map(|c| c.v.pos[axis])
                .fold(f32::MIN, f32::max);
            ((lo / cell).floor() + 1.0) * cell < hi
        });
        if !spans {
            budget.take(1)?;
            out.push(t);
            continue;
        }
        let mut polys = vec![corners];
        for axis in 0..3 {
            let mut next = Vec::new();
            for poly in polys {
                let lo = poly.iter().map(|c| c.v.pos[axis]).fold(f32::MAX, f32::min);
                let hi = poly.iter().map(|c| c.v.pos[axis]).fold(f32::MIN, f32::max);
                let mut rest = poly;
                // Grid lines by an integer index: `k · cell` is the same plane as an
                // f32 count gave wherever the index is exact in f32 (every legal
                // map), and the loop advances even where it is not.
                let mut k = ((lo / cell).floor() as i64).saturating_add(1);
                while (k as f32) * cell < hi {
                    budget.step()?;
                    let (below, above) = split(&rest, axis, (k as f32) * cell);
                    if below.len() >= 3 {
                        next.push(below);
                    }
                    rest = above;
                    k = k.saturating_add(1);
                }
                if rest.len() >= 3 {
                    next.push(rest);
                }
            }
            polys = next;
        }
        for p in polys {
            for k in 1..p.len() - 1 {
                let (a, b, c) = (p[0], p[k], p[k + 1]);
                let area = (Vec3::from(b.v.pos) - Vec3::from(a.v.pos))
                    .cross(Vec3::from(c.v.pos) - Vec3::from(a.v.pos));
                if area.length_squared() > 1e-12 {
                    budget.take(1)?;
                    out.push(([a.v, b.v, c.v], [a.n, b.n, c.n]));
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::limits::ExportLimits;
    use std::collections::HashMap;
    use std::sync::atomic::AtomicBool;

    fn slice(tris: Vec<Tri>, cell: f32) -> Vec<Tri> {
        let cancel = AtomicBool::new(false);
        super::slice(tris, cell, &mut Budget::new(&cancel, &ExportLimits::PSP)).expect("fits")
    }

    fn corner(p: [f32; 3], uv: [f32; 2], color: u32) -> (Vertex, Vec3) {
        (Vertex { uv, color, pos: p }, Vec3::Z)
    }

    fn tri(a: (Vertex, Vec3), b: (Vertex, Vec3), c: (Vertex, Vec3)) -> Tri {
        ([a.0, b.0, c.0], [a.1, b.1, c.1])
    }

    fn area(t: &Tri) -> f32 {
        let [a, b, c] = t.0.map(|v| Vec3::from(v.pos));
        (b - a).cross(c - a).length() * 0.5
    }

    #[test]
    fn a_wall_is_cut_into_cells_with_its_area_uvs_and_winding() {
        // A 10 × 4 m wall (two triangles), UVs 0..5 × 0..2, facing +Z.
        let (a, b, c, d) = (
            corner([0.0, 0.0, 0.0], [0.0, 0.0], 0xFF00_0000),
            corner([10.0, 0.0, 0.0], [5.0, 0.0], 0xFF00_00FF),
            corner([10.0, 4.0, 0.0], [5.0, 2.0], 0xFF00_00FF),
            corner([0.0, 4.0, 0.0], [0.0, 2.0], 0xFF00_0000),
        );
        let wall = vec![tri(a, b, c), tri(a, c, d)];
        let pieces = slice(wall.clone(), 2.0);
        let total: f32 = pieces.iter().map(area).sum();
        assert!((total - 40.0).abs() < 1e-3, "area {total}");
        for p in &pieces {
            let [a, b, c] = p.0.map(|v| Vec3::from(v.pos));
            assert!((b - a).cross(c - a).z > 0.0, "winding kept");
            for v in &p.0 {
                // Every piece lies in one 2 m cell; UVs follow position (u = x/2).
                assert!(
                    (v.uv[0] - v.pos[0] / 2.0).abs() < 1e-4
                        && (v.uv[1] - v.pos[1] / 2.0).abs() < 1e-4
                );
                let red = (v.color & 0xFF) as f32;
                assert!(
                    (red - 25.5 * v.pos[0]).abs() <= 1.0,
                    "colour follows x: {v:?}"
                );
            }
            let lo = p.0.iter().map(|v| v.pos[0]).fold(f32::MAX, f32::min);
            let hi = p.0.iter().map(|v| v.pos[0]).fold(f32::MIN, f32::max);
            let cell = ((lo + 1e-4) / 2.0).floor();
            assert!(
                hi <= (cell + 1.0) * 2.0 + 1e-4,
                "a piece spans cells: {lo}..{hi}"
            );
        }
        // Small triangles pass unchanged.
        let small = vec![tri(
            corner([0.1, 0.1, 0.0], [0.0; 2], 0),
            corner([0.5, 0.1, 0.0], [0.0; 2], 0),
            corner([0.1, 0.5, 0.0], [0.0; 2], 0),
        )];
        assert_eq!(slice(small.clone(), 2.0), small);
    }

    #[test]
    fn pieces_meet_without_t_junctions() {
        // Two triangles sharing the diagonal of a 7 × 5 quad, cut at 1.5 m: every
        // edge of the result is either on the quad's border or shared by exactly
        // two pieces in opposite directions.
        let (a, b, c, d) = (
            corner([0.3, 0.2, 0.0], [0.0; 2], 0),
            corner([7.3, 0.2, 0.0], [0.0; 2], 0),
            corner([7.3, 5.2, 0.0], [0.0; 2], 0),
            corner([0.3, 5.2, 0.0], [0.0; 2], 0),
        );
        let pieces = slice(vec![tri(a, b, c), tri(a, c, d)], 1.5);
        let mut edges: HashMap<([u32; 3], [u32; 3]), i32> = HashMap::new();
        for p in &pieces {
            for k in 0..3 {
                let (u, v) = (
                    p.0[k].pos.map(f32::to_bits),
                    p.0[(k + 1) % 3].pos.map(f32::to_bits),
                );
                *edges.entry((u, v)).or_default() += 1;
            }
        }
        let on_border = |p: [u32; 3]| {
            let [x, y, _] = p.map(f32::from_bits);
            (x - 0.3).abs() < 1e-5
                || (x - 7.3).abs() < 1e-5
                || (y - 0.2).abs() < 1e-5
                || (y - 5.2).abs() < 1e-5
        };
        for (&(u, v), &n) in &edges {
            let back = edges.get(&(v, u)).copied().unwrap_or(0);
            if on_border(u) && on_border(v) && back == 0 {
                continue;
            }
            assert_eq!(
                (n, back),
                (1, 1),
                "unmatched inner edge {:?} → {:?}",
                u.map(f32::from_bits),
                v.map(f32::from_bits)
            );
        }
    }

    #[test]
    fn huge_coordinates_stop_at_the_budget_and_cancel_stops_the_cutting() {
        // 1e30 m along z with x flattened: the grid index is past what f32 counts;
        // the cut stops at the budget instead of looping.
        let huge = tri(
            corner([0.0, 0.0, -5e29], [0.0; 2], 0),
            corner([0.0, 1.0, 5e29], [0.0; 2], 0),
            corner([0.0, 0.0, 5e29], [0.0; 2], 0),
        );
        let cancel = AtomicBool::new(false);
        let mut budget = Budget::new(&cancel, &ExportLimits::PSP);
        assert_eq!(super::slice(vec![huge], 2.0, &mut budget), Err(Stop::Full));
        // A legal 1 km strip with the flag set: cancelled within the first few
        // thousand cuts.
        let strip = tri(
            corner([0.0, 0.0, -500.0], [0.0; 2], 0),
            corner([1.0, 0.0, 500.0], [0.0; 2], 0),
            corner([0.0, 0.0, 500.0], [0.0; 2], 0),
        );
        let cancel = AtomicBool::new(true);
        let mut budget = Budget::new(&cancel, &ExportLimits::PSP);
        let many = vec![strip; 100];
        assert_eq!(super::slice(many, 2.0, &mut budget), Err(Stop::Cancelled));
        assert!(budget.steps_left > ExportLimits::PSP.max_triangles);
        // Over the triangle budget: full, having kept at most the budget.
        let limits = ExportLimits {
            max_triangles: 100,
            ..ExportLimits::PSP
        };
        let cancel = AtomicBool::new(false);
        let mut budget = Budget::new(&cancel, &limits);
        assert_eq!(super::slice(vec![strip], 2.0, &mut budget), Err(Stop::Full));
    }
}
