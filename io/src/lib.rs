//! # pebble-io — import and export
//!
//! Importers (`.pbm` maps, glTF 2.0, PS1 TMD with TIM textures, images) turn files
//! into model entities through one undoable [`import::ImportCommand`] each; the
//! [`export`] pipeline turns a model scene into `.pbm` bytes with baked lighting.
//! Data flows one way: model → export → `pbm` bytes.

pub mod codegen;
pub mod deploy;
pub mod described;
pub mod export;
pub mod import;
pub mod start;
