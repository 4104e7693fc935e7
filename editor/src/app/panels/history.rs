//! The History panel: the undo list, oldest first — applied steps, then undone
//! ones greyed; clicking a step undoes or redoes up to it.

use eframe::egui;
use pebble_model::History;

use super::Intent;

pub fn ui(ui: &mut egui::Ui, history: &History) -> Option<Intent> {
    let mut jump = None;
    let position = history.position();
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if ui.selectable_label(position == 0, "(opened)").clicked() {
                jump = Some(0);
            }
            for (k, e) in history.entries().into_iter().enumerate() {
                let text = if e.applied {
                    egui::RichText::new(&e.name)
                } else {
                    egui::RichText::new(&e.name).weak()
                };
                if ui.selectable_label(position == k + 1, text).clicked() {
                    jump = Some(k + 1);
                }
            }
        });
    jump.map(Intent::JumpHistory)
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use pebble_model::Scene;
    use pebble_model::command::SetSettings;

    #[test]
    fn clicking_a_step_asks_to_jump_there_and_undone_steps_are_listed() {
        let mut scene = Scene::new();
        let mut history = History::new(10);
        for name in ["a", "b", "c"] {
            let mut s = scene.settings().clone();
            s.map_name = name.into();
            history
                .execute(&mut scene, SetSettings::new(s))
                .expect("settings");
        }
        history.undo(&mut scene);
        let state = (history, None::<Intent>);
        let mut harness = Harness::new_ui_state(
            |ui, (history, asked): &mut (History, Option<Intent>)| {
                if let Some(i) = super::ui(ui, history) {
                    *asked = Some(i);
                }
            },
            state,
        );
        let rows = harness
            .query_all_by_label_contains("scene settings")
            .count();
        assert_eq!(rows, 3, "two applied steps and the undone one");
        harness.get_by_label("(opened)").click();
        harness.run();
        assert!(matches!(harness.state().1, Some(Intent::JumpHistory(0))));
    }
}
