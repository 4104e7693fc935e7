//! Random command sequences on random scenes: undoing everything gives exactly the
//! initial scene, redoing everything the final one, and save → load round-trips.

mod common;
use common::*;

use glam::{Quat, Vec2, Vec3};
use pebble_model::command::*;
use pebble_model::definitions::FieldValue;
use pebble_model::definitions::builtin::instance;
use pebble_model::entity::{EntityKind, Light};
use pebble_model::scene::{Environment, SceneSettings};
use pebble_model::{Command, Entity, EntityId, History, Material, Scene, Transform};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Debug, Clone)]
enum Op {
    AddBox(u8, [i8; 3]),
    AddLight,
    AddSpawn(u8),
    Remove(u8),
    Move(u8, u8, [i8; 3], bool),
    Rename(u8),
    ToggleVisible(u8),
    Reparent(u8, Option<u8>),
    Duplicate(u8),
    Group(u8, u8),
    Ungroup(u8),
    AddMaterial,
    EditMaterial(u8, i8),
    Assign(u8, u8, u8),
    Scroll(u8, u8, i8),
    Select(Vec<u8>),
    Settings(u8),
    Resize(u8, u8, bool),
    Undo,
    Redo,
}

fn op() -> impl Strategy<Value = Op> {
    let i = any::<u8>;
    prop_oneof![
        3 => (i(), any::<[i8; 3]>()).prop_map(|(m, p)| Op::AddBox(m, p)),
        1 => Just(Op::AddLight),
        1 => i().prop_map(Op::AddSpawn),
        2 => i().prop_map(Op::Remove),
        4 => (i(), i(), any::<[i8; 3]>(), any::<bool>()).prop_map(|(a, b, p, c)| Op::Move(a, b, p, c)),
        1 => i().prop_map(Op::Rename),
        1 => i().prop_map(Op::ToggleVisible),
        2 => (i(), proptest::option::of(i())).prop_map(|(a, b)| Op::Reparent(a, b)),
        2 => i().prop_map(Op::Duplicate),
        1 => (i(), i()).prop_map(|(a, b)| Op::Group(a, b)),
        1 => i().prop_map(Op::Ungroup),
        1 => Just(Op::AddMaterial),
        2 => (i(), any::<i8>()).prop_map(|(a, b)| Op::EditMaterial(a, b)),
        1 => (i(), i(), i()).prop_map(|(a, b, c)| Op::Assign(a, b, c)),
        2 => (i(), i(), any::<i8>()).prop_map(|(a, b, c)| Op::Scroll(a, b, c)),
        2 => proptest::collection::vec(i(), 0..3).prop_map(Op::Select),
        1 => i().prop_map(Op::Settings),
        2 => (i(), i(), any::<bool>()).prop_map(|(a, b, c)| Op::Resize(a, b, c)),
        2 => Just(Op::Undo),
        1 => Just(Op::Redo),
    ]
}

fn pick(scene: &Scene, k: u8) -> Option<EntityId> {
    let ids: Vec<EntityId> = scene.data().order.clone();
    (!ids.is_empty()).then(|| ids[k as usize % ids.len()])
}

fn pick_material(scene: &Scene, k: u8) -> Option<pebble_model::MaterialId> {
    let ids: Vec<_> = scene.materials().map(|(id, _)| id).collect();
    (!ids.is_empty()).then(|| ids[k as usize % ids.len()])
}

fn faces_of(scene: &Scene, id: EntityId) -> usize {
    match scene.entity(id).map(|e| &e.kind) {
        Some(EntityKind::Mesh(m)) => m.geometry.faces.len(),
        _ => 0,
    }
}

/// The command an op stands for in the current scene, if it makes sense there.
fn command(scene: &Scene, op: &Op) -> Option<(Box<dyn Command>, Option<pebble_model::EditKey>)> {
    let c: Box<dyn Command> = match op {
        Op::AddBox(m, p) => {
            let mat = pick_material(scene, *m)?;
            let at = Vec3::new(f32::from(p[0]), f32::from(p[1]), f32::from(p[2])) * 0.25;
            Box::new(AddEntities::new(
                "Add box",
                vec![box_entity("Box", mat, at)],
            ))
        }
        Op::AddLight => Box::new(AddEntities::new(
            "Add light",
            vec![Entity::new(
                "Lamp",
                EntityKind::Light(Light::Omni {
                    color: [1.0, 0.8, 0.6],
                    radius: 4.0,
                    intensity: 2.0,
                    shadows: true,
                    cone: None,
                }),
            )],
        )),
        Op::AddSpawn(y) => Box::new(AddEntities::new(
            "Add spawn",
            vec![Entity::new(
                "Spawn",
                EntityKind::Defined(instance(
                    "PlayerSpawn",
                    [("yaw", FieldValue::Float(f32::from(*y) / 40.0))],
                )),
            )],
        )),
        Op::Remove(k) => Box::new(RemoveEntities::new(vec![pick(scene, *k)?])),
        Op::Move(a, b, p, continuous) => {
            let ids = [pick(scene, *a)?, pick(scene, *b)?];
            let ids = if ids[0] == ids[1] {
                vec![ids[0]]
            } else {
                ids.to_vec()
            };
            let after = ids
                .iter()
                .map(|id| {
                    let t = Transform {
                        translation: Vec3::new(f32::from(p[0]), f32::from(p[1]), f32::from(p[2]))
                            * 0.125,
                        rotation: Quat::from_rotation_y(f32::from(p[0]) * 0.01),
                        scale: Vec3::splat(1.0 + f32::from(p[2].unsigned_abs()) * 0.01),
                    };
                    (*id, t)
                })
                .collect();
            let edit = continuous.then_some(pebble_model::EditKey::Entity {
                id: ids[0].0,
                field: 0,
            });
            return Some((Box::new(SetTransforms::new("Move", after)), edit));
        }
        Op::Rename(k) => {
            let mut e = scene.entity(pick(scene, *k)?)?.clone();
            e.name.push('x');
            Box::new(SetEntity::new("Rename", e))
        }
        Op::ToggleVisible(k) => {
            let mut e = scene.entity(pick(scene, *k)?)?.clone();
            e.visible = !e.visible;
            Box::new(SetEntity::new("Toggle visibility", e))
        }
        Op::Reparent(a, b) => {
            let parent = match b {
                Some(b) => Some(pick(scene, *b)?),
                None => None,
            };
            Box::new(Reparent::new(vec![pick(scene, *a)?], parent))
        }
        Op::Duplicate(k) => Box::new(Duplicate::new(vec![pick(scene, *k)?])),
        Op::Group(a, b) => {
            let (a, b) = (pick(scene, *a)?, pick(scene, *b)?);
            let ids = if a == b { vec![a] } else { vec![a, b] };
            Box::new(Group::new(ids, "Group"))
        }
        Op::Ungroup(k) => Box::new(Ungroup::new(pick(scene, *k)?)),
        Op::AddMaterial => Box::new(AddMaterial::new(Material {
            name: "New".into(),
            ..Material::default()
        })),
        Op::EditMaterial(k, v) => {
            let id = pick_material(scene, *k)?;
            let mut m = scene.material(id)?.clone();
            m.tiling = Vec2::splat(1.0 + f32::from(v.unsigned_abs()) * 0.1);
            m.double_sided = *v < 0;
            return Some((
                Box::new(SetMaterial::new(id, m)),
                Some(pebble_model::EditKey::Material { id: id.0 }),
            ));
        }
        Op::Assign(e, f, m) => {
            let id = pick(scene, *e)?;
            let n = faces_of(scene, id);
            if n == 0 {
                return None;
            }
            Box::new(AssignMaterial::new(
                id,
                vec![*f as usize % n],
                pick_material(scene, *m)?,
            ))
        }
        Op::Scroll(e, f, s) => {
            let id = pick(scene, *e)?;
            let n = faces_of(scene, id);
            if n == 0 {
                return None;
            }
            let faces = vec![*f as usize % n, (*f as usize + 1) % n];
            Box::new(ApplyScroll::new(
                id,
                faces,
                Vec2::new(0.0, f32::from(*s) / 64.0),
            ))
        }
        Op::Select(ks) => Box::new(Select::new(
            ks.iter().filter_map(|k| pick(scene, *k)).collect(),
        )),
        Op::Settings(k) => Box::new(SetSettings::new(SceneSettings {
            map_name: format!("Map {k}"),
            environment: Environment::ALL[*k as usize % 4],
            ..SceneSettings::default()
        })),
        Op::Resize(k, size, continuous) => {
            let id = pick(scene, *k)?;
            let p = pebble_model::Primitive::Stairs {
                steps: 1 + u32::from(*size % 3),
                width: 1.0,
                rise: 0.2,
                run: 0.3 + f32::from(*size) * 0.01,
            };
            return Some((
                Box::new(SetPrimitive::new(id, p)),
                continuous.then_some(pebble_model::EditKey::Entity { id: id.0, field: 1 }),
            ));
        }
        Op::Undo | Op::Redo => return None,
    };
    Some((c, None))
}

fn initial_scene(boxes: u8) -> (Scene, History) {
    let mut scene = Scene::new();
    let mut history = History::default();
    let mat = add_material(&mut scene, &mut history, "Base");
    let entities = (0..boxes)
        .map(|i| box_entity(&format!("Box {i}"), mat, Vec3::X * f32::from(i)))
        .collect();
    add(&mut scene, &mut history, entities);
    // The test starts from here: a fresh history over a built scene.
    (scene, History::default())
}

fn without_selection(scene: &Scene) -> pebble_model::SceneData {
    let mut d = scene.data().clone();
    d.selection.clear();
    d
}

fn run(boxes: u8, ops: &[Op]) -> Result<(), TestCaseError> {
    let (mut scene, mut history) = initial_scene(boxes);
    let initial = scene.clone();
    for op in ops {
        match op {
            Op::Undo => {
                history.undo(&mut scene);
            }
            Op::Redo => {
                if let Some(r) = history.redo(&mut scene) {
                    r.map_err(|e| TestCaseError::fail(format!("redo failed: {e}")))?;
                }
            }
            op => {
                if let Some((cmd, edit)) = command(&scene, op) {
                    let before = scene.clone();
                    ATTEMPTED.fetch_add(1, Ordering::Relaxed);
                    if history.execute_boxed(&mut scene, cmd, edit).is_err() {
                        prop_assert_eq!(&scene, &before, "a refused command changed the scene");
                    } else {
                        APPLIED.fetch_add(1, Ordering::Relaxed);
                    }
                    scene.check_consistency().map_err(TestCaseError::fail)?;
                    if edit.is_none() {
                        history.end_edit(&mut scene);
                    }
                }
            }
        }
    }
    // The final scene: every command of the sequence that is still in the history
    // applied (an undone tail is redone first).
    while let Some(r) = history.redo(&mut scene) {
        r.map_err(|e| TestCaseError::fail(format!("redo failed: {e}")))?;
    }
    let final_state = scene.clone();
    while history.undo(&mut scene).is_some() {}
    scene.check_consistency().map_err(TestCaseError::fail)?;
    prop_assert_eq!(
        &scene,
        &initial,
        "undoing everything gives the initial scene"
    );
    while let Some(r) = history.redo(&mut scene) {
        r.map_err(|e| TestCaseError::fail(format!("redo failed: {e}")))?;
    }
    prop_assert_eq!(
        &scene,
        &final_state,
        "redoing everything gives the final scene"
    );
    let text = pebble_model::project::to_ron(&final_state)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let loaded = pebble_model::project::from_ron(&text, std::path::Path::new("mem.pebble.ron"))
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(
        without_selection(&loaded),
        without_selection(&final_state),
        "save → load round-trips"
    );
    Ok(())
}

static ATTEMPTED: AtomicUsize = AtomicUsize::new(0);
static APPLIED: AtomicUsize = AtomicUsize::new(0);

#[test]
fn undo_all_restores_redo_all_replays() {
    let config = ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let strategy = (0u8..6, proptest::collection::vec(op(), 50));
    if let Err(e) = runner.run(&strategy, |(boxes, ops)| run(boxes, &ops)) {
        panic!("{e}");
    }
    let (attempted, applied) = (
        ATTEMPTED.load(Ordering::Relaxed),
        APPLIED.load(Ordering::Relaxed),
    );
    // The sequences must mostly do something, or the property says little.
    assert!(
        applied * 2 > attempted,
        "{applied} of {attempted} commands applied"
    );
    eprintln!("{applied} of {attempted} generated commands applied");
}
