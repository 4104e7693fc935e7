//! Play mode in the whole app: F5 plays the map from the spawn in the viewport
//! with the shared rules — walking forward into a wall stops there — and Esc
//! gives the editing view back with the scene untouched; Shift+F5 plays from the
//! camera, onto a ramp (it climbs) and into a trigger (its event is in the Log).
//! The rules themselves are tested here too, without a window, on the same map.

use crate::common;

use egui_kittest::kittest::Queryable as _;
use pebble_editor::app::PebbleApp;
use pebble_model::command::{AddEntities, AddMaterial};
use pebble_model::definitions::FieldValue;
use pebble_model::definitions::builtin::instance;
use pebble_model::entity::{EntityKind, GeometrySource, MeshEntity};
use pebble_model::glam::Vec3;
use pebble_model::{Command, Entity, Material, Primitive, Scene, Transform, project};
use pebble_viewport::navigation::OrbitCamera;

use common::{harness_on, wait_for};

type Harness = egui_kittest::Harness<'static, PebbleApp>;

fn mesh(name: &str, primitive: Primitive, at: Vec3, m: pebble_model::MaterialId) -> Entity {
    Entity::new(
        name,
        EntityKind::Mesh(MeshEntity {
            geometry: primitive.generate(m).expect("geometry"),
            source: GeometrySource::Primitive(primitive),
            collidable: true,
        }),
    )
    .with_transform(Transform::from_translation(at))
}

/// A floor with its top at 0.5, a wall ahead of the spawn, a ramp climbing north
/// to the east, a trigger to the west.
fn arena() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pebble-play-{}-{k}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let mut scene = Scene::new();
    let mut add = AddMaterial::new(Material::default());
    add.apply(&mut scene).expect("material");
    let m = add.created().expect("id");
    let trigger = Entity::new(
        "Archway",
        EntityKind::Defined(instance(
            "Trigger",
            [
                ("size", FieldValue::Point(Vec3::new(2.0, 3.0, 2.0))),
                ("event", FieldValue::Text("on_enter_archway".into())),
                ("oneshot", FieldValue::Bool(true)),
            ],
        )),
    )
    .with_transform(Transform::from_translation(Vec3::new(-5.0, 0.5, 0.0)));
    let spawn = Entity::new("Spawn", EntityKind::Defined(instance("PlayerSpawn", [])))
        .with_transform(Transform::from_translation(Vec3::new(0.0, 2.1, 4.0)));
    AddEntities::new(
        "Add",
        vec![
            mesh(
                "Floor",
                Primitive::Box {
                    size: Vec3::new(20.0, 0.5, 20.0),
                },
                Vec3::ZERO,
                m,
            ),
            mesh(
                "Wall",
                Primitive::Box {
                    size: Vec3::new(4.0, 3.0, 0.4),
                },
                Vec3::new(0.0, 0.5, -2.0),
                m,
            ),
            mesh(
                "Ramp",
                Primitive::Wedge {
                    width: 2.0,
                    height: 1.0,
                    depth: 4.0,
                },
                Vec3::new(5.0, 0.5, 0.0),
                m,
            ),
            trigger,
            spawn,
        ],
    )
    .apply(&mut scene)
    .expect("entities");
    let path = dir.join("arena.pebble.ron");
    project::save(&path, &scene).expect("saves");
    path
}

/// Holds `key` for `frames` frames (a test's frames are long: the game steps
/// 0.1 s each, its longest).
fn hold(harness: &mut Harness, key: egui::Key, frames: usize) {
    harness.key_down(key);
    harness.run_steps(frames);
    harness.key_up(key);
    harness.run_steps(1);
}

fn feet(app: &mut PebbleApp) -> (Vec3, bool) {
    app.viewport.tools.play_session().expect("playing").feet()
}

#[test]
fn the_map_is_played_in_the_viewport_and_esc_gives_the_editor_back() {
    let Some(mut harness) = harness_on(arena()) else {
        return;
    };
    let editing = harness.state().viewport.view.orbit;
    let steps = harness.state().history_names();
    let scene = harness.state().scene().clone();

    harness.key_press(egui::Key::F5);
    wait_for(&mut harness, |app| app.viewport.tools.playing());
    let (start, on_ground) = feet(harness.state_mut());
    assert!(
        on_ground && (start - Vec3::new(0.0, 0.5, 4.0)).length() < 1e-3,
        "{start}"
    );
    // The camera is the player's eye.
    let (camera, _) = harness.state().view();
    assert!(
        (camera.eye - Vec3::new(0.0, 2.1, 4.0)).length() < 1e-3,
        "{}",
        camera.eye
    );

    // W walks ahead into the wall and stops there.
    hold(&mut harness, egui::Key::W, 60);
    let (at, _) = feet(harness.state_mut());
    assert!(
        (at.z - -1.5).abs() < 0.05 && at.x.abs() < 0.05,
        "stopped at the wall: {at}"
    );
    // The editor's keys are the game's meanwhile: Delete deletes nothing.
    harness.key_press(egui::Key::Delete);
    harness.run_steps(2);

    // Esc: editing again, the view as it was, the scene untouched.
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    assert!(!harness.state().viewport.tools.playing());
    assert_eq!(harness.state().viewport.view.orbit, editing);
    assert_eq!(harness.state().history_names(), steps);
    assert_eq!(harness.state().scene(), &scene);
}

/// The action table's contexts: a text field being typed in keeps its keys
/// (Delete deletes a letter, not the selection), but F5 is never text and starts
/// Play there too (`Context::Anywhere`).
#[test]
fn in_a_text_field_delete_is_text_and_f5_still_plays() {
    let Some(mut harness) = harness_on(arena()) else {
        return;
    };
    let id = common::entity(harness.state(), "Floor");
    harness.get_by_label("Floor  (mesh)").click();
    harness.run_steps(2);
    assert_eq!(harness.state().scene().selection(), &[id]);
    let field = harness
        .query_all_by_role(egui::accesskit::Role::TextInput)
        .find(|n| n.value().as_deref() == Some("Floor"))
        .map(|n| n.rect().center())
        .expect("the inspector's name field");
    common::click(&mut harness, field);
    harness.run_steps(1);
    harness.key_press(egui::Key::End);
    harness.key_press(egui::Key::Delete);
    harness.key_press(egui::Key::Backspace);
    harness.run_steps(2);
    assert!(
        harness.state().scene().entity(id).is_some(),
        "Delete and Backspace in a text field are the field's"
    );
    assert!(!harness.state().viewport.tools.playing());
    harness.key_press(egui::Key::F5);
    wait_for(&mut harness, |app| app.viewport.tools.playing());
}

#[test]
fn from_the_camera_the_player_climbs_the_ramp_and_fires_the_trigger() {
    let Some(mut harness) = harness_on(arena()) else {
        return;
    };
    // The camera at the foot of the ramp, looking north (−Z).
    let look_from = |harness: &mut Harness, eye: Vec3| {
        let view = &mut harness.state_mut().viewport.view;
        let mut orbit = OrbitCamera {
            yaw: 0.0,
            pitch: 0.0,
            distance: 1.0,
            ..OrbitCamera::default()
        };
        orbit.pivot = eye + orbit.forward();
        view.orbit = orbit;
        view.target = None;
        harness.run_steps(2);
    };
    look_from(&mut harness, Vec3::new(5.0, 2.1, 3.5));
    harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F5);
    wait_for(&mut harness, |app| app.viewport.tools.playing());
    hold(&mut harness, egui::Key::W, 12);
    let (on_ramp, on_ground) = feet(harness.state_mut());
    assert!(on_ground && on_ramp.y > 0.8, "climbed the ramp: {on_ramp}");
    harness.key_press(egui::Key::F5);
    harness.run_steps(2);
    assert!(!harness.state().viewport.tools.playing(), "F5 again stops");

    // Into the archway's trigger: the event is logged.
    look_from(&mut harness, Vec3::new(-5.0, 2.1, 4.0));
    harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F5);
    wait_for(&mut harness, |app| app.viewport.tools.playing());
    hold(&mut harness, egui::Key::W, 20);
    let events = harness
        .state_mut()
        .viewport
        .tools
        .play_session()
        .expect("playing")
        .events
        .clone();
    assert_eq!(events, ["on_enter_archway"]);
    assert!(
        harness
            .state()
            .panels
            .log_buffer
            .snapshot()
            .iter()
            .any(|e| e.message.contains("trigger event on_enter_archway")),
        "the Log has it"
    );
    // The runtime's HUD: the frame's figures, where the eye is, and the event.
    let hud = harness.state().viewport.hud.clone();
    assert!(
        hud[0].starts_with("FPS ") && hud[0].contains("Tris "),
        "{hud:?}"
    );
    let eye = harness
        .state_mut()
        .viewport
        .tools
        .play_session()
        .expect("playing")
        .eye();
    assert!(
        hud.contains(&format!("pos {:.1} {:.1} {:.1}", eye.x, eye.y, eye.z)),
        "{hud:?}"
    );
    assert_eq!(
        hud.last().map(String::as_str),
        Some("on_enter_archway"),
        "{hud:?}"
    );
    // H hides it (the hint at the bottom says how to get it back), H shows it.
    harness.key_press(egui::Key::H);
    harness.run_steps(2);
    assert!(harness.state().viewport.hud.is_empty(), "H hides the HUD");
    assert!(
        harness.state().viewport.tools.playing(),
        "and the game goes on"
    );
    harness.key_press(egui::Key::H);
    harness.run_steps(2);
    assert!(!harness.state().viewport.hud.is_empty(), "H shows it again");
    // The event goes from the HUD after a while, as on the device.
    hold(&mut harness, egui::Key::S, 40);
    let hud = harness.state().viewport.hud.clone();
    assert!(!hud.iter().any(|l| l == "on_enter_archway"), "{hud:?}");
}

#[test]
fn a_map_with_nothing_to_stand_on_says_so_instead_of_falling() {
    let dir = std::env::temp_dir().join(format!("pebble-play-void-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let mut scene = Scene::new();
    AddEntities::new(
        "Add",
        vec![Entity::new(
            "Spawn",
            EntityKind::Defined(instance("PlayerSpawn", [])),
        )],
    )
    .apply(&mut scene)
    .expect("entities");
    let path = dir.join("void.pebble.ron");
    project::save(&path, &scene).expect("saves");
    let Some(mut harness) = harness_on(path) else {
        return;
    };
    harness.key_press(egui::Key::F5);
    wait_for(&mut harness, |app| {
        app.status().text.contains("nothing to stand on")
    });
    assert!(!harness.state().viewport.tools.playing());
    assert!(harness.state().status().text.contains("collidable"));
}

// The rules without a window: the same arena, its level built as play mode builds it.

use std::sync::Arc;

use pebble_core::play::{LOOK_SPEED, PITCH_LIMIT, PlayKeys, PlaySession, TURN_SPEED, build_level};
use pebble_play::Level;

fn level() -> Arc<Level> {
    let path = arena();
    let scene = project::load(&path).expect("loads");
    Arc::new(build_level(&scene, path.parent().expect("folder").to_path_buf()).expect("a level"))
}

fn walk_forward(s: &mut PlaySession, seconds: f32) -> Vec<String> {
    let keys = PlayKeys {
        forward: 1.0,
        ..Default::default()
    };
    let mut fired = Vec::new();
    for _ in 0..(seconds * 60.0) as usize {
        fired.extend(s.step(keys, 1.0 / 60.0));
    }
    fired
}

#[test]
fn the_spawn_stands_on_the_floor_with_its_eye_1_6_m_up() {
    let s = PlaySession::start(level(), None);
    let (feet, on_ground) = s.feet();
    assert!(on_ground);
    assert!((feet.y - 0.5).abs() < 1e-3, "{feet}");
    assert!((s.eye().y - 2.1).abs() < 1e-3);
}

#[test]
fn walking_into_a_wall_stops_at_it() {
    let mut s = PlaySession::start(level(), None);
    walk_forward(&mut s, 4.0);
    let (feet, _) = s.feet();
    // The wall's near side is at z = −1.8; the capsule's radius keeps it 0.3 off.
    assert!((feet.z - -1.5).abs() < 0.05, "stopped at the wall: {feet}");
    assert!(feet.x.abs() < 0.05, "straight on: {feet}");
}

#[test]
fn walking_onto_the_ramp_climbs_it() {
    let mut s = PlaySession::start(level(), Some((Vec3::new(5.0, 2.1, 3.5), 0.0, 0.0)));
    walk_forward(&mut s, 1.2);
    let (feet, on_ground) = s.feet();
    assert!(on_ground, "on the ramp");
    assert!(feet.y > 0.5 + 0.3, "climbed: {feet}");
}

#[test]
fn walking_into_a_trigger_fires_its_event_once() {
    let mut s = PlaySession::start(level(), Some((Vec3::new(-5.0, 2.1, 4.0), 0.0, 0.0)));
    let fired = walk_forward(&mut s, 2.0);
    assert_eq!(fired, ["on_enter_archway"]);
    // Back out and in again: a oneshot fires once.
    let keys = PlayKeys {
        forward: -1.0,
        ..Default::default()
    };
    for _ in 0..120 {
        s.step(keys, 1.0 / 60.0);
    }
    assert!(walk_forward(&mut s, 2.0).is_empty());
    assert_eq!(s.events, ["on_enter_archway"]);
}

#[test]
fn the_keys_turn_and_look_and_a_fall_respawns() {
    let mut s = PlaySession::start(level(), None);
    s.step(
        PlayKeys {
            turn: 1.0,
            look: 1.0,
            ..Default::default()
        },
        0.1,
    );
    assert!((s.yaw - TURN_SPEED * 0.1).abs() < 1e-5);
    assert!((s.pitch - LOOK_SPEED * 0.1).abs() < 1e-5);
    for _ in 0..100 {
        s.step(
            PlayKeys {
                look: 1.0,
                ..Default::default()
            },
            0.1,
        );
    }
    assert!(
        (s.pitch - PITCH_LIMIT).abs() < 1e-5,
        "the look stops at the limit"
    );
    // Off the floor's edge, down past the kill height: back at the spawn.
    let mut off = PlaySession::start(
        level(),
        Some((Vec3::new(9.5, 2.1, 0.0), std::f32::consts::FRAC_PI_2, 0.0)),
    );
    let keys = PlayKeys {
        forward: 1.0,
        ..Default::default()
    };
    let mut lowest = f32::MAX;
    let respawned = (0..600).any(|_| {
        off.step(keys, 1.0 / 60.0);
        let (feet, _) = off.feet();
        lowest = lowest.min(feet.y);
        (feet.z - 4.0).abs() < 1e-3
    });
    assert!(
        respawned && lowest < 0.0,
        "fell ({lowest}) and came back to the spawn"
    );
}

#[test]
fn the_spawn_marker_draws_the_capsule_the_rules_walk() {
    use pebble_model::definitions::{Shape, builtin};
    use pebble_play::walk::{BODY_HEIGHT, EYE_HEIGHT, RADIUS};
    let spawn = builtin::kinds().kind("PlayerSpawn").expect("built in");
    assert_eq!(
        spawn.shape,
        Shape::Figure([RADIUS, BODY_HEIGHT, EYE_HEIGHT])
    );
    assert_eq!(spawn.lift, EYE_HEIGHT, "put down at the eye's height");
}

#[test]
fn sound_sources_are_one_colour_in_the_editor_and_the_runtime() {
    let sound = pebble_model::definitions::builtin::kinds()
        .kind("SoundSource")
        .expect("built in");
    assert_eq!(
        pebble_render::game_overlay::line_colour(sound.colour),
        pebble_play::shapes::SOUND_COLOR
    );
}
