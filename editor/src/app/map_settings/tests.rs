//! The Map settings window, driven as a person would, and the environment
//! preset's step.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use pebble_model::History;

use super::*;

type State = (MapSettingsWindow, Scene, Presets, Vec<Intent>);

fn harness(scene: Scene) -> Harness<'static, State> {
    let presets = Presets::load(&std::env::temp_dir().join("pebble-no-user-presets-here"));
    Harness::builder()
        .with_size(egui::vec2(700.0, 1400.0))
        .build_ui_state(
            |ui, (window, scene, presets, intents): &mut State| {
                intents.extend(window.ui(ui.ctx(), scene, presets));
            },
            (
                MapSettingsWindow {
                    open: true,
                    ..Default::default()
                },
                scene,
                presets,
                Vec::new(),
            ),
        )
}

fn apply(h: &mut Harness<'static, State>, history: &mut History) -> Vec<String> {
    let intents = std::mem::take(&mut h.state_mut().3);
    let mut names = Vec::new();
    for i in intents {
        if let Intent::Execute(c) = i {
            names.push(c.name());
            history
                .execute_boxed(&mut h.state_mut().1, c, None)
                .expect("applies");
        }
    }
    names
}

#[test]
fn a_typed_map_name_is_one_step_and_an_empty_one_is_refused() {
    let mut h = harness(Scene::new());
    let mut history = History::default();
    h.run_steps(2);
    let field = |h: &Harness<'static, State>| {
        h.get_by_role_and_label(egui::accesskit::Role::TextInput, "map name")
            .rect()
            .center()
    };
    for (typed, want) in [("Crypt of Ash", "Crypt of Ash"), ("   ", "Crypt of Ash")] {
        let at = field(&h);
        h.get_by_role_and_label(egui::accesskit::Role::TextInput, "map name")
            .click();
        h.run_steps(1);
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.get_by_role_and_label(egui::accesskit::Role::TextInput, "map name")
            .type_text(typed);
        h.run_steps(1);
        h.key_press(egui::Key::Enter);
        h.run_steps(2);
        let _ = at;
        apply(&mut h, &mut history);
        assert_eq!(h.state().1.settings().map_name, want);
    }
    assert!(
        h.query_by_label_contains("a map name has 1 to").is_some(),
        "the refusal says why"
    );
}

#[test]
fn an_environment_preset_sets_the_environment_the_sun_and_the_sky_in_one_step() {
    let mut scene = Scene::new();
    let mut history = History::default();
    history
        .execute(
            &mut scene,
            AddEntities::new(
                "Create",
                vec![Entity::new(
                    "Sun",
                    EntityKind::Light(Light::Sun {
                        direction: pebble_model::glam::Vec3::NEG_Y,
                        color: [1.0; 3],
                        intensity: 1.0,
                        shadows: false,
                    }),
                )],
            ),
        )
        .expect("add");
    let presets = Presets::load(&std::env::temp_dir().join("pebble-no-user-presets-here"));
    let night = presets
        .environments
        .iter()
        .find(|l| l.preset.name == "Moonlit night")
        .expect("bundled");
    let before = history.position();
    let step = environment_preset(&scene, &night.preset);
    history
        .execute_boxed(&mut scene, step, None)
        .expect("applies");
    assert_eq!(history.position(), before + 1, "one step");
    assert_eq!(scene.settings().environment, Environment::Night);
    let lights: Vec<&Light> = scene
        .entities()
        .filter_map(|e| match &e.kind {
            EntityKind::Light(l) => Some(l),
            _ => None,
        })
        .collect();
    assert_eq!(lights.len(), 2, "the sun set, a sky made");
    match lights[0] {
        Light::Sun {
            intensity, shadows, ..
        } => {
            assert_eq!(*intensity, night.preset.sun.intensity);
            assert!(!shadows, "the sun keeps its shadow choice");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(lights[1], Light::Hemisphere { sky, .. } if *sky == night.preset.sky.sky));
    history.undo(&mut scene);
    assert_eq!(scene.settings().environment, Environment::Day);
    assert_eq!(scene.entities().count(), 1);
}

#[test]
fn an_export_preset_and_a_tunable_change_are_steps_of_their_own() {
    let mut h = harness(Scene::new());
    let mut history = History::default();
    h.run_steps(2);
    // The export presets' menu (the second "preset" menu).
    let menus: Vec<egui::Pos2> = h
        .query_all_by_role_and_label(egui::accesskit::Role::ComboBox, "preset")
        .map(|n| n.rect().center())
        .collect();
    assert_eq!(menus.len(), 2, "environment and export presets");
    h.query_all_by_role_and_label(egui::accesskit::Role::ComboBox, "preset")
        .nth(1)
        .expect("export presets")
        .click();
    h.run_steps(2);
    h.get_by_label("Quick preview").click();
    h.run_steps(2);
    assert_eq!(apply(&mut h, &mut history), vec!["Change scene settings"]);
    let e = &h.state().1.settings().export;
    assert!(!e.bake_lighting && e.max_texture_size == 256);
    assert_eq!(e.output, "export/map.pbm", "the output stays");
    // A tunable ticked off: written as the runtime reads it.
    // The window as it is now (the preset's note moved what is below it).
    h.run_steps(2);
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "cull")
        .click();
    h.run_steps(2);
    apply(&mut h, &mut history);
    assert_eq!(h.state().1.settings().export.runtime_tunables, "cull=0\n");
}

#[test]
fn the_export_settings_are_saved_as_a_preset_under_the_typed_name() {
    let mut h = harness(Scene::new());
    h.run_steps(2);
    let field = || egui::accesskit::Role::TextInput;
    h.get_by_role_and_label(field(), "export preset name")
        .focus();
    h.run_steps(1);
    h.get_by_role_and_label(field(), "export preset name")
        .type_text("Device test");
    h.run_steps(1);
    // The second "Save": the export's (the first is the environment's).
    h.query_all_by_label("Save")
        .nth(1)
        .expect("the export's Save")
        .click();
    h.run_steps(2);
    let saved = h.state_mut().3.drain(..).find_map(|i| match i {
        Intent::SavePreset(pebble_panels::SavePreset::Export(p)) => Some(p),
        _ => None,
    });
    let p = saved.expect("asked to save");
    assert_eq!(p.name, "Device test");
    assert_eq!(p.export, ExportParts::of(&Default::default()));
    // The environment needs a sun and a sky to take from: none here.
    assert!(environment_of(&Scene::new(), "x".into()).is_none());
}
