//! The inspector's numeric fields, driven in the real app by egui_kittest: a number
//! is typed as text (nothing applies while typing), commits on Enter or when the
//! field is left as exactly one undo step, takes arithmetic (`2*1.5`), and a value
//! that is not a number or out of range is refused in red under the field with the
//! reason, the text kept and the scene and history untouched; Esc restores. A
//! missing adapter fails the tests (`PEBBLE_SKIP_GPU_TESTS=1` skips them loudly).

use crate::common;

use common::{entity, harness_on};
use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pebble_editor::app::PebbleApp;
use pebble_model::command::{AddEntities, Command as _};
use pebble_model::entity::{Emitter, EntityKind, GeometrySource, limits};
use pebble_model::{Entity, EntityId, Primitive, project};

type H = Harness<'static, PebbleApp>;

/// Selects the outliner row `row` ("Campfire logs  (mesh)") and returns its entity.
fn select(harness: &mut H, name: &str, row: &str) -> EntityId {
    let id = entity(harness.state(), name);
    // Rows past the outliner's fold are not laid out at all: wheel down over the
    // rows that are until this one is.
    for _ in 0..80 {
        if harness.query_by_label(row).is_some() {
            break;
        }
        let labels: Vec<String> = harness
            .state()
            .scene()
            .entities()
            .map(|e| format!("{}  ({})", e.name, e.kind.label()))
            .collect();
        let Some(over) = labels
            .iter()
            .find_map(|l| harness.query_by_label(l).map(|n| n.rect().center()))
        else {
            break;
        };
        harness.hover_at(over);
        harness.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, -3.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers: egui::Modifiers::NONE,
        });
        harness.run_steps(2);
    }
    // Into view (the outliner scrolls smoothly: let it settle), then click.
    harness.get_by_label(row).scroll_to_me();
    harness.run_steps(40);
    harness.get_by_label(row).click();
    harness.run_steps(3);
    assert_eq!(harness.state().scene().selection(), &[id], "{row} selected");
    id
}

/// The numeric field named `label` in the inspector (a macro: egui_kittest does
/// not name its node type).
macro_rules! field {
    ($harness:expr, $label:expr) => {
        $harness.get_by_role_and_label(Role::SpinButton, $label)
    };
}

fn text(harness: &H, label: &str) -> String {
    field!(harness, label).value().unwrap_or_default()
}

fn focus(harness: &mut H, label: &str) {
    field!(harness, label).focus();
    harness.run_steps(2);
    assert!(
        field!(harness, label).is_focused(),
        "{label} has the keyboard"
    );
}

/// Types `keys` one character a frame into the focused field `label`.
fn type_keys(harness: &mut H, label: &str, keys: &str) {
    for c in keys.chars() {
        field!(harness, label).type_text(&c.to_string());
        harness.run_steps(1);
    }
}

fn enter(harness: &mut H) {
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
}

/// Focuses `label`, types `keys` (replacing the value) and presses Enter.
fn commit(harness: &mut H, label: &str, keys: &str) {
    focus(harness, label);
    type_keys(harness, label, keys);
    enter(harness);
}

/// The refusal shown in red, if any, containing `reason`.
fn error_shown(harness: &H, reason: &str) -> bool {
    harness.query_by_label_contains(reason).is_some()
}

fn primitive(harness: &H, id: EntityId) -> Primitive {
    match &harness.state().scene().entity(id).expect("entity").kind {
        EntityKind::Mesh(m) => match &m.source {
            GeometrySource::Primitive(p) => p.clone(),
            other => panic!("not parametric: {other:?}"),
        },
        other => panic!("not a mesh: {other:?}"),
    }
}

fn cylinder(harness: &H, id: EntityId) -> (f32, f32, u32) {
    match primitive(harness, id) {
        Primitive::Cylinder {
            radius,
            height,
            sides,
        } => (radius, height, sides),
        other => panic!("not a cylinder: {other:?}"),
    }
}

fn steps(harness: &H) -> usize {
    harness.state().history_position()
}

/// The user's report: typing `0.3` into a size field gave `1.3.00`. Now the text
/// reads what was typed after every key, nothing applies until Enter, and Enter
/// applies it as one undo step.
#[test]
fn typing_a_size_key_by_key_applies_it_once_on_enter() {
    let Some(mut harness) = showcase("typing") else {
        return;
    };
    let id = select(&mut harness, "Campfire logs", "Campfire logs  (mesh)");
    let (radius, height, sides) = cylinder(&harness, id);
    assert_eq!((radius, height, sides), (0.6, 0.25, 8));
    let before = steps(&harness);
    focus(&mut harness, "height");
    assert_eq!(text(&harness, "height"), "0.25");
    for (key, reads) in [("0", "0"), (".", "0."), ("3", "0.3")] {
        type_keys(&mut harness, "height", key);
        assert_eq!(text(&harness, "height"), reads, "after typing {key:?}");
        assert_eq!(
            cylinder(&harness, id).1,
            0.25,
            "nothing applied while typing"
        );
        assert_eq!(steps(&harness), before, "no step while typing");
    }
    enter(&mut harness);
    assert_eq!(cylinder(&harness, id), (0.6, 0.3, 8));
    assert_eq!(steps(&harness), before + 1, "exactly one new step");
    assert_eq!(text(&harness, "height"), "0.3");
    assert!(
        !field!(&harness, "height").is_focused(),
        "Enter left the field"
    );

    // Arithmetic, each one step.
    for (keys, value) in [
        ("2*1.5", 3.0),
        (".5", 0.5),
        ("(1+2)/4", 0.75),
        ("1e1", 10.0),
        ("-2 + 3", 1.0),
    ] {
        let at = steps(&harness);
        commit(&mut harness, "height", keys);
        assert_eq!(cylinder(&harness, id).1, value, "{keys}");
        assert_eq!(steps(&harness), at + 1, "{keys}: one step");
    }
    // Enter on an unchanged value adds nothing.
    let at = steps(&harness);
    focus(&mut harness, "height");
    enter(&mut harness);
    assert_eq!(steps(&harness), at);

    // Leaving the field commits too: type into the height, then move to the radius.
    focus(&mut harness, "height");
    type_keys(&mut harness, "height", "0.4");
    focus(&mut harness, "radius");
    assert_eq!(cylinder(&harness, id).1, 0.4, "committed when left");
    assert_eq!(steps(&harness), at + 1);
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);

    // Each commit undoes on its own.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(2);
    assert_eq!(cylinder(&harness, id).1, 1.0);
    assert_eq!(text(&harness, "height"), "1");
}

/// NaN and out-of-range values are refused in red with the reason, the text kept
/// to fix, the entity and the history untouched; Esc restores the value.
#[test]
fn a_refused_value_is_shown_in_red_and_changes_nothing() {
    let Some(mut harness) = showcase("refused") else {
        return;
    };
    let id = select(&mut harness, "Campfire logs", "Campfire logs  (mesh)");
    let original = primitive(&harness, id);
    let before = steps(&harness);
    for (keys, reason) in [
        ("nan", "“nan” is not a number"),
        ("-1", "height: must be between 0.01 and 500 m"),
        ("1.3.00", "unexpected “.”"),
        ("inf", "“inf” is not a number"),
        ("1/0", "cannot divide by zero"),
        ("1e", "exponent"),
        ("2**3", "unexpected “*”"),
        ("600", "must be between 0.01 and 500 m"),
    ] {
        commit(&mut harness, "height", keys);
        assert!(error_shown(&harness, reason), "{keys}: {reason} shown");
        assert_eq!(primitive(&harness, id), original, "{keys}: unchanged");
        assert_eq!(steps(&harness), before, "{keys}: no step");
        assert_eq!(text(&harness, "height"), keys, "the typed text stays");
        assert!(
            field!(&harness, "height").is_focused(),
            "{keys}: still in the field to fix it"
        );
        // Esc restores the value and leaves the field; the selection stays.
        harness.key_press(egui::Key::Escape);
        harness.run_steps(2);
        assert_eq!(text(&harness, "height"), "0.25", "{keys}: Esc restores");
        assert!(!error_shown(&harness, reason), "{keys}: the error is gone");
        assert!(!field!(&harness, "height").is_focused());
        assert_eq!(harness.state().scene().selection(), &[id]);
    }

    // Fixing a refused text: the red text stays after leaving, and a valid value
    // typed over it applies.
    commit(&mut harness, "height", "-1");
    focus(&mut harness, "radius");
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert_eq!(text(&harness, "height"), "-1", "kept until fixed");
    assert!(error_shown(&harness, "must be between 0.01 and 500 m"));
    commit(&mut harness, "height", "0.5");
    assert_eq!(cylinder(&harness, id).1, 0.5);
    assert!(!error_shown(&harness, "must be between 0.01 and 500 m"));
    assert_eq!(steps(&harness), before + 1);
}

/// Sides far past what the generator builds are refused, not clamped; a count in
/// range rebuilds the cylinder.
#[test]
fn cylinder_sides_out_of_range_are_refused() {
    let Some(mut harness) = showcase("sides") else {
        return;
    };
    let id = select(&mut harness, "Campfire logs", "Campfire logs  (mesh)");
    let before = steps(&harness);
    commit(&mut harness, "sides", "100000");
    assert!(error_shown(
        &harness,
        "sides: must be a whole number between 3 and 128"
    ));
    assert_eq!(cylinder(&harness, id).2, 8);
    assert_eq!(steps(&harness), before);
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    commit(&mut harness, "sides", "4.5");
    assert!(error_shown(&harness, "whole number"));
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    commit(&mut harness, "sides", "3*4");
    assert_eq!(cylinder(&harness, id).2, 12);
    assert_eq!(steps(&harness), before + 1);
}

/// A trigger's size must be positive metres.
#[test]
fn a_negative_trigger_size_is_refused() {
    let Some(mut harness) = showcase("trigger") else {
        return;
    };
    let id = select(&mut harness, "Warmth", "Warmth  (trigger)");
    let size = |h: &H| match &h.state().scene().entity(id).expect("entity").kind {
        EntityKind::Defined(d) => pebble_model::definitions::builtin::value(d, "size")
            .and_then(|v| v.as_point())
            .expect("a size"),
        other => panic!("not a trigger: {other:?}"),
    };
    let original = size(&harness);
    let before = steps(&harness);
    commit(&mut harness, "size y", "-3");
    assert!(error_shown(
        &harness,
        "size y: must be between 0.01 and 500 m"
    ));
    assert_eq!(size(&harness), original);
    assert_eq!(steps(&harness), before);
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    commit(&mut harness, "size y", "2*2");
    assert_eq!(size(&harness).y, 4.0);
    assert_eq!(steps(&harness), before + 1);
}

/// An emitter's life: NaN and more than the loader's 600 s are refused, and a
/// maximum below the minimum (which the loader would silently raise) is refused by
/// the command and shown under the field.
#[test]
fn emitter_life_must_be_a_number_the_runtime_plays() {
    let Some(mut harness) = showcase("life") else {
        return;
    };
    let id = select(
        &mut harness,
        "Campfire flames",
        "Campfire flames  (emitter)",
    );
    let life = |h: &H| match &h.state().scene().entity(id).expect("entity").kind {
        EntityKind::Emitter(e) => e.life,
        other => panic!("not an emitter: {other:?}"),
    };
    let original = life(&harness);
    assert_eq!(original, [0.5, 0.8]);
    let before = steps(&harness);
    for (label, keys, reason) in [
        ("life min", "nan", "“nan” is not a number"),
        ("life min", "0", "life min: must be between 0.01 and 600 s"),
        (
            "life max",
            "601",
            "life max: must be between 0.01 and 600 s",
        ),
        ("life max", "0.1", "must not be below life min"),
    ] {
        commit(&mut harness, label, keys);
        assert!(error_shown(&harness, reason), "{label} {keys}: {reason}");
        assert_eq!(life(&harness), original, "{label} {keys}");
        assert_eq!(steps(&harness), before, "{label} {keys}: no step");
        focus(&mut harness, label);
        harness.key_press(egui::Key::Escape);
        harness.run_steps(2);
        assert!(!error_shown(&harness, reason));
    }
    commit(&mut harness, "life max", "2.5");
    assert_eq!(life(&harness), [0.5, 2.5]);
    assert_eq!(steps(&harness), before + 1);
}

/// A scale of zero would collapse the wall, 1e30 blow it up: both refused.
#[test]
fn a_scale_of_zero_is_refused() {
    let Some(mut harness) = showcase("scale") else {
        return;
    };
    let id = select(&mut harness, "Back wall", "Back wall  (mesh)");
    let scale = |h: &H| {
        h.state()
            .scene()
            .entity(id)
            .expect("entity")
            .transform
            .scale
    };
    let before = steps(&harness);
    let range = "scale x: must be between 0.001 and 1000";
    for (keys, reason) in [
        ("0", range),
        ("1e30", range),
        ("0.0001", range),
        ("nan", "“nan” is not a number"),
    ] {
        commit(&mut harness, "scale x", keys);
        assert!(error_shown(&harness, reason), "{keys}: {reason}");
        assert_eq!(scale(&harness).x, 1.0, "{keys}");
        assert_eq!(steps(&harness), before, "{keys}");
        harness.key_press(egui::Key::Escape);
        harness.run_steps(2);
    }
    commit(&mut harness, "scale x", "-2");
    assert_eq!(scale(&harness).x, -2.0, "a mirror is a scale");
    assert_eq!(steps(&harness), before + 1);
}

/// A copy of the showcase of its own for test `tag`: a test that fails with unsaved
/// edits leaves its recovery file there, not beside the bundled showcase (where the
/// next start of every other test would offer it back).
fn showcase_copy(tag: &str) -> std::path::PathBuf {
    let source = pebble_core::services::showcase::showcase_path();
    let from = source.parent().expect("the showcase folder");
    let dir =
        std::env::temp_dir().join(format!("pebble-number-fields-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("textures")).expect("mkdir");
    for t in std::fs::read_dir(from.join("textures")).expect("textures") {
        let t = t.expect("entry").path();
        std::fs::copy(&t, dir.join("textures").join(t.file_name().expect("name"))).expect("copy");
    }
    let path = dir.join("showcase.pebble.ron");
    std::fs::copy(&source, &path).expect("copy");
    path
}

/// The app on its own copy of the showcase.
fn showcase(tag: &str) -> Option<H> {
    harness_on(showcase_copy(tag))
}

/// A copy of the showcase with an emitter whose minimum life is NaN, as a foreign
/// file can hold (the .pbm importer keeps records as stored).
fn project_with_a_bad_emitter() -> std::path::PathBuf {
    let path = showcase_copy("stored");
    let mut scene = project::load(&path).expect("the showcase loads");
    let bad = Emitter {
        life: [f32::NAN, 1.0],
        ..Emitter::default()
    };
    AddEntities::new(
        "Import",
        vec![Entity::new("Bad emitter", EntityKind::Emitter(bad))],
    )
    .apply(&mut scene)
    .expect("adds");
    project::save(&path, &scene).expect("saves");
    path
}

/// A value out of range read from a file is flagged under its field, and the
/// entity stays editable: another field commits, and fixing it clears the flag.
#[test]
fn a_stored_value_out_of_range_is_flagged_and_stays_editable() {
    let Some(mut harness) = harness_on(project_with_a_bad_emitter()) else {
        return;
    };
    let id = select(&mut harness, "Bad emitter", "Bad emitter  (emitter)");
    let emitter = |h: &H| match &h.state().scene().entity(id).expect("entity").kind {
        EntityKind::Emitter(e) => e.clone(),
        other => panic!("not an emitter: {other:?}"),
    };
    let flag = "life min: the stored value NaN must be a finite number between 0.01 and 600 s";
    assert!(error_shown(&harness, flag), "the stored NaN is flagged");
    let before = steps(&harness);
    commit(&mut harness, "damping", "2");
    assert_eq!(
        emitter(&harness).damping,
        2.0,
        "another field still commits"
    );
    assert!(emitter(&harness).life[0].is_nan());
    assert_eq!(steps(&harness), before + 1);
    assert_eq!(
        harness.state().history_undo_name().as_deref(),
        Some("Edit damping")
    );
    assert!(error_shown(&harness, flag));
    commit(&mut harness, "life min", "0.5");
    assert_eq!(emitter(&harness).life, [0.5, 1.0]);
    assert!(!error_shown(&harness, "the stored value"));
    assert_eq!(steps(&harness), before + 2);
}

/// The ball pit's limit is what the PSP runtime simulates.
#[test]
fn the_ball_limit_is_the_runtimes() {
    assert_eq!(
        limits::BALL_COUNT.max as usize,
        pebble_play::balls::MAX_BALLS
    );
}
