//! Duplicate entities with their subtrees; the copies are selected. A move of
//! the copies in the same continuous edit (the copy following the mouse until a
//! click) merges into it: one undo step, and a redo puts them where they went,
//! with the UVs the moves left (the texture lock off keeps textures in the world).

use std::any::Any;
use std::collections::BTreeSet;

use super::{AddEntities, Command, CommandError, SetTransforms};
use crate::id::EntityId;
use crate::scene::Scene;

#[derive(Debug)]
pub struct Duplicate {
    ids: Vec<EntityId>,
    add: Option<AddEntities>,
}

impl Duplicate {
    pub fn new(ids: Vec<EntityId>) -> Self {
        Self { ids, add: None }
    }

    /// The copies' ids, after the first apply.
    pub fn created(&self) -> Vec<EntityId> {
        self.add
            .as_ref()
            .map(AddEntities::created)
            .unwrap_or_default()
    }
}

impl Command for Duplicate {
    fn name(&self) -> String {
        "Duplicate".into()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if self.add.is_none() {
            let mut members = BTreeSet::new();
            for id in &self.ids {
                if scene.entity(*id).is_none() {
                    return Err(CommandError::MissingEntity(*id));
                }
                members.extend(scene.subtree(*id));
            }
            // Copies keep their ids as batch-local ids; AddEntities maps them.
            // The copied roots are numbered ("Stairs 2"), never "Stairs copy".
            let roots: Vec<&str> = scene
                .entities()
                .filter(|e| self.ids.contains(&e.id))
                .map(|e| e.name.as_str())
                .collect();
            let mut names =
                crate::naming::copies_of(roots, scene.entities().map(|e| e.name.as_str()))
                    .into_iter();
            let copies = scene
                .entities()
                .filter(|e| members.contains(&e.id))
                .map(|e| {
                    let mut c = e.clone();
                    if self.ids.contains(&e.id)
                        && let Some(name) = names.next()
                    {
                        c.name = name;
                    }
                    c
                })
                .collect();
            self.add = Some(AddEntities::new("Duplicate", copies));
        }
        match &mut self.add {
            Some(add) => add.apply(scene),
            None => Ok(()),
        }
    }

    fn revert(&mut self, scene: &mut Scene) {
        if let Some(add) = &mut self.add {
            add.revert(scene);
        }
    }

    fn merge(&mut self, next: &dyn Command) -> bool {
        let (Some(add), Some(moved)) =
            (&mut self.add, next.as_any().downcast_ref::<SetTransforms>())
        else {
            return false;
        };
        add.place(moved.after(), moved.after_uvs())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
