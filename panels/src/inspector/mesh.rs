//! The inspector's mesh block: collidable, where the geometry comes from (a
//! parametric primitive's sizes are editable), and each material the mesh uses in
//! the material editor (`material.rs`).

use pebble_model::command::SetPrimitive;
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::{Entity, Scene};

use super::InspectorPanel;
use super::form::Form;
use super::kinds::primitive_ui;
use super::material::MaterialContext;

impl InspectorPanel {
    pub(super) fn mesh_ui(
        &mut self,
        ui: &mut egui::Ui,
        scene: &Scene,
        entity: &Entity,
        mesh: &MeshEntity,
        presets: &pebble_core::presets::Presets,
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
            let label = format!(
                "Collidable {}: {}",
                if collidable { "on" } else { "off" },
                entity.name
            );
            self.edit_entity(id, 5, label, e);
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
        self.materials_ui(ui, scene, presets, mesh.geometry.materials());
    }

    /// The material editor for each of `materials`, one under another.
    pub(super) fn materials_ui(
        &mut self,
        ui: &mut egui::Ui,
        scene: &Scene,
        presets: &pebble_core::presets::Presets,
        materials: Vec<pebble_model::MaterialId>,
    ) {
        for mid in materials {
            ui.separator();
            let cx = MaterialContext {
                scene,
                presets,
                textures: &self.textures,
            };
            self.material_editor.ui(ui, cx, mid, &mut self.intents);
        }
    }
}
