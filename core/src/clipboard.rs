//! Copy, cut and paste through the system clipboard, as text (RON): the selected
//! entities with what they hold, the materials their faces use, and the project
//! folder they came from, so that a paste into another project (another window)
//! brings the textures along, copied into its folder. A paste is one undo step,
//! in place, or with its middle under the cursor.

use std::path::{Path, PathBuf};

use pebble_model::command::Paste;
use pebble_model::entity::EntityKind;
use pebble_model::glam::Vec3;
use pebble_model::prefab::Prefab;
use pebble_model::{Entity, EntityId, Material, MaterialId};
use serde::{Deserialize, Serialize};

use super::document::Document;

/// What the clipboard holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clip {
    /// Says the text is Pebble's (and which version of it).
    pub pebble_clipboard: u32,
    /// The project folder the textures' paths are relative to.
    pub folder: PathBuf,
    pub materials: Vec<(MaterialId, Material)>,
    /// Parents first; the roots' parents are dropped.
    pub entities: Vec<Entity>,
    /// The prefabs the copied instances are copies of (nested ones too), so
    /// that a paste into another project brings them along.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prefabs: Vec<Prefab>,
}

const VERSION: u32 = 1;

/// The selection (with what it holds) as clipboard text; `None` with nothing
/// selected.
pub fn copy(doc: &Document) -> Option<String> {
    let scene = doc.scene();
    let roots = doc.moved_entities();
    if roots.is_empty() {
        return None;
    }
    let mut members: Vec<EntityId> = Vec::new();
    for id in &roots {
        for m in scene.subtree(*id) {
            if !members.contains(&m) {
                members.push(m);
            }
        }
    }
    // In scene order: parents before their children.
    let entities: Vec<Entity> = scene
        .entities()
        .filter(|e| members.contains(&e.id))
        .map(|e| {
            let mut e = e.clone();
            if roots.contains(&e.id) {
                // Where it goes, its parent may not be: it lands where it was, in
                // the world.
                e.transform = pebble_model::Transform::from_affine(scene.world_transform(e.id));
                e.parent = None;
            }
            e
        })
        .collect();
    let mut materials: Vec<(MaterialId, Material)> = Vec::new();
    for e in &entities {
        if let EntityKind::Mesh(m) = &e.kind {
            for id in m.geometry.materials() {
                if !materials.iter().any(|(k, _)| *k == id)
                    && let Some(material) = scene.material(id)
                {
                    materials.push((id, material.clone()));
                }
            }
        }
    }
    let prefabs = prefabs_used(scene, &entities);
    for p in &prefabs {
        for (id, m) in &p.materials {
            if !materials.iter().any(|(k, _)| k == id) {
                materials.push((*id, m.clone()));
            }
        }
    }
    let clip = Clip {
        pebble_clipboard: VERSION,
        folder: doc.folder(),
        materials,
        entities,
        prefabs,
    };
    ron::to_string(&clip).ok()
}

/// The prefabs `entities` are instances of, and those nested in them.
fn prefabs_used(scene: &pebble_model::Scene, entities: &[Entity]) -> Vec<Prefab> {
    let mut out: Vec<Prefab> = Vec::new();
    let mut wanted: Vec<_> = entities
        .iter()
        .filter_map(|e| e.instance.as_ref().map(|l| l.prefab))
        .collect();
    while let Some(id) = wanted.pop() {
        if out.iter().any(|p| p.id == id) {
            continue;
        }
        if let Some(p) = scene.prefab(id) {
            wanted.extend(
                p.entities
                    .iter()
                    .filter_map(|e| e.instance.as_ref().map(|l| l.prefab)),
            );
            out.push(p.clone());
        }
    }
    out
}

/// Where a paste puts things: where they were (stepped aside from anything that
/// already stands exactly there), or with their middle at a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Place {
    AsTheyWere,
    At(Vec3),
}

/// Pastes clipboard `text` into the document as one step; returns how many
/// entities arrived. Textures the project does not have are copied into its
/// folder from the one they were copied in.
/// How far, in metres, a point under the cursor may be from the surface it is on.
const SURFACE_SNAP: f32 = 0.01;

pub fn paste(doc: &mut Document, text: &str, place: Place) -> Result<usize, String> {
    let mut clip: Clip = ron::from_str(text.trim()).map_err(|_| {
        "the clipboard holds no Pebble entities (copy some with Ctrl+C)".to_string()
    })?;
    if clip.pebble_clipboard != VERSION {
        return Err(format!(
            "the clipboard's entities come from another Pebble (version {}); copy them again",
            clip.pebble_clipboard
        ));
    }
    if clip.entities.is_empty() {
        return Err("the clipboard holds no entities".into());
    }
    let target = doc.folder();
    if clip.folder != target {
        bring_textures(&clip, &target)?;
    }
    // In place, copies would sit exactly on what they were copied from (pasting
    // twice stacked them invisibly): where a root would land on an entity already
    // there, the copies step aside a metre at a time until none does.
    if place == Place::AsTheyWere {
        let scene = doc.scene();
        let taken = |p: Vec3| {
            scene
                .entities()
                .any(|e| e.parent.is_none() && e.transform.translation.distance(p) < 1e-3)
        };
        let roots: Vec<usize> = (0..clip.entities.len())
            .filter(|k| clip.entities[*k].parent.is_none())
            .collect();
        let mut aside = Vec3::ZERO;
        for _ in 0..64 {
            if !roots
                .iter()
                .any(|k| taken(clip.entities[*k].transform.translation + aside))
            {
                break;
            }
            aside += Vec3::new(1.0, 0.0, 1.0);
        }
        for k in roots {
            clip.entities[k].transform.translation += aside;
        }
    }
    if let Place::At(mut point) = place {
        // The point comes from the depth buffer, a hair above or below the
        // surface (-0.0002 under a floor): it lands on the surface itself.
        if let Some(surface) =
            crate::edit_ops::floor_below(doc.scene(), point + Vec3::Y * SURFACE_SNAP, &[])
            && (surface - point.y).abs() <= SURFACE_SNAP
        {
            point.y = surface;
        }
        let roots: Vec<usize> = (0..clip.entities.len())
            .filter(|k| clip.entities[*k].parent.is_none())
            .collect();
        let middle = roots
            .iter()
            .map(|k| clip.entities[*k].transform.translation)
            .sum::<Vec3>()
            / roots.len().max(1) as f32;
        for k in roots {
            clip.entities[k].transform.translation += point - middle;
        }
    }
    // A pasted root whose name is taken is numbered ("Stairs 2"), like a copy.
    let mut taken: std::collections::BTreeSet<String> =
        doc.scene().entities().map(|e| e.name.clone()).collect();
    for e in clip.entities.iter_mut().filter(|e| e.parent.is_none()) {
        e.name = pebble_model::naming::next_free(&e.name, false, |n| taken.contains(n));
        taken.insert(e.name.clone());
    }
    let n = clip.entities.len();
    doc.execute(Paste::new(clip.materials, clip.entities).with_prefabs(clip.prefabs))
        .map_err(|e| format!("cannot paste: {e}"))?;
    Ok(n)
}

/// Copies the clip's textures that the target folder lacks into it, at the same
/// relative paths.
fn bring_textures(clip: &Clip, target: &Path) -> Result<(), String> {
    for (_, m) in &clip.materials {
        let Some(texture) = &m.texture else { continue };
        let to = target.join(texture);
        if to.exists() {
            continue;
        }
        let from = clip.folder.join(texture);
        if !from.is_file() {
            continue;
        }
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        }
        std::fs::copy(&from, &to)
            .map_err(|e| format!("cannot copy {} into the project: {e}", from.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
