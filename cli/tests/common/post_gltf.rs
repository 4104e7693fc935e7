//! A glTF written the way a Z-up exporter writes one, shared by the editor's
//! unit tests (through `#[path]`) and its integration tests.

use std::path::PathBuf;

/// A post 4 m long along Z, as a Z-up exporter writes it: `post.gltf` and its
/// `post.bin` in `dir`. Returns the glTF's path.
pub fn post_gltf(dir: &std::path::Path) -> PathBuf {
    post_gltf_long(dir, 4.0)
}

/// The post `length` units long along Z (400: a 4 m post in centimetres, as a
/// Sketchfab download often is).
pub fn post_gltf_long(dir: &std::path::Path, length: f32) -> PathBuf {
    post_gltf_to(dir, [0.0, 0.0, length])
}

/// The post `height` units tall along Y (2 471: a 24.71 m tree in centimetres,
/// Y up, as Sketchfab's glTF downloads are).
pub fn post_gltf_tall(dir: &std::path::Path, height: f32) -> PathBuf {
    post_gltf_to(dir, [0.0, height, 0.0])
}

/// A triangle from the origin and (1, 0, 0) to `end`.
fn post_gltf_to(dir: &std::path::Path, end: [f32; 3]) -> PathBuf {
    let mut bytes = Vec::new();
    for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], end] {
        for c in p {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
    }
    std::fs::write(dir.join("post.bin"), &bytes).expect("bin");
    let json = serde_json::json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "name": "Post", "mesh": 0 }],
        "meshes": [{ "name": "Post", "primitives": [{ "attributes": { "POSITION": 0 } }] }],
        "accessors": [{ "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                        "min": [0.0, 0.0, 0.0], "max": [1.0f32.max(end[0]), end[1], end[2]] }],
        "bufferViews": [{ "buffer": 0, "byteLength": 36 }],
        "buffers": [{ "byteLength": 36, "uri": "post.bin" }]
    });
    let path = dir.join("post.gltf");
    std::fs::write(&path, serde_json::to_vec(&json).expect("json")).expect("gltf");
    path
}
