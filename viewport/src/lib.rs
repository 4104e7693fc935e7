//! The 3D viewport: the view (an eased orbit camera), its tools (navigation,
//! gizmo, click and box selection), what is under the cursor, the overlay and the
//! view cube, and the paint callback that draws the `render` crate's frame in the
//! egui window. Per frame, [`Viewport::ui`] turns egui's pointer into tool events,
//! keeps the renderer's GPU scene in step with the document, and paints. It also
//! owns Play mode's tool and the preferences' data (the viewport reads most of it).
//!
//! It imports the core (`pebble-core`), egui, egui-wgpu and `pebble-render`; it
//! must never import eframe or winit (the shell owns the window), nor the panels
//! (`pebble-panels`): what a panel drags in and what the viewport asks for are the
//! core's intents.

pub mod callback;
pub mod context_menu;
pub mod gizmo;
mod input;
pub mod kind_models;
pub mod navigation;
pub mod outline;
pub mod overlay;
pub mod picking;
pub mod preferences;
mod psp_bake;
pub mod solids;
mod texts;
pub mod tools;
pub mod view;
pub mod view_cube;

use egui_wgpu::RenderState;
use pebble_model::glam::{IVec3, Vec2, Vec3};
use pebble_render::RenderOptions;

use crate::preferences::Preferences;
use callback::{ViewportCallback, ViewportResources};
use input::{context_menu_at, drops, fly_keys, pointer_events, wheel_zoom};
use pebble_core::document::Document;
use pebble_core::status::Status;
use picking::{Hover, RendererPick};
use texts::{hud_ui, paint_texts};
use tools::{OverlayContext, ToolContext, Tools};
use view::{View, ViewState};

/// How the viewport draws the scene (View menu and toolbar).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Looks {
    /// The renderer's PSP look: 480×272, the GE's sampling, 5551 dither.
    pub psp: bool,
    /// Light the scene live instead of showing the baked vertex colours.
    pub preview_light: bool,
    /// Grid, collider and trigger boxes, markers: all of them, or none.
    pub overlays: bool,
    /// Which of them (View › Overlay layers).
    pub layers: overlay::Layers,
    /// The environment's fog (off: see to the back of a dark map).
    pub fog: bool,
    /// Single-sided faces seen from behind drawn faintly, and pickable there
    /// (off: culled and not picked, as on the device).
    pub back_faces: bool,
}

impl Default for Looks {
    fn default() -> Self {
        Self {
            psp: false,
            preview_light: false,
            overlays: true,
            layers: overlay::Layers::default(),
            fog: true,
            back_faces: true,
        }
    }
}

/// The view the viewport drew last (the bench's baselines repeat it).
#[derive(Debug, Clone)]
pub struct LastView {
    pub camera: pebble_render::Camera,
    pub options: pebble_render::RenderOptions,
    pub overlay: Option<std::sync::Arc<pebble_render::overlay::Overlay>>,
    pub selected: Vec<u32>,
    pub solids: std::sync::Arc<Vec<pebble_render::SolidVertex>>,
    /// Where the viewport was in the window, in points.
    pub rect: egui::Rect,
}

/// What the viewport needs from the rest of the app this frame.
#[derive(Debug)]
pub struct ViewportFrame<'a> {
    pub doc: &'a mut Document,
    pub prefs: &'a mut Preferences,
    pub status: &'a mut Status,
    /// The scene clock, seconds.
    pub clock: f64,
    /// Keep what was drawn ([`Viewport::last_view`]) for the benchmark.
    pub record: bool,
    /// A text field had the keyboard as the frame began: Esc is its own.
    pub keys_taken: bool,
}

#[derive(Debug)]
pub struct Viewport {
    pub view: ViewState,
    pub tools: Tools,
    /// W / E / R: what the gizmo does (Q toggles the preferences' gizmo space).
    pub gizmo_mode: gizmo::Mode,
    pub looks: Looks,
    pub hover: Hover,
    overlay: overlay::SceneOverlay,
    outlines: outline::OutlineCache,
    /// The models described kinds are drawn by, and the scene and definitions
    /// they were last looked for in.
    models: kind_models::KindModels,
    models_seen: Option<(u64, usize)>,
    solids: solids::Solids,
    /// The scene's bounds and the revision they are of.
    bounds: Option<(u64, Option<pebble_model::Aabb>)>,
    /// The game entities' labels as last placed.
    labels: texts::GameLabels,
    /// The markers' pick triangles as last built, and for what.
    markers: Option<(
        picking::MarkerKey,
        std::sync::Arc<Vec<pebble_render::PickMarkerVertex>>,
    )>,
    /// Where the viewport was last drawn, in points.
    pub rect: egui::Rect,
    /// What it drew last (the benchmark's bare renderer repeats it).
    pub last_view: Option<LastView>,
    /// The right-click menu, while it is open.
    pub context_menu: Option<context_menu::ContextMenu>,
    /// Where "Paste here" puts the clipboard (the right-clicked surface).
    pub paste_at: Option<Vec3>,
    /// What the viewport's menu chose this frame, for the app to carry out.
    intents: Vec<pebble_core::intent::Intent>,
    /// The game's HUD as last drawn (empty: not playing, or the HUD is off).
    pub hud: Vec<String>,
    /// The PSP look's lighting: the scene as exported and baked.
    psp_bake: psp_bake::PspBake,
}

impl Viewport {
    /// A viewport framing `bounds`.
    pub fn new(bounds: Option<pebble_model::Aabb>) -> Self {
        Self {
            view: ViewState::framing(bounds),
            tools: Tools::standard(),
            gizmo_mode: gizmo::Mode::default(),
            looks: Looks::default(),
            hover: Hover::default(),
            overlay: overlay::SceneOverlay::default(),
            outlines: outline::OutlineCache::default(),
            models: kind_models::KindModels::default(),
            models_seen: None,
            solids: solids::Solids::default(),
            markers: None,
            labels: Default::default(),
            bounds: None,
            rect: egui::Rect::NOTHING,
            last_view: None,
            context_menu: None,
            paste_at: None,
            intents: Vec::new(),
            hud: Vec::new(),
            psp_bake: psp_bake::PspBake::default(),
        }
    }

    /// What the viewport's menu chose since the last call.
    pub fn take_intents(&mut self) -> Vec<pebble_core::intent::Intent> {
        std::mem::take(&mut self.intents)
    }

    /// Another scene was opened: nothing hovered or in progress, the view frames it.
    pub fn reset(&mut self, bounds: Option<pebble_model::Aabb>) {
        self.view = ViewState::framing(bounds);
        self.tools.reset();
        self.hover = Hover::default();
        self.overlay.clear();
        self.solids.clear();
        self.psp_bake.forget();
    }

    /// Whether the PSP look draws the scene as it is, baked as the export bakes
    /// it (tests wait for it before taking pictures).
    pub fn psp_preview_baked(&self, scene: &pebble_model::Scene) -> bool {
        self.psp_bake.is_current(scene)
    }

    /// Whether the patrol spheres and balls shown are the scene's as it is (tests
    /// wait for it before taking pictures).
    pub fn solids_ready(&self, scene: &pebble_model::Scene) -> bool {
        self.solids.ready(scene)
    }

    /// The patrol spheres and balls last drawn: centre, radius and the entity
    /// they belong to (tests click on them).
    pub fn spheres(&self) -> Vec<([f32; 3], f32, pebble_model::EntityId)> {
        self.solids.drawn()
    }

    /// The camera the viewport drew with.
    pub fn camera(&self) -> pebble_render::Camera {
        self.view.orbit.camera()
    }

    /// Where the view cube is drawn, in points.
    pub fn view_cube_rect(&self) -> egui::Rect {
        view_cube::rect(self.rect)
    }

    /// The point of the view cube that shows `dir`, in points.
    pub fn view_cube_point(&self, dir: IVec3) -> egui::Pos2 {
        view_cube::point(self.rect, self.view.orbit.yaw, self.view.orbit.pitch, dir)
    }

    /// Draws the viewport in `ui`'s space; returns where its picture is (for the
    /// UI cache), or `None` without a GPU renderer.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        rs: Option<&RenderState>,
        frame: ViewportFrame,
    ) -> Option<egui::Rect> {
        let rect = self.picture_rect(ui);
        self.rect = rect;
        let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
        let ppp = ui.ctx().pixels_per_point();
        let (w, h) = (
            (rect.width() * ppp).round().max(1.0) as u32,
            (rect.height() * ppp).round().max(1.0) as u32,
        );
        let size = Vec2::new(w as f32, h as f32);
        self.view.aspect = size.x / size.y.max(1.0);
        let to_pixels = |p: egui::Pos2| {
            let local = (p - rect.min) * ppp;
            Vec2::new(local.x, local.y)
        };
        // One Esc takes back one thing: with the context menu open it closes the
        // menu (context_menu.rs), and nothing else.
        let menu_open = self.context_menu.is_some();
        let (scroll, dt, escape) = ui.input(|i| {
            (
                i.events
                    .iter()
                    .map(|e| match e {
                        egui::Event::MouseWheel { unit, delta, .. } => wheel_notches(*unit, *delta),
                        _ => 0.0,
                    })
                    .sum::<f32>(),
                i.stable_dt.min(0.1),
                i.key_pressed(egui::Key::Escape) && !frame.keys_taken && !menu_open,
            )
        });
        let (events, pointer) = pointer_events(
            ui,
            &response,
            (escape, self.tools.is_active()),
            ppp,
            to_pixels,
        );
        if frame.prefs.navigation.middle_double_click_frames
            && response.double_clicked_by(egui::PointerButton::Middle)
        {
            self.view.frame(frame.doc.scene().bounds());
        }
        let Some(rs) = rs else {
            ui.label("no GPU renderer");
            return None;
        };
        let fly = fly_keys(ui);
        let was_active = self.tools.is_active();
        let mut guard = rs.renderer.write();
        let Some(res) = guard.callback_resources.get_mut::<ViewportResources>() else {
            ui.label("no viewport renderer");
            return None;
        };
        let path = frame.doc.path().to_path_buf();
        let loader = pebble_core::services::texture_loader(&path);
        pebble_core::profiling::time("viewport: scene sync", || {
            res.sync.sync(&mut res.renderer, frame.doc.scene(), &loader)
        });
        let last_stats = res.last_stats;
        res.renderer.set_back_faces_picked(self.looks.back_faces);
        let markers = pebble_core::profiling::time("viewport: pick markers", || {
            self.pick_markers(frame.doc.scene(), &frame.doc.kinds.defs, size)
        });
        res.renderer.set_pick_marker_parts(markers);
        let pick = RendererPick {
            renderer: &res.renderer,
            camera: self.view.orbit.camera(),
            size: (w, h),
            time: frame.clock,
        };
        let mut cx = ToolContext {
            doc: &mut *frame.doc,
            view: &mut self.view,
            prefs: &mut *frame.prefs,
            status: &mut *frame.status,
            pick: &pick,
            size,
            gizmo_mode: self.gizmo_mode,
            hover_point: self.hover.point,
            dt,
            fly,
            vertex_snap: ui.input(|i| i.key_down(egui::Key::V)),
            repaint: false,
            context_menu: None,
        };
        let cancelled = pebble_core::profiling::time("viewport: tools", || {
            self.tools.handle(&mut cx, events, pointer)
        });
        let latest = ui.ctx().pointer_latest_pos().filter(|p| rect.contains(*p));
        self.intents
            .extend(drops(ui, &response, latest, &cx, &to_pixels));
        let dragging_asset =
            egui::DragAndDrop::has_payload_of_type::<pebble_core::intent::AssetDrag>(ui.ctx())
                && response.contains_pointer();
        if let Some(request) = cx.context_menu.take() {
            self.context_menu = Some(context_menu_at(request, cx.doc.scene(), rect, ppp));
        }
        if response.hovered() && scroll != 0.0 {
            wheel_zoom(
                &mut self.tools,
                &mut cx,
                scroll,
                response.hover_pos().map(&to_pixels),
                self.hover.point,
            );
        }
        let repaint = cx.repaint | cx.view.ease(dt);
        // Esc in a field that keeps the keyboard (a number being typed) is the
        // field's: it restores the value there, and the selection stays.
        if escape
            && !cancelled
            && !was_active
            && !ui.ctx().egui_wants_keyboard_input()
            && let Err(e) = cx.doc.select(Vec::new())
        {
            cx.status.error(e.to_string());
        }
        let (doc, prefs) = (&*frame.doc, &*frame.prefs);
        if repaint {
            ui.ctx().request_repaint();
        }
        // The tools may have changed the scene: draw it as it is now.
        pebble_core::profiling::time("viewport: scene sync", || {
            res.sync.sync(&mut res.renderer, doc.scene(), &loader)
        });
        let camera = self.view.orbit.camera();
        let pick = RendererPick {
            renderer: &res.renderer,
            camera,
            size: (w, h),
            time: frame.clock,
        };
        let cursor = response
            .hover_pos()
            .or(latest.filter(|_| dragging_asset))
            .map(to_pixels);
        let view = View { camera, size };
        pebble_core::profiling::time("viewport: hover", || {
            self.hover
                .update(ui.input(|i| i.time), cursor, &pick, response.dragged())
        });
        let tool_overlay = pebble_core::profiling::time("viewport: tool overlay", || {
            self.tools.overlay(&OverlayContext {
                doc,
                prefs,
                view,
                gizmo_mode: self.gizmo_mode,
                cursor: pointer.map(|p| p.pos).or(cursor),
            })
        });
        let playing = self.tools.playing();
        let overlay = self.frame_overlay(doc, prefs, camera, &tool_overlay);
        if pebble_core::profiling::time("viewport: solids", || {
            self.solids.update(doc.scene(), doc.folder())
        }) {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        let baked = self.looks.psp && self.bake_psp_preview(ui, doc, res);
        // Every vertex's bounds: read once a frame, for the fog and the view cube.
        // The scene's box, worked out again only when the scene changed (thousands
        // of entities' boxes are not free every frame).
        let revision = doc.scene().revision();
        let bounds = match self.bounds {
            Some((r, b)) if r == revision => b,
            _ => {
                let b = doc.scene().bounds();
                self.bounds = Some((revision, b));
                b
            }
        };
        let callback = ViewportCallback {
            baked,
            solids: std::sync::Arc::new(self.solids.at(frame.clock, |id| {
                doc.scene().is_drawn(pebble_model::EntityId(id))
            })),
            camera,
            options: self.render_options((w, h), frame.clock, camera, bounds, prefs),
            overlay,
            selected: if playing {
                Vec::new()
            } else {
                doc.scene().selection().iter().map(|id| id.0).collect()
            },
            hovered: self.hover.entity.filter(|_| !playing),
        };
        if frame.record {
            self.last_view = Some(LastView {
                camera: callback.camera,
                options: callback.options,
                overlay: callback.overlay.clone(),
                selected: callback.selected.clone(),
                solids: callback.solids.clone(),
                rect,
            });
        }
        pebble_core::profiling::time("viewport: paint callback", || {
            callback::paint(ui, rect, &callback, res)
        });
        if !playing {
            view_cube::ui(ui, rect, &mut self.view, bounds);
        }
        self.hud = self.play_hud(ui, doc, last_stats);
        hud_ui(ui, rect, &self.hud);
        let drop_hint = latest
            .filter(|_| dragging_asset)
            .map(|at| (at, self.drop_target(doc)));
        if self.looks.overlays && self.looks.layers.game && !playing {
            let view = View {
                camera: callback.camera,
                size: Vec2::new(w as f32, h as f32),
            };
            pebble_core::profiling::time("viewport: game entity labels", || {
                texts::paint_game_labels(
                    ui,
                    rect,
                    ppp,
                    &view,
                    doc.scene(),
                    &doc.kinds.defs,
                    &mut self.labels,
                )
            });
        }
        paint_texts(ui, rect, ppp, &tool_overlay, drop_hint);
        if self.looks.psp
            && !playing
            && let Some(note) = self.psp_bake.note(doc.scene())
        {
            texts::paint_note(ui, rect, &note);
        }
        self.context_menu_ui(ui, doc);
        Some(rect)
    }

    /// Where the picture goes: the panel, or in the PSP look the device's frame at
    /// the aspect it projects with, letterboxed or pillarboxed, never stretched
    /// (picking, the overlay and the gizmo share that rectangle, so a click hits
    /// what is drawn).
    fn picture_rect(&self, ui: &egui::Ui) -> egui::Rect {
        let available = ui.available_rect_before_wrap();
        if self.looks.psp {
            ui.painter()
                .rect_filled(available, 0.0, egui::Color32::from_gray(8));
            fit_aspect(available, pebble_render::camera::PSP_ASPECT)
        } else {
            available
        }
    }

    /// The markers this frame's picks hit, sized for the camera the tools see, and
    /// the patrols' and ball pits' spheres as drawn (a click on one picks it).
    fn pick_markers(
        &mut self,
        scene: &pebble_model::Scene,
        kinds: &std::sync::Arc<pebble_model::definitions::Definitions>,
        size: Vec2,
    ) -> Vec<std::sync::Arc<Vec<pebble_render::PickMarkerVertex>>> {
        let view = View {
            camera: self.view.orbit.camera(),
            size,
        };
        let layers = self.looks.overlays.then_some(self.looks.layers);
        let key = picking::MarkerKey {
            revision: scene.revision(),
            kinds: std::sync::Arc::as_ptr(kinds) as usize,
            layers,
            camera: view.camera,
            size,
            models: self.models.generation,
        };
        let markers = match &self.markers {
            Some((k, built)) if *k == key => built.clone(),
            _ => {
                let built = std::sync::Arc::new(picking::marker_triangles(
                    scene,
                    &view,
                    layers.as_ref(),
                    kinds,
                    self.models.edges(),
                ));
                self.markers = Some((key, built.clone()));
                built
            }
        };
        // The patrols' and balls' spheres move with the clock: theirs each frame.
        let solids = self
            .solids
            .pick_triangles(|id| scene.is_pickable(pebble_model::EntityId(id)));
        vec![markers, std::sync::Arc::new(solids)]
    }

    /// The lines and triangles over the scene: the grid, boxes and markers (none in
    /// a game: it shows what the device would), the tools' and the hover outline.
    fn frame_overlay(
        &mut self,
        doc: &Document,
        prefs: &Preferences,
        camera: pebble_render::Camera,
        tool_overlay: &tools::ToolOverlay,
    ) -> Option<std::sync::Arc<pebble_render::Overlay>> {
        let spacing = overlay::grid_spacing(prefs.snap_steps.step, self.view.orbit.view_height());
        let playing = self.tools.playing();
        let hovered = self
            .hover
            .entity
            .map(pebble_model::EntityId)
            .filter(|_| !playing);
        let outline = self.outlines.frame(doc.scene(), hovered, camera.eye);
        self.overlay.set_kinds(&doc.kinds.defs);
        // The kinds' models, looked for again when the scene or the kinds change.
        let seen = (
            doc.scene().revision(),
            std::sync::Arc::as_ptr(&doc.kinds.defs) as usize,
        );
        if self.models_seen != Some(seen) {
            self.models_seen = Some(seen);
            for said in self
                .models
                .update(doc.scene(), &doc.kinds.defs, &doc.folder())
            {
                tracing::warn!("{said}");
            }
        }
        self.overlay
            .set_models(self.models.edges(), self.models.generation);
        pebble_core::profiling::time("viewport: overlay", || {
            self.overlay.frame(
                doc.scene(),
                self.looks.overlays && !playing,
                self.looks.layers,
                (
                    overlay::grid_plane(self.view.orbit.ortho, camera.forward()),
                    self.view.orbit.pivot,
                    spacing,
                ),
                (tool_overlay, &outline),
            )
        })
    }

    /// Keeps the PSP look's baked scene current (in the background) and hands a
    /// finished one to the GPU; whether the picture can be drawn from it.
    fn bake_psp_preview(
        &mut self,
        ui: &egui::Ui,
        doc: &Document,
        res: &mut ViewportResources,
    ) -> bool {
        if self
            .psp_bake
            .update(doc.scene(), &doc.folder(), std::time::Instant::now())
        {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(50));
        }
        if let Some((revision, drawn)) = self.psp_bake.take_ready() {
            match pebble_render::Renderer::with_context(res.renderer.context().clone(), drawn) {
                Ok(renderer) => {
                    res.baked = Some(renderer);
                    self.psp_bake.uploaded(revision);
                }
                Err(e) => self.psp_bake.failed = Some((revision, e.to_string())),
            }
        }
        self.psp_bake.is_current(doc.scene()) && res.baked.is_some()
    }

    /// What a dragged asset would land on: the mesh under the pointer.
    fn drop_target(&self, doc: &Document) -> String {
        self.hover
            .entity
            .and_then(|id| doc.scene().entity(pebble_model::EntityId(id)))
            .filter(|e| matches!(e.kind, pebble_model::EntityKind::Mesh(_)))
            .map_or("drop it on a face".to_string(), |e| {
                format!("onto {}", e.name)
            })
    }

    /// What the renderer draws with this frame: the looks, the fog pushed past
    /// the map in the working view, the back faces at the preferred opacity.
    fn render_options(
        &self,
        (width, height): (u32, u32),
        time: f64,
        camera: pebble_render::Camera,
        bounds: Option<pebble_model::Aabb>,
        prefs: &Preferences,
    ) -> RenderOptions {
        let playing = self.tools.playing();
        RenderOptions {
            width,
            height,
            time,
            psp: self.looks.psp,
            cull: true,
            occlusion: true,
            fog: self.looks.fog,
            // The working view never fogs the map it edits: the fog starts past the
            // far side of the map (the PSP look and play mode show the device's fog).
            fog_shift: if self.looks.psp || playing {
                0.0
            } else {
                bounds.map_or(0.0, |b| {
                    camera.eye.distance(b.center()) + (b.max - b.min).length() * 0.5
                })
            },
            back_faces: if self.looks.back_faces {
                prefs.back_face_opacity
            } else {
                0.0
            },
            preview_light: self.looks.preview_light,
            shade_uncoloured: true,
            lod_bias: 1.0,
        }
    }

    /// The play-mode HUD's lines (none outside a game or with the HUD off).
    fn play_hud(
        &mut self,
        ui: &egui::Ui,
        doc: &Document,
        last_stats: pebble_render::FrameStats,
    ) -> Vec<String> {
        let psp_look = self.looks.psp;
        let Some((session, true)) = self.tools.play_hud() else {
            return Vec::new();
        };
        let map = doc
            .path()
            .file_name()
            .map(|n| {
                n.to_string_lossy()
                    .trim_end_matches(".pebble.ron")
                    .to_string()
            })
            .unwrap_or_default();
        session.hud(pebble_core::play::HudFigures {
            fps: 1.0 / ui.input(|i| i.stable_dt).max(1e-3),
            triangles: last_stats.triangles,
            draws: last_stats.draw_calls,
            particles: last_stats.particles,
            map: &map,
            environment: doc.scene().settings().environment.preset_name(),
            psp_look,
        })
    }

    /// The right-click menu while it is open; what it chose goes to the intents.
    fn context_menu_ui(&mut self, ui: &egui::Ui, doc: &Document) {
        let Some(menu) = self.context_menu.clone() else {
            return;
        };
        let mut chosen = Vec::new();
        let has_selection = !doc.scene().selection().is_empty();
        if !context_menu::ui(ui.ctx(), &menu, has_selection, &mut chosen) {
            self.context_menu = None;
        }
        if chosen.iter().any(|i| {
            matches!(
                i,
                pebble_core::intent::Intent::Run(pebble_core::action::Action::PasteUnderCursor)
            )
        }) {
            self.paste_at = menu.point;
        }
        self.intents.extend(chosen);
    }
}

/// How many notches a wheel event turns: a mouse wheel's line is one (egui's
/// smoothed scroll made one click 40 points spread over frames, and the view
/// zoomed by a notch and a half or less, never the documented step), a page
/// three, and [`POINTS_PER_NOTCH`] of a touchpad's smooth scroll one.
pub fn wheel_notches(unit: egui::MouseWheelUnit, delta: egui::Vec2) -> f32 {
    match unit {
        egui::MouseWheelUnit::Line => delta.y,
        egui::MouseWheelUnit::Page => delta.y * 3.0,
        egui::MouseWheelUnit::Point => delta.y / POINTS_PER_NOTCH,
    }
}

/// Points of a touchpad's smooth scroll that make one notch.
pub const POINTS_PER_NOTCH: f32 = 50.0;

/// The largest rectangle of `aspect` (width / height) centred in `outer`.
pub fn fit_aspect(outer: egui::Rect, aspect: f32) -> egui::Rect {
    let (w, h) = (outer.width(), outer.height());
    let size = if w > h * aspect {
        egui::vec2(h * aspect, h)
    } else {
        egui::vec2(w, w / aspect)
    };
    egui::Rect::from_center_size(outer.center(), size)
}
