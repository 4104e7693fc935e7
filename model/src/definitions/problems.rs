//! What is wrong with a scene's defined entities against the definitions: links
//! to nothing or to a kind the field does not take, values out of range or of the
//! wrong type, more instances than a kind allows, instances whose kind has left
//! the definitions (kept, with their values), values whose field has left.

use std::collections::{BTreeMap, HashMap};

use super::schema::{DefinedEntity, Definitions};
use crate::entity::EntityKind;
use crate::id::EntityId;
use crate::scene::Scene;

/// One thing to fix, on one entity (or a kind, for counts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The entity it is about (for a count: the first one past the maximum).
    pub entity: EntityId,
    pub message: String,
}

/// The scene's defined entities as `(id, instance)`, in scene order.
pub fn instances(scene: &Scene) -> impl Iterator<Item = (EntityId, &DefinedEntity)> {
    scene.entities().filter_map(|e| match &e.kind {
        EntityKind::Defined(d) => Some((e.id, d)),
        _ => None,
    })
}

/// Every problem of the scene's defined entities, in scene order.
pub fn problems(scene: &Scene, defs: &Definitions) -> Vec<Problem> {
    let mut out = Vec::new();
    let kinds: HashMap<EntityId, &str> = instances(scene)
        .map(|(id, d)| (id, d.kind.as_str()))
        .collect();
    let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
    let names = |id: EntityId| {
        scene
            .entity(id)
            .map_or_else(|| id.to_string(), |e| format!("\"{}\"", e.name))
    };
    for (id, d) in instances(scene) {
        let say = |m: String| Problem {
            entity: id,
            message: format!("{}: {m}", names(id)),
        };
        let Some(kind) = defs.kind(&d.kind) else {
            out.push(say(format!(
                "unknown kind {} (not in the definitions; its {} values are kept)",
                d.kind,
                d.values.len()
            )));
            continue;
        };
        let n = counts.entry(kind.name.as_str()).or_insert(0);
        *n += 1;
        if kind.max_count.is_some_and(|max| *n == max + 1) {
            out.push(say(format!(
                "more than {} {} (the kind's maximum)",
                kind.max_count.unwrap_or(0),
                kind.name
            )));
        }
        for (name, v) in &d.values {
            let Some(field) = kind.field(name) else {
                out.push(say(format!(
                    "{name} is no longer a field of {} (its value {} is kept)",
                    kind.name,
                    v.describe()
                )));
                continue;
            };
            if let Err(m) = field.check(defs, v) {
                out.push(say(m));
                continue;
            }
            let mut refs = Vec::new();
            v.references(&mut refs);
            for r in refs {
                match kinds.get(&r) {
                    None => out.push(say(format!(
                        "{name} links to {r}, which is not in the scene any more"
                    ))),
                    Some(k) if !field.kinds.is_empty() && !field.kinds.iter().any(|a| a == k) => {
                        out.push(say(format!(
                            "{name} links to {} (a {k}); it takes {}",
                            names(r),
                            field.kinds.join(" or ")
                        )))
                    }
                    Some(_) => {}
                }
            }
        }
    }
    out
}
