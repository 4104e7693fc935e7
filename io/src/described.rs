//! The built-in kinds' own lumps, both ways, as their descriptors say
//! ([`pebble_model::definitions::builtin`], [`LumpRecipe`]): export writes each
//! kind's exported instances into the lump its recipe names; import reads that
//! lump back into instances of the kind. Nothing here knows one kind from
//! another: a new built-in kind needs no code in this file.
//!
//! In a JSON lump an object holds `"id"` (the entity's name), `"position"` (world
//! space, unless the recipe leaves it out) and each field under its key: numbers,
//! booleans and strings as such, enums by name, flags as a list of names, colours
//! as `0xAABBGGRR` numbers, points as `[x, y, z]` in world space, arrays as
//! lists (the descriptors' checks keep references out of these lumps).

use pbm::{MetaKind, Metadata, Name32};
use pebble_model::Scene;
use pebble_model::definitions::{
    self, DefinedEntity, Definitions, FieldDef, FieldType, FieldValue, KindDef, LumpRecipe,
    Resolved,
};
use pebble_model::glam::Vec3;
use serde_json::{Map, Value, json};

/// The built-in kinds that have a lump, in the descriptors' order.
pub fn kinds() -> impl Iterator<Item = (&'static KindDef, &'static LumpRecipe)> {
    definitions::builtin::kinds()
        .kinds
        .iter()
        .filter_map(|k| Some((k, k.lump.as_ref()?)))
}

/// The lumps of every built-in kind with exported instances; `warnings` says
/// what a recipe could not hold.
pub fn export(scene: &Scene, warnings: &mut Vec<String>) -> Vec<Metadata> {
    let defs = definitions::builtin::kinds();
    let mut out = Vec::new();
    for (kind, recipe) in kinds() {
        let LumpRecipe::Json {
            tag,
            first_only,
            position,
            ..
        } = recipe;
        let instances: Vec<_> = scene.exported_described(&kind.name).collect();
        if instances.is_empty() {
            continue;
        }
        let objects: Vec<Value> = instances
            .iter()
            .take(if *first_only { 1 } else { usize::MAX })
            .map(|(e, d)| {
                let mut obj = Map::new();
                obj.insert("id".into(), json!(e.name));
                if *position {
                    let at: Vec3 = scene.world_transform(e.id).translation.into();
                    obj.insert("position".into(), json!(at.to_array()));
                }
                for f in &kind.fields {
                    let r = f.resolve(defs, d.values.get(&f.name));
                    obj.insert(recipe.key_of(&f.name).into(), to_json(defs, f, &r));
                }
                Value::Object(obj)
            })
            .collect();
        if *first_only && instances.len() > 1 {
            warnings.push(format!(
                "only the first {} is exported ({} in the scene; the runtime reads one)",
                kind.title.to_lowercase(),
                instances.len()
            ));
        }
        let body = if *first_only {
            objects.into_iter().next().unwrap_or(Value::Null)
        } else {
            Value::Array(objects)
        };
        out.push(Metadata::text(
            Name32::truncated(tag),
            MetaKind::Json,
            &body.to_string(),
        ));
    }
    out
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

/// The built-in kind whose lump `tag` is, if any.
pub fn kind_of_lump(tag: &str) -> Option<(&'static KindDef, &'static LumpRecipe)> {
    kinds().find(|(_, r)| r.tag() == tag)
}

/// The instances of `kind` in its lump's JSON `body`; `warnings` says what was
/// skipped or given its default, and where.
pub fn import(
    kind: &KindDef,
    recipe: &LumpRecipe,
    body: &Value,
    warnings: &mut Vec<String>,
) -> Vec<Read> {
    let defs = definitions::builtin::kinds();
    let LumpRecipe::Json {
        tag,
        first_only,
        position,
        ..
    } = recipe;
    let objects: Vec<&Value> = match (body, first_only) {
        (Value::Array(list), false) => list.iter().collect(),
        (Value::Object(_), true) => vec![body],
        _ => {
            warnings.push(format!(
                "{tag}: not the JSON {} the {} lump holds; skipped",
                if *first_only { "object" } else { "array" },
                kind.title.to_lowercase()
            ));
            return Vec::new();
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
        let at = match (position, obj.get("position").map(vec3)) {
            (false, _) => Vec3::ZERO,
            (true, Some(Some(at))) => at,
            (true, _) => {
                warnings.push(format!("{place} has no position; skipped"));
                continue;
            }
        };
        let name = obj
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_else(|| format!("{} {k}", kind.title));
        let mut entity = DefinedEntity::new(&kind.name);
        for f in &kind.fields {
            let Some(json) = obj.get(recipe.key_of(&f.name)) else {
                continue;
            };
            let value = from_json(f, json)
                .ok_or_else(|| format!("not a {}", f.ty.word()))
                .and_then(|v| f.check(defs, &v).map(|()| v));
            match value {
                Ok(v) if v == f.default => {}
                Ok(v) => {
                    entity.values.insert(f.name.clone(), v);
                }
                Err(e) => warnings.push(format!(
                    "{place} ('{name}'): {}: {e}; the default {} is used",
                    recipe.key_of(&f.name),
                    f.default.describe()
                )),
            }
        }
        out.push(Read { name, at, entity });
    }
    out
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
