//! The budget measured on maps the exporter writes, its levels, the view, and the
//! live readout following the scene.

use std::time::{Duration, Instant};

use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::definitions::FieldValue;
use pebble_model::definitions::builtin::instance;
use pebble_model::entity::{Emitter, EntityKind};
use pebble_model::glam::Vec3;
use pebble_model::{Command, Entity, History, Transform};

use super::*;
use pebble_core::create::{CreateItem, entity};

/// A box (12 triangles, clear of the exporter's 2 m cutting grid), an emitter of
/// 10 particles, a patrol.
fn small_scene() -> Scene {
    let mut scene = Scene::new();
    let mut m = AddMaterial::new(Default::default());
    m.apply(&mut scene).expect("material");
    let material = m.created();
    let boxed = entity(CreateItem::Box, Vec3::new(1.0, 0.0, -5.0), material).expect("box");
    let fire = Entity::new(
        "Fire",
        EntityKind::Emitter(Emitter {
            count: 10,
            ..pebble_core::presets::default_emitter()
        }),
    );
    let guard = Entity::new(
        "Guard",
        EntityKind::Defined(instance(
            "Patrol",
            [(
                "waypoints",
                FieldValue::Array(vec![
                    FieldValue::Point(Vec3::ZERO),
                    FieldValue::Point(Vec3::X * 3.0),
                ]),
            )],
        )),
    );
    History::default()
        .execute(
            &mut scene,
            AddEntities::new("Add", vec![boxed, fire, guard]),
        )
        .expect("add");
    scene
}

fn export(scene: &Scene) -> Vec<u8> {
    pebble_core::services::export::to_bytes(scene, std::env::temp_dir(), false).expect("exports")
}

#[test]
fn the_levels_turn_amber_at_80_percent_and_red_past_the_limit() {
    assert_eq!(level(79, 100), Level::Fine);
    assert_eq!(level(80, 100), Level::Near);
    assert_eq!(level(100, 100), Level::Near);
    assert_eq!(level(101, 100), Level::Over);
}

#[test]
fn a_map_costs_what_the_runtime_loads_and_draws() {
    let bytes = export(&small_scene());
    let cost = MapCost::of_bytes(&bytes).expect("measures");
    assert_eq!(cost.bytes, bytes.len() as u64);
    assert_eq!(cost.mesh_triangles, 12, "the box");
    // As the runtime counts: each mesh's vertices over three.
    let (view, _) = pbm::MapView::parse(&bytes).expect("parses");
    let runtime: u64 = view.meshes().map(|m| u64::from(m.num_vertices) / 3).sum();
    assert_eq!(cost.mesh_triangles, runtime);
    assert_eq!(cost.chunks.len(), 1);
    assert_eq!((cost.emitters, cost.particles, cost.spheres), (1, 10, 1));
    assert_eq!(
        cost.frame(),
        FrameCost {
            draw_calls: 3,
            triangles: 12 + 96 + 20
        }
    );
    // In front of the camera, or behind it.
    let ahead = Camera::psp(Vec3::new(0.0, 1.0, 0.0), 0.0, 0.0);
    assert_eq!(
        cost.in_view(&ahead),
        InView {
            chunks: 1,
            triangles: 12
        }
    );
    let behind = Camera::psp(Vec3::new(0.0, 1.0, 0.0), std::f32::consts::PI, 0.0);
    assert_eq!(cost.in_view(&behind).chunks, 0);
    let rows = rows(&cost, &ahead);
    assert!(
        rows.iter()
            .all(|r| r.limit.as_ref().is_none_or(|(_, l)| *l == Level::Fine))
    );
}

#[test]
fn the_readout_follows_the_scene_and_says_when_the_export_would_refuse_it() {
    let mut scene = small_scene();
    let mut budget = Budget::default();
    let dir = std::env::temp_dir();
    let wait = |budget: &mut Budget, scene: &Scene| {
        let deadline = Instant::now() + Duration::from_secs(60);
        // The first look starts the clock; later ones, past the settling time, measure.
        let mut now = Instant::now();
        while budget.update(scene, &dir, now) {
            assert!(Instant::now() < deadline, "never measured");
            std::thread::sleep(Duration::from_millis(10));
            now += SETTLE;
        }
    };
    wait(&mut budget, &scene);
    assert_eq!(
        budget.cost.as_ref().map(|(_, c)| c.mesh_triangles),
        Some(12)
    );
    assert_eq!(budget.worst(), Level::Fine);
    assert!(
        budget.summary().starts_with("PSP: 12 / 100k triangles"),
        "{}",
        budget.summary()
    );
    // A box 3 km away: the export refuses it, and the readout says so in red.
    let far = entity(
        CreateItem::Box,
        Vec3::new(3000.0, 0.0, 0.0),
        scene.materials().next().map(|(id, _)| id),
    )
    .expect("box");
    History::default()
        .execute(
            &mut scene,
            AddEntities::new(
                "Far",
                vec![far.with_transform(Transform::from_translation(Vec3::new(3000.0, 0.0, 0.0)))],
            ),
        )
        .expect("add");
    wait(&mut budget, &scene);
    assert_eq!(budget.worst(), Level::Over);
    assert!(budget.summary().contains("refuses"), "{}", budget.summary());
}

#[test]
fn an_import_with_a_huge_texture_or_mesh_is_warned_about() {
    let dir = std::env::temp_dir().join(format!("pebble-budget-import-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("textures")).expect("dir");
    image::RgbaImage::new(4096, 64)
        .save(dir.join("textures/huge.png"))
        .expect("png");
    image::RgbaImage::new(64, 64)
        .save(dir.join("textures/small.png"))
        .expect("png");
    let material = |t: &str| pebble_model::Material {
        texture: Some(t.into()),
        ..Default::default()
    };
    let stairs = |steps: u32| {
        let p = pebble_model::Primitive::Stairs {
            steps,
            width: 1.0,
            rise: 0.01,
            run: 0.01,
        };
        Entity::new(
            "Terrain",
            EntityKind::Mesh(pebble_model::entity::MeshEntity {
                geometry: p.generate(pebble_model::MaterialId(0)).expect("stairs"),
                source: pebble_model::entity::GeometrySource::Primitive(p),
                collidable: true,
            }),
        )
    };
    // 256 steps of 12 triangles: far below; a mesh copied to 100k triangles: warned.
    let mut big = stairs(256);
    if let EntityKind::Mesh(m) = &mut big.kind {
        let one = m.geometry.faces.clone();
        while m.geometry.faces.len() < 100_000 {
            m.geometry.faces.extend(one.iter().cloned());
        }
    }
    let warnings = import_warnings(
        &[stairs(256), big],
        &[
            material("textures/huge.png"),
            material("textures/small.png"),
        ],
        &dir,
    );
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("'Terrain'") && warnings[0].contains("triangles"));
    assert!(warnings[1].contains("huge.png is 4096 × 64"));
}

/// A new, empty project measures as an empty map, not as a refusal.
#[test]
fn an_empty_scene_costs_nothing() {
    let bytes = export(&Scene::new());
    let cost = MapCost::of_bytes(&bytes).expect("measures");
    assert_eq!(
        (cost.mesh_triangles, cost.particles, cost.chunks.len()),
        (0, 0, 0)
    );
    let mut budget = Budget::default();
    let scene = Scene::new();
    let dir = std::env::temp_dir();
    let mut now = Instant::now();
    let deadline = Instant::now() + Duration::from_secs(60);
    while budget.update(&scene, &dir, now) {
        assert!(Instant::now() < deadline, "never measured");
        std::thread::sleep(Duration::from_millis(10));
        now += SETTLE;
    }
    assert_eq!(budget.worst(), Level::Fine, "{}", budget.summary());
}
