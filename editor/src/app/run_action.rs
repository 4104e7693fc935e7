//! Carrying out what the user asked for: [`PebbleApp::run_action`], the one match
//! over the action table (menus, keys and tests all come here), with the file
//! operations it leads to (save, open, new, import, export, deploy). The panels'
//! intents are `intents.rs`'.

use std::path::PathBuf;

use eframe::egui;
use pebble_model::{Scene, project};

use super::{PebbleApp, files};
use pebble_core::action::Action;
use pebble_core::create;
use pebble_viewport::gizmo;

impl PebbleApp {
    /// Carries out a user action (from a menu, a key or a test): the one place each
    /// action's effect is written.
    pub fn run_action(&mut self, ctx: &egui::Context, action: Action) {
        use pebble_viewport::navigation::Face;
        // Copies following the mouse (or a shape's height) stay where they are
        // when another edit comes.
        if action.waits_for_tools()
            || matches!(
                action,
                Action::Undo
                    | Action::Redo
                    | Action::Save
                    | Action::SaveAs
                    | Action::New
                    | Action::Open
                    | Action::Create(_)
            )
        {
            self.viewport.tools.settle(&mut self.doc);
        }
        let view = &mut self.viewport.view;
        match action {
            Action::New => self.new_project(),
            Action::Open => self.open_dialog(files::DialogKind::Open),
            Action::Save => {
                self.save();
            }
            Action::SaveAs => self.open_dialog(files::DialogKind::SaveAs),
            Action::Import => self.open_dialog(files::DialogKind::Import),
            Action::Export => self.open_dialog(files::DialogKind::Export),
            Action::MapSettings => self.windows.map_settings.open = true,
            Action::Preferences => self.windows.preferences = true,
            Action::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Action::Undo => {
                self.doc.undo();
            }
            Action::Redo => {
                if let Some(Err(e)) = self.doc.redo() {
                    self.status.error(format!("cannot redo: {e}"));
                }
            }
            // In face mode with faces picked, Delete takes the faces.
            Action::Delete if !self.doc.faces.is_empty() => {
                match self
                    .doc
                    .faces
                    .mesh_step(self.doc.scene(), pebble_core::faces::MeshOp::Delete)
                {
                    Ok(step) => match self.doc.execute_boxed(step, None) {
                        Ok(()) => self.doc.faces.clear(),
                        Err(e) => self.status.error(e.to_string()),
                    },
                    Err(e) => self.status.warn(e),
                }
            }
            Action::Delete => self.edit(pebble_core::edit_ops::delete),
            Action::Duplicate => match self.viewport.tools.duplicate_following(&mut self.doc) {
                Ok(copies) => self.status.info(match copies.len() {
                    1 => "the copy follows the mouse: click to put it down, Esc takes it back"
                        .to_string(),
                    n => format!(
                        "{n} copies follow the mouse: click to put them down, Esc takes them back"
                    ),
                }),
                Err(e) => self.status.warn(e),
            },
            Action::Copy | Action::Cut => match pebble_core::clipboard::copy(&self.doc) {
                Some(text) => {
                    ctx.copy_text(text.clone());
                    self.clipboard = Some(text);
                    if action == Action::Cut {
                        self.edit(pebble_core::edit_ops::delete);
                    }
                }
                None => self.status.warn("nothing selected to copy"),
            },
            Action::Paste | Action::PasteUnderCursor => {
                let under = self.viewport.paste_at.take().or(self.viewport.hover.point);
                let place = match (action, under) {
                    (Action::PasteUnderCursor, Some(p)) => pebble_core::clipboard::Place::At(p),
                    _ => pebble_core::clipboard::Place::AsTheyWere,
                };
                match self.clipboard.clone() {
                    Some(text) => {
                        match pebble_core::clipboard::paste(&mut self.doc, &text, place) {
                            Ok(n) => self.status.info(format!(
                                "pasted {n} {}",
                                if n == 1 { "entity" } else { "entities" }
                            )),
                            Err(e) => self.status.warn(e),
                        }
                    }
                    None => self.status.warn("nothing to paste (copy something first)"),
                }
            }
            Action::SelectAll => pebble_core::edit_ops::select_all(&mut self.doc),
            Action::SelectNone => self.select(Vec::new()),
            Action::SelectInverse => pebble_core::edit_ops::select_inverse(&mut self.doc),
            Action::SelectSameKind => self.edit(pebble_core::edit_ops::select_same_kind),
            Action::SelectSameMaterial => self.edit(pebble_core::edit_ops::select_same_material),
            Action::HideSelected => self.edit(pebble_core::edit_ops::hide_selected),
            Action::UnhideAll => self.edit(pebble_core::edit_ops::unhide_all),
            Action::Isolate => self.edit(pebble_core::edit_ops::isolate),
            Action::Group => self.edit(pebble_core::edit_ops::group),
            Action::Ungroup => self.edit(pebble_core::edit_ops::ungroup),
            Action::MakePrefab => match pebble_core::prefab_ops::make_prefab(&mut self.doc) {
                Ok(name) => self.status.info(format!(
                    "made the prefab {name}: drag it from Assets to place more; Ctrl+Enter edits it in place"
                )),
                Err(e) => self.status.warn(e),
            },
            Action::DuplicateLinked => {
                let made = pebble_core::prefab_ops::as_linked(&mut self.doc).and_then(|(_, made)| {
                    self.viewport
                        .tools
                        .duplicate_following(&mut self.doc)
                        .map(|_| made)
                });
                match made {
                    Ok(made) => {
                        // The prefab made and the copy placed: one step (Esc,
                        // undo take both back).
                        if made {
                            self.doc.join_previous(Action::DuplicateLinked.label());
                        }
                        self.status.info(
                            "the linked copy follows the mouse: click to put it down, Esc takes it back",
                        );
                    }
                    Err(e) => self.status.warn(e),
                }
            }
            Action::EnterInstance => match pebble_core::prefab_ops::enter_or_leave(&mut self.doc)
            {
                Ok(line) => self.status.info(line),
                Err(e) => self.status.warn(e),
            },
            Action::ApplyToPrefab => self.edit(pebble_core::prefab_ops::apply_to_prefab),
            Action::RevertOverrides => self.edit(pebble_core::prefab_ops::revert_overrides),
            Action::UnlinkInstance => self.edit(pebble_core::prefab_ops::unlink),
            Action::DropToFloor => self.edit(pebble_core::edit_ops::drop_to_floor),
            Action::TurnQuarter => self.edit(pebble_core::edit_ops::turn_quarter),
            Action::Align(axis, edge) => self.edit(|d| pebble_core::edit_ops::align(d, axis, edge)),
            Action::Distribute(axis) => self.edit(|d| pebble_core::edit_ops::distribute(d, axis)),
            Action::FitCollider(fit) => {
                self.edit(|d| pebble_core::edit_ops::collider_from_selection(d, fit));
            }
            Action::NudgeLeft
            | Action::NudgeRight
            | Action::NudgeAway
            | Action::NudgeNearer
            | Action::NudgeUp
            | Action::NudgeDown => {
                let direction = nudge_direction(action, &self.viewport.view.orbit);
                let step = self.prefs.snap_steps.step;
                self.edit(|d| pebble_core::edit_ops::nudge(d, direction, step));
            }
            Action::FrameSelection => view.frame(self.doc.selection_bounds()),
            Action::FrameAll => view.frame(self.doc.scene().bounds()),
            Action::GizmoMove => self.viewport.gizmo_mode = gizmo::Mode::Translate,
            Action::GizmoRotate => self.viewport.gizmo_mode = gizmo::Mode::Rotate,
            Action::GizmoScale => self.viewport.gizmo_mode = gizmo::Mode::Scale,
            Action::ToggleGizmoSpace => {
                self.prefs.gizmo_space = match self.prefs.gizmo_space {
                    gizmo::Space::World => gizmo::Space::Local,
                    gizmo::Space::Local => gizmo::Space::World,
                };
            }
            Action::ViewTop => view.ortho_view(Face::Top),
            Action::ViewBottom => view.ortho_view(Face::Bottom),
            Action::ViewFront => view.ortho_view(Face::Front),
            Action::ViewBack => view.ortho_view(Face::Back),
            Action::ViewRight => view.ortho_view(Face::Right),
            Action::ViewLeft => view.ortho_view(Face::Left),
            Action::ToggleProjection => view.toggle_projection(),
            Action::TogglePspPreview => self.viewport.looks.psp ^= true,
            Action::TogglePreviewLight => self.viewport.looks.preview_light ^= true,
            Action::ToggleOverlays => self.viewport.looks.overlays ^= true,
            Action::ToggleSnap => self.prefs.snap ^= true,
            Action::ToggleBoxThroughWalls => self.prefs.box_select_occluded ^= true,
            Action::ToggleFog => self.viewport.looks.fog ^= true,
            Action::ToggleBackFaces => self.viewport.looks.back_faces ^= true,
            Action::ToggleLayer(layer) => *self.viewport.looks.layers.get_mut(layer) ^= true,
            Action::ShowLinks(links) => self.viewport.looks.layers.links = links,
            Action::ShowPanel(pane) => self.panels.raise(pane),
            Action::ResetLayout => self.panels.layout = pebble_panels::default_layout(),
            Action::PlayPause => self.clock.playing ^= true,
            Action::ExportAndDeploy => self.export_and_deploy(),
            Action::PlayInPpsspp => self.play_in_ppsspp(),
            Action::Measure => {
                self.viewport.tools.arm_measure();
                self.status.info(
                    "Measure: click the first point in the viewport (V: a vertex); Esc stops",
                );
            }
            Action::FaceMode => {
                let on = !self.viewport.tools.face_mode();
                self.viewport.tools.set_face_mode(on);
                self.doc.faces.clear();
                if on {
                    // Face mode picks faces, not objects: no gizmo on them meanwhile.
                    self.select(Vec::new());
                    self.status.info("face mode: click a face (Shift adds, Ctrl toggles, drag a box); Esc leaves");
                } else {
                    self.status.info("face mode off");
                }
            }
            Action::ToggleTextureLock => {
                self.prefs.texture_lock = !self.prefs.texture_lock;
                self.status.info(if self.prefs.texture_lock {
                    "texture lock on: moved objects keep their textures on them"
                } else {
                    "texture lock off: textures stay still in the world as objects move"
                });
            }
            Action::PickCoplanarFaces => {
                let mut faces = std::mem::take(&mut self.doc.faces);
                faces.grow_coplanar(self.doc.scene());
                self.doc.faces = faces;
            }
            Action::PickSameMaterialFaces => {
                let mut faces = std::mem::take(&mut self.doc.faces);
                faces.grow_same_material(self.doc.scene());
                self.doc.faces = faces;
            }
            Action::GrowFaces => {
                let mut faces = std::mem::take(&mut self.doc.faces);
                faces.grow(self.doc.scene());
                self.doc.faces = faces;
            }
            Action::ExtrudeFaces
            | Action::FlipFaces
            | Action::SplitEdges
            | Action::MergeVertices => {
                use pebble_core::faces::MeshOp;
                let op = match action {
                    Action::ExtrudeFaces => MeshOp::Extrude(self.prefs.snap_steps.step),
                    Action::FlipFaces => MeshOp::Flip,
                    Action::SplitEdges => MeshOp::SplitEdges,
                    _ => MeshOp::MergeVertices,
                };
                match self.doc.faces.mesh_step(self.doc.scene(), op) {
                    Ok(step) => match self.doc.execute_boxed(step, None) {
                        // Vertex numbers changed: what was picked by them goes.
                        Ok(()) if matches!(op, MeshOp::SplitEdges | MeshOp::MergeVertices) => {
                            self.doc.faces.clear();
                        }
                        Ok(()) => {}
                        Err(e) => self.status.error(e.to_string()),
                    },
                    Err(e) => self.status.warn(e),
                }
            }
            Action::Pick(mode) => {
                if !self.viewport.tools.face_mode() {
                    self.viewport.tools.set_face_mode(true);
                    self.select(Vec::new());
                }
                self.doc.faces.set_mode(mode);
                self.status.info(format!(
                    "face mode: clicks pick {}",
                    mode.label().to_lowercase()
                ));
            }
            Action::Uv(op) => {
                let step = self.doc.faces.uv_step(self.doc.scene(), op.op());
                match step {
                    Ok(step) => self.run_command(step),
                    Err(e) => self.status.warn(e),
                }
            }
            Action::Play | Action::PlayFromCamera => {
                if let Some(view) = self.viewport.tools.stop_play() {
                    self.viewport.view.orbit = view;
                    self.viewport.view.target = None;
                    self.status.info("back to editing");
                } else if self.jobs.play.is_none() {
                    let scene = self.doc.scene().clone();
                    let folder = self.doc.folder();
                    let job = pebble_core::jobs::Job::spawn(
                        folder.clone(),
                        "building the level",
                        move |_| pebble_core::play::build_level(&scene, folder),
                    );
                    self.jobs.play = Some((job, action == Action::PlayFromCamera));
                    self.status.info("building the level to play…");
                }
            }
            Action::CompareCapture => self.windows.compare.open = true,
            Action::KeyboardHelp => self.windows.help = true,
            Action::AddMenu => {
                // At the pointer when it is over the viewport, else its middle.
                let rect = self.viewport.rect;
                let at = ctx
                    .pointer_latest_pos()
                    .filter(|p| rect.contains(*p))
                    .unwrap_or(rect.center());
                self.viewport.context_menu = Some(pebble_viewport::context_menu::ContextMenu {
                    at,
                    point: self.viewport.hover.point,
                    under: Vec::new(),
                    create: true,
                });
            }
            Action::About => self.windows.about = true,
            Action::Create(item) => self.start_create(item),
        }
    }

    /// Runs an Edit-menu operation; what it refused goes to the status line.
    fn edit(
        &mut self,
        op: impl FnOnce(&mut pebble_core::document::Document) -> Result<(), String>,
    ) {
        if let Err(e) = op(&mut self.doc) {
            self.status.warn(e);
        }
    }

    /// Where the user's presets live: the data folder's `presets/`.
    pub fn presets_root(&self) -> PathBuf {
        self.data_dir.join("presets")
    }

    /// Saves to the project's file (asks where for a new project). Returns whether
    /// it was saved.
    pub fn save(&mut self) -> bool {
        if self.doc.is_untitled() {
            self.open_dialog(files::DialogKind::SaveAs);
            return false;
        }
        match self.doc.save() {
            Ok(()) => {
                self.status
                    .info(format!("saved {}", self.doc.path().display()));
                files::push_recent(&mut self.prefs.recent, self.doc.path());
                if self.jobs.deploy.live_link {
                    self.live_deploy();
                }
                true
            }
            Err(e) => {
                self.status.error(format!(
                    "cannot save: {e} — your work is still open; try Save As"
                ));
                false
            }
        }
    }

    /// Saves under a new name. Texture paths are rebased when the folder changes
    /// (one undoable step), so the copy finds its textures.
    pub fn save_as(&mut self, to: PathBuf) -> bool {
        let to = if to.to_string_lossy().ends_with(".ron") {
            to
        } else {
            PathBuf::from(format!("{}.pebble.ron", to.display()))
        };
        let new_dir = project::folder_of(&to);
        let old_dir = self.doc.folder();
        let was_untitled = self.doc.is_untitled();
        let scene = self.doc.scene();
        // An untitled project's imported textures sit in its folder under the data
        // folder, which goes once it is saved: they move with the project.
        let (copied, copied_all) = if was_untitled {
            files::copy_textures(scene, &old_dir, &new_dir).unwrap_or((Vec::new(), false))
        } else {
            (Vec::new(), true)
        };
        let mut moved = files::rebased_textures(scene, &old_dir, &new_dir);
        moved.retain(|(id, _)| {
            scene
                .material(*id)
                .and_then(|m| m.texture.as_ref())
                .is_none_or(|t| !copied.contains(t))
        });
        if !moved.is_empty() {
            let commands: Vec<Box<dyn pebble_model::Command>> = moved
                .into_iter()
                .filter_map(|(id, texture)| {
                    let mut m = scene.material(id)?.clone();
                    m.texture = Some(texture);
                    Some(Box::new(pebble_model::command::SetMaterial::new(id, m))
                        as Box<dyn pebble_model::Command>)
                })
                .collect();
            self.run_command(pebble_model::CommandGroup::new(
                "Rebase texture paths",
                commands,
            ));
        }
        let old = self.doc.set_path(to, false);
        if self.save() {
            if was_untitled && copied_all {
                project::remove_untitled(&old, &self.data_dir);
            }
            true
        } else {
            self.doc.set_path(old, was_untitled);
            false
        }
    }

    /// Opens a project, asking first when there is unsaved work.
    pub fn open_path(&mut self, path: PathBuf) {
        if self.doc.is_dirty() && self.pending.is_none() {
            self.pending = Some(files::Pending::Open(path));
            return;
        }
        self.pending = None;
        match project::load(&path) {
            Ok(scene) => {
                self.recovery = project::find_recovery(&path);
                self.next_scene = Some((scene, path, false));
            }
            Err(e) => self.status.error(format!("cannot open: {e}")),
        }
    }

    /// Starts an empty project, asking first when there is unsaved work.
    pub fn new_project(&mut self) {
        if self.doc.is_dirty() && self.pending.is_none() {
            self.pending = Some(files::Pending::New);
            return;
        }
        self.pending = None;
        // A folder of its own in the data folder, never the last project's: its
        // autosave and imports live there until Save As names it.
        match project::new_untitled(&self.data_dir) {
            Ok(path) => self.next_scene = Some((Scene::new(), path, true)),
            Err(e) => self
                .status
                .error(format!("cannot start a new project: {e}")),
        }
    }

    /// Creates a Create-menu item where the view looks, selected, as one undoable
    /// step (a mesh in a project without materials first gets a "Default" one).
    /// The Create menu and toolbar: arms the viewport's create tool for an item
    /// put down with the pointer (drawn by dragging, or placed with a click), or
    /// makes one that has no place that matters at once.
    pub fn start_create(&mut self, item: create::CreateItem) {
        if !item.placed_by_pointer() {
            self.create(item);
            return;
        }
        self.viewport.tools.arm_create(item);
        self.status.info(item.prompt());
    }

    /// Create › a game entity of the project's kind `kind`: arms the create tool;
    /// a click in the viewport puts it down (a kind with a size field is dragged
    /// out like a box).
    pub fn start_create_defined(&mut self, kind: String) {
        self.viewport.tools.settle(&mut self.doc);
        let defs = self.doc.kinds.defs.clone();
        let drawn = defs.kind(&kind).and_then(create::drawn_like).is_some();
        self.viewport.tools.arm_create_defined(kind.clone(), &defs);
        self.status.info(if drawn {
            format!(
                "Create {kind}: drag its footprint on a surface or the grid, or click for the usual size · Esc: stop"
            )
        } else {
            format!(
                "Create {kind}: click where it goes in the viewport · Shift: keep placing · Esc: stop"
            )
        });
    }

    /// The project's own kinds in force.
    pub fn kinds(&self) -> std::sync::Arc<pebble_model::definitions::Definitions> {
        self.doc.kinds.defs.clone()
    }

    /// Makes `item` at once, at its usual size, under the view's pivot on the
    /// first surface below it (one undo step, selected).
    pub fn create(&mut self, item: create::CreateItem) {
        let pivot = self.viewport.view.goal().pivot;
        let floor =
            pebble_core::edit_ops::floor_below(self.doc.scene(), pivot, &[]).unwrap_or(pivot.y);
        let at = pebble_model::glam::Vec3::new(pivot.x, floor + item.lift(), pivot.z);
        match create::create_in(&mut self.doc, item, |m| create::entity(item, at, m)) {
            Ok(()) => self
                .status
                .info(format!("created {}", item.label().to_lowercase())),
            Err(e) => self.status.error(e),
        }
    }

    /// Exports the scene to `path` in the background (progress in a window, with
    /// Cancel).
    pub fn export_to(&mut self, path: PathBuf) {
        if self.jobs.export.is_some() {
            self.status.warn("an export is already running");
            return;
        }
        let path = if path.extension().is_some_and(|e| e == "pbm") {
            path
        } else {
            path.with_extension("pbm")
        };
        tracing::info!(target: "pebble", "exporting to {}", path.display());
        self.jobs.export = Some(files::start_export(
            self.doc.scene(),
            self.doc.folder(),
            path,
        ));
    }

    /// Imports a glTF, TMD, image or .pbm into the scene in the background; it
    /// arrives as one undoable step.
    pub fn import_path(&mut self, path: PathBuf) {
        if self.jobs.import.is_some() {
            self.status.warn("an import is already running");
            return;
        }
        self.status.info(format!("importing {}…", path.display()));
        self.jobs.import_placement = None;
        self.jobs.import = Some(files::start_import(path, self.doc.folder(), None));
    }

    /// File › Import chose a file: a model gets the import window (size, up,
    /// TIM), anything else comes in at once.
    pub fn chose_import(&mut self, path: PathBuf) {
        // Where the view looks, on the surface under it.
        let view = self.viewport.view.goal();
        let pivot = view.pivot;
        let floor =
            pebble_core::edit_ops::floor_below(self.doc.scene(), pivot, &[]).unwrap_or(pivot.y);
        let at = pebble_model::glam::Vec3::new(pivot.x, floor, pivot.z);
        if pebble_panels::thumbnails::is_image(&path) {
            let (at, yaw) = super::import_dialog::picture_place(self.doc.scene(), &view, at);
            self.windows.import_picture = Some(super::import_dialog::PictureDialog::open(
                path,
                at,
                (yaw, view.pitch),
            ));
            return;
        }
        if !super::import_dialog::is_model(&path) {
            self.import_path(path);
            return;
        }
        self.windows.import = Some(super::import_dialog::ImportDialog::open(path, at));
    }

    /// An import window's choice carried out: the import in the background, the
    /// model or picture placed as chosen when it arrives.
    pub fn import_placed(
        &mut self,
        path: PathBuf,
        tim: Option<PathBuf>,
        placing: super::import_dialog::Placing,
    ) {
        if self.jobs.import.is_some() {
            self.status.warn("an import is already running");
            return;
        }
        self.status.info(format!("importing {}…", path.display()));
        self.jobs.import_placement = Some(placing);
        self.jobs.import = Some(files::start_import(path, self.doc.folder(), tim));
    }

    pub(super) fn open_dialog(&mut self, kind: files::DialogKind) {
        if self.jobs.dialog.is_some() {
            return;
        }
        let file_name = self.doc.file_name();
        let name = match kind {
            files::DialogKind::SaveAs => Some(file_name),
            files::DialogKind::Export => Some(
                file_name
                    .trim_end_matches(".ron")
                    .trim_end_matches(".pebble")
                    .to_string()
                    + ".pbm",
            ),
            _ => None,
        };
        let bundled = self.doc.path() == pebble_core::services::showcase::showcase_path().as_path()
            || std::fs::canonicalize(self.doc.path()).ok()
                == std::fs::canonicalize(pebble_core::services::showcase::showcase_path()).ok();
        let dir = if self.doc.is_untitled() || bundled {
            files::dialog_start(
                &self.prefs.recent,
                std::env::var_os("HOME").map(PathBuf::from),
            )
            .unwrap_or_else(super::data_dir)
        } else {
            self.doc.folder()
        };
        let system = !self.prefs.own_file_dialog && files::system_dialog_known() == Some(true);
        self.jobs.dialog = Some(if system {
            files::Dialog::system(kind, &dir, name)
        } else {
            if !self.prefs.own_file_dialog {
                self.status.warn("no system file dialog here (no XDG desktop portal with a file chooser, no zenity): using Pebble's own");
            }
            files::Dialog::in_app(kind, &dir, name)
        });
    }

    /// Carries out an action once unsaved changes were saved or let go.
    pub(super) fn go_on(&mut self, ctx: &egui::Context, pending: files::Pending) {
        // Saved, or let go: either way the autosave of these changes is done with.
        self.doc.let_go_of_changes();
        self.pending = None;
        match pending {
            files::Pending::New => self.new_project(),
            files::Pending::Open(p) => self.open_path(p),
            files::Pending::Close => {
                self.allow_close = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Puts the viewport where the loaded capture was taken: its camera, its scene
    /// time (paused) and the PSP look.
    pub fn go_to_capture(&mut self) {
        if let Some(s) = self.windows.compare.sidecar() {
            let orbit = &mut self.viewport.view.orbit;
            orbit.yaw = s.yaw;
            orbit.pitch = s.pitch;
            orbit.fov_y_deg = s.fov;
            orbit.pivot = s.position + orbit.forward() * orbit.distance;
            self.clock.time = s.time;
            self.clock.playing = false;
            self.viewport.looks.psp = true;
        }
    }

    /// Exports the scene, stages a memory stick and starts PPSSPP on it, in the
    /// background; while it runs, closes it.
    pub fn play_in_ppsspp(&mut self) {
        if self.jobs.ppsspp.busy() {
            self.jobs.ppsspp.stop();
            self.status.info("closing PPSSPP…");
            return;
        }
        let launch = pebble_core::ppsspp::Launch {
            program: self.prefs.ppsspp_program.clone(),
            stick: self.prefs.ppsspp_stick.clone(),
            project_dir: self.doc.folder(),
        };
        match self.jobs.ppsspp.start(self.doc.scene(), launch) {
            Ok(()) => self
                .status
                .info("Play in PPSSPP: exporting the map, then PPSSPP starts…"),
            Err(e) => self.status.error(format!("Play in PPSSPP: {e}")),
        }
    }

    /// The Live link's deployment after a save: at once, or when the one running
    /// ends (then of the scene as it is then, which holds this save).
    pub fn live_deploy(&mut self) {
        if self.jobs.deploy.busy() {
            self.jobs.deploy.live_pending = true;
        } else {
            self.export_and_deploy();
        }
    }

    /// Exports the scene and deploys it to the Deploy menu's target, in the
    /// background (the status bar follows it).
    pub fn export_and_deploy(&mut self) {
        let dir = self.doc.folder();
        if let Err(e) = self.jobs.deploy.start(self.doc.scene(), dir) {
            self.status.error(e);
        }
    }
}

/// The world axis a nudge goes along: the one nearest the view's right (left,
/// right) or its forward on the ground (away, nearer), or up and down.
fn nudge_direction(
    action: Action,
    orbit: &pebble_viewport::navigation::OrbitCamera,
) -> pebble_model::glam::Vec3 {
    use pebble_model::glam::Vec3;
    let forward = orbit.forward();
    let ground = Vec3::new(forward.x, 0.0, forward.z).normalize_or(Vec3::NEG_Z);
    let right = ground.cross(Vec3::Y);
    let axis = |v: Vec3| {
        if v.x.abs() >= v.z.abs() {
            Vec3::X * v.x.signum()
        } else {
            Vec3::Z * v.z.signum()
        }
    };
    match action {
        Action::NudgeLeft => -axis(right),
        Action::NudgeRight => axis(right),
        Action::NudgeAway => axis(ground),
        Action::NudgeNearer => -axis(ground),
        Action::NudgeUp => Vec3::Y,
        _ => Vec3::NEG_Y,
    }
}
