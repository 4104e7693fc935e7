//! The Materials panel: every material of the project with its thumbnail (the
//! texture, or its colour), its name and how many objects use it, a search field,
//! and New material, New from texture, Duplicate, Delete unused; the chosen one is
//! edited below in the material editor. A material is dragged from here onto a
//! face in the viewport. The panel owns its choice and search; every change is an
//! intent.

use std::path::Path;

use pebble_model::command::RemoveMaterials;
use pebble_model::{Material, MaterialId, Scene};

use super::inspector::material::{MaterialContext, MaterialEditor};
use super::thumbnails::{SIDE, Thumbnails};
use pebble_core::intent::{AssetDrag, Intent};
use pebble_core::presets::Presets;

#[derive(Debug, Default)]
pub struct MaterialsPanel {
    /// The material being edited.
    pub selected: Option<MaterialId>,
    search: String,
    editor: MaterialEditor,
}

/// What the panel reads.
#[derive(Debug, Clone, Copy)]
pub struct MaterialsContext<'a> {
    pub scene: &'a Scene,
    /// The project file (textures resolve against its folder).
    pub project: &'a Path,
    pub presets: &'a Presets,
    pub textures: &'a [String],
}

/// Whether material `m` matches the search text (name or texture, any case).
fn matches(m: &Material, search: &str) -> bool {
    let search = search.trim().to_lowercase();
    search.is_empty()
        || m.name.to_lowercase().contains(&search)
        || m.texture
            .as_deref()
            .is_some_and(|t| t.to_lowercase().contains(&search))
}

impl MaterialsPanel {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        cx: MaterialsContext,
        thumbs: &mut Thumbnails,
    ) -> Vec<Intent> {
        let mut intents = Vec::new();
        if ui.input(|i| i.pointer.any_released()) {
            intents.push(Intent::EndEdit);
        }
        let scene = cx.scene;
        if self.selected.is_some_and(|id| scene.material(id).is_none()) {
            self.selected = None;
        }
        ui.horizontal_wrapped(|ui| {
            if ui.button("New material").clicked() {
                intents.push(Intent::NewMaterial(Material {
                    name: scene.free_material_name("Material"),
                    ..Material::default()
                }));
            }
            ui.menu_button("New from texture", |ui| {
                for t in cx.textures {
                    if ui.button(t).clicked() {
                        intents.push(Intent::NewMaterialFromTexture(t.clone()));
                        ui.close();
                    }
                }
                if !cx.textures.is_empty() {
                    ui.separator();
                }
                if ui.button("From a file…").clicked() {
                    intents.push(Intent::PickTexture(None));
                    ui.close();
                }
            });
            let chosen = self
                .selected
                .and_then(|id| scene.material(id).map(|m| (id, m)));
            if ui
                .add_enabled(chosen.is_some(), egui::Button::new("Duplicate"))
                .clicked()
                && let Some((_, m)) = chosen
            {
                intents.push(Intent::NewMaterial(Material {
                    name: scene.free_material_name(&format!("{} copy", m.name)),
                    ..m.clone()
                }));
            }
            let unused = RemoveMaterials::unused(scene);
            let hint = if unused.is_empty() {
                "every material is used".to_string()
            } else {
                "deletes every material no face uses (one undo step)".to_string()
            };
            if ui
                .add_enabled(!unused.is_empty(), egui::Button::new("Delete unused"))
                .on_hover_text(hint)
                .on_disabled_hover_text("every material is used")
                .clicked()
            {
                intents.push(Intent::Execute(Box::new(unused)));
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("search");
            ui.add(
                egui::TextEdit::singleline(&mut self.search)
                    .hint_text("name or texture")
                    .desired_width(160.0),
            )
            .labelled_by(l.id);
        });
        ui.weak("drag one onto a face (Shift: the whole object, Alt: every face with that face's material)");
        let ctx = ui.ctx().clone();
        let list_height = (ui.available_height() * 0.45).max(120.0);
        egui::ScrollArea::vertical()
            .id_salt("materials list")
            .max_height(list_height)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for (id, m) in scene.materials() {
                    if !matches(m, &self.search) {
                        continue;
                    }
                    let (objects, _) = scene.material_use(id);
                    ui.horizontal(|ui| {
                        let size = egui::vec2(SIDE as f32 * 0.66, SIDE as f32 * 0.66);
                        let tint = egui::Rgba::from_rgba_unmultiplied(
                            m.color[0], m.color[1], m.color[2], 1.0,
                        );
                        // The thumbnail is a handle like the name: a click chooses
                        // the material, a drag carries it onto a face (a drag from
                        // the picture did nothing).
                        let thumb = match m
                            .texture
                            .as_deref()
                            .map(|t| thumbs.get(&ctx, cx.project, t))
                        {
                            Some(Ok((t, _))) => ui.add(
                                egui::Image::new((t.id(), size))
                                    .tint(tint)
                                    .sense(egui::Sense::click_and_drag()),
                            ),
                            Some(Err(_)) => {
                                let (r, p) =
                                    ui.allocate_painter(size, egui::Sense::click_and_drag());
                                p.rect_filled(r.rect, 2.0, egui::Color32::from_rgb(200, 0, 200));
                                r.on_hover_text("its texture is missing")
                            }
                            None => {
                                let (r, p) =
                                    ui.allocate_painter(size, egui::Sense::click_and_drag());
                                p.rect_filled(r.rect, 2.0, egui::Color32::from(tint));
                                r
                            }
                        };
                        if thumb.clicked() {
                            self.selected = Some(id);
                        }
                        thumb.dnd_set_drag_payload(AssetDrag::Material(id));
                        let label = format!(
                            "{}  ·  {objects} object{}",
                            m.name,
                            if objects == 1 { "" } else { "s" }
                        );
                        let r = ui.add(
                            egui::Button::selectable(self.selected == Some(id), label)
                                .sense(egui::Sense::click_and_drag()),
                        );
                        if r.clicked() {
                            self.selected = Some(id);
                        }
                        r.dnd_set_drag_payload(AssetDrag::Material(id));
                    });
                }
            });
        ui.separator();
        match self.selected {
            Some(id) => {
                let users: Vec<_> = {
                    let mut u: Vec<_> = scene
                        .material_users(id)
                        .into_iter()
                        .map(|(e, _)| e)
                        .collect();
                    u.dedup();
                    u
                };
                if ui
                    .add_enabled(!users.is_empty(), egui::Button::new("Select its objects"))
                    .clicked()
                {
                    intents.push(Intent::Select(users));
                }
                let mcx = MaterialContext {
                    scene,
                    presets: cx.presets,
                    textures: cx.textures,
                };
                egui::ScrollArea::vertical()
                    .id_salt("material editor")
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.editor.ui(ui, mcx, id, &mut intents));
            }
            None => {
                ui.weak("Choose a material to edit it.");
            }
        }
        intents
    }
}
