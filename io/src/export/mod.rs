//! The export pipeline: scene → `.pbm` v3 bytes.
//!
//! Stages: textures (load, resize to a power of two, 5551 or 8888, deduplicate),
//! geometry (world transforms, double-sided faces in both windings, per-material
//! spatial chunks of ≤ 384 vertices, draw order opaque → cutout → blend), colliders,
//! metadata lumps in the documented order, emitters last; then the header, the
//! format's compliance check (a non-conforming file is refused, naming the entity),
//! and the bytes. Baked lighting: [`bake`]; tile atlases (materials flagged `tile`
//! packed together): `textures`.
//!
//! Before the first stage the scene is estimated against [`ExportLimits`] (what a PSP
//! can hold; see `limits`): an entity that reaches too far, needs too many triangles
//! once cut for the GE, or is not finite is refused there, before anything is built.
//! Every stage looks at the cancel flag inside its long loops, every few thousand
//! triangles or cuts, not only between stages.

pub mod bake;
pub mod bvh;
mod capacity;
pub mod game_entities;
mod geometry;
mod limits;
mod lumps;
mod run;
pub use lumps::written_to;
mod slice;
mod textures;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use pbm::Map;
use pebble_model::Scene;

pub use capacity::{ExportLimits, MAX_COORDINATE_M, MAX_MAP_BYTES, MAX_TRIANGLES};
pub(crate) use run::Run;
pub use run::{ExportError, ExportOptions, ExportProgress, ExportReport, StageTimes};
pub use textures::ATLAS_TILE_MAX;

/// The entities whose own export is off, except the meshes an exported TRIMESH
/// collider reads (an importer's collision-only meshes: they are in the map as
/// collision).
fn left_out(scene: &Scene) -> Vec<String> {
    let collision = scene.trimesh_collider_meshes();
    scene
        .entities()
        .filter(|e| !e.exported && !collision.contains(&e.id))
        .map(|e| e.name.clone())
        .collect()
}

/// Exports a scene to `.pbm` v3 bytes. `cancel` may be set from another thread.
pub fn export(
    scene: &Scene,
    options: &ExportOptions,
    progress: &mut dyn FnMut(ExportProgress),
    cancel: &AtomicBool,
) -> Result<(Vec<u8>, ExportReport), ExportError> {
    // Prefab instances are written as the plain entities they are, each named
    // with its instance ("Doorway 2/Torch") so that what the map and the Log
    // say points at one copy.
    let flat;
    let scene = if scene.data().prefabs.is_empty() {
        scene
    } else {
        flat = pebble_model::prefab::edit::flattened(scene);
        &flat
    };
    let mut run = Run {
        scene,
        options,
        cancel,
        progress,
        report: ExportReport {
            left_out: left_out(scene),
            ..ExportReport::default()
        },
        estimate: capacity::Estimate::default(),
    };
    // Before anything is built: refuse what a PSP cannot hold.
    run.check_cancel()?;
    run.estimate = limits::estimate(&run)?;
    let mut map = Map::default();
    let textures = run.stage("textures", |r| textures::build(r))?;
    map.textures = textures.textures.clone();
    let geometry = run.stage("geometry", |r| geometry::build(r, &textures))?;
    map.meshes = geometry.meshes;
    if options.bake {
        let rays = run.stage("bake", |r| {
            bake::bake(r, &mut map, &geometry.normals, &geometry.emissive)
        })?;
        run.report.rays = rays;
    }
    map.colliders = run.stage("colliders", |r| geometry::colliders(r))?;
    let (mut metadata, emitters) = run.stage("metadata", |r| lumps::build(r, &textures))?;
    if !geometry.double_sided.is_empty() {
        metadata.push(pbm::Metadata {
            tag: pbm::Name32::truncated(pbm::tag::DOUBLE_SIDED),
            kind: pbm::MetaKind::Raw,
            payload: pbm::double_sided::encode(&geometry.double_sided),
        });
    }
    map.metadata = metadata;
    map.emitters = emitters;
    if let Some(start) = lumps::header(scene, &mut map) {
        let at = start.eye;
        run.report.warnings.push(format!(
            "no player spawn: the map starts the player at ({:.1}, {:.1}, {:.1}), {}; add a Player spawn to choose where",
            at.x, at.y, at.z, start.why
        ));
    }
    let bytes = run.stage("write", |r| {
        let issues = pbm::compliance::check(&map);
        if let Some(first) = issues.first() {
            return Err(ExportError::NotCompliant(format!(
                "{first} ({} issues in all)",
                issues.len()
            )));
        }
        let bytes = map
            .to_bytes()
            .map_err(|e| ExportError::Write(e.to_string()))?;
        let limits = r.options.limits;
        if bytes.len() as u64 > limits.max_bytes {
            return Err(ExportError::MapTooLarge {
                bytes: bytes.len() as u64,
                detail: parts(&map),
                limits,
            });
        }
        r.report.bytes = bytes.len();
        Ok(bytes)
    })?;
    let r = &mut run.report;
    r.textures = map.textures.len();
    r.texture_bytes = map.textures.iter().map(|t| t.data.len()).sum();
    r.meshes = map.meshes.len();
    r.vertices = map.meshes.iter().map(|m| m.vertices.len()).sum();
    r.colliders = map.colliders.len();
    r.lumps = map.metadata.len() + usize::from(map.emitters.is_some());
    Ok((bytes, run.report))
}

/// What takes the room in a map, for a message: "textures 6.5 MiB, meshes 2 MiB, ...".
fn parts(map: &Map) -> String {
    use pbm::format::*;
    let textures: usize = map
        .textures
        .iter()
        .map(|t| TEXTURE_HEADER_SIZE + t.data.len())
        .sum();
    let meshes: usize = map
        .meshes
        .iter()
        .map(|m| MESH_HEADER_SIZE + m.vertices.len() * VERTEX_SIZE)
        .sum();
    let colliders: usize = map
        .colliders
        .iter()
        .map(|c| COLLIDER_HEADER_SIZE + c.triangles.len() * TRIANGLE_SIZE)
        .sum();
    let lumps: usize = map
        .metadata
        .iter()
        .map(|m| METADATA_HEADER_SIZE + m.payload.len())
        .sum();
    format!(
        "textures {}, meshes {}, colliders {}, metadata {}",
        capacity::mib(textures as u64),
        capacity::mib(meshes as u64),
        capacity::mib(colliders as u64),
        capacity::mib(lumps as u64)
    )
}

/// Exports and writes atomically.
pub fn export_to_file(
    scene: &Scene,
    options: &ExportOptions,
    out: &Path,
    progress: &mut dyn FnMut(ExportProgress),
    cancel: &AtomicBool,
) -> Result<ExportReport, ExportError> {
    let (bytes, report) = export(scene, options, progress, cancel)?;
    pbm::file::write_atomic(out, &bytes)
        .map_err(|e| ExportError::Write(format!("{}: {e}", out.display())))?;
    Ok(report)
}
