//! The status bar: its message (a [`Status`] drawn coloured by its level, cut at
//! the bar's edge and whole on hover) and its figures.

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

/// The status bar's changing figures (frame rate, clock, renderer counts),
/// refreshed twice a second: readable, and an unchanged UI can be drawn from the
/// UI cache.
#[derive(Debug, Default)]
pub struct Figures {
    /// Smoothed frame time, seconds.
    pub frame_time: f32,
    at: Option<std::time::Instant>,
    /// Whether this frame refreshes them.
    pub refresh: bool,
    pub text: String,
}

impl Figures {
    pub fn tick(&mut self, dt: f32) {
        self.frame_time = self.frame_time * 0.9 + dt * 0.1;
        let now = std::time::Instant::now();
        self.refresh = self
            .at
            .is_none_or(|at| now.duration_since(at).as_secs_f32() >= 0.5);
        if self.refresh {
            self.at = Some(now);
        }
    }
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
