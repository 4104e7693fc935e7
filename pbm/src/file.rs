//! File helpers (feature `std`): read a map from disk, and write bytes atomically
//! (temporary file beside the target, fsync, rename, fsync the folder) so that a
//! crash or a full disk never leaves a half-written map in place of a good one.

use std::borrow::ToOwned;
use std::format;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::string::ToString;
use std::sync::atomic::{AtomicU64, Ordering};
use std::vec::Vec;

use crate::error::{ReadError, Warning};
use crate::map::Map;

/// A map file that could not be loaded.
#[derive(Debug)]
pub enum FileError {
    Io { path: PathBuf, source: io::Error },
    Format { path: PathBuf, error: ReadError },
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io { path, source } => write!(f, "cannot read {}: {source}", path.display()),
            Self::Format { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            Self::Format { error, .. } => Some(error),
        }
    }
}

/// Reads and parses a map file.
pub fn read_map(path: &Path) -> Result<(Map, Vec<Warning>), FileError> {
    let bytes = fs::read(path).map_err(|source| FileError::Io {
        path: path.to_owned(),
        source,
    })?;
    Map::read(&bytes).map_err(|error| FileError::Format {
        path: path.to_owned(),
        error,
    })
}

/// Replaces `path` with `bytes` atomically: the old file stays intact until the new
/// one is complete and on disk.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    let file_name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(file_name);
    // Unique per process and per call, so concurrent saves never share a file.
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    tmp_name.push(format!(".{}.{n}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable; not every platform can open a folder.
        if let Ok(d) = fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Writes `map` as v3 to `path` atomically.
pub fn write_map(path: &Path, map: &Map) -> io::Result<()> {
    let bytes = map
        .to_bytes()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    write_atomic(path, &bytes)
}
