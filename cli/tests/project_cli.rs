//! `pebble project info` on a project built here, and on broken ones.

use std::path::PathBuf;
use std::process::Command;

use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::definitions::FieldValue;
use pebble_model::definitions::builtin::instance;
use pebble_model::entity::{EntityKind, GeometrySource, Light, MeshEntity};
use pebble_model::glam::Vec3;
use pebble_model::{Command as _, Entity, History, Material, Primitive, Scene, project};

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("pebble-project-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

fn sample(dir: &std::path::Path) -> PathBuf {
    std::fs::write(dir.join("stone.png"), b"not really a png").expect("texture");
    let mut scene = Scene::new();
    let mut history = History::default();
    let mut ids = Vec::new();
    for (name, texture) in [("Stone", "stone.png"), ("Water", "textures/water.png")] {
        let mut add = AddMaterial::new(Material {
            name: name.into(),
            texture: Some(texture.into()),
            ..Material::default()
        });
        add.apply(&mut scene).expect("material");
        ids.push(add.created().expect("id"));
        add.revert(&mut scene);
        history.execute(&mut scene, add).expect("material");
    }
    let p = Primitive::Box { size: Vec3::ONE };
    let mesh = |name: &str| {
        Entity::new(
            name,
            EntityKind::Mesh(MeshEntity {
                source: GeometrySource::Primitive(p.clone()),
                geometry: p.generate(ids[0]).expect("box"),
                collidable: true,
            }),
        )
    };
    let entities = vec![
        mesh("Crate"),
        mesh("Crate 2"),
        Entity::new(
            "Sun",
            EntityKind::Light(Light::Sun {
                direction: Vec3::NEG_Y,
                color: [1.0; 3],
                intensity: 1.0,
                shadows: true,
            }),
        ),
        Entity::new(
            "Door",
            EntityKind::Defined(instance(
                "Trigger",
                [
                    ("size", FieldValue::Point(Vec3::ONE)),
                    ("event", FieldValue::Text("open".into())),
                    ("oneshot", FieldValue::Bool(true)),
                    ("properties", FieldValue::Text("{oops".into())),
                ],
            )),
        ),
    ];
    history
        .execute(&mut scene, AddEntities::new("Add", entities))
        .expect("add");
    let path = dir.join("level.pebble.ron");
    project::save(&path, &scene).expect("save");
    path
}

fn pebble(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pebble"))
        .args(args)
        .output()
        .expect("runs")
}

#[test]
fn info_lists_counts_materials_lights_and_warnings() {
    let dir = scratch("info");
    let path = sample(&dir);
    let out = pebble(&["project", "info", path.to_str().expect("utf-8")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("entities (4): 2 mesh, 1 light, 1 trigger"),
        "{stdout}"
    );
    assert!(stdout.contains("triangles: 24"), "{stdout}");
    assert!(
        stdout.contains("materials (2)") && stdout.contains("textures/water.png (missing)"),
        "{stdout}"
    );
    assert!(stdout.contains("sun  direction (0, -1, 0)"), "{stdout}");
    assert!(
        stdout.contains("texture 'textures/water.png' not found"),
        "{stdout}"
    );
    assert!(
        stdout.contains("trigger 'Door': properties is not valid JSON"),
        "{stdout}"
    );
    assert!(stdout.contains("no player spawn"), "{stdout}");
    assert!(
        !stdout.contains("texture 'stone.png' not found"),
        "{stdout}"
    );
}

#[test]
fn broken_projects_fail_with_line_and_column() {
    let dir = scratch("broken");
    let path = sample(&dir);
    let text = std::fs::read_to_string(&path).expect("text");
    let broken = dir.join("broken.pebble.ron");
    std::fs::write(
        &broken,
        text.replacen("name: \"Crate 2\"", "name: \"Crate 2\",,", 1),
    )
    .expect("write");
    let out = pebble(&["project", "info", broken.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = text
        .lines()
        .position(|l| l.contains("\"Crate 2\""))
        .expect("line")
        + 1;
    assert!(
        stderr.contains(&format!("broken.pebble.ron:{line}:")),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `pebble project bench` on a glTF written as an exporter writes one: Pebble's
/// figures, and a word that the reference converter was not asked.
#[test]
fn bench_times_a_model_into_a_project_and_a_map() {
    let dir = scratch("bench");
    let mut bin = Vec::new();
    for p in [
        [0.0f32, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, 0.0, -2.0],
        [0.0, 0.0, -2.0],
    ] {
        for c in p {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    for i in [0u16, 1, 2, 0, 2, 3] {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    std::fs::write(dir.join("quad.bin"), &bin).expect("bin");
    let gltf = serde_json::json!({
        "asset": {"version": "2.0", "generator": "a test's writer"},
        "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "name": "Quad"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
             "min": [0.0, 0.0, -2.0], "max": [2.0, 0.0, 0.0]},
            {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}
        ],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 48},
            {"buffer": 0, "byteOffset": 48, "byteLength": 12}
        ],
        "buffers": [{"uri": "quad.bin", "byteLength": 60}]
    });
    let model = dir.join("quad.gltf");
    std::fs::write(&model, gltf.to_string()).expect("gltf");
    let out = Command::new(env!("CARGO_BIN_EXE_pebble"))
        .args(["project", "bench", "--runs", "2"])
        .arg(&model)
        .env_remove("PEBBLE_REFERENCE_CONVERTER")
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("2 runs"), "{stdout}");
    assert!(
        stdout.contains("import + export (light baked): median")
            && stdout.contains("(6 vertices in the map)"),
        "{stdout}"
    );
    assert!(stdout.contains("opened in median"), "{stdout}");
    assert!(
        stdout.contains("PEBBLE_REFERENCE_CONVERTER is not set: Pebble's figures alone"),
        "{stdout}"
    );
    let none = pebble(&[
        "project",
        "bench",
        "--runs",
        "0",
        model.to_str().expect("utf-8"),
    ]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("--runs must be 1 or more"));
}

/// The report: there was no command-line way to start a project. `pebble new DIR`
/// writes an empty one the editor and `pebble export` open, and refuses a
/// folder that already holds a project (nothing overwritten).
#[test]
fn pebble_new_starts_a_project_and_never_overwrites_one() {
    let dir = scratch("new").join("Castle keep");
    let out = pebble(&["new", dir.to_str().expect("utf-8")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = dir.join("Castle keep.pebble.ron");
    let scene = pebble_model::project::load(&path).expect("a project");
    assert_eq!(scene.settings().map_name, "Castle keep");
    assert_eq!(scene.entities().count(), 0);
    assert!(dir.join("textures").is_dir());
    let before = std::fs::read(&path).expect("reads");
    let again = pebble(&["new", dir.to_str().expect("utf-8")]);
    assert!(
        !again.status.success(),
        "a second new in the same folder is refused"
    );
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("already holds a project"), "{said}");
    assert_eq!(std::fs::read(&path).expect("reads"), before, "untouched");
    let map = dir.join("castle.pbm");
    let out = pebble(&[
        "export",
        path.to_str().expect("utf-8"),
        "--output",
        map.to_str().expect("utf-8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(map.is_file());
}
