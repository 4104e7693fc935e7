//! Metadata stage, in the documented order: `map_name`, `env_preset`,
//! `walkable_mesh`, the built-in kinds' own lumps in their descriptors' order
//! ([`crate::described`]: `player_spawn`, `triggers`, patrol `entities`,
//! `rigid_bodies`, `sound_sources`), `game_entities`, `samplers`, custom
//! entities, and the `emitters` lump last; then the header (spawn, bounds of
//! drawn geometry).
//! One function per lump; the tags are [`pbm::tag`]'s.

use pbm::emitter::{EmitterLump, EmitterRecord};
use pbm::{Map, MetaKind, Metadata, Name32, tag};
use pebble_model::entity::{CustomEntity, EntityKind};
use pebble_model::glam::Vec3;
use pebble_model::{Entity, Kind, Scene};
use serde_json::Value;

use super::limits::Ticker;
use super::textures::Textures;
use super::{ExportError, Run};

fn name32(s: &str) -> Name32 {
    Name32::truncated(s)
}

fn text(t: &str, kind: MetaKind, body: &str) -> Metadata {
    Metadata::text(name32(t), kind, body)
}

fn position(scene: &Scene, id: pebble_model::EntityId) -> Vec3 {
    scene.world_transform(id).translation.into()
}

fn hex(s: &str) -> Option<Vec<u8>> {
    s.len().is_multiple_of(2).then_some(())?;
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The metadata lumps in the documented order, and the emitters lump.
pub(crate) fn build(
    run: &mut Run<'_>,
    textures: &Textures,
) -> Result<(Vec<Metadata>, Option<EmitterLump>), ExportError> {
    let scene = run.scene;
    let s = scene.settings();
    let mut out = vec![
        text(tag::MAP_NAME, MetaKind::String, &s.map_name),
        text(
            tag::ENV_PRESET,
            MetaKind::String,
            s.environment.preset_name(),
        ),
    ];
    out.extend(walkable_mesh(run)?);
    out.extend(crate::described::export(scene, &mut run.report.warnings));
    out.extend(super::game_entities::metadata(run)?);
    if !textures.samplers.is_empty() {
        out.push(Metadata {
            tag: name32(tag::SAMPLERS),
            kind: MetaKind::Raw,
            payload: pbm::sampler::encode_samplers(&textures.samplers),
        });
    }
    for e in scene.exported_of(Kind::Custom) {
        if let EntityKind::Custom(c) = &e.kind {
            out.extend(custom(e, c)?);
        }
    }
    // In the documented order (pbm::tag::ALL), whatever order the stages and the
    // descriptors produced them in; a custom entity's own tag goes after, as made.
    out.sort_by_key(|m| {
        tag::ALL
            .iter()
            .position(|t| *t == m.tag.as_str())
            .unwrap_or(tag::ALL.len())
    });
    let emitters = emitters(run, textures);
    Ok((out, emitters))
}

/// `walkable_mesh`: every walkable surface's triangles in world space, as f32
/// triples.
fn walkable_mesh(run: &Run<'_>) -> Result<Option<Metadata>, ExportError> {
    let scene = run.scene;
    let mut walkable = Vec::new();
    let mut ticker = Ticker::new(run.cancel);
    for e in scene.exported_of(Kind::Walkable) {
        ticker.check()?;
        if let EntityKind::Walkable(g) = &e.kind {
            let world = scene.world_transform(e.id);
            for f in &g.faces {
                ticker.tick()?;
                for p in g.triangle(f) {
                    for c in world.transform_point3(p).to_array() {
                        walkable.extend_from_slice(&c.to_le_bytes());
                    }
                }
            }
        }
    }
    Ok((!walkable.is_empty()).then(|| Metadata {
        tag: name32(tag::WALKABLE_MESH),
        kind: MetaKind::Entity,
        payload: walkable,
    }))
}

/// Where each kind goes in the map. Exhaustive on purpose: a new kind does not
/// compile until it says where it is written (and the export test that makes one
/// of each kind checks it is there).
pub fn written_to(kind: Kind) -> &'static str {
    match kind {
        Kind::Group => "nowhere (a folder: its children are written)",
        Kind::Mesh => "the meshes",
        Kind::Collider => "the colliders",
        Kind::Light => "the baked vertex colours (with Bake on)",
        Kind::Emitter => tag::EMITTERS,
        Kind::Walkable => tag::WALKABLE_MESH,
        Kind::Custom => "a lump of its own tag",
        Kind::Defined => "game_entities, or a built-in kind's own lump (its descriptor's recipe)",
    }
}

/// A custom entity's lump: kept whole by the `.pbm` importer (its kind and bytes
/// come back as they were), or its JSON. `None` for the lumps written from the
/// materials, never twice.
fn custom(e: &Entity, c: &CustomEntity) -> Result<Option<Metadata>, ExportError> {
    if c.tag == tag::SAMPLERS || c.tag == tag::DOUBLE_SIDED {
        return Ok(None);
    }
    let v: Value = serde_json::from_str(&c.json).map_err(|err| ExportError::Entity {
        entity: e.name.clone(),
        message: format!("its JSON does not parse: {err}"),
    })?;
    let lump = match (v.get("pbm_type").and_then(Value::as_u64), &v) {
        (Some(t), v) if v.get("json").is_some() => Metadata::text(
            name32(&c.tag),
            MetaKind::from_u32(t as u32),
            &v["json"].to_string(),
        ),
        (Some(t), v) if v.get("text").is_some() => Metadata::text(
            name32(&c.tag),
            MetaKind::from_u32(t as u32),
            v["text"].as_str().unwrap_or_default(),
        ),
        (Some(t), v) if v.get("hex").is_some() => {
            let payload = v["hex"]
                .as_str()
                .and_then(hex)
                .ok_or_else(|| ExportError::Entity {
                    entity: e.name.clone(),
                    message: "its hex payload is malformed".into(),
                })?;
            Metadata {
                tag: name32(&c.tag),
                kind: MetaKind::from_u32(t as u32),
                payload,
            }
        }
        _ => Metadata::text(name32(&c.tag), MetaKind::Json, &v.to_string()),
    };
    Ok(Some(lump))
}

/// `emitters`: the records within the format's budgets, as the runtime reads them;
/// the particle count goes to the report.
fn emitters(run: &mut Run<'_>, textures: &Textures) -> Option<EmitterLump> {
    let records = emitter_records(run, textures);
    let records = within_budgets(run, records);
    if records.is_empty() {
        return None;
    }
    let lump = EmitterLump::new(records);
    let mut warnings = Vec::new();
    // The runtime's view of the lump: its warnings, and the particle count.
    let field = pbm::ParticleField::from_lump(&lump, textures.textures.len() as u32, &mut |w| {
        warnings.push(w.to_string())
    });
    run.report.particles = field.particles.len();
    run.report.warnings.extend(warnings);
    Some(lump)
}

/// Each exported emitter's record, with its texture's index (the built-in glow
/// when it has none it can use) and what the loader would clamp clamped.
fn emitter_records(run: &mut Run<'_>, textures: &Textures) -> Vec<EmitterRecord> {
    let scene = run.scene;
    let mut records = Vec::new();
    for e in scene.exported_of(Kind::Emitter) {
        let EntityKind::Emitter(em) = &e.kind else {
            continue;
        };
        let texture_id = match &em.texture {
            None => -1,
            Some(path) => textures.by_path.iter().find(|((p, _, _), _)| p == path).map(|(_, t)| *t).unwrap_or_else(|| {
                run.report.warnings.push(format!("emitter '{}': texture {path} is not used by any material and was not exported; the built-in glow is used", e.name));
                -1
            }),
        };
        let is_atlas = usize::try_from(texture_id)
            .ok()
            .and_then(|i| textures.textures.get(i))
            .is_some_and(|t| t.is_atlas());
        let texture_id = if is_atlas {
            run.report.warnings.push(format!(
                "emitter '{}' uses an atlas texture; the built-in glow is used",
                e.name
            ));
            -1
        } else {
            texture_id
        };
        let record = em.to_record(&e.name, position(scene, e.id), texture_id);
        // What the format's loader would clamp is clamped here, said once, so the
        // file never holds a value its own validator warns about.
        let mut clamped = Vec::new();
        let mut sane = pbm::emitter::sanitize(
            &record,
            records.len() as u32,
            None,
            textures.textures.len() as u32,
            &mut |w| clamped.push(w.to_string()),
        );
        // A usable direction is written as it is: the runtime normalises it.
        let len = pebble_model::glam::Vec3::from(record.dir).length();
        if len.is_finite() && len > 1e-20 {
            sane.dir = record.dir;
        }
        for w in clamped {
            run.report.warnings.push(format!("{w} (written clamped)"));
        }
        records.push(sane);
    }
    records
}

/// Budgets: what the runtime would clamp is clamped here, with a warning, so the
/// file says what the device shows.
fn within_budgets(run: &mut Run<'_>, records: Vec<EmitterRecord>) -> Vec<EmitterRecord> {
    let mut used = 0u32;
    let mut kept = Vec::new();
    for (i, mut r) in records.into_iter().enumerate() {
        let name = r.name.as_str().to_owned();
        if i as u32 >= pbm::emitter::MAX_EMITTERS {
            run.report.warnings.push(format!(
                "emitter '{name}': more than {} emitters; left out",
                pbm::emitter::MAX_EMITTERS
            ));
            continue;
        }
        let wanted = u32::from(r.count);
        let allowed = wanted
            .min(pbm::emitter::MAX_PARTICLES_PER_EMITTER)
            .min(pbm::emitter::MAX_PARTICLES_PER_MAP - used);
        if allowed == 0 {
            run.report.warnings.push(format!("emitter '{name}': no particles left in the map's budget of {} (or count 0); left out", pbm::emitter::MAX_PARTICLES_PER_MAP));
            continue;
        }
        if allowed < wanted {
            run.report.warnings.push(format!("emitter '{name}': {wanted} particles clamped to {allowed} (64 per emitter, 256 per map)"));
            r.count = allowed as u16;
        }
        used += allowed;
        kept.push(r);
    }
    kept
}

/// Header spawn = the player spawn, else a start chosen on the map's floors
/// ([`crate::start::choose`]: returned, to be said); bounds = the meshes.
pub(crate) fn header(scene: &Scene, map: &mut Map) -> Option<crate::start::Start> {
    map.recompute_bounds();
    if let Some((spawn, d)) = scene.exported_described("PlayerSpawn").next() {
        map.spawn_pos = position(scene, spawn.id).to_array();
        let yaw = pebble_model::definitions::builtin::value(d, "yaw").and_then(|v| v.as_f32());
        map.spawn_rot = yaw.unwrap_or(0.0).to_radians();
        return None;
    }
    let triangles: Vec<[Vec3; 3]> = map
        .meshes
        .iter()
        .flat_map(|m| m.vertices.chunks_exact(3))
        .map(|t| [t[0].pos, t[1].pos, t[2].pos].map(Vec3::from))
        .collect();
    let start = crate::start::choose(&triangles)?;
    map.spawn_pos = start.eye.to_array();
    map.spawn_rot = start.yaw;
    Some(start)
}
