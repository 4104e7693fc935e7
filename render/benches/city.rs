//! A generated city drawn at 1280×720: 2 025 buildings with subdivided facades
//! (≈ 590 k triangles), 64 textures, 4 emitters, through the same path the editor
//! uses (a model scene kept by `SceneSync`). Prints median / p95 frame time at street
//! level with culling on and off (and their ratio), what a frame draws, and picking
//! latency (request to id). `cargo bench -p pebble-render --bench city -- --bench`.
//! Targets on lavapipe here: median ≤ 25 ms with culling; picking ≤ 5 ms.

use std::time::{Duration, Instant};

use image::RgbaImage;
use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{Emitter, EntityKind, GeometrySource, MeshEntity};
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::mesh::{Face, MeshData};
use pebble_model::{Command, Entity, Material, MaterialId, Scene, Transform};
use pebble_render::{Camera, RenderOptions, SceneSync};

const BLOCKS: u32 = 45;
const PITCH: f32 = 20.0;
/// Facade quads per side, across and up.
const SPLIT: u32 = 6;

fn loader(path: &str) -> Result<RgbaImage, String> {
    let n: u32 = path
        .trim_start_matches("tex")
        .trim_end_matches(".png")
        .parse()
        .map_err(|_| format!("{path}: not a generated texture"))?;
    Ok(RgbaImage::from_fn(64, 64, |x, y| {
        let window = u8::from(x % 16 > 3 && y % 16 > 5);
        image::Rgba([
            (n * 37 % 200) as u8 + 40 * window,
            (n * 71 % 200) as u8 + 30 * window,
            (n * 13 % 200) as u8 + 50 * window,
            255,
        ])
    }))
}

/// A tower of `size` with each side split into SPLIT × SPLIT quads, and a roof.
fn tower(size: Vec3, material: MaterialId) -> MeshData {
    let mut m = MeshData::default();
    let sides = [
        (Vec3::new(0.0, 0.0, size.z), Vec3::X * size.x),
        (Vec3::new(size.x, 0.0, size.z), Vec3::NEG_Z * size.z),
        (Vec3::new(size.x, 0.0, 0.0), Vec3::NEG_X * size.x),
        (Vec3::ZERO, Vec3::Z * size.z),
    ];
    let row = SPLIT + 1;
    for (origin, along) in sides {
        let base = m.positions.len() as u32;
        for j in 0..=SPLIT {
            for i in 0..=SPLIT {
                m.positions.push(
                    origin
                        + along * (i as f32 / SPLIT as f32)
                        + Vec3::Y * (size.y * j as f32 / SPLIT as f32),
                );
            }
        }
        let uv = |k: u32| {
            let (i, j) = ((k - base) % row, (k - base) / row);
            Vec2::new(i as f32 / 2.0, j as f32 / 2.0)
        };
        for j in 0..SPLIT {
            for i in 0..SPLIT {
                let a = base + j * row + i;
                let (b, c, d) = (a + 1, a + row + 1, a + row);
                m.faces.push(Face {
                    indices: [a, b, c],
                    uvs: [uv(a), uv(b), uv(c)],
                    material,
                });
                m.faces.push(Face {
                    indices: [a, c, d],
                    uvs: [uv(a), uv(c), uv(d)],
                    material,
                });
            }
        }
    }
    let base = m.positions.len() as u32;
    m.positions.extend([
        Vec3::new(0.0, size.y, size.z),
        Vec3::new(size.x, size.y, size.z),
        Vec3::new(size.x, size.y, 0.0),
        Vec3::new(0.0, size.y, 0.0),
    ]);
    let uv = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
    m.faces.push(Face {
        indices: [base, base + 1, base + 2],
        uvs: [uv[0], uv[1], uv[2]],
        material,
    });
    m.faces.push(Face {
        indices: [base, base + 2, base + 3],
        uvs: [uv[0], uv[2], uv[3]],
        material,
    });
    m
}

fn city() -> (Scene, usize) {
    let mut scene = Scene::new();
    let materials: Vec<MaterialId> = (0..64)
        .map(|n| {
            let mut add = AddMaterial::new(Material {
                name: format!("Facade {n}"),
                texture: Some(format!("tex{n}.png")),
                ..Material::default()
            });
            add.apply(&mut scene).expect("material");
            add.created().expect("id")
        })
        .collect();
    let mut entities = Vec::new();
    let mut triangles = 0;
    for bz in 0..BLOCKS {
        for bx in 0..BLOCKS {
            let k = bz * BLOCKS + bx;
            let size = Vec3::new(12.0, 8.0 + (k * 7 % 23) as f32 * 2.0, 12.0);
            let mesh = tower(size, materials[(k % 64) as usize]);
            triangles += mesh.faces.len();
            entities.push(
                Entity::new(
                    format!("Tower {bx},{bz}"),
                    EntityKind::Mesh(MeshEntity {
                        source: GeometrySource::Authored,
                        geometry: mesh,
                        collidable: false,
                    }),
                )
                .with_transform(Transform::from_translation(Vec3::new(
                    bx as f32 * PITCH,
                    0.0,
                    -(bz as f32) * PITCH,
                ))),
            );
        }
    }
    for k in 0..4 {
        entities.push(
            Entity::new(
                format!("Fountain {k}"),
                EntityKind::Emitter(Emitter {
                    count: 64,
                    additive: k % 2 == 0,
                    ..Emitter::default()
                }),
            )
            .with_transform(Transform::from_translation(Vec3::new(
                16.0 + 40.0 * k as f32,
                0.5,
                -16.0,
            ))),
        );
    }
    AddEntities::new("City", entities)
        .apply(&mut scene)
        .expect("adds");
    (scene, triangles)
}

fn stats(mut v: Vec<Duration>) -> (f64, f64, f64) {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (
        ms(v[v.len() / 2]),
        ms(v[(v.len() * 95).div_ceil(100) - 1]),
        ms(v[v.len() - 1]),
    )
}

fn main() {
    let frames = if std::env::args().any(|a| a == "--bench") {
        240
    } else {
        24
    };
    // No adapter fails, as in the tests (unless PEBBLE_SKIP_GPU_TESTS=1).
    let Some(gpu) = pebble_render::gpu::test_gpu("city bench") else {
        return;
    };
    let t = Instant::now();
    let (scene, triangles) = city();
    let built = t.elapsed();
    let t = Instant::now();
    let (renderer, _sync) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
    let uploaded = t.elapsed();
    println!(
        "city: {} meshes, {triangles} triangles, 64 textures, 4 emitters, 1280×720 on {} (scene {:.0} ms, upload {:.0} ms)",
        BLOCKS * BLOCKS,
        gpu.describe(),
        built.as_secs_f64() * 1e3,
        uploaded.as_secs_f64() * 1e3
    );
    // Street level: walking down the street between the first two rows of towers,
    // looking along it and swaying left and right.
    let camera = |f: u32| {
        let s = f as f32 / frames as f32;
        Camera::psp(
            Vec3::new(300.0 * s, 1.7, -4.0),
            std::f32::consts::FRAC_PI_2 + 0.3 * (s * std::f32::consts::TAU).sin(),
            0.05,
        )
    };
    let options = RenderOptions {
        width: 1280,
        height: 720,
        ..Default::default()
    };
    // What any frame costs here before drawing anything: clearing and finishing a
    // 1280×720 target (looking down at the empty ground).
    let mut empty = Vec::new();
    for f in 0..frames.min(60) {
        let mut sky = camera(f);
        sky.pitch = -1.5;
        let t = Instant::now();
        renderer.draw(&sky, &options).expect("draws");
        empty.push(t.elapsed());
    }
    let (median, p95, _) = stats(empty);
    println!("  empty frame (clear + finish only): median {median:.2} ms  p95 {p95:.2} ms");
    if let Some(path) = std::env::var_os("PEBBLE_CITY_SHOT") {
        let (image, _) = renderer
            .render(&camera(frames / 2), &options)
            .expect("renders");
        image.save(path).expect("saves the shot");
    }
    let mut medians = Vec::new();
    for (cull, occlusion) in [(true, true), (true, false), (false, false)] {
        let options = RenderOptions {
            cull,
            occlusion,
            ..options
        };
        let mut times = Vec::new();
        let mut last = Default::default();
        for f in 0..frames {
            let t = Instant::now();
            last = renderer.draw(&camera(f), &options).expect("draws");
            times.push(t.elapsed());
        }
        let (median, p95, max) = stats(times);
        let last: pebble_render::FrameStats = last;
        println!(
            "  culling {:<22}  frame median {median:.2} ms  p95 {p95:.2} ms  max {max:.2} ms  (last frame: {} of {} chunks drawn, {} occluded, {} triangles, {} draw calls, {} particles)",
            match (cull, occlusion) {
                (true, true) => "on (frustum+occlusion)",
                (true, false) => "frustum only",
                _ => "off",
            },
            last.chunks_drawn,
            last.chunks,
            last.chunks_occluded,
            last.triangles,
            last.draw_calls,
            last.particles
        );
        medians.push(median);
    }
    println!(
        "  culling on / off (median frame time): {:.3}   frustum only / off: {:.3}",
        medians[0] / medians[2],
        medians[1] / medians[2]
    );
    let mut picks = Vec::new();
    let mut hits = 0;
    for f in 0..frames.min(60) {
        let (x, y) = (200 + (f * 97) % 880, 150 + (f * 61) % 420);
        let t = Instant::now();
        let hit = renderer
            .pick(&camera(f), 1280, 720, 0.0, x, y)
            .expect("picks");
        picks.push(t.elapsed());
        hits += usize::from(hit.is_some());
    }
    let n = picks.len();
    let (median, p95, max) = stats(picks);
    println!(
        "  picking (request to id, 9×9 window): median {median:.2} ms  p95 {p95:.2} ms  max {max:.2} ms  ({hits} of {n} hit)"
    );
}
