//! The editor window (eframe + egui). [`PebbleApp`] (`pebble_app.rs`) is a handful
//! of parts: the document (scene, history, file, autosave), the viewport (view,
//! tools, overlay, view cube), the panels (outliner, inspector, assets, history,
//! log, each owning its state and returning intents), the background jobs, the
//! windows, the preferences and the status line. A frame runs the per-frame
//! logic first (`logic.rs`: jobs, autosave, clock, shortcuts), then lays the
//! window out (`layout.rs`); every user action is an `Action` carried out in
//! `run_action.rs`, and every change to the scene is a command applied through
//! the document. This file lists the shell's files and opens the window.

pub mod bench;
mod bench_run;
pub mod budget;
pub mod compare;
pub mod file_dialog;
pub mod files;
pub mod frame_echo;
pub mod hot_reload;
pub mod import_dialog;
mod intents;
mod keyboard_focus;
pub mod keys;
mod layout;
mod logic;
pub mod map_settings;
pub mod materials;
mod menu;
mod modals;
mod pebble_app;
pub mod preferences_window;
mod reload;
mod run_action;
pub mod status_line;
pub mod ui_cache;

// The viewport's and the panels' parts keep their short paths.

use std::path::PathBuf;

use eframe::egui;
use pebble_model::{EntityId, project};

pub(crate) use pebble_app::install_viewport;
pub use pebble_app::{Clock, Jobs, PebbleApp, Windows, data_dir};

/// The project `pebble` opens without arguments: the bundled showcase in the
/// source tree when run from cargo's build folder (`cargo run`), else, for an
/// installed or unpacked binary (which must not reach into a source tree that may
/// happen to sit on the machine it was built on), a copy generated once into the
/// user's data folder ([`data_dir`]; `pebble showcase DIR` writes the same files
/// anywhere).
pub fn default_project() -> anyhow::Result<PathBuf> {
    use pebble_core::services::showcase;
    let source = if showcase::run_from_build_folder() {
        showcase::showcase_path()
    } else {
        PathBuf::new()
    };
    showcase::default_project_in(&source, Some(data_dir()))
}

/// The window's icon (the taskbar's on Windows and X11), from `assets/icon/`.
fn window_icon() -> std::sync::Arc<egui::IconData> {
    let png = include_bytes!("../../../assets/icon/pebble-128.png");
    // Built in and checked by a test: a picture that does not decode is a bug
    // of this build, shown as no icon rather than no editor.
    let icon = image::load_from_memory(png)
        .map(|i| i.to_rgba8())
        .map_or_else(
            |_| egui::IconData::default(),
            |rgba| egui::IconData {
                width: rgba.width(),
                height: rgba.height(),
                rgba: rgba.into_raw(),
            },
        );
    std::sync::Arc::new(icon)
}

/// The window's GPU set-up: the backends and the adapter the renderer chooses
/// headless too (`pebble_render::gpu::choose_adapter`: a real GPU first, Vulkan
/// first at the same kind, never Wine's placeholder Direct3D 12), `WGPU_BACKEND`
/// still naming others.
fn wgpu_options() -> eframe::egui_wgpu::WgpuConfiguration {
    use eframe::egui_wgpu::{WgpuSetup, WgpuSetupCreateNew};
    let mut create = WgpuSetupCreateNew::without_display_handle();
    create.instance_descriptor.backends = pebble_render::gpu::backends();
    create.native_adapter_selector = Some(std::sync::Arc::new(|adapters, surface| {
        pebble_render::gpu::choose_adapter(adapters, surface)
    }));
    eframe::egui_wgpu::WgpuConfiguration {
        wgpu_setup: WgpuSetup::CreateNew(create),
        ..Default::default()
    }
}

/// Opens the editor window on `project` and runs until it closes (or, with
/// `bench`, until the benchmark has measured its frames).
/// The editor window on `project`; `view`, where given, is the camera it starts
/// at (else where the designer left it in this project).
pub fn run(
    project: PathBuf,
    bench: Option<bench::BenchOptions>,
    view: Option<pebble_viewport::navigation::OrbitCamera>,
) -> anyhow::Result<()> {
    // Only X11 and Wayland need a display named; Windows and macOS always have one.
    if cfg!(all(unix, not(target_os = "macos")))
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        anyhow::bail!(
            "no display to open the editor window on (DISPLAY is not set); run it in a desktop session, or under Xvfb: xvfb-run -a pebble"
        );
    }
    let scene = project::load(&project)?;
    let mut options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_title("Pebble")
            .with_app_id("pebble")
            .with_icon(window_icon()),
        renderer: eframe::Renderer::Wgpu,
        // The layout and preferences are saved by `App::save`; window size too.
        persist_window: bench.is_none(),
        wgpu_options: wgpu_options(),
        ..Default::default()
    };
    // A benchmark starts from nothing saved and saves nothing: eframe restores a
    // saved window size even with `persist_window` off (a resized editor made the
    // next bench measure a smaller window), and the bench's default layout must not
    // replace the user's on exit. Its storage is a scratch file (eframe takes
    // `persistence_path` as the file itself), removed after.
    let scratch = bench.as_ref().map(|_| {
        std::env::temp_dir().join(format!("pebble-bench-storage-{}.ron", std::process::id()))
    });
    if bench.is_some() {
        // A benchmark measures frames, not the display's refresh rate.
        options.wgpu_options.surface.present_mode = eframe::wgpu::PresentMode::AutoNoVsync;
        options.persistence_path = scratch.clone();
    }
    let ran = eframe::run_native(
        "Pebble",
        options,
        Box::new(move |cc| {
            let ui_cache = bench.as_ref().is_none_or(|b| b.ui_cache);
            let mut app = PebbleApp::with_ui_cache(cc, scene, project, ui_cache)
                .map_err(|e| format!("{e:#}"))?;
            app.in_window();
            if let Some(view) = view {
                app.viewport.view.orbit = view;
                app.viewport.view.target = None;
            }
            if let Some(options) = bench {
                app.ui_cache.allow_transfers(options.transfers);
                // The same start whatever was saved: the default layout and view.
                app.panels.layout = pebble_panels::default_layout();
                app.recovery = None;
                app.clock.playing = !options.paused;
                let scene = app.doc.scene();
                let ids: Vec<EntityId> = options
                    .select
                    .iter()
                    .filter_map(|n| scene.entities().find(|e| &e.name == n).map(|e| e.id))
                    .collect();
                if !ids.is_empty() {
                    app.select(ids);
                }
                if options.uv_drag {
                    bench::uv_drag::prepare(&mut app)?;
                }
                app.bench = Some(bench::Bench::new(options));
            }
            Ok(Box::new(app))
        }),
    );
    if let Some(scratch) = scratch {
        let _ = std::fs::remove_file(scratch);
    }
    ran.map_err(|e| anyhow::anyhow!("cannot run the editor window: {e}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_window_icon_is_the_bundled_picture() {
        let icon = super::window_icon();
        assert_eq!((icon.width, icon.height), (128, 128));
        assert_eq!(icon.rgba.len(), 128 * 128 * 4);
        // Opaque in its middle (the pebble), clear in its corner.
        let alpha = |x: usize, y: usize| icon.rgba[(y * 128 + x) * 4 + 3];
        assert_eq!(alpha(64, 64), 255);
        assert_eq!(alpha(0, 0), 0);
    }
}
