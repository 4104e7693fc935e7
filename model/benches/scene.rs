//! A 20 000-entity scene: apply + undo of a transform command over 1 000 entities,
//! and project save / load throughput. `cargo bench -p pebble-model` runs criterion,
//! then a summary pass printing median / p95 and MB/s.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::Criterion;
use pebble_model::command::{AddEntities, AddMaterial, SetTransforms};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::glam::{Quat, Vec3};
use pebble_model::{
    Command, Entity, EntityId, History, Material, Primitive, Scene, Transform, project,
};

fn big_scene() -> (Scene, Vec<EntityId>) {
    let mut scene = Scene::new();
    let mut history = History::default();
    let mut add = AddMaterial::new(Material {
        name: "Stone".into(),
        ..Material::default()
    });
    add.apply(&mut scene).expect("material");
    let mat = add.created().expect("id");
    add.revert(&mut scene);
    history.execute(&mut scene, add).expect("material");
    // 200 groups of 99 boxes, plus the groups: 20 000 entities.
    let mut entities = Vec::new();
    let mut local = 1u32;
    for g in 0..200 {
        let mut group = Entity::new(format!("Block {g}"), EntityKind::Group);
        group.id = EntityId(local);
        let gid = group.id;
        local += 1;
        entities.push(group);
        for i in 0..99 {
            let p = Primitive::Box {
                size: Vec3::new(1.0, 0.5 + (i % 5) as f32 * 0.25, 1.0),
            };
            let geometry = p.generate(mat).expect("box");
            let mut e = Entity::new(
                format!("Crate {g}.{i}"),
                EntityKind::Mesh(MeshEntity {
                    source: GeometrySource::Primitive(p),
                    geometry,
                    collidable: true,
                }),
            );
            e.id = EntityId(local);
            local += 1;
            e.parent = Some(gid);
            e.transform = Transform::from_translation(Vec3::new(i as f32, 0.0, g as f32));
            entities.push(e);
        }
    }
    let mut add = AddEntities::new("Add", entities).without_selecting();
    add.apply(&mut scene).expect("adds");
    let ids = add.created();
    (scene, ids)
}

fn transform_step(scene: &mut Scene, targets: &[EntityId], k: f32) {
    let after = targets
        .iter()
        .map(|id| {
            (
                *id,
                Transform {
                    translation: Vec3::splat(k),
                    rotation: Quat::from_rotation_y(k),
                    scale: Vec3::ONE,
                },
            )
        })
        .collect();
    let mut cmd = SetTransforms::new("Move", after);
    cmd.apply(scene).expect("applies");
    cmd.revert(scene);
}

fn stats(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    (v[v.len() / 2], v[(v.len() * 95).div_ceil(100) - 1])
}

fn measure(runs: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    f();
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

fn main() {
    let (mut scene, ids) = big_scene();
    assert_eq!(scene.len(), 20_000);
    // Every 20th mesh: 1 000 entities spread over the scene.
    let targets: Vec<EntityId> = ids.iter().copied().step_by(20).collect();
    assert_eq!(targets.len(), 1_000);
    let dir = std::env::temp_dir().join(format!("pebble-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("big.pebble.ron");
    project::save(&path, &scene).expect("save");
    let size = std::fs::metadata(&path).expect("size").len() as f64;

    let mut c = Criterion::default().configure_from_args().sample_size(20);
    c.bench_function("transform_1000_apply_undo", |b| {
        b.iter(|| transform_step(&mut scene, &targets, 0.5))
    });
    c.bench_function("save_20k", |b| {
        b.iter(|| project::save(black_box(&path), &scene).expect("save"))
    });
    c.bench_function("load_20k", |b| {
        b.iter(|| project::load(black_box(Path::new(&path))).expect("load"))
    });
    c.final_summary();

    if std::env::args().any(|a| a == "--bench") {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mbs = |d: Duration| size / 1e6 / d.as_secs_f64();
        let t = measure(41, || transform_step(&mut scene, &targets, 0.25));
        let s = measure(15, || project::save(&path, &scene).expect("save"));
        let l = measure(15, || {
            black_box(project::load(&path).expect("load"));
        });
        println!(
            "\nsummary: 20 000 entities, project file {:.1} MB",
            size / 1e6
        );
        println!(
            "  transform 1 000 apply+undo  median {:8.3} ms  p95 {:8.3} ms",
            ms(t.0),
            ms(t.1)
        );
        println!(
            "  save (RON + atomic write)   median {:8.1} ms  p95 {:8.1} ms  {:6.1} MB/s",
            ms(s.0),
            ms(s.1),
            mbs(s.0)
        );
        println!(
            "  load (read + parse + check) median {:8.1} ms  p95 {:8.1} ms  {:6.1} MB/s",
            ms(l.0),
            ms(l.1),
            mbs(l.0)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
