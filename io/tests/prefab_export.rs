//! Export flattens prefab instances: a map of a doorway prefab placed four
//! times (one copy with its own torch colour) is byte for byte the map of the
//! same scene made of plain entities, each named with its copy; the PSP
//! budget counts every copy.

use std::sync::atomic::AtomicBool;

use pebble_io::export::{ExportOptions, export};
use pebble_model::command::{AddEntities, AddMaterial, SetEntity};
use pebble_model::definitions::builtin;
use pebble_model::entity::{GeometrySource, Light, MeshEntity};
use pebble_model::glam::Vec3;
use pebble_model::prefab::{edit, sync};
use pebble_model::{Entity, EntityId, EntityKind, History, Material, Primitive, Scene, Transform};

fn doorway_scene() -> (Scene, Vec<EntityId>) {
    let mut scene = Scene::new();
    let mut history = History::default();
    let mut add = AddMaterial::new(Material::default());
    use pebble_model::Command;
    add.apply(&mut scene).expect("material");
    let stone = add.created().expect("id");
    let wall = |name: &str, x: f32| {
        let p = Primitive::Box {
            size: Vec3::new(1.0, 3.0, 0.5),
        };
        Entity::new(
            name,
            EntityKind::Mesh(MeshEntity {
                geometry: p.generate(stone).expect("box"),
                source: GeometrySource::Primitive(p),
                collidable: true,
            }),
        )
        .with_transform(Transform::from_translation(Vec3::new(x, 1.5, 0.0)))
    };
    let mut group = Entity::new("Doorway", EntityKind::Group);
    group.id = EntityId(1);
    let mut entities = vec![group, wall("Left", -1.5), wall("Right", 1.5)];
    let mut torch = Entity::new(
        "Torch",
        EntityKind::Light(Light::Omni {
            color: [1.0, 0.6, 0.2],
            radius: 4.0,
            intensity: 1.0,
            shadows: false,
            cone: None,
        }),
    )
    .with_transform(Transform::from_translation(Vec3::new(0.0, 2.8, 0.4)));
    torch.id = EntityId(4);
    entities.push(torch);
    let mut trigger = Entity::new(
        "Threshold",
        EntityKind::Defined(builtin::instance(
            "Trigger",
            [(
                "event",
                pebble_model::definitions::FieldValue::Text("door".into()),
            )],
        )),
    );
    trigger.id = EntityId(5);
    entities.push(trigger);
    for e in entities.iter_mut().skip(1) {
        e.parent = Some(EntityId(1));
    }
    let mut add = AddEntities::new("Add", entities);
    add.apply(&mut scene).expect("adds");
    let group = add.created()[0];
    let id = sync::new_prefab_id(&scene);
    let make = edit::make(&scene, &[group], "Doorway", id, false, None).expect("plans");
    history.execute(&mut scene, make).expect("makes");
    for k in 1..4 {
        let at = Transform::from_translation(Vec3::new(8.0 * k as f32, 0.0, 0.0));
        let place = edit::place(&scene, id, None, at).expect("plans");
        history.execute(&mut scene, place).expect("places");
    }
    let instances = scene.instances_of(id);
    // The third copy's torch is blue (an override).
    let torch = scene
        .subtree(instances[2])
        .into_iter()
        .find(|e| scene.entity(*e).is_some_and(|e| e.name == "Torch"))
        .expect("torch");
    let mut blue = scene.entity(torch).expect("torch").clone();
    if let EntityKind::Light(Light::Omni { color, .. }) = &mut blue.kind {
        *color = [0.1, 0.3, 1.0];
    }
    history
        .execute(&mut scene, SetEntity::new("Colour", blue))
        .expect("overrides");
    (scene, instances)
}

fn exported(scene: &Scene) -> Vec<u8> {
    let mut options = ExportOptions::new(std::env::temp_dir());
    options.bake = false;
    export(scene, &options, &mut |_| {}, &AtomicBool::new(false))
        .expect("exports")
        .0
}

#[test]
fn a_scene_with_instances_exports_as_the_same_scene_made_of_plain_entities() {
    let (scene, instances) = doorway_scene();
    assert_eq!(instances.len(), 4);
    let with_instances = exported(&scene);
    let flat = edit::flattened(&scene);
    assert!(flat.data().prefabs.is_empty());
    assert!(
        flat.entities()
            .all(|e| e.instance.is_none() && e.source.is_none())
    );
    assert_eq!(exported(&flat), with_instances, "byte for byte");

    let view = pbm::MapView::parse(&with_instances).expect("reads").0;
    let map = pbm::Map::from_view(&view);
    assert_eq!(
        map.meshes.len() % 4,
        0,
        "every copy's walls: {}",
        map.meshes.len()
    );
    assert!(map.meshes.len() >= 8);
    let names: Vec<String> = map.meshes.iter().map(|m| m.name.to_string()).collect();
    assert!(
        names.iter().any(|n| n.starts_with("Doorway_2/Left")),
        "named with their copy: {names:?}"
    );
    // Every copy's trigger and both torch colours are in the map.
    let triggers = flat
        .entities()
        .filter(|e| matches!(&e.kind, EntityKind::Defined(d) if d.kind == "Trigger"))
        .count();
    assert_eq!(triggers, 4);
    let blue = flat
        .entities()
        .filter(|e| matches!(e.kind, EntityKind::Light(Light::Omni { color, .. }) if color == [0.1, 0.3, 1.0]))
        .count();
    assert_eq!(blue, 1);
}
