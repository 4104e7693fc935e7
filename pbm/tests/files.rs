//! The `std` file helpers: atomic replacement and clear errors.

mod common;
use common::*;

use pbm::file::{FileError, read_map, write_atomic, write_map};

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pbm-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn atomic_write_replaces_the_file_and_leaves_no_temporary() {
    let dir = scratch_dir("atomic");
    let path = dir.join("map.pbm");
    std::fs::write(&path, b"old").expect("seed");
    let (map, _) = pbm::Map::read(&fixture_bytes("basic")).expect("loads");
    write_map(&path, &map).expect("writes");
    assert_eq!(std::fs::read(&path).expect("reads"), fixture_bytes("basic"));
    let names: Vec<_> = std::fs::read_dir(&dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, ["map.pbm"], "no temporary file left behind");
    let (back, _) = read_map(&path).expect("reads back");
    assert_eq!(back, map);
}

#[test]
fn a_failed_write_keeps_the_previous_file() {
    let dir = scratch_dir("failed");
    let path = dir.join("map.pbm");
    std::fs::write(&path, b"precious").expect("seed");
    // Renaming onto a non-empty directory fails after the temporary file was written.
    let blocked = dir.join("blocked");
    std::fs::create_dir_all(blocked.join("inside")).expect("dir");
    assert!(write_atomic(&blocked, b"new").is_err());
    assert_eq!(std::fs::read(&path).expect("reads"), b"precious");
    let leftovers = std::fs::read_dir(&dir).expect("list").filter(|e| {
        e.as_ref()
            .map(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .unwrap_or(false)
    });
    assert_eq!(leftovers.count(), 0);
}

#[test]
fn read_errors_name_the_file() {
    let missing = std::path::Path::new("/nonexistent/dir/map.pbm");
    let err = read_map(missing).expect_err("missing");
    assert!(matches!(err, FileError::Io { .. }));
    assert!(
        err.to_string().contains("/nonexistent/dir/map.pbm"),
        "{err}"
    );

    let dir = scratch_dir("bad");
    let path = dir.join("bad.pbm");
    std::fs::write(&path, b"PBM3\x03\0\0\0").expect("write");
    let err = read_map(&path).expect_err("truncated");
    assert!(matches!(err, FileError::Format { .. }));
    let text = err.to_string();
    assert!(
        text.contains("bad.pbm") && text.contains("truncated"),
        "{text}"
    );
}

#[test]
fn concurrent_saves_to_one_path_never_collide() {
    let dir = scratch_dir("concurrent");
    let path = dir.join("map.pbm");
    let contents: Vec<Vec<u8>> = (0..8u8).map(|i| vec![i; 100_000]).collect();
    std::thread::scope(|s| {
        for c in &contents {
            let path = &path;
            s.spawn(move || {
                for _ in 0..10 {
                    write_atomic(path, c).expect("every save succeeds");
                }
            });
        }
    });
    let on_disk = std::fs::read(&path).expect("reads");
    assert!(contents.contains(&on_disk), "the file is one complete save");
    assert_eq!(
        std::fs::read_dir(&dir).expect("list").count(),
        1,
        "no temporary files left"
    );
}
