//! A prefab: the entities of a built piece with ids of its own (1, 2, … in
//! outliner order, kept for good: overrides name them), their parents among
//! them, the roots placed relative to the prefab's origin, links within the
//! piece following it, and the materials its meshes use.

use std::collections::HashMap;

use glam::{Affine3A, Vec3};
use serde::{Deserialize, Serialize};

use super::link::PrefabId;
use crate::entity::{Entity, EntityKind};
use crate::id::{EntityId, MaterialId};
use crate::material::Material;
use crate::math::Transform;
use crate::scene::Scene;

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
    /// The piece made of `roots` of `scene` and everything under them, placed
    /// relative to `origin` (world space; rotations and scales kept).
    pub fn from_entities(
        id: PrefabId,
        name: impl Into<String>,
        scene: &Scene,
        roots: &[EntityId],
        origin: Vec3,
    ) -> Result<Self, String> {
        Self::from_entities_mapped(id, name, scene, roots, origin).map(|(p, _)| p)
    }

    /// As [`Prefab::from_entities`], with each scene entity taken and the id it
    /// has in the prefab, in the prefab's order.
    pub fn from_entities_mapped(
        id: PrefabId,
        name: impl Into<String>,
        scene: &Scene,
        roots: &[EntityId],
        origin: Vec3,
    ) -> Result<(Self, Vec<(EntityId, EntityId)>), String> {
        let mut order = Vec::new();
        for r in roots {
            if scene.entity(*r).is_none() {
                return Err(format!("{r} is not in the scene"));
            }
            // A root under another root comes in with it, once.
            if roots
                .iter()
                .any(|other| other != r && is_under(scene, *r, *other))
            {
                continue;
            }
            gather(scene, *r, &mut order);
        }
        if order.is_empty() {
            return Err("a prefab needs at least one entity".into());
        }
        let own: HashMap<EntityId, EntityId> = order
            .iter()
            .enumerate()
            .map(|(k, id)| (*id, EntityId(k as u32 + 1)))
            .collect();
        let place = Affine3A::from_translation(-origin);
        let mut entities = Vec::with_capacity(order.len());
        let mut materials: Vec<(MaterialId, Material)> = Vec::new();
        for id in &order {
            let Some(source) = scene.entity(*id) else {
                continue;
            };
            let mut e = source.clone();
            e.id = own[id];
            e.source = None;
            e.parent = e.parent.and_then(|p| own.get(&p).copied());
            if e.parent.is_none() {
                e.transform = Transform::from_affine(place * scene.world_transform(*id));
            }
            // Links within the piece follow it; links out of it stay (an
            // instance resolves them in its scene).
            e.map_links(&mut |r| own.get(&r).copied().unwrap_or(r));
            for m in used_materials(&e) {
                if !materials.iter().any(|(k, _)| *k == m)
                    && let Some(mat) = scene.material(m)
                {
                    materials.push((m, mat.clone()));
                }
            }
            entities.push(e);
        }
        let prefab = Self {
            format: FORMAT,
            id,
            name: name.into(),
            local: false,
            entities,
            materials,
        };
        prefab.check()?;
        let mapped = order.iter().map(|s| (*s, own[s])).collect();
        Ok((prefab, mapped))
    }

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

pub(crate) fn is_under(scene: &Scene, id: EntityId, ancestor: EntityId) -> bool {
    let mut at = scene.entity(id).and_then(|e| e.parent);
    while let Some(p) = at {
        if p == ancestor {
            return true;
        }
        at = scene.entity(p).and_then(|e| e.parent);
    }
    false
}

/// `id` and what is under it, but the content of a nested instance (it comes
/// from that instance's own prefab; what was added to it comes along).
fn gather(scene: &Scene, id: EntityId, out: &mut Vec<EntityId>) {
    if out.contains(&id) {
        return;
    }
    out.push(id);
    let Some(e) = scene.entity(id) else {
        return;
    };
    let nested = e.instance.is_some();
    for c in scene.children(Some(id)) {
        if nested
            && scene
                .entity(c)
                .and_then(|c| c.source)
                .is_some_and(|s| s.instance == id)
        {
            continue;
        }
        gather(scene, c, out);
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
