//! Copy in one project, paste in another (or the same), as the clipboard carries it.

use std::time::Duration;

use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::{Material, Scene};

use super::*;
use crate::create::{CreateItem, entity};

/// A project folder of its own (removed at the end) with a document in it.
struct Project {
    dir: PathBuf,
    doc: Document,
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn project(name: &str) -> Project {
    let dir = std::env::temp_dir().join(format!("pebble-clip-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let doc = Document::new(
        Scene::new(),
        dir.join("map.pebble.ron"),
        Duration::from_secs(600),
    );
    Project { dir, doc }
}

/// A textured box and its crate texture in `p`'s folder, selected.
fn textured_box(p: &mut Project) {
    std::fs::create_dir_all(p.dir.join("textures")).expect("folder");
    std::fs::write(p.dir.join("textures/crate.png"), b"not really a png").expect("texture");
    p.doc
        .execute(AddMaterial::new(Material {
            name: "Crate".into(),
            texture: Some("textures/crate.png".into()),
            ..Material::default()
        }))
        .expect("material");
    let material = p.doc.scene().materials().map(|(id, _)| id).next();
    let e = entity(CreateItem::Box, Vec3::new(2.0, 0.0, -1.0), material).expect("a box");
    p.doc
        .execute(AddEntities::new("Create", vec![e]))
        .expect("add");
}

#[test]
fn a_copy_pastes_into_another_project_with_its_material_and_texture_as_one_step() {
    let mut a = project("a");
    textured_box(&mut a);
    let text = copy(&a.doc).expect("something to copy");
    let mut b = project("b");
    let before = b.doc.history().position();
    let n = paste(&mut b.doc, &text, Place::AsTheyWere).expect("pastes");
    assert_eq!(n, 1);
    assert_eq!(b.doc.history().position(), before + 1, "one step");
    assert_eq!(b.doc.history().undo_name().as_deref(), Some("Paste"));
    let scene = b.doc.scene();
    let pasted = scene.entities().next().expect("the box");
    assert_eq!(pasted.transform.translation, Vec3::new(2.0, 0.0, -1.0));
    let material = match &pasted.kind {
        EntityKind::Mesh(m) => m.geometry.faces[0].material,
        _ => panic!("a mesh"),
    };
    assert_eq!(
        scene
            .material(material)
            .and_then(|m| m.texture.clone())
            .as_deref(),
        Some("textures/crate.png")
    );
    assert!(
        b.dir.join("textures/crate.png").is_file(),
        "the texture came along"
    );
    b.doc.undo();
    assert_eq!(b.doc.scene().len(), 0);
    assert_eq!(
        b.doc.scene().materials().count(),
        0,
        "its material goes too"
    );
}

#[test]
fn a_paste_in_the_same_project_reuses_the_material_and_can_go_under_the_cursor() {
    let mut a = project("same");
    textured_box(&mut a);
    let text = copy(&a.doc).expect("something to copy");
    let materials = a.doc.scene().materials().count();
    paste(&mut a.doc, &text, Place::At(Vec3::new(10.0, 0.0, 10.0))).expect("pastes");
    assert_eq!(a.doc.scene().len(), 2);
    assert_eq!(
        a.doc.scene().materials().count(),
        materials,
        "the same material"
    );
    let copy_at = a
        .doc
        .scene()
        .entities()
        .last()
        .expect("the copy")
        .transform
        .translation;
    assert_eq!(copy_at, Vec3::new(10.0, 0.0, 10.0));
}

/// Paste in place twice: each copy steps aside from what already stands there,
/// instead of all of them stacking invisibly on the original.
#[test]
fn pasting_in_place_twice_never_stacks_copies_on_the_original() {
    let mut a = project("in-place");
    textured_box(&mut a);
    let text = copy(&a.doc).expect("something to copy");
    paste(&mut a.doc, &text, Place::AsTheyWere).expect("pastes");
    paste(&mut a.doc, &text, Place::AsTheyWere).expect("pastes again");
    let at: Vec<Vec3> = a
        .doc
        .scene()
        .entities()
        .map(|e| e.transform.translation)
        .collect();
    assert_eq!(at.len(), 3);
    for i in 0..3 {
        for j in i + 1..3 {
            assert!(at[i].distance(at[j]) > 0.5, "{at:?}");
        }
    }
    assert_eq!(at[1].y, at[0].y, "aside, not up");
}

#[test]
fn text_that_is_not_pebble_s_is_refused_clearly() {
    let mut a = project("refuse");
    let e = paste(&mut a.doc, "hello", Place::AsTheyWere).expect_err("refused");
    assert!(e.contains("no Pebble entities"), "{e}");
    assert_eq!(a.doc.history().position(), 0, "nothing changed");
    assert!(copy(&a.doc).is_none(), "nothing selected, nothing copied");
}

/// The report: Ctrl+Shift+V pasted at y = −0.0002 (the point under the cursor, read
/// from the depth buffer, a rounding into the floor). The copy stands on the
/// surface itself.
#[test]
fn a_paste_under_the_cursor_lands_on_the_surface_not_a_rounding_into_it() {
    let mut a = project("on-surface");
    a.doc
        .execute(AddMaterial::new(Material::default()))
        .expect("material");
    let material = a.doc.scene().materials().map(|(id, _)| id).next();
    let mut floor = entity(CreateItem::Box, Vec3::ZERO, material).expect("a floor");
    if let pebble_model::EntityKind::Mesh(m) = &mut floor.kind {
        m.source = pebble_model::entity::GeometrySource::Primitive(pebble_model::Primitive::Box {
            size: Vec3::new(10.0, 0.5, 10.0),
        });
        m.geometry = pebble_model::Primitive::Box {
            size: Vec3::new(10.0, 0.5, 10.0),
        }
        .generate(material.expect("one"))
        .expect("geometry");
    }
    a.doc
        .execute(AddEntities::new("Floor", vec![floor]))
        .expect("floor");
    textured_box(&mut a);
    let text = copy(&a.doc).expect("something to copy");
    for read in [0.4998, 0.5003] {
        paste(&mut a.doc, &text, Place::At(Vec3::new(2.0, read, 1.0))).expect("pastes");
        let at = a
            .doc
            .scene()
            .entities()
            .last()
            .expect("the copy")
            .transform
            .translation;
        assert_eq!(at, Vec3::new(2.0, 0.5, 1.0), "read {read}");
    }
}

/// An instance copied into another project brings its prefab (and the
/// prefab's material): the pasted copy is an instance there, and saving that
/// project writes the prefab's file into its own `prefabs/`.
#[test]
fn an_instance_pasted_into_another_project_brings_its_prefab() {
    use pebble_model::prefab::{edit, sync};
    let mut a = project("prefab-a");
    textured_box(&mut a);
    let the_box = a.doc.scene().entities().next().map(|e| e.id).expect("box");
    let id = sync::new_prefab_id(a.doc.scene());
    let make =
        edit::make(a.doc.scene(), &[the_box], "Crate stack", id, false, None).expect("plans");
    a.doc.execute(make).expect("makes");
    let text = copy(&a.doc).expect("the instance is selected");
    let mut b = project("prefab-b");
    paste(&mut b.doc, &text, Place::AsTheyWere).expect("pastes");
    let scene = b.doc.scene();
    let prefab = scene.prefab(id).expect("the prefab came along");
    assert_eq!(scene.instances_of(id).len(), 1);
    let (mid, _) = prefab.materials[0];
    assert_eq!(
        scene
            .material(mid)
            .and_then(|m| m.texture.clone())
            .as_deref(),
        Some("textures/crate.png"),
        "the prefab names b's material"
    );
    b.doc.save().expect("saves");
    assert!(
        b.dir.join("prefabs/Crate stack.prefab.ron").is_file(),
        "b has the prefab's file"
    );
    // Undo takes the prefab back with the paste.
    b.doc.undo();
    assert!(b.doc.scene().prefab(id).is_none());
}
