//! Texture stage: every material's texture loaded, resized to a power of two no
//! larger than the export setting (Lanczos-free: a triangle (bilinear) filter, which
//! keeps pixel art soft-edged but never rings), stored as RGBA5551 (opaque and cutout,
//! alpha threshold 50 %) or RGBA8888 (blend), and deduplicated by content.

use std::collections::HashMap;

use pbm::{AlphaMode as PbmAlpha, TextureFormat};
use pebble_model::MaterialId;
use pebble_model::material::AlphaMode;

use super::{ExportError, Run};

/// The textures of the map and which one each material uses.
#[derive(Debug, Clone, Default)]
pub(crate) struct Textures {
    pub textures: Vec<pbm::Texture>,
    pub by_material: HashMap<MaterialId, i32>,
    /// Texture id of a project-relative path (for emitters).
    pub by_path: HashMap<(String, AlphaMode), i32>,
}

fn pot_at_most(n: u32, max: u32) -> u32 {
    n.max(1).next_power_of_two().min(max).max(1)
}

fn unique_name(textures: &[pbm::Texture], base: &str) -> pbm::Name32 {
    let base: String = base
        .chars()
        .filter(|c| c.is_ascii_graphic())
        .take(28)
        .collect();
    let base = if base.is_empty() {
        "Texture".to_owned()
    } else {
        base
    };
    let mut name = base.clone();
    let mut k = 1;
    while textures.iter().any(|t| t.name.as_str() == name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    pbm::Name32::truncated(&name)
}

pub(crate) fn build(run: &mut Run<'_>) -> Result<Textures, ExportError> {
    let mut out = Textures::default();
    let mut by_content: HashMap<(Vec<u8>, u16, u16, u16), i32> = HashMap::new();
    for (id, m) in run.scene.materials() {
        run.check_cancel()?;
        let Some(rel) = &m.texture else { continue };
        let tid = load(run, &mut out, &mut by_content, rel, m.alpha, &m.name)?;
        out.by_material.insert(id, tid);
    }
    // Emitter textures: standalone, blended when they have any transparency.
    for e in run.scene.entities_of(pebble_model::Kind::Emitter) {
        if let pebble_model::EntityKind::Emitter(em) = &e.kind
            && let Some(rel) = &em.texture
            && !out.by_path.keys().any(|(p, _)| p == rel)
        {
            let path = run.options.project_dir.join(rel);
            let translucent = image::open(&path)
                .map(|i| i.to_rgba8().pixels().any(|p| p.0[3] < 255))
                .unwrap_or(false);
            let alpha = if translucent {
                AlphaMode::Blend
            } else {
                AlphaMode::None
            };
            load(run, &mut out, &mut by_content, rel, alpha, &e.name)?;
        }
    }
    Ok(out)
}

fn load(
    run: &mut Run<'_>,
    out: &mut Textures,
    by_content: &mut HashMap<(Vec<u8>, u16, u16, u16), i32>,
    rel: &str,
    alpha_mode: AlphaMode,
    owner: &str,
) -> Result<i32, ExportError> {
    if let Some(tid) = out.by_path.get(&(rel.to_owned(), alpha_mode)) {
        return Ok(*tid);
    }
    let max = run.scene.settings().export.max_texture_size.clamp(16, 512);
    {
        let path = run.options.project_dir.join(rel);
        let img = image::open(&path)
            .map_err(|e| ExportError::Texture {
                material: owner.to_owned(),
                path: path.clone(),
                message: e.to_string(),
            })?
            .to_rgba8();
        let (w, h) = (
            pot_at_most(img.width(), max),
            pot_at_most(img.height(), max),
        );
        let img = if (w, h) != img.dimensions() {
            run.report.warnings.push(format!(
                "texture {rel}: {}×{} resized to {w}×{h} (triangle filter)",
                img.width(),
                img.height()
            ));
            image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle)
        } else {
            img
        };
        let (format, alpha) = match alpha_mode {
            AlphaMode::Blend => (TextureFormat::Rgba8888, PbmAlpha::Blend),
            AlphaMode::Cutout => (TextureFormat::Rgba5551, PbmAlpha::Cutout),
            AlphaMode::None => (TextureFormat::Rgba5551, PbmAlpha::None),
        };
        let mut rgba = img.into_raw();
        if alpha_mode == AlphaMode::None {
            for px in rgba.chunks_exact_mut(4) {
                px[3] = 255;
            }
        }
        let data = pbm::texture::encode(&rgba, format);
        let key = (data, w as u16, h as u16, alpha.code());
        let tid = match by_content.get(&key) {
            Some(t) => *t,
            None => {
                let stem = std::path::Path::new(rel)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let name = unique_name(&out.textures, &stem);
                out.textures.push(pbm::Texture {
                    name,
                    width: w as u16,
                    height: h as u16,
                    format,
                    alpha_mode: alpha,
                    data: key.0.clone(),
                });
                let t = (out.textures.len() - 1) as i32;
                by_content.insert(key, t);
                t
            }
        };
        out.by_path.insert((rel.to_owned(), alpha_mode), tid);
        Ok(tid)
    }
}
