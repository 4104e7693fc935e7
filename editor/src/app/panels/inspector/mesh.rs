//! The inspector's mesh block: collidable, where the geometry comes from (a
//! parametric primitive's sizes are editable), and each material the mesh uses —
//! tiling, scroll (with its speed across the surface), alpha mode, colour and
//! double-sided.

use eframe::egui;
use pebble_model::command::{SetMaterial, SetPrimitive};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity, limits};
use pebble_model::material::AlphaMode;
use pebble_model::{EditKey, Entity, Scene};

use super::InspectorPanel;
use super::form::Form;
use super::kinds::primitive_ui;

impl InspectorPanel {
    pub(super) fn mesh_ui(
        &mut self,
        ui: &mut egui::Ui,
        scene: &Scene,
        entity: &Entity,
        mesh: &MeshEntity,
        presets: &crate::app::presets::Presets,
    ) {
        let id = entity.id;
        let mut collidable = mesh.collidable;
        if ui
            .checkbox(
                &mut collidable,
                "collidable (exported as a triangle-mesh collider)",
            )
            .changed()
        {
            let mut e = entity.clone();
            if let EntityKind::Mesh(m) = &mut e.kind {
                m.collidable = collidable;
            }
            self.edit_entity(id, 5, e);
        }
        ui.label(format!("{} triangles", mesh.geometry.faces.len()));
        match &mesh.source {
            GeometrySource::Primitive(p) => {
                let mut after = p.clone();
                ui.label(format!("{} (parametric)", p.kind_name()));
                let mut form = Form::new("primitive", id.0);
                if primitive_ui(ui, &mut form, &mut after) && after != *p {
                    self.commit(&form, SetPrimitive::new(id, after));
                }
            }
            GeometrySource::Asset { path, mesh } => {
                ui.label(format!("imported from {path} (mesh “{mesh}”)"));
            }
            GeometrySource::Authored => {
                ui.label("authored geometry");
            }
        }
        for mid in mesh.geometry.materials() {
            let Some(m) = scene.material(mid) else {
                continue;
            };
            ui.separator();
            ui.label(format!("Material “{}”", m.name));
            let mut form = Form::new("material", mid.0);
            let mut after = m.clone();
            let mut changed = false;
            let parts =
                |v: pebble_model::glam::Vec2| [("U", f64::from(v.x)), ("V", f64::from(v.y))];
            if let Some((k, v)) = form.row(
                ui,
                "tiling",
                &parts(after.tiling),
                &limits::TILING,
                "",
                false,
            ) {
                after.tiling[k] = v as f32;
            }
            if let Some((k, v)) = form.row(
                ui,
                "UV scroll",
                &parts(after.uv_scroll),
                &limits::UV_SCROLL,
                "",
                false,
            ) {
                after.uv_scroll[k] = v as f32;
            }
            let mps = after.scroll_metres_per_second();
            ui.label(format!(
                "= ({:.2}, {:.2}) m/s across the surface",
                mps.x, mps.y
            ));
            egui::ComboBox::from_id_salt(("alpha", mid.0))
                .selected_text(format!("{:?}", after.alpha))
                .show_ui(ui, |ui| {
                    for mode in [AlphaMode::None, AlphaMode::Cutout, AlphaMode::Blend] {
                        changed |= ui
                            .selectable_value(&mut after.alpha, mode, format!("{mode:?}"))
                            .changed();
                    }
                });
            changed |= ui
                .color_edit_button_rgba_unmultiplied(&mut after.color)
                .changed();
            changed |= ui
                .checkbox(&mut after.double_sided, "double-sided")
                .changed();
            changed |= ui
                .checkbox(&mut after.tile, "share a tile atlas on the PSP")
                .on_hover_text(
                    "a small texture that does not repeat is packed with others into one atlas, so the device binds one texture for many; blended and scrolling ones never are",
                )
                .changed();
            let chosen = super::preset_menu(
                ui,
                ("material preset", mid.0),
                presets
                    .materials
                    .iter()
                    .map(|l| (&l.preset.name, &l.preset.about, &l.origin)),
            );
            if let Some(preset) = chosen {
                self.intents.push(super::Intent::ApplyMaterialPreset {
                    material: mid,
                    preset,
                });
            }
            if let Some(name) = self.save_as_preset_ui(ui, ("material", mid.0)) {
                self.intents
                    .push(super::Intent::SavePreset(super::SavePreset::Material(
                        name,
                        m.clone(),
                    )));
            }
            if after != *m {
                if form.committed.is_some() {
                    self.commit(&form, SetMaterial::new(mid, after));
                } else if changed {
                    self.continue_edit(
                        Box::new(SetMaterial::new(mid, after)),
                        EditKey::Material { id: mid.0 },
                    );
                }
            }
        }
    }
}
