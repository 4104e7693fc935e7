//! What a PSP can hold, checked before anything is built (the limits themselves
//! are `capacity.rs`'s), and the cancel checks of the stages' long loops.
//!
//! The estimate walks the scene once, allocating no more than the scene already holds,
//! before the first stage: per entity its world-space bounds after its transform,
//! whether every position is finite, how many pieces its triangles would be cut into
//! (at least; [`pieces_at_least`]) and the bytes its chunks, colliders and walkable
//! surface take. A scene beyond the limits is refused there, naming the entity, its
//! size and what to do. The geometry stage then counts what the cutting really makes
//! and stops at the budget, so memory stays bounded by the limits even where the
//! estimate is low.

use std::sync::atomic::{AtomicBool, Ordering};

use pebble_model::entity::{Collider, EntityKind};
use pebble_model::glam::{Affine3A, Vec3};
use pebble_model::mesh::MeshData;

use super::capacity::{Estimate, ExportLimits, metres};
use super::run::{ExportError, Run};

/// How many steps of a long loop (triangles, cuts) pass between looks at the cancel
/// flag: a few thousand steps take well under a millisecond.
pub(crate) const CANCEL_EVERY: u32 = 4096;

/// Bytes of a drawn triangle in the file: three vertices.
const TRIANGLE_BYTES: u64 = 3 * pbm::format::VERTEX_SIZE as u64;
/// Bytes of a collider or walkable triangle.
const COLLIDER_TRIANGLE_BYTES: u64 = pbm::format::TRIANGLE_SIZE as u64;
/// Triangles of a full chunk.
const CHUNK_TRIANGLES: u64 = pbm::format::MAX_MESH_VERTICES as u64 / 3;

/// Looks at the cancel flag every [`CANCEL_EVERY`] steps.
#[derive(Debug)]
pub(crate) struct Ticker<'a> {
    cancel: &'a AtomicBool,
    steps: u32,
}

impl<'a> Ticker<'a> {
    pub fn new(cancel: &'a AtomicBool) -> Self {
        Self { cancel, steps: 0 }
    }

    /// One step of work; `Cancelled` once the flag is set.
    pub fn tick(&mut self) -> Result<(), ExportError> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(CANCEL_EVERY) {
            self.check()
        } else {
            Ok(())
        }
    }

    pub fn check(&self) -> Result<(), ExportError> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(ExportError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// A triangle that its transform flattened: it has an area in the mesh but none in
/// the world (a scale of 0). It is dropped; a triangle authored without area is kept
/// as it was.
pub(crate) fn collapsed(local: [Vec3; 3], world: [Vec3; 3]) -> bool {
    let area = |[a, b, c]: [Vec3; 3]| (b - a).cross(c - a);
    area(world) == Vec3::ZERO && area(local) != Vec3::ZERO
}

/// How many triangles cutting a triangle along the world grid of `cell` metres (see
/// `slice`) makes, at least: one per slab of the grid it crosses on each axis, and
/// one per √2·cell² of its area (no plane cuts a cube in a larger piece). 1 when
/// nothing is cut: no grid, or a triangle within a cell's size on every axis
/// (`slice` leaves those whole wherever they lie; fanning a neighbour through a cut
/// one's points only adds).
pub(crate) fn pieces_at_least(p: [Vec3; 3], cell: f32) -> f64 {
    if !(cell.is_finite() && cell > 0.0) {
        return 1.0;
    }
    let small = (0..3).all(|axis| {
        let lo = p.iter().map(|v| v[axis]).fold(f32::MAX, f32::min);
        let hi = p.iter().map(|v| v[axis]).fold(f32::MIN, f32::max);
        hi - lo <= cell
    });
    if small {
        return 1.0;
    }
    let c = f64::from(cell);
    let mut most = 1.0f64;
    for axis in 0..3 {
        let lo = p
            .iter()
            .map(|v| f64::from(v[axis]))
            .fold(f64::MAX, f64::min);
        let hi = p
            .iter()
            .map(|v| f64::from(v[axis]))
            .fold(f64::MIN, f64::max);
        let planes = ((hi / c).ceil() - (lo / c).floor() - 1.0).max(0.0);
        most = most.max(planes + 1.0);
    }
    let [a, b, d] = p.map(|v| v.as_dvec3());
    let area = (b - a).cross(d - a).length() * 0.5;
    most.max((area / (std::f64::consts::SQRT_2 * c * c)).floor())
}

/// World-space bounds of points, and whether all were finite.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    lo: Vec3,
    hi: Vec3,
    finite: bool,
}

impl Bounds {
    const EMPTY: Self = Self {
        lo: Vec3::splat(f32::INFINITY),
        hi: Vec3::splat(f32::NEG_INFINITY),
        finite: true,
    };

    fn add(&mut self, p: Vec3) {
        if p.is_finite() {
            self.lo = self.lo.min(p);
            self.hi = self.hi.max(p);
        } else {
            self.finite = false;
        }
    }

    fn size(&self) -> [f32; 3] {
        if self.lo.x > self.hi.x {
            [0.0; 3]
        } else {
            (self.hi - self.lo).to_array()
        }
    }

    /// The farthest any point lies from the origin on an axis.
    fn reach(&self) -> f32 {
        if self.lo.x > self.hi.x {
            0.0
        } else {
            self.lo.abs().max(self.hi.abs()).max_element()
        }
    }
}

/// The cut away from point lights: what fog and the sky's even light need (they
/// change over tens of metres; a triangle within this size is lit and fogged
/// well enough from its corners).
pub(crate) const COARSE_CELL: f32 = 32.0;

/// The most pieces a cut divides an entity's longest side into.
pub(crate) const CELLS_ACROSS: f32 = 16.0;

/// The cutting grid's spacing for an entity `size` metres across: the export's
/// `max_extent`, or a sixteenth of the entity's longest side where that is larger.
/// The cut is there for what the GE computes per vertex (baked light, fog), which a
/// 2 km ground needs no more densely than every 128 m (past the fog, it all looks
/// the same); a grid fixed in metres made such a plane 131 000 triangles. One grid
/// per entity keeps its cut triangles meeting without cracks.
pub(crate) fn cell_for(max_extent: f32, size: [f32; 3]) -> f32 {
    if !(max_extent.is_finite() && max_extent > 0.0) {
        return max_extent;
    }
    let longest = size.into_iter().fold(0.0f32, f32::max);
    max_extent.max(longest / CELLS_ACROSS)
}

/// The cutting grid away from point lights: [`cell_for`] grown to
/// [`COARSE_CELL`] (no cut where the cut is turned off).
pub(crate) fn coarse_cell_for(max_extent: f32, size: [f32; 3]) -> f32 {
    let fine = cell_for(max_extent, size);
    if fine.is_finite() && fine > 0.0 {
        fine.max(COARSE_CELL)
    } else {
        fine
    }
}

pub(crate) fn world_size(points: impl IntoIterator<Item = Vec3>) -> [f32; 3] {
    let mut b = Bounds::EMPTY;
    for p in points {
        b.add(p);
    }
    b.size()
}

fn not_finite(entity: &str, what: &str) -> ExportError {
    ExportError::Entity {
        entity: entity.to_owned(),
        message: format!(
            "{what} not finite (NaN or infinite) after its transform: check the position, rotation and scale of it and of its parents"
        ),
    }
}

/// Refuses geometry that is not finite or that reaches past the limit.
fn check_bounds(entity: &str, b: &Bounds, limits: &ExportLimits) -> Result<(), ExportError> {
    if !b.finite {
        return Err(not_finite(entity, "its world positions are"));
    }
    let reach = b.reach();
    if reach > limits.max_coordinate {
        return Err(ExportError::TooLarge {
            entity: entity.to_owned(),
            size_m: b.size(),
            problem: format!("it reaches {} m from the origin", metres(reach)),
            limits: *limits,
        });
    }
    Ok(())
}

/// A mesh's positions in the world.
fn world_positions(g: &MeshData, world: &Affine3A) -> Vec<Vec3> {
    g.positions
        .iter()
        .map(|p| world.transform_point3(*p))
        .collect()
}

/// Estimates the scene before anything is built and refuses what a PSP cannot hold.
pub(crate) fn estimate(run: &Run<'_>) -> Result<Estimate, ExportError> {
    let scene = run.scene;
    let limits = run.options.limits;
    let mut ticker = Ticker::new(run.cancel);
    let referenced = scene.trimesh_collider_meshes();
    let mut out = Estimate::default();
    // The entity with the most drawn triangles, for the message when the total is over.
    let mut most: Option<(&str, [f32; 3], u64)> = None;
    for e in scene.exported_entities() {
        ticker.check()?;
        let world = scene.world_transform(e.id);
        match &e.kind {
            EntityKind::Mesh(m) => {
                // Every mesh is drawn, hidden or not (hiding is a view setting).
                let collider = m.collidable && !referenced.contains(&e.id);
                let g = &m.geometry;
                g.validate().map_err(|err| ExportError::Entity {
                    entity: e.name.clone(),
                    message: err.to_string(),
                })?;
                let positions = world_positions(g, &world);
                // At least the coarse grid's pieces: the fine grid cuts only
                // near point lights, and cuts more there.
                let cell = coarse_cell_for(
                    run.options.max_extent,
                    world_size(positions.iter().copied().filter(|p| p.is_finite())),
                );
                let at = |i: u32| positions.get(i as usize).copied().unwrap_or(Vec3::ZERO);
                let mut bounds = Bounds::EMPTY;
                let mut pieces = 0.0f64;
                for f in &g.faces {
                    ticker.tick()?;
                    let w = f.indices.map(at);
                    for p in w {
                        bounds.add(p);
                    }
                    if collapsed(g.triangle(f), w) {
                        continue;
                    }
                    // Double-sided faces are written once (drawn unculled).
                    pieces += pieces_at_least(w, cell);
                }
                check_bounds(&e.name, &bounds, &limits)?;
                if collider {
                    out.bytes += pbm::format::COLLIDER_HEADER_SIZE as u64
                        + g.faces.len() as u64 * COLLIDER_TRIANGLE_BYTES;
                }
                // Saturating: a count past u64 is over any limit all the same.
                let pieces = pieces as u64;
                if pieces > limits.max_triangles {
                    return Err(ExportError::TooLarge {
                        entity: e.name.clone(),
                        size_m: bounds.size(),
                        problem: cut_problem(pieces, cell),
                        limits,
                    });
                }
                out.triangles = out.triangles.saturating_add(pieces);
                out.bytes = out.bytes.saturating_add(
                    pieces * TRIANGLE_BYTES
                        + pieces.div_ceil(CHUNK_TRIANGLES) * pbm::format::MESH_HEADER_SIZE as u64,
                );
                if most.is_none_or(|(_, _, n)| pieces > n) {
                    most = Some((&e.name, bounds.size(), pieces));
                }
            }
            EntityKind::Collider(c) => {
                let mut bounds = Bounds::EMPTY;
                let triangles = match c {
                    Collider::Box { size } | Collider::Ramp { size } => {
                        for p in pebble_model::entity::volume_aabb(*size).corners() {
                            bounds.add(world.transform_point3(p));
                        }
                        if matches!(c, Collider::Ramp { .. }) {
                            2
                        } else {
                            0
                        }
                    }
                    // The mesh's own positions are checked with the mesh.
                    Collider::TriMesh { mesh } => match scene.entity(*mesh).map(|m| &m.kind) {
                        Some(EntityKind::Mesh(m)) => m.geometry.faces.len() as u64,
                        _ => 0,
                    },
                };
                check_bounds(&e.name, &bounds, &limits)?;
                out.bytes = out.bytes.saturating_add(
                    pbm::format::COLLIDER_HEADER_SIZE as u64 + triangles * COLLIDER_TRIANGLE_BYTES,
                );
            }
            EntityKind::Walkable(g) => {
                let positions = world_positions(g, &world);
                let mut bounds = Bounds::EMPTY;
                for f in &g.faces {
                    ticker.tick()?;
                    for i in f.indices {
                        bounds.add(positions.get(i as usize).copied().unwrap_or(Vec3::ZERO));
                    }
                }
                check_bounds(&e.name, &bounds, &limits)?;
                out.bytes = out
                    .bytes
                    .saturating_add(g.faces.len() as u64 * COLLIDER_TRIANGLE_BYTES);
            }
            EntityKind::Light(_) | EntityKind::Emitter(_) | EntityKind::Defined(_) => {
                if !world.is_finite() {
                    return Err(not_finite(&e.name, "its transform is"));
                }
            }
            EntityKind::Group | EntityKind::Custom(_) => {}
        }
    }
    if out.triangles > limits.max_triangles
        && let Some((name, size, n)) = most
    {
        return Err(ExportError::TooLarge {
            entity: name.to_owned(),
            size_m: size,
            problem: format!(
                "the map's drawn meshes would need at least {} triangles in all, this entity {n} of them (the most)",
                out.triangles
            ),
            limits,
        });
    }
    if out.bytes > limits.max_bytes {
        return Err(ExportError::MapTooLarge {
            bytes: out.bytes,
            detail: "meshes, colliders and walkable surfaces, before textures".into(),
            limits,
        });
    }
    Ok(out)
}

/// The problem of an entity whose triangles are cut into too many pieces.
pub(crate) fn cut_problem(pieces: u64, cell: f32) -> String {
    if cell.is_finite() && cell > 0.0 {
        format!(
            "cut along its {} m grid (the PSP lights and fogs per vertex), its triangles would make at least {pieces}",
            metres(cell)
        )
    } else {
        format!("it has {pieces} triangles")
    }
}

/// The triangle budget of the geometry stage: what the cutting may still produce and
/// how many cut steps it may still take, shared by all entities, with the cancel flag.
#[derive(Debug)]
pub(crate) struct Budget<'a> {
    pub ticker: Ticker<'a>,
    /// Triangles the map may still take.
    pub triangles_left: u64,
    /// Cut steps left: each makes a piece, so a few per triangle of the budget.
    pub steps_left: u64,
}

/// Why the cutting stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    Cancelled,
    Full,
}

impl<'a> Budget<'a> {
    pub fn new(cancel: &'a AtomicBool, limits: &ExportLimits) -> Self {
        Self {
            ticker: Ticker::new(cancel),
            triangles_left: limits.max_triangles,
            steps_left: limits
                .max_triangles
                .saturating_mul(8)
                .saturating_add(1 << 16),
        }
    }

    /// One cut step.
    pub fn step(&mut self) -> Result<(), Stop> {
        self.ticker.tick().map_err(|_| Stop::Cancelled)?;
        self.steps_left = self.steps_left.checked_sub(1).ok_or(Stop::Full)?;
        Ok(())
    }

    /// `n` triangles of output.
    pub fn take(&mut self, n: u64) -> Result<(), Stop> {
        self.triangles_left = self.triangles_left.checked_sub(n).ok_or(Stop::Full)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::capacity::{mib, size_text};

    #[test]
    fn pieces_at_least_counts_slabs_and_area() {
        let tri = |a: [f32; 3], b: [f32; 3], c: [f32; 3]| [a, b, c].map(Vec3::from);
        // Inside one cell: one piece; no cutting: one piece.
        let small = tri([0.1, 0.1, 0.0], [0.5, 0.1, 0.0], [0.1, 0.5, 0.0]);
        assert_eq!(pieces_at_least(small, 2.0), 1.0);
        // Small and across a grid line: left whole too.
        let across = tri([1.7, 1.7, 0.0], [2.3, 1.7, 0.0], [2.0, 2.4, 0.0]);
        assert_eq!(pieces_at_least(across, 2.0), 1.0);
        // 10 m along x: five slabs.
        let long = tri([0.0, 0.0, 0.0], [10.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        assert_eq!(pieces_at_least(long, 2.0), 5.0);
        assert_eq!(pieces_at_least(long, 0.0), 1.0);
        // 100 × 100 m: 5000 m² over at most √2·4 m² a piece.
        let big = tri([0.0, 0.0, 0.0], [100.0, 0.0, 0.0], [0.0, 100.0, 0.0]);
        assert_eq!(
            pieces_at_least(big, 2.0),
            (5000.0 / (4.0 * 2f64.sqrt())).floor()
        );
        // Huge but finite: no overflow, no loop.
        let huge = tri([0.0, 0.0, -5e29], [0.0, 1.0, 5e29], [0.0, 0.0, 5e29]);
        assert!(pieces_at_least(huge, 2.0) > 1e29);
    }

    #[test]
    fn a_flattened_triangle_is_collapsed_an_authored_sliver_is_not() {
        let local = [Vec3::ZERO, Vec3::X, Vec3::Y];
        let flat = [Vec3::ZERO, Vec3::ZERO, Vec3::Y];
        assert!(collapsed(local, flat));
        assert!(!collapsed(local, local));
        assert!(!collapsed(flat, flat));
    }

    #[test]
    fn messages_name_sizes_in_metres() {
        assert_eq!(size_text(&[1.0, 0.5, 1e6]), "1 × 0.5 × 1000000 m");
        assert_eq!(metres(1e30), "1.0e30");
        assert_eq!(mib(8 << 20), "8 MiB");
        assert!(ExportLimits::PSP.to_string().contains("±2048 m"));
    }
}
