//! Texture stage: every material's texture loaded, resized to a power of two no
//! larger than the export setting (Lanczos-free: a triangle (bilinear) filter, which
//! keeps pixel art soft-edged but never rings), stored as RGBA5551 (opaque and cutout,
//! alpha threshold 50 %) or RGBA8888 (blend), and deduplicated by content.

use std::collections::{HashMap, HashSet};

use pbm::{AlphaMode as PbmAlpha, TextureFormat};
use pebble_model::MaterialId;
use pebble_model::material::{AlphaMode, Sampling};

use super::limits::Ticker;
use super::{ExportError, Run};

/// The textures of the map and which one each material uses.
#[derive(Debug, Clone, Default)]
pub(crate) struct Textures {
    pub textures: Vec<pbm::Texture>,
    pub by_material: HashMap<MaterialId, i32>,
    /// Texture id of a project-relative path (for emitters), by alpha and sampling.
    pub by_path: HashMap<(String, AlphaMode, Sampling), i32>,
    /// How each texture that differs from the default wraps and filters (the
    /// `samplers` lump).
    pub samplers: Vec<pbm::sampler::Sampler>,
    /// Atlas slot of a tile material: u0, v0, width, height in atlas UV.
    pub slots: HashMap<MaterialId, [f32; 4]>,
}

/// Side of a tile atlas.
pub const ATLAS_SIDE: u32 = 512;
/// The largest tile side an atlas slot takes as it is (larger ones are shrunk).
pub const ATLAS_TILE_MAX: u32 = ATLAS_SIDE / 2;

/// The tile materials (of `tiles`) that some face uses with UVs (in repeats) outside
/// [0, 1]: their tile cannot live in an atlas slot (which cannot repeat). One pass
/// over the scene's faces, looking at the cancel flag as it goes.
fn leaving_unit(
    run: &Run<'_>,
    tiles: &HashMap<MaterialId, &pebble_model::Material>,
) -> Result<HashSet<MaterialId>, ExportError> {
    const EPS: f32 = 1e-4;
    let mut out = HashSet::new();
    if tiles.is_empty() {
        return Ok(out);
    }
    let mut ticker = Ticker::new(run.cancel);
    for e in run.scene.exported_entities() {
        let pebble_model::EntityKind::Mesh(mesh) = &e.kind else {
            continue;
        };
        for f in &mesh.geometry.faces {
            ticker.tick()?;
            let Some(m) = tiles.get(&f.material) else {
                continue;
            };
            let inside = f.uvs.iter().all(|uv| {
                let r = m.repeats(*uv);
                (-EPS..=1.0 + EPS).contains(&r.x) && (-EPS..=1.0 + EPS).contains(&r.y)
            });
            if !inside {
                out.insert(f.material);
            }
        }
    }
    Ok(out)
}

/// Refuses textures that, with what the estimate found, take more than a PSP holds.
fn check_room(run: &Run<'_>, out: &Textures) -> Result<(), ExportError> {
    let textures: u64 = out
        .textures
        .iter()
        .map(|t| (pbm::format::TEXTURE_HEADER_SIZE + t.data.len()) as u64)
        .sum();
    let limits = run.options.limits;
    let total = textures.saturating_add(run.estimate.bytes);
    if total > limits.max_bytes {
        return Err(ExportError::MapTooLarge {
            bytes: total,
            detail: format!(
                "at least: textures {} ({} of them so far), meshes, colliders and walkable surfaces {}",
                super::capacity::mib(textures),
                out.textures.len(),
                super::capacity::mib(run.estimate.bytes)
            ),
            limits,
        });
    }
    Ok(())
}

/// Packs tile materials into `TileAtlas_<n>` textures (shelf packing with etagere),
/// largest tiles first; opaque and cutout tiles go to separate atlases.
fn pack_atlases(
    run: &mut Run<'_>,
    out: &mut Textures,
    tiles: Vec<(MaterialId, String, AlphaMode)>,
) -> Result<(), ExportError> {
    for class in [AlphaMode::None, AlphaMode::Cutout] {
        let mut images = Vec::new();
        for (id, rel, alpha) in tiles.iter().filter(|t| t.2 == class) {
            run.check_cancel()?;
            let path = run.options.project_dir.join(rel);
            let img = image::open(&path)
                .map_err(|e| ExportError::Texture {
                    material: format!("#{}", id.0),
                    path: path.clone(),
                    message: e.to_string(),
                })?
                .to_rgba8();
            let (w, h) = (
                pot_at_most(img.width(), ATLAS_SIDE / 2),
                pot_at_most(img.height(), ATLAS_SIDE / 2),
            );
            let img = if (w, h) != img.dimensions() {
                image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle)
            } else {
                img
            };
            images.push((*id, *alpha, img));
        }
        // Largest first, then material id: deterministic and packs well.
        images.sort_by_key(|(id, _, img)| (std::cmp::Reverse(img.width() * img.height()), *id));
        let mut atlases: Vec<(etagere::AtlasAllocator, image::RgbaImage)> = Vec::new();
        let mut placed = Vec::new();
        for (id, _, img) in &images {
            run.check_cancel()?;
            let size = etagere::size2(img.width() as i32, img.height() as i32);
            let spot = atlases
                .iter_mut()
                .enumerate()
                .find_map(|(k, (a, _))| a.allocate(size).map(|r| (k, r.rectangle.min)));
            let (k, at) = match spot {
                Some(s) => s,
                None => {
                    let mut a = etagere::AtlasAllocator::new(etagere::size2(
                        ATLAS_SIDE as i32,
                        ATLAS_SIDE as i32,
                    ));
                    let r = a.allocate(size).ok_or_else(|| ExportError::Texture {
                        material: format!("#{}", id.0),
                        path: Default::default(),
                        message: "a tile does not fit an empty atlas".into(),
                    })?;
                    atlases.push((a, image::RgbaImage::new(ATLAS_SIDE, ATLAS_SIDE)));
                    (atlases.len() - 1, r.rectangle.min)
                }
            };
            image::imageops::replace(&mut atlases[k].1, img, i64::from(at.x), i64::from(at.y));
            placed.push((*id, k, at, img.width(), img.height()));
        }
        // Each atlas shrinks to the smallest power-of-two rectangle that holds its
        // tiles (at least 16×8, the runtime's smallest texture): one 128×64
        // billboard costs 16 KiB, not a 512×512 atlas's 512 KiB.
        let mut sides = vec![(16u32, 8u32); atlases.len()];
        for &(_, k, at, w, h) in &placed {
            let (sw, sh) = &mut sides[k];
            *sw = (*sw).max((at.x as u32 + w).next_power_of_two());
            *sh = (*sh).max((at.y as u32 + h).next_power_of_two());
        }
        let first = out.textures.len();
        let existing = out.textures.iter().filter(|t| t.is_atlas()).count();
        for (n, (_, img)) in atlases.into_iter().enumerate() {
            run.check_cancel()?;
            let (aw, ah) = sides[n];
            let img = image::imageops::crop_imm(&img, 0, 0, aw, ah).to_image();
            let mut rgba = img.into_raw();
            if class == AlphaMode::None {
                for px in rgba.chunks_exact_mut(4) {
                    px[3] = 255;
                }
            }
            let alpha = if class == AlphaMode::Cutout {
                PbmAlpha::Cutout
            } else {
                PbmAlpha::None
            };
            out.textures.push(pbm::Texture {
                name: pbm::Name32::truncated(&format!("TileAtlas_{}", existing + n)),
                width: aw as u16,
                height: ah as u16,
                format: TextureFormat::Rgba5551,
                alpha_mode: alpha,
                data: pbm::texture::encode(&rgba, TextureFormat::Rgba5551),
            });
            check_room(run, out)?;
        }
        for (id, k, at, w, h) in placed {
            let (aw, ah) = (sides[k].0 as f32, sides[k].1 as f32);
            out.by_material.insert(id, (first + k) as i32);
            out.slots.insert(
                id,
                [
                    at.x as f32 / aw,
                    at.y as f32 / ah,
                    w as f32 / aw,
                    h as f32 / ah,
                ],
            );
        }
    }
    Ok(())
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
    // Texels, size, alpha and sampling: one texture sampled two ways is two textures.
    let mut by_content: HashMap<(Vec<u8>, u16, u16, u16, Sampling), i32> = HashMap::new();
    let mut tiles = Vec::new();
    let candidates: HashMap<MaterialId, &pebble_model::Material> = run
        .scene
        .materials()
        .filter(|(_, m)| m.tile && m.texture.is_some())
        .collect();
    let repeating = leaving_unit(run, &candidates)?;
    for (id, m) in run.scene.materials() {
        run.check_cancel()?;
        let Some(rel) = &m.texture else { continue };
        // Tiles go to atlases, except what an atlas cannot show.
        if m.tile {
            let why = if m.alpha == AlphaMode::Blend {
                Some("blended textures are never atlased")
            } else if m.scrolls() {
                Some("scrolling textures are never atlased")
            } else if repeating.contains(&id) {
                Some("its UVs leave [0, 1], which an atlas slot cannot repeat")
            } else if !m.sampling.is_default() {
                Some("it clamps or filters nearest, which an atlas slot cannot")
            } else {
                None
            };
            match why {
                None => {
                    tiles.push((id, rel.clone(), m.alpha));
                    continue;
                }
                Some(why) => run.report.warnings.push(format!(
                    "tile material '{}' stays a standalone texture: {why}",
                    m.name
                )),
            }
        }
        let tid = load(
            run,
            &mut out,
            &mut by_content,
            rel,
            m.alpha,
            m.sampling,
            &m.name,
        )?;
        out.by_material.insert(id, tid);
    }
    pack_atlases(run, &mut out, tiles)?;
    // Emitter textures: standalone, blended when they have any transparency.
    for e in run.scene.exported_of(pebble_model::Kind::Emitter) {
        run.check_cancel()?;
        if let pebble_model::EntityKind::Emitter(em) = &e.kind
            && let Some(rel) = &em.texture
            && !out.by_path.keys().any(|(p, _, _)| p == rel)
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
            load(
                run,
                &mut out,
                &mut by_content,
                rel,
                alpha,
                Sampling::default(),
                &e.name,
            )?;
        }
    }
    Ok(out)
}

fn load(
    run: &mut Run<'_>,
    out: &mut Textures,
    by_content: &mut HashMap<(Vec<u8>, u16, u16, u16, Sampling), i32>,
    rel: &str,
    alpha_mode: AlphaMode,
    sampling: Sampling,
    owner: &str,
) -> Result<i32, ExportError> {
    if let Some(tid) = out.by_path.get(&(rel.to_owned(), alpha_mode, sampling)) {
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
        run.check_cancel()?;
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
        run.check_cancel()?;
        let mut rgba = img.into_raw();
        if alpha_mode == AlphaMode::None {
            for px in rgba.chunks_exact_mut(4) {
                px[3] = 255;
            }
        }
        let data = pbm::texture::encode(&rgba, format);
        let key = (data, w as u16, h as u16, alpha.code(), sampling);
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
                if !sampling.is_default() {
                    out.samplers.push(pbm::sampler::Sampler {
                        texture: t as u16,
                        clamp_u: sampling.clamp_u,
                        clamp_v: sampling.clamp_v,
                        nearest: sampling.nearest,
                    });
                }
                by_content.insert(key, t);
                check_room(run, out)?;
                t
            }
        };
        out.by_path
            .insert((rel.to_owned(), alpha_mode, sampling), tid);
        Ok(tid)
    }
}
