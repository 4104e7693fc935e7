//! The project's own entity kinds as the editor holds them: the last good
//! definitions read from `entities.ron` beside the project, and the error of the
//! file on disk when it does not read (the last good definitions stay in force:
//! nothing placed loses its kind or a value while a file is half typed).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pebble_model::definitions::{self, Definitions};

/// The definitions in force and how the file on disk stands.
#[derive(Debug, Clone, Default)]
pub struct ProjectKinds {
    pub defs: Arc<Definitions>,
    /// The file's error ("entities.ron: line 3, column 5: …") while it does not read.
    pub error: Option<String>,
    /// The file they were read from (none yet: never looked).
    pub file: Option<PathBuf>,
}

/// What a reload found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reloaded {
    /// The file reads: these kinds are in force.
    Loaded { kinds: usize, hash: u64 },
    /// There is no file: no kinds of the project's own.
    Absent,
    /// The file does not read: the message; the last good definitions stay.
    Refused(String),
}

impl ProjectKinds {
    /// Reads `entities.ron` in `folder`, keeping the definitions in force when it
    /// does not read.
    pub fn reload(&mut self, folder: &Path) -> Reloaded {
        let file = folder.join(definitions::FILE_NAME);
        let same_folder = self.file.as_deref() == Some(file.as_path());
        self.file = Some(file);
        match Definitions::load_beside(folder) {
            Ok(Some(defs)) => {
                let found = Reloaded::Loaded {
                    kinds: defs.kinds.len(),
                    hash: defs.hash(),
                };
                self.defs = Arc::new(defs);
                self.error = None;
                found
            }
            Ok(None) => {
                self.defs = Arc::new(Definitions::default());
                self.error = None;
                Reloaded::Absent
            }
            Err(message) => {
                if !same_folder {
                    // Another project's kinds must not stand in for this one's.
                    self.defs = Arc::new(Definitions::default());
                }
                self.error = Some(message.clone());
                Reloaded::Refused(message)
            }
        }
    }

    /// The Log's line for a reload.
    pub fn describe(found: &Reloaded) -> String {
        match found {
            Reloaded::Loaded { kinds, hash } => format!(
                "entity definitions: {kinds} kind{} (hash {hash:#018x})",
                if *kinds == 1 { "" } else { "s" }
            ),
            Reloaded::Absent => "no entities.ron beside the project: no kinds of its own".into(),
            Reloaded::Refused(m) => format!("{m} (the last good definitions stay in force)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_file_keeps_the_last_good_definitions() {
        let dir = std::env::temp_dir().join(format!("pebble-kinds-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let mut kinds = ProjectKinds::default();
        assert_eq!(kinds.reload(&dir), Reloaded::Absent);
        std::fs::write(
            dir.join("entities.ron"),
            crate::services::showcase::DEFINITIONS,
        )
        .expect("writes");
        assert!(matches!(
            kinds.reload(&dir),
            Reloaded::Loaded { kinds: 4, .. }
        ));
        std::fs::write(dir.join("entities.ron"), "(kinds: [(name: \"A\" )").expect("writes");
        let Reloaded::Refused(m) = kinds.reload(&dir) else {
            panic!("refused")
        };
        assert!(m.contains("entities.ron: line 1, column"), "{m}");
        assert_eq!(kinds.defs.kinds.len(), 4, "the last good ones stay");
        assert!(kinds.error.is_some());
        // Another folder's broken file does not inherit this one's kinds.
        let other = dir.join("other");
        std::fs::create_dir_all(&other).expect("dir");
        std::fs::write(other.join("entities.ron"), "(").expect("writes");
        kinds.reload(&other);
        assert!(kinds.defs.kinds.is_empty());
    }
}
