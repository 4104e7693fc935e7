//! Add, rename, hide, lock or remove layers (a layer that still holds entities
//! cannot be removed).

use std::any::Any;

use super::{Command, CommandError};
use crate::scene::{Layer, Scene};

#[derive(Debug)]
pub struct SetLayers {
    after: Vec<Layer>,
    before: Option<Vec<Layer>>,
}

impl SetLayers {
    pub fn new(after: Vec<Layer>) -> Self {
        Self {
            after,
            before: None,
        }
    }
}

impl Command for SetLayers {
    fn name(&self) -> String {
        "Change layers".into()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        for l in &scene.data().layers {
            let still_there = self.after.iter().any(|a| a.id == l.id);
            let used = scene.entities().any(|e| e.layer == l.id);
            if !still_there && used {
                return Err(CommandError::Invalid(format!(
                    "layer '{}' still holds entities",
                    l.name
                )));
            }
        }
        self.before = Some(std::mem::replace(scene.layers_mut(), self.after.clone()));
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        if let Some(before) = self.before.take() {
            *scene.layers_mut() = before;
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
