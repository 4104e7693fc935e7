//! Undo/redo history: a bounded list of applied commands, continuous edits merged
//! into one step, named entries for the history panel, and a saved-state marker.

use std::collections::VecDeque;

use crate::command::{Command, CommandError};
use crate::id::EntityId;
use crate::scene::Scene;

/// Default number of steps kept.
pub const DEFAULT_HISTORY_LIMIT: usize = 1000;

#[derive(Debug)]
struct Entry {
    command: Box<dyn Command>,
    /// Identifies the state after this entry.
    state: u64,
    /// The selection when the step was taken, and right after it: undo gives back
    /// the first, redo the second. (Selecting is not a step of its own.)
    selection_before: Vec<EntityId>,
    selection_after: Vec<EntityId>,
}

#[derive(Debug)]
pub struct History {
    undo: VecDeque<Entry>,
    redo: Vec<Entry>,
    limit: usize,
    next_state: u64,
    /// State before the oldest kept entry.
    base_state: u64,
    saved_state: Option<u64>,
    /// The continuous edit the top entry belongs to, while it is still going on.
    open_edit: Option<EditKey>,
    /// The redo list as it was when the open edit began, so that cancelling the
    /// edit gives it back.
    redo_before_edit: Option<Vec<Entry>>,
    /// The scene's revision when the open edit began: what it changed is
    /// followed up (prefab instances) when it ends.
    edit_began_at: Option<u64>,
    /// The prefab instance being edited in place: edits inside it change its
    /// prefab, and every instance follows when each step is committed.
    entered: Option<EntityId>,
    /// Why the last continuous edit was taken back when it ended (a move the
    /// prefabs refuse), for whoever ended it to say.
    refused: Option<CommandError>,
}

/// Which continuous edit a step belongs to: steps with the same key, one after
/// another, merge into one undo entry (a gizmo drag, a colour being dragged).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EditKey {
    /// One field of one entity (by the field's number in its editor).
    Entity { id: u32, field: u32 },
    /// A material's properties.
    Material { id: u32 },
    /// The viewport's gizmo drag (one at a time).
    Gizmo,
    /// New copies following the mouse until a click (Duplicate).
    Placing,
    /// A drag in the UV dock.
    Uv,
}

/// One row of the history panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    pub name: String,
    /// Applied (at or before the current state) or undone (redo side).
    pub applied: bool,
}

impl Default for History {
    fn default() -> Self {
        Self::new(DEFAULT_HISTORY_LIMIT)
    }
}

impl History {
    pub fn new(limit: usize) -> Self {
        Self {
            undo: VecDeque::new(),
            redo: Vec::new(),
            limit: limit.max(1),
            next_state: 1,
            base_state: 0,
            saved_state: Some(0),
            open_edit: None,
            redo_before_edit: None,
            edit_began_at: None,
            entered: None,
            refused: None,
        }
    }

    /// Why the last continuous edit was taken back as it ended, once.
    pub fn take_refusal(&mut self) -> Option<CommandError> {
        self.refused.take()
    }

    /// The prefab instance being edited in place, if any.
    pub fn entered(&self) -> Option<EntityId> {
        self.entered
    }

    /// Enters a prefab instance to edit its prefab in place (`None`: leaves).
    /// Ends any continuous edit first, so that it is followed up as it was
    /// begun.
    pub fn set_entered(&mut self, scene: &mut Scene, instance: Option<EntityId>) {
        self.end_edit(scene);
        self.entered = instance;
    }

    fn fresh_state(&mut self) -> u64 {
        let s = self.next_state;
        self.next_state += 1;
        s
    }

    fn current_state(&self) -> u64 {
        self.undo.back().map_or(self.base_state, |e| e.state)
    }

    /// Applies a command as a new step. A failed command changes nothing.
    pub fn execute(
        &mut self,
        scene: &mut Scene,
        command: impl Command,
    ) -> Result<(), CommandError> {
        self.execute_boxed(scene, Box::new(command), None)
    }

    /// Applies one step of a continuous edit (a gizmo drag, a slider): steps with the
    /// same `edit` key merge into one undo entry until [`History::end_edit`].
    pub fn execute_continuous(
        &mut self,
        scene: &mut Scene,
        command: impl Command,
        edit: EditKey,
    ) -> Result<(), CommandError> {
        self.execute_boxed(scene, Box::new(command), Some(edit))
    }

    pub fn execute_boxed(
        &mut self,
        scene: &mut Scene,
        mut command: Box<dyn Command>,
        edit: Option<EditKey>,
    ) -> Result<(), CommandError> {
        if self.open_edit.is_some() && edit != self.open_edit {
            // The edit in progress ends here: it is committed and followed up
            // before this step, in its own undo entry.
            self.follow_open_edit(scene);
            self.open_edit = None;
        }
        let selection_before = scene.selection().to_vec();
        let revision = scene.revision();
        command.apply(scene)?;
        if edit.is_none() {
            // A step on its own is committed now: instances follow it.
            match crate::prefab::sync::follow_up(scene, revision, self.entered) {
                Ok(None) => {}
                Ok(Some(follow)) => {
                    let name = command.name();
                    command = Box::new(crate::command::CommandGroup::new(
                        name,
                        vec![command, follow],
                    ));
                }
                Err(e) => {
                    command.revert(scene);
                    scene.restore_selection(&selection_before);
                    return Err(e);
                }
            }
        }
        let selection_after = scene.selection().to_vec();
        if edit.is_some() && edit != self.open_edit {
            // A new continuous edit: keep the redo list aside until it ends.
            self.redo_before_edit = Some(std::mem::take(&mut self.redo));
            self.edit_began_at = Some(revision);
        } else if edit.is_none() {
            self.redo_before_edit = None;
        }
        self.redo.clear();
        if let (Some(edit), Some(open)) = (edit, self.open_edit)
            && edit == open
            && let Some(top) = self.undo.back_mut()
            && top.command.merge(command.as_ref())
        {
            let state = self.fresh_state();
            if let Some(top) = self.undo.back_mut() {
                top.state = state;
                top.selection_after = selection_after;
            }
            return Ok(());
        }
        let state = self.fresh_state();
        self.undo.push_back(Entry {
            command,
            state,
            selection_before,
            selection_after,
        });
        self.open_edit = edit;
        while self.undo.len() > self.limit {
            if let Some(old) = self.undo.pop_front() {
                self.base_state = old.state;
            }
        }
        Ok(())
    }

    /// Makes the last step and the one before it one step named `name` (the
    /// last one's continuous edit, if open, goes on merging into it). Nothing
    /// happens with fewer than two steps.
    pub fn join_previous(&mut self, name: &str) {
        if self.undo.len() < 2 {
            return;
        }
        let (Some(last), Some(mut before)) = (self.undo.pop_back(), self.undo.pop_back()) else {
            return;
        };
        let placeholder: Box<dyn Command> =
            Box::new(crate::command::CommandGroup::new("", Vec::new()));
        let first = std::mem::replace(&mut before.command, placeholder);
        before.command = Box::new(crate::command::Joined::new(name, first, last.command));
        before.state = last.state;
        before.selection_after = last.selection_after;
        self.undo.push_back(before);
    }

    /// The continuous edit in progress, if any.
    pub fn open_edit(&self) -> Option<EditKey> {
        self.open_edit
    }

    /// Ends the continuous edit in progress (mouse released): it is committed,
    /// and the prefab instances it touched follow it now, in the same step.
    pub fn end_edit(&mut self, scene: &mut Scene) {
        if self.open_edit.is_some() {
            self.follow_open_edit(scene);
        }
        self.open_edit = None;
        self.redo_before_edit = None;
        self.edit_began_at = None;
    }

    /// Joins the follow-up of the open edit (all its merged steps) to its
    /// undo entry; one the prefabs refuse takes the edit back.
    fn follow_open_edit(&mut self, scene: &mut Scene) {
        let Some(since) = self.edit_began_at.take() else {
            return;
        };
        match crate::prefab::sync::follow_up(scene, since, self.entered) {
            Ok(None) => {}
            Ok(Some(follow)) => {
                if let Some(top) = self.undo.back_mut() {
                    let placeholder: Box<dyn Command> =
                        Box::new(crate::command::CommandGroup::new("", Vec::new()));
                    let own = std::mem::replace(&mut top.command, placeholder);
                    let name = own.name();
                    top.command =
                        Box::new(crate::command::CommandGroup::new(name, vec![own, follow]));
                    top.selection_after = scene.selection().to_vec();
                }
            }
            Err(e) => {
                self.refused = Some(e);
                if let Some(mut entry) = self.undo.pop_back() {
                    entry.command.revert(scene);
                    scene.restore_selection(&entry.selection_before);
                }
                if let Some(redo) = self.redo_before_edit.take() {
                    self.redo = redo;
                }
            }
        }
    }

    /// Takes back the continuous edit `edit` if it is the one in progress: the
    /// scene, the undo and redo lists and the saved state are exactly as before it
    /// began (but for the oldest entries its first step pushed past the history's
    /// limit). An edit that made no step yet (or another edit) leaves everything
    /// alone. Returns whether there was something to take back.
    pub fn cancel_edit(&mut self, scene: &mut Scene, edit: EditKey) -> bool {
        if self.open_edit != Some(edit) {
            return false;
        }
        self.open_edit = None;
        self.edit_began_at = None;
        let Some(mut entry) = self.undo.pop_back() else {
            return false;
        };
        entry.command.revert(scene);
        scene.restore_selection(&entry.selection_before);
        if let Some(redo) = self.redo_before_edit.take() {
            self.redo = redo;
        }
        true
    }

    /// Undoes the last step; returns its name.
    pub fn undo(&mut self, scene: &mut Scene) -> Option<String> {
        self.end_edit(scene);
        self.redo_before_edit = None;
        let mut entry = self.undo.pop_back()?;
        entry.command.revert(scene);
        scene.restore_selection(&entry.selection_before);
        let name = entry.command.name();
        self.redo.push(entry);
        Some(name)
    }

    /// Redoes the last undone step; returns its name. A redo whose command no longer
    /// applies is dropped with the rest of the redo list.
    pub fn redo(&mut self, scene: &mut Scene) -> Option<Result<String, CommandError>> {
        self.end_edit(scene);
        self.redo_before_edit = None;
        let mut entry = self.redo.pop()?;
        if let Err(e) = entry.command.apply(scene) {
            self.redo.clear();
            return Some(Err(e));
        }
        scene.restore_selection(&entry.selection_after);
        let name = entry.command.name();
        self.undo.push_back(entry);
        Some(Ok(name))
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn undo_name(&self) -> Option<String> {
        self.undo.back().map(|e| e.command.name())
    }

    pub fn redo_name(&self) -> Option<String> {
        self.redo.last().map(|e| e.command.name())
    }

    /// Every entry, oldest first: applied ones, then undone ones.
    pub fn entries(&self) -> Vec<HistoryEntry> {
        let applied = self.undo.iter().map(|e| HistoryEntry {
            name: e.command.name(),
            applied: true,
        });
        let undone = self.redo.iter().rev().map(|e| HistoryEntry {
            name: e.command.name(),
            applied: false,
        });
        applied.chain(undone).collect()
    }

    /// Number of applied entries (the position in [`History::entries`]).
    pub fn position(&self) -> usize {
        self.undo.len()
    }

    /// Undoes or redoes until `position` entries are applied (0 = the oldest state).
    pub fn jump_to(&mut self, scene: &mut Scene, position: usize) -> Result<(), CommandError> {
        while self.undo.len() > position {
            self.undo(scene);
        }
        while self.undo.len() < position {
            match self.redo(scene) {
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e),
                None => break,
            }
        }
        Ok(())
    }

    /// Marks the current state as the one on disk.
    pub fn mark_saved(&mut self) {
        self.saved_state = Some(self.current_state());
    }

    /// Whether the scene differs from the last save (or was never saved when
    /// [`History::mark_unsaved`] was called).
    pub fn is_dirty(&self) -> bool {
        self.saved_state != Some(self.current_state())
    }

    /// For a new, never-saved project: dirty until saved.
    pub fn mark_unsaved(&mut self) {
        self.saved_state = None;
    }

    pub fn limit(&self) -> usize {
        self.limit
    }
}
