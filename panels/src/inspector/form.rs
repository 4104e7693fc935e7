//! One thing's numeric fields in the inspector: ids, typed fields with their
//! limits and units, and which one committed this frame.

use pebble_model::entity::Limit;
use pebble_model::glam::Vec3;

use crate::number_field::{self, Field, NumberField};

/// The numeric fields of one thing (an entity, a material): their ids, under
/// `base`, and the field that committed this frame, where a command's refusal is
/// shown.
pub(super) struct Form {
    pub(super) base: egui::Id,
    pub(super) committed: Option<pebble_core::intent::FieldId>,
    /// Its name, for the undo step ("Edit radius").
    pub(super) committed_name: String,
    /// The fields are several things' (values they do not share show as mixed).
    pub(super) mixed: bool,
}

/// The unit after a field ("m", "°"), with an optional note.
fn unit_text(limit: &Limit, note: &str) -> String {
    format!("{}{note}", limit.unit.trim())
}

/// That unit as a label, when there is one.
pub(super) fn unit_label(ui: &mut egui::Ui, limit: &Limit, note: &str) {
    let text = unit_text(limit, note);
    if !text.is_empty() {
        ui.label(text);
    }
}

impl Form {
    /// The fields of `what` (entity, primitive, material) number `id`.
    pub(super) fn new(what: &'static str, id: u32) -> Self {
        Self {
            base: egui::Id::unique(("inspector field", what, id)),
            committed: None,
            committed_name: String::new(),
            mixed: false,
        }
    }

    /// The fields of several things at once (see [`number_field::MIXED`]).
    pub(super) fn of_many(what: &'static str, id: u32) -> Self {
        Self {
            mixed: true,
            ..Self::new(what, id)
        }
    }

    /// One field, named by `labels`, keyed by `key`.
    pub(super) fn field(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        value: f64,
        limit: &Limit,
        labels: &[egui::Id],
        width: f32,
    ) -> Field {
        let mut field = NumberField::new(self.base.with(key), value, limit)
            .width(width)
            .mixed(self.mixed);
        for l in labels {
            field = field.labelled_by(*l);
        }
        let f = field.show(ui);
        if f.committed.is_some() {
            self.committed = Some(crate::number_field::field_id(f.id));
            self.committed_name = key.to_owned();
        }
        f
    }

    /// "name [value] unit note", its error under it: the committed value.
    pub(super) fn one(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        shown: f64,
        limit: &Limit,
        note: &str,
    ) -> Option<f64> {
        let f = ui
            .horizontal(|ui| {
                let l = ui.label(name);
                let f = self.field(ui, name, shown, limit, &[l.id], 72.0);
                unit_label(ui, limit, note);
                f
            })
            .inner;
        f.error_ui(ui, name);
        f.committed
    }

    pub(super) fn f32(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        v: &mut f32,
        limit: &Limit,
    ) -> bool {
        self.f32_note(ui, name, v, limit, "")
    }

    pub(super) fn f32_note(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        v: &mut f32,
        limit: &Limit,
        note: &str,
    ) -> bool {
        let committed = self.one(ui, name, f64::from(*v), limit, note);
        committed.map(|x| *v = x as f32).is_some()
    }

    /// An angle stored in radians, typed in degrees (`limit` in degrees).
    pub(super) fn degrees(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        radians: &mut f32,
        limit: &Limit,
        note: &str,
    ) -> bool {
        let committed = self.one(ui, name, f64::from(radians.to_degrees()), limit, note);
        committed
            .map(|x| *radians = (x as f32).to_radians())
            .is_some()
    }

    /// A count (`limit` is whole numbers within the type).
    pub(super) fn whole<T>(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        v: &mut T,
        limit: &Limit,
    ) -> bool
    where
        T: Copy + Into<f64> + TryFrom<u64>,
    {
        let committed = self.one(ui, name, (*v).into(), limit, "");
        match committed.map(|x| T::try_from(x as u64)) {
            Some(Ok(x)) => {
                *v = x;
                true
            }
            Some(Err(_)) => {
                if let Some(id) = self.committed {
                    number_field::reject(ui.ctx(), id, format!("must be {}", limit.range_text()));
                }
                false
            }
            None => false,
        }
    }

    /// Components under a name, each labelled ("size" "x"), errors under them;
    /// the name beside them, on a line of its own above them (three components
    /// do not fit beside it), or already shown before the row ([`RowName`]).
    /// Returns which component committed and its value.
    pub(super) fn row(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        parts: &[(&str, f64)],
        limit: &Limit,
        note: &str,
        placed: RowName,
    ) -> Option<(usize, f64)> {
        let own_line = placed == RowName::Above;
        let header = own_line.then(|| {
            ui.horizontal(|ui| {
                let l = ui.label(name);
                if !note.is_empty() {
                    ui.weak(note);
                }
                l.id
            })
            .inner
        });
        let mut committed = None;
        let fields: Vec<Field> = ui
            .horizontal(|ui| {
                let l = match placed {
                    RowName::Before(shown) => shown,
                    _ => header.unwrap_or_else(|| ui.label(name).id),
                };
                // Share what is left among the fields, after their labels and the
                // unit (measured: "m per repeat" is wider than a unit's usual room).
                let unit = unit_text(limit, if own_line { "" } else { note });
                let unit_width = egui::WidgetText::from(unit.as_str())
                    .into_galley(
                        ui,
                        Some(egui::TextWrapMode::Extend),
                        f32::INFINITY,
                        egui::TextStyle::Body,
                    )
                    .size()
                    .x;
                let spare = ui.available_width()
                    - (unit_width + 16.0).max(40.0)
                    - 22.0 * parts.len() as f32;
                let width = (spare / parts.len() as f32).clamp(36.0, 80.0);
                let fields = parts
                    .iter()
                    .enumerate()
                    .map(|(k, (part, value))| {
                        let p = ui.label(*part);
                        let key = format!("{name} {part}");
                        let f = self.field(ui, &key, *value, limit, &[l, p.id], width);
                        if let Some(v) = f.committed {
                            committed = Some((k, v));
                        }
                        f
                    })
                    .collect();
                unit_label(ui, limit, if own_line { "" } else { note });
                fields
            })
            .inner;
        for (f, (part, _)) in fields.iter().zip(parts) {
            f.error_ui(ui, &format!("{name} {part}"));
        }
        committed
    }

    pub(super) fn vec3(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        v: &mut Vec3,
        limit: &Limit,
    ) -> bool {
        self.vec3_note(ui, name, v, limit, "")
    }

    pub(super) fn vec3_note(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        v: &mut Vec3,
        limit: &Limit,
        note: &str,
    ) -> bool {
        let parts = [("x", v.x), ("y", v.y), ("z", v.z)].map(|(p, c)| (p, f64::from(c)));
        match self.row(ui, name, &parts, limit, note, RowName::Above) {
            Some((k, x)) => {
                v[k] = x as f32;
                true
            }
            None => false,
        }
    }

    /// A min..max pair (angles stored in radians when `degrees`).
    pub(super) fn pair(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        pair: &mut [f32; 2],
        limit: &Limit,
        degrees: bool,
    ) -> bool {
        let shown = |v: f32| f64::from(if degrees { v.to_degrees() } else { v });
        let parts = [("min", shown(pair[0])), ("max", shown(pair[1]))];
        match self.row(ui, name, &parts, limit, "", RowName::Beside) {
            Some((k, x)) => {
                let x = x as f32;
                pair[k] = if degrees { x.to_radians() } else { x };
                true
            }
            None => false,
        }
    }
}

/// Where a row's name goes ([`Form::row`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RowName {
    /// Beside its components.
    Beside,
    /// On a line of its own above them.
    Above,
    /// Shown before the row already, by this label (a field's name in a form of
    /// fields): its components only, labelled by it for the tests and screen
    /// readers.
    Before(egui::Id),
}
