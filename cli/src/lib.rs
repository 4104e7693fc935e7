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
pub mod export;
pub mod import;
pub mod new;
pub mod pbm;
pub mod project;
pub mod render;
pub mod showcase;

use std::io::Write as _;

/// Writes to stdout; a closed pipe (`pebble … | head`) ends output quietly instead
/// of failing.
pub fn emit(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
