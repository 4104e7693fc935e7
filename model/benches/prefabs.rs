//! Prefabs at scale: a 50-entity prefab (a room: walls, torches, a group)
//! placed 200 times (10 200 entities). An edit made in one instance entered —
//! a torch's colour, and a structural one (a child added) — propagates to every
//! instance as one history step; its undo. Baseline in the same run: the same
//! colour set by hand on all 200 torches of the scene made plain (one step of
//! 200 `SetEntity`). And the project saved and opened, against the same scene
//! flattened. `cargo bench -p pebble-model --bench prefabs` prints
//! medians, p95s and the ratios.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use pebble_model::command::{AddEntities, AddMaterial, SetEntity};
use pebble_model::entity::{EntityKind, GeometrySource, Light, MeshEntity};
use pebble_model::glam::Vec3;
use pebble_model::prefab::{edit, sync};
use pebble_model::{
    Command, CommandGroup, Entity, EntityId, History, Material, Primitive, Scene, Transform,
    project,
};

const INSTANCES: usize = 200;
const PREFAB_ENTITIES: usize = 50;

/// A room of 50 entities: a group, 29 boxes, 20 torch lights.
fn room(scene: &mut Scene, history: &mut History) -> EntityId {
    let mut add = AddMaterial::new(Material::default());
    add.apply(scene).expect("material");
    let stone = add.created().expect("id");
    add.revert(scene);
    history.execute(scene, add).expect("material");
    let mut group = Entity::new("Room", EntityKind::Group);
    group.id = EntityId(1);
    let mut entities = vec![group];
    for i in 0..29 {
        let p = Primitive::Box {
            size: Vec3::new(1.0, 2.0 + (i % 3) as f32, 0.3),
        };
        let mut e = Entity::new(
            format!("Wall {i}"),
            EntityKind::Mesh(MeshEntity {
                geometry: p.generate(stone).expect("box"),
                source: GeometrySource::Primitive(p),
                collidable: true,
            }),
        )
        .with_transform(Transform::from_translation(Vec3::new(i as f32, 0.0, 0.0)));
        e.id = EntityId(2 + i);
        e.parent = Some(EntityId(1));
        entities.push(e);
    }
    for i in 0..20 {
        let mut e = Entity::new(
            format!("Torch {i}"),
            EntityKind::Light(Light::Omni {
                color: [1.0, 0.6, 0.2],
                radius: 4.0,
                intensity: 1.0,
                shadows: false,
                cone: None,
            }),
        )
        .with_transform(Transform::from_translation(Vec3::new(
            i as f32 * 1.5,
            2.5,
            0.5,
        )));
        e.id = EntityId(40 + i);
        e.parent = Some(EntityId(1));
        entities.push(e);
    }
    assert_eq!(entities.len(), PREFAB_ENTITIES);
    let mut add = AddEntities::new("Add", entities).without_selecting();
    add.apply(scene).expect("adds");
    add.created()[0]
}

/// The room made a prefab and placed 200 times in all.
fn placed() -> (Scene, History, Vec<EntityId>) {
    let mut scene = Scene::new();
    let mut history = History::new(10_000);
    let group = room(&mut scene, &mut history);
    let id = sync::new_prefab_id(&scene);
    let make = edit::make(&scene, &[group], "Room", id, false, None).expect("plans");
    history.execute(&mut scene, make).expect("makes");
    for k in 1..INSTANCES {
        let at = Transform::from_translation(Vec3::new(
            (k % 20) as f32 * 40.0,
            0.0,
            (k / 20) as f32 * 10.0,
        ));
        let place = edit::place(&scene, id, None, at).expect("plans");
        history.execute(&mut scene, place).expect("places");
    }
    let instances = scene.instances_of(id);
    assert_eq!(instances.len(), INSTANCES);
    assert_eq!(scene.len(), INSTANCES * (PREFAB_ENTITIES + 1));
    (scene, history, instances)
}

fn torch(scene: &Scene, under: EntityId) -> EntityId {
    scene
        .subtree(under)
        .into_iter()
        .find(|id| {
            scene
                .entity(*id)
                .is_some_and(|e| e.name.ends_with("Torch 7"))
        })
        .expect("a torch")
}

fn coloured(scene: &Scene, id: EntityId, k: f32) -> SetEntity {
    let mut e = scene.entity(id).expect("torch").clone();
    if let EntityKind::Light(Light::Omni { color, .. }) = &mut e.kind {
        *color = [k, 0.3, 1.0 - k];
    }
    SetEntity::new("Torch colour", e)
}

fn stats(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    (v[v.len() / 2], v[(v.len() * 95).div_ceil(100) - 1])
}

/// Times `runs` edits and their undos: (edit median, p95), (undo median, p95).
fn edit_and_undo(
    runs: usize,
    scene: &mut Scene,
    history: &mut History,
    mut step: impl FnMut(&Scene, usize) -> Box<dyn Command>,
) -> ((Duration, Duration), (Duration, Duration)) {
    let (mut edits, mut undos) = (Vec::new(), Vec::new());
    for k in 0..runs + 1 {
        let command = step(scene, k);
        let t = Instant::now();
        history
            .execute_boxed(scene, command, None)
            .expect("applies");
        let e = t.elapsed();
        let t = Instant::now();
        history.undo(scene).expect("undoes");
        let u = t.elapsed();
        if k > 0 {
            edits.push(e);
            undos.push(u);
        }
    }
    (stats(edits), stats(undos))
}

fn main() {
    let (mut scene, mut history, instances) = placed();
    history.set_entered(&mut scene, Some(instances[0]));
    let entered_torch = torch(&scene, instances[0]);

    let mut flat = edit::flattened(&scene);
    let mut flat_history = History::new(10_000);
    let flat_torches: Vec<EntityId> = instances.iter().map(|i| torch(&flat, *i)).collect();
    let by_hand = |scene: &Scene, k: usize| -> Box<dyn Command> {
        let v = (k % 10) as f32 / 10.0;
        Box::new(CommandGroup::new(
            "Torch colour on 200",
            flat_torches
                .iter()
                .map(|t| Box::new(coloured(scene, *t, v)) as Box<dyn Command>)
                .collect(),
        ))
    };
    let in_place = move |scene: &Scene, k: usize| -> Box<dyn Command> {
        Box::new(coloured(scene, entered_torch, (k % 10) as f32 / 10.0))
    };
    let room_group = scene
        .entity(entered_torch)
        .and_then(|e| e.parent)
        .expect("the room's group");
    let add_child = move |_: &Scene, k: usize| -> Box<dyn Command> {
        let mut e = Entity::new(format!("Sconce {k}"), EntityKind::Group);
        e.parent = Some(room_group);
        Box::new(AddEntities::new("Add a sconce", vec![e]).without_selecting())
    };

    // A check that the edit reaches every copy (the bench measures what it says).
    let check = coloured(&scene, entered_torch, 0.9);
    history.execute(&mut scene, check).expect("edits");
    for i in &instances {
        let t = torch(&scene, *i);
        assert!(matches!(
            scene.entity(t).map(|e| &e.kind),
            Some(EntityKind::Light(Light::Omni { color, .. })) if color[0] == 0.9
        ));
    }
    history.undo(&mut scene);

    let dir = std::env::temp_dir().join(format!("pebble-prefab-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let with_instances = dir.join("instances.pebble.ron");
    let flattened = dir.join("flattened.pebble.ron");

    let mut c = Criterion::default().configure_from_args().sample_size(20);
    c.bench_function("prefab_edit_200_instances", |b| {
        b.iter(|| {
            let step = coloured(&scene, entered_torch, 0.4);
            history.execute(&mut scene, step).expect("edits");
            history.undo(&mut scene);
        })
    });
    c.bench_function("save_200_instances", |b| {
        b.iter(|| project::save(black_box(&with_instances), &scene).expect("save"))
    });
    c.final_summary();

    if std::env::args().any(|a| a == "--bench") {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let (pe, pu) = edit_and_undo(21, &mut scene, &mut history, in_place);
        let (se, su) = edit_and_undo(11, &mut scene, &mut history, add_child);
        let (he, hu) = edit_and_undo(21, &mut flat, &mut flat_history, by_hand);
        let save = |path: &std::path::Path, s: &Scene| {
            let mut v = Vec::new();
            for _ in 0..7 {
                let t = Instant::now();
                project::save(path, s).expect("save");
                v.push(t.elapsed());
            }
            stats(v)
        };
        let open = |path: &std::path::Path| {
            let mut v = Vec::new();
            for _ in 0..7 {
                let t = Instant::now();
                black_box(project::load(path).expect("load"));
                v.push(t.elapsed());
            }
            stats(v)
        };
        let (si, sf) = (save(&with_instances, &scene), save(&flattened, &flat));
        let (oi, of) = (open(&with_instances), open(&flattened));
        let size = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.len()) as f64 / 1e6;
        println!(
            "\nsummary: a {PREFAB_ENTITIES}-entity prefab, {INSTANCES} instances ({} entities)",
            scene.len()
        );
        let line = |what: &str, (m, p): (Duration, Duration)| {
            println!("  {what:<44} median {:8.2} ms  p95 {:8.2} ms", ms(m), ms(p));
        };
        line("torch colour in place → 200 instances", pe);
        line("  its undo", pu);
        line("a child added in place → 200 instances", se);
        line("  its undo", su);
        line("baseline: the colour by hand on 200 torches", he);
        line("  its undo", hu);
        println!(
            "  propagation / by hand: {:.2}×  (undo {:.2}×)",
            ms(pe.0) / ms(he.0),
            ms(pu.0) / ms(hu.0)
        );
        line("save, with instances", si);
        line("save, flattened", sf);
        line("open, with instances", oi);
        line("open, flattened", of);
        println!(
            "  save {:.2}×, open {:.2}× the flattened scene's; files {:.1} MB against {:.1} MB",
            ms(si.0) / ms(sf.0),
            ms(oi.0) / ms(of.0),
            size(&with_instances),
            size(&flattened)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
