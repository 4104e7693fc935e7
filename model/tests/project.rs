//! Project files: round trip, versions, parse errors with line and column, recovery.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pebble_model::command::Select;
use pebble_model::project::{self, Autosave, ProjectError};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-project-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn save_then_load_round_trips_and_keeps_id_counters() {
    let (scene, _, _, _) = small_scene();
    let path = scratch("roundtrip").join("level.pebble.ron");
    project::save(&path, &scene).expect("saves");
    let loaded = project::load(&path).expect("loads");
    assert_eq!(loaded.data().entities, scene.data().entities);
    assert_eq!(loaded.data().order, scene.data().order);
    assert_eq!(loaded.data().materials, scene.data().materials);
    assert_eq!(
        loaded.ids(),
        scene.ids(),
        "ids are never reused after a reload"
    );
    let text = std::fs::read_to_string(&path).expect("text");
    assert!(
        text.contains("format: \"pebble-project\"")
            && text.contains(&format!("version: {}", project::FORMAT_VERSION)),
        "{}",
        &text[..200]
    );
}

fn load_text(text: &str) -> ProjectError {
    project::from_ron(text, Path::new("level.pebble.ron")).expect_err("refused")
}

#[test]
fn versions_and_foreign_files_get_clear_messages() {
    let (scene, _, _, _) = small_scene();
    let text = project::to_ron(&scene).expect("ron");
    let current = format!("version: {}", project::FORMAT_VERSION);
    let newer = text.replacen(&current, "version: 7", 1);
    let err = load_text(&newer);
    assert!(matches!(err, ProjectError::Newer { found: 7, .. }));
    assert!(
        err.to_string().contains("format 7") && err.to_string().contains("update Pebble"),
        "{err}"
    );
    let older = text.replacen(&current, "version: 0", 1);
    assert!(matches!(
        load_text(&older),
        ProjectError::Older { found: 0, .. }
    ));
    let foreign = text.replacen("pebble-project", "something-else", 1);
    assert!(matches!(
        load_text(&foreign),
        ProjectError::NotAProject { .. }
    ));
}

#[test]
fn parse_errors_give_line_and_column() {
    let (scene, _, _, _) = small_scene();
    let text = project::to_ron(&scene).expect("ron");
    // Break a value on a known line.
    let line = text
        .lines()
        .position(|l| l.contains("name: \"B\""))
        .expect("line")
        + 1;
    let broken = text.replacen("name: \"B\"", "name: B\"", 1);
    let err = load_text(&broken);
    match &err {
        ProjectError::Parse {
            line: l, column, ..
        } => {
            assert_eq!(*l, line, "{err}");
            assert!(*column > 1, "{err}");
        }
        other => panic!("expected a parse error, got {other}"),
    }
    assert!(
        err.to_string()
            .starts_with(&format!("level.pebble.ron:{line}:")),
        "{err}"
    );
}

#[test]
fn broken_references_are_refused() {
    let (scene, _, _, _) = small_scene();
    let text = project::to_ron(&scene).expect("ron");
    let dangling = text.replacen("parent: Some(1)", "parent: Some(99)", 1);
    let err = load_text(&dangling);
    assert!(
        matches!(err, ProjectError::Invalid { .. }) && err.to_string().contains("99"),
        "{err}"
    );
}

#[test]
fn a_dirty_scene_is_autosaved_and_reported_on_the_next_open() {
    let (mut scene, mut history, _, ids) = small_scene();
    let path = scratch("recovery").join("level.pebble.ron");
    project::save(&path, &scene).expect("saves");
    history.mark_saved();
    let mut autosave = Autosave::new(Duration::from_secs(30));
    let t0 = Instant::now();
    assert!(
        !autosave
            .tick(t0, &path, &scene, history.is_dirty())
            .expect("tick")
    );
    history
        .execute(&mut scene, Select::new(vec![ids[0]]))
        .expect("select");
    let mut e = scene.entity(ids[3]).expect("C").clone();
    e.name = "Unsaved work".into();
    history
        .execute(
            &mut scene,
            pebble_model::command::SetEntity::new("Rename", e),
        )
        .expect("rename");
    assert!(
        !autosave
            .tick(
                t0 + Duration::from_secs(10),
                &path,
                &scene,
                history.is_dirty()
            )
            .expect("too soon")
    );
    assert!(
        autosave
            .tick(
                t0 + Duration::from_secs(31),
                &path,
                &scene,
                history.is_dirty()
            )
            .expect("autosaves")
    );

    // "Crash": open the project again.
    let (opened, recovery) = project::open(&path).expect("opens");
    let info = recovery.expect("the newer recovery file is reported");
    assert_ne!(
        opened.entity(ids[3]).map(|e| e.name.clone()),
        Some("Unsaved work".into()),
        "never applied silently"
    );
    assert!(info.path.exists(), "never deleted silently");
    let recovered = project::load_recovery(&info).expect("loads");
    assert_eq!(
        recovered.entity(ids[3]).map(|e| e.name.as_str()),
        Some("Unsaved work")
    );
    project::discard_recovery(&info).expect("discard");
    assert!(project::open(&path).expect("opens").1.is_none());

    // A real save makes the recovery file stale and removes it.
    assert!(
        autosave
            .tick(t0 + Duration::from_secs(70), &path, &scene, true)
            .expect("autosaves")
    );
    project::save(&path, &scene).expect("saves");
    autosave.saved(&path, t0 + Duration::from_secs(71));
    assert!(project::find_recovery(&path).is_none());
}

/// Format 1 centred volumes on their entity; format 2 stands them on it. A
/// version-1 file opens with every volume where it was in the world.
#[test]
fn a_version_1_project_keeps_its_volumes_in_place() {
    use pebble_model::command::{AddEntities, Paste};
    use pebble_model::entity::{Collider, EntityKind, GeometrySource, MeshEntity, Trigger};
    use pebble_model::glam::{Quat, Vec3};
    use pebble_model::{Aabb, Entity, EntityId, History, MaterialId, Primitive, Scene, Transform};

    let placed = Transform {
        translation: Vec3::new(3.0, 2.0, -1.0),
        rotation: Quat::from_rotation_z(0.5),
        scale: Vec3::new(1.0, 2.0, 1.0),
    };
    let size = Vec3::new(2.0, 1.0, 4.0);
    let mut scene = Scene::new();
    History::default()
        .execute(
            &mut scene,
            AddEntities::new(
                "volumes",
                vec![
                    Entity::new("Crate", EntityKind::Collider(Collider::Box { size }))
                        .with_transform(placed),
                    Entity::new(
                        "Gate",
                        EntityKind::Trigger(Trigger {
                            size,
                            event: "gate".into(),
                            dialogue_id: None,
                            oneshot: false,
                            properties: "{}".into(),
                        }),
                    )
                    .with_transform(placed),
                ],
            ),
        )
        .expect("adds");
    // Format-1 stairs ran from their origin toward −Z.
    let stairs = Primitive::Stairs {
        steps: 4,
        width: 1.0,
        rise: 0.25,
        run: 0.5,
    };
    let mut old_geometry = stairs.generate(MaterialId(1)).expect("stairs");
    for p in &mut old_geometry.positions {
        p.z -= 1.0;
    }
    let mut flight = Entity::new(
        "Flight",
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Primitive(stairs),
            geometry: old_geometry,
            collidable: true,
        }),
    )
    .with_transform(placed);
    flight.id = EntityId(0);
    History::default()
        .execute(
            &mut scene,
            Paste::new(
                vec![(MaterialId(1), pebble_model::Material::default())],
                vec![flight],
            ),
        )
        .expect("adds the flight");
    let flight_before = scene
        .entities()
        .find(|e| e.name == "Flight")
        .and_then(|e| scene.world_aabb(e.id))
        .expect("bounds");
    let current = format!("version: {}", project::FORMAT_VERSION);
    let text = project::to_ron(&scene)
        .expect("ron")
        .replacen(&current, "version: 1", 1);
    let loaded = project::from_ron(&text, Path::new("old.pebble.ron")).expect("reads format 1");
    // Where format 1 put them: the box centred on the entity.
    let centred = Aabb::from_points(
        Aabb {
            min: -size * 0.5,
            max: size * 0.5,
        }
        .corners()
        .map(|c| placed.to_affine().transform_point3(c)),
    )
    .expect("bounds");
    for e in loaded.entities() {
        let b = loaded.world_aabb(e.id).expect("bounds");
        let centred = if e.name == "Flight" {
            flight_before
        } else {
            centred
        };
        assert!(
            (b.min - centred.min).abs().max_element() < 1e-4
                && (b.max - centred.max).abs().max_element() < 1e-4,
            "{}: {b:?} against {centred:?}",
            e.name
        );
    }
    // Saved again it is format 2 and reads back unchanged.
    let again = project::to_ron(&loaded).expect("ron");
    assert!(again.contains(&current));
    let reread = project::from_ron(&again, Path::new("new.pebble.ron")).expect("reads");
    assert_eq!(reread.data().entities, loaded.data().entities);
}
