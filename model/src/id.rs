//! Stable identifiers. Entity and material ids are allocated from counters stored in
//! the project and never reused, even after undo, so that references in history,
//! exports and pick buffers never point at the wrong thing.

use serde::{Deserialize, Serialize};

/// An entity's id; 0 is never allocated (pick buffers use it for "nothing").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EntityId(pub u32);

/// A material's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MaterialId(pub u32);

/// A layer's id (layer 0 is the default layer).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(transparent)]
pub struct LayerId(pub u32);

impl EntityId {
    /// The id written into the ID buffer for this entity.
    pub fn pick_id(self) -> u32 {
        self.0
    }
}

impl std::fmt::Display for EntityId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// The counters ids are drawn from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdAllocator {
    next_entity: u32,
    next_material: u32,
}

impl Default for IdAllocator {
    fn default() -> Self {
        Self {
            next_entity: 1,
            next_material: 1,
        }
    }
}

impl IdAllocator {
    pub fn entity(&mut self) -> EntityId {
        let id = EntityId(self.next_entity);
        self.next_entity += 1;
        id
    }

    pub fn material(&mut self) -> MaterialId {
        let id = MaterialId(self.next_material);
        self.next_material += 1;
        id
    }

    /// Makes sure ids already present in loaded data are never handed out again.
    pub fn reserve_past(&mut self, entity: Option<EntityId>, material: Option<MaterialId>) {
        if let Some(e) = entity {
            self.next_entity = self.next_entity.max(e.0 + 1);
        }
        if let Some(m) = material {
            self.next_material = self.next_material.max(m.0 + 1);
        }
    }
}
