//! Prefab overrides (issue 53, first step): what a copy of a prefab's entity
//! changes from the prefab, as data keyed by the entity's stable id inside the
//! prefab and a path into the entity's own fields — never by its name, its place
//! in the hierarchy or its parent, so that renaming, moving or reparenting it in
//! the prefab keeps every override (what Godot's and Unity's users lose). An
//! override whose path the prefab's entity no longer has (its kind changed, a
//! field left) is returned as orphaned, never dropped in silence.
//!
//! The paths are JSON pointers into the entity as it is saved (`/kind/Light/Omni/
//! color`): the same for every kind, with no per-kind code; a list (a patrol's
//! waypoints) is one value, since its elements have no identity of their own.

use serde_json::Value;

use crate::entity::Entity;
use crate::prefab_link::Override;

/// The parts of an entity that are the prefab's structure, not an instance's
/// to override: its identity and its place in the hierarchy.
const STRUCTURE: [&str; 4] = ["/id", "/parent", "/source", "/visible"];

fn form(e: &Entity) -> Result<Value, String> {
    serde_json::to_value(e).map_err(|err| format!("{}: {err}", e.name))
}

/// The overrides that make the prefab's entity `original` into `copy`: every
/// leaf that differs, but its id and its parent.
pub fn diff(original: &Entity, copy: &Entity) -> Result<Vec<Override>, String> {
    // What is the copy's own (its id, parent, link, whether it is shown) is set
    // as the original's first, so that a key present on one side only (a
    // source the prefab's entity has not) never makes the whole entity a value.
    let mut copy = copy.clone();
    copy.id = original.id;
    copy.parent = original.parent;
    copy.source = original.source;
    copy.visible = original.visible;
    let mut out = Vec::new();
    walk(
        &form(original)?,
        &form(&copy)?,
        String::new(),
        &mut |path, value| {
            if !STRUCTURE.contains(&path.as_str()) {
                out.push(Override {
                    source: original.id,
                    path,
                    value: value.clone(),
                });
            }
        },
    );
    Ok(out)
}

/// A mesh's geometry: its lists hold together (faces index positions), so it
/// is one value, never overridden a list at a time.
fn is_geometry(x: &serde_json::Map<String, Value>) -> bool {
    x.contains_key("positions") && x.contains_key("faces")
}

fn walk(a: &Value, b: &Value, path: String, out: &mut impl FnMut(String, &Value)) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if same_keys(x, y) && !is_geometry(x) => {
            for (k, va) in x {
                let key = k.replace('~', "~0").replace('/', "~1");
                walk(va, &y[k], format!("{path}/{key}"), out);
            }
        }
        _ if a == b => {}
        // A different variant, a list, a number: one value.
        _ => out(path, b),
    }
}

fn same_keys(x: &serde_json::Map<String, Value>, y: &serde_json::Map<String, Value>) -> bool {
    x.len() == y.len() && x.keys().all(|k| y.contains_key(k))
}

/// The prefab's entity `original` with `overrides` (those of its source id)
/// applied, and the overrides its form no longer has a place for.
pub fn apply(original: &Entity, overrides: &[Override]) -> Result<(Entity, Vec<Override>), String> {
    let mut v = form(original)?;
    let mut orphaned = Vec::new();
    for o in overrides.iter().filter(|o| o.source == original.id) {
        match v.pointer_mut(&o.path) {
            Some(slot) => *slot = o.value.clone(),
            None => orphaned.push(o.clone()),
        }
    }
    // A value of the wrong shape (a field's type changed) refuses the whole
    // entity's overrides rather than making something the prefab never was.
    match serde_json::from_value::<Entity>(v) {
        Ok(e) if holds_together(&e) => Ok((e, orphaned)),
        outcome => {
            let err = match outcome {
                Err(err) => err.to_string(),
                Ok(_) => "its geometry does not hold together".into(),
            };
            let mine: Vec<Override> = overrides
                .iter()
                .filter(|o| o.source == original.id)
                .cloned()
                .collect();
            if mine.is_empty() {
                return Err(format!("{}: {err}", original.name));
            }
            Ok((original.clone(), mine))
        }
    }
}

/// Whether an entity's geometry (a mesh's, a walkable surface's) indexes only
/// the vertices it has.
fn holds_together(e: &Entity) -> bool {
    match &e.kind {
        crate::entity::EntityKind::Mesh(m) => m.geometry.validate().is_ok(),
        crate::entity::EntityKind::Walkable(g) => g.validate().is_ok(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::{EntityKind, Light};
    use crate::id::EntityId;
    use crate::math::Transform;
    use glam::Vec3;

    fn torch(id: u32) -> Entity {
        let mut e = Entity::new(
            "Torch",
            EntityKind::Light(Light::Omni {
                color: [1.0, 0.6, 0.2],
                radius: 5.0,
                intensity: 1.0,
                shadows: true,
                cone: None,
            }),
        )
        .with_transform(Transform::from_translation(Vec3::new(1.0, 2.0, 0.0)));
        e.id = EntityId(id);
        e
    }

    fn colour(e: &Entity) -> [f32; 3] {
        match &e.kind {
            EntityKind::Light(Light::Omni { color, .. }) => *color,
            other => panic!("{other:?}"),
        }
    }

    /// The case: a torch's colour changed on one copy; then the prefab
    /// renames the torch, moves it and puts it under another parent. The copy
    /// keeps its colour and takes the prefab's new name, place and parent.
    #[test]
    fn an_override_survives_rename_move_and_reparent_in_the_prefab() {
        let original = torch(3);
        let mut copy = original.clone();
        copy.id = EntityId(40); // the copy's own id in the scene
        copy.parent = Some(EntityId(39));
        if let EntityKind::Light(Light::Omni { color, .. }) = &mut copy.kind {
            *color = [0.2, 0.4, 1.0];
        }
        let o = diff(&original, &copy).expect("diffs");
        // The scene's id and parent are the copy's, not overrides; the colour is.
        assert_eq!(o.len(), 1, "{o:?}");
        assert_eq!(o[0].path, "/kind/Light/Omni/color");
        assert_eq!(o[0].source, EntityId(3));

        let mut changed = original.clone();
        changed.name = "Wall torch".into();
        changed.transform.translation = Vec3::new(-4.0, 2.5, 1.0);
        changed.parent = Some(EntityId(7));
        let (rebuilt, orphaned) = apply(&changed, &o).expect("applies");
        assert!(orphaned.is_empty());
        assert_eq!(colour(&rebuilt), [0.2, 0.4, 1.0], "the override kept");
        assert_eq!(rebuilt.name, "Wall torch");
        assert_eq!(rebuilt.transform.translation, Vec3::new(-4.0, 2.5, 1.0));
        assert_eq!(rebuilt.parent, Some(EntityId(7)));
    }

    /// Structure is not an override: a copy elsewhere in the hierarchy differs
    /// from the prefab by nothing an instance keeps.
    #[test]
    fn identity_and_parent_are_never_overrides() {
        let original = torch(3);
        let mut copy = original.clone();
        copy.id = EntityId(99);
        copy.parent = Some(EntityId(5));
        let o = diff(&original, &copy).expect("diffs");
        assert!(o.is_empty(), "{o:?}");
    }

    /// The prefab's torch became a group: the colour override has no place left
    /// and is handed back, not lost; an override of another entity is ignored.
    #[test]
    fn an_override_without_a_place_is_handed_back() {
        let o = Override {
            source: EntityId(3),
            path: "/kind/Light/Omni/color".into(),
            value: serde_json::json!([0.0, 1.0, 0.0]),
        };
        let other = Override {
            source: EntityId(8),
            ..o.clone()
        };
        let mut group = torch(3);
        group.kind = EntityKind::Group;
        let (rebuilt, orphaned) = apply(&group, &[o.clone(), other]).expect("applies");
        assert_eq!(rebuilt.kind, EntityKind::Group);
        assert_eq!(orphaned, vec![o]);
    }

    /// A value of the wrong shape for its place (a colour written as text)
    /// leaves the entity as the prefab has it and hands the overrides back.
    #[test]
    fn a_value_of_the_wrong_shape_is_refused_and_handed_back() {
        let o = Override {
            source: EntityId(3),
            path: "/kind/Light/Omni/color".into(),
            value: serde_json::json!("blue"),
        };
        let (rebuilt, orphaned) = apply(&torch(3), std::slice::from_ref(&o)).expect("applies");
        assert_eq!(colour(&rebuilt), [1.0, 0.6, 0.2]);
        assert_eq!(orphaned, vec![o]);
    }
}
