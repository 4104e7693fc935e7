//! Face selection and the UV steps built from it, on a box.

use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::uv::Justify;
use pebble_model::{Command, Entity, EntityId, History, Material, Primitive, Scene};

use super::*;

fn boxed() -> (Scene, History, EntityId) {
    let mut scene = Scene::new();
    let mut history = History::new(50);
    let mut add = AddMaterial::new(Material {
        tiling: Vec2::new(2.0, 1.0),
        ..Material::default()
    });
    add.apply(&mut scene).expect("material");
    let material = add.created().expect("id");
    let primitive = Primitive::Box {
        size: Vec3::new(4.0, 2.0, 1.0),
    };
    let geometry = primitive.generate(material).expect("box");
    let e = Entity::new(
        "Crate",
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Primitive(primitive),
            geometry,
            collidable: true,
        }),
    );
    let mut cmd = AddEntities::new("Add", vec![e]);
    cmd.apply(&mut scene).expect("adds");
    let id = cmd.created()[0];
    cmd.revert(&mut scene);
    history.execute(&mut scene, cmd).expect("adds");
    (scene, history, id)
}

fn mesh(scene: &Scene, id: EntityId) -> &MeshData {
    match &scene.entity(id).expect("crate").kind {
        EntityKind::Mesh(m) => &m.geometry,
        _ => unreachable!(),
    }
}

#[test]
fn picking_adding_toggling_and_growing_faces() {
    let (scene, _, id) = boxed();
    let mut faces = FaceSelection::default();
    assert!(faces.is_empty());
    let side = mesh(&scene, id).polygon_of(0);
    faces.add(id, side.clone());
    assert_eq!(faces.counts(), (2, 1));
    faces.toggle(id, &side);
    assert!(faces.is_empty(), "a picked side toggles off");
    faces.toggle(id, &[0]);
    faces.grow_coplanar(&scene);
    assert_eq!(
        faces.counts().0,
        2,
        "the side's other triangle is in its plane"
    );
    faces.grow(&scene);
    // The side and its four neighbours: all but the opposite side.
    assert_eq!(faces.counts().0, 10);
    faces.grow_same_material(&scene);
    assert_eq!(faces.counts().0, 12, "every face has the one material");
    // Faces that are gone are let go of.
    faces.add(EntityId(999), [0]);
    faces.add(id, [55]);
    faces.keep_valid(&scene);
    assert_eq!(faces.counts(), (12, 1));
}

#[test]
fn a_typed_rotation_and_the_buttons_reach_every_picked_face_as_one_step() {
    let (mut scene, mut history, id) = boxed();
    let mut faces = FaceSelection::default();
    let side = mesh(&scene, id).polygon_of(0);
    faces.add(id, side.clone());
    let before: Vec<[Vec2; 3]> = side
        .iter()
        .map(|&f| mesh(&scene, id).faces[f].uvs)
        .collect();

    let step = faces
        .uv_step(&scene, UvOp::Set(MappingField::Rotation, 45.0))
        .expect("a step");
    history.execute(&mut scene, step).expect("applies");
    let (m, _) = faces.first_mapping(&scene).expect("a mapping");
    assert!((m.rotation.to_degrees() - 45.0).abs() < 1e-3, "{m:?}");
    for &f in &side {
        let got = pebble_model::uv::mapping_of(mesh(&scene, id), f, &scene.world_transform(id))
            .expect("mapping");
        assert!((got.rotation.to_degrees() - 45.0).abs() < 1e-3, "face {f}");
    }
    history.undo(&mut scene);
    let after_undo: Vec<[Vec2; 3]> = side
        .iter()
        .map(|&f| mesh(&scene, id).faces[f].uvs)
        .collect();
    assert_eq!(after_undo, before);

    // Fit: one repeat (2 × 1 m) over the side.
    let step = faces.uv_step(&scene, UvOp::Fit).expect("fit");
    history.execute(&mut scene, step).expect("applies");
    let corners: Vec<Vec2> = side
        .iter()
        .flat_map(|&f| mesh(&scene, id).faces[f].uvs)
        .collect();
    let lo = corners.iter().copied().reduce(Vec2::min).expect("corners");
    let hi = corners.iter().copied().reduce(Vec2::max).expect("corners");
    assert!((lo - Vec2::ZERO).abs().max_element() < 1e-4, "{lo}");
    assert!(
        (hi - Vec2::new(2.0, 1.0)).abs().max_element() < 1e-4,
        "{hi}"
    );

    for op in [
        UvOp::AlignFace,
        UvOp::FlipV,
        UvOp::Justify(Justify::Centre),
        UvOp::AlignWorld,
        UvOp::Quarter(true),
    ] {
        let step = faces.uv_step(&scene, op).expect("a step");
        assert_eq!(step.name(), op.label());
        history.execute(&mut scene, step).expect("applies");
    }
    let (m, _) = faces.first_mapping(&scene).expect("mapping");
    assert!(
        (m.rotation.to_degrees() - 90.0).abs() < 1e-3,
        "a quarter turn from the world's: {m:?}"
    );
    let step = faces.uv_step(&scene, UvOp::Quarter(false)).expect("a step");
    history.execute(&mut scene, step).expect("applies");
    let step = faces.uv_step(&scene, UvOp::FlipU).expect("a step");
    history.execute(&mut scene, step).expect("applies");
    let (m, _) = faces.first_mapping(&scene).expect("mapping");
    assert!(
        m.rotation.abs() < 1e-3 && (m.scale - Vec2::new(-1.0, 1.0)).abs().max_element() < 1e-4,
        "flipped along U: {m:?}"
    );
}

#[test]
fn nonsense_is_refused_with_a_reason() {
    let (scene, _, id) = boxed();
    let none = FaceSelection::default();
    let err = none.uv_step(&scene, UvOp::Fit).expect_err("nothing picked");
    assert!(err.contains("face mode"), "{err}");
    let mut faces = FaceSelection::default();
    faces.add(id, [0]);
    let err = faces
        .uv_step(&scene, UvOp::Set(MappingField::ScaleU, 0.0))
        .expect_err("scale 0");
    assert!(err.contains("cannot be 0"), "{err}");
    assert!(
        faces
            .uv_step(&scene, UvOp::Set(MappingField::OffsetU, f32::NAN))
            .is_err()
    );
}

#[test]
fn a_picked_vertex_moves_with_every_vertex_at_its_place() {
    let (scene, _, id) = boxed();
    let m = mesh(&scene, id);
    let mut faces = FaceSelection::default();
    faces.set_mode(PickMode::Vertices);
    faces.pick_vertex(id, 5, false);
    let moved = faces.moved_vertices(&scene);
    assert_eq!(moved.len(), 1);
    let at = m.positions[5];
    assert_eq!(moved[0].1.len(), 3, "a box corner is in three sides");
    for v in &moved[0].1 {
        assert_eq!(m.positions[*v as usize], at, "vertex {v}");
    }
    // An edge's ends, the same way.
    faces.set_mode(PickMode::Edges);
    let f = m.faces[0];
    faces.pick_edge(id, (f.indices[0], f.indices[1]), false);
    assert_eq!(faces.moved_vertices(&scene)[0].1.len(), 6);
}
