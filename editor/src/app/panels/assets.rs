//! The Assets panel: every texture the project's materials use, with a thumbnail,
//! its size and the materials using it (a missing file is named in red), and every
//! mesh entity with its triangle count.

use std::collections::HashMap;
use std::path::Path;

use eframe::egui;
use pebble_model::entity::EntityKind;
use pebble_model::{Kind, Scene};

/// Thumbnails, loaded once per texture path (the error when it cannot be read).
#[derive(Default)]
pub struct AssetsState {
    pub open: bool,
    thumbnails: HashMap<String, Result<(egui::TextureHandle, [u32; 2]), String>>,
}

impl std::fmt::Debug for AssetsState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AssetsState")
            .field("open", &self.open)
            .field("thumbnails", &self.thumbnails.len())
            .finish()
    }
}

const THUMB: u32 = 48;

impl AssetsState {
    /// Textures listed with their state: (path, size or error, materials using it).
    pub fn textures(scene: &Scene) -> Vec<(String, Vec<String>)> {
        let mut by_path: Vec<(String, Vec<String>)> = Vec::new();
        for (_, m) in scene.materials() {
            if let Some(t) = &m.texture {
                match by_path.iter_mut().find(|(p, _)| p == t) {
                    Some((_, users)) => users.push(m.name.clone()),
                    None => by_path.push((t.clone(), vec![m.name.clone()])),
                }
            }
        }
        by_path.sort();
        by_path
    }

    /// The Assets panel's contents.
    pub fn ui(&mut self, ui: &mut egui::Ui, scene: &Scene, project: &Path) {
        let ctx = ui.ctx().clone();
        {
            {
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        ui.heading("Textures");
                        for (path, users) in Self::textures(scene) {
                            let thumb = self.thumbnails.entry(path.clone()).or_insert_with(|| {
                                let file = pebble_model::project::resolve_asset(project, &path);
                                image::open(&file)
                                    .map(|img| {
                                        let size = [img.width(), img.height()];
                                        let small = img.thumbnail(THUMB, THUMB).to_rgba8();
                                        let pixels = egui::ColorImage::from_rgba_unmultiplied(
                                            [small.width() as usize, small.height() as usize],
                                            small.as_raw(),
                                        );
                                        (
                                            ctx.load_texture(
                                                &path,
                                                pixels,
                                                egui::TextureOptions::NEAREST,
                                            ),
                                            size,
                                        )
                                    })
                                    .map_err(|e| format!("{}: {e}", file.display()))
                            });
                            ui.horizontal(|ui| match thumb {
                                Ok((t, size)) => {
                                    ui.image((t.id(), egui::vec2(THUMB as f32, THUMB as f32)));
                                    ui.label(format!(
                                        "{path}\n{}×{} — {}",
                                        size[0],
                                        size[1],
                                        users.join(", ")
                                    ));
                                }
                                Err(e) => {
                                    ui.colored_label(
                                        egui::Color32::LIGHT_RED,
                                        format!("{path}: missing\n{e}"),
                                    );
                                }
                            });
                        }
                        ui.separator();
                        ui.heading("Meshes");
                        for e in scene.entities_of(Kind::Mesh) {
                            if let EntityKind::Mesh(m) = &e.kind {
                                ui.label(format!(
                                    "{} — {} triangles",
                                    e.name,
                                    m.geometry.faces.len()
                                ));
                            }
                        }
                    });
            }
        }
    }
}
