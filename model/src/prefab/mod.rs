//! Prefabs (issue 53, begun): a built piece kept to be placed many times — its
//! entities with ids of its own, stable across renames, moves and reparenting
//! (`piece.rs`); its file in the project's `prefabs/` folder (`file.rs`); and
//! what one copy changes, as overrides keyed by those ids (`overrides.rs`).
//! Instances, propagation and the editor's side are still to come.

pub mod file;
pub mod overrides;
pub mod piece;

pub use overrides::{Override, apply, diff};
pub use piece::{Prefab, PrefabId};
