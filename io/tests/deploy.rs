//! Deploying to fake memory sticks (temporary folders holding `PSP/`): files land
//! in `PSP/GAME/<FOLDER>`, unchanged ones are skipped, unrelated ones untouched; a
//! copy that fails midway, a read-only target and a full one leave the previous
//! deployment intact with a clear message; mount points holding `PSP/` are found.

use std::cell::Cell;
use std::io;
use std::path::{Path, PathBuf};

use pebble_io::deploy::{self, DeployError, DeployFile, DirVolume, Plan, Volume};

fn tempdir(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-deploy-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("PSP/GAME")).expect("creates a fake memory stick");
    dir
}

fn plan(map: &[u8]) -> Plan {
    Plan {
        folder: "PEBBLE".into(),
        files: vec![
            DeployFile {
                name: "EBOOT.PBP".into(),
                bytes: vec![7u8; 600_000],
            },
            DeployFile {
                name: "map.pbm".into(),
                bytes: map.to_vec(),
            },
        ],
    }
}

fn game(root: &Path) -> PathBuf {
    root.join("PSP/GAME/PEBBLE")
}

/// A volume that fails in a chosen way: after `fail_after` bytes of writing, or
/// reporting `free` bytes, or refusing writes as read-only.
struct Flaky {
    inner: DirVolume,
    fail_after: Option<u64>,
    free: Option<u64>,
    /// The system lists no size for the drive (a network share, Wine's `Z:`).
    size_unknown: bool,
    read_only: bool,
    written: Cell<u64>,
}

impl Flaky {
    fn new(root: &Path) -> Self {
        Self {
            inner: DirVolume {
                root: root.to_path_buf(),
            },
            fail_after: None,
            free: None,
            size_unknown: false,
            read_only: false,
            written: Cell::new(0),
        }
    }
}

impl Volume for Flaky {
    fn root(&self) -> &Path {
        self.inner.root()
    }
    fn free_bytes(&self) -> io::Result<u64> {
        if self.size_unknown {
            return Err(io::Error::new(io::ErrorKind::NotFound, "no size listed"));
        }
        Ok(self.free.unwrap_or(u64::MAX))
    }
    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        if self.read_only && !path.exists() {
            return Err(io::Error::from(io::ErrorKind::ReadOnlyFilesystem));
        }
        self.inner.create_dir_all(path)
    }
    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        self.inner.read(path)
    }
    fn write(&self, path: &Path, bytes: &[u8], written: &mut dyn FnMut(u64)) -> io::Result<()> {
        if self.read_only {
            return Err(io::Error::from(io::ErrorKind::ReadOnlyFilesystem));
        }
        if let Some(limit) = self.fail_after {
            let room = limit.saturating_sub(self.written.get());
            if (bytes.len() as u64) > room {
                // Write what fits, then the cable comes out.
                std::fs::write(path, &bytes[..room as usize])?;
                written(room);
                self.written.set(limit);
                return Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "device disconnected",
                ));
            }
        }
        self.written.set(self.written.get() + bytes.len() as u64);
        self.inner.write(path, bytes, written)
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.inner.rename(from, to)
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        self.inner.remove(path)
    }
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the game folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn deploys_skips_unchanged_and_leaves_other_files_alone() {
    let root = tempdir("basic");
    std::fs::create_dir_all(game(&root)).expect("mkdir");
    std::fs::write(game(&root).join("notes.txt"), b"mine").expect("a user's file");
    let volume = DirVolume { root: root.clone() };
    let mut seen = 0;
    let r = deploy::deploy(&volume, &plan(b"map one"), &mut |done, total| {
        assert!(done <= total);
        seen = done;
    })
    .expect("deploys");
    assert_eq!(r.written, ["EBOOT.PBP", "map.pbm"]);
    assert_eq!(seen, 600_007);
    assert_eq!(
        std::fs::read(game(&root).join("map.pbm")).expect("map"),
        b"map one"
    );
    // Again with a new map: only the map is written.
    let r = deploy::deploy(&volume, &plan(b"map two"), &mut |_, _| {}).expect("deploys");
    assert_eq!(
        (r.written.as_slice(), r.skipped.as_slice()),
        (&["map.pbm".to_string()][..], &["EBOOT.PBP".to_string()][..])
    );
    assert_eq!(r.bytes_written, 7);
    let r = deploy::deploy(&volume, &plan(b"map two"), &mut |_, _| {}).expect("deploys");
    assert!(r.written.is_empty() && r.skipped.len() == 2);
    assert_eq!(listing(&game(&root)), ["EBOOT.PBP", "map.pbm", "notes.txt"]);
    assert_eq!(
        std::fs::read(game(&root).join("notes.txt")).expect("kept"),
        b"mine"
    );
}

#[test]
fn a_copy_cut_midway_keeps_the_previous_deployment() {
    let root = tempdir("cut");
    deploy::deploy(
        &DirVolume { root: root.clone() },
        &plan(b"old map"),
        &mut |_, _| {},
    )
    .expect("first deploy");
    let before = listing(&game(&root));
    // A new runtime and map; the cable comes out 100 000 bytes into the copy.
    let mut new = plan(b"new map");
    new.files[0].bytes = vec![9u8; 600_000];
    let mut flaky = Flaky::new(&root);
    flaky.fail_after = Some(100_000);
    let err = deploy::deploy(&flaky, &new, &mut |_, _| {}).expect_err("fails");
    let text = err.to_string();
    assert!(
        matches!(
            err,
            DeployError::Interrupted {
                written: 100_000,
                ..
            }
        ),
        "{text}"
    );
    assert!(
        text.contains("previous deployment is intact") && text.contains("EBOOT.PBP"),
        "{text}"
    );
    assert_eq!(listing(&game(&root)), before, "no staged leftovers");
    assert_eq!(
        std::fs::read(game(&root).join("EBOOT.PBP")).expect("old runtime"),
        vec![7u8; 600_000]
    );
    assert_eq!(
        std::fs::read(game(&root).join("map.pbm")).expect("old map"),
        b"old map"
    );
}

#[test]
fn read_only_and_full_targets_are_refused_clearly() {
    let root = tempdir("ro");
    let mut ro = Flaky::new(&root);
    ro.read_only = true;
    let err = deploy::deploy(&ro, &plan(b"m"), &mut |_, _| {}).expect_err("refused");
    assert!(matches!(err, DeployError::ReadOnly { .. }), "{err}");
    assert!(err.to_string().contains("read-only"), "{err}");
    assert!(!game(&root).exists());

    let root = tempdir("full");
    deploy::deploy(
        &DirVolume { root: root.clone() },
        &plan(b"old"),
        &mut |_, _| {},
    )
    .expect("first deploy");
    let mut full = Flaky::new(&root);
    full.free = Some(1_000);
    let mut new = plan(b"new");
    new.files[0].bytes = vec![1u8; 5_000];
    let err = deploy::deploy(&full, &new, &mut |_, _| {}).expect_err("refused");
    assert!(
        matches!(
            err,
            DeployError::NoSpace {
                needed: 5_003,
                free: 1_000,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("not enough space"), "{err}");
    assert_eq!(
        std::fs::read(game(&root).join("map.pbm")).expect("old map"),
        b"old"
    );
    assert_eq!(full.written.get(), 0, "nothing written before the check");

    // A drive with no size listed is written, and said to be unchecked.
    let mut unlisted = Flaky::new(&root);
    unlisted.size_unknown = true;
    let report = deploy::deploy(&unlisted, &new, &mut |_, _| {}).expect("deployed");
    assert!(report.free_space_unknown);
    assert_eq!(report.written, ["EBOOT.PBP", "map.pbm"]);
    assert_eq!(
        std::fs::read(game(&root).join("map.pbm")).expect("new map"),
        b"new"
    );
}

#[test]
fn bad_folder_names_and_missing_targets_are_errors() {
    let root = tempdir("names");
    let mut p = plan(b"m");
    p.folder = "../escape".into();
    assert!(matches!(
        deploy::deploy(&DirVolume { root: root.clone() }, &p, &mut |_, _| {}),
        Err(DeployError::FolderName(_))
    ));
    let gone = root.join("not-mounted");
    let err = deploy::deploy(&DirVolume { root: gone }, &plan(b"m"), &mut |_, _| {})
        .expect_err("no target");
    assert!(err.to_string().contains("is the PSP connected"), "{err}");
}

#[test]
fn mount_points_holding_psp_are_targets() {
    let stick = tempdir("stick");
    std::fs::create_dir_all(stick.join("PSP/GAME/PEBBLE")).expect("a deployed stick");
    let other = std::env::temp_dir().join(format!("pebble-deploy-{}-usbdisk", std::process::id()));
    let _ = std::fs::remove_dir_all(&other);
    std::fs::create_dir_all(&other).expect("a plain disk");
    let lower = tempdir("lower");
    std::fs::remove_dir_all(lower.join("PSP")).expect("rm");
    std::fs::create_dir_all(lower.join("psp/game")).expect("lower-case names, as FAT allows");
    let roots = vec![
        (stick.clone(), "PSP_STICK".to_string(), 1 << 30),
        (other, String::new(), 1 << 30),
        (lower.clone(), String::new(), 42),
    ];
    let t = deploy::targets_among(&roots, "PEBBLE");
    assert_eq!(t.len(), 2);
    assert_eq!(
        (t[0].root.as_path(), t[0].label.as_str(), t[0].deployed),
        (stick.as_path(), "PSP_STICK", true)
    );
    assert_eq!(
        (t[1].root.as_path(), t[1].free, t[1].deployed),
        (lower.as_path(), 42, false)
    );
}

/// A memory stick mounted as tmpfs (as an emulator's or a test rig's often is) is
/// found like any other volume holding `PSP/` at its root. Mounting needs root.
#[test]
#[ignore = "mounts a tmpfs, which needs root: `sudo -E cargo test -p pebble-io --test deploy -- --ignored` (CI runs it)"]
fn a_tmpfs_memory_stick_is_found() {
    let root = tempdir("tmpfs-stick");
    let status = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=8m", "pebble-stick"])
        .arg(&root)
        .status()
        .expect("runs mount");
    assert!(status.success(), "mount -t tmpfs failed (not root?)");
    std::fs::create_dir_all(root.join("PSP/GAME")).expect("PSP/GAME on the stick");
    let found = deploy::find_targets("PEBBLE");
    let _ = std::process::Command::new("umount").arg(&root).status();
    assert!(
        found.iter().any(|t| t.root == root),
        "{} not among {:?}",
        root.display(),
        found
            .iter()
            .map(|t| t.root.display().to_string())
            .collect::<Vec<_>>()
    );
}
