//! Pebble's own file dialog: a folder listing with a path field, a file-name field
//! and the kind's filter, drawn by egui inside the editor window. It stands in for
//! the system dialog where there is none (no XDG desktop portal offering a file
//! chooser and no `zenity`: rfd then returns nothing at all), or when the user
//! prefers it. Written here because the kept crate for this (egui-file-dialog)
//! is built on egui 0.36 and cannot be used with egui 0.37.
//!
//! It owns only its own state (folder, listing, typed name, error) and answers
//! through [`FileDialog::ui`]; the app decides what the chosen path is for.

use std::path::{Path, PathBuf};

use eframe::egui;

/// What a file dialog is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialogKind {
    Open,
    SaveAs,
    Import,
    Export,
    /// A picture for a material's texture (`Some`), or for a new material.
    Texture(Option<pebble_model::MaterialId>),
}

/// One row of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    name: String,
    is_dir: bool,
}

/// The dialog's state while it is open.
#[derive(Debug)]
pub struct FileDialog {
    pub kind: DialogKind,
    dir: PathBuf,
    /// The folder field as typed (applied on Enter or Go).
    dir_text: String,
    /// The file-name field: typed, or filled by clicking a file.
    name: String,
    entries: Vec<Entry>,
    show_hidden: bool,
    /// What went wrong last (an unreadable folder, a missing file), shown in red.
    error: Option<String>,
    /// Saving over `PathBuf` was asked once; a second confirmation replaces it.
    confirm_replace: Option<PathBuf>,
}

/// The extensions a kind lists (lower case, without the dot) and their filter's name.
pub fn filter(kind: DialogKind) -> (&'static str, &'static [&'static str]) {
    match kind {
        DialogKind::Open | DialogKind::SaveAs => ("Pebble projects (*.pebble.ron)", &["ron"]),
        DialogKind::Import => (
            "Models, maps and images",
            pebble_io::import::IMPORT_EXTENSIONS,
        ),
        DialogKind::Export => ("Pebble maps (*.pbm)", &["pbm"]),
        DialogKind::Texture(_) => (
            "Pictures (PNG, JPEG, TGA, BMP)",
            pebble_panels::thumbnails::IMAGE_EXTENSIONS,
        ),
    }
}

impl FileDialog {
    /// Opens on `dir` (or the nearest folder above it that exists) with `file_name`
    /// in the name field.
    pub fn new(kind: DialogKind, dir: &Path, file_name: Option<String>) -> Self {
        let mut d = Self {
            kind,
            dir: PathBuf::new(),
            dir_text: String::new(),
            name: file_name.unwrap_or_default(),
            entries: Vec::new(),
            show_hidden: false,
            error: None,
            confirm_replace: None,
        };
        let start = dir
            .ancestors()
            .find(|p| p.is_dir())
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("/"));
        d.go(start);
        d
    }

    /// The folder shown.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Lists `dir` and shows it, or keeps the current folder and says why not.
    fn go(&mut self, dir: PathBuf) {
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        match list(&dir, self.kind, self.show_hidden) {
            Ok(entries) => {
                self.entries = entries;
                self.dir_text = dir.display().to_string();
                self.dir = dir;
                self.error = None;
            }
            Err(e) => {
                self.error = Some(format!("cannot open the folder {}: {e}", dir.display()));
                self.dir_text = self.dir.display().to_string();
            }
        }
        self.confirm_replace = None;
    }

    fn title(&self) -> &'static str {
        match self.kind {
            DialogKind::Open => "Open project",
            DialogKind::SaveAs => "Save project as",
            DialogKind::Import => "Import",
            DialogKind::Export => "Export .pbm",
            DialogKind::Texture(_) => "Choose a texture",
        }
    }

    fn saving(&self) -> bool {
        matches!(self.kind, DialogKind::SaveAs | DialogKind::Export)
    }

    /// What the confirm button does with the name field: the chosen path, or why
    /// not (shown in red). A folder's name opens that folder instead.
    fn confirm(&mut self) -> Option<PathBuf> {
        let name = self.name.trim();
        if name.is_empty() {
            self.error = Some(if self.saving() {
                "type a file name".into()
            } else {
                "choose a file".into()
            });
            return None;
        }
        let path = if Path::new(name).is_absolute() {
            PathBuf::from(name)
        } else {
            self.dir.join(name)
        };
        if path.is_dir() {
            self.name.clear();
            self.go(path);
            return None;
        }
        if self.saving() {
            let path = with_extension(path, self.kind);
            // A folder typed that is not there yet is made, as desktop dialogs do
            // ("levels/room" saves into a new "levels").
            if let Some(parent) = path.parent()
                && !parent.is_dir()
                && let Err(e) = std::fs::create_dir_all(parent)
            {
                self.error = Some(format!("cannot make the folder {}: {e}", parent.display()));
                return None;
            }
            if path.exists() && self.confirm_replace.as_ref() != Some(&path) {
                self.error = Some(format!(
                    "{} exists: press {} again to replace it",
                    path.file_name()
                        .map(|n| n.to_string_lossy())
                        .unwrap_or_default(),
                    self.confirm_label()
                ));
                self.confirm_replace = Some(path);
                return None;
            }
            Some(path)
        } else if path.is_file() {
            Some(path)
        } else {
            self.error = Some(format!("{} does not exist", path.display()));
            None
        }
    }

    fn confirm_label(&self) -> &'static str {
        match self.kind {
            DialogKind::Open => "Open",
            DialogKind::SaveAs => "Save",
            DialogKind::Import => "Import",
            DialogKind::Export => "Export",
            DialogKind::Texture(_) => "Use",
        }
    }

    /// Makes a folder in the one shown and goes into it: named from the name field
    /// when it holds a plain name (no extension), else "New folder" (numbered when
    /// taken).
    fn new_folder(&mut self) {
        let typed = self.name.trim();
        let plain = !typed.is_empty() && !typed.contains('.') && !typed.contains('/');
        let mut name = if plain {
            typed.to_owned()
        } else {
            "New folder".to_owned()
        };
        let mut n = 2;
        while self.dir.join(&name).exists() && !(plain && self.dir.join(&name).is_dir()) {
            name = format!("New folder {n}");
            n += 1;
        }
        let dir = self.dir.join(&name);
        match std::fs::create_dir_all(&dir) {
            Ok(()) => {
                if plain {
                    self.name.clear();
                }
                self.go(dir);
            }
            Err(e) => self.error = Some(format!("cannot make the folder {}: {e}", dir.display())),
        }
    }

    /// Draws the dialog. `Some(Some(path))` once a path was chosen, `Some(None)`
    /// when cancelled (Cancel or Esc), `None` while it stays open.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<Option<PathBuf>> {
        let mut outcome = None;
        let modal = egui::Modal::new(egui::Id::unique("pebble file dialog")).show(ctx, |ui| {
            ui.set_width(560.0);
            ui.heading(self.title());
            ui.horizontal(|ui| {
                if ui
                    .button("⬆ Up")
                    .on_hover_text("the folder above")
                    .clicked()
                    && let Some(up) = self.dir.parent().map(Path::to_path_buf)
                {
                    self.go(up);
                }
                if ui.button("Home").clicked()
                    && let Some(home) = std::env::var_os("HOME").map(PathBuf::from)
                {
                    self.go(home);
                }
                if ui
                    .button("New folder")
                    .on_hover_text("make a folder here (named from the name field, if it holds a name without an extension) and go into it")
                    .clicked()
                {
                    self.new_folder();
                }
                let label = ui.label("Folder:");
                let field = ui
                    .add(
                        egui::TextEdit::singleline(&mut self.dir_text).desired_width(f32::INFINITY),
                    )
                    .labelled_by(label.id);
                if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    self.go(PathBuf::from(self.dir_text.trim()));
                }
            });
            ui.separator();
            let mut open_dir = None;
            let mut chosen = None;
            egui::ScrollArea::vertical()
                .max_height(320.0)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    if self.entries.is_empty() {
                        ui.weak("(no folders or matching files here)");
                    }
                    for e in &self.entries {
                        let text = if e.is_dir {
                            format!("🗀 {}/", e.name)
                        } else {
                            format!("🗋 {}", e.name)
                        };
                        let row = ui.selectable_label(!e.is_dir && self.name == e.name, text);
                        if e.is_dir && (row.double_clicked() || row.clicked()) {
                            open_dir = Some(self.dir.join(&e.name));
                        } else if row.double_clicked() {
                            self.name = e.name.clone();
                            chosen = Some(());
                        } else if row.clicked() {
                            self.name = e.name.clone();
                            self.error = None;
                            self.confirm_replace = None;
                        }
                    }
                });
            if let Some(dir) = open_dir {
                self.go(dir);
            }
            ui.separator();
            let (filter_name, _) = filter(self.kind);
            ui.horizontal(|ui| {
                let label = ui.label("File name:");
                let field = ui
                    .add(egui::TextEdit::singleline(&mut self.name).desired_width(360.0))
                    .labelled_by(label.id);
                if field.changed() {
                    self.error = None;
                    self.confirm_replace = None;
                }
                if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    chosen = Some(());
                }
            });
            ui.horizontal(|ui| {
                ui.weak(format!("Showing: {filter_name}"));
                if ui.checkbox(&mut self.show_hidden, "Hidden files").changed() {
                    self.go(self.dir.clone());
                }
            });
            if let Some(e) = &self.error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            ui.horizontal(|ui| {
                if ui.button(self.confirm_label()).clicked() {
                    chosen = Some(());
                }
                if ui.button("Cancel").clicked() {
                    outcome = Some(None);
                }
            });
            if chosen.is_some()
                && let Some(path) = self.confirm()
            {
                outcome = Some(Some(path));
            }
        });
        if modal.should_close() && outcome.is_none() {
            // Esc, or a click outside the dialog.
            outcome = Some(None);
        }
        outcome
    }
}

/// A saved file gets the kind's extension when the name has none of it.
fn with_extension(path: PathBuf, kind: DialogKind) -> PathBuf {
    let name = path.to_string_lossy();
    match kind {
        DialogKind::SaveAs if !name.ends_with(".ron") => {
            PathBuf::from(format!("{name}.{}", pebble_model::project::EXTENSION))
        }
        DialogKind::Export if !name.to_ascii_lowercase().ends_with(".pbm") => {
            PathBuf::from(format!("{name}.pbm"))
        }
        _ => path,
    }
}

/// The folders and matching files of `dir`, folders first, each sorted by name
/// (case-insensitive); hidden ones (a leading dot) only when asked.
fn list(dir: &Path, kind: DialogKind, show_hidden: bool) -> std::io::Result<Vec<Entry>> {
    let (_, extensions) = filter(kind);
    let mut entries: Vec<Entry> = std::fs::read_dir(dir)?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && !show_hidden {
                return None;
            }
            let is_dir = e.path().is_dir();
            let matches = Path::new(&name)
                .extension()
                .is_some_and(|x| extensions.iter().any(|want| x.eq_ignore_ascii_case(want)));
            (is_dir || matches).then_some(Entry { name, is_dir })
        })
        .collect();
    entries.sort_by(|a, b| {
        b.is_dir
            .cmp(&a.is_dir)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pebble-dialog-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("maps")).expect("folders");
        for f in [
            "b.pebble.ron",
            "A.pebble.ron",
            "notes.txt",
            ".hidden.ron",
            "x.PBM",
        ] {
            std::fs::write(dir.join(f), "x").expect("file");
        }
        dir
    }

    #[test]
    fn lists_folders_first_then_the_kinds_files() {
        let dir = folder("list");
        let names = |kind, hidden| -> Vec<String> {
            list(&dir, kind, hidden)
                .expect("lists")
                .into_iter()
                .map(|e| e.name)
                .collect()
        };
        assert_eq!(
            names(DialogKind::Open, false),
            ["maps", "A.pebble.ron", "b.pebble.ron"]
        );
        assert!(names(DialogKind::Open, true).contains(&".hidden.ron".to_string()));
        assert_eq!(names(DialogKind::Export, false), ["maps", "x.PBM"]);
        assert!(list(&dir.join("missing"), DialogKind::Open, false).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn confirming_opens_folders_checks_files_and_asks_before_replacing() {
        let dir = folder("confirm");
        let mut open = FileDialog::new(DialogKind::Open, &dir, None);
        assert_eq!(open.confirm(), None, "nothing chosen");
        assert!(open.error.is_some());
        open.name = "maps".into();
        assert_eq!(open.confirm(), None);
        assert!(open.dir().ends_with("maps"), "a folder's name opens it");
        open.name = "nothing.pebble.ron".into();
        assert_eq!(open.confirm(), None, "a missing file is refused");

        let mut save = FileDialog::new(DialogKind::SaveAs, &dir, Some("level".into()));
        let new = save.confirm().expect("a new name is taken");
        assert!(new.ends_with("level.pebble.ron"), "{}", new.display());
        save.name = "A.pebble.ron".into();
        assert_eq!(save.confirm(), None, "an existing file asks first");
        assert!(save.error.as_deref().is_some_and(|e| e.contains("replace")));
        assert!(save.confirm().is_some_and(|p| p.ends_with("A.pebble.ron")));
        // A folder that is not there yet is made.
        save.name = "missing/deeper.pebble.ron".into();
        let deeper = save.confirm().expect("saves into a new folder");
        assert!(
            deeper.parent().is_some_and(Path::is_dir),
            "{}",
            deeper.display()
        );
        // New folder: named from the name field, or "New folder", and entered.
        save.name = "levels".into();
        save.new_folder();
        assert!(save.dir().ends_with("levels") && save.dir().is_dir());
        save.new_folder();
        assert!(save.dir().ends_with("levels/New folder") && save.dir().is_dir());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
