//! Put entities into a new group (created under the first entity's parent), its
//! origin at the middle of the members' base (as everything with a size stands on
//! its origin), not at the world's origin: the gizmo of a group selected sits on
//! it, and it turns about its own middle.

use std::any::Any;

use super::{AddEntities, Command, CommandError, Reparent, Select, Steps};
use crate::entity::{Entity, EntityKind};
use crate::id::EntityId;
use crate::scene::Scene;

#[derive(Debug)]
pub struct Group {
    ids: Vec<EntityId>,
    name: String,
    steps: Steps,
}

impl Group {
    pub fn new(ids: Vec<EntityId>, name: impl Into<String>) -> Self {
        Self {
            ids,
            name: name.into(),
            steps: Steps::default(),
        }
    }
}

impl Command for Group {
    fn name(&self) -> String {
        "Group".into()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        let first = *self
            .ids
            .first()
            .ok_or_else(|| CommandError::Invalid("nothing to group".into()))?;
        let parent = scene
            .entity(first)
            .ok_or(CommandError::MissingEntity(first))?
            .parent;
        if !self.steps.is_planned() {
            let mut group = Entity::new(self.name.clone(), EntityKind::Group);
            group.parent = parent;
            let bounds = self
                .ids
                .iter()
                .filter_map(|id| scene.world_aabb(*id))
                .reduce(|a, b| a.union(b));
            let base = match bounds {
                Some(b) => glam::Vec3::new(
                    (b.min.x + b.max.x) * 0.5,
                    b.min.y,
                    (b.min.z + b.max.z) * 0.5,
                ),
                None => {
                    self.ids
                        .iter()
                        .map(|id| glam::Vec3::from(scene.world_transform(*id).translation))
                        .sum::<glam::Vec3>()
                        / self.ids.len() as f32
                }
            };
            let parent_from_world = parent.map_or(glam::Affine3A::IDENTITY, |p| {
                scene.world_transform(p).inverse()
            });
            group.transform.translation = parent_from_world.transform_point3(base);
            let mut add = AddEntities::new("Group", vec![group]).without_selecting();
            add.apply(scene)?;
            let gid = add.created()[0];
            self.steps.push_applied(Box::new(add));
            self.steps
                .push(Box::new(Reparent::new(self.ids.clone(), Some(gid))));
            self.steps.push(Box::new(Select::new(vec![gid])));
        }
        self.steps.apply(scene)
    }

    fn revert(&mut self, scene: &mut Scene) {
        self.steps.revert(scene);
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
