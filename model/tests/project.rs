//! Project files: round trip, versions, parse errors with line and column, recovery.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pebble_model::command::Select;
use pebble_model::project::{self, Autosave, ProjectError};
use pebble_model::{Entity, EntityId, Scene};

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
    use pebble_model::definitions::FieldValue;
    use pebble_model::definitions::builtin::instance;
    use pebble_model::entity::{Collider, EntityKind, GeometrySource, MeshEntity};
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
                        EntityKind::Defined(instance(
                            "Trigger",
                            [
                                ("size", FieldValue::Point(size)),
                                ("event", FieldValue::Text("gate".into())),
                            ],
                        )),
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

/// A scene with one mesh big enough for the binary file (a 48 × 48 grid of
/// quads: 4 608 faces) and the small scene's boxes, with vertex colours on the
/// grid so every optional part of a stored mesh is there.
fn big_scene() -> (Scene, EntityId) {
    use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
    use pebble_model::glam::Vec3;
    use pebble_model::mesh::MeshBuilder;
    let (mut scene, mut history, material, _) = small_scene();
    let mut b = MeshBuilder::default();
    for z in 0..48 {
        for x in 0..48 {
            let (x0, z0) = (x as f32 * 0.25, z as f32 * 0.25);
            b.polygon(
                &[
                    Vec3::new(x0, 0.0, z0 + 0.25),
                    Vec3::new(x0 + 0.25, 0.0, z0 + 0.25),
                    Vec3::new(x0 + 0.25, 0.0, z0),
                    Vec3::new(x0, 0.0, z0),
                ],
                Vec3::Y,
                material,
            );
        }
    }
    let mut geometry = b.mesh;
    geometry.colors = Some(
        (0..geometry.positions.len())
            .map(|i| [i as f32 / 1e4, 0.5, 0.25, 1.0])
            .collect(),
    );
    assert!(geometry.faces.len() >= pebble_model::sidecar::STORED_FROM_FACES);
    let grid = Entity::new(
        "Terrain",
        EntityKind::Mesh(MeshEntity {
            source: GeometrySource::Authored,
            geometry,
            collidable: true,
        }),
    );
    let id = add(&mut scene, &mut history, vec![grid])[0];
    (scene, id)
}

fn binaries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("reads")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pebble.bin"))
        .collect();
    names.sort();
    names
}

#[test]
fn big_meshes_go_to_a_binary_file_named_by_its_hash_and_come_back_whole() {
    let (scene, grid) = big_scene();
    let dir = scratch("binary");
    let path = dir.join("level.pebble.ron");
    project::save(&path, &scene).expect("saves");
    let names = binaries(&dir);
    assert_eq!(names.len(), 1, "{names:?}");
    let bin = std::fs::read(dir.join(&names[0])).expect("the binary file");
    let hash = format!("{:016x}", pbm::fnv::fnv1a64(&bin));
    assert_eq!(names[0], format!("level.{hash}.pebble.bin"));
    let text = std::fs::read_to_string(&path).expect("text");
    assert!(
        text.contains("sidecar: (") && text.contains(&hash),
        "the project names its binary"
    );
    let inline = project::to_ron(&scene).expect("ron");
    assert!(
        text.len() * 4 < inline.len(),
        "{} bytes of RON, {} inline",
        text.len(),
        inline.len()
    );
    let loaded = project::load(&path).expect("loads");
    assert_eq!(
        loaded.data().entities,
        scene.data().entities,
        "every mesh whole"
    );
    assert_eq!(project::to_ron(&loaded).expect("ron"), inline);
    // Written whole into the text (no save running), the same mesh reads back too.
    let from_text = project::from_ron(&inline, &path).expect("reads the inline text");
    assert_eq!(from_text.data().entities, scene.data().entities);

    // A changed mesh: a new binary, the old one gone; unchanged: nothing written.
    let mut changed = loaded.clone();
    edit_grid(&mut changed, grid, |g| g.positions[0].y = 1.0);
    project::save(&path, &changed).expect("saves");
    let after = binaries(&dir);
    assert_eq!(after.len(), 1, "{after:?}");
    assert_ne!(after, names, "a new binary for new geometry");
    assert_eq!(
        project::load(&path).expect("loads").data().entities,
        changed.data().entities
    );
    let a_scene_without_big_meshes = small_scene().0;
    project::save(&path, &a_scene_without_big_meshes).expect("saves");
    assert!(binaries(&dir).is_empty(), "no big mesh, no binary file");
    assert!(
        !std::fs::read_to_string(&path)
            .expect("text")
            .contains("binary:")
    );
}

#[test]
fn a_missing_or_changed_binary_file_is_refused_with_what_to_do() {
    let (scene, _) = big_scene();
    let dir = scratch("binary-bad");
    let path = dir.join("level.pebble.ron");
    project::save(&path, &scene).expect("saves");
    let bin = dir.join(&binaries(&dir)[0]);
    let good = std::fs::read(&bin).expect("bytes");

    let mut flipped = good.clone();
    flipped[100] ^= 1;
    std::fs::write(&bin, &flipped).expect("writes");
    let e = project::load(&path).expect_err("changed").to_string();
    assert!(
        e.contains("does not match") && e.contains(&*bin.to_string_lossy()),
        "{e}"
    );

    std::fs::remove_file(&bin).expect("removes");
    let e = project::load(&path).expect_err("missing").to_string();
    assert!(
        e.contains("cannot be read") && e.contains("copied along"),
        "{e}"
    );

    // A hand-edited span past the file's end, or counts it cannot hold: errors.
    std::fs::write(&bin, &good).expect("restores");
    let text = std::fs::read_to_string(&path).expect("text");
    let at = text.find("sidecar: (").expect("a span") + "sidecar: (".len();
    let edited = format!(
        "{}99999999{}",
        &text[..at],
        &text[text[at..].find(',').expect(",") + at..]
    );
    std::fs::write(&path, edited).expect("writes");
    let e = project::load(&path).expect_err("past the end").to_string();
    assert!(e.contains("binary file, which holds"), "{e}");
    let mut huge = good.clone();
    huge[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
    let hash = format!("{:016x}", pbm::fnv::fnv1a64(&huge));
    let old_hash = format!("{:016x}", pbm::fnv::fnv1a64(&good));
    std::fs::write(dir.join(format!("level.{hash}.pebble.bin")), &huge).expect("writes");
    std::fs::write(&path, text.replace(&old_hash, &hash)).expect("writes");
    let e = project::load(&path)
        .expect_err("too many vertices")
        .to_string();
    assert!(e.contains("more than its"), "{e}");
}

#[test]
fn a_save_interrupted_after_its_binary_file_leaves_the_old_project_whole() {
    let (scene, _) = big_scene();
    let dir = scratch("binary-crash");
    let path = dir.join("level.pebble.ron");
    project::save(&path, &scene).expect("saves");
    // As if the next save wrote its binary file and stopped before the project:
    // a second binary beside the old pair.
    let (_, binary) = project::to_ron_and_binary(&big_scene_moved()).expect("ron");
    let stray = project::binary_path(&path, &format!("{:016x}", pbm::fnv::fnv1a64(&binary)));
    std::fs::write(&stray, &binary).expect("writes");
    assert_eq!(binaries(&dir).len(), 2);
    let loaded = project::load(&path).expect("the old project loads");
    assert_eq!(loaded.data().entities, scene.data().entities);
    // The next save tidies up.
    project::save(&path, &loaded).expect("saves");
    assert_eq!(binaries(&dir).len(), 1);
    // A recovery file's binary goes with it.
    let recovery = project::recovery_path(&path);
    project::save(&recovery, &big_scene_moved()).expect("autosaves");
    assert_eq!(binaries(&dir).len(), 2, "the project's and the recovery's");
    let info = project::find_recovery(&path).expect("a recovery");
    project::discard_recovery(&info).expect("discards");
    assert_eq!(binaries(&dir).len(), 1, "only the project's is left");
    project::load(&path).expect("and the project still loads");
}

#[test]
fn recovery_files_and_their_binaries_are_told_from_the_project_s_own() {
    let (scene, _) = big_scene();
    let dir = scratch("recovery-names");
    let path = dir.join("level.pebble.ron");
    project::save(&path, &scene).expect("saves");
    project::save(&project::recovery_path(&path), &big_scene_moved()).expect("autosaves");
    let mut recovery: Vec<String> = std::fs::read_dir(&dir)
        .expect("reads")
        .flatten()
        .filter(|e| project::is_recovery_file(&e.path()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    recovery.sort();
    assert_eq!(
        recovery.len(),
        2,
        "the autosave and its binary: {recovery:?}"
    );
    assert_eq!(recovery[0], ".level.pebble.ron.recovery");
    assert!(
        recovery[1].starts_with(".level.pebble.ron.recovery.")
            && recovery[1].ends_with(".pebble.bin"),
        "{recovery:?}"
    );
    assert!(!project::is_recovery_file(&path));
    assert!(
        binaries(&dir)
            .iter()
            .any(|b| !project::is_recovery_file(&dir.join(b)))
    );
    assert!(!project::is_recovery_file(Path::new(
        "textures/.recovery.png"
    )));
}

/// [`big_scene`] with its grid one metre up.
fn big_scene_moved() -> Scene {
    let (mut scene, grid) = big_scene();
    edit_grid(&mut scene, grid, |g| {
        for p in &mut g.positions {
            p.y += 1.0;
        }
    });
    scene
}

/// Changes the grid's geometry through a command, as the editor does.
fn edit_grid(
    scene: &mut Scene,
    grid: EntityId,
    edit: impl FnOnce(&mut pebble_model::mesh::MeshData),
) {
    use pebble_model::Command as _;
    let mut e = scene.entity(grid).expect("the grid").clone();
    if let pebble_model::EntityKind::Mesh(m) = &mut e.kind {
        edit(&mut m.geometry);
    }
    pebble_model::command::SetEntity::new("Edit", e)
        .apply(scene)
        .expect("edits");
}

/// A project named by a bare file name (the command line's `--into level.pebble.ron`)
/// keeps its binary file too.
#[test]
fn a_project_saved_by_a_relative_path_keeps_its_binary_file() {
    let dir = scratch("binary-relative");
    let (scene, _) = big_scene();
    let relative = PathBuf::from("level.pebble.ron");
    // The test's own folder: other tests run in other threads, but none changes
    // the working folder, and this one puts it back.
    let before = std::env::current_dir().expect("cwd");
    std::env::set_current_dir(&dir).expect("cd");
    let saved = project::save(&relative, &scene);
    let loaded = project::load(&relative);
    std::env::set_current_dir(before).expect("cd back");
    saved.expect("saves");
    assert_eq!(binaries(&dir).len(), 1);
    assert_eq!(
        loaded.expect("loads").data().entities,
        scene.data().entities
    );
}

/// Up to format 3 a hidden entity (itself, its layer or a parent) was left out of
/// the map; format 4 says so with `exported`, so an old project loads with those
/// entities' export off and its map unchanged, while what was shown stays exported.
#[test]
fn a_version_3_project_keeps_its_hidden_entities_out_of_the_map() {
    let mut scene = Scene::new();
    let mut history = pebble_model::History::default();
    let entities = ["Shown", "Hidden"].map(|name| {
        let mut e = pebble_model::Entity::new(name, pebble_model::EntityKind::Group);
        e.visible = name == "Shown";
        e
    });
    history
        .execute(
            &mut scene,
            pebble_model::command::AddEntities::new("Add", entities.to_vec()),
        )
        .expect("adds them");
    let current = format!("version: {}", project::FORMAT_VERSION);
    let text = project::to_ron(&scene).expect("ron");
    assert!(text.contains("exported: true"), "format 4 writes the flag");
    let old = text
        .replacen(&current, "version: 3", 1)
        .replace("exported: true,", "");
    assert!(!old.contains("exported"), "a format-3 file has no flag");
    let loaded = project::from_ron(&old, Path::new("old.pebble.ron")).expect("reads format 3");
    let exported = |name: &str| {
        let e = loaded
            .entities()
            .find(|e| e.name == name)
            .expect("the entity");
        (e.exported, loaded.is_exported(e.id))
    };
    assert_eq!(exported("Shown"), (true, true));
    assert_eq!(exported("Hidden"), (false, false));
    // The same text as format 4 means what it says: hidden, still exported.
    let now = project::from_ron(&text, Path::new("new.pebble.ron")).expect("reads format 4");
    assert!(now.entities().all(|e| now.is_exported(e.id)));
}

/// The report: autosave ran once a minute. An edit is in the recovery file two
/// seconds after it (once it has stopped changing), not up to a minute later;
/// a scene that keeps changing is still written every interval.
#[test]
fn an_edit_reaches_the_recovery_file_within_seconds() {
    let (mut scene, mut history, _, ids) = small_scene();
    let path = scratch("recovery-soon").join("level.pebble.ron");
    project::save(&path, &scene).expect("saves");
    history.mark_saved();
    let mut autosave = Autosave::new(Duration::from_secs(60));
    let t0 = Instant::now();
    let tick = |a: &mut Autosave, s: &pebble_model::Scene, at: u64, dirty: bool| {
        a.tick(t0 + Duration::from_millis(at), &path, s, dirty)
            .expect("tick")
    };
    assert!(!tick(&mut autosave, &scene, 0, false));
    let mut e = scene.entity(ids[3]).expect("C").clone();
    e.name = "Unsaved work".into();
    history
        .execute(
            &mut scene,
            pebble_model::command::SetEntity::new("Rename", e),
        )
        .expect("rename");
    assert!(!tick(&mut autosave, &scene, 500, true), "not mid-edit");
    assert!(
        tick(&mut autosave, &scene, 2_600, true),
        "two seconds after it"
    );
    let kept = project::load(&project::recovery_path(&path)).expect("the recovery file");
    assert_eq!(
        kept.entity(ids[3]).map(|e| e.name.as_str()),
        Some("Unsaved work")
    );
    assert!(
        !tick(&mut autosave, &scene, 5_000, true),
        "nothing new to write"
    );
}
