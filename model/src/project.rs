//! Project files (`*.pebble.ron`): versioned RON, atomic saves, crash recovery;
//! big meshes' geometry in a binary file beside the RON ([`crate::sidecar`]).
//!
//! Saves go through a temporary file in the same folder, fsync, rename and an fsync
//! of the folder, so a crash or `kill -9` mid-save leaves either the complete old or
//! the complete new project. While a scene is dirty the editor autosaves it to a
//! recovery file beside the project; opening a project reports a newer recovery file
//! ([`RecoveryInfo`]) and never applies or deletes it on its own.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use serde::{Deserialize, Serialize};

use crate::entity::EntityKind;
use crate::id::IdAllocator;
use crate::scene::{Scene, SceneData};

/// The project format this build writes and reads.
///
/// - 1: the first.
/// - 2: box and ramp colliders and triggers stand on their origin (as primitives
///   do) instead of being centred on it, and stairs are centred on it in Z like
///   the other primitives; a version-1 file is moved on load, so everything
///   stays where it was in the world.
/// - 3: meshes of [`crate::sidecar::STORED_FROM_FACES`] faces or more are kept in
///   a binary file beside the project, which the project names by size and hash.
/// - 4: entities say whether they are exported (`exported`); hiding became a view
///   setting. Up to version 3 a hidden entity (or one in a hidden layer or under a
///   hidden parent) was left out of the map, so such entities load with
///   `exported: false`, shown in the outliner, and the map stays the same.
pub const FORMAT_VERSION: u32 = 4;
/// The oldest project format this build reads (and brings up to date).
pub const OLDEST_VERSION: u32 = 1;
/// Marks a RON file as a Pebble project.
pub const FORMAT_NAME: &str = "pebble-project";
pub const EXTENSION: &str = "pebble.ron";

#[derive(Debug, Deserialize)]
struct ProjectFile {
    format: String,
    version: u32,
    ids: IdAllocator,
    scene: SceneData,
}

/// The same fields, borrowed, for saving without copying the scene, and the
/// binary file its big meshes went to while the scene was written (after it).
#[derive(Debug, Serialize)]
struct ProjectFileRef<'a> {
    format: &'a str,
    version: u32,
    ids: &'a IdAllocator,
    scene: &'a SceneData,
    #[serde(skip_serializing_if = "BinaryMark::nothing_stored")]
    binary: BinaryMark,
}

/// The binary file a project names: its size and its FNV-1a 64, which names it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
struct Binary {
    bytes: u64,
    fnv1a64: String,
}

/// Serialises as the [`Binary`] of what the save wrote so far.
#[derive(Debug)]
struct BinaryMark;

impl BinaryMark {
    fn nothing_stored(&self) -> bool {
        crate::sidecar::written_len().is_none_or(|n| n == 0)
    }
}

impl Serialize for BinaryMark {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (bytes, hash) = crate::sidecar::written().unwrap_or((0, 0));
        Binary {
            bytes,
            fnv1a64: format!("{hash:016x}"),
        }
        .serialize(s)
    }
}

/// The binary file a project names, read first (its meshes need it).
#[derive(Debug, Deserialize)]
struct BinaryProbe {
    /// Absent: no binary file (read as the default, of 0 bytes).
    #[serde(default)]
    binary: Binary,
}

/// The binary file beside `project` whose bytes hash to `fnv1a64`:
/// `level.<hash>.pebble.bin` for `level.pebble.ron`.
pub fn binary_path(project: &Path, fnv1a64: &str) -> PathBuf {
    project.with_file_name(format!("{}.{fnv1a64}.pebble.bin", binary_stem(project)))
}

fn binary_stem(project: &Path) -> String {
    let name = project
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.strip_suffix(".pebble.ron")
        .map(str::to_string)
        .unwrap_or(name)
}

/// The binary files beside `project` that belong to it (any hash).
fn binary_files(project: &Path) -> Vec<PathBuf> {
    let stem = binary_stem(project);
    let dir = match project.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_prefix(&stem)
                .and_then(|r| r.strip_prefix('.'))
                .and_then(|r| r.strip_suffix(".pebble.bin"))
                .is_some_and(|h| h.len() == 16 && h.chars().all(|c| c.is_ascii_hexdigit()))
        })
        .map(|e| e.path())
        .collect()
}

/// Removes a project file (a recovery file, say) and its binary files, quietly:
/// what is not there is already gone.
pub fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
    remove_binaries(path, None);
}

/// Removes `project`'s binary files but `keep`.
fn remove_binaries(project: &Path, keep: Option<&Path>) {
    // By name: the folder may be spelt `.` one way and `` the other.
    let keep = keep.and_then(Path::file_name);
    for p in binary_files(project) {
        if p.file_name() != keep {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Only the fields needed to recognise a file and its version.
#[derive(Debug, Deserialize)]
struct Probe {
    #[serde(default)]
    format: String,
    #[serde(default)]
    version: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error("cannot read {}: {cause}", path.display())]
    Read {
        path: PathBuf,
        /// Said in the message, so not the error's source (a chain would say it twice).
        cause: std::io::Error,
    },
    #[error("cannot save {}: {cause} (the previous file is unchanged)", path.display())]
    Write {
        path: PathBuf,
        /// Said in the message, so not the error's source (a chain would say it twice).
        cause: std::io::Error,
    },
    #[error("{}:{line}:{column}: {message}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{} is not a Pebble project (expected `format: \"{FORMAT_NAME}\"`)", path.display())]
    NotAProject { path: PathBuf },
    #[error("{} was written by a newer Pebble (project format {found}; this version reads up to {FORMAT_VERSION}); update Pebble to open it", path.display())]
    Newer { path: PathBuf, found: u32 },
    #[error("{} uses project format {found}, which this Pebble no longer reads (it reads {OLDEST_VERSION} to {FORMAT_VERSION}); open and re-save it with Pebble 0.1", path.display())]
    Older { path: PathBuf, found: u32 },
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
}

/// The project's text.
pub fn to_ron(scene: &Scene) -> Result<String, ron::Error> {
    let file = ProjectFileRef {
        format: FORMAT_NAME,
        version: FORMAT_VERSION,
        ids: scene.ids(),
        scene: scene.data(),
        binary: BinaryMark,
    };
    let config = ron::ser::PrettyConfig::new().indentor("  ".to_string());
    ron::ser::to_string_pretty(&file, config)
}

fn parse_error(path: &Path, e: ron::error::SpannedError) -> ProjectError {
    ProjectError::Parse {
        path: path.to_owned(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    }
}

/// The project's text and its binary file's bytes (empty: no mesh is big enough
/// to go there, and the text holds everything).
pub fn to_ron_and_binary(scene: &Scene) -> Result<(String, Vec<u8>), ron::Error> {
    to_ron_binary_and_hash(scene).map(|(text, binary, _)| (text, binary))
}

/// [`to_ron_and_binary`] and the binary's FNV-1a 64 (hashed once, as the project
/// named it).
fn to_ron_binary_and_hash(scene: &Scene) -> Result<(String, Vec<u8>, u64), ron::Error> {
    let guard = crate::sidecar::Guard::new(crate::sidecar::Context::Writing(Vec::new(), None));
    let text = to_ron(scene)?;
    let (binary, hash) = guard.finish();
    Ok((text, binary, hash))
}

/// Reads the binary file the project at `path` names, checking its size and hash.
fn read_binary(path: &Path, binary: &Binary) -> Result<Vec<u8>, ProjectError> {
    let file = binary_path(path, &binary.fnv1a64);
    let invalid = |message: String| ProjectError::Invalid {
        path: path.to_owned(),
        message,
    };
    let bytes = std::fs::read(&file).map_err(|e| {
        invalid(format!(
            "its big meshes are in {}, which cannot be read ({e}); a project's .pebble.bin file must be copied along with it",
            file.display()
        ))
    })?;
    let hash = format!("{:016x}", pbm::fnv::fnv1a64(&bytes));
    if bytes.len() as u64 != binary.bytes || hash != binary.fnv1a64 {
        return Err(invalid(format!(
            "{} does not match the project ({} bytes hashing to {hash}, where the project expects {} bytes hashing to {}): it was changed after the save; restore it from where the project came from",
            file.display(),
            bytes.len(),
            binary.bytes,
            binary.fnv1a64
        )));
    }
    Ok(bytes)
}

/// Parses a project's text; `path` names it in errors and locates its binary
/// file.
pub fn from_ron(text: &str, path: &Path) -> Result<Scene, ProjectError> {
    // The field comes last: a file without it (most) is parsed once.
    let names_binary = text.rfind("binary:").is_some();
    let binary = match names_binary.then(|| ron::from_str::<BinaryProbe>(text)) {
        Some(Ok(BinaryProbe { binary })) if binary != Binary::default() => {
            Some(read_binary(path, &binary)?)
        }
        _ => None,
    };
    let _guard =
        binary.map(|bytes| crate::sidecar::Guard::new(crate::sidecar::Context::Reading(bytes)));
    from_ron_text(text, path)
}

fn from_ron_text(text: &str, path: &Path) -> Result<Scene, ProjectError> {
    let check_header = |format: &str, version: u32| {
        if format != FORMAT_NAME {
            return Err(ProjectError::NotAProject {
                path: path.to_owned(),
            });
        }
        match version {
            OLDEST_VERSION..=FORMAT_VERSION => Ok(()),
            found if found > FORMAT_VERSION => Err(ProjectError::Newer {
                path: path.to_owned(),
                found,
            }),
            found => Err(ProjectError::Older {
                path: path.to_owned(),
                found,
            }),
        }
    };
    // One full parse in the common case; only a file that does not parse as this
    // version is probed for its format and version, to say why.
    let file: ProjectFile = match ron::from_str(text) {
        Ok(file) => file,
        Err(e) => {
            if let Ok(probe) = ron::from_str::<Probe>(text) {
                check_header(&probe.format, probe.version)?;
            }
            return Err(parse_error(path, e));
        }
    };
    check_header(&file.format, file.version)?;
    let mut file = file;
    if file.version < 2 {
        stand_volumes_on_their_origin(&mut file.scene);
        centre_stairs(&mut file.scene);
    }
    if file.version < 4 {
        hidden_meant_not_exported(&mut file.scene);
    }
    check(&file.scene).map_err(|message| ProjectError::Invalid {
        path: path.to_owned(),
        message,
    })?;
    Ok(Scene::from_data(file.scene, file.ids))
}

/// Up to version 3, what was hidden (itself, its layer or an ancestor) was not
/// exported; version 4 says so with `exported`, and hiding only hides.
fn hidden_meant_not_exported(scene: &mut SceneData) {
    let shown = |id: crate::EntityId| {
        let mut cur = scene.entities.get(&id);
        while let Some(e) = cur {
            let layer_shown = scene
                .layers
                .iter()
                .find(|l| l.id == e.layer)
                .is_none_or(|l| l.visible);
            if !e.visible || !layer_shown {
                return false;
            }
            cur = e.parent.and_then(|p| scene.entities.get(&p));
        }
        true
    };
    let hidden: Vec<crate::EntityId> = scene
        .entities
        .keys()
        .copied()
        .filter(|&id| !shown(id))
        .collect();
    for id in hidden {
        if let Some(e) = scene.entities.get_mut(&id) {
            e.exported = false;
        }
    }
}

/// Version 1 centred volumes on their entity; version 2 stands them on it. The
/// entity moves down by half the height along its own up axis (rotation and
/// scale included), so the volume stays in place.
fn stand_volumes_on_their_origin(data: &mut SceneData) {
    use crate::entity::Collider;
    for e in data.entities.values_mut() {
        let height = match &e.kind {
            EntityKind::Defined(d) if d.kind == "Trigger" => {
                match crate::definitions::builtin::value(d, "size").and_then(|v| v.as_point()) {
                    Some(size) => size.y,
                    None => continue,
                }
            }
            EntityKind::Collider(Collider::Box { size } | Collider::Ramp { size }) => size.y,
            _ => continue,
        };
        let t = &mut e.transform;
        t.translation -= t.rotation * (t.scale * glam::Vec3::new(0.0, height * 0.5, 0.0));
    }
}

/// Version 1 stairs ran from their origin toward −Z; version 2 centres them.
/// The entity moves along its own −Z by half the flight, the geometry is
/// built again from the parameters, and the flight stays in place.
fn centre_stairs(data: &mut SceneData) {
    use crate::entity::GeometrySource;
    use crate::primitive::Primitive;
    for e in data.entities.values_mut() {
        let EntityKind::Mesh(mesh) = &mut e.kind else {
            continue;
        };
        let GeometrySource::Primitive(p @ Primitive::Stairs { .. }) = &mesh.source else {
            continue;
        };
        let Primitive::Stairs { steps, run, .. } = *p else {
            continue;
        };
        let Some(material) = mesh.geometry.faces.first().map(|f| f.material) else {
            continue;
        };
        let Ok(geometry) = p.generate(material) else {
            // Parameters the check refuses: left as they are, for the check to name.
            continue;
        };
        mesh.geometry = geometry;
        let t = &mut e.transform;
        let half = steps as f32 * run / 2.0;
        t.translation += t.rotation * (t.scale * glam::Vec3::new(0.0, 0.0, -half));
    }
}

/// References inside the data must hold, or commands would fail in strange ways.
fn check(data: &SceneData) -> Result<(), String> {
    for (id, e) in &data.entities {
        if *id != e.id {
            return Err(format!(
                "entity '{}' is stored under id {id} but says it is {}",
                e.name, e.id
            ));
        }
        if let Some(p) = e.parent
            && !data.entities.contains_key(&p)
        {
            return Err(format!(
                "entity '{}' ({id}) has parent {p}, which does not exist",
                e.name
            ));
        }
        let geometry = match &e.kind {
            EntityKind::Mesh(m) => Some(&m.geometry),
            EntityKind::Walkable(g) => Some(g),
            _ => None,
        };
        if let Some(g) = geometry {
            g.validate()
                .map_err(|err| format!("entity '{}' ({id}): {err}", e.name))?;
            if let Some(f) = g
                .faces
                .iter()
                .find(|f| !data.materials.contains_key(&f.material))
            {
                return Err(format!(
                    "entity '{}' ({id}) uses material #{}, which does not exist",
                    e.name, f.material.0
                ));
            }
        }
        // A parent chain must end: walk at most as many steps as there are entities.
        let mut cur = e.parent;
        for _ in 0..=data.entities.len() {
            match cur {
                Some(p) if p == *id => {
                    return Err(format!("entity '{}' ({id}) is its own ancestor", e.name));
                }
                Some(p) => cur = data.entities.get(&p).and_then(|x| x.parent),
                None => break,
            }
        }
    }
    let listed: BTreeSet<_> = data.order.iter().collect();
    if listed.len() != data.order.len()
        || listed.len() != data.entities.len()
        || data.order.iter().any(|id| !data.entities.contains_key(id))
    {
        return Err("the outliner order does not list every entity exactly once".into());
    }
    Ok(())
}

/// Saves atomically: the binary file first (named by its hash, so an older one is
/// not overwritten), then the project, then the older binary files go.
pub fn save(path: &Path, scene: &Scene) -> Result<(), ProjectError> {
    if crate::prefab::own::is_prefab_file(path) {
        return crate::prefab::own::save(path, scene).map_err(|e| ProjectError::Write {
            path: path.to_owned(),
            cause: std::io::Error::other(e),
        });
    }
    let (text, binary, hash) = to_ron_binary_and_hash(scene).map_err(|e| ProjectError::Write {
        path: path.to_owned(),
        cause: std::io::Error::other(e.to_string()),
    })?;
    let kept = if binary.is_empty() {
        None
    } else {
        let file = binary_path(path, &format!("{hash:016x}"));
        let same = std::fs::metadata(&file).is_ok_and(|m| m.len() == binary.len() as u64);
        if !same {
            pbm::file::write_atomic(&file, &binary).map_err(|source| ProjectError::Write {
                path: file.clone(),
                cause: source,
            })?;
        }
        Some(file)
    };
    pbm::file::write_atomic(path, text.as_bytes()).map_err(|source| ProjectError::Write {
        path: path.to_owned(),
        cause: source,
    })?;
    remove_binaries(path, kept.as_deref());
    Ok(())
}

/// Loads a project (not its recovery file; see [`open`]).
pub fn load(path: &Path) -> Result<Scene, ProjectError> {
    if crate::prefab::own::is_prefab_file(path) {
        return crate::prefab::own::open(path).map_err(|message| ProjectError::Invalid {
            path: path.to_owned(),
            message,
        });
    }
    let text = std::fs::read_to_string(path).map_err(|source| ProjectError::Read {
        path: path.to_owned(),
        cause: source,
    })?;
    from_ron(&text, path)
}

/// The folder a project's relative paths (textures, exports) are resolved against:
/// the file's folder, or `.` for a bare file name.
pub fn folder_of(project: &Path) -> PathBuf {
    // A prefab opened on its own is one of the project's files.
    if let Some(folder) = crate::prefab::own::project_folder(project)
        && crate::prefab::own::is_prefab_file(project)
    {
        return folder.to_owned();
    }
    match project.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

/// Where the autosave of `project` goes: `.<name>.recovery` beside it.
pub fn recovery_path(project: &Path) -> PathBuf {
    let name = project
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    project.with_file_name(format!(".{name}.recovery"))
}

/// Whether `path` is one of the editor's recovery files beside a project: the
/// autosave [`recovery_path`] names, or that autosave's binary file
/// (`.<name>.recovery.<hash>.pebble.bin`). They are not part of the project:
/// whoever copies or lists a project's files leaves them out.
pub fn is_recovery_file(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let autosave = name
        .strip_suffix(".pebble.bin")
        .and_then(|rest| rest.rsplit_once('.'))
        .map_or(name, |(autosave, _hash)| autosave);
    autosave.starts_with('.') && autosave.ends_with(".recovery")
}

/// A recovery file newer than its project: unsaved work from a session that ended
/// without saving. The user decides: [`load_recovery`] or [`discard_recovery`].
#[derive(Debug, Clone, PartialEq)]
pub struct RecoveryInfo {
    /// The project the work belongs to (for an untitled one, a file never written).
    pub project: PathBuf,
    pub path: PathBuf,
    pub recovery_modified: SystemTime,
    /// `None` when the project itself was never saved.
    pub project_modified: Option<SystemTime>,
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The recovery file of `project`, if one exists that is newer than the project.
pub fn find_recovery(project: &Path) -> Option<RecoveryInfo> {
    let path = recovery_path(project);
    let recovery_modified = modified(&path)?;
    let project_modified = modified(project);
    let newer = project_modified.is_none_or(|p| recovery_modified >= p);
    newer.then_some(RecoveryInfo {
        project: project.to_owned(),
        path,
        recovery_modified,
        project_modified,
    })
}

/// Opens a project and reports a newer recovery file without touching it.
pub fn open(path: &Path) -> Result<(Scene, Option<RecoveryInfo>), ProjectError> {
    let scene = load(path)?;
    Ok((scene, find_recovery(path)))
}

pub fn load_recovery(info: &RecoveryInfo) -> Result<Scene, ProjectError> {
    load(&info.path)
}

pub fn discard_recovery(info: &RecoveryInfo) -> Result<(), ProjectError> {
    std::fs::remove_file(&info.path).map_err(|source| ProjectError::Write {
        path: info.path.clone(),
        cause: source,
    })?;
    remove_binaries(&info.path, None);
    Ok(())
}

/// The name an untitled project's file would have.
pub const UNTITLED_FILE: &str = "untitled.pebble.ron";

/// A fresh place for an untitled project under the user's data folder `data`:
/// `data/untitled/<n>/untitled.pebble.ron`, in a folder of its own (created) so
/// that its autosave and imported textures have somewhere to live before the user
/// picks a name, and so that two untitled projects never share one.
pub fn new_untitled(data: &Path) -> Result<PathBuf, ProjectError> {
    let root = data.join("untitled");
    let stamp = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    for k in 0..1000u32 {
        let dir = root.join(format!("{stamp}-{}-{k}", std::process::id()));
        match std::fs::create_dir_all(&root).and_then(|()| std::fs::create_dir(&dir)) {
            Ok(()) => return Ok(dir.join(UNTITLED_FILE)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(source) => {
                return Err(ProjectError::Write {
                    path: dir,
                    cause: source,
                });
            }
        }
    }
    Err(ProjectError::Write {
        path: root,
        cause: std::io::Error::other("no free folder for an untitled project"),
    })
}

/// Autosaved work of untitled projects under the data folder `data` that were
/// never saved, newest first: what a session killed before its first save left.
pub fn untitled_recoveries(data: &Path) -> Vec<RecoveryInfo> {
    let Ok(entries) = std::fs::read_dir(data.join("untitled")) else {
        return Vec::new();
    };
    let mut found: Vec<RecoveryInfo> = entries
        .flatten()
        .filter_map(|e| find_recovery(&e.path().join(UNTITLED_FILE)))
        .filter(|r| r.project_modified.is_none())
        .collect();
    found.sort_by_key(|r| std::cmp::Reverse(r.recovery_modified));
    found
}

/// Whether `project` is an untitled project's file under the data folder `data`.
pub fn is_untitled(project: &Path, data: &Path) -> bool {
    project.file_name().is_some_and(|n| n == UNTITLED_FILE)
        && project
            .parent()
            .and_then(Path::parent)
            .is_some_and(|p| p == data.join("untitled"))
}

/// Removes an untitled project's folder once its work is saved elsewhere or let
/// go (only folders [`new_untitled`] made: anything else is left alone).
pub fn remove_untitled(project: &Path, data: &Path) {
    if is_untitled(project, data)
        && let Some(dir) = project.parent()
    {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Autosaves a dirty scene to its recovery file every `interval`; call
/// [`Autosave::tick`] from the frame loop.
#[derive(Debug, Clone)]
pub struct Autosave {
    pub interval: Duration,
    last: Option<Instant>,
    /// The scene revision last written, and the one last seen with when it was
    /// first seen (an edit is written once it has been still a moment).
    written: Option<u64>,
    seen: Option<(u64, Instant)>,
}

/// How long after an edit its recovery file is written (a drag changes the scene
/// every frame: it is written once the drag has stopped this long).
pub const AUTOSAVE_AFTER_EDIT: Duration = Duration::from_secs(2);

impl Autosave {
    pub fn new(interval: Duration) -> Self {
        Self {
            interval,
            last: None,
            written: None,
            seen: None,
        }
    }

    /// Writes the recovery file when `dirty` and either the scene has changed
    /// since the last write and then stayed still [`AUTOSAVE_AFTER_EDIT`] (so the
    /// work is kept within seconds of an edit, not up to a minute later), or the
    /// interval has passed since the last autosave (or since the first tick), for
    /// work that never stops changing. Returns whether it wrote.
    pub fn tick(
        &mut self,
        now: Instant,
        project: &Path,
        scene: &Scene,
        dirty: bool,
    ) -> Result<bool, ProjectError> {
        let last = *self.last.get_or_insert(now);
        let revision = scene.revision();
        match self.seen {
            Some((r, _)) if r == revision => {}
            _ => self.seen = Some((revision, now)),
        }
        let still = self
            .seen
            .is_some_and(|(_, since)| now.duration_since(since) >= AUTOSAVE_AFTER_EDIT);
        let news = self.written != Some(revision) && still;
        if !dirty || !(news || now.duration_since(last) >= self.interval) {
            return Ok(false);
        }
        save(&recovery_path(project), scene)?;
        self.last = Some(now);
        self.written = Some(revision);
        Ok(true)
    }

    /// Whether the scene as it is has not been written yet (the caller looks
    /// again [`AUTOSAVE_AFTER_EDIT`] later).
    pub fn has_unwritten(&self, scene: &Scene) -> bool {
        self.written != Some(scene.revision())
    }

    /// After a real save the recovery file is stale: remove it.
    pub fn saved(&mut self, project: &Path, now: Instant) {
        remove(&recovery_path(project));
        self.last = Some(now);
    }
}

/// An asset path of the project resolved on disk.
pub fn resolve_asset(project: &Path, relative: &str) -> PathBuf {
    // A prefab opened on its own resolves against its project's folder.
    if crate::prefab::own::is_prefab_file(project)
        && let Some(folder) = crate::prefab::own::project_folder(project)
    {
        return folder.join(relative);
    }
    let base = project.parent().unwrap_or(Path::new("."));
    base.join(relative)
}
