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

/// The most labels painted at once: the nearest game entities get theirs (a
/// level with thousands reads as labels round the camera, not as a wall of text).
const MAX_LABELS: usize = 64;
/// Labels further than this from the eye are not painted (too small to read
/// among the others; each costs a redraw of the picture's corner it covers).
const LABEL_REACH: f32 = 60.0;

/// The game entities' labels as last placed, and for what view: a still view
/// paints them without looking at thousands of entities again.
#[derive(Debug, Default)]
pub(super) struct GameLabels {
    key: Option<(u64, usize, pebble_render::Camera, egui::Rect)>,
    /// Where each goes (points), its text and colour, nearest first.
    placed: Vec<(egui::Pos2, String, egui::Color32)>,
}

/// The game entities' labels over their markers ("Bat #1", "North gate · key
/// Red"), in their kind's colour, nearest first; an unknown kind says so.
pub(super) fn paint_game_labels(
    ui: &egui::Ui,
    rect: egui::Rect,
    ppp: f32,
    view: &super::view::View,
    scene: &pebble_model::Scene,
    kinds: &std::sync::Arc<pebble_model::definitions::Definitions>,
    cache: &mut GameLabels,
) {
    let key = (
        scene.revision(),
        std::sync::Arc::as_ptr(kinds) as usize,
        view.camera,
        rect,
    );
    if cache.key != Some(key) {
        cache.placed = place_labels(rect, ppp, view, scene, kinds);
        cache.key = Some(key);
    }
    let painter = ui.painter().with_clip_rect(rect);
    let font = egui::FontId::proportional(12.0);
    for (at, text, colour) in &cache.placed {
        let galley = painter.layout_no_wrap(text.clone(), font.clone(), *colour);
        let place = egui::Rect::from_center_size(
            *at - egui::vec2(0.0, galley.size().y * 0.5),
            galley.size(),
        );
        painter.rect_filled(place.expand(2.0), 2.0, egui::Color32::from_black_alpha(150));
        painter.galley(place.min, galley, *colour);
    }
}

/// Where the nearest game entities' labels go on the picture.
fn place_labels(
    rect: egui::Rect,
    ppp: f32,
    view: &super::view::View,
    scene: &pebble_model::Scene,
    kinds: &pebble_model::definitions::Definitions,
) -> Vec<(egui::Pos2, String, egui::Color32)> {
    use pebble_model::entity::EntityKind;
    let eye = view.camera.eye;
    // An orthographic view is as far as it is wide: its labels by nearness only.
    let reach = if view.camera.ortho_height > 0.0 {
        f32::INFINITY
    } else {
        LABEL_REACH
    };
    let mut near: Vec<(
        f32,
        pebble_model::EntityId,
        &pebble_model::entity::DefinedEntity,
    )> = scene
        .entities()
        .filter_map(|e| match &e.kind {
            EntityKind::Defined(d) if scene.is_drawn(e.id) => {
                let at: pebble_model::glam::Vec3 = scene.world_transform(e.id).translation.into();
                let d2 = at.distance_squared(eye);
                (d2 <= reach * reach).then_some((d2, e.id, d))
            }
            _ => None,
        })
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut placed = Vec::new();
    for (_, id, d) in near {
        if placed.len() >= MAX_LABELS {
            break;
        }
        let Some(e) = scene.entity(id) else { continue };
        let world = scene.world_transform(id);
        let top = match kinds.kind(&d.kind).map(|k| k.shape_of(d)) {
            Some(pebble_model::definitions::Shape::Box(s)) => s[1],
            Some(pebble_model::definitions::Shape::Sphere(r)) => r,
            Some(pebble_model::definitions::Shape::Figure([_, h, eye])) => h - eye,
            _ => 0.8,
        };
        let anchor = world.transform_point3(pebble_model::glam::Vec3::Y * (top + 0.15));
        let Some(p) = view.project(anchor) else {
            continue;
        };
        let at = rect.min + egui::vec2(p.x, p.y) / ppp;
        if !rect.contains(at) {
            continue;
        }
        let colour = match kinds.kind(&d.kind) {
            Some(k) => {
                let [r, g, b] = k.rgb().map(|c| (c * 255.0) as u8);
                egui::Color32::from_rgb(r, g, b)
            }
            None => egui::Color32::from_rgb(255, 64, 255),
        };
        let label = kinds.label(d, &e.name);
        let text = match kinds.kind(&d.kind).and_then(|k| k.icon.as_deref()) {
            Some(icon) => format!("{icon}  {label}"),
            None => label,
        };
        placed.push((at, text, colour));
    }
    placed
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
