//! What is watched, that a save by rename is seen, and how reloaded geometry
//! keeps the project's materials.

use std::time::{Duration, Instant};

use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{Emitter, MeshEntity};
use pebble_model::{Command, Entity, History, Material, MaterialId, Primitive};

use super::*;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-reload-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("textures")).expect("dir");
    dir
}

fn scene_using(texture: &str) -> Scene {
    let mut scene = Scene::new();
    let mut add = AddMaterial::new(Material {
        texture: Some(texture.into()),
        ..Material::default()
    });
    add.apply(&mut scene).expect("material");
    let material = add.created().expect("id");
    let geometry = Primitive::Box {
        size: pebble_model::glam::Vec3::ONE,
    }
    .generate(material)
    .expect("box");
    History::default()
        .execute(
            &mut scene,
            AddEntities::new(
                "Add",
                vec![
                    Entity::new(
                        "Crate",
                        EntityKind::Mesh(MeshEntity {
                            source: GeometrySource::Asset {
                                path: "crate.glb".into(),
                                mesh: "Crate".into(),
                            },
                            geometry,
                            collidable: true,
                        }),
                    ),
                    Entity::new(
                        "Fire",
                        EntityKind::Emitter(Emitter {
                            texture: Some("textures/flame.png".into()),
                            ..Emitter::default()
                        }),
                    ),
                ],
            ),
        )
        .expect("add");
    scene
}

#[test]
fn the_files_a_scene_uses_are_its_textures_its_models_and_its_kinds() {
    let dir = scratch("used");
    let project = dir.join("level.pebble.ron");
    let files = used_files(&scene_using("textures/stone.png"), &project);
    let uses: Vec<(PathBuf, Vec<Use>)> = files
        .into_iter()
        .map(|(p, u)| (p, u.into_iter().collect()))
        .collect();
    assert_eq!(
        uses,
        vec![
            (dir.join("crate.glb"), vec![Use::Model("crate.glb".into())]),
            (dir.join("entities.ron"), vec![Use::Definitions]),
            (
                dir.join("textures/flame.png"),
                vec![Use::Texture("textures/flame.png".into())]
            ),
            (
                dir.join("textures/stone.png"),
                vec![Use::Texture("textures/stone.png".into())]
            ),
        ]
    );
}

/// Editors save by writing another file and renaming it over the old one.
#[test]
fn a_texture_saved_by_rename_is_seen_once_it_settles() {
    let dir = scratch("rename");
    let project = dir.join("level.pebble.ron");
    let texture = dir.join("textures/stone.png");
    std::fs::write(&texture, b"old").expect("write");
    let mut reload = HotReload::new(None);
    assert!(reload.watcher.is_some(), "the system watches files");
    reload.follow(&scene_using("textures/stone.png"), &project);
    let fresh = dir.join("textures/.stone.png.tmp");
    std::fs::write(&fresh, b"new").expect("write");
    std::fs::rename(&fresh, &texture).expect("rename");
    // An unrelated file in the same folder is not reported.
    std::fs::write(dir.join("textures/notes.txt"), b"x").expect("write");
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    while seen.is_empty() {
        assert!(Instant::now() < deadline, "the change was never seen");
        std::thread::sleep(Duration::from_millis(20));
        seen = reload.changed(Instant::now());
    }
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].0, texture);
    assert!(
        seen[0]
            .1
            .contains(&Use::Texture("textures/stone.png".into()))
    );
    // Reported once.
    std::thread::sleep(SETTLE * 2);
    assert!(reload.changed(Instant::now()).is_empty());
}

#[test]
fn reloaded_geometry_keeps_the_project_s_materials_in_order() {
    let cube = |m: u32| {
        Primitive::Box {
            size: pebble_model::glam::Vec3::ONE,
        }
        .generate(MaterialId(m))
        .expect("box")
    };
    let mut old = cube(7);
    for f in old.faces.iter_mut().skip(6) {
        f.material = MaterialId(9);
    }
    let mut new = cube(0);
    for f in new.faces.iter_mut().skip(4) {
        f.material = MaterialId(1);
    }
    new.faces[11].material = MaterialId(2);
    let kept = keep_materials(&old, new);
    let ids: Vec<u32> = kept.faces.iter().map(|f| f.material.0).collect();
    assert_eq!(ids, vec![7, 7, 7, 7, 9, 9, 9, 9, 9, 9, 9, 7]);
}
