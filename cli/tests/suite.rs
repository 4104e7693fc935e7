//! The editor's tests that run in the normal suite, one binary for all of them:
//! each file here is a module (kittest panels and tools, the command line, the
//! project files), so that a change in the editor relinks one test binary, not
//! twenty-five. The slow end-to-end tests (the emulator, the real window, the
//! fuzzer's long run) keep binaries of their own, so that CI's ignored pass runs
//! each alone (see `Cargo.toml`'s `[[test]]` list).

mod common;
// Levels shaped as Blender, Godot and Sketchfab write them (the io tests' own).
#[path = "../../io/tests/common/levels.rs"]
#[allow(dead_code)]
mod levels;

mod afternoon;
mod cli;
mod compare_cli;
mod create_by_dragging;
mod deploy_cli;
mod editor_files;
mod editor_ui;
mod entities_codegen;
mod entity_kinds;
mod face_mode;
mod file_dialog;
mod game_entities_window;
mod hot_reload;
mod import_cli;
mod import_window;
mod live_link;
mod module_graph;
mod number_fields;
mod orientation;
mod orientation_window;
mod play_mode;
mod prefabs_window;
mod project_cli;
mod render_cli;
mod repository;
mod room_by_hand;
mod showcase;
mod texturing;
mod ui_cache;
mod untitled_and_deploy;
mod user_guide;
mod viewport_tools;
