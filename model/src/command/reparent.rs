//! Move entities under another parent (or to the root), keeping where they are in
//! the world.

use std::any::Any;

use super::{Command, CommandError};
use crate::id::EntityId;
use crate::math::Transform;
use crate::scene::Scene;

#[derive(Debug)]
pub struct Reparent {
    ids: Vec<EntityId>,
    parent: Option<EntityId>,
    before: Vec<(EntityId, Option<EntityId>, Transform)>,
}

impl Reparent {
    pub fn new(ids: Vec<EntityId>, parent: Option<EntityId>) -> Self {
        Self {
            ids,
            parent,
            before: Vec::new(),
        }
    }
}

impl Command for Reparent {
    fn name(&self) -> String {
        match self.parent {
            Some(_) => "Move into group".into(),
            None => "Move to top level".into(),
        }
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if let Some(p) = self.parent {
            if scene.entity(p).is_none() {
                return Err(CommandError::MissingEntity(p));
            }
            for id in &self.ids {
                if *id == p || scene.is_ancestor(*id, p) {
                    return Err(CommandError::Cycle {
                        entity: *id,
                        parent: p,
                    });
                }
            }
        }
        for id in &self.ids {
            if scene.entity(*id).is_none() {
                return Err(CommandError::MissingEntity(*id));
            }
        }
        let parent_from_world = match self.parent {
            Some(p) => scene.world_transform(p).inverse(),
            None => glam::Affine3A::IDENTITY,
        };
        self.before.clear();
        for id in &self.ids {
            let Some(e) = scene.entity(*id) else { continue };
            let (old_parent, old_transform) = (e.parent, e.transform);
            let world = scene.world_transform(*id);
            let local = Transform::from_affine(parent_from_world * world);
            scene.set_parent(*id, self.parent);
            if let Some(e) = scene.entity_mut(*id) {
                e.transform = local;
            }
            self.before.push((*id, old_parent, old_transform));
        }
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for (id, parent, transform) in self.before.drain(..).rev() {
            scene.set_parent(id, parent);
            if let Some(e) = scene.entity_mut(id) {
                e.transform = transform;
            }
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
