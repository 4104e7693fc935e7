//! Where a player starts in a level that says nothing of it (a glTF carries no
//! player spawn): a place a player could stand on and see the level from.
//!
//! The walkable surfaces (upward-facing within 45°) are laid on a grid seen from
//! above; neighbouring cells whose floors differ by a step or less join, and the
//! joined pieces are the level's floors. A roof, a table top, a tree stump or the
//! top of a sphere is a small piece of its own; the ground a player walks on is
//! the largest. A few places on the largest pieces (with head room) are then
//! looked around from eye height: rays that meet the front of a face count for
//! the place, rays that meet a face from behind (inside a closed mesh, which the
//! device culls: nothing would be drawn) count against it, rays into the sky
//! count nothing. The best place wins, facing the level's middle (or, standing
//! there, the way that sees farthest).
//!
//! Written here: a 2-D grid over the triangles is all the ray casts need (a few
//! hundred rays); the bake's BVH answers only whether a ray is blocked.

use pebble_model::glam::{Vec2, Vec3};

/// How the player's eye stands above the floor.
pub const EYE_HEIGHT: f32 = pebble_play::walk::EYE_HEIGHT;
/// Room a standing player needs over the floor.
const HEAD_ROOM: f32 = 2.0;
/// The highest step a walk climbs between neighbouring cells (a slope of 35°
/// between the middles of larger cells climbs more).
const STEP: f32 = 0.6;
/// Cells a side at most (a large level gets larger cells).
const GRID: usize = 192;
/// The smallest cell side, metres.
const MIN_CELL: f32 = 0.5;
/// Floors per cell kept (storeys).
const FLOORS_PER_CELL: usize = 4;

/// A start chosen: where the eye is, which way it looks (yaw 0 looks down −Z,
/// positive turns right, as the map's spawn takes it), and why, to be said.
#[derive(Debug, Clone, PartialEq)]
pub struct Start {
    pub eye: Vec3,
    pub yaw: f32,
    pub why: String,
    /// A face lies straight above the eye: the start is indoors (a sun does not
    /// reach it).
    pub roofed: bool,
}

/// The yaw that looks from `from` toward `to` (seen from above).
pub fn yaw_toward(from: Vec3, to: Vec3) -> f32 {
    let d = to - from;
    d.x.atan2(-d.z)
}

/// Chooses a start among `triangles` (world positions); `None` when nothing in
/// them is walkable.
pub fn choose(triangles: &[[Vec3; 3]]) -> Option<Start> {
    let bounds = level_bounds(triangles);
    let grid = Grid::new(triangles, Some(bounds))?;
    let floors = grid.floors(&bounds);
    let pieces = floors.pieces();
    let biggest = pieces.first()?.cells.len() as f32;
    let centre = area_centre(triangles)?;
    let middle = (bounds.0 + bounds.1) * 0.5;
    let radius = ((bounds.1 - bounds.0) * 0.5).length().max(1.0);
    let mut best: Option<(f32, Vec3, f32, usize, bool)> = None;
    // The four largest pieces, a few places on each.
    for (rank, piece) in pieces.iter().take(4).enumerate() {
        let share = piece.cells.len() as f32 / biggest;
        if rank > 0 && share < 0.05 {
            break;
        }
        for feet in floors.places(piece, &grid, 6) {
            let eye = feet + Vec3::Y * EYE_HEIGHT;
            let (view, yaw, facing) = grid.look_around(eye, centre);
            // The largest floor counts, what is seen from it counts more, and
            // the middle of the level is a better start than its edge.
            let off = (Vec2::new(eye.x, eye.z) - middle).length() / radius;
            let score = view * (0.5 + 0.5 * share.sqrt()) * (1.0 - 0.3 * off.min(1.0));
            if best.as_ref().is_none_or(|b| score > b.0) {
                best = Some((score, eye, yaw, rank, facing));
            }
        }
    }
    let (score, eye, yaw, rank, facing) = best?;
    let looking = if facing {
        "facing the level's middle"
    } else {
        "looking the clearest way near the level's middle"
    };
    let roofed = grid.covered(eye, f32::INFINITY);
    let area = pieces[rank].cells.len() as f32 * grid.cell * grid.cell;
    let floor = if rank == 0 {
        "the largest floor".to_owned()
    } else {
        format!("a floor of {area:.0} m² (the level shows better from it than from the largest)")
    };
    Some(Start {
        eye,
        yaw,
        why: format!(
            "on {floor} ({area:.0} m² a player can walk), with head room, {looking} (its view of the level scores {:.0} %: faces in front, many of them, room to look)",
            (score.max(0.0) * 100.0).min(100.0)
        ),
        roofed,
    })
}

/// Whether a face of `triangles` lies straight above `eye` (indoors).
pub fn roofed(triangles: &[[Vec3; 3]], eye: Vec3) -> bool {
    Grid::new(triangles, None).is_some_and(|g| g.covered(eye, f32::INFINITY))
}

/// Where the level is, seen from above: the middle 95 % of the triangles' centres
/// along x and along z, and a tenth more each way. A 2 km ocean or ground plane
/// of two triangles around a 500 m island is backdrop, not where a player starts.
fn level_bounds(triangles: &[[Vec3; 3]]) -> (Vec2, Vec2) {
    let centres: Vec<Vec2> = triangles
        .iter()
        .map(|[a, b, c]| (*a + *b + *c) / 3.0)
        .filter(|c| c.is_finite())
        .map(|c| Vec2::new(c.x, c.z))
        .collect();
    if centres.is_empty() {
        return (Vec2::splat(f32::NEG_INFINITY), Vec2::splat(f32::INFINITY));
    }
    let range = |pick: fn(&Vec2) -> f32| {
        let mut v: Vec<f32> = centres.iter().map(pick).collect();
        v.sort_by(f32::total_cmp);
        let at = |q: f32| v[((v.len() - 1) as f32 * q).round() as usize];
        let (lo, hi) = (at(0.025), at(0.975));
        let margin = (hi - lo) * 0.1;
        (lo - margin, hi + margin)
    };
    let (x, z) = (range(|c| c.x), range(|c| c.y));
    (Vec2::new(x.0, z.0), Vec2::new(x.1, z.1))
}

/// The area-weighted middle of every triangle.
fn area_centre(triangles: &[[Vec3; 3]]) -> Option<Vec3> {
    let mut sum = Vec3::ZERO;
    let mut area = 0.0;
    for [a, b, c] in triangles {
        let w = (*b - *a).cross(*c - *a).length() * 0.5;
        if w.is_finite() {
            sum += (*a + *b + *c) / 3.0 * w;
            area += w;
        }
    }
    (area > 0.0).then(|| sum / area)
}

/// The triangles on a grid seen from above: each cell lists the triangles whose
/// box covers it.
struct Grid<'a> {
    triangles: &'a [[Vec3; 3]],
    lo: Vec2,
    cell: f32,
    size: [usize; 2],
    /// Per cell, the triangles in it: `cells[i]..cells[i + 1]` in `items`.
    starts: Vec<u32>,
    items: Vec<u32>,
    y_range: (f32, f32),
}

impl<'a> Grid<'a> {
    /// The grid over `triangles`, seen from above within `within` (x, z) where
    /// given (the level's own bounds: cells as fine as the level, not as the
    /// backdrop around it).
    fn new(triangles: &'a [[Vec3; 3]], within: Option<(Vec2, Vec2)>) -> Option<Self> {
        let finite = |t: &[Vec3; 3]| t.iter().all(|p| p.is_finite());
        let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
        for t in triangles.iter().filter(|t| finite(t)) {
            for p in t {
                lo = lo.min(*p);
                hi = hi.max(*p);
            }
        }
        if !lo.is_finite() || !hi.is_finite() {
            return None;
        }
        if let Some((a, b)) = within
            && a.is_finite()
            && b.is_finite()
        {
            lo = Vec3::new(lo.x.max(a.x), lo.y, lo.z.max(a.y));
            hi = Vec3::new(hi.x.min(b.x), hi.y, hi.z.min(b.y));
            if lo.x > hi.x || lo.z > hi.z {
                return None;
            }
        }
        let extent = (hi.x - lo.x).max(hi.z - lo.z);
        let cell = (extent / GRID as f32).max(MIN_CELL);
        let size = [
            (((hi.x - lo.x) / cell) as usize + 1).min(GRID + 1),
            (((hi.z - lo.z) / cell) as usize + 1).min(GRID + 1),
        ];
        let lo2 = Vec2::new(lo.x, lo.z);
        let index = |p: Vec3| {
            let q = (Vec2::new(p.x, p.z) - lo2) / cell;
            [
                (q.x.max(0.0) as usize).min(size[0] - 1),
                (q.y.max(0.0) as usize).min(size[1] - 1),
            ]
        };
        // Two passes: count per cell, then fill.
        let mut counts = vec![0u32; size[0] * size[1] + 1];
        let span = |t: &[Vec3; 3]| {
            let a = index(t[0].min(t[1]).min(t[2]));
            let b = index(t[0].max(t[1]).max(t[2]));
            (a, b)
        };
        for t in triangles.iter().filter(|t| finite(t)) {
            let (a, b) = span(t);
            for z in a[1]..=b[1] {
                for x in a[0]..=b[0] {
                    counts[z * size[0] + x] += 1;
                }
            }
        }
        let mut starts = Vec::with_capacity(counts.len());
        let mut total = 0u32;
        for c in &counts {
            starts.push(total);
            total += c;
        }
        let mut fill = starts.clone();
        let mut items = vec![0u32; total as usize];
        for (k, t) in triangles.iter().enumerate().filter(|(_, t)| finite(t)) {
            let (a, b) = span(t);
            for z in a[1]..=b[1] {
                for x in a[0]..=b[0] {
                    let i = z * size[0] + x;
                    items[fill[i] as usize] = k as u32;
                    fill[i] += 1;
                }
            }
        }
        Some(Self {
            triangles,
            lo: lo2,
            cell,
            size,
            starts,
            items,
            y_range: (lo.y, hi.y),
        })
    }

    fn in_cell(&self, x: usize, z: usize) -> &[u32] {
        let i = z * self.size[0] + x;
        &self.items[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    fn centre_of(&self, x: usize, z: usize) -> Vec2 {
        self.lo + (Vec2::new(x as f32, z as f32) + 0.5) * self.cell
    }

    /// The walkable floors under each cell's middle: every face over the middle
    /// found once, in height order, a walkable one a floor when the next face up
    /// leaves head room.
    fn floors(&self, within: &(Vec2, Vec2)) -> Floors {
        let mut heights = vec![[f32::NAN; FLOORS_PER_CELL]; self.size[0] * self.size[1]];
        // Each face over the cell's middle: its height, whether a player can
        // stand on it, whether its front faces down (a ceiling).
        let mut over: Vec<(f32, bool, bool)> = Vec::new();
        for z in 0..self.size[1] {
            for x in 0..self.size[0] {
                let c = self.centre_of(x, z);
                if c.cmplt(within.0).any() || c.cmpgt(within.1).any() {
                    continue;
                }
                over.clear();
                over.extend(self.in_cell(x, z).iter().filter_map(|&k| {
                    let t = &self.triangles[k as usize];
                    let n = (t[1] - t[0]).cross(t[2] - t[0]);
                    let walkable = n.y > n.length() * std::f32::consts::FRAC_1_SQRT_2;
                    height_at(t, c).map(|h| (h, walkable, n.y < 0.0))
                }));
                if !over.iter().any(|(_, w, _)| *w) {
                    continue;
                }
                over.sort_by(|a, b| a.0.total_cmp(&b.0));
                let cell = &mut heights[z * self.size[0] + x];
                let mut k = 0;
                for (i, &(h, walkable, _)) in over.iter().enumerate() {
                    if !walkable || k == FLOORS_PER_CELL {
                        continue;
                    }
                    // The same floor twice (two faces meeting over the middle).
                    if k > 0 && (h - cell[k - 1]).abs() < 0.05 {
                        continue;
                    }
                    // The next face up leaves head room, and is a ceiling (its
                    // front toward the floor): under the top of the ground or a
                    // roof seen from below, a player is inside the level's solid.
                    let next = over[i + 1..].iter().find(|(y, _, _)| *y > h + 0.05);
                    if next.is_none_or(|(y, _, down)| *y >= h + HEAD_ROOM && *down) {
                        cell[k] = h;
                        k += 1;
                    }
                }
            }
        }
        Floors {
            size: self.size,
            cell: self.cell,
            heights,
        }
    }

    /// Whether a face lies over `p` within `height`.
    fn covered(&self, p: Vec3, height: f32) -> bool {
        let q = (Vec2::new(p.x, p.z) - self.lo) / self.cell;
        let (x, z) = (q.x as usize, q.y as usize);
        if x >= self.size[0] || z >= self.size[1] {
            return false;
        }
        self.in_cell(x, z).iter().any(|&k| {
            height_at(&self.triangles[k as usize], Vec2::new(p.x, p.z))
                .is_some_and(|y| y > p.y + 0.05 && y < p.y + height)
        })
    }

    /// The nearest face along the ray from `o` along unit `d` within `reach`:
    /// its distance and whether its front faces the ray.
    fn cast(
        &self,
        o: Vec3,
        d: Vec3,
        reach: f32,
        seen: &mut [u32],
        stamp: u32,
    ) -> Option<(f32, bool, u32)> {
        // Walk the cells the ray's shadow on the ground crosses (a DDA), nearest first.
        let p = (Vec2::new(o.x, o.z) - self.lo) / self.cell;
        let dir = Vec2::new(d.x, d.z);
        let (mut x, mut z) = (p.x.floor() as i64, p.y.floor() as i64);
        let step = [dir.x.signum() as i64, dir.y.signum() as i64];
        let next = |v: f32, s: i64, cell: i64| {
            if s > 0 {
                (cell + 1) as f32 - v
            } else {
                v - cell as f32
            }
        };
        let inv = |v: f32| {
            if v.abs() < 1e-9 {
                f32::INFINITY
            } else {
                1.0 / v.abs()
            }
        };
        let mut t_max = [
            next(p.x, step[0], x) * inv(dir.x) * self.cell,
            next(p.y, step[1], z) * inv(dir.y) * self.cell,
        ];
        let t_delta = [inv(dir.x) * self.cell, inv(dir.y) * self.cell];
        let mut best: Option<(f32, bool, u32)> = None;
        let mut t_cell = 0.0f32;
        for _ in 0..(self.size[0] + self.size[1] + 2) * 2 {
            if x >= 0 && z >= 0 && (x as usize) < self.size[0] && (z as usize) < self.size[1] {
                for &k in self.in_cell(x as usize, z as usize) {
                    if seen[k as usize] == stamp {
                        continue;
                    }
                    seen[k as usize] = stamp;
                    if let Some((t, front)) = hit(o, d, &self.triangles[k as usize])
                        && t <= reach
                        && best.is_none_or(|b| t < b.0)
                    {
                        best = Some((t, front, k));
                    }
                }
            }
            let t_exit = t_max[0].min(t_max[1]);
            if best.is_some_and(|b| b.0 <= t_exit) || t_cell > reach {
                break;
            }
            // Outside the grid and moving away: nothing more.
            let outside = |v: i64, s: i64, n: usize| (v < 0 && s <= 0) || (v >= n as i64 && s >= 0);
            if outside(x, step[0], self.size[0]) || outside(z, step[1], self.size[1]) {
                break;
            }
            if t_max[0] < t_max[1] {
                x += step[0];
                t_cell = t_max[0];
                t_max[0] += t_delta[0];
            } else {
                z += step[1];
                t_cell = t_max[1];
                t_max[1] += t_delta[1];
            }
            // A vertical ray stays in its cell.
            if step == [0, 0] {
                break;
            }
        }
        best
    }

    /// How much of the level the view around `eye` shows (−1 to 1): the share of
    /// rays meeting a face's front (less those meeting one from behind: inside a
    /// closed mesh), and how many different faces they meet (the detailed part of
    /// a level, not the corner of a 2 km ocean plane or an empty hall's walls);
    /// and the yaw to face: toward `centre` where that way is clear, else the
    /// clearest way near it.
    fn look_around(&self, eye: Vec3, centre: Vec3) -> (f32, f32, bool) {
        const YAWS: usize = 16;
        const PITCHES: [f32; 3] = [0.0, -0.2, -0.45];
        let reach = (self.size[0].max(self.size[1]) as f32 * self.cell)
            .max(self.y_range.1 - self.y_range.0)
            * 1.5;
        let mut seen = vec![0u32; self.triangles.len()];
        let mut stamp = 0;
        let mut sum = 0.0;
        let mut faces = std::collections::HashSet::new();
        // Per yaw, how far the level-headed ray goes before it meets a face.
        let mut open = [reach; YAWS];
        for (k, clear_to) in open.iter_mut().enumerate() {
            let yaw = k as f32 / YAWS as f32 * std::f32::consts::TAU;
            for pitch in PITCHES {
                stamp += 1;
                let d = Vec3::new(
                    yaw.sin() * pitch.cos(),
                    pitch.sin(),
                    -yaw.cos() * pitch.cos(),
                );
                if let Some((t, front, face)) = self.cast(eye, d, reach, &mut seen, stamp) {
                    if front {
                        sum += 1.0;
                        faces.insert(face);
                    } else {
                        sum -= 1.0;
                    }
                    if pitch == 0.0 {
                        *clear_to = t;
                    }
                }
            }
        }
        let rays = (YAWS * PITCHES.len()) as f32;
        let facing = sum / rays;
        let variety = faces.len() as f32 / rays;
        let view = if facing < 0.0 {
            facing
        } else {
            0.4 * facing + 0.6 * variety
        };
        // Room to look: a wall a step away is no first view.
        const CLEAR: f32 = 30.0;
        let clear = |k: usize| open[k].min(CLEAR) / CLEAR;
        let room = (0..YAWS).map(clear).sum::<f32>() / YAWS as f32;
        let view = view * (0.7 + 0.3 * room);
        // Toward the level's middle, turned aside where something stands close.
        let flat = Vec2::new(centre.x - eye.x, centre.z - eye.z);
        let toward = (flat.length() > 2.0).then(|| yaw_toward(eye, centre));
        let best = (0..YAWS)
            .map(|k| {
                let yaw = k as f32 / YAWS as f32 * std::f32::consts::TAU;
                let aim = toward.map_or(0.0, |m| 0.5 * (yaw - m).cos());
                (clear(k) + aim, yaw)
            })
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map_or(0.0, |(_, yaw)| yaw);
        // Straight at the middle when that way is as clear as the best.
        let facing_middle;
        let yaw = match toward {
            Some(m) => {
                let k = ((m.rem_euclid(std::f32::consts::TAU)) / std::f32::consts::TAU
                    * YAWS as f32)
                    .round() as usize
                    % YAWS;
                facing_middle = clear(k) >= 0.99;
                if facing_middle { m } else { best }
            }
            None => {
                facing_middle = false;
                best
            }
        };
        (view, yaw, facing_middle)
    }
}

/// The height of triangle `t` over the point `p` (x, z) seen from above, if it
/// lies over it.
fn height_at(t: &[Vec3; 3], p: Vec2) -> Option<f32> {
    let [a, b, c] = *t;
    let d = (b.x - a.x) * (c.z - a.z) - (c.x - a.x) * (b.z - a.z);
    if d.abs() < 1e-9 {
        return None;
    }
    let u = ((p.x - a.x) * (c.z - a.z) - (c.x - a.x) * (p.y - a.z)) / d;
    let v = ((b.x - a.x) * (p.y - a.z) - (p.x - a.x) * (b.z - a.z)) / d;
    (u >= 0.0 && v >= 0.0 && u + v <= 1.0).then_some(a.y + u * (b.y - a.y) + v * (c.y - a.y))
}

/// The distance along `d` to triangle `t` and whether the ray meets its front.
fn hit(o: Vec3, d: Vec3, t: &[Vec3; 3]) -> Option<(f32, bool)> {
    pebble_model::math::ray_triangle(o, d, *t, 1e-3)
}

/// The floors of every cell, and how they join.
struct Floors {
    size: [usize; 2],
    /// The cells' side, metres.
    cell: f32,
    /// Per cell, up to [`FLOORS_PER_CELL`] floor heights (NaN: none).
    heights: Vec<[f32; FLOORS_PER_CELL]>,
}

/// One joined piece of floor: its (cell, floor) places.
struct Piece {
    cells: Vec<(usize, usize)>,
}

impl Floors {
    /// The joined pieces, largest first.
    fn pieces(&self) -> Vec<Piece> {
        let n = self.heights.len();
        let step = STEP.max(self.cell * 0.7);
        let mut done = vec![[false; FLOORS_PER_CELL]; n];
        let mut pieces = Vec::new();
        for start in 0..n {
            for f in 0..FLOORS_PER_CELL {
                if done[start][f] || self.heights[start][f].is_nan() {
                    continue;
                }
                let mut cells = Vec::new();
                let mut stack = vec![(start, f)];
                done[start][f] = true;
                while let Some((i, k)) = stack.pop() {
                    cells.push((i, k));
                    let h = self.heights[i][k];
                    let (x, z) = (i % self.size[0], i / self.size[0]);
                    let mut near = Vec::with_capacity(4);
                    if x > 0 {
                        near.push(i - 1);
                    }
                    if x + 1 < self.size[0] {
                        near.push(i + 1);
                    }
                    if z > 0 {
                        near.push(i - self.size[0]);
                    }
                    if z + 1 < self.size[1] {
                        near.push(i + self.size[0]);
                    }
                    for j in near {
                        for (g, (other, seen)) in
                            self.heights[j].iter().zip(done[j].iter_mut()).enumerate()
                        {
                            if !*seen && !other.is_nan() && (other - h).abs() <= step {
                                *seen = true;
                                stack.push((j, g));
                            }
                        }
                    }
                }
                pieces.push(Piece { cells });
            }
        }
        pieces.sort_by_key(|p| std::cmp::Reverse(p.cells.len()));
        pieces
    }

    /// Up to `n` places on `piece` to look around from (feet positions): the cell
    /// nearest the piece's middle, then cells spread over it.
    fn places(&self, piece: &Piece, grid: &Grid<'_>, n: usize) -> Vec<Vec3> {
        let at = |&(i, k): &(usize, usize)| {
            let c = grid.centre_of(i % self.size[0], i / self.size[0]);
            Vec3::new(c.x, self.heights[i][k], c.y)
        };
        // Places with floor all round (not pressed against a wall or an edge),
        // where the piece has any.
        let mut on: std::collections::HashSet<usize> = std::collections::HashSet::new();
        on.extend(piece.cells.iter().map(|(i, _)| *i));
        let w = self.size[0];
        // Floor all round for a metre (at least the next cell) each way.
        let reach = ((1.0 / grid.cell).ceil() as usize).max(1);
        let h = self.size[1];
        let inside = |i: usize| {
            let (x, z) = (i % w, i / w);
            x >= reach
                && z >= reach
                && x + reach < w
                && z + reach < h
                && (1..=reach).all(|r| {
                    on.contains(&(i - r))
                        && on.contains(&(i + r))
                        && on.contains(&(i - r * w))
                        && on.contains(&(i + r * w))
                })
        };
        let inner: Vec<&(usize, usize)> = piece.cells.iter().filter(|(i, _)| inside(*i)).collect();
        let points: Vec<Vec3> = if inner.is_empty() {
            piece.cells.iter().map(at).collect()
        } else {
            inner.into_iter().map(at).collect()
        };
        let middle = points.iter().copied().sum::<Vec3>() / points.len().max(1) as f32;
        let mut chosen: Vec<Vec3> = Vec::with_capacity(n);
        if let Some(first) = points.iter().copied().min_by(|a, b| {
            a.distance_squared(middle)
                .total_cmp(&b.distance_squared(middle))
        }) {
            chosen.push(first);
        }
        // The rest far from those chosen (farthest-point sampling over a bounded
        // subset, so a huge floor costs no more than a small one).
        let stride = (points.len() / 512).max(1);
        while chosen.len() < n.min(points.len()) {
            let next = points.iter().step_by(stride).copied().max_by(|a, b| {
                let da = chosen
                    .iter()
                    .map(|c| c.distance_squared(*a))
                    .fold(f32::INFINITY, f32::min);
                let db = chosen
                    .iter()
                    .map(|c| c.distance_squared(*b))
                    .fold(f32::INFINITY, f32::min);
                da.total_cmp(&db)
            });
            match next {
                Some(p) if !chosen.contains(&p) => chosen.push(p),
                _ => break,
            }
        }
        chosen
    }
}

#[cfg(test)]
mod tests;
