//! Prefabs: a built piece kept to be placed many times. The data — a prefab's
//! entities with ids of its own, stable across renames, moves and reparenting,
//! and the link an instance keeps — is `prefab_piece.rs` and `prefab_link.rs`,
//! below the scene that holds it. Here: a prefab made of a scene's entities
//! (`gather.rs`); its file in the project's `prefabs/` folder (`file.rs`); what
//! one copy changes, as overrides keyed by those ids (`overrides.rs`); instances
//! following their prefab and edits inside them becoming overrides or prefab
//! changes (`sync.rs`); the edits a designer makes with prefabs, each one undo
//! step (`edit.rs`); a prefab opened on its own as a scene, and saved back
//! (`own.rs`).

pub mod edit;
pub mod file;
pub mod gather;
pub mod overrides;
pub mod own;
pub mod sync;

// The data lives below the scene and the commands that hold it.
pub use crate::prefab_link::{self as link, Instance, Override, PrefabId, Source};
pub use crate::prefab_piece::{self as piece, Prefab};
pub use overrides::{apply, diff};
