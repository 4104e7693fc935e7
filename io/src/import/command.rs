//! The one undoable command an import becomes: add its materials, then its entities
//! (faces refer to the import's own material numbers, mapped to real ids on the first
//! apply), then, for a new project, its scene settings.

use std::any::Any;

use pebble_model::command::{AddEntities, AddMaterial, SetSettings};
use pebble_model::entity::EntityKind;
use pebble_model::scene::SceneSettings;
use pebble_model::{Command, CommandError, Entity, Material, MaterialId, Scene};

#[derive(Debug)]
pub struct ImportCommand {
    name: String,
    materials: Vec<Material>,
    /// Faces use `MaterialId(k)` for the import's k-th material (0-based).
    entities: Vec<Entity>,
    settings: Option<SceneSettings>,
    steps: Vec<Box<dyn Command>>,
    applied: usize,
}

impl ImportCommand {
    pub fn new(
        name: impl Into<String>,
        materials: Vec<Material>,
        entities: Vec<Entity>,
        settings: Option<SceneSettings>,
    ) -> Self {
        Self {
            name: name.into(),
            materials,
            entities,
            settings,
            steps: Vec::new(),
            applied: 0,
        }
    }

    /// Drops the scene settings (when importing into an existing project).
    pub fn without_settings(mut self) -> Self {
        self.settings = None;
        self
    }

    pub fn settings(&self) -> Option<&SceneSettings> {
        self.settings.as_ref()
    }

    /// The entities to add (empty once the command has been applied).
    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    pub fn materials(&self) -> &[Material] {
        &self.materials
    }

    fn plan(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        let mut ids = Vec::new();
        for m in &self.materials {
            let mut add = AddMaterial::new(m.clone());
            add.apply(scene)?;
            ids.push(
                add.created()
                    .ok_or_else(|| CommandError::Invalid("material not created".into()))?,
            );
            self.steps.push(Box::new(add));
            self.applied += 1;
        }
        let map = |local: MaterialId| -> Result<MaterialId, CommandError> {
            ids.get(local.0 as usize).copied().ok_or_else(|| {
                CommandError::Invalid(format!(
                    "import refers to material {} of {}",
                    local.0,
                    ids.len()
                ))
            })
        };
        // The AddEntities step keeps them for redo; no second copy is needed.
        let mut entities = std::mem::take(&mut self.entities);
        for e in &mut entities {
            let geometry = match &mut e.kind {
                EntityKind::Mesh(m) => Some(&mut m.geometry),
                EntityKind::Walkable(g) => Some(g),
                _ => None,
            };
            if let Some(g) = geometry {
                for f in &mut g.faces {
                    f.material = map(f.material)?;
                }
            }
        }
        self.steps
            .push(Box::new(AddEntities::new(self.name.clone(), entities)));
        if let Some(s) = &self.settings {
            self.steps.push(Box::new(SetSettings::new(s.clone())));
        }
        Ok(())
    }
}

impl Command for ImportCommand {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if self.steps.is_empty()
            && let Err(e) = self.plan(scene)
        {
            self.revert(scene);
            self.steps.clear();
            return Err(e);
        }
        while self.applied < self.steps.len() {
            if let Err(e) = self.steps[self.applied].apply(scene) {
                self.revert(scene);
                return Err(e);
            }
            self.applied += 1;
        }
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        while self.applied > 0 {
            self.applied -= 1;
            self.steps[self.applied].revert(scene);
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
