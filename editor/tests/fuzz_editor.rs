//! The editor fuzzed through the entry points the window uses: the action table
//! (every action but those that leave the app: files, deploy, PPSSPP, quit), the
//! Create menu's items, and pointer clicks and drags in the viewport (some
//! cancelled with Esc half-way), on the real app (egui_kittest, the real renderer
//! on lavapipe), from a seed. After each sequence:
//!
//! - nothing panicked (the harness would have);
//! - undoing every step gives back the starting scene exactly (the saved bytes);
//! - redoing every step gives back the final scene;
//! - saving and opening again gives the same scene;
//! - the export either succeeds and the map validates strictly, or refuses with
//!   a message naming an entity.
//!
//! A short run is in the normal suite (a few seeds, on the showcase and on an
//! empty project); `PEBBLE_FUZZ_SECONDS` sets a long run's length for the ignored
//! test (CI runs it for a minute; ten minutes by hand). A failure prints its seed;
//! each one found is kept in `REGRESSIONS` once fixed.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui;
use egui_kittest::Harness;
use pebble_editor::app::action::{self, Action};
use pebble_editor::app::create::CreateItem;
use pebble_editor::app::{PebbleApp, showcase_path};
use pebble_model::{Scene, project};

/// Seeds that once found something, run every time.
const REGRESSIONS: &[u64] = &[];

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

const CREATE: [CreateItem; 8] = [
    CreateItem::Box,
    CreateItem::Plane,
    CreateItem::Stairs,
    CreateItem::Ramp,
    CreateItem::Cylinder,
    CreateItem::PlayerSpawn,
    CreateItem::Patrol,
    CreateItem::Trigger,
];

/// The project as saved: the scene's bytes (selection and view are not in them),
/// less the id allocator's counters: ids are never handed out twice, even after
/// an undo (a redo makes the same ids again), so the counters only grow.
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
        } else if !in_ids {
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

/// One step: an action, a Create item, a click or a drag in the viewport.
fn step(harness: &mut Harness<'static, PebbleApp>, rng: &mut Rng, actions: &[Action]) -> String {
    let (_, rect) = harness.state().view();
    let mut at = || {
        let (x, y) = (rng.unit(), rng.unit());
        egui::pos2(
            rect.min.x + 10.0 + x * (rect.width() - 20.0),
            rect.min.y + 10.0 + y * (rect.height() - 20.0),
        )
    };
    let (a, b) = (at(), at());
    match rng.below(10) {
        0..=4 => {
            let action = actions[rng.below(actions.len())];
            run_action(harness, action);
            format!("{action:?}")
        }
        5 => {
            let item = CREATE[rng.below(CREATE.len())];
            harness.state_mut().start_create(item);
            harness.run_steps(1);
            format!("create {item:?}")
        }
        6 | 7 => {
            common::click(harness, a);
            format!("click {a:?}")
        }
        _ => {
            let escape = rng.below(3) == 0;
            common::press_and_move(harness, a, b, 4);
            if escape {
                harness.key_press(egui::Key::Escape);
                harness.run_steps(1);
            }
            harness.drop_at(b);
            harness.run_steps(2);
            format!("drag {a:?} → {b:?}{}", if escape { " (Esc)" } else { "" })
        }
    }
}

/// A sequence of `steps` from `seed` on `project`, then the invariants.
fn sequence(project: PathBuf, seed: u64, steps: usize) {
    let Some(mut harness) = common::harness_on(project) else {
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
    let start = bytes(harness.state().scene(), &scratch);
    let start_steps = harness.state().history_position();
    let mut rng = Rng(seed);
    let mut log = Vec::new();
    for _ in 0..steps {
        log.push(step(&mut harness, &mut rng, &actions));
    }
    let said = |log: &[String]| format!("seed {seed}; the steps:\n{}", log.join("\n"));
    // Out of play mode and any tool's work, as a person would finish.
    if harness.state().viewport.tools.playing() {
        run_action(&mut harness, Action::Play);
    }
    for _ in 0..2 {
        harness.key_press(egui::Key::Escape);
        harness.run_steps(1);
    }
    let end = bytes(harness.state().scene(), &scratch);
    let applied = harness.state().history_position();
    for _ in start_steps..applied {
        run_action(&mut harness, Action::Undo);
    }
    let undone = bytes(harness.state().scene(), &scratch);
    assert!(
        undone == start,
        "undoing every step did not give back the start ({}); {}",
        first_difference(&start, &undone),
        said(&log)
    );
    for _ in start_steps..applied {
        run_action(&mut harness, Action::Redo);
    }
    assert!(
        bytes(harness.state().scene(), &scratch) == end,
        "redoing every step did not give back the end; {}",
        said(&log)
    );
    // Saved and opened again: the same scene.
    let saved = scratch.join("saved.pebble.ron");
    project::save(&saved, harness.state().scene()).expect("saves");
    let reopened = project::load(&saved).expect("opens what it saved");
    assert!(
        bytes(&reopened, &scratch) == end,
        "save → open changed the scene; {}",
        said(&log)
    );
    // The export: a strictly valid map, or a refusal naming an entity.
    let scene = harness.state().scene().clone();
    let folder = harness
        .state()
        .project_path()
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    match pebble_editor::services::export::to_bytes(&scene, folder, false) {
        Ok(map) => {
            let (view, warnings) = pbm::MapView::parse(&map).expect("a map that reads");
            assert!(warnings.is_empty(), "{warnings:?}; {}", said(&log));
            let issues = pbm::compliance::check(&pbm::Map::from_view(&view));
            assert!(issues.is_empty(), "{issues:?}; {}", said(&log));
        }
        Err(e) => {
            let text = format!("{e:#}");
            assert!(
                scene.entities().any(|en| text.contains(&en.name)),
                "the export refused without naming an entity: {text}; {}",
                said(&log)
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

fn empty_project() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pebble-fuzz-empty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("empty.pebble.ron");
    project::save(&path, &Scene::new()).expect("an empty project");
    path
}

#[test]
fn short_random_sequences_keep_every_invariant() {
    for &seed in REGRESSIONS {
        sequence(showcase_path(), seed, 60);
    }
    for seed in [1, 2] {
        sequence(showcase_path(), seed, 40);
    }
    sequence(empty_project(), 3, 40);
}

#[test]
#[ignore = "the fuzzer's long run (PEBBLE_FUZZ_SECONDS, 60 by default; 600 for ten minutes): run with `cargo test -p pebble-editor --test fuzz_editor -- --ignored` (CI does)"]
fn long_random_sequences_keep_every_invariant() {
    let seconds: u64 = std::env::var("PEBBLE_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut seed = 1000;
    let mut steps = 0;
    while Instant::now() < until {
        let project = if seed % 3 == 0 {
            empty_project()
        } else {
            showcase_path()
        };
        sequence(project, seed, 100);
        steps += 100;
        seed += 1;
    }
    eprintln!(
        "fuzzer: {} sequences, {steps} steps, every invariant kept",
        seed - 1000
    );
}
