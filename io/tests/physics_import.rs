//! Collision as Godot 4 writes it into a glTF (`OMI_physics_body` and
//! `OMI_physics_shape` in 4.3, `OMI_collider` in 4.1) and as Godot and Blender
//! users name it (`-col`, `-colonly`): the truck town came in with 0 colliders.
//! Files made as Godot writes them (`common/levels.rs`).

use std::sync::atomic::AtomicBool;

use pebble_io::export::{ExportOptions, export};
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::entity::{Collider, EntityKind};
use pebble_model::{History, Kind, Scene};

#[path = "common/levels.rs"]
// Each test binary uses some of the levels.
#[allow(dead_code)]
mod levels;

fn import(
    level: &levels::Level,
    dir: &std::path::Path,
) -> (Scene, pebble_io::import::ImportReport) {
    let path = dir.join(format!("{}.glb", level.name));
    std::fs::write(&path, &level.glb).expect("writes");
    let imported = import_file(&path, &ImportOptions::new(dir), &mut |_| {}).expect("imports");
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command)
        .expect("applies");
    (scene, imported.report)
}

fn check_town(old: bool) {
    let level = levels::truck_town(old);
    let dir = levels::scratch(level.name);
    let (scene, report) = import(&level, &dir);
    assert!(
        !report.dropped.iter().any(|d| d.contains("OMI")),
        "nothing of the physics left out: {:?}",
        report.dropped
    );
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let colliders: Vec<(&str, &Collider)> = scene
        .entities_of(Kind::Collider)
        .map(|e| match &e.kind {
            EntityKind::Collider(c) => (e.name.as_str(), c),
            _ => unreachable!(),
        })
        .collect();
    // Six bodies, the 60 blocks' and the -colonly wall (the -col bollard's mesh
    // collides itself).
    const BLOCKS: usize = 60;
    assert_eq!(colliders.len(), 7 + BLOCKS, "{colliders:#?}");
    let boxes = colliders
        .iter()
        .filter(|(_, c)| matches!(c, Collider::Box { .. }))
        .count();
    assert_eq!(boxes, 1 + BLOCKS, "the house's and the blocks' boxes");
    let bollard = scene
        .entities()
        .find(|e| e.name == "Bollard")
        .expect("the bollard, named without its suffix");
    assert!(
        matches!(&bollard.kind, EntityKind::Mesh(m) if m.collidable) && bollard.exported,
        "drawn and collidable"
    );
    let wall = scene
        .entities()
        .find(|e| e.name.starts_with("EdgeWall") && matches!(e.kind, EntityKind::Mesh(_)))
        .expect("the wall's mesh");
    assert!(!wall.exported && !wall.visible, "-colonly: collision only");

    // Exported: every collider is in the map, where the file put it.
    let mut options = ExportOptions::new(&dir);
    options.bake = false;
    let (bytes, _) =
        export(&scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    let map = pbm::Map::read(&bytes).expect("reads").0;
    // Those, and the bollard's mesh.
    assert_eq!(
        map.colliders.len(),
        8 + BLOCKS,
        "{:#?}",
        map.colliders
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
    );
    let named = |prefix: &str| {
        map.colliders
            .iter()
            .find(|c| c.name.as_str().starts_with(prefix))
            .unwrap_or_else(|| panic!("no collider {prefix}"))
    };
    let house = named("HouseBody");
    // The house's box: 8 × 6 × 8 m on the ground at (10, 0, 10).
    let close = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-3);
    assert!(
        close(house.bounds_min, [6.0, 0.0, 6.0]) && close(house.bounds_max, [14.0, 6.0, 14.0]),
        "{:?} {:?}",
        house.bounds_min,
        house.bounds_max
    );
    // The boulder's sphere, radius 1.5 about (−10, 1.5, 5).
    let boulder = named("Boulder");
    assert!(
        close(boulder.bounds_min, [-11.5, 0.0, 3.5]) && close(boulder.bounds_max, [-8.5, 3.0, 6.5]),
        "{:?} {:?}",
        boulder.bounds_min,
        boulder.bounds_max
    );
}

#[test]
fn godot_4_3_physics_bodies_and_shapes_come_in_as_colliders() {
    check_town(false);
}

#[test]
fn godot_4_1_omi_colliders_come_in_too() {
    check_town(true);
}
