//! The Assets panel: every texture the project has (those its materials use and
//! the pictures in its `textures/` folder), with a thumbnail, its size and the
//! materials using it (a missing file is named in red), and every mesh entity with
//! its triangle count. A texture is dragged from here onto a face in the viewport.
//! Above them, the prefabs (the map's and the project's `prefabs/`), each with a
//! thumbnail and its instance count, dragged into the viewport to place one on
//! the surface under the cursor; and what is wrong with their files.

use std::path::Path;

use pebble_model::entity::EntityKind;
use pebble_model::prefab::Prefab;
use pebble_model::{Kind, Scene};

use super::thumbnails::{self, SIDE, Thumbnails};
use pebble_core::intent::{AssetDrag, Intent};

#[derive(Debug, Default)]
pub struct AssetsState {
    pub open: bool,
    pub prefab_thumbnails: super::prefab_thumbnail::PrefabThumbnails,
}

/// The prefabs the Assets panel lists and what is wrong with their files.
#[derive(Debug, Clone, Copy)]
pub struct PrefabList<'a> {
    pub prefabs: &'a [Prefab],
    /// One line per problem (a file that does not read, one that is gone).
    pub problems: &'a [String],
    /// The instance being edited in place, if any.
    pub entered: Option<pebble_model::EntityId>,
}

/// The prefabs' thumbnails' side, in points.
pub const PREFAB_SIDE: f32 = 64.0;

impl AssetsState {
    /// Textures listed with the materials using each: (path, material names).
    pub fn textures(scene: &Scene, folder: &Path) -> Vec<(String, Vec<String>)> {
        thumbnails::project_textures(scene, folder)
            .into_iter()
            .map(|path| {
                let users = scene
                    .materials()
                    .filter(|(_, m)| m.texture.as_deref() == Some(path.as_str()))
                    .map(|(_, m)| m.name.clone())
                    .collect();
                (path, users)
            })
            .collect()
    }

    /// The Assets panel's contents; `project` is the project file.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        scene: &Scene,
        project: &Path,
        thumbs: &mut Thumbnails,
        prefabs: PrefabList<'_>,
    ) -> Vec<Intent> {
        let ctx = ui.ctx().clone();
        let folder = pebble_model::project::folder_of(project);
        let mut intents = Vec::new();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                self.prefabs_ui(ui, scene, prefabs, &mut intents);
                ui.separator();
                ui.heading("Textures");
                ui.weak("drag one onto a face in the viewport (Shift: the whole object, Alt: every face with that face's material)");
                for (path, users) in Self::textures(scene, &folder) {
                    let used_by = if users.is_empty() {
                        "not used yet".to_string()
                    } else {
                        users.join(", ")
                    };
                    match thumbs.get(&ctx, project, &path) {
                        Ok((t, size)) => {
                            let (id, size) = (t.id(), *size);
                            let drag = egui::Id::unique(("texture drag", &path));
                            ui.dnd_drag_source(drag, AssetDrag::Texture(path.clone()), |ui| {
                                ui.horizontal(|ui| {
                                    ui.image((id, egui::vec2(SIDE as f32, SIDE as f32)));
                                    ui.label(format!(
                                        "{path}\n{}×{} — {used_by}",
                                        size[0], size[1]
                                    ));
                                });
                            });
                        }
                        Err(e) => {
                            ui.colored_label(
                                egui::Color32::LIGHT_RED,
                                format!("{path}: missing\n{e}"),
                            );
                        }
                    }
                }
                ui.separator();
                ui.heading("Meshes");
                for e in scene.entities_of(Kind::Mesh) {
                    if let EntityKind::Mesh(m) = &e.kind {
                        ui.label(format!("{} — {} triangles", e.name, m.geometry.faces.len()));
                    }
                }
            });
        intents
    }

    fn prefabs_ui(
        &mut self,
        ui: &mut egui::Ui,
        scene: &Scene,
        list: PrefabList<'_>,
        intents: &mut Vec<Intent>,
    ) {
        ui.heading("Prefabs");
        if let Some(entered) = list.entered.and_then(|id| scene.entity(id)) {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("editing {} in place — Ctrl+Enter leaves", entered.name),
            );
        }
        for line in list.problems {
            ui.colored_label(egui::Color32::LIGHT_RED, line);
        }
        if list.prefabs.is_empty() {
            ui.weak("none yet: select a piece and Edit › Prefab › Make a prefab (Ctrl+Shift+P)");
            return;
        }
        ui.weak("drag one into the viewport to place it on the surface under the cursor");
        let version = scene.prefabs_revision();
        for p in list.prefabs {
            let copies = scene.instances_of(p.id).len();
            let drag = egui::Id::unique(("prefab drag", p.id));
            ui.dnd_drag_source(drag, AssetDrag::Prefab(p.id), |ui| {
                ui.horizontal(|ui| {
                    self.prefab_thumbnails.show(ui, p, version, PREFAB_SIDE);
                    ui.vertical(|ui| {
                        ui.strong(&p.name);
                        let kept = if p.local {
                            "linked copies in this map".to_string()
                        } else {
                            format!(
                                "{}/{}{}",
                                pebble_model::prefab::file::FOLDER,
                                pebble_model::prefab::file::file_stem(&p.name),
                                pebble_model::prefab::file::EXTENSION
                            )
                        };
                        ui.weak(format!(
                            "{} entities · {copies} instance{} · {kept}",
                            p.entities.len(),
                            if copies == 1 { "" } else { "s" }
                        ));
                    });
                });
            });
            // Its buttons (a drag source senses drags only: no right click).
            ui.horizontal_wrapped(|ui| {
                if ui
                    .small_button("Place")
                    .on_hover_text(format!("a new {} where the view looks", p.name))
                    .clicked()
                {
                    intents.push(Intent::PlacePrefab {
                        prefab: p.id,
                        at: None,
                    });
                }
                if ui
                    .add_enabled(!p.local, egui::Button::new("Open on its own").small())
                    .on_hover_text(
                        "the prefab in a new window: each save there reaches this map's instances",
                    )
                    .on_disabled_hover_text(
                        "linked copies in this map: enter one (Ctrl+Enter) to edit them",
                    )
                    .clicked()
                {
                    intents.push(Intent::OpenPrefab(p.id));
                }
                if ui
                    .add_enabled(
                        copies > 0,
                        egui::Button::new("Select its instances").small(),
                    )
                    .clicked()
                {
                    intents.push(Intent::Select(scene.instances_of(p.id)));
                }
            });
        }
    }
}
