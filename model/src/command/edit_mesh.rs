//! Replace a mesh's geometry with edited geometry (face mode's moves, extrusions,
//! flips, deletions). A parametric primitive becomes an editable mesh on its first
//! such edit — the step's name says so — and undo makes it the primitive again.
//! Steps of one drag with the same name on the same mesh merge into one.

use std::any::Any;

use super::{Command, CommandError};
use crate::entity::{EntityKind, GeometrySource};
use crate::id::EntityId;
use crate::mesh::MeshData;
use crate::scene::Scene;

#[derive(Debug)]
pub struct EditMesh {
    entity: EntityId,
    name: String,
    after: MeshData,
    before: Option<(MeshData, GeometrySource)>,
    /// The mesh was a primitive before the step (for its name).
    converted: Option<String>,
}

impl EditMesh {
    pub fn new(entity: EntityId, name: impl Into<String>, after: MeshData) -> Self {
        Self {
            entity,
            name: name.into(),
            after,
            before: None,
            converted: None,
        }
    }
}

impl Command for EditMesh {
    fn name(&self) -> String {
        match &self.converted {
            Some(kind) => format!("{} (the {kind} becomes an editable mesh)", self.name),
            None => self.name.clone(),
        }
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        self.after
            .validate()
            .map_err(|e| CommandError::Invalid(e.to_string()))?;
        if self.after.positions.iter().any(|p| !p.is_finite()) {
            return Err(CommandError::Invalid(
                "a corner that is not a number".into(),
            ));
        }
        for f in &self.after.faces {
            if scene.material(f.material).is_none() {
                return Err(CommandError::MissingMaterial(f.material));
            }
        }
        let e = scene
            .entity_mut(self.entity)
            .ok_or(CommandError::MissingEntity(self.entity))?;
        let name = e.name.clone();
        let EntityKind::Mesh(m) = &mut e.kind else {
            return Err(CommandError::Invalid(format!("{name} is not a mesh")));
        };
        if let GeometrySource::Primitive(p) = &m.source {
            self.converted = Some(p.kind_name().to_string());
        }
        let before_geometry = std::mem::replace(&mut m.geometry, self.after.clone());
        let before_source = std::mem::replace(&mut m.source, GeometrySource::Authored);
        if self.before.is_none() {
            self.before = Some((before_geometry, before_source));
        }
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        if let Some((geometry, source)) = &self.before
            && let Some(EntityKind::Mesh(m)) = scene.entity_mut(self.entity).map(|e| &mut e.kind)
        {
            m.geometry = geometry.clone();
            m.source = source.clone();
        }
        self.before = None;
    }

    fn merge(&mut self, next: &dyn Command) -> bool {
        let Some(next) = next.as_any().downcast_ref::<Self>() else {
            return false;
        };
        let same = next.entity == self.entity && next.name == self.name;
        if same {
            self.after = next.after.clone();
        }
        same
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
