//! The History panel: the undo list, oldest first — applied steps, then undone
//! ones greyed; clicking a step undoes or redoes up to it.

use pebble_model::History;

use pebble_core::intent::Intent;

pub fn ui(ui: &mut egui::Ui, history: &History) -> Option<Intent> {
    let mut jump = None;
    let position = history.position();
    // The newest step in view, as the Log keeps its newest line.
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .stick_to_bottom(true)
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
                // A long step's name is cut at the panel's edge and shown whole on hover.
                let mut row = ui.add(egui::Button::selectable(position == k + 1, text).truncate());
                if e.name.chars().count() > 32 {
                    row = row.on_hover_text(&e.name);
                }
                if row.clicked() {
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

    /// With more steps than fit, the newest is in view (as in the Log), not the
    /// oldest.
    #[test]
    fn the_newest_step_is_in_view() {
        let mut scene = Scene::new();
        let mut history = History::new(100);
        for k in 0..60 {
            let mut s = scene.settings().clone();
            s.map_name = format!("map {k}");
            history
                .execute(&mut scene, SetSettings::new(s))
                .expect("settings");
        }
        let mut harness = Harness::builder()
            .with_size(egui::vec2(240.0, 200.0))
            .build_ui_state(
                |ui, history: &mut History| {
                    super::ui(ui, history);
                },
                history,
            );
        harness.run();
        harness.run();
        let rows: Vec<_> = harness
            .query_all_by_label_contains("scene settings")
            .map(|n| n.rect())
            .collect();
        assert_eq!(rows.len(), 60);
        let newest = rows
            .iter()
            .max_by(|a, b| a.min.y.total_cmp(&b.min.y))
            .expect("rows");
        assert!(
            newest.max.y <= 200.5,
            "the newest step is at y = {}",
            newest.min.y
        );
    }
}
