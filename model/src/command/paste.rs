//! Paste: entities and the materials they use, from elsewhere (another project,
//! another window), added as one step. A material equal to one the scene has is
//! that one; the others are added, and the entities' faces follow them.

use std::any::Any;
use std::collections::BTreeMap;

use super::{AddEntities, AddMaterial, Command, CommandError};
use crate::entity::{Entity, EntityKind};
use crate::id::MaterialId;
use crate::material::Material;
use crate::scene::Scene;

#[derive(Debug)]
pub struct Paste {
    materials: Vec<(MaterialId, Material)>,
    entities: Vec<Entity>,
    /// After the first apply: the materials added, then the entities.
    added: Option<(Vec<AddMaterial>, AddEntities)>,
    /// The step's name in the history.
    name: String,
    /// The prefabs the pasted instances are copies of: those the scene has not
    /// come with them (their faces following the materials as the entities').
    prefabs: Vec<crate::prefab_piece::Prefab>,
    prefabs_added: Vec<crate::prefab_link::PrefabId>,
}

impl Paste {
    /// `entities` (parents first, ids local to the batch) whose faces use
    /// `materials` (by the ids they had where they were copied).
    pub fn new(materials: Vec<(MaterialId, Material)>, entities: Vec<Entity>) -> Self {
        Self {
            materials,
            entities,
            added: None,
            name: "Paste".into(),
            prefabs: Vec::new(),
            prefabs_added: Vec::new(),
        }
    }

    /// With the prefabs the pasted instances are copies of (their materials
    /// among `materials`).
    pub fn with_prefabs(mut self, prefabs: Vec<crate::prefab_piece::Prefab>) -> Self {
        self.prefabs = prefabs;
        self
    }

    /// The same step under another name in the history ("Create Box" for a new
    /// box that brings its first material).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The pasted entities' ids, after the first apply.
    pub fn created(&self) -> Vec<crate::id::EntityId> {
        self.added
            .as_ref()
            .map_or_else(Vec::new, |(_, e)| e.created())
    }
}

impl Paste {
    fn add_prefabs(&mut self, scene: &mut Scene) {
        for p in &self.prefabs {
            if scene.prefab(p.id).is_none() {
                scene.put_prefab(p.id, Some(p.clone()));
                self.prefabs_added.push(p.id);
            }
        }
    }
}

fn remap_faces(e: &mut Entity, map: &BTreeMap<MaterialId, MaterialId>) {
    let geometry = match &mut e.kind {
        EntityKind::Mesh(m) => &mut m.geometry,
        EntityKind::Walkable(g) => g,
        _ => return,
    };
    for f in &mut geometry.faces {
        if let Some(id) = map.get(&f.material) {
            f.material = *id;
        }
    }
}

impl Command for Paste {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        if self.added.is_none() {
            let mut map: BTreeMap<MaterialId, MaterialId> = BTreeMap::new();
            let mut adds = Vec::new();
            for (old, m) in &self.materials {
                match scene.materials().find(|(_, have)| *have == m) {
                    Some((id, _)) => {
                        map.insert(*old, id);
                    }
                    None => adds.push((*old, AddMaterial::new(m.clone()))),
                }
            }
            let mut applied = Vec::new();
            for (old, mut add) in adds {
                add.apply(scene)?;
                if let Some(id) = add.created() {
                    map.insert(old, id);
                }
                applied.push(add);
            }
            let entities = self
                .entities
                .iter()
                .cloned()
                .map(|mut e| {
                    remap_faces(&mut e, &map);
                    e
                })
                .collect();
            for p in &mut self.prefabs {
                for e in &mut p.entities {
                    remap_faces(e, &map);
                }
                for (id, _) in &mut p.materials {
                    if let Some(to) = map.get(id) {
                        *id = *to;
                    }
                }
            }
            let mut add = AddEntities::new("Paste", entities);
            if let Err(e) = add.apply(scene) {
                for m in applied.iter_mut().rev() {
                    m.revert(scene);
                }
                return Err(e);
            }
            self.added = Some((applied, add));
            self.add_prefabs(scene);
            return Ok(());
        }
        let Some((materials, entities)) = &mut self.added else {
            return Ok(());
        };
        for m in materials.iter_mut() {
            m.apply(scene)?;
        }
        entities.apply(scene)?;
        self.add_prefabs(scene);
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for id in self.prefabs_added.drain(..).rev() {
            scene.put_prefab(id, None);
        }
        if let Some((materials, entities)) = &mut self.added {
            entities.revert(scene);
            for m in materials.iter_mut().rev() {
                m.revert(scene);
            }
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
