//! Deploying a map to a PSP's memory stick (or any folder laid out like one):
//! `PSP/GAME/<FOLDER>/` receives the runtime (`EBOOT.PBP`), the map (`map.pbm`),
//! optional tunables and a manifest. The copy is safe to interrupt: every changed
//! file is first written beside its final name, flushed, read back and hashed, and
//! only then renamed over it, so a failure while copying (a pulled cable, a full
//! stick) leaves the previous deployment as it was. Unchanged files are skipped by
//! hash; files Pebble does not write are never touched.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// A file to place in the game folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeployFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// What to deploy where.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The game folder's name under `PSP/GAME/` (the runtime looks in `PEBBLE`).
    pub folder: String,
    pub files: Vec<DeployFile>,
}

/// What a deployment did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeployReport {
    pub folder: PathBuf,
    pub written: Vec<String>,
    pub skipped: Vec<String>,
    pub bytes_written: u64,
    /// The system gave no size for the drive holding the folder (a network share,
    /// Wine's `Z:`): written without checking the room first.
    pub free_space_unknown: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum DeployError {
    #[error("{0} is not a folder (is the PSP connected and its memory stick mounted?)")]
    NoTarget(PathBuf),
    #[error(
        "{path} is read-only ({source}); on a PSP, turn off the memory stick's write protection or re-enter USB mode"
    )]
    ReadOnly { path: PathBuf, source: io::Error },
    #[error(
        "not enough space on {path}: {needed} bytes needed, {free} free; delete something from the memory stick and try again"
    )]
    NoSpace {
        path: PathBuf,
        needed: u64,
        free: u64,
    },
    #[error(
        "copying {file} failed after {written} of {total} bytes ({source}); the previous deployment is intact — was the cable pulled? Reconnect and deploy again"
    )]
    Interrupted {
        file: String,
        written: u64,
        total: u64,
        source: io::Error,
    },
    #[error(
        "{file} reads back differently from what was written; the memory stick may be failing — nothing was replaced"
    )]
    Verify { file: String },
    #[error("cannot finish placing {file} ({source}); run the deployment again")]
    Commit { file: String, source: io::Error },
    #[error("invalid game folder name {0:?}: use letters, digits, '_' or '-' (at most 32)")]
    FolderName(String),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
}

/// The storage a deployment writes to. [`DirVolume`] is a real folder; tests wrap
/// it to fail in chosen ways.
pub trait Volume {
    fn root(&self) -> &Path;
    /// Bytes free for new files.
    fn free_bytes(&self) -> io::Result<u64>;
    fn create_dir_all(&self, path: &Path) -> io::Result<()>;
    /// The file's bytes, `None` when it does not exist.
    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>>;
    /// Writes a whole file and flushes it to the device, reporting bytes written.
    fn write(&self, path: &Path, bytes: &[u8], written: &mut dyn FnMut(u64)) -> io::Result<()>;
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    fn remove(&self, path: &Path) -> io::Result<()>;
}

/// A folder on a mounted volume (a memory stick, an emulator's memory-stick
/// folder, any directory).
#[derive(Debug, Clone)]
pub struct DirVolume {
    pub root: PathBuf,
}

/// Bytes written between progress reports and write calls.
const BLOCK: usize = 256 * 1024;

impl Volume for DirVolume {
    fn root(&self) -> &Path {
        &self.root
    }

    fn free_bytes(&self) -> io::Result<u64> {
        free_space(&self.root)
    }

    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        std::fs::create_dir_all(path)
    }

    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        match std::fs::read(path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn write(&self, path: &Path, bytes: &[u8], written: &mut dyn FnMut(u64)) -> io::Result<()> {
        let mut f = std::fs::File::create(path)?;
        for block in bytes.chunks(BLOCK) {
            f.write_all(block)?;
            written(block.len() as u64);
        }
        f.sync_all()
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }
}

/// Free bytes on the file system holding `path` (the mounted disk with the longest
/// mount point that contains it).
pub fn free_space(path: &Path) -> io::Result<u64> {
    let path = without_verbatim_prefix(&std::fs::canonicalize(path)?);
    let disks = sysinfo::Disks::new_with_refreshed_list();
    disks
        .list()
        .iter()
        .filter(|d| path.starts_with(d.mount_point()))
        .max_by_key(|d| d.mount_point().as_os_str().len())
        .map(|d| d.available_space())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("no mounted file system holds {}", path.display()),
            )
        })
}

/// `path` without the `\\?\` Windows' canonical paths start with (`\\?\E:\PSP` →
/// `E:\PSP`), so that it starts with a drive's mount point (`E:\`) as the system
/// lists them; any other path as it is.
fn without_verbatim_prefix(path: &Path) -> PathBuf {
    let text = path.to_string_lossy();
    match text.strip_prefix(r"\\?\") {
        Some(rest) if rest.as_bytes().get(1) == Some(&b':') => PathBuf::from(rest),
        _ => path.to_path_buf(),
    }
}

/// A deployment target found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub root: PathBuf,
    pub label: String,
    pub free: u64,
    /// Whether `PSP/GAME/<folder>` already exists there.
    pub deployed: bool,
}

/// Mounted volumes whose root holds a `PSP/` folder (a PSP in USB mode, a memory
/// stick in a reader), by the system's mount list.
pub fn find_targets(folder: &str) -> Vec<Target> {
    let disks = sysinfo::Disks::new_with_refreshed_list();
    let roots: Vec<(PathBuf, String, u64)> = disks
        .list()
        .iter()
        .map(|d| {
            (
                d.mount_point().to_path_buf(),
                d.name().to_string_lossy().into_owned(),
                d.available_space(),
            )
        })
        .collect();
    targets_among(&roots, folder)
}

/// The targets among mount points given as (root, label, free bytes): those whose
/// root holds `PSP/` (case-insensitive, as FAT is).
pub fn targets_among(roots: &[(PathBuf, String, u64)], folder: &str) -> Vec<Target> {
    roots
        .iter()
        .filter_map(|(root, label, free)| {
            let psp = child_ci(root, "PSP")?;
            let deployed = child_ci(&psp, "GAME")
                .and_then(|g| child_ci(&g, folder))
                .is_some();
            let label = if label.is_empty() {
                root.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| root.display().to_string())
            } else {
                label.clone()
            };
            Some(Target {
                root: root.clone(),
                label,
                free: *free,
                deployed,
            })
        })
        .collect()
}

/// The child folder of `dir` named `name`, ignoring case.
fn child_ci(dir: &Path, name: &str) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(name) && e.path().is_dir())
        .map(|e| e.path())
}

fn valid_folder(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Suffix of a file being written, before it replaces the real one.
const STAGING: &str = ".pebble-new";

/// Deploys `plan` to `volume`, reporting bytes as they are written (of the total to
/// write).
pub fn deploy(
    volume: &dyn Volume,
    plan: &Plan,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<DeployReport, DeployError> {
    if !valid_folder(&plan.folder) {
        return Err(DeployError::FolderName(plan.folder.clone()));
    }
    let root = volume.root().to_path_buf();
    if !root.is_dir() {
        return Err(DeployError::NoTarget(root));
    }
    let game = child_ci(&root, "PSP")
        .and_then(|p| child_ci(&p, "GAME"))
        .unwrap_or_else(|| root.join("PSP").join("GAME"));
    let folder = child_ci(&game, &plan.folder).unwrap_or_else(|| game.join(&plan.folder));
    volume
        .create_dir_all(&folder)
        .map_err(|e| classify(&folder, e))?;
    let mut report = DeployReport {
        folder: folder.clone(),
        ..Default::default()
    };
    // What changed.
    let mut changed = Vec::new();
    for f in &plan.files {
        let path = folder.join(&f.name);
        let old = volume.read(&path).map_err(|e| DeployError::Io {
            path: path.clone(),
            source: e,
        })?;
        if old.is_some_and(|o| {
            o.len() == f.bytes.len() && pbm::fnv::fnv1a64(&o) == pbm::fnv::fnv1a64(&f.bytes)
        }) {
            report.skipped.push(f.name.clone());
        } else {
            changed.push(f);
        }
    }
    let total: u64 = changed.iter().map(|f| f.bytes.len() as u64).sum();
    if total == 0 {
        return Ok(report);
    }
    // Staged copies sit beside the old files until the end: the new bytes must fit
    // whole.
    match volume.free_bytes() {
        Ok(free) if free < total => {
            return Err(DeployError::NoSpace {
                path: root,
                needed: total,
                free,
            });
        }
        Ok(_) => {}
        // A drive the system lists no size for: written unchecked, where a full
        // disk still fails cleanly (every file is staged, then renamed).
        Err(e) if e.kind() == io::ErrorKind::NotFound => report.free_space_unknown = true,
        Err(e) => {
            return Err(DeployError::Io {
                path: root.clone(),
                source: e,
            });
        }
    }
    let staged = |f: &DeployFile| folder.join(format!("{}{STAGING}", f.name));
    let clean = |upto: usize| {
        for f in &changed[..upto] {
            let _ = volume.remove(&staged(f));
        }
    };
    let mut done = 0u64;
    for (k, f) in changed.iter().enumerate() {
        let path = staged(f);
        let mut written = 0u64;
        let result = volume.write(&path, &f.bytes, &mut |n| {
            written += n;
            progress(done + written, total);
        });
        if let Err(e) = result {
            clean(k + 1);
            return Err(match classify(&folder, e) {
                DeployError::Io { source, .. } => DeployError::Interrupted {
                    file: f.name.clone(),
                    written,
                    total: f.bytes.len() as u64,
                    source,
                },
                other => other,
            });
        }
        let back = volume.read(&path).ok().flatten();
        if back.is_none_or(|b| {
            b.len() != f.bytes.len() || pbm::fnv::fnv1a64(&b) != pbm::fnv::fnv1a64(&f.bytes)
        }) {
            clean(k + 1);
            return Err(DeployError::Verify {
                file: f.name.clone(),
            });
        }
        done += f.bytes.len() as u64;
    }
    for f in &changed {
        let target = folder.join(&f.name);
        volume
            .rename(&staged(f), &target)
            .map_err(|e| DeployError::Commit {
                file: f.name.clone(),
                source: e,
            })?;
        report.written.push(f.name.clone());
        report.bytes_written += f.bytes.len() as u64;
    }
    Ok(report)
}

/// A write error on a read-only volume says so; anything else stays an I/O error.
fn classify(path: &Path, e: io::Error) -> DeployError {
    let read_only = e.kind() == io::ErrorKind::PermissionDenied
        || e.kind() == io::ErrorKind::ReadOnlyFilesystem
        || e.raw_os_error() == Some(30);
    if read_only {
        DeployError::ReadOnly {
            path: path.to_path_buf(),
            source: e,
        }
    } else {
        DeployError::Io {
            path: path.to_path_buf(),
            source: e,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::without_verbatim_prefix;
    use std::path::{Path, PathBuf};

    #[test]
    fn a_windows_canonical_path_loses_its_verbatim_prefix_and_others_stay() {
        assert_eq!(
            without_verbatim_prefix(Path::new(r"\\?\E:\PSP\GAME")),
            PathBuf::from(r"E:\PSP\GAME")
        );
        // A share (\\?\UNC\…) has no drive letter: kept as it is.
        let unc = Path::new(r"\\?\UNC\server\share");
        assert_eq!(without_verbatim_prefix(unc), unc.to_path_buf());
        assert_eq!(
            without_verbatim_prefix(Path::new("/media/psp")),
            PathBuf::from("/media/psp")
        );
    }
}
