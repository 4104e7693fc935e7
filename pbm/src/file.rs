//! File helpers (feature `std`): read a map from disk, and write bytes atomically
//! (temporary file beside the target, fsync, rename, fsync the folder) so that a
//! crash or a full disk never leaves a half-written map in place of a good one.

use std::borrow::ToOwned;
use std::format;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
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
///
/// On Windows a name the system keeps for a device (`CON`, `aux.png`) or cannot
/// hold (`a:b`, `name.`) is refused with why ([`windows_name_problem`]): opening
/// it would write to the device, or fail with a message that names nothing.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    #[cfg(windows)]
    if let Some(problem) = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(windows_name_problem)
    {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, problem));
    }
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
        let mut f = create(&tmp, hidden_on_windows(file_name))?;
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

/// Whether a file named so is hidden where names do not hide files: a dot file
/// (a recovery file, `.{name}.recovery`) is hidden on Unix by its name, and on
/// Windows by the attribute Explorer reads.
fn hidden_on_windows(file_name: &std::ffi::OsStr) -> bool {
    cfg!(windows) && file_name.to_string_lossy().starts_with('.')
}

/// Creates `path` for writing, `hidden` from the start (the rename keeps it).
fn create(path: &Path, hidden: bool) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(windows)]
    if hidden {
        use std::os::windows::fs::OpenOptionsExt;
        const FILE_ATTRIBUTE_HIDDEN: u32 = 0x2;
        options.attributes(FILE_ATTRIBUTE_HIDDEN);
    }
    #[cfg(not(windows))]
    let _ = hidden;
    options.open(path)
}

/// The names Windows keeps for devices, whatever follows a dot (`aux.png` is AUX).
const WINDOWS_DEVICES: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// The device Windows keeps `name` for (a file name, with or without an
/// extension: `con`, `Aux.png`, `LPT1.txt`), if it is one.
fn windows_device(name: &str) -> Option<&'static str> {
    let stem = name.split('.').next().unwrap_or(name).trim_end();
    WINDOWS_DEVICES
        .iter()
        .copied()
        .find(|d| d.eq_ignore_ascii_case(stem))
}

/// Whether Windows keeps `name` (a file name, with or without an extension) for
/// a device: `con`, `Aux.png`, `LPT1.txt`.
pub fn is_windows_device_name(name: &str) -> bool {
    windows_device(name).is_some()
}

/// Why Windows cannot hold a file called `name`, said with how to fix it; `None`
/// for a name it allows. Pebble refuses these when it runs on Windows (each system
/// its own rules); elsewhere they are fine names.
pub fn windows_name_problem(name: &str) -> Option<String> {
    if let Some(device) = windows_device(name) {
        return Some(format!(
            "\"{name}\": Windows keeps the name {device} for a device, with any extension, so no file can be called so; choose another name"
        ));
    }
    if let Some(c) = name.chars().find(|c| {
        matches!(c, '<' | '>' | ':' | '"' | '/' | '\\' | '|' | '?' | '*') || c.is_control()
    }) {
        return Some(format!(
            "\"{name}\": Windows does not allow {c:?} in a file name; choose a name without it"
        ));
    }
    if name.ends_with('.') || name.ends_with(' ') {
        return Some(format!(
            "\"{name}\": Windows drops a dot or a space at the end of a file name; choose a name that ends otherwise"
        ));
    }
    None
}

/// Writes `map` as v3 to `path` atomically.
pub fn write_map(path: &Path, map: &Map) -> io::Result<()> {
    let bytes = map
        .to_bytes()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    write_atomic(path, &bytes)
}
