//! Numeric text fields: what the inspector types numbers into.
//!
//! This module owns a field's edit state (the text being typed, kept in egui's
//! temporary memory under the field's [`egui::Id`]), the small expression parser that
//! reads it, validation against the caller's [`Limit`] (min, max, whole numbers,
//! either sign, unit), and the inline error in red under the field. A field edits as
//! text: nothing is applied while typing; Enter or leaving the field commits, and
//! [`Field::committed`] hands the caller the one value to turn into one command. A
//! value that does not parse or is out of range is refused in place: the text stays
//! as typed with the reason under it, so it can be fixed. Esc restores the value
//! and leaves the field.
//!
//! The parser is written here, not taken from a crate: nothing in `Cargo.lock`
//! evaluates arithmetic, no crate kept for this project fits egui 0.37, and a
//! recursive descent over `f64` for `+ - * /`, unary minus, parentheses and
//! exponents is about eighty lines.

use pebble_core::intent::FieldId;
use pebble_model::entity::Limit;

/// Longest expression accepted (characters).
const MAX_LEN: usize = 200;
/// Deepest nesting of parentheses and unary signs.
const MAX_DEPTH: usize = 32;

/// The value of an arithmetic expression: numbers (`0.3`, `.3`, `1e3`, `2.5E-2`),
/// `+ - * /`, unary `+`/`-`, parentheses and spaces. Never NaN or infinite.
pub fn parse(text: &str) -> Result<f64, String> {
    if text.trim().is_empty() {
        return Err("type a number".into());
    }
    if text.chars().count() > MAX_LEN {
        return Err(format!("too long (at most {MAX_LEN} characters)"));
    }
    let mut p = Parser {
        chars: text.chars().collect(),
        at: 0,
        depth: 0,
    };
    let v = p.sum()?;
    p.skip_spaces();
    if let Some(c) = p.peek() {
        return Err(p.unexpected(c));
    }
    if v.is_finite() {
        Ok(v)
    } else {
        Err("too large".into())
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// The next non-space character, consumed when it is one of `ops`.
    fn eat(&mut self, ops: &[char]) -> Option<char> {
        self.skip_spaces();
        let c = self.peek().filter(|c| ops.contains(c))?;
        self.at += 1;
        Some(c)
    }

    fn unexpected(&self, c: char) -> String {
        if c.is_alphabetic() {
            let word: String = self.chars[self.at..]
                .iter()
                .take_while(|c| c.is_alphanumeric())
                .collect();
            format!("“{word}” is not a number")
        } else {
            format!("not a number: unexpected “{c}”")
        }
    }

    fn nested(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err("nested too deeply".into())
        } else {
            Ok(())
        }
    }

    /// sum := product (("+" | "-") product)*
    fn sum(&mut self) -> Result<f64, String> {
        let mut v = self.product()?;
        while let Some(op) = self.eat(&['+', '-']) {
            let rhs = self.product()?;
            v = if op == '+' { v + rhs } else { v - rhs };
        }
        Ok(v)
    }

    /// product := unary (("*" | "/") unary)*
    fn product(&mut self) -> Result<f64, String> {
        let mut v = self.unary()?;
        while let Some(op) = self.eat(&['*', '/']) {
            let rhs = self.unary()?;
            if op == '*' {
                v *= rhs;
            } else if rhs == 0.0 {
                return Err("cannot divide by zero".into());
            } else {
                v /= rhs;
            }
        }
        Ok(v)
    }

    /// unary := ("+" | "-") unary | "(" sum ")" | number
    fn unary(&mut self) -> Result<f64, String> {
        if let Some(sign) = self.eat(&['+', '-']) {
            self.nested()?;
            let v = self.unary()?;
            self.depth -= 1;
            return Ok(if sign == '-' { -v } else { v });
        }
        if self.eat(&['(']).is_some() {
            self.nested()?;
            let v = self.sum()?;
            self.depth -= 1;
            if self.eat(&[')']).is_none() {
                return Err(match self.peek() {
                    Some(c) => self.unexpected(c),
                    None => "a “)” is missing".into(),
                });
            }
            return Ok(v);
        }
        self.number()
    }

    /// number := digits ["." digits] | "." digits, then [("e" | "E") [sign] digits]
    fn number(&mut self) -> Result<f64, String> {
        self.skip_spaces();
        let start = self.at;
        let digits = |p: &mut Self| {
            let from = p.at;
            while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.at += 1;
            }
            p.at - from
        };
        let mut mantissa = digits(self);
        if self.peek() == Some('.') {
            self.at += 1;
            mantissa += digits(self);
        }
        if mantissa == 0 {
            return Err(match self.chars.get(start) {
                Some(&c) => {
                    self.at = start;
                    self.unexpected(c)
                }
                None => "a number is missing at the end".into(),
            });
        }
        if matches!(self.peek(), Some('e' | 'E')) {
            self.at += 1;
            if matches!(self.peek(), Some('+' | '-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err("the exponent has no digits (write 1e3, not 1e)".into());
            }
        }
        let text: String = self.chars[start..self.at].iter().collect();
        text.parse::<f64>()
            .map_err(|_| format!("“{text}” is not a number"))
    }
}

/// The value typed in `text` for a field with `limit`, or why it is refused. A unit
/// typed after the number (`0.3 m`, `90°`) is allowed.
pub fn evaluate(text: &str, limit: &Limit) -> Result<f64, String> {
    let unit = limit.unit.trim();
    let text = text.trim();
    let text = match text.strip_suffix(unit) {
        Some(rest) if !unit.is_empty() => rest,
        _ => text,
    };
    let v = parse(text)?;
    limit.check(v)?;
    Ok(v)
}

/// A value as a field shows it: at most six significant digits, no trailing
/// zeros, an exponent only for very large or small numbers.
pub fn format(v: f64, whole: bool) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    if whole && v.abs() < 1e15 {
        return format!("{}", v.round() as i64);
    }
    // Round to six significant digits; f32's shortest form prints the rest.
    let rounded: f64 = format!("{v:.5e}").parse().unwrap_or(v);
    if rounded == 0.0 {
        return "0".into();
    }
    let a = rounded.abs();
    if (1e-4..1e7).contains(&a) {
        // Decimals for six significant digits, then no trailing zeros.
        let decimals = (5 - a.log10().floor() as i32).clamp(0, 10) as usize;
        let s = format!("{rounded:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    } else {
        format!("{:e}", rounded as f32)
    }
}

/// The state of one field between frames.
#[derive(Debug, Clone, Default)]
struct Edit {
    /// What the field holds (what is being typed while it has focus).
    text: String,
    /// The value's text when this edit began: unchanged text commits nothing.
    shown: String,
    /// Why the text was refused; it stays until the text changes.
    error: Option<String>,
    /// The field had the keyboard at the end of the last frame.
    had_focus: bool,
}

impl Edit {
    fn showing(value: &str) -> Self {
        Self {
            text: value.to_owned(),
            shown: value.to_owned(),
            error: None,
            had_focus: false,
        }
    }

    /// The typed value, or `None` with the reason kept.
    fn commit(&mut self, limit: &Limit) -> Option<f64> {
        match evaluate(&self.text, limit) {
            Ok(v) => {
                self.error = None;
                Some(v)
            }
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }
}

/// What a field did this frame.
#[derive(Debug)]
pub struct Field {
    /// The value to apply: Enter pressed or the field left with new, valid text.
    pub committed: Option<f64>,
    /// Why the typed text was refused (shown in red by [`Field::error_ui`]).
    pub error: Option<String>,
    /// The stored value is outside the limit (read from a file, say); it is kept
    /// until changed, and this says why it will not be accepted again.
    pub stored_problem: Option<String>,
    pub id: egui::Id,
    pub response: egui::Response,
}

impl Field {
    /// The refusal, or the stored value's problem, as a line under the field,
    /// labelled with the field's name.
    pub fn error_ui(&self, ui: &mut egui::Ui, name: &str) {
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, format!("{name}: {e}"));
        } else if let Some(p) = &self.stored_problem {
            ui.colored_label(ui.visuals().warn_fg_color, format!("{name}: {p}"));
        }
    }
}

/// What a field of several things shows when their values differ: the
/// inspector puts [`MIXED`] in the fields the selection does not share.
pub const MIXED_TEXT: &str = "—";
/// The value standing for "the selection's values differ" (a field with
/// [`NumberField::mixed`] shows [`MIXED_TEXT`] for it, and for anything not
/// finite that it turned into, such as its conversion to degrees).
pub const MIXED: f32 = f32::MAX;

/// Whether `value` stands for mixed values.
pub fn is_mixed(value: f64) -> bool {
    !value.is_finite() || value.abs() >= f64::from(MIXED)
}

/// A numeric text field for `value` (in the units of `limit`).
#[derive(Debug)]
pub struct NumberField<'a> {
    id: egui::Id,
    value: f64,
    limit: &'a Limit,
    labels: Vec<egui::Id>,
    width: f32,
    /// Shows [`MIXED_TEXT`] for a [`MIXED`] value.
    mixed: bool,
}

impl<'a> NumberField<'a> {
    /// `id` names the field (and keeps its typed text between frames).
    pub fn new(id: egui::Id, value: f64, limit: &'a Limit) -> Self {
        Self {
            id,
            value,
            limit,
            labels: Vec::new(),
            width: 64.0,
            mixed: false,
        }
    }

    /// A field of several things: a [`MIXED`] value shows as [`MIXED_TEXT`] and
    /// commits nothing until a number is typed.
    pub fn mixed(mut self, on: bool) -> Self {
        self.mixed = on;
        self
    }

    /// A visible label that names the field (several read in order: "size", "x").
    pub fn labelled_by(mut self, label: egui::Id) -> Self {
        self.labels.push(label);
        self
    }

    pub fn width(mut self, width: f32) -> Self {
        self.width = width;
        self
    }

    pub fn show(self, ui: &mut egui::Ui) -> Field {
        let Self {
            id,
            value,
            limit,
            labels,
            width,
            mixed,
        } = self;
        let ctx = ui.ctx().clone();
        let shows_mixed = mixed && is_mixed(value);
        let current = if shows_mixed {
            MIXED_TEXT.to_string()
        } else {
            format(value, limit.whole)
        };
        let focused = ctx.memory(|m| m.has_focus(id));
        let mut edit = ctx.data(|d| d.get_temp::<Edit>(id)).unwrap_or_default();
        let had_focus = edit.had_focus;
        // Not being typed in: show the value, unless a refused text waits to be fixed
        // (and the value has not moved on since, by undo say).
        if !had_focus && !focused && (edit.error.is_none() || edit.shown != current) {
            edit = Edit::showing(&current);
        }
        let typed_before = edit.text.clone();
        let mut text_edit = egui::TextEdit::singleline(&mut edit.text)
            .id(id)
            .desired_width(width)
            // Esc reaches the field (to restore the value) instead of only dropping
            // the focus.
            .event_filter(egui::EventFilter {
                horizontal_arrows: true,
                escape: true,
                ..Default::default()
            });
        if edit.error.is_some() {
            text_edit = text_edit.text_color(ui.visuals().error_fg_color);
        }
        let mut response = ui.add(text_edit);
        if shows_mixed {
            response = response
                .on_hover_text("the selected things differ here; a value typed sets it on all");
        }
        for label in &labels {
            response = response.labelled_by(*label);
        }
        // A number field, for assistive technology: a spin button with its value
        // and range, that takes a numeric value as well as text.
        ctx.accesskit_node_builder(id, |node| {
            node.set_role(egui::accesskit::Role::SpinButton);
            if value.is_finite() {
                node.set_numeric_value(value);
            }
            node.set_min_numeric_value(if limit.either_sign {
                -limit.max
            } else {
                limit.min
            });
            node.set_max_numeric_value(limit.max);
        });
        let numeric_request = ui.input(|i| {
            i.accesskit_action_requests(id, egui::accesskit::Action::SetValue)
                .filter_map(|r| match r.data {
                    Some(egui::accesskit::ActionData::NumericValue(v)) => Some(v),
                    _ => None,
                })
                .last()
        });
        let typed = edit.text != typed_before;
        if typed {
            edit.error = None;
        }

        let mut committed = None;
        let has_focus = response.has_focus();
        if focused && ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            // Keep the key from the panels drawn after this one.
            ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape));
            response.surrender_focus();
            edit = Edit::showing(&current);
        } else if let Some(v) = numeric_request {
            edit.text = format(v, false);
            committed = edit.commit(limit);
        } else if !has_focus && (had_focus || typed) {
            // Left (Enter, Tab, a click elsewhere), or the whole text set by
            // assistive technology without focus. Unchanged text commits nothing.
            if edit.text.trim() != edit.shown.trim() {
                committed = edit.commit(limit);
                if edit.error.is_some() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    // Refused on Enter: stay in the field to fix it.
                    response.request_focus();
                }
            }
        }
        if !had_focus && has_focus {
            // Typing replaces the value (or the refused text).
            if let Some(mut state) = egui::text_edit::TextEditState::load(&ctx, id) {
                let all = egui::text::CCursorRange::two(
                    egui::text::CCursor::new(0),
                    egui::text::CCursor::new(edit.text.chars().count()),
                );
                state.cursor.set_char_range(Some(all));
                state.store(&ctx, id);
            }
        }
        edit.had_focus = ctx.memory(|m| m.has_focus(id));
        let stored_problem = (edit.error.is_none() && !edit.had_focus && !shows_mixed)
            .then(|| limit.check_stored(value).err())
            .flatten()
            .map(|reason| format!("the stored value {current} {reason}"));
        let error = edit.error.clone();
        ctx.data_mut(|d| {
            d.insert_temp(id, edit);
            if committed.is_some() {
                d.insert_temp(registry_key(field_id(id)), id);
            }
        });
        Field {
            committed,
            error,
            stored_problem,
            id,
            response,
        }
    }
}

/// Refuses a value the field committed but the command would not take (a rule
/// across fields, such as an arch's thickness against its width): the typed text
/// stays, with `reason` in red.
pub fn reject(ctx: &egui::Context, field: FieldId, reason: String) {
    ctx.data_mut(|d| {
        if let Some(id) = d.get_temp::<egui::Id>(registry_key(field)) {
            let edit = d.get_temp_mut_or_default::<Edit>(id);
            edit.error = Some(reason);
        }
    });
}

/// A field's id as intents carry it (they know nothing of egui).
pub fn field_id(id: egui::Id) -> FieldId {
    FieldId(id.value())
}

/// Where a field that committed leaves its widget id, for [`reject`] to find.
fn registry_key(field: FieldId) -> egui::Id {
    egui::Id::unique(("pebble.number_field.committed", field.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pebble_model::entity::limits;

    #[test]
    fn the_parser_reads_what_people_type() {
        for (text, v) in [
            ("0.3", 0.3),
            (".3", 0.3),
            ("3.", 3.0),
            ("-2", -2.0),
            ("1e3", 1000.0),
            ("2.5E-2", 0.025),
            ("1e+2", 100.0),
            ("2*1.5", 3.0),
            ("(1+2)/4", 0.75),
            (" 1 + 2 * 3 ", 7.0),
            ("10 - 2 - 3", 5.0),
            ("8 / 2 / 2", 2.0),
            ("--2", 2.0),
            ("-(1+1)*3", -6.0),
            ("+4", 4.0),
            ("2*-3", -6.0),
            ("((2))", 2.0),
        ] {
            assert_eq!(parse(text), Ok(v), "{text}");
        }
    }

    #[test]
    fn the_parser_refuses_what_is_not_a_number() {
        for (text, why) in [
            ("1.3.00", "unexpected “.”"),
            ("1e", "exponent"),
            ("2**3", "unexpected “*”"),
            ("", "type a number"),
            ("   ", "type a number"),
            ("nan", "“nan” is not a number"),
            ("NaN", "is not a number"),
            ("inf", "“inf” is not a number"),
            ("-inf", "“inf” is not a number"),
            ("infinity", "is not a number"),
            ("1/0", "divide by zero"),
            ("1/(2-2)", "divide by zero"),
            ("1e400", "too large"),
            ("(1+2", "“)” is missing"),
            ("1+2)", "unexpected “)”"),
            ("1+", "missing"),
            ("2 3", "unexpected “3”"),
            ("0x10", "“x10” is not a number"),
            ("1,5", "unexpected “,”"),
        ] {
            let err = parse(text).expect_err(text);
            assert!(err.contains(why), "{text}: {err}");
        }
        let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        assert!(parse(&deep).is_err());
        assert!(parse(&"-".repeat(100)).is_err());
        assert!(parse(&"1+".repeat(200)).is_err());
    }

    #[test]
    fn a_value_is_checked_against_the_limit() {
        let size = limits::SIZE;
        assert_eq!(evaluate("0.3", &size), Ok(0.3));
        assert_eq!(evaluate("0.3 m", &size), Ok(0.3));
        assert_eq!(evaluate("2*1.5m", &size), Ok(3.0));
        assert_eq!(
            evaluate("-1", &size),
            Err("must be between 0.01 and 500 m".into())
        );
        assert_eq!(
            evaluate("501", &size),
            Err("must be between 0.01 and 500 m".into())
        );
        assert!(evaluate("nan", &size).is_err());
        let sides = pebble_model::Primitive::SIDES;
        assert_eq!(evaluate("12", &sides), Ok(12.0));
        assert_eq!(evaluate("3*4", &sides), Ok(12.0));
        assert!(
            evaluate("12.5", &sides)
                .expect_err("refused")
                .contains("whole number")
        );
        assert!(evaluate("100000", &sides).is_err());
        let scale = limits::SCALE;
        assert!(evaluate("0", &scale).is_err());
        assert!(evaluate("1e30", &scale).is_err());
        assert_eq!(evaluate("-2", &scale), Ok(-2.0));
        let life = limits::PARTICLE_LIFE;
        assert_eq!(evaluate("600", &life), Ok(600.0));
        assert!(evaluate("600.5 s", &life).is_err());
        assert_eq!(evaluate("90°", &limits::ROTATION), Ok(90.0));
    }

    #[test]
    fn values_read_back_as_typed() {
        assert_eq!(format(f64::from(0.3f32), false), "0.3");
        assert_eq!(format(f64::from(0.25f32), false), "0.25");
        assert_eq!(format(3.0, false), "3");
        assert_eq!(format(-2.0, false), "-2");
        assert_eq!(format(f64::from(20.0f32), false), "20");
        assert_eq!(format(0.0005, false), "0.0005");
        assert_eq!(format(0.000_123_456, false), "0.000123456");
        assert_eq!(format(28.647_889_756, false), "28.6479");
        assert_eq!(format(1_234_567.0, false), "1234570");
        assert_eq!(format(100.0, false), "100");
        assert_eq!(format(89.999_999_9, false), "90");
        assert_eq!(format(1e30, false), "1e30");
        assert_eq!(format(1e-6, false), "1e-6");
        assert_eq!(format(0.0, false), "0");
        assert_eq!(format(-0.0, false), "0");
        assert_eq!(format(128.0, true), "128");
        assert_eq!(format(4_294_967_295.0, true), "4294967295");
        assert_eq!(format(f64::NAN, false), "NaN");
        // What a field shows parses back to the value it shows.
        for v in [0.3f32, 12.75, -7.125, 0.0005, 480.0] {
            let shown = format(f64::from(v), false);
            assert_eq!(parse(&shown).map(|x| x as f32), Ok(v), "{shown}");
        }
    }
}
