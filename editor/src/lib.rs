//! Pebble's editor window, the application shell: the eframe window, the layout of
//! the docked panels around the viewport, the menus and toolbar, the modal
//! questions, the dialogs, the Preferences window, and the one place every action
//! and intent is carried out (`app/run_action.rs`). A library, so that tests drive
//! the real app (egui_kittest) and the `pebble` binary (`pebble-cli`, feature
//! `window`) opens it.
//!
//! It is the only crate that knows eframe (and through it winit). It imports the
//! core, the viewport and the panels; it must never import the command line
//! (`pebble-cli`), which sits above it.

pub mod app;
