//! What every command is: the `Command` trait, its error, `Steps` (a command's
//! undo-recorded steps) and `CommandGroup` (several as one undo step).

use std::any::Any;

use crate::id::{EntityId, MaterialId};
use crate::scene::Scene;

/// Why a command could not be applied; the scene is left unchanged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CommandError {
    #[error("entity {0} does not exist")]
    MissingEntity(EntityId),
    #[error("material #{} does not exist", .0.0)]
    MissingMaterial(MaterialId),
    #[error("cannot move {entity} under {parent}: it would become its own ancestor")]
    Cycle { entity: EntityId, parent: EntityId },
    #[error("{0}")]
    Invalid(String),
}

/// An undoable change.
pub trait Command: std::fmt::Debug + Send + 'static {
    /// The name shown in Edit ▸ Undo and the history panel.
    fn name(&self) -> String;
    /// Applies the change, or fails leaving the scene untouched.
    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError>;
    /// Undoes the last successful `apply`.
    fn revert(&mut self, scene: &mut Scene);
    /// Absorbs `next`, an already-applied later step of the same continuous edit
    /// (a gizmo or slider drag), so that both undo as one. `false` if it cannot.
    fn merge(&mut self, _next: &dyn Command) -> bool {
        false
    }
    fn as_any(&self) -> &dyn Any;
}

/// The mesh of `entity` and the face indices a command addresses (`faces` empty =
/// every face), checked to exist.
pub(crate) fn mesh_faces<'a>(
    scene: &'a Scene,
    entity: EntityId,
    faces: &[usize],
) -> Result<(&'a crate::entity::MeshEntity, Vec<usize>), CommandError> {
    let e = scene
        .entity(entity)
        .ok_or(CommandError::MissingEntity(entity))?;
    let crate::entity::EntityKind::Mesh(m) = &e.kind else {
        return Err(CommandError::Invalid(format!("{} has no faces", e.name)));
    };
    let count = m.geometry.faces.len();
    let faces: Vec<usize> = if faces.is_empty() {
        (0..count).collect()
    } else {
        faces.to_vec()
    };
    if let Some(bad) = faces.iter().find(|f| **f >= count) {
        return Err(CommandError::Invalid(format!(
            "{} has {count} faces, not face {bad}",
            e.name
        )));
    }
    Ok((m, faces))
}

/// The sub-commands of a composite command and how many of them are applied, so that
/// a failing step reverts the ones before it and revert runs in reverse order.
#[derive(Debug, Default)]
pub struct Steps {
    steps: Vec<Box<dyn Command>>,
    applied: usize,
}

impl Steps {
    pub fn is_planned(&self) -> bool {
        !self.steps.is_empty()
    }

    /// Adds a step that has already been applied (while planning).
    pub fn push_applied(&mut self, step: Box<dyn Command>) {
        self.steps.insert(self.applied, step);
        self.applied += 1;
    }

    /// Adds a step to apply later.
    pub fn push(&mut self, step: Box<dyn Command>) {
        self.steps.push(step);
    }

    /// Applies the steps not applied yet; on failure reverts all and forgets a plan
    /// that never completed.
    pub fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        while self.applied < self.steps.len() {
            if let Err(e) = self.steps[self.applied].apply(scene) {
                self.revert(scene);
                return Err(e);
            }
            self.applied += 1;
        }
        Ok(())
    }

    pub fn revert(&mut self, scene: &mut Scene) {
        while self.applied > 0 {
            self.applied -= 1;
            self.steps[self.applied].revert(scene);
        }
    }

    /// Reverts and drops every step (a plan that failed half-way).
    pub fn abandon(&mut self, scene: &mut Scene) {
        self.revert(scene);
        self.steps.clear();
    }
}

/// Several commands as one step; reverts in reverse order.
#[derive(Debug)]
pub struct CommandGroup {
    name: String,
    commands: Vec<Box<dyn Command>>,
}

impl CommandGroup {
    pub fn new(name: impl Into<String>, commands: Vec<Box<dyn Command>>) -> Self {
        Self {
            name: name.into(),
            commands,
        }
    }
}

impl Command for CommandGroup {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        for i in 0..self.commands.len() {
            if let Err(e) = self.commands[i].apply(scene) {
                for done in self.commands[..i].iter_mut().rev() {
                    done.revert(scene);
                }
                return Err(e);
            }
        }
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        for c in self.commands.iter_mut().rev() {
            c.revert(scene);
        }
    }

    /// A later group of the same continuous edit merges when it has as many
    /// commands and each merges with its counterpart (the same field dragged on
    /// several entities at once).
    fn merge(&mut self, next: &dyn Command) -> bool {
        let Some(next) = next.as_any().downcast_ref::<Self>() else {
            return false;
        };
        if next.commands.len() != self.commands.len() {
            return false;
        }
        // Counterparts address the same things (built the same way, frame after
        // frame), so either all merge or the first does not.
        self.commands
            .iter_mut()
            .zip(&next.commands)
            .all(|(mine, theirs)| mine.merge(theirs.as_ref()))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Two steps become one: `first`, then `then` — whose later frames still merge
/// into it (a linked copy made, then its copy following the mouse: one undo
/// step, and Esc takes both back).
#[derive(Debug)]
pub struct Joined {
    name: String,
    first: Box<dyn Command>,
    then: Box<dyn Command>,
}

impl Joined {
    pub fn new(name: impl Into<String>, first: Box<dyn Command>, then: Box<dyn Command>) -> Self {
        Self {
            name: name.into(),
            first,
            then,
        }
    }
}

impl Command for Joined {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        self.first.apply(scene)?;
        if let Err(e) = self.then.apply(scene) {
            self.first.revert(scene);
            return Err(e);
        }
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        self.then.revert(scene);
        self.first.revert(scene);
    }

    fn merge(&mut self, next: &dyn Command) -> bool {
        self.then.merge(next)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
