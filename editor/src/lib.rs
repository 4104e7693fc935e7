//! Pebble's editor application and command line, as a library so that tests can
//! drive the real app (egui_kittest) and the binary stays a thin `main`.

pub mod app;
pub mod cli;
