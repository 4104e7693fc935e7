//! The definitions file as written: RON with `Some` implied, unknown keys
//! refused (a misspelt key is an error, not a silently ignored line).

use serde::Deserialize;

use super::schema::{DefinitionsError, Display, FieldType, LumpRecipe, ModelSource, Shape};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileForm {
    #[serde(default)]
    pub enums: Vec<EnumForm>,
    #[serde(default)]
    pub flags: Vec<FlagsForm>,
    #[serde(default)]
    pub groups: Vec<GroupForm>,
    #[serde(default)]
    pub kinds: Vec<KindForm>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EnumForm {
    pub name: String,
    #[serde(default)]
    pub doc: String,
    pub values: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FlagsForm {
    pub name: String,
    #[serde(default)]
    pub doc: String,
    pub bits: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GroupForm {
    pub name: String,
    #[serde(default)]
    pub include: Vec<String>,
    #[serde(default)]
    pub fields: Vec<FieldForm>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct KindForm {
    pub name: String,
    #[serde(default)]
    pub doc: String,
    #[serde(default)]
    pub colour: Option<String>,
    #[serde(default)]
    pub shape: Shape,
    #[serde(default)]
    pub model: Option<ModelSource>,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub icon: Option<String>,
    #[serde(default)]
    pub max_count: Option<u32>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub lift: f32,
    #[serde(default)]
    pub lump: Option<LumpRecipe>,
    #[serde(default)]
    pub include: Vec<String>,
    #[serde(default)]
    pub fields: Vec<FieldForm>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FieldForm {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: FieldType,
    #[serde(default)]
    pub array: bool,
    #[serde(default)]
    pub max_items: Option<u32>,
    #[serde(default)]
    pub default: Option<ron::Value>,
    #[serde(default)]
    pub doc: String,
    #[serde(default)]
    pub min: Option<f64>,
    #[serde(default)]
    pub max: Option<f64>,
    #[serde(default)]
    pub step: Option<f64>,
    #[serde(default)]
    pub unit: Option<String>,
    #[serde(default)]
    pub max_len: Option<u32>,
    #[serde(default)]
    pub extensions: Vec<String>,
    #[serde(default)]
    pub kinds: Vec<String>,
    #[serde(default)]
    pub display: Option<Display>,
    #[serde(default)]
    pub local: bool,
}

/// Parses the text's syntax and shape; the meaning is [`super::check`]'s.
pub(super) fn read(text: &str) -> Result<FileForm, DefinitionsError> {
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options.from_str(text).map_err(|e| DefinitionsError {
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    })
}
