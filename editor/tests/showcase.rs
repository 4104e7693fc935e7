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

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).expect("readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
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
    let kinds: Vec<_> = map.colliders.iter().map(|c| c.kind).collect();
    assert!(kinds.len() >= 2, "{kinds:?}");
    assert_eq!(map.spawn_pos, [0.0, 1.6, 8.5]);
    let _ = std::fs::remove_file(&map_path);
}
