//! "Apply scroll": make the chosen faces animate. Where their material is shared
//! with faces that should stay still, the material is duplicated with the scroll and
//! only the chosen faces get the copy.

use std::any::Any;
use std::collections::BTreeMap;

use glam::Vec2;

use super::{AddMaterial, AssignMaterial, Command, CommandError, SetMaterial, Steps};
use crate::id::{EntityId, MaterialId};
use crate::scene::Scene;

#[derive(Debug)]
pub struct ApplyScroll {
    entity: EntityId,
    /// Face indices; empty = every face.
    faces: Vec<usize>,
    scroll: Vec2,
    steps: Steps,
}

impl ApplyScroll {
    pub fn new(entity: EntityId, faces: Vec<usize>, scroll: Vec2) -> Self {
        Self {
            entity,
            faces,
            scroll,
            steps: Steps::default(),
        }
    }

    fn plan(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if !self.scroll.is_finite() {
            return Err(CommandError::Invalid("scroll speed must be finite".into()));
        }
        let (m, faces) = super::mesh_faces(scene, self.entity, &self.faces)?;
        let mut by_material: BTreeMap<MaterialId, Vec<usize>> = BTreeMap::new();
        for f in faces {
            by_material
                .entry(m.geometry.faces[f].material)
                .or_default()
                .push(f);
        }
        for (material, chosen) in by_material {
            let mut m = scene
                .material(material)
                .ok_or(CommandError::MissingMaterial(material))?
                .clone();
            let users = scene.material_users(material);
            let only_chosen = users
                .iter()
                .all(|(e, f)| *e == self.entity && chosen.contains(f));
            m.uv_scroll = self.scroll;
            if only_chosen {
                self.steps.push(Box::new(SetMaterial::new(material, m)));
            } else {
                m.name = format!("{} (scrolling)", m.name);
                let mut add = AddMaterial::new(m);
                add.apply(scene)?;
                let copy = add
                    .created()
                    .ok_or_else(|| CommandError::Invalid("material not created".into()))?;
                add.revert(scene);
                self.steps.push(Box::new(add));
                self.steps
                    .push(Box::new(AssignMaterial::new(self.entity, chosen, copy)));
            }
        }
        Ok(())
    }
}

impl Command for ApplyScroll {
    fn name(&self) -> String {
        "Apply scroll".into()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if !self.steps.is_planned()
            && let Err(e) = self.plan(scene)
        {
            self.steps.abandon(scene);
            return Err(e);
        }
        self.steps.apply(scene)
    }

    fn revert(&mut self, scene: &mut Scene) {
        self.steps.revert(scene);
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
