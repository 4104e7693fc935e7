//! Export: scenes imported from the v3 fixtures export to maps whose decoded content
//! matches the fixtures; chunking, names and determinism.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use pbm::{ColliderKind, Map};
use pebble_io::export::{ExportOptions, export};
use pebble_io::import::{ImportOptions, import_file};
use pebble_model::{History, Scene};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pbm/tests/fixtures")
        .join(format!("{name}.pbm"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

fn imported(name: &str) -> (Scene, PathBuf) {
    // A folder per call: tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch(&format!("{name}-{call}"));
    let done =
        import_file(&fixture(name), &ImportOptions::new(&dir), &mut |_| {}).expect("imports");
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, done.command)
        .expect("applies");
    (scene, dir)
}

fn export_map(scene: &Scene, dir: &Path) -> (Vec<u8>, Map) {
    let mut options = ExportOptions::new(dir);
    options.bake = false;
    // Layout and fidelity checks see the triangles as authored (cutting for the GE
    // is tested on its own below).
    options.max_extent = 0.0;
    let (bytes, report) =
        export(scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    assert_eq!(report.bytes, bytes.len());
    let (map, _) = Map::read(&bytes).expect("our export reads");
    (bytes, map)
}

type TriKey = Vec<[i64; 8]>;

/// A 1 m plane of `material` named `name`, `x` metres along +X.
fn plane_at(
    name: impl Into<String>,
    material: pebble_model::MaterialId,
    x: f32,
) -> pebble_model::Entity {
    use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
    let p = pebble_model::Primitive::Plane {
        width: 1.0,
        depth: 1.0,
        standoff: 0.0,
    };
    pebble_model::Entity::new(
        name,
        EntityKind::Mesh(MeshEntity {
            geometry: p.generate(material).expect("plane"),
            source: GeometrySource::Primitive(p),
            collidable: false,
        }),
    )
    .with_transform(pebble_model::Transform::from_translation(
        pebble_model::glam::Vec3::X * x,
    ))
}

/// Triangles per texture name, quantised (positions to 1e-4 m), sorted.
fn triangles_by_texture(map: &Map) -> BTreeMap<String, TriKey> {
    let mut out: BTreeMap<String, TriKey> = BTreeMap::new();
    for m in &map.meshes {
        let tex = usize::try_from(m.texture_id)
            .ok()
            .and_then(|i| map.textures.get(i))
            .map(|t| t.name.as_str().to_owned())
            .unwrap_or_default();
        let q = |v: f32| (f64::from(v) * 1e4).round() as i64;
        for v in &m.vertices {
            out.entry(tex.clone()).or_default().push([
                q(v.pos[0]),
                q(v.pos[1]),
                q(v.pos[2]),
                q(v.uv[0]),
                q(v.uv[1]),
                i64::from(v.color),
                q(m.uv_scroll[0]),
                q(m.uv_scroll[1]),
            ]);
        }
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

fn json_of(map: &Map, tag: &str) -> Option<Value> {
    map.metadata_by_tag(tag)
        .and_then(|m| m.as_text())
        .and_then(|t| serde_json::from_str(t).ok())
}

fn close(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.as_f64().unwrap_or(0.0) - y.as_f64().unwrap_or(0.0)).abs() < 1e-4
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| close(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn v3_fixtures_survive_import_then_export() {
    for name in ["basic", "full", "full_emitters"] {
        let original = Map::read(&std::fs::read(fixture(name)).expect("fixture"))
            .expect("reads")
            .0;
        let (scene, dir) = imported(name);
        let (_, map) = export_map(&scene, &dir);
        assert!(pbm::compliance::check(&map).is_empty());

        // Textures: same names, sizes, formats, alpha and texels.
        let textures = |m: &Map| {
            m.textures
                .iter()
                .map(|t| {
                    (
                        t.name.as_str().to_owned(),
                        (t.width, t.height, t.format, t.alpha_mode, t.data.clone()),
                    )
                })
                .collect::<BTreeMap<_, _>>()
        };
        assert!(
            textures(&map) == textures(&original),
            "{name}: textures differ"
        );
        // Geometry per texture (chunk boundaries may differ).
        assert_eq!(
            triangles_by_texture(&map),
            triangles_by_texture(&original),
            "{name}: geometry differs"
        );
        // Colliders: kinds, names and bounds; TRIMESH triangles too.
        assert_eq!(map.colliders.len(), original.colliders.len());
        for o in &original.colliders {
            let c = map
                .colliders
                .iter()
                .find(|c| c.name == o.name)
                .unwrap_or_else(|| panic!("{name}: collider {} missing", o.name));
            assert_eq!(c.kind, o.kind);
            for k in 0..3 {
                assert!(
                    (c.bounds_min[k] - o.bounds_min[k]).abs() < 1e-4
                        && (c.bounds_max[k] - o.bounds_max[k]).abs() < 1e-4,
                    "{name}: {} bounds",
                    o.name
                );
            }
            if o.kind == ColliderKind::TriMesh {
                assert_eq!(c.triangles.len(), o.triangles.len());
            }
        }
        // Metadata: every lump of the fixture is there with the same content.
        for m in &original.metadata {
            let tag = m.tag.as_str();
            let ours = map
                .metadata_by_tag(tag)
                .unwrap_or_else(|| panic!("{name}: lump {tag} missing"));
            assert_eq!(ours.kind, m.kind, "{name}: {tag} type");
            match m.kind {
                pbm::MetaKind::Json => assert!(
                    close(
                        &json_of(&map, tag).expect("json"),
                        &json_of(&original, tag).expect("json")
                    ),
                    "{name}: {tag}: {:?} vs {:?}",
                    ours.as_text(),
                    m.as_text()
                ),
                pbm::MetaKind::String => assert_eq!(ours.as_text(), m.as_text()),
                _ if tag == "walkable_mesh" => {
                    let f = |p: &[u8]| {
                        p.chunks_exact(4)
                            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                            .collect::<Vec<_>>()
                    };
                    assert!(
                        f(&ours.payload)
                            .iter()
                            .zip(f(&m.payload))
                            .all(|(a, b)| (a - b).abs() < 1e-4)
                    );
                }
                _ => assert_eq!(ours.payload, m.payload, "{name}: {tag} payload"),
            }
        }
        // Emitters: the same field after the runtime's sanitising.
        let field = |m: &Map| m.particle_field(&mut |_| {});
        let (a, b) = (field(&map), field(&original));
        if let Some(k) = (0..a.particles.len().max(b.particles.len()))
            .find(|k| a.particles.get(*k) != b.particles.get(*k))
        {
            panic!(
                "{name}: particle {k} of {} / {}: ours {:?}, the fixture's {:?}",
                a.particles.len(),
                b.particles.len(),
                a.particles.get(k),
                b.particles.get(k)
            );
        }
        assert_eq!(a.emitters.len(), b.emitters.len());
        for (x, y) in a.emitters.iter().zip(&b.emitters) {
            let tex = |m: &Map, id: i32| {
                usize::try_from(id)
                    .ok()
                    .and_then(|i| m.textures.get(i))
                    .map(|t| t.name)
            };
            assert_eq!(
                tex(&map, x.params.texture_id),
                tex(&original, y.params.texture_id)
            );
            let mut xp = x.params;
            xp.texture_id = y.params.texture_id;
            assert_eq!(xp, y.params, "{name}: emitter {}", y.params.name);
        }
        assert!((0..3).all(|k| (map.spawn_pos[k] - original.spawn_pos[k]).abs() < 1e-5));
    }
}

#[test]
fn export_is_deterministic_and_chunks_respect_the_budget() {
    use pebble_model::command::{AddEntities, AddMaterial};
    use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
    use pebble_model::glam::Vec3;
    use pebble_model::{Command, Entity, Material, Primitive};
    let mut scene = Scene::new();
    let mut add = AddMaterial::new(Material {
        name: "Plain".into(),
        ..Material::default()
    });
    add.apply(&mut scene).expect("material");
    let mat = add.created().expect("id");
    // A 40-step staircase: 40 boxes × 12 triangles = 480 triangles in one entity.
    let p = Primitive::Stairs {
        steps: 40,
        width: 2.0,
        rise: 0.2,
        run: 0.3,
    };
    let geometry = p.generate(mat).expect("stairs");
    let long_name = "A very long staircase name that will not fit";
    let e = Entity::new(
        long_name,
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Primitive(p),
            geometry,
            collidable: true,
        }),
    );
    AddEntities::new("Add", vec![e])
        .apply(&mut scene)
        .expect("adds");
    let dir = scratch("chunks");
    let (a, map) = export_map(&scene, &dir);
    let (b, _) = export_map(&scene, &dir);
    assert!(a == b, "same scene, same bytes");
    assert_eq!(
        map.meshes.len(),
        4,
        "480 triangles need ⌈480 / 128⌉ = 4 chunks, no more"
    );
    let mut names = std::collections::HashSet::new();
    for m in &map.meshes {
        assert!(m.vertices.len() <= 384 && m.vertices.len() % 3 == 0);
        assert!(
            m.name.as_str().len() <= 31 && names.insert(m.name.as_str().to_owned()),
            "{}",
            m.name
        );
        let (lo, hi) = m.vertex_bounds().expect("bounds");
        assert_eq!((lo, hi), (m.bounds_min, m.bounds_max), "exact bounds");
    }
    assert_eq!(
        map.meshes.iter().map(|m| m.vertices.len()).sum::<usize>(),
        480 * 3
    );
    assert_eq!(
        map.colliders.len(),
        1,
        "a collidable mesh becomes a TRIMESH"
    );
    let _ = Vec3::ZERO;
}

#[test]
fn a_cancelled_export_stops_with_an_error_and_progress_is_reported_per_stage() {
    let (scene, dir) = imported("full");
    let mut options = ExportOptions::new(&dir);
    options.bake = false;
    let cancel = AtomicBool::new(true);
    let err = export(&scene, &options, &mut |_| {}, &cancel).expect_err("cancelled");
    assert!(
        matches!(err, pebble_io::export::ExportError::Cancelled),
        "{err}"
    );
    let mut stages = Vec::new();
    export(
        &scene,
        &options,
        &mut |p| {
            assert!(p.done <= p.total, "{p:?}");
            if p.done == p.total {
                stages.push(p.stage)
            }
        },
        &AtomicBool::new(false),
    )
    .expect("exports");
    assert_eq!(
        stages,
        ["textures", "geometry", "colliders", "metadata", "write"]
    );
}

#[test]
fn tiles_pack_into_atlases_edge_to_edge_and_the_rest_stays_standalone() {
    use pebble_model::command::{AddEntities, AddMaterial};
    use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
    use pebble_model::glam::{Vec2, Vec3};
    use pebble_model::{Command, Entity, Material, Primitive};
    let dir = scratch("atlas");
    let colours = [[200u8, 10, 10, 255], [10, 200, 10, 255], [10, 10, 200, 255]];
    for (k, c) in colours.iter().enumerate() {
        image::RgbaImage::from_pixel(64, 32, image::Rgba(*c))
            .save(dir.join(format!("tile{k}.png")))
            .expect("png");
    }
    let mut scene = Scene::new();
    let mut mats = Vec::new();
    for (k, (scroll, name)) in [
        (Vec2::ZERO, "A"),
        (Vec2::ZERO, "B"),
        (Vec2::new(0.0, 1.0), "Scrolling"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut add = AddMaterial::new(Material {
            name: name.into(),
            texture: Some(format!("tile{k}.png")),
            tile: true,
            uv_scroll: scroll,
            ..Material::default()
        });
        add.apply(&mut scene).expect("material");
        mats.push(add.created().expect("id"));
    }
    // A 1 m plane keeps its UVs in [0, 1]; a 3 m plane repeats the tile.
    let plane = |w: f32, mat| {
        let p = Primitive::Plane {
            width: w,
            depth: 1.0,
            standoff: 0.0,
        };
        Entity::new(
            format!("Plane {w}"),
            EntityKind::Mesh(MeshEntity {
                geometry: p.generate(mat).expect("plane"),
                source: GeometrySource::Primitive(p),
                collidable: false,
            }),
        )
    };
    let entities = vec![
        plane(1.0, mats[0]),
        plane(3.0, mats[1])
            .with_transform(pebble_model::Transform::from_translation(Vec3::X * 5.0)),
        plane(1.0, mats[2])
            .with_transform(pebble_model::Transform::from_translation(Vec3::X * 10.0)),
    ];
    AddEntities::new("Add", entities)
        .apply(&mut scene)
        .expect("adds");
    let mut options = ExportOptions::new(&dir);
    options.bake = false;
    let (bytes, report) =
        export(&scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    let map = Map::read(&bytes).expect("reads").0;
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("'B'") && w.contains("leave [0, 1]")),
        "{:?}",
        report.warnings
    );
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("'Scrolling'") && w.contains("never atlased")),
        "{:?}",
        report.warnings
    );
    let atlas = map
        .textures
        .iter()
        .position(|t| t.name.as_str() == "TileAtlas_0")
        .expect("an atlas");
    // Sized to its content: the one 64×32 tile, not a 512×512 atlas.
    let (aw, ah) = (map.textures[atlas].width, map.textures[atlas].height);
    assert_eq!((aw, ah), (64, 32));
    let (awf, ahf) = (f32::from(aw), f32::from(ah));
    let (aws, ahs) = (usize::from(aw), usize::from(ah));
    assert_eq!(
        map.textures.len(),
        3,
        "one atlas and two standalone textures"
    );
    // The atlased plane samples its own tile everywhere inside its UV rectangle.
    let texels = pbm::texture::decode(&map.textures[atlas].data, map.textures[atlas].format);
    let mesh = map
        .meshes
        .iter()
        .find(|m| m.texture_id == atlas as i32)
        .expect("atlased mesh");
    let (mut lo, mut hi) = ([1.0f32; 2], [0.0f32; 2]);
    for v in &mesh.vertices {
        for k in 0..2 {
            lo[k] = lo[k].min(v.uv[k]);
            hi[k] = hi[k].max(v.uv[k]);
        }
    }
    assert!(
        (hi[0] - lo[0] - 64.0 / awf).abs() < 1e-6 && (hi[1] - lo[1] - 32.0 / ahf).abs() < 1e-6,
        "edge to edge: {lo:?} {hi:?}"
    );
    for (u, v) in [
        (lo[0], lo[1]),
        (hi[0], hi[1]),
        ((lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0),
    ] {
        let x = ((u * awf) as usize)
            .min(aws - 1)
            .min((hi[0] * awf) as usize - 1);
        let y = ((v * ahf) as usize)
            .min(ahs - 1)
            .min((hi[1] * ahf) as usize - 1);
        let px = &texels[(y * aws + x) * 4..(y * aws + x) * 4 + 3];
        assert!(
            px[0] > 150 && px[1] < 60,
            "texel at ({x}, {y}) is the red tile: {px:?}"
        );
    }
    assert!(pbm::compliance::check(&map).is_empty());
}

/// What the bake needs cut, and only that: a 21 m floor of two triangles lit by
/// the sun alone stays whole (its corners light and fog it evenly; cutting it
/// made real levels 1.2–3× their triangles); a torch (a point light reaching
/// 4 m) over one end has it cut on the default 8 m grid (a pool of light needs
/// vertices inside it), its area kept; a 70 m floor is cut on the coarse 32 m
/// grid wherever it is (fog changes over that).
#[test]
fn large_triangles_are_cut_where_the_bake_needs_it() {
    use pebble_model::command::{AddEntities, AddMaterial};
    use pebble_model::entity::{EntityKind, GeometrySource, Light, MeshEntity};
    use pebble_model::{Command, Entity, Material, Primitive, Transform};
    let floor = |scene: &mut Scene, width: f32| {
        let mut add = AddMaterial::new(Material::default());
        add.apply(scene).expect("material");
        let mat = add.created().expect("id");
        let p = Primitive::Plane {
            width,
            depth: 9.0,
            standoff: 0.0,
        };
        let geometry = p.generate(mat).expect("plane");
        AddEntities::new(
            "Add",
            vec![Entity::new(
                "Courtyard floor",
                EntityKind::Mesh(MeshEntity {
                    source: GeometrySource::Primitive(p),
                    geometry,
                    collidable: false,
                }),
            )],
        )
        .apply(scene)
        .expect("adds");
    };
    let dir = scratch("cut");
    let options = ExportOptions {
        bake: false,
        ..ExportOptions::new(&dir)
    };
    assert_eq!(options.max_extent, 8.0);
    let pieces = |scene: &Scene| {
        let (bytes, _) =
            export(scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
        let (map, _) = Map::read(&bytes).expect("reads");
        let mut area = 0.0f32;
        let mut largest = 0.0f32;
        let mut triangles = 0;
        for m in &map.meshes {
            for t in m.vertices.chunks_exact(3) {
                let p = |k: usize| pebble_model::glam::Vec3::from(t[k].pos);
                area += (p(1) - p(0)).cross(p(2) - p(0)).length() * 0.5;
                for axis in 0..3 {
                    let lo = t.iter().map(|v| v.pos[axis]).fold(f32::MAX, f32::min);
                    let hi = t.iter().map(|v| v.pos[axis]).fold(f32::MIN, f32::max);
                    largest = largest.max(hi - lo);
                }
                triangles += 1;
            }
        }
        (triangles, largest, area)
    };
    let mut sunlit = Scene::new();
    floor(&mut sunlit, 21.0);
    let (triangles, largest, area) = pieces(&sunlit);
    assert_eq!(triangles, 2, "whole in the sun");
    assert!((largest - 21.0).abs() < 1e-3 && (area - 21.0 * 9.0).abs() < 1e-2);

    let mut torchlit = sunlit.clone();
    AddEntities::new(
        "Add",
        vec![
            Entity::new(
                "Torch",
                EntityKind::Light(Light::Omni {
                    color: [1.0, 0.8, 0.5],
                    radius: 4.0,
                    intensity: 1.0,
                    shadows: false,
                    cone: None,
                }),
            )
            .with_transform(Transform::from_translation(
                pebble_model::glam::Vec3::new(9.0, 1.5, 0.0),
            )),
        ],
    )
    .apply(&mut torchlit)
    .expect("a torch");
    let (triangles, largest, area) = pieces(&torchlit);
    assert!(largest <= 8.0 + 1e-4, "a triangle spans {largest} m");
    assert!((area - 21.0 * 9.0).abs() < 1e-2, "area {area}");
    // 21 × 9 m on an 8 m grid: 3 × 2 cells, each at least one triangle.
    assert!(triangles >= 3 * 2, "{triangles} pieces");

    let mut wide = Scene::new();
    floor(&mut wide, 70.0);
    let (triangles, largest, area) = pieces(&wide);
    assert!(
        largest <= 32.0 + 1e-4 && triangles >= 3,
        "{triangles} pieces, {largest} m"
    );
    assert!((area - 70.0 * 9.0).abs() < 1e-1, "area {area}");
}

/// A double-sided face is written once, whatever its material: cutouts and blends
/// are drawn unculled anyway, and an opaque double-sided mesh is named in the
/// `double_sided` lump, which the runtime draws with culling off.
#[test]
fn double_sided_faces_are_written_once_and_opaque_ones_named_in_the_lump() {
    use pebble_model::command::{AddEntities, AddMaterial};
    use pebble_model::material::AlphaMode;
    use pebble_model::{Command, Material};
    let dir = scratch("double-sided");
    let mut scene = Scene::new();
    let mut entities = Vec::new();
    for (k, (name, alpha)) in [
        ("opaque", AlphaMode::None),
        ("cutout", AlphaMode::Cutout),
        ("blend", AlphaMode::Blend),
    ]
    .into_iter()
    .enumerate()
    {
        let a = if alpha == AlphaMode::None { 255 } else { 128 };
        image::RgbaImage::from_pixel(16, 16, image::Rgba([200, 100, 50, a]))
            .save(dir.join(format!("{name}.png")))
            .expect("png");
        let mut add = AddMaterial::new(Material {
            name: name.into(),
            texture: Some(format!("{name}.png")),
            alpha,
            double_sided: true,
            ..Material::default()
        });
        add.apply(&mut scene).expect("material");
        let mat = add.created().expect("id");
        entities.push(plane_at(name, mat, k as f32 * 2.0));
    }
    AddEntities::new("Add", entities)
        .apply(&mut scene)
        .expect("adds");
    let (_, map) = export_map(&scene, &dir);
    let triangles = |name: &str| -> usize {
        map.meshes
            .iter()
            .filter(|m| {
                usize::try_from(m.texture_id)
                    .ok()
                    .and_then(|i| map.textures.get(i))
                    .is_some_and(|t| t.name.as_str().starts_with(name))
            })
            .map(|m| m.vertices.len() / 3)
            .sum()
    };
    for name in ["opaque", "cutout", "blend"] {
        assert_eq!(triangles(name), 2, "{name}");
    }
    let lump = map
        .metadata
        .iter()
        .find(|m| m.tag.as_str() == pbm::double_sided::DOUBLE_SIDED_TAG)
        .expect("a double_sided lump");
    let named: Vec<&str> = pbm::double_sided::decode(&lump.payload)
        .into_iter()
        .map(|i| {
            let m = &map.meshes[i as usize];
            map.textures[m.texture_id as usize].name.as_str()
        })
        .collect();
    assert_eq!(named, ["opaque"]);
}

/// Hiding is a view setting: a hidden floor, a hidden emitter, a hidden light and
/// a whole hidden layer are exported exactly as if they were shown.
#[test]
fn hidden_entities_and_layers_are_exported_as_if_shown() {
    use pebble_model::command::{SetEntity, SetLayers};
    let showcase =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/showcase/showcase.pebble.ron");
    let mut scene = pebble_model::project::load(&showcase).expect("loads the showcase");
    let dir = showcase.parent().expect("its folder").to_path_buf();
    let (shown, shown_map) = export_map(&scene, &dir);
    let mut history = History::default();
    let mut hidden = Vec::new();
    for kind in ["mesh", "emitter", "light"] {
        let e = scene
            .entities()
            .find(|e| {
                let k = &e.kind;
                match kind {
                    "mesh" => matches!(k, pebble_model::entity::EntityKind::Mesh(_)),
                    "emitter" => matches!(k, pebble_model::entity::EntityKind::Emitter(_)),
                    _ => matches!(k, pebble_model::entity::EntityKind::Light(_)),
                }
            })
            .unwrap_or_else(|| panic!("the showcase has a {kind}"))
            .clone();
        // Hiding is a view setting, outside the History.
        hidden.push(e.name.clone());
        assert_eq!(scene.set_visible(&[e.id], false), 1, "hides");
    }
    let mut layers = scene.data().layers.clone();
    for l in &mut layers {
        l.visible = false;
    }
    history
        .execute(&mut scene, SetLayers::new(layers))
        .expect("hides the layers");
    assert!(
        scene.entities().all(|e| !scene.is_drawn(e.id)),
        "everything is hidden in the editor"
    );
    let (bytes, map) = export_map(&scene, &dir);
    assert_eq!(
        map.meshes.len(),
        shown_map.meshes.len(),
        "hidden {hidden:?}: meshes"
    );
    assert_eq!(map.colliders.len(), shown_map.colliders.len(), "colliders");
    assert!(
        bytes == shown,
        "the map of a hidden scene differs from the shown one"
    );

    // Leaving out is explicit: the floor's export turned off takes its mesh and its
    // collider out of the map, and the report says so by name.
    let floor = scene
        .entities()
        .find(|e| e.name == "Courtyard floor")
        .expect("the showcase's floor")
        .clone();
    let mut after = floor.clone();
    after.exported = false;
    history
        .execute(&mut scene, SetEntity::new("Leave out", after))
        .expect("leaves it out");
    let mut options = ExportOptions::new(&dir);
    options.bake = false;
    options.max_extent = 0.0;
    let (bytes, report) =
        export(&scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    let (map, _) = Map::read(&bytes).expect("reads");
    assert_eq!(report.left_out, vec!["Courtyard floor".to_string()]);
    assert!(
        !map.meshes
            .iter()
            .any(|m| m.name.as_str().starts_with("Courtyard floor")),
        "the floor's mesh is left out"
    );
    assert_eq!(
        map.colliders.len() + 1,
        shown_map.colliders.len(),
        "and its collider"
    );
    assert!(map.meshes.len() < shown_map.meshes.len());
}

/// Atlases take the smallest power-of-two rectangle their tiles fit: five tiles
/// (a 128×64 billboard and four 32×32 decals) fill a 128×128 atlas, not 512×512,
/// and the texture bytes the map holds shrink with it.
#[test]
fn atlases_are_sized_to_their_tiles() {
    use pebble_model::command::{AddEntities, AddMaterial};
    use pebble_model::{Command, Material};
    let dir = scratch("atlas-size");
    let sizes = [(128u32, 64u32), (32, 32), (32, 32), (32, 32), (32, 32)];
    let mut scene = Scene::new();
    let mut entities = Vec::new();
    for (k, (w, h)) in sizes.into_iter().enumerate() {
        image::RgbaImage::from_pixel(w, h, image::Rgba([40 * k as u8, 90, 200, 255]))
            .save(dir.join(format!("tile{k}.png")))
            .expect("png");
        let mut add = AddMaterial::new(Material {
            name: format!("Tile {k}"),
            texture: Some(format!("tile{k}.png")),
            tile: true,
            ..Material::default()
        });
        add.apply(&mut scene).expect("material");
        let mat = add.created().expect("id");
        entities.push(plane_at(format!("Decal {k}"), mat, 2.0 * k as f32));
    }
    AddEntities::new("Add", entities)
        .apply(&mut scene)
        .expect("adds");
    let mut options = ExportOptions::new(&dir);
    options.bake = false;
    let (bytes, report) =
        export(&scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    let map = Map::read(&bytes).expect("reads").0;
    let atlases: Vec<&pbm::Texture> = map.textures.iter().filter(|t| t.is_atlas()).collect();
    assert_eq!(atlases.len(), 1, "one atlas");
    assert_eq!((atlases[0].width, atlases[0].height), (128, 128));
    // 128 × 128 texels of 2 bytes, where a 512 × 512 atlas held 512 KiB.
    assert_eq!(atlases[0].data.len(), 128 * 128 * 2);
    assert!(
        report.texture_bytes < 64 * 1024,
        "{} bytes",
        report.texture_bytes
    );
    assert!(pbm::compliance::check(&map).is_empty());
}

/// A level without a player spawn (as most imported levels are) starts the player
/// standing on its largest floor, near its middle but not under the table that
/// stands there, rather than at the origin (here 4 m above the floor); the export
/// says so.
#[test]
fn a_map_without_a_spawn_starts_on_its_largest_floor() {
    use pebble_model::command::AddEntities;
    use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
    use pebble_model::glam::Vec3;
    use pebble_model::{Command, Entity, Primitive, Transform};
    let dir = scratch("spawn");
    let mut scene = Scene::new();
    let mut material = pebble_model::command::AddMaterial::new(pebble_model::Material::default());
    material.apply(&mut scene).expect("a material");
    let stone = material.created().expect("its id");
    let block = |name: &str, size: Vec3, at: Vec3| {
        let p = Primitive::Box { size };
        Entity::new(
            name,
            EntityKind::Mesh(MeshEntity {
                geometry: p.generate(stone).expect("a box"),
                source: GeometrySource::Primitive(p),
                collidable: true,
            }),
        )
        .with_transform(Transform::from_translation(at))
    };
    AddEntities::new(
        "Add",
        vec![
            block(
                "Ground",
                Vec3::new(20.0, 1.0, 20.0),
                Vec3::new(0.0, -5.0, 0.0),
            ),
            block("Table", Vec3::new(3.0, 1.0, 3.0), Vec3::new(0.0, -4.0, 0.0)),
        ],
    )
    .apply(&mut scene)
    .expect("adds");
    let options = {
        let mut o = ExportOptions::new(&dir);
        o.bake = false;
        o
    };
    let (bytes, report) =
        export(&scene, &options, &mut |_| {}, &AtomicBool::new(false)).expect("exports");
    let map = Map::read(&bytes).expect("reads").0;
    let [x, y, z] = map.spawn_pos;
    assert!(
        (y - (-4.0 + 1.6)).abs() < 1e-3,
        "the eye stands on the ground: {:?}",
        map.spawn_pos
    );
    assert!(
        x.abs() < 10.0 && z.abs() < 10.0,
        "on the ground: {:?}",
        map.spawn_pos
    );
    assert!(
        x.abs() > 1.5 || z.abs() > 1.5,
        "not under the table: {:?}",
        map.spawn_pos
    );
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("no player spawn")),
        "{:?}",
        report.warnings
    );
}
