//! Add a material.

use std::any::Any;

use super::{Command, CommandError};
use crate::id::MaterialId;
use crate::material::Material;
use crate::scene::Scene;

#[derive(Debug)]
pub struct AddMaterial {
    material: Material,
    id: Option<MaterialId>,
}

impl AddMaterial {
    pub fn new(material: Material) -> Self {
        Self { material, id: None }
    }

    /// The new material's id, after the first apply.
    pub fn created(&self) -> Option<MaterialId> {
        self.id
    }
}

impl Command for AddMaterial {
    fn name(&self) -> String {
        format!("Add material {}", self.material.name)
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        let id = *self.id.get_or_insert_with(|| scene.ids.material());
        scene.insert_material(id, self.material.clone());
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        if let Some(id) = self.id {
            scene.take_material(id);
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
