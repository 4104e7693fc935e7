//! The project's prefabs as the editor holds them: the files of its
//! `prefabs/` folder (read when the project opens and after each save), what
//! each map-side copy is checked against, and what is wrong with them — a file
//! that does not read, or one a map's instances name that is gone. A prefab
//! file that does not read is never written over: its instances keep their
//! last known content, and the file stays for its author to mend.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pebble_model::prefab::file::{self, Folder};
use pebble_model::prefab::{Prefab, PrefabId, edit};
use pebble_model::{Command, Scene};

#[derive(Debug, Clone, Default)]
pub struct PrefabLibrary {
    pub folder: Folder,
    /// The shared prefabs the map held as last saved: each has a file (a
    /// prefab made since is not missing, only not saved yet).
    saved: BTreeSet<PrefabId>,
}

impl PrefabLibrary {
    /// The folder of the project at `project_folder`, whose map holds `scene`
    /// as saved.
    pub fn read(project_folder: &Path, scene: &Scene) -> Self {
        Self {
            folder: Folder::read(project_folder),
            saved: shared(scene),
        }
    }

    /// Every prefab one can place: the map's own (map-local ones included)
    /// and those in the folder the map does not hold yet, by name.
    pub fn placeable(&self, scene: &Scene) -> Vec<Prefab> {
        let mut out: Vec<Prefab> = scene.prefabs().cloned().collect();
        for (_, p) in &self.folder.read {
            if !out.iter().any(|q| q.id == p.id) {
                out.push(p.clone());
            }
        }
        // A prefab opened on its own is not placed in itself.
        out.retain(|p| Some(p.id) != scene.settings().prefab);
        out.sort_by_key(|a| a.name.to_lowercase());
        out
    }

    /// The file a shared prefab of the map is kept in.
    pub fn file_of(&self, id: PrefabId) -> Option<&Path> {
        self.folder
            .read
            .iter()
            .find(|(_, p)| p.id == id)
            .map(|(path, _)| path.as_path())
    }

    /// What is wrong, one line each (for the Log and the Problems panel): a
    /// file that does not read; a shared prefab of the map whose file is gone.
    pub fn problems(&self, scene: &Scene) -> Vec<(Option<PrefabId>, String)> {
        let mut out = Vec::new();
        let named = |path: &Path| {
            let name = path.file_name()?.to_str()?.to_owned();
            scene
                .prefabs()
                .find(|p| format!("{}{}", file::file_stem(&p.name), file::EXTENSION) == name)
                .map(|p| p.id)
        };
        for (path, why) in &self.folder.unreadable {
            out.push((
                named(path),
                format!(
                    "{why} — the instances keep their last known content and saving leaves {} as it is; mend it or delete it",
                    display_name(path)
                ),
            ));
        }
        for p in scene.prefabs().filter(|p| !p.local) {
            let unreadable = out.iter().any(|(id, _)| *id == Some(p.id));
            if self.saved.contains(&p.id) && self.file_of(p.id).is_none() && !unreadable {
                let count = scene.instances_of(p.id).len();
                out.push((
                    Some(p.id),
                    format!(
                        "the prefab {}: its file in {}/ is missing; its {count} instance{} keep their last known content, and saving writes the file again",
                        p.name,
                        file::FOLDER,
                        if count == 1 { "" } else { "s" }
                    ),
                ));
            }
        }
        out
    }

    /// The folder read again while the map is open (a file changed on disk):
    /// a prefab whose file changed follows it — unless this map changed its
    /// copy since the file was last read or written here, when the map's copy
    /// stays (nothing unsaved is lost) and the Log says so. A file that did
    /// not change (this editor's own save) changes nothing. Lines for the Log.
    pub fn files_changed(&mut self, project_folder: &Path, scene: &mut Scene) -> Vec<String> {
        let before = std::mem::replace(&mut self.folder, Folder::read(project_folder));
        let known = |id: PrefabId| before.read.iter().find(|(_, p)| p.id == id).map(|(_, p)| p);
        let mut lines = Vec::new();
        for (path, p) in &self.folder.read {
            if known(p.id) == Some(p) {
                continue;
            }
            let Some(have) = scene.prefab(p.id) else {
                continue;
            };
            if have == p {
                continue;
            }
            if known(p.id).is_some_and(|k| k != have) {
                lines.push(format!(
                    "{} changed on disk, and this map changed the prefab {} too: the map keeps its own (saving writes it over the file)",
                    display_name(path),
                    p.name
                ));
                continue;
            }
            lines.extend(follow_one(scene, path, p));
        }
        lines
    }

    /// The map's copies of prefabs whose file changed since the map was
    /// saved, brought in line (every instance follows). Not an undo step: it
    /// is what the files say. Returns a line for the Log per prefab.
    pub fn follow_files(&self, scene: &mut Scene) -> Vec<String> {
        let mut lines = Vec::new();
        for (path, p) in &self.folder.read {
            let Some(have) = scene.prefab(p.id) else {
                continue;
            };
            if have == p {
                continue;
            }
            lines.extend(follow_one(scene, path, p));
        }
        lines
    }

    /// Writes the map's shared prefabs to their files where they differ,
    /// never over a file that does not read; then reads the folder again.
    pub fn write(&mut self, project_folder: &Path, scene: &Scene) -> Result<(), String> {
        let skip: Vec<PathBuf> = self
            .folder
            .unreadable
            .iter()
            .map(|(p, _)| p.clone())
            .collect();
        for p in scene.prefabs().filter(|p| !p.local) {
            let path = self.folder.path_for(project_folder, p);
            if skip.contains(&path) {
                continue;
            }
            let same = self
                .folder
                .read
                .iter()
                .any(|(q, have)| *q == path && have == p);
            if !same {
                file::save(&path, p)?;
            }
        }
        self.folder = Folder::read(project_folder);
        self.saved = shared(scene);
        Ok(())
    }
}

/// The map's copy of `p` and its instances brought in line with its file.
fn follow_one(scene: &mut Scene, path: &Path, p: &Prefab) -> Option<String> {
    let outcome = edit::follow(scene, p).and_then(|mut patch| patch.apply(scene));
    Some(match outcome {
        Ok(()) => format!(
            "{} changed: its {} instance(s) follow it",
            display_name(path),
            scene.instances_of(p.id).len()
        ),
        Err(e) => format!("{}: {e}", display_name(path)),
    })
}

fn shared(scene: &Scene) -> BTreeSet<PrefabId> {
    scene.prefabs().filter(|p| !p.local).map(|p| p.id).collect()
}

fn display_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{}/{name}", file::FOLDER)
}

#[cfg(test)]
mod tests;
