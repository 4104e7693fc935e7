//! A prefab made of a scene's entities: the roots and what is under them (but
//! what nested instances hold from their own prefabs), numbered 1, 2, … in
//! outliner order, placed from the prefab's origin, their links and materials
//! coming along.

use std::collections::HashMap;

use glam::{Affine3A, Vec3};

use crate::id::{EntityId, MaterialId};
use crate::material::Material;
use crate::math::Transform;
use crate::prefab_link::PrefabId;
use crate::prefab_piece::{FORMAT, Prefab, used_materials};
use crate::scene::Scene;

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
