//! The Assets panel: every texture the project has (those its materials use and
//! the pictures in its `textures/` folder), with a thumbnail, its size and the
//! materials using it (a missing file is named in red), and every mesh entity with
//! its triangle count. A texture is dragged from here onto a face in the viewport.

use std::path::Path;

use pebble_model::entity::EntityKind;
use pebble_model::{Kind, Scene};

use super::thumbnails::{self, SIDE, Thumbnails};
use pebble_core::intent::AssetDrag;

#[derive(Debug, Default)]
pub struct AssetsState {
    pub open: bool,
}

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
    ) {
        let ctx = ui.ctx().clone();
        let folder = pebble_model::project::folder_of(project);
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
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
    }
}
