//! The editor window (eframe + egui): a menu bar, an outliner, a status bar and the
//! 3D viewport. Every change goes through a command in the history (undo/redo);
//! the viewport follows the scene's change journal.
//!
//! Today's slice: open a project (the bundled showcase by default), navigate with a
//! preset of `navigation` (Fusion 360 by default, Blender, Unity/Unreal; right drag
//! flies; the wheel zooms; F / Home frame), click to select through the ID buffer (Shift adds),
//! drag on empty space to box-select (skipping hidden and locked), Esc to clear,
//! hide entities from the outliner, undo / redo, save, play the scene clock, and
//! switch the viewport to the PSP look or the preview light; edit the selected
//! entity's name, transform and kind fields and its materials in the inspector;
//! the History and Assets windows; Export & Deploy ([`deploy`]) and the Compare
//! panel ([`compare`]).

pub mod assets;
pub mod compare;
pub mod deploy;
pub mod gizmo;
mod inspector;
pub mod navigation;
pub mod viewport;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use eframe::egui;
use pebble_model::command::SetTransforms;
use pebble_model::command::{Select, SetEntity};
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::history::History;
use pebble_model::{EntityId, Scene, Transform, project};
use pebble_render::{Gpu, Overlay, OverlayOptions, RenderOptions, SceneSync};

use navigation::{OrbitCamera, ZOOM_STEP};
use viewport::{ViewportCallback, ViewportResources};

/// The bundled showcase, opened when no project is named.
pub fn showcase_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/showcase/showcase.pebble.ron")
}

/// Opens the editor window on `project` and runs until it closes.
pub fn run(project: PathBuf) -> anyhow::Result<()> {
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        anyhow::bail!(
            "no display to open the editor window on (DISPLAY is not set); run it in a desktop session, or under Xvfb: xvfb-run -a pebble"
        );
    }
    let scene = project::load(&project)?;
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_title("Pebble"),
        renderer: eframe::Renderer::Wgpu,
        ..Default::default()
    };
    eframe::run_native(
        "Pebble",
        options,
        Box::new(move |cc| {
            let app = PebbleApp::new(cc, scene, project).map_err(|e| format!("{e:#}"))?;
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot run the editor window: {e}"))
}

/// Loads project-relative textures for the viewport.
fn loader(project: &Path) -> impl Fn(&str) -> Result<image::RgbaImage, String> + '_ {
    move |relative: &str| {
        let path = project::resolve_asset(project, relative);
        image::open(&path)
            .map(|i| i.to_rgba8())
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[derive(Debug)]
pub struct PebbleApp {
    scene: Scene,
    history: History,
    path: PathBuf,
    orbit: OrbitCamera,
    clock: f64,
    playing: bool,
    psp: bool,
    preview_light: bool,
    overlays: bool,
    overlay: Option<(u64, Arc<Overlay>)>,
    hovered: Option<u32>,
    message: String,
    /// A gizmo drag: its maths and the selection's transforms when it started.
    drag: Option<(gizmo::Drag, Vec<(EntityId, Transform)>)>,
    /// Snap gizmo moves to `SNAP_STEP` (Ctrl inverts while dragging).
    snap: bool,
    /// Where the viewport was last drawn, in points.
    viewport: egui::Rect,
    /// The inspector's name field while it is being typed in.
    name_edit: Option<(EntityId, String)>,
    /// Where a box-select drag started (points).
    box_start: Option<egui::Pos2>,
    /// When the hover pick last ran (seconds of egui time).
    last_hover_pick: f64,
    /// Smoothed frame time, seconds.
    frame_time: f32,
    /// Export & Deploy: the target and the running job.
    pub deploy: deploy::DeployState,
    /// The Compare panel (Tools menu).
    pub compare: compare::CompareState,
    /// The History window (View menu): the undo list, click to jump.
    pub show_history: bool,
    /// The Assets window (View menu).
    pub assets: assets::AssetsState,
    /// Mouse navigation scheme (View menu).
    pub nav_preset: navigation::Preset,
    /// Fly speed, m/s (the wheel changes it while flying).
    pub fly_speed: f32,
    /// Zoom per wheel notch (0.02–0.4) and its direction.
    pub zoom_step: f32,
    pub zoom_invert: bool,
    /// The surface point under the cursor at the last hover pick (zoom anchor).
    hover_point: Option<Vec3>,
    /// Where a wheel zoom is going; the view eases there over ~120 ms.
    zoom_target: Option<OrbitCamera>,
}

/// Grid step for snapped moves, metres.
const SNAP_STEP: f32 = 0.25;

impl PebbleApp {
    /// The app on `scene` (loaded from `path`), drawing with the creation context's
    /// wgpu device.
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        scene: Scene,
        path: PathBuf,
    ) -> anyhow::Result<Self> {
        let rs = cc
            .wgpu_render_state
            .as_ref()
            .context("the editor needs the wgpu renderer")?;
        let gpu = Gpu {
            device: rs.device.clone(),
            queue: rs.queue.clone(),
            info: rs.adapter.get_info(),
        };
        let (renderer, sync) = SceneSync::renderer(&gpu, &scene, &loader(&path))?;
        let message = match sync.warnings.first() {
            Some(w) => format!("{} warning(s): {w}", sync.warnings.len()),
            None => format!("opened {}", path.display()),
        };
        rs.renderer
            .write()
            .callback_resources
            .insert(ViewportResources::new(
                &rs.device,
                rs.target_format,
                renderer,
                sync,
            ));
        let mut orbit = OrbitCamera::default();
        if let Some(b) = scene.bounds() {
            orbit.frame(b.min, b.max);
        }
        Ok(Self {
            scene,
            history: History::new(500),
            path,
            orbit,
            clock: 0.0,
            playing: true,
            psp: false,
            preview_light: false,
            overlays: true,
            overlay: None,
            hovered: None,
            message,
            drag: None,
            snap: false,
            viewport: egui::Rect::NOTHING,
            name_edit: None,
            box_start: None,
            last_hover_pick: f64::NEG_INFINITY,
            frame_time: 0.0,
            deploy: deploy::DeployState::default(),
            compare: compare::CompareState::default(),
            show_history: false,
            assets: assets::AssetsState::default(),
            nav_preset: navigation::Preset::default(),
            fly_speed: 5.0,
            zoom_step: ZOOM_STEP,
            zoom_invert: false,
            hover_point: None,
            zoom_target: None,
        })
    }

    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The camera the viewport drew with, and its rectangle in points.
    pub fn view(&self) -> (pebble_render::Camera, egui::Rect) {
        (self.orbit.camera(), self.viewport)
    }

    /// Stops the scene clock (tests compare frames).
    pub fn pause(&mut self) {
        self.playing = false;
    }

    fn run_command(&mut self, command: impl pebble_model::Command) {
        if let Err(e) = self.history.execute(&mut self.scene, command) {
            self.message = format!("{e}");
        }
    }

    fn select(&mut self, ids: Vec<EntityId>) {
        if ids.as_slice() != self.scene.selection() {
            self.run_command(Select::new(ids));
        }
    }

    /// Where the gizmo sits: the middle of the selected entities' world positions.
    fn selection_pivot(&self) -> Option<Vec3> {
        let points: Vec<Vec3> = self
            .scene
            .selection()
            .iter()
            .filter(|id| self.scene.is_pickable(**id))
            .map(|id| self.scene.world_transform(*id).translation.into())
            .collect();
        (!points.is_empty()).then(|| points.iter().sum::<Vec3>() / points.len() as f32)
    }

    fn frame_selection(&mut self) {
        let boxes: Vec<_> = self
            .scene
            .selection()
            .iter()
            .filter_map(|id| self.scene.world_aabb(*id))
            .collect();
        let b = boxes
            .into_iter()
            .reduce(|a, b| a.union(b))
            .or_else(|| self.scene.bounds());
        if let Some(b) = b {
            self.orbit.frame(b.min, b.max);
        }
    }

    fn save(&mut self) {
        match project::save(&self.path, &self.scene) {
            Ok(()) => {
                self.history.mark_saved();
                self.message = format!("saved {}", self.path.display());
            }
            Err(e) => self.message = format!("cannot save: {e}"),
        }
    }

    fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Save  (Ctrl+S)").clicked() {
                    self.save();
                }
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("Edit", |ui| {
                let undo = self.history.undo_name().map(|n| format!("Undo {n}"));
                if ui
                    .add_enabled(
                        undo.is_some(),
                        egui::Button::new(undo.unwrap_or("Undo".into())),
                    )
                    .clicked()
                {
                    self.history.undo(&mut self.scene);
                }
                let redo = self.history.redo_name().map(|n| format!("Redo {n}"));
                if ui
                    .add_enabled(
                        redo.is_some(),
                        egui::Button::new(redo.unwrap_or("Redo".into())),
                    )
                    .clicked()
                {
                    self.history.redo(&mut self.scene);
                }
            });
            ui.menu_button("View", |ui| {
                ui.checkbox(&mut self.psp, "PSP preview");
                ui.checkbox(&mut self.preview_light, "Preview light (unbaked)");
                ui.checkbox(&mut self.overlays, "Overlays");
                ui.checkbox(&mut self.snap, "Snap moves to 0.25 m (Ctrl inverts)");
                ui.checkbox(&mut self.show_history, "History");
                ui.checkbox(&mut self.assets.open, "Assets");
                ui.separator();
                ui.label("Navigation");
                for p in navigation::Preset::ALL {
                    ui.radio_value(&mut self.nav_preset, p, p.name());
                }
                ui.add(
                    egui::Slider::new(&mut self.zoom_step, 0.02..=0.4)
                        .text("zoom per notch")
                        .custom_formatter(|v, _| format!("{:.0} %", v * 100.0)),
                );
                ui.checkbox(&mut self.zoom_invert, "Invert zoom");
                if ui.button("Frame all  (Home)").clicked()
                    && let Some(b) = self.scene.bounds()
                {
                    self.orbit.frame(b.min, b.max);
                }
            });
            ui.menu_button("Tools", |ui| {
                if ui.button("Compare a device capture…").clicked() {
                    self.compare.open = true;
                }
            });
            let mut deploy_now = false;
            ui.menu_button("Deploy", |ui| {
                deploy_now = self.deploy.menu_ui(ui);
            });
            ui.separator();
            if ui
                .add_enabled(!self.deploy.busy(), egui::Button::new("Export & Deploy"))
                .on_hover_text(if self.deploy.target.is_empty() {
                    "choose where in the Deploy menu".to_string()
                } else {
                    format!("to {}", self.deploy.target)
                })
                .clicked()
            {
                deploy_now = true;
            }
            if deploy_now {
                self.export_and_deploy();
            }
            ui.separator();
            let label = if self.playing { "Pause" } else { "Play" };
            if ui.button(label).clicked() {
                self.playing = !self.playing;
            }
            // Drag to scrub the scene clock (or type a time).
            ui.add(
                egui::DragValue::new(&mut self.clock)
                    .speed(0.05)
                    .range(0.0..=86_400.0)
                    .prefix("t = ")
                    .suffix(" s")
                    .fixed_decimals(2),
            )
            .on_hover_text("scene clock: drag to scrub");
        });
    }

    /// The project's folder (assets and captures resolve against it).
    fn project_dir(&self) -> PathBuf {
        match self.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        }
    }

    /// Puts the viewport where the loaded capture was taken: its camera, its scene
    /// time (paused) and the PSP look.
    pub fn go_to_capture(&mut self) {
        if let Some(s) = self.compare.sidecar() {
            self.orbit.yaw = s.yaw;
            self.orbit.pitch = s.pitch;
            self.orbit.fov_y_deg = s.fov;
            self.orbit.pivot = s.position + self.orbit.forward() * self.orbit.distance;
            self.clock = s.time;
            self.playing = false;
            self.psp = true;
        }
    }

    /// Exports the scene and deploys it to the Deploy menu's target, in the
    /// background (the status bar follows it).
    pub fn export_and_deploy(&mut self) {
        let dir = match self.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        if let Err(e) = self.deploy.start(&self.scene, dir) {
            self.message = e;
        }
    }

    /// The view cube in the viewport's top-right corner: the faces to look at, and
    /// where the view faces now.
    fn view_cube_ui(&mut self, ctx: &egui::Context, rect: egui::Rect) {
        egui::Area::new(egui::Id::unique("pebble view cube"))
            .fixed_pos(rect.right_top() + egui::vec2(-150.0, 8.0))
            .order(egui::Order::Foreground)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_width(130.0);
                    egui::Grid::new("view cube faces").show(ui, |ui| {
                        for (k, face) in navigation::Face::ALL.into_iter().enumerate() {
                            if ui.small_button(face.name()).clicked() {
                                self.zoom_target = None;
                                self.orbit.look_at_face(face);
                            }
                            if k % 3 == 2 {
                                ui.end_row();
                            }
                        }
                    });
                    let heading = self.orbit.yaw.to_degrees().rem_euclid(360.0);
                    ui.small(format!(
                        "facing {heading:.0}°, {:.0}° {}",
                        self.orbit.pitch.to_degrees().abs(),
                        if self.orbit.pitch < 0.0 { "down" } else { "up" }
                    ));
                });
            });
    }

    /// The undo list, oldest first: applied entries, then undone ones (greyed);
    /// clicking one undoes or redoes up to it.
    fn history_ui(&mut self, ctx: &egui::Context) {
        let mut open = self.show_history;
        let mut jump = None;
        egui::Window::new("History")
            .open(&mut open)
            .default_width(240.0)
            .show(ctx, |ui| {
                let position = self.history.position();
                egui::ScrollArea::vertical().show(ui, |ui| {
                    if ui.selectable_label(position == 0, "(opened)").clicked() {
                        jump = Some(0);
                    }
                    for (k, e) in self.history.entries().into_iter().enumerate() {
                        let text = if e.applied {
                            egui::RichText::new(&e.name)
                        } else {
                            egui::RichText::new(&e.name).weak()
                        };
                        if ui.selectable_label(position == k + 1, text).clicked() {
                            jump = Some(k + 1);
                        }
                    }
                });
            });
        self.show_history = open;
        if let Some(to) = jump
            && let Err(e) = self.history.jump_to(&mut self.scene, to)
        {
            self.message = format!("cannot redo: {e}");
        }
    }

    fn outliner_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Outliner");
        egui::ScrollArea::vertical().show(ui, |ui| {
            let entities: Vec<(EntityId, String, bool, &'static str)> = self
                .scene
                .entities()
                .map(|e| (e.id, e.name.clone(), e.visible, e.kind.kind().name()))
                .collect();
            for (id, name, visible, kind) in entities {
                ui.horizontal(|ui| {
                    let mut shown = visible;
                    if ui
                        .checkbox(&mut shown, "")
                        .on_hover_text("visible")
                        .changed()
                        && let Some(e) = self.scene.entity(id)
                    {
                        let mut e = e.clone();
                        e.visible = shown;
                        self.run_command(SetEntity::new(if shown { "Show" } else { "Hide" }, e));
                    }
                    let selected = self.scene.selection().contains(&id);
                    if ui
                        .selectable_label(selected, format!("{name}  ({kind})"))
                        .clicked()
                    {
                        self.select(vec![id]);
                    }
                });
            }
        });
    }

    fn viewport_ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let rect = ui.available_rect_before_wrap();
        self.viewport = rect;
        // Esc during a gizmo drag cancels the drag only, not the selection.
        let was_dragging = self.drag.is_some();
        let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
        let ppp = ui.ctx().pixels_per_point();
        let (w, h) = (
            (rect.width() * ppp).round().max(1.0) as u32,
            (rect.height() * ppp).round().max(1.0) as u32,
        );
        let (modifiers, scroll) = ui.input(|i| (i.modifiers, i.smooth_scroll_delta.y));
        let delta = response.drag_delta() * ppp;
        let delta = Vec2::new(delta.x, delta.y);
        let dt = ui.input(|i| i.stable_dt).min(0.1);
        let button = [
            (egui::PointerButton::Primary, navigation::Button::Left),
            (egui::PointerButton::Middle, navigation::Button::Middle),
            (egui::PointerButton::Secondary, navigation::Button::Right),
        ]
        .into_iter()
        .find(|(b, _)| response.dragged_by(*b))
        .map(|(_, b)| b);
        let action = button.and_then(|b| {
            navigation::drag_action(
                self.nav_preset,
                b,
                modifiers.shift,
                modifiers.ctrl,
                modifiers.alt,
            )
        });
        match action {
            Some(navigation::DragAction::Orbit) => self.orbit.orbit(delta),
            Some(navigation::DragAction::Pan) => {
                if let Some(p) = response.interact_pointer_pos() {
                    let to = Vec2::new(p.x, p.y) * ppp;
                    self.orbit.pan(to - delta, to, h as f32);
                }
            }
            // Drag up zooms in, 50 pixels a notch.
            Some(navigation::DragAction::Zoom) => self.orbit.zoom(-delta.y / 50.0, ZOOM_STEP),
            Some(navigation::DragAction::FlyLook) => {
                self.orbit.look(delta);
                let (keys, fast) = ui.input(|i| {
                    let k = |key| if i.key_down(key) { 1.0 } else { 0.0 };
                    (
                        Vec3::new(
                            k(egui::Key::D) - k(egui::Key::A),
                            k(egui::Key::E) - k(egui::Key::Q),
                            k(egui::Key::W) - k(egui::Key::S),
                        ),
                        i.modifiers.shift,
                    )
                });
                let speed = self.fly_speed * if fast { 4.0 } else { 1.0 };
                self.orbit.fly(keys * speed * dt);
                ui.ctx().request_repaint();
            }
            None => {}
        }
        if self.nav_preset == navigation::Preset::Fusion360
            && response.double_clicked_by(egui::PointerButton::Middle)
            && let Some(b) = self.scene.bounds()
        {
            self.orbit.frame(b.min, b.max);
        }
        if action.is_some() {
            // Any other navigation ends a zoom in flight where it is.
            self.zoom_target = None;
        }
        if response.hovered() && scroll != 0.0 {
            if action == Some(navigation::DragAction::FlyLook) {
                // While flying the wheel sets the speed.
                self.fly_speed = (self.fly_speed * 1.2f32.powf(scroll / 50.0)).clamp(0.25, 200.0);
            } else {
                // 50 points of smooth scroll make one notch; touchpads give fractions.
                let notches = scroll / 50.0 * if self.zoom_invert { -1.0 } else { 1.0 };
                let mut target = self.zoom_target.unwrap_or(self.orbit);
                match self.hover_point {
                    Some(anchor) => target.zoom_towards(anchor, notches, self.zoom_step),
                    None => target.zoom(notches, self.zoom_step),
                }
                self.zoom_target = Some(target);
            }
        }
        if let Some(target) = self.zoom_target {
            // Ease towards the target: 95 % of the way in ~120 ms.
            let k = 1.0 - (-dt / 0.04).exp();
            self.orbit.pivot = self.orbit.pivot.lerp(target.pivot, k);
            self.orbit.distance += (target.distance - self.orbit.distance) * k;
            if (self.orbit.distance - target.distance).abs() < target.distance * 1e-3
                && self.orbit.pivot.distance(target.pivot) < target.distance * 1e-3
            {
                self.orbit = target;
                self.zoom_target = None;
            }
            ui.ctx().request_repaint();
        }
        let camera = self.orbit.camera();
        let view = gizmo::View {
            camera,
            size: Vec2::new(w as f32, h as f32),
        };
        let cursor = response
            .interact_pointer_pos()
            .or(response.hover_pos())
            .map(|p| {
                let local = (p - rect.min) * ppp;
                Vec2::new(local.x, local.y)
            });
        let pivot = self.selection_pivot();
        let mut on_gizmo = false;
        if let (Some(pivot), Some(cursor)) = (pivot, cursor) {
            let pressed = response.drag_started_by(egui::PointerButton::Primary) && !modifiers.alt;
            if pressed
                && self.drag.is_none()
                && let Some(handle) = gizmo::hit(&view, pivot, cursor)
                && let Some(drag) = gizmo::Drag::start(&view, pivot, handle, cursor)
            {
                let start = self
                    .scene
                    .selection()
                    .iter()
                    .filter_map(|id| self.scene.entity(*id).map(|e| (*id, e.transform)))
                    .collect();
                self.drag = Some((drag, start));
            }
            on_gizmo = gizmo::hit(&view, pivot, cursor).is_some();
        }
        if let Some((drag, start)) = self.drag.clone() {
            let escape = ui.input(|i| i.key_pressed(egui::Key::Escape));
            if escape {
                // Back to where the drag began: the drag's steps are one undo entry.
                self.history.end_edit();
                if self.history.undo_name().is_some_and(|n| n == "Move") {
                    self.history.undo(&mut self.scene);
                }
                self.drag = None;
            } else if response.dragged_by(egui::PointerButton::Primary)
                && let Some(cursor) = cursor
            {
                let snap = self.snap != modifiers.ctrl;
                let offset = drag.offset(&view, cursor, snap.then_some(SNAP_STEP));
                let moved: Vec<(EntityId, Transform)> = start
                    .iter()
                    .map(|(id, t)| {
                        // The offset is in world space; a child moves in its parent's.
                        let local = self
                            .scene
                            .entity(*id)
                            .and_then(|e| e.parent)
                            .map(|p| {
                                self.scene
                                    .world_transform(p)
                                    .inverse()
                                    .transform_vector3(offset)
                            })
                            .unwrap_or(offset);
                        (
                            *id,
                            Transform {
                                translation: t.translation + local,
                                ..*t
                            },
                        )
                    })
                    .collect();
                if let Err(e) = self.history.execute_continuous(
                    &mut self.scene,
                    SetTransforms::new("Move", moved),
                    u64::MAX,
                ) {
                    self.message = e.to_string();
                }
            } else if !response.dragged() {
                self.history.end_edit();
                self.drag = None;
            }
        }
        let pixel = |p: egui::Pos2| {
            let local = (p - rect.min) * ppp;
            (local.x.max(0.0) as u32, local.y.max(0.0) as u32)
        };
        let Some(rs) = frame.wgpu_render_state() else {
            ui.label("no GPU renderer");
            return;
        };
        let mut picked: Option<Vec<EntityId>> = None;
        {
            let mut guard = rs.renderer.write();
            if let Some(res) = guard.callback_resources.get_mut::<ViewportResources>() {
                let path = self.path.clone();
                res.sync
                    .sync(&mut res.renderer, &self.scene, &loader(&path));
                if response.clicked_by(egui::PointerButton::Primary)
                    && !on_gizmo
                    && let Some(p) = response.interact_pointer_pos()
                {
                    let (x, y) = pixel(p);
                    match res.renderer.pick(&camera, w, h, self.clock, x, y) {
                        Ok(hit) => {
                            let mut ids: Vec<EntityId> = if modifiers.shift {
                                self.scene.selection().to_vec()
                            } else {
                                Vec::new()
                            };
                            if let Some(id) =
                                hit.map(|h| EntityId(h.id)).filter(|id| !ids.contains(id))
                            {
                                ids.push(id);
                            }
                            picked = Some(ids);
                        }
                        Err(e) => self.message = format!("pick failed: {e}"),
                    }
                }
                // Hover highlight, at most every 40 ms (a pick is an ID pass).
                let now = ui.input(|i| i.time);
                if now - self.last_hover_pick >= 0.04 && !response.dragged() {
                    self.last_hover_pick = now;
                    let hit = response.hover_pos().and_then(|p| {
                        let (x, y) = pixel(p);
                        res.renderer
                            .pick(&camera, w, h, self.clock, x, y)
                            .ok()
                            .flatten()
                    });
                    self.hovered = hit.map(|hit| hit.id);
                    self.hover_point = hit.map(|hit| hit.world);
                }
                // Box select: a left drag that starts on empty space.
                if response.drag_started_by(egui::PointerButton::Primary)
                    && !modifiers.alt
                    && self.drag.is_none()
                    && let Some(p) = response.interact_pointer_pos()
                {
                    let (x, y) = pixel(p);
                    let empty =
                        matches!(res.renderer.pick(&camera, w, h, self.clock, x, y), Ok(None));
                    self.box_start = empty.then_some(p);
                }
                if let Some(start) = self.box_start
                    && response.drag_stopped_by(egui::PointerButton::Primary)
                {
                    let end = response.interact_pointer_pos().unwrap_or(start);
                    match res.renderer.pick_rect(
                        &camera,
                        w,
                        h,
                        self.clock,
                        pixel(start),
                        pixel(end),
                    ) {
                        Ok(found) => {
                            let mut ids: Vec<EntityId> = if modifiers.shift {
                                self.scene.selection().to_vec()
                            } else {
                                Vec::new()
                            };
                            for id in found.into_iter().map(EntityId) {
                                if !ids.contains(&id) {
                                    ids.push(id);
                                }
                            }
                            picked = Some(ids);
                        }
                        Err(e) => self.message = format!("box select failed: {e}"),
                    }
                    self.box_start = None;
                }
            }
        }
        if let Some(ids) = picked {
            self.select(ids);
        }
        if ui.input(|i| i.key_pressed(egui::Key::Escape))
            && !was_dragging
            && self.box_start.is_none()
        {
            self.select(Vec::new());
        }
        let revision = self.scene.revision();
        if self.overlays && self.overlay.as_ref().is_none_or(|(r, _)| *r != revision) {
            let options = OverlayOptions {
                grid_extent: 20.0,
                grid_centre: Vec3::new(self.orbit.pivot.x, 0.0, self.orbit.pivot.z),
                ..Default::default()
            };
            self.overlay = Some((revision, Arc::new(Overlay::of_scene(&self.scene, &options))));
        }
        let mut overlay = self
            .overlays
            .then(|| self.overlay.as_ref().map(|(_, o)| o.clone()))
            .flatten();
        if let Some(pivot) = self.selection_pivot() {
            let active = self
                .drag
                .as_ref()
                .map(|(d, _)| d.handle)
                .or_else(|| cursor.and_then(|c| gizmo::hit(&view, pivot, c)));
            let mut with_gizmo = overlay.as_deref().cloned().unwrap_or_default();
            for (a, b, axis) in gizmo::lines(&view, pivot) {
                let handle = axis.map_or(gizmo::Handle::Screen, gizmo::Handle::Axis);
                let color = if active == Some(handle) {
                    0xFF_20_E0_FF
                } else {
                    match axis {
                        Some(0) => 0xFF_30_30_F0,
                        Some(1) => 0xFF_30_E0_30,
                        Some(2) => 0xFF_F0_60_30,
                        _ => 0xFF_E0_E0_E0,
                    }
                };
                for p in [a, b] {
                    with_gizmo.on_top.push(pebble_render::overlay::LineVertex {
                        pos: p.to_array(),
                        color,
                    });
                }
            }
            overlay = Some(Arc::new(with_gizmo));
        }
        let callback = ViewportCallback {
            camera,
            options: RenderOptions {
                width: w,
                height: h,
                time: self.clock,
                psp: self.psp,
                cull: true,
                occlusion: true,
                fog: true,
                preview_light: self.preview_light,
                lod_bias: 1.0,
            },
            overlay,
            selected: self.scene.selection().iter().map(|id| id.0).collect(),
            hovered: self.hovered,
        };
        viewport::paint(ui, rect, callback);
        self.view_cube_ui(ui.ctx(), rect);
        if let (Some(start), Some(now)) = (self.box_start, response.interact_pointer_pos()) {
            ui.painter().rect_stroke(
                egui::Rect::from_two_pos(start, now),
                0.0,
                egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 170, 40)),
                egui::StrokeKind::Inside,
            );
        }
    }

    fn status_ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let stats = frame.wgpu_render_state().and_then(|rs| {
            rs.renderer
                .read()
                .callback_resources
                .get::<ViewportResources>()
                .map(|r| (r.last_stats, r.last_error.clone()))
        });
        ui.horizontal(|ui| {
            if let Some(name) = self
                .hovered
                .and_then(|id| self.scene.entity(EntityId(id)))
                .map(|e| e.name.clone())
            {
                ui.label(format!("under the cursor: {name}"));
                ui.separator();
            }
            ui.label(format!("{} selected", self.scene.selection().len()));
            ui.separator();
            ui.label(format!(
                "{:.0} fps  ·  t = {:.1} s",
                1.0 / self.frame_time.max(1e-3),
                self.clock
            ));
            if let Some((s, error)) = stats {
                ui.separator();
                ui.label(format!(
                    "{} / {} chunks ({} occluded), {} triangles, {} draw calls, {} particles",
                    s.chunks_drawn,
                    s.chunks,
                    s.chunks_occluded,
                    s.triangles,
                    s.draw_calls,
                    s.particles
                ));
                if let Some(e) = error {
                    ui.separator();
                    ui.colored_label(egui::Color32::LIGHT_RED, e);
                }
            }
            ui.separator();
            ui.label(&self.message);
            if let Some(status) = &self.deploy.status {
                ui.separator();
                if status.starts_with("deploy failed") {
                    ui.colored_label(egui::Color32::LIGHT_RED, status);
                } else {
                    ui.label(status);
                }
            }
        });
    }
}

impl eframe::App for PebbleApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let dt = ctx.input(|i| i.stable_dt).min(0.1);
        self.frame_time = self.frame_time * 0.9 + dt * 0.1;
        if self.show_history {
            self.history_ui(&ctx);
        }
        if self.assets.open {
            self.assets.window_ui(&ctx, &self.scene, &self.path);
        }
        if self.compare.open {
            let dir = self.project_dir();
            if self.compare.window_ui(&ctx, &self.scene, &dir) {
                self.go_to_capture();
            }
        }
        if self.deploy.busy() {
            if let Some(Err(e)) = self.deploy.poll() {
                self.message = format!("deploy failed: {e}");
            }
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        if self.playing {
            self.clock += f64::from(dt);
            ctx.request_repaint();
        }
        // While a text field has the keyboard, keys are text, not shortcuts.
        let typing = ctx.egui_wants_keyboard_input();
        let (undo, redo, save, frame_sel, home) = ctx.input(|i| {
            let cmd = i.modifiers.command && !typing;
            (
                cmd && !i.modifiers.shift && i.key_pressed(egui::Key::Z),
                cmd && (i.key_pressed(egui::Key::Y)
                    || (i.modifiers.shift && i.key_pressed(egui::Key::Z))),
                cmd && i.key_pressed(egui::Key::S),
                !typing && !i.modifiers.command && i.key_pressed(egui::Key::F),
                !typing && i.key_pressed(egui::Key::Home),
            )
        });
        if undo {
            self.history.undo(&mut self.scene);
        }
        if redo {
            self.history.redo(&mut self.scene);
        }
        if save {
            self.save();
        }
        if frame_sel {
            self.frame_selection();
        }
        if home && let Some(b) = self.scene.bounds() {
            self.orbit.frame(b.min, b.max);
        }
        let title = format!(
            "{}{} — Pebble",
            self.path
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default(),
            if self.history.is_dirty() { " •" } else { "" }
        );
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(title));
        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_ui(ui, frame));
        egui::Panel::left("outliner")
            .default_size(260.0)
            .show(ui, |ui| self.outliner_ui(ui));
        egui::Panel::right("inspector")
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.inspector_ui(ui));
            });
        egui::CentralPanel::default().show(ui, |ui| self.viewport_ui(ui, frame));
    }
}
