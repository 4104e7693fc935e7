//! Crash safety: a process killed at random points of a save never leaves a corrupt
//! or empty project; the file is always the complete old or the complete new one.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use glam::Vec3;
use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::{Command as _, Entity, History, Material, Primitive, Scene, project};

const CHILD_ENV: &str = "PEBBLE_CRASH_TEST_CHILD";

/// Two scenes of ~1 MB that differ everywhere.
fn scene(tag: &str) -> Scene {
    let mut scene = Scene::new();
    let mut history = History::default();
    let mut add = AddMaterial::new(Material {
        name: tag.into(),
        ..Material::default()
    });
    add.apply(&mut scene).expect("material");
    let mat = add.created().expect("id");
    add.revert(&mut scene);
    history.execute(&mut scene, add).expect("material");
    let entities = (0..600)
        .map(|i| {
            let p = Primitive::Box { size: Vec3::ONE };
            let geometry = p.generate(mat).expect("box");
            Entity::new(
                format!("{tag} {i}"),
                EntityKind::Mesh(MeshEntity {
                    source: GeometrySource::Primitive(p),
                    geometry,
                    collidable: false,
                }),
            )
        })
        .collect();
    history
        .execute(&mut scene, AddEntities::new("Add", entities))
        .expect("add");
    scene
}

fn dir() -> PathBuf {
    std::env::temp_dir().join(format!("pebble-crash-{}", std::process::id()))
}

/// In the child (this same test, run again with the project's path in
/// `CHILD_ENV`): save the two scenes alternately until killed.
fn child_saves_forever(path: PathBuf) -> ! {
    let (a, b) = (scene("old"), scene("new"));
    println!("ready");
    loop {
        project::save(&path, &b).expect("save");
        project::save(&path, &a).expect("save");
    }
}

#[test]
fn killed_saves_leave_the_old_or_the_new_project() {
    if let Ok(path) = std::env::var(CHILD_ENV) {
        child_saves_forever(PathBuf::from(path));
    }
    let dir = dir();
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("level.pebble.ron");
    let (a, b) = (scene("old"), scene("new"));
    let (text_a, text_b) = (
        project::to_ron(&a).expect("ron"),
        project::to_ron(&b).expect("ron"),
    );
    assert!(
        text_a.len() > 500_000,
        "big enough for kills to land mid-write: {}",
        text_a.len()
    );
    project::save(&path, &a).expect("initial save");
    let exe = std::env::current_exe().expect("test binary");
    let mut seen = [0usize; 2];
    for round in 0..60u64 {
        let mut child = Command::new(&exe)
            .args([
                "killed_saves_leave_the_old_or_the_new_project",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, &path)
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("child starts");
        // Scenes take the child a while to build; then kill at a varying moment.
        std::thread::sleep(Duration::from_millis(150 + (round * 37) % 120));
        child.kill().expect("kill -9");
        child.wait().expect("reaped");
        let on_disk = std::fs::read_to_string(&path).expect("the project is always there");
        if on_disk == text_a {
            seen[0] += 1;
        } else if on_disk == text_b {
            seen[1] += 1;
        } else {
            panic!(
                "round {round}: the project on disk is neither the old nor the new one ({} bytes)",
                on_disk.len()
            );
        }
        project::load(&path).expect("and it loads");
    }
    eprintln!("60 kills: old {} times, new {} times", seen[0], seen[1]);
    assert!(
        seen[0] > 0 && seen[1] > 0,
        "kills should land in both halves of the loop: {seen:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
