//! # pebble-model — the scene model
//!
//! The one source of truth that the editor edits, the renderer draws and the exporter
//! writes: entities with stable ids, hierarchy, meshes and editable primitives,
//! materials, lights, emitters and gameplay entities, scene settings; every change as
//! an undoable [`command`]; [`History`] with merging and a saved marker; project files
//! in RON with atomic saves and crash recovery ([`project`]). Depends on `pbm` for
//! shared record types and on nothing graphical (no wgpu, no egui).

pub mod command;
pub mod definitions;
pub mod diagnostics;
pub mod entity;
pub mod history;
pub mod id;
pub mod legacy;
pub mod limit;
pub mod material;
pub mod math;
pub mod mesh;
pub mod mesh_edit;
pub mod naming;
pub mod prefab;
pub mod prefab_link;
pub mod prefab_piece;
pub mod primitive;
pub mod project;
pub mod scene;
pub mod sidecar;
pub mod uv;

pub use command::{Command, CommandError, CommandGroup};
pub use entity::{Entity, EntityKind, Kind};
pub use history::{EditKey, History};
pub use id::{EntityId, LayerId, MaterialId};
pub use material::Material;
pub use math::{Aabb, Transform};
pub use mesh::MeshData;
pub use primitive::Primitive;
pub use scene::{Scene, SceneData};

/// The emitter record is the format's own, so the editor shows exactly the field the
/// PSP runtime plays.
pub use pbm::EmitterRecord;

/// The maths types of the model's API.
pub use glam;
