//! A room built in the whole app only by dragging, as a level designer would:
//! a floor on the grid, four walls, a platform and stairs drawn on the floor's top
//! (picked from the GPU's ID buffer), a spawn put down with a click. Every shape
//! lands on the surface, each is one undo step, and the map exports and
//! validates strictly.

use crate::common;

use egui_kittest::kittest::Queryable as _;
use pebble_core::create::CreateItem;
use pebble_editor::app::PebbleApp;
use pebble_model::entity::{EntityKind, GeometrySource};
use pebble_model::glam::Vec3;
use pebble_model::{Primitive, Scene, project};
use pebble_viewport::navigation::OrbitCamera;

use common::{click, drag_line, harness_on, screen};

type Harness = egui_kittest::Harness<'static, PebbleApp>;

/// An empty project in a fresh folder.
fn empty_project() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-room-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("room.pebble.ron");
    project::save(&path, &Scene::new()).expect("saves");
    path
}

/// Presses the toolbar's button `label` (the one in the toolbar's row).
fn toolbar(harness: &mut Harness, label: &str) {
    let at = harness
        .query_all_by_label(label)
        .map(|n| n.rect().center())
        .find(|c| c.y < 50.0)
        .unwrap_or_else(|| panic!("no toolbar button {label}"));
    click(harness, at);
}

/// Draws the footprint from `a` to `b` (world points on the surface), then
/// moves to `height` above `b`'s corner and clicks.
fn draw(harness: &mut Harness, a: Vec3, b: Vec3, height: f32) {
    let (from, to) = (screen(harness.state(), a), screen(harness.state(), b));
    drag_line(harness, from, to, 6);
    let top = screen(harness.state(), b + Vec3::Y * height);
    for k in 1..=4 {
        harness.hover_at(to + (top - to) * (k as f32 / 4.0));
        harness.run_steps(1);
    }
    click(harness, top);
}

fn made(scene: &Scene, name: &str) -> Vec<pebble_model::Entity> {
    scene
        .entities()
        .filter(|e| e.name == name)
        .cloned()
        .collect()
}

#[test]
fn a_room_is_built_only_by_dragging_and_exports_strictly_valid() {
    let Some(mut harness) = harness_on(empty_project()) else {
        return;
    };
    {
        let view = &mut harness.state_mut().viewport.view;
        view.orbit = OrbitCamera {
            pivot: Vec3::ZERO,
            distance: 30.0,
            yaw: 0.0,
            pitch: -1.0,
            ..OrbitCamera::default()
        };
        view.target = None;
    }
    harness.run_steps(2);
    let floor_top = 0.5;
    let on_floor = |x: f32, z: f32| Vec3::new(x, floor_top, z);

    // The floor on the empty grid, 10 × 10 m, half a metre thick.
    toolbar(&mut harness, "Box");
    draw(
        &mut harness,
        Vec3::new(-4.95, 0.0, -4.95),
        Vec3::new(4.95, 0.0, 4.95),
        floor_top,
    );
    // Four walls on the floor's top, 3 m high.
    for (a, b) in [
        (on_floor(-4.95, -4.95), on_floor(4.95, -4.55)),
        (on_floor(-4.95, 4.95), on_floor(4.95, 4.55)),
        (on_floor(-4.95, -4.45), on_floor(-4.55, 4.45)),
        (on_floor(4.95, -4.45), on_floor(4.55, 4.45)),
    ] {
        toolbar(&mut harness, "Box");
        draw(&mut harness, a, b, 3.0);
    }
    // A platform in the north-west corner, and stairs up to it from the south.
    toolbar(&mut harness, "Box");
    draw(
        &mut harness,
        on_floor(-4.45, -4.45),
        on_floor(-1.55, -2.05),
        1.5,
    );
    toolbar(&mut harness, "Stairs");
    draw(
        &mut harness,
        on_floor(-3.45, 0.95),
        on_floor(-2.05, -1.95),
        1.5,
    );
    // The spawn, with a click on the floor.
    harness
        .state_mut()
        .start_create(CreateItem::Builtin("PlayerSpawn"));
    let at = screen(harness.state(), on_floor(2.0, 2.0));
    click(&mut harness, at);
    harness.run_steps(2);

    let scene = harness.state().scene().clone();
    let boxes: Vec<pebble_model::Entity> = scene
        .entities()
        .filter(|e| {
            matches!(&e.kind, EntityKind::Mesh(m)
                if matches!(m.source, GeometrySource::Primitive(Primitive::Box { .. })))
        })
        .cloned()
        .collect();
    assert_eq!(boxes.len(), 6, "floor, four walls, platform");
    // Named by what they are, not all "Box", and numbered apart.
    let names: Vec<&str> = boxes.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        names,
        ["Floor", "Wall", "Wall 2", "Wall 3", "Wall 4", "Box"]
    );
    let size_of = |e: &pebble_model::Entity| match &e.kind {
        EntityKind::Mesh(m) => match &m.source {
            GeometrySource::Primitive(Primitive::Box { size }) => *size,
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    let near = |a: Vec3, b: Vec3| (a - b).abs().max_element() < 1e-4;
    let sizes: Vec<Vec3> = boxes.iter().map(size_of).collect();
    for want in [
        Vec3::new(10.0, 0.5, 10.0),
        Vec3::new(10.0, 3.0, 0.5),
        Vec3::new(0.5, 3.0, 9.0),
        Vec3::new(3.0, 1.5, 2.5),
    ] {
        assert!(
            sizes.iter().any(|s| near(*s, want)),
            "a box of {want}: {sizes:?}"
        );
    }
    // Everything but the floor stands on the floor's top, exactly.
    for e in boxes.iter().skip(1) {
        let b = scene.world_aabb(e.id).expect("bounds");
        assert!((b.min.y - floor_top).abs() < 1e-5, "{}: {b:?}", e.name);
    }
    let stairs = &made(&scene, "Stairs")[0];
    let flight = scene.world_aabb(stairs.id).expect("bounds");
    assert!(
        (flight.min.y - floor_top).abs() < 1e-5 && (flight.max.y - 2.0).abs() < 1e-4,
        "the stairs reach the platform's top: {flight:?}"
    );
    assert!(
        (flight.min.z - -2.0).abs() < 1e-4,
        "their top step meets the platform's edge: {flight:?}"
    );
    let (spawn, _) = scene
        .entities_described("PlayerSpawn")
        .next()
        .expect("a spawn");
    let eye: Vec3 = scene.world_transform(spawn.id).translation.into();
    assert!(
        near(eye, Vec3::new(2.0, floor_top + 1.6, 2.0)),
        "the eye above the floor: {eye}"
    );
    // One step per shape.
    let steps = harness.state().history_names();
    assert_eq!(
        steps.iter().filter(|n| n.starts_with("Create ")).count(),
        8,
        "{steps:?}"
    );

    // The map: exported with the project's settings, strictly valid.
    let bytes = pebble_core::services::export::to_bytes(
        &scene,
        harness
            .state()
            .project_path()
            .parent()
            .expect("a folder")
            .to_path_buf(),
        false,
    )
    .expect("exports");
    let (view, warnings) = pbm::MapView::parse(&bytes).expect("a valid map");
    assert!(warnings.is_empty(), "{warnings:?}");
    let issues = pbm::compliance::check(&pbm::Map::from_view(&view));
    assert!(issues.is_empty(), "{issues:?}");
    assert!(
        view.colliders().count() >= 7,
        "the meshes collide on the device"
    );

    // A plane and a patrol clicked onto the north wall's inner face (facing +Z):
    // the plane lies on the wall, the patrol stands in front of it — not on the
    // ground behind the wall, not inside it.
    let face = scene.world_aabb(boxes[1].id).expect("the north wall").max.z;
    let on_wall = Vec3::new(0.5, 2.0, face);
    for item in [CreateItem::Plane, CreateItem::Builtin("Patrol")] {
        harness.state_mut().start_create(item);
        let at = screen(harness.state(), on_wall);
        click(&mut harness, at);
        harness.run_steps(2);
        let made = harness.state().scene().selection().to_vec();
        assert_eq!(
            made.len(),
            1,
            "{item:?} made: {}",
            harness.state().status().text
        );
        let t = harness.state().scene().world_transform(made[0]);
        let p: Vec3 = t.translation.into();
        assert!(
            (p.x - on_wall.x).abs() < 0.15 && (p.y - on_wall.y).abs() < 0.15,
            "{item:?} at {p}"
        );
        match item {
            CreateItem::Plane => {
                assert!((p.z - (face + 0.01)).abs() < 0.005, "on the wall: {p}");
                let up: Vec3 = t.transform_vector3(Vec3::Y).normalize();
                assert!(
                    up.dot(Vec3::Z) > 0.99,
                    "lying on the wall, facing out: {up}"
                );
            }
            // Clicked onto the plane just made there (1 cm off the wall).
            _ => assert!(
                (p.z - (face + 0.31)).abs() < 0.01,
                "in front of the wall: {p}"
            ),
        }
    }
}
