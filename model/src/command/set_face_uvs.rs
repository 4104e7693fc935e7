//! Set the UVs of faces of one or more meshes (face mode's UV operations, a drag
//! in the UV dock). Steps of one drag on the same faces merge into one.

use std::any::Any;

use glam::Vec2;

use super::{Command, CommandError};
use crate::entity::EntityKind;
use crate::id::EntityId;
use crate::scene::Scene;

/// Each mesh with the new UVs of some of its faces: (face, corner UVs).
pub type FaceUvs = Vec<(EntityId, Vec<(usize, [Vec2; 3])>)>;

#[derive(Debug)]
pub struct SetFaceUvs {
    name: String,
    after: FaceUvs,
    before: FaceUvs,
}

impl SetFaceUvs {
    pub fn new(name: impl Into<String>, after: FaceUvs) -> Self {
        Self {
            name: name.into(),
            after,
            before: Vec::new(),
        }
    }
}

impl Command for SetFaceUvs {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if self.after.iter().all(|(_, f)| f.is_empty()) {
            return Err(CommandError::Invalid(
                "no faces to change the UVs of".into(),
            ));
        }
        for (entity, faces) in &self.after {
            let wanted: Vec<usize> = faces.iter().map(|(f, _)| *f).collect();
            super::mesh_faces(scene, *entity, &wanted)?;
            if let Some((f, _)) = faces
                .iter()
                .find(|(_, uv)| uv.iter().any(|p| !p.is_finite()))
            {
                return Err(CommandError::Invalid(format!(
                    "face {f}: a UV that is not a number"
                )));
            }
        }
        self.before.clear();
        for (entity, faces) in &self.after {
            if let Some(EntityKind::Mesh(m)) = scene.entity_mut(*entity).map(|e| &mut e.kind) {
                let mut old = Vec::with_capacity(faces.len());
                for (f, uv) in faces {
                    old.push((*f, m.geometry.faces[*f].uvs));
                    m.geometry.faces[*f].uvs = *uv;
                }
                self.before.push((*entity, old));
            }
        }
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for (entity, faces) in self.before.drain(..).rev() {
            if let Some(EntityKind::Mesh(m)) = scene.entity_mut(entity).map(|e| &mut e.kind) {
                for (f, uv) in faces.into_iter().rev() {
                    if let Some(face) = m.geometry.faces.get_mut(f) {
                        face.uvs = uv;
                    }
                }
            }
        }
    }

    fn merge(&mut self, next: &dyn Command) -> bool {
        let Some(next) = next.as_any().downcast_ref::<Self>() else {
            return false;
        };
        // The same faces of the same meshes, compared in place (every frame of a
        // drag on thousands of faces asks).
        let same_faces = next.after.len() == self.after.len()
            && next
                .after
                .iter()
                .zip(&self.after)
                .all(|((e, f), (e2, f2))| {
                    e == e2 && f.len() == f2.len() && f.iter().zip(f2).all(|(a, b)| a.0 == b.0)
                });
        let same = next.name == self.name && same_faces;
        if same {
            self.after = next.after.clone();
        }
        same
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
