//! What an import is asked and gives back: its options, the imported things,
//! the report, progress, and why a file could not be imported.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pebble_model::Kind;

use super::command::ImportCommand;

/// Why a file could not be imported. Every variant names the file and where in it.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read {}: {cause}", path.display())]
    Read {
        path: PathBuf,
        /// Said in the message, so not the error's source (a chain would say it twice).
        cause: std::io::Error,
    },
    #[error("cannot write {}: {cause}", path.display())]
    Write {
        path: PathBuf,
        /// Said in the message, so not the error's source (a chain would say it twice).
        cause: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Format { path: PathBuf, message: String },
    #[error("{}: unsupported file type (expected {})", path.display(), supported_extensions())]
    Unsupported { path: PathBuf },
}

impl ImportError {
    pub(crate) fn format(path: &Path, message: impl Into<String>) -> Self {
        Self::Format {
            path: path.to_owned(),
            message: message.into(),
        }
    }
}

/// What an import produced and what the user should know about it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImportReport {
    pub entities: BTreeMap<Kind, usize>,
    pub materials: usize,
    /// Texture files written into the project (project-relative).
    pub textures_written: Vec<String>,
    pub warnings: Vec<String>,
    /// What the file holds that the import leaves out (animations, skins, an
    /// extension it does not read…), each said once.
    pub dropped: std::collections::BTreeSet<String>,
}

impl ImportReport {
    pub fn entity_count(&self) -> usize {
        self.entities.values().sum()
    }
}

/// An import ready to execute.
#[derive(Debug)]
pub struct Imported {
    pub command: ImportCommand,
    pub report: ImportReport,
}

/// Progress of a long import: `done` of `total` units of the named stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub stage: &'static str,
    pub done: u64,
    pub total: u64,
}

/// Options shared by the importers.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// Folder of the project: textures are written under `textures/` there and
    /// referenced relative to it.
    pub project_dir: PathBuf,
    /// A TIM file for a TMD (default: the TMD's name with `.tim`).
    pub tim: Option<PathBuf>,
    /// Metres per TMD unit (before the object's own 2^scale).
    pub tmd_metres_per_unit: f32,
}

/// TMD units are arbitrary; one centimetre suits most PS1 level and prop models.
pub const DEFAULT_TMD_METRES_PER_UNIT: f32 = 0.01;

impl ImportOptions {
    pub fn new(project_dir: impl Into<PathBuf>) -> Self {
        Self {
            project_dir: project_dir.into(),
            tim: None,
            tmd_metres_per_unit: DEFAULT_TMD_METRES_PER_UNIT,
        }
    }
}

/// Every file extension `import_file` takes, lower case, without the dot.
pub const IMPORT_EXTENSIONS: &[&str] = &[
    "gltf", "glb", "tmd", "pbm", "png", "jpg", "jpeg", "tga", "bmp", "webp",
];

/// The extensions `import_file` takes as a list for help texts and errors:
/// `.gltf, .glb, … or .bmp`.
pub fn supported_extensions() -> String {
    let dotted: Vec<String> = IMPORT_EXTENSIONS.iter().map(|e| format!(".{e}")).collect();
    match dotted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => dotted.concat(),
    }
}
