//! The bundled showcase project (`pebble showcase DIR`, and the editor's first
//! start without a source tree): writes it — its generated
//! textures as PNG and the project file — built through the same undoable commands
//! the editor uses. `assets/showcase/` is its output, committed; a test checks that
//! the committed copy is exactly what this code writes.
//!
//! The scene: a stone courtyard walled on three sides, stairs up to a lookout and a
//! ramp down from it, a waterfall of two scrolling sheets over a foam sheet, a
//! campfire (flame flipbook, additive sparks, blended smoke), two torches, triggers,
//! a patrol, a ball pit, the player spawn, a sun, omni lights and sky light; and a
//! sample game's own kinds (`entities.ron`: an enemy on a patrol path, a door
//! linked to its lever, pickups).

use std::path::{Path, PathBuf};

use anyhow::Context;
use image::{Rgba, RgbaImage};
use pebble_model::command::{AddEntities, AddMaterial, SetSettings};
use pebble_model::definitions::FieldValue;
use pebble_model::definitions::builtin::instance;
use pebble_model::entity::{
    Collider, DefinedEntity, Emitter, EntityKind, GeometrySource, Light, MeshEntity,
};
use pebble_model::glam::{Quat, Vec2, Vec3};
use pebble_model::material::AlphaMode;
use pebble_model::mesh::{Face, MeshData};
use pebble_model::primitive::Primitive;
use pebble_model::{Command, Entity, Material, MaterialId, Scene, Transform, project};

/// The sample game's entity definitions, written beside the project.
pub const DEFINITIONS: &str = include_str!("../../../assets/showcase/entities.ron");
/// The Switch kind's model (a glTF as an exporter writes one, its buffer
/// embedded).
pub const LEVER_MODEL: &str = include_str!("../../../assets/showcase/models/lever.gltf");

/// The project file's name inside the folder.
pub const PROJECT_FILE: &str = "showcase.pebble.ron";

/// A small deterministic hash noise in [0, 1).
fn noise(x: u32, y: u32, seed: u32) -> f32 {
    pbm::particle::rand(seed, x.wrapping_mul(7919) ^ y, 0)
}

fn textures() -> Vec<(&'static str, RgbaImage)> {
    let stone = RgbaImage::from_fn(64, 64, |x, y| {
        let mortar = x % 32 < 2 || y % 32 < 2;
        let n = noise(x / 2, y / 2, 1) * 30.0;
        let v = if mortar { 70.0 } else { 140.0 + n } as u8;
        Rgba([
            v,
            (f32::from(v) * 0.95) as u8,
            (f32::from(v) * 0.85) as u8,
            255,
        ])
    });
    let bricks = RgbaImage::from_fn(64, 64, |x, y| {
        let row = y / 16;
        let shift = if row % 2 == 0 { 0 } else { 16 };
        let mortar = y % 16 < 2 || (x + shift) % 32 < 2;
        let n = noise((x + shift) / 32, row, 2) * 40.0;
        if mortar {
            Rgba([90, 85, 80, 255])
        } else {
            Rgba([(150.0 + n) as u8, (70.0 + n * 0.5) as u8, 50, 255])
        }
    });
    let wood = RgbaImage::from_fn(64, 64, |x, y| {
        let grain = ((y as f32 * 0.7 + (x as f32 * 0.3).sin() * 3.0).sin() * 0.5 + 0.5) * 40.0;
        Rgba([(110.0 + grain) as u8, (75.0 + grain * 0.6) as u8, 40, 255])
    });
    let water = RgbaImage::from_fn(32, 64, |x, y| {
        let streak = ((x as f32 * 1.3).sin() * 0.5 + 0.5) * noise(x, y / 8, 3);
        Rgba([
            (60.0 + 120.0 * streak) as u8,
            (130.0 + 100.0 * streak) as u8,
            (200.0 + 55.0 * streak) as u8,
            (150.0 + 80.0 * streak) as u8,
        ])
    });
    let foam = RgbaImage::from_fn(32, 32, |x, y| {
        let n = noise(x, y, 4);
        Rgba([240, 248, 255, (n * n * 230.0) as u8])
    });
    // Four flame frames in a 4×1 flipbook: a tongue that sways and narrows.
    let flame = RgbaImage::from_fn(128, 32, |x, y| {
        let frame = x / 32;
        let (fx, fy) = ((x % 32) as f32 - 15.5, 31.0 - y as f32);
        let sway = (frame as f32 * 1.7).sin() * 3.0 * fy / 32.0;
        let width = 12.0 * (1.0 - fy / 34.0);
        let d = ((fx - sway) / width.max(0.5)).abs();
        if d < 1.0 && fy < 31.0 {
            let heat = 1.0 - d;
            Rgba([
                255,
                (120.0 + 135.0 * heat) as u8,
                (40.0 * heat) as u8,
                (255.0 * heat) as u8,
            ])
        } else {
            Rgba([0, 0, 0, 0])
        }
    });
    let smoke = RgbaImage::from_fn(32, 32, |x, y| {
        let d = ((x as f32 - 15.5).powi(2) + (y as f32 - 15.5).powi(2)).sqrt() / 15.5;
        let a = (1.0 - d).max(0.0) * (0.6 + 0.4 * noise(x / 4, y / 4, 5));
        Rgba([120, 120, 125, (a * 200.0) as u8])
    });
    vec![
        ("textures/stone.png", stone),
        ("textures/bricks.png", bricks),
        ("textures/wood.png", wood),
        ("textures/water.png", water),
        ("textures/foam.png", foam),
        ("textures/flame.png", flame),
        ("textures/smoke.png", smoke),
    ]
}

/// `e`, a mesh, made collidable: play mode walks on it and into it.
fn solid(mut e: Entity) -> Entity {
    if let EntityKind::Mesh(m) = &mut e.kind {
        m.collidable = true;
    }
    e
}

fn mesh(
    name: &str,
    primitive: Primitive,
    material: MaterialId,
    at: Transform,
) -> anyhow::Result<Entity> {
    let geometry = primitive
        .generate(material)
        .with_context(|| format!("{name}: cannot build its {}", primitive.kind_name()))?;
    Ok(Entity::new(
        name,
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Primitive(primitive),
            geometry,
            collidable: false,
        }),
    )
    .with_transform(at))
}

/// The courtyard floor: 20 × 20 m in 1 m cells, so baked vertex light has
/// vertices to land on.
fn floor(material: MaterialId) -> Entity {
    let mut m = MeshData::default();
    let n = 20u32;
    for z in 0..=n {
        for x in 0..=n {
            m.positions
                .push(Vec3::new(x as f32 - 10.0, 0.0, z as f32 - 10.0));
        }
    }
    let uv = |k: u32| {
        let p = m_pos(k, n);
        Vec2::new(p.x, p.z)
    };
    for z in 0..n {
        for x in 0..n {
            let a = z * (n + 1) + x;
            let (b, c, d) = (a + 1, a + n + 2, a + n + 1);
            // Counter-clockwise seen from above (+Y).
            m.faces.push(Face {
                indices: [a, d, c],
                uvs: [uv(a), uv(d), uv(c)],
                material,
            });
            m.faces.push(Face {
                indices: [a, c, b],
                uvs: [uv(a), uv(c), uv(b)],
                material,
            });
        }
    }
    Entity::new(
        "Courtyard floor",
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Authored,
            geometry: m,
            // Walked on in play mode (and by the runtime's walking rules).
            collidable: true,
        }),
    )
}

fn m_pos(k: u32, n: u32) -> Vec3 {
    Vec3::new(
        (k % (n + 1)) as f32 - 10.0,
        0.0,
        (k / (n + 1)) as f32 - 10.0,
    )
}

fn at(x: f32, y: f32, z: f32) -> Transform {
    Transform::from_translation(Vec3::new(x, y, z))
}

/// The showcase scene; texture paths are relative to the project folder.
pub fn scene() -> anyhow::Result<Scene> {
    let mut scene = Scene::new();
    let mut material = |m: Material| -> anyhow::Result<MaterialId> {
        let mut add = AddMaterial::new(m);
        add.apply(&mut scene)?;
        add.created().context("the material was not created")
    };
    let tex = |p: &str| Some(p.to_string());
    let stone = material(Material {
        name: "Stone floor".into(),
        texture: tex("textures/stone.png"),
        tiling: Vec2::splat(2.0),
        ..Material::default()
    })?;
    let bricks = material(Material {
        name: "Brick wall".into(),
        texture: tex("textures/bricks.png"),
        tiling: Vec2::splat(1.5),
        ..Material::default()
    })?;
    let wood = material(Material {
        name: "Wood".into(),
        texture: tex("textures/wood.png"),
        tiling: Vec2::splat(1.0),
        ..Material::default()
    })?;
    let falling = |name: &str, speed: f32| Material {
        name: name.into(),
        texture: tex("textures/water.png"),
        alpha: AlphaMode::Blend,
        tiling: Vec2::new(1.0, 2.0),
        uv_scroll: Vec2::new(0.0, speed),
        double_sided: true,
        ..Material::default()
    };
    let water_back = material(falling("Waterfall (back)", 0.6))?;
    let water_front = material(falling("Waterfall (front)", 0.9))?;
    let foam = material(Material {
        name: "Foam".into(),
        texture: tex("textures/foam.png"),
        alpha: AlphaMode::Blend,
        tiling: Vec2::splat(1.0),
        uv_scroll: Vec2::new(0.15, 0.35),
        ..Material::default()
    })?;
    let ember = material(Material {
        name: "Embers".into(),
        color: [0.9, 0.35, 0.1, 1.0],
        ..Material::default()
    })?;

    let quarter = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let mut entities = vec![
        floor(stone),
        solid(mesh(
            "Back wall",
            Primitive::Box {
                size: Vec3::new(20.0, 5.0, 1.0),
            },
            bricks,
            at(0.0, 0.0, -10.5),
        )?),
        solid(mesh(
            "Left wall",
            Primitive::Box {
                size: Vec3::new(1.0, 4.0, 20.0),
            },
            bricks,
            at(-10.5, 0.0, 0.0),
        )?),
        solid(mesh(
            "Right wall",
            Primitive::Box {
                size: Vec3::new(1.0, 4.0, 20.0),
            },
            bricks,
            at(10.5, 0.0, 0.0),
        )?),
        mesh(
            "Lookout",
            Primitive::Box {
                size: Vec3::new(4.0, 2.0, 4.0),
            },
            bricks,
            at(6.5, 0.0, -7.5),
        )?,
        solid(mesh(
            "Stairs",
            Primitive::Stairs {
                steps: 8,
                width: 2.0,
                rise: 0.25,
                run: 0.35,
            },
            wood,
            at(6.5, 0.0, -4.1),
        )?),
        mesh(
            "Ramp",
            Primitive::Wedge {
                width: 2.0,
                height: 2.0,
                depth: 5.0,
            },
            stone,
            Transform {
                rotation: Quat::from_rotation_y(-std::f32::consts::FRAC_PI_2),
                ..at(1.5, 0.0, -7.5)
            },
        )?,
        mesh(
            "Waterfall back sheet",
            Primitive::Plane {
                width: 3.0,
                depth: 4.5,
                standoff: 0.0,
            },
            water_back,
            Transform {
                rotation: quarter,
                ..at(-5.0, 2.5, -9.95)
            },
        )?,
        mesh(
            "Waterfall front sheet",
            Primitive::Plane {
                width: 2.6,
                depth: 4.5,
                standoff: 0.0,
            },
            water_front,
            Transform {
                rotation: quarter,
                ..at(-5.0, 2.5, -9.8)
            },
        )?,
        mesh(
            "Foam",
            Primitive::Plane {
                width: 3.5,
                depth: 1.5,
                standoff: 0.02,
            },
            foam,
            at(-5.0, 0.0, -9.0),
        )?,
        mesh(
            "Campfire logs",
            Primitive::Cylinder {
                radius: 0.6,
                height: 0.25,
                sides: 8,
            },
            ember,
            at(0.0, 0.0, 0.0),
        )?,
        mesh(
            "Torch left",
            Primitive::Cylinder {
                radius: 0.08,
                height: 1.6,
                sides: 6,
            },
            wood,
            at(-3.0, 0.0, -9.7),
        )?,
        mesh(
            "Torch right",
            Primitive::Cylinder {
                radius: 0.08,
                height: 1.6,
                sides: 6,
            },
            wood,
            at(3.0, 0.0, -9.7),
        )?,
    ];
    let fire = |name: &str, count: u16, size: f32, at_: Transform| {
        Entity::new(
            name,
            EntityKind::Emitter(Emitter {
                texture: Some("textures/flame.png".into()),
                dir: Vec3::Y,
                spread: 0.15,
                speed: [0.4, 0.8],
                life: [0.5, 0.8],
                gravity: Vec3::new(0.0, 0.5, 0.0),
                size: [size, size * 1.3],
                size_mid: 1.0,
                size_end: 0.4,
                spawn_radius: size * 0.5,
                color_start: 0xFF_FF_FF_FF,
                color_mid: 0xFF_80_D0_FF,
                color_end: 0x00_20_60_FF,
                count,
                additive: true,
                y_locked: true,
                atlas_cols: 4,
                atlas_rows: 1,
                anim_loops: 3,
                ..Emitter::default()
            }),
        )
        .with_transform(at_)
    };
    entities.push(fire("Campfire flames", 24, 0.6, at(0.0, 0.2, 0.0)));
    entities.push(fire("Torch flame left", 8, 0.25, at(-3.0, 1.7, -9.7)));
    entities.push(fire("Torch flame right", 8, 0.25, at(3.0, 1.7, -9.7)));
    entities.push(
        Entity::new(
            "Campfire sparks",
            EntityKind::Emitter(Emitter {
                texture: None,
                dir: Vec3::Y,
                spread: 0.5,
                speed: [1.5, 3.0],
                life: [0.8, 1.6],
                gravity: Vec3::new(0.0, -1.0, 0.0),
                size: [0.05, 0.09],
                size_end: 0.3,
                wobble_amp: 0.1,
                wobble_freq: 2.0,
                color_start: 0xFF_60_D0_FF,
                color_mid: 0xFF_30_90_FF,
                color_end: 0x00_10_40_FF,
                count: 32,
                additive: true,
                ..Emitter::default()
            }),
        )
        .with_transform(at(0.0, 0.3, 0.0)),
    );
    entities.push(
        Entity::new(
            "Campfire smoke",
            EntityKind::Emitter(Emitter {
                texture: Some("textures/smoke.png".into()),
                dir: Vec3::Y,
                spread: 0.25,
                speed: [0.5, 0.9],
                life: [2.5, 3.5],
                gravity: Vec3::new(0.2, 0.1, 0.0),
                damping: 0.3,
                size: [0.6, 0.9],
                size_mid: 1.6,
                size_end: 2.4,
                spin: [-0.5, 0.5],
                color_start: 0x00_80_80_80,
                color_mid: 0x90_80_80_80,
                color_end: 0x00_90_90_90,
                count: 20,
                additive: false,
                ..Emitter::default()
            }),
        )
        .with_transform(at(0.0, 1.0, 0.0)),
    );
    let trigger = |name: &str, event: &str, size: Vec3, oneshot: bool, t: Transform| {
        Entity::new(
            name,
            EntityKind::Defined(instance(
                "Trigger",
                [
                    ("size", FieldValue::Point(size)),
                    ("event", FieldValue::Text(event.into())),
                    ("oneshot", FieldValue::Bool(oneshot)),
                ],
            )),
        )
        .with_transform(t)
    };
    entities.push(trigger(
        "Warmth",
        "campfire_warmth",
        Vec3::new(3.0, 2.0, 3.0),
        false,
        at(0.0, 0.0, 0.0),
    ));
    entities.push(trigger(
        "Lookout reached",
        "lookout",
        Vec3::new(4.0, 2.0, 4.0),
        true,
        at(6.5, 2.0, -7.5),
    ));
    // The route is the patrol's own: it starts where the patrol stands and moves
    // with it.
    entities.push(
        Entity::new(
            "Guard",
            EntityKind::Defined(instance(
                "Patrol",
                [
                    (
                        "waypoints",
                        FieldValue::Array(
                            [
                                Vec3::ZERO,
                                Vec3::new(0.0, 0.0, -11.0),
                                Vec3::new(5.0, 0.0, -5.5),
                            ]
                            .map(FieldValue::Point)
                            .to_vec(),
                        ),
                    ),
                    ("color", FieldValue::Colour(0xFF_30_30_D0)),
                ],
            )),
        )
        .with_transform(at(-7.0, 0.0, 6.0)),
    );
    entities.push(
        Entity::new(
            "Ball pit",
            EntityKind::Defined(instance(
                "BallPit",
                [
                    ("count", FieldValue::Int(16)),
                    ("radius", FieldValue::Float(0.22)),
                    ("mass", FieldValue::Float(1.0)),
                    ("spawn_min", FieldValue::Point(Vec3::new(-1.0, 0.5, -1.0))),
                ],
            )),
        )
        .with_transform(at(7.0, 0.0, 6.0)),
    );
    entities.push(
        Entity::new(
            "Ramp collider",
            EntityKind::Collider(Collider::Ramp {
                size: Vec3::new(2.0, 2.0, 5.0),
            }),
        )
        .with_transform(Transform {
            rotation: Quat::from_rotation_y(-std::f32::consts::FRAC_PI_2),
            ..at(1.5, 0.0, -7.5)
        }),
    );
    entities.push(
        Entity::new(
            "Lookout collider",
            EntityKind::Collider(Collider::Box {
                size: Vec3::new(4.0, 2.0, 4.0),
            }),
        )
        .with_transform(at(6.5, 0.0, -7.5)),
    );
    entities.push(
        Entity::new(
            "Player spawn",
            EntityKind::Defined(instance("PlayerSpawn", [])),
        )
        .with_transform(at(0.0, 1.6, 8.5)),
    );
    entities.push(Entity::new(
        "Sun",
        EntityKind::Light(Light::Sun {
            direction: Vec3::new(-0.5, -1.0, -0.4),
            color: [1.0, 0.92, 0.8],
            intensity: 0.9,
            shadows: true,
        }),
    ));
    entities.push(Entity::new(
        "Sky",
        EntityKind::Light(Light::Hemisphere {
            sky: [0.45, 0.5, 0.62],
            ground: [0.22, 0.2, 0.17],
            ao_strength: 0.6,
            ao_radius: 1.2,
        }),
    ));
    for (name, x, y, z, radius) in [
        ("Campfire light", 0.0, 1.0, 0.0, 7.0),
        ("Torch light left", -3.0, 1.9, -9.3, 4.5),
        ("Torch light right", 3.0, 1.9, -9.3, 4.5),
    ] {
        entities.push(
            Entity::new(
                name,
                EntityKind::Light(Light::Omni {
                    color: [1.0, 0.6, 0.3],
                    radius,
                    intensity: 1.2,
                    shadows: true,
                    cone: None,
                }),
            )
            .with_transform(at(x, y, z)),
        );
    }
    entities.extend(game_entities());
    AddEntities::new("Showcase", entities).apply(&mut scene)?;
    let mut settings = scene.settings().clone();
    settings.map_name = "Showcase Courtyard".into();
    SetSettings::new(settings).apply(&mut scene)?;
    Ok(scene)
}

/// The sample game's instances: a sentry on a patrol path, a gate linked to its
/// lever, coins and a health pack.
fn game_entities() -> Vec<Entity> {
    // A batch-local id: the gate's link names the lever by it (AddEntities maps it).
    const LEVER: pebble_model::EntityId = pebble_model::EntityId(90_001);
    let defined = |name: &str, kind: &str, t: Transform, values: Vec<(&str, FieldValue)>| {
        let mut d = DefinedEntity::new(kind);
        d.values = values.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        Entity::new(name, EntityKind::Defined(d)).with_transform(t)
    };
    let text = |s: &str| FieldValue::Text(s.into());
    let point = |x: f32, z: f32| FieldValue::Point(Vec3::new(x, 0.0, z));
    let mut lever = defined(
        "Gate lever",
        "Switch",
        at(-5.0, 0.0, -8.6),
        vec![("title", text("Gate lever"))],
    );
    lever.id = LEVER;
    vec![
        lever,
        defined(
            "North gate",
            "Door",
            at(0.0, 0.0, -9.4),
            vec![
                ("title", text("North gate")),
                ("key", FieldValue::Enum("Red".into())),
                ("switch", FieldValue::Entity(Some(LEVER))),
            ],
        ),
        defined(
            "Sentry",
            "Enemy",
            at(4.0, 0.0, 2.0),
            vec![
                ("title", text("Sentry")),
                ("health", FieldValue::Int(150)),
                ("speed", FieldValue::Float(1.8)),
                (
                    "path",
                    FieldValue::Array(vec![point(4.0, 2.0), point(4.0, -4.0), point(-4.0, -4.0)]),
                ),
            ],
        ),
        defined(
            "Coins by the fire",
            "Pickup",
            at(2.0, 0.4, 3.0),
            vec![("amount", FieldValue::Int(10))],
        ),
        defined(
            "Coins on the lookout",
            "Pickup",
            at(6.5, 2.4, -7.5),
            vec![("amount", FieldValue::Int(25))],
        ),
        defined(
            "Health pack",
            "Pickup",
            at(-6.0, 0.4, 7.0),
            vec![
                ("kind", FieldValue::Enum("Health".into())),
                ("amount", FieldValue::Int(50)),
                ("glow", FieldValue::Colour(0xFF60_60FF)),
            ],
        ),
    ]
}

/// Writes the textures and the project into `dir`; returns the project's path.
pub fn write(dir: &Path) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir.join("textures"))
        .with_context(|| format!("cannot create {}", dir.join("textures").display()))?;
    for (path, image) in textures() {
        super::pictures::write_png(&dir.join(path), &image)?;
    }
    let definitions = dir.join(pebble_model::definitions::FILE_NAME);
    pbm::file::write_atomic(&definitions, DEFINITIONS.as_bytes())
        .with_context(|| format!("cannot write {}", definitions.display()))?;
    let lever = dir.join("models/lever.gltf");
    std::fs::create_dir_all(dir.join("models"))
        .with_context(|| format!("cannot create {}", dir.join("models").display()))?;
    pbm::file::write_atomic(&lever, LEVER_MODEL.as_bytes())
        .with_context(|| format!("cannot write {}", lever.display()))?;
    let project_path = dir.join(PROJECT_FILE);
    project::save(&project_path, &scene()?)?;
    Ok(project_path)
}

/// The bundled showcase, opened when no project is named.
pub fn showcase_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/showcase/showcase.pebble.ron")
}

/// Whether this program runs from cargo's build folder (`cargo run`, the tests):
/// only then is the source tree it was built from its own. Told by the folder
/// cargo keeps beside every binary it builds (`target/debug/.fingerprint`), which
/// an installed or unpacked copy does not have.
pub fn run_from_build_folder() -> bool {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(".fingerprint").is_dir()))
        .unwrap_or(false)
}

/// `pebble`'s default project (the editor's `default_project`) with the source tree's showcase at `source` and the user's
/// data folder `data` (`None`: the temporary folder). A copy already there is
/// opened as it is: it may hold the user's edits.
pub fn default_project_in(source: &Path, data: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    if source.is_file() {
        return Ok(source.to_path_buf());
    }
    let dir = data.unwrap_or_else(std::env::temp_dir).join("showcase");
    let project = dir.join(PROJECT_FILE);
    if !project.is_file() {
        write(&dir).with_context(|| {
            format!(
                "cannot write the showcase project into {} (open a project instead: pebble open PROJECT)",
                dir.display()
            )
        })?;
    }
    Ok(project)
}
