//! Each Edit operation on a document: what it changes, and that it is one undo step
//! (or, for the selections, none).

use std::time::Duration;

use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::definitions::builtin::instance;
use pebble_model::glam::Vec3;
use pebble_model::{Entity, EntityId, EntityKind, Scene, Transform};

use super::*;
use crate::create::{CreateItem, entity};

/// A document with a floor slab (top at y = 0.5), a box standing over it in mid
/// air, and a spawn marker.
fn document() -> (Document, [EntityId; 3]) {
    let mut doc = Document::new(
        Scene::new(),
        std::env::temp_dir().join("pebble-edit-ops.pebble.ron"),
        Duration::from_secs(600),
    );
    doc.execute(AddMaterial::new(Default::default()))
        .expect("material");
    let material = doc.scene().materials().map(|(id, _)| id).next();
    // A slab: the 1 m box scaled flat and wide.
    let mut floor = entity(CreateItem::Box, Vec3::ZERO, material).expect("a box");
    floor.name = "Floor".into();
    floor.transform.scale = Vec3::new(10.0, 0.5, 10.0);
    let mut crate_ = entity(CreateItem::Box, Vec3::new(1.0, 3.0, 0.0), material).expect("a box");
    crate_.name = "Crate".into();
    let spawn = Entity::new("Spawn", EntityKind::Defined(instance("PlayerSpawn", [])))
        .with_transform(Transform::from_translation(Vec3::new(-2.0, 1.6, 0.0)));
    doc.execute(AddEntities::new("Create", vec![floor, crate_, spawn]).without_selecting())
        .expect("add");
    let ids: Vec<EntityId> = doc.scene().entities().map(|e| e.id).collect();
    (doc, [ids[0], ids[1], ids[2]])
}

fn steps(doc: &Document) -> usize {
    doc.history().position()
}

#[test]
fn delete_and_duplicate_are_one_step_each_and_undo_brings_things_back() {
    let (mut doc, [_, crate_, spawn]) = document();
    assert!(delete(&mut doc).is_err(), "nothing selected: refused");
    doc.select(vec![crate_, spawn]).expect("select");
    let before = steps(&doc);
    let copies = duplicate(&mut doc).expect("duplicates");
    assert_eq!(copies.len(), 2);
    assert_eq!(
        doc.scene().selection(),
        &copies[..],
        "the copies come selected"
    );
    assert_eq!(doc.scene().len(), 5);
    assert_eq!(steps(&doc), before + 1);
    let copy = doc.scene().entity(copies[0]).expect("copy");
    assert_eq!(
        copy.transform,
        doc.scene().entity(crate_).expect("crate").transform
    );
    delete(&mut doc).expect("deletes");
    assert_eq!(doc.scene().len(), 3);
    assert_eq!(steps(&doc), before + 2);
    doc.undo();
    doc.undo();
    assert_eq!(doc.scene().len(), 3);
    assert!(doc.scene().entity(crate_).is_some() && doc.scene().entity(spawn).is_some());
}

#[test]
fn hide_unhide_and_isolate() {
    let (mut doc, [floor, crate_, spawn]) = document();
    doc.select(vec![crate_]).expect("select");
    let before = steps(&doc);
    isolate(&mut doc).expect("isolates");
    let visible = |doc: &Document, id| doc.scene().entity(id).is_some_and(|e| e.visible);
    assert!(visible(&doc, crate_) && !visible(&doc, floor) && !visible(&doc, spawn));
    // A view setting, as the selection is: no History step (the report).
    assert_eq!(steps(&doc), before, "no step");
    // Isolating again, with nothing else left to hide, shows everything.
    isolate(&mut doc).expect("shows all");
    assert!(visible(&doc, floor) && visible(&doc, spawn));
    hide_selected(&mut doc).expect("hides");
    assert!(!visible(&doc, crate_));
    // Each refusal says what there is nothing of, in words (not "nothing to unhide
    // all").
    assert_eq!(
        hide_selected(&mut doc),
        Err("nothing to hide: the selection is hidden already".to_string())
    );
    unhide_all(&mut doc).expect("unhides");
    assert!(visible(&doc, crate_));
    assert_eq!(unhide_all(&mut doc), Err("nothing is hidden".to_string()));
    assert_eq!(steps(&doc), before, "hiding and showing made no step");
    // An edit's undo and redo leave what is shown as it is.
    hide_selected(&mut doc).expect("hides");
    let mut renamed = doc.scene().entity(crate_).expect("crate").clone();
    renamed.name = "Crate 7".into();
    renamed.visible = true;
    doc.execute(pebble_model::command::SetEntity::new("Rename", renamed))
        .expect("rename");
    assert!(!visible(&doc, crate_), "still hidden after the edit");
    doc.undo();
    assert!(!visible(&doc, crate_), "and after its undo");
    doc.redo();
    assert!(!visible(&doc, crate_), "and its redo");
}

#[test]
fn group_then_ungroup_keeps_everything_in_place() {
    let (mut doc, [_, crate_, spawn]) = document();
    doc.select(vec![crate_, spawn]).expect("select");
    let world = |doc: &Document, id| doc.scene().world_transform(id);
    let (a, b) = (world(&doc, crate_), world(&doc, spawn));
    group(&mut doc).expect("groups");
    let g = doc.scene().selection()[0];
    assert!(matches!(
        doc.scene().entity(g).expect("group").kind,
        EntityKind::Group
    ));
    assert_eq!(doc.scene().entity(crate_).expect("crate").parent, Some(g));
    ungroup(&mut doc).expect("ungroups");
    assert!(doc.scene().entity(g).is_none());
    assert_eq!(doc.scene().entity(crate_).expect("crate").parent, None);
    assert!(world(&doc, crate_).abs_diff_eq(a, 1e-5) && world(&doc, spawn).abs_diff_eq(b, 1e-5));
    // What was grouped comes out selected.
    let mut selected = doc.scene().selection().to_vec();
    selected.sort();
    let mut members = vec![crate_, spawn];
    members.sort();
    assert_eq!(selected, members);
}

/// Leaving isolate shows what the isolate hid, not what was hidden before it.
#[test]
fn leaving_isolate_keeps_hidden_what_was_hidden_before() {
    let (mut doc, [floor, crate_, spawn]) = document();
    let visible = |doc: &Document, id| doc.scene().entity(id).is_some_and(|e| e.visible);
    doc.select(vec![spawn]).expect("select");
    hide_selected(&mut doc).expect("hides the spawn");
    doc.select(vec![crate_]).expect("select");
    isolate(&mut doc).expect("isolates");
    assert!(!visible(&doc, floor) && !visible(&doc, spawn));
    isolate(&mut doc).expect("leaves");
    assert!(visible(&doc, floor) && visible(&doc, crate_));
    assert!(
        !visible(&doc, spawn),
        "hidden before the isolate, hidden after"
    );
}

#[test]
fn nudge_turn_and_drop_to_the_floor() {
    let (mut doc, [floor, crate_, _]) = document();
    doc.select(vec![crate_]).expect("select");
    let at = |doc: &Document| doc.scene().entity(crate_).expect("crate").transform;
    nudge(&mut doc, Vec3::X, 0.25).expect("nudges");
    assert!((at(&doc).translation - Vec3::new(1.25, 3.0, 0.0)).length() < 1e-5);
    turn_quarter(&mut doc).expect("turns");
    let turned = at(&doc).rotation * Vec3::X;
    assert!((turned - Vec3::NEG_Z).length() < 1e-5, "{turned}");
    drop_to_floor(&mut doc).expect("drops");
    let bottom = doc.scene().world_aabb(crate_).expect("bounds").min.y;
    let top = doc.scene().world_aabb(floor).expect("bounds").max.y;
    assert!(
        (bottom - top).abs() < 1e-4,
        "on the slab: {bottom} vs {top}"
    );
    // Off the slab there is only the ground.
    nudge(&mut doc, Vec3::X, 20.0).expect("nudges");
    drop_to_floor(&mut doc).expect("drops");
    let bottom = doc.scene().world_aabb(crate_).expect("bounds").min.y;
    assert!(bottom.abs() < 1e-4, "on the ground: {bottom}");
}

#[test]
fn selections_are_not_steps() {
    let (mut doc, [floor, crate_, spawn]) = document();
    let before = steps(&doc);
    select_all(&mut doc);
    assert_eq!(doc.scene().selection().len(), 3);
    doc.select(vec![crate_]).expect("select");
    select_inverse(&mut doc);
    assert_eq!(doc.scene().selection(), &[floor, spawn]);
    doc.select(vec![crate_]).expect("select");
    select_same_kind(&mut doc).expect("same kind");
    assert_eq!(doc.scene().selection(), &[floor, crate_], "the two meshes");
    doc.select(vec![crate_]).expect("select");
    select_same_material(&mut doc).expect("same material");
    assert_eq!(doc.scene().selection(), &[floor, crate_]);
    assert_eq!(steps(&doc), before);
    assert!(!doc.is_dirty() || before > 0);
}

#[test]
fn align_and_distribute_line_up_the_bounds_as_one_step() {
    let (mut doc, [_, crate_, spawn]) = document();
    doc.execute(AddMaterial::new(Default::default()))
        .expect("material");
    let material = doc.scene().materials().map(|(id, _)| id).next();
    let far = entity(CreateItem::Box, Vec3::new(7.0, 0.0, 4.0), material).expect("a box");
    doc.execute(AddEntities::new("Create", vec![far]).without_selecting())
        .expect("add");
    let far = *doc
        .scene()
        .entities()
        .map(|e| e.id)
        .collect::<Vec<_>>()
        .last()
        .expect("id");
    doc.select(vec![crate_, spawn, far]).expect("select");
    let before = doc.history().position();
    let bounds = |doc: &Document, id| {
        doc.scene().world_aabb(id).map_or_else(
            || Vec3::from(doc.scene().world_transform(id).translation),
            |b| b.min,
        )
    };
    align(&mut doc, Axis::X, Edge::Min).expect("aligns");
    assert_eq!(doc.history().position(), before + 1, "one step");
    let xs: Vec<f32> = [crate_, spawn, far]
        .iter()
        .map(|id| bounds(&doc, *id).x)
        .collect();
    assert!(xs.iter().all(|x| (x - xs[0]).abs() < 1e-4), "{xs:?}");
    distribute(&mut doc, Axis::Z).expect("distributes");
    let centre_z = |id| {
        doc.scene()
            .world_aabb(id)
            .map_or(doc.scene().world_transform(id).translation.z, |b| {
                b.center().z
            })
    };
    let mut zs: Vec<f32> = [crate_, spawn, far]
        .iter()
        .map(|id| centre_z(*id))
        .collect();
    zs.sort_by(f32::total_cmp);
    assert!(
        ((zs[1] - zs[0]) - (zs[2] - zs[1])).abs() < 1e-4,
        "evenly: {zs:?}"
    );
    doc.select(vec![crate_]).expect("select one");
    assert!(align(&mut doc, Axis::Y, Edge::Max).is_err(), "two or more");
    assert!(distribute(&mut doc, Axis::Y).is_err(), "three or more");
}

#[test]
fn a_collider_fitted_to_a_turned_mesh_covers_it_and_follows_it() {
    let (mut doc, [floor, crate_, spawn]) = document();
    // Turn and move the crate: its box collider turns with it.
    let mut turned = doc.scene().entity(crate_).expect("crate").clone();
    turned.transform.rotation = pebble_model::glam::Quat::from_rotation_y(0.6);
    turned.transform.scale = Vec3::new(2.0, 1.0, 3.0);
    doc.execute(pebble_model::command::SetEntity::new("Turn", turned))
        .expect("turn");
    doc.select(vec![crate_, spawn]).expect("select");
    let before = steps(&doc);
    collider_from_selection(&mut doc, ColliderFit::Box).expect("fits");
    assert_eq!(steps(&doc), before + 1, "one step");
    let scene = doc.scene();
    let collider = scene
        .entities_of(Kind::Collider)
        .next()
        .expect("a collider")
        .clone();
    assert_eq!(collider.parent, Some(crate_), "it follows the mesh");
    assert_eq!(
        scene.selection(),
        &[collider.id],
        "the new collider is selected"
    );
    let (mesh, fitted) = (
        scene.world_aabb(crate_).expect("bounds"),
        scene.world_aabb(collider.id).expect("bounds"),
    );
    assert!(
        (mesh.min - fitted.min).abs().max_element() < 1e-4
            && (mesh.max - fitted.max).abs().max_element() < 1e-4,
        "{mesh:?} against {fitted:?}"
    );
    let EntityKind::Mesh(m) = &scene.entity(crate_).expect("crate").kind else {
        panic!("a mesh")
    };
    assert!(!m.collidable, "one shape on the device, not two");
    // Undo takes back both.
    doc.undo();
    assert_eq!(doc.scene().entities_of(Kind::Collider).count(), 0);
    let EntityKind::Mesh(m) = &doc.scene().entity(crate_).expect("crate").kind else {
        panic!("a mesh")
    };
    assert!(m.collidable);
    // A triangle-mesh collider names the mesh and leaves it collidable.
    doc.select(vec![floor]).expect("select");
    collider_from_selection(&mut doc, ColliderFit::TriangleMesh).expect("fits");
    let c = doc.scene().entities_of(Kind::Collider).next().expect("one");
    assert!(matches!(
        c.kind,
        EntityKind::Collider(pebble_model::entity::Collider::TriMesh { mesh }) if mesh == floor
    ));
    // Nothing to fit to: a clear refusal.
    doc.select(vec![spawn]).expect("select");
    let refused = collider_from_selection(&mut doc, ColliderFit::Ramp).expect_err("no mesh");
    assert!(refused.contains("select one or more meshes"), "{refused}");
}
