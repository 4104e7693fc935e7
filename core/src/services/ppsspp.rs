//! Playing the map in PPSSPP, the PSP emulator: finding its program (Preferences,
//! else the usual names on `PATH`), staging a memory stick with the bundled
//! runtime and the exported map (the same copy as a deployment: unchanged files
//! stay, changed ones are replaced whole), launching PPSSPP on that stick's
//! EBOOT, and bringing the captures taken while playing into the project's
//! `captures/`.
//!
//! The stick: on Linux and the BSDs PPSSPP keeps its memory stick in
//! `$XDG_CONFIG_HOME/ppsspp`, so Pebble starts it with `XDG_CONFIG_HOME` pointing
//! at a folder of the project's own (`.pebble/ppsspp/`), which it keeps: the next
//! launch copies only what changed, and PPSSPP's settings made there stay. The
//! first launch copies the user's own PPSSPP settings and controls in. On Windows
//! and macOS PPSSPP's memory stick cannot be chosen from outside, so there the
//! folder PPSSPP uses (shown in its Settings › System) is set in Preferences, and
//! Pebble stages into that (also allowed on Linux, to play in one's own stick).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use pebble_io::deploy::{DirVolume, Plan};

/// PPSSPP's program names: the SDL and Qt builds as Linux packages and the
/// project's own builds name them, and the Windows builds.
pub const PROGRAM_NAMES: &[&str] = &[
    "PPSSPPSDL",
    "PPSSPPQt",
    "ppsspp",
    "PPSSPPWindows64.exe",
    "PPSSPPWindows.exe",
];

/// PPSSPP's Windows programs, 64-bit first.
const WINDOWS_NAMES: [&str; 2] = ["PPSSPPWindows64.exe", "PPSSPPWindows.exe"];

/// Where PPSSPP's Windows installer (or a user) puts it: `PPSSPP` in each Program
/// Files folder and in the user's own programs, from the variables Windows sets
/// (`env` reads one).
pub fn windows_install_folders(env: impl Fn(&str) -> Option<OsString>) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = ["ProgramW6432", "ProgramFiles", "ProgramFiles(x86)"]
        .iter()
        .filter_map(|k| env(k).map(|v| PathBuf::from(v).join("PPSSPP")))
        .collect();
    if let Some(local) = env("LOCALAPPDATA") {
        folders.push(PathBuf::from(local).join("Programs").join("PPSSPP"));
    }
    folders.dedup();
    folders
}

/// Where macOS keeps the app's program, when it is installed as an app.
const MAC_APP: &str = "/Applications/PPSSPPSDL.app/Contents/MacOS/PPSSPPSDL";

/// The game folder under `PSP/GAME/` (the runtime reads this one).
pub const GAME_FOLDER: &str = crate::services::deploy::DEFAULT_FOLDER;

/// Finds PPSSPP: `configured` (Preferences) when set, else the first of
/// [`PROGRAM_NAMES`] in the folders of `path` (the `PATH` variable), else on
/// Windows its install folders ([`windows_install_folders`]), else the macOS app.
pub fn find_program(configured: &str, path: Option<OsString>) -> Result<PathBuf, String> {
    let configured = configured.trim();
    if !configured.is_empty() {
        let p = PathBuf::from(configured);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!(
                "the PPSSPP program set in Preferences, {}, is not a file: correct it, or clear it to look for PPSSPP on PATH",
                p.display()
            ))
        };
    }
    if let Some(path) = path {
        for dir in std::env::split_paths(&path) {
            for name in PROGRAM_NAMES {
                let candidate = dir.join(name);
                if candidate.is_file() {
                    return Ok(candidate);
                }
            }
        }
    }
    // PPSSPP's Windows installer puts it in Program Files, off the PATH.
    if cfg!(windows)
        && let Some(found) = windows_install_folders(|k| std::env::var_os(k))
            .iter()
            .flat_map(|dir| WINDOWS_NAMES.iter().map(move |name| dir.join(name)))
            .find(|p| p.is_file())
    {
        return Ok(found);
    }
    let mac = Path::new(MAC_APP);
    if cfg!(target_os = "macos") && mac.is_file() {
        return Ok(mac.to_path_buf());
    }
    Err(format!(
        "PPSSPP is not installed (none of {} on PATH): install it from its website or your package manager, or set its program in Preferences › PPSSPP",
        PROGRAM_NAMES.join(", ")
    ))
}

/// Where a launch stages the memory stick.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stick {
    /// The memory stick's root (`PSP/GAME/…` below it).
    pub root: PathBuf,
    /// What `XDG_CONFIG_HOME` is set to so that PPSSPP uses `root` (`None`: the
    /// stick is PPSSPP's own, set in Preferences).
    pub config_home: Option<PathBuf>,
}

impl Stick {
    /// The game folder: the runtime, the map, and the captures the runtime writes.
    pub fn game(&self) -> PathBuf {
        self.root.join("PSP").join("GAME").join(GAME_FOLDER)
    }

    /// The runtime PPSSPP is started on.
    pub fn eboot(&self) -> PathBuf {
        self.game().join("EBOOT.PBP")
    }
}

/// The stick a launch for the project in `project_dir` uses: `configured`
/// (Preferences) when set, else the project's own where PPSSPP can be pointed at
/// it (not on Windows or macOS).
pub fn stick_for(project_dir: &Path, configured: &str) -> Result<Stick, String> {
    let configured = configured.trim();
    if !configured.is_empty() {
        return Ok(Stick {
            root: PathBuf::from(configured),
            config_home: None,
        });
    }
    if cfg!(any(windows, target_os = "macos")) {
        return Err(
            "set PPSSPP's memory stick folder in Preferences › PPSSPP (PPSSPP shows it in Settings › System › Memory stick folder)"
                .into(),
        );
    }
    let home = project_dir.join(".pebble").join("ppsspp");
    Ok(Stick {
        root: home.join("ppsspp"),
        config_home: Some(home),
    })
}

/// PPSSPP's own memory stick for this user where Pebble can know it (Linux and
/// the BSDs), whose settings a project's stick starts with.
pub fn user_stick() -> Option<PathBuf> {
    if cfg!(any(windows, target_os = "macos")) {
        return None;
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("ppsspp"))
}

/// The settings files PPSSPP keeps in `PSP/SYSTEM/`.
const SETTINGS: &[&str] = &["ppsspp.ini", "controls.ini"];

/// Copies `plan` (the runtime, the map, the tunables) into the stick's game
/// folder, and, on a stick of the project's own that has none yet, the user's
/// PPSSPP settings from `user` (their controls and display choices). Returns the
/// files written.
pub fn stage(
    stick: &Stick,
    plan: &Plan,
    user: Option<&Path>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(&stick.root)
        .map_err(|e| format!("cannot make the memory stick {}: {e}", stick.root.display()))?;
    if stick.config_home.is_some()
        && let Some(user) = user
    {
        let system = stick.root.join("PSP").join("SYSTEM");
        for name in SETTINGS {
            let (from, to) = (
                user.join("PSP").join("SYSTEM").join(name),
                system.join(name),
            );
            if to.exists() || !from.is_file() {
                continue;
            }
            let bytes = std::fs::read(&from)
                .map_err(|e| format!("cannot read PPSSPP's settings {}: {e}", from.display()))?;
            std::fs::create_dir_all(&system)
                .map_err(|e| format!("cannot make {}: {e}", system.display()))?;
            pbm::file::write_atomic(&to, &bytes)
                .map_err(|e| format!("cannot write {}: {e}", to.display()))?;
        }
    }
    let volume = DirVolume {
        root: stick.root.clone(),
    };
    let report = pebble_io::deploy::deploy(&volume, plan, progress).map_err(|e| e.to_string())?;
    Ok(report.written)
}

/// The command that starts PPSSPP on the stick's runtime: Esc in PPSSPP ends it
/// (back to the editor).
pub fn command(program: &Path, stick: &Stick) -> Command {
    let mut c = Command::new(program);
    c.arg("--escape-exit").arg(stick.eboot());
    if let Some(home) = &stick.config_home {
        c.env("XDG_CONFIG_HOME", home);
    }
    c
}

/// Copies the captures in the stick's game folder that the project's
/// `captures/` lacks (or holds different) into it, each written whole. Returns
/// their names, sorted.
pub fn collect_captures(stick: &Stick, project_dir: &Path) -> Result<Vec<String>, String> {
    let from = stick.game().join("captures");
    let Ok(entries) = std::fs::read_dir(&from) else {
        return Ok(Vec::new());
    };
    let to = project_dir.join("captures");
    let mut copied = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let wanted = path.is_file()
            && name.starts_with("capture_")
            && (name.ends_with(".bmp") || name.ends_with(".json"));
        if !wanted {
            continue;
        }
        let bytes =
            std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let target = to.join(&name);
        if std::fs::read(&target).is_ok_and(|old| old == bytes) {
            continue;
        }
        std::fs::create_dir_all(&to).map_err(|e| format!("cannot make {}: {e}", to.display()))?;
        pbm::file::write_atomic(&target, &bytes)
            .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
        copied.push(name);
    }
    copied.sort();
    Ok(copied)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pebble-ppsspp-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        dir
    }

    #[test]
    fn windows_looks_for_ppsspp_in_program_files_and_the_user_s_programs() {
        let env = |k: &str| match k {
            "ProgramW6432" | "ProgramFiles" => Some(OsString::from(r"C:\Program Files")),
            "ProgramFiles(x86)" => Some(OsString::from(r"C:\Program Files (x86)")),
            "LOCALAPPDATA" => Some(OsString::from(r"C:\Users\ana\AppData\Local")),
            _ => None,
        };
        let folders = windows_install_folders(env);
        let shown: Vec<String> = folders
            .iter()
            .map(|p| p.to_string_lossy().replace('/', "\\"))
            .collect();
        assert_eq!(
            shown,
            [
                r"C:\Program Files\PPSSPP",
                r"C:\Program Files (x86)\PPSSPP",
                r"C:\Users\ana\AppData\Local\Programs\PPSSPP",
            ]
        );
        assert!(windows_install_folders(|_| None).is_empty());
    }

    #[test]
    fn ppsspp_is_found_as_set_or_on_path_and_missing_says_how_to_get_it() {
        let dir = scratch("find");
        let bin = dir.join("bin");
        std::fs::create_dir_all(&bin).expect("bin");
        let path = std::env::join_paths([dir.join("empty"), bin.clone()]).expect("PATH");
        let missing = find_program("", Some(path.clone())).expect_err("none yet");
        assert!(
            missing.contains("not installed") && missing.contains("Preferences"),
            "{missing}"
        );
        std::fs::write(bin.join("PPSSPPQt"), b"").expect("stand-in");
        assert_eq!(
            find_program("", Some(path.clone())),
            Ok(bin.join("PPSSPPQt"))
        );
        std::fs::write(bin.join("PPSSPPSDL"), b"").expect("stand-in");
        assert_eq!(
            find_program("", Some(path.clone())),
            Ok(bin.join("PPSSPPSDL")),
            "SDL first"
        );
        let set = dir.join("my ppsspp");
        std::fs::write(&set, b"").expect("stand-in");
        assert_eq!(
            find_program(&format!(" {} ", set.display()), Some(path.clone())),
            Ok(set)
        );
        let wrong = find_program("/no/such/PPSSPPSDL", Some(path)).expect_err("not a file");
        assert!(
            wrong.contains("/no/such/PPSSPPSDL") && wrong.contains("clear it"),
            "{wrong}"
        );
    }

    #[test]
    fn the_stick_is_staged_once_with_the_users_settings_and_captures_come_home() {
        let dir = scratch("stage");
        let project = dir.join("project");
        let user = dir.join("user-ppsspp");
        std::fs::create_dir_all(user.join("PSP/SYSTEM")).expect("user stick");
        std::fs::write(user.join("PSP/SYSTEM/controls.ini"), b"[ControlMapping]\n").expect("ini");
        let stick = Stick {
            root: project.join(".pebble/ppsspp/ppsspp"),
            config_home: Some(project.join(".pebble/ppsspp")),
        };
        let plan = crate::services::deploy::plan(GAME_FOLDER, b"map bytes".to_vec(), "");
        let written = stage(&stick, &plan, Some(&user), &mut |_, _| {}).expect("staged");
        assert_eq!(written, ["EBOOT.PBP", "map.pbm"]);
        assert_eq!(
            std::fs::read(stick.game().join("map.pbm")).expect("map"),
            b"map bytes"
        );
        assert_eq!(
            std::fs::read(stick.root.join("PSP/SYSTEM/controls.ini")).expect("controls"),
            b"[ControlMapping]\n"
        );
        // PPSSPP's settings changed there stay; an unchanged runtime is not copied again.
        std::fs::write(stick.root.join("PSP/SYSTEM/controls.ini"), b"mine").expect("ini");
        let plan = crate::services::deploy::plan(GAME_FOLDER, b"new map".to_vec(), "");
        let written = stage(&stick, &plan, Some(&user), &mut |_, _| {}).expect("staged");
        assert_eq!(written, ["map.pbm"]);
        assert_eq!(
            std::fs::read(stick.root.join("PSP/SYSTEM/controls.ini")).expect("ini"),
            b"mine"
        );

        let c = command(Path::new("/opt/PPSSPPSDL"), &stick);
        let args: Vec<_> = c
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            args,
            [
                "--escape-exit".to_string(),
                stick.eboot().display().to_string()
            ]
        );
        let env: Vec<_> = c.get_envs().collect();
        assert_eq!(
            env,
            [(
                std::ffi::OsStr::new("XDG_CONFIG_HOME"),
                Some(stick.config_home.as_deref().expect("home").as_os_str())
            )]
        );

        // Captures: new and changed ones come home, the rest are left alone.
        let captures = stick.game().join("captures");
        std::fs::create_dir_all(&captures).expect("captures");
        std::fs::write(captures.join("capture_000.bmp"), b"BM0").expect("bmp");
        std::fs::write(captures.join("capture_000.json"), b"{}").expect("json");
        std::fs::write(captures.join("notes.txt"), b"x").expect("other");
        assert_eq!(
            collect_captures(&stick, &project).expect("copied"),
            ["capture_000.bmp", "capture_000.json"]
        );
        assert!(
            collect_captures(&stick, &project)
                .expect("again")
                .is_empty()
        );
        std::fs::write(captures.join("capture_000.bmp"), b"BM1").expect("bmp");
        assert_eq!(
            collect_captures(&stick, &project).expect("changed"),
            ["capture_000.bmp"]
        );
        assert_eq!(
            std::fs::read(project.join("captures/capture_000.bmp")).expect("home"),
            b"BM1"
        );
        assert!(!project.join("captures/notes.txt").exists());
    }

    #[test]
    fn a_stick_set_in_preferences_is_used_as_it_is() {
        let s = stick_for(Path::new("/p"), " /media/stick ").expect("set");
        assert_eq!(
            s,
            Stick {
                root: PathBuf::from("/media/stick"),
                config_home: None
            }
        );
        let own = stick_for(Path::new("/p"), "");
        if cfg!(any(windows, target_os = "macos")) {
            assert!(own.expect_err("must be set").contains("Preferences"));
        } else {
            let own = own.expect("the project's own");
            assert_eq!(own.root, PathBuf::from("/p/.pebble/ppsspp/ppsspp"));
            assert_eq!(
                own.eboot(),
                PathBuf::from("/p/.pebble/ppsspp/ppsspp/PSP/GAME/PEBBLE/EBOOT.PBP")
            );
        }
    }
}
