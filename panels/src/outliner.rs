//! The Outliner: the entity tree with visibility and lock toggles; click to select
//! (Shift adds, Ctrl toggles), drag a row onto another to make it a child (onto
//! the space below the rows to make it a root), and a name filter that lists the
//! matches flat.

use pebble_model::command::{Reparent, SetEntity};
use pebble_model::{Entity, EntityId, Scene};

use pebble_core::intent::Intent;

/// The outliner's rows: each entity and its depth, in tree order.
type Rows = std::sync::Arc<Vec<(EntityId, usize)>>;

/// Rows listed at most (a scene this large is searched, not scrolled).
const MAX_ROWS: usize = 100_000;

#[derive(Debug, Default)]
pub struct OutlinerPanel {
    /// The name filter.
    pub search: String,
    /// The row last clicked without Shift: where a Shift-click's range starts.
    anchor: Option<EntityId>,
    /// The rows, and the scene revision and search text they are of.
    rows_cache: Option<((u64, String), Rows)>,
    /// The prefab instance being edited in place (the app keeps it current).
    pub entered: Option<EntityId>,
    /// The prefabs whose file is missing or does not read (the app keeps it
    /// current): their instances are marked.
    pub broken: Vec<pebble_model::prefab::PrefabId>,
}

/// A row's toggle: what it shows, says and does.
struct Flag {
    name: &'static str,
    hover: &'static str,
    icons: (&'static str, &'static str),
    /// The command's name when the flag turns on, and off.
    commands: (&'static str, &'static str),
    set: fn(&mut Entity, bool),
}

const VISIBLE: Flag = Flag {
    name: "visible",
    hover: "visible: click to hide or show",
    icons: ("👁", "👁"),
    commands: ("Show", "Hide"),
    set: |e, v| e.visible = v,
};

const EXPORTED: Flag = Flag {
    name: "exported",
    hover: "exported: written to the map (off: kept in the editor only; hiding does not leave anything out)",
    icons: ("⬇", "🚫"),
    commands: ("Export", "Leave out of the map"),
    set: |e, v| e.exported = v,
};

const LOCKED: Flag = Flag {
    name: "locked",
    hover: "locked: cannot be picked in the viewport",
    icons: ("🔒", "🔓"),
    commands: ("Lock", "Unlock"),
    set: |e, v| e.locked = v,
};

impl OutlinerPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, scene: &Scene) -> Vec<Intent> {
        ui.add(
            egui::TextEdit::singleline(&mut self.search)
                .hint_text("search by name")
                .desired_width(f32::INFINITY),
        );
        let rows = self.rows(scene);
        let modifiers = ui.input(|i| i.modifiers);
        let mut intents = Vec::new();
        let mut reparent: Option<(EntityId, Option<EntityId>)> = None;
        // Only the rows in view are laid out (a map of thousands of entities
        // costs what a screenful does); every row is one line of buttons.
        let row_height = ui.spacing().interact_size.y.max(
            ui.text_style_height(&egui::TextStyle::Button) + 2.0 * ui.spacing().button_padding.y,
        );
        let count = rows.len();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show_rows(ui, row_height, count, |ui, range| {
                let last = range.end == count;
                for &(id, depth) in &rows[range] {
                    let Some(e) = scene.entity(id) else {
                        continue;
                    };
                    ui.horizontal(|ui| {
                        ui.add_space(depth as f32 * 14.0);
                        intents.extend(flag_ui(ui, e, e.visible, &VISIBLE));
                        intents.extend(flag_ui(ui, e, e.locked, &LOCKED));
                        intents.extend(flag_ui(ui, e, e.exported, &EXPORTED));
                        let selected = scene.selection().contains(&id);
                        let text = row_text(
                            scene,
                            e,
                            self.entered,
                            &self.broken,
                            !self.search.is_empty(),
                        );
                        let row = ui
                            .add(egui::Button::selectable(selected, text))
                            .interact(egui::Sense::drag());
                        // Right-click: the row joins the selection (or becomes it)
                        // and the selection's operations are offered.
                        if row.secondary_clicked() && !scene.selection().contains(&id) {
                            intents.push(Intent::Select(vec![id]));
                        }
                        row.context_menu(|ui| {
                            for action in pebble_core::action::ON_SELECTION {
                                if ui.button(action.menu_text()).clicked() {
                                    intents.push(Intent::Run(action));
                                    ui.close();
                                }
                            }
                            ui.menu_button("Prefab", |ui| {
                                for action in pebble_core::action::PREFABS {
                                    if ui.button(action.menu_text()).clicked() {
                                        intents.push(Intent::Run(action));
                                        ui.close();
                                    }
                                }
                            });
                        });
                        if row.clicked() {
                            let at = |x: EntityId| rows.iter().position(|(r, _)| *r == x);
                            let range = self
                                .anchor
                                .filter(|_| modifiers.shift)
                                .and_then(|a| Some((at(a)?, at(id)?)));
                            let ids = match range {
                                // Shift: the rows from the anchor to this one (with
                                // Ctrl too, added to the selection).
                                Some((a, b)) => {
                                    let mut ids = if modifiers.command {
                                        scene.selection().to_vec()
                                    } else {
                                        Vec::new()
                                    };
                                    for &(r, _) in &rows[a.min(b)..=a.max(b)] {
                                        if !ids.contains(&r) {
                                            ids.push(r);
                                        }
                                    }
                                    ids
                                }
                                None => {
                                    let mut ids = if modifiers.shift || modifiers.command {
                                        scene.selection().to_vec()
                                    } else {
                                        Vec::new()
                                    };
                                    if modifiers.command && ids.contains(&id) {
                                        ids.retain(|i| *i != id);
                                    } else if !ids.contains(&id) {
                                        ids.push(id);
                                    }
                                    self.anchor = Some(id);
                                    ids
                                }
                            };
                            intents.push(Intent::Select(ids));
                        }
                        if row.drag_started() {
                            egui::DragAndDrop::set_payload(ui.ctx(), id);
                        }
                        if let Some(dragged) = row.dnd_hover_payload::<EntityId>()
                            && *dragged != id
                        {
                            ui.painter().rect_stroke(
                                row.rect,
                                2.0,
                                egui::Stroke::new(1.5, egui::Color32::from_rgb(255, 170, 40)),
                                egui::StrokeKind::Outside,
                            );
                        }
                        if let Some(dragged) = row.dnd_release_payload::<EntityId>()
                            && *dragged != id
                        {
                            reparent = Some((*dragged, Some(id)));
                        }
                    });
                }
                if !last {
                    return;
                }
                // The space below the rows: drop here to make a root entity.
                let rest = ui.allocate_response(
                    egui::vec2(ui.available_width(), ui.available_height().max(24.0)),
                    egui::Sense::hover(),
                );
                if let Some(dragged) = rest.dnd_release_payload::<EntityId>() {
                    reparent = Some((*dragged, None));
                }
            });
        if let Some((child, parent)) = reparent
            && scene.entity(child).is_some_and(|e| e.parent != parent)
        {
            intents.push(Intent::Execute(Box::new(Reparent::new(
                vec![child],
                parent,
            ))));
        }
        intents
    }

    /// (id, depth) in tree order, or the matches when searching.
    /// The rows as last worked out, for the scene's revision and the search text:
    /// a still scene of thousands of entities is not walked again every frame.
    fn rows(&mut self, scene: &Scene) -> Rows {
        let key = (scene.revision(), self.search.clone());
        if let Some((k, rows)) = &self.rows_cache
            && *k == key
        {
            return rows.clone();
        }
        let rows = std::sync::Arc::new(self.rows_now(scene));
        self.rows_cache = Some((key, rows.clone()));
        rows
    }

    fn rows_now(&self, scene: &Scene) -> Vec<(EntityId, usize)> {
        let needle = self.search.trim().to_lowercase();
        if !needle.is_empty() {
            return scene
                .entities()
                .filter(|e| e.name.to_lowercase().contains(&needle))
                .map(|e| (e.id, 0))
                .take(MAX_ROWS)
                .collect();
        }
        // Each entity's children in one pass (asking the scene for each row's
        // children would cost rows × entities).
        let mut children: std::collections::HashMap<Option<EntityId>, Vec<EntityId>> =
            std::collections::HashMap::new();
        for e in scene.entities() {
            children.entry(e.parent).or_default().push(e.id);
        }
        let mut out = Vec::new();
        let mut stack: Vec<(EntityId, usize)> = children
            .get(&None)
            .into_iter()
            .flatten()
            .rev()
            .map(|&id| (id, 0))
            .collect();
        while let Some((id, depth)) = stack.pop() {
            out.push((id, depth));
            if out.len() > MAX_ROWS {
                break;
            }
            for &c in children.get(&Some(id)).into_iter().flatten().rev() {
                stack.push((c, depth + 1));
            }
        }
        out
    }
}

/// A row's text: the name and what it is — an instance says its prefab (🔗,
/// "editing" while entered), an entity a copy overrides carries a dot, and in
/// a search an entity inside a copy names the copy first.
fn row_text(
    scene: &Scene,
    e: &pebble_model::Entity,
    entered: Option<EntityId>,
    broken: &[pebble_model::prefab::PrefabId],
    searching: bool,
) -> String {
    if let Some(link) = &e.instance {
        if broken.contains(&link.prefab) {
            let prefab = scene.prefab(link.prefab).map_or("?", |p| p.name.as_str());
            return format!(
                "🔗 {}  (instance of {prefab}: its file is missing or damaged, see Assets)",
                e.name
            );
        }
        let prefab = scene
            .prefab(link.prefab)
            .map_or("a missing prefab", |p| p.name.as_str());
        let how = if entered == Some(e.id) {
            "editing"
        } else {
            "instance of"
        };
        let dot = if link.overrides.is_empty() {
            ""
        } else {
            " •"
        };
        return format!("🔗 {}{dot}  ({how} {prefab})", e.name);
    }
    let Some(owner) = scene.instance_of(e.id).and_then(|i| scene.entity(i)) else {
        return format!("{}  ({})", e.name, e.kind.label());
    };
    // Which copy it is part of: a search lists rows without their parents.
    let overridden = e.source.is_some_and(|s| {
        owner
            .instance
            .as_ref()
            .is_some_and(|l| l.overrides.iter().any(|o| o.source == s.id))
    });
    let dot = if overridden { " •" } else { "" };
    if searching {
        // A search lists rows without their parents: which copy, first.
        format!("{} › {}{dot}  ({})", owner.name, e.name, e.kind.label())
    } else {
        format!("{}{dot}  ({})", e.name, e.kind.label())
    }
}

/// One of a row's toggles: an icon, bright when on and faint when off, announced
/// as a checkbox. Icons rather than checkboxes: a glyph is two triangles where a
/// checkbox's rounded, anti-aliased frame and tick are dozens, and a software GPU
/// pays for every one of them each frame.
fn flag_ui(ui: &mut egui::Ui, entity: &Entity, value: bool, flag: &Flag) -> Option<Intent> {
    let visuals = ui.visuals();
    let (icon_on, icon_off) = flag.icons;
    let text = if value {
        egui::RichText::new(icon_on).color(visuals.strong_text_color())
    } else {
        egui::RichText::new(icon_off).color(visuals.weak_text_color())
    };
    let response = ui
        .add(
            egui::Button::new(text)
                .frame(false)
                .min_size(egui::vec2(18.0, 18.0)),
        )
        .on_hover_text(flag.hover);
    response
        .widget_info(|| egui::WidgetInfo::selected(egui::Role::CheckBox, true, value, flag.name));
    if !response.clicked() {
        return None;
    }
    if flag.name == VISIBLE.name {
        // Hiding is the view's, not an edit: no History step.
        return Some(Intent::SetVisible(vec![entity.id], !value));
    }
    let mut e = entity.clone();
    (flag.set)(&mut e, !value);
    let (on, off) = flag.commands;
    Some(Intent::Execute(Box::new(SetEntity::new(
        if value { off } else { on },
        e,
    ))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use pebble_model::command::{AddEntities, Reparent};
    use pebble_model::{EntityKind, History};

    fn scene_of(names: &[&str]) -> Scene {
        let mut scene = Scene::new();
        let entities = names
            .iter()
            .map(|n| Entity::new(*n, EntityKind::Group))
            .collect();
        History::new(10)
            .execute(
                &mut scene,
                AddEntities::new("Create", entities).without_selecting(),
            )
            .expect("add");
        scene
    }

    type State = (OutlinerPanel, Scene, Vec<Intent>);

    fn harness(scene: Scene) -> Harness<'static, State> {
        Harness::new_ui_state(
            |ui, (panel, scene, intents): &mut State| {
                let got = panel.ui(ui, scene);
                intents.extend(got);
            },
            (OutlinerPanel::default(), scene, Vec::new()),
        )
    }

    #[test]
    fn a_click_asks_to_select_and_the_eye_asks_to_hide_without_changing_the_scene() {
        let mut h = harness(scene_of(&["Crate", "Torch"]));
        h.get_by_label_contains("Torch").click();
        h.run();
        let torch = h
            .state()
            .1
            .entities()
            .find(|e| e.name == "Torch")
            .map(|e| e.id);
        assert!(
            matches!(h.state().2.as_slice(), [Intent::Select(ids)] if ids.as_slice() == [torch.expect("torch")]),
            "{:?}",
            h.state().2
        );
        assert!(
            h.state().1.selection().is_empty(),
            "the panel changes nothing itself"
        );
        h.state_mut().2.clear();
        h.query_all_by_label("visible")
            .next()
            .expect("an eye")
            .click();
        h.run();
        // Hiding is the view's: asked for as such, never an undo step.
        match h.state().2.as_slice() {
            [Intent::SetVisible(ids, false)] => assert_eq!(ids.len(), 1),
            other => panic!("{other:?}"),
        }
    }

    /// Shift-click selects the rows from the one last clicked to this one, in the
    /// outliner's order (not one row more); Ctrl+Shift adds the range.
    #[test]
    fn shift_click_selects_a_range_of_rows() {
        let mut h = harness(scene_of(&["A", "B", "C", "D", "E"]));
        let id = |h: &Harness<'static, State>, name: &str| {
            h.state()
                .1
                .entities()
                .find(|e| e.name == name)
                .map(|e| e.id)
                .expect("there")
        };
        h.get_by_label_contains("B  (").click();
        h.run();
        let asked = |h: &mut Harness<'static, State>| match h.state_mut().2.pop() {
            Some(Intent::Select(ids)) => ids,
            other => panic!("{other:?}"),
        };
        let b = asked(&mut h);
        assert_eq!(b, [id(&h, "B")]);
        h.state_mut().1.select(b);
        h.get_by_label_contains("D  (")
            .click_modifiers(egui::Modifiers::SHIFT);
        h.run();
        let range = asked(&mut h);
        assert_eq!(range, [id(&h, "B"), id(&h, "C"), id(&h, "D")]);
    }

    #[test]
    fn the_filter_lists_only_matching_names() {
        let mut h = harness(scene_of(&["Crate A", "Crate B", "Torch"]));
        h.state_mut().0.search = "crate".into();
        h.run();
        assert_eq!(h.query_all_by_label_contains("Crate").count(), 2);
        assert!(h.query_by_label_contains("Torch").is_none());
    }

    /// Rows as the scene's own per-entity `children` lists give them.
    fn rows_by_children(scene: &Scene) -> Vec<(EntityId, usize)> {
        let mut out = Vec::new();
        let mut stack: Vec<(EntityId, usize)> = scene
            .children(None)
            .into_iter()
            .rev()
            .map(|id| (id, 0))
            .collect();
        while let Some((id, depth)) = stack.pop() {
            out.push((id, depth));
            for c in scene.children(Some(id)).into_iter().rev() {
                stack.push((c, depth + 1));
            }
        }
        out
    }

    #[test]
    fn rows_list_the_tree_parents_first_each_child_under_its_parent() {
        let mut scene = Scene::new();
        let mut history = History::default();
        let entities: Vec<Entity> = (0..6)
            .map(|i| Entity::new(format!("e{i}"), EntityKind::Group))
            .collect();
        history
            .execute(&mut scene, AddEntities::new("Add", entities))
            .expect("add");
        let ids: Vec<EntityId> = scene.entities().map(|e| e.id).collect();
        // e3 under e1, e4 under e3, e5 under e0: depths 0..2, roots e0 e1 e2.
        for (child, parent) in [(3, 1), (4, 3), (5, 0)] {
            history
                .execute(
                    &mut scene,
                    Reparent::new(vec![ids[child]], Some(ids[parent])),
                )
                .expect("reparent");
        }
        let rows = OutlinerPanel::default().rows_now(&scene);
        assert_eq!(rows, rows_by_children(&scene));
        let depth_of = |i: usize| rows.iter().find(|(id, _)| *id == ids[i]).map(|r| r.1);
        assert_eq!(depth_of(4), Some(2));
        assert_eq!(depth_of(5), Some(1));
        assert_eq!(rows.len(), 6);
        let at = |i: usize| rows.iter().position(|(id, _)| *id == ids[i]);
        assert!(at(1) < at(3) && at(3) < at(4), "{rows:?}");
        assert!(at(0) < at(5) && at(5) < at(1), "{rows:?}");
    }
}
