//! Levels as Blender, Sketchfab and Godot write them (`common/levels.rs`) come
//! through import and export with at most 5 % more triangles than they were made
//! of: large triangles are cut only where the bake needs it (near point lights,
//! and past 32 m for fog; the runtime clips what reaches past the GE's guard
//! band), the cut grows with the object (a 2 km ocean is not made 131 000
//! triangles), and double-sided faces are written once, in meshes the
//! `double_sided` lump names, which the runtime draws unculled.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use pebble_io::export::{ExportOptions, export};
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::{History, Scene};

#[path = "common/levels.rs"]
// Each test binary uses some of the levels.
#[allow(dead_code)]
mod levels;

fn import(path: &Path, dir: &Path) -> Scene {
    let imported = import_file(path, &ImportOptions::new(dir), &mut |_| {}).expect("imports");
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command)
        .expect("applies");
    scene
}

fn exported(scene: &Scene, dir: &Path) -> pbm::Map {
    let mut options = ExportOptions::new(dir);
    // The bake changes colours, not triangles; the cut is the default one.
    options.bake = false;
    let (bytes, _) =
        export(scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    pbm::Map::read(&bytes).expect("our export reads").0
}

fn triangles(map: &pbm::Map) -> usize {
    map.meshes.iter().map(|m| m.vertices.len() / 3).sum()
}

#[test]
fn real_levels_export_at_most_1_05_times_their_triangles() {
    for level in levels::all() {
        let dir = levels::scratch(level.name);
        let path = dir.join(format!("{}.glb", level.name));
        std::fs::write(&path, &level.glb).expect("writes the level");
        let scene = import(&path, &dir);
        // The drawn meshes (a collision shape's hidden mesh is not the file's
        // and is not drawn).
        let source: usize = scene
            .exported_entities()
            .filter_map(|e| match &e.kind {
                pebble_model::entity::EntityKind::Mesh(m) => Some(m.geometry.faces.len()),
                _ => None,
            })
            .sum();
        assert_eq!(
            source, level.triangles,
            "{}: every source triangle imported",
            level.name
        );
        let map = exported(&scene, &dir);
        let out = triangles(&map);
        let ratio = out as f64 / source as f64;
        eprintln!(
            "{}: {source} triangles in, {out} out ({ratio:.3}×)",
            level.name
        );
        assert!(
            ratio <= 1.05,
            "{}: {out} triangles for {source} ({ratio:.2}×)",
            level.name
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Blender marks every material double-sided: the arena's faces are written once
/// and every mesh is named in the `double_sided` lump; importing the map gives the
/// materials back double-sided.
#[test]
fn double_sided_faces_are_written_once_and_named_in_the_lump() {
    let level = levels::arena();
    let dir = levels::scratch("double-sided");
    let path = dir.join("arena.glb");
    std::fs::write(&path, &level.glb).expect("writes the level");
    let scene = import(&path, &dir);
    assert!(
        scene.materials().all(|(_, m)| m.double_sided),
        "Blender's materials are double-sided"
    );
    let map = exported(&scene, &dir);
    let lump = map
        .metadata
        .iter()
        .find(|m| m.tag.as_str() == pbm::double_sided::DOUBLE_SIDED_TAG)
        .expect("a double_sided lump");
    let named = pbm::double_sided::decode(&lump.payload);
    let all: Vec<u32> = (0..map.meshes.len() as u32).collect();
    assert_eq!(
        named, all,
        "every mesh of an all-double-sided level is named"
    );
    // No face and its reverse both in the map.
    let mut seen = std::collections::HashSet::new();
    for m in &map.meshes {
        for t in m.vertices.chunks_exact(3) {
            let key = |a: usize, b: usize, c: usize| {
                [t[a].pos, t[b].pos, t[c].pos].map(|p| p.map(f32::to_bits))
            };
            assert!(
                !seen.contains(&key(0, 2, 1)),
                "a face and its reverse were both written"
            );
            seen.insert(key(0, 1, 2));
        }
    }
    // The map read back: its materials are double-sided again, and it exports the same.
    let pbm_path = dir.join("arena.pbm");
    std::fs::write(&pbm_path, map.to_bytes().expect("writes")).expect("saves");
    let back = import(&pbm_path, &dir);
    assert!(back.materials().all(|(_, m)| m.double_sided));
    assert!(back.entities().next().is_some());
    let again = exported(&back, &dir);
    assert_eq!(triangles(&again), triangles(&map));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The terrain's 2048 m ocean (two triangles, as Godot writes a plane) is cut on a
/// grid that grows with it, never into the 131 000 triangles a fixed 8 m grid (or
/// the 740 000 of the old 2 m one) would make.
#[test]
fn the_cut_grows_with_the_object() {
    let level = levels::terrain();
    let dir = levels::scratch("ocean");
    let path = dir.join("terrain.glb");
    std::fs::write(&path, &level.glb).expect("writes the level");
    let scene = import(&path, &dir);
    let map = exported(&scene, &dir);
    let ocean: usize = map
        .meshes
        .iter()
        .filter(|m| m.name.as_str().starts_with("Ocean"))
        .map(|m| m.vertices.len() / 3)
        .sum();
    assert!(ocean >= 2, "the ocean is exported");
    assert!(
        ocean <= 2 * 17 * 17 * 2,
        "the ocean became {ocean} triangles"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
