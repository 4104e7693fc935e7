//! The open project: its scene, the history of commands that changed it, where it
//! is saved, whether it was ever saved, and its autosave. No egui here: the panels
//! and the viewport's tools ask for changes (intents, commands) and the app applies
//! them through this one door, so every edit is an undo step and marks the project
//! unsaved.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pebble_model::glam::{Affine3A, Vec3};
use pebble_model::history::History;
use pebble_model::{Aabb, Command, CommandError, EditKey, EntityId, Scene, project};

/// How many steps Undo can take back.
const HISTORY_LIMIT: usize = 500;

#[derive(Debug)]
pub struct Document {
    scene: Scene,
    history: History,
    path: PathBuf,
    /// The project has no file yet (File › New): Save asks where.
    untitled: bool,
    autosave: project::Autosave,
    /// Face mode's picked faces (not an undo step).
    pub faces: super::faces::FaceSelection,
    /// The texture lock: moving objects keeps their textures on them (off: the
    /// textures stay where they are in the world). The preferences keep it.
    pub texture_lock: bool,
    /// What the last Isolate hid (not an undo step): leaving isolate shows these
    /// again, and only these — what was hidden before stays hidden.
    pub isolated: Vec<pebble_model::EntityId>,
    /// The project's own entity kinds (`entities.ron` beside it).
    pub kinds: super::entity_kinds::ProjectKinds,
    /// The project's prefab files (`prefabs/` beside it).
    pub prefabs: super::prefab_library::PrefabLibrary,
}

impl Document {
    /// `scene` as loaded from `path` (nothing unsaved yet).
    pub fn new(scene: Scene, path: PathBuf, autosave_every: Duration) -> Self {
        let mut kinds = super::entity_kinds::ProjectKinds::default();
        let found = kinds.reload(path.parent().unwrap_or(Path::new(".")));
        if let super::entity_kinds::Reloaded::Refused(m) = &found {
            tracing::warn!(target: "pebble", "{m}");
        }
        let mut doc = Self {
            scene,
            history: History::new(HISTORY_LIMIT),
            path,
            untitled: false,
            autosave: project::Autosave::new(autosave_every),
            faces: Default::default(),
            texture_lock: true,
            isolated: Vec::new(),
            kinds,
            prefabs: Default::default(),
        };
        doc.reload_prefabs();
        doc
    }

    /// Reads the project's `prefabs/` again; the map's copies of prefabs whose
    /// file changed follow the file (the project is unsaved then). Says in
    /// the Log what changed and what is wrong.
    pub fn reload_prefabs(&mut self) {
        self.prefabs = super::prefab_library::PrefabLibrary::read(&self.folder(), &self.scene);
        let followed = self.prefabs.follow_files(&mut self.scene);
        for line in &followed {
            tracing::info!(target: "pebble", "{line}");
        }
        if !followed.is_empty() {
            self.history.mark_unsaved();
        }
        for (_, line) in self.prefabs.problems(&self.scene) {
            tracing::warn!(target: "pebble", "{line}");
        }
    }

    /// A prefab file changed on disk while the project is open (another
    /// window saved it, or this one): the map follows what changed there,
    /// never over its own unsaved change to that prefab. Lines for the Log
    /// and the status bar.
    pub fn prefab_files_changed(&mut self) -> Vec<String> {
        let folder = self.folder();
        let before = self.scene.prefabs_revision();
        let lines = self.prefabs.files_changed(&folder, &mut self.scene);
        if self.scene.prefabs_revision() != before {
            self.history.mark_unsaved();
        }
        lines
    }

    /// The prefab instance being edited in place.
    pub fn entered(&self) -> Option<EntityId> {
        self.history
            .entered()
            .filter(|id| self.scene.entity(*id).is_some_and(|e| e.instance.is_some()))
    }

    /// Enters a prefab instance to edit its prefab in place, or leaves it.
    pub fn enter(&mut self, instance: Option<EntityId>) {
        self.history.set_entered(&mut self.scene, instance);
    }

    /// Why the last drag was taken back as it ended (a move the prefabs
    /// refuse), once.
    pub fn take_refusal(&mut self) -> Option<CommandError> {
        self.history.take_refusal()
    }

    /// Reads the project's `entities.ron` again (it changed, or the project
    /// moved); the Log's line for what was found.
    pub fn reload_kinds(&mut self) -> (super::entity_kinds::Reloaded, String) {
        let found = self.kinds.reload(&self.folder());
        let line = super::entity_kinds::ProjectKinds::describe(&found);
        (found, line)
    }

    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    /// The project's file (for an untitled project, where it would be saved).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The project's folder: its textures and captures resolve against it.
    pub fn folder(&self) -> PathBuf {
        project::folder_of(&self.path)
    }

    /// The project file's name, for titles and questions.
    pub fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    pub fn is_untitled(&self) -> bool {
        self.untitled
    }

    pub fn is_dirty(&self) -> bool {
        self.history.is_dirty()
    }

    /// The window title: the file's name, a dot while there is unsaved work.
    pub fn title(&self) -> String {
        format!(
            "{}{} — Pebble",
            self.file_name(),
            if self.is_dirty() { " •" } else { "" }
        )
    }

    /// Puts another scene in place (Open, New, Restore): a fresh history, unsaved
    /// when it was restored or is new; untitled when it has no file yet.
    pub fn replace(&mut self, scene: Scene, path: PathBuf, unsaved: bool) {
        self.scene = scene;
        self.history = History::new(HISTORY_LIMIT);
        if unsaved {
            self.history.mark_unsaved();
        }
        self.untitled = unsaved && !path.exists();
        self.path = path;
        self.faces.clear();
        let (found, line) = self.reload_kinds();
        if let super::entity_kinds::Reloaded::Refused(_) = found {
            tracing::warn!(target: "pebble", "{line}");
        }
        self.reload_prefabs();
    }

    /// A transform step that follows the texture lock.
    pub fn set_transforms(
        &self,
        name: impl Into<String>,
        after: Vec<(pebble_model::EntityId, pebble_model::Transform)>,
    ) -> pebble_model::command::SetTransforms {
        pebble_model::command::SetTransforms::new(name, after)
            .textures_stay_in_world(!self.texture_lock)
    }

    /// Applies `command` as one undo step.
    pub fn execute(&mut self, command: impl Command) -> Result<(), CommandError> {
        self.history.execute(&mut self.scene, command)
    }

    /// Applies a boxed command: one step, or a step of the continuous edit `edit`.
    pub fn execute_boxed(
        &mut self,
        command: Box<dyn Command>,
        edit: Option<EditKey>,
    ) -> Result<(), CommandError> {
        self.history.execute_boxed(&mut self.scene, command, edit)
    }

    /// A change that is not an undo step: the scene follows a file that changed
    /// on disk (hot reload). The project counts as unsaved afterwards.
    pub fn follow_file(&mut self, mut command: impl Command) -> Result<(), CommandError> {
        command.apply(&mut self.scene)?;
        self.history.mark_unsaved();
        Ok(())
    }

    /// One step of a continuous edit (a drag): steps with the same key merge.
    pub fn execute_continuous(
        &mut self,
        command: impl Command,
        edit: EditKey,
    ) -> Result<(), CommandError> {
        self.history
            .execute_continuous(&mut self.scene, command, edit)
    }

    /// Makes the last two steps one (see [`History::join_previous`]).
    pub fn join_previous(&mut self, name: &str) {
        self.history.join_previous(name);
    }

    /// Closes the continuous edit in progress.
    pub fn end_edit(&mut self) {
        self.history.end_edit(&mut self.scene);
    }

    /// The continuous edit in progress belongs to a viewport tool (the gizmo,
    /// copies being placed), not to a panel.
    pub fn tool_edit_open(&self) -> bool {
        matches!(
            self.history.open_edit(),
            Some(EditKey::Gizmo | EditKey::Placing)
        )
    }

    /// A panel's continuous edit is in progress (a UV drag, a dragged number).
    pub fn panel_edit_open(&self) -> bool {
        self.history.open_edit().is_some() && !self.tool_edit_open()
    }

    /// Takes back the continuous edit `edit` as if it never began.
    pub fn cancel_edit(&mut self, edit: EditKey) -> bool {
        self.history.cancel_edit(&mut self.scene, edit)
    }

    pub fn undo(&mut self) -> Option<String> {
        self.history.undo(&mut self.scene)
    }

    pub fn redo(&mut self) -> Option<Result<String, CommandError>> {
        self.history.redo(&mut self.scene)
    }

    /// Undoes or redoes up to `position` steps applied.
    pub fn jump_to(&mut self, position: usize) -> Result<(), CommandError> {
        self.history.jump_to(&mut self.scene, position)
    }

    /// Selects `ids`. Not an edit: no undo step, the project stays saved; undo and
    /// redo give back the selection that went with each step.
    /// Shows or hides entities: a view setting, never a History step (as the
    /// selection is). Returns how many changed.
    pub fn set_visible(&mut self, ids: &[EntityId], visible: bool) -> usize {
        self.scene.set_visible(ids, visible)
    }

    pub fn select(&mut self, ids: Vec<EntityId>) -> Result<(), CommandError> {
        self.scene.select(ids);
        Ok(())
    }

    /// Writes the project to its file (atomically).
    pub fn save(&mut self) -> Result<(), project::ProjectError> {
        // The prefab files first: a map never names a prefab whose file a
        // failed save left unwritten.
        let folder = self.folder();
        self.prefabs
            .write(&folder, &self.scene)
            .map_err(|e| project::ProjectError::Write {
                path: folder.join(pebble_model::prefab::file::FOLDER),
                cause: std::io::Error::other(e),
            })?;
        project::save(&self.path, &self.scene)?;
        self.history.mark_saved();
        self.autosave.saved(&self.path, Instant::now());
        Ok(())
    }

    /// Gives the project another file (Save As); `save` writes it there.
    pub fn set_path(&mut self, path: PathBuf, untitled: bool) -> PathBuf {
        self.untitled = untitled;
        let old = std::mem::replace(&mut self.path, path);
        if old.parent() != self.path.parent() {
            self.reload_kinds();
            self.prefabs = super::prefab_library::PrefabLibrary::read(&self.folder(), &self.scene);
        }
        old
    }

    /// The unsaved work was saved or let go: its recovery file goes too.
    pub fn let_go_of_changes(&mut self) {
        self.history.mark_saved();
        project::remove(&project::recovery_path(&self.path));
    }

    /// Writes the recovery file when it is time (every `interval` with unsaved work).
    pub fn tick_autosave(&mut self, interval: Duration) -> Result<(), project::ProjectError> {
        self.autosave.interval = interval;
        let dirty = self.is_dirty();
        self.autosave
            .tick(Instant::now(), &self.path, &self.scene, dirty)
            .map(|_| ())
    }

    /// Unsaved work not in the recovery file yet: the autosave wants another
    /// look shortly, even when nothing else asks for a frame.
    pub fn autosave_waits(&self) -> bool {
        self.is_dirty() && self.autosave.has_unwritten(&self.scene)
    }

    /// The unsaved work, kept in the recovery file as the program ends on a bug.
    pub fn keep_on_crash(&self) {
        if !self.is_dirty() {
            return;
        }
        let recovery = project::recovery_path(&self.path);
        match project::save(&recovery, &self.scene) {
            Ok(()) => eprintln!(
                "pebble: your unsaved work was kept in {}; the next start offers it back",
                recovery.display()
            ),
            Err(e) => eprintln!("pebble: could not keep your unsaved work: {e}"),
        }
    }

    /// The selected entities a transform moves: pickable ones without a selected
    /// ancestor (that one carries them already).
    pub fn moved_entities(&self) -> Vec<EntityId> {
        let scene = &self.scene;
        let selection = scene.selection();
        selection
            .iter()
            .copied()
            .filter(|id| scene.is_pickable(*id))
            .filter(|id| {
                let mut parent = scene.entity(*id).and_then(|e| e.parent);
                let mut guard = 0;
                while let Some(p) = parent {
                    if selection.contains(&p) || guard > 10_000 {
                        return false;
                    }
                    guard += 1;
                    parent = scene.entity(p).and_then(|e| e.parent);
                }
                true
            })
            .collect()
    }

    /// Per moved entity: its local transform, its world transform and its parent's
    /// world transform, as a drag starts from them.
    pub fn moved_placements(&self) -> Vec<(EntityId, pebble_model::Transform, Affine3A, Affine3A)> {
        let scene = &self.scene;
        self.moved_entities()
            .into_iter()
            .filter_map(|id| {
                let e = scene.entity(id)?;
                let parent = e
                    .parent
                    .map_or(Affine3A::IDENTITY, |p| scene.world_transform(p));
                Some((id, e.transform, scene.world_transform(id), parent))
            })
            .collect()
    }

    /// The middle of the selected entities' world positions (the gizmo's place).
    pub fn selection_pivot(&self) -> Option<Vec3> {
        let scene = &self.scene;
        let points: Vec<Vec3> = scene
            .selection()
            .iter()
            .filter(|id| scene.is_pickable(**id))
            .map(|id| scene.world_transform(*id).translation.into())
            .collect();
        (!points.is_empty()).then(|| points.iter().sum::<Vec3>() / points.len() as f32)
    }

    /// What F frames: the selection's bounds, else the whole scene's.
    pub fn selection_bounds(&self) -> Option<Aabb> {
        let scene = &self.scene;
        scene
            .selection()
            .iter()
            .filter_map(|id| scene.world_aabb(*id))
            .reduce(|a, b| a.union(b))
            .or_else(|| scene.bounds())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pebble_model::command::AddEntities;
    use pebble_model::{Entity, Transform};

    /// A document in a folder of its own (removed when the test ends).
    struct Folder(PathBuf);

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    impl Folder {
        fn path(&self) -> &Path {
            &self.0
        }
    }

    fn document() -> (Folder, Document) {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "pebble-document-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("room.pebble.ron");
        let doc = Document::new(Scene::new(), path, Duration::from_secs(60));
        (Folder(dir), doc)
    }

    fn marker(name: &str, at: Vec3) -> Entity {
        let mut e = Entity::new(
            name,
            pebble_model::EntityKind::Defined(pebble_model::definitions::builtin::instance(
                "PlayerSpawn",
                [],
            )),
        );
        e.transform = Transform::from_translation(at);
        e
    }

    #[test]
    fn an_edit_marks_the_project_unsaved_and_saving_clears_it() {
        let (_dir, mut doc) = document();
        assert!(!doc.is_dirty());
        doc.execute(AddEntities::new("Create", vec![marker("a", Vec3::ZERO)]))
            .expect("add");
        assert!(doc.is_dirty());
        assert!(doc.title().ends_with(" • — Pebble"), "{}", doc.title());
        doc.save().expect("save");
        assert!(!doc.is_dirty());
        assert!(doc.path().is_file());
        assert_eq!(project::load(doc.path()).expect("load").len(), 1);
    }

    #[test]
    fn selecting_is_not_an_undo_step_and_undo_gives_back_the_edit_s_selection() {
        let (_dir, mut doc) = document();
        doc.execute(AddEntities::new(
            "Create",
            vec![marker("a", Vec3::ZERO), marker("b", Vec3::X)],
        ))
        .expect("add");
        doc.save().expect("save");
        let ids: Vec<EntityId> = doc.scene().entities().map(|e| e.id).collect();
        let before = doc.history().position();
        doc.select(vec![ids[0]]).expect("select");
        doc.select(vec![ids[1], ids[1], EntityId(9999)])
            .expect("select");
        assert_eq!(
            doc.scene().selection(),
            &ids[1..],
            "each once, only what exists"
        );
        assert_eq!(doc.history().position(), before, "no step");
        assert!(!doc.is_dirty(), "still as saved");
        // A move of b, then a click elsewhere: undo takes back the move, not the
        // click, and selects b again; redo selects what the move left selected.
        let mut moved = doc.scene().entity(ids[1]).expect("b").clone();
        moved.transform.translation.y = 2.0;
        doc.execute(pebble_model::command::SetEntity::new("Move", moved))
            .expect("move");
        doc.select(vec![ids[0]]).expect("select");
        assert_eq!(doc.undo().as_deref(), Some("Move"));
        assert_eq!(doc.scene().selection(), &ids[1..]);
        assert_eq!(
            doc.scene()
                .entity(ids[1])
                .expect("b")
                .transform
                .translation
                .y,
            0.0
        );
        doc.select(Vec::new()).expect("clear");
        doc.redo();
        assert_eq!(doc.scene().selection(), &ids[1..]);
    }

    #[test]
    fn the_pivot_is_the_middle_of_the_selection_and_bounds_fall_back_to_the_scene() {
        let (_dir, mut doc) = document();
        doc.execute(AddEntities::new(
            "Create",
            vec![
                marker("a", Vec3::new(2.0, 0.0, 0.0)),
                marker("b", Vec3::new(4.0, 2.0, 0.0)),
            ],
        ))
        .expect("add");
        assert_eq!(doc.selection_pivot(), Some(Vec3::new(3.0, 1.0, 0.0)));
        assert_eq!(doc.moved_entities().len(), 2);
        doc.select(Vec::new()).expect("clear");
        assert_eq!(doc.selection_pivot(), None);
        assert_eq!(doc.selection_bounds(), doc.scene().bounds());
    }

    #[test]
    fn replacing_with_unsaved_work_without_a_file_makes_it_untitled() {
        let (dir, mut doc) = document();
        doc.replace(Scene::new(), dir.path().join("new.pebble.ron"), true);
        assert!(doc.is_untitled() && doc.is_dirty());
        doc.replace(Scene::new(), dir.path().join("other.pebble.ron"), false);
        assert!(!doc.is_untitled() && !doc.is_dirty());
    }
}
