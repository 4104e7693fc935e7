//! Export as the editor and the command line both do it.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use pebble_io::export::{ExportOptions, export};
use pebble_model::Scene;

/// The export options a scene's own settings give, for assets under `project_dir`.
pub fn options(scene: &Scene, project_dir: PathBuf) -> ExportOptions {
    let mut options = ExportOptions::new(project_dir);
    options.ao_rays = scene.settings().export.ao_rays;
    options
}

/// A scene's map bytes, exported with the project's settings (assets under
/// `project_dir`): what deploying, previewing and comparing all start from.
pub fn to_bytes(scene: &Scene, project_dir: PathBuf, bake: bool) -> anyhow::Result<Vec<u8>> {
    let mut options = options(scene, project_dir);
    options.bake = bake;
    let (bytes, _) = export(scene, &options, &mut |_| {}, &AtomicBool::new(false))?;
    Ok(bytes)
}
