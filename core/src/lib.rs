//! Pebble's editor core: what the editor does, without a window or a GPU. The
//! [`document`] (scene, history, file, autosave), the background [`jobs`], the
//! [`action`] table and the [`intent`]s the panels and the viewport return, the
//! edit operations ([`edit_ops`], [`faces`], [`create`], [`clipboard`]), the
//! presets, Play mode's simulation and gamepads, the status line's messages, and
//! the [`services`] the window and the command line share (export, deploy, the
//! capture preview's sidecar, PPSSPP, the showcase).
//!
//! It must never import egui, eframe, winit or wgpu (nor `pebble-render`): the
//! headless command line builds on it, and the editor's crates above it (the
//! viewport, the panels, the shell) turn its plain data into pixels and keys.

pub mod action;
pub mod clipboard;
pub mod create;
pub mod deploy;
pub mod document;
pub mod edit_ops;
pub mod entity_kinds;
pub mod faces;
pub mod gamepad;
pub mod intent;
pub mod jobs;
pub mod keys;
pub mod layer;
pub mod pane;
pub mod play;
pub mod ppsspp;
pub mod prefab_library;
pub mod prefab_ops;
pub mod presets;
pub mod profiling;
pub mod scheme;
pub mod services;
pub mod shortcuts;
pub mod status;
