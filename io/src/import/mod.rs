//! Importers: each turns a file into materials, entities and (for maps) scene
//! settings, packaged as one undoable [`ImportCommand`], plus a report.

mod command;
pub mod gltf_file;
mod gltf_physics;
pub mod image_file;
mod outcome;
pub mod pbm_map;
mod textures;
pub mod tim;
pub mod tmd;

pub use command::ImportCommand;
pub use outcome::{
    DEFAULT_TMD_METRES_PER_UNIT, IMPORT_EXTENSIONS, ImportError, ImportOptions, ImportReport,
    Imported, Progress, supported_extensions,
};

use std::path::Path;

/// Imports any supported file, chosen by extension.
pub fn import_file(
    path: &Path,
    options: &ImportOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Imported, ImportError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let read = || {
        std::fs::read(path).map_err(|source| ImportError::Read {
            path: path.to_owned(),
            cause: source,
        })
    };
    match ext.as_str() {
        "pbm" => pbm_map::import(&read()?, path, options, progress),
        "tmd" => tmd::import_file(&read()?, path, options),
        "gltf" | "glb" => gltf_file::import(&read()?, path, options, progress),
        "png" | "jpg" | "jpeg" | "tga" | "bmp" | "webp" => image_file::import(path, options),
        _ => Err(ImportError::Unsupported {
            path: path.to_owned(),
        }),
    }
}
