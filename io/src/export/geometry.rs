//! Geometry and collider stages.
//!
//! Draw order (the runtime draws in file order and sorts nothing): all opaque chunks,
//! then cutout, then blended, each class in scene (outliner) order, so a far sheet
//! placed before a near one in the outliner draws first. Within an entity and
//! material, triangles are split spatially (cut on the longest axis of their
//! centroids, at a count that keeps the total number of chunks minimal) until a chunk
//! holds ≤ 384 vertices, so chunks are neighbourhoods with tight bounds; the split is
//! deterministic.

use std::collections::{BTreeMap, HashSet};

use pbm::view::Vertex;
use pbm::{Collider as PbmCollider, ColliderKind, Mesh, Name32};
use pebble_model::entity::{Collider, EntityKind};
use pebble_model::glam::{Affine3A, Vec2, Vec3};
use pebble_model::material::AlphaMode;
use pebble_model::{EntityId, Scene};

use super::limits::{self, Budget, Stop, Ticker};
use super::textures::Textures;
use super::{ExportError, ExportProgress, Run};

const CHUNK_TRIANGLES: usize = pbm::format::MAX_MESH_VERTICES as usize / 3;

fn pack_color(c: [f32; 4]) -> u32 {
    let b = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u32;
    b(c[0]) | b(c[1]) << 8 | b(c[2]) << 16 | b(c[3]) << 24
}

/// Names ≤ 31 characters, unique in their section.
pub(crate) struct Names(HashSet<String>);

impl Names {
    pub fn new() -> Self {
        Self(HashSet::new())
    }

    pub fn unique(&mut self, wanted: &str, suffix: &str) -> Name32 {
        let clean: String = wanted
            .chars()
            .map(|c| if c.is_ascii_graphic() { c } else { '_' })
            .collect();
        let room = 31usize.saturating_sub(suffix.len());
        let base: String = clean.chars().take(room).collect();
        let mut name = format!("{base}{suffix}");
        let mut k = 1;
        while self.0.contains(&name) {
            let tag = format!("~{k}{suffix}");
            name = format!(
                "{}{tag}",
                clean
                    .chars()
                    .take(31usize.saturating_sub(tag.len()))
                    .collect::<String>()
            );
            k += 1;
        }
        self.0.insert(name.clone());
        Name32::truncated(&name)
    }
}

/// A triangle's vertices and their world-space unit normals.
use super::slice::Tri;

/// Texture id, scroll bits, draw class of a group of triangles, whether it is
/// drawn from both sides (opaque only: the runtime draws cutouts and blends
/// unculled), and the glow its material gives off (bits; the bake adds it).
type GroupKey = (i32, [u32; 2], Class, bool, [u32; 3]);

/// A mesh built, its vertex normals, whether it is drawn from both sides, and
/// its material's glow.
type Built = (Mesh, Vec<Vec3>, bool, [f32; 3]);

/// What the geometry stage makes.
pub(crate) struct Geometry {
    /// The meshes in draw order.
    pub meshes: Vec<Mesh>,
    /// Per mesh, a world-space normal per vertex.
    pub normals: Vec<Vec<Vec3>>,
    /// The indices of the meshes drawn from both sides (the `double_sided` lump).
    pub double_sided: Vec<u32>,
    /// Per mesh, the light its material gives off (linear RGB; zero: none).
    pub emissive: Vec<Vec3>,
}

fn centroid(t: &Tri) -> Vec3 {
    (Vec3::from(t.0[0].pos) + Vec3::from(t.0[1].pos) + Vec3::from(t.0[2].pos)) / 3.0
}

/// A key whose integer order is `f32::total_cmp`'s order.
fn total_order_key(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits & 0x8000_0000 != 0 {
        !bits
    } else {
        bits | 0x8000_0000
    }
}

/// Splits triangles into spatial chunks of at most `CHUNK_TRIANGLES`, looking at the
/// cancel flag before each split.
fn chunk(
    mut tris: Vec<Tri>,
    out: &mut Vec<Vec<Tri>>,
    ticker: &Ticker<'_>,
) -> Result<(), ExportError> {
    if tris.len() <= CHUNK_TRIANGLES {
        if !tris.is_empty() {
            out.push(tris);
        }
        return Ok(());
    }
    ticker.check()?;
    let (lo, hi) = tris.iter().map(centroid).fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), c| (lo.min(c), hi.max(c)),
    );
    let extent = hi - lo;
    let axis = if extent.x >= extent.y && extent.x >= extent.z {
        0
    } else if extent.y >= extent.z {
        1
    } else {
        2
    };
    // Stable sort: equal keys keep their order, so the split is deterministic. Each
    // centroid is computed once (this is the export's hottest loop).
    tris.sort_by_cached_key(|t| total_order_key(centroid(t)[axis]));
    // Cut so that both sides fill whole chunks: k chunks in all, never more.
    let k = tris.len().div_ceil(CHUNK_TRIANGLES);
    let right = tris.split_off(tris.len() * (k / 2) / k);
    chunk(tris, out, ticker)?;
    chunk(right, out, ticker)
}

/// The geometry stage reports its progress once in this many faces.
const PROGRESS_EVERY: u64 = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Opaque,
    Cutout,
    Blend,
}

/// The meshes in draw order, their normals, and which are drawn from both sides.
pub(crate) fn build(run: &mut Run<'_>, textures: &Textures) -> Result<Geometry, ExportError> {
    let scene = run.scene;
    let mut classes: BTreeMap<Class, Vec<Built>> = BTreeMap::new();
    let mut names = Names::new();
    let limits = run.options.limits;
    // Shared by all entities: what the map may still take.
    let mut budget = Budget::new(run.cancel, &limits);
    // Progress in faces read, so that a long stage moves the editor's bar.
    let faces_total: u64 = scene
        .exported_entities()
        .map(|e| match &e.kind {
            EntityKind::Mesh(mesh) => mesh.geometry.faces.len() as u64,
            _ => 0,
        })
        .sum();
    let mut faces_done = 0u64;
    // The point and spot lights' reach: where the bake needs a fine cut.
    let lights: Vec<(Vec3, f32)> = scene
        .exported_of(pebble_model::Kind::Light)
        .filter_map(|e| match &e.kind {
            EntityKind::Light(pebble_model::entity::Light::Omni { radius, .. }) => Some((
                Vec3::from(scene.world_transform(e.id).translation),
                radius.max(0.0),
            )),
            _ => None,
        })
        .collect();
    for e in scene.exported_entities() {
        run.check_cancel()?;
        let EntityKind::Mesh(mesh) = &e.kind else {
            continue;
        };
        // Hidden or isolated-away entities are exported all the same: hiding is a
        // view setting, not a statement about the map.
        let g = &mesh.geometry;
        g.validate().map_err(|err| ExportError::Entity {
            entity: e.name.clone(),
            message: err.to_string(),
        })?;
        let world: Affine3A = scene.world_transform(e.id);
        let mirrored = world.matrix3.determinant() < 0.0;
        let positions: Vec<[f32; 3]> = g
            .positions
            .iter()
            .map(|p| world.transform_point3(*p).to_array())
            .collect();
        let normal_matrix = world.matrix3.inverse().transpose();
        // Without normals, faces sharing a vertex index share a smooth normal (the
        // area-weighted mean of their world normals); corners that are separate
        // vertices (a box's edges) stay hard.
        let normals: Vec<Vec3> = match &g.normals {
            Some(ns) => ns
                .iter()
                .map(|n| (normal_matrix * *n).normalize_or_zero())
                .collect(),
            None => {
                let mut acc = vec![Vec3::ZERO; positions.len()];
                for f in &g.faces {
                    budget.ticker.tick()?;
                    let [a, b, c] = f.indices.map(|i| Vec3::from(positions[i as usize]));
                    let n = (b - a).cross(c - a) * if mirrored { -1.0 } else { 1.0 };
                    for i in f.indices {
                        acc[i as usize] += n;
                    }
                }
                acc.into_iter().map(|n| n.normalize_or_zero()).collect()
            }
        };
        if positions.iter().flatten().any(|c| !c.is_finite()) {
            return Err(ExportError::Entity {
                entity: e.name.clone(),
                message: "its world positions are not finite (NaN or infinite) after its transform: check the position, rotation and scale of it and of its parents".into(),
            });
        }
        // (texture, scroll, class) → triangles, in first-use order.
        let mut groups: Vec<(GroupKey, Vec<Tri>)> = Vec::new();
        let mut flattened = 0usize;
        for f in &g.faces {
            budget.ticker.tick()?;
            if faces_done.is_multiple_of(PROGRESS_EVERY) {
                (run.progress)(ExportProgress {
                    stage: "geometry",
                    done: faces_done,
                    total: faces_total,
                });
            }
            faces_done += 1;
            let material = scene
                .material(f.material)
                .ok_or_else(|| ExportError::Entity {
                    entity: e.name.clone(),
                    message: format!("uses material #{}, which does not exist", f.material.0),
                })?;
            let tid = textures.by_material.get(&f.material).copied().unwrap_or(-1);
            let atlas = usize::try_from(tid)
                .ok()
                .and_then(|i| textures.textures.get(i))
                .is_some_and(|t| t.is_atlas());
            let scroll = if tid >= 0 && !atlas {
                material.uv_scroll
            } else {
                Default::default()
            };
            if atlas && material.scrolls() {
                run.report.warnings.push(format!(
                    "{}: material '{}' scrolls an atlas texture; the scroll is dropped",
                    e.name, material.name
                ));
            }
            let class = match (tid, material.alpha) {
                (-1, _) | (_, AlphaMode::None) => Class::Opaque,
                (_, AlphaMode::Cutout) => Class::Cutout,
                (_, AlphaMode::Blend) => Class::Blend,
            };
            let world_tri = f.indices.map(|i| Vec3::from(positions[i as usize]));
            if limits::collapsed(g.triangle(f), world_tri) {
                flattened += 1;
                continue;
            }
            let vertex = |k: usize| {
                let i = f.indices[k] as usize;
                let base = g
                    .colors
                    .as_ref()
                    .and_then(|c| c.get(i))
                    .copied()
                    .unwrap_or([1.0; 4]);
                let color = [0, 1, 2, 3].map(|c| base[c] * material.color[c]);
                let mut uv = material.repeats(f.uvs[k]);
                // A tile in an atlas: edge-to-edge into its slot.
                if let Some([u0, v0, du, dv]) = textures.slots.get(&f.material) {
                    uv = Vec2::new(u0 + uv.x * du, v0 + uv.y * dv);
                }
                Vertex {
                    uv: [uv.x, uv.y],
                    color: pack_color(color),
                    pos: positions[i],
                }
            };
            let order = if mirrored { [0, 2, 1] } else { [0, 1, 2] };
            let verts = order.map(vertex);
            let [a, b, c] = verts.map(|v| Vec3::from(v.pos));
            let flat = (b - a).cross(c - a).normalize_or(Vec3::Y);
            let corner_normal = |k: usize| {
                let n = normals
                    .get(f.indices[k] as usize)
                    .copied()
                    .unwrap_or(Vec3::ZERO);
                if n == Vec3::ZERO { flat } else { n }
            };
            let tri: Tri = (verts, order.map(corner_normal));
            let both = material.double_sided && class == Class::Opaque;
            let key = (
                tid,
                [scroll.x.to_bits(), scroll.y.to_bits()],
                class,
                both,
                material.emissive.map(f32::to_bits),
            );
            let slot = match groups.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    groups.push((key, Vec::new()));
                    groups.len() - 1
                }
            };
            // A double-sided face is written once; its mesh is drawn unculled.
            groups[slot].1.push(tri);
        }
        if flattened > 0 {
            run.report.warnings.push(format!(
                "{}: {flattened} of its {} triangles have no area after its transform (a scale of 0?) and are left out",
                e.name,
                g.faces.len()
            ));
        }
        let mut k = 0;
        let left = budget.triangles_left;
        let size = limits::world_size(positions.iter().map(|p| Vec3::from(*p)));
        // Fine where a point light reaches the entity (only there), coarse
        // elsewhere: one grid per entity, so its cut triangles meet.
        let reached = {
            let (lo, hi) = positions.iter().fold(
                (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
                |(lo, hi), p| (lo.min(Vec3::from(*p)), hi.max(Vec3::from(*p))),
            );
            lights
                .iter()
                .any(|(at, r)| at.clamp(lo, hi).distance_squared(*at) <= r * r)
        };
        let fine = limits::cell_for(run.options.max_extent, size);
        let coarse = limits::coarse_cell_for(run.options.max_extent, size);
        let (cell, need) = if reached {
            (
                fine,
                super::slice::Need {
                    lights: &lights,
                    coarse,
                },
            )
        } else {
            (coarse, super::slice::Need::ALL)
        };
        for ((tid, scroll, class, both, glow), tris) in groups {
            let tris =
                super::slice::slice(tris, cell, need, &mut budget).map_err(|stop| match stop {
                    Stop::Cancelled => ExportError::Cancelled,
                    Stop::Full => ExportError::TooLarge {
                        entity: e.name.clone(),
                        size_m: size,
                        problem: over_budget(cell, limits.max_triangles, left),
                        limits,
                    },
                })?;
            let mut chunks = Vec::new();
            chunk(tris, &mut chunks, &budget.ticker)?;
            for c in chunks {
                let normals: Vec<Vec3> = c.iter().flat_map(|t| t.1).collect();
                let vertices: Vec<Vertex> = c.into_iter().flat_map(|t| t.0).collect();
                let mut m = Mesh {
                    name: names.unique(&e.name, &format!("_{k}")),
                    texture_id: tid,
                    bounds_min: [0.0; 3],
                    bounds_max: [0.0; 3],
                    uv_scroll: scroll.map(f32::from_bits),
                    vertices,
                };
                if let Some((lo, hi)) = m.vertex_bounds() {
                    m.bounds_min = lo;
                    m.bounds_max = hi;
                }
                classes.entry(class).or_default().push((
                    m,
                    normals,
                    both,
                    glow.map(f32::from_bits),
                ));
                k += 1;
            }
        }
    }
    let mut out = Geometry {
        meshes: Vec::new(),
        normals: Vec::new(),
        double_sided: Vec::new(),
        emissive: Vec::new(),
    };
    for (m, normals, both, glow) in classes.into_values().flatten() {
        if both {
            out.double_sided.push(out.meshes.len() as u32);
        }
        out.meshes.push(m);
        out.normals.push(normals);
        out.emissive.push(Vec3::from(glow));
    }
    Ok(out)
}

/// The problem of the entity whose cut triangles ran past the map's budget.
fn over_budget(cell: f32, max: u64, left: u64) -> String {
    let cut = if cell.is_finite() && cell > 0.0 {
        format!(
            "cut along its {} m grid (the PSP lights and fogs per vertex), ",
            super::capacity::metres(cell)
        )
    } else {
        String::new()
    };
    format!(
        "{cut}its triangles take the map's drawn meshes past {max} triangles ({left} were left for it)"
    )
}

fn world_triangles(scene: &Scene, id: EntityId) -> Vec<[[f32; 3]; 3]> {
    let Some(EntityKind::Mesh(m)) = scene.entity(id).map(|e| &e.kind) else {
        return Vec::new();
    };
    let world = scene.world_transform(id);
    m.geometry
        .faces
        .iter()
        .map(|f| {
            m.geometry
                .triangle(f)
                .map(|p| world.transform_point3(p).to_array())
        })
        .collect()
}

fn bounds(points: impl IntoIterator<Item = [f32; 3]>) -> ([f32; 3], [f32; 3]) {
    pbm::map::bounds_of(points).unwrap_or(([0.0; 3], [0.0; 3]))
}

pub(crate) fn colliders(run: &mut Run<'_>) -> Result<Vec<PbmCollider>, ExportError> {
    let scene = run.scene;
    let mut out = Vec::new();
    let mut names = Names::new();
    let referenced = scene.trimesh_collider_meshes();
    for e in scene.exported_entities() {
        run.check_cancel()?;
        let world = scene.world_transform(e.id);
        let (kind, triangles, (lo, hi)) = match &e.kind {
            EntityKind::Collider(Collider::Box { size }) => {
                let corners = pebble_model::entity::volume_aabb(*size)
                    .corners()
                    .map(|c| world.transform_point3(c).to_array());
                (ColliderKind::Box, Vec::new(), bounds(corners))
            }
            EntityKind::Collider(Collider::Ramp { size }) => {
                let b = pebble_model::entity::volume_aabb(*size);
                // The slope of a wedge rising toward −Z, two triangles; bounds of the wedge.
                let p =
                    |x: f32, y: f32, z: f32| world.transform_point3(Vec3::new(x, y, z)).to_array();
                let (fl, fr, tl, tr) = (
                    p(b.min.x, b.min.y, b.max.z),
                    p(b.max.x, b.min.y, b.max.z),
                    p(b.min.x, b.max.y, b.min.z),
                    p(b.max.x, b.max.y, b.min.z),
                );
                let corners = b.corners().map(|c| world.transform_point3(c).to_array());
                (
                    ColliderKind::Ramp,
                    vec![[fl, fr, tr], [fl, tr, tl]],
                    bounds(corners),
                )
            }
            EntityKind::Collider(Collider::TriMesh { mesh }) => {
                let tris = world_triangles(scene, *mesh);
                if tris.is_empty() {
                    run.report.warnings.push(format!(
                        "collider '{}': {mesh} is not a mesh with faces; skipped",
                        e.name
                    ));
                    continue;
                }
                let b = bounds(tris.iter().flatten().copied());
                (ColliderKind::TriMesh, tris, b)
            }
            EntityKind::Mesh(m) if m.collidable && !referenced.contains(&e.id) => {
                let tris = world_triangles(scene, e.id);
                let b = bounds(tris.iter().flatten().copied());
                (ColliderKind::TriMesh, tris, b)
            }
            _ => continue,
        };
        out.push(PbmCollider {
            name: names.unique(&e.name, ""),
            kind,
            bounds_min: lo,
            bounds_max: hi,
            triangles,
        });
    }
    Ok(out)
}
