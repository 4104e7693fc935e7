//! The window's layout: the windows and questions over everything, the menu bar
//! and toolbar on top, the status bar at the bottom, and the docked panels around
//! the viewport (egui_tiles) in the middle. Panels return intents, applied here
//! after each one is drawn.

use eframe::egui;
use pebble_model::EntityId;

use super::{PebbleApp, status_line};
use pebble_panels::{Pane, history};
use pebble_viewport::ViewportFrame;
use pebble_viewport::callback::ViewportResources;

impl PebbleApp {
    pub(super) fn layout(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.windows_ui(&ctx, frame);
        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_ui(ui, frame));
        // The panels' background in one rectangle (the tiles leave theirs
        // unfilled). Drawn into the UI cache, it costs nothing while the UI rests.
        let fill = ui.visuals().panel_fill;
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE.fill(fill))
            .show(ui, |ui| {
                let mut layout = std::mem::replace(
                    &mut self.panels.layout,
                    egui_tiles::Tree::empty(egui::Id::unique("pebble layout")),
                );
                // Esc takes back a panel's drag in progress (the UV panel's) and
                // nothing more: the viewport does not also let go of the faces. A
                // drag holds a button; a panel's edit can stay open past a click
                // (a checkbox) until the next release, and Esc is the viewport's then.
                let panel_drag = self.doc.panel_edit_open() && ui.input(|i| i.pointer.any_down());
                let keys_taken = ui.ctx().egui_wants_keyboard_input() || panel_drag;
                layout.ui(
                    &mut Panes {
                        app: self,
                        frame,
                        keys_taken,
                    },
                    ui,
                );
                self.panels.layout = layout;
            });
    }

    /// One docked panel's contents.
    fn pane_ui(
        &mut self,
        ui: &mut egui::Ui,
        frame: &mut eframe::Frame,
        pane: Pane,
        keys_taken: bool,
    ) {
        let ctx = ui.ctx().clone();
        pebble_core::profiling::time(pane.title(), || {
            self.pane_contents(ui, frame, pane, keys_taken, &ctx)
        });
    }

    fn pane_contents(
        &mut self,
        ui: &mut egui::Ui,
        frame: &mut eframe::Frame,
        pane: Pane,
        keys_taken: bool,
        ctx: &egui::Context,
    ) {
        let scene = self.doc.scene();
        let intents = match pane {
            Pane::Viewport => {
                let painted = self.viewport.ui(
                    ui,
                    frame.wgpu_render_state(),
                    ViewportFrame {
                        doc: &mut self.doc,
                        prefs: &mut self.prefs,
                        status: &mut self.status,
                        clock: self.clock.time,
                        record: self.bench.is_some(),
                        keys_taken,
                    },
                );
                if let Some(rect) = painted {
                    self.ui_cache.announce(rect);
                }
                self.viewport.take_intents()
            }
            Pane::Outliner => {
                self.panels.outliner.entered = self.doc.entered();
                self.panels.outliner.broken = self
                    .doc
                    .prefabs
                    .problems(scene)
                    .into_iter()
                    .filter_map(|(id, _)| id)
                    .collect();
                self.panels.outliner.ui(ui, scene)
            }
            Pane::Inspector => {
                self.panels.inspector.textures =
                    self.panels.project_textures(scene, &self.doc.folder());
                self.panels.inspector.textures_stay_in_world = !self.prefs.texture_lock;
                self.panels.inspector.kinds = self.doc.kinds.defs.clone();
                self.panels.inspector.entered = self.doc.entered();
                self.panels.inspector.files = self.panels.project_files(&self.doc.folder());
                let faces = self.viewport.tools.face_mode().then_some(&self.doc.faces);
                let inspector = &mut self.panels.inspector;
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        inspector.ui_in_mode(ui, scene, &self.presets, faces)
                    })
                    .inner
            }
            Pane::Assets => {
                let prefabs = self.doc.prefabs.placeable(scene);
                let problems: Vec<String> = self
                    .doc
                    .prefabs
                    .problems(scene)
                    .into_iter()
                    .map(|(_, line)| line)
                    .collect();
                let panels = &mut self.panels;
                panels.assets.ui(
                    ui,
                    scene,
                    self.doc.path(),
                    &mut panels.thumbnails,
                    pebble_panels::assets::PrefabList {
                        prefabs: &prefabs,
                        problems: &problems,
                        entered: self.doc.entered(),
                    },
                )
            }
            Pane::Materials => {
                let textures = self.panels.project_textures(scene, &self.doc.folder());
                let panels = &mut self.panels;
                panels.materials.ui(
                    ui,
                    pebble_panels::materials::MaterialsContext {
                        scene,
                        project: self.doc.path(),
                        presets: &self.presets,
                        textures: &textures,
                    },
                    &mut panels.thumbnails,
                )
            }
            Pane::Uv => {
                let panels = &mut self.panels;
                panels.uv_dock.ui(
                    ui,
                    pebble_panels::uv_dock::UvContext {
                        scene,
                        faces: &self.doc.faces,
                        project: self.doc.path(),
                        face_mode: self.viewport.tools.face_mode(),
                        snap: self.prefs.snap,
                    },
                    &mut panels.uv_textures,
                )
            }
            Pane::History => history::ui(ui, self.doc.history()).into_iter().collect(),
            Pane::Log => {
                self.panels.log.ui(ui, &self.panels.log_buffer);
                Vec::new()
            }
            Pane::Problems => self.panels.problems.ui(ui, scene, &self.doc.kinds),
        };
        self.apply(ctx, intents);
    }

    fn status_ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let stats = frame.wgpu_render_state().and_then(|rs| {
            rs.renderer
                .read()
                .callback_resources
                .get::<ViewportResources>()
                .map(|r| (r.last_stats, r.last_error.clone()))
        });
        let scene = self.doc.scene();
        ui.horizontal(|ui| {
            if let Some(e) = self
                .viewport
                .hover
                .entity
                .and_then(|id| scene.entity(EntityId(id)))
            {
                let side = if self.viewport.hover.back_face {
                    "  (back side)"
                } else {
                    ""
                };
                ui.label(format!("under the cursor: {}{side}", e.name));
                ui.separator();
            }
            ui.label(format!("{} selected", scene.selection().len()));
            ui.separator();
            if budget_summary_ui(ui, &self.budget) {
                self.budget.window_open = true;
            }
            ui.separator();
            let figures = &mut self.figures;
            if figures.refresh {
                let mut text = format!(
                    "{:.0} fps  ·  t = {:.1} s",
                    1.0 / figures.frame_time.max(1e-3),
                    self.clock.time
                );
                if let Some((s, _)) = &stats {
                    text += &format!(
                        "  |  drawn here: {} / {} chunks ({} occluded), {} triangles, {} draws",
                        s.chunks_drawn, s.chunks, s.chunks_occluded, s.triangles, s.draw_calls,
                    );
                }
                figures.text = text;
            }
            ui.label(&figures.text);
            if let Some((_, Some(e))) = stats {
                ui.separator();
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            ui.separator();
            status_line::show(ui, &self.status);
            if let Some(status) = &self.jobs.deploy.status {
                ui.separator();
                status_line::show(ui, status);
            }
            if let Some(status) = &self.jobs.ppsspp.status {
                ui.separator();
                status_line::show(ui, status);
            }
        });
    }
}

/// The PSP budget in short, coloured by its worst figure; whether it was clicked
/// (the whole readout is wanted).
fn budget_summary_ui(ui: &mut egui::Ui, budget: &super::budget::Budget) -> bool {
    let color = budget_color(ui, budget.worst());
    let label = egui::Label::new(egui::RichText::new(budget.summary()).color(color))
        .sense(egui::Sense::click());
    ui.add(label)
        .on_hover_text("the exported map's cost on the PSP: click for the whole readout")
        .clicked()
}

impl PebbleApp {
    /// View › PSP budget: every figure against the device's limit.
    pub(super) fn budget_window(&mut self, ctx: &egui::Context) {
        use super::budget::{Level, rows};
        if !self.budget.window_open {
            return;
        }
        let mut open = true;
        let camera = self.viewport.camera();
        egui::Window::new("PSP budget")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                if let Some((_, why)) = &self.budget.refused {
                    ui.colored_label(
                        budget_color(ui, Level::Over),
                        format!("the export refuses the scene as it is: {why}"),
                    );
                }
                let Some((_, cost)) = &self.budget.cost else {
                    ui.label("measuring the exported map…");
                    return;
                };
                egui::Grid::new("psp budget")
                    .striped(true)
                    .num_columns(3)
                    .show(ui, |ui| {
                        for row in rows(cost, &camera) {
                            ui.label(row.what).on_hover_text(row.note);
                            ui.label(&row.value);
                            match &row.limit {
                                Some((limit, level)) => {
                                    ui.colored_label(budget_color(ui, *level), format!("of {limit}"));
                                }
                                None => {
                                    ui.weak(row.note);
                                }
                            }
                            ui.end_row();
                        }
                    });
                ui.weak(
                    "measured on the map the export writes (without the light bake), a moment after each change; amber from 80 % of a limit, red past it",
                );
            });
        self.budget.window_open = open;
    }
}

/// Fine: the text's colour; near the limit: amber; past it: red.
fn budget_color(ui: &egui::Ui, level: super::budget::Level) -> egui::Color32 {
    match level {
        super::budget::Level::Fine => ui.visuals().text_color(),
        super::budget::Level::Near => egui::Color32::from_rgb(255, 185, 60),
        super::budget::Level::Over => egui::Color32::from_rgb(255, 95, 85),
    }
}

/// The panels' contents for egui_tiles.
struct Panes<'a> {
    app: &'a mut PebbleApp,
    frame: &'a mut eframe::Frame,
    /// A text field had the keyboard, or a panel's drag was under way, when the
    /// frame began: its keys (Esc) are its own, not the viewport's, whichever
    /// panel is drawn first.
    keys_taken: bool,
}

impl egui_tiles::Behavior<Pane> for Panes<'_> {
    fn tab_title_for_pane(&mut self, pane: &Pane) -> egui::WidgetText {
        pane.title().into()
    }

    fn pane_ui(
        &mut self,
        ui: &mut egui::Ui,
        _tile: egui_tiles::TileId,
        pane: &mut Pane,
    ) -> egui_tiles::UiResponse {
        self.app.pane_ui(ui, self.frame, *pane, self.keys_taken);
        egui_tiles::UiResponse::None
    }

    fn simplification_options(&self) -> egui_tiles::SimplificationOptions {
        egui_tiles::SimplificationOptions {
            all_panes_must_have_tabs: true,
            ..Default::default()
        }
    }
}
