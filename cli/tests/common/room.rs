//! A room to texture: a floor and four walls, each with its own plain material,
//! in a fresh folder whose `textures/` holds three pictures (brick, stone, wood)
//! as a paint program saves them.

use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::glam::{Quat, Vec3};
use pebble_model::{Entity, History, Material, MaterialId, Primitive, Scene, Transform, project};

/// A wall: name, centre of the base, size, and the way into the room.
pub type Wall = (&'static str, [f32; 3], [f32; 3], [f32; 3]);

pub const WALLS: [Wall; 4] = [
    (
        "North wall",
        [0.0, 0.5, -4.8],
        [10.0, 3.0, 0.4],
        [0.0, 0.0, 1.0],
    ),
    (
        "East wall",
        [4.8, 0.5, 0.0],
        [0.4, 3.0, 9.2],
        [-1.0, 0.0, 0.0],
    ),
    (
        "South wall",
        [0.0, 0.5, 4.8],
        [10.0, 3.0, 0.4],
        [0.0, 0.0, -1.0],
    ),
    (
        "West wall",
        [-4.8, 0.5, 0.0],
        [0.4, 3.0, 9.2],
        [1.0, 0.0, 0.0],
    ),
];

fn mesh(name: &str, size: Vec3, at: Vec3, material: MaterialId) -> Entity {
    let primitive = Primitive::Box { size };
    let geometry = primitive.generate(material).expect("a box");
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
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    })
}

/// A room (a floor and four walls, each with its own plain material) in a fresh
/// folder whose `textures/` holds three pictures, as a paint program saves them.
pub fn room_project() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pebble-room-{}-{k}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("textures")).expect("a folder");
    for (name, rgb) in [
        ("brick", [170, 60, 40]),
        ("stone", [120, 120, 125]),
        ("wood", [140, 95, 50]),
    ] {
        image::RgbImage::from_fn(32, 32, |x, y| {
            let k = if (x / 8 + y / 4) % 2 == 0 { 1.0 } else { 0.7 };
            image::Rgb(rgb.map(|c| (c as f32 * k) as u8))
        })
        .save(dir.join(format!("textures/{name}.png")))
        .expect("writes a PNG");
    }
    let mut scene = Scene::new();
    let mut history = History::new(10);
    let mut entities = Vec::new();
    let material = |scene: &mut Scene, name: &str| {
        let mut add = AddMaterial::new(Material {
            name: name.into(),
            ..Material::default()
        });
        pebble_model::Command::apply(&mut add, scene).expect("a material");
        add.created().expect("its id")
    };
    let floor = material(&mut scene, "Floor");
    entities.push(mesh("Floor", Vec3::new(10.0, 0.5, 10.0), Vec3::ZERO, floor));
    for (name, at, size, _) in WALLS {
        let m = material(&mut scene, name);
        entities.push(mesh(name, Vec3::from(size), Vec3::from(at), m));
    }
    history
        .execute(&mut scene, AddEntities::new("Room", entities))
        .expect("the room");
    let path = dir.join("room.pebble.ron");
    project::save(&path, &scene).expect("saves");
    path
}

/// A project holding one square ground `side` metres wide (a plain material), in
/// a fresh folder: a large level as an importer brings it in.
pub fn ground_project(side: f32) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pebble-ground-{}-{}",
        std::process::id(),
        side as u32
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let mut scene = Scene::new();
    let mut add = AddMaterial::new(Material {
        name: "Ground".into(),
        color: [0.25, 0.75, 0.2, 1.0],
        ..Material::default()
    });
    pebble_model::Command::apply(&mut add, &mut scene).expect("a material");
    let ground = add.created().expect("its id");
    History::new(10)
        .execute(
            &mut scene,
            AddEntities::new(
                "Ground",
                vec![mesh(
                    "Ground",
                    Vec3::new(side, 0.5, side),
                    Vec3::ZERO,
                    ground,
                )],
            ),
        )
        .expect("the ground");
    let path = dir.join("ground.pebble.ron");
    project::save(&path, &scene).expect("saves");
    path
}
