//! A bounding-volume hierarchy over triangles for the bake's any-hit shadow and
//! AO queries.
//!
//! Built once per export: a binary tree (large ranges split at the middle of their
//! centroids, smaller ones by binned surface-area-heuristic splits, subtrees built
//! in parallel, the result the same whatever the thread count), then collapsed
//! into a 4-wide tree whose nodes hold their children's boxes as
//! structure-of-arrays, so one SIMD slab test checks four boxes and a ray visits
//! half the levels. The triangle data a walk touches (a vertex and two edges) lives
//! apart from the UVs and cutout index that only a hit needs.
//!
//! Many short rays from one point (the bake's AO rays) start from a *focus*: the
//! few subtrees around the point, found once per point, so each ray skips the
//! upper levels ([`Bvh::focus`], [`Bvh::occluded_near`]); the answers are exactly
//! those of a walk from the root.
//!
//! Written here rather than taken from a crate: the bake needs any-hit queries
//! with a cutout-alpha test, a deterministic build and no unsafe code; the crates
//! that do this well (embree bindings) are C++ with a native build.

use pebble_model::glam::{Vec3, Vec3A, Vec4};
use rayon::prelude::*;

/// A triangle to build from: world positions, UVs and the cutout texture (an index
/// into the alpha maps given to [`Bvh::build`]) whose transparent texels pass light.
#[derive(Debug, Clone, Copy)]
pub struct Triangle {
    pub p: [Vec3; 3],
    pub uv: [[f32; 2]; 3],
    pub cutout: Option<u32>,
}

/// An alpha map: width, height and one alpha byte per texel, row by row.
pub type AlphaMap = (u32, u32, Vec<u8>);

/// Four children's boxes and what they are. 128 bytes, two cache lines.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Wide {
    lo: [Vec4; 3],
    hi: [Vec4; 3],
    /// Inner child: its node; leaf: its pack of four triangles.
    child: [u32; 4],
    /// Which slots are leaves (bit k for slot k); empty slots are not.
    leaves: u32,
}

impl Wide {
    /// Empty slots hold a box at +∞, which no ray with a finite reach enters.
    const EMPTY: Self = Self {
        lo: [Vec4::INFINITY; 3],
        hi: [Vec4::INFINITY; 3],
        child: [0; 4],
        leaves: 0,
    };
}

/// Four triangles as structure-of-arrays (x, y, z lanes): a vertex and two edges
/// each, tested against a ray in one SIMD pass. Unused lanes are degenerate.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(16))]
struct Pack {
    p0: [Vec4; 3],
    e1: [Vec4; 3],
    e2: [Vec4; 3],
}

impl Pack {
    const EMPTY: Self = Self {
        p0: [Vec4::ZERO; 3],
        e1: [Vec4::ZERO; 3],
        e2: [Vec4::ZERO; 3],
    };
}

#[derive(Debug, Clone, Copy)]
struct Cold {
    uv: [[f32; 2]; 3],
    cutout: u32,
}

const NO_CUTOUT: u32 = u32::MAX;
const BINS: usize = 16;
/// A leaf holds at most one pack: four triangles cost one SIMD test, so splitting
/// them further never pays.
const MAX_LEAF: usize = 4;
/// Below this depth splits follow the SAH; deeper, ranges are halved, which bounds
/// the depth (and so the walk's stack) for any input.
const SAH_DEPTH: usize = 28;
/// Ranges at most this large split by sorting their centroids (exact SAH on the
/// widest axis) rather than binning, whose fixed cost would dominate.
const SMALL_RANGE: usize = 32;
/// Ranges at least this large split at the middle of their centroids (one pass,
/// no bins): near the root the SAH's choice matters little, and the focused walks
/// of [`Bvh::occluded_near`] start below these levels anyway.
const MIDDLE_RANGE: usize = 4096;
/// Ranges at least this large build their two halves in parallel.
const PARALLEL_RANGE: usize = 1 << 14;
/// Room for the deepest walk: three pushes per wide level.
const STACK: usize = 3 * (SAH_DEPTH + 34);

/// An any-hit BVH over triangles.
#[derive(Debug)]
pub struct Bvh {
    wide: Vec<Wide>,
    packs: Vec<Pack>,
    /// Per pack, per lane: what only a hit needs.
    cold: Vec<[Cold; 4]>,
    /// The box around every triangle.
    bounds: Bounds,
    alpha: Vec<AlphaMap>,
}

#[derive(Debug, Clone, Copy)]
struct Bounds {
    lo: Vec3A,
    hi: Vec3A,
}

impl Bounds {
    const EMPTY: Self = Self {
        lo: Vec3A::splat(f32::INFINITY),
        hi: Vec3A::splat(f32::NEG_INFINITY),
    };

    fn grow(&mut self, other: &Bounds) {
        self.lo = self.lo.min(other.lo);
        self.hi = self.hi.max(other.hi);
    }

    fn grow_point(&mut self, p: Vec3A) {
        self.lo = self.lo.min(p);
        self.hi = self.hi.max(p);
    }

    fn union(mut self, other: &Bounds) -> Self {
        self.grow(other);
        self
    }

    fn half_area(&self) -> f32 {
        let e = (self.hi - self.lo).max(Vec3A::ZERO);
        e.x * e.y + e.y * e.z + e.z * e.x
    }
}

/// A node of the binary build tree; children are indices into the same list.
#[derive(Debug, Clone, Copy)]
struct BinNode {
    bounds: Bounds,
    /// Inner: children; leaf: `[first triangle, count]`.
    link: [u32; 2],
    leaf: bool,
}

/// A triangle's box and index, moved around as the build partitions ranges: the
/// passes over a range then read memory in order.
#[derive(Debug, Clone, Copy)]
#[repr(C)]
struct Item {
    lo: [f32; 3],
    index: u32,
    hi: [f32; 3],
    _pad: u32,
}

impl Item {
    #[inline(always)]
    fn bounds(&self) -> Bounds {
        Bounds {
            lo: self.lo.into(),
            hi: self.hi.into(),
        }
    }

    #[inline(always)]
    fn centroid(&self) -> Vec3A {
        (Vec3A::from(self.lo) + Vec3A::from(self.hi)) * 0.5
    }
}

/// What a range knows before it is split: its bounds and its centroids' bounds.
#[derive(Debug, Clone, Copy)]
struct RangeInfo {
    bounds: Bounds,
    cbounds: Bounds,
}

impl Bvh {
    /// Builds the tree. `alpha` holds the maps the triangles' `cutout` indices name.
    pub fn build(triangles: &[Triangle], alpha: Vec<AlphaMap>) -> Self {
        if triangles.is_empty() {
            return Self {
                wide: Vec::new(),
                packs: Vec::new(),
                cold: Vec::new(),
                bounds: Bounds::EMPTY,
                alpha,
            };
        }
        let mut items: Vec<Item> = triangles
            .par_iter()
            .enumerate()
            .map(|(index, t)| {
                let mut b = Bounds::EMPTY;
                for p in t.p {
                    b.grow_point(p.into());
                }
                Item {
                    lo: b.lo.into(),
                    index: index as u32,
                    hi: b.hi.into(),
                    _pad: 0,
                }
            })
            .collect();
        let info = range_info(&items);
        let binary = build_range(&mut items, info, 0, 0);
        let (wide, leaves) = collapse(&binary);
        // Each leaf is one pack (leaves hold at most four triangles).
        let lanes = |(first, count): (u32, u32)| {
            let range = &items[first as usize..(first + count) as usize];
            (0..4).map(move |lane| range.get(lane).map(|item| &triangles[item.index as usize]))
        };
        let packs = leaves
            .par_iter()
            .map(|&leaf| {
                let mut pack = Pack::EMPTY;
                for (lane, t) in lanes(leaf).enumerate() {
                    let Some(t) = t else { continue };
                    let e1 = t.p[1] - t.p[0];
                    let e2 = t.p[2] - t.p[0];
                    for axis in 0..3 {
                        pack.p0[axis][lane] = t.p[0][axis];
                        pack.e1[axis][lane] = e1[axis];
                        pack.e2[axis][lane] = e2[axis];
                    }
                }
                pack
            })
            .collect();
        let cold = leaves
            .par_iter()
            .map(|&leaf| {
                let mut lane = lanes(leaf).map(|t| match t {
                    Some(t) => Cold {
                        uv: t.uv,
                        cutout: t.cutout.unwrap_or(NO_CUTOUT),
                    },
                    None => Cold {
                        uv: [[0.0; 2]; 3],
                        cutout: NO_CUTOUT,
                    },
                });
                [0; 4].map(|_| lane.next().expect("four lanes"))
            })
            .collect();
        Self {
            wide,
            packs,
            cold,
            bounds: info.bounds,
            alpha,
        }
    }

    /// Nodes in the tree, four children each (for reports and tests).
    pub fn node_count(&self) -> usize {
        self.wide.len()
    }

    /// Möller–Trumbore on four triangles at once: a mask of the lanes hit closer
    /// than `tmax`, and their barycentrics.
    #[inline(always)]
    fn hit4(t: &Pack, o: &[Vec4; 3], d: &[Vec4; 3], tmax: Vec4) -> (u32, Vec4, Vec4) {
        let cross = |a: &[Vec4; 3], b: &[Vec4; 3]| {
            [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ]
        };
        let dot = |a: &[Vec4; 3], b: &[Vec4; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let p = cross(d, &t.e2);
        let det = dot(&t.e1, &p);
        let inv = Vec4::ONE / det;
        let s = [o[0] - t.p0[0], o[1] - t.p0[1], o[2] - t.p0[2]];
        let u = dot(&s, &p) * inv;
        let q = cross(&s, &t.e1);
        let v = dot(d, &q) * inv;
        let dist = dot(&t.e2, &q) * inv;
        // NaN lanes (degenerate triangles, empty lanes) fail every comparison.
        let mask = det.abs().cmpgt(Vec4::splat(1e-12))
            & u.cmpge(Vec4::ZERO)
            & v.cmpge(Vec4::ZERO)
            & (u + v).cmple(Vec4::ONE)
            & dist.cmpgt(Vec4::splat(1e-4))
            & dist.cmplt(tmax);
        (mask.bitmask(), u, v)
    }

    fn passes_cutout(&self, t: &Cold, u: f32, v: f32) -> bool {
        if t.cutout == NO_CUTOUT {
            return false;
        }
        let Some((w, h, alpha)) = self.alpha.get(t.cutout as usize) else {
            return false;
        };
        let w0 = 1.0 - u - v;
        let tu = t.uv[0][0] * w0 + t.uv[1][0] * u + t.uv[2][0] * v;
        let tv = t.uv[0][1] * w0 + t.uv[1][1] * u + t.uv[2][1] * v;
        let x = ((tu - tu.floor()) * *w as f32) as usize % (*w as usize).max(1);
        let y = ((tv - tv.floor()) * *h as f32) as usize % (*h as usize).max(1);
        alpha.get(y * *w as usize + x).is_some_and(|a| *a < 128)
    }

    /// Whether anything blocks the ray from `o` along unit `d` before `tmax`
    /// (`f32::INFINITY` for an unbounded ray).
    pub fn occluded(&self, o: Vec3, d: Vec3, tmax: f32) -> bool {
        self.occluded_by(&mut Walk::new(), o, d, tmax)
    }

    /// [`Bvh::occluded`] with a reusable walk (no stack to set up per ray).
    pub fn occluded_by(&self, walk: &mut Walk, o: Vec3, d: Vec3, tmax: f32) -> bool {
        match self.wide.first() {
            Some(root) => self.walk(root, &mut walk.stack, o, d, tmax),
            None => false,
        }
    }

    /// Prepares `walk` for rays from `o`: those that stay within `reach` of it
    /// then start below the root, at up to four subtrees whose boxes touch the
    /// cube around `o` (every triangle such a ray can reach is in one of them),
    /// tested as one node. See [`Bvh::occluded_near`].
    ///
    /// The start is found by opening, largest first, the subtrees that touch the
    /// cube, for as long as their touching children still fit in four slots.
    pub fn focus(&self, walk: &mut Walk, o: Vec3, reach: f32) {
        walk.at = o;
        walk.reach = reach;
        walk.near = Wide::EMPTY;
        if self.wide.is_empty() {
            return;
        }
        // Generous against rounding: the hit point of a ray of length `reach` is
        // within the cube mathematically; the margin covers the arithmetic.
        let margin = reach * 1e-3 + 1e-2;
        let q_lo = (o - Vec3::splat(reach + margin))
            .to_array()
            .map(Vec4::splat);
        let q_hi = (o + Vec3::splat(reach + margin))
            .to_array()
            .map(Vec4::splat);
        // The children of `w` whose boxes touch the cube, and their areas (−∞ for
        // leaves, which cannot be opened).
        let touching = |w: &Wide| {
            let mut m = 0xF;
            let mut e = [Vec4::ZERO; 3];
            for axis in 0..3 {
                m &=
                    w.lo[axis].cmple(q_hi[axis]).bitmask() & w.hi[axis].cmpge(q_lo[axis]).bitmask();
                e[axis] = w.hi[axis] - w.lo[axis];
            }
            let area = (e[0] * e[1] + e[1] * e[2] + e[2] * e[0]).to_array();
            let inner = [0, 1, 2, 3].map(|k| {
                if w.leaves & 1 << k == 0 {
                    area[k]
                } else {
                    f32::NEG_INFINITY
                }
            });
            (m, inner)
        };
        // The start entries: (node holding the entry, its slot, area if openable).
        let mut entries = [(0u32, 0u32, 0.0f32); 4];
        let mut len = 0;
        let (mut m, area) = touching(&self.wide[0]);
        while m != 0 {
            let k = m.trailing_zeros();
            m &= m - 1;
            entries[len] = (0, k, area[k as usize]);
            len += 1;
        }
        // Open the largest inner entry whose reachable children still fit.
        loop {
            let mut at = 0;
            for i in 1..len {
                if entries[i].2 > entries[at].2 {
                    at = i;
                }
            }
            if len == 0 || entries[at].2 == f32::NEG_INFINITY {
                break;
            }
            let (node, slot, _) = entries[at];
            let child = self.wide[node as usize].child[slot as usize];
            let (m, area) = touching(&self.wide[child as usize]);
            if len - 1 + m.count_ones() as usize > 4 {
                entries[at].2 = f32::NEG_INFINITY;
                continue;
            }
            len -= 1;
            entries[at] = entries[len];
            let mut m = m;
            while m != 0 {
                let k = m.trailing_zeros();
                m &= m - 1;
                entries[len] = (child, k, area[k as usize]);
                len += 1;
            }
        }
        for (slot, &(node, k, _)) in entries[..len].iter().enumerate() {
            let (src, k) = (&self.wide[node as usize], k as usize);
            let dst = &mut walk.near;
            for axis in 0..3 {
                dst.lo[axis][slot] = src.lo[axis][k];
                dst.hi[axis][slot] = src.hi[axis][k];
            }
            dst.child[slot] = src.child[k];
            dst.leaves |= (src.leaves >> k & 1) << slot;
        }
    }

    /// [`Bvh::occluded`] for a ray from the point `walk` was last focused on: the
    /// same answer, from fewer nodes when the ray's stretch inside the tree's box
    /// is within the focus's reach (beyond the box there is nothing to hit).
    ///
    /// The same answer, not just a close one: every leaf the walk from the root
    /// would enter lies under a start node, and the boxes from there down are
    /// tested with the same numbers; the levels skipped hold boxes that contain
    /// the start nodes', which a ray entering those enters too.
    pub fn occluded_near(&self, walk: &mut Walk, d: Vec3, tmax: f32) -> bool {
        let Walk {
            stack,
            near,
            at,
            reach,
        } = walk;
        let Some(root) = self.wide.first() else {
            return false;
        };
        if tmax.min(self.exit(*at, d)) > *reach {
            return self.walk(root, stack, *at, d, tmax);
        }
        // The same reach as from the root, so the boxes and triangles below the
        // start nodes are tested exactly as that walk would test them.
        self.walk(near, stack, *at, d, tmax)
    }

    /// How far a ray from `o` along `d` runs before it leaves the tree's box.
    fn exit(&self, o: Vec3, d: Vec3) -> f32 {
        let (o, d) = (Vec3A::from(o), Vec3A::from(d));
        let inv = Vec3A::ONE / d;
        let a = (self.bounds.lo - o) * inv;
        let b = (self.bounds.hi - o) * inv;
        // NaN (a zero direction on a face of the box) counts as unbounded.
        let far = a.max(b);
        [far.x, far.y, far.z]
            .into_iter()
            .map(|t| if t.is_nan() { f32::INFINITY } else { t })
            .fold(f32::INFINITY, f32::min)
    }

    #[inline(always)]
    fn walk(&self, start: &Wide, stack: &mut [u32; STACK], o: Vec3, d: Vec3, tmax: f32) -> bool {
        // No zero components: a finite reciprocal keeps NaN out of the slab tests.
        let away = |c: f32| {
            if c.abs() < 1e-12 {
                1e-12f32.copysign(c)
            } else {
                c
            }
        };
        let inv = Vec3A::ONE / Vec3A::new(away(d.x), away(d.y), away(d.z));
        let (o, d) = (Vec3A::from(o), Vec3A::from(d));
        let tmax = tmax.min(f32::MAX);
        let o_inv = o * inv;
        let (ix, iy, iz) = (Vec4::splat(inv.x), Vec4::splat(inv.y), Vec4::splat(inv.z));
        let (ox, oy, oz) = (
            Vec4::splat(o_inv.x),
            Vec4::splat(o_inv.y),
            Vec4::splat(o_inv.z),
        );
        // Per axis, the slab a ray enters first: the low plane when the direction
        // is positive. Lower bounds never exceed upper ones, so this picks what
        // `min` and `max` of the two would, bit for bit.
        let (sx, sy, sz) = (
            usize::from(inv.x < 0.0),
            usize::from(inv.y < 0.0),
            usize::from(inv.z < 0.0),
        );
        let limit = Vec4::splat(tmax);
        let o4 = [o.x, o.y, o.z].map(Vec4::splat);
        let d4 = [d.x, d.y, d.z].map(Vec4::splat);
        let mut sp = 0usize;
        let mut w = start;
        loop {
            let b = [&w.lo, &w.hi];
            let nx = b[sx][0] * ix - ox;
            let fx = b[1 - sx][0] * ix - ox;
            let ny = b[sy][1] * iy - oy;
            let fy = b[1 - sy][1] * iy - oy;
            let nz = b[sz][2] * iz - oz;
            let fz = b[1 - sz][2] * iz - oz;
            let near = nx.max(ny).max(nz.max(Vec4::ZERO));
            let far = fx.min(fy).min(fz.min(limit));
            let mask = near.cmple(far).bitmask();
            // Leaves first (a hit ends the walk), then inner children go on the
            // stack in slot order: most rays miss, and a miss visits every entered
            // box whatever the order, so sorting by distance costs more than it
            // saves.
            let mut leaves = mask & w.leaves;
            while leaves != 0 {
                let k = leaves.trailing_zeros() as usize;
                leaves &= leaves - 1;
                let a = w.child[k] as usize;
                let (mut hits, u, v) = Self::hit4(&self.packs[a], &o4, &d4, limit);
                while hits != 0 {
                    let lane = hits.trailing_zeros() as usize;
                    hits &= hits - 1;
                    if !self.passes_cutout(&self.cold[a][lane], u[lane], v[lane]) {
                        return true;
                    }
                }
            }
            let mut inner = mask & !w.leaves;
            while inner != 0 {
                let k = inner.trailing_zeros() as usize;
                inner &= inner - 1;
                // The tree's depth is bounded at build time, so the stack has room.
                stack[sp] = w.child[k];
                sp += 1;
            }
            if sp == 0 {
                return false;
            }
            sp -= 1;
            w = &self.wide[stack[sp] as usize];
        }
    }
}

/// Scratch for walking the tree: the stack, and where [`Bvh::focus`] says rays
/// from one point start (a node of its own, the start subtrees as children).
#[derive(Debug, Clone)]
pub struct Walk {
    stack: [u32; STACK],
    near: Wide,
    at: Vec3,
    reach: f32,
}

impl Walk {
    pub fn new() -> Self {
        Self {
            stack: [0; STACK],
            near: Wide::EMPTY,
            at: Vec3::ZERO,
            reach: 0.0,
        }
    }
}

impl Default for Walk {
    fn default() -> Self {
        Self::new()
    }
}

/// Where a range splits: the items before `mid` go left, and what each side knows.
struct Split {
    mid: usize,
    left: RangeInfo,
    right: RangeInfo,
}

/// How a range splits, or `None` for a leaf. Partitions `items` in place.
fn split_range(items: &mut [Item], info: &RangeInfo, depth: usize) -> Option<Split> {
    let count = items.len();
    if count <= MAX_LEAF {
        return None;
    }
    if depth < SAH_DEPTH {
        let split = if count <= SMALL_RANGE {
            sorted_split(items, info)
        } else if count >= MIDDLE_RANGE {
            middle_split(items, info).or_else(|| sah_split(items, info))
        } else {
            sah_split(items, info)
        };
        if split.is_some() {
            return split;
        }
    }
    // No useful SAH plane (coincident centroids) or too deep: halve big ranges.
    (count > MAX_LEAF || depth >= SAH_DEPTH).then(|| median_split(items, info))
}

/// A binary tree built in parts: large ranges build their halves in parallel,
/// each into its own list, joined once at the end.
enum Part {
    Nodes(Vec<BinNode>),
    Split(Bounds, Box<(Part, Part)>),
}

impl Part {
    /// Appends this part's nodes to `out`, its root first, children as indices.
    fn flatten_into(self, out: &mut Vec<BinNode>) {
        match self {
            Part::Nodes(nodes) => {
                let base = out.len() as u32;
                out.extend(nodes.into_iter().map(|mut b| {
                    if !b.leaf {
                        b.link = b.link.map(|c| c + base);
                    }
                    b
                }));
            }
            Part::Split(bounds, halves) => {
                let at = out.len();
                out.push(BinNode {
                    bounds,
                    link: [0, 0],
                    leaf: false,
                });
                let (l, r) = *halves;
                let left = out.len() as u32;
                l.flatten_into(out);
                let right = out.len() as u32;
                r.flatten_into(out);
                out[at].link = [left, right];
            }
        }
    }
}

/// Builds the binary tree over `items`, which start at `offset` in the final order;
/// node 0 is the root and children are indices in the result. Large ranges build
/// their halves in parallel; the result does not depend on it.
fn build_range(items: &mut [Item], info: RangeInfo, offset: usize, depth: usize) -> Vec<BinNode> {
    let part = build_part(items, info, offset, depth);
    let mut nodes = Vec::with_capacity(items.len() / 2 * 2 + 1);
    part.flatten_into(&mut nodes);
    nodes
}

fn build_part(items: &mut [Item], info: RangeInfo, offset: usize, depth: usize) -> Part {
    if items.len() < PARALLEL_RANGE {
        return Part::Nodes(build_sequential(items, info, offset, depth));
    }
    let Some(split) = split_range(items, &info, depth) else {
        return Part::Nodes(vec![BinNode {
            bounds: info.bounds,
            link: [offset as u32, items.len() as u32],
            leaf: true,
        }]);
    };
    let (left, right) = items.split_at_mut(split.mid);
    let halves = rayon::join(
        || build_part(left, split.left, offset, depth + 1),
        || build_part(right, split.right, offset + split.mid, depth + 1),
    );
    Part::Split(info.bounds, Box::new(halves))
}

fn build_sequential(
    items: &mut [Item],
    info: RangeInfo,
    offset: usize,
    depth: usize,
) -> Vec<BinNode> {
    let mut nodes = vec![BinNode {
        bounds: info.bounds,
        link: [0, 0],
        leaf: true,
    }];
    // (node, start, end, what the range knows, depth) still to build.
    let mut todo = vec![(0usize, 0usize, items.len(), info, depth)];
    while let Some((n, start, end, info, depth)) = todo.pop() {
        nodes[n].bounds = info.bounds;
        match split_range(&mut items[start..end], &info, depth) {
            Some(split) => {
                let left = nodes.len();
                nodes.push(nodes[n]);
                nodes.push(nodes[n]);
                nodes[n].link = [left as u32, left as u32 + 1];
                nodes[n].leaf = false;
                let mid = start + split.mid;
                todo.push((left + 1, mid, end, split.right, depth + 1));
                todo.push((left, start, mid, split.left, depth + 1));
            }
            None => {
                nodes[n].link = [(offset + start) as u32, (end - start) as u32];
                nodes[n].leaf = true;
            }
        }
    }
    nodes
}

/// The bounds of a range's triangles and of their centroids.
fn range_info(items: &[Item]) -> RangeInfo {
    let one = |chunk: &[Item]| {
        let (mut bounds, mut cbounds) = (Bounds::EMPTY, Bounds::EMPTY);
        for item in chunk {
            bounds.grow(&item.bounds());
            cbounds.grow_point(item.centroid());
        }
        RangeInfo { bounds, cbounds }
    };
    let join = |a: RangeInfo, b: RangeInfo| RangeInfo {
        bounds: a.bounds.union(&b.bounds),
        cbounds: a.cbounds.union(&b.cbounds),
    };
    // Min and max are exact, so the parallel reduction gives the sequential answer.
    if items.len() >= PARALLEL_RANGE {
        items
            .par_chunks(PARALLEL_RANGE / 4)
            .map(one)
            .reduce(|| one(&[]), join)
    } else {
        one(items)
    }
}

/// Splits a large range at the middle of its centroids' widest axis, in one pass
/// that also gathers each side's bounds; `None` when a side would be empty.
fn middle_split(items: &mut [Item], info: &RangeInfo) -> Option<Split> {
    let e = info.cbounds.hi - info.cbounds.lo;
    let axis = if e.x >= e.y && e.x >= e.z {
        0
    } else if e.y >= e.z {
        1
    } else {
        2
    };
    let plane = info.cbounds.lo[axis] + e[axis] * 0.5;
    let empty = RangeInfo {
        bounds: Bounds::EMPTY,
        cbounds: Bounds::EMPTY,
    };
    let (mut left, mut right) = (empty, empty);
    let (mut i, mut j) = (0usize, items.len());
    while i < j {
        let item = items[i];
        let c = item.centroid();
        if c[axis] < plane {
            left.bounds.grow(&item.bounds());
            left.cbounds.grow_point(c);
            i += 1;
        } else {
            right.bounds.grow(&item.bounds());
            right.cbounds.grow_point(c);
            j -= 1;
            items.swap(i, j);
        }
    }
    (i > 0 && i < items.len()).then_some(Split {
        mid: i,
        left,
        right,
    })
}

/// Splits a range at its median centroid along the widest centroid axis.
fn median_split(items: &mut [Item], info: &RangeInfo) -> Split {
    let e = info.cbounds.hi - info.cbounds.lo;
    let axis = if e.x >= e.y && e.x >= e.z {
        0
    } else if e.y >= e.z {
        1
    } else {
        2
    };
    let mid = items.len() / 2;
    items.select_nth_unstable_by(mid, |a, b| {
        a.centroid()[axis]
            .total_cmp(&b.centroid()[axis])
            .then(a.index.cmp(&b.index))
    });
    let (left, right) = items.split_at(mid);
    Split {
        mid,
        left: range_info(left),
        right: range_info(right),
    }
}

#[derive(Debug, Clone, Copy)]
struct Bin {
    bounds: Bounds,
    cbounds: Bounds,
    count: u32,
}

impl Bin {
    const EMPTY: Self = Self {
        bounds: Bounds::EMPTY,
        cbounds: Bounds::EMPTY,
        count: 0,
    };

    fn add(&mut self, other: &Bin) {
        self.bounds.grow(&other.bounds);
        self.cbounds.grow(&other.cbounds);
        self.count += other.count;
    }
}

/// The best binned SAH split, partitioned in place; `None` when no plane separates
/// the centroids.
fn sah_split(items: &mut [Item], info: &RangeInfo) -> Option<Split> {
    let lo = info.cbounds.lo;
    let extent = info.cbounds.hi - lo;
    let scale = Vec3A::splat(BINS as f32) / extent.max(Vec3A::splat(f32::MIN_POSITIVE));
    let bin_of =
        |c: Vec3A, axis: usize| (((c[axis] - lo[axis]) * scale[axis]) as usize).min(BINS - 1);
    // Axes much shorter than the longest rarely give the best plane; skipping them
    // makes the build's main pass up to three times cheaper.
    let binned = extent
        .cmpge(Vec3A::splat(extent.max_element() * 0.25))
        .into();
    let binned: [bool; 3] = binned;
    type Bins = [[Bin; BINS]; 3];
    let add = |bins: &mut Bins, item: &Item| {
        let (b, c) = (item.bounds(), item.centroid());
        for (axis, bins) in bins.iter_mut().enumerate() {
            if !binned[axis] {
                continue;
            }
            let bin = &mut bins[bin_of(c, axis)];
            bin.bounds.grow(&b);
            bin.cbounds.grow_point(c);
            bin.count += 1;
        }
    };
    let merge = |mut a: Bins, b: Bins| {
        for (x, y) in a.iter_mut().flatten().zip(b.iter().flatten()) {
            x.add(y);
        }
        a
    };
    // Neighbouring items mostly fall in the same bin: alternating between two
    // sets of bins keeps each update from waiting on the one before.
    let bin = |chunk: &[Item]| {
        let mut even: Bins = [[Bin::EMPTY; BINS]; 3];
        let mut odd: Bins = [[Bin::EMPTY; BINS]; 3];
        let mut pairs = chunk.chunks_exact(2);
        for pair in &mut pairs {
            add(&mut even, &pair[0]);
            add(&mut odd, &pair[1]);
        }
        for item in pairs.remainder() {
            add(&mut even, item);
        }
        merge(even, odd)
    };
    // Min, max and counts are exact, so the parallel reduction gives the same bins.
    let bins = if items.len() >= PARALLEL_RANGE {
        items
            .par_chunks(PARALLEL_RANGE / 4)
            .map(bin)
            .reduce(|| [[Bin::EMPTY; BINS]; 3], merge)
    } else {
        bin(items)
    };
    let count = items.len() as u32;
    // (cost, axis, last bin on the left)
    let mut best: Option<(f32, usize, usize)> = None;
    for (axis, bins) in bins.iter().enumerate() {
        if !binned[axis] || extent[axis] <= 0.0 {
            continue;
        }
        // Sweep from the right, then from the left, scoring each plane.
        let mut right_cost = [0.0f32; BINS];
        let mut acc = Bin::EMPTY;
        for b in (1..BINS).rev() {
            acc.add(&bins[b]);
            right_cost[b] = acc.bounds.half_area() * acc.count as f32;
        }
        let mut acc = Bin::EMPTY;
        for b in 0..BINS - 1 {
            acc.add(&bins[b]);
            let cost = acc.bounds.half_area() * acc.count as f32 + right_cost[b + 1];
            if acc.count > 0 && acc.count < count && best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, b));
            }
        }
    }
    let (_, axis, last) = best?;
    let (mut left, mut right) = (Bin::EMPTY, Bin::EMPTY);
    for (b, bin) in bins[axis].iter().enumerate() {
        if b <= last {
            left.add(bin)
        } else {
            right.add(bin)
        }
    }
    // The same bin formula as above, so each side gets exactly its bins' items.
    let mid = partition(items, |item| bin_of(item.centroid(), axis) <= last);
    Some(Split {
        mid,
        left: RangeInfo {
            bounds: left.bounds,
            cbounds: left.cbounds,
        },
        right: RangeInfo {
            bounds: right.bounds,
            cbounds: right.cbounds,
        },
    })
}

/// The exact SAH split of a small range along its widest centroid axis.
fn sorted_split(items: &mut [Item], info: &RangeInfo) -> Option<Split> {
    let n = items.len();
    let e = info.cbounds.hi - info.cbounds.lo;
    let axis = if e.x >= e.y && e.x >= e.z {
        0
    } else if e.y >= e.z {
        1
    } else {
        2
    };
    items.sort_unstable_by(|a, b| {
        a.centroid()[axis]
            .total_cmp(&b.centroid()[axis])
            .then(a.index.cmp(&b.index))
    });
    let mut right_area = [0.0f32; SMALL_RANGE + 1];
    let mut acc = Bounds::EMPTY;
    for i in (1..n).rev() {
        acc.grow(&items[i].bounds());
        right_area[i] = acc.half_area() * (n - i) as f32;
    }
    let mut acc = Bounds::EMPTY;
    let mut best = (f32::INFINITY, n / 2);
    for i in 1..n {
        acc.grow(&items[i - 1].bounds());
        let cost = acc.half_area() * i as f32 + right_area[i];
        if cost < best.0 {
            best = (cost, i);
        }
    }
    let (left, right) = items.split_at(best.1);
    Some(Split {
        mid: best.1,
        left: range_info(left),
        right: range_info(right),
    })
}

/// Moves the items for which `left` holds to the front, keeping nothing else
/// stable; returns how many there are.
fn partition(items: &mut [Item], left: impl Fn(&Item) -> bool) -> usize {
    let (mut i, mut j) = (0usize, items.len());
    while i < j {
        if left(&items[i]) {
            i += 1;
        } else {
            j -= 1;
            items.swap(i, j);
        }
    }
    i
}

/// Collapses the binary tree into the 4-wide one: each wide node takes a binary
/// node's children and keeps opening its largest inner child until it has four.
/// Leaves become packs in the order returned, as (first item, count).
fn collapse(binary: &[BinNode]) -> (Vec<Wide>, Vec<(u32, u32)>) {
    let mut wide = vec![Wide::EMPTY];
    let mut leaves = Vec::with_capacity(binary.len() / 2 + 1);
    // (wide node to fill, binary node whose subtree it holds)
    let mut todo = vec![(0usize, 0usize)];
    while let Some((w, b)) = todo.pop() {
        let root = &binary[b];
        let mut kids = [b, 0, 0, 0];
        let mut len = 1;
        if !root.leaf {
            kids[..2].copy_from_slice(&root.link.map(|c| c as usize));
            len = 2;
        }
        while len < 4 {
            let open = (0..len)
                .filter(|&at| !binary[kids[at]].leaf)
                .max_by(|&a, &b| {
                    binary[kids[a]]
                        .bounds
                        .half_area()
                        .total_cmp(&binary[kids[b]].bounds.half_area())
                });
            let Some(at) = open else { break };
            let [l, r] = binary[kids[at]].link;
            kids.copy_within(at + 1..len, at + 2);
            kids[at] = l as usize;
            kids[at + 1] = r as usize;
            len += 1;
        }
        let mut node = Wide::EMPTY;
        for (slot, &k) in kids[..len].iter().enumerate() {
            let kid = &binary[k];
            for axis in 0..3 {
                node.lo[axis][slot] = kid.bounds.lo[axis];
                node.hi[axis][slot] = kid.bounds.hi[axis];
            }
            if kid.leaf {
                node.child[slot] = leaves.len() as u32;
                node.leaves |= 1 << slot;
                leaves.push((kid.link[0], kid.link[1]));
            } else {
                node.child[slot] = wide.len() as u32;
                wide.push(Wide::EMPTY);
                todo.push((node.child[slot] as usize, k));
            }
        }
        wide[w] = node;
    }
    (wide, leaves)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Hot {
        p0: Vec3A,
        e1: Vec3A,
        e2: Vec3A,
    }

    /// Möller–Trumbore on one triangle (the reference the tests check `hit4` by).
    fn hit(t: &Hot, o: Vec3A, d: Vec3A, tmax: f32) -> Option<(f32, f32)> {
        let p = d.cross(t.e2);
        let det = t.e1.dot(p);
        if det.abs() < 1e-12 {
            return None;
        }
        let inv = 1.0 / det;
        let s = o - t.p0;
        let u = s.dot(p) * inv;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = s.cross(t.e1);
        let v = d.dot(q) * inv;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        let dist = t.e2.dot(q) * inv;
        (dist > 1e-4 && dist < tmax).then_some((u, v))
    }

    fn rng(seed: &mut u32) -> f32 {
        *seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (*seed >> 8) as f32 / (1u32 << 24) as f32
    }

    fn brute(tris: &[Triangle], o: Vec3, d: Vec3, tmax: f32) -> bool {
        tris.iter().any(|t| {
            let p0 = Vec3A::from(t.p[0]);
            let h = Hot {
                p0,
                e1: Vec3A::from(t.p[1]) - p0,
                e2: Vec3A::from(t.p[2]) - p0,
            };
            hit(&h, o.into(), d.into(), tmax).is_some()
        })
    }

    #[test]
    fn the_tree_answers_like_testing_every_triangle() {
        let mut seed = 7u32;
        let mut tris = Vec::new();
        for _ in 0..2_000 {
            let c = Vec3::new(rng(&mut seed), rng(&mut seed), rng(&mut seed)) * 20.0;
            let p = [0, 1, 2].map(|_| {
                c + Vec3::new(rng(&mut seed), rng(&mut seed), rng(&mut seed)) - Vec3::splat(0.5)
            });
            tris.push(Triangle {
                p,
                uv: [[0.0; 2]; 3],
                cutout: None,
            });
        }
        let bvh = Bvh::build(&tris, Vec::new());
        assert!(bvh.node_count() > 2_000 / MAX_LEAF / 4);
        let (mut hits, mut misses) = (0, 0);
        for _ in 0..4_000 {
            let o = Vec3::new(rng(&mut seed), rng(&mut seed), rng(&mut seed)) * 20.0;
            let d = (Vec3::new(rng(&mut seed), rng(&mut seed), rng(&mut seed)) - 0.5)
                .normalize_or(Vec3::X);
            let tmax = rng(&mut seed) * 10.0;
            let expected = brute(&tris, o, d, tmax);
            assert_eq!(bvh.occluded(o, d, tmax), expected, "ray {o} {d} {tmax}");
            if expected { hits += 1 } else { misses += 1 }
        }
        // Both answers were exercised.
        assert!(hits > 100 && misses > 100, "{hits} hits, {misses} misses");
    }

    #[test]
    fn a_focused_walk_answers_like_testing_every_triangle() {
        // A bumpy sheet of small triangles (like the ground the bake lights) plus
        // scattered ones above it, so focused walks start deep in the tree.
        let mut seed = 11u32;
        let mut tris = Vec::new();
        let h = |x: i32, z: i32| ((x * 7 + z * 13).rem_euclid(11)) as f32 * 0.02;
        for z in 0..40 {
            for x in 0..40 {
                let p = |dx: i32, dz: i32| {
                    Vec3::new(
                        (x + dx) as f32 * 0.25,
                        h(x + dx, z + dz),
                        (z + dz) as f32 * 0.25,
                    )
                };
                for p in [[p(0, 0), p(0, 1), p(1, 0)], [p(1, 0), p(0, 1), p(1, 1)]] {
                    tris.push(Triangle {
                        p,
                        uv: [[0.0; 2]; 3],
                        cutout: None,
                    });
                }
            }
        }
        for _ in 0..300 {
            let c = Vec3::new(
                rng(&mut seed) * 10.0,
                rng(&mut seed) * 2.0,
                rng(&mut seed) * 10.0,
            );
            let p = [0, 1, 2].map(|_| {
                c + (Vec3::new(rng(&mut seed), rng(&mut seed), rng(&mut seed)) - 0.5) * 0.6
            });
            tris.push(Triangle {
                p,
                uv: [[0.0; 2]; 3],
                cutout: None,
            });
        }
        let bvh = Bvh::build(&tris, Vec::new());
        let mut walk = Walk::new();
        let (mut hits, mut misses, mut near) = (0, 0, 0);
        for _ in 0..400 {
            let (x, z) = (rng(&mut seed) * 10.0, rng(&mut seed) * 10.0);
            let o = Vec3::new(x, h((x * 4.0) as i32, (z * 4.0) as i32) + 0.05, z);
            let reach = [0.3, 1.0, 2.5][(rng(&mut seed) * 3.0) as usize % 3];
            bvh.focus(&mut walk, o, reach);
            for _ in 0..8 {
                let d = (Vec3::new(rng(&mut seed), rng(&mut seed), rng(&mut seed)) - 0.5)
                    .normalize_or(Vec3::Y);
                // Within the reach, beyond it, and unbounded (the sun's).
                for tmax in [reach * rng(&mut seed), reach, reach * 3.0, f32::INFINITY] {
                    let expected = brute(&tris, o, d, tmax);
                    assert_eq!(
                        bvh.occluded_near(&mut walk, d, tmax),
                        expected,
                        "ray {o} {d} {tmax}, focused on {reach}"
                    );
                    assert_eq!(bvh.occluded(o, d, tmax), expected);
                    if expected {
                        hits += 1
                    } else {
                        misses += 1
                    }
                    near += usize::from(tmax.min(bvh.exit(o, d)) <= reach);
                }
            }
        }
        assert!(hits > 500 && misses > 500, "{hits} hits, {misses} misses");
        // Most rays took the focused walk.
        assert!(near > 6_000, "{near} focused");
    }

    #[test]
    fn a_focus_on_an_empty_tree_or_far_away_finds_nothing() {
        let empty = Bvh::build(&[], Vec::new());
        let mut walk = Walk::new();
        empty.focus(&mut walk, Vec3::ZERO, 1.0);
        assert!(!empty.occluded_near(&mut walk, Vec3::Y, 1.0));
        let tri = Triangle {
            p: [Vec3::ZERO, Vec3::X, Vec3::Z],
            uv: [[0.0; 2]; 3],
            cutout: None,
        };
        let bvh = Bvh::build(&[tri], Vec::new());
        bvh.focus(&mut walk, Vec3::new(0.2, 50.0, 0.2), 1.0);
        assert!(!bvh.occluded_near(&mut walk, Vec3::NEG_Y, 1.0));
        // Longer than the reach: the walk from the root finds the triangle.
        assert!(bvh.occluded_near(&mut walk, Vec3::NEG_Y, f32::INFINITY));
    }

    #[test]
    fn a_transparent_cutout_texel_lets_the_ray_through() {
        let quad = |cutout| {
            [
                Triangle {
                    p: [
                        Vec3::new(-1.0, 1.0, -1.0),
                        Vec3::new(1.0, 1.0, -1.0),
                        Vec3::new(-1.0, 1.0, 1.0),
                    ],
                    uv: [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
                    cutout,
                },
                Triangle {
                    p: [
                        Vec3::new(1.0, 1.0, -1.0),
                        Vec3::new(1.0, 1.0, 1.0),
                        Vec3::new(-1.0, 1.0, 1.0),
                    ],
                    uv: [[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
                    cutout,
                },
            ]
        };
        // Left half transparent, right half opaque.
        let alpha = vec![(2, 1, vec![0, 255])];
        let bvh = Bvh::build(&quad(Some(0)), alpha);
        assert!(!bvh.occluded(Vec3::new(-0.5, 0.0, 0.0), Vec3::Y, 10.0));
        assert!(bvh.occluded(Vec3::new(0.5, 0.0, 0.0), Vec3::Y, 10.0));
        let solid = Bvh::build(&quad(None), Vec::new());
        assert!(solid.occluded(Vec3::new(-0.5, 0.0, 0.0), Vec3::Y, 10.0));
        assert!(
            !solid.occluded(Vec3::new(-0.5, 0.0, 0.0), Vec3::Y, 0.5),
            "too short"
        );
    }

    #[test]
    fn the_same_triangles_build_the_same_tree() {
        let mut seed = 3u32;
        let tris: Vec<Triangle> = (0..500)
            .map(|_| Triangle {
                p: [0, 1, 2].map(|_| Vec3::new(rng(&mut seed), rng(&mut seed), rng(&mut seed))),
                uv: [[0.0; 2]; 3],
                cutout: None,
            })
            .collect();
        let a = Bvh::build(&tris, Vec::new());
        let b = Bvh::build(&tris, Vec::new());
        assert_eq!(a.wide.len(), b.wide.len());
        for (x, y) in a.wide.iter().zip(&b.wide) {
            assert_eq!(
                (x.lo, x.hi, x.child, x.leaves),
                (y.lo, y.hi, y.child, y.leaves)
            );
        }
    }
}
