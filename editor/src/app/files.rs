//! Files: the system's file dialogs (rfd through the XDG desktop portal, each on a
//! helper thread so the editor keeps drawing while one is open) or, where the system
//! has none, Pebble's own (`file_dialog.rs`), recent files, the
//! question before unsaved work would be dropped, the recovery prompt for an
//! autosave newer than its project, and Import / Export .pbm as background jobs with
//! progress and Cancel. The app (`mod.rs`) owns the scene; this module owns the
//! jobs and dialogs and hands results back.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use pebble_core::jobs::Job;

use pebble_io::export::{ExportProgress, export_to_file};
use pebble_io::import::{ImportOptions, Imported, import_file};
use pebble_model::Scene;
use pebble_model::project::RecoveryInfo;

/// How many recent files the File menu keeps.
pub const RECENT_MAX: usize = 10;

pub use super::file_dialog::DialogKind;

/// Where a file dialog is drawn.
#[derive(Debug)]
enum DialogHost {
    /// The system's, on a helper thread (rfd through the XDG desktop portal).
    System(Receiver<Option<PathBuf>>),
    /// Pebble's own, drawn in the window each frame.
    InApp(Box<super::file_dialog::FileDialog>),
}

/// An open file dialog.
#[derive(Debug)]
pub struct Dialog {
    pub kind: DialogKind,
    host: DialogHost,
}

static SYSTEM_DIALOG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// Starts finding out (once, on a helper thread) whether the system has a file
/// dialog; [`system_dialog_known`] has the answer when it is in.
pub fn probe_system_dialog() {
    if SYSTEM_DIALOG.get().is_none() {
        std::thread::spawn(|| {
            let _ = SYSTEM_DIALOG.set(system_dialog_available());
        });
    }
}

/// The probe's answer: `None` while it runs.
pub fn system_dialog_known() -> Option<bool> {
    SYSTEM_DIALOG.get().copied()
}

/// Whether the system offers a file dialog rfd can use: a `zenity` on the PATH,
/// or an XDG desktop portal on the session bus with a file chooser. Without
/// either, rfd's dialogs return at once with nothing, as if cancelled.
pub fn system_dialog_available() -> bool {
    zenity_on_path() || portal_file_chooser()
}

fn zenity_on_path() -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join("zenity").is_file()))
}

/// Asks the session bus whether `org.freedesktop.portal.Desktop` runs or can be
/// started, and whether it offers `org.freedesktop.portal.FileChooser`.
fn portal_file_chooser() -> bool {
    const PORTAL: &str = "org.freedesktop.portal.Desktop";
    pollster::block_on(async {
        let Ok(conn) = zbus::Connection::session().await else {
            return false;
        };
        let Ok(dbus) = zbus::fdo::DBusProxy::new(&conn).await else {
            return false;
        };
        let Ok(name) = zbus::names::BusName::try_from(PORTAL) else {
            return false;
        };
        let running = dbus.name_has_owner(name).await.unwrap_or(false);
        let startable = dbus
            .list_activatable_names()
            .await
            .is_ok_and(|names| names.iter().any(|n| n.as_str() == PORTAL));
        if !(running || startable) {
            return false;
        }
        let Ok(builder) = zbus::fdo::IntrospectableProxy::builder(&conn).destination(PORTAL) else {
            return false;
        };
        let Ok(builder) = builder.path("/org/freedesktop/portal/desktop") else {
            return false;
        };
        let Ok(proxy) = builder.build().await else {
            return false;
        };
        proxy
            .introspect()
            .await
            .is_ok_and(|xml| xml.contains("org.freedesktop.portal.FileChooser"))
    })
}

impl Dialog {
    /// Opens the system dialog for `kind`, starting in `dir`.
    pub fn system(kind: DialogKind, dir: &Path, file_name: Option<String>) -> Self {
        let (tx, rx) = channel();
        let dir = dir.to_owned();
        std::thread::spawn(move || {
            let (filter_name, extensions) = super::file_dialog::filter(kind);
            let mut d = rfd::FileDialog::new()
                .set_directory(&dir)
                .add_filter(filter_name, extensions);
            if kind == DialogKind::Import {
                d = d
                    .add_filter("glTF", &["gltf", "glb"])
                    .add_filter("PlayStation TMD", &["tmd"])
                    .add_filter("Pebble map", &["pbm"]);
            }
            if let Some(name) = file_name {
                d = d.set_file_name(name);
            }
            let picked = match kind {
                DialogKind::Open | DialogKind::Import | DialogKind::Texture(_) => {
                    d.set_title("Open").pick_file()
                }
                DialogKind::SaveAs | DialogKind::Export => d.save_file(),
            };
            let _ = tx.send(picked);
        });
        Self {
            kind,
            host: DialogHost::System(rx),
        }
    }

    /// Opens Pebble's own dialog for `kind`, starting in `dir`.
    pub fn in_app(kind: DialogKind, dir: &Path, file_name: Option<String>) -> Self {
        Self {
            kind,
            host: DialogHost::InApp(Box::new(super::file_dialog::FileDialog::new(
                kind, dir, file_name,
            ))),
        }
    }

    /// Whether this is Pebble's own dialog.
    pub fn is_in_app(&self) -> bool {
        matches!(self.host, DialogHost::InApp(_))
    }

    /// Draws it (Pebble's own) or looks for the system dialog's answer: `Some` once
    /// it closed, with the chosen path or `None` when cancelled.
    pub fn poll(&mut self, ctx: &eframe::egui::Context) -> Option<Option<PathBuf>> {
        match &mut self.host {
            DialogHost::InApp(d) => d.ui(ctx),
            DialogHost::System(rx) => match rx.try_recv() {
                Ok(p) => Some(p),
                Err(TryRecvError::Empty) => None,
                // The dialog thread died (no portal, no display): treat as cancelled.
                Err(TryRecvError::Disconnected) => Some(None),
            },
        }
    }
}

/// An action that would drop unsaved work, waiting for the user's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    New,
    Open(PathBuf),
    Close,
}

/// An export running in the background (its result: what was written).
pub type ExportJob = Job<String>;

/// Exports `scene` (assets under `project_dir`) to `path` with the project's
/// export settings, in the background; the file is written atomically, only when
/// complete, and Cancel stops it within milliseconds.
pub fn start_export(scene: &Scene, project_dir: PathBuf, path: PathBuf) -> ExportJob {
    let scene = scene.clone();
    let out = path.clone();
    Job::spawn(path, "starting", move |job| {
        let options = pebble_core::services::export::options(&scene, project_dir);
        let mut on_progress = |p: ExportProgress| {
            let f = if p.total == 0 {
                0.0
            } else {
                p.done as f32 / p.total as f32
            };
            job.progress(p.stage, Some(f));
        };
        export_to_file(&scene, &options, &out, &mut on_progress, job.cancel_flag())
            .map(|r| {
                let left_out = if r.left_out.is_empty() {
                    String::new()
                } else {
                    format!("; left out (export off): {}", r.left_out.join(", "))
                };
                format!(
                    "exported {} ({} meshes, {} textures){left_out}",
                    out.display(),
                    r.meshes,
                    r.textures
                )
            })
            .map_err(|e| format!("export to {} failed: {e}", out.display()))
    })
}

/// An import running in the background (reading and converting can take seconds
/// for a big glTF); its command is executed on the UI thread when it arrives.
pub type ImportJob = Job<Imported>;

pub fn start_import(path: PathBuf, project_dir: PathBuf, tim: Option<PathBuf>) -> ImportJob {
    let file = path.clone();
    Job::spawn(path, "import", move |_| {
        let mut options = ImportOptions::new(project_dir);
        options.tim = tim;
        import_file(&file, &options, &mut |_| {})
            .map_err(|e| format!("cannot import {}: {e}", file.display()))
    })
}

/// Puts `path` first in `recent`, without duplicates, at most [`RECENT_MAX`].
pub fn push_recent(recent: &mut Vec<PathBuf>, path: &Path) {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    recent.retain(|p| *p != path);
    recent.insert(0, path);
    recent.truncate(RECENT_MAX);
}

/// Copies the textures of `scene` that lie under `from_dir` (at their relative
/// paths) to the same paths under `to_dir`, for a project moving folders with its
/// files. A file already there with other contents is left alone. Returns the
/// relative paths that now lie under `to_dir` with their contents, and whether
/// that is every texture found under `from_dir`.
pub fn copy_textures(
    scene: &Scene,
    from_dir: &Path,
    to_dir: &Path,
) -> std::io::Result<(Vec<String>, bool)> {
    let (mut there, mut all) = (Vec::new(), true);
    for (_, m) in scene.materials() {
        let Some(rel) = m.texture.as_deref() else {
            continue;
        };
        let rel_path = Path::new(rel);
        if rel_path.is_absolute()
            || rel_path
                .components()
                .any(|c| c == std::path::Component::ParentDir)
        {
            continue;
        }
        let (from, to) = (from_dir.join(rel_path), to_dir.join(rel_path));
        let Ok(bytes) = std::fs::read(&from) else {
            continue;
        };
        match std::fs::read(&to) {
            Ok(existing) if existing == bytes => {}
            Ok(_) => {
                all = false;
                continue;
            }
            Err(_) => {
                if let Some(parent) = to.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                std::fs::write(&to, &bytes)?;
            }
        }
        there.push(rel.to_owned());
    }
    Ok((there, all))
}

/// The texture paths of `scene` rewritten for a project saved in `to_dir` instead
/// of `from_dir`: relative where the file lies under the new folder, absolute
/// otherwise (with `/` separators). Returns (material, new path) for each change.
pub fn rebased_textures(
    scene: &Scene,
    from_dir: &Path,
    to_dir: &Path,
) -> Vec<(pebble_model::MaterialId, String)> {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
    let (from, to) = (canon(from_dir), canon(to_dir));
    if from == to {
        return Vec::new();
    }
    scene
        .materials()
        .filter_map(|(id, m)| {
            let rel = m.texture.as_deref()?;
            let abs = canon(&from.join(rel));
            let new = match abs.strip_prefix(&to) {
                Ok(inside) => inside.to_string_lossy().replace('\\', "/"),
                Err(_) => abs.to_string_lossy().replace('\\', "/"),
            };
            (new != rel).then_some((id, new))
        })
        .collect()
}

/// When the recovery file was written, for the prompt.
pub fn recovery_age(info: &RecoveryInfo) -> String {
    match info.recovery_modified.elapsed() {
        Ok(d) if d.as_secs() < 120 => format!("{} s ago", d.as_secs()),
        Ok(d) if d.as_secs() < 7200 => format!("{} min ago", d.as_secs() / 60),
        Ok(d) if d.as_secs() < 172_800 => format!("{} h ago", d.as_secs() / 3600),
        Ok(d) => format!("{} days ago", d.as_secs() / 86_400),
        Err(_) => "just now".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_unique_newest_first_and_bounded() {
        let mut recent = Vec::new();
        for k in 0..12 {
            push_recent(&mut recent, Path::new(&format!("/nowhere/p{k}.pebble.ron")));
        }
        push_recent(&mut recent, Path::new("/nowhere/p5.pebble.ron"));
        assert_eq!(recent.len(), RECENT_MAX);
        assert_eq!(recent[0], Path::new("/nowhere/p5.pebble.ron"));
        assert_eq!(
            recent
                .iter()
                .filter(|p| p.ends_with("p5.pebble.ron"))
                .count(),
            1
        );
        assert_eq!(recent[1], Path::new("/nowhere/p11.pebble.ron"));
    }

    #[test]
    fn saving_elsewhere_rebases_texture_paths() {
        use pebble_model::Material;
        use pebble_model::command::AddMaterial;
        let dir = std::env::temp_dir().join(format!("pebble-rebase-{}", std::process::id()));
        let (old, inside, outside) = (dir.join("old"), dir.join("old/sub"), dir.join("new"));
        for d in [&old, &inside, &outside] {
            std::fs::create_dir_all(d).expect("temp dirs");
        }
        let mut scene = Scene::new();
        let mut history = pebble_model::history::History::new(10);
        for tex in ["textures/a.png", "sub/textures/b.png"] {
            let m = Material {
                texture: Some(tex.into()),
                ..Material::default()
            };
            history
                .execute(&mut scene, AddMaterial::new(m))
                .expect("adds");
        }
        // Into a subfolder: the one under it becomes relative, the other absolute.
        let moved = rebased_textures(&scene, &old, &inside);
        let paths: Vec<&str> = moved.iter().map(|(_, p)| p.as_str()).collect();
        assert_eq!(paths.len(), 2);
        assert!(paths.contains(&"textures/b.png"), "{paths:?}");
        assert!(
            paths
                .iter()
                .any(|p| p.ends_with("old/textures/a.png") && p.starts_with('/')),
            "{paths:?}"
        );
        assert!(rebased_textures(&scene, &old, &old).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Where a file dialog starts when the project has no folder of the user's (an
/// untitled one lives in the data folder; the bundled showcase inside the program):
/// where the user last worked, else their Documents folder, else their home;
/// never inside the bundled showcase.
pub fn dialog_start(recent: &[PathBuf], home: Option<PathBuf>) -> Option<PathBuf> {
    let showcase = pebble_core::services::showcase::showcase_path();
    let bundled = showcase.parent().map(Path::to_path_buf);
    recent
        .iter()
        .filter_map(|p| p.parent().filter(|d| d.is_dir()).map(Path::to_path_buf))
        .find(|d| Some(d) != bundled.as_ref())
        .or_else(|| {
            let home = home?;
            let documents = home.join("Documents");
            Some(if documents.is_dir() { documents } else { home })
        })
}

#[cfg(test)]
mod dialog_start_tests {
    use super::*;

    /// The first dialog starts in the user's Documents (or home), not in the
    /// bundled showcase; after that, where the user last worked.
    #[test]
    fn a_dialog_starts_where_the_user_works_never_in_the_bundled_showcase() {
        let home = std::env::temp_dir().join(format!("pebble-dialog-home-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        std::fs::create_dir_all(&home).expect("home");
        let showcase = pebble_core::services::showcase::showcase_path();
        assert_eq!(
            dialog_start(std::slice::from_ref(&showcase), Some(home.clone())),
            Some(home.clone())
        );
        std::fs::create_dir_all(home.join("Documents")).expect("Documents");
        assert_eq!(
            dialog_start(&[showcase], Some(home.clone())),
            Some(home.join("Documents"))
        );
        let work = home.join("levels");
        std::fs::create_dir_all(&work).expect("levels");
        assert_eq!(
            dialog_start(&[work.join("room.pebble.ron")], Some(home.clone())),
            Some(work)
        );
        let _ = std::fs::remove_dir_all(&home);
    }
}
