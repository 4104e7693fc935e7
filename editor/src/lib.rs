//! Pebble's editor window as a library, so that tests can drive the real app
//! (egui_kittest) and the `pebble` binary (in `pebble-cli`) opens it.

pub mod app;
