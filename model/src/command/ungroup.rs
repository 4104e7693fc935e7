//! Dissolve a group: its children move to the group's parent (keeping their world
//! placement) and the group is removed.

use std::any::Any;

use super::{Command, CommandError, CommandGroup, RemoveEntities, Reparent};
use crate::entity::EntityKind;
use crate::id::EntityId;
use crate::scene::Scene;

#[derive(Debug)]
pub struct Ungroup {
    group: EntityId,
    steps: Option<CommandGroup>,
}

impl Ungroup {
    pub fn new(group: EntityId) -> Self {
        Self { group, steps: None }
    }
}

impl Command for Ungroup {
    fn name(&self) -> String {
        "Ungroup".into()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        let g = scene
            .entity(self.group)
            .ok_or(CommandError::MissingEntity(self.group))?;
        if g.kind != EntityKind::Group {
            return Err(CommandError::Invalid(format!("{} is not a group", g.name)));
        }
        let parent = g.parent;
        let children = scene.children(Some(self.group));
        let mut steps = CommandGroup::new(
            "Ungroup",
            vec![
                Box::new(Reparent::new(children, parent)),
                Box::new(RemoveEntities::new(vec![self.group])),
            ],
        );
        steps.apply(scene)?;
        self.steps = Some(steps);
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        if let Some(mut steps) = self.steps.take() {
            steps.revert(scene);
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
