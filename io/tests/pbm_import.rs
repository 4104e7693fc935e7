//! Every reference .pbm fixture imports into an editable scene with its surfaces,
//! materials, colliders and lumps, as one undoable step.

mod common;

use std::path::{Path, PathBuf};

use pebble_io::import::{ImportOptions, import_file};
use pebble_model::entity::{Collider, EntityKind};
use pebble_model::glam::Vec3;
use pebble_model::{History, Kind, Scene};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pbm/tests/fixtures")
        .join(format!("{name}.pbm"))
}

fn project_dir(name: &str) -> PathBuf {
    // A folder per call: tests run in parallel and may import the same fixture.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "pebble-import-{name}-{call}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

fn import(name: &str) -> (Scene, History, pebble_io::import::ImportReport, PathBuf) {
    let dir = project_dir(name);
    let options = ImportOptions::new(dir.clone());
    let imported = import_file(&fixture(name), &options, &mut |_| {}).expect("imports");
    let mut scene = Scene::new();
    let mut history = History::default();
    history
        .execute(&mut scene, imported.command)
        .expect("applies");
    (scene, history, imported.report, dir)
}

fn named<'a>(scene: &'a Scene, name: &str) -> &'a pebble_model::Entity {
    scene
        .entities()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no entity {name}"))
}

#[test]
fn full_map_becomes_an_editable_scene() {
    let (scene, mut history, report, dir) = import("full_emitters");
    let (map, _) =
        pbm::Map::read(&std::fs::read(fixture("full_emitters")).expect("fixture")).expect("reads");
    assert_eq!(report.textures_written.len(), 5);
    for t in &report.textures_written {
        assert!(dir.join(t).is_file(), "{t}");
    }
    // The atlas is kept whole and its pixels survive.
    let atlas = image::open(dir.join("textures/TileAtlas_0.png"))
        .expect("png")
        .to_rgba8();
    assert_eq!(atlas.dimensions(), (512, 512));
    let expected = pbm::texture::decode(&map.textures[4].data, map.textures[4].format);
    assert_eq!(atlas.as_raw(), &expected);

    // Three FloorChecker chunks regroup into one surface.
    let floor = named(&scene, "FloorChecker");
    let EntityKind::Mesh(m) = &floor.kind else {
        panic!("mesh")
    };
    assert_eq!(m.geometry.faces.len(), (384 + 384 + 96) / 3);
    // World positions survive the centring on the entity.
    let world = scene.world_transform(floor.id);
    let first = world.transform_point3(m.geometry.positions[0]);
    assert!(
        (first - Vec3::new(-4.0, 0.0, -4.0)).length() < 1e-5,
        "{first}"
    );
    let c = 0xFFFF_7F4Cu32; // the first vertex's colour in the reference dump
    let unpacked = [0, 8, 16, 24].map(|s| ((c >> s) & 0xFF) as f32 / 255.0);
    assert_eq!(m.geometry.colors.as_ref().map(|cs| cs[0]), Some(unpacked));

    let visible_triangles: usize = scene
        .entities_of(Kind::Mesh)
        .filter(|e| e.visible)
        .map(|e| match &e.kind {
            EntityKind::Mesh(m) => m.geometry.faces.len(),
            _ => 0,
        })
        .sum();
    assert_eq!(visible_triangles, 903 / 3);

    let water = named(&scene, "WaterSoft");
    let EntityKind::Mesh(wm) = &water.kind else {
        panic!("mesh")
    };
    let mat = scene
        .material(wm.geometry.faces[0].material)
        .expect("material");
    assert_eq!(mat.uv_scroll.to_array(), [0.0, -0.5]);
    assert_eq!(mat.alpha, pebble_model::material::AlphaMode::Blend);
    assert_eq!(mat.texture.as_deref(), Some("textures/WaterSoft.png"));

    assert!(
        matches!(named(&scene, "Collider_Box_Crate").kind, EntityKind::Collider(Collider::Box { size }) if size == Vec3::ONE)
    );
    let EntityKind::Collider(Collider::TriMesh { mesh }) =
        named(&scene, "Collider_Wall_North").kind
    else {
        panic!("trimesh")
    };
    assert!(!scene.entity(mesh).expect("collider mesh").visible);

    let spawn = named(&scene, "Player spawn");
    assert!(
        (Vec3::from(scene.world_transform(spawn.id).translation) - Vec3::new(0.0, 1.6, 4.2))
            .length()
            < 1e-5
    );
    use pebble_model::definitions::FieldValue;
    let value = |name: &str, field: &str| match &named(&scene, name).kind {
        EntityKind::Defined(d) => pebble_model::definitions::builtin::value(d, field)
            .cloned()
            .unwrap_or_else(|| panic!("{name}.{field}")),
        other => panic!("{name}: {other:?}"),
    };
    assert_eq!(
        value("cutscene_archway", "event"),
        FieldValue::Text("on_enter_archway".into())
    );
    assert_eq!(value("cutscene_archway", "oneshot"), FieldValue::Bool(true));
    let size = value("cutscene_archway", "size")
        .as_point()
        .expect("a size");
    assert!((size - Vec3::new(4.0, 3.5, 1.0)).length() < 1e-5);
    assert_eq!(value("Ball pit", "count"), FieldValue::Int(16));
    assert_eq!(value("PatrolSphere", "waypoints").points().len(), 3);
    assert_eq!(value("PatrolSphere", "speed"), FieldValue::Float(2.5));
    assert!(
        matches!(&named(&scene, "particle_emitters").kind, EntityKind::Custom(c) if c.json.contains("torch_sparks"))
    );
    assert!(
        matches!(&named(&scene, "Walkable").kind, EntityKind::Walkable(g) if g.faces.len() == 2)
    );
    let flame = named(&scene, "Emitter_Flame");
    let EntityKind::Emitter(e) = &flame.kind else {
        panic!("emitter")
    };
    assert_eq!(
        (e.count, e.additive, e.atlas_cols, e.texture.as_deref()),
        (24, true, 2, Some("textures/FloorChecker.png"))
    );
    assert_eq!(scene.entities_of(Kind::Emitter).count(), 4);
    assert_eq!(scene.settings().map_name, "PoiRetro Courtyard Showcase");

    // One undo removes the whole import.
    assert_eq!(history.position(), 1);
    let mut scene = scene;
    history.undo(&mut scene);
    assert!(scene.is_empty() && scene.materials().count() == 0);
}

#[test]
fn every_fixture_imports() {
    for name in ["basic", "full", "full_emitters", "full_v2", "full_v1"] {
        let (scene, _, report, _) = import(name);
        let (map, _) =
            pbm::Map::read(&std::fs::read(fixture(name)).expect("fixture")).expect("reads");
        let map_triangles: usize = map.meshes.iter().map(|m| m.vertices.len() / 3).sum();
        let triangles: usize = scene
            .entities_of(Kind::Mesh)
            .filter(|e| e.visible)
            .map(|e| match &e.kind {
                EntityKind::Mesh(m) => m.geometry.faces.len(),
                _ => 0,
            })
            .sum();
        assert_eq!(
            triangles, map_triangles,
            "{name}: every drawn triangle arrives"
        );
        assert_eq!(
            scene.entities_of(Kind::Collider).count(),
            map.colliders.len(),
            "{name}"
        );
        assert_eq!(scene.entities_described("PlayerSpawn").count(), 1, "{name}");
        scene.check_consistency().expect("consistent");
        assert!(report.entity_count() == scene.len(), "{name}");
    }
    // v1 has no metadata: the header spawn and the file name stand in.
    let (scene, _, _, _) = import("full_v1");
    assert_eq!(scene.settings().map_name, "full_v1");
    let (spawn, _) = scene
        .entities_described("PlayerSpawn")
        .next()
        .expect("spawn");
    assert!((scene.world_transform(spawn.id).translation.y - 1.6).abs() < 1e-5);
}

#[test]
fn a_broken_map_is_a_clear_error() {
    let dir = project_dir("broken");
    let bytes = std::fs::read(fixture("basic")).expect("fixture");
    let path = dir.join("cut.pbm");
    std::fs::write(&path, &bytes[..5000]).expect("write");
    let err =
        import_file(&path, &ImportOptions::new(dir.clone()), &mut |_| {}).expect_err("truncated");
    let text = err.to_string();
    assert!(
        text.contains("cut.pbm") && text.contains("truncated") && text.contains("at byte"),
        "{text}"
    );
}

/// A map whose emitter holds values its format clamps (a life that is not a
/// number, a zero aspect, 40 flipbook rows), as another tool might write it: the
/// import reports and clamps each field, and the scene exports to a map that
/// validates with no warning.
#[test]
fn out_of_range_emitter_fields_are_clamped_at_import_and_never_written() {
    let record = pbm::EmitterRecord {
        name: pbm::name::Name24::new("Embers").expect("name"),
        life_min: f32::NAN,
        aspect: 0.0,
        atlas_rows: 40,
        ..Default::default()
    };
    let map = pbm::Map {
        emitters: Some(pbm::EmitterLump::new(vec![record])),
        ..pbm::Map::default()
    };
    let dir = project_dir("bad-emitter");
    let path = dir.join("other-tool.pbm");
    std::fs::write(&path, map.to_bytes().expect("writes")).expect("saves");
    let imported =
        import_file(&path, &ImportOptions::new(dir.clone()), &mut |_| {}).expect("imports");
    for field in ["life_min", "aspect", "atlas_rows"] {
        assert!(
            imported
                .report
                .warnings
                .iter()
                .any(|w| w.contains(field) && w.contains("clamped")),
            "{field}: {:?}",
            imported.report.warnings
        );
    }
    let mut scene = Scene::new();
    History::default()
        .execute(&mut scene, imported.command)
        .expect("applies");
    let emitter = scene
        .entities()
        .find_map(|e| match &e.kind {
            EntityKind::Emitter(em) => Some(em.clone()),
            _ => None,
        })
        .expect("the emitter");
    assert!(emitter.life[0].is_finite() && emitter.life[0] > 0.0);
    assert!(emitter.aspect > 0.0);
    assert!(emitter.atlas_rows <= 16);
    let (bytes, _) = common::export_unbaked(&scene, dir);
    let (view, warnings) = pbm::MapView::parse(&bytes).expect("parses");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(pbm::compliance::check(&pbm::Map::from_view(&view)).is_empty());
}

/// A hand-edited project holds a knee of 0.99, past the 0.95 the format allows:
/// the export writes what the format allows and says so, so the validator has
/// nothing to warn about.
#[test]
fn an_export_writes_only_what_the_format_validates() {
    use pebble_model::command::AddEntities;
    use pebble_model::entity::Emitter;
    let mut scene = Scene::new();
    let fire = pebble_model::Entity::new("Fire", EntityKind::Emitter(Emitter::default()));
    History::default()
        .execute(&mut scene, AddEntities::new("Add", vec![fire]))
        .expect("adds");
    let knee = Emitter::default().knee;
    let text = pebble_model::project::to_ron(&scene)
        .expect("ron")
        .replacen(&format!("knee: {knee:?}"), "knee: 0.99", 1);
    assert!(text.contains("knee: 0.99"));
    let scene =
        pebble_model::project::from_ron(&text, Path::new("edited.pebble.ron")).expect("reads");
    let (bytes, report) = common::export_unbaked(&scene, project_dir("knee"));
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("knee") && w.contains("written clamped")),
        "{:?}",
        report.warnings
    );
    let (_, warnings) = pbm::MapView::parse(&bytes).expect("parses");
    assert!(warnings.is_empty(), "{warnings:?}");
}
