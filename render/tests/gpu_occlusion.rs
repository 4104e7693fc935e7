//! Occlusion culling never changes the picture: random scenes of rotated
//! primitives (opaque, double-sided, cut-out and blended materials, textured and
//! not) seen from random cameras render to the same pixels with it on and off, and
//! it does hide chunks. Skips loudly without a GPU adapter.

use image::RgbaImage;
use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::glam::{Quat, Vec3};
use pebble_model::material::AlphaMode;
use pebble_model::primitive::Primitive;
use pebble_model::{Command, Entity, Material, MaterialId, Scene, Transform};
use pebble_render::gpu::test_gpu;
use pebble_render::{Camera, RenderOptions, SceneSync};

/// A small deterministic generator (xorshift), so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

fn loader(path: &str) -> Result<RgbaImage, String> {
    // A checker with holes: opaque squares and fully transparent ones.
    let holes = path == "holes.png";
    Ok(RgbaImage::from_fn(16, 16, |x, y| {
        let on = (x / 4 + y / 4) % 2 == 0;
        let v = if on { 230 } else { 40 };
        let a = if holes && !on { 0 } else { 255 };
        image::Rgba([v, 255 - v, (x * 16) as u8, a])
    }))
}

fn material(scene: &mut Scene, material: Material) -> MaterialId {
    let mut add = AddMaterial::new(material);
    add.apply(scene).expect("material");
    add.created().expect("id")
}

fn scene(rng: &mut Rng) -> Scene {
    let mut scene = Scene::new();
    let materials = [
        material(
            &mut scene,
            Material {
                name: "Checker".into(),
                texture: Some("checker.png".into()),
                ..Material::default()
            },
        ),
        material(
            &mut scene,
            Material {
                name: "Plain".into(),
                color: [0.8, 0.3, 0.2, 1.0],
                ..Material::default()
            },
        ),
        material(
            &mut scene,
            Material {
                name: "Two-sided".into(),
                texture: Some("checker.png".into()),
                double_sided: true,
                ..Material::default()
            },
        ),
        material(
            &mut scene,
            Material {
                name: "Holes".into(),
                texture: Some("holes.png".into()),
                alpha: AlphaMode::Cutout,
                ..Material::default()
            },
        ),
        material(
            &mut scene,
            Material {
                name: "Glass".into(),
                color: [0.2, 0.5, 1.0, 0.5],
                alpha: AlphaMode::Blend,
                ..Material::default()
            },
        ),
    ];
    let mut entities = Vec::new();
    for n in 0..60 {
        let m = materials[(rng.next() * 5.0) as usize % 5];
        let primitive = match n % 5 {
            0 | 1 => Primitive::Box {
                size: Vec3::new(
                    rng.range(0.5, 6.0),
                    rng.range(0.5, 8.0),
                    rng.range(0.5, 6.0),
                ),
            },
            2 => Primitive::Plane {
                width: rng.range(1.0, 8.0),
                depth: rng.range(1.0, 8.0),
                standoff: 0.0,
            },
            3 => Primitive::Cylinder {
                radius: rng.range(0.3, 2.0),
                height: rng.range(1.0, 6.0),
                sides: 12,
            },
            _ => Primitive::Wedge {
                width: rng.range(1.0, 4.0),
                height: rng.range(1.0, 4.0),
                depth: rng.range(1.0, 4.0),
            },
        };
        let geometry = primitive.generate(m).expect("a primitive");
        let rotation = Quat::from_euler(
            pebble_model::glam::EulerRot::YXZ,
            rng.range(-3.1, 3.1),
            rng.range(-0.6, 0.6),
            rng.range(-0.6, 0.6),
        );
        entities.push(
            Entity::new(
                format!("Thing {n}"),
                EntityKind::Mesh(MeshEntity {
                    source: GeometrySource::Authored,
                    geometry,
                    collidable: false,
                }),
            )
            .with_transform(Transform {
                translation: Vec3::new(
                    rng.range(-20.0, 20.0),
                    rng.range(0.0, 3.0),
                    rng.range(-20.0, 20.0),
                ),
                rotation,
                scale: Vec3::ONE,
            }),
        );
    }
    AddEntities::new("Add", entities)
        .apply(&mut scene)
        .expect("adds");
    scene
}

#[test]
fn occlusion_culling_never_changes_the_picture() {
    let Some(gpu) = test_gpu("occlusion_culling_never_changes_the_picture") else {
        return;
    };
    let mut occluded_total = 0;
    let mut frames = 0;
    for seed in 1..=3u64 {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ seed);
        let scene = scene(&mut rng);
        let (renderer, _sync) = SceneSync::renderer(&gpu, &scene, &loader).expect("renderer");
        for view in 0..12 {
            let camera = Camera::psp(
                Vec3::new(
                    rng.range(-22.0, 22.0),
                    rng.range(0.5, 6.0),
                    rng.range(-22.0, 22.0),
                ),
                rng.range(-3.1, 3.1),
                rng.range(-0.5, 0.3),
            );
            let options = RenderOptions {
                width: 240,
                height: 136,
                time: f64::from(view) * 0.25,
                ..Default::default()
            };
            let (with, stats) = renderer.render(&camera, &options).expect("renders");
            let (without, plain) = renderer
                .render(
                    &camera,
                    &RenderOptions {
                        occlusion: false,
                        ..options
                    },
                )
                .expect("renders");
            assert_eq!(plain.chunks_occluded, 0);
            assert_eq!(
                stats.chunks_drawn + stats.chunks_occluded,
                plain.chunks_drawn,
                "seed {seed} view {view}: every chunk is drawn or occluded"
            );
            let differing = with
                .pixels()
                .zip(without.pixels())
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(
                differing, 0,
                "seed {seed} view {view} ({camera:?}): {differing} pixels differ with occlusion culling ({} chunks occluded)",
                stats.chunks_occluded
            );
            occluded_total += stats.chunks_occluded;
            frames += 1;
        }
    }
    eprintln!("{occluded_total} chunks occluded over {frames} frames");
    // The test means something only if culling happened.
    assert!(
        occluded_total >= frames,
        "only {occluded_total} chunks occluded over {frames} frames"
    );
}
