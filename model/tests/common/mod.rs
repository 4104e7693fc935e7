//! Scene builders shared by the model tests.
#![allow(dead_code)]

use glam::{Quat, Vec3};
use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{GeometrySource, MeshEntity};
use pebble_model::{
    Entity, EntityId, EntityKind, History, Material, MaterialId, Primitive, Scene, Transform,
};

pub fn add_material(scene: &mut Scene, history: &mut History, name: &str) -> MaterialId {
    let mut add = AddMaterial::new(Material {
        name: name.into(),
        ..Material::default()
    });
    // Apply through a throwaway history entry so that ids are allocated.
    use pebble_model::Command;
    add.apply(scene).expect("material");
    let id = add.created().expect("id");
    add.revert(scene);
    history.execute(scene, add).expect("material");
    id
}

pub fn box_entity(name: &str, material: MaterialId, at: Vec3) -> Entity {
    let primitive = Primitive::Box {
        size: Vec3::new(1.0, 2.0, 3.0),
    };
    let geometry = primitive.generate(material).expect("box");
    Entity::new(
        name,
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Primitive(primitive),
            geometry,
            collidable: true,
        }),
    )
    .with_transform(Transform {
        translation: at,
        rotation: Quat::from_rotation_y(0.3),
        scale: Vec3::ONE,
    })
}

/// Adds entities through the history; returns their ids.
pub fn add(scene: &mut Scene, history: &mut History, entities: Vec<Entity>) -> Vec<EntityId> {
    let mut cmd = AddEntities::new("Add", entities);
    use pebble_model::Command;
    cmd.apply(scene).expect("adds");
    let ids = cmd.created();
    cmd.revert(scene);
    history.execute(scene, cmd).expect("adds");
    ids
}

/// A small scene: a material, a group holding two boxes, and a loose box.
pub fn small_scene() -> (Scene, History, MaterialId, Vec<EntityId>) {
    let mut scene = Scene::new();
    let mut history = History::default();
    let mat = add_material(&mut scene, &mut history, "Stone");
    let mut group = Entity::new("Group", EntityKind::Group);
    group.id = EntityId(1);
    group.transform = Transform::from_translation(Vec3::new(5.0, 0.0, 0.0));
    let mut a = box_entity("A", mat, Vec3::new(1.0, 0.0, 0.0));
    a.id = EntityId(2);
    a.parent = Some(EntityId(1));
    let mut b = box_entity("B", mat, Vec3::new(-1.0, 0.0, 0.0));
    b.id = EntityId(3);
    b.parent = Some(EntityId(1));
    let mut c = box_entity("C", mat, Vec3::new(0.0, 0.0, 4.0));
    c.id = EntityId(4);
    let ids = add(&mut scene, &mut history, vec![group, a, b, c]);
    (scene, history, mat, ids)
}
