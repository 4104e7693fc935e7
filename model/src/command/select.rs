//! Change the selection (recorded, so that undo restores it).

use std::any::Any;

use super::{Command, CommandError};
use crate::id::EntityId;
use crate::scene::Scene;

#[derive(Debug)]
pub struct Select {
    after: Vec<EntityId>,
    before: Vec<EntityId>,
}

impl Select {
    pub fn new(after: Vec<EntityId>) -> Self {
        Self {
            after,
            before: Vec::new(),
        }
    }
}

impl Command for Select {
    fn name(&self) -> String {
        match self.after.len() {
            0 => "Select none".into(),
            1 => "Select".into(),
            n => format!("Select {n}"),
        }
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if let Some(missing) = self.after.iter().find(|id| scene.entity(**id).is_none()) {
            return Err(CommandError::MissingEntity(*missing));
        }
        self.before = scene.selection().to_vec();
        scene.set_selection(self.after.clone());
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        scene.set_selection(std::mem::take(&mut self.before));
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
