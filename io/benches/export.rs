//! Export of a generated 1M-triangle scene with 100 textures, a sun, 8 omni lights
//! and AO with 16 rays. `cargo bench -p pebble-io --bench export` prints median / p95
//! of the export without bake and with bake, bake rays per second, and the share of
//! time per stage. Targets on a 2-core machine: without bake ≤ 1.5 s; ≥ 5 M rays/s.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use pebble_io::export::{ExportLimits, ExportOptions, ExportReport, export};
use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{EntityKind, GeometrySource, Light, MeshEntity};
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::mesh::{Face, MeshData};
use pebble_model::{Command, Entity, Material, Scene, Transform};

/// A bumpy grid of `n × n` quads.
fn grid(n: u32, mat: pebble_model::MaterialId, seed: u32) -> MeshData {
    let mut m = MeshData::default();
    let side = n + 1;
    for z in 0..side {
        for x in 0..side {
            let h = ((x * 7 + z * 13 + seed) % 11) as f32 * 0.02;
            m.positions
                .push(Vec3::new(x as f32 * 0.25, h, z as f32 * 0.25));
        }
    }
    for j in 0..n {
        for i in 0..n {
            let a = j * side + i;
            let (b, c, d) = (a + 1, a + side, a + side + 1);
            let uv = |k: u32| Vec2::new((k % side) as f32 * 0.25, (k / side) as f32 * 0.25);
            m.faces.push(Face {
                indices: [a, c, b],
                uvs: [uv(a), uv(c), uv(b)],
                material: mat,
            });
            m.faces.push(Face {
                indices: [b, c, d],
                uvs: [uv(b), uv(c), uv(d)],
                material: mat,
            });
        }
    }
    m
}

fn scene(dir: &std::path::Path) -> Scene {
    let mut scene = Scene::new();
    let mut entities = Vec::new();
    for t in 0..100u32 {
        let path = dir.join(format!("tex{t}.png"));
        image::RgbaImage::from_fn(64, 64, |x, y| {
            image::Rgba([
                (x * 4) as u8,
                ((y * 4) as u8).wrapping_add((t / 32 * 64) as u8),
                ((t % 32) * 8) as u8,
                255,
            ])
        })
        .save(&path)
        .expect("png");
        let mut add = AddMaterial::new(Material {
            name: format!("M{t}"),
            texture: Some(format!("tex{t}.png")),
            ..Material::default()
        });
        add.apply(&mut scene).expect("material");
        let mat = add.created().expect("id");
        // 100 entities × 5 000 quads = 1 000 000 triangles.
        let g = grid(71, mat, t);
        let g = MeshData {
            faces: g.faces[..10_000].to_vec(),
            ..g
        };
        let at = Vec3::new((t % 10) as f32 * 18.0, 0.0, (t / 10) as f32 * 18.0);
        entities.push(
            Entity::new(
                format!("Patch {t}"),
                EntityKind::Mesh(MeshEntity {
                    source: GeometrySource::Authored,
                    geometry: g,
                    collidable: false,
                }),
            )
            .with_transform(Transform::from_translation(at)),
        );
    }
    entities.push(Entity::new(
        "Sun",
        EntityKind::Light(Light::Sun {
            direction: Vec3::new(-0.4, -1.0, -0.3),
            color: [1.0, 0.95, 0.9],
            intensity: 1.0,
            shadows: true,
        }),
    ));
    for k in 0..8 {
        let at = Vec3::new(
            20.0 + (k % 4) as f32 * 40.0,
            3.0,
            30.0 + (k / 4) as f32 * 80.0,
        );
        entities.push(
            Entity::new(
                format!("Lamp {k}"),
                EntityKind::Light(Light::Omni {
                    color: [1.0, 0.7, 0.4],
                    radius: 12.0,
                    intensity: 1.5,
                    shadows: true,
                    cone: None,
                }),
            )
            .with_transform(Transform::from_translation(at)),
        );
    }
    entities.push(Entity::new(
        "Sky",
        EntityKind::Light(Light::Hemisphere {
            sky: [0.5, 0.55, 0.65],
            ground: [0.2, 0.18, 0.15],
            ao_strength: 0.7,
            ao_radius: 1.0,
        }),
    ));
    AddEntities::new("Add", entities)
        .apply(&mut scene)
        .expect("adds");
    scene
}

fn stats(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    (v[v.len() / 2], v[(v.len() * 95).div_ceil(100) - 1])
}

fn run(
    scene: &Scene,
    dir: &std::path::Path,
    bake: bool,
    runs: usize,
) -> (Duration, Duration, ExportReport) {
    let mut options = ExportOptions::new(dir);
    options.bake = bake;
    options.ao_rays = 16;
    // A million triangles are ten times what a PSP holds: the benchmark measures the
    // pipeline, so its limits are raised (the default refuses this scene).
    options.limits = ExportLimits {
        max_triangles: 4_000_000,
        max_bytes: 1 << 30,
        ..ExportLimits::PSP
    };
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let t = std::time::Instant::now();
        let (_, report) =
            export(scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
        times.push(t.elapsed());
        last = Some(report);
    }
    let (m, p) = stats(times);
    (m, p, last.expect("ran"))
}

fn table(report: &ExportReport) {
    let total: f64 = report.stages.0.iter().map(|(_, d)| d.as_secs_f64()).sum();
    for (stage, d) in &report.stages.0 {
        println!(
            "    {stage:<10} {:>9.1} ms  {:>5.1} %",
            d.as_secs_f64() * 1e3,
            d.as_secs_f64() / total * 100.0
        );
    }
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let dir = std::env::temp_dir().join(format!("pebble-export-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let scene = scene(&dir);
    let runs = if bench { 5 } else { 1 };
    let (m, p, report) = run(&scene, &dir, false, runs);
    println!(
        "export of {} triangles, {} textures ({runs} runs):",
        report.vertices / 3,
        report.textures
    );
    println!(
        "  without bake  median {:.3} s  p95 {:.3} s  (target ≤ 1.5 s)",
        m.as_secs_f64(),
        p.as_secs_f64()
    );
    table(&report);
    let (m, p, report) = run(&scene, &dir, true, if bench { 3 } else { 1 });
    let bake = report
        .stages
        .0
        .iter()
        .find(|(s, _)| *s == "bake")
        .map(|(_, d)| *d)
        .unwrap_or_default();
    println!(
        "  with bake     median {:.3} s  p95 {:.3} s",
        m.as_secs_f64(),
        p.as_secs_f64()
    );
    println!(
        "  bake: {} rays in {:.3} s = {:.2} M rays/s (target ≥ 5)",
        report.rays,
        bake.as_secs_f64(),
        report.rays as f64 / bake.as_secs_f64() / 1e6
    );
    table(&report);
    let _ = std::fs::remove_dir_all(&dir);
}
