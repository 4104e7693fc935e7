//! What each command does, and what undo gives back.

mod common;
use common::*;

use glam::{Vec2, Vec3};
use pebble_model::command::*;
use pebble_model::entity::EntityKind;
use pebble_model::scene::SceneSettings;
use pebble_model::{EditKey, EntityId, History, Kind, Transform};

#[test]
fn removing_a_group_removes_its_subtree_and_undo_restores_order_and_selection() {
    let (mut scene, mut history, _, ids) = small_scene();
    history
        .execute(&mut scene, Select::new(vec![ids[1], ids[3]]))
        .expect("select");
    let before = scene.clone();
    history
        .execute(&mut scene, RemoveEntities::new(vec![ids[0]]))
        .expect("remove");
    assert_eq!(scene.len(), 1);
    assert_eq!(
        scene.selection(),
        &[ids[3]],
        "removed entities leave the selection"
    );
    history.undo(&mut scene);
    assert_eq!(scene, before);
    assert_eq!(scene.data().order, before.data().order);
}

#[test]
fn reparenting_keeps_world_placement_and_refuses_cycles() {
    let (mut scene, mut history, _, ids) = small_scene();
    let world_before = scene.world_transform(ids[3]).transform_point3(Vec3::ONE);
    history
        .execute(&mut scene, Reparent::new(vec![ids[3]], Some(ids[1])))
        .expect("reparent");
    assert_eq!(scene.entity(ids[3]).and_then(|e| e.parent), Some(ids[1]));
    let world_after = scene.world_transform(ids[3]).transform_point3(Vec3::ONE);
    assert!(
        (world_before - world_after).length() < 1e-4,
        "{world_before} vs {world_after}"
    );
    let err = history
        .execute(&mut scene, Reparent::new(vec![ids[0]], Some(ids[3])))
        .expect_err("cycle");
    assert!(matches!(err, CommandError::Cycle { .. }), "{err}");
    assert_eq!(
        history.undo_name().as_deref(),
        Some("Move into group"),
        "a refused command is not recorded"
    );
}

#[test]
fn duplicate_copies_subtrees_with_fresh_ids_and_selects_them() {
    let (mut scene, mut history, _, ids) = small_scene();
    history
        .execute(&mut scene, Duplicate::new(vec![ids[0]]))
        .expect("duplicate");
    assert_eq!(scene.len(), 7);
    let sel = scene.selection().to_vec();
    assert_eq!(sel.len(), 1);
    let copy = scene.entity(sel[0]).expect("copy");
    assert_eq!(copy.name, "Group 2");
    assert!(!ids.contains(&copy.id));
    assert_eq!(
        scene.children(Some(copy.id)).len(),
        2,
        "children were copied under the copy"
    );
    history.undo(&mut scene);
    history.redo(&mut scene).expect("redo").expect("applies");
    assert_eq!(scene.selection(), &sel, "redo recreates the same ids");
    // Ids are never reused, even after undo.
    history.undo(&mut scene);
    history
        .execute(&mut scene, Duplicate::new(vec![ids[3]]))
        .expect("duplicate");
    assert!(scene.selection()[0].0 > sel[0].0);
}

#[test]
fn group_and_ungroup_round_trip() {
    let (mut scene, mut history, _, ids) = small_scene();
    let start = scene.clone();
    let world = scene.world_transform(ids[1]);
    history
        .execute(&mut scene, Group::new(vec![ids[1], ids[3]], "Pair"))
        .expect("group");
    let gid = scene.selection()[0];
    assert_eq!(scene.entity(gid).map(|e| e.kind.kind()), Some(Kind::Group));
    assert_eq!(scene.children(Some(gid)), vec![ids[1], ids[3]]);
    assert!(scene.world_transform(ids[1]).abs_diff_eq(world, 1e-5));
    // The group's origin at the middle of its members' base, not the world's origin.
    let bounds = [ids[1], ids[3]]
        .iter()
        .filter_map(|id| scene.world_aabb(*id))
        .reduce(|a, b| a.union(b))
        .expect("members with bounds");
    let origin = pebble_model::glam::Vec3::from(scene.world_transform(gid).translation);
    let base = pebble_model::glam::Vec3::new(
        (bounds.min.x + bounds.max.x) * 0.5,
        bounds.min.y,
        (bounds.min.z + bounds.max.z) * 0.5,
    );
    assert!(origin.abs_diff_eq(base, 1e-4), "{origin} against {base}");
    assert!(base.length() > 0.1, "the members are away from the origin");
    history
        .execute(&mut scene, Ungroup::new(gid))
        .expect("ungroup");
    assert!(scene.entity(gid).is_none());
    assert_eq!(
        scene.entity(ids[1]).and_then(|e| e.parent),
        Some(ids[0]),
        "back under the group's parent"
    );
    history.undo(&mut scene);
    history.undo(&mut scene);
    assert_eq!(scene, start);
}

#[test]
fn apply_scroll_duplicates_a_shared_material_only_for_the_chosen_faces() {
    let (mut scene, mut history, stone, ids) = small_scene();
    let users_before = scene.material_users(stone).len();
    history
        .execute(
            &mut scene,
            ApplyScroll::new(ids[3], vec![0, 1], Vec2::new(0.0, -0.5)),
        )
        .expect("scroll");
    assert_eq!(
        scene.material(stone).map(|m| m.uv_scroll),
        Some(Vec2::ZERO),
        "the shared material stays still"
    );
    let EntityKind::Mesh(m) = &scene.entity(ids[3]).expect("C").kind else {
        panic!("mesh")
    };
    let scrolling = m.geometry.faces[0].material;
    assert_ne!(scrolling, stone);
    assert_eq!(m.geometry.faces[1].material, scrolling);
    assert_eq!(m.geometry.faces[2].material, stone);
    assert_eq!(
        scene.material(scrolling).map(|m| m.uv_scroll),
        Some(Vec2::new(0.0, -0.5))
    );
    assert_eq!(scene.material_users(stone).len(), users_before - 2);
    // A material used only by the chosen faces is edited in place.
    history
        .execute(
            &mut scene,
            ApplyScroll::new(ids[3], vec![0, 1], Vec2::new(1.0, 0.0)),
        )
        .expect("scroll again");
    assert_eq!(scene.materials().count(), 2);
    assert_eq!(
        scene.material(scrolling).map(|m| m.uv_scroll),
        Some(Vec2::new(1.0, 0.0))
    );
    history.undo(&mut scene);
    history.undo(&mut scene);
    assert_eq!(scene.materials().count(), 1);
    assert_eq!(scene.material_users(stone).len(), users_before);
}

#[test]
fn continuous_edits_merge_into_one_step() {
    let (mut scene, mut history, _, ids) = small_scene();
    let steps = history.position();
    let start = scene.entity(ids[3]).expect("C").transform;
    for k in 1..=30 {
        let t = Transform::from_translation(Vec3::new(k as f32 * 0.1, 0.0, 0.0));
        history
            .execute_continuous(
                &mut scene,
                SetTransforms::new("Move", vec![(ids[3], t)]),
                EditKey::Gizmo,
            )
            .expect("drag");
    }
    history.end_edit(&mut scene);
    assert_eq!(history.position(), steps + 1, "a whole drag is one step");
    assert!((scene.entity(ids[3]).expect("C").transform.translation.x - 3.0).abs() < 1e-5);
    history.undo(&mut scene);
    assert_eq!(scene.entity(ids[3]).expect("C").transform, start);
    // A new drag after the mouse was released is its own step.
    let t = Transform::from_translation(Vec3::X);
    history
        .execute_continuous(
            &mut scene,
            SetTransforms::new("Move", vec![(ids[3], t)]),
            EditKey::Gizmo,
        )
        .expect("drag");
    history.end_edit(&mut scene);
    history
        .execute_continuous(
            &mut scene,
            SetTransforms::new("Move", vec![(ids[3], t)]),
            EditKey::Gizmo,
        )
        .expect("drag");
    assert_eq!(history.position(), steps + 2);
}

/// Cancelling a drag (Esc) puts back exactly what was there: the scene, the undo
/// list (an earlier step of the same name included) and the redo list; a drag that
/// never moved takes nothing back.
#[test]
fn a_cancelled_continuous_edit_restores_everything_as_it_was() {
    let (mut scene, mut history, _, ids) = small_scene();
    let start = scene.entity(ids[3]).expect("C").transform;
    let moved = |x: f32| {
        SetTransforms::new(
            "Move",
            vec![(ids[3], Transform::from_translation(Vec3::new(x, 0.0, 0.0)))],
        )
    };
    // An earlier "Move", undone: it sits on the redo list.
    history.execute(&mut scene, moved(5.0)).expect("move");
    history.execute(&mut scene, moved(6.0)).expect("move");
    history.undo(&mut scene);
    let (undo_before, redo_before) = (history.undo_name(), history.redo_name());
    let position = history.position();
    let at = scene.entity(ids[3]).expect("C").transform;

    // A drag pressed but not moved yet: Esc takes nothing back.
    assert!(!history.cancel_edit(&mut scene, EditKey::Gizmo));
    assert_eq!(history.position(), position);
    assert_eq!(history.undo_name(), undo_before, "the earlier Move stays");

    for k in 1..=10 {
        history
            .execute_continuous(&mut scene, moved(k as f32), EditKey::Gizmo)
            .expect("drag");
    }
    assert!(
        history.redo_name().is_none(),
        "a new edit hides the redo list"
    );
    assert!(history.cancel_edit(&mut scene, EditKey::Gizmo));
    assert_eq!(scene.entity(ids[3]).expect("C").transform, at);
    assert_eq!(history.position(), position);
    assert_eq!(history.undo_name(), undo_before);
    assert_eq!(history.redo_name(), redo_before, "and gives it back");
    // The redo still works, and undoing goes back to the very start.
    assert!(history.redo(&mut scene).is_some_and(|r| r.is_ok()));
    history.undo(&mut scene);
    history.undo(&mut scene);
    assert_eq!(scene.entity(ids[3]).expect("C").transform, start);
}

#[test]
fn dirty_flag_follows_the_saved_state() {
    let (mut scene, mut history, _, ids) = small_scene();
    assert!(history.is_dirty());
    history.mark_saved();
    assert!(!history.is_dirty());
    history
        .execute(&mut scene, Select::new(vec![ids[0]]))
        .expect("select");
    assert!(history.is_dirty());
    history.undo(&mut scene);
    assert!(!history.is_dirty(), "undo back to the saved state is clean");
    history.undo(&mut scene);
    assert!(history.is_dirty());
    history.redo(&mut scene).expect("redo").expect("applies");
    assert!(!history.is_dirty());
}

#[test]
fn new_commands_clear_redo_and_history_is_bounded() {
    let mut scene = pebble_model::Scene::new();
    let mut history = History::new(5);
    for i in 0..8 {
        let s = SceneSettings {
            map_name: format!("Map {i}"),
            ..SceneSettings::default()
        };
        history
            .execute(&mut scene, SetSettings::new(s))
            .expect("settings");
    }
    assert_eq!(history.position(), 5);
    while history.undo(&mut scene).is_some() {}
    assert_eq!(
        scene.settings().map_name,
        "Map 2",
        "the oldest steps fell off"
    );
    history.redo(&mut scene).expect("redo").expect("applies");
    history
        .execute(&mut scene, SetSettings::new(SceneSettings::default()))
        .expect("settings");
    assert!(!history.can_redo());
    let names: Vec<_> = history.entries().into_iter().map(|e| e.name).collect();
    assert_eq!(names.len(), 2);
}

#[test]
fn jump_to_walks_the_history() {
    let (mut scene, mut history, _, ids) = small_scene();
    let base = history.position();
    for id in &ids {
        history
            .execute(&mut scene, Select::new(vec![*id]))
            .expect("select");
    }
    history.jump_to(&mut scene, base + 1).expect("jump back");
    assert_eq!(scene.selection(), &[ids[0]]);
    assert_eq!(history.entries().iter().filter(|e| !e.applied).count(), 3);
    history.jump_to(&mut scene, base + 4).expect("jump forward");
    assert_eq!(scene.selection(), &[ids[3]]);
}

#[test]
fn set_entity_edits_properties_and_refuses_bad_geometry() {
    let (mut scene, mut history, _, ids) = small_scene();
    let mut e = scene.entity(ids[3]).expect("C").clone();
    e.name = "Crate".into();
    history
        .execute(&mut scene, SetEntity::new("Rename", e.clone()))
        .expect("edit");
    assert_eq!(scene.entity(ids[3]).map(|e| e.name.as_str()), Some("Crate"));
    // Hidden: a view setting, outside the History; an edit leaves it as it is.
    assert_eq!(scene.set_visible(&[ids[3]], false), 1);
    assert!(!scene.is_pickable(ids[3]));
    e.visible = true;
    if let EntityKind::Mesh(m) = &mut e.kind {
        m.geometry.faces[0].indices[0] = 9999;
    }
    let err = history
        .execute(&mut scene, SetEntity::new("Break", e))
        .expect_err("bad index");
    assert!(err.to_string().contains("9999"), "{err}");
    let mut moved = scene.entity(ids[3]).expect("C").clone();
    moved.parent = Some(ids[0]);
    assert!(
        history
            .execute(&mut scene, SetEntity::new("Sneak", moved))
            .is_err()
    );
}

#[test]
fn journal_reports_only_what_changed() {
    let (mut scene, mut history, _, ids) = small_scene();
    let rev = scene.revision();
    let t = Transform::from_translation(Vec3::Y);
    history
        .execute(&mut scene, SetTransforms::new("Move", vec![(ids[0], t)]))
        .expect("move");
    let changes = scene.changes_since(rev);
    // Moving the group moves its children in the world.
    assert_eq!(changes.entities, vec![ids[0], ids[1], ids[2]]);
    assert!(changes.removed.is_empty() && !changes.hierarchy);
    let rev = scene.revision();
    history
        .execute(&mut scene, RemoveEntities::new(vec![ids[3]]))
        .expect("remove");
    let changes = scene.changes_since(rev);
    assert_eq!(changes.removed, vec![ids[3]]);
    assert!(changes.hierarchy && changes.selection);
    assert_eq!(
        scene.changes_since(scene.revision()).entities,
        Vec::<EntityId>::new()
    );
}

#[test]
fn queries_world_bounds_and_pick_ids() {
    let (scene, _, _, ids) = small_scene();
    let aabb = scene
        .world_aabb(ids[0])
        .expect("group bounds cover children");
    assert!(aabb.min.x > 2.0 && aabb.max.x < 8.0, "{aabb:?}");
    let all = scene.bounds().expect("bounds");
    assert!(all.max.z > 4.0);
    assert_eq!(
        scene.entity_by_pick_id(ids[2].pick_id()).map(|e| e.id),
        Some(ids[2])
    );
    assert!(scene.entity_by_pick_id(0).is_none());
    assert_eq!(scene.entities_of(Kind::Mesh).count(), 3);
    assert_eq!(scene.counts()[&Kind::Group], 1);
}

#[test]
fn editing_a_primitive_regenerates_it_and_a_slider_drag_is_one_step() {
    use pebble_model::Primitive;
    let (mut scene, mut history, stone, ids) = small_scene();
    history
        .execute(
            &mut scene,
            ApplyScroll::new(ids[3], vec![0], Vec2::new(0.5, 0.0)),
        )
        .expect("scroll one face");
    let scrolled = match &scene.entity(ids[3]).expect("C").kind {
        EntityKind::Mesh(m) => m.geometry.faces[0].material,
        _ => panic!("mesh"),
    };
    let steps = history.position();
    for k in 1..=10 {
        let p = Primitive::Box {
            size: Vec3::new(1.0 + k as f32 * 0.1, 2.0, 3.0),
        };
        history
            .execute_continuous(
                &mut scene,
                SetPrimitive::new(ids[3], p),
                EditKey::Entity { id: 3, field: 42 },
            )
            .expect("resize");
    }
    history.end_edit(&mut scene);
    assert_eq!(history.position(), steps + 1);
    let EntityKind::Mesh(m) = &scene.entity(ids[3]).expect("C").kind else {
        panic!("mesh")
    };
    let aabb = m.geometry.aabb().expect("bounds");
    assert!((aabb.max.x - aabb.min.x - 2.0).abs() < 1e-5);
    assert_eq!(
        m.geometry.faces[0].material, scrolled,
        "per-face materials survive"
    );
    assert_eq!(m.geometry.faces[1].material, stone);
    let bad = Primitive::Box {
        size: Vec3::new(-1.0, 1.0, 1.0),
    };
    assert!(
        history
            .execute(&mut scene, SetPrimitive::new(ids[3], bad))
            .is_err()
    );
    history.undo(&mut scene);
    let EntityKind::Mesh(m) = &scene.entity(ids[3]).expect("C").kind else {
        panic!("mesh")
    };
    let aabb = m.geometry.aabb().expect("bounds");
    assert!((aabb.max.x - aabb.min.x - 1.0).abs() < 1e-5);
}

#[test]
fn a_merged_primitive_drag_redoes_to_its_last_step() {
    use pebble_model::Primitive;
    // Regression found by the property test: a drag through a different face count
    // resets per-face materials; redo must give that result, not a recomputation from
    // the mesh before the drag.
    let (mut scene, mut history, _, ids) = small_scene();
    history
        .execute(
            &mut scene,
            ApplyScroll::new(ids[3], vec![7, 8], Vec2::new(0.0, 1.0)),
        )
        .expect("scroll");
    let steps = [
        Primitive::Stairs {
            steps: 2,
            width: 1.0,
            rise: 0.2,
            run: 0.3,
        },
        Primitive::Stairs {
            steps: 1,
            width: 1.0,
            rise: 0.2,
            run: 0.3,
        },
    ];
    for p in steps {
        history
            .execute_continuous(
                &mut scene,
                SetPrimitive::new(ids[3], p),
                EditKey::Entity { id: 3, field: 9 },
            )
            .expect("drag");
    }
    history.end_edit(&mut scene);
    let after = scene.clone();
    history.undo(&mut scene);
    history.redo(&mut scene).expect("redo").expect("applies");
    assert_eq!(scene, after);
}

/// The material of each face of `id`.
fn face_materials(scene: &pebble_model::Scene, id: EntityId) -> Vec<pebble_model::MaterialId> {
    match &scene.entity(id).expect("entity").kind {
        EntityKind::Mesh(m) => m.geometry.faces.iter().map(|f| f.material).collect(),
        _ => panic!("not a mesh"),
    }
}

#[test]
fn a_new_material_applied_to_one_face_is_one_step_that_undo_takes_away_with_it() {
    let (mut scene, mut history, stone, ids) = small_scene();
    let (a, b) = (ids[1], ids[3]);
    let materials_before = scene.materials().count();
    let brick = pebble_model::Material {
        name: "Brick".into(),
        texture: Some("textures/brick.png".into()),
        ..Default::default()
    };
    history
        .execute(
            &mut scene,
            ApplyMaterial::new(vec![(a, vec![2])], MaterialChoice::New(brick)),
        )
        .expect("apply");
    assert_eq!(scene.materials().count(), materials_before + 1);
    let got = face_materials(&scene, a);
    let brick_id = got[2];
    assert_ne!(brick_id, stone);
    assert_eq!(
        scene.material(brick_id).and_then(|m| m.texture.clone()),
        Some("textures/brick.png".into())
    );
    assert!(
        got.iter()
            .enumerate()
            .all(|(i, m)| (i == 2) == (*m == brick_id)),
        "only face 2 changed: {got:?}"
    );
    assert!(face_materials(&scene, b).iter().all(|m| *m == stone));
    assert_eq!(
        history.undo_name(),
        Some("Apply new material Brick to A (1 of 12 triangles)".into())
    );
    history.undo(&mut scene);
    assert_eq!(scene.materials().count(), materials_before);
    assert!(face_materials(&scene, a).iter().all(|m| *m == stone));
    // Redo brings back the same id, so later steps that name it stay valid.
    history
        .redo(&mut scene)
        .expect("a step to redo")
        .expect("redo");
    assert_eq!(face_materials(&scene, a)[2], brick_id);
}

#[test]
fn an_existing_material_reaches_faces_of_several_objects_and_a_bad_face_changes_nothing() {
    let (mut scene, mut history, stone, ids) = small_scene();
    let wood = add_material(&mut scene, &mut history, "Wood");
    let before = scene.clone();
    let err = history
        .execute(
            &mut scene,
            ApplyMaterial::new(
                vec![(ids[1], vec![0]), (ids[3], vec![999])],
                MaterialChoice::Existing(wood),
            ),
        )
        .expect_err("face 999 does not exist");
    assert!(err.to_string().contains("999"), "{err}");
    assert_eq!(scene, before, "a refused step changes nothing");
    history
        .execute(
            &mut scene,
            ApplyMaterial::new(
                vec![(ids[1], vec![0, 1]), (ids[3], vec![])],
                MaterialChoice::Existing(wood),
            ),
        )
        .expect("apply");
    let a = face_materials(&scene, ids[1]);
    assert_eq!(&a[..2], &[wood, wood]);
    assert!(a[2..].iter().all(|m| *m == stone));
    assert!(face_materials(&scene, ids[3]).iter().all(|m| *m == wood));
    history.undo(&mut scene);
    assert_eq!(scene, before);
}

#[test]
fn deleting_unused_materials_keeps_the_used_ones_and_refuses_a_used_one() {
    let (mut scene, mut history, stone, _) = small_scene();
    let spare = add_material(&mut scene, &mut history, "Spare");
    let unused = RemoveMaterials::unused(&scene);
    history.execute(&mut scene, unused).expect("delete unused");
    assert!(scene.material(spare).is_none());
    assert!(scene.material(stone).is_some());
    let err = history
        .execute(&mut scene, RemoveMaterials::new(vec![stone]))
        .expect_err("stone is used");
    assert!(err.to_string().contains("Stone"), "{err}");
    assert!(
        RemoveMaterials::unused(&scene).is_empty(),
        "nothing left to delete"
    );
    history.undo(&mut scene);
    assert_eq!(
        scene.material(spare).map(|m| m.name.as_str()),
        Some("Spare")
    );
}
