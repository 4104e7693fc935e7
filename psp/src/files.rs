//! The memory stick: whole-file reads and writes by absolute path, directory
//! listings. Paths are absolute (`ms0:/PSP/GAME/PEBBLE/...`): the emulator loads the
//! EBOOT from `/EBOOT.PBP`, so a path relative to the program means nothing there.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ffi::c_void;

use psp::sys::{self, IoOpenFlags, SceUid};

/// The runtime's own folder on the memory stick. The deploy step installs the EBOOT
/// and maps here; the program cannot learn its path at run time in every loader, so
/// it is fixed.
pub const STICK_DIR: &str = "ms0:/PSP/GAME/PEBBLE";
/// The same folder on the PC under PSPLink (usbhostfs serves it as `host0:`).
pub const HOST_DIR: &str = "host0:/PSP/GAME/PEBBLE";

/// 0: not chosen yet, 1: the stick, 2: the host.
static WHERE: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// The folder the runtime reads and writes: the stick's, unless it holds no map and
/// no capture script while the PSPLink host's folder does (chosen once).
pub fn game_dir() -> &'static str {
    use core::sync::atomic::Ordering::Relaxed;
    match WHERE.load(Relaxed) {
        1 => STICK_DIR,
        2 => HOST_DIR,
        _ => {
            let has = |d: &str| exists(&format!("{d}/pebble_capture.txt")) || !list(d, ".pbm").is_empty();
            let host = !has(STICK_DIR) && has(HOST_DIR);
            WHERE.store(if host { 2 } else { 1 }, Relaxed);
            if host { HOST_DIR } else { STICK_DIR }
        }
    }
}

/// A NUL-terminated copy of `path` for the system calls.
fn c_path(path: &str) -> Vec<u8> {
    let mut p = Vec::with_capacity(path.len() + 1);
    p.extend_from_slice(path.as_bytes());
    p.push(0);
    p
}

/// A whole file, or a message naming it and the error code.
pub fn read(path: &str) -> Result<Vec<u8>, String> {
    let c = c_path(path);
    // SAFETY: `c` is NUL-terminated and outlives the call.
    let fd: SceUid = unsafe { sys::sceIoOpen(c.as_ptr(), IoOpenFlags::RD_ONLY, 0) };
    if fd.0 < 0 {
        return Err(format!("cannot open {path} (error {:#x})", fd.0));
    }
    // SAFETY: `fd` is open; seeking to the end reports the size.
    let size = unsafe { sys::sceIoLseek(fd, 0, sys::IoWhence::End) };
    // SAFETY: as above.
    unsafe { sys::sceIoLseek(fd, 0, sys::IoWhence::Set) };
    if !(0..=64 << 20).contains(&size) {
        // SAFETY: `fd` is open.
        unsafe { sys::sceIoClose(fd) };
        return Err(format!("{path}: size {size} bytes is out of range (0 to 64 MiB)"));
    }
    let mut data = alloc::vec![0u8; size as usize];
    let mut done = 0usize;
    while done < data.len() {
        // SAFETY: the destination range lies inside `data`.
        let n = unsafe {
            sys::sceIoRead(
                fd,
                data[done..].as_mut_ptr() as *mut c_void,
                (data.len() - done) as u32,
            )
        };
        if n <= 0 {
            // SAFETY: `fd` is open.
            unsafe { sys::sceIoClose(fd) };
            return Err(format!("{path}: read failed at byte {done} (error {n:#x})"));
        }
        done += n as usize;
    }
    // SAFETY: `fd` is open.
    unsafe { sys::sceIoClose(fd) };
    Ok(data)
}

/// Writes a whole file: a temporary beside it first, then a rename, so a reader
/// never sees half a file.
pub fn write(path: &str, data: &[u8]) -> Result<(), String> {
    let tmp = format!("{path}.tmp");
    let c = c_path(&tmp);
    // SAFETY: `c` is NUL-terminated and outlives the call.
    let fd = unsafe {
        sys::sceIoOpen(
            c.as_ptr(),
            IoOpenFlags::WR_ONLY | IoOpenFlags::CREAT | IoOpenFlags::TRUNC,
            0o777,
        )
    };
    if fd.0 < 0 {
        return Err(format!("cannot create {tmp} (error {:#x})", fd.0));
    }
    let mut done = 0usize;
    while done < data.len() {
        // SAFETY: the source range lies inside `data`.
        let n = unsafe {
            sys::sceIoWrite(
                fd,
                data[done..].as_ptr() as *const c_void,
                data.len() - done,
            )
        };
        if n <= 0 {
            // SAFETY: `fd` is open.
            unsafe { sys::sceIoClose(fd) };
            return Err(format!("{tmp}: write failed at byte {done} (error {n:#x})"));
        }
        done += n as usize;
    }
    // SAFETY: `fd` is open.
    unsafe { sys::sceIoClose(fd) };
    let target = c_path(path);
    // The memory stick's rename does not replace: remove the old file first.
    // SAFETY: both paths are NUL-terminated.
    unsafe {
        sys::sceIoRemove(target.as_ptr());
        let r = sys::sceIoRename(c.as_ptr(), target.as_ptr());
        if r < 0 {
            return Err(format!("cannot rename {tmp} to {path} (error {r:#x})"));
        }
    }
    Ok(())
}

/// Creates a folder (an existing one is fine).
pub fn make_dir(path: &str) {
    let c = c_path(path);
    // SAFETY: NUL-terminated path.
    unsafe { sys::sceIoMkdir(c.as_ptr(), 0o777) };
}

/// What tells one version of a file from the next: its size and when it was last
/// written (a new map copied over the old one, by the editor's live link or a
/// deployment, changes one or both).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Version {
    size: i64,
    written: [u16; 6],
    micros: u32,
}

/// The file's version, or `None` when it cannot be read.
pub fn version(path: &str) -> Option<Version> {
    let c = c_path(path);
    // SAFETY: all-zero bytes are a valid `SceIoStat` (plain integers and flags).
    let mut stat: sys::SceIoStat = unsafe { core::mem::zeroed() };
    // SAFETY: NUL-terminated path; `stat` is writable and outlives the call.
    if unsafe { sys::sceIoGetstat(c.as_ptr(), &mut stat) } < 0 {
        return None;
    }
    let t = stat.st_mtime;
    Some(Version {
        size: stat.st_size,
        written: [t.year, t.month, t.day, t.hour, t.minutes, t.seconds],
        micros: t.microseconds,
    })
}

/// True when the file exists.
pub fn exists(path: &str) -> bool {
    let c = c_path(path);
    // SAFETY: NUL-terminated path.
    let fd = unsafe { sys::sceIoOpen(c.as_ptr(), IoOpenFlags::RD_ONLY, 0) };
    if fd.0 < 0 {
        return false;
    }
    // SAFETY: `fd` is open.
    unsafe { sys::sceIoClose(fd) };
    true
}

/// The names of the files in `dir` ending in `suffix` (case-insensitive), sorted.
pub fn list(dir: &str, suffix: &str) -> Vec<String> {
    let c = c_path(dir);
    let mut names = Vec::new();
    // SAFETY: NUL-terminated path.
    let d = unsafe { sys::sceIoDopen(c.as_ptr()) };
    if d.0 < 0 {
        return names;
    }
    loop {
        // SAFETY: a zeroed entry is valid for the call to fill.
        let mut entry: sys::SceIoDirent = unsafe { core::mem::zeroed() };
        // SAFETY: `d` is open and `entry` is writable.
        if unsafe { sys::sceIoDread(d, &mut entry) } <= 0 {
            break;
        }
        let raw = &entry.d_name;
        let len = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
        let bytes: Vec<u8> = raw[..len].iter().map(|&b| b as u8).collect();
        if let Ok(name) = core::str::from_utf8(&bytes) {
            if name.to_ascii_lowercase().ends_with(suffix) {
                names.push(String::from(name));
            }
        }
    }
    // SAFETY: `d` is open.
    unsafe { sys::sceIoDclose(d) };
    names.sort();
    names
}
