//! # pebble-io — import and export
//!
//! Importers (glTF 2.0, PS1 TMD with TIM textures, images, `.pbm` maps) that turn
//! files into model entities through one undoable command each, and the export
//! pipeline that turns a model scene into `.pbm` bytes: spatial chunking, atlases,
//! texture formats, baked vertex lighting, colliders and metadata lumps.
//! Data flows one way: model → export → `pbm` bytes.
//!
//! Filled by the "Asset import" and "Export pipeline" issues.

pub use pbm::Map;
