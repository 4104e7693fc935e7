//! Set the transforms of many entities at once (gizmo drags, typed values).
//! With the texture lock off, the meshes moved (and the meshes under them) get
//! UVs that keep their textures still in the world ([`crate::uv::keep_in_world`]).
//! A redo puts back the UVs the edit left rather than working them out again: a
//! gizmo drag re-maps them frame by frame, and one re-mapping from the start to
//! the end rounds differently (the editor fuzzer found a redo one ulp away).

use std::any::Any;

use super::{Command, CommandError};
use crate::id::EntityId;
use crate::math::Transform;
use crate::scene::Scene;

#[derive(Debug)]
pub struct SetTransforms {
    name: String,
    after: Vec<(EntityId, Transform)>,
    before: Vec<Transform>,
    /// The texture lock is off: textures stay where they are in the world.
    textures_stay: bool,
    /// The UVs of every face of each mesh re-mapped, as they were.
    before_uvs: Vec<(EntityId, Vec<[glam::Vec2; 3]>)>,
    /// The UVs the edit left on those meshes (a merged drag: its last frame's),
    /// put back as they are by a redo.
    after_uvs: Option<Vec<(EntityId, Vec<[glam::Vec2; 3]>)>>,
}

impl SetTransforms {
    pub fn new(name: impl Into<String>, after: Vec<(EntityId, Transform)>) -> Self {
        Self {
            name: name.into(),
            after,
            before: Vec::new(),
            textures_stay: false,
            before_uvs: Vec::new(),
            after_uvs: None,
        }
    }

    /// With `stay` (the texture lock off), the moved meshes' textures stay where
    /// they are in the world.
    pub fn textures_stay_in_world(mut self, stay: bool) -> Self {
        self.textures_stay = stay;
        self
    }

    /// The meshes this step moves in the world: the entities and everything
    /// under them, each once.
    fn moved_meshes(&self, scene: &Scene) -> Vec<EntityId> {
        let mut out = Vec::new();
        for (id, _) in &self.after {
            for e in scene.subtree(*id) {
                let is_mesh = matches!(
                    scene.entity(e).map(|e| &e.kind),
                    Some(crate::entity::EntityKind::Mesh(_))
                );
                if is_mesh && !out.contains(&e) {
                    out.push(e);
                }
            }
        }
        out
    }

    /// The transforms it sets.
    pub fn after(&self) -> &[(EntityId, Transform)] {
        &self.after
    }

    /// After an apply: the UVs it left on the meshes it re-mapped (none with the
    /// texture lock on).
    pub fn after_uvs(&self) -> &[(EntityId, Vec<[glam::Vec2; 3]>)] {
        self.after_uvs.as_deref().unwrap_or_default()
    }
}

impl Command for SetTransforms {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        let mut before = Vec::with_capacity(self.after.len());
        for (id, t) in &self.after {
            let e = scene.entity(*id).ok_or(CommandError::MissingEntity(*id))?;
            // Every value finite; a position or scale that changes within its limit
            // (a scale never zero).
            crate::entity::check_transform(Some(&e.transform), t)
                .map_err(|problem| CommandError::Invalid(format!("{}: {problem}", e.name)))?;
            before.push(e.transform);
        }
        let meshes = if self.textures_stay {
            self.moved_meshes(scene)
        } else {
            Vec::new()
        };
        let worlds_before: Vec<_> = meshes.iter().map(|id| scene.world_transform(*id)).collect();
        for (id, t) in &self.after {
            if let Some(e) = scene.entity_mut(*id) {
                e.transform = *t;
            }
        }
        self.before = before;
        self.before_uvs.clear();
        let redo = self.after_uvs.take();
        let mut after_uvs = Vec::with_capacity(meshes.len());
        for (id, world_before) in meshes.into_iter().zip(worlds_before) {
            let world_after = scene.world_transform(id);
            let Some(crate::entity::EntityKind::Mesh(m)) = scene.entity(id).map(|e| &e.kind) else {
                continue;
            };
            let old: Vec<[glam::Vec2; 3]> = m.geometry.faces.iter().map(|f| f.uvs).collect();
            let recorded = redo
                .as_ref()
                .and_then(|r| r.iter().find(|(m, _)| *m == id))
                .filter(|(_, uvs)| uvs.len() == old.len())
                .map(|(_, uvs)| uvs.clone());
            let new = match recorded {
                Some(uvs) => uvs,
                None => {
                    let repeat = |id| {
                        scene
                            .material(id)
                            .map_or(glam::Vec2::ONE, |m: &crate::material::Material| m.tiling)
                    };
                    let mut new = old.clone();
                    for (f, uv) in
                        crate::uv::keep_in_world(&m.geometry, &world_before, &world_after, repeat)
                    {
                        new[f] = uv;
                    }
                    new
                }
            };
            if let Some(crate::entity::EntityKind::Mesh(m)) =
                scene.entity_mut(id).map(|e| &mut e.kind)
            {
                for (face, uv) in m.geometry.faces.iter_mut().zip(&new) {
                    face.uvs = *uv;
                }
            }
            self.before_uvs.push((id, old));
            after_uvs.push((id, new));
        }
        self.after_uvs = Some(after_uvs);
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for (id, old) in self.before_uvs.drain(..) {
            if let Some(crate::entity::EntityKind::Mesh(m)) =
                scene.entity_mut(id).map(|e| &mut e.kind)
            {
                for (face, uv) in m.geometry.faces.iter_mut().zip(old) {
                    face.uvs = uv;
                }
            }
        }
        for ((id, _), t) in self.after.iter().zip(&self.before) {
            if let Some(e) = scene.entity_mut(*id) {
                e.transform = *t;
            }
        }
    }

    fn merge(&mut self, next: &dyn Command) -> bool {
        let Some(next) = next.as_any().downcast_ref::<Self>() else {
            return false;
        };
        let same_targets = next.textures_stay == self.textures_stay
            && next.after.len() == self.after.len()
            && next.after.iter().zip(&self.after).all(|(a, b)| a.0 == b.0);
        if same_targets {
            self.after = next.after.clone();
            self.after_uvs = next.after_uvs.clone();
        }
        same_targets
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
