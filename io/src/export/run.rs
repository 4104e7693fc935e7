//! What an export is asked, says and answers: its options, report, progress and
//! errors, and the state a run's stages share.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pebble_model::Scene;

use super::capacity::ExportLimits;

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
        super::capacity::size_text(.size_m)
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
        super::capacity::mib(*.bytes),
        .bytes,
        super::capacity::mib(.limits.max_bytes),
        .limits.max_bytes
    )]
    MapTooLarge {
        bytes: u64,
        detail: String,
        limits: ExportLimits,
    },
    #[error("the entity definitions: {message}")]
    Definitions { message: String },
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
    /// The game's entity kinds; `None`: `entities.ron` in `project_dir` is read
    /// when the scene has game entities.
    pub definitions: Option<std::sync::Arc<pebble_model::definitions::Definitions>>,
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
            definitions: None,
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
    pub estimate: super::capacity::Estimate,
}

impl Run<'_> {
    pub fn check_cancel(&self) -> Result<(), ExportError> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(ExportError::Cancelled)
        } else {
            Ok(())
        }
    }

    pub fn stage<T>(
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
