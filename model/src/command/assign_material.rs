//! Give faces of a mesh another material.

use std::any::Any;

use super::{Command, CommandError};
use crate::entity::EntityKind;
use crate::id::{EntityId, MaterialId};
use crate::scene::Scene;

#[derive(Debug)]
pub struct AssignMaterial {
    entity: EntityId,
    /// Face indices; empty = every face.
    faces: Vec<usize>,
    material: MaterialId,
    before: Vec<(usize, MaterialId)>,
}

impl AssignMaterial {
    pub fn new(entity: EntityId, faces: Vec<usize>, material: MaterialId) -> Self {
        Self {
            entity,
            faces,
            material,
            before: Vec::new(),
        }
    }
}

impl Command for AssignMaterial {
    fn name(&self) -> String {
        "Assign material".into()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if scene.material(self.material).is_none() {
            return Err(CommandError::MissingMaterial(self.material));
        }
        let (_, faces) = super::mesh_faces(scene, self.entity, &self.faces)?;
        let Some(EntityKind::Mesh(m)) = scene.entity_mut(self.entity).map(|e| &mut e.kind) else {
            return Ok(());
        };
        self.before = faces
            .iter()
            .map(|&f| (f, m.geometry.faces[f].material))
            .collect();
        for &f in &faces {
            m.geometry.faces[f].material = self.material;
        }
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        if let Some(EntityKind::Mesh(m)) = scene.entity_mut(self.entity).map(|e| &mut e.kind) {
            for (f, mat) in self.before.drain(..).rev() {
                if let Some(face) = m.geometry.faces.get_mut(f) {
                    face.material = mat;
                }
            }
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
