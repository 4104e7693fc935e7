//! Delete materials no face uses (Materials › Delete unused). A material still in
//! use is refused, with the objects that use it, so no face is left pointing at
//! nothing.

use std::any::Any;

use super::{Command, CommandError};
use crate::id::MaterialId;
use crate::material::Material;
use crate::scene::Scene;

#[derive(Debug)]
pub struct RemoveMaterials {
    ids: Vec<MaterialId>,
    removed: Vec<(MaterialId, Material)>,
}

impl RemoveMaterials {
    pub fn new(ids: Vec<MaterialId>) -> Self {
        Self {
            ids,
            removed: Vec::new(),
        }
    }

    /// Every material of `scene` that no face uses.
    pub fn unused(scene: &Scene) -> Self {
        let used: std::collections::BTreeSet<MaterialId> = scene
            .entities()
            .filter_map(|e| match &e.kind {
                crate::entity::EntityKind::Mesh(m) => Some(m.geometry.materials()),
                _ => None,
            })
            .flatten()
            .collect();
        Self::new(
            scene
                .materials()
                .map(|(id, _)| id)
                .filter(|id| !used.contains(id))
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

impl Command for RemoveMaterials {
    fn name(&self) -> String {
        match self.ids.len() {
            1 => "Delete a material".into(),
            n => format!("Delete {n} materials"),
        }
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if self.ids.is_empty() {
            return Err(CommandError::Invalid("no unused material to delete".into()));
        }
        for &id in &self.ids {
            let m = scene
                .material(id)
                .ok_or(CommandError::MissingMaterial(id))?;
            let users = scene.material_users(id);
            if let Some((entity, _)) = users.first() {
                let name = scene
                    .entity(*entity)
                    .map_or_else(|| entity.to_string(), |e| e.name.clone());
                return Err(CommandError::Invalid(format!(
                    "material {} is used by {} face(s), the first on {name}: give them another material first",
                    m.name,
                    users.len()
                )));
            }
        }
        self.removed = self
            .ids
            .iter()
            .filter_map(|&id| scene.take_material(id).map(|m| (id, m)))
            .collect();
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for (id, m) in self.removed.drain(..) {
            scene.insert_material(id, m);
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
