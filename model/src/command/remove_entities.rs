//! Remove entities with their subtrees.

use std::any::Any;
use std::collections::BTreeSet;

use super::{Command, CommandError};
use crate::entity::Entity;
use crate::id::EntityId;
use crate::scene::Scene;

#[derive(Debug)]
pub struct RemoveEntities {
    ids: Vec<EntityId>,
    removed: Vec<(Entity, usize)>,
    selection_before: Vec<EntityId>,
}

impl RemoveEntities {
    pub fn new(ids: Vec<EntityId>) -> Self {
        Self {
            ids,
            removed: Vec::new(),
            selection_before: Vec::new(),
        }
    }
}

impl Command for RemoveEntities {
    fn name(&self) -> String {
        match self.ids.len() {
            1 => "Delete entity".into(),
            n => format!("Delete {n} entities"),
        }
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if let Some(missing) = self.ids.iter().find(|id| scene.entity(**id).is_none()) {
            return Err(CommandError::MissingEntity(*missing));
        }
        let mut all = BTreeSet::new();
        for id in &self.ids {
            all.extend(scene.subtree(*id));
        }
        let mut by_index: Vec<(usize, EntityId)> = all
            .iter()
            .map(|id| (scene.order_index(*id).unwrap_or(usize::MAX), *id))
            .collect();
        // Remove from the back so that stored indices are the ones to reinsert at.
        by_index.sort_by(|a, b| b.cmp(a));
        self.selection_before = scene.selection().to_vec();
        self.removed.clear();
        for (_, id) in by_index {
            if let Some(taken) = scene.take_entity(id) {
                self.removed.push(taken);
            }
        }
        let kept = self
            .selection_before
            .iter()
            .filter(|id| !all.contains(id))
            .copied()
            .collect();
        scene.set_selection(kept);
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for (entity, index) in self.removed.drain(..).rev() {
            scene.insert_entity(entity, index);
        }
        scene.set_selection(std::mem::take(&mut self.selection_before));
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
