//! A game's own entity kinds, defined as data: the `entities.ron` file beside a
//! project. Owns the file's form, its checks (every error with a line and a
//! column), the resolved definitions the editor and the exporter use (field groups
//! expanded into the kinds that include them), and the hash that ties an exported
//! map to the code generated from the same definitions.
//!
//! A kind is named, documented, coloured and shaped; its fields are typed (int,
//! float, bool, string, enum, flags, colour, point, asset, entity reference, and
//! arrays of these), each with a default, a doc and a display choice. Reusable
//! field groups are included, never inherited (what LDtk's users asked for).

pub mod builtin;
mod check;
mod form;
pub mod problems;
mod schema;
pub mod value;

#[cfg(test)]
mod tests;

pub use schema::*;

impl Definitions {
    /// Reads and checks a definitions file's text.
    pub fn parse(text: &str) -> Result<Self, DefinitionsError> {
        if text.len() > MAX_FILE_BYTES {
            return Err(DefinitionsError {
                line: 1,
                column: 1,
                message: format!(
                    "the file is {} bytes, more than the {MAX_FILE_BYTES} a definitions file may have",
                    text.len()
                ),
            });
        }
        let file = form::read(text)?;
        check::resolve(text, file, Some(builtin::kinds()))
    }

    /// The project's kind `name`, else the built-in kind of that name.
    pub fn kind(&self, name: &str) -> Option<&KindDef> {
        self.kinds
            .iter()
            .find(|k| k.name == name)
            .or_else(|| self.fallback()?.kinds.iter().find(|k| k.name == name))
    }

    /// The built-in kinds behind these (none behind the built-in kinds).
    fn fallback(&self) -> Option<&'static Definitions> {
        (!self.is_builtin).then(builtin::kinds)
    }

    /// Whether `name` is one of Pebble's built-in kinds.
    pub fn is_builtin_kind(name: &str) -> bool {
        builtin::kinds().kinds.iter().any(|k| k.name == name)
    }

    pub fn enum_def(&self, name: &str) -> Option<&EnumDef> {
        self.enums
            .iter()
            .find(|e| e.name == name)
            .or_else(|| self.fallback()?.enums.iter().find(|e| e.name == name))
    }

    pub fn flags_def(&self, name: &str) -> Option<&FlagsDef> {
        self.flags
            .iter()
            .find(|f| f.name == name)
            .or_else(|| self.fallback()?.flags.iter().find(|f| f.name == name))
    }

    /// Reads `entities.ron` in `dir`: `Ok(None)` when there is none.
    pub fn load_beside(dir: &std::path::Path) -> Result<Option<Self>, String> {
        let path = dir.join(FILE_NAME);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        Self::parse(&text)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}
