//! Prefabs and their instances through the history, as the editor drives them:
//! made from a doorway, placed twenty times, edited in place (every copy
//! follows as one undo step), overridden per copy by stable ids, duplicated,
//! unlinked, nested (never in itself), refused where a copy's structure would
//! change outside the prefab.

mod common;

use common::{add, add_material, box_entity};
use glam::Vec3;
use pebble_model::command::{Duplicate, Paste, RemoveEntities, Reparent, SetEntity, SetTransforms};
use pebble_model::entity::{Collider, Light};
use pebble_model::prefab::edit::{self, Which};
use pebble_model::prefab::{PrefabId, sync};
use pebble_model::{EditKey, Entity, EntityId, EntityKind, History, Primitive, Scene, Transform};

/// A doorway: a group with two walls, a torch and a collider on the left
/// wall (a link inside the piece). Returns the group's id.
fn doorway(scene: &mut Scene, history: &mut History) -> EntityId {
    let stone = add_material(scene, history, "Stone");
    let mut group = Entity::new("Doorway", EntityKind::Group);
    group.id = EntityId(1);
    group.transform = Transform::from_translation(Vec3::new(2.0, 0.0, 0.0));
    let mut left = box_entity("Left wall", stone, Vec3::new(-1.5, 1.0, 0.0));
    left.id = EntityId(2);
    left.parent = Some(EntityId(1));
    let mut right = box_entity("Right wall", stone, Vec3::new(1.5, 1.0, 0.0));
    right.id = EntityId(3);
    right.parent = Some(EntityId(1));
    let mut torch = Entity::new(
        "Torch",
        EntityKind::Light(Light::Omni {
            color: [1.0, 0.6, 0.2],
            radius: 5.0,
            intensity: 1.0,
            shadows: false,
            cone: None,
        }),
    )
    .with_transform(Transform::from_translation(Vec3::new(-1.0, 2.5, 0.5)));
    torch.id = EntityId(4);
    torch.parent = Some(EntityId(1));
    let mut collider = Entity::new(
        "Left wall collision",
        EntityKind::Collider(Collider::TriMesh { mesh: EntityId(2) }),
    );
    collider.id = EntityId(5);
    collider.parent = Some(EntityId(1));
    add(scene, history, vec![group, left, right, torch, collider])[0]
}

fn colour(scene: &Scene, id: EntityId) -> [f32; 3] {
    match &scene.entity(id).expect("exists").kind {
        EntityKind::Light(Light::Omni { color, .. }) => *color,
        other => panic!("not a torch: {other:?}"),
    }
}

/// The entity called `name` inside `instance`.
fn inside(scene: &Scene, instance: EntityId, name: &str) -> EntityId {
    scene
        .subtree(instance)
        .into_iter()
        .find(|id| *id != instance && scene.entity(*id).is_some_and(|e| e.name == name))
        .unwrap_or_else(|| panic!("no {name} in {instance}"))
}

fn set_colour(scene: &Scene, id: EntityId, c: [f32; 3]) -> SetEntity {
    let mut e = scene.entity(id).expect("exists").clone();
    if let EntityKind::Light(Light::Omni { color, .. }) = &mut e.kind {
        *color = c;
    }
    SetEntity::new("Torch colour", e)
}

fn recolour(
    scene: &mut Scene,
    history: &mut History,
    id: EntityId,
    c: [f32; 3],
) -> Result<(), pebble_model::CommandError> {
    let step = set_colour(scene, id, c);
    history.execute(scene, step)
}

/// A doorway made a prefab and placed `count` times in all (the first is the
/// doorway itself); the instances in order.
fn placed(count: usize) -> (Scene, History, PrefabId, Vec<EntityId>) {
    let mut scene = Scene::new();
    let mut history = History::default();
    let group = doorway(&mut scene, &mut history);
    let id = sync::new_prefab_id(&scene);
    let make = edit::make(&scene, &[group], "Doorway", id, false, None).expect("plans");
    history.execute(&mut scene, make).expect("makes");
    for k in 1..count {
        let at = Transform::from_translation(Vec3::new(6.0 * k as f32, 0.0, -3.0));
        let place = edit::place(&scene, id, None, at).expect("plans");
        history.execute(&mut scene, place).expect("places");
    }
    scene.check_consistency().expect("consistent");
    let instances = scene.instances_of(id);
    assert_eq!(instances.len(), count);
    (scene, history, id, instances)
}

#[test]
fn making_a_prefab_keeps_the_doorway_where_it_was_and_links_it() {
    let mut scene = Scene::new();
    let mut history = History::default();
    let group = doorway(&mut scene, &mut history);
    let world_before: Vec<_> = scene
        .subtree(group)
        .iter()
        .map(|id| scene.world_transform(*id))
        .collect();
    let id = sync::new_prefab_id(&scene);
    let make = edit::make(&scene, &[group], "Doorway", id, false, None).expect("plans");
    history.execute(&mut scene, make).expect("makes");
    let instance = scene.selection()[0];
    assert_eq!(scene.entity(group).and_then(|e| e.parent), Some(instance));
    let prefab = scene.prefab(id).expect("kept in the map");
    assert_eq!(prefab.entities.len(), 5, "the group and its four");
    for (k, id) in scene.subtree(group).iter().enumerate() {
        assert!(
            scene
                .world_transform(*id)
                .abs_diff_eq(world_before[k], 1e-5),
            "{id} stayed where it was"
        );
        assert!(scene.entity(*id).and_then(|e| e.source).is_some());
    }
    history.undo(&mut scene);
    assert!(scene.prefab(id).is_none());
    assert_eq!(scene.entity(group).and_then(|e| e.parent), None);
}

/// The first test: an edit in one of twenty instances, entered, is
/// one undo step that every instance follows; undo gives every one back
/// exactly, redo again.
#[test]
fn an_edit_in_place_propagates_to_twenty_instances_as_one_step() {
    let (mut scene, mut history, id, instances) = placed(20);
    // Every copy's collider names its own copy's wall.
    for i in &instances {
        let wall = inside(&scene, *i, "Left wall");
        let collider = inside(&scene, *i, "Left wall collision");
        assert_eq!(
            scene.entity(collider).map(|e| &e.kind),
            Some(&EntityKind::Collider(Collider::TriMesh { mesh: wall }))
        );
    }
    let before = scene.clone();
    let steps = history.position();
    history.set_entered(&mut scene, Some(instances[7]));
    let torch = inside(&scene, instances[7], "Torch");
    let blue = [0.2, 0.4, 1.0];
    recolour(&mut scene, &mut history, torch, blue).expect("edits");
    assert_eq!(history.position(), steps + 1, "one step");
    assert_eq!(history.undo_name().as_deref(), Some("Torch colour"));
    for i in &instances {
        assert_eq!(colour(&scene, inside(&scene, *i, "Torch")), blue, "{i}");
    }
    let prefab = scene.prefab(id).expect("prefab");
    assert!(
        prefab.entities.iter().any(
            |e| matches!(e.kind, EntityKind::Light(Light::Omni { color, .. }) if color == blue)
        )
    );
    scene.check_consistency().expect("consistent");
    history.undo(&mut scene);
    assert!(scene == before, "undo restores every instance exactly");
    history.redo(&mut scene).expect("redo").expect("applies");
    for i in &instances {
        assert_eq!(colour(&scene, inside(&scene, *i, "Torch")), blue);
    }
}

/// A copy's own colour (an override by the torch's stable id) survives the
/// prefab renaming the torch, moving it, putting it under a wall, gaining a
/// child and losing the right wall — and the copy takes all of that.
#[test]
fn overrides_survive_rename_move_reparent_and_structure_changes() {
    let (mut scene, mut history, _, instances) = placed(3);
    let (a, b) = (instances[0], instances[1]);
    let green = [0.1, 0.9, 0.1];
    let torch_a = inside(&scene, a, "Torch");
    recolour(&mut scene, &mut history, torch_a, green).expect("overrides");
    let link = scene
        .entity(a)
        .and_then(|e| e.instance.clone())
        .expect("link");
    assert_eq!(link.overrides.len(), 1, "{:?}", link.overrides);
    assert_eq!(link.overrides[0].path, "/kind/Light/Omni/color");
    assert_ne!(
        colour(&scene, inside(&scene, b, "Torch")),
        green,
        "b is its own"
    );

    history.set_entered(&mut scene, Some(b));
    let torch_b = inside(&scene, b, "Torch");
    let mut renamed = scene.entity(torch_b).expect("torch").clone();
    renamed.name = "Wall torch".into();
    history
        .execute(&mut scene, SetEntity::new("Rename", renamed))
        .expect("renames");
    history
        .execute(
            &mut scene,
            SetTransforms::new(
                "Move",
                vec![(
                    torch_b,
                    Transform::from_translation(Vec3::new(0.0, 3.0, 1.0)),
                )],
            ),
        )
        .expect("moves");
    let wall_b = inside(&scene, b, "Left wall");
    history
        .execute(&mut scene, Reparent::new(vec![torch_b], Some(wall_b)))
        .expect("reparents");
    let mut sconce = Entity::new("Sconce", EntityKind::Group);
    sconce.parent = Some(inside(&scene, b, "Doorway"));
    add(&mut scene, &mut history, vec![sconce]);
    let right_b = inside(&scene, b, "Right wall");
    history
        .execute(&mut scene, RemoveEntities::new(vec![right_b]))
        .expect("removes");
    scene.check_consistency().expect("consistent");

    let torch_a = inside(&scene, a, "Wall torch");
    assert_eq!(colour(&scene, torch_a), green, "the override kept");
    assert_eq!(
        scene.entity(torch_a).and_then(|e| e.parent),
        Some(inside(&scene, a, "Left wall")),
        "a's torch under a's own wall"
    );
    assert!(inside(&scene, a, "Sconce") != a);
    assert!(
        scene
            .subtree(a)
            .iter()
            .all(|id| scene.entity(*id).is_some_and(|e| e.name != "Right wall")),
        "a has lost the right wall: {:?}",
        scene
            .subtree(a)
            .iter()
            .filter_map(|id| scene
                .entity(*id)
                .map(|e| (e.id, e.name.clone(), e.parent, e.source)))
            .collect::<Vec<_>>()
    );
    let c = instances[2];
    assert_eq!(
        colour(&scene, inside(&scene, c, "Wall torch")),
        [1.0, 0.6, 0.2]
    );
    // Every step undoes exactly, back to before the override.
    while history.position() > 0 && scene.entity(a).and_then(|e| e.instance.clone()).is_some() {
        history.undo(&mut scene);
        scene.check_consistency().expect("consistent");
        if scene
            .entity(a)
            .and_then(|e| e.instance.as_ref())
            .is_some_and(|l| l.overrides.is_empty())
        {
            break;
        }
    }
    assert_eq!(colour(&scene, inside(&scene, a, "Torch")), [1.0, 0.6, 0.2]);
}

/// Outside the instance being edited, a copy's structure is the prefab's:
/// moving a wall under the torch is refused (nothing changes); deleting a
/// wall leaves it out of that copy only, and revert brings it back.
#[test]
fn a_copys_structure_is_the_prefabs() {
    let (mut scene, mut history, _, instances) = placed(2);
    let a = instances[0];
    let before = scene.clone();
    let wall = inside(&scene, a, "Left wall");
    let torch = inside(&scene, a, "Torch");
    let refused = history.execute(&mut scene, Reparent::new(vec![wall], Some(torch)));
    let message = refused.expect_err("refused").to_string();
    assert!(message.contains("enter"), "{message}");
    assert!(scene == before, "nothing changed");

    let right = inside(&scene, a, "Right wall");
    history
        .execute(&mut scene, RemoveEntities::new(vec![right]))
        .expect("removes");
    let link = scene
        .entity(a)
        .and_then(|e| e.instance.clone())
        .expect("link");
    assert_eq!(link.overrides.len(), 1);
    assert!(link.overrides[0].is_removal());
    assert!(
        inside(&scene, instances[1], "Right wall") != a,
        "the other keeps it"
    );
    let revert = edit::revert(&scene, a, &Which::All).expect("plans");
    history.execute(&mut scene, revert).expect("reverts");
    assert!(inside(&scene, a, "Right wall") != a, "back");
    assert!(
        scene
            .entity(a)
            .and_then(|e| e.instance.as_ref())
            .is_some_and(|l| l.overrides.is_empty())
    );
    scene.check_consistency().expect("consistent");
}

/// Frame `k` of a gizmo drag lifting `torch`.
fn drag_step(history: &mut History, scene: &mut Scene, torch: EntityId, k: usize) {
    let t = Transform::from_translation(Vec3::new(-1.0, 2.5 + k as f32 * 0.1, 0.5));
    history
        .execute_continuous(
            scene,
            SetTransforms::new("Move", vec![(torch, t)]),
            EditKey::Gizmo,
        )
        .expect("drags");
}

/// A drag inside the instance being edited changes no other copy until it
/// ends; Esc takes it back with nothing propagated; a drag that ends moves
/// every copy's torch, as one step.
#[test]
fn nothing_propagates_mid_drag_and_esc_changes_no_other_instance() {
    let (mut scene, mut history, _, instances) = placed(3);
    let (a, b) = (instances[0], instances[1]);
    let before = scene.clone();
    history.set_entered(&mut scene, Some(a));
    let torch = inside(&scene, a, "Torch");
    let torch_b = inside(&scene, b, "Torch");
    let b_before = scene.entity(torch_b).cloned();
    for k in 1..=5 {
        drag_step(&mut history, &mut scene, torch, k);
        assert_eq!(
            scene.entity(torch_b).cloned(),
            b_before,
            "b unchanged mid-drag"
        );
    }
    assert!(history.cancel_edit(&mut scene, EditKey::Gizmo));
    assert!(scene == before, "Esc: as before, every copy");

    let steps = history.position();
    for k in 1..=5 {
        drag_step(&mut history, &mut scene, torch, k);
    }
    history.end_edit(&mut scene);
    assert_eq!(history.position(), steps + 1);
    let y = |id| scene.entity(id).map(|e| e.transform.translation.y);
    assert_eq!(y(torch_b), Some(3.0), "b follows once the drag ends");
    assert_eq!(y(inside(&scene, instances[2], "Torch")), Some(3.0));
    history.undo(&mut scene);
    assert!(scene == before);
}

/// Duplicate and copy/paste of an instance keep the link: the copies follow
/// the prefab and their collider names their own wall.
#[test]
fn duplicate_and_paste_keep_the_link() {
    let (mut scene, mut history, id, instances) = placed(1);
    let a = instances[0];
    history
        .execute(&mut scene, Duplicate::new(vec![a]))
        .expect("duplicates");
    // A copy as the clipboard has it: the subtree, the root's parent dropped.
    let copied: Vec<Entity> = scene
        .subtree(a)
        .iter()
        .filter_map(|id| scene.entity(*id).cloned())
        .map(|mut e| {
            if e.id == a {
                e.parent = None;
            }
            e
        })
        .collect();
    let materials: Vec<_> = scene.materials().map(|(id, m)| (id, m.clone())).collect();
    history
        .execute(&mut scene, Paste::new(materials, copied))
        .expect("pastes");
    let all = scene.instances_of(id);
    assert_eq!(
        all.len(),
        3,
        "the duplicate and the pasted copy are instances"
    );
    for i in &all {
        let wall = inside(&scene, *i, "Left wall");
        let collider = inside(&scene, *i, "Left wall collision");
        assert_eq!(
            scene.entity(collider).map(|e| &e.kind),
            Some(&EntityKind::Collider(Collider::TriMesh { mesh: wall }))
        );
    }
    history.set_entered(&mut scene, Some(a));
    let torch = inside(&scene, a, "Torch");
    recolour(&mut scene, &mut history, torch, [0.0, 0.0, 1.0]).expect("edits");
    for i in &all {
        assert_eq!(colour(&scene, inside(&scene, *i, "Torch")), [0.0, 0.0, 1.0]);
    }
    scene.check_consistency().expect("consistent");
}

/// Unlinked, a copy is plain entities the prefab no longer reaches.
#[test]
fn an_unlinked_copy_is_left_alone() {
    let (mut scene, mut history, id, instances) = placed(2);
    let unlink = edit::unlink(&scene, instances[1]).expect("plans");
    history.execute(&mut scene, unlink).expect("unlinks");
    assert_eq!(scene.instances_of(id), vec![instances[0]]);
    assert!(scene.subtree(instances[1]).iter().all(|e| {
        scene
            .entity(*e)
            .is_some_and(|e| e.source.is_none() && e.instance.is_none())
    }));
    history.set_entered(&mut scene, Some(instances[0]));
    let torch = inside(&scene, instances[0], "Torch");
    recolour(&mut scene, &mut history, torch, [0.0, 1.0, 0.0]).expect("edits");
    assert_eq!(
        colour(&scene, inside(&scene, instances[1], "Torch")),
        [1.0, 0.6, 0.2]
    );
}

/// "Apply to prefab" gives a copy's override to every copy.
#[test]
fn applying_an_override_reaches_every_copy() {
    let (mut scene, mut history, _, instances) = placed(3);
    let torch = inside(&scene, instances[2], "Torch");
    recolour(&mut scene, &mut history, torch, [0.9, 0.1, 0.1]).expect("overrides");
    let apply = edit::apply_to_prefab(&scene, instances[2], &Which::All).expect("plans");
    let steps = history.position();
    history.execute(&mut scene, apply).expect("applies");
    assert_eq!(history.position(), steps + 1);
    for i in &instances {
        assert_eq!(colour(&scene, inside(&scene, *i, "Torch")), [0.9, 0.1, 0.1]);
        assert!(
            scene
                .entity(*i)
                .and_then(|e| e.instance.as_ref())
                .is_some_and(|l| l.overrides.is_empty())
        );
    }
}

/// A prefab holding an instance of another (a room with a doorway) works one
/// level down; a doorway that would hold the room is refused with the chain.
#[test]
fn prefabs_nest_but_never_contain_themselves() {
    let (mut scene, mut history, door, instances) = placed(2);
    let stone = scene.materials().next().map(|(m, _)| m).expect("stone");
    let floor = add(
        &mut scene,
        &mut history,
        vec![box_entity("Floor", stone, Vec3::new(0.0, -1.0, 0.0))],
    )[0];
    let room_id = sync::new_prefab_id(&scene);
    let make =
        edit::make(&scene, &[instances[0], floor], "Room", room_id, false, None).expect("plans");
    history.execute(&mut scene, make).expect("makes the room");
    let room = scene.selection()[0];
    let prefab = scene.prefab(room_id).expect("room");
    assert_eq!(
        prefab.entities.len(),
        2,
        "the doorway instance and the floor"
    );
    // The door prefab changed (entered in the other copy) reaches the room's.
    history.set_entered(&mut scene, Some(instances[1]));
    let torch = inside(&scene, instances[1], "Torch");
    recolour(&mut scene, &mut history, torch, [0.3, 0.3, 0.3]).expect("edits");
    assert_eq!(
        colour(&scene, inside(&scene, room, "Torch")),
        [0.3, 0.3, 0.3]
    );
    assert_eq!(scene.instances_of(door).len(), 2);
    // The room may not go inside the doorway.
    let before = scene.clone();
    let inner_door = inside(&scene, instances[1], "Doorway");
    let refused = history.execute(&mut scene, Reparent::new(vec![room], Some(inner_door)));
    let message = refused.expect_err("refused").to_string();
    assert!(
        message.contains("Doorway › Room › Doorway"),
        "the chain named: {message}"
    );
    assert!(scene == before);
}

/// The scene with instances saved and opened again is the same scene.
#[test]
fn instances_and_prefabs_survive_save_and_open() {
    let (mut scene, _, _, _) = placed(4);
    scene.select(Vec::new()); // the selection is not saved
    let dir = std::env::temp_dir().join(format!("pebble-prefabs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("doors.pebble");
    pebble_model::project::save(&path, &scene).expect("saves");
    let back = pebble_model::project::load(&path).expect("loads");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(back == scene);
}

/// What leaves a copy stops being part of it: a torch moved out of one copy is
/// left out of that copy (an override, revertible) and a plain entity where it
/// went; a copy ungrouped leaves plain entities claiming no instance.
#[test]
fn what_leaves_a_copy_is_plain_and_left_out_of_it() {
    let (mut scene, mut history, _, instances) = placed(2);
    let a = instances[0];
    let torch = inside(&scene, a, "Torch");
    history
        .execute(&mut scene, Reparent::new(vec![torch], None))
        .expect("moves out");
    assert_eq!(scene.entity(torch).and_then(|e| e.source), None);
    let link = scene
        .entity(a)
        .and_then(|e| e.instance.clone())
        .expect("link");
    assert!(link.overrides.iter().any(|o| o.is_removal()), "{link:?}");
    history
        .execute(
            &mut scene,
            pebble_model::command::Ungroup::new(instances[1]),
        )
        .expect("ungroups");
    assert!(
        scene.entities().all(|e| e
            .source
            .is_none_or(|s| scene.instance_of(e.id) == Some(s.instance))),
        "no entity claims an instance it is not in"
    );
    scene.check_consistency().expect("consistent");
    while history.can_undo() {
        history.undo(&mut scene);
    }
    assert!(scene.prefabs().next().is_none());
}

/// A small deterministic generator (an LCG), for the random sequence below.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// Runs `command` (or the refusal of its plan) as one step; the refusal's text.
fn step(
    history: &mut History,
    scene: &mut Scene,
    command: Result<impl pebble_model::Command, pebble_model::CommandError>,
) -> Result<(), String> {
    command
        .and_then(|c| history.execute(scene, c))
        .map_err(|e| e.to_string())
}

/// Random prefab work — made of random selections (instances among them:
/// nesting), placed, entered and left, edited inside, deleted inside,
/// duplicated, reparented, applied, reverted, unlinked, undone and redone —
/// keeps the scene consistent at every step, and undoing everything gives
/// back the start exactly.
#[test]
fn random_prefab_work_keeps_the_scene_whole_and_undoes_exactly() {
    for seed in 0..60u64 {
        let (mut scene, mut history, _, _) = placed(2);
        let start = scene.clone();
        let start_steps = history.position();
        let mut rng = Rng(seed * 7919 + 1);
        let mut log = Vec::new();
        // The scene at each history position, as last there.
        let mut at: std::collections::HashMap<usize, (Scene, usize)> = Default::default();
        for _ in 0..100 {
            at.insert(history.position(), (scene.clone(), log.len()));
            let ids: Vec<EntityId> = scene.data().order.clone();
            if ids.is_empty() {
                break;
            }
            let pick = |rng: &mut Rng| ids[rng.below(ids.len())];
            let step: Result<(), String> = match rng.below(12) {
                0 => {
                    let roots = vec![pick(&mut rng), pick(&mut rng)];
                    let id = sync::new_prefab_id(&scene);
                    let name = format!("P{}", rng.below(1000));
                    log.push(format!("make {name} of {roots:?}"));
                    edit::make(
                        &scene,
                        &roots,
                        &name,
                        id,
                        rng.below(2) == 0,
                        history.entered(),
                    )
                    .map_err(|e| e.to_string())
                    .and_then(|p| history.execute(&mut scene, p).map_err(|e| e.to_string()))
                }
                1 => {
                    let ps: Vec<PrefabId> = scene.prefabs().map(|p| p.id).collect();
                    if ps.is_empty() {
                        Ok(())
                    } else {
                        let p = ps[rng.below(ps.len())];
                        let parent = (rng.below(3) == 0).then(|| pick(&mut rng));
                        log.push(format!("place {p:?} under {parent:?}"));
                        edit::place(&scene, p, parent, Transform::from_translation(Vec3::X))
                            .map_err(|e| e.to_string())
                            .and_then(|p| history.execute(&mut scene, p).map_err(|e| e.to_string()))
                    }
                }
                2 => {
                    let e = pick(&mut rng);
                    let target = scene
                        .entity(e)
                        .filter(|x| x.instance.is_some())
                        .map(|x| x.id)
                        .or_else(|| scene.instance_of(e));
                    log.push(format!("enter {target:?}"));
                    history.set_entered(&mut scene, target);
                    Ok(())
                }
                3 | 4 => {
                    let e = pick(&mut rng);
                    let mut x = scene.entity(e).cloned().expect("exists");
                    x.name = format!("{} {}", x.name, rng.below(9));
                    x.transform.translation.y += 0.5;
                    // A mesh's shape now and then: its geometry changes size.
                    if let EntityKind::Mesh(m) = &mut x.kind
                        && rng.below(2) == 0
                    {
                        let material = m.geometry.faces[0].material;
                        let p = Primitive::Cylinder {
                            radius: 0.5,
                            height: 2.0,
                            sides: 3 + rng.below(10) as u32,
                        };
                        m.geometry = p.generate(material).expect("geometry");
                        m.source = pebble_model::entity::GeometrySource::Primitive(p);
                    }
                    log.push(format!("edit {e}"));
                    step(&mut history, &mut scene, Ok(SetEntity::new("Edit", x)))
                }
                5 => {
                    let e = pick(&mut rng);
                    log.push(format!("remove {e}"));
                    step(&mut history, &mut scene, Ok(RemoveEntities::new(vec![e])))
                }
                6 => {
                    let e = pick(&mut rng);
                    log.push(format!("duplicate {e}"));
                    step(&mut history, &mut scene, Ok(Duplicate::new(vec![e])))
                }
                7 => {
                    let (e, p) = (pick(&mut rng), pick(&mut rng));
                    let p = (rng.below(3) > 0).then_some(p);
                    log.push(format!("reparent {e} under {p:?}"));
                    step(&mut history, &mut scene, Ok(Reparent::new(vec![e], p)))
                }
                8 => {
                    let e = pick(&mut rng);
                    let i = scene
                        .entity(e)
                        .filter(|x| x.instance.is_some())
                        .map(|x| x.id)
                        .or_else(|| scene.instance_of(e));
                    match i {
                        Some(i) => {
                            let which = rng.below(3);
                            log.push(format!("apply/revert/unlink {which} on {i}"));
                            let plan = match which {
                                0 => edit::apply_to_prefab(&scene, i, &Which::All),
                                1 => edit::revert(&scene, i, &Which::All),
                                _ => edit::unlink(&scene, i),
                            };
                            step(&mut history, &mut scene, plan)
                        }
                        None => Ok(()),
                    }
                }
                9 if history.position() > start_steps => {
                    log.push("undo".into());
                    history.undo(&mut scene);
                    Ok(())
                }
                9 | 10 => {
                    log.push("redo".into());
                    match history.redo(&mut scene) {
                        Some(Err(e)) => Err(e.to_string()),
                        _ => Ok(()),
                    }
                }
                _ => {
                    let e = pick(&mut rng);
                    log.push(format!("drag {e}, then end"));
                    let mut t = scene.entity(e).map(|x| x.transform).expect("exists");
                    t.translation.x += 1.0;
                    let drag = history.execute_continuous(
                        &mut scene,
                        SetTransforms::new("Move", vec![(e, t)]),
                        EditKey::Gizmo,
                    );
                    history.end_edit(&mut scene);
                    drag.map_err(|e| e.to_string())
                }
            };
            if let Err(e) = &step {
                log.push(format!("  refused: {e}"));
            }
            if let Err(e) = scene.check_consistency() {
                panic!("seed {seed}: {e}; the steps:\n{}", log.join("\n"));
            }
            for e in scene.entities() {
                if let EntityKind::Mesh(m) = &e.kind
                    && let Err(err) = m.geometry.validate()
                {
                    panic!(
                        "seed {seed}: {}: {err}; the steps:\n{}",
                        e.id,
                        log.join("\n")
                    );
                }
                if let Some(s) = e.source {
                    assert!(
                        scene.entity(s.instance).is_some(),
                        "seed {seed}: {} names a gone instance; the steps:\n{}",
                        e.id,
                        log.join("\n")
                    );
                }
            }
        }
        while history.position() > start_steps {
            let name = history.undo(&mut scene);
            scene
                .check_consistency()
                .expect("consistent on the way back");
            if let Some((want, step)) = at.get(&history.position())
                && *want != scene
            {
                let differs: Vec<_> = scene
                    .entities()
                    .filter(|e| want.entity(e.id) != Some(e))
                    .map(|e| (e.id, e.name.clone()))
                    .collect();
                panic!(
                    "seed {seed}: undoing {name:?} (to position {}) is not the scene before it (step {step}): {differs:?} differ, orders equal: {}, prefabs equal: {}; the steps:\n{}",
                    history.position(),
                    want.data().order == scene.data().order,
                    want.data().prefabs == scene.data().prefabs,
                    log.join("\n")
                );
            }
        }
        assert!(
            scene == start,
            "seed {seed}: undoing everything is not the start; the steps:\n{}",
            log.join("\n")
        );
    }
}

/// A prefab opened on its own is a scene of its entities under their own ids
/// (with its nested prefabs' content shown); saved back, its file keeps those
/// ids — an override made before still has its place — and leaves the nested
/// content out; the map's copies follow the file.
#[test]
fn a_prefab_opened_on_its_own_saves_back_with_its_ids() {
    use pebble_model::prefab::{file, own};
    let (mut scene, mut history, door, instances) = placed(2);
    // A copy's override, made before the prefab is edited on its own.
    let torch = inside(&scene, instances[1], "Torch");
    recolour(&mut scene, &mut history, torch, [0.0, 1.0, 0.0]).expect("overrides");
    // A room holding a doorway: a nested instance.
    let room_id = sync::new_prefab_id(&scene);
    let make = edit::make(&scene, &[instances[0]], "Room", room_id, false, None).expect("plans");
    history.execute(&mut scene, make).expect("makes");
    let dir = std::env::temp_dir().join(format!("pebble-own-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for p in scene.prefabs() {
        file::save(&dir.join(format!("prefabs/{}.prefab.ron", p.name)), p).expect("writes");
    }
    let path = dir.join("prefabs/Doorway.prefab.ron");
    let mut alone = pebble_model::project::load(&path).expect("opens on its own");
    let prefab = scene.prefab(door).expect("door").clone();
    assert_eq!(alone.len(), prefab.entities.len());
    for e in &prefab.entities {
        assert_eq!(
            alone.entity(e.id).map(|x| &x.name),
            Some(&e.name),
            "{} keeps its id",
            e.id
        );
    }
    assert_eq!(
        pebble_model::project::folder_of(&path),
        dir,
        "textures resolve against the project's folder"
    );
    // Neither the doorway nor the room that holds one is placed in it.
    let in_itself = edit::place_prefab(&alone, &prefab, None, Transform::IDENTITY)
        .expect_err("refused")
        .to_string();
    assert!(in_itself.contains("Doorway › Doorway"), "{in_itself}");
    let room_prefab = scene.prefab(room_id).expect("room").clone();
    let room_in_door = edit::place_prefab(&alone, &room_prefab, None, Transform::IDENTITY)
        .expect_err("refused")
        .to_string();
    assert!(room_in_door.contains("Room › Doorway"), "{room_in_door}");
    // Renamed and moved there, and a lamp added; saved back.
    let mut alone_history = History::default();
    let t = alone
        .entities()
        .find(|e| e.name == "Torch")
        .map(|e| e.id)
        .expect("torch");
    let mut renamed = alone.entity(t).expect("torch").clone();
    renamed.name = "Wall torch".into();
    renamed.transform.translation.y += 1.0;
    alone_history
        .execute(&mut alone, SetEntity::new("Rename", renamed))
        .expect("renames");
    add(
        &mut alone,
        &mut alone_history,
        vec![Entity::new("Lamp", EntityKind::Group)],
    );
    pebble_model::project::save(&path, &alone).expect("saves back");
    let saved = file::load(&path).expect("reads");
    assert_eq!(saved.id, door);
    assert_eq!(saved.entities.len(), prefab.entities.len() + 1);
    // The map follows the file: the copy keeps its colour under the new name.
    let follow = edit::follow(&scene, &saved).expect("plans");
    history.execute(&mut scene, follow).expect("follows");
    let a = scene.instances_of(door);
    assert_eq!(a.len(), 2, "the plain copy and the one in the room");
    let copy = instances[1];
    assert_eq!(
        colour(&scene, inside(&scene, copy, "Wall torch")),
        [0.0, 1.0, 0.0]
    );
    assert!(inside(&scene, copy, "Lamp") != copy);
    scene.check_consistency().expect("consistent");

    // The room opened on its own shows its doorway's content, and saving it
    // leaves that content out.
    let room_path = dir.join("prefabs/Room.prefab.ron");
    let room = pebble_model::project::load(&room_path).expect("opens the room");
    assert!(
        room.entities().any(|e| e.name == "Wall torch"),
        "the nested doorway is drawn"
    );
    let back = own::prefab_of(&room).expect("the room again");
    assert_eq!(
        back.entities.len(),
        scene.prefab(room_id).expect("room").entities.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A mesh's geometry is one override, never its lists one at a time: a copy
/// whose wall became a cylinder keeps a whole cylinder when the prefab's wall
/// becomes a thinner box (its faces never index vertices the box lacks).
#[test]
fn a_copys_own_geometry_stays_whole_when_the_prefabs_changes() {
    use pebble_model::entity::{GeometrySource, MeshEntity};
    let (mut scene, mut history, _, instances) = placed(2);
    let (a, b) = (instances[0], instances[1]);
    let stone = scene.materials().next().map(|(m, _)| m).expect("stone");
    let reshape = |scene: &Scene, id: EntityId, p: Primitive| {
        let mut e = scene.entity(id).expect("wall").clone();
        e.kind = EntityKind::Mesh(MeshEntity {
            geometry: p.generate(stone).expect("geometry"),
            source: GeometrySource::Primitive(p),
            collidable: true,
        });
        SetEntity::new("Reshape", e)
    };
    let wall_a = inside(&scene, a, "Left wall");
    let cylinder = Primitive::Cylinder {
        radius: 0.5,
        height: 3.0,
        sides: 12,
    };
    let step = reshape(&scene, wall_a, cylinder.clone());
    history.execute(&mut scene, step).expect("a's own wall");
    let link = scene
        .entity(a)
        .and_then(|e| e.instance.clone())
        .expect("link");
    assert!(
        link.overrides
            .iter()
            .any(|o| o.path == "/kind/Mesh/geometry"),
        "the geometry is one override: {:?}",
        link.overrides.iter().map(|o| &o.path).collect::<Vec<_>>()
    );
    history.set_entered(&mut scene, Some(b));
    let wall_b = inside(&scene, b, "Left wall");
    let thin = Primitive::Box {
        size: Vec3::new(0.2, 3.0, 0.2),
    };
    let step = reshape(&scene, wall_b, thin);
    history
        .execute(&mut scene, step)
        .expect("the prefab's wall");
    let e = scene
        .entity(inside(&scene, a, "Left wall"))
        .expect("a's wall");
    let EntityKind::Mesh(m) = &e.kind else {
        panic!("a mesh")
    };
    m.geometry.validate().expect("a's geometry holds together");
    assert_eq!(
        m.source,
        GeometrySource::Primitive(cylinder),
        "still a cylinder"
    );
    let dir = std::env::temp_dir().join(format!("pebble-geometry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("walls.pebble.ron");
    pebble_model::project::save(&path, &scene).expect("saves");
    pebble_model::project::load(&path).expect("what it saved opens");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A linked copy as the editor makes it — a map-local prefab of the doorway,
/// then a duplicate of the instance following the mouse — is one step: the
/// moves merge into it, Esc takes both back, and once put down one undo does.
#[test]
fn a_linked_copy_is_one_step_and_esc_takes_it_all_back() {
    let mut scene = Scene::new();
    let mut history = History::default();
    let group = doorway(&mut scene, &mut history);
    let before = scene.clone();
    let steps = history.position();
    let linked = |scene: &mut Scene, history: &mut History| {
        let id = sync::new_prefab_id(scene);
        let make = edit::make(scene, &[group], "Doorway (linked)", id, true, None).expect("plans");
        history.execute(scene, make).expect("makes");
        let instance = scene.selection()[0];
        history
            .execute_continuous(scene, Duplicate::new(vec![instance]), EditKey::Placing)
            .expect("duplicates");
        history.join_previous("Duplicate as a linked copy");
        let copy = scene.selection()[0];
        for k in 1..=3 {
            let t = Transform::from_translation(Vec3::new(k as f32, 0.0, 4.0));
            history
                .execute_continuous(
                    scene,
                    SetTransforms::new("Move", vec![(copy, t)]),
                    EditKey::Placing,
                )
                .expect("follows");
        }
        (id, copy)
    };
    linked(&mut scene, &mut history);
    assert_eq!(history.position(), steps + 1, "one step while it follows");
    assert!(history.cancel_edit(&mut scene, EditKey::Placing));
    assert!(scene == before, "Esc: no copy, no prefab");

    let (id, copy) = linked(&mut scene, &mut history);
    history.end_edit(&mut scene);
    assert_eq!(history.position(), steps + 1);
    assert_eq!(
        history.undo_name().as_deref(),
        Some("Duplicate as a linked copy")
    );
    assert_eq!(scene.instances_of(id).len(), 2);
    assert!(scene.prefab(id).is_some_and(|p| p.local), "map-local");
    assert_eq!(
        scene.entity(copy).map(|e| e.transform.translation.x),
        Some(3.0)
    );
    history.undo(&mut scene);
    assert!(scene == before, "one undo takes both back");
    history.redo(&mut scene).expect("redo").expect("applies");
    assert_eq!(scene.instances_of(id).len(), 2);
}
