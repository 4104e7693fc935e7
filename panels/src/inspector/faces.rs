//! The inspector in face mode: the picked faces' count, the material they use
//! (one of the project's put on them, or the material itself edited), their UV
//! mapping — offset, rotation, scale (negative flips), read from the first face
//! and typed for all — and the UV operations (fit, align to the world or to the
//! face, quarter turns, flips, justify) and ways to pick more faces.

use pebble_model::command::{ApplyMaterial, MaterialChoice};
use pebble_model::entity::Limit;
use pebble_model::{MaterialId, Scene};

use super::InspectorPanel;
use super::form::{Form, RowName};
use pebble_core::action::{Action, UvAction};
use pebble_core::faces::{FaceSelection, MappingField, UvOp};
use pebble_core::intent::Intent;
use pebble_core::presets::Presets;

const OFFSET: Limit = Limit::new(-1000.0, 1000.0, " m");
const ROTATION: Limit = Limit::new(-360.0, 360.0, "°");
const SCALE: Limit = Limit::new(-1000.0, 1000.0, "×");

/// An action's name with its key, for a button's hover text.
fn action_hover(action: Action) -> String {
    match action.shortcut_text() {
        Some(key) => format!("{} ({key})", action.label()),
        None => action.label().to_string(),
    }
}

impl InspectorPanel {
    pub(super) fn faces_ui(
        &mut self,
        ui: &mut egui::Ui,
        scene: &Scene,
        faces: &FaceSelection,
        presets: &Presets,
    ) {
        let (n, objects) = faces.counts();
        ui.heading("Face mode");
        ui.horizontal(|ui| {
            ui.label("pick");
            for mode in pebble_core::faces::PickMode::ALL {
                let action = Action::Pick(mode);
                let hover = action.shortcut_text().unwrap_or_default();
                if ui
                    .selectable_label(faces.mode == mode, mode.label())
                    .on_hover_text(hover)
                    .clicked()
                {
                    self.intents.push(Intent::Run(action));
                }
            }
        });
        if faces.mode != pebble_core::faces::PickMode::Faces {
            let (v, e) = faces.element_counts();
            let (count, what, op, label) = match faces.mode {
                pebble_core::faces::PickMode::Vertices => {
                    (v, "vertex(es)", Action::MergeVertices, "Merge")
                }
                _ => (e, "edge(s)", Action::SplitEdges, "Split"),
            };
            ui.label(format!("{count} {what} picked"));
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(count > 0, egui::Button::new(label))
                    .on_hover_text(action_hover(op))
                    .clicked()
                {
                    self.intents.push(Intent::Run(op));
                }
            });
            ui.weak("the gizmo moves, turns or scales what is picked (W, E, R); every vertex at the same place moves along, so the mesh stays closed");
            return;
        }
        if n == 0 {
            ui.label("Click a face in the viewport (Shift adds, Ctrl toggles, drag a box). Esc leaves face mode.");
            return;
        }
        ui.label(format!("{n} triangle(s) on {objects} object(s)"));
        ui.horizontal_wrapped(|ui| {
            ui.label("geometry");
            for (action, label) in [
                (Action::ExtrudeFaces, "Extrude"),
                (Action::FlipFaces, "Flip"),
                (Action::Delete, "Delete"),
            ] {
                let hover = match action.shortcut_text() {
                    Some(key) => format!("{} ({key})", action.label()),
                    None => action.label().to_string(),
                };
                if ui.button(label).on_hover_text(hover).clicked() {
                    self.intents.push(Intent::Run(action));
                }
            }
        });
        ui.weak("the gizmo moves, turns or scales the picked faces (W, E, R)");
        ui.horizontal_wrapped(|ui| {
            for action in [
                Action::PickCoplanarFaces,
                Action::PickSameMaterialFaces,
                Action::GrowFaces,
            ] {
                if ui.button(action.label()).clicked() {
                    self.intents.push(Intent::Run(action));
                }
            }
        });
        ui.separator();
        // The material on the faces.
        let used = faces.materials(scene);
        ui.horizontal(|ui| {
            let l = ui.label("material");
            let shown = match used.as_slice() {
                [one] => scene
                    .material(*one)
                    .map_or("?".to_string(), |m| m.name.clone()),
                many => format!("{} materials", many.len()),
            };
            let mut chosen: Option<MaterialId> = None;
            egui::ComboBox::from_id_salt("faces material")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    for (id, m) in scene.materials() {
                        if ui.selectable_label(used == [id], &m.name).clicked() {
                            chosen = Some(id);
                        }
                    }
                })
                .response
                .labelled_by(l.id);
            if let Some(id) = chosen {
                let targets: Vec<_> = faces.iter().collect();
                self.intents
                    .push(Intent::Execute(Box::new(ApplyMaterial::new(
                        targets,
                        MaterialChoice::Existing(id),
                    ))));
            }
        });
        // The UV mapping of the first face, typed for all.
        if let Some((mapping, _)) = faces.first_mapping(scene) {
            ui.label("UV mapping (shown for the first face, typed for all):");
            let mut form = Form::new("faces uv", 0);
            let mut set: Option<(MappingField, f32)> = None;
            let parts =
                |v: pebble_model::glam::Vec2| [("U", f64::from(v.x)), ("V", f64::from(v.y))];
            if let Some((k, v)) = form.row(
                ui,
                "offset",
                &parts(mapping.offset),
                &OFFSET,
                "",
                RowName::Beside,
            ) {
                set = Some((
                    if k == 0 {
                        MappingField::OffsetU
                    } else {
                        MappingField::OffsetV
                    },
                    v as f32,
                ));
            }
            let mut degrees = mapping.rotation.to_degrees();
            if degrees.abs() < 1e-4 {
                degrees = 0.0;
            }
            if let Some(v) = form.one(ui, "rotation", f64::from(degrees), &ROTATION, "") {
                set = Some((MappingField::Rotation, v as f32));
            }
            if let Some((k, v)) = form.row(
                ui,
                "scale",
                &parts(mapping.scale),
                &SCALE,
                // On the name's line: beside the fields it widened the whole
                // inspector past its pane, and every row under it was cut off.
                "(2: twice as large; negative flips)",
                RowName::Above,
            ) {
                set = Some((
                    if k == 0 {
                        MappingField::ScaleU
                    } else {
                        MappingField::ScaleV
                    },
                    v as f32,
                ));
            }
            if let Some((field, value)) = set {
                match faces.uv_step(scene, UvOp::Set(field, value)) {
                    Ok(step) => {
                        self.intents.push(Intent::EndEdit);
                        self.intents.push(Intent::Commit {
                            command: Box::new(step),
                            field: form.committed,
                        });
                    }
                    Err(e) => {
                        if let Some(field) = form.committed {
                            crate::number_field::reject(ui.ctx(), field, e);
                        }
                    }
                }
            }
        }
        for (title, ops) in [
            ("texture", &UvAction::ALL[..3]),
            ("turn and flip", &UvAction::ALL[3..7]),
            ("justify", &UvAction::ALL[7..]),
        ] {
            ui.horizontal_wrapped(|ui| {
                ui.label(title);
                for op in ops {
                    if ui
                        .button(op.button())
                        .on_hover_text(op.op().label())
                        .clicked()
                    {
                        self.intents.push(Intent::Run(Action::Uv(*op)));
                    }
                }
            });
        }
        // The material itself.
        self.materials_ui(ui, scene, presets, used);
    }
}
