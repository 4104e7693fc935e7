//! What happens every frame before the window is laid out: a loaded scene put in
//! place, the dialogs and background jobs polled, closing with unsaved work
//! stopped for a question, the autosave, the scene clock, the keyboard shortcuts
//! (from the action table) and the window title. None of it draws.

use eframe::egui;

use super::{PebbleApp, files, keys};
use pebble_core::action::{self, Action};

impl PebbleApp {
    pub(super) fn before_layout(
        &mut self,
        ctx: &egui::Context,
        frame: &mut eframe::Frame,
        dt: f32,
    ) {
        self.figures.tick(dt);
        if let Some((scene, path, unsaved)) = self.next_scene.take() {
            self.install_scene(frame, scene, path, unsaved);
        }
        self.poll_files(ctx);
        self.hot_reload(ctx, frame);
        self.doc.texture_lock = self.prefs.texture_lock;
        // An undo may have taken picked faces away.
        let mut faces = std::mem::take(&mut self.doc.faces);
        faces.keep_valid(self.doc.scene());
        self.doc.faces = faces;
        if self.budget.update(
            self.doc.scene(),
            &self.doc.folder(),
            std::time::Instant::now(),
        ) {
            ctx.request_repaint_after(super::budget::SETTLE);
        }
        // Closing with unsaved work asks first.
        if ctx.input(|i| i.viewport().close_requested()) && !self.allow_close && self.doc.is_dirty()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(files::Pending::Close);
        }
        // The benchmark's edits are not work to recover (and must leave the
        // bundled showcase's folder as it was).
        if self.prefs.autosave_seconds > 0 && self.bench.is_none() {
            // Untitled work too: its recovery file sits in its folder under the
            // data folder, and the next start offers it back.
            let every = std::time::Duration::from_secs(u64::from(self.prefs.autosave_seconds));
            if let Err(e) = self.doc.tick_autosave(every) {
                self.status.error(format!("autosave failed: {e}"));
            }
            if self.doc.autosave_waits() {
                ctx.request_repaint_after(pebble_model::project::AUTOSAVE_AFTER_EDIT / 2);
            }
        }
        self.panels.raise_requested();
        if self.jobs.deploy.busy() {
            if let Some(done) = self.jobs.deploy.poll() {
                // Beside the status line already (the job's own line). A success
                // after a failure replaces the failure's red message there: it
                // stayed red through two good deploys.
                match done {
                    Ok(said) => {
                        let failure_shown = self.status.level == pebble_core::status::Level::Error
                            && self.status.text.starts_with("deploy failed");
                        if failure_shown {
                            self.status.info(said);
                        } else {
                            tracing::info!(target: "pebble", "{said}");
                        }
                    }
                    Err(e) => self.status.error(format!("deploy failed: {e}")),
                }
                if std::mem::take(&mut self.jobs.deploy.live_pending) {
                    self.export_and_deploy();
                }
            }
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        if self.jobs.ppsspp.busy() {
            match self.jobs.ppsspp.poll() {
                Some(Ok(done)) => self.status.info(done),
                Some(Err(e)) => self.status.error(format!("Play in PPSSPP: {e}")),
                None => {}
            }
            ctx.request_repaint_after(std::time::Duration::from_millis(200));
        }
        if self.clock.playing {
            self.clock.time += f64::from(dt * self.clock.speed);
            ctx.request_repaint();
        }
        self.prefs
            .remember_view(self.doc.path(), self.viewport.view.goal());
        let (pressed, pasted) = self.pressed_shortcuts(ctx);
        if pasted.is_some() {
            self.clipboard = pasted;
        }
        for a in pressed {
            // Some keys wait while a viewport tool is at work.
            if !(a.waits_for_tools() && self.viewport.tools.is_dragging()) {
                self.run_action(ctx, a);
            }
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(self.doc.title()));
    }

    /// The actions whose shortcuts were pressed this frame (consumed). While a
    /// text field has the keyboard, keys are text, not shortcuts; the viewport's
    /// keys are not taken while flying (W/E/Q steer then).
    ///
    /// Ctrl+C / X / V come as egui's clipboard events (with the system clipboard's
    /// text for a paste, returned too).
    fn pressed_shortcuts(&self, ctx: &egui::Context) -> (Vec<Action>, Option<String>) {
        if ctx.egui_wants_keyboard_input() {
            // A text field has the keyboard: its keys are text, but for those
            // that never are (F5 starts and stops Play).
            let pressed = ctx.input_mut(|i| {
                action::keyed()
                    .iter()
                    .filter(|(_, a)| a.spec().context == action::Context::Anywhere)
                    .filter(|(s, _)| i.consume_shortcut(&keys::egui_shortcut(s)))
                    .map(|&(_, a)| a)
                    .collect()
            });
            return (pressed, None);
        }
        let flying = ctx.input(|i| i.pointer.secondary_down());
        let playing = self.viewport.tools.playing();
        let mut pasted = None;
        let pressed = ctx.input_mut(|i| {
            let mut pressed = Vec::new();
            for event in i.events.iter().filter(|_| !playing) {
                match event {
                    egui::Event::Copy => pressed.push(Action::Copy),
                    egui::Event::Cut => pressed.push(Action::Cut),
                    egui::Event::Paste(text) => {
                        pasted = Some(text.clone());
                        pressed.push(if i.modifiers.shift {
                            Action::PasteUnderCursor
                        } else {
                            Action::Paste
                        });
                    }
                    _ => {}
                }
            }
            // The navigation scheme's own keys (Blender's G, R, S…) come first,
            // and so win a key the table gives another action.
            for (shortcut, a) in pebble_core::shortcuts::scheme_keys(&self.prefs.navigation) {
                if playing
                    || (a.is_viewport_key() && flying)
                    || (shortcut.modifiers.is_none() && i.modifiers.alt)
                {
                    continue;
                }
                if i.consume_shortcut(&keys::egui_shortcut(&shortcut)) {
                    pressed.push(a);
                }
            }
            // The table's keys. egui-winit makes a paste event of Ctrl+V alone:
            // Ctrl+Shift+V comes as a plain key, the table's (with the text last
            // copied or pasted).
            for &(shortcut, a) in action::keyed() {
                // While playing, the keys are the game's: only F5 stops it.
                if playing && !matches!(a, Action::Play | Action::PlayFromCamera) {
                    continue;
                }
                if (a.is_viewport_key() && flying)
                    || (shortcut.modifiers.is_none() && i.modifiers.alt)
                {
                    continue;
                }
                if i.consume_shortcut(&keys::egui_shortcut(&shortcut)) {
                    pressed.push(a);
                }
            }
            pressed
        });
        (pressed, pasted)
    }

    /// Puts a loaded scene in place: the viewport's GPU scene is rebuilt, the
    /// history starts afresh, the view frames it.
    fn install_scene(
        &mut self,
        frame: &mut eframe::Frame,
        scene: pebble_model::Scene,
        path: std::path::PathBuf,
        unsaved: bool,
    ) {
        let Some(rs) = frame.wgpu_render_state() else {
            self.status.error("no GPU renderer");
            return;
        };
        match super::install_viewport(rs, &scene, &path) {
            Ok(message) => {
                self.status = message;
                let bounds = scene.bounds();
                // The project being left keeps its camera for its next opening.
                self.prefs
                    .remember_view(self.doc.path(), self.viewport.view.goal());
                self.doc.replace(scene, path, unsaved);
                self.budget.forget();
                if !self.doc.is_untitled() {
                    files::push_recent(&mut self.prefs.recent, self.doc.path());
                }
                self.viewport.reset(bounds);
                if let Some(view) = self.prefs.view_of(self.doc.path()) {
                    self.viewport.view.orbit = view;
                }
            }
            Err(e) => self
                .status
                .error(format!("cannot show {}: {e}", path.display())),
        }
    }

    /// The level is built: the game starts at the spawn or the camera, unless
    /// there is nothing to stand on there.
    fn start_playing(&mut self, level: pebble_play::Level, from_camera: bool) {
        let camera = self.viewport.camera();
        let from = from_camera.then_some((camera.eye, camera.yaw, camera.pitch));
        let eye = from.map_or(level.spawn, |(e, ..)| e.to_array());
        if level.ground_at(eye[0], eye[2], eye[1]).is_none() {
            self.status.error(format!(
                    "nothing to stand on under {} ({:.1}, {:.1}, {:.1}): tick \"collidable\" on the floor's mesh, or put a collider or a walkable surface under it",
                    if from_camera { "the camera" } else { "the spawn" },
                    eye[0],
                    eye[1],
                    eye[2]
                ));
            return;
        }
        let session = pebble_core::play::PlaySession::start(std::sync::Arc::new(level), from);
        let editing = self.viewport.view.orbit;
        self.doc.faces.clear();
        self.viewport.tools.start_play(session, editing);
        self.status
            .info("playing: W/S/A/D walk, Q/E turn, Esc or F5 to stop");
        tracing::info!(target: "pebble", "play: started");
    }

    /// Takes what the dialogs and background jobs reported since last frame.
    fn poll_files(&mut self, ctx: &egui::Context) {
        if let Some(d) = &mut self.jobs.dialog {
            if !d.is_in_app() {
                ctx.request_repaint_after(std::time::Duration::from_millis(100));
            }
            if let Some(picked) = d.poll(ctx) {
                let kind = d.kind;
                self.jobs.dialog = None;
                if let Some(path) = picked {
                    match kind {
                        files::DialogKind::Open => self.open_path(path),
                        files::DialogKind::SaveAs => {
                            if self.save_as(path) && self.pending == Some(files::Pending::Close) {
                                self.allow_close = true;
                                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                            }
                        }
                        files::DialogKind::Import => self.chose_import(path),
                        files::DialogKind::Export => self.export_to(path),
                        files::DialogKind::Texture(target) => self.chose_texture(path, target),
                    }
                }
            }
        }
        if let Some((job, from_camera)) = &mut self.jobs.play {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
            if let Some(r) = job.poll() {
                let from_camera = *from_camera;
                self.jobs.play = None;
                match r {
                    Ok(level) => self.start_playing(level, from_camera),
                    Err(e) => self.status.error(e),
                }
            }
        }
        if let Some(job) = &mut self.jobs.export {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
            if let Some(r) = job.poll() {
                self.jobs.export = None;
                self.status.outcome(r);
            }
        }
        if let Some(job) = &mut self.jobs.import {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
            if let Some(r) = job.poll() {
                let path = job.path.clone();
                self.jobs.import = None;
                match r {
                    Ok(imported) => {
                        let mut command = imported.command.without_settings();
                        if let Some(placement) = self.jobs.import_placement.take() {
                            command.place_roots(|t| placement.apply(t));
                        }
                        for w in super::budget::import_warnings(
                            command.entities(),
                            command.materials(),
                            &self.doc.folder(),
                        ) {
                            tracing::warn!(target: "pebble", "{}: {w}", path.display());
                            self.status.warn(w);
                        }
                        let added = command.add_what_the_project_lacks(self.doc.scene());
                        let n = command.entities().len();
                        self.run_command(command);
                        self.status
                            .info(format!("imported {} ({n} entities)", path.display()));
                        for line in added {
                            tracing::info!(target: "pebble", "{}: {line}", path.display());
                            self.status.info(line);
                        }
                        for w in &imported.report.warnings {
                            tracing::warn!(target: "pebble", "{}: {w}", path.display());
                        }
                        for d in &imported.report.dropped {
                            tracing::info!(target: "pebble", "{}: left out: {d}", path.display());
                        }
                    }
                    Err(e) => self.status.error(e),
                }
            }
        }
    }
}
