//! The Problems panel: what is wrong with the project's game entities — the
//! definitions file when it does not read (file, line, column), links to nothing
//! or to a kind a field does not take, values out of range, more instances than a
//! kind allows, instances whose kind has left the definitions. A click selects
//! the entity and frames it.

use std::sync::Arc;

use pebble_core::action::Action;
use pebble_core::entity_kinds::ProjectKinds;
use pebble_core::intent::Intent;
use pebble_model::Scene;
use pebble_model::definitions::{Definitions, problems};

/// The panel's state: the problems found for a scene revision and definitions.
#[derive(Debug, Default)]
pub struct ProblemsPanel {
    found: Option<((u64, usize), Vec<problems::Problem>)>,
}

impl ProblemsPanel {
    /// The problems of `scene` under `defs`, worked out again only when either
    /// changed.
    pub fn problems(&mut self, scene: &Scene, defs: &Arc<Definitions>) -> &[problems::Problem] {
        let key = (scene.revision(), Arc::as_ptr(defs) as usize);
        if self.found.as_ref().is_none_or(|(k, _)| *k != key) {
            self.found = Some((key, problems::problems(scene, defs)));
        }
        self.found.as_ref().map_or(&[], |(_, p)| p.as_slice())
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, scene: &Scene, kinds: &ProjectKinds) -> Vec<Intent> {
        let mut intents = Vec::new();
        if let Some(error) = &kinds.error {
            ui.colored_label(ui.visuals().error_fg_color, error);
            ui.weak("the last definitions that read stay in force until the file is fixed");
            ui.separator();
        }
        let problems = self.problems(scene, &kinds.defs);
        if problems.is_empty() {
            ui.weak(if kinds.defs.kinds.is_empty() {
                "No problems. (The project defines no kinds of its own: entities.ron beside it.)"
            } else {
                "No problems with the game entities."
            });
            return intents;
        }
        ui.label(format!("{} problems", problems.len()));
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show_rows(
                ui,
                ui.text_style_height(&egui::TextStyle::Body),
                problems.len(),
                |ui, rows| {
                    for p in &problems[rows] {
                        let row = ui
                            .selectable_label(scene.selection() == [p.entity], &p.message)
                            .on_hover_text("select it and frame it in the viewport");
                        if row.clicked() {
                            intents.push(Intent::Select(vec![p.entity]));
                            intents.push(Intent::Run(Action::FrameSelection));
                        }
                    }
                },
            );
        intents
    }
}
