//! What floats over the layout: the questions that must be answered before going
//! on (unsaved changes, recovered work), the export's progress with Cancel, and
//! the Help, About, Preferences and Compare windows.

use eframe::egui;
use pebble_model::project;
use pebble_render::Gpu;

use super::{PebbleApp, files, preferences_window};
use pebble_core::action::{self, Action};
use pebble_viewport::navigation;

impl PebbleApp {
    /// The windows opened from the menus.
    pub(super) fn windows_ui(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        let windows = &mut self.windows;
        if windows.help {
            let scheme = self.prefs.navigation.clone();
            // Taller than a laptop's window: it scrolls instead of running past
            // the window's edge.
            let max_height = ctx.content_rect().height() - 80.0;
            egui::Window::new(Action::KeyboardHelp.label())
                .open(&mut windows.help)
                .max_height(max_height)
                .show(ctx, |ui| {
                    egui::ScrollArea::vertical()
                        .max_height(max_height)
                        .show(ui, |ui| help_ui(ui, &scheme));
                });
        }
        if windows.about {
            let adapter = windows.adapter.clone();
            egui::Window::new(Action::About.label())
                .open(&mut windows.about)
                .collapsible(false)
                .show(ctx, |ui| {
                    ui.heading(format!("Pebble {}", env!("CARGO_PKG_VERSION")));
                    ui.label("A level editor for PSP-class retro 3D maps: build, export .pbm, deploy to a PSP, compare with the device.");
                    ui.label(format!("Renderer: {adapter}"));
                });
        }
        if windows.preferences {
            egui::Window::new("Preferences")
                .open(&mut windows.preferences)
                .collapsible(false)
                .show(ctx, |ui| {
                    preferences_window::ui(&mut self.prefs, ui, &self.presets.navigation)
                });
        }
        let intents = self
            .windows
            .map_settings
            .ui(ctx, self.doc.scene(), &self.presets);
        self.apply(ctx, intents);
        self.budget_window(ctx);
        if let Some(dialog) = &mut self.windows.import {
            match dialog.ui(ctx) {
                Some(super::import_dialog::Outcome::Import {
                    path,
                    tim,
                    placement,
                }) => {
                    self.windows.import = None;
                    self.import_placed(path, tim, super::import_dialog::Placing::Model(placement));
                }
                Some(super::import_dialog::Outcome::Cancel) => self.windows.import = None,
                None => {}
            }
        }
        if let Some(dialog) = &mut self.windows.import_picture {
            match dialog.ui(ctx) {
                Some(super::import_dialog::PictureOutcome::Import { path, placement }) => {
                    self.windows.import_picture = None;
                    self.import_placed(
                        path,
                        None,
                        super::import_dialog::Placing::Picture(placement),
                    );
                }
                Some(super::import_dialog::PictureOutcome::Cancel) => {
                    self.windows.import_picture = None
                }
                None => {}
            }
        }
        self.modals_ui(ctx);
        if self.windows.compare.open {
            let dir = self.doc.folder();
            // The editor's own device draws the preview (no second device).
            let gpu = frame.wgpu_render_state().map(|rs| Gpu {
                device: rs.device.clone(),
                queue: rs.queue.clone(),
                info: rs.adapter.get_info(),
            });
            if self
                .windows
                .compare
                .window_ui(ctx, self.doc.scene(), &dir, gpu)
            {
                self.go_to_capture();
            }
        }
    }

    /// The questions that must be answered before going on: unsaved changes,
    /// recovered work; and the export's progress with Cancel.
    pub(super) fn modals_ui(&mut self, ctx: &egui::Context) {
        if let Some(pending) = self.pending.clone() {
            let what = match &pending {
                files::Pending::New => "starting a new project".to_string(),
                files::Pending::Open(p) => format!("opening {}", p.display()),
                files::Pending::Close => "closing Pebble".to_string(),
            };
            let mut answer = None;
            egui::Modal::new(egui::Id::unique("pebble unsaved")).show(ctx, |ui| {
                ui.heading("Unsaved changes");
                ui.label(format!(
                    "{} has changes that are not saved. Save them before {what}?",
                    self.doc.file_name()
                ));
                ui.horizontal(|ui| {
                    if ui.button("Save").clicked() {
                        answer = Some(0);
                    }
                    if ui.button("Don't save").clicked() {
                        answer = Some(1);
                    }
                    if ui.button("Cancel").clicked() {
                        answer = Some(2);
                    }
                });
            });
            match answer {
                // Save As for a new project goes on once the dialog answers.
                Some(0) if self.save() => self.go_on(ctx, pending),
                Some(1) => self.go_on(ctx, pending),
                Some(2) => self.pending = None,
                _ => {}
            }
        }
        if let Some(info) = self.recovery.clone() {
            let mut answer = None;
            egui::Modal::new(egui::Id::unique("pebble recovery")).show(ctx, |ui| {
                ui.heading("Recover unsaved work?");
                if info.project_modified.is_none() {
                    ui.label(format!(
                        "Pebble found work on an untitled project that was never saved (autosaved {}).",
                        files::recovery_age(&info)
                    ));
                } else {
                    ui.label(format!(
                        "Pebble found work on {} that was not saved (autosaved {}), newer than the project file.",
                        info.project
                            .file_name()
                            .map(|n| n.to_string_lossy())
                            .unwrap_or_default(),
                        files::recovery_age(&info)
                    ));
                }
                ui.horizontal(|ui| {
                    if ui.button("Restore").clicked() {
                        answer = Some(true);
                    }
                    if ui.button("Discard").clicked() {
                        answer = Some(false);
                    }
                });
            });
            match answer {
                Some(true) => match project::load_recovery(&info) {
                    Ok(scene) => {
                        self.recovery = None;
                        self.next_scene = Some((scene, info.project.clone(), true));
                    }
                    Err(e) => {
                        self.recovery = None;
                        self.status.error(format!(
                            "cannot restore: {e} (the file is kept: {})",
                            info.path.display()
                        ));
                    }
                },
                Some(false) => {
                    self.recovery = None;
                    if let Err(e) = project::discard_recovery(&info) {
                        self.status.error(format!("{e}"));
                    }
                    project::remove_untitled(&info.project, &self.data_dir);
                }
                None => {}
            }
        }
        let mut cancel = false;
        if let Some(job) = &self.jobs.export {
            egui::Window::new("Exporting")
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -40.0))
                .show(ctx, |ui| {
                    ui.label(job.path.display().to_string());
                    let fraction = job.fraction.unwrap_or(0.0);
                    ui.add(
                        egui::ProgressBar::new(fraction)
                            .text(format!("{} {:.0} %", job.stage, fraction * 100.0))
                            .desired_width(320.0),
                    );
                    cancel = ui.button("Cancel").clicked();
                });
        }
        if cancel && let Some(job) = &self.jobs.export {
            job.cancel();
        }
    }
}

/// The Help window: the keys and the mouse as the current navigation preset maps
/// them.
fn help_ui(ui: &mut egui::Ui, scheme: &navigation::Scheme) {
    use navigation::{Button, DragAction, drag_action};
    let name = |a: Option<DragAction>| match a {
        Some(DragAction::Orbit) => "orbit",
        Some(DragAction::Pan) => "pan",
        Some(DragAction::Zoom) => "zoom",
        Some(DragAction::FlyLook) => "fly (W/A/S/D, Q/E, Shift ×4, wheel = speed)",
        None => "select / gizmo / box select",
    };
    ui.label(format!("Mouse ({})", scheme.name));
    egui::Grid::new("help mouse").striped(true).show(ui, |ui| {
        for (label, b, shift, ctrl, alt) in [
            ("left drag", Button::Left, false, false, false),
            ("Alt + left drag", Button::Left, false, false, true),
            ("middle drag", Button::Middle, false, false, false),
            ("Shift + middle drag", Button::Middle, true, false, false),
            ("Ctrl + middle drag", Button::Middle, false, true, false),
            ("right drag", Button::Right, false, false, false),
            ("Alt + right drag", Button::Right, false, false, true),
        ] {
            ui.label(label);
            ui.label(name(drag_action(scheme, b, shift, ctrl, alt)));
            ui.end_row();
        }
        ui.label("wheel");
        ui.label("zoom towards the cursor");
        ui.end_row();
    });
    ui.separator();
    ui.label("Keys");
    egui::Grid::new("help keys").striped(true).show(ui, |ui| {
        for (k, what) in [
            ("click / Shift / Ctrl", "select / add / toggle"),
            (
                "left drag off the gizmo / Shift / Ctrl",
                "box select / add / toggle (Alt at the release: through walls)",
            ),
            (
                "Shift while moving",
                "stand the selection on the surface under the cursor",
            ),
            (
                "V while moving",
                "the moved vertex nearest the grab onto another object's vertex nearest the cursor",
            ),
            (
                "right press",
                "fly at once: W A S D, Q E, Shift ×4, the wheel sets the speed",
            ),
            (
                "pan",
                "what was under the cursor at the press stays under it",
            ),
            (
                "Esc",
                "cancel the drag in progress (gizmo, box, orbit, pan), else clear the selection",
            ),
        ] {
            ui.label(k);
            ui.label(what);
            ui.end_row();
        }
        // Every shortcut, from the action table the keys and menus use, with the
        // navigation scheme's own keys (Blender's G, R, S…) in place.
        for (a, shortcuts) in pebble_core::shortcuts::effective_shortcuts(scheme) {
            if shortcuts.is_empty() {
                continue;
            }
            let keys = shortcuts
                .iter()
                .map(action::shortcut_text)
                .collect::<Vec<_>>()
                .join(" or ");
            ui.label(keys);
            ui.label(a.label());
            ui.end_row();
        }
        let free: Vec<&str> = pebble_core::shortcuts::free_keys(scheme)
            .iter()
            .map(|k| k.name())
            .collect();
        ui.label("free keys");
        ui.label(free.join(" "));
        ui.end_row();
    });
}
