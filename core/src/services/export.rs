//! Export as the editor and the command line both do it.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use pebble_io::export::{ExportOptions, export};
use pebble_model::Scene;

/// The export options a scene's own settings give, for assets under `project_dir`:
/// its AO rays, and whether its lighting is baked (Map settings; a map whose
/// colours are final, an imported `.pbm` say, keeps them with it off).
pub fn options(scene: &Scene, project_dir: PathBuf) -> ExportOptions {
    let mut options = ExportOptions::new(project_dir);
    options.ao_rays = scene.settings().export.ao_rays;
    options.bake = scene.settings().export.bake_lighting;
    options
}

/// A scene's map bytes, exported with the project's settings (assets under
/// `project_dir`): what deploying, previewing and comparing all start from.
/// `bake: false` leaves the lighting out whatever the settings say (a measure
/// of cost, the gameplay rules); `true` bakes it where the settings ask.
pub fn to_bytes(scene: &Scene, project_dir: PathBuf, bake: bool) -> anyhow::Result<Vec<u8>> {
    let mut options = options(scene, project_dir);
    options.bake &= bake;
    let (bytes, _) = export(scene, &options, &mut |_| {}, &AtomicBool::new(false))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use pebble_model::command::{AddEntities, AddMaterial, SetSettings};
    use pebble_model::glam::Vec3;
    use pebble_model::{History, Material};

    use super::*;
    use crate::create::{CreateItem, entity};

    /// Map settings' "bake lighting" was shown and saved but never read: every
    /// export baked. Off, the map keeps the colours as authored (white here); on,
    /// the sun and sky light them.
    #[test]
    fn the_map_settings_bake_switch_decides_whether_the_export_bakes() {
        let mut scene = Scene::new();
        let mut history = History::default();
        history
            .execute(&mut scene, AddMaterial::new(Material::default()))
            .expect("material");
        let material = scene.materials().map(|(id, _)| id).next();
        let wall = entity(CreateItem::Box, Vec3::ZERO, material).expect("a box");
        history
            .execute(&mut scene, AddEntities::new("Create", vec![wall]))
            .expect("adds");
        let colours = |scene: &Scene| -> Vec<u32> {
            let bytes = to_bytes(scene, std::env::temp_dir(), true).expect("exports");
            let (map, _) = pbm::Map::read(&bytes).expect("reads");
            map.meshes
                .iter()
                .flat_map(|m| m.vertices.iter().map(|v| v.color))
                .collect()
        };
        let baked = colours(&scene);
        assert!(
            baked.iter().any(|c| *c != 0xFFFF_FFFF),
            "baked by default: {baked:x?}"
        );
        let mut settings = scene.settings().clone();
        settings.export.bake_lighting = false;
        history
            .execute(&mut scene, SetSettings::new(settings))
            .expect("settings");
        let authored = colours(&scene);
        assert!(
            authored.iter().all(|c| *c == 0xFFFF_FFFF),
            "as authored with the bake off: {authored:x?}"
        );
    }
}
