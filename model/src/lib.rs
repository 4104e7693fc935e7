//! # pebble-model — the scene model
//!
//! The one source of truth that the editor edits, the renderer draws and the exporter
//! writes: entities with stable ids, hierarchy, meshes and editable primitives,
//! materials, lights, emitters, gameplay entities, scene settings; every change as an
//! undoable command; project files in RON. Depends on `pbm` for shared record types
//! and on nothing graphical (no wgpu, no egui).
//!
//! Filled by the "Scene model, undoable commands and project files" issue.

/// The emitter record the model stores is the format's own, so the editor shows
/// exactly the field the PSP runtime plays.
pub use pbm::EmitterRecord;
