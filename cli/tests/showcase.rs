//! The bundled showcase project: the committed copy is exactly what `pebble
//! showcase` writes, and it exports to a valid map with everything it promises
//! (scrolling sheets, a flipbook and additive and blended emitters, triggers, a
//! patrol, a ball pit, a spawn, colliders).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn pebble(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pebble"))
        .args(args)
        .output()
        .expect("pebble runs")
}

/// The files under `dir` (relative, sorted), the editor's recovery files left out.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).expect("readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if !pebble_model::project::is_recovery_file(&p) {
                out.push(p.strip_prefix(dir).expect("inside").to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_committed_showcase_is_what_the_generator_writes() {
    let committed = root().join("assets/showcase");
    let fresh = std::env::temp_dir().join(format!("pebble-showcase-{}", std::process::id()));
    let out = pebble(&["showcase", fresh.to_str().expect("utf-8")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (a, b) = (files(&committed), files(&fresh));
    assert_eq!(a, b, "the same files");
    for f in &a {
        assert!(
            std::fs::read(committed.join(f)).expect("committed")
                == std::fs::read(fresh.join(f)).expect("fresh"),
            "{} differs: run `cargo run -- showcase assets/showcase` and commit",
            f.display()
        );
    }
    let _ = std::fs::remove_dir_all(&fresh);
}

#[test]
fn the_showcase_exports_to_a_map_with_everything_it_promises() {
    let project = root().join("assets/showcase/showcase.pebble.ron");
    let map_path = std::env::temp_dir().join(format!("pebble-showcase-{}.pbm", std::process::id()));
    let out = pebble(&[
        "export",
        project.to_str().expect("utf-8"),
        "-o",
        map_path.to_str().expect("utf-8"),
        "--ao-rays",
        "4",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (map, warnings) = pbm::file::read_map(&map_path).expect("a valid map");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(pbm::compliance::check(&map).is_empty());
    let scrolling = map
        .meshes
        .iter()
        .filter(|m| m.uv_scroll != [0.0, 0.0])
        .count();
    assert!(
        scrolling >= 3,
        "two waterfall sheets and the foam scroll: {scrolling}"
    );
    let field = map.particle_field(&mut |_| {});
    let flags = |additive: bool| {
        field
            .emitters
            .iter()
            .filter(|e| (e.params.flags & pbm::emitter::flags::ADDITIVE != 0) == additive)
            .count()
    };
    assert!(
        flags(true) >= 4 && flags(false) >= 1,
        "additive flames and sparks, blended smoke"
    );
    assert!(
        field
            .emitters
            .iter()
            .any(|e| e.params.atlas_cols * e.params.atlas_rows > 1),
        "a flipbook"
    );
    for tag in [
        "map_name",
        "env_preset",
        "player_spawn",
        "triggers",
        "rigid_bodies",
        "entities",
    ] {
        assert!(map.metadata_by_tag(tag).is_some(), "lump {tag}");
    }
    // The showcase has no custom lumps: every lump it writes has a named tag, in
    // the order the tags are listed.
    let order: Vec<usize> = map
        .metadata
        .iter()
        .map(|m| {
            pbm::tag::ALL
                .iter()
                .position(|t| *t == m.tag.as_str())
                .unwrap_or_else(|| panic!("lump {:?} has no tag in pbm::tag", m.tag.as_str()))
        })
        .collect();
    assert!(order.is_sorted(), "lumps out of order: {order:?}");
    let kinds: Vec<_> = map.colliders.iter().map(|c| c.kind).collect();
    assert!(kinds.len() >= 2, "{kinds:?}");
    assert_eq!(map.spawn_pos, [0.0, 1.6, 8.5]);
    let _ = std::fs::remove_file(&map_path);
}

/// An installed `pebble` has no source tree: it opens a showcase generated once
/// into the user's data folder, and later runs open that copy as it is (it may
/// hold the user's edits).
#[test]
fn without_the_source_tree_the_showcase_is_generated_into_the_data_folder() {
    use pebble_core::services::showcase::{default_project_in, showcase_path};
    // With the source tree: its copy.
    assert_eq!(
        default_project_in(&showcase_path(), None).expect("found"),
        showcase_path()
    );
    let data = std::env::temp_dir().join(format!("pebble-data-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let missing = data.join("no-source-tree/showcase.pebble.ron");
    let project = default_project_in(&missing, Some(data.clone())).expect("generated");
    assert!(project.starts_with(&data), "{}", project.display());
    let scene = pebble_model::project::load(&project).expect("loads");
    assert!(scene.entities().count() > 20, "the whole showcase");
    assert_eq!(
        files(&data.join("showcase")),
        files(&root().join("assets/showcase")),
        "the same files as the bundled copy"
    );
    // A copy already there is kept.
    std::fs::write(&project, b"edited").expect("writes");
    let again = default_project_in(&missing, Some(data.clone())).expect("found");
    assert_eq!(again, project);
    assert_eq!(std::fs::read(&project).expect("reads"), b"edited");
    // A data folder that cannot be written: a clear error, naming the way out.
    let blocked = data.join("a-file");
    std::fs::write(&blocked, b"").expect("writes");
    let err = default_project_in(&missing, Some(blocked)).expect_err("cannot write");
    assert!(
        format!("{err:#}").contains("pebble open PROJECT"),
        "{err:#}"
    );
    let _ = std::fs::remove_dir_all(&data);
}
