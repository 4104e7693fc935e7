//! glTF 2.0 import (`.gltf` with external or data-URI buffers, `.glb`).
//!
//! Node hierarchy and transforms; every triangle primitive (lists, strips, fans;
//! indexed or not) with POSITION, TEXCOORD_0 and COLOR_0 in any component type;
//! materials (baseColorTexture, baseColorFactor, alphaMode, doubleSided,
//! `extras.poi_uv_scroll`, KHR_texture_transform); embedded and external images;
//! KHR_lights_punctual. Named nodes become gameplay entities (see `notes/io.md`).
//! Accessors and buffer views are bounds-checked before they are read, so a broken
//! file is an error naming the accessor, never a panic.

use std::collections::HashMap;
use std::path::Path;

use base64::Engine as _;
use gltf::mesh::Mode;
use pebble_model::definitions::FieldValue;
use pebble_model::definitions::builtin::instance;
use pebble_model::entity::{Collider, Emitter, EntityKind, GeometrySource, Light, MeshEntity};
use std::f32::consts::FRAC_PI_2;

use pebble_model::glam::{Affine3A, Quat, Vec2, Vec3};
use pebble_model::material::{AlphaMode, Sampling};
use pebble_model::mesh::{Face, MeshData};
use pebble_model::{Entity, EntityId, Material, MaterialId, Transform};

/// The largest texture side the import offers to the tile atlas: what a slot of
/// it holds without shrinking (half the export's atlas side).
pub const ATLAS_TILE_MAX: u32 = crate::export::ATLAS_TILE_MAX;

use super::{
    ImportCommand, ImportError, ImportOptions, ImportReport, Imported, Progress, textures,
};

struct Ctx<'a> {
    path: &'a Path,
    document: &'a gltf::Document,
    buffers: Vec<Vec<u8>>,
    report: ImportReport,
    materials: Vec<Material>,
    /// glTF material index (None = default) → import material.
    material_map: HashMap<Option<usize>, MaterialId>,
    image_files: HashMap<usize, Option<String>>,
    entities: Vec<Entity>,
    next_local: u32,
    options: &'a ImportOptions,
}

fn fail(path: &Path, message: impl Into<String>) -> ImportError {
    ImportError::format(path, message)
}

/// What in `acc`'s layout the gltf crate's readers cannot take: no elements, a
/// sparse part with none, or a buffer view whose stride is shorter than one
/// element.
fn layout_problem(root: &gltf::json::Root, acc: &gltf::json::Accessor) -> Option<String> {
    use gltf::json::validation::Checked::Valid;
    if acc.count.0 == 0 {
        return Some("has no elements".into());
    }
    if let Some(sparse) = &acc.sparse
        && sparse.count.0 == 0
    {
        return Some("has a sparse part of no elements".into());
    }
    let (Valid(ty), Valid(component)) = (acc.type_, acc.component_type) else {
        return Some("has an unknown type".into());
    };
    let size = ty.multiplicity() * component.0.size();
    if let Some(view) = acc
        .buffer_view
        .and_then(|v| root.buffer_views.get(v.value()))
        && let Some(stride) = view.byte_stride
        && stride.0 < size
    {
        return Some(format!(
            "is read through buffer view {} with a stride of {} bytes, less than its elements' {size}",
            acc.buffer_view.map_or(0, |v| v.value()),
            stride.0
        ));
    }
    None
}

/// What is wrong with `acc` for the attribute `semantic`, when the importer reads
/// that attribute and the gltf crate's reader would assert on it; `None` when it
/// is fine or not read.
fn attribute_problem(
    semantic: &gltf::json::mesh::Semantic,
    acc: &gltf::json::Accessor,
) -> Option<String> {
    use gltf::json::accessor::{ComponentType as C, GenericComponentType as G, Type as T};
    use gltf::json::mesh::Semantic as S;
    use gltf::json::validation::Checked::Valid;
    let (Valid(ty), Valid(G(component))) = (acc.type_, acc.component_type) else {
        return Some("has an unknown type".into());
    };
    let float = component == C::F32;
    let wants = match semantic {
        S::Positions | S::Normals => (ty == T::Vec3 && float, "VEC3 of floats"),
        S::TexCoords(_) => (
            ty == T::Vec2 && (float || (acc.normalized && matches!(component, C::U8 | C::U16))),
            "VEC2 of floats, or of normalised unsigned bytes or shorts",
        ),
        S::Colors(_) => (
            matches!(ty, T::Vec3 | T::Vec4)
                && (float || (acc.normalized && matches!(component, C::U8 | C::U16))),
            "VEC3 or VEC4 of floats, or of normalised unsigned bytes or shorts",
        ),
        _ => return None,
    };
    (!wants.0).then(|| {
        format!(
            "is {ty:?} of {component:?}; the format asks for {}",
            wants.1
        )
    })
}

fn decode_data_uri(uri: &str) -> Option<Vec<u8>> {
    let rest = uri.strip_prefix("data:")?;
    let (_, data) = rest.split_once(";base64,")?;
    base64::engine::general_purpose::STANDARD.decode(data).ok()
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push(h << 4 | l);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn load_buffers(
    doc: &gltf::Document,
    blob: Option<Vec<u8>>,
    path: &Path,
) -> Result<Vec<Vec<u8>>, ImportError> {
    let mut blob = blob;
    let mut out = Vec::new();
    for b in doc.buffers() {
        let data = match b.source() {
            gltf::buffer::Source::Bin => blob.take().ok_or_else(|| {
                fail(
                    path,
                    format!(
                        "buffer {} refers to the GLB binary chunk, which is missing",
                        b.index()
                    ),
                )
            })?,
            gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => decode_data_uri(uri)
                .ok_or_else(|| {
                    fail(
                        path,
                        format!("buffer {}: the data URI is not base64", b.index()),
                    )
                })?,
            gltf::buffer::Source::Uri(uri) => {
                let file = path
                    .parent()
                    .unwrap_or(Path::new("."))
                    .join(percent_decode(uri));
                std::fs::read(&file).map_err(|source| ImportError::Read {
                    path: file.clone(),
                    cause: source,
                })?
            }
        };
        if data.len() < b.length() {
            return Err(fail(
                path,
                format!(
                    "buffer {} holds {} bytes, the file declares {}",
                    b.index(),
                    data.len(),
                    b.length()
                ),
            ));
        }
        out.push(data);
    }
    Ok(out)
}

/// Checks that every element of an accessor lies inside its buffer view and buffer.
fn check_accessor(a: &gltf::Accessor, buffers: &[Vec<u8>], path: &Path) -> Result<(), ImportError> {
    let what = |m: String| fail(path, format!("accessor {}: {m}", a.index()));
    if a.sparse().is_some() {
        return Err(what(
            "sparse accessors are not supported; export without sparse storage".into(),
        ));
    }
    let view = a.view().ok_or_else(|| what("has no buffer view".into()))?;
    let buffer = buffers
        .get(view.buffer().index())
        .ok_or_else(|| what("buffer missing".into()))?;
    let view_end = view
        .offset()
        .checked_add(view.length())
        .filter(|e| *e <= buffer.len());
    if view_end.is_none() {
        return Err(what(format!(
            "buffer view {} ({} bytes at {}) runs past its buffer ({} bytes)",
            view.index(),
            view.length(),
            view.offset(),
            buffer.len()
        )));
    }
    if a.count() == 0 {
        return Ok(());
    }
    let stride = view.stride().unwrap_or(a.size());
    let need = (a.count() - 1)
        .checked_mul(stride)
        .and_then(|x| x.checked_add(a.offset()))
        .and_then(|x| x.checked_add(a.size()));
    match need {
        Some(n) if n <= view.length() => Ok(()),
        _ => Err(what(format!(
            "{} elements of {} bytes (stride {stride}) from offset {} do not fit buffer view {} ({} bytes)",
            a.count(),
            a.size(),
            a.offset(),
            view.index(),
            view.length()
        ))),
    }
}

impl<'a> Ctx<'a> {
    fn add(&mut self, mut e: Entity, parent: Option<EntityId>) -> EntityId {
        e.id = EntityId(self.next_local);
        self.next_local += 1;
        e.parent = parent;
        let id = e.id;
        *self.report.entities.entry(e.kind.kind()).or_insert(0) += 1;
        self.entities.push(e);
        id
    }

    /// The image a texture shows: its `EXT_texture_webp` source when it has one
    /// (Godot 4 writes WebP that way, often with no other source), else its own.
    fn texture_image(&self, texture: &gltf::Texture<'a>) -> Option<gltf::Image<'a>> {
        texture
            .extension_value("EXT_texture_webp")
            .and_then(|v| v.get("source"))
            .and_then(serde_json::Value::as_u64)
            .and_then(|i| self.document.images().nth(i as usize))
            .or_else(|| texture.source())
    }

    fn image_file(&mut self, image: gltf::Image) -> Option<String> {
        if let Some(done) = self.image_files.get(&image.index()) {
            return done.clone();
        }
        let stem = self
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = image
            .name()
            .map(str::to_owned)
            .unwrap_or_else(|| format!("{stem}_image{}", image.index()));
        let (bytes, ext) = match image.source() {
            gltf::image::Source::View { view, mime_type } => {
                let data = self
                    .buffers
                    .get(view.buffer().index())
                    .and_then(|b| b.get(view.offset()..view.offset() + view.length()))
                    .map(<[u8]>::to_vec);
                (
                    data,
                    if mime_type.contains("jpeg") {
                        "jpg"
                    } else {
                        "png"
                    },
                )
            }
            gltf::image::Source::Uri { uri, .. } if uri.starts_with("data:") => (
                decode_data_uri(uri),
                if uri.starts_with("data:image/jpeg") {
                    "jpg"
                } else {
                    "png"
                },
            ),
            gltf::image::Source::Uri { uri, .. } => {
                let file = self
                    .path
                    .parent()
                    .unwrap_or(Path::new("."))
                    .join(percent_decode(uri));
                let ext = file
                    .extension()
                    .map(|e| e.to_string_lossy().to_ascii_lowercase())
                    .unwrap_or_else(|| "png".into());
                let data = std::fs::read(&file).ok();
                if data.is_none() {
                    self.report.warnings.push(format!(
                        "image {} ('{uri}') not found at {}: a placeholder texture is used",
                        image.index(),
                        file.display()
                    ));
                }
                (
                    data,
                    if ext == "jpg" || ext == "jpeg" {
                        "jpg"
                    } else {
                        "png"
                    },
                )
            }
        };
        // The project keeps PNG or JPEG: WebP (Godot 4's choice, EXT_texture_webp) is
        // decoded here and kept as PNG.
        let (bytes, ext) = match bytes {
            Some(b) if image::guess_format(&b).ok() == Some(image::ImageFormat::WebP) => {
                let png = image::load_from_memory(&b).ok().and_then(|img| {
                    let mut out = std::io::Cursor::new(Vec::new());
                    img.write_to(&mut out, image::ImageFormat::Png).ok()?;
                    Some(out.into_inner())
                });
                (png, "png")
            }
            other => (other, ext),
        };
        let rel = match bytes.filter(|b| image::load_from_memory(b).is_ok()) {
            Some(b) => self.keep_file(&name, ext, &b),
            None => {
                if !self
                    .report
                    .warnings
                    .iter()
                    .any(|w| w.contains(&format!("image {} ", image.index())))
                {
                    self.report.warnings.push(format!(
                        "image {} could not be decoded: a placeholder texture is used",
                        image.index()
                    ));
                }
                let checker: Vec<u8> = (0..16 * 16)
                    .flat_map(|i| {
                        if (i / 16 / 4 + i % 16 / 4) % 2 == 0 {
                            [255, 0, 255, 255]
                        } else {
                            [0, 0, 0, 255]
                        }
                    })
                    .collect();
                textures::write_png(
                    &self.options.project_dir,
                    &format!("missing_{name}"),
                    16,
                    16,
                    &checker,
                )
                .ok()
            }
        };
        if let Some(r) = &rel {
            self.report.textures_written.push(r.clone());
        }
        self.image_files.insert(image.index(), rel.clone());
        rel
    }

    fn keep_file(&mut self, name: &str, ext: &str, bytes: &[u8]) -> Option<String> {
        match textures::keep_bytes(&self.options.project_dir, name, ext, bytes) {
            Ok((rel, _)) => Some(rel),
            Err(e) => {
                self.report
                    .warnings
                    .push(format!("image '{name}' could not be kept: {e}"));
                None
            }
        }
    }

    fn material(&mut self, m: Option<gltf::Material>) -> MaterialId {
        let key = m.as_ref().and_then(|m| m.index());
        if let Some(id) = self.material_map.get(&key) {
            return *id;
        }
        let mut mat = Material::default();
        // Named by the file it came from, never "Default" (every import added
        // another "Default" to the Materials panel); a named one keeps its name.
        let source = self
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "model".to_owned());
        mat.name = source.clone();
        let unnamed = m.as_ref().is_some_and(|m| m.name().is_none());
        if let Some(m) = m {
            mat.name = m
                .name()
                .map(str::to_owned)
                .unwrap_or_else(|| format!("{source} {}", key.unwrap_or(0) + 1));
            let pbr = m.pbr_metallic_roughness();
            mat.color = pbr.base_color_factor();
            if let Some(info) = pbr.base_color_texture() {
                mat.texture = self
                    .texture_image(&info.texture())
                    .and_then(|image| self.image_file(image));
                mat.sampling = self.sampling(&mat.name, &info.texture().sampler());
                if let Some(t) = info.texture_transform() {
                    let s = Vec2::from(t.scale());
                    mat.tiling = Vec2::new(
                        if s.x != 0.0 { 1.0 / s.x } else { 1.0 },
                        if s.y != 0.0 { 1.0 / s.y } else { 1.0 },
                    );
                    mat.offset = Vec2::from(t.offset());
                    // The extension's rotation matrix is [[c, s], [−s, c]]: it turns
                    // UVs clockwise by its angle, the opposite of ours.
                    mat.rotation = -t.rotation();
                }
            }
            mat.alpha = match m.alpha_mode() {
                gltf::material::AlphaMode::Opaque => AlphaMode::None,
                gltf::material::AlphaMode::Mask => AlphaMode::Cutout,
                gltf::material::AlphaMode::Blend => AlphaMode::Blend,
            };
            mat.double_sided = m.double_sided();
            self.emission(&m, &mut mat);
            if let Some(raw) = m.extras() {
                let v: serde_json::Value = serde_json::from_str(raw.get()).unwrap_or_default();
                if let Some([u, v]) = v["poi_uv_scroll"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(serde_json::Value::as_f64)
                            .collect::<Vec<_>>()
                    })
                    .as_deref()
                    .and_then(|a| <&[f64; 2]>::try_from(a).ok())
                {
                    mat.uv_scroll = Vec2::new(*u as f32, *v as f32);
                }
            }
        }
        // An unnamed material is known by its texture, where it has one.
        if unnamed
            && let Some(texture) = &mat.texture
            && let Some(stem) = std::path::Path::new(texture).file_stem()
        {
            mat.name = stem.to_string_lossy().into_owned();
        }
        // A small texture is a candidate for the PSP's tile atlas by default (the
        // export still keeps blended, scrolling, repeating, clamped and
        // nearest-filtered ones standalone; the material editor can opt out): a map of many small tiles then binds one
        // texture instead of one per tile.
        mat.tile = mat.alpha != AlphaMode::Blend
            && mat.uv_scroll == Vec2::ZERO
            && mat.texture.as_ref().is_some_and(|t| {
                image::image_dimensions(self.options.project_dir.join(t))
                    .is_ok_and(|(w, h)| w.max(h) <= ATLAS_TILE_MAX)
            });
        let id = MaterialId(self.materials.len() as u32);
        self.materials.push(mat);
        self.material_map.insert(key, id);
        id
    }

    /// What a material gives off: `emissiveFactor` times
    /// `KHR_materials_emissive_strength`, and an `emissiveTexture`'s mean colour.
    /// The PSP has no emissive term: the bake adds the glow to the vertex colours,
    /// and the texture the surface shows becomes its base with the emissive
    /// texture added (a dark lava texture with a bright glow map shows the glow).
    fn emission(&mut self, m: &gltf::Material<'_>, mat: &mut Material) {
        let strength = m
            .extensions()
            .and_then(|x| x.get("KHR_materials_emissive_strength"))
            .and_then(|v| v.get("emissiveStrength"))
            .and_then(serde_json::Value::as_f64)
            .filter(|s| s.is_finite() && *s >= 0.0)
            .unwrap_or(1.0) as f32;
        let factor = Vec3::from(m.emissive_factor()) * strength;
        if factor.max_element() <= 0.0 || !factor.is_finite() {
            return;
        }
        let Some(info) = m.emissive_texture() else {
            mat.emissive = factor.to_array();
            return;
        };
        // The document's own texture (its lifetime is the document's).
        let texture = self.document.textures().nth(info.texture().index());
        let glow = texture
            .and_then(|t| self.texture_image(&t))
            .and_then(|image| self.image_file(image))
            .and_then(|rel| image::open(self.options.project_dir.join(&rel)).ok())
            .map(|img| img.to_rgba8());
        let Some(glow) = glow else {
            // An emissive texture that does not read: its factor alone.
            mat.emissive = factor.to_array();
            return;
        };
        let mean = mean_linear(&glow);
        mat.emissive = (factor * mean).to_array();
        // The texture shown: the base plus the glow (the glow alone where the
        // material has no base texture), written beside the others.
        let base = mat
            .texture
            .as_ref()
            .and_then(|rel| image::open(self.options.project_dir.join(rel)).ok())
            .map(|img| img.to_rgba8());
        let shown = add_glow(base.as_ref(), &glow, factor);
        let name = format!("{}_glow", mat.name);
        match super::textures::write_png(
            &self.options.project_dir,
            &name,
            shown.width(),
            shown.height(),
            shown.as_raw(),
        ) {
            Ok(rel) => {
                self.report.textures_written.push(rel.clone());
                if mat.texture.is_none() {
                    mat.color = [1.0; 4];
                }
                mat.texture = Some(rel);
            }
            Err(e) => self.report.warnings.push(format!(
                "material '{}': its glow could not be written into its texture ({e})",
                mat.name
            )),
        }
    }

    /// A glTF sampler as the GE can sample: repeat or clamp per axis (a mirrored
    /// repeat, which the GE lacks, repeats and is reported), nearest when the
    /// magnification filter says so.
    fn sampling(&mut self, material: &str, sampler: &gltf::texture::Sampler) -> Sampling {
        use gltf::texture::{MagFilter, WrappingMode};
        let mut clamp = |axis: &str, mode: WrappingMode| match mode {
            WrappingMode::ClampToEdge => true,
            WrappingMode::Repeat => false,
            WrappingMode::MirroredRepeat => {
                self.report.dropped.insert(format!(
                    "material '{material}': mirrored repeat along {axis} (the PSP repeats)"
                ));
                false
            }
        };
        Sampling {
            clamp_u: clamp("U", sampler.wrap_s()),
            clamp_v: clamp("V", sampler.wrap_t()),
            nearest: sampler.mag_filter() == Some(MagFilter::Nearest),
        }
    }

    fn mesh_data(&mut self, mesh: gltf::Mesh) -> Result<MeshData, ImportError> {
        let mut data = MeshData::default();
        let mut colors: Vec<[f32; 4]> = Vec::new();
        let mut any_color = false;
        let mut normals: Vec<Vec3> = Vec::new();
        let mut any_normal = false;
        for prim in mesh.primitives() {
            let at = format!("mesh {} primitive {}", mesh.index(), prim.index());
            let mode = prim.mode();
            if !matches!(
                mode,
                Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
            ) {
                self.report
                    .warnings
                    .push(format!("{at}: {mode:?} skipped (Pebble imports triangles)"));
                continue;
            }
            for (_, a) in prim.attributes() {
                check_accessor(&a, &self.buffers, self.path)?;
            }
            if let Some(a) = prim.indices() {
                check_accessor(&a, &self.buffers, self.path)?;
            }
            let buffers = &self.buffers;
            let reader = prim.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
            let positions: Vec<Vec3> = reader
                .read_positions()
                .ok_or_else(|| fail(self.path, format!("{at} has no POSITION")))?
                .map(Vec3::from)
                .collect();
            // The UV set the material's texture names (a second set is common for
            // exports with a lightmap or a detail texture).
            let set = prim
                .material()
                .pbr_metallic_roughness()
                .base_color_texture()
                .map_or(0, |info| info.tex_coord());
            let uvs: Option<Vec<Vec2>> = match reader.read_tex_coords(set) {
                Some(t) => Some(t.into_f32().map(Vec2::from).collect()),
                None if set != 0 => {
                    self.report.warnings.push(format!(
                        "{at}: its texture names TEXCOORD_{set}, which it lacks; TEXCOORD_0 is used"
                    ));
                    reader
                        .read_tex_coords(0)
                        .map(|t| t.into_f32().map(Vec2::from).collect())
                }
                None => None,
            };
            if set == 0 && reader.read_tex_coords(1).is_some() {
                self.report.dropped.insert(format!(
                    "mesh {} has a second UV set (TEXCOORD_1) no texture uses",
                    mesh.index()
                ));
            }
            if prim.morph_targets().next().is_some() {
                self.report.dropped.insert(format!(
                    "mesh {}'s morph targets (the base shape comes in)",
                    mesh.index()
                ));
            }
            let cols: Option<Vec<[f32; 4]>> =
                reader.read_colors(0).map(|c| c.into_rgba_f32().collect());
            let norms: Option<Vec<Vec3>> = reader
                .read_normals()
                .map(|n| n.map(|v| Vec3::from(v).normalize_or(Vec3::Y)).collect());
            let indices: Vec<u32> = match reader.read_indices() {
                Some(i) => i.into_u32().collect(),
                None => (0..positions.len() as u32).collect(),
            };
            if let Some(bad) = indices.iter().find(|i| **i as usize >= positions.len()) {
                return Err(fail(
                    self.path,
                    format!(
                        "{at}: index {bad} is out of range ({} vertices)",
                        positions.len()
                    ),
                ));
            }
            let tris: Vec<[u32; 3]> = match mode {
                Mode::Triangles => indices
                    .chunks_exact(3)
                    .map(|c| [c[0], c[1], c[2]])
                    .collect(),
                Mode::TriangleStrip => (0..indices.len().saturating_sub(2))
                    .map(|i| {
                        if i % 2 == 0 {
                            [indices[i], indices[i + 1], indices[i + 2]]
                        } else {
                            [indices[i + 1], indices[i], indices[i + 2]]
                        }
                    })
                    .collect(),
                _ => (1..indices.len().saturating_sub(1))
                    .map(|i| [indices[0], indices[i], indices[i + 1]])
                    .collect(),
            };
            let material = self.material(Some(prim.material()).filter(|m| m.index().is_some()));
            let base = data.positions.len() as u32;
            any_color |= cols.is_some();
            colors.extend(
                cols.clone()
                    .unwrap_or_else(|| vec![[1.0; 4]; positions.len()])
                    .into_iter()
                    .take(positions.len()),
            );
            if colors.len() < data.positions.len() + positions.len() {
                colors.resize(data.positions.len() + positions.len(), [1.0; 4]);
            }
            any_normal |= norms.is_some();
            let mut norms = norms.unwrap_or_default();
            norms.resize(positions.len(), Vec3::ZERO);
            normals.extend(norms);
            let uv = |i: u32| {
                uvs.as_ref()
                    .and_then(|u| u.get(i as usize))
                    .copied()
                    .unwrap_or(Vec2::ZERO)
            };
            for t in tris {
                // glTF UV v runs down the image like ours; positions are Y-up like ours.
                data.faces.push(Face {
                    indices: t.map(|i| base + i),
                    uvs: t.map(uv),
                    material,
                });
            }
            data.positions.extend(positions);
        }
        if any_color {
            data.colors = Some(colors);
        }
        if any_normal {
            // Primitives without normals get flat ones from their faces.
            for f in &data.faces {
                let [a, b, c] = data.triangle(f);
                let flat = (b - a).cross(c - a).normalize_or(Vec3::Y);
                for i in f.indices {
                    if let Some(n) = normals.get_mut(i as usize)
                        && *n == Vec3::ZERO
                    {
                        *n = flat;
                    }
                }
            }
            data.normals = Some(normals);
        }
        Ok(data)
    }

    /// A node's collision shape (OMI physics) as colliders under its entity
    /// `owner`, whose world transform is `world`: an upright box a box collider,
    /// anything else a hidden, collision-only mesh and its triangle collider.
    fn physics_shape(
        &mut self,
        name: &str,
        shape: super::gltf_physics::Shape,
        owner: EntityId,
        world: Affine3A,
    ) -> Result<(), ImportError> {
        use super::gltf_physics::Shape;
        let (_, rotation, _) = world.to_scale_rotation_translation();
        let upright = rotation.angle_between(Quat::IDENTITY) < 1e-3;
        if let (Shape::Box(size), true) = (&shape, upright) {
            let collider = Entity::new(
                format!("{name} collider"),
                EntityKind::Collider(Collider::Box { size: *size }),
            )
            .with_transform(Transform::from_translation(Vec3::new(
                0.0,
                -size.y * 0.5,
                0.0,
            )));
            self.add(collider, Some(owner));
            return Ok(());
        }
        let geometry = match shape {
            Shape::Mesh(i) => match self.document.meshes().nth(i) {
                Some(mesh) => self.mesh_data(mesh)?,
                None => {
                    self.report.warnings.push(format!(
                        "node '{name}': its collision shape names mesh {i}, which the file does not hold (left out)"
                    ));
                    return Ok(());
                }
            },
            other => super::gltf_physics::solid(&other),
        };
        let mut mesh = Entity::new(
            format!("{name} collision"),
            EntityKind::Mesh(MeshEntity {
                source: GeometrySource::Authored,
                geometry,
                collidable: true,
            }),
        );
        // Collision only: hidden in the editor and never drawn in the map.
        mesh.visible = false;
        mesh.exported = false;
        let mesh_id = self.add(mesh, Some(owner));
        self.add(
            Entity::new(
                format!("{name} collider"),
                EntityKind::Collider(Collider::TriMesh { mesh: mesh_id }),
            ),
            Some(owner),
        );
        Ok(())
    }

    /// Imports `node` and its children under `parent`, whose `world_from_local`
    /// is `parent_world`.
    fn node(
        &mut self,
        node: gltf::Node,
        parent: Option<EntityId>,
        parent_world: Affine3A,
        depth: usize,
    ) -> Result<(), ImportError> {
        if depth > 256 {
            return Err(fail(
                self.path,
                format!(
                    "node {} is nested more than 256 deep (a cycle?)",
                    node.index()
                ),
            ));
        }
        let (t, r, s) = node.transform().decomposed();
        let rotation = Quat::from_array(r).normalize();
        let transform = Transform {
            translation: Vec3::from(t),
            rotation: if rotation.is_finite() {
                rotation
            } else {
                Quat::IDENTITY
            },
            scale: Vec3::from(s),
        };
        let name = node
            .name()
            .map(str::to_owned)
            .unwrap_or_else(|| format!("Node {}", node.index()));
        // Godot's `-col` / `-colonly` suffixes: said by the name, kept out of it.
        let suffix = super::gltf_physics::suffix(&name).map(|(base, what)| (base.to_owned(), what));
        let name = suffix.as_ref().map_or(name, |(base, _)| base.clone());
        let geometry = match node.mesh() {
            Some(m) => Some(self.mesh_data(m)?),
            None => None,
        };
        let lower = name.to_ascii_lowercase();
        let collision_only = matches!(
            suffix,
            Some((_, super::gltf_physics::Suffix::CollisionOnly))
        );
        let is_collider = lower.starts_with("collider_") || (collision_only && geometry.is_some());
        let is_trigger = name.starts_with("Trigger_");
        // A box or ramp collider, or a trigger, is the world-space box around its
        // vertices: exporters that apply transforms leave the node at the origin
        // and the placement in the positions. It stands on the middle of its base.
        let world = parent_world * transform.to_affine();
        let node_transform = transform;
        let mut transform = transform;
        let mut size = Vec3::ONE;
        if is_collider || is_trigger {
            let bounds = geometry.as_ref().and_then(|g| {
                pebble_model::Aabb::from_points(
                    g.positions.iter().map(|p| world.transform_point3(*p)),
                )
            });
            let (lo, hi) = match bounds {
                Some(b) => (b.min, b.max),
                None => {
                    let at = world.transform_point3(Vec3::ZERO);
                    (at - Vec3::new(0.5, 0.0, 0.5), at + Vec3::new(0.5, 1.0, 0.5))
                }
            };
            size = hi - lo;
            let base = Vec3::new((lo.x + hi.x) * 0.5, lo.y, (lo.z + hi.z) * 0.5);
            let local = parent_world.inverse() * Affine3A::from_translation(base);
            let placed = Transform::from_affine(local);
            if placed.translation.is_finite() && placed.rotation.is_finite() {
                transform = placed;
            }
        }
        let source = |mesh: &str| GeometrySource::Asset {
            path: self
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            mesh: mesh.to_owned(),
        };
        let kind = if is_collider {
            if !collision_only && (lower.contains("box") || geometry.is_none()) {
                EntityKind::Collider(Collider::Box { size })
            } else if !collision_only && lower.contains("ramp") {
                EntityKind::Collider(Collider::Ramp { size })
            } else {
                let geometry = geometry.clone().unwrap_or_default();
                let mut mesh = Entity::new(
                    format!("{name} mesh"),
                    EntityKind::Mesh(MeshEntity {
                        source: source(&name),
                        geometry,
                        collidable: true,
                    }),
                );
                // Collision only: hidden in the editor and never drawn in the map.
                mesh.visible = false;
                mesh.exported = false;
                let mesh_id = self.add(mesh.with_transform(node_transform), parent);
                EntityKind::Collider(Collider::TriMesh { mesh: mesh_id })
            }
        } else if name == "PlayerSpawn" || name.starts_with("Spawn") {
            let f = rotation * Vec3::NEG_Z;
            EntityKind::Defined(instance(
                "PlayerSpawn",
                [("yaw", FieldValue::Float(f.x.atan2(-f.z).to_degrees()))],
            ))
        } else if let Some(event) = name.strip_prefix("Trigger_").filter(|_| is_trigger) {
            EntityKind::Defined(instance(
                "Trigger",
                [
                    ("size", FieldValue::Point(size)),
                    ("event", FieldValue::Text(event.to_owned())),
                ],
            ))
        } else if name.starts_with("Walkable_") {
            EntityKind::Walkable(geometry.clone().unwrap_or_default())
        } else if name.starts_with("Emitter_") {
            EntityKind::Emitter(Emitter {
                dir: rotation * Vec3::Y,
                ..Emitter::default()
            })
        } else if let Some(g) = geometry {
            EntityKind::Mesh(MeshEntity {
                source: source(&name),
                geometry: g,
                collidable: suffix.is_some(),
            })
        } else {
            EntityKind::Group
        };
        // A collider's own transform already went to its hidden mesh when it had one.
        let id = self.add(
            Entity::new(name.clone(), kind).with_transform(transform),
            parent,
        );
        match super::gltf_physics::shape_of(self.document, &node) {
            Some(Ok(shape)) => {
                // Godot names every shape node "CollisionShape3D": its collider
                // is known by its body's name.
                let body = parent
                    .filter(|_| name.starts_with("CollisionShape"))
                    .and_then(|p| self.entities.iter().find(|e| e.id == p))
                    .map_or_else(|| name.clone(), |e| e.name.clone());
                self.physics_shape(&body, shape, id, world)?;
            }
            Some(Err(what)) => {
                self.report
                    .warnings
                    .push(format!("node '{name}': {what} (its collision is left out)"));
            }
            None => {}
        }
        if let Some(light) = node.light() {
            let color = light.color();
            let intensity = light.intensity();
            let kind = match light.kind() {
                // A sun shines along its node's −Z in the world: the node's
                // rotation and its parents' (a sun's direction is world-space,
                // so the light entity's own place does not turn it).
                gltf::khr_lights_punctual::Kind::Directional => Light::Sun {
                    direction: world
                        .transform_vector3(Vec3::NEG_Z)
                        .normalize_or(Vec3::NEG_Z),
                    color,
                    intensity,
                    shadows: true,
                },
                gltf::khr_lights_punctual::Kind::Point => Light::Omni {
                    color,
                    radius: light.range().unwrap_or(10.0),
                    intensity,
                    shadows: true,
                    cone: None,
                },
                // A spot light shines along its node's −Z within its cone; the
                // bake keeps the cone.
                gltf::khr_lights_punctual::Kind::Spot {
                    inner_cone_angle,
                    outer_cone_angle,
                } => Light::Omni {
                    color,
                    radius: light.range().unwrap_or(10.0),
                    intensity,
                    shadows: true,
                    cone: Some(pebble_model::entity::Cone {
                        inner: inner_cone_angle.clamp(0.0, FRAC_PI_2),
                        outer: outer_cone_angle.clamp(0.0, FRAC_PI_2),
                    }),
                },
            };
            let name = light
                .name()
                .map(str::to_owned)
                .unwrap_or_else(|| format!("Light {}", light.index()));
            self.add(Entity::new(name, EntityKind::Light(kind)), Some(id));
        }
        for child in node.children() {
            self.node(child, Some(id), world, depth + 1)?;
        }
        Ok(())
    }
}

/// The glTF extensions the importer reads.
const READ_EXTENSIONS: [&str; 7] = [
    "KHR_lights_punctual",
    "KHR_texture_transform",
    "EXT_texture_webp",
    "KHR_materials_emissive_strength",
    "OMI_physics_body",
    "OMI_physics_shape",
    "OMI_collider",
];

fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(c: f32) -> f32 {
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// The mean linear colour of a picture's texels.
fn mean_linear(img: &image::RgbaImage) -> Vec3 {
    let n = (img.width() as usize * img.height() as usize).max(1);
    let sum = img.pixels().fold(Vec3::ZERO, |acc, p| {
        acc + Vec3::new(
            srgb_to_linear(f32::from(p[0]) / 255.0),
            srgb_to_linear(f32::from(p[1]) / 255.0),
            srgb_to_linear(f32::from(p[2]) / 255.0),
        )
    });
    sum / n as f32
}

/// `base` with `glow × factor` added (linear light, clamped), at the base's size
/// (the glow sampled nearest, as both share the surface's UVs); the glow alone
/// where there is no base.
fn add_glow(
    base: Option<&image::RgbaImage>,
    glow: &image::RgbaImage,
    factor: Vec3,
) -> image::RgbaImage {
    let (w, h) = base.map_or(glow.dimensions(), |b| b.dimensions());
    image::RgbaImage::from_fn(w, h, |x, y| {
        let gx = (x as u64 * u64::from(glow.width()) / u64::from(w.max(1))) as u32;
        let gy = (y as u64 * u64::from(glow.height()) / u64::from(h.max(1))) as u32;
        let g = glow.get_pixel(gx.min(glow.width() - 1), gy.min(glow.height() - 1));
        let b = base.map_or(image::Rgba([0, 0, 0, 255]), |b| *b.get_pixel(x, y));
        let channel = |k: usize| {
            let sum = srgb_to_linear(f32::from(b[k]) / 255.0)
                + srgb_to_linear(f32::from(g[k]) / 255.0) * factor[k];
            (linear_to_srgb(sum.clamp(0.0, 1.0)) * 255.0).round() as u8
        };
        image::Rgba([channel(0), channel(1), channel(2), b[3]])
    })
}

/// Why a file that requires `ext` is refused, and how to make one Pebble reads.
fn required_extension(ext: &str) -> String {
    let what = match ext {
        "KHR_draco_mesh_compression" => {
            " (Draco-compressed meshes), which Pebble does not decode: export the model again without mesh compression (Blender: File › Export › glTF 2.0, Data › Compression off)"
        }
        "EXT_meshopt_compression" | "KHR_meshopt_compression" => {
            " (meshoptimizer-compressed buffers, as gltfpack -c writes), which Pebble does not decode: run gltfpack again without -c / -cc, or export the model again without compression"
        }
        "KHR_mesh_quantization" => {
            " (quantized vertex data, as gltfpack writes by default), which Pebble does not read: run gltfpack again with -noq, or export the model again without quantization"
        }
        "KHR_texture_basisu" | "EXT_texture_avif" => {
            " (textures in a format Pebble does not decode): export the model again with PNG, JPEG or WebP textures"
        }
        _ => ", which Pebble cannot read: export the model again without it",
    };
    format!("the file requires the glTF extension {ext}{what}")
}

/// The JSON and the binary chunk of a GLB, or the bytes themselves for `.gltf`.
fn split_glb(bytes: &[u8]) -> Result<(&[u8], Option<Vec<u8>>), String> {
    if !bytes.starts_with(b"glTF") {
        return Ok((bytes, None));
    }
    let word = |o: usize| {
        bytes
            .get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    let version = word(4).ok_or("GLB header is cut off")?;
    if version != 2 {
        return Err(format!(
            "GLB version {version} is not supported (expected 2)"
        ));
    }
    let total = word(8).ok_or("GLB header is cut off")?.min(bytes.len());
    let mut at = 12;
    let mut json = None;
    let mut bin = None;
    while at + 8 <= total {
        let (len, kind) = (word(at).unwrap_or(0), word(at + 4).unwrap_or(0));
        let data = at
            .checked_add(8)
            .and_then(|s| s.checked_add(len).map(|e| (s, e)))
            .filter(|(_, e)| *e <= total);
        let Some((start, end)) = data else {
            return Err(format!(
                "GLB chunk at byte {at} declares {len} bytes, past the end of the file ({} bytes): the file looks truncated (an interrupted download or copy?); get it again",
                bytes.len()
            ));
        };
        match kind {
            0x4E4F_534A if json.is_none() => json = Some(&bytes[start..end]),
            0x004E_4942 if bin.is_none() => bin = Some(bytes[start..end].to_vec()),
            _ => {}
        }
        at = end;
    }
    Ok((json.ok_or("GLB has no JSON chunk")?, bin))
}

/// Imports glTF or GLB bytes read from `path`.
pub fn import(
    bytes: &[u8],
    path: &Path,
    options: &ImportOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Imported, ImportError> {
    if bytes.starts_with(b"version https://git-lfs") {
        return Err(fail(
            path,
            "is a Git LFS pointer, not the model: the repository it came from keeps the real file in Git LFS; run `git lfs pull` in that repository (or download the file itself) and import that",
        ));
    }
    // The GLB container is split here: gltf 1.4's own GLB reader overflows on some
    // malformed headers.
    let (json, blob) = split_glb(bytes).map_err(|m| fail(path, m))?;
    let mut raw = gltf::Gltf::from_slice_without_validation(json)
        .map_err(|e| fail(path, format!("not a valid glTF: {e}")))?;
    raw.blob = blob;
    let root = raw.document.into_json();
    // A required extension we cannot read leaves the file's data unreadable (a Draco
    // mesh's accessors have no buffer view): say which, before anything else does.
    if let Some(ext) = root
        .extensions_required
        .iter()
        .find(|e| !READ_EXTENSIONS.contains(&e.as_str()))
    {
        return Err(fail(path, required_extension(ext)));
    }
    // gltf-json 1.4's validator indexes the POSITION accessor without a bounds check;
    // check every primitive's accessor references first.
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let refs = prim
                .attributes
                .values()
                .map(|a| a.value())
                .chain(prim.indices.as_ref().map(|i| i.value()));
            for a in refs {
                if a >= root.accessors.len() {
                    return Err(fail(
                        path,
                        format!(
                            "mesh {m} primitive {p} refers to accessor {a}, but the file has {}",
                            root.accessors.len()
                        ),
                    ));
                }
            }
            // The gltf crate's readers subtract one from an accessor's count and
            // assume a stride of at least one element: refused here, by name.
            for index in prim
                .attributes
                .values()
                .map(|a| a.value())
                .chain(prim.indices.as_ref().map(|i| i.value()))
            {
                if let Some(problem) = layout_problem(&root, &root.accessors[index]) {
                    return Err(fail(
                        path,
                        format!("mesh {m} primitive {p}: accessor {index} {problem}"),
                    ));
                }
            }
            // The gltf crate's readers assert an attribute's element size: an
            // accessor of another type for it is refused here, by name.
            for (semantic, index) in &prim.attributes {
                if let gltf::json::validation::Checked::Valid(semantic) = semantic
                    && let Some(problem) =
                        attribute_problem(semantic, &root.accessors[index.value()])
                {
                    return Err(fail(
                        path,
                        format!(
                            "mesh {m} primitive {p}: its {semantic:?} accessor {} {problem}",
                            index.value()
                        ),
                    ));
                }
            }
            if let Some(index) = &prim.indices {
                use gltf::json::accessor::{ComponentType, Type};
                use gltf::json::validation::Checked::Valid;
                let acc = &root.accessors[index.value()];
                let ok = matches!(acc.type_, Valid(Type::Scalar))
                    && matches!(
                        acc.component_type,
                        Valid(gltf::json::accessor::GenericComponentType(
                            ComponentType::U8 | ComponentType::U16 | ComponentType::U32
                        ))
                    );
                if !ok {
                    return Err(fail(
                        path,
                        format!(
                            "mesh {m} primitive {p}: its index accessor {} is not unsigned whole numbers, one per index (SCALAR of 8, 16 or 32 bits)",
                            index.value()
                        ),
                    ));
                }
            }
        }
    }
    let document = gltf::Document::from_json(root)
        .map_err(|e| fail(path, format!("not a valid glTF: {e}")))?;
    let gltf = gltf::Gltf {
        document,
        blob: raw.blob,
    };
    let buffers = load_buffers(&gltf.document, gltf.blob.clone(), path)?;
    let mut ctx = Ctx {
        path,
        document: &gltf.document,
        buffers,
        report: ImportReport::default(),
        materials: Vec::new(),
        material_map: HashMap::new(),
        image_files: HashMap::new(),
        entities: Vec::new(),
        next_local: 1,
        options,
    };
    let roots: Vec<gltf::Node> = match gltf
        .document
        .default_scene()
        .or_else(|| gltf.document.scenes().next())
    {
        Some(scene) => scene.nodes().collect(),
        None => {
            let children: std::collections::HashSet<usize> = gltf
                .document
                .nodes()
                .flat_map(|n| n.children().map(|c| c.index()).collect::<Vec<_>>())
                .collect();
            gltf.document
                .nodes()
                .filter(|n| !children.contains(&n.index()))
                .collect()
        }
    };
    // What a static PSP map has no place for, said once.
    let count = |n: usize, what: &str| (n > 0).then(|| format!("{n} {what}"));
    for d in [
        count(
            gltf.document.animations().count(),
            "animation(s): maps are static; the rest pose comes in",
        ),
        count(
            gltf.document.skins().count(),
            "skin(s): skinned meshes come in their bind pose",
        ),
        count(gltf.document.cameras().count(), "camera(s)"),
    ]
    .into_iter()
    .flatten()
    {
        ctx.report.dropped.insert(d);
    }
    for ext in gltf.document.extensions_used() {
        if !READ_EXTENSIONS.contains(&ext) {
            ctx.report.dropped.insert(format!(
                "extension {ext} (not read; what it adds is left out)"
            ));
        }
    }
    let total = roots.len() as u64;
    for (i, node) in roots.into_iter().enumerate() {
        // The gltf crate's readers index slices; the checks above make that safe, and
        // a panic that slipped through still becomes an error rather than a crash.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ctx.node(node, None, Affine3A::IDENTITY, 0)
        }));
        match result {
            Ok(r) => r?,
            Err(_) => {
                return Err(fail(
                    path,
                    format!("node {i} could not be read (malformed data)"),
                ));
            }
        }
        progress(Progress {
            stage: "nodes",
            done: i as u64 + 1,
            total,
        });
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    ctx.report.materials = ctx.materials.len();
    // A tile whose faces repeat it (UVs past [0, 1]) cannot live in an atlas slot.
    for (k, m) in ctx.materials.iter_mut().enumerate() {
        if !m.tile {
            continue;
        }
        let repeats = ctx.entities.iter().any(|e| match &e.kind {
            EntityKind::Mesh(mesh) => mesh.geometry.faces.iter().any(|f| {
                f.material == MaterialId(k as u32)
                    && f.uvs.iter().any(|uv| {
                        uv.x < -1e-3 || uv.y < -1e-3 || uv.x > 1.0 + 1e-3 || uv.y > 1.0 + 1e-3
                    })
            }),
            _ => false,
        });
        if repeats || m.tiling != Vec2::ONE || m.offset != Vec2::ZERO {
            m.tile = false;
        }
    }
    Ok(Imported {
        command: ImportCommand::new(format!("Import {stem}"), ctx.materials, ctx.entities, None),
        report: ctx.report,
    })
}
