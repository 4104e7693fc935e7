//! The fuzz targets' seeds (`io/fuzz/seeds/`) are files written as other tools
//! write them — a GLB as exporters pack it, a glTF with its buffer embedded as a
//! data URI (Blender's "glTF Embedded"), TMDs and TIMs as the PS1 tools lay them
//! out, a project as Pebble saves it — and the committed ones are exactly what
//! these writers make. `PEBBLE_WRITE_SEEDS=1` writes them again.

mod common;
use common::*;

use std::path::Path;

/// A glTF with its buffer as a base64 data URI: a triangle with UVs.
fn embedded_gltf() -> Vec<u8> {
    use base64::Engine as _;
    let encode = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let mut bin = Vec::new();
    for c in [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0] {
        bin.extend_from_slice(&c.to_le_bytes());
    }
    for c in [0.0f32, 1.0, 1.0, 1.0, 0.0, 0.0] {
        bin.extend_from_slice(&c.to_le_bytes());
    }
    let doc = serde_json::json!({
        "asset": { "version": "2.0", "generator": "Khronos glTF Blender I/O" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "name": "Sign", "mesh": 0, "scale": [2.0, 2.0, 2.0] }],
        "meshes": [{ "name": "Sign", "primitives": [{ "attributes": { "POSITION": 0, "TEXCOORD_0": 1 } }] }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] },
            { "bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2" }
        ],
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": 36 },
            { "buffer": 0, "byteOffset": 36, "byteLength": 24 }
        ],
        "buffers": [{ "byteLength": bin.len(), "uri": format!("data:application/octet-stream;base64,{}", encode(&bin)) }]
    });
    serde_json::to_vec_pretty(&doc).expect("json")
}

/// A small project as Pebble saves it: a material, a box, a light, a spawn.
fn project() -> Vec<u8> {
    use pebble_model::command::{AddEntities, AddMaterial};
    use pebble_model::entity::{EntityKind, GeometrySource, Light, MeshEntity};
    use pebble_model::{Command, Entity, Material, Primitive, Scene};
    let mut scene = Scene::new();
    let mut add = AddMaterial::new(Material {
        name: "Stone".into(),
        texture: Some("textures/stone.png".into()),
        ..Material::default()
    });
    add.apply(&mut scene).expect("material");
    let m = add.created().expect("id");
    let primitive = Primitive::Box {
        size: pebble_model::glam::Vec3::new(2.0, 1.0, 3.0),
    };
    let entities = vec![
        Entity::new(
            "Crate",
            EntityKind::Mesh(MeshEntity {
                geometry: primitive.generate(m).expect("box"),
                source: GeometrySource::Primitive(primitive),
                collidable: true,
            }),
        ),
        Entity::new(
            "Lamp",
            EntityKind::Light(Light::Omni {
                color: [1.0, 0.9, 0.7],
                intensity: 1.5,
                radius: 6.0,
                shadows: true,
                cone: None,
            }),
        ),
        Entity::new(
            "Spawn",
            EntityKind::Defined(pebble_model::definitions::builtin::instance(
                "PlayerSpawn",
                [],
            )),
        ),
    ];
    AddEntities::new("Add", entities)
        .apply(&mut scene)
        .expect("entities");
    pebble_model::project::to_ron(&scene)
        .expect("serialises")
        .into_bytes()
}

/// A seed as what it says: a glTF's JSON as a value (and a GLB's binary chunk
/// as bytes), anything else as its bytes.
fn as_data(name: &str, bytes: &[u8]) -> (Option<serde_json::Value>, Vec<u8>) {
    let json = |b: &[u8]| serde_json::from_slice::<serde_json::Value>(b).ok();
    if name.ends_with(".gltf") {
        return (json(bytes), Vec::new());
    }
    if name.ends_with(".glb") && bytes.len() >= 20 {
        let len = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        let end = (20 + len).min(bytes.len());
        let bin = bytes.get(end + 8..).unwrap_or_default().to_vec();
        return (json(&bytes[20..end]), bin);
    }
    (None, bytes.to_vec())
}

#[test]
fn the_committed_fuzz_seeds_are_what_the_writers_make() {
    let direct: Vec<u16> = (0..8 * 4).map(|i| c15(i as u8 * 8, 64, 200)).collect();
    let seeds: Vec<(&str, Vec<u8>)> = vec![
        ("gltf/quad.glb", small_glb()),
        ("gltf/embedded.gltf", embedded_gltf()),
        ("tmd/polygons.tmd", sample_tmd()),
        ("tim/four_bit.tim", sample_tim()),
        ("tim/direct.tim", tim(2, None, (640, 0, 8, 4, &direct))),
        ("project/small.pebble.ron", project()),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let write = std::env::var_os("PEBBLE_WRITE_SEEDS").is_some();
    for (name, bytes) in seeds {
        let path = root.join(name);
        if write {
            std::fs::create_dir_all(path.parent().expect("folder")).expect("folder");
            std::fs::write(&path, &bytes).expect("writes");
        }
        let committed = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (PEBBLE_WRITE_SEEDS=1 writes it)", path.display()));
        // JSON compared as data: its keys' order depends on serde_json's features,
        // which differ between a build of this crate and of the whole workspace.
        assert!(
            as_data(name, &committed) == as_data(name, &bytes),
            "{} differs from what its writer makes (PEBBLE_WRITE_SEEDS=1 writes it again)",
            path.display()
        );
        // A seed is a file its reader takes: the fuzzer starts from the inside.
        let dir = std::env::temp_dir().join(format!("pebble-seeds-{}", std::process::id()));
        let read = match name.split('/').next() {
            Some("gltf") | Some("tmd") => pebble_io::import::import_file(
                &path,
                &pebble_io::import::ImportOptions::new(&dir),
                &mut |_| {},
            )
            .map(|_| ())
            .map_err(|e| e.to_string()),
            Some("tim") => pebble_io::import::tim::Tim::parse(&bytes)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            _ => pebble_model::project::from_ron(&String::from_utf8_lossy(&bytes), &path)
                .map(|_| ())
                .map_err(|e| e.to_string()),
        };
        assert!(read.is_ok(), "{name}: {read:?}");
    }
}
