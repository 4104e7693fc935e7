//! The inspector's form for game entities, generated from their kind's definition
//! (`entities.ron`): one typed editor per field — numbers with their range, step
//! and unit, a checkbox, text, a list of an enum's values, a box per flag, a
//! colour, a position, an asset picked from the project's files, a link to an
//! entity of the allowed kinds, and lists of these. A value at its default says
//! so, and a set one has a reset. With several entities of one kind selected, an
//! edit sets the field on all of them: one undo step ([`SetFieldValues`]).

use pebble_model::command::SetFieldValues;
use pebble_model::definitions::{Definitions, Display, FieldDef, FieldType, FieldValue, KindDef};
use pebble_model::entity::{DefinedEntity, EntityKind, Limit, limits};
use pebble_model::glam::Vec3;
use pebble_model::{EditKey, Entity, EntityId, Scene};

use super::form::{Form, RowName};
use super::panel::InspectorPanel;

/// A change a field's editor asks for: a new value, or back to the default.
enum Change {
    Set(FieldValue),
    Reset,
}

/// The values one field has on the selected entities.
struct Shown<'a> {
    /// The value shown: the first entity's (its default when unset).
    value: FieldValue,
    /// Some entity holds a value of its own (a reset would change something).
    set: bool,
    /// The entities do not all show the same value.
    mixed: bool,
    field: &'a FieldDef,
}

fn shown<'a>(field: &'a FieldDef, instances: &[&DefinedEntity]) -> Shown<'a> {
    let effective = |d: &DefinedEntity| {
        d.values
            .get(&field.name)
            .filter(|v| field.fits(v))
            .cloned()
            .unwrap_or_else(|| field.default.clone())
    };
    let value = instances
        .first()
        .map_or_else(|| field.default.clone(), |d| effective(d));
    Shown {
        mixed: instances.iter().any(|d| effective(d) != value),
        set: instances.iter().any(|d| d.values.contains_key(&field.name)),
        value,
        field,
    }
}

/// The `k`-th field's edit key (a colour dragged on these entities merges).
fn edit_key(first: EntityId, k: usize) -> EditKey {
    EditKey::Entity {
        id: first.0,
        field: 10_000 + k as u32,
    }
}

impl InspectorPanel {
    /// The form of `entities` (one or more, all game entities of one kind).
    pub(super) fn defined_ui(&mut self, ui: &mut egui::Ui, scene: &Scene, entities: &[&Entity]) {
        let instances: Vec<&DefinedEntity> = entities
            .iter()
            .filter_map(|e| match &e.kind {
                EntityKind::Defined(d) => Some(d),
                _ => None,
            })
            .collect();
        let Some(first) = instances.first() else {
            return;
        };
        if instances.iter().any(|d| d.kind != first.kind) {
            ui.weak("game entities of different kinds: select one kind to edit them together");
            return;
        }
        let kinds = self.kinds.clone();
        let Some(kind) = kinds.kind(&first.kind) else {
            unknown_ui(ui, first);
            return;
        };
        ui.horizontal(|ui| {
            let [r, g, b] = kind.rgb().map(|c| (c * 255.0) as u8);
            let title = match &kind.icon {
                Some(icon) => format!("{icon}  {}", kind.title),
                None => kind.title.clone(),
            };
            ui.label(
                egui::RichText::new(title)
                    .strong()
                    .color(egui::Color32::from_rgb(r, g, b)),
            );
            if entities.len() > 1 {
                ui.weak(format!("× {} (an edit sets it on all)", entities.len()));
            }
        });
        if !kind.doc.is_empty() {
            ui.weak(&kind.doc);
        }
        let ids: Vec<EntityId> = entities.iter().map(|e| e.id).collect();
        let mut form = if ids.len() > 1 {
            Form::of_many("game entity", ids[0].0)
        } else {
            Form::new("game entity", ids[0].0)
        };
        for (k, field) in kind.fields.iter().enumerate() {
            if field.display == Display::Hidden {
                continue;
            }
            let shown = shown(field, &instances);
            form.mixed = shown.mixed;
            let change = field_row(ui, &mut form, scene, &kinds, kind, &shown, self);
            if let Some((_, why)) = self.refusal.as_ref().filter(|(f, _)| *f == field.name) {
                ui.colored_label(ui.visuals().error_fg_color, why);
            }
            match change {
                Some(Change::Set(v)) => {
                    if let Err(why) = field.check(&kinds, &v) {
                        match form.committed {
                            Some(id) => crate::number_field::reject(ui.ctx(), id, why),
                            None => self.refusal = Some((field.name.clone(), why)),
                        }
                        continue;
                    }
                    self.refusal = None;
                    let name = self.step_name(field, entities);
                    let command = SetFieldValues::new(name, ids.clone(), &field.name, Some(v));
                    if field.ty == FieldType::Colour && !field.array {
                        // A colour is dragged: one step from the first value to the last.
                        self.continue_edit(Box::new(command), edit_key(ids[0], k));
                    } else {
                        self.commit(&form, command);
                    }
                }
                Some(Change::Reset) => {
                    let name = format!("Reset {}", self.step_name(field, entities));
                    self.commit(
                        &form,
                        SetFieldValues::new(name, ids.clone(), &field.name, None),
                    );
                }
                None => {}
            }
        }
        // Values whose field left the definitions: kept, shown, never dropped.
        for d in &instances {
            for (name, v) in &d.values {
                if kind.field(name).is_none() {
                    ui.weak(format!(
                        "{name} = {} (no longer a field of {}; kept)",
                        v.describe(),
                        kind.name
                    ));
                }
            }
        }
    }

    fn step_name(&self, field: &FieldDef, entities: &[&Entity]) -> String {
        match entities {
            [one] => format!("Edit {}: {}", field.name, one.name),
            many => format!("Edit {} on {} entities", field.name, many.len()),
        }
    }
}

fn unknown_ui(ui: &mut egui::Ui, d: &DefinedEntity) {
    ui.colored_label(
        egui::Color32::from_rgb(255, 120, 255),
        format!(
            "unknown kind {}: entities.ron no longer defines it. Its values are kept \
             (and come back with the kind); the export leaves it out.",
            d.kind
        ),
    );
    for (name, v) in &d.values {
        ui.weak(format!("{name} = {}", v.describe()));
    }
}

/// A field's name with its doc and type as the tooltip.
fn name_label(ui: &mut egui::Ui, field: &FieldDef) -> egui::Response {
    let mut tip = format!(
        "{}{}",
        field.ty.word(),
        if field.array { " list" } else { "" }
    );
    if let (Some(lo), Some(hi)) = (field.min, field.max) {
        tip += &format!(", {lo} to {hi}");
    }
    if let Some(u) = &field.unit {
        tip += &format!(" {u}");
    }
    if let Some(g) = &field.group {
        tip += &format!(" (from {g})");
    }
    if !field.doc.is_empty() {
        tip = format!("{}\n{tip}", field.doc);
    }
    ui.label(&field.name).on_hover_text(tip)
}

/// One field's row: its name, its editor, and "default" or a reset.
fn field_row(
    ui: &mut egui::Ui,
    form: &mut Form,
    scene: &Scene,
    kinds: &Definitions,
    kind: &KindDef,
    shown: &Shown<'_>,
    panel: &mut InspectorPanel,
) -> Option<Change> {
    let field = shown.field;
    let mut change = None;
    if field.array {
        let header = ui.horizontal(|ui| {
            name_label(ui, field);
            state_ui(ui, shown)
        });
        change = header.inner;
        ui.indent((kind.name.as_str(), field.name.as_str()), |ui| {
            if let Some(c) = list_ui(ui, form, scene, kinds, shown, panel) {
                change = Some(c);
            }
        });
        return change;
    }
    ui.horizontal(|ui| {
        let label = name_label(ui, field);
        if let Some(v) = one_ui(
            ui,
            form,
            scene,
            kinds,
            field,
            &shown.value,
            label.id,
            panel,
            "",
        ) {
            change = Some(Change::Set(v));
        }
        if let Some(c) = state_ui(ui, shown) {
            change = Some(c);
        }
    });
    change
}

/// "default" in italics, or a reset button when some entity holds its own value.
fn state_ui(ui: &mut egui::Ui, shown: &Shown<'_>) -> Option<Change> {
    if shown.set {
        let reset = ui.small_button("↺").on_hover_text(format!(
            "back to the default: {}",
            shown.field.default.describe()
        ));
        reset.clicked().then_some(Change::Reset)
    } else {
        ui.label(egui::RichText::new("default").italics().weak());
        None
    }
}

/// A number's limit from the field's range (the unit is written after it).
fn limit_of(field: &FieldDef) -> Limit {
    let (lo, hi) = field.bounds();
    if field.ty == FieldType::Int {
        Limit::whole(lo, hi, "")
    } else {
        Limit::new(lo, hi, "")
    }
}

/// An editor for one value (a field's, or an element of its list); the new
/// value when it changed.
#[allow(clippy::too_many_arguments)]
fn one_ui(
    ui: &mut egui::Ui,
    form: &mut Form,
    scene: &Scene,
    kinds: &Definitions,
    field: &FieldDef,
    value: &FieldValue,
    label: egui::Id,
    panel: &mut InspectorPanel,
    key: &str,
) -> Option<FieldValue> {
    let key = format!("{}{key}", field.name);
    match (&field.ty, value) {
        (FieldType::Int | FieldType::Float, _) => {
            let x = match value {
                FieldValue::Int(i) => f64::from(*i),
                FieldValue::Float(f) => f64::from(*f),
                _ => 0.0,
            };
            let f = form.field(ui, &key, x, &limit_of(field), &[label], 72.0);
            if let Some(u) = &field.unit {
                ui.label(u);
            }
            f.error_ui(ui, &field.name);
            f.committed.map(|x| match field.ty {
                FieldType::Int => FieldValue::Int(x.round() as i32),
                _ => FieldValue::Float(x as f32),
            })
        }
        (FieldType::Bool, FieldValue::Bool(b)) => {
            let mut on = *b;
            ui.checkbox(&mut on, "")
                .labelled_by(label)
                .changed()
                .then_some(FieldValue::Bool(on))
        }
        (FieldType::String | FieldType::Asset, FieldValue::Text(s)) => {
            let picked = if field.ty == FieldType::Asset {
                asset_menu(ui, field, s, &panel.files, &key)
            } else {
                None
            };
            text_ui(ui, panel, &key, s, label)
                .or(picked)
                .map(FieldValue::Text)
        }
        (FieldType::Enum(_), FieldValue::Enum(current)) => {
            let mut chosen = None;
            let shown = if form.mixed { "—" } else { current.as_str() };
            egui::ComboBox::from_id_salt(form.base.with(&key))
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    for v in kinds.names_of(&field.ty) {
                        if ui.selectable_label(v == current, v).clicked() && v != current {
                            chosen = Some(FieldValue::Enum(v.clone()));
                        }
                    }
                })
                .response
                .labelled_by(label);
            chosen
        }
        (FieldType::Flags(_), FieldValue::Flags(set)) => {
            let mut next = None;
            ui.vertical(|ui| {
                for bit in kinds.names_of(&field.ty) {
                    let mut on = set.contains(bit);
                    if ui.checkbox(&mut on, bit).changed() {
                        // In the definitions' order, whatever the clicks' order.
                        let names = kinds.names_of(&field.ty);
                        next = Some(FieldValue::Flags(
                            names
                                .iter()
                                .filter(|n| if *n == bit { on } else { set.contains(n) })
                                .cloned()
                                .collect(),
                        ));
                    }
                }
            });
            next
        }
        (FieldType::Colour, FieldValue::Colour(c)) => {
            let mut rgba = c.to_le_bytes();
            ui.color_edit_button_srgba_unmultiplied(&mut rgba)
                .changed()
                .then(|| FieldValue::Colour(u32::from_le_bytes(rgba)))
        }
        (FieldType::Point, FieldValue::Point(p)) => {
            let parts = [
                ("x", f64::from(p.x)),
                ("y", f64::from(p.y)),
                ("z", f64::from(p.z)),
            ];
            // A point's own range (a size's), else a position's.
            let limit = if field.min.is_some() || field.max.is_some() {
                let (lo, hi) = field.bounds();
                // Limits name their unit statically; metres are the one points use.
                let metres = field.unit.as_deref() == Some("m");
                Limit::new(lo, hi, if metres { " m" } else { "" })
            } else {
                limits::POSITION
            };
            form.row(ui, &key, &parts, &limit, "", RowName::Before(label))
                .map(|(k, x)| {
                    let mut q = *p;
                    q[k] = x as f32;
                    FieldValue::Point(q)
                })
        }
        (FieldType::Entity, FieldValue::Entity(target)) => {
            link_ui(ui, form, scene, kinds, field, *target, (&key, label))
        }
        _ => {
            ui.weak(format!(
                "holds {} (not a {})",
                value.describe(),
                field.ty.word()
            ));
            None
        }
    }
}

/// A text field, committed when it is left (one undo step, not one per key).
fn text_ui(
    ui: &mut egui::Ui,
    panel: &mut InspectorPanel,
    key: &str,
    current: &str,
    label: egui::Id,
) -> Option<String> {
    let editing = panel
        .text_edit
        .as_ref()
        .filter(|(k, _)| k == key)
        .map(|(_, t)| t.clone());
    let mut text = editing.clone().unwrap_or_else(|| current.to_owned());
    let response = ui
        .add(egui::TextEdit::singleline(&mut text).desired_width(140.0))
        .labelled_by(label);
    if response.changed() || response.has_focus() {
        panel.text_edit = Some((key.to_owned(), text.clone()));
    }
    if response.lost_focus() {
        panel.text_edit = None;
        return (text != current).then_some(text);
    }
    None
}

/// The project's files an asset field takes, to pick one.
fn asset_menu(
    ui: &mut egui::Ui,
    field: &FieldDef,
    current: &str,
    files: &[String],
    key: &str,
) -> Option<String> {
    let fits = |f: &String| {
        field.extensions.is_empty()
            || f.rsplit_once('.')
                .is_some_and(|(_, e)| field.extensions.contains(&e.to_ascii_lowercase()))
    };
    let mut chosen = None;
    ui.menu_button("…", |ui| {
        let mut any = false;
        for f in files.iter().filter(|f| fits(f)) {
            any = true;
            if ui.selectable_label(f == current, f).clicked() {
                chosen = Some(f.clone());
                ui.close();
            }
        }
        if !any {
            let what = if field.extensions.is_empty() {
                "files".to_owned()
            } else {
                format!(".{} files", field.extensions.join(", ."))
            };
            ui.weak(format!("no {what} in the project"));
        }
    })
    .response
    .on_hover_text(format!("pick one of the project's files ({key})"));
    chosen
}

/// A link: "(none)", or one of the entities of the kinds the field takes, named
/// by their labels.
fn link_ui(
    ui: &mut egui::Ui,
    form: &Form,
    scene: &Scene,
    kinds: &Definitions,
    field: &FieldDef,
    target: Option<EntityId>,
    (key, label): (&str, egui::Id),
) -> Option<FieldValue> {
    let name_of = |id: EntityId| match scene.entity(id) {
        Some(e) => match &e.kind {
            EntityKind::Defined(d) => kinds.label(d, &e.name),
            _ => e.name.clone(),
        },
        None => format!("{id} (gone)"),
    };
    let selected = if form.mixed {
        "—".to_owned()
    } else {
        target.map_or_else(|| "(none)".to_owned(), name_of)
    };
    let mut chosen = None;
    egui::ComboBox::from_id_salt(form.base.with(key))
        .selected_text(selected)
        .show_ui(ui, |ui| {
            if ui.selectable_label(target.is_none(), "(none)").clicked() && target.is_some() {
                chosen = Some(FieldValue::Entity(None));
            }
            for e in scene.entities() {
                let EntityKind::Defined(d) = &e.kind else {
                    continue;
                };
                if !field.kinds.is_empty() && !field.kinds.contains(&d.kind) {
                    continue;
                }
                let on = target == Some(e.id);
                if ui
                    .selectable_label(on, format!("{} ({})", kinds.label(d, &e.name), d.kind))
                    .clicked()
                    && !on
                {
                    chosen = Some(FieldValue::Entity(Some(e.id)));
                }
            }
        })
        .response
        .labelled_by(label);
    chosen
}

/// A list field: each element's editor with a remove button, and an add button.
fn list_ui(
    ui: &mut egui::Ui,
    form: &mut Form,
    scene: &Scene,
    kinds: &Definitions,
    shown: &Shown<'_>,
    panel: &mut InspectorPanel,
) -> Option<Change> {
    let field = shown.field;
    let FieldValue::Array(items) = &shown.value else {
        return None;
    };
    let mut next: Option<Vec<FieldValue>> = None;
    for (k, item) in items.iter().enumerate() {
        ui.horizontal(|ui| {
            let l = ui.label(format!("{k}"));
            if let Some(v) = one_ui(
                ui,
                form,
                scene,
                kinds,
                field,
                item,
                l.id,
                panel,
                &format!("[{k}]"),
            ) {
                let mut all = items.clone();
                all[k] = v;
                next = Some(all);
            }
            if ui
                .small_button("×")
                .on_hover_text(format!("remove {} {k}", field.name))
                .clicked()
            {
                let mut all = items.clone();
                all.remove(k);
                next = Some(all);
            }
        });
    }
    let full = items.len() >= field.max_items;
    let add = ui.add_enabled(
        !full,
        egui::Button::new(format!("+ add to {}", field.name).as_str()).small(),
    );
    if add.clicked() {
        let mut all = items.clone();
        let zero = pebble_model::definitions::value::zero(
            &field.ty,
            kinds.names_of(&field.ty),
            field.bounds(),
        );
        let item = match (items.last(), zero) {
            // A new point a metre on from the last, so that the path shows it.
            (Some(FieldValue::Point(p)), FieldValue::Point(_)) => FieldValue::Point(*p + Vec3::X),
            (Some(last), _) if !matches!(last, FieldValue::Entity(_)) => last.clone(),
            (_, zero) => zero,
        };
        all.push(item);
        next = Some(all);
    }
    next.map(|all| Change::Set(FieldValue::Array(all)))
}
