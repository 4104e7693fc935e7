//! Change a primitive's parameters and regenerate its geometry. Per-face materials
//! survive when the face count stays the same; otherwise every face takes the
//! material of the first face.

use std::any::Any;

use super::{Command, CommandError, SetEntity};
use crate::entity::{EntityKind, GeometrySource};
use crate::id::EntityId;
use crate::primitive::Primitive;
use crate::scene::Scene;

#[derive(Debug)]
pub struct SetPrimitive {
    entity: EntityId,
    primitive: Primitive,
    inner: Option<SetEntity>,
}

impl SetPrimitive {
    pub fn new(entity: EntityId, primitive: Primitive) -> Self {
        Self {
            entity,
            primitive,
            inner: None,
        }
    }
}

impl Command for SetPrimitive {
    fn name(&self) -> String {
        format!("Edit {}", self.primitive.kind_name())
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        // The entity is computed once; redo re-applies exactly that result (and a
        // merged drag re-applies its last step), never a recomputation from the base.
        if let Some(inner) = &mut self.inner {
            return inner.apply(scene);
        }
        let mut e = scene
            .entity(self.entity)
            .ok_or(CommandError::MissingEntity(self.entity))?
            .clone();
        let EntityKind::Mesh(mesh) = &mut e.kind else {
            return Err(CommandError::Invalid(format!("{} is not a mesh", e.name)));
        };
        let old = &mesh.geometry;
        let first = old
            .faces
            .first()
            .map(|f| f.material)
            .ok_or_else(|| CommandError::Invalid(format!("{} has no faces", e.name)))?;
        let mut geometry = self
            .primitive
            .generate(first)
            .map_err(|err| CommandError::Invalid(err.to_string()))?;
        if geometry.faces.len() == old.faces.len() {
            for (new, old) in geometry.faces.iter_mut().zip(&old.faces) {
                new.material = old.material;
            }
        }
        mesh.geometry = geometry;
        mesh.source = GeometrySource::Primitive(self.primitive.clone());
        let mut inner = SetEntity::new(self.name(), e);
        inner.apply(scene)?;
        self.inner = Some(inner);
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        if let Some(inner) = &mut self.inner {
            inner.revert(scene);
        }
    }

    fn merge(&mut self, next: &dyn Command) -> bool {
        let Some(next) = next.as_any().downcast_ref::<Self>() else {
            return false;
        };
        if next.entity != self.entity {
            return false;
        }
        let (Some(mine), Some(theirs)) = (&mut self.inner, &next.inner) else {
            return false;
        };
        if mine.merge(theirs) {
            self.primitive = next.primitive.clone();
            true
        } else {
            false
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
