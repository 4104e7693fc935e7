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

#[test]
fn names_windows_keeps_for_devices_or_cannot_hold_are_told_with_why() {
    use pbm::file::{is_windows_device_name, windows_name_problem};
    for device in [
        "CON",
        "con",
        "aux.png",
        "Aux.PNG",
        "lpt1.txt",
        "NUL.tar.gz",
        "com9",
    ] {
        assert!(is_windows_device_name(device), "{device}");
        let problem = windows_name_problem(device).expect("refused");
        assert!(problem.contains("for a device"), "{problem}");
        assert!(problem.contains("choose another name"), "{problem}");
    }
    assert!(
        windows_name_problem("aux.png")
            .is_some_and(|p| p.contains("AUX") && p.contains("\"aux.png\""))
    );
    for fine in [
        "console.pbm",
        "auxiliary.png",
        "com10.ron",
        "lpt.png",
        "map.pbm",
        "Ümlaut.png",
    ] {
        assert_eq!(windows_name_problem(fine), None, "{fine}");
    }
    assert!(windows_name_problem("a:b.pbm").is_some_and(|p| p.contains("':'")));
    assert!(windows_name_problem("what?.png").is_some_and(|p| p.contains("'?'")));
    assert!(windows_name_problem("map.").is_some_and(|p| p.contains("at the end")));
    assert!(windows_name_problem("map ").is_some());
}

/// On Windows the atomic write refuses such a name before touching the disk; the
/// Wine run (scripts/wine-test.sh) sees the same through `pebble.exe export`.
#[cfg(windows)]
#[test]
fn an_atomic_write_to_a_device_name_is_refused_on_windows() {
    let dir = std::env::temp_dir().join(format!("pebble-devname-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let err = pbm::file::write_atomic(&dir.join("aux.png"), b"x").expect_err("refused");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("AUX"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
