//! Baked lighting checked analytically: sun angle, exact shadows, ambient occlusion,
//! and the same bytes whatever the thread count.

use std::sync::atomic::AtomicBool;

use pebble_io::export::{ExportOptions, export};
use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{EntityKind, GeometrySource, Light, MeshEntity};
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::mesh::{Face, MeshData};
use pebble_model::{Command, Entity, Material, MaterialId, Primitive, Scene, Transform};

fn scene_with(material: &mut MaterialId) -> Scene {
    let mut scene = Scene::new();
    let mut add = AddMaterial::new(Material {
        name: "White".into(),
        ..Material::default()
    });
    add.apply(&mut scene).expect("material");
    *material = add.created().expect("id");
    scene
}

/// A flat grid on y = 0 from -n..n in X and Z, one vertex per metre, facing +Y.
fn grid(n: i32, mat: MaterialId) -> MeshData {
    let mut m = MeshData::default();
    let side = (2 * n + 1) as u32;
    for z in -n..=n {
        for x in -n..=n {
            m.positions.push(Vec3::new(x as f32, 0.0, z as f32));
        }
    }
    for j in 0..side - 1 {
        for i in 0..side - 1 {
            let a = j * side + i;
            let (b, c, d) = (a + 1, a + side, a + side + 1);
            // Counter-clockwise seen from above (+Y).
            m.faces.push(Face {
                indices: [a, c, b],
                uvs: [Vec2::ZERO; 3],
                material: mat,
            });
            m.faces.push(Face {
                indices: [b, c, d],
                uvs: [Vec2::ZERO; 3],
                material: mat,
            });
        }
    }
    m
}

fn mesh(name: &str, geometry: MeshData) -> Entity {
    Entity::new(
        name,
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Authored,
            geometry,
            collidable: false,
        }),
    )
}

fn light(kind: Light) -> Entity {
    Entity::new("Light", EntityKind::Light(kind))
}

fn dark_sky() -> Entity {
    light(Light::Hemisphere {
        sky: [0.0; 3],
        ground: [0.0; 3],
        ao_strength: 0.0,
        ao_radius: 0.0,
    })
}

fn baked(scene: &Scene, threads: Option<usize>, ao_rays: u32) -> (Vec<u8>, pbm::Map) {
    let mut options = ExportOptions::new(std::env::temp_dir());
    options.ao_rays = ao_rays;
    options.threads = threads;
    let (bytes, _) =
        export(scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    let map = pbm::Map::read(&bytes).expect("reads").0;
    (bytes, map)
}

/// Colour (red channel) of the map's vertices at a position on the floor plane.
fn red_at(map: &pbm::Map, mesh_prefix: &str, x: f32, z: f32) -> Vec<u32> {
    map.meshes
        .iter()
        .filter(|m| m.name.as_str().starts_with(mesh_prefix))
        .flat_map(|m| &m.vertices)
        .filter(|v| {
            (v.pos[0] - x).abs() < 1e-4 && (v.pos[2] - z).abs() < 1e-4 && v.pos[1].abs() < 1e-4
        })
        .map(|v| v.color & 0xFF)
        .collect()
}

#[test]
fn a_plane_under_a_sun_at_a_known_angle() {
    for degrees in [0.0f32, 30.0, 60.0, 80.0] {
        let mut mat = MaterialId(0);
        let mut scene = scene_with(&mut mat);
        let t = degrees.to_radians();
        let sun = light(Light::Sun {
            direction: Vec3::new(t.sin(), -t.cos(), 0.0),
            color: [1.0; 3],
            intensity: 1.0,
            shadows: true,
        });
        AddEntities::new("Add", vec![mesh("Floor", grid(2, mat)), sun, dark_sky()])
            .apply(&mut scene)
            .expect("adds");
        let (_, map) = baked(&scene, None, 0);
        let expected = (255.0 * t.cos()).round() as i64;
        for m in &map.meshes {
            for v in &m.vertices {
                assert!(
                    ((v.color & 0xFF) as i64 - expected).abs() <= 1,
                    "{degrees}°: {} vs {expected}",
                    v.color & 0xFF
                );
                assert_eq!(v.color >> 24, 255, "alpha untouched");
            }
        }
    }
}

#[test]
fn a_box_shadows_exactly_the_vertices_below_it() {
    let mut mat = MaterialId(0);
    let mut scene = scene_with(&mut mat);
    let block = Primitive::Box {
        size: Vec3::new(2.5, 1.0, 2.5),
    };
    let boxed = mesh("Block", block.generate(mat).expect("box"))
        .with_transform(Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)));
    let sun = light(Light::Sun {
        direction: Vec3::NEG_Y,
        color: [1.0; 3],
        intensity: 1.0,
        shadows: true,
    });
    AddEntities::new(
        "Add",
        vec![mesh("Floor", grid(4, mat)), boxed, sun, dark_sky()],
    )
    .apply(&mut scene)
    .expect("adds");
    let (_, map) = baked(&scene, None, 0);
    for z in -4i32..=4 {
        for x in -4i32..=4 {
            let colours = red_at(&map, "Floor", x as f32, z as f32);
            assert!(!colours.is_empty());
            let under = x.abs() <= 1 && z.abs() <= 1;
            let want = if under { 0 } else { 255 };
            assert!(
                colours.iter().all(|c| *c == want),
                "({x}, {z}): {colours:?}, want {want}"
            );
        }
    }
}

#[test]
fn ambient_occlusion_darkens_an_inner_corner_and_leaves_open_ground_alone() {
    let mut mat = MaterialId(0);
    let mut scene = scene_with(&mut mat);
    let sky = light(Light::Hemisphere {
        sky: [1.0; 3],
        ground: [1.0; 3],
        ao_strength: 1.0,
        ao_radius: 1.0,
    });
    let no_sun = light(Light::Sun {
        direction: Vec3::NEG_Y,
        color: [0.0; 3],
        intensity: 0.0,
        shadows: false,
    });
    // A wall at x = -4.25 facing +X, a hand's width from the floor's edge: a nook.
    // (A vertex exactly on the wall's plane is a degenerate case for any ray tracer.)
    let wall = Primitive::Plane {
        width: 8.0,
        depth: 8.0,
        standoff: 0.0,
    }
    .generate(mat)
    .expect("plane");
    let wall = mesh("Wall", wall).with_transform(Transform {
        translation: Vec3::new(-4.25, 4.0, 0.0),
        rotation: pebble_model::glam::Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2),
        scale: Vec3::ONE,
    });
    AddEntities::new("Add", vec![mesh("Floor", grid(4, mat)), wall, sky, no_sun])
        .apply(&mut scene)
        .expect("adds");
    let (_, map) = baked(&scene, None, 64);
    let corner = red_at(&map, "Floor", -4.0, 0.0);
    let farther = red_at(&map, "Floor", -3.0, 0.0);
    let open = red_at(&map, "Floor", 4.0, 0.0);
    // Cosine-weighted rays that reach the wall within 1 m from 0.25 m away: about a third.
    assert!(
        corner.iter().all(|c| (140..200).contains(c)),
        "the nook is occluded: {corner:?}"
    );
    assert!(
        farther.iter().zip(&corner).all(|(f, c)| f > c),
        "occlusion fades with distance: {farther:?} vs {corner:?}"
    );
    assert!(
        open.iter().all(|c| *c == 255),
        "open ground keeps full ambient: {open:?}"
    );
}

#[test]
fn the_bake_gives_the_same_bytes_on_one_thread_and_on_many() {
    let mut mat = MaterialId(0);
    let mut scene = scene_with(&mut mat);
    let block = Primitive::Cylinder {
        radius: 1.0,
        height: 2.0,
        sides: 12,
    };
    let lamp = light(Light::Omni {
        color: [1.0, 0.5, 0.2],
        radius: 6.0,
        intensity: 2.0,
        shadows: true,
        cone: None,
    })
    .with_transform(Transform::from_translation(Vec3::new(2.0, 3.0, 1.0)));
    AddEntities::new(
        "Add",
        vec![
            mesh("Floor", grid(5, mat)),
            mesh("Pillar", block.generate(mat).expect("cylinder")),
            lamp,
        ],
    )
    .apply(&mut scene)
    .expect("adds");
    let (one, _) = baked(&scene, Some(1), 16);
    let (many, _) = baked(&scene, Some(4), 16);
    assert!(one == many, "thread count changed the output");
}

/// A spot light above the floor, aimed straight down with a 20° cone, lights the
/// floor under it as the same omni light would, and leaves the floor outside the
/// cone as the sky alone does; without the cone, that floor is lit.
#[test]
fn a_spot_light_lights_only_inside_its_cone() {
    use pebble_model::entity::Cone;
    let bake = |cone: Option<Cone>| {
        let mut mat = MaterialId(0);
        let mut scene = scene_with(&mut mat);
        let lamp = light(Light::Omni {
            color: [1.0; 3],
            radius: 8.0,
            intensity: 1.0,
            shadows: false,
            cone,
        })
        // Aimed down: its −Z turned to −Y.
        .with_transform(Transform {
            translation: Vec3::new(0.0, 3.0, 0.0),
            rotation: pebble_model::glam::Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            scale: Vec3::ONE,
        });
        AddEntities::new("Add", vec![mesh("Floor", grid(5, mat)), lamp, dark_sky()])
            .apply(&mut scene)
            .expect("adds");
        baked(&scene, Some(1), 0).1
    };
    let spot = bake(Some(Cone {
        inner: 15f32.to_radians(),
        outer: 20f32.to_radians(),
    }));
    let omni = bake(None);
    let under = |m: &pbm::Map| red_at(m, "Floor", 0.0, 0.0)[0];
    let aside = |m: &pbm::Map| red_at(m, "Floor", 4.0, 0.0)[0];
    // 4 m aside at 3 m below is 53° off the axis: outside a 20° cone.
    assert_eq!(
        under(&spot),
        under(&omni),
        "inside the cone: the full light"
    );
    assert!(
        aside(&omni) > aside(&spot),
        "{} vs {}",
        aside(&omni),
        aside(&spot)
    );
    let dark = bake(Some(Cone {
        inner: 0.0,
        outer: 0.0,
    }));
    assert_eq!(
        aside(&spot),
        aside(&dark),
        "outside the cone: no light from it"
    );
}
