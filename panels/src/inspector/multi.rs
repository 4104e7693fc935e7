//! The inspector for several selected entities: the fields they share. The
//! transform's components always; when they are all of one kind, that kind's
//! fields (a mesh's collidable flag and, for primitives of one shape, their
//! parameters). A value they do not share shows as mixed ("—"); a value typed or
//! changed there is set on all of them and nothing else changes, as one undo step.
//!
//! The kind's editor is the one a single entity gets, run on a stand-in: the
//! first entity's fields, with every number the selection does not share set to
//! [`MIXED`]. What the editor changed on the stand-in (compared as serde data,
//! leaf by leaf) is then set on each entity's own fields. Why serde: one generic
//! diff serves every kind's editor, present and future, instead of a second,
//! hand-written editor per kind that would drift from the first.

use pebble_model::command::{SetEntity, SetPrimitive, SetTransforms};
use pebble_model::entity::{EntityKind, GeometrySource, limits};
use pebble_model::glam::{EulerRot, Quat};
use pebble_model::{Command, CommandGroup, EditKey, Entity, Kind, Primitive, Scene};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::form::{Form, RowName};
use super::{InspectorPanel, kinds, lights};
use crate::number_field::MIXED;

/// The shared value of `values`: a number they do not all hold becomes
/// [`MIXED`]; arrays and objects of the same shape are compared inside.
pub(super) fn shared(first: &Value, others: &[&Value]) -> Value {
    match first {
        Value::Number(n) if n.is_f64() => {
            if others.iter().all(|o| *o == first) {
                first.clone()
            } else {
                serde_json::Number::from_f64(f64::from(MIXED)).map_or(first.clone(), Value::Number)
            }
        }
        Value::Array(items) => {
            if !others
                .iter()
                .all(|o| o.as_array().is_some_and(|a| a.len() == items.len()))
            {
                return first.clone();
            }
            Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(k, item)| {
                        let theirs: Vec<&Value> = others.iter().map(|o| &o[k]).collect();
                        shared(item, &theirs)
                    })
                    .collect(),
            )
        }
        Value::Object(fields) => {
            let same_keys = others.iter().all(|o| {
                o.as_object().is_some_and(|m| {
                    m.len() == fields.len() && fields.keys().all(|k| m.contains_key(k))
                })
            });
            if !same_keys {
                return first.clone();
            }
            Value::Object(
                fields
                    .iter()
                    .map(|(k, v)| {
                        let theirs: Vec<&Value> = others.iter().map(|o| &o[k]).collect();
                        (k.clone(), shared(v, &theirs))
                    })
                    .collect(),
            )
        }
        _ => first.clone(),
    }
}

fn is_mixed(v: &Value) -> bool {
    v.as_f64().is_some_and(crate::number_field::is_mixed)
}

/// `target` with what changed from `before` to `after` set on it: a changed
/// leaf (or a changed shape: another variant, another length) takes `after`'s,
/// whose mixed numbers then take `target`'s own where it has them. `None` when a
/// mixed number has nothing to take (a variant switched while a size differed).
pub(super) fn patched(before: &Value, after: &Value, target: &Value) -> Option<Value> {
    if before == after {
        return Some(target.clone());
    }
    match (before, after, target) {
        (Value::Object(b), Value::Object(a), Value::Object(t))
            if b.len() == a.len() && a.keys().all(|k| b.contains_key(k) && t.contains_key(k)) =>
        {
            let mut out = t.clone();
            for (k, av) in a {
                out.insert(k.clone(), patched(&b[k], av, &t[k])?);
            }
            Some(Value::Object(out))
        }
        (Value::Array(b), Value::Array(a), Value::Array(t))
            if b.len() == a.len() && a.len() == t.len() =>
        {
            let items: Option<Vec<Value>> =
                (0..a.len()).map(|k| patched(&b[k], &a[k], &t[k])).collect();
            items.map(Value::Array)
        }
        _ => filled(after, Some(target)),
    }
}

/// `new` with its mixed numbers taken from `own` (at the same place).
fn filled(new: &Value, own: Option<&Value>) -> Option<Value> {
    match new {
        v if is_mixed(v) => own.filter(|o| o.is_number() && !is_mixed(o)).cloned(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(k, item)| filled(item, own.and_then(|o| o.get(k))))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        Value::Object(fields) => fields
            .iter()
            .map(|(k, v)| filled(v, own.and_then(|o| o.get(k))).map(|v| (k.clone(), v)))
            .collect::<Option<serde_json::Map<_, _>>>()
            .map(Value::Object),
        other => Some(other.clone()),
    }
}

/// The stand-in for several values: the first's, with what they do not share
/// mixed. `None` when they cannot be written as data (never for the model's).
pub(super) fn stand_in<T: Serialize + DeserializeOwned>(values: &[&T]) -> Option<(T, Value)> {
    let data: Vec<Value> = values
        .iter()
        .map(|v| serde_json::to_value(v).ok())
        .collect::<Option<_>>()?;
    let (first, rest) = data.split_first()?;
    let rest: Vec<&Value> = rest.iter().collect();
    let shown = shared(first, &rest);
    let value = serde_json::from_value(shown.clone()).ok()?;
    Some((value, shown))
}

/// Each of `values` with what changed on the stand-in (`shown` → `edited`) set
/// on it, or why it cannot be.
pub(super) fn apply_to_each<T: Serialize + DeserializeOwned>(
    values: &[&T],
    shown: &Value,
    edited: &T,
) -> Result<Vec<T>, String> {
    let after = serde_json::to_value(edited).map_err(|e| e.to_string())?;
    values
        .iter()
        .map(|v| {
            let own = serde_json::to_value(v).map_err(|e| e.to_string())?;
            let new = patched(shown, &after, &own).ok_or(
                "that change needs a value the selection does not share: set it on one at a time",
            )?;
            serde_json::from_value(new).map_err(|e| e.to_string())
        })
        .collect()
}

impl InspectorPanel {
    pub(super) fn multi_ui(&mut self, ui: &mut egui::Ui, scene: &Scene) {
        let entities: Vec<&Entity> = scene
            .selection()
            .iter()
            .filter_map(|id| scene.entity(*id))
            .collect();
        let mut kinds: Vec<Kind> = entities.iter().map(|e| e.kind.kind()).collect();
        kinds.dedup();
        let one_kind = match kinds.as_slice() {
            [k] => Some(*k),
            _ => None,
        };
        ui.label(match one_kind {
            Some(k) => format!("{} entities selected, all {}", entities.len(), plural(k)),
            None => format!("{} entities selected, of several kinds", entities.len()),
        });
        ui.weak("a value they do not share shows as —; a value set here is set on all");
        ui.separator();
        self.transforms_ui(ui, &entities);
        ui.separator();
        match one_kind {
            Some(Kind::Mesh) => self.meshes_ui(ui, &entities),
            Some(_) => self.kinds_ui(ui, scene, &entities),
            None => {
                ui.weak("select entities of one kind to edit their kind's fields together");
            }
        }
    }

    fn transforms_ui(&mut self, ui: &mut egui::Ui, entities: &[&Entity]) {
        ui.label("Transform");
        let first = entities[0].id.0;
        let mut form = Form::of_many("entities transform", first);
        let eulers: Vec<[f32; 3]> = entities
            .iter()
            .map(|e| {
                let (y, x, z) = e.transform.rotation.to_euler(EulerRot::YXZ);
                [x, y, z].map(f32::to_degrees)
            })
            .collect();
        let column = |get: &dyn Fn(usize) -> f32| -> f64 {
            let v = get(0);
            if (1..entities.len()).all(|i| (get(i) - v).abs() <= 1e-5) {
                // Rounded as the single inspector rounds, and no -0.
                (f64::from(v) * 1e4).round() / 1e4 + 0.0
            } else {
                f64::from(MIXED)
            }
        };
        let rows: [(&str, &pebble_model::entity::Limit, &str); 3] = [
            ("position", &limits::POSITION, ""),
            ("rotation", &limits::ROTATION, "(pitch, yaw, roll)"),
            ("scale", &limits::SCALE, ""),
        ];
        for (row, (name, limit, note)) in rows.into_iter().enumerate() {
            let get = |i: usize, k: usize| match row {
                0 => entities[i].transform.translation[k],
                1 => eulers[i][k],
                _ => entities[i].transform.scale[k],
            };
            let parts: Vec<(&str, f64)> = ["x", "y", "z"]
                .into_iter()
                .enumerate()
                .map(|(k, p)| (p, column(&|i| get(i, k))))
                .collect();
            let Some((k, v)) = form.row(ui, name, &parts, limit, note, RowName::Above) else {
                continue;
            };
            let v = v as f32;
            let after = entities
                .iter()
                .zip(&eulers)
                .map(|(e, euler)| {
                    let mut t = e.transform;
                    match row {
                        0 => t.translation[k] = v,
                        1 => {
                            let mut r = *euler;
                            r[k] = v;
                            let r = r.map(f32::to_radians);
                            t.rotation = Quat::from_euler(EulerRot::YXZ, r[1], r[0], r[2]);
                        }
                        _ => t.scale[k] = v,
                    }
                    (e.id, t)
                })
                .collect();
            self.commit(
                &form,
                SetTransforms::new(format!("Transform {} entities", entities.len()), after)
                    .textures_stay_in_world(self.textures_stay_in_world),
            );
        }
    }

    /// The fields of several entities of one kind (not meshes), edited together.
    fn kinds_ui(&mut self, ui: &mut egui::Ui, scene: &Scene, entities: &[&Entity]) {
        // Game entities edit field by field (a thousand at once, no stand-in).
        if entities
            .iter()
            .all(|e| matches!(e.kind, EntityKind::Defined(_)))
        {
            self.defined_ui(ui, scene, entities);
            return;
        }
        let kinds: Vec<&EntityKind> = entities.iter().map(|e| &e.kind).collect();
        let Some((mut kind, shown)) = stand_in(&kinds) else {
            return;
        };
        let before = kind.clone();
        let mut form = Form::of_many("entities kind", entities[0].id.0);
        let changed = match &mut kind {
            EntityKind::Light(light) => lights::light_ui(ui, &mut form, light),
            EntityKind::Emitter(em) => kinds::emitter_ui(ui, &mut form, em),
            EntityKind::Collider(c) => {
                let meshes: Vec<_> = scene
                    .entities_of(Kind::Mesh)
                    .map(|e| (e.id, e.name.clone()))
                    .collect();
                kinds::collider_ui(ui, &mut form, c, &meshes)
            }
            EntityKind::Defined(_) => {
                self.defined_ui(ui, scene, entities);
                false
            }
            EntityKind::Group
            | EntityKind::Mesh(_)
            | EntityKind::Walkable(_)
            | EntityKind::Custom(_) => {
                ui.weak("nothing more they share to edit");
                false
            }
        };
        if kind == before || (!changed && form.committed.is_none()) {
            return;
        }
        let after = match apply_to_each(&kinds, &shown, &kind) {
            Ok(after) => after,
            Err(e) => {
                if let Some(id) = form.committed {
                    crate::number_field::reject(ui.ctx(), id, e);
                }
                return;
            }
        };
        let commands: Vec<Box<dyn Command>> = entities
            .iter()
            .zip(after)
            .map(|(e, kind)| {
                let mut new = (*e).clone();
                new.kind = kind;
                Box::new(SetEntity::new("Edit", new)) as Box<dyn Command>
            })
            .collect();
        let name = if form.committed.is_some() {
            format!(
                "Edit {} of {} entities",
                form.committed_name,
                entities.len()
            )
        } else {
            format!("Edit {} entities", entities.len())
        };
        let group = CommandGroup::new(name, commands);
        if form.committed.is_some() {
            self.commit(&form, group);
        } else {
            // A colour dragged, a box ticked: one step while the pointer is down.
            self.continue_edit(
                Box::new(group),
                EditKey::Entity {
                    id: entities[0].id.0,
                    field: 30,
                },
            );
        }
    }

    /// Several meshes: collidable, and the parameters of primitives of one shape.
    fn meshes_ui(&mut self, ui: &mut egui::Ui, entities: &[&Entity]) {
        let collidable: Vec<bool> = entities
            .iter()
            .map(|e| matches!(&e.kind, EntityKind::Mesh(m) if m.collidable))
            .collect();
        let all = collidable.iter().all(|c| *c);
        let mut on = all;
        let check =
            egui::Checkbox::new(&mut on, "collidable (exported as triangle-mesh colliders)")
                .indeterminate(!all && collidable.iter().any(|c| *c));
        if ui.add(check).changed() {
            let commands: Vec<Box<dyn Command>> = entities
                .iter()
                .map(|e| {
                    let mut new = (*e).clone();
                    if let EntityKind::Mesh(m) = &mut new.kind {
                        m.collidable = on;
                    }
                    Box::new(SetEntity::new("Edit", new)) as Box<dyn Command>
                })
                .collect();
            self.intents
                .push(pebble_core::intent::Intent::Execute(Box::new(
                    CommandGroup::new(format!("Collidable: {} meshes", entities.len()), commands),
                )));
        }
        let primitives: Vec<&Primitive> = entities
            .iter()
            .filter_map(|e| match &e.kind {
                EntityKind::Mesh(m) => match &m.source {
                    GeometrySource::Primitive(p) => Some(p),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let shapes: Vec<&str> = primitives.iter().map(|p| p.kind_name()).collect();
        if primitives.len() != entities.len() || shapes.windows(2).any(|w| w[0] != w[1]) {
            ui.weak("select primitives of one shape to edit their sizes together");
            return;
        }
        ui.label(format!("{} ({} parametric)", shapes[0], primitives.len()));
        let Some((mut p, shown)) = stand_in(&primitives) else {
            return;
        };
        let mut form = Form::of_many("entities primitive", entities[0].id.0);
        let before = p.clone();
        if !kinds::primitive_ui(ui, &mut form, &mut p) || p == before {
            return;
        }
        match apply_to_each(&primitives, &shown, &p) {
            Ok(after) => {
                let commands: Vec<Box<dyn Command>> = entities
                    .iter()
                    .zip(after)
                    .map(|(e, p)| Box::new(SetPrimitive::new(e.id, p)) as Box<dyn Command>)
                    .collect();
                let name = format!(
                    "Edit {} of {} entities",
                    form.committed_name,
                    entities.len()
                );
                self.commit(&form, CommandGroup::new(name, commands));
            }
            Err(e) => {
                if let Some(id) = form.committed {
                    crate::number_field::reject(ui.ctx(), id, e);
                }
            }
        }
    }
}

fn plural(k: Kind) -> String {
    let name = k.name();
    match name {
        "mesh" => "meshes".into(),
        "ball pit" => "ball pits".into(),
        "player spawn" => "player spawns".into(),
        "game entity" => "game entities".into(),
        other => format!("{other}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_differs_is_mixed_and_a_change_reaches_each_own_value() {
        let a = json!({ "radius": 2.0, "color": [1.0, 0.5, 0.0], "shadows": true });
        let b = json!({ "radius": 3.0, "color": [1.0, 0.25, 0.0], "shadows": true });
        let shown = shared(&a, &[&b]);
        let m = f64::from(MIXED);
        assert_eq!(
            shown,
            json!({ "radius": m, "color": [1.0, m, 0.0], "shadows": true })
        );
        // The shared red changed: each keeps its own radius and green.
        let mut edited = shown.clone();
        edited["color"][0] = json!(0.75);
        assert_eq!(
            patched(&shown, &edited, &b),
            Some(json!({ "radius": 3.0, "color": [0.75, 0.25, 0.0], "shadows": true }))
        );
        // A mixed value typed: set on all.
        let mut edited = shown.clone();
        edited["radius"] = json!(5.0);
        assert_eq!(
            patched(&shown, &edited, &a).expect("a")["radius"],
            json!(5.0)
        );
        assert_eq!(
            patched(&shown, &edited, &b).expect("b")["radius"],
            json!(5.0)
        );
        // Another variant, built from a mixed size: each fills in its own where
        // it can, else refused.
        let a = json!({ "Box": { "size": [1.0, 2.0, 3.0] } });
        let b = json!({ "Box": { "size": [1.0, 4.0, 3.0] } });
        let shown = shared(&a, &[&b]);
        let switched = json!({ "Ramp": { "size": [1.0, m, 3.0] } });
        assert_eq!(patched(&shown, &switched, &a), None);
    }
}
