//! The editor fuzzed through the entry points the window uses: the action table
//! (every action but those that leave the app: file dialogs, deploy, PPSSPP,
//! quit), the Create menu's items, pointer clicks (with Shift or Ctrl) and drags
//! in the viewport (some cancelled with Esc half-way), face mode's picks and the
//! UV panel's drags, play mode in and out, the project's own kinds (game entities
//! placed, edited one to three at a time, linked, reset and deleted as the
//! Create menu and the inspector do it), and saving and opening the project
//! again, on the real app (egui_kittest, the real renderer on lavapipe), from a
//! seed. Inputs come as the window delivers them, several to a frame when they
//! come quickly. After each stretch between two reopenings, and at the end:
//!
//! - nothing panicked (the harness would have);
//! - undoing every step gives back the stretch's starting scene exactly (the
//!   saved bytes);
//! - redoing every step gives back its final scene;
//! - saving and opening again gives the same scene;
//! - the export either succeeds and the map validates strictly, or refuses with
//!   a message naming an entity.
//!
//! A short run is in the normal suite (a few seeds, on the showcase and on an
//! empty project). The ignored long run (CI runs it) lasts at least
//! `PEBBLE_FUZZ_SECONDS` (ten minutes) and at least `PEBBLE_FUZZ_STEPS` steps
//! (100 000), whichever ends later, and never past three times the seconds. A
//! failure prints its seed, its steps and, for a failed redo, the first history
//! step whose redo went wrong; `PEBBLE_FUZZ_TRACE=1` (the scene saved after every
//! step) also names the fuzzer's step that left it. Each seed that found something is kept
//! in `REGRESSIONS` once fixed (`PEBBLE_FUZZ_FIRST_SEED` starts a long run at
//! another seed).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use eframe::egui;
use egui_kittest::Harness;
use pebble_core::action::{self, Action, UvAction};
use pebble_core::create::CreateItem;
use pebble_core::intent::Intent;
use pebble_core::services::showcase::showcase_path;
use pebble_editor::app::PebbleApp;
use pebble_model::command::SetFieldValues;
use pebble_model::definitions::{Definitions, FieldDef, FieldType, FieldValue};
use pebble_model::entity::EntityKind;
use pebble_model::glam::Vec3;
use pebble_model::{EntityId, Scene, project};
use pebble_panels::Pane;

/// Seeds that once found something, with the steps they took, run every time.
const REGRESSIONS: &[(u64, usize)] = &[
    // Redo of a UV edit gave UVs one rounding away from the first time (issue 36's
    // long run).
    (1157, 300),
    // A copy placed with the mouse (Duplicate, then its moves merged into it),
    // with the texture lock off: its redo dropped the UVs the moves left.
    (1038, 300),
];

/// A small deterministic generator (an LCG).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn unit(&mut self) -> f32 {
        (self.next() % 10_000) as f32 / 10_000.0
    }
}

/// Actions the fuzzer leaves out: they open files or programs, or end the app.
fn leaves_the_app(a: Action) -> bool {
    matches!(
        a,
        Action::New
            | Action::Open
            | Action::Save
            | Action::SaveAs
            | Action::Import
            | Action::Export
            | Action::Quit
            | Action::ExportAndDeploy
            | Action::PlayInPpsspp
            | Action::CompareCapture
    )
}

const CREATE: [CreateItem; 9] = [
    CreateItem::Box,
    CreateItem::Plane,
    CreateItem::Stairs,
    CreateItem::Ramp,
    CreateItem::Cylinder,
    CreateItem::Builtin("PlayerSpawn"),
    CreateItem::Builtin("SoundSource"),
    CreateItem::Builtin("Patrol"),
    CreateItem::Builtin("Trigger"),
];

/// The project as saved: the scene's bytes (selection and view are not in them),
/// less the id allocator's counters: ids are never handed out twice, even after
/// an undo (a redo makes the same ids again), so the counters only grow; and
/// less what is hidden, a view setting outside the History as the selection is.
fn bytes(scene: &Scene, scratch: &Path) -> Vec<u8> {
    let path = scratch.join("state.pebble.ron");
    project::save(&path, scene).expect("saves");
    let text = std::fs::read_to_string(&path).expect("reads");
    let mut out = String::new();
    let mut in_ids = false;
    for line in text.lines() {
        if line == "  ids: (" {
            in_ids = true;
        } else if in_ids && line == "  )," {
            in_ids = false;
        } else if !in_ids && !line.trim_start().starts_with("visible:") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.into_bytes()
}

fn run_action(harness: &mut Harness<'static, PebbleApp>, a: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().run_action(&ctx, a);
    harness.run_steps(1);
}

/// A button press or release at `at`, with `modifiers` held, as the window
/// sends it (the pointer moves there first).
fn button(
    harness: &mut Harness<'static, PebbleApp>,
    at: egui::Pos2,
    pressed: bool,
    modifiers: egui::Modifiers,
) {
    harness.event(egui::Event::PointerMoved(at));
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers,
    });
}

/// A click: the move and the press in one frame, the release in the same frame
/// (a quick click while a frame takes long, as on a software rasterizer) or in
/// the next.
fn click(
    harness: &mut Harness<'static, PebbleApp>,
    at: egui::Pos2,
    modifiers: egui::Modifiers,
    quick: bool,
) {
    button(harness, at, true, modifiers);
    if !quick {
        harness.run_steps(1);
    }
    button(harness, at, false, modifiers);
    harness.run_steps(1);
}

/// A left drag from `a` to `b`: the press, a move half-way (then Esc when
/// `escape`), the last move with the release, a frame each.
fn drag(
    harness: &mut Harness<'static, PebbleApp>,
    a: egui::Pos2,
    b: egui::Pos2,
    escape: bool,
    modifiers: egui::Modifiers,
) {
    button(harness, a, true, modifiers);
    harness.run_steps(1);
    harness.event(egui::Event::PointerMoved(a + (b - a) * 0.5));
    if escape {
        harness.key_press(egui::Key::Escape);
    }
    harness.run_steps(1);
    harness.event(egui::Event::PointerMoved(b));
    button(harness, b, false, modifiers);
    harness.run_steps(1);
}

/// A point in `rect`, 10 points in from its sides.
fn point_in(rng: &mut Rng, rect: egui::Rect) -> egui::Pos2 {
    let (x, y) = (rng.unit(), rng.unit());
    egui::pos2(
        rect.min.x + 10.0 + x * (rect.width() - 20.0).max(1.0),
        rect.min.y + 10.0 + y * (rect.height() - 20.0).max(1.0),
    )
}

fn modifiers(rng: &mut Rng) -> egui::Modifiers {
    match rng.below(6) {
        0 => egui::Modifiers::SHIFT,
        1 => egui::Modifiers::COMMAND,
        _ => egui::Modifiers::NONE,
    }
}

/// One step: an action (sometimes two in one frame), a Create item, a click or a
/// drag in the viewport, a face-mode edit, a UV panel drag, or play mode in and
/// out.
fn step(harness: &mut Harness<'static, PebbleApp>, rng: &mut Rng, actions: &[Action]) -> String {
    let (_, rect) = harness.state().view();
    let (a, b) = (point_in(rng, rect), point_in(rng, rect));
    match rng.below(24) {
        0..=8 => {
            let first = actions[rng.below(actions.len())];
            let ctx = harness.ctx.clone();
            harness.state_mut().run_action(&ctx, first);
            // Two shortcuts in one frame, now and then.
            let second = (rng.below(4) == 0).then(|| actions[rng.below(actions.len())]);
            if let Some(second) = second {
                harness.state_mut().run_action(&ctx, second);
            }
            harness.run_steps(1);
            match second {
                Some(second) => format!("{first:?} + {second:?}"),
                None => format!("{first:?}"),
            }
        }
        9 | 10 => {
            let item = CREATE[rng.below(CREATE.len())];
            harness.state_mut().start_create(item);
            harness.run_steps(1);
            format!("create {item:?}")
        }
        11..=13 => {
            let (m, quick) = (modifiers(rng), rng.below(2) == 0);
            click(harness, a, m, quick);
            format!("click {a:?} {m:?}{}", if quick { " (quick)" } else { "" })
        }
        14..=16 => {
            let (escape, m) = (rng.below(3) == 0, modifiers(rng));
            drag(harness, a, b, escape, m);
            format!(
                "drag {a:?} → {b:?} {m:?}{}",
                if escape { " (Esc)" } else { "" }
            )
        }
        17 => {
            // Face mode: faces picked by a click (Shift adds), then a face edit.
            if !harness.state().viewport.tools.face_mode() {
                run_action(harness, Action::FaceMode);
            }
            let m = modifiers(rng);
            click(harness, a, m, false);
            let edit = match rng.below(3) {
                0 => Action::Uv(UvAction::ALL[rng.below(UvAction::ALL.len())]),
                1 => Action::ShowPanel(Pane::Uv),
                _ => actions[rng.below(actions.len())],
            };
            run_action(harness, edit);
            format!("face pick {a:?} {m:?}, then {edit:?}")
        }
        18 => {
            // A drag in the UV panel over the picked faces: inside them (move), or
            // anywhere (a corner scales, the handle turns), Esc half-way sometimes.
            let Some(frame) = harness.state().panels.uv_dock.frame_rect() else {
                run_action(harness, Action::ShowPanel(Pane::Uv));
                return "show the UV panel".into();
            };
            let from = if rng.below(2) == 0 {
                frame.center()
            } else {
                point_in(rng, frame.expand(12.0))
            };
            let to = from + egui::vec2(rng.unit() * 80.0 - 40.0, rng.unit() * 80.0 - 40.0);
            let (escape, m) = (rng.below(3) == 0, modifiers(rng));
            drag(harness, from, to, escape, m);
            format!(
                "UV drag {from:?} → {to:?} {m:?}{}",
                if escape { " (Esc)" } else { "" }
            )
        }
        19 | 20 => game_entity_step(harness, rng, a),
        21 | 22 => prefab_step(harness, rng),
        _ => {
            // Play mode: in, a few steps of walking and looking, out by Esc or
            // by Play again.
            run_action(harness, Action::Play);
            harness.event(egui::Event::Key {
                key: egui::Key::W,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers: egui::Modifiers::NONE,
            });
            harness.event(egui::Event::PointerMoved(a));
            harness.run_steps(2);
            harness.event(egui::Event::Key {
                key: egui::Key::W,
                physical_key: None,
                pressed: false,
                repeat: false,
                modifiers: egui::Modifiers::NONE,
            });
            let by_escape = rng.below(2) == 0;
            if by_escape {
                harness.key_press(egui::Key::Escape);
                harness.run_steps(1);
            } else {
                run_action(harness, Action::Play);
            }
            format!("play in and out{}", if by_escape { " (Esc)" } else { "" })
        }
    }
}

/// A value for `field` as the inspector would hand it (now and then one out of
/// its range, or an enum value the definitions do not hold: the model keeps what
/// it is given, the export clamps it, the Problems panel names it).
fn field_value(
    rng: &mut Rng,
    defs: &Definitions,
    field: &FieldDef,
    entities: &[EntityId],
) -> FieldValue {
    let one = |rng: &mut Rng| {
        let (lo, hi) = field.bounds();
        let (lo, hi) = (lo.max(-1000.0), hi.min(1000.0));
        let x =
            lo + (hi - lo) * f64::from(rng.unit()) + if rng.below(10) == 0 { 5000.0 } else { 0.0 };
        let names = defs.names_of(&field.ty);
        match field.ty {
            FieldType::Int => FieldValue::Int(x.round() as i32),
            FieldType::Float => FieldValue::Float(x as f32),
            FieldType::Bool => FieldValue::Bool(rng.below(2) == 0),
            FieldType::String | FieldType::Asset => {
                FieldValue::Text(format!("v{}", rng.below(100)))
            }
            FieldType::Enum(_) => FieldValue::Enum(
                names
                    .get(rng.below(names.len() + 1))
                    .cloned()
                    .unwrap_or_else(|| "Nope".into()),
            ),
            FieldType::Flags(_) => FieldValue::Flags(
                names
                    .iter()
                    .filter(|_| rng.below(2) == 0)
                    .cloned()
                    .collect(),
            ),
            FieldType::Colour => FieldValue::Colour(rng.next() as u32),
            FieldType::Point => FieldValue::Point(Vec3::new(
                rng.unit() * 20.0 - 10.0,
                rng.unit() * 3.0,
                rng.unit() * 20.0 - 10.0,
            )),
            FieldType::Entity => FieldValue::Entity(
                (rng.below(4) > 0)
                    .then(|| entities.get(rng.below(entities.len())).copied())
                    .flatten(),
            ),
        }
    };
    if field.array {
        let n = rng.below(4);
        FieldValue::Array((0..n).map(|_| one(rng)).collect())
    } else {
        one(rng)
    }
}

/// Prefabs through the window's doors (making one, a linked copy, entering,
/// applying, reverting and unlinking come through the action table): a prefab
/// placed from the Assets panel, something inside a copy renamed or moved as
/// the inspector commits it (an override, or a change of the prefab in the
/// copy entered), a copy or something in one selected and entered.
fn prefab_step(harness: &mut Harness<'static, PebbleApp>, rng: &mut Rng) -> String {
    let app = harness.state();
    let scene = app.scene();
    let prefabs = app.doc.prefabs.placeable(scene);
    let instances: Vec<EntityId> = scene
        .entities()
        .filter(|e| e.instance.is_some())
        .map(|e| e.id)
        .collect();
    let content: Vec<EntityId> = scene
        .entities()
        .filter(|e| scene.instance_of(e.id).is_some())
        .map(|e| e.id)
        .collect();
    let ctx = harness.ctx.clone();
    match rng.below(5) {
        0 if !prefabs.is_empty() => {
            let p = &prefabs[rng.below(prefabs.len())];
            let (id, name) = (p.id, p.name.clone());
            harness.state_mut().apply(
                &ctx,
                vec![Intent::PlacePrefab {
                    prefab: id,
                    at: None,
                }],
            );
            harness.run_steps(1);
            format!("place prefab {name}")
        }
        1 | 2 if !content.is_empty() => {
            let id = content[rng.below(content.len())];
            let Some(mut e) = harness.state().scene().entity(id).cloned() else {
                return "gone".into();
            };
            let said = if rng.below(2) == 0 {
                e.name = format!("{} {}", e.name, rng.below(10));
                format!("rename {id} inside a copy to {}", e.name)
            } else {
                e.transform.translation += Vec3::new(rng.unit() - 0.5, 0.0, rng.unit() - 0.5);
                format!("move {id} inside a copy")
            };
            harness.state_mut().apply(
                &ctx,
                vec![
                    Intent::Select(vec![id]),
                    Intent::Commit {
                        command: Box::new(pebble_model::command::SetEntity::new(said.clone(), e)),
                        field: None,
                    },
                    Intent::EndEdit,
                ],
            );
            harness.run_steps(1);
            said
        }
        3 if !instances.is_empty() || !content.is_empty() => {
            let pool = if rng.below(2) == 0 && !content.is_empty() {
                &content
            } else if !instances.is_empty() {
                &instances
            } else {
                &content
            };
            let id = pool[rng.below(pool.len())];
            harness
                .state_mut()
                .apply(&ctx, vec![Intent::Select(vec![id])]);
            run_action(harness, Action::EnterInstance);
            format!("enter (or leave) the copy of {id}")
        }
        _ => {
            run_action(harness, Action::MakePrefab);
            "make a prefab of the selection".into()
        }
    }
}

/// The project's own kinds through the window's doors: one placed with the
/// Create menu's tool and a click, a field set (or reset) on one to three of a
/// kind as the inspector commits it, a link set, a game entity deleted.
fn game_entity_step(
    harness: &mut Harness<'static, PebbleApp>,
    rng: &mut Rng,
    at: egui::Pos2,
) -> String {
    let defs = harness.state().kinds();
    let scene = harness.state().scene();
    let instances: Vec<(EntityId, String)> = scene
        .entities()
        .filter_map(|e| match &e.kind {
            EntityKind::Defined(d) => Some((e.id, d.kind.clone())),
            _ => None,
        })
        .collect();
    let ids: Vec<EntityId> = instances.iter().map(|(id, _)| *id).collect();
    let ctx = harness.ctx.clone();
    match rng.below(6) {
        0 | 1 if !defs.kinds.is_empty() => {
            let kind = defs.kinds[rng.below(defs.kinds.len())].name.clone();
            harness.state_mut().start_create_defined(kind.clone());
            harness.run_steps(1);
            click(harness, at, egui::Modifiers::NONE, false);
            format!("create game entity {kind} at {at:?}")
        }
        2..=4 if !instances.is_empty() => {
            let (first, kind) = &instances[rng.below(instances.len())];
            let mut chosen: Vec<EntityId> = vec![*first];
            for (id, k) in &instances {
                if k == kind && id != first && chosen.len() < 3 && rng.below(2) == 0 {
                    chosen.push(*id);
                }
            }
            let Some(def) = defs.kind(kind).filter(|k| !k.fields.is_empty()) else {
                return format!("no fields to edit on {kind}");
            };
            let field = &def.fields[rng.below(def.fields.len())];
            let value = (rng.below(5) > 0).then(|| field_value(rng, &defs, field, &ids));
            let said = format!("set {}.{} on {chosen:?} to {value:?}", kind, field.name);
            let command = SetFieldValues::new(said.clone(), chosen, &field.name, value);
            harness.state_mut().apply(
                &ctx,
                vec![
                    Intent::Commit {
                        command: Box::new(command),
                        field: None,
                    },
                    Intent::EndEdit,
                ],
            );
            harness.run_steps(1);
            said
        }
        5 if !instances.is_empty() => {
            let (id, kind) = &instances[rng.below(instances.len())];
            harness
                .state_mut()
                .apply(&ctx, vec![Intent::Select(vec![*id])]);
            run_action(harness, Action::Delete);
            format!("delete game entity {id} ({kind})")
        }
        _ => "no game entity to work on".into(),
    }
}

/// The window the fuzzer's app lives in: smaller than the other tests' 1280×800
/// (the software rasterizer draws the viewport every frame; fewer pixels, more
/// steps a second), still room for every panel.
const WINDOW: egui::Vec2 = egui::Vec2::new(640.0, 400.0);

/// On average, once in this many steps the project is saved and opened again.
const REOPEN_EVERY: usize = 150;

/// `action` `times` over, as a held shortcut's repeats arrive: several to a frame.
fn repeat(harness: &mut Harness<'static, PebbleApp>, action: Action, times: usize) {
    let ctx = harness.ctx.clone();
    for k in 0..times {
        harness.state_mut().run_action(&ctx, action);
        if k % 16 == 15 {
            harness.run_steps(1);
        }
    }
    harness.run_steps(1);
}

/// A stretch of steps between two openings of the project: where it started.
struct Stretch {
    start: Vec<u8>,
    start_steps: usize,
    /// With `PEBBLE_FUZZ_TRACE` set: the scene after each step, by history
    /// position, with the step that left it, to name the step a failed redo
    /// went wrong at. Off by default: saving the scene after every step costs.
    trace: Option<std::collections::BTreeMap<usize, (Vec<u8>, String)>>,
}

impl Stretch {
    fn begin(harness: &Harness<'static, PebbleApp>, scratch: &Path) -> Self {
        Self {
            start: bytes(harness.state().scene(), scratch),
            start_steps: harness.state().history_position(),
            trace: std::env::var_os("PEBBLE_FUZZ_TRACE").map(|_| Default::default()),
        }
    }

    fn after_step(&mut self, harness: &Harness<'static, PebbleApp>, scratch: &Path, said: &str) {
        if let Some(trace) = &mut self.trace {
            let position = harness.state().history_position();
            // Saved after every step: a step that changed the scene but made no
            // history step of its own must have merged into the one before, and
            // the redo at the end shows whether it did.
            let now = bytes(harness.state().scene(), scratch);
            trace.insert(position, (now, said.into()));
        }
    }

    /// Out of play mode and any tool's work, as a person would finish; then every
    /// step undone (the start again) and redone (the end again). Returns the end.
    fn check(
        &self,
        harness: &mut Harness<'static, PebbleApp>,
        scratch: &Path,
        said: &dyn Fn() -> String,
    ) -> Vec<u8> {
        if harness.state().viewport.tools.playing() {
            run_action(harness, Action::Play);
        }
        for _ in 0..2 {
            harness.key_press(egui::Key::Escape);
            harness.run_steps(1);
        }
        let end = bytes(harness.state().scene(), scratch);
        let applied = harness.state().history_position();
        repeat(harness, Action::Undo, applied - self.start_steps);
        let undone = bytes(harness.state().scene(), scratch);
        assert!(
            undone == self.start,
            "undoing every step did not give back the start ({}); {}",
            first_difference(&self.start, &undone),
            said()
        );
        repeat(harness, Action::Redo, applied - self.start_steps);
        let redone = bytes(harness.state().scene(), scratch);
        assert!(
            redone == end,
            "redoing every step did not give back the end ({}); {}; {}",
            first_difference(&end, &redone),
            {
                let one_by_one =
                    Self::first_step_redone_wrong(harness, scratch, self.start_steps, applied);
                format!(
                    "{one_by_one}; {}",
                    self.first_step_unlike_its_first_time(harness, scratch)
                )
            },
            said()
        );
        end
    }

    /// Which history step's redo fails to give back the scene it had: the scenes
    /// on the way down (undo, which the check above found right) against those on
    /// the way up, one step at a time.
    fn first_step_redone_wrong(
        harness: &mut Harness<'static, PebbleApp>,
        scratch: &Path,
        start_steps: usize,
        applied: usize,
    ) -> String {
        let names = harness.state().history_names();
        let mut down = vec![bytes(harness.state().scene(), scratch)];
        for _ in start_steps..applied {
            repeat(harness, Action::Undo, 1);
            down.push(bytes(harness.state().scene(), scratch));
        }
        down.reverse();
        for position in start_steps + 1..=applied {
            repeat(harness, Action::Redo, 1);
            let up = bytes(harness.state().scene(), scratch);
            let want = &down[position - start_steps];
            if &up != want {
                return format!(
                    "the first step whose redo differs: {position} {:?} ({})",
                    names.get(position - 1),
                    first_difference(want, &up)
                );
            }
        }
        "every single redo gave back its scene".into()
    }

    /// With a trace: the first history step whose redo differs from the scene
    /// the step itself left.
    fn first_step_unlike_its_first_time(
        &self,
        harness: &mut Harness<'static, PebbleApp>,
        scratch: &Path,
    ) -> String {
        let Some(trace) = &self.trace else {
            return "set PEBBLE_FUZZ_TRACE=1 to name the step".into();
        };
        let applied = harness.state().history_position();
        let names = harness.state().history_names();
        repeat(harness, Action::Undo, applied - self.start_steps);
        for position in self.start_steps + 1..=applied {
            repeat(harness, Action::Redo, 1);
            let up = bytes(harness.state().scene(), scratch);
            if let Some((want, step)) = trace.get(&position)
                && &up != want
            {
                return format!(
                    "the first step whose redo differs from its first time: {position} {:?}, left by the step {step:?} ({})",
                    names.get(position - 1),
                    first_difference(want, &up)
                );
            }
        }
        "every redo gave back the scene its step left".into()
    }
}

/// A sequence of `steps` from `seed` on `project`, with the invariants checked
/// at each reopening and at the end.
fn sequence(project: PathBuf, seed: u64, steps: usize) {
    let Some(mut harness) =
        common::harness_of_size(project, true, common::fresh_data_dir(), WINDOW)
    else {
        return;
    };
    let scratch = std::env::temp_dir().join(format!("pebble-fuzz-{}-{seed}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch");
    let actions: Vec<Action> = action::ALL
        .iter()
        .copied()
        .filter(|a| !leaves_the_app(*a))
        .collect();
    let mut rng = Rng(seed);
    let mut log: Vec<String> = Vec::new();
    let mut stretch = Stretch::begin(&harness, &scratch);
    for _ in 0..steps {
        if rng.below(REOPEN_EVERY) == 0 {
            log.push("save, open again".into());
            let said = || format!("seed {seed}; the steps:\n{}", log.join("\n"));
            let end = stretch.check(&mut harness, &scratch, &said);
            assert!(
                harness.state_mut().save(),
                "the project did not save: {:?}; {}",
                harness.state().status(),
                said()
            );
            let path = harness.state().project_path().to_path_buf();
            harness.state_mut().open_path(path);
            harness.run_steps(2);
            let reopened = bytes(harness.state().scene(), &scratch);
            assert!(
                reopened == end,
                "save → open in the app changed the scene ({}); {}",
                first_difference(&end, &reopened),
                said()
            );
            assert_eq!(
                harness.state().history_position(),
                0,
                "a fresh history; {}",
                said()
            );
            stretch = Stretch::begin(&harness, &scratch);
        } else {
            log.push(step(&mut harness, &mut rng, &actions));
            stretch.after_step(&harness, &scratch, log.last().map_or("", String::as_str));
        }
    }
    let said = || format!("seed {seed}; the steps:\n{}", log.join("\n"));
    let end = stretch.check(&mut harness, &scratch, &said);
    // Saved and opened again: the same scene.
    let saved = scratch.join("saved.pebble.ron");
    project::save(&saved, harness.state().scene()).expect("saves");
    let reopened = project::load(&saved).expect("opens what it saved");
    assert!(
        bytes(&reopened, &scratch) == end,
        "save → open changed the scene; {}",
        said()
    );
    // The export: a strictly valid map, or a refusal naming an entity.
    let scene = harness.state().scene().clone();
    let folder = harness
        .state()
        .project_path()
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    match pebble_core::services::export::to_bytes(&scene, folder, false) {
        Ok(map) => {
            let (view, warnings) = pbm::MapView::parse(&map).expect("a map that reads");
            assert!(warnings.is_empty(), "{warnings:?}; {}", said());
            let issues = pbm::compliance::check(&pbm::Map::from_view(&view));
            assert!(issues.is_empty(), "{issues:?}; {}", said());
        }
        Err(e) => {
            let text = format!("{e:#}");
            assert!(
                scene.entities().any(|en| text.contains(&en.name)),
                "the export refused without naming an entity: {text}; {}",
                said()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// The first lines where two saved projects differ, for the failure's message.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    match la.iter().zip(&lb).position(|(x, y)| x != y) {
        Some(k) => format!(
            "line {k}: {:?} / {:?}; context: {:?}",
            la[k],
            lb[k],
            &la[k.saturating_sub(6)..k]
        ),
        None => format!("{} lines against {}", la.len(), lb.len()),
    }
}

fn empty_project(seed: u64) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-fuzz-empty-{}-{seed}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("empty.pebble.ron");
    project::save(&path, &Scene::new()).expect("an empty project");
    // The showcase's kinds beside it: game entities are made there too.
    std::fs::write(
        dir.join(pebble_model::definitions::FILE_NAME),
        pebble_core::services::showcase::DEFINITIONS,
    )
    .expect("the definitions");
    path
}

#[test]
fn short_random_sequences_keep_every_invariant() {
    for &(seed, steps) in REGRESSIONS {
        let project = if seed.is_multiple_of(3) {
            empty_project(seed)
        } else {
            showcase_path()
        };
        sequence(project, seed, steps);
    }
    for seed in [1, 2] {
        sequence(showcase_path(), seed, 60);
    }
    sequence(empty_project(3), 3, 60);
}

/// Steps in each sequence of the long run: long enough that starting the app is
/// a small share of the time.
const LONG_SEQUENCE: usize = 300;

#[test]
#[ignore = "the fuzzer's long run (at least ten minutes and 100 000 steps; PEBBLE_FUZZ_SECONDS and PEBBLE_FUZZ_STEPS set others): run with `cargo test -p pebble-cli --test fuzz_editor -- --ignored` (CI does)"]
fn long_random_sequences_keep_every_invariant() {
    let seconds: u64 = std::env::var("PEBBLE_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    // The steps are asked for too: a slower machine makes fewer in the same time
    // (this code made 233–254 steps/s on one machine, 132 on another).
    let min_steps: usize = std::env::var("PEBBLE_FUZZ_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    // Two apps at once keep both cores busy: one lays out its frame while the
    // other's is rasterised.
    let workers: usize = std::env::var("PEBBLE_FUZZ_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    // A machine too slow for the steps stops here and says so below, rather than
    // outlast CI.
    let ceiling = started + Duration::from_secs(seconds.saturating_mul(3));
    // PEBBLE_FUZZ_FIRST_SEED goes on where an earlier run stopped.
    let first_seed: u64 = std::env::var("PEBBLE_FUZZ_FIRST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let next_seed = AtomicU64::new(first_seed);
    // Counted as a sequence begins; all have ended when the scope does.
    let steps = AtomicUsize::new(0);
    let go_on = || {
        let now = Instant::now();
        now < ceiling && (now < until || steps.load(Ordering::Relaxed) < min_steps)
    };
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while go_on() {
                    steps.fetch_add(LONG_SEQUENCE, Ordering::Relaxed);
                    let seed = next_seed.fetch_add(1, Ordering::Relaxed);
                    let project = if seed.is_multiple_of(3) {
                        empty_project(seed)
                    } else {
                        showcase_path()
                    };
                    sequence(project, seed, LONG_SEQUENCE);
                }
            });
        }
    });
    let took = started.elapsed().as_secs_f64();
    let steps = steps.into_inner();
    let short = if steps < min_steps {
        format!(
            "; SHORT of the {min_steps} steps asked: stopped at {} s",
            seconds.saturating_mul(3)
        )
    } else {
        String::new()
    };
    // Straight to stderr, past libtest's capture: CI's log shows the figure of a
    // run that passed.
    let _ = writeln!(
        std::io::stderr(),
        "fuzzer: {} sequences, {steps} steps in {took:.0} s ({:.1} steps/s) on {workers} threads, every invariant kept{short}",
        next_seed.into_inner() - first_seed,
        steps as f64 / took
    );
}
