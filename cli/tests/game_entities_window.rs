//! The project's own kinds in the real app (egui_kittest on the real renderer),
//! as a designer meets them: a kind typed into `entities.ron` while the editor
//! runs appears in the Create menu without a restart; three are placed with the
//! menu and clicks on the floor, one linked to another in the inspector, a field
//! set on all three at once as one undo step and undone; the window's picture
//! shows their boxes in the kind's colour (saved for a person to look at).

use crate::common;

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pebble_core::intent::Intent;
use pebble_editor::app::PebbleApp;
use pebble_model::definitions::FieldValue;
use pebble_model::entity::EntityKind;
use pebble_model::glam::Vec3;
use pebble_model::{EntityId, Scene};

type H = Harness<'static, PebbleApp>;

const CRATE: &str = r##"
        (
            name: "Crate",
            doc: "Pushed about; heavier ones need a run-up.",
            colour: "#ff8800",
            shape: Box((1.0, 1.0, 1.0)),
            tags: ["Props"],
            fields: [
                (name: "weight", type: Float, min: 0.0, max: 100.0, unit: "kg", default: 10.0),
                (name: "next", type: Entity, kinds: ["Crate"], doc: "The crate it pushes."),
            ],
        ),"##;

fn value(scene: &Scene, id: EntityId, field: &str) -> Option<FieldValue> {
    match &scene.entity(id)?.kind {
        EntityKind::Defined(d) => d.values.get(field).cloned(),
        _ => None,
    }
}

/// Opens Create › `tag` and clicks `kind` there.
fn create_menu(harness: &mut H, tag: &str, kind: &str) {
    harness.get_by_label("Create").click();
    harness.run_steps(2);
    harness.get_by_label(tag).hover();
    harness.run_steps(3);
    // The menu's button (the inspector's heading of a selected one reads the same).
    harness.get_by_role_and_label(Role::Button, kind).click();
    harness.run_steps(2);
}

#[test]
fn a_kind_added_while_the_editor_runs_is_placed_linked_edited_together_and_undone() {
    let project = common::showcase_copy();
    let Some(mut harness) = common::harness_on(project.clone()) else {
        return;
    };
    assert!(harness.state().kinds().kind("Crate").is_none());
    let file = project
        .parent()
        .expect("the project's folder")
        .join("entities.ron");
    let text = std::fs::read_to_string(&file).expect("the showcase's definitions");
    let with_crate = text.replacen("    kinds: [", &format!("    kinds: [{CRATE}"), 1);
    assert_ne!(with_crate, text);
    // Saved as an editor saves: a new file renamed over the old.
    pbm::file::write_atomic(&file, with_crate.as_bytes()).expect("saves");
    common::wait_for(&mut harness, |app| app.kinds().kind("Crate").is_some());

    // Create › Props › Crate, and a click on the floor, three times.
    let mut crates = Vec::new();
    for x in [-6.0, -4.0, -2.0] {
        create_menu(&mut harness, "Props", "Crate");
        let at = common::screen(harness.state(), Vec3::new(x, 0.0, 5.0));
        common::click(&mut harness, at);
        let made = harness
            .state()
            .scene()
            .selection()
            .first()
            .copied()
            .expect("the new crate is selected");
        assert!(
            matches!(
                &harness.state().scene().entity(made).expect("made").kind,
                EntityKind::Defined(d) if d.kind == "Crate"
            ),
            "a crate was made at x = {x}"
        );
        crates.push(made);
    }
    let name = |h: &H, id: EntityId| h.state().scene().entity(id).expect("a crate").name.clone();
    let second = name(&harness, crates[1]);
    assert_eq!(second, "Crate 2", "numbered in the outliner");

    // The first crate's "next" links to the second, chosen in the inspector.
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, vec![Intent::Select(vec![crates[0]])]);
    harness.run_steps(3);
    harness
        .get_by_role_and_label(Role::ComboBox, "next")
        .click();
    harness.run_steps(3);
    harness.get_by_label(&format!("{second} (Crate)")).click();
    harness.run_steps(3);
    assert_eq!(
        value(harness.state().scene(), crates[0], "next"),
        Some(FieldValue::Entity(Some(crates[1])))
    );

    // All three selected: the weight typed once is set on each, one undo step.
    harness
        .state_mut()
        .apply(&ctx, vec![Intent::Select(crates.clone())]);
    harness.run_steps(3);
    let steps = harness.state().history_position();
    let field = || Role::SpinButton;
    harness.get_by_role_and_label(field(), "weight").focus();
    harness.run_steps(2);
    harness
        .get_by_role_and_label(field(), "weight")
        .type_text("42");
    harness.run_steps(2);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(3);
    for id in &crates {
        assert_eq!(
            value(harness.state().scene(), *id, "weight"),
            Some(FieldValue::Float(42.0))
        );
    }
    assert_eq!(harness.state().history_position(), steps + 1, "one step");
    assert_eq!(
        harness.state().history_undo_name().as_deref(),
        Some("Edit weight on 3 entities")
    );

    // The picture: the crates' boxes in their orange, the link, the labels.
    let picture = harness.render().expect("renders the window");
    let path = std::env::temp_dir().join("pebble-game-entities-window.png");
    picture.save(&path).expect("saves the picture");
    let orange = picture
        .pixels()
        .filter(|p| p.0[0] > 200 && (100..180).contains(&p.0[1]) && p.0[2] < 60)
        .count();
    assert!(orange > 150, "{orange} orange pixels in {}", path.display());

    harness
        .state_mut()
        .run_action(&ctx, pebble_core::action::Action::Undo);
    harness.run_steps(2);
    for id in &crates {
        assert_eq!(
            value(harness.state().scene(), *id, "weight"),
            None,
            "undone"
        );
    }
    assert_eq!(
        value(harness.state().scene(), crates[0], "next"),
        Some(FieldValue::Entity(Some(crates[1]))),
        "the link stays: it was a step of its own"
    );
}
