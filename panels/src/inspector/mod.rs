//! The Inspector: typed editors, with units, for the selected entity — its name
//! and transform here, then its kind's fields (one file per kind: lights,
//! emitters and colliders, gameplay entities, meshes with their materials). A
//! number is typed into a [`NumberField`](crate::number_field::NumberField)
//! and committed on Enter or when the field is left, as one undo step, after its
//! limits accept it (a refusal stays in red under the field); a colour drag
//! merges into one undo step (a continuous edit keyed by entity and field),
//! closed when the pointer is released. The panel changes nothing itself: it
//! returns [`Intent`]s.

mod defined;
mod faces;
mod form;
mod gameplay;
mod kinds;
mod lights;
pub mod material;
mod mesh;
mod multi;
mod panel;
mod prefab;
mod preset_fields;

pub use panel::InspectorPanel;
pub use prefab::field_name;
pub use preset_fields::{preset_menu, save_as_preset_field};

#[cfg(test)]
mod tests {
    use super::*;
    use egui::accesskit::Role;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use pebble_core::intent::{Intent, SavePreset};
    use pebble_core::presets::Presets;
    use pebble_model::History;
    use pebble_model::command::AddEntities;
    use pebble_model::entity::Emitter;
    use pebble_model::entity::EntityKind;
    use pebble_model::{Entity, Scene};

    type State = (InspectorPanel, Scene, Vec<Intent>);

    fn harness(scene: Scene) -> Harness<'static, State> {
        Harness::new_ui_state(
            |ui, (panel, scene, intents): &mut State| {
                let got = panel.ui(ui, scene, &Presets::default());
                intents.extend(got.into_iter().filter(|i| !matches!(i, Intent::EndEdit)));
            },
            (InspectorPanel::default(), scene, Vec::new()),
        )
    }

    #[test]
    fn a_typed_damping_is_asked_for_as_one_commit_and_the_scene_is_untouched() {
        let mut scene = Scene::new();
        let spawn = Entity::new("Fire", EntityKind::Emitter(Emitter::default()));
        History::new(10)
            .execute(&mut scene, AddEntities::new("Create", vec![spawn]))
            .expect("add");
        let mut h = harness(scene);
        assert!(h.query_by_label("Nothing selected.").is_none());
        let field = || Role::SpinButton;
        h.get_by_role_and_label(field(), "damping").focus();
        h.run_steps(2);
        for c in "9".chars() {
            h.get_by_role_and_label(field(), "damping")
                .type_text(&c.to_string());
            h.run_steps(1);
        }
        h.key_press(egui::Key::Enter);
        h.run_steps(2);
        match h.state().2.as_slice() {
            [Intent::Commit { command, field }] => {
                assert_eq!(command.name(), "Edit damping");
                assert!(field.is_some(), "a refusal would be shown under the field");
            }
            other => panic!("{other:?}"),
        }
        let damping = h.state().1.entities().find_map(|e| match &e.kind {
            EntityKind::Emitter(em) => Some(em.damping),
            _ => None,
        });
        assert_eq!(
            damping,
            Some(Emitter::default().damping),
            "the panel asks, the app applies"
        );
    }

    /// Two spawns with different fields of view and places: what they do not
    /// share shows as mixed, and a value typed there is set on both as one step
    /// that changes nothing else.
    /// More steps share the same flight: the stairs keep their height and length
    /// (the count used to change their total height).
    #[test]
    fn changing_the_step_count_keeps_the_flight() {
        use pebble_core::create::{CreateItem, entity};
        use pebble_model::Primitive;
        use pebble_model::command::AddMaterial;
        use pebble_model::entity::GeometrySource;
        let mut scene = Scene::new();
        let mut history = History::new(10);
        history
            .execute(&mut scene, AddMaterial::new(Default::default()))
            .expect("material");
        let material = scene.materials().map(|(id, _)| id).next();
        let stairs =
            entity(CreateItem::Stairs, pebble_model::glam::Vec3::ZERO, material).expect("stairs");
        history
            .execute(&mut scene, AddEntities::new("Create", vec![stairs]))
            .expect("add");
        let flight = |scene: &Scene| {
            scene.entities().find_map(|e| match &e.kind {
                EntityKind::Mesh(m) => match m.source {
                    GeometrySource::Primitive(Primitive::Stairs {
                        steps, rise, run, ..
                    }) => Some((steps, steps as f32 * rise, steps as f32 * run)),
                    _ => None,
                },
                _ => None,
            })
        };
        let (steps, height, length) = flight(&scene).expect("stairs");
        let mut h = harness(scene.clone());
        h.run_steps(2);
        let field = || Role::SpinButton;
        h.get_by_role_and_label(field(), "steps").focus();
        h.run_steps(2);
        let more = (steps * 2).to_string();
        for c in more.chars() {
            h.get_by_role_and_label(field(), "steps")
                .type_text(&c.to_string());
            h.run_steps(1);
        }
        h.key_press(egui::Key::Enter);
        h.run_steps(2);
        let Some(Intent::Commit { command, .. }) = h.state_mut().2.pop() else {
            panic!("no commit: {:?}", h.state().2);
        };
        history
            .execute_boxed(&mut scene, command, None)
            .expect("applies");
        let (now, h2, l2) = flight(&scene).expect("stairs");
        assert_eq!(now, steps * 2);
        assert!((h2 - height).abs() < 1e-4, "height {h2} (was {height})");
        assert!((l2 - length).abs() < 1e-4, "length {l2} (was {length})");
    }

    /// A position past the PSP map's ±2048 m is said in amber at the fields (they
    /// allow ±10 km); within it, nothing is said.
    #[test]
    fn a_position_past_the_map_limit_is_said_at_the_field() {
        use pebble_model::Transform;
        use pebble_model::glam::Vec3;
        let at = |x: f32| {
            let mut scene = Scene::new();
            let spawn = Entity::new("Fire", EntityKind::Emitter(Emitter::default()))
                .with_transform(Transform::from_translation(Vec3::new(x, 1.6, 0.0)));
            History::new(10)
                .execute(&mut scene, AddEntities::new("Create", vec![spawn]))
                .expect("add");
            let mut h = harness(scene);
            h.run_steps(2);
            (
                h.query_by_label_contains("a PSP map holds").is_some(),
                h.query_by_label_contains(&format!(
                    "reaches {x:.0} m from the origin: a PSP map holds ±2048 m"
                ))
                .is_some(),
            )
        };
        assert_eq!(at(2000.0), (false, false));
        assert_eq!(at(5000.0), (true, true), "said under the position");
    }

    #[test]
    fn several_selected_share_their_fields_and_a_typed_value_reaches_all() {
        use crate::number_field::MIXED_TEXT;
        use pebble_model::Transform;
        use pebble_model::glam::Vec3;
        let mut scene = Scene::new();
        let spawn = |name: &str, damping: f32, x: f32| {
            Entity::new(
                name,
                EntityKind::Emitter(Emitter {
                    spread: 0.5,
                    damping,
                    ..Emitter::default()
                }),
            )
            .with_transform(Transform::from_translation(Vec3::new(x, 1.6, 0.0)))
        };
        let mut history = History::new(10);
        history
            .execute(
                &mut scene,
                AddEntities::new("Create", vec![spawn("A", 1.0, 1.0), spawn("B", 3.0, 2.0)]),
            )
            .expect("add");
        let mut h = harness(scene);
        h.run_steps(2);
        assert!(h.query_by_label_contains("2 entities selected").is_some());
        let value = |h: &Harness<'static, State>, label: &str| {
            h.get_by_role_and_label(Role::SpinButton, label).value()
        };
        assert_eq!(value(&h, "damping").as_deref(), Some(MIXED_TEXT));
        assert_eq!(value(&h, "position x").as_deref(), Some(MIXED_TEXT));
        assert_eq!(value(&h, "position y").as_deref(), Some("1.6"), "shared");
        h.get_by_role_and_label(Role::SpinButton, "damping").focus();
        h.run_steps(2);
        h.get_by_role_and_label(Role::SpinButton, "damping")
            .type_text("8");
        h.run_steps(1);
        h.key_press(egui::Key::Enter);
        h.run_steps(2);
        let command = match h.state_mut().2.pop() {
            Some(Intent::Commit { command, .. }) => command,
            other => panic!("{other:?}"),
        };
        assert_eq!(command.name(), "Edit damping of 2 entities");
        let scene = &mut h.state_mut().1;
        history
            .execute_boxed(scene, command, None)
            .expect("applies");
        let got: Vec<(f32, f32, f32)> = scene
            .entities()
            .map(|e| match &e.kind {
                EntityKind::Emitter(em) => (em.damping, em.spread, e.transform.translation.x),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            got,
            vec![(8.0, 0.5, 1.0), (8.0, 0.5, 2.0)],
            "only the damping"
        );
    }

    /// An emitter's preset menu applies a preset as one step; "Save as preset"
    /// asks the app to save this emitter under the typed name.
    #[test]
    fn an_emitter_takes_a_preset_and_saves_itself_as_one() {
        let presets = Presets::load(&std::env::temp_dir().join("pebble-no-user-presets-here"));
        let mut scene = Scene::new();
        let emitter = Entity::new(
            "Fire",
            EntityKind::Emitter(pebble_core::presets::default_emitter()),
        );
        History::new(10)
            .execute(&mut scene, AddEntities::new("Create", vec![emitter]))
            .expect("add");
        // Tall enough for the whole emitter block.
        let mut h = Harness::builder()
            .with_size(egui::vec2(600.0, 2400.0))
            .build_ui_state(
                move |ui, (panel, scene, intents): &mut State| {
                    let got = panel.ui(ui, scene, &presets);
                    intents.extend(got.into_iter().filter(|i| !matches!(i, Intent::EndEdit)));
                },
                (InspectorPanel::default(), scene, Vec::new()),
            );
        h.run_steps(2);
        h.get_by_role_and_label(Role::ComboBox, "preset").click();
        h.run_steps(2);
        h.get_by_label("Smoke").click();
        h.run_steps(2);
        match h.state_mut().2.pop() {
            Some(Intent::Execute(c)) => assert_eq!(c.name(), "Emitter preset Smoke"),
            other => panic!("{other:?}"),
        }
        h.get_by_role_and_label(Role::TextInput, "preset name")
            .focus();
        h.run_steps(1);
        h.get_by_role_and_label(Role::TextInput, "preset name")
            .type_text("Blue fire");
        h.run_steps(1);
        h.get_by_label("Save as preset").click();
        h.run_steps(2);
        match h.state_mut().2.pop() {
            Some(Intent::SavePreset(SavePreset::Emitter(name, e))) => {
                assert_eq!(name, "Blue fire");
                assert!(e.additive, "this emitter, as it is");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn with_nothing_selected_it_says_so_and_asks_for_nothing() {
        let mut h = harness(Scene::new());
        h.run();
        assert!(h.query_by_label("Nothing selected.").is_some());
        assert!(h.state().2.is_empty());
    }
}
