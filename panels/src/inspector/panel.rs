//! The Inspector panel's state and its frame: the selected entity's name and
//! transform, then its kind's fields (each kind's form is a file beside this).

use pebble_model::command::{SetEntity, SetTransforms};
use pebble_model::entity::{EntityKind, limits};
use pebble_model::glam::{EulerRot, Quat};
use pebble_model::{Command, EditKey, Entity, EntityId, Scene};

use pebble_core::intent::{Intent, SavePreset};
use pebble_core::presets::Presets;

use super::form::{Form, RowName};
use super::preset_fields::{preset_menu, save_as_preset_field};
use super::{gameplay, kinds, lights, material};

#[derive(Debug, Default)]
pub struct InspectorPanel {
    /// The name field while it is being typed in: committed as one command when
    /// the field loses focus.
    pub(super) name_edit: Option<(EntityId, String)>,
    /// What this frame asked for.
    pub(super) intents: Vec<Intent>,
    /// The name typed for "Save as preset".
    pub(super) preset_name: String,
    /// The selected mesh's materials' editor.
    pub(super) material_editor: material::MaterialEditor,
    /// The project's textures, for the material editor's texture list (the app
    /// keeps it current).
    pub textures: Vec<String>,
    /// The texture lock is off: typed transforms keep textures still in the
    /// world (the app keeps it current).
    pub textures_stay_in_world: bool,
    /// The project's own kinds, for game entities' forms (the app keeps it current).
    pub kinds: std::sync::Arc<pebble_model::definitions::Definitions>,
    /// The project's files (project-relative), for asset fields (the app keeps it
    /// current).
    pub files: std::sync::Arc<Vec<String>>,
    /// A game entity's text field being typed in: its key and text, committed when
    /// it is left.
    pub(super) text_edit: Option<(String, String)>,
    /// Why the last change of a game entity's field was refused: the field, why.
    pub(super) refusal: Option<(String, String)>,
    /// The prefab instance being edited in place (the app keeps it current).
    pub entered: Option<EntityId>,
}

impl InspectorPanel {
    /// A step of a continuous edit (a colour being dragged, a checkbox).
    pub(super) fn continue_edit(&mut self, command: Box<dyn Command>, key: EditKey) {
        self.intents.push(Intent::Continue(command, key));
    }

    /// A change made by a control (a box ticked, a colour dragged, a name typed),
    /// one History step named `label` (what changed, on what: never a bare "Edit").
    pub(super) fn edit_entity(&mut self, id: EntityId, field: u32, label: String, after: Entity) {
        self.continue_edit(
            Box::new(SetEntity::new(label, after)),
            EditKey::Entity { id: id.0, field },
        );
    }

    /// A value typed into a field of `form` and committed: one undo step.
    pub(super) fn commit(&mut self, form: &Form, command: impl Command) {
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

    pub(super) fn entity_ui(
        &mut self,
        ui: &mut egui::Ui,
        scene: &Scene,
        entity: &Entity,
        presets: &Presets,
    ) {
        let id = entity.id;
        let kind = entity.kind.kind();
        // A described kind by its own name ("player spawn", "door"), written to
        // its own lump when it is a built-in kind.
        let written = match &entity.kind {
            EntityKind::Defined(d) => pebble_model::definitions::builtin::kinds()
                .kind(&d.kind)
                .and_then(|k| k.lump.as_ref())
                .map_or("game_entities", |r| r.tag())
                .to_owned(),
            _ => pebble_io::export::written_to(kind).to_owned(),
        };
        ui.label(format!("{}  ·  {}", entity.kind.label(), id))
            .on_hover_text(format!("in the exported map: {written}"));
        self.prefab_ui(ui, scene, entity);
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
        if let Some((k, v)) = form.row(
            ui,
            "rotation",
            &parts,
            rotation,
            "(pitch, yaw, roll)",
            RowName::Above,
        ) {
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
            EntityKind::Custom(c) => gameplay::custom_ui(ui, c),
            EntityKind::Defined(_) => {
                self.defined_ui(ui, scene, &[entity]);
                false
            }
            EntityKind::Walkable(m) => {
                ui.label(format!(
                    "walkable surface: {} triangles (exported to walkable_mesh, never drawn)",
                    m.faces.len()
                ));
                false
            }
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
    pub(super) fn emitter_presets_ui(
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
    pub(super) fn save_as_preset_ui(
        &mut self,
        ui: &mut egui::Ui,
        salt: (&str, u32),
    ) -> Option<String> {
        save_as_preset_field(ui, &mut self.preset_name, salt)
    }
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
