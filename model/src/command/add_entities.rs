//! Add entities (a whole subtree at once): the result of creating, importing or
//! pasting.

use std::any::Any;
use std::collections::{HashMap, HashSet};

use super::{Command, CommandError};
use crate::entity::{Entity, EntityKind};
use crate::id::EntityId;
use crate::scene::Scene;

/// Adds entities given parents first. Their ids are local to the batch until the
/// first apply, which allocates real ones (kept for redo); a parent that is not in
/// the batch must exist in the scene.
#[derive(Debug)]
pub struct AddEntities {
    name: String,
    entities: Vec<Entity>,
    assigned: bool,
    select: bool,
    selection_before: Vec<EntityId>,
}

impl AddEntities {
    pub fn new(name: impl Into<String>, entities: Vec<Entity>) -> Self {
        Self {
            name: name.into(),
            entities,
            assigned: false,
            select: true,
            selection_before: Vec::new(),
        }
    }

    /// Leaves the selection alone.
    pub fn without_selecting(mut self) -> Self {
        self.select = false;
        self
    }

    /// The real ids, after the first apply (in the order given).
    pub fn created(&self) -> Vec<EntityId> {
        if self.assigned {
            self.entities.iter().map(|e| e.id).collect()
        } else {
            Vec::new()
        }
    }

    /// After the first apply: gives the added entities named in `after` these
    /// transforms, and the meshes named in `uvs` these face UVs, for a redo to
    /// add them as they were left. `false` (and no change) unless every one
    /// named is among them (and each mesh has as many faces as UVs given).
    pub(crate) fn place(
        &mut self,
        after: &[(EntityId, crate::math::Transform)],
        uvs: &[(EntityId, Vec<[glam::Vec2; 3]>)],
    ) -> bool {
        let ours = |id: &EntityId| self.entities.iter().any(|e| e.id == *id);
        let fits = |(id, uvs): &(EntityId, Vec<[glam::Vec2; 3]>)| {
            self.entities.iter().any(|e| {
                e.id == *id
                    && matches!(&e.kind, EntityKind::Mesh(m) if m.geometry.faces.len() == uvs.len())
            })
        };
        if !self.assigned || !after.iter().all(|(id, _)| ours(id)) || !uvs.iter().all(fits) {
            return false;
        }
        for (id, t) in after {
            if let Some(e) = self.entities.iter_mut().find(|e| e.id == *id) {
                e.transform = *t;
            }
        }
        for (id, uvs) in uvs {
            if let Some(EntityKind::Mesh(m)) = self
                .entities
                .iter_mut()
                .find(|e| e.id == *id)
                .map(|e| &mut e.kind)
            {
                for (face, uv) in m.geometry.faces.iter_mut().zip(uvs) {
                    face.uvs = *uv;
                }
            }
        }
        true
    }

    fn assign_ids(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        // Local id 0 means "a new entity nothing in the batch refers to".
        let mut local = HashSet::new();
        for e in &self.entities {
            if e.id.0 != 0 && !local.insert(e.id) {
                return Err(CommandError::Invalid(format!(
                    "entity id {} appears twice in one batch",
                    e.id
                )));
            }
        }
        // Check everything before allocating, so a refused batch wastes no ids.
        for e in &self.entities {
            if let Some(p) = e.parent
                && !local.contains(&p)
                && scene.entity(p).is_none()
            {
                return Err(CommandError::MissingEntity(p));
            }
        }
        let mut real = HashMap::new();
        for e in &mut self.entities {
            let id = scene.ids.entity();
            if e.id.0 != 0 {
                real.insert(e.id, id);
            }
            e.id = id;
        }
        for e in &mut self.entities {
            if let Some(p) = e.parent {
                e.parent = Some(real.get(&p).copied().unwrap_or(p));
            }
            // Links within the batch follow it; links out of it stay.
            e.map_links(&mut |r| real.get(&r).copied().unwrap_or(r));
        }
        self.assigned = true;
        Ok(())
    }
}

pub(crate) fn check_entity(scene: &Scene, e: &Entity) -> Result<(), CommandError> {
    let geometry = match &e.kind {
        EntityKind::Mesh(m) => Some(&m.geometry),
        EntityKind::Walkable(g) => Some(g),
        _ => None,
    };
    if let Some(g) = geometry {
        g.validate()
            .map_err(|err| CommandError::Invalid(format!("{}: {err}", e.name)))?;
        for f in &g.faces {
            if scene.material(f.material).is_none() {
                return Err(CommandError::MissingMaterial(f.material));
            }
        }
    }
    Ok(())
}

impl Command for AddEntities {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if !self.assigned {
            self.assign_ids(scene)?;
        }
        for e in &self.entities {
            check_entity(scene, e)?;
            if let Some(p) = e.parent
                && scene.entity(p).is_none()
                && !self.entities.iter().any(|x| x.id == p)
            {
                return Err(CommandError::MissingEntity(p));
            }
        }
        self.selection_before = scene.selection().to_vec();
        for e in &self.entities {
            let end = scene.data().order.len();
            scene.insert_entity(e.clone(), end);
        }
        if self.select {
            let roots = self
                .entities
                .iter()
                .filter(|e| {
                    !e.parent
                        .is_some_and(|p| self.entities.iter().any(|x| x.id == p))
                })
                .map(|e| e.id)
                .collect();
            scene.set_selection(roots);
        }
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for e in self.entities.iter().rev() {
            scene.take_entity(e.id);
        }
        if self.select {
            scene.set_selection(std::mem::take(&mut self.selection_before));
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
