//! The `pebble` command line: its subcommands, one module each (export, import,
//! validate, render, deploy, compare, captures, projects, the showcase), and their
//! shared output helper. The `pebble` binary (`main.rs`) parses the arguments and
//! runs them; with the `window` feature (on by default) it also opens the editor
//! window through `pebble-editor`.
//!
//! This library must never import egui, eframe or winit: without the `window`
//! feature (`cargo install --path cli --no-default-features`) it builds a
//! headless `pebble` for build servers, on `pebble-core`, `pebble-io` and
//! `pebble-render` (headless wgpu) alone.

pub mod capture;
pub mod compare;
pub mod convert_bench;
pub mod deploy;
pub mod entities;
pub mod export;
pub mod import;
pub mod new;
mod output;
pub mod pbm;
pub mod project;
pub mod render;
pub mod showcase;

pub use output::emit;
