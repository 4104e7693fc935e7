//! What is painted over the viewport's picture in egui: the tool's hint and label,
//! the drop hint, the marquee, and the game's HUD.

use pebble_model::glam::Vec2;

use super::tools;

/// The texts and the marquee over the picture: the tool's hint and label, what a
/// dragged asset would land on, the tool's rectangle.
pub(super) fn paint_texts(
    ui: &egui::Ui,
    rect: egui::Rect,
    ppp: f32,
    tool_overlay: &tools::ToolOverlay,
    drop_hint: Option<(egui::Pos2, String)>,
) {
    let boxed = |point: egui::Pos2, text: String| {
        let galley = ui.painter().layout_no_wrap(
            text,
            egui::FontId::proportional(13.0),
            egui::Color32::WHITE,
        );
        let place = egui::Rect::from_min_size(point, galley.size()).expand(3.0);
        ui.painter()
            .rect_filled(place, 3.0, egui::Color32::from_black_alpha(170));
        ui.painter().galley(point, galley, egui::Color32::WHITE);
    };
    if let Some(text) = &tool_overlay.text {
        ui.painter().text(
            rect.left_bottom() + egui::vec2(10.0, -10.0),
            egui::Align2::LEFT_BOTTOM,
            text,
            egui::FontId::proportional(13.0),
            egui::Color32::from_rgb(255, 200, 90),
        );
    }
    if let Some((at, on)) = drop_hint {
        boxed(
            at + egui::vec2(16.0, 16.0),
            format!("{on}\nShift: the whole object  ·  Alt: every face with its material"),
        );
    }
    if let Some((at, text)) = &tool_overlay.label {
        boxed(rect.min + egui::vec2(at.x, at.y) / ppp, text.clone());
    }
    if let Some((a, b)) = tool_overlay.rect {
        let point = |p: Vec2| rect.min + egui::vec2(p.x, p.y) / ppp;
        ui.painter().rect_stroke(
            egui::Rect::from_two_pos(point(a), point(b)),
            0.0,
            egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 170, 40)),
            egui::StrokeKind::Inside,
        );
    }
}

/// The game's HUD over the viewport as the runtime prints it: white lines of
/// its 8-pixel debug font from the top left of a 480×272 screen, here a
/// monospace font as big on the viewport as that is on the PSP's, with a shadow
/// to read on any sky.
pub(super) fn hud_ui(ui: &egui::Ui, rect: egui::Rect, lines: &[String]) {
    let size = (rect.width() * 8.0 / 480.0).clamp(10.0, 18.0);
    let font = egui::FontId::monospace(size);
    let painter = ui.painter().with_clip_rect(rect);
    for (n, line) in lines.iter().enumerate() {
        let at = rect.left_top() + egui::vec2(size * 0.5, size * 0.5 + n as f32 * size * 1.25);
        for (offset, colour) in [
            (egui::vec2(1.0, 1.0), egui::Color32::from_black_alpha(200)),
            (egui::Vec2::ZERO, egui::Color32::WHITE),
        ] {
            painter.text(
                at + offset,
                egui::Align2::LEFT_TOP,
                line,
                font.clone(),
                colour,
            );
        }
    }
}

/// A line of news about the picture itself (the PSP preview's bake), at the top
/// of the viewport.
pub(super) fn paint_note(ui: &egui::Ui, rect: egui::Rect, note: &str) {
    let galley = ui.painter().layout_no_wrap(
        note.to_string(),
        egui::FontId::proportional(13.0),
        egui::Color32::from_rgb(255, 200, 90),
    );
    let at = rect.left_top() + egui::vec2(10.0, 8.0);
    let place = egui::Rect::from_min_size(at, galley.size()).expand(3.0);
    ui.painter()
        .rect_filled(place, 3.0, egui::Color32::from_black_alpha(170));
    ui.painter().galley(at, galley, egui::Color32::WHITE);
}
