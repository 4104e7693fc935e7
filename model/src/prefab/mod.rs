//! Prefabs: a built piece kept to be placed many times — its entities with ids
//! of its own, stable across renames, moves and reparenting (`piece.rs`), made of a
//! scene's entities (`gather.rs`); its
//! file in the project's `prefabs/` folder (`file.rs`); the link an instance
//! keeps and what one copy changes, as overrides keyed by those ids
//! (`link.rs`, `overrides.rs`); instances following their prefab and edits
//! inside them becoming overrides or prefab changes (`sync.rs`); the edits a
//! designer makes with prefabs, each one undo step (`edit.rs`); a prefab
//! opened on its own as a scene, and saved back (`own.rs`).

pub mod edit;
pub mod file;
pub mod gather;
pub mod link;
pub mod overrides;
pub mod own;
pub mod piece;
pub mod sync;

pub use link::{Instance, Override, PrefabId, Source};
pub use overrides::{apply, diff};
pub use piece::Prefab;
