//! Set one field of a defined kind on many game entities at once (the inspector's
//! multi-edit): one undo step however many. `None` resets the field to its
//! definition's default (the value leaves the entity). Only values are touched;
//! checking a game's kinds' values against their definitions is the caller's
//! (the model keeps what it is given, so a value whose field left the
//! definitions is never lost); a built-in kind's are checked here against its
//! descriptor.

use std::any::Any;

use super::{Command, CommandError};
use crate::definitions::FieldValue;
use crate::entity::EntityKind;
use crate::id::EntityId;
use crate::scene::Scene;

#[derive(Debug)]
pub struct SetFieldValues {
    name: String,
    field: String,
    after: Option<FieldValue>,
    /// Each entity and the value it held before (after the first apply).
    entities: Vec<(EntityId, Option<FieldValue>)>,
}

impl SetFieldValues {
    pub fn new(
        name: impl Into<String>,
        ids: Vec<EntityId>,
        field: impl Into<String>,
        after: Option<FieldValue>,
    ) -> Self {
        Self {
            name: name.into(),
            field: field.into(),
            after,
            entities: ids.into_iter().map(|id| (id, None)).collect(),
        }
    }
}

impl Command for SetFieldValues {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        for (id, _) in &self.entities {
            match scene.entity(*id).map(|e| &e.kind) {
                Some(EntityKind::Defined(d)) => {
                    // A built-in kind's values are held to its descriptor here:
                    // whatever hands them in, a spawn's field of view stays one the
                    // runtime takes.
                    let e = scene.entity(*id).map_or("", |e| e.name.as_str());
                    crate::entity::check_builtin_value(d, &self.field, self.after.as_ref())
                        .map_err(|m| CommandError::Invalid(format!("{e}: {m}")))?;
                }
                Some(_) => {
                    return Err(CommandError::Invalid(format!(
                        "{id} is not a game entity: it has no field {}",
                        self.field
                    )));
                }
                None => return Err(CommandError::MissingEntity(*id)),
            }
        }
        for (id, before) in &mut self.entities {
            if let Some(EntityKind::Defined(d)) = scene.entity_mut(*id).map(|e| &mut e.kind) {
                *before = match &self.after {
                    Some(v) => d.values.insert(self.field.clone(), v.clone()),
                    None => d.values.remove(&self.field),
                };
            }
        }
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for (id, before) in self.entities.iter().rev() {
            if let Some(EntityKind::Defined(d)) = scene.entity_mut(*id).map(|e| &mut e.kind) {
                match before {
                    Some(v) => {
                        d.values.insert(self.field.clone(), v.clone());
                    }
                    None => {
                        d.values.remove(&self.field);
                    }
                }
            }
        }
    }

    /// A later value of the same field on the same entities (a colour dragged)
    /// merges: one step from the first value to the last.
    fn merge(&mut self, next: &dyn Command) -> bool {
        match next.as_any().downcast_ref::<Self>() {
            Some(n)
                if n.field == self.field
                    && n.entities.len() == self.entities.len()
                    && n.entities
                        .iter()
                        .zip(&self.entities)
                        .all(|(a, b)| a.0 == b.0) =>
            {
                self.after = n.after.clone();
                true
            }
            _ => false,
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::History;
    use crate::command::AddEntities;
    use crate::entity::{DefinedEntity, Entity};

    #[test]
    fn a_field_set_on_many_is_one_step_and_undoes_to_each_ones_value() {
        let mut scene = Scene::new();
        let mut history = History::new(10);
        let mut one = DefinedEntity::new("Enemy");
        one.values.insert("health".into(), FieldValue::Int(3));
        let entities = vec![
            Entity::new("a", EntityKind::Defined(one)),
            Entity::new("b", EntityKind::Defined(DefinedEntity::new("Enemy"))),
        ];
        history
            .execute(&mut scene, AddEntities::new("add", entities))
            .expect("adds");
        let ids: Vec<EntityId> = scene.entities().map(|e| e.id).collect();
        let health = |scene: &Scene| -> Vec<Option<FieldValue>> {
            scene
                .entities()
                .map(|e| match &e.kind {
                    EntityKind::Defined(d) => d.values.get("health").cloned(),
                    _ => None,
                })
                .collect()
        };
        history
            .execute(
                &mut scene,
                SetFieldValues::new(
                    "Edit health",
                    ids.clone(),
                    "health",
                    Some(FieldValue::Int(9)),
                ),
            )
            .expect("sets");
        assert_eq!(
            health(&scene),
            [Some(FieldValue::Int(9)), Some(FieldValue::Int(9))]
        );
        history.undo(&mut scene);
        assert_eq!(health(&scene), [Some(FieldValue::Int(3)), None]);
        history
            .redo(&mut scene)
            .expect("a step to redo")
            .expect("redoes");
        history
            .execute(
                &mut scene,
                SetFieldValues::new("Reset", ids, "health", None),
            )
            .expect("resets");
        assert_eq!(health(&scene), [None, None]);
    }
}
