//! An afternoon in the editor, round two: the snags a designer met, each driven
//! in the real app by egui_kittest as a person meets it.

use crate::common;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pebble_editor::app::PebbleApp;
use pebble_model::EntityKind;

type H = Harness<'static, PebbleApp>;

fn collidable(harness: &H, name: &str) -> bool {
    let id = common::entity(harness.state(), name);
    matches!(
        &harness.state().scene().entity(id).expect("entity").kind,
        EntityKind::Mesh(m) if m.collidable
    )
}

fn room() -> Option<H> {
    common::harness_on(common::room::room_project())
}

fn select_row(harness: &mut H, row: &str) {
    harness.get_by_label(row).click();
    harness.run_steps(3);
}

/// Every change a control makes is a History step that says what changed on
/// what: the report found a step named only "Edit" that had cleared
/// "collidable" on a box.
#[test]
fn a_ticked_box_and_a_typed_name_are_history_steps_that_say_what_changed() {
    let Some(mut harness) = room() else { return };
    select_row(&mut harness, "North wall  (mesh)");
    let at = harness.get_by_label_contains("collidable").rect().center();
    common::click(&mut harness, at);
    assert!(!collidable(&harness, "North wall"));
    assert_eq!(
        harness.state().history_names().last().map(String::as_str),
        Some("Collidable off: North wall")
    );
    for name in harness.state().history_names() {
        assert_ne!(name, "Edit", "a step named only Edit");
    }
}

/// Keys typed while no text field has the keyboard never click a control that
/// was left holding it: a checkbox focused other than by Tab (here as a screen
/// reader or a panel change leaves it), then `1e6`, Enter and Space change
/// nothing in the scene. The keys still reach the shortcuts ("1": front view).
#[test]
fn typing_into_nothing_never_ticks_a_box_left_holding_the_keyboard() {
    let Some(mut harness) = room() else { return };
    select_row(&mut harness, "North wall  (mesh)");
    assert!(collidable(&harness, "North wall"));
    harness.get_by_label_contains("collidable").focus();
    harness.run_steps(1);
    let steps = harness.state().history_names();
    for text in ["1", "e", "6"] {
        harness.event(egui::Event::Text(text.into()));
        harness.run_steps(2);
    }
    for key in [egui::Key::Enter, egui::Key::Space] {
        harness.key_press(key);
        harness.run_steps(2);
    }
    assert!(
        collidable(&harness, "North wall"),
        "a key ticked the box off"
    );
    assert_eq!(harness.state().history_names(), steps, "no step was made");
}

/// A control the user moves to with Tab still takes Space (keyboard use), and
/// names its step.
#[test]
fn a_box_reached_with_tab_still_takes_space() {
    let Some(mut harness) = room() else { return };
    select_row(&mut harness, "North wall  (mesh)");
    // From the last field above it, as a keyboard user goes down the form.
    harness
        .query_all_by_role_and_label(egui::accesskit::Role::SpinButton, "scale z")
        .next()
        .expect("the scale fields")
        .focus();
    harness.run_steps(2);
    let mut reached = false;
    for _ in 0..5 {
        harness.key_press(egui::Key::Tab);
        harness.run_steps(1);
        if harness
            .query_by_label_contains("collidable")
            .is_some_and(|n| n.is_focused())
        {
            reached = true;
            break;
        }
    }
    assert!(reached, "Tab never reached the collidable box");
    harness.key_press(egui::Key::Space);
    harness.run_steps(2);
    assert!(!collidable(&harness, "North wall"), "Space ticked it off");
    assert_eq!(
        harness.state().history_names().last().map(String::as_str),
        Some("Collidable off: North wall")
    );
}
