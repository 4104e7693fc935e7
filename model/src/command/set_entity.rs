//! Set any property of an entity: name, flags, layer, transform or its kind's data
//! (a light's colour, an emitter field, a primitive's parameters with regenerated
//! geometry...). The inspector edits a copy and hands it here. A number that changes
//! must be finite and within its [`crate::entity::limits`].

use std::any::Any;

use super::add_entities::check_entity;
use super::{Command, CommandError};
use crate::entity::Entity;
use crate::id::EntityId;
use crate::scene::Scene;

#[derive(Debug)]
pub struct SetEntity {
    name: String,
    after: Entity,
    before: Option<Entity>,
}

impl SetEntity {
    /// `after` replaces the entity with the same id; its parent cannot change here
    /// (use [`super::Reparent`]).
    pub fn new(name: impl Into<String>, after: Entity) -> Self {
        Self {
            name: name.into(),
            after,
            before: None,
        }
    }

    pub fn id(&self) -> EntityId {
        self.after.id
    }
}

impl Command for SetEntity {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        let id = self.after.id;
        let current = scene
            .entity(id)
            .ok_or(CommandError::MissingEntity(id))?
            .clone();
        if current.parent != self.after.parent {
            return Err(CommandError::Invalid(
                "use Reparent to change an entity's parent".into(),
            ));
        }
        check_entity(scene, &self.after)?;
        // Only what changes is judged: an entity read with a value out of range
        // stays editable one field at a time.
        crate::entity::check_kind(Some(&current.kind), &self.after.kind)
            .and_then(|()| {
                crate::entity::check_transform(Some(&current.transform), &self.after.transform)
            })
            .map_err(|problem| CommandError::Invalid(format!("{}: {problem}", self.after.name)))?;
        // Whether it is shown is the view's (Scene::set_visible), not the edit's:
        // an edit, its undo and its redo leave it as it is.
        if let Some(e) = scene.entity_mut(id) {
            let visible = e.visible;
            *e = self.after.clone();
            e.visible = visible;
        }
        self.before = Some(current);
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        if let Some(before) = self.before.take()
            && let Some(e) = scene.entity_mut(before.id)
        {
            let visible = e.visible;
            *e = before;
            e.visible = visible;
        }
    }

    fn merge(&mut self, next: &dyn Command) -> bool {
        match next.as_any().downcast_ref::<Self>() {
            Some(next) if next.after.id == self.after.id => {
                self.after = next.after.clone();
                true
            }
            _ => false,
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
