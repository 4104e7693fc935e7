//! Parse + validate and write of a generated ~64 MB map, against a memcpy of the same
//! bytes in the same run. Targets: parse + validate ≤ 0.25× memcpy (structure checks
//! never walk pixel bytes); write ≤ 2× memcpy.
//!
//! `cargo bench -p pbm` runs the criterion benchmarks, then a summary pass that
//! prints median / p95 of each and the ratios against memcpy.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use pbm::emitter::{EmitterLump, EmitterRecord};
use pbm::format::{AlphaMode, ColliderKind, MetaKind, TextureFormat};
use pbm::{Map, MapView, Version};

/// 56 textures of 512×512 RGBA8888 (56 MiB) plus ~8 MiB of chunked geometry,
/// colliders, metadata and emitters: ~64 MiB.
fn generated_map() -> Map {
    let mut seed = 0x1234_5678u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        seed
    };
    let name = |s: String| pbm::Name32::truncated(&s);
    let textures = (0..56)
        .map(|i| pbm::Texture {
            name: name(format!("Tex_{i}")),
            width: 512,
            height: 512,
            format: TextureFormat::Rgba8888,
            alpha_mode: AlphaMode::Blend,
            data: (0..512 * 512).flat_map(|_| next().to_le_bytes()).collect(),
        })
        .collect();
    let meshes = (0..900)
        .map(|i| {
            let vertices: Vec<pbm::Vertex> = (0..384)
                .map(|k| {
                    let f = (next() % 10_000) as f32 / 100.0;
                    pbm::Vertex {
                        uv: [f, f * 0.5],
                        color: next(),
                        pos: [f, (k % 7) as f32, i as f32],
                    }
                })
                .collect();
            pbm::Mesh {
                name: name(format!("Chunk_{i}")),
                texture_id: i % 56,
                bounds_min: [0.0; 3],
                bounds_max: [0.0; 3],
                uv_scroll: [0.0, 0.0],
                vertices,
            }
        })
        .collect();
    let colliders = (0..64)
        .map(|i| pbm::Collider {
            name: name(format!("Collider_{i}")),
            kind: ColliderKind::TriMesh,
            bounds_min: [0.0; 3],
            bounds_max: [1.0; 3],
            triangles: vec![[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 1.0]]; 256],
        })
        .collect();
    let metadata = (0..32)
        .map(|i| {
            pbm::Metadata::text(
                name(format!("tag_{i}")),
                MetaKind::Json,
                &"{\"k\": 1}".repeat(i + 1),
            )
        })
        .collect();
    let mut map = Map {
        textures,
        meshes,
        colliders,
        metadata,
        emitters: Some(EmitterLump::new(vec![EmitterRecord::default(); 16])),
        ..Map::default()
    };
    map.recompute_bounds();
    map
}

fn parse_and_validate(bytes: &[u8]) -> usize {
    let mut warnings = 0usize;
    match MapView::parse_with(bytes, &mut |_| warnings += 1) {
        Ok(view) => view.end() + warnings,
        Err(_) => usize::MAX,
    }
}

fn criterion_benches(c: &mut Criterion, map: &Map, bytes: &[u8]) {
    let mut group = c.benchmark_group("pbm_64mb");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(20);
    let mut dst = vec![0u8; bytes.len()];
    group.bench_function("memcpy", |b| {
        b.iter(|| dst.copy_from_slice(black_box(bytes)))
    });
    group.bench_function("parse_validate", |b| {
        b.iter(|| parse_and_validate(black_box(bytes)))
    });
    let mut out = Vec::with_capacity(bytes.len());
    group.bench_function("write", |b| {
        b.iter(|| {
            map.write_into(Version::V3, black_box(&mut out))
                .map(|()| out.len())
        })
    });
    group.finish();
}

fn stats(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let median = samples[samples.len() / 2];
    let p95 = samples[(samples.len() * 95).div_ceil(100) - 1];
    (median, p95)
}

fn measure(runs: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    f(); // warm caches and allocations
    stats(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

/// Interleaved summary so that all three see the same machine state.
fn summary(map: &Map, bytes: &[u8]) {
    let runs = 41;
    let mut dst = vec![0u8; bytes.len()];
    let mut out = Vec::with_capacity(bytes.len());
    let memcpy = measure(runs, || dst.copy_from_slice(black_box(bytes)));
    let parse = measure(runs, || {
        black_box(parse_and_validate(black_box(bytes)));
    });
    let write = measure(runs, || {
        map.write_into(Version::V3, black_box(&mut out))
            .expect("writes");
    });
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "\nsummary over {runs} runs, {:.1} MiB map:",
        bytes.len() as f64 / (1 << 20) as f64
    );
    println!(
        "  memcpy          median {:8.3} ms  p95 {:8.3} ms",
        ms(memcpy.0),
        ms(memcpy.1)
    );
    println!(
        "  parse+validate  median {:8.3} ms  p95 {:8.3} ms  ratio {:.4}× memcpy (target ≤ 0.25)",
        ms(parse.0),
        ms(parse.1),
        ms(parse.0) / ms(memcpy.0)
    );
    println!(
        "  write           median {:8.3} ms  p95 {:8.3} ms  ratio {:.3}× memcpy (target ≤ 2)",
        ms(write.0),
        ms(write.1),
        ms(write.0) / ms(memcpy.0)
    );
}

fn main() {
    let map = generated_map();
    let bytes = map.to_bytes().expect("the generated map writes");
    assert!(MapView::parse(&bytes).is_ok());
    let mut c = Criterion::default().configure_from_args();
    criterion_benches(&mut c, &map, &bytes);
    c.final_summary();
    // `cargo test --benches` runs this binary in test mode: skip the slow summary.
    if std::env::args().any(|a| a == "--bench") {
        summary(&map, &bytes);
    }
}
