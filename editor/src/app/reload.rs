//! What the editor does when the hot reload reports a changed file: textures
//! re-uploaded, imported models brought in again, not as undo steps.

use eframe::egui;
use pebble_model::entity::{EntityKind, GeometrySource};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use super::PebbleApp;
use super::hot_reload::*;

impl PebbleApp {
    /// Follows the files the scene uses and reloads those that changed.
    pub(super) fn hot_reload(&mut self, ctx: &egui::Context, frame: &eframe::Frame) {
        self.reload.follow(self.doc.scene(), self.doc.path());
        for (file, uses) in self.reload.changed(Instant::now()) {
            for u in uses {
                match u {
                    Use::Texture(relative) => self.reload_texture(frame, &file, &relative),
                    Use::Model(source) => self.reload_model(&file, &source),
                    Use::Definitions => self.reload_kinds(),
                    Use::Prefab => self.reload_prefabs(&file),
                }
            }
        }
        if self.reload.waiting() {
            ctx.request_repaint_after(SETTLE);
        }
    }

    /// A prefab's file changed (saved by its own window, say): the map's copy
    /// and its instances follow it, not as an undo step — unless the map
    /// changed that prefab itself since (then it keeps its own, and says so).
    fn reload_prefabs(&mut self, _file: &Path) {
        for line in self.doc.prefab_files_changed() {
            tracing::info!(target: "pebble", "{line}");
            self.status.info(line);
        }
    }

    /// `entities.ron` changed: the kinds it defines now, or why it does not read
    /// (the last good ones stay).
    fn reload_kinds(&mut self) {
        let (found, line) = self.doc.reload_kinds();
        match found {
            pebble_core::entity_kinds::Reloaded::Refused(_) => {
                tracing::warn!(target: "pebble", "{line}");
                self.status.error(line);
            }
            _ => {
                tracing::info!(target: "pebble", "{line}");
                self.status.info(line);
            }
        }
    }

    fn reload_texture(&mut self, frame: &eframe::Frame, file: &Path, relative: &str) {
        let Some(rs) = frame.wgpu_render_state() else {
            return;
        };
        let path = self.doc.path().to_path_buf();
        let loader = pebble_core::services::texture_loader(&path);
        let mut guard = rs.renderer.write();
        let Some(res) = guard
            .callback_resources
            .get_mut::<pebble_viewport::callback::ViewportResources>()
        else {
            return;
        };
        let (replaced, problem) = res
            .sync
            .reload_texture(&mut res.renderer, relative, &loader);
        match (problem, replaced) {
            (_, 0) => {}
            (None, n) => tracing::info!(
                target: "pebble",
                "reloaded {relative} ({n} texture{}): it changed on disk",
                if n == 1 { "" } else { "s" }
            ),
            (Some(why), _) => tracing::warn!(
                target: "pebble",
                "{} cannot be read ({why}): shown as missing until it is back",
                file.display()
            ),
        }
    }

    /// Imports `file` again and gives every mesh imported from it (by `source`)
    /// its new geometry; its materials stay the project's.
    fn reload_model(&mut self, file: &Path, source: &str) {
        if !file.is_file() {
            tracing::warn!(
                target: "pebble",
                "{} was deleted: its meshes keep the geometry they had",
                file.display()
            );
            return;
        }
        let options = pebble_io::import::ImportOptions::new(self.doc.folder());
        let imported = match pebble_io::import::import_file(file, &options, &mut |_| {}) {
            Ok(i) => i,
            Err(e) => {
                tracing::warn!(target: "pebble", "{} changed but does not import: {e}", file.display());
                return;
            }
        };
        let fresh: BTreeMap<String, pebble_model::MeshData> = imported
            .command
            .entities()
            .iter()
            .filter_map(|e| match &e.kind {
                EntityKind::Mesh(m) => match &m.source {
                    GeometrySource::Asset { mesh, .. } => Some((mesh.clone(), m.geometry.clone())),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let users: Vec<pebble_model::Entity> = self
            .doc
            .scene()
            .entities()
            .filter(|e| {
                matches!(&e.kind, EntityKind::Mesh(m)
                    if matches!(&m.source, GeometrySource::Asset { path, .. } if path == source))
            })
            .cloned()
            .collect();
        let mut reloaded = 0;
        for mut e in users {
            let EntityKind::Mesh(m) = &mut e.kind else {
                continue;
            };
            let GeometrySource::Asset { mesh, .. } = &m.source else {
                continue;
            };
            let Some(new) = fresh.get(mesh) else { continue };
            m.geometry = keep_materials(&m.geometry, new.clone());
            match self
                .doc
                .follow_file(pebble_model::command::SetEntity::new("Reload", e))
            {
                Ok(()) => reloaded += 1,
                Err(err) => {
                    tracing::warn!(target: "pebble", "cannot reload a mesh of {source}: {err}")
                }
            }
        }
        if reloaded > 0 {
            tracing::info!(
                target: "pebble",
                "reloaded {reloaded} mesh{} from {source}: it changed on disk",
                if reloaded == 1 { "" } else { "es" }
            );
        }
    }
}
