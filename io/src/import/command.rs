//! The one undoable command an import becomes: add its materials, then its entities
//! (faces refer to the import's own material numbers, mapped to real ids on the first
//! apply), then, for a new project, its scene settings.

use std::any::Any;

use pebble_model::command::{AddEntities, AddMaterial, SetSettings, Steps};
use pebble_model::entity::EntityKind;
use pebble_model::mesh::MeshData;
use pebble_model::scene::SceneSettings;
use pebble_model::{Command, CommandError, Entity, Material, Scene};

#[derive(Debug)]
pub struct ImportCommand {
    name: String,
    materials: Vec<Material>,
    /// Faces use `MaterialId(k)` for the import's k-th material (0-based).
    entities: Vec<Entity>,
    settings: Option<SceneSettings>,
    steps: Steps,
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
            steps: Steps::default(),
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

    /// Gives each entity without a parent in the import the transform `place`
    /// makes of its own (scaling, turning and moving the whole import), before the
    /// command is applied.
    pub fn place_roots(
        &mut self,
        place: impl Fn(pebble_model::Transform) -> pebble_model::Transform,
    ) {
        for e in &mut self.entities {
            if e.parent.is_none() {
                e.transform = place(e.transform);
            }
        }
    }

    fn plan(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        // Check the references before anything changes, so a refused import keeps
        // its entities for another try.
        let count = self.materials.len();
        let faces = self
            .entities
            .iter()
            .filter_map(|e| geometry(&e.kind))
            .flat_map(|g| &g.faces);
        if let Some(f) = faces.into_iter().find(|f| f.material.0 as usize >= count) {
            return Err(CommandError::Invalid(format!(
                "import refers to material {} of {count}",
                f.material.0
            )));
        }
        let mut ids = Vec::with_capacity(count);
        for m in &self.materials {
            let mut add = AddMaterial::new(m.clone());
            add.apply(scene)?;
            ids.push(
                add.created()
                    .ok_or_else(|| CommandError::Invalid("material not created".into()))?,
            );
            self.steps.push_applied(Box::new(add));
        }
        // The AddEntities step keeps them for redo; no second copy is needed.
        let mut entities = std::mem::take(&mut self.entities);
        for e in &mut entities {
            if let Some(g) = geometry_mut(&mut e.kind) {
                for f in &mut g.faces {
                    f.material = ids[f.material.0 as usize];
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

fn geometry(kind: &EntityKind) -> Option<&MeshData> {
    match kind {
        EntityKind::Mesh(m) => Some(&m.geometry),
        EntityKind::Walkable(g) => Some(g),
        _ => None,
    }
}

fn geometry_mut(kind: &mut EntityKind) -> Option<&mut MeshData> {
    match kind {
        EntityKind::Mesh(m) => Some(&mut m.geometry),
        EntityKind::Walkable(g) => Some(g),
        _ => None,
    }
}

impl Command for ImportCommand {
    fn name(&self) -> String {
        self.name.clone()
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
