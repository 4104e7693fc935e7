//! The menu bar (File, Edit, View, Create, Tools, Help, Deploy, then the clock and
//! the environment) and the toolbar under it. Each entry is an [`Action`] from the
//! action table, labelled and keyed as the table says, and carried out by
//! `run_action`; settings (navigation preset, zoom) are edited in place.

use eframe::egui;

use super::PebbleApp;
use pebble_core::action::Action;
use pebble_core::create;
use pebble_core::deploy::DeployState;
use pebble_core::pane::Pane;
use pebble_viewport::gizmo;

impl PebbleApp {
    /// A menu entry for `action`, carried out when clicked.
    /// Greyed out when the action cannot run now (the table's `Needs`).
    fn action_button(&mut self, ui: &mut egui::Ui, action: Action) {
        let enabled = action.enabled(&self.menu_now);
        if ui
            .add_enabled(enabled, egui::Button::new(action.menu_text()))
            .clicked()
        {
            let ctx = ui.ctx().clone();
            self.run_action(&ctx, action);
        }
    }

    /// What the editor is doing, as the action table's `Needs` ask.
    pub(super) fn action_state(&self) -> pebble_core::action::State {
        let scene = self.doc.scene();
        pebble_core::action::State {
            selection: !scene.selection().is_empty(),
            selected_mesh: scene.selection().iter().any(|id| {
                scene
                    .entity(*id)
                    .is_some_and(|e| e.kind.kind() == pebble_model::Kind::Mesh)
            }),
            picked_faces: self.viewport.tools.face_mode() && !self.doc.faces.is_empty(),
            clipboard: self.clipboard.is_some(),
            can_undo: self.doc.history().undo_name().is_some(),
            can_redo: self.doc.history().redo_name().is_some(),
            importing: self.jobs.import.is_some(),
            exporting: self.jobs.export.is_some(),
        }
    }

    /// Whether a toggle action is on.
    fn is_on(&self, action: Action) -> bool {
        match action {
            Action::TogglePspPreview => self.viewport.looks.psp,
            Action::TogglePreviewLight => self.viewport.looks.preview_light,
            Action::ToggleOverlays => self.viewport.looks.overlays,
            Action::ToggleSnap => self.prefs.snap,
            Action::ToggleBoxThroughWalls => self.prefs.box_select_occluded,
            Action::ToggleFog => self.viewport.looks.fog,
            Action::ToggleBackFaces => self.viewport.looks.back_faces,
            Action::ToggleLayer(layer) => self.viewport.looks.layers.get(layer),
            Action::ShowLinks(links) => self.viewport.looks.layers.links == links,
            Action::FaceMode => self.viewport.tools.face_mode(),
            Action::Play => self.viewport.tools.playing(),
            Action::PlayInPpsspp => self.jobs.ppsspp.busy(),
            Action::ToggleTextureLock => self.prefs.texture_lock,
            _ => false,
        }
    }

    /// A toggle action as a menu checkbox.
    fn toggle_entry(&mut self, ui: &mut egui::Ui, action: Action) {
        let mut on = self.is_on(action);
        if ui.checkbox(&mut on, action.label()).changed() {
            let ctx = ui.ctx().clone();
            self.run_action(&ctx, action);
        }
    }

    /// A toggle action as a toolbar button, lit while on.
    fn toggle_button(&mut self, ui: &mut egui::Ui, action: Action, label: &str, hover: &str) {
        if ui
            .selectable_label(self.is_on(action), label)
            .on_hover_text(hover)
            .clicked()
        {
            let ctx = ui.ctx().clone();
            self.run_action(&ctx, action);
        }
    }

    fn gizmo_action(mode: gizmo::Mode) -> Action {
        match mode {
            gizmo::Mode::Translate => Action::GizmoMove,
            gizmo::Mode::Rotate => Action::GizmoRotate,
            gizmo::Mode::Scale => Action::GizmoScale,
        }
    }

    pub(super) fn menu_ui(&mut self, ui: &mut egui::Ui) {
        self.menu_now = self.action_state();
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu(ui));
            ui.menu_button("Edit", |ui| self.edit_menu(ui));
            ui.menu_button("View", |ui| self.view_menu(ui));
            ui.menu_button("Create", |ui| {
                for (k, (_, items)) in create::groups().into_iter().enumerate() {
                    if k > 0 {
                        ui.separator();
                    }
                    for item in items {
                        if item == create::CreateItem::Emitter {
                            self.emitter_presets_menu(ui);
                        } else {
                            self.action_button(ui, Action::Create(item));
                        }
                    }
                }
                ui.separator();
                self.game_entities_menu(ui);
                ui.separator();
                ui.menu_button("Collider from selection", |ui| {
                    for fit in pebble_core::edit_ops::ColliderFit::ALL {
                        self.action_button(ui, Action::FitCollider(fit));
                    }
                });
            });
            ui.menu_button("Tools", |ui| {
                self.action_button(ui, Action::Play);
                self.action_button(ui, Action::PlayFromCamera);
                self.toggle_entry(ui, Action::PlayInPpsspp);
                self.action_button(ui, Action::Measure);
                self.toggle_entry(ui, Action::FaceMode);
                self.toggle_entry(ui, Action::ToggleTextureLock);
                ui.menu_button("Faces", |ui| {
                    for action in [
                        Action::PickCoplanarFaces,
                        Action::PickSameMaterialFaces,
                        Action::GrowFaces,
                        Action::ExtrudeFaces,
                        Action::FlipFaces,
                        Action::SplitEdges,
                        Action::MergeVertices,
                    ] {
                        self.action_button(ui, action);
                    }
                    ui.separator();
                    for mode in pebble_core::faces::PickMode::ALL {
                        self.action_button(ui, Action::Pick(mode));
                    }
                    ui.separator();
                    for op in pebble_core::action::UvAction::ALL {
                        self.action_button(ui, Action::Uv(op));
                    }
                });
                self.action_button(ui, Action::CompareCapture);
            });
            ui.menu_button("Help", |ui| {
                self.action_button(ui, Action::KeyboardHelp);
                self.action_button(ui, Action::About);
            });
            self.deploy_ui(ui);
            ui.separator();
            self.clock_ui(ui);
            ui.separator();
            self.environment_ui(ui);
        });
    }

    fn edit_menu(&mut self, ui: &mut egui::Ui) {
        // Named after the step they take back or redo.
        let history = self.doc.history();
        for (action, name) in [
            (Action::Undo, history.undo_name()),
            (Action::Redo, history.redo_name()),
        ] {
            let text = name.as_ref().map_or(action.label().to_string(), |n| {
                format!("{} {n}", action.label())
            });
            if ui
                .add_enabled(name.is_some(), egui::Button::new(text))
                .clicked()
            {
                let ctx = ui.ctx().clone();
                self.run_action(&ctx, action);
            }
        }
        ui.separator();
        for action in pebble_core::action::ON_SELECTION {
            self.action_button(ui, action);
        }
        ui.menu_button("Prefab", |ui| {
            for action in pebble_core::action::PREFABS {
                self.action_button(ui, action);
            }
        });
        ui.separator();
        self.action_button(ui, Action::Copy);
        self.action_button(ui, Action::Cut);
        self.action_button(ui, Action::Paste);
        self.action_button(ui, Action::PasteUnderCursor);
        ui.separator();
        self.action_button(ui, Action::UnhideAll);
        ui.separator();
        for action in [Action::SelectAll, Action::SelectNone, Action::SelectInverse] {
            self.action_button(ui, action);
        }
        for action in [Action::SelectSameKind, Action::SelectSameMaterial] {
            self.action_button(ui, action);
        }
        ui.separator();
        ui.menu_button("Arrange", |ui| {
            use pebble_core::edit_ops::{Axis, Edge};
            for axis in Axis::ALL {
                for edge in Edge::ALL {
                    self.action_button(ui, Action::Align(axis, edge));
                }
            }
            ui.separator();
            for axis in Axis::ALL {
                self.action_button(ui, Action::Distribute(axis));
            }
        });
        ui.menu_button("Nudge by the grid step", |ui| {
            for action in [
                Action::NudgeLeft,
                Action::NudgeRight,
                Action::NudgeAway,
                Action::NudgeNearer,
                Action::NudgeUp,
                Action::NudgeDown,
            ] {
                self.action_button(ui, action);
            }
        });
    }

    fn file_menu(&mut self, ui: &mut egui::Ui) {
        self.action_button(ui, Action::New);
        self.action_button(ui, Action::Open);
        ui.menu_button("Open recent", |ui| {
            if self.prefs.recent.is_empty() {
                ui.label("(none yet)");
            }
            for p in self.prefs.recent.clone() {
                let exists = p.exists();
                if ui
                    .add_enabled(exists, egui::Button::new(p.display().to_string()))
                    .on_disabled_hover_text("the file is gone")
                    .clicked()
                {
                    self.open_path(p);
                }
            }
        });
        ui.separator();
        self.action_button(ui, Action::Save);
        self.action_button(ui, Action::SaveAs);
        ui.separator();
        self.action_button(ui, Action::Import);
        self.action_button(ui, Action::Export);
        ui.separator();
        self.action_button(ui, Action::MapSettings);
        self.action_button(ui, Action::Preferences);
        ui.separator();
        self.action_button(ui, Action::Quit);
    }

    fn view_menu(&mut self, ui: &mut egui::Ui) {
        for action in [
            Action::TogglePspPreview,
            Action::TogglePreviewLight,
            Action::ToggleOverlays,
            Action::ToggleSnap,
            Action::ToggleBoxThroughWalls,
            Action::ToggleFog,
            Action::ToggleBackFaces,
        ] {
            self.toggle_entry(ui, action);
        }
        ui.menu_button("Overlay layers", |ui| {
            for layer in pebble_viewport::overlay::Layer::ALL {
                self.toggle_entry(ui, Action::ToggleLayer(layer));
            }
            ui.separator();
            for links in pebble_core::layer::Links::ALL {
                self.toggle_entry(ui, Action::ShowLinks(links));
            }
        });
        let ctx = ui.ctx().clone();
        ui.horizontal(|ui| {
            ui.label("Gizmo");
            for m in [
                gizmo::Mode::Translate,
                gizmo::Mode::Rotate,
                gizmo::Mode::Scale,
            ] {
                if ui.radio(self.viewport.gizmo_mode == m, m.name()).clicked() {
                    self.run_action(&ctx, Self::gizmo_action(m));
                }
            }
        });
        ui.horizontal(|ui| {
            for (space, label) in [
                (gizmo::Space::World, "World"),
                (gizmo::Space::Local, "Local  (Q)"),
            ] {
                let on = self.prefs.gizmo_space == space;
                if ui.radio(on, label).clicked() && !on {
                    self.run_action(&ctx, Action::ToggleGizmoSpace);
                }
            }
        });
        ui.horizontal(|ui| {
            ui.label("Panels:");
            // Every panel but the viewport, which is always there.
            for pane in Pane::ALL.into_iter().filter(|p| *p != Pane::Viewport) {
                let action = Action::ShowPanel(pane);
                if ui.small_button(action.label()).clicked() {
                    self.run_action(&ctx, action);
                }
            }
        });
        self.action_button(ui, Action::ResetLayout);
        ui.separator();
        ui.label("Navigation");
        super::preferences_window::navigation_ui(&mut self.prefs, ui, &self.presets.navigation);
        ui.add(
            egui::Slider::new(&mut self.prefs.zoom_step, 0.02..=0.4)
                .text("zoom per notch")
                .custom_formatter(|v, _| format!("{:.0} %", v * 100.0)),
        );
        ui.checkbox(&mut self.prefs.zoom_invert, "Invert zoom");
        self.action_button(ui, Action::FrameAll);
        self.action_button(ui, Action::FrameSelection);
        ui.separator();
        ui.label("Projection");
        for action in [
            Action::ViewTop,
            Action::ViewFront,
            Action::ViewRight,
            Action::ToggleProjection,
        ] {
            self.action_button(ui, action);
        }
    }

    /// The Deploy menu (target folder, sticks found) and the Export & Deploy button.
    fn deploy_ui(&mut self, ui: &mut egui::Ui) {
        let mut deploy_now = false;
        // The menu holds a text field (the target folder): clicking into it must
        // not close the menu, so only a click outside (or Export & Deploy, or Esc)
        // does.
        egui::containers::menu::MenuButton::new("Deploy")
            .config(
                egui::containers::menu::MenuConfig::new()
                    .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside),
            )
            .ui(ui, |ui| {
                deploy_now = deploy_menu(&mut self.jobs.deploy, ui);
                if deploy_now {
                    ui.close();
                }
            });
        ui.separator();
        let target = &self.jobs.deploy.target;
        if ui
            .add_enabled(
                !self.jobs.deploy.busy(),
                egui::Button::new(Action::ExportAndDeploy.label()),
            )
            .on_hover_text(if target.is_empty() {
                "choose where in the Deploy menu".to_string()
            } else {
                format!("to {target}")
            })
            .clicked()
        {
            deploy_now = true;
        }
        if deploy_now {
            let ctx = ui.ctx().clone();
            self.run_action(&ctx, Action::ExportAndDeploy);
        }
        let running = self.jobs.ppsspp.busy();
        let label = if running {
            "Stop PPSSPP"
        } else {
            "Play in PPSSPP"
        };
        let program = &self.prefs.ppsspp_program;
        let clicked = ui
            .selectable_label(running, label)
            .on_hover_ui(|ui| {
                // Looked for only while hovered: the search reads PATH's folders.
                let text = if running {
                    "close PPSSPP (Esc in PPSSPP does too); the captures taken come into captures/"
                        .to_string()
                } else {
                    match pebble_core::services::ppsspp::find_program(program, std::env::var_os("PATH")) {
                        Ok(p) => format!(
                            "export, stage a memory stick with the runtime and the map, and play it in {} (Ctrl+F5); captures taken there come into captures/",
                            p.display()
                        ),
                        Err(e) => e,
                    }
                };
                ui.label(text);
            })
            .clicked();
        if clicked {
            let ctx = ui.ctx().clone();
            self.run_action(&ctx, Action::PlayInPpsspp);
        }
    }

    /// Play / Pause, the scrubbable scene time and the clock's speed.
    fn clock_ui(&mut self, ui: &mut egui::Ui) {
        let label = if self.clock.playing { "Pause" } else { "Play" };
        if ui
            .button(label)
            .on_hover_text(Action::PlayPause.label())
            .clicked()
        {
            let ctx = ui.ctx().clone();
            self.run_action(&ctx, Action::PlayPause);
        }
        // Drag to scrub the scene clock (or type a time). While playing it shows
        // the time twice a second, with the status bar's figures.
        let clock = &mut self.clock;
        if !clock.playing || self.figures.refresh {
            clock.shown = clock.time;
        }
        if ui
            .add(
                egui::DragValue::new(&mut clock.shown)
                    .speed(0.05)
                    .range(0.0..=86_400.0)
                    .prefix("t = ")
                    .suffix(" s")
                    .fixed_decimals(2),
            )
            .on_hover_text("scene clock: drag to scrub")
            .changed()
        {
            clock.time = clock.shown;
        }
        ui.add(
            egui::DragValue::new(&mut clock.speed)
                .speed(0.01)
                .range(0.0..=8.0)
                .prefix("× ")
                .fixed_decimals(2),
        )
        .on_hover_text("clock speed");
    }

    /// The environment preset (sky, fog, default sun): a scene setting, so a command.
    fn environment_ui(&mut self, ui: &mut egui::Ui) {
        let env = self.doc.scene().settings().environment;
        let mut chosen = env;
        egui::ComboBox::from_id_salt("environment")
            .selected_text(env.preset_name())
            .show_ui(ui, |ui| {
                use pebble_model::scene::Environment;
                for e in [
                    Environment::Dawn,
                    Environment::Day,
                    Environment::Dusk,
                    Environment::Night,
                ] {
                    ui.selectable_value(&mut chosen, e, e.preset_name());
                }
            })
            .response
            .on_hover_text("environment preset (sky, fog, default sun)");
        if chosen != env {
            let mut settings = self.doc.scene().settings().clone();
            settings.environment = chosen;
            self.run_command(pebble_model::command::SetSettings::new(settings));
        }
    }

    /// Create › the project's own kinds (`entities.ron`), by tag; a click arms the
    /// create tool for one, put down with a click in the viewport like a built-in
    /// kind. Without definitions it says where they go; with a broken file, why.
    fn game_entities_menu(&mut self, ui: &mut egui::Ui) {
        let defs = self.doc.kinds.defs.clone();
        if let Some(error) = &self.doc.kinds.error {
            ui.label(
                egui::RichText::new("entities.ron does not read").color(ui.visuals().warn_fg_color),
            )
            .on_hover_text(format!(
                "{error}
The kinds below are the last that read."
            ));
        }
        if defs.kinds.is_empty() {
            ui.add_enabled(false, egui::Button::new("Game entities"))
                .on_disabled_hover_text(
                    "Define your game's kinds in entities.ron beside the project                      (user guide: \"Your game's entity kinds\"); they appear here as you save it.",
                );
            return;
        }
        let mut chosen = None;
        for tag in defs.tags() {
            ui.menu_button(&tag, |ui| {
                for kind in defs.kinds_tagged(&tag) {
                    let text = match &kind.icon {
                        Some(icon) => format!("{icon}  {}", kind.name),
                        None => kind.name.clone(),
                    };
                    let [r, g, b] = kind.rgb().map(|c| (c * 255.0) as u8);
                    let button = ui
                        .button(egui::RichText::new(text).color(egui::Color32::from_rgb(r, g, b)));
                    let button = if kind.doc.is_empty() {
                        button
                    } else {
                        button.on_hover_text(kind.doc.as_str())
                    };
                    if button.clicked() {
                        chosen = Some(kind.name.clone());
                    }
                }
            });
        }
        if let Some(kind) = chosen {
            self.start_create_defined(kind);
            ui.close();
        }
    }

    /// Create › Particle emitter: the default (a campfire) or any preset, put
    /// down with a click in the viewport.
    fn emitter_presets_menu(&mut self, ui: &mut egui::Ui) {
        ui.menu_button(create::CreateItem::Emitter.label(), |ui| {
            let mut chosen = None;
            for (k, listed) in self.presets.emitters.iter().enumerate() {
                let text = match listed.origin {
                    pebble_core::presets::Origin::Bundled => listed.preset.name.clone(),
                    pebble_core::presets::Origin::User(_) => {
                        format!("{} (yours)", listed.preset.name)
                    }
                };
                let button = ui.button(text);
                let button = if listed.preset.about.is_empty() {
                    button
                } else {
                    button.on_hover_text(listed.preset.about.as_str())
                };
                if button.clicked() {
                    chosen = Some(k);
                }
            }
            if let Some(k) = chosen {
                let preset = &self.presets.emitters[k].preset;
                let (name, emitter) = (preset.name.clone(), preset.emitter.clone());
                self.viewport.tools.settle(&mut self.doc);
                self.viewport.tools.arm_create_emitter(emitter);
                self.status.info(format!(
                    "Create emitter ({name}): click where it goes in the viewport; Esc stops"
                ));
                ui.close();
            }
        });
    }

    /// The toolbar's shapes to draw in the viewport; the armed one shows
    /// pressed, and pressing it again lets go.
    fn create_buttons(&mut self, ui: &mut egui::Ui, ctx: &egui::Context) {
        use pebble_core::create::CreateItem;
        let armed = self.viewport.tools.armed_create();
        for (item, short) in [
            (CreateItem::Box, "Box"),
            (CreateItem::Plane, "Plane"),
            (CreateItem::Ramp, "Ramp"),
            (CreateItem::Stairs, "Stairs"),
            (CreateItem::Cylinder, "Cylinder"),
            (CreateItem::Arch, "Arch"),
            (CreateItem::BoxCollider, "Collider"),
            (CreateItem::Builtin("Trigger"), "Trigger"),
        ] {
            let on = armed == Some(item);
            let hint = format!(
                "draw a {} in the viewport: drag its footprint, release, move for the height, click (Esc cancels)",
                item.label().to_lowercase()
            );
            if ui.selectable_label(on, short).on_hover_text(hint).clicked() {
                if on {
                    self.viewport.tools.reset();
                    self.status.info("creation cancelled");
                } else {
                    self.run_action(ctx, Action::Create(item));
                }
            }
        }
    }

    /// The toolbar: gizmo mode and axes, snapping, the shapes to draw, the
    /// viewport's looks.
    pub(super) fn toolbar_ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        ui.horizontal(|ui| {
            for mode in [
                gizmo::Mode::Translate,
                gizmo::Mode::Rotate,
                gizmo::Mode::Scale,
            ] {
                let action = Self::gizmo_action(mode);
                let key = action.shortcut_text().unwrap_or_default();
                if ui
                    .selectable_label(self.viewport.gizmo_mode == mode, mode.name())
                    .on_hover_text(format!("{} gizmo ({key})", mode.name()))
                    .clicked()
                {
                    self.run_action(&ctx, action);
                }
            }
            ui.separator();
            let local = self.prefs.gizmo_space == gizmo::Space::Local;
            if ui
                .selectable_label(local, if local { "Local" } else { "World" })
                .on_hover_text("gizmo axes: world or the entity's own (Q)")
                .clicked()
            {
                self.run_action(&ctx, Action::ToggleGizmoSpace);
            }
            let steps = self.prefs.snap_steps;
            self.toggle_button(
                ui,
                Action::ToggleSnap,
                "Snap",
                &format!(
                    "{} m {}, {}°, ×{} (Ctrl inverts while dragging; Preferences sets the steps)",
                    steps.step,
                    if steps.relative {
                        "steps from the start"
                    } else {
                        "grid"
                    },
                    steps.angle_deg,
                    steps.scale_step
                ),
            );
            self.toggle_button(
                ui,
                Action::Play,
                "Play map",
                "play the map here from the spawn (F5; Shift+F5 from the camera): W/S/A/D walk, Q/E turn, Esc back to editing",
            );
            self.toggle_button(
                ui,
                Action::FaceMode,
                "Faces",
                "face mode (T): click faces to texture them; Shift adds, Ctrl toggles, drag a box",
            );
            self.toggle_button(
                ui,
                Action::ToggleTextureLock,
                "Tex lock",
                "texture lock (Shift+T): moved objects keep their textures on them; off, textures stay still in the world",
            );
            ui.separator();
            self.create_buttons(ui, &ctx);
            ui.separator();
            self.toggle_button(
                ui,
                Action::TogglePspPreview,
                "PSP preview",
                "the renderer's PSP look: 480×272, the GE's sampling, 5551 dither",
            );
            self.toggle_button(
                ui,
                Action::TogglePreviewLight,
                "Preview light",
                "light the scene live instead of showing the baked vertex colours",
            );
            self.toggle_button(
                ui,
                Action::ToggleOverlays,
                "Overlays",
                "grid, colliders, triggers, lights, emitters, gameplay markers, game entities: all on or off (View › Overlay layers picks)",
            );
        });
    }
}

/// The Deploy menu: sticks found, the target folder, Export & Deploy.
fn deploy_menu(state: &mut DeployState, ui: &mut egui::Ui) -> bool {
    if ui.button("Find memory sticks").clicked()
        || state.found.is_empty() && state.target.is_empty()
    {
        state.found =
            pebble_io::deploy::find_targets(pebble_core::services::deploy::DEFAULT_FOLDER);
    }
    if state.found.is_empty() {
        ui.label("No PSP found (USB Connection mode shows its memory stick).");
    }
    for t in state.found.clone() {
        let label = format!("{} — {}", t.label, t.root.display());
        if ui
            .selectable_label(state.target == t.root.display().to_string(), label)
            .clicked()
        {
            state.target = t.root.display().to_string();
        }
    }
    ui.horizontal(|ui| {
        let label = ui.label("Folder:");
        ui.add(
            egui::TextEdit::singleline(&mut state.target)
                .hint_text("the memory stick's root, e.g. /media/PSP")
                .desired_width(260.0),
        )
        .labelled_by(label.id);
    });
    ui.checkbox(&mut state.live_link, "Live link: deploy on every save")
        .on_hover_text(
            "with PSPLink, serve this folder with usbhostfs_pc: the runtime on the PSP notices each new map within a second and reloads it where you stand",
        );
    ui.add_enabled(!state.busy(), egui::Button::new("Export & Deploy"))
        .clicked()
}
