//! Locks the exporter's byte layout: a scene built here with atlas tiles, a blend
//! texture, a scrolling mesh, all three collider types, every metadata lump and
//! emitters is exported and the bytes are walked field by field.

use std::sync::atomic::AtomicBool;

use pebble_io::export::{ExportOptions, export};
use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::definitions::FieldValue;
use pebble_model::definitions::builtin::instance;
use pebble_model::entity::*;
use pebble_model::glam::{Vec2, Vec3};
use pebble_model::material::AlphaMode;
use pebble_model::{Command, Entity, EntityId, Material, Primitive, Scene, Transform};

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u16(&mut self) -> u16 {
        let v = u16::from_le_bytes([self.b[self.at], self.b[self.at + 1]]);
        self.at += 2;
        v
    }
    fn u32(&mut self) -> u32 {
        let v = u32::from_le_bytes(self.b[self.at..self.at + 4].try_into().expect("4 bytes"));
        self.at += 4;
        v
    }
    fn i32(&mut self) -> i32 {
        self.u32() as i32
    }
    fn f32(&mut self) -> f32 {
        f32::from_bits(self.u32())
    }
    fn name(&mut self) -> String {
        let raw = &self.b[self.at..self.at + 32];
        self.at += 32;
        let end = raw.iter().position(|c| *c == 0).expect("NUL-terminated");
        assert!(raw[end..].iter().all(|c| *c == 0), "NUL-padded");
        String::from_utf8(raw[..end].to_vec()).expect("ASCII")
    }
    fn skip(&mut self, n: usize) {
        self.at += n;
    }
}

fn scene(dir: &std::path::Path) -> Scene {
    for (name, c) in [
        ("brick", [180u8, 60, 40, 255]),
        ("moss", [40, 160, 40, 255]),
        ("water", [30, 60, 200, 128]),
        ("spark", [255, 200, 80, 255]),
    ] {
        image::RgbaImage::from_pixel(32, 32, image::Rgba(c))
            .save(dir.join(format!("{name}.png")))
            .expect("png");
    }
    let mut scene = Scene::new();
    let mut mats = Vec::new();
    for m in [
        Material {
            name: "Brick".into(),
            texture: Some("brick.png".into()),
            tile: true,
            ..Material::default()
        },
        Material {
            name: "Moss".into(),
            texture: Some("moss.png".into()),
            tile: true,
            alpha: AlphaMode::Cutout,
            ..Material::default()
        },
        Material {
            name: "Water".into(),
            texture: Some("water.png".into()),
            alpha: AlphaMode::Blend,
            uv_scroll: Vec2::new(0.0, -0.5),
            tiling: Vec2::splat(4.0),
            ..Material::default()
        },
    ] {
        let mut add = AddMaterial::new(m);
        add.apply(&mut scene).expect("material");
        mats.push(add.created().expect("id"));
    }
    let mesh = |name: &str, p: Primitive, mat, at: Vec3| {
        Entity::new(
            name,
            EntityKind::Mesh(MeshEntity {
                geometry: p.generate(mat).expect("primitive"),
                source: GeometrySource::Primitive(p),
                collidable: false,
            }),
        )
        .with_transform(Transform::from_translation(at))
    };
    let mut wall = mesh(
        "Wall",
        Primitive::Box { size: Vec3::ONE },
        mats[0],
        Vec3::new(0.0, 0.0, -3.0),
    );
    wall.id = EntityId(1);
    let entities = vec![
        wall,
        mesh(
            "Hedge",
            Primitive::Plane {
                width: 1.0,
                depth: 1.0,
                standoff: 0.0,
            },
            mats[1],
            Vec3::new(2.0, 0.0, 0.0),
        ),
        mesh(
            "Pool",
            Primitive::Plane {
                width: 3.0,
                depth: 3.0,
                standoff: 0.05,
            },
            mats[2],
            Vec3::ZERO,
        ),
        Entity::new(
            "Crate",
            EntityKind::Collider(Collider::Box { size: Vec3::ONE }),
        )
        .with_transform(Transform::from_translation(Vec3::new(2.0, 0.5, -2.0))),
        Entity::new(
            "Ramp",
            EntityKind::Collider(Collider::Ramp {
                size: Vec3::new(2.0, 1.0, 2.0),
            }),
        ),
        Entity::new(
            "WallCollider",
            EntityKind::Collider(Collider::TriMesh { mesh: EntityId(1) }),
        ),
        Entity::new(
            "Spawn",
            EntityKind::Defined(instance(
                "PlayerSpawn",
                [
                    ("yaw", FieldValue::Float(0.5f32.to_degrees())),
                    ("camera_fov", FieldValue::Float(70.0)),
                ],
            )),
        )
        .with_transform(Transform::from_translation(Vec3::new(0.0, 1.6, 4.0))),
        Entity::new(
            "Floor",
            EntityKind::Walkable(
                Primitive::Plane {
                    width: 8.0,
                    depth: 8.0,
                    standoff: 0.0,
                }
                .generate(mats[0])
                .expect("plane"),
            ),
        ),
        Entity::new(
            "Door",
            EntityKind::Defined(instance(
                "Trigger",
                [
                    ("size", FieldValue::Point(Vec3::new(2.0, 3.0, 1.0))),
                    ("event", FieldValue::Text("open".into())),
                    ("dialogue_id", FieldValue::Text("door_1".into())),
                    ("oneshot", FieldValue::Bool(true)),
                    ("properties", FieldValue::Text("{\"key\": 3}".into())),
                ],
            )),
        ),
        Entity::new(
            "Pit",
            EntityKind::Defined(instance(
                "BallPit",
                [
                    ("count", FieldValue::Int(16)),
                    ("radius", FieldValue::Float(0.22)),
                    ("mass", FieldValue::Float(1.0)),
                    ("restitution", FieldValue::Float(0.75)),
                    ("spawn_min", FieldValue::Point(Vec3::splat(-0.8))),
                    ("spawn_max", FieldValue::Point(Vec3::splat(0.8))),
                ],
            )),
        ),
        Entity::new(
            "Guard",
            EntityKind::Defined(instance(
                "Patrol",
                [
                    (
                        "waypoints",
                        FieldValue::Array(
                            [Vec3::ZERO, Vec3::X, Vec3::Z]
                                .map(FieldValue::Point)
                                .to_vec(),
                        ),
                    ),
                    ("radius", FieldValue::Float(0.35)),
                    ("color", FieldValue::Colour(0xFF00_FFFF)),
                    ("speed", FieldValue::Float(2.5)),
                ],
            )),
        ),
        Entity::new(
            "Quest",
            EntityKind::Custom(CustomEntity {
                tag: "quest".into(),
                json: "{\"stage\": 2}".into(),
            }),
        ),
        Entity::new(
            "Sparks",
            EntityKind::Emitter(Emitter {
                texture: Some("spark.png".into()),
                additive: true,
                count: 24,
                ..Emitter::default()
            }),
        )
        .with_transform(Transform::from_translation(Vec3::new(1.0, 1.0, 1.0))),
        Entity::new(
            "Smoke",
            EntityKind::Emitter(Emitter {
                count: 12,
                ..Emitter::default()
            }),
        ),
    ];
    AddEntities::new("Add", entities)
        .apply(&mut scene)
        .expect("adds");
    scene
}

#[test]
fn the_exported_bytes_walk_field_by_field() {
    let dir = std::env::temp_dir().join(format!("pebble-export-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let scene = scene(&dir);
    let mut options = ExportOptions::new(&dir);
    options.bake = false;
    let (b, _) = export(&scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    let mut r = Reader { b: &b, at: 0 };
    assert_eq!(&b[0..4], b"PBM3");
    r.skip(4);
    assert_eq!(r.u32(), 3);
    let (nt, nm, nc, nmeta) = (r.u32(), r.u32(), r.u32(), r.u32());
    assert_eq!((nc, nmeta), (3, 9));
    let spawn = [r.f32(), r.f32(), r.f32()];
    assert_eq!(spawn, [0.0, 1.6, 4.0]);
    assert_eq!(r.f32(), 0.5);
    r.skip(24); // bounds
    assert_eq!(r.at, 64);

    let mut textures = Vec::new();
    for _ in 0..nt {
        let name = r.name();
        let (w, h, format, alpha, size) = (r.u16(), r.u16(), r.u16(), r.u16(), r.u32());
        let bpp = if format == 0 { 4 } else { 2 };
        assert_eq!(size, u32::from(w) * u32::from(h) * bpp, "{name}");
        r.skip(size as usize);
        textures.push((name, w, format, alpha));
    }
    // Two atlases (opaque and cutout tiles, each sized to the one 32×32 tile it
    // holds), the blended water (8888) and the spark.
    assert!(
        textures
            .iter()
            .any(|t| t.0 == "TileAtlas_0" && t.1 == 32 && t.2 == 1 && t.3 == 0),
        "{textures:?}"
    );
    assert!(
        textures.iter().any(|t| t.0 == "TileAtlas_1" && t.3 == 1),
        "{textures:?}"
    );
    assert!(
        textures
            .iter()
            .any(|t| t.0 == "water" && t.2 == 0 && t.3 == 2),
        "{textures:?}"
    );
    assert!(textures.iter().any(|t| t.0 == "spark"), "{textures:?}");

    let mut classes = Vec::new();
    for _ in 0..nm {
        let name = r.name();
        let tex = r.i32();
        let n = r.u32();
        assert!(n > 0 && n.is_multiple_of(3) && n <= 384, "{name}: {n}");
        r.skip(24); // bounds
        let scroll = [r.f32(), r.f32()];
        let t = &textures[tex as usize];
        if name.starts_with("Pool") {
            assert_eq!(scroll, [0.0, -0.5], "the scrolling mesh keeps its scroll");
        } else {
            assert_eq!(scroll, [0.0, 0.0]);
        }
        classes.push(t.3);
        r.skip(n as usize * 24);
    }
    let mut sorted = classes.clone();
    sorted.sort();
    assert_eq!(classes, sorted, "opaque, then cutout, then blend");

    let mut kinds = Vec::new();
    for _ in 0..nc {
        let name = r.name();
        let kind = r.u32();
        r.skip(24);
        let tris = r.u32();
        r.skip(tris as usize * 36);
        kinds.push((name, kind, tris));
    }
    assert_eq!(
        kinds.iter().map(|k| k.1).collect::<Vec<_>>(),
        [0, 2, 1],
        "{kinds:?}"
    );
    assert_eq!(kinds[0].2, 0, "BOX has no triangles");
    assert_eq!(kinds[2].2, 12, "the wall's box");

    let mut tags = Vec::new();
    for _ in 0..nmeta {
        let tag = r.name();
        let kind = r.u32();
        let size = r.u32() as usize;
        let payload = &b[r.at..r.at + size];
        let pad = (4 - size % 4) % 4;
        assert!(
            b[r.at + size..r.at + size + pad].iter().all(|c| *c == 0),
            "{tag}: zero padding"
        );
        if kind == 1 || kind == 2 {
            assert_eq!(payload.last(), Some(&0), "{tag}: text ends with NUL");
        }
        if tag == "emitters" {
            assert_eq!(&payload[0..4], b"EMIT");
            assert_eq!(u32::from_le_bytes(payload[8..12].try_into().expect("4")), 2);
            assert_eq!(size, 16 + 2 * 176);
        }
        r.skip(size + pad);
        tags.push((tag, kind));
    }
    assert_eq!(
        tags,
        [
            ("map_name".into(), 1),
            ("env_preset".into(), 1),
            ("player_spawn".into(), 2),
            ("walkable_mesh".into(), 3),
            ("triggers".into(), 2),
            ("rigid_bodies".into(), 2),
            ("entities".into(), 3),
            ("quest".into(), 2),
            ("emitters".into(), 4),
        ]
    );
    assert_eq!(r.at, b.len(), "nothing after the last lump");
}
