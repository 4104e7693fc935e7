//! Image import (PNG, JPEG, TGA, BMP): the file is copied into the project as it is
//! (conversion happens at export) and becomes a material on a plane of the image's
//! aspect, one metre deep, showing the picture once and upright seen from its front
//! (above, with -Z ahead: the image's top row at the far edge).

use std::path::Path;

use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::material::AlphaMode;
use pebble_model::{Entity, Material, MaterialId, Primitive};

use super::textures::{self, safe_name};
use super::{ImportCommand, ImportError, ImportOptions, ImportReport, Imported};

/// The picture at `path`, decoded whatever its extension says.
fn decode(path: &Path) -> Result<image::DynamicImage, ImportError> {
    image::ImageReader::open(path)
        .map_err(|source| ImportError::Read {
            path: path.to_owned(),
            cause: source,
        })?
        .with_guessed_format()
        .map_err(|source| ImportError::Read {
            path: path.to_owned(),
            cause: source,
        })?
        .decode()
        .map_err(|e| {
            ImportError::format(
                path,
                format!("cannot decode the image: {e} (PNG, JPEG, TGA or BMP are read)"),
            )
        })
}

pub fn import(path: &Path, options: &ImportOptions) -> Result<Imported, ImportError> {
    let img = decode(path)?;
    let (w, h) = (img.width(), img.height());
    let mut report = ImportReport::default();
    if !(w.is_power_of_two() && h.is_power_of_two()) {
        report.warnings.push(format!(
            "{w}×{h} is not a power of two; the export resizes it"
        ));
    }
    let has_alpha = img.color().has_alpha() && img.to_rgba8().pixels().any(|p| p.0[3] < 255);
    let stem = path
        .file_stem()
        .map(|s| safe_name(&s.to_string_lossy()))
        .unwrap_or_else(|| "image".into());
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    // Keep the source file in the project, byte for byte.
    let bytes = std::fs::read(path).map_err(|source| ImportError::Read {
        path: path.to_owned(),
        cause: source,
    })?;
    let (rel, written) = textures::keep_bytes(&options.project_dir, &stem, &ext, &bytes)?;
    if written {
        report.textures_written.push(rel.clone());
    }
    let rel = Some(rel);
    let material = Material {
        name: stem.clone(),
        texture: rel,
        alpha: if has_alpha {
            AlphaMode::Cutout
        } else {
            AlphaMode::None
        },
        // One repeat over the whole plane (its width is the aspect, in metres):
        // the picture once, not tiled across a wide image.
        tiling: pebble_model::glam::Vec2::new(w as f32 / h.max(1) as f32, 1.0),
        ..Material::default()
    };
    let aspect = w as f32 / h.max(1) as f32;
    let plane = Primitive::Plane {
        width: aspect,
        depth: 1.0,
        standoff: 0.0,
    };
    let geometry = plane
        .generate(MaterialId(0))
        .map_err(|e| ImportError::format(path, e.to_string()))?;
    let entity = Entity::new(
        stem.clone(),
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Primitive(plane),
            geometry,
            collidable: false,
        }),
    );
    report.materials = 1;
    report.entities.insert(pebble_model::Kind::Mesh, 1);
    Ok(Imported {
        command: ImportCommand::new(format!("Import {stem}"), vec![material], vec![entity], None),
        report,
    })
}

/// An image file as a material for surfaces (Materials › New from texture, a
/// picture dropped on the window): the file is referenced where it is when it lies
/// in the project's folder, else copied into the project's `textures/`; the
/// material is named after it, cut out when the picture has transparent texels,
/// and repeats once per metre. Returns the material and whether a file was written.
pub fn texture_material(path: &Path, project_dir: &Path) -> Result<(Material, bool), ImportError> {
    let img = decode(path)?;
    let has_alpha = img.color().has_alpha() && img.to_rgba8().pixels().any(|p| p.0[3] < 255);
    let stem = path
        .file_stem()
        .map(|s| safe_name(&s.to_string_lossy()))
        .unwrap_or_else(|| "image".into());
    let inside = std::fs::canonicalize(path)
        .ok()
        .zip(std::fs::canonicalize(project_dir).ok())
        .and_then(|(file, dir)| {
            file.strip_prefix(&dir).ok().map(|rel| {
                rel.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/")
            })
        });
    let (rel, written) = match inside {
        Some(rel) => (rel, false),
        None => {
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_else(|| "png".into());
            let bytes = std::fs::read(path).map_err(|source| ImportError::Read {
                path: path.to_owned(),
                cause: source,
            })?;
            textures::keep_bytes(project_dir, &stem, &ext, &bytes)?
        }
    };
    Ok((
        Material {
            name: stem,
            texture: Some(rel),
            alpha: if has_alpha {
                AlphaMode::Cutout
            } else {
                AlphaMode::None
            },
            ..Material::default()
        },
        written,
    ))
}
