//! Scene settings: map name, environment, export settings.

use std::any::Any;

use super::{Command, CommandError};
use crate::scene::{Scene, SceneSettings};

#[derive(Debug)]
pub struct SetSettings {
    after: SceneSettings,
    before: Option<SceneSettings>,
}

impl SetSettings {
    pub fn new(after: SceneSettings) -> Self {
        Self {
            after,
            before: None,
        }
    }
}

impl Command for SetSettings {
    fn name(&self) -> String {
        "Change scene settings".into()
    }

    fn apply(&mut self, scene: &mut Scene) -> Result<(), CommandError> {
        let s = &self.after.export;
        if !s.max_texture_size.is_power_of_two() || !(16..=512).contains(&s.max_texture_size) {
            return Err(CommandError::Invalid(format!(
                "maximum texture size {} must be a power of two from 16 to 512",
                s.max_texture_size
            )));
        }
        if !(3..=384).contains(&s.chunk_vertices) || !s.chunk_vertices.is_multiple_of(3) {
            return Err(CommandError::Invalid(format!(
                "chunk size {} must be a multiple of 3 up to 384 vertices",
                s.chunk_vertices
            )));
        }
        self.before = Some(std::mem::replace(scene.settings_mut(), self.after.clone()));
        Ok(())
    }

    fn revert(&mut self, scene: &mut Scene) {
        if let Some(before) = self.before.take() {
            *scene.settings_mut() = before;
        }
    }

    fn merge(&mut self, next: &dyn Command) -> bool {
        match next.as_any().downcast_ref::<Self>() {
            Some(next) => {
                self.after = next.after.clone();
                true
            }
            None => false,
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
