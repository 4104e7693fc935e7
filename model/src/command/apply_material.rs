//! Put a material on faces of one or more meshes: an existing material, or a new
//! one made for the purpose (a texture dropped on a wall), which the same step
//! adds — one undo removes both.

use std::any::Any;

use super::{Command, CommandError};
use crate::entity::EntityKind;
use crate::id::{EntityId, MaterialId};
use crate::material::Material;
use crate::scene::Scene;

/// The material the faces get.
#[derive(Debug, Clone)]
pub enum MaterialChoice {
    Existing(MaterialId),
    /// Added by the step; its id is allocated on the first apply and kept for redo.
    New(Material),
}

#[derive(Debug)]
pub struct ApplyMaterial {
    /// Each mesh with the faces it addresses (empty = every face).
    targets: Vec<(EntityId, Vec<usize>)>,
    choice: MaterialChoice,
    /// The id a new material got.
    created: Option<MaterialId>,
    /// What each addressed face had: (entity, face, material).
    before: Vec<(EntityId, usize, MaterialId)>,
    /// The step's name, worded on the first apply with the scene's names.
    label: Option<String>,
}

impl ApplyMaterial {
    pub fn new(targets: Vec<(EntityId, Vec<usize>)>, choice: MaterialChoice) -> Self {
        Self {
            targets,
            choice,
            created: None,
            before: Vec::new(),
            label: None,
        }
    }

    /// The material the faces got, after the first apply.
    pub fn material(&self) -> Option<MaterialId> {
        match &self.choice {
            MaterialChoice::Existing(id) => Some(*id),
            MaterialChoice::New(_) => self.created,
        }
    }

    /// How many faces the step changed, after an apply.
    pub fn face_count(&self) -> usize {
        self.before.len()
    }
}

impl ApplyMaterial {
    /// "Apply Wood to Left wall (2 of 12 triangles)", "Apply new material brick
    /// to Floor", "Apply Stone to 3 objects".
    fn wording(&self, scene: &Scene, id: MaterialId, planned: &[(EntityId, Vec<usize>)]) -> String {
        let material = match &self.choice {
            MaterialChoice::Existing(_) => scene
                .material(id)
                .map_or_else(|| "material".to_string(), |m| m.name.clone()),
            MaterialChoice::New(m) => format!("new material {}", m.name),
        };
        match planned {
            [(entity, faces)] => {
                let (name, all) = match scene.entity(*entity).map(|e| (&e.name, &e.kind)) {
                    Some((name, EntityKind::Mesh(m))) => (name.clone(), m.geometry.faces.len()),
                    _ => (entity.to_string(), faces.len()),
                };
                if faces.len() == all {
                    format!("Apply {material} to {name}")
                } else {
                    format!(
                        "Apply {material} to {name} ({} of {all} triangles)",
                        faces.len()
                    )
                }
            }
            many => format!("Apply {material} to {} objects", many.len()),
        }
    }
}

impl Command for ApplyMaterial {
    fn name(&self) -> String {
        self.label
            .clone()
            .unwrap_or_else(|| "Apply material".to_string())
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if self.targets.is_empty() {
            return Err(CommandError::Invalid(
                "no faces to apply a material to".into(),
            ));
        }
        // Check everything before changing anything.
        let mut planned = Vec::with_capacity(self.targets.len());
        for (entity, faces) in &self.targets {
            let (_, faces) = super::mesh_faces(scene, *entity, faces)?;
            planned.push((*entity, faces));
        }
        let id = match &self.choice {
            MaterialChoice::Existing(id) => {
                if scene.material(*id).is_none() {
                    return Err(CommandError::MissingMaterial(*id));
                }
                *id
            }
            MaterialChoice::New(m) => {
                let id = *self.created.get_or_insert_with(|| scene.ids.material());
                scene.insert_material(id, m.clone());
                id
            }
        };
        if self.label.is_none() {
            self.label = Some(self.wording(scene, id, &planned));
        }
        self.before.clear();
        for (entity, faces) in planned {
            if let Some(EntityKind::Mesh(m)) = scene.entity_mut(entity).map(|e| &mut e.kind) {
                for f in faces {
                    self.before.push((entity, f, m.geometry.faces[f].material));
                    m.geometry.faces[f].material = id;
                }
            }
        }
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for (entity, f, material) in self.before.drain(..).rev() {
            if let Some(EntityKind::Mesh(m)) = scene.entity_mut(entity).map(|e| &mut e.kind)
                && let Some(face) = m.geometry.faces.get_mut(f)
            {
                face.material = material;
            }
        }
        if let (MaterialChoice::New(_), Some(id)) = (&self.choice, self.created) {
            scene.take_material(id);
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
