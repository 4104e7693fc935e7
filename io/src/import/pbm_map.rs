//! `.pbm` import: any readable map (v1–v3) becomes an editable scene. Mesh chunks of
//! one surface are regrouped into one entity, textures are written as PNGs (atlases
//! whole), scroll goes to materials, colliders and every metadata lump to entities;
//! unknown lumps become custom entities so that they survive a re-export.

use std::collections::BTreeMap;
use std::path::Path;

use pbm::format::is_atlas_name;
use pbm::{ColliderKind, Map, MetaKind, tag};
use pebble_model::definitions::FieldValue;
use pebble_model::definitions::builtin::instance;
use pebble_model::entity::{
    Collider, CustomEntity, DefinedEntity, Emitter, EntityKind, GeometrySource, MeshEntity,
};
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::material::{AlphaMode, Sampling};
use pebble_model::mesh::{Face, MeshData};
use pebble_model::scene::{Environment, SceneSettings};
use pebble_model::{Entity, EntityId, Material, MaterialId, Transform};
use serde_json::{Value, json};

use super::{
    ImportCommand, ImportError, ImportOptions, ImportReport, Imported, Progress, textures,
};

/// The surface name of a chunk: `Floor_3` → `Floor`.
fn surface_name(chunk: &str) -> &str {
    match chunk.rsplit_once('_') {
        Some((prefix, k))
            if !prefix.is_empty() && !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) =>
        {
            prefix
        }
        _ => chunk,
    }
}

fn unpack_color(c: u32) -> [f32; 4] {
    [0, 8, 16, 24].map(|s| ((c >> s) & 0xFF) as f32 / 255.0)
}

/// Geometry centred on its bounds: returns the centre and the shifted mesh.
fn centred(mut mesh: MeshData) -> (Vec3, MeshData) {
    let centre = mesh.aabb().map(|b| b.center()).unwrap_or(Vec3::ZERO);
    for p in &mut mesh.positions {
        *p -= centre;
    }
    (centre, mesh)
}

fn triangles_mesh(tris: impl Iterator<Item = [[f32; 3]; 3]>, material: MaterialId) -> MeshData {
    let mut mesh = MeshData::default();
    for tri in tris {
        let base = mesh.positions.len() as u32;
        mesh.positions.extend(tri.iter().map(|p| Vec3::from(*p)));
        mesh.faces.push(Face {
            indices: [base, base + 1, base + 2],
            uvs: [Vec2::ZERO; 3],
            material,
        });
    }
    mesh
}

struct Builder {
    materials: Vec<Material>,
    material_keys: BTreeMap<(i32, u32, u32, u8, bool), MaterialId>,
    entities: Vec<Entity>,
    next_local: u32,
    report: ImportReport,
    /// The map's file name: the asset the meshes come from.
    source: String,
}

impl Builder {
    fn entity(&mut self, name: &str, kind: EntityKind, at: Vec3) -> EntityId {
        let mut e = Entity::new(name, kind);
        e.id = EntityId(self.next_local);
        self.next_local += 1;
        e.transform = Transform::from_translation(at);
        let id = e.id;
        *self.report.entities.entry(e.kind.kind()).or_insert(0) += 1;
        self.entities.push(e);
        id
    }

    fn material(
        &mut self,
        key: (i32, u32, u32, u8, bool),
        make: impl FnOnce() -> Material,
    ) -> MaterialId {
        if let Some(id) = self.material_keys.get(&key) {
            return *id;
        }
        let id = MaterialId(self.materials.len() as u32);
        self.materials.push(make());
        self.material_keys.insert(key, id);
        id
    }

    /// The material of collision-only geometry (triangle colliders, walkable
    /// surfaces).
    fn collision_material(&mut self) -> MaterialId {
        self.material((-2, 0, 0, 0, false), || Material {
            name: "Collision".into(),
            ..Material::default()
        })
    }

    fn warn(&mut self, w: impl Into<String>) {
        self.report.warnings.push(w.into());
    }
}

/// Imports map bytes read from `path`.
pub fn import(
    bytes: &[u8],
    path: &Path,
    options: &ImportOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Imported, ImportError> {
    let (map, warnings) = Map::read(bytes).map_err(|e| ImportError::format(path, e.to_string()))?;
    let mut b = Builder {
        materials: Vec::new(),
        material_keys: BTreeMap::new(),
        entities: Vec::new(),
        next_local: 1,
        report: ImportReport::default(),
        source: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    b.report
        .warnings
        .extend(warnings.iter().map(|w| w.to_string()));
    let texture_paths = texture_files(&mut b, &map, options, progress)?;
    meshes(&mut b, &map, &texture_paths, progress);
    colliders(&mut b, &map);
    let settings = metadata(&mut b, &map, path);
    emitters(&mut b, &map, &texture_paths);
    b.report.materials = b.materials.len();
    let name = format!("Import {}", b.source);
    Ok(Imported {
        command: ImportCommand::new(name, b.materials, b.entities, Some(settings)),
        report: b.report,
    })
}

/// What the progress counts: each texture, then each mesh chunk.
fn progress_total(map: &Map) -> u64 {
    map.textures.len() as u64 + map.meshes.len() as u64
}

/// Textures → PNG files in the project; their paths, by texture index.
fn texture_files(
    b: &mut Builder,
    map: &Map,
    options: &ImportOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<String>, ImportError> {
    let mut texture_paths = Vec::with_capacity(map.textures.len());
    for (i, t) in map.textures.iter().enumerate() {
        let rgba = pbm::texture::decode(&t.data, t.format);
        let rel = textures::write_png(
            &options.project_dir,
            t.name.as_str(),
            u32::from(t.width),
            u32::from(t.height),
            &rgba,
        )?;
        b.report.textures_written.push(rel.clone());
        texture_paths.push(rel);
        progress(Progress {
            stage: "textures",
            done: i as u64 + 1,
            total: progress_total(map),
        });
    }
    Ok(texture_paths)
}

/// Meshes: chunks of one surface (same name prefix, texture, scroll and sides)
/// regroup into one entity, with a material per texture, scroll, alpha and sides.
fn meshes(
    b: &mut Builder,
    map: &Map,
    texture_paths: &[String],
    progress: &mut dyn FnMut(Progress),
) {
    let texture = |id: i32| usize::try_from(id).ok().and_then(|i| map.textures.get(i));
    // How textures wrap and filter: their materials' sampling (the lump is then
    // written again from the materials, never kept as a custom lump).
    let samplers = map
        .metadata_by_tag(tag::SAMPLERS)
        .map(|m| pbm::sampler::decode_samplers(&m.payload))
        .unwrap_or_default();
    // The meshes drawn from both sides: their materials are double-sided.
    let double_sided = map
        .metadata_by_tag(tag::DOUBLE_SIDED)
        .map(|m| pbm::double_sided::decode(&m.payload))
        .unwrap_or_default();
    let mut surfaces: BTreeMap<(String, i32, u32, u32, bool), Vec<usize>> = BTreeMap::new();
    let mut surface_order = Vec::new();
    for (i, m) in map.meshes.iter().enumerate() {
        let key = (
            surface_name(m.name.as_str()).to_owned(),
            m.texture_id,
            m.uv_scroll[0].to_bits(),
            m.uv_scroll[1].to_bits(),
            double_sided.contains(&(i as u32)),
        );
        if !surfaces.contains_key(&key) {
            surface_order.push(key.clone());
        }
        surfaces.entry(key).or_default().push(i);
    }
    for (done, key) in surface_order.iter().enumerate() {
        let (name, texture_id, su, sv, both) = key;
        let tex = texture(*texture_id);
        if *texture_id != -1 && tex.is_none() {
            b.warn(format!(
                "mesh '{name}': texture {texture_id} does not exist; imported untextured"
            ));
        }
        let alpha = match tex.map(|t| t.alpha_mode) {
            Some(pbm::AlphaMode::Cutout) => AlphaMode::Cutout,
            Some(pbm::AlphaMode::Blend) => AlphaMode::Blend,
            _ => AlphaMode::None,
        };
        let tex_index = tex.map(|_| *texture_id).unwrap_or(-1);
        let scroll = Vec2::new(f32::from_bits(*su), f32::from_bits(*sv));
        let material = b.material((tex_index, *su, *sv, alpha as u8, *both), || Material {
            name: tex
                .map(|t| t.name.as_str().to_owned())
                .unwrap_or_else(|| "Vertex colour".into()),
            texture: tex
                .and_then(|_| usize::try_from(tex_index).ok())
                .map(|i| texture_paths[i].clone()),
            alpha,
            uv_scroll: scroll,
            tile: false,
            sampling: usize::try_from(tex_index)
                .map(|i| {
                    let s = pbm::sampler::sampler_of(&samplers, i);
                    Sampling {
                        clamp_u: s.clamp_u,
                        clamp_v: s.clamp_v,
                        nearest: s.nearest,
                    }
                })
                .unwrap_or_default(),
            double_sided: *both,
            ..Material::default()
        });
        if scroll != Vec2::ZERO && tex.is_some_and(|t| is_atlas_name(t.name.as_str())) {
            b.warn(format!(
                "mesh '{name}' scrolls an atlas texture; the runtime never scrolls atlases"
            ));
        }
        let mut mesh = MeshData {
            colors: Some(Vec::new()),
            ..MeshData::default()
        };
        for &i in &surfaces[key] {
            for tri in map.meshes[i].vertices.chunks_exact(3) {
                let base = mesh.positions.len() as u32;
                mesh.positions.extend(tri.iter().map(|v| Vec3::from(v.pos)));
                if let Some(c) = &mut mesh.colors {
                    c.extend(tri.iter().map(|v| unpack_color(v.color)));
                }
                mesh.faces.push(Face {
                    indices: [base, base + 1, base + 2],
                    uvs: [0, 1, 2].map(|k| Vec2::from(tri[k].uv)),
                    material,
                });
            }
        }
        let (centre, geometry) = centred(mesh);
        let chunks = surfaces[key].len();
        let source = b.source.clone();
        b.entity(
            name,
            EntityKind::Mesh(MeshEntity {
                source: GeometrySource::Asset {
                    path: source,
                    mesh: name.clone(),
                },
                geometry,
                collidable: false,
            }),
            centre,
        );
        progress(Progress {
            stage: "meshes",
            done: map.textures.len() as u64 + done as u64 + chunks as u64,
            total: progress_total(map),
        });
    }
}

/// Colliders: boxes and ramps as volumes; a triangle collider as a hidden,
/// unexported mesh and the collider that names it.
fn colliders(b: &mut Builder, map: &Map) {
    for c in &map.colliders {
        let (lo, hi) = (Vec3::from(c.bounds_min), Vec3::from(c.bounds_max));
        let name = c.name.as_str();
        match c.kind {
            ColliderKind::Box => {
                b.entity(
                    name,
                    EntityKind::Collider(Collider::Box { size: hi - lo }),
                    volume_origin(lo, hi),
                );
            }
            ColliderKind::Ramp => {
                b.entity(
                    name,
                    EntityKind::Collider(Collider::Ramp { size: hi - lo }),
                    volume_origin(lo, hi),
                );
            }
            ColliderKind::TriMesh | ColliderKind::Unknown(_) => {
                if let ColliderKind::Unknown(k) = c.kind {
                    b.warn(format!(
                        "collider '{name}': unknown type {k}, imported as a triangle mesh"
                    ));
                }
                let mat = b.collision_material();
                let (centre, geometry) = centred(triangles_mesh(c.triangles.iter().copied(), mat));
                let source = b.source.clone();
                let mesh_id = b.entity(
                    &format!("{name} mesh"),
                    EntityKind::Mesh(MeshEntity {
                        source: GeometrySource::Asset {
                            path: source,
                            mesh: name.into(),
                        },
                        geometry,
                        collidable: true,
                    }),
                    centre,
                );
                // Collision only: hidden in the editor and never drawn in the map.
                if let Some(e) = b.entities.last_mut() {
                    e.visible = false;
                    e.exported = false;
                }
                b.entity(
                    name,
                    EntityKind::Collider(Collider::TriMesh { mesh: mesh_id }),
                    centre,
                );
            }
        }
    }
}

/// The metadata lumps: each one this importer knows becomes its entities or
/// settings; any other (or one it cannot read) is kept whole as a custom entity,
/// so that a re-export writes the same lump. The scene's settings, and a player
/// spawn from the header when no lump gave one.
fn metadata(b: &mut Builder, map: &Map, path: &Path) -> SceneSettings {
    let mut settings = SceneSettings {
        map_name: path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "Imported".into()),
        ..SceneSettings::default()
    };
    for m in &map.metadata {
        let text = m.as_text();
        let json: Option<Value> = match (m.kind, text) {
            (MetaKind::Json, Some(t)) => serde_json::from_str(t).ok(),
            _ => None,
        };
        let handled = match (m.tag.as_str(), &json, text) {
            (tag::MAP_NAME, _, Some(t)) => {
                settings.map_name = t.to_owned();
                true
            }
            (tag::ENV_PRESET, _, Some(t)) => {
                environment(b, &mut settings, t);
                true
            }
            (tag::WALKABLE_MESH, _, _) => {
                walkable_mesh(b, &m.payload);
                true
            }
            (t, _, _) if crate::described::kind_of_lump(t).is_some() => {
                described(b, t, json.as_ref(), m)
            }
            (tag::GAME_ENTITIES, _, _) if m.kind == MetaKind::Entity => {
                game_entities(b, &m.payload)
            }
            (tag::SAMPLERS | tag::DOUBLE_SIDED, _, _) => true,
            _ => false,
        };
        if !handled {
            custom(b, m, json.as_ref(), text);
        }
    }
    let spawn_found = b
        .entities
        .iter()
        .any(|e| matches!(&e.kind, EntityKind::Defined(d) if d.kind == "PlayerSpawn"));
    if !spawn_found {
        let yaw = FieldValue::Float(map.spawn_rot.to_degrees());
        b.entity(
            "Player spawn",
            EntityKind::Defined(instance("PlayerSpawn", [("yaw", yaw)])),
            Vec3::from(map.spawn_pos),
        );
    }
    settings
}

/// `game_entities`: each instance becomes a game entity of its kind with every
/// value it was written with (enums and flags by the names the lump gives),
/// links to the entities they point at. A lump that does not read is kept whole
/// (said).
fn game_entities(b: &mut Builder, payload: &[u8]) -> bool {
    use pbm::game_entities::{GameEntities, Value as V};
    use pebble_model::definitions::FieldValue;
    let lump = match GameEntities::decode(payload) {
        Ok(l) => l,
        Err(e) => {
            b.warn(format!("{e}; the lump is kept as it is"));
            return false;
        }
    };
    let mut locals = Vec::with_capacity(lump.instances.len());
    for i in &lump.instances {
        let kind = &lump.kinds[i.kind as usize];
        let at = b.entity(
            &i.name,
            EntityKind::Defined(DefinedEntity::new(kind.name.clone())),
            Vec3::from(i.position),
        );
        let [x, y, z, w] = i.rotation;
        if let Some(e) = b.entities.last_mut() {
            e.transform.rotation = pebble_model::glam::Quat::from_xyzw(x, y, z, w);
        }
        locals.push(at);
    }
    let first = b.entities.len() - locals.len();
    for (k, i) in lump.instances.iter().enumerate() {
        let kind = &lump.kinds[i.kind as usize];
        let value = |f: &pbm::game_entities::FieldSchema, v: &V| -> FieldValue {
            let name = |k: u32| f.names.get(k as usize).cloned();
            match v {
                V::Int(x) => FieldValue::Int(*x),
                V::Float(x) => FieldValue::Float(*x),
                V::Bool(x) => FieldValue::Bool(*x),
                V::String(s) | V::Asset(s) => FieldValue::Text(s.clone()),
                V::Enum(k) => name(*k).map_or(FieldValue::Int(*k as i32), FieldValue::Enum),
                V::Flags(bits) => FieldValue::Flags(
                    (0..32)
                        .filter(|k| bits & (1 << k) != 0)
                        .filter_map(name)
                        .collect(),
                ),
                V::Colour(c) => FieldValue::Colour(*c),
                V::Point(p) => FieldValue::Point(Vec3::from(*p)),
                V::Entity(id) => FieldValue::Entity(
                    (*id as usize)
                        .checked_sub(1)
                        .and_then(|k| locals.get(k).copied()),
                ),
                V::Array(_) => FieldValue::Array(Vec::new()),
            }
        };
        let values = kind
            .fields
            .iter()
            .zip(&i.values)
            .map(|(f, v)| {
                let stored = match v {
                    V::Array(items) => {
                        FieldValue::Array(items.iter().map(|x| value(f, x)).collect())
                    }
                    one => value(f, one),
                };
                (f.name.clone(), stored)
            })
            .collect();
        if let Some(EntityKind::Defined(d)) = b.entities.get_mut(first + k).map(|e| &mut e.kind) {
            d.values = values;
        }
    }
    true
}

/// `env_preset`: one of the environments by name, else day (said).
fn environment(b: &mut Builder, settings: &mut SceneSettings, name: &str) {
    match Environment::ALL.iter().find(|e| e.preset_name() == name) {
        Some(e) => settings.environment = *e,
        None => b.warn(format!(
            "env_preset '{name}' is not dawn/day/dusk/night; day is used"
        )),
    }
}

/// `walkable_mesh`: world-space f32 triangles become one walkable surface.
fn walkable_mesh(b: &mut Builder, payload: &[u8]) {
    let mat = b.collision_material();
    let tris = payload.chunks_exact(36).filter_map(|c| {
        let f = |o: usize| {
            c.get(o..o + 4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let p = |o: usize| Some([f(o)?, f(o + 4)?, f(o + 8)?]);
        Some([p(0)?, p(12)?, p(24)?])
    });
    let (centre, geometry) = centred(triangles_mesh(tris, mat));
    b.entity("Walkable", EntityKind::Walkable(geometry), centre);
}

/// A built-in kind's own lump (`player_spawn`, `triggers`, …), read by its
/// descriptor; not handled (kept whole) when it is not the kind's after all.
fn described(b: &mut Builder, tag: &str, json: Option<&Value>, m: &pbm::Metadata) -> bool {
    use crate::described::Body;
    let Some((kind, recipe)) = crate::described::kind_of_lump(tag) else {
        return false;
    };
    let body = match (m.kind, json) {
        (MetaKind::Json, Some(v)) => Body::Json(v),
        (MetaKind::Entity, _) => Body::Bytes(&m.payload),
        _ => return false,
    };
    let Some(read) = crate::described::import(kind, recipe, body, &mut b.report.warnings) else {
        return false;
    };
    for r in read {
        b.entity(&r.name, EntityKind::Defined(r.entity), r.at);
    }
    true
}

/// A lump kept whole as a custom entity: its kind, and its JSON, text or bytes.
fn custom(b: &mut Builder, m: &pbm::Metadata, json: Option<&Value>, text: Option<&str>) {
    let tag = m.tag.as_str();
    let data = match (m.kind, json, text) {
        (MetaKind::Json, Some(v), _) => json!({ "pbm_type": m.kind.code(), "json": v }),
        (MetaKind::String, _, Some(t)) => json!({ "pbm_type": m.kind.code(), "text": t }),
        _ => {
            json!({ "pbm_type": m.kind.code(), "hex": m.payload.iter().map(|b| format!("{b:02x}")).collect::<String>() })
        }
    };
    b.entity(
        tag,
        EntityKind::Custom(CustomEntity {
            tag: tag.to_owned(),
            json: data.to_string(),
        }),
        Vec3::ZERO,
    );
}

/// Emitters: each field the runtime would clamp is clamped here and reported,
/// so that the project holds what the device shows and its export validates.
fn emitters(b: &mut Builder, map: &Map, texture_paths: &[String]) {
    let Some(lump) = &map.emitters else {
        return;
    };
    for (k, stored) in lump.records.iter().enumerate() {
        let mut clamped = Vec::new();
        let mut sane = pbm::emitter::sanitize(
            stored,
            k as u32,
            None,
            texture_paths.len() as u32,
            &mut |w| clamped.push(w.to_string()),
        );
        // A usable direction stays as stored: the runtime normalises it when it
        // loads, and normalising twice moves the last bit.
        let len = Vec3::from(stored.dir).length();
        if len.is_finite() && len > 1e-20 {
            sane.dir = stored.dir;
        }
        let r = &sane;
        for w in clamped {
            b.warn(format!("{w} (clamped at import)"));
        }
        let tex = usize::try_from(r.texture_id)
            .ok()
            .and_then(|i| texture_paths.get(i))
            .cloned();
        if r.texture_id >= 0 && tex.is_none() {
            b.warn(format!(
                "emitter '{}': texture {} does not exist; the built-in glow is used",
                r.name, r.texture_id
            ));
        }
        let mut e = Emitter::from_record(r, tex);
        if !r.pos.iter().all(|c| c.is_finite()) {
            b.warn(format!(
                "emitter '{}': position is not finite; placed at the origin",
                r.name
            ));
        }
        let pos = Vec3::from(r.pos);
        let pos = if pos.is_finite() { pos } else { Vec3::ZERO };
        if e.dir == Vec3::ZERO || !e.dir.is_finite() {
            e.dir = Vec3::Y;
        }
        b.entity(r.name.as_str(), EntityKind::Emitter(e), pos);
    }
}

/// Where a volume spanning `lo`..`hi` has its origin: the middle of its base
/// ([`pebble_model::entity::volume_aabb`]).
fn volume_origin(lo: Vec3, hi: Vec3) -> Vec3 {
    let mid = (lo + hi) * 0.5;
    Vec3::new(mid.x, lo.y, mid.z)
}
