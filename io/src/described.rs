//! The built-in kinds' own lumps, both ways, as their descriptors say
//! ([`pebble_model::definitions::builtin`], [`LumpRecipe`]): export writes each
//! kind's exported instances into the lump its recipe names; import reads that
//! lump back into instances of the kind. Nothing here knows one kind from
//! another: a new built-in kind needs no code in this file.
//!
//! In a JSON lump an object holds `"id"` (the entity's name), `"position"` (world
//! space), the recipe's constants and each field under its key: numbers,
//! booleans and strings as such, enums by name, flags as a list of names, colours
//! as `0xAABBGGRR` numbers, points as `[x, y, z]` in world space (a local point
//! moved and turned with its instance), arrays as lists (the descriptors' checks
//! keep references out of these lumps).

use pbm::entity::{MAX_WAYPOINTS, PATROL_SPHERE_TYPE, PatrolSphere, decode_entities};
use pbm::{MetaKind, Metadata, Name32};
use pebble_model::definitions::{
    self, DefinedEntity, Definitions, FieldDef, FieldType, FieldValue, KindDef, LumpRecipe,
    Position, Resolved,
};
use pebble_model::entity::volume_aabb;
use pebble_model::glam::{Affine3A, Vec3};
use pebble_model::{Aabb, Scene};
use serde_json::{Map, Value, json};

/// The built-in kinds that have a lump, in the descriptors' order.
pub fn kinds() -> impl Iterator<Item = (&'static KindDef, &'static LumpRecipe)> {
    definitions::builtin::kinds()
        .kinds
        .iter()
        .filter_map(|k| Some((k, k.lump.as_ref()?)))
}

/// The built-in kind whose lump `tag` is, if any.
pub fn kind_of_lump(tag: &str) -> Option<(&'static KindDef, &'static LumpRecipe)> {
    kinds().find(|(_, r)| r.tag() == tag)
}

/// A resolved value as the map holds it: a local point in world space.
fn placed(f: &FieldDef, r: Resolved, world: &Affine3A) -> Resolved {
    match r {
        Resolved::Point(p) if f.local => Resolved::Point(world.transform_point3(p)),
        Resolved::Array(items) => {
            Resolved::Array(items.into_iter().map(|i| placed(f, i, world)).collect())
        }
        other => other,
    }
}

/// The lump of the built-in kind `kind` with the exported instances of `scene`
/// (none without instances); `warnings` says what the recipe could not hold.
pub fn export_kind(
    scene: &Scene,
    kind: &KindDef,
    recipe: &LumpRecipe,
    warnings: &mut Vec<String>,
) -> Option<Metadata> {
    let defs = definitions::builtin::kinds();
    let instances: Vec<_> = scene.exported_described(&kind.name).collect();
    if instances.is_empty() {
        return None;
    }
    // Each field resolved, its local points placed by the instance's `world`.
    let values = |world: &Affine3A, d: &DefinedEntity| -> Vec<Resolved> {
        kind.fields
            .iter()
            .map(|f| placed(f, f.resolve(defs, d.values.get(&f.name)), world))
            .collect()
    };
    match recipe {
        LumpRecipe::Json {
            tag,
            first_only,
            id,
            position,
            constants,
            radians,
            omit_empty,
            merge,
            bounds,
            ..
        } => {
            let object = |e: &pebble_model::Entity, d: &DefinedEntity| -> Value {
                let world = scene.world_transform(e.id);
                let mut obj = Map::new();
                if *id {
                    obj.insert("id".into(), json!(e.name));
                }
                // An optional place is left out at the origin: a map that had
                // none (another tool's) is written back as it was.
                let at_origin = Vec3::from(world.translation) == Vec3::ZERO;
                let write = match position {
                    Position::Required => true,
                    Position::Optional => !at_origin,
                    Position::Omitted => false,
                };
                if write {
                    obj.insert("position".into(), json!(world.translation.to_array()));
                }
                for (k, v) in constants {
                    obj.insert(k.clone(), json!(v));
                }
                let mut extra = None;
                for (f, r) in kind.fields.iter().zip(values(&world, d)) {
                    let key = recipe.key_of(&f.name);
                    match &r {
                        Resolved::Point(size) if bounds.as_ref() == Some(&f.name) => {
                            let corners = volume_aabb(*size)
                                .corners()
                                .map(|c| world.transform_point3(c));
                            if let Some(b) = Aabb::from_points(corners) {
                                obj.insert("bounds_min".into(), json!(b.min.to_array()));
                                obj.insert("bounds_max".into(), json!(b.max.to_array()));
                            }
                        }
                        Resolved::Text(s) if merge.as_ref() == Some(&f.name) => {
                            extra = serde_json::from_str::<Map<String, Value>>(s).ok();
                        }
                        Resolved::Text(s) if s.is_empty() && omit_empty.contains(&f.name) => {}
                        Resolved::Float(a) if radians.contains(&f.name) => {
                            obj.insert(key.into(), json!(a.to_radians()));
                        }
                        _ => {
                            obj.insert(key.into(), to_json(defs, f, &r));
                        }
                    }
                }
                // Free properties never override what the fields say.
                for (k, v) in extra.unwrap_or_default() {
                    obj.entry(k).or_insert(v);
                }
                Value::Object(obj)
            };
            let body = if *first_only {
                if instances.len() > 1 {
                    warnings.push(format!(
                        "only the first {} is exported ({} in the scene; the runtime reads one)",
                        kind.title.to_lowercase(),
                        instances.len()
                    ));
                }
                let (e, d) = instances[0];
                object(e, d)
            } else {
                Value::Array(instances.iter().map(|(e, d)| object(e, d)).collect())
            };
            Some(Metadata::text(
                Name32::truncated(tag),
                MetaKind::Json,
                &body.to_string(),
            ))
        }
        LumpRecipe::PatrolSpheres => {
            let mut payload = Vec::new();
            for (e, d) in &instances {
                let mut sphere = PatrolSphere {
                    name: Name32::truncated(&e.name),
                    entity_type: PATROL_SPHERE_TYPE,
                    radius: 0.0,
                    color: 0,
                    speed: 0.0,
                    num_waypoints: 0,
                    waypoints: [[0.0; 3]; MAX_WAYPOINTS],
                };
                let world = scene.world_transform(e.id);
                for (f, r) in kind.fields.iter().zip(values(&world, d)) {
                    match (f.name.as_str(), r) {
                        ("waypoints", Resolved::Array(points)) => {
                            if points.len() > MAX_WAYPOINTS {
                                warnings.push(format!(
                                    "{} '{}': {} waypoints, the record holds {MAX_WAYPOINTS}; \
                                     the rest are dropped",
                                    kind.title.to_lowercase(),
                                    e.name,
                                    points.len()
                                ));
                            }
                            let points: Vec<[f32; 3]> = points
                                .iter()
                                .filter_map(|p| match p {
                                    Resolved::Point(p) => Some(p.to_array()),
                                    _ => None,
                                })
                                .take(MAX_WAYPOINTS)
                                .collect();
                            sphere.num_waypoints = points.len() as u32;
                            sphere.waypoints[..points.len()].copy_from_slice(&points);
                        }
                        ("radius", Resolved::Float(r)) => sphere.radius = r,
                        ("speed", Resolved::Float(s)) => sphere.speed = s,
                        ("color", Resolved::Colour(c)) => sphere.color = c,
                        _ => {}
                    }
                }
                sphere.encode_into(&mut payload);
            }
            Some(Metadata {
                tag: Name32::truncated(recipe.tag()),
                kind: MetaKind::Entity,
                payload,
            })
        }
    }
}

/// The lumps of every built-in kind with exported instances, in the
/// descriptors' order.
pub fn export(scene: &Scene, warnings: &mut Vec<String>) -> Vec<Metadata> {
    kinds()
        .filter_map(|(kind, recipe)| export_kind(scene, kind, recipe, warnings))
        .collect()
}

fn to_json(defs: &Definitions, f: &FieldDef, r: &Resolved) -> Value {
    match r {
        Resolved::Int(v) => json!(v),
        Resolved::Float(v) => json!(v),
        Resolved::Bool(v) => json!(v),
        Resolved::Text(s) => json!(s),
        Resolved::Enum(k) => json!(defs.names_of(&f.ty).get(*k as usize)),
        Resolved::Flags(bits) => {
            let names = defs.names_of(&f.ty);
            Value::Array(
                (0..names.len())
                    .filter(|k| bits & (1 << k) != 0)
                    .map(|k| json!(names[k]))
                    .collect(),
            )
        }
        Resolved::Colour(c) => json!(c),
        Resolved::Point(p) => json!(p.to_array()),
        Resolved::Entity(_) => Value::Null,
        Resolved::Array(items) => Value::Array(items.iter().map(|i| to_json(defs, f, i)).collect()),
    }
}

/// One instance read from a built-in kind's lump: its name, place and values
/// (those at their defaults left unset, so that they follow the descriptor).
#[derive(Debug)]
pub struct Read {
    pub name: String,
    pub at: Vec3,
    pub entity: DefinedEntity,
}

/// What a lump holds as the importer sees it.
#[derive(Debug)]
pub enum Body<'a> {
    Json(&'a Value),
    Bytes(&'a [u8]),
}

/// The instances of `kind` in its lump; `None` when the lump is not the kind's
/// after all (its constants differ, or its records do not read whole): the
/// importer then keeps it as it is. `warnings` says what was skipped or given its
/// default, and where.
pub fn import(
    kind: &KindDef,
    recipe: &LumpRecipe,
    body: Body<'_>,
    warnings: &mut Vec<String>,
) -> Option<Vec<Read>> {
    match (recipe, body) {
        (LumpRecipe::Json { .. }, Body::Json(v)) => import_json(kind, recipe, v, warnings),
        (LumpRecipe::PatrolSpheres, Body::Bytes(payload)) => {
            import_patrols(kind, payload, warnings)
        }
        _ => None,
    }
}

/// Sets `f` to `v` when it is a value the field takes and not its default;
/// otherwise says why and leaves the default.
fn set(
    entity: &mut DefinedEntity,
    f: &FieldDef,
    v: Option<FieldValue>,
    place: &str,
    warnings: &mut Vec<String>,
) {
    let defs = definitions::builtin::kinds();
    let value = v
        .ok_or_else(|| format!("not a {}", f.ty.word()))
        .and_then(|v| f.check(defs, &v).map(|()| v));
    match value {
        Ok(v) if v == f.default => {}
        Ok(v) => {
            entity.values.insert(f.name.clone(), v);
        }
        Err(e) => warnings.push(format!(
            "{place}: {}: {e}; the default {} is used",
            f.name,
            f.default.describe()
        )),
    }
}

/// A world point read back into a local field of an instance at `at` (imports
/// place instances unturned).
fn local(f: &FieldDef, v: FieldValue, at: Vec3) -> FieldValue {
    match v {
        FieldValue::Point(p) if f.local => FieldValue::Point(p - at),
        FieldValue::Array(items) => {
            FieldValue::Array(items.into_iter().map(|i| local(f, i, at)).collect())
        }
        other => other,
    }
}

fn import_json(
    kind: &KindDef,
    recipe: &LumpRecipe,
    body: &Value,
    warnings: &mut Vec<String>,
) -> Option<Vec<Read>> {
    let LumpRecipe::Json {
        tag,
        first_only,
        position,
        constants,
        radians,
        merge,
        bounds,
        ..
    } = recipe
    else {
        return None;
    };
    let holds_constants = |v: &Value| {
        constants
            .iter()
            .all(|(k, c)| v.get(k).and_then(Value::as_str) == Some(c.as_str()))
    };
    let objects: Vec<&Value> = match (body, first_only) {
        (Value::Array(list), false) => list.iter().collect(),
        (Value::Object(_), true) if holds_constants(body) => vec![body],
        (Value::Object(_), true) => return None,
        _ => {
            warnings.push(format!(
                "{tag}: not the JSON {} the {} lump holds; skipped",
                if *first_only { "object" } else { "array" },
                kind.title.to_lowercase()
            ));
            return Some(Vec::new());
        }
    };
    let mut out = Vec::new();
    for (k, v) in objects.into_iter().enumerate() {
        let place = if *first_only {
            tag.to_string()
        } else {
            format!("{tag}[{k}]")
        };
        let Some(obj) = v.as_object() else {
            warnings.push(format!("{place} is not an object; skipped"));
            continue;
        };
        if !holds_constants(v) {
            warnings.push(format!(
                "{place} is not a {}; skipped",
                kind.title.to_lowercase()
            ));
            continue;
        }
        let name = obj
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_else(|| {
                if *first_only {
                    kind.title.clone()
                } else {
                    format!("{} {}", kind.title, k + 1)
                }
            });
        let place = format!("{place} ('{name}')");
        let mut entity = DefinedEntity::new(&kind.name);
        let mut known: Vec<&str> = vec!["id", "position"];
        known.extend(constants.iter().map(|(k, _)| k.as_str()));
        let at = if let Some(size_field) = bounds {
            known.extend(["bounds_min", "bounds_max"]);
            let (Some(lo), Some(hi)) = (
                obj.get("bounds_min").and_then(vec3),
                obj.get("bounds_max").and_then(vec3),
            ) else {
                warnings.push(format!("{place} has no bounds_min/bounds_max; skipped"));
                continue;
            };
            if let Some(f) = kind.field(size_field) {
                set(
                    &mut entity,
                    f,
                    Some(FieldValue::Point(hi - lo)),
                    &place,
                    warnings,
                );
            }
            let mid = (lo + hi) * 0.5;
            Vec3::new(mid.x, lo.y, mid.z)
        } else if *position != Position::Omitted {
            match obj.get("position").and_then(vec3) {
                Some(at) => at,
                None if *position == Position::Optional => Vec3::ZERO,
                None => {
                    warnings.push(format!("{place} has no position; skipped"));
                    continue;
                }
            }
        } else {
            Vec3::ZERO
        };
        for f in &kind.fields {
            if bounds.as_ref() == Some(&f.name) || merge.as_ref() == Some(&f.name) {
                continue;
            }
            let key = recipe.key_of(&f.name);
            known.push(key);
            let Some(json) = obj.get(key) else {
                continue;
            };
            let mut v = from_json(f, json);
            if radians.contains(&f.name)
                && let Some(FieldValue::Float(a)) = &mut v
            {
                *a = a.to_degrees();
            }
            set(&mut entity, f, v.map(|v| local(f, v, at)), &place, warnings);
        }
        if let Some(f) = merge.as_ref().and_then(|m| kind.field(m)) {
            let rest: Map<String, Value> = obj
                .iter()
                .filter(|(k, _)| !known.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if !rest.is_empty() {
                let text = Value::Object(rest).to_string();
                set(
                    &mut entity,
                    f,
                    Some(FieldValue::Text(text)),
                    &place,
                    warnings,
                );
            }
        }
        out.push(Read { name, at, entity });
    }
    Some(out)
}

fn import_patrols(kind: &KindDef, payload: &[u8], warnings: &mut Vec<String>) -> Option<Vec<Read>> {
    if payload.is_empty()
        || !payload
            .len()
            .is_multiple_of(pbm::entity::PATROL_SPHERE_SIZE)
    {
        return None;
    }
    let mut out = Vec::new();
    for (k, p) in decode_entities(payload).enumerate() {
        let name = p.name.as_str().to_owned();
        let place = format!("{}[{k}] ('{name}')", LumpRecipe::PatrolSpheres.tag());
        // The patrol stands at its first waypoint, its route relative to it.
        let at = p
            .active_waypoints()
            .first()
            .map_or(Vec3::ZERO, |w| Vec3::from(*w));
        let mut entity = DefinedEntity::new(&kind.name);
        for f in &kind.fields {
            let v = match f.name.as_str() {
                "waypoints" => local(
                    f,
                    FieldValue::Array(
                        p.active_waypoints()
                            .iter()
                            .map(|w| FieldValue::Point(Vec3::from(*w)))
                            .collect(),
                    ),
                    at,
                ),
                "radius" => FieldValue::Float(p.radius),
                "speed" => FieldValue::Float(p.speed),
                "color" => FieldValue::Colour(p.color),
                _ => continue,
            };
            set(&mut entity, f, Some(v), &place, warnings);
        }
        out.push(Read { name, at, entity });
    }
    Some(out)
}

fn vec3(v: &Value) -> Option<Vec3> {
    let a = v.as_array()?;
    let c = |k: usize| Some(a.get(k)?.as_f64()? as f32);
    (a.len() == 3).then_some(())?;
    Some(Vec3::new(c(0)?, c(1)?, c(2)?))
}

fn from_json(f: &FieldDef, v: &Value) -> Option<FieldValue> {
    if f.array {
        let items = v.as_array()?;
        return items
            .iter()
            .map(|i| one_from_json(&f.ty, i))
            .collect::<Option<Vec<_>>>()
            .map(FieldValue::Array);
    }
    one_from_json(&f.ty, v)
}

fn one_from_json(ty: &FieldType, v: &Value) -> Option<FieldValue> {
    Some(match ty {
        FieldType::Int => FieldValue::Int(i32::try_from(v.as_i64()?).ok()?),
        FieldType::Float => FieldValue::Float(v.as_f64()? as f32),
        FieldType::Bool => FieldValue::Bool(v.as_bool()?),
        FieldType::String | FieldType::Asset => FieldValue::Text(v.as_str()?.to_owned()),
        FieldType::Enum(_) => FieldValue::Enum(v.as_str()?.to_owned()),
        FieldType::Flags(_) => FieldValue::Flags(
            v.as_array()?
                .iter()
                .map(|b| b.as_str().map(str::to_owned))
                .collect::<Option<_>>()?,
        ),
        FieldType::Colour => FieldValue::Colour(u32::try_from(v.as_u64()?).ok()?),
        FieldType::Point => FieldValue::Point(vec3(v)?),
        // The descriptors' checks refuse reference fields in a lump of its own.
        FieldType::Entity => return None,
    })
}
