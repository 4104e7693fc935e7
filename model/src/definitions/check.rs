//! From the file's form to checked definitions: names, references between
//! definitions, field groups expanded (a group that includes itself, directly or
//! through another, is refused), defaults parsed and held to their limits. Every
//! error points at the line and column of the definition it is about.

use std::collections::{BTreeMap, BTreeSet};

use super::form::{FieldForm, FileForm, GroupForm, KindForm};
use super::schema::{
    Definitions, DefinitionsError, Display, EnumDef, FieldDef, FieldType, FieldValue, FlagsDef,
    KindDef, MAX_ARRAY_ITEMS, MAX_FIELDS, MAX_KINDS, MAX_NAME_BYTES, MAX_STRING_BYTES, ModelSource,
    Shape,
};
use super::value;

/// Where each `name: "…"` of the file is, in order: semantic errors point there.
struct Places<'a> {
    text: &'a str,
    names: Vec<(String, usize)>,
}

impl<'a> Places<'a> {
    fn new(text: &'a str) -> Self {
        let mut names = Vec::new();
        let bytes = text.as_bytes();
        let mut at = 0;
        while let Some(k) = text[at..].find("name") {
            let start = at + k;
            at = start + 4;
            let before_ok = start == 0 || !is_ident(bytes[start - 1]);
            let mut i = at;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if !before_ok || bytes.get(i) != Some(&b':') {
                continue;
            }
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if bytes.get(i) != Some(&b'"') {
                continue;
            }
            if let Some(end) = text[i + 1..].find('"') {
                names.push((text[i + 1..i + 1 + end].to_owned(), start));
            }
        }
        Self { text, names }
    }

    /// The offset of the `nth` `name: "name"` at or after `from`.
    fn find(&self, name: &str, from: usize, nth: usize) -> usize {
        self.names
            .iter()
            .filter(|(n, at)| n == name && *at >= from)
            .nth(nth)
            .or_else(|| self.names.iter().find(|(n, _)| n == name))
            .map_or(0, |(_, at)| *at)
    }

    fn error(&self, offset: usize, message: impl Into<String>) -> DefinitionsError {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |k| k + 1) + 1;
        DefinitionsError {
            line,
            column,
            message: message.into(),
        }
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether a name can be a Rust and C identifier and fits its 32-byte slot.
fn check_name(what: &str, name: &str) -> Result<(), String> {
    let first_ok = name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
    if !first_ok || !name.bytes().all(is_ident) {
        return Err(format!(
            "{what} \"{name}\" must start with a letter and hold only letters, digits and _ \
             (the game's code uses it as a name)"
        ));
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(format!(
            "{what} \"{name}\" is {} bytes long; at most {MAX_NAME_BYTES}",
            name.len()
        ));
    }
    Ok(())
}

fn unique<'n>(
    places: &Places<'_>,
    what: &str,
    names: impl Iterator<Item = &'n String>,
) -> Result<(), DefinitionsError> {
    // Generated C writes names in capitals (PBE_KIND_DOOR): two names that differ
    // only in case would be one there.
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for n in names {
        match seen.insert(n.to_ascii_uppercase(), n.as_str()) {
            Some(same) if same == n => {
                let at = places.find(n, 0, 1);
                return Err(places.error(at, format!("two {what}s are named \"{n}\"")));
            }
            Some(other) => {
                let at = places.find(n, 0, 0);
                return Err(places.error(
                    at,
                    format!(
                        "the {what}s \"{other}\" and \"{n}\" differ only in case \
                         (generated C code writes them alike)"
                    ),
                ));
            }
            None => {}
        }
    }
    Ok(())
}

/// Checks a definitions file: a project's, with Pebble's built-in kinds beside
/// it (`builtin`: their names are taken, and only they choose their lump), or
/// the built-in kinds themselves (`None`).
pub(super) fn resolve(
    text: &str,
    file: FileForm,
    builtin: Option<&Definitions>,
) -> Result<Definitions, DefinitionsError> {
    let places = Places::new(text);
    let mut defs = Definitions::default();
    defs.is_builtin = builtin.is_none();
    for e in &file.enums {
        let at = places.find(&e.name, 0, 0);
        let err = |m: String| places.error(at, m);
        check_name("an enum", &e.name).map_err(err)?;
        reserved(&e.name).map_err(err)?;
        not_builtin(builtin, "an enum", &e.name).map_err(err)?;
        if e.values.is_empty() {
            return Err(err(format!("enum {} has no values", e.name)));
        }
        for v in &e.values {
            check_name("an enum value", v).map_err(err)?;
        }
        if let Some(v) = duplicate(&e.values) {
            return Err(err(format!("enum {} lists {v} twice", e.name)));
        }
        defs.enums.push(EnumDef {
            name: e.name.clone(),
            doc: e.doc.clone(),
            values: e.values.clone(),
        });
    }
    for f in &file.flags {
        let at = places.find(&f.name, 0, 0);
        let err = |m: String| places.error(at, m);
        check_name("a flag set", &f.name).map_err(err)?;
        reserved(&f.name).map_err(err)?;
        not_builtin(builtin, "a flag set", &f.name).map_err(err)?;
        if f.bits.len() > 32 {
            return Err(err(format!(
                "flag set {} has {} bits; at most 32",
                f.name,
                f.bits.len()
            )));
        }
        for b in &f.bits {
            check_name("a flag", b).map_err(err)?;
        }
        if let Some(b) = duplicate(&f.bits) {
            return Err(err(format!("flag set {} lists {b} twice", f.name)));
        }
        defs.flags.push(FlagsDef {
            name: f.name.clone(),
            doc: f.doc.clone(),
            bits: f.bits.clone(),
        });
    }
    unique(&places, "enums and flag set", {
        defs.enums
            .iter()
            .map(|e| &e.name)
            .chain(defs.flags.iter().map(|f| &f.name))
    })?;
    unique(&places, "field group", file.groups.iter().map(|g| &g.name))?;
    unique(&places, "kind", file.kinds.iter().map(|k| &k.name))?;
    if file.kinds.len() > MAX_KINDS {
        return Err(places.error(
            0,
            format!("{} kinds; at most {MAX_KINDS}", file.kinds.len()),
        ));
    }
    let kind_names: Vec<&String> = file.kinds.iter().map(|k| &k.name).collect();
    for g in &file.groups {
        let at = places.find(&g.name, 0, 0);
        check_name("a field group", &g.name).map_err(|m| places.error(at, m))?;
        let mut path = Vec::new();
        group_cycle(&file.groups, g, &mut path).map_err(|m| places.error(at, m))?;
    }
    for k in &file.kinds {
        let at = places.find(&k.name, 0, 0);
        not_builtin(builtin, "a kind", &k.name).map_err(|m| places.error(at, m))?;
        if k.lump.is_some() && builtin.is_some() {
            return Err(places.error(
                at,
                format!(
                    "kind {}: `lump` is for Pebble's built-in kinds; a game's kinds are \
                     written to the game_entities lump (remove the line)",
                    k.name
                ),
            ));
        }
        let kind = kind(&places, &file, &defs, &kind_names, k)?;
        defs.kinds.push(kind);
    }
    defs.seal();
    Ok(defs)
}

/// A name listed twice (case aside: generated C writes them in capitals).
fn duplicate(names: &[String]) -> Option<&String> {
    let mut seen = BTreeSet::new();
    names.iter().find(|n| !seen.insert(n.to_ascii_uppercase()))
}

/// Refuses a group that includes itself, directly or through others, and one
/// that includes a group not defined.
fn group_cycle<'g>(
    groups: &'g [GroupForm],
    g: &'g GroupForm,
    path: &mut Vec<&'g str>,
) -> Result<(), String> {
    if path.contains(&g.name.as_str()) {
        path.push(&g.name);
        return Err(format!(
            "field group {} includes itself ({})",
            path[0],
            path.join(" -> ")
        ));
    }
    path.push(&g.name);
    for inc in &g.include {
        let Some(next) = groups.iter().find(|x| &x.name == inc) else {
            return Err(format!(
                "field group {} includes {inc}, which is not defined",
                g.name
            ));
        };
        group_cycle(groups, next, path)?;
    }
    path.pop();
    Ok(())
}

/// The fields a list of included groups brings, depth first, in order.
fn group_fields<'g>(
    groups: &'g [GroupForm],
    include: &[String],
    out: &mut Vec<(&'g FieldForm, &'g str)>,
) {
    for inc in include {
        if let Some(g) = groups.iter().find(|x| &x.name == inc) {
            group_fields(groups, &g.include, out);
            out.extend(g.fields.iter().map(|f| (f, g.name.as_str())));
        }
    }
}

/// Names every instance has in generated code, and the generated code's own.
const RESERVED_FIELDS: [&str; 4] = ["id", "name", "position", "rotation"];
const RESERVED_TYPES: [&str; 12] = [
    "Entities",
    "ReadError",
    "Value",
    "Instance",
    "GameEntities",
    "String",
    "Vec",
    "Option",
    "Result",
    "Some",
    "None",
    "Self",
];

/// A project's name that one of Pebble's built-in kinds, enums or flag sets has
/// (case aside, as [`unique`] compares).
fn not_builtin(builtin: Option<&Definitions>, what: &str, name: &str) -> Result<(), String> {
    let Some(own) = builtin else {
        return Ok(());
    };
    let taken = own
        .kinds
        .iter()
        .map(|k| &k.name)
        .chain(own.enums.iter().map(|e| &e.name))
        .chain(own.flags.iter().map(|f| &f.name))
        .find(|n| n.eq_ignore_ascii_case(name));
    match taken {
        Some(n) => Err(format!(
            "{what} \"{name}\" takes the name of Pebble's built-in {n}; rename it"
        )),
        None => Ok(()),
    }
}

fn reserved(name: &str) -> Result<(), String> {
    if RESERVED_TYPES.contains(&name) {
        return Err(format!(
            "\"{name}\" is a name the generated code already uses ({}); rename it",
            RESERVED_TYPES.join(", ")
        ));
    }
    Ok(())
}

fn kind(
    places: &Places<'_>,
    file: &FileForm,
    defs: &Definitions,
    kind_names: &[&String],
    k: &KindForm,
) -> Result<KindDef, DefinitionsError> {
    let kind_at = places.find(&k.name, 0, 0);
    let err = |m: String| places.error(kind_at, m);
    check_name("a kind", &k.name).map_err(err)?;
    if RESERVED_TYPES.contains(&k.name.as_str())
        || defs.enum_def(&k.name).is_some()
        || defs.flags_def(&k.name).is_some()
    {
        return Err(err(format!(
            "kind {} takes a name the generated code already uses (an enum, a flag set or \
             one of {}); rename it",
            k.name,
            RESERVED_TYPES.join(", ")
        )));
    }
    for inc in &k.include {
        if !file.groups.iter().any(|g| &g.name == inc) {
            return Err(err(format!(
                "kind {} includes the field group {inc}, which is not defined",
                k.name
            )));
        }
    }
    let colour = match &k.colour {
        None => 0x8080FF,
        Some(c) => match value::parse_colour(c) {
            Some(abgr) => {
                let [r, g, b, _] = abgr.to_le_bytes();
                u32::from_be_bytes([0, r, g, b])
            }
            None => {
                return Err(err(format!(
                    "kind {}: colour \"{c}\" must be written \"#rrggbb\"",
                    k.name
                )));
            }
        },
    };
    let size_ok = |v: f32| v.is_finite() && v > 0.0 && v <= 500.0;
    match k.shape {
        Shape::Box(s) if !s.iter().all(|v| size_ok(*v)) => {
            return Err(err(format!(
                "kind {}: a box's sides must be between 0 and 500 m",
                k.name
            )));
        }
        Shape::Figure([r, h, eye]) if !(size_ok(r) && size_ok(h) && size_ok(eye) && eye <= h) => {
            return Err(err(format!(
                "kind {}: a figure's radius, height and eye height must be between 0 and \
                 500 m, the eye no higher than the figure",
                k.name
            )));
        }
        Shape::Sphere(r) if !size_ok(r) => {
            return Err(err(format!(
                "kind {}: a sphere's radius must be between 0 and 500 m",
                k.name
            )));
        }
        _ => {}
    }
    if !(k.lift.is_finite() && (0.0..=100.0).contains(&k.lift)) {
        return Err(err(format!(
            "kind {}: lift must be between 0 and 100 m",
            k.name
        )));
    }
    if k.icon.as_ref().is_some_and(|i| i.chars().count() > 2) {
        return Err(err(format!(
            "kind {}: an icon is one or two characters",
            k.name
        )));
    }
    let mut sources = Vec::new();
    group_fields(&file.groups, &k.include, &mut sources);
    let group_count = sources.len();
    sources.extend(k.fields.iter().map(|f| (f, k.name.as_str())));
    if sources.len() > MAX_FIELDS {
        return Err(err(format!(
            "kind {} has {} fields with its groups'; at most {MAX_FIELDS}",
            k.name,
            sources.len()
        )));
    }
    let mut fields: Vec<FieldDef> = Vec::new();
    for (index, (f, from)) in sources.into_iter().enumerate() {
        let from_group = index < group_count;
        let owner_at = places.find(from, 0, 0);
        let at = places.find(&f.name, owner_at, 0);
        let ferr = |m: String| places.error(at, format!("{}.{}: {m}", k.name, f.name));
        let def = field(defs, kind_names, f, from_group.then(|| from.to_owned())).map_err(ferr)?;
        if let Some(other) = fields.iter().find(|x| x.name == def.name) {
            let whence = |g: &Option<String>| match g {
                Some(g) => format!("the field group {g}"),
                None => format!("the kind {}", k.name),
            };
            return Err(ferr(format!(
                "two fields of this name: one from {}, one from {}",
                whence(&other.group),
                whence(&def.group)
            )));
        }
        fields.push(def);
    }
    if let Some(label) = &k.label
        && !fields.iter().any(|f| &f.name == label && !f.array)
    {
        return Err(err(format!(
            "kind {}: label names {label}, which is not one of its fields",
            k.name
        )));
    }
    if let Some(ModelSource::Field(m)) = &k.model
        && !fields
            .iter()
            .any(|f| &f.name == m && f.ty == FieldType::Asset && !f.array)
    {
        return Err(err(format!(
            "kind {}: the model comes from {m}, which must be one of its asset fields",
            k.name
        )));
    }
    if fields.iter().filter(|f| f.display == Display::Size).count() > 1 {
        return Err(err(format!("kind {}: one size field at most", k.name)));
    }
    if k.lump.is_none()
        && let Some(f) = fields.iter().find(|f| f.local)
    {
        return Err(err(format!(
            "kind {}: {} is local, which only a built-in kind's own lump writes; a game's \
             points are in world space (remove `local`)",
            k.name, f.name
        )));
    }
    if let Some(lump) = &k.lump {
        if let Some(f) = fields.iter().find(|f| f.ty == FieldType::Entity) {
            return Err(err(format!(
                "kind {}: {} is a reference, which a lump of its own cannot write",
                k.name, f.name
            )));
        }
        for f in lump.fields_named() {
            if !fields.iter().any(|x| x.name == f) {
                return Err(err(format!(
                    "kind {}: the lump names {f}, which is not one of its fields",
                    k.name
                )));
            }
        }
    }
    Ok(KindDef {
        name: k.name.clone(),
        title: super::schema::title_of(&k.name),
        lift: k.lift,
        lump: k.lump.clone(),
        doc: k.doc.clone(),
        colour,
        shape: k.shape,
        model: k.model.clone(),
        label: k.label.clone(),
        icon: k.icon.clone(),
        max_count: k.max_count,
        tags: k.tags.clone(),
        fields,
    })
}

fn field(
    defs: &Definitions,
    kind_names: &[&String],
    f: &FieldForm,
    group: Option<String>,
) -> Result<FieldDef, String> {
    check_name("a field", &f.name)?;
    if RESERVED_FIELDS.contains(&f.name.as_str()) {
        return Err(format!(
            "every instance has its {}: a field cannot take that name",
            RESERVED_FIELDS.join(", ")
        ));
    }
    let numeric = matches!(f.ty, FieldType::Int | FieldType::Float);
    match &f.ty {
        FieldType::Enum(e) if defs.enum_def(e).is_none() => {
            return Err(format!("the enum {e} is not defined (enums: [ … ])"));
        }
        FieldType::Flags(s) if defs.flags_def(s).is_none() => {
            return Err(format!("the flag set {s} is not defined (flags: [ … ])"));
        }
        _ => {}
    }
    let ranged = numeric || f.ty == FieldType::Point;
    if !ranged && (f.min.is_some() || f.max.is_some() || f.step.is_some()) {
        return Err(format!(
            "min, max and step are for int, float and point fields, not {}",
            f.ty.word()
        ));
    }
    if f.local && f.ty != FieldType::Point {
        return Err("local is for point fields".into());
    }
    if let (Some(lo), Some(hi)) = (f.min, f.max)
        && lo > hi
    {
        return Err(format!("min {lo} is above max {hi}"));
    }
    if f.step.is_some_and(|s| !(s.is_finite() && s > 0.0)) {
        return Err("step must be a number above 0".into());
    }
    for k in &f.kinds {
        if f.ty != FieldType::Entity {
            return Err("kinds is for entity fields".into());
        }
        if !kind_names.contains(&k) {
            return Err(format!("it refers to the kind {k}, which is not defined"));
        }
    }
    let max_len = f.max_len.map_or(MAX_STRING_BYTES, |m| m as usize);
    if max_len > MAX_STRING_BYTES {
        return Err(format!("max_len is at most {MAX_STRING_BYTES}"));
    }
    let max_items = f.max_items.map_or(MAX_ARRAY_ITEMS, |m| m as usize);
    if max_items > MAX_ARRAY_ITEMS {
        return Err(format!("max_items is at most {MAX_ARRAY_ITEMS}"));
    }
    let display = f.display.unwrap_or(match (&f.ty, f.array) {
        (FieldType::Entity, _) => Display::Link,
        (FieldType::Point, true) => Display::Path,
        _ => Display::Inspector,
    });
    let display_ok = match display {
        Display::Radius => numeric && !f.array,
        Display::Path => f.ty == FieldType::Point,
        Display::Link => f.ty == FieldType::Entity,
        Display::Label => !f.array,
        Display::Heading => numeric && !f.array,
        Display::Size | Display::Corner => f.ty == FieldType::Point && !f.array,
        Display::Hidden | Display::Inspector => true,
    };
    if !display_ok {
        return Err(format!(
            "display {display:?} does not suit a {}{} field",
            f.ty.word(),
            if f.array { " list" } else { "" }
        ));
    }
    let mut def = FieldDef {
        name: f.name.clone(),
        ty: f.ty.clone(),
        array: f.array,
        max_items,
        default: FieldValue::Bool(false),
        doc: f.doc.clone(),
        min: f.min,
        max: f.max,
        step: f.step,
        unit: f.unit.clone(),
        max_len,
        extensions: f
            .extensions
            .iter()
            .map(|e| e.trim_start_matches('.').to_lowercase())
            .collect(),
        kinds: f.kinds.clone(),
        display,
        local: f.local,
        group,
    };
    let names = defs.names_of(&f.ty);
    def.default = match &f.default {
        Some(v) => value::from_ron(&def, names, v)?,
        None if f.array => FieldValue::Array(Vec::new()),
        None => value::zero(&f.ty, names, def.bounds()),
    };
    def.check(defs, &def.default)
        .map_err(|m| format!("the default is refused: {m}"))?;
    Ok(def)
}
