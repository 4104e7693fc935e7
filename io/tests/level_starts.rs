//! What an imported level needs and its file does not say: where the player
//! starts and a light to bake by. Files shaped as Godot 4 writes them
//! (`common/levels.rs`), imported into a new project as `pebble import` and File ›
//! Import do, then exported.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use pebble_io::export::{ExportOptions, export};
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::glam::Vec3;
use pebble_model::{History, Kind, Scene};

#[path = "common/levels.rs"]
// Each test binary uses some of the levels.
#[allow(dead_code)]
mod levels;

/// `level` imported into `scene` with what the project lacks added; the lines said.
fn import_into(level: &levels::Level, dir: &Path, scene: &mut Scene) -> Vec<String> {
    let path = dir.join(format!("{}.glb", level.name));
    std::fs::write(&path, &level.glb).expect("writes the level");
    let imported = import_file(&path, &ImportOptions::new(dir), &mut |_| {}).expect("imports");
    let mut command = imported.command;
    let said = command.add_what_the_project_lacks(scene);
    History::default().execute(scene, command).expect("applies");
    said
}

fn spawn(scene: &Scene) -> (Vec3, f32) {
    let (e, d) = scene
        .entities_described("PlayerSpawn")
        .next()
        .expect("a player spawn");
    let yaw = pebble_model::definitions::builtin::value(d, "yaw")
        .and_then(|v| v.as_f32())
        .expect("a yaw");
    // The field holds degrees; the header and the rules take radians.
    (
        scene.world_transform(e.id).translation.into(),
        yaw.to_radians(),
    )
}

/// Godot's occlusion room: the old choice stood the player on the roof (y 6.6),
/// the inside never seen. The start is on the room's floor, inside, with head
/// room; the summary says where and why; the export starts the player there.
#[test]
fn an_imported_closed_room_starts_inside_on_its_floor() {
    let dir = levels::scratch("room");
    let mut scene = Scene::new();
    let said = import_into(&levels::occlusion_room(None), &dir, &mut scene);
    let (eye, _) = spawn(&scene);
    assert!(
        (eye.y - 1.6).abs() < 0.05,
        "the eye 1.6 m over the room's floor: {eye}"
    );
    assert!(eye.x.abs() < 15.0 && eye.z.abs() < 15.0, "inside: {eye}");
    let line = said
        .iter()
        .find(|l| l.contains("player start added"))
        .unwrap_or_else(|| panic!("said: {said:?}"));
    assert!(
        line.contains("head room") && line.contains("floor"),
        "{line}"
    );
    let mut options = ExportOptions::new(&dir);
    options.bake = false;
    let (bytes, report) =
        export(&scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    let map = pbm::Map::read(&bytes).expect("reads").0;
    assert_eq!(map.spawn_pos, eye.to_array());
    assert!(
        !report
            .warnings
            .iter()
            .any(|w| w.contains("no player spawn")),
        "{:?}",
        report.warnings
    );
}

/// The same room exported without the import's start (a project made before):
/// the export's own choice is the same kind of place.
#[test]
fn an_export_without_a_spawn_starts_inside_the_closed_room_too() {
    let dir = levels::scratch("room-export");
    let level = levels::occlusion_room(None);
    let path = dir.join("room.glb");
    std::fs::write(&path, &level.glb).expect("writes");
    let imported = import_file(&path, &ImportOptions::new(&dir), &mut |_| {}).expect("imports");
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command)
        .expect("applies");
    assert!(scene.entities_described("PlayerSpawn").next().is_none());
    let mut options = ExportOptions::new(&dir);
    options.bake = false;
    let (bytes, report) =
        export(&scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    let map = pbm::Map::read(&bytes).expect("reads").0;
    let [x, y, z] = map.spawn_pos;
    assert!(
        (y - 1.6).abs() < 0.05 && x.abs() < 15.0 && z.abs() < 15.0,
        "{:?}",
        map.spawn_pos
    );
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("no player spawn") && w.contains("head room")),
        "{:?}",
        report.warnings
    );
}

/// A node named as a start (Godot's `Marker3D` named `PlayerStart`, turned to
/// look along +X) wins over any choice: the start stands there, looking its way.
#[test]
fn a_node_named_like_a_start_wins() {
    let dir = levels::scratch("marker");
    let mut scene = Scene::new();
    // A quarter turn about Y, −90°: −Z turns to +X.
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let level = levels::occlusion_room(Some(("PlayerStart", [5.0, 0.0, -3.0], [0.0, -h, 0.0, h])));
    let said = import_into(&level, &dir, &mut scene);
    let (eye, yaw) = spawn(&scene);
    assert!(
        (eye - Vec3::new(5.0, 1.6, -3.0)).length() < 1e-3,
        "at the node, eye height over it: {eye}"
    );
    assert!(
        (yaw - std::f32::consts::FRAC_PI_2).abs() < 1e-3,
        "looking along +X: {yaw}"
    );
    assert!(
        said.iter()
            .any(|l| l.contains("'PlayerStart', named as a start")),
        "{said:?}"
    );
}

/// No light in the file: a sun and a sky light come with it (said), and the
/// room's inside, where the environment's sun never reached, bakes brighter (the
/// level is indoors: the added sun shines unshadowed); a project that has its own start and light gets
/// neither (a prop imported into a lit level).
#[test]
fn an_unlit_level_gets_a_sun_and_sky_and_a_lit_project_gets_nothing() {
    let dir = levels::scratch("lights");
    let mut scene = Scene::new();
    let said = import_into(&levels::occlusion_room(None), &dir, &mut scene);
    assert!(
        said.iter()
            .any(|l| l.contains("no light in the file") && l.contains("indoors")),
        "{said:?}"
    );
    let lights: Vec<&str> = scene
        .entities_of(Kind::Light)
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(lights, ["Sun", "Sky light"]);
    // Baked: the room's inside is lit by the sky light (no longer black).
    let (bytes, _) = export(
        &scene,
        &ExportOptions::new(&dir),
        &mut |_| {},
        &AtomicBool::new(false),
    )
    .expect("exports");
    let map = pbm::Map::read(&bytes).expect("reads").0;
    let lit = mean_brightness(&map);
    // The same file imported as before, without them.
    let path = dir.join("occlusion_room.glb");
    let imported = import_file(&path, &ImportOptions::new(&dir), &mut |_| {}).expect("imports");
    let mut unlit = Scene::new();
    History::default()
        .execute(&mut unlit, imported.command)
        .expect("applies");
    let (bytes, _) = export(
        &unlit,
        &ExportOptions::new(&dir),
        &mut |_| {},
        &AtomicBool::new(false),
    )
    .expect("exports");
    let dark = mean_brightness(&pbm::Map::read(&bytes).expect("reads").0);
    println!("mean vertex brightness inside: {lit:.1} lit, {dark:.1} without lights");
    assert!(lit > 1.5 * dark, "the bake reads: {lit} against {dark}");

    // Again into the same project: it has a start and lights now.
    let said = import_into(&levels::occlusion_room(None), &dir, &mut scene);
    assert!(said.is_empty(), "{said:?}");
    assert_eq!(scene.entities_described("PlayerSpawn").count(), 1);
    assert_eq!(scene.entities_of(Kind::Light).count(), 2);
}

/// The mean of the vertex colours' channels (0–255) inside the room.
fn mean_brightness(map: &pbm::Map) -> f32 {
    let (sum, n) = map
        .meshes
        .iter()
        .flat_map(|m| &m.vertices)
        .filter(|v| v.pos[0].abs() < 15.01 && v.pos[2].abs() < 15.01 && v.pos[1] < 6.01)
        .fold((0.0f64, 0usize), |(s, n), v| {
            let c = v.color;
            let rgb = (c & 0xFF) + (c >> 8 & 0xFF) + (c >> 16 & 0xFF);
            (s + f64::from(rgb) / 3.0, n + 1)
        });
    (sum / n.max(1) as f64) as f32
}
