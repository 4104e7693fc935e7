//! Materials as the app carries them out: a new material (chosen in the Materials
//! panel once added), one from a texture, a picture from a file for a material,
//! and what a texture or material dropped on a face in the viewport does — which
//! faces it reaches ([`drop_targets`]) and the one undo step it is
//! ([`drop_command`]). Pictures dropped on the window from the desktop arrive here
//! too.

use std::path::{Path, PathBuf};

use pebble_model::command::{AddMaterial, ApplyMaterial, MaterialChoice, SetMaterial};
use pebble_model::entity::EntityKind;
use pebble_model::material::AlphaMode;
use pebble_model::{EntityId, Material, MaterialId, Scene};

use super::PebbleApp;
use pebble_panels::{AssetDrag, DropScope, FaceDrop, Pane};

/// The faces a drop on face `face` of `entity` reaches, by scope: the polygon
/// under it, the whole object, or every face of any mesh with the material that
/// face had.
pub fn drop_targets(
    scene: &Scene,
    entity: EntityId,
    face: usize,
    scope: DropScope,
) -> Result<Vec<(EntityId, Vec<usize>)>, String> {
    let e = scene
        .entity(entity)
        .ok_or_else(|| format!("entity {entity} is gone"))?;
    let EntityKind::Mesh(mesh) = &e.kind else {
        return Err(format!(
            "{} has no faces: drop a material on a mesh",
            e.name
        ));
    };
    let Some(hit) = mesh.geometry.faces.get(face) else {
        return Err(format!("{} has no face {face}", e.name));
    };
    Ok(match scope {
        DropScope::Face => vec![(entity, mesh.geometry.polygon_of(face))],
        DropScope::Object => vec![(entity, Vec::new())],
        DropScope::SameMaterial => {
            let old = hit.material;
            scene
                .entities()
                .filter_map(|e| match &e.kind {
                    EntityKind::Mesh(m) => {
                        let faces: Vec<usize> = (0..m.geometry.faces.len())
                            .filter(|&i| m.geometry.faces[i].material == old)
                            .collect();
                        (!faces.is_empty()).then_some((e.id, faces))
                    }
                    _ => None,
                })
                .collect()
        }
    })
}

/// The material a dropped texture gives a face: the project's material with that
/// texture when there is one, else a new one `make` builds for it.
pub fn texture_choice(
    scene: &Scene,
    texture: &str,
    make: impl FnOnce() -> Result<Material, String>,
) -> Result<MaterialChoice, String> {
    match scene
        .materials()
        .find(|(_, m)| m.texture.as_deref() == Some(texture))
    {
        Some((id, _)) => Ok(MaterialChoice::Existing(id)),
        None => make().map(|mut m| {
            m.name = scene.free_material_name(&m.name);
            MaterialChoice::New(m)
        }),
    }
}

/// The undo step a drop is: `make` builds the material for a texture no
/// material has yet.
pub fn drop_command(
    scene: &Scene,
    drop: &FaceDrop,
    make: impl FnOnce(&str) -> Result<Material, String>,
) -> Result<ApplyMaterial, String> {
    let Some((entity, face)) = drop.target else {
        return Err("nothing under the pointer: drop it on a face".into());
    };
    let targets = drop_targets(scene, entity, face, drop.scope)?;
    let choice = match &drop.what {
        AssetDrag::Material(id) => {
            if scene.material(*id).is_none() {
                return Err(format!("material #{} is gone", id.0));
            }
            MaterialChoice::Existing(*id)
        }
        AssetDrag::Texture(path) => texture_choice(scene, path, || make(path))?,
        AssetDrag::Prefab(_) => return Err("a prefab is placed, not put on a face".into()),
    };
    Ok(ApplyMaterial::new(targets, choice))
}

/// A picture as a material of the project at `project` (its file): referenced in
/// place when it lies in the project's folder, else copied into `textures/`.
pub fn material_from_picture(project: &Path, picture: &Path) -> Result<Material, String> {
    let folder = pebble_model::project::folder_of(project);
    pebble_io::import::image_file::texture_material(picture, &folder)
        .map(|(m, _)| m)
        .map_err(|e| e.to_string())
}

/// A material showing `texture`, a texture the project at `project` already has
/// (its path kept as it is written).
pub fn material_from_project_texture(project: &Path, texture: &str) -> Result<Material, String> {
    let file = pebble_model::project::resolve_asset(project, texture);
    material_from_picture(project, &file).map(|mut m| {
        m.texture = Some(texture.to_string());
        m
    })
}

impl PebbleApp {
    /// Adds `material` as one step and chooses it in the Materials panel.
    pub(super) fn new_material(&mut self, material: Material) {
        let name = material.name.clone();
        let before: Vec<MaterialId> = self.doc.scene().materials().map(|(id, _)| id).collect();
        match self.doc.execute(AddMaterial::new(material)) {
            Ok(()) => {
                let added = self
                    .doc
                    .scene()
                    .materials()
                    .map(|(id, _)| id)
                    .find(|id| !before.contains(id));
                self.panels.materials.selected = added;
                self.panels.raise(Pane::Materials);
                self.status.info(format!("added the material {name}"));
            }
            Err(e) => self.status.error(e.to_string()),
        }
    }

    /// New from texture: a material showing the project texture `texture`.
    pub(super) fn new_material_from_texture(&mut self, texture: String) {
        match material_from_project_texture(self.doc.path(), &texture) {
            Ok(mut m) => {
                m.name = self.doc.scene().free_material_name(&m.name);
                self.new_material(m);
            }
            Err(e) => self.status.error(format!("cannot make a material: {e}")),
        }
    }

    /// A picture was chosen in the file dialog: the texture of `target`, or a new
    /// material.
    pub(super) fn chose_texture(&mut self, picture: PathBuf, target: Option<MaterialId>) {
        let made = match material_from_picture(self.doc.path(), &picture) {
            Ok(m) => m,
            Err(e) => {
                self.status.error(format!(
                    "cannot use {} as a texture: {e}",
                    picture.display()
                ));
                return;
            }
        };
        self.panels
            .thumbnails
            .forget(made.texture.as_deref().unwrap_or(""));
        match target.and_then(|id| self.doc.scene().material(id).map(|m| (id, m.clone()))) {
            Some((id, mut m)) => {
                m.texture = made.texture;
                // A picture with holes is cut out unless the material blends.
                if m.alpha == AlphaMode::None {
                    m.alpha = made.alpha;
                }
                self.run_command(SetMaterial::new(id, m));
            }
            None => {
                let mut m = made;
                m.name = self.doc.scene().free_material_name(&m.name);
                self.new_material(m);
            }
        }
    }

    /// A texture or material dropped in the viewport: one undo step.
    pub(super) fn drop_on_face(&mut self, drop: FaceDrop) {
        let project = self.doc.path().to_path_buf();
        let made = drop_command(self.doc.scene(), &drop, |texture| {
            material_from_project_texture(&project, texture)
        });
        let command = match made {
            Ok(c) => c,
            Err(e) => {
                // A texture dropped on nothing still becomes a material to use.
                if drop.target.is_none()
                    && let AssetDrag::Texture(t) = drop.what
                {
                    self.new_material_from_texture(t);
                } else {
                    self.status.warn(e);
                }
                return;
            }
        };
        let name = pebble_model::Command::name(&command);
        match self.doc.execute(command) {
            Ok(()) => self.status.info(name),
            Err(e) => self.status.error(e.to_string()),
        }
    }

    /// Files dropped on the window from the desktop: pictures become textures
    /// (on the face under the pointer, else a new material), models come in at
    /// the surface under the pointer through the import window.
    pub(super) fn dropped_files(
        &mut self,
        files: Vec<PathBuf>,
        target: Option<(EntityId, usize)>,
        at: Option<pebble_model::glam::Vec3>,
        scope: DropScope,
    ) {
        for path in files {
            if pebble_panels::thumbnails::is_image(&path) {
                match material_from_picture(self.doc.path(), &path) {
                    Ok(m) => {
                        let texture = m.texture.clone().unwrap_or_default();
                        self.panels.thumbnails.forget(&texture);
                        if target.is_some() {
                            self.drop_on_face(FaceDrop {
                                what: AssetDrag::Texture(texture),
                                target,
                                scope,
                            });
                        } else {
                            let mut m = m;
                            m.name = self.doc.scene().free_material_name(&m.name);
                            self.new_material(m);
                        }
                    }
                    Err(e) => self
                        .status
                        .error(format!("cannot use {} as a texture: {e}", path.display())),
                }
            } else if super::import_dialog::is_model(&path) {
                match at {
                    Some(at) => {
                        self.windows.import =
                            Some(super::import_dialog::ImportDialog::open(path, at))
                    }
                    None => self.chose_import(path),
                }
            } else if pebble_io::import::IMPORT_EXTENSIONS.iter().any(|e| {
                path.extension()
                    .is_some_and(|x| x.to_string_lossy().eq_ignore_ascii_case(e))
            }) {
                self.import_path(path);
            } else {
                self.status.warn(format!(
                    "{} was dropped, but Pebble reads {}",
                    path.display(),
                    pebble_io::import::supported_extensions()
                ));
            }
        }
    }
}
