//! Hot reload: the files the project uses — the materials' and emitters'
//! textures, the models meshes were imported from (glTF, TMD) — are watched with
//! `notify`. When one changes on disk, the viewport shows the new one within a
//! second: a texture is loaded again in place, a model imported again and its
//! meshes' geometry replaced. Neither is an undo step (the file is the truth);
//! the Log says what was reloaded, and a deleted file shows as missing (the
//! magenta checker), never a crash. The project's entity definitions
//! (`entities.ron`) are read again the same way: the Create menu, the inspector
//! and the viewport follow without a restart.
//!
//! The folders are watched, not the files: editors save by writing a new file and
//! renaming it over the old one, which a watch on the old file would miss.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use eframe::egui;
use notify::Watcher as _;
use pebble_model::entity::{EntityKind, GeometrySource};
use pebble_model::{Scene, project};

/// How long a file must stay quiet before it is reloaded (a save writes in
/// several steps).
pub const SETTLE: Duration = Duration::from_millis(150);

/// What the project uses a watched file for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Use {
    /// A texture, by its project-relative path (as materials and emitters name it).
    Texture(String),
    /// A model meshes were imported from, by the path their source names.
    Model(String),
    /// The project's own entity kinds (`entities.ron` beside it), watched whether
    /// it exists or not: a file made while the editor runs is read too.
    Definitions,
    /// The file of a prefab the map has instances of (edited on its own in
    /// another window, or by hand): the instances follow it.
    Prefab,
}

pub struct HotReload {
    pub(super) watcher: Option<notify::RecommendedWatcher>,
    pub(super) events: Receiver<PathBuf>,
    /// Folders watched.
    pub(super) folders: BTreeSet<PathBuf>,
    /// Files of interest (absolute) and their uses.
    pub(super) files: BTreeMap<PathBuf, BTreeSet<Use>>,
    /// The scene revision the files were found for.
    pub(super) revision: Option<(u64, PathBuf)>,
    /// Changed files waiting to settle, with when they last changed.
    pub(super) pending: BTreeMap<PathBuf, Instant>,
}

impl std::fmt::Debug for HotReload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HotReload")
            .field("watching", &self.watcher.is_some())
            .field("folders", &self.folders)
            .field("files", &self.files.len())
            .finish_non_exhaustive()
    }
}

impl HotReload {
    /// A watcher that wakes the UI (`ctx`) when something changes. Without one
    /// (the system refuses) files are simply not watched, and the Log says so.
    pub fn new(ctx: Option<egui::Context>) -> Self {
        let (tx, events): (Sender<PathBuf>, _) = channel();
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else { return };
            if matches!(event.kind, notify::EventKind::Access(_)) {
                return;
            }
            for path in event.paths {
                let _ = tx.send(path);
            }
            if let Some(ctx) = &ctx {
                ctx.request_repaint_after(SETTLE + Duration::from_millis(20));
            }
        });
        let watcher = match watcher {
            Ok(w) => Some(w),
            Err(e) => {
                tracing::warn!(target: "pebble", "files are not watched for changes: {e}");
                None
            }
        };
        Self {
            watcher,
            events,
            folders: BTreeSet::new(),
            files: BTreeMap::new(),
            revision: None,
            pending: BTreeMap::new(),
        }
    }

    /// Watches what `scene` (saved at `project_file`) uses, when that changed.
    pub fn follow(&mut self, scene: &Scene, project_file: &Path) {
        let key = (scene.revision(), project_file.to_path_buf());
        if self.revision.as_ref() == Some(&key) {
            return;
        }
        self.revision = Some(key);
        self.files = used_files(scene, project_file);
        let folders: BTreeSet<PathBuf> = self
            .files
            .keys()
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .filter(|d| d.is_dir())
            .collect();
        let Some(watcher) = &mut self.watcher else {
            return;
        };
        for gone in self.folders.difference(&folders) {
            let _ = watcher.unwatch(gone);
        }
        for new in folders.difference(&self.folders) {
            if let Err(e) = watcher.watch(new, notify::RecursiveMode::NonRecursive) {
                tracing::warn!(target: "pebble", "cannot watch {} for changes: {e}", new.display());
            }
        }
        self.folders = folders;
    }

    /// The files of interest that changed and have settled, with their uses.
    pub fn changed(&mut self, now: Instant) -> Vec<(PathBuf, BTreeSet<Use>)> {
        while let Ok(path) = self.events.try_recv() {
            if self.files.contains_key(&path) {
                self.pending.insert(path, now);
            }
        }
        let settled: Vec<PathBuf> = self
            .pending
            .iter()
            .filter(|(_, at)| now.duration_since(**at) >= SETTLE)
            .map(|(p, _)| p.clone())
            .collect();
        settled
            .into_iter()
            .filter_map(|p| {
                self.pending.remove(&p);
                self.files.get(&p).map(|uses| (p, uses.clone()))
            })
            .collect()
    }

    /// Whether changes wait to settle (the UI should look again soon).
    pub fn waiting(&self) -> bool {
        !self.pending.is_empty()
    }
}

/// `new` geometry (faces naming the import's k-th material) on the materials
/// `old` used, in the order they first appear; faces beyond them take the first.
pub fn keep_materials(
    old: &pebble_model::MeshData,
    mut new: pebble_model::MeshData,
) -> pebble_model::MeshData {
    let theirs = old.materials();
    let ours = new.materials();
    let Some(first) = theirs.first().copied() else {
        return new;
    };
    for f in &mut new.faces {
        let k = ours.iter().position(|m| *m == f.material).unwrap_or(0);
        f.material = theirs.get(k).copied().unwrap_or(first);
    }
    new
}

/// Every file `scene` uses, absolute, with its uses.
pub fn used_files(scene: &Scene, project_file: &Path) -> BTreeMap<PathBuf, BTreeSet<Use>> {
    let mut out: BTreeMap<PathBuf, BTreeSet<Use>> = BTreeMap::new();
    if let Some(folder) = project_file.parent() {
        out.entry(folder.join(pebble_model::definitions::FILE_NAME))
            .or_default()
            .insert(Use::Definitions);
    }
    let mut add = |relative: &str, u: Use| {
        out.entry(project::resolve_asset(project_file, relative))
            .or_default()
            .insert(u);
    };
    for (_, m) in scene.materials() {
        if let Some(t) = &m.texture {
            add(t, Use::Texture(t.clone()));
        }
    }
    for p in scene.prefabs().filter(|p| !p.local) {
        use pebble_model::prefab::file;
        let relative = format!(
            "{}/{}{}",
            file::FOLDER,
            file::file_stem(&p.name),
            file::EXTENSION
        );
        add(&relative, Use::Prefab);
    }
    for e in scene.entities() {
        match &e.kind {
            EntityKind::Emitter(em) => {
                if let Some(t) = &em.texture {
                    add(t, Use::Texture(t.clone()));
                }
            }
            EntityKind::Mesh(m) => {
                if let GeometrySource::Asset { path, .. } = &m.source
                    && !path.is_empty()
                {
                    add(path, Use::Model(path.clone()));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests;
