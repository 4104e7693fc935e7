//! What glows: `emissiveFactor`, `emissiveTexture` and
//! `KHR_materials_emissive_strength` as Bevy's and Blender's glTFs write them
//! (`common/levels.rs`'s lava cave). They were "left out", so the lava was matte
//! black. The PSP has no emissive term: the glow goes into the texture shown and
//! the bake adds it to the vertex colours, lights or none.

use std::sync::atomic::AtomicBool;

use pebble_io::export::{ExportOptions, export};
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::{History, Scene};

#[path = "common/levels.rs"]
// Each test binary uses some of the levels.
#[allow(dead_code)]
mod levels;

/// The mean sRGB brightness (0–255) of a project texture.
fn texture_brightness(path: &std::path::Path) -> f32 {
    let img = image::open(path).expect("the texture").to_rgb8();
    let sum: u64 = img
        .pixels()
        .map(|p| u64::from(p[0]) + u64::from(p[1]) + u64::from(p[2]))
        .sum();
    sum as f32 / (3 * img.width() * img.height()) as f32
}

/// The mean vertex brightness (0–255) of the map's meshes named `prefix…`.
fn vertex_brightness(map: &pbm::Map, prefix: &str) -> f32 {
    let colours: Vec<u32> = map
        .meshes
        .iter()
        .filter(|m| m.name.as_str().starts_with(prefix))
        .flat_map(|m| m.vertices.iter().map(|v| v.color))
        .collect();
    assert!(!colours.is_empty(), "no mesh {prefix}");
    let sum: u64 = colours
        .iter()
        .map(|c| u64::from(c & 0xFF) + u64::from(c >> 8 & 0xFF) + u64::from(c >> 16 & 0xFF))
        .sum();
    sum as f32 / (3 * colours.len()) as f32
}

#[test]
fn lava_and_a_lamp_glow_in_the_bake_and_the_texture_under_a_roof() {
    let dir = levels::scratch("lava");
    let level = levels::lava_cave();
    let path = dir.join("lava_cave.glb");
    std::fs::write(&path, &level.glb).expect("writes");
    let imported = import_file(&path, &ImportOptions::new(&dir), &mut |_| {}).expect("imports");
    assert!(
        !imported
            .report
            .dropped
            .iter()
            .any(|d| d.contains("emissive")),
        "nothing of the glow is left out: {:?}",
        imported.report.dropped
    );
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command)
        .expect("applies");
    let material = |name: &str| {
        scene
            .materials()
            .find(|(_, m)| m.name == name)
            .unwrap_or_else(|| panic!("no material {name}"))
            .1
            .clone()
    };
    let (lava, lamp, rock) = (material("Lava"), material("LampShade"), material("Rock"));
    // Strength 20 times the emissive texture's mean orange.
    assert!(
        lava.emissive[0] > 10.0 && lava.emissive[2] < lava.emissive[0],
        "{:?}",
        lava.emissive
    );
    assert_eq!(lamp.emissive, [1.0, 0.6, 0.2]);
    assert!(!rock.glows());
    // The lava shows its glow: the texture is the base with the glow added.
    let shown = lava.texture.as_deref().expect("a texture");
    assert!(shown.contains("_glow"), "{shown}");
    let base = texture_brightness(&dir.join("textures/lava_base.png"));
    let glowing = texture_brightness(&dir.join(shown));
    println!("lava texture brightness: base {base:.1}, shown {glowing:.1}");
    assert!(glowing > 4.0 * base, "{glowing} against {base}");

    // Baked at night under the roof: the rock is dim, the lava and the lamp are
    // never darker than their glow (clamped to white).
    let mut settings = scene.settings().clone();
    settings.environment = pebble_model::scene::Environment::Night;
    History::default()
        .execute(
            &mut scene,
            pebble_model::command::SetSettings::new(settings),
        )
        .expect("night");
    let (bytes, _) = export(
        &scene,
        &ExportOptions::new(&dir),
        &mut |_| {},
        &AtomicBool::new(false),
    )
    .expect("exports");
    let map = pbm::Map::read(&bytes).expect("reads").0;
    let (lava_v, lamp_v, cave_v) = (
        vertex_brightness(&map, "LavaPool"),
        vertex_brightness(&map, "Lamp"),
        vertex_brightness(&map, "Cave"),
    );
    println!("vertex brightness: lava {lava_v:.1}, lamp {lamp_v:.1}, cave {cave_v:.1}");
    // Each at least its glow (each channel clamped to white).
    let floor = |e: [f32; 3]| e.iter().map(|c| c.min(1.0)).sum::<f32>() / 3.0 * 255.0;
    for (name, v, e) in [
        ("lava", lava_v, lava.emissive),
        ("lamp", lamp_v, lamp.emissive),
    ] {
        assert!(
            v >= floor(e) - 2.0,
            "{name}: {v} against its glow {}",
            floor(e)
        );
    }
    assert!(cave_v < 0.5 * lamp_v, "the rock stays dim: {cave_v}");
}
