//! The definitions' types: kinds, fields, enums and flag sets as the editor and
//! the exporter use them, the values an instance holds, and the layout hash.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::id::EntityId;

/// The definitions file's name, beside the project file.
pub const FILE_NAME: &str = "entities.ron";
/// The largest definitions file read (a typed file is a few kilobytes).
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// A name's longest form in bytes: kind and field names travel in 32-byte slots.
pub const MAX_NAME_BYTES: usize = 31;
/// Fields a kind may have, its groups' included.
pub const MAX_FIELDS: usize = 64;
/// Kinds one file may define.
pub const MAX_KINDS: usize = 1024;
/// Elements an array field may hold.
pub const MAX_ARRAY_ITEMS: usize = 1024;
/// A string value's longest form in bytes when the field sets no `max_len`.
pub const MAX_STRING_BYTES: usize = 4096;

/// A field's type. Ints are 32-bit signed, floats 32-bit, colours `0xAABBGGRR`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FieldType {
    Int,
    Float,
    Bool,
    String,
    /// One of the named enum's values.
    Enum(String),
    /// A set of the named flag set's bits.
    Flags(String),
    Colour,
    /// A position in world space with its own handle in the viewport.
    Point,
    /// A project-relative file path, picked from Assets.
    Asset,
    /// Another entity of the allowed kinds (`kinds`; empty: any defined kind).
    Entity,
}

impl FieldType {
    /// The word the file and the generated code use.
    pub fn word(&self) -> String {
        match self {
            Self::Int => "int".into(),
            Self::Float => "float".into(),
            Self::Bool => "bool".into(),
            Self::String => "string".into(),
            Self::Enum(e) => format!("enum {e}"),
            Self::Flags(f) => format!("flags {f}"),
            Self::Colour => "colour".into(),
            Self::Point => "point".into(),
            Self::Asset => "asset".into(),
            Self::Entity => "entity".into(),
        }
    }
}

/// How the editor shows a field beyond the inspector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Display {
    /// Not in the inspector either (a value the game sets).
    Hidden,
    /// In the inspector only.
    Inspector,
    /// Written beside the entity in the viewport.
    Label,
    /// A circle of this radius (metres) drawn around the entity.
    Radius,
    /// A line through the points (a point array).
    Path,
    /// A line to the referenced entity (or entities).
    Link,
    /// An arrow from the entity this many degrees round from −Z (a yaw: positive
    /// turns right), for a number.
    Heading,
    /// The size of the box the instance fills, standing on its origin (a point
    /// field: x, y, z): drawn, picked and dragged out by the Create tool.
    Size,
    /// A corner of a box drawn between the kind's corner points (two point fields).
    Corner,
}

/// How an instance is drawn when it has no model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub enum Shape {
    /// A small cross-marked cube.
    #[default]
    Point,
    /// A box of this size (metres) standing on the entity's origin.
    Box([f32; 3]),
    /// A sphere of this radius (metres) around the origin.
    Sphere(f32),
    /// A standing figure whose eye the entity is: a capsule of radius, height
    /// (from the feet) and eye height (over the feet), metres.
    Figure([f32; 3]),
}

/// Where a kind's model comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ModelSource {
    /// One mesh asset for every instance (project-relative).
    Asset(String),
    /// The value of this asset field: each instance chooses its own.
    Field(String),
}

/// An enum: a field of its type holds one of `values`; exported as its index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumDef {
    pub name: String,
    pub doc: String,
    pub values: Vec<String>,
}

/// A flag set: a field of its type holds any of `bits` (at most 32); exported as
/// a u32 with bit `k` for `bits[k]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagsDef {
    pub name: String,
    pub doc: String,
    pub bits: Vec<String>,
}

/// One field of a kind, its group's fields included.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldDef {
    pub name: String,
    pub ty: FieldType,
    /// An array of `ty` (at most `max_items` elements).
    pub array: bool,
    pub max_items: usize,
    /// What an instance holds until it is set (an array field: its elements).
    pub default: FieldValue,
    pub doc: String,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub step: Option<f64>,
    pub unit: Option<String>,
    /// A string's longest form in bytes.
    pub max_len: usize,
    /// An asset field's accepted extensions (lower case, no dot; empty: any).
    pub extensions: Vec<String>,
    /// An entity field's allowed kinds (empty: any defined kind).
    pub kinds: Vec<String>,
    pub display: Display,
    /// A point field's points are relative to the instance (they move and turn
    /// with it); otherwise in world space.
    pub local: bool,
    /// The field group it came from, if any.
    pub group: Option<String>,
}

/// How a built-in kind is written to a map: into a lump of its own that the
/// runtime already reads, instead of `game_entities`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum LumpRecipe {
    /// A JSON lump `tag` holding an array with an object per exported instance
    /// (`first_only`: the first instance's object alone): `"id"` its name (unless
    /// `id` is off), `"position"` its world position (`position`: `Required`, the
    /// default: an object without one is skipped on import; `Optional`: left out
    /// at the origin, and one without stands there; `Omitted`: not written),
    /// the `constants` (an import takes only objects that hold them), then each
    /// field under its own name or the one `keys` gives it (`("looped", "loop")`).
    /// `radians`: angle fields (degrees in the editor) written in radians;
    /// `omit_empty`: string fields left out when empty; `merge`: a string field
    /// holding a JSON object whose keys join the object's (an import gathers the
    /// keys it does not know back into it); `bounds`: the size field whose box is
    /// written as `"bounds_min"` and `"bounds_max"` in world space (an import puts
    /// the instance on the box's base).
    Json {
        tag: String,
        #[serde(default)]
        first_only: bool,
        #[serde(default = "yes")]
        id: bool,
        #[serde(default)]
        position: Position,
        #[serde(default)]
        constants: Vec<(String, String)>,
        #[serde(default)]
        keys: Vec<(String, String)>,
        #[serde(default)]
        radians: Vec<String>,
        #[serde(default)]
        omit_empty: Vec<String>,
        #[serde(default)]
        merge: Option<String>,
        #[serde(default)]
        bounds: Option<String>,
    },
    /// The binary `entities` lump of patrol spheres (`pbm::entity::PatrolSphere`,
    /// docs/pbm-format.md): the fields `waypoints` (points, at most three
    /// written), `radius`, `color` and `speed`.
    PatrolSpheres,
}

/// Whether a JSON recipe writes and needs each instance's world position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub enum Position {
    #[default]
    Required,
    Optional,
    Omitted,
}

fn yes() -> bool {
    true
}

impl LumpRecipe {
    pub fn tag(&self) -> &str {
        match self {
            Self::Json { tag, .. } => tag,
            Self::PatrolSpheres => "entities",
        }
    }

    /// The key a field is written under.
    pub fn key_of<'a>(&'a self, field: &'a str) -> &'a str {
        match self {
            Self::Json { keys, .. } => keys
                .iter()
                .find(|(f, _)| f == field)
                .map_or(field, |(_, k)| k.as_str()),
            Self::PatrolSpheres => field,
        }
    }

    /// The fields the recipe names (each must be one of the kind's).
    pub fn fields_named(&self) -> Vec<&str> {
        match self {
            Self::Json {
                keys,
                radians,
                omit_empty,
                merge,
                bounds,
                ..
            } => keys
                .iter()
                .map(|(f, _)| f.as_str())
                .chain(radians.iter().map(String::as_str))
                .chain(omit_empty.iter().map(String::as_str))
                .chain(merge.as_deref())
                .chain(bounds.as_deref())
                .collect(),
            Self::PatrolSpheres => vec!["waypoints", "radius", "color", "speed"],
        }
    }
}

/// One kind a game defines, or one of Pebble's built-in kinds
/// ([`super::builtin`]).
#[derive(Debug, Clone, PartialEq)]
pub struct KindDef {
    pub name: String,
    /// The name as menus write it: "PressurePlate" is "Pressure plate".
    pub title: String,
    pub doc: String,
    /// `0xRRGGBB`.
    pub colour: u32,
    pub shape: Shape,
    pub model: Option<ModelSource>,
    /// The field whose value names an instance in the viewport and in links
    /// ("Bat #1", not "Enemy").
    pub label: Option<String>,
    /// One or two characters drawn on the marker and in the Create menu.
    pub icon: Option<String>,
    pub max_count: Option<u32>,
    /// Groups in the Create menu (empty: "Other").
    pub tags: Vec<String>,
    /// Metres above the surface it is put on (a sound at an ear's height).
    pub lift: f32,
    /// A built-in kind's own lump (`None`: written to `game_entities`).
    pub lump: Option<LumpRecipe>,
    pub fields: Vec<FieldDef>,
}

/// "PressurePlate" as "Pressure plate", "key_card" as "Key card".
pub fn title_of(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        if out.is_empty() {
            out.push(c.to_ascii_uppercase());
        } else if c.is_ascii_uppercase() && out.ends_with(' ') {
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out.trim_end().to_owned()
}

impl KindDef {
    pub fn field(&self, name: &str) -> Option<&FieldDef> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The project-relative model an instance is drawn by: the kind's asset, or
    /// the value of its model field (none when that is empty).
    pub fn model_of<'a>(&'a self, d: &'a DefinedEntity) -> Option<&'a str> {
        match self.model.as_ref()? {
            ModelSource::Asset(path) => Some(path.as_str()),
            ModelSource::Field(f) => d.value(self, f)?.as_text(),
        }
        .filter(|p| !p.is_empty())
    }

    /// The field whose value is the box an instance fills (a volume: a trigger).
    pub fn size_field(&self) -> Option<&FieldDef> {
        self.fields.iter().find(|f| f.display == Display::Size)
    }

    /// How an instance is drawn: a box of its size field's value when the kind
    /// has one, else the kind's shape.
    pub fn shape_of(&self, d: &DefinedEntity) -> Shape {
        let Some(f) = self.size_field() else {
            return self.shape;
        };
        match d
            .values
            .get(&f.name)
            .filter(|v| f.fits(v))
            .unwrap_or(&f.default)
        {
            FieldValue::Point(s) if s.is_finite() => Shape::Box(s.abs().to_array()),
            _ => self.shape,
        }
    }

    /// The colour as `[r, g, b]` in 0–1.
    pub fn rgb(&self) -> [f32; 3] {
        [16, 8, 0].map(|s| ((self.colour >> s) & 0xFF) as f32 / 255.0)
    }
}

/// The checked, resolved definitions of one project.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Definitions {
    pub kinds: Vec<KindDef>,
    pub enums: Vec<EnumDef>,
    pub flags: Vec<FlagsDef>,
    hash: u64,
    /// These are Pebble's own kinds ([`super::builtin`]): lookups do not fall
    /// back to themselves.
    pub(super) is_builtin: bool,
}

/// A definitions file that cannot be used: where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct DefinitionsError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl Definitions {
    /// The index among the project's own kinds (the `game_entities` lump's
    /// order); built-in kinds have none.
    pub fn kind_index(&self, name: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k.name == name)
    }

    /// The names of an enum's values or a flag set's bits.
    pub fn names_of(&self, ty: &FieldType) -> &[String] {
        match ty {
            FieldType::Enum(e) => self.enum_def(e).map(|d| d.values.as_slice()),
            FieldType::Flags(f) => self.flags_def(f).map(|d| d.bits.as_slice()),
            _ => None,
        }
        .unwrap_or(&[])
    }

    /// Computes the hash once every kind is in (the checks' last step).
    pub(super) fn seal(&mut self) {
        self.hash = digest(self);
    }

    /// A digest of what the exported bytes' meaning depends on: the kinds in
    /// order, their fields' names, types and order, and the enums' and flag sets'
    /// names in order. Docs, colours, shapes, defaults and limits are left out: they
    /// change what the editor shows or writes, never how a reader decodes a map.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// What an instance is called in the viewport and in links: its label field's
    /// value ("Bat #1"), else the entity's name, then the values of the fields
    /// shown as labels ("hp 150").
    pub fn label(&self, d: &DefinedEntity, name: &str) -> String {
        let Some(kind) = self.kind(&d.kind) else {
            return format!("{name} (unknown kind {})", d.kind);
        };
        let value = |f: &FieldDef| {
            let v = d
                .values
                .get(&f.name)
                .filter(|v| f.fits(v))
                .unwrap_or(&f.default);
            match v {
                FieldValue::Text(s) => s.clone(),
                other => other.describe(),
            }
        };
        let mut out = kind
            .label
            .as_deref()
            .and_then(|l| kind.field(l))
            .map(value)
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| name.to_owned());
        for f in kind.fields.iter().filter(|f| f.display == Display::Label) {
            out += &format!(" · {} {}", f.name, value(f));
        }
        out
    }

    /// The kinds' tags in first-seen order ("Other" for untagged kinds, last).
    pub fn tags(&self) -> Vec<String> {
        let mut tags: Vec<String> = Vec::new();
        let mut other = false;
        for k in &self.kinds {
            if k.tags.is_empty() {
                other = true;
            }
            for t in &k.tags {
                if !tags.contains(t) {
                    tags.push(t.clone());
                }
            }
        }
        if other {
            tags.push(OTHER_TAG.into());
        }
        tags
    }

    /// The kinds under a tag, in file order.
    pub fn kinds_tagged<'a>(&'a self, tag: &'a str) -> impl Iterator<Item = &'a KindDef> + 'a {
        self.kinds.iter().filter(move |k| {
            k.tags.iter().any(|t| t == tag) || (tag == OTHER_TAG && k.tags.is_empty())
        })
    }
}

/// The Create menu's group for kinds without tags.
pub const OTHER_TAG: &str = "Other";

fn digest(defs: &Definitions) -> u64 {
    let mut bytes = Vec::new();
    let mut put = |s: &str| {
        bytes.extend_from_slice(s.as_bytes());
        bytes.push(0);
    };
    put("pebble entities 1");
    for k in &defs.kinds {
        put("kind");
        put(&k.name);
        for f in &k.fields {
            put(&f.name);
            put(&f.ty.word());
            put(if f.array { "array" } else { "one" });
            for n in defs.names_of(&f.ty) {
                put(n);
            }
        }
    }
    pbm::fnv::fnv1a64(&bytes)
}

/// A field's value as an instance stores it. Enums and flags are kept by name so
/// that reordering them in the definitions keeps every instance's choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FieldValue {
    Int(i32),
    Float(f32),
    Bool(bool),
    /// A string or an asset path.
    Text(String),
    Enum(String),
    Flags(Vec<String>),
    /// `0xAABBGGRR`.
    Colour(u32),
    /// World space (moving the entity leaves its points where they are, as in
    /// LDtk; a map reads them back exactly).
    Point(Vec3),
    Entity(Option<EntityId>),
    Array(Vec<FieldValue>),
}

/// A value as an export writes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolved {
    Int(i32),
    Float(f32),
    Bool(bool),
    Text(String),
    /// The value's index in its enum.
    Enum(u32),
    /// Bit `k` for the flag set's `k`-th bit.
    Flags(u32),
    Colour(u32),
    /// World space.
    Point(Vec3),
    Entity(Option<EntityId>),
    Array(Vec<Resolved>),
}

impl FieldValue {
    /// A short text for labels, the Problems list and tooltips.
    pub fn describe(&self) -> String {
        match self {
            Self::Int(v) => v.to_string(),
            Self::Float(v) => format!("{v}"),
            Self::Bool(v) => if *v { "yes" } else { "no" }.into(),
            Self::Text(s) => format!("\"{s}\""),
            Self::Enum(s) => s.clone(),
            Self::Flags(f) if f.is_empty() => "none".into(),
            Self::Flags(f) => f.join(" | "),
            Self::Colour(c) => {
                let [r, g, b] = [0, 8, 16].map(|s| (c >> s) & 0xFF);
                format!("#{r:02x}{g:02x}{b:02x}")
            }
            Self::Point(p) => format!("({}, {}, {})", p.x, p.y, p.z),
            Self::Entity(None) => "none".into(),
            Self::Entity(Some(id)) => id.to_string(),
            Self::Array(items) => format!("{} items", items.len()),
        }
    }

    /// The entities this value refers to.
    pub fn references(&self, out: &mut Vec<EntityId>) {
        match self {
            Self::Entity(Some(id)) => out.push(*id),
            Self::Array(items) => items.iter().for_each(|v| v.references(out)),
            _ => {}
        }
    }

    /// The same value with every reference passed through `map` (copies of a
    /// linked set keep their links among themselves).
    pub fn map_references(&mut self, map: &mut impl FnMut(EntityId) -> Option<EntityId>) {
        match self {
            Self::Entity(r) => *r = r.and_then(&mut *map),
            Self::Array(items) => items.iter_mut().for_each(|v| v.map_references(map)),
            _ => {}
        }
    }
}

/// An instance of a kind defined in the project's `entities.ron`: the kind's name
/// and the values set on it. A field not in `values` holds its definition's
/// default (and follows it when the definitions change); a value whose field has
/// left the definitions, or whose kind has, is kept as it is, never dropped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DefinedEntity {
    pub kind: String,
    #[serde(default)]
    pub values: std::collections::BTreeMap<String, FieldValue>,
}

impl DefinedEntity {
    pub fn new(kind: impl Into<String>) -> Self {
        Self {
            kind: kind.into(),
            values: Default::default(),
        }
    }

    /// The value of field `name` of `kind` as it stands: the one set when it
    /// fits the field, else the default.
    pub fn value<'a>(&'a self, kind: &'a KindDef, name: &str) -> Option<&'a FieldValue> {
        let f = kind.field(name)?;
        Some(
            self.values
                .get(name)
                .filter(|v| f.fits(v))
                .unwrap_or(&f.default),
        )
    }
}

impl FieldValue {
    pub fn as_f32(&self) -> Option<f32> {
        match self {
            Self::Float(v) => Some(*v),
            Self::Int(v) => Some(*v as f32),
            _ => None,
        }
    }

    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_point(&self) -> Option<Vec3> {
        match self {
            Self::Point(p) => Some(*p),
            _ => None,
        }
    }

    /// The points of a point or a point list.
    pub fn points(&self) -> Vec<Vec3> {
        match self {
            Self::Point(p) => vec![*p],
            Self::Array(items) => items.iter().filter_map(Self::as_point).collect(),
            _ => Vec::new(),
        }
    }
}
