//! The Inspector's prefab block, above an entity's own fields: which prefab an
//! instance (or the entity inside one) comes from, each field this copy
//! overrides marked with a dot — with Revert and Apply to prefab for it — the
//! entities the copy leaves out, and the instance's own operations (edit the
//! prefab in place, apply or revert everything, unlink).

use pebble_core::action::Action;
use pebble_core::intent::Intent;
use pebble_model::prefab::edit::{self, Which};
use pebble_model::prefab::{Override, Prefab};
use pebble_model::{Entity, EntityId, Scene};

use super::panel::InspectorPanel;

/// What an override's path calls its field: its last part ("color", "name",
/// "translation"), the words spaced.
pub fn field_name(path: &str) -> String {
    path.rsplit('/')
        .find(|p| !p.is_empty())
        .unwrap_or("value")
        .replace("~1", "/")
        .replace("~0", "~")
        .replace('_', " ")
}

/// The prefab's name for the entity with prefab-local id `source`.
fn name_in(prefab: Option<&Prefab>, source: EntityId) -> String {
    prefab
        .and_then(|p| p.entities.iter().find(|e| e.id == source))
        .map_or_else(|| source.to_string(), |e| e.name.clone())
}

impl InspectorPanel {
    pub(super) fn prefab_ui(&mut self, ui: &mut egui::Ui, scene: &Scene, entity: &Entity) {
        let (instance, inside) = if entity.instance.is_some() {
            (entity.id, None)
        } else if let Some(i) = scene.instance_of(entity.id) {
            (i, entity.source.filter(|s| s.instance == i).map(|s| s.id))
        } else {
            return;
        };
        let Some(root) = scene.entity(instance) else {
            return;
        };
        let Some(link) = &root.instance else {
            return;
        };
        let prefab = scene.prefab(link.prefab);
        let prefab_name = prefab.map_or_else(|| link.prefab.to_string(), |p| p.name.clone());
        let entered = self.entered == Some(instance);
        let frame = egui::Frame::group(ui.style());
        frame.show(ui, |ui| {
            let copies = scene.instances_of(link.prefab).len();
            match (inside, entered) {
                (_, true) => {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        format!(
                            "editing the prefab {prefab_name} in place: each change reaches all {copies} instances when it is done"
                        ),
                    );
                }
                (None, false) => {
                    ui.label(format!(
                        "instance of the prefab {prefab_name} ({copies} in this map)"
                    ));
                }
                (Some(_), false) => {
                    ui.label(format!(
                        "part of {} — prefab {prefab_name}: changes here are this copy's own",
                        root.name
                    ));
                }
            }
            if prefab.is_none() {
                ui.colored_label(
                    egui::Color32::LIGHT_RED,
                    "its prefab is missing: it keeps its last known content; unlink it to keep it as plain entities",
                );
            }
            let mine: Vec<&Override> = link
                .overrides
                .iter()
                .filter(|o| inside.is_none_or(|s| o.source == s))
                .collect();
            for o in &mine {
                let what = if o.is_removal() {
                    format!("• {} left out of this copy", name_in(prefab, o.source))
                } else if inside.is_some() {
                    format!("• {} overridden", field_name(&o.path))
                } else {
                    format!("• {}: {}", name_in(prefab, o.source), field_name(&o.path))
                };
                ui.horizontal_wrapped(|ui| {
                    ui.label(what).on_hover_text(&o.path);
                    let which = Which::Field(o.source, o.path.clone());
                    let revert = if o.is_removal() { "Bring back" } else { "Revert" };
                    if ui.small_button(revert).clicked()
                        && let Ok(p) = edit::revert(scene, instance, &which)
                    {
                        self.intents.push(Intent::Execute(Box::new(p)));
                    }
                    if ui
                        .small_button("Apply to prefab")
                        .on_hover_text("every instance gets it")
                        .clicked()
                        && let Ok(p) = edit::apply_to_prefab(scene, instance, &which)
                    {
                        self.intents.push(Intent::Execute(Box::new(p)));
                    }
                });
            }
            if mine.is_empty() && !entered {
                ui.weak("no overrides: as the prefab has it");
            }
            ui.horizontal_wrapped(|ui| {
                let enter = if entered {
                    "Leave the prefab"
                } else {
                    "Edit the prefab in place"
                };
                if ui
                    .button(enter)
                    .on_hover_text(Action::EnterInstance.menu_text())
                    .clicked()
                {
                    self.intents.push(Intent::Select(vec![instance]));
                    self.intents.push(Intent::Run(Action::EnterInstance));
                }
                if inside.is_none() && !link.overrides.is_empty() {
                    if ui.button("Apply all to prefab").clicked()
                        && let Ok(p) = edit::apply_to_prefab(scene, instance, &Which::All)
                    {
                        self.intents.push(Intent::Execute(Box::new(p)));
                    }
                    if ui.button("Revert all").clicked()
                        && let Ok(p) = edit::revert(scene, instance, &Which::All)
                    {
                        self.intents.push(Intent::Execute(Box::new(p)));
                    }
                }
                if ui
                    .button("Unlink")
                    .on_hover_text("make this copy plain entities")
                    .clicked()
                {
                    self.intents.push(Intent::Select(vec![instance]));
                    self.intents.push(Intent::Run(Action::UnlinkInstance));
                }
            });
        });
    }
}
