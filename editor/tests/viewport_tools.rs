//! The viewport's tools in the whole app, driven with egui events as a person's
//! mouse makes them (the tools' own logic is unit-tested in
//! `app/viewport/tools/tests.rs`).

mod common;

use eframe::egui;
use pebble_editor::app::showcase_path;

use common::harness_on;

fn right(
    harness: &mut egui_kittest::Harness<'static, pebble_editor::app::PebbleApp>,
    pos: egui::Pos2,
    pressed: bool,
) {
    harness.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Secondary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    });
}

/// A flight starts on the right press: two pixels of movement (below egui's drag
/// threshold) already turn the view, and Esc puts it back.
#[test]
fn a_flight_starts_on_the_right_press_and_esc_puts_the_view_back() {
    let Some(mut harness) = harness_on(showcase_path()) else {
        return;
    };
    let (before, rect) = harness.state().view();
    let mid = rect.center();
    harness.hover_at(mid);
    harness.run_steps(1);
    right(&mut harness, mid, true);
    harness.run_steps(1);
    for k in 1..=2 {
        harness.event(egui::Event::PointerMoved(mid + egui::vec2(k as f32, 0.0)));
        harness.run_steps(1);
    }
    let (flying, _) = harness.state().view();
    assert_ne!(flying.yaw, before.yaw, "the look turned after two pixels");
    assert_eq!(harness.state().viewport.tools.active(), Some("navigate"));
    harness.key_press(egui::Key::Escape);
    harness.run_steps(1);
    right(&mut harness, mid + egui::vec2(2.0, 0.0), false);
    harness.run_steps(2);
    let (after, _) = harness.state().view();
    assert_eq!(after.yaw, before.yaw, "Esc put the view back");
    assert_eq!(after.eye, before.eye);
    assert!(!harness.state().viewport.tools.is_active());
    assert!(
        harness.state().scene().selection().is_empty(),
        "Esc was the flight's, not the selection's"
    );
}
