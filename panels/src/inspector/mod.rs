//! The Inspector: typed editors, with units, for the selected entity — its name
//! and transform here, then its kind's fields (one file per kind: lights,
//! emitters and colliders, gameplay entities, meshes with their materials). A
//! number is typed into a [`NumberField`](crate::number_field::NumberField)
//! and committed on Enter or when the field is left, as one undo step, after its
//! [`limits`] accept it (a refusal stays in red under the field); a colour drag
//! merges into one undo step (a continuous edit keyed by entity and field),
//! closed when the pointer is released. The panel changes nothing itself: it
//! returns [`Intent`]s.

use pebble_model::command::{SetEntity, SetTransforms};
use pebble_model::entity::{EntityKind, limits};
use pebble_model::glam::{EulerRot, Quat};
use pebble_model::{Command, EditKey, Entity, EntityId, Scene};

use super::{Intent, SavePreset};
use pebble_core::presets::{Origin, Presets};

mod faces;
mod form;
mod gameplay;
mod kinds;
mod lights;
pub mod material;
mod mesh;
mod multi;

use form::Form;

#[derive(Debug, Default)]
pub struct InspectorPanel {
    /// The name field while it is being typed in: committed as one command when
    /// the field loses focus.
    name_edit: Option<(EntityId, String)>,
    /// What this frame asked for.
    intents: Vec<Intent>,
    /// The name typed for "Save as preset".
    preset_name: String,
    /// The selected mesh's materials' editor.
    material_editor: material::MaterialEditor,
    /// The project's textures, for the material editor's texture list (the app
    /// keeps it current).
    pub textures: Vec<String>,
    /// The texture lock is off: typed transforms keep textures still in the
    /// world (the app keeps it current).
    pub textures_stay_in_world: bool,
}

impl InspectorPanel {
    /// A step of a continuous edit (a colour being dragged, a checkbox).
    fn continue_edit(&mut self, command: Box<dyn Command>, key: EditKey) {
        self.intents.push(Intent::Continue(command, key));
    }

    /// A change made by a control (a box ticked, a colour dragged, a name typed),
    /// one History step named `label` (what changed, on what: never a bare "Edit").
    fn edit_entity(&mut self, id: EntityId, field: u32, label: String, after: Entity) {
        self.continue_edit(
            Box::new(SetEntity::new(label, after)),
            EditKey::Entity { id: id.0, field },
        );
    }

    /// A value typed into a field of `form` and committed: one undo step.
    fn commit(&mut self, form: &Form, command: impl Command) {
        self.intents.push(Intent::EndEdit);
        self.intents.push(Intent::Commit {
            command: Box::new(command),
            field: form.committed,
        });
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, scene: &Scene, presets: &Presets) -> Vec<Intent> {
        self.ui_in_mode(ui, scene, presets, None)
    }

    /// [`Self::ui`]; in face mode (`faces`), the picked faces instead of the
    /// selected entities.
    pub fn ui_in_mode(
        &mut self,
        ui: &mut egui::Ui,
        scene: &Scene,
        presets: &Presets,
        faces: Option<&pebble_core::faces::FaceSelection>,
    ) -> Vec<Intent> {
        if ui.input(|i| i.pointer.any_released()) {
            self.intents.push(Intent::EndEdit);
        }
        if let Some(faces) = faces {
            self.faces_ui(ui, scene, faces, presets);
        } else if let [id] = scene.selection()
            && let Some(entity) = scene.entity(*id)
        {
            self.entity_ui(ui, scene, entity, presets);
        } else if scene.selection().len() > 1 {
            self.multi_ui(ui, scene);
        } else {
            ui.label(match scene.selection().len() {
                0 => "Nothing selected.".to_string(),
                n => format!("{n} entities selected."),
            });
        }
        std::mem::take(&mut self.intents)
    }

    fn entity_ui(&mut self, ui: &mut egui::Ui, scene: &Scene, entity: &Entity, presets: &Presets) {
        let id = entity.id;
        let kind = entity.kind.kind();
        ui.label(format!("{}  ·  {}", kind.name(), id))
            .on_hover_text(format!(
                "in the exported map: {}",
                pebble_io::export::written_to(kind)
            ));
        let mut name = match self.name_edit.take() {
            Some((editing, text)) if editing == id => text,
            _ => entity.name.clone(),
        };
        let response = ui
            .horizontal(|ui| {
                let l = ui.label("name");
                ui.text_edit_singleline(&mut name).labelled_by(l.id)
            })
            .inner;
        if response.lost_focus() {
            if name != entity.name && !name.trim().is_empty() {
                let mut e = entity.clone();
                let label = format!("Rename {} to {name}", entity.name);
                e.name = name;
                self.edit_entity(id, 1, label, e);
                self.intents.push(Intent::EndEdit);
            }
        } else if response.has_focus() {
            self.name_edit = Some((id, name));
        }
        ui.separator();
        ui.label("Transform");
        let mut form = Form::new("entity", id.0);
        let mut t = entity.transform;
        form.vec3(ui, "position", &mut t.translation, &limits::POSITION);
        if let Some(warning) = beyond_the_map(scene, entity) {
            ui.colored_label(ui.visuals().warn_fg_color, warning);
        }
        let (y, x, z) = t.rotation.to_euler(EulerRot::YXZ);
        let euler = [x, y, z].map(f32::to_degrees);
        // Shown to a ten-thousandth of a degree: the decomposition's rounding noise
        // (-0.0000012°) is not a value anyone typed.
        let shown = euler.map(|a| (f64::from(a) * 1e4).round() / 1e4 + 0.0);
        let parts = [("x", shown[0]), ("y", shown[1]), ("z", shown[2])];
        let rotation = &limits::ROTATION;
        if let Some((k, v)) = form.row(ui, "rotation", &parts, rotation, "(pitch, yaw, roll)", true)
        {
            let mut r = euler;
            r[k] = v as f32;
            let r = r.map(f32::to_radians);
            t.rotation = Quat::from_euler(EulerRot::YXZ, r[1], r[0], r[2]);
        }
        form.vec3(ui, "scale", &mut t.scale, &limits::SCALE);
        if t != entity.transform {
            let command = SetTransforms::new("Transform", vec![(id, t)])
                .textures_stay_in_world(self.textures_stay_in_world);
            self.commit(&form, command);
        }
        ui.separator();
        let mut form = Form::new("entity kind", id.0);
        let mut e = entity.clone();
        let kind_changed = match &mut e.kind {
            EntityKind::Light(light) => lights::light_ui(ui, &mut form, light),
            EntityKind::Emitter(em) => kinds::emitter_ui(ui, &mut form, em),
            EntityKind::Collider(c) => {
                let meshes: Vec<(EntityId, String)> = scene
                    .entities_of(pebble_model::Kind::Mesh)
                    .map(|e| (e.id, e.name.clone()))
                    .collect();
                kinds::collider_ui(ui, &mut form, c, &meshes)
            }
            EntityKind::BallPit(b) => gameplay::ball_pit_ui(ui, &mut form, b),
            EntityKind::Patrol(p) => gameplay::patrol_ui(ui, &mut form, p),
            EntityKind::Custom(c) => gameplay::custom_ui(ui, c),
            EntityKind::Walkable(m) => {
                ui.label(format!(
                    "walkable surface: {} triangles (exported to walkable_mesh, never drawn)",
                    m.faces.len()
                ));
                false
            }
            EntityKind::Trigger(tr) => gameplay::trigger_ui(ui, &mut form, tr),
            EntityKind::PlayerSpawn(s) => gameplay::spawn_ui(ui, &mut form, s),
            EntityKind::SoundSource(s) => gameplay::sound_ui(ui, &mut form, s),
            // A folder and a mesh: their fields are the transform's, and a mesh's
            // materials below.
            EntityKind::Group | EntityKind::Mesh(_) => false,
        };
        if e != *entity {
            if form.committed.is_some() {
                // A typed value: one step of its own.
                let name = format!("Edit {}", form.committed_name);
                self.commit(&form, SetEntity::new(name, e));
            } else if kind_changed {
                let label = format!("Edit {}: {}", kind.name().to_lowercase(), entity.name);
                self.edit_entity(id, 3, label, e);
            }
        }
        if let EntityKind::Emitter(emitter) = &entity.kind {
            self.emitter_presets_ui(ui, entity, emitter, presets);
        }
        if let EntityKind::Mesh(mesh) = &entity.kind {
            self.mesh_ui(ui, scene, entity, mesh, presets);
        }
    }

    /// An emitter's presets: apply one (one step), or save this one as the user's.
    fn emitter_presets_ui(
        &mut self,
        ui: &mut egui::Ui,
        entity: &Entity,
        emitter: &pebble_model::entity::Emitter,
        presets: &Presets,
    ) {
        ui.separator();
        let chosen = preset_menu(
            ui,
            ("emitter preset", entity.id.0),
            presets
                .emitters
                .iter()
                .map(|l| (&l.preset.name, &l.preset.about, &l.origin)),
        );
        if let Some(k) = chosen {
            let preset = &presets.emitters[k].preset;
            let mut e = entity.clone();
            e.kind = EntityKind::Emitter(preset.emitter.clone());
            self.intents.push(Intent::Execute(Box::new(SetEntity::new(
                format!("Emitter preset {}", preset.name),
                e,
            ))));
        }
        if let Some(name) = self.save_as_preset_ui(ui, ("emitter", entity.id.0)) {
            self.intents.push(Intent::SavePreset(SavePreset::Emitter(
                name,
                emitter.clone(),
            )));
        }
    }

    /// A name field and "Save as preset"; the name once pressed.
    fn save_as_preset_ui(&mut self, ui: &mut egui::Ui, salt: (&str, u32)) -> Option<String> {
        save_as_preset_field(ui, &mut self.preset_name, salt)
    }
}

/// A name field and "Save as preset"; the name once pressed (the field is cleared).
pub fn save_as_preset_field(
    ui: &mut egui::Ui,
    preset_name: &mut String,
    salt: (&str, u32),
) -> Option<String> {
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("preset name");
        let field = egui::TextEdit::singleline(preset_name)
            .id_salt(salt)
            .hint_text("a name for it")
            .desired_width(120.0);
        ui.add(field).labelled_by(l.id);
        let name = preset_name.trim().to_string();
        let pressed = ui
            .add_enabled(!name.is_empty(), egui::Button::new("Save as preset"))
            .on_hover_text("kept in your data folder's presets/, listed in every project")
            .clicked();
        pressed.then(|| {
            preset_name.clear();
            name
        })
    })
    .inner
}

/// "preset: apply…" with the presets listed (yours marked), their descriptions
/// on hover; the one chosen, by its place.
pub fn preset_menu<'a>(
    ui: &mut egui::Ui,
    salt: (&str, u32),
    presets: impl Iterator<Item = (&'a String, &'a String, &'a Origin)>,
) -> Option<usize> {
    let mut chosen = None;
    ui.horizontal(|ui| {
        let l = ui.label("preset");
        egui::ComboBox::from_id_salt(salt)
            .selected_text("apply…")
            .show_ui(ui, |ui| {
                for (k, (name, about, origin)) in presets.enumerate() {
                    let text = match origin {
                        Origin::Bundled => name.clone(),
                        Origin::User(_) => format!("{name} (yours)"),
                    };
                    let item = ui.selectable_label(false, text);
                    let item = if about.is_empty() {
                        item
                    } else {
                        item.on_hover_text(about.as_str())
                    };
                    if item.clicked() {
                        chosen = Some(k);
                    }
                }
            })
            .response
            .labelled_by(l.id);
    });
    chosen
}

/// Where an entity reaches past the PSP map's ±2048 m (the fields allow ±10 km,
/// for work in progress): said in amber under the position, as the budget says
/// what is over, since the export refuses such a map.
fn beyond_the_map(scene: &Scene, entity: &Entity) -> Option<String> {
    let limit = pebble_io::export::MAX_COORDINATE_M;
    let (lo, hi) = match scene.world_aabb(entity.id) {
        Some(b) => (b.min, b.max),
        None => {
            let p = scene.world_transform(entity.id).translation.into();
            (p, p)
        }
    };
    let reach = lo.abs().max(hi.abs()).max_element();
    (reach > limit).then(|| {
        format!(
            "reaches {:.0} m from the origin: a PSP map holds ±{limit:.0} m, so the export refuses it",
            reach
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::accesskit::Role;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use pebble_model::History;
    use pebble_model::command::AddEntities;
    use pebble_model::entity::PlayerSpawn;

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
    fn a_typed_fov_is_asked_for_as_one_commit_and_the_scene_is_untouched() {
        let mut scene = Scene::new();
        let spawn = Entity::new("Spawn", EntityKind::PlayerSpawn(PlayerSpawn::default()));
        History::new(10)
            .execute(&mut scene, AddEntities::new("Create", vec![spawn]))
            .expect("add");
        let mut h = harness(scene);
        assert!(h.query_by_label("Nothing selected.").is_none());
        let field = || Role::SpinButton;
        h.get_by_role_and_label(field(), "fov").focus();
        h.run_steps(2);
        for c in "90".chars() {
            h.get_by_role_and_label(field(), "fov")
                .type_text(&c.to_string());
            h.run_steps(1);
        }
        h.key_press(egui::Key::Enter);
        h.run_steps(2);
        match h.state().2.as_slice() {
            [Intent::Commit { command, field }] => {
                assert_eq!(command.name(), "Edit fov");
                assert!(field.is_some(), "a refusal would be shown under the field");
            }
            other => panic!("{other:?}"),
        }
        let fov = h.state().1.entities().find_map(|e| match &e.kind {
            EntityKind::PlayerSpawn(s) => Some(s.camera_fov),
            _ => None,
        });
        assert_eq!(
            fov,
            Some(PlayerSpawn::default().camera_fov),
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
            let spawn = Entity::new("Spawn", EntityKind::PlayerSpawn(PlayerSpawn::default()))
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
        let spawn = |name: &str, fov: f32, x: f32| {
            Entity::new(
                name,
                EntityKind::PlayerSpawn(PlayerSpawn {
                    yaw: 0.5,
                    camera_fov: fov,
                }),
            )
            .with_transform(Transform::from_translation(Vec3::new(x, 1.6, 0.0)))
        };
        let mut history = History::new(10);
        history
            .execute(
                &mut scene,
                AddEntities::new("Create", vec![spawn("A", 60.0, 1.0), spawn("B", 75.0, 2.0)]),
            )
            .expect("add");
        let mut h = harness(scene);
        h.run_steps(2);
        assert!(h.query_by_label_contains("2 entities selected").is_some());
        let value = |h: &Harness<'static, State>, label: &str| {
            h.get_by_role_and_label(Role::SpinButton, label).value()
        };
        assert_eq!(value(&h, "fov").as_deref(), Some(MIXED_TEXT));
        assert_eq!(value(&h, "position x").as_deref(), Some(MIXED_TEXT));
        assert_eq!(value(&h, "position y").as_deref(), Some("1.6"), "shared");
        h.get_by_role_and_label(Role::SpinButton, "fov").focus();
        h.run_steps(2);
        h.get_by_role_and_label(Role::SpinButton, "fov")
            .type_text("80");
        h.run_steps(1);
        h.key_press(egui::Key::Enter);
        h.run_steps(2);
        let command = match h.state_mut().2.pop() {
            Some(Intent::Commit { command, .. }) => command,
            other => panic!("{other:?}"),
        };
        assert_eq!(command.name(), "Edit fov of 2 entities");
        let scene = &mut h.state_mut().1;
        history
            .execute_boxed(scene, command, None)
            .expect("applies");
        let got: Vec<(f32, f32, f32)> = scene
            .entities()
            .map(|e| match &e.kind {
                EntityKind::PlayerSpawn(s) => (s.camera_fov, s.yaw, e.transform.translation.x),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            got,
            vec![(80.0, 0.5, 1.0), (80.0, 0.5, 2.0)],
            "only the fov"
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
