//! What the panels and the viewport ask for ([`Intent`]s), carried out:
//! [`PebbleApp::apply`] is the one place their intents change the document, with
//! the presets they save and apply.

use eframe::egui;

use super::{PebbleApp, files};
use pebble_panels::Intent;
use pebble_panels::number_field;

impl PebbleApp {
    /// Opens the prefab `prefab` on its own in a new editor window (its file
    /// written first when the map's copy has none yet); the map's instances
    /// follow the file each time that window saves it.
    pub fn open_prefab_window(&mut self, prefab: pebble_model::prefab::PrefabId) {
        let folder = self.doc.folder();
        let file = match self.doc.prefabs.file_of(prefab) {
            Some(f) => f.to_path_buf(),
            None => {
                let Some(p) = self.doc.scene().prefab(prefab).cloned() else {
                    self.status.warn("that prefab is gone");
                    return;
                };
                let path = self.doc.prefabs.folder.path_for(&folder, &p);
                if let Err(e) = pebble_model::prefab::file::save(&path, &p) {
                    self.status
                        .error(format!("cannot write the prefab's file: {e}"));
                    return;
                }
                self.doc.prefabs.folder = pebble_model::prefab::file::Folder::read(&folder);
                path
            }
        };
        let exe = match std::env::current_exe() {
            Ok(exe) => exe,
            Err(e) => {
                self.status
                    .error(format!("cannot start another editor: {e}"));
                return;
            }
        };
        match std::process::Command::new(exe)
            .arg("open")
            .arg(&file)
            .spawn()
        {
            Ok(_) => self.status.info(format!(
                "opened {} in a new window: each save there reaches this map's instances",
                file.display()
            )),
            Err(e) => self
                .status
                .error(format!("cannot start another editor: {e}")),
        }
    }

    /// A new instance of `prefab` standing at `at` (else on the floor under
    /// where the view looks), selected.
    pub fn place_prefab(
        &mut self,
        prefab: pebble_model::prefab::PrefabId,
        at: Option<pebble_model::glam::Vec3>,
    ) {
        let Some(p) = self
            .doc
            .prefabs
            .placeable(self.doc.scene())
            .into_iter()
            .find(|p| p.id == prefab)
        else {
            self.status.warn("that prefab is gone");
            return;
        };
        let at = at.unwrap_or_else(|| {
            let pivot = self.viewport.view.goal().pivot;
            let floor =
                pebble_core::edit_ops::floor_below(self.doc.scene(), pivot, &[]).unwrap_or(pivot.y);
            pebble_model::glam::Vec3::new(pivot.x, floor, pivot.z)
        });
        match pebble_core::prefab_ops::place(&mut self.doc, &p, at) {
            Ok(_) => self.status.info(format!(
                "placed {}: edits inside it are its own; Ctrl+Enter edits the prefab",
                p.name
            )),
            Err(e) => self.status.warn(e),
        }
    }

    /// The intents a panel or the viewport returned, carried out in order as the
    /// frame does (tests and the fuzzer hand theirs here too).
    pub fn apply(&mut self, ctx: &egui::Context, intents: Vec<Intent>) {
        for intent in intents {
            let result = match intent {
                Intent::Execute(command) => self.doc.execute_boxed(command, None),
                Intent::Continue(command, key) => self.doc.execute_boxed(command, Some(key)),
                Intent::EndEdit => {
                    // A panel's release ends a panel's edit: the viewport's tools
                    // end theirs (copies placed after Edit › Duplicate keep
                    // following past the click that chose it).
                    if !self.doc.tool_edit_open() {
                        self.doc.end_edit();
                    }
                    Ok(())
                }
                Intent::Commit { command, field } => match self.doc.execute_boxed(command, None) {
                    // A refusal stays in red under the field, which keeps the text.
                    Err(e) if field.is_some() => {
                        if let Some(field) = field {
                            number_field::reject(ctx, field, e.to_string());
                        }
                        Ok(())
                    }
                    other => other,
                },
                Intent::Select(ids) => self.doc.select(ids),
                Intent::PlacePrefab { prefab, at } => {
                    self.place_prefab(prefab, at);
                    Ok(())
                }
                Intent::OpenPrefab(prefab) => {
                    self.open_prefab_window(prefab);
                    Ok(())
                }
                Intent::SetVisible(ids, visible) => {
                    self.doc.set_visible(&ids, visible);
                    Ok(())
                }
                Intent::JumpHistory(to) => {
                    if let Err(e) = self.doc.jump_to(to) {
                        self.status.error(format!("cannot redo: {e}"));
                    }
                    Ok(())
                }
                Intent::Run(action) => {
                    self.run_action(ctx, action);
                    Ok(())
                }
                Intent::SavePreset(preset) => {
                    self.save_preset(preset);
                    Ok(())
                }
                Intent::ApplyMaterialPreset { material, preset } => {
                    self.apply_material_preset(material, preset);
                    Ok(())
                }
                Intent::NewMaterial(m) => {
                    self.new_material(m);
                    Ok(())
                }
                Intent::NewMaterialFromTexture(t) => {
                    self.new_material_from_texture(t);
                    Ok(())
                }
                Intent::PickTexture(target) => {
                    self.open_dialog(files::DialogKind::Texture(target));
                    Ok(())
                }
                Intent::CancelEdit(key) => {
                    self.doc.cancel_edit(key);
                    Ok(())
                }
                Intent::Drop(drop) => {
                    self.drop_on_face(drop);
                    Ok(())
                }
                Intent::DroppedFiles {
                    files,
                    target,
                    at,
                    scope,
                } => {
                    self.dropped_files(files, target, at, scope);
                    Ok(())
                }
            };
            if let Err(e) = result {
                self.status.error(e.to_string());
            }
        }
    }

    /// Writes a user preset and lists it from now on.
    fn save_preset(&mut self, preset: pebble_panels::SavePreset) {
        use pebble_core::presets;
        let root = self.presets_root();
        let saved = match &preset {
            pebble_panels::SavePreset::Emitter(name, emitter) => presets::save(
                &root,
                presets::EMITTER_FOLDER,
                name,
                &presets::EmitterPreset {
                    name: name.clone(),
                    about: String::new(),
                    emitter: emitter.clone(),
                },
            ),
            pebble_panels::SavePreset::Material(name, material) => {
                presets::save_material(&root, &self.doc.folder(), name, material)
            }
            pebble_panels::SavePreset::Environment(p) => {
                presets::save(&root, presets::ENVIRONMENT_FOLDER, &p.name, p)
            }
            pebble_panels::SavePreset::Export(p) => {
                presets::save(&root, presets::EXPORT_FOLDER, &p.name, p)
            }
        };
        match saved {
            Ok(path) => {
                self.presets = presets::Presets::load(&root);
                self.status
                    .info(format!("saved the preset {}", path.display()));
            }
            Err(e) => self.status.error(e),
        }
    }

    /// A material preset's look on material `id`, its texture copied into the
    /// project; the material keeps its name. One undo step.
    fn apply_material_preset(&mut self, id: pebble_model::MaterialId, k: usize) {
        let Some(listed) = self.presets.materials.get(k) else {
            return;
        };
        let Some(current) = self.doc.scene().material(id) else {
            return;
        };
        match pebble_core::presets::material_for_project(listed, &self.doc.folder()) {
            Ok(mut m) => {
                let name = listed.preset.name.clone();
                m.name =
                    pebble_core::presets::name_after_preset(self.doc.scene(), &current.name, &name);
                self.run_command(pebble_model::command::SetMaterial::new(id, m));
                self.status.info(format!("material preset {name} applied"));
            }
            Err(e) => self.status.error(e),
        }
    }
}
