//! Cutting large triangles for what the GE computes per vertex: baked light (a
//! torch's pool on a 20 m wall needs vertices inside it) and fog. (The GE also drops
//! a whole triangle with a vertex outside its guard band; the runtime clips those
//! itself, `pbm::guard`, so the cut no longer has to be fine for that — a 2 m cut
//! made 1.3–7× real levels' triangles.) Triangles larger than a cell on some axis are
//! cut along a world grid (planes x, y, z = k·cell), into convex pieces fanned from
//! their first corner; triangles within a cell's size are left whole wherever they
//! lie (cutting them bought nothing and cost up to 6× the vertices on small props
//! that happen to straddle a grid line).
//!
//! Cuts conform: a point where a grid plane crosses an edge is computed from the
//! edge's ends in a fixed order, so two cut triangles sharing an edge get the same
//! points on it, and a small triangle sharing an edge with a cut one gets those
//! points too (`edge_points` repeats the cut's sequence of splits on that edge) and is
//! fanned through them — no T-junction opens a crack between them. UVs, colours and
//! normals are interpolated linearly, which is exact on a planar triangle.

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
            color: pbm::view::lerp_color(p.v.color, q.v.color, t),
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

/// An edge by its ends' bits, smaller end first.
type EdgeKey = ([u32; 3], [u32; 3]);

fn edge_key(a: &Corner, b: &Corner) -> EdgeKey {
    let (ka, kb) = (key(a), key(b));
    if ka <= kb { (ka, kb) } else { (kb, ka) }
}

/// What the bake needs cut: triangles larger than the coarse grid anywhere (fog
/// and the sky's light change over tens of metres), and triangles larger than
/// the fine grid where a point or spot light reaches (a torch's pool needs
/// vertices inside it). Everywhere else a triangle is lit evenly and stays whole.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Need<'a> {
    /// The point and spot lights' spheres: centre and radius.
    pub lights: &'a [(Vec3, f32)],
    /// Past this size a triangle is cut wherever it is.
    pub coarse: f32,
}

impl Need<'_> {
    /// Everything larger than the grid is cut.
    pub(crate) const ALL: Need<'static> = Need {
        lights: &[],
        coarse: 0.0,
    };

    fn cuts(&self, corners: &[Corner], cell: f32) -> bool {
        if !is_large(corners, cell) {
            return false;
        }
        if is_large(corners, self.coarse) {
            return true;
        }
        let (lo, hi) = corners.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), c| (lo.min(Vec3::from(c.v.pos)), hi.max(Vec3::from(c.v.pos))),
        );
        self.lights
            .iter()
            .any(|(at, r)| at.clamp(lo, hi).distance_squared(*at) <= r * r)
    }
}

/// Whether a triangle is larger than `cell` on some axis.
fn is_large(corners: &[Corner], cell: f32) -> bool {
    (0..3).any(|axis| {
        let lo = corners
            .iter()
            .map(|c| c.v.pos[axis])
            .fold(f32::MAX, f32::min);
        let hi = corners
            .iter()
            .map(|c| c.v.pos[axis])
            .fold(f32::MIN, f32::max);
        hi - lo > cell
    })
}

/// The points a cut triangle puts on its edge a–b, in order from a to b: the same
/// splits as `cut_to_cells` makes (x planes ascending, then y on each piece, then z),
/// each computed from the current piece's ends, so the bits are the cut triangle's.
fn edge_points(
    a: &Corner,
    b: &Corner,
    cell: f32,
    budget: &mut Budget<'_>,
) -> Result<Vec<Corner>, Stop> {
    let mut pieces = vec![(*a, *b)];
    for axis in 0..3 {
        let mut next = Vec::with_capacity(pieces.len());
        for (p, q) in pieces {
            let (lo, hi) = (
                p.v.pos[axis].min(q.v.pos[axis]),
                p.v.pos[axis].max(q.v.pos[axis]),
            );
            let ascending = p.v.pos[axis] <= q.v.pos[axis];
            // Walk from the low end up, as the polygon cut keeps its upper rest.
            let (mut low, high) = if ascending { (p, q) } else { (q, p) };
            let mut made = Vec::new();
            let mut k = ((lo / cell).floor() as i64).saturating_add(1);
            while (k as f32) * cell < hi {
                budget.step()?;
                let plane = (k as f32) * cell;
                let (sa, sb) = (low.v.pos[axis] - plane, high.v.pos[axis] - plane);
                if (sa < 0.0 && sb > 0.0) || (sa > 0.0 && sb < 0.0) {
                    let c = cut(&low, &high, axis, plane);
                    made.push((low, c));
                    low = c;
                }
                k = k.saturating_add(1);
            }
            made.push((low, high));
            if !ascending {
                made.reverse();
                for m in &mut made {
                    *m = (m.1, m.0);
                }
            }
            next.extend(made);
        }
        pieces = next;
    }
    Ok(pieces[1..].iter().map(|(p, _)| *p).collect())
}

/// Cuts one large triangle into pieces within a cell each.
fn cut_to_cells(
    corners: Vec<Corner>,
    cell: f32,
    budget: &mut Budget<'_>,
    out: &mut Vec<Tri>,
) -> Result<(), Stop> {
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
        fan(&p, 0, budget, out)?;
    }
    Ok(())
}

/// Triangles fanned from `poly[origin]` around a convex polygon, leaving out the
/// ones without area.
fn fan(
    poly: &[Corner],
    origin: usize,
    budget: &mut Budget<'_>,
    out: &mut Vec<Tri>,
) -> Result<(), Stop> {
    let n = poly.len();
    for k in 1..n - 1 {
        let (a, b, c) = (
            poly[origin],
            poly[(origin + k) % n],
            poly[(origin + k + 1) % n],
        );
        let area = (Vec3::from(b.v.pos) - Vec3::from(a.v.pos))
            .cross(Vec3::from(c.v.pos) - Vec3::from(a.v.pos));
        if area.length_squared() > 1e-12 {
            budget.take(1)?;
            out.push(([a.v, b.v, c.v], [a.n, b.n, c.n]));
        }
    }
    Ok(())
}

/// The mean of three corners (exact for attributes linear over the triangle).
fn centroid(c: &[Corner]) -> Corner {
    let third = 1.0 / 3.0;
    let mean = |f: &dyn Fn(&Corner) -> f32| (f(&c[0]) + f(&c[1]) + f(&c[2])) * third;
    let channel = |s: u32| {
        let sum: u32 = c.iter().map(|k| (k.v.color >> s) & 0xFF).sum();
        ((sum as f32 * third).round() as u32).min(255) << s
    };
    Corner {
        v: Vertex {
            uv: [mean(&|k| k.v.uv[0]), mean(&|k| k.v.uv[1])],
            color: channel(0) | channel(8) | channel(16) | channel(24),
            pos: [
                mean(&|k| k.v.pos[0]),
                mean(&|k| k.v.pos[1]),
                mean(&|k| k.v.pos[2]),
            ],
        },
        n: (c[0].n + c[1].n + c[2].n).normalize_or(c[0].n),
    }
}

/// Cuts every triangle larger than `cell` metres on some axis that `need` says
/// the bake needs cut ([`Need`]) along the world grid of that spacing, and fans the triangles sharing an edge with one through the
/// points the cut put on that edge; every other triangle passes unchanged. Every
/// piece made is taken from `budget` and every cut is a step of it, so the work and
/// the memory are bounded by the export's limits (`Stop::Full` past them) and the
/// cancel flag is seen every few thousand cuts, whatever the coordinates.
pub(crate) fn slice(
    tris: Vec<Tri>,
    cell: f32,
    need: Need<'_>,
    budget: &mut Budget<'_>,
) -> Result<Vec<Tri>, Stop> {
    if !(cell.is_finite() && cell > 0.0) {
        budget.take(tris.len() as u64)?;
        return Ok(tris);
    }
    let corners_of = |t: &Tri| -> Vec<Corner> {
        (0..3)
            .map(|k| Corner {
                v: t.0[k],
                n: t.1[k],
            })
            .collect()
    };
    // The edges the cut triangles share with their neighbours.
    let mut cut_edges = std::collections::HashSet::new();
    for t in &tris {
        let c = corners_of(t);
        if need.cuts(&c, cell) {
            budget.step()?;
            for k in 0..3 {
                cut_edges.insert(edge_key(&c[k], &c[(k + 1) % 3]));
            }
        }
    }
    let mut out = Vec::with_capacity(tris.len());
    for t in tris {
        budget.step()?;
        let corners = corners_of(&t);
        if need.cuts(&corners, cell) {
            cut_to_cells(corners, cell, budget, &mut out)?;
            continue;
        }
        // A small triangle: through the points its cut neighbours put on shared edges.
        let mut poly = Vec::with_capacity(3);
        let mut edges_with_points = Vec::new();
        for k in 0..3 {
            let (a, b) = (&corners[k], &corners[(k + 1) % 3]);
            poly.push(*a);
            if cut_edges.contains(&edge_key(a, b)) {
                let points = edge_points(a, b, cell, budget)?;
                if !points.is_empty() {
                    edges_with_points.push(k);
                    poly.extend(points);
                }
            }
        }
        match edges_with_points.as_slice() {
            [] => {
                budget.take(1)?;
                out.push(t);
            }
            // One edge: fan from the corner facing it.
            [k] => {
                let opposite = (k + 2) % 3;
                let origin = poly
                    .iter()
                    .position(|c| key(c) == key(&corners[opposite]))
                    .unwrap_or(0);
                fan(&poly, origin, budget, &mut out)?;
            }
            // More: fan from the centroid, which sees every boundary point.
            _ => {
                let middle = centroid(&corners);
                for k in 0..poly.len() {
                    fan(
                        &[middle, poly[k], poly[(k + 1) % poly.len()]],
                        0,
                        budget,
                        &mut out,
                    )?;
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::capacity::ExportLimits;
    use std::collections::HashMap;
    use std::sync::atomic::AtomicBool;

    fn slice(tris: Vec<Tri>, cell: f32) -> Vec<Tri> {
        let cancel = AtomicBool::new(false);
        super::slice(
            tris,
            cell,
            Need::ALL,
            &mut Budget::new(&cancel, &ExportLimits::PSP),
        )
        .expect("fits")
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
    fn small_triangles_stay_whole_unless_a_cut_neighbour_shares_an_edge() {
        // A tall triangle (5 m, cut) whose base (x 1..2.5) crosses the plane x = 2; a
        // small one below sharing that base; a small sign elsewhere straddling x = 2.
        let (a, b, top) = (
            corner([1.0, 0.0, 0.0], [0.0, 0.0], 0),
            corner([2.5, 0.0, 0.0], [1.5, 0.0], 0),
            corner([1.75, 5.0, 0.0], [0.75, 5.0], 0),
        );
        let below = corner([1.75, -1.0, 0.0], [0.75, -1.0], 0);
        let sign = tri(
            corner([1.7, 10.0, 0.0], [0.0; 2], 0),
            corner([2.3, 10.0, 0.0], [0.0; 2], 0),
            corner([2.0, 10.5, 0.0], [0.0; 2], 0),
        );
        let input = vec![tri(a, b, top), tri(b, a, below), sign];
        let pieces = slice(input.clone(), 2.0);
        assert!(pieces.contains(&sign), "the sign is cut");
        let total: f32 = pieces.iter().map(area).sum();
        let expected: f32 = input.iter().map(area).sum();
        assert!(
            (total - expected).abs() < 1e-4,
            "area {total} of {expected}"
        );
        for p in &pieces {
            let [a, b, c] = p.0.map(|v| Vec3::from(v.pos));
            assert!((b - a).cross(c - a).z > 0.0, "winding kept");
            // UVs still follow position.
            for v in &p.0 {
                assert!((v.uv[0] - (v.pos[0] - 1.0)).abs() < 1e-5 || v.pos[1] >= 10.0);
            }
        }
        // Along the shared base, every piece's edge is matched by one running the
        // other way: the small triangle took the cut's point at x = 2.
        let mut edges: HashMap<([u32; 3], [u32; 3]), i32> = HashMap::new();
        for p in &pieces {
            for k in 0..3 {
                let (u, v) = (p.0[k].pos, p.0[(k + 1) % 3].pos);
                if u[1] == 0.0 && v[1] == 0.0 {
                    *edges
                        .entry((u.map(f32::to_bits), v.map(f32::to_bits)))
                        .or_default() += 1;
                }
            }
        }
        assert!(edges.len() >= 4, "the base is not split: {edges:?}");
        for (&(u, v), &n) in &edges {
            assert_eq!((n, edges.get(&(v, u)).copied()), (1, Some(1)), "T-junction");
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
        assert_eq!(
            super::slice(vec![huge], 2.0, Need::ALL, &mut budget),
            Err(Stop::Full)
        );
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
        assert_eq!(
            super::slice(many, 2.0, Need::ALL, &mut budget),
            Err(Stop::Cancelled)
        );
        assert!(budget.steps_left > ExportLimits::PSP.max_triangles);
        // Over the triangle budget: full, having kept at most the budget.
        let limits = ExportLimits {
            max_triangles: 100,
            ..ExportLimits::PSP
        };
        let cancel = AtomicBool::new(false);
        let mut budget = Budget::new(&cancel, &limits);
        assert_eq!(
            super::slice(vec![strip], 2.0, Need::ALL, &mut budget),
            Err(Stop::Full)
        );
    }
}
