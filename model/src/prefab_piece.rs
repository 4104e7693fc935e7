//! A prefab: the entities of a built piece with ids of its own (1, 2, … in
//! outliner order, kept for good: overrides name them), their parents among
//! them, the roots placed relative to the prefab's origin, links within the
//! piece following it, and the materials its meshes use. Plain data below the
//! scene and the commands, which hold prefabs; made of a scene's entities in
//! `prefab/gather.rs`.

use serde::{Deserialize, Serialize};

use crate::entity::{Entity, EntityKind};
use crate::id::MaterialId;
use crate::material::Material;
use crate::prefab_link::PrefabId;

/// The form a prefab file is written in.
pub const FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prefab {
    pub format: u32,
    pub id: PrefabId,
    pub name: String,
    /// Linked copies within one map: kept in the map only, never a file in
    /// the project's `prefabs/`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub local: bool,
    /// In outliner order, parents before their children.
    pub entities: Vec<Entity>,
    /// The materials its meshes use, by the ids its faces name.
    pub materials: Vec<(MaterialId, Material)>,
}

impl Prefab {
    /// Whether it holds together: ids unique and not 0, parents among its
    /// entities and before their children, every material its meshes use.
    pub fn check(&self) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        for e in &self.entities {
            if e.id.0 == 0 || !seen.insert(e.id) {
                return Err(format!("{}: its id {} is 0 or taken twice", e.name, e.id));
            }
            if let Some(p) = e.parent
                && !seen.contains(&p)
            {
                return Err(format!(
                    "{}: its parent {p} is not one of the prefab's entities before it",
                    e.name
                ));
            }
            for m in used_materials(e) {
                if !self.materials.iter().any(|(k, _)| *k == m) {
                    return Err(format!(
                        "{}: its material {} is not in the prefab",
                        e.name, m.0
                    ));
                }
            }
        }
        Ok(())
    }
}

pub(crate) fn used_materials(e: &Entity) -> Vec<MaterialId> {
    let geometry = match &e.kind {
        EntityKind::Mesh(m) => &m.geometry,
        EntityKind::Walkable(g) => g,
        _ => return Vec::new(),
    };
    let mut out: Vec<MaterialId> = Vec::new();
    for f in &geometry.faces {
        if !out.contains(&f.material) {
            out.push(f.material);
        }
    }
    out
}
