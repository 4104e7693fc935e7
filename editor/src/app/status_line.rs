//! The status bar's message: a [`Status`] drawn coloured by its level, cut at the
//! bar's edge and whole on hover.

use eframe::egui;
use pebble_core::status::{Level, Status};

/// The message in the status bar, coloured by its level: cut at the window's
/// edge when it is long, and shown whole on hover.
pub fn show(ui: &mut egui::Ui, status: &Status) {
    let visuals = ui.visuals();
    let text = egui::RichText::new(&status.text);
    let text = match status.level {
        Level::Info => text,
        Level::Warning => text.color(visuals.warn_fg_color),
        Level::Error => text.color(visuals.error_fg_color),
    };
    // Elided labels show their whole text on hover.
    ui.add(egui::Label::new(text).truncate());
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable as _;

    /// A message longer than the bar is cut at its edge (not drawn past the
    /// window) and shown whole in a tooltip on hover.
    #[test]
    fn a_long_message_stays_in_the_bar_and_shows_whole_on_hover() {
        let text = format!(
            "deployed to /media/user/PSP/PSP/GAME/PEBBLE: {}",
            "map.pbm, ".repeat(20)
        );
        let mut status = Status::default();
        status.warn(text.clone());
        let mut harness = Harness::builder()
            .with_size(egui::vec2(300.0, 60.0))
            .build_ui(move |ui| {
                ui.horizontal(|ui| show(ui, &status));
            });
        harness.run();
        let label = harness.get_by_label(&text);
        assert!(
            label.rect().max.x <= 300.5,
            "drawn to x = {}",
            label.rect().max.x
        );
        label.hover();
        harness.run();
        harness.run();
        assert!(
            harness.query_all_by_label(&text).count() >= 2,
            "the whole message in a tooltip"
        );
    }
}
