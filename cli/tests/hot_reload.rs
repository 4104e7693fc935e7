//! Hot reload in the whole app: a glTF the project imported is saved again by
//! another program (written beside it and renamed over it, as editors do); the
//! meshes imported from it take the new geometry while the editor runs, with no
//! undo step, and the project counts as unsaved.

use crate::common;

use pebble_model::entity::{EntityKind, GeometrySource};
use pebble_model::{History, Scene, project};

use common::{harness_on, wait_for};

/// A glTF holding one triangle named "Panel" whose top corner is at `top`
/// metres, its buffer in `bin` (a file beside it, as exporters write).
fn gltf(top: f32, bin: &str) -> (Vec<u8>, Vec<u8>) {
    let mut bytes = Vec::new();
    for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, top, 0.0]] {
        for c in p {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
    }
    let uri = bin.to_string();
    let json = serde_json::to_vec(&serde_json::json!({
        "asset": { "version": "2.0", "generator": "a modelling program" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "name": "Panel", "mesh": 0 }],
        "meshes": [{ "name": "Panel", "primitives": [{ "attributes": { "POSITION": 0 } }] }],
        "accessors": [{ "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                        "min": [0.0, 0.0, 0.0], "max": [1.0, top, 0.0] }],
        "bufferViews": [{ "buffer": 0, "byteLength": 36 }],
        "buffers": [{ "byteLength": 36, "uri": uri }]
    }))
    .expect("json");
    (json, bytes)
}

fn top_of_panel(scene: &Scene) -> Option<f32> {
    scene.entities().find_map(|e| match &e.kind {
        EntityKind::Mesh(m) if matches!(&m.source, GeometrySource::Asset { .. }) => {
            m.geometry.positions.iter().map(|p| p.y).reduce(f32::max)
        }
        _ => None,
    })
}

#[test]
fn a_model_saved_again_on_disk_reloads_without_an_undo_step() {
    let dir = std::env::temp_dir().join(format!("pebble-hot-reload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let model = dir.join("panel.gltf");
    let (json, bin) = gltf(1.0, "panel_1.bin");
    std::fs::write(dir.join("panel_1.bin"), bin).expect("write");
    std::fs::write(&model, json).expect("write");
    let imported = pebble_io::import::import_file(
        &model,
        &pebble_io::import::ImportOptions::new(&dir),
        &mut |_| {},
    )
    .expect("imports");
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command)
        .expect("adds");
    let path = dir.join("panel.pebble.ron");
    project::save(&path, &scene).expect("saves");

    let Some(mut harness) = harness_on(path) else {
        return;
    };
    assert_eq!(top_of_panel(harness.state().scene()), Some(1.0));
    let steps = harness.state().history_position();
    assert!(!harness.state().is_dirty());
    // Saved again by another program: a new file renamed over the old one.
    let fresh = dir.join(".panel.gltf.new");
    let (json, bin) = gltf(2.5, "panel_2.bin");
    std::fs::write(dir.join("panel_2.bin"), bin).expect("write");
    std::fs::write(&fresh, json).expect("write");
    std::fs::rename(&fresh, &model).expect("rename");
    wait_for(&mut harness, |app| top_of_panel(app.scene()) == Some(2.5));
    assert_eq!(
        harness.state().history_position(),
        steps,
        "a reload is not an undo step"
    );
    assert!(
        harness.state().is_dirty(),
        "the project holds the new geometry unsaved"
    );
}
