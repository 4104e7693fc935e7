//! Edit a material's properties (texture, alpha, tiling, scroll...).

use std::any::Any;

use super::{Command, CommandError};
use crate::id::MaterialId;
use crate::material::Material;
use crate::scene::Scene;

#[derive(Debug)]
pub struct SetMaterial {
    id: MaterialId,
    after: Material,
    before: Option<Material>,
}

impl SetMaterial {
    pub fn new(id: MaterialId, after: Material) -> Self {
        Self {
            id,
            after,
            before: None,
        }
    }
}

impl Command for SetMaterial {
    fn name(&self) -> String {
        format!("Edit material {}", self.after.name)
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        let m = &self.after;
        let finite = m.tiling.is_finite()
            && m.offset.is_finite()
            && m.rotation.is_finite()
            && m.uv_scroll.is_finite();
        if !finite || m.tiling.x <= 0.0 || m.tiling.y <= 0.0 {
            return Err(CommandError::Invalid(format!(
                "material {}: tiling must be positive metres per repeat and every value finite",
                m.name
            )));
        }
        let slot = scene
            .material_mut(self.id)
            .ok_or(CommandError::MissingMaterial(self.id))?;
        self.before = Some(std::mem::replace(slot, self.after.clone()));
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        if let Some(before) = self.before.take()
            && let Some(slot) = scene.material_mut(self.id)
        {
            *slot = before;
        }
    }

    fn merge(&mut self, next: &dyn Command) -> bool {
        match next.as_any().downcast_ref::<Self>() {
            Some(next) if next.id == self.id => {
                self.after = next.after.clone();
                true
            }
            _ => false,
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
