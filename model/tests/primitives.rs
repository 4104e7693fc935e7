//! Primitives generate closed, outward-facing geometry of the right size.

use glam::Vec3;
use pebble_model::id::MaterialId;
use pebble_model::primitive::Primitive;

const M: MaterialId = MaterialId(1);

fn volume(p: &Primitive) -> f32 {
    let mesh = p.generate(M).expect("valid parameters");
    mesh.validate().expect("indices in range");
    mesh.signed_volume()
}

#[test]
fn closed_primitives_have_their_volume_with_outward_faces() {
    let close = |a: f32, b: f32| (a - b).abs() < 1e-3 * b.max(1.0);
    assert!(close(
        volume(&Primitive::Box {
            size: Vec3::new(1.0, 2.0, 3.0)
        }),
        6.0
    ));
    assert!(close(
        volume(&Primitive::Wedge {
            width: 2.0,
            height: 1.0,
            depth: 4.0
        }),
        4.0
    ));
    let stairs = Primitive::Stairs {
        steps: 4,
        width: 1.0,
        rise: 0.25,
        run: 0.5,
    };
    // Steps are stacked boxes from the floor: Σ (i+1)·rise·run·width.
    let expected: f32 = (1..=4).map(|i| i as f32 * 0.25 * 0.5).sum();
    assert!(
        close(volume(&stairs), expected),
        "{} vs {expected}",
        volume(&stairs)
    );
    let sides = 64;
    let cyl = Primitive::Cylinder {
        radius: 1.0,
        height: 2.0,
        sides,
    };
    let polygon_area = 0.5 * sides as f32 * (2.0 * std::f32::consts::PI / sides as f32).sin();
    assert!(close(volume(&cyl), polygon_area * 2.0));
    let arch = Primitive::Arch {
        width: 3.0,
        height: 3.0,
        depth: 0.5,
        thickness: 0.5,
        segments: 16,
    };
    assert!(volume(&arch) > 0.0, "arch faces point outward");
}

#[test]
fn planes_face_up_and_stand_off_their_surface() {
    let mesh = Primitive::Plane {
        width: 2.0,
        depth: 3.0,
        standoff: 0.01,
    }
    .generate(M)
    .expect("plane");
    assert_eq!(mesh.faces.len(), 2);
    for f in &mesh.faces {
        let [a, b, c] = mesh.triangle(f);
        assert!(
            (b - a).cross(c - a).y > 0.0,
            "counter-clockwise seen from above"
        );
        assert!([a, b, c].iter().all(|p| (p.y - 0.01).abs() < 1e-6));
    }
    let aabb = mesh.aabb().expect("bounds");
    assert_eq!((aabb.max - aabb.min).to_array(), [2.0, 0.0, 3.0]);
}

#[test]
fn uvs_are_in_metres() {
    let mesh = Primitive::Box {
        size: Vec3::new(4.0, 1.0, 1.0),
    }
    .generate(M)
    .expect("box");
    let widest = mesh
        .faces
        .iter()
        .flat_map(|f| f.uvs)
        .map(|uv| uv.x.abs().max(uv.y.abs()))
        .fold(0.0, f32::max);
    assert!((widest - 4.0).abs() < 1e-5, "{widest}");
}

#[test]
fn bad_parameters_are_refused_with_a_reason() {
    let err = Primitive::Box {
        size: Vec3::new(1.0, -2.0, 1.0),
    }
    .generate(M)
    .expect_err("negative");
    assert!(err.to_string().contains("height"), "{err}");
    let err = Primitive::Cylinder {
        radius: 1.0,
        height: 1.0,
        sides: 2,
    }
    .generate(M)
    .expect_err("2 sides");
    assert!(err.to_string().contains("sides"), "{err}");
    let err = Primitive::Arch {
        width: 2.0,
        height: 3.0,
        depth: 1.0,
        thickness: 1.0,
        segments: 8,
    }
    .generate(M)
    .expect_err("no opening");
    assert!(err.to_string().contains("opening"), "{err}");
    assert!(
        Primitive::Plane {
            width: 1.0,
            depth: 1.0,
            standoff: f32::NAN
        }
        .generate(M)
        .is_err()
    );
}

/// Every primitive stands on its origin: its base at y = 0 and centred in X and
/// Z, so that the gizmo, a drop to the floor and a collider fitted to it agree.
#[test]
fn every_primitive_stands_on_the_middle_of_its_base() {
    let all = [
        Primitive::Box {
            size: Vec3::new(1.0, 2.0, 3.0),
        },
        Primitive::Plane {
            width: 2.0,
            depth: 5.0,
            standoff: 0.0,
        },
        Primitive::Wedge {
            width: 2.0,
            height: 1.0,
            depth: 4.0,
        },
        Primitive::Stairs {
            steps: 5,
            width: 1.0,
            rise: 0.2,
            run: 0.3,
        },
        Primitive::Cylinder {
            radius: 0.5,
            height: 2.0,
            sides: 12,
        },
        Primitive::Arch {
            width: 2.0,
            height: 3.0,
            depth: 0.5,
            thickness: 0.4,
            segments: 8,
        },
    ];
    for p in all {
        let b = p.generate(M).expect("builds").aabb().expect("bounds");
        let mid = (b.min + b.max) * 0.5;
        assert!(
            b.min.y.abs() < 1e-5 && mid.x.abs() < 1e-5 && mid.z.abs() < 1e-5,
            "{}: {b:?}",
            p.kind_name()
        );
    }
}

#[test]
fn a_face_is_the_flat_polygon_a_triangle_belongs_to() {
    let mesh = Primitive::Box {
        size: Vec3::new(2.0, 1.0, 3.0),
    }
    .generate(MaterialId(1))
    .expect("box");
    assert_eq!(mesh.faces.len(), 12);
    // Each side is two triangles; every triangle finds its partner and no other.
    let mut sides: Vec<Vec<usize>> = (0..12).map(|f| mesh.polygon_of(f)).collect();
    for (f, side) in sides.iter().enumerate() {
        assert_eq!(side.len(), 2, "face {f}: {side:?}");
        assert!(side.contains(&f));
    }
    sides.sort();
    sides.dedup();
    assert_eq!(sides.len(), 6, "six sides");
    assert!(mesh.polygon_of(99).is_empty());
    // A folded strip sharing its vertices: the fold stops the polygon.
    let mut folded = pebble_model::MeshData {
        positions: vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(0.0, 1.0, 2.0),
            Vec3::new(1.0, 1.0, 2.0),
        ],
        ..Default::default()
    };
    for indices in [[0, 2, 1], [0, 3, 2], [3, 5, 2], [3, 4, 5]] {
        folded.faces.push(pebble_model::mesh::Face {
            indices,
            uvs: [Default::default(); 3],
            material: MaterialId(1),
        });
    }
    assert_eq!(folded.polygon_of(0), vec![0, 1]);
    assert_eq!(folded.polygon_of(3), vec![2, 3]);
}
