//! Whole entities, the outliner order, prefabs and materials put in place at
//! once: the step prefab edits are made of (making one, placing a copy, an
//! instance following its prefab, unlinking). Plain data planned by a function
//! that reads the scene (`prefab::edit`, `prefab::sync`), so that each of those
//! is a function and not a command type of its own. New entities carry
//! placeholder ids ([`Fresh`]) that become real ids on the first apply, with
//! every link to them; redo reuses them.

use std::any::Any;
use std::collections::HashMap;

use super::{Command, CommandError};
use crate::entity::Entity;
use crate::id::{EntityId, MaterialId};
use crate::material::Material;
use crate::prefab_link::PrefabId;
use crate::prefab_piece::Prefab;
use crate::scene::Scene;

/// Hands out placeholder ids for entities a plan creates, from the top of the
/// id space down (real ids count up from 1 and never get there).
#[derive(Debug, Default)]
pub struct Fresh {
    given: u32,
}

impl Fresh {
    const FIRST: u32 = u32::MAX - 1;

    pub fn id(&mut self) -> EntityId {
        let id = EntityId(Self::FIRST - self.given);
        self.given += 1;
        id
    }

    pub fn is_placeholder(id: EntityId) -> bool {
        id.0 > Self::FIRST - (1 << 24)
    }
}

#[derive(Debug, Default)]
pub struct Patch {
    name: String,
    /// The entities as they will be (`None`: removed).
    entities: Vec<(EntityId, Option<Entity>)>,
    /// The whole outliner order afterwards, when it changes.
    order: Option<Vec<EntityId>>,
    prefabs: Vec<(PrefabId, Option<Prefab>)>,
    /// Materials added when missing (a prefab placed where its materials are not).
    materials: Vec<(MaterialId, Material)>,
    selection: Option<Vec<EntityId>>,
    before: Option<Before>,
    ids_assigned: bool,
}

#[derive(Debug)]
struct Before {
    entities: Vec<(EntityId, Option<Entity>)>,
    order: Vec<EntityId>,
    prefabs: Vec<(PrefabId, Option<Prefab>)>,
    materials_added: Vec<MaterialId>,
}

impl Patch {
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..Self::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
            && self.order.is_none()
            && self.prefabs.is_empty()
            && self.materials.is_empty()
            && self.selection.is_none()
    }

    pub fn put(&mut self, entity: Entity) {
        self.entities.push((entity.id, Some(entity)));
    }

    /// What it plans for the entities, in the order planned (the last plan of
    /// an entity is the one that holds).
    pub fn planned(&self) -> &[(EntityId, Option<Entity>)] {
        &self.entities
    }

    pub fn remove(&mut self, id: EntityId) {
        self.entities.push((id, None));
    }

    pub fn set_order(&mut self, order: Vec<EntityId>) {
        self.order = Some(order);
    }

    pub fn put_prefab(&mut self, prefab: Prefab) {
        self.prefabs.push((prefab.id, Some(prefab)));
    }

    pub fn add_material(&mut self, id: MaterialId, material: Material) {
        self.materials.push((id, material));
    }

    pub fn select(&mut self, ids: Vec<EntityId>) {
        self.selection = Some(ids);
    }

    /// The real ids of what it created, by placeholder (after the first apply).
    fn assign_ids(&mut self, scene: &mut Scene) {
        if self.ids_assigned {
            return;
        }
        self.ids_assigned = true;
        let mut real: HashMap<EntityId, EntityId> = HashMap::new();
        for (id, _) in &self.entities {
            if Fresh::is_placeholder(*id) && !real.contains_key(id) {
                real.insert(*id, scene.ids.entity());
            }
        }
        if real.is_empty() {
            return;
        }
        let map = |r: EntityId| real.get(&r).copied().unwrap_or(r);
        for (id, e) in &mut self.entities {
            *id = map(*id);
            if let Some(e) = e {
                e.id = map(e.id);
                e.parent = e.parent.map(map);
                e.map_links(&mut |r| map(r));
            }
        }
        if let Some(order) = &mut self.order {
            order.iter_mut().for_each(|id| *id = map(*id));
        }
        if let Some(sel) = &mut self.selection {
            sel.iter_mut().for_each(|id| *id = map(*id));
        }
    }

    /// Where the entities of the patch are now, by their placeholder or id:
    /// the ids it gave (after apply).
    pub fn created(&self) -> Vec<EntityId> {
        self.before
            .as_ref()
            .map(|b| {
                b.entities
                    .iter()
                    .filter(|(_, was)| was.is_none())
                    .map(|(id, _)| *id)
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Patch {
    /// What is put must hold together as any command's entity must: its
    /// geometry indexes its own vertices, its faces' materials exist (here or
    /// in what the patch brings).
    fn check(&self, scene: &Scene, e: &Entity) -> Result<(), CommandError> {
        let geometry = match &e.kind {
            crate::entity::EntityKind::Mesh(m) => &m.geometry,
            crate::entity::EntityKind::Walkable(g) => g,
            _ => return Ok(()),
        };
        geometry
            .validate()
            .map_err(|err| CommandError::Invalid(format!("{}: {err}", e.name)))?;
        for f in &geometry.faces {
            if scene.material(f.material).is_none()
                && !self.materials.iter().any(|(id, _)| *id == f.material)
            {
                return Err(CommandError::MissingMaterial(f.material));
            }
        }
        Ok(())
    }
}

impl Command for Patch {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        for (id, after) in &self.entities {
            match after {
                None if scene.entity(*id).is_none() => {
                    return Err(CommandError::MissingEntity(*id));
                }
                Some(e) => self.check(scene, e)?,
                None => {}
            }
        }
        self.assign_ids(scene);
        let mut before = Before {
            entities: Vec::with_capacity(self.entities.len()),
            order: scene.data().order.clone(),
            prefabs: Vec::with_capacity(self.prefabs.len()),
            materials_added: Vec::new(),
        };
        for (id, m) in &self.materials {
            if scene.material(*id).is_none() {
                scene.insert_material(*id, m.clone());
                before.materials_added.push(*id);
            }
        }
        for (id, after) in &self.entities {
            let was = match after {
                None => scene.take_entity(*id).map(|(e, _)| e),
                Some(e) if scene.entity(*id).is_some() => scene.put_entity(e.clone()),
                Some(e) => {
                    let end = scene.data().order.len();
                    scene.insert_entity(e.clone(), end);
                    None
                }
            };
            before.entities.push((*id, was));
        }
        for (id, p) in &self.prefabs {
            let was = scene.put_prefab(*id, p.clone());
            before.prefabs.push((*id, was));
        }
        if let Some(order) = &self.order {
            scene.set_order(order.clone());
        } else if before.entities.iter().any(|(_, was)| was.is_none()) {
            // Added at the end: the child index follows the order.
            let order = scene.data().order.clone();
            scene.set_order(order);
        }
        if let Some(sel) = &self.selection {
            scene.set_selection(sel.clone());
        }
        self.before = Some(before);
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        let Some(before) = self.before.take() else {
            return;
        };
        for (id, was) in before.prefabs.into_iter().rev() {
            scene.put_prefab(id, was);
        }
        for (id, was) in before.entities.into_iter().rev() {
            match was {
                None => {
                    scene.take_entity(id);
                }
                Some(e) if scene.entity(id).is_some() => {
                    scene.put_entity(e);
                }
                Some(e) => {
                    let end = scene.data().order.len();
                    scene.insert_entity(e, end);
                }
            }
        }
        scene.set_order(before.order);
        for id in before.materials_added {
            scene.take_material(id);
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
