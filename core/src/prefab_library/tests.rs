//! A project's prefab files as a designer meets them: written on save, read on
//! open, followed when changed elsewhere; deleted or damaged, the instances
//! keep their last known content, the problem is said, and nothing is lost.

use std::path::{Path, PathBuf};
use std::time::Duration;

use pebble_model::command::AddEntities;
use pebble_model::entity::Light;
use pebble_model::prefab::{edit, sync};
use pebble_model::{Entity, EntityKind, Scene, project};

use crate::document::Document;

struct Folder(PathBuf);

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn torch() -> Entity {
    Entity::new(
        "Torch",
        EntityKind::Light(Light::Omni {
            color: [1.0, 0.5, 0.1],
            radius: 4.0,
            intensity: 1.0,
            shadows: false,
            cone: None,
        }),
    )
}

/// A saved project with two instances of the shared prefab "Sconce".
fn saved(name: &str) -> (Folder, PathBuf, pebble_model::prefab::PrefabId) {
    let dir = std::env::temp_dir().join(format!("pebble-prefab-lib-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("folder");
    let path = dir.join("map.pebble.ron");
    let mut doc = Document::new(Scene::new(), path.clone(), Duration::from_secs(600));
    doc.execute(AddEntities::new("Add", vec![torch()]))
        .expect("adds");
    let t = doc.scene().entities().next().map(|e| e.id).expect("torch");
    let id = sync::new_prefab_id(doc.scene());
    let make = edit::make(doc.scene(), &[t], "Sconce", id, false, None).expect("plans");
    doc.execute(make).expect("makes");
    let place = edit::place(
        doc.scene(),
        id,
        None,
        pebble_model::Transform::from_translation(pebble_model::glam::Vec3::X * 4.0),
    )
    .expect("plans");
    doc.execute(place).expect("places");
    assert!(
        doc.prefabs.problems(doc.scene()).is_empty(),
        "a prefab made since the last save is not missing, only not saved yet"
    );
    doc.save().expect("saves");
    (Folder(dir), path, id)
}

fn open(path: &Path) -> Document {
    let scene = project::load(path).expect("loads");
    Document::new(scene, path.to_path_buf(), Duration::from_secs(600))
}

#[test]
fn a_saved_prefab_is_a_file_and_a_changed_file_is_followed_on_open() {
    let (dir, path, id) = saved("follow");
    let file = dir.0.join("prefabs/Sconce.prefab.ron");
    assert!(file.is_file(), "saving wrote the prefab's file");
    // Another map of the project changed the prefab: the torch is blue now.
    let mut prefab = pebble_model::prefab::file::load(&file).expect("reads");
    if let EntityKind::Light(Light::Omni { color, .. }) = &mut prefab.entities[0].kind {
        *color = [0.1, 0.2, 1.0];
    }
    pebble_model::prefab::file::save(&file, &prefab).expect("writes");
    let doc = open(&path);
    assert!(doc.is_dirty(), "the map follows the file: unsaved");
    for i in doc.scene().instances_of(id) {
        let torch = doc.scene().subtree(i)[1];
        assert!(matches!(
            doc.scene().entity(torch).map(|e| &e.kind),
            Some(EntityKind::Light(Light::Omni { color, .. })) if *color == [0.1, 0.2, 1.0]
        ));
    }
    assert!(doc.prefabs.problems(doc.scene()).is_empty());
}

#[test]
fn a_deleted_prefab_file_keeps_the_instances_and_saving_writes_it_again() {
    let (dir, path, id) = saved("deleted");
    let file = dir.0.join("prefabs/Sconce.prefab.ron");
    std::fs::remove_file(&file).expect("deletes");
    let mut doc = open(&path);
    assert_eq!(doc.scene().instances_of(id).len(), 2, "the instances stay");
    assert_eq!(doc.scene().len(), 4, "with their content");
    let problems = doc.prefabs.problems(doc.scene());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].1.contains("Sconce") && problems[0].1.contains("missing"));
    doc.save().expect("saves");
    assert!(file.is_file(), "nothing lost: the file is back");
}

#[test]
fn a_damaged_prefab_file_is_said_with_its_line_and_never_written_over() {
    let (dir, path, id) = saved("damaged");
    let file = dir.0.join("prefabs/Sconce.prefab.ron");
    std::fs::write(
        &file,
        "(format: 1, id: (12), name: \"Sconce\", entities: [(",
    )
    .expect("damages");
    let mut doc = open(&path);
    assert_eq!(doc.scene().instances_of(id).len(), 2);
    let problems = doc.prefabs.problems(doc.scene());
    assert!(
        problems
            .iter()
            .any(|(_, m)| m.contains("Sconce.prefab.ron: line 1, column")),
        "{problems:?}"
    );
    doc.save().expect("saves the map");
    assert_eq!(
        std::fs::read_to_string(&file).expect("still there"),
        "(format: 1, id: (12), name: \"Sconce\", entities: [(",
        "left for its author to mend"
    );
}

/// While the map is open: its own save changes nothing when the file is
/// read again; a file changed elsewhere is followed; a file changed elsewhere
/// when this map changed that prefab too leaves the map's change in place.
#[test]
fn a_file_changed_while_open_is_followed_unless_the_map_changed_the_prefab_too() {
    let (dir, path, id) = saved("while-open");
    let file = dir.0.join("prefabs/Sconce.prefab.ron");
    let mut doc = open(&path);
    assert!(
        doc.prefab_files_changed().is_empty(),
        "our own save: nothing"
    );
    let colour_in = |doc: &Document| {
        let i = doc.scene().instances_of(id)[0];
        let torch = doc.scene().subtree(i)[1];
        match doc.scene().entity(torch).map(|e| &e.kind) {
            Some(EntityKind::Light(Light::Omni { color, .. })) => *color,
            _ => panic!("a torch"),
        }
    };
    let write_colour = |c: [f32; 3]| {
        let mut p = pebble_model::prefab::file::load(&file).expect("reads");
        if let EntityKind::Light(Light::Omni { color, .. }) = &mut p.entities[0].kind {
            *color = c;
        }
        pebble_model::prefab::file::save(&file, &p).expect("writes");
    };
    // Changed elsewhere: followed.
    write_colour([0.0, 1.0, 0.0]);
    let lines = doc.prefab_files_changed();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(colour_in(&doc), [0.0, 1.0, 0.0]);
    // Changed here (in place, not saved) and elsewhere: the map's stays.
    let i = doc.scene().instances_of(id)[0];
    let torch = doc.scene().subtree(i)[1];
    doc.select(vec![i]).expect("selects");
    doc.enter(Some(i));
    let mut blue = doc.scene().entity(torch).expect("torch").clone();
    if let EntityKind::Light(Light::Omni { color, .. }) = &mut blue.kind {
        *color = [0.0, 0.0, 1.0];
    }
    doc.execute(pebble_model::command::SetEntity::new("Blue", blue))
        .expect("edits the prefab");
    write_colour([1.0, 0.0, 0.0]);
    let lines = doc.prefab_files_changed();
    assert!(lines[0].contains("keeps its own"), "{lines:?}");
    assert_eq!(colour_in(&doc), [0.0, 0.0, 1.0], "nothing unsaved lost");
}
