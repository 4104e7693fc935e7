//! The values an instance of a defined kind holds, what a field accepts, and the
//! resolved form an export writes: defaults filled, numbers clamped, strings cut
//! to their length, enums and flags as numbers.

use glam::Vec3;

use super::schema::{Definitions, FieldDef, FieldType, FieldValue, Resolved};

/// The value a field of `ty` holds when its definition gives none: numbers are
/// 0 brought within `bounds`.
pub fn zero(ty: &FieldType, defs_names: &[String], bounds: (f64, f64)) -> FieldValue {
    let near_zero = 0f64.clamp(bounds.0, bounds.1.max(bounds.0));
    match ty {
        FieldType::Int => FieldValue::Int(near_zero.ceil() as i32),
        FieldType::Float => FieldValue::Float(near_zero as f32),
        FieldType::Bool => FieldValue::Bool(false),
        FieldType::String | FieldType::Asset => FieldValue::Text(String::new()),
        FieldType::Enum(_) => FieldValue::Enum(defs_names.first().cloned().unwrap_or_default()),
        FieldType::Flags(_) => FieldValue::Flags(Vec::new()),
        FieldType::Colour => FieldValue::Colour(0xFFFF_FFFF),
        FieldType::Point => FieldValue::Point(Vec3::ZERO),
        FieldType::Entity => FieldValue::Entity(None),
    }
}

impl FieldDef {
    /// The bounds a number must keep, as the field's type can hold them.
    pub fn bounds(&self) -> (f64, f64) {
        let (lo, hi) = match self.ty {
            FieldType::Int => (f64::from(i32::MIN), f64::from(i32::MAX)),
            _ => (f64::from(f32::MIN), f64::from(f32::MAX)),
        };
        (
            self.min.map_or(lo, |m| m.max(lo)),
            self.max.map_or(hi, |m| m.min(hi)),
        )
    }

    /// Whether `v` has the field's shape (an array of the type, or one of it).
    pub fn fits(&self, v: &FieldValue) -> bool {
        match v {
            FieldValue::Array(items) => self.array && items.iter().all(|i| self.fits_one(i)),
            one => !self.array && self.fits_one(one),
        }
    }

    fn fits_one(&self, v: &FieldValue) -> bool {
        matches!(
            (&self.ty, v),
            (FieldType::Int, FieldValue::Int(_))
                | (FieldType::Float, FieldValue::Float(_))
                | (FieldType::Bool, FieldValue::Bool(_))
                | (FieldType::String | FieldType::Asset, FieldValue::Text(_))
                | (FieldType::Enum(_), FieldValue::Enum(_))
                | (FieldType::Flags(_), FieldValue::Flags(_))
                | (FieldType::Colour, FieldValue::Colour(_))
                | (FieldType::Point, FieldValue::Point(_))
                | (FieldType::Entity, FieldValue::Entity(_))
        )
    }

    /// Why `v` is not a value this field takes, or `Ok`. References are judged
    /// against the scene elsewhere ([`super::problems`]).
    pub fn check(&self, defs: &Definitions, v: &FieldValue) -> Result<(), String> {
        let name = &self.name;
        if !self.fits(v) {
            let want = if self.array {
                format!("a list of {}", self.ty.word())
            } else {
                self.ty.word()
            };
            return Err(format!("{name} takes {want}, not {}", v.describe()));
        }
        match v {
            FieldValue::Array(items) => {
                if items.len() > self.max_items {
                    return Err(format!(
                        "{name} holds at most {} items, not {}",
                        self.max_items,
                        items.len()
                    ));
                }
                items.iter().try_for_each(|i| self.check_one(defs, i))
            }
            one => self.check_one(defs, one),
        }
    }

    fn check_one(&self, defs: &Definitions, v: &FieldValue) -> Result<(), String> {
        let name = &self.name;
        let (lo, hi) = self.bounds();
        let number = |x: f64| {
            if !x.is_finite() {
                return Err(format!("{name} must be a finite number"));
            }
            if x < lo || x > hi {
                let unit = self
                    .unit
                    .as_deref()
                    .map(|u| format!(" {u}"))
                    .unwrap_or_default();
                return Err(format!(
                    "{name} must be between {lo} and {hi}{unit}, not {x}"
                ));
            }
            Ok(())
        };
        match v {
            FieldValue::Int(x) => number(f64::from(*x)),
            FieldValue::Float(x) => number(f64::from(*x)),
            FieldValue::Text(s) if s.len() > self.max_len => Err(format!(
                "{name} holds at most {} bytes, not {}",
                self.max_len,
                s.len()
            )),
            FieldValue::Text(s) if self.ty == FieldType::Asset && !self.extensions.is_empty() => {
                let ext = std::path::Path::new(s)
                    .extension()
                    .map(|e| e.to_string_lossy().to_lowercase());
                match ext {
                    _ if s.is_empty() => Ok(()),
                    Some(e) if self.extensions.contains(&e) => Ok(()),
                    _ => Err(format!(
                        "{name} takes a .{} file, not {s}",
                        self.extensions.join(", .")
                    )),
                }
            }
            FieldValue::Enum(s) => {
                let names = defs.names_of(&self.ty);
                if names.contains(s) {
                    Ok(())
                } else {
                    Err(format!("{name}: {s} is not one of {}", names.join(", ")))
                }
            }
            FieldValue::Flags(set) => {
                let names = defs.names_of(&self.ty);
                match set.iter().find(|s| !names.contains(s)) {
                    Some(s) => Err(format!("{name}: {s} is not one of {}", names.join(", "))),
                    None => Ok(()),
                }
            }
            FieldValue::Point(p) if !p.is_finite() => {
                Err(format!("{name} must be a finite position"))
            }
            FieldValue::Point(p) => p
                .to_array()
                .into_iter()
                .try_for_each(|c| number(f64::from(c))),
            _ => Ok(()),
        }
    }

    /// The value an export writes for `stored` (none: the default): a value of
    /// the wrong shape gives way to the default, numbers are clamped to the
    /// field's bounds, strings cut at `max_len` (on a character boundary), unknown
    /// enum names give the default's index, unknown flags are left out.
    pub fn resolve(&self, defs: &Definitions, stored: Option<&FieldValue>) -> Resolved {
        let v = stored.filter(|v| self.fits(v)).unwrap_or(&self.default);
        match v {
            FieldValue::Array(items) => Resolved::Array(
                items
                    .iter()
                    .take(self.max_items)
                    .map(|i| self.resolve_one(defs, i))
                    .collect(),
            ),
            one => self.resolve_one(defs, one),
        }
    }

    fn resolve_one(&self, defs: &Definitions, v: &FieldValue) -> Resolved {
        let (lo, hi) = self.bounds();
        let names = defs.names_of(&self.ty);
        match v {
            FieldValue::Int(x) => Resolved::Int(f64::from(*x).clamp(lo, hi) as i32),
            FieldValue::Float(x) if x.is_nan() => Resolved::Float(lo.max(0.0).min(hi) as f32),
            FieldValue::Float(x) => Resolved::Float(f64::from(*x).clamp(lo, hi) as f32),
            FieldValue::Bool(b) => Resolved::Bool(*b),
            FieldValue::Text(s) => {
                let mut end = s.len().min(self.max_len);
                while !s.is_char_boundary(end) {
                    end -= 1;
                }
                Resolved::Text(s[..end].to_owned())
            }
            FieldValue::Enum(s) => {
                let fallback = match &self.default {
                    FieldValue::Enum(d) => names.iter().position(|n| n == d).unwrap_or(0),
                    _ => 0,
                };
                Resolved::Enum(names.iter().position(|n| n == s).unwrap_or(fallback) as u32)
            }
            FieldValue::Flags(set) => Resolved::Flags(
                names
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| set.contains(n))
                    .fold(0, |bits, (k, _)| bits | (1 << k)),
            ),
            FieldValue::Colour(c) => Resolved::Colour(*c),
            FieldValue::Point(p) if p.is_finite() => {
                let c = |x: f32| f64::from(x).clamp(lo, hi) as f32;
                Resolved::Point(Vec3::new(c(p.x), c(p.y), c(p.z)))
            }
            FieldValue::Point(_) => Resolved::Point(Vec3::ZERO),
            FieldValue::Entity(r) => Resolved::Entity(*r),
            FieldValue::Array(_) => self.resolve_one(defs, &zero(&self.ty, names, self.bounds())),
        }
    }

    /// The stored value for a resolved one (an import): enums and flags back to
    /// their names.
    pub fn unresolve(&self, defs: &Definitions, r: &Resolved) -> FieldValue {
        let names = defs.names_of(&self.ty);
        match r {
            Resolved::Int(x) => FieldValue::Int(*x),
            Resolved::Float(x) => FieldValue::Float(*x),
            Resolved::Bool(b) => FieldValue::Bool(*b),
            Resolved::Text(s) => FieldValue::Text(s.clone()),
            Resolved::Enum(k) => FieldValue::Enum(
                names
                    .get(*k as usize)
                    .cloned()
                    .unwrap_or_else(|| names.first().cloned().unwrap_or_default()),
            ),
            Resolved::Flags(bits) => FieldValue::Flags(
                names
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| bits & (1 << k) != 0)
                    .map(|(_, n)| n.clone())
                    .collect(),
            ),
            Resolved::Colour(c) => FieldValue::Colour(*c),
            Resolved::Point(p) => FieldValue::Point(*p),
            Resolved::Entity(r) => FieldValue::Entity(*r),
            Resolved::Array(items) => {
                FieldValue::Array(items.iter().map(|i| self.unresolve(defs, i)).collect())
            }
        }
    }
}

/// A default as the file writes it (a RON value) for a field: `3`, `2.5`,
/// `true`, `"text"`, `"Red"` (enum), `["A", "B"]` (flags), `"#ff8800"` or
/// `"#ff8800cc"` (colour), `(x, y, z)` (point), `[…]` (array).
pub(super) fn from_ron(
    field: &FieldDef,
    names: &[String],
    v: &ron::Value,
) -> Result<FieldValue, String> {
    if field.array {
        let ron::Value::Seq(items) = v else {
            return Err(format!(
                "{} is a list: its default is written [ … ]",
                field.name
            ));
        };
        return items
            .iter()
            .map(|i| one_from_ron(&field.ty, names, i))
            .collect::<Result<_, _>>()
            .map(FieldValue::Array);
    }
    one_from_ron(&field.ty, names, v)
}

fn number(v: &ron::Value) -> Option<f64> {
    match v {
        ron::Value::Number(n) => Some(n.into_f64()),
        _ => None,
    }
}

fn one_from_ron(ty: &FieldType, names: &[String], v: &ron::Value) -> Result<FieldValue, String> {
    let text = |v: &ron::Value| match v {
        ron::Value::String(s) => Some(s.clone()),
        _ => None,
    };
    let want = |what: &str| Err(format!("the default must be {what}"));
    match ty {
        FieldType::Int => match number(v) {
            Some(x) if x.fract() == 0.0 && x.abs() <= f64::from(i32::MAX) => {
                Ok(FieldValue::Int(x as i32))
            }
            _ => want("a whole number"),
        },
        FieldType::Float => match number(v) {
            Some(x) => Ok(FieldValue::Float(x as f32)),
            None => want("a number"),
        },
        FieldType::Bool => match v {
            ron::Value::Bool(b) => Ok(FieldValue::Bool(*b)),
            _ => want("true or false"),
        },
        FieldType::String | FieldType::Asset => match text(v) {
            Some(s) => Ok(FieldValue::Text(s)),
            None => want("a string in quotes"),
        },
        FieldType::Enum(e) => match text(v) {
            Some(s) if names.contains(&s) => Ok(FieldValue::Enum(s)),
            Some(s) => Err(format!(
                "the default {s} is not a value of {e} ({})",
                names.join(", ")
            )),
            None => want("one of the enum's values in quotes"),
        },
        FieldType::Flags(f) => {
            let ron::Value::Seq(items) = v else {
                return want("a list of flag names, [\"A\", \"B\"]");
            };
            let mut set = Vec::new();
            for i in items {
                match text(i) {
                    Some(s) if names.contains(&s) => set.push(s),
                    Some(s) => {
                        return Err(format!(
                            "the default {s} is not a bit of {f} ({})",
                            names.join(", ")
                        ));
                    }
                    None => return want("a list of flag names, [\"A\", \"B\"]"),
                }
            }
            Ok(FieldValue::Flags(set))
        }
        FieldType::Colour => match text(v).as_deref().and_then(parse_colour) {
            Some(c) => Ok(FieldValue::Colour(c)),
            None => want("a colour written \"#rrggbb\" or \"#rrggbbaa\""),
        },
        FieldType::Point => match v {
            ron::Value::Seq(xyz) if xyz.len() == 3 => {
                let c: Option<Vec<f64>> = xyz.iter().map(number).collect();
                match c {
                    Some(c) => Ok(FieldValue::Point(Vec3::new(
                        c[0] as f32,
                        c[1] as f32,
                        c[2] as f32,
                    ))),
                    None => want("a position (x, y, z)"),
                }
            }
            _ => want("a position (x, y, z)"),
        },
        FieldType::Entity => want("left out: a reference starts empty"),
    }
}

/// `#rrggbb` or `#rrggbbaa` as `0xAABBGGRR`.
pub fn parse_colour(s: &str) -> Option<u32> {
    let hex = s.strip_prefix('#')?;
    if !(hex.len() == 6 || hex.len() == 8) || !hex.is_ascii() {
        return None;
    }
    let byte = |k: usize| u8::from_str_radix(&hex[k..k + 2], 16).ok();
    let (r, g, b) = (byte(0)?, byte(2)?, byte(4)?);
    let a = if hex.len() == 8 { byte(6)? } else { 0xFF };
    Some(u32::from_le_bytes([r, g, b, a]))
}
