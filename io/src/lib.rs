//! # pebble-io — import and export
//!
//! Importers (`.pbm` maps, PS1 TMD with TIM textures, images; glTF to come) turn
//! files into model entities through one undoable [`import::ImportCommand`] each; the
//! export pipeline (to come) turns a model scene into `.pbm` bytes. Data flows one
//! way: model → export → `pbm` bytes.

pub mod import;
