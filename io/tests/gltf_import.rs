//! glTF import on files written here: hierarchy, every triangle topology and
//! accessor type, materials with their extensions, lights, named nodes, GLB, and
//! clear errors for broken accessors and missing images.

mod common;

use std::path::{Path, PathBuf};

use base64::Engine as _;
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::entity::{Collider, EntityKind, Light};
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::material::AlphaMode;
use pebble_model::{History, Kind, Scene};
use serde_json::{Value, json};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-gltf-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

fn png_2x2() -> Vec<u8> {
    let mut out = Vec::new();
    let img = image::RgbaImage::from_raw(
        2,
        2,
        vec![
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 0,
        ],
    )
    .expect("image");
    img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .expect("png");
    out
}

/// One buffer holding: a quad (4 float positions, 4 float UVs, 4 normalized-u8
/// colours, 6 u16 indices) and a 4-vertex strip/fan (float positions).
fn buffer() -> Vec<u8> {
    let mut b = Vec::new();
    for p in [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
    ] {
        for c in p {
            b.extend_from_slice(&c.to_le_bytes());
        }
    } // 0..48
    for uv in [[0.0f32, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]] {
        for c in uv {
            b.extend_from_slice(&c.to_le_bytes());
        }
    } // 48..80
    for c in [
        [255u8, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 255, 128],
    ] {
        b.extend_from_slice(&c);
    } // 80..96
    for i in [0u16, 1, 2, 0, 2, 3] {
        b.extend_from_slice(&i.to_le_bytes());
    } // 96..108
    b.extend_from_slice(&[0, 0, 0, 0]); // pad to 112
    for p in [
        [0.0f32, 0.0, 2.0],
        [1.0, 0.0, 2.0],
        [0.0, 1.0, 2.0],
        [1.0, 1.0, 2.0],
    ] {
        for c in p {
            b.extend_from_slice(&c.to_le_bytes());
        }
    } // 112..160
    for _ in 0..4 {
        for c in [0.0f32, 0.0, 2.0] {
            b.extend_from_slice(&c.to_le_bytes());
        }
    } // 160..208: quad normals, not unit length on purpose
    b
}

fn document(buffer_uri: Value, image_uri: &str) -> Value {
    json!({
        "asset": { "version": "2.0" },
        "extensionsUsed": ["KHR_lights_punctual", "KHR_texture_transform"],
        "extensions": { "KHR_lights_punctual": { "lights": [ { "type": "point", "color": [1.0, 0.5, 0.25], "intensity": 3.0, "range": 7.0, "name": "Lamp" } ] } },
        "scene": 0,
        "scenes": [ { "nodes": [0, 3, 4, 5, 6, 7] } ],
        "nodes": [
            { "name": "Room", "translation": [10.0, 0.0, 0.0], "children": [1, 2] },
            { "name": "Quad", "mesh": 0, "scale": [2.0, 2.0, 2.0] },
            { "name": "Lamp node", "translation": [0.0, 3.0, 0.0], "extensions": { "KHR_lights_punctual": { "light": 0 } } },
            { "name": "Collider_Box_Crate", "mesh": 0, "translation": [0.0, 0.0, -5.0] },
            { "name": "PlayerSpawn", "translation": [1.0, 1.6, 4.0], "rotation": [0.0, std::f32::consts::FRAC_1_SQRT_2, 0.0, std::f32::consts::FRAC_1_SQRT_2] },
            { "name": "Trigger_open_door", "scale": [2.0, 3.0, 1.0] },
            { "name": "Walkable_floor", "mesh": 1 },
            { "name": "Emitter_fire", "translation": [0.0, 1.0, 0.0] }
        ],
        "meshes": [
            { "primitives": [ { "attributes": { "POSITION": 0, "NORMAL": 5, "TEXCOORD_0": 1, "COLOR_0": 2 }, "indices": 3, "material": 0 } ] },
            { "primitives": [
                { "attributes": { "POSITION": 4 }, "mode": 5 },
                { "attributes": { "POSITION": 4 }, "mode": 6 },
                { "attributes": { "POSITION": 4 }, "mode": 1 }
            ] }
        ],
        "materials": [ {
            "name": "Leaves",
            "pbrMetallicRoughness": {
                "baseColorFactor": [0.5, 1.0, 1.0, 1.0],
                "baseColorTexture": { "index": 0, "extensions": { "KHR_texture_transform": { "scale": [2.0, 4.0], "offset": [0.25, 0.0] } } }
            },
            "alphaMode": "MASK",
            "doubleSided": true,
            "extras": { "poi_uv_scroll": [0.0, -0.5] }
        } ],
        "textures": [ { "source": 0 } ],
        "images": [ { "uri": image_uri, "name": "leaves" } ],
        "accessors": [
            { "bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 0, "byteOffset": 48, "componentType": 5126, "count": 4, "type": "VEC2" },
            { "bufferView": 0, "byteOffset": 80, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC4" },
            { "bufferView": 1, "byteOffset": 0, "componentType": 5123, "count": 6, "type": "SCALAR" },
            { "bufferView": 0, "byteOffset": 112, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0.0, 0.0, 2.0], "max": [1.0, 1.0, 2.0] },
            { "bufferView": 0, "byteOffset": 160, "componentType": 5126, "count": 4, "type": "VEC3" }
        ],
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": 96 },
            { "buffer": 0, "byteOffset": 96, "byteLength": 12 },
        ],
        "buffers": [ { "byteLength": 208, "uri": buffer_uri } ]
    })
}

/// [`document`] with its buffer embedded as a data URI and the buffer views laid
/// out as the buffer holds them.
fn embedded_document(image_uri: &str) -> Value {
    let mut doc = document(
        json!(data_uri("application/octet-stream", &buffer())),
        image_uri,
    );
    doc["bufferViews"] = json!([{ "buffer": 0, "byteOffset": 0, "byteLength": 208 }, { "buffer": 0, "byteOffset": 96, "byteLength": 12 }]);
    doc
}

fn data_uri(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

fn import(path: &Path, dir: &Path) -> Result<(Scene, pebble_io::import::ImportReport), String> {
    let imported =
        import_file(path, &ImportOptions::new(dir), &mut |_| {}).map_err(|e| e.to_string())?;
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command)
        .map_err(|e| e.to_string())?;
    Ok((scene, imported.report))
}

fn named<'a>(scene: &'a Scene, name: &str) -> &'a pebble_model::Entity {
    scene
        .entities()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn a_gltf_with_everything_imports() {
    let dir = scratch("full");
    let doc = embedded_document(&data_uri("image/png", &png_2x2()));
    let path = dir.join("room.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let (scene, report) = import(&path, &dir).expect("imports");
    assert_eq!(report.textures_written.len(), 1, "{report:?}");
    assert!(dir.join(&report.textures_written[0]).is_file());
    assert!(
        report.warnings.iter().any(|w| w.contains("Lines")),
        "{:?}",
        report.warnings
    );

    // Hierarchy and transforms: the quad sits under Room, scaled 2×.
    let room = named(&scene, "Room");
    let quad = named(&scene, "Quad");
    assert_eq!(quad.parent, Some(room.id));
    let corner = scene
        .world_transform(quad.id)
        .transform_point3(Vec3::new(1.0, 1.0, 0.0));
    assert!(
        (corner - Vec3::new(12.0, 2.0, 0.0)).length() < 1e-5,
        "{corner}"
    );
    let EntityKind::Mesh(m) = &quad.kind else {
        panic!("mesh")
    };
    assert_eq!(m.geometry.faces.len(), 2);
    assert_eq!(
        m.geometry.faces[0].uvs,
        [
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0)
        ]
    );
    let colors = m.geometry.colors.as_ref().expect("COLOR_0");
    assert_eq!(colors[1], [0.0, 1.0, 0.0, 1.0]);
    assert!(
        (colors[3][3] - 128.0 / 255.0).abs() < 1e-6,
        "normalized u8 alpha"
    );
    let mat = scene
        .material(m.geometry.faces[0].material)
        .expect("material");
    assert_eq!(mat.alpha, AlphaMode::Cutout);
    assert!(mat.double_sided);
    assert_eq!(mat.uv_scroll, Vec2::new(0.0, -0.5));
    assert_eq!(mat.tiling, Vec2::new(0.5, 0.25));
    assert_eq!(mat.offset, Vec2::new(0.25, 0.0));
    assert_eq!(mat.color, [0.5, 1.0, 1.0, 1.0]);

    let lamp = scene.entities_of(Kind::Light).next().expect("light");
    assert!(
        matches!(lamp.kind, EntityKind::Light(Light::Omni { radius, intensity, .. }) if radius == 7.0 && intensity == 3.0)
    );
    assert!(
        matches!(named(&scene, "Collider_Box_Crate").kind, EntityKind::Collider(Collider::Box { size }) if size == Vec3::new(1.0, 1.0, 0.0))
    );
    let value = |name: &str, field: &str| match &named(&scene, name).kind {
        EntityKind::Defined(d) => pebble_model::definitions::builtin::value(d, field)
            .cloned()
            .unwrap_or_else(|| panic!("{name}.{field}")),
        other => panic!("{name}: {other:?}"),
    };
    let yaw = value("PlayerSpawn", "yaw").as_f32().expect("a yaw");
    assert!((yaw.abs() - 90.0).abs() < 1e-2, "{yaw}");
    assert_eq!(
        value("Trigger_open_door", "event"),
        pebble_model::definitions::FieldValue::Text("open_door".into())
    );
    // Walkable: a strip (2 triangles) and a fan (2 triangles); the lines are skipped.
    let EntityKind::Walkable(w) = &named(&scene, "Walkable_floor").kind else {
        panic!("walkable")
    };
    assert_eq!(w.faces.len(), 4);
    for f in &w.faces[..2] {
        let [a, b, c] = w.triangle(f);
        assert!(
            (b - a).cross(c - a).z > 0.0,
            "strips keep counter-clockwise fronts"
        );
    }
    // The fan's triangles share its first vertex: (0, 1, 2) and (0, 2, 3).
    let base = w.faces[2].indices[0];
    assert_eq!(w.faces[2].indices, [base, base + 1, base + 2]);
    assert_eq!(w.faces[3].indices, [base, base + 2, base + 3]);
    assert!(matches!(
        named(&scene, "Emitter_fire").kind,
        EntityKind::Emitter(_)
    ));
}

#[test]
fn glb_with_external_missing_image_imports_with_a_placeholder() {
    let dir = scratch("glb");
    let bin = buffer();
    let mut doc = document(Value::Null, "textures/does_not_exist.png");
    doc["buffers"] = json!([{ "byteLength": bin.len() }]);
    doc["bufferViews"] = json!([{ "buffer": 0, "byteOffset": 0, "byteLength": 208 }, { "buffer": 0, "byteOffset": 96, "byteLength": 12 }]);
    let glb = common::glb(&serde_json::to_vec(&doc).expect("json"), &bin);
    let path = dir.join("room.glb");
    std::fs::write(&path, &glb).expect("write");
    let (scene, report) = import(&path, &dir).expect("imports despite the missing image");
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("not found") && w.contains("placeholder")),
        "{:?}",
        report.warnings
    );
    let quad = named(&scene, "Quad");
    let EntityKind::Mesh(m) = &quad.kind else {
        panic!("mesh")
    };
    let mat = scene
        .material(m.geometry.faces[0].material)
        .expect("material");
    assert!(
        mat.texture
            .as_deref()
            .is_some_and(|t| t.contains("missing_leaves")),
        "{:?}",
        mat.texture
    );
}

#[test]
fn broken_accessors_are_named_errors() {
    let dir = scratch("broken");
    let mut doc = document(
        json!(data_uri("application/octet-stream", &buffer())),
        &data_uri("image/png", &png_2x2()),
    );
    doc["bufferViews"] = json!([{ "buffer": 0, "byteOffset": 0, "byteLength": 100 }, { "buffer": 0, "byteOffset": 96, "byteLength": 12 }]);
    let path = dir.join("bad.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let err = import(&path, &dir).expect_err("an accessor overruns its view");
    assert!(
        err.contains("accessor 5")
            && err.contains("do not fit buffer view 0 (100 bytes)")
            && err.contains("bad.gltf"),
        "{err}"
    );

    let mut doc = embedded_document(&data_uri("image/png", &png_2x2()));
    doc["buffers"][0]["byteLength"] = json!(4000);
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let err = import(&path, &dir).expect_err("short buffer");
    assert!(err.contains("buffer 0 holds 208 bytes"), "{err}");

    std::fs::write(&path, b"{ not json").expect("write");
    let err = import(&path, &dir).expect_err("not json");
    assert!(err.contains("not a valid glTF"), "{err}");
}

/// Exporters that apply transforms leave collider nodes at the origin with the
/// placement in the positions, often under a turned and scaled parent: the
/// collider must be where its vertices are, whatever the name's case, and never
/// drawn.
#[test]
fn colliders_stand_where_their_vertices_are_under_turned_parents() {
    let dir = scratch("colliders");
    let mut doc = embedded_document(&data_uri("image/png", &png_2x2()));
    let quarter = [
        0.0,
        std::f32::consts::FRAC_1_SQRT_2,
        0.0,
        std::f32::consts::FRAC_1_SQRT_2,
    ];
    doc["scenes"] = json!([{ "nodes": [0] }]);
    doc["nodes"] = json!([
        { "name": "Yard", "translation": [10.0, 0.0, 0.0], "rotation": quarter, "scale": [2.0, 2.0, 2.0], "children": [1, 2, 3] },
        { "name": "collider_box_crate", "mesh": 0 },
        { "name": "COLLIDER_ramp_slope", "mesh": 0, "translation": [0.0, 1.0, 0.0] },
        { "name": "Trigger_gate", "mesh": 0 }
    ]);
    let path = dir.join("yard.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let (scene, _) = import(&path, &dir).expect("imports");
    // The quad spans x 0..1, y 0..1 at z = 0; turned a quarter about Y, doubled
    // and moved 10 m along X it spans x = 10, y 0..2, z −2..0 in the world.
    let near = |a: Vec3, b: Vec3| (a - b).abs().max_element() < 1e-4;
    for (name, lift) in [
        ("collider_box_crate", 0.0),
        ("COLLIDER_ramp_slope", 2.0),
        ("Trigger_gate", 0.0),
    ] {
        let e = named(&scene, name);
        let bounds = scene.world_aabb(e.id).expect("bounds");
        assert!(
            near(bounds.min, Vec3::new(10.0, lift, -2.0))
                && near(bounds.max, Vec3::new(10.0, 2.0 + lift, 0.0)),
            "{name}: {bounds:?}"
        );
        // The origin is the middle of the base, as for primitives.
        let origin: Vec3 = scene.world_transform(e.id).translation.into();
        assert!(
            near(origin, Vec3::new(10.0, lift, -1.0)),
            "{name}: {origin}"
        );
    }
    assert!(matches!(
        named(&scene, "collider_box_crate").kind,
        EntityKind::Collider(Collider::Box { .. })
    ));
    assert!(matches!(
        named(&scene, "COLLIDER_ramp_slope").kind,
        EntityKind::Collider(Collider::Ramp { .. })
    ));
    assert_eq!(
        scene.entities_of(Kind::Mesh).count(),
        0,
        "a collider is never drawn"
    );
}

/// As exporters write them: a texture on the second UV set, colours as normalised
/// unsigned shorts, a camera and an extension Pebble does not read. The texture
/// takes its own UV set, the colours come in normalised, and the report says
/// what was left out.
#[test]
fn a_second_uv_set_short_colours_and_what_is_left_out() {
    let dir = scratch("uv1");
    let mut b = Vec::new();
    let f32s = |b: &mut Vec<u8>, v: &[f32]| {
        for c in v {
            b.extend_from_slice(&c.to_le_bytes());
        }
    };
    f32s(&mut b, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]); // 0..36 positions
    f32s(&mut b, &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]); // 36..60 TEXCOORD_0: all zero
    f32s(&mut b, &[0.25, 0.5, 0.75, 0.5, 0.25, 1.0]); // 60..84 TEXCOORD_1
    for c in [65535u16, 0, 0, 0, 32768, 0, 0, 0, 65535] {
        b.extend_from_slice(&c.to_le_bytes());
    } // 84..102 COLOR_0 as normalised u16 RGB
    b.extend_from_slice(&[0, 0]); // 104
    let path = dir.join("lightmapped.gltf");
    std::fs::write(dir.join("lightmapped.bin"), &b).expect("bin");
    let doc = json!({
        "asset": { "version": "2.0" },
        "extensionsUsed": ["KHR_materials_clearcoat"],
        "scene": 0,
        "scenes": [{ "nodes": [0, 1] }],
        "nodes": [
            { "name": "Wall", "mesh": 0 },
            { "name": "Shot", "camera": 0 }
        ],
        "cameras": [{ "type": "perspective", "perspective": { "yfov": 1.0, "znear": 0.1 } }],
        "meshes": [{ "primitives": [{
            "attributes": { "POSITION": 0, "TEXCOORD_0": 1, "TEXCOORD_1": 2, "COLOR_0": 3 },
            "material": 0
        }] }],
        "materials": [{ "name": "Painted", "pbrMetallicRoughness": {
            "baseColorTexture": { "index": 0, "texCoord": 1 } } }],
        "textures": [{ "source": 0 }],
        "images": [{ "uri": data_uri("image/png", &png_2x2()) }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 0, "byteOffset": 36, "componentType": 5126, "count": 3, "type": "VEC2" },
            { "bufferView": 0, "byteOffset": 60, "componentType": 5126, "count": 3, "type": "VEC2" },
            { "bufferView": 0, "byteOffset": 84, "componentType": 5123, "normalized": true, "count": 3, "type": "VEC3" }
        ],
        "bufferViews": [{ "buffer": 0, "byteLength": 104 }],
        "buffers": [{ "byteLength": 104, "uri": "lightmapped.bin" }]
    });
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let (scene, report) = import(&path, &dir).expect("imports");
    let wall = named(&scene, "Wall");
    let EntityKind::Mesh(m) = &wall.kind else {
        panic!("a mesh")
    };
    let uvs = m.geometry.faces[0].uvs;
    assert_eq!(
        uvs.map(|u| u.to_array()),
        [[0.25, 0.5], [0.75, 0.5], [0.25, 1.0]],
        "the set the texture names"
    );
    let colors = m.geometry.colors.as_ref().expect("colours");
    assert!((colors[0][0] - 1.0).abs() < 1e-4 && colors[0][1].abs() < 1e-4);
    assert!(
        (colors[1][1] - 32768.0 / 65535.0).abs() < 1e-4,
        "{:?}",
        colors[1]
    );
    assert!((colors[2][2] - 1.0).abs() < 1e-4 && (colors[2][3] - 1.0).abs() < 1e-4);
    let dropped: Vec<&String> = report.dropped.iter().collect();
    assert!(
        dropped.iter().any(|d| d.contains("1 camera")),
        "{dropped:?}"
    );
    assert!(
        dropped
            .iter()
            .any(|d| d.contains("KHR_materials_clearcoat")),
        "{dropped:?}"
    );
}

/// Three small tiles on three panels, as a kit exported from a modelling tool:
/// they share one atlas on the PSP by default; a tile its faces repeat, and one
/// the designer opted out, keep their own textures.
#[test]
fn small_tiles_share_an_atlas_by_default() {
    let dir = scratch("atlas");
    let png = |rgb: [u8; 3]| {
        let img = image::RgbaImage::from_pixel(16, 16, image::Rgba([rgb[0], rgb[1], rgb[2], 255]));
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png)
            .expect("png");
        data_uri("image/png", &out.into_inner())
    };
    let mut b = Vec::new();
    let f32s = |b: &mut Vec<u8>, v: &[f32]| {
        for c in v {
            b.extend_from_slice(&c.to_le_bytes());
        }
    };
    f32s(&mut b, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]); // 0..36
    f32s(&mut b, &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]); // 36..60 UVs inside the tile
    f32s(&mut b, &[0.0, 0.0, 3.0, 0.0, 0.0, 3.0]); // 60..84 UVs repeating it
    std::fs::write(dir.join("kit.bin"), &b).expect("bin");
    let prim = |uv: usize, material: usize| json!({ "attributes": { "POSITION": 0, "TEXCOORD_0": uv }, "material": material });
    let doc = json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0, 1, 2, 3, 4] }],
        "nodes": [
            { "name": "Red", "mesh": 0 },
            { "name": "Green", "mesh": 1, "translation": [2.0, 0.0, 0.0] },
            { "name": "Blue", "mesh": 2, "translation": [4.0, 0.0, 0.0] },
            { "name": "Floor", "mesh": 3, "translation": [6.0, 0.0, 0.0] },
            { "name": "Sign", "mesh": 4, "translation": [8.0, 0.0, 0.0] }
        ],
        "meshes": [
            { "primitives": [prim(1, 0)] },
            { "primitives": [prim(1, 1)] },
            { "primitives": [prim(1, 2)] },
            { "primitives": [prim(2, 3)] },
            { "primitives": [prim(1, 4)] }
        ],
        "materials": (0..5).map(|k| json!({ "name": format!("M{k}"),
            "pbrMetallicRoughness": { "baseColorTexture": { "index": k } } })).collect::<Vec<_>>(),
        "textures": (0..5).map(|k| json!({ "source": k })).collect::<Vec<_>>(),
        "images": [
            { "uri": png([255, 0, 0]) }, { "uri": png([0, 255, 0]) }, { "uri": png([0, 0, 255]) },
            { "uri": png([255, 255, 0]) }, { "uri": png([0, 255, 255]) }
        ],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 0, "byteOffset": 36, "componentType": 5126, "count": 3, "type": "VEC2" },
            { "bufferView": 0, "byteOffset": 60, "componentType": 5126, "count": 3, "type": "VEC2" }
        ],
        "bufferViews": [{ "buffer": 0, "byteLength": 84 }],
        "buffers": [{ "byteLength": 84, "uri": "kit.bin" }]
    });
    let path = dir.join("kit.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let (mut scene, _) = import(&path, &dir).expect("imports");
    let tiles: Vec<(String, bool)> = scene
        .materials()
        .map(|(_, m)| (m.name.clone(), m.tile))
        .collect();
    assert_eq!(
        tiles,
        vec![
            ("M0".into(), true),
            ("M1".into(), true),
            ("M2".into(), true),
            ("M3".into(), false),
            ("M4".into(), true)
        ],
        "the repeated floor tile is not a candidate"
    );
    // The designer opts the sign out.
    let (sign, mut m) = scene
        .materials()
        .find(|(_, m)| m.name == "M4")
        .map(|(id, m)| (id, m.clone()))
        .expect("M4");
    m.tile = false;
    History::default()
        .execute(&mut scene, pebble_model::command::SetMaterial::new(sign, m))
        .expect("opts out");
    let (bytes, _) = common::export_unbaked(&scene, &dir);
    let (view, warnings) = pbm::MapView::parse(&bytes).expect("parses");
    assert!(warnings.is_empty(), "{warnings:?}");
    let map = pbm::Map::from_view(&view);
    let names: Vec<String> = map
        .textures
        .iter()
        .map(|t| t.name.as_str().to_owned())
        .collect();
    assert_eq!(
        map.textures.iter().filter(|t| t.is_atlas()).count(),
        1,
        "the three tiles share one atlas: {names:?}"
    );
    assert_eq!(
        map.textures.len(),
        3,
        "the atlas, the floor's and the sign's: {names:?}"
    );
}

/// A spot light comes in with its cone (for the bake), aimed along its node.
#[test]
fn a_spot_light_keeps_its_cone() {
    let dir = scratch("spot");
    let mut doc = embedded_document(&data_uri("image/png", &png_2x2()));
    doc["extensions"]["KHR_lights_punctual"]["lights"][0] = json!({
        "type": "spot", "color": [1.0, 1.0, 1.0], "intensity": 2.0, "range": 9.0,
        "spot": { "innerConeAngle": 0.2, "outerConeAngle": 0.4 }
    });
    let path = dir.join("spot.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let (scene, report) = import(&path, &dir).expect("imports");
    let lamp = scene.entities_of(Kind::Light).next().expect("the light");
    match &lamp.kind {
        EntityKind::Light(Light::Omni {
            radius,
            cone: Some(cone),
            ..
        }) => {
            assert_eq!(*radius, 9.0);
            assert!((cone.inner - 0.2).abs() < 1e-6 && (cone.outer - 0.4).abs() < 1e-6);
        }
        other => panic!("{other:?}"),
    }
    assert!(
        !report.warnings.iter().any(|w| w.contains("spot")),
        "{:?}",
        report.warnings
    );
}

/// Found by fuzzing: an attribute whose accessor has another element type (UVs
/// given as VEC3) made the gltf crate's reader assert. Each such file is refused,
/// naming the mesh, the attribute and the accessor.
#[test]
fn attributes_of_the_wrong_type_are_refused_by_name() {
    let dir = scratch("wrong-types");
    let mut bin = Vec::new();
    for c in [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0] {
        bin.extend_from_slice(&c.to_le_bytes());
    }
    let cases = [
        ("TEXCOORD_0", "VEC3", 5126, false, "TexCoords(0)"),
        ("COLOR_0", "SCALAR", 5126, false, "Colors(0)"),
        ("NORMAL", "VEC3", 5121, true, "Normals"),
        ("TEXCOORD_0", "VEC2", 5122, false, "TexCoords(0)"),
    ];
    for (attribute, ty, component, normalized, named) in cases {
        let doc = json!({
            "asset": { "version": "2.0" },
            "scenes": [{ "nodes": [0] }],
            "nodes": [{ "mesh": 0 }],
            "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0, attribute: 1 } }] }],
            "accessors": [
                { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                  "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
                { "bufferView": 0, "componentType": component, "normalized": normalized,
                  "count": 3, "type": ty }
            ],
            "bufferViews": [{ "buffer": 0, "byteLength": 36 }],
            "buffers": [{ "byteLength": 36 }]
        });
        let path = dir.join("wrong.glb");
        std::fs::write(
            &path,
            common::glb(&serde_json::to_vec(&doc).expect("json"), &bin),
        )
        .expect("writes");
        let err = import(&path, &dir).expect_err("refused");
        assert!(
            err.contains("mesh 0 primitive 0") && err.contains(named) && err.contains("accessor 1"),
            "{attribute} as {ty}: {err}"
        );
    }
    // Indices of floats likewise.
    let doc = json!({
        "asset": { "version": "2.0" },
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "mesh": 0 }],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0 }, "indices": 1 }] }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
              "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR" }
        ],
        "bufferViews": [{ "buffer": 0, "byteLength": 36 }],
        "buffers": [{ "byteLength": 36 }]
    });
    let path = dir.join("float-indices.glb");
    std::fs::write(
        &path,
        common::glb(&serde_json::to_vec(&doc).expect("json"), &bin),
    )
    .expect("writes");
    let err = import(&path, &dir).expect_err("refused");
    assert!(err.contains("index accessor 1"), "{err}");
    // An accessor of no elements, and one read with a stride shorter than its
    // elements (the gltf crate subtracts one from the count, and reads past).
    for (count, stride, says) in [(0, 12, "has no elements"), (3, 4, "stride of 4 bytes")] {
        let doc = json!({
            "asset": { "version": "2.0" },
            "scenes": [{ "nodes": [0] }],
            "nodes": [{ "mesh": 0 }],
            "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0, "TEXCOORD_0": 1 } }] }],
            "accessors": [
                { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                  "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
                { "bufferView": 1, "componentType": 5126, "count": count, "type": "VEC2" }
            ],
            "bufferViews": [
                { "buffer": 0, "byteLength": 36 },
                { "buffer": 0, "byteLength": 24, "byteStride": stride }
            ],
            "buffers": [{ "byteLength": 36 }]
        });
        let path = dir.join("layout.glb");
        std::fs::write(
            &path,
            common::glb(&serde_json::to_vec(&doc).expect("json"), &bin),
        )
        .expect("writes");
        let err = import(&path, &dir).expect_err("refused");
        assert!(err.contains("accessor 1") && err.contains(says), "{err}");
    }
    // The fuzzer's own finds, kept as they came.
    for found in ["gltf-texcoord-type.glb", "gltf-empty-accessor.glb"] {
        let found = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/findings")
            .join(found);
        let err = import(&found, &dir).expect_err("refused, not a panic");
        assert!(err.contains("accessor"), "{err}");
    }
}

/// A 0.8 m sign straddling the 2 m grid's lines at x = 2 and y = 2, as an exporter
/// writes it (a node placing a unit quad): the export keeps its 2 triangles. Cutting
/// every straddling triangle made 6× the vertices on props like this; only triangles
/// larger than the grid's cell can leave the GE's guard band.
#[test]
fn a_small_prop_across_grid_lines_exports_whole() {
    let dir = scratch("sign");
    let mut bin = common::floats(&[
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
    ]);
    for i in [0u16, 1, 2, 0, 2, 3] {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    let doc = json!({
        "asset": { "version": "2.0", "generator": "Khronos glTF Blender I/O v4.1.63" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "name": "Sign", "mesh": 0, "translation": [1.6, 1.6, -3.0], "scale": [0.8, 0.8, 0.8] }],
        "meshes": [{ "name": "Sign", "primitives": [{ "attributes": { "POSITION": 0 }, "indices": 1 }] }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR" }
        ],
        "bufferViews": [{ "buffer": 0, "byteOffset": 0, "byteLength": 48 }, { "buffer": 0, "byteOffset": 48, "byteLength": 12 }],
        "buffers": [{ "byteLength": bin.len() }]
    });
    let path = dir.join("sign.glb");
    std::fs::write(
        &path,
        common::glb(&serde_json::to_vec(&doc).expect("json"), &bin),
    )
    .expect("writes");
    let (scene, _) = import(&path, &dir).expect("imports");
    let (bytes, _) = common::export_unbaked(&scene, &dir);
    let (map, _) = pbm::Map::read(&bytes).expect("reads");
    let vertices: Vec<[f32; 3]> = map
        .meshes
        .iter()
        .flat_map(|m| m.vertices.iter().map(|v| v.pos))
        .collect();
    assert_eq!(vertices.len(), 6, "{vertices:?}");
    let (lo, hi) = vertices
        .iter()
        .fold(([f32::MAX; 3], [f32::MIN; 3]), |(lo, hi), p| {
            (
                std::array::from_fn(|k| lo[k].min(p[k])),
                std::array::from_fn(|k| hi[k].max(p[k])),
            )
        });
    assert!(
        lo[0] < 2.0 && hi[0] > 2.0 && lo[1] < 2.0 && hi[1] > 2.0,
        "{lo:?}..{hi:?}"
    );
}

/// Samplers as Blender writes them (pixel art: NEAREST and CLAMP_TO_EDGE; a tiled
/// floor: REPEAT; a MIRRORED_REPEAT the GE cannot do) become the materials'
/// sampling; the export writes a `samplers` lump for the device, a texture sampled
/// two ways becomes two textures, and importing the map gives the sampling back.
#[test]
fn sampler_wrap_and_filter_reach_the_materials_and_the_map() {
    let dir = scratch("samplers");
    let png = png_2x2();
    let uri = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    let mut bin = common::floats(&[[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]);
    bin.extend(common::floats(&[[0.0f32, 0.0], [1.0, 0.0], [1.0, 1.0]]));
    let prim = |material: u32| json!({ "attributes": { "POSITION": 0, "TEXCOORD_0": 1 }, "material": material });
    let doc = json!({
        "asset": { "version": "2.0", "generator": "Khronos glTF Blender I/O v4.1.63" },
        "scene": 0,
        "scenes": [{ "nodes": [0, 1, 2] }],
        "nodes": [
            { "name": "Pixel", "mesh": 0 },
            { "name": "Floor", "mesh": 1, "translation": [3.0, 0.0, 0.0] },
            { "name": "Mirror", "mesh": 2, "translation": [6.0, 0.0, 0.0] }
        ],
        "meshes": [
            { "primitives": [prim(0)] },
            { "primitives": [prim(1)] },
            { "primitives": [prim(2)] }
        ],
        "materials": [
            { "name": "Pixel art", "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } } },
            { "name": "Floor", "pbrMetallicRoughness": { "baseColorTexture": { "index": 1 } } },
            { "name": "Mirror", "pbrMetallicRoughness": { "baseColorTexture": { "index": 2 } } }
        ],
        "textures": [
            { "source": 0, "sampler": 0 },
            { "source": 0, "sampler": 1 },
            { "source": 0, "sampler": 2 }
        ],
        "samplers": [
            { "magFilter": 9728, "minFilter": 9984, "wrapS": 33071, "wrapT": 10497 },
            { "magFilter": 9729, "minFilter": 9987 },
            { "wrapS": 33648, "wrapT": 33071 }
        ],
        "images": [{ "uri": uri }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 0, "byteOffset": 36, "componentType": 5126, "count": 3, "type": "VEC2" }
        ],
        "bufferViews": [{ "buffer": 0, "byteLength": 60 }],
        "buffers": [{ "byteLength": bin.len(), "uri": format!("data:application/octet-stream;base64,{}", base64::engine::general_purpose::STANDARD.encode(&bin)) }]
    });
    let path = dir.join("samplers.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("writes");
    let (scene, report) = import(&path, &dir).expect("imports");
    let sampling = |name: &str| {
        scene
            .materials()
            .find(|(_, m)| m.name == name)
            .map(|(_, m)| m.sampling)
            .unwrap_or_else(|| panic!("no material {name}"))
    };
    use pebble_model::material::Sampling;
    assert_eq!(
        sampling("Pixel art"),
        Sampling {
            clamp_u: true,
            clamp_v: false,
            nearest: true
        }
    );
    assert_eq!(sampling("Floor"), Sampling::default());
    assert_eq!(
        sampling("Mirror"),
        Sampling {
            clamp_u: false,
            clamp_v: true,
            nearest: false
        }
    );
    assert!(
        report
            .dropped
            .iter()
            .any(|d| d.contains("mirrored repeat along U")),
        "{:?}",
        report.dropped
    );
    // The map: one image sampled three ways is three textures, two with records.
    let (bytes, _) = common::export_unbaked(&scene, &dir);
    let (map, _) = pbm::Map::read(&bytes).expect("reads");
    let lump = map
        .metadata_by_tag(pbm::sampler::SAMPLERS_TAG)
        .expect("a samplers lump");
    let records = pbm::sampler::decode_samplers(&lump.payload);
    assert_eq!(map.textures.len(), 3, "{:?}", map.textures);
    assert_eq!(records.len(), 2, "{records:?}");
    let of_mesh = |name: &str| {
        let m = map
            .meshes
            .iter()
            .find(|m| m.name.as_str().starts_with(name))
            .unwrap_or_else(|| panic!("no mesh {name}"));
        pbm::sampler::sampler_of(&records, m.texture_id as usize)
    };
    assert!(of_mesh("Pixel").nearest && of_mesh("Pixel").clamp_u);
    assert!(of_mesh("Floor").is_default());
    assert!(of_mesh("Mirror").clamp_v && !of_mesh("Mirror").nearest);
    // Importing the map gives the sampling back, and exporting it again writes one
    // lump, not a second one kept as a custom lump.
    let map_path = dir.join("map.pbm");
    std::fs::write(&map_path, &bytes).expect("writes");
    let again_dir = scratch("samplers-again");
    let (again, _) = import(&map_path, &again_dir).expect("imports the map");
    assert!(
        again
            .materials()
            .any(|(_, m)| m.sampling.nearest && m.sampling.clamp_u)
    );
    let (bytes2, _) = common::export_unbaked(&again, &again_dir);
    let (map2, _) = pbm::Map::read(&bytes2).expect("reads");
    let lumps = map2
        .metadata
        .iter()
        .filter(|m| m.tag.as_str() == pbm::sampler::SAMPLERS_TAG)
        .count();
    assert_eq!(lumps, 1);
}

/// A sun as Blender writes it: a node turned to aim the light (here 60° down about
/// X) under a parent turned 90° about Y. The sun shines along the node's −Z in the
/// world, so the bake lights the scene from where the artist aimed it.
#[test]
fn a_sun_shines_where_its_node_and_parents_turn_it() {
    let dir = scratch("sun");
    let mut doc = embedded_document(&data_uri("image/png", &png_2x2()));
    doc["extensions"]["KHR_lights_punctual"]["lights"][0] =
        json!({ "type": "directional", "color": [1.0, 0.9, 0.8], "intensity": 3.0, "name": "Sun" });
    let down = (-std::f32::consts::FRAC_PI_3 / 2.0).sin_cos();
    let turn = (std::f32::consts::FRAC_PI_4).sin_cos();
    doc["nodes"][0]["rotation"] = json!([0.0, turn.0, 0.0, turn.1]);
    doc["nodes"][2]["rotation"] = json!([down.0, 0.0, 0.0, down.1]);
    let path = dir.join("sun.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let (scene, _) = import(&path, &dir).expect("imports");
    let sun = scene.entities_of(Kind::Light).next().expect("the sun");
    let EntityKind::Light(Light::Sun { direction, .. }) = &sun.kind else {
        panic!("{:?}", sun.kind);
    };
    // −Z turned 60° down about X is (0, −sin 60°, −cos 60°); then 90° about Y
    // takes −Z to −X.
    let want = pebble_model::glam::Vec3::new(-0.5, -(3f32.sqrt() / 2.0), 0.0);
    assert!(
        (*direction - want).length() < 1e-4,
        "the sun shines along {direction}, not {want}"
    );
}

/// KHR_texture_transform as its spec defines it: uv' = T · R · S · uv with
/// R = [[cos r, sin r], [−sin r, cos r]] (the Khronos TextureTransformTest's
/// arrows point at "Correct" only with that sign). Checked against the spec's
/// matrices for the sample's rotation, with an offset and a scale.
#[test]
fn texture_transform_rotation_has_the_spec_s_sign() {
    let dir = scratch("texture-transform");
    let mut doc = embedded_document(&data_uri("image/png", &png_2x2()));
    // The sample's rotation, 22.5°.
    let (offset, rotation, scale) = ([0.5f32, 0.25], std::f32::consts::FRAC_PI_8, [1.5f32, 2.0]);
    doc["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"]["KHR_texture_transform"] =
        json!({ "offset": offset, "rotation": rotation, "scale": scale });
    let path = dir.join("transform.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let (scene, _) = import(&path, &dir).expect("imports");
    let material = scene
        .materials()
        .map(|(_, m)| m)
        .find(|m| m.name == "Leaves")
        .expect("the material");
    let (s, c) = rotation.sin_cos();
    for uv in [[1.0f32, 0.0], [0.0, 1.0], [0.3, 0.7]] {
        let scaled = [uv[0] * scale[0], uv[1] * scale[1]];
        let want = pebble_model::glam::Vec2::new(
            c * scaled[0] + s * scaled[1] + offset[0],
            -s * scaled[0] + c * scaled[1] + offset[1],
        );
        let got = material.repeats(pebble_model::glam::Vec2::from(uv));
        assert!(
            (got - want).length() < 1e-5,
            "{uv:?} became {got}, the spec says {want}"
        );
    }
}

/// A WebP picture as bytes (lossless), 2×2: red, green, blue, white.
fn webp_2x2() -> Vec<u8> {
    let img = image::RgbaImage::from_raw(
        2,
        2,
        vec![
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
        ],
    )
    .expect("2×2");
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::WebP)
        .expect("encodes WebP");
    out.into_inner()
}

/// Godot 4 writes its textures as WebP: `EXT_texture_webp` used and required, the
/// texture's only source in the extension, the image a WebP buffer view. The
/// texture comes in, kept as a PNG with the same pixels.
#[test]
fn a_godot_webp_texture_imports() {
    let dir = scratch("webp");
    let mut doc = embedded_document(&data_uri("image/webp", &webp_2x2()));
    doc["extensionsUsed"] = json!(["KHR_lights_punctual", "EXT_texture_webp"]);
    doc["extensionsRequired"] = json!(["EXT_texture_webp"]);
    doc["textures"] = json!([{ "extensions": { "EXT_texture_webp": { "source": 0 } } }]);
    doc["images"][0]["mimeType"] = json!("image/webp");
    let path = dir.join("godot.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let (scene, report) = import(&path, &dir).expect("imports a WebP texture");
    let material = scene
        .materials()
        .map(|(_, m)| m)
        .find(|m| m.name == "Leaves")
        .expect("the material");
    let texture = material.texture.as_ref().expect("a texture");
    assert!(texture.ends_with(".png"), "kept as {texture}");
    let img = image::open(dir.join(texture)).expect("reads it").to_rgba8();
    assert_eq!(img.get_pixel(0, 0).0, [255, 0, 0, 255]);
    assert_eq!(img.get_pixel(1, 1).0, [255, 255, 255, 255]);
    assert!(
        !report.warnings.iter().any(|w| w.contains("placeholder")),
        "{:?}",
        report.warnings
    );
    assert!(
        !report
            .dropped
            .iter()
            .any(|d| d.contains("EXT_texture_webp")),
        "{:?}",
        report.dropped
    );
}

/// A `.webp` picture imports as any picture does.
#[test]
fn a_webp_picture_imports() {
    let dir = scratch("webp-picture");
    let path = dir.join("sign.webp");
    std::fs::write(&path, webp_2x2()).expect("writes");
    let (scene, _) = import(&path, &dir).expect("imports a WebP picture");
    let material = scene
        .materials()
        .next()
        .map(|(_, m)| m)
        .expect("a material");
    let texture = material.texture.as_ref().expect("its texture");
    let img = image::open(dir.join(texture)).expect("reads it").to_rgba8();
    assert_eq!(img.dimensions(), (2, 2));
}

/// Compressed meshes (Draco as Blender writes it, meshopt as gltfpack writes it)
/// are refused by the extension's name with how to export without it, not as a
/// corrupt file; a Git LFS pointer saved as `.glb` says what it is.
#[test]
fn required_extensions_and_lfs_pointers_are_named() {
    let dir = scratch("required");
    for (ext, hint) in [
        ("KHR_draco_mesh_compression", "Compression off"),
        ("EXT_meshopt_compression", "without -c"),
        ("KHR_texture_basisu", "PNG, JPEG or WebP"),
        ("EXT_made_up", "without it"),
    ] {
        let mut doc = document(
            json!(data_uri("application/octet-stream", &buffer())),
            &data_uri("image/png", &png_2x2()),
        );
        doc["extensionsUsed"] = json!([ext]);
        doc["extensionsRequired"] = json!([ext]);
        // What a Draco file looks like: accessors without buffer views, the data in
        // the primitive's extension.
        doc["accessors"][0]
            .as_object_mut()
            .expect("an accessor")
            .remove("bufferView");
        doc["meshes"][0]["primitives"][0]["extensions"] =
            json!({ ext: { "bufferView": 0, "attributes": { "POSITION": 0 } } });
        let path = dir.join(format!("{ext}.gltf"));
        std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
        let error = import(&path, &dir).expect_err("refused");
        assert!(
            error.contains(&format!("requires the glTF extension {ext}")) && error.contains(hint),
            "{ext}: {error}"
        );
        assert!(!error.contains("Missing data"), "{error}");
    }
    let pointer = dir.join("level.glb");
    std::fs::write(
        &pointer,
        "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n",
    )
    .expect("writes");
    let error = import(&pointer, &dir).expect_err("refused");
    assert!(
        error.contains("Git LFS pointer") && error.contains("git lfs pull"),
        "{error}"
    );
}

/// The report: each import added another material named "Default". An unnamed
/// glTF material (as many exporters write them) is named by its texture, and a
/// primitive without a material by the file it came from.
#[test]
fn unnamed_materials_are_named_by_their_texture_or_their_file() {
    let dir = scratch("unnamed-materials");
    let mut doc = embedded_document(&data_uri("image/png", &png_2x2()));
    doc["materials"][0]
        .as_object_mut()
        .expect("a material")
        .remove("name");
    // A second primitive with no material at all.
    doc["meshes"][0]["primitives"]
        .as_array_mut()
        .expect("primitives")
        .push(json!({ "attributes": { "POSITION": 0 }, "indices": 3 }));
    let path = dir.join("crate props.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    let (scene, _) = import(&path, &dir).expect("imports");
    let names: Vec<String> = scene.materials().map(|(_, m)| m.name.clone()).collect();
    assert!(!names.iter().any(|n| n == "Default"), "{names:?}");
    let textured = scene
        .materials()
        .find(|(_, m)| m.texture.is_some())
        .map(|(_, m)| m.name.clone())
        .expect("the textured material");
    let texture = scene
        .materials()
        .find_map(|(_, m)| m.texture.clone())
        .expect("a texture");
    let stem = std::path::Path::new(&texture)
        .file_stem()
        .expect("a file name")
        .to_string_lossy()
        .into_owned();
    assert_eq!(textured, stem, "named by its texture");
    assert!(names.iter().any(|n| n == "crate props"), "{names:?}");
}
