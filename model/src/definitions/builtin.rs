//! Pebble's built-in entity kinds as descriptors: `builtin.ron`, in the very form
//! of a project's `entities.ron`, compiled in. Each names the lump the runtime
//! reads it from ([`super::LumpRecipe`]); the editor draws, picks, edits, checks,
//! exports and imports them through the same paths as a game's kinds, so a new
//! built-in kind is one entry in that file (and its reader in the runtime when the
//! runtime acts on it).

use std::sync::OnceLock;

use super::form;
use super::schema::{DefinedEntity, Definitions, DefinitionsError, FieldValue};

/// The descriptors' text.
pub const TEXT: &str = include_str!("builtin.ron");

/// The built-in kinds, read once. The file is Pebble's own and checked by the
/// tests; were it broken, the editor would still run, without built-in kinds.
pub fn kinds() -> &'static Definitions {
    static KINDS: OnceLock<Definitions> = OnceLock::new();
    KINDS.get_or_init(|| match read(TEXT) {
        Ok(defs) => defs,
        Err(e) => {
            eprintln!("pebble: the built-in kinds do not read: {e}");
            let mut empty = Definitions::default();
            empty.is_builtin = true;
            empty
        }
    })
}

/// Reads a built-in descriptors text (the tests read the shipped one directly).
pub fn read(text: &str) -> Result<Definitions, DefinitionsError> {
    let file = form::read(text)?;
    super::check::resolve(text, file, None)
}

/// The value of field `name` of a built-in kind's instance (set, else its
/// default); `None` when `d` is not of a built-in kind with that field.
pub fn value<'a>(d: &'a DefinedEntity, name: &str) -> Option<&'a FieldValue> {
    d.value(kinds().kind(&d.kind)?, name)
}

/// An instance of built-in kind `kind` with these values set (the rest at their
/// defaults): what an import or an old project's entity becomes.
pub fn instance(
    kind: &str,
    values: impl IntoIterator<Item = (&'static str, FieldValue)>,
) -> DefinedEntity {
    DefinedEntity {
        kind: kind.to_owned(),
        values: values.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_descriptors_read_and_each_names_its_lump() {
        let defs = read(TEXT).expect("builtin.ron reads");
        assert!(!defs.kinds.is_empty());
        for k in &defs.kinds {
            assert!(k.lump.is_some(), "{} says where it is written", k.name);
            assert!(Definitions::is_builtin_kind(&k.name));
        }
        assert_eq!(kinds().kinds.len(), defs.kinds.len());
    }

    #[test]
    fn a_project_cannot_take_a_built_in_name_or_choose_a_lump() {
        let e = Definitions::parse("(kinds: [(name: \"soundsource\")])").expect_err("taken");
        assert!(e.message.contains("built-in SoundSource"), "{e}");
        let e = Definitions::parse("(kinds: [(name: \"Thing\", lump: Json(tag: \"map_name\"))])")
            .expect_err("no lump");
        assert!(
            e.message.contains("`lump` is for Pebble's built-in kinds"),
            "{e}"
        );
    }

    #[test]
    fn a_project_finds_the_built_in_kinds_behind_its_own() {
        let defs = Definitions::parse("(kinds: [(name: \"Door\")])").expect("reads");
        assert!(defs.kind("Door").is_some());
        let sound = defs.kind("SoundSource").expect("built in");
        assert_eq!(sound.title, "Sound source");
        assert_eq!(
            defs.kind_index("SoundSource"),
            None,
            "not a game_entities kind"
        );
        assert_eq!(Definitions::default().kind("SoundSource"), Some(sound));
    }

    #[test]
    fn titles_read_as_words() {
        use super::super::schema::title_of;
        assert_eq!(title_of("PressurePlate"), "Pressure plate");
        assert_eq!(title_of("key_card"), "Key card");
        assert_eq!(title_of("NPC"), "NPC");
        assert_eq!(title_of("Door2"), "Door2");
    }
}
