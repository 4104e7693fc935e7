//! The `game_entities` lump: the scene's instances of the game's own kinds,
//! resolved against the project's definitions (defaults filled, values clamped,
//! enums and flags as numbers, references as ids), grouped by kind in the
//! definitions' order, each kind's instances in scene order. Instances of a kind
//! the definitions no longer hold are left out, with a warning; they stay in the
//! scene with their values.

use std::collections::HashMap;

use pbm::game_entities::{FieldSchema, GameEntities, Instance, KindSchema, Value, ValueType};
use pbm::{MetaKind, Metadata, Name32, tag};
use pebble_model::definitions::{Definitions, FieldDef, FieldType, Resolved};
use pebble_model::entity::{DefinedEntity, EntityKind};
use pebble_model::glam::Quat;
use pebble_model::{EntityId, Scene};

use super::{ExportError, Run};

/// The lump's schema: every defined kind, with or without instances, so that a
/// kind's index is the same in every map of one set of definitions.
pub fn schema(defs: &Definitions) -> Vec<KindSchema> {
    defs.kinds
        .iter()
        .map(|k| KindSchema {
            name: k.name.clone(),
            fields: k
                .fields
                .iter()
                .map(|f| FieldSchema {
                    name: f.name.clone(),
                    ty: value_type(&f.ty),
                    array: f.array,
                    names: defs.names_of(&f.ty).to_vec(),
                })
                .collect(),
        })
        .collect()
}

/// The format's code for a field type.
pub fn value_type(ty: &FieldType) -> ValueType {
    match ty {
        FieldType::Int => ValueType::Int,
        FieldType::Float => ValueType::Float,
        FieldType::Bool => ValueType::Bool,
        FieldType::String => ValueType::String,
        FieldType::Enum(_) => ValueType::Enum,
        FieldType::Flags(_) => ValueType::Flags,
        FieldType::Colour => ValueType::Colour,
        FieldType::Point => ValueType::Point,
        FieldType::Asset => ValueType::Asset,
        FieldType::Entity => ValueType::Entity,
    }
}

/// The world rotation as the product of the entities' own rotations up the
/// parents: exact for an entity at the root (a matrix's rotation read back is
/// not), so that a map read back and written again has the same bytes.
pub fn world_rotation(scene: &Scene, id: EntityId) -> Quat {
    let mut q = Quat::IDENTITY;
    let mut at = Some(id);
    while let Some(e) = at.and_then(|id| scene.entity(id)) {
        q = e.transform.rotation * q;
        at = e.parent;
    }
    q
}

/// The lump for `scene` under `defs`; the warnings say what was left out.
pub fn build(
    scene: &Scene,
    defs: &Definitions,
    warnings: &mut Vec<String>,
) -> Option<GameEntities> {
    let mut by_kind: Vec<Vec<(EntityId, &str, &DefinedEntity)>> =
        vec![Vec::new(); defs.kinds.len()];
    let mut unknown: std::collections::BTreeMap<&str, usize> = Default::default();
    for e in scene.exported_entities() {
        if let EntityKind::Defined(d) = &e.kind {
            if Definitions::is_builtin_kind(&d.kind) {
                continue; // in its own lump: crate::described
            }
            match defs.kind_index(&d.kind) {
                Some(k) => by_kind[k].push((e.id, e.name.as_str(), d)),
                None => *unknown.entry(d.kind.as_str()).or_insert(0) += 1,
            }
        }
    }
    for (kind, n) in &unknown {
        warnings.push(format!(
            "{n} entities of the kind {kind} are left out of the map: entities.ron no longer \
             defines {kind} (they keep their values in the project)"
        ));
    }
    if by_kind.iter().all(Vec::is_empty) {
        return None;
    }
    let ids: HashMap<EntityId, u32> = by_kind
        .iter()
        .flatten()
        .enumerate()
        .map(|(k, (id, _, _))| (*id, k as u32 + 1))
        .collect();
    let mut instances = Vec::with_capacity(ids.len());
    for (k, list) in by_kind.iter().enumerate() {
        let kind = &defs.kinds[k];
        for (id, name, d) in list {
            let world = scene.world_transform(*id);
            let values = kind
                .fields
                .iter()
                .map(|f| {
                    let r = f.resolve(defs, d.values.get(&f.name));
                    to_value(f, &r, &ids, name, warnings)
                })
                .collect();
            instances.push(Instance {
                kind: k as u32,
                id: instances.len() as u32 + 1,
                position: world.translation.to_array(),
                rotation: world_rotation(scene, *id).normalize().to_array(),
                name: name.replace('\0', ""),
                values,
            });
        }
    }
    Some(GameEntities {
        hash: defs.hash(),
        kinds: schema(defs),
        instances,
    })
}

fn to_value(
    f: &FieldDef,
    r: &Resolved,
    ids: &HashMap<EntityId, u32>,
    owner: &str,
    warnings: &mut Vec<String>,
) -> Value {
    let asset = f.ty == FieldType::Asset;
    match r {
        Resolved::Int(x) => Value::Int(*x),
        Resolved::Float(x) => Value::Float(*x),
        Resolved::Bool(b) => Value::Bool(*b),
        Resolved::Text(s) if asset => Value::Asset(s.replace('\0', "")),
        Resolved::Text(s) => Value::String(s.replace('\0', "")),
        Resolved::Enum(k) => Value::Enum(*k),
        Resolved::Flags(bits) => Value::Flags(*bits),
        Resolved::Colour(c) => Value::Colour(*c),
        Resolved::Point(p) => Value::Point(p.to_array()),
        Resolved::Entity(None) => Value::Entity(0),
        Resolved::Entity(Some(target)) => Value::Entity(match ids.get(target) {
            Some(id) => *id,
            None => {
                warnings.push(format!(
                    "{owner}: {} links to {target}, which is not a game entity in the map; \
                     the link is written as none",
                    f.name
                ));
                0
            }
        }),
        Resolved::Array(items) => Value::Array(
            items
                .iter()
                .map(|i| to_value(f, i, ids, owner, warnings))
                .collect(),
        ),
    }
}

/// The lump's metadata for the export run: the definitions given with the
/// options, else `entities.ron` in the project folder. A scene without game
/// entities writes none; one whose definitions file is missing or broken is
/// refused with the file's error.
pub(crate) fn metadata(run: &mut Run<'_>) -> Result<Option<Metadata>, ExportError> {
    let scene = run.scene;
    let any = scene
        .exported_entities()
        .any(|e| matches!(e.kind, EntityKind::Defined(_)));
    if !any {
        return Ok(None);
    }
    let loaded;
    let empty = Definitions::default();
    let defs = match &run.options.definitions {
        Some(d) => d.as_ref(),
        None => {
            loaded = Definitions::load_beside(&run.options.project_dir)
                .map_err(|message| ExportError::Definitions { message })?;
            match &loaded {
                Some(d) => d,
                None => &empty,
            }
        }
    };
    let Some(lump) = build(scene, defs, &mut run.report.warnings) else {
        return Ok(None);
    };
    let payload = lump.encode().map_err(|e| ExportError::Definitions {
        message: e.to_string(),
    })?;
    Ok(Some(Metadata {
        tag: Name32::truncated(tag::GAME_ENTITIES),
        kind: MetaKind::Entity,
        payload,
    }))
}
