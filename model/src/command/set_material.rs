//! Edit a material's properties (texture, alpha, tiling, scroll...).

use std::any::Any;

use super::{Command, CommandError};
use crate::entity::limits;
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
            && m.uv_scroll.is_finite()
            && m.color.iter().all(|c| c.is_finite())
            && m.emissive.iter().all(|c| c.is_finite() && *c >= 0.0);
        if !finite || m.tiling.x <= 0.0 || m.tiling.y <= 0.0 {
            return Err(CommandError::Invalid(format!(
                "material {}: tiling must be positive metres per repeat, the glow not negative, and every value finite",
                m.name
            )));
        }
        // A tiling or scroll that changes must be within its limit (one read from a
        // file outside it stays editable).
        let current = scene
            .material(self.id)
            .ok_or(CommandError::MissingMaterial(self.id))?;
        let changed = [
            ("tiling U", current.tiling.x, m.tiling.x, limits::TILING),
            ("tiling V", current.tiling.y, m.tiling.y, limits::TILING),
            (
                "UV scroll U",
                current.uv_scroll.x,
                m.uv_scroll.x,
                limits::UV_SCROLL,
            ),
            (
                "UV scroll V",
                current.uv_scroll.y,
                m.uv_scroll.y,
                limits::UV_SCROLL,
            ),
        ];
        for (name, before, after, limit) in changed {
            if before.to_bits() != after.to_bits() {
                limit
                    .check_named(name, f64::from(after))
                    .map_err(|problem| {
                        CommandError::Invalid(format!("material {}: {problem}", m.name))
                    })?;
            }
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
