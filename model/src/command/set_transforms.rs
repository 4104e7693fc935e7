//! Set the transforms of many entities at once (gizmo drags, typed values).

use std::any::Any;

use super::{Command, CommandError};
use crate::id::EntityId;
use crate::math::Transform;
use crate::scene::Scene;

#[derive(Debug)]
pub struct SetTransforms {
    name: String,
    after: Vec<(EntityId, Transform)>,
    before: Vec<Transform>,
}

impl SetTransforms {
    pub fn new(name: impl Into<String>, after: Vec<(EntityId, Transform)>) -> Self {
        Self {
            name: name.into(),
            after,
            before: Vec::new(),
        }
    }

    /// The transforms it sets.
    pub fn after(&self) -> &[(EntityId, Transform)] {
        &self.after
    }
}

impl Command for SetTransforms {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        let mut before = Vec::with_capacity(self.after.len());
        for (id, t) in &self.after {
            let e = scene.entity(*id).ok_or(CommandError::MissingEntity(*id))?;
            // Every value finite; a position or scale that changes within its limit
            // (a scale never zero).
            crate::entity::check_transform(Some(&e.transform), t)
                .map_err(|problem| CommandError::Invalid(format!("{}: {problem}", e.name)))?;
            before.push(e.transform);
        }
        for (id, t) in &self.after {
            if let Some(e) = scene.entity_mut(*id) {
                e.transform = *t;
            }
        }
        self.before = before;
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for ((id, _), t) in self.after.iter().zip(&self.before) {
            if let Some(e) = scene.entity_mut(*id) {
                e.transform = *t;
            }
        }
    }

    fn merge(&mut self, next: &dyn Command) -> bool {
        let Some(next) = next.as_any().downcast_ref::<Self>() else {
            return false;
        };
        let same_targets = next.after.len() == self.after.len()
            && next.after.iter().zip(&self.after).all(|(a, b)| a.0 == b.0);
        if same_targets {
            self.after = next.after.clone();
        }
        same_targets
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
