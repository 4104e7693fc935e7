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
mod geometry;
mod limits;
mod lumps;
pub use lumps::written_to;
mod slice;
mod textures;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pbm::Map;
use pebble_model::Scene;

pub use limits::{ExportLimits, MAX_COORDINATE_M, MAX_MAP_BYTES, MAX_TRIANGLES};
pub use textures::ATLAS_TILE_MAX;

/// Why a scene cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("texture {path} of material '{material}': {message}")]
    Texture {
        material: String,
        path: PathBuf,
        message: String,
    },
    #[error("{entity}: {message}")]
    Entity { entity: String, message: String },
    #[error("the exported map would not conform: {0}")]
    NotCompliant(String),
    /// An entity needs more than a PSP can hold (`limits`): it reaches too far from
    /// the origin or its triangles, cut for the GE, are too many. `size_m` is the
    /// size of its geometry after its transform, in metres.
    #[error(
        "'{entity}' is too large for a PSP: {problem} (its size after its transform: {}). Scale it down or simplify it; {limits}",
        limits::size_text(.size_m)
    )]
    TooLarge {
        entity: String,
        size_m: [f32; 3],
        problem: String,
        limits: ExportLimits,
    },
    /// The whole file would be larger than a PSP can hold.
    #[error(
        "the map would take {} ({} bytes; {detail}); a PSP map can take at most {} ({} bytes): lower the project's maximum texture size, use fewer textures, or scale down or simplify the largest meshes",
        limits::mib(*.bytes),
        .bytes,
        limits::mib(.limits.max_bytes),
        .limits.max_bytes
    )]
    MapTooLarge {
        bytes: u64,
        detail: String,
        limits: ExportLimits,
    },
    #[error("export cancelled")]
    Cancelled,
    #[error("cannot write the map: {0}")]
    Write(String),
}

#[derive(Debug, Clone)]
pub struct ExportOptions {
    /// Folder that project-relative asset paths resolve against.
    pub project_dir: PathBuf,
    /// Bake lighting into vertex colours.
    pub bake: bool,
    pub ao_rays: u32,
    pub threads: Option<usize>,
    /// Triangles larger than this many metres on an axis are cut along a world grid
    /// of that spacing (0: never cut). The runtime clips what crosses the GE's guard
    /// band itself (`pbm::guard`), so this is for what the GE computes per vertex:
    /// baked light (a torch's pool on a 20 m wall needs vertices inside it) and fog.
    /// See `slice`.
    pub max_extent: f32,
    /// What the map may hold; a scene beyond it is refused before it is built.
    pub limits: ExportLimits,
}

impl ExportOptions {
    pub fn new(project_dir: impl Into<PathBuf>) -> Self {
        Self {
            project_dir: project_dir.into(),
            bake: true,
            ao_rays: 32,
            threads: None,
            max_extent: 8.0,
            limits: ExportLimits::PSP,
        }
    }
}

/// Time spent per stage, in order.
#[derive(Debug, Clone, Default)]
pub struct StageTimes(pub Vec<(&'static str, Duration)>);

#[derive(Debug, Clone, Default)]
pub struct ExportReport {
    pub stages: StageTimes,
    pub textures: usize,
    pub texture_bytes: usize,
    pub meshes: usize,
    pub vertices: usize,
    pub colliders: usize,
    pub lumps: usize,
    pub particles: usize,
    pub bytes: usize,
    /// Shadow and AO rays traced by the bake.
    pub rays: u64,
    pub warnings: Vec<String>,
    /// Entities whose export is off (with what they hold), by name: what the map
    /// leaves out. Hidden entities are exported and are not listed.
    pub left_out: Vec<String>,
}

/// Progress of an export stage. Each stage reports once when it is done
/// (`done == total`); a long stage (the geometry, in faces) also reports on the way,
/// with `done < total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportProgress {
    pub stage: &'static str,
    pub done: u64,
    pub total: u64,
}

pub(crate) struct Run<'a> {
    pub scene: &'a Scene,
    pub options: &'a ExportOptions,
    pub cancel: &'a AtomicBool,
    pub progress: &'a mut dyn FnMut(ExportProgress),
    pub report: ExportReport,
    /// What the scene needs apart from textures, from below (`limits::estimate`).
    pub estimate: limits::Estimate,
}

impl Run<'_> {
    pub fn check_cancel(&self) -> Result<(), ExportError> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(ExportError::Cancelled)
        } else {
            Ok(())
        }
    }

    fn stage<T>(
        &mut self,
        name: &'static str,
        f: impl FnOnce(&mut Self) -> Result<T, ExportError>,
    ) -> Result<T, ExportError> {
        self.check_cancel()?;
        let t = Instant::now();
        let out = f(self)?;
        self.report.stages.0.push((name, t.elapsed()));
        (self.progress)(ExportProgress {
            stage: name,
            done: 1,
            total: 1,
        });
        Ok(out)
    }
}

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
    let mut run = Run {
        scene,
        options,
        cancel,
        progress,
        report: ExportReport {
            left_out: left_out(scene),
            ..ExportReport::default()
        },
        estimate: limits::Estimate::default(),
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
        limits::mib(textures as u64),
        limits::mib(meshes as u64),
        limits::mib(colliders as u64),
        limits::mib(lumps as u64)
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
