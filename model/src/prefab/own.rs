//! A prefab opened on its own, as a scene of its own: its entities with the
//! ids they have in the prefab (so that saving keeps every override's key),
//! its materials, the prefabs nested in it read from the same folder with
//! their instances' content, its name as the map's; and saved back to its file
//! — the nested instances' content left out, as their own prefabs hold it.
//! `project::load` and `project::save` come here for a `*.prefab.ron`, so that
//! opening, saving, autosave and recovery work as for any project.

use std::collections::BTreeMap;
use std::path::Path;

use super::file::{self, EXTENSION, Folder};
use super::sync::plan_sync;
use crate::command::{Command, Fresh, Patch};
use crate::id::IdAllocator;
use crate::prefab_piece::{FORMAT, Prefab, used_materials};
use crate::scene::{Scene, SceneData};

/// Whether `path` names a prefab file.
pub fn is_prefab_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(EXTENSION))
}

/// The project folder of a prefab file (`PROJECT/prefabs/X.prefab.ron`): the
/// one its textures' paths start from.
pub fn project_folder(path: &Path) -> Option<&Path> {
    let dir = path.parent()?;
    (dir.file_name().and_then(|n| n.to_str()) == Some(file::FOLDER))
        .then(|| dir.parent())
        .flatten()
}

/// The scene of the prefab file at `path`.
pub fn open(path: &Path) -> Result<Scene, String> {
    let prefab = file::load(path)?;
    let folder = project_folder(path).map(Folder::read).unwrap_or_default();
    let mut data = SceneData::default();
    for e in &prefab.entities {
        data.order.push(e.id);
        data.entities.insert(e.id, e.clone());
    }
    data.materials = prefab.materials.iter().cloned().collect();
    data.settings.map_name = prefab.name.clone();
    data.settings.prefab = Some(prefab.id);
    // The prefabs nested in it, and those nested in them.
    let mut wanted: Vec<_> = prefab
        .entities
        .iter()
        .filter_map(|e| e.instance.as_ref().map(|l| l.prefab))
        .collect();
    let mut nested = BTreeMap::new();
    while let Some(id) = wanted.pop() {
        if nested.contains_key(&id) {
            continue;
        }
        let Some((_, p)) = folder.read.iter().find(|(_, p)| p.id == id) else {
            return Err(format!(
                "{}: it holds an instance of a prefab its folder does not have ({id}); put that prefab's file beside it",
                path.display()
            ));
        };
        wanted.extend(
            p.entities
                .iter()
                .filter_map(|e| e.instance.as_ref().map(|l| l.prefab)),
        );
        nested.insert(id, p.clone());
    }
    data.prefabs = nested;
    let mut scene = Scene::from_data(data, IdAllocator::default());
    let roots: Vec<_> = scene
        .entities()
        .filter(|e| e.instance.is_some())
        .map(|e| e.id)
        .collect();
    if !roots.is_empty() {
        let mut patch = Patch::new("Open the prefab");
        plan_sync(
            &scene,
            &BTreeMap::new(),
            &roots,
            &mut patch,
            &mut Fresh::default(),
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
        patch
            .apply(&mut scene)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(scene)
}

/// The prefab `scene` (a prefab opened on its own) holds: every entity but
/// what its nested instances hold from their own prefabs, with its id.
pub fn prefab_of(scene: &Scene) -> Result<Prefab, String> {
    let id = scene
        .settings()
        .prefab
        .ok_or("this scene is a map, not a prefab opened on its own")?;
    let mut entities = Vec::new();
    for id in &scene.data().order {
        let Some(e) = scene.entity(*id) else { continue };
        let derived = e
            .source
            .is_some_and(|s| scene.instance_of(e.id) == Some(s.instance));
        if derived {
            continue;
        }
        entities.push(e.clone());
    }
    let mut materials = Vec::new();
    for e in &entities {
        for m in used_materials(e) {
            if !materials.iter().any(|(k, _)| *k == m)
                && let Some(mat) = scene.material(m)
            {
                materials.push((m, mat.clone()));
            }
        }
    }
    let prefab = Prefab {
        format: FORMAT,
        id,
        name: scene.settings().map_name.clone(),
        local: false,
        entities,
        materials,
    };
    prefab.check()?;
    for e in &prefab.entities {
        if let Some(inner) = e.instance.as_ref().and_then(|l| scene.prefab(l.prefab))
            && let Some(chain) = super::sync::chain_to(scene, inner, id)
        {
            return Err(format!(
                "{}: a prefab may not contain itself: {} › {chain}",
                e.name, prefab.name
            ));
        }
    }
    Ok(prefab)
}

/// Writes `scene` (a prefab opened on its own) to its file at `path`.
pub fn save(path: &Path, scene: &Scene) -> Result<(), String> {
    file::save(path, &prefab_of(scene)?)
}
