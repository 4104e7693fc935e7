//! Face editing on a box: pulled, extruded, flipped and deleted faces keep the
//! mesh what a modeller expects (closed, outward, the right volume), and the
//! EditMesh step turns a primitive into an editable mesh, undoably.

use glam::{Affine3A, Vec3};
use pebble_model::command::{AddEntities, AddMaterial, EditMesh};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::mesh_edit;
use pebble_model::{Command, Entity, History, Material, MaterialId, MeshData, Primitive, Scene};

fn cube() -> MeshData {
    Primitive::Box {
        size: Vec3::new(2.0, 1.0, 2.0),
    }
    .generate(MaterialId(1))
    .expect("a box")
}

/// The faces whose normal is `n`.
fn facing(mesh: &MeshData, n: Vec3) -> Vec<usize> {
    (0..mesh.faces.len())
        .filter(|&f| {
            let [a, b, c] = mesh.triangle(&mesh.faces[f]);
            (b - a).cross(c - a).normalize().dot(n) > 0.99
        })
        .collect()
}

/// Every edge (by position) is shared by exactly two faces, in opposite
/// directions: the mesh is closed and consistently wound.
fn is_closed(mesh: &MeshData) -> bool {
    let key = |p: Vec3| [p.x, p.y, p.z].map(|c| (c * 1e4).round() as i64);
    let mut directed = std::collections::HashMap::new();
    for f in &mesh.faces {
        let c = mesh.triangle(f);
        for k in 0..3 {
            *directed
                .entry((key(c[k]), key(c[(k + 1) % 3])))
                .or_insert(0) += 1;
        }
    }
    directed
        .iter()
        .all(|((a, b), n)| *n == 1 && directed.get(&(*b, *a)) == Some(&1))
}

#[test]
fn a_top_face_pulled_up_takes_the_sides_with_it() {
    let mesh = cube();
    let top = facing(&mesh, Vec3::Y);
    let welded = mesh_edit::welded_vertices(&mesh, &top);
    assert_eq!(
        welded.len(),
        12,
        "the top's 4 corners, in the top and 2 sides each"
    );
    let up = mesh_edit::moved(&mesh, &welded, |p| p + Vec3::Y);
    assert!(is_closed(&up));
    assert!(
        (up.signed_volume() - 8.0).abs() < 1e-4,
        "2 × 2 × 2: {}",
        up.signed_volume()
    );
}

#[test]
fn an_extruded_face_adds_its_walls_and_stays_closed() {
    let mesh = cube();
    let top = facing(&mesh, Vec3::Y);
    let (out, moved) = mesh_edit::extruded(&mesh, &top, 0.5);
    assert_eq!(moved, top);
    assert_eq!(
        out.faces.len(),
        12 + 4 * 2,
        "two triangles of wall per outline edge"
    );
    assert!(
        is_closed(&out),
        "the walls join the moved top to the old edge"
    );
    assert!(
        (out.signed_volume() - 6.0).abs() < 1e-4,
        "{}",
        out.signed_volume()
    );
    for &f in &moved {
        assert!(
            out.triangle(&out.faces[f])
                .iter()
                .all(|p| (p.y - 1.5).abs() < 1e-6)
        );
    }
    // Pushed in instead: still closed, smaller.
    let (inward, _) = mesh_edit::extruded(&mesh, &top, -0.25);
    assert!(is_closed(&inward));
    assert!(
        (inward.signed_volume() - 3.0).abs() < 1e-4,
        "{}",
        inward.signed_volume()
    );
}

#[test]
fn flipped_faces_face_the_other_way_and_deleted_ones_leave_no_vertex_behind() {
    let mesh = cube();
    let top = facing(&mesh, Vec3::Y);
    let flipped = mesh_edit::flipped(&mesh, &top);
    assert_eq!(
        facing(&flipped, Vec3::NEG_Y).len(),
        4,
        "the bottom's two and the top's two"
    );
    let open = mesh_edit::without_faces(&mesh, &top);
    assert_eq!(open.faces.len(), 10);
    assert_eq!(open.positions.len(), mesh.positions.len() - 4);
    assert!(open.validate().is_ok());
    assert!(!is_closed(&open));
    // A world-space move turned into the mesh's space.
    let world = Affine3A::from_scale(Vec3::splat(2.0));
    let change = mesh_edit::in_mesh_space(world, Affine3A::from_translation(Vec3::Y * 2.0));
    assert!(
        (change(Vec3::ZERO) - Vec3::Y).length() < 1e-6,
        "2 m in the world is 1 m here"
    );
}

#[test]
fn the_first_edit_turns_a_primitive_into_a_mesh_and_undo_turns_it_back() {
    let mut scene = Scene::new();
    let mut history = History::new(10);
    let mut add = AddMaterial::new(Material::default());
    add.apply(&mut scene).expect("material");
    let material = add.created().expect("id");
    let primitive = Primitive::Box { size: Vec3::ONE };
    let e = Entity::new(
        "Crate",
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Primitive(primitive.clone()),
            geometry: primitive.generate(material).expect("box"),
            collidable: true,
        }),
    );
    let mut cmd = AddEntities::new("Add", vec![e]);
    cmd.apply(&mut scene).expect("adds");
    let id = cmd.created()[0];
    cmd.revert(&mut scene);
    history.execute(&mut scene, cmd).expect("adds");
    let before = scene.clone();
    let EntityKind::Mesh(m) = &scene.entity(id).expect("crate").kind else {
        unreachable!()
    };
    let (after, _) = mesh_edit::extruded(&m.geometry, &facing(&m.geometry, Vec3::Y), 1.0);
    history
        .execute(&mut scene, EditMesh::new(id, "Extrude faces", after))
        .expect("edits");
    assert_eq!(
        history.undo_name().as_deref(),
        Some("Extrude faces (the box becomes an editable mesh)")
    );
    let EntityKind::Mesh(m) = &scene.entity(id).expect("crate").kind else {
        unreachable!()
    };
    assert_eq!(m.source, GeometrySource::Authored);
    assert_eq!(m.geometry.faces.len(), 20);
    history.undo(&mut scene);
    assert_eq!(scene, before, "the primitive again");
    // Geometry naming a material that is not there is refused.
    let mut bad = before.clone();
    let broken = MeshData {
        faces: vec![pebble_model::mesh::Face {
            indices: [0, 1, 2],
            uvs: Default::default(),
            material: MaterialId(999),
        }],
        positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
        ..Default::default()
    };
    assert!(EditMesh::new(id, "Edit", broken).apply(&mut bad).is_err());
}

#[test]
fn a_split_edge_keeps_its_neighbours_joined_and_merged_corners_collapse() {
    let mesh = cube();
    // An edge of the top: a corner pair of one of its triangles.
    let top = facing(&mesh, Vec3::Y);
    let f = mesh.faces[top[0]];
    let split = mesh_edit::split_edges(&mesh, &[(f.indices[0], f.indices[1])]);
    // Both faces along it (one on the top, one on a side) became two each.
    assert_eq!(split.faces.len(), 14);
    assert!(is_closed(&split), "the middle vertex joins both sides");
    assert!((split.signed_volume() - mesh.signed_volume()).abs() < 1e-5);
    // The top's four corners merged: a pyramid-like collapse with no flat faces.
    let corners: Vec<u32> = mesh_edit::welded_vertices(&mesh, &top);
    let merged = mesh_edit::merged(&mesh, &corners);
    assert!(merged.faces.len() < mesh.faces.len(), "the top is gone");
    assert!(is_closed(&merged));
    assert!(
        (merged.signed_volume() - 4.0 / 3.0).abs() < 1e-4,
        "a pyramid of 2 × 2 × 1: {}",
        merged.signed_volume()
    );
    assert!(merged.validate().is_ok());
}
