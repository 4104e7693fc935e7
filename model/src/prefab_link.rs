//! What ties a scene to its prefabs, as plain data: a prefab's id, an
//! instance's link (which prefab, what it overrides) and one override. The
//! entity carries these, so they sit below it; the code that reads them is
//! `prefab/` (`overrides.rs`, `sync.rs`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::id::EntityId;

/// A prefab's identity: chosen at random when it is made, kept when its file
/// or its name changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PrefabId(pub u64);

impl std::fmt::Display for PrefabId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "prefab {:016x}", self.0)
    }
}

/// One field of one of a prefab's entities set otherwise on one instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Override {
    /// The entity's id inside the prefab (stable across renames and moves).
    pub source: EntityId,
    /// A JSON pointer into the entity's saved form; [`REMOVED`] for an entity
    /// this instance leaves out.
    pub path: String,
    pub value: Value,
}

/// The path of an override that leaves the prefab's entity out of one copy.
pub const REMOVED: &str = "";

impl Override {
    pub fn removal(source: EntityId) -> Self {
        Self {
            source,
            path: REMOVED.into(),
            value: Value::Null,
        }
    }

    pub fn is_removal(&self) -> bool {
        self.path == REMOVED
    }
}

/// Where an entity inside an instance comes from: the instance it belongs to
/// and its id within that instance's prefab. Naming the instance keeps an
/// entity moved out of one copy (ungrouped, reparented, pasted elsewhere) from
/// passing for part of another: it is part of the instance it names only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Source {
    pub instance: EntityId,
    pub id: EntityId,
}

/// A group that is a copy of a prefab: its content (the prefab's entities,
/// each with the prefab-local id it came from in [`crate::Entity::source`])
/// follows the prefab, but for the overrides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Instance {
    pub prefab: PrefabId,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<Override>,
}
