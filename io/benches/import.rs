//! Import of a generated 1M-triangle glTF (GLB with float positions and UVs and u32
//! indices): parse + build, and applying the import to a scene. `cargo bench -p
//! pebble-io --bench import` prints median / p95 over the runs, seconds and MB/s.

use std::time::{Duration, Instant};

#[path = "../tests/common/mod.rs"]
mod common;
use common::glb;

use pebble_io::import::{ImportOptions, import_file};
use pebble_model::{Command, Scene};

/// A grid of `n × n` quads (2 n² triangles).
fn grid(n: usize) -> Vec<u8> {
    let v = n + 1;
    let mut bin = Vec::new();
    for z in 0..v {
        for x in 0..v {
            for c in [
                x as f32 * 0.1,
                ((x * 7 + z * 13) % 5) as f32 * 0.01,
                z as f32 * 0.1,
            ] {
                bin.extend_from_slice(&c.to_le_bytes());
            }
        }
    }
    let uv_at = bin.len();
    for z in 0..v {
        for x in 0..v {
            for c in [x as f32 / n as f32, z as f32 / n as f32] {
                bin.extend_from_slice(&c.to_le_bytes());
            }
        }
    }
    let idx_at = bin.len();
    for z in 0..n {
        for x in 0..n {
            let i = (z * v + x) as u32;
            let s = v as u32;
            for k in [i, i + s, i + 1, i + 1, i + s, i + s + 1] {
                bin.extend_from_slice(&k.to_le_bytes());
            }
        }
    }
    let max = n as f32 * 0.1;
    let doc = serde_json::json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "name": "Terrain", "mesh": 0 }],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0, "TEXCOORD_0": 1 }, "indices": 2 }] }],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": v * v, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [max, 0.04, max] },
            { "bufferView": 1, "componentType": 5126, "count": v * v, "type": "VEC2" },
            { "bufferView": 2, "componentType": 5125, "count": n * n * 6, "type": "SCALAR" }
        ],
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": uv_at },
            { "buffer": 0, "byteOffset": uv_at, "byteLength": idx_at - uv_at },
            { "buffer": 0, "byteOffset": idx_at, "byteLength": bin.len() - idx_at }
        ],
        "buffers": [{ "byteLength": bin.len() }]
    });
    glb(&serde_json::to_vec(&doc).expect("json"), &bin)
}

fn stats(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    (v[v.len() / 2], v[(v.len() * 95).div_ceil(100) - 1])
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let n = 707; // 999 698 triangles
    let bytes = grid(n);
    let dir = std::env::temp_dir().join(format!("pebble-import-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("terrain.glb");
    std::fs::write(&path, &bytes).expect("write");
    let options = ImportOptions::new(&dir);
    let runs = if bench { 7 } else { 1 };
    let (mut build, mut apply) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let t = Instant::now();
        let imported = import_file(&path, &options, &mut |_| {}).expect("imports");
        build.push(t.elapsed());
        let mut scene = Scene::new();
        let mut command = imported.command;
        let t = Instant::now();
        command.apply(&mut scene).expect("applies");
        apply.push(t.elapsed());
        assert_eq!(scene.len(), 1);
    }
    let mb = bytes.len() as f64 / 1e6;
    let (b, bp) = stats(build);
    let (a, ap) = stats(apply);
    println!(
        "glTF import, {} triangles, {mb:.1} MB GLB, {runs} runs:",
        n * n * 2
    );
    println!(
        "  read + parse + build  median {:.3} s  p95 {:.3} s  {:.1} MB/s",
        b.as_secs_f64(),
        bp.as_secs_f64(),
        mb / b.as_secs_f64()
    );
    println!(
        "  apply to the scene    median {:.3} s  p95 {:.3} s",
        a.as_secs_f64(),
        ap.as_secs_f64()
    );
    println!(
        "  total                 median {:.3} s  {:.1} MB/s",
        (a + b).as_secs_f64(),
        mb / (a + b).as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
